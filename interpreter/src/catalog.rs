//! Simulation stage: what every part of a sharded study carries: which shard it is (`Shard`), and the
//! names of the script a report needs (`Catalog`), so that a merge needs nothing but the parts.

use crate::program::Program;
use serde::{Deserialize, Serialize};

/// Shard `index` of `count`: the games `index`, `index + count`, `index + 2 * count`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Reads `K/N` (K from 0 to N-1, as a Kubernetes completion index or a Slurm array task id).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad =
            || format!("--shard takes K/N with K from 0 to N-1 (for example 0/4), not `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// How many of the games `0..games` belong to this shard.
    pub fn games_of(&self, games: u64) -> u64 {
        if self.index >= games {
            0
        } else {
            (games - self.index).div_ceil(self.count)
        }
    }
}

/// The names a report needs from the script, carried in every part so that a merge needs nothing
/// but the parts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub game: String,
    /// Card kinds, in the script's order.
    pub kinds: Vec<String>,
    /// Actions, in the script's order.
    pub actions: Vec<String>,
    /// The script's statistics, in the order declared.
    pub stats: Vec<StatName>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatName {
    pub name: String,
    pub description: String,
    /// `stat NAME += E` (one total per game) rather than `stat NAME = E`.
    pub counter: bool,
    /// `stat NAME[TYPE]`: the type of its key (a statistic kept per key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

impl Catalog {
    pub fn of(program: &Program) -> Catalog {
        Catalog {
            game: program.name.clone(),
            kinds: program.kinds.iter().map(|k| k.name.clone()).collect(),
            actions: program.actions.iter().map(|a| a.name.clone()).collect(),
            stats: program
                .stats
                .iter()
                .map(|s| StatName {
                    name: s.name.clone(),
                    description: s.description.clone(),
                    counter: s.counter,
                    key: s.key.as_ref().map(|t| t.to_string()),
                })
                .collect(),
        }
    }
}
