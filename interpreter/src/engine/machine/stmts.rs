//! Engine stage (the machine): blocks of statements run on the loop, in the walker's frame
//! `Frame::Code`, up to their end or to a statement that pushes the walker's frames.
//!
//! docs/engine.md, "Moving". The walker turns a block with an entry into a `Frame::Code` when it
//! is about to run it; `step_code` runs the loop from the frame's instruction. A `Walk` hands one
//! statement to the walker (`exec_walked`): when that pushed frames (a turn, a menu, a procedure's
//! body, triggers), the machine writes where it stopped and the registers of the loops around it
//! into its frame and returns; the walker runs the frames above, then this frame again.

use super::super::code::Code;
use super::super::exec::{At, Flow, Frame, Mach};
use super::{Exit, Run, R};
use crate::program::{AssignOp, BlockId, Program};
use crate::value::Value;
use cardgame_grammar::ast::Span;

/// The first instruction of block `b`'s entry, when it has one.
#[inline]
pub(crate) fn block_entry(p: &Program, b: BlockId) -> Option<u32> {
    let code = p.code.as_deref()?;
    let entry = *code.blocks.get(b.index())?;
    code.entries.get(entry as usize).map(|e| e.start)
}

/// The span of the instruction before `pc`: the statement a stopped block was running.
pub(crate) fn span_before(p: &Program, pc: u32) -> Option<Span> {
    let code = p.code.as_deref()?;
    code.spans.get(pc.checked_sub(1)? as usize).copied()
}

/// Runs the block of the `Frame::Code` on top of the stack from where it stopped.
pub(crate) fn step_code(m: &mut Mach<'_>) -> R<Flow> {
    let p = m.p;
    let frame = m.s.frames.len().wrapping_sub(1);
    let (code, pc, saved) = match (p.code.as_deref(), m.s.frames.last_mut()) {
        (Some(code), Some(Frame::Code { pc, regs })) => (code, *pc, std::mem::take(regs)),
        _ => {
            m.pop_frame();
            return Ok(Flow::Next);
        }
    };
    let mut regs = std::mem::take(&mut m.s.recycled.get().regs);
    let base = m.s.recycled.get().regs_top;
    let top = base + code.block_regs as usize;
    if regs.len() < top {
        regs.resize(top, Value::None);
    }
    for (i, v) in saved.into_vec().into_iter().enumerate() {
        regs[base + i] = v;
    }
    let mut run = Run {
        m,
        code,
        regs,
        top,
        frame,
    };
    let r = run.run(base, pc as usize);
    let Run { m, regs, .. } = run;
    m.s.recycled.get().regs = regs;
    match r? {
        Exit::Done => {
            if m.s.frames.len() == frame + 1 {
                m.pop_frame();
            }
            Ok(Flow::Next)
        }
        Exit::Left | Exit::Pushed => Ok(Flow::Next),
        Exit::Stop(s) => Ok(Flow::Stop(s)),
        Exit::Value(_) => Err(m.err(p.header, "a block returned a value".into())),
    }
}

impl Run<'_, '_> {
    /// Whether the block's frame is still on the stack (a failure in `strict`, a `return` or a
    /// `stop` unwinds it).
    pub(super) fn frame_stands(&self) -> bool {
        matches!(self.m.s.frames.get(self.frame), Some(Frame::Code { .. }))
    }

    /// Keeps where the block stopped (`pc`) and its first `live` registers in its frame.
    pub(super) fn suspend(&mut self, base: usize, pc: usize, live: u16) {
        let regs: Box<[Value]> = self.regs[base..base + live as usize]
            .iter_mut()
            .map(std::mem::take)
            .collect();
        if let Some(Frame::Code { pc: at, regs: keep }) = self.m.s.frames.get_mut(self.frame) {
            *at = pc as u32;
            *keep = regs;
        }
    }

    /// `Walk`: the walker runs statement `walks[w]`; `None` when the block goes on at `pc`.
    pub(super) fn walk(&mut self, base: usize, w: u32, pc: usize, live: u16) -> R<Option<Exit>> {
        let code: &Code = self.code;
        let Some(&(b, idx)) = code.walks.get(w as usize) else {
            return Err(self.m.err(self.m.p.header, "unknown statement".into()));
        };
        let at = At {
            block: BlockId(b),
            idx,
        };
        let Some(stmt) = self.m.stmt(at) else {
            return Err(self.m.err(self.m.p.header, "unknown statement".into()));
        };
        // The walker's evaluations run the machine in the registers above this block's.
        let rec = self.m.s.recycled.get();
        rec.regs = std::mem::take(&mut self.regs);
        let outer = std::mem::replace(&mut rec.regs_top, self.top);
        let flow = self.m.exec_walked(stmt, at);
        let rec = self.m.s.recycled.get();
        self.regs = std::mem::take(&mut rec.regs);
        rec.regs_top = outer;
        let flow = flow?;
        if !self.frame_stands() {
            return Ok(Some(match flow {
                Flow::Next => Exit::Left,
                Flow::Stop(s) => Exit::Stop(s),
            }));
        }
        let pushed = self.m.s.frames.len() > self.frame + 1;
        if pushed || matches!(flow, Flow::Stop(_)) {
            self.suspend(base, pc, live);
        }
        Ok(match flow {
            Flow::Stop(s) => Some(Exit::Stop(s)),
            Flow::Next if pushed => Some(Exit::Pushed),
            Flow::Next => None,
        })
    }

    /// `Assign`: writes the value in `src` through `assigns[a]`, as the walker's `Assign` does.
    pub(super) fn assign(
        &mut self,
        base: usize,
        at: usize,
        a: u32,
        holder: u16,
        src: u16,
    ) -> R<()> {
        let code: &Code = self.code;
        let Some(ac) = code.assigns.get(a as usize).copied() else {
            return Err(self.m.err(self.m.p.header, "unknown assignment".into()));
        };
        let span = code.spans[at];
        let place = self.place(base, &ac, holder)?;
        let v = std::mem::take(&mut self.regs[base + src as usize]);
        let new = match ac.op {
            AssignOp::Set => v,
            AssignOp::Add | AssignOp::Sub => {
                let cur = self.m.read_place(&place);
                self.m.combine(ac.op, cur, v, span)?
            }
        };
        self.m.write_place(&place, new, span)
    }
}
