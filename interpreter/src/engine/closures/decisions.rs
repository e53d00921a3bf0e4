//! Engine stage (closures): decision statements run inside a segment, posed as the walker poses them.
//!
//! `choose`, a menu of `actions`, branches (`choose { ... }`) and `simultaneously` compile to a
//! step that runs the walker's own statement (`Mach::exec_walked`: `exec_choose`, `exec_branch`, a
//! menu's or a simultaneous decision's frame pushed), so the pending decision, its frame and the
//! frames under it are the walker's; the step then tells its segment how the statement ended:
//! posed (`Ctl::Paused`, the segment's frames made as the walker's, the block resuming after the
//! statement once it is answered), a frame pushed (`Ctl::Pushed`: a menu or a simultaneous
//! decision, posed by the walker's loop from its frame), unwound (`Ctl::Left`: a failure `strict`
//! caught). A decision that asked nothing (a `choose` of no candidate, a choice of none) also ends
//! its segment (`Ctl::Pushed`), so the work after it is charged where it resumes.

use super::stmts::{Ctl, Step};
use crate::engine::exec::{At, Flow};
use crate::program::{Stmt, StmtKind};

/// Whether `st` is a decision statement (its step is `decision`'s, and ends its segment).
pub(super) fn is_decision(st: &Stmt) -> bool {
    matches!(
        st.kind,
        StmtKind::Choose(..)
            | StmtKind::Actions { .. }
            | StmtKind::ChooseBranch { .. }
            | StmtKind::Simultaneously { .. }
    )
}

/// The step of decision statement `at`.
pub(super) fn decision(at: At) -> Step {
    Box::new(move |m, _| {
        let Some(st) = m.stmt(at) else {
            return Ok(Ctl::Walk);
        };
        let mark = m.s.frames.len();
        let flow = m.exec_walked(st, at)?;
        Ok(match flow {
            flow if m.s.frames.len() < mark => Ctl::Left(flow),
            Flow::Stop(stop) => Ctl::Paused(stop),
            Flow::Next => Ctl::Pushed,
        })
    })
}
