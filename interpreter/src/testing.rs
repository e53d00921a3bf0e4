//! Tests stage: runs the rules tests written in a script (`test "..." { ... }`) against the engine.

use crate::engine::{
    render_event, Game, GameConfig, RulesOf, RuntimeError, Status, TestExpr, DEFAULT_MAX_DECISIONS,
    DEFAULT_MAX_STEPS,
};
use crate::program::{Expr, Program, TestDef, TestStepKind};
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
        failure: run_one(program, t, source, (max_steps, max_decisions), &mut |_| {}).err(),
    }
}

/// Tests: every rules test of `program` run, each test's game shown to `seen` when it ends (to
/// read what its shortcuts did, engine/probe.rs; a strategy's rules pick on a copy of it).
#[cfg(test)]
pub(crate) fn run_tests_seen(
    program: &Arc<Program>,
    source: &str,
    seen: &mut dyn FnMut(&Game),
) -> Vec<TestOutcome> {
    let limits = (DEFAULT_MAX_STEPS, DEFAULT_MAX_DECISIONS);
    (program.tests.iter())
        .map(|t| TestOutcome {
            name: t.name.clone(),
            line: program.line_of(t.span.start),
            failure: run_one(program, t, source, limits, seen).err(),
        })
        .collect()
}

fn quote(source: &str, span: cardgame_grammar::ast::Span) -> String {
    let text = source.get(span.start..span.end).unwrap_or("").trim();
    let first = text.lines().next().unwrap_or("");
    first.to_string()
}

/// Runs test `t` under the limits (steps, decisions), then shows its game to `seen`.
fn run_one(
    program: &Arc<Program>,
    t: &TestDef,
    source: &str,
    (max_steps, max_decisions): (u64, u64),
    seen: &mut dyn FnMut(&Game),
) -> Result<(), String> {
    let mut config = GameConfig::new(t.players, t.seed);
    config.max_steps = max_steps;
    config.max_decisions = max_decisions;
    config.options = t.options.clone();
    config.names = t.names.clone();
    // The program's own test is created with its `start`'s arguments compiled.
    let mut game = match program.tests.iter().position(|x| std::ptr::eq(x, t)) {
        Some(i) => Game::for_test(program.clone(), config, i),
        None => Game::with_start(program.clone(), config, t.given, t.start.clone()),
    };
    let r = run_steps(program, t, source, &mut game);
    seen(&game);
    r
}

/// Runs the steps of test `t` on `game`.
fn run_steps(
    program: &Arc<Program>,
    t: &TestDef,
    source: &str,
    game: &mut Game,
) -> Result<(), String> {
    let mut log: Vec<String> = Vec::new();
    let collect = |game: &mut Game, log: &mut Vec<String>| {
        for e in game.take_events() {
            if let Some(line) = render_event(game, &e, None) {
                log.push(line);
            }
        }
    };
    collect(game, &mut log);
    for (j, step) in t.steps.iter().enumerate() {
        let line = program.line_of(step.span.start);
        let at = |msg: String| format!("line {line}: `{}`: {msg}", quote(source, step.span));
        if let Status::Error(e) = game.status() {
            return Err(at(format!("the game stopped with an error: {e}")));
        }
        match &step.kind {
            TestStepKind::Choose(label) => {
                let Some(d) = game.decision() else {
                    return Err(at(format!(
                        "no decision is pending ({})",
                        describe(game, program, t)
                    )));
                };
                let Some(i) = d.options.iter().position(|o| o == label) else {
                    return Err(at(format!(
                        "\"{label}\" is not an option of {}'s decision; the options are: {}",
                        game.label(&Value::Player(d.player)),
                        quoted(&d.options)
                    )));
                };
                log.clear();
                game.apply(i).map_err(|e| at(format!("{e:?}")))?;
                collect(game, &mut log);
                if let Status::Error(e) = game.status() {
                    return Err(at(format!("the game stopped with an error: {e}")));
                }
                continue;
            }
            TestStepKind::Expect(e) => match eval_step_at(game, t, TestExpr::Step(j), e) {
                Ok(Value::Bool(true)) => {}
                Ok(v) => {
                    return Err(at(format!(
                        "expected true, got {}{}",
                        game.label(&v),
                        sides(game, t, j, e)
                    )))
                }
                Err(e) => return Err(at(format!("{e}"))),
            },
            TestStepKind::OptionsHas(label) | TestStepKind::OptionsLacks(label) => {
                let Some(d) = game.decision() else {
                    return Err(at(format!(
                        "no decision is pending ({})",
                        describe(game, program, t)
                    )));
                };
                let has = d.options.iter().any(|o| o == label);
                let want = matches!(step.kind, TestStepKind::OptionsHas(_));
                if has != want {
                    return Err(at(format!("the options are: {}", quoted(&d.options))));
                }
            }
            TestStepKind::Decider(e) => {
                let want =
                    eval_step_at(game, t, TestExpr::Step(j), e).map_err(|e| at(format!("{e}")))?;
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
                        return Err(at(format!(
                            "no decision is pending ({})",
                            describe(game, program, t)
                        )))
                    }
                }
            }
            TestStepKind::Winners(e) => {
                let want =
                    eval_step_at(game, t, TestExpr::Step(j), e).map_err(|e| at(format!("{e}")))?;
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
                    _ => {
                        return Err(at(format!(
                            "the game is not over ({})",
                            describe(game, program, t)
                        )))
                    }
                }
            }
            TestStepKind::NotOver => {
                if let Status::Over(o) = game.status() {
                    if !returned(t, o) {
                        return Err(at(format!("the game is over: {}", o.reason)));
                    }
                }
            }
            TestStepKind::Over => {
                let over = matches!(game.status(), Status::Over(o) if !returned(t, o));
                if !over {
                    return Err(at(format!(
                        "the game is not over ({})",
                        describe(game, program, t)
                    )));
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
            TestStepKind::StrategyPicks { name, label } => {
                strategy_picks(program, t, game, name, label).map_err(at)?;
            }
            TestStepKind::Do(block) => {
                game.run_block(*block, t.slots)
                    .map_err(|e| at(format!("{e}")))?;
                collect(game, &mut log);
            }
        }
    }
    // Nothing in a test expects a runtime error: one after the last step (or in a test of no
    // steps) fails it as one before a step does.
    if let Status::Error(e) = game.status() {
        let line = program.line_of(t.span.start);
        return Err(format!(
            "line {line}: the game stopped with an error after the test's last step: {e}"
        ));
    }
    Ok(())
}

/// `expect strategy NAME picks "label"`: the rules of the strategy (or rule set) NAME, deciding for
/// the pending decider, pick the option labelled `label`. A rule must pick it: a choice left to the
/// strategy's fallback (`otherwise`) is no choice of the strategy's, and fails the step.
fn strategy_picks(
    program: &Program,
    t: &TestDef,
    game: &Game,
    name: &str,
    label: &str,
) -> Result<(), String> {
    let Some(d) = game.decision() else {
        return Err(format!(
            "no decision is pending ({})",
            describe(game, program, t)
        ));
    };
    let (of, fallback) = match program.strategies.iter().position(|s| s.name == name) {
        Some(i) => (
            RulesOf::Strategy(i),
            program.strategies[i].fallback.as_str(),
        ),
        None => match program.rule_sets.iter().position(|r| r.name == name) {
            Some(i) => (RulesOf::RuleSet(i), "nobody: a rule set has no fallback"),
            None => return Err(format!("no strategy or rule set is named `{name}`")),
        },
    };
    let decider = game.label(&Value::Player(d.player));
    if !d.options.iter().any(|o| o == label) {
        return Err(format!(
            "\"{label}\" is not an option of {decider}'s decision; the options are: {}",
            quoted(&d.options)
        ));
    }
    match game.rules_choice(of) {
        Ok(Some(i)) => match d.options.get(i) {
            Some(picked) if picked == label => Ok(()),
            Some(picked) => Err(format!(
                "`{name}` picks \"{picked}\" for {decider}, not \"{label}\""
            )),
            None => Err(format!("`{name}` picks no option of {decider}'s decision")),
        },
        Ok(None) => Err(format!(
            "no rule of `{name}` applies to {decider}'s decision (the choice falls to {fallback}); \
             the options are: {}",
            quoted(&d.options)
        )),
        Err(e) => Err(format!(
            "a rule of `{name}` failed for {decider}'s decision: {e}"
        )),
    }
}

/// Options as a failure lists them: each in quotes, separated by commas.
fn quoted(options: &[String]) -> String {
    options
        .iter()
        .map(|o| format!("\"{o}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An expression of a test step, `options` holding the labels of the pending decision (an empty
/// list when none is pending): the test's expression `what` (a step's, or a side of its
/// comparison), by its closure where the test is the program's (`Game::test_value`).
fn eval_step_at(
    game: &mut Game,
    t: &TestDef,
    what: TestExpr,
    e: &Expr,
) -> Result<Value, RuntimeError> {
    let test = game.program().tests.iter().position(|x| std::ptr::eq(x, t));
    let mut locals = Vec::new();
    if let Some(slot) = t.options_slot {
        let labels = game.decision().map_or_else(Vec::new, |d| {
            d.options
                .iter()
                .map(|o| Value::Text(Arc::new(o.clone())))
                .collect()
        });
        locals.push((slot, Value::list(labels)));
    }
    for &(stat, slot) in &t.stat_reads {
        let counter = game
            .program()
            .stats
            .get(stat as usize)
            .is_some_and(|s| s.counter);
        let value = if counter {
            Value::Int(game.stat_counter(stat as usize))
        } else {
            Value::list(
                game.stat_records()
                    .iter()
                    .filter(|(id, _, _)| *id == stat)
                    .map(|&(_, _, v)| Value::Int(v))
                    .collect(),
            )
        };
        locals.push((slot, value));
    }
    for (k, (stat, key, slot)) in t.stat_key_reads.iter().enumerate() {
        let at = test.map(|i| (i, TestExpr::Key(k)));
        let key = game.test_value(at, key, t.slots, locals.clone())?;
        let counter = game
            .program()
            .stats
            .get(*stat as usize)
            .is_some_and(|s| s.counter);
        let value = if counter {
            Value::Int(
                game.stat_keyed_counters()
                    .iter()
                    .find(|(id, k, _)| id == stat && *k == key)
                    .map_or(0, |e| e.2),
            )
        } else {
            Value::list(
                game.stat_keyed_records()
                    .iter()
                    .filter(|(id, _, k, _)| id == stat && *k == key)
                    .map(|(_, _, _, v)| Value::Int(*v))
                    .collect(),
            )
        };
        locals.push((*slot, value));
    }
    let at = test.map(|i| (i, what));
    game.test_value(at, e, t.slots, locals)
}

/// For a comparison that does not hold (`expect A == B`, `<`, `>=`, ...): what each side was, as
/// docs/cli.md promises ("what was found").
fn sides(game: &mut Game, t: &TestDef, j: usize, e: &Expr) -> String {
    let Some((a, b)) = crate::engine::compared(e) else {
        return String::new();
    };
    let mut side = |right: bool, x: &Expr| eval_step_at(game, t, TestExpr::Side(j, right), x);
    match (side(false, a), side(true, b)) {
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

/// Whether a test started with `start PROC` stands where PROC returned: the game is not over then,
/// it only has no decision to take.
fn returned(t: &TestDef, o: &crate::engine::Outcome) -> bool {
    t.start.is_some() && o.flow_ended
}

fn describe(game: &Game, program: &Program, t: &TestDef) -> String {
    match game.status() {
        Status::Over(o) if returned(t, o) => {
            let name = t
                .start
                .as_ref()
                .and_then(|(proc, _)| program.procs.get(proc.index()))
                .map_or("", |d| d.name.as_str());
            format!("the procedure `{name}` returned")
        }
        Status::Decision(d) => format!(
            "{} is choosing among {}",
            game.label(&Value::Player(d.player)),
            quoted(&d.options)
        ),
        Status::Over(o) => format!("the game is over: {}", o.reason),
        Status::Error(e) => format!("error: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of one menu: take a coin, or a gem when you hold two coins, or pass.
    const GAME: &str = r#"
game "Picks" { players 2 }
var coins per player: int = 0
action coin label "Take a coin" { you.coins = you.coins + 1 }
action gem label "Take a gem" if you.coins >= 2 { you.coins = you.coins - 2 }
flow { turn seat(1) { actions by active until pass [coin, gem] } }
rules greedy_gems { prefer gem }
strategy miser "a coin while poor, then pass" {
  prefer coin if you.coins < 2
  prefer pass if you.coins >= 3
}
"#;

    fn outcomes(test: &str) -> Vec<Option<String>> {
        failures(&format!("{GAME}{test}"))
    }

    /// Each rules test of a script that checks without errors: `None` when it passed, else why not.
    fn failures(source: &str) -> Vec<Option<String>> {
        let checked = crate::check::check_source(source);
        assert!(
            checked.diagnostics.iter().all(|d| !d.is_error()),
            "{:?}",
            checked.diagnostics
        );
        let program = Arc::new(checked.program.expect("a checked program"));
        run_tests(&program, source)
            .into_iter()
            .map(|o| o.failure)
            .collect()
    }

    #[test]
    fn a_strategy_pick_passes_when_its_first_matching_rule_picks_the_label() {
        let got = outcomes(
            r#"test "picks" {
  expect strategy miser picks "Take a coin"
  do { seat(1).coins = 3 }
  expect strategy miser picks "pass"
  expect strategy greedy_gems picks "Take a gem"
}"#,
        );
        assert_eq!(got, vec![None]);
    }

    #[test]
    fn a_strategy_pick_fails_with_what_the_rules_picked_or_why_none_did() {
        let got = outcomes(
            r#"test "another option" {
  do { seat(1).coins = 3 }
  expect strategy miser picks "Take a gem"
}
test "no rule applies" {
  do { seat(1).coins = 2 }
  expect strategy miser picks "pass"
}
test "no such option" {
  expect strategy greedy_gems picks "Take a gem"
}"#,
        );
        assert_eq!(
            got,
            vec![
                Some(
                    "line 14: `expect strategy miser picks \"Take a gem\"`: `miser` picks \"pass\" \
                     for P1, not \"Take a gem\""
                        .to_string()
                ),
                Some(
                    "line 18: `expect strategy miser picks \"pass\"`: no rule of `miser` applies \
                     to P1's decision (the choice falls to random); the options are: \
                     \"Take a coin\", \"Take a gem\", \"pass\""
                        .to_string()
                ),
                Some(
                    "line 21: `expect strategy greedy_gems picks \"Take a gem\"`: \"Take a gem\" \
                     is not an option of P1's decision; the options are: \"Take a coin\", \
                     \"pass\""
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn options_in_a_step_is_the_list_of_the_pending_labels() {
        let got = outcomes(
            r#"test "counted" {
  expect count(options) == 2
  expect options[1] == "Take a coin" and options[2] == "pass"
  do { seat(1).coins = 2 }
  expect count(options) == 3 and "Take a gem" in options
}
test "miscounted" {
  expect count(options) == 3
}"#,
        );
        assert_eq!(
            got,
            vec![
                None,
                Some(
                    "line 19: `expect count(options) == 3`: expected true, got false: the left \
                     side is 2, the right side is 3"
                        .to_string()
                )
            ]
        );
    }

    #[test]
    fn a_name_options_of_the_script_keeps_its_meaning_in_tests() {
        let source = r#"
game "Own" { players 2 }
var options: int = 4
flow { turn seat(1) { win [active] "done" } }
test "its own" { expect options == 4 }
"#;
        let got = failures(source);
        assert_eq!(got, vec![None]);
    }

    #[test]
    fn stat_in_a_step_reads_what_the_statistic_recorded_so_far() {
        let source = r#"
game "Stats" { players 2 }
var coins per player: int = 0
stat gained "Coins gained"
stat held "Coins held after a turn"
action grab(n in 1..2) label "Take {n}" {
  you.coins += n
  stat gained += n
}
flow {
  loop {
    for p in everyone {
      turn p {
        actions by p once [grab]
        stat held = p.coins
      }
    }
  }
}
test "read" {
  expect stat gained == 0 and stat held == []
  choose "Take 2"
  expect stat gained == 2 and stat held == [2]
  choose "Take 1"
  expect stat gained == 3 and last(stat held) == 1
}
test "wrong" {
  choose "Take 2"
  expect stat gained == 3
}
"#;
        let got = failures(source);
        assert_eq!(
            got,
            vec![
                None,
                Some(
                    "line 29: `expect stat gained == 3`: expected true, got false: the left side \
                     is 2, the right side is 3"
                        .to_string()
                )
            ]
        );
    }

    #[test]
    fn a_started_procedure_that_returns_leaves_the_game_not_over() {
        let source = r#"
game "Deal" { players 2 }
card "Coin" { copies 6 }
zone deck: pile
zone hand per player: set
setup { move box to deck }
proc deal(n: int) {
  for p in everyone { move top n of deck to p.hand }
}
proc finish() { win [seat(1)] "done" }
proc give_up() { win [] "the flow ended" }
flow { deal(1) turn seat(1) { win [active] "done" } }
test "dealt" {
  start deal(2)
  expect not over
  expect count(seat(1).hand) == 2 and count(deck) == 2
}
test "not over" {
  start deal(2)
  expect over
}
test "won" {
  start finish()
  expect over
  expect winners [seat(1)]
}
test "a win without winners whose reason reads as the flow's end is a win" {
  start give_up()
  expect over
  expect winners []
}
"#;
        let got = failures(source);
        assert_eq!(
            got,
            vec![
                None,
                Some(
                    "line 20: `expect over`: the game is not over (the procedure `deal` returned)"
                        .to_string()
                ),
                None,
                None
            ]
        );
    }
}
