//! Engine stage: which actions the closures plan (engine/closures/menu.rs, pairs.rs, items.rs), and
//! menus over lists of kinds planned and played as the walker's.

use super::closures::{lockstep_in, same_answers_in};
use super::oracle::program;

/// Actions of two parameters get plans (closures/pairs.rs): Crafty Explorers' `build_onto`, Heart of
/// Crown's `keep_card`; their options are the walker's (`the_closures_list_the_planned_actions_of_any_menu_as_the_walker`).
#[test]
fn actions_of_two_parameters_have_plans() {
    for (file, name) in [
        ("games/crafty-explorers.cardgame", "build_onto"),
        ("games/heart-of-crown.cardgame", "keep_card"),
    ] {
        let p = program(file);
        let closures = p.closures.clone().expect("closures are built");
        let a = p.actions.iter().position(|d| d.name == name);
        let plan = &closures.actions[a.expect("the action")];
        assert!(
            plan.is_ok(),
            "{file}: {name} has a plan: {:?}",
            plan.as_ref().err()
        );
    }
}

/// Every action of every script in games/ and examples/ has a plan (docs/engine.md says so).
#[test]
fn every_action_of_the_repositorys_scripts_has_a_plan() {
    let mut missing = Vec::new();
    for folder in ["games", "examples"] {
        let dir = format!("{}/../{folder}", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|entry| {
                entry
                    .ok()
                    .map(|e| e.file_name().to_string_lossy().to_string())
            })
            .filter(|name| name.ends_with(".cardgame"))
            .collect();
        files.sort();
        for name in files {
            let file = format!("{folder}/{name}");
            let p = program(&file);
            let closures = p.closures.clone().expect("closures are built");
            for (d, plan) in p.actions.iter().zip(&closures.actions) {
                if let Err(why) = plan {
                    missing.push(format!("{file}: {}: {why:?}", d.name));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "actions without a plan:\n{}",
        missing.join("\n")
    );
}

/// Menus over lists that are not zones' cards (a function's list, `a + b`, `filter`, `take_while`,
/// `if`, `flatten`) and conditions that walk them get plans (closures/items.rs, closures/pairs.rs),
/// as do conditions over a card's constant list of kinds, `distinct`, `cards(k, L)`, a global list,
/// membership and comparisons with `none` (Craft the Crown's `craft`, `has_elements(p, c.recipe,
/// none)` inlined by the checker);
/// so do conditions that compare a card's tag of a group or property with `none` or with a word
/// (Crayne's `c.faction == none`, `d.faction == t`).
#[test]
fn actions_over_lists_have_plans() {
    let mut missing = Vec::new();
    for (file, names) in [
        (
            "games/heart-of-crown.cardgame",
            &["recall_card", "bribe_buy"][..],
        ),
        (
            "games/craft-the-crown.cardgame",
            &[
                "give_card",
                "craft",
                "craft_by_site",
                "ask_resource",
                "make_offer",
                "accept_trade",
                "ask_from_hand",
                "accept_with",
            ][..],
        ),
        ("games/crayne.cardgame", &["buy_card", "raise_from_pit"][..]),
    ] {
        let p = program(file);
        let closures = p.closures.clone().expect("closures are built");
        for name in names {
            let a = p.actions.iter().position(|d| d.name == *name);
            if let Err(why) = &closures.actions[a.expect("the action")] {
                missing.push(format!("{file}: {name}: {why}"));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

/// Menus whose conditions walk a card's constant list of kinds (a function's list parameter given
/// `c.need`, `distinct`, `cards(k, L)`), compare a kind with `none`, test membership in a global
/// list and in a property, and walk lists written out (`[]` among them): planned, and the games on
/// the closures are the walker's.
#[test]
fn menus_over_kinds_lists_on_the_closures_are_the_walkers() {
    let src = r#"
game "Smithy" {
  players 2..3
}
property need: kinds
card "Ore" {
  copies 8
}
card "Coal" {
  copies 8
}
card "Bar" {
  copies 4
  need ["Ore", "Ore", "Coal"]
}
card "Tool" {
  copies 4
  need ["Bar", "Coal"]
}
zone deck: pile, hidden
zone hand per player: set, owner
zone owned per player: set
var named: list of kind = []
var made per player shown: int = 0
fn has(p: player, r: list of kind, skip: kind): bool =
  all(k in distinct(r) where count(cards(k, p.owned)) >= count(x in r where x == k) - (if k == skip then 1 else 0))
fn spare(p: player): list of card = if p.made > 2 then [] else [] + p.owned
action make(c in you.hand) label "Make {c}" if has(you, c.need, none) {
  move c to you.owned
  you.made += 1
}
action make_short(c in you.hand) label "Make {c} short" if not (c.kind in named) and any(k in distinct(c.need) where has(you, c.need, k)) {
  move c to you.owned
  named = named + [c.kind]
}
action keep(c in spare(you)) label "Keep {c}" if any(d in you.hand where c.kind in d.need) {
  move c to you.hand
}
action wait label "Wait" {
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 4 of deck to p.hand
  }
  repeat 8 {
    for p in everyone {
      actions by p once [make, make_short, keep, wait]
      move top 2 of deck to p.owned
    }
  }
}
"#;
    planned_in_lockstep(src, "smithy", 2..=3, 8);
}

/// Menus whose first parameter ranges over a list of lists (`pool in [unseen(you), ...]`, each
/// list made and given to the parameter), whose second ranges over `sort(n in kinds(pool) by n)`,
/// and over `take(sort(...), 1)` of a list that is not a zone, with `seat(n)` in a function's list:
/// planned, and the games on the closures are the walker's (Craft the Crown's `ask_from_hand` and
/// `accept_with`).
#[test]
fn menus_over_lists_of_lists_and_sorts_on_the_closures_are_the_walkers() {
    let src = r#"
game "Asks" {
  players 2..4
}
property worth: int = 1
card "Ore" {
  copies 6
}
card "Coal" {
  copies 6
  worth 3
}
card "Gem" {
  copies 3
  worth 2
}
zone deck: pile, hidden
zone hand per player: set, owner
zone kept per player: set
var asked: list of kind = []
var marked per card: bool = false
fn unseen(p: player): list of card = unseen_at(p, 1) + unseen_at(p, 2) + unseen_at(p, 3) + unseen_at(p, 4)
fn unseen_at(p: player, n: int): list of card =
  if n > players then [] else if seat(n) == p then [] else seat(n).hand
fn names(pool: list of card): list of kind = sort(n in kinds(pool) by n)
action ask(pool in [unseen(you), take(you.hand, 2)], k in names(pool)) label "Ask for {k}" if count(x in asked where x == k) < count(cards(k, pool)) {
  asked = asked + [k]
}
action give(c in take(sort(x in filter(d in you.hand where d.marked) by 0 - x.worth), 1)) {
  move c to you.kept
}
action keep(c in take(sort(x in you.hand where not x.marked by x.worth), 2)) label "Keep {c}" {
  move c to you.kept
}
action mark(c in you.hand) label "Mark {c}" if not c.marked {
  c.marked = true
}
action wait label "Wait" {
}
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 4 of deck to p.hand
  }
  repeat 6 {
    for p in everyone {
      actions by p once [ask, give, keep, mark, wait]
      move top 1 of deck to p.hand
    }
  }
}
"#;
    planned_in_lockstep(src, "asks", 2..=4, 12);
}

/// Script `src` checks, every action of it has a plan, its games of `games` seeds per player count
/// (two recorded) are the walker's in lockstep, and the closures list its menus as the walker.
fn planned_in_lockstep(src: &str, name: &str, players: std::ops::RangeInclusive<u8>, games: u64) {
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(
        (checked.program).unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics)),
    );
    let closures = p.closures.clone().expect("closures are built");
    for (d, plan) in p.actions.iter().zip(&closures.actions) {
        assert!(
            plan.is_ok(),
            "{} has a plan: {:?}",
            d.name,
            plan.as_ref().err()
        );
    }
    let fewest = *players.start();
    for n in players {
        assert!(lockstep_in(&p, name, n, games, false) > 100);
        assert!(lockstep_in(&p, name, n, 2, true) > 20);
    }
    let listed = same_answers_in(&p, name, fewest, games, true);
    assert!(listed > 100, "{listed} menus listed");
}
