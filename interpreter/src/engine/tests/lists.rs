//! Engine stage: lists given to functions' parameters (`cards_text(l: list of card)` given a
//! `filter`, a global's list, a list written out), kept in `Made::lists` by the closures
//! (closures/list_store.rs), against the walker: walked, counted, written in a text, passed on to
//! another function; Craft the Crown's offers on the closures alone while nobody records; `+=` and
//! `-=` of numbers that only value closures give (closures/in_place.rs).

use super::closures::lockstep_in;
use super::oracle::{checked, program};
use super::walked::played;
use crate::program::Program;
use std::sync::Arc;

/// What the walker evaluated of the statements the closures compiled (statements, and parts of a
/// `log` while nobody records), over `games` games on the closures, each choice from the seed.
fn walked(p: &Arc<Program>, players: u8, games: u64, record: bool) -> u64 {
    let counted = played(p, players, games, record);
    counted.iter().map(|c| c.walked + c.parts_walked).sum()
}

/// The expressions the walker evaluated over `walked`'s games while nobody records.
fn evaluated(p: &Arc<Program>, players: u8, games: u64) -> u64 {
    let counted = played(p, players, games, false);
    counted.iter().map(|c| c.evaluated).sum()
}

/// A script of gems ranked 1 to 6 (two of each) in a deck and hands per player: its game header,
/// then these, then the rest of `src`.
fn gems(src: &str) -> String {
    let (header, rest) = src.split_at(src.find("}\n").expect("a header") + 2);
    let cards =
        "property rank: int = 0\ncard \"{r} gem\" for r in 1..6 {\n  copies 2\n  rank r\n}\n";
    let zones = "zone deck: pile, hidden\nzone hand per player: set\n";
    format!("{header}{cards}{zones}{rest}")
}

#[test]
fn lists_given_to_functions_are_the_walkers() {
    let src = r#"
game "Offers" {
  players 3
}
zone offered per player: set
var gold per player shown: int = 0
var wanted: list of kind = []
var marked per card: bool = false
fn cards_text(l: list of card): text = if count(l) == 0 then "" else "{l}"
fn names_text(l: list of kind, q: player): text = if count(l) == 0 then "" else "{l} from {q}'s hand"
fn worth(l: list of card): int = sum(c.rank for c in l)
fn best(l: list of card): int = max(worth([c]) for c in l)
fn both(l: list of card, m: list of card): text = "{cards_text(l)} / {cards_text(m)} ({worth(l) + worth(m)})"
fn high(l: list of card, n: int): list of card = filter(c in l where c.rank >= n)
fn offer_text(p: player): text = cards_text(filter(c in p.hand where c.marked))
action offer(c in you.hand) {
  c.marked = true
  move c to you.offered
  wanted = wanted + [c.kind]
  log "{you} offers {offer_text(you)}, {cards_text(filter(d in you.offered where d.rank > 2))}"
}
action mark(c in you.hand) {
  c.marked = not c.marked
  log "{you} marks {offer_text(you)} worth {worth(filter(d in you.hand where d.marked))}"
  log "{both(filter(d in you.hand where d.marked), high(filter(d in you.offered where d.rank > 1), 3))}"
}
action ask() {
  you.gold += 1
  log "{you} asks {names_text(wanted, you)} {names_text([], you)} {cards_text([])}"
  log "{you} best {best(filter(d in you.offered where true))} of {cards_text(high(filter(d in you.hand where d.rank > 0), 4))}"
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 5 {
    for p in everyone {
      turn p {
        actions by p once [offer, mark, ask]
      }
    }
  }
  win [p for p in everyone where p.gold == max(q.gold for q in everyone)] "most gold"
}
"#;
    let p = checked(&gems(src));
    assert!(lockstep_in(&p, "lists", 3, 20, false) >= 200);
    assert!(lockstep_in(&p, "lists", 3, 20, true) >= 200);
    assert_eq!(walked(&p, 3, 20, false), 0, "walked while nobody records");
}

/// Craft the Crown's offers (`give_text()`, `ask_text()`: a `filter` and a global's list given
/// to functions' lists) in a `log`: on the closures, none of them evaluated by the walker.
#[test]
fn craft_the_crowns_offers_are_on_the_closures() {
    let p = program("games/craft-the-crown.cardgame");
    assert_eq!(walked(&p, 2, 3, false), 0, "walked while nobody records");
}

/// `+=` and `-=` of a number that is not a word closure's (an aggregate of a list made, a
/// function's number of a list made) to a global, a player's, a card's variable and a local: its
/// value by its value closure, then the walker's effect; no expression of the effects evaluated by
/// the walker.
#[test]
fn numbers_added_from_values_are_the_walkers() {
    let src = r#"
game "Gathered" {
  players 3
}
zone kept per player: set
var total: int = 0
var score per player shown: int = 0 min 0 max 40
var worth per card: int = 0
fn ranks(l: list of card): list of int = [c.rank for c in l]
action keep(c in you.hand) {
  move c to you.kept
  let n = 1
  n += count([d.rank for d in you.kept where d.rank > 1])
  total += sum(r for r in ranks(you.kept))
  you.score += n + max(r for r in [d.rank * 2 for d in you.kept]) % 7
  c.worth -= count(ranks(filter(d in you.hand where d.rank < c.rank)))
  log "{you} keeps {c}: {n}, {total}, {c.worth}"
}
action rest() {
  you.score -= count([d for d in you.kept where d.rank > 3])
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 4 of deck to p.hand
  }
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [keep, rest]
      }
    }
  }
  win [p for p in everyone where p.score == max(q.score for q in everyone)] "most"
}
"#;
    let p = checked(&gems(src));
    assert!(lockstep_in(&p, "gathered", 3, 20, false) >= 200);
    assert!(lockstep_in(&p, "gathered", 3, 20, true) >= 200);
    assert_eq!(walked(&p, 3, 20, false), 0, "walked while nobody records");
    assert_eq!(evaluated(&p, 3, 20), 0, "evaluated by the walker");
}
