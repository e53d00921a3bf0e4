//! Limits tests: every game stops in bounded time (docs/cli.md, Limits): a turn that never ends stops
//! at the decision limit, work without a decision at the step budget, and long menus list in linear
//! time.

use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status, DEFAULT_MAX_STEPS};
use std::process::Output;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::cardgame;

fn last_json(o: &Output) -> serde_json::Value {
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out.lines().last().expect("a result line");
    serde_json::from_str(line).expect("JSON")
}

fn game(source: &str) -> Game {
    let checked = check_source(source);
    let program = checked
        .program
        .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics));
    Game::new(Arc::new(program), GameConfig::new(2, 1))
}

/// The runtime error of a game, with its line.
fn error_of(g: &Game) -> (String, usize) {
    match g.status() {
        Status::Error(e) => (e.message.clone(), e.line),
        s => panic!("expected a runtime error, found {s:?}"),
    }
}

// The `first` agent sells and buys the same card for ever inside one turn of Craft the Crown: the
// turn limit is never reached, the decision limit ends the game (exit 0, unfinished).
#[test]
fn a_turn_that_never_ends_stops_at_the_decision_limit() {
    let start = Instant::now();
    let o = cardgame(&[
        "run",
        "games/craft-the-crown.cardgame",
        "--agents",
        "first",
        "--max-turns",
        "60",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let r = last_json(&o);
    assert_eq!(r["reason"], "limit of 10000 decisions reached in turn 1");
    assert_eq!(r["finished"], false);
    assert_eq!(r["winners"], serde_json::json!([]));
    assert_eq!(r["steps"], 10000);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );

    let o = cardgame(&[
        "run",
        "games/craft-the-crown.cardgame",
        "--agents",
        "first",
        "--max-decisions",
        "50",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "result: no winner (limit of 50 decisions reached in turn 1) after 1 turns and 50 decisions\nagents: P1 first, P2 first\n"
        ),
        "{out}"
    );
    let o = cardgame(&["run", "examples/duel.cardgame", "--max-decisions", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sim_counts_decision_limit_games_as_unfinished() {
    let o = cardgame(&[
        "sim",
        "games/craft-the-crown.cardgame",
        "--agents",
        "first",
        "--games",
        "3",
        "--jobs",
        "1",
        "--max-decisions",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let r = last_json(&o);
    assert_eq!(r["unfinished"], 3);
    assert_eq!(r["finished"], 0);
    assert_eq!(r["error_count"], 0);
    assert_eq!(
        r["end_reasons"],
        serde_json::json!({"limit of 100 decisions reached in one turn": 3})
    );
}

// A game without turns counts its decisions from the start.
#[test]
fn a_game_without_turns_stops_at_the_decision_limit() {
    let mut g = game(
        r#"game "Endless" { players 2 }
flow { loop { let x = choose x in [1, 2] by seat(1) } }
"#,
    );
    for _ in 0..10_000 {
        g.apply(0).expect("a decision");
    }
    match g.status() {
        Status::Over(o) => {
            assert_eq!(
                o.reason,
                "limit of 10000 decisions reached before the first turn"
            );
            assert!(!o.finished);
        }
        s => panic!("{s:?}"),
    }
}

// Options are listed in linear time: 100,001 numbers, and 30,000 hidden cards whose labels are all
// the same (every one is kept, and renamed "#2", "#3", ...).
#[test]
fn a_long_menu_is_listed_in_linear_time() {
    let start = Instant::now();
    let g = game(
        r#"game "Big menu" { players 2 }
flow {
  let x = choose x in 0..100000 by seat(1) prompt "Pick"
  win [seat(1)] "done"
}
"#,
    );
    let d = g.decision().expect("a decision");
    assert_eq!(d.options.len(), 100_001);
    assert_eq!(d.options[100_000], "100000");
    // Building the range and walking it: twice its length, and a little more.
    assert!(g.work() < 250_000, "{}", g.work());

    let g = game(
        r#"game "Hidden" { players 2 }
zone deck: pile, hidden
card "Coin" { copies 30000 }
setup { move box to deck }
flow {
  let c = choose c in deck by seat(1)
  win [seat(1)] "done"
}
"#,
    );
    let d = g.decision().expect("a decision");
    assert_eq!(d.options.len(), 30_000);
    assert_eq!(d.options[0], "a card from deck");
    assert_eq!(d.options[29_999], "a card from deck #30000");
    // Quadratic listing took minutes here; linear takes well under a second even unoptimised.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

// A million-element aggregate inside another, and a recursion of exponential cost, never reach a
// statement: the budget counts expressions and list items too, and names the line.
#[test]
fn evaluation_work_is_under_the_step_budget() {
    let g = game(
        r#"game "Big sum" { players 2 }
flow {
  let s = count(x in 0..1000000 where x in 0..1000000)
  win [seat(1)] "done"
}
"#,
    );
    let (message, line) = error_of(&g);
    assert_eq!(line, 3);
    assert!(
        message.contains(&format!("ran more than {DEFAULT_MAX_STEPS} steps")),
        "{message}"
    );

    let g = game(
        r#"game "Recursion" { players 2 }
fn fib(n: int): int = if n < 2 then n else fib(n - 1) + fib(n - 2)
flow {
  let s = fib(60)
  win [seat(1)] "done"
}
"#,
    );
    let (message, line) = error_of(&g);
    assert_eq!(line, 2);
    assert!(message.contains("steps"), "{message}");
    assert!(g.work() > DEFAULT_MAX_STEPS);
}

// An absurd copy count is an error naming its line: at check time when it is a constant, when the
// game is created otherwise (no silent cap).
#[test]
fn absurd_copy_counts_are_errors_naming_the_line() {
    let checked = check_source(
        r#"game "Many" { players 2 }
card "Grain" { copies 1000000000000000000 }
flow { }
"#,
    );
    assert!(checked.program.is_none());
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == "E308")
        .expect("E308");
    assert!(
        d.message.contains("1000000000000000000 copies"),
        "{}",
        d.message
    );

    let g = game(
        r#"game "Many" { players 2 }
card "Grain" {
  copies 65536 * players
}
flow { }
"#,
    );
    let (message, line) = error_of(&g);
    assert_eq!(line, 3);
    assert!(message.contains("131072 copies of \"Grain\""), "{message}");
}

// Above 16 options identical cards are found by hashing: they are still offered once (the first),
// in a `choose` and in a menu alike. 20 kinds of 3 copies each make 60 cards and 20 options.
#[test]
fn identical_cards_are_one_option_in_long_lists_too() {
    let mut script =
        String::from("game \"Merge\" { players 2 }\nzone market: set\nzone pile: pile\n");
    for k in 1..=20 {
        script.push_str(&format!("card \"K{k}\" {{ copies 3 }}\n"));
    }
    script.push_str(
        r#"action grab(c in market) label "Take {c}" { move c to pile }
setup { move box to market }
flow {
  let c = choose c in market by seat(1)
  actions by seat(1) until pass [grab]
}
"#,
    );
    let mut g = game(&script);
    let mut kinds: Vec<String> = (1..=20).map(|k| format!("K{k}")).collect();
    kinds.sort();
    let mut options = g.decision().expect("a choice").options.clone();
    options.sort();
    assert_eq!(options, kinds);
    g.apply(0).expect("chosen");
    let mut options = g.decision().expect("a menu").options.clone();
    options.sort();
    let mut expected: Vec<String> = kinds.iter().map(|k| format!("Take {k}")).collect();
    expected.push("pass".into());
    expected.sort();
    assert_eq!(options, expected);
}

// `cardgame test` takes the work and decision limits too: a budget too small for the setup fails
// every test with the step error (exit 1); the defaults pass.
#[test]
fn rules_tests_run_under_the_limits_given_on_the_command_line() {
    let o = cardgame(&["test", "examples/duel.cardgame", "--max-steps", "5"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("ran more than 5 steps"), "{out}");
    assert!(out.contains("0 passed, 6 failed"), "{out}");
    let o = cardgame(&["test", "examples/duel.cardgame"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
}

// A limit is not a rule of the game: `run` and `sim` say on standard error that games did not finish,
// and say nothing when every game finished.
#[test]
fn games_stopped_at_a_limit_are_reported_on_standard_error() {
    let o = cardgame(&["run", "examples/market-race.cardgame", "--max-turns", "2"]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning: the game did not finish: turn limit of 2 turns reached"),
        "{err}"
    );
    let o = cardgame(&[
        "sim",
        "examples/market-race.cardgame",
        "--games",
        "4",
        "--max-turns",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning: 4 of 4 games did not finish"),
        "{err}"
    );
    let o = cardgame(&["sim", "examples/market-race.cardgame", "--games", "4"]);
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}
