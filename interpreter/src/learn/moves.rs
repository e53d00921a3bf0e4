//! Learning stage: the play-out policy of `cardgame learn` (`agents/moves.rs`), for any script:
//! fitted to the choices of the evaluation's player, then refined by its own self-play.
//!
//! - *Fitted.* Once the evaluation is learned, its `learned` player (one step of look-ahead judged
//!   by the model; `greedy`, judged by the script's measure, where no evaluation beat it) plays games
//!   against itself without exploring (`--games`, in batches of
//!   [`FIT_BATCH`] while the next would end within a quarter of the time left), and every decision
//!   with a choice is recorded: the key of each option (the prompt, its digits read as `#`, and the
//!   label) and, with `--policy-parts` (the default), the keys of its parts (`Game::option_parts`),
//!   the option it took, the game's progress (the turn over the mean game's length) and the
//!   position's counts seen from the decider (`FeatureSet::extract_counts`, read from the real game:
//!   in a search the policy reads a world of it). With `--policy-reads position` the policy reads
//!   the counts that every seat knows and that vary over the training games, standardised by their
//!   mean and spread there (`reads` lines), through `--policy-units` hidden units (`learn/policy.rs`;
//!   0: each move weighs every count alone); with `progress` it reads none. The policy, a softmax
//!   over a decision's options of their moves' scores (`a + b t + Σ cⱼ hⱼ`), is fitted to those
//!   choices by stochastic gradient descent with AdaGrad's steps on the cross-entropy, in an order
//!   shuffled by the seed, keeping the pass whose cross-entropy on the decisions of held-out games
//!   (every tenth) is the lowest. It imitates its teacher, and plays worse than it.
//! - *Refined.* The policy then plays itself, [`super::selfplay::ROUNDS`] rounds
//!   (`--policy-rounds`) of [`ROUND_GAMES`] games, every choice drawn from its chances; after each round every
//!   choice's log-chance is pushed up by the decider's result less its seat's mean result in the
//!   round (REINFORCE with a baseline, AdaGrad's steps, a tenth as long for the weights on the
//!   position and the hidden units': [`super::selfplay::ASCENT_POSITION`]). A game of this policy
//!   costs no look-ahead (about a millisecond; twice that where it reads the position), so a
//!   minute sees tens of thousands of games. The refined policy then plays the fitted one
//!   ([`super::selfplay::MATCH_GAMES`] games, fewer if the time ends first; seats alternated,
//!   ties half) and is kept when it scores at least one half; where all players are one team, each
//!   plays every other game alone and the refined one is kept when its mean result is at least the
//!   fitted one's. A round runs only if it would end in time for the whole match, or else within
//!   four fifths of the policy's share of `--time` (the match plays as many games as fit in the
//!   rest); before the first, its first 4 games a thread time it.
//! - *Chosen* ([`PolicyReads`], `--policy-reads`). By default both policies are fitted and refined,
//!   the one of the progress in half the time left, the one that reads the position in what it left
//!   but a tenth; the second is kept only if it wins the match between them
//!   ([`super::selfplay::face_off`]). Measured (docs/performance.md): on Heart of Crown and Crafty
//!   Explorers the one that reads the position through hidden units wins, on Crayne they are even.
//!
//! Every stage is deterministic for a seed whatever the number of threads: every game has its own
//! seed and the games are gathered in order.

use super::policy::{fit, loss, Net, Row};
use super::selfplay::{episode, face_off, refine, ROUND_GAMES};
use super::{config, Fit, Generation, LearnConfig, Stage};
use crate::agents::features::FeatureSet;
use crate::agents::moves::{option_keys, Moves, OptionKeys, Read, Table};
use crate::agents::{Agent, Model};
use crate::engine::{Game, Status};
use crate::program::Program;
use crate::sim::{game_seed, wilson};
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

/// One decision as recorded: its options' keys (their parts' too, with `--policy-parts`), the
/// option taken, the turn, and the position's
/// counts that every seat knows, seen from the decider (`FeatureSet::extract_counts` at the
/// indices of `FeatureSet::known`; empty when the policy reads the progress alone).
struct Recorded {
    keys: Vec<OptionKeys>,
    taken: usize,
    turn: u32,
    counts: Vec<f32>,
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
                keys: option_keys(&game, &d, lc.policy_parts),
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
    // Every key by index: whether it is a part's, and the key.
    let mut index: HashMap<(bool, String), u32> = HashMap::new();
    let mut names: Vec<(bool, String)> = Vec::new();
    let turns = model.turns.max(1.0);
    let (columns, reads): (Vec<usize>, Vec<Read>) =
        reads_of(&features, &known, &games).into_iter().unzip();
    let rows: Vec<(usize, Row)> =
        games
            .iter()
            .enumerate()
            .flat_map(|(g, decisions)| decisions.iter().map(move |d| (g, d)))
            .map(|(g, d)| {
                let mut at = |named: (bool, &String)| {
                    let named = (named.0, named.1.clone());
                    *index.entry(named.clone()).or_insert_with(|| {
                        names.push(named);
                        (names.len() - 1) as u32
                    })
                };
                let moves = (d.keys.iter())
                    .map(|k| {
                        let parts = k.parts.iter().map(|p| (true, p));
                        std::iter::once((false, &k.label))
                            .chain(parts)
                            .map(&mut at)
                            .collect()
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
    // The policy of the progress alone, and, where asked for, the one that also reads the position
    // (through hidden units where `--policy-units` asks for any). Both go on to be refined: how well
    // a policy imitates its teacher does not say how far its own self-play takes it (on Crafty
    // Explorers a policy that imitated worse won the match after refinement).
    let progress = fit(Net::blank(names.len(), (0, 0), base), &train, &held, base);
    let units = (reads.len(), lc.policy_units);
    let position =
        (!reads.is_empty()).then(|| fit(Net::blank(names.len(), units, base), &train, &held, base));
    // The held-out fit reported is the last policy's (the one that reads the position where
    // there is one); a policy's weights past its inputs are none, as `dot` reads the shorter.
    let (held_loss, agree) = loss(position.as_ref().unwrap_or(&progress), &held);
    let reported_reads = if position.is_some() { reads.len() } else { 0 };
    let policy = |reads: Vec<Read>, net: Net| {
        let (mut weights, mut parts) = (Table::default(), Table::default());
        for ((part, key), w) in names.iter().cloned().zip(net.weights) {
            match part {
                true => parts.insert(key, w),
                false => weights.insert(key, w),
            };
        }
        Moves {
            reads,
            units: net.units,
            weights,
            parts,
        }
    };
    let mut fitted = Vec::new();
    if lc.policy_reads != PolicyReads::Position || position.is_none() {
        fitted.push(policy(Vec::new(), progress));
    }
    if let Some(net) = position {
        fitted.push(policy(reads, net));
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
        matched: None,
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
            let search_game =
                super::playouts::search_game_time(program, lc, &with_policy, base, game.decisions);
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
            matched: None,
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
            let ((score, low, high), baseline, games) = face_off(
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
                games,
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
                matched: None,
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

#[cfg(test)]
mod tests {
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
}
