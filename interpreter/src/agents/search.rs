//! Agents stage: `greedy` (one step of look-ahead) and `mcts` (Monte Carlo tree search over possible
//! worlds). Both see only their own seat's view: before every look-ahead they redeal the cards they
//! cannot see (`Game::determinize`), so hidden cards never steer them.

use super::Agent;
use crate::engine::{Decision, Game, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// How good a position is for `seat`: a win is worth most, a loss least; otherwise the script's own
/// `score` (its lead over the best other seat), or 0 when the script declares none.
pub fn evaluate(game: &Game, seat: u8) -> f64 {
    match game.status() {
        Status::Over(o) => {
            if o.winners.contains(&seat) {
                1_000_000.0 / o.winners.len() as f64
            } else if o.winners.is_empty() {
                0.0
            } else {
                -1_000_000.0
            }
        }
        Status::Error(_) => -2_000_000.0,
        Status::Decision(_) => {
            let Some(mine) = game.script_score(seat) else {
                return 0.0;
            };
            let best_other = (0..game.players())
                .filter(|&p| p != seat)
                .filter_map(|p| game.script_score(p))
                .max()
                .unwrap_or(0);
            (mine - best_other) as f64
        }
    }
}

/// One step of look-ahead: every option is tried in a few possible worlds and the best average kept.
pub struct GreedyAgent {
    rng: ChaCha8Rng,
    worlds: usize,
}

impl GreedyAgent {
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            worlds: 3,
        }
    }
}

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        let n = decision.options.len();
        if n <= 1 {
            return 0;
        }
        let seat = decision.player;
        let seeds: Vec<u64> = (0..self.worlds).map(|_| self.rng.gen()).collect();
        let mut best = (f64::NEG_INFINITY, Vec::new());
        for i in 0..n {
            let mut total = 0.0;
            for &s in &seeds {
                let mut g = game.determinize(seat, s);
                g.set_recording(false);
                if g.apply(i).is_err() {
                    continue;
                }
                total += evaluate(&g, seat);
            }
            let v = total / seeds.len() as f64;
            if v > best.0 + 1e-9 {
                best = (v, vec![i]);
            } else if (v - best.0).abs() <= 1e-9 {
                best.1.push(i);
            }
        }
        let ties = best.1;
        if ties.is_empty() {
            return 0;
        }
        ties[self.rng.gen_range(0..ties.len())]
    }
    fn name(&self) -> String {
        "greedy".into()
    }
}

#[derive(Default)]
struct Node {
    visits: u32,
    /// Reward sums per seat.
    reward: Vec<f64>,
    children: HashMap<String, usize>,
}

/// Monte Carlo tree search with determinization: each iteration deals a possible world consistent with
/// the agent's view, walks the tree by option labels (UCB1 for the seat deciding at each node), plays
/// the rest at random for at most `horizon` decisions and backs up the result.
pub struct MctsAgent {
    rng: ChaCha8Rng,
    iterations: u32,
    horizon: u32,
}

impl MctsAgent {
    pub fn new(seed: u64, iterations: u32) -> Self {
        MctsAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            iterations: iterations.max(1),
            horizon: 150,
        }
    }

    /// Rewards per seat in [0, 1] for a position that may not be over.
    fn rewards(game: &Game) -> Vec<f64> {
        let n = game.players() as usize;
        match game.status() {
            Status::Over(o) if !o.winners.is_empty() => {
                let share = 1.0 / o.winners.len() as f64;
                (0..n)
                    .map(|p| {
                        if o.winners.contains(&(p as u8)) {
                            share
                        } else {
                            0.0
                        }
                    })
                    .collect()
            }
            Status::Decision(_) => {
                // Unfinished: rank the seats by the script's score, if any, inside (0.25, 0.75).
                let scores: Vec<Option<i64>> = (0..n as u8).map(|p| game.script_score(p)).collect();
                if scores.iter().all(|s| s.is_some()) {
                    let best = scores.iter().flatten().max().copied().unwrap_or(0);
                    let worst = scores.iter().flatten().min().copied().unwrap_or(0);
                    let span = (best - worst).max(1) as f64;
                    scores
                        .iter()
                        .map(|s| 0.5 * (s.unwrap_or(0) - worst) as f64 / span + 0.25)
                        .collect()
                } else {
                    vec![1.0 / n as f64; n]
                }
            }
            _ => vec![0.0; n],
        }
    }

    /// One iteration: a possible world, a walk down the tree, a play-out, the backup.
    fn iterate(&mut self, game: &Game, seat: u8, nodes: &mut Vec<Node>) {
        let seats = game.players() as usize;
        let mut g = game.determinize(seat, self.rng.gen());
        g.set_recording(false);
        let mut path = vec![0usize];
        let mut node = 0usize;
        while let Status::Decision(d) = g.status() {
            let d = d.clone();
            let parent_visits = f64::from(nodes[node].visits.max(1));
            let mut unvisited = Vec::new();
            let mut best = (f64::NEG_INFINITY, 0usize);
            for (i, label) in d.options.iter().enumerate() {
                match nodes[node].children.get(label) {
                    None => unvisited.push(i),
                    Some(&c) => {
                        let ch = &nodes[c];
                        let visits = f64::from(ch.visits.max(1));
                        let mean =
                            ch.reward.get(d.player as usize).copied().unwrap_or(0.0) / visits;
                        let ucb = mean + 1.4 * (parent_visits.ln() / visits).sqrt();
                        if ucb > best.0 {
                            best = (ucb, i);
                        }
                    }
                }
            }
            if !unvisited.is_empty() {
                let i = unvisited[self.rng.gen_range(0..unvisited.len())];
                let label = d.options[i].clone();
                if g.apply(i).is_err() {
                    break;
                }
                nodes.push(Node {
                    reward: vec![0.0; seats],
                    ..Node::default()
                });
                let child = nodes.len() - 1;
                nodes[node].children.insert(label, child);
                path.push(child);
                break;
            }
            let i = best.1;
            let Some(&child) = nodes[node].children.get(&d.options[i]) else {
                break;
            };
            if g.apply(i).is_err() {
                break;
            }
            node = child;
            path.push(node);
        }
        let mut steps = 0;
        while steps < self.horizon {
            let k = match g.status() {
                Status::Decision(d) => d.options.len(),
                _ => break,
            };
            if g.apply(self.rng.gen_range(0..k.max(1))).is_err() {
                break;
            }
            steps += 1;
        }
        let r = Self::rewards(&g);
        for &n in &path {
            let nd = &mut nodes[n];
            nd.visits += 1;
            for (acc, x) in nd.reward.iter_mut().zip(&r) {
                *acc += x;
            }
        }
    }
}

impl Agent for MctsAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.options.len() <= 1 {
            return 0;
        }
        let seats = game.players() as usize;
        let mut nodes: Vec<Node> = vec![Node {
            reward: vec![0.0; seats],
            ..Node::default()
        }];
        for _ in 0..self.iterations {
            self.iterate(game, decision.player, &mut nodes);
        }
        // The most visited of the real options.
        let root = &nodes[0];
        let mut best = (0u32, 0usize);
        for (i, label) in decision.options.iter().enumerate() {
            if let Some(&c) = root.children.get(label) {
                if nodes[c].visits > best.0 {
                    best = (nodes[c].visits, i);
                }
            }
        }
        best.1
    }
    fn name(&self) -> String {
        format!("mcts:{}", self.iterations)
    }
}
