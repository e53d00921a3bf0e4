//! Agents stage: players that choose among the legal options of a decision (`random`, `first`,
//! `greedy`, `mcts[:ITERATIONS]`, and `strategy:NAME` for a strategy written in the script).
//!
//! An agent is given only the decision (who decides, the prompt and the option labels) and the game it
//! may look at through `Game::view` for its own seat; it never changes the game.

#[cfg(test)]
mod at_once;
#[cfg(test)]
mod charges;
mod explain;
pub mod features;
mod goals;
mod guide;
mod infer;
mod ismcts;
mod learned;
pub mod model;
pub mod moves;
mod policy;
mod search;
mod strategy;
mod tree;

pub use explain::{Explanation, Weighed};
pub use goals::{evaluate, Goals};
pub use ismcts::{IsmctsAgent, Playout};
pub use learned::{inputs_of, judge, option_features, option_inputs, LearnedAgent, OptionFeatures};
pub use model::{script_hash, Model, Playouts};
pub use search::{long_turn, only_exits, wander_exits, GreedyAgent, MctsAgent, TURN_WANDER};
pub use strategy::StrategyAgent;

use crate::engine::{Decision, Game, RulesOf};
use crate::program::Program;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub trait Agent: Send {
    /// The index of the chosen option; always smaller than `decision.options.len()`.
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize;
    /// The same choice as `choose` would make, with why (`play`'s `why`, serve's panel): the options
    /// a search weighed with their visits and values, the rule of a strategy that chose. Only this
    /// call builds an explanation; `choose` pays nothing for it.
    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        let choice = self.choose(game, decision);
        (
            choice,
            Explanation::none(game, decision, self.name(), choice),
        )
    }
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
    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        let choice = self.choose(game, decision);
        let how = format!("at random among {} options", decision.options.len());
        let e = Explanation::new(game, decision, self.name(), choice, how);
        (choice, e)
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
    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        let how = "always the first option".to_string();
        (0, Explanation::new(game, decision, self.name(), 0, how))
    }
    fn name(&self) -> String {
        "first".into()
    }
    fn reads_labels(&self) -> bool {
        false
    }
}

/// The agent names `--agents` accepts (and `strategy:NAME`).
pub const AGENT_NAMES: &[&str] = &[
    "random", "first", "greedy", "mcts", "ismcts", "search", "learned", "policy", "strategy",
];

/// The budget of `search` alone: a time per decision.
pub const SEARCH_DEFAULT: &str = "50ms";

/// Turns past the decision's that `search:...:deep` plays out by the model's prior.
pub const DEEP_TURNS: u32 = 3;

/// How much a search may think per decision.
enum Budget {
    Iterations(u32),
    Time(std::time::Duration),
    /// Positions reached (`ismcts` and `search` only: `IsmctsAgent::by_positions`).
    Positions(u64),
}

/// `200` (iterations), `1s`, `1.5s` or `250ms` (time per decision, from 1 ms to 1 hour), or
/// `5000positions` (positions reached per decision, from 1).
fn mcts_budget(s: &str) -> Option<Budget> {
    if let Some(x) = s.strip_suffix("positions") {
        return match x.parse::<u64>() {
            Ok(n) if n >= 1 => Some(Budget::Positions(n)),
            _ => None,
        };
    }
    let time = |x: &str, unit: f64| {
        let v: f64 = x.parse().ok()?;
        let secs = v * unit;
        (v.is_finite() && (0.001..=3600.0).contains(&secs))
            .then(|| Budget::Time(std::time::Duration::from_secs_f64(secs)))
    };
    if let Some(x) = s.strip_suffix("ms") {
        time(x, 0.001)
    } else if let Some(x) = s.strip_suffix('s') {
        time(x, 1.0)
    } else {
        match s.parse::<u32>() {
            Ok(n) if n >= 1 => Some(Budget::Iterations(n)),
            _ => None,
        }
    }
}

/// The index of the script's strategy `name`, or a message that names the close ones. A rule set
/// of that name is refused with how to use it: it is not a player.
fn strategy_index(program: &Program, name: &str) -> Result<usize, String> {
    if let Some(i) = program.strategies.iter().position(|s| s.name == name) {
        return Ok(i);
    }
    if program.rule_sets.iter().any(|r| r.name == name) {
        return Err(format!(
            "`{name}` is a rule set, not a strategy: a rule set is not a player (it has no \
             `otherwise` for the decisions its rules leave open). Follow its rules in a search with \
             ismcts's `strict={name}` (`ismcts:1s:POLICY:strict={name}`), or play them in a strategy \
             that starts with `use {name}` (`strategy NAME {{ use {name}  otherwise random }}`)"
        ));
    }
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

/// The rules `strict=NAME` follows: the script's rule set or strategy `name`, or a message that
/// names the close ones.
fn rules_index(program: &Program, name: &str) -> Result<RulesOf, String> {
    if let Some(i) = program.rule_sets.iter().position(|r| r.name == name) {
        return Ok(RulesOf::RuleSet(i));
    }
    if let Some(i) = program.strategies.iter().position(|s| s.name == name) {
        return Ok(RulesOf::Strategy(i));
    }
    let names: Vec<&str> = program
        .rule_sets
        .iter()
        .map(|r| r.name.as_str())
        .chain(program.strategies.iter().map(|s| s.name.as_str()))
        .collect();
    Err(
        match crate::diag::did_you_mean(name, names.iter().copied()) {
            Some(h) => format!("no rule set or strategy is named `{name}`: {h}"),
            None if names.is_empty() => {
                format!("no rule set or strategy is named `{name}`: the script has neither")
            }
            None => format!(
                "no rule set or strategy is named `{name}`; the script's are: {}",
                names.join(", ")
            ),
        },
    )
}

/// Make an agent from its command-line name; `seed` and `seat` make each random agent's choices its own.
/// `strategy:NAME` names a strategy of `program`.
pub fn make_agent(
    program: &Program,
    spec: &str,
    seed: u64,
    seat: u8,
) -> Result<Box<dyn Agent>, String> {
    make_agent_with(program, spec, seed, seat, None)
}

/// [`make_agent`] with a learned model (`cardgame learn`) for `search` and `learned`.
pub fn make_agent_with(
    program: &Program,
    spec: &str,
    seed: u64,
    seat: u8,
    model: Option<&std::sync::Arc<Model>>,
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
        other if other.starts_with("mcts:") => match mcts_budget(&other[5..]) {
            Some(Budget::Iterations(n)) => Ok(Box::new(MctsAgent::new(seat_seed, n))),
            Some(Budget::Time(t)) => Ok(Box::new(MctsAgent::timed(seat_seed, t))),
            Some(Budget::Positions(_)) | None => Err(format!(
                "`{other}`: mcts takes a number of iterations from 1 (`mcts:200`) or a time per \
                 decision (`mcts:1s`, `mcts:250ms`, up to 1 hour)"
            )),
        },
        "ismcts" => Ok(Box::new(IsmctsAgent::new(
            seat_seed,
            ismcts::DEFAULT_ITERATIONS,
            Playout::default(),
        ))),
        other if other.starts_with("ismcts:") => {
            let mut parts: Vec<&str> = other["ismcts:".len()..].split(':').map(str::trim).collect();
            let mut playout = Playout::default();
            // Trailing flags, in any order, each at most once: `strict` or `strict=NAME`,
            // `owners` and `infer`.
            let repeated = || format!("`{other}`: a flag of ismcts is given twice");
            while parts.len() > 2 {
                let Some(last) = parts.last().copied() else {
                    break;
                };
                if last == "strict" || last.starts_with("strict=") {
                    if playout.strict {
                        return Err(repeated());
                    }
                    playout.strict = true;
                    if let Some(rules) = last.strip_prefix("strict=") {
                        let index =
                            rules_index(program, rules).map_err(|e| format!("`{other}`: {e}"))?;
                        playout.rules = Some((index, rules.to_string()));
                    }
                } else if last == "owners" {
                    if playout.owners {
                        return Err(repeated());
                    }
                    playout.owners = true;
                } else if last == "infer" {
                    if playout.infer {
                        return Err(repeated());
                    }
                    playout.infer = true;
                } else {
                    break;
                }
                parts.pop();
            }
            let mut parts = parts.into_iter();
            let budget = parts.next().unwrap_or("");
            if let Some(policy) = parts.next() {
                if policy != "random" {
                    playout.strategy = Some((strategy_index(program, policy)?, policy.to_string()));
                }
            }
            if let Some(turns) = parts.next() {
                playout.turns = match turns {
                    "end" => None,
                    t => match t.parse::<u32>() {
                        Ok(n) if n <= 10_000 => Some(n),
                        _ => {
                            return Err(format!(
                                "`{other}`: the play-outs of ismcts run a number of turns from 0 (no \
                                 play-out) to 10000 past the decision's (`ismcts:1s:random:4`), or to \
                                 the end of the game (`ismcts:1s:NAME:end`)"
                            ))
                        }
                    },
                };
            }
            if parts.next().is_some() {
                return Err(format!(
                    "`{other}`: ismcts is written `ismcts:BUDGET`, `ismcts:BUDGET:POLICY` or \
                     `ismcts:BUDGET:POLICY:TURNS`, each of the last two optionally followed by \
                     `:strict` or `:strict=NAME`"
                ));
            }
            if playout.strict && playout.strategy.is_none() && playout.rules.is_none() {
                return Err(format!(
                    "`{other}`: `strict` follows a strategy's rules, so it needs one as the POLICY \
                     (`ismcts:1s:NAME:strict`)"
                ));
            }
            match mcts_budget(budget) {
                Some(Budget::Iterations(n)) => Ok(Box::new(IsmctsAgent::new(seat_seed, n, playout))),
                Some(Budget::Time(t)) => Ok(Box::new(IsmctsAgent::timed(seat_seed, t, playout))),
                Some(Budget::Positions(n)) => {
                    Ok(Box::new(IsmctsAgent::by_positions(seat_seed, n, playout)))
                }
                None => Err(format!(
                    "`{other}`: ismcts takes a number of iterations from 1 (`ismcts:500`), a time \
                     per decision (`ismcts:1s`, `ismcts:250ms`, up to 1 hour) or the positions \
                     it may reach per decision (`ismcts:5000positions`), then optionally the \
                     strategy that plays its play-outs (`ismcts:1s:NAME`)"
                )),
            }
        }
        "policy" | "policy:best" => match model {
            Some(m) if !m.moves.is_empty() => Ok(Box::new(policy::PolicyAgent::new(
                m.clone(),
                seat_seed,
                spec.trim() == "policy:best",
            ))),
            Some(_) => Err(
                "`policy` plays by a learned model's play-out policy, and this model has none: \
                 learn it again with `cardgame learn FILE --players N --out MODEL`"
                    .to_string(),
            ),
            None => Err(
                "`policy` plays by a learned model's play-out policy: give one with `--model MODEL` \
                 (made by `cardgame learn FILE`)"
                    .to_string(),
            ),
        },
        "learned" => match model {
            Some(m) => Ok(Box::new(LearnedAgent::new(m.clone(), seat_seed, 0.0))),
            None => Err(
                "`learned` plays by a learned model: give one with `--model MODEL` (made by \
                 `cardgame learn FILE`)"
                    .to_string(),
            ),
        },
        other if other == "search" || other.starts_with("search:") => {
            let rest = other.strip_prefix("search:").unwrap_or(SEARCH_DEFAULT);
            // `:infer` last: the worlds weigh the others' past decisions (`infer.rs`).
            let (plain, infer) = match rest.strip_suffix(":infer") {
                Some(b) => (b, true),
                None => (rest, false),
            };
            // `:nomodel`: the same search without the model (to measure what the model adds).
            let (plain, model) = match plain.strip_suffix(":nomodel") {
                Some(b) => (b, None),
                None => (plain, model),
            };
            // `:blend`: a play-out's reward is half the model's judgement where the next turn began.
            let (plain, blend) = match plain.strip_suffix(":blend") {
                Some(b) => (b, true),
                None => (plain, false),
            };
            // `:noprior`: the model judges the play-outs but gives no prior over options (`guide.rs`).
            let (plain, prior) = match plain.strip_suffix(":noprior") {
                Some(b) => (b, false),
                None => (plain, true),
            };
            // `:deep` (`:deep=N`, `:deep=end`): play-outs drawn from the model's play-out policy,
            // for 3 (N) turns or to the end of the game (`Some(None)`).
            let (plain, deep) = match plain.rsplit_once(":deep") {
                Some((b, "")) => (b, Some(Some(DEEP_TURNS))),
                Some((b, "=end")) => (b, Some(None)),
                Some((b, n)) => match n.strip_prefix('=').and_then(|n| n.parse::<u32>().ok()) {
                    Some(n) if (1..=100).contains(&n) => (b, Some(Some(n))),
                    _ => (plain, None),
                },
                None => (plain, None),
            };
            let (budget, mast) = match plain.strip_suffix(":mast") {
                Some(b) => (b, true),
                None => (plain, false),
            };
            // `:shallow`: play-outs cut when the next turn begins, whatever the model says.
            let (budget, shallow) = match budget.strip_suffix(":shallow") {
                Some(b) => (b, true),
                None => (budget, false),
            };
            // `:now`: no play-out; each new position of the tree judged at once.
            let (budget, now) = match budget.strip_suffix(":now") {
                Some(b) => (b, true),
                None => (budget, false),
            };
            if now && (shallow || mast || deep.is_some() || blend) {
                return Err(format!(
                    "`{other}`: `:now` plays no play-out, so it goes with none of `:shallow`, \
                     `:mast`, `:deep` and `:blend`"
                ));
            }
            // A model whose learning measured play-outs to the end stronger (`playouts end`) plays
            // out to the end by its play-out policy unless told otherwise; one whose learning
            // measured the search stronger without it (`playouts script`) is set aside unless a
            // flag asks for what only a model gives.
            let asks_model = shallow || deep.is_some() || blend || !prior;
            // One whose learning measured the search stronger judging each new position at once
            // by the script's measure (`playouts measure`) is set aside the same way, and `:now`
            // taken; one that measured it stronger judging each new position at once by the model
            // (`playouts now`) takes `:now` unless a flag asks for play-outs.
            let now = now
                || match model.map(|m| m.playouts) {
                    Some(Playouts::Measure) => !asks_model && !mast,
                    Some(Playouts::Now) => !shallow && deep.is_none() && !blend && !mast,
                    Some(Playouts::End | Playouts::Turn | Playouts::Script) | None => false,
                };
            let model = match model {
                Some(m)
                    if matches!(m.playouts, Playouts::Script | Playouts::Measure) && !asks_model =>
                {
                    None
                }
                model => model,
            };
            let deep = match (deep, model) {
                (None, Some(m))
                    if !shallow && m.playouts == Playouts::End && !m.moves.is_empty() =>
                {
                    Some(None)
                }
                (deep, _) => deep,
            };
            // With a model: play-outs by its play-out policy to the end of the game (`:deep=N`: N
            // turns past the decision's), else (a model without a play-out policy) cut when the
            // next turn begins, judged by the model where they stop, in worlds that keep each
            // player's unseen cards that player's (what the model was fitted on); without: play-outs
            // of two turns (at random, or by MAST with `:mast`), judged by the script's measure.
            let playout = Playout {
                turns: match (model, deep) {
                    _ if now => Some(0),
                    (Some(_), Some(n)) => n,
                    (Some(_), None) => Some(1),
                    (None, _) => Some(2),
                },
                owners: model.is_some(),
                infer,
                ..Playout::default()
            };
            let agent = match mcts_budget(budget) {
                Some(Budget::Iterations(n)) => IsmctsAgent::new(seat_seed, n, playout),
                Some(Budget::Time(t)) => IsmctsAgent::timed(seat_seed, t, playout),
                Some(Budget::Positions(n)) => IsmctsAgent::by_positions(seat_seed, n, playout),
                None => {
                    return Err(format!(
                        "`{other}`: search takes a time per decision (`search:50ms`, `search:1s`, \
                         up to 1 hour), a number of iterations from 1 (`search:500`) or the positions \
                         it may reach per decision (`search:5000positions`), then \
                         optionally `:now`, `:shallow`, `:mast`, `:deep` (or `:deep=N`, N from 1 to 100, or \
                         `:deep=end`), `:noprior`, `:blend`, `:nomodel` and `:infer`, in that order"
                    ))
                }
            };
            // The tree follows the model's play-out policy (its chances as PUCT's prior, and at the
            // root where the prior was never fitted) where the play-outs do, and where there is no
            // play-out (`:now`) but the model has a policy: judged at once, a position says nothing
            // of which options are worth trying, and the policy does (docs/performance.md).
            let policy_tree = match model {
                Some(m) => deep.is_some() || (now && !m.moves.is_empty()),
                None => false,
            };
            let mut agent = agent.guided(
                model.cloned(),
                (mast, prior, policy_tree),
                format!("search:{rest}"),
            );
            agent.blend(blend && model.is_some());
            Ok(Box::new(agent))
        }
        other if other.starts_with("strategy:") => {
            let i = strategy_index(program, other["strategy:".len()..].trim())?;
            let def = &program.strategies[i];
            let fallback = make_agent_with(program, &def.fallback, seed, seat, model)?;
            Ok(Box::new(StrategyAgent::new(i, def.name.clone(), fallback)))
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

#[cfg(test)]
mod tests {
    use super::make_agent;
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Status};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// `mcts` takes a number of iterations or a time per decision; anything else is refused.
    fn program() -> crate::program::Program {
        check_source(
            "game \"G\" { players 2 }\nflow { win [seat(1)] \"x\" }\n\
             strategy steady \"take the first\" { prefer choose \"a\" }\n",
        )
        .program
        .expect("the script checks")
    }

    #[test]
    fn mcts_budgets_are_iterations_or_a_time() {
        let p = program();
        for (spec, name) in [
            ("mcts", "mcts:200"),
            ("mcts:50", "mcts:50"),
            ("mcts:1s", "mcts:1s"),
            ("mcts:250ms", "mcts:250ms"),
            ("mcts:1.5s", "mcts:1500ms"),
            ("ismcts", "ismcts:1000"),
            ("ismcts:50", "ismcts:50"),
            ("ismcts:1s", "ismcts:1s"),
            ("ismcts:250ms:random", "ismcts:250ms"),
            ("search", "search:50ms"),
            ("search:20", "search:20"),
            ("search:5000positions", "search:5000positions"),
            ("ismcts:5000positions", "ismcts:5000positions"),
            ("search:1s:mast", "search:1s:mast"),
            ("search:1s:infer", "search:1s:infer"),
            ("search:1s:mast:infer", "search:1s:mast:infer"),
            ("search:1s:deep", "search:1s:deep"),
            ("search:1s:deep=2:noprior", "search:1s:deep=2:noprior"),
            ("search:1s:deep=end", "search:1s:deep=end"),
            ("search:300:shallow", "search:300:shallow"),
            ("search:50ms:nomodel", "search:50ms:nomodel"),
            ("search:300:now", "search:300:now"),
            ("search:1s:now:nomodel", "search:1s:now:nomodel"),
            ("ismcts:20:random:infer", "ismcts:20:random:infer"),
            (
                "ismcts:20:steady:end:infer:strict",
                "ismcts:20:steady:end:strict:infer",
            ),
            ("ismcts:250ms:steady", "ismcts:250ms:steady"),
            ("ismcts:250ms:steady:end", "ismcts:250ms:steady:end"),
            ("ismcts:20:random:4", "ismcts:20:random:4"),
            ("ismcts:20:random:2", "ismcts:20"),
            ("ismcts:20:random:0", "ismcts:20:random:0"),
            ("ismcts:20:steady:strict", "ismcts:20:steady:strict"),
            ("ismcts:20:steady:4:strict", "ismcts:20:steady:4:strict"),
            ("ismcts:20:steady:2:strict", "ismcts:20:steady:strict"),
            (
                "ismcts:20:steady:end:strict=steady",
                "ismcts:20:steady:end:strict=steady",
            ),
            (
                "ismcts:20:random:strict=steady",
                "ismcts:20:random:strict=steady",
            ),
            (
                "ismcts:20:random:2:strict=steady",
                "ismcts:20:random:strict=steady",
            ),
            ("ismcts:20:random:owners", "ismcts:20:random:owners"),
            ("ismcts:20:random:2:owners", "ismcts:20:random:owners"),
            (
                "ismcts:20:steady:end:strict=steady:owners",
                "ismcts:20:steady:end:strict=steady:owners",
            ),
            (
                "ismcts:20:steady:owners:strict",
                "ismcts:20:steady:strict:owners",
            ),
        ] {
            let a = make_agent(&p, spec, 1, 0).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(a.name(), name);
        }
        let refused = |bad: &str| {
            make_agent(&p, bad, 1, 0)
                .err()
                .unwrap_or_else(|| panic!("{bad} accepted"))
        };
        for bad in [
            "mcts:0",
            "mcts:0s",
            "mcts:2h",
            "mcts:-1s",
            "mcts:5000s",
            "mcts:fast",
            "ismcts:0",
            "ismcts:fast",
            "search:fast",
            "search:1s:deep=0",
            "search:1s:deepest",
            "search:0",
        ] {
            let e = refused(bad);
            assert!(e.contains("time per decision"), "{e}");
        }
        for bad in [
            "search:1s:now:shallow",
            "search:1s:now:mast",
            "search:1s:now:deep",
            "search:1s:now:blend",
        ] {
            let e = refused(bad);
            assert!(e.contains("`:now` plays no play-out"), "{e}");
        }
        let e = make_agent(&p, "ismcts:1s:stedy", 1, 0)
            .err()
            .expect("an unknown strategy is refused");
        assert!(e.contains("unknown strategy `stedy`"), "{e}");
        for bad in [
            "ismcts:20:random:10001",
            "ismcts:20:random:soon",
            "ismcts:20:random:2:x",
            "ismcts:20:random:strict",
            "ismcts:20:steady:2:strict:strict",
            "ismcts:20:steady:2:strict=steady:strict",
            "ismcts:20:steady:strict=",
            "ismcts:20:random:owners:owners",
            "ismcts:20:random:infer:infer",
            "ismcts:20:steady:strict:owners:strict",
        ] {
            let e = refused(bad);
            assert!(e.contains("ismcts"), "{e}");
        }
    }

    /// A search with a time budget stops thinking when the time is up.
    #[test]
    fn a_timed_search_decides_within_its_time() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/market-race.cardgame"
        ))
        .expect("the example");
        let p = Arc::new(check_source(&src).program.expect("the script checks"));
        let mut config = GameConfig::new(2, 3);
        config.record = false;
        let game = Game::new(p.clone(), config);
        for spec in ["mcts:30ms", "ismcts:30ms", "ismcts:30ms:big_money"] {
            let mut agent = make_agent(&p, spec, 1, 0).expect("agent");
            let mut game = game.clone();
            for _ in 0..3 {
                let Status::Decision(d) = game.status().clone() else {
                    break;
                };
                let start = Instant::now();
                let i = agent.choose(&game, &d);
                // One iteration may run past the budget; a debug build is slow, so allow much more.
                assert!(start.elapsed() < Duration::from_secs(5), "{spec}");
                assert!(i < d.options.len());
                game.apply(i).expect("applies");
            }
        }
    }

    /// `ismcts` infers from the host's choice in Monty Hall: as the contestant it switches doors.
    #[test]
    fn ismcts_switches_doors_after_the_host_opens_one() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/monty-hall.cardgame"
        ))
        .expect("the example");
        let p = Arc::new(check_source(&src).program.expect("the script checks"));
        let mut switched = 0;
        for seed in 0..20 {
            let mut game = Game::new(p.clone(), GameConfig::new(2, seed));
            let mut contestant = make_agent(&p, "ismcts:100", seed, 0).expect("agent");
            let mut host = make_agent(&p, "random", seed, 1).expect("agent");
            while let Status::Decision(d) = game.status().clone() {
                let i = if d.player == 0 {
                    contestant.choose(&game, &d)
                } else {
                    host.choose(&game, &d)
                };
                switched += usize::from(d.options[i].starts_with("Switch"));
                game.apply(i).expect("applies");
            }
        }
        assert!(switched >= 18, "switched in {switched} of 20 games");
    }
}
