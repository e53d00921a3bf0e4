//! Benchmarks: Duel written by hand in plain Rust, the baseline of examples/duel.cardgame.
//!
//! The same rules as the script (two players, 20 rounds), including its reaction window: the defender
//! decides during the attacker's turn whether to Parry (which ends the attacker's turn) and which
//! Shields to discard, one at a time with a `done` option. Random choices among the same options as the
//! engine offers: identical cards of a hand are one option, a decision is asked even when it has a
//! single option, and `choose any` asks nothing once no Shield is left to choose.

use super::{distinct, Played};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ROUNDS: usize = 20;
const HAND: usize = 5;
const MAX_HEALTH: i32 = 10;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum D {
    Strike,
    Raid,
    Potion,
    Focus,
    Buckler,
    TowerShield,
    Parry,
}

impl D {
    /// Attacks and Spells are played on one's own turn; Shields and Reactions wait for an attack.
    fn playable(self) -> bool {
        matches!(self, D::Strike | D::Raid | D::Potion | D::Focus)
    }
    /// How much a Shield blocks (0 for the other cards).
    fn guard(self) -> i32 {
        match self {
            D::Buckler => 1,
            D::TowerShield => 2,
            _ => 0,
        }
    }
}

/// One duellist's deck, by kind and number of copies (`copies N * players`, dealt out evenly).
const DECK: [(D, usize); 7] = [
    (D::Strike, 4),
    (D::Raid, 2),
    (D::Potion, 2),
    (D::Focus, 1),
    (D::Buckler, 2),
    (D::TowerShield, 1),
    (D::Parry, 1),
];

#[derive(Default, Clone)]
struct Seat {
    /// The top of the deck is the end of the vector.
    deck: Vec<D>,
    hand: Vec<D>,
    discard: Vec<D>,
    health: i32,
}

/// What an attack left behind: the attacker's turn goes on, or a Parry ended it.
#[derive(PartialEq, Eq)]
enum Flow {
    Goes,
    TurnEnds,
}

struct Duel {
    rng: ChaCha8Rng,
    seats: [Seat; 2],
    /// How much of the current attack gets through (`var incoming: int = 0 min 0`).
    incoming: i32,
    decisions: u64,
}

impl Duel {
    fn pick(&mut self, n: usize) -> usize {
        self.decisions += 1;
        self.rng.gen_range(0..n)
    }
    /// `move top n of p.deck to p.hand`: when the deck holds fewer than n cards, the discard pile is
    /// shuffled and put beneath it (`refill from discard`).
    fn draw(&mut self, p: usize, n: usize) {
        let s = &mut self.seats[p];
        if s.deck.len() < n && !s.discard.is_empty() {
            let mut under = std::mem::take(&mut s.discard);
            under.shuffle(&mut self.rng);
            under.append(&mut s.deck);
            s.deck = under;
        }
        for _ in 0..n {
            match s.deck.pop() {
                Some(c) => s.hand.push(c),
                None => return,
            }
        }
    }
    /// Moves one card of kind `c` from p's hand to p's discard pile.
    fn discard(&mut self, p: usize, c: D) {
        let s = &mut self.seats[p];
        if let Some(i) = s.hand.iter().position(|&x| x == c) {
            s.hand.swap_remove(i);
            s.discard.push(c);
        }
    }
    /// The reaction window of an attack of `n` on `foe`.
    fn defend(&mut self, foe: usize, n: i32) -> Flow {
        self.incoming = n;
        if self.seats[foe].hand.contains(&D::Parry) {
            // "Parry" or "Take the attack".
            if self.pick(2) == 0 {
                self.discard(foe, D::Parry);
                self.incoming = 0;
                return Flow::TurnEnds;
            }
        }
        // `choose any` Shield, one at a time: identical Shields are one option, the next copy is
        // offered again once one is picked, and nothing is asked once every Shield is chosen.
        let mut shields: Vec<D> = self.seats[foe]
            .hand
            .iter()
            .copied()
            .filter(|c| c.guard() > 0)
            .collect();
        let mut blocks: Vec<D> = Vec::new();
        while !shields.is_empty() {
            let options = distinct(shields.iter().copied());
            let i = self.pick(options.len() + 1);
            if i == options.len() {
                break;
            }
            let j = shields.iter().position(|&c| c == options[i]).unwrap_or(0);
            blocks.push(shields.swap_remove(j));
        }
        for s in blocks {
            self.incoming = (self.incoming - s.guard()).max(0);
            self.discard(foe, s);
        }
        Flow::Goes
    }
    /// Plays card `c` of p's hand; `Some(winner)` when it knocks the opponent out.
    fn play_card(&mut self, p: usize, c: D) -> (Flow, Option<usize>) {
        self.discard(p, c);
        let foe = 1 - p;
        match c {
            D::Strike => {
                if self.defend(foe, 3) == Flow::TurnEnds {
                    return (Flow::TurnEnds, None);
                }
                let s = &mut self.seats[foe];
                s.health = (s.health - self.incoming).max(0);
                if s.health == 0 {
                    return (Flow::Goes, Some(p));
                }
            }
            D::Raid => {
                if self.defend(foe, 2) == Flow::TurnEnds {
                    return (Flow::TurnEnds, None);
                }
                let n = (self.incoming as usize).min(self.seats[foe].hand.len());
                for _ in 0..n {
                    let options = distinct(self.seats[foe].hand.iter().copied());
                    let d = options[self.pick(options.len())];
                    self.discard(foe, d);
                }
            }
            D::Potion => {
                let s = &mut self.seats[p];
                s.health = (s.health + 2).min(MAX_HEALTH);
            }
            D::Focus => self.draw(p, 2),
            D::Buckler | D::TowerShield | D::Parry => {}
        }
        (Flow::Goes, None)
    }
    /// One turn of p; `Some(winner)` when somebody is knocked out.
    fn turn(&mut self, p: usize) -> Option<usize> {
        let held = self.seats[p].hand.len();
        if held < HAND {
            self.draw(p, HAND - held);
        }
        loop {
            let plays = distinct(self.seats[p].hand.iter().copied().filter(|c| c.playable()));
            let i = self.pick(plays.len() + 1);
            if i == plays.len() {
                return None;
            }
            match self.play_card(p, plays[i]) {
                (_, Some(winner)) => return Some(winner),
                (Flow::TurnEnds, None) => return None,
                (Flow::Goes, None) => {}
            }
        }
    }
}

/// Plays one game with random choices seeded by `seed`.
pub fn play(seed: u64) -> Played {
    let mut g = Duel {
        rng: ChaCha8Rng::seed_from_u64(seed),
        seats: Default::default(),
        incoming: 0,
        decisions: 0,
    };
    for p in 0..2 {
        let s = &mut g.seats[p];
        for (k, n) in DECK {
            s.deck.extend(std::iter::repeat_n(k, n));
        }
        s.deck.shuffle(&mut g.rng);
        s.health = MAX_HEALTH;
        g.draw(p, HAND);
    }
    for _ in 0..ROUNDS {
        for p in 0..2 {
            if let Some(winner) = g.turn(p) {
                return Played {
                    decisions: g.decisions,
                    winners: 1 << winner,
                    reason: "last one standing",
                };
            }
        }
    }
    let best = g.seats.iter().map(|s| s.health).max().unwrap_or(0);
    Played {
        decisions: g.decisions,
        winners: (0..2)
            .filter(|&p| g.seats[p].health == best)
            .fold(0, |w, p| w | 1 << p),
        reason: "the healthiest when time ran out",
    }
}
