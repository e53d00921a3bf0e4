//! Engine stage: decisions: the frames a pending decision keeps on the stack (a menu's, a choice of
//! several elements', a simultaneous decision's) and an action's arguments as offered; asked and
//! answered in decide.rs.

use super::exec::At;
use super::trace::Event;
use crate::program::{ActionId, ChooseCount};
use crate::value::Value;
use cardgame_grammar::ast::Span;

/// An action with its arguments, as offered in a menu.
pub(crate) type MenuOption = (ActionId, Args);

/// An action's arguments as offered: one (most actions take one card) kept in place, so that listing
/// a menu and copying a game waiting on one allocate nothing per option; none or several in a vector.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Args {
    One(Value),
    Many(Vec<Value>),
}

impl Args {
    pub fn from_slice(args: &[Value]) -> Args {
        match args {
            [v] => Args::One(v.clone()),
            _ => Args::Many(args.to_vec()),
        }
    }
}

impl std::ops::Deref for Args {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        match self {
            Args::One(v) => std::slice::from_ref(v),
            Args::Many(v) => v,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct MenuFrame {
    pub at: At,
    pub decider: u8,
    /// Actions left for `times N`.
    pub left: Option<i64>,
    pub taken: u32,
    /// The options of the pending decision (before `pass`).
    pub offered: Vec<MenuOption>,
}

#[derive(Clone, Debug)]
pub(crate) struct ChooseMany {
    pub slot: u16,
    pub decider: u8,
    pub prompt: String,
    pub span: Span,
    pub candidates: Vec<Value>,
    pub picked: Vec<Value>,
    pub left: usize,
    pub with_done: bool,
    /// `choose order`: the last candidate is placed without asking.
    pub order: bool,
    /// Indices into `candidates` of the pending decision's options (before `done`).
    pub offered: Vec<usize>,
}

impl ChooseMany {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        slot: u16,
        decider: u8,
        prompt: String,
        span: Span,
        candidates: Vec<Value>,
        count: &ChooseCount,
        left: usize,
        with_done: bool,
    ) -> Self {
        ChooseMany {
            slot,
            decider,
            prompt,
            span,
            candidates,
            picked: Vec::new(),
            left,
            with_done,
            order: matches!(count, ChooseCount::Order),
            offered: Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct SimulFrame {
    pub at: At,
    pub players: Vec<u8>,
    pub idx: usize,
    pub answers: Vec<Value>,
    pub offered: Vec<Value>,
    /// Decision events, shown once everyone has chosen.
    pub events: Vec<Event>,
    pub running: bool,
    /// The choice of several elements the player at `idx` is making (`choose N`, `up to N`, `any`,
    /// `order`), one decision per element.
    pub picking: Option<Box<ChooseMany>>,
}

impl SimulFrame {
    pub fn new(at: At, players: Vec<u8>) -> Self {
        SimulFrame {
            at,
            players,
            idx: 0,
            answers: Vec::new(),
            offered: Vec::new(),
            events: Vec::new(),
            running: false,
            picking: None,
        }
    }
}
