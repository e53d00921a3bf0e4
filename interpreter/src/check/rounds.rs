//! Check stage: rounds (`round { }`, `end round`, `eliminate P for round`), E211.

use super::scope::Ctx;
use super::Compiler;
use crate::diag::Diagnostic;
use crate::program::StmtKind;
use cardgame_grammar::ast::{self, Span};

/// What the checker gathers about rounds while it lowers the bodies.
#[derive(Debug, Default)]
pub(crate) struct RoundUses {
    /// The script has a `round { }` somewhere.
    pub declared: bool,
    /// Every `end round` and `eliminate P for round`, with its words for the message.
    pub uses: Vec<(Span, &'static str)>,
}

impl<'s> Compiler<'s> {
    /// `round { }`: a round written inside a round is E211 (rounds do not nest).
    pub(super) fn round(&mut self, cx: &mut Ctx, span: Span, body: &ast::Block) -> StmtKind {
        self.rounds.declared = true;
        if cx.rounds > 0 {
            self.error(
                Diagnostic::error("E211", Span::new(span.start, span.start + 5), "a `round` inside a round")
                    .label("this round is inside another")
                    .help("rounds do not nest: the end of a round brings back every player out for the round; write the inner part as a `phase` or a `loop`"),
            );
        }
        cx.rounds += 1;
        let b = self.block(cx, body);
        cx.rounds -= 1;
        StmtKind::Round(b)
    }

    /// `end round` or `eliminate P for round`: noted, for E211 if the script has no round.
    pub(super) fn round_used(&mut self, span: Span, what: &'static str) {
        self.rounds.uses.push((span, what));
    }

    /// E211 for every use of a round in a script that has none.
    pub(super) fn check_rounds(&mut self) {
        if self.rounds.declared {
            return;
        }
        for (span, what) in std::mem::take(&mut self.rounds.uses) {
            self.error(
                Diagnostic::error("E211", span, format!("`{what}` in a script without a round"))
                    .label("no round to end")
                    .help("write the part of the flow that makes a round (a hand, a deal) as `round { ... }`: a player out for the round is back when it ends"),
            );
        }
    }
}
