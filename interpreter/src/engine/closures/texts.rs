//! Engine stage (closures): texts (`"{x} ..."`: a value, an option's label, a prompt) built from
//! their parts' value closures.
//!
//! A text is written as the walker's `text_into` writes it (label.rs): each part's value as text,
//! a card the viewer may not see as "a card from ZONE". Where a part's closure cannot answer, or
//! the text grows longer than the walker allows, it answers `None` and the walker builds the text
//! (failing where it fails). Its work is not counted (docs/engine.md, "Where work is charged").

use super::env::Env;
use super::expr::{Cx, C};
use super::stmts::Regs;
use super::value::{compile_value, Val};
use crate::engine::eval::MAX_LIST;
use crate::engine::exec::Mach;
use crate::engine::label::{label_into, label_seen_into};
use crate::program::{Stmt, StmtKind, TextIr, TextPartIr};
use crate::value::Value;

/// A text compiled: its parts in order, and the slots its closures read.
pub(crate) struct Text {
    parts: Vec<Part>,
    reads: u32,
}

enum Part {
    Lit(Box<str>),
    Value(Val),
}

/// Compiles text `t` (`Err`: a part did not compile, or no part is evaluated: the walker builds
/// the text, writing it out as it stands).
pub(crate) fn compile(cx: &mut Cx, t: &TextIr) -> C<Text> {
    if !(t.parts.iter()).any(|part| matches!(part, TextPartIr::Expr(_))) {
        return Err("a text of no part to evaluate");
    }
    let outer = std::mem::take(&mut cx.reads);
    let parts = (t.parts.iter())
        .map(|part| match part {
            TextPartIr::Lit(w) => Ok(Part::Lit(w.as_str().into())),
            TextPartIr::Expr(e) => compile_value(cx, e).map(Part::Value),
        })
        .collect::<C<Vec<Part>>>();
    let reads = cx.reads;
    cx.reads |= outer;
    Ok(Text {
        parts: parts?,
        reads,
    })
}

impl Text {
    /// Writes the text into `out` (emptied first), shown to `viewer` when one is given.
    pub(crate) fn write(&self, env: &mut Env, viewer: Option<u8>, out: &mut String) -> Option<()> {
        out.clear();
        for part in &self.parts {
            match part {
                Part::Lit(w) => out.push_str(w),
                Part::Value(f) => {
                    let v = f(env)?;
                    match viewer {
                        Some(seat) => label_seen_into(env.p, env.l, env.s, &v, seat, out),
                        None => label_into(env.p, env.l, env.s, &v, out),
                    }
                    if out.len() > MAX_LIST {
                        return None;
                    }
                }
            }
        }
        Some(())
    }

    /// The value of the text's `j`-th part that is not written out (`None`: its closure cannot
    /// answer).
    pub(crate) fn part(&self, j: usize, env: &mut Env) -> Option<Value> {
        match self
            .parts
            .iter()
            .filter(|p| matches!(p, Part::Value(_)))
            .nth(j)?
        {
            Part::Value(f) => f(env),
            Part::Lit(_) => None,
        }
    }

    /// The text built in the frame the walker stands in (its locals in its context), shown to
    /// `viewer` when one is given, into `out`; `None` where the walker must build it.
    pub(crate) fn build(&self, m: &Mach, viewer: Option<u8>, out: &mut String) -> Option<()> {
        let mut regs = Regs::loaded(m, self.reads);
        let mut env = Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots);
        self.write(&mut env, viewer, out)
    }
}

/// The texts a statement builds where it stands: a decision's prompt (a `choose`, branches) and
/// its branches' labels after it, the text of a `log`, a `log to`, a `win`.
pub(super) fn of_stmt(st: &Stmt) -> Vec<Option<&TextIr>> {
    match &st.kind {
        StmtKind::Choose(_, ch) => vec![ch.prompt.as_ref()],
        StmtKind::ChooseBranch {
            prompt, branches, ..
        } => std::iter::once(prompt.as_ref())
            .chain(branches.iter().map(|b| Some(&b.label)))
            .collect(),
        StmtKind::Log(t)
        | StmtKind::LogTo(t, _)
        | StmtKind::Win(_, t)
        | StmtKind::WinTeam(_, t) => vec![Some(t)],
        StmtKind::Let(..)
        | StmtKind::Assign(..)
        | StmtKind::Move { .. }
        | StmtKind::Shuffle(_)
        | StmtKind::Pay(..)
        | StmtKind::Reveal(..)
        | StmtKind::Show(..)
        | StmtKind::If(..)
        | StmtKind::For { .. }
        | StmtKind::While(..)
        | StmtKind::Repeat(..)
        | StmtKind::Loop(_)
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
        | StmtKind::Round(_)
        | StmtKind::EndTurn
        | StmtKind::EndPhase
        | StmtKind::EndRound
        | StmtKind::Actions { .. }
        | StmtKind::Simultaneously { .. }
        | StmtKind::Eliminate(_)
        | StmtKind::OutForRound(_)
        | StmtKind::Stat(..)
        | StmtKind::StatAt(..) => Vec::new(),
    }
}
