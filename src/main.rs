//! Command line of cardgame.
#![forbid(unsafe_code)]
fn main() {}
