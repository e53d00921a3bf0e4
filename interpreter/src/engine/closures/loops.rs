//! Engine stage (closures): `while`, `repeat` and `loop` compiled, their bodies run inline, `break` caught.
//!
//! A compiled loop runs its body inline, pass after pass, with no frame of its own. Each pass
//! charges one unit of work (the walker's step of the loop's frame; a loop of an empty body
//! reaches the budget as the walker's does) and the body's statements (`blocks::inline`). A
//! compiled `break` answers [`Ctl::Break`]: the innermost compiled loop catches it and the
//! statement after the loop follows; the constructs that run a body inline between them
//! (`if`, `phase`, `strict`, `round`, `turn`) pop their frames and pass it on. A `break` that
//! reaches the head of a block's segment (segments.rs: a loop's body resumed after the walker's
//! statement, in the walker's loop frame) unwinds as the walker's (`Mach::leave_loop`). Where a
//! statement of the body is the walker's, or pushed frames, the loop's walker frame is made
//! (`While`, `Repeat` with the passes left, `Loop`) below the body's, and the walker goes on.

use super::blocks::{block, inline_charged, BlockCode};
use super::expr::compile;
use super::stmts::{charge, eval, Ctl, Regs, Step, Sx, R};
use crate::engine::exec::{At, Frame, Mach};
use crate::program::{BlockId, Expr};
use cardgame_grammar::ast::Span;

/// One pass of a compiled loop: its unit of work and its body's at the loop's `span`, then `code` inline with
/// `around` the loop's walker frame for where it pauses. `None`: the loop goes on; `Some`: it
/// ends with that (a `break` caught: the statement after the loop follows).
#[inline(always)]
pub(super) fn pass(
    m: &mut Mach,
    regs: &mut Regs,
    code: &BlockCode,
    span: Span,
    around: impl FnOnce() -> Option<Frame>,
) -> R<Option<Ctl>> {
    charge(m, 1 + code.charge[0], span)?;
    match inline_charged(m, regs, code, around)? {
        Ctl::Next => Ok(None),
        Ctl::Break => Ok(Some(Ctl::Next)),
        other => Ok(Some(other)),
    }
}

/// `while c { body }`.
pub(super) fn compile_while(
    sx: &mut Sx,
    c: &Expr,
    body: BlockId,
    at: At,
    span: Span,
) -> Result<Step, &'static str> {
    // A condition that draws inside, or reads a pile first, as an `if`'s (draws.rs, piles.rs),
    // tested before every pass.
    let (cf, refill, drawing) = super::draws::condition(sx, c)?;
    let code = block(sx, body);
    if drawing || refill.is_some() {
        return Ok(Box::new(move |m, regs| loop {
            match super::draws::tested(m, regs, refill.as_ref(), drawing, &cf) {
                None => return Ok(Ctl::Walk),
                Some(0) => return Ok(Ctl::Next),
                Some(_) => {}
            }
            if let Some(end) = pass(m, regs, &code, span, || Some(Frame::While { at }))? {
                return Ok(end);
            }
        }));
    }
    Ok(Box::new(move |m, regs| loop {
        match eval(m, regs, &cf) {
            // The walker tests the condition again: nothing was done since.
            None => return Ok(Ctl::Walk),
            Some(0) => return Ok(Ctl::Next),
            Some(_) => {}
        }
        if let Some(end) = pass(m, regs, &code, span, || Some(Frame::While { at }))? {
            return Ok(end);
        }
    }))
}

/// `repeat n { body }`.
pub(super) fn compile_repeat(
    sx: &mut Sx,
    n: &Expr,
    body: BlockId,
    span: Span,
) -> Result<Step, &'static str> {
    let nf = compile(&mut sx.cx, n)?;
    let code = block(sx, body);
    Ok(Box::new(move |m, regs| {
        let Some(n) = eval(m, regs, &nf) else {
            return Ok(Ctl::Walk);
        };
        let mut left = n;
        while left > 0 {
            left -= 1;
            let around = || {
                Some(Frame::Repeat {
                    left,
                    body: code.id,
                })
            };
            if let Some(end) = pass(m, regs, &code, span, around)? {
                return Ok(end);
            }
        }
        Ok(Ctl::Next)
    }))
}

/// `loop { body }`: ended by `break` (or by what leaves the block: `return`, `end turn`, a win).
pub(super) fn compile_loop(sx: &mut Sx, body: BlockId, span: Span) -> Step {
    let code = block(sx, body);
    Box::new(move |m, regs| loop {
        let around = || Some(Frame::Loop { body: code.id });
        if let Some(end) = pass(m, regs, &code, span, around)? {
            return Ok(end);
        }
    })
}

/// `break`: the innermost compiled loop running inline catches it; else the walker's loop frame
/// it is in is unwound where it reaches the head of the block's segment (segments.rs).
pub(super) fn compile_break() -> Step {
    Box::new(|_, _| Ok(Ctl::Break))
}
