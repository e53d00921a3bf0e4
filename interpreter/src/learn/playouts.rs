//! Learning stage: how `search` plays out with a learned model, chosen by a match for each script.
//!
//! With a play-out policy learned (`learn/moves.rs`), the search can play every play-out to the end
//! of the game by it (unbiased, but each outcome is a win or a loss: noisy), or cut it when the next
//! turn begins and judge the position by the evaluation (steady, but only as right as the
//! evaluation). Which serves a game better depends on the game: so `learn` plays the two against each
//! other, `search:N:deep=end` against `search:N:shallow` with the model ([`ITERATIONS`] iterations a
//! decision, `--prior-games` games, seats alternated, ties half), and the model says which won
//! (`playouts end` or `playouts turn`; a tie keeps the cut play-outs). The match runs only if one game
//! of it, timed first, says that all of them would end within `--time`, and not where all players are
//! one team (a cooperative game: the seats would be judged together).

use super::{config, Fit, Generation, LearnConfig, Stage};
use crate::agents::{make_agent_with, Agent, Goals, Model};
use crate::engine::{Game, Status};
use crate::program::Program;
use crate::sim::{game_seed, wilson};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Iterations a decision of both searches in the match.
pub const ITERATIONS: u32 = 100;

/// One game of the match: the search to the end in `seat`, the search cut at the next turn in the
/// others; returns the first one's result (its share of the win; a game nobody won counts half) and
/// whether all players were one team where it ended.
fn play(
    program: &Arc<Program>,
    lc: &LearnConfig,
    seed: u64,
    model: &Arc<Model>,
    seat: usize,
) -> (f64, bool) {
    let mut game = Game::new(program.clone(), config(lc, seed));
    let agents: Result<Vec<Box<dyn Agent>>, String> = (0..lc.players)
        .map(|s| {
            let how = if s as usize == seat {
                "deep=end"
            } else {
                "shallow"
            };
            make_agent_with(
                program,
                &format!("search:{ITERATIONS}:{how}"),
                seed ^ (u64::from(s) << 32),
                s,
                Some(model),
            )
        })
        .collect();
    let Ok(mut agents) = agents else {
        return (0.5, false);
    };
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let Some(agent) = agents.get_mut(d.player as usize) else {
            break;
        };
        let i = agent.choose(&game, &d);
        if game.apply(i).is_err() {
            break;
        }
    }
    let goals = Goals::of(&game);
    let score = match game.status() {
        Status::Over(o) => match goals.shares(o) {
            Some(s) => s.get(seat).copied().unwrap_or(0.0),
            None => 0.5,
        },
        Status::Decision(_) | Status::Error(_) => 0.5,
    };
    (score, goals.shared())
}

/// Plays the match (see the module's notes) when it fits before `deadline`, sets
/// `model.to_the_end` by it and reports it as a generation of stage `playouts` (its score: the
/// play-outs to the end's).
pub(super) fn choose(
    pool: &rayon::ThreadPool,
    program: &Arc<Program>,
    lc: &LearnConfig,
    (model, deadline): (&mut Model, Option<Instant>),
    on_generation: &mut dyn FnMut(&Generation),
    tick: &(dyn Fn() + Sync),
) {
    if model.moves.is_empty() || lc.prior_games == 0 {
        return;
    }
    let started = Instant::now();
    let shared = Arc::new(model.clone());
    let base = game_seed(lc.seed ^ 0x0070_6C61_796F, 1);
    // A first game, timed: where all players are one team, the seats' play-outs would be judged
    // together, so there is no match to play (the play-outs stay cut).
    let (_, one_team) = play(program, lc, game_seed(base, u64::MAX), &shared, 0);
    if one_team {
        return;
    }
    if let Some(end) = deadline {
        let games = lc.prior_games as f64 / lc.jobs.max(1) as f64;
        if Instant::now() + started.elapsed().mul_f64(games) > end {
            return;
        }
    }
    let players = u64::from(lc.players.max(1));
    let scores: Vec<f64> = pool.install(|| {
        (0..lc.prior_games)
            .into_par_iter()
            .map(|k| {
                let (s, _) = play(
                    program,
                    lc,
                    game_seed(base, k),
                    &shared,
                    (k % players) as usize,
                );
                tick();
                s
            })
            .collect()
    });
    let (score, low, high) = wilson(scores.iter().sum(), scores.len() as u64);
    model.to_the_end = score > 0.5;
    on_generation(&Generation {
        stage: Stage::Playouts,
        generation: 1,
        games: lc.prior_games,
        positions: 0,
        score,
        low,
        high,
        baseline: 0.5,
        improved: low > 0.5,
        kept: model.to_the_end,
        fit: Fit::default(),
        evaluation: None,
        seconds: Duration::as_secs_f64(&started.elapsed()),
    });
}
