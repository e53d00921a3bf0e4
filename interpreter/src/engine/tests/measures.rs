//! Engine stage: the script's measure of a seat (`fn heuristic`, else `fn score`), which `greedy`,
//! the search's judge and the features read, evaluated by the closures (closures/mod.rs,
//! `seat_value`), against the walker: every script played on both engines in lockstep, the
//! measure of every seat compared at every decision, and the expressions the walker evaluated
//! while the closures' game measured (`Counted::evaluated`) counted.

use super::oracle::{config, program};
use crate::engine::{Engine, Game, Status};

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
/// from the seed, at most `decisions` decisions a game), measuring every seat at every decision
/// with `script_score_here` on both; asserts that both measure alike, and answers how many
/// seats were measured and how many expressions the walker evaluated while the closures' game
/// measured.
fn measured(file: &str, players: u8, games: u64, decisions: usize) -> (u64, u64) {
    let p = program(file);
    let (mut seats, mut evaluated) = (0, 0);
    for seed in 0..games {
        let mut g = Game::new(p.clone(), config(players, seed, Engine::Closures));
        let mut w = Game::new(p.clone(), config(players, seed, Engine::Walker));
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..decisions {
            let Status::Decision(d) = g.status() else {
                break;
            };
            let n = d.options.len() as u64;
            for seat in 0..players {
                let before = g.counted().evaluated;
                let score = g.script_score_here(seat);
                evaluated += g.counted().evaluated - before;
                assert_eq!(score, w.script_score_here(seat), "{file}: seat {seat}");
                seats += 1;
            }
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let i = (pick % n) as usize;
            g.apply(i).expect("an option");
            w.apply(i).expect("an option");
        }
    }
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
