//! Interpreter stage: static checks, lowering to an executable form, the game engine, agents and traces.
#![forbid(unsafe_code)]

pub mod agents;
pub mod catalog;
pub mod check;
pub mod compare;
pub mod compare_part;
pub mod course;
pub mod curves;
pub mod diag;
pub mod engine;
pub mod figures;
pub mod interchangeable;
pub mod keyed;
pub mod learn;
pub mod ops;
pub mod paired;
pub mod program;
pub mod purity;
pub mod rate;
pub mod report;
pub mod shard;
pub mod sheet;
pub mod sheet_write;
pub mod sim;
pub mod stat_sums;
pub mod study;
pub mod tally;
pub mod testing;
pub mod tournament;
pub mod value;
pub mod variant;
