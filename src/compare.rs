//! Command line, simulation stage: `cardgame compare`, a paired comparison of two scripts or of a
//! script and a variant of it (docs/cli.md, "Studies").

use crate::diagnostics::load_variant;
use crate::games::{config, study};
use crate::{Batch, Format, GameArgs, USAGE};
use cardgame_interpreter::compare::{compare, Side};
use std::path::Path;

/// What `cardgame compare` was asked.
pub struct CompareArgs<'a> {
    pub a: &'a Path,
    pub b: Option<&'a Path>,
    /// `--players`, `--option` (both sides) and `--set` (side B).
    pub game: &'a GameArgs,
    /// `--set-a` (side A).
    pub set_a: &'a [String],
    pub games: u64,
    pub agents: &'a str,
    pub rotate: bool,
    pub until: Option<&'a str>,
    /// `--shard K/N` and `--out FILE`: play one shard and write its partial report.
    pub shard: Option<&'a str>,
    pub out: Option<std::path::PathBuf>,
    pub reproducible: bool,
    pub batch: &'a Batch,
}

/// How a report names a side: its script and what was set.
fn label(file: &Path, settings: &[String]) -> String {
    let mut s = file.display().to_string();
    for set in settings {
        s.push_str(&format!(" --set {set}"));
    }
    s
}

/// One side: its script with its settings, and its study.
fn side(args: &CompareArgs, file: &Path, settings: &[String]) -> Result<Side, u8> {
    let (program, source) = load_variant(file, settings)?;
    let game = GameArgs {
        players: args.game.players,
        options: args.game.options.clone(),
        set: settings.to_vec(),
    };
    let cfg = config(&program, &game, args.batch.seed).map_err(|e| {
        errln!("error: {e}");
        USAGE
    })?;
    let cfg = study(
        &program,
        &cfg,
        (file, &source),
        (args.games, args.agents, args.rotate),
        args.batch,
        settings,
    )?;
    Ok(Side {
        label: label(file, settings),
        cfg,
        program,
    })
}

pub fn cmd_compare(args: CompareArgs) -> u8 {
    use std::io::IsTerminal;
    if args.b.is_none() && args.game.set.is_empty() && args.set_a.is_empty() {
        errln!(
            "error: compare needs two sides: a second script (`compare A B`), or a variant of the \
             first (`compare A --set \"Card.cost=4\"`)"
        );
        return USAGE;
    }
    let a = match side(&args, args.a, args.set_a) {
        Ok(s) => s,
        Err(c) => return c,
    };
    let b = match side(&args, args.b.unwrap_or(args.a), &args.game.set) {
        Ok(s) => s,
        Err(c) => return c,
    };
    if a.cfg.players != b.cfg.players {
        errln!(
            "error: the sides are played with {} and {} players; give --players",
            a.cfg.players,
            b.cfg.players
        );
        return USAGE;
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(args.games);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} pairs of games, {per_sec}, eta {eta}",
        ) {
            b.set_style(style);
        }
        b
    });
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    if let Some(text) = args.shard {
        let code = write_part(text, args.out.as_deref(), &a, &b, &tick);
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        return code;
    }
    let report = compare(&a, &b, args.until, &tick);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut report = match report {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    if args.reproducible {
        report.seconds = 0.0;
    }
    match args.batch.format {
        Format::Text => out!("{}", report.to_text(!args.reproducible)),
        Format::Json => {
            let mut v = match serde_json::to_value(&report) {
                Ok(v) => v,
                Err(e) => {
                    errln!("error: {e}");
                    return USAGE;
                }
            };
            if let (true, Some(o)) = (args.reproducible, v.as_object_mut()) {
                o.remove("seconds");
            }
            outln!("{v}");
        }
    }
    u8::from(report.errors_a + report.errors_b > 0)
}

/// `compare --shard K/N --out FILE`: plays the shard and writes its partial report, whole or not at all
/// (written beside FILE, then renamed). Exit 1 when a game ended with an engine error, as `compare`.
fn write_part(shard: &str, out: Option<&Path>, a: &Side, b: &Side, tick: &(dyn Fn() + Sync)) -> u8 {
    use cardgame_interpreter::compare_part::compare_part;
    use cardgame_interpreter::shard::Shard;
    let (shard, out) = match (Shard::parse(shard), out) {
        (Ok(s), Some(out)) => (s, out),
        (Err(e), _) => {
            errln!("error: {e}");
            return USAGE;
        }
        (Ok(_), None) => {
            errln!("error: --shard and --out go together");
            return USAGE;
        }
    };
    let part = match compare_part(a, b, shard, tick) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    if let Err(e) = crate::shard::write_part(&part, out) {
        errln!("error: {e}");
        return USAGE;
    }
    errln!(
        "shard {}/{}: {} of {} pairs of games written to {} ({:.2} s)",
        shard.index,
        shard.count,
        part.games(),
        part.study_games,
        out.display(),
        part.seconds
    );
    let (ea, eb) = part.errors();
    u8::from(ea + eb > 0)
}
