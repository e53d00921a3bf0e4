//! Engine stage: the walker's last gaps taken over by the closures, against the walker: `and` and
//! `or` of truths that are not words (lists compared). Each script is played in lockstep, recorded
//! or not, with every statement compiled (decisions among them), and the expressions the walker
//! still evaluates counted.

use super::closures::lockstep_in;
use super::gaps::compiles_whole;
use super::oracle::checked;
use super::walked::{hands, played};

/// Plays `src` in lockstep, recorded and not, for at least `least` decisions; asserts that the
/// walker evaluated `walked` expressions over its games on the closures, then that every statement
/// compiles, decisions among them.
fn taken_over(src: &str, file: &str, players: u8, games: u64, least: u64, walked: u64) {
    let p = checked(src);
    for record in [false, true] {
        let decisions = lockstep_in(&p, file, players, games, record);
        assert!(decisions >= least, "{file}: {decisions} decisions");
    }
    assert_eq!(
        evaluated(&p, players, games),
        walked,
        "{file}: evaluated by the walker"
    );
    compiles_whole(&p);
}

/// The expressions the walker evaluated over `games` games of `p` on the closures, nobody
/// recording.
fn evaluated(p: &std::sync::Arc<crate::program::Program>, players: u8, games: u64) -> u64 {
    (played(p, players, games, false).iter())
        .map(|c| c.evaluated)
        .sum()
}

/// `and` and `or` one of whose sides is a truth that is not a word (a list compared with a list
/// written out), in an `if`, a `let`, a `while` and an action's condition: the connective's
/// closure reads that side by its value closure (before: 11,070 expressions evaluated by the
/// walker). The walker evaluates nothing.
#[test]
fn connectives_of_truths_that_are_not_words_are_the_closures() {
    let src = hands(
        r#"
game "Pairs" {
  players 3
}
zone kept per player: set
var taken per player: list of card = []
var asked: list of int = []
action keep(c in you.hand) if you.taken == [] or c.worth > 2 {
  move c to you.kept
  you.taken = you.taken + [c]
  if you.taken != [] and count(you.kept) > 1 {
    you.coins += c.worth
  }
  let twice = asked == [1, 2] or (you.coins > 3 and you.taken != [c])
  if twice {
    you.coins += 1
  }
  asked = asked + [c.worth]
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
      while count(p.hand) > 0 and not (p.taken == [] and p.coins > 4) and p.coins < 9 {
        actions by p once [keep, rest]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    taken_over(&src, "pairs", 3, 30, 100, 0);
}

/// `random` inside a larger expression (a sum, a product, a comparison, a connective, `max`) in a
/// `let`, a `+=`, an `=` and an `if`'s condition: drawn by the closures from a copy of the game's
/// generator, written back when the statement's closures answered, so the generator gives the
/// walker's numbers in the walker's order. The walker evaluates nothing.
#[test]
fn draws_inside_expressions_are_the_closures() {
    let src = hands(
        r#"
game "Dice" {
  players 3
}
var rolls: int = 0
action roll(c in you.hand) {
  move c to deck
  you.coins += random([1, 2, 3]) + c.worth
  let bonus = 2 * random([0, 1, 2]) - 1
  if bonus > 0 and random([true, false]) {
    rolls += 1
  }
  if random(everyone) == you {
    you.coins += 1
  } else if random([1, 2, 3, 4]) > 2 {
    you.coins = max(you.coins - random([1, 2]), 0)
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
    taken_over(&src, "dice", 3, 30, 100, 0);
}

/// A statement whose closures drew and then could not answer (`seat(4)` of three players is
/// `none`, no word) is the walker's: the copy of the generator they drew from is dropped, and the
/// walker draws the same numbers again from the game's. The games agree with the walker's.
#[test]
fn draws_the_walker_takes_back_are_drawn_once() {
    let src = hands(
        r#"
game "Gamble" {
  players 3
}
action gamble(c in you.hand) {
  move c to deck
  you.coins += random([1, 2, 3]) + (if seat(4) == none then c.worth else 0)
  if random([1, 2]) == 2 and seat(4) == none {
    you.coins += random([5, 6])
  }
}
action rest() {
  you.coins += random([0, 1])
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
        actions by p once [gamble, rest]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = checked(&src);
    for record in [false, true] {
        assert!(lockstep_in(&p, "gamble", 3, 30, record) >= 100);
    }
    // The walker evaluated the statements whose closures could not answer, after they drew.
    assert!(evaluated(&p, 3, 30) > 30 * 10, "{}", evaluated(&p, 3, 30));
}

/// A pile that may refill read first in an `if`'s condition (`top of you.stock != none`): the
/// closures refill it as the walker's read does, then test the condition, a pile empty with
/// nothing to refill it too (its top card `none`, no word). The walker evaluates nothing.
#[test]
fn piles_read_in_conditions_are_the_closures() {
    let src = hands(
        r#"
game "Stocks" {
  players 3
}
zone stock per player: pile, hidden, refill from used
zone used per player: pile
action draw() {
  if top of you.stock != none and count(you.used) < 9 {
    move top of you.stock to you.used
    you.coins += 1
  } else if bottom of deck == none {
    you.coins += 2
  }
}
action stash(c in you.hand) {
  move c to you.used
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.stock
    move top 1 of deck to p.hand
  }
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [draw, stash]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = checked(&src);
    for record in [false, true] {
        assert!(lockstep_in(&p, "stocks", 3, 30, record) >= 100);
    }
    compiles_whole(&p);
    assert_eq!(evaluated(&p, 3, 30), 0, "evaluated by the walker");
}

/// Variables' initial values that are not constants: a per-player one reading `you`, a per-card
/// one reading `this`, a global list written out. The walker evaluates nothing.
#[test]
fn initial_values_are_the_closures() {
    let src = hands(
        r#"
game "Starts" {
  players 3
}
var leads per player shown: bool = you == seat(1)
var twice per card: int = this.worth * 2
var pool: list of int = [1, 2, 3]
var kept per player: list of card = []
action spend(c in you.hand) {
  move c to deck
  you.coins += c.twice + count(pool)
  you.kept = you.kept + [c]
  if you.leads {
    you.coins += 1
  }
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 2 {
    for p in everyone {
      turn p {
        actions by p once [spend]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    taken_over(&src, "starts", 3, 30, 100, 0);
}

/// A computed property (a Tool's `ready`, as Craft the Crown's) that counts a list made, not
/// walked (`opponents(you)`, a function's `filter` of it calling functions), in an action's
/// condition: the count is the list's length by its value closure, `any` over it the value
/// closure's aggregate. Before, the closures could not answer and the walker listed the menu: 168
/// and 60 expressions evaluated over 10 games for the first two; now none.
#[test]
fn counts_of_lists_made_are_the_closures() {
    for (name, ready) in [
        ("a", "count(targets(you)) > 0"),
        ("b", "count(opponents(you)) > 0"),
        ("c", "owns(you, \"Sword\") > 0"),
        ("d", "can_target(you, seat(1))"),
        ("e", "any(q in targets(you) where count(q.hand) > 0)"),
    ] {
        let src = hands(&format!(
            r#"
game "Mini" {{
  players 3
}}
zone owned per player: set
var gold per player shown: int = 1
property ready: bool = false
card "Sword" {{
  ready ({ready})
}}
card "Statue" {{
}}
fn owns(p: player, k: kind): int = count(cards(k, p.owned))
fn can_target(p: player, q: player): bool = q != p and p.gold >= 3 * owns(q, "Statue")
fn targets(p: player): list of player = filter(q in opponents(p) where can_target(p, q))
action use_tool(t in you.owned) if t.ready {{
  you.gold += 1
}}
action grab(c in you.hand) {{
  move c to you.owned
}}
flow {{
  move box to deck
  shuffle deck
  for p in everyone {{
    move top 4 of deck to p.hand
  }}
  repeat 3 {{
    for p in everyone {{
      turn p {{
        actions by p once [use_tool, grab]
      }}
    }}
  }}
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}}
"#
        ));
        taken_over(&src, name, 3, 10, 20, 0);
    }
}

/// Craft the Crown's Tools (`ready` of `count(targets(you)) > 0` and of `any(q in targets(you)
/// where ...)`, `can_target`, `owns`, `use_tool`'s condition): on the closures, the walker
/// evaluates nothing (before: 11,725 expressions over 20 games of 4 players).
#[test]
fn craft_the_crowns_tools_are_the_closures() {
    let p = super::oracle::program("games/craft-the-crown.cardgame");
    assert!(lockstep_in(&p, "craft-the-crown", 4, 3, false) >= 50);
    assert_eq!(evaluated(&p, 4, 20), 0, "evaluated by the walker");
}

/// `require` of a condition that draws inside (`random` in a comparison and a connective) or reads
/// a pile that may refill first (`top of you.stock != none`): drawn from a copy of the generator,
/// refilled first, as an `if`'s conditions. The walker evaluates nothing (before: 717
/// expressions, the `require`s the walker's).
#[test]
fn requirements_that_draw_or_refill_are_the_closures() {
    let src = hands(
        r#"
game "Demands" {
  players 3
}
zone stock per player: pile, hidden, refill from used
zone used per player: pile
action draw() {
  require top of you.stock != none and count(you.used) < 9
  move top of you.stock to you.used
  you.coins += 1
}
action gamble(c in you.hand) {
  move c to you.used
  require random([1, 2, 3]) + c.worth > 3 or random([true, false])
  you.coins += c.worth
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.stock
    move top 2 of deck to p.hand
  }
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [draw, gamble]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = checked(&src);
    for record in [false, true] {
        assert!(lockstep_in(&p, "demands", 3, 30, record) >= 100);
    }
    compiles_whole(&p);
    assert_eq!(evaluated(&p, 3, 30), 0, "evaluated by the walker");
}

/// `while` of a condition that draws inside or reads a pile that may refill first, tested before
/// every pass as an `if`'s conditions are. The walker evaluates nothing (before: 5,879
/// expressions, the loops the walker's).
#[test]
fn loops_whose_conditions_draw_or_refill_are_the_closures() {
    let src = hands(
        r#"
game "Streaks" {
  players 3
}
zone stock per player: pile, hidden, refill from used
zone used per player: pile
action dig() {
  let n = 0
  while top of you.stock != none and n < 3 {
    move top of you.stock to you.used
    n += 1
  }
  you.coins += n
}
action push(c in you.hand) {
  move c to you.used
  while random([1, 2, 3]) + c.worth > 3 and you.coins < 20 {
    you.coins += 1
  }
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.stock
    move top 2 of deck to p.hand
  }
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [dig, push]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = checked(&src);
    for record in [false, true] {
        assert!(lockstep_in(&p, "streaks", 3, 30, record) >= 100);
    }
    compiles_whole(&p);
    assert_eq!(evaluated(&p, 3, 30), 0, "evaluated by the walker");
}

/// The space at `(x, y)` (`at`), a word of its own: the zones of a space it names as a `move`'s
/// target, its cards counted and its first card moved, as in Crafty Explorers' setup (before,
/// such a `move` was the walker's whole: 64 expressions over 2 games there). Off the board `at`
/// is `none`: a value closure gives it (`left_off`'s list), a word closure leaves the expression
/// to the walker (the condition of `rest`'s `if` past the board: 21 conditions of 3 nodes).
#[test]
fn spaces_at_a_place_are_the_closures() {
    let src = hands(
        r#"
game "Plots" {
  players 3
}
spaces board: grid 3 by 2
zone plot per space: set
var left_off: list of space = []
action sow(c in you.hand) {
  move c to at(c.worth - 2 * (c.worth / 3), 1 + c.worth / 4).plot
  you.coins += count(at(1, 1).plot) + count(at(2, 2).plot)
}
action reap() if count(at(1, 1).plot) > 0 {
  move first(at(1, 1).plot) to you.hand
  left_off = left_off + [at(you.coins, 2)]
}
action rest() {
  you.coins += 1
  if at(you.coins, 1) == none {
    you.coins -= 1
  }
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
        actions by p once [sow, reap, rest]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    taken_over(&src, "plots", 3, 30, 100, 63);
}
