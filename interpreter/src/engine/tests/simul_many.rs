//! Engine stage: tests of a simultaneous choice of several elements (`simultaneously q in L choose
//! N | up to N | any | order x in D`), from script text through the checker to the engine.

use super::lang::start;
use crate::engine::{Game, Status};

/// Picks the option labelled `label` of the pending decision of `player`.
fn pick(g: &mut Game, player: u8, label: &str) {
    let d = g.decision().expect("a decision");
    assert_eq!(d.player, player, "{d:?}");
    let i = d
        .options
        .iter()
        .position(|o| o == label)
        .unwrap_or_else(|| panic!("{label} not in {:?}", d.options));
    g.apply(i).expect("applies");
}

fn options(g: &Game) -> Vec<String> {
    let mut o = g.decision().expect("a decision").options.clone();
    o.sort();
    o
}

const PASSING: &str = r#"
game "Passing" { players 2 }
zone hand per player: set, owner
card "A" { copies 1 }
card "B" { copies 1 }
card "C" { copies 1 }
card "D" { copies 1 }
card "E" { copies 1 }
card "F" { copies 1 }
var passes per player: int = 2
setup {
  move take(filter(c in box where c is "A" or c is "B" or c is "C"), 3) to seat(1).hand
  move box to seat(2).hand
}
flow {
  simultaneously q in everyone choose q.passes c in q.hand prompt "Pass {q.passes} cards" {
    for x in c { move x to left(q).hand }
  }
  win [seat(1)] "{sort(x in seat(1).hand by x.kind)} / {sort(x in seat(2).hand by x.kind)}"
}
"#;

/// Each player chooses two cards, one decision per card, against the same position: the second
/// player's options are its own whole hand, whatever the first chose; then the block runs with the
/// list of each player's cards. The count reads the player who chooses.
#[test]
fn each_player_chooses_several_cards_before_any_is_passed() {
    let mut g = start(PASSING);
    assert_eq!(g.decision().expect("a decision").prompt, "Pass 2 cards");
    assert_eq!(options(&g), ["A", "B", "C"]);
    pick(&mut g, 0, "A");
    assert_eq!(
        options(&g),
        ["B", "C"],
        "a chosen card is not offered again"
    );
    pick(&mut g, 0, "C");
    // Nothing has moved yet: the second player chooses from its own three cards.
    assert_eq!(options(&g), ["D", "E", "F"]);
    pick(&mut g, 1, "F");
    pick(&mut g, 1, "D");
    let Status::Over(o) = g.status() else {
        panic!("the game ends after the passing")
    };
    assert_eq!(o.reason, "B, D, F / A, C, E");
}

/// `up to N` offers `done`; `any` stops once everything is chosen; a player with nothing to choose
/// from gets `[]` without being asked; `order` places the last element without asking.
#[test]
fn up_to_any_and_order_choose_simultaneously() {
    let src = r#"
game "Some" { players 2 }
zone hand per player: set, owner
card "A" { copies 1 }
card "B" { copies 1 }
setup { move box to seat(1).hand }
flow {
  simultaneously q in everyone choose up to 2 c in q.hand { log "{q} keeps {c}" }
  simultaneously q in everyone choose any c in q.hand { log "{q} shows {count(c)}" }
  simultaneously q in everyone choose order c in q.hand { log "{q} orders {c}" }
  win [seat(1)] "done"
}
"#;
    let mut g = start(src);
    assert_eq!(options(&g), ["A", "B", "done"]);
    pick(&mut g, 0, "B");
    pick(&mut g, 0, "done");
    // Seat 2 has no card: asked nothing. Then `any`: both cards, then nothing left to ask.
    pick(&mut g, 0, "A");
    pick(&mut g, 0, "B");
    // `order`: one decision for two cards.
    assert_eq!(options(&g), ["A", "B"]);
    pick(&mut g, 0, "B");
    assert!(matches!(g.status(), Status::Over(_)), "{:?}", g.status());
    let logs = super::games::logs(&g.take_events());
    assert!(logs.contains(&"P1 keeps B".to_string()), "{logs:?}");
    assert!(logs.contains(&"P2 keeps ".to_string()), "{logs:?}");
    assert!(logs.contains(&"P1 shows 2".to_string()), "{logs:?}");
    assert!(logs.contains(&"P1 orders B, A".to_string()), "{logs:?}");
}
