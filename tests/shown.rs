//! What `show` revealed and the private log (`log "text" to P`): the whole trace and the seat shown
//! read the card and the line; every other seat's view (`run --view K`, text and JSON) reads neither.

use crate::common::{cardgame, temp_script};

/// Seat 1 looks at the one card in seat 2's hand and notes it in its private log.
const SCRIPT: &str = r#"game "Peek" { players 3 }
card "Gem {r}" for r in 1..9 { }
zone deck: pile, hidden
zone hand per player: set, owner
setup {
  move box to deck
  shuffle deck
  for p in everyone { move top of deck to p.hand }
}
action peek(c in seat(2).hand) label "Peek" {
  show c to you
  log "P2 holds {c}" to you
}
flow {
  turn seat(1) { actions by seat(1) once [peek] }
  win [] "done"
}
test "the private log is in the trace" {
  choose "Peek"
  expect log "P2 holds Gem"
}
"#;

fn run(path: &str, extra: &[&str]) -> String {
    let mut args = vec!["run", path, "--seed", "3"];
    args.extend_from_slice(extra);
    let out = cardgame(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_seat_reads_only_what_it_was_shown() {
    let path = temp_script("peek.cardgame", SCRIPT);
    let path = path.to_str().expect("a path");
    let test = cardgame(&["test", path]);
    assert_eq!(test.status.code(), Some(0), "{:?}", test);

    let all = run(path, &[]);
    let shown = all
        .lines()
        .find_map(|l| l.strip_suffix(" in P2.hand shown to P1"))
        .unwrap_or_else(|| panic!("the whole trace says what was shown:\n{all}"));
    assert!(shown.starts_with("Gem "), "{shown}");
    assert!(
        all.contains(&format!("log to P1: P2 holds {shown}")),
        "{all}"
    );

    // Seat 1 was shown the card: it reads the line and its private log.
    let one = run(path, &["--view", "1"]);
    assert!(
        one.contains(&format!("{shown} in P2.hand shown to P1")),
        "{one}"
    );
    assert!(
        one.contains(&format!("log to P1: P2 holds {shown}")),
        "{one}"
    );

    // Seat 3 was not: the card is never named, and P1's private log is not there.
    let three = run(path, &["--view", "3"]);
    assert!(three.contains("a card in P2.hand shown to P1"), "{three}");
    assert!(!three.contains(shown), "{three}");
    assert!(!three.contains("log to P1"), "{three}");
    let json = run(path, &["--view", "3", "--format", "json"]);
    assert!(!json.contains(shown), "{json}");
    assert!(!json.contains("private_log"), "{json}");
    // Seat 2 holds the card, but does not read seat 1's private log.
    let two = run(path, &["--view", "2"]);
    assert!(!two.contains("log to P1"), "{two}");
    let json = run(path, &["--format", "json"]);
    assert!(
        json.contains(r#""type":"private_log""#) && json.contains(r#""player":1"#),
        "{json}"
    );
}
