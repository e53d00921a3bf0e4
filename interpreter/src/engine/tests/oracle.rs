//! Engine stage: helpers of the tests that hold an engine against the walker, its oracle: a script of
//! the repository or written out checked, a configuration on an engine, and what a game shows at a
//! decision.

use crate::check::check_source;
use crate::engine::{Engine, Game, GameConfig, Status};
use crate::program::Program;
use std::sync::Arc;

/// The checked program of `file`, a path from the repository's root.
pub(super) fn program(file: &str) -> Arc<Program> {
    let path = format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let checked = check_source(&src);
    Arc::new(
        checked
            .program
            .unwrap_or_else(|| panic!("{file} checks: {:?}", checked.diagnostics)),
    )
}

/// The checked program of a script written out.
pub(super) fn checked(src: &str) -> Arc<Program> {
    let checked = check_source(src);
    Arc::new(
        checked
            .program
            .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics)),
    )
}

pub(super) fn config(players: u8, seed: u64, engine: Engine) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.engine = engine;
    c
}

/// Everything a seat or a tool can observe of a game now, as text.
pub(super) fn observed(g: &mut Game) -> String {
    let events = g.take_events();
    let mut out = format!("{:?}\n{events:?}\n", g.status());
    for seat in 0..g.players() {
        out.push_str(&serde_json::to_string(&g.view(seat)).expect("a view"));
        out.push('\n');
    }
    out
}

/// Plays `game` to its end, each choice drawn from `seed` (the same choices for the same seed).
pub(super) fn play_out(game: &mut Game, seed: u64) {
    let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while let Status::Decision(d) = game.status() {
        pick ^= pick << 13;
        pick ^= pick >> 7;
        pick ^= pick << 17;
        game.apply((pick % d.options.len() as u64) as usize)
            .expect("an option");
    }
}
