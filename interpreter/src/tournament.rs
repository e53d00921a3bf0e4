//! Tournament stage: the listed agents meet in every lineup and every seating, and the games become a
//! matrix of head-to-head score rates a designer can read.
//!
//! A lineup is a set of `min(agents, players)` of the listed agents (every such set is one). Its
//! seatings are all the ways to seat its agents over the seats with each of them in at least one seat:
//! with as many agents as seats, every order of them (2 for two players: the seats alternated);
//! with fewer agents than seats, some agent takes several seats. This set of seatings is unchanged by
//! renaming the agents or the seats, so each agent sits in each seat equally often, and meets each
//! other agent in each seat equally often. A lineup plays rounds; a round plays every seating once on
//! the same seed (the same deal), and round r is seeded from the base seed and r alone, so every
//! lineup sees the same deals and the report is the same whatever the number of threads.

use crate::agents::make_agent_with;
use crate::program::Program;
use crate::sim::{
    game_seed, play_in_chunks, play_seated, problems_text, wilson, Factories, Problems, Rate,
    SimConfig, SimError, SimStall,
};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// The games a tournament plays: its lineups, each lineup's seatings, and its games per lineup.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Per lineup: indexes into the list of agents, in increasing order.
    pub lineups: Vec<Vec<usize>>,
    /// Per seating: the place in the lineup of each seat's agent.
    pub seatings: Vec<Vec<usize>>,
    /// Games per lineup: the games asked for, rounded up to whole rounds (a multiple of the seatings).
    pub games_per_lineup: u64,
}

impl Plan {
    /// The plan for `agents` agents, `players` seats and at least `games` games per lineup; an error
    /// when a lineup would have more than [`MAX_SEATINGS`] seatings.
    pub fn new(agents: usize, players: usize, games: u64) -> Result<Plan, String> {
        let size = agents.min(players);
        let mut seatings = vec![];
        onto(players, size, &mut vec![], &mut seatings);
        if seatings.len() > MAX_SEATINGS {
            return Err(format!(
                "{agents} agents over {players} seats make more than {MAX_SEATINGS} seatings per lineup; list fewer agents or play fewer players"
            ));
        }
        let mut lineups = vec![];
        combinations(agents, size, &mut vec![], &mut lineups);
        let s = seatings.len().max(1) as u64;
        Ok(Plan {
            lineups,
            seatings,
            games_per_lineup: games.div_ceil(s) * s,
        })
    }

    /// Games in all.
    pub fn games(&self) -> u64 {
        self.games_per_lineup * self.lineups.len() as u64
    }

    /// Game `i`: its lineup, the agent (an index into the list) of each seat, and its round.
    fn game(&self, i: u64) -> (usize, Vec<usize>, u64) {
        let per = self.games_per_lineup.max(1);
        let (lineup, j) = ((i / per) as usize, i % per);
        let s = self.seatings.len().max(1) as u64;
        let seating = &self.seatings[(j % s) as usize];
        let agents = seating.iter().map(|&k| self.lineups[lineup][k]).collect();
        (lineup, agents, j / s)
    }
}

/// Every increasing list of `size` indexes below `n`, in lexicographic order.
fn combinations(n: usize, size: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if prefix.len() == size {
        out.push(prefix.clone());
        return;
    }
    let from = prefix.last().map_or(0, |l| l + 1);
    for i in from..n {
        prefix.push(i);
        combinations(n, size, prefix, out);
        prefix.pop();
    }
}

/// The most seatings a lineup may have (the orders of 8 agents).
pub const MAX_SEATINGS: usize = 40_320;

/// Every list of `seats` values below `size` in which each value appears, in lexicographic order
/// (stopping once there are more than [`MAX_SEATINGS`]).
fn onto(seats: usize, size: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let missing = (0..size).filter(|v| !prefix.contains(v)).count();
    if missing > seats - prefix.len() || out.len() > MAX_SEATINGS {
        return;
    }
    if prefix.len() == seats {
        out.push(prefix.clone());
        return;
    }
    for v in 0..size {
        prefix.push(v);
        onto(seats, size, prefix, out);
        prefix.pop();
    }
}

/// A score rate: points per meeting (1 for a win, 1/2 for a tie) with its 95% Wilson interval.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Score {
    pub points: f64,
    pub games: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    /// From points counted in halves.
    fn new(halves: u64, games: u64) -> Score {
        let points = halves as f64 / 2.0;
        let (rate, low, high) = wilson(points, games);
        Score {
            points,
            games,
            rate,
            low,
            high,
        }
    }
}

/// One agent's results over the whole tournament.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Standing {
    pub agent: String,
    /// Its score rate against all the others: every meeting of the row in the matrix.
    pub score: Score,
    /// Games it won (a shared win counts as a win) over the seats it played in finished games.
    pub wins: Rate,
    /// Per seat: games it played there (finished) and won there.
    pub seats: Vec<Rate>,
}

/// The games of one lineup.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LineupFigures {
    pub agents: Vec<String>,
    pub games: u64,
    pub finished: u64,
    pub unfinished: u64,
    pub errors: u64,
}

/// The report of a tournament.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TournamentReport {
    pub game: String,
    /// What `--set` changed (`Province.cost=6`), as written; absent when nothing was set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<String>,
    pub players: u8,
    pub agents: Vec<String>,
    pub seed: u64,
    pub jobs: usize,
    pub seatings_per_lineup: u64,
    pub games_per_lineup: u64,
    pub games: u64,
    pub finished: u64,
    pub unfinished: u64,
    pub error_count: u64,
    pub errors: Vec<SimError>,
    pub stalls: Vec<SimStall>,
    /// `matrix[a][b]`: the score of agent a against agent b over the finished games where both sat;
    /// `null` on the diagonal.
    pub matrix: Vec<Vec<Option<Score>>>,
    pub standings: Vec<Standing>,
    pub lineups: Vec<LineupFigures>,
    /// Finished games with several winners; finished games nobody won.
    pub ties: u64,
    pub no_winner: u64,
    pub seconds: f64,
    pub games_per_second: f64,
}

/// Run a tournament between `cfg.agents` (at least two, all different), `cfg.games` games per lineup
/// (rounded up to whole rounds), under the players, options, limits, seed and jobs of `cfg`
/// (`cfg.rotate` is not read). `tick` is called once per finished game.
pub fn tournament(
    program: &Arc<Program>,
    cfg: &SimConfig,
    tick: &(dyn Fn() + Sync),
) -> Result<TournamentReport, String> {
    let names = &cfg.agents;
    for (i, a) in names.iter().enumerate() {
        make_agent_with(program, a, 0, 0, cfg.model.as_ref())?;
        if names[..i].contains(a) {
            return Err(format!("agent `{a}` is listed twice"));
        }
    }
    if names.len() < 2 {
        return Err("a tournament needs at least two agents (--agents A,B)".into());
    }
    let k = names.len();
    let n = cfg.players as usize;
    let plan = Plan::new(k, n, cfg.games)?;
    let started = Instant::now();
    let mut problems = Problems::default();
    let mut halves = vec![vec![0u64; k]; k];
    let mut meetings = vec![vec![0u64; k]; k];
    let mut seat_games = vec![vec![0u64; n]; k];
    let mut seat_wins = vec![vec![0u64; n]; k];
    let mut lineups: Vec<LineupFigures> = plan
        .lineups
        .iter()
        .map(|l| LineupFigures {
            agents: l.iter().map(|&a| names[a].clone()).collect(),
            games: 0,
            finished: 0,
            unfinished: 0,
            errors: 0,
        })
        .collect();
    let (mut ties, mut no_winner) = (0, 0);
    let factories = Factories::new(program, cfg);
    let play = |i: u64| {
        let (_, seats, round) = plan.game(i);
        let seating = seats.iter().map(|&a| names[a].clone()).collect();
        play_seated(
            program,
            cfg,
            &factories,
            game_seed(cfg.seed, round),
            seating,
        )
    };
    let mut add = |i: u64, r: &crate::sim::Record| {
        let (lineup, seats, _) = plan.game(i);
        let figures = &mut lineups[lineup];
        figures.games += 1;
        if !problems.note(program, cfg, i, r) {
            figures.errors += 1;
            return;
        }
        if !r.finished {
            figures.unfinished += 1;
            return;
        }
        figures.finished += 1;
        ties += u64::from(r.is_tie());
        // A participant's win (`participant NAME`) is a loss for every agent, not "no winner".
        no_winner += u64::from(r.nobody_won());
        let won = |seat: usize| r.winners.contains(&(seat as u8));
        for (s, &a) in seats.iter().enumerate() {
            seat_games[a][s] += 1;
            seat_wins[a][s] += u64::from(won(s));
            for (t, &b) in seats.iter().enumerate() {
                if a != b {
                    meetings[a][b] += 1;
                    halves[a][b] += match (won(s), won(t)) {
                        (true, false) => 2,
                        (false, true) => 0,
                        _ => 1,
                    };
                }
            }
        }
    };
    play_in_chunks(cfg.jobs, plan.games(), &play, tick, &mut add)?;
    let seconds = started.elapsed().as_secs_f64();
    let matrix = (0..k)
        .map(|a| {
            (0..k)
                .map(|b| (a != b).then(|| Score::new(halves[a][b], meetings[a][b])))
                .collect()
        })
        .collect();
    let standings = (0..k)
        .map(|a| Standing {
            agent: names[a].clone(),
            score: Score::new(halves[a].iter().sum(), meetings[a].iter().sum()),
            wins: Rate::new(seat_wins[a].iter().sum(), seat_games[a].iter().sum()),
            seats: (0..n)
                .map(|s| Rate::new(seat_wins[a][s], seat_games[a][s]))
                .collect(),
        })
        .collect();
    let games = plan.games();
    Ok(TournamentReport {
        game: program.name.clone(),
        settings: cfg.settings.clone(),
        players: cfg.players,
        agents: names.clone(),
        seed: cfg.seed,
        jobs: cfg.jobs,
        seatings_per_lineup: plan.seatings.len() as u64,
        games_per_lineup: plan.games_per_lineup,
        games,
        finished: lineups.iter().map(|l| l.finished).sum(),
        unfinished: problems.unfinished,
        error_count: problems.error_count,
        errors: problems.errors,
        stalls: problems.stalls,
        matrix,
        standings,
        lineups,
        ties,
        no_winner,
        seconds,
        games_per_second: if seconds > 0.0 {
            games as f64 / seconds
        } else {
            0.0
        },
    })
}

impl TournamentReport {
    /// The report as text for a terminal; `script` is the script's path as the user gave it, for the
    /// commands that replay a game.
    pub fn to_text(&self, script: &str) -> String {
        let pct = |rate: f64, low: f64, high: f64| {
            format!(
                "{:5.1}% [{:.1}-{:.1}]",
                rate * 100.0,
                low * 100.0,
                high * 100.0
            )
        };
        let score = |s: &Score| pct(s.rate, s.low, s.high);
        let mut s = format!(
            "{}: tournament with {} players, {} lineup{} of {} games ({} seatings each; seed {}, {} job{})\n",
            self.game,
            self.players,
            self.lineups.len(),
            if self.lineups.len() == 1 { "" } else { "s" },
            self.games_per_lineup,
            self.seatings_per_lineup,
            self.seed,
            self.jobs,
            if self.jobs == 1 { "" } else { "s" }
        );
        if !self.settings.is_empty() {
            s.push_str(&format!(
                "variant: --set {}\n",
                self.settings.join(" --set ")
            ));
        }
        s.push_str(&problems_text(
            [self.finished, self.unfinished, self.error_count],
            &self.errors,
            &self.stalls,
            script,
        ));
        let width = self
            .agents
            .iter()
            .map(|a| a.len())
            .max()
            .unwrap_or(0)
            .max(6);
        // A cell holds a score ("100.0% [83.9-100.0]") or, in the header, an agent's name.
        let cell = self
            .agents
            .iter()
            .map(|a| a.len())
            .max()
            .unwrap_or(0)
            .max(21);
        s.push_str(
            "score of the row agent against the column agent (win 1, tie 1/2; 95% interval):\n",
        );
        s.push_str(&format!("  {:width$}", ""));
        for a in &self.agents {
            s.push_str(&format!(" {a:>cell$}"));
        }
        s.push('\n');
        for (a, row) in self.agents.iter().zip(&self.matrix) {
            s.push_str(&format!("  {a:<width$}"));
            for c in row {
                let text = c.as_ref().map_or("-".to_string(), score);
                s.push_str(&format!(" {text:>cell$}"));
            }
            s.push('\n');
        }
        s.push_str("standings: score against all others; games won; won by seat\n");
        let mut order: Vec<&Standing> = self.standings.iter().collect();
        order.sort_by(|a, b| b.score.rate.total_cmp(&a.score.rate));
        for st in order {
            let seats: Vec<String> = st
                .seats
                .iter()
                .map(|r| format!("{:.1}% of {}", r.rate * 100.0, r.games))
                .collect();
            s.push_str(&format!(
                "  {:<width$} {:>21}  won {:>21}  by seat: {}\n",
                st.agent,
                score(&st.score),
                pct(st.wins.rate, st.wins.low, st.wins.high),
                seats.join(", ")
            ));
        }
        s.push_str(&format!(
            "ties {}, no winner {}\n{:.1} games per second ({:.2} s)\n",
            self.ties, self.no_winner, self.games_per_second, self.seconds
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::Plan;

    /// Every agent sits in every seat equally often, and meets every other agent in every seat
    /// equally often, with as many agents as seats, more, and fewer.
    #[test]
    fn seatings_are_balanced() {
        for (agents, players, lineups, seatings) in [
            (2, 2, 1, 2),
            (3, 2, 3, 2),
            (3, 3, 1, 6),
            (4, 3, 4, 6),
            (2, 3, 1, 6),
        ] {
            let plan = Plan::new(agents, players, 1).expect("a small plan");
            assert_eq!(plan.lineups.len(), lineups);
            assert_eq!(plan.seatings.len(), seatings);
            assert_eq!(plan.games_per_lineup, seatings as u64);
            let mut seat = vec![vec![0; players]; agents];
            let mut meet = vec![vec![vec![0; players]; agents]; agents];
            for i in 0..plan.games() {
                let (_, seats, round) = plan.game(i);
                assert_eq!(round, 0);
                for (s, &a) in seats.iter().enumerate() {
                    seat[a][s] += 1;
                    for &b in seats.iter().filter(|&&b| b != a) {
                        meet[a][b][s] += 1;
                    }
                }
            }
            let first = seat[0][0];
            assert!(first > 0);
            assert!(seat.iter().flatten().all(|&c| c == first), "{seat:?}");
            let m = meet[0][1][0];
            for a in 0..agents {
                for b in (0..agents).filter(|&b| b != a) {
                    assert!(meet[a][b].iter().all(|&c| c == m), "{meet:?}");
                }
            }
        }
        assert_eq!(Plan::new(2, 2, 7).map(|p| p.games_per_lineup), Ok(8));
        assert!(Plan::new(9, 9, 1).is_err(), "9! seatings");
        assert_eq!(Plan::new(8, 8, 1).map(|p| p.seatings.len()), Ok(40_320));
    }
}
