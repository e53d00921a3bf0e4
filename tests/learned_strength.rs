//! Agents and learning stages, the bar for a learned model (issue 41, point 6), run on demand
//! in release mode: `cargo test --release --test all -- --ignored learned_strength:: --nocapture
//! --test-threads 1`.
//!
//! For Market Race (`examples/`) and each of the four published games (`games/`), two players: `cardgame learn` for at most 10
//! minutes on one core (`--time 9m`: the evaluation's generations on cheap players' games, then the
//! search's generations, which fit the evaluation again on the search's own games where that predicts
//! them better and the prior over options; no generation starts that would end past the limit, were
//! it as long as the last), then `search:50ms` with the model plays 200 games (seats alternated, a tie counts half) against each of the script's written
//! strategies, against `greedy` and against `search:50ms` without the model, and must score at least
//! 60% in each. Each check prints the learning's generations and time, then every line-up's score
//! with its 95% Wilson interval and the mean time per decision of both sides (two games at a time,
//! the machine's load included: a time budget gives fewer iterations on a loaded machine).

use cardgame_interpreter::agents::{make_agent_with, script_hash, Agent, Model};
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::learn::{learn, LearnConfig};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::sim::{game_seed, wilson};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The base seed of every game.
const SEED: u64 = 17;
/// Games per line-up.
const GAMES: u64 = 200;
/// The bar: the least score of the search with the model in every line-up.
const BAR: f64 = 0.6;

/// The agent `spec`, judged by `model` where it is `search` or `learned`.
fn agent(
    program: &Program,
    spec: &str,
    seed: u64,
    seat: u8,
    model: Option<&Arc<Model>>,
) -> Box<dyn Agent> {
    make_agent_with(program, spec, seed, seat, model).expect("agent")
}

/// One game: `a` (with `model`) in seat `index % 2`, `b` in the other (with the model only when
/// `b_model`). Returns `a`'s score and both sides' thinking time and decisions with a choice.
fn play(
    program: &Arc<Program>,
    (a, b): (&str, &str),
    (model, b_model): (&Arc<Model>, bool),
    index: u64,
) -> (f64, [(Duration, u32); 2]) {
    let seed = game_seed(SEED, index);
    let seat = (index % 2) as u8;
    let mut config = GameConfig::new(2, seed);
    config.record = false;
    let mut game = Game::new(program.clone(), config);
    let b_model = b_model.then_some(model);
    let mut agents = [0u8, 1].map(|s| {
        if s == seat {
            agent(program, a, seed, s, Some(model))
        } else {
            agent(program, b, seed, s, b_model)
        }
    });
    let mut spent = [(Duration::ZERO, 0u32); 2];
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let started = Instant::now();
        let choice = agents[d.player as usize % 2].choose(&game, &d);
        if d.options.len() > 1 {
            let side = usize::from(d.player != seat);
            spent[side].0 += started.elapsed();
            spent[side].1 += 1;
        }
        if game.apply(choice).is_err() {
            break;
        }
    }
    let score = match game.status() {
        Status::Over(o) if o.winners.contains(&seat) => 1.0 / o.winners.len() as f64,
        Status::Over(o) if o.winners.is_empty() => 0.5,
        _ => 0.0,
    };
    (score, spent)
}

/// Learns `path` for at most 10 minutes on one core, then checks the bar against every opponent.
fn bar(path: &str) {
    let src =
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("script");
    let program = Arc::new(check_source(&src).program.expect("the script checks"));
    let mut lc = LearnConfig::new(2);
    lc.seed = SEED;
    lc.jobs = 1;
    lc.generations = 50;
    lc.time = Some(Duration::from_secs(9 * 60));
    let started = Instant::now();
    let model = learn(
        program.clone(),
        script_hash(&src),
        &lc,
        &mut |g| {
            println!(
                "{path}: {} generation {}: held-out loss {:.3} (against {:.3}){}; against the \
                 previous {:.1}% [{:.1}-{:.1}]; {:.0} s",
                g.stage.name(),
                g.generation,
                g.fit.loss,
                g.fit.constant,
                g.evaluation.as_ref().map_or(String::new(), |e| format!(
                    "; evaluation {} ({:.3} on the search's held-out positions)",
                    e.source.name(),
                    e.fit.loss
                )),
                g.score * 100.0,
                g.low * 100.0,
                g.high * 100.0,
                g.seconds
            )
        },
        &|| {},
    )
    .expect("learns");
    let learning = started.elapsed();
    println!(
        "{path}: learned in {:.0} s on one core",
        learning.as_secs_f64()
    );
    assert!(
        learning < Duration::from_secs(600),
        "learning took {learning:?}"
    );
    let model = Arc::new(model);
    let mut opponents: Vec<(String, bool)> = program
        .strategies
        .iter()
        .map(|s| (format!("strategy:{}", s.name), false))
        .collect();
    opponents.push(("greedy".into(), false));
    opponents.push(("search:50ms".into(), false));
    let mut failures = Vec::new();
    for (b, b_model) in &opponents {
        // Two games at a time, one a thread.
        let results: Vec<(f64, [(Duration, u32); 2])> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..2u64)
                .map(|j| {
                    let (program, model) = (&program, &model);
                    scope.spawn(move || {
                        (j..GAMES)
                            .step_by(2)
                            .map(|k| play(program, ("search:50ms", b), (model, *b_model), k))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            threads
                .into_iter()
                .flat_map(|t| t.join().expect("a thread of games"))
                .collect()
        });
        let score: f64 = results.iter().map(|r| r.0).sum();
        let per = |side: usize| {
            let (t, n) = results.iter().fold((Duration::ZERO, 0u32), |acc, r| {
                (acc.0 + r.1[side].0, acc.1 + r.1[side].1)
            });
            t.as_secs_f64() * 1000.0 / f64::from(n.max(1))
        };
        let (rate, low, high) = wilson(score, GAMES);
        println!(
            "{path}: search:50ms with the model against {b}: {score} of {GAMES} ({:.1}% \
             [{:.1}-{:.1}]); {:.1} ms a decision, {b} {:.1} ms",
            rate * 100.0,
            low * 100.0,
            high * 100.0,
            per(0),
            per(1)
        );
        if rate < BAR {
            failures.push(format!("{b}: {:.1}%", rate * 100.0));
        }
    }
    assert!(
        failures.is_empty(),
        "{path}: search:50ms with the model is below {:.0}% against {}",
        BAR * 100.0,
        failures.join(", ")
    );
}

#[test]
#[ignore = "slow (about an hour): run in release mode"]
fn market_race_learned_search_meets_the_bar() {
    bar("examples/market-race.cardgame");
}

#[test]
#[ignore = "slow (about an hour): run in release mode"]
fn crayne_learned_search_meets_the_bar() {
    bar("games/crayne.cardgame");
}

#[test]
#[ignore = "slow (about an hour): run in release mode"]
fn heart_of_crown_learned_search_meets_the_bar() {
    bar("games/heart-of-crown.cardgame");
}

#[test]
#[ignore = "slow (about an hour): run in release mode"]
fn craft_the_crown_learned_search_meets_the_bar() {
    bar("games/craft-the-crown.cardgame");
}

#[test]
#[ignore = "slow (about an hour): run in release mode"]
fn crafty_explorers_learned_search_meets_the_bar() {
    bar("games/crafty-explorers.cardgame");
}
