//! CLI stage: `sim --shard K/N --out FILE` (one shard of a study, its partial report written whole or
//! not at all) and `cardgame merge PARTS...` (the report of the whole study).

use crate::USAGE;
use cardgame_interpreter::compare_part;
use cardgame_interpreter::program::Program;
use cardgame_interpreter::shard::{is_script_read_of, merge, simulate_part, Part, Shard};
use cardgame_interpreter::sim::SimConfig;
use std::path::PathBuf;
use std::sync::Arc;

/// The script in the replay commands of a merged report without `--script`: the shards may have read
/// it under other paths, so the report names none (the parts carry its SHA-256).
const MERGED_SCRIPT: &str = "SCRIPT";

/// Where a shard's partial report goes.
pub struct ShardOut {
    pub shard: Shard,
    pub out: PathBuf,
}

/// Reads `--shard K/N` and `--out FILE` (clap makes each require the other).
pub fn shard_out(shard: Option<&str>, out: Option<PathBuf>) -> Result<Option<ShardOut>, String> {
    match (shard, out) {
        (Some(s), Some(out)) => Ok(Some(ShardOut {
            shard: Shard::parse(s)?,
            out,
        })),
        (None, None) => Ok(None),
        _ => Err("--shard and --out go together".into()),
    }
}

/// Plays the shard and writes its partial report. The file appears whole or not at all (written
/// beside it under another name, then renamed), so a stopped shard leaves nothing half written.
/// Exit 1 when a game ended with an engine error (the report is written all the same), as `sim`.
pub fn run_shard(
    source: &str,
    program: &Arc<Program>,
    cfg: &SimConfig,
    out: &ShardOut,
    tick: &(dyn Fn() + Sync),
) -> u8 {
    let part = match simulate_part(program, source, cfg, tick) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    if let Err(e) = write_part(&part, &out.out) {
        errln!("error: {e}");
        return USAGE;
    }
    errln!(
        "shard {}/{}: {} of {} games written to {} ({:.2} s)",
        part.shard.index,
        part.shard.count,
        part.games(),
        part.study.games,
        out.out.display(),
        part.seconds
    );
    let errors = part.tally.error_count();
    if errors > 0 {
        errln!(
            "warning: {errors} games of this shard ended with an engine error (listed by `merge`)"
        );
    }
    u8::from(errors > 0)
}

/// Writes a part (of a study or of a comparison) to `out` as one JSON line: under another name beside
/// it, then renamed, so that a stopped shard leaves no part or a whole one.
pub fn write_part(part: &impl serde::Serialize, out: &std::path::Path) -> Result<(), String> {
    let json = serde_json::to_string(part).map_err(|e| e.to_string())?;
    let mut tmp = out.to_path_buf().into_os_string();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, json + "\n")
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", out.display())
        })
}

/// `cardgame merge`: the report of the study whose partial reports are given. Mismatched parts are
/// a usage error (exit 2); missing shards are named on standard error and make the exit 1 unless
/// `--allow-partial`; engine errors in the games make it 1, as `sim`.
/// How `cardgame merge` reports.
pub struct MergeOut {
    /// JSON on standard output, else text.
    pub json: bool,
    pub allow_partial: bool,
    /// The script the shards played (`--script FILE`), named in the replay commands.
    pub script: Option<PathBuf>,
    /// Without jobs and time (`--reproducible`).
    pub reproducible: bool,
    /// Also the HTML page of the report (`--html FILE`), as `sim --html` writes it.
    pub html: Option<PathBuf>,
}

pub fn cmd_merge(files: &[PathBuf], how: MergeOut) -> u8 {
    let MergeOut {
        json,
        allow_partial,
        script,
        reproducible,
        html,
    } = how;
    let mut parts = Vec::with_capacity(files.len());
    let mut compared = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                errln!("error: cannot read {name}: {e}");
                return USAGE;
            }
        };
        let kind = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string));
        if kind.as_deref() == Some(compare_part::KIND) {
            match serde_json::from_str::<compare_part::ComparePart>(&text) {
                Ok(p) => compared.push((name, p)),
                Err(e) => {
                    errln!(
                        "error: {name} is not a partial report of `cardgame compare --shard`: {e}"
                    );
                    return USAGE;
                }
            }
            continue;
        }
        match serde_json::from_str::<Part>(&text) {
            Ok(p) => parts.push((name, p)),
            Err(e) => {
                errln!("error: {name} is not a partial report of `cardgame sim --shard`: {e}");
                return USAGE;
            }
        }
    }
    if !compared.is_empty() {
        if !parts.is_empty() {
            errln!(
                "error: parts of `sim --shard` and of `compare --shard` cannot be merged together"
            );
            return USAGE;
        }
        return merge_compared(&compared, json, allow_partial, reproducible);
    }
    let merged = match merge(&parts) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let script_name = match &script {
        None => MERGED_SCRIPT.to_string(),
        Some(path) => {
            let source = match std::fs::read_to_string(path) {
                Ok(s) => s,
                Err(e) => {
                    errln!("error: cannot read {}: {e}", path.display());
                    return USAGE;
                }
            };
            let read = crate::diagnostics::beside(path);
            let played = parts
                .iter()
                .all(|(_, p)| is_script_read_of(&source, &p.study, &read));
            if !played {
                errln!(
                    "error: {} is not the script the shards played (its text differs: the parts carry \
                     the SHA-256 of theirs)",
                    path.display()
                );
                return USAGE;
            }
            path.display().to_string()
        }
    };
    let r = &merged.report;
    if let Some(path) = &html {
        let page = r
            .to_json_with(!reproducible)
            .ok()
            .and_then(|j| serde_json::from_str(&j).ok())
            .map(|v| crate::html::report::page(&v, false, &script_name))
            .unwrap_or_default();
        if let Err(e) = std::fs::write(path, page) {
            errln!("error: cannot write {}: {e}", path.display());
            return USAGE;
        }
    }
    if json {
        match r.to_json_with(!reproducible) {
            Ok(j) => outln!("{j}"),
            Err(e) => {
                errln!("error: {e}");
                return USAGE;
            }
        }
    } else {
        out!("{}", r.to_text_with(!reproducible, &script_name));
    }
    if r.unfinished > 0 {
        errln!(
            "warning: {} of {} games did not finish: they stopped at a limit of the run (turns, or \
             decisions in one turn), not by the rules; they are listed in the report",
            r.unfinished,
            r.games
        );
    }
    let mut code = u8::from(r.error_count > 0);
    if !merged.missing.is_empty() {
        let list: Vec<String> = merged.missing.iter().map(u64::to_string).collect();
        let study = parts.first().map_or(0, |(_, p)| p.study.games);
        let (shards, are) = if list.len() == 1 {
            ("shard", "is")
        } else {
            ("shards", "are")
        };
        errln!(
            "{}: {shards} {} of {} {are} missing; the report covers {} of the study's {study} games",
            if allow_partial { "warning" } else { "error" },
            list.join(", "),
            merged.count,
            r.games
        );
        if !allow_partial {
            code = 1;
        }
    }
    code
}

/// `cardgame merge` of the parts of `compare --shard`: the comparison's report, exactly as the whole
/// comparison prints it; missing shards as for `sim`'s parts.
fn merge_compared(
    parts: &[(String, compare_part::ComparePart)],
    json: bool,
    allow_partial: bool,
    reproducible: bool,
) -> u8 {
    let (mut report, missing) = match compare_part::merge_compare(parts) {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    if reproducible {
        report.seconds = 0.0;
    }
    if json {
        match serde_json::to_value(&report) {
            Ok(mut v) => {
                if let (true, Some(o)) = (reproducible, v.as_object_mut()) {
                    o.remove("seconds");
                }
                outln!("{v}");
            }
            Err(e) => {
                errln!("error: {e}");
                return USAGE;
            }
        }
    } else {
        out!("{}", report.to_text(!reproducible));
    }
    let mut code = u8::from(report.errors_a + report.errors_b > 0);
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(u64::to_string).collect();
        let count = parts.first().map_or(0, |(_, p)| p.shard.count);
        errln!(
            "{}: shard(s) {} of {count} missing; the report covers {} pairs of games",
            if allow_partial { "warning" } else { "error" },
            list.join(", "),
            report.games
        );
        if !allow_partial {
            code = 1;
        }
    }
    code
}
