//! Engine stage: tests of the calls remembered while a menu is listed (`Memo`, state.rs): a call
//! found there gives the same value and counts the same work as evaluating it, so that budgets end
//! games at the same step, with the same error, whether calls are remembered or not.

use super::build::{game_of, game_without};
use crate::engine::probe::Without;
use crate::engine::{Game, Status};

/// Every candidate card of the menu calls `heavy` with the same arguments: after the first card,
/// the calls are found remembered. (`worth` is copied into the condition, but `heavy`, declared
/// after it, stays a call there: check/inline.rs copies only functions declared earlier.)
const SRC: &str = r#"game "Memo" { players 2 }
property points: int = 0
zone deck: pile
zone hand per player: set
card "One" { copies 4 points 1 }
card "Two" { copies 4 points 2 }
card "Three" { copies 4 points 3 }
setup { move box to deck }
fn worth(c: card): bool = heavy(3) > c.points and heavy(2) >= 0
fn heavy(n: int): int = sum(c.points for c in deck where c.points < n) + count(c in deck where c.points >= n)
action pick(c in deck) label "Take {c}" if worth(c) {
  move c to you.hand
}
flow {
  repeat 6 {
    turn seat(1) { actions by you once [pick] }
  }
  win [seat(1)] "{count(seat(1).hand)} {heavy(3)}"
}
"#;

/// Plays the game to its end, always taking the last option, with calls remembered or not
/// (`memo`). Gives its end and work, and the calls it found remembered.
fn play_remembering(max_steps: Option<u64>, memo: bool) -> ((String, u64), u64) {
    let without = Without {
        memo: !memo,
        ..Without::default()
    };
    let mut g: Game = game_without(SRC, 1, max_steps, false, without);
    let mut work = 0;
    loop {
        work += g.work();
        let end = match g.status() {
            Status::Decision(d) => {
                let last = d.options.len() - 1;
                g.apply(last).expect("apply");
                continue;
            }
            Status::Over(o) => o.reason.clone(),
            Status::Error(e) => format!("error: {} (line {})", e.message, e.line),
        };
        return ((end, work), g.counted().calls_remembered);
    }
}

/// [`play_remembering`]'s end and work.
fn play(max_steps: Option<u64>, memo: bool) -> (String, u64) {
    play_remembering(max_steps, memo).0
}

#[test]
fn remembered_calls_count_the_work_of_their_bodies() {
    let (remembered, found) = play_remembering(None, true);
    assert!(found > 50, "calls are found remembered: {found}");
    let (evaluated, found) = play_remembering(None, false);
    assert_eq!(found, 0);
    assert_eq!(remembered.0, "6 8");
    assert_eq!(remembered, evaluated);
}

#[test]
fn budgets_end_at_the_same_step_with_or_without_remembered_calls() {
    // The most work between two decisions (the first menu's listing): every budget up to it
    // ends the game at the same place, with the same error and work, either way.
    let needed = {
        let mut g = game_of(SRC, 1, None, false);
        let mut most = g.work();
        while let Status::Decision(d) = g.status() {
            let last = d.options.len() - 1;
            g.apply(last).expect("apply");
            most = most.max(g.work());
        }
        most
    };
    assert!(needed > 100);
    let mut ended = 0;
    for max in 0..needed + 5 {
        let remembered = play(Some(max), true);
        let evaluated = play(Some(max), false);
        assert_eq!(remembered, evaluated, "budget {max}");
        ended += u64::from(remembered.0.starts_with("error: ran more than"));
    }
    assert!(
        ended > 0 && ended < needed + 5,
        "{ended} budgets ended the game"
    );
}
