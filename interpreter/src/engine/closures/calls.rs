//! Engine stage (closures): procedures and abilities run inline, in a context and no frame.
//!
//! A call of a procedure (`refill_hand(p)`, `let n = defend(...)`) or `perform` of an ability
//! pushes the walker's context (its locals, `you`, `this`) and runs the body's compiled block
//! inline, with slots of its own. No frame is pushed while it runs: where the body reaches a
//! statement of the walker's (a decision), the frames the walker would have pushed for the call
//! (`Result`, `Call`) are made below the body's own, so the decision pauses as the walker's and
//! the rest of the body resumes on the closures (segments.rs). Inline calls nest at most
//! [`DEPTH`] deep; deeper, the walker pushes frames. `emit` gives its arguments to the walker's
//! `emit`, which pushes the triggers that listen as one frame; the block resumes after it.

use super::blocks::inline;
use super::env::{word, NONE, SLOTS};
use super::expr::{compile, Int, C};
use super::piles::{or_none, refill_of, Refill};
use super::stmts::{self, value, Ctl, Regs, Step, R};
use super::value::{compile_value, eval_value, Val};
use crate::engine::exec::{Frame, Mach};
use crate::engine::state::Ctx;
use crate::program::{AbilityId, EventId, Expr, ExprKind, ProcId, Program, Ty};
use cardgame_grammar::ast::Span;

/// Inline calls inside inline calls, at most.
const DEPTH: u8 = 16;

fn is_word(t: &Ty) -> bool {
    value(t, 0) != crate::value::Value::None
}

/// Runs body `block` inline in context `ctx`: the walker's `Result` (when `result` names the
/// caller's slot) and `Call` frames are made only if the body pauses. Gives the body's `return`
/// to the caller's slot.
fn run_body(
    m: &mut Mach,
    regs: &mut Regs,
    inner: &mut Regs,
    block: crate::program::BlockId,
    ctx: Ctx,
    result: Option<(u16, usize, &Ty)>,
) -> R<Ctl> {
    let p: &Program = m.p;
    let Some(code) = p.closures.as_deref().and_then(|c| c.block_code(block)) else {
        return Ok(Ctl::Walk);
    };
    let base = m.s.ctxs.len();
    m.s.ctxs.push(ctx);
    let mark = m.s.frames.len();
    let given = match inline(m, inner, code, || None)? {
        Ctl::Next => None,
        Ctl::Return(w) => w,
        ctl @ (Ctl::Walk | Ctl::Pushed | Ctl::Paused(_)) => {
            m.s.frames.insert(mark, Frame::Call);
            if let Some((slot, ..)) = result {
                m.s.frames.insert(mark, Frame::Result { slot });
            }
            return Ok(match ctl {
                paused @ Ctl::Paused(_) => paused,
                _ => Ctl::Pushed,
            });
        }
        // The checker keeps a `break` inside a loop of its body: never out of a call.
        Ctl::Break => return Err(m.err(code.span, "`break` outside a loop".into())),
        Ctl::Left(flow) => {
            // The frames were unwound below the call (a failure `strict` caught), each `Call`
            // popping a context: this call's had no frame, one more context goes.
            m.s.pop_ctx();
            return Ok(Ctl::Left(flow));
        }
    };
    m.s.truncate_ctxs(base);
    if let Some((slot, i, t)) = result {
        match given {
            Some(w) => {
                regs.slots[i] = w;
                m.set_local(slot, value(t, w));
            }
            None => {
                regs.slots[i] = NONE;
                m.set_local(slot, crate::value::Value::None);
            }
        }
    }
    Ok(Ctl::Next)
}

/// An argument's closure: a word's, or a value's (a list the body reads from the context,
/// `replace_in_row(after)`; `none`, its slot `NONE`: `make(you, c, true, none)`).
enum Arg {
    Word(Int),
    /// A word that may be `none` (its value closure answers where the word's does not); a pile's
    /// top or bottom card read after its refill, the last argument so that every other is read
    /// before the refill, as the walker reads them.
    Nullable(Int, Val, Option<Refill>),
    Value(Val),
}

/// Whether value closure `g` gives `none`.
#[cold]
fn is_none(m: &mut Mach, regs: &mut Regs, g: &Val) -> bool {
    eval_value(m, regs, g) == Some(crate::value::Value::None)
}

/// A word that may be `none`: its word, or `Some(None)` where its value closure gives `none`;
/// `None` where neither answers.
fn nullable(m: &mut Mach, regs: &mut Regs, f: &Int, g: &Val) -> Option<Option<i64>> {
    match stmts::eval(m, regs, f) {
        Some(w) => Some(Some(w)),
        None => is_none(m, regs, g).then_some(None),
    }
}

/// The arguments' closures of a procedure.
fn arguments(sx: &mut stmts::Sx, params: &[Ty], args: &[Expr]) -> C<Vec<Arg>> {
    if args.len() != params.len() || args.len() > SLOTS {
        return Err("a procedure called with another number of arguments");
    }
    let last = args.len().saturating_sub(1);
    let word = |sx: &mut stmts::Sx, i: usize, a: &Expr| -> C<Arg> {
        let f = compile(&mut sx.cx, a)?;
        let refill = refill_of(&mut sx.cx, a);
        if refill.is_some() && i != last {
            return Ok(Arg::Word(f));
        }
        Ok(match or_none(&mut sx.cx, a) {
            Some(g) => Arg::Nullable(f, g, refill),
            None => Arg::Word(f),
        })
    };
    (params.iter().zip(args).enumerate())
        .map(|(i, (t, a))| match is_word(t) {
            true => word(sx, i, a).or_else(|_| compile_value(&mut sx.cx, a).map(Arg::Value)),
            false => compile_value(&mut sx.cx, a).map(Arg::Value),
        })
        .collect()
}

/// `proc(args)`, or `let x = proc(args)` when `result` is the slot.
pub(super) fn call(
    sx: &mut stmts::Sx,
    proc: ProcId,
    args: &[Expr],
    result: Option<u16>,
) -> C<Step> {
    let p = sx.cx.p;
    let def = p.procs.get(proc.index()).ok_or("an unknown procedure")?;
    let arg_fns = arguments(sx, &def.params, args)?;
    let params = def.params.clone();
    let (block, slots) = (def.body.block, def.body.slots as usize);
    let result = match result {
        Some(slot) => {
            let t = def
                .ret
                .clone()
                .filter(is_word)
                .ok_or("a result that is not a word")?;
            Some((slot, sx.cx.slot(slot)?, t))
        }
        None => None,
    };
    Ok(Box::new(move |m, regs| {
        if regs.depth >= DEPTH {
            return Ok(Ctl::Walk);
        }
        let mut inner = Regs {
            slots: [NONE; SLOTS],
            you: regs.you,
            depth: regs.depth + 1,
        };
        // The arguments given `none`, a bit each.
        let mut nones = 0u32;
        for (i, f) in arg_fns.iter().enumerate() {
            let w = match f {
                Arg::Word(f) | Arg::Nullable(f, _, None) => stmts::eval(m, regs, f),
                Arg::Nullable(_, _, Some(_)) | Arg::Value(_) => continue,
            };
            inner.slots[i] = match (w, f) {
                (Some(w), _) => w,
                (None, Arg::Nullable(_, g, _)) if is_none(m, regs, g) => {
                    nones |= 1 << i;
                    NONE
                }
                (None, _) => return Ok(Ctl::Walk),
            };
        }
        let mut locals = m.s.take_locals(slots);
        for (i, (t, f)) in params.iter().zip(&arg_fns).enumerate() {
            locals[i] = match f {
                Arg::Word(_) => value(t, inner.slots[i]),
                Arg::Nullable(_, _, None) if nones & (1 << i) != 0 => crate::value::Value::None,
                Arg::Nullable(_, _, None) => value(t, inner.slots[i]),
                // The last argument, every other read: the pile refilled, then read.
                Arg::Nullable(f, g, Some(r)) => {
                    let w = r.run(m, regs).and_then(|()| nullable(m, regs, f, g));
                    let Some(w) = w else {
                        return Ok(Ctl::Walk);
                    };
                    inner.slots[i] = w.unwrap_or(NONE);
                    w.map_or(crate::value::Value::None, |w| value(t, w))
                }
                // Nothing was changed: the walker makes the call.
                Arg::Value(f) => match eval_value(m, regs, f) {
                    Some(v) => {
                        inner.slots[i] = word(&v).unwrap_or(NONE);
                        v
                    }
                    None => return Ok(Ctl::Walk),
                },
            };
        }
        let ctx = Ctx {
            locals,
            you: m.you(),
            this: m.this(),
        };
        let result = result.as_ref().map(|(s, i, t)| (*s, *i, t));
        run_body(m, regs, &mut inner, block, ctx, result)
    }))
}

/// `perform ABILITY of CARD [by PLAYER]`, the card and the player words.
pub(super) fn perform(
    sx: &mut stmts::Sx,
    ability: AbilityId,
    card: &Expr,
    as_card: Option<&Expr>,
    by: Option<&Expr>,
    span: Span,
) -> C<Step> {
    if !matches!(card.kind, ExprKind::Local(s) if sx.cx.type_of_local(s) == Some(&Ty::Card)) {
        return Err("`perform` of what is not known to be a card");
    }
    let cf = compile(&mut sx.cx, card)?;
    // `perform ... as THIS`: the card the body runs as, a word (`this` in a body's frame).
    let as_f = match as_card {
        Some(e) if stmts::type_of(&sx.cx, e) == Some(Ty::Card) => Some(compile(&mut sx.cx, e)?),
        Some(_) => return Err("`perform ... as` what is not known to be a card"),
        None => None,
    };
    let by = by.map(|e| compile(&mut sx.cx, e)).transpose()?;
    let ability = ability.index();
    Ok(Box::new(move |m, regs| {
        if regs.depth >= DEPTH {
            return Ok(Ctl::Walk);
        }
        let Some(c) = stmts::eval(m, regs, &cf) else {
            return Ok(Ctl::Walk);
        };
        let Some(kind) = usize::try_from(c)
            .ok()
            .and_then(|c| m.s.cards.get(c))
            .map(|cs| cs.kind as usize)
        else {
            return Ok(Ctl::Walk);
        };
        let p: &Program = m.p;
        let body = p
            .kinds
            .get(kind)
            .and_then(|k| k.abilities.get(ability))
            .and_then(|b| b.as_ref());
        let Some(body) = body else {
            return Ok(stmts::failed(m, span));
        };
        let you = match &by {
            Some(f) => match stmts::eval(m, regs, f) {
                Some(q) if (0..m.s.players as i64).contains(&q) => q as u8,
                _ => return Ok(Ctl::Walk),
            },
            None => m.s.card_owner(c as u32).unwrap_or(m.s.active),
        };
        if p.closures
            .as_deref()
            .and_then(|cl| cl.block_code(body.block))
            .is_none()
        {
            return Ok(Ctl::Walk);
        }
        let this = match &as_f {
            Some(f) => match stmts::eval(m, regs, f) {
                Some(t) if (0..m.s.cards.len() as i64).contains(&t) => t as u32,
                _ => return Ok(Ctl::Walk),
            },
            None => c as u32,
        };
        // Counted for the kind of the card it runs as, as the walker counts it.
        let performer =
            m.s.cards
                .get(this as usize)
                .map_or(kind, |cs| cs.kind as usize);
        let nk = p.kinds.len();
        if m.s.tally.performed.is_empty() {
            m.s.tally.performed = vec![0; m.s.players as usize * nk];
        }
        if let Some(n) = m.s.tally.performed.get_mut(you as usize * nk + performer) {
            *n += 1;
        }
        let mut inner = Regs {
            slots: [NONE; SLOTS],
            you,
            depth: regs.depth + 1,
        };
        let ctx = Ctx {
            locals: m.s.take_locals(body.slots as usize),
            you: Some(you),
            this: Some(this),
        };
        run_body(m, regs, &mut inner, body.block, ctx, None)
    }))
}

/// `emit E(args)`: the arguments by their value closures, in order (none draws at random; a pile
/// is read only where it holds the cards read, else the walker's statement refills it), then the
/// walker's `emit`, which pushes a frame of the triggers that listen, run before the next statement.
pub(super) fn emit(sx: &mut stmts::Sx, event: EventId, args: &[Expr]) -> C<Step> {
    if !args
        .iter()
        .all(|a| super::in_place::reads_piles(sx.pure, a))
    {
        return Err("an `emit` that may draw at random");
    }
    let values: Vec<Val> = (args.iter())
        .map(|a| compile_value(&mut sx.cx, a))
        .collect::<C<_>>()?;
    Ok(Box::new(move |m, regs| {
        let mut given = Vec::with_capacity(values.len());
        for f in &values {
            match eval_value(m, regs, f) {
                Some(v) => given.push(v),
                // Nothing was changed: the walker emits it.
                None => return Ok(Ctl::Walk),
            }
        }
        let before = m.s.frames.len();
        m.emit(event, &given);
        Ok(match m.s.frames.len() > before {
            true => Ctl::Pushed,
            false => Ctl::Next,
        })
    }))
}
