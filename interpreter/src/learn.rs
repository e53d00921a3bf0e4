//! Learning stage: `cardgame learn`, an evaluation of positions fitted from self-play for any script.
//!
//! Learning runs in generations. Generation g plays games in which every seat is the `learned` agent
//! of the model so far (generation 0: a blank model, so random play), exploring a little; it records,
//! at the first decision of every turn, each seat's features (`agents/features.rs`, from that seat's
//! view) with the result that seat's side got at the end (its share of the win; where all players are
//! one team and nobody won, the shared score as a fraction of the best score seen; else one half). A
//! logistic model (`agents/model.rs`) is then fitted on every position recorded so far by stochastic
//! gradient descent on the cross-entropy, in an order shuffled by the seed. The new model then plays
//! the previous one (seats alternated; the new model's share of the result, ties half, with a Wilson
//! interval); where all players are one team, the new model plays alone and its mean result is
//! compared with the previous one's. The new model is kept when it scores at least one half (at least
//! the previous mean); learning stops after [`PATIENCE`] generations in a row whose score's interval
//! does not lie above one half (no measurable improvement), after the last generation allowed, or when
//! the time is up.
//!
//! Every game has its own seed (from the base seed, the generation and its index) and the games'
//! results are gathered in order, so the model is the same whatever the number of threads; a time
//! limit only decides how many generations run.

use crate::agents::{features::FeatureSet, Agent, Goals, LearnedAgent, Model};
use crate::engine::{Game, GameConfig, Status};
use crate::program::{OptionId, Program};
use crate::sim::{game_seed, wilson};
use crate::value::Value;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Generations in a row without a measurable improvement before learning stops.
pub const PATIENCE: u32 = 2;

/// How learning runs.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    pub players: u8,
    pub seed: u64,
    pub options: Vec<(OptionId, Value)>,
    pub max_turns: u32,
    /// Self-play games per generation.
    pub games: u64,
    /// Games of each match between two generations.
    pub match_games: u64,
    pub generations: u32,
    /// Stop after the generation that ends past this time.
    pub time: Option<Duration>,
    /// The chance that a self-play move is random.
    pub explore: f64,
    /// Worker threads (the model is the same for any number).
    pub jobs: usize,
}

impl LearnConfig {
    pub fn new(players: u8) -> LearnConfig {
        LearnConfig {
            players,
            seed: 1,
            options: Vec::new(),
            max_turns: crate::engine::DEFAULT_MAX_TURNS,
            games: 200,
            match_games: 100,
            generations: 8,
            time: None,
            explore: 0.1,
            jobs: 1,
        }
    }
}

/// What one generation did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Generation {
    pub generation: u32,
    pub games: u64,
    pub positions: usize,
    /// The new model's score against the previous (or, in a game of one team, its mean result).
    pub score: f64,
    pub low: f64,
    pub high: f64,
    /// The previous model's mean result alone (a game of one team), else one half.
    pub baseline: f64,
    pub improved: bool,
    pub seconds: f64,
}

/// One recorded position: a seat's features and the result its side got.
struct Position {
    x: Vec<f64>,
    /// The seat's share of the win, or `None` when nobody won (see `score`).
    share: Option<f64>,
    /// The seat's standing by the script's measure at the end (for games of one team).
    score: f64,
}

/// A finished self-play game: its positions and the game's length in turns.
struct Played {
    positions: Vec<Position>,
    turns: u32,
    /// Each seat's result (shares, else the target of a game nobody won).
    results: Vec<Option<f64>>,
    scores: Vec<f64>,
}

fn config(lc: &LearnConfig, seed: u64) -> GameConfig {
    let mut c = GameConfig::new(lc.players, seed);
    c.options = lc.options.clone();
    c.max_turns = lc.max_turns;
    c.record = false;
    c
}

/// Plays one game with `agents` (one per seat), recording the positions when `features` is given.
fn play(
    program: &Arc<Program>,
    lc: &LearnConfig,
    seed: u64,
    agents: &mut [Box<dyn Agent>],
    features: Option<&FeatureSet>,
) -> Played {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let mut rows: Vec<(u8, Vec<f64>)> = Vec::new();
    let mut last_turn = u32::MAX;
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        if let Some(f) = features {
            if game.turns() != last_turn {
                last_turn = game.turns();
                for s in 0..lc.players {
                    let mut x = Vec::new();
                    f.extract(&game, s, &mut x);
                    rows.push((s, x));
                }
            }
        }
        let i = match agents.get_mut(d.player as usize) {
            Some(a) => a.choose(&game, &d),
            None => 0,
        };
        if game.apply(i).is_err() {
            break;
        }
    }
    let goals = Goals::of(&game);
    let n = lc.players as usize;
    let shares = match game.status() {
        Status::Over(o) => goals.shares(o),
        _ => None,
    };
    let scores = goals.standings(&mut game).unwrap_or_else(|| vec![0.0; n]);
    let results: Vec<Option<f64>> = (0..n)
        .map(|s| shares.as_ref().and_then(|v| v.get(s).copied()))
        .collect();
    let positions = rows
        .into_iter()
        .map(|(s, x)| Position {
            x,
            share: results.get(s as usize).copied().flatten(),
            score: scores.get(s as usize).copied().unwrap_or(0.0),
        })
        .collect();
    Played {
        positions,
        turns: game.turns(),
        results,
        scores,
    }
}

/// The target of a position: its share of the win; where nobody won, the score over the best score
/// (a game of one team) or one half.
fn target(share: Option<f64>, score: f64, shared: bool, best: f64) -> f64 {
    match share {
        Some(s) => s,
        None if shared && best > 0.0 => (score / best).clamp(0.0, 1.0),
        None if shared => 0.0,
        None => 0.5,
    }
}

/// Fits `model` on `data` (standardising the features over it), `epochs` passes of stochastic
/// gradient descent in an order shuffled by `seed`.
fn fit(model: &mut Model, data: &[(Vec<f64>, f64)], turns: f64, seed: u64) {
    let n = model.names.len();
    if data.is_empty() {
        return;
    }
    let rows = data.len() as f64;
    for i in 0..n {
        let mean = data.iter().map(|(x, _)| x[i]).sum::<f64>() / rows;
        let var = data.iter().map(|(x, _)| (x[i] - mean).powi(2)).sum::<f64>() / rows;
        model.mean[i] = mean;
        model.spread[i] = var.sqrt().max(1e-6);
    }
    model.turns = turns.max(1.0);
    model.w.iter_mut().for_each(|w| *w = 0.0);
    model.u.iter_mut().for_each(|u| *u = 0.0);
    let inputs: Vec<(Vec<f64>, f64, f64)> = data
        .iter()
        .map(|(x, y)| {
            let (z, t) = model.inputs(x);
            (z, t, *y)
        })
        .collect();
    let mean_y = data.iter().map(|(_, y)| y).sum::<f64>() / rows;
    let clamped = mean_y.clamp(0.01, 0.99);
    model.bias = (clamped / (1.0 - clamped)).ln();
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (epochs, l2) = (10, 1e-4);
    for epoch in 0..epochs {
        order.shuffle(&mut rng);
        let rate = 0.02 / (1.0 + f64::from(epoch));
        for &r in &order {
            let (z, t, y) = &inputs[r];
            let p = crate::agents::model::sigmoid(model.logit(z, *t));
            let g = p - y;
            model.bias -= rate * g;
            for ((w, u), z) in model.w.iter_mut().zip(model.u.iter_mut()).zip(z) {
                *w -= rate * (g * z + l2 * *w);
                *u -= rate * (g * z * t + l2 * *u);
            }
        }
    }
}

/// Plays `games` games of `new` against `old` (seats alternated: the new model in seat `k % players`
/// of game k, the old one elsewhere), or, where all players are one team, of `new` alone. Returns
/// the new model's total score and each game's.
fn match_up(
    program: &Arc<Program>,
    lc: &LearnConfig,
    base: u64,
    new: &Arc<Model>,
    old: &Arc<Model>,
    (shared, best): (bool, f64),
    tick: &(dyn Fn() + Sync),
) -> Vec<f64> {
    (0..lc.match_games)
        .into_par_iter()
        .map(|k| {
            let seed = game_seed(base, k);
            let seat = (k % u64::from(lc.players)) as usize;
            let mut agents: Vec<Box<dyn Agent>> = (0..lc.players)
                .map(|s| {
                    let m = if shared || s as usize == seat {
                        new
                    } else {
                        old
                    };
                    Box::new(LearnedAgent::new(m.clone(), seed ^ u64::from(s), 0.0))
                        as Box<dyn Agent>
                })
                .collect();
            let played = play(program, lc, seed, &mut agents, None);
            tick();
            let share = played.results.get(seat).copied().flatten();
            let score = played.scores.get(seat).copied().unwrap_or(0.0);
            target(share, score, shared, best)
        })
        .collect()
}

/// Learns a model of `program` by self-play (see the module's notes). `script` is the script's
/// hash; `on_generation` hears of each generation as it ends, `tick` of each game played.
pub fn learn(
    program: Arc<Program>,
    script: String,
    lc: &LearnConfig,
    on_generation: &mut dyn FnMut(&Generation),
    tick: &(dyn Fn() + Sync),
) -> Result<Model, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(lc.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    Ok(learn_in_pool(
        &pool,
        program,
        script,
        lc,
        on_generation,
        tick,
    ))
}

fn learn_in_pool(
    pool: &rayon::ThreadPool,
    program: Arc<Program>,
    script: String,
    lc: &LearnConfig,
    on_generation: &mut dyn FnMut(&Generation),
    tick: &(dyn Fn() + Sync),
) -> Model {
    let started = Instant::now();
    let blank = Model::blank(&program, script, lc.players);
    let Some(features) = blank.features().cloned() else {
        return blank;
    };
    let shared = Goals::of(&Game::new(program.clone(), config(lc, lc.seed))).shared();
    let mut current = Arc::new(blank);
    let mut data: Vec<Played> = Vec::new();
    let mut baseline: Option<f64> = None;
    let mut misses = 0;
    for generation in 1..=lc.generations.max(1) {
        let gen_started = Instant::now();
        let base = game_seed(lc.seed, u64::from(generation));
        let played: Vec<Played> = pool.install(|| {
            (0..lc.games)
                .into_par_iter()
                .map(|k| {
                    let seed = game_seed(base, k);
                    let mut agents: Vec<Box<dyn Agent>> = (0..lc.players)
                        .map(|s| {
                            Box::new(LearnedAgent::new(
                                current.clone(),
                                seed ^ (u64::from(s) << 32),
                                lc.explore,
                            )) as Box<dyn Agent>
                        })
                        .collect();
                    let p = play(&program, lc, seed, &mut agents, Some(&features));
                    tick();
                    p
                })
                .collect()
        });
        data.extend(played);
        let best = data
            .iter()
            .flat_map(|p| p.scores.iter().copied())
            .fold(0.0, f64::max);
        let rows: Vec<(Vec<f64>, f64)> = data
            .iter()
            .flat_map(|p| p.positions.iter())
            .map(|q| (q.x.clone(), target(q.share, q.score, shared, best)))
            .collect();
        let turns = data.iter().map(|p| f64::from(p.turns)).sum::<f64>() / data.len().max(1) as f64;
        let mut next = (*current).clone();
        fit(&mut next, &rows, turns, base);
        let next = Arc::new(next);
        let match_base = game_seed(base, u64::MAX);
        let scores = match_up(
            &program,
            lc,
            match_base,
            &next,
            &current,
            (shared, best),
            tick,
        );
        let games = scores.len() as u64;
        let total: f64 = scores.iter().sum();
        let (score, low, high, previous) = if shared {
            let previous = match baseline {
                Some(b) => b,
                None => {
                    let old = pool.install(|| {
                        match_up(
                            &program,
                            lc,
                            match_base,
                            &current,
                            &current,
                            (shared, best),
                            tick,
                        )
                    });
                    old.iter().sum::<f64>() / old.len().max(1) as f64
                }
            };
            let mean = total / games.max(1) as f64;
            let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>()
                / (games.saturating_sub(1)).max(1) as f64;
            let half = 1.96 * (var / games.max(1) as f64).sqrt();
            (mean, mean - half, mean + half, previous)
        } else {
            let (p, lo, hi) = wilson(total, games);
            (p, lo, hi, 0.5)
        };
        let improved = low > previous;
        on_generation(&Generation {
            generation,
            games: lc.games,
            positions: rows.len(),
            score,
            low,
            high,
            baseline: previous,
            improved,
            seconds: gen_started.elapsed().as_secs_f64(),
        });
        if score >= previous {
            current = next;
            baseline = Some(score);
        }
        misses = if improved { 0 } else { misses + 1 };
        if misses >= PATIENCE || lc.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
    }
    Arc::try_unwrap(current).unwrap_or_else(|m| (*m).clone())
}
