//! Engine stage (closures): statements that draw one item of a list at random, run in place.
//!
//! `let x = random(L)`, `P = random(L)`, `P += random(L)` (and `-=`) and `move random(L) to Z`, of
//! a list `L` and a zone `Z` that draw nothing: `L` by its value closure (else the walker's value),
//! then one item drawn as the walker's `random` draws it (`Mach::draw_from`), so the generator
//! gives the same numbers in the same order; then the walker's effect with the item, in the
//! walker's order (the place read after the draw, the zone after the item). A draw inside a
//! segment is noted at the segment's head (`State::first_draw`): the factory's template pauses
//! before the segment, which its copies then run whole.

use super::env::{word, NONE};
use super::expr::compile;
use super::stmts::{eval, type_of, Ctl, Step, Sx};
use super::value::{compile_value, eval_value};
use crate::program::{AssignOp, Builtin, Expr, ExprKind, Stmt, StmtKind, Target, Ty};

/// What a statement does with the item it draws.
enum Effect {
    /// `let x = random(L)`: the local.
    Let(u16),
    /// `P = random(L)`, `P += random(L)`, `P -= random(L)`: the place, and how it is written.
    Assign(Target, AssignOp),
    /// `move random(L) to Z`: the zone's closure (else the walker's), and where and how the card
    /// goes.
    Move {
        to: Expr,
        zone: Option<super::expr::Int>,
        position: cardgame_grammar::ast::Position,
        face: Option<cardgame_grammar::ast::Face>,
    },
}

/// The draw of statement `st`, when it draws `random(L)` as a whole value; `None` otherwise.
pub(super) fn draw(sx: &mut Sx, st: &Stmt) -> Option<Step> {
    let (effect, e) = match &st.kind {
        StmtKind::Let(s, e) => (Effect::Let(*s), e),
        StmtKind::Assign(t, op, e) => (Effect::Assign(t.clone(), *op), e),
        StmtKind::Move {
            what,
            to,
            position,
            face,
        } if sx.pure.pure(to) => {
            let zone = match type_of(&sx.cx, to) {
                Some(Ty::Zone) => compile(&mut sx.cx, to).ok(),
                _ => None,
            };
            let (to, position, face) = (to.clone(), *position, *face);
            let effect = Effect::Move {
                to,
                zone,
                position,
                face,
            };
            (effect, what)
        }
        _ => return None,
    };
    let ExprKind::Builtin(Builtin::Random, args) = &e.kind else {
        return None;
    };
    let [list] = args.as_slice() else {
        return None;
    };
    // The place is evaluated after the draw, by the walker, as the walker's `=` evaluates it.
    if !sx.pure.pure(list) {
        return None;
    }
    let f = compile_value(&mut sx.cx, list).ok();
    let slot = match &effect {
        Effect::Let(s) => {
            let t = super::each::local_type(&sx.cx, e);
            if let Some(ts) = sx.cx.types.get_mut(*s as usize) {
                *ts = t;
            } else if let Some(t) = t {
                sx.cx.set_type(*s, t);
            }
            Some((*s, sx.cx.slot(*s).ok()?))
        }
        Effect::Assign(Target::Local(s), _) => Some((*s, sx.cx.slot(*s).ok()?)),
        Effect::Assign(..) | Effect::Move { .. } => None,
    };
    let (list, span) = (list.clone(), st.span);
    let what = e.span;
    Some(Box::new(move |m, regs| {
        let v = match f.as_ref().and_then(|f| eval_value(m, regs, f)) {
            Some(v) => v,
            None => m.eval(&list)?,
        };
        let items = m.as_list(v, list.span)?;
        let v = m.draw_from(&items);
        match &effect {
            Effect::Let(s) => m.set_local(*s, v),
            Effect::Assign(target, op) => m.assign_value(target, *op, v, span)?,
            Effect::Move {
                to,
                zone,
                position,
                face,
            } => {
                let z = match zone.as_ref().and_then(|z| eval(m, regs, z)) {
                    Some(z) if (0..m.s.zones.len() as i64).contains(&z) => z as u32,
                    _ => m.eval_zone(to)?,
                };
                // A move that fails inside `strict` leaves the block (as `in_place`'s).
                let before = m.s.frames.len();
                m.s.short = false;
                let flow = m.move_value(v, false, z, *position, *face, what, span)?;
                if m.s.frames.len() < before {
                    return Ok(Ctl::Left(flow));
                }
            }
        }
        if let Some((s, i)) = slot {
            regs.slots[i] = word(&m.local(s)).unwrap_or(NONE);
        }
        Ok(Ctl::Next)
    }))
}
