//! Engine stage: the typed closures (engine/closures) against the walker, their oracle: at every
//! decision of Market Race and Duel the closures list the walker's menu and answer its guarded
//! checks alike, and games played in lockstep on `Engine::Closures` and the walker agree on the
//! status, the events and every seat's view (docs/engine.md, "Where the move stands").

use super::oracle::{config, observed, program};
use crate::engine::exec::Frame;
use crate::engine::{Engine, Game, Status};

/// A generator of the test's own, seeded by the game: the options both engines take.
fn next(pick: &mut u64) -> u64 {
    *pick ^= *pick << 13;
    *pick ^= *pick >> 7;
    *pick ^= *pick << 17;
    *pick
}

/// Plays `games` walker games of `file`; at every menu the closures list the walker's options, and
/// every guarded check's guards answer as the walker's. Returns the menus compared.
fn same_answers(file: &str, players: u8, games: u64) -> u64 {
    same_answers_of(file, players, games, true)
}

/// `same_answers` where `every_action` may be false: only the menus whose actions all have a plan
/// are compared (the others are the walker's).
fn same_answers_of(file: &str, players: u8, games: u64, every_action: bool) -> u64 {
    same_answers_in(&program(file), file, players, games, every_action)
}

pub(super) fn same_answers_in(
    p: &std::sync::Arc<crate::program::Program>,
    file: &str,
    players: u8,
    games: u64,
    every_action: bool,
) -> u64 {
    let closures = p.closures.clone().expect("closures are built");
    assert!(
        !every_action || closures.actions.iter().all(|a| a.is_ok()),
        "{file}: every action has a plan: {:?}",
        closures
            .actions
            .iter()
            .filter_map(|a| a.as_ref().err())
            .collect::<Vec<_>>()
    );
    let mut menus = 0;
    let mut out = Vec::new();
    for seed in 0..games {
        let mut g = Game::new(p.clone(), config(players, seed, Engine::Walker));
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        // A long game is compared over its first decisions only where some actions have no plan.
        let mut left = if every_action { u32::MAX } else { 600 };
        while let Status::Decision(d) = g.status() {
            left = match left.checked_sub(1) {
                Some(left) => left,
                None => break,
            };
            let options = d.options.len() as u64;
            let menu = match g.st.frames.last() {
                Some(Frame::Menu(m)) => Some((m.at, m.decider, m.offered.clone())),
                _ => None,
            };
            if let Some((at, decider, offered)) = menu {
                let actions = match g.mach().stmt(at).map(|st| &st.kind) {
                    Some(crate::program::StmtKind::Actions { actions, .. }) => actions.clone(),
                    _ => panic!("a menu's frame at a menu"),
                };
                let planned = |a: &crate::program::ActionId| closures.planned(*a);
                if !actions.iter().all(planned) {
                    // Each action that has a plan alone: the walker's options of that action.
                    for &a in actions.iter().filter(|a| planned(a)) {
                        out.clear();
                        // A closure that cannot answer leaves the action to the walker.
                        if !closures.list_menu(p, &g.st, &g.layout, decider, &[a], &mut out) {
                            continue;
                        }
                        let theirs: Vec<_> = offered.iter().filter(|(b, _)| *b == a).collect();
                        assert_eq!(
                            out.iter().collect::<Vec<_>>(),
                            theirs,
                            "{file}, seed {seed}: the same options of an action"
                        );
                        menus += 1;
                    }
                    let i = (next(&mut pick) % options) as usize;
                    g.apply(i).expect("an option");
                    continue;
                }
                out.clear();
                let listed = closures.list_menu(p, &g.st, &g.layout, decider, &actions, &mut out);
                assert!(listed, "{file}, seed {seed}: the closures list the menu");
                assert_eq!(out, offered, "{file}, seed {seed}: the same options");
                menus += 1;
            }
            for (i, body) in p.checks.iter().enumerate() {
                if p.guarded_checks.get(i) != Some(&true) {
                    continue;
                }
                let theirs = closures.guard_holds(i, p, &g.st, &g.layout);
                let why = closures.guards[i].as_ref().err();
                assert!(
                    theirs.is_some(),
                    "{file}: check {i}'s guards compiled: {why:?}"
                );
                let walker = g.mach().some_guard_holds(*body);
                assert_eq!(
                    theirs,
                    Some(walker),
                    "{file}, seed {seed}: check {i}'s guards"
                );
            }
            let i = (next(&mut pick) % options) as usize;
            g.apply(i).expect("an option");
        }
    }
    menus
}

#[test]
fn the_closures_list_market_races_menus_and_answer_its_check_as_the_walker() {
    assert!(same_answers("examples/market-race.cardgame", 2, 30) > 1000);
    assert!(same_answers("examples/market-race.cardgame", 4, 5) > 200);
}

#[test]
fn the_closures_list_duels_menus_as_the_walker() {
    assert!(same_answers("examples/duel.cardgame", 2, 30) > 500);
}

/// Menus of actions of no parameter (Forehead's `bet` and `fold`) and of a parameter over
/// `opponents(you)` (Signals' `tell`, beside actions over a hand).
#[test]
fn the_closures_list_menus_of_no_parameter_and_of_seats_as_the_walker() {
    assert!(same_answers("examples/forehead.cardgame", 3, 20) > 300);
    assert!(same_answers("examples/forehead.cardgame", 5, 5) > 100);
    assert!(same_answers("examples/signals.cardgame", 2, 20) > 100);
    assert!(same_answers("examples/signals.cardgame", 4, 10) > 50);
}

/// Menus of which some actions have no plan: the others, listed by the closures action by action
/// beside the walker's, list the walker's options.
#[test]
fn the_closures_list_the_planned_actions_of_any_menu_as_the_walker() {
    for (file, players, games, least) in [
        ("games/craft-the-crown.cardgame", 2, 2, 100),
        ("games/crafty-explorers.cardgame", 2, 2, 50),
        ("games/heart-of-crown.cardgame", 2, 2, 100),
        ("games/crayne.cardgame", 2, 2, 100),
    ] {
        let listed = same_answers_of(file, players, games, false);
        assert!(listed > least, "{file}: {listed} actions listed");
    }
}

/// Menus over zones of cards with card variables and cards attached to cards (as Heart of
/// Crown's `kept` per card), where identical cards are merged as the walker merges them; card
/// variables read and written by compiled bodies.
#[test]
fn the_closures_list_menus_of_cards_with_variables_as_the_walker() {
    let src = r#"
game "Charged" {
  players 2..3
}
property rank: int = 0
card "Spark" {
  copies 6
  rank 1
}
card "Bolt" {
  copies 6
  rank 2
}
zone deck: pile, hidden
zone hand per player: set, owner
zone used: set
zone kept per card: set
var charge per card: int = 0
var points per player shown: int = 0
fn score(p: player): int = p.points
action power(c in you.hand) label "Charge {c}" if c.rank <= 2 {
  c.charge += 1
}
action keep(c in you.hand) label "Keep a card on {c}" if count(deck) > 0 {
  move top of deck to c.kept
}
action use(c in you.hand) label "Use {c}" {
  you.points += c.rank + c.charge
  move c to used
}
setup {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 5 of deck to p.hand
  }
}
flow {
  repeat 6 {
    for p in everyone {
      turn p {
        actions by p times 2 [power, keep, use]
      }
    }
  }
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(checked.program.expect("the script checks"));
    assert!(same_answers_in(&p, "charged", 2, 20, true) > 200);
    assert!(same_answers_in(&p, "charged", 3, 10, true) > 200);
    // The card's variable written and read by compiled bodies (`c.charge += 1`, `c.charge`).
    let power = p.actions.iter().find(|a| a.name == "power").expect("power");
    let closures = p.closures.clone().expect("closures are built");
    assert_eq!(
        closures.compiled_in(power.body.block),
        (1, 1),
        "power compiles"
    );
    assert!(lockstep_in(&p, "charged", 2, 10, false) > 200);
    assert!(lockstep_in(&p, "charged", 3, 10, true) > 200);
}

/// Games on `Engine::Closures` and on the walker, in lockstep, agree at every decision; with
/// `record` off (as in `sim`) the statements run on the closures wherever they compiled.
fn lockstep(file: &str, players: u8, games: u64) -> u64 {
    lockstep_recording(file, players, games, true)
}

fn lockstep_recording(file: &str, players: u8, games: u64, record: bool) -> u64 {
    lockstep_in(&program(file), file, players, games, record)
}

pub(super) fn lockstep_in(
    p: &std::sync::Arc<crate::program::Program>,
    file: &str,
    players: u8,
    games: u64,
    record: bool,
) -> u64 {
    let configured = |seed, engine| config(players, seed, engine);
    lockstep_configured(p, file, games, record, configured)
}

/// `lockstep_in` of games configured by `configured` (from the seed and the engine).
pub(super) fn lockstep_configured(
    p: &std::sync::Arc<crate::program::Program>,
    file: &str,
    games: u64,
    record: bool,
    configured: impl Fn(u64, Engine) -> crate::engine::GameConfig,
) -> u64 {
    let mut decisions = 0;
    for seed in 0..games {
        let mut walker = Game::new(p.clone(), configured(seed, Engine::Walker));
        let mut closures = Game::new(p.clone(), configured(seed, Engine::Closures));
        assert!(closures.st.fixed.closures, "{file} runs on the closures");
        walker.set_recording(record);
        closures.set_recording(record);
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for step in 0.. {
            let (w, c) = (observed(&mut walker), observed(&mut closures));
            assert_eq!(
                w, c,
                "{file}, seed {seed}, decision {step}: the engines differ"
            );
            let Status::Decision(d) = walker.status() else {
                break;
            };
            let i = (next(&mut pick) % d.options.len() as u64) as usize;
            walker.apply(i).expect("an option");
            closures.apply(i).expect("an option");
            decisions += 1;
        }
        // What `sim` reports of the game: its `stat`s, keyed ones too, and the options offered.
        assert_eq!(
            format!("{:?}", walker.st.tally),
            format!("{:?}", closures.st.tally),
            "{file}, seed {seed}: the tallies"
        );
    }
    decisions
}

#[test]
fn games_on_the_closures_are_the_walkers_games() {
    assert!(lockstep("examples/market-race.cardgame", 3, 10) > 500);
    assert!(lockstep("examples/duel.cardgame", 2, 10) > 100);
}

#[test]
fn games_on_the_closures_are_the_walkers_games_while_nobody_records() {
    assert!(lockstep_recording("examples/market-race.cardgame", 3, 10, false) > 500);
    assert!(lockstep_recording("examples/market-race.cardgame", 2, 10, false) > 500);
    assert!(lockstep_recording("examples/duel.cardgame", 2, 30, false) > 300);
}

/// The procedures and actions of a turn compile whole: no statement of theirs is left to the
/// walker (calls and `perform` run inline, calls.rs).
#[test]
fn the_turns_procedures_and_actions_compile_whole() {
    for (file, procs, actions) in [
        (
            "examples/duel.cardgame",
            &["hurt", "refill_hand"][..],
            &["play_card"][..],
        ),
        (
            "examples/market-race.cardgame",
            &["draw", "refill_market", "cleanup"][..],
            &["play_card", "buy"][..],
        ),
    ] {
        let p = program(file);
        let closures = p.closures.clone().expect("closures are built");
        let procs = procs.iter().map(|name| {
            let def = p.procs.iter().find(|d| d.name == *name);
            (name, def.expect("the procedure").body.block)
        });
        let actions = actions.iter().map(|name| {
            let def = p.actions.iter().find(|d| d.name == *name);
            (name, def.expect("the action").body.block)
        });
        for (name, block) in procs.chain(actions) {
            let (compiled, all) = closures.compiled_in(block);
            assert!(all > 0, "{file}: {name} has statements");
            assert_eq!(compiled, all, "{file}: {name} compiles whole");
        }
    }
}

/// A failure inside a procedure run inline, caught by a `strict` below a procedure the walker runs
/// (its `Call` frame made after a decision): the contexts are unwound as the walker unwinds them.
#[test]
fn a_failure_in_an_inline_call_unwinds_as_the_walker() {
    let src = r#"
game "Strict calls" {
  players 2
}
var coins per player shown: int = 0
proc spend() {
  require you.coins > 5
  you.coins += 1
}
proc outer() {
  choose by you prompt "Go?" {
    "yes" { log "yes" }
    "no" { log "no" }
  }
  spend()
  you.coins += 100
}
flow {
  repeat 2 {
    for p in everyone {
      turn p {
        strict {
          outer()
        }
        p.coins += 4
      }
    }
  }
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(checked.program.expect("the script checks"));
    for seed in 0..4 {
        let mut walker = Game::new(p.clone(), config(2, seed, Engine::Walker));
        let mut closures = Game::new(p.clone(), config(2, seed, Engine::Closures));
        walker.set_recording(false);
        closures.set_recording(false);
        let mut decisions = 0;
        loop {
            let (w, c) = (observed(&mut walker), observed(&mut closures));
            assert_eq!(
                w, c,
                "seed {seed}, decision {decisions}: the engines differ"
            );
            let Status::Decision(d) = walker.status() else {
                break;
            };
            let i = (seed as usize + decisions) % d.options.len();
            walker.apply(i).expect("an option");
            closures.apply(i).expect("an option");
            decisions += 1;
        }
        assert_eq!(decisions, 4, "seed {seed}: one decision a turn");
        assert_eq!(closures.st.ctxs.len(), walker.st.ctxs.len(), "the contexts");
    }
}

/// Statements whose values are not words (a list kept in a local, a list moved, a zone revealed, a
/// log of lists) run in place inside their segment (closures/in_place.rs): a move into a zone
/// with a limit fails under `strict` as the walker's, and the words read after them come from
/// their slots; the games are the walker's, recorded or not.
#[test]
fn statements_in_place_on_the_closures_are_the_walkers() {
    let src = r#"
game "In place" {
  players 2
}
zone deck: pile
zone hand per player: set, max 3
zone shown: set
card "Gem" {
  copies 9
}
var coins per player shown: int = 0
flow {
  move box to deck
  repeat 2 {
    for p in everyone {
      turn p {
        let l = filter(c in deck where true)
        let picked = take(l, 2)
        strict {
          move take(l, 4 - count(p.hand)) to p.hand
          p.coins += 100
        }
        move picked to shown
        reveal shown
        log "{p} sees {picked} and {l}"
        let n = count(l) + count(picked)
        p.coins += n
        choose by p prompt "Again?" {
          "yes" { move shown to deck }
          "no" { p.coins += 1 }
        }
      }
    }
  }
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(checked.program.expect("the script checks"));
    let closures = p.closures.clone().expect("closures are built");
    let turn = p.blocks.iter().position(|b| {
        matches!(
            b.stmts.first().map(|st| &st.kind),
            Some(crate::program::StmtKind::Let(..))
        )
    });
    let turn = crate::program::BlockId(turn.expect("the turn's block") as u16);
    // The lists kept in locals, moved, revealed and logged run in place; the decision is posed
    // by its step (decisions.rs).
    assert_eq!(closures.compiled_in(turn), (9, 9), "the turn compiles");
    assert!(lockstep_in(&p, "in place", 2, 6, false) >= 24);
    assert!(lockstep_in(&p, "in place", 2, 6, true) >= 24);
}

/// Values that are not words, made by the closures' value closures (value.rs) in the statements
/// run in place, the lists of `for` loops and the parts of a `log`: lists kept in locals, filters,
/// sorts, maps, kinds, lists joined, `none`, membership, lists compared, a pile's cards (and an
/// empty pile's, the walker's), a `choose`'s candidates, against the walker.
#[test]
fn values_on_the_closures_are_the_walkers() {
    let src = r#"
game "Values" {
  players 3
}
property rank: int = 0
tags suit: Red, Blue
card "{r} red" for r in 1..5 {
  rank r
  is Red
}
card "{r} blue" for r in 1..4 {
  rank r
  is Blue
}
zone deck: pile, hidden
zone hand per player: set
zone pool: set
var coins per player shown: int = 0
var best: list of card = []
fn ranks(p: player): list of int = sort(c.rank for c in p.hand)
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.hand
  }
  repeat 2 {
    for p in everyone {
      turn p {
        let l = filter(c in p.hand where c.rank > 1)
        let s = sort(c in l by 0 - c.rank)
        let r = [c.rank * 2 for c in s]
        let k = kinds(deck)
        let o = opponents(p)
        let both = l + take(s, 1)
        let high = first(s)
        let tag = if count(l) > 0 then first(l).suit else none
        let t = top of deck
        reveal bottom of deck
        show top 2 of deck to p
        if t != none {
          move t to pool
        }
        for c in both where c.rank < 4 {
          p.coins += c.rank
        }
        for q in o {
          q.coins += count(r)
        }
        if high != none {
          p.coins += high.rank
        }
        if ranks(p) < [3] or tag == Red {
          p.coins += 1
        }
        best = s
        log "{p}: {s}, {r}, {k}, {o}, {tag}"
        let kept = choose c in l + take(s, 1) where c.rank > 1 by p prompt "Keep one"
        let n = choose n in [1, 2, 3] where n != count(l) by p prompt "A number"
        p.coins += n
        choose by p prompt "Pass one?" {
          "yes" { move take(l, 1) to pool }
          "no" { p.coins += count(k) + count(best) }
        }
      }
    }
  }
  let most = max(p.coins for p in everyone)
  let leaders = filter(p in everyone where p.coins == most)
  win leaders "most coins"
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(checked.program.expect("the script checks"));
    assert!(lockstep_in(&p, "values", 3, 8, false) >= 40);
    assert!(lockstep_in(&p, "values", 3, 8, true) >= 40);
    let mut game = Game::new(p.clone(), config(3, 1, Engine::Closures));
    while let Status::Decision(_) = game.status() {
        game.apply(0).expect("an option");
    }
    assert!(game.counted().values >= 48, "{:?}", game.counted());
}

/// A check's body runs on the closures (segments.rs): Heart of Crown's, which calls a procedure
/// and tests functions' aggregates, compiles whole; the games are the walker's (below).
#[test]
fn the_checks_bodies_compile() {
    let p = program("games/heart-of-crown.cardgame");
    let closures = p.closures.clone().expect("closures are built");
    let check = p.checks.first().expect("a check").block;
    let (compiled, all) = closures.compiled_in(check);
    assert_eq!(compiled, all, "the check compiles whole");
    assert!(all >= 3);
}

/// Every script of games/ and examples/, in lockstep while nobody records (as in `sim`): its `for`
/// loops, inline calls and segments run on the closures and the games are the walker's.
#[test]
fn every_script_on_the_closures_is_the_walkers_game() {
    for (file, players, games) in [
        ("games/craft-the-crown.cardgame", 2, 1),
        ("games/crafty-explorers.cardgame", 2, 2),
        ("games/crayne.cardgame", 2, 2),
        ("games/heart-of-crown.cardgame", 2, 1),
        ("examples/forehead.cardgame", 3, 6),
        ("examples/monty-hall.cardgame", 2, 10),
        ("examples/sealed-crate.cardgame", 2, 6),
        ("examples/secret-bids.cardgame", 3, 6),
        ("examples/signals.cardgame", 2, 6),
        ("examples/two-piles.cardgame", 2, 10),
    ] {
        assert!(
            lockstep_recording(file, players, games, false) > 10,
            "{file}"
        );
    }
}

/// `for` loops on the closures: over players and a zone's cards, with a filter, nested, left by
/// `break`, and with a decision in the body (the walker's loop frame made at that item, resumed on
/// the closures after the decision).
#[test]
fn for_loops_on_the_closures_are_the_walkers() {
    let src = r#"
game "Loops" {
  players 3
}
property rank: int = 0
card "{r}" for r in 1..6 {
  rank r
}
zone deck: pile, hidden
zone hand per player: set
var coins per player shown: int = 0
var total shown: int = 0
flow {
  move box to deck
  shuffle deck
  for p in everyone {
    move top 2 of deck to p.hand
  }
  repeat 2 {
    for p in from(seat(2)) where p.coins < 9 {
      for c in p.hand where c.rank > 1 {
        p.coins += c.rank
        total += 1
        if c.rank == 5 {
          break
        }
      }
      for q in opponents(p) {
        if q.coins > p.coins {
          choose by p prompt "Take one?" {
            "yes" { p.coins += 1 }
            "no" { q.coins -= 1 }
          }
        }
        total += q.coins
      }
    }
  }
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(checked.program.expect("the script checks"));
    let mut asked = 0;
    for seed in 0..12 {
        let mut walker = Game::new(p.clone(), config(3, seed, Engine::Walker));
        let mut closures = Game::new(p.clone(), config(3, seed, Engine::Closures));
        walker.set_recording(seed % 2 == 0);
        closures.set_recording(seed % 2 == 0);
        let mut decisions = 0;
        loop {
            let (w, c) = (observed(&mut walker), observed(&mut closures));
            assert_eq!(
                w, c,
                "seed {seed}, decision {decisions}: the engines differ"
            );
            let Status::Decision(d) = walker.status() else {
                assert!(matches!(walker.status(), Status::Over(_)), "seed {seed}");
                break;
            };
            let i = (seed as usize + decisions) % d.options.len();
            walker.apply(i).expect("an option");
            closures.apply(i).expect("an option");
            decisions += 1;
        }
        asked += decisions;
        assert_eq!(closures.st.ctxs.len(), walker.st.ctxs.len(), "the contexts");
    }
    assert!(asked > 12, "decisions inside the loops: {asked}");
    let closures = p.closures.clone().expect("closures are built");
    let flow = p.flow.as_ref().expect("a flow").block;
    let (compiled, all) = closures.compiled_in(flow);
    assert_eq!((compiled, all), (4, 4), "the flow's loops compile");
}

/// Lists the closures walk without making them: `max` and `min` over cards of every player's
/// zone (`flatten`), `first` of a zone and of a filter, in compiled statements, against the walker.
#[test]
fn maxima_firsts_and_flattened_zones_on_the_closures_are_the_walkers() {
    let src = r#"
game "Highest" {
  players 2..4
}
property rank: int = 0
card "{r}" for r in 1..9 {
  rank r
}
zone deck: pile, hidden
zone hand per player: set, others
var coins per player shown: int = 0
var total shown: int = 0
fn best(): int = max(c.rank for c in flatten([p.hand for p in everyone]))
fn low(): int = min(c.rank for c in flatten(p.hand for p in everyone where p.coins < 90))
flow {
  move box to deck
  repeat 3 {
    shuffle deck
    for p in everyone {
      move top 2 of deck to p.hand
    }
    let w = first(filter(q in everyone where any(c in q.hand where c.rank == best())))
    w.coins += first(w.hand).rank
    total += low() + max(q.coins for q in everyone)
    for p in everyone {
      choose by p prompt "Keep your cards?" {
        "yes" { p.coins += 1 }
        "no" { move p.hand to deck }
      }
    }
    for p in everyone {
      move p.hand to deck
    }
  }
}
"#;
    let checked = crate::check::check_source(src);
    let p = std::sync::Arc::new(checked.program.expect("the script checks"));
    let closures = p.closures.clone().expect("closures are built");
    let flow = p.flow.as_ref().expect("a flow").block;
    let repeat = match p.blocks[flow.index()].stmts.get(1).map(|st| &st.kind) {
        Some(crate::program::StmtKind::Repeat(_, body)) => *body,
        other => panic!("the flow's repeat: {other:?}"),
    };
    assert_eq!(closures.compiled_in(repeat), (7, 7), "the round compiles");
    for players in 2..=4 {
        assert!(lockstep_in(&p, "highest", players, 6, false) > 20);
        assert!(lockstep_in(&p, "highest", players, 2, true) > 5);
    }
}
