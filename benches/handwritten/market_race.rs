//! Benchmarks: Market Race written by hand in plain Rust, the baseline of examples/market-race.cardgame.
//!
//! The same rules as the script (goal 15, 2 to 4 players), random choices among the same options as the
//! engine offers (identical cards in a hand or the market are one option; a decision is asked even when
//! it has a single option).

use super::{distinct, Played};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GOAL: i32 = 15;

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

struct MarketRace {
    rng: ChaCha8Rng,
    seats: Vec<Seat>,
    supply: Vec<K>,
    market: Vec<K>,
    decisions: u64,
}

impl MarketRace {
    /// `move top n of p.deck to p.hand`: the discard pile is shuffled beneath the deck when it runs out.
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
    fn owned(&self, p: usize) -> usize {
        let s = &self.seats[p];
        s.deck.len() + s.hand.len() + s.played.len() + s.discard.len()
    }
    fn pick(&mut self, n: usize) -> usize {
        self.decisions += 1;
        self.rng.gen_range(0..n)
    }
    fn forge(&mut self, p: usize) {
        let options = distinct(self.seats[p].hand.iter().copied());
        if options.is_empty() {
            return;
        }
        let t = options[self.pick(options.len())];
        let i = self.seats[p].hand.iter().position(|&c| c == t).unwrap_or(0);
        self.seats[p].hand.remove(i);
        let gains: Vec<K> = distinct(self.market.iter().copied())
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
            if self.score(p) >= GOAL {
                return true;
            }
            let plays: Vec<K> = distinct(self.seats[p].hand.iter().copied())
                .into_iter()
                .filter(|c| !c.victory())
                .collect();
            let buys: Vec<K> = if self.seats[p].buys > 0 {
                let coins = self.seats[p].coins;
                distinct(self.market.iter().copied())
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
        self.score(p) >= GOAL
    }
    /// Most points wins; among tied players the one owning the fewest cards; still tied, they share.
    fn final_scoring(&self) -> u8 {
        let players = self.seats.len();
        let best = (0..players).map(|p| self.score(p)).max().unwrap_or(0);
        let leaders: Vec<usize> = (0..players).filter(|&p| self.score(p) == best).collect();
        let leanest = leaders.iter().map(|&p| self.owned(p)).min().unwrap_or(0);
        leaders
            .into_iter()
            .filter(|&p| self.owned(p) == leanest)
            .fold(0, |w, p| w | 1 << p)
    }
}

/// Plays one game with random choices seeded by `seed`.
pub fn play(players: usize, seed: u64) -> Played {
    let mut g = MarketRace {
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
    loop {
        for p in 0..players {
            if g.turn(p) {
                return Played {
                    decisions: g.decisions,
                    winners: 1 << p,
                    reason: "reached 15 victory points",
                };
            }
        }
        if g.supply.is_empty() {
            break;
        }
    }
    Played {
        decisions: g.decisions,
        winners: g.final_scoring(),
        reason: "most victory points when the supply ran out",
    }
}
