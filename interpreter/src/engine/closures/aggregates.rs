//! Engine stage (closures): aggregates over the lists the closures walk, and membership in them.
//!
//! `count`, `sum`, `max`, `min`, `any` and `all` over the items of items.rs, tables by kind where
//! the value and the filter read only the card's kind; `x in L` of a word.

use super::env::Env;
use super::expr::{compile, Cx, Int, C, OVERFLOW};
use super::items::{items, Items, WALK};
use crate::program::{Aggregate, Expr, Ty};
use crate::value::Value;
use cardgame_grammar::ast::Span;

/// `x in L` of a word and a list the closures walk, not a zone (a card in a zone is the walker's).
pub(super) fn member(cx: &mut Cx, x: &Expr, list: &Expr) -> C<Int> {
    if super::stmts::type_of(cx, list) == Some(Ty::Zone) {
        return Err("membership in a zone");
    }
    let (items, ty) = items(cx, list)?;
    if super::stmts::type_of(cx, x) != Some(ty) {
        return Err("membership of what is not an item's type");
    }
    let xf = compile(cx, x)?;
    Ok(Box::new(move |env| {
        let x = xf(env)?;
        let mut found = false;
        items.each(env, |_, y| {
            found = y == x;
            Some(!found)
        })?;
        Some(found as i64)
    }))
}

/// `count`, `sum`, `max`, `min`, `any` and `all` over items (`items`); the rest is the walker's.
pub(super) fn aggregate(
    cx: &mut Cx,
    op: Aggregate,
    value: Option<&Expr>,
    slot: u16,
    list: &Expr,
    filter: Option<&Expr>,
    span: Span,
) -> C<Int> {
    let (items, ty) = items(cx, list)?;
    cx.set_type(slot, ty);
    let tables = (
        value.map(|v| super::kinds::table(cx.p, v, slot)),
        filter.map(|f| super::kinds::table(cx.p, f, slot)),
    );
    let folds = matches!(
        op,
        Aggregate::Count | Aggregate::Sum | Aggregate::Any | Aggregate::All
    );
    match (items, tables) {
        (Items::Zone(zf), (v @ (None | Some(Some(_))), f @ (None | Some(Some(_))))) if folds => {
            by_kind(op, v.flatten(), f.flatten(), zf, span)
        }
        (items, _) => general(cx, op, value, slot, filter, items, span),
    }
}

/// The general loop of an aggregate: each item bound, its value and filter run.
fn general(
    cx: &mut Cx,
    op: Aggregate,
    value: Option<&Expr>,
    slot: u16,
    filter: Option<&Expr>,
    items: Items,
    span: Span,
) -> C<Int> {
    let i = cx.slot(slot)?;
    let value = value.map(|v| compile(cx, v)).transpose()?;
    let filter = filter.map(|f| compile(cx, f)).transpose()?;
    Ok(match op {
        Aggregate::Count if value.is_none() => Box::new(move |env| {
            let mut count = 0i64;
            items.each(env, |env, x| {
                env.slots[i] = x;
                if let Some(f) = &filter {
                    if f(env)? == 0 {
                        return Some(true);
                    }
                }
                count += 1;
                Some(true)
            })?;
            Some(count)
        }),
        Aggregate::Sum => {
            let value = value.ok_or("a sum of the items themselves")?;
            Box::new(move |env| {
                let mut sum = 0i64;
                items.each(env, |env, x| {
                    env.slots[i] = x;
                    if let Some(f) = &filter {
                        if f(env)? == 0 {
                            return Some(true);
                        }
                    }
                    match sum.checked_add(value(env)?) {
                        Some(s) => sum = s,
                        None => return env.fail(span, OVERFLOW),
                    }
                    Some(true)
                })?;
                Some(sum)
            })
        }
        Aggregate::Any | Aggregate::All => {
            let test = filter.or(value);
            let any = op == Aggregate::Any;
            Box::new(move |env| {
                let mut found = !any;
                items.each(env, |env, x| {
                    env.slots[i] = x;
                    let holds = match &test {
                        Some(t) => t(env)? != 0,
                        None => true,
                    };
                    if holds == any {
                        found = any;
                        return Some(false);
                    }
                    Some(true)
                })?;
                Some(found as i64)
            })
        }
        Aggregate::Max | Aggregate::Min => {
            // The largest or smallest value; of no item, 0 (as the walker's `Gathered::value`).
            let value = value.ok_or("a maximum of the items themselves")?;
            let max = op == Aggregate::Max;
            Box::new(move |env| {
                let mut best: Option<i64> = None;
                items.each(env, |env, x| {
                    env.slots[i] = x;
                    if let Some(f) = &filter {
                        if f(env)? == 0 {
                            return Some(true);
                        }
                    }
                    let v = value(env)?;
                    best = Some(best.map_or(v, |b| if max { b.max(v) } else { b.min(v) }));
                    Some(true)
                })?;
                Some(best.unwrap_or(0))
            })
        }
        Aggregate::Count
        | Aggregate::Filter
        | Aggregate::Sort
        | Aggregate::Map
        | Aggregate::Flatten
        | Aggregate::TakeWhile => return Err("an aggregate other than count, sum, any and all"),
    })
}

/// An aggregate over a zone's cards whose value and filter read only the card's kind (kinds.rs):
/// one loop over the cards' kinds and the tables.
fn by_kind(
    op: Aggregate,
    value: Option<Box<[i64]>>,
    filter: Option<Box<[i64]>>,
    zf: Int,
    span: Span,
) -> C<Int> {
    // Each card's kind, top first; `f` answers `None` to stop.
    fn each(env: &mut Env, zf: &Int, mut f: impl FnMut(usize) -> Option<bool>) -> Option<()> {
        let z = usize::try_from(zf(env)?).ok()?;
        let cards = &env.s.zones.get(z)?.cards;
        if cards.len() > WALK {
            return None;
        }
        for &c in cards.iter().rev() {
            if !f(env.s.cards.get(c as usize)?.kind as usize)? {
                break;
            }
        }
        Some(())
    }
    let passes = move |k: usize| {
        filter
            .as_ref()
            .map_or(Some(true), |t| Some(*t.get(k)? != 0))
    };
    Ok(match (op, value) {
        (Aggregate::Count, None) => Box::new(move |env| {
            let mut n = 0i64;
            each(env, &zf, |k| {
                n += passes(k)? as i64;
                Some(true)
            })?;
            Some(n)
        }),
        (Aggregate::Sum, Some(v)) => Box::new(move |env| {
            let (mut sum, mut overflow) = (0i64, false);
            let walked = each(env, &zf, |k| {
                if passes(k)? {
                    sum = sum.checked_add(*v.get(k)?).or_else(|| {
                        overflow = true;
                        None
                    })?;
                }
                Some(true)
            });
            if overflow {
                return env.fail(span, OVERFLOW);
            }
            walked.map(|()| sum)
        }),
        (Aggregate::Any | Aggregate::All, v) => {
            let any = op == Aggregate::Any;
            Box::new(move |env| {
                let mut found = !any;
                each(env, &zf, |k| {
                    let holds = match &v {
                        Some(v) if !passes(k)? => false,
                        Some(v) => *v.get(k)? != 0,
                        None => passes(k)?,
                    };
                    if holds == any {
                        found = any;
                        return Some(false);
                    }
                    Some(true)
                })?;
                Some(found as i64)
            })
        }
        _ => return Err("an aggregate other than count, sum, any and all"),
    })
}

/// An aggregate as a word: over items (`aggregate`), else over a list made (`filter(q in
/// opponents(p) where ...)`), the value closure's number or truth (value.rs).
pub(super) fn of_any_list(
    cx: &mut Cx,
    op: Aggregate,
    value: Option<&Expr>,
    slot: u16,
    list: &Expr,
    filter: Option<&Expr>,
    span: Span,
) -> C<Int> {
    let why = match aggregate(cx, op, value, slot, list, filter, span) {
        Ok(f) => return Ok(f),
        Err(why) => why,
    };
    let vf = super::value::aggregate(cx, op, value, slot, list, filter, span).map_err(|_| why)?;
    Ok(Box::new(move |env| match vf(env)? {
        Value::Int(i) => Some(i),
        Value::Bool(b) => Some(i64::from(b)),
        Value::None
        | Value::Player(_)
        | Value::Card(_)
        | Value::Kind(_)
        | Value::Tag(_)
        | Value::Space(_)
        | Value::Zone(_)
        | Value::Text(_)
        | Value::List(_) => None,
    }))
}
