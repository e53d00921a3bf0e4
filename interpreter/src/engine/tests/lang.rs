//! Engine stage: tests of the language's round-two constructs, from script text through the checker
//! to the engine (procedures that return values, function bodies with `let`, `text` values).

use super::games::logs;
use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

fn start(src: &str) -> Game {
    let checked = check_source(src);
    let errors: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let p = Arc::new(checked.program.expect("the script checks"));
    Game::new(p, GameConfig::new(2, 1))
}

fn reason(g: &Game) -> String {
    match g.status() {
        Status::Over(o) => o.reason.clone(),
        s => panic!("not over: {s:?}"),
    }
}

/// A procedure's result is kept by `let`, also when the procedure pauses for a decision before it
/// returns; `return` leaves loops and blocks at once; a procedure that ends without `return` (or
/// with `stop`) gives `none`; recursion works.
#[test]
fn a_procedure_returns_a_value_after_a_decision() {
    let src = r#"
game "Returns" { players 2 }
proc pick(p: player): int {
  let n = choose n in 1..3 by p prompt "How many?"
  for i in 1..10 {
    if i == n {
      return i * 10
    }
  }
  log "never"
}
proc nothing(): card {
  log "nothing"
}
proc stopped(): int {
  stop
  return 1
}
proc fact(n: int): int {
  if n <= 1 {
    return 1
  }
  let rest = fact(n - 1)
  return n * rest
}
flow {
  let a = pick(seat(2))
  let b = nothing()
  let c = stopped()
  let f = fact(5)
  win [seat(1)] "{a} {b} {c} {f}"
}
"#;
    let mut g = start(src);
    let d = g.decision().expect("a decision");
    assert_eq!(d.options, vec!["1", "2", "3"]);
    g.apply(1).expect("applies");
    assert_eq!(reason(&g), "20 none none 120");
    assert_eq!(logs(&g.take_events()), ["nothing"]);
}

/// `let` in a function's body: each name is computed once, in order, and may use the ones before;
/// a `text` parameter and result.
#[test]
fn a_function_body_names_values_with_let() {
    let src = r#"
game "Lets" { players 2 }
fn shout(t: text, n: int): text {
  let twice = n * 2
  let more = twice + 1
  "{t}: {twice} then {more}"
}
flow {
  let s = shout("count", 4)
  win [seat(1)] "{s}"
}
"#;
    let g = start(src);
    assert_eq!(reason(&g), "count: 8 then 9");
}
