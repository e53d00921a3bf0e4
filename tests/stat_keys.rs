//! Statistics kept per key (`stat NAME[TYPE]`): the figures per key agree with those of every key
//! together, a count's keys are per game of the study, shards merged give the report of one run,
//! and rules tests read one key.

use crate::common::{cardgame, temp_script};
use serde_json::Value;

/// Two players each draw one card of a shuffled deck of three ranks, then the game ends: per rank,
/// a count of draws, the rank recorded per kind and per seat, and a flag per text.
const DRAWS: &str = r#"game "Draws" { players 2 }
property rank: int = 0
card "R{r}" for r in 1..3 { rank r }
zone deck: pile, hidden
zone hand per player: set
stat drawn[int] "Cards drawn, by rank"
stat seen[kind] "The rank drawn, by card"
stat by_seat[player] "The rank drawn, by seat"
stat high[text] "Whether the card is high"
setup {
  move box to deck
  shuffle deck
}
flow {
  for p in everyone {
    turn p {
      move top of deck to p.hand
      let c = top of p.hand
      stat drawn[c.rank] += 1
      stat seen[c.kind] = c.rank
      stat by_seat[p] = c.rank
      stat high[if c.rank == 3 then "high" else "low"] = if c.rank == 3 then 1 else 0
    }
  }
  win [seat(1)] "done"
}
test "a key read in a test" {
  players 2
  seed 3
  expect stat drawn[1] + stat drawn[2] + stat drawn[3] == 2 and stat drawn == 2
  expect count(stat seen["R1"]) + count(stat seen["R2"]) + count(stat seen["R3"]) == 2
  expect count(stat by_seat[seat(1)]) == 1 and count(stat by_seat[seat(2)]) == 1
  expect stat by_seat[seat(1)] == [first(seat(1).hand).rank]
  expect sum(x for x in stat high["low"]) == 0 and count(stat high["high"]) <= 1
}
"#;

fn stat<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["stats"]
        .as_array()
        .expect("statistics")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no statistic {name}: {report}"))
}

fn keys(s: &Value) -> Vec<&Value> {
    s["per_key"]["keys"]
        .as_array()
        .expect("a table per key")
        .iter()
        .collect()
}

fn json(args: &[&str]) -> Value {
    let out = cardgame(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn the_figures_per_key_add_up_to_those_of_every_key_together() {
    let path = temp_script("draws.cardgame", DRAWS);
    let path = path.to_str().expect("a path");
    let v = json(&[
        "sim", path, "--games", "400", "--seed", "7", "--format", "json",
    ]);
    // A count: each key's mean is per game of the study (0 in a game that never drew the rank), so
    // the keys' means add up to the mean of every key together: 2 draws a game.
    let drawn = stat(&v, "drawn");
    assert_eq!(drawn["per_key"]["key"], "int");
    let rows = keys(drawn);
    assert_eq!(
        rows.iter()
            .map(|r| r["key"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["1", "2", "3"]
    );
    let total: f64 = rows.iter().map(|r| r["mean"].as_f64().unwrap()).sum();
    assert!((total - 2.0).abs() < 1e-9, "{total}");
    for r in &rows {
        // Every game is a record of the count; the games that drew the rank are those of its 1s.
        assert_eq!(r["records"], 400, "{r}");
        let counted = r["distribution"][1][1].as_u64().unwrap();
        assert_eq!(r["games"].as_u64(), Some(counted), "{r}");
        assert!(counted < 400, "{r}");
        let (mean, low, high) = (
            r["mean"].as_f64().unwrap(),
            r["low"].as_f64().unwrap(),
            r["high"].as_f64().unwrap(),
        );
        // Two thirds of the games draw a given rank; its interval is a real one.
        assert!((0.55..0.78).contains(&mean), "{r}");
        assert!(low < mean && mean < high && high - low < 0.2, "{r}");
        assert_eq!(r["min"], 0);
        assert_eq!(r["max"], 1);
        let d = r["distribution"].as_array().unwrap();
        let zeros = d[0][1].as_u64().unwrap();
        assert_eq!(d[0][0], 0);
        assert_eq!(zeros + d[1][1].as_u64().unwrap(), 400);
    }
    // Values: each key's records, and their sum, add up to every key together.
    for (name, names) in [
        ("seen", vec!["R1", "R2", "R3"]),
        ("by_seat", vec!["P1", "P2"]),
        ("high", vec!["high", "low"]),
    ] {
        let s = stat(&v, name);
        let rows = keys(s);
        assert_eq!(
            rows.iter()
                .map(|r| r["key"].as_str().unwrap())
                .collect::<Vec<_>>(),
            names,
            "{name}"
        );
        let records: u64 = rows.iter().map(|r| r["records"].as_u64().unwrap()).sum();
        assert_eq!(records, s["records"].as_u64().unwrap(), "{name}");
        let sum: f64 = rows
            .iter()
            .map(|r| r["mean"].as_f64().unwrap() * r["records"].as_f64().unwrap())
            .sum();
        let all = s["mean"].as_f64().unwrap() * s["records"].as_f64().unwrap();
        assert!((sum - all).abs() < 1e-6, "{name}: {sum} {all}");
    }
    // A kind's key is the card's rank, exactly.
    for (r, rank) in keys(stat(&v, "seen")).iter().zip([1.0, 2.0, 3.0]) {
        assert_eq!(r["mean"].as_f64().unwrap(), rank, "{r}");
        assert_eq!(r["low"].as_f64().unwrap(), rank, "{r}");
    }
    // A statistic without a key has no table.
    let plain = json(&[
        "sim",
        "examples/forehead.cardgame",
        "--games",
        "20",
        "--format",
        "json",
    ]);
    assert!(stat(&plain, "folds").get("per_key").is_none());
    assert_eq!(stat(&plain, "folded")["per_key"]["key"], "int");
}

#[test]
fn the_text_report_has_a_table_per_statistic_kept_per_key() {
    let path = temp_script("draws-text.cardgame", DRAWS);
    let out = cardgame(&[
        "sim",
        path.to_str().unwrap(),
        "--games",
        "50",
        "--seed",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "    per key (mean [95% interval], per game, games, games that counted it):\n      1  "
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "    per key (mean [95% interval], records, games):\n      R1  1.00 [1.00-1.00]"
        ),
        "{text}"
    );
}

#[test]
fn rules_tests_read_one_key() {
    let path = temp_script("draws-test.cardgame", DRAWS);
    let out = cardgame(&["test", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 passed, 0 failed"), "{text}");
    // A wrong expectation about one key fails and says what it found.
    let wrong = DRAWS.replace(
        "expect stat drawn[1] + stat drawn[2] + stat drawn[3] == 2 and stat drawn == 2",
        "expect stat drawn[first(seat(1).hand).rank] == 0",
    );
    let path = temp_script("draws-wrong.cardgame", &wrong);
    let out = cardgame(&["test", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("the left side is 1, the right side is 0"),
        "{text}"
    );
}

#[test]
fn merged_shards_give_the_figures_per_key_of_one_run() {
    let path = temp_script("draws-shards.cardgame", DRAWS);
    let path = path.to_str().expect("a path");
    let dir = std::env::temp_dir().join(format!("cardgame-keys-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let one = json(&[
        "sim", path, "--games", "90", "--seed", "4", "--format", "json",
    ]);
    let parts: Vec<String> = (0..3)
        .map(|k| {
            let out = dir
                .join(format!("part-{k}.json"))
                .to_string_lossy()
                .into_owned();
            let shard = format!("{k}/3");
            let o = cardgame(&[
                "sim", path, "--games", "90", "--seed", "4", "--shard", &shard, "--out", &out,
            ]);
            assert_eq!(o.status.code(), Some(0));
            out
        })
        .collect();
    let mut merge = vec!["merge", "--format", "json"];
    merge.extend(parts.iter().rev().map(String::as_str));
    let merged = json(&merge);
    for name in ["drawn", "seen", "by_seat", "high"] {
        assert_eq!(stat(&merged, name), stat(&one, name), "{name}");
    }
    assert_eq!(keys(stat(&one, "drawn")).len(), 3);
}
