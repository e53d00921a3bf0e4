//! Benchmarks: random playouts of every script on one core, and the interpreter's overhead measured
//! against a plain hand-written Rust implementation of the Market Race example (benchmark code only).
//!
//! Run with `cargo bench`; `CARDGAME_BENCH_SECONDS` sets the time spent on each measurement.

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn budget() -> Duration {
    let secs = std::env::var("CARDGAME_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// Games and decisions per second of random playouts of one script.
fn interpreted(path: &str, players: u8) -> (f64, f64, usize) {
    let src = std::fs::read_to_string(path).expect("script");
    let program = Arc::new(check_source(&src).program.expect("the script checks"));
    let start = Instant::now();
    let (mut games, mut decisions, mut size) = (0u64, 0u64, 0usize);
    while start.elapsed() < budget() {
        let mut config = GameConfig::new(players, games);
        config.max_turns = 1000;
        config.record = false;
        let mut game = Game::new(program.clone(), config);
        let mut agents: Vec<_> = (0..players)
            .map(|s| make_agent("random", games, s).expect("agent"))
            .collect();
        while let Status::Decision(d) = game.status() {
            let i = agents[d.player as usize].choose(&game, d);
            if game.apply(i).is_err() {
                break;
            }
            decisions += 1;
        }
        size = size.max(game.state_size());
        games += 1;
    }
    let t = start.elapsed().as_secs_f64();
    (games as f64 / t, decisions as f64 / t, size)
}

// ---------------------------------------------------------------------------------------------------
// Market Race written by hand: the same rules as examples/market-race.cardgame, random choices among
// the same options (identical cards in a hand or the market are one option).

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum K {
    Copper,
    Homestead,
    Silver,
    Gold,
    Cart,
    Festival,
    Forge,
    Farm,
    Manor,
    Castle,
}

impl K {
    fn cost(self) -> i32 {
        match self {
            K::Copper | K::Homestead => 0,
            K::Farm => 2,
            K::Silver | K::Cart => 3,
            K::Festival | K::Forge => 4,
            K::Manor => 5,
            K::Gold => 6,
            K::Castle => 8,
        }
    }
    fn points(self) -> i32 {
        match self {
            K::Homestead | K::Farm => 1,
            K::Manor => 3,
            K::Castle => 6,
            _ => 0,
        }
    }
    fn victory(self) -> bool {
        self.points() > 0
    }
}

#[derive(Default, Clone)]
struct Seat {
    deck: Vec<K>,
    hand: Vec<K>,
    played: Vec<K>,
    discard: Vec<K>,
    coins: i32,
    buys: i32,
}

struct Plain {
    rng: ChaCha8Rng,
    seats: Vec<Seat>,
    supply: Vec<K>,
    market: Vec<K>,
    decisions: u64,
}

fn distinct(cards: &[K]) -> Vec<K> {
    let mut out: Vec<K> = Vec::new();
    for &c in cards {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

impl Plain {
    fn draw(&mut self, p: usize, n: usize) {
        for _ in 0..n {
            if self.seats[p].deck.is_empty() {
                let mut d = std::mem::take(&mut self.seats[p].discard);
                d.shuffle(&mut self.rng);
                self.seats[p].deck = d;
            }
            match self.seats[p].deck.pop() {
                Some(c) => self.seats[p].hand.push(c),
                None => return,
            }
        }
    }
    fn refill_market(&mut self) {
        while self.market.len() < 5 {
            match self.supply.pop() {
                Some(c) => self.market.push(c),
                None => return,
            }
        }
    }
    fn score(&self, p: usize) -> i32 {
        let s = &self.seats[p];
        s.deck
            .iter()
            .chain(&s.hand)
            .chain(&s.played)
            .chain(&s.discard)
            .map(|c| c.points())
            .sum()
    }
    fn pick(&mut self, n: usize) -> usize {
        self.decisions += 1;
        self.rng.gen_range(0..n)
    }
    fn forge(&mut self, p: usize) {
        let options = distinct(&self.seats[p].hand);
        if options.is_empty() {
            return;
        }
        let t = options[self.pick(options.len())];
        let i = self.seats[p].hand.iter().position(|&c| c == t).unwrap_or(0);
        self.seats[p].hand.remove(i);
        let gains: Vec<K> = distinct(&self.market)
            .into_iter()
            .filter(|g| g.cost() <= t.cost() + 3)
            .collect();
        if gains.is_empty() {
            return;
        }
        let g = gains[self.pick(gains.len())];
        let j = self.market.iter().position(|&c| c == g).unwrap_or(0);
        self.market.remove(j);
        self.seats[p].discard.push(g);
        self.refill_market();
    }
    /// One turn; true when the player reached the goal.
    fn turn(&mut self, p: usize) -> bool {
        loop {
            if self.score(p) >= 15 {
                return true;
            }
            let plays: Vec<K> = distinct(&self.seats[p].hand)
                .into_iter()
                .filter(|c| !c.victory())
                .collect();
            let buys: Vec<K> = if self.seats[p].buys > 0 {
                let coins = self.seats[p].coins;
                distinct(&self.market)
                    .into_iter()
                    .filter(|c| c.cost() <= coins)
                    .collect()
            } else {
                Vec::new()
            };
            let n = plays.len() + buys.len() + 1;
            let choice = self.pick(n);
            if choice < plays.len() {
                let c = plays[choice];
                let i = self.seats[p].hand.iter().position(|&x| x == c).unwrap_or(0);
                self.seats[p].hand.remove(i);
                self.seats[p].played.push(c);
                match c {
                    K::Copper => self.seats[p].coins += 1,
                    K::Silver => self.seats[p].coins += 2,
                    K::Gold => self.seats[p].coins += 3,
                    K::Cart => self.draw(p, 2),
                    K::Festival => {
                        self.seats[p].coins += 2;
                        self.seats[p].buys += 1;
                    }
                    K::Forge => self.forge(p),
                    _ => {}
                }
            } else if choice < plays.len() + buys.len() {
                let c = buys[choice - plays.len()];
                self.seats[p].coins -= c.cost();
                self.seats[p].buys -= 1;
                let j = self.market.iter().position(|&x| x == c).unwrap_or(0);
                self.market.remove(j);
                self.seats[p].discard.push(c);
                self.refill_market();
            } else {
                break;
            }
        }
        let s = &mut self.seats[p];
        s.discard.append(&mut s.hand);
        s.discard.append(&mut s.played);
        s.coins = 0;
        s.buys = 1;
        self.draw(p, 5);
        self.supply.pop();
        self.score(p) >= 15
    }
    fn play(players: usize, seed: u64) -> u64 {
        let mut g = Plain {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seats: vec![Seat::default(); players],
            supply: Vec::new(),
            market: Vec::new(),
            decisions: 0,
        };
        for p in 0..players {
            let mut deck = vec![K::Copper; 7];
            deck.extend([K::Homestead; 3]);
            deck.shuffle(&mut g.rng);
            g.seats[p].deck = deck;
            g.seats[p].buys = 1;
            g.draw(p, 5);
        }
        for (k, n) in [
            (K::Silver, 8),
            (K::Gold, 4),
            (K::Cart, 4),
            (K::Festival, 4),
            (K::Forge, 3),
            (K::Farm, 6),
            (K::Manor, 5),
            (K::Castle, 3),
        ] {
            g.supply.extend(std::iter::repeat_n(k, n));
        }
        g.supply.shuffle(&mut g.rng);
        g.refill_market();
        'game: loop {
            for p in 0..players {
                if g.turn(p) {
                    break 'game;
                }
            }
            if g.supply.is_empty() {
                break;
            }
        }
        g.decisions
    }
}

fn handwritten(players: usize) -> (f64, f64) {
    let start = Instant::now();
    let (mut games, mut decisions) = (0u64, 0u64);
    while start.elapsed() < budget() {
        decisions += Plain::play(players, games);
        games += 1;
    }
    let t = start.elapsed().as_secs_f64();
    (games as f64 / t, decisions as f64 / t)
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
    // `cargo bench -- WORD` measures only the scripts whose path contains WORD.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filter.is_empty() {
        scripts.retain(|s| filter.iter().any(|f| s.contains(f.as_str())));
    }
    println!(
        "random playouts on one core ({:.0} s each)",
        budget().as_secs_f64()
    );
    println!(
        "{:<28} {:>8} {:>12} {:>14} {:>12}",
        "script", "players", "games/s", "decisions/s", "state bytes"
    );
    for s in &scripts {
        let src = std::fs::read_to_string(s).expect("script");
        let Some(p) = check_source(&src).program else {
            println!("{s}: does not check");
            continue;
        };
        let players = p.min_players.max(2).min(p.max_players);
        let (g, d, size) = interpreted(s, players);
        let name = std::path::Path::new(s)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!("{name:<28} {players:>8} {g:>12.0} {d:>14.0} {size:>12}");
    }
    let (ig, id, _) = interpreted(&format!("{root}/examples/market-race.cardgame"), 2);
    let (hg, hd) = handwritten(2);
    println!();
    println!("Market Race, 2 players: interpreted {ig:.0} games/s ({id:.0} decisions/s), hand-written {hg:.0} games/s ({hd:.0} decisions/s)");
    println!(
        "interpreter overhead: {:.2}x per decision, {:.2}x per game",
        hd / id,
        hg / ig
    );
}
