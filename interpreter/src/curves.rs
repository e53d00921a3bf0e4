//! Simulation stage: curves by turn of what the designer names (`sim --curve NAME`): a per-player
//! variable (one line per seat), a variable of the game, a statistic's total so far, or a function of
//! a player (`fn NAME(p: player): int`, one line per seat), read after every turn of every game, added
//! up in whole numbers so that shards add up, and reported as the mean after each turn with its 95%
//! interval (docs/cli.md, "Curves by turn").

use crate::course::{mean_of, Mean, CURVE_TURNS};
use crate::engine::Game;
use crate::program::{Program, Ty};
use cardgame_grammar::ast::Scope;
use serde::{Deserialize, Serialize};

/// What a curve reads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    /// A per-player variable (`Program::vars` index): one line per seat.
    PlayerVariable(usize),
    /// A variable of the game: one line.
    GameVariable(usize),
    /// A statistic (`Program::stats` index): its counter, or the sum of its records so far.
    Statistic(usize),
    /// A function of one player returning a number (`Program::fns` index): one line per seat.
    Function(usize),
}

impl Source {
    fn describe(self) -> &'static str {
        match self {
            Source::PlayerVariable(_) => "per-player variable",
            Source::GameVariable(_) => "variable",
            Source::Statistic(_) => "statistic, total so far",
            Source::Function(_) => "function of a player",
        }
    }

    fn per_seat(self) -> bool {
        match self {
            Source::PlayerVariable(_) | Source::Function(_) => true,
            Source::GameVariable(_) | Source::Statistic(_) => false,
        }
    }
}

/// A curve asked for, resolved against the script.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub name: String,
    source: Source,
}

impl Curve {
    /// The curve named `name`: a variable (per player or of the game) that holds a number or a truth,
    /// a statistic, or a function of one player returning a number; otherwise an error that says what
    /// can be named (with a "did you mean").
    pub fn resolve(program: &Program, name: &str) -> Result<Curve, String> {
        let source = if let Some(i) = program.vars.iter().position(|v| v.name == name) {
            let v = &program.vars[i];
            if !matches!(v.ty, Ty::Int | Ty::Bool) {
                return Err(format!(
                    "--curve {name}: the variable holds no number (a curve reads an int or a bool)"
                ));
            }
            match v.scope {
                Scope::PerPlayer => Source::PlayerVariable(i),
                Scope::Shared => Source::GameVariable(i),
                Scope::PerCard | Scope::PerSpace => {
                    return Err(format!(
                        "--curve {name}: a variable per card or per space has no single value to follow"
                    ))
                }
            }
        } else if let Some(i) = program.stats.iter().position(|s| s.name == name) {
            Source::Statistic(i)
        } else if let Some(i) = program.fns.iter().position(|f| f.name == name) {
            let f = &program.fns[i];
            if f.params != [Ty::Player] || f.ret != Ty::Int {
                return Err(format!(
                    "--curve {name}: a function is followed when it takes one player and gives an int"
                ));
            }
            Source::Function(i)
        } else {
            let names = program
                .vars
                .iter()
                .map(|v| v.name.as_str())
                .chain(program.stats.iter().map(|s| s.name.as_str()))
                .chain(program.fns.iter().map(|f| f.name.as_str()));
            let hint =
                crate::diag::did_you_mean(name, names).map_or(String::new(), |h| format!(" ({h})"));
            return Err(format!(
                "--curve {name}: no variable, statistic or function of the script is named so{hint}"
            ));
        };
        Ok(Curve {
            name: name.to_string(),
            source,
        })
    }

    /// The curve's values now, one per line (seat, or the one line). `so_far` is this curve's
    /// reading of the same game the last time (a statistic's records are added up once each).
    pub fn read(&self, game: &mut Game, program: &Program, so_far: &mut Reading) -> Vec<i64> {
        let seats = game.players();
        match self.source {
            Source::PlayerVariable(v) => (0..seats)
                .map(|s| game.variable_number(v, s).unwrap_or(0))
                .collect(),
            Source::GameVariable(v) => vec![game.variable_number(v, 0).unwrap_or(0)],
            Source::Statistic(i) => {
                let total = match program.stats.get(i).is_some_and(|s| s.counter) {
                    true => game.stat_counter(i),
                    false => {
                        // Records are only ever added: those seen at the last reading are in
                        // `so_far.total` already.
                        let records = game.stat_records();
                        let new = records.get(so_far.records..).unwrap_or(&[]);
                        so_far.total += new
                            .iter()
                            .filter(|r| usize::from(r.0) == i)
                            .map(|r| r.2)
                            .sum::<i64>();
                        so_far.records = records.len();
                        so_far.total
                    }
                };
                vec![total]
            }
            Source::Function(f) => (0..seats)
                .map(|s| game.seat_function_here(f, s).unwrap_or(0))
                .collect(),
        }
    }
}

/// What a curve read of one game so far: for a statistic, the records added up and their total.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reading {
    records: usize,
    total: i64,
}

/// One curve added up: per turn (after turn 1, 2, ...), per line, the sum of values, the sum of their
/// squares and the games that lasted that long.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct CurveSums {
    name: String,
    of: String,
    lines: Vec<String>,
    by_turn: Vec<Vec<(i128, i128, u64)>>,
}

/// The curves of a study, added up game by game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CurveTally {
    curves: Vec<CurveSums>,
}

/// One curve as the report gives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurveFigures {
    pub name: String,
    /// What was read: a per-player variable, a variable, a statistic's total so far, a function of
    /// a player.
    pub of: String,
    /// The lines: `seat 1`, `seat 2`, ... or the curve's name alone.
    pub lines: Vec<String>,
    /// Per turn (the first is after turn 1), per line: the mean with its interval, while at least 10
    /// games lasted that long.
    pub by_turn: Vec<Vec<Mean>>,
}

impl CurveTally {
    /// The tally of `curves` in games of `players` seats.
    pub fn new(curves: &[Curve], players: u8) -> CurveTally {
        CurveTally {
            curves: curves
                .iter()
                .map(|c| CurveSums {
                    name: c.name.clone(),
                    of: c.source.describe().to_string(),
                    lines: match c.source.per_seat() {
                        true => (1..=players).map(|s| format!("seat {s}")).collect(),
                        false => vec![c.name.clone()],
                    },
                    by_turn: Vec::new(),
                })
                .collect(),
        }
    }

    /// Adds one game's readings: per curve, per turn, per line.
    pub(crate) fn add(&mut self, game: &[Vec<Vec<i64>>]) {
        for (sums, turns) in self.curves.iter_mut().zip(game) {
            for (t, values) in turns.iter().take(CURVE_TURNS).enumerate() {
                if sums.by_turn.len() <= t {
                    sums.by_turn.push(vec![(0, 0, 0); values.len()]);
                }
                for (acc, &v) in sums.by_turn[t].iter_mut().zip(values) {
                    let v = i128::from(v);
                    *acc = (acc.0 + v, acc.1 + v * v, acc.2 + 1);
                }
            }
        }
    }

    /// Adds the tally of another shard of the same study.
    pub(crate) fn merge(&mut self, other: &CurveTally) -> Result<(), String> {
        let names = |t: &CurveTally| t.curves.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        if names(self) != names(other) {
            return Err(format!(
                "the parts follow different curves ({} and {})",
                names(self).join(", "),
                names(other).join(", ")
            ));
        }
        for (mine, theirs) in self.curves.iter_mut().zip(&other.curves) {
            for (t, lines) in theirs.by_turn.iter().enumerate() {
                if mine.by_turn.len() <= t {
                    mine.by_turn.push(vec![(0, 0, 0); lines.len()]);
                }
                for (a, b) in mine.by_turn[t].iter_mut().zip(lines) {
                    *a = (a.0 + b.0, a.1 + b.1, a.2 + b.2);
                }
            }
        }
        Ok(())
    }

    /// The report's curves.
    pub fn report(&self) -> Vec<CurveFigures> {
        self.curves
            .iter()
            .map(|c| CurveFigures {
                name: c.name.clone(),
                of: c.of.clone(),
                lines: c.lines.clone(),
                by_turn: c
                    .by_turn
                    .iter()
                    .take_while(|lines| lines.first().is_some_and(|l| l.2 >= 10))
                    .map(|lines| lines.iter().map(|l| mean_of(l.2, l.0, l.1)).collect())
                    .collect(),
            })
            .collect()
    }
}

/// The turns a text report shows of a curve of `n` turns: every turn up to 12, else eleven turns
/// evenly spread from the first to the last.
fn shown_turns(n: usize) -> Vec<usize> {
    if n <= 12 {
        return (0..n).collect();
    }
    let mut turns: Vec<usize> = (0..11).map(|i| i * (n - 1) / 10).collect();
    turns.dedup();
    turns
}

impl CurveFigures {
    /// The curve as the text report gives it: a table of the mean after some turns, with intervals.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "curve of {} ({}), mean by turn as read at its first decision [95% interval]:\n",
            self.name, self.of
        );
        if self.by_turn.is_empty() {
            s.push_str("  (fewer than 10 games lasted one turn)\n");
            return s;
        }
        let cell = |m: &Mean| format!("{:.2} [{:.2}-{:.2}]", m.mean, m.low, m.high);
        let cells: Vec<(usize, Vec<String>)> = shown_turns(self.by_turn.len())
            .into_iter()
            .map(|t| (t + 1, self.by_turn[t].iter().map(cell).collect()))
            .collect();
        let width = cells
            .iter()
            .flat_map(|(_, c)| c.iter().map(|x| x.chars().count()))
            .chain(self.lines.iter().map(|l| l.chars().count()))
            .max()
            .unwrap_or(0);
        let mut line = String::from("    turn");
        for l in &self.lines {
            line.push_str(&format!("  {l:<width$}"));
        }
        s.push_str(line.trim_end());
        s.push('\n');
        for (turn, row) in cells {
            let mut line = format!("  {turn:>6}");
            for c in row {
                line.push_str(&format!("  {c:<width$}"));
            }
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_add_up_by_turn_and_shards_merge_to_the_whole() {
        let curves = [Curve {
            name: "coins".into(),
            source: Source::PlayerVariable(0),
        }];
        // 24 games of two seats: seat 1 has 2t after turn t, seat 2 has t; half the games
        // last two turns, half three.
        let game = |turns: i64| -> Vec<Vec<Vec<i64>>> {
            vec![(1..=turns).map(|t| vec![2 * t, t]).collect()]
        };
        let mut whole = CurveTally::new(&curves, 2);
        let (mut first, mut second) = (whole.clone(), whole.clone());
        for g in 0..24 {
            let one = game(2 + g % 2);
            whole.add(&one);
            match g < 10 {
                true => first.add(&one),
                false => second.add(&one),
            }
        }
        first.merge(&second).expect("same curves");
        assert_eq!(first, whole);
        let report = whole.report();
        assert_eq!(report[0].lines, ["seat 1", "seat 2"]);
        assert_eq!(report[0].by_turn.len(), 3);
        assert_eq!(report[0].by_turn[1][0].mean, 4.0);
        assert_eq!(report[0].by_turn[2][1].mean, 3.0);
        // The third turn was reached by 12 games: shown; no interval width, all equal.
        assert_eq!(report[0].by_turn[2][1].low, 3.0);
        let other = CurveTally::new(
            &[Curve {
                name: "score".into(),
                source: Source::Function(0),
            }],
            2,
        );
        assert!(whole.merge(&other).is_err());
    }

    #[test]
    fn a_long_curve_shows_eleven_turns_from_the_first_to_the_last() {
        assert_eq!(shown_turns(5), [0, 1, 2, 3, 4]);
        let long = shown_turns(101);
        assert_eq!(long.len(), 11);
        assert_eq!((long[0], long[10]), (0, 100));
    }
}
