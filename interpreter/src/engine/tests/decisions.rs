//! Engine stage: decision statements posed by the closures (closures/decisions.rs), against the
//! walker. Each script is played in lockstep, recorded or not (status, options, labels, events,
//! views at every decision), every statement compiles, and the statements the walker's loop still
//! runs itself (`Counted::statements`) are counted.

use super::closures::lockstep_in;
use super::gaps::compiles_whole;
use super::oracle::{checked, program};
use super::walked::{hands, played};
use crate::program::Program;
use std::sync::Arc;

/// The statements the walker's loop ran itself over `games` games of `p` on the closures,
/// nobody recording.
fn statements(p: &Arc<Program>, players: u8, games: u64) -> u64 {
    (played(p, players, games, false).iter())
        .map(|c| c.statements)
        .sum()
}

/// Plays `p` (3 players) in lockstep, recorded and not, for at least `least` decisions; asserts
/// that every statement compiles, that the walker's loop ran `walked` statements itself over
/// `games` games, and that the walker evaluated `expressions` expressions.
fn posed(p: &Arc<Program>, file: &str, games: u64, least: u64, walked: u64, expressions: u64) {
    let players = 3;
    for record in [false, true] {
        let decisions = lockstep_in(p, file, players, games, record);
        assert!(decisions >= least, "{file}: {decisions} decisions");
    }
    compiles_whole(p);
    assert_eq!(
        statements(p, players, games),
        walked,
        "{file}: statements walked"
    );
    let evaluated: u64 = (played(p, players, games, false).iter())
        .map(|c| c.evaluated)
        .sum();
    assert_eq!(evaluated, expressions, "{file}: evaluated by the walker");
}

/// Every kind of decision, where the closures run it: `choose` of one in an action's `if`, in a
/// procedure run inline (its `Call` frame made where it pauses) and inside `strict` (no candidate:
/// the failure unwinds to it); `choose` of several (`up to`, `order`, none asked where one
/// element is left); branches with conditions inside a `for` loop run inline; `simultaneously`
/// of one and of several; `actions` menus `times N` and `until pass` inside turns. The walker's
/// loop runs the statements that read a choice that had no candidate (`none`, no word): 30
/// statements over 30 games (409 while decisions were the walker's, 60 while each game's first
/// `shuffle` was the walker's). Who decides, the number of a `choose up to N` or `times N` and the
/// branches' conditions are the closures' words, a `simultaneously`'s seats their value, and the
/// candidates and number of its choice of several theirs: the walker evaluates 30 expressions,
/// those statements' (54 where it listed a choice of several's candidates, 256 where it evaluated
/// those parts, 103 where it evaluated the first `shuffle`'s zone and the seats).
#[test]
fn decisions_are_posed_by_the_closures() {
    let src = hands(
        r#"
game "Posed" {
  players 3
}
zone kept per player: set
proc keep_one(p: player): int {
  let c = choose c in p.hand where c.worth > 1 by p prompt "Keep a card of {p}"
  move c to p.kept
  return c.worth
}
action grab(c in you.hand) {
  move c to you.kept
  if c.worth > 2 {
    let d = choose d in deck where d.worth < c.worth by you prompt "Swap for"
    move d to you.hand
    you.coins += d.worth
  }
}
action stash() {
  let n = keep_one(you)
  you.coins += n
  strict {
    let none_left = choose c in you.hand where c.worth > 9 by you
    you.coins += 100
  }
}
action sort() {
  let back = choose order c in you.kept by you prompt "Put back"
  for c in back {
    move c to deck
  }
  let some = choose up to 2 c in deck where c.worth > 3 by you
  you.coins += count(some)
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
        actions by p times 2 [grab, stash, sort]
      }
      choose by p prompt "Bonus?" {
        "coins" if p.coins < 6 { p.coins += 2 }
        "card" if count(deck) > 0 { move top of deck to p.hand }
        "nothing" { log "nothing" }
      }
    }
    simultaneously q in everyone choose c in q.hand where c.worth != 4 prompt "Show one" {
      move c to q.kept
      q.coins += c.worth
    }
    simultaneously q in everyone choose up to 1 c in q.kept prompt "Give back" {
      move c to deck
    }
    for p in everyone {
      turn p {
        actions by p until pass [grab, stash]
        if count(p.hand) == 0 {
          move top 2 of deck to p.hand
        }
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    let p = checked(&src);
    // Release builds raise the runtime error those statements meet (a choice of no candidate read)
    // on the closures, without the walker; debug builds walk them as the oracle.
    let walked = if cfg!(debug_assertions) { 30 } else { 0 };
    posed(&p, "posed", 30, 300, walked, walked);
}

/// Every script of games/ and examples/ (menus in turns, choices of one and of several, branches,
/// simultaneous choices, `stop`): the walker's loop runs no statement. While decisions were the
/// walker's it ran, over the same games: Duel 940, Market Race 319, Secret Bids 180, Sealed Crate
/// 60, Two Piles 199, Signals 210, Heart of Crown 4,156; then each game's first `shuffle` (one a
/// game), and Crayne's `stop` (36). The copies of a card and the board's sides, counted by the
/// players when the game is created, are the closures' (before, the walker evaluated them: Duel
/// 280 expressions, Market Race 40, Secret Bids 100, Crafty Explorers 26). The walker evaluates
/// no expression: before, Crafty Explorers' setup `move`s to a space's zone named by `at(n, 1)`
/// were its whole (64 expressions), and Crayne's `for c in p.inplay where c is Choice and c.mode
/// == 0` its filter for the items after a pause (14).
#[test]
fn scripts_decisions_are_posed_by_the_closures() {
    for (file, players, games, least, evaluated) in [
        ("examples/duel.cardgame", 2, 20, 1_000, 0),
        ("examples/market-race.cardgame", 3, 10, 500, 0),
        ("examples/secret-bids.cardgame", 3, 20, 250, 0),
        ("examples/sealed-crate.cardgame", 2, 20, 20, 0),
        ("examples/two-piles.cardgame", 2, 20, 100, 0),
        ("examples/signals.cardgame", 2, 20, 100, 0),
        ("examples/forehead.cardgame", 3, 20, 300, 0),
        ("examples/monty-hall.cardgame", 2, 20, 40, 0),
        ("games/heart-of-crown.cardgame", 2, 2, 3_000, 0),
        ("games/craft-the-crown.cardgame", 2, 2, 1_000, 0),
        ("games/crafty-explorers.cardgame", 4, 2, 100, 0),
        ("games/crayne.cardgame", 3, 2, 400, 0),
    ] {
        let p = program(file);
        for record in [false, true] {
            let decisions = lockstep_in(&p, file, players, games, record);
            assert!(decisions >= least, "{file}: {decisions} decisions");
        }
        assert_eq!(
            statements(&p, players, games),
            0,
            "{file}: statements walked"
        );
        let walked: u64 = (played(&p, players, games, false).iter())
            .map(|c| c.evaluated)
            .sum();
        assert_eq!(walked, evaluated, "{file}: evaluated by the walker");
    }
}
