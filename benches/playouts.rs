//! Benchmarks: random playouts of every script on one core, and the interpreter's overhead measured
//! against plain hand-written Rust implementations of two examples (Market Race and Duel).
//!
//! Run with `cargo bench` (`cargo bench -- WORD` for the scripts and baselines whose path contains
//! WORD). `CARDGAME_BENCH_SECONDS` (3) sets the time spent on each measurement,
//! `CARDGAME_BENCH_REPEATS` (5) how many times each baseline is measured (interpreted and hand-written
//! interleaved, so that the machine's noise hits both), and `CARDGAME_BENCH_CHECK_GAMES` (20,000; 0 to
//! skip) how many games of each baseline are played to check that the hand-written game matches the
//! interpreted one (decisions per game, winners, end reasons). While issue 42 moves the engine, every
//! interpreted figure is measured on both engines in the same run: the walker and the closures
//! (`GameConfig::engine`: engine/closures answer menus and guarded checks first, the walker the rest).

mod handwritten;

/// The allocator the tool ships with (src/main.rs), for the interpreted and the hand-written games
/// alike.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Engine, GameConfig, GameFactory, Status};
use cardgame_interpreter::program::Program;
use handwritten::Played;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(default)
}

fn budget() -> Duration {
    Duration::from_secs_f64(env_number("CARDGAME_BENCH_SECONDS", 3.0))
}

/// The games of the benchmark: `players` random players, made by one factory as `sim` makes them.
fn factory(program: &Arc<Program>, players: u8, engine: Engine) -> GameFactory {
    let mut config = GameConfig::new(players, 0);
    config.engine = engine;
    config.max_turns = 1000;
    config.record = false;
    // As `sim` does: no labels for players that only count options (random players).
    config.labels = false;
    GameFactory::new(program.clone(), config)
}

/// Plays one interpreted game with random agents; its decisions and how it ended (`None` on an error).
fn interpreted_game(factory: &GameFactory, seed: u64) -> (u64, Option<Played>, usize) {
    let program = factory.program();
    let mut agents: Vec<_> = (0..factory.config().players)
        .map(|s| make_agent(program, "random", seed, s).expect("agent"))
        .collect();
    assert!(
        !agents.iter().any(|a| a.reads_labels()),
        "random players read no labels"
    );
    let mut game = factory.game(seed);
    let mut decisions = 0u64;
    while let Status::Decision(d) = game.status() {
        let i = agents[d.player as usize].choose(&game, d);
        if game.apply(i).is_err() {
            break;
        }
        decisions += 1;
    }
    let played = match game.status() {
        Status::Over(o) if o.finished => Some(Played {
            decisions,
            winners: o.winners.iter().fold(0, |w, &p| w | 1 << p),
            // Reasons are few: leaking each distinct one once keeps `Played` plain.
            reason: reason_name(&o.reason),
        }),
        _ => None,
    };
    (decisions, played, game.state_size())
}

fn reason_name(reason: &str) -> &'static str {
    thread_local! {
        static NAMES: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some(n) = names.iter().find(|n| **n == reason) {
            return *n;
        }
        let n: &'static str = Box::leak(reason.to_string().into_boxed_str());
        names.push(n);
        n
    })
}

fn load(path: &str) -> Option<Arc<Program>> {
    let src = std::fs::read_to_string(path).expect("script");
    check_source(&src).program.map(Arc::new)
}

/// Games and decisions per second of random playouts of one script, and the largest state size.
fn interpreted(program: &Arc<Program>, players: u8, engine: Engine) -> (f64, f64, usize) {
    let start = Instant::now();
    let factory = factory(program, players, engine);
    let (mut games, mut decisions, mut size) = (0u64, 0u64, 0usize);
    while start.elapsed() < budget() {
        let (d, _, s) = interpreted_game(&factory, games);
        decisions += d;
        size = size.max(s);
        games += 1;
    }
    let t = start.elapsed().as_secs_f64();
    (games as f64 / t, decisions as f64 / t, size)
}

/// Games and decisions per second of a hand-written baseline.
fn handwritten(play: fn(u64) -> Played) -> (f64, f64) {
    let start = Instant::now();
    let (mut games, mut decisions) = (0u64, 0u64);
    while start.elapsed() < budget() {
        decisions += play(games).decisions;
        games += 1;
    }
    let t = start.elapsed().as_secs_f64();
    (games as f64 / t, decisions as f64 / t)
}

/// A baseline: an example script and its hand-written twin.
struct Baseline {
    name: &'static str,
    script: &'static str,
    players: u8,
    play: fn(u64) -> Played,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The engine measured beside the walker: the closures (engine/closures, issue 42's alternative).
const SECOND: (Engine, &str) = (Engine::Closures, "closures");

/// One side of a baseline's measurement: decisions and games per second of each repeat.
#[derive(Default)]
struct Side {
    decisions: Vec<f64>,
    games: Vec<f64>,
}

/// Decisions per second interpreted (walker and closures) and hand-written, repeated and interleaved;
/// prints the medians and the ratios.
fn measure(b: &Baseline, program: &Arc<Program>, repeats: usize) {
    let (mut walker, mut second_side, mut hw) = (Side::default(), Side::default(), Side::default());
    let (second, name2) = SECOND;
    for r in 0..repeats {
        // Rotate which side goes first, so a slow spell of the machine does not favour one side.
        for k in 0..3 {
            match (r + k) % 3 {
                0 => {
                    let (g, d, _) = interpreted(program, b.players, Engine::Walker);
                    walker.games.push(g);
                    walker.decisions.push(d);
                }
                1 => {
                    let (g, d, _) = interpreted(program, b.players, second);
                    second_side.games.push(g);
                    second_side.decisions.push(d);
                }
                _ => {
                    let (g, d) = handwritten(b.play);
                    hw.games.push(g);
                    hw.decisions.push(d);
                }
            }
        }
        let (w, m, h) = (
            walker.decisions[r],
            second_side.decisions[r],
            hw.decisions[r],
        );
        println!(
            "  repeat {}: walker {w:>10.0}, {name2} {m:>10.0}, hand-written {h:>10.0} decisions/s; hand-written/walker {:>6.2}x, hand-written/{name2} {:>6.2}x, {name2}/walker {:>5.2}x",
            r + 1,
            h / w,
            h / m,
            m / w
        );
    }
    println!(
        "{}, {} players, median of {repeats}: walker {:.0} decisions/s ({:.0} games/s), {name2} {:.0} decisions/s ({:.0} games/s), hand-written {:.0} decisions/s ({:.0} games/s)",
        b.name,
        b.players,
        median(&mut walker.decisions.clone()),
        median(&mut walker.games.clone()),
        median(&mut second_side.decisions.clone()),
        median(&mut second_side.games.clone()),
        median(&mut hw.decisions.clone()),
        median(&mut hw.games.clone()),
    );
    for (name, side) in [("walker", &walker), (name2, &second_side)] {
        let mut ratios: Vec<f64> = (0..repeats)
            .map(|r| hw.decisions[r] / side.decisions[r])
            .collect();
        let mut per_game: Vec<f64> = (0..repeats).map(|r| hw.games[r] / side.games[r]).collect();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        println!(
            "{} interpreter overhead ({name}): {:.2}x per decision (min {lo:.2}x, max {hi:.2}x), {:.2}x per game",
            b.name,
            median(&mut ratios),
            median(&mut per_game),
        );
    }
    let mut gain: Vec<f64> = (0..repeats)
        .map(|r| second_side.decisions[r] / walker.decisions[r])
        .collect();
    let (lo, hi) = gain
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    println!(
        "{} {name2}/walker decisions per second: {:.2}x (min {lo:.2}x, max {hi:.2}x)",
        b.name,
        median(&mut gain)
    );
}

/// Counts over many games of one side of a baseline.
#[derive(Default)]
struct Tally {
    games: u64,
    errors: u64,
    decisions: f64,
    squares: f64,
    wins: [u64; 8],
    ties: u64,
    reasons: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn add(&mut self, p: Option<Played>) {
        let Some(p) = p else {
            self.errors += 1;
            return;
        };
        self.games += 1;
        let d = p.decisions as f64;
        self.decisions += d;
        self.squares += d * d;
        for (seat, w) in self.wins.iter_mut().enumerate() {
            if p.winners & (1 << seat) != 0 {
                *w += 1;
            }
        }
        if p.winners.count_ones() > 1 {
            self.ties += 1;
        }
        *self.reasons.entry(p.reason).or_default() += 1;
    }
    fn mean(&self) -> f64 {
        self.decisions / self.games.max(1) as f64
    }
    /// Standard error of the mean number of decisions.
    fn error(&self) -> f64 {
        let n = self.games.max(2) as f64;
        let var = (self.squares - self.decisions * self.decisions / n) / (n - 1.0);
        (var.max(0.0) / n).sqrt()
    }
    fn rate(&self, k: u64) -> f64 {
        k as f64 / self.games.max(1) as f64
    }
}

/// Difference of two rates in standard errors (a two-proportion z score).
fn z_rates(a: &Tally, ka: u64, b: &Tally, kb: u64) -> f64 {
    let (pa, pb) = (a.rate(ka), b.rate(kb));
    let p = (ka + kb) as f64 / (a.games + b.games).max(1) as f64;
    let se = (p * (1.0 - p) * (1.0 / a.games.max(1) as f64 + 1.0 / b.games.max(1) as f64)).sqrt();
    if se == 0.0 {
        0.0
    } else {
        (pa - pb) / se
    }
}

/// Plays `games` games interpreted and hand-written and prints how they compare.
fn check(b: &Baseline, program: &Arc<Program>, games: u64) {
    let (mut int, mut hw) = (Tally::default(), Tally::default());
    let factory = factory(program, b.players, Engine::Walker);
    for seed in 0..games {
        int.add(interpreted_game(&factory, seed).1);
        // Other seeds than the interpreted games', so that the two samples are independent.
        hw.add(Some((b.play)(seed + (1 << 40))));
    }
    println!(
        "check of the hand-written {} against the script, {games} games each (|z| above 3 would be a real difference):",
        b.name
    );
    println!(
        "  {:<48} {:>16} {:>16} {:>7}",
        "", "interpreted", "hand-written", "z"
    );
    println!(
        "  {:<48} {:>9.3} ± {:<4.2} {:>9.3} ± {:<4.2} {:>7.2}",
        "decisions per game (± standard error)",
        int.mean(),
        int.error(),
        hw.mean(),
        hw.error(),
        (int.mean() - hw.mean()) / (int.error().powi(2) + hw.error().powi(2)).sqrt().max(1e-12)
    );
    let row = |label: String, ka: u64, kb: u64| {
        println!(
            "  {label:<48} {:>15.2}% {:>15.2}% {:>7.2}",
            100.0 * int.rate(ka),
            100.0 * hw.rate(kb),
            z_rates(&int, ka, &hw, kb)
        );
    };
    for seat in 0..b.players as usize {
        row(
            format!("seat {} wins", seat + 1),
            int.wins[seat],
            hw.wins[seat],
        );
    }
    row("ties (several winners)".into(), int.ties, hw.ties);
    let reasons: Vec<&'static str> = int
        .reasons
        .keys()
        .chain(hw.reasons.keys())
        .copied()
        .collect();
    for r in handwritten::distinct(reasons) {
        row(
            format!("ends: {r}"),
            int.reasons.get(r).copied().unwrap_or(0),
            hw.reasons.get(r).copied().unwrap_or(0),
        );
    }
    if int.errors > 0 {
        println!("  interpreted games that did not finish: {}", int.errors);
    }
}

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut scripts: Vec<String> = Vec::new();
    for dir in ["games", "examples"] {
        if let Ok(rd) = std::fs::read_dir(format!("{root}/{dir}")) {
            for e in rd.flatten() {
                let p = e.path().to_string_lossy().into_owned();
                if p.ends_with(".cardgame") {
                    scripts.push(p);
                }
            }
        }
    }
    scripts.sort();
    // `cargo bench -- WORD` measures only the scripts and baselines whose path contains WORD.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |s: &str| filter.is_empty() || filter.iter().any(|f| s.contains(f.as_str()));
    scripts.retain(|s| wanted(s));
    println!(
        "random playouts on one core ({:.0} s each)",
        budget().as_secs_f64()
    );
    println!(
        "{:<28} {:>8} {:>12} {:>14} {:>12} {:>16} {:>15}",
        "script",
        "players",
        "games/s",
        "decisions/s",
        "state bytes",
        "closures games/s",
        "closures/walker"
    );
    for s in &scripts {
        let Some(p) = load(s) else {
            println!("{s}: does not check");
            continue;
        };
        let players = p.min_players.max(2).min(p.max_players);
        let (g, d, size) = interpreted(&p, players, Engine::Walker);
        let (mg, _, _) = interpreted(&p, players, SECOND.0);
        let name = std::path::Path::new(s)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!(
            "{name:<28} {players:>8} {g:>12.0} {d:>14.0} {size:>12} {mg:>16.0} {:>14.2}x",
            mg / g
        );
    }
    let baselines = [
        Baseline {
            name: "Market Race",
            script: "examples/market-race.cardgame",
            players: 2,
            play: |seed| handwritten::market_race::play(2, seed),
        },
        Baseline {
            name: "Duel",
            script: "examples/duel.cardgame",
            players: 2,
            play: handwritten::duel::play,
        },
    ];
    let repeats = (env_number("CARDGAME_BENCH_REPEATS", 5.0) as usize).max(1);
    let check_games = env_number("CARDGAME_BENCH_CHECK_GAMES", 20_000.0) as u64;
    for b in baselines.iter().filter(|b| wanted(b.script)) {
        let program = load(&format!("{root}/{}", b.script)).expect("the baseline's script checks");
        println!();
        println!(
            "{}: interpreted against hand-written, {repeats} repeats of {:.0} s each side, interleaved",
            b.name,
            budget().as_secs_f64()
        );
        measure(b, &program, repeats);
        if check_games > 0 {
            check(b, &program, check_games);
        }
    }
}
