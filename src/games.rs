//! Command line, games stage: `run`, `cards`, `strategies`, `sim`, `tournament` and `play`, which load one
//! checked script and play it (docs/cli.md is the contract).

use crate::diagnostics::{analyse_file, display_name, load, load_variant, read, render_all};
use crate::model_flag::ModelArgs;
use crate::scores::{scores, scores_line};
use crate::{play, Batch, CardsFormat, Format, GameArgs, Limits, SCRIPT_ERROR, USAGE};
use cardgame_interpreter::agents::{make_agent_with, Agent, Model};
use cardgame_interpreter::engine::{render_event, Event, Game, GameConfig, Status};
use cardgame_interpreter::program::{OptionId, OptionKind, Program};
use cardgame_interpreter::sheet_write::SheetFormat;
use cardgame_interpreter::sim::{simulate, SimConfig};
use cardgame_interpreter::tournament::{tournament, Plan};
use cardgame_interpreter::value::Value;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// Load a script (the variant `--set` makes of it) and turn the command line into a game
/// configuration: a script error is exit 1, a usage error exit 2. Returns the text played too.
fn prepare(
    file: &Path,
    args: &GameArgs,
    seed: u64,
) -> Result<(Arc<Program>, GameConfig, String), u8> {
    let (program, source) = load_variant(file, &args.set)?;
    match config(&program, args, seed) {
        Ok(c) => Ok((program, c, source)),
        Err(e) => {
            errln!("error: {e}");
            Err(USAGE)
        }
    }
}

/// Turn `--players`, `--option` and the settings of options among `--set` into a game configuration,
/// or a usage error (the other settings were written into the script when it was loaded).
pub(crate) fn config(program: &Program, args: &GameArgs, seed: u64) -> Result<GameConfig, String> {
    let players = args.players.unwrap_or(program.min_players);
    if players < program.min_players || players > program.max_players {
        return Err(format!(
            "\"{}\" is for {} to {} players, not {players}",
            program.name, program.min_players, program.max_players
        ));
    }
    let mut cfg = GameConfig::new(players, seed);
    let set_options = args.set.iter().filter(|s| {
        s.split_once('=')
            .is_some_and(|(k, _)| program.options.iter().any(|o| o.name == k.trim()))
    });
    for o in args.options.iter().chain(set_options) {
        let Some((key, value)) = o.split_once('=') else {
            return Err(format!("--option takes KEY=VALUE, not `{o}`"));
        };
        let (key, value) = (key.trim(), value.trim());
        let Some(i) = program.options.iter().position(|d| d.name == key) else {
            let names: Vec<&str> = program.options.iter().map(|d| d.name.as_str()).collect();
            return Err(
                match cardgame_interpreter::diag::did_you_mean(key, names.iter().copied()) {
                    Some(h) => format!("the script has no option `{key}`: {h}"),
                    None if names.is_empty() => {
                        format!("the script has no option `{key}` (it has no options)")
                    }
                    None => format!(
                        "the script has no option `{key}`; its options are: {}",
                        names.join(", ")
                    ),
                },
            );
        };
        let def = &program.options[i];
        let v = match &def.kind {
            OptionKind::Bool => match value {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(format!("option `{key}` is true or false, not `{value}`")),
            },
            OptionKind::Int { min, max } => match value.parse::<i64>() {
                Ok(n) if n >= *min && n <= *max => Value::Int(n),
                _ => {
                    return Err(format!(
                        "option `{key}` is a number from {min} to {max}, not `{value}`"
                    ))
                }
            },
            OptionKind::OneOf(vals) => match vals.iter().position(|v| v == value) {
                Some(n) => Value::Int(n as i64),
                None => {
                    return Err(format!(
                        "option `{key}` is one of {}, not `{value}`",
                        vals.join(", ")
                    ))
                }
            },
        };
        cfg.options.push((OptionId(i as u16), v));
    }
    if let Some(why) = program.unsupported(players, &cfg.options) {
        return Err(why);
    }
    Ok(cfg)
}

/// An event as JSON, with what `viewer` may not see left out.
/// An event as a JSON line, as seat `viewer` may see it (`None`: all of it); `None` for a line of
/// another seat's private log.
fn event_json(e: &Event, viewer: Option<u8>) -> Option<serde_json::Value> {
    let mut v = serde_json::to_value(e).unwrap_or(serde_json::Value::Null);
    // Seats are numbered from 1 in every line, as in the result and in `--view` (docs/cli.md).
    let from_one = |x: &serde_json::Value| serde_json::json!(x.as_u64().map_or(0, |n| n + 1));
    if let Some(p) = v.get("player").map(from_one) {
        v["player"] = p;
    }
    for seats in ["winners", "back"] {
        if let Some(ws) = v.get(seats).and_then(|w| w.as_array()) {
            v[seats] = ws.iter().map(from_one).collect();
        }
    }
    let Some(seat) = viewer else { return Some(v) };
    match e {
        Event::Told { player, .. } if *player != seat => return None,
        Event::Move { seen, .. } if !cardgame_interpreter::engine::seen_by(*seen, seat) => {
            v["kind"] = serde_json::Value::Null;
            v["card"] = serde_json::Value::Null;
        }
        Event::Shown { player, .. } if *player != seat => {
            v["kind"] = serde_json::Value::Null;
            v["card"] = serde_json::Value::Null;
        }
        Event::Decision { player, hidden, .. } if *player != seat => {
            v["options"] = serde_json::Value::Null;
            if let Some(h) = hidden {
                v["chosen"] = serde_json::Value::String(h.clone());
            }
        }
        _ => {}
    }
    Some(v)
}

/// The model of `--model`, or the one found beside the script (unless `--no-model`), checked
/// against the script and player count: a mismatch is a usage error that says how to learn again.
pub(crate) fn model_for(
    (file, source): (&Path, &str),
    program: &Program,
    players: u8,
    args: &ModelArgs,
) -> Result<Option<Arc<Model>>, u8> {
    if args.path(file, players).is_none() {
        return Ok(None);
    }
    crate::model_flag::model_of(args, file, program, source, players).map_err(|e| {
        errln!("error: {e}");
        USAGE
    })
}

pub fn cmd_run(
    file: &Path,
    args: &GameArgs,
    seed: u64,
    (agents, model): (&str, &ModelArgs),
    format: Format,
    limits: Limits,
    view: Option<u8>,
) -> u8 {
    let (program, mut cfg, source) = match prepare(file, args, seed) {
        Ok(x) => x,
        Err(c) => return c,
    };
    limits.apply(&mut cfg);
    let players = cfg.players;
    let viewer = match view {
        None => None,
        Some(v) if v >= 1 && v <= players => Some(v - 1),
        Some(v) => {
            errln!("error: --view takes a seat from 1 to {players}, not {v}");
            return USAGE;
        }
    };
    let model = match model_for((file, &source), &program, players, model) {
        Ok(m) => m,
        Err(c) => return c,
    };
    let specs: Vec<&str> = agents.split(',').collect();
    let mut seats: Vec<Box<dyn Agent>> = Vec::new();
    for seat in 0..players {
        let spec = specs
            .get(seat as usize)
            .or(specs.last())
            .copied()
            .unwrap_or("random");
        match make_agent_with(&program, spec, seed, seat, model.as_ref()) {
            Ok(a) => seats.push(a),
            Err(e) => {
                errln!("error: {e}");
                return USAGE;
            }
        }
    }
    let mut game = Game::new(program.clone(), cfg);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    loop {
        for e in game.take_events() {
            let line = match format {
                Format::Text => render_event(&game, &e, viewer),
                Format::Json => event_json(&e, viewer).map(|v| v.to_string()),
            };
            if let Some(line) = line {
                if writeln!(out, "{line}").is_err() {
                    return 0;
                }
            }
        }
        let choice = match game.status() {
            Status::Decision(d) => {
                let d = d.clone();
                let n = seats.len();
                let agent = &mut seats[d.player as usize % n];
                agent
                    .choose(&game, &d)
                    .min(d.options.len().saturating_sub(1))
            }
            _ => break,
        };
        if game.apply(choice).is_err() {
            break;
        }
    }
    let names: Vec<String> = (0..players)
        .map(|p| game.label(&Value::Player(p)))
        .collect();
    let agent_names: Vec<String> = seats.iter().map(|a| a.name()).collect();
    let seat_agents: Vec<String> = names
        .iter()
        .zip(&agent_names)
        .map(|(n, a)| format!("{n} {a}"))
        .collect();
    let (code, result) = match game.status() {
        Status::Over(o) => {
            let mut result = serde_json::json!({
                "type": "result",
                "winners": o.winners.iter().map(|w| *w as u64 + 1).collect::<Vec<_>>(),
                "winner_names": o.winners.iter().map(|w| names[*w as usize].clone()).collect::<Vec<_>>(),
                "reason": o.reason,
                "finished": o.finished,
                "turns": game.turns(),
                "steps": game.steps(),
            });
            // Participants that are not seats win by name, beside the seats (only when one did).
            if !o.participants.is_empty() {
                result["participant_winners"] = serde_json::json!(o.participants);
            }
            result["agents"] = serde_json::json!(agent_names);
            if let Some(all) = scores(&game) {
                result["scores"] = serde_json::json!(all);
            }
            (0, result)
        }
        Status::Error(e) => (
            SCRIPT_ERROR,
            serde_json::json!({
                "type": "result",
                "winners": [],
                "reason": format!("runtime error: {e}"),
                "finished": false,
                "error": { "message": e.message, "line": e.line, "position": e.position },
                "turns": game.turns(),
                "steps": game.steps(),
            }),
        ),
        Status::Decision(_) => (
            SCRIPT_ERROR,
            serde_json::json!({"type": "result", "winners": [], "reason": "stopped"}),
        ),
    };
    let _ = match format {
        Format::Json => writeln!(out, "{result}"),
        Format::Text => {
            let names = |key: &str| -> Vec<String> {
                result[key]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let mut winners = names("winner_names");
            winners.extend(names("participant_winners"));
            let who = if winners.is_empty() {
                "no winner".to_string()
            } else {
                format!("winners: {}", winners.join(", "))
            };
            let scores = match (game.status(), scores_line(&game)) {
                (Status::Over(_), Some(line)) => format!("\n{line}"),
                _ => String::new(),
            };
            writeln!(
                out,
                "result: {who} ({}) after {} turns and {} decisions\nagents: {}{scores}",
                result["reason"].as_str().unwrap_or(""),
                game.turns(),
                game.steps(),
                seat_agents.join(", ")
            )
        }
    };
    if code != 0 {
        if let Status::Error(e) = game.status() {
            errln!("error: {}: {e}", file.display());
        }
    }
    if let Status::Over(o) = game.status() {
        if !o.finished {
            errln!(
                "warning: the game did not finish: {}; this is a limit of the run, not a rule of \
                 the game",
                o.reason
            );
        }
    }
    code
}

pub fn cmd_cards(file: &Path, args: &GameArgs, format: CardsFormat) -> u8 {
    match format {
        CardsFormat::Tsv => return write_sheet(file, args, SheetFormat::Tsv),
        CardsFormat::Csv => return write_sheet(file, args, SheetFormat::Csv),
        CardsFormat::Text | CardsFormat::Json => {}
    }
    let (program, cfg, _) = match prepare(file, args, 1) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let game = Game::new(program.clone(), cfg);
    if let Status::Error(e) = game.status() {
        errln!("error: {}: {e}", file.display());
        return SCRIPT_ERROR;
    }
    let inv = game.inventory();
    match format {
        CardsFormat::Json => outln!("{}", serde_json::to_string_pretty(&inv).unwrap_or_default()),
        CardsFormat::Text | CardsFormat::Tsv | CardsFormat::Csv => out!("{}", inv.to_text()),
    }
    0
}

/// `cards --format tsv|csv`: the script's cards as a sheet (`cards from` reads it back).
fn write_sheet(file: &Path, args: &GameArgs, format: SheetFormat) -> u8 {
    use cardgame_interpreter::sheet_write;
    if !args.set.is_empty() || !args.options.is_empty() || args.players.is_some() {
        errln!(
            "error: --format tsv and csv write the cards as the script writes them (copies that depend \
             on the players or an option stay written so): --players, --option and --set do not apply"
        );
        return USAGE;
    }
    let source = match read(file) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return SCRIPT_ERROR;
        }
    };
    let analysis = analyse_file(file, &source);
    let Some(program) = analysis.checked.program.as_ref() else {
        err!(
            "{}",
            render_all(&analysis.checked.diagnostics, file, &analysis.sources)
        );
        return SCRIPT_ERROR;
    };
    let written = sheet_write::written(&analysis);
    match sheet_write::write_sheet(program, &written, format) {
        Ok(text) => {
            out!("{text}");
            0
        }
        Err(e) => {
            errln!("error: {}: {e}", file.display());
            SCRIPT_ERROR
        }
    }
}

pub fn cmd_strategies(file: &Path, format: Format) -> u8 {
    let (program, _) = match load(file) {
        Ok(x) => x,
        Err(c) => return c,
    };
    match format {
        Format::Json => {
            // The strategies as before, then each rule set with `"kind": "rules"` and no agent.
            let list: Vec<serde_json::Value> = program
                .strategies
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "name": s.name,
                        "agent": format!("strategy:{}", s.name),
                        "description": s.description,
                        "rules": s.rules.len(),
                        "fallback": s.fallback,
                    })
                })
                .chain(program.rule_sets.iter().map(|r| {
                    serde_json::json!({
                        "name": r.name,
                        "kind": "rules",
                        "description": r.description,
                        "rules": r.rules.len(),
                    })
                }))
                .collect();
            outln!(
                "{}",
                serde_json::to_string_pretty(&list).unwrap_or_default()
            );
        }
        Format::Text => {
            if program.strategies.is_empty() {
                outln!("{} defines no strategy", display_name(file));
            }
            for s in &program.strategies {
                let rules = if s.rules.len() == 1 { "rule" } else { "rules" };
                outln!(
                    "strategy:{}  ({} {rules}, otherwise {})",
                    s.name,
                    s.rules.len(),
                    s.fallback
                );
                if !s.description.is_empty() {
                    outln!("    {}", s.description);
                }
            }
            if !program.rule_sets.is_empty() {
                outln!("");
                outln!(
                    "rule sets (not players: `use NAME` in a strategy, or ismcts's `strict=NAME`):"
                );
                for r in &program.rule_sets {
                    let rules = if r.rules.len() == 1 { "rule" } else { "rules" };
                    outln!("rules {}  ({} {rules})", r.name, r.rules.len());
                    if !r.description.is_empty() {
                        outln!("    {}", r.description);
                    }
                }
            }
        }
    }
    0
}

/// The study of `games` games of `program` (the variant `settings` made, whose text is `source`) with
/// `agents` (rotated or not), under the game configuration `cfg` and the flags of `sim` (seed, jobs,
/// model, limits): the model is checked against the text played.
pub(crate) fn study(
    program: &Program,
    cfg: &GameConfig,
    (file, source): (&Path, &str),
    (games, agents, rotate): (u64, &str, bool),
    sim: &Batch,
    settings: &[String],
) -> Result<SimConfig, u8> {
    let mut curves = Vec::new();
    for name in &sim.curve {
        let curve = match cardgame_interpreter::curves::Curve::resolve(program, name) {
            Ok(c) => c,
            Err(e) => {
                errln!("error: {e}");
                return Err(2);
            }
        };
        curves.push(curve);
    }
    let jobs = sim
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    Ok(SimConfig {
        games,
        players: cfg.players,
        seed: sim.seed,
        jobs,
        agents: agents.split(',').map(|a| a.trim().to_string()).collect(),
        rotate,
        options: cfg.options.clone(),
        settings: settings.to_vec(),
        max_turns: sim.limits.max_turns,
        max_decisions: sim.limits.max_decisions,
        max_steps: sim.limits.max_steps,
        engine: sim.limits.engine.engine(),
        shard: None,
        model: model_for((file, source), program, cfg.players, &sim.model)?,
        course: sim.course,
        curves,
    })
}

/// What `cmd_batch` plays.
#[derive(Clone, PartialEq)]
pub enum Batching {
    /// `cardgame sim`, the agents rotated round the seats or not; `reproducible`: the report without
    /// what depends on the run (jobs, time); `html`: the report also written as HTML.
    Sim {
        rotate: bool,
        reproducible: bool,
        html: Option<std::path::PathBuf>,
    },
    /// `cardgame tournament`.
    Tournament,
}

/// `cardgame sim` or `cardgame tournament`: many games in parallel, a progress bar, a report.
pub fn cmd_batch(
    file: &Path,
    args: &GameArgs,
    games: u64,
    agents: &str,
    what: Batching,
    sim: &Batch,
    shard: Option<&crate::shard::ShardOut>,
) -> u8 {
    use std::io::IsTerminal;
    let (program, cfg, source) = match prepare(file, args, sim.seed) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let rotate = matches!(what, Batching::Sim { rotate: true, .. });
    let mut sc = match study(
        &program,
        &cfg,
        (file, &source),
        (games, agents, rotate),
        sim,
        &args.set,
    ) {
        Ok(sc) => sc,
        Err(c) => return c,
    };
    sc.shard = shard.map(|s| s.shard);
    let total = match what {
        Batching::Tournament => {
            Plan::new(sc.agents.len(), usize::from(sc.players), games).map_or(0, |p| p.games())
        }
        Batching::Sim { .. } => sc.shard.map_or(games, |s| s.games_of(games)),
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {per_sec}, eta {eta}",
        ) {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    if let Some(out) = shard {
        let code = crate::shard::run_shard(&source, &program, &sc, out, &tick);
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        return code;
    }
    let result = match what {
        Batching::Tournament => tournament(&program, &sc, &tick).map(|r| {
            let n = r.games;
            (
                serde_json::to_string(&r).map_err(|e| e.to_string()),
                r.to_text(&file.display().to_string()),
                r.error_count,
                r.unfinished,
                n,
            )
        }),
        Batching::Sim { reproducible, .. } => simulate(&program, &sc, &tick).map(|r| {
            let n = r.games;
            (
                r.to_json_with(!reproducible),
                r.to_text_with(!reproducible, &file.display().to_string()),
                r.error_count,
                r.unfinished,
                n,
            )
        }),
    };
    let (json, text, errors, unfinished, played) = match result {
        Ok(r) => r,
        Err(e) => {
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            errln!("error: {e}");
            return USAGE;
        }
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let json = json.unwrap_or_default();
    if let Batching::Sim {
        html: Some(path), ..
    } = &what
    {
        let page = serde_json::from_str(&json)
            .map(|v| crate::html::report::page(&v, false, &file.display().to_string()))
            .unwrap_or_default();
        if let Err(e) = std::fs::write(path, page) {
            errln!("error: cannot write {}: {e}", path.display());
            return SCRIPT_ERROR;
        }
    }
    match sim.format {
        Format::Json => outln!("{json}"),
        Format::Text => out!("{text}"),
    }
    if unfinished > 0 {
        // A limit is not a rule of the game: say so where it cannot be missed.
        errln!(
            "warning: {unfinished} of {played} games did not finish: they stopped at a limit of the \
             run (turns, or decisions in one turn), not by the rules; they are listed in the report"
        );
    }
    u8::from(errors > 0)
}

pub fn cmd_play(
    file: &Path,
    args: &GameArgs,
    seat: u8,
    seed: u64,
    (agents, model): (&str, &ModelArgs),
    limits: Limits,
) -> u8 {
    let (program, mut cfg, source) = match prepare(file, args, seed) {
        Ok(x) => x,
        Err(c) => return c,
    };
    limits.apply(&mut cfg);
    let players = cfg.players;
    if seat < 1 || seat > players {
        errln!("error: --seat takes a seat from 1 to {players}, not {seat}");
        return USAGE;
    }
    let me = seat - 1;
    let model = match model_for((file, &source), &program, players, model) {
        Ok(m) => m,
        Err(c) => return c,
    };
    let bots = match seat_bots(&program, agents, seed, players, me, model.as_ref()) {
        Ok(b) => b,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let mut game = Game::new(program, cfg);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let others: Vec<String> = (0..game.players())
        .filter(|&p| p != me)
        .map(|p| {
            let agent = bots.get(p as usize).and_then(|b| b.as_ref());
            let name = agent.map_or_else(|| "first".to_string(), |a| a.name());
            format!("{} {name}", game.label(&Value::Player(p)))
        })
        .collect();
    let against = if others.is_empty() {
        String::new()
    } else {
        format!(" against {}", others.join(", "))
    };
    let _ = writeln!(
        out,
        "You are {} in \"{}\"{against}. Answer with an option's number; `?` for help, `? N` for \
         the card of option N, `vars` for every variable, `why` for why the bots chose.",
        game.label(&Value::Player(me)),
        game.program().name
    );
    let mut bots = bots;
    // An input or output that goes away leaves the game unfinished (exit 0, as at the end of input).
    let _ = play::play(&mut game, me, &mut bots, &mut input, &mut out);
    if let Status::Error(e) = game.status() {
        errln!("error: {}: {e}", file.display());
        return SCRIPT_ERROR;
    }
    0
}

/// The bots of a game a person plays at seat `me`: `agents` (comma separated) in seat order, the
/// person's seat skipped and the last spec filling the remaining seats; `None` at the person's seat.
pub(crate) fn seat_bots(
    program: &Program,
    agents: &str,
    seed: u64,
    players: u8,
    me: u8,
    model: Option<&Arc<Model>>,
) -> Result<Vec<Option<Box<dyn Agent>>>, String> {
    let specs: Vec<&str> = agents.split(',').map(str::trim).collect();
    let mut bots: Vec<Option<Box<dyn Agent>>> = Vec::new();
    let mut k = 0;
    for s in 0..players {
        if s == me {
            bots.push(None);
            continue;
        }
        let spec = specs.get(k).or(specs.last()).copied().unwrap_or("random");
        k += 1;
        bots.push(Some(make_agent_with(program, spec, seed, s, model)?));
    }
    Ok(bots)
}
