//! Learning stage: how `search` uses a learned model, chosen by matches for each script.
//!
//! With a model the search can use it in three ways, or set it aside (`agents/model.rs`,
//! [`Playouts`]):
//! - `end`: every play-out to the end of the game by the play-out policy (`learn/moves.rs`;
//!   unbiased, but each outcome is a win or a loss: noisy);
//! - `turn`: play-outs cut when the next turn begins, the position judged by the evaluation (steady,
//!   but only as right as the evaluation);
//! - `now`: no play-out, each new position of the search's tree judged at once by the evaluation
//!   (many more positions for the same work: where a turn holds many small decisions);
//! - `script`: the model set aside, the search as it plays without one (play-outs of two turns at
//!   random, judged by the script's measure): where the script's `heuristic` or `score` says more
//!   than what was learned (a cooperative game whose partners' hands the features cannot see);
//! - `measure`: the model set aside, and no play-out: each new position judged at once by the
//!   script's measure (`search:...:now:nomodel`).
//!
//! Which serves a game best depends on the game, so `learn` measures it in matches of `search`
//! that may reach [`MATCH_POSITIONS`] positions a decision (`IsmctsAgent::by_positions`: a setting
//! that plays no play-out searches many more positions of its tree than one that plays to the end,
//! as it would in the same time, and the choices are the same on any machine): `end` against
//! `turn` (where a play-out policy was learned), then the winner against `now`, then against
//! `script`, then, where the script has a measure, against `measure`. Where a game of `end` does
//! not fit in a fifth of the time left, `end` is not measured and the matches start from `now`,
//! its challengers `turn`, `script` and `measure`. In a game of sides, the first setting plays one
//! seat and the second the others (seats alternated, a tie half). Where all players are one team,
//! each setting plays whole games alone, both on the same seeds, and compares mean results (a
//! result is `learn.rs`'s `target`: a shared win 1, else the shared score over the best score of
//! the match). The setting so far holds unless its challenger did measurably better ([`holds`]):
//! the 95% interval of its score lies below one half (of the mean difference, for one team, below
//! none).
//!
//! A match plays games in batches of [`BATCH`], up to `--prior-games`. It stops early, after at
//! least [`EARLY`] games, once the 95% interval of its score (of the mean difference, for one team)
//! no longer holds one half (no difference); and it never starts a batch that would end past
//! `--time`, timed by the batch before it (the first by one game). Neither depends on `--jobs`, so
//! the model is the same for any `--jobs` when the time does not cut a match. Without any match
//! the setting is `end`, which the first match chose wherever it ran on the published games
//! and Market Race (docs/performance.md; a cooperative example chose `turn`); without a later one,
//! the setting so far is kept, but for the match against `now`: where it does not fit, `now` is
//! taken.

use super::{config, target, Ended, Fit, Generation, LearnConfig, Stage};
use crate::agents::{make_agent_with, Agent, Model, Playouts};
use crate::engine::{Game, Status};
use crate::program::Program;
use crate::sim::{game_seed, wilson};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Positions a decision of the searches in the matches may reach (`search:Npositions`).
pub const MATCH_POSITIONS: u64 = 250;
/// Games a batch of a match plays before it looks at the score.
pub(super) const BATCH: u64 = 10;
/// Games a match plays at least before it may stop early.
const EARLY: u64 = 10;

/// The search of the matches, as `--agents` names it (`search:250positions`).
pub fn match_search() -> String {
    format!("search:{MATCH_POSITIONS}positions")
}

/// The search of `setting` in the matches.
fn spec(setting: Playouts) -> String {
    let search = match_search();
    match setting {
        Playouts::End => format!("{search}:deep=end"),
        Playouts::Turn => format!("{search}:shallow"),
        Playouts::Now => format!("{search}:now"),
        Playouts::Script => format!("{search}:nomodel"),
        Playouts::Measure => format!("{search}:now:nomodel"),
    }
}

/// One game in which seat `s` plays the search of `settings[s]`, all with `model`.
fn play(
    program: &Arc<Program>,
    lc: &LearnConfig,
    seed: u64,
    model: &Arc<Model>,
    settings: &[Playouts],
) -> Ended {
    play_until(program, lc, (seed, None), model, settings).0
}

/// [`play`], stopped where `until` passes first: how it went, and whether it ended.
fn play_until(
    program: &Arc<Program>,
    lc: &LearnConfig,
    (seed, until): (u64, Option<Instant>),
    model: &Arc<Model>,
    settings: &[Playouts],
) -> (Ended, bool) {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let agents: Result<Vec<Box<dyn Agent>>, String> = (0..lc.players)
        .map(|s| {
            let setting = settings.get(s as usize).copied().unwrap_or(Playouts::Turn);
            make_agent_with(
                program,
                &spec(setting),
                seed ^ (u64::from(s) << 32),
                s,
                Some(model),
            )
        })
        .collect();
    let ended = match agents {
        Ok(mut agents) => super::play_to_end(&mut game, &mut agents, until),
        Err(_) => true,
    };
    (super::ended(&mut game), ended)
}

/// Decisions with a choice timed by [`search_game_time`].
const PROBE: u32 = 4;

/// About how long a game of the matches' search cut at the next turn (`turn`, which plays in every
/// match but where `end` does not fit) would take with `model`: the first [`PROBE`] decisions with
/// a choice of one game (seeded `seed`), timed, times `choices`, the decisions with a choice of a
/// game of the policy.
pub(super) fn search_game_time(
    program: &Arc<Program>,
    lc: &LearnConfig,
    model: &Model,
    seed: u64,
    choices: usize,
) -> Duration {
    let model = Arc::new(model.clone());
    let mut game = Game::new(program.clone(), config(lc, seed));
    let Ok(mut agent) = make_agent_with(program, &spec(Playouts::Turn), seed, 0, Some(&model))
    else {
        return Duration::MAX;
    };
    let (mut timed, mut probed) = (Duration::ZERO, 0u32);
    while probed < PROBE {
        let Status::Decision(d) = game.status() else {
            break;
        };
        let d = d.clone();
        let i = if d.options.len() > 1 {
            let started = Instant::now();
            let i = agent.choose(&game, &d);
            timed += started.elapsed();
            probed += 1;
            i
        } else {
            0
        };
        if game.apply(i).is_err() {
            break;
        }
    }
    timed
        .div_f64(f64::from(probed.max(1)))
        .mul_f64(choices as f64)
}

/// A match's outcome: the first setting's score (its mean result, for one team) with its 95%
/// interval, the second's mean result (one half in a game of sides), the games played, and whether
/// the interval (of the mean difference, for one team) leaves out no difference.
struct Score {
    score: f64,
    low: f64,
    high: f64,
    baseline: f64,
    games: u64,
    decided: bool,
}

/// Game `k` of a match between `first` and `second`: in a game of sides the first's result in seat
/// `k % players`; for one team both settings' games alone on the same seed.
fn game_k(
    program: &Arc<Program>,
    lc: &LearnConfig,
    (base, k): (u64, u64),
    model: &Arc<Model>,
    (first, second, one_team): (Playouts, Playouts, bool),
) -> Vec<Ended> {
    let seed = game_seed(base, k);
    let n = usize::from(lc.players.max(1));
    if one_team {
        return [first, second]
            .map(|s| play(program, lc, seed, model, &vec![s; n]))
            .into();
    }
    let seat = (k % n as u64) as usize;
    let settings: Vec<Playouts> = (0..n)
        .map(|s| if s == seat { first } else { second })
        .collect();
    vec![play(program, lc, seed, model, &settings)]
}

/// Plays the match of `first` against `second` (see the module's notes); `None` when not one batch
/// fits before `deadline`; games are seeded from `base`, and `timed` is how long one game took.
fn match_up(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (model, deadline): (&Arc<Model>, Option<Instant>),
    (first, second, one_team): (Playouts, Playouts, bool),
    (base, timed): (u64, Duration),
    tick: &(dyn Fn() + Sync),
) -> Option<Score> {
    let jobs = lc.jobs.max(1) as f64;
    let mut batch_time = timed.mul_f64(BATCH as f64 / jobs * if one_team { 2.0 } else { 1.0 });
    let mut games: Vec<Vec<Ended>> = Vec::new();
    let played = |games: &[Vec<Ended>]| games.len() as u64;
    let players = usize::from(lc.players.max(1));
    let mut score = None;
    while played(&games) < lc.prior_games {
        if deadline.is_some_and(|end| Instant::now() + batch_time > end) {
            break;
        }
        let started = Instant::now();
        let from = played(&games);
        let to = (from + BATCH).min(lc.prior_games);
        let batch: Vec<Vec<Ended>> = pool.install(|| {
            (from..to)
                .into_par_iter()
                .map(|k| {
                    let e = game_k(program, lc, (base, k), model, (first, second, one_team));
                    tick();
                    e
                })
                .collect()
        });
        games.extend(batch);
        batch_time = started.elapsed();
        let s = if one_team {
            alone(&games)
        } else {
            let results: Vec<f64> = games
                .iter()
                .enumerate()
                .map(|(k, g)| {
                    let seat = k % players;
                    g.first()
                        .and_then(|e| e.seats.get(seat))
                        .and_then(|(share, _)| *share)
                        .unwrap_or(0.5)
                })
                .collect();
            let (p, low, high) = wilson(results.iter().sum(), results.len() as u64);
            (p, low, high, 0.5, low > 0.5 || high < 0.5)
        };
        let (p, low, high, baseline, decided) = s;
        score = Some(Score {
            score: p,
            low,
            high,
            baseline,
            games: played(&games),
            decided,
        });
        if decided && played(&games) >= EARLY {
            break;
        }
    }
    score
}

/// The score of a match of one team: both settings' mean results (seat 0's: all share it), the
/// first's 95% interval, and whether the interval of the mean difference leaves out none.
fn alone(games: &[Vec<Ended>]) -> (f64, f64, f64, f64, bool) {
    let best = games
        .iter()
        .flatten()
        .flat_map(|e| e.seats.iter().map(|(_, s)| *s))
        .fold(0.0, f64::max);
    let result = |e: &Ended| {
        e.seats
            .first()
            .map_or(0.0, |(share, score)| target(*share, *score, true, best))
    };
    let pairs: Vec<(f64, f64)> = games
        .iter()
        .filter_map(|g| Some((result(g.first()?), result(g.get(1)?))))
        .collect();
    let n = pairs.len().max(1) as f64;
    let half = |xs: &mut dyn Iterator<Item = f64>| {
        let xs: Vec<f64> = xs.collect();
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        (mean, 1.96 * (var / n).sqrt())
    };
    let (first, h) = half(&mut pairs.iter().map(|p| p.0));
    let (second, _) = half(&mut pairs.iter().map(|p| p.1));
    let (diff, hd) = half(&mut pairs.iter().map(|p| p.0 - p.1));
    (first, first - h, first + h, second, diff.abs() > hd)
}

/// The matches, in order, each the setting so far against a challenger (the first: `end`
/// against `turn`): `now`, `script`, and `measure` where the script has a measure.
fn challengers(measured: bool) -> Vec<Playouts> {
    let mut all = vec![Playouts::Turn, Playouts::Now, Playouts::Script];
    if measured {
        all.push(Playouts::Measure);
    }
    all
}

/// The setting a model keeps where the match of `held` against `challenger` does not fit in the
/// time: `held`, but `now` where `now` was the challenger. A game whose matches run out of time is
/// one whose play-outs are long, and there `now` does not hang on them (Craft the Crown, with a model
/// whose first match chose `turn`: `now` won 77.5% of 40 games against `sell_for_gold` where `turn`
/// won 17.5%, docs/performance.md).
fn unmeasured(held: Playouts, challenger: Playouts) -> Playouts {
    match challenger {
        Playouts::Now => Playouts::Now,
        Playouts::End | Playouts::Turn | Playouts::Script | Playouts::Measure => held,
    }
}

/// Whether the setting so far holds after match `s`: unless its challenger did measurably better.
/// In a game of sides, unless the 95% interval of the first setting's score lies below one half;
/// where all players are one team, unless the interval of the mean difference leaves out none with
/// the challenger ahead. A match of 100 games at 250 positions a decision is close to a coin flip
/// where two settings are near, and the coin flip is costly: in Heart of Crown `end` lost a match
/// to `now` at 48.0% [38.5-57.7], and the model set to `end` then won 67.5% [60.7-73.6] of 200 games
/// at 50 ms against `dearest_territory`, set to `now` 48.5% [41.7-55.4] (docs/performance.md).
fn holds(s: &Score, one_team: bool) -> bool {
    if one_team {
        !(s.decided && s.score < s.baseline)
    } else {
        s.high >= 0.5
    }
}

/// Plays the matches (see the module's notes) that fit before `deadline`, sets `model.playouts` by
/// them and reports each as a generation of stage `playouts` (`matched`: the setting so far and
/// its challenger; `kept`: the setting so far kept), its score the first setting's.
pub(super) fn choose(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (model, deadline): (&mut Model, Option<Instant>),
    on_generation: &mut dyn FnMut(&Generation),
    tick: &(dyn Fn() + Sync),
) {
    if model.moves.is_empty() {
        return;
    }
    model.playouts = Playouts::End;
    if lc.prior_games == 0 {
        return;
    }
    let base = game_seed(lc.seed ^ 0x0070_6C61_796F, 1);
    // A script without a measure has nothing to judge a position by at once: no `measure` match.
    let measured = Game::new(program.clone(), config(lc, base))
        .script_score(0)
        .is_some();
    // A match that cannot run in the time left is reported with no game, and the setting it
    // leaves (`so`).
    let unplayed = |generation, matched: [Playouts; 2], so, seconds| Generation {
        stage: Stage::Playouts,
        generation,
        games: 0,
        positions: 0,
        reads: 0,
        score: 0.0,
        low: 0.0,
        high: 0.0,
        baseline: 0.5,
        improved: false,
        kept: so == matched[0],
        fit: Fit::default(),
        evaluation: None,
        matched: Some(matched),
        seconds,
    };
    // A first game, timed, of `end` for every seat: whether all players are one team, and how long
    // a game takes. It stops at a fifth of the time left: a batch of the first match plays about
    // five games' worth of `end`. Where it does not fit, the matches go on without `end`, from a
    // first game of `now` (stopped at `deadline`), which the later matches hold unless they measure
    // `turn` (or a setting without the model) better: in a game too long to play out to the end,
    // a play-out of a turn is long too, and in Craft the Crown `turn` lost to the strategies where
    // `now` beat them, while the matches' few games there could not tell the two apart
    // (docs/performance.md). Where neither fits, no match runs.
    let started = Instant::now();
    let seats = usize::from(lc.players.max(1));
    let fifth = deadline.map(|end| started + end.saturating_duration_since(started) / 5);
    let model_now = Arc::new(model.clone());
    let first_game = |setting, until| {
        let seed = game_seed(base, u64::MAX);
        play_until(
            program,
            lc,
            (seed, until),
            &model_now,
            &vec![setting; seats],
        )
    };
    let (mut first, finished) = first_game(Playouts::End, fifth);
    let mut timed = started.elapsed();
    let mut order = challengers(measured);
    let mut generation = 1;
    if !finished {
        let now_started = Instant::now();
        let (now, ended) = first_game(Playouts::Now, deadline);
        let so = if ended { Playouts::Now } else { Playouts::End };
        let matched = [Playouts::End, Playouts::Now];
        on_generation(&unplayed(1, matched, so, started.elapsed().as_secs_f64()));
        if !ended {
            return;
        }
        (first, timed) = (now, now_started.elapsed());
        model.playouts = Playouts::Now;
        order.retain(|&c| c != Playouts::Now);
        generation = 2;
    }
    let one_team = first.shared;
    for (generation, challenger) in (generation..).zip(order) {
        let started = Instant::now();
        let held = model.playouts;
        let matched = [held, challenger];
        let Some(s) = match_up(
            pool,
            program,
            lc,
            (&Arc::new(model.clone()), deadline),
            (held, challenger, one_team),
            (game_seed(base, u64::from(generation)), timed),
            tick,
        ) else {
            let so = unmeasured(held, challenger);
            model.playouts = so;
            let seconds = started.elapsed().as_secs_f64();
            on_generation(&unplayed(generation, matched, so, seconds));
            return;
        };
        let kept = holds(&s, one_team);
        if !kept {
            model.playouts = challenger;
        }
        on_generation(&Generation {
            stage: Stage::Playouts,
            generation,
            games: s.games,
            positions: 0,
            reads: 0,
            score: s.score,
            low: s.low,
            high: s.high,
            baseline: s.baseline,
            improved: s.low > s.baseline,
            kept,
            fit: Fit::default(),
            evaluation: None,
            matched: Some(matched),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{holds, unmeasured, Playouts, Score};

    fn score(score: f64, (low, high): (f64, f64), baseline: f64, decided: bool) -> Score {
        Score {
            score,
            low,
            high,
            baseline,
            games: 100,
            decided,
        }
    }

    /// The setting so far holds through a match it loses by less than the match can tell, and
    /// gives way where its challenger is measurably better.
    #[test]
    fn a_setting_gives_way_only_to_a_challenger_measurably_better() {
        // Heart of Crown's match of `end` against `now` (seed 19): 48.0% [38.5-57.7], `end` holds.
        assert!(holds(&score(0.48, (0.385, 0.577), 0.5, false), false));
        assert!(holds(&score(0.5, (0.4, 0.6), 0.5, false), false));
        assert!(!holds(&score(0.30, (0.22, 0.40), 0.5, true), false));
        // One team: the first's mean result against the second's, decided by their difference.
        assert!(holds(&score(3.8, (3.5, 4.1), 4.0, false), true));
        assert!(holds(&score(4.2, (3.9, 4.5), 4.0, true), true));
        assert!(!holds(&score(3.2, (2.9, 3.5), 4.0, true), true));
    }

    /// A match that does not fit leaves the setting held, but for one against `now`, which is taken.
    #[test]
    fn a_match_against_now_that_does_not_fit_takes_now() {
        use Playouts::{End, Measure, Now, Script, Turn};
        for held in [End, Turn] {
            assert_eq!(unmeasured(held, Now), Now);
        }
        for (held, challenger) in [(End, Turn), (Turn, Script), (Now, Script), (Now, Measure)] {
            assert_eq!(unmeasured(held, challenger), held);
        }
    }
}
