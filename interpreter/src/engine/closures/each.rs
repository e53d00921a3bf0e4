//! Engine stage (closures): `for` loops compiled, their bodies run inline item by item.
//!
//! The list is its value closure's (value.rs: a zone's cards top first, players, a filter, ...),
//! or where it cannot answer the walker's (`Mach::eval_list`, with its errors); the items are words of the type the checker gave the list
//! (`item_type`), each written to the loop's local, its `where` filter and its body compiled. Where
//! an item is not a word of that type, the filter cannot be answered, or a statement of the body is
//! the walker's, the walker's `Frame::For` is made at that item and the walker goes on from there,
//! as `inline` does for `while` and `repeat`.

use super::blocks::block;
use super::expr::{compile, Cx};
use super::stmts::{eval, Ctl, Step, Sx};
use crate::engine::exec::{At, Frame, Mach};
use crate::program::{Aggregate, BinOp, Builtin, Expr, ExprKind, StmtKind, Ty};
use crate::value::Value;
use std::sync::Arc;

/// The type of the items of list `e` when they are words the closures know; `None` otherwise.
/// Every expression form is listed, and every builtin and aggregate: a new one must be judged here.
pub(super) fn item_type(cx: &Cx, e: &Expr) -> Option<Ty> {
    match &e.kind {
        ExprKind::Zone(..) => Some(Ty::Card),
        // A pile's top or bottom cards; its top or bottom card is no list.
        ExprKind::Pile { count, .. } => count.as_ref().map(|_| Ty::Card),
        ExprKind::Everyone => Some(Ty::Player),
        ExprKind::Spaces => Some(Ty::Space),
        ExprKind::Range(..) => Some(Ty::Int),
        // A list written out whose items are all words of one type.
        ExprKind::List(items) => {
            let t = word_type(&super::stmts::type_of(cx, items.first()?)?)?;
            (items.iter())
                .all(|x| super::stmts::type_of(cx, x).as_ref() == Some(&t))
                .then_some(t)
        }
        // A constant list (a list written out of constants): its items of one type.
        ExprKind::Const(v) => {
            let Value::List(items) = v else {
                return None;
            };
            let t = super::env::word_type(items.first()?)?;
            (items.iter())
                .all(|x| super::env::word_type(x).as_ref() == Some(&t))
                .then_some(t)
        }
        ExprKind::Builtin(b, args) => match b {
            Builtin::Cards => Some(Ty::Card),
            Builtin::Opponents | Builtin::From => Some(Ty::Player),
            Builtin::Neighbours => Some(Ty::Space),
            Builtin::Kinds => Some(Ty::Kind),
            // The cards of a zone, or the items of a list of words, for each item of a list
            // (`flatten(t.kept for t in p.domain)`, `flatten(filter(c in q.kept where ...) for q
            // in L)`).
            Builtin::Flatten => {
                let Some(ExprKind::Aggregate {
                    op: Aggregate::Map,
                    value: Some(v),
                    ..
                }) = args.first().map(|x| &x.kind)
                else {
                    return None;
                };
                flattened(cx, v)
            }
            Builtin::Take | Builtin::Distinct => item_type(cx, args.first()?),
            Builtin::Size
            | Builtin::Max2
            | Builtin::Min2
            | Builtin::Abs
            | Builtin::Index
            | Builtin::First
            | Builtin::Last
            | Builtin::Random
            | Builtin::Seat
            | Builtin::Left
            | Builtin::Right
            | Builtin::Eliminated
            | Builtin::At
            | Builtin::Adjacent => None,
        },
        ExprKind::Aggregate {
            op,
            value,
            slot,
            list,
            ..
        } => match op {
            Aggregate::Flatten => flattened(cx, value.as_deref()?),
            Aggregate::Filter | Aggregate::Sort | Aggregate::TakeWhile => item_type(cx, list),
            // A map of words (`[c.rank for c in l]`): its value's type, its own local the
            // list's items.
            Aggregate::Map => {
                let v = value.as_deref()?;
                if matches!(v.kind, ExprKind::Local(s) if s == *slot) {
                    item_type(cx, list)
                } else {
                    word_type(&super::stmts::type_of(cx, v)?)
                }
            }
            Aggregate::Count
            | Aggregate::Sum
            | Aggregate::Max
            | Aggregate::Min
            | Aggregate::Any
            | Aggregate::All => None,
        },
        // A function's list the checker inlined (`let q = ARG in BODY`).
        ExprKind::Let(_, _, body) => item_type(cx, body),
        // Two lists joined (zones' cards among them), or one of them, `[]` of the other's type.
        ExprKind::Binary(BinOp::Concat, a, b) | ExprKind::If(_, a, b) => {
            let empty = |x: &Expr| matches!(&x.kind, ExprKind::List(items) if items.is_empty());
            match (item_type(cx, a), item_type(cx, b)) {
                (Some(x), Some(y)) if x == y => Some(x),
                (Some(x), None) if empty(b) => Some(x),
                (None, Some(y)) if empty(a) => Some(y),
                _ => None,
            }
        }
        // Any other operation gives a word, not a list.
        ExprKind::Binary(..) => None,
        ExprKind::CallFn(f, _) => match &cx.p.fns.get(f.index())?.ret {
            Ty::List(t) => word_type(t),
            _ => None,
        },
        ExprKind::Global(v) | ExprKind::PlayerVar(v, _) | ExprKind::CardVar(v, _) => {
            match &cx.p.vars.get(v.index())?.ty {
                Ty::List(t) => word_type(t),
                _ => None,
            }
        }
        // A local list of words, one given a list kept in `Made::lists`, or one holding a zone.
        ExprKind::Local(s) => match (cx.given(*s), cx.type_of_local(*s)) {
            (Some(super::items::Given::Bound(t)), _) => word_type(t),
            (_, Some(Ty::List(t))) => word_type(t),
            (_, Some(Ty::Zone)) => Some(Ty::Card),
            _ => None,
        },
        // A card's list of kinds (`c.recipe`).
        ExprKind::Prop(pid, _) => match cx.p.props.get(pid.index())?.ty {
            crate::program::PropType::Kinds => Some(Ty::Kind),
            crate::program::PropType::Int | crate::program::PropType::Bool => None,
        },
        // Words, texts, and lists the closures do not know the items of.
        ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::TagOf(..)
        | ExprKind::Field(..)
        | ExprKind::You
        | ExprKind::This
        | ExprKind::Active
        | ExprKind::Players
        | ExprKind::TurnNumber
        | ExprKind::Participant(_)
        | ExprKind::Unary(..)
        | ExprKind::IsTag(..)
        | ExprKind::IsKind(..)
        | ExprKind::Text(_) => None,
    }
}

/// The type of the items `flatten` gives of `v` for each item: a zone's cards, or a list's words.
fn flattened(cx: &Cx, v: &Expr) -> Option<Ty> {
    match super::stmts::type_of(cx, v) {
        Some(Ty::Zone) => Some(Ty::Card),
        _ => item_type(cx, v),
    }
}

/// The type of a local given `e`'s value by a `let` the closures do not compile whole: a word's
/// (`random(pool)`, `first(L)` of a list of words) or a list's of words, read by the closures
/// after it from the walker's context (a word closure answers `None` where it holds `none`, a
/// list walked where it is not a list); `None` when it holds neither.
pub(super) fn local_type(cx: &Cx, e: &Expr) -> Option<Ty> {
    if let Some(t) = super::stmts::type_of(cx, e).and_then(|t| word_type(&t)) {
        return Some(t);
    }
    match &e.kind {
        ExprKind::Builtin(Builtin::Random | Builtin::First | Builtin::Last, args) => {
            item_type(cx, args.first()?)
        }
        _ => item_type(cx, e).map(|t| Ty::List(Box::new(t))),
    }
}

fn word_type(t: &Ty) -> Option<Ty> {
    match t {
        Ty::Int | Ty::Bool | Ty::Player | Ty::Card | Ty::Kind | Ty::Tag | Ty::Space | Ty::Zone => {
            Some(t.clone())
        }
        Ty::Text | Ty::List(_) | Ty::Any => None,
    }
}

/// An item as a word of type `t`; `None` when it is a value of another type.
#[inline]
pub(super) fn item(t: &Ty, v: &Value) -> Option<i64> {
    match (t, v) {
        (Ty::Card, Value::Card(c)) => Some(*c as i64),
        (Ty::Player, Value::Player(p)) => Some(*p as i64),
        (Ty::Int, Value::Int(i)) => Some(*i),
        (Ty::Bool, Value::Bool(b)) => Some(*b as i64),
        (Ty::Kind, Value::Kind(k)) | (Ty::Tag, Value::Tag(k)) | (Ty::Space, Value::Space(k)) => {
            Some(*k as i64)
        }
        (Ty::Zone, Value::Zone(z)) => Some(*z as i64),
        _ => None,
    }
}

/// Compiles `for slot in list where filter { body }`; `Err` when it is the walker's. The local's
/// type is known inside the body either way (the walker's loop writes items of the same type).
pub(super) fn compile_for(
    sx: &mut Sx,
    slot: u16,
    list: &Expr,
    filter: Option<&Expr>,
    body: crate::program::BlockId,
    at: At,
    span: cardgame_grammar::ast::Span,
) -> Result<Step, &'static str> {
    // The list is made before the loop's local is bound: its closure first.
    let items_f = super::value::list(&mut sx.cx, list).ok();
    let t = item_type(&sx.cx, list);
    match &t {
        Some(t) => sx.cx.set_type(slot, t.clone()),
        None => {
            if let Some(ts) = sx.cx.types.get_mut(slot as usize) {
                *ts = None;
            }
        }
    }
    let t = t.ok_or("a `for` over a list whose items are not words")?;
    let si = sx.cx.slot(slot)?;
    let filter = filter.map(|f| compile(&mut sx.cx, f)).transpose()?;
    let code = block(sx, body);
    Ok(Box::new(move |m, regs| {
        // The list is the walker's value, read from the program's statement (the step is 'static).
        let Some(crate::program::Stmt {
            kind: StmtKind::For { list, .. },
            ..
        }) = m.stmt(at)
        else {
            return Ok(Ctl::Walk);
        };
        let items = match (items_f.as_ref()).and_then(|f| super::value::eval_list(m, regs, f)) {
            Some(items) => items,
            // A runtime error its closure met: the statement raises it (segments.rs).
            None if matches!(m.fault, Some(Some(_))) => return Ok(Ctl::Walk),
            None => m.eval_list(list)?,
        };
        for i in 0..items.len() {
            let Some(w) = item(&t, &items[i]) else {
                return Ok(walk_from(m, at, &items, i));
            };
            if let Some(f) = &filter {
                regs.slots[si] = w;
                m.set_local(slot, items[i].clone());
                match eval(m, regs, f) {
                    // An item that fails the filter is a unit of work (the walker charges its
                    // filter's): a loop of such loops reaches the budget.
                    Some(0) => {
                        super::stmts::charge(m, 1, span)?;
                        continue;
                    }
                    Some(_) => {}
                    None => return Ok(walk_from(m, at, &items, i)),
                }
            } else {
                regs.slots[si] = w;
                m.set_local(slot, items[i].clone());
            }
            let around = || {
                Some(Frame::For {
                    at,
                    list: items.clone(),
                    idx: i as u32 + 1,
                })
            };
            if let Some(end) = super::loops::pass(m, regs, &code, span, around)? {
                return Ok(end);
            }
        }
        Ok(Ctl::Next)
    }))
}

/// The walker's loop from item `i` on: it writes the local, tests the filter, runs the body.
fn walk_from(m: &mut Mach, at: At, items: &Arc<Vec<Value>>, i: usize) -> Ctl {
    m.s.frames.push(Frame::For {
        at,
        list: items.clone(),
        idx: i as u32,
    });
    Ctl::Pushed
}
