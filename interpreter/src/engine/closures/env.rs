//! Engine stage (closures): what compiled closures read while they run, and values as words.

use crate::engine::state::{Layout, State};
use crate::program::{Program, Ty};
use crate::value::Value;

/// Slots of all frames together: a call's frame lies above its caller's.
pub(crate) const SLOTS: usize = 32;

/// Slots of the bank of a callable whose frame needs more than [`SLOTS`] (functions.rs).
pub(crate) const BANK: usize = 64;

/// What the closures read while they run: the program (its names, for texts), the game, the seat
/// they answer for, and the slots.
pub(crate) struct Env<'g> {
    pub p: &'g Program,
    pub s: &'g State,
    pub l: &'g Layout,
    /// `you`: the decider of a menu; the active player in a check.
    pub you: u8,
    /// The slots, owned by the caller: a menu's or a check's own, a compiled body's frame, or a
    /// callable's bank (functions.rs: [`SLOTS`], or [`BANK`] for a frame that needs more).
    pub slots: &'g mut [i64],
    /// What the closures make while they run that a slot cannot hold (`Made`); `None` where
    /// nobody keeps it, and the walker makes it.
    pub made: Option<&'g mut Made>,
    /// The copy of the game's generator a statement's closures draw from (`random` inside an
    /// expression, draws.rs); `None` where nobody keeps the draws, and `random` is the walker's.
    pub draws: Option<&'g mut super::draws::Draws>,
    /// The runtime error a closure met, where it answered `None` for it (`Env::fail`): the
    /// walker's error for the same evaluation, raised by the statement that ran the closure
    /// (segments.rs) instead of handing the statement to the walker. A plain value: an `Env` is
    /// made and dropped for nearly every closure a statement or a menu runs.
    pub fault: Option<Fault>,
}

/// A runtime error met by a closure: where, and what (its message is built when it is raised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub span: cardgame_grammar::ast::Span,
    pub failure: Failure,
}

/// What a closure met, as the walker words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// "arithmetic overflow".
    Overflow,
    /// "division by zero".
    DivisionByZero,
    /// "cannot apply `-` to `4` and none": an operator and its sides, `None` for `none`.
    Apply {
        op: crate::program::BinOp,
        first: Option<i64>,
        second: Option<i64>,
    },
    /// "expected a player, found none".
    Expected(&'static str),
    /// "no zone `hand` for none": the zone's index among the program's.
    NoZone(usize),
}

impl Fault {
    /// The walker's message (`program` names the zones).
    pub fn message(&self, program: &Program) -> String {
        let side = |v: Option<i64>| v.map_or_else(|| "none".to_string(), |i| format!("`{i}`"));
        match self.failure {
            Failure::Overflow => "arithmetic overflow".to_string(),
            Failure::DivisionByZero => "division by zero".to_string(),
            Failure::Apply { op, first, second } => format!(
                "cannot apply `{}` to {} and {}",
                op.symbol(),
                side(first),
                side(second)
            ),
            Failure::Expected(what) => format!("expected {what}, found none"),
            Failure::NoZone(z) => format!(
                "no zone `{}` for none",
                program.zones.get(z).map_or("?", |d| d.name.as_str())
            ),
        }
    }
}

/// A closure's answer where it runs outside a statement (a game's creation, a rules test, an
/// agent's measure): its value, or why it gave none: the runtime error the walker raises there
/// (`Err(Some(fault))`), or a form or a value it does not handle (`Err(None)`: the walker
/// evaluates the expression; `Mach::answered_at`).
pub(crate) type Answer<T> = Result<T, Option<Fault>>;

/// What the closures make while they run that a slot cannot hold, the slot holding its place here.
#[derive(Default)]
pub(crate) struct Made {
    /// The lists given to a parameter that ranges over lists (menu.rs, `Domain::Lists`), as words
    /// (`Items::Bound`). Owned by a menu's listing.
    pub lists: Lists,
    /// The texts given to a function's parameter or an expression's `let` (text_store.rs). Made
    /// by the outermost call or `let` that keeps one, where nobody gave a store; a call or a `let`
    /// gives back the places it took when it ends.
    pub texts: Vec<std::sync::Arc<String>>,
}

/// A slot holding no word (a local not yet given, or given a value that is not a word): a
/// closure that reads it answers `None`, and the walker answers instead.
pub(crate) const NONE: i64 = i64::MIN;

/// The int slots of the frames the closures run in.
pub(crate) type Slots = [i64; SLOTS];

/// Lists made for parameters that range over lists, their items as words.
pub(crate) type Lists = Vec<std::sync::Arc<[i64]>>;

impl<'g> Env<'g> {
    pub fn new(
        p: &'g Program,
        s: &'g State,
        l: &'g Layout,
        you: u8,
        slots: &'g mut [i64],
    ) -> Env<'g> {
        Env {
            p,
            s,
            l,
            you,
            slots,
            made: None,
            draws: None,
            fault: None,
        }
    }

    /// Answers `None` for the runtime error `failure` at `span`, kept in [`Env::fault`] (the
    /// first one met: an evaluation stops at its first error).
    #[cold]
    pub fn fail<T>(&mut self, span: cardgame_grammar::ast::Span, failure: Failure) -> Option<T> {
        if self.fault.is_none() {
            self.fault = Some(Fault { span, failure });
        }
        None
    }

    /// What `closure` gives here, as an [`Answer`]: where it gives `None`, the fault it met, if any.
    pub fn answer<T>(&mut self, closure: impl FnOnce(&mut Self) -> Option<T>) -> Answer<T> {
        let value = closure(self);
        value.ok_or(self.fault)
    }
}

/// A value of the state as a word.
#[inline]
pub(crate) fn word(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        Value::Player(p) => Some(*p as i64),
        Value::Card(c) => Some(*c as i64),
        Value::Kind(k) | Value::Tag(k) | Value::Space(k) => Some(*k as i64),
        Value::Zone(z) => Some(*z as i64),
        Value::None | Value::Text(_) | Value::List(_) => None,
    }
}

/// The type of a value that is a word; `None` for `none`, a text or a list.
pub(crate) fn word_type(v: &Value) -> Option<Ty> {
    Some(match v {
        Value::Int(_) => Ty::Int,
        Value::Bool(_) => Ty::Bool,
        Value::Player(_) => Ty::Player,
        Value::Card(_) => Ty::Card,
        Value::Kind(_) => Ty::Kind,
        Value::Tag(_) => Ty::Tag,
        Value::Space(_) => Ty::Space,
        Value::Zone(_) => Ty::Zone,
        Value::None | Value::Text(_) | Value::List(_) => return None,
    })
}
