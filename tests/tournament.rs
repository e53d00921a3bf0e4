//! Tournament tests: `cardgame tournament` as docs/cli.md describes it (a consistent matrix, seats
//! balanced, the same report whatever the number of jobs, unfinished games counted apart, usage errors).

use serde_json::Value;

use crate::common::{cardgame, json_report, temp_script};

/// The JSON report of a tournament, without what depends on the machine (time, jobs).
fn report(args: &[&str]) -> Value {
    json_report("tournament", args, 0)
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a count, not {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number, not {v}"))
}

/// Checks what every report must satisfy: counts that add up, `rate(a, b) + rate(b, a) = 1` for every
/// pair, intervals round their rates, and every agent in every seat equally often. Returns the
/// matrix's meetings per pair.
fn check_consistent(r: &Value) -> u64 {
    let agents = r["agents"].as_array().expect("agents");
    let k = agents.len();
    let games = u(&r["games"]);
    assert_eq!(
        games,
        u(&r["games_per_lineup"]) * r["lineups"].as_array().expect("lineups").len() as u64
    );
    assert_eq!(u(&r["games_per_lineup"]) % u(&r["seatings_per_lineup"]), 0);
    assert_eq!(
        u(&r["finished"]) + u(&r["unfinished"]) + u(&r["error_count"]),
        games
    );
    let lineup_games: u64 = r["lineups"]
        .as_array()
        .expect("lineups")
        .iter()
        .map(|l| u(&l["games"]))
        .sum();
    assert_eq!(lineup_games, games);
    assert_eq!(
        u(&r["finished"]),
        games,
        "every game here ends by the rules"
    );
    let m = &r["matrix"];
    let meetings = u(&m[0][1]["games"]);
    assert!(meetings > 0);
    for a in 0..k {
        assert!(m[a][a].is_null(), "the diagonal is empty");
        for b in (0..k).filter(|&b| b != a) {
            let (ab, ba) = (&m[a][b], &m[b][a]);
            assert_eq!(u(&ab["games"]), meetings, "every pair meets equally often");
            assert_eq!(u(&ba["games"]), meetings);
            assert!((f(&ab["points"]) + f(&ba["points"]) - meetings as f64).abs() < 1e-9);
            assert!(
                (f(&ab["rate"]) + f(&ba["rate"]) - 1.0).abs() < 1e-9,
                "{ab} {ba}"
            );
            assert!(f(&ab["low"]) <= f(&ab["rate"]) && f(&ab["rate"]) <= f(&ab["high"]));
        }
    }
    let players = u(&r["players"]) as usize;
    let per_seat = u(&r["standings"][0]["seats"][0]["games"]);
    assert!(per_seat > 0);
    for st in r["standings"].as_array().expect("standings") {
        let seats = st["seats"].as_array().expect("seats");
        assert_eq!(seats.len(), players);
        for s in seats {
            assert_eq!(
                u(&s["games"]),
                per_seat,
                "each agent in each seat equally often"
            );
        }
        let won: u64 = seats.iter().map(|s| u(&s["wins"])).sum();
        assert_eq!(u(&st["wins"]["wins"]), won);
        assert_eq!(u(&st["score"]["games"]), meetings * (k as u64 - 1));
    }
    meetings
}

#[test]
fn two_agents_on_market_race() {
    let r = report(&[
        "examples/market-race.cardgame",
        "--agents",
        "first,random",
        "--games",
        "40",
        "--seed",
        "3",
    ]);
    assert_eq!(r["agents"], serde_json::json!(["first", "random"]));
    assert_eq!(u(&r["seatings_per_lineup"]), 2);
    assert_eq!(u(&r["games"]), 40);
    assert_eq!(
        check_consistent(&r),
        40,
        "two players: one meeting per game"
    );
    // Seats alternated: 20 games in each seat for each agent.
    assert_eq!(u(&r["standings"][0]["seats"][1]["games"]), 20);
    // With two players and no ties, the score is the share of games won.
    if u(&r["ties"]) == 0 && u(&r["no_winner"]) == 0 {
        assert_eq!(
            f(&r["matrix"][0][1]["points"]),
            u(&r["standings"][0]["wins"]["wins"]) as f64
        );
    }
}

#[test]
fn three_agents_and_pairs_with_odd_games_rounded_up() {
    // Three agents at a two-player table: three lineups (pairs), 7 games rounded up to 8.
    let r = report(&[
        "examples/market-race.cardgame",
        "--agents",
        "first,random,greedy",
        "--games",
        "7",
    ]);
    assert_eq!(r["lineups"].as_array().map(Vec::len), Some(3));
    assert_eq!(u(&r["games_per_lineup"]), 8);
    assert_eq!(check_consistent(&r), 8);
}

#[test]
fn the_report_does_not_depend_on_the_number_of_jobs() {
    for base in [
        ["examples/market-race.cardgame", "--players", "2"],
        ["examples/secret-bids.cardgame", "--players", "3"],
    ] {
        let base = [
            &base[..],
            &["--agents", "first,random,greedy", "--games", "12"],
        ]
        .concat();
        let one = report(&[&base[..], &["--jobs", "1"]].concat());
        let two = report(&[&base[..], &["--jobs", "2"]].concat());
        let three = report(&[&base[..], &["--jobs", "3"]].concat());
        assert_eq!(one, two, "{}: 1 job and 2 jobs differ", base[0]);
        assert_eq!(one, three, "{}: 1 job and 3 jobs differ", base[0]);
    }
}

#[test]
fn three_players_on_secret_bids() {
    // Three agents over three seats: all 6 orders; 10 games rounded up to 12.
    let r = report(&[
        "examples/secret-bids.cardgame",
        "--players",
        "3",
        "--agents",
        "first,random,greedy",
        "--games",
        "10",
    ]);
    assert_eq!(u(&r["seatings_per_lineup"]), 6);
    assert_eq!(u(&r["games"]), 12);
    assert_eq!(check_consistent(&r), 12);
    assert_eq!(u(&r["standings"][2]["seats"][0]["games"]), 4);
    // Two agents over three seats: one of them takes two seats, 6 seatings.
    let r = report(&[
        "examples/secret-bids.cardgame",
        "--players",
        "3",
        "--agents",
        "first,random",
        "--games",
        "6",
    ]);
    assert_eq!(u(&r["seatings_per_lineup"]), 6);
    check_consistent(&r);
}

#[test]
fn unfinished_games_are_counted_apart_with_their_replay() {
    let r = report(&[
        "examples/market-race.cardgame",
        "--agents",
        "first,random",
        "--games",
        "4",
        "--max-turns",
        "1",
    ]);
    assert_eq!(u(&r["unfinished"]), 4);
    assert_eq!(u(&r["finished"]), 0);
    assert_eq!(u(&r["matrix"][0][1]["games"]), 0, "not counted as results");
    let stalls = r["stalls"].as_array().expect("stalls");
    assert_eq!(stalls.len(), 4);
    let replay = stalls[1]["replay"].as_str().expect("replay flags");
    assert!(
        replay.contains("--agents random,first") && replay.contains("--max-turns 1"),
        "{replay}"
    );
}

#[test]
fn engine_errors_are_counted_apart_with_their_replay() {
    // The first player's choice decides: "Divide" divides by zero, "Win" wins. `first` always
    // divides, `random` half the time; errors are no result for anyone.
    let script = temp_script(
        "fragile-choice.cardgame",
        r#"game "Fragile Choice" { players 2 }
var x: int = 0
flow {
  choose by seat(1) {
    "Divide" { x = 1 / x }
    "Win" { win [seat(1)] "claimed" }
  }
}
"#,
    );
    let path = script.to_string_lossy().into_owned();
    let r = json_report(
        "tournament",
        &[&path, "--agents", "first,random", "--games", "20"],
        1,
    );
    let errors = u(&r["error_count"]);
    assert!((10..20).contains(&errors), "{r}");
    assert_eq!(u(&r["finished"]) + errors, 20);
    let m = &r["matrix"];
    assert_eq!(
        u(&m[0][1]["games"]),
        u(&r["finished"]),
        "errors are no meeting"
    );
    assert!((f(&m[0][1]["rate"]) + f(&m[1][0]["rate"]) - 1.0).abs() < 1e-9);
    for e in r["errors"].as_array().expect("errors") {
        assert!(e["message"]
            .as_str()
            .unwrap_or("")
            .contains("division by zero"));
        let mut run = vec!["run", &path];
        run.extend(e["replay"].as_str().expect("replay").split(' '));
        let out = cardgame(&run);
        assert_eq!(out.status.code(), Some(1), "the replay flags reproduce it");
    }
}

#[test]
fn bad_agent_lists_are_usage_errors() {
    for agents in ["first,nobody", "first", "first,first"] {
        let out = cardgame(&[
            "tournament",
            "examples/market-race.cardgame",
            "--agents",
            agents,
            "--games",
            "2",
        ]);
        assert_eq!(out.status.code(), Some(2), "--agents {agents}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_text_report_shows_the_matrix() {
    let out = cardgame(&[
        "tournament",
        "examples/market-race.cardgame",
        "--agents",
        "first,random",
        "--games",
        "4",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "no progress bar off a terminal");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("score of the row agent against the column agent"),
        "{text}"
    );
    assert!(text.contains("standings"), "{text}");
}
