//! Command line: every seat's score by the script's own `fn score`, as `run`, `play` and `serve` show
//! it.

use cardgame_interpreter::engine::Game;
use cardgame_interpreter::value::Value;

/// Every seat's score by the script's own `fn score(p: player): int` (docs/language.md), when it has
/// one and every call gives a number.
pub fn scores(game: &Game) -> Option<Vec<i64>> {
    game.scores()
}

/// The line that gives every seat's score ("scores: P1 12, P2 9"), when the script has `fn score`.
pub fn scores_line(game: &Game) -> Option<String> {
    let all = scores(game)?;
    let each: Vec<String> = all
        .iter()
        .enumerate()
        .map(|(p, n)| format!("{} {n}", game.label(&Value::Player(p as u8))))
        .collect();
    Some(format!("scores: {}", each.join(", ")))
}
