//! Engine stage: computed properties on the closures (the card as `this`, its owner or the active
//! player as `you`, the functions they call, in a frame above the caller's), and a body of more
//! locals than a frame holds, its slots given back as its blocks end; against the walker.

use super::closures::lockstep_in;
use super::gaps::compiles_whole;
use super::oracle::{checked, config};
use crate::engine::{Engine, Game, Status};
use crate::program::StmtKind;

const SRC: &str = r#"
game "Props" {
  players 2
}
tags clan: Elf, Orc
property power: int = 0
property bonus: int = if this.zone == box then 0 else 1
property ready: bool = false
card "Elf {n}" for n in 1..3 {
  is Elf
  copies 2
  power n
  bonus if others(you, this, Elf) >= 1 then 2 else 0
  ready (this.charge > 1)
}
card "Orc {n}" for n in 1..3 {
  is Orc
  copies 2
  power 2 * n
  bonus min(3, count(c in you.tableau where c is Orc and c != this) + you.coins / 4)
}
card "Stone" {
  copies 3
}
zone deck: pile, hidden
zone hand per player: set, owner
zone tableau per player: set
zone rubble: set
var coins per player shown: int = 0
var charge per card: int = 0
fn others(p: player, c: card, t: tag): int = count(d in p.tableau where d != c and d.clan == t)
fn strength(p: player): int = sum(c.power + c.bonus for c in p.tableau)
action play(c in you.hand) if c.power + c.bonus >= 1 or c.ready {
  move c to you.tableau
  c.charge += 1
  you.coins += c.bonus
}
action rest() {
  for c in you.tableau where c.ready {
    c.charge = 0
    you.coins += 1
  }
}
check {
  if count(rubble) > 0 and sum(c.bonus for c in rubble) > 100 {
    log "never"
  }
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 4 of deck to p.hand
  }
  repeat 5 {
    for p in everyone {
      turn p {
        actions by p once [play, rest]
      }
      let a1 = strength(p)
      let a2 = a1 + 1
      let a3 = a2 + 1
      let a4 = a3 + 1
      let a5 = a4 + 1
      let a6 = a5 + 1
      let a7 = a6 + 1
      let a8 = a7 + 1
      let a9 = a8 + 1
      let a10 = a9 + 1
      let a11 = a10 + 1
      let a12 = a11 + 1
      let a13 = a12 + 1
      let a14 = a13 + 1
      let a15 = a14 + 1
      let a16 = a15 + 1
      let a17 = a16 + 1
      let a18 = a17 + 1
      let a19 = a18 + 1
      let a20 = a19 + 1
      let a21 = a20 + 1
      let a22 = a21 + 1
      let a23 = a22 + 1
      let a24 = a23 + 1
      p.coins += a24 - a1 - 23 + strength(p) / 10
      if count(p.tableau) > 2 {
        let first_card = first(p.tableau)
        move first_card to rubble
        p.coins += first_card.bonus
      }
    }
    for c in rubble {
      let b1 = c.bonus
      let b2 = b1 + strength(seat(1))
      let b3 = b2 + strength(seat(2))
      coins_of(seat(1), b3 - b2 - strength(seat(2)))
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
proc coins_of(p: player, n: int) {
  let n2 = n + 1
  let n3 = n2 + c_of(p)
  p.coins += n3 - n2 - c_of(p) + n
}
fn c_of(p: player): int = count(c in p.tableau where c.bonus > 0)
"#;

#[test]
fn computed_properties_on_the_closures_are_the_walkers() {
    let p = checked(SRC);
    // Every statement compiles, decisions among them, the flow's body of 30 locals among them
    // (its blocks' slots given back as they end) and the reads of computed properties in
    // functions called from it, each in a frame above.
    compiles_whole(&p);
    assert!(p.flow.iter().all(|b| b.slots < 32), "{:?}", p.flow);
    assert!(lockstep_in(&p, "props", 2, 8, false) >= 40);
    assert!(lockstep_in(&p, "props", 2, 8, true) >= 40);
    // The menu reads `c.power + c.bonus` and `c.ready` of every card in hand: the closures list it
    // at every decision, a computed property of every kind answered (none left to the walker).
    let closures = p.closures.clone().expect("closures are built");
    let play = crate::program::ActionId(0);
    assert!(closures.planned(play));
    for seed in 0..4 {
        let mut game = Game::new(p.clone(), config(2, seed, Engine::Closures));
        while let Status::Decision(d) = game.status() {
            let mut out = Vec::new();
            let listed = closures.list_menu(
                &p,
                &game.st,
                &game.layout,
                d.player,
                &[play, crate::program::ActionId(1)],
                &mut out,
            );
            assert!(listed, "seed {seed}: the closures list the menu");
            game.apply(d.options.len() - 1).expect("an option");
        }
    }
}

#[test]
fn a_blocks_slots_are_given_back_when_it_ends() {
    // Locals of blocks that ended share slots with those bound after them; the ones live at
    // once never do (`x` and `y` in the loop's body hold their values across the inner `if`).
    let src = r#"
game "Scopes" { players 2 }
var total: int = 0
flow {
  let a = 1
  if a > 0 {
    let b = 2
    let c = 3
    total += b + c
  }
  for i in 1..3 {
    let x = i
    if x > 1 {
      let z = x * 10
      total += z
    }
    let y = x + 100
    total += x + y
  }
  let d = 4
  total += a + d
  win [seat(1)] "total {total}"
}
"#;
    let p = checked(src);
    let flow = p.flow.as_ref().expect("a flow");
    let block = &p.blocks[flow.block.index()];
    let slot = |i: usize| match block.stmts[i].kind {
        StmtKind::Let(s, _) => s,
        ref k => panic!("{k:?}"),
    };
    // `a` first; the `if`'s `b` and `c` are given back, then the loop's `i` and `x`, the inner
    // `if`'s `z` given back to `y`: `d` takes `b`'s slot, and the frame holds four at most.
    let (a, d) = (slot(0), slot(3));
    assert_eq!((a, d), (0, 1));
    assert_eq!(flow.slots, 4);
    for engine in [Engine::Walker, Engine::Closures] {
        let game = Game::new(p.clone(), config(2, 1, engine));
        match game.status() {
            Status::Over(o) => assert_eq!(o.reason, "total 372", "{engine:?}"),
            s => panic!("{engine:?}: {s:?}"),
        }
    }
}
