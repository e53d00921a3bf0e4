//! Agents stage: the `policy` agent, which plays by a learned model's play-out policy alone
//! (`moves.rs`), without searching.

use super::model::Model;
use super::moves::Rows;
use super::search::long_turn;
use super::Agent;
use crate::engine::{Decision, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// `policy`: plays by a learned model's play-out policy alone, each choice drawn from its chances
/// (no look-ahead: thousands of games a second, a fast opponent for a study); `policy:best` takes
/// the option the policy scores highest instead (stronger, less varied). It reads the decision
/// (the prompt and the labels its seat is shown), the turn and, where the policy reads the position,
/// the counts every seat knows (read from the game as they are the same in every world its seat
/// could deal), or, for a policy that reads others, a world dealt from its seat's view.
pub struct PolicyAgent {
    model: Arc<Model>,
    rng: ChaCha8Rng,
    /// Whether the policy reads only counts every seat knows, so that the game itself is read.
    reads_known: bool,
    /// Whether it takes the option scored highest (`policy:best`) rather than drawing one.
    best: bool,
    /// The policy's rows it has looked up.
    rows: Rows,
}

impl PolicyAgent {
    /// `policy` (drawing its choices), or `policy:best` where `best`.
    pub fn new(model: Arc<Model>, seed: u64, best: bool) -> PolicyAgent {
        let reads_known = model
            .features()
            .is_none_or(|features| model.moves.reads_only_known(features));
        PolicyAgent {
            model,
            rng: ChaCha8Rng::seed_from_u64(seed),
            reads_known,
            best,
            rows: Rows::default(),
        }
    }
}

impl Agent for PolicyAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.options.len() <= 1 {
            return 0;
        }
        let t = f64::from(game.turns()) / self.model.turns.max(1.0);
        let moves = &self.model.moves;
        let inputs = match self.model.features() {
            Some(features) if self.reads_known => moves.inputs(features, game, decision.player, t),
            Some(features) => {
                let world = game.determinize_by_holder(decision.player, self.rng.gen());
                moves.inputs(features, &world, decision.player, t)
            }
            _ => vec![1.0, t],
        };
        // A wander's exits are found by trying the options: in a world dealt from the seat's view,
        // never in the real game.
        let world;
        let game = if long_turn(game) {
            world = game.determinize_by_holder(decision.player, self.rng.gen());
            &world
        } else {
            game
        };
        if self.best {
            moves.best((game, decision), (&inputs, &mut self.rows), &mut self.rng)
        } else {
            moves.pick((game, decision), (&inputs, &mut self.rows), &mut self.rng)
        }
    }

    fn name(&self) -> String {
        if self.best {
            "policy:best".to_string()
        } else {
            "policy".to_string()
        }
    }
}
