//! Simulation stage: a study split into shards (`sim --shard K/N`), their partial reports, and the
//! merge of those into the report of the whole study (`cardgame merge`).
//!
//! Shard K of N plays exactly the games K, K+N, K+2N, ... of the study, with the seeds and seatings
//! those games have in a run on one machine, and writes a [`Part`]: the study's identity, which
//! shard it is, and the raw figures (whole-number sums and histograms, never a rounded figure).
//! Merging adds the raw figures up, which gives the figures of one run exactly, and only then
//! computes rates, intervals and means. Parts of different studies (another script, options,
//! agents, seed, number of games, players, rotation, limits or tool version) are refused.

use crate::figures::Figures;
use crate::program::{OptionKind, Program};
use crate::sim::{report_of, simulate_raw, SimConfig, SimReport, Tally};
use crate::value::Value;

pub use crate::catalog::{Catalog, Shard, StatName};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// The version of the partial report's format; parts of another version are refused.
pub const PART_FORMAT: u32 = 1;

/// What makes two runs the same study: parts agree on every field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Study {
    /// The version of `cardgame` that played the games (another engine may play them otherwise).
    pub tool: String,
    /// SHA-256 of the script's text, in hexadecimal.
    pub script_sha256: String,
    pub game: String,
    pub players: u8,
    /// All the games of the study, over all its shards.
    pub games: u64,
    pub seed: u64,
    pub agents: Vec<String>,
    pub rotate: bool,
    /// `name=value`, as `--option` takes them.
    pub options: Vec<String>,
    /// `NAME=VALUE`, as `--set` took them (the script's text hashed above has them written in).
    #[serde(default)]
    pub settings: Vec<String>,
    pub max_turns: u32,
    pub max_decisions: u64,
    pub max_steps: u64,
}

impl Study {
    pub fn of(program: &Program, source: &str, cfg: &SimConfig) -> Study {
        Study {
            tool: env!("CARGO_PKG_VERSION").to_string(),
            script_sha256: sha256_hex(source),
            game: program.name.clone(),
            players: cfg.players,
            games: cfg.games,
            seed: cfg.seed,
            agents: cfg.agents.clone(),
            rotate: cfg.rotate,
            options: options_text(program, cfg),
            settings: cfg.settings.clone(),
            max_turns: cfg.max_turns,
            max_decisions: cfg.max_decisions,
            max_steps: cfg.max_steps,
        }
    }

    /// The first field in which two studies differ, with both values.
    fn difference(&self, o: &Study) -> Option<(&'static str, String, String)> {
        let fields: [(&'static str, String, String); 13] = [
            ("tool version", self.tool.clone(), o.tool.clone()),
            // Before the script's text: a variant's text differs because of what was set.
            ("settings", self.settings.join(" "), o.settings.join(" ")),
            (
                "script (SHA-256 of its text)",
                self.script_sha256.clone(),
                o.script_sha256.clone(),
            ),
            ("game", self.game.clone(), o.game.clone()),
            ("players", self.players.to_string(), o.players.to_string()),
            ("games", self.games.to_string(), o.games.to_string()),
            ("seed", self.seed.to_string(), o.seed.to_string()),
            ("agents", self.agents.join(","), o.agents.join(",")),
            ("rotation", self.rotate.to_string(), o.rotate.to_string()),
            ("options", self.options.join(" "), o.options.join(" ")),
            (
                "max turns",
                self.max_turns.to_string(),
                o.max_turns.to_string(),
            ),
            (
                "max decisions",
                self.max_decisions.to_string(),
                o.max_decisions.to_string(),
            ),
            (
                "max steps",
                self.max_steps.to_string(),
                o.max_steps.to_string(),
            ),
        ];
        fields.into_iter().find(|(_, a, b)| a != b)
    }
}

/// Whether `source` is the text of the script the study played (its SHA-256 is the one the parts carry),
/// once the study's settings are written in.
pub fn is_script_of(source: &str, study: &Study) -> bool {
    is_script_read_of(source, study, &crate::sheet::no_files)
}

/// [`is_script_of`] for a script whose card sheets (`cards from`) `read` reads: the parts hash the
/// text played, the script's followed by its sheets'.
pub fn is_script_read_of(source: &str, study: &Study, read: crate::sheet::ReadFile) -> bool {
    if study.settings.is_empty() {
        return sha256_hex(source) == study.script_sha256
            || sha256_hex(&crate::check::analyse_with(source, read).sources.text)
                == study.script_sha256;
    }
    let settings: Result<Vec<_>, _> = study
        .settings
        .iter()
        .map(|s| crate::variant::Setting::parse(s))
        .collect();
    match settings.map(|s| crate::variant::variant_with(source, &s, read)) {
        Ok(Ok(v)) => sha256_hex(&v.source) == study.script_sha256,
        _ => false,
    }
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every option of the game as `name=value`: the values chosen, else the defaults.
fn options_text(program: &Program, cfg: &SimConfig) -> Vec<String> {
    let mut out: Vec<String> = cfg
        .options
        .iter()
        .filter_map(|(id, value)| {
            let o = program.options.get(id.0 as usize)?;
            let v = match (&o.kind, value) {
                (OptionKind::OneOf(names), Value::Int(i)) => {
                    names.get(usize::try_from(*i).ok()?)?.clone()
                }
                (_, Value::Bool(b)) => b.to_string(),
                (_, Value::Int(i)) => i.to_string(),
                _ => return None,
            };
            Some(format!("{}={v}", o.name))
        })
        .collect();
    out.sort();
    out
}

/// The partial report of one shard: everything a merge needs, and nothing rounded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub format: u32,
    pub study: Study,
    pub shard: Shard,
    /// The threads the shard played on (the report names them; they change no figure).
    pub jobs: usize,
    /// The seconds the shard took.
    pub seconds: f64,
    pub catalog: Catalog,
    pub tally: Tally,
    pub figures: Figures,
}

impl Part {
    /// The games this shard played.
    pub fn games(&self) -> u64 {
        self.tally.games()
    }
}

/// Plays the shard `cfg.shard` of the study (the whole study when it has none) and returns its part.
pub fn simulate_part(
    program: &Arc<Program>,
    source: &str,
    cfg: &SimConfig,
    tick: &(dyn Fn() + Sync),
) -> Result<Part, String> {
    let shard = cfg.shard.unwrap_or(Shard { index: 0, count: 1 });
    let (tally, figures, seconds) = simulate_raw(program, cfg, tick)?;
    Ok(Part {
        format: PART_FORMAT,
        study: Study::of(program, source, cfg),
        shard,
        jobs: cfg.jobs,
        seconds,
        catalog: Catalog::of(program),
        tally,
        figures,
    })
}

/// The result of a merge: the report of the shards found, and the shards of the study that were not.
#[derive(Debug)]
pub struct Merged {
    pub report: SimReport,
    /// Indices of the missing shards, in increasing order.
    pub missing: Vec<u64>,
    pub count: u64,
}

/// Merges the parts (each named by its file, for the messages) into the report of their study.
///
/// The report is the one a run on one machine gives, except the seconds (the sum of the shards'
/// seconds, so games per second are per thread of work) and the jobs (those of the shards, when they
/// agree; otherwise the most any shard used).
pub fn merge(parts: &[(String, Part)]) -> Result<Merged, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no partial report to merge".into());
    };
    for (name, p) in parts {
        if p.format != PART_FORMAT {
            return Err(format!(
                "{name}: a partial report of format {}, this cardgame reads format {PART_FORMAT}",
                p.format
            ));
        }
        if let Some((field, a, b)) = first.study.difference(&p.study) {
            return Err(format!(
                "{name} is of another study than {first_name}: its {field} is `{b}`, not `{a}`"
            ));
        }
        if p.shard.count != first.shard.count {
            return Err(format!(
                "{name} is shard {}/{} but {first_name} is shard {}/{}: the parts of one study \
                 are cut into the same number of shards",
                p.shard.index, p.shard.count, first.shard.index, first.shard.count
            ));
        }
        if p.catalog != first.catalog {
            return Err(format!(
                "{name} names other cards, actions or statistics than {first_name}"
            ));
        }
        if p.games() != p.shard.games_of(p.study.games) {
            return Err(format!(
                "{name}: shard {}/{} of {} games should hold {} games, it holds {}",
                p.shard.index,
                p.shard.count,
                p.study.games,
                p.shard.games_of(p.study.games),
                p.games()
            ));
        }
    }
    let count = first.shard.count;
    let mut seen: Vec<Option<&str>> = vec![None; count as usize];
    for (name, p) in parts {
        if let Some(other) = seen[p.shard.index as usize] {
            return Err(format!(
                "{name} and {other} are both shard {}/{count}",
                p.shard.index
            ));
        }
        seen[p.shard.index as usize] = Some(name);
    }
    let missing = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| k as u64)
        .collect();
    let mut tally = first.tally.clone();
    let mut figures = first.figures.clone();
    let mut seconds = first.seconds;
    let mut jobs = first.jobs;
    for (_, p) in &parts[1..] {
        tally.merge(&p.tally)?;
        figures.merge(&p.figures)?;
        seconds += p.seconds;
        jobs = jobs.max(p.jobs);
    }
    let mut report = report_of(
        &first.catalog,
        &tally,
        &figures,
        (first.study.players, first.study.seed, jobs),
        seconds,
    );
    report.settings = first.study.settings.clone();
    Ok(Merged {
        report,
        missing,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn a_shard_is_read_and_counts_its_games() {
        assert_eq!(Shard::parse("2/5").unwrap(), Shard { index: 2, count: 5 });
        for bad in ["5/5", "1/0", "a/3", "3", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        // Games 0..10 in 3 shards: {0,3,6,9}, {1,4,7}, {2,5,8}.
        let counts: Vec<u64> = (0..3)
            .map(|index| Shard { index, count: 3 }.games_of(10))
            .collect();
        assert_eq!(counts, vec![4, 3, 3]);
        assert_eq!(Shard { index: 4, count: 6 }.games_of(3), 0);
    }
}
