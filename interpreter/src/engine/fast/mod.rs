//! Engine stage: compiled fast paths of expressions (stage 4 of docs/engine.md at fe8b0bc).
//!
//! The first time an expression is evaluated, the parts of it that read numbers, truths, players
//! and zones (arithmetic, comparisons, connectives, kind and tag tests, variables, constant
//! properties, counts and sums over a zone, calls of functions built of the same) are compiled into
//! typed closures, kept beside the expression ([`Compiled`]). Evaluating such an expression then
//! runs the closures: no `Value` is built for a number or a truth, no node is dispatched by a match,
//! no nesting or budget is tested per node.
//!
//! A fast path never reports anything. Whatever the tree walker (eval.rs) would answer with an error,
//! and any value of a type the closure does not expect, an overflow, a division by zero, a call
//! nested too deeply to be sure of the nesting limit, reads being recorded for a check (watch.rs):
//! the closure gives up (`None`) and the walker evaluates the expression from its start, as it always
//! did. Expressions do not change the game, so starting again is exact; the work a fast path counted
//! is taken back first. When it succeeds, a fast path has counted exactly the work the walker counts
//! (one step per node the walker charges, the items of a list), so budgets end games at the same
//! point; debug builds evaluate every successful fast path a second time with the walker and compare
//! value and work (`check`).

mod calls;
mod compile;

use super::exec::Mach;
use crate::program::{Expr, ExprKind, Program};
use crate::value::Value;
use std::sync::OnceLock;

/// A compiled closure giving a `T` (`None`: the walker's turn).
type FastFn<T> = Box<dyn for<'a, 'b> Fn(&'b mut Mach<'a>) -> Option<T> + Send + Sync>;
type IntFn = FastFn<i64>;
type BoolFn = FastFn<bool>;
type ValueFn = FastFn<Value>;
type ZoneFn = FastFn<u32>;

/// A compiled closure and how deep the walker could nest below the expression it replaces (an upper
/// bound: the fast path is taken only when that much nesting is left).
struct Fast<F> {
    run: F,
    height: u32,
}

/// The fast paths of one expression, for each way it is evaluated: as a number (`eval_int`, or
/// `eval` of a number), as a condition (`eval_bool`), as a value (`eval` of a truth).
pub(crate) struct Code {
    pub height: u32,
    pub int: Option<IntFn>,
    pub cond: Option<BoolFn>,
    pub truth: Option<BoolFn>,
    pub zone: Option<ZoneFn>,
    /// Any other value (a card, a player, a list, ...).
    pub value: Option<ValueFn>,
}

/// A cache made on first use and kept beside a node of the program (a `OnceLock`): a copy of the
/// node starts with it unmade, and it shows as its name in debug output.
macro_rules! made_on_first_use {
    ($t:ident) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                $t::default()
            }
        }

        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($t))
            }
        }
    };
}

/// The compiled fast paths of an expression, made the first time it is evaluated (none: nothing to
/// gain, or a form the fast paths do not cover). A copy of an expression starts uncompiled.
#[derive(Default)]
pub struct Compiled(OnceLock<Option<Box<Code>>>);

made_on_first_use!(Compiled);

impl Compiled {
    pub(crate) fn get(&self, p: &Program, e: &Expr) -> Option<&Code> {
        self.0.get_or_init(|| compile::compile(p, e)).as_deref()
    }
}

impl Mach<'_> {
    /// The compiled fast paths of `e`, when they may run now: nesting to spare.
    #[inline]
    fn fast_code<'e>(&self, e: &'e Expr) -> Option<&'e Code> {
        #[cfg(debug_assertions)]
        if self.s.probe.walking {
            return None;
        }
        // While a check's guard is recorded, the closures note what they read as the walker does.
        let code = e.compiled.get(self.p, e)?;
        (self.s.depth.saturating_add(code.height) < super::eval::MAX_DEPTH).then_some(code)
    }

    /// `e` as a number by its fast path (`None`: the walker's turn).
    #[inline]
    pub(super) fn fast_int(&mut self, e: &Expr) -> Option<i64> {
        let f = self.fast_code(e)?.int.as_ref()?;
        let start = self.s.exec_count;
        let r = f(self);
        let v = self.settle(start, r)?;
        #[cfg(debug_assertions)]
        self.check(e, start, Value::Int(v), |m| m.eval(e));
        Some(v)
    }

    /// `e` as a number by its fast path, for a statement or an argument that would take it through
    /// `eval` (which reads a constant or a local at once, without a fast path: so does this).
    #[inline]
    pub(crate) fn fast_int_computed(&mut self, e: &Expr) -> Option<i64> {
        if let ExprKind::Const(_) | ExprKind::Local(_) = e.kind {
            return None;
        }
        self.fast_int(e)
    }

    /// `e` as a condition (`eval_bool`) by its fast path.
    #[inline]
    pub(super) fn fast_cond(&mut self, e: &Expr) -> Option<bool> {
        let f = self.fast_code(e)?.cond.as_ref()?;
        let start = self.s.exec_count;
        let r = f(self);
        let v = self.settle(start, r)?;
        #[cfg(debug_assertions)]
        self.check(e, start, v, |m| m.eval_bool(e));
        Some(v)
    }

    /// `e` as a value (`eval`) by its fast path: a number, a truth, a zone or any other value.
    #[inline]
    pub(super) fn fast_value(&mut self, e: &Expr) -> Option<Value> {
        let code = self.fast_code(e)?;
        let start = self.s.exec_count;
        let v = if let Some(f) = &code.int {
            let r = f(self);
            Value::Int(self.settle(start, r)?)
        } else if let Some(f) = &code.truth {
            let r = f(self);
            Value::Bool(self.settle(start, r)?)
        } else if let Some(f) = &code.zone {
            let r = f(self);
            Value::Zone(self.settle(start, r)?)
        } else if let Some(f) = &code.value {
            let r = f(self);
            self.settle(start, r)?
        } else {
            return None;
        };
        #[cfg(debug_assertions)]
        self.check(e, start, v.clone(), |m| m.eval(e));
        Some(v)
    }

    /// Whether `e` has a fast path as a value (`fast_value` may answer).
    #[inline]
    pub(super) fn has_fast_value(&self, e: &Expr) -> bool {
        self.fast_code(e).is_some_and(|c| {
            c.int.is_some() || c.truth.is_some() || c.zone.is_some() || c.value.is_some()
        })
    }

    /// A zone instance by its fast path (`p.hand`: `eval` of a zone expression would take it too).
    #[inline]
    pub(super) fn fast_zone(&mut self, e: &Expr) -> Option<u32> {
        let code = self.fast_code(e)?;
        if code.int.is_some() || code.truth.is_some() {
            return None;
        }
        let f = code.zone.as_ref()?;
        let start = self.s.exec_count;
        let r = f(self);
        let z = self.settle(start, r)?;
        #[cfg(debug_assertions)]
        self.check(e, start, Value::Zone(z), |m| m.eval(e));
        Some(z)
    }

    /// The answer of a fast path, if it has one within the budget; otherwise its work is taken back.
    #[inline]
    fn settle<T>(&mut self, start: u64, v: Option<T>) -> Option<T> {
        if v.is_none() || self.s.exec_count > self.s.fixed.max_steps {
            self.s.exec_count = start;
            return None;
        }
        v
    }

    /// Debug builds: the walker gives the same value with the same work (a remembered call counts
    /// the work of its body, as if it ran).
    #[cfg(debug_assertions)]
    fn check<T: PartialEq + std::fmt::Debug>(
        &mut self,
        e: &Expr,
        start: u64,
        v: T,
        walk: impl FnOnce(&mut Self) -> Result<T, super::RuntimeError>,
    ) {
        #[cfg(test)]
        {
            self.s.probe.counted.answered += 1;
        }
        let end = self.s.exec_count;
        self.s.exec_count = start;
        self.s.probe.walking = true;
        let walked = walk(self);
        self.s.probe.walking = false;
        let work = self.s.exec_count;
        self.s.exec_count = end;
        assert_eq!(walked.ok(), Some(v), "fast path of {:?}", e.kind);
        assert_eq!(work, end, "work of the fast path of {:?}", e.kind);
    }
}
