//! Curves by turn (docs/cli.md, "Curves by turn"): what `sim --curve NAME` reads turn by turn, in
//! text and JSON, that shards add up to the whole, and that a name the script does not declare is a
//! usage error with a suggestion.

use crate::common::{cardgame, json_report, merged_report, sim_shards, temp_script};
use serde_json::Value;

/// Two seats take three turns each; each turn adds a step to the player and to the statistics, and
/// only seat 1's turns have a decision, so seat 2's turns take the reading of the next decision (or
/// of the end).
const STEPS: &str = r#"game "Steps" { players 2 }

var steps per player: int = 0
var total: int = 0
stat taken "Steps taken"
stat stride "The total at each step"

fn doubled(p: player): int = 2 * p.steps

action wait { }

action hop { }

flow {
  repeat 3 {
    for p in everyone {
      turn p {
        p.steps += 1
        total += 1
        stat taken += 1
        stat stride = total
        if p == seat(1) { actions by p once [wait, hop] }
      }
    }
  }
  win [seat(1)] "three rounds of {total} steps"
}
"#;

/// The means of line `line` of curve `name` in a JSON report, turn by turn.
fn means(report: &Value, name: &str, line: usize) -> Vec<f64> {
    let curve = report["curves"]
        .as_array()
        .expect("curves")
        .iter()
        .find(|c| c["name"] == name)
        .expect("the curve");
    curve["by_turn"]
        .as_array()
        .expect("by_turn")
        .iter()
        .map(|t| t[line]["mean"].as_f64().expect("a mean"))
        .collect()
}

#[test]
fn a_curve_reads_variables_statistics_and_functions_at_each_turn() {
    let script = temp_script("steps.cardgame", STEPS);
    let path = script.display().to_string();
    let args = [
        path.as_str(),
        "--games",
        "12",
        "--curve",
        "steps",
        "--curve",
        "total",
        "--curve",
        "taken",
        "--curve",
        "doubled",
        "--curve",
        "stride",
    ];
    let r = json_report("sim", &args, 0);
    // Turns 1, 3, 5 are read at seat 1's decision (after its step); turns 2 and 4 take the next
    // decision's reading, turn 6 the end's.
    assert_eq!(means(&r, "steps", 0), [1.0, 2.0, 2.0, 3.0, 3.0, 3.0]);
    assert_eq!(means(&r, "steps", 1), [0.0, 1.0, 1.0, 2.0, 2.0, 3.0]);
    assert_eq!(means(&r, "total", 0), [1.0, 3.0, 3.0, 5.0, 5.0, 6.0]);
    assert_eq!(means(&r, "taken", 0), means(&r, "total", 0));
    assert_eq!(means(&r, "doubled", 1), [0.0, 2.0, 2.0, 4.0, 4.0, 6.0]);
    // A statistic of values: the sum of its records so far (1, 1+2+3, ..., 1+2+...+6).
    assert_eq!(means(&r, "stride", 0), [1.0, 6.0, 6.0, 15.0, 15.0, 21.0]);
    let steps = &r["curves"][0];
    assert_eq!(steps["of"], "per-player variable");
    assert_eq!(steps["lines"], serde_json::json!(["seat 1", "seat 2"]));
    assert_eq!(r["curves"][2]["lines"], serde_json::json!(["taken"]));
    // Every game is the same: no interval has a width.
    assert_eq!(
        steps["by_turn"][3][0]["low"],
        steps["by_turn"][3][0]["high"]
    );
    // The text report gives the same table.
    let out = cardgame(&[
        "sim",
        &path,
        "--games",
        "12",
        "--curve",
        "steps",
        "--reproducible",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "curve of steps (per-player variable), mean by turn as read at its first decision [95% interval]:\n    turn  seat 1            seat 2\n       1  1.00 [1.00-1.00]  0.00 [0.00-0.00]\n       2  2.00 [2.00-2.00]  1.00 [1.00-1.00]\n"
        ),
        "{text}"
    );
    // Without `--curve`, the report has no curves.
    let plain = json_report("sim", &[path.as_str(), "--games", "12"], 0);
    assert!(plain.get("curves").is_none());
}

#[test]
fn the_shards_of_a_study_with_curves_merge_to_the_whole() {
    let dir = std::env::temp_dir().join(format!("cardgame-curves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let base = [
        "examples/market-race.cardgame",
        "--games",
        "30",
        "--curve",
        "cards_bought",
        "--curve",
        "owned",
    ];
    let parts = sim_shards(&base, 3, &dir);
    let merged = merged_report(&[], &parts);
    let whole = json_report("sim", &base, 0);
    assert!(!means(&whole, "owned", 1).is_empty());
    assert_eq!(merged, whole);
    // A part that follows other curves, or that read the course when the others did not, is of
    // another study: the merge refuses it and says why.
    for (flags, why) in [
        (
            vec!["--curve", "owned"],
            "the parts follow different curves",
        ),
        (
            vec!["--curve", "cards_bought", "--curve", "owned", "--course"],
            "`sim --course`",
        ),
    ] {
        let odd = dir.join("odd.json").display().to_string();
        let mut args = vec!["sim", "examples/market-race.cardgame", "--games", "30"];
        args.extend(flags);
        args.extend_from_slice(&["--shard", "2/3", "--out", &odd]);
        assert_eq!(cardgame(&args).status.code(), Some(0));
        let out = cardgame(&["merge", &parts[0], &parts[1], &odd]);
        assert_ne!(out.status.code(), Some(0));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{err}");
    }
}

#[test]
fn a_curve_of_a_name_the_script_does_not_declare_is_a_usage_error() {
    let out = cardgame(&[
        "sim",
        "examples/market-race.cardgame",
        "--games",
        "5",
        "--curve",
        "coinz",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--curve coinz: no variable, statistic or function of the script is named so (did you mean `coins`?)"),
        "{err}"
    );
    // A function of a card cannot be followed.
    let out = cardgame(&[
        "sim",
        "examples/market-race.cardgame",
        "--games",
        "5",
        "--curve",
        "coin_worth",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes one player and gives an int"));
}
