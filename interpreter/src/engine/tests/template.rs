//! Engine stage: tests of the template of created games (`create::created`): a game copied from the
//! template plays exactly as one created anew, and a creation that draws random numbers is never
//! copied; games started where the template's game first drew a random number (`create::prefix`)
//! play exactly as games run from their creation.

use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
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
fn trace(program: &Arc<crate::program::Program>, seed: u64) -> String {
    let mut g = Game::new(program.clone(), GameConfig::new(3, seed));
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
    // The first game is created anew; the others are copies of it with their own seeds.
    let first = trace(&p, 11);
    let other = trace(&p, 12);
    assert_ne!(first, other, "two seeds deal differently");
    assert_eq!(trace(&p, 11), first);
    assert_eq!(trace(&p, 12), other);
    // Another configuration (four players) takes the template's place; three players are created
    // anew, then copied again.
    let four = Game::new(p.clone(), GameConfig::new(4, 11));
    assert_eq!(four.players(), 4);
    assert_eq!(trace(&p, 12), other);
    assert_eq!(trace(&p, 11), first);
}

#[test]
fn a_creation_that_draws_random_numbers_is_not_copied() {
    let p = program(
        r#"game "Dice" { players 2 }
var die per player: int = random([1, 2, 3, 4, 5, 6])
flow { turn seat(1) { win [seat(1)] "rolled {seat(1).die}" } }
"#,
    );
    let rolls: std::collections::BTreeSet<String> = (0..40)
        .map(
            |seed| match Game::new(p.clone(), GameConfig::new(2, seed)).status() {
                Status::Over(o) => o.reason.clone(),
                s => panic!("{s:?}"),
            },
        )
        .collect();
    assert!(rolls.len() > 3, "{rolls:?}");
}

#[test]
fn games_start_where_the_first_one_first_drew() {
    use crate::engine::create::prefix_copies;
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
    // Four players first, so that three players are created anew below.
    let _ = Game::new(p.clone(), GameConfig::new(4, 1));
    let before = prefix_copies();
    let first = trace(&p, 11);
    assert_eq!(
        prefix_copies(),
        before,
        "the first game runs from its creation"
    );
    let other = trace(&p, 12);
    assert_ne!(first, other, "two seeds shuffle differently");
    assert_eq!(trace(&p, 11), first);
    assert_eq!(trace(&p, 12), other);
    assert_eq!(
        prefix_copies(),
        before + 3,
        "the others start at the shuffle"
    );
    assert!(
        first.contains("dealt") && first.contains("shuffled"),
        "{first}"
    );
}

#[test]
fn a_first_draw_after_a_decision_leaves_no_prefix() {
    use crate::engine::create::prefix_copies;
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
    let before = prefix_copies();
    let first = trace(&p, 5);
    assert_eq!(trace(&p, 5), first);
    assert_eq!(trace(&p, 6), trace(&p, 6));
    assert_eq!(prefix_copies(), before);
}
