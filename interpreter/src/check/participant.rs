//! Checks stage: participants (`participant NAME "Name"`), players that are not seats. Each one is
//! a top-level name whose value is a player: the engine gives it the player number after the seats.

use super::{Compiler, Sym};
use crate::diag::Diagnostic;
use crate::program::{Expr, ExprKind, ParticipantDef};
use cardgame_grammar::ast;

impl Compiler<'_> {
    /// Declares `participant NAME "Name"`. The name shown must be plain text, not empty, and no other
    /// participant's (E314): traces, views and reports tell participants apart by it.
    pub(crate) fn declare_participant(&mut self, d: &ast::ParticipantDecl) {
        let display = d.display.plain().unwrap_or_default();
        let clash = self
            .p
            .participants
            .iter()
            .find(|p| p.display == display)
            .map(|p| p.span);
        if display.trim().is_empty() || clash.is_some() {
            let message = if display.trim().is_empty() {
                format!(
                    "the participant `{}` needs a name to show, in plain text",
                    d.name.name
                )
            } else {
                format!("two participants are shown as \"{display}\"")
            };
            let mut diag = Diagnostic::error("E314", d.display.span, message)
                .label("the name traces and reports show")
                .help("write a plain, distinct name: `participant automaton \"the Automated Opponent\"`");
            if let Some(first) = clash {
                diag = diag.related(first, "the other participant");
            }
            self.error(diag);
            return;
        }
        let i = self.p.participants.len() as u8;
        if self.declare(&d.name, Sym::Participant(i)) {
            self.p.participants.push(ParticipantDef {
                name: d.name.name.clone(),
                display,
                span: d.name.span,
            });
        }
    }

    /// A participant written where the rules need a seat: the one who decides (`by`), takes a turn
    /// or is offered actions (E315). A participant reached through a value (a local, `you`) is
    /// checked when the game runs.
    pub(crate) fn seat_needed(&mut self, e: &Expr, what: &str) {
        let ExprKind::Participant(i) = e.kind else {
            return;
        };
        let Some(d) = self.p.participants.get(i as usize) else {
            return;
        };
        let message = format!("`{}` is a participant, not a seat: it {what}", d.name);
        let first = d.span;
        self.error(
            Diagnostic::error("E315", e.span, message)
                .label("not a seat")
                .related(first, "declared here")
                .help("the script acts for a participant with statements; name a seat here (`seat(1)`, `p` of `for p in everyone`)"),
        );
    }
}
