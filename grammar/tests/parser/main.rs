//! Grammar stage: tests of the parser (precedence, spans, decisions, texts, items, statements,
//! error recovery and robustness against hostile input), one module per part of the language.

mod errors;
mod expressions;
mod helpers;
mod items;
mod robustness;
mod statements;
mod texts_and_decisions;
