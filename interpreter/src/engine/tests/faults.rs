//! Engine stage: tests of the closures' runtime errors (closures/env.rs, `Fault`): an overflow or
//! a division by zero that a compiled statement meets fails the game with the walker's error (its
//! message, line and position), raised by the closures in release builds without the walker; in
//! debug builds the walker runs the statement and `Mach::run_block` checks it fails the same way.
//! So does arithmetic of a local or a variable that holds `none`, a `turn` of `none` (nones.rs), a
//! `show` to a seat of `none`, a property of a card that is `none`, and the zone of a seat of `none`.

use super::oracle::{checked, config};
use crate::engine::{Engine, Game, RuntimeError, Status};

/// A script whose flow runs `statement` after `n = 1` (`big` the largest number).
fn script(statement: &str) -> String {
    format!(
        r#"
game "Faults" {{ players 2 }}
var big: int = 9223372036854775807
var n: int = 0
var absent: int = none
var gone: player = none
var lost: card = none
property worth: int = 0
card "Gem" {{
  worth 4611686018427387904
  copies 2
}}
zone vault: set
zone pocket per player: set
flow {{
  move box to vault
  n = 1
  {statement}
  log "not reached"
}}
"#
    )
}

/// The error a game of `statement` fails with on `engine`, and the statements and expressions the
/// walker ran.
fn failed(statement: &str, engine: Engine) -> (RuntimeError, u64) {
    let g = Game::new(checked(&script(statement)), config(2, 1, engine));
    let Status::Error(err) = g.status() else {
        panic!("`{statement}` does not fail: {:?}", g.status());
    };
    let counted = g.counted();
    (err.clone(), counted.statements + counted.evaluated)
}

#[test]
fn an_overflow_or_a_division_by_zero_fails_with_the_walkers_error_on_the_closures() {
    let cases = [
        ("let x = big + n", "arithmetic overflow"),
        ("let x = 0 - big - n - n", "arithmetic overflow"),
        ("let x = big * (n + 1)", "arithmetic overflow"),
        ("let x = -(0 - big - n)", "arithmetic overflow"),
        ("if 10 / (n - 1) > 1 { n = 2 }", "division by zero"),
        ("if 10 % (n - 1) > 1 { n = 2 }", "division by zero"),
        ("while n < 3 { n = n + big }", "arithmetic overflow"),
        ("big += n", "arithmetic overflow"),
        ("pay 0 - n from big", "arithmetic overflow"),
        ("let x = sum(v for v in [n, big])", "arithmetic overflow"),
        ("let x = sum(c.worth for c in vault)", "arithmetic overflow"),
        (
            r#"if sum(c.worth for c in vault where c is "Gem") > 0 { n = 2 }"#,
            "arithmetic overflow",
        ),
    ];
    for (statement, message) in cases {
        the_closures_fail_as_the_walker(statement, message);
    }
}

#[test]
fn arithmetic_of_none_and_a_turn_of_none_fail_with_the_walkers_error_on_the_closures() {
    let cases = [
        ("let x = 4 - absent", "cannot apply `-` to `4` and none"),
        (
            "let x = absent * (n + 1)",
            "cannot apply `*` to none and `2`",
        ),
        (
            "let x = absent + absent",
            "cannot apply `+` to none and none",
        ),
        (
            "let k = absent\n  let x = k % 3",
            "cannot apply `%` to none and `3`",
        ),
        (
            "if n / absent > 0 { n = 2 }",
            "cannot apply `/` to `1` and none",
        ),
        ("turn gone { n = 2 }", "expected a player, found none"),
        ("show vault to gone", "expected a player, found none"),
        (
            "move vault to box\n  let d = first(vault)\n  if d.worth == n { n = 2 }",
            "expected a card, found none",
        ),
        ("if lost.worth > n { n = 2 }", "expected a card, found none"),
        (
            "if n == lost.worth { n = 2 }",
            "expected a card, found none",
        ),
        ("if n + big == lost.worth { n = 2 }", "arithmetic overflow"),
        ("show vault to seat(n + 8)", "expected a player, found none"),
        (
            "let who = gone\n  turn who { n = 2 }",
            "expected a player, found none",
        ),
    ];
    for (statement, message) in cases {
        the_closures_fail_as_the_walker(statement, message);
    }
}

#[test]
fn the_zone_of_a_seat_of_none_fails_with_the_walkers_error_on_the_closures() {
    let message = "no zone `pocket` for none";
    for statement in [
        "move seat(3).pocket to vault",
        "move vault to seat(0).pocket",
        "move gone.pocket to vault",
        "let k = 7\n  move vault to seat(k).pocket",
        "let who = gone\n  move who.pocket to vault",
        "n = count(gone.pocket)",
        "if count(seat(9).pocket) > n { n = 2 }",
        "for c in gone.pocket { n = 2 }",
        "let x = count(c in seat(5).pocket where c is \"Gem\")",
    ] {
        the_closures_fail_as_the_walker(statement, message);
    }
}

/// The closures' error is the walker's (message, span, line), and its message `message`.
fn same_error(closures: &RuntimeError, walker: &RuntimeError, message: &str, what: &str) {
    assert_eq!(walker.message, message, "`{what}`");
    assert_eq!(
        (closures.message.as_str(), closures.span, closures.line),
        (walker.message.as_str(), walker.span, walker.line),
        "`{what}`"
    );
}

/// A game of `statement` fails on the closures with the walker's error `message`, raised without
/// the walker in release builds.
fn the_closures_fail_as_the_walker(statement: &str, message: &str) {
    let (walker, _) = failed(statement, Engine::Walker);
    let (closures, walked) = failed(statement, Engine::Closures);
    same_error(&closures, &walker, message, statement);
    assert_eq!(closures.position, walker.position, "`{statement}`");
    // Release builds: the closures raise it, the walker runs no statement and no expression.
    if !cfg!(debug_assertions) {
        assert_eq!(
            walked, 0,
            "`{statement}`: the walker ran {walked} statements and expressions"
        );
    }
}

/// A game of `declarations` (declared before its flow) whose creation fails.
fn created(declarations: &str, engine: Engine) -> (RuntimeError, crate::engine::probe::Counted) {
    let src = format!(
        "game \"Faults\" {{ players 2 }}\n{declarations}\nzone vault: set\nflow {{\n  log \"x\"\n}}\n"
    );
    let g = Game::new(checked(&src), config(2, 1, engine));
    let Status::Error(err) = g.status() else {
        panic!("`{declarations}` does not fail: {:?}", g.status());
    };
    (err.clone(), g.counted())
}

#[test]
fn a_fault_while_a_game_is_created_is_the_walkers_error_on_the_closures() {
    let cases = [
        ("var third: int = 10 / (players - 2)", "division by zero"),
        (
            "card \"Gem\" {\n  copies 4611686018427387904 * players\n}",
            "arithmetic overflow",
        ),
        (
            "table by players {\n  columns worth\n  2: 10 % (players - 2)\n}",
            "division by zero",
        ),
        (
            "var n: int = 1\nvar worth: int = 9223372036854775807 + n",
            "arithmetic overflow",
        ),
    ];
    for (declarations, message) in cases {
        let (walker, _) = created(declarations, Engine::Walker);
        let (closures, counted) = created(declarations, Engine::Closures);
        same_error(&closures, &walker, message, declarations);
        // Release builds: the closures raise it, the walker evaluates nothing.
        if !cfg!(debug_assertions) {
            assert_eq!(counted.evaluated, 0, "`{declarations}`");
        }
    }
}

#[test]
fn a_fault_in_a_rules_test_is_the_walkers_error_on_the_closures() {
    let src = r#"
game "Faults" { players 2 }
var n: int = 1
proc deal(k: int) {
  n = k
}
flow {
  log "x"
}
test "an expectation" {
  expect 10 / (n - 1) == 0
}
test "a start" {
  start deal(9223372036854775807 + n)
}
"#;
    let program = checked(src);
    let outcomes = crate::testing::run_tests(&program, src);
    let failures: Vec<String> = (outcomes.iter())
        .map(|o| format!("{}: {}", o.name, o.failure.as_deref().unwrap_or("passed")))
        .collect();
    assert_eq!(
        failures,
        [
            "an expectation: line 11: `expect 10 / (n - 1) == 0`: line 11: division by zero (turn 0, P1 active)",
            "a start: line 13: the game stopped with an error after the test's last step: line 14: arithmetic overflow (turn 0, P1 active)",
        ]
    );
}

#[test]
fn a_fault_in_a_strategys_rule_is_the_walkers_error_on_the_closures() {
    let src = r#"
game "Faults" { players 2 }
var big: int = 9223372036854775807
var n per player: int = 0
action grab(k in [1, 2]) {
  you.n += k
}
strategy held "a condition that overflows" {
  prefer grab(k) if big + k > 0
  otherwise random
}
strategy weighed "a weight that overflows" {
  prefer grab(k) by big * k
  otherwise random
}
flow {
  turn seat(1) {
    actions by seat(1) once [grab]
  }
  win everyone "done"
}
"#;
    let program = checked(src);
    for strategy in 0..2 {
        let error = |engine| {
            let g = Game::new(program.clone(), config(2, 1, engine));
            g.strategy_choice(strategy).expect_err("the rule fails")
        };
        let (walker, closures) = (error(Engine::Walker), error(Engine::Closures));
        let rule = format!("strategy {strategy}");
        same_error(&closures, &walker, "arithmetic overflow", &rule);
    }
}
