//! Agents stage: players that choose among the legal options of a decision (`random`, `first`,
//! `greedy`, `mcts[:ITERATIONS]`, and `strategy:NAME` for a strategy written in the script).
//!
//! An agent is given only the decision (who decides, the prompt and the option labels) and the game it
//! may look at through `Game::view` for its own seat; it never changes the game.

mod search;
mod strategy;

pub use search::{evaluate, GreedyAgent, MctsAgent};
pub use strategy::StrategyAgent;

use crate::engine::{Decision, Game};
use crate::program::Program;
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

/// The agent names `--agents` accepts (and `strategy:NAME`).
pub const AGENT_NAMES: &[&str] = &["random", "first", "greedy", "mcts", "strategy"];

/// Make an agent from its command-line name; `seed` and `seat` make each random agent's choices its own.
/// `strategy:NAME` names a strategy of `program`.
pub fn make_agent(
    program: &Program,
    spec: &str,
    seed: u64,
    seat: u8,
) -> Result<Box<dyn Agent>, String> {
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
        other if other.starts_with("strategy:") => {
            let name = other["strategy:".len()..].trim();
            match program.strategies.iter().position(|s| s.name == name) {
                Some(i) => {
                    let def = &program.strategies[i];
                    let fallback = make_agent(program, &def.fallback, seed, seat)?;
                    Ok(Box::new(StrategyAgent::new(i, def.name.clone(), fallback)))
                }
                None => {
                    let names = program.strategies.iter().map(|s| s.name.as_str());
                    Err(match crate::diag::did_you_mean(name, names) {
                        Some(h) => format!("unknown strategy `{name}`: {h}"),
                        None if program.strategies.is_empty() => {
                            format!("unknown strategy `{name}`: the script has no `strategy`")
                        }
                        None => format!(
                            "unknown strategy `{name}`; the script's strategies are: {}",
                            program
                                .strategies
                                .iter()
                                .map(|s| s.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })
                }
            }
        }
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
