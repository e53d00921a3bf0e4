//! Engine stage (closures): writes of numbers compiled: `=`, `+=`, `-=` and `pay`.
//!
//! A local, a global, a player's or a card's variable of numbers. The value and the place are computed first
//! (`Ctl::Walk` when a closure cannot answer, nothing changed); a variable of constant bounds is
//! clamped and written in its cell with its version bumped, as the walker's `write_place` does,
//! which writes any other.

use super::expr::{compile, Int, C};
use super::stmts::{eval, failed, type_of, Ctl, Regs, Step, Sx, R};
use crate::engine::exec::Mach;
use crate::engine::stmt::Place;
use crate::program::{AssignOp, Expr, ExprKind, Program, Target, Ty};
use crate::value::Value;
use cardgame_grammar::ast::Span;

/// A place the closures write: a local number, or a variable whose index they compute.
enum Spot {
    Local(u16, usize),
    Global(usize, Option<Bounds>),
    Player(usize, Int, Option<Bounds>),
    /// A card's variable, written through the walker's `write_place`.
    Card(usize, Int),
}

/// A variable's bounds when they are constants (`min 0 max 10`): the closures clamp and write the
/// cell themselves; `None`: computed bounds, written through the walker's `write_place`.
#[derive(Clone, Copy)]
struct Bounds {
    lo: Option<i64>,
    hi: Option<i64>,
}

impl Bounds {
    fn of(p: &Program, v: usize) -> Option<Bounds> {
        let def = p.vars.get(v)?;
        let constant = |b: &Option<Expr>| match b.as_ref().map(|e| &e.kind) {
            None => Some(None),
            Some(ExprKind::Const(Value::Int(i))) => Some(Some(*i)),
            Some(_) => None,
        };
        Some(Bounds {
            lo: constant(&def.min)?,
            hi: constant(&def.max)?,
        })
    }

    /// As `write_place` clamps: to the largest, then to the smallest.
    #[inline]
    fn clamp(self, mut x: i64) -> i64 {
        if let Some(hi) = self.hi {
            x = x.min(hi);
        }
        if let Some(lo) = self.lo {
            x = x.max(lo);
        }
        x
    }
}

fn spot(sx: &mut Sx, t: &Target) -> C<Spot> {
    match t {
        Target::Local(s) => {
            if sx.cx.type_of_local(*s) != Some(&Ty::Int) {
                return Err("a local that is not a number");
            }
            Ok(Spot::Local(*s, sx.cx.slot(*s)?))
        }
        Target::Global(v) => Ok(Spot::Global(v.index(), Bounds::of(sx.cx.p, v.index()))),
        Target::Player(v, e) => {
            if type_of(&sx.cx, e) != Some(Ty::Player) {
                return Err("a player's variable of what is not known to be a player");
            }
            let bounds = Bounds::of(sx.cx.p, v.index());
            Ok(Spot::Player(v.index(), compile(&mut sx.cx, e)?, bounds))
        }
        Target::Card(v, e) => {
            if type_of(&sx.cx, e) != Some(Ty::Card) {
                return Err("a card's variable of what is not known to be a card");
            }
            Ok(Spot::Card(v.index(), compile(&mut sx.cx, e)?))
        }
    }
}

/// The walker's place of a spot, computed; `None` when a closure could not answer.
fn place(m: &mut Mach, regs: &mut Regs, s: &Spot) -> Option<Place> {
    Some(match s {
        Spot::Local(slot, _) => Place::Local(*slot),
        Spot::Global(v, _) => Place::Global(*v, m.l.var(crate::program::VarId(*v as u16))),
        Spot::Player(v, pf, _) => {
            let p = eval(m, regs, pf)?;
            // A seat or a participant (`automaton.influence`), as `as_player` takes them.
            if !(0..m.s.players as i64 + m.s.participants as i64).contains(&p) {
                return None;
            }
            Place::Player(*v, p as u8)
        }
        Spot::Card(v, cf) => {
            let c = eval(m, regs, cf)?;
            if !(0..m.s.cards.len() as i64).contains(&c) {
                return None;
            }
            Place::Card(*v, c as u32)
        }
    })
}

/// Writes `new` to the spot: a variable of constant bounds clamped and written in its cell, its
/// version bumped (as `write_place` does); any other through the walker's `write_place`, and a
/// local to its slot too.
fn write(m: &mut Mach, regs: &mut Regs, s: &Spot, pl: &Place, new: i64, span: Span) -> R<()> {
    let cell = match (s, pl) {
        (Spot::Local(_, i), _) => {
            regs.slots[*i] = new;
            None
        }
        (Spot::Global(v, Some(b)), &Place::Global(_, i)) => Some((*v, *b, &mut m.s.globals, i)),
        (Spot::Player(v, _, Some(b)), &Place::Player(_, p)) => {
            let i = p as usize * m.l.n_pvars + m.l.var(crate::program::VarId(*v as u16));
            Some((*v, *b, &mut m.s.pvars, i))
        }
        _ => None,
    };
    if let Some((v, b, cells, i)) = cell {
        if let Some(cell) = cells.get_mut(i) {
            *cell = Value::Int(b.clamp(new));
            m.s.wrote_var(v);
            return Ok(());
        }
    }
    m.write_place(pl, Value::Int(new), span)
}

pub(super) fn assign(sx: &mut Sx, t: &Target, op: AssignOp, e: &Expr, span: Span) -> C<Step> {
    if let Target::Global(v) | Target::Player(v, _) | Target::Card(v, _) = t {
        if sx.cx.p.vars.get(v.index()).map(|d| &d.ty) != Some(&Ty::Int) {
            return Err("a variable that is not a number");
        }
    }
    let ef = compile(&mut sx.cx, e)?;
    if type_of(&sx.cx, e) != Some(Ty::Int) {
        return Err("a value that is not a number");
    }
    let s = spot(sx, t)?;
    Ok(Box::new(move |m, regs| {
        let (Some(v), Some(pl)) = (eval(m, regs, &ef), place(m, regs, &s)) else {
            return Ok(Ctl::Walk);
        };
        let new = match op {
            AssignOp::Set => v,
            // Past the largest number, the walker's error (`Mach::combine`).
            AssignOp::Add | AssignOp::Sub => {
                let Value::Int(cur) = m.read_place(&pl) else {
                    return Ok(Ctl::Walk);
                };
                let r = if op == AssignOp::Sub {
                    cur.checked_sub(v)
                } else {
                    cur.checked_add(v)
                };
                let Some(r) = r else {
                    return super::stmts::fails(m, span, super::expr::OVERFLOW);
                };
                r
            }
        };
        write(m, regs, &s, &pl, new, span)?;
        Ok(Ctl::Next)
    }))
}

pub(super) fn pay(sx: &mut Sx, e: &Expr, t: &Target, span: Span) -> C<Step> {
    if let Target::Global(v) | Target::Player(v, _) | Target::Card(v, _) = t {
        if sx.cx.p.vars.get(v.index()).map(|d| &d.ty) != Some(&Ty::Int) {
            return Err("a variable that is not a number");
        }
    }
    let ef = compile(&mut sx.cx, e)?;
    let s = spot(sx, t)?;
    Ok(Box::new(move |m, regs| {
        let (Some(amount), Some(pl)) = (eval(m, regs, &ef), place(m, regs, &s)) else {
            return Ok(Ctl::Walk);
        };
        match m.read_place(&pl) {
            Value::Int(have) if have >= amount => match have.checked_sub(amount) {
                Some(left) => {
                    write(m, regs, &s, &pl, left, span)?;
                    Ok(Ctl::Next)
                }
                None => super::stmts::fails(m, span, super::expr::OVERFLOW),
            },
            Value::Int(_) | Value::None => Ok(failed(m, span)),
            _ => Ok(Ctl::Walk),
        }
    }))
}
