//! Command line: every seat's score by the script's own `fn score`, as `run`, `play` and `serve` show
//! it.

use cardgame_interpreter::engine::Game;
use cardgame_interpreter::value::Value;

/// Every seat's score by the script's own `fn score(p: player): int` (docs/language.md), when it has
/// one and every call gives a number.
pub fn scores(game: &Game) -> Option<Vec<i64>> {
    use cardgame_grammar::ast::Span;
    use cardgame_interpreter::program::{Expr, ExprKind, FnId, Ty};
    let prog = game.program();
    let f = prog
        .fns
        .iter()
        .position(|f| f.name == "score" && f.params == [Ty::Player] && f.ret == Ty::Int)?;
    let mut copy = game.clone();
    (0..game.players())
        .map(|p| {
            let seat = Expr::new(ExprKind::Const(Value::Player(p)), Span::default());
            let call = Expr::new(
                ExprKind::CallFn(FnId(f as u16), vec![seat]),
                Span::default(),
            );
            match copy.eval(&call, 1) {
                Ok(Value::Int(n)) => Some(n),
                _ => None,
            }
        })
        .collect()
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
