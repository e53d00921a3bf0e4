//! Designer studies (docs/cli.md, "Studies"): variants made with `--set` are the script edited the same
//! way, a setting that names nothing is a usage error with a suggestion, and the reports and shards
//! of a variant name what was set.

use crate::common::{
    cardgame, json_report, merged_report, reproducible_json, sim_shards, temp_script,
};
use serde_json::Value;

const MARKET: &str = "examples/market-race.cardgame";

/// The report of `sim` without the `settings` it names: what must equal the edited script's.
fn without_settings(mut v: Value) -> (Value, Value) {
    let settings = v
        .as_object_mut()
        .and_then(|o| o.remove("settings"))
        .unwrap_or(Value::Null);
    (v, settings)
}

/// Market Race with `edits` made to its text (each `(from, to)` replaced once, in order).
fn edited_market(edits: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(MARKET).expect("the example");
    for (from, to) in edits {
        assert!(text.contains(from), "the example has `{from}`");
        text = text.replacen(from, to, 1);
    }
    temp_script("market-edited.cardgame", &text)
}

/// The seats of the studies that compare a variant with the script edited by hand.
const SEATS: [&str; 4] = ["--players", "3", "--agents", "random,greedy"];

#[test]
fn a_variant_is_the_script_edited_the_same_way() {
    // A property written on the card (Silver's cost), one it takes by default (Homestead's cost is
    // the default 0: the setting adds it), copies, a variable's starting value and an option, at once.
    let sets = [
        "Silver.cost=4",
        "Homestead.cost=2",
        "Gold.copies=2 * players",
        "buys=2",
        "goal=12",
    ];
    let mut args = [&[MARKET, "--games", "80"][..], &SEATS].concat();
    for s in &sets {
        args.extend_from_slice(&["--set", s]);
    }
    let (variant, settings) = without_settings(json_report("sim", &args, 0));
    assert_eq!(
        settings,
        serde_json::json!(sets),
        "the report names what was set"
    );
    let edited = edited_market(&[
        ("  copies 8\n  cost 3\n", "  copies 8\n  cost 4\n"),
        (
            "  copies 3 * players\n  points 1\n",
            "  copies 3 * players\n  points 1\n  cost 2\n",
        ),
        ("  copies 4\n  cost 6\n", "  copies 2 * players\n  cost 6\n"),
        (
            "var buys per player shown: int = 1",
            "var buys per player shown: int = 2",
        ),
    ]);
    let path = edited.display().to_string();
    let (by_hand, none) = without_settings(json_report(
        "sim",
        &[&[&path, "--games", "80", "--option", "goal=12"][..], &SEATS].concat(),
        0,
    ));
    assert_eq!(
        none,
        Value::Null,
        "nothing was set: the report says nothing"
    );
    assert_eq!(variant, by_hand);
    // And the variant is not the script itself.
    let plain = json_report(
        "sim",
        &[&[MARKET, "--games", "300"][..], &SEATS].concat(),
        0,
    );
    assert_ne!(variant["turns"], plain["turns"]);
}

#[test]
fn a_constant_is_set_and_a_function_with_parameters_is_not() {
    let script = temp_script(
        "constant.cardgame",
        r#"game "Constant" { players 2 }
zone pile: pile, hidden
card "Chip" { copies 10 }
fn target(): int = 3
fn twice(n: int): int = 2 * n
var taken per player: int = 0
setup { move box to pile }
flow {
  loop {
    for p in everyone {
      move top 1 of pile to box
      p.taken += 1
      if p.taken >= twice(1) + target() - 2 { win [p] "reached the target" }
    }
  }
}
"#,
    );
    let path = script.display().to_string();
    let run = |set: &str| {
        cardgame(&[
            "run", &path, "--seed", "1", "--set", set, "--format", "json",
        ])
    };
    let out = run("target=1");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run("twice=1");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a constant"));
}

#[test]
fn a_setting_that_names_nothing_or_does_not_fit_is_a_usage_error() {
    let mut text = String::new();
    for set in [
        "Silvr.cost=4",
        "Silver.costs=4",
        "Silver.cost=true",
        "Silver.cost=",
        "goal=99",
        "gaol=12",
        "coin_worth=1",
        "Silver.cost=4 card \"Extra\" { }",
        "Silver.cost=4\n}\ncard \"Extra\" {\n  copies 1",
        "Silver.cost=3",
    ] {
        let mut args = vec![MARKET, "--games", "1", "--set", set];
        if set == "Silver.cost=3" {
            args.extend_from_slice(&["--set", "Silver.cost=5"]);
        }
        let mut all = vec!["sim"];
        all.extend_from_slice(&args);
        let out = cardgame(&all);
        text.push_str(&format!(
            "--set {set}: exit {:?}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    insta::assert_snapshot!(text);
}

#[test]
fn the_shards_of_a_variant_merge_and_name_what_was_set() {
    let dir = std::env::temp_dir().join(format!("cardgame-studies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let base = [MARKET, "--games", "40", "--set", "Silver.cost=4"];
    let parts = sim_shards(&base, 2, &dir);
    let merged = merged_report(&["--script", MARKET], &parts);
    assert_eq!(merged, json_report("sim", &base, 0));
    // A part of the plain script does not merge with a part of the variant.
    let plain = dir.join("plain.json").display().to_string();
    let out = cardgame(&[
        "sim", MARKET, "--games", "40", "--shard", "1/2", "--out", &plain,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = cardgame(&["merge", &parts[0], &plain]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("settings"));
}

/// The JSON report of `cardgame compare ARGS --format json --reproducible`, which must exit 0.
fn comparison(args: &[&str]) -> Value {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    reproducible_json(&all)
}

fn figure<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["figures"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == name))
        .unwrap_or_else(|| panic!("no figure `{name}` in {report}"))
}

#[test]
fn a_script_compared_with_itself_differs_in_nothing() {
    let r = comparison(&[
        MARKET,
        MARKET,
        "--games",
        "200",
        "--agents",
        "random,greedy",
    ]);
    assert_eq!(r["games"], 200);
    assert_eq!(r["compared"], 0, "no figure differed in any pair of games");
    for f in r["figures"].as_array().expect("figures") {
        assert_eq!(f["significant"], false, "{f}");
        assert_eq!(f["difference"].as_f64().unwrap_or(0.0), 0.0, "{f}");
    }
}

#[test]
fn a_real_change_is_found_and_equals_the_edited_script() {
    // A dearer Silver: fewer Silvers are bought, and fewer cards in all.
    let r = comparison(&[MARKET, "--set", "Silver.cost=4", "--games", "300"]);
    assert!(r["compared"].as_u64().expect("compared") > 5);
    let silver = figure(&r, "card Silver: gained per player");
    assert_eq!(silver["significant"], true, "{silver}");
    assert!(silver["difference"].as_f64().expect("difference") < 0.0);
    for key in ["name", "a", "b", "difference", "low", "high", "significant"] {
        assert!(
            silver.get(key).is_some(),
            "the figure has `{key}`: {silver}"
        );
    }
    let bought = figure(&r, "stat: cards_bought");
    assert_eq!(bought["significant"], true, "{bought}");
    // The seats' wins do not move with random players: the intervals hold 0.
    assert_eq!(figure(&r, "wins: seat 1")["significant"], false);
    // Two files, the second edited by hand, give the same figures.
    let edited = edited_market(&[("  copies 8\n  cost 3\n", "  copies 8\n  cost 4\n")]);
    let path = edited.display().to_string();
    let by_hand = comparison(&[MARKET, &path, "--games", "300"]);
    assert_eq!(r["figures"], by_hand["figures"]);
}

#[test]
fn until_decided_stops_early_and_the_same_whatever_the_threads() {
    let args = |jobs: &'static str| {
        comparison(&[
            MARKET,
            "--set",
            "Silver.cost=4",
            "--games",
            "3000",
            "--until-decided",
            "stat: cards_bought",
            "--jobs",
            jobs,
        ])
    };
    let one = args("1");
    let d = &one["until_decided"];
    assert_eq!(d["decided"], true, "{d}");
    assert!(one["games"].as_u64().expect("games") < 3000);
    assert!(d["high"].as_f64().expect("high") < 0.0);
    assert_eq!(one, args("2"));
}

#[test]
fn a_comparison_without_two_sides_or_of_an_unknown_figure_is_a_usage_error() {
    let mut text = String::new();
    for args in [
        vec!["compare", MARKET],
        vec![
            "compare",
            MARKET,
            "--set",
            "goal=12",
            "--until-decided",
            "turn",
            "--games",
            "10",
        ],
    ] {
        let out = cardgame(&args);
        text.push_str(&format!(
            "{}: exit {:?}\n{}",
            args.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    insta::assert_snapshot!(text);
}

#[test]
fn a_sweep_runs_the_study_per_value_and_each_point_is_the_study_with_that_setting() {
    let out = cardgame(&[
        "sim",
        MARKET,
        "--games",
        "60",
        "--sweep",
        "Silver.cost=3..4",
        "--sweep",
        "goal=12,15",
        "--format",
        "json",
        "--reproducible",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["sweeps"], serde_json::json!(["Silver.cost", "goal"]));
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.len(), 4);
    assert_eq!(
        points[1]["settings"],
        serde_json::json!(["Silver.cost=3", "goal=15"])
    );
    let alone = json_report(
        "sim",
        &[
            MARKET,
            "--games",
            "60",
            "--set",
            "Silver.cost=3",
            "--set",
            "goal=15",
        ],
        0,
    );
    assert_eq!(points[1]["report"], alone);
    // The text is a table, a line per point; the page a chart per figure.
    let page = std::env::temp_dir().join(format!("cardgame-sweep-{}.html", std::process::id()));
    let page_path = page.display().to_string();
    let out = cardgame(&[
        "sim",
        MARKET,
        "--games",
        "60",
        "--sweep",
        "Silver.cost=2..4",
        "--html",
        &page_path,
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
    let html = std::fs::read_to_string(&page).expect("the page");
    assert_eq!(html.matches("<svg").count(), 7, "a chart per figure");
}

#[test]
fn a_tournament_of_a_variant_names_what_was_set() {
    let r = json_report(
        "tournament",
        &[
            MARKET,
            "--agents",
            "random,first",
            "--games",
            "4",
            "--set",
            "Silver.cost=4",
        ],
        0,
    );
    assert_eq!(r["settings"], serde_json::json!(["Silver.cost=4"]));
    let plain = json_report(
        "tournament",
        &[MARKET, "--agents", "random,first", "--games", "4"],
        0,
    );
    assert!(plain.get("settings").is_none(), "{plain}");
}

#[test]
fn without_the_course_only_the_first_seat_s_advantage_is_given() {
    let with = json_report("sim", &[MARKET, "--games", "40", "--course"], 0);
    assert_eq!(with["course"]["measure"], "score");
    assert!(with["course"]["lead_changes"]["mean"].is_number());
    let without = json_report("sim", &[MARKET, "--games", "40"], 0);
    assert_eq!(without["course"]["measure"], Value::Null);
    assert_eq!(without["course"]["lead_changes"], Value::Null);
    assert_eq!(
        without["course"]["first_seat_advantage"],
        with["course"]["first_seat_advantage"]
    );
    // Everything else is the same: reading the score changes no game.
    let strip = |mut v: Value| {
        v.as_object_mut().map(|o| o.remove("course"));
        v
    };
    assert_eq!(strip(with), strip(without));
}
