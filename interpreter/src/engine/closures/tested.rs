//! Engine stage (closures): the expressions of a script's rules tests compiled once per program
//! (`expect`, `expect decider`, `expect winners`, the key `K` of a `stat NAME[K]` read, the sides of
//! an `expect` of a comparison that a failure shows), read by
//! testing.rs through `Game::test_value` while a test runs.
//!
//! A test's expression reads its locals from the walker's context pushed for it, as the walker
//! does (`options`, the labels of the pending decision; `stat NAME`, what was recorded), a counter
//! also as a word in its slot; `you` is the active player. Where a closure cannot answer (a pile
//! that may refill, `random`, an overflow, an error), the walker evaluates the expression, failing
//! where it fails.

use super::env::{self, Answer, Env};
use super::expr::Cx;
use super::functions::Callables;
use super::value::{compile_value, Val};
use crate::engine::state::{Ctx, Layout, State};
use crate::program::{BinOp, Expr, ExprKind, Program, TestDef, TestStepKind, Ty};
use crate::value::Value;
use std::rc::Rc;

/// An expression of a rules test: of its steps, or the key of a `stat NAME[K]` it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TestExpr {
    /// Step `j`'s expression (`expect`, `expect decider`, `expect winners`).
    Step(usize),
    /// The key of the `k`-th `stat NAME[K]` the test reads (`TestDef::stat_key_reads`).
    Key(usize),
    /// A side of step `j`'s `expect A OP B`, a comparison (`false`: `A`, `true`: `B`), which a
    /// failure shows.
    Side(usize, bool),
}

/// One rules test's expressions compiled (`None`: a step of no expression, or the walker's).
#[derive(Default)]
pub(crate) struct TestCode {
    steps: Vec<Option<Val>>,
    /// Per step, the sides of its comparison ([`TestExpr::Side`]).
    sides: Vec<[Option<Val>; 2]>,
    keys: Vec<Option<Val>>,
    /// The arguments of its `start PROC(args)`.
    start: Vec<Option<Val>>,
}

/// Every rules test of `p` compiled.
pub(super) fn build(p: &Program, fns: &Rc<Callables>) -> Vec<TestCode> {
    (p.tests.iter())
        .map(|t| {
            let compile = |e| {
                let mut cx = frame(p, t);
                cx.fns = fns.clone();
                compile_value(&mut cx, e).ok()
            };
            TestCode {
                steps: (t.steps.iter())
                    .map(|s| match &s.kind {
                        TestStepKind::Expect(e)
                        | TestStepKind::Decider(e)
                        | TestStepKind::Winners(e) => compile(e),
                        _ => None,
                    })
                    .collect(),
                sides: (t.steps.iter())
                    .map(|s| match &s.kind {
                        TestStepKind::Expect(e) => match compared(e) {
                            Some((a, b)) => [compile(a), compile(b)],
                            None => [None, None],
                        },
                        _ => [None, None],
                    })
                    .collect(),
                keys: t
                    .stat_key_reads
                    .iter()
                    .map(|(_, k, _)| compile(k))
                    .collect(),
                start: (t.start.iter().flat_map(|(_, args)| args))
                    .map(|a| {
                        // Read where the start procedure's frame begins: no local of the test's.
                        let mut cx = Cx::new(p, 1);
                        cx.fns = fns.clone();
                        compile_value(&mut cx, a).ok()
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The sides of `e` where it is a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`, `in`): what a
/// failed `expect` shows.
pub(crate) fn compared(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Binary(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::In,
            a,
            b,
        ) => Some((a, b)),
        _ => None,
    }
}

/// The frame of test `t`'s expressions: its locals in the walker's context, a counter's also a
/// number in its slot.
fn frame<'p>(p: &'p Program, t: &TestDef) -> Cx<'p> {
    let mut cx = Cx::new(p, t.slots.max(1) as usize);
    cx.locals = true;
    let counters = (t.stat_reads.iter().map(|&(stat, slot)| (stat, slot))).chain(
        t.stat_key_reads
            .iter()
            .map(|(stat, _, slot)| (*stat, *slot)),
    );
    for (stat, slot) in counters {
        if p.stats.get(stat as usize).is_some_and(|s| s.counter) {
            cx.set_type(slot, Ty::Int);
        }
    }
    cx
}

impl super::Closures {
    /// Expression `x` of rules test `t`, its `locals` given in a context of `slots` locals, by
    /// its closure; `None` when it did not compile.
    pub(crate) fn test_value(
        &self,
        (t, x): (usize, TestExpr),
        (p, s, l): (&Program, &mut State, &Layout),
        slots: u16,
        locals: &[(u16, Value)],
    ) -> Option<Answer<Value>> {
        let code = self.tests.get(t)?;
        let f = match x {
            TestExpr::Step(j) => code.steps.get(j),
            TestExpr::Key(k) => code.keys.get(k),
            TestExpr::Side(j, right) => code.sides.get(j).map(|s| &s[usize::from(right)]),
        };
        let f = f?.as_ref()?;
        let n = locals.iter().fold(slots, |n, (slot, _)| n.max(slot + 1));
        let mut ctx = Ctx::new(n, None, None);
        let mut words = [env::NONE; env::SLOTS];
        for (slot, v) in locals {
            if let Some(local) = ctx.locals.get_mut(*slot as usize) {
                *local = v.clone();
            }
            if let Some(w) = words.get_mut(*slot as usize) {
                *w = env::word(v).unwrap_or(env::NONE);
            }
        }
        let base = s.ctxs.len();
        s.ctxs.push(ctx);
        let mut env = Env::new(p, s, l, s.active, &mut words);
        let v = env.answer(|env| f(env));
        s.truncate_ctxs(base);
        Some(v)
    }

    /// Argument `i` of rules test `t`'s `start PROC(args)`, by its closure, `you` the active
    /// player; `None` when it did not compile.
    pub(crate) fn start_arg(
        &self,
        t: usize,
        i: usize,
        (p, s, l): (&Program, &State, &Layout),
    ) -> Option<Answer<Value>> {
        let f = self.tests.get(t)?.start.get(i)?.as_ref()?;
        let mut slots = [env::NONE; env::SLOTS];
        let mut env = Env::new(p, s, l, s.active, &mut slots);
        Some(env.answer(|env| f(env)))
    }

    /// How many of the rules tests' expressions compiled, and how many there are.
    #[cfg(test)]
    pub(crate) fn tests_compiled(&self, p: &Program) -> (usize, usize) {
        let compiled = (self.tests.iter())
            .flat_map(|c| {
                let sides = c.sides.iter().flatten();
                c.steps.iter().chain(&c.keys).chain(&c.start).chain(sides)
            })
            .filter(|f| f.is_some())
            .count();
        let all = (p.tests.iter())
            .map(|t| {
                let steps = t.steps.iter().filter(|s| {
                    matches!(
                        s.kind,
                        TestStepKind::Expect(_)
                            | TestStepKind::Decider(_)
                            | TestStepKind::Winners(_)
                    )
                });
                let sides = t.steps.iter().filter(|s| match &s.kind {
                    TestStepKind::Expect(e) => compared(e).is_some(),
                    _ => false,
                });
                steps.count()
                    + 2 * sides.count()
                    + t.stat_key_reads.len()
                    + t.start.as_ref().map_or(0, |(_, a)| a.len())
            })
            .sum();
        (compiled, all)
    }
}
