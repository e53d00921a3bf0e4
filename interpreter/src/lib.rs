//! Interpreter stage: checks, lowering, engine.
#![forbid(unsafe_code)]
