//! Command-line tests: the contract of docs/cli.md (exit codes, determinism, JSON results, bad input).

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common::cardgame;

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
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

pub(crate) fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
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

/// An option's value declared for some player counts (`teams (players 4, 6)`) refuses the others
/// with exit 2 and a message naming the option and its counts, for an explicit value and a default;
/// the engine refuses to create such a game too (a rules test that asks for it fails).
#[test]
fn an_option_value_for_other_player_counts_is_a_usage_error() {
    let crayne = concat!(env!("CARGO_MANIFEST_DIR"), "/games/crayne.cardgame");
    let o = cardgame(&["run", crayne, "--players", "3", "--option", "variant=teams"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("option `variant = teams` is for 4 or 6 players, not 3"),
        "{}",
        stderr(&o)
    );
    for count in ["4", "6"] {
        let o = cardgame(&[
            "sim",
            crayne,
            "--players",
            count,
            "--option",
            "variant=teams",
            "--games",
            "1",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let src = "game \"Modes\" {\n  players 2..4\n  option mode: one of duel (players 2), free = duel\n}\n\
               flow { log \"{mode}\" }\n\
               test \"three players cannot duel\" {\n  players 3\n  expect over\n}\n";
    let path = temp_file("modes.cardgame", src.as_bytes());
    let path = path.to_str().expect("a path");
    let o = cardgame(&["run", path, "--players", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("option `mode = duel` is for 2 players, not 3"),
        "{}",
        stderr(&o)
    );
    let o = cardgame(&["run", path, "--players", "3", "--option", "mode=free"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = cardgame(&["test", path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("is for 2 players, not 3"),
        "{}",
        stdout(&o)
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
    // One numbering of seats, from 1, in every line: the `over` event names the result's winners, a
    // turn's player is the seat whose name it carries.
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let over = lines
        .iter()
        .find(|v| v["type"] == "over")
        .expect("an over line");
    assert_eq!(over["winners"], last["winners"], "{over} {last}");
    for turn in lines.iter().filter(|v| v["type"] == "turn") {
        let seat = turn["player"].as_u64().expect("a seat");
        assert_eq!(turn["name"], format!("P{seat}"), "{turn}");
    }
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
    // The result, then the agents of the seats (Secret Bids has no `fn score`).
    let last = &out[out.rfind("result: ").unwrap_or(0)..].trim_end();
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

// Issue 17: diagnostics go to standard error for every command; results to standard output.
#[test]
fn diagnostics_go_to_standard_error_and_results_to_standard_output() {
    let bad = "tests/errors/E103-unknown-card.cardgame";
    let o = cardgame(&["check", bad]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{bad}: 1 error, 0 warnings\n"));
    assert!(stderr(&o).contains("E103"), "{}", stderr(&o));
    let o = cardgame(&["test", bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("no card is named"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("the script has errors"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).ends_with("0 passed, 1 failed\n"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("E103"), "{}", stderr(&o));
    for cmd in ["run", "cards", "sim", "strategies"] {
        let o = cardgame(&[cmd, bad]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        assert_eq!(stdout(&o), "", "{cmd}");
        assert!(stderr(&o).contains("E103"), "{cmd}: {}", stderr(&o));
    }
    // A clean script: results only, nothing on standard error.
    let o = cardgame(&["check", example()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
    assert!(stdout(&o).contains("0 errors"), "{}", stdout(&o));
}

/// Every line of standard output parsed as JSON.
fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

#[test]
fn check_json_writes_one_object_per_diagnostic_then_a_summary() {
    let bad = "tests/errors/E103-unknown-card.cardgame";
    let missing = temp_file("present.cardgame", b"")
        .with_file_name("absent.cardgame")
        .to_string_lossy()
        .into_owned();
    let dup = "tests/errors/E101-duplicate.cardgame";
    let o = cardgame(&["check", "--format", "json", bad, &missing, dup]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "", "JSON goes to standard output only");
    let lines = json_lines(&o);
    let d = &lines[0];
    assert_eq!(d["type"], "diagnostic");
    assert_eq!(d["file"], bad);
    assert_eq!(d["code"], "E103");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["message"], "no card is named \"Farmng Village\"");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(5), Some(19))
    );
    assert_eq!(d["help"], "did you mean `Farming Village`?");
    let label = &d["labels"][0];
    assert_eq!(label["primary"], true);
    assert_eq!(label["message"], "unknown card");
    assert_eq!(
        (label["line"].as_u64(), label["end_line"].as_u64()),
        (Some(5), Some(5))
    );
    // `"Farmng Village"` with its quotes: 16 characters.
    assert_eq!(label["end_column"].as_u64(), Some(35));
    assert_eq!(
        lines[1],
        serde_json::json!({"type": "summary", "file": bad, "errors": 1, "warnings": 0})
    );
    // A file that cannot be read: an error without a code or a place.
    assert_eq!(lines[2]["type"], "diagnostic");
    assert_eq!(lines[2]["code"], serde_json::Value::Null);
    assert_eq!(lines[2]["line"], serde_json::Value::Null);
    assert!(lines[2]["message"]
        .as_str()
        .is_some_and(|m| m.contains("cannot read")));
    assert_eq!(lines[3]["errors"], 1);
    // A duplicate names its first definition as a second label.
    let e101 = lines
        .iter()
        .find(|d| d["code"] == "E101")
        .expect("an E101 diagnostic");
    let labels = e101["labels"].as_array().expect("labels");
    assert!(labels.len() >= 2, "{e101}");
    assert_eq!(labels[1]["primary"], false);
    for d in lines.iter().filter(|d| d["type"] == "diagnostic") {
        for key in [
            "code", "severity", "message", "file", "line", "column", "help", "labels",
        ] {
            assert!(d.get(key).is_some(), "{key} missing in {d}");
        }
    }
    let last = lines.last().expect("a summary");
    assert_eq!(
        (last["type"].as_str(), last["file"].as_str()),
        (Some("summary"), Some(dup))
    );
}

#[test]
fn test_json_writes_one_object_per_test_then_a_summary() {
    let script = temp_file(
        "json-tests.cardgame",
        br#"game "J" { players 2 }
var coins per player: int = 0
flow { win [seat(1)] "done" }
test "holds" { expect seat(1).coins == 0 }

test "fails" { expect seat(1).coins == 1 }
"#,
    );
    let path = script.to_string_lossy().into_owned();
    let o = cardgame(&["test", "--format", "json", &path]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 3, "{}", stdout(&o));
    assert_eq!(
        lines[0],
        serde_json::json!({"type": "test", "file": path, "name": "holds", "line": 4,
            "outcome": "passed", "message": null})
    );
    assert_eq!(lines[1]["name"], "fails");
    assert_eq!(lines[1]["line"], 6);
    assert_eq!(lines[1]["outcome"], "failed");
    let why = lines[1]["message"].as_str().expect("a message");
    assert!(
        why.contains("the left side is 0, the right side is 1"),
        "{why}"
    );
    assert_eq!(
        lines[2],
        serde_json::json!({"type": "summary", "passed": 1, "failed": 1, "filtered_out": 0})
    );
    // A script with errors: its diagnostics as JSON, counted as one failure.
    let o = cardgame(&[
        "test",
        "--format=json",
        "tests/errors/E103-unknown-card.cardgame",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    assert_eq!(lines[0]["code"], "E103");
    assert_eq!(
        lines.last(),
        Some(&serde_json::json!({"type": "summary", "passed": 0, "failed": 1, "filtered_out": 0}))
    );
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let bad = "tests/errors/E103-unknown-card.cardgame";
    let has_escape = |o: &Output| o.stdout.contains(&0x1b) || o.stderr.contains(&0x1b);
    // Piped: no colour, whatever NO_COLOR says.
    assert!(!has_escape(&cardgame(&["check", bad])));
    assert!(!has_escape(&cardgame(&["--color", "never", "check", bad])));
    let always = cardgame(&["check", bad, "--color", "always"]);
    assert!(stderr(&always).contains("\x1b["), "{}", stderr(&always));
    // The words are the same as without colour.
    let plain = stderr(&cardgame(&["check", bad]));
    assert!(plain.contains("E103") && stderr(&always).contains("E103"));
    let o = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(["check", bad, "--color=auto"])
        .env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    assert!(!has_escape(&o));
    assert_eq!(o.status.code(), Some(1));
    // Test results are coloured too when asked.
    let t = cardgame(&["test", "examples/duel.cardgame", "--color", "always"]);
    assert!(stdout(&t).contains("\x1b[32mok\x1b[0m"), "{}", stdout(&t));
    assert!(!has_escape(&cardgame(&["test", "examples/duel.cardgame"])));
    assert_eq!(
        cardgame(&["--color", "sometimes", "check", bad])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn test_filter_runs_the_tests_whose_names_contain_the_text() {
    let o = cardgame(&["test", "examples/duel.cardgame", "--filter", "parry"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("ok")).count(),
        1,
        "{out}"
    );
    assert!(out.contains("a parry cancels the attack"), "{out}");
    assert!(
        out.ends_with("1 passed, 0 failed, 5 filtered out\n"),
        "{out}"
    );
    let o = cardgame(&[
        "test",
        "examples/duel.cardgame",
        "--filter",
        "a ",
        "--format",
        "json",
    ]);
    let lines = json_lines(&o);
    let last = lines.last().expect("a summary");
    assert_eq!(last["passed"].as_u64(), Some(lines.len() as u64 - 1));
    assert_eq!(
        last["passed"].as_u64().unwrap_or(0) + last["filtered_out"].as_u64().unwrap_or(0),
        6
    );
    assert!(last["filtered_out"].as_u64() > Some(0), "{last}");
    let o = cardgame(&["test", "examples/duel.cardgame", "--filter", "no such test"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).ends_with("0 passed, 0 failed, 6 filtered out\n"));
    assert!(stderr(&o).contains("no test name contains `no such test`"));
}

/// The entries of a `-h` help (`  --flag <V>  what it does`) that say nothing of what they do.
fn undescribed(help: &str) -> Vec<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-') || l.starts_with('<') || l.starts_with('['))
        .filter(|l| {
            let text = l.split_once("  ").map_or("", |(_, t)| t.trim());
            text.is_empty() || text.starts_with('[')
        })
        .map(String::from)
        .collect()
}

#[test]
fn every_flag_and_argument_is_described_in_the_help() {
    let commands = [
        "check",
        "fmt",
        "run",
        "cards",
        "sim",
        "tournament",
        "play",
        "strategies",
        "test",
    ];
    let top = cardgame(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    for cmd in commands {
        assert!(stdout(&top).contains(cmd), "{cmd} missing from --help");
        let o = cardgame(&[cmd, "-h"]);
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        let help = stdout(&o);
        assert!(help.contains("--color"), "{cmd}: {help}");
        assert_eq!(undescribed(&help), Vec::<String>::new(), "{cmd}: {help}");
    }
    assert!(stdout(&cardgame(&["check", "-h"])).contains("--watch"));
    assert!(stdout(&cardgame(&["test", "-h"])).contains("--filter <TEXT>"));
    // The agents are listed where `--agents` is taken, short and long.
    for cmd in ["run", "sim", "tournament", "play"] {
        for flag in ["-h", "--help"] {
            let help = stdout(&cardgame(&[cmd, flag]));
            for name in cardgame_interpreter::agents::AGENT_NAMES {
                assert!(help.contains(name), "{cmd} {flag} lacks {name}: {help}");
            }
            assert!(help.contains("mcts[:N|:T]") && help.contains("strategy:NAME"));
        }
    }
}
