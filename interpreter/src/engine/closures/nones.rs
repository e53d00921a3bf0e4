//! Engine stage (closures): where a closure's `None` is a `none` the walker fails on.
//!
//! A local or a global variable of a word type that holds `none` makes its closure answer `None`,
//! as a value that is not a word does. Where that side of arithmetic is `none`, the walker fails
//! with "cannot apply `-` to `4` and none"; [`holds_none`] tells the two apart after the fact,
//! so the arithmetic's closure keeps the walker's error in `Env::fault` (env.rs) and the statement
//! raises it instead of handing itself to the walker.

use super::env::{Env, Failure, NONE};
use super::expr::{compile, is_word, Cx, Int, C};
use super::stmts::Regs;
use crate::engine::exec::Mach;
use crate::program::{BinOp, Builtin, Expr, ExprKind, Ty};
use crate::value::Value;
use cardgame_grammar::ast::Span;

/// Whether an expression whose closure answered `None` holds `none`.
pub(super) type NoneTest = Box<dyn Fn(&Env) -> bool + Send + Sync>;

/// The test of `none` of `e`, a local or a global variable of a word type (its closure answers
/// `None` exactly where it holds `none`), or `seat(i)` of a number or a local (`none` where no seat
/// is `i`); `None` for any other expression, whose `None` says nothing of `none`.
pub(super) fn holds_none(cx: &mut Cx, e: &Expr) -> Option<NoneTest> {
    match &e.kind {
        ExprKind::Builtin(Builtin::Seat, args) => {
            let [i] = args.as_slice() else {
                return None;
            };
            let no_seat = |i: i64, env: &Env| !(1..=i64::from(env.s.players)).contains(&i);
            match i.kind {
                ExprKind::Const(Value::Int(i)) => Some(Box::new(move |env| no_seat(i, env))),
                ExprKind::Local(s) if cx.type_of_local(s) == Some(&Ty::Int) => {
                    let slot = cx.slot(s).ok()?;
                    Some(Box::new(move |env| {
                        env.slots
                            .get(slot)
                            .is_some_and(|&i| i != NONE && no_seat(i, env))
                    }))
                }
                _ => None,
            }
        }
        ExprKind::Local(s) if cx.type_of_local(*s).is_some_and(is_word) => {
            let i = cx.slot(*s).ok()?;
            Some(Box::new(move |env| env.slots.get(i) == Some(&NONE)))
        }
        ExprKind::Global(v) if cx.p.vars.get(v.index()).is_some_and(|d| is_word(&d.ty)) => {
            let v = *v;
            Some(Box::new(move |env| {
                matches!(env.s.globals.get(env.l.var(v)), Some(Value::None))
            }))
        }
        _ => None,
    }
}

/// The two sides of arithmetic where one may hold `none`: the walker's error where one does.
struct Sides {
    a: Int,
    b: Int,
    a_none: Option<NoneTest>,
    b_none: Option<NoneTest>,
    op: BinOp,
    span: Span,
}

impl Sides {
    /// Both sides' numbers, or `None`: unexplained, or the walker's error kept in the `Env`.
    #[inline]
    fn both(&self, env: &mut Env) -> Option<(i64, i64)> {
        let Some(i) = (self.a)(env) else {
            return self.first_none(env);
        };
        let Some(j) = (self.b)(env) else {
            return self.second_none(env, i);
        };
        Some((i, j))
    }

    /// The first side answered `None`: where it is `none`, the walker evaluates the second side,
    /// then fails naming both (or with the second side's own error).
    #[cold]
    fn first_none(&self, env: &mut Env) -> Option<(i64, i64)> {
        if !self.a_none.as_ref().is_some_and(|t| t(env)) {
            return None;
        }
        let second = match (self.b)(env) {
            Some(j) => Some(j),
            None if self.b_none.as_ref().is_some_and(|t| t(env)) => None,
            None => return None,
        };
        let (op, first) = (self.op, None);
        env.fail(self.span, Failure::Apply { op, first, second })
    }

    /// The second side answered `None` after the first gave `i`.
    #[cold]
    fn second_none(&self, env: &mut Env, i: i64) -> Option<(i64, i64)> {
        if !self.b_none.as_ref().is_some_and(|t| t(env)) {
            return None;
        }
        let (op, first, second) = (self.op, Some(i), None);
        env.fail(self.span, Failure::Apply { op, first, second })
    }
}

/// `a op b` of numbers (`+`, `-`, `*`, `/`, `%`) where a side may hold `none` (`holds_none`):
/// the walker's errors for `none`, an overflow and a division by zero; `None` where neither side
/// may hold `none` (expr.rs compiles it without the tests).
pub(super) fn arithmetic(cx: &mut Cx, op: BinOp, a: &Expr, b: &Expr, span: Span) -> C<Option<Int>> {
    if !matches!(
        op,
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
    ) {
        return Ok(None);
    }
    let (a_none, b_none) = (holds_none(cx, a), holds_none(cx, b));
    if a_none.is_none() && b_none.is_none() {
        return Ok(None);
    }
    let sides = Sides {
        a: compile(cx, a)?,
        b: compile(cx, b)?,
        a_none,
        b_none,
        op,
        span,
    };
    Ok(Some(Box::new(move |env| {
        let (i, j) = sides.both(env)?;
        super::expr::arithmetic_in(env, op, i, j, span)
    })))
}

/// A card whose closure answered `None`, with its test of `none` and its span: where it holds
/// `none`, the walker's error ("expected a card, found none"); else `None`, unexplained.
#[cold]
pub(super) fn no_card<T>(env: &mut Env, (none, span): &(Option<NoneTest>, Span)) -> Option<T> {
    if none.as_ref().is_some_and(|t| t(env)) {
        return env.fail(*span, Failure::Expected("a card"));
    }
    None
}

/// Whether `e`, whose closure just answered `None` in a statement, holds `none` (`holds_none`).
pub(super) fn held(test: &Option<NoneTest>, m: &Mach, regs: &mut Regs) -> bool {
    test.as_ref()
        .is_some_and(|t| t(&Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots)))
}
