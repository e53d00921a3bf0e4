//! Agents stage, strength checks (run on demand, in release mode:
//! `cargo test --release --test all -- --ignored strength:: --nocapture`): in two-player games of each of the
//! four games, seats alternated and seeds fixed, `mcts:200` must beat `random` in at least 90% of the
//! games and `greedy` in at least 70%. A game won by both, won by nobody or stopped at the turn limit
//! counts as not won. Each check prints its measured rate and run time. Two examples are checked the
//! same way (Market Race with both agents, Duel with `mcts:200`). Every strategy written in a script
//! (`--agents strategy:NAME`), each one the script declares, must beat `random` in at least 95% of
//! 200 games in the four games, 90% in Market Race (a script's rule sets, `rules NAME { ... }`, are not
//! players and are not checked).

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::sim::game_seed;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The base seed of every check.
const SEED: u64 = 7;

fn program(path: &str) -> Arc<Program> {
    let src =
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("script");
    Arc::new(check_source(&src).program.expect("the script checks"))
}

/// Plays game `index`: `agent` sits in seat `index % 2`, `random` in the other. True when `agent` alone
/// won by the rules.
fn agent_wins(program: &Arc<Program>, agent: &str, index: u64) -> bool {
    let seed = game_seed(SEED, index);
    let seat = (index % 2) as u8;
    let mut game = Game::new(program.clone(), GameConfig::new(2, seed));
    game.set_recording(false);
    let mut agents = [
        make_agent(program, if seat == 0 { agent } else { "random" }, seed, 0).expect("agent"),
        make_agent(program, if seat == 1 { agent } else { "random" }, seed, 1).expect("agent"),
    ];
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let choice = agents[d.player as usize % 2].choose(&game, &d);
        assert!(choice < d.options.len(), "{agent} chose an illegal option");
        if game.apply(choice).is_err() {
            break;
        }
    }
    match game.status() {
        Status::Over(o) => o.finished && o.winners == [seat],
        _ => false,
    }
}

/// Plays `games` games on two threads and checks that `agent` won at least `target` of them.
fn strength(path: &str, agent: &str, games: u64, target: f64) {
    let p = program(path);
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let wins = AtomicU64::new(0);
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(2);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                if agent_wins(&p, agent, i) {
                    wins.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    let wins = wins.load(Ordering::Relaxed);
    let rate = wins as f64 / games as f64;
    println!(
        "{path}: {agent} beat random in {wins} of {games} games ({:.1}%), {:.0} s",
        rate * 100.0,
        started.elapsed().as_secs_f64()
    );
    assert!(
        rate >= target,
        "{path}: {agent} won {:.1}% of its games against random; the target is {:.0}%",
        rate * 100.0,
        target * 100.0
    );
}

const GREEDY_GAMES: u64 = 100;
const MCTS_GAMES: u64 = 40;

#[test]
#[ignore = "slow: run in release mode"]
fn heart_of_crown_greedy() {
    strength("games/heart-of-crown.cardgame", "greedy", GREEDY_GAMES, 0.7);
}

#[test]
#[ignore = "slow: run in release mode"]
fn heart_of_crown_mcts() {
    strength("games/heart-of-crown.cardgame", "mcts:200", MCTS_GAMES, 0.9);
}

#[test]
#[ignore = "slow: run in release mode"]
fn craft_the_crown_greedy() {
    strength(
        "games/craft-the-crown.cardgame",
        "greedy",
        GREEDY_GAMES,
        0.7,
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn craft_the_crown_mcts() {
    strength(
        "games/craft-the-crown.cardgame",
        "mcts:200",
        MCTS_GAMES,
        0.9,
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn crayne_greedy() {
    strength("games/crayne.cardgame", "greedy", GREEDY_GAMES, 0.7);
}

#[test]
#[ignore = "slow: run in release mode"]
fn crayne_mcts() {
    strength("games/crayne.cardgame", "mcts:200", MCTS_GAMES, 0.9);
}

#[test]
#[ignore = "slow: run in release mode"]
fn crafty_explorers_greedy() {
    strength(
        "games/crafty-explorers.cardgame",
        "greedy",
        GREEDY_GAMES,
        0.7,
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn crafty_explorers_mcts() {
    strength(
        "games/crafty-explorers.cardgame",
        "mcts:200",
        MCTS_GAMES,
        0.9,
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn market_race_greedy() {
    strength("examples/market-race.cardgame", "greedy", GREEDY_GAMES, 0.7);
}

#[test]
#[ignore = "slow: run in release mode"]
fn market_race_mcts() {
    strength("examples/market-race.cardgame", "mcts:200", MCTS_GAMES, 0.9);
}

#[test]
#[ignore = "slow: run in release mode"]
fn duel_mcts() {
    strength("examples/duel.cardgame", "mcts:200", MCTS_GAMES, 0.9);
}

const STRATEGY_GAMES: u64 = 200;

/// Every strategy the script declares beats `random` in at least `rate` of the games: 95% for the four
/// games' strategies (each plays every kind of decision its game asks), 90% for Market Race's.
fn every_strategy(path: &str, rate: f64) {
    let p = program(path);
    assert!(!p.strategies.is_empty(), "{path} declares no strategy");
    for s in &p.strategies {
        strength(path, &format!("strategy:{}", s.name), STRATEGY_GAMES, rate);
    }
}

#[test]
#[ignore = "slow: run in release mode"]
fn market_race_strategies() {
    every_strategy("examples/market-race.cardgame", 0.9);
}

#[test]
#[ignore = "slow: run in release mode"]
fn heart_of_crown_strategies() {
    every_strategy("games/heart-of-crown.cardgame", 0.95);
}

#[test]
#[ignore = "slow: run in release mode"]
fn craft_the_crown_strategies() {
    every_strategy("games/craft-the-crown.cardgame", 0.95);
}

#[test]
#[ignore = "slow: run in release mode"]
fn crayne_strategies() {
    every_strategy("games/crayne.cardgame", 0.95);
}

#[test]
#[ignore = "slow: run in release mode"]
fn crafty_explorers_strategies() {
    every_strategy("games/crafty-explorers.cardgame", 0.95);
}
