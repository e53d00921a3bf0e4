//! Engine stage (closures): decision statements run inside a segment, posed as the walker poses them.
//!
//! `choose`, a menu of `actions`, branches (`choose { ... }`) and `simultaneously` compile to a
//! step that runs the walker's own statement (`Mach::exec_choose`, `exec_branch`, `exec_actions`,
//! a simultaneous decision's frame pushed by `Mach::push_simul`), so the pending decision, its
//! frame and the frames under it are the walker's. The parts of the statement that are words (who
//! decides, the number of a `choose N` or of a menu's `times N`, the branches' conditions) are
//! given by their closures where they compile and answer (`decide::Words`), asked where and when
//! the walker would evaluate them (after the checks), and a `simultaneously`'s seats by their
//! value closure; the walker evaluates the rest, and a `choose`'s
//! candidates are choices.rs's. The step then tells its segment how the statement ended:
//! posed (`Ctl::Paused`, the segment's frames made as the walker's, the block resuming after the
//! statement once it is answered), a frame pushed (`Ctl::Pushed`: a menu or a simultaneous
//! decision, posed by the walker's loop from its frame), unwound (`Ctl::Left`: a failure `strict`
//! caught). A decision that asked nothing (a `choose` of no candidate, a choice of none) also ends
//! its segment (`Ctl::Pushed`), so the work after it is charged where it resumes.

use super::expr::{compile, Int};
use super::stmts::{eval, type_of, Ctl, Regs, Step, Sx};
use super::value::{compile_value, eval_value};
use crate::engine::decide::Part;
use crate::engine::exec::{At, Flow, Mach};
use crate::program::{BranchIr, Choose, ChooseCount, Expr, MenuMode, Stmt, StmtKind, Ty};

/// Whether `st` is a decision statement (its step is this file's, and ends its segment).
pub(super) fn is_decision(st: &Stmt) -> bool {
    match &st.kind {
        StmtKind::Choose(..)
        | StmtKind::Actions { .. }
        | StmtKind::ChooseBranch { .. }
        | StmtKind::Simultaneously { .. } => true,
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
        | StmtKind::Stop
        | StmtKind::Perform { .. }
        | StmtKind::Emit(..)
        | StmtKind::Call(..)
        | StmtKind::CallLet(..)
        | StmtKind::Return(_)
        | StmtKind::Turn(..)
        | StmtKind::Phase(..)
        | StmtKind::Strict(_)
        | StmtKind::Round(_)
        | StmtKind::EndTurn
        | StmtKind::EndPhase
        | StmtKind::EndRound
        | StmtKind::Eliminate(_)
        | StmtKind::OutForRound(_)
        | StmtKind::Win(..)
        | StmtKind::WinTeam(..)
        | StmtKind::Stat(..)
        | StmtKind::StatAt(..)
        | StmtKind::Log(_)
        | StmtKind::LogTo(..) => false,
    }
}

/// The closures of a decision statement's parts that are words (`None`: the walker's).
struct Parts {
    by: Option<Int>,
    count: Option<Int>,
    conditions: Vec<Option<Int>>,
}

/// Compiles `e` where it is a word of type `t`.
fn word(sx: &mut Sx, e: &Expr, t: Ty) -> Option<Int> {
    (type_of(&sx.cx, e) == Some(t))
        .then(|| compile(&mut sx.cx, e).ok())
        .flatten()
}

impl Parts {
    /// The word `part`'s closure gives, if it compiled and answers.
    fn word(&self, m: &mut Mach, regs: &mut Regs, part: Part) -> Option<i64> {
        let f = match part {
            Part::By => self.by.as_ref(),
            Part::Count => self.count.as_ref(),
            Part::Condition(k) => self.conditions.get(k).and_then(Option::as_ref),
        }?;
        eval(m, regs, f)
    }
}

/// `x = choose ...`: who decides and the number of a `choose N` or `up to N` by their closures.
pub(super) fn choose(sx: &mut Sx, ch: &Choose, at: At) -> Step {
    let parts = Parts {
        by: ch.by.as_ref().and_then(|e| word(sx, e, Ty::Player)),
        count: match &ch.count {
            ChooseCount::Exactly(e) | ChooseCount::UpTo(e) => word(sx, e, Ty::Int),
            ChooseCount::One | ChooseCount::Order | ChooseCount::Any => None,
        },
        conditions: Vec::new(),
    };
    Box::new(move |m, regs| {
        let Some(
            st @ Stmt {
                kind: StmtKind::Choose(slot, ch),
                ..
            },
        ) = m.stmt(at)
        else {
            return Ok(Ctl::Walk);
        };
        let mut words = |m: &mut Mach, part| parts.word(m, regs, part);
        let mark = m.s.frames.len();
        let flow = m.exec_choose(st, *slot, ch, at, Some(&mut words))?;
        Ok(posed(m, mark, flow))
    })
}

/// `actions by P MODE [...]`: who decides and a menu's `times N` by their closures.
pub(super) fn actions(sx: &mut Sx, by: &Expr, mode: &MenuMode, at: At) -> Step {
    let parts = Parts {
        by: word(sx, by, Ty::Player),
        count: match mode {
            MenuMode::Times(n) => word(sx, n, Ty::Int),
            MenuMode::Once | MenuMode::OnceOrPass | MenuMode::UntilPass => None,
        },
        conditions: Vec::new(),
    };
    Box::new(move |m, regs| {
        let Some(st) = m.stmt(at) else {
            return Ok(Ctl::Walk);
        };
        let mut words = |m: &mut Mach, part| parts.word(m, regs, part);
        let mark = m.s.frames.len();
        let flow = m.exec_actions(st, at, Some(&mut words))?;
        Ok(posed(m, mark, flow))
    })
}

/// `choose by P { "label" if C { ... } ... }`: who decides and the branches' conditions by their
/// closures.
pub(super) fn branches(sx: &mut Sx, by: Option<&Expr>, branches: &[BranchIr], at: At) -> Step {
    let parts = Parts {
        by: by.and_then(|e| word(sx, e, Ty::Player)),
        count: None,
        conditions: (branches.iter())
            .map(|b| b.condition.as_ref().and_then(|c| word(sx, c, Ty::Bool)))
            .collect(),
    };
    Box::new(move |m, regs| {
        let Some(
            st @ Stmt {
                kind:
                    StmtKind::ChooseBranch {
                        by,
                        prompt,
                        branches,
                    },
                ..
            },
        ) = m.stmt(at)
        else {
            return Ok(Ctl::Walk);
        };
        let mut words = |m: &mut Mach, part| parts.word(m, regs, part);
        let mark = m.s.frames.len();
        let (by, prompt) = (by.as_ref(), prompt.as_ref());
        let flow = m.exec_branch(st, by, prompt, branches, at, Some(&mut words))?;
        Ok(posed(m, mark, flow))
    })
}

/// `simultaneously q in L choose ...`: its frame pushed for the seats of `L`, given by its value
/// closure (else the walker evaluates it); each seat's decision is posed from the frame by the
/// walker's loop (`step_simul`).
pub(super) fn simultaneous(sx: &mut Sx, players: &Expr, at: At) -> Step {
    let list = compile_value(&mut sx.cx, players).ok();
    Box::new(move |m, regs| {
        let Some(Stmt {
            kind: StmtKind::Simultaneously { players, .. },
            ..
        }) = m.stmt(at)
        else {
            return Ok(Ctl::Walk);
        };
        let v = match list.as_ref().and_then(|f| eval_value(m, regs, f)) {
            Some(v) => v,
            None => m.eval_at(crate::engine::sites::Site::Seats, players)?,
        };
        m.push_simul(v, players.span, at)?;
        Ok(Ctl::Pushed)
    })
}

/// How a decision statement that started with `mark` frames ended, for its segment.
fn posed(m: &Mach, mark: usize, flow: Flow) -> Ctl {
    match flow {
        flow if m.s.frames.len() < mark => Ctl::Left(flow),
        Flow::Stop(stop) => Ctl::Paused(stop),
        Flow::Next => Ctl::Pushed,
    }
}
