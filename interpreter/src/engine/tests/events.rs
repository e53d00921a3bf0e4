//! Engine stage: events on the closures against the walker: `emit` of words and of a list, in a
//! segment, inside an inline `if`, loop and call, whose triggers (global and on cards, their
//! conditions compiled, one that asks for a decision) run before the next statement; the games
//! played in lockstep are the walker's, recorded or not.

use super::closures::lockstep_in;
use super::gaps::compiles_whole;
use super::oracle::checked;

#[test]
fn events_emitted_on_the_closures_are_the_walkers() {
    let src = r#"
game "Events" {
  players 3
}
property worth: int = 0
tags sort: Tool, Gem
card "Hammer" {
  copies 2
  worth 2
  is Tool
  on gained(c, p) in kept if p == you and c is Gem {
    you.coins += this.worth
  }
  on passed(p, cs) in kept if count(cs) > 1 {
    you.coins += count(cs)
  }
}
card "Ruby" {
  copies 4
  worth 3
  is Gem
  on gained(c, p) in kept if c != this {
    you.coins += 1
  }
}
card "Quartz" {
  copies 4
  worth 1
  is Gem
}
zone deck: pile, hidden
zone hand per player: set
zone kept per player: set
var coins per player shown: int = 0
var bonus: int = 0
event gained(c: card, p: player)
event passed(p: player, cs: list of card)
event tallied(n: int)
on gained(c, p) if c.worth > 2 {
  bonus += 1
}
on tallied(n) if n > 4 {
  let c = choose c in active.hand by active prompt "Give one back"
  move c to deck
  emit gained(c, active)
}
on tallied(n) {
  bonus += n
}
proc keep(c: card, p: player) {
  move c to p.kept
  emit gained(c, p)
  p.coins += 1
}
action gain_one(c in you.hand) {
  keep(c, you)
  if c is Tool {
    emit passed(you, filter(k in you.kept where k != c))
  }
  for k in you.kept where k.worth == 1 {
    emit gained(k, you)
  }
  emit tallied(count(you.kept))
  you.coins += bonus
}
action hold() {
  emit passed(you, [c for c in you.hand])
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
        actions by p once [gain_one, hold]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    let p = checked(src);
    // Every statement compiles, decisions among them.
    compiles_whole(&p);
    // Every trigger's condition compiles: of words, of a list argument, of `this`.
    let closures = p.closures.clone().expect("closures are built");
    assert_eq!(closures.conditions_compiled(&p), (5, 5));
    assert!(lockstep_in(&p, "events", 3, 12, false) >= 60);
    assert!(lockstep_in(&p, "events", 3, 12, true) >= 60);
}
