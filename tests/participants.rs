//! CLI tests of participants that are not seats (`participant NAME "Name"`): rules tests that name
//! one, `run` results, the runtime error of a decision addressed to one, and `sim`, `merge` and
//! `tournament` counting its wins.

use crate::common::{cardgame, json_report, temp_script};
use serde_json::Value;

/// A race against an automaton that plays only in the solo game: each turn a seat scores 1 or 2
/// (5 wins); after each round the Machine scores 1 (3 wins) when there is one seat.
const RACE: &str = r#"game "Race the Machine" { players 1..2 }

card "Point" { copies 12 }

zone deck: pile, hidden
zone scored per player: set, public
var points per player: int = 0

participant machine "the Machine"

setup {
  shuffle box
  move top 12 of box to deck
}

flow {
  loop {
    for p in everyone {
      turn p {
        let n = choose n in [1, 2] by p prompt "Score how many?"
        move top n of deck to p.scored
        p.points += n
        if p.points >= 5 { win p "{p} reaches 5" }
      }
    }
    if players == 1 {
      move top of deck to machine.scored
      machine.points += 1
      log "{machine} scores: {machine.points}"
      if machine.points >= 3 { win [machine] "{machine} reaches 3" }
    }
  }
}

test "the Machine wins a race it leads" {
  players 1
  choose "1"
  choose "1"
  choose "1"
  expect over
  expect winners [machine]
}

test "a seat that scores fast beats the Machine" {
  players 1
  choose "2"
  choose "2"
  choose "2"
  expect winners [seat(1)]
}

test "the Machine holds its own zones and variables and is no seat" {
  players 1
  names Ann
  choose "1"
  expect machine.points == 1
  expect count(machine.scored) == 1
  expect count(Ann.scored) == 1
  expect opponents(machine) == [Ann]
  expect left(machine) == none
  expect not (machine in everyone)
  expect players == 1
}
"#;

fn race() -> String {
    temp_script("race.cardgame", RACE)
        .to_string_lossy()
        .into_owned()
}

fn stdout(args: &[&str], code: i32) -> String {
    let out = cardgame(args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn rules_tests_name_a_participant() {
    let path = race();
    let text = stdout(&["test", &path], 0);
    assert!(text.ends_with("3 passed, 0 failed\n"), "{text}");
}

#[test]
fn a_participant_that_wins_is_named_in_the_result() {
    let path = race();
    let args = ["run", &path, "--players", "1", "--agents", "first"];
    let text = stdout(&args, 0);
    assert!(
        text.contains("Point: deck -> the Machine.scored\n")
            && text.contains("log: the Machine scores: 3\n")
            && text.contains("game over: the Machine wins (the Machine reaches 3)\n")
            && text.contains(
                "result: winners: the Machine (the Machine reaches 3) after 3 turns and 3 decisions\nagents: P1 first\n"
            ),
        "{text}"
    );
    let json = stdout(&[&args[..], &["--format", "json"]].concat(), 0);
    let last: Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(last["winners"], serde_json::json!([]));
    assert_eq!(
        last["participant_winners"],
        serde_json::json!(["the Machine"])
    );
    // A game a seat wins has no `participant_winners`.
    let json = stdout(
        &[
            "run",
            &path,
            "--players",
            "2",
            "--agents",
            "first",
            "--format",
            "json",
        ],
        0,
    );
    let last: Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(last["winners"], serde_json::json!([1]), "{last}");
    assert!(last.get("participant_winners").is_none(), "{last}");
}

/// Written directly (`by machine`, `turn machine`) it is E315 (tests/errors); reached through a value,
/// the game stops with an error that names the participant.
#[test]
fn a_decision_addressed_to_a_participant_is_a_runtime_error() {
    let script = RACE.replace(
        "let n = choose n in [1, 2] by p prompt",
        "let m = machine\n        let n = choose n in [1, 2] by m prompt",
    );
    let path = temp_script("race-bad.cardgame", &script);
    let path = path.to_string_lossy().into_owned();
    let text = stdout(&["run", &path, "--players", "1"], 1);
    assert!(
        text.contains("the Machine is a participant, not a seat: it takes no decision"),
        "{text}"
    );
    let script = RACE.replace("turn p {", "let t = machine\n      turn t {");
    let path = temp_script("race-turn.cardgame", &script);
    let path = path.to_string_lossy().into_owned();
    let text = stdout(&["run", &path, "--players", "1"], 1);
    assert!(text.contains("it takes no turn"), "{text}");
}

#[test]
fn sim_reports_the_wins_of_a_participant_that_took_part() {
    let path = race();
    let v = json_report(
        "sim",
        &[&path, "--players", "1", "--games", "60", "--seed", "3"],
        0,
    );
    let m = &v["wins_by_participant"]["the Machine"];
    let seat = v["wins_by_seat"][0]["wins"].as_u64().unwrap();
    let machine = m["wins"].as_u64().unwrap();
    assert_eq!(m["games"], 60, "{v}");
    assert_eq!(seat + machine, 60, "{v}");
    assert!(machine > 0 && seat > 0, "both win sometimes: {v}");
    assert_eq!(v["no_winner"], 0, "{v}");
    assert_eq!(v["ties"], 0, "{v}");
    let text = stdout(
        &[
            "sim",
            &path,
            "--players",
            "1",
            "--games",
            "60",
            "--seed",
            "3",
        ],
        0,
    );
    assert!(
        text.contains("wins by participant (of the games it took part in):\n  the Machine ")
            && text.contains("ties 0, no winner 0\n"),
        "{text}"
    );
    // With two seats the Machine has no role: it is not listed.
    let v = json_report("sim", &[&path, "--players", "2", "--games", "20"], 0);
    assert_eq!(v["wins_by_participant"], serde_json::json!({}), "{v}");
    assert!(!stdout(&["sim", &path, "--players", "2", "--games", "20"], 0).contains("participant"));
}

#[test]
fn merged_shards_count_a_participant_exactly() {
    let path = race();
    let dir = std::env::temp_dir().join(format!("cardgame-participants-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let args = ["--players", "1", "--games", "50", "--seed", "7"];
    let mut parts = Vec::new();
    for k in 0..3 {
        let out = dir
            .join(format!("part-{k}.json"))
            .to_string_lossy()
            .into_owned();
        let shard = format!("{k}/3");
        let mut all = vec!["sim", path.as_str()];
        all.extend_from_slice(&args);
        all.extend_from_slice(&["--shard", &shard, "--out", &out]);
        stdout(&all, 0);
        parts.push(out);
    }
    let one = json_report("sim", &[&[path.as_str()][..], &args[..]].concat(), 0);
    let mut merge = vec!["merge", "--format", "json"];
    merge.extend(parts.iter().map(String::as_str));
    let merged: Value = serde_json::from_str(&stdout(&merge, 0)).unwrap();
    assert_eq!(merged["wins_by_participant"], one["wins_by_participant"]);
    assert_eq!(merged["no_winner"], one["no_winner"]);
    assert_eq!(one["wins_by_participant"]["the Machine"]["games"], 50);
}

#[test]
fn a_tournament_counts_a_participant_win_as_a_loss() {
    let path = race();
    let v = json_report(
        "tournament",
        &[
            &path,
            "--players",
            "1",
            "--agents",
            "random,first",
            "--games",
            "20",
        ],
        0,
    );
    assert_eq!(v["no_winner"], 0, "{v}");
}

#[test]
fn a_seat_sees_a_participant_as_another_player() {
    use cardgame_interpreter::check::check_source;
    use cardgame_interpreter::engine::{Game, GameConfig, Status};
    use std::sync::Arc;
    let program = Arc::new(check_source(RACE).program.expect("the race checks"));
    let mut game = Game::new(program, GameConfig::new(1, 4));
    assert_eq!(game.players(), 1);
    assert_eq!(game.participants(), 1);
    assert_eq!(game.names()[1], "the Machine");
    assert!(matches!(game.status(), Status::Decision(d) if d.player == 0));
    game.apply(0).expect("a legal option");
    let view = game.view(0);
    assert_eq!(view.players.len(), 1);
    let m = &view.participants[0];
    assert_eq!((m.seat, m.name.as_str()), (1, "the Machine"));
    let points: Vec<String> = m
        .vars
        .iter()
        .map(|v| format!("{} {}", v.name, v.value))
        .collect();
    assert_eq!(points, ["points 1"]);
    let zone = view
        .zones
        .iter()
        .find(|z| z.name == "the Machine.scored")
        .expect("its zone is listed");
    assert_eq!(zone.cards, [Some("Point".to_string())]);
}

#[test]
fn a_participant_nothing_names_is_unused() {
    let script = RACE.replace(
        "participant machine \"the Machine\"\n",
        "participant machine \"the Machine\"\nparticipant ghost \"the Ghost\"\n",
    );
    let path = temp_script("race-ghost.cardgame", &script);
    let out = cardgame(&["check", &path.to_string_lossy()]);
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("W001") && text.contains("the participant `ghost` is never used"),
        "{text}"
    );
}

#[test]
fn the_html_report_charts_a_participant_only_when_one_took_part() {
    let path = race();
    let dir =
        std::env::temp_dir().join(format!("cardgame-participants-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = |players: &str| {
        let out = dir.join(format!("report-{players}.html"));
        let out = out.to_string_lossy().into_owned();
        stdout(
            &[
                "sim",
                &path,
                "--players",
                players,
                "--games",
                "10",
                "--html",
                &out,
            ],
            0,
        );
        std::fs::read_to_string(&out).expect("the report")
    };
    let solo = html("1");
    assert!(
        solo.contains("Win rate by participant") && solo.contains("the Machine"),
        "the solo report charts the Machine"
    );
    assert!(!html("2").contains("Win rate by participant"));
}
