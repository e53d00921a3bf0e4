//! Engine stage (closures): the compiled form that replaces the walker, typed closures over int slots.
//!
//! Issue 42 (docs/engine.md, "The executable form"): which options a menu lists, whether a guarded
//! check has work to do, the statements of bodies, and what agents and strategies evaluate (the
//! script's measure of a seat, the rules' conditions), compiled once per program into trees of
//! closures (`expr.rs`, `stmts.rs`) that read the state in place and handle every value as a machine
//! word, run as segments resumable at the walker's statements (`segments.rs`). `GameConfig::engine =
//! Engine::Closures` runs them first; where a part did not compile, or a closure meets what it does
//! not handle (a value that is not a word, an overflow), the walker answers instead, so a game is the
//! walker's game but for the work counted. The walker is the oracle (engine/tests/closures.rs).

mod aggregates;
mod blocks;
mod builtins;
mod calls;
mod choices;
mod decisions;
mod draws;
mod each;
mod env;
mod expr;
mod functions;
mod in_place;
mod items;
mod kinds;
mod list_store;
mod loops;
mod menu;
mod moves;
mod nones;
mod pairs;
mod piles;
mod places;
mod props;
mod rules;
mod segments;
mod stmts;
mod tested;
mod text_store;
mod texts;
mod value;

pub(crate) use draws::Draws;
pub(crate) use env::{Answer, Fault};
pub(crate) use kinds::kind_table;
pub(crate) use segments::{run, segment};
pub(crate) use tested::{compared, TestExpr};

use super::state::{Layout, State};
use crate::program::{ActionId, Program, StmtKind};
use crate::value::Value;
use env::Env;
use expr::{Cx, Int};
use functions::Callables;
use menu::ActionPlan;
use std::rc::Rc;

/// Action `a`'s label compiled, its parameters words of their domains' item types.
fn label(p: &Program, a: &crate::program::ActionDef, fns: &Rc<Callables>) -> Option<texts::Text> {
    let t = a.label.as_ref()?;
    let mut cx = Cx::new(p, a.body.slots.max(1) as usize);
    cx.fns = fns.clone();
    for (i, domain) in a.params.iter().enumerate() {
        if let Some(ty) = each::item_type(&cx, domain).filter(expr::is_word) {
            cx.set_type(i as u16, ty);
        }
    }
    texts::compile(&mut cx, t).ok()
}

/// Trigger `t`'s condition compiled, its event's parameters typed: words in their slots, the
/// others, and `this`, read from the trigger's context.
fn condition(p: &Program, t: &crate::program::TriggerDef, fns: &Rc<Callables>) -> Option<Int> {
    let c = t.condition.as_ref()?;
    let mut cx = Cx::new(p, t.body.slots.max(1) as usize);
    cx.fns = fns.clone();
    // The trigger's context is on top while its condition is evaluated (`Mach::step_emit`).
    cx.locals = true;
    let params = p.events.get(t.event.index()).map_or(&[][..], |e| &e.params);
    for (i, ty) in params.iter().enumerate() {
        cx.set_type(i as u16, ty.clone());
    }
    expr::compile(&mut cx, c).ok()
}

/// The call `f(seat)` of function `f` of the shape `fn NAME(p: player): int` (the script's measure,
/// `fn heuristic` or `fn score`, and the figures `sim` reports), the seat in slot 0; `None` for a
/// function of another shape or one that does not compile (the walker evaluates it).
fn seat_call(p: &Program, f: usize, fns: &Rc<Callables>) -> Option<Int> {
    use crate::program::{Expr, ExprKind, FnId, Ty};
    let def = p.fns.get(f)?;
    if def.params != [Ty::Player] || def.ret != Ty::Int {
        return None;
    }
    let seat = Expr::new(ExprKind::Local(0), Default::default());
    let call = Expr::new(
        ExprKind::CallFn(FnId(f as u16), vec![seat]),
        Default::default(),
    );
    let mut cx = Cx::new(p, 1);
    cx.fns = fns.clone();
    cx.set_type(0, Ty::Player);
    expr::compile(&mut cx, &call).ok()
}

/// An action's slots holding the words of its arguments `args` (the rest `none`).
pub(crate) fn arg_slots(args: &[Value]) -> env::Slots {
    let mut slots = [env::NONE; env::SLOTS];
    for (slot, v) in slots.iter_mut().zip(args) {
        *slot = env::word(v).unwrap_or(env::NONE);
    }
    slots
}

/// The program's closures, built once when it is loaded, immutable, shared by every game.
#[derive(Default)]
pub(crate) struct Closures {
    /// Per action: its plan, or why it has none (the walker lists it).
    pub actions: Vec<Result<ActionPlan, &'static str>>,
    /// Per check: the conditions of its `if`s, when it is guarded and they all compiled; else why.
    pub guards: Vec<Result<Vec<Int>, &'static str>>,
    /// Per action, per conjunct of its condition (`ActionDef::parts`): the kinds of card that pass
    /// it when it tests the first parameter's kind and tags alone (`kind_table`; menus.rs).
    parts: Vec<Vec<Option<Box<[bool]>>>>,
    /// Per action: its label compiled (texts.rs), `None` where the walker builds it.
    labels: Vec<Option<texts::Text>>,
    /// Per block: its statements compiled (segments.rs), `None` for a block of no body compiled.
    blocks: Vec<Option<std::sync::Arc<blocks::BlockCode>>>,
    /// Per global trigger, and per kind per card trigger: its condition compiled, its event's
    /// arguments in their slots (`None`: none, or the walker evaluates it).
    conditions: (Vec<Option<Int>>, Vec<Vec<Option<Int>>>),
    /// Per variable: its initial value compiled (`None`: the walker evaluates it), `you` the
    /// player and `this` the card of the walker's context (`create.rs`).
    inits: Vec<Option<value::Val>>,
    /// Per kind: its number of copies compiled, then the board's width and height (`None`: none,
    /// or the walker evaluates it), evaluated when a game is created (`create.rs`).
    sizes: Vec<Option<Int>>,
    /// Per column of the table, per row: its number of players and its value compiled (`None`:
    /// the walker evaluates it), evaluated when a game is created (`create.rs`).
    columns: Vec<Vec<(u8, Option<value::Val>)>>,
    /// Per function: its call for a seat in slot 0 (`seat_call`), `None` where the walker
    /// evaluates it.
    seats: Vec<Option<Int>>,
    /// Per strategy, then per rule set: its rules' conditions and `by`s compiled (rules.rs).
    rules: (Vec<Vec<rules::RuleCode>>, Vec<Vec<rules::RuleCode>>),
    /// Per rules test: its expressions compiled (tested.rs).
    tests: Vec<tested::TestCode>,
}

impl std::fmt::Debug for Closures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let listed = self.actions.iter().filter(|a| a.is_ok()).count();
        let guarded = self.guards.iter().filter(|g| g.is_ok()).count();
        let blocks = self.blocks.iter().flatten().count();
        write!(
            f,
            "Closures {{ actions: {listed}, guards: {guarded}, blocks: {blocks} }}"
        )
    }
}

impl Closures {
    /// Compiles what the closures cover of `p`.
    pub(crate) fn build(p: &Program) -> Closures {
        // One build's callables, shared by every closure it compiles (functions.rs).
        let fns = Rc::new(Callables::default());
        let actions = p.actions.iter().map(|a| menu::plan(p, a, &fns)).collect();
        let guards = (p.checks.iter().enumerate())
            .map(|(i, body)| {
                if p.guarded_checks.get(i) != Some(&true) {
                    return Err("a check that is not guarded");
                }
                let block = p.blocks.get(body.block.index()).ok_or("an unknown block")?;
                let mut conds = Vec::new();
                for st in &block.stmts {
                    let StmtKind::If(branches, None) = &st.kind else {
                        return Err("a check made of more than `if`s");
                    };
                    for (c, _) in branches {
                        let mut cx = Cx::new(p, body.slots as usize);
                        cx.fns = fns.clone();
                        conds.push(expr::compile(&mut cx, c)?);
                    }
                }
                Ok(conds)
            })
            .collect();
        let blocks = segments::build(p, &fns);
        let conditions = (
            p.triggers.iter().map(|t| condition(p, t, &fns)).collect(),
            (p.kinds.iter())
                .map(|k| k.triggers.iter().map(|t| condition(p, t, &fns)).collect())
                .collect(),
        );
        let labels = p.actions.iter().map(|a| label(p, a, &fns)).collect();
        let inits = (p.vars.iter())
            .map(|v| {
                let mut cx = Cx::new(p, 1);
                cx.fns = fns.clone();
                cx.locals = true;
                value::compile_value(&mut cx, &v.init).ok()
            })
            .collect();
        let sizes = (p.kinds.iter().map(|k| &k.copies))
            .chain(p.spaces.iter().flat_map(|sp| [&sp.width, &sp.height]))
            .map(|e| {
                let mut cx = Cx::new(p, 1);
                cx.fns = fns.clone();
                expr::compile(&mut cx, e).ok()
            })
            .collect();
        let columns = (p.columns.iter())
            .map(|col| {
                (col.rows.iter())
                    .map(|(n, e)| {
                        let mut cx = Cx::new(p, 1);
                        cx.fns = fns.clone();
                        (*n, value::compile_value(&mut cx, e).ok())
                    })
                    .collect()
            })
            .collect();
        let parts = (p.actions.iter())
            .map(|a| {
                (a.parts.iter())
                    .map(|part| kind_table(p, &part.expr, 0).map(Vec::into_boxed_slice))
                    .collect()
            })
            .collect();
        let seats = (0..p.fns.len()).map(|f| seat_call(p, f, &fns)).collect();
        let rules = (
            (p.strategies.iter())
                .map(|d| rules::build(p, &d.rules, &fns))
                .collect(),
            (p.rule_sets.iter())
                .map(|d| rules::build(p, &d.rules, &fns))
                .collect(),
        );
        Closures {
            rules,
            seats,
            actions,
            guards,
            parts,
            labels,
            blocks,
            conditions,
            inits,
            sizes,
            columns,
            tests: tested::build(p, &fns),
        }
    }

    /// Column `i` of the table for `players` players, in a game being created, by its closure;
    /// `None` when it did not compile.
    pub(crate) fn column(
        &self,
        i: usize,
        players: u8,
        (p, s, l): (&Program, &State, &Layout),
    ) -> Option<Answer<Value>> {
        let (_, f) = self.columns.get(i)?.iter().find(|(n, _)| *n == players)?;
        let mut slots = [env::NONE; env::SLOTS];
        let mut env = Env::new(p, s, l, s.active, &mut slots);
        let f = f.as_ref()?;
        Some(env.answer(|env| f(env)))
    }

    /// Size `i` of a game being created (`Closures::sizes`: a kind's copies, then the board's
    /// width and height) by its closure; `None` when it did not compile.
    pub(crate) fn size(
        &self,
        i: usize,
        (p, s, l): (&Program, &State, &Layout),
    ) -> Option<Answer<i64>> {
        let f = self.sizes.get(i)?.as_ref()?;
        let mut slots = [env::NONE; env::SLOTS];
        let mut env = Env::new(p, s, l, s.active, &mut slots);
        Some(env.answer(|env| f(env)))
    }

    /// The value for `seat` of function `f` of the shape `fn NAME(p: player): int`, `you` the
    /// active player (as the walker's `Game::eval_with`); `None` when its call did not compile. It
    /// reads the state and changes nothing.
    pub(crate) fn seat_value(
        &self,
        f: usize,
        (p, s, l): (&Program, &State, &Layout),
        seat: u8,
    ) -> Option<Answer<i64>> {
        let call = self.seats.get(f)?.as_ref()?;
        let mut slots = [env::NONE; env::SLOTS];
        slots[0] = i64::from(seat);
        let mut env = Env::new(p, s, l, s.active, &mut slots);
        Some(env.answer(|env| call(env)))
    }

    /// The rules of a strategy or a rule set compiled, in the order they are tried.
    pub(crate) fn rules(&self, of: crate::engine::RulesOf) -> Option<&[rules::RuleCode]> {
        match of {
            crate::engine::RulesOf::Strategy(i) => self.rules.0.get(i),
            crate::engine::RulesOf::RuleSet(i) => self.rules.1.get(i),
        }
        .map(Vec::as_slice)
    }

    /// Whether function `f`'s call for a seat compiled (`seat_value`).
    #[cfg(test)]
    pub(crate) fn seat_compiled(&self, f: usize) -> bool {
        self.seats.get(f).is_some_and(|c| c.is_some())
    }

    /// Variable `v`'s initial value, `you` the player whose it is (or the active player), the
    /// walker's context on top; `None` when it did not compile.
    pub(crate) fn initial(
        &self,
        v: usize,
        (p, s, l): (&Program, &State, &Layout),
        you: u8,
    ) -> Option<Answer<Value>> {
        let f = self.inits.get(v)?.as_ref()?;
        let mut slots = [env::NONE; env::SLOTS];
        let mut env = Env::new(p, s, l, you, &mut slots);
        Some(env.answer(|env| f(env)))
    }

    /// Whether trigger `t`'s condition holds for the event's arguments `args`, `you` the owner of
    /// the zone of its card (the walker's context, `this` among it, on top); `None` when it did not
    /// compile or cannot answer (the walker evaluates it).
    pub(crate) fn trigger_holds(
        &self,
        t: crate::engine::exec::TrigRef,
        (p, s, l): (&Program, &State, &Layout),
        you: u8,
        args: &[Value],
    ) -> Option<bool> {
        let condition = match t {
            crate::engine::exec::TrigRef::Global(i) => self.conditions.0.get(i as usize),
            crate::engine::exec::TrigRef::Card(k, i) => {
                self.conditions.1.get(k as usize)?.get(i as usize)
            }
        };
        let mut slots = arg_slots(args);
        Some(condition?.as_ref()?(&mut Env::new(p, s, l, you, &mut slots))? != 0)
    }

    /// Action `a`'s label for the option of arguments `args`, as `decider` sees it, written into
    /// `out`; `None` when it did not compile or a closure cannot answer (the walker builds it).
    pub(crate) fn label(
        &self,
        a: ActionId,
        (p, s, l): (&Program, &State, &Layout),
        args: &[Value],
        decider: u8,
        out: &mut String,
    ) -> Option<()> {
        let t = self.labels.get(a.index())?.as_ref()?;
        let mut slots = arg_slots(args);
        t.write(
            &mut Env::new(p, s, l, decider, &mut slots),
            Some(decider),
            out,
        )
    }

    /// The value of the `j`-th part of action `a`'s label that is not written out, for the
    /// option of arguments `args` (`None`: not compiled, or its closure cannot answer).
    pub(crate) fn label_part(
        &self,
        a: ActionId,
        j: usize,
        (p, s, l): (&Program, &State, &Layout),
        args: &[Value],
        decider: u8,
    ) -> Option<Value> {
        let t = self.labels.get(a.index())?.as_ref()?;
        let mut slots = arg_slots(args);
        t.part(j, &mut Env::new(p, s, l, decider, &mut slots))
    }

    fn block_code(&self, b: crate::program::BlockId) -> Option<&blocks::BlockCode> {
        self.blocks.get(b.index())?.as_deref()
    }

    /// The candidates of the `choose` at `at`, listed by its compiled domain and filter (`None`:
    /// not compiled, or a closure could not answer; the walker lists them).
    pub(crate) fn candidates(
        &self,
        m: &mut crate::engine::exec::Mach,
        at: crate::engine::exec::At,
    ) -> Option<Vec<crate::value::Value>> {
        let code = self.block_code(at.block)?;
        choices::candidates(code.choices.get(at.idx as usize)?.as_ref()?, m)
    }

    /// The number of a `simultaneously`'s `choose N` or `up to N` at `at`, each seat's, by its
    /// closure (`None`: not compiled, or it could not answer; the walker evaluates it).
    pub(crate) fn simul_count(
        &self,
        m: &mut crate::engine::exec::Mach,
        at: crate::engine::exec::At,
    ) -> Option<i64> {
        let code = self.block_code(at.block)?;
        choices::count(code.choices.get(at.idx as usize)?.as_ref()?, m)
    }

    /// Whether the condition of the `while` at `at` holds, or the filter of the `for` at `at` for
    /// the item in its local, tested by its closure where the walker's loop frame goes on (`None`:
    /// not compiled, or a closure could not answer; the walker tests it).
    pub(crate) fn holds(
        &self,
        m: &mut crate::engine::exec::Mach,
        at: crate::engine::exec::At,
    ) -> Option<bool> {
        let code = self.block_code(at.block)?;
        choices::holds(code.conditions.get(at.idx as usize)?.as_ref()?, m)
    }

    /// Text `k` of the statement at `at` (`texts::of_stmt`: its prompt or text first, then its
    /// branches' labels), compiled (`None`: the walker builds it).
    pub(crate) fn text(&self, at: crate::engine::exec::At, k: usize) -> Option<&texts::Text> {
        let code = self.block_code(at.block)?;
        code.texts.get(at.idx as usize)?.get(k)?.as_ref()
    }

    /// How many statements of block `b` the closures run, and how many it holds.
    #[cfg(test)]
    pub(crate) fn compiled_in(&self, b: crate::program::BlockId) -> (usize, usize) {
        self.block_code(b).map_or((0, 0), |c| {
            (c.steps.iter().flatten().count(), c.steps.len())
        })
    }

    /// How many `choose`s (and `simultaneously`s choosing one) have their candidates compiled, and
    /// how many there are.
    #[cfg(test)]
    pub(crate) fn choices_compiled(&self, p: &Program) -> (usize, usize) {
        let (mut compiled, mut all) = (0, 0);
        for (i, b) in p.blocks.iter().enumerate() {
            let code = self.block_code(crate::program::BlockId(i as u16));
            for (j, st) in b.stmts.iter().enumerate() {
                if let StmtKind::Choose(..)
                | StmtKind::Simultaneously {
                    count: crate::program::ChooseCount::One,
                    ..
                } = &st.kind
                {
                    all += 1;
                    let domain = code.and_then(|c| c.choices.get(j));
                    compiled += domain.is_some_and(|d| d.is_some()) as usize;
                }
            }
        }
        (compiled, all)
    }

    /// How many triggers' conditions compiled, and how many triggers have one.
    #[cfg(test)]
    pub(crate) fn conditions_compiled(&self, p: &Program) -> (usize, usize) {
        let compiled = (self.conditions.0.iter())
            .chain(self.conditions.1.iter().flatten())
            .flatten()
            .count();
        let all = (p.triggers.iter())
            .chain(p.kinds.iter().flat_map(|k| &k.triggers))
            .filter(|t| t.condition.is_some())
            .count();
        (compiled, all)
    }

    /// Whether check `i`'s guards all compiled: `Some(true)` when one of them holds (or could not
    /// be answered: the check then runs), `Some(false)` when none does, `None` when not compiled.
    pub(crate) fn guard_holds(&self, i: usize, p: &Program, s: &State, l: &Layout) -> Option<bool> {
        let conds = self.guards.get(i)?.as_ref().ok()?;
        let mut slots = [0; env::SLOTS];
        let mut env = Env::new(p, s, l, s.active, &mut slots);
        Some(conds.iter().any(|c| c(&mut env) != Some(0)))
    }

    /// The kinds of card that pass conjunct `j` of action `a`'s condition, when it tests the first
    /// parameter's kind and tags alone.
    pub(crate) fn part_kinds(&self, a: ActionId, j: usize) -> Option<&[bool]> {
        self.parts.get(a.index())?.get(j)?.as_deref()
    }

    /// Whether action `a` has a plan: the closures list its options (`list_menu`).
    pub(crate) fn planned(&self, a: ActionId) -> bool {
        self.actions.get(a.index()).is_some_and(|plan| plan.is_ok())
    }

    /// The options of a menu of `actions` for `decider`, each an action and its arguments added
    /// to `out` in order; false when an action has no plan or a closure could not answer (the
    /// walker lists the menu, and what was offered is dropped).
    pub(crate) fn list_menu(
        &self,
        p: &Program,
        s: &State,
        l: &Layout,
        decider: u8,
        actions: &[ActionId],
        out: &mut Vec<crate::engine::decide::MenuOption>,
    ) -> bool {
        menu::list(&self.actions, p, s, l, decider, actions, out).is_some()
    }
}
