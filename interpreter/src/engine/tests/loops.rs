//! Engine stage: `loop` and `break` on the closures against the walker: breaks at several depths,
//! inside `if`, a nested block, a `turn`, a `phase`, a `strict` and a `round`; loops whose body
//! pauses on a decision and resumes, a `break` after the decision (the walker's loop frame left
//! from compiled code); loops of no body, and loops of items failing their filter, ending on the
//! budget. Each script is played in lockstep, recorded or not, and on the closures alone with no
//! statement they compiled left to the walker.

use super::gaps::compiles_whole;
use super::oracle::{checked, config};
use super::walked::{compiled_whole, hands};
use crate::engine::{Engine, Game, Status};

/// Loops in the flow, a turn's body, a phase, `strict` and `round`, `while` and `repeat` and a
/// `for`, left by `break` at several depths, with decisions in their bodies.
const LOOPS_REST: &str = r#"
game "Loops" {
  players 3
}
zone kept per player: set
var rounds: int = 0
var laps: int = 0
action keep(c in you.hand) {
  move c to you.kept
  you.coins += c.worth
  loop {
    laps += 1
    if laps % 3 == 0 {
      break
    }
    if you.coins > 0 {
      if you.coins % 2 == 1 {
        break
      }
    }
    you.coins += 1
  }
}
action toss(c in you.hand) {
  move c to deck
  shuffle deck
}
action rest() {
  you.coins += 1
}
proc draw_to(p: player, n: int): int {
  let drawn = 0
  loop {
    if count(p.hand) >= n or count(deck) == 0 {
      break
    }
    move top of deck to p.hand
    drawn += 1
  }
  return drawn
}
flow {
  move box to deck
  shuffle deck
  loop {
    rounds += 1
    round {
      for p in everyone {
        turn p {
          let d = draw_to(p, 3)
          p.coins += d
          loop {
            actions by p once [keep, toss, rest]
            if count(p.hand) == 0 or p.coins % 4 == 0 {
              break
            }
            phase extra {
              loop {
                p.coins += 1
                if p.coins % 3 == 0 {
                  break
                }
              }
              if p.coins > 12 {
                break
              }
            }
            strict {
              require p.coins % 5 != 0
              if p.coins % 2 == 0 {
                break
              }
            }
            if count(deck) < 4 {
              break
            }
          }
          // No decision inside: the loop runs inline, its `break` crossing a phase and `strict`.
          loop {
            phase tally {
              p.coins += 1
              if p.coins % 3 == 0 {
                break
              }
              if p.coins % 3 == 1 {
                end phase
              }
              p.coins += 1
            }
            strict {
              require p.coins % 5 != 0
              if p.coins % 2 == 0 {
                break
              }
            }
            laps += 1
          }
          for q in everyone where q != p {
            repeat 3 {
              while true {
                laps += 1
                if laps % 4 == 0 {
                  break
                }
              }
              if laps % 3 == 0 {
                break
              }
            }
            if q.coins > p.coins {
              break
            }
          }
        }
        loop {
          if p.coins > 30 {
            end round
          }
          break
        }
      }
    }
    // A turn and a round left by `break`, inline: the turn has no end, the players out for
    // the round are back.
    for p in everyone {
      loop {
        turn p {
          p.coins += 1
          if p.coins % 2 == 0 {
            break
          }
          laps += 1
        }
        laps += 2
      }
    }
    loop {
      round {
        for p in everyone {
          if p.coins % 3 == 0 {
            eliminate p for round
          }
        }
        if laps % 2 == 0 {
          break
        }
        end round
      }
      laps += 1
    }
    if rounds > 5 {
      break
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;

#[test]
fn loops_on_the_closures_are_the_walkers() {
    compiled_whole(&hands(LOOPS_REST), "loops", 3, 40, 200);
}

/// A loop whose body pauses on a `choose` and breaks after it, in the flow and in an action;
/// in a turn's body, the turn ended by `end turn` from inside the loop.
const CHOICES_REST: &str = r#"
game "Choices" {
  players 2
}
var rounds: int = 0
action pick() if count(you.hand) > 0 {
  loop {
    let c = choose c in you.hand by you prompt "Keep which?"
    you.coins += c.worth
    move c to deck
    if you.coins > 6 or count(you.hand) == 0 {
      break
    }
  }
}
action rest() {
  you.coins += 1
}
flow {
  move box to deck
  shuffle deck
  loop {
    rounds += 1
    for p in everyone {
      turn p {
        move top 3 of deck to p.hand
        loop {
          actions by p once [pick, rest]
          if p.coins % 3 == 0 {
            end turn
          }
          if count(p.hand) == 0 {
            break
          }
        }
        move p.hand to deck
        shuffle deck
      }
    }
    if rounds > 4 {
      break
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;

#[test]
fn loops_paused_on_decisions_are_the_walkers() {
    compiled_whole(&hands(CHOICES_REST), "choices", 2, 40, 200);
}

#[test]
fn loops_of_no_body_end_on_the_budget() {
    for body in [
        "loop {\n  }",
        "while true {\n  }",
        "repeat 100000000 {\n  }",
    ] {
        let src = format!(
            "game \"Endless\" {{\n  players 2\n}}\nflow {{\n  {body}\n  win [] \"never\"\n}}\n"
        );
        ends_on_the_budget(&src, None);
    }
}

/// Checks `src`, asserts that every statement compiles, decisions among them, and that its game
/// runs out of its budget (`max_steps`, else the default) before its first decision on both
/// engines.
fn ends_on_the_budget(src: &str, max_steps: Option<u64>) {
    let p = checked(src);
    compiles_whole(&p);
    for engine in [Engine::Walker, Engine::Closures] {
        let mut c = config(2, 1, engine);
        if let Some(n) = max_steps {
            c.max_steps = n;
        }
        match Game::new(p.clone(), c).status() {
            Status::Error(e) => {
                let e = format!("{e:?}");
                assert!(e.contains("ran more than"), "{engine:?}: {e}");
            }
            s => panic!("{engine:?}: {s:?}"),
        }
    }
}

/// A `for` whose items fail its `where` filter: the walker charges each item its filter's work,
/// the closures one unit, so that a loop of such loops (here 100 loops over 200 cards none of which
/// passes) runs out of the budget on both engines, not on the walker alone.
#[test]
fn items_failing_a_filter_are_charged() {
    let src = r#"
game "Sieve" {
  players 2
}
property rank: int = 0
card "Chaff" {
  copies 200
}
zone deck: pile
flow {
  move box to deck
  repeat 100 {
    for c in deck where c.rank > 100 {
      log "{c}"
    }
  }
  win [] "never"
}
"#;
    ends_on_the_budget(src, Some(10_000));
}

/// The condition of a `while` whose body paused on a decision, tested by its closure where the
/// walker's loop frame goes on: no expression evaluated by the walker (before, one per pass).
#[test]
fn conditions_of_loops_paused_are_on_the_closures() {
    let src = hands(
        r#"
game "Haggle" {
  players 3
}
var open: bool = true
action spend(c in you.hand) {
  move c to deck
  you.coins += c.worth
  if you.coins > 6 {
    open = false
  }
}
action halt() {
  open = false
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  for p in everyone {
    open = true
    while open and count(p.hand) > 0 {
      actions by p once [spend, halt]
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = compiled_whole(&src, "haggle", 3, 30, 100);
    let evaluated: u64 = (super::walked::played(&p, 3, 30, false).iter())
        .map(|c| c.evaluated)
        .sum();
    assert_eq!(evaluated, 0, "evaluated by the walker");
}

/// The `where` filter of a `for` whose body paused on a decision (a card's variable, a local from
/// before the loop, a player's variable), tested by its closure for the items after the pause
/// where the walker's loop frame goes on, as Crayne's `for c in p.inplay where c is Choice and
/// c.mode == 0`. No expression is evaluated by the walker (before: 1,046, each item after a pause
/// by the walker).
#[test]
fn filters_of_loops_paused_are_on_the_closures() {
    let src = hands(
        r#"
game "Marks" {
  players 3
}
var marked per card: int = 0
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 4 of deck to p.hand
  }
  let least = 2
  repeat 2 {
    for p in everyone where p.coins < 12 {
      for c in p.hand where c.worth >= least and c.marked == 0 and p.coins < 9 {
        choose by p prompt "Mark {c}?" {
          "mark" {
            c.marked = 1
            p.coins += c.worth
          }
          "skip" {
            p.coins += 1
          }
        }
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = compiled_whole(&src, "marks", 3, 30, 100);
    let evaluated: u64 = (super::walked::played(&p, 3, 30, false).iter())
        .map(|c| c.evaluated)
        .sum();
    assert_eq!(evaluated, 0, "evaluated by the walker");
}

/// The condition of a `while` whose body paused on a decision, that draws inside (`random` in a
/// comparison) or reads a pile that may refill first (`top of p.stock != none`): tested by its
/// closure where the walker's loop frame goes on, refilling or drawing as the compiled loop's. No
/// expression is evaluated by the walker (before: 1,652, each test after a pause by the walker).
#[test]
fn conditions_of_loops_paused_that_draw_or_refill_are_the_closures() {
    let src = hands(
        r#"
game "Streaks" {
  players 3
}
zone stock per player: pile, hidden, refill from used
zone used per player: pile
action dig() {
  move top of you.stock to you.used
  you.coins += 1
}
action push(c in you.hand) {
  move c to you.used
  you.coins += c.worth
}
action rest() {
  you.coins += 1
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.stock
    move top 2 of deck to p.hand
  }
  for p in everyone {
    while top of p.stock != none and p.coins < 6 {
      actions by p once [dig, push]
    }
  }
  for p in everyone {
    while random([1, 2, 3]) + p.coins < 12 {
      actions by p once [push, rest]
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = compiled_whole(&src, "streaks", 3, 30, 100);
    let evaluated: u64 = (super::walked::played(&p, 3, 30, false).iter())
        .map(|c| c.evaluated)
        .sum();
    assert_eq!(evaluated, 0, "evaluated by the walker");
}
