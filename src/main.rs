//! Command line: `cardgame check | fmt | run | cards | test | sim | tournament | play | serve |
//! strategies | lsp`,
//! its flags and their help (docs/cli.md is the contract); the commands live in the modules below.
#![forbid(unsafe_code)]

use cardgame_interpreter::learn::PolicyReads;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The allocator the tool ships with. A search copies games all the time, and a copy allocates a
/// vector per zone and per frame: mimalloc serves these small, short-lived allocations faster than
/// the system's allocator (`mcts:200` on Heart of Crown about 1.15x; the ninth session of docs/engine.md at fe8b0bc).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Print to standard output. When the reader has gone (a pipe closed early, as by `| head`), the program
/// ends quietly with exit code 0, as command-line tools do; another write error ends it with exit code 1.
macro_rules! out {
    ($($t:tt)*) => { $crate::write_stdout(format_args!($($t)*)) };
}

/// [`out!`] with a newline.
macro_rules! outln {
    ($($t:tt)*) => { $crate::write_stdout(format_args!("{}\n", format_args!($($t)*))) };
}

/// Print to standard error; a closed standard error is ignored (never a panic).
macro_rules! err {
    ($($t:tt)*) => {{ let _ = std::io::Write::write_fmt(&mut std::io::stderr().lock(), format_args!($($t)*)); }};
}

/// [`err!`] with a newline.
macro_rules! errln {
    ($($t:tt)*) => { err!("{}\n", format_args!($($t)*)) };
}

fn write_stdout(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        quit_on_write_error(&e);
    }
}

/// The end of the program after a failed write to standard output.
fn quit_on_write_error(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    err!("error: cannot write to standard output: {e}\n");
    std::process::exit(i32::from(SCRIPT_ERROR));
}

mod agents_flag;
mod compare;
mod diagnostics;
mod format;
mod games;
mod html;
mod learn;
mod lsp;
mod model_flag;
mod play;
mod scores;
mod scripts;
mod serve;
mod shard;
mod sweep;
mod watch;

use agents_flag::{agents_help, agents_long_help, AgentsFor};

use cardgame_interpreter::engine::{
    GameConfig, DEFAULT_MAX_DECISIONS, DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS,
};
use diagnostics::ColorChoice;

/// Write, check, play, test and simulate card games written as text scripts.
#[derive(Parser)]
#[command(name = "cardgame", version, about)]
struct Cli {
    /// When to colour diagnostics and results: `auto` colours a terminal unless `NO_COLOR` is set.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// `cards --format`: the inventory (text, JSON) or the card list as a sheet (TSV, CSV).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum CardsFormat {
    Text,
    Json,
    Tsv,
    Csv,
}

#[derive(clap::Args)]
struct GameArgs {
    /// Number of players (default: the smallest the script supports).
    #[arg(long)]
    players: Option<u8>,
    /// Set an option of the script: `--option rares=false` (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Play a variant: set an option, a card's property or copies, a variable's starting value or a
    /// constant, as if the script were edited: `--set "Province.cost=6"` (repeatable; docs/cli.md).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

/// The limits that make every game end in bounded time (docs/cli.md, Limits).
#[derive(clap::Args, Clone, Copy)]
struct Limits {
    /// Stop a game after this many turns (unfinished).
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS)]
    max_turns: u32,
    /// Stop a game (unfinished) when one turn has taken this many decisions.
    #[arg(long, default_value_t = DEFAULT_MAX_DECISIONS, value_parser = clap::value_parser!(u64).range(1..))]
    max_decisions: u64,
    /// The work allowed between two decisions (statements, expressions, list items); more is a
    /// runtime error.
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS, value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: u64,
    /// The engine that runs the games while issue 42 moves it (docs/engine.md, "Where the move
    /// stands"): `closures` (the default: menus, checks and statements on typed closures first, the
    /// walker for the rest), or `walker` (the tree walker alone, their oracle).
    #[arg(long, value_enum, default_value_t = EngineArg::Closures, hide = true)]
    engine: EngineArg,
}

/// `--engine`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum EngineArg {
    Walker,
    Closures,
}

impl EngineArg {
    fn engine(self) -> cardgame_interpreter::engine::Engine {
        match self {
            EngineArg::Walker => cardgame_interpreter::engine::Engine::Walker,
            EngineArg::Closures => cardgame_interpreter::engine::Engine::Closures,
        }
    }
}

/// The limits of a rules test (a test has no turn limit: it runs the flow it names).
#[derive(clap::Args, Clone, Copy)]
struct TestLimits {
    /// A test fails when one turn has taken this many decisions.
    #[arg(long, default_value_t = DEFAULT_MAX_DECISIONS, value_parser = clap::value_parser!(u64).range(1..))]
    max_decisions: u64,
    /// The work allowed between two decisions; more is a runtime error that fails the test.
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS, value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: u64,
}

impl Limits {
    fn apply(&self, cfg: &mut GameConfig) {
        cfg.max_turns = self.max_turns;
        cfg.max_decisions = self.max_decisions;
        cfg.max_steps = self.max_steps;
        cfg.engine = self.engine.engine();
    }
}

/// The flags `sim` and `tournament` share.
#[derive(clap::Args)]
struct Batch {
    #[command(flatten)]
    model: model_flag::ModelArgs,
    /// Base seed: each game's seed is drawn from it and the game's number (`sim`) or round
    /// (`tournament`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also read the script's score after every turn for the course figures (lead changes, when the
    /// game was decided, drama, the score by turn); it slows a simulation of random players 2 to 5 times.
    #[arg(long)]
    course: bool,
    /// Follow a per-player variable, a variable, a statistic or a function of a player turn by turn:
    /// the report gives its mean in each turn with a 95% interval (repeatable).
    #[arg(long, value_name = "NAME")]
    curve: Vec<String>,
    /// The report's format: text, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    limits: Limits,
}

/// The flags of `check` and `test` that say how results are shown.
#[derive(clap::Args)]
struct ScriptOutput {
    /// `text`, or `json`: one JSON object per line for each diagnostic (and each test), then a summary
    /// (docs/cli.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Run again whenever one of the files changes, until Ctrl-C; the screen is cleared first when
    /// standard output is a terminal.
    #[arg(long)]
    watch: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Check scripts and print every error and warning.
    Check {
        /// The scripts to check (`.cardgame` files).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        output: ScriptOutput,
    },
    /// Play one game with bots (`random` unless --agents) and print its trace.
    Run {
        /// The script to play.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Seed of the game's random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "random", help = agents_help(AgentsFor::Run),
              long_help = agents_long_help(AgentsFor::Run))]
        agents: String,
        /// The trace's format: text, or one JSON object per line ending with the result.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        limits: Limits,
        /// Show the trace as this seat (1-based) may see it: hidden cards stay hidden.
        #[arg(long, value_name = "SEAT")]
        view: Option<u8>,
        #[command(flatten)]
        model: model_flag::ModelArgs,
    },
    /// Show the component inventory after setup.
    Cards {
        /// The script whose cards to list.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// The inventory's format: text, or one JSON object; or the card list as a sheet (tsv, csv) that
        /// `cards from "FILE"` reads.
        #[arg(long, value_enum, default_value_t = CardsFormat::Text)]
        format: CardsFormat,
    },
    /// Simulate many games and print aggregated statistics.
    Sim {
        /// The script to simulate.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Number of games.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value = "random", help = agents_help(AgentsFor::Sim),
              long_help = agents_long_help(AgentsFor::Sim))]
        agents: String,
        /// Keep every agent in its seat instead of rotating.
        #[arg(long)]
        no_rotate: bool,
        /// Play only shard K of N of the study (the games K, K+N, K+2N, ...) and write its partial
        /// report (JSON) to --out, for `cardgame merge`.
        #[arg(long, value_name = "K/N", requires = "out")]
        shard: Option<String>,
        /// With --shard: the file the partial report is written to (whole, or not at all).
        #[arg(long, value_name = "FILE", requires = "shard")]
        out: Option<PathBuf>,
        /// Leave out of the report what depends on the run (jobs, seconds, games per second), so that
        /// the same study always prints the same bytes (on any machine, sharded or not).
        #[arg(long, conflicts_with = "shard")]
        reproducible: bool,
        /// Also write the report as one self-contained HTML page with charts to this file.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Run the study once per value of a setting (as `--set` names it) and report the figures
        /// against it: `"Smithy.cost=3..6"` or `"goal=10,15,20"` (repeatable: a grid).
        #[arg(long, value_name = "NAME=VALUES", conflicts_with = "shard")]
        sweep: Vec<String>,
        #[command(flatten)]
        batch: Batch,
    },
    /// Compare two scripts, or a script and a variant of it (`--set`), over the same seeds and
    /// seatings: every figure's difference with an interval (docs/cli.md, Studies).
    Compare {
        /// Side A's script.
        a: PathBuf,
        /// Side B's script (default: A's, which `--set` then makes a variant of).
        b: Option<PathBuf>,
        #[command(flatten)]
        game: GameArgs,
        /// A setting of side A only (`--set` sets side B's; repeatable).
        #[arg(long = "set-a", value_name = "NAME=VALUE")]
        set_a: Vec<String>,
        /// Number of paired games (the bound, with --until-decided).
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value = "random", help = agents_help(AgentsFor::Sim),
              long_help = agents_long_help(AgentsFor::Sim))]
        agents: String,
        /// Keep every agent in its seat instead of rotating.
        #[arg(long)]
        no_rotate: bool,
        /// Stop as soon as this figure's difference is decided (a confidence sequence, valid however
        /// often it is looked at), at the latest after --games games: `"wins: seat 1"`, `turns`, ...
        #[arg(long, value_name = "FIGURE", conflicts_with = "shard")]
        until_decided: Option<String>,
        /// Play only shard K of N of the comparison (the pairs of games K, K+N, K+2N, ...) and write
        /// its partial report (JSON) to --out, for `cardgame merge`.
        #[arg(long, value_name = "K/N", requires = "out")]
        shard: Option<String>,
        /// With --shard: the file the partial report is written to (whole, or not at all).
        #[arg(long, value_name = "FILE", requires = "shard")]
        out: Option<PathBuf>,
        /// Leave out of the report the seconds it took.
        #[arg(long)]
        reproducible: bool,
        #[command(flatten)]
        batch: Batch,
    },
    /// Merge the partial reports of `sim --shard` into the report of the whole study.
    Merge {
        /// The partial reports (JSON files written by `sim --shard K/N --out FILE`).
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// The report's format: text, or one JSON object.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Report the shards found even when some are missing (exit 0, not 1).
        #[arg(long)]
        allow_partial: bool,
        /// The script the shards played, named in the commands that replay a game (its text must be
        /// the one the parts were played from); without it they say `SCRIPT`.
        #[arg(long, value_name = "FILE")]
        script: Option<PathBuf>,
        /// Leave out of the report the jobs, seconds and games per second (as `sim --reproducible`).
        #[arg(long)]
        reproducible: bool,
        /// Also write the report as one self-contained HTML page with charts (as `sim --html`).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Learn to play a script by self-play: fit an evaluation of positions and write it as a model
    /// file for `--model` (docs/cli.md, Learning).
    Learn {
        /// The script to learn.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Stop before a generation that would end past this time, were it as long as the last (`90s`, `10m`, `1h`).
        #[arg(long, value_parser = learn::parse_time)]
        time: Option<std::time::Duration>,
        /// Self-play games per generation.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// The most generations.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
        generations: u32,
        /// The most generations of the prior over options, after the evaluation's (0: none).
        #[arg(long, default_value_t = 8)]
        prior_generations: u32,
        /// Self-play games of the search per generation of the prior, and the most of each match that chooses how the search uses the model (0: no prior and no match: play-outs to the end by the policy).
        #[arg(long, default_value_t = 100)]
        prior_games: u64,
        /// Iterations per decision of the search in the generations of the prior.
        #[arg(long, default_value_t = cardgame_interpreter::learn::PRIOR_ITERATIONS, value_parser = clap::value_parser!(u32).range(1..))]
        search_iterations: u32,
        /// Rounds of the play-out policy's own self-play (500 games each) after it is fitted (0: none).
        #[arg(long, default_value_t = cardgame_interpreter::learn::POLICY_ROUNDS)]
        policy_rounds: u32,
        /// What the play-out policy reads beside the move: the progress alone, also the
        /// position's counts every seat knows, or both learned and a match between them deciding.
        #[arg(long, default_value = "auto", value_parser = ["progress", "position", "auto"])]
        policy_reads: String,
        /// Hidden units of the play-out policy that reads the position (0: none, each move weighs
        /// every count alone).
        #[arg(long, default_value_t = cardgame_interpreter::learn::POLICY_UNITS as u16, value_parser = clap::value_parser!(u16).range(0..=256))]
        policy_units: u16,
        /// Whether the play-out policy also weighs what each option is made of (its action, and
        /// each argument by its kind, a space by the top card of each zone on it), so that options
        /// alike on different cards or spaces share what is learned.
        #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
        policy_parts: bool,
        /// Base seed of every game played.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: the number of cores); the model is the same for any number.
        #[arg(long)]
        jobs: Option<usize>,
        /// The model file to write (default: beside the script, `NAME.Np.model`).
        #[arg(long, value_name = "MODEL")]
        out: Option<PathBuf>,
        /// The report's format: text, or one JSON object.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        limits: Limits,
    },
    /// Set agents against each other in every pairing and seating; print a matrix of score rates.
    Tournament {
        /// The script to play.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Games per lineup of agents, rounded up to whole rounds of seatings.
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, required = true, help = agents_help(AgentsFor::Tournament),
              long_help = agents_long_help(AgentsFor::Tournament))]
        agents: String,
        #[command(flatten)]
        batch: Batch,
    },
    /// Play a game at the terminal against bots (`random` unless --agents).
    Play {
        /// The script to play.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Your seat, from 1.
        #[arg(long, default_value_t = 1)]
        seat: u8,
        /// Seed of the game's random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "random", help = agents_help(AgentsFor::Play),
              long_help = agents_long_help(AgentsFor::Play))]
        agents: String,
        #[command(flatten)]
        limits: Limits,
        #[command(flatten)]
        model: model_flag::ModelArgs,
    },
    /// Serve a local web page (127.0.0.1 only) to play a seat, replay a seeded game and read a
    /// simulation report with charts.
    Serve {
        /// The script to serve.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Your seat on the Play page, from 1.
        #[arg(long, default_value_t = 1)]
        seat: u8,
        /// Seed of the first game (Play, Replay and Report).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "random", help = agents_help(AgentsFor::Play),
              long_help = agents_long_help(AgentsFor::Play))]
        agents: String,
        #[command(flatten)]
        model: model_flag::ModelArgs,
        /// The port to listen on (127.0.0.1 only); 0 takes any free port.
        #[arg(long, default_value_t = 8000)]
        port: u16,
        #[command(flatten)]
        limits: Limits,
    },
    /// List the strategies a script defines (`strategy NAME "..." { ... }`), for `--agents strategy:NAME`,
    /// then its rule sets (`rules NAME "..." { ... }`), for `use NAME` and ismcts's `strict=NAME`.
    Strategies {
        /// The script whose strategies and rule sets to list.
        file: PathBuf,
        /// The list's format: text, or one JSON array.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Write scripts in the canonical layout (comments kept), or list those that are not in it.
    Fmt {
        /// The scripts to format, rewritten in place (`.cardgame` files).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Change nothing: list the scripts that would change, and exit 1 if there are any.
        #[arg(long)]
        check: bool,
    },
    /// Run the rules tests written in scripts.
    Test {
        /// The scripts whose tests to run.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Run only the tests whose names contain this text (case-sensitive).
        #[arg(long, value_name = "TEXT")]
        filter: Option<String>,
        #[command(flatten)]
        output: ScriptOutput,
        #[command(flatten)]
        limits: TestLimits,
    },
    /// Serve the Language Server Protocol on standard input and output, for editors (docs/editors.md).
    Lsp,
}

/// Exit codes of the contract.
const SCRIPT_ERROR: u8 = 1;
const USAGE: u8 = 2;

/// The `--color` choice written on the command line, read before clap parses it so that clap's own
/// help and errors follow it too (the last one wins, as for clap).
fn color_flag(args: &[std::ffi::OsString]) -> Option<clap::ColorChoice> {
    let mut choice = None;
    let mut it = args.iter().map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        let value = match a.strip_prefix("--color") {
            Some("") => it.next().map(|v| v.into_owned()),
            Some(v) => v.strip_prefix('=').map(String::from),
            None => None,
        };
        choice = match value.as_deref() {
            Some("always") => Some(clap::ColorChoice::Always),
            Some("never") => Some(clap::ColorChoice::Never),
            Some("auto") => Some(clap::ColorChoice::Auto),
            _ => choice,
        };
    }
    choice
}

fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut command = Cli::command();
    if let Some(c) = color_flag(&args) {
        command = command.color(c);
    }
    let cli = match command
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    diagnostics::set_colours(cli.color);
    let code = match cli.command {
        Command::Lsp => lsp::run(),
        Command::Check { files, output } => {
            if output.watch {
                watch::watch(&files, || scripts::check(&files, output.format))
            } else {
                scripts::check(&files, output.format)
            }
        }
        Command::Fmt { files, check } => format::fmt(&files, check),
        Command::Test {
            files,
            filter,
            output,
            limits,
        } => {
            let once = || scripts::test(&files, filter.as_deref(), output.format, limits);
            if output.watch {
                watch::watch(&files, once)
            } else {
                once()
            }
        }
        Command::Run {
            file,
            game,
            seed,
            agents,
            format,
            limits,
            view,
            model,
        } => games::cmd_run(&file, &game, seed, (&agents, &model), format, limits, view),
        Command::Cards { file, game, format } => games::cmd_cards(&file, &game, format),
        Command::Strategies { file, format } => games::cmd_strategies(&file, format),
        Command::Learn {
            file,
            game,
            time,
            games,
            generations,
            prior_generations,
            prior_games,
            search_iterations,
            policy_rounds,
            policy_reads,
            policy_units,
            policy_parts,
            seed,
            jobs,
            out,
            format,
            limits,
        } => learn::cmd_learn(&learn::LearnArgs {
            file: &file,
            game: &game,
            time,
            games,
            generations,
            prior: (prior_generations, prior_games, search_iterations),
            policy_rounds,
            policy_reads: match policy_reads.as_str() {
                "progress" => PolicyReads::Progress,
                "position" => PolicyReads::Position,
                _ => PolicyReads::Auto,
            },
            policy_units: usize::from(policy_units),
            policy_parts,
            seed,
            jobs,
            out,
            format,
            limits,
        }),
        Command::Play {
            file,
            game,
            seat,
            seed,
            agents,
            limits,
            model,
        } => games::cmd_play(&file, &game, seat, seed, (&agents, &model), limits),
        Command::Sim {
            file,
            game,
            games,
            agents,
            no_rotate,
            shard: _,
            out: _,
            reproducible,
            html,
            sweep,
            batch,
        } if !sweep.is_empty() => sweep::cmd_sweep(sweep::SweepArgs {
            file: &file,
            game: &game,
            sweeps: &sweep,
            games,
            agents: &agents,
            rotate: !no_rotate,
            reproducible,
            html,
            batch: &batch,
        }),
        Command::Sim {
            file,
            game,
            games,
            agents,
            no_rotate,
            shard,
            out,
            reproducible,
            html,
            sweep: _,
            batch,
        } => match shard::shard_out(shard.as_deref(), out) {
            Ok(shard) => games::cmd_batch(
                &file,
                &game,
                games,
                &agents,
                games::Batching::Sim {
                    rotate: !no_rotate,
                    reproducible,
                    html,
                },
                &batch,
                shard.as_ref(),
            ),
            Err(e) => {
                errln!("error: {e}");
                USAGE
            }
        },
        Command::Compare {
            a,
            b,
            game,
            set_a,
            games,
            agents,
            no_rotate,
            until_decided,
            shard,
            out,
            reproducible,
            batch,
        } => compare::cmd_compare(compare::CompareArgs {
            a: &a,
            b: b.as_deref(),
            game: &game,
            set_a: &set_a,
            games,
            agents: &agents,
            rotate: !no_rotate,
            until: until_decided.as_deref(),
            shard: shard.as_deref(),
            out,
            reproducible,
            batch: &batch,
        }),
        Command::Merge {
            parts,
            format,
            allow_partial,
            script,
            reproducible,
            html,
        } => shard::cmd_merge(
            &parts,
            shard::MergeOut {
                json: format == Format::Json,
                allow_partial,
                script,
                reproducible,
                html,
            },
        ),
        Command::Serve {
            file,
            game,
            seat,
            seed,
            agents,
            model,
            port,
            limits,
        } => serve::serve(serve::ServeArgs {
            file,
            game,
            seat,
            seed,
            agents,
            model,
            limits,
            port,
        }),
        Command::Tournament {
            file,
            game,
            games,
            agents,
            batch,
        } => games::cmd_batch(
            &file,
            &game,
            games,
            &agents,
            games::Batching::Tournament,
            &batch,
            None,
        ),
    };
    ExitCode::from(code)
}
