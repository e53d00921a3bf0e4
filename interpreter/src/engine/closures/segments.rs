//! Engine stage (closures): bodies run as segments of compiled statements, resumable at decisions.
//!
//! Every body that runs in a frame of its own (the setup, the flow, procedures, actions' effects,
//! abilities, triggers) is compiled block by block (stmts.rs). At run time a block's frame
//! (`Frame::Block { block, pc }`) is the resume point: from statement `pc`, the compiled
//! statements up to the first one the walker runs (a decision, a call, a turn) form one segment,
//! run in one step of the walker's loop with the block's work charged once. Nested `if`s and
//! loops run inline; where one of their statements is the walker's, or pushes a frame, the
//! walker's frames for that position are made (the loop's, the nested block's), so a decision
//! inside compiled code pauses as the walker's would and resumes on the closures. A check's body
//! is compiled too; the reads of a guarded check's conditions, noted for `watch`, are the
//! walker's (watch.rs).

use super::blocks::{self, BlockCode};
use super::env::{NONE, SLOTS};
use super::expr::Cx;
use super::stmts::{self, charge, Ctl, Step, Sx};
use crate::engine::exec::{At, Flow, Frame, Mach, Stop, TurnStage};
use crate::program::{BlockId, Body, Expr, Program, Ty};
use std::sync::Arc;

/// Compiles every body of `p` that runs in a frame; the blocks by id (`None`: not compiled).
pub(crate) fn build(
    p: &Program,
    fns: &std::rc::Rc<super::functions::Callables>,
) -> Vec<Option<Arc<BlockCode>>> {
    let mut blocks = Vec::new();
    let judged = crate::purity::Judged::of(p);
    let mut body = |b: &Body, params: &[Ty], ret: Option<Ty>| {
        let mut cx = Cx::new(p, b.slots as usize);
        cx.fns = fns.clone();
        cx.locals = true;
        for (s, t) in params.iter().enumerate() {
            cx.set_type(s as u16, t.clone());
        }
        if cx.slot(b.slots.saturating_sub(1)).is_err() {
            return;
        }
        let mut sx = Sx {
            cx,
            pure: &judged,
            ret,
            blocks: &mut blocks,
        };
        blocks::block(&mut sx, b.block);
    };
    for b in p.setup.iter().chain(&p.flow).chain(&p.checks) {
        body(b, &[], None);
    }
    for d in &p.procs {
        body(&d.body, &d.params, d.ret.clone());
    }
    for a in &p.actions {
        // A parameter is a word of its domain's item type; any other is left unknown (its reads
        // are the walker's context's).
        let mut cx = Cx::new(p, a.body.slots as usize);
        let params: Vec<Ty> = (a.params.iter().enumerate())
            .map(|(i, e)| {
                let t = super::each::item_type(&cx, e).unwrap_or(Ty::Any);
                cx.set_type(i as u16, t.clone());
                t
            })
            .collect();
        body(&a.body, &params, None);
    }
    for k in &p.kinds {
        for b in k.abilities.iter().flatten() {
            body(b, &[], None);
        }
        for t in &k.triggers {
            body(&t.body, &event_params(p, t), None);
        }
    }
    for t in &p.triggers {
        body(&t.body, &event_params(p, t), None);
    }
    // A rules test's `given` and `do` blocks, each run nested in a context of the test's slots.
    for t in &p.tests {
        let done = (t.steps.iter()).filter_map(|s| match s.kind {
            crate::program::TestStepKind::Do(block) => Some(block),
            _ => None,
        });
        for block in t.given.iter().map(|g| g.block).chain(done) {
            body(
                &Body {
                    block,
                    slots: t.slots,
                },
                &[],
                None,
            );
        }
    }
    blocks
}

fn event_params(p: &Program, t: &crate::program::TriggerDef) -> Vec<Ty> {
    p.events
        .get(t.event.index())
        .map_or(Vec::new(), |e| e.params.clone())
}

/// The compiled code of block `b` when its statement `i` starts a segment (it compiled); `None`:
/// statement `i` is the walker's. Inlined in the walker's loop, so that a statement of the walker's
/// costs no more on `Engine::Closures` than on the walker.
#[inline(always)]
pub(crate) fn segment(p: &Program, b: BlockId, i: u32) -> Option<&BlockCode> {
    let code = p.closures.as_deref()?.block_code(b)?;
    match code.steps.get(i as usize) {
        Some(Some(_)) => Some(code),
        _ => None,
    }
}

/// Runs the segment of `code` that starts at statement `i` (compiled: `segment`), the block's
/// frame on top of the stack (its `pc` already past `i`); `None` when the first statement
/// answered `Ctl::Walk` (nothing done: the walker runs it), an error when it gave way for a
/// runtime error its closures met (`Mach::fault`).
#[inline(never)]
pub(crate) fn run(m: &mut Mach, code: &BlockCode, i: u32) -> stmts::R<Option<Flow>> {
    let frame = m.s.frames.len() - 1;
    // Slots the block does not read stay `NONE`; past the context's locals they are written
    // before they are read (a function's frame).
    let mut regs = stmts::Regs {
        slots: [NONE; SLOTS],
        you: 0,
        depth: 0,
    };
    stmts::load(m, &mut regs, code.reads);
    charge(m, code.charge[i as usize], code.span)?;
    m.fault = None;
    let mut k = i as usize;
    while let Some(Some(step)) = code.steps.get(k) {
        match step(m, &mut regs)? {
            Ctl::Next => k += 1,
            Ctl::Walk if k == i as usize => {
                // A runtime error its closures met is the walker's for this statement: raised
                // here. In debug builds the walker runs the statement instead, and
                // `Mach::run_block` checks that it fails with the same error.
                #[cfg(not(debug_assertions))]
                if let Some(Some(fault)) = m.fault.take() {
                    return Err(m.err(fault.span, fault.message(m.p)));
                }
                return Ok(None);
            }
            Ctl::Walk => break,
            Ctl::Pushed => {
                k += 1;
                break;
            }
            Ctl::Paused(stop) => {
                if let Some(Frame::Block { pc, .. }) = m.s.frames.get_mut(frame) {
                    *pc = k as u32 + 1;
                }
                return Ok(Some(Flow::Stop(stop)));
            }
            Ctl::Left(flow) => return Ok(Some(flow)),
            // Out of the loops run inline: the walker's loop frame below is left (loops.rs).
            Ctl::Break => {
                m.leave_loop(code.span)?;
                return Ok(Some(Flow::Next));
            }
            Ctl::Return(_) => {
                let span = code.span;
                return Err(m.err(span, "`return` outside an inline call".into()));
            }
        }
    }
    if let Some(Frame::Block { pc, .. }) = m.s.frames.get_mut(frame) {
        *pc = k as u32;
    }
    Ok(Some(Flow::Next))
}

/// `phase NAME { body }`: its frame pushed (errors name the phase, `end phase` unwinds to it), its
/// event while recording, the body run as `framed` runs it.
pub(super) fn phase(sx: &mut Sx, name: &str, body: BlockId, at: At) -> Step {
    let (code, name) = (blocks::block(sx, body), name.to_string());
    Box::new(move |m, regs| {
        if m.s.record {
            let name = name.clone();
            m.s.events.push(crate::engine::trace::Event::Phase { name });
        }
        framed(m, regs, &code, Frame::Phase { at })
    })
}

/// `strict { body }`: its frame pushed (a failure inside unwinds to it), the body run as `framed`
/// runs it.
pub(super) fn strict(sx: &mut Sx, body: BlockId) -> Step {
    let code = blocks::block(sx, body);
    Box::new(move |m, regs| framed(m, regs, &code, Frame::Strict))
}

/// `round { body }` outside a round (inside one, the walker's error): its frame pushed (popped, it
/// brings back the players out for the round), the body run as `framed` runs it.
pub(super) fn round(sx: &mut Sx, body: BlockId) -> Step {
    let code = blocks::block(sx, body);
    Box::new(move |m, regs| {
        if m.s.frames.iter().any(|f| matches!(f, Frame::Round)) {
            return Ok(Ctl::Walk);
        }
        framed(m, regs, &code, Frame::Round)
    })
}

/// `end round`: unwinds the innermost round's frame (in `round` when its body ran inline, the
/// statement after it follows); outside a round, the walker's error.
pub(super) fn end_round() -> Step {
    Box::new(|m, _| {
        let Some(i) = (m.s.frames.iter()).rposition(|f| matches!(f, Frame::Round)) else {
            return Ok(Ctl::Walk);
        };
        m.unwind_to(i);
        Ok(Ctl::Left(Flow::Next))
    })
}

/// A block run inline above `frame`: the frame popped when the body ends there (or gives its
/// `return` to an inline call), or when the body unwound it (`end phase`, `end round`, a failure
/// `strict` caught): the statement after it follows. Where the body pauses, the frames stay as the
/// walker's.
fn framed(m: &mut Mach, regs: &mut stmts::Regs, code: &BlockCode, frame: Frame) -> stmts::R<Ctl> {
    let mark = m.s.frames.len();
    m.s.frames.push(frame);
    match blocks::inline(m, regs, code, || None)? {
        Ctl::Next => {
            m.pop_frame();
            Ok(Ctl::Next)
        }
        Ctl::Return(w) => {
            m.pop_frame();
            Ok(Ctl::Return(w))
        }
        // Out of the frame to the loop around it, as the walker's `break` unwinds it.
        Ctl::Break => {
            m.unwind_to(mark);
            Ok(Ctl::Break)
        }
        // Unwound to this frame's place. (A compiled turn's frame below it has the stage `Body`
        // while its body runs inline; `End`: `end turn` unwound this frame with it.)
        Ctl::Left(Flow::Next) if m.s.frames.len() == mark && !ended(m) => Ok(Ctl::Next),
        other => Ok(other),
    }
}

/// `end turn`: unwinds to the innermost turn's frame, whose end follows (in `turn` when its body
/// ran inline); outside a turn, the walker's error.
pub(super) fn end_turn() -> Step {
    Box::new(|m, _| {
        let Some(i) = (m.s.frames.iter()).rposition(|f| matches!(f, Frame::Turn { .. })) else {
            return Ok(Ctl::Walk);
        };
        m.unwind_to(i + 1);
        if let Some(Frame::Turn { stage, .. }) = m.s.frames.last_mut() {
            if *stage == TurnStage::Body {
                *stage = TurnStage::End;
            }
        }
        Ok(Ctl::Left(Flow::Next))
    })
}

/// `end phase`: unwinds the innermost phase's frame (in `phase` when its body ran inline, the
/// statement after it follows); outside a phase, the walker's error.
pub(super) fn end_phase() -> Step {
    Box::new(|m, _| {
        let Some(i) = (m.s.frames.iter()).rposition(|f| matches!(f, Frame::Phase { .. })) else {
            return Ok(Ctl::Walk);
        };
        m.unwind_to(i);
        Ok(Ctl::Left(Flow::Next))
    })
}

/// `turn P { body }` of a seat that lives (past the turn limit, the game's end): its frame
/// pushed, the turn counted and its event while recording, then the body inline above the frame,
/// `turn end`'s triggers and the checks, the frame popped (the active player back). Where a
/// trigger listens to the turn's start or end, or the body pauses, the frames stay as the
/// walker's; a `return` to an inline call leaves the turn as the walker's `leave_call` does.
pub(super) fn turn(sx: &mut Sx, e: &Expr, body: BlockId) -> super::expr::C<Step> {
    if stmts::type_of(&sx.cx, e) != Some(Ty::Player) {
        return Err("`turn` of what is not known to be a player");
    }
    let pf = super::expr::compile(&mut sx.cx, e)?;
    let none = super::nones::holds_none(&mut sx.cx, e);
    let (code, span) = (blocks::block(sx, body), e.span);
    Ok(Box::new(move |m, regs| {
        let player = match stmts::eval(m, regs, &pf) {
            Some(p) if (0..m.s.players as i64).contains(&p) => p as u8,
            None if super::nones::held(&none, m, regs) => {
                return stmts::fails(m, span, super::env::Failure::Expected("a player"));
            }
            _ => return Ok(Ctl::Walk),
        };
        if !m.s.living(player) {
            return Ok(Ctl::Next);
        }
        if m.s.turn >= m.s.fixed.max_turns {
            return Ok(Ctl::Left(m.turn_limit()));
        }
        let prev = m.s.active;
        m.s.frames.push(Frame::Turn {
            player,
            prev,
            stage: TurnStage::Body,
            body,
        });
        let mark = m.s.frames.len();
        m.s.active = player;
        // `you` is the active player where the context names none, as the walker reads it; given
        // back where the body goes on inline after the turn (where it pauses, the slots are
        // loaded again when it resumes).
        let you = regs.you;
        if m.you().is_none() {
            regs.you = player;
        }
        m.s.turn += 1;
        m.s.turn_steps = m.s.steps;
        if m.s.record {
            let (turn, name) = (m.s.turn, m.s.name(player));
            let event = crate::engine::trace::Event::Turn { turn, player, name };
            m.s.events.push(event);
        }
        let ev = m.p.turn_start;
        m.emit(ev, &[crate::value::Value::Player(player)]);
        if m.s.frames.len() > mark {
            return Ok(Ctl::Pushed);
        }
        // The stage stays `Body` while the body runs inline: `end turn` makes it `End`.
        match blocks::inline(m, regs, &code, || None)? {
            Ctl::Next => {}
            Ctl::Return(w) => {
                m.pop_frame();
                regs.you = you;
                return Ok(Ctl::Return(w));
            }
            // Out of the turn to the loop around it (no end: the walker's `break` unwinds it).
            Ctl::Break => {
                m.unwind_to(mark - 1);
                regs.you = you;
                return Ok(Ctl::Break);
            }
            // `end turn` in the body unwound to this turn: its end follows.
            Ctl::Left(Flow::Next) if m.s.frames.len() == mark && ended(m) => {}
            ctl @ (Ctl::Pushed | Ctl::Paused(_)) => {
                // Paused: the walker's frames, the turn's body pushed.
                if let Some(Frame::Turn { stage, .. }) = m.s.frames.get_mut(mark - 1) {
                    *stage = TurnStage::End;
                }
                return Ok(ctl);
            }
            other => return Ok(other),
        }
        set_stage(m, TurnStage::Checks);
        let ev = m.p.turn_end;
        m.emit(ev, &[crate::value::Value::Player(player)]);
        if m.s.frames.len() > mark {
            return Ok(Ctl::Pushed);
        }
        if let Some(o) = m.run_checks()? {
            return Ok(Ctl::Left(Flow::Stop(Stop::Over(Box::new(o)))));
        }
        m.pop_frame();
        regs.you = you;
        Ok(Ctl::Next)
    }))
}

/// Whether the frame on top is a turn `end turn` ended.
fn ended(m: &Mach) -> bool {
    matches!(
        m.s.frames.last(),
        Some(Frame::Turn {
            stage: TurnStage::End,
            ..
        })
    )
}

/// The stage of the turn whose frame is on top.
fn set_stage(m: &mut Mach, to: TurnStage) {
    if let Some(Frame::Turn { stage, .. }) = m.s.frames.last_mut() {
        *stage = to;
    }
}
