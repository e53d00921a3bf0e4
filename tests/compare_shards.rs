//! `compare --shard K/N --out FILE` and `cardgame merge`: the parts of a comparison merged give exactly
//! the report of the whole comparison (docs/cli.md, compare).

use crate::common::cardgame;
use std::path::PathBuf;

fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardgame-compare-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

const STUDY: &[&str] = &[
    "compare",
    "examples/market-race.cardgame",
    "--set",
    "Silver.cost=2",
    "--games",
    "30",
    "--seed",
    "4",
    "--players",
    "3",
    "--jobs",
    "2",
];

fn ok(args: &[&str]) -> String {
    let out = cardgame(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Writes the parts of `count` shards, in the order given; returns their paths.
fn parts(count: u64, order: &[u64]) -> Vec<String> {
    let dir = folder();
    order
        .iter()
        .map(|k| {
            let out = dir.join(format!("part-{k}-of-{count}.json"));
            let out = out.to_str().expect("a path").to_string();
            let shard = format!("{k}/{count}");
            let mut args = STUDY.to_vec();
            args.extend(["--shard", &shard, "--out", &out]);
            ok(&args);
            out
        })
        .collect()
}

#[test]
fn merged_parts_give_the_whole_comparisons_report() {
    for format in ["json", "text"] {
        let mut whole = STUDY.to_vec();
        whole.extend(["--format", format, "--reproducible"]);
        let whole = ok(&whole);
        let files = parts(3, &[2, 0, 1]);
        let mut merge = vec!["merge", "--format", format, "--reproducible"];
        merge.extend(files.iter().map(String::as_str));
        assert_eq!(ok(&merge), whole, "{format}");
    }
    let report: serde_json::Value =
        serde_json::from_str(&ok(
            &[STUDY, &["--format", "json", "--reproducible"]].concat()
        ))
        .expect("JSON");
    assert_eq!(report["games"], 30);
    assert!(
        report["figures"]
            .as_array()
            .expect("figures")
            .iter()
            .any(|f| f["name"] == "card Silver: gained per player"),
        "{report}"
    );
}

#[test]
fn a_missing_shard_is_named_and_parts_of_two_studies_are_refused() {
    let files = parts(4, &[0, 1, 3]);
    let mut merge = vec!["merge", "--format", "json"];
    merge.extend(files.iter().map(String::as_str));
    let out = cardgame(&merge);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("shard(s) 2 of 4 missing"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let other = folder().join("other.json");
    let other = other.to_str().expect("a path");
    let mut args = STUDY.to_vec();
    args[7] = "5";
    args.extend(["--shard", "2/4", "--out", other]);
    ok(&args);
    let mut merge = vec!["merge"];
    merge.extend(files.iter().map(String::as_str));
    merge.push(other);
    assert_eq!(cardgame(&merge).status.code(), Some(2));
}
