//! Simulation stage: a comparison split into shards (`compare --shard K/N --out FILE`), and its parts
//! merged (`cardgame merge`) into exactly the report of the whole comparison: each part carries its
//! figures' paired sums (whole numbers, so adding them loses nothing) and where each figure was first
//! named, so that the merged report lists them in the order the whole comparison would.

use crate::compare::{play, report, ComparisonReport, Header, Side, Tally};
use crate::paired::Paired;
use crate::shard::Shard;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Instant;

/// What tells a comparison's part from a simulation's.
pub const KIND: &str = "compare";

/// The partial report of one shard of a comparison.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ComparePart {
    /// Always [`KIND`].
    pub kind: String,
    pub shard: Shard,
    /// The pairs of games of the whole comparison (every shard's).
    pub study_games: u64,
    pub header: Header,
    tally: Tally,
    pub seconds: f64,
}

impl ComparePart {
    /// The pairs of games this shard compared (without those that ended with an engine error).
    pub fn games(&self) -> u64 {
        self.tally.games
    }
    pub fn errors(&self) -> (u64, u64) {
        self.tally.errors
    }
}

/// Plays shard `shard` of the comparison of `a` and `b` (the games `index`, `index + count`, ...).
pub fn compare_part(
    a: &Side,
    b: &Side,
    shard: Shard,
    tick: &(dyn Fn() + Sync),
) -> Result<ComparePart, String> {
    let started = Instant::now();
    let (tally, _) = play(a, b, None, Some(&shard), tick)?;
    Ok(ComparePart {
        kind: KIND.into(),
        shard,
        study_games: a.cfg.games,
        header: Header::of(a, b),
        tally,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The merged report of the parts given (named for messages), and the shards missing from them.
/// Parts of other comparisons, of another number of shards, or a shard given twice are refused.
pub fn merge_compare(
    parts: &[(String, ComparePart)],
) -> Result<(ComparisonReport, Vec<u64>), String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no partial report to merge".into());
    };
    let mut seen = vec![false; first.shard.count as usize];
    for (name, p) in parts {
        if p.header != first.header
            || p.study_games != first.study_games
            || p.shard.count != first.shard.count
        {
            return Err(format!(
                "{name} is a part of another comparison than {first_name} (its scripts, settings, \
                 seed, agents, games or number of shards differ)"
            ));
        }
        let slot = &mut seen[p.shard.index as usize];
        if *slot {
            return Err(format!("shard {} is given twice", p.shard.index));
        }
        *slot = true;
    }
    // Every figure, in the order the whole comparison first named them.
    let mut figures: Vec<((u64, usize), String, bool)> = Vec::new();
    let mut known: HashMap<String, usize> = HashMap::new();
    for (_, p) in parts {
        let t = &p.tally;
        for ((name, rate), at) in t.names.iter().zip(&t.rates).zip(&t.first) {
            match known.get(name) {
                Some(&i) if figures[i].0 <= *at => {}
                Some(&i) => figures[i].0 = *at,
                None => {
                    known.insert(name.clone(), figures.len());
                    figures.push((*at, name.clone(), *rate));
                }
            }
        }
    }
    figures.sort_by_key(|f| f.0);
    let mut merged = Tally::default();
    for (at, name, rate) in &figures {
        merged.index.insert(name.clone(), merged.names.len());
        merged.names.push(name.clone());
        merged.rates.push(*rate);
        merged.first.push(*at);
        merged.sums.push(Paired::default());
    }
    for (_, p) in parts {
        let t = &p.tally;
        let own: HashMap<&str, usize> = t
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        for (i, name) in merged.names.iter().enumerate() {
            match own.get(name.as_str()) {
                Some(&j) => merged.sums[i].absorb(&t.sums[j]),
                // A rate this shard never named was 0 on both sides in each of its games.
                None if merged.rates[i] => merged.sums[i].absorb(&Paired::zeros(t.games)),
                None => {}
            }
        }
        merged.games += t.games;
        merged.errors.0 += t.errors.0;
        merged.errors.1 += t.errors.1;
    }
    let seconds = parts.iter().map(|(_, p)| p.seconds).sum();
    let missing = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| !**s)
        .map(|(i, _)| i as u64)
        .collect();
    Ok((report(&first.header, &merged, None, seconds), missing))
}
