//! Agents stage, tests: whether a budget of positions (`search:Npositions`) costs every way of
//! using a model about the same time, the measure behind `learn`'s matches at equal positions.

use super::{make_agent_with, Model};
use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use crate::learn::{learn, LearnConfig};
use crate::program::Program;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Instant;

/// The checked program of `file`, a path from the repository's root.
fn program(file: &str) -> Arc<Program> {
    let path = format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let checked = check_source(&src);
    Arc::new(checked.program.expect("the script checks"))
}

/// Positions of random games of `program`: every `every`-th decision with a choice, `wanted` in all.
fn positions(program: &Arc<Program>, every: usize, wanted: usize) -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut found = Vec::new();
    for seed in 0.. {
        let mut game = Game::new(program.clone(), GameConfig::new(2, seed));
        let mut k = 0;
        while let Status::Decision(d) = game.status() {
            let n = d.options.len();
            if n > 1 {
                k += 1;
                if k % every == 0 {
                    found.push(game.clone());
                    if found.len() == wanted {
                        return found;
                    }
                }
            }
            if game.apply(rng.gen_range(0..n.max(1))).is_err() {
                break;
            }
        }
    }
    found
}

/// A model of `program` (its text `src`) learned briefly: one generation of the evaluation from
/// `games` games of self-play (its match against `greedy`: `match_games`), a play-out policy fitted
/// to them and not refined, no prior.
pub(super) fn learned_briefly(
    program: &Arc<Program>,
    src: String,
    games: u64,
    match_games: u64,
) -> Model {
    let mut lc = LearnConfig::new(2);
    lc.games = games;
    lc.match_games = match_games;
    lc.generations = 1;
    lc.prior_generations = 0;
    lc.prior_games = 0;
    lc.policy_rounds = 0;
    learn(program.clone(), src, &lc, &mut |_| {}, &|| {}).expect("learning runs")
}

/// The time a decision of `search:2000positions` takes with each setting of a model learned
/// briefly, on positions of random games of three scripts: a budget of positions is fair to the
/// settings when these times are near each other. Ignored: a measurement of time, for a quiet
/// machine; it prints the figures and fails when one setting takes over 5 times another's time.
#[test]
#[ignore]
fn a_budget_of_positions_costs_every_setting_about_the_same_time() {
    for file in [
        "games/craft-the-crown.cardgame",
        "games/heart-of-crown.cardgame",
        "examples/market-race.cardgame",
    ] {
        let program = program(file);
        let model = Arc::new(learned_briefly(&program, String::new(), 30, 10));
        let probes = positions(&program, 7, 12);
        let mut times = Vec::new();
        for flags in [":deep=end", ":shallow", ":now", ":nomodel", ":now:nomodel"] {
            let spec = format!("search:2000positions{flags}");
            let started = Instant::now();
            for (k, position) in probes.iter().enumerate() {
                let Status::Decision(d) = position.status() else {
                    continue;
                };
                let mut agent = make_agent_with(&program, &spec, k as u64, d.player, Some(&model))
                    .expect("the search");
                agent.choose(position, d);
            }
            let ms = started.elapsed().as_secs_f64() * 1000.0 / probes.len() as f64;
            println!("{file}: {spec} {ms:.1} ms a decision");
            times.push(ms);
        }
        let (least, most) = times
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, m), &t| (l.min(t), m.max(t)));
        assert!(most <= 5.0 * least, "{file}: {times:?}");
    }
}
