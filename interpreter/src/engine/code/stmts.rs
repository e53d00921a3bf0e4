//! Engine stage (code): the compiler of statements: every block a walker's frame runs becomes one
//! entry, its statements compiled one after another, so that one run of the machine covers a body
//! up to the first statement that pushes the walker's frames.
//!
//! docs/engine.md, "Moving". Variables, `if`, loops, `require` and writes are instructions; a form
//! not compiled yet, or one that the walker's frames carry (turns, phases, decisions, calls of
//! procedures, triggers), is a `Walk` of the statement: the walker executes it, and the machine
//! resumes after it once the frames it pushed are done. The bodies of `if`s and loops are compiled
//! inside their block; every other block is an entry of its own.

use super::compile::{uncovered, Compiler};
use super::{AssignCode, Entry, Instr, MoveCode, PerformCode, PlaceCode, NO_ENTRY};
use crate::program::{AssignOp, BlockId, Stmt, StmtKind, Target};
use cardgame_grammar::ast::Span;

type C<T> = Result<T, super::Uncovered>;

/// The jumps of the `break`s of one loop, pointed at its end once it is known.
type Breaks = Vec<u32>;

impl Compiler<'_> {
    /// Gives every block that no `if` or loop holds an entry (`Code::blocks`).
    pub(super) fn blocks(&mut self) -> C<()> {
        let p = self.p;
        let mut inside = vec![false; p.blocks.len()];
        for b in &p.blocks {
            for s in &b.stmts {
                for held in held_blocks(s) {
                    if let Some(x) = inside.get_mut(held.index()) {
                        *x = true;
                    }
                }
            }
        }
        self.code.blocks = vec![NO_ENTRY; p.blocks.len()];
        for (i, held) in inside.iter().enumerate() {
            if *held {
                continue;
            }
            let start = self.here();
            self.next = 0;
            self.most = 0;
            let mut loops = Vec::new();
            self.block(BlockId(i as u16), &mut loops)?;
            self.emit(Instr::End, p.header);
            self.code.blocks[i] = self.code.entries.len() as u32;
            self.code.block_regs = self.code.block_regs.max(self.most);
            self.code.entries.push(Entry {
                start,
                regs: self.most,
            });
        }
        Ok(())
    }

    fn block(&mut self, b: BlockId, loops: &mut Vec<Breaks>) -> C<()> {
        let p = self.p;
        let Some(block) = p.blocks.get(b.index()) else {
            return Err(uncovered("an unknown block", p.header));
        };
        for (idx, s) in block.stmts.iter().enumerate() {
            let mark = self.next;
            self.stmt(b, idx as u32, s, loops)?;
            self.next = mark;
        }
        Ok(())
    }

    fn walk(&mut self, b: BlockId, idx: u32, span: Span) {
        self.code.walks.push((b.0, idx));
        let w = (self.code.walks.len() - 1) as u32;
        self.emit(Instr::Walk { w, live: self.next }, span);
    }

    fn stmt(&mut self, b: BlockId, idx: u32, s: &Stmt, loops: &mut Vec<Breaks>) -> C<()> {
        let span = s.span;
        match &s.kind {
            StmtKind::Let(slot, e) => {
                let r = self.value(e)?;
                self.emit(
                    Instr::SetLocal {
                        slot: *slot,
                        src: r,
                    },
                    span,
                );
            }
            StmtKind::Assign(Target::Local(slot), AssignOp::Set, e) => {
                let r = self.value(e)?;
                self.emit(
                    Instr::SetLocal {
                        slot: *slot,
                        src: r,
                    },
                    span,
                );
            }
            StmtKind::Assign(t, op, e) => {
                let src = self.value(e)?;
                let (place, holder, hs) = match t {
                    Target::Local(slot) => (PlaceCode::Local(*slot), src, span),
                    Target::Global(v) => (PlaceCode::Global(*v), src, span),
                    Target::Player(v, h) => (PlaceCode::Player(*v), self.value(h)?, h.span),
                    Target::Card(v, h) => (PlaceCode::Card(*v), self.value(h)?, h.span),
                };
                self.code.assigns.push(AssignCode {
                    op: *op,
                    place,
                    holder: hs,
                });
                let a = (self.code.assigns.len() - 1) as u32;
                self.emit(Instr::Assign { a, holder, src }, span);
            }
            StmtKind::If(branches, other) => {
                let mut ends = Vec::new();
                for (c, body) in branches {
                    let r = self.value(c)?;
                    let skip = self.emit(Instr::JumpUnless { c: r, to: 0 }, c.span);
                    self.next = r;
                    self.block(*body, loops)?;
                    ends.push(self.emit(Instr::Jump { to: 0 }, span));
                    let here = self.here();
                    self.patch(skip, here);
                }
                if let Some(body) = other {
                    self.block(*body, loops)?;
                }
                let end = self.here();
                for j in ends {
                    self.patch(j, end);
                }
            }
            StmtKind::For {
                slot,
                list,
                filter,
                body,
            } => {
                let it = self.alloc(3, span)?;
                self.into(list, it)?;
                self.emit(Instr::Snapshot { dst: it, src: it }, list.span);
                self.emit(
                    Instr::IterInit {
                        it,
                        list: it,
                        slot: *slot,
                    },
                    span,
                );
                let head = self.emit(
                    Instr::IterNext {
                        it,
                        slot: *slot,
                        end: 0,
                    },
                    span,
                );
                if let Some(f) = filter {
                    let t = self.value(f)?;
                    self.emit(Instr::JumpUnless { c: t, to: head }, f.span);
                    self.next = t;
                }
                loops.push(Breaks::new());
                self.block(*body, loops)?;
                self.emit(Instr::Jump { to: head }, span);
                let end = self.here();
                self.patch(head, end);
                self.end_loop(loops, end);
                self.emit(Instr::IterEnd { it, slot: *slot }, span);
            }
            StmtKind::While(c, body) => {
                let head = self.here();
                let r = self.value(c)?;
                let exit = self.emit(Instr::JumpUnless { c: r, to: 0 }, c.span);
                self.next = r;
                loops.push(Breaks::new());
                self.block(*body, loops)?;
                self.emit(Instr::Jump { to: head }, span);
                let end = self.here();
                self.patch(exit, end);
                self.end_loop(loops, end);
            }
            StmtKind::Repeat(n, body) => {
                let r = self.value(n)?;
                let head = self.emit(Instr::CountDown { n: r, end: 0 }, n.span);
                loops.push(Breaks::new());
                self.block(*body, loops)?;
                self.emit(Instr::Jump { to: head }, span);
                let end = self.here();
                self.patch(head, end);
                self.end_loop(loops, end);
            }
            StmtKind::Loop(body) => {
                let head = self.here();
                loops.push(Breaks::new());
                self.block(*body, loops)?;
                self.emit(Instr::Jump { to: head }, span);
                let end = self.here();
                self.end_loop(loops, end);
            }
            StmtKind::Break => {
                let j = self.emit(Instr::Jump { to: 0 }, span);
                match loops.last_mut() {
                    Some(breaks) => breaks.push(j),
                    None => {
                        return Err(uncovered(
                            "a `break` out of a turn's, a phase's or a decision's body",
                            span,
                        ))
                    }
                }
            }
            StmtKind::Require(c) => {
                let r = self.value(c)?;
                let at = self.here();
                self.emit(Instr::JumpIf { c: r, to: at + 2 }, c.span);
                self.emit(Instr::Fail, span);
            }
            StmtKind::Move {
                what,
                to,
                position,
                face,
            } => {
                self.emit(Instr::ShortClear, span);
                let w = self.value(what)?;
                let short = self.alloc(1, span)?;
                self.emit(Instr::ShortTake { dst: short }, what.span);
                let t = self.value(to)?;
                self.code.moves.push(MoveCode {
                    position: *position,
                    face: *face,
                    short,
                    what: what.span,
                    to: to.span,
                });
                let m = (self.code.moves.len() - 1) as u32;
                self.emit(Instr::Move { m, what: w, to: t }, span);
            }
            StmtKind::Perform {
                ability,
                card,
                as_card,
                by,
            } => {
                let live = self.next;
                let r = self.alloc(3, span)?;
                self.into(card, r)?;
                if let Some(x) = as_card {
                    self.into(x, r + 1)?;
                }
                if let Some(x) = by {
                    self.into(x, r + 2)?;
                }
                self.code.performs.push(PerformCode {
                    ability: *ability,
                    as_card: as_card.as_ref().map(|x| x.span),
                    by: by.as_ref().map(|x| x.span),
                    card: card.span,
                });
                let f = (self.code.performs.len() - 1) as u32;
                self.emit(Instr::Perform { f, card: r, live }, span);
            }
            StmtKind::Call(proc, args) | StmtKind::CallLet(_, proc, args) => {
                let live = self.next;
                let slot = match &s.kind {
                    StmtKind::CallLet(slot, ..) => *slot,
                    _ => u16::MAX,
                };
                let (first, n) = self.args(args, span)?;
                self.emit(
                    Instr::CallProc {
                        proc: proc.0,
                        first,
                        n,
                        slot,
                        live,
                    },
                    span,
                );
            }
            StmtKind::Return(e) => {
                let r = self.value(e)?;
                self.emit(Instr::Return { src: r }, span);
            }
            StmtKind::Log(t) => {
                self.code.walks.push((b.0, idx));
                let w = (self.code.walks.len() - 1) as u32;
                let at = self.emit(Instr::Log { w, skip: 0 }, span);
                let r = self.alloc(1, span)?;
                self.text(t, r, span)?;
                self.emit(Instr::LogPush { src: r }, span);
                let end = self.here();
                self.patch(at, end);
            }
            StmtKind::Stat(id, op, e) => {
                let r = self.value(e)?;
                let op = match op {
                    AssignOp::Set => 0,
                    AssignOp::Add => 1,
                    AssignOp::Sub => 2,
                };
                self.emit(
                    Instr::Stat {
                        id: *id,
                        op,
                        src: r,
                    },
                    e.span,
                );
            }
            StmtKind::Pay(e, t) => {
                let src = self.value(e)?;
                let (place, holder, hs) = match t {
                    Target::Local(slot) => (PlaceCode::Local(*slot), src, span),
                    Target::Global(v) => (PlaceCode::Global(*v), src, span),
                    Target::Player(v, h) => (PlaceCode::Player(*v), self.value(h)?, h.span),
                    Target::Card(v, h) => (PlaceCode::Card(*v), self.value(h)?, h.span),
                };
                self.code.assigns.push(AssignCode {
                    op: AssignOp::Sub,
                    place,
                    holder: hs,
                });
                let a = (self.code.assigns.len() - 1) as u32;
                self.emit(Instr::Pay { a, holder, src }, span);
            }
            StmtKind::Choose(..)
            | StmtKind::Shuffle(_)
            | StmtKind::Reveal(..)
            | StmtKind::Show(..)
            | StmtKind::Strict(_)
            | StmtKind::Stop
            | StmtKind::Emit(..)
            | StmtKind::Turn(..)
            | StmtKind::Phase(..)
            | StmtKind::EndTurn
            | StmtKind::EndPhase
            | StmtKind::Actions { .. }
            | StmtKind::ChooseBranch { .. }
            | StmtKind::Simultaneously { .. }
            | StmtKind::Eliminate(_)
            | StmtKind::Win(..)
            | StmtKind::WinTeam(..)
            | StmtKind::Round(_)
            | StmtKind::EndRound
            | StmtKind::OutForRound(_)
            | StmtKind::StatAt(..)
            | StmtKind::LogTo(..) => self.walk(b, idx, span),
        }
        Ok(())
    }

    fn end_loop(&mut self, loops: &mut Vec<Breaks>, end: u32) {
        for j in loops.pop().unwrap_or_default() {
            self.patch(j, end);
        }
    }
}

/// The blocks a statement holds that are compiled inside its own block (the bodies of `if`s and
/// loops); every other block a statement names runs in a frame of the walker's.
fn held_blocks(s: &Stmt) -> Vec<BlockId> {
    match &s.kind {
        StmtKind::If(branches, other) => branches
            .iter()
            .map(|(_, b)| *b)
            .chain(other.iter().copied())
            .collect(),
        StmtKind::For { body, .. }
        | StmtKind::While(_, body)
        | StmtKind::Repeat(_, body)
        | StmtKind::Loop(body) => vec![*body],
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
        | StmtKind::Strict(_)
        | StmtKind::Stop
        | StmtKind::Perform { .. }
        | StmtKind::Emit(..)
        | StmtKind::Call(..)
        | StmtKind::CallLet(..)
        | StmtKind::Return(_)
        | StmtKind::Turn(..)
        | StmtKind::Phase(..)
        | StmtKind::EndTurn
        | StmtKind::EndPhase
        | StmtKind::Actions { .. }
        | StmtKind::ChooseBranch { .. }
        | StmtKind::Simultaneously { .. }
        | StmtKind::Eliminate(_)
        | StmtKind::Win(..)
        | StmtKind::WinTeam(..)
        | StmtKind::Log(_)
        | StmtKind::LogTo(..)
        | StmtKind::Round(_)
        | StmtKind::EndRound
        | StmtKind::OutForRound(_)
        | StmtKind::Stat(..)
        | StmtKind::StatAt(..) => Vec::new(),
    }
}
