//! Learning stage: `cardgame learn`, an evaluation of positions fitted from self-play for any script.
//!
//! Learning runs in generations. Generation g plays games (1,000 by default) in which every seat is
//! a cheap player, so that a few minutes on one core see thousands of games: the `learned` agent of
//! the model so far (one step of look-ahead judged by it; generation 1: `greedy`, one step judged by
//! the script's measure), exploring (10% random moves). It records each seat's features
//! (`agents/features.rs`, from that seat's possible world) at the first decision of every turn, and
//! the decider's at a quarter of the decisions with a choice, with the result that seat's side got
//! at the end (its share of the win; where all players are one team and nobody won, the shared score
//! as a fraction of the best score seen; else one half). A logistic model (`agents/model.rs`) is then
//! fitted on the positions of the last [`WINDOW`] generations by stochastic gradient descent on the
//! cross-entropy, in an order shuffled by the seed; the features that never varied in them are left
//! out of it. The new model's player then plays the previous one's (seats alternated; the new model's
//! share of the result, ties half, with a Wilson interval); where all players are one team, the new
//! model plays alone and its mean result is compared with the previous one's. The new model is kept
//! when it scores at least one half (at least the previous mean), the first one also where its
//! interval reaches one half (not worse than the first players: a blank model would judge every
//! position one half, and the play-out policy imitates the kept model's player); learning stops after [`PATIENCE`]
//! generations in a row whose score's interval does not lie above one half (no measurable
//! improvement), after the first generation where its model scores below one half against the first
//! players (the play-out policy then gets its time), after the last generation allowed, or before a
//! generation that would end past the time (were it as long as the last one).
//!
//! Then the play-out policy over the options' labels is fitted to the choices of the evaluation's
//! player (`learn/moves.rs`), a match says whether the search plays out to the end by it
//! (`learn/playouts.rs`), and, in the time left, the search's generations (`learn/prior.rs`) play `search` against
//! itself, fit the evaluation again on the outcomes of its games where that predicts them better,
//! and fit the prior over options to its choices.
//!
//! Every game has its own seed (from the base seed, the generation and its index) and the games'
//! results are gathered in order, so the model is the same whatever the number of threads; a time
//! limit only decides how many generations run.

use crate::agents::{features::FeatureSet, Agent, Goals, GreedyAgent, LearnedAgent, Model};
use crate::engine::{Decision, Game, GameConfig, Status};
use crate::program::{OptionId, Program};
use crate::sim::{game_seed, wilson};
use crate::value::Value;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod fit;
mod moves;
mod playouts;
mod policy;
mod selfplay;
pub use fit::Fit;
use fit::{descend, fit, loss, Row, Sample};
mod prior;
pub use moves::PolicyReads;
pub use playouts::{match_search, MATCH_POSITIONS};
pub use prior::{Evaluation, Source, ITERATIONS as PRIOR_ITERATIONS};
pub use selfplay::{ROUNDS as POLICY_ROUNDS, ROUND_GAMES as POLICY_ROUND_GAMES};

/// The hidden units of the play-out policy that reads the position, by default (`--policy-units`).
pub const POLICY_UNITS: usize = 16;

/// The least share of `--time` the evaluation's generations may take when a prior is learned after
/// them.
pub const EVALUATION_SHARE: f64 = 0.5;

/// The share of `--time` the evaluation's generations leave at least to the play-out policy and the
/// matches after them.
pub const POLICY_SHARE: f64 = 0.4;

/// The share of the time left after the evaluation that the play-out policy leaves to the matches
/// that say how the search uses the model (`learn/playouts.rs`).
pub const MATCH_SHARE: f64 = 0.5;

/// Generations in a row without a measurable improvement before learning stops.
pub const PATIENCE: u32 = 2;

/// Games of a generation of the evaluation (and of its match) in a batch, the first batch of
/// [`FIRST_BATCH`]. A batch of the games starts only if it would end within [`FIRST_SHARE`] of the
/// evaluation's time (the first generation) or [`PLAY_SHARE`] of it (the others, which also stop
/// before a generation that would end past it); a batch of the match, within the evaluation's time.
const FIRST_BATCH: u64 = 10;
const GAME_BATCH: u64 = 100;
const FIRST_SHARE: f64 = 0.5;
const PLAY_SHARE: f64 = 0.8;

/// The generations whose positions the next fit reads (the latest ones: older games were played by
/// weaker players).
pub const WINDOW: usize = 3;

/// The chance that a decision with a choice records its decider's position (besides every seat's at
/// the first decision of each turn).
pub const RECORD: f64 = 0.25;

/// The player of self-play and of the matches between generations, cheap so that a few minutes see
/// thousands of games: the `learned` agent of `model` (one step of look-ahead judged by the model),
/// or, for the blank model, `greedy` (one step judged by the script's measure, at random where the
/// script has none), taking a random option with the chance `explore`.
fn player(model: Option<&Arc<Model>>, seed: u64, explore: f64) -> Box<dyn Agent> {
    match model {
        Some(m) => Box::new(LearnedAgent::new(m.clone(), seed, explore)),
        None => Box::new(Exploring {
            inner: GreedyAgent::new(seed),
            rng: ChaCha8Rng::seed_from_u64(seed.rotate_left(7) ^ 0x5EED),
            explore,
        }),
    }
}

/// A player that takes a random option with a small chance, else greedy's.
struct Exploring {
    inner: GreedyAgent,
    rng: ChaCha8Rng,
    explore: f64,
}

impl Agent for Exploring {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        let n = decision.options.len();
        if n > 1 && self.explore > 0.0 && self.rng.gen_bool(self.explore.clamp(0.0, 1.0)) {
            return self.rng.gen_range(0..n);
        }
        self.inner.choose(game, decision)
    }
    fn name(&self) -> String {
        self.inner.name()
    }
}

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
    /// Stop before a generation that would end past this time (were it as long as the last).
    pub time: Option<Duration>,
    /// The chance that a self-play move is random.
    pub explore: f64,
    /// Worker threads (the model is the same for any number).
    pub jobs: usize,
    /// Generations of the prior over options after the evaluation's (0: none, the evaluation's own
    /// preference stays the prior).
    pub prior_generations: u32,
    /// Self-play games of the search per prior generation (and games of its match).
    pub prior_games: u64,
    /// Iterations per decision of the search in the prior generations.
    pub search_iterations: u32,
    /// Rounds of the play-out policy's own self-play after it is fitted (`learn/moves.rs`).
    pub policy_rounds: u32,
    /// What the play-out policy reads beside its moves and the progress (`learn/moves.rs`).
    pub policy_reads: PolicyReads,
    /// The hidden units of the play-out policy that reads the position (0: none, its moves weigh
    /// the features themselves; `learn/policy.rs`).
    pub policy_units: usize,
    /// Whether the play-out policy weighs the options' parts beside their labels
    /// (`Game::option_parts`, `agents/moves.rs`).
    pub policy_parts: bool,
}

impl LearnConfig {
    pub fn new(players: u8) -> LearnConfig {
        LearnConfig {
            players,
            seed: 1,
            options: Vec::new(),
            max_turns: crate::engine::DEFAULT_MAX_TURNS,
            games: 1000,
            match_games: 200,
            generations: 8,
            time: None,
            explore: 0.1,
            jobs: 1,
            prior_generations: 8,
            prior_games: 100,
            search_iterations: prior::ITERATIONS,
            policy_rounds: selfplay::ROUNDS,
            policy_reads: PolicyReads::Auto,
            policy_units: POLICY_UNITS,
            policy_parts: true,
        }
    }
}

/// What a generation learned (in JSON, its name in lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The evaluation of positions.
    Evaluation,
    /// The play-out policy: `positions` are its decisions, `fit` its held-out cross-entropy against
    /// a uniform choice's, `score` how often its most likely option is the one its player took
    /// (generation 1), then each refined policy's score against its fitted one (generation 2, and
    /// 3 for the one that reads the position where both are learned: `--policy-reads auto`).
    Moves,
    /// The matches that choose how the search uses the model (`learn/playouts.rs`): generation 1
    /// play-outs to the end against cut at the next turn (`kept`: to the end), generation 2 the
    /// setting so chosen against the search without the model (`kept`: the model kept), generation 3
    /// (where the script has a measure) the setting so chosen against the search without a model
    /// and without play-outs (`kept`: the setting held). `score` is
    /// the first setting's (its mean result where all players are one team), `baseline` the second's.
    Playouts,
    /// The prior over options.
    Prior,
    /// The match between the refined play-out policy that reads the position (`score`) and the one
    /// of the progress alone (`baseline`: one half, or its mean result where all players are one
    /// team); `kept`: the first.
    Reads,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Evaluation => "evaluation",
            Stage::Moves => "moves",
            Stage::Playouts => "playouts",
            Stage::Prior => "prior",
            Stage::Reads => "reads",
        }
    }
}

/// What one generation did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Generation {
    /// What the generation learned.
    pub stage: Stage,
    pub generation: u32,
    pub games: u64,
    pub positions: usize,
    /// The counts of the position the play-out policy reads (stages `moves` and `reads`), else 0.
    pub reads: usize,
    /// The new model's score against the previous (or, in a game of one team, its mean result).
    pub score: f64,
    pub low: f64,
    pub high: f64,
    /// The previous model's mean result alone (a game of one team), else one half.
    pub baseline: f64,
    pub improved: bool,
    /// Whether the new model (or prior) was kept.
    pub kept: bool,
    /// How the new model predicts the results of held-out positions (in a prior generation: the
    /// search's visits of held-out decisions).
    pub fit: Fit,
    /// In a prior generation: where the evaluation was fitted, and how it predicts the results of
    /// held-out positions of the search's games.
    pub evaluation: Option<prior::Evaluation>,
    /// In a match of stage `playouts`: the setting so far and its challenger.
    pub matched: Option<[crate::agents::Playouts; 2]>,
    pub seconds: f64,
}

/// One recorded position: a seat's features and the result its side got.
struct Position {
    /// Every feature of the script (single precision: thousands of games are kept).
    x: Vec<f32>,
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
    /// Whether all players were one team where the game ended.
    shared: bool,
}

fn config(lc: &LearnConfig, seed: u64) -> GameConfig {
    let mut c = GameConfig::new(lc.players, seed);
    c.options = lc.options.clone();
    c.max_turns = lc.max_turns;
    c.record = false;
    c
}

/// The positions of one game as it is played: every seat's at the first decision of each turn
/// (where the search's play-outs stop), and the decider's at a share ([`RECORD`]) of the decisions
/// with a choice (where `learned` judges), each read in the seat's possible world.
struct Recorder {
    seed: u64,
    rows: Vec<(u8, Vec<f32>)>,
    last_turn: u32,
    sampler: ChaCha8Rng,
}

impl Recorder {
    fn new(seed: u64) -> Recorder {
        Recorder {
            seed,
            rows: Vec::new(),
            last_turn: u32::MAX,
            sampler: ChaCha8Rng::seed_from_u64(seed ^ 0x7265_636F_7264),
        }
    }

    /// Records what the decision `d` of `game` calls for.
    fn at(&mut self, game: &Game, d: &Decision, features: &FeatureSet) {
        let seats: Vec<u8> = if game.turns() != self.last_turn {
            self.last_turn = game.turns();
            (0..game.players()).collect()
        } else if d.options.len() > 1 && self.sampler.gen_bool(RECORD) {
            vec![d.player]
        } else {
            Vec::new()
        };
        for s in seats {
            // The seat's possible world: what it knows, the rest dealt again.
            let mut world =
                game.determinize_by_holder(s, game_seed(self.seed, self.rows.len() as u64));
            world.set_recording(false);
            let mut x = Vec::new();
            features.extract(&mut world, s, &mut x);
            self.rows.push((s, x.iter().map(|&v| v as f32).collect()));
        }
    }

    /// The game played, its positions labelled with the results of where `game` ended.
    fn finish(self, game: &mut Game) -> Played {
        let goals = Goals::of(game);
        let shared = goals.shared();
        let n = game.players() as usize;
        let shares = match game.status() {
            Status::Over(o) => goals.shares(o),
            _ => None,
        };
        let scores = goals.standings(game).unwrap_or_else(|| vec![0.0; n]);
        let results: Vec<Option<f64>> = (0..n)
            .map(|s| shares.as_ref().and_then(|v| v.get(s).copied()))
            .collect();
        let positions = self
            .rows
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
            shared,
        }
    }
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
    let mut recorder = Recorder::new(seed);
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        if let Some(f) = features {
            recorder.at(&game, &d, f);
        }
        let i = match agents.get_mut(d.player as usize) {
            Some(a) => a.choose(&game, &d),
            None => 0,
        };
        if game.apply(i).is_err() {
            break;
        }
    }
    recorder.finish(&mut game)
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

/// How a game went for each seat: its share of the win (`None`: nobody won, or the game did not
/// end) and its standing by the script's measure; and whether all players were one team where it
/// stopped.
struct Ended {
    seats: Vec<(Option<f64>, f64)>,
    shared: bool,
}

/// How `game` went (see [`Ended`]).
fn ended(game: &mut Game) -> Ended {
    let goals = Goals::of(game);
    let n = game.players() as usize;
    let shares = match game.status() {
        Status::Over(o) => goals.shares(o),
        Status::Decision(_) | Status::Error(_) => None,
    };
    let standings = goals.standings(game).unwrap_or_else(|| vec![0.0; n]);
    Ended {
        seats: (0..n)
            .map(|s| {
                (
                    shares.as_ref().and_then(|v| v.get(s).copied()),
                    standings[s],
                )
            })
            .collect(),
        shared: goals.shared(),
    }
}

/// Plays `game` to its end, each seat's decisions by its agent in `agents`; `false` when it stopped
/// first because `until` passed (checked before each decision).
fn play_to_end(game: &mut Game, agents: &mut [Box<dyn Agent>], until: Option<Instant>) -> bool {
    while let Status::Decision(d) = game.status() {
        if until.is_some_and(|end| Instant::now() > end) {
            return false;
        }
        let d = d.clone();
        let Some(agent) = agents.get_mut(d.player as usize) else {
            break;
        };
        let i = agent.choose(game, &d);
        if game.apply(i).is_err() {
            break;
        }
    }
    true
}

/// Runs `run(k)` for each k below `total` on `pool`, gathered in order, in batches: the first of
/// `first` items, then of `size`. With a time, item 0 runs alone first and says how long an item
/// takes (its time shared by the pool's threads); a batch then starts only if it would end before
/// `until`, were its items as long as the last batch's, so a game that takes minutes stops the
/// batches after one of them rather than after a whole first batch. The items do not depend on the
/// pool's threads, so the results are the same for any `--jobs` unless the time cuts them short.
fn batched<T: Send>(
    pool: &rayon::ThreadPool,
    total: u64,
    (first, size): (u64, u64),
    until: Option<Instant>,
    run: &(dyn Fn(u64) -> T + Sync),
) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    let mut per_item: Option<Duration> = None;
    if until.is_some() && total > 0 {
        let started = Instant::now();
        out.push(pool.install(|| run(0)));
        per_item = Some(
            started
                .elapsed()
                .div_f64(pool.current_num_threads().max(1) as f64),
        );
    }
    while (out.len() as u64) < total {
        let from = out.len() as u64;
        let to = (if from < first { first } else { from + size }).min(total);
        if let (Some(end), Some(t)) = (until, per_item) {
            if Instant::now() + t.mul_f64((to - from) as f64) > end {
                break;
            }
        }
        let started = Instant::now();
        let batch: Vec<T> = pool.install(|| (from..to).into_par_iter().map(run).collect());
        out.extend(batch);
        per_item = Some(started.elapsed().div_f64((to - from).max(1) as f64));
    }
    out
}

/// Plays `games` games of `new` against `old` (seats alternated: the new model in seat `k % players`
/// of game k, the old one elsewhere; `None`: the search without a model), or, where all players are
/// one team, of `new` alone. Returns each game's score of the new model.
fn match_up(
    (pool, program): (&rayon::ThreadPool, &Arc<Program>),
    lc: &LearnConfig,
    (base, until): (u64, Option<Instant>),
    new: Option<&Arc<Model>>,
    old: Option<&Arc<Model>>,
    (shared, best): (bool, f64),
    tick: &(dyn Fn() + Sync),
) -> Vec<f64> {
    batched(
        pool,
        lc.match_games,
        (FIRST_BATCH, GAME_BATCH),
        until,
        &|k| {
            let seed = game_seed(base, k);
            let seat = (k % u64::from(lc.players)) as usize;
            let mut agents: Vec<Box<dyn Agent>> = (0..lc.players)
                .map(|s| {
                    let m = if shared || s as usize == seat {
                        new
                    } else {
                        old
                    };
                    player(m, seed ^ u64::from(s), 0.0)
                })
                .collect();
            let played = play(program, lc, seed, &mut agents, None);
            tick();
            let share = played.results.get(seat).copied().flatten();
            let score = played.scores.get(seat).copied().unwrap_or(0.0);
            target(share, score, shared, best)
        },
    )
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
    // Whether all players are one team, read where the first game of the first generation ended
    // (a script may set its teams during setup or later).
    let mut shared = false;
    // The model the players judge by; `None`: the blank one (a search without a model).
    let mut current: Option<Arc<Model>> = None;
    // The games of the last [`WINDOW`] generations.
    let mut data: std::collections::VecDeque<Vec<Played>> = std::collections::VecDeque::new();
    let mut baseline: Option<f64> = None;
    let mut misses = 0;
    // With a prior to learn after it, the evaluation leaves the time of one prior generation (as
    // long as a game of the search with the blank model, timed now, makes it), when that is at most
    // half of the time; else it takes all of it and no prior is learned.
    // No games of the search (`--prior-games 0`): no prior either (nor a match, `learn/playouts.rs`).
    let mut learn_prior = lc.prior_generations > 0 && lc.prior_games > 0;
    let evaluation_time = lc.time.map(|t| {
        let most = t.mul_f64(1.0 - POLICY_SHARE);
        if !learn_prior {
            return most;
        }
        let within = t.mul_f64(1.0 - EVALUATION_SHARE);
        match prior::generation_time(&program, lc, &Arc::new(blank.clone()), within) {
            Some(prior) => (t - prior).min(most),
            None => {
                learn_prior = false;
                most
            }
        }
    });
    for generation in 1..=lc.generations.max(1) {
        let gen_started = Instant::now();
        let base = game_seed(lc.seed, u64::from(generation));
        // The games, in batches: one starts only if it would end within the share of the
        // evaluation's time its generation may spend playing (a long game's first generation
        // could otherwise take all of the time, and more).
        let until = evaluation_time.map(|t| {
            started
                + t.mul_f64(if generation == 1 {
                    FIRST_SHARE
                } else {
                    PLAY_SHARE
                })
        });
        let played: Vec<Played> = batched(pool, lc.games, (FIRST_BATCH, GAME_BATCH), until, &|k| {
            let seed = game_seed(base, k);
            let mut agents: Vec<Box<dyn Agent>> = (0..lc.players)
                .map(|s| player(current.as_ref(), seed ^ (u64::from(s) << 32), lc.explore))
                .collect();
            let p = play(&program, lc, seed, &mut agents, Some(&features));
            tick();
            p
        });
        let games_played = played.len() as u64;
        if generation == 1 {
            shared = played.first().is_some_and(|p| p.shared);
        }
        data.push_back(played);
        if data.len() > WINDOW {
            data.pop_front();
        }
        let games_kept = || data.iter().flatten();
        let best = games_kept()
            .flat_map(|p| p.scores.iter().copied())
            .fold(0.0, f64::max);
        // Every tenth game's positions are held out to judge the fit.
        let rows_of = |held: bool| -> Vec<Sample<'_>> {
            games_kept()
                .enumerate()
                .filter(|(i, _)| (i % 10 == 9) == held)
                .flat_map(|(_, p)| p.positions.iter())
                .map(|q| (q.x.as_slice(), target(q.share, q.score, shared, best)))
                .collect()
        };
        let (rows, valid) = (rows_of(false), rows_of(true));
        let kept = games_kept().count();
        let turns = games_kept().map(|p| f64::from(p.turns)).sum::<f64>() / kept.max(1) as f64;
        let mut next = blank.clone();
        let fitted = fit(&mut next, &rows, &valid, turns, base);
        let next = Arc::new(next);
        let match_base = game_seed(base, u64::MAX);
        let match_until = evaluation_time.map(|t| started + t);
        let scores = match_up(
            (pool, &program),
            lc,
            (match_base, match_until),
            Some(&next),
            current.as_ref(),
            (shared, best),
            tick,
        );
        let games = scores.len() as u64;
        let total: f64 = scores.iter().sum();
        let (score, low, high, previous) = if shared {
            let previous = match baseline {
                Some(b) => b,
                None => {
                    let old = match_up(
                        (pool, &program),
                        lc,
                        (match_base, match_until),
                        current.as_ref(),
                        current.as_ref(),
                        (shared, best),
                        tick,
                    );
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
        // The first model is kept unless its match says it is worse than the first players (its
        // interval below one half): the search judges positions by it, and a blank model would
        // judge every position one half; and the play-out policy imitates the kept model's player.
        let kept = score >= previous || (generation == 1 && high >= previous);
        on_generation(&Generation {
            stage: Stage::Evaluation,
            generation,
            games: games_played,
            positions: rows.len() + valid.len(),
            reads: 0,
            score,
            low,
            high,
            baseline: previous,
            improved,
            kept,
            fit: fitted,
            evaluation: None,
            matched: None,
            seconds: gen_started.elapsed().as_secs_f64(),
        });
        if kept {
            current = Some(next);
            baseline = Some(score);
        }
        misses = if improved { 0 } else { misses + 1 };
        // A first model that does not hold its own against the first players (one step judged by
        // the script's measure) leaves its time to the play-out policy: a second generation would
        // be played by the same players, and the policy's self-play gains more from the time.
        let first_lost = generation == 1 && score < previous;
        // The next generation would take about as long as this one: it runs only if it would end
        // within the time.
        let next_end = started.elapsed() + gen_started.elapsed();
        if misses >= PATIENCE || first_lost || evaluation_time.is_some_and(|t| next_end > t) {
            break;
        }
    }
    let evaluated = current.is_some();
    let mut model = match current {
        Some(m) => Arc::try_unwrap(m).unwrap_or_else(|m| (*m).clone()),
        None => {
            // No evaluation beat the first players: the model keeps a blank one, and the progress
            // the policy reads is measured on the last generation's games.
            let mut blank = blank;
            let games = data.back().map_or(&[][..], |g| g.as_slice());
            let turns = games.iter().map(|p| f64::from(p.turns)).sum::<f64>();
            blank.turns = (turns / games.len().max(1) as f64).max(1.0);
            blank
        }
    };
    // The play-out policy, from the games of the evaluation's player (`greedy` where no evaluation
    // was kept), then the matches that say how the search uses the model.
    if !data.is_empty() {
        let deadline = lc.time.map(|t| started + t);
        // The policy leaves a share of the time left to the matches (all of it to the policy where
        // their first batch would not fit: `learn/moves.rs`).
        let now = Instant::now();
        let policy_until = deadline.map(|end| {
            now + end
                .saturating_duration_since(now)
                .mul_f64(1.0 - MATCH_SHARE)
        });
        moves::learn_moves(
            pool,
            &program,
            lc,
            (&mut model, evaluated, (policy_until, deadline)),
            on_generation,
            tick,
        );
        playouts::choose(
            pool,
            &program,
            lc,
            (&mut model, deadline),
            on_generation,
            tick,
        );
    }
    if !learn_prior || lc.time.is_some_and(|t| started.elapsed() >= t) {
        return model;
    }
    let cheap: Vec<&Played> = data.back().map(|g| g.iter().collect()).unwrap_or_default();
    prior::learn_prior(
        pool,
        &program,
        lc,
        (model, &cheap, shared),
        lc.time.map(|t| (started, t)),
        on_generation,
        tick,
    )
}

#[cfg(test)]
mod tests {
    use super::batched;
    use std::time::{Duration, Instant};

    #[test]
    fn a_timed_batch_stops_after_one_item_that_leaves_no_time_for_the_rest() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let slow = |k: u64| {
            std::thread::sleep(Duration::from_millis(20));
            k
        };
        // A whole first batch of 10 items would take 200 ms: only the item that timed it runs.
        let until = Some(Instant::now() + Duration::from_millis(30));
        assert_eq!(batched(&pool, 25, (10, 10), until, &slow), vec![0]);
        // Without a time every item runs, in order.
        let all = batched(&pool, 25, (10, 10), None, &slow);
        assert_eq!(all, (0..25).collect::<Vec<u64>>());
    }
}
