//! Learning stage: the play-out policy of `cardgame learn` (`agents/moves.rs`), for any script:
//! fitted to the choices of the evaluation's player, then refined by its own self-play.
//!
//! - *Fitted.* Once the evaluation is learned, its `learned` player (one step of look-ahead judged
//!   by the model; `greedy`, judged by the script's measure, where no evaluation beat it) plays games
//!   against itself without exploring (`--games`, in batches of
//!   [`FIT_BATCH`] while the next would end within a quarter of the time left), and every decision
//!   with a choice is recorded: the key of each option (the prompt, its digits read as `#`, and the
//!   label), the option it took, the game's progress (the turn over the mean game's length) and the
//!   position's counts seen from the decider (`FeatureSet::extract_counts`, read from the real game:
//!   in a search the policy reads a world of it). With `--policy-reads position` the policy reads
//!   the counts that every seat knows and that vary over the training games, standardised by their
//!   mean and spread there (`reads` lines); by default it reads none. The policy, one
//!   weight per key and input (`a + b t + Σ cⱼ zⱼ`) and a softmax over a decision's options, is
//!   fitted to those choices by stochastic gradient descent with AdaGrad's steps on the
//!   cross-entropy, in an order shuffled by the seed, keeping the pass whose cross-entropy on the
//!   decisions of held-out games (every tenth) is the lowest. It imitates its teacher, and plays
//!   worse than it.
//! - *Refined.* The policy then plays itself, [`ROUNDS`] rounds (`--policy-rounds`) of
//!   [`ROUND_GAMES`] games, every choice drawn from its chances; after each round every choice's
//!   log-chance is pushed up by the decider's result less its seat's mean result in the round
//!   (REINFORCE with a baseline, AdaGrad's steps, a tenth as long for the weights on the position:
//!   [`ASCENT_POSITION`]). A game of this policy costs no look-ahead (about a millisecond), so a
//!   minute sees tens of thousands of games. The refined policy then plays
//!   the fitted one ([`MATCH_GAMES`] games, fewer if the time ends first; seats alternated, ties
//!   half) and is kept when it scores at least one half; where all players are one team, each plays every other game alone and the
//!   refined one is kept when its mean result is at least the fitted one's. A round runs only if it
//!   and the match would end within `--time`.
//! - *Chosen* ([`PolicyReads`], `--policy-reads`). By default both policies are fitted and refined,
//!   the one of the progress in half the time left, the one that reads the position in what it
//!   left but a tenth; the second is kept only if it wins the match between them ([`face_off`]):
//!   on Market Race it does, on Heart of Crown it lost to the strategies where the other did not
//!   (docs/performance.md).
//!
//! Every stage is deterministic for a seed whatever the number of threads: every game has its own
//! seed and the games are gathered in order.

use super::{config, Fit, Generation, LearnConfig, Stage};
use crate::agents::features::FeatureSet;
use crate::agents::moves::{dot, key, Moves, Read};
use crate::agents::{Agent, Model};
use crate::engine::{Game, Status};
use crate::program::Program;
use crate::sim::{game_seed, wilson};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the play-out policy reads beside its moves and the progress (`--policy-reads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyReads {
    /// Nothing more: `a + b t` per move.
    Progress,
    /// The counts of the position that every seat knows (`FeatureSet::is_known`).
    Position,
    /// Both policies are fitted and refined, each in half the time, and a match between them keeps
    /// one (the one that reads the position only when it wins).
    Auto,
}

/// Games of the evaluation's player in a batch (the first batch a tenth of it): batches are played
/// while the next would end within a quarter of the time left.
const FIT_BATCH: u64 = 100;

/// Passes over the decisions at most, the step of AdaGrad and the weight of the L2 penalty.
const EPOCHS: u32 = 30;
const RATE: f64 = 0.1;
const L2: f64 = 1e-4;

/// One decision as recorded: its options' keys, the option taken, the turn, and the position's
/// counts that every seat knows, seen from the decider (`FeatureSet::extract_counts` at the
/// indices of `FeatureSet::known`; empty when the policy reads the progress alone).
struct Recorded {
    keys: Vec<String>,
    taken: usize,
    turn: u32,
    counts: Vec<f32>,
}

/// One decision ready to fit: its options' indices among the keys, the option taken, the policy's
/// inputs (`1`, the progress, the features read, standardised: `Moves::inputs`).
struct Row {
    moves: Vec<u32>,
    taken: usize,
    inputs: Vec<f64>,
}

/// Plays one game of `model`'s `learned` player in every seat, recording each decision with a choice.
fn play(
    program: &Arc<Program>,
    lc: &LearnConfig,
    seed: u64,
    (teacher, features, known): (Option<&Arc<Model>>, &FeatureSet, &[usize]),
) -> Vec<Recorded> {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let mut agents: Vec<Box<dyn Agent>> = (0..lc.players)
        .map(|s| super::player(teacher, seed ^ (u64::from(s) << 32), 0.0))
        .collect();
    let mut recorded = Vec::new();
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let Some(agent) = agents.get_mut(d.player as usize) else {
            break;
        };
        let i = agent.choose(&game, &d);
        if d.options.len() > 1 {
            // The real game is read: the policy reads only what every seat knows as it is.
            let counts = match known.is_empty() {
                true => Vec::new(),
                false => {
                    let all = features.extract_counts(&game, d.player);
                    known.iter().map(|&k| all[k] as f32).collect()
                }
            };
            recorded.push(Recorded {
                keys: d.options.iter().map(|l| key(&d.prompt, l)).collect(),
                taken: i,
                turn: game.turns(),
                counts,
            });
        }
        if game.apply(i).is_err() {
            break;
        }
    }
    recorded
}

/// The scores of a row's options under `weights` (per key, one weight per input).
fn scores(weights: &[Vec<f64>], row: &Row) -> Vec<f64> {
    row.moves
        .iter()
        .map(|&m| dot(&weights[m as usize], &row.inputs))
        .collect()
}

/// The mean cross-entropy of `weights` on `rows`, and how many of them the policy's most likely
/// option is the one taken.
fn loss(weights: &[Vec<f64>], rows: &[&Row]) -> (f64, usize) {
    let mut total = 0.0;
    let mut agree = 0;
    for row in rows {
        let s = scores(weights, row);
        let p = crate::agents::model::softmax(&s);
        total -= p[row.taken].max(1e-12).ln();
        let best = (0..s.len()).fold(0, |b, i| if s[i] > s[b] { i } else { b });
        agree += usize::from(best == row.taken);
    }
    (total / rows.len().max(1) as f64, agree)
}

/// Fits the weights of `keys` moves over `inputs` inputs on `train`, keeping the pass with the
/// lowest cross-entropy on `held`.
fn fit((keys, inputs): (usize, usize), train: &[&Row], held: &[&Row], seed: u64) -> Vec<Vec<f64>> {
    let position = position_step(inputs.saturating_sub(2));
    let mut weights = vec![vec![0.0; inputs]; keys];
    let mut squares = vec![vec![1e-8; inputs]; keys];
    let mut best = (loss(&weights, held).0, weights.clone());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x006D_6F76_6573);
    for _ in 0..EPOCHS {
        order.shuffle(&mut rng);
        for &r in &order {
            let row = train[r];
            let p = crate::agents::model::softmax(&scores(&weights, row));
            for (i, &m) in row.moves.iter().enumerate() {
                let error = p[i] - f64::from(u8::from(i == row.taken));
                let w = &mut weights[m as usize];
                let g = &mut squares[m as usize];
                for (j, x) in row.inputs.iter().enumerate().take(inputs) {
                    let grad = error * x + L2 * w[j];
                    g[j] += grad * grad;
                    let rate = if j < 2 { RATE } else { RATE * position };
                    w[j] -= rate * grad / g[j].sqrt();
                }
            }
        }
        let l = loss(&weights, held).0;
        if l < best.0 {
            best = (l, weights.clone());
        } else if l > best.0 * 1.001 {
            break;
        }
    }
    best.1
}

/// The factor on the steps of the weights on the position, for a policy that reads `reads`
/// features: 1 up to 64 of them, then `8 / √reads`. AdaGrad's first steps move every weight by the
/// whole step, each in the sign of its gradient; over many features whose signs are unrelated the
/// scores then move by the step times about `√reads`, which this holds where Market Race's 64 were
/// measured (at more, whole fits diverged and kept no weight).
fn position_step(reads: usize) -> f64 {
    (8.0 / (reads.max(1) as f64).sqrt()).min(1.0)
}

/// The features the policy reads: those of the known counts recorded (`known`: their indices
/// among the script's features) that vary over the decisions of the training games of `games`
/// (every tenth game is held out), each with its column in the records, its mean and its spread.
fn reads_of(features: &FeatureSet, known: &[usize], games: &[Vec<Recorded>]) -> Vec<(usize, Read)> {
    let n = known.len();
    let (mut sum, mut squares, mut rows) = (vec![0.0; n], vec![0.0; n], 0.0);
    for d in games
        .iter()
        .enumerate()
        .filter(|(g, _)| g % 10 != 9)
        .flat_map(|(_, decisions)| decisions)
    {
        for (i, &x) in d.counts.iter().enumerate().take(n) {
            sum[i] += f64::from(x);
            squares[i] += f64::from(x) * f64::from(x);
        }
        rows += 1.0;
    }
    known
        .iter()
        .enumerate()
        .filter_map(|(column, &i)| {
            let mean = sum[column] / f64::max(rows, 1.0);
            let spread = (squares[column] / f64::max(rows, 1.0) - mean * mean)
                .max(0.0)
                .sqrt();
            (spread > 1e-6).then(|| {
                let read = Read {
                    feature: i,
                    name: features.names()[i].clone(),
                    mean,
                    spread,
                };
                (column, read)
            })
        })
        .collect()
}

/// Learns `model`'s play-out policy (see the module's notes) from `lc.games` games of its `learned`
/// player, and reports it as a generation of stage `moves`: its held-out cross-entropy against a
/// uniform choice's, and (as its score) how often its most likely option is the one the player took.
pub(super) fn learn_moves(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (model, evaluated, (deadline, matches_end)): (
        &mut Model,
        bool,
        (Option<Instant>, Option<Instant>),
    ),
    on_generation: &mut dyn FnMut(&Generation),
    tick: &(dyn Fn() + Sync),
) {
    let started = Instant::now();
    let base = game_seed(lc.seed ^ 0x006D_6F76_6573, 1);
    let player = Arc::new(model.clone());
    let teacher = evaluated.then_some(&player);
    let features = FeatureSet::new(program, lc.players);
    let known = match lc.policy_reads {
        PolicyReads::Progress => Vec::new(),
        PolicyReads::Position | PolicyReads::Auto => features.known(),
    };
    // Batches of games while the next would end within a quarter of the time left.
    let until = deadline.map(|end| started + end.saturating_duration_since(started) / 4);
    let games: Vec<Vec<Recorded>> =
        super::batched(pool, lc.games, (FIT_BATCH / 10, FIT_BATCH), until, &|k| {
            let r = play(
                program,
                lc,
                game_seed(base, k),
                (teacher, &features, &known),
            );
            tick();
            r
        });
    let mut index: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let turns = model.turns.max(1.0);
    let (columns, reads): (Vec<usize>, Vec<Read>) =
        reads_of(&features, &known, &games).into_iter().unzip();
    let rows: Vec<(usize, Row)> =
        games
            .iter()
            .enumerate()
            .flat_map(|(g, decisions)| decisions.iter().map(move |d| (g, d)))
            .map(|(g, d)| {
                let moves = d
                    .keys
                    .iter()
                    .map(|k| {
                        *index.entry(k.clone()).or_insert_with(|| {
                            names.push(k.clone());
                            (names.len() - 1) as u32
                        })
                    })
                    .collect();
                let mut inputs = vec![1.0, f64::from(d.turn) / turns];
                inputs.extend(reads.iter().zip(&columns).map(|(r, &c)| {
                    r.standardise(f64::from(d.counts.get(c).copied().unwrap_or(0.0)))
                }));
                let row = Row {
                    moves,
                    taken: d.taken,
                    inputs,
                };
                (g, row)
            })
            .collect();
    let part = |held: bool| -> Vec<&Row> {
        rows.iter()
            .filter(|(g, _)| (g % 10 == 9) == held)
            .map(|(_, r)| r)
            .collect()
    };
    let (train, held) = (part(false), part(true));
    // The policy of the progress alone, and, where asked for, the one that also reads the position,
    // kept only where its held-out loss is the lower (a fit its many weights spoil costs nothing).
    let progress = fit((names.len(), 2), &train, &held, base);
    let position = (!reads.is_empty())
        .then(|| fit((names.len(), 2 + reads.len()), &train, &held, base))
        .filter(|w| loss(w, &held).0 <= loss(&progress, &held).0);
    // The held-out fit reported is the last policy's (the one that reads the position where
    // there is one); a policy's weights past its inputs are none, as `dot` reads the shorter.
    let (held_loss, agree) = loss(position.as_ref().unwrap_or(&progress), &held);
    let reported_reads = if position.is_some() { reads.len() } else { 0 };
    let policy = |reads: Vec<Read>, weights: Vec<Vec<f64>>| Moves {
        reads,
        weights: names.iter().cloned().zip(weights).collect(),
    };
    let mut fitted = Vec::new();
    if lc.policy_reads != PolicyReads::Position || position.is_none() {
        fitted.push(policy(Vec::new(), progress));
    }
    if let Some(weights) = position {
        fitted.push(policy(reads, weights));
    }
    let uniform = held
        .iter()
        .map(|r| (r.moves.len() as f64).ln())
        .sum::<f64>()
        / held.len().max(1) as f64;
    let (score, low, high) = wilson(agree as f64, held.len() as u64);
    on_generation(&Generation {
        stage: Stage::Moves,
        generation: 1,
        games: games.len() as u64,
        positions: rows.len(),
        reads: reported_reads,
        score,
        low,
        high,
        baseline: 0.0,
        improved: true,
        kept: true,
        fit: Fit {
            loss: held_loss,
            constant: uniform,
        },
        evaluation: None,
        seconds: started.elapsed().as_secs_f64(),
    });
    // Where the matches after the policy could not play their first batch in the time left them,
    // the policy takes their share too (a game of the policy says how many decisions with a choice
    // a game has, a few decisions of the search how long each takes).
    let deadline = match (deadline, matches_end) {
        (Some(end), Some(all)) => {
            let last = fitted.last().expect("one policy at least");
            let game = episode((program, &features), lc, base, (&[last], turns), true);
            let mut with_policy = model.clone();
            with_policy.moves = last.clone();
            let search_game = super::playouts::search_game_time(
                program,
                lc,
                &with_policy,
                base,
                game.decisions.len(),
            );
            let jobs = pool.current_num_threads();
            let fits = matches_fit(search_game, jobs, all.saturating_duration_since(end));
            Some(if fits { end } else { all })
        }
        (deadline, _) => deadline,
    };
    // Each policy refined in its share of the time left (the first half of it; the second what the
    // first left but a tenth, for the match between them).
    let mut kept = Vec::new();
    let count = fitted.len();
    for (i, start) in fitted.into_iter().enumerate() {
        if lc.policy_rounds == 0 {
            kept.push(start);
            continue;
        }
        let now = Instant::now();
        let share = deadline.map(|end| {
            let left = end.saturating_duration_since(now);
            match (count, i) {
                (2, 0) => now + left / 2,
                (2, _) => now + left.mul_f64(0.9),
                _ => end,
            }
        });
        let (refined, rounds, (score, low, high), baseline) =
            refine(pool, program, lc, (&start, turns, base, share), tick);
        let (keep, improved) = (score >= baseline, low > baseline);
        on_generation(&Generation {
            stage: Stage::Moves,
            generation: 2 + i as u32,
            games: u64::from(rounds) * ROUND_GAMES,
            positions: 0,
            reads: start.reads.len(),
            score,
            low,
            high,
            baseline,
            improved,
            kept: keep,
            fit: Fit::default(),
            evaluation: None,
            seconds: now.elapsed().as_secs_f64(),
        });
        kept.push(if keep { refined } else { start });
    }
    let mut kept = kept.into_iter();
    let first = kept.next().expect("one policy at least");
    model.moves = match kept.next() {
        None => first,
        Some(position) => {
            // The policy that reads the position against the one of the progress alone: kept only
            // where it wins.
            let now = Instant::now();
            let seed = game_seed(base, u64::MAX - 1);
            let ((score, low, high), baseline) = face_off(
                pool,
                program,
                lc,
                (&position, &first),
                (turns, seed, deadline),
                tick,
            );
            let wins = score > baseline;
            on_generation(&Generation {
                stage: Stage::Reads,
                generation: 1,
                games: MATCH_GAMES,
                positions: 0,
                reads: position.reads.len(),
                score,
                low,
                high,
                baseline,
                improved: low > baseline,
                kept: wins,
                fit: Fit::default(),
                evaluation: None,
                seconds: now.elapsed().as_secs_f64(),
            });
            if wins {
                position
            } else {
                first
            }
        }
    };
}

/// Whether the first batch of the matches that choose how the search uses the model
/// (`learn/playouts.rs`, [`super::playouts::BATCH`] games, `jobs` at a time) would end within
/// `window`, for games of the search that take `search_game` each
/// ([`super::playouts::search_game_time`]).
fn matches_fit(search_game: Duration, jobs: usize, window: Duration) -> bool {
    let rounds = super::playouts::BATCH.div_ceil(jobs.max(1) as u64);
    search_game.saturating_mul(rounds as u32) <= window
}

/// Rounds of the policy's own self-play after it is fitted, the games of each, the step of its
/// AdaGrad ascent, and the games of the match that decides whether the refined policy is kept.
pub const ROUNDS: u32 = 1000;
const ROUND_GAMES: u64 = 500;
const ASCENT: f64 = 1.0;
/// The step of the weights on the position's features: a tenth of [`ASCENT`] (times
/// [`position_step`]). They are many (one per
/// feature read, for every move), and AdaGrad's first steps move each weight by the whole step,
/// so at the full step the scores moved at random by several units a round. Measured on Market
/// Race (`tournament --agents policy,strategy:money_actions --games 1000 --seed 5`, 600 rounds):
/// steps of 0.1 reached 57.0% [53.9-60.0], 0.3 40.9%, 0.05 30.0% (1,500 rounds).
const ASCENT_POSITION: f64 = 0.1;
const MATCH_GAMES: u64 = 2000;

/// One game of play-out policies (one per seat, drawn from): each seat's decisions with a choice
/// (when recorded: the seat, its options' keys, the option taken, the policy's inputs), each seat's share
/// of the win (`None`: nobody won) and standing by the script's measure, and whether all players
/// were one team.
struct Episode {
    decisions: Vec<(u8, Vec<String>, usize, Vec<f64>)>,
    outcome: Vec<(Option<f64>, f64)>,
    shared: bool,
}

/// Plays one game in which seat `s` draws every choice from `seats[s]` at the game's progress
/// (`turns`: the mean game's length), recording the decisions when `record`.
fn episode(
    (program, features): (&Arc<Program>, &FeatureSet),
    lc: &LearnConfig,
    seed: u64,
    (seats, turns): (&[&Moves], f64),
    record: bool,
) -> Episode {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0065_7069_736F_6465);
    let mut decisions = Vec::new();
    while let Status::Decision(d) = game.status() {
        let i = if d.options.len() > 1 {
            let t = f64::from(game.turns()) / turns;
            let policy = seats.get(d.player as usize).copied().unwrap_or(seats[0]);
            // The real game is read: the policy reads only what every seat knows as it is.
            let inputs = policy.inputs(features, &game, d.player, t);
            let i = policy.pick(d, &inputs, &mut rng);
            if record {
                let keys = d.options.iter().map(|l| key(&d.prompt, l)).collect();
                decisions.push((d.player, keys, i, inputs));
            }
            i
        } else {
            0
        };
        if game.apply(i).is_err() {
            break;
        }
    }
    let ended = super::ended(&mut game);
    Episode {
        decisions,
        outcome: ended.seats,
        shared: ended.shared,
    }
}

/// Each seat's result in each of `games` (its share of the win; where nobody won, in a game of one
/// team, its score over the best score of these games, else one half: `learn.rs`'s `target`).
fn results(games: &[Episode]) -> Vec<Vec<f64>> {
    let best = games
        .iter()
        .flat_map(|g| g.outcome.iter().map(|(_, s)| *s))
        .fold(0.0, f64::max);
    games
        .iter()
        .map(|g| {
            g.outcome
                .iter()
                .map(|&(share, score)| super::target(share, score, g.shared, best))
                .collect()
        })
        .collect()
}

/// Refines `start` by its own self-play: rounds of [`ROUND_GAMES`] games, each followed by a step of
/// the policy gradient (REINFORCE: each choice's log-chance pushed by the decider's result less its
/// seat's mean result in the round), with AdaGrad's steps; then the refined policy plays `start`
/// ([`MATCH_GAMES`] games, seats alternated, ties half) and is returned with its score, its interval
/// and the score to beat (one half; where all players are one team, each plays every other game
/// alone: the refined one's mean result, its interval, and the fitted one's mean).
fn refine(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (start, turns, base, deadline): (&Moves, f64, u64, Option<Instant>),
    tick: &(dyn Fn() + Sync),
) -> (Moves, u32, (f64, f64, f64), f64) {
    let started = Instant::now();
    let features = FeatureSet::new(program, lc.players);
    let inputs = 2 + start.reads.len();
    let ascent_position = ASCENT_POSITION * position_step(start.reads.len());
    let mut policy = start.clone();
    let mut squares: HashMap<String, Vec<f64>> = HashMap::new();
    let mut played = 0;
    for round in 0..lc.policy_rounds {
        // A round runs only if it and the match after it would end within the time, were each
        // game as long as the rounds' so far.
        if let Some(end) = deadline {
            let now = Instant::now();
            let after = 1.0 + MATCH_GAMES as f64 / ROUND_GAMES as f64;
            if played > 0 && now + ((now - started) / played).mul_f64(after) > end {
                break;
            }
        }
        played += 1;
        let round_base = game_seed(base, u64::from(round));
        let games: Vec<Episode> = pool.install(|| {
            (0..ROUND_GAMES)
                .into_par_iter()
                .map(|k| {
                    let e = episode(
                        (program, &features),
                        lc,
                        game_seed(round_base, k),
                        (&[&policy], turns),
                        true,
                    );
                    tick();
                    e
                })
                .collect()
        });
        let results = results(&games);
        let seats = results.iter().map(Vec::len).max().unwrap_or(0);
        let mut mean = vec![0.0; seats];
        for r in &results {
            for (m, x) in mean.iter_mut().zip(r) {
                *m += x / games.len().max(1) as f64;
            }
        }
        let mut gradient: HashMap<&str, Vec<f64>> = HashMap::new();
        for (g, result) in games.iter().zip(&results) {
            for (seat, keys, taken, x) in &g.decisions {
                let s = *seat as usize;
                let advantage = result.get(s).copied().unwrap_or(0.0) - mean[s];
                let scores: Vec<f64> = keys
                    .iter()
                    .map(|k| policy.weights.get(k).map_or(0.0, |w| dot(w, x)))
                    .collect();
                let p = crate::agents::model::softmax(&scores);
                for (i, k) in keys.iter().enumerate() {
                    let push = advantage * (f64::from(u8::from(i == *taken)) - p[i]);
                    let e = gradient
                        .entry(k.as_str())
                        .or_insert_with(|| vec![0.0; inputs]);
                    for (e, x) in e.iter_mut().zip(x) {
                        *e += push * x;
                    }
                }
            }
        }
        let mut keys: Vec<&str> = gradient.keys().copied().collect();
        keys.sort_unstable();
        let n = games.len().max(1) as f64;
        for k in keys {
            let acc = squares
                .entry(k.to_string())
                .or_insert_with(|| vec![1e-8; inputs]);
            let w = policy
                .weights
                .entry(k.to_string())
                .or_insert_with(|| vec![0.0; inputs]);
            for (j, ((g, acc), w)) in gradient[k]
                .iter()
                .zip(acc.iter_mut())
                .zip(w.iter_mut())
                .enumerate()
            {
                let g = g / n;
                *acc += g * g;
                let step = if j < 2 { ASCENT } else { ascent_position };
                *w += step * g / acc.sqrt();
            }
        }
    }
    let (score, baseline) = face_off(
        pool,
        program,
        lc,
        (&policy, start),
        (turns, game_seed(base, u64::MAX), deadline),
        tick,
    );
    (policy, played, score, baseline)
}

/// A match of play-out policy `a` against `b` ([`MATCH_GAMES`] games in batches of 100, then 500,
/// each only if it ends within the time): seats alternated, ties half, `a`'s score with its Wilson
/// interval and one half to beat; where all players are one team, each plays whole games alone
/// (every other game): `a`'s mean result with its interval, and `b`'s mean to beat.
fn face_off(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (a, b): (&Moves, &Moves),
    (turns, seed, deadline): (f64, u64, Option<Instant>),
    tick: &(dyn Fn() + Sync),
) -> ((f64, f64, f64), f64) {
    let features = FeatureSet::new(program, lc.players);
    let players = u64::from(lc.players.max(1));
    // Whether all players are one team, as a game of `a` alone ends.
    let one_team = episode((program, &features), lc, seed, (&[a], turns), false).shared;
    let games: Vec<Episode> = super::batched(
        pool,
        MATCH_GAMES,
        (MATCH_GAMES / 20, MATCH_GAMES / 4),
        deadline,
        &|k| {
            let seat = (k % players) as usize;
            let seats: Vec<&Moves> = (0..players as usize)
                .map(|s| match one_team {
                    true if k % 2 == 0 => a,
                    true => b,
                    false if s == seat => a,
                    false => b,
                })
                .collect();
            let e = episode(
                (program, &features),
                lc,
                game_seed(seed, k),
                (&seats, turns),
                false,
            );
            tick();
            e
        },
    );
    let results = results(&games);
    if one_team {
        let mean = |even: bool| -> (f64, f64) {
            let xs: Vec<f64> = results
                .iter()
                .enumerate()
                .filter(|(k, _)| (k % 2 == 0) == even)
                .map(|(_, r)| r.first().copied().unwrap_or(0.0))
                .collect();
            let n = xs.len().max(1);
            let m = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n.max(2) - 1) as f64;
            (m, 1.96 * (var / n as f64).sqrt())
        };
        let ((first, half), (second, _)) = (mean(true), mean(false));
        return ((first, first - half, first + half), second);
    }
    let total: f64 = results
        .iter()
        .enumerate()
        .map(|(k, r)| r.get(k % players as usize).copied().unwrap_or(0.0))
        .sum();
    (wilson(total, games.len() as u64), 0.5)
}

#[cfg(test)]
mod tests {
    use super::{fit, loss, Row};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_matches_fit_when_a_batch_of_searches_ends_in_their_window() {
        use super::matches_fit;
        use std::time::Duration;
        // Games of 2 s: a batch of 10 on 2 threads takes about 10 s, on 1 thread 20 s.
        let game = Duration::from_secs(2);
        assert!(matches_fit(game, 2, Duration::from_secs(11)));
        assert!(!matches_fit(game, 2, Duration::from_secs(9)));
        assert!(!matches_fit(game, 1, Duration::from_secs(11)));
        assert!(!matches_fit(Duration::MAX, 4, Duration::from_secs(600)));
    }

    #[test]
    fn the_policy_learns_which_move_is_taken_and_when() {
        // Move 0 is taken over move 1 early (t < 0.5) and move 1 late; move 2 never.
        let rows: Vec<Row> = (0..400)
            .map(|i| {
                let t = f64::from(i % 10) / 10.0;
                Row {
                    moves: vec![0, 1, 2],
                    taken: usize::from(t >= 0.5),
                    inputs: vec![1.0, t],
                }
            })
            .collect();
        let all: Vec<&Row> = rows.iter().collect();
        let weights = fit((3, 2), &all[..300], &all[300..], 7);
        let (l, agree) = loss(&weights, &all[300..]);
        assert!(l < 0.5 * 3f64.ln(), "{l}");
        // All but the decisions near the switch are predicted.
        assert!(agree >= 80, "{agree}");
        // Late on, move 0 weighs less than move 1; move 2 least of all early.
        let at = |m: usize, t: f64| weights[m][0] + weights[m][1] * t;
        assert!(at(1, 0.9) > at(0, 0.9) && at(0, 0.1) > at(1, 0.1));
        assert!(at(2, 0.1) < at(0, 0.1));
    }

    #[test]
    fn the_policy_learns_a_move_that_depends_on_the_position() {
        // Move 0 is taken where the feature read is above its mean, move 1 where it is below,
        // whatever the progress; 99 other features are noise.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let rows: Vec<Row> = (0..2000)
            .map(|i| {
                let z: f64 = if i % 2 == 0 { 1.0 } else { -1.0 };
                let mut inputs = vec![1.0, f64::from(i % 10) / 10.0, z];
                inputs.extend((0..99).map(|_| rng.gen_range(-1.0..1.0)));
                Row {
                    moves: vec![0, 1],
                    taken: usize::from(z < 0.0),
                    inputs,
                }
            })
            .collect();
        let all: Vec<&Row> = rows.iter().collect();
        let weights = fit((2, 102), &all[..1500], &all[1500..], 7);
        let (l, agree) = loss(&weights, &all[1500..]);
        assert!(l < 0.2 * 2f64.ln(), "{l}");
        assert!(agree >= 490, "{agree}");
        assert!(weights[0][2] > weights[1][2]);
    }
}
