//! Engine stage: statements that draw an item at random on the closures (closures/draws.rs),
//! against the walker: `+=` and `-=` of `random(L)` to a local, a global, a player's and a card's
//! variable, `move random(L) to Z` (to a pile's top or bottom, face up or down, a move of `none`
//! failing inside `strict`), `=` of a pile's cards refilled first, a `log` whose parts draw; each
//! script played in lockstep, recorded or not, and on the closures alone with no statement they
//! compiled left to the walker.

use super::walked::compiled_whole;

#[test]
fn draws_added_and_moved_are_the_walkers() {
    let src = r#"
game "Draws" {
  players 3
}
property worth: int = 0
card "Coin {n}" for n in 1..6 {
  copies 2
  worth n
}
zone deck: pile, hidden
zone hand per player: set
zone pool: pile
zone lost: set
var luck: int = 0
var coins per player shown: int = 0 min 0 max 30
var charge per card: int = 0
action lucky(c in you.hand) {
  let n = 1
  n += random(1..c.worth)
  luck -= random([1, 2, n])
  you.coins += random([c.worth, 2])
  c.charge -= random(1..3)
  move random(filter(d in you.hand where d != c)) to pool
}
action toss() {
  strict {
    move random(you.hand) to pool bottom face up
  }
}
action shed(c in you.hand) {
  move random([c]) to lost
  move random(take(pool, 2)) to deck top face down
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [lucky, toss, shed]
        if count(p.hand) < 2 {
          move top 2 of deck to p.hand
        }
      }
    }
  }
  log "{luck}, {sum(c.charge for c in lost)}"
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    compiled_whole(src, "draws", 3, 30, 200);
}

/// `=` of a pile's top or bottom cards to a variable, the pile refilled first when it holds fewer
/// (a draw inside the segment), as the walker's; with both empty, `none` or fewer cards written.
#[test]
fn piles_written_to_variables_are_the_walkers() {
    let src = r#"
game "Refills" {
  players 3
}
property worth: int = 0
card "Coin {n}" for n in 1..5 {
  worth n
}
zone deck: pile, hidden, refill from discard
zone discard: pile
zone hand per player: set
var coins per player shown: int = 0
var seen: card = none
var drawn per player: list of card = []
action peek() {
  seen = top of deck
  you.drawn = bottom 2 of deck
  if seen != none {
    you.coins += seen.worth
  }
}
action grab() {
  you.drawn = top 3 of deck
  move you.drawn to you.hand
}
action toss(c in you.hand) {
  move c to discard
}
flow {
  move box to deck
  shuffle deck
  repeat 6 {
    for p in everyone {
      turn p {
        actions by p once [peek, grab, toss]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    compiled_whole(src, "refills", 3, 40, 300);
}

/// `log` of parts that draw inside (`random(L)` alone and under arithmetic, beside a part that
/// draws nothing), recorded or not: the closures draw from a copy of the generator, kept when every
/// part answered, as the walker's text draws them. Every statement compiles (before, such a `log`
/// was the walker's), none left to the walker.
#[test]
fn logs_that_draw_are_the_closures() {
    let src = super::walked::hands(
        r#"
game "Rolls" {
  players 3
}
action roll(c in you.hand) {
  move c to deck
  log "{you} rolled {random([1, 2, 3])} and {random([4, 5]) + c.worth} for {c.worth}"
  you.coins += random([1, 2])
}
action rest() {
  log "{you} rests: {you.coins * 2 + random([0, 1])}"
  you.coins += 1
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 3 {
    for p in everyone {
      turn p {
        actions by p once [roll, rest]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = compiled_whole(&src, "rolls", 3, 30, 100);
    let evaluated: u64 = (super::walked::played(&p, 3, 30, false).iter())
        .map(|c| c.evaluated)
        .sum();
    assert_eq!(evaluated, 0, "evaluated by the walker");
}

/// A draw in the argument of a small function's call (copied where it is called, its argument
/// bound first by a `let`: check/inline.rs), in a `+=`, a `let` and an `if`'s condition: drawn
/// from a copy of the generator, as under arithmetic. No expression is evaluated by the walker
/// (before, these statements were the walker's).
#[test]
fn draws_in_a_small_functions_argument_are_the_closures() {
    let src = super::walked::hands(
        r#"
game "Doubles" {
  players 3
}
fn double(n: int): int = n * 2 + n / 3
action roll(c in you.hand) {
  move c to deck
  you.coins += double(random([1, 2, 3]))
  let d = double(random([0, c.worth])) + 1
  if double(random([1, 2])) > 3 {
    you.coins += d
  }
}
action rest() {
  you.coins += 1
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 3 {
    for p in everyone {
      turn p {
        actions by p once [roll, rest]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = compiled_whole(&src, "doubles", 3, 30, 100);
    let evaluated: u64 = (super::walked::played(&p, 3, 30, false).iter())
        .map(|c| c.evaluated)
        .sum();
    assert_eq!(evaluated, 0, "evaluated by the walker");
}
