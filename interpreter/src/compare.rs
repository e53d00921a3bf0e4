//! Simulation stage: a paired comparison of two studies (`cardgame compare`). Both sides play game
//! `i` from the same seed with the same seating (common random numbers), so that what differs between
//! their games is what differs between the sides; every figure's difference gets an interval,
//! simultaneous over the figures compared (Bonferroni), and `--until-decided` stops as soon as a
//! confidence sequence for one named figure excludes 0.

use crate::diag::did_you_mean;
use crate::paired::{normal_quantile, sequence_half_width, Estimate, Paired};
use crate::program::Program;
use crate::sim::{play_one, reason_key, Factories, Record, SimConfig};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// One side of a comparison: a program (a script, or a variant of it) and its study. The two sides'
/// studies share games, players, seed, agents, rotation and limits; their options, settings and
/// models may differ.
pub struct Side {
    pub program: Arc<Program>,
    pub cfg: SimConfig,
    /// How the report names the side: the script's path and what was set.
    pub label: String,
}

/// One figure of the comparison.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Figure {
    pub name: String,
    /// Side A's value and side B's (`None`: the side has nothing to average, as a statistic it
    /// never recorded).
    pub a: Option<f64>,
    pub b: Option<f64>,
    /// `b - a`, with its interval.
    pub difference: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The interval excludes 0.
    pub significant: bool,
    /// A share of games (shown as a percentage), rather than a mean.
    pub rate: bool,
}

/// Where `--until-decided` stopped.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Decision {
    pub figure: String,
    /// The games played when the study stopped.
    pub games: u64,
    /// Whether the confidence sequence excluded 0 (else the study ran to its bound).
    pub decided: bool,
    pub difference: f64,
    pub low: f64,
    pub high: f64,
    /// A share of games (shown as a percentage), rather than a mean.
    pub rate: bool,
}

/// The report of a comparison.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ComparisonReport {
    pub game: String,
    pub a: String,
    pub b: String,
    pub players: u8,
    /// The pairs of games compared (both sides ended without an engine error).
    pub games: u64,
    pub seed: u64,
    pub agents: Vec<String>,
    pub rotate: bool,
    /// Games that ended with an engine error, per side (their pairs are left out).
    pub errors_a: u64,
    pub errors_b: u64,
    /// The level of every interval (0.95), simultaneous over `compared` figures (those that differed
    /// between the sides in some game).
    pub confidence: f64,
    pub compared: usize,
    pub figures: Vec<Figure>,
    pub until_decided: Option<Decision>,
    pub seconds: f64,
}

/// The figures of the games compared so far.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Tally {
    pub(crate) games: u64,
    pub(crate) errors: (u64, u64),
    pub(crate) names: Vec<String>,
    pub(crate) rates: Vec<bool>,
    pub(crate) sums: Vec<Paired>,
    /// Where each figure was first named: the game's index in the study and its place among that
    /// game's figures (the order of the report, whatever games a shard played).
    pub(crate) first: Vec<(u64, usize)>,
    #[serde(skip)]
    pub(crate) index: HashMap<String, usize>,
}

impl Tally {
    fn figure(&mut self, name: String, rate: bool, at: (u64, usize)) -> usize {
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        self.index.insert(name.clone(), self.names.len());
        self.names.push(name);
        self.rates.push(rate);
        self.first.push(at);
        // A rate seen for the first time was 0 in the games before.
        self.sums.push(match rate {
            true => Paired::zeros(self.games),
            false => Paired::default(),
        });
        self.names.len() - 1
    }

    /// Adds the figures of game `game` of the study.
    fn add(&mut self, game: u64, values: Vec<(String, bool, Sums, Sums)>) {
        let mut seen = vec![false; self.names.len()];
        for (place, (name, rate, a, b)) in values.into_iter().enumerate() {
            let i = self.figure(name, rate, (game, place));
            seen.resize(self.names.len(), false);
            seen[i] = true;
            self.sums[i].add(a, b);
        }
        // A rate a game did not name was 0 on both sides.
        for (i, s) in seen.iter().enumerate() {
            if !s && self.rates[i] {
                self.sums[i].add((0, 1), (0, 1));
            }
        }
        self.games += 1;
    }
}

/// A figure's `(S, N)` in one game of one side: its value is `S / N` (N = 1 for a rate or a count).
type Sums = (i128, i128);

/// A figure that a comparison reports whatever its games, in the report's order; the end reasons
/// come with the games and follow [`Known::Unfinished`].
enum Known {
    /// Seat `0`'s share of wins.
    SeatWins(usize),
    /// The share of its seats an agent won (only when the seats are not all of one agent).
    AgentWins(String),
    Ties,
    Turns,
    Decisions,
    Unfinished,
    /// A statistic of either side, by name: the mean of its records.
    Stat(String),
    /// Per player, the cards of a kind (of either side) gained, and the abilities of such cards
    /// performed.
    Gained(String),
    Played(String),
}

impl Known {
    /// Every such figure of a comparison of `a` and `b`, in the report's order.
    fn all(a: &Side, b: &Side) -> Vec<Known> {
        let mut out: Vec<Known> = (0..usize::from(a.cfg.players))
            .map(Known::SeatWins)
            .collect();
        let agents = seated_agents(&a.cfg);
        if agents.len() > 1 {
            out.extend(agents.into_iter().map(Known::AgentWins));
        }
        out.extend([
            Known::Ties,
            Known::Turns,
            Known::Decisions,
            Known::Unfinished,
        ]);
        out.extend(union(&a.program.stats, &b.program.stats, |s| &s.name).map(Known::Stat));
        for kind in union(&a.program.kinds, &b.program.kinds, |k| &k.name) {
            out.push(Known::Gained(kind.clone()));
            out.push(Known::Played(kind));
        }
        out
    }

    fn name(&self) -> String {
        match self {
            Known::SeatWins(seat) => format!("wins: seat {}", seat + 1),
            Known::AgentWins(agent) => format!("wins: {agent}"),
            Known::Ties => "ties".into(),
            Known::Turns => "turns".into(),
            Known::Decisions => "decisions".into(),
            Known::Unfinished => "unfinished".into(),
            Known::Stat(name) => format!("stat: {name}"),
            Known::Gained(kind) => format!("card {kind}: gained per player"),
            Known::Played(kind) => format!("card {kind}: played per player"),
        }
    }

    /// Whether the figure is a share of games (shown as a percentage), rather than a mean.
    fn rate(&self) -> bool {
        match self {
            Known::SeatWins(_) | Known::Ties | Known::Unfinished => true,
            Known::AgentWins(_)
            | Known::Turns
            | Known::Decisions
            | Known::Stat(_)
            | Known::Gained(_)
            | Known::Played(_) => false,
        }
    }

    /// The figure's sums in one game of side `side`.
    fn sums(&self, side: &Side, r: &Record) -> Sums {
        let one = |x: bool| (i128::from(x), 1);
        let count = |x: u64| (i128::from(x), 1);
        let per_player = |kind: &str, of: &Vec<Vec<u32>>| {
            let k = side.program.kinds.iter().position(|k| k.name == kind);
            let total: u32 = k.map_or(0, |k| of.iter().filter_map(|s| s.get(k)).sum());
            (i128::from(total), r.seating.len() as i128)
        };
        match self {
            Known::SeatWins(seat) => one(r.winners.contains(&(*seat as u8))),
            Known::AgentWins(agent) => {
                let seats = r.seating.iter().enumerate().filter(|(_, s)| *s == agent);
                let wins = seats
                    .clone()
                    .filter(|(i, _)| r.winners.contains(&(*i as u8)))
                    .count();
                (wins as i128, seats.count() as i128)
            }
            Known::Ties => one(r.is_tie()),
            Known::Turns => count(u64::from(r.turns)),
            Known::Decisions => count(r.decisions),
            Known::Unfinished => one(!r.finished),
            Known::Stat(name) => side
                .program
                .stats
                .iter()
                .position(|s| &s.name == name)
                .and_then(|i| r.stats.get(i))
                .map_or((0, 0), |&(s, n)| (s, i128::from(n))),
            Known::Gained(kind) => per_player(kind, &r.holdings),
            Known::Played(kind) => per_player(kind, &r.performed),
        }
    }
}

/// The figures of one pair of games: name, whether it is a rate, side A's sums and side B's.
fn values(a: &Side, b: &Side, ra: &Record, rb: &Record) -> Vec<(String, bool, Sums, Sums)> {
    let mut out = Vec::new();
    for figure in Known::all(a, b) {
        out.push((
            figure.name(),
            figure.rate(),
            figure.sums(a, ra),
            figure.sums(b, rb),
        ));
        if let Known::Unfinished = figure {
            let (reason_a, reason_b) = (reason_key(&ra.reason), reason_key(&rb.reason));
            let one = |x: bool| (i128::from(x), 1);
            out.push((
                format!("end: {reason_a}"),
                true,
                one(true),
                one(reason_a == reason_b),
            ));
            if reason_a != reason_b {
                out.push((format!("end: {reason_b}"), true, one(false), one(true)));
            }
        }
    }
    out
}

/// The agents that a study seats, each once, in order of name (an agent named for a seat beyond
/// the players is not seated; seats beyond the agents named take the last one).
fn seated_agents(cfg: &SimConfig) -> Vec<String> {
    let players = usize::from(cfg.players);
    let mut agents: Vec<String> = match cfg.agents.len() {
        0 => vec!["random".into()],
        n if n >= players => cfg.agents[..players].to_vec(),
        _ => cfg.agents.clone(),
    };
    agents.sort();
    agents.dedup();
    agents
}

/// The names of `a`'s items, then those of `b`'s that `a` has not.
fn union<T>(a: &[T], b: &[T], name: impl Fn(&T) -> &String) -> impl Iterator<Item = String> {
    let mut names: Vec<String> = a.iter().map(&name).cloned().collect();
    for item in b {
        if !names.contains(name(item)) {
            names.push(name(item).clone());
        }
    }
    names.into_iter()
}

/// The names of the figures a comparison of `a` and `b` reports whatever its games (those of end
/// reasons come with the games), for `--until-decided`.
pub fn figure_names(a: &Side, b: &Side) -> Vec<String> {
    Known::all(a, b).iter().map(Known::name).collect()
}

/// Games played between two looks of `--until-decided` (the looks are at the same games whatever the
/// number of threads, so the study stops at the same game).
const LOOK_EVERY: u64 = 100;

/// Plays the comparison: `a.cfg.games` pairs at most, on `a.cfg.jobs` threads; with `until`, stops
/// at the first look at which the confidence sequence of that figure's difference excludes 0.
pub fn compare(
    a: &Side,
    b: &Side,
    until: Option<&str>,
    tick: &(dyn Fn() + Sync),
) -> Result<ComparisonReport, String> {
    let started = Instant::now();
    let (tally, decision) = play(a, b, until, None, tick)?;
    Ok(report(
        &Header::of(a, b),
        &tally,
        decision,
        started.elapsed().as_secs_f64(),
    ))
}

/// Plays the pairs of games of the comparison (those of `shard` only, when given), in order of the
/// study's game index, and tallies them.
pub(crate) fn play(
    a: &Side,
    b: &Side,
    until: Option<&str>,
    shard: Option<&crate::shard::Shard>,
    tick: &(dyn Fn() + Sync),
) -> Result<(Tally, Option<Decision>), String> {
    let cfg = &a.cfg;
    if let Some(name) = until {
        let names = figure_names(a, b);
        if !names.iter().any(|n| n == name) && !name.starts_with("end: ") {
            return Err(match did_you_mean(name, names.iter().map(String::as_str)) {
                Some(h) => format!("--until-decided: no figure is named `{name}`: {h}"),
                None => format!(
                    "--until-decided: no figure is named `{name}` (figures are named as in the \
                     report: `wins: seat 1`, `turns`, `stat: NAME`, `end: REASON`, ...)"
                ),
            });
        }
    }
    for (seat, agent) in cfg.agents.iter().enumerate() {
        crate::agents::make_agent_with(&a.program, agent, 0, seat as u8, cfg.model.as_ref())?;
        crate::agents::make_agent_with(&b.program, agent, 0, seat as u8, b.cfg.model.as_ref())?;
    }
    let (fa, fb) = (
        Factories::new(&a.program, cfg),
        Factories::new(&b.program, &b.cfg),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let mut tally = Tally::default();
    let mut decision = None;
    let games: Vec<u64> = (0..cfg.games)
        .filter(|i| shard.is_none_or(|s| i % s.count == s.index))
        .collect();
    for chunk in games.chunks(LOOK_EVERY as usize) {
        let pairs: Vec<(u64, Record, Record)> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&i| {
                    let pair = (
                        i,
                        play_one(&a.program, cfg, &fa, i, None),
                        play_one(&b.program, &b.cfg, &fb, i, None),
                    );
                    tick();
                    pair
                })
                .collect()
        });
        for (i, ra, rb) in &pairs {
            tally.errors.0 += u64::from(ra.error.is_some());
            tally.errors.1 += u64::from(rb.error.is_some());
            if ra.error.is_none() && rb.error.is_none() {
                tally.add(*i, values(a, b, ra, rb));
            }
        }
        if let Some(name) = until {
            let d = look(&tally, name, cfg.games);
            let stop = d.as_ref().is_some_and(|d| d.decided);
            decision = d.or(decision);
            if stop {
                break;
            }
        }
    }
    if let (Some(name), None) = (until, &decision) {
        decision = look(&tally, name, cfg.games);
    }
    Ok((tally, decision))
}

/// What a report says of the study, besides its figures.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Header {
    pub game: String,
    pub a: String,
    pub b: String,
    pub players: u8,
    pub seed: u64,
    pub agents: Vec<String>,
    pub rotate: bool,
}

impl Header {
    pub fn of(a: &Side, b: &Side) -> Header {
        Header {
            game: a.program.name.clone(),
            a: a.label.clone(),
            b: b.label.clone(),
            players: a.cfg.players,
            seed: a.cfg.seed,
            agents: a.cfg.agents.clone(),
            rotate: a.cfg.rotate,
        }
    }
}

/// The confidence sequence of figure `name` after the games so far, tuned for `bound` games.
fn look(tally: &Tally, name: &str, bound: u64) -> Option<Decision> {
    let i = *tally.index.get(name)?;
    let e = tally.sums[i].estimate(tally.games)?;
    let variance = e.error * e.error * tally.games as f64;
    let w = sequence_half_width(tally.games, variance, 1.0 - CONFIDENCE, bound);
    let (low, high) = (e.difference - w, e.difference + w);
    Some(Decision {
        figure: name.to_string(),
        games: tally.games,
        decided: tally.games >= 2 && (low > 0.0 || high < 0.0),
        difference: e.difference,
        low,
        high,
        rate: tally.rates[i],
    })
}

/// The level of every interval.
const CONFIDENCE: f64 = 0.95;

pub(crate) fn report(
    header: &Header,
    tally: &Tally,
    until_decided: Option<Decision>,
    seconds: f64,
) -> ComparisonReport {
    // A figure that was 0 in every game on both sides says nothing (a card nobody gained): it is
    // left out, but for the seats' wins. One that is the same in every pair of games is shown
    // without an interval and is not counted among the figures compared.
    let shown: Vec<usize> = (0..tally.names.len())
        .filter(|&i| !tally.sums[i].is_nothing() || tally.names[i].starts_with("wins: seat "))
        .collect();
    let estimates: Vec<_> = shown
        .iter()
        .map(|&i| tally.sums[i].estimate(tally.games))
        .collect();
    let varies = |e: &Estimate| e.error > 0.0 || e.difference != 0.0;
    let compared = estimates.iter().flatten().filter(|e| varies(e)).count();
    let z = normal_quantile(1.0 - (1.0 - CONFIDENCE) / (2.0 * compared.max(1) as f64));
    let figures = shown
        .iter()
        .zip(&estimates)
        .map(|(&i, e)| {
            let (name, rate) = (tally.names[i].clone(), tally.rates[i]);
            match e {
                Some(e) if varies(e) => {
                    let w = z * e.error;
                    let (low, high) = (e.difference - w, e.difference + w);
                    Figure {
                        name,
                        a: Some(e.a),
                        b: Some(e.b),
                        difference: Some(e.difference),
                        low: Some(low),
                        high: Some(high),
                        significant: tally.games >= 2 && (low > 0.0 || high < 0.0),
                        rate,
                    }
                }
                Some(e) => Figure {
                    name,
                    a: Some(e.a),
                    b: Some(e.b),
                    difference: Some(0.0),
                    low: None,
                    high: None,
                    significant: false,
                    rate,
                },
                None => Figure {
                    name,
                    a: None,
                    b: None,
                    difference: None,
                    low: None,
                    high: None,
                    significant: false,
                    rate,
                },
            }
        })
        .collect();
    ComparisonReport {
        game: header.game.clone(),
        a: header.a.clone(),
        b: header.b.clone(),
        players: header.players,
        games: tally.games,
        seed: header.seed,
        agents: header.agents.clone(),
        rotate: header.rotate,
        errors_a: tally.errors.0,
        errors_b: tally.errors.1,
        confidence: CONFIDENCE,
        compared,
        figures,
        until_decided,
        seconds,
    }
}

impl ComparisonReport {
    /// The report as text: the sides, then one line per figure (significant ones marked `*`).
    pub fn to_text(&self, timing: bool) -> String {
        let mut s = format!(
            "{}: {} paired games with {} players (seed {}; agents {}{})\n",
            self.game,
            self.games,
            self.players,
            self.seed,
            self.agents.join(","),
            if self.rotate { ", rotated" } else { "" }
        );
        s.push_str(&format!("  A: {}\n  B: {}\n", self.a, self.b));
        if self.errors_a + self.errors_b > 0 {
            s.push_str(&format!(
                "engine errors: A {}, B {} (those pairs are left out)\n",
                self.errors_a, self.errors_b
            ));
        }
        if let Some(d) = &self.until_decided {
            s.push_str(&format!(
                "until decided: `{}` {} after {} games: B - A {} [{} to {}] (95% confidence \
                 sequence)\n",
                d.figure,
                if d.decided { "decided" } else { "not decided" },
                d.games,
                signed(d.difference, d.rate),
                signed(d.low, d.rate),
                signed(d.high, d.rate),
            ));
        }
        s.push_str(&format!(
            "B - A with {:.0}% intervals holding together over the {} figures compared \
             (Bonferroni); * marks a difference whose interval excludes 0\n",
            self.confidence * 100.0,
            self.compared
        ));
        let width = self
            .figures
            .iter()
            .map(|f| f.name.chars().count())
            .max()
            .unwrap_or(6);
        s.push_str(&format!(
            "{:width$}  {:>9}  {:>9}  {:>9}  interval\n",
            "figure", "A", "B", "B - A"
        ));
        for f in &self.figures {
            let value = |v: Option<f64>| match v {
                Some(v) if f.rate => format!("{:.1}%", v * 100.0),
                Some(v) => format!("{v:.2}"),
                None => "-".into(),
            };
            let interval = match (f.low, f.high, f.a) {
                (Some(l), Some(h), _) => {
                    format!("[{} to {}]", signed(l, f.rate), signed(h, f.rate))
                }
                (_, _, Some(_)) => "the same in every pair of games".into(),
                _ => String::new(),
            };
            s.push_str(&format!(
                "{:width$}  {:>9}  {:>9}  {:>9}  {interval}{}\n",
                f.name,
                value(f.a),
                value(f.b),
                f.difference.map_or("-".into(), |d| signed(d, f.rate)),
                if f.significant { "  *" } else { "" }
            ));
        }
        if timing {
            s.push_str(&format!("{:.1} s\n", self.seconds));
        }
        s
    }
}

/// A difference with its sign: `+2.1%` for a rate, `-0.35` for a mean.
fn signed(v: f64, rate: bool) -> String {
    match rate {
        true => format!("{:+.1}%", v * 100.0),
        false => format!("{v:+.2}"),
    }
}
