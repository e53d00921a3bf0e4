//! Simulation stage: many seeded games in parallel, aggregated into statistics a designer can read.
//!
//! Game `i` is seeded from the base seed and `i` alone, and each game runs on one thread from start to
//! end, so the report is the same whatever the number of threads.

use crate::agents::make_agent_with;
use crate::catalog::{Catalog, Shard};
use crate::engine::{Game, GameConfig, GameFactory, Status};
use crate::figures::Figures;
use crate::program::Program;
pub use crate::rate::{wilson, Rate};
pub use crate::study::*;
pub use crate::tally::Tally;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The game factories of one study (`GameFactory`): one for games whose players read option labels
/// and one for games whose players do not, made before the first game and shared by its threads.
pub(crate) struct Factories {
    labelled: GameFactory,
    unlabelled: GameFactory,
}

impl Factories {
    pub(crate) fn new(program: &Arc<Program>, cfg: &SimConfig) -> Factories {
        let mut config = config_of(cfg, cfg.seed);
        config.labels = true;
        let labelled = GameFactory::new(program.clone(), config.clone());
        config.labels = false;
        let unlabelled = GameFactory::new(program.clone(), config);
        Factories {
            labelled,
            unlabelled,
        }
    }

    /// The game of `config`, made by the study's factory of its labels.
    fn game(&self, config: GameConfig) -> Game {
        let factory = match config.labels {
            true => &self.labelled,
            false => &self.unlabelled,
        };
        match factory.makes(&config) {
            true => factory.game(config.seed),
            false => Game::new(factory.program().clone(), config),
        }
    }
}

/// The configuration of a study's game of `seed`, before its players decide whether labels are built.
fn config_of(cfg: &SimConfig, seed: u64) -> GameConfig {
    let mut config = GameConfig::new(cfg.players, seed);
    config.options = cfg.options.clone();
    config.max_turns = cfg.max_turns;
    config.max_decisions = cfg.max_decisions;
    config.max_steps = cfg.max_steps;
    config.engine = cfg.engine;
    config.record = false;
    config
}

/// Plays game `index` of the study `cfg` (its seed and its seating), adding it to `figures` if given.
pub(crate) fn play_one(
    program: &Arc<Program>,
    cfg: &SimConfig,
    factories: &Factories,
    index: u64,
    figures: Option<&Mutex<Figures>>,
) -> Record {
    let seed = game_seed(cfg.seed, index);
    let n = cfg.players as usize;
    let shift = if cfg.rotate {
        (index % n as u64) as usize
    } else {
        0
    };
    let seating: Vec<String> = (0..n)
        .map(|seat| {
            let slot = (seat + n - shift) % n;
            cfg.agents
                .get(slot)
                .or(cfg.agents.last())
                .cloned()
                .unwrap_or_else(|| "random".into())
        })
        .collect();
    play_seated_with(program, cfg, factories, seed, seating, figures)
}

/// Plays one game from `seed` with the agents of `seating` (one per seat), under the players, options
/// and limits of `cfg` (its agents, games and rotation are not read).
pub(crate) fn play_seated(
    program: &Arc<Program>,
    cfg: &SimConfig,
    factories: &Factories,
    seed: u64,
    seating: Vec<String>,
) -> Record {
    play_seated_with(program, cfg, factories, seed, seating, None)
}

/// [`play_seated`], adding the game to `figures` when it ends (not after an engine error).
fn play_seated_with(
    program: &Arc<Program>,
    cfg: &SimConfig,
    factories: &Factories,
    seed: u64,
    seating: Vec<String>,
    figures: Option<&Mutex<Figures>>,
) -> Record {
    let n = seating.len();
    let mut config = config_of(cfg, seed);
    let mut agents = Vec::with_capacity(n);
    for (seat, name) in seating.iter().enumerate() {
        match make_agent_with(program, name, seed, seat as u8, cfg.model.as_ref()) {
            Ok(a) => agents.push(a),
            Err(e) => {
                return Record {
                    seed,
                    seating,
                    winners: vec![],
                    participants: vec![],
                    present: vec![],
                    reason: String::new(),
                    finished: false,
                    error: Some(e),
                    turns: 0,
                    decisions: 0,
                    holdings: vec![],
                    performed: vec![],
                    teams: None,
                    stats: vec![],
                    course: None,
                    curves: Vec::new(),
                }
            }
        }
    }
    // Labels are built only for players that read them.
    config.labels = agents.iter().any(|a| a.reads_labels());
    let mut game = factories.game(config);
    let start = game.holdings();
    let out_of_box = match figures {
        Some(_) => game.kinds_out_of_box(),
        None => Vec::new(),
    };
    // In a study's games, each seat's score after each turn (the course figures).
    let measure = figures
        .filter(|_| cfg.course)
        .and_then(|_| crate::course::measure(program))
        .map(|m| m.0);
    let mut course = measure.map(|_| crate::course::Course::default());
    // The curves asked for, in a study's games.
    let follow: &[crate::curves::Curve] = match figures {
        Some(_) => &cfg.curves,
        None => &[],
    };
    let mut curves = vec![Vec::new(); follow.len()];
    let mut readings = vec![crate::curves::Reading::default(); follow.len()];
    // Turns read so far: turn T's reading is the position at its first decision; a turn without a
    // decision takes the reading of the next decision, or of the game's end.
    let mut read = 0usize;
    loop {
        let upto = game.turns() as usize;
        if upto > read && (course.is_some() || !follow.is_empty()) {
            let copies = upto - read;
            read = upto;
            if let (Some(f), Some(c)) = (measure, course.as_mut()) {
                let scores: Option<Vec<i64>> = (0..n as u8)
                    .map(|seat| game.seat_function_here(f, seat))
                    .collect();
                if let Some(scores) = scores {
                    c.scores.extend(std::iter::repeat_n(scores, copies));
                }
            }
            for ((curve, values), so_far) in follow.iter().zip(curves.iter_mut()).zip(&mut readings)
            {
                let now = curve.read(&mut game, program, so_far);
                values.extend(std::iter::repeat_n(now, copies));
            }
        }
        let Status::Decision(d) = game.status() else {
            break;
        };
        let choice = agents[d.player as usize % n]
            .choose(&game, d)
            .min(d.options.len().saturating_sub(1));
        if game.apply(choice).is_err() {
            break;
        }
    }
    if let (Some(f), false) = (figures, matches!(game.status(), Status::Error(_))) {
        // Sums of whole numbers: the order in which games are added does not matter.
        if let Ok(mut f) = f.lock() {
            f.add(program, &game, &out_of_box);
        }
    }
    let end = game.holdings();
    let holdings = end
        .iter()
        .zip(start.iter().chain(std::iter::repeat(&Vec::new())))
        .map(|(e, s)| {
            e.iter()
                .enumerate()
                .map(|(k, c)| c.saturating_sub(s.get(k).copied().unwrap_or(0)))
                .collect()
        })
        .collect();
    let (winners, participants, reason, finished, error) = match game.status() {
        Status::Over(o) => (
            o.winners.clone(),
            o.participants.clone(),
            o.reason.clone(),
            o.finished,
            None,
        ),
        Status::Error(e) => (vec![], vec![], String::new(), false, Some(e.to_string())),
        Status::Decision(_) => (
            vec![],
            vec![],
            String::new(),
            false,
            Some("stopped at a decision".into()),
        ),
    };
    let mut present = game.participants_holding();
    for w in &participants {
        if !present.contains(w) {
            present.push(w.clone());
        }
    }
    Record {
        seed,
        seating,
        winners,
        participants,
        present,
        reason,
        finished,
        error,
        turns: game.turns(),
        decisions: game.steps(),
        holdings,
        performed: game.performed(),
        teams: game.teams(),
        stats: crate::figures::per_game(program, &game),
        course,
        curves,
    }
}

/// Run the simulation. `tick` is called once per finished game (for a progress bar).
pub fn simulate(
    program: &Arc<Program>,
    cfg: &SimConfig,
    tick: &(dyn Fn() + Sync),
) -> Result<SimReport, String> {
    let (tally, figures, seconds) = simulate_raw(program, cfg, tick)?;
    let mut report = report_of(
        &Catalog::of(program),
        &tally,
        &figures,
        (cfg.players, cfg.seed, cfg.jobs),
        seconds,
    );
    report.settings = cfg.settings.clone();
    Ok(report)
}

/// Plays the games of the simulation (those of its shard, if it has one) and returns their raw
/// figures, whole-number sums that add up shard by shard, with the seconds it took.
pub(crate) fn simulate_raw(
    program: &Arc<Program>,
    cfg: &SimConfig,
    tick: &(dyn Fn() + Sync),
) -> Result<(Tally, Figures, f64), String> {
    for (seat, a) in cfg.agents.iter().enumerate() {
        make_agent_with(program, a, 0, seat as u8, cfg.model.as_ref())?;
    }
    let shard = cfg.shard.unwrap_or(Shard { index: 0, count: 1 });
    if shard.count == 0 || shard.index >= shard.count {
        return Err(format!(
            "--shard {}/{}: K must be from 0 to N-1",
            shard.index, shard.count
        ));
    }
    let started = Instant::now();
    let mut tally = Tally::new(program, cfg.players);
    if !cfg.course {
        tally.without_course();
    }
    tally.follow(&cfg.curves, cfg.players);
    let figures = Mutex::new(Figures::new(program));
    // The shard's j-th game is game K + j*N of the whole study: same seed, same seating.
    let index = |j: u64| shard.index + j * shard.count;
    let factories = Factories::new(program, cfg);
    play_in_chunks(
        cfg.jobs,
        shard.games_of(cfg.games),
        &|j| play_one(program, cfg, &factories, index(j), Some(&figures)),
        tick,
        &mut |j, r| tally.add(program, cfg, index(j), r),
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let figures = figures.into_inner().map_err(|e| e.to_string())?;
    Ok((tally, figures, seconds))
}

/// The report of raw figures (of one run, or of merged shards); `head` is the players, the seed and
/// the jobs the report names.
pub(crate) fn report_of(
    catalog: &Catalog,
    tally: &Tally,
    figures: &Figures,
    head: (u8, u64, usize),
    seconds: f64,
) -> SimReport {
    let mut report = tally.report(catalog, head, seconds);
    (report.stats, report.unused) = figures.report(catalog);
    report
}

/// Plays games `0..games` with `play` on `jobs` threads, calling `tick` as each ends, and hands their
/// records to `add` in the order of the games. Games are played in chunks and tallied as each chunk
/// ends: the result is the same for any number of jobs, and memory does not grow with the number of
/// games.
pub(crate) fn play_in_chunks(
    jobs: usize,
    games: u64,
    play: &(dyn Fn(u64) -> Record + Sync),
    tick: &(dyn Fn() + Sync),
    add: &mut dyn FnMut(u64, &Record),
) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let mut first = 0;
    while first < games {
        let last = games.min(first + CHUNK);
        let records: Vec<Record> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|i| {
                    let r = play(i);
                    tick();
                    r
                })
                .collect()
        });
        for (i, r) in (first..).zip(&records) {
            add(i, r);
        }
        first = last;
    }
    Ok(())
}

/// Games played before their records are tallied (see `simulate`).
const CHUNK: u64 = 4096;

#[cfg(test)]
mod tests {
    use super::Spread;
    use std::collections::BTreeMap;

    /// The spread of a histogram is that of the sorted list of its values: mean, and the values at
    /// sorted positions round((n - 1) * 0.5) and round((n - 1) * 0.9).
    #[test]
    fn spread_of_a_histogram_matches_the_sorted_values() {
        let values = [7u64, 3, 3, 9, 12, 3, 7, 40, 5, 5, 6];
        let mut h = BTreeMap::new();
        for v in values {
            *h.entry(v).or_insert(0) += 1;
        }
        let mut sorted = values.to_vec();
        sorted.sort();
        let s = Spread::of(&h);
        assert_eq!(s.median, sorted[5] as f64);
        assert_eq!(s.p90, sorted[9] as f64);
        assert_eq!(s.mean, values.iter().sum::<u64>() as f64 / 11.0);
        assert_eq!((s.median, s.p90), (6.0, 12.0));
        assert_eq!(Spread::of(&BTreeMap::new()).mean, 0.0);
    }
}
