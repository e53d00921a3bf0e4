//! `cardgame play` at the terminal as a new user meets it (docs/cli.md, play): the setup in one line,
//! identical cards grouped, values as the language writes them, `?` for a card's text, the end said once.

use std::io::Write;
use std::process::{Command, Stdio};

/// The output of `cardgame play ARGS` answering `answers`.
fn play(args: &[&str], answers: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .arg("play")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .as_mut()
        .expect("stdin")
        .write_all(answers.as_bytes())
        .expect("answers");
    let o = child.wait_with_output().expect("finished");
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_first_prompt_comes_after_a_short_screen() {
    let out = play(&["games/heart-of-crown.cardgame"], "");
    let before: Vec<&str> = out
        .lines()
        .take_while(|l| !l.starts_with("  1. "))
        .collect();
    assert!(
        before.len() < 40,
        "{} lines before the options:\n{out}",
        before.len()
    );
    let setup = out.lines().filter(|l| l.contains("setup: ")).count();
    assert_eq!(setup, 1, "{out}");
    // A run of moves between two zones in one line, the unseen cards counted.
    assert!(out.contains("  | 5 cards: P2.deck -> P2.hand\n"), "{out}");
    // Every identical card of a zone in one group, and only the variables worth a look.
    let hand = out
        .lines()
        .find(|l| l.trim_start().starts_with("P1.hand"))
        .expect("a hand");
    let names: Vec<&str> = hand
        .split(": ")
        .nth(1)
        .expect("cards")
        .split(", ")
        .map(|g| g.split(" x").next().unwrap_or(g))
        .collect();
    let mut unique = names.clone();
    unique.dedup();
    unique.sort();
    unique.dedup();
    assert_eq!(names.len(), unique.len(), "{hand}");
    assert!(!out.contains("pending_debt 0"), "{out}");
    assert!(!out.contains("\"P2\"") && !out.contains("null"), "{out}");
}

#[test]
fn question_marks_show_a_cards_text() {
    let out = play(
        &["examples/market-race.cardgame", "--seed", "2"],
        "?\n? 1\n?silver\n?Nothing\n? 99\nvars\n",
    );
    assert!(out.contains("`? N` shows the card of option N"), "{out}");
    assert!(out.contains("Copper (Treasure)\n  +1 coin."), "{out}");
    assert!(
        out.contains("Silver (Treasure)\n  cost 3\n  +2 coins."),
        "{out}"
    );
    assert!(out.contains("no card is called `Nothing`"), "{out}");
    assert!(out.contains("there is no option 99"), "{out}");
    assert!(
        out.contains("coins 0, buys 1"),
        "`vars` lists every variable: {out}"
    );
}

#[test]
fn the_end_is_said_once_and_shown_variables_at_every_decision() {
    let out = play(&["examples/market-race.cardgame"], &"2\n".repeat(400));
    assert_eq!(out.matches("game over").count(), 1, "{out}");
    // `coins` and `buys` are declared `shown`: listed for both players at every decision.
    let players: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  P1") || l.starts_with("  P2"))
        .filter(|l| !l.contains('.'))
        .collect();
    assert!(players.len() > 20, "{out}");
    assert!(
        players
            .iter()
            .all(|l| l.contains("coins ") && l.contains("buys ")),
        "{players:#?}"
    );
}

#[test]
fn the_seats_agents_the_scores_and_only_the_shown_variables() {
    // Heart of Crown declares `coins`, `debt` and `plays` shown: its bookkeeping (`seq`, `pos`) is not
    // listed, and the first line names every other seat's agent.
    let out = play(&["games/heart-of-crown.cardgame", "--players", "3"], "");
    assert!(
        out.starts_with("You are P1 in \"Heart of Crown\" against P2 random, P3 random. "),
        "{out}"
    );
    for internal in ["seq ", "pos ", "tiebreak ", "has_bought "] {
        assert!(!out.contains(internal), "`{internal}` listed:\n{out}");
    }
    assert!(out.contains("coins 0"), "{out}");
    // Market Race has `fn score`: every seat's score at each decision and at the end.
    let out = play(
        &["examples/market-race.cardgame", "--agents", "greedy"],
        &"1\n".repeat(400),
    );
    assert!(
        out.starts_with("You are P1 in \"Market Race\" against P2 greedy. "),
        "{out}"
    );
    assert!(out.contains("\nscores: P1 3, P2 3\n"), "{out}");
    let end = out.find("game over").expect("the end");
    assert!(out[end..].contains("\nscores: P1 "), "{}", &out[end..]);
}

#[test]
fn a_single_option_is_taken_and_said() {
    let script = crate::common::temp_script(
        "forced.cardgame",
        r#"game "Forced" { players 2 }
flow {
  let a = choose n in [7] by seat(1) prompt "Only one"
  let b = choose n in [1, 2] by seat(1) prompt "Pick a seat"
  win [seat(b)] "picked {a}"
}
"#,
    );
    let out = play(&[&script.to_string_lossy()], "2\n");
    assert!(
        out.contains("  | Only one: `7`, the only option, taken for you\n")
            && out.contains("Pick a seat:\n"),
        "{out}"
    );
    assert!(!out.contains("Only one:\n"), "asked:\n{out}");
    assert!(out.contains("game over: P2 wins (picked 7)"), "{out}");
}

/// `why` explains each bot's choice since the person's last decision: a strategy's rule, a search's
/// options with visits and values; before any bot has chosen it says so.
#[test]
fn why_explains_the_bots_choices() {
    let out = play(
        &[
            "examples/signals.cardgame",
            "--players",
            "3",
            "--seed",
            "3",
            "--agents",
            "strategy:sensible,ismcts:100",
        ],
        "why\n1\nwhy\n",
    );
    assert!(
        out.contains("> no bot has chosen since your last decision\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "P2 (strategy:sensible) at \"Choose an action\" took `Tell P3 their card`: rule 4 of \
             strategy `sensible` (line 132) applies\n"
        ),
        "{out}"
    );
    let search = out
        .find("P3 (ismcts:100) at \"Choose an action\" took `")
        .expect("the search explained");
    assert!(
        out[search..].contains("100 iterations in 32 worlds")
            && out[search..].contains("     visits    value  option\n  *"),
        "{out}"
    );
}

/// `why` keeps the bots' last 40 choices when they made more since the person's last decision.
#[test]
fn why_keeps_the_last_forty_explanations() {
    let script = crate::common::temp_script(
        "many.cardgame",
        r#"game "Many" { players 2 }
flow {
  let a = choose n in [1, 2] by seat(1) prompt "First"
  repeat 45 {
    let b = choose n in [1, 2] by seat(2) prompt "Bot"
  }
  let c = choose n in [1, 2] by seat(1) prompt "Again"
  win [seat(1)] "done"
}
"#,
    );
    let out = play(&[&script.to_string_lossy()], "1\nwhy\n");
    let told = out.matches("P2 (random) at \"Bot\" took `").count();
    assert_eq!(told, 40, "{out}");
    assert!(out.contains("at random among 2 options\n"), "{out}");
}
