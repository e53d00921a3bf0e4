//! Test support shared by the command-line tests: running the binary, reading a JSON report.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `cardgame` with `args` from the repository's root.
pub fn cardgame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// The JSON report of `cardgame COMMAND ARGS --format json` (`sim`, `tournament`), which must exit with
/// `code`, without what depends on the machine (time, jobs).
pub fn json_report(command: &str, args: &[&str], code: i32) -> Value {
    let mut all = vec![command];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = cardgame(&all);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let obj = v.as_object_mut().expect("an object");
    for key in ["seconds", "games_per_second", "jobs"] {
        assert!(obj.remove(key).is_some(), "the report has `{key}`");
    }
    v
}

/// Plays the study `sim BASE` as `count` shards, their parts written into `dir`; returns the parts'
/// paths.
pub fn sim_shards(base: &[&str], count: usize, dir: &std::path::Path) -> Vec<String> {
    (0..count)
        .map(|k| {
            let out_path = dir.join(format!("part{k}.json")).display().to_string();
            let shard = format!("{k}/{count}");
            let mut args = vec!["sim"];
            args.extend_from_slice(base);
            args.extend_from_slice(&["--shard", &shard, "--out", &out_path]);
            let out = cardgame(&args);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            out_path
        })
        .collect()
}

/// The JSON report of `merge EXTRA PARTS --format json --reproducible`, which must succeed.
pub fn merged_report(extra: &[&str], parts: &[String]) -> Value {
    let mut merge = vec!["merge"];
    merge.extend_from_slice(extra);
    merge.extend(parts.iter().map(String::as_str));
    reproducible_json(&merge)
}

/// The JSON report of `cardgame ARGS --format json --reproducible`, which must exit 0.
pub fn reproducible_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--format", "json", "--reproducible"]);
    let out = cardgame(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Writes a script to a folder of this test process's own, and returns its path.
pub fn temp_script(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardgame-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    // Written beside it and renamed: tests of one process run at once and may write the same script,
    // and a reader must never see it half written.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!("{name}.{n}.tmp"));
    std::fs::write(&tmp, text).expect("temp file");
    std::fs::rename(&tmp, &p).expect("temp file renamed");
    p
}

/// A game that ends with a runtime error (a division by zero) in one game of four: the Zero card is on
/// top after the shuffle; the other games are won by seat 1.
pub const FRAGILE: &str = r#"game "Fragile" { players 2 }
zone deck: pile, hidden
card "Zero" { copies 1 }
card "One" { copies 3 }
var x: int = 0
setup {
  move box to deck
  shuffle deck
}
flow {
  let c = top of deck
  if c is "Zero" { x = 1 / x }
  win [seat(1)] "done"
}
"#;
