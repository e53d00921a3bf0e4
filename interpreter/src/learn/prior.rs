//! Learning stage: the prior over options of `cardgame learn` (`agents/model.rs`, `Prior`), fitted
//! to what the search chose in self-play, for any script.
//!
//! Once the evaluation is learned, *prior generations* run. Each plays games in which every seat is
//! `search` with a fixed number of iterations per decision ([`ITERATIONS`]: the same games whatever
//! the machine's speed or `--jobs`), with the model so far. At every decision with a choice, the
//! search's visits at the root are the target (an expert-iteration, AlphaZero-style policy target:
//! the share of the iterations that went through each option), and the prior's inputs of each
//! option are read in a possible world of the decider (`Game::determinize_by_holder`, as for the
//! evaluation): the model's logit of where the option leads and the features it changes. The prior
//! is fitted on the decisions of the last `WINDOW` generations by AdaGrad steps of stochastic
//! gradient descent on the cross-entropy between its softmax and the visits (every tenth game held
//! out; the pass with the lowest held-out loss kept), starting from the prior so far. The new prior's
//! search then plays the previous one's (seats alternated, ties half, a Wilson interval). It is kept
//! when its held-out loss is below the previous prior's unless the match shows it worse (the
//! interval's top below one half): a match of a hundred games tells a few points apart from none.
//! Learning stops as the evaluation's does: after `PATIENCE` generations in a row whose interval
//! does not lie above one half, or before a generation that would end past the time.

use super::{config, Fit, Generation, LearnConfig, PATIENCE, WINDOW};
use crate::agents::{make_agent_with, option_inputs, Agent, Goals, Model};
use crate::engine::{Game, Status};
use crate::program::Program;
use crate::sim::{game_seed, wilson};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Iterations per decision of the search in the prior's self-play and matches.
pub const ITERATIONS: u32 = 300;

/// One decision of self-play: each option's inputs (`Model::option_inputs`), the progress, and the
/// share of the search's root visits that went through the option.
struct Choice {
    inputs: Vec<Vec<f64>>,
    t: f64,
    target: Vec<f64>,
}

/// The search of the prior's self-play with `model` for `seat`.
fn searcher(program: &Program, model: &Arc<Model>, seed: u64, seat: u8) -> Box<dyn Agent> {
    match make_agent_with(
        program,
        &format!("search:{ITERATIONS}"),
        seed,
        seat,
        Some(model),
    ) {
        Ok(a) => a,
        // The spec is fixed and valid; a search is always made.
        Err(e) => unreachable!("search:{ITERATIONS}: {e}"),
    }
}

/// Plays one game of `model`'s search in every seat (`record`: noting each decision's root visits
/// and its options' inputs), or of `new` against `old` (the new one in `seat`). Returns the
/// decisions recorded and `seat`'s result (its share of the win; a game nobody won counts half).
fn play(
    program: &Arc<Program>,
    lc: &LearnConfig,
    seed: u64,
    (new, old, seat): (&Arc<Model>, &Arc<Model>, usize),
    record: bool,
) -> (Vec<Choice>, f64) {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let mut agents: Vec<Box<dyn Agent>> = (0..lc.players)
        .map(|s| {
            let m = if record || s as usize == seat {
                new
            } else {
                old
            };
            searcher(program, m, seed ^ (u64::from(s) << 32), s)
        })
        .collect();
    let mut choices = Vec::new();
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let Some(agent) = agents.get_mut(d.player as usize) else {
            break;
        };
        let i = if record && d.options.len() > 1 {
            let (i, why) = agent.choose_explained(&game, &d);
            // The options the search weighed, by their first index, and their visits.
            let mut allowed = Vec::new();
            let mut visits = Vec::new();
            for w in &why.options {
                if let (Some(k), Some(v)) =
                    (d.options.iter().position(|o| *o == w.option), w.visits)
                {
                    allowed.push(k);
                    visits.push(f64::from(v));
                }
            }
            let total: f64 = visits.iter().sum();
            if allowed.len() > 1 && total > 0.0 {
                let mut world =
                    game.determinize_by_holder(d.player, game_seed(seed, choices.len() as u64));
                world.set_recording(false);
                let goals = Goals::of(&world);
                let (t, inputs) = option_inputs(new, &world, &allowed, d.player, &goals);
                let kept: Vec<(Vec<f64>, f64)> = inputs
                    .into_iter()
                    .zip(&visits)
                    .filter_map(|(q, v)| q.map(|q| (q, v / total)))
                    .collect();
                if kept.len() > 1 {
                    let (inputs, target) = kept.into_iter().unzip();
                    choices.push(Choice { inputs, t, target });
                }
            }
            i
        } else {
            agent.choose(&game, &d)
        };
        if game.apply(i).is_err() {
            break;
        }
    }
    let score = match game.status() {
        Status::Over(o) => match Goals::of(&game).shares(o) {
            Some(s) => s.get(seat).copied().unwrap_or(0.0),
            None => 0.5,
        },
        Status::Decision(_) | Status::Error(_) => 0.5,
    };
    (choices, score)
}

/// How long a prior generation of `model` may take: one game of its search, timed, times the
/// generation's games (self-play and match) over the jobs.
pub(super) fn generation_time(
    program: &Arc<Program>,
    lc: &LearnConfig,
    model: &Arc<Model>,
) -> Duration {
    let started = Instant::now();
    play(
        program,
        lc,
        game_seed(lc.seed, u64::MAX - 1),
        (model, model, 0),
        false,
    );
    let games = 2.0 * lc.prior_games as f64 / lc.jobs.max(1) as f64;
    started.elapsed().mul_f64(games)
}

/// The mean cross-entropy of `model`'s prior on `choices`.
fn loss(model: &Model, choices: &[&Choice]) -> f64 {
    let mut total = 0.0;
    for c in choices {
        let scores: Vec<f64> = c.inputs.iter().map(|q| model.prior.score(q, c.t)).collect();
        let p = crate::agents::model::softmax(&scores);
        for (p, y) in p.iter().zip(&c.target) {
            total -= y * p.max(1e-12).ln();
        }
    }
    total / choices.len().max(1) as f64
}

/// Passes over the decisions at most, the step of AdaGrad, and the L2 penalty on the weights of the
/// features' changes.
const EPOCHS: u32 = 30;
const RATE: f64 = 0.05;
const L2: f64 = 1e-3;

/// Fits `model`'s prior on `train` from where it is (see the module's notes), keeping the pass with
/// the lowest cross-entropy on `held`. Returns that loss, and the blank prior's (the evaluation's
/// own preference) on `held`.
fn fit(model: &mut Model, train: &[&Choice], held: &[&Choice], seed: u64) -> Fit {
    let constant = {
        let mut blank = model.clone();
        blank.prior = crate::agents::model::Prior::blank(model.names.len());
        blank.prior.fitted = true;
        loss(&blank, held)
    };
    let judged = |m: &Model| loss(m, if held.is_empty() { train } else { held });
    let n = model.names.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (mut gv, mut gvt, mut ga, mut gb) = (1e-8, 1e-8, vec![1e-8; n], vec![1e-8; n]);
    if !model.prior.fitted {
        model.prior = crate::agents::model::Prior::blank(n);
        model.prior.fitted = true;
    }
    let mut best = (judged(model), model.prior.clone());
    for _ in 0..EPOCHS {
        order.shuffle(&mut rng);
        for &r in &order {
            let c = train[r];
            let scores: Vec<f64> = c.inputs.iter().map(|q| model.prior.score(q, c.t)).collect();
            let p = crate::agents::model::softmax(&scores);
            let (mut dv, mut dvt) = (0.0, 0.0);
            let (mut da, mut db) = (vec![0.0; n], vec![0.0; n]);
            for ((q, p), y) in c.inputs.iter().zip(&p).zip(&c.target) {
                let g = p - y;
                if g == 0.0 {
                    continue;
                }
                dv += g * q[0];
                dvt += g * q[0] * c.t;
                for (j, d) in q[1..].iter().enumerate() {
                    da[j] += g * d;
                    db[j] += g * d * c.t;
                }
            }
            let prior = &mut model.prior;
            gv += dv * dv;
            gvt += dvt * dvt;
            prior.value -= RATE * dv / f64::sqrt(gv);
            prior.value_t -= RATE * dvt / f64::sqrt(gvt);
            for j in 0..n {
                let da = da[j] + L2 * prior.a[j];
                let db = db[j] + L2 * prior.b[j];
                if da == 0.0 && db == 0.0 {
                    continue;
                }
                ga[j] += da * da;
                gb[j] += db * db;
                prior.a[j] -= RATE * da / ga[j].sqrt();
                prior.b[j] -= RATE * db / gb[j].sqrt();
            }
        }
        let l = judged(model);
        if l < best.0 {
            best = (l, model.prior.clone());
        } else {
            break;
        }
    }
    model.prior = best.1;
    Fit {
        loss: best.0,
        constant,
    }
}

/// Runs the prior generations from `model` (the evaluation learned), `lc.prior_generations` at most,
/// while a generation would end before `deadline` (were it as long as the last; the first, as long as
/// one game of the search timed before it, times its games over the jobs); returns the model with the
/// prior kept.
pub(super) fn learn_prior(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    model: Model,
    deadline: Option<(Instant, Duration)>,
    on_generation: &mut dyn FnMut(&Generation),
    tick: &(dyn Fn() + Sync),
) -> Model {
    let mut current = Arc::new(model);
    let mut data: VecDeque<Vec<Vec<Choice>>> = VecDeque::new();
    let mut misses = 0;
    for generation in 1..=lc.prior_generations {
        let gen_started = Instant::now();
        let base = game_seed(lc.seed ^ 0x0070_7269_6F72, u64::from(generation));
        if generation == 1 {
            if let Some((started, time)) = deadline {
                // The first generation runs only if it would end within the time, were it as long
                // as a game of the search timed now.
                if started.elapsed() + generation_time(program, lc, &current) > time {
                    break;
                }
            }
        }
        let played: Vec<Vec<Choice>> = pool.install(|| {
            (0..lc.prior_games)
                .into_par_iter()
                .map(|k| {
                    let seed = game_seed(base, k);
                    let (c, _) = play(program, lc, seed, (&current, &current, 0), true);
                    tick();
                    c
                })
                .collect()
        });
        data.push_back(played);
        if data.len() > WINDOW {
            data.pop_front();
        }
        let rows = |held: bool| -> Vec<&Choice> {
            data.iter()
                .flatten()
                .enumerate()
                .filter(|(i, _)| (i % 10 == 9) == held)
                .flat_map(|(_, g)| g.iter())
                .collect()
        };
        let (train, held) = (rows(false), rows(true));
        let mut next = (*current).clone();
        let fitted = fit(&mut next, &train, &held, base);
        let next = Arc::new(next);
        let match_base = game_seed(base, u64::MAX);
        let scores: Vec<f64> = pool.install(|| {
            (0..lc.prior_games)
                .into_par_iter()
                .map(|k| {
                    let seed = game_seed(match_base, k);
                    let seat = (k % u64::from(lc.players.max(1))) as usize;
                    let (_, s) = play(program, lc, seed, (&next, &current, seat), false);
                    tick();
                    s
                })
                .collect()
        });
        let (score, low, high) = wilson(scores.iter().sum(), scores.len() as u64);
        let improved = low > 0.5;
        // Kept when it predicts the search's visits better than the prior it replaces, unless its
        // match shows it worse (the interval below one half).
        let before = loss(&current, &held);
        let kept = fitted.loss < before && high >= 0.5;
        on_generation(&Generation {
            stage: "prior",
            generation,
            games: lc.prior_games,
            positions: train.len() + held.len(),
            score,
            low,
            high,
            baseline: 0.5,
            improved,
            kept,
            fit: fitted,
            seconds: gen_started.elapsed().as_secs_f64(),
        });
        if kept {
            current = next;
        }
        misses = if improved { 0 } else { misses + 1 };
        let too_late = deadline
            .is_some_and(|(started, time)| started.elapsed() + gen_started.elapsed() > time);
        if misses >= PATIENCE || too_late {
            break;
        }
    }
    Arc::try_unwrap(current).unwrap_or_else(|m| (*m).clone())
}

#[cfg(test)]
mod tests {
    use super::{fit, loss, Choice};
    use crate::agents::{script_hash, Model};
    use crate::check::check_source;

    #[test]
    fn the_prior_learns_the_options_the_search_visited_most() {
        let src = "game \"P\" { players 2 }\ncard \"Gem\" { copies 2 }\n\
                   zone hand per player: set\nflow { win [seat(1)] \"x\" }\n";
        let p = check_source(src).program.expect("checks");
        let mut m = Model::blank(&p, script_hash(src), 2);
        m.restrict(&[0, 1]);
        // Two options: the one that adds a card (feature 0 up by 1) took 90% of the visits early
        // (t = 0.2) and 10% late (t = 0.8), whatever the logit, which misleads (it favours the other).
        let choice = |t: f64, early: bool| Choice {
            inputs: vec![vec![-0.5, 1.0, 0.0], vec![0.5, 0.0, 0.0]],
            t,
            target: if early {
                vec![0.9, 0.1]
            } else {
                vec![0.1, 0.9]
            },
        };
        let data: Vec<Choice> = (0..200)
            .map(|k| choice(if k % 2 == 0 { 0.2 } else { 0.8 }, k % 2 == 0))
            .collect();
        let rows: Vec<&Choice> = data.iter().collect();
        let before = loss(&m, &rows);
        let f = fit(&mut m, &rows[..180], &rows[180..], 3);
        assert!((f.constant - before).abs() < 1e-12);
        assert!(f.loss < before - 0.1, "{} against {before}", f.loss);
        // Adding the card scores higher early than late.
        let score =
            |t: f64| m.prior.score(&[-0.5, 1.0, 0.0], t) - m.prior.score(&[0.5, 0.0, 0.0], t);
        assert!(
            score(0.2) > 0.0 && score(0.8) < 0.0,
            "{} {}",
            score(0.2),
            score(0.8)
        );
    }
}
