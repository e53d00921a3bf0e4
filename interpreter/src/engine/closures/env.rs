//! Engine stage (closures): what compiled closures read while they run, and values as words.

use crate::engine::state::{Layout, State};
use crate::value::Value;

/// Slots of all frames together: a call's frame lies above its caller's.
pub(crate) const SLOTS: usize = 32;

/// What the closures read while they run: the game, the seat they answer for, and the slots.
pub(crate) struct Env<'g> {
    pub s: &'g State,
    pub l: &'g Layout,
    /// `you`: the decider of a menu; the active player in a check.
    pub you: u8,
    pub slots: [i64; SLOTS],
}

impl<'g> Env<'g> {
    pub fn new(s: &'g State, l: &'g Layout, you: u8) -> Env<'g> {
        Env {
            s,
            l,
            you,
            slots: [0; SLOTS],
        }
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
