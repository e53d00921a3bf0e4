//! Benchmarks: the hand-written Rust baselines the interpreter is measured against (benchmark code only).
//!
//! Each baseline plays one game of an example script with the same rules and random choices among the
//! same options the engine offers (identical cards of a `set` zone are one option), and reports the
//! number of decisions taken and how the game ended, so its games can be compared with interpreted ones.

pub mod duel;
pub mod market_race;

/// How one hand-written game went.
pub struct Played {
    pub decisions: u64,
    /// Winning seats as bits (seat 0 is bit 0).
    pub winners: u8,
    pub reason: &'static str,
}

/// The distinct elements of `cards`, in order of first appearance: the options a decision offers
/// over a `set` zone, where identical cards are one option.
pub fn distinct<T: Copy + PartialEq>(cards: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for c in cards {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}
