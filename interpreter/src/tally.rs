//! Simulation stage: the figures of a simulation added up game by game (`Tally`, which the shards of a
//! study merge exactly), and the report's text.

use crate::catalog::Catalog;
use crate::figures::Unused;
use crate::program::Program;
use crate::study::{
    problems_text, reason_key, CardFigures, Problems, Rate, Record, SimConfig, SimReport, Spread,
    LISTED,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The figures of a simulation, added up game by game: whole numbers and histograms, so that the
/// tallies of the shards of a study add up to the tally of one run (`merge`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tally {
    games: u64,
    seat_wins: Vec<u64>,
    agent_wins: BTreeMap<String, (u64, u64)>,
    team_wins: BTreeMap<String, (u64, u64)>,
    /// Per participant that is not a seat: (games it won, games it took part in).
    #[serde(default)]
    participant_wins: BTreeMap<String, (u64, u64)>,
    end_reasons: BTreeMap<String, u64>,
    finished: u64,
    problems: Problems,
    ties: u64,
    no_winner: u64,
    turns: BTreeMap<u64, u64>,
    decisions: BTreeMap<u64, u64>,
    acquired: Vec<u64>,
    holders: Vec<u64>,
    holder_wins: Vec<u64>,
    performed: Vec<u64>,
    #[serde(default)]
    course: crate::course::CourseTally,
    /// The curves followed turn by turn (`sim --curve`).
    #[serde(default)]
    curves: crate::curves::CurveTally,
}

impl Tally {
    pub(crate) fn new(program: &Program, players: u8) -> Self {
        let nk = program.kinds.len();
        Tally {
            games: 0,
            seat_wins: vec![0; players as usize],
            agent_wins: BTreeMap::new(),
            team_wins: BTreeMap::new(),
            participant_wins: BTreeMap::new(),
            end_reasons: BTreeMap::new(),
            finished: 0,
            problems: Problems::default(),
            ties: 0,
            no_winner: 0,
            turns: BTreeMap::new(),
            decisions: BTreeMap::new(),
            acquired: vec![0; nk],
            holders: vec![0; nk],
            holder_wins: vec![0; nk],
            performed: vec![0; nk],
            course: crate::course::CourseTally::new(program),
            curves: crate::curves::CurveTally::default(),
        }
    }

    /// Follows `curves` turn by turn in games of `players` seats (`sim --curve`).
    pub(crate) fn follow(&mut self, curves: &[crate::curves::Curve], players: u8) {
        self.curves = crate::curves::CurveTally::new(curves, players);
    }

    /// Leaves out the figures read from the script's score after every turn (without `sim --course`): the
    /// games add none, and the report (of this tally, or of shards merged with it) gives none.
    pub(crate) fn without_course(&mut self) {
        self.course.without_measure();
    }

    /// The games tallied.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The games tallied that ended with an engine error.
    pub fn error_count(&self) -> u64 {
        self.problems.error_count
    }

    /// Adds the tally of other games of the same study (another shard): the result is the tally of
    /// all their games, as one run would have added them. The games listed one by one (errors,
    /// stalls) are the first [`LISTED`] of each kind in the order of the games.
    pub(crate) fn merge(&mut self, o: &Tally) -> Result<(), String> {
        if self.seat_wins.len() != o.seat_wins.len() || self.acquired.len() != o.acquired.len() {
            return Err("the tallies are of different studies".into());
        }
        // First, as they may refuse: then nothing is added.
        self.course.mergeable(&o.course)?;
        self.curves.merge(&o.curves)?;
        self.games += o.games;
        self.finished += o.finished;
        self.ties += o.ties;
        self.no_winner += o.no_winner;
        let add = |a: &mut Vec<u64>, b: &Vec<u64>| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.seat_wins, &o.seat_wins);
        add(&mut self.acquired, &o.acquired);
        add(&mut self.holders, &o.holders);
        add(&mut self.holder_wins, &o.holder_wins);
        add(&mut self.performed, &o.performed);
        for (mine, theirs) in [
            (&mut self.agent_wins, &o.agent_wins),
            (&mut self.team_wins, &o.team_wins),
            (&mut self.participant_wins, &o.participant_wins),
        ] {
            for (a, (w, g)) in theirs {
                let e = mine.entry(a.clone()).or_default();
                e.0 += w;
                e.1 += g;
            }
        }
        for (k, v) in &o.end_reasons {
            *self.end_reasons.entry(k.clone()).or_default() += v;
        }
        for (map, other) in [
            (&mut self.turns, &o.turns),
            (&mut self.decisions, &o.decisions),
        ] {
            for (k, v) in other {
                *map.entry(*k).or_default() += v;
            }
        }
        self.course.merge(&o.course);
        let p = &mut self.problems;
        p.unfinished += o.problems.unfinished;
        p.error_count += o.problems.error_count;
        p.errors.extend(o.problems.errors.iter().cloned());
        p.errors.sort_by_key(|e| e.game);
        p.errors.truncate(LISTED);
        p.stalls.extend(o.problems.stalls.iter().cloned());
        p.stalls.sort_by_key(|g| g.game);
        p.stalls.truncate(LISTED);
        Ok(())
    }

    /// Adds game `i`.
    pub(crate) fn add(&mut self, program: &Program, cfg: &SimConfig, i: u64, r: &Record) {
        let nk = program.kinds.len();
        self.games += 1;
        if !self.problems.note(program, cfg, i, r) {
            return;
        }
        if r.finished {
            self.finished += 1;
        }
        self.course.add_game(r.seating.len(), &r.winners);
        if let Some(c) = &r.course {
            self.course.add(c, &r.winners);
        }
        self.curves.add(&r.curves);
        *self.end_reasons.entry(reason_key(&r.reason)).or_default() += 1;
        *self.turns.entry(u64::from(r.turns)).or_default() += 1;
        *self.decisions.entry(r.decisions).or_default() += 1;
        if r.is_tie() {
            self.ties += 1;
        }
        if r.nobody_won() && r.finished {
            self.no_winner += 1;
        }
        for q in &r.present {
            let e = self.participant_wins.entry(q.clone()).or_default();
            e.1 += 1;
            e.0 += u64::from(r.participants.contains(q));
        }
        if let Some(teams) = &r.teams {
            let won = r.winning_team();
            let mut seen: Vec<&String> = Vec::new();
            for t in teams {
                if !seen.contains(&t) {
                    seen.push(t);
                    let e = self.team_wins.entry(t.clone()).or_default();
                    e.1 += 1;
                    e.0 += u64::from(won == Some(t.as_str()));
                }
            }
        }
        for (seat, agent) in r.seating.iter().enumerate() {
            let won = r.winners.contains(&(seat as u8));
            let e = self.agent_wins.entry(agent.clone()).or_default();
            e.1 += 1;
            if won {
                e.0 += 1;
                self.seat_wins[seat] += 1;
            }
            if let Some(pf) = r.performed.get(seat) {
                for (k, c) in pf.iter().enumerate().take(nk) {
                    self.performed[k] += u64::from(*c);
                }
            }
            if let Some(h) = r.holdings.get(seat) {
                for (k, c) in h.iter().enumerate().take(nk) {
                    self.acquired[k] += u64::from(*c);
                    if *c > 0 {
                        self.holders[k] += 1;
                        if won {
                            self.holder_wins[k] += 1;
                        }
                    }
                }
            }
        }
    }

    pub(crate) fn report(
        &self,
        catalog: &Catalog,
        (players, seed, jobs): (u8, u64, usize),
        seconds: f64,
    ) -> SimReport {
        let n = players as usize;
        let played = self.games - self.problems.error_count;
        let per_game = |x: u64| {
            if played == 0 {
                0.0
            } else {
                x as f64 / (played as f64 * n as f64)
            }
        };
        let cards = catalog
            .kinds
            .iter()
            .enumerate()
            .map(|(k, name)| CardFigures {
                name: name.clone(),
                acquired_per_game: per_game(self.acquired[k]),
                holders: self.holders[k],
                holder_wins: Rate::new(self.holder_wins[k], self.holders[k]),
                performed_per_game: per_game(self.performed[k]),
            })
            .collect();
        SimReport {
            game: catalog.game.clone(),
            settings: Vec::new(),
            players,
            games: self.games,
            seed,
            jobs,
            finished: self.finished,
            unfinished: self.problems.unfinished,
            stalls: self.problems.stalls.clone(),
            errors: self.problems.errors.clone(),
            error_count: self.problems.error_count,
            wins_by_seat: self
                .seat_wins
                .iter()
                .map(|w| Rate::new(*w, played))
                .collect(),
            wins_by_agent: self
                .agent_wins
                .iter()
                .map(|(a, (w, g))| (a.clone(), Rate::new(*w, *g)))
                .collect(),
            wins_by_team: self
                .team_wins
                .iter()
                .map(|(t, (w, g))| (t.clone(), Rate::new(*w, *g)))
                .collect(),
            wins_by_participant: self
                .participant_wins
                .iter()
                .map(|(t, (w, g))| (t.clone(), Rate::new(*w, *g)))
                .collect(),
            ties: self.ties,
            no_winner: self.no_winner,
            turns: Spread::of(&self.turns),
            turns_histogram: self.turns.iter().map(|(&t, &g)| (t, g)).collect(),
            decisions: Spread::of(&self.decisions),
            end_reasons: self.end_reasons.clone(),
            cards,
            course: Some(self.course.report(players)),
            curves: self.curves.report(),
            stats: Vec::new(),
            unused: Unused::default(),
            seconds,
            games_per_second: if seconds > 0.0 {
                self.games as f64 / seconds
            } else {
                0.0
            },
        }
    }
}

impl SimReport {
    /// The report as text for a terminal; `script` is the script's path as the user gave it, for the
    /// commands that replay a game.
    pub fn to_text(&self, script: &str) -> String {
        self.to_text_with(true, script)
    }

    /// The report as text; without `timing`, nothing that depends on the machine or the run (the
    /// jobs, the seconds, games per second), so that the same study always prints the same bytes.
    pub fn to_text_with(&self, timing: bool, script: &str) -> String {
        let pct = |r: &Rate| {
            format!(
                "{:5.1}% [{:.1}-{:.1}]",
                r.rate * 100.0,
                r.low * 100.0,
                r.high * 100.0
            )
        };
        let mut s = String::new();
        let jobs = if timing {
            format!(
                ", {} job{}",
                self.jobs,
                if self.jobs == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        s.push_str(&format!(
            "{}: {} games with {} players (seed {}{jobs})\n",
            self.game, self.games, self.players, self.seed
        ));
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
        s.push_str("wins by seat (95% interval):\n");
        for (i, r) in self.wins_by_seat.iter().enumerate() {
            s.push_str(&format!("  seat {}  {}\n", i + 1, pct(r)));
        }
        // Names as long as `strategy:money_actions` keep the column of rates aligned.
        let width = |names: &mut dyn Iterator<Item = usize>| names.max().unwrap_or(0).max(10);
        let aw = width(&mut self.wins_by_agent.keys().map(|a| a.chars().count()));
        s.push_str("wins by agent:\n");
        for (a, r) in &self.wins_by_agent {
            s.push_str(&format!("  {a:<aw$} {}\n", pct(r)));
        }
        if !self.wins_by_team.is_empty() {
            s.push_str("wins by team:\n");
            for (t, r) in &self.wins_by_team {
                s.push_str(&format!("  team {t:<5} {}\n", pct(r)));
            }
        }
        if !self.wins_by_participant.is_empty() {
            s.push_str("wins by participant (of the games it took part in):\n");
            let pw = width(&mut self.wins_by_participant.keys().map(|t| t.chars().count()));
            for (t, r) in &self.wins_by_participant {
                s.push_str(&format!("  {t:<pw$} {}\n", pct(r)));
            }
        }
        s.push_str(&format!(
            "ties {}, no winner {}\n",
            self.ties, self.no_winner
        ));
        s.push_str(&format!(
            "length in turns: mean {:.1}, median {}, 90th percentile {}\n",
            self.turns.mean, self.turns.median, self.turns.p90
        ));
        s.push_str(&format!(
            "length in decisions: mean {:.1}, median {}, 90th percentile {}\n",
            self.decisions.mean, self.decisions.median, self.decisions.p90
        ));
        if let Some(course) = &self.course {
            s.push_str(&course.to_text());
        }
        for curve in &self.curves {
            s.push_str(&curve.to_text());
        }
        s.push_str("end reasons:\n");
        for (r, c) in &self.end_reasons {
            s.push_str(&format!("  {c:>6}  {r}\n"));
        }
        s.push_str(
            "cards: copies gained and abilities performed per player and game; win rate of the players who gained one\n",
        );
        let mut cards: Vec<&CardFigures> = self
            .cards
            .iter()
            .filter(|c| c.holders > 0 || c.performed_per_game > 0.0)
            .collect();
        cards.sort_by(|a, b| b.holder_wins.rate.total_cmp(&a.holder_wins.rate));
        let cw = width(&mut cards.iter().map(|c| c.name.chars().count())).max(28);
        s.push_str(&format!(
            "  {:<cw$} {:>7} {:>9}   win rate of holders\n",
            "card", "gained", "performed"
        ));
        for c in cards {
            // A card nobody gained (one dealt at setup, played from the start) has no holders to rate.
            let holders = if c.holders == 0 {
                "–".to_string()
            } else {
                format!("{}  ({} holders)", pct(&c.holder_wins), c.holders)
            };
            s.push_str(&format!(
                "  {:<cw$} {:7.2} {:9.2}   {holders}\n",
                c.name, c.acquired_per_game, c.performed_per_game,
            ));
        }
        s.push_str(&crate::figures::to_text(&self.stats, &self.unused));
        if timing {
            s.push_str(&format!(
                "{:.1} games per second ({:.2} s)\n",
                self.games_per_second, self.seconds
            ));
        }
        s
    }

    /// The report as JSON; without `timing`, without the fields `jobs`, `seconds` and
    /// `games_per_second` (see [`SimReport::to_text_with`]), its keys then in alphabetical order.
    pub fn to_json_with(&self, timing: bool) -> Result<String, String> {
        if timing {
            return serde_json::to_string(self).map_err(|e| e.to_string());
        }
        let mut v = serde_json::to_value(self).map_err(|e| e.to_string())?;
        if let Some(o) = v.as_object_mut() {
            for key in ["jobs", "seconds", "games_per_second"] {
                o.remove(key);
            }
        }
        serde_json::to_string(&v).map_err(|e| e.to_string())
    }
}
