//! Agents stage: inference from what others do. A model of how another player chooses, by which
//! `ismcts ...:infer` (and `search:...:infer`) weighs the worlds it samples (`Game::weighed_world`,
//! engine/belief.rs), for any script.
//!
//! Without it, the worlds treat every past decision of another player as a uniform choice, so that a
//! choice tells the seat only what it excludes (the host's door in Monty Hall), never what it makes
//! likely (a claim that only a holder of the card would make). With it, in the manner of the
//! particle filters that weigh each sampled world by the likelihood of the observed actions under an
//! opponent model (after Cowling, Powley and Whitehouse's information-set search, 2012, which draws
//! the worlds uniformly), each past decision of another player weighs by the chance that a player
//! *who looks one move ahead* would have taken it:
//!
//! - *From that player's view.* Each option is tried in worlds dealt from what the deciding player
//!   saw then (`Game::determinize` from its seat), so the model never credits it with cards it could
//!   not see.
//! - *Valued as the search values a move.* After the option, the game is played on by the search's
//!   own play-out policy (its strategy, else at random) to the same cut (its turns, or the end), and
//!   judged by the same measure (the script's goals and `heuristic`/`score`, `goals.rs`), [`PLAYOUTS`]
//!   times, every option with the same random numbers (common random numbers: two options worth
//!   the same are valued the same, and a difference between two is not drowned in the play-outs'
//!   noise); with a learned model (`--model`), the model's value of the position after the option
//!   instead, once.
//! - *A soft choice.* The chance of option `j` is `(1 - MIX) * softmax(value / TEMPERATURE)[j] + MIX /
//!   k`: the better an option looked to that player, the likelier; every option keeps at least `MIX /
//!   k`, so a player who does what the model did not expect (a bold bluff) still leaves the worlds
//!   that explain it.
//!
//! The chances depend only on what the deciding player saw (its observation, `engine::observation`),
//! so the options' values are kept per observation for the rest of the game: each world that puts
//! that player in the same place adds [`PLAYOUTS`] play-outs per option to them, up to
//! [`MOST_PLAYOUTS`], so that the chances grow sharper as they are asked for again (a single noisy
//! estimate kept for the game would favour one of two equal options for good).
//!
//! Limits: the model is a one-move look-ahead with play-outs as weak as the search's own, not an
//! equilibrium: against a player who bluffs more (or less) than a one-move look-ahead would, the
//! worlds lean the wrong way, and a written strategy that bluffs on purpose can exploit a seat that
//! believes the model. It costs `options × PLAYOUTS` play-outs per new observation of another player
//! and makes consistent worlds rarer; a game whose history is rarely matched (a deck-builder's hands)
//! falls back to `determinize` as before, where nothing is inferred.

use super::goals::Goals;
use super::model::Model;
use super::search::{run_forced, Scale};
use crate::engine::{observation, Game, Likelihood, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;

/// Play-outs per option each time the model is asked about an observation, when it values a move
/// by play-outs.
pub const PLAYOUTS: u32 = 32;
/// The most play-outs per option kept for one observation.
pub const MOST_PLAYOUTS: u32 = 512;
/// The temperature of the softmax over the options' values (values between 0 and 1).
pub const TEMPERATURE: f64 = 0.1;
/// The share of the chance spread evenly over all options.
pub const MIX: f64 = 0.1;
/// The most decisions one play-out of the model takes.
const PLAYOUT_DECISIONS: u32 = 400;
/// The most observations whose chances are kept; past it the table starts again.
const KEPT: usize = 100_000;

/// Another player as a one-move look-ahead (see the module's note).
pub struct Opponents {
    rng: ChaCha8Rng,
    /// The search's play-out strategy (its index), else play-outs at random.
    strategy: Option<usize>,
    /// Turns the play-outs run past the decision's; `None`: to the end of the game.
    turns: Option<u32>,
    /// A learned model that values the position after each option instead of play-outs.
    model: Option<Arc<Model>>,
    /// The options' values worked out so far, by (player, observation): the sums of the values of
    /// each option, and the runs they sum.
    kept: HashMap<(u8, u64), (Vec<f64>, u32)>,
}

impl Opponents {
    pub fn new(seed: u64, strategy: Option<usize>, turns: Option<u32>) -> Opponents {
        Opponents {
            rng: ChaCha8Rng::seed_from_u64(seed),
            strategy,
            turns,
            model: None,
            kept: HashMap::new(),
        }
    }

    /// The same model valuing moves by a learned model.
    pub fn with_model(mut self, model: Option<Arc<Model>>) -> Opponents {
        self.model = model;
        self
    }

    /// Forgets the chances worked out (a new game).
    pub fn forget(&mut self) {
        self.kept.clear();
    }

    /// The sum, over one run per seed of `seeds`, of the value for `player` of taking option `j` in
    /// `world`, each between 0 and 1. Every option is tried with the same seeds (the same deals and
    /// the same random play-outs), so that two options that are worth the same get the same values.
    fn value(&self, world: &Game, player: u8, j: usize, seeds: &[u64], scale: &mut Scale) -> f64 {
        let mut sum = 0.0;
        for &seed in seeds {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut g = world.determinize(player, rng.gen());
            g.set_recording(false);
            let goals = Goals::of(&g);
            let seats = g.players() as usize;
            let root = goals.standings(&mut g).unwrap_or_else(|| vec![0.0; seats]);
            let turn = g.turns();
            if g.apply(j).is_err() {
                return 0.0;
            }
            run_forced(&mut g);
            let r = match &self.model {
                Some(m) => {
                    let shares = match g.status() {
                        Status::Over(o) => Some(
                            goals
                                .shares(o)
                                .and_then(|s| s.get(player as usize).copied()),
                        ),
                        Status::Error(_) => Some(Some(0.0)),
                        Status::Decision(_) => None,
                    };
                    match shares {
                        Some(Some(share)) => share,
                        Some(None) | None => m.value(&mut g, player),
                    }
                }
                None => {
                    self.play_out(&mut g, turn, &mut rng);
                    run_forced(&mut g);
                    let r = scale.rewards(&mut g, &root, &goals);
                    r.get(player as usize).copied().unwrap_or(0.0)
                }
            };
            sum += r;
        }
        sum
    }

    /// Plays on by the search's play-out policy to its cut.
    fn play_out(&self, g: &mut Game, turn: u32, rng: &mut ChaCha8Rng) {
        if self.strategy.is_none() {
            g.set_labels(false);
        }
        let limit = match self.turns {
            Some(_) => PLAYOUT_DECISIONS,
            None => u32::MAX,
        };
        for _ in 0..limit {
            let k = match g.status() {
                Status::Decision(d) => d.options.len(),
                _ => return,
            };
            if self.turns.is_some_and(|t| g.turns() >= turn + t) {
                return;
            }
            let choice = match self.strategy {
                Some(s) if k > 1 => match g.strategy_choice(s) {
                    Ok(Some(i)) if i < k => i,
                    _ => rng.gen_range(0..k),
                },
                _ => rng.gen_range(0..k.max(1)),
            };
            if g.apply(choice).is_err() {
                return;
            }
        }
    }
}

/// The chances of a softmax over `values` at [`TEMPERATURE`], mixed with [`MIX`] of uniform.
pub fn soft_choice(values: &[f64]) -> Vec<f64> {
    let k = values.len().max(1) as f64;
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = values
        .iter()
        .map(|v| ((v - top) / TEMPERATURE).exp())
        .collect();
    let total: f64 = weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    weights
        .iter()
        .map(|w| (1.0 - MIX) * w / total + MIX / k)
        .collect()
}

impl Likelihood for Opponents {
    fn chances(&mut self, world: &Game, player: u8, options: usize) -> Vec<f64> {
        let key = (player, observation(world, player));
        let (most, runs) = match self.model {
            Some(_) => (1, 1),
            None => (MOST_PLAYOUTS, PLAYOUTS),
        };
        let (mut sums, mut done) = match self.kept.remove(&key) {
            Some((sums, done)) if sums.len() == options => (sums, done),
            _ => (vec![0.0; options], 0),
        };
        if done < most {
            let seeds: Vec<u64> = (0..runs).map(|_| self.rng.gen()).collect();
            let mut scale = Scale::default();
            for (j, sum) in sums.iter_mut().enumerate() {
                *sum += self.value(world, player, j, &seeds, &mut scale);
            }
            done += runs;
        }
        let means: Vec<f64> = sums.iter().map(|s| s / f64::from(done.max(1))).collect();
        if self.kept.len() >= KEPT {
            self.kept.clear();
        }
        self.kept.insert(key, (sums, done));
        soft_choice(&means)
    }
}

#[cfg(test)]
mod tests {
    use super::{soft_choice, Opponents, MIX};
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Observations};
    use std::sync::Arc;

    /// Sealed Crate after the merchant names `name`, seen by the buyer: how many of `n` worlds put
    /// each kind in the crate (Rag, Coin, Gem, Crown), drawn as uniform choices and weighed by the
    /// model.
    fn crates_after(name: &str, n: u64) -> (Vec<u32>, Vec<u32>) {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/sealed-crate.cardgame"
        ))
        .expect("the example");
        let program = Arc::new(check_source(&src).program.expect("the example checks"));
        let mut game = Game::new(program, GameConfig::new(2, 1));
        let d = game.decision().expect("the merchant names").clone();
        let i = d.options.iter().position(|o| o == name).expect("the name");
        game.apply(i).expect("applies");
        let obs = Observations::new(&game, 1).expect("observations");
        let mut model = Opponents::new(5, None, Some(2));
        let kinds = ["Rag", "Coin", "Gem", "Crown"];
        let count = |w: &Game, tally: &mut Vec<u32>| {
            let v = w.view(0);
            let crate_zone = v.zones.iter().find(|z| z.name == "P1.crate");
            let card = crate_zone.and_then(|z| z.cards.first().cloned().flatten());
            let k = kinds.iter().position(|k| Some(k.to_string()) == card);
            tally[k.expect("the merchant sees its crate")] += 1;
        };
        let (mut uniform, mut weighed) = (vec![0; 4], vec![0; 4]);
        for seed in 0..n {
            if let Some(w) = game.consistent_world(&obs, seed) {
                count(&w, &mut uniform);
            }
            if let Some(w) = game.weighed_world(&obs, seed, &mut model) {
                count(&w, &mut weighed);
            }
        }
        (uniform, weighed)
    }

    fn share(tally: &[u32], i: usize) -> f64 {
        f64::from(tally[i]) / f64::from(tally.iter().sum::<u32>().max(1))
    }

    /// A Coin is named by a merchant who holds one (an honest name is never a loss), and seldom
    /// otherwise: the weighed worlds put a Coin in the crate far more often than its share of the
    /// cards (3 in 8), which the uniform worlds keep. A Crown named comes from the Crown or the Rag
    /// (which can only be sold by a lie): the weighed worlds hold the Rag more often than the
    /// uniform ones (about 1.3 times), and the Crown more than two and a half times as often.
    #[test]
    fn a_claim_weighs_the_worlds_of_those_who_would_make_it() {
        let (uniform, weighed) = crates_after("Name Coin", 3000);
        eprintln!("after Coin: uniform {uniform:?}, weighed {weighed:?}");
        assert!((0.32..0.43).contains(&share(&uniform, 1)), "{uniform:?}");
        assert!(share(&weighed, 1) > 0.7, "{weighed:?}");
        let (uniform, weighed) = crates_after("Name Crown", 3000);
        eprintln!("after Crown: uniform {uniform:?}, weighed {weighed:?}");
        assert!((0.09..0.16).contains(&share(&uniform, 0)), "{uniform:?}");
        assert!(share(&weighed, 0) > 1.2 * share(&uniform, 0), "{weighed:?}");
        assert!(share(&weighed, 3) > 2.5 * share(&uniform, 3), "{weighed:?}");
    }

    #[test]
    fn a_soft_choice_favours_the_better_option_and_keeps_every_one() {
        let c = soft_choice(&[0.5, 0.5]);
        assert!((c[0] - 0.5).abs() < 1e-12 && (c[1] - 0.5).abs() < 1e-12);
        let c = soft_choice(&[0.9, 0.2, 0.2]);
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(c[0] > 0.9, "{c:?}");
        assert!(c[1] >= MIX / 3.0 && c[2] >= MIX / 3.0, "{c:?}");
    }
}
