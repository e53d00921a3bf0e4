//! Tests stage: runs the rules tests written in a script (`test "..." { ... }`) against the engine.

use crate::engine::{
    render_event, Game, GameConfig, Status, DEFAULT_MAX_DECISIONS, DEFAULT_MAX_STEPS,
};
use crate::program::{BinOp, Expr, ExprKind, Program, TestDef, TestStepKind};
use crate::value::Value;
use std::sync::Arc;

/// The outcome of one rules test.
#[derive(Clone, Debug)]
pub struct TestOutcome {
    pub name: String,
    /// The 1-based script line where the test starts (`test "..." {`).
    pub line: usize,
    /// `None` when the test passed; otherwise what went wrong, with the script line.
    pub failure: Option<String>,
}

impl TestOutcome {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Run every test of a checked program. `source` is the script text, to quote failing lines.
pub fn run_tests(program: &Arc<Program>, source: &str) -> Vec<TestOutcome> {
    run_tests_limited(program, source, DEFAULT_MAX_STEPS, DEFAULT_MAX_DECISIONS)
}

/// [`run_tests`] with other engine limits (see `GameConfig::max_steps` and `GameConfig::max_decisions`):
/// the fuzzer's tighter budget.
pub fn run_tests_limited(
    program: &Arc<Program>,
    source: &str,
    max_steps: u64,
    max_decisions: u64,
) -> Vec<TestOutcome> {
    program
        .tests
        .iter()
        .map(|t| run_test(program, t, source, max_steps, max_decisions))
        .collect()
}

/// Run one test of a checked program (one of `program.tests`) under the given engine limits.
pub fn run_test(
    program: &Arc<Program>,
    t: &TestDef,
    source: &str,
    max_steps: u64,
    max_decisions: u64,
) -> TestOutcome {
    TestOutcome {
        name: t.name.clone(),
        line: program.line_of(t.span.start),
        failure: run_one(program, t, source, max_steps, max_decisions).err(),
    }
}

fn quote(source: &str, span: cardgame_grammar::ast::Span) -> String {
    let text = source.get(span.start..span.end).unwrap_or("").trim();
    let first = text.lines().next().unwrap_or("");
    first.to_string()
}

fn run_one(
    program: &Arc<Program>,
    t: &TestDef,
    source: &str,
    max_steps: u64,
    max_decisions: u64,
) -> Result<(), String> {
    let mut config = GameConfig::new(t.players, t.seed);
    config.max_steps = max_steps;
    config.max_decisions = max_decisions;
    config.options = t.options.clone();
    config.names = t.names.clone();
    let mut game = Game::with_start(program.clone(), config, t.given, t.start.clone());
    let mut log: Vec<String> = Vec::new();
    let collect = |game: &mut Game, log: &mut Vec<String>| {
        for e in game.take_events() {
            if let Some(line) = render_event(game, &e, None) {
                log.push(line);
            }
        }
    };
    collect(&mut game, &mut log);
    for step in &t.steps {
        let line = program.line_of(step.span.start);
        let at = |msg: String| format!("line {line}: `{}`: {msg}", quote(source, step.span));
        if let Status::Error(e) = game.status() {
            return Err(at(format!("the game stopped with an error: {e}")));
        }
        match &step.kind {
            TestStepKind::Choose(label) => {
                let Some(d) = game.decision() else {
                    return Err(at(format!("no decision is pending ({})", describe(&game))));
                };
                let Some(i) = d.options.iter().position(|o| o == label) else {
                    return Err(at(format!(
                        "\"{label}\" is not an option of {}'s decision; the options are: {}",
                        game.label(&Value::Player(d.player)),
                        d.options
                            .iter()
                            .map(|o| format!("\"{o}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                };
                log.clear();
                game.apply(i).map_err(|e| at(format!("{e:?}")))?;
                collect(&mut game, &mut log);
                if let Status::Error(e) = game.status() {
                    return Err(at(format!("the game stopped with an error: {e}")));
                }
                continue;
            }
            TestStepKind::Expect(e) => match game.eval(e, t.slots) {
                Ok(Value::Bool(true)) => {}
                Ok(v) => {
                    return Err(at(format!(
                        "expected true, got {}{}",
                        game.label(&v),
                        sides(&mut game, e, t.slots)
                    )))
                }
                Err(e) => return Err(at(format!("{e}"))),
            },
            TestStepKind::OptionsHas(label) | TestStepKind::OptionsLacks(label) => {
                let Some(d) = game.decision() else {
                    return Err(at(format!("no decision is pending ({})", describe(&game))));
                };
                let has = d.options.iter().any(|o| o == label);
                let want = matches!(step.kind, TestStepKind::OptionsHas(_));
                if has != want {
                    return Err(at(format!(
                        "the options are: {}",
                        d.options
                            .iter()
                            .map(|o| format!("\"{o}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                }
            }
            TestStepKind::Decider(e) => {
                let want = game.eval(e, t.slots).map_err(|e| at(format!("{e}")))?;
                match game.decision() {
                    Some(d) if Value::Player(d.player) == want => {}
                    Some(d) => {
                        return Err(at(format!(
                            "{} decides, not {}",
                            game.label(&Value::Player(d.player)),
                            game.label(&want)
                        )))
                    }
                    None => {
                        return Err(at(format!("no decision is pending ({})", describe(&game))))
                    }
                }
            }
            TestStepKind::Winners(e) => {
                let want = game.eval(e, t.slots).map_err(|e| at(format!("{e}")))?;
                let mut want: Vec<u8> = match want {
                    Value::Player(p) => vec![p],
                    Value::List(l) => l
                        .iter()
                        .filter_map(|v| {
                            if let Value::Player(p) = v {
                                Some(*p)
                            } else {
                                None
                            }
                        })
                        .collect(),
                    _ => vec![],
                };
                want.sort();
                match game.status() {
                    Status::Over(o) => {
                        // Participants (players after the seats) win by name.
                        let seats = game.players() as usize;
                        let mut got = o.winners.clone();
                        got.extend(o.participants.iter().filter_map(|n| {
                            let i = game.names().iter().skip(seats).position(|x| x == n)?;
                            u8::try_from(seats + i).ok()
                        }));
                        got.sort();
                        if got != want {
                            let names = |ws: &[u8]| {
                                ws.iter()
                                    .map(|w| game.label(&Value::Player(*w)))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            };
                            return Err(at(format!(
                                "the winners are [{}] ({})",
                                names(&got),
                                o.reason
                            )));
                        }
                    }
                    _ => return Err(at(format!("the game is not over ({})", describe(&game)))),
                }
            }
            TestStepKind::NotOver => {
                if let Status::Over(o) = game.status() {
                    return Err(at(format!("the game is over: {}", o.reason)));
                }
            }
            TestStepKind::Over => {
                if !matches!(game.status(), Status::Over(_)) {
                    return Err(at(format!("the game is not over ({})", describe(&game))));
                }
            }
            TestStepKind::Log(text) => {
                if !log.iter().any(|l| l.contains(text.as_str())) {
                    let tail: Vec<&String> = log
                        .iter()
                        .rev()
                        .take(8)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    return Err(at(format!(
                        "no trace line since the last choice holds \"{text}\"; the last lines are:\n      {}",
                        tail.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n      ")
                    )));
                }
            }
            TestStepKind::Do(block) => {
                game.run_block(*block, t.slots)
                    .map_err(|e| at(format!("{e}")))?;
                collect(&mut game, &mut log);
            }
        }
    }
    Ok(())
}

/// For a comparison that does not hold (`expect A == B`, `<`, `>=`, ...): what each side was, as
/// docs/cli.md promises ("what was found").
fn sides(game: &mut Game, e: &Expr, slots: u16) -> String {
    let ExprKind::Binary(op, a, b) = &e.kind else {
        return String::new();
    };
    if !matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::In
    ) {
        return String::new();
    }
    match (game.eval(a, slots), game.eval(b, slots)) {
        (Ok(x), Ok(y)) => format!(
            ": the left side is {}, the right side is {}",
            shown(game, &x),
            shown(game, &y)
        ),
        _ => String::new(),
    }
}

/// A value as a test failure shows it: lists in brackets.
fn shown(game: &Game, v: &Value) -> String {
    match v {
        Value::List(_) => format!("[{}]", game.label(v)),
        _ => game.label(v),
    }
}

fn describe(game: &Game) -> String {
    match game.status() {
        Status::Decision(d) => format!(
            "{} is choosing among {}",
            game.label(&Value::Player(d.player)),
            d.options
                .iter()
                .map(|o| format!("\"{o}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Status::Over(o) => format!("the game is over: {}", o.reason),
        Status::Error(e) => format!("error: {e}"),
    }
}
