//! Agents stage: `strategy:NAME`, a fixed policy written in the script (`strategy NAME { ... }`).
//!
//! The first rule of the strategy that matches a legal option picks it (see
//! `Game::strategy_choice`); when no rule applies, or a condition fails at runtime, the strategy's
//! fallback agent (`otherwise AGENT`) decides.

use super::Agent;
use crate::engine::{Decision, Game};

pub struct StrategyAgent {
    /// The strategy's index in `Program::strategies`.
    index: usize,
    name: String,
    fallback: Box<dyn Agent>,
}

impl StrategyAgent {
    pub fn new(index: usize, name: String, fallback: Box<dyn Agent>) -> Self {
        StrategyAgent {
            index,
            name,
            fallback,
        }
    }
}

impl Agent for StrategyAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        match game.strategy_choice(self.index) {
            Ok(Some(i)) if i < decision.options.len() => i,
            _ => self.fallback.choose(game, decision),
        }
    }
    fn name(&self) -> String {
        format!("strategy:{}", self.name)
    }
    fn reads_labels(&self) -> bool {
        self.fallback.reads_labels()
    }
}
