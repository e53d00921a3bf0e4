//! Command-line tests: the contract of docs/cli.md (exit codes, determinism, JSON results, bad input).

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;
use common::cardgame;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn example() -> &'static str {
    "examples/market-race.cardgame"
}

fn scripts() -> Vec<String> {
    let mut v = vec![];
    for dir in ["games", "examples"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
        if let Ok(rd) = std::fs::read_dir(path) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".cardgame") {
                    v.push(format!("{dir}/{name}"));
                }
            }
        }
    }
    v.sort();
    v
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardgame-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("temp file");
    p
}

#[test]
fn check_accepts_every_script() {
    let files = scripts();
    let mut args = vec!["check"];
    args.extend(files.iter().map(|s| s.as_str()));
    let o = cardgame(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn check_reports_errors_with_exit_1() {
    let o = cardgame(&["check", "tests/errors/E102-unknown-name.cardgame"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("E102"), "{err}");
    assert!(err.contains("did you mean `round`?"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(cardgame(&[]).status.code(), Some(2));
    assert_eq!(cardgame(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        cardgame(&["run", example(), "--players", "9"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        cardgame(&["run", example(), "--agents", "randon"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        cardgame(&["run", example(), "--option", "nonsense=1"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn same_seed_same_trace_and_different_seeds_differ() {
    let a = cardgame(&["run", example(), "--players", "2", "--seed", "5"]);
    let b = cardgame(&["run", example(), "--players", "2", "--seed", "5"]);
    let c = cardgame(&["run", example(), "--players", "2", "--seed", "6"]);
    assert_eq!(
        a.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    assert_eq!(stdout(&a), stdout(&b));
    assert_ne!(stdout(&a), stdout(&c));
}

#[test]
fn json_trace_ends_with_the_result() {
    let o = cardgame(&[
        "run",
        example(),
        "--players",
        "3",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for line in out.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("not JSON: {line}: {e}"));
    }
    let last: serde_json::Value =
        serde_json::from_str(out.lines().last().expect("a line")).expect("json");
    assert_eq!(last["type"], "result");
    assert!(last["winners"].is_array());
    assert!(last["reason"].is_string());
    assert!(last["turns"].is_u64());
    assert!(last["steps"].is_u64());
}

#[test]
fn turn_limit_stops_a_game_with_a_clear_message() {
    let o = cardgame(&["run", example(), "--players", "2", "--max-turns", "2"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("turn limit"), "{}", stdout(&o));
}

#[test]
fn cards_shows_the_inventory() {
    let o = cardgame(&["cards", example(), "--players", "2"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    insta::assert_snapshot!(stdout(&o));
    let j = cardgame(&["cards", example(), "--players", "2", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).expect("json inventory");
    assert!(v["cards"].is_array());
    assert!(v["zones"].is_array());
}

// The README's taste of the language is a whole game: it checks, its rules test passes, and it plays.
#[test]
fn the_readme_taste_is_a_whole_game() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = readme.find("```cardgame\n").expect("a cardgame block") + "```cardgame\n".len();
    let len = readme[start..].find("```").expect("the block ends");
    let script = temp_file("taste.cardgame", &readme.as_bytes()[start..start + len]);
    let path = script.to_string_lossy().into_owned();
    let o = cardgame(&["check", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("0 errors, 0 warnings"),
        "{}",
        stdout(&o)
    );
    let o = cardgame(&["test", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
    let o = cardgame(&["run", &path, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("\"finished\":true"), "{}", stdout(&o));
}

// After `do`, a pending menu is listed again: an option the `do` made legal is offered at once.
#[test]
fn a_do_block_relists_the_pending_menu() {
    let script = temp_file(
        "do.cardgame",
        br#"game "D" { players 2 }
var coins per player: int = 0
action buy() label "Buy" if you.coins >= 3 { win [you] "bought" }
flow {
  turn seat(1) { actions by seat(1) until pass [buy] }
  win [seat(2)] "passed"
}
test "do changes what the menu offers" {
  expect options lacks "Buy"
  do { seat(1).coins = 3 }
  expect options has "Buy"
  choose "Buy"
  expect winners [seat(1)]
}
"#,
    );
    let o = cardgame(&["test", &script.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

// `expect not over` passes while the game goes on and fails, with the end's reason, once it is over.
#[test]
fn expect_not_over_checks_that_the_game_goes_on() {
    let script = temp_file(
        "not-over.cardgame",
        br#"game "N" { players 2 }
var n: int = 0
action tick() label "Tick" { n += 1 }
flow {
  turn seat(1) { actions by seat(1) until pass [tick] }
  win [seat(1)] "done"
}
test "goes on until pass" {
  choose "Tick"
  expect not over
  choose "pass"
  expect over
}
test "fails when over" {
  choose "pass"
  expect not over
}
"#,
    );
    let o = cardgame(&["test", &script.to_string_lossy()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("ok   "), "{out}");
    assert!(
        out.contains("line 16: `expect not over`: the game is over: done"),
        "{out}"
    );
    assert!(out.contains("1 passed, 1 failed"), "{out}");
}

// A failed comparison says what each side was (docs/cli.md: "what was expected, what was found").
#[test]
fn a_failed_comparison_shows_both_sides() {
    let script = temp_file(
        "sides.cardgame",
        br#"game "Sides" { players 2 }
zone hand per player: set
card "Ruby" { copies 2 }
var coins per player: int = 0
setup { move box to seat(1).hand }
flow { win [seat(1)] "done" }
test "coins" { expect seat(1).coins + 2 == 3 }
test "cards" { expect count(seat(1).hand) >= 5 }
test "players" { expect [seat(1), seat(2)] == [seat(2)] }
test "truth" { expect seat(1).coins == 0 }
"#,
    );
    let o = cardgame(&["test", &script.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    for want in [
        "expected true, got false: the left side is 2, the right side is 3",
        "expected true, got false: the left side is 2, the right side is 5",
        "expected true, got false: the left side is [P1, P2], the right side is [P2]",
        "1 passed, 3 failed",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
}

#[test]
fn test_command_runs_rules_tests() {
    let o = cardgame(&["test", example()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.lines().last().unwrap_or("").ends_with("0 failed"),
        "{out}"
    );
}

#[test]
fn bad_input_never_panics() {
    let deep = format!(
        "game \"D\" {{ players 2 }}\nflow {{ log \"{{{}1{}}}\" }}\n",
        "(".repeat(20000),
        ")".repeat(20000)
    );
    let blocks = format!(
        "game \"D\" {{ players 2 }}\nflow {}{}\n",
        "{ loop ".repeat(5000),
        "}".repeat(5000)
    );
    let big = "// filler\n".repeat(1_000_000);
    let never = "game \"Loop\" { players 2 }\nvar n: int = 0\nflow { loop { n += 1 } }\n";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty.cardgame", vec![]),
        (
            "junk.cardgame",
            (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect(),
        ),
        ("nul.cardgame", b"game \0 \x01 { players }".to_vec()),
        ("deep.cardgame", deep.into_bytes()),
        ("blocks.cardgame", blocks.into_bytes()),
        ("big.cardgame", big.into_bytes()),
        ("never.cardgame", never.as_bytes().to_vec()),
    ];
    for (name, bytes) in cases {
        let p = temp_file(name, &bytes);
        let path = p.to_string_lossy().into_owned();
        for cmd in ["check", "run", "test", "cards"] {
            let o = cardgame(&[cmd, &path]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(!err.contains("panicked"), "{cmd} {name} panicked: {err}");
            assert!(
                matches!(o.status.code(), Some(0..=2)),
                "{cmd} {name}: {:?} {err}",
                o.status
            );
        }
    }
}

#[test]
fn play_is_driven_through_standard_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(["play", "examples/duel.cardgame", "--seed", "3"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    {
        let stdin = child.stdin.as_mut().expect("stdin");
        let mut answers = String::from("9\nxyz\n");
        answers.push_str(&"1\n".repeat(400));
        stdin.write_all(answers.as_bytes()).expect("write answers");
    }
    let o = child.wait_with_output().expect("finished");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(out.contains("You are P1"), "{out}");
    assert!(out.contains("1. "), "{out}");
    assert!(out.contains("9 is not an option"), "{out}");
    assert!(out.contains("`xyz` is not an option"), "{out}");
    assert!(
        out.contains("game over") || out.contains("no more input"),
        "{out}"
    );
    // The person's seat sees its own hand but never the opponent's.
    assert!(out.contains("P1.hand (5):"), "{out}");
    assert!(out.contains("P2.hand (5): 5 hidden"), "{out}");
}

#[test]
fn command_outputs_are_snapshotted() {
    // The diagnostics (standard error) then the summary (standard output), as a terminal shows them.
    let check = cardgame(&["check", "tests/errors/E103-unknown-card.cardgame"]);
    insta::assert_snapshot!(
        "check_output",
        format!("{}{}", stderr(&check), stdout(&check))
    );
    let test = cardgame(&["test", "examples/duel.cardgame"]);
    insta::assert_snapshot!("test_output", stdout(&test));
    let run = cardgame(&[
        "run",
        "examples/secret-bids.cardgame",
        "--players",
        "3",
        "--seed",
        "4",
        "--view",
        "2",
    ]);
    let out = stdout(&run);
    let head: Vec<&str> = out.lines().take(60).collect();
    let last = out.lines().last().unwrap_or("");
    insta::assert_snapshot!(
        "run_output_seat_2",
        format!("{}\n...\n{last}", head.join("\n"))
    );
}

/// Run the binary with its standard output closed by the reader: after `keep` bytes (0: at once).
fn with_closed_stdout(args: &[&str], keep: usize) -> Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut out) = child.stdout.take() {
        let mut buf = vec![0u8; keep];
        let _ = out.read_exact(&mut buf);
    }
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let files = scripts();
    let mut check = vec!["check"];
    check.extend(files.iter().map(|s| s.as_str()));
    let hoc = "games/heart-of-crown.cardgame";
    let cases: Vec<Vec<&str>> = vec![
        vec!["test", hoc],
        check,
        vec!["run", example(), "--players", "3"],
        vec!["run", example(), "--format", "json"],
        vec!["cards", hoc],
        vec!["sim", example(), "--games", "20", "--jobs", "1"],
        vec!["play", example()],
    ];
    for args in &cases {
        for keep in [0, 10] {
            let o = with_closed_stdout(args, keep);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                !err.contains("panicked"),
                "{args:?} after {keep} bytes: {err}"
            );
            assert!(
                matches!(o.status.code(), Some(0)),
                "{args:?} after {keep} bytes: {:?} {err}",
                o.status
            );
        }
    }
}

#[test]
fn a_board_too_large_for_the_engine_names_its_line() {
    // Written as numbers: a check error (E307) on the `spaces` line.
    let fixed = temp_file(
        "huge-board.cardgame",
        b"game \"Big\" { players 2 }\nspaces board: grid 9223372036854775807 by 3\nzone tile per space: set\nflow { }\n",
    );
    let o = cardgame(&["check", fixed.to_str().expect("path")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("E307") && err.contains("huge-board.cardgame:2:"),
        "{err}"
    );
    // Computed from an option: a runtime error when the game is created, naming line 3.
    let computed = temp_file(
        "option-board.cardgame",
        b"game \"Big\" {\n  players 2\n  option side: int 1..1000000 = 5 \"board side\"\n}\nspaces board: grid side by side\nzone tile per space: set\nflow { }\n",
    );
    let path = computed.to_str().expect("path");
    let ok = cardgame(&["run", path]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let o = cardgame(&["run", path, "--option", "side=1000000", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let last: serde_json::Value =
        serde_json::from_str(out.lines().last().expect("a line")).expect("json");
    assert_eq!(last["error"]["line"], 5, "{out}");
}
