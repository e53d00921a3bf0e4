//! Agents stage: `learned`, one step of look-ahead judged by a learned model (`model.rs`): the
//! player `cardgame learn` trains by self-play, and a fast agent for any script with a model.
//!
//! Like `greedy`, it tries every option in a few possible worlds (`Game::determinize_by_holder`: what
//! its seat sees, the rest dealt again among each holder's unseen places, as a seat that remembers
//! what went into each deck knows it), takes the forced decisions that follow, and keeps the option
//! whose positions the model values most for its seat (a finished game counts its win, `goals.rs`).
//! The model reads those worlds, which are dealt from the seat's view alone, so the agent never reads
//! what its seat cannot see.
//! While learning it explores: with a small probability it takes an option at random.

use super::explain::{valued, Explanation, Notes};
use super::features::FeatureSet;
use super::goals::Goals;
use super::model::Model;
use super::search::{hands_on, run_forced, LoopGuard};
use super::Agent;
use crate::engine::{Decision, Game, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

pub struct LearnedAgent {
    model: Arc<Model>,
    rng: ChaCha8Rng,
    /// The chance of an option at random instead of the best (while learning).
    explore: f64,
    worlds: usize,
    guard: LoopGuard,
    /// What `choose_explained` reports (kept only while it asks).
    notes: Notes,
}

impl LearnedAgent {
    pub fn new(model: Arc<Model>, seed: u64, explore: f64) -> LearnedAgent {
        LearnedAgent {
            model,
            rng: ChaCha8Rng::seed_from_u64(seed),
            explore,
            worlds: 2,
            guard: LoopGuard::default(),
            notes: Notes::default(),
        }
    }
}

/// The value of a possible world for `seat` by `model`: a finished game by its shares of the win (a
/// game nobody won: the model's value of its last position), an unfinished one by the model.
pub fn judge(model: &Model, world: &mut Game, goals: &Goals, seat: u8) -> f64 {
    match world.status() {
        Status::Over(o) => match goals.shares(o) {
            Some(s) => s.get(seat as usize).copied().unwrap_or(0.0),
            None => model.value(world, seat),
        },
        Status::Error(_) => 0.0,
        Status::Decision(_) => model.value(world, seat),
    }
}

/// What the prior's inputs of an option are made of, read in a possible world: the raw features of
/// the decision's position and, per option, those of the position it leads to with the logit of a
/// finished game (see [`option_features`]).
pub type OptionFeatures = (Vec<f64>, Vec<Option<(Vec<f64>, Option<f64>)>>);

/// The raw features (`features.rs`) of each option in `options` for `seat` in the possible world
/// `world`: each option applied to a copy of the world and the forced decisions after it taken.
/// Returns the features of the decision's position and, per option, those of where it leads with,
/// for a finished game, the logit of the seat's share of the win (kept within 1% of certainty);
/// `None` where the option cannot be applied.
pub fn option_features(
    features: &FeatureSet,
    world: &Game,
    options: &[usize],
    seat: u8,
    goals: &Goals,
) -> OptionFeatures {
    let mut before = Vec::with_capacity(features.len());
    features.extract(&mut world.clone(), seat, &mut before);
    let afters = options
        .iter()
        .map(|&i| {
            let mut g = world.clone();
            g.apply(i).ok()?;
            run_forced(&mut g);
            let mut after = Vec::with_capacity(features.len());
            features.extract(&mut g, seat, &mut after);
            let finished = match g.status() {
                Status::Over(o) => goals.shares(o).map(|s| {
                    let p = s
                        .get(seat as usize)
                        .copied()
                        .unwrap_or(0.0)
                        .clamp(0.01, 0.99);
                    (p / (1.0 - p)).ln()
                }),
                Status::Error(_) => return None,
                Status::Decision(_) => None,
            };
            Some((after, finished))
        })
        .collect();
    (before, afters)
}

/// The prior's inputs (see `Prior::score`) of options read by [`option_features`]: the model's logit
/// of where each leads (a finished game: its logit) and the features it changed. Returns the
/// decision's progress and, per option, its inputs.
pub fn inputs_of(model: &Model, (before, afters): &OptionFeatures) -> (f64, Vec<Option<Vec<f64>>>) {
    let t = model.progress(before);
    let inputs = afters
        .iter()
        .map(|o| {
            o.as_ref().map(|(after, finished)| {
                let logit = finished.unwrap_or_else(|| model.logit_of(after));
                model.option_inputs(before, after, logit)
            })
        })
        .collect();
    (t, inputs)
}

/// The prior's inputs of each option in `options` for `seat` in the possible world `world` (see
/// `Prior::score`): [`option_features`] read by [`inputs_of`]. Returns the decision's progress
/// and, per option, its inputs (`None` where the option cannot be applied).
pub fn option_inputs(
    model: &Model,
    world: &Game,
    options: &[usize],
    seat: u8,
    goals: &Goals,
) -> (f64, Vec<Option<Vec<f64>>>) {
    let Some(f) = model.features() else {
        return (0.0, vec![None; options.len()]);
    };
    inputs_of(model, &option_features(f, world, options, seat, goals))
}

impl Agent for LearnedAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.options.len() <= 1 {
            return 0;
        }
        let seat = decision.player;
        let (key, allowed) = self.guard.allowed(game, decision);
        if allowed.len() == 1 || self.rng.gen_bool(self.explore.clamp(0.0, 1.0)) {
            let choice = allowed[self.rng.gen_range(0..allowed.len())];
            let (explore, left) = (self.explore, allowed.len());
            self.notes.keep(|| {
                let how = match left {
                    1 => "the only option the loop guard leaves".to_string(),
                    n => format!(
                        "at random among {n} options, exploring (a chance of {:.0}% a decision while learning)",
                        explore * 100.0
                    ),
                };
                (how, Vec::new())
            });
            self.guard.record(key, choice);
            return choice;
        }
        let worlds: Vec<Game> = (0..self.worlds)
            .map(|_| {
                let mut g = game.determinize_by_holder(seat, self.rng.gen());
                g.set_recording(false);
                g.set_labels(false);
                g
            })
            .collect();
        let goals = Goals::of(&worlds[0]);
        let turn = game.turns();
        // Each option's value and whether it hands the game on (as `greedy`'s).
        let mut scored = Vec::with_capacity(allowed.len());
        // The values compared, noted only when an explanation is asked for.
        let mut values = Vec::new();
        for &i in &allowed {
            let mut total = 0.0;
            let mut handed_on = false;
            for w in &worlds {
                let mut g = w.clone();
                if g.apply(i).is_err() {
                    continue;
                }
                run_forced(&mut g);
                handed_on |= hands_on(&g, turn, seat);
                total += judge(&self.model, &mut g, &goals, seat);
            }
            let v = total / worlds.len() as f64;
            if self.notes.on {
                values.push((i, v));
            }
            scored.push((i, v, handed_on));
        }
        // A wander (`LoopGuard::wandering`) ends with the best option that hands the game on.
        let wander = self.guard.wandering() && scored.iter().any(|s| s.2);
        let mut best = (f64::NEG_INFINITY, Vec::new());
        for &(i, v, _) in scored.iter().filter(|s| s.2 || !wander) {
            if v > best.0 + 1e-12 {
                best = (v, vec![i]);
            } else if (v - best.0).abs() <= 1e-12 {
                best.1.push(i);
            }
        }
        let choice = match best.1.len() {
            0 => allowed[0],
            n => best.1[self.rng.gen_range(0..n)],
        };
        let n = worlds.len();
        self.notes.keep(|| {
            let how = format!(
                "one step ahead in {n} possible worlds dealt from its seat's view; value: the learned \
                 model's chance that its seat wins after the option (a finished game: its share of \
                 the win), averaged"
            );
            (how, valued(decision, &values, choice))
        });
        self.guard.record(key, choice);
        self.guard.progress(best.0);
        choice
    }

    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        Notes::explain(self, |a| &mut a.notes, game, decision)
    }

    fn name(&self) -> String {
        "learned".into()
    }
}
