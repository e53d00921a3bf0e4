//! Engine stage (closures): expressions of a card that read only its kind, worked out per kind.
//!
//! A test or a number of a card that reads only the card's kind, tags and constant properties
//! (`c is not Victory`, `c.points`, `c.cost + 1`) has one value per kind of card. The compiler
//! computes them when the program is loaded, into a table indexed by kind; at run time the
//! expression is one read. Aggregates over a zone whose value and filter are such tables become
//! one loop over the zone's cards (`count`, `sum`, `any`, `all` by kind).

use super::env::word;
use crate::program::{BinOp, Expr, ExprKind, Program, UnOp};
use crate::value::Value;

/// The value of `e` for every kind of card held by local `binder`, when `e` reads only the kind.
pub(crate) fn table(p: &Program, e: &Expr, binder: u16) -> Option<Box<[i64]>> {
    (0..p.kinds.len())
        .map(|k| of_kind(p, e, binder, k))
        .collect()
}

fn is_binder(e: &Expr, binder: u16) -> bool {
    matches!(e.kind, ExprKind::Local(s) if s == binder)
}

/// The value of `e` for a card of kind `k`; `None` when it reads more than the kind, or fails.
fn of_kind(p: &Program, e: &Expr, b: u16, k: usize) -> Option<i64> {
    let kind = p.kinds.get(k)?;
    match &e.kind {
        ExprKind::Const(v) => word(v),
        ExprKind::IsTag(x, t, negated) if is_binder(x, b) => {
            Some((kind.tags.binary_search(t).is_ok() != *negated) as i64)
        }
        ExprKind::IsKind(x, kk, negated) if is_binder(x, b) => {
            Some(((kk.0 as usize == k) != *negated) as i64)
        }
        ExprKind::Prop(pid, x) if is_binder(x, b) => {
            let default = &p.props.get(pid.index())?.default;
            let e = kind.props.get(pid.index())?.as_ref().unwrap_or(default);
            // As the layout's table of constant numbers (`Layout::prop_int`).
            match &e.kind {
                ExprKind::Const(Value::Int(i)) => Some(*i),
                _ => None,
            }
        }
        ExprKind::Unary(UnOp::Not, x) => Some((of_kind(p, x, b, k)? == 0) as i64),
        ExprKind::Unary(UnOp::Neg, x) => of_kind(p, x, b, k)?.checked_neg(),
        ExprKind::Binary(op, x, y) => {
            let (i, j) = (of_kind(p, x, b, k)?, of_kind(p, y, b, k)?);
            match op {
                BinOp::And => Some((i != 0 && j != 0) as i64),
                BinOp::Or => Some((i != 0 || j != 0) as i64),
                BinOp::Add => i.checked_add(j),
                BinOp::Sub => i.checked_sub(j),
                BinOp::Mul => i.checked_mul(j),
                BinOp::Eq => Some((i == j) as i64),
                BinOp::Ne => Some((i != j) as i64),
                BinOp::Lt => Some((i < j) as i64),
                BinOp::Le => Some((i <= j) as i64),
                BinOp::Gt => Some((i > j) as i64),
                BinOp::Ge => Some((i >= j) as i64),
                BinOp::Div | BinOp::Rem | BinOp::Concat | BinOp::In => None,
            }
        }
        ExprKind::If(c, x, y) => {
            if of_kind(p, c, b, k)? != 0 {
                of_kind(p, x, b, k)
            } else {
                of_kind(p, y, b, k)
            }
        }
        ExprKind::IsTag(..)
        | ExprKind::IsKind(..)
        | ExprKind::Prop(..)
        | ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::PlayerVar(..)
        | ExprKind::CardVar(..)
        | ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::TagOf(..)
        | ExprKind::Field(..)
        | ExprKind::Zone(..)
        | ExprKind::Spaces
        | ExprKind::You
        | ExprKind::This
        | ExprKind::Active
        | ExprKind::Players
        | ExprKind::Everyone
        | ExprKind::TurnNumber
        | ExprKind::Participant(_)
        | ExprKind::List(_)
        | ExprKind::Range(..)
        | ExprKind::Aggregate { .. }
        | ExprKind::Pile { .. }
        | ExprKind::Builtin(..)
        | ExprKind::CallFn(..)
        | ExprKind::Text(_)
        | ExprKind::Let(..) => None,
    }
}

/// The local that every test of a formula of `and`, `or` and `not` over tag and kind tests reads
/// (`None`: another form, or several locals).
fn kind_formula_slot(e: &Expr) -> Option<u16> {
    match &e.kind {
        ExprKind::IsTag(x, ..) | ExprKind::IsKind(x, ..) => match x.kind {
            ExprKind::Local(s) => Some(s),
            _ => None,
        },
        ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            let s = kind_formula_slot(a)?;
            (kind_formula_slot(b)? == s).then_some(s)
        }
        ExprKind::Unary(UnOp::Not, x) => kind_formula_slot(x),
        _ => None,
    }
}

/// The table of the kinds of card that pass `e`, a formula of `and`, `or` and `not` over tag and
/// kind tests of local `slot` alone (`None`: another form). Such a formula counts no work and cannot
/// fail for a card.
pub(crate) fn kind_table(p: &Program, e: &Expr, slot: u16) -> Option<Vec<bool>> {
    (kind_formula_slot(e)? == slot)
        .then(|| (0..p.kinds.len()).map(|k| kind_formula(p, e, k)).collect())
}

/// Whether a card of kind `kind` passes such a formula (`kind_formula_slot`).
fn kind_formula(p: &Program, e: &Expr, kind: usize) -> bool {
    match &e.kind {
        ExprKind::IsTag(_, t, negated) => {
            p.kinds
                .get(kind)
                .is_some_and(|k| k.tags.binary_search(t).is_ok())
                != *negated
        }
        ExprKind::IsKind(_, k, negated) => (kind == k.0 as usize) != *negated,
        ExprKind::Binary(BinOp::And, a, b) => kind_formula(p, a, kind) && kind_formula(p, b, kind),
        ExprKind::Binary(BinOp::Or, a, b) => kind_formula(p, a, kind) || kind_formula(p, b, kind),
        ExprKind::Unary(UnOp::Not, x) => !kind_formula(p, x, kind),
        _ => false,
    }
}
