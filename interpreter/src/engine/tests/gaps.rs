//! Engine stage: what the closures took over from the walker, against it: a `simultaneously`'s
//! body (its seat and answer typed) and each seat's candidates (a list walked, a list made), a
//! range walked and a zone's card by its place (`deck[k]`), the cards a `choose any` gave looped
//! over, the first of a filter of a local list typed, a player's variable holding a list
//! walked and looped over, an action's parameter over two zones joined or either of two, a global
//! list joined with a list written out; the games played in lockstep are the walker's, recorded or
//! not.

use super::closures::lockstep_in;
use super::oracle::{checked, config};
use crate::engine::{Engine, Game, Status};
use crate::program::{Program, StmtKind};

/// Asserts that every statement of `p` compiles, decisions among them (closures/decisions.rs).
pub(super) fn compiles_whole(p: &Program) {
    let closures = p.closures.clone().expect("closures are built");
    for (i, b) in p.blocks.iter().enumerate() {
        let (compiled, all) = closures.compiled_in(crate::program::BlockId(i as u16));
        assert_eq!(compiled, all, "block {i}: {:?}", b.stmts);
    }
}

#[test]
fn the_walkers_gaps_on_the_closures_are_the_walkers() {
    let src = r#"
game "Gaps" {
  players 3
  option wide: bool = true "Keep from the shown cards too"
}
property rank: int = 0
card "{r} gem" for r in 1..8 {
  rank r
}
zone deck: pile, hidden
zone hand per player: set, hidden
zone shown per player: set
zone kept per player: set
var fresh per player: list of card = []
var picked: list of card = []
var coins per player shown: int = 0
fn slot_of(c: card): int = max(k for k in 1..count(deck) where deck[k] == c)
fn right_of(c: card): list of card = filter(d in deck where not (d in take(deck, slot_of(c))))
action keep(c in if wide then you.hand + you.shown else you.hand) if c.rank > 1 {
  if c.zone == you.hand {
    move c to you.kept
  }
  picked = picked + [c]
  you.coins += c.rank
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 3 of deck to p.hand
  }
  repeat 2 {
    simultaneously q in everyone choose c in q.hand where c.rank != 4 {
      move c to q.shown face down
      q.fresh = [c]
      q.coins += c.rank
    }
    simultaneously q in everyone choose n in [c.rank for c in q.hand] where n != 2 {
      q.coins += n
    }
    for q in everyone {
      if count(deck) > 2 {
        let after = right_of(deck[2])
        q.coins += count(after)
      }
      reveal q.fresh
      q.coins += count(q.fresh) + sum(c.rank for c in q.fresh)
      for c in q.fresh where c.zone == q.shown {
        log "{q} shows {c}"
      }
      turn q {
        actions by q once [keep]
      }
    }
  }
  for q in everyone {
    let back = choose any c in q.kept by q prompt "Give back"
    for c in back {
      q.coins -= c.rank
      move c to q.hand
    }
  }
  let waiting = filter(q in everyone where q.coins > 0)
  while count(waiting) > 0 {
    let best = max(q.coins for q in waiting)
    let taker = first(filter(q in waiting where q.coins == best))
    taker.coins += 1
    waiting = filter(q in waiting where q != taker)
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    let p = checked(src);
    let closures = p.closures.clone().expect("closures are built");
    // Every block but those of the flow's statements the walker keeps (decisions, turns, a
    // shuffle, `win`) compiles whole: the bodies of the action, the `simultaneously`, the loops.
    let mut whole = 0;
    for (i, b) in p.blocks.iter().enumerate() {
        let walkers = b.stmts.iter().any(|st| {
            matches!(
                st.kind,
                StmtKind::Actions { .. }
                    | StmtKind::Choose(..)
                    | StmtKind::Simultaneously { .. }
                    | StmtKind::Turn(..)
                    | StmtKind::Shuffle(_)
                    | StmtKind::Win(..)
            )
        });
        let (compiled, all) = closures.compiled_in(crate::program::BlockId(i as u16));
        if !walkers {
            assert_eq!(compiled, all, "block {i} compiles whole");
            whole += 1;
        }
    }
    assert!(whole >= 5, "{whole} blocks");
    assert!(lockstep_in(&p, "gaps", 3, 8, false) >= 20);
    assert!(lockstep_in(&p, "gaps", 3, 8, true) >= 20);
    // Each seat's candidates of both `simultaneously`s are the closures' (choices.rs).
    let mut game = Game::new(p.clone(), config(3, 1, Engine::Closures));
    while let Status::Decision(_) = game.status() {
        game.apply(0).expect("an option");
    }
    assert!(game.counted().values >= 12, "{:?}", game.counted());
}

#[test]
fn locals_the_walker_gives_and_participants_variables_on_the_closures_are_the_walkers() {
    // `f` and `pool` are given by statements the walker runs (`random`, a list written out), `k`
    // is an item of a card's list of kinds, `bank` a participant, `c` the last of a pile's cards,
    // `this` the card whose ability runs (`perform ... as this` too), `skip` a parameter given
    // `none` compared, the first of `cards(k, L)`, a procedure given `none` or a list, cards chosen
    // from a function's `flatten`: the statements that read them compile. The piles a `let` reads
    // refill first (`stock` from `used_pile`). The games agree with the walker's.
    let src = r#"
game "Locals" {
  players 2
}
tags colour: Red, Blue, Green, Black
property worth: int = 0
property needs: kinds
card "Ore" {
  worth 2
}
card "Gem" {
  worth 3
}
card "Ring" {
  worth 5
  needs ["Ore", "Gem", "Ore"]
}
abilities shine
card "Crown" {
  copies 2
  worth 7
  ability shine {
    this.polish += 1
    you.coins += this.polish
  }
}
card "Mirror" {
  ability shine {
    let other = first(cards("Crown", deck))
    if other != none {
      perform shine of other as this
    }
  }
}
participant bank "the Bank"
zone deck: pile, hidden
zone stock per player: pile, hidden, refill from used_pile
zone used_pile per player: pile
zone hand per player: set
zone pouch per card: set
var used: list of tag = []
var coins per player shown: int = 0
var polish per card: int = 0
fn pouched(p: player): list of card = flatten(h.pouch for h in p.hand)
action stash() {
  for h in you.hand {
    if count(deck) > 4 {
      move top of deck to h.pouch
    }
  }
  let spilled = choose any x in pouched(you) by you prompt "Spill?"
  for x in spilled {
    move x to deck
  }
}
action draw() {
  let t = top of you.stock
  if t != none {
    move t to you.used_pile
    you.coins += 1
  }
  let cs = top 2 of you.stock
  let c = last(cs)
  if count(cs) == 2 and (c is "Crown" or c is "Mirror") {
    perform shine of c
  }
}
proc lay(c: card, skip: kind) {
  for k in c.needs {
    if k == skip {
      you.coins += 2
    } else {
      let f = first(cards(k, you.hand))
      if f != none and f != c {
        move f to deck
      }
    }
  }
}
proc give_back(cs: list of card) {
  for c in cs {
    move c to deck
    bank.coins += 1
  }
}
action spend(c in you.hand) {
  lay(c, none)
  give_back(filter(x in you.hand where x is "Gem" and x != c))
  let skipped = false
  for k in c.needs {
    if k == "Ore" and not skipped {
      skipped = true
    } else {
      you.coins += 1
    }
  }
  bank.coins -= c.worth
  move c to deck
}
flow {
  move box to deck
  shuffle deck
  bank.coins = 40
  let pool = [Red, Blue, Green, Black]
  repeat 3 {
    let f = random(pool)
    used = used + [f]
    pool = filter(t in pool where t != f)
    let first_left = first(pool)
    if first_left == Black {
      bank.coins += 1
    }
  }
  for p in everyone {
    move top 3 of deck to p.hand
    move top 2 of deck to p.stock
  }
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [spend, draw, stash]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    let p = checked(src);
    // Every statement compiles, decisions among them, `random` drawn in place.
    compiles_whole(&p);
    assert!(lockstep_in(&p, "locals", 2, 8, false) >= 8);
    assert!(lockstep_in(&p, "locals", 2, 8, true) >= 8);
}

#[test]
fn words_that_may_be_none_on_the_closures_are_the_walkers() {
    // A card read where it may be `none`: a procedure given the top card of an empty pile (the
    // last argument, its pile refilled first: `you.stock` from `you.used`), a `move` of a local
    // given `none` (it fails), a `let` of an empty pile's top card or of `first` of no cards. The
    // closures answer each by the value closure; the games agree with the walker's.
    let src = r#"
game "Nones" {
  players 2
}
property worth: int = 0
card "Curse" {
  copies 3
  worth -1
}
card "Idol" {
  worth 4
}
card "Coin" {
  copies 6
  worth 1
}
zone curse_pile: pile
zone deck: pile, hidden
zone stock per player: pile, hidden, refill from used
zone used per player: pile
zone hand per player: set
var coins per player shown: int = 0
proc acquire(p: player, c: card) {
  move c to p.used
  log "{p} acquires {c}"
}
proc gain(n: int, p: player, c: card) {
  p.coins += n
  move c to p.hand
}
action curse(q in opponents(you)) {
  acquire(q, top of curse_pile)
  you.coins += 1
}
action draw() {
  gain(1, you, top of you.stock)
}
action look() {
  let k = top of curse_pile
  if k == none {
    you.coins += 2
  }
  let idol = first(cards("Idol", you.hand))
  if idol != none {
    move idol to deck
    you.coins += 3
  } else {
    you.coins -= 1
  }
}
flow {
  move box to deck
  move cards("Curse", deck) to curse_pile
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.stock
  }
  repeat 6 {
    for p in everyone {
      turn p {
        actions by p once [curse, draw, look]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    let p = checked(src);
    // Every statement compiles, decisions among them.
    compiles_whole(&p);
    assert!(lockstep_in(&p, "nones", 2, 12, false) >= 12);
    assert!(lockstep_in(&p, "nones", 2, 12, true) >= 12);
    // Always `curse`: after three, the pile is empty, and the value closures read each `none`
    // given and moved (twice per turn); the `log`'s parts are the other 9 values.
    let mut game = Game::new(p.clone(), config(2, 3, Engine::Closures));
    while let Status::Decision(_) = game.status() {
        game.apply(0).expect("an option");
    }
    assert!(game.counted().values >= 9 + 18, "{:?}", game.counted());
}

/// The `choose`s whose candidates the closures list (choices.rs): every one of every script of
/// games/ and examples/ (a domain or filter that does not compile is listed by the walker).
#[test]
fn every_scripts_choose_domains_compile() {
    for file in [
        "examples/duel.cardgame",
        "examples/market-race.cardgame",
        "examples/monty-hall.cardgame",
        "examples/secret-bids.cardgame",
        "games/craft-the-crown.cardgame",
        "games/crafty-explorers.cardgame",
        "games/crayne.cardgame",
        "games/heart-of-crown.cardgame",
    ] {
        let p = super::oracle::program(file);
        let closures = p.closures.clone().expect("closures are built");
        let (compiled, all) = closures.choices_compiled(&p);
        assert!(all > 0, "{file} has a `choose`");
        assert_eq!(compiled, all, "{file}: `choose`s compiled");
    }
}

/// A function's value or `first` of a list compared with `none` (`lead(p) == none` of an empty
/// hand) is `none` where the value closure says so: the script's measure of every seat, at every
/// decision of games played in lockstep with the walker, is the walker's and the walker evaluates
/// none of it (it evaluated every measure of a seat with an empty hand before).
#[test]
fn a_functions_none_compared_with_none_is_the_closures() {
    let src = r#"
game "Leads" {
  players 2
}
property worth: int = 0
card "{r} gem" for r in 1..6 {
  worth r
}
zone deck: pile
zone hand per player: set
var coins per player shown: int = 0
fn lead(p: player): card = first(p.hand)
fn heuristic(p: player): int =
  if lead(p) == none then 0 - p.coins else if first(p.hand) != none then lead(p).worth + p.coins else 0
action draw() {
  move top of deck to you.hand
}
action spend(c in you.hand) {
  move c to deck
  you.coins += c.worth
}
flow {
  move box to deck
  shuffle deck
  repeat 8 {
    for p in everyone {
      turn p {
        actions by p once [draw, spend]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    let p = checked(src);
    let (mut seats, mut evaluated) = (0, 0);
    for seed in 0..6 {
        let mut g = Game::new(p.clone(), config(2, seed, Engine::Closures));
        let mut w = Game::new(p.clone(), config(2, seed, Engine::Walker));
        for step in 0..40u64 {
            let Status::Decision(d) = g.status() else {
                break;
            };
            let n = d.options.len() as u64;
            for seat in 0..2 {
                let before = g.counted().evaluated;
                let score = g.script_score_here(seat);
                evaluated += g.counted().evaluated - before;
                assert_eq!(score, w.script_score_here(seat), "seed {seed}, seat {seat}");
                seats += 1;
            }
            let i = ((seed + step) % n) as usize;
            g.apply(i).expect("an option");
            w.apply(i).expect("an option");
        }
    }
    assert!(seats >= 100, "{seats} seats measured");
    assert_eq!(evaluated, 0, "evaluated by the walker");
}

#[test]
fn the_top_card_of_an_empty_pile_without_refill_is_none_on_the_closures() {
    // Doors of one card each, one left empty: the top card of an empty pile that cannot refill is
    // `none` (shown, revealed, tested for a kind or a tag, filtered on), as the walker reads it;
    // the games agree with the walker's, and the closures answer every read.
    let src = r#"
game "Doors" {
  players 2
}
tags look: Shiny
card "Car" {
  is Shiny
}
card "Goat" {
  copies 2
}
zone door1: pile, hidden
zone door2: pile, hidden
zone door3: pile, hidden
var found per player shown: int = 0
fn door(n: int): zone = if n == 1 then door1 else if n == 2 then door2 else door3
action open(n in [1, 2, 3]) label "Open {n}" if not (top of door(n) is "Goat") {
  show top of door(n) to you
  reveal top of door(n)
  if top of door(n) is "Car" {
    you.found += 2
  }
  if top of door(n) is Shiny {
    you.found += 1
  }
  if top of door(n) is not "Car" {
    you.found += 10
  }
  move top of door(n) to box
}
flow {
  move cards("Car", box) to door1
  move cards("Goat", box) to door2
  repeat 3 {
    for p in everyone {
      turn p {
        actions by p once [open]
      }
    }
  }
  win [p for p in everyone where p.found == max(q.found for q in everyone)] "most found"
}
"#;
    let p = checked(src);
    compiles_whole(&p);
    assert!(lockstep_in(&p, "doors", 2, 8, false) >= 8);
    assert!(lockstep_in(&p, "doors", 2, 8, true) >= 8);
    // Always the last option: the empty door, once the others are open.
    walks_nothing(&p, |_, n| n - 1);
}

#[test]
fn an_if_whose_branch_may_be_none_is_a_value_on_the_closures() {
    // `seat(9)` of two players and `first` of no cards are `none`: an `if` of such a branch is
    // read as a value, kept in a local and compared, as the walker reads it.
    let src = r#"
game "Branches" {
  players 2
}
card "Coin" {
  copies 4
}
zone hand per player: set
var met per player shown: int = 0
action look(n in [1, 2, 3]) {
  let merchant = if n == 1 then seat(9) else seat(n - 1)
  if merchant == none {
    you.met += 5
  } else {
    merchant.met += 1
  }
  let coin = if n == 3 then first(you.hand) else first(cards("Coin", box))
  if coin != none {
    move coin to you.hand
  }
}
flow {
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [look]
      }
    }
  }
  win [p for p in everyone where p.met == max(q.met for q in everyone)] "most met"
}
"#;
    let p = checked(src);
    compiles_whole(&p);
    assert!(lockstep_in(&p, "branches", 2, 8, false) >= 8);
    walks_nothing(&p, |k, n| k % n);
}

/// Games of two players of `p` on the closures, seeds 0 to 7, the option `pick(k, n)` taken at
/// the k-th decision (from the seed) of n options: the walker runs no statement and evaluates no
/// expression.
fn walks_nothing(p: &std::sync::Arc<Program>, pick: fn(usize, usize) -> usize) {
    for seed in 0..8 {
        let mut game = Game::new(p.clone(), config(2, seed, Engine::Closures));
        let mut k = seed as usize;
        while let Status::Decision(d) = game.status() {
            k += 1;
            game.apply(pick(k, d.options.len())).expect("an option");
        }
        let counted = game.counted();
        assert_eq!(
            (counted.walked, counted.statements, counted.evaluated),
            (0, 0, 0),
            "seed {seed}: {counted:?}"
        );
    }
}
