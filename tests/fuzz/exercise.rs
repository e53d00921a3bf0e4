//! Fuzz stage: what is done with each mutant — check it, render its diagnostics, format it, and when it is clean play
//! a few turns and run its rules tests — on a thread of its own with panics caught and a wall-clock budget.

use cardgame_grammar::format::{format, FormatError};
use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{render_event, Game, GameConfig, Status};
use cardgame_interpreter::program::{OptionId, OptionKind, Program};
use cardgame_interpreter::report;
use cardgame_interpreter::testing::run_tests_limited;
use cardgame_interpreter::value::Value;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{mpsc, Arc, Once};
use std::time::Duration;

/// What became of one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The checker found errors (and rendered them).
    Rejected,
    /// The script checked clean and was played.
    Clean,
    /// A bug: a panic, a run over its time budget, or a runtime error that names no script line.
    Failed {
        stage: &'static str,
        message: String,
    },
}

/// How much of a clean mutant is played.
#[derive(Clone, Copy, Debug)]
pub struct Play {
    /// Whether clean mutants are played at all (`FUZZ_PLAY=0`: check and render only).
    pub games: bool,
    pub max_turns: u32,
    /// Decisions the harness takes in all before it stops a game.
    pub max_decisions: u32,
    /// The engine's limits (`GameConfig::max_steps`, `GameConfig::max_decisions`), for the games and
    /// the rules tests: small enough that a mutant ends well within the wall-clock budget.
    pub limits: Limits,
    /// Whether the script's rules tests are run too.
    pub rules_tests: bool,
}

/// The engine limits a mutant runs under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Work between two decisions (`GameConfig::max_steps`).
    pub max_steps: u64,
    /// Decisions in one turn (`GameConfig::max_decisions`).
    pub max_decisions: u64,
}

impl Limits {
    /// A work budget of 200,000 steps runs in well under a second in the test build; 200 decisions in a
    /// turn is twice as many as the harness takes in a game.
    pub const FUZZ: Limits = Limits {
        max_steps: 200_000,
        max_decisions: 200,
    };
}

const STAGES: [&str; 6] = ["check", "render", "format", "play", "rules tests", "done"];

/// The thread name of mutant workers: their panics are recorded, not printed.
const WORKER: &str = "fuzz-mutant";

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics on worker threads are kept quiet and recorded (message and place); others print as usual.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(WORKER) {
                let msg = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg}{at}")));
            } else {
                default(info);
            }
        }));
    });
}

/// Check, render and (when clean) play `source` on a worker thread with the stack of a program's main
/// thread; a run longer than `budget` is a failure (the worker is left behind, never joined).
pub fn exercise(source: String, seed: u64, play: Play, budget: Duration) -> Verdict {
    install_hook();
    let stage = Arc::new(AtomicU8::new(0));
    let (tx, rx) = mpsc::channel();
    let worker_stage = stage.clone();
    let spawned = std::thread::Builder::new()
        .name(WORKER.into())
        .stack_size(8 << 20)
        .spawn(move || {
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
                exercise_here(&source, seed, play, &worker_stage)
            }));
            let verdict = match r {
                Ok(v) => v,
                Err(_) => Verdict::Failed {
                    stage: STAGES[worker_stage.load(Ordering::SeqCst) as usize],
                    message: format!(
                        "panic: {}",
                        LAST_PANIC
                            .with(|p| p.borrow_mut().take())
                            .unwrap_or_default()
                    ),
                },
            };
            let _ = tx.send(verdict);
        });
    if let Err(e) = spawned {
        return Verdict::Failed {
            stage: "spawn",
            message: format!("cannot start a thread: {e}"),
        };
    }
    match rx.recv_timeout(budget) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => Verdict::Failed {
            stage: STAGES[stage.load(Ordering::SeqCst) as usize],
            message: format!("hang: still running after {} s", budget.as_secs()),
        },
        Err(mpsc::RecvTimeoutError::Disconnected) => Verdict::Failed {
            stage: STAGES[stage.load(Ordering::SeqCst) as usize],
            message: "the worker ended without a verdict (a panic while panicking?)".into(),
        },
    }
}

fn exercise_here(source: &str, seed: u64, play: Play, stage: &AtomicU8) -> Verdict {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    stage.store(0, Ordering::SeqCst);
    let checked = check_source(source);
    stage.store(1, Ordering::SeqCst);
    let text = report::render(&checked.diagnostics, "mutant.cardgame", source, 100);
    let _ = report::summary(&checked.diagnostics);
    if !checked.diagnostics.is_empty() && text.is_empty() {
        return Verdict::Failed {
            stage: "render",
            message: "diagnostics rendered as nothing".into(),
        };
    }
    stage.store(2, Ordering::SeqCst);
    if let Err(message) = format_twice(source) {
        return Verdict::Failed {
            stage: "format",
            message,
        };
    }
    let Some(program) = checked.program else {
        return Verdict::Rejected;
    };
    if !play.games {
        return Verdict::Clean;
    }
    let program = Arc::new(program);
    stage.store(3, Ordering::SeqCst);
    if let Err(message) = play_game(&program, play, &mut rng) {
        return Verdict::Failed {
            stage: "play",
            message,
        };
    }
    if play.rules_tests {
        stage.store(4, Ordering::SeqCst);
        let _ = run_tests_limited(
            &program,
            source,
            play.limits.max_steps,
            play.limits.max_decisions,
        );
    }
    stage.store(5, Ordering::SeqCst);
    Verdict::Clean
}

/// Formats a mutant: a script that parses formats (the formatter's own check that the tree and the
/// comments are kept must hold), and formatting the result changes nothing.
fn format_twice(source: &str) -> Result<(), String> {
    match format(source) {
        Ok(once) => match format(&once) {
            Ok(twice) if twice == once => Ok(()),
            Ok(_) => Err("formatting twice changes the text".into()),
            Err(e) => Err(format!("the formatted text does not format: {e}")),
        },
        Err(FormatError::Syntax(_)) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

/// A value of each option, sometimes not its default.
fn options(p: &Program, rng: &mut ChaCha8Rng) -> Vec<(OptionId, Value)> {
    let mut out = Vec::new();
    for (i, o) in p.options.iter().enumerate() {
        if !rng.gen_bool(0.3) {
            continue;
        }
        let v = match &o.kind {
            OptionKind::Bool => Value::Bool(rng.gen()),
            OptionKind::Int { min, max } if min <= max => Value::Int(rng.gen_range(*min..=*max)),
            OptionKind::Int { .. } => continue,
            OptionKind::OneOf(vals) if !vals.is_empty() => {
                Value::Int(rng.gen_range(0..vals.len()) as i64)
            }
            OptionKind::OneOf(_) => continue,
        };
        out.push((OptionId(i as u16), v));
    }
    out
}

/// Play a few turns with random choices (now and then a `greedy` seat), rendering every event, the view
/// and the inventory; a runtime error must name a script line.
fn play_game(program: &Arc<Program>, play: Play, rng: &mut ChaCha8Rng) -> Result<(), String> {
    let players = if rng.gen_bool(0.5) {
        program.min_players
    } else {
        program.max_players
    };
    let mut cfg = GameConfig::new(players, rng.gen());
    cfg.max_turns = play.max_turns;
    cfg.max_steps = play.limits.max_steps;
    cfg.max_decisions = play.limits.max_decisions;
    cfg.options = options(program, rng);
    let mut game = Game::new(program.clone(), cfg);
    let mut greedy = if rng.gen_ratio(1, 20) {
        make_agent(program, "greedy", 1, 0).ok()
    } else {
        None
    };
    let _ = game.inventory().to_text();
    for _ in 0..play.max_decisions {
        for e in game.take_events() {
            let _ = render_event(&game, &e, None);
            let _ = render_event(&game, &e, Some(0));
            let _ = serde_json::to_string(&e);
        }
        let choice = match game.status() {
            Status::Decision(d) => {
                if d.options.is_empty() {
                    return Err("a decision without options".into());
                }
                match greedy.as_mut() {
                    Some(g) if d.player == 0 => g.choose(&game, d).min(d.options.len() - 1),
                    _ => rng.gen_range(0..d.options.len()),
                }
            }
            Status::Over(_) => break,
            Status::Error(e) => {
                let _ = e.to_string();
                if e.line == 0 {
                    return Err(format!("a runtime error at line 0: {}", e.message));
                }
                break;
            }
        };
        if let Err(e) = game.apply(choice) {
            return Err(format!("a legal choice refused: {e:?}"));
        }
    }
    let _ = game.view(0);
    if let Err(e) = game.check_invariants() {
        return Err(format!("engine invariant broken: {e}"));
    }
    Ok(())
}
