//! Engine stage (closures): a block's statements compiled, and a compiled block run inline.
//!
//! `block` compiles every statement of a block once (stmts.rs), with what a decision needs beside
//! it (a `choose`'s candidates, a `while`'s condition, the statement's texts) and the work charged
//! from each statement; `inline` runs a block's steps where they lie, making the walker's frames
//! for the position where one of them is the walker's or pushed frames.

use super::stmts::{charge, stmt, Ctl, Regs, Step, Sx, R};
use crate::engine::exec::{At, Frame, Mach};
use crate::program::{BlockId, ChooseCount, Program, Stmt, StmtKind, Ty};
use cardgame_grammar::ast::Span;
use std::sync::Arc;

/// A block's statements compiled (`None`: the walker's), and the work charged when the block is
/// entered at each statement: the statements from there to the first one not compiled.
pub(crate) struct BlockCode {
    pub id: BlockId,
    /// The slots its closures read (`Cx::reads`), its nested blocks' included.
    pub reads: u32,
    pub steps: Vec<Option<Step>>,
    /// Per statement, a `choose`'s candidates compiled (choices.rs).
    pub choices: Vec<Option<super::choices::Domain>>,
    /// Per statement, a `while`'s condition or a `for`'s filter compiled, for the walker's loop
    /// frame (choices.rs).
    pub conditions: Vec<Option<super::choices::Condition>>,
    /// Per statement, its texts compiled (`texts::of_stmt`).
    pub texts: Vec<Vec<Option<super::texts::Text>>>,
    pub charge: Vec<u32>,
    pub span: Span,
}

/// Compiles block `id` (once: a block belongs to one body) and records it by id.
pub(crate) fn block(sx: &mut Sx, id: BlockId) -> Arc<BlockCode> {
    if let Some(Some(done)) = sx.blocks.get(id.index()) {
        sx.cx.reads |= done.reads;
        return done.clone();
    }
    let outer = std::mem::take(&mut sx.cx.reads);
    let p: &Program = sx.cx.p;
    let stmts: &[Stmt] = p.blocks.get(id.index()).map_or(&[], |b| &b.stmts);
    let mut choices = Vec::with_capacity(stmts.len());
    let mut conditions = Vec::with_capacity(stmts.len());
    let mut texts = Vec::with_capacity(stmts.len());
    let steps: Vec<Option<Step>> = (stmts.iter().enumerate())
        .map(|(i, st)| {
            let at = At {
                block: id,
                idx: i as u32,
            };
            // A decision's candidates, compiled with the frame's types before it.
            conditions.push(match &st.kind {
                StmtKind::While(c, _) => super::choices::compile_condition(sx, c),
                StmtKind::For {
                    slot,
                    list,
                    filter: Some(f),
                    ..
                } => super::choices::compile_filter(sx, *slot, list, f),
                _ => None,
            });
            choices.push(match &st.kind {
                StmtKind::Choose(_, ch) => {
                    let (var, filter) = (ch.var, ch.filter.as_ref());
                    super::choices::compile_domain(sx, var, &ch.domain, filter, None)
                }
                // Each seat's candidates and number of them to choose, the seat in its slot (and
                // `you`, from the context).
                StmtKind::Simultaneously {
                    player,
                    count,
                    var,
                    domain,
                    filter,
                    ..
                } => {
                    sx.cx.set_type(*player, Ty::Player);
                    let n = match count {
                        ChooseCount::Exactly(n) | ChooseCount::UpTo(n) => Some(n),
                        ChooseCount::One | ChooseCount::Order | ChooseCount::Any => None,
                    };
                    super::choices::compile_domain(sx, *var, domain, filter.as_ref(), n)
                }
                _ => None,
            });
            texts.push(
                (super::texts::of_stmt(st).into_iter())
                    .map(|t| t.and_then(|t| super::texts::compile(&mut sx.cx, t).ok()))
                    .collect(),
            );
            let step = stmt(sx, st, at).ok();
            // The blocks inside a statement the walker runs are entered by the walker: each
            // is compiled for itself (with what the frame's types are known to be here). A
            // `simultaneously`'s body reads the seat and, choosing one, its answer (`none` when it
            // had no candidate: the slot then holds no word).
            if let StmtKind::Simultaneously {
                player,
                count,
                var,
                domain,
                ..
            } = &st.kind
            {
                sx.cx.set_type(*player, Ty::Player);
                match (count, super::each::item_type(&sx.cx, domain)) {
                    (ChooseCount::One, Some(t)) => sx.cx.set_type(*var, t),
                    _ => {
                        if let Some(t) = sx.cx.types.get_mut(*var as usize) {
                            *t = None;
                        }
                    }
                }
            }
            for b in nested(st) {
                block(sx, b);
            }
            step
        })
        .collect();
    let mut charge = vec![0u32; steps.len() + 1];
    for i in (0..steps.len()).rev() {
        // A decision ends its segment (decisions.rs): the work after it is charged where it
        // resumes.
        charge[i] = match &steps[i] {
            None => 0,
            Some(_) if super::decisions::is_decision(&stmts[i]) => 1,
            Some(_) => charge[i + 1] + 1,
        };
    }
    let span = stmts.first().map_or(p.header, |s| s.span);
    let reads = sx.cx.reads;
    sx.cx.reads |= outer;
    let code = Arc::new(BlockCode {
        id,
        reads,
        steps,
        choices,
        conditions,
        texts,
        charge,
        span,
    });
    if sx.blocks.len() <= id.index() {
        sx.blocks.resize_with(id.index() + 1, || None);
    }
    sx.blocks[id.index()] = Some(code.clone());
    code
}

/// The blocks a statement holds.
fn nested(st: &Stmt) -> Vec<BlockId> {
    match &st.kind {
        StmtKind::If(branches, other) => branches.iter().map(|(_, b)| *b).chain(*other).collect(),
        StmtKind::For { body, .. }
        | StmtKind::While(_, body)
        | StmtKind::Repeat(_, body)
        | StmtKind::Loop(body)
        | StmtKind::Strict(body)
        | StmtKind::Turn(_, body)
        | StmtKind::Phase(_, body)
        | StmtKind::Round(body)
        | StmtKind::Simultaneously { body, .. } => vec![*body],
        StmtKind::ChooseBranch { branches, .. } => branches.iter().map(|b| b.body).collect(),
        StmtKind::Let(..)
        | StmtKind::Choose(..)
        | StmtKind::Assign(..)
        | StmtKind::Move { .. }
        | StmtKind::Shuffle(_)
        | StmtKind::Pay(..)
        | StmtKind::Reveal(..)
        | StmtKind::Show(..)
        | StmtKind::Break
        | StmtKind::Require(_)
        | StmtKind::Stop
        | StmtKind::Perform { .. }
        | StmtKind::Emit(..)
        | StmtKind::Call(..)
        | StmtKind::CallLet(..)
        | StmtKind::Return(_)
        | StmtKind::EndTurn
        | StmtKind::EndPhase
        | StmtKind::EndRound
        | StmtKind::Actions { .. }
        | StmtKind::Eliminate(_)
        | StmtKind::OutForRound(_)
        | StmtKind::Win(..)
        | StmtKind::WinTeam(..)
        | StmtKind::Stat(..)
        | StmtKind::StatAt(..)
        | StmtKind::Log(_)
        | StmtKind::LogTo(..) => Vec::new(),
    }
}

/// Runs `code` inline from its start, its work charged. Where a statement is the walker's, or
/// pushed frames, the walker's frames for the position are made: `around` (the loop's frame, when
/// the block is a loop's body) and the block's own, resuming there.
#[inline(always)]
pub(crate) fn inline(
    m: &mut Mach,
    regs: &mut Regs,
    code: &BlockCode,
    around: impl FnOnce() -> Option<Frame>,
) -> R<Ctl> {
    charge(m, code.charge[0], code.span)?;
    inline_charged(m, regs, code, around)
}

/// `inline` of a block whose work the caller charged (a loop's pass: loops.rs).
#[inline(always)]
pub(crate) fn inline_charged(
    m: &mut Mach,
    regs: &mut Regs,
    code: &BlockCode,
    around: impl FnOnce() -> Option<Frame>,
) -> R<Ctl> {
    for (j, step) in code.steps.iter().enumerate() {
        let mark = m.s.frames.len();
        let ctl = match step {
            Some(f) => f(m, regs)?,
            None => Ctl::Walk,
        };
        let (pc, up) = match ctl {
            Ctl::Next => continue,
            Ctl::Left(flow) => return Ok(Ctl::Left(flow)),
            Ctl::Return(w) => return Ok(Ctl::Return(w)),
            Ctl::Break => return Ok(Ctl::Break),
            Ctl::Walk => (j as u32, Ctl::Pushed),
            Ctl::Pushed => (j as u32 + 1, Ctl::Pushed),
            paused @ Ctl::Paused(_) => (j as u32 + 1, paused),
        };
        let block = Frame::Block { block: code.id, pc };
        m.s.frames.insert(mark, block);
        if let Some(f) = around() {
            m.s.frames.insert(mark, f);
        }
        return Ok(up);
    }
    Ok(Ctl::Next)
}
