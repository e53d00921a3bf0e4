//! Learning stage: the play-out policy's own self-play (`learn/moves.rs`): games of policies
//! drawing every choice from their chances, the policy gradient that refines a policy by them, and
//! the matches between two policies.

use super::policy::{position_step, units_gradient};
use super::{config, LearnConfig};
use crate::agents::features::FeatureSet;
use crate::agents::moves::{draw, option_keys, summed_rows, Moves, OptionKeys, Table};
use crate::agents::{only_exits, wander_exits};
use crate::engine::{Game, Status};
use crate::program::Program;
use crate::sim::{game_seed, wilson};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rounds of the policy's own self-play after it is fitted, the games of each, the step of its
/// AdaGrad ascent, and the games of the match that decides whether the refined policy is kept.
pub const ROUNDS: u32 = 1000;
pub const ROUND_GAMES: u64 = 500;
const ASCENT: f64 = 1.0;
/// The step of the weights on the position's features: a tenth of [`ASCENT`] (times
/// [`position_step`]). They are many (one per
/// feature read, for every move), and AdaGrad's first steps move each weight by the whole step,
/// so at the full step the scores moved at random by several units a round. Measured on Market
/// Race (`tournament --agents policy,strategy:money_actions --games 1000 --seed 5`, 600 rounds):
/// steps of 0.1 reached 57.0% [53.9-60.0], 0.3 40.9%, 0.05 30.0% (1,500 rounds).
pub(super) const ASCENT_POSITION: f64 = 0.1;
/// The steps of the weights of the options' parts (`--policy-parts`), as a share of a move's. An
/// option scores its move's weights and those of each of its parts (several: the action, each
/// argument's name, tags and properties), and a part is shared by many options: at a move's step
/// AdaGrad's first steps moved an option's score by several units a round. Measured with the
/// 300-game protocol of docs/performance.md (the policy alone, 400 games a line-up): at the full
/// step the parts lost 3-4 points to labels alone on Crayne and 9-16 on Heart of Crown; at a tenth,
/// Crayne 74.0%/70.8% against `warlord`/`builder` (labels alone 67.6%/66.1%), Crafty Explorers
/// 69.2%/68.0% against `builder`/`harvester` (full step 61.5%/59.0%, labels alone 40.4%/40.6%).
pub(super) const PART_STEP: f64 = 0.1;
pub(super) const MATCH_GAMES: u64 = 2000;
/// In a timed learning, the share of a policy's time its rounds may take where the whole match
/// after them would not fit: the match plays in the rest, as many of its [`MATCH_GAMES`] as fit.
/// Were the rounds to wait until a round and the whole match fit, a loaded machine would leave the
/// policy unrefined.
const ROUNDS_SHARE: f64 = 0.8;
/// The games a thread plays, before a timed refinement's first round, to time it.
const TIMING_GAMES: u64 = 4;

/// One game of play-out policies (one per seat, drawn from): how many decisions with a choice it
/// had, and where recorded each seat's [`Gradient`]; each seat's share of the win (`None`: nobody
/// won) and standing by the script's measure, and whether all players were one team.
pub(super) struct Episode {
    pub decisions: usize,
    gradients: Vec<Gradient>,
    outcome: Vec<(Option<f64>, f64)>,
    pub shared: bool,
}

/// What one seat's decisions of one game add to the policy gradient before they are weighed by
/// the seat's result (REINFORCE: each choice's log-chance, `Σᵢ (1[i taken] − pᵢ) scoreᵢ`): per
/// move and per part, its inputs summed over the options it scored; for the hidden units, their
/// weights' gradient (`learn/policy.rs`'s `units_gradient`). Gathered as the game is played, so a
/// round keeps a few numbers per game rather than every decision's keys and reading.
#[derive(Default)]
struct Gradient {
    moves: Table,
    parts: Table,
    units: Vec<Vec<f64>>,
}

impl Gradient {
    /// Adds the decision whose options have `keys` and chances `chances`, `taken` chosen, where the
    /// policy read `reading` and had `inputs`.
    fn add(
        &mut self,
        policy: &Moves,
        (keys, chances, taken): (&[OptionKeys], &[f64], usize),
        (reading, inputs): (&[f64], &[f64]),
    ) {
        let pushes = chances
            .iter()
            .enumerate()
            .map(|(i, p)| f64::from(u8::from(i == taken)) - p);
        if !policy.units.is_empty() {
            if self.units.is_empty() {
                self.units = vec![vec![0.0; 1 + policy.reads.len()]; policy.units.len()];
            }
            let summed: Vec<Vec<f64>> = keys.iter().map(|k| summed(policy, k)).collect();
            let options: Vec<(&[f64], f64)> = (summed.iter())
                .zip(pushes.clone())
                .map(|(w, push)| (w.as_slice(), push))
                .collect();
            let outputs = inputs.get(2..).unwrap_or(&[]);
            units_gradient((reading, outputs), &options, &mut self.units);
        }
        for (k, push) in keys.iter().zip(pushes) {
            add_row(&mut self.moves, &k.label, push, inputs);
            for part in &k.parts {
                add_row(&mut self.parts, part, push, inputs);
            }
        }
    }
}

/// Adds `push` times `inputs` to `key`'s row of `table`.
fn add_row(table: &mut Table, key: &str, push: f64, inputs: &[f64]) {
    let row = match table.get_mut(key) {
        Some(row) => row,
        None => table
            .entry(key.to_string())
            .or_insert(vec![0.0; inputs.len()]),
    };
    for (e, x) in row.iter_mut().zip(inputs) {
        *e += push * x;
    }
}

/// Plays one game in which seat `s` draws every choice from `seats[s]` at the game's progress
/// (`turns`: the mean game's length), gathering each seat's [`Gradient`] when `record`.
pub(super) fn episode(
    (program, features): (&Arc<Program>, &FeatureSet),
    lc: &LearnConfig,
    seed: u64,
    (seats, turns): (&[&Moves], f64),
    record: bool,
) -> Episode {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0065_7069_736F_6465);
    let mut rows = crate::agents::moves::Rows::default();
    let mut decisions = 0;
    let mut gradients: Vec<Gradient> = Vec::new();
    while let Status::Decision(d) = game.status() {
        let i = if d.options.len() > 1 {
            let t = f64::from(game.turns()) / turns;
            let policy = seats.get(d.player as usize).copied().unwrap_or(seats[0]);
            // The real game is read: the policy reads only what every seat knows as it is.
            let reading = policy.reading(features, &game, d.player);
            let inputs = policy.inputs_of(&reading, t);
            decisions += 1;
            if record {
                let keys = option_keys(&game, d, lc.policy_parts);
                let scores: Vec<f64> = keys.iter().map(|k| policy.score_of(k, &inputs)).collect();
                let mut chances = crate::agents::model::softmax(&scores);
                if let Some(exits) = wander_exits(&game) {
                    only_exits(&mut chances, &exits);
                }
                let i = draw(&chances, &mut rng);
                let seat = d.player as usize;
                if gradients.len() <= seat {
                    gradients.resize_with(seat + 1, Gradient::default);
                }
                gradients[seat].add(policy, (&keys, &chances, i), (&reading, &inputs));
                i
            } else {
                policy.pick((&game, d), (&inputs, &mut rows), &mut rng)
            }
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
        gradients,
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
pub(super) fn refine(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (start, turns, base, deadline): (&Moves, f64, u64, Option<Instant>),
    tick: &(dyn Fn() + Sync),
) -> (Moves, u32, (f64, f64, f64), f64) {
    let started = Instant::now();
    let features = FeatureSet::new(program, lc.players);
    let inputs = start.width();
    let ascent_position = ASCENT_POSITION * position_step(inputs - 2);
    let ascent_units = ASCENT_POSITION * position_step(start.reads.len());
    let mut policy = start.clone();
    // By key (whether it is a part's, and the key): AdaGrad's sums of squares.
    let mut squares: HashMap<(bool, String), Vec<f64>> = HashMap::new();
    let unit_width = 1 + start.reads.len();
    let mut unit_squares = vec![vec![1e-8; unit_width]; start.units.len()];
    let mut played = 0;
    let play = |seed: u64, policy: &Moves| {
        let e = episode((program, &features), lc, seed, (&[policy], turns), true);
        tick();
        e
    };
    for round in 0..lc.policy_rounds {
        let round_base = game_seed(base, u64::from(round));
        // A round runs only if it would end in time for the whole match after it, or else within
        // [`ROUNDS_SHARE`] of the time, were each game as long as the rounds' so far; before the
        // first round, as long as its first [`TIMING_GAMES`] games a thread, played to time it
        // (and kept as the round's).
        let mut first = Vec::new();
        if let Some(end) = deadline {
            let now = Instant::now();
            let (round_time, left) = if played > 0 {
                let round_time = (now - started) / played;
                (round_time, round_time)
            } else {
                let threads = pool.current_num_threads().max(1) as u64;
                let sample = (threads * TIMING_GAMES).min(ROUND_GAMES);
                first = pool.install(|| {
                    (0..sample)
                        .into_par_iter()
                        .map(|k| play(game_seed(round_base, k), &policy))
                        .collect()
                });
                let game = now.elapsed().div_f64(sample as f64);
                (
                    game.mul_f64(ROUND_GAMES as f64),
                    game.mul_f64((ROUND_GAMES - sample) as f64),
                )
            };
            let total = end.saturating_duration_since(started);
            if !round_fits(started.elapsed(), total, left, round_time) {
                break;
            }
        }
        played += 1;
        let games: Vec<Episode> = pool.install(|| {
            let rest: Vec<Episode> = (first.len() as u64..ROUND_GAMES)
                .into_par_iter()
                .map(|k| play(game_seed(round_base, k), &policy))
                .collect();
            first.into_iter().chain(rest).collect()
        });
        let results = results(&games);
        let seats = results.iter().map(Vec::len).max().unwrap_or(0);
        let mut mean = vec![0.0; seats];
        for r in &results {
            for (m, x) in mean.iter_mut().zip(r) {
                *m += x / games.len().max(1) as f64;
            }
        }
        // Each seat's gradient of each game, weighed by its result less the seat's mean, summed in
        // the games' order (the same whatever the number of threads).
        let mut gradient: rustc_hash::FxHashMap<(bool, &str), Vec<f64>> = Default::default();
        let mut unit_gradient = vec![vec![0.0; unit_width]; policy.units.len()];
        for (g, result) in games.iter().zip(&results) {
            for (s, seat) in g.gradients.iter().enumerate() {
                let advantage =
                    result.get(s).copied().unwrap_or(0.0) - mean.get(s).copied().unwrap_or(0.0);
                for (rows, g) in unit_gradient.iter_mut().zip(&seat.units) {
                    for (e, x) in rows.iter_mut().zip(g) {
                        *e += advantage * x;
                    }
                }
                let parts = seat.parts.iter().map(|(k, v)| ((true, k.as_str()), v));
                for (named, row) in seat
                    .moves
                    .iter()
                    .map(|(k, v)| ((false, k.as_str()), v))
                    .chain(parts)
                {
                    let e = gradient.entry(named).or_insert_with(|| vec![0.0; inputs]);
                    for (e, x) in e.iter_mut().zip(row) {
                        *e += advantage * x;
                    }
                }
            }
        }
        let mut keys: Vec<(bool, &str)> = gradient.keys().copied().collect();
        keys.sort_unstable();
        let n = games.len().max(1) as f64;
        for (part, k) in keys {
            let acc = squares
                .entry((part, k.to_string()))
                .or_insert_with(|| vec![1e-8; inputs]);
            let table = match part {
                true => &mut policy.parts,
                false => &mut policy.weights,
            };
            let w = table
                .entry(k.to_string())
                .or_insert_with(|| vec![0.0; inputs]);
            for (j, ((g, acc), w)) in gradient[&(part, k)]
                .iter()
                .zip(acc.iter_mut())
                .zip(w.iter_mut())
                .enumerate()
            {
                let g = g / n;
                *acc += g * g;
                let step = if j < 2 { ASCENT } else { ascent_position };
                let step = if part { step * PART_STEP } else { step };
                *w += step * g / acc.sqrt();
            }
        }
        for ((unit, g), acc) in policy
            .units
            .iter_mut()
            .zip(&unit_gradient)
            .zip(&mut unit_squares)
        {
            for ((w, g), acc) in unit.iter_mut().zip(g).zip(acc.iter_mut()) {
                let g = g / n;
                *acc += g * g;
                *w += ascent_units * g / acc.sqrt();
            }
        }
    }
    if played == 0 {
        // Not one round fitted in the time: the policy stays as fitted, with no match.
        return (policy, 0, (0.0, 0.0, 0.0), 0.5);
    }
    let (score, baseline, _) = face_off(
        pool,
        program,
        lc,
        (&policy, start),
        (turns, game_seed(base, u64::MAX), deadline),
        tick,
    );
    (policy, played, score, baseline)
}

/// Whether a round of refinement that would take `left` more may start `elapsed` into a time of
/// `total`, where a whole round takes `round`: if it ends in time for the whole match after it
/// (at [`ROUND_GAMES`] games a `round`), or else within [`ROUNDS_SHARE`] of the time.
fn round_fits(elapsed: Duration, total: Duration, left: Duration, round: Duration) -> bool {
    let whole_match = round.mul_f64(MATCH_GAMES as f64 / ROUND_GAMES as f64);
    let until = total
        .mul_f64(ROUNDS_SHARE)
        .max(total.saturating_sub(whole_match));
    elapsed + left <= until
}

/// The weights an option whose keys are `keys` gives the policy's inputs: its move's and its
/// parts' summed (a key never seen: none).
fn summed(policy: &Moves, keys: &OptionKeys) -> Vec<f64> {
    let parts = keys.parts.iter().filter_map(|k| policy.parts.get(k));
    summed_rows(
        policy.width(),
        policy.weights.get(&keys.label).into_iter().chain(parts),
    )
}

/// A match of play-out policy `a` against `b` ([`MATCH_GAMES`] games in batches of 100, then 500,
/// each only if it ends within the time): seats alternated, ties half, `a`'s score with its Wilson
/// interval and one half to beat; where all players are one team, each plays whole games alone
/// (every other game): `a`'s mean result with its interval, and `b`'s mean to beat. Last, the games
/// played.
pub(super) fn face_off(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (a, b): (&Moves, &Moves),
    (turns, seed, deadline): (f64, u64, Option<Instant>),
    tick: &(dyn Fn() + Sync),
) -> ((f64, f64, f64), f64, u64) {
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
        return (
            (first, first - half, first + half),
            second,
            games.len() as u64,
        );
    }
    let total: f64 = results
        .iter()
        .enumerate()
        .map(|(k, r)| r.get(k % players as usize).copied().unwrap_or(0.0))
        .sum();
    (wilson(total, games.len() as u64), 0.5, games.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::round_fits;
    use std::time::Duration;

    fn s(seconds: u64) -> Duration {
        Duration::from_secs(seconds)
    }

    #[test]
    fn a_round_runs_while_it_leaves_the_whole_match_or_within_four_fifths_of_the_time() {
        // 100 s, rounds of 10 s: the whole match (4 rounds' games) leaves the rounds until 60 s,
        // four fifths until 80 s, the later of the two.
        assert!(round_fits(s(0), s(100), s(10), s(10)));
        assert!(round_fits(s(70), s(100), s(10), s(10)));
        assert!(!round_fits(s(75), s(100), s(10), s(10)));
        // A loaded machine: rounds of 30 s in 100 s. Waiting for a round and the whole match
        // (150 s) would play none; the first two fit in four fifths.
        assert!(round_fits(s(0), s(100), s(30), s(30)));
        assert!(round_fits(s(30), s(100), s(30), s(30)));
        assert!(!round_fits(s(60), s(100), s(30), s(30)));
        // A long time: the rounds go on until the whole match is left.
        assert!(round_fits(s(940), s(1000), s(10), s(10)));
        assert!(!round_fits(s(960), s(1000), s(10), s(10)));
    }
}
