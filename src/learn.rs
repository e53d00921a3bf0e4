//! Command line, learning stage: `cardgame learn`, self-play learning of a model for a script
//! (docs/cli.md is the contract), and the loading of a model for `--model`.

use crate::diagnostics::load_variant;
use crate::games::config;
use crate::model_flag::default_model_path;
use crate::{Format, GameArgs, Limits, SCRIPT_ERROR, USAGE};
use cardgame_interpreter::agents::script_hash;
use cardgame_interpreter::learn::{learn, Generation, LearnConfig, PolicyReads, Stage};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `30s`, `10m`, `1h` or `1.5m`: a learning time from 1 second to 24 hours.
pub fn parse_time(s: &str) -> Result<Duration, String> {
    let (number, unit) = match s.trim() {
        t if t.ends_with('h') => (&t[..t.len() - 1], 3600.0),
        t if t.ends_with('m') => (&t[..t.len() - 1], 60.0),
        t if t.ends_with('s') => (&t[..t.len() - 1], 1.0),
        t => (t, 1.0),
    };
    match number.parse::<f64>() {
        Ok(v) if v.is_finite() && (1.0..=86_400.0).contains(&(v * unit)) => {
            Ok(Duration::from_secs_f64(v * unit))
        }
        _ => Err(format!(
            "`{s}` is not a learning time: write seconds, minutes or hours (`90s`, `10m`, `1h`), \
             from 1 second to 24 hours"
        )),
    }
}

/// The command line of `learn`.
pub struct LearnArgs<'a> {
    pub file: &'a Path,
    pub game: &'a GameArgs,
    pub time: Option<Duration>,
    pub games: u64,
    pub generations: u32,
    /// Generations of the prior over options, its games per generation, and the search's iterations
    /// per decision in them.
    pub prior: (u32, u64, u32),
    /// Rounds of the play-out policy's self-play after it is fitted.
    pub policy_rounds: u32,
    /// What the play-out policy reads beside its moves and the progress.
    pub policy_reads: PolicyReads,
    /// Hidden units of the play-out policy that reads the position.
    pub policy_units: usize,
    /// Whether the play-out policy weighs the options' parts.
    pub policy_parts: bool,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub out: Option<PathBuf>,
    pub format: Format,
    pub limits: Limits,
}

fn generation_text(g: &Generation) -> String {
    match g.stage {
        Stage::Playouts => playouts_text(g),
        Stage::Moves if g.generation > 1 => refined_text(g),
        Stage::Reads => reads_text(g),
        Stage::Moves => moves_text(g),
        Stage::Prior => generation_line(
            g,
            (
                "prior generation",
                "the evaluation's own preference",
                "decisions",
            ),
        ),
        Stage::Evaluation => generation_line(g, ("generation", "a constant", "positions")),
    }
}

/// The line of one of the matches that choose how the search uses the model: the setting so far
/// against a challenger, and which the model keeps.
fn playouts_text(g: &Generation) -> String {
    let Some([held, challenger]) = g.matched else {
        return format!("search's play-outs: {:.1}s", g.seconds);
    };
    let both = format!(
        "search with the model, `playouts {}` ({}) against `playouts {}` ({})",
        held.name(),
        held.what(),
        challenger.name(),
        challenger.what()
    );
    let search = cardgame_interpreter::learn::match_search();
    let so = if g.kept { held } else { challenger };
    if g.games == 0 {
        return format!(
            "{both}: no match, its first game of `{search}` or first batch of games would end \
             past the time, so `playouts {}`, unmeasured; {:.1}s",
            so.name(),
            g.seconds
        );
    }
    format!(
        "{both}, {} games of `{search}`: {:.1}% [{:.1}-{:.1}] (against {:.1}%), so `playouts {}`; \
         {:.1}s",
        g.games,
        100.0 * g.score,
        100.0 * g.low,
        100.0 * g.high,
        100.0 * g.baseline,
        so.name(),
        g.seconds
    )
}

/// What a play-out policy reads, in a line of the learning.
fn reads_words(reads: usize) -> String {
    match reads {
        0 => "of the progress alone".to_string(),
        n => format!("that reads {n} counts of the position"),
    }
}

/// A match's score, its interval and the score to beat, in a line of the learning.
fn score_words(g: &Generation) -> String {
    format!(
        "{:.1}% [{:.1}-{:.1}] (to beat {:.1}%)",
        100.0 * g.score,
        100.0 * g.low,
        100.0 * g.high,
        100.0 * g.baseline
    )
}

/// The line of the match between the policy that reads the position and the other.
fn reads_text(g: &Generation) -> String {
    format!(
        "play-out policy {} against the one of the progress alone, {} games: {}, so {}; {:.1}s",
        reads_words(g.reads),
        g.games,
        score_words(g),
        if g.kept {
            "the one that reads the position"
        } else {
            "the one of the progress alone"
        },
        g.seconds
    )
}

/// The line of a play-out policy refined by its own self-play.
fn refined_text(g: &Generation) -> String {
    if g.games == 0 {
        return format!(
            "play-out policy {} not refined: a round of its self-play ({} games) and the match \
             after it would end past the time; {:.1}s",
            reads_words(g.reads),
            cardgame_interpreter::learn::POLICY_ROUND_GAMES,
            g.seconds
        );
    }
    format!(
        "play-out policy {} refined by {} games of its own self-play: against the policy fitted \
         {}{}; {:.1}s",
        reads_words(g.reads),
        g.games,
        score_words(g),
        if g.kept { ", kept" } else { ", not kept" },
        g.seconds
    )
}

/// The line of the play-out policy fitted to the evaluation's player.
fn moves_text(g: &Generation) -> String {
    let reads = match g.reads {
        0 => String::new(),
        n => format!(" (reading {n} counts of the position)"),
    };
    if g.games < 10 {
        // Every tenth game is held out: with fewer, the fit has nothing to be measured on.
        return format!(
            "play-out policy{reads}: {} of the evaluation's player, {} decisions, too few games to \
             hold one out (every tenth is); {:.1}s",
            match g.games {
                1 => "1 game".to_string(),
                n => format!("{n} games"),
            },
            g.positions,
            g.seconds
        );
    }
    format!(
        "play-out policy{reads}: {} games of the evaluation's player, {} decisions, held-out loss \
         {:.3} (a uniform choice: {:.3}); its most likely option is the player's {:.1}% \
         [{:.1}-{:.1}] of held-out decisions; {:.1}s",
        g.games,
        g.positions,
        g.fit.loss,
        g.fit.constant,
        100.0 * g.score,
        100.0 * g.low,
        100.0 * g.high,
        g.seconds
    )
}

/// The line of a generation of the evaluation or of the prior.
fn generation_line(g: &Generation, (what, constant, positions): (&str, &str, &str)) -> String {
    let evaluation = match &g.evaluation {
        Some(e) => format!(
            "; evaluation {}, held-out loss on the search's positions {:.3} (a constant: {:.3}; {})",
            e.source.name(),
            e.fit.loss,
            e.fit.constant,
            e.candidates
                .iter()
                .map(|(s, l)| format!("{} {l:.3}", s.short()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => String::new(),
    };
    format!(
        "{what} {}: {} games, {} {positions}, held-out loss {:.3} ({constant}: {:.3}){evaluation}; \
         against the previous {:.1}% [{:.1}-{:.1}] (to beat {:.1}%){}{}; {:.1}s",
        g.generation,
        g.games,
        g.positions,
        g.fit.loss,
        g.fit.constant,
        100.0 * g.score,
        100.0 * g.low,
        100.0 * g.high,
        100.0 * g.baseline,
        if g.improved {
            ", better"
        } else {
            ", no better"
        },
        if g.kept { ", kept" } else { "" },
        g.seconds
    )
}

pub fn cmd_learn(a: &LearnArgs) -> u8 {
    use std::io::IsTerminal;
    let (program, source) = match load_variant(a.file, &a.game.set) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let cfg = match config(&program, a.game, a.seed) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let mut lc = LearnConfig::new(cfg.players);
    lc.seed = a.seed;
    lc.options = cfg.options.clone();
    lc.max_turns = a.limits.max_turns;
    lc.games = a.games.max(1);
    lc.match_games = (a.games / 5).max(20);
    lc.generations = a.generations.max(1);
    (lc.prior_generations, lc.prior_games, lc.search_iterations) = a.prior;
    lc.policy_rounds = a.policy_rounds;
    lc.policy_reads = a.policy_reads;
    lc.policy_units = a.policy_units;
    lc.policy_parts = a.policy_parts;
    lc.time = a.time;
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    lc.jobs = jobs;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {pos} games, {per_sec}, {elapsed}")
        {
            b.set_style(style);
        }
        b
    });
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let mut generations = Vec::new();
    let mut report = |g: &Generation| {
        if a.format == Format::Text {
            let line = generation_text(g);
            match &bar {
                Some(b) => b.println(line),
                None => outln!("{line}"),
            }
        }
        generations.push(g.clone());
    };
    let hash = script_hash(&source);
    let model = match learn(program.clone(), hash, &lc, &mut report, &tick) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            return SCRIPT_ERROR;
        }
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| default_model_path(a.file, cfg.players));
    if let Err(e) = std::fs::write(&out, model.to_text()) {
        errln!("error: cannot write the model to {}: {e}", out.display());
        return SCRIPT_ERROR;
    }
    match a.format {
        Format::Text => outln!(
            "model: {} ({} features, {} players, script {})",
            out.display(),
            model.names.len(),
            model.players,
            model.script
        ),
        Format::Json => outln!(
            "{}",
            serde_json::json!({
                "model": out.display().to_string(),
                "features": model.names.len(),
                "players": model.players,
                "script": model.script,
                "generations": generations,
            })
        ),
    }
    0
}
