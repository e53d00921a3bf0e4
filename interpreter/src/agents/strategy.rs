//! Agents stage: `strategy:NAME`, a fixed policy written in the script (`strategy NAME { ... }`).
//!
//! The first rule of the strategy that matches a legal option picks it (see
//! `Game::strategy_choice`); when no rule applies, or a condition fails at runtime, the strategy's
//! fallback agent (`otherwise AGENT`) decides.

use super::explain::{rule_named, Explanation};
use super::Agent;
use crate::engine::{Decision, Game, RulesOf};

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
    /// The rule that chose; else the fallback's own explanation, said to be the fallback's.
    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        let of = RulesOf::Strategy(self.index);
        match game.rules_pick(of) {
            Ok(Some((i, rule))) if i < decision.options.len() => {
                let how = format!("{} applies", rule_named(game, of, rule));
                (i, Explanation::new(game, decision, self.name(), i, how))
            }
            picked => {
                let why = match picked {
                    Err(e) => format!("a rule of `{}` failed ({e})", self.name),
                    Ok(_) => format!("no rule of `{}` applies", self.name),
                };
                let (i, mut e) = self.fallback.choose_explained(game, decision);
                e.how = format!("{why}; its fallback `{}` decides: {}", e.agent, e.how);
                e.agent = self.name();
                (i, e)
            }
        }
    }
    fn name(&self) -> String {
        format!("strategy:{}", self.name)
    }
    fn reads_labels(&self) -> bool {
        self.fallback.reads_labels()
    }
}
