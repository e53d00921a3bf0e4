//! Simulation stage: what a study is and what it gives: its configuration (`SimConfig`), the record of
//! each game played, the report's types and the games that did not end by the rules (`Problems`), below
//! the tally that adds games up and the runner that plays them (sim.rs).

use crate::catalog::Shard;
use crate::engine::{DEFAULT_MAX_DECISIONS, DEFAULT_MAX_STEPS};
use crate::figures::{StatFigures, Unused};
use crate::program::{OptionId, OptionKind, Program};
pub use crate::rate::{wilson, Rate};
use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub games: u64,
    pub players: u8,
    pub seed: u64,
    pub jobs: usize,
    /// Agent names by seat; the last fills the remaining seats.
    pub agents: Vec<String>,
    /// Rotate the agents round the seats game by game, so each sits in each seat equally often.
    pub rotate: bool,
    pub options: Vec<(OptionId, Value)>,
    /// What `--set` changed, as written (`Province.cost=6`): the program is already the variant; the
    /// reports name them.
    pub settings: Vec<String>,
    pub max_turns: u32,
    /// See [`GameConfig::max_decisions`].
    pub max_decisions: u64,
    /// See [`GameConfig::max_steps`].
    pub max_steps: u64,
    /// See [`GameConfig::engine`].
    pub engine: crate::engine::Engine,
    /// Play only this shard of the games (`sim --shard K/N`); `None`: all of them.
    pub shard: Option<Shard>,
    /// A learned model for the agents that use one (`search`, `learned`; `--model`).
    pub model: Option<Arc<crate::agents::Model>>,
    /// Read the script's score after every turn for the course figures (`sim --course`: it slows a
    /// simulation of random players 2 to 5 times, so it is asked for).
    pub course: bool,
    /// What to follow turn by turn (`sim --curve NAME`).
    pub curves: Vec<crate::curves::Curve>,
}

/// The seed of game `index`: a mix of the base seed and the index (SplitMix64).
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base
        ^ index
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How an end reason is counted: the decision limit's turn is left out ("limit of N decisions reached
/// in turn T" counts as "limit of N decisions reached in one turn"), so that such games add up.
pub(crate) fn reason_key(reason: &str) -> String {
    if let Some(i) = reason.find(" decisions reached in turn ") {
        if reason.starts_with("limit of ") {
            return format!("{} decisions reached in one turn", &reason[..i]);
        }
    }
    reason.to_string()
}

/// The outcome of one simulated game.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub(crate) seed: u64,
    /// Agent name per seat.
    pub(crate) seating: Vec<String>,
    pub(crate) winners: Vec<u8>,
    /// The participants that won (`participant NAME`), by their shown names.
    pub(crate) participants: Vec<String>,
    /// The participants that took part: held a card or had a variable changed at the end, or won.
    pub(crate) present: Vec<String>,
    pub(crate) reason: String,
    pub(crate) finished: bool,
    pub(crate) error: Option<String>,
    pub(crate) turns: u32,
    pub(crate) decisions: u64,
    /// Per seat: how many cards of each kind it holds at the end.
    pub(crate) holdings: Vec<Vec<u32>>,
    /// Per seat: how many abilities of each kind of card it performed.
    pub(crate) performed: Vec<Vec<u32>>,
    /// Per seat: its team at the end (`teams by VAR`), when the script declares teams.
    pub(crate) teams: Option<Vec<String>>,
    /// Per statistic: the sum of what the game recorded and the number of records.
    pub(crate) stats: Vec<(i128, u64)>,
    /// The scores after each turn, in a study's games when the script has a score.
    pub(crate) course: Option<crate::course::Course>,
    /// Per curve followed, per turn, per line: the values read after the turn (in a study's games).
    pub(crate) curves: Vec<Vec<Vec<i64>>>,
}

impl Record {
    /// The team that won: every winner is of it (`None` without teams or winners, or when the winners
    /// are of several teams).
    pub(crate) fn winning_team(&self) -> Option<&str> {
        let teams = self.teams.as_ref()?;
        let mut of = self.winners.iter().map(|&w| teams.get(w as usize));
        let first = of.next()??;
        of.all(|t| t == Some(first)).then_some(first.as_str())
    }

    /// Several winners, not all of one team: a tie. A team's win is not a tie; seats winning with a
    /// participant, or several participants winning, is.
    pub(crate) fn is_tie(&self) -> bool {
        match self.participants.len() {
            0 => self.winners.len() > 1 && self.winning_team().is_none(),
            n => n + self.winners.len() > 1,
        }
    }

    /// Finished with no seat and no participant among the winners.
    pub(crate) fn nobody_won(&self) -> bool {
        self.winners.is_empty() && self.participants.is_empty()
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Spread {
    pub mean: f64,
    pub median: f64,
    pub p90: f64,
}

impl Spread {
    /// Mean, median and 90th percentile of counts kept as a histogram (value → games), so that the
    /// memory of a simulation does not grow with its number of games.
    pub(crate) fn of(histogram: &BTreeMap<u64, u64>) -> Spread {
        let n: u64 = histogram.values().sum();
        if n == 0 {
            return Spread {
                mean: 0.0,
                median: 0.0,
                p90: 0.0,
            };
        }
        // The value at sorted position `round((n - 1) * q)`.
        let at = |q: f64| {
            let k = ((n - 1) as f64 * q).round() as u64;
            let mut seen = 0;
            for (&v, &c) in histogram {
                seen += c;
                if seen > k {
                    return v as f64;
                }
            }
            0.0
        };
        let sum: f64 = histogram.iter().map(|(&v, &c)| v as f64 * c as f64).sum();
        Spread {
            mean: sum / n as f64,
            median: at(0.5),
            p90: at(0.9),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SimError {
    pub game: u64,
    pub seed: u64,
    pub message: String,
    /// The agent of each seat in this game (rotation included).
    pub agents: Vec<String>,
    /// The flags of `cardgame run` that replay this game exactly.
    pub replay: String,
}

/// A game that did not end by the rules: it reached the turn limit (or another limit of the run).
/// A designer replays it to see the stall.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SimStall {
    pub game: u64,
    pub seed: u64,
    /// Why it stopped (for example `turn limit of 2000 turns reached`).
    pub reason: String,
    pub turns: u32,
    pub decisions: u64,
    /// The agent of each seat in this game (rotation included).
    pub agents: Vec<String>,
    /// The flags of `cardgame run` that replay this game exactly.
    pub replay: String,
}

/// How many errors and stalls a report lists one by one (all are counted).
pub const LISTED: usize = 20;

/// Per card kind: how many copies players held at the end, and how the players who held it did.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CardFigures {
    pub name: String,
    /// Mean copies held by a player at the end of a game, beyond what it held after setup.
    pub acquired_per_game: f64,
    /// Players (over all games) who gained at least one copy: held more at the end than after setup.
    pub holders: u64,
    /// The win rate of those players.
    pub holder_wins: Rate,
    /// Mean times per player and game an ability of this card was performed (`perform`: played).
    pub performed_per_game: f64,
}

/// The aggregated report of a simulation.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimReport {
    pub game: String,
    /// What `--set` changed (`Province.cost=6`), as written; absent when nothing was set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<String>,
    pub players: u8,
    pub games: u64,
    pub seed: u64,
    pub jobs: usize,
    pub finished: u64,
    pub unfinished: u64,
    /// The first games that stopped without ending by the rules, with the seeds that reproduce them.
    pub stalls: Vec<SimStall>,
    pub errors: Vec<SimError>,
    pub error_count: u64,
    pub wins_by_seat: Vec<Rate>,
    pub wins_by_agent: BTreeMap<String, Rate>,
    /// Per team (`teams by VAR`: the variable's value at the end): the games it won (every winner of
    /// it) out of the games it played. Empty when the script declares no teams.
    pub wins_by_team: BTreeMap<String, Rate>,
    /// Per participant that is not a seat (`participant NAME "Name"`, by its shown name): the games it
    /// won out of the games it took part in (at the end it held a card or had a per-player variable
    /// changed from its declared value, or it won). A participant that took
    /// part in no game (no role in the variant played) is left out; empty when the script declares none.
    pub wins_by_participant: BTreeMap<String, Rate>,
    /// Games with more than one winner, not all of one team.
    pub ties: u64,
    /// Finished games that no seat and no participant won.
    pub no_winner: u64,
    pub turns: Spread,
    /// `[turns, games]` pairs in increasing turns: the games that lasted each number of turns.
    pub turns_histogram: Vec<(u64, u64)>,
    pub decisions: Spread,
    pub end_reasons: BTreeMap<String, u64>,
    pub cards: Vec<CardFigures>,
    /// The figures designers read: the first seat's advantage, and the course of the games by the
    /// script's score after each turn.
    /// Without `sim --course`, only the first seat's advantage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub course: Option<crate::course::CourseFigures>,
    /// The curves followed turn by turn (`sim --curve NAME`), in the order asked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub curves: Vec<crate::curves::CurveFigures>,
    /// The script's statistics (`stat`), in the order declared.
    pub stats: Vec<StatFigures>,
    /// What no game used: actions never offered, cards never chosen or moved.
    pub unused: Unused,
    pub seconds: f64,
    pub games_per_second: f64,
}

/// The flags of `cardgame run` that play game `r` again: same players, seed, agents by seat, turn
/// limit and options.
pub(crate) fn replay_flags(program: &Program, cfg: &SimConfig, r: &Record) -> String {
    let mut s = format!(
        "--players {} --seed {} --agents {} --max-turns {}",
        cfg.players,
        r.seed,
        r.seating.join(","),
        cfg.max_turns
    );
    if cfg.max_decisions != DEFAULT_MAX_DECISIONS {
        s.push_str(&format!(" --max-decisions {}", cfg.max_decisions));
    }
    if cfg.max_steps != DEFAULT_MAX_STEPS {
        s.push_str(&format!(" --max-steps {}", cfg.max_steps));
    }
    for (id, value) in &cfg.options {
        let Some(o) = program.options.get(id.0 as usize) else {
            continue;
        };
        let v = match (&o.kind, value) {
            (OptionKind::OneOf(names), Value::Int(i)) => usize::try_from(*i)
                .ok()
                .and_then(|i| names.get(i))
                .cloned()
                .unwrap_or_default(),
            (_, Value::Bool(b)) => b.to_string(),
            (_, Value::Int(i)) => i.to_string(),
            _ => continue,
        };
        s.push_str(&format!(" --option {}={v}", o.name));
    }
    s
}

/// The games that did not end by the rules: all counted, the first [`LISTED`] of each kind listed with
/// the flags that replay them.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Problems {
    pub(crate) unfinished: u64,
    pub(crate) error_count: u64,
    pub(crate) errors: Vec<SimError>,
    pub(crate) stalls: Vec<SimStall>,
}

impl Problems {
    /// Notes game `i` if it ended with an engine error or stopped at a limit. False for an error: the
    /// game has no result to count.
    pub(crate) fn note(&mut self, program: &Program, cfg: &SimConfig, i: u64, r: &Record) -> bool {
        if let Some(e) = &r.error {
            self.error_count += 1;
            if self.errors.len() < LISTED {
                self.errors.push(SimError {
                    game: i,
                    seed: r.seed,
                    message: e.clone(),
                    agents: r.seating.clone(),
                    replay: replay_flags(program, cfg, r),
                });
            }
            return false;
        }
        if !r.finished {
            self.unfinished += 1;
            if self.stalls.len() < LISTED {
                self.stalls.push(SimStall {
                    game: i,
                    seed: r.seed,
                    reason: r.reason.clone(),
                    turns: r.turns,
                    decisions: r.decisions,
                    agents: r.seating.clone(),
                    replay: replay_flags(program, cfg, r),
                });
            }
        }
        true
    }
}

/// The lines of a text report that count the games finished, stopped at a limit and ended by an
/// engine error, and list the first of the last two, each with the command that replays it
/// (`cardgame run SCRIPT FLAGS`, `script` the path of the script as the user gave it).
pub(crate) fn problems_text(
    [finished, unfinished, error_count]: [u64; 3],
    errors: &[SimError],
    stalls: &[SimStall],
    script: &str,
) -> String {
    let mut s = format!(
        "finished {finished}, stopped at a limit (turns, decisions in a turn) {unfinished}, engine errors {error_count}\n"
    );
    for e in errors {
        s.push_str(&format!(
            "  error in game {} (seed {}): {}\n    replay: cardgame run {script} {}\n",
            e.game, e.seed, e.message, e.replay
        ));
    }
    for g in stalls {
        s.push_str(&format!(
            "  game {} (seed {}) stopped after {} turns and {} decisions: {}\n    replay: cardgame run {script} {}\n",
            g.game, g.seed, g.turns, g.decisions, g.reason, g.replay
        ));
    }
    let unlisted = unfinished.saturating_sub(stalls.len() as u64)
        + error_count.saturating_sub(errors.len() as u64);
    if unlisted > 0 {
        s.push_str(&format!(
            "  ({unlisted} more not listed; the JSON report lists the first {LISTED} of each)\n"
        ));
    }
    s
}
