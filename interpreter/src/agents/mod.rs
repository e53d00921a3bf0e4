//! Agents stage: players that choose among the legal options of a decision (`random`, `first`,
//! `greedy`, `mcts[:ITERATIONS]`).
//!
//! An agent is given only the decision (who decides, the prompt and the option labels) and the game it
//! may look at through `Game::view` for its own seat; it never changes the game.

mod search;

pub use search::{evaluate, GreedyAgent, MctsAgent};

use crate::engine::{Decision, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub trait Agent: Send {
    /// The index of the chosen option; always smaller than `decision.options.len()`.
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize;
    /// The agent's name as written on the command line.
    fn name(&self) -> String;
    /// Whether the agent reads the option labels (a game may leave them out otherwise: see
    /// `GameConfig::labels`).
    fn reads_labels(&self) -> bool {
        true
    }
}

/// Picks uniformly at random among the options, with its own seeded generator.
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _game: &Game, decision: &Decision) -> usize {
        self.rng.gen_range(0..decision.options.len().max(1))
    }
    fn name(&self) -> String {
        "random".into()
    }
    fn reads_labels(&self) -> bool {
        false
    }
}

/// Always takes the first legal option: a deterministic baseline.
pub struct FirstAgent;

impl Agent for FirstAgent {
    fn choose(&mut self, _game: &Game, _decision: &Decision) -> usize {
        0
    }
    fn name(&self) -> String {
        "first".into()
    }
    fn reads_labels(&self) -> bool {
        false
    }
}

/// The agent names `--agents` accepts.
pub const AGENT_NAMES: &[&str] = &["random", "first", "greedy", "mcts"];

/// Make an agent from its command-line name; `seed` and `seat` make each random agent's choices its own.
pub fn make_agent(spec: &str, seed: u64, seat: u8) -> Result<Box<dyn Agent>, String> {
    let seat_seed = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(seat) + 1)
        .rotate_left(17);
    match spec.trim() {
        "random" => Ok(Box::new(RandomAgent::new(seat_seed))),
        "first" => Ok(Box::new(FirstAgent)),
        "greedy" => Ok(Box::new(GreedyAgent::new(seat_seed))),
        "mcts" => Ok(Box::new(MctsAgent::new(seat_seed, 200))),
        other if other.starts_with("mcts:") => match other[5..].parse::<u32>() {
            Ok(n) if n >= 1 => Ok(Box::new(MctsAgent::new(seat_seed, n))),
            _ => Err(format!(
                "`{other}`: mcts takes a number of iterations from 1, as in `mcts:200`"
            )),
        },
        other => Err(
            match crate::diag::did_you_mean(other, AGENT_NAMES.iter().copied()) {
                Some(h) => format!("unknown agent `{other}`: {h}"),
                None => format!(
                    "unknown agent `{other}`; the agents are: {}",
                    AGENT_NAMES.join(", ")
                ),
            },
        ),
    }
}
