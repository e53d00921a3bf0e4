//! Engine stage (closures): the conditions and `by` expressions of strategies' and rule sets' rules.
//!
//! A rule (`prefer TARGET [if C] [by E]`) reads the values it binds in slots 0.. (an action's
//! arguments, words of its domains' item types; a `choose`'s value, of the rule's type) and `you`,
//! the decider. Its condition and its `by` are compiled once per program; `strategy.rs` asks them
//! for each option a rule matches, and the walker evaluates where they did not compile or a closure
//! cannot answer. The closures read the state and change nothing.

use super::env::{Answer, Env, Slots};
use super::expr::{compile, is_word, Cx, Int};
use super::functions::Callables;
use crate::engine::state::{Layout, State};
use crate::program::{Expr, Program, StrategyRule, StrategyTarget, Ty};
use std::rc::Rc;

/// A rule's condition and `by`, each compiled (`None`: absent, or the walker evaluates it).
pub(crate) struct RuleCode {
    condition: Option<Int>,
    by: Option<Int>,
}

/// The types of the values rule `r` binds, in slots 0.. (`Ty::Any` where they are not words).
fn bound(p: &Program, r: &StrategyRule) -> Vec<Ty> {
    match &r.target {
        StrategyTarget::Action(a) => {
            let Some(a) = p.actions.get(a.index()) else {
                return Vec::new();
            };
            // A parameter is a word of its domain's item type, as in the action's body.
            let mut cx = Cx::new(p, a.body.slots as usize);
            (a.params.iter().enumerate())
                .map(|(i, e)| {
                    let t = super::each::item_type(&cx, e).unwrap_or(Ty::Any);
                    cx.set_type(i as u16, t.clone());
                    t
                })
                .collect()
        }
        StrategyTarget::Choose { ty, .. } => vec![ty.clone()],
        StrategyTarget::Pass | StrategyTarget::Branch(_) => Vec::new(),
    }
}

/// Rule `r`'s expression `e` compiled, the rule's bound values in slots 0.. (`None`: the walker
/// evaluates it).
fn compiled(p: &Program, r: &StrategyRule, e: &Expr, fns: &Rc<Callables>) -> Option<Int> {
    let types = bound(p, r);
    let mut cx = Cx::new(p, (r.slots as usize).max(types.len()).max(1));
    cx.fns = fns.clone();
    for (s, t) in types.into_iter().enumerate() {
        if is_word(&t) {
            cx.set_type(s as u16, t);
        }
    }
    compile(&mut cx, e).ok()
}

/// Every rule of `rules` compiled.
pub(super) fn build(p: &Program, rules: &[StrategyRule], fns: &Rc<Callables>) -> Vec<RuleCode> {
    (rules.iter())
        .map(|r| RuleCode {
            condition: r.condition.as_ref().and_then(|c| compiled(p, r, c, fns)),
            by: r.by.as_ref().and_then(|e| compiled(p, r, e, fns)),
        })
        .collect()
}

impl RuleCode {
    /// Whether the condition compiled (`true` for a rule without one) and the `by` too.
    #[cfg(test)]
    pub(crate) fn whole(&self, r: &StrategyRule) -> (bool, bool) {
        (
            r.condition.is_none() || self.condition.is_some(),
            r.by.is_none() || self.by.is_some(),
        )
    }

    /// The condition's value for the bound values `slots` (`None`: no condition compiled).
    pub(crate) fn holds(
        &self,
        (p, s, l): (&Program, &State, &Layout),
        decider: u8,
        slots: &mut Slots,
    ) -> Option<Answer<bool>> {
        let c = self.condition.as_ref()?;
        let mut env = Env::new(p, s, l, decider, slots);
        Some(env.answer(|env| c(env)).map(|v| v != 0))
    }

    /// The `by`'s value for the bound values `slots` (`None`: not compiled).
    pub(crate) fn by(
        &self,
        (p, s, l): (&Program, &State, &Layout),
        decider: u8,
        slots: &mut Slots,
    ) -> Option<Answer<i64>> {
        let e = self.by.as_ref()?;
        let mut env = Env::new(p, s, l, decider, slots);
        Some(env.answer(|env| e(env)))
    }
}
