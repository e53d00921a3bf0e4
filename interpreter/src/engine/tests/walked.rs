//! Engine stage: statements the closures compiled and once left to the walker at run time, against
//! the walker: the top or bottom card of a pile that may be empty moved (its refill drawing in
//! place, a failed move caught by `strict`); each script played in lockstep, recorded or not, and
//! on the closures alone with no statement they compiled left to the walker (`Counted::walked`).

use super::closures::{lockstep_configured, lockstep_in};
use super::gaps::compiles_whole;
use super::oracle::{checked, config, play_out};
use crate::engine::probe::Counted;
use crate::engine::{Engine, Game, Status};
use crate::program::Program;
use std::sync::Arc;

/// The cards and the deck of most scripts below: coins worth 1 to 6, two of each.
const COINS: &str = r#"
property worth: int = 0
card "Coin {n}" for n in 1..6 {
  copies 2
  worth n
}
zone deck: pile, hidden
"#;

/// The statements the closures compiled that the walker ran, over `played`'s games.
fn walked(p: &Arc<Program>, players: u8, games: u64, record: bool) -> u64 {
    let counted = played(p, players, games, record);
    counted.iter().map(|c| c.walked).sum()
}

/// What the shortcuts of each of `games` games of `players` on the closures did, events recorded
/// or not (`sim` records none), each choice drawn from the seed.
pub(super) fn played(p: &Arc<Program>, players: u8, games: u64, record: bool) -> Vec<Counted> {
    let mut counted = Vec::new();
    for seed in 0..games {
        let mut c = config(players, seed, Engine::Closures);
        c.record = record;
        let mut g = Game::new(p.clone(), c);
        play_out(&mut g, seed);
        counted.push(g.counted());
    }
    counted
}

/// Plays `p` in lockstep, recorded and not, and on the closures alone: none of the statements
/// they compiled is left to the walker.
fn on_the_closures_alone(p: &Arc<Program>, file: &str, players: u8, games: u64, least: u64) {
    for record in [false, true] {
        let decisions = lockstep_in(p, file, players, games, record);
        assert!(decisions >= least, "{file}: {decisions} decisions");
        let walked = walked(p, players, games, record);
        assert_eq!(walked, 0, "{file}, recorded {record}: statements walked");
    }
}

/// Checks `src`, asserts that every statement compiles, decisions among them, and plays it as
/// `on_the_closures_alone` does.
pub(super) fn compiled_whole(
    src: &str,
    file: &str,
    players: u8,
    games: u64,
    least: u64,
) -> Arc<Program> {
    let p = checked(src);
    compiles_whole(&p);
    on_the_closures_alone(&p, file, players, games, least);
    p
}

#[test]
fn a_piles_card_moved_from_an_empty_pile_is_the_walkers() {
    // The deck runs out: its top card is drawn from the refill (shuffled in, a draw inside the
    // segment), the target read after it (it reads the deck), and with both empty the move of
    // `none` fails, on its own or caught by `strict`.
    let src = r#"
game "Draws" {
  players 3
}
property worth: int = 0
card "Coin {n}" for n in 1..5 {
  worth n
}
zone deck: pile, hidden, refill from discard
zone discard: pile
zone hand per player: set
zone spare per player: set
var coins per player shown: int = 0
var fails: int = 0
action draw() {
  move top of deck to if count(deck) > 2 then you.hand else you.spare
  coins_of(you)
}
action dig() {
  strict {
    move bottom of deck to you.spare
    you.coins += 1
  }
  fails += 1
}
action toss(c in you.hand + you.spare) {
  move c to discard
}
proc coins_of(p: player) {
  p.coins += sum(c.worth for c in p.hand)
}
flow {
  move box to deck
  shuffle deck
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [draw, dig, toss]
        move top of deck to p.hand
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;
    let p = checked(src);
    on_the_closures_alone(&p, "draws", 3, 30, 200);
}

#[test]
fn wins_on_the_closures_are_the_walkers() {
    // `win team` and `win` of a list, of players, in a segment, an inline `if`, a procedure run
    // inline, a check, a trigger; their reasons built of values.
    let src = r#"
game "Wins" {
  players 3
  teams by side
}
property worth: int = 0
card "Coin {n}" for n in 1..6 {
  copies 3
  worth n
}
zone deck: pile, hidden
zone hand per player: set
zone kept per player: set
var side per player: int = 1
var coins per player shown: int = 0
var ends: int = 0
event kept_one(p: player)
on kept_one(p) if p.coins > 18 {
  win [p] "{p} kept {p.coins} coins"
}
action keep(c in you.hand) {
  move c to you.kept
  you.coins += c.worth
  emit kept_one(you)
  if you.coins > 11 and ends == 1 {
    win team you.side "team {you.side} reached {you.coins}"
  }
  close_when(you)
}
action pass_on() {
  ends += 1
}
proc close_when(p: player) {
  if count(p.kept) > 3 {
    win filter(q in everyone where q.coins >= p.coins) "{count(p.kept)} kept"
  }
}
check {
  if ends > 4 {
    win team 1 "{ends} passes"
  }
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    p.side = if p == seat(2) then 2 else 1
    move top 2 of deck to p.hand
  }
  repeat 9 {
    for p in everyone {
      turn p {
        move top of deck to p.hand
        actions by p once [keep, pass_on]
      }
      if count(deck) == 0 {
        win team 2 "the deck ran out with {ends} passes"
      }
    }
  }
  win [] "nobody after {ends} passes"
}
"#;
    compiled_whole(src, "wins", 3, 40, 200);
}

#[test]
fn an_empty_maximum_and_a_list_of_lists_flattened_are_the_walkers() {
    // `max` and `min` of no items are 0 (a player without a card of the trade), and a local
    // given `flatten` of lists of cards (not zones) is a list of cards the closures read.
    let src = r#"
game "Shops" {
  players 3
}
tags trade: Wheel, Hammer, Arrow
property worth: int = 0
card "Wheel {n}" for n in 1..3 {
  is Wheel
  worth n
}
card "Hammer {n}" for n in 1..3 {
  is Hammer
  worth n
}
card "Arrow {n}" for n in 1..3 {
  is Arrow
  worth n
}
zone deck: pile, hidden
zone hand per player: set
zone shop per player: set
var score per player shown: int = 0
fn biggest(p: player, t: tag): int = max(c.worth for c in p.shop where c.trade == t)
fn least(p: player, t: tag): int = min(count(d in p.shop where d.worth <= c.worth) for c in p.shop where c.trade == t)
action put(c in you.hand) {
  move c to you.shop
}
action pass_on() {
  you.score += 1
}
proc scoring() {
  for t in [Wheel, Hammer, Arrow] {
    let most = max(biggest(p, t) for p in everyone)
    let leaders = filter(p in everyone where biggest(p, t) == most)
    let low = min(least(p, t) for p in leaders)
    if most > 0 {
      for p in leaders {
        p.score += most + low
      }
    }
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
        actions by p once [put, pass_on]
      }
    }
  }
  scoring()
  for p in everyone {
    let spent = flatten(filter(c in q.shop where c.worth > 1) for q in opponents(p))
    if count(spent) > 0 {
      p.score += count(spent) + sum(c.worth for c in spent)
      let c = choose c in spent by p prompt "Take one"
      move c to p.hand
    }
  }
  win [p for p in everyone where p.score == max(q.score for q in everyone)] "most points"
}
"#;
    compiled_whole(src, "shops", 3, 40, 200);
}

#[test]
fn shuffles_on_the_closures_are_the_walkers() {
    // `shuffle` in the setup's segment (the game's first draw, the walker's at a step of its own
    // where a factory's games start, then one compiled), in an inline `if`, a procedure run inline
    // and an action, recorded or not.
    let src = &[
        r#"game "Shuffles" { players 3 }"#,
        COINS,
        r#"
zone spare: pile, hidden
zone hand per player: set
var coins per player shown: int = 0
setup {
  move box to deck
  shuffle deck
  move top 4 of deck to spare
  shuffle spare
  log "{count(deck)} in the deck"
}
proc mix(p: player) {
  move p.hand to spare
  shuffle spare
  move top of spare to p.hand
}
action draw() {
  move top of deck to you.hand
  if count(deck) % 2 == 0 {
    shuffle deck
    you.coins += 1
  }
}
action swap() {
  mix(you)
  you.coins += sum(c.worth for c in you.hand)
}
flow {
  repeat 4 {
    for p in everyone {
      turn p {
        actions by p once [draw, swap]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    ]
    .concat();
    let p = compiled_whole(src, "shuffles", 3, 30, 200);
    let f = crate::engine::GameFactory::new(p.clone(), config(3, 1, Engine::Closures));
    assert!(f.starts_at_first_draw());
    for seed in [5, 6, 7] {
        let mut made = f.game(seed);
        let mut created = Game::new(p.clone(), config(3, seed, Engine::Closures));
        assert_eq!(
            super::oracle::observed(&mut made),
            super::oracle::observed(&mut created),
            "seed {seed}: the factory's game"
        );
    }
}

#[test]
fn a_log_of_texts_while_nobody_records_is_the_walkers() {
    // The parts of a `log` that are texts (functions giving texts, of texts) count by their
    // length: the walker builds the whole text only while events are recorded.
    let src = &[
        r#"game "Offers" { players 3 }"#,
        COINS,
        r#"
zone hand per player: set
zone offer per player: set
var coins per player shown: int = 0
fn or_nothing(t: text): text = if t == "" then "nothing" else t
fn cards_text(l: list of card): text = if count(l) == 0 then "" else "{l}"
fn offer_text(p: player): text = or_nothing(cards_text(filter(c in p.offer where c.worth > 2)))
fn coins_text(n: int): text = if n <= 0 then "" else "{n} coins"
action give(c in you.hand) {
  move c to you.offer
  log "{you} offers {offer_text(you)} and {or_nothing(coins_text(you.coins))}"
  you.coins += c.worth
}
action pass_on() {
  you.coins += 1
  log "{you} passes with {coins_text(you.coins)}"
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
        actions by p once [give, pass_on]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    ]
    .concat();
    compiled_whole(src, "offers", 3, 30, 200);
}

/// Phases in turns (one ended by `end phase` in an action, one that wins), in a procedure run
/// inline whose `return` leaves its phase.
const PHASES: &str = r#"
zone hand per player: set
zone kept per player: set
var coins per player shown: int = 0
var rounds: int = 0
action keep(c in you.hand) {
  move c to you.kept
  you.coins += c.worth
}
action stop_here() {
  you.coins += 2
  end phase
}
action rest() {
  you.coins += 1
}
proc tally(p: player): int {
  phase counting {
    if p.coins > 6 {
      return p.coins / 2
    }
    p.coins += 1
  }
  return 0
}
flow {
  move box to deck
  shuffle deck
  repeat 3 {
    rounds += 1
    for p in everyone {
      turn p {
        phase draw {
          move top 2 of deck to p.hand
          log "{p} draws"
        }
        phase main {
          actions by p once [keep, stop_here, rest]
          p.coins += 1
        }
        phase score {
          let t = tally(p)
          p.coins += t + 100 / (40 - p.coins)
          if p.coins > 30 {
            win [p] "{p} is rich"
          }
        }
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;

#[test]
fn phases_on_the_closures_are_the_walkers() {
    let src = [r#"game "Phases" { players 2 }"#, COINS, PHASES].concat();
    let p = checked(&src);
    // Every `phase` compiles (`end phase` is the walker's).
    let mut phases = 0;
    for (b, block) in p.blocks.iter().enumerate() {
        for (i, st) in block.stmts.iter().enumerate() {
            if let crate::program::StmtKind::Phase(..) = st.kind {
                let at = crate::program::BlockId(b as u16);
                assert!(super::super::closures::segment(&p, at, i as u32).is_some());
                phases += 1;
            }
        }
    }
    assert_eq!(phases, 4);
    on_the_closures_alone(&p, "phases", 2, 30, 100);
    // An error inside a phase names it, as the walker's.
    let failing = checked(&src.replace("100 / (40 - p.coins)", "100 / (rounds - 2)"));
    assert!(lockstep_in(&failing, "failing phases", 2, 12, false) >= 12);
    let game = Game::new(failing.clone(), config(2, 3, Engine::Closures));
    let mut g = game;
    while let Status::Decision(_) = g.status() {
        g.apply(0).expect("an option");
    }
    match g.status() {
        Status::Error(e) => assert!(format!("{e:?}").contains("phase score"), "{e:?}"),
        s => panic!("{s:?}"),
    }
}

/// A script of coins worth 1 to 5 (two of each) in a deck, hands and coins per player: its game
/// header, then these, then the rest of `src`.
pub(super) fn hands(src: &str) -> String {
    let (header, rest) = src.split_at(src.find("}\n").expect("a header") + 2);
    let cards =
        "property worth: int = 0\ncard \"Coin {n}\" for n in 1..5 {\n  copies 2\n  worth n\n}\n";
    let zones =
        "zone deck: pile, hidden\nzone hand per player: set\nvar coins per player shown: int = 0\n";
    format!("{header}{cards}{zones}{rest}")
}

/// Turns: of seats in a `for`, one eliminated (no turn), with triggers on a turn's start and end
/// (only in the second script), a check that wins at a turn's end, `end turn` in an action, and a
/// turn in a procedure run inline whose `return` leaves it.
const TURNS_REST: &str = r#"
game "Turns" {
  players 3
}
var starts: int = 0
action spend(c in you.hand) {
  move c to deck
  you.coins += c.worth
}
action rest() {
  you.coins += 1
  starts -= 1
  end turn
}
proc bonus(p: player): int {
  turn p {
    p.coins += 1
    if p.coins > 8 {
      return p.coins / 3
    }
  }
  return 0
}
check {
  if active.coins > 40 {
    win [active] "rich at the end of a turn"
  }
}
flow {
  move box to deck
  shuffle deck
  repeat 5 {
    for p in everyone {
      turn p {
        move top of deck to p.hand
        actions by p once [spend, rest]
        p.coins += 1
      }
      let b = bonus(p)
      p.coins += b
      if p.coins > 30 and count(everyone) > 2 {
        eliminate p
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;

#[test]
fn turns_on_the_closures_are_the_walkers() {
    let turns = hands(TURNS_REST);
    let p = checked(&turns);
    let compiled = (p.blocks.iter().enumerate())
        .flat_map(|(b, block)| {
            block
                .stmts
                .iter()
                .enumerate()
                .map(move |(i, st)| (b, i, st))
        })
        .filter(|(_, _, st)| matches!(st.kind, crate::program::StmtKind::Turn(..)))
        .inspect(|&(b, i, _)| {
            let at = crate::program::BlockId(b as u16);
            assert!(super::super::closures::segment(&p, at, i as u32).is_some());
        })
        .count();
    assert_eq!(compiled, 2);
    on_the_closures_alone(&p, "turns", 3, 30, 100);
    // Triggers on a turn's start and end: the frames stay as the walker's.
    let triggers = "on turn_start(p) {\n  starts += 1\n}\non turn_end(p) if starts > 5 {\n  p.coins += 2\n}\nflow {";
    let triggered = checked(&turns.replace("flow {", triggers));
    on_the_closures_alone(&triggered, "triggered turns", 3, 30, 100);
}

/// `end turn` and `end phase` compiled: in a turn's body run inline, in a phase inside it, in an
/// action (the turn's frame below the action's).
#[test]
fn ends_on_the_closures_are_the_walkers() {
    let ends = r#"proc bonus(p: player): int {
  turn p {
    phase one {
      if p.coins > 20 {
        end turn
      }
      if p.coins % 2 == 0 {
        end phase
      }
      p.coins += 2
    }
    if p.coins > 8 {
      return p.coins / 3
    }
    p.coins += 1
    if p.coins % 3 == 0 {
      end turn
    }
    p.coins += 1
  }
  return 0
}"#;
    let turns = hands(TURNS_REST);
    let start = turns.find("proc bonus").expect("bonus");
    let end = start + turns[start..].find("\n}\n").expect("its end") + 2;
    let src = format!("{}{}{}", &turns[..start], ends, &turns[end..]);
    let p = checked(&src);
    compiles_whole(&p);
    on_the_closures_alone(&p, "ends", 3, 30, 100);
}

/// `strict` (a failure inside caught: a `require`, a move of `none`, in an action and in a turn's
/// body run inline, `end turn` inside one) and `round` (a player out for the round, `end round`).
const BLOCKS_REST: &str = r#"
game "Blocks" {
  players 3
}
var fails: int = 0
action spend(c in you.hand) {
  strict {
    require c.worth > 2
    move c to deck
    you.coins += c.worth
  }
  fails += 1
}
action rest() {
  you.coins += 1
}
flow {
  move box to deck
  shuffle deck
  repeat 3 {
    round {
      for p in everyone {
        turn p {
          strict {
            move top of deck to p.hand
            require p.coins % 4 != 3
            if p.coins > 25 {
              end turn
            }
            p.coins += 1
          }
          actions by p once [spend, rest]
          if p.coins % 5 == 4 {
            eliminate p for round
          }
          if p.coins > 40 {
            end round
          }
        }
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#;

#[test]
fn strict_and_rounds_on_the_closures_are_the_walkers() {
    let p = checked(&hands(BLOCKS_REST));
    compiles_whole(&p);
    on_the_closures_alone(&p, "blocks", 3, 40, 100);
}

/// A turn at the turn limit ends the game as the walker's: in a `for`, in a procedure run inline.
#[test]
fn turns_at_the_limit_are_the_walkers() {
    let p = checked(&hands(TURNS_REST));
    let limited = |seed: u64, engine| {
        let mut c = config(3, seed, engine);
        c.max_turns = 3 + seed as u32 % 12;
        c
    };
    for record in [false, true] {
        assert!(lockstep_configured(&p, "turn limits", 30, record, limited) >= 100);
    }
    let mut walked = 0;
    for seed in 0..30 {
        let mut g = Game::new(p.clone(), limited(seed, Engine::Closures));
        while let Status::Decision(_) = g.status() {
            g.apply(0).expect("an option");
        }
        match g.status() {
            Status::Over(o) => assert!(o.reason.starts_with("turn limit"), "{o:?}"),
            s => panic!("{s:?}"),
        }
        walked += g.counted().walked;
    }
    assert_eq!(walked, 0, "turns at the limit walked");
}

/// `stop` in an action's effect (its segment's frames left as the walker's `leave_call` leaves
/// them), in a procedure run inline giving `none` to a `let`, and in a procedure run inline from
/// another: compiled (every statement compiles), in lockstep with the walker, none left to it.
#[test]
fn stop_is_the_closures() {
    let src = hands(
        r#"
game "Stops" {
  players 3
}
var got per player: int = 0
proc half(p: player): int {
  if p.coins > 4 {
    stop
  }
  return p.coins / 2
}
proc settle(p: player) {
  let h = half(p)
  log "half {h}"
  p.got += 1
  if p.got > 2 {
    stop
  }
  p.coins += 1
}
action earn(c in you.hand) {
  move c to deck
  you.coins += c.worth
  if you.coins > 8 {
    stop
  }
  you.coins += 1
}
action rest() {
  settle(you)
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
        actions by p once [earn, rest]
      }
    }
  }
  win [p for p in everyone where p.coins == max(q.coins for q in everyone)] "most coins"
}
"#,
    );
    compiled_whole(&src, "stops", 3, 30, 100);
}
