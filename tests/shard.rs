//! CLI tests of sharded simulation: `sim --shard K/N --out FILE` and `cardgame merge` give the report of
//! the same study run on one machine, and mismatched or missing parts are refused or named.

use crate::common::{cardgame, temp_script, FRAGILE};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A folder of its own for one test's parts.
fn parts_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardgame-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder for the parts");
    dir
}

/// Runs `cardgame ARGS`, checks its exit code, and returns standard output and standard error.
fn run(args: &[&str], code: i32) -> (String, String) {
    let out = cardgame(args);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

/// The text report without its last line (games per second: time, not a figure of the games).
fn without_timing(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap_or_default();
    assert!(
        last.ends_with(" s)") && last.contains("games per second"),
        "{last}"
    );
    lines.join("\n")
}

/// The JSON report without the two fields that are time.
fn json_without_timing(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).expect("one JSON object");
    let obj = v.as_object_mut().expect("an object");
    for key in ["seconds", "games_per_second"] {
        assert!(obj.remove(key).is_some(), "the report has `{key}`");
    }
    v
}

/// Writes the `count` shards of `sim ARGS` into `dir`, each expected to exit with `code`; returns
/// their paths in shard order.
fn write_shards(dir: &Path, args: &[&str], count: u64, code: i32) -> Vec<String> {
    (0..count)
        .map(|k| {
            let out = dir
                .join(format!("part-{k}.json"))
                .to_string_lossy()
                .into_owned();
            let shard = format!("{k}/{count}");
            let mut all = vec!["sim"];
            all.extend_from_slice(args);
            all.extend_from_slice(&["--shard", &shard, "--out", &out]);
            let (stdout, stderr) = run(&all, code);
            assert!(stdout.is_empty(), "a shard writes only its file: {stdout}");
            assert!(stderr.contains(&format!("shard {shard}: ")), "{stderr}");
            out
        })
        .collect()
}

/// The one-machine report of `sim ARGS` and the merge of its `count` shards agree byte for byte, in
/// text and in JSON, but for the time they took.
fn sharded_equals_one_run(name: &str, args: &[&str], count: u64, code: i32) -> Value {
    let dir = parts_dir(name);
    let mut one = vec!["sim"];
    one.extend_from_slice(args);
    let (text, _) = run(&one, code);
    one.extend_from_slice(&["--format", "json"]);
    let (json, _) = run(&one, code);
    let parts = write_shards(&dir, args, count, code);
    let mut merge: Vec<&str> = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let (merged_text, _) = run(&merge, code);
    // The one run names its script in the commands that replay a game; the merge cannot know under
    // which path the shards read it, and writes `SCRIPT` there.
    let script = args[0];
    let named = text.replace(&format!("cardgame run {script} "), "cardgame run SCRIPT ");
    assert_eq!(without_timing(&merged_text), without_timing(&named));
    // Given the script (`--script`), the merge names it as the one run does.
    let mut merge_named: Vec<&str> = vec!["merge", "--script", script];
    merge_named.extend(parts.iter().map(String::as_str));
    let (merged_named, _) = run(&merge_named, code);
    assert_eq!(without_timing(&merged_named), without_timing(&text));
    // The parts may be given in any order.
    let mut reversed: Vec<&str> = vec!["merge", "--format", "json"];
    reversed.extend(parts.iter().rev().map(String::as_str));
    let (merged_json, _) = run(&reversed, code);
    let one_json = json_without_timing(&json);
    assert_eq!(json_without_timing(&merged_json), one_json);
    // Nothing is left beside the parts (each was written under another name, then renamed).
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let expected: Vec<String> = (0..count).map(|k| format!("part-{k}.json")).collect();
    assert_eq!(files, expected);
    one_json
}

#[test]
fn merged_shards_give_the_report_of_one_run_with_statistics() {
    let v = sharded_equals_one_run(
        "market-race",
        &[
            "examples/market-race.cardgame",
            "--games",
            "60",
            "--seed",
            "5",
            "--jobs",
            "1",
            "--agents",
            "strategy:big_money,random",
        ],
        3,
        0,
    );
    // The study has what is worth merging: statistics with distributions and means by turn.
    assert_eq!(v["games"], 60);
    let stats = v["stats"].as_array().expect("statistics");
    assert!(
        stats
            .iter()
            .any(|s| !s["by_turn"].as_array().unwrap().is_empty()),
        "{v}"
    );
}

#[test]
fn merged_shards_give_the_report_of_one_run_with_three_players_and_rotation() {
    sharded_equals_one_run(
        "crafty",
        &[
            "games/crafty-explorers.cardgame",
            "--players",
            "3",
            "--games",
            "14",
            "--seed",
            "9",
            "--jobs",
            "2",
            "--agents",
            "random,first",
        ],
        4,
        0,
    );
}

#[test]
fn more_shards_than_games_leave_empty_shards_that_still_merge() {
    sharded_equals_one_run(
        "few",
        &[
            "examples/secret-bids.cardgame",
            "--games",
            "2",
            "--jobs",
            "1",
        ],
        3,
        0,
    );
}

#[test]
fn engine_errors_are_counted_and_the_first_twenty_listed_as_in_one_run() {
    // One game in four divides by zero; 120 games give about 30 errors, of which 20 are listed.
    let script = temp_script("fragile-shards.cardgame", FRAGILE);
    let path = script.to_string_lossy().into_owned();
    let v = sharded_equals_one_run(
        "fragile",
        &[&path, "--games", "120", "--seed", "3", "--jobs", "1"],
        3,
        1,
    );
    assert!(v["error_count"].as_u64().unwrap() > 20, "{v}");
    assert_eq!(v["errors"].as_array().unwrap().len(), 20);
}

#[test]
fn parts_of_different_studies_are_refused() {
    let dir = parts_dir("mismatch");
    let duel = |seed: &str, shard: &str, name: &str| {
        let out = dir.join(name).to_string_lossy().into_owned();
        run(
            &[
                "sim",
                "examples/duel.cardgame",
                "--games",
                "6",
                "--seed",
                seed,
                "--shard",
                shard,
                "--out",
                &out,
            ],
            0,
        );
        out
    };
    let a = duel("1", "0/2", "a.json");
    let b = duel("2", "1/2", "b.json");
    let (_, err) = run(&["merge", &a, &b], 2);
    assert!(
        err.contains("another study") && err.contains("seed is `2`, not `1`"),
        "{err}"
    );
    // Another script.
    let c = dir.join("c.json").to_string_lossy().into_owned();
    run(
        &[
            "sim",
            "examples/secret-bids.cardgame",
            "--games",
            "6",
            "--shard",
            "1/2",
            "--out",
            &c,
        ],
        0,
    );
    let (_, err) = run(&["merge", &a, &c], 2);
    assert!(err.contains("another study"), "{err}");
    // Another cut of the same study, and one shard given twice.
    let d = duel("1", "1/3", "d.json");
    let (_, err) = run(&["merge", &a, &d], 2);
    assert!(err.contains("same number of shards"), "{err}");
    let (_, err) = run(&["merge", &a, &a], 2);
    assert!(err.contains("are both shard 0/2"), "{err}");
    // Not a part at all.
    let (_, err) = run(&["merge", "examples/duel.cardgame"], 2);
    assert!(err.contains("is not a partial report"), "{err}");
    // `--script` naming another script than the one the shards played.
    let e = duel("1", "1/2", "e.json");
    run(&["merge", "--script", "examples/duel.cardgame", &a, &e], 0);
    let (_, err) = run(
        &["merge", "--script", "examples/secret-bids.cardgame", &a, &e],
        2,
    );
    assert!(
        err.contains("examples/secret-bids.cardgame is not the script the shards played"),
        "{err}"
    );
}

#[test]
fn missing_shards_are_named_and_what_exists_is_reported() {
    let dir = parts_dir("missing");
    let args = [
        "examples/duel.cardgame",
        "--games",
        "9",
        "--seed",
        "4",
        "--jobs",
        "1",
    ];
    let parts = write_shards(&dir, &args, 3, 0);
    let (text, err) = run(&["merge", &parts[0], &parts[2]], 1);
    assert!(
        err.contains("error: shard 1 of 3 is missing; the report covers 6 of the study's 9 games"),
        "{err}"
    );
    assert!(text.contains(": 6 games with 2 players"), "{text}");
    let (_, err) = run(&["merge", "--allow-partial", &parts[0], &parts[2]], 0);
    assert!(err.starts_with("warning: shard 1 of 3 is missing"), "{err}");
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    for (shard, out) in [("3/3", "x.json"), ("1/0", "x.json"), ("one/3", "x.json")] {
        let (_, err) = run(
            &[
                "sim",
                "examples/duel.cardgame",
                "--shard",
                shard,
                "--out",
                out,
            ],
            2,
        );
        assert!(err.contains("--shard takes K/N"), "{err}");
    }
    // --shard without --out (and the other way round) is refused by the argument parser.
    run(&["sim", "examples/duel.cardgame", "--shard", "0/2"], 2);
    run(&["sim", "examples/duel.cardgame", "--out", "x.json"], 2);
}

/// The whole path on a real batch engine that installs on one machine: GNU parallel runs the shards as
/// separate processes (deploy/parallel.sh, as docs/scale.md shows), and their merge is the report of
/// one process. Needs `parallel` (Debian: `apt-get install -y parallel`); run with
/// `cargo test --release --test all -- --ignored shard::`.
#[test]
#[ignore = "needs GNU parallel (apt-get install -y parallel): cargo test --release --test all -- --ignored shard::"]
fn gnu_parallel_runs_the_shards_and_the_merge_equals_one_process() {
    let dir = parts_dir("parallel");
    let args = [
        "games/heart-of-crown.cardgame",
        "--games",
        "200",
        "--seed",
        "11",
        "--jobs",
        "1",
    ];
    let mut one = vec!["sim"];
    one.extend_from_slice(&args);
    let (text, _) = run(&one, 0);
    one.extend_from_slice(&["--format", "json"]);
    let (json, _) = run(&one, 0);
    let out = std::process::Command::new("deploy/parallel.sh")
        .arg("5")
        .arg(&dir)
        .args(args)
        .env("CARDGAME", env!("CARGO_BIN_EXE_cardgame"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("deploy/parallel.sh runs (is GNU parallel installed?)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for k in 0..5 {
        assert!(
            stderr.contains(&format!("shard {k}/5: 40 of 200 games written")),
            "{stderr}"
        );
    }
    let merged_text = std::fs::read_to_string(dir.join("report.txt")).expect("the text report");
    assert_eq!(without_timing(&merged_text), without_timing(&text));
    let merged_json = std::fs::read_to_string(dir.join("report.json")).expect("the JSON report");
    assert_eq!(
        json_without_timing(&merged_json),
        json_without_timing(&json)
    );
}

/// The same on Slurm: a job array of 4 tasks (deploy/slurm-array.sh), then the merge as a job that
/// depends on the array (deploy/slurm-merge.sh), as docs/scale.md shows. Needs a running Slurm (one
/// machine: `deploy/slurm-single-node.sh`, as root); run with
/// `cargo test --release --test all -- --ignored shard::`.
#[test]
#[ignore = "needs a running Slurm (deploy/slurm-single-node.sh): cargo test --release --test all -- --ignored shard::"]
fn a_slurm_job_array_runs_the_shards_and_the_merge_equals_one_process() {
    let dir = parts_dir("slurm");
    let logs = dir.join("slurm-%A_%a.out").to_string_lossy().into_owned();
    let merge_log = dir.join("merge.out");
    let args = [
        "examples/market-race.cardgame",
        "--games",
        "2000",
        "--seed",
        "3",
        "--jobs",
        "1",
    ];
    let sbatch = |extra: &[&str], script_args: &[&str]| -> String {
        let out = std::process::Command::new("sbatch")
            .args(["--parsable", "--wait"])
            .args(extra)
            .args(script_args)
            .env("CARDGAME", env!("CARGO_BIN_EXE_cardgame"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("sbatch runs (is Slurm running? deploy/slurm-single-node.sh)");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let outdir = dir.to_string_lossy().into_owned();
    let mut array_args = vec!["deploy/slurm-array.sh", outdir.as_str()];
    array_args.extend_from_slice(&args);
    let output = format!("--output={logs}");
    let job = sbatch(&["--array=0-3", &output], &array_args);
    let merge_output = format!("--output={}", merge_log.display());
    let dependency = format!("--dependency=afterany:{job}");
    sbatch(
        &[&dependency, &merge_output],
        &["deploy/slurm-merge.sh", &outdir, "4"],
    );
    let mut one = vec!["sim"];
    one.extend_from_slice(&args);
    let (text, _) = run(&one, 0);
    one.extend_from_slice(&["--format", "json"]);
    let (json, _) = run(&one, 0);
    let merged_text = std::fs::read_to_string(dir.join("report.txt")).expect("the text report");
    assert_eq!(without_timing(&merged_text), without_timing(&text));
    let merged_json = std::fs::read_to_string(dir.join("report.json")).expect("the JSON report");
    assert_eq!(
        json_without_timing(&merged_json),
        json_without_timing(&json)
    );
    let log = std::fs::read_to_string(&merge_log).expect("the merge job's log");
    assert!(
        log.contains("Market Race: 2000 games with 2 players"),
        "{log}"
    );
}

/// With `--reproducible`, `sim` and `merge` leave out the jobs and the time, so the merged report of a
/// study is byte for byte the report of one run (text and JSON), whatever the jobs of each.
#[test]
fn reproducible_reports_of_shards_and_of_one_run_are_the_same_bytes() {
    let dir = parts_dir("reproducible");
    let args = [
        "examples/market-race.cardgame",
        "--games",
        "30",
        "--seed",
        "8",
    ];
    let mut sharded = args.to_vec();
    sharded.extend_from_slice(&["--jobs", "2"]);
    let parts = write_shards(&dir, &sharded, 3, 0);
    let mut one = vec!["sim"];
    one.extend_from_slice(&args);
    one.extend_from_slice(&["--jobs", "1", "--reproducible"]);
    let (text, _) = run(&one, 0);
    assert!(
        !text.contains("jobs") && !text.contains("per second"),
        "{text}"
    );
    let mut merge = vec!["merge", "--reproducible"];
    merge.extend(parts.iter().map(String::as_str));
    let (merged, _) = run(&merge, 0);
    assert_eq!(merged, text);
    one.extend_from_slice(&["--format", "json"]);
    let (json, _) = run(&one, 0);
    merge.extend_from_slice(&["--format", "json"]);
    let (merged_json, _) = run(&merge, 0);
    assert_eq!(merged_json, json);
    let v: Value = serde_json::from_str(&json).expect("JSON");
    for key in ["jobs", "seconds", "games_per_second"] {
        assert!(v.get(key).is_none(), "{key} left out");
    }
    // The HTML page of the merged report is the page of the one run.
    let (one_html, merged_html) = (dir.join("one.html"), dir.join("merged.html"));
    let (one_html, merged_html) = (
        one_html.to_string_lossy().into_owned(),
        merged_html.to_string_lossy().into_owned(),
    );
    one.extend_from_slice(&["--html", &one_html]);
    run(&one, 0);
    merge.extend_from_slice(&["--html", &merged_html]);
    run(&merge, 0);
    let page = std::fs::read_to_string(&one_html).expect("the page of one run");
    assert!(page.contains("<svg"), "a page with charts");
    assert_eq!(
        std::fs::read_to_string(&merged_html).expect("the page of the merge"),
        page
    );
}
