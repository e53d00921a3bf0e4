//! Engine stage: tests of the game factory (factory.rs): a game it copies plays exactly as one
//! created anew by `Game::new`, a creation that draws random numbers is never copied, and games
//! started where the first one first drew a random number play exactly as games run from their
//! creation.

use crate::check::check_source;
use crate::engine::{Game, GameConfig, GameFactory, Status};
use std::sync::Arc;

fn program(src: &str) -> Arc<crate::program::Program> {
    let checked = check_source(src);
    Arc::new(
        checked
            .program
            .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics)),
    )
}

/// Plays a game to its end, always taking the last option; its trace, one event per line.
fn trace(mut g: Game) -> String {
    let mut out = Vec::new();
    for _ in 0..500 {
        out.extend(g.take_events().iter().map(|e| format!("{e:?}")));
        out.push(format!("work {} state {}", g.work(), g.state_size()));
        match g.status() {
            Status::Decision(d) => {
                let last = d.options.len() - 1;
                g.apply(last).expect("apply");
            }
            _ => break,
        }
    }
    out.extend(g.take_events().iter().map(|e| format!("{e:?}")));
    out.join("\n")
}

/// The trace of the game of `seed` created anew.
fn created(p: &Arc<crate::program::Program>, players: u8, seed: u64) -> String {
    trace(Game::new(p.clone(), GameConfig::new(players, seed)))
}

/// The trace of the factory's game of `seed`, whose history names that seed.
fn copied(f: &GameFactory, seed: u64) -> String {
    let g = f.game(seed);
    let history = g.history().expect("a factory's game has a history");
    assert_eq!(history.config.seed, seed);
    assert!(f.makes(&history.config));
    trace(g)
}

#[test]
fn a_copied_game_plays_as_a_new_one() {
    let p = program(
        r#"game "Copies" { players 2..4 }
property worth: int = 0
card "Coin" { copies 4 * players worth 1 }
card "Gem" { copies players + 1 worth 3 }
zone deck: pile, hidden
zone hand per player: set
var points per player: int = seat_points(you)
fn seat_points(p: player): int = count(everyone) * 10
setup { move box to deck  shuffle deck }
action pick(c in deck) label "Take {c}" { move c to you.hand  you.points += c.worth }
flow { repeat 4 { for p in everyone { turn p { actions by p once [pick] } } } win everyone "done" }
"#,
    );
    let three = GameFactory::new(p.clone(), GameConfig::new(3, 11));
    let four = GameFactory::new(p.clone(), GameConfig::new(4, 11));
    assert!(!three.makes(four.config()), "another player count");
    let first = created(&p, 3, 11);
    let other = created(&p, 3, 12);
    assert_ne!(first, other, "two seeds deal differently");
    assert_eq!(copied(&three, 11), first);
    assert_eq!(copied(&three, 12), other);
    assert_eq!(copied(&four, 12), created(&p, 4, 12));
    // A factory's games do not depend on the games made before them, by it or by another.
    assert_eq!(copied(&three, 11), first);
}

#[test]
fn a_creation_that_draws_random_numbers_is_not_copied() {
    let p = program(
        r#"game "Dice" { players 2 }
var die per player: int = random([1, 2, 3, 4, 5, 6])
flow { turn seat(1) { win [seat(1)] "rolled {seat(1).die}" } }
"#,
    );
    let f = GameFactory::new(p.clone(), GameConfig::new(2, 0));
    let rolls: std::collections::BTreeSet<String> = (0..40)
        .map(|seed| {
            assert_eq!(copied(&f, seed), created(&p, 2, seed));
            match f.game(seed).status() {
                Status::Over(o) => o.reason.clone(),
                s => panic!("{s:?}"),
            }
        })
        .collect();
    assert!(rolls.len() > 3, "{rolls:?}");
}

#[test]
fn games_start_where_the_first_one_first_drew() {
    // The deal is the same for every seed; the first draw is the shuffle after it.
    let p = program(
        r#"game "Deal" { players 2..4 }
property worth: int = 0
card "Coin" { copies 4 * players worth 1 }
card "Gem" { copies players + 1 worth 3 }
zone deck: pile, hidden
zone hand per player: set
var points per player: int = 0
setup {
  for k in kinds(box) {
    while count(cards(k, box)) > 0 {
      for p in everyone {
        if count(cards(k, box)) > 0 { move first(cards(k, box)) to p.hand }
      }
    }
  }
  log "dealt"
  for p in everyone { p.points = count(p.hand) }
  for p in everyone { move p.hand to deck }
  shuffle deck
  log "shuffled"
}
action pick(c in deck) label "Take {c}" { move c to you.hand  you.points += c.worth }
flow { repeat 4 { for p in everyone { turn p { actions by p once [pick] } } } win everyone "done" }
"#,
    );
    let f = GameFactory::new(p.clone(), GameConfig::new(3, 1));
    assert!(f.starts_at_first_draw(), "the others start at the shuffle");
    let first = created(&p, 3, 11);
    let other = created(&p, 3, 12);
    assert_ne!(first, other, "two seeds shuffle differently");
    assert_eq!(copied(&f, 11), first);
    assert_eq!(copied(&f, 12), other);
    assert!(
        first.contains("dealt") && first.contains("shuffled"),
        "{first}"
    );
}

#[test]
fn a_first_draw_after_a_decision_leaves_no_prefix() {
    let p = program(
        r#"game "Later" { players 3 }
card "Coin" { copies 6 }
zone deck: pile, hidden
zone hand per player: set
setup { move box to deck }
action draw() label "Draw" { shuffle deck  move top of deck to you.hand }
flow { repeat 2 { for p in everyone { turn p { actions by p once [draw] } } } win everyone "done" }
"#,
    );
    let f = GameFactory::new(p.clone(), GameConfig::new(3, 5));
    assert!(!f.starts_at_first_draw());
    assert_eq!(copied(&f, 5), created(&p, 3, 5));
    assert_eq!(copied(&f, 6), created(&p, 3, 6));
}

#[test]
fn a_first_draw_inside_compiled_statements_pauses_before_them() {
    // The flow's first draws (`random` into a local and into a global) come after compiled
    // statements of the same segment, before any decision: the template pauses at the segment's
    // head, and a copy runs it whole, drawing as a new game draws, on either engine.
    let p = program(
        r#"game "Draws" { players 2..4 }
tags colour: Red, Blue, Green
card "Coin" { copies 6 }
zone deck: pile, hidden
zone hand per player: set
var points per player: int = 0
var leader: player = seat(1)
var picked: list of tag = []
action pick(c in deck) label "Take {c}" { move c to you.hand  you.points += 1 }
flow {
  move box to deck
  for p in everyone { p.points = 2 }
  let pool = [Red, Blue, Green]
  let f = random(pool)
  leader = random(everyone)
  leader.points += 1
  picked = picked + [f, random(pool)]
  log "{f} {leader}"
  repeat 2 { for p in everyone { turn p { actions by p once [pick] } } }
  win [leader] "led"
}
"#,
    );
    for engine in [
        crate::engine::Engine::Closures,
        crate::engine::Engine::Walker,
    ] {
        let mut config = GameConfig::new(3, 1);
        config.engine = engine;
        let f = GameFactory::new(p.clone(), config.clone());
        assert!(
            f.starts_at_first_draw(),
            "{engine:?}: the others start at the draw"
        );
        let mut differ = false;
        for seed in [11, 12, 13, 14] {
            let mut one = config.clone();
            one.seed = seed;
            let created = trace(Game::new(p.clone(), one));
            assert_eq!(copied(&f, seed), created, "{engine:?}, seed {seed}");
            differ |= created != trace(Game::new(p.clone(), GameConfig::new(3, 11)));
        }
        assert!(differ, "seeds draw differently");
    }
    assert!(super::closures::lockstep_in(&p, "draws", 3, 8, false) >= 8);
    assert!(super::closures::lockstep_in(&p, "draws", 3, 8, true) >= 8);
}
