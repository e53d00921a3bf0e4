//! Simulation stage: the course of games, read from the script's score turn by turn: lead changes,
//! the point from which the winner led for good, how often the winner was behind late, and the mean
//! score by turn; and the first seat's advantage. Added up game by game in whole numbers, so that
//! shards add up (docs/cli.md, "The figures designers read").

use crate::program::{Program, Ty};
use crate::rate::Rate;
use serde::{Deserialize, Serialize};

/// Turns after which the mean score by turn is no longer kept (longer games add to the other figures).
pub const CURVE_TURNS: usize = 200;

/// The function whose value is each seat's score: the script's `fn score(p: player): int`, else its
/// `fn heuristic(p: player): int`; with its name.
pub fn measure(program: &Program) -> Option<(usize, &'static str)> {
    let find = |name: &str| {
        program
            .fns
            .iter()
            .position(|f| f.name == name && f.params == [Ty::Player] && f.ret == Ty::Int)
    };
    find("score")
        .map(|f| (f, "score"))
        .or_else(|| find("heuristic").map(|f| (f, "heuristic")))
}

/// The scores of every seat in each turn of one game, read at its first decision (and at the end
/// for the last).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Course {
    pub scores: Vec<Vec<i64>>,
}

/// The seat whose score is above every other's, if one is.
fn leader(scores: &[i64]) -> Option<usize> {
    let best = *scores.iter().max()?;
    let mut at = scores.iter().enumerate().filter(|(_, s)| **s == best);
    let first = at.next()?.0;
    at.next().is_none().then_some(first)
}

impl Course {
    /// How often the lead passed from one seat to another (a tie for the lead passes it to nobody:
    /// the lead changes when a seat other than the last leader leads alone).
    pub fn lead_changes(&self) -> u64 {
        let mut last = None;
        let mut changes = 0;
        for s in &self.scores {
            if let Some(l) = leader(s) {
                if last.is_some_and(|m| m != l) {
                    changes += 1;
                }
                last = Some(l);
            }
        }
        changes
    }

    /// The share of the game (in thousandths of its turns) after which `winner` led alone until the
    /// end; `None` if it did not lead alone at the end.
    pub fn decided_at(&self, winner: usize) -> Option<u64> {
        let n = self.scores.len();
        if n == 0 || leader(&self.scores[n - 1]) != Some(winner) {
            return None;
        }
        let from = self
            .scores
            .iter()
            .rposition(|s| leader(s) != Some(winner))
            .map_or(0, |i| i + 1);
        Some((from * 1000 / n) as u64)
    }

    /// Whether `winner` was behind another seat (below its score) after two thirds of the game.
    pub fn behind_late(&self, winner: usize) -> Option<bool> {
        let n = self.scores.len();
        // The line after two thirds of the turns: the 4th of 6.
        let at = self.scores.get((2 * n).div_ceil(3).checked_sub(1)?)?;
        let own = *at.get(winner)?;
        Some(at.iter().any(|s| *s > own))
    }
}

/// The course figures of a study, added up.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CourseTally {
    /// The measure's name (`score` or `heuristic`); empty when the script has neither.
    measure: String,
    /// Games with a course (a measure, and no engine error).
    games: u64,
    lead_changes: (i128, i128),
    /// Games won by one seat that led alone at the end: their number, and the sums of the share of
    /// the game (thousandths) from which the winner led for good and of its square.
    decided: (u64, i128, i128),
    /// Games won by one seat: their number, and those in which the winner was behind at two thirds.
    drama: (u64, u64),
    /// Per turn (after turn 1, 2, ...), per seat: sum of scores, sum of squares, games.
    curve: Vec<Vec<(i128, i128, u64)>>,
    /// Over every game without an engine error, of `n · (seat 1 won) - (seats that won)` with `n`
    /// seats: games, sum, sum of squares (seat 1's win rate less the seats' mean is the mean over n).
    first_seat: (u64, i128, i128),
}

/// A mean with its 95% interval (normal approximation, games as the samples).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mean {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

pub(crate) fn mean_of(n: u64, sum: i128, squares: i128) -> Mean {
    if n == 0 {
        return Mean {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let g = n as f64;
    let mean = sum as f64 / g;
    let half = if n < 2 {
        0.0
    } else {
        let variance = ((squares as f64 - g * mean * mean) / (g - 1.0)).max(0.0);
        1.959_964 * (variance / g).sqrt()
    };
    Mean {
        mean,
        low: mean - half,
        high: mean + half,
    }
}

/// The figures designers read, as the report gives them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CourseFigures {
    /// Seat 1's win rate less the mean of every seat's (with ties counted for each winner), with its
    /// interval.
    pub first_seat_advantage: Mean,
    /// `score` or `heuristic`: the function the rest is read from; absent figures when none.
    pub measure: Option<String>,
    pub games: u64,
    pub lead_changes: Option<Mean>,
    /// The share of the game after which the winner led alone for good (0: from the start).
    pub decided_at: Option<Mean>,
    /// The games `decided_at` is read from: one seat won and led alone at the end.
    pub decided_games: u64,
    /// Games in which the winner was behind after two thirds of the game, of the games one seat won.
    pub drama: Option<Rate>,
    /// The mean score of each seat after each turn, while at least 10 games lasted that long.
    pub score_by_turn: Vec<Vec<Mean>>,
}

impl CourseTally {
    pub(crate) fn new(program: &Program) -> CourseTally {
        CourseTally {
            measure: measure(program).map_or(String::new(), |m| m.1.to_string()),
            ..CourseTally::default()
        }
    }

    /// Reads no measure: the report gives the first seat's advantage only.
    pub(crate) fn without_measure(&mut self) {
        self.measure.clear();
    }

    /// Adds one game (without an engine error) of `players` seats won by `winners`.
    pub(crate) fn add_game(&mut self, players: usize, winners: &[u8]) {
        let y = players as i128 * i128::from(winners.contains(&0)) - winners.len() as i128;
        self.first_seat.0 += 1;
        self.first_seat.1 += y;
        self.first_seat.2 += y * y;
    }

    /// Adds one game's course; `winners` are the seats that won.
    pub(crate) fn add(&mut self, course: &Course, winners: &[u8]) {
        self.games += 1;
        let changes = i128::from(course.lead_changes() as u32);
        self.lead_changes.0 += changes;
        self.lead_changes.1 += changes * changes;
        if let [w] = winners {
            let w = usize::from(*w);
            if let Some(at) = course.decided_at(w) {
                let at = i128::from(at as u32);
                self.decided.0 += 1;
                self.decided.1 += at;
                self.decided.2 += at * at;
            }
            if let Some(behind) = course.behind_late(w) {
                self.drama.0 += 1;
                self.drama.1 += u64::from(behind);
            }
        }
        for (t, scores) in course.scores.iter().take(CURVE_TURNS).enumerate() {
            if self.curve.len() <= t {
                self.curve.push(vec![(0, 0, 0); scores.len()]);
            }
            for (acc, &s) in self.curve[t].iter_mut().zip(scores) {
                let s = i128::from(s);
                *acc = (acc.0 + s, acc.1 + s * s, acc.2 + 1);
            }
        }
    }

    /// Whether the tally of another shard may be added to this one: both read the same measure, or
    /// neither did (a part played with `sim --course` and one without are of different studies).
    pub(crate) fn mergeable(&self, o: &CourseTally) -> Result<(), String> {
        match (self.measure.is_empty(), o.measure.is_empty()) {
            (true, true) => Ok(()),
            (false, false) if self.measure == o.measure => Ok(()),
            (false, false) => Err(format!(
                "the parts read different measures (`fn {}` and `fn {}`)",
                self.measure, o.measure
            )),
            (false, true) | (true, false) => Err(
                "one part read the course of its games (`sim --course`) and another did not: play every part with the same flags"
                    .into(),
            ),
        }
    }

    /// Adds the tally of other games of the same study (another shard).
    pub(crate) fn merge(&mut self, o: &CourseTally) {
        self.games += o.games;
        self.lead_changes.0 += o.lead_changes.0;
        self.lead_changes.1 += o.lead_changes.1;
        self.decided.0 += o.decided.0;
        self.decided.1 += o.decided.1;
        self.decided.2 += o.decided.2;
        self.drama.0 += o.drama.0;
        self.drama.1 += o.drama.1;
        self.first_seat.0 += o.first_seat.0;
        self.first_seat.1 += o.first_seat.1;
        self.first_seat.2 += o.first_seat.2;
        for (t, seats) in o.curve.iter().enumerate() {
            if self.curve.len() <= t {
                self.curve.push(vec![(0, 0, 0); seats.len()]);
            }
            for (a, b) in self.curve[t].iter_mut().zip(seats) {
                *a = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
            }
        }
    }

    /// The report's figures for a game of `players` seats.
    pub(crate) fn report(&self, players: u8) -> CourseFigures {
        let n = f64::from(players.max(1));
        let m = mean_of(self.first_seat.0, self.first_seat.1, self.first_seat.2);
        let first_seat_advantage = Mean {
            mean: m.mean / n,
            low: m.low / n,
            high: m.high / n,
        };
        if self.measure.is_empty() {
            return CourseFigures {
                first_seat_advantage,
                measure: None,
                games: 0,
                lead_changes: None,
                decided_at: None,
                decided_games: 0,
                drama: None,
                score_by_turn: Vec::new(),
            };
        }
        let thousandths = |m: Mean| Mean {
            mean: m.mean / 1000.0,
            low: m.low / 1000.0,
            high: m.high / 1000.0,
        };
        CourseFigures {
            first_seat_advantage,
            measure: Some(self.measure.clone()),
            games: self.games,
            lead_changes: Some(mean_of(
                self.games,
                self.lead_changes.0,
                self.lead_changes.1,
            )),
            decided_at: Some(thousandths(mean_of(
                self.decided.0,
                self.decided.1,
                self.decided.2,
            ))),
            decided_games: self.decided.0,
            drama: Some(Rate::new(self.drama.1, self.drama.0)),
            score_by_turn: self
                .curve
                .iter()
                .take_while(|seats| seats.first().is_some_and(|s| s.2 >= 10))
                .map(|seats| seats.iter().map(|s| mean_of(s.2, s.0, s.1)).collect())
                .collect(),
        }
    }
}

impl CourseFigures {
    /// The figures as the text report gives them (docs/cli.md, "The figures designers read").
    pub fn to_text(&self) -> String {
        let a = &self.first_seat_advantage;
        let mut s = format!(
            "first seat advantage: {:+.1}% [{:+.1} to {:+.1}] (seat 1's win rate less the seats' mean)\n",
            a.mean * 100.0,
            a.low * 100.0,
            a.high * 100.0,
        );
        let (Some(measure), Some(changes), Some(decided), Some(drama)) = (
            &self.measure,
            &self.lead_changes,
            &self.decided_at,
            &self.drama,
        ) else {
            return s;
        };
        s.push_str(&format!(
            "course by `fn {measure}` turn by turn ({} games):\n",
            self.games
        ));
        s.push_str(&format!(
            "  lead changes per game               {:.2} [{:.2}-{:.2}]\n",
            changes.mean, changes.low, changes.high
        ));
        s.push_str(&format!(
            "  the winner led for good from        {:.0}% of the game [{:.0}-{:.0}] ({} games)\n",
            decided.mean * 100.0,
            decided.low * 100.0,
            decided.high * 100.0,
            self.decided_games
        ));
        s.push_str(&format!(
            "  the winner was behind at 2/3        {:.1}% [{:.1}-{:.1}] of {} games one seat won\n",
            drama.rate * 100.0,
            drama.low * 100.0,
            drama.high * 100.0,
            drama.games
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_are_read_from_the_scores_after_each_turn() {
        let course = Course {
            scores: vec![
                vec![0, 0],
                vec![2, 1],
                vec![2, 2],
                vec![2, 4],
                vec![5, 4],
                vec![6, 4],
            ],
        };
        // Seat 1 leads, a tie, seat 2 leads, seat 1 leads: two changes.
        assert_eq!(course.lead_changes(), 2);
        // Seat 1 led alone from the fifth of six score lines: 4/6 of the game.
        assert_eq!(course.decided_at(0), Some(666));
        assert_eq!(course.decided_at(1), None);
        // After two thirds (line 4 of 6), seat 1 was behind: it came back.
        assert_eq!(course.behind_late(0), Some(true));
        let mut tally = CourseTally {
            measure: "score".into(),
            ..CourseTally::default()
        };
        tally.add(&course, &[0]);
        tally.add_game(2, &[0]);
        tally.add_game(2, &[0, 1]);
        let r = tally.report(2);
        assert_eq!(r.lead_changes.map(|m| m.mean), Some(2.0));
        assert_eq!(r.drama.map(|d| d.wins), Some(1));
        // Seat 1 won both games, seat 2 one: 100% against a mean of 75%.
        assert_eq!(r.first_seat_advantage.mean, 0.25);
    }
}
