//! Engine stage: run-time values of the executable form.

use std::sync::Arc;

/// A value of the language. Cheap to clone: lists and texts are shared (a text through a thin
/// pointer, so that a value is two words).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Value {
    #[default]
    None,
    Int(i64),
    Bool(bool),
    /// A seat, 0-based.
    Player(u8),
    /// A card instance id.
    Card(u32),
    Kind(u16),
    Tag(u16),
    Space(u16),
    /// A zone instance id.
    Zone(u32),
    Text(Arc<String>),
    List(Arc<Vec<Value>>),
}

impl Value {
    pub fn list(v: Vec<Value>) -> Value {
        Value::List(Arc::new(v))
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn a_value_is_two_words() {
        // A text is a thin pointer (`Arc<String>`), so that a value is a tag and one word: locals,
        // variables and lists copy 16 bytes a value, not 24.
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }
}
