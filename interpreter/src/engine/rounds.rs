//! Engine stage: rounds (`round { }`, `end round`) and the players out for the round
//! (`eliminate P for round`), who are back when the round ends, however it is left.

use super::exec::{Flow, Frame, Mach};
use super::state::State;
use super::trace::Event;
use super::RuntimeError;
use crate::program::{BlockId, Expr};
use crate::value::Value;
use cardgame_grammar::ast::Span;

type R<T> = Result<T, RuntimeError>;

impl State {
    /// Puts player `p` out: for the game (`eliminate`), or for the round (`for_round`). A player
    /// out for the round and then eliminated is out for good. Whether anything changed.
    pub(crate) fn put_out(&mut self, p: u8, for_round: bool) -> bool {
        let i = p as usize;
        if i >= self.eliminated.len() {
            return false;
        }
        let was_round = self.out_for_round.get(i).copied().unwrap_or(false);
        if self.living(p) {
            self.eliminated[i] = true;
            if let Some(r) = self.out_for_round.get_mut(i) {
                *r = for_round;
            }
            self.living_changed();
            true
        } else if was_round && !for_round {
            self.out_for_round[i] = false;
            true
        } else {
            false
        }
    }

    /// The players out for the round are back (the round ended); the seats back, in seat order.
    pub(crate) fn back_from_round(&mut self) -> Vec<u8> {
        let mut back = Vec::new();
        for (i, out) in self.out_for_round.iter_mut().enumerate() {
            if std::mem::take(out) {
                if let Some(e) = self.eliminated.get_mut(i) {
                    *e = false;
                }
                back.push(i as u8);
            }
        }
        if !back.is_empty() {
            self.living_changed();
        }
        back
    }
}

impl<'a> Mach<'a> {
    /// `round { body }`. Rounds do not nest: the end of a round brings back every player out for
    /// the round.
    pub(crate) fn start_round(&mut self, body: BlockId, span: Span) -> R<Flow> {
        if self.s.frames.iter().any(|f| matches!(f, Frame::Round)) {
            return Err(self.err(
                span,
                "a `round` inside a round: rounds do not nest (the end of a round brings back every \
                 player out for the round)"
                    .into(),
            ));
        }
        self.s.frames.push(Frame::Round);
        self.push_block(body);
        Ok(Flow::Next)
    }

    /// `end round`: leaves the innermost round (its frame, popped, ends it).
    pub(crate) fn leave_round(&mut self, span: Span) -> R<Flow> {
        let Some(i) = self
            .s
            .frames
            .iter()
            .rposition(|f| matches!(f, Frame::Round))
        else {
            return Err(self.err(span, "`end round` outside a round".into()));
        };
        self.unwind_to(i);
        Ok(Flow::Next)
    }

    /// `eliminate P for round`.
    pub(crate) fn out_for_round(&mut self, e: &'a Expr) -> R<Flow> {
        let v = self.eval_at(super::sites::Site::OutForRound, e)?;
        self.out_for_round_of(v, e.span)
    }

    /// `eliminate P for round` of `P`'s value `v` (a player or a list of them; the closures' too,
    /// closures/stmts.rs): its errors, where `v` holds what is not a player or no round is running.
    pub(crate) fn out_for_round_of(&mut self, v: Value, span: Span) -> R<Flow> {
        let players = self.players_of(v, span)?;
        if !self.s.frames.iter().any(|f| matches!(f, Frame::Round)) {
            return Err(self.err(
                span,
                "`eliminate ... for round` outside a round: there is no round to end".into(),
            ));
        }
        for p in players {
            if self.s.living(p) && self.s.put_out(p, true) && self.s.record {
                let name = self.s.name(p);
                self.s.events.push(Event::OutForRound { player: p, name });
            }
        }
        Ok(Flow::Next)
    }

    /// The round's frame was popped: the players out for the round are back.
    pub(crate) fn round_ended(&mut self) {
        let back = self.s.back_from_round();
        if self.s.record {
            let names = back.iter().map(|&p| self.s.name(p)).collect();
            self.s.events.push(Event::RoundEnd { back, names });
        }
    }
}
