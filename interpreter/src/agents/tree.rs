//! Agents stage: the tree of `ismcts` (its nodes, the estimate of an option at the root) and how a
//! walk down it chooses at each node: PUCT where a model gives a prior over the options, else UCB1
//! over each option's availability.

use std::collections::HashMap;

/// The weight of the play-out strategy's own choice at a node of the tree: a bonus of
/// `PRIOR / (visits + 1)` on its mean reward (rewards are between 0 and 1).
pub const PRIOR: f64 = 3.0;
/// At a node with a prior over its options (the model's), the weight of an option's chance in its
/// score: `mean + PUCT × chance × √(visits of the node's options + 1) / (visits + 1)` (PUCT, as
/// AlphaZero selects).
pub const PUCT: f64 = 1.0;
/// At a node with a prior, an option not yet tried counts as the node's mean reward less this
/// (first-play urgency): it is tried when its chance outweighs what the tried ones showed.
pub const FIRST_PLAY: f64 = 0.1;

/// A node of the tree: an option label's statistics below its parent.
pub(super) struct Node {
    pub(super) visits: u32,
    /// Iterations in which this node's option was legal at its parent.
    pub(super) available: u32,
    /// Reward sums per seat.
    pub(super) reward: Vec<f64>,
    /// Sums of the squared rewards per seat (for the spread of the mean at the root).
    pub(super) squares: Vec<f64>,
    /// Each option's node by its label. Looked up at every option of every node a walk passes, so
    /// with `rustc-hash`'s quick hash (labels come from the script, not from an adversary).
    pub(super) children: HashMap<String, usize, rustc_hash::FxBuildHasher>,
    /// The play-out policy's chances here, where the search follows them (`Guide::chances_held`).
    pub(super) chances: Option<Box<super::guide::HeldChances>>,
}

impl Node {
    pub(super) fn new(seats: usize) -> Node {
        Node {
            visits: 0,
            available: 0,
            reward: vec![0.0; seats],
            squares: vec![0.0; seats],
            children: HashMap::default(),
            chances: None,
        }
    }
}

/// How many standard errors of the difference an option's mean reward must exceed the play-out
/// strategy's own move's by for the search to prefer it (one-sided, about 95%).
pub const EVIDENCE: f64 = 1.645;

/// An option's mean reward at the root for the deciding seat, with the variance of that mean.
pub(super) struct Estimate {
    pub(super) visits: u32,
    pub(super) mean: f64,
    /// The variance of the mean (the rewards' variance over the visits).
    spread: f64,
}

impl Estimate {
    pub(super) fn of(node: &Node, seat: usize) -> Estimate {
        let n = f64::from(node.visits.max(1));
        let mean = node.reward.get(seat).copied().unwrap_or(0.0) / n;
        let square = node.squares.get(seat).copied().unwrap_or(0.0) / n;
        Estimate {
            visits: node.visits,
            mean,
            spread: (square - mean * mean).max(0.0) / n,
        }
    }

    /// Whether this mean is above `other`'s by [`EVIDENCE`] standard errors of the difference (and
    /// both have been visited at least twice).
    pub(super) fn better_than(&self, other: &Estimate) -> bool {
        self.visits >= 2
            && other.visits >= 2
            && self.mean - other.mean > EVIDENCE * (self.spread + other.spread).sqrt()
    }
}

/// What the walk down the tree does at a node.
pub(super) enum Step {
    /// Try this option, not yet tried here: a new node, then the play-out.
    Expand(usize),
    /// Follow this option to its node (the second number).
    Follow(usize, usize),
    /// Options never tried here, one of which is tried next (UCB1 tries every option once).
    Untried(Vec<usize>),
    /// No option may be taken.
    Stuck,
}

/// The step at `node` where the model gives a `prior` over the decision's `options` (PUCT): each
/// option `legal` here scores its mean reward for the deciding `player` (an untried one the node's
/// mean less [`FIRST_PLAY`]) plus `PUCT × chance × √(visits of the tried options + 1) / (visits
/// + 1)`; the highest is followed, or tried when new. The tried options' availability counts.
pub(super) fn by_prior(
    nodes: &mut [Node],
    node: usize,
    (options, player): (&[String], usize),
    prior: &[f64],
    legal: impl Fn(usize) -> bool,
) -> Step {
    let here = &nodes[node];
    let untried = here.reward.get(player).copied().unwrap_or(0.0) / f64::from(here.visits.max(1))
        - FIRST_PLAY;
    let mut tried = 0.0;
    for (i, label) in options.iter().enumerate() {
        if let Some(c) = legal(i).then(|| nodes[node].children.get(label)).flatten() {
            let c = *c;
            nodes[c].available += 1;
            tried += f64::from(nodes[c].visits);
        }
    }
    let scale = PUCT * (tried + 1.0).sqrt();
    let mut best: Option<(f64, usize, Option<usize>)> = None;
    for (i, label) in options.iter().enumerate().filter(|&(i, _)| legal(i)) {
        let child = nodes[node].children.get(label).copied();
        let (mean, visits) = match child {
            Some(c) => {
                let n = f64::from(nodes[c].visits.max(1));
                let sum = nodes[c].reward.get(player).copied().unwrap_or(0.0);
                (sum / n, f64::from(nodes[c].visits))
            }
            None => (untried, 0.0),
        };
        let score = mean + scale * prior.get(i).copied().unwrap_or(0.0) / (visits + 1.0);
        if best.is_none_or(|b| score > b.0) {
            best = Some((score, i, child));
        }
    }
    match best {
        Some((_, i, Some(c))) => Step::Follow(i, c),
        Some((_, i, None)) => Step::Expand(i),
        None => Step::Stuck,
    }
}

/// The step at `node` without a prior (UCB1 over each option's availability): every option `legal`
/// here is tried once first; then the highest mean reward for the deciding `player` plus
/// `exploration × √(ln availability / visits)`, the play-out strategy's own choice (`preferred`)
/// favoured by `PRIOR / (visits + 1)`.
pub(super) fn by_bound(
    nodes: &mut [Node],
    node: usize,
    (options, player): (&[String], usize),
    legal: impl Fn(usize) -> bool,
    (exploration, preferred): (f64, Option<usize>),
) -> Step {
    let mut untried = Vec::new();
    let mut best: Option<(f64, usize, usize)> = None;
    for (i, label) in options.iter().enumerate().filter(|&(i, _)| legal(i)) {
        let Some(&c) = nodes[node].children.get(label) else {
            untried.push(i);
            continue;
        };
        let child = &mut nodes[c];
        child.available += 1;
        let visits = f64::from(child.visits.max(1));
        let mean = child.reward.get(player).copied().unwrap_or(0.0) / visits;
        let mut bound =
            mean + exploration * (f64::from(child.available.max(1)).ln() / visits).sqrt();
        if preferred == Some(i) {
            bound += PRIOR / (visits + 1.0);
        }
        if best.is_none_or(|b| bound > b.0) {
            best = Some((bound, i, c));
        }
    }
    match best {
        _ if !untried.is_empty() => Step::Untried(untried),
        Some((_, i, c)) => Step::Follow(i, c),
        None => Step::Stuck,
    }
}

#[cfg(test)]
mod tests {
    use super::{by_prior, Estimate, Node, Step};

    /// A root with `children` (visits, wins for seat 0) tried under the labels `a`, `b`, ...
    fn tree(children: &[(u32, u32)]) -> (Vec<Node>, Vec<String>) {
        let mut nodes = vec![Node::new(1)];
        let labels: Vec<String> = (0..3).map(|i| ((b'a' + i) as char).to_string()).collect();
        for (k, &(visits, wins)) in children.iter().enumerate() {
            let mut child = Node::new(1);
            child.visits = visits;
            child.reward[0] = f64::from(wins);
            nodes[0].visits += visits;
            nodes[0].reward[0] += f64::from(wins);
            nodes.push(child);
            nodes[0].children.insert(labels[k].clone(), k + 1);
        }
        (nodes, labels)
    }

    #[test]
    fn puct_stays_on_the_likely_option_until_it_disappoints() {
        let prior = [0.8, 0.15, 0.05];
        let step = |children: &[(u32, u32)]| {
            let (mut nodes, labels) = tree(children);
            match by_prior(&mut nodes, 0, (&labels, 0), &prior, |_| true) {
                Step::Expand(i) => format!("try {}", labels[i]),
                Step::Follow(i, _) => format!("follow {}", labels[i]),
                Step::Untried(_) | Step::Stuck => "none".to_string(),
            }
        };
        // First the likeliest option; while it does as well as the node, it is followed again
        // rather than every other option tried once.
        assert_eq!(step(&[]), "try a");
        assert_eq!(step(&[(4, 2)]), "follow a");
        // Once it keeps losing, the next likeliest is tried.
        assert_eq!(step(&[(8, 0)]), "try b");
        // Only the legal options compete.
        let (mut nodes, labels) = tree(&[(4, 2)]);
        assert!(matches!(
            by_prior(&mut nodes, 0, (&labels, 0), &prior, |i| i == 2),
            Step::Expand(2)
        ));
    }

    /// A root child visited `n` times for seat 0 with rewards `wins` of 1 and the rest 0.
    fn child(n: u32, wins: u32) -> Estimate {
        let mut node = Node::new(1);
        node.visits = n;
        node.reward[0] = f64::from(wins);
        node.squares[0] = f64::from(wins);
        Estimate::of(&node, 0)
    }

    #[test]
    fn the_strategy_move_is_left_only_on_evidence() {
        // 60% against 50% over 20 visits each: within the noise.
        assert!(!child(20, 12).better_than(&child(20, 10)));
        // 60% against 50% over 1,000 visits each: about 4.5 standard errors.
        assert!(child(1000, 600).better_than(&child(1000, 500)));
        // Never on a single visit, never when worse.
        assert!(!child(1, 1).better_than(&child(1, 0)));
        assert!(!child(1000, 400).better_than(&child(1000, 500)));
        let e = child(4, 2);
        assert!((e.mean - 0.5).abs() < 1e-9 && (e.spread - 0.0625).abs() < 1e-9);
    }
}
