//! Engine stage: runs a checked [`Program`] as a game value that pauses at every decision.
//!
//! A [`Game`] is plain data (an `Arc<Program>` plus the state), so it clones cheaply. It never calls
//! an agent: it stops at a [`Decision`], and [`Game::apply`] resumes it with the chosen option.

mod belief;
mod builtins;
mod census;
pub(crate) mod closures;
mod create;
mod decide;
mod eval;
mod exec;
mod factory;
pub(crate) mod hash;
mod label;
mod lists;
pub(crate) mod menus;
mod moves;
pub(crate) mod options;
mod parts;
mod pending;
#[cfg(any(test, debug_assertions))]
pub(crate) mod probe;
mod rounds;
mod sample;
pub(crate) mod sites;
mod state;
mod stats;
mod stmt;
mod strategy;
mod trace;
mod triggers;
mod view;
mod watch;
mod zones;

#[cfg(test)]
mod tests;

use crate::program::{BlockId, Body, Expr, OptionId, OptionKind, ProcId, Program};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use exec::{Frame, Mach, Stop};
use state::{Ctx, Layout, State};
use std::sync::Arc;

pub use belief::{observation, Likelihood, Observations};
pub use factory::GameFactory;
pub use parts::relative_name;

/// The reason of a game whose flow (or a rules test's `start` procedure) ran to its end without a
/// `win`.
pub const FLOW_ENDED: &str = "the flow ended";
pub(crate) use closures::{compared, TestExpr};
pub use strategy::RulesOf;
pub use trace::{render_event, seen_by, Event};
pub use view::{
    CardEntry, DecisionView, Inventory, PlayerView, VarView, View, ZoneCount, ZoneView,
};

/// Turns before a game stops unfinished.
pub const DEFAULT_MAX_TURNS: u32 = 2000;
/// Work between two decisions before a runtime error (see [`GameConfig::max_steps`]).
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;
/// Decisions in one turn before a game stops unfinished (see [`GameConfig::max_decisions`]).
pub const DEFAULT_MAX_DECISIONS: u64 = 10_000;

/// How a game is created.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub players: u8,
    pub seed: u64,
    pub options: Vec<(OptionId, Value)>,
    /// Seat names; "P1".."Pn" when empty.
    pub names: Vec<String>,
    pub max_turns: u32,
    /// The work allowed between two decisions (and before the first): every statement run, every
    /// expression evaluated and every list item walked or built counts one. More is a runtime error.
    pub max_steps: u64,
    /// The decisions one turn may take (from the start of the game when the script has no turns);
    /// the game then ends unfinished ("limit of N decisions reached in turn T").
    pub max_decisions: u64,
    /// Whether events are recorded from the start (setup included); simulations and bots turn it
    /// off, which also spares building the texts of the events.
    pub record: bool,
    /// Whether decisions carry their option labels. Off, the options of menus and choices are empty
    /// strings (their number and order are the same) until `Game::set_labels(true)`: for play-outs
    /// whose players only count options (`random`, the look-ahead of `greedy`). Labels are always
    /// built while events are recorded, and eagerly whenever building one could fail.
    pub labels: bool,
    /// Which engine runs the game's expressions (docs/engine.md, "Moving").
    pub engine: Engine,
    /// Tests: the shortcuts the game is created without (engine/probe.rs).
    #[cfg(test)]
    pub(crate) without: probe::Without,
}

/// The engine a game runs on while issue 42 moves it (docs/engine.md, "Moving").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The tree walker alone: the closures' oracle in the tests.
    Walker,
    /// The typed closures (`engine/closures`): menus, guarded checks and the statements they
    /// compile, run as segments resumable at the walker's statements; the walker answers wherever
    /// they do not. The default.
    #[default]
    Closures,
}

impl GameConfig {
    pub fn new(players: u8, seed: u64) -> Self {
        GameConfig {
            players,
            seed,
            options: Vec::new(),
            names: Vec::new(),
            max_turns: DEFAULT_MAX_TURNS,
            max_steps: DEFAULT_MAX_STEPS,
            max_decisions: DEFAULT_MAX_DECISIONS,
            record: true,
            labels: true,
            engine: Engine::Closures,
            #[cfg(test)]
            without: Default::default(),
        }
    }
}

/// Where a game stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Decision(Decision),
    Over(Outcome),
    Error(RuntimeError),
}

/// A pending decision: who decides among which options.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Decision {
    /// 0-based seat.
    pub player: u8,
    pub prompt: String,
    /// Option labels, distinct.
    pub options: Vec<String>,
    pub simultaneous: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    /// 0-based seats.
    pub winners: Vec<u8>,
    /// The participants that won (`participant NAME "Name"`, named in `win`), by their shown names,
    /// in the order `win` named them; left out of JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub participants: Vec<String>,
    pub reason: String,
    /// False when a limit stopped the game (turns, or decisions in one turn).
    pub finished: bool,
    /// The flow (or a rules test's `start` procedure) ran to its end without a `win`: the reason is
    /// then [`FLOW_ENDED`]. Not in JSON (the reason says it).
    #[serde(skip)]
    pub flow_ended: bool,
}

/// A problem the script did not allow for; it ends the game. Boxed, so that the results the engine
/// passes around on its hot paths stay small; its fields are read through `Deref`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError(Box<RuntimeErrorInfo>);

/// What a [`RuntimeError`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeErrorInfo {
    pub message: String,
    pub span: Span,
    /// The line in the file the span is in: the script, or the card sheet `file`.
    pub line: usize,
    /// The card sheet the span is in (a cell's expression), `None` for the script.
    pub file: Option<String>,
    /// Turn, active player and phase.
    pub position: String,
}

impl RuntimeError {
    pub fn new(message: String, span: Span, line: usize, position: String) -> Self {
        RuntimeError(Box::new(RuntimeErrorInfo {
            message,
            span,
            line,
            file: None,
            position,
        }))
    }

    /// An error at `span` of `program`'s sources: its line in the script, or in the card sheet the
    /// span is in.
    pub fn located(program: &Program, message: String, span: Span, position: String) -> Self {
        let (file, line) = program.place_of(span.start);
        let mut e = RuntimeError::new(message, span, line, position);
        e.0.file = file.map(str::to_string);
        e
    }
}

impl std::ops::Deref for RuntimeError {
    type Target = RuntimeErrorInfo;
    fn deref(&self) -> &RuntimeErrorInfo {
        &self.0
    }
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.file {
            Some(file) => write!(
                f,
                "{file} line {}: {} ({})",
                self.line, self.message, self.position
            ),
            None => write!(
                f,
                "line {}: {} ({})",
                self.line, self.message, self.position
            ),
        }
    }
}

impl std::error::Error for RuntimeError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    NoDecision,
    OutOfRange { option: usize, count: usize },
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::NoDecision => write!(f, "no decision is pending"),
            ApplyError::OutOfRange { option, count } => {
                write!(
                    f,
                    "option {option} is out of range (the decision has {count} options)"
                )
            }
        }
    }
}

impl std::error::Error for ApplyError {}

/// One game: cheap to clone, `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Game {
    prog: Arc<Program>,
    layout: Arc<Layout>,
    st: State,
    /// How the game was created and every choice since, for agents that replay what their seat
    /// observed (`Game::history`); `None` for rules tests' games and for possible worlds.
    history: Option<Arc<History>>,
}

/// The configuration a game was created with and the option chosen at each decision since.
#[derive(Clone, Debug)]
pub struct History {
    pub config: GameConfig,
    pub choices: Vec<u32>,
}

impl Game {
    /// Creates the game, runs its setup and its flow up to the first decision (or the end). Many
    /// games of one program and configuration but for the seed: [`GameFactory`], which creates the
    /// game once and copies it.
    pub fn new(program: Arc<Program>, config: GameConfig) -> Game {
        let history = History {
            config: config.clone(),
            choices: Vec::new(),
        };
        let mut game = Self::with_start(program, config, None, None);
        game.history = Some(Arc::new(history));
        game
    }

    /// For rules tests: after setup run `given` (no decisions allowed), then run `start` (a procedure
    /// with its arguments) instead of the flow.
    pub fn with_start(
        program: Arc<Program>,
        config: GameConfig,
        given: Option<Body>,
        start: Option<(ProcId, Vec<Expr>)>,
    ) -> Game {
        let created = create::created(&program, &config);
        let start = start.map(|(proc, args)| exec::Start {
            proc,
            args,
            test: None,
        });
        Game::started(program, created, given, start)
    }

    /// [`Game::with_start`] of the program's rules test `t`: its `given` block and its `start
    /// PROC(args)`, whose arguments its closures give (closures/tested.rs).
    pub(crate) fn for_test(program: Arc<Program>, config: GameConfig, t: usize) -> Game {
        let created = create::created(&program, &config);
        let test = program.tests.get(t);
        let given = test.and_then(|d| d.given);
        let start = (test.and_then(|d| d.start.clone())).map(|(proc, args)| exec::Start {
            proc,
            args,
            test: Some(t),
        });
        Game::started(program, created, given, start)
    }

    fn mach(&mut self) -> Mach<'_> {
        Mach::new(&self.prog, &self.layout, &mut self.st)
    }

    /// Runs to the next decision, the end or an error.
    fn resume(&mut self) {
        self.st.unlabelled = false;
        let r = self.mach().run();
        self.finish(r);
    }

    fn finish(&mut self, r: Result<Stop, RuntimeError>) {
        match r {
            Ok(Stop::Decision) => {
                if self.st.steps.saturating_sub(self.st.turn_steps) >= self.st.fixed.max_decisions {
                    let reason = match self.st.turn {
                        0 => format!(
                            "limit of {} decisions reached before the first turn",
                            self.st.fixed.max_decisions
                        ),
                        t => format!(
                            "limit of {} decisions reached in turn {t}",
                            self.st.fixed.max_decisions
                        ),
                    };
                    self.end(Outcome {
                        winners: Vec::new(),
                        participants: Vec::new(),
                        reason,
                        finished: false,
                        flow_ended: false,
                    });
                }
                // Otherwise the decision posed is the status already.
            }
            Ok(Stop::Over(o)) => self.end(*o),
            Ok(Stop::Empty) => self.end(Outcome {
                winners: Vec::new(),
                participants: Vec::new(),
                reason: FLOW_ENDED.into(),
                finished: true,
                flow_ended: true,
            }),
            Err(e) => {
                self.st.push_event(Event::Error {
                    message: e.message.clone(),
                    line: e.line,
                });
                self.st.frames.clear();
                self.st.truncate_ctxs(1);
                self.st.status = Status::Error(e);
            }
        }
    }

    fn end(&mut self, o: Outcome) {
        self.st.push_event(Event::Over {
            winners: o.winners.clone(),
            participants: o.participants.clone(),
            reason: o.reason.clone(),
            finished: o.finished,
        });
        self.st.frames.clear();
        self.st.truncate_ctxs(1);
        self.st.status = Status::Over(o);
    }

    pub fn status(&self) -> &Status {
        &self.st.status
    }

    pub fn decision(&self) -> Option<&Decision> {
        match &self.st.status {
            Status::Decision(d) => Some(d),
            _ => None,
        }
    }

    /// Chooses option `option` of the pending decision and runs to the next decision or the end.
    pub fn apply(&mut self, option: usize) -> Result<(), ApplyError> {
        let Status::Decision(d) = &self.st.status else {
            return Err(ApplyError::NoDecision);
        };
        if option >= d.options.len() {
            return Err(ApplyError::OutOfRange {
                option,
                count: d.options.len(),
            });
        }
        // The status is replaced below in every case (`resume` or `finish`): take the decision.
        let Status::Decision(d) =
            std::mem::replace(&mut self.st.status, Status::Decision(Decision::default()))
        else {
            return Err(ApplyError::NoDecision);
        };
        self.st.steps += 1;
        self.st.exec_count = 0;
        if let Some(h) = &mut self.history {
            Arc::make_mut(h).choices.push(option as u32);
        }
        let r = self.mach().answer(&d, option);
        self.st.recycled.get().keep(d);
        match r {
            Ok(()) => self.resume(),
            Err(e) => self.finish(Err(e)),
        }
        self.debug_check();
        Ok(())
    }

    /// In debug builds, a broken invariant becomes a runtime error.
    fn debug_check(&mut self) {
        if cfg!(debug_assertions) && !matches!(self.st.status, Status::Error(_)) {
            if let Err(msg) = self.check_invariants() {
                let position = self.mach().position();
                let span = self.mach().current_span();
                self.finish(Err(RuntimeError::new(
                    format!("engine invariant broken: {msg}"),
                    span,
                    self.prog.line_of(span.start),
                    position,
                )));
            }
        }
    }

    /// Whether decisions carry their option labels (see `GameConfig::labels`); turning them on
    /// labels the pending decision at once.
    pub fn set_labels(&mut self, on: bool) {
        self.st.labels = on;
        self.render_labels();
    }

    /// Labels the pending decision if its labels were left out and someone may now read them.
    fn render_labels(&mut self) {
        if !self.st.unlabelled || !(self.st.labels || self.st.record) {
            return;
        }
        self.st.unlabelled = false;
        let labels = self.mach().labels_of_pending();
        if let Status::Decision(d) = &mut self.st.status {
            if labels.len() == d.options.len() {
                d.options = labels;
            }
        }
    }

    /// The events since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.st.events)
    }

    /// How the game was created and the option chosen at each decision since; `None` for a game
    /// made by a rules test (`given`, `start`) and for a possible world.
    pub fn history(&self) -> Option<&History> {
        self.history.as_deref()
    }

    /// Drops the history: a copy made for a look-ahead does not need it.
    pub fn forget_history(&mut self) {
        self.history = None;
    }

    /// Whether events are recorded (on by default; simulations may turn it off).
    pub fn set_recording(&mut self, on: bool) {
        self.st.record = on;
        self.render_labels();
        if !on {
            self.st.events.clear();
        }
    }

    /// The component inventory: every card definition with its copies, tags and properties, and how
    /// many cards lie in each zone now.
    pub fn inventory(&self) -> Inventory {
        let mut g = self.clone();
        g.st.record = false;
        let Game {
            prog, layout, st, ..
        } = &mut g;
        view::inventory(&mut Mach::new(prog, layout, st))
    }

    /// What a seat may see.
    pub fn view(&self, seat: u8) -> View {
        view::view(&self.prog, &self.layout, &self.st, seat)
    }

    /// Evaluates an expression in a fresh frame of `slots` locals.
    pub fn eval(&mut self, expr: &Expr, slots: u16) -> Result<Value, RuntimeError> {
        self.eval_in(sites::Site::GameEval, expr, slots, Vec::new())
    }

    /// [`Game::eval`] with local 0 holding `first`.
    pub(crate) fn eval_with(
        &mut self,
        expr: &Expr,
        slots: u16,
        first: Value,
    ) -> Result<Value, RuntimeError> {
        self.eval_in(sites::Site::Measure, expr, slots.max(1), vec![(0, first)])
    }

    /// [`Game::eval`] with locals holding values (a rules test's `options` and `stat NAME`).
    pub fn eval_with_locals(
        &mut self,
        expr: &Expr,
        slots: u16,
        locals: Vec<(u16, Value)>,
    ) -> Result<Value, RuntimeError> {
        self.eval_in(sites::Site::Tests, expr, slots, locals)
    }

    /// A rules test's expression `x` of test `t` (`None`: a test that is not the program's), its
    /// locals given: by its closure on the closures (closures/tested.rs), else by the walker
    /// ([`Game::eval_with_locals`]).
    pub(crate) fn test_value(
        &mut self,
        at: Option<(usize, closures::TestExpr)>,
        expr: &Expr,
        slots: u16,
        locals: Vec<(u16, Value)>,
    ) -> Result<Value, RuntimeError> {
        let Game {
            prog, layout, st, ..
        } = self;
        let compiled = (prog.closures.as_deref())
            .filter(|_| st.fixed.closures)
            .zip(at)
            .and_then(|(cl, at)| cl.test_value(at, (prog, st, layout), slots, &locals));
        let fault = match compiled {
            Some(Ok(v)) => return Ok(v),
            Some(Err(fault)) => fault,
            None => None,
        };
        self.raise(fault)?;
        let walked = self.eval_with_locals(expr, slots, locals);
        sites::check_oracle(&self.prog, fault, &walked);
        walked
    }

    /// [`Mach::raise`] on this game.
    pub(crate) fn raise(&mut self, fault: Option<closures::Fault>) -> Result<(), RuntimeError> {
        self.mach().raise(fault)
    }

    fn eval_in(
        &mut self,
        site: sites::Site,
        expr: &Expr,
        slots: u16,
        locals: Vec<(u16, Value)>,
    ) -> Result<Value, RuntimeError> {
        let slots = locals.iter().fold(slots, |n, (slot, _)| n.max(slot + 1));
        let mut m = self.mach();
        let base = m.s.ctxs.len();
        m.s.ctxs.push(Ctx::new(slots, None, None));
        for (slot, v) in locals {
            m.set_local(slot, v);
        }
        m.s.depth = 0;
        let r = m.eval_at(site, expr);
        m.s.truncate_ctxs(base);
        r
    }

    /// Runs statements that may not ask for a decision (a test's `do { }`); the pending decision stays.
    pub fn run_block(&mut self, block: BlockId, slots: u16) -> Result<(), RuntimeError> {
        if self.prog.blocks.get(block.index()).is_none() {
            return Err(RuntimeError::new(
                format!("no block {}", block.index()),
                self.prog.header,
                self.prog.line_of(self.prog.header.start),
                self.mach().position(),
            ));
        }
        let count = self.st.exec_count;
        self.st.exec_count = 0;
        let r = self
            .mach()
            .run_nested(Body { block, slots }, None, None, "a `do` block");
        self.st.exec_count = count;
        match r {
            Ok(None) => {
                // The state changed under a pending menu: list its options again (the checks run
                // first, as before any decision). A pending choice keeps the options it offered.
                if matches!(self.st.status, Status::Decision(_))
                    && matches!(self.st.frames.last(), Some(Frame::Menu(_)))
                {
                    self.st.exec_count = 0;
                    self.resume();
                    self.debug_check();
                }
                Ok(())
            }
            Ok(Some(o)) => {
                self.end(o);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// A value as text: a card as its kind's name, a player as the seat name, a space as "(x,y)".
    pub fn label(&self, v: &Value) -> String {
        label::label(&self.prog, &self.layout, &self.st, v)
    }

    /// Turns started so far.
    pub fn turns(&self) -> u32 {
        self.st.turn
    }

    /// Decisions taken since the current turn began (what [`GameConfig::max_decisions`] limits).
    pub fn decisions_in_turn(&self) -> u64 {
        self.st.steps.saturating_sub(self.st.turn_steps)
    }

    /// The work done since the last decision (or since the game began): statements run, expressions
    /// evaluated, list items walked; it may not exceed `GameConfig::max_steps`.
    pub fn work(&self) -> u64 {
        self.st.exec_count
    }

    /// Tests: how many times this game's shortcuts answered (engine/probe.rs).
    #[cfg(test)]
    pub(crate) fn counted(&self) -> probe::Counted {
        self.st.probe.counted
    }

    /// Tests: this game's probe (engine/probe.rs), the walker's entries among it.
    #[cfg(test)]
    pub(crate) fn probe(&self) -> &probe::Probe {
        &self.st.probe
    }

    /// Decisions applied so far.
    pub fn steps(&self) -> u64 {
        self.st.steps
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    pub fn players(&self) -> u8 {
        self.st.players
    }

    /// The participants that are not seats: players `players()..players() + participants()`.
    pub fn participants(&self) -> u8 {
        self.st.participants
    }

    /// The seat names, then the participants' (`participant NAME "Name"`): player p's name is
    /// `names()[p]`.
    pub fn names(&self) -> &[String] {
        &self.st.fixed.names
    }

    /// Every card in exactly one zone, zones and cards agree, the card count is constant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.st.cards.len();
        if n != self.layout.ncards as usize {
            return Err(format!("{} cards instead of {}", n, self.layout.ncards));
        }
        let mut seen = vec![false; n];
        for (zi, z) in self.st.zones.stored() {
            for &c in &z.cards {
                let Some(card) = self.st.cards.get(c as usize) else {
                    return Err(format!("zone {zi} holds unknown card {c}"));
                };
                if seen[c as usize] {
                    return Err(format!("card {c} is in two zones"));
                }
                seen[c as usize] = true;
                if card.zone as usize != zi {
                    return Err(format!(
                        "card {c} is in zone {zi} but says zone {}",
                        card.zone
                    ));
                }
            }
        }
        if let Some(c) = seen.iter().position(|s| !s) {
            return Err(format!("card {c} is in no zone"));
        }
        Ok(())
    }
}

/// The value of an option given on the command line or in a test, checked against its definition.
pub(crate) fn option_value_ok(p: &Program, id: OptionId, v: &Value) -> bool {
    match (p.options.get(id.index()).map(|o| &o.kind), v) {
        (Some(OptionKind::Bool), Value::Bool(_)) => true,
        (Some(OptionKind::Int { min, max }), Value::Int(i)) => i >= min && i <= max,
        (Some(OptionKind::OneOf(names)), Value::Int(i)) => *i >= 0 && (*i as usize) < names.len(),
        _ => false,
    }
}
