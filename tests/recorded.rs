//! Regression oracle of the engine: `cardgame sim --reproducible --format json` reports recorded with a
//! trusted build (tests/recorded/README.md) must be reproduced byte for byte by this build.
//!
//! The default run compares the `quick` studies of tests/recorded/plan.txt (seconds in a debug build);
//! `cargo test --release -- --ignored recorded::` compares the `full` ones (minutes).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One line of plan.txt: a study whose report is recorded in NAME.json.
struct Study {
    set: String,
    name: String,
    script: String,
    args: Vec<String>,
}

fn recorded() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recorded")
}

fn plan() -> Vec<Study> {
    let text =
        std::fs::read_to_string(recorded().join("plan.txt")).expect("tests/recorded/plan.txt");
    let mut studies = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace().map(str::to_string);
        let (Some(set), Some(name), Some(script)) = (words.next(), words.next(), words.next())
        else {
            panic!("plan.txt: `{line}` is not `SET NAME SCRIPT ARGUMENTS...`");
        };
        assert!(
            set == "quick" || set == "full",
            "plan.txt: `{line}`: the set is `quick` or `full`"
        );
        studies.push(Study {
            set,
            name,
            script,
            args: words.collect(),
        });
    }
    studies
}

/// The recorded copy of a study's script, which the study plays.
fn copy_of(script: &str) -> String {
    let file = Path::new(script).file_name().expect("a file name");
    format!("tests/recorded/scripts/{}", file.to_string_lossy())
}

/// Plays every study of `set` and compares its report with the recorded one; returns the mismatches.
fn compare(set: &str) -> usize {
    compare_on(set, "walker", &|_| true)
}

/// [`compare`] for the studies whose script `wanted` accepts, played with `--engine ENGINE`.
fn compare_on(set: &str, engine: &str, wanted: &dyn Fn(&str) -> bool) -> usize {
    let mut mismatches = Vec::new();
    let studies: Vec<Study> = plan()
        .into_iter()
        .filter(|s| s.set == set && wanted(&s.script))
        .collect();
    assert!(!studies.is_empty(), "plan.txt has no `{set}` study");
    for study in &studies {
        let expected = std::fs::read(recorded().join(format!("{}.json", study.name)))
            .unwrap_or_else(|e| {
                panic!(
                    "{}.json: {e} (record it: tests/recorded/README.md)",
                    study.name
                )
            });
        let out = Command::new(env!("CARGO_BIN_EXE_cardgame"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("sim")
            .arg(copy_of(&study.script))
            .args(&study.args)
            .args(["--reproducible", "--format", "json", "--engine", engine])
            .output()
            .expect("the binary runs");
        // The course figures (`course`) came after most reports were recorded: they are left out of
        // both reports before they are compared, as parsed JSON (every other figure is compared
        // whole; the games themselves must not change when the score is read after every turn).
        let parsed = |bytes: &[u8]| {
            let mut report = serde_json::from_slice::<serde_json::Value>(bytes).ok();
            if let Some(o) = report.as_mut().and_then(|v| v.as_object_mut()) {
                o.remove("course");
            }
            report
        };
        let ours = parsed(&out.stdout);
        if ours.is_none() || ours != parsed(&expected) {
            // The report of this build, kept for a diff beside the recorded one.
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("recorded-mismatches");
            std::fs::create_dir_all(&dir).expect("a folder for the mismatches");
            let path = dir.join(format!("{}.json", study.name));
            std::fs::write(&path, &out.stdout).expect("the mismatching report written");
            let at = out
                .stdout
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(out.stdout.len().min(expected.len()));
            let from = at.saturating_sub(80);
            mismatches.push(format!(
                "{}: differs at byte {at}: recorded `…{}…`, this build `…{}…` (whole report: {}; stderr: {})",
                study.name,
                String::from_utf8_lossy(&expected[from..(at + 80).min(expected.len())]),
                String::from_utf8_lossy(&out.stdout[from..(at + 80).min(out.stdout.len())]),
                path.display(),
                String::from_utf8_lossy(&out.stderr).trim(),
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} `{set}` studies differ from their record:\n{}",
        mismatches.len(),
        studies.len(),
        mismatches.join("\n")
    );
    studies.len()
}

#[test]
fn quick_recorded_reports_are_reproduced() {
    compare("quick");
}

#[test]
#[ignore = "minutes: run with `cargo test --release -- --ignored recorded::`"]
fn full_recorded_reports_are_reproduced() {
    compare("full");
}

/// The closures (`--engine closures`, docs/engine.md "Where the move stands") reproduce every quick
/// study: they answer menus, guarded checks and statements where they compile, the walker everything
/// else.
#[test]
fn quick_recorded_reports_are_reproduced_on_the_closures() {
    compare_on("quick", "closures", &|_| true);
}

/// Every full study on `--engine closures`.
#[test]
#[ignore = "minutes: run with `cargo test --release -- --ignored recorded::`"]
fn full_recorded_reports_are_reproduced_on_the_closures() {
    compare_on("full", "closures", &|_| true);
}

/// Every script of games/ and examples/ has a recorded copy and studies in both sets, every study's
/// report and copy exist; a script edited since it was recorded is named (its record stays valid: the
/// studies play the copy), so that whoever changed it can decide to record it again.
#[test]
fn every_script_is_recorded_and_edits_are_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let studies = plan();
    for study in &studies {
        assert!(
            root.join(copy_of(&study.script)).is_file(),
            "{}: no recorded copy {}",
            study.name,
            copy_of(&study.script)
        );
        assert!(
            recorded().join(format!("{}.json", study.name)).is_file(),
            "{}: no recorded report",
            study.name
        );
    }
    let mut unrecorded = Vec::new();
    for folder in ["games", "examples"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .expect("the folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "cardgame"))
            .collect();
        files.sort();
        for file in files {
            let script = format!(
                "{folder}/{}",
                file.file_name().expect("a name").to_string_lossy()
            );
            let sets: Vec<&str> = studies
                .iter()
                .filter(|s| s.script == script)
                .map(|s| s.set.as_str())
                .collect();
            if sets.is_empty() {
                unrecorded.push(script);
                continue;
            }
            assert!(
                sets.contains(&"quick") && sets.contains(&"full"),
                "{script}: studies in both sets, quick and full"
            );
            let copy = std::fs::read(root.join(copy_of(&script))).expect("the copy");
            let now = std::fs::read(&file).expect("the script");
            if copy != now {
                eprintln!(
                    "note: {script} changed since its reports were recorded; they play the recorded copy \
                     (tests/recorded/README.md says how to record it again)"
                );
            }
        }
    }
    if !unrecorded.is_empty() {
        eprintln!(
            "note: no recorded reports for {} (tests/recorded/README.md says how to record them)",
            unrecorded.join(", ")
        );
    }
}
