//! Simulation stage: one statistic's sums over the games of a study (`Acc`): whole numbers, so that
//! games added in any order and shards merged give the same figures.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A distribution with more distinct values than this is not kept (only its mean and range).
pub const MAX_DISTINCT: usize = 64;
/// One statistic, added up.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct Acc {
    pub(crate) records: u64,
    pub(crate) games: u64,
    pub(crate) sum: i128,
    /// Over the games with records, each game's sum S and number of records N: the sums of S², S·N
    /// and N², for an interval that takes games (not records) as independent.
    game_ss: i128,
    game_sn: i128,
    game_nn: i128,
    pub(crate) min: i64,
    pub(crate) max: i64,
    /// Value → records; `None` once more than [`MAX_DISTINCT`] values were seen.
    pub(crate) values: Option<BTreeMap<i64, u64>>,
    /// Per turn number: (sum, records).
    pub(crate) by_turn: Vec<(i128, u64)>,
}

impl Acc {
    pub(crate) fn new() -> Acc {
        Acc {
            values: Some(BTreeMap::new()),
            ..Acc::default()
        }
    }

    /// The values recorded with their counts, in increasing value (`None` past [`MAX_DISTINCT`]
    /// values), as a report gives them.
    pub(crate) fn distribution(&self) -> Option<Vec<(i64, u64)>> {
        self.values
            .as_ref()
            .map(|m| m.iter().map(|(v, c)| (*v, *c)).collect())
    }

    /// The mean of the records and the half width of its 95% interval.
    ///
    /// The mean is a ratio (all values over all records) whose games are independent samples: its
    /// variance is G/(G-1) · Σ(S - mean·N)² / (ΣN)² over the G games with records (for a count,
    /// N = 1 and this is the usual s²/G).
    pub(crate) fn interval(&self) -> (f64, f64) {
        if self.records == 0 {
            return (0.0, 0.0);
        }
        let n = self.records as f64;
        let mean = self.sum as f64 / n;
        if self.games < 2 {
            return (mean, 0.0);
        }
        let g = self.games as f64;
        let resid = self.game_ss as f64 - 2.0 * mean * self.game_sn as f64
            + mean * mean * self.game_nn as f64;
        let var = g / (g - 1.0) * resid.max(0.0) / (n * n);
        (mean, 1.959_964 * var.sqrt())
    }

    /// Ends a game that recorded `n` values adding up to `sum`.
    pub(crate) fn end_game(&mut self, sum: i128, n: u64) {
        if n == 0 {
            return;
        }
        let n = i128::from(n);
        self.games += 1;
        self.game_ss = self.game_ss.saturating_add(sum.saturating_mul(sum));
        self.game_sn = self.game_sn.saturating_add(sum.saturating_mul(n));
        self.game_nn = self.game_nn.saturating_add(n * n);
    }

    /// Adds the statistic of other games (another shard of the same study): the same figures as if
    /// those games had been added here one by one.
    pub(crate) fn merge(&mut self, o: &Acc) {
        if o.records > 0 {
            if self.records == 0 || o.min < self.min {
                self.min = o.min;
            }
            if self.records == 0 || o.max > self.max {
                self.max = o.max;
            }
        }
        self.records += o.records;
        self.games += o.games;
        self.sum = self.sum.saturating_add(o.sum);
        self.game_ss = self.game_ss.saturating_add(o.game_ss);
        self.game_sn = self.game_sn.saturating_add(o.game_sn);
        self.game_nn = self.game_nn.saturating_add(o.game_nn);
        // More than MAX_DISTINCT values in all: forgotten, as one run would have forgotten them.
        self.values = match (self.values.take(), &o.values) {
            (Some(mut a), Some(b)) => {
                for (v, c) in b {
                    *a.entry(*v).or_default() += c;
                }
                (a.len() <= MAX_DISTINCT).then_some(a)
            }
            _ => None,
        };
        if self.by_turn.len() < o.by_turn.len() {
            self.by_turn.resize(o.by_turn.len(), (0, 0));
        }
        for (e, (s, c)) in self.by_turn.iter_mut().zip(&o.by_turn) {
            e.0 = e.0.saturating_add(*s);
            e.1 += c;
        }
    }

    /// The figures with `missing` more games that each recorded one 0 (a count's games that never
    /// counted a key).
    pub(crate) fn with_zero_games(&self, missing: u64) -> Acc {
        let mut a = self.clone();
        if missing == 0 {
            return a;
        }
        if a.records == 0 || a.min > 0 {
            a.min = 0;
        }
        if a.records == 0 || a.max < 0 {
            a.max = 0;
        }
        a.records += missing;
        a.games += missing;
        a.game_nn = a.game_nn.saturating_add(i128::from(missing));
        if let Some(map) = &mut a.values {
            *map.entry(0).or_default() += missing;
            if map.len() > MAX_DISTINCT {
                a.values = None;
            }
        }
        a
    }

    pub(crate) fn add(&mut self, v: i64, turn: Option<u32>) {
        if self.records == 0 || v < self.min {
            self.min = v;
        }
        if self.records == 0 || v > self.max {
            self.max = v;
        }
        self.records += 1;
        self.sum = self.sum.saturating_add(i128::from(v));
        if let Some(map) = &mut self.values {
            *map.entry(v).or_default() += 1;
            if map.len() > MAX_DISTINCT {
                self.values = None;
            }
        }
        if let Some(t) = turn {
            let t = t as usize;
            if self.by_turn.len() <= t {
                self.by_turn.resize(t + 1, (0, 0));
            }
            let e = &mut self.by_turn[t];
            e.0 = e.0.saturating_add(i128::from(v));
            e.1 += 1;
        }
    }
}
