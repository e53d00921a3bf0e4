//! Simulation stage: what a script records with `stat`, and the content that play never used (actions
//! never offered, cards never chosen or moved), added up as each game ends.
//!
//! Every figure is a sum of whole numbers, so the total does not depend on the order in which games
//! end: the report is the same whatever the number of threads. The memory does not grow with the
//! number of games: a distribution keeps at most [`MAX_DISTINCT`] values, and means by turn one
//! entry per turn number.

use crate::catalog::Catalog;
use crate::engine::Game;
use crate::program::Program;
pub(crate) use crate::stat_sums::{Acc, MAX_DISTINCT};
use serde::{Deserialize, Serialize};

/// Turn numbers shown in a text report's "mean by turn" (the JSON report has every one).
const TEXT_TURNS: usize = 30;

/// The figures of the games played so far (see the module's documentation).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Figures {
    stats: Vec<Acc>,
    /// Per action: games in which it was offered.
    offered: Vec<u64>,
    /// Per card kind: games in which a card of it lay outside the box when play began, games in
    /// which one was chosen, games in which one moved.
    present: Vec<u64>,
    chosen: Vec<u64>,
    moved: Vec<u64>,
    /// The statistics kept per key (`stat NAME[TYPE]`); absent from a part written before keys.
    #[serde(default)]
    keyed: crate::keyed::Keyed,
}

/// Per statistic, what one game recorded: the sum of its records and their number (a counter, `stat
/// NAME += E`, is one record of the game's total).
pub(crate) fn per_game(program: &Program, game: &Game) -> Vec<(i128, u64)> {
    let mut per = vec![(0i128, 0u64); program.stats.len()];
    for &(s, _, v) in game.stat_records() {
        if let Some(p) = per.get_mut(s as usize) {
            *p = (p.0.saturating_add(i128::from(v)), p.1 + 1);
        }
    }
    for (i, def) in program.stats.iter().enumerate() {
        if def.counter {
            per[i] = (i128::from(game.stat_counter(i)), 1);
        }
    }
    per
}

impl Figures {
    pub(crate) fn new(program: &Program) -> Figures {
        let nk = program.kinds.len();
        Figures {
            stats: program.stats.iter().map(|_| Acc::new()).collect(),
            offered: vec![0; program.actions.len()],
            present: vec![0; nk],
            chosen: vec![0; nk],
            moved: vec![0; nk],
            keyed: crate::keyed::Keyed::new(program),
        }
    }

    /// Adds a game that has ended (a game that ended with an engine error is not added);
    /// `out_of_box` tells, per card kind, whether a card of it lay outside the box when play began.
    pub(crate) fn add(&mut self, program: &Program, game: &Game, out_of_box: &[bool]) {
        for &(s, turn, v) in game.stat_records() {
            if let Some(acc) = self.stats.get_mut(s as usize) {
                acc.add(v, Some(turn));
            }
        }
        for (i, def) in program.stats.iter().enumerate() {
            if def.counter {
                self.stats[i].add(game.stat_counter(i), None);
            }
        }
        let per = per_game(program, game);
        for (acc, (sum, n)) in self.stats.iter_mut().zip(per) {
            acc.end_game(sum, n);
        }
        self.keyed.add(program, game);
        for (n, offered) in self.offered.iter_mut().zip(game.actions_offered()) {
            *n += u64::from(offered);
        }
        for (k, (chosen, moved)) in game.kinds_used().into_iter().enumerate() {
            self.present[k] += u64::from(out_of_box.get(k).copied().unwrap_or(false));
            self.chosen[k] += u64::from(chosen);
            self.moved[k] += u64::from(moved);
        }
    }

    /// Adds the figures of other games of the same script (another shard of the same study).
    pub(crate) fn merge(&mut self, o: &Figures) -> Result<(), String> {
        if (self.stats.len(), self.offered.len(), self.present.len())
            != (o.stats.len(), o.offered.len(), o.present.len())
        {
            return Err("the figures are of different scripts".into());
        }
        for (a, b) in self.stats.iter_mut().zip(&o.stats) {
            a.merge(b);
        }
        self.keyed.merge(&o.keyed)?;
        for (mine, theirs) in [
            (&mut self.offered, &o.offered),
            (&mut self.present, &o.present),
            (&mut self.chosen, &o.chosen),
            (&mut self.moved, &o.moved),
        ] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        Ok(())
    }

    /// The report's part.
    pub(crate) fn report(&self, catalog: &Catalog) -> (Vec<StatFigures>, Unused) {
        let stats = catalog
            .stats
            .iter()
            .zip(&self.stats)
            .enumerate()
            .map(|(i, (def, a))| {
                let (mean, half) = a.interval();
                StatFigures {
                    per_key: self.keyed.report(i, def.key.as_deref(), def.counter),
                    name: def.name.clone(),
                    description: def.description.clone(),
                    kind: if def.counter { "count" } else { "value" },
                    records: a.records,
                    games: a.games,
                    mean,
                    low: mean - half,
                    high: mean + half,
                    min: a.min,
                    max: a.max,
                    distribution: a.distribution(),
                    by_turn: a
                        .by_turn
                        .iter()
                        .enumerate()
                        .filter(|(_, (_, c))| *c > 0)
                        .map(|(t, (s, c))| TurnMean {
                            turn: t as u32,
                            mean: *s as f64 / *c as f64,
                            records: *c,
                        })
                        .collect(),
                }
            })
            .collect();
        let kinds = |counts: &[u64]| -> Vec<String> {
            catalog
                .kinds
                .iter()
                .enumerate()
                .filter(|(k, _)| self.present[*k] > 0 && counts[*k] == 0)
                .map(|(_, name)| name.clone())
                .collect()
        };
        let unused = Unused {
            actions_never_offered: catalog
                .actions
                .iter()
                .zip(&self.offered)
                .filter(|(_, n)| **n == 0)
                .map(|(a, _)| a.clone())
                .collect(),
            cards_never_chosen: kinds(&self.chosen),
            cards_never_moved: kinds(&self.moved),
        };
        (stats, unused)
    }
}

/// A statistic of the script over a simulation.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StatFigures {
    pub name: String,
    pub description: String,
    /// `value` (`stat NAME = E`: every record counts) or `count` (`stat NAME += E`: one total per game).
    pub kind: &'static str,
    /// Values recorded (for a count: games).
    pub records: u64,
    /// Games with at least one record.
    pub games: u64,
    /// The mean of the records with its 95% interval (normal approximation; games are taken as
    /// independent, not the records of one game).
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    pub min: i64,
    pub max: i64,
    /// `[value, records]` pairs in increasing value; `null` with more than 64 distinct values.
    pub distribution: Option<Vec<(i64, u64)>>,
    /// For a value: its mean by the turn number it was recorded in (turns with records only).
    pub by_turn: Vec<TurnMean>,
    /// For a statistic kept per key (`stat NAME[TYPE]`): its figures per key (the figures above
    /// are those of every key together). Absent for a statistic without a key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_key: Option<crate::keyed::KeyTable>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TurnMean {
    pub turn: u32,
    pub mean: f64,
    pub records: u64,
}

/// What play never used in any game of a simulation: text a designer may have written for nothing.
#[derive(Clone, Debug, Serialize, PartialEq, Default)]
pub struct Unused {
    /// Actions that no menu ever offered (never legal when a menu listed them).
    pub actions_never_offered: Vec<String>,
    /// Card kinds (with a card outside the box when play began, in some game) that were never chosen: no chosen option of a decision (a `choose`, a
    /// simultaneous choice, an argument of a chosen action) was a card of the kind or the kind.
    pub cards_never_chosen: Vec<String>,
    /// Card kinds (with a card outside the box when play began, in some game) none of whose cards moved to another zone after the first decision.
    pub cards_never_moved: Vec<String>,
}

/// The text report's lines for the statistics and the unused content.
pub(crate) fn to_text(stats: &[StatFigures], unused: &Unused) -> String {
    let mut s = String::new();
    if !stats.is_empty() {
        s.push_str("statistics (mean with its 95% interval):\n");
    }
    for st in stats {
        s.push_str(&format!("  {}", st.name));
        if !st.description.is_empty() {
            s.push_str(&format!("  ({})", st.description));
        }
        s.push('\n');
        let per = if st.kind == "count" {
            format!("per game over {} games", st.records)
        } else {
            format!("over {} records in {} games", st.records, st.games)
        };
        if st.records == 0 {
            s.push_str("    never recorded\n");
            continue;
        }
        s.push_str(&format!(
            "    mean {:.2} [{:.2}-{:.2}] {per}, min {}, max {}\n",
            st.mean, st.low, st.high, st.min, st.max
        ));
        match &st.distribution {
            Some(d) if d.len() <= 20 => {
                let parts: Vec<String> = d.iter().map(|(v, c)| format!("{v}: {c}")).collect();
                s.push_str(&format!("    values: {}\n", parts.join(", ")));
            }
            Some(d) => s.push_str(&format!(
                "    values: {} distinct (the JSON report lists them)\n",
                d.len()
            )),
            None => s.push_str(&format!("    values: more than {MAX_DISTINCT} distinct\n")),
        }
        if !st.by_turn.is_empty() {
            let parts: Vec<String> = st
                .by_turn
                .iter()
                .take(TEXT_TURNS)
                .map(|t| format!("{}: {:.2}", t.turn, t.mean))
                .collect();
            let more = if st.by_turn.len() > TEXT_TURNS {
                "... (the JSON report has every turn)"
            } else {
                ""
            };
            s.push_str("    mean by turn:\n");
            for row in parts.chunks(10) {
                s.push_str(&format!("      {}\n", row.join(", ")));
            }
            if !more.is_empty() {
                s.push_str(&format!("      {}\n", more.trim_start()));
            }
        }
        crate::keyed::to_text(st.per_key.as_ref(), st.kind == "count", &mut s);
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    s.push_str(&format!(
        "actions never offered: {}\n",
        list(&unused.actions_never_offered)
    ));
    s.push_str(&format!(
        "cards never chosen: {}\n",
        list(&unused.cards_never_chosen)
    ));
    s.push_str(&format!(
        "cards never moved after the first decision: {}\n",
        list(&unused.cards_never_moved)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::{Acc, MAX_DISTINCT};

    /// A distribution stops being kept past MAX_DISTINCT values (so memory stays bounded), whatever
    /// the order of the values; the mean, range and curve by turn go on.
    #[test]
    fn a_wide_distribution_is_dropped_and_the_rest_kept() {
        let mut a = Acc::new();
        let mut b = Acc::new();
        let values: Vec<i64> = (0..=MAX_DISTINCT as i64).collect();
        for (i, v) in values.iter().enumerate() {
            a.add(*v, Some(i as u32 % 3));
        }
        for (i, v) in values.iter().enumerate().rev() {
            b.add(*v, Some(i as u32 % 3));
        }
        assert!(a.values.is_none() && b.values.is_none());
        assert_eq!(
            (a.sum, a.min, a.max, a.records),
            (b.sum, b.min, b.max, b.records)
        );
        assert_eq!(a.by_turn, b.by_turn);
        assert_eq!(a.by_turn.len(), 3);
        let mut c = Acc::new();
        for v in [3, -1, 3, 7] {
            c.add(v, None);
        }
        let m = c.values.as_ref().expect("kept");
        assert_eq!(
            m.iter().map(|(v, n)| (*v, *n)).collect::<Vec<_>>(),
            vec![(-1, 1), (3, 2), (7, 1)]
        );
        assert!(c.by_turn.is_empty());
    }

    /// One record per game (a count): the interval is the usual mean ± 1.96 s/√G. Several records per
    /// game: the games are the samples, so a game whose records all agree adds no spread within it.
    #[test]
    fn the_interval_takes_games_as_the_samples() {
        let mut a = Acc::new();
        let values = [2i64, 4, 4, 4, 5, 5, 7, 9];
        for v in values {
            a.add(v, None);
            a.end_game(i128::from(v), 1);
        }
        let (mean, half) = a.interval();
        let g = values.len() as f64;
        let s2 = values
            .iter()
            .map(|v| (*v as f64 - 5.0).powi(2))
            .sum::<f64>()
            / (g - 1.0);
        assert_eq!(mean, 5.0);
        assert!((half - 1.959_964 * (s2 / g).sqrt()).abs() < 1e-12, "{half}");
        // Two games of three equal records each: the spread is that of two values, 1 and 3.
        let mut b = Acc::new();
        for v in [1i64, 3] {
            for _ in 0..3 {
                b.add(v, Some(1));
            }
            b.end_game(i128::from(3 * v), 3);
        }
        let (mean, half) = b.interval();
        assert_eq!(mean, 2.0);
        assert!(
            (half - 1.959_964 * (2.0f64 / 2.0).sqrt()).abs() < 1e-12,
            "{half}"
        );
    }
}
