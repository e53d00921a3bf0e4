//! Agents stage: what guides the `search` agent's play-outs and judges where they stop, for any
//! script: a learned model (`model.rs`) when one is given, and MAST (the move-average sampling
//! technique of Finnsson and Björnsson, 2008) for the play-outs.
//!
//! - *MAST.* During one decision's search, every option label taken (in the tree or in a play-out) keeps
//!   the mean reward, for the player who took it, of the iterations it was part of. A play-out then
//!   picks among the options by a Gibbs distribution over those means (temperature [`TEMPERATURE`];
//!   a label not seen yet counts as one half), so moves that have done well elsewhere in the search
//!   are tried more, in any position. The table is forgotten at the next decision.
//! - *A model.* Where the play-out stops, every seat's value is the model's judgement of the
//!   (possible) world seen from that seat, every card of the world counted (`features.rs`), unless
//!   the game is over (its winners count, `goals.rs`). The options of one decision often differ by
//!   little in the model's chance to win, less than the search's exploration term, so the reward is
//!   the model's logit measured against the decision's own leaves, as `mcts` measures the script's
//!   measure: `σ((logit − mean) / spread)`, where `mean` is the running mean of the seat's logits at
//!   the leaves of this decision's search and `spread` the running mean distance from it (at least
//!   [`LEAST_SPREAD`]).
//! - *The model's prior.* At the root, each allowed option is tried in a few of the search's worlds
//!   ([`PRIOR_WORLDS`]), the forced decisions after it taken, and scored by the model's prior over
//!   options for the deciding seat (`model.rs`: the logit it leads to and the features it changes,
//!   weighed as `cardgame learn` fitted them to the search's own visits); the softmax of the mean
//!   scores is the prior (a prior never fitted puts all on the option with the best mean logit, as
//!   `learned` would choose). The search tries the options in the order of the prior, favours each in
//!   the tree by a bonus proportional to its prior that fades with its visits (PUCT-like), and
//!   leaves the most likely one (the model's move) at the end only on evidence (`ismcts.rs`), as it
//!   treats a play-out strategy's move.
//! - *The model's play-out policy.* With `:deep`, the play-outs draw every decision from the model's
//!   play-out policy over the options' labels (`moves.rs`, `Guide::pick_by_moves`), cheap enough for
//!   whole games; a model learned without one (a file of version 4) draws from the prior instead
//!   (`Guide::pick_by_prior`), which tries every option.

use super::goals::Goals;
use super::learned::option_inputs;
use super::model::{sigmoid, softmax, Model};
use super::moves::{Rows, UnitSums};
use crate::engine::{Game, Status};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;

/// The temperature of MAST's Gibbs distribution over mean rewards (between 0 and 1).
pub const TEMPERATURE: f64 = 0.1;

#[derive(Default)]
pub struct Guide {
    pub model: Option<Arc<Model>>,
    pub mast: bool,
    /// Play-outs draw every decision from the model's prior (`:deep`).
    pub deep: bool,
    /// A play-out's reward is half the model's judgement where the next turn began and half its
    /// end's (`:blend`).
    pub blend: bool,
    /// Label → (reward sum, count), for the player who took it.
    table: HashMap<String, (f64, u32)>,
    /// The moves of the current iteration: (player, label).
    moves: Vec<(u8, String)>,
    /// Per seat, the sum of the model's logits at this decision's leaves; their count.
    logit_sums: Vec<f64>,
    leaves: u32,
    /// The sum of the leaves' distances from the running mean.
    distance_sum: f64,
    /// The play-out policy's hidden units' sums at its last reading, updated at the next
    /// (`Moves::inputs_updating`).
    unit_sums: UnitSums,
    /// The play-out policy's rows looked up (`Rows`), kept for the agent's life: they depend on
    /// the model alone.
    rows: Rows,
}

/// The search's worlds in which each option is tried to find the model's move.
pub const PRIOR_WORLDS: usize = 4;

/// The least spread of the logits the rewards of a model are scaled by.
pub const LEAST_SPREAD: f64 = 0.05;

impl Guide {
    pub fn new(model: Option<Arc<Model>>, mast: bool) -> Guide {
        Guide {
            model,
            mast,
            ..Guide::default()
        }
    }

    /// Forgets the last decision's table and sums.
    pub fn reset(&mut self) {
        self.table.clear();
        self.moves.clear();
        self.logit_sums.clear();
        self.leaves = 0;
        self.distance_sum = 0.0;
        // The sums carry over only within one decision's search, so that a decision's choice does
        // not depend on the decisions searched before it (in the rounding of the sums).
        self.unit_sums = UnitSums::default();
    }

    /// Notes a move of the current iteration.
    pub fn note(&mut self, player: u8, label: &str) {
        if self.mast {
            self.moves.push((player, label.to_string()));
        }
    }

    /// Adds the iteration's rewards (per seat) to its moves' means, and starts the next iteration.
    pub fn learn(&mut self, rewards: &[f64]) {
        for (p, label) in self.moves.drain(..) {
            let r = rewards.get(p as usize).copied().unwrap_or(0.0);
            let e = self.table.entry(label).or_insert((0.0, 0));
            e.0 += r;
            e.1 += 1;
        }
    }

    /// A play-out's choice among `options` by MAST (see the module's notes).
    pub fn pick(&self, options: &[String], rng: &mut ChaCha8Rng) -> usize {
        let weights: Vec<f64> = options
            .iter()
            .map(|l| {
                let mean = self
                    .table
                    .get(l)
                    .map_or(0.5, |(s, n)| s / f64::from((*n).max(1)));
                (mean / TEMPERATURE).exp()
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = rng.gen_range(0.0..total.max(f64::MIN_POSITIVE));
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        options.len().saturating_sub(1)
    }

    /// Whether the model's prior over options was fitted (`prior V V'`, not `prior none`).
    pub fn prior_fitted(&self) -> bool {
        self.model.as_ref().is_some_and(|m| m.prior.fitted)
    }

    /// The model's prior over `allowed` for `seat` (see the module's notes): each option's score
    /// (`Prior::score`) averaged over the first [`PRIOR_WORLDS`] of `worlds` (possible worlds of
    /// the search, with their goals), then a softmax; an option that applies in none of them has
    /// no chance. `None` without a model.
    pub fn priors(
        &self,
        worlds: &[(&Game, &Goals)],
        allowed: &[usize],
        seat: u8,
    ) -> Option<Vec<f64>> {
        let model = self.model.as_ref()?;
        let mut totals = vec![(0.0, 0u32); allowed.len()];
        for (world, goals) in worlds.iter().take(PRIOR_WORLDS) {
            let (t, inputs) = option_inputs(model, world, allowed, seat, goals);
            for (q, total) in inputs.iter().zip(totals.iter_mut()) {
                if let Some(q) = q {
                    total.0 += model.prior.score(q, t);
                    total.1 += 1;
                }
            }
        }
        let scores: Vec<f64> = totals
            .iter()
            .map(|&(s, n)| {
                if n == 0 {
                    f64::NEG_INFINITY
                } else {
                    s / f64::from(n)
                }
            })
            .collect();
        if scores.iter().all(|s| s.is_infinite()) {
            return None;
        }
        Some(model.prior.chances(&scores))
    }

    /// The chances of the allowed options of the root decision by the model's play-out policy,
    /// averaged over the first [`PRIOR_WORLDS`] of `worlds` (the policy reads each world's counts)
    /// and summing to 1 over `allowed`; `None` without a play-out policy, or where a world's
    /// decision lists other options than the first's.
    pub fn policy_priors(&mut self, worlds: &[&Game], allowed: &[usize]) -> Option<Vec<f64>> {
        let mut totals = vec![0.0; allowed.len()];
        let mut options = None;
        for world in worlds.iter().take(PRIOR_WORLDS) {
            let chances = self.chances_by_moves(world)?;
            if *options.get_or_insert(chances.len()) != chances.len() {
                return None;
            }
            for (total, &i) in totals.iter_mut().zip(allowed) {
                *total += chances.get(i).copied()?;
            }
        }
        let sum: f64 = totals.iter().sum();
        (sum > 0.0).then(|| totals.iter().map(|t| t / sum).collect())
    }

    /// A play-out's choice in `world` (a world of the search, at a decision) drawn from the model's
    /// play-out policy (`moves.rs`); `None` without a model or where the model has none.
    pub fn pick_by_moves(&mut self, world: &Game, rng: &mut ChaCha8Rng) -> Option<usize> {
        let model = self.model.as_ref().filter(|m| !m.moves.is_empty())?;
        let Status::Decision(d) = world.status() else {
            return None;
        };
        let inputs = moves_inputs(model, world, d.player, &mut self.unit_sums);
        Some(model.moves.pick((world, d), (&inputs, &mut self.rows), rng))
    }

    /// The chances of the options of `world`'s decision by the model's play-out policy; `None`
    /// without a model or where the model has none.
    pub fn chances_by_moves(&mut self, world: &Game) -> Option<Vec<f64>> {
        let model = self.model.as_ref().filter(|m| !m.moves.is_empty())?;
        let Status::Decision(d) = world.status() else {
            return None;
        };
        let inputs = moves_inputs(model, world, d.player, &mut self.unit_sums);
        Some(model.moves.chances((world, d), (&inputs, &mut self.rows)))
    }

    /// The chances of the options of `world`'s decision by the model's play-out policy, kept at a
    /// node of the search's tree (`held`): the policy's inputs are read in the first world that
    /// reaches the node and kept there with each option's score, and the options are scored again
    /// only where a later world offers one never scored there. The policy reads only counts every
    /// seat knows (`moves.rs`), which differ between the worlds of one node at most where a hidden
    /// card changed a variable; reading and scoring them at every pass through every node took half
    /// of a search's time (Market Race). `None` without a model or where the model has none.
    pub fn chances_held(
        &mut self,
        world: &Game,
        held: &mut Option<Box<HeldChances>>,
    ) -> Option<Vec<f64>> {
        let model = self.model.as_ref().filter(|m| !m.moves.is_empty())?;
        let Status::Decision(d) = world.status() else {
            return None;
        };
        let held = held.get_or_insert_with(|| {
            Box::new(HeldChances {
                inputs: moves_inputs(model, world, d.player, &mut self.unit_sums),
                scores: HashMap::default(),
            })
        });
        if !d.options.iter().all(|o| held.scores.contains_key(o)) {
            let scores = model.moves.scores(world, d, &held.inputs, &mut self.rows);
            for (o, s) in d.options.iter().zip(scores) {
                held.scores.entry(o.clone()).or_insert(s);
            }
        }
        let scores: Vec<f64> = (d.options.iter())
            .map(|o| held.scores.get(o).copied().unwrap_or(0.0))
            .collect();
        Some(softmax(&scores))
    }

    /// A play-out's choice in `world` (a world of the search, at a decision) drawn from the model's
    /// prior over all its options; `None` without a model.
    pub fn pick_by_prior(
        &self,
        world: &Game,
        goals: &Goals,
        rng: &mut ChaCha8Rng,
    ) -> Option<usize> {
        let model = self.model.as_ref()?;
        let Status::Decision(d) = world.status() else {
            return None;
        };
        let (seat, n) = (d.player, d.options.len());
        let all: Vec<usize> = (0..n).collect();
        let (t, inputs) = option_inputs(model, world, &all, seat, goals);
        let scores: Vec<f64> = inputs
            .iter()
            .map(|q| {
                q.as_ref()
                    .map_or(f64::NEG_INFINITY, |q| model.prior.score(q, t))
            })
            .collect();
        if scores.iter().all(|s| s.is_infinite()) {
            return None;
        }
        let p = model.prior.chances(&scores);
        let mut x = rng.gen_range(0.0..1.0);
        for (i, w) in p.iter().enumerate() {
            if x < *w {
                return Some(i);
            }
            x -= w;
        }
        p.iter().rposition(|w| *w > 0.0)
    }

    /// Every seat's value by the model where a play-out stopped (in a world of the search, which
    /// the model reads whole), or `None` without a model.
    pub fn judge(&mut self, world: &mut Game, goals: &Goals) -> Option<Vec<f64>> {
        let model = self.model.clone()?;
        let n = world.players();
        if let Status::Over(o) = world.status() {
            if let Some(s) = goals.shares(o) {
                return Some(s);
            }
        }
        if let Status::Error(_) = world.status() {
            return Some(vec![0.0; n as usize]);
        }
        let logits = model.logits(world);
        self.logit_sums.resize(logits.len(), 0.0);
        self.leaves += 1;
        let count = f64::from(self.leaves);
        let mut rewards = Vec::with_capacity(logits.len());
        for (l, sum) in logits.iter().zip(self.logit_sums.iter_mut()) {
            *sum += l;
            let mean = *sum / count;
            self.distance_sum += (l - mean).abs();
            let spread = (self.distance_sum / (count * logits.len() as f64)).max(LEAST_SPREAD);
            rewards.push(sigmoid((l - mean) / spread));
        }
        Some(rewards)
    }
}

/// What a node of the search's tree keeps of the play-out policy ([`Guide::chances_held`]): its
/// inputs, read in the first world that reached the node, and the score of each option scored there.
#[derive(Debug)]
pub struct HeldChances {
    inputs: Vec<f64>,
    scores: HashMap<String, f64, rustc_hash::FxBuildHasher>,
}

/// The play-out policy's inputs at `seat`'s decision in `world`, a world of the search
/// (`Moves::inputs_updating` from the units' sums `sums` keeps).
fn moves_inputs(model: &Model, world: &Game, seat: u8, sums: &mut UnitSums) -> Vec<f64> {
    let t = f64::from(world.turns()) / model.turns.max(1.0);
    match model.features() {
        Some(features) => model
            .moves
            .inputs_updating(features, (world, seat, t), sums),
        None => vec![1.0, t],
    }
}

#[cfg(test)]
mod tests {
    use super::Guide;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn mast_prefers_the_moves_that_did_well() {
        let mut g = Guide::new(None, true);
        for _ in 0..20 {
            g.note(0, "good");
            g.learn(&[1.0]);
            g.note(0, "bad");
            g.learn(&[0.0]);
        }
        let options = ["bad".to_string(), "good".to_string()];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let good = (0..1000)
            .filter(|_| g.pick(&options, &mut rng) == 1)
            .count();
        // e^10 to 1: nearly always the good one.
        assert!(good > 990, "{good}");
    }
}
