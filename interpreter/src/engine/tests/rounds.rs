//! Engine stage: tests of rounds (`round { }`, `end round`, `eliminate P for round`): a player out
//! for the round is skipped and left out of the lists of players until the round ends; a check that
//! reads the living players is not skipped when one is out and another back (the count the same);
//! the closures play rounds as the walker does, recorded or not.

use super::games::choose;
use crate::check::check_source;
use crate::engine::{Event, Game, GameConfig, Status};
use crate::testing::run_tests;
use std::sync::Arc;

/// Three seats play hands: each may fold (out for the hand), quit (out for the game) or end the
/// hand at once. Each turn logs who is still in. A check ends the game as soon as P3 is out.
const SCRIPT: &str = r#"
game "Hands" { players 3 }
var hands: int = 0
action fold label "Fold" { eliminate you for round }
action quit label "Quit" { eliminate you }
action call_it label "End the hand" { end round }
action walk_out label "Quit and end the hand" {
  eliminate you
  end round
}
check { if eliminated(seat(3)) { win [seat(1)] "P3 is out" } }
flow {
  loop {
    round {
      hands += 1
      for p in everyone {
        turn p {
          log "hand {hands}: {everyone} in, {count(opponents(p))} against {p}"
          actions by p once or pass [fold, quit, call_it, walk_out]
        }
      }
    }
  }
}
test "a folded player sits out the hand and is back for the next" {
  choose "pass"
  choose "Fold"
  expect log "hand 1: P1, P3 in, 1 against P3"
  expect eliminated(seat(2))
  choose "pass"
  expect log "hand 2: P1, P2, P3 in, 2 against P1"
  expect not eliminated(seat(2))
}
test "quitting is for the whole game, also after folding" {
  choose "Fold"
  choose "pass"
  choose "pass"
  expect decider seat(1)
  choose "Quit"
  choose "pass"
  choose "pass"
  expect log "hand 3: P2, P3 in, 1 against P2"
}
test "end round ends the hand at once" {
  choose "Fold"
  choose "End the hand"
  expect log "hand 2: P1, P2, P3 in"
  expect decider seat(1)
}
"#;

fn program(src: &str) -> Arc<crate::program::Program> {
    let checked = check_source(src);
    Arc::new(
        checked
            .program
            .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics)),
    )
}

#[test]
fn the_rules_tests_of_rounds_pass() {
    let p = program(SCRIPT);
    let outcomes = run_tests(&p, SCRIPT);
    assert_eq!(outcomes.len(), 3);
    for o in outcomes {
        assert!(o.passed(), "{}: {:?}", o.name, o.failure);
    }
}

#[test]
fn the_trace_says_who_is_out_for_the_round_and_who_is_back() {
    let mut g = Game::new(program(SCRIPT), GameConfig::new(3, 1));
    g.take_events();
    choose(&mut g, "pass");
    choose(&mut g, "Fold");
    choose(&mut g, "pass");
    let events = g.take_events();
    let out = Event::OutForRound {
        player: 1,
        name: "P2".into(),
    };
    assert!(events.contains(&out), "{events:?}");
    let back = Event::RoundEnd {
        back: vec![1],
        names: vec!["P2".into()],
    };
    assert!(events.contains(&back), "{events:?}");
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| crate::engine::render_event(&g, e, Some(0)))
        .collect();
    assert!(
        lines.contains(&"P2 is out for the round".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"the round ends: P2 is back".to_string()),
        "{lines:?}"
    );
}

/// P2 folds (one player out: the check, run at the end of P2's turn, is false), P3 quits and ends
/// the hand in one action (no check runs between), P2 is back: one player out again. The check that
/// reads `eliminated(seat(3))` must be evaluated again at the next decision though as many players
/// are out. (A version counting the players out skipped it: a debug build's safety net panicked, a
/// release build went on.)
#[test]
fn a_check_is_not_skipped_when_one_player_is_out_and_another_back() {
    let mut g = Game::new(program(SCRIPT), GameConfig::new(3, 1));
    choose(&mut g, "pass");
    choose(&mut g, "Fold");
    choose(&mut g, "Quit and end the hand");
    match g.status() {
        Status::Over(o) => assert_eq!(o.reason, "P3 is out"),
        s => panic!("the check did not end the game: {s:?}"),
    }
}

/// E211: `end round` and `eliminate P for round` in a script with no round, a round written inside a
/// round; a round entered inside a round through a procedure is a runtime error.
#[test]
fn rounds_are_checked() {
    let codes = |src: &str| -> Vec<&'static str> {
        check_source(src)
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect()
    };
    let no_round = SCRIPT.replace("round {", "strict {");
    assert_eq!(codes(&no_round), ["E211", "E211", "E211"]);
    let nested = SCRIPT.replace("hands += 1", "hands += 1 round { }");
    assert_eq!(codes(&nested), ["E211"]);
    let through_a_proc = SCRIPT
        .replace("hands += 1", "hands += 1 inner()")
        .replace("flow {", "proc inner() { round { } }\nflow {");
    let mut g = Game::new(program(&through_a_proc), GameConfig::new(3, 1));
    g.take_events();
    match g.status() {
        Status::Error(e) => assert!(e.message.contains("rounds do not nest"), "{e:?}"),
        s => panic!("not an error: {s:?}"),
    }
}

#[test]
fn rounds_on_the_closures_are_the_walkers() {
    // `eliminate you for round` compiles (while nobody records); the games agree with the walker's.
    let p = super::oracle::checked(SCRIPT);
    let closures = p.closures.clone().expect("closures are built");
    let fold = (p.actions.iter())
        .find(|a| a.name == "fold")
        .expect("the action `fold`");
    assert_eq!(closures.compiled_in(fold.body.block), (1, 1));
    assert!(super::closures::lockstep_in(&p, "rounds", 3, 12, false) >= 30);
    assert!(super::closures::lockstep_in(&p, "rounds", 3, 12, true) >= 30);
}

/// A game of `p` on `engine` played to its end by the first option (3 players, recorded): the
/// decisions, the status, the events, and the statements the walker's loop ran.
fn ended(
    p: &Arc<crate::program::Program>,
    engine: crate::engine::Engine,
) -> ((usize, String, String), u64) {
    let mut g = Game::new(p.clone(), super::oracle::config(3, 1, engine));
    g.set_recording(true);
    let mut decisions = 0;
    while let Status::Decision(_) = g.status() {
        g.apply(0).expect("an option");
        decisions += 1;
    }
    let log: Vec<Event> = g.take_events();
    let shown = (decisions, format!("{:?}", g.status()), format!("{log:?}"));
    (shown, g.counted().statements)
}

/// `eliminate P for round` inside and outside a round (through a procedure) on the closures: the
/// statement compiles (its value by its closure), and its effect and its error are the walker's
/// (`Mach::out_for_round_of`), as the walker's own game shows them; the walker runs no statement.
#[test]
fn out_for_round_inside_and_outside_a_round_on_the_closures() {
    let src = r#"
game "Benched" { players 3 }
proc bench(p: player) { eliminate p for round }
flow {
  round {
    bench(seat(2))
    bench(seat(3))
    for p in everyone {
      turn p {
        log "{everyone} in"
        choose by p { "a" { } "b" { } }
      }
    }
  }
  bench(seat(1))
}
"#;
    let p = super::oracle::checked(src);
    let closures = p.closures.clone().expect("closures are built");
    let bench = (p.procs.iter())
        .find(|d| d.name == "bench")
        .expect("the procedure `bench`");
    assert_eq!(closures.compiled_in(bench.body.block), (1, 1));
    let ended = |engine| ended(&p, engine);
    let (on_closures, walked) = ended(crate::engine::Engine::Closures);
    assert_eq!(on_closures.0, 1, "P1 alone decides in the round");
    assert!(on_closures.1.contains("outside a round"), "{on_closures:?}");
    assert_eq!(walked, 0, "statements the walker's loop ran");
    assert_eq!(on_closures, ended(crate::engine::Engine::Walker).0);
}

/// `eliminate P` of a seat and of no seat (`none`, which puts nobody out) on the closures: the
/// statement compiles, and its effect is the walker's (`Mach::eliminate_value`), as the walker's
/// own game shows it; the walker runs no statement (it ran the second, `none` being no word).
#[test]
fn eliminate_of_a_seat_and_of_no_seat_on_the_closures() {
    let src = r#"
game "Quits" { players 3 }
flow {
  eliminate seat(2)
  log "{everyone} in"
  choose by seat(1) { "a" { } "b" { } }
  eliminate seat(count(everyone) + 7)
}
"#;
    let p = super::oracle::checked(src);
    let closures = p.closures.clone().expect("closures are built");
    let flow = p.flow.as_ref().expect("a flow");
    assert_eq!(closures.compiled_in(flow.block), (4, 4));
    let ended = |engine| ended(&p, engine);
    let (on_closures, walked) = ended(crate::engine::Engine::Closures);
    assert_eq!(on_closures.0, 1, "P1 decides");
    assert!(on_closures.1.contains("the flow ended"), "{on_closures:?}");
    assert_eq!(walked, 0, "statements the walker's loop ran");
    assert_eq!(on_closures, ended(crate::engine::Engine::Walker).0);
}
