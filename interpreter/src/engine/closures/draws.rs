//! Engine stage (closures): statements that draw one item of a list at random, run in place.
//!
//! `let x = random(L)`, `P = random(L)`, `P += random(L)` (and `-=`) and `move random(L) to Z`, of
//! a list `L` and a zone `Z` that draw nothing: `L` by its value closure (else the walker's value),
//! then one item drawn as the walker's `random` draws it (`Mach::draw_from`), so the generator
//! gives the same numbers in the same order; then the walker's effect with the item, in the
//! walker's order (the place read after the draw, the zone after the item). A draw inside a
//! segment is noted at the segment's head (`State::first_draw`): the factory's template pauses
//! before the segment, which its copies then run whole.
//!
//! `random(L)` inside a larger expression of a `let`, `=`, `+=`, `-=`, the parts of a `log`, or
//! an `if`'s, `require`'s or `while`'s conditions (`Draws`): the statement's closures draw from a
//! copy of the game's generator, kept when they answered.

use super::env::{word, NONE};
use super::expr::{compile, Cx, Int, C};
use super::stmts::{eval, type_of, Ctl, Step, Sx};
use super::value::{compile_value, eval_value};
use crate::engine::exec::Mach;
use crate::program::{AssignOp, BinOp, Builtin, Expr, ExprKind, Stmt, StmtKind, Target, Ty};

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
            None => m.eval_at(crate::engine::sites::Site::Draw, &list)?,
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

/// The copy of the game's generator that the closures of a statement drawing inside its
/// expressions (`you.coins += random([1, 2, 3]) + c.worth`) draw from: written back to the game
/// when the statement's closures answered (`kept`), dropped when the walker runs the statement
/// instead, which then draws the same numbers from the game's generator as it stood.
pub(crate) struct Draws {
    rng: rand_chacha::ChaCha8Rng,
    drawn: bool,
}

/// Whether `e` draws at random, and only where its closures draw as the walker does, in its order
/// and as often: `random(L)` of a pure `L`, under arithmetic, comparisons, connectives, `if`,
/// `abs`, `max` and `min` of two, and `let` (a small function's call copied in), each of which
/// evaluates its parts once, left to right; any other part pure (what is not one of these forms is
/// judged by its purity: a draw under it is the walker's).
pub(super) fn drawn_inside(judged: &crate::purity::Judged, e: &Expr) -> bool {
    !judged.pure(e) && in_order(judged, e)
}

fn in_order(judged: &crate::purity::Judged, e: &Expr) -> bool {
    let of = |x: &Expr| in_order(judged, x);
    match &e.kind {
        ExprKind::Builtin(Builtin::Random, args) => args.iter().all(|a| judged.pure(a)),
        ExprKind::Builtin(Builtin::Abs | Builtin::Max2 | Builtin::Min2, args) => {
            args.iter().all(of)
        }
        ExprKind::Binary(op, a, b) if !matches!(op, BinOp::In | BinOp::Concat) => of(a) && of(b),
        ExprKind::Unary(_, x) => of(x),
        ExprKind::If(c, a, b) => of(c) && of(a) && of(b),
        // A value bound, then the body (a small function's call copied where it is called, its
        // argument bound first: check/inline.rs).
        ExprKind::Let(_, v, body) => of(v) && of(body),
        // Every other form: a draw under it is the walker's (listed, so that a new form must be
        // judged here).
        ExprKind::Builtin(..)
        | ExprKind::Binary(..)
        | ExprKind::Const(_)
        | ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::PlayerVar(..)
        | ExprKind::CardVar(..)
        | ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::Prop(..)
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
        | ExprKind::IsTag(..)
        | ExprKind::IsKind(..)
        | ExprKind::List(_)
        | ExprKind::Range(..)
        | ExprKind::Aggregate { .. }
        | ExprKind::Pile { .. }
        | ExprKind::CallFn(..)
        | ExprKind::Text(_) => judged.pure(e),
    }
}

/// `random(L)` as a word, drawn from the statement's copy of the generator (`Draws`): `L` by its
/// list closure, then one item drawn as the walker's `Mach::draw_from` draws it. `None` (the
/// walker's) for no items (`none`), an item that is not a word, or where nobody keeps the draws.
pub(super) fn random(cx: &mut Cx, l: &Expr) -> C<Int> {
    use rand::Rng;
    let lf = super::value::list(cx, l)?;
    Ok(Box::new(move |env| {
        let items = lf(env)?;
        if items.is_empty() {
            return None;
        }
        let d = env.draws.as_deref_mut()?;
        let i = d.rng.gen_range(0..items.len());
        d.drawn = true;
        word(&items[i])
    }))
}

/// `random(L)` as a value (`random` above, of an item of any type).
pub(super) fn random_value(cx: &mut Cx, l: &Expr) -> C<super::value::Val> {
    use rand::Rng;
    let lf = super::value::list(cx, l)?;
    Ok(Box::new(move |env| {
        let items = lf(env)?;
        if items.is_empty() {
            return None;
        }
        let d = env.draws.as_deref_mut()?;
        let i = d.rng.gen_range(0..items.len());
        d.drawn = true;
        items.get(i).cloned()
    }))
}

/// Step `step`, compiled with its expressions drawing (`Cx::draws`), run with a copy of the game's
/// generator: the copy is written back (the draw noted, `State::note_draw`) unless the walker runs
/// the statement instead. The step draws nothing else: its effect is a local or a number written,
/// or a `log` (recorded, the walker's text draws from the game's generator, the copy untouched).
pub(super) fn kept(step: Step) -> Step {
    Box::new(move |m, regs| {
        m.draws = Some(Box::new(Draws::of(m)));
        let ctl = step(m, regs);
        let draws = m.draws.take();
        if !matches!(ctl, Ok(Ctl::Walk)) {
            if let Some(d) = draws {
                d.keep(m);
            }
        }
        ctl
    })
}

impl Draws {
    /// A copy of the game's generator, nothing drawn yet.
    pub(super) fn of(m: &Mach) -> Draws {
        Draws {
            rng: m.s.rng.clone(),
            drawn: false,
        }
    }

    /// Writes the copy back to the game where something was drawn from it.
    pub(super) fn keep(self, m: &mut Mach) {
        if self.drawn {
            m.s.note_draw();
            m.s.rng = self.rng;
        }
    }
}

/// Whether `st` is a `let`, `=`, `+=` or `-=` that draws inside its expression (`drawn_inside`;
/// `random(L)` as the whole value is `draw`'s), its place pure.
pub(super) fn keeps_draws(sx: &Sx, st: &Stmt) -> bool {
    let inside = |e: &Expr| {
        !matches!(e.kind, ExprKind::Builtin(Builtin::Random, _)) && drawn_inside(sx.pure, e)
    };
    match &st.kind {
        StmtKind::Let(_, e) => inside(e),
        StmtKind::Assign(t, _, e) => {
            let place = match t {
                Target::Local(_) | Target::Global(_) => true,
                Target::Player(_, x) | Target::Card(_, x) => sx.pure.pure(x),
            };
            place && inside(e)
        }
        _ => false,
    }
}

/// Whether an `if`'s conditions draw (one at least, `drawn_inside`), each pure or drawing only as
/// its closures draw.
pub(super) fn conditions_draw<'e>(
    sx: &Sx,
    mut conds: impl Iterator<Item = &'e Expr> + Clone,
) -> bool {
    let judged = sx.pure;
    conds.clone().any(|c| !judged.pure(c))
        && conds.all(|c| judged.pure(c) || drawn_inside(judged, c))
}

/// A condition `cf` of a `require` or a `while` tested as an `if`'s: its pile refilled first
/// (`refill`), or drawing from a copy of the generator (`drawing`), kept when it answered. `None`
/// where the refill or the condition could not answer: the walker tests it.
pub(super) fn tested(
    m: &mut Mach,
    regs: &mut super::stmts::Regs,
    refill: Option<&super::piles::Refill>,
    drawing: bool,
    cf: &Int,
) -> Option<i64> {
    refill.map_or(Some(()), |r| r.run(m, regs))?;
    if drawing {
        m.draws = Some(Box::new(Draws::of(m)));
    }
    let holds = eval(m, regs, cf);
    let draws = m.draws.take();
    if let (Some(_), Some(d)) = (holds, draws) {
        d.keep(m);
    }
    holds
}

/// A condition of a `require` or a `while`, compiled as an `if`'s: drawing inside where it draws in
/// the walker's order (`conditions_draw`), else with the refill of a pile it reads first
/// (`piles::leading`). Its closure, the refill, and whether it draws (then `tested` runs it).
pub(super) fn condition(sx: &mut Sx, c: &Expr) -> C<(Int, Option<super::piles::Refill>, bool)> {
    let drawing = conditions_draw(sx, std::iter::once(c));
    sx.cx.draws = drawing;
    let cf = compile(&mut sx.cx, c);
    sx.cx.draws = false;
    let cf = cf?;
    let refill = (!drawing)
        .then(|| super::piles::leading(&mut sx.cx, std::iter::once(c)))
        .flatten()
        .and_then(|mut refills| refills.pop().flatten());
    Ok((cf, refill, drawing))
}
