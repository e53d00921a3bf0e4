//! Engine stage (closures): a pile's top or bottom cards read, and the refill before a read.
//!
//! A pile that holds fewer cards than read may refill (the walker's `Mach::ensure`): a word closure
//! of its top or bottom card answers only where it holds one, a value closure also `none` where it
//! is empty and its zone has no `refill`; a `let`, `=`, move or call argument of a pile refills it
//! first (`Refill`) and then reads `none` or the fewer cards it holds.

use super::env::Env;
use super::expr::{compile, Cx, Int, C};
use super::stmts::{type_of, Regs};
use super::value::{compile_value, Val};
use crate::engine::exec::Mach;
use crate::program::{BinOp, Expr, ExprKind, Ty};
use crate::value::Value;
use cardgame_grammar::ast::Position;

/// The top or bottom card of a pile as a word, when it holds one (an empty pile is `none`, which
/// is no word, or may refill: `None`).
pub(super) fn pile_card(cx: &mut Cx, position: Position, zone: &Expr) -> C<Int> {
    let f = card_or_none(cx, position, zone)?;
    Ok(Box::new(move |env| f(env)?))
}

/// The top or bottom card of a pile, or `none` (`Some(None)`) when the pile is empty and its zone
/// has no `refill` (the walker's read finds it empty too); `None` when an empty pile may refill
/// (the walker's read refills it first).
pub(super) type CardOrNone = Box<dyn Fn(&mut Env) -> Option<Option<i64>> + Send + Sync>;

/// [`CardOrNone`] of `top of ZONE` (`bottom of ZONE`).
fn card_or_none(cx: &mut Cx, position: Position, zone: &Expr) -> C<CardOrNone> {
    if type_of(cx, zone) != Some(Ty::Zone) {
        return Err("a pile of what is not known to be a zone");
    }
    let (zf, top) = (compile(cx, zone)?, position == Position::Top);
    Ok(Box::new(move |env| {
        let z = usize::try_from(zf(env)?).ok()?;
        let cards = &env.s.zones.get(z)?.cards;
        let c = if top { cards.last() } else { cards.first() };
        match c {
            Some(&c) => Some(Some(c as i64)),
            None => {
                let def = env.p.zones.get(env.s.zones.def(z).index())?;
                def.refill.is_none().then_some(None)
            }
        }
    }))
}

/// `e` as [`CardOrNone`] where it is a pile's top or bottom card (`Ok(None)`: it is not).
pub(super) fn pile_or_none(cx: &mut Cx, e: &Expr) -> C<Option<CardOrNone>> {
    match &e.kind {
        ExprKind::Pile {
            position,
            count: None,
            zone,
        } => Ok(Some(card_or_none(cx, *position, zone)?)),
        _ => Ok(None),
    }
}

/// `e` read where its word closure answered `None`, as a value that may be `none` (a local given
/// `none`, `first` of no items): a pile's top or bottom card, read after its refill
/// (`Refill::run`), is `none` when the pile is empty, and its top or bottom `n` cards the cards it
/// holds when fewer; anything else is its value closure's.
pub(super) fn or_none(cx: &mut Cx, e: &Expr) -> Option<Val> {
    match &e.kind {
        ExprKind::Pile {
            position,
            count: None,
            zone,
        } if type_of(cx, zone) == Some(Ty::Zone) => {
            let (zf, top) = (compile(cx, zone).ok()?, *position == Position::Top);
            Some(Box::new(move |env| {
                let cards = &env.s.zones.get(usize::try_from(zf(env)?).ok()?)?.cards;
                let c = if top { cards.last() } else { cards.first() };
                Some(c.map(|&c| Value::Card(c)).unwrap_or_default())
            }))
        }
        ExprKind::Pile {
            position,
            count: Some(count),
            zone,
        } => pile(cx, *position, Some(count), zone, true).ok(),
        _ => compile_value(cx, e).ok(),
    }
}

/// A pile read by a `let` (`let t = top of deck`, `let cs = top n of deck`): its zone and count,
/// to refill the pile first as the walker's `pile` does (`Mach::ensure`), so that the closures
/// read the refilled pile; the zone and the count read nothing the refill changes.
pub(super) struct Refill {
    zone: Int,
    count: Option<Int>,
}

/// The refill before a `let` of `e`, when `e` is a pile's top or bottom cards of a known zone.
pub(super) fn refill_of(cx: &mut Cx, e: &Expr) -> Option<Refill> {
    let ExprKind::Pile { count, zone, .. } = &e.kind else {
        return None;
    };
    if type_of(cx, zone) != Some(Ty::Zone) {
        return None;
    }
    let zone = compile(cx, zone).ok()?;
    let count = match count {
        None => None,
        Some(n) => Some(compile(cx, n).ok()?),
    };
    Some(Refill { zone, count })
}

impl Refill {
    /// Refills the pile when it holds fewer cards than read; `None`: a closure could not answer,
    /// nothing was done.
    pub(super) fn run(&self, m: &mut Mach, regs: &mut Regs) -> Option<()> {
        let z = u32::try_from(super::stmts::eval(m, regs, &self.zone)?).ok()?;
        let n = match &self.count {
            None => 1,
            Some(f) => super::stmts::eval(m, regs, f)?.max(0),
        };
        if z as usize >= m.s.zones.len() {
            return None;
        }
        m.ensure(z, usize::try_from(n).ok()?);
        Some(())
    }
}

/// The top or bottom card of a pile, or its top or bottom `count` cards, when it holds them: a
/// pile holding fewer is the walker's (it may refill, and a move of fewer fails), or (`fewer`,
/// read after its refill) gives the cards it holds.
pub(super) fn pile(
    cx: &mut Cx,
    position: Position,
    count: Option<&Expr>,
    zone: &Expr,
    fewer: bool,
) -> C<Val> {
    if type_of(cx, zone) != Some(Ty::Zone) {
        return Err("a pile of what is not known to be a zone");
    }
    let Some(count) = count else {
        let cf = card_or_none(cx, position, zone)?;
        return Ok(Box::new(move |env| {
            Some(cf(env)?.map_or(Value::None, |c| Value::Card(c as u32)))
        }));
    };
    let (zf, top) = (compile(cx, zone)?, position == Position::Top);
    let nf = compile(cx, count)?;
    Ok(Box::new(move |env| {
        let n = usize::try_from(nf(env)?.max(0)).ok()?;
        let cards = &env.s.zones.get(usize::try_from(zf(env)?).ok()?)?.cards;
        if cards.len() < n && !fewer {
            return None;
        }
        let ids: Vec<Value> = if top {
            cards
                .iter()
                .rev()
                .take(n)
                .map(|&c| Value::Card(c))
                .collect()
        } else {
            cards.iter().take(n).map(|&c| Value::Card(c)).collect()
        };
        Some(Value::list(ids))
    }))
}

/// Per condition of an `if`, the refill of the pile it reads first (`top of you.stock != none`),
/// run before it is tested, as the walker's read refills it: the pile's zone and count are the
/// first parts the condition evaluates, so nothing read before them sees the refill. `None` when no
/// condition reads a pile first.
pub(super) fn leading<'e>(
    cx: &mut Cx,
    conds: impl Iterator<Item = &'e Expr>,
) -> Option<Vec<Option<Refill>>> {
    let refills: Vec<Option<Refill>> = conds
        .map(|c| first_read(c).and_then(|pile| refill_of(cx, pile)))
        .collect();
    refills.iter().any(Option::is_some).then_some(refills)
}

/// The pile that `e` reads before anything else, where its closure evaluates that part first as
/// the walker does: the left side of a comparison, arithmetic or connective, what `not` or a
/// minus reads, the card of a property, field, kind or tag test, an `if`'s condition.
fn first_read(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Pile { .. } => Some(e),
        ExprKind::Binary(op, a, _) if !matches!(op, BinOp::In | BinOp::Concat) => first_read(a),
        ExprKind::Unary(_, x)
        | ExprKind::Prop(_, x)
        | ExprKind::Field(_, x)
        | ExprKind::IsKind(x, ..)
        | ExprKind::IsTag(x, ..)
        | ExprKind::If(x, ..) => first_read(x),
        // Every other form reads no pile first as the closures evaluate it (listed, so that a new
        // form must be judged here).
        ExprKind::Binary(..)
        | ExprKind::Const(_)
        | ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::PlayerVar(..)
        | ExprKind::CardVar(..)
        | ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::TagOf(..)
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
        | ExprKind::Builtin(..)
        | ExprKind::CallFn(..)
        | ExprKind::Text(_)
        | ExprKind::Let(..) => None,
    }
}
