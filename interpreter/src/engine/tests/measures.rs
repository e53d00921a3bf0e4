//! Engine stage: what agents and strategies evaluate, by the closures against the walker: the
//! script's measure of a seat (`fn heuristic`, else `fn score`), which `greedy`, the search's judge
//! and the features read (closures/mod.rs, `seat_value`), and the conditions and `by`s of the
//! strategies' and rule sets' rules (closures/rules.rs). Every script is played on both engines in
//! lockstep, the measure of every seat and the pick of every strategy and rule set compared at
//! every decision, and the expressions the walker evaluated for the closures' game counted
//! (`Counted::evaluated`).

use super::oracle::{config, program};
use crate::engine::{Engine, Game, RulesOf, Status};

/// The scripts of games/ and examples/, each with a number of players it allows.
pub(super) const SCRIPTS: [(&str, u8); 12] = [
    ("examples/duel.cardgame", 2),
    ("examples/market-race.cardgame", 3),
    ("examples/secret-bids.cardgame", 3),
    ("examples/sealed-crate.cardgame", 2),
    ("examples/two-piles.cardgame", 2),
    ("examples/signals.cardgame", 2),
    ("examples/forehead.cardgame", 3),
    ("examples/monty-hall.cardgame", 2),
    ("games/heart-of-crown.cardgame", 2),
    ("games/craft-the-crown.cardgame", 2),
    ("games/crafty-explorers.cardgame", 4),
    ("games/crayne.cardgame", 3),
];

/// Plays `games` games of `file` on the closures and on the walker in lockstep (each choice drawn
/// from the seed, at most `decisions` decisions a game), calling `at` with the closures' game and
/// the walker's at every decision before the choice is applied to both.
fn lockstep(
    file: &str,
    players: u8,
    (games, decisions): (u64, usize),
    mut at: impl FnMut(&mut Game, &mut Game),
) {
    let p = program(file);
    for seed in 0..games {
        let mut g = Game::new(p.clone(), config(players, seed, Engine::Closures));
        let mut w = Game::new(p.clone(), config(players, seed, Engine::Walker));
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..decisions {
            let Status::Decision(d) = g.status() else {
                break;
            };
            let n = d.options.len() as u64;
            at(&mut g, &mut w);
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let i = (pick % n) as usize;
            g.apply(i).expect("an option");
            w.apply(i).expect("an option");
        }
    }
}

/// Measures every seat at every decision of [`lockstep`]'s games with `script_score_here` on both
/// engines; asserts that both measure alike, and answers how many seats were measured and how many
/// expressions the walker evaluated while the closures' game measured.
fn measured(file: &str, players: u8, games: u64, decisions: usize) -> (u64, u64) {
    let (mut seats, mut evaluated) = (0, 0);
    lockstep(file, players, (games, decisions), |g, w| {
        for seat in 0..players {
            let before = g.counted().evaluated;
            let score = g.script_score_here(seat);
            evaluated += g.counted().evaluated - before;
            assert_eq!(score, w.script_score_here(seat), "{file}: seat {seat}");
            seats += 1;
        }
    });
    (seats, evaluated)
}

/// Every script's measure is evaluated by the closures: the walker evaluates no expression of it
/// (before, every measure was the walker's: over these games, 79,112 expressions in Market Race
/// alone), and the closures' value is the walker's. A measure is pure in every script,
/// so `script_score_here` measures in the game itself, where its work is counted; a script
/// without a measure (Duel, Secret Bids, Monty Hall) measures nothing on either engine.
#[test]
fn scripts_measures_are_the_closures() {
    for (file, players) in SCRIPTS {
        let p = program(file);
        let g = Game::new(p.clone(), config(players, 1, Engine::Closures));
        let Some(f) = g.layout.measure else {
            assert_eq!(g.clone().script_score_here(0), None, "{file}");
            continue;
        };
        assert_eq!(p.pure_fns.get(f), Some(&true), "{file}: an impure measure");
        let closures = p.closures.as_deref().expect("closures");
        assert!(closures.seat_compiled(f), "{file}: the measure compiles");
        let (seats, evaluated) = measured(file, players, 10, 40);
        assert!(seats >= 30, "{file}: {seats} seats measured");
        assert_eq!(evaluated, 0, "{file}: evaluated by the walker");
    }
}

/// The rules of every strategy and rule set of `file`: (what they are, which rules' condition or
/// `by` did not compile, by index).
fn uncompiled(file: &str) -> Vec<(RulesOf, Vec<usize>)> {
    let p = program(file);
    let closures = p.closures.as_deref().expect("closures");
    let of = (0..p.strategies.len())
        .map(RulesOf::Strategy)
        .chain((0..p.rule_sets.len()).map(RulesOf::RuleSet));
    of.map(|of| {
        let rules = match of {
            RulesOf::Strategy(i) => &p.strategies[i].rules,
            RulesOf::RuleSet(i) => &p.rule_sets[i].rules,
        };
        let code = closures.rules(of).expect("compiled rules");
        let left = (rules.iter().zip(code).enumerate())
            .filter(|(_, (r, c))| c.whole(r) != (true, true))
            .map(|(i, _)| i)
            .collect();
        (of, left)
    })
    .collect()
}

/// At every decision of [`lockstep`]'s games every strategy and rule set of the script picks on
/// both engines, alike; answers how many picks were asked and how many expressions the walker
/// evaluated for the closures' game.
fn picked(file: &str, players: u8, games: u64, decisions: usize) -> (u64, u64) {
    let p = program(file);
    let of: Vec<RulesOf> = (0..p.strategies.len())
        .map(RulesOf::Strategy)
        .chain((0..p.rule_sets.len()).map(RulesOf::RuleSet))
        .collect();
    let (mut picks, mut walked) = (0, 0);
    lockstep(file, players, (games, decisions), |g, w| {
        for &of in &of {
            let (choice, evaluated) = g.rules_walked(of).expect("a pick");
            assert_eq!(choice, w.rules_pick(of).expect("a pick"), "{file}: {of:?}");
            picks += 1;
            walked += evaluated;
        }
    });
    (picks, walked)
}

/// Every strategy's and rule set's rules are the closures', and pick as the walker does. Every
/// rule's condition and `by` compiles: a function whose frame and its nested calls' do not fit
/// above the caller's is a callable in a frame of its own (functions.rs; Crayne's `atk_gain` and
/// `hurt`, Craft the Crown's `tool_gain_of` of 46 locals), a list of cards given a zone read as
/// `cards(k, l)` is the zone's word, a list made of words (`first([t.symbol for t in s.terrain
/// where t.face_up])`) is walked, and a function's word parameter may be given `none` (Crafty
/// Explorers' `sym_at(s)` of a space without a face-up tile, `top_card(t)` of an empty stack).
/// Over these games the walker evaluates no expression of them. Before, it evaluated every
/// rule's: Market Race 3,614, Heart of Crown 33,177, Craft the Crown 494,063, Crafty Explorers
/// 558,569, Crayne 103,106; and with the functions inlined alone (32 slots), 81 rules did not
/// compile (Craft the Crown 33, Crafty Explorers 10, Crayne 38), the walker evaluating Craft the
/// Crown's 16,860 expressions and Crafty Explorers' 500,021.
#[test]
fn scripts_rules_are_the_closures() {
    for ((file, players), (left, walks)) in SCRIPTS.into_iter().zip([
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
    ]) {
        let rules = uncompiled(file);
        let not: usize = rules.iter().map(|(_, l)| l.len()).sum();
        assert_eq!(not, left, "{file}: rules not compiled");
        let (picks, walked) = picked(file, players, 10, 40);
        assert_eq!(picks == 0, rules.is_empty(), "{file}: {picks} picks");
        assert_eq!(walked, walks, "{file}: evaluated by the walker");
    }
}
