//! Grammar stage: the pest grammar, the parser and the typed syntax tree (with spans) of the cardgame language.
#![forbid(unsafe_code)]

pub mod ast;
pub mod format;
mod parser;

pub use parser::{
    edit_distance, parse, parse_cell, SyntaxError, CONTEXTUAL_WORDS, KEYWORDS, MAX_NESTING,
    MAX_TREE_DEPTH, TOP_LEVEL_KEYWORDS,
};
