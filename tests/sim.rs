//! Simulation tests: `cardgame sim` as docs/cli.md describes it (same results whatever the number of
//! jobs, the JSON report's fields, errors with the seed that reproduces them, agents by seat).

use serde_json::Value;

use crate::common::{cardgame, json_report, temp_script, FRAGILE};

/// The JSON report of a simulation, without what depends on the machine (time, jobs).
fn report(args: &[&str]) -> Value {
    report_with_exit(args, 0)
}

/// The same, with the exit code expected (1 when a game ended with an engine error).
fn report_with_exit(args: &[&str], code: i32) -> Value {
    json_report("sim", args, code)
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    for (script, agents) in [
        ("examples/market-race.cardgame", "random"),
        ("examples/secret-bids.cardgame", "first,random"),
        ("examples/duel.cardgame", "greedy,random"),
    ] {
        let base = [script, "--games", "60", "--seed", "7", "--agents", agents];
        let one = report(&[&base[..], &["--jobs", "1"]].concat());
        let two = report(&[&base[..], &["--jobs", "2"]].concat());
        let three = report(&[&base[..], &["--jobs", "3"]].concat());
        assert_eq!(one, two, "{script}: 1 job and 2 jobs differ");
        assert_eq!(one, three, "{script}: 1 job and 3 jobs differ");
        // The text report says the same (apart from its speed line and the jobs in its header).
        let text = |jobs: &str| {
            let args = [&["sim"][..], &base[..], &["--jobs", jobs]].concat();
            let out = cardgame(&args);
            let s = String::from_utf8_lossy(&out.stdout).into_owned();
            s.lines()
                .filter(|l| {
                    !l.contains("games per second") && !l.contains(" job)") && !l.contains(" jobs)")
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(text("1"), text("2"), "{script}: text reports differ");
    }
}

#[test]
fn a_different_base_seed_gives_different_games() {
    let a = report(&[
        "examples/market-race.cardgame",
        "--games",
        "40",
        "--seed",
        "1",
    ]);
    let b = report(&[
        "examples/market-race.cardgame",
        "--games",
        "40",
        "--seed",
        "2",
    ]);
    assert_ne!(a["turns"], b["turns"]);
}

#[test]
fn the_json_report_has_the_documented_fields() {
    let v = report(&[
        "examples/market-race.cardgame",
        "--games",
        "30",
        "--seed",
        "3",
    ]);
    for key in [
        "game",
        "players",
        "games",
        "seed",
        "finished",
        "unfinished",
        "errors",
        "error_count",
        "wins_by_seat",
        "wins_by_agent",
        "ties",
        "no_winner",
        "turns",
        "decisions",
        "end_reasons",
        "cards",
        "stats",
        "unused",
    ] {
        assert!(v.get(key).is_some(), "missing `{key}`");
    }
    assert_eq!(v["games"], 30);
    let finished = v["finished"].as_u64().unwrap_or(0);
    let unfinished = v["unfinished"].as_u64().unwrap_or(0);
    let errors = v["error_count"].as_u64().unwrap_or(0);
    assert_eq!(finished + unfinished + errors, 30);
    for rate in v["wins_by_seat"].as_array().expect("a list") {
        let (low, r, high) = (
            rate["low"].as_f64().unwrap_or(-1.0),
            rate["rate"].as_f64().unwrap_or(-1.0),
            rate["high"].as_f64().unwrap_or(-1.0),
        );
        assert!(0.0 <= low && low <= r && r <= high && high <= 1.0, "{rate}");
    }
    for key in ["mean", "median", "p90"] {
        assert!(v["turns"][key].as_f64().is_some_and(|x| x > 0.0), "{key}");
        assert!(
            v["decisions"][key].as_f64().is_some_and(|x| x > 0.0),
            "{key}"
        );
    }
    let cards = v["cards"].as_array().expect("a list");
    assert!(cards.iter().any(|c| c["name"] == "Silver"));
    for c in cards {
        for key in [
            "acquired_per_game",
            "holders",
            "holder_wins",
            "performed_per_game",
        ] {
            assert!(c.get(key).is_some(), "card figures lack `{key}`");
        }
    }
}

#[test]
fn nothing_is_written_to_standard_error_when_it_is_not_a_terminal() {
    let out = cardgame(&["sim", "examples/duel.cardgame", "--games", "20"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("games per second"));
}

#[test]
fn an_engine_error_is_reported_with_a_seed_that_reproduces_it() {
    // One game in four divides by zero: the Zero card is on top after the shuffle.
    let script = temp_script("fragile.cardgame", FRAGILE);
    let path = script.to_string_lossy().into_owned();
    let v = report_with_exit(&[&path, "--games", "40", "--seed", "5"], 1);
    let errors = v["errors"].as_array().expect("a list");
    assert!(!errors.is_empty() && errors.len() < 40, "{v}");
    assert_eq!(v["error_count"].as_u64(), Some(errors.len() as u64));
    for e in errors {
        let message = e["message"].as_str().expect("a message");
        assert!(message.contains("division by zero"), "{message}");
        let seed = e["seed"].as_u64().expect("a seed").to_string();
        let run = cardgame(&["run", &path, "--seed", &seed]);
        assert_eq!(run.status.code(), Some(1), "the seed reproduces the error");
        assert!(String::from_utf8_lossy(&run.stdout).contains("division by zero"));
    }
}

#[test]
fn agents_take_the_seats_in_turn() {
    let v = report(&[
        "examples/secret-bids.cardgame",
        "--games",
        "20",
        "--agents",
        "first,random",
    ]);
    let by_agent = v["wins_by_agent"].as_object().expect("an object");
    assert_eq!(by_agent.len(), 2, "{v}");
    for name in ["first", "random"] {
        assert_eq!(by_agent[name]["games"], 20, "{name} played every game");
    }
    let bad = cardgame(&["sim", "examples/duel.cardgame", "--agents", "wizard"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn games_stopped_at_the_turn_limit_are_listed_with_the_seeds_that_replay_them() {
    // One game in four is a stall that the rules never end: the Wait card is not on top.
    let script = temp_script(
        "stall.cardgame",
        r#"game "Stall" { players 2 }
zone deck: pile, hidden
card "Stop" { copies 1 }
card "Wait" { copies 3 }
action wait label "Wait" { }
setup {
  move box to deck
  shuffle deck
}
flow {
  if top of deck is "Stop" { win [seat(1)] "stopped" }
  loop {
    for p in from(seat(1)) {
      turn p { actions by p until pass [wait] }
    }
  }
}
"#,
    );
    let path = script.to_string_lossy().into_owned();
    let v = report(&[
        &path,
        "--games",
        "40",
        "--seed",
        "5",
        "--max-turns",
        "30",
        "--agents",
        "greedy,random",
    ]);
    let stalls = v["stalls"].as_array().expect("a list");
    let unfinished = v["unfinished"].as_u64().expect("a count");
    assert!(unfinished > 0 && unfinished < 40, "{v}");
    assert_eq!(stalls.len() as u64, unfinished.min(20), "{v}");
    for g in stalls {
        assert_eq!(g["turns"], 30, "{g}");
        assert_eq!(g["reason"], "turn limit of 30 turns reached", "{g}");
        let agents = g["agents"].as_array().expect("agents by seat");
        assert_eq!(agents.len(), 2);
        let replay = g["replay"].as_str().expect("replay flags");
        let seed = g["seed"].as_u64().expect("a seed").to_string();
        assert!(replay.contains(&format!("--seed {seed}")), "{replay}");
        let mut args = vec!["run", path.as_str(), "--format", "json"];
        args.extend(replay.split(' '));
        let run = cardgame(&args);
        assert_eq!(run.status.code(), Some(0));
        let out = String::from_utf8_lossy(&run.stdout);
        let last: Value =
            serde_json::from_str(out.lines().last().expect("a result")).expect("JSON");
        assert_eq!(last["finished"], false, "the replay stalls too: {last}");
        assert_eq!(last["turns"], 30, "{last}");
        assert_eq!(last["steps"], g["decisions"], "the same game: {last}");
    }
    // The text report lists them too, with the flags to replay each.
    let out = cardgame(&[
        "sim",
        &path,
        "--games",
        "40",
        "--seed",
        "5",
        "--max-turns",
        "30",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let prefix = format!("replay: cardgame run {path} --players 2 --seed ");
    assert!(text.contains(&prefix), "{text}");
    // The line runs as printed, and replays a game that stops at the same limit.
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: cardgame "))
        .expect("a replay line");
    let words: Vec<&str> = line.split(' ').collect();
    let run = cardgame(&words);
    assert_eq!(run.status.code(), Some(0), "{line}");
    let trace = String::from_utf8_lossy(&run.stdout);
    assert!(trace.contains("turn limit of 30 turns reached"), "{trace}");
}

/// The script's statistics (`stat`) and what no game used, in the text report and in the JSON one
/// (docs/cli.md): examples/market-race.cardgame records the Treasure coins of each starting hand
/// (a value, with its mean by turn) and counts the cards bought (one total per game).
#[test]
fn statistics_and_unused_content_are_reported() {
    let args = [
        "examples/market-race.cardgame",
        "--games",
        "40",
        "--seed",
        "5",
        "--players",
        "2",
    ];
    let v = report(&args);
    let part = serde_json::json!({ "stats": v["stats"], "unused": v["unused"] });
    insta::assert_snapshot!(
        "sim_statistics_json",
        serde_json::to_string_pretty(&part).expect("json")
    );
    let out = cardgame(&[&["sim"][..], &args[..], &["--jobs", "2"]].concat());
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let from = text.find("statistics (").expect("a statistics section");
    let section: Vec<&str> = text[from..]
        .lines()
        .filter(|l| !l.contains("games per second"))
        .collect();
    insta::assert_snapshot!("sim_statistics_text", section.join("\n"));
}

/// A `stat` statement changes nothing in a game: the same seed gives the same trace with and without
/// it, and `run` shows no statistic.
#[test]
fn a_stat_statement_leaves_the_trace_unchanged() {
    let with = std::fs::read_to_string("examples/market-race.cardgame").expect("example");
    let without: String = with
        .lines()
        .filter(|l| !l.trim_start().starts_with("stat "))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(with.contains("stat treasure_coins ="));
    let plain = temp_script("market-race-without-stats.cardgame", &without);
    for format in ["text", "json"] {
        let run = |path: &str| {
            let o = cardgame(&[
                "run",
                path,
                "--players",
                "3",
                "--seed",
                "11",
                "--format",
                format,
            ]);
            assert_eq!(o.status.code(), Some(0));
            o.stdout
        };
        assert_eq!(
            run("examples/market-race.cardgame"),
            run(plain.to_str().expect("path")),
            "{format} traces differ"
        );
    }
}

/// `teams by VAR` (docs/language.md, The header): a game won by a whole team is a team's win, not a
/// tie, and the report counts wins by team; the same game without the declaration is a tie.
#[test]
fn a_team_win_is_reported_by_team_and_is_not_a_tie() {
    let with_teams = r#"game "Sides" {
  players 4
  teams by side
}
zone deck: pile, hidden
card "Odd" { copies 1 }
card "Even" { copies 1 }
var side per player: int = 0
setup {
  for p in everyone { p.side = if p == seat(1) or p == seat(3) then 1 else 2 }
  move box to deck
  shuffle deck
}
flow {
  if top of deck is "Odd" { win team 1 "odd" } else { win team 2 "even" }
}
"#;
    let path = temp_script("sides.cardgame", with_teams);
    let path = path.to_string_lossy().into_owned();
    let v = report(&[&path, "--players", "4", "--games", "40", "--seed", "2"]);
    assert_eq!(v["ties"], 0, "{v}");
    let teams = v["wins_by_team"].as_object().expect("wins by team");
    assert_eq!(teams.len(), 2, "{v}");
    let (one, two) = (&teams["1"], &teams["2"]);
    assert_eq!(one["games"], 40);
    assert_eq!(two["games"], 40);
    let (w1, w2) = (one["wins"].as_u64().unwrap(), two["wins"].as_u64().unwrap());
    assert_eq!(w1 + w2, 40, "{v}");
    assert!(w1 > 5 && w2 > 5, "both sides win sometimes: {v}");
    // Seats 1 and 3 win exactly the games of team 1.
    assert_eq!(v["wins_by_seat"][0]["wins"].as_u64(), Some(w1));
    assert_eq!(v["wins_by_seat"][2]["wins"].as_u64(), Some(w1));
    let text = cardgame(&[
        "sim",
        &path,
        "--players",
        "4",
        "--games",
        "40",
        "--seed",
        "2",
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("wins by team:\n  team 1 ") && text.contains("ties 0,"),
        "{text}"
    );
    // Without the declaration the same winners are a tie of two players, and no team is reported.
    let plain = with_teams
        .replace("  teams by side\n", "")
        .replace(
            "win team 1 \"odd\"",
            "win filter(p in everyone where p.side == 1) \"odd\"",
        )
        .replace(
            "win team 2 \"even\"",
            "win filter(p in everyone where p.side == 2) \"even\"",
        );
    let path = temp_script("sides-plain.cardgame", &plain);
    let path = path.to_string_lossy().into_owned();
    let v = report(&[&path, "--players", "4", "--games", "40", "--seed", "2"]);
    assert_eq!(v["ties"], 40, "{v}");
    assert!(v["wins_by_team"].as_object().unwrap().is_empty(), "{v}");
}
