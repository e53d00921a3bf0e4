//! Agents stage, strength of the search (`ismcts`), run on demand in release mode:
//! `cargo test --release --test all -- --ignored search_strength:: --nocapture --test-threads 1`.
//!
//! - In two-player games of each of the four games and Market Race, `ismcts` at the budget and
//!   play-out policy given per game here (300 iterations; play-outs by one of the script's strategies,
//!   which the search leaves only on evidence, or at random; Heart of Crown's follows its strategy's
//!   rules and searches the rest, `:strict`; Market Race's, 2,000 iterations, follows the rules of
//!   the rule set `plays`, searches the buys and plays out to the end by `money_actions`, in worlds dealt holder by
//!   holder, `:owners`) beats each of the game's
//!   written strategies (Market Race: the three it is not built from) and `greedy` in at least 60% of
//!   the games (seats alternated, a tie counts half), over 100 games, or fewer once
//!   the 95% interval's lower bound is above 50% (checked after every 10 games from 20 on).
//! - It beats the old `mcts:200` in at least 60% of the games of the three two-player examples.
//! - In Monty Hall, as the contestant, it makes the right choice (switch) in at least 90% of the
//!   decisions.
//!
//! Each check prints its games, rate, interval and the search's mean time per decision (one core, the
//! machine's load included).

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::sim::{game_seed, wilson};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The base seed of every check.
const SEED: u64 = 11;

fn program(path: &str) -> Arc<Program> {
    let src =
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("script");
    Arc::new(check_source(&src).program.expect("the script checks"))
}

/// One game: `a` in seat `index % 2`, `b` in the other. Returns `a`'s score (1 a win, 1/2 a shared
/// win or no winner, 0 a loss), and the time `a` spent deciding and its decisions with a choice.
fn play(program: &Arc<Program>, a: &str, b: &str, index: u64) -> (f64, Duration, u32) {
    let seed = game_seed(SEED, index);
    let seat = (index % 2) as u8;
    let mut game = Game::new(program.clone(), GameConfig::new(2, seed));
    game.set_recording(false);
    let mut agents = [
        make_agent(program, if seat == 0 { a } else { b }, seed, 0).expect("agent"),
        make_agent(program, if seat == 1 { a } else { b }, seed, 1).expect("agent"),
    ];
    let (mut spent, mut decisions) = (Duration::ZERO, 0);
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let started = Instant::now();
        let choice = agents[d.player as usize % 2].choose(&game, &d);
        if d.player == seat && d.options.len() > 1 {
            spent += started.elapsed();
            decisions += 1;
        }
        assert!(choice < d.options.len(), "an illegal option");
        if game.apply(choice).is_err() {
            break;
        }
    }
    let score = match game.status() {
        Status::Over(o) if o.winners.contains(&seat) => 1.0 / o.winners.len() as f64,
        Status::Over(o) if o.winners.is_empty() => 0.5,
        _ => 0.0,
    };
    (score, spent, decisions)
}

/// Plays `a` against `b` until 100 games, or from 20 games on (by tens) until the lower bound of the
/// 95% interval of `a`'s score is above 50%; checks that the score is at least `target`.
fn beats(path: &str, a: &str, b: &str, target: f64) {
    let p = program(path);
    let started = Instant::now();
    let (mut score, mut spent, mut decisions) = (0.0, Duration::ZERO, 0u32);
    let mut games = 0u64;
    while games < 100 {
        let (s, t, d) = play(&p, a, b, games);
        score += s;
        spent += t;
        decisions += d;
        games += 1;
        if games >= 20 && games.is_multiple_of(10) && wilson(score, games).1 > 0.5 {
            break;
        }
    }
    let (rate, low, high) = wilson(score, games);
    println!(
        "{path}: {a} against {b}: {score} of {games} games ({:.1}% [{:.1}-{:.1}]); {:.0} ms per \
         decision of {a}; {:.0} s",
        rate * 100.0,
        low * 100.0,
        high * 100.0,
        spent.as_secs_f64() * 1000.0 / f64::from(decisions.max(1)),
        started.elapsed().as_secs_f64()
    );
    assert!(
        rate >= target,
        "{path}: {a} scored {:.1}% against {b}; the target is {:.0}%",
        rate * 100.0,
        target * 100.0
    );
}

/// The search of the Monty Hall check: random play-outs.
const SEARCH: &str = "ismcts:300";

/// `search` (an `ismcts` spec) against each of the script's `strategies` and against `greedy`.
fn against_all(path: &str, search: &str, strategies: &[&str]) {
    for s in strategies {
        beats(path, search, &format!("strategy:{s}"), 0.6);
    }
    beats(path, search, "greedy", 0.6);
}

#[test]
#[ignore = "slow: run in release mode"]
fn heart_of_crown_search() {
    against_all(
        "games/heart-of-crown.cardgame",
        "ismcts:300:dearest_territory:strict",
        &["dearest_territory", "early_princess", "noble_flood"],
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn craft_the_crown_search() {
    against_all(
        "games/craft-the-crown.cardgame",
        "ismcts:300:craft_up",
        &["craft_up", "sell_for_gold", "crown"],
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn crayne_search() {
    against_all(
        "games/crayne.cardgame",
        "ismcts:300",
        &["warlord", "builder"],
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn crafty_explorers_search() {
    against_all(
        "games/crafty-explorers.cardgame",
        "ismcts:300:builder",
        &["builder", "harvester"],
    );
}

/// Market Race's search: the rules of the script's rule set `plays` play the cards, and the search decides the buys by
/// play-outs in which both seats play `money_actions` to the end of the game, in worlds where each
/// player's unseen cards stay that player's (`:owners`).
const MARKET_RACE: &str = "ismcts:2000:money_actions:end:strict=plays:owners";

#[test]
#[ignore = "slow: run in release mode"]
fn market_race_search() {
    against_all(
        "examples/market-race.cardgame",
        MARKET_RACE,
        &["big_money", "engine", "victory_rush"],
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn search_beats_the_old_mcts_on_market_race() {
    beats(
        "examples/market-race.cardgame",
        MARKET_RACE,
        "mcts:200",
        0.6,
    );
}

// Neither the duel nor the secret bids have a heuristic: the play-outs run to the end of the game.
#[test]
#[ignore = "slow: run in release mode"]
fn search_beats_the_old_mcts_on_the_duel() {
    beats(
        "examples/duel.cardgame",
        "ismcts:1000:random:end",
        "mcts:200",
        0.6,
    );
}

#[test]
#[ignore = "slow: run in release mode"]
fn search_beats_the_old_mcts_on_secret_bids() {
    beats(
        "examples/secret-bids.cardgame",
        "ismcts:300:random:end",
        "mcts:200",
        0.6,
    );
}

/// Monty Hall: the contestant (seat 1) is the search, the host plays at random; the right choice is to
/// switch, every time.
#[test]
#[ignore = "slow: run in release mode"]
fn monty_hall_search_switches() {
    let p = program("examples/monty-hall.cardgame");
    let games = 200;
    let mut switched = 0;
    for index in 0..games {
        let seed = game_seed(SEED, index);
        let mut game = Game::new(p.clone(), GameConfig::new(2, seed));
        let mut contestant = make_agent(&p, SEARCH, seed, 0).expect("agent");
        let mut host = make_agent(&p, "random", seed, 1).expect("agent");
        while let Status::Decision(d) = game.status() {
            let d = d.clone();
            let choice = if d.player == 0 {
                contestant.choose(&game, &d)
            } else {
                host.choose(&game, &d)
            };
            if d.options.iter().any(|o| o.starts_with("Switch"))
                && d.options[choice].starts_with("Switch")
            {
                switched += 1;
            }
            game.apply(choice).expect("applies");
        }
    }
    let rate = f64::from(switched) / games as f64;
    println!(
        "Monty Hall: {SEARCH} switched in {switched} of {games} final choices ({:.1}%)",
        rate * 100.0
    );
    assert!(
        rate >= 0.9,
        "{SEARCH} switched in {:.1}% of its final choices",
        rate * 100.0
    );
}
