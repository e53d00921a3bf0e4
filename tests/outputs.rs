//! Outputs a person reads, pinned as snapshots: the end of a `run` (agents and scores), the tables of
//! `sim` and `tournament` with long agent names and cards nobody gained, `cards` after a failed setup.

use crate::common::{cardgame, temp_script};

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_run_ends_with_its_agents_and_scores() {
    let o = cardgame(&[
        "run",
        "examples/market-race.cardgame",
        "--seed",
        "3",
        "--agents",
        "greedy,random",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let end: Vec<&str> = out.lines().rev().take(3).collect::<Vec<_>>();
    let end: Vec<&str> = end.into_iter().rev().collect();
    insta::assert_snapshot!(end.join("\n"));
    // The same in JSON: the agents and scores in seat order, beside the winners (from 1).
    let o = cardgame(&[
        "run",
        "examples/market-race.cardgame",
        "--seed",
        "3",
        "--agents",
        "greedy,random",
        "--format",
        "json",
    ]);
    let last: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().last().expect("a result")).expect("json");
    assert_eq!(last["agents"], serde_json::json!(["greedy", "random"]));
    assert!(
        last["scores"].as_array().is_some_and(|s| s.len() == 2),
        "{last}"
    );
}

#[test]
fn sim_tables_align_long_agent_names_and_dash_unheld_cards() {
    let o = cardgame(&[
        "sim",
        "examples/market-race.cardgame",
        "--games",
        "20",
        "--seed",
        "4",
        "--agents",
        "strategy:money_actions,random",
        "--reproducible",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let from = out.find("wins by agent:").expect("wins by agent");
    let to = out.find("statistics (").unwrap_or(out.len());
    insta::assert_snapshot!(&out[from..to]);
}

#[test]
fn tournament_columns_fit_long_agent_names() {
    let o = cardgame(&[
        "tournament",
        "examples/market-race.cardgame",
        "--agents",
        "strategy:money_actions,strategy:victory_rush,random",
        "--games",
        "4",
        "--jobs",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let text: Vec<&str> = out
        .lines()
        .filter(|l| !l.contains("games per second"))
        .collect();
    insta::assert_snapshot!(text.join("\n"));
}

#[test]
fn cards_exits_1_when_the_setup_fails() {
    let script = temp_script(
        "setup-fails.cardgame",
        "game \"F\" { players 2 }\nvar x: int = 0\nsetup {\n  x = 5 / x\n}\nflow { win [seat(1)] \"done\" }\n",
    );
    let o = cardgame(&["cards", &script.to_string_lossy()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 4: division by zero"), "{err}");
}

#[test]
fn run_view_says_what_a_show_revealed_to_that_seat() {
    // Monty Hall's host is shown every door at setup: seat 2 reads the cards, seat 1 only that
    // something was shown, and the JSON lines of seat 1 leave the card out.
    let run = |view: &str, format: &str| {
        let o = cardgame(&[
            "run",
            "examples/monty-hall.cardgame",
            "--seed",
            "1",
            "--view",
            view,
            "--format",
            format,
        ]);
        assert_eq!(o.status.code(), Some(0));
        stdout(&o)
    };
    let host = run("2", "text");
    let contestant = run("1", "text");
    let shown = |out: &str| {
        out.lines()
            .filter(|l| l.contains(" shown to "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    insta::assert_snapshot!(format!(
        "seat 2:\n{}\nseat 1:\n{}",
        shown(&host),
        shown(&contestant)
    ));
    let json = run("1", "json");
    let shown: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .filter(|v: &serde_json::Value| v["type"] == "shown")
        .collect();
    assert_eq!(shown.len(), 3, "{json}");
    for v in shown {
        assert_eq!(v["player"], 2, "{v}");
        assert!(v["kind"].is_null() && v["card"].is_null(), "{v}");
    }
}
