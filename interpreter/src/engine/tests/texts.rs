//! Engine stage: texts built by the closures (engine/closures/texts.rs) against the walker, their
//! oracle: options' labels that read variables, calls and cards the decider may not see, prompts
//! that read locals, texts of `log`, `log to` and `win`, a text a function gives; the games played
//! in lockstep are the walker's, recorded or not.

use super::closures::lockstep_in;
use super::oracle::config;
use crate::engine::{Engine, Game, Status};

#[test]
fn texts_on_the_closures_are_the_walkers() {
    let src = r#"
game "Texts" {
  players 2
}
property rank: int = 0
card "{r} gem" for r in 1..6 {
  rank r
}
zone deck: pile, hidden
zone hand per player: set, hidden
zone shown: set
var coins per player shown: int = 0
fn worth(p: player): int = p.coins + count(p.hand)
fn named(p: player): text = if worth(p) > 3 then "{p} the rich ({worth(p)})" else "{p}"
action grab(c in active.hand) label "Take {c} ({c.rank}) for {named(you)}, {opponents(you)}" {
  move c to shown
  you.coins += c.rank
}
action rest label "Pass with {you.coins} coins" {
  log "{you} passes, worth {worth(you)}"
}
action peek(c in opponents(you)) label "Peek at {c}: {count(c.hand)} cards" {
  log "{you} peeks" to you
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
        let top_card = top of deck
        let n = choose n in 1..3 by p prompt "{p}: how many, with {top_card} on top and {worth(p)}?"
        p.coins += n
        actions by p once [grab, rest, peek]
        choose by p prompt "{named(p)}, again?" {
          "yes, {p}" { p.coins += 1 }
          "no" { log "{named(p)} stops at {p.coins}" }
        }
      }
    }
  }
  win [p for p in everyone where worth(p) == max(worth(q) for q in everyone)] "{named(active)} ends it"
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(
        (checked.program).unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics)),
    );
    assert!(lockstep_in(&p, "texts", 2, 6, false) >= 30);
    assert!(lockstep_in(&p, "texts", 2, 6, true) >= 30);
    let mut game = Game::new(p.clone(), config(2, 1, Engine::Closures));
    game.set_recording(true);
    while let Status::Decision(_) = game.status() {
        game.apply(0).expect("an option");
    }
    assert!(game.counted().texts >= 20, "{:?}", game.counted());
}

/// Functions of text parameters (`join_terms(a: text, b: text)`, as Craft the Crown writes its
/// offers), called or copied into their calls (texts given to a `let` the checker made), texts
/// compared, in the parts of a `log`: on the closures, none evaluated by the walker.
#[test]
fn texts_given_to_functions_are_the_walkers() {
    let src = r#"
game "Offers" {
  players 3
}
property rank: int = 0
card "{r} gem" for r in 1..6 {
  copies 2
  rank r
}
zone deck: pile, hidden
zone hand per player: set
zone offered per player: set
var gold per player shown: int = 0
fn cards_text(n: int): text = if n == 0 then "" else "{n} cards"
fn gold_text(n: int): text = if n <= 0 then "" else "{n} Gold"
fn join_terms(a: text, b: text): text = if a == "" then b else if b == "" then a else "{a} and {b}"
fn or_nothing(t: text): text = if t == "" then "nothing" else t
fn offer_text(p: player): text = or_nothing(join_terms(cards_text(count(p.offered)), gold_text(p.gold)))
action offer(c in you.hand) {
  move c to you.offered
  log "{you} offers {offer_text(you)}"
}
action bid() {
  you.gold += 1
  log "{you} offers {or_nothing(gold_text(you.gold - 2))} to {join_terms("them", "")}"
  log "{you} {late_join(gold_text(you.gold), "bids")}"
}
action withdraw() {
  move you.offered to you.hand
  you.gold = 0
  log "{you} withdraws, {offer_text(you)} left"
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 6 {
    for p in everyone {
      turn p {
        actions by p once [offer, bid, withdraw]
      }
    }
  }
  win [p for p in everyone where p.gold == max(q.gold for q in everyone)] "most gold"
}
// Declared after its calls: called, not copied into them.
fn late_join(a: text, b: text): text = if a == "" then b else if a != b then "{a}, {b}" else a
"#;
    let p = super::oracle::checked(src);
    assert!(lockstep_in(&p, "offers", 3, 20, false) >= 200);
    assert!(lockstep_in(&p, "offers", 3, 20, true) >= 200);
    for seed in 0..20 {
        let mut c = config(3, seed, Engine::Closures);
        c.record = false;
        let mut game = Game::new(p.clone(), c);
        let mut i = seed as usize;
        while let Status::Decision(d) = game.status() {
            i = (i * 7 + 3) % d.options.len();
            game.apply(i).expect("an option");
        }
        assert_eq!(game.counted().parts_walked, 0, "seed {seed}");
    }
}
