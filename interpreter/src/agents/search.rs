//! Agents stage: `greedy` (one step of look-ahead) and `mcts` (Monte Carlo tree search over possible
//! worlds). Both see only their own seat's view: every look-ahead starts from a possible world
//! (`Game::determinize`), so hidden cards never steer them.
//!
//! Both know nothing of any game: they only apply options and read the script's own measure of a
//! position (`fn heuristic(p: player): int`, else `fn score(p: player): int`, through
//! `Game::script_score`) and its goals (teams, shared wins: `goals.rs`). Shared pieces:
//! - *forced moves*: a decision with a single option is taken at once, without search, and a
//!   look-ahead runs on through such decisions before it judges a position;
//! - *no idle loops*: an agent never takes the same option twice from the same position (as its seat
//!   sees it) in one turn, so an option that leads back where it started (an offer declined, say) cannot
//!   keep a turn going for ever.

use super::explain::{valued, weighed, Explanation, Notes};
use super::goals::{evaluate, Goals};
use super::Agent;
use crate::engine::{Decision, Game, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// The most forced decisions a look-ahead takes in a row before it judges the position anyway.
const FORCED_LIMIT: u32 = 200;

/// Takes the decisions that offer a single option, whoever decides, up to [`FORCED_LIMIT`] of them.
pub(super) fn run_forced(g: &mut Game) {
    for _ in 0..FORCED_LIMIT {
        match g.status() {
            Status::Decision(d) if d.options.len() == 1 => {
                if g.apply(0).is_err() {
                    return;
                }
            }
            _ => return,
        }
    }
}

/// Decisions of one turn after which a player without a value to see its progress by (a play-out
/// policy, in `policy`, in the search's play-outs and in `learn`'s self-play) ends the turn where it
/// can ([`wander_exits`]). A turn of the published games takes at most a few dozen decisions; one
/// of buying and selling at one price never ends by itself.
pub const TURN_WANDER: u64 = 100;

/// Whether the turn of `game` has run [`TURN_WANDER`] decisions. Never before the first turn: in a
/// flow without turns (a solitaire's) only the end of the game would end a wander.
pub fn long_turn(game: &Game) -> bool {
    game.turns() > 0 && game.decisions_in_turn() >= TURN_WANDER
}

/// Whether `after`, a position reached from a decision of `seat` in turn `turn` (the forced
/// decisions after it taken), hands the game on: someone else decides, the turn changed or the game
/// ended.
pub(super) fn hands_on(after: &Game, turn: u32, seat: u8) -> bool {
    after.turns() != turn || !matches!(after.status(), Status::Decision(d) if d.player == seat)
}

/// Where the turn of `game` has run [`TURN_WANDER`] decisions: the options of its pending decision
/// that hand the game on (after it, and the forced decisions that follow, someone else decides, the
/// turn changes or the game ends), found by trying each; `None` before that, or where none does.
pub fn wander_exits(game: &Game) -> Option<Vec<usize>> {
    if !long_turn(game) {
        return None;
    }
    let Status::Decision(d) = game.status() else {
        return None;
    };
    let (seat, turn) = (d.player, game.turns());
    let exits: Vec<usize> = (0..d.options.len())
        .filter(|&i| {
            let mut g = game.clone();
            g.set_recording(false);
            g.set_labels(false);
            if g.apply(i).is_err() {
                return false;
            }
            run_forced(&mut g);
            hands_on(&g, turn, seat)
        })
        .collect();
    (!exits.is_empty()).then_some(exits)
}

/// At the root of a search, in a turn that has run [`TURN_WANDER`] decisions: `allowed` kept to the
/// options that hand the game on, tried in a world of `seat`'s view dealt by a seed, where any of
/// them does (the seed drawn from `rng` only then). Whether the turn is that long.
pub(super) fn keep_to_exits(
    game: &Game,
    seat: u8,
    rng: &mut impl Rng,
    allowed: &mut Vec<usize>,
) -> bool {
    if !long_turn(game) {
        return false;
    }
    if let Some(exits) = wander_exits(&game.determinize(seat, rng.gen())) {
        let leaving: Vec<usize> = allowed
            .iter()
            .copied()
            .filter(|i| exits.contains(i))
            .collect();
        if !leaving.is_empty() {
            *allowed = leaving;
        }
    }
    true
}

/// Why a search took its only option without searching: the wander's exit or the loop guard's.
pub(super) fn only_option_why(long: bool) -> &'static str {
    match long {
        true => WANDER_EXIT,
        false => LOOP_GUARD,
    }
}

/// `chances` with every option but `exits` at 0, the rest scaled to sum to 1 (all of them at the
/// same chance where the policy gave them none).
pub fn only_exits(chances: &mut [f64], exits: &[usize]) {
    let total: f64 = exits.iter().filter_map(|&i| chances.get(i)).sum();
    for (i, c) in chances.iter_mut().enumerate() {
        *c = match exits.contains(&i) {
            false => 0.0,
            true if total > 0.0 => *c / total,
            true => 1.0 / exits.len() as f64,
        };
    }
}

/// Why a search took an option without searching in a turn that has run [`TURN_WANDER`]
/// decisions: the only one that ends it (or the loop guard's).
pub(super) const WANDER_EXIT: &str =
    "the only option that hands the game on, in a turn of 100 decisions (it never wanders for ever), or the only one the loop guard leaves";

/// Why a search took an option without searching: the loop guard left it alone.
pub(super) const LOOP_GUARD: &str =
    "the only option it has not taken from this very position this turn (it never goes round in circles)";

/// Decisions of one turn in a row after which a one-step agent whose measure has not risen above
/// its best of the turn ends the turn where it can (`LoopGuard::wandering`).
pub(super) const WANDER_LIMIT: u32 = 30;

/// Remembers, for the current turn, which options the agent took from which positions (a hash of its
/// seat's view and of the decision), so that it does not go round in circles; and, for a one-step
/// agent, the best value it reached this turn and how many of its decisions since have not raised it,
/// so that it does not wander through positions it judges alike (buying and selling at one price)
/// where ending the turn looks worse: a wander ends the same way, later.
#[derive(Default)]
pub(super) struct LoopGuard {
    turn: u32,
    taken: HashMap<u64, HashSet<usize>>,
    best: Option<f64>,
    stale: u32,
}

impl LoopGuard {
    /// The position as the seat sees it, with every zone's cards sorted: buying a card and selling it
    /// back, which may change where it lies, still comes back to the same position.
    fn key(game: &Game, decision: &Decision) -> u64 {
        let mut view = game.view(decision.player);
        for z in &mut view.zones {
            z.cards.sort();
        }
        let mut h = DefaultHasher::new();
        format!("{view:?}").hash(&mut h);
        decision.prompt.hash(&mut h);
        decision.options.hash(&mut h);
        h.finish()
    }

    /// The options allowed now: all but those already taken from this very position this turn (all of
    /// them if every one was taken). Returns the key to pass to [`LoopGuard::record`].
    pub(super) fn allowed(&mut self, game: &Game, decision: &Decision) -> (u64, Vec<usize>) {
        if game.turns() != self.turn {
            self.turn = game.turns();
            self.taken.clear();
            self.best = None;
            self.stale = 0;
        }
        let key = Self::key(game, decision);
        let n = decision.options.len();
        let free: Vec<usize> = match self.taken.get(&key) {
            Some(t) => (0..n).filter(|i| !t.contains(i)).collect(),
            None => (0..n).collect(),
        };
        if free.is_empty() {
            (key, (0..n).collect())
        } else {
            (key, free)
        }
    }

    pub(super) fn record(&mut self, key: u64, choice: usize) {
        self.taken.entry(key).or_default().insert(choice);
    }

    /// Notes the value of the option a one-step agent took: a decision that does not raise the best
    /// value of the turn is one more of a wander.
    pub(super) fn progress(&mut self, value: f64) {
        match self.best {
            Some(b) if value <= b + 1e-9 => self.stale += 1,
            _ => {
                self.best = Some(value);
                self.stale = 0;
            }
        }
    }

    /// Whether the agent's last [`WANDER_LIMIT`] decisions of this turn did not raise its value: it
    /// should then end the turn where an option does (never before the first turn: in a flow
    /// without turns, only the end of the game would end it).
    pub(super) fn wandering(&self) -> bool {
        self.turn > 0 && self.stale >= WANDER_LIMIT
    }
}

/// One step of look-ahead: every option is tried in a few possible worlds (the same worlds for every
/// option), the forced decisions after it are taken, and the best average by [`evaluate`] is kept. Among
/// equally good options it prefers those that hand the game on (after them someone else decides, the
/// turn changes or the game ends): when nothing helps, it stops rather than wander; then at random.
pub struct GreedyAgent {
    rng: ChaCha8Rng,
    worlds: usize,
    guard: LoopGuard,
    /// Why it chose, kept only while asked (`choose_explained`).
    notes: Notes,
}

impl GreedyAgent {
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            worlds: 3,
            guard: LoopGuard::default(),
            notes: Notes::default(),
        }
    }
}

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.options.len() <= 1 {
            return 0;
        }
        let seat = decision.player;
        let (key, allowed) = self.guard.allowed(game, decision);
        let seeds: Vec<u64> = (0..self.worlds).map(|_| self.rng.gen()).collect();
        let turn = game.turns();
        // The sides are read in a possible world, never in the real game.
        let goals = Goals::of(&game.determinize(seat, seeds[0]));
        // Each option's value and whether it hands the game on.
        let mut scored = Vec::with_capacity(allowed.len());
        // The values compared, noted only when an explanation is asked for.
        let mut values = Vec::new();
        for &i in &allowed {
            let mut total = 0.0;
            let mut handed_on = false;
            for &s in &seeds {
                let mut g = game.determinize(seat, s);
                g.set_recording(false);
                // The look-ahead counts options, never reads them.
                g.set_labels(false);
                if g.apply(i).is_err() {
                    total += -2_000_000.0;
                    continue;
                }
                run_forced(&mut g);
                handed_on |= hands_on(&g, turn, seat);
                total += evaluate(&mut g, &goals, seat);
            }
            let v = total / seeds.len() as f64;
            if self.notes.on {
                values.push((i, v));
            }
            scored.push((i, v, handed_on));
        }
        // A wander (`LoopGuard::wandering`) ends with the best option that hands the game on.
        let wander = self.guard.wandering() && scored.iter().any(|s| s.2);
        let mut best = (f64::NEG_INFINITY, Vec::new());
        for &(i, v, hands_on) in scored.iter().filter(|s| s.2 || !wander) {
            if v > best.0 + 1e-9 {
                best = (v, vec![(i, hands_on)]);
            } else if (v - best.0).abs() <= 1e-9 {
                best.1.push((i, hands_on));
            }
        }
        let ties: Vec<usize> = if best.1.iter().any(|t| t.1) {
            best.1.iter().filter(|t| t.1).map(|t| t.0).collect()
        } else {
            best.1.iter().map(|t| t.0).collect()
        };
        let choice = if ties.is_empty() {
            allowed[0]
        } else {
            ties[self.rng.gen_range(0..ties.len())]
        };
        let worlds = seeds.len();
        self.notes.keep(|| {
            let how = format!(
                "one step ahead in {worlds} possible worlds; value: the position after the option by \
                 the script's measure, averaged (a win counts 1,000,000)"
            );
            (how, valued(decision, &values, choice))
        });
        self.guard.record(key, choice);
        self.guard.progress(best.0);
        choice
    }
    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        Notes::explain(self, |a| &mut a.notes, game, decision)
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

/// Monte Carlo tree search with determinization. A search deals a few possible worlds consistent with
/// the agent's view (`worlds`); each iteration starts from one of them in turn and walks the tree by
/// option labels (UCB1 for the seat deciding at each node; forced decisions are taken without a node).
/// At a new node it plays on at random for `horizon` decisions (none by default: the script's measure
/// judges at once, which is cheap), then judges the position: a finished game by its winners, an
/// unfinished one by each seat's standing in the script's measure (`goals.rs`), turned into a reward in
/// (0, 1) by a logistic curve centred on the standing the seat had before the search and scaled by how
/// far the standings of the search's leaves spread. Measuring each leaf against the standing *in its
/// own world* keeps what a world's deal gives a seat out of the comparison between options.
pub struct MctsAgent {
    rng: ChaCha8Rng,
    iterations: u32,
    /// A budget in time per decision instead of iterations (`mcts:1s`); `iterations` is then the
    /// most iterations one decision may take.
    time: Option<std::time::Duration>,
    horizon: u32,
    exploration: f64,
    /// How many possible worlds one search deals; iteration `k` plays in world `k % worlds`.
    worlds: u32,
    guard: LoopGuard,
    /// Why it chose, kept only while asked (`choose_explained`).
    notes: Notes,
}

/// A possible world of one search, its sides, and every seat's standing in it before anything is chosen.
struct World {
    game: Game,
    goals: Goals,
    root: Vec<f64>,
}

/// The scale of the logistic curve: the running mean distance of the leaves' standings from the root's.
#[derive(Default)]
pub(super) struct Scale {
    spread_sum: f64,
    samples: u32,
}

impl Scale {
    /// Rewards per seat in [0, 1] for the end of a play-out that started in a world with `root`
    /// standings, by the goals the script declares (see `goals.rs`): a finished game by its winning
    /// sides; an unfinished one (or one nobody won) by each seat's gain in standing since the root,
    /// through a logistic curve.
    pub(super) fn rewards(&mut self, game: &mut Game, root: &[f64], goals: &Goals) -> Vec<f64> {
        let n = game.players() as usize;
        let shares = match game.status() {
            Status::Over(o) => goals.shares(o),
            Status::Error(_) => return vec![0.0; n],
            Status::Decision(_) => None,
        };
        if let Some(s) = shares {
            return s;
        }
        let Some(standings) = goals.standings(game) else {
            return vec![0.5; n];
        };
        let gain: Vec<f64> = standings
            .iter()
            .zip(root.iter().chain(std::iter::repeat(&0.0)))
            .map(|(l, r)| l - r)
            .collect();
        for g in &gain {
            self.spread_sum += g.abs();
            self.samples += 1;
        }
        let scale = (self.spread_sum / f64::from(self.samples.max(1))).max(1.0);
        gain.iter()
            .map(|g| 1.0 / (1.0 + (-g / scale).exp()))
            .collect()
    }
}

/// The most iterations a search with a time budget runs for one decision.
const TIMED_MAX_ITERATIONS: u32 = 1_000_000;

impl MctsAgent {
    /// A search that thinks for `time` per decision (at least one iteration; its choices then depend on
    /// the speed of the machine).
    pub fn timed(seed: u64, time: std::time::Duration) -> Self {
        MctsAgent {
            time: Some(time),
            ..MctsAgent::new(seed, TIMED_MAX_ITERATIONS)
        }
    }

    pub fn new(seed: u64, iterations: u32) -> Self {
        MctsAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            iterations: iterations.max(1),
            time: None,
            horizon: 0,
            exploration: 0.7,
            worlds: 16,
            guard: LoopGuard::default(),
            notes: Notes::default(),
        }
    }

    /// One iteration: a possible world, a walk down the tree, a short play-out, the backup.
    fn iterate(
        &mut self,
        world: &World,
        allowed: &[usize],
        nodes: &mut Vec<Node>,
        scale: &mut Scale,
    ) {
        let seats = world.game.players() as usize;
        let mut g = world.game.clone();
        let mut path = vec![0usize];
        let mut node = 0usize;
        let mut at_root = true;
        loop {
            run_forced(&mut g);
            // The decision is read in place; only the label of a new child is copied.
            let (i, next) = {
                let Status::Decision(d) = g.status() else {
                    break;
                };
                let parent_visits = f64::from(nodes[node].visits.max(1));
                let mut unvisited = Vec::new();
                let mut best = (f64::NEG_INFINITY, usize::MAX);
                for (i, label) in d.options.iter().enumerate() {
                    if at_root && !allowed.contains(&i) {
                        continue;
                    }
                    match nodes[node].children.get(label) {
                        None => unvisited.push(i),
                        Some(&c) => {
                            let ch = &nodes[c];
                            let visits = f64::from(ch.visits.max(1));
                            let mean =
                                ch.reward.get(d.player as usize).copied().unwrap_or(0.0) / visits;
                            let ucb =
                                mean + self.exploration * (parent_visits.ln() / visits).sqrt();
                            if ucb > best.0 {
                                best = (ucb, i);
                            }
                        }
                    }
                }
                if !unvisited.is_empty() {
                    let i = unvisited[self.rng.gen_range(0..unvisited.len())];
                    (i, Err(d.options[i].clone()))
                } else {
                    let i = best.1;
                    let Some(&child) = d.options.get(i).and_then(|l| nodes[node].children.get(l))
                    else {
                        break;
                    };
                    (i, Ok(child))
                }
            };
            at_root = false;
            if g.apply(i).is_err() {
                break;
            }
            match next {
                // A new child: added, and the walk stops there.
                Err(label) => {
                    nodes.push(Node {
                        reward: vec![0.0; seats],
                        ..Node::default()
                    });
                    let child = nodes.len() - 1;
                    nodes[node].children.insert(label, child);
                    path.push(child);
                    break;
                }
                Ok(child) => {
                    node = child;
                    path.push(node);
                }
            }
        }
        for _ in 0..self.horizon {
            let k = match g.status() {
                Status::Decision(d) => d.options.len(),
                _ => break,
            };
            if g.apply(self.rng.gen_range(0..k.max(1))).is_err() {
                break;
            }
        }
        run_forced(&mut g);
        let r = scale.rewards(&mut g, &world.root, &world.goals);
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
        let (key, mut allowed) = self.guard.allowed(game, decision);
        // A turn that has run `TURN_WANDER` decisions ends where an option hands the game on.
        let long = keep_to_exits(game, decision.player, &mut self.rng, &mut allowed);
        if allowed.len() == 1 {
            self.notes
                .keep(|| (only_option_why(long).to_string(), Vec::new()));
            self.guard.record(key, allowed[0]);
            return allowed[0];
        }
        let seats = game.players() as usize;
        let mut nodes: Vec<Node> = vec![Node {
            reward: vec![0.0; seats],
            ..Node::default()
        }];
        let worlds: Vec<World> = (0..self.worlds.min(self.iterations))
            .map(|_| {
                let mut game = game.determinize(decision.player, self.rng.gen());
                game.set_recording(false);
                let goals = Goals::of(&game);
                let root = goals
                    .standings(&mut game)
                    .unwrap_or_else(|| vec![0.0; seats]);
                World { game, goals, root }
            })
            .collect();
        let mut scale = Scale::default();
        let started = std::time::Instant::now();
        let mut done = 0;
        for k in 0..self.iterations {
            if k > 0 && self.time.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            let world = &worlds[k as usize % worlds.len()];
            self.iterate(world, &allowed, &mut nodes, &mut scale);
            done += 1;
        }
        // The most visited of the allowed options (the best mean reward among equals).
        let root = &nodes[0];
        let mut best = (0u32, f64::NEG_INFINITY, allowed[0]);
        for &i in &allowed {
            if let Some(&c) = root.children.get(&decision.options[i]) {
                let ch = &nodes[c];
                let mean = ch
                    .reward
                    .get(decision.player as usize)
                    .copied()
                    .unwrap_or(0.0)
                    / f64::from(ch.visits.max(1));
                if (ch.visits, mean) > (best.0, best.1) {
                    best = (ch.visits, mean, i);
                }
            }
        }
        self.notes.keep(|| {
            let how = format!(
                "{done} iterations in {} possible worlds; value: its mean reward (0 a loss, 1 a \
                 win), the most visited option taken",
                worlds.len()
            );
            let options = weighed(decision, &allowed, best.2, |i| {
                let c = *root.children.get(&decision.options[i])?;
                let ch = &nodes[c];
                let mean = ch
                    .reward
                    .get(decision.player as usize)
                    .copied()
                    .unwrap_or(0.0)
                    / f64::from(ch.visits.max(1));
                Some((ch.visits, mean))
            });
            (how, options)
        });
        self.guard.record(key, best.2);
        best.2
    }
    fn choose_explained(&mut self, game: &Game, decision: &Decision) -> (usize, Explanation) {
        Notes::explain(self, |a| &mut a.notes, game, decision)
    }
    fn name(&self) -> String {
        match self.time {
            Some(t) if t.subsec_millis() == 0 => format!("mcts:{}s", t.as_secs()),
            Some(t) => format!("mcts:{}ms", t.as_millis()),
            None => format!("mcts:{}", self.iterations),
        }
    }
}
