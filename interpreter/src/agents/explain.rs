//! Agents stage: why an agent chose (`Agent::choose_explained`): the options it weighed with their
//! visits and values (the searches, `greedy`), or the rule that chose (a written strategy).
//!
//! An agent keeps its notes only while `choose_explained` asks for them ([`Notes::on`]): a search's
//! hot path (`choose` in a simulation) tests one flag per decision and builds nothing.

use crate::engine::{Decision, Game};
use crate::value::Value;
use serde::Serialize;
use std::fmt;

/// An option as the agent weighed it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Weighed {
    /// The option's label.
    pub option: String,
    /// Iterations of the search that went through it (searches only).
    pub visits: Option<u32>,
    /// Its value for the deciding seat, on the scale `Explanation::how` names.
    pub value: Option<f64>,
    /// Whether the agent took it.
    pub chosen: bool,
}

/// Why an agent took an option of one decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The agent as named on the command line (`search:50ms`, `strategy:sensible`).
    pub agent: String,
    /// The seat that decided, as the game names it (`P2`).
    pub player: String,
    /// The decision's prompt.
    pub prompt: String,
    /// The option taken.
    pub chosen: String,
    /// How it chose, in a sentence: the budget spent and the values' scale, the rule that chose.
    pub how: String,
    /// The options it weighed, best first (empty when it weighed none).
    pub options: Vec<Weighed>,
}

/// The most options the text of an explanation lists (the JSON has them all).
const SHOWN: usize = 8;

impl Explanation {
    /// An explanation of `choice` at `decision` with no options weighed.
    pub fn new(
        game: &Game,
        decision: &Decision,
        agent: String,
        choice: usize,
        how: String,
    ) -> Self {
        Explanation {
            agent,
            player: game.label(&Value::Player(decision.player)),
            prompt: decision.prompt.clone(),
            chosen: decision.options.get(choice).cloned().unwrap_or_default(),
            how,
            options: Vec::new(),
        }
    }

    /// The same with the options weighed, ordered best first: by visits (when counted), then value.
    pub fn weighing(mut self, mut options: Vec<Weighed>) -> Self {
        options.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(
                b.value
                    .unwrap_or(f64::MIN)
                    .total_cmp(&a.value.unwrap_or(f64::MIN)),
            )
        });
        self.options = options;
        self
    }

    /// What an agent that gives no reasons says.
    pub fn none(game: &Game, decision: &Decision, agent: String, choice: usize) -> Self {
        let how = if decision.options.len() <= 1 {
            "the only option".to_string()
        } else {
            "it gives no reasons for its choices".to_string()
        };
        Explanation::new(game, decision, agent, choice, how)
    }
}

/// A readable text: who took what and how, then the options weighed, best first.
impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.prompt.is_empty() {
            String::new()
        } else {
            format!(" at \"{}\"", self.prompt)
        };
        writeln!(
            f,
            "{} ({}){at} took `{}`: {}",
            self.player, self.agent, self.chosen, self.how
        )?;
        if self.options.is_empty() {
            return Ok(());
        }
        let visits = self.options.iter().any(|o| o.visits.is_some());
        let value = self.options.iter().any(|o| o.value.is_some());
        let mut head = String::from("   ");
        if visits {
            head.push_str("  visits");
        }
        if value {
            head.push_str("    value");
        }
        writeln!(f, "{head}  option")?;
        for o in self.options.iter().take(SHOWN) {
            let mut line = String::from(if o.chosen { "  *" } else { "   " });
            if visits {
                line.push_str(&format!(
                    "{:>8}",
                    o.visits.map_or("-".into(), |v| v.to_string())
                ));
            }
            if value {
                line.push_str(&format!(
                    "{:>9}",
                    o.value.map_or("-".into(), |v| format!("{v:.3}"))
                ));
            }
            writeln!(f, "{line}  {}", o.option)?;
        }
        if self.options.len() > SHOWN {
            writeln!(f, "     ... and {} more", self.options.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// What an agent noted of its last decision while asked to: how it chose and the options it weighed.
#[derive(Default)]
pub(super) struct Notes {
    /// Whether notes are wanted for the decision being made.
    pub on: bool,
    kept: Option<(String, Vec<Weighed>)>,
}

impl Notes {
    /// Keeps `how` and `options` (built only when notes are on).
    pub fn keep(&mut self, note: impl FnOnce() -> (String, Vec<Weighed>)) {
        if self.on {
            self.kept = Some(note());
        }
    }

    /// Runs `choose` with notes on and turns what it noted into an explanation (`fallback` when it
    /// noted nothing: a forced move, say).
    pub fn explain<A: super::Agent + ?Sized>(
        agent: &mut A,
        notes: impl Fn(&mut A) -> &mut Notes,
        game: &Game,
        decision: &Decision,
    ) -> (usize, Explanation) {
        notes(agent).on = true;
        notes(agent).kept = None;
        let choice = agent.choose(game, decision);
        let n = notes(agent);
        n.on = false;
        let kept = n.kept.take();
        let name = agent.name();
        let e = match kept {
            Some((how, options)) => {
                Explanation::new(game, decision, name, choice, how).weighing(options)
            }
            None => Explanation::none(game, decision, name, choice),
        };
        (choice, e)
    }
}

/// The options of `values` (option index, value) as weighed by a look-ahead without visits, the
/// chosen one marked.
pub(super) fn valued(decision: &Decision, values: &[(usize, f64)], choice: usize) -> Vec<Weighed> {
    values
        .iter()
        .map(|&(i, v)| Weighed {
            option: decision.options.get(i).cloned().unwrap_or_default(),
            visits: None,
            value: Some(v),
            chosen: i == choice,
        })
        .collect()
}

/// The options `allowed` with their visits and mean values from `stats`, the chosen one marked.
pub(super) fn weighed(
    decision: &Decision,
    allowed: &[usize],
    choice: usize,
    stats: impl Fn(usize) -> Option<(u32, f64)>,
) -> Vec<Weighed> {
    allowed
        .iter()
        .map(|&i| {
            let s = stats(i);
            Weighed {
                option: decision.options.get(i).cloned().unwrap_or_default(),
                visits: Some(s.map_or(0, |s| s.0)),
                value: s.map(|s| s.1),
                chosen: i == choice,
            }
        })
        .collect()
}

/// A rule as an explanation names it: `rule 2 of strategy `sensible` (line 130)`.
pub(super) fn rule_named(game: &Game, of: crate::engine::RulesOf, rule: usize) -> String {
    let p = game.program();
    let (what, name, rules) = match of {
        crate::engine::RulesOf::Strategy(i) => match p.strategies.get(i) {
            Some(s) => ("strategy", s.name.as_str(), &s.rules),
            None => return format!("rule {}", rule + 1),
        },
        crate::engine::RulesOf::RuleSet(i) => match p.rule_sets.get(i) {
            Some(s) => ("rule set", s.name.as_str(), &s.rules),
            None => return format!("rule {}", rule + 1),
        },
    };
    match rules.get(rule) {
        Some(r) => format!(
            "rule {} of {what} `{name}` (line {})",
            rule + 1,
            p.line_of(r.span.start)
        ),
        None => format!("rule {} of {what} `{name}`", rule + 1),
    }
}
