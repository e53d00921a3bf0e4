//! Engine stage: tests of how a game's state is stored for clones (`state.rs`): zones attached to
//! cards cost nothing until they hold something, and cards shown to a seat are kept apart.

use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

/// A game of `zones` and 200 cards whose flow is `flow`, ended by a menu between `Keep` and `End`.
fn game(zones: &str, flow: &str) -> Game {
    let src = format!(
        "game \"Store\" {{ players 2 }}\nzone deck: pile\nzone hand per player: set\n{zones}\n\
         card \"A\" {{ copies 200 }}\nsetup {{ move box to deck }}\n{flow}\n"
    );
    let checked = check_source(&src);
    let program = checked
        .program
        .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics));
    Game::new(Arc::new(program), GameConfig::new(2, 3))
}

const FLOW: &str = r#"
action keep(c in you.hand) label "Keep {c}" { move top of deck to c.kept }
action give(c in you.hand) label "Give {c}" { move c.kept to you.hand }
flow {
  turn seat(1) {
    move top 2 of deck to you.hand
    actions by you until pass [keep, give]
    win [you] "kept {sum(count(c.kept) for c in you.hand)}"
  }
}
"#;

fn choose(g: &mut Game, label: &str) {
    let options = g.decision().map(|d| d.options.clone()).unwrap_or_default();
    let i = options
        .iter()
        .position(|o| o.starts_with(label))
        .unwrap_or_else(|| panic!("no option {label:?} in {options:?}"));
    g.apply(i).expect("apply");
}

#[test]
fn zones_attached_to_cards_cost_nothing_until_used() {
    let with = game("zone kept per card: pile", FLOW);
    let without = game(
        "zone kept per player: pile",
        &FLOW.replace("c.kept", "you.kept"),
    );
    // 200 empty attached zones against two per-player ones: the attached ones are not stored.
    let per_player = 2 * std::mem::size_of::<crate::engine::state::ZoneInst>();
    assert_eq!(with.state_size() + per_player, without.state_size());

    let mut g = with;
    let before = g.state_size();
    choose(&mut g, "Keep");
    choose(&mut g, "Keep");
    let kept = g
        .view(0)
        .zones
        .into_iter()
        .filter(|z| z.name.starts_with("kept on"))
        .map(|z| z.cards.len())
        .collect::<Vec<_>>();
    assert_eq!(kept, [2], "one attached zone holds the two kept cards");
    let one = std::mem::size_of::<(u32, crate::engine::state::ZoneInst)>();
    // The cards moved (the deck lost what the attached zone holds): only the instance is new.
    assert_eq!(g.state_size(), before + one);
    // Taken back: the zone is empty again and the cards are where the rules put them.
    choose(&mut g, "Give");
    assert!(g
        .view(0)
        .zones
        .iter()
        .all(|z| !z.name.starts_with("kept on")));
    let mut h = g.clone();
    choose(&mut h, "pass");
    let Status::Over(o) = h.status() else {
        panic!("the game ends on pass")
    };
    assert_eq!(o.reason, "kept 0");
    assert!(g.check_invariants().is_ok());
}

/// Per-card variables: a clone copies the values written since the game was created and a number
/// per card, not every card's values.
#[test]
fn a_clone_copies_only_the_card_variables_written() {
    let flow = r#"
var mark per card: int = 1
action tick(c in you.hand) label "Tick {c}" { c.mark += 10 }
flow {
  turn seat(1) {
    move top 2 of deck to you.hand
    actions by you until pass [tick]
    win [you] "marks {sum(c.mark for c in you.hand)} {sum(c.mark for c in deck)}"
  }
}
"#;
    let mut g = game("", flow);
    let before = g.state_size();
    choose(&mut g, "Tick");
    // One value written: the value, and a number per card up to it (never a value per card).
    let value = std::mem::size_of::<crate::value::Value>();
    let grown = g.state_size() - before;
    assert!(grown > value && grown <= value + 200 * 4, "grew by {grown}");
    choose(&mut g, "Tick");
    assert_eq!(g.state_size(), before + grown, "the same card again");
    let mut h = g.clone();
    choose(&mut h, "pass");
    let Status::Over(o) = h.status() else {
        panic!("the game ends on pass")
    };
    // One card of the hand was ticked twice (1 + 20), the other not (1); 198 cards in the deck.
    assert_eq!(o.reason, "marks 22 198");
}
