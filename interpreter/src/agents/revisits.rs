//! Agents stage: the `search` agent does not go round in circles within a turn: it never plays back
//! into a position its seat was already at in the turn, and it ends a turn whose decisions have long
//! stopped raising the position's value.
//!
//! Where a game lets a player undo what it did at no cost (buy a card and sell it back at one
//! price, swap the reserved card for another and back), a search goes on with its own turn rather
//! than hand the game on: each of its own moves is a maximum over noisy judgements, which looks
//! better than the position it would hand the opponent. Each step is a decision of its own, and a
//! turn can run to the wander's limit (`search::TURN_WANDER`), ending wherever the wander stands.
//! At each decision of the real game the agent
//! - notes the position as its seat sees it (`Game::seen_fingerprint`) and leaves out the options
//!   that lead back, the forced decisions after them taken, to a position its seat decided at
//!   earlier in the turn: from a position seen again the seat has only the options it had there the
//!   first time, so nothing is lost;
//! - judges the position (by the model where the search has one, else by the script's measure, as
//!   `greedy` does) and, after [`search::WANDER_LIMIT`] decisions of the turn that did not raise
//!   the turn's best value, keeps to the options that hand the game on, as `greedy` does.
//!
//! Both read a world dealt from the seat's view, never the real game's hidden cards, by a seed that
//! depends on the turn alone: while the seat's unseen cards are the same, they are dealt the same
//! way, so that the value changes only with what the seat sees. Where every option leads back,
//! none is left out. What a running statement holds in its own locals (the actions a menu has
//! left) is not part of a position: coming back to a position with fewer actions left is no
//! better.

use super::search::{hands_on, run_forced, WANDER_LIMIT};
use crate::engine::Game;
use std::collections::HashSet;

/// Why a search took an option without searching where its turn stopped rising.
pub(super) const STALE_EXIT: &str =
    "the only option that hands the game on, after 30 decisions of this turn that did not raise the position's value (it never wanders for ever)";

/// The positions one seat decided at in the current turn, and how its value went
/// (`Revisits::keep`).
#[derive(Default)]
pub(super) struct Revisits {
    /// The turn and the seat the positions are of.
    turn: Option<(u32, u8)>,
    /// Their fingerprints as the seat sees them (`Game::seen_fingerprint`).
    seen: HashSet<u64, rustc_hash::FxBuildHasher>,
    /// The best value of the turn's positions, and the decisions since that did not raise it.
    best: Option<f64>,
    stale: u32,
}

/// What [`Revisits::keep`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Kept {
    /// Options left out: they lead back to a position of the turn.
    pub back: usize,
    /// The turn's value stopped rising: only the options that hand the game on are kept.
    pub wander: bool,
}

impl Revisits {
    /// Notes the position of `seat`'s pending decision in `game` and its value by `value` (of a
    /// world dealt from the seat's view), and keeps `allowed` to the options that do not lead back
    /// to a position the seat decided at earlier in this turn and, where the turn's value has not
    /// risen for [`WANDER_LIMIT`] decisions, to those that hand the game on (see the module's
    /// notes). Leaves `allowed` as it is where that would leave nothing.
    pub(super) fn keep(
        &mut self,
        game: &Game,
        seat: u8,
        value: impl FnOnce(&mut Game) -> f64,
        allowed: &mut Vec<usize>,
    ) -> Kept {
        let turn = game.turns();
        if self.turn != Some((turn, seat)) {
            self.turn = Some((turn, seat));
            self.seen.clear();
            self.best = None;
            self.stale = 0;
        }
        let seed = u64::from(turn).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seat);
        let mut world = game.determinize(seat, seed);
        world.set_recording(false);
        self.seen.insert(world.seen_fingerprint(seat));
        let now = value(&mut world.clone());
        match self.best {
            Some(best) if now <= best + 1e-9 => self.stale += 1,
            _ => {
                self.best = Some(now);
                self.stale = 0;
            }
        }
        // Each option: whether it leads to a new position, and whether it hands the game on.
        let tried: Vec<(usize, bool, bool)> = (allowed.iter().copied())
            .map(|i| {
                let mut after = world.clone();
                if after.apply(i).is_err() {
                    return (i, true, false);
                }
                run_forced(&mut after);
                let new = !self.seen.contains(&after.seen_fingerprint(seat));
                (i, new, hands_on(&after, turn, seat))
            })
            .collect();
        let mut kept = Kept::default();
        let new: Vec<usize> = tried.iter().filter(|t| t.1).map(|t| t.0).collect();
        if !new.is_empty() && new.len() < allowed.len() {
            kept.back = allowed.len() - new.len();
            *allowed = new;
        }
        if turn > 0 && self.stale >= WANDER_LIMIT {
            let exits: Vec<usize> = (tried.iter())
                .filter(|t| t.2 && allowed.contains(&t.0))
                .map(|t| t.0)
                .collect();
            if !exits.is_empty() {
                kept.wander = exits.len() < allowed.len();
                *allowed = exits;
            }
        }
        kept
    }
}
