//! Simulation stage: the statistics kept per key (`stat NAME[TYPE]`), added up as each game ends: for
//! each key, the figures of a statistic (figures.rs), and their report, a table per statistic.
//!
//! As in figures.rs, every figure is a sum of whole numbers and the keys are ordered by their value
//! (numbers, seats, kinds and tags in their order, texts alphabetically), so the report is the same
//! whatever the order in which games end, the number of threads or of shards. The memory is bounded:
//! past [`MAX_KEYS`] keys a statistic's table is no longer kept (the figures of every key together,
//! figures.rs, go on).

use crate::engine::Game;
use crate::program::Program;
use crate::stat_sums::Acc;
use crate::value::Value;
use serde::{Deserialize, Serialize};

/// A statistic with more distinct keys than this keeps no table (only every key together).
pub const MAX_KEYS: usize = 256;

/// A key as the report names it: its place in the order of keys, and its text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct StatKey {
    order: i64,
    label: String,
}

impl StatKey {
    /// The key of a value as `game` names it (numbers, seats, kinds and tags ordered by their value
    /// or their place in the script; texts by their text, after `none`).
    fn of(game: &Game, v: &Value) -> StatKey {
        let order = match v {
            Value::None => i64::MIN,
            Value::Int(i) => *i,
            Value::Bool(b) => i64::from(*b),
            Value::Player(p) => i64::from(*p),
            Value::Kind(k) | Value::Tag(k) | Value::Space(k) => i64::from(*k),
            Value::Card(_) | Value::Zone(_) | Value::Text(_) | Value::List(_) => 0,
        };
        StatKey {
            order,
            label: game.label(v),
        }
    }
}

/// One statistic's table: per key, its figures.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct PerKey {
    /// Games added (a count's key that a game never counted is a 0 of that game).
    games: u64,
    /// Per key, in the order of keys.
    keys: Vec<(StatKey, Acc)>,
    /// More than [`MAX_KEYS`] keys were seen: the table is not kept.
    too_many: bool,
}

impl PerKey {
    fn acc(&mut self, key: StatKey) -> Option<&mut Acc> {
        if self.too_many {
            return None;
        }
        let i = match self.keys.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => i,
            Err(i) => {
                if self.keys.len() >= MAX_KEYS {
                    self.too_many = true;
                    self.keys = Vec::new();
                    return None;
                }
                self.keys.insert(i, (key, Acc::new()));
                i
            }
        };
        self.keys.get_mut(i).map(|(_, a)| a)
    }

    /// Adds the table of other games of the same statistic: the same as if those games had been
    /// added here one by one.
    fn merge(&mut self, o: &PerKey) {
        self.games += o.games;
        self.too_many |= o.too_many;
        if !self.too_many {
            for (k, a) in &o.keys {
                if let Some(mine) = self.acc(k.clone()) {
                    mine.merge(a);
                }
            }
        }
        if self.too_many {
            self.keys = Vec::new();
        }
    }
}

/// The tables of a script's statistics, one per statistic (empty for one without a key).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Keyed {
    stats: Vec<PerKey>,
}

impl Keyed {
    pub(crate) fn new(program: &Program) -> Keyed {
        Keyed {
            stats: program.stats.iter().map(|_| PerKey::default()).collect(),
        }
    }

    /// Adds a game that has ended.
    pub(crate) fn add(&mut self, program: &Program, game: &Game) {
        // Per (statistic, key) touched by this game: the sum of its records and their number.
        let mut touched: Vec<(u16, StatKey, i128, u64)> = Vec::new();
        // The mean by turn is reported for every key together only: a key's figures keep none.
        for (s, _, key, v) in game.stat_keyed_records() {
            let key = StatKey::of(game, key);
            if let Some(acc) = self
                .stats
                .get_mut(*s as usize)
                .and_then(|t| t.acc(key.clone()))
            {
                acc.add(*v, None);
            }
            match touched.iter_mut().find(|e| e.0 == *s && e.1 == key) {
                Some(e) => {
                    e.2 = e.2.saturating_add(i128::from(*v));
                    e.3 += 1;
                }
                None => touched.push((*s, key, i128::from(*v), 1)),
            }
        }
        for (s, key, total) in game.stat_keyed_counters() {
            let key = StatKey::of(game, key);
            if let Some(acc) = self
                .stats
                .get_mut(*s as usize)
                .and_then(|t| t.acc(key.clone()))
            {
                acc.add(*total, None);
            }
            touched.push((*s, key, i128::from(*total), 1));
        }
        for (s, key, sum, n) in touched {
            if let Some(acc) = self.stats.get_mut(s as usize).and_then(|t| t.acc(key)) {
                acc.end_game(sum, n);
            }
        }
        for (t, def) in self.stats.iter_mut().zip(&program.stats) {
            if def.key.is_some() {
                t.games += 1;
            }
        }
    }

    /// Adds the tables of other games of the same script (another shard of the same study); a
    /// part written before statistics had keys has none, and adds nothing.
    pub(crate) fn merge(&mut self, o: &Keyed) -> Result<(), String> {
        if o.stats.is_empty() {
            return Ok(());
        }
        if self.stats.is_empty() {
            self.stats = vec![PerKey::default(); o.stats.len()];
        }
        if self.stats.len() != o.stats.len() {
            return Err("the figures are of different scripts".into());
        }
        for (a, b) in self.stats.iter_mut().zip(&o.stats) {
            a.merge(b);
        }
        Ok(())
    }

    /// The report's table of statistic `i`, kept per `key` (a type's name); `None` for a statistic
    /// without a key.
    pub(crate) fn report(&self, i: usize, key: Option<&str>, counter: bool) -> Option<KeyTable> {
        let key = key?;
        let t = self.stats.get(i).cloned().unwrap_or_default();
        let rows = t
            .keys
            .iter()
            .map(|(k, a)| {
                // The games that recorded (or counted) the key; a count's mean is over every game,
                // those that never counted this key counting it 0.
                let games = a.games;
                let a = if counter {
                    a.with_zero_games(t.games.saturating_sub(a.games))
                } else {
                    a.clone()
                };
                let (mean, half) = a.interval();
                KeyFigures {
                    key: k.label.clone(),
                    records: a.records,
                    games,
                    mean,
                    low: mean - half,
                    high: mean + half,
                    min: a.min,
                    max: a.max,
                    distribution: a.distribution(),
                }
            })
            .collect();
        Some(KeyTable {
            key: key.to_string(),
            keys: if t.too_many { None } else { Some(rows) },
        })
    }
}

/// A statistic's figures per key in a report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct KeyTable {
    /// The type of the keys (`int`, `text`, `player`, `kind`, `tag`, `bool`).
    pub key: String,
    /// Per key, in the order of keys; `null` when there were more than 256 keys.
    pub keys: Option<Vec<KeyFigures>>,
}

/// One key's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct KeyFigures {
    /// The key as the language shows it (a number, a text, a seat's name, a card's name, a tag).
    pub key: String,
    /// As a statistic's figures (docs/cli.md), for the records of this key: for a count, one total
    /// per game of the study (0 in a game that never counted the key).
    pub records: u64,
    /// The games with a record of this key (for a count, the games that counted it).
    pub games: u64,
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    pub min: i64,
    pub max: i64,
    pub distribution: Option<Vec<(i64, u64)>>,
}

/// The text report's table of a statistic kept per key, under its line for every key together.
pub(crate) fn to_text(per_key: Option<&KeyTable>, counter: bool, out: &mut String) {
    let Some(table) = per_key else {
        return;
    };
    let Some(rows) = &table.keys else {
        out.push_str(&format!(
            "    per key: more than {MAX_KEYS} keys (every key together above)\n"
        ));
        return;
    };
    if rows.is_empty() {
        return;
    }
    let width = rows
        .iter()
        .map(|r| r.key.chars().count())
        .max()
        .unwrap_or(0);
    let per = if counter {
        "per game, games, games that counted it"
    } else {
        "records, games"
    };
    out.push_str(&format!("    per key (mean [95% interval], {per}):\n"));
    for r in rows {
        out.push_str(&format!(
            "      {:<width$}  {:.2} [{:.2}-{:.2}]  {}, {}\n",
            r.key, r.mean, r.low, r.high, r.records, r.games
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{PerKey, StatKey, MAX_KEYS};

    fn key(i: i64) -> StatKey {
        StatKey {
            order: i,
            label: i.to_string(),
        }
    }

    fn table(keys: impl Iterator<Item = i64>) -> PerKey {
        let mut t = PerKey::default();
        for k in keys {
            if let Some(a) = t.acc(key(k)) {
                a.add(k, None);
                a.end_game(i128::from(k), 1);
            }
            t.games += 1;
        }
        t
    }

    /// Keys are kept in their order whatever the order they come in, and two halves merged give the
    /// table of the whole.
    #[test]
    fn keys_are_ordered_and_halves_merge_into_the_whole() {
        let all = table([5, -2, 9, 5, 0, -2].into_iter());
        let labels: Vec<&str> = all.keys.iter().map(|(k, _)| k.label.as_str()).collect();
        assert_eq!(labels, ["-2", "0", "5", "9"]);
        let mut a = table([9, 5, 0].into_iter());
        let b = table([-2, 5, -2].into_iter());
        a.merge(&b);
        assert_eq!(a, table([5, -2, 9, 5, 0, -2].into_iter()));
    }

    /// Past MAX_KEYS keys the table is dropped, in one run as in shards merged, whatever the order.
    #[test]
    fn too_many_keys_drop_the_table_in_any_order() {
        let n = MAX_KEYS as i64 + 1;
        let up = table(0..n);
        let down = table((0..n).rev());
        assert!(up.too_many && up.keys.is_empty());
        assert_eq!(up, down);
        let mut half = table(0..n / 2);
        assert!(!half.too_many);
        half.merge(&table(n / 2..n));
        assert_eq!(half, up);
        let mut few = table(0..3);
        few.merge(&table(3..(MAX_KEYS as i64)));
        assert!(!few.too_many && few.keys.len() == MAX_KEYS);
    }
}
