//! Engine stage: strategies and rule sets: which option of the pending decision a script's
//! `strategy` (or the rules of a `rules` set) picks.
//!
//! The rules are tried in order against the options the pending frame offers (their values, never
//! their labels, which play-outs may leave out); the first rule that matches an option picks. The
//! conditions are the closures' where they compiled (closures/rules.rs), which change nothing;
//! the walker evaluates the others on a copy of the game, so the game itself never changes.

use super::exec::Frame;
use super::state::Ctx;
use super::{Game, RuntimeError, Status};
use crate::program::{StrategyRule, StrategyTarget, Ty};
use crate::value::Value;

/// Whose ordered rules are tried: a strategy's or a rule set's, by its index in the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesOf {
    /// `Program::strategies[i]`
    Strategy(usize),
    /// `Program::rule_sets[i]`
    RuleSet(usize),
}

/// An option of the pending decision as a strategy sees it.
pub(super) enum Offered {
    /// A menu option: the action and its arguments.
    Action(crate::program::ActionId, Vec<Value>),
    /// An option of a choice: the value offered.
    Value(Value),
    /// `pass` or `done`.
    Pass,
    /// A branch of `choose { "text" { } ... }`: its text (branch texts are always built).
    Branch(String),
    /// An option no rule can name.
    Other,
}

/// The option and the rule that picked it, and the copy of the game the walker evaluated on.
type Picked = (Option<(usize, usize)>, Option<Game>);

/// The copy of `game` the walker evaluates rules on, made the first time it is needed.
fn copy<'g>(scratch: &'g mut Option<Game>, game: &Game) -> &'g mut Game {
    scratch.get_or_insert_with(|| {
        let mut g = game.clone();
        g.st.record = false;
        g
    })
}

/// The runtime error a closure met, where it gave no value (`Answer`).
fn fault_of<T>(answer: &Option<super::closures::Answer<T>>) -> Option<super::closures::Fault> {
    answer
        .as_ref()
        .and_then(|a| a.as_ref().err().copied().flatten())
}

/// Whether a value has a type (the binder of a `choose` rule only sees values of its type).
fn has_type(v: &Value, ty: &Ty) -> bool {
    matches!(
        (v, ty),
        (_, Ty::Any)
            | (Value::Int(_), Ty::Int)
            | (Value::Bool(_), Ty::Bool)
            | (Value::Text(_), Ty::Text)
            | (Value::Player(_), Ty::Player)
            | (Value::Card(_), Ty::Card)
            | (Value::Kind(_), Ty::Kind)
            | (Value::Tag(_), Ty::Tag)
            | (Value::Space(_), Ty::Space)
            | (Value::Zone(_), Ty::Zone)
            | (Value::List(_), Ty::List(_))
    )
}

impl Game {
    /// The pending decision's options, in the order of `Decision::options`.
    pub(super) fn offered_options(&self) -> Vec<Offered> {
        let Status::Decision(d) = &self.st.status else {
            return Vec::new();
        };
        let mut out: Vec<Offered> = match self.st.frames.last() {
            Some(Frame::Menu(m)) => m
                .offered
                .iter()
                .map(|(a, args)| Offered::Action(*a, args.to_vec()))
                .collect(),
            Some(Frame::ChooseOne { offered, .. }) => {
                offered.iter().cloned().map(Offered::Value).collect()
            }
            Some(Frame::ChooseMany(f)) => f
                .offered
                .iter()
                .map(|&i| Offered::Value(f.candidates.get(i).cloned().unwrap_or_default()))
                .collect(),
            Some(Frame::Simul(f)) => f.offered.iter().cloned().map(Offered::Value).collect(),
            Some(Frame::Branch { .. }) => d.options.iter().cloned().map(Offered::Branch).collect(),
            _ => Vec::new(),
        };
        // A menu's `pass` and a multiple choice's `done` come last.
        if matches!(
            self.st.frames.last(),
            Some(Frame::Menu(_)) | Some(Frame::ChooseMany(_))
        ) && d.options.len() == out.len() + 1
        {
            out.push(Offered::Pass);
        }
        out.resize_with(d.options.len(), || Offered::Other);
        out
    }

    /// The option that strategy number `strategy` of the program picks for the pending decision, or
    /// `None` when no rule applies (or no decision is pending). The game does not change: the
    /// conditions the walker evaluates are evaluated on a copy. A condition that fails at runtime is an error.
    pub fn strategy_choice(&self, strategy: usize) -> Result<Option<usize>, RuntimeError> {
        self.rules_choice(RulesOf::Strategy(strategy))
    }

    /// The option that the rules of a strategy or a rule set pick for the pending decision, as
    /// [`Game::strategy_choice`] (a rule set's rules are tried exactly as a strategy's).
    pub fn rules_choice(&self, of: RulesOf) -> Result<Option<usize>, RuntimeError> {
        Ok(self.rules_pick(of)?.map(|(option, _)| option))
    }

    /// [`Game::rules_choice`] with the rule that picked: (the option, the rule's index among the
    /// rules tried, which include those a `use` splices in).
    pub fn rules_pick(&self, of: RulesOf) -> Result<Option<(usize, usize)>, RuntimeError> {
        Ok(self.pick(of)?.0)
    }

    /// Tests: [`Game::rules_pick`], and the expressions the walker evaluated to pick.
    #[cfg(test)]
    pub(crate) fn rules_walked(
        &self,
        of: RulesOf,
    ) -> Result<(Option<(usize, usize)>, u64), RuntimeError> {
        let (picked, scratch) = self.pick(of)?;
        let walked = scratch.map_or(0, |g| g.counted().evaluated - self.counted().evaluated);
        Ok((picked, walked))
    }

    /// [`Game::rules_pick`], and the copy of the game the walker evaluated on, where it evaluated.
    /// On `Engine::Closures`, a rule's condition and `by` are their closures' (closures/rules.rs),
    /// which read the state and change nothing: on the game itself, or on the copy once the
    /// walker has evaluated on it (a walked expression may change it: a pile refilled, a draw),
    /// so that every expression reads what it read when the walker evaluated them all.
    fn pick(&self, of: RulesOf) -> Result<Picked, RuntimeError> {
        let rules = match of {
            RulesOf::Strategy(i) => self.prog.strategies.get(i).map(|s| &s.rules),
            RulesOf::RuleSet(i) => self.prog.rule_sets.get(i).map(|r| &r.rules),
        };
        let Some(rules) = rules else {
            return Ok((None, None));
        };
        let Status::Decision(d) = &self.st.status else {
            return Ok((None, None));
        };
        let (decider, prompt) = (d.player, d.prompt.clone());
        let options = self.offered_options();
        let p: &crate::program::Program = &self.prog;
        let code = (p.closures.as_deref())
            .filter(|_| self.st.fixed.closures && !self.st.recording)
            .and_then(|cl| cl.rules(of));
        let mut scratch: Option<Game> = None;
        for (r, rule) in rules.iter().enumerate() {
            let candidates: Vec<(usize, Vec<Value>)> = options
                .iter()
                .enumerate()
                .filter_map(|(i, o)| match (&rule.target, o) {
                    (StrategyTarget::Pass, Offered::Pass) => Some((i, Vec::new())),
                    (StrategyTarget::Branch(t), Offered::Branch(label))
                        if label.starts_with(t.as_str()) =>
                    {
                        Some((i, Vec::new()))
                    }
                    (StrategyTarget::Action(a), Offered::Action(b, args)) if a == b => {
                        Some((i, args.clone()))
                    }
                    (StrategyTarget::Choose { ty, prompt: p }, Offered::Value(v))
                        if has_type(v, ty)
                            && p.as_ref().is_none_or(|p| prompt.starts_with(p.as_str())) =>
                    {
                        Some((i, vec![v.clone()]))
                    }
                    _ => None,
                })
                .collect();
            let compiled = code.and_then(|c| c.get(r));
            let mut best: Option<(usize, i64)> = None;
            for (i, args) in candidates {
                let holds = match rule.condition {
                    None => true,
                    Some(_) => {
                        let on = scratch.as_ref().unwrap_or(self);
                        let state = (p, &on.st, &*on.layout);
                        let mut slots = super::closures::arg_slots(&args);
                        match compiled.and_then(|c| c.holds(state, decider, &mut slots)) {
                            Some(Ok(h)) => h,
                            answer => {
                                let g = copy(&mut scratch, self);
                                g.raise(fault_of(&answer))?;
                                let walked = g.rule_holds(rule, decider, &args);
                                super::sites::check_oracle(&g.prog, fault_of(&answer), &walked);
                                walked?
                            }
                        }
                    }
                };
                if !holds {
                    continue;
                }
                let Some(by) = &rule.by else {
                    return Ok((Some((i, r)), scratch));
                };
                let on = scratch.as_ref().unwrap_or(self);
                let state = (p, &on.st, &*on.layout);
                let mut slots = super::closures::arg_slots(&args);
                let v = match compiled.and_then(|c| c.by(state, decider, &mut slots)) {
                    Some(Ok(v)) => v,
                    answer => {
                        let g = copy(&mut scratch, self);
                        g.raise(fault_of(&answer))?;
                        let walked = g.rule_eval(by, rule, decider, &args);
                        super::sites::check_oracle(&g.prog, fault_of(&answer), &walked);
                        walked?.as_int().unwrap_or(i64::MIN)
                    }
                };
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((i, v));
                }
            }
            if let Some((i, _)) = best {
                return Ok((Some((i, r)), scratch));
            }
        }
        Ok((None, scratch))
    }

    fn rule_holds(
        &mut self,
        rule: &StrategyRule,
        decider: u8,
        args: &[Value],
    ) -> Result<bool, RuntimeError> {
        match &rule.condition {
            None => Ok(true),
            Some(c) => Ok(matches!(
                self.rule_eval(c, rule, decider, args)?,
                Value::Bool(true)
            )),
        }
    }

    /// Evaluates a rule's expression with `args` in slots 0.. and `you` the decider.
    fn rule_eval(
        &mut self,
        e: &crate::program::Expr,
        rule: &StrategyRule,
        decider: u8,
        args: &[Value],
    ) -> Result<Value, RuntimeError> {
        let mut m = self.mach();
        let base = m.s.ctxs.len();
        let mut locals = args.to_vec();
        crate::engine::state::grow_locals(&mut locals, rule.slots as usize);
        m.s.ctxs.push(Ctx {
            locals,
            you: Some(decider),
            this: None,
        });
        m.s.depth = 0;
        m.s.exec_count = 0;
        let r = m.eval_at(super::sites::Site::Rule, e);
        m.s.truncate_ctxs(base);
        r
    }
}
