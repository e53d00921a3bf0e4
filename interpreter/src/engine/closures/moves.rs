//! Engine stage (closures): `move` statements: of a card, of a zone's cards, of a pile's top cards.

use super::expr::{compile, zone, Int, C};
use super::piles::{or_none, refill_of};
use super::stmts::{charge, eval, failed, type_of, Ctl, Step, Sx};
use super::value::{eval_value, Val};
use crate::engine::exec::Mach;
use crate::program::{Expr, ExprKind, Ty};
use crate::value::Value;
use cardgame_grammar::ast::{Face, Position, Span};

/// `move WHAT to TO`; `Err` when it is the walker's.
pub(super) fn compile_move(
    sx: &mut Sx,
    what: &Expr,
    to: &Expr,
    position: Position,
    face: Option<Face>,
    span: Span,
) -> C<Step> {
    let what_span = what.span;
    let target = compile(&mut sx.cx, to)?;
    match &what.kind {
        ExprKind::Pile {
            position: from,
            count: Some(n),
            zone: z,
        } => {
            let (from, pile_span) = (*from, what.span);
            let (zf, nf) = (compile(&mut sx.cx, z)?, compile(&mut sx.cx, n)?);
            Ok(Box::new(move |m, regs| {
                let (Some(z), Some(n), Some(t)) = (
                    eval(m, regs, &zf),
                    eval(m, regs, &nf),
                    eval(m, regs, &target),
                ) else {
                    return Ok(Ctl::Walk);
                };
                let zones = m.s.zones.len() as i64;
                if !(0..zones).contains(&z) || !(0..zones).contains(&t) {
                    return Ok(Ctl::Walk);
                }
                m.s.short = false;
                charge(m, 1, pile_span)?;
                let n = n.max(0) as usize;
                if from == Position::Top && one_pass(m, z, t) {
                    // The refill first, as `pile_ids`; then the cards in one pass.
                    m.ensure(z as u32, n);
                    let short = m.s.zones[z as usize].cards.len() < n;
                    m.charge_later(n);
                    m.move_top(z as u32, n, t as u32, position, face);
                    return Ok(if short { failed(m, span) } else { Ctl::Next });
                }
                let mut ids = std::mem::take(&mut m.s.recycled.get().ids);
                m.pile_ids(z as u32, n, from, &mut ids);
                let short = m.s.short;
                m.charge_later(ids.len());
                let moved = m.move_ids(ids, t as u32, position, face)?;
                Ok(if short || !moved {
                    failed(m, span)
                } else {
                    Ctl::Next
                })
            }))
        }
        // The top or bottom card of a pile: its word where it holds one (nothing to refill); an
        // empty one refilled first, then its card or `none` (the move then fails, as the walker's
        // `short` says); then the target, in the walker's order (the refill may draw).
        ExprKind::Pile { count: None, .. } => {
            let cf = compile(&mut sx.cx, what)?;
            let refill = refill_of(&mut sx.cx, what).ok_or("a pile of what is not a zone")?;
            let card = or_none(&mut sx.cx, what).ok_or("a pile of what is not a zone")?;
            Ok(Box::new(move |m, regs| {
                let v = match eval(m, regs, &cf) {
                    Some(c) => Some(Value::Card(c as u32)),
                    None if refill.run(m, regs).is_none() => return Ok(Ctl::Walk),
                    None => eval_value(m, regs, &card),
                };
                let (Some(v), Some(t)) = (v, eval(m, regs, &target)) else {
                    return Ok(Ctl::Walk);
                };
                if !(0..m.s.zones.len() as i64).contains(&t) {
                    return Ok(Ctl::Walk);
                }
                let short = v == Value::None;
                m.s.short = short;
                let before = m.s.frames.len();
                let flow = m.move_value(v, short, t as u32, position, face, what_span, span)?;
                Ok(left(m, before, flow))
            }))
        }
        ExprKind::Zone(z, holder) => {
            let zf = zone(&mut sx.cx, z.index(), holder.as_deref(), what.span)?;
            moving(zf, target, Moved::Zone, position, face, what_span, span)
        }
        _ if type_of(&sx.cx, what) == Some(Ty::Card) => {
            let cf = compile(&mut sx.cx, what)?;
            let nullable = or_none(&mut sx.cx, what);
            moving(
                cf,
                target,
                Moved::Card(nullable),
                position,
                face,
                what_span,
                span,
            )
        }
        _ => Err("a move of what is not a card, a zone or a pile's top cards"),
    }
}

/// Whether the cards of zone instance `z` may move to `t` in one pass (`Mach::move_top`): nobody
/// records, two zones, and `t` without a limit (no move fails).
fn one_pass(m: &Mach, z: i64, t: i64) -> bool {
    let def = m.s.zones.def(t as usize);
    !m.s.record && z != t && m.p.zones.get(def.index()).is_some_and(|d| d.max.is_none())
}

/// What a `move` moves: a zone's cards, or a card (and, where it may be `none`, its value closure).
enum Moved {
    Zone,
    Card(Option<Val>),
}

/// `move` of a card or of a zone's cards, by the walker's `move_value`.
fn moving(
    what: Int,
    target: Int,
    moved: Moved,
    position: Position,
    face: Option<cardgame_grammar::ast::Face>,
    what_span: Span,
    span: Span,
) -> C<Step> {
    let is_zone = matches!(moved, Moved::Zone);
    Ok(Box::new(move |m, regs| {
        let (w, Some(t)) = (eval(m, regs, &what), eval(m, regs, &target)) else {
            return Ok(Ctl::Walk);
        };
        let w = match (w, &moved) {
            (Some(w), _) => w,
            // A card that is `none` (a local given `none`): the walker's move of it fails.
            (None, Moved::Card(Some(g))) if eval_value(m, regs, g) == Some(Value::None) => {
                if !(0..m.s.zones.len() as i64).contains(&t) {
                    return Ok(Ctl::Walk);
                }
                let before = m.s.frames.len();
                let flow = m.move_value(
                    Value::None,
                    false,
                    t as u32,
                    position,
                    face,
                    what_span,
                    span,
                )?;
                return Ok(left(m, before, flow));
            }
            (None, Moved::Card(_) | Moved::Zone) => return Ok(Ctl::Walk),
        };
        let n = m.s.zones.len() as i64;
        if !(0..n).contains(&t) || w < 0 || (is_zone && w >= n) {
            return Ok(Ctl::Walk);
        }
        if is_zone && one_pass(m, w, t) {
            let k = m.s.zones[w as usize].cards.len();
            m.charge_later(2 * k);
            m.move_top(w as u32, usize::MAX, t as u32, position, face);
            return Ok(Ctl::Next);
        }
        let v = if is_zone {
            Value::Zone(w as u32)
        } else {
            Value::Card(w as u32)
        };
        let before = m.s.frames.len();
        let flow = m.move_value(v, false, t as u32, position, face, what_span, span)?;
        Ok(left(m, before, flow))
    }))
}

/// After a move that may fail: the block is left when a `strict` caught the failure (the stack
/// below the `before` frames changed), else the next statement follows.
fn left(m: &Mach, before: usize, flow: crate::engine::exec::Flow) -> Ctl {
    if m.s.frames.len() < before {
        Ctl::Left(flow)
    } else {
        Ctl::Next
    }
}
