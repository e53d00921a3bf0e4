//! Engine stage (the walker, entered from outside): the places outside eval.rs and stmt.rs where
//! the walker evaluates an expression (issue 42's census). Tests count, per place, its calls and
//! the expressions the walker evaluated under them (`Counted::sites`, engine/probe.rs).

use super::closures::{Answer, Fault};
use super::exec::{Mach, R};
use crate::program::{Expr, Program};
use crate::value::Value;

/// The places outside eval.rs and stmt.rs where the walker evaluates an expression (issue 42's
/// census; counted in tests by `Mach::eval_at`, `Counted::sites`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Site {
    /// create.rs: a table's column for the number of players.
    Columns,
    /// create.rs: a variable's initial value its closure did not answer.
    Init,
    /// create.rs: a kind's copies or the board's side its closure did not answer.
    Size,
    /// exec.rs: a rules test's `start PROC(args)` arguments.
    Start,
    /// rounds.rs: `eliminate P for round`, the walker's statement.
    OutForRound,
    /// options.rs: a part of an action's label whose closure did not answer.
    LabelPart,
    /// options.rs: a parameter's domain listed by the walker's enumeration.
    Domain,
    /// label.rs: a part of a text the walker builds.
    Text,
    /// strategy.rs: a rule's condition or `by` its closure did not answer.
    Rule,
    /// lists.rs: `eval_list`.
    List,
    /// lists.rs: `eval_items`.
    Items,
    /// builtins.rs: a builtin's arguments, inside the walker.
    Builtin,
    /// closures/in_place.rs: a part of a `log` or a `let`'s value its closure did not answer.
    InPlace,
    /// closures/draws.rs: the list a draw takes from, its closure not answering.
    Draw,
    /// closures/decisions.rs: a `simultaneously`'s seats, their closure not answering.
    Seats,
    /// decide.rs: a decision's count or domain, their closures not answering.
    Decide,
    /// sample.rs: a seat's measure its closure did not answer (`Game::eval_with`).
    Measure,
    /// testing.rs: a rules test's expression (`Game::eval_with_locals`).
    Tests,
    /// `Game::eval`: agents' and tests' expressions.
    GameEval,
}

/// How many [`Site`]s there are.
#[cfg(test)]
pub(crate) const SITES: usize = 19;

/// The sites' names, in [`Site`]'s order.
#[cfg(test)]
pub(crate) const SITE_NAMES: [&str; SITES] = [
    "create: columns",
    "create: init",
    "create: size",
    "exec: start args",
    "rounds: out for round",
    "options: label part",
    "options: domain",
    "label: text part",
    "strategy: rule",
    "lists: eval_list",
    "lists: eval_items",
    "builtins",
    "closures/in_place",
    "closures/draws",
    "closures/decisions: seats",
    "decide: count, domain",
    "sample: measure",
    "testing: rules tests",
    "Game::eval",
];

impl<'a> Mach<'a> {
    /// `e` evaluated by the walker, entered from `site` outside eval.rs and stmt.rs (tests count
    /// each site's calls and what the walker evaluated under them: `Counted::sites`).
    #[cfg_attr(not(test), allow(unused_variables))]
    #[cfg_attr(test, track_caller)]
    pub(crate) fn eval_at(&mut self, site: Site, e: &Expr) -> R<Value> {
        #[cfg(test)]
        let before = self.s.probe.counted.evaluated;
        let r = self.eval(e);
        #[cfg(test)]
        {
            let c = &mut self.s.probe.counted;
            c.sites[site as usize].calls += 1;
            c.sites[site as usize].evaluated += c.evaluated - before;
        }
        r
    }

    /// `e` at `site` given its closure's answer (`None`: it has no closure): the value the closure
    /// gave; the runtime error it met, raised as the walker raises it (debug builds: `walk`
    /// evaluates `e` instead and must fail with the same error, the walker being the closures'
    /// oracle); else `walk`'s value (the walker's).
    pub(crate) fn answered_at<T>(
        &mut self,
        site: Site,
        e: &Expr,
        answer: Option<Answer<T>>,
        walk: fn(&mut Self, Site, &Expr) -> R<T>,
    ) -> R<T> {
        let fault = match answer {
            Some(Ok(v)) => return Ok(v),
            Some(Err(fault)) => fault,
            None => None,
        };
        self.raise(fault)?;
        let walked = walk(self, site, e);
        check_oracle(self.p, fault, &walked);
        walked
    }

    /// A runtime error a closure met (`fault`), raised as the walker raises it, in release builds;
    /// debug builds raise nothing here: the walker evaluates the same and is checked to fail the
    /// same way ([`check_oracle`]).
    #[cfg_attr(debug_assertions, allow(unused_variables))]
    pub(crate) fn raise(&self, fault: Option<Fault>) -> R<()> {
        #[cfg(not(debug_assertions))]
        if let Some(fault) = fault {
            return Err(self.err(fault.span, fault.message(self.p)));
        }
        Ok(())
    }

    /// [`Mach::eval_at`] of a number.
    #[cfg_attr(test, track_caller)]
    pub(crate) fn eval_int_at(&mut self, site: Site, e: &Expr) -> R<i64> {
        match self.eval_at(site, e)? {
            Value::Int(i) => Ok(i),
            v => Err(self.err(
                e.span,
                format!("expected a number, found {}", self.describe(&v)),
            )),
        }
    }
}

/// Debug builds: where the closures met `fault` and gave way, the walker's run of the same
/// evaluation (`walked`) must fail with the same span and message (tests' oracle of the faults).
#[cfg_attr(not(debug_assertions), allow(unused_variables))]
pub(crate) fn check_oracle<T>(program: &Program, fault: Option<Fault>, walked: &R<T>) {
    #[cfg(debug_assertions)]
    if let Some(fault) = fault {
        let walked = walked.as_ref().err().map(|e| (e.span, e.message.as_str()));
        assert_eq!(
            walked,
            Some((fault.span, fault.message(program).as_str())),
            "the closures met an error the walker does not raise"
        );
    }
}
