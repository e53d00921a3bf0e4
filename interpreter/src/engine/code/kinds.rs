//! Engine stage (code): what the compiler works out per kind of card: the truth of a test, or the
//! number of an expression, that reads nothing but the kind of the card in one local (its tags, its
//! constant properties, constants, and functions of the card that read only those).
//!
//! The machine then reads the answer from a table by the card's kind (`Instr::KindIn`,
//! `Instr::KindInt`, `Instr::CountKinds`, `Instr::SumKinds`) instead of evaluating the expression.
//! Every form not listed here answers `None`: the compiler then emits the general instructions.

use crate::program::{BinOp, Builtin, Expr, ExprKind, Program, UnOp};
use crate::value::Value;

/// Functions followed into (`f(c)` with a function of the card) before giving up.
const MAX_CALLS: u32 = 8;

/// The local whose card the expression tests: the first local read by a kind, tag or property form.
pub(super) fn subject(e: &Expr) -> Option<u16> {
    match &e.kind {
        ExprKind::IsKind(x, ..) | ExprKind::IsTag(x, ..) | ExprKind::Prop(_, x) => match x.kind {
            ExprKind::Local(s) => Some(s),
            _ => None,
        },
        ExprKind::Unary(_, x) => subject(x),
        ExprKind::Binary(_, a, b) => subject(a).or_else(|| subject(b)),
        ExprKind::If(c, a, b) => subject(c).or_else(|| subject(a)).or_else(|| subject(b)),
        ExprKind::CallFn(_, args) | ExprKind::Builtin(_, args) => match args.as_slice() {
            [a] => match a.kind {
                ExprKind::Local(s) => Some(s),
                _ => subject(a),
            },
            [a, b] => subject(a).or_else(|| subject(b)),
            _ => None,
        },
        _ => None,
    }
}

/// The truth of `e` for every kind, when it reads only the kind of the card in local `slot`.
pub(super) fn truths(p: &Program, e: &Expr, slot: u16) -> Option<Box<[bool]>> {
    (0..p.kinds.len())
        .map(|k| truth(p, e, slot, k, 0))
        .collect::<Option<Vec<bool>>>()
        .map(Vec::into_boxed_slice)
}

/// The number `e` gives for every kind, when it reads only the kind of the card in local `slot`.
pub(super) fn ints(p: &Program, e: &Expr, slot: u16) -> Option<Box<[i64]>> {
    (0..p.kinds.len())
        .map(|k| int(p, e, slot, k, 0))
        .collect::<Option<Vec<i64>>>()
        .map(Vec::into_boxed_slice)
}

/// The constant number property `prop` has on cards of kind `k`.
pub(super) fn prop_int(p: &Program, k: usize, prop: usize) -> Option<i64> {
    let e = match p.kinds.get(k)?.props.get(prop) {
        Some(Some(e)) => e,
        _ => &p.props.get(prop)?.default,
    };
    match e.kind {
        ExprKind::Const(Value::Int(i)) => Some(i),
        _ => None,
    }
}

fn is_subject(x: &Expr, slot: u16) -> bool {
    matches!(x.kind, ExprKind::Local(s) if s == slot)
}

fn truth(p: &Program, e: &Expr, slot: u16, k: usize, calls: u32) -> Option<bool> {
    match &e.kind {
        ExprKind::Const(Value::Bool(b)) => Some(*b),
        ExprKind::IsKind(x, kind, neg) if is_subject(x, slot) => Some((kind.index() == k) != *neg),
        ExprKind::IsTag(x, tag, neg) if is_subject(x, slot) => {
            Some(p.kinds.get(k)?.tags.binary_search(tag).is_ok() != *neg)
        }
        ExprKind::Unary(UnOp::Not, x) => truth(p, x, slot, k, calls).map(|b| !b),
        ExprKind::Binary(BinOp::And, a, b) => {
            Some(truth(p, a, slot, k, calls)? && truth(p, b, slot, k, calls)?)
        }
        ExprKind::Binary(BinOp::Or, a, b) => {
            Some(truth(p, a, slot, k, calls)? || truth(p, b, slot, k, calls)?)
        }
        ExprKind::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => {
            let (x, y) = (int(p, a, slot, k, calls)?, int(p, b, slot, k, calls)?);
            Some(match op {
                BinOp::Eq => x == y,
                BinOp::Ne => x != y,
                BinOp::Lt => x < y,
                BinOp::Le => x <= y,
                BinOp::Gt => x > y,
                _ => x >= y,
            })
        }
        ExprKind::If(c, a, b) => {
            if truth(p, c, slot, k, calls)? {
                truth(p, a, slot, k, calls)
            } else {
                truth(p, b, slot, k, calls)
            }
        }
        ExprKind::CallFn(f, args) => {
            let body = of_call(p, f.index(), args, slot, calls)?;
            truth(p, body, 0, k, calls + 1)
        }
        _ => None,
    }
}

/// The body of `f(c)`, a function of one parameter called with the subject.
fn of_call<'p>(p: &'p Program, f: usize, args: &[Expr], slot: u16, calls: u32) -> Option<&'p Expr> {
    match args {
        [a] if is_subject(a, slot) && calls < MAX_CALLS => {
            let def = p.fns.get(f)?;
            (def.params.len() == 1).then_some(&def.body)
        }
        _ => None,
    }
}

fn int(p: &Program, e: &Expr, slot: u16, k: usize, calls: u32) -> Option<i64> {
    match &e.kind {
        ExprKind::Const(Value::Int(i)) => Some(*i),
        ExprKind::Prop(prop, x) if is_subject(x, slot) => prop_int(p, k, prop.index()),
        ExprKind::Unary(UnOp::Neg, x) => int(p, x, slot, k, calls)?.checked_neg(),
        ExprKind::Binary(
            op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
            a,
            b,
        ) => {
            let (i, j) = (int(p, a, slot, k, calls)?, int(p, b, slot, k, calls)?);
            match op {
                BinOp::Add => i.checked_add(j),
                BinOp::Sub => i.checked_sub(j),
                BinOp::Mul => i.checked_mul(j),
                _ => {
                    let (q, r) = super::floor_div(i, j)?;
                    Some(if *op == BinOp::Div { q } else { r })
                }
            }
        }
        ExprKind::If(c, a, b) => {
            if truth(p, c, slot, k, calls)? {
                int(p, a, slot, k, calls)
            } else {
                int(p, b, slot, k, calls)
            }
        }
        ExprKind::Builtin(b @ (Builtin::Max2 | Builtin::Min2), args) => match args.as_slice() {
            [x, y] => {
                let (i, j) = (int(p, x, slot, k, calls)?, int(p, y, slot, k, calls)?);
                Some(if *b == Builtin::Max2 {
                    i.max(j)
                } else {
                    i.min(j)
                })
            }
            _ => None,
        },
        ExprKind::Builtin(Builtin::Abs, args) => match args.as_slice() {
            [x] => int(p, x, slot, k, calls)?.checked_abs(),
            _ => None,
        },
        ExprKind::CallFn(f, args) => {
            let body = of_call(p, f.index(), args, slot, calls)?;
            int(p, body, 0, k, calls + 1)
        }
        _ => None,
    }
}
