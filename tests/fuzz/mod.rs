//! Fuzz stage: seeded mutants of every script in `games/` and `examples/` are checked, rendered and played;
//! a panic, a hang or a runtime error without a script line fails. A few hundred run in CI; run many with
//! `cargo test --release --test all -- --ignored fuzz:: --nocapture` (`FUZZ_MUTANTS=N`, `FUZZ_SEED=S`,
//! `FUZZ_PLAY=0` to check and render only, `FUZZ_SKIP=Kind,...` to leave kinds of edits out,
//! `FUZZ_MAX_HANGS=N`). Every failure found is kept in
//! `tests/fuzz-regressions/`, checked here too.

mod exercise;
mod mutate;

use exercise::{exercise, Limits, Play, Verdict};
use mutate::Kind;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The scripts mutated: every `.cardgame` file of `games/` and `examples/`, by name.
fn corpus() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["games", "examples"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let Ok(rd) = std::fs::read_dir(path) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "cardgame") {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    out.push((format!("{dir}/{}", e.file_name().to_string_lossy()), text));
                }
            }
        }
    }
    out.sort();
    out
}

/// Per mutation kind: mutants that used it, how many checked clean, how many failed.
#[derive(Default)]
struct Count {
    tried: u64,
    clean: u64,
    failed: u64,
}

/// A failing mutant: its number, base script, edits, the stage and message, and where it was saved.
struct Failure {
    mutant: u64,
    base: String,
    kinds: Vec<Kind>,
    stage: &'static str,
    message: String,
    file: PathBuf,
}

#[derive(Default)]
struct Tally {
    mutants: u64,
    rejected: u64,
    clean: u64,
    per_kind: BTreeMap<Kind, Count>,
    failures: Vec<Failure>,
    hangs: u64,
}

impl Tally {
    fn text(&self, seconds: f64) -> String {
        let mut s = format!(
            "{} mutants in {seconds:.1} s: {} rejected by the checker, {} clean, {} failures ({} hangs)\n",
            self.mutants,
            self.rejected,
            self.clean,
            self.failures.len(),
            self.hangs
        );
        s.push_str("kind              tried    clean   failed\n");
        for (k, c) in &self.per_kind {
            s.push_str(&format!(
                "{:<16} {:>6} {:>8} {:>8}\n",
                format!("{k:?}"),
                c.tried,
                c.clean,
                c.failed
            ));
        }
        for f in &self.failures {
            s.push_str(&format!(
                "FAIL mutant {} of {} ({:?}), {}: {}\n     saved as {}\n",
                f.mutant,
                f.base,
                f.kinds,
                f.stage,
                f.message,
                f.file.display()
            ));
        }
        s
    }
}

/// After this many hangs a campaign stops (each leaves a worker thread running); `FUZZ_MAX_HANGS`.
fn max_hangs() -> u64 {
    env_u64("FUZZ_MAX_HANGS", 3)
}

/// Mutant `i` of a campaign: its base script and its seeded edits.
fn mutant(corpus: &[(String, String)], seed: u64, i: u64) -> (usize, String, Vec<Kind>, u64) {
    let s = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i)
        .rotate_left(29);
    let mut rng = ChaCha8Rng::seed_from_u64(s);
    let base = (i % corpus.len() as u64) as usize;
    let (text, kinds) = mutate::mutate(&corpus[base].1, &skipped(), &mut rng);
    (base, text, kinds, s)
}

/// Run `count` mutants on `jobs` threads and tally them; failing mutants are saved under the target
/// directory for triage.
fn campaign(count: u64, seed: u64, play: Play, budget: Duration) -> Tally {
    let corpus = corpus();
    assert!(!corpus.is_empty(), "no scripts to mutate");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let next = AtomicU64::new(0);
    let tally = Mutex::new(Tally::default());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= count || tally.lock().map_or(true, |t| t.hangs >= max_hangs()) {
                    break;
                }
                let (base, text, kinds, s) = mutant(&corpus, seed, i);
                let verdict = exercise(text.clone(), s, play, budget);
                let Ok(mut t) = tally.lock() else { break };
                t.mutants += 1;
                if t.mutants % 1000 == 0 {
                    eprintln!(
                        "fuzz: {} mutants, {} failures, {:.0} s",
                        t.mutants,
                        t.failures.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
                for k in &kinds {
                    let c = t.per_kind.entry(*k).or_default();
                    c.tried += 1;
                    c.clean += u64::from(verdict == Verdict::Clean);
                    c.failed += u64::from(matches!(verdict, Verdict::Failed { .. }));
                }
                match verdict {
                    Verdict::Rejected => t.rejected += 1,
                    Verdict::Clean => t.clean += 1,
                    Verdict::Failed { stage, message } => {
                        if message.starts_with("hang") {
                            t.hangs += 1;
                        }
                        let _ = std::fs::create_dir_all(&out_dir);
                        let file = out_dir.join(format!("seed{seed}-mutant{i}.cardgame"));
                        let _ = std::fs::write(&file, &text);
                        t.failures.push(Failure {
                            mutant: i,
                            base: corpus[base].0.clone(),
                            kinds,
                            stage,
                            message,
                            file,
                        });
                    }
                }
            });
        }
    });
    let mut t = tally.into_inner().unwrap_or_default();
    t.failures.sort_by_key(|f| f.mutant);
    t
}

/// The kinds of edits left out, named in `FUZZ_SKIP` (comma separated, as printed in the report).
fn skipped() -> Vec<Kind> {
    let names = std::env::var("FUZZ_SKIP").unwrap_or_default();
    Kind::ALL
        .into_iter()
        .filter(|k| names.split(',').any(|n| n.trim() == format!("{k:?}")))
        .collect()
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What CI runs: a few hundred mutants with a fixed seed.
#[test]
fn fuzz_mutants_smoke() {
    let play = Play {
        games: true,
        max_turns: 3,
        max_decisions: 150,
        rules_tests: false,
        limits: Limits::FUZZ,
    };
    let start = Instant::now();
    let t = campaign(
        env_u64("FUZZ_MUTANTS", 300),
        2026,
        play,
        Duration::from_secs(60),
    );
    let report = t.text(start.elapsed().as_secs_f64());
    println!("{report}");
    assert!(t.failures.is_empty(), "{report}");
}

/// The campaign at volume: `cargo test --release --test all -- --ignored fuzz:: --nocapture`.
#[test]
#[ignore]
fn fuzz_mutants_many() {
    let play = Play {
        games: true,
        max_turns: 5,
        max_decisions: 300,
        rules_tests: true,
        limits: Limits::FUZZ,
    };
    let play = Play {
        games: env_u64("FUZZ_PLAY", 1) != 0,
        ..play
    };
    let start = Instant::now();
    let t = campaign(
        env_u64("FUZZ_MUTANTS", 100_000),
        env_u64("FUZZ_SEED", 1),
        play,
        Duration::from_secs(30),
    );
    let report = t.text(start.elapsed().as_secs_f64());
    println!("{report}");
    assert!(t.failures.is_empty(), "{report}");
}

/// Every failure the fuzzer ever found, kept as a file: checked, rendered, played and tested, no failure.
#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "cardgame"));
    files.sort();
    assert!(!files.is_empty(), "no files in {}", dir.display());
    let play = Play {
        games: true,
        max_turns: 5,
        max_decisions: 300,
        rules_tests: true,
        limits: Limits::FUZZ,
    };
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).expect("a regression file");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let start = Instant::now();
        for seed in 1..=3 {
            if let Verdict::Failed { stage, message } =
                exercise(text.clone(), seed, play, Duration::from_secs(60))
            {
                failures.push(format!("{} (seed {seed}), {stage}: {message}", f.display()));
            }
        }
        println!(
            "{}: {:.2} s",
            f.file_name().unwrap_or_default().to_string_lossy(),
            start.elapsed().as_secs_f64()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
