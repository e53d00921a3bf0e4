//! Engine stage: tests of guarded checks skipped while nothing they read changes (`watch.rs`): the
//! check still fires after a change reached only indirectly, and the skipping really happens.

use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

/// A two-player game of `body` (zones, cards, actions, check) where each turn is a menu of
/// `actions` until pass.
fn game(body: &str, actions: &str) -> Game {
    let src = format!(
        "game \"Watch\" {{ players 2 }}\n{body}\n\
         flow {{ loop {{ for p in everyone {{ turn p {{ actions by p until pass [{actions}] }} }} }} }}\n"
    );
    let checked = check_source(&src);
    let program = checked
        .program
        .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics));
    assert!(
        program.guarded_checks.iter().all(|&g| g),
        "the test's check is guarded"
    );
    // On the walker: `watch` serves its checks (the closures answer guards by running them).
    let mut config = GameConfig::new(2, 7);
    config.engine = crate::engine::Engine::Walker;
    Game::new(Arc::new(program), config)
}

fn choose(g: &mut Game, label: &str) {
    let options = g.decision().map(|d| d.options.clone()).unwrap_or_default();
    let i = options
        .iter()
        .position(|o| o == label)
        .unwrap_or_else(|| panic!("no option {label:?} in {options:?}"));
    g.apply(i).expect("apply");
}

fn reason(g: &Game) -> Option<String> {
    match g.status() {
        Status::Over(o) => Some(o.reason.clone()),
        _ => None,
    }
}

/// Waits a few decisions (the check is false and recorded, then skipped), then does `act` until the
/// game ends (at most `most` times); returns how many times it took.
fn wait_then(g: &mut Game, act: &str, most: usize) -> usize {
    for _ in 0..3 {
        choose(g, "Wait");
        assert_eq!(reason(g), None);
    }
    for i in 1..=most {
        choose(g, act);
        if reason(g).is_some() {
            return i;
        }
    }
    panic!("the check never fired");
}

#[test]
fn a_check_sees_a_zone_held_in_a_variable() {
    let mut g = game(
        r#"card "Gem" { copies 6 }
zone stock: set
zone pool: set
var target: zone = stock
action put(c in stock) label "Put" { move c to pool }
action wait label "Wait" { }
setup { move box to stock
  target = pool }
check { if count(target) >= 2 { win [active] "two in the pool" } }"#,
        "put, wait",
    );
    assert_eq!(wait_then(&mut g, "Put", 5), 2);
    assert_eq!(reason(&g).as_deref(), Some("two in the pool"));
}

#[test]
fn a_check_sees_a_zone_in_a_list_variable() {
    let mut g = game(
        r#"card "Gem" { copies 6 }
zone stock: set
zone pool: set
var targets: list of zone = []
action put(c in stock) label "Put" { move c to pool }
action wait label "Wait" { }
setup { move box to stock
  targets = [stock, pool] }
check { if count(c in last(targets) where c is "Gem") >= 3 { win [active] "three gems" } }"#,
        "put, wait",
    );
    assert_eq!(wait_then(&mut g, "Put", 5), 3);
}

#[test]
fn a_check_sees_a_card_field_change() {
    let mut g = game(
        r#"card "Gem" { copies 3 }
card "Ruby" { copies 1 }
zone stock: set
zone pool: set
var watched: card = none
action put(c in stock) label "Put {c}" { move c to pool }
action wait label "Wait" { }
setup { move box to stock
  watched = first(cards("Ruby", stock)) }
check { if watched.zone == pool { win [active] "the ruby moved" } }"#,
        "put, wait",
    );
    for _ in 0..3 {
        choose(&mut g, "Wait");
    }
    choose(&mut g, "Put Gem");
    assert_eq!(reason(&g), None);
    choose(&mut g, "Wait");
    choose(&mut g, "Put Ruby");
    assert_eq!(reason(&g).as_deref(), Some("the ruby moved"));
}

#[test]
fn a_check_sees_another_players_variable() {
    let mut g = game(
        r#"card "Gem" { copies 1 }
var gifts per player: int = 0
action give label "Give" { for q in opponents(you) { q.gifts += 1 } }
action wait label "Wait" { }
check { if seat(2).gifts >= 2 { win [seat(2)] "two gifts" } }"#,
        "give, wait",
    );
    assert_eq!(wait_then(&mut g, "Give", 5), 2);
    assert_eq!(reason(&g).as_deref(), Some("two gifts"));
}

#[test]
fn a_check_sees_a_shuffle() {
    let mut g = game(
        r#"card "Gem" { copies 1 }
card "Ruby" { copies 1 }
zone deck: pile, hidden
action mix label "Mix" { shuffle deck }
action wait label "Wait" { }
setup {
  move cards("Ruby", box) to deck
  move cards("Gem", box) to deck
}
check { if first(deck) is "Ruby" { win [active] "ruby on top" } }"#,
        "mix, wait",
    );
    wait_then(&mut g, "Mix", 60);
    assert_eq!(reason(&g).as_deref(), Some("ruby on top"));
}

#[test]
fn a_check_sees_a_refill() {
    let mut g = game(
        r#"card "Gem" { copies 3 }
zone deck: pile, hidden, refill from discard
zone discard: pile
zone hand: set
action draw label "Draw" { move top of deck to hand }
action wait label "Wait" { }
setup { move box to discard }
check { if count(discard) == 0 { win [active] "the discard was shuffled into the deck" } }"#,
        "draw, wait",
    );
    assert_eq!(wait_then(&mut g, "Draw", 3), 1);
}

#[test]
fn a_check_over_a_long_zone_is_skipped_while_nothing_changes() {
    let mut g = game(
        r#"card "Gem" { copies 300 }
card "Ruby" { copies 1 }
zone stock: set
zone vault: set
var moved: card = none
action touch label "Touch" { move moved to stock }
action wait label "Wait" { }
setup { move cards("Gem", box) to stock
  move box to vault
  moved = first(stock) }
check { if count(c in stock where c is "Ruby") > 0 { win [active] "a ruby" } }"#,
        "touch, wait",
    );
    choose(&mut g, "Touch");
    let evaluated = g.work();
    choose(&mut g, "Wait");
    let skipped = g.work();
    assert!(
        evaluated >= 300 && skipped + 300 <= evaluated,
        "the check over 300 cards is evaluated after a change ({evaluated}), skipped otherwise ({skipped})"
    );
    // Still evaluated, and still false, after the next change.
    choose(&mut g, "Touch");
    assert!(g.work() >= 300);
    assert_eq!(reason(&g), None);
}

#[test]
fn a_check_whose_records_never_pay_off_still_fires() {
    // Every decision changes the pool: recording pauses after a few decisions; the check still runs.
    let mut g = game(
        r#"card "Gem" { copies 40 }
zone stock: set
zone pool: set
action put(c in stock) label "Put" { move c to pool }
action wait label "Wait" { }
setup { move box to stock }
check { if count(pool) >= 30 { win [active] "thirty in the pool" } }"#,
        "put, wait",
    );
    assert_eq!(wait_then(&mut g, "Put", 40), 30);
}

#[test]
fn a_clone_keeps_the_records_and_each_copy_sees_its_own_changes() {
    let mut g = game(
        r#"card "Gem" { copies 5 }
zone stock: set
zone pool: set
action put(c in stock) label "Put" { move c to pool }
action wait label "Wait" { }
setup { move box to stock }
check { if count(pool) >= 1 { win [active] "one in the pool" } }"#,
        "put, wait",
    );
    choose(&mut g, "Wait");
    let mut copy = g.clone();
    choose(&mut g, "Wait");
    assert_eq!(reason(&g), None);
    choose(&mut copy, "Put");
    assert_eq!(reason(&copy).as_deref(), Some("one in the pool"));
    choose(&mut g, "Put");
    assert_eq!(reason(&g).as_deref(), Some("one in the pool"));
}
