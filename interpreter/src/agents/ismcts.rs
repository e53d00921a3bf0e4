//! Agents stage: `ismcts`, information-set Monte Carlo tree search (after Cowling, Powley and
//! Whitehouse, 2012): one tree over what the seat knows, searched in many possible worlds.
//!
//! - *Worlds consistent with what the seat observed.* Each decision draws a pool of possible worlds
//!   with `Game::consistent_world`: a whole new deal in which replaying the game's decisions shows the
//!   seat exactly what it saw, and in which the other players' choices are weighed as a uniformly
//!   random player would have made them (see engine/belief.rs). Such worlds are drawn by rejection,
//!   with at most [`TRIES_PER_WORLD`] tries per world wanted. **Fallback:** when fewer than a quarter
//!   of the pool is found, the search uses worlds from `Game::determinize` (what the seat sees now, the
//!   rest dealt at random) and stops trying consistent worlds for the rest of that game, since a longer
//!   history is only harder to match. In a game where the seat has seen many cards (a deck-builder's
//!   hands) the fallback is the rule; in a game of few hidden cards and telling choices (Monty Hall) the
//!   worlds are exact. With `:owners` the fallback deals each holder's unseen cards among that holder's
//!   unseen places (`Game::determinize_by_holder`: a player's deck and hand among themselves, the
//!   supply among the shared zones), what a seat with a perfect memory knows in a game where no card
//!   passes unseen from one holder to another (docs/cli.md, Agents).
//! - *One tree over the information set.* Iteration `k` plays in world `k % pool` with a fresh random
//!   generator, and walks one tree whose edges are option labels. At each node only the options legal
//!   in this world are candidates; UCB1 counts, for each child, the iterations in which it was
//!   available (its *availability*) instead of the parent's visits. Where a model gives a prior over
//!   the options, PUCT chooses instead (tree.rs): an option is tried when its chance
//!   outweighs what the tried ones showed, so a few iterations stay on the likely options.
//! - *Guided play-outs, cut off.* After the tree, the game is played on by a policy: the script's
//!   strategy named in the agent (`ismcts:1s:big_money`, for every seat; a decision none of its rules
//!   covers is taken at random) or uniformly at random, until a number of turns past the decision's
//!   have begun (`ismcts:1s:big_money:6`; by default 2, the turn after next; `end`: to the end of the
//!   game), or [`PLAYOUT_DECISIONS`] decisions; then the script's `heuristic` (else `score`) judges the position
//!   as `mcts` does: each seat's standing (its side's measure, `goals.rs`), relative to its standing
//!   in the same world before the search, through a logistic curve. A finished game counts its
//!   winning sides.
//! - *The choice.* The option visited most; with a play-out strategy, the strategy's own move in
//!   the real game unless the chosen option's mean reward beats it by [`EVIDENCE`] standard errors
//!   (so that the noise of few play-outs, or a heuristic that misjudges, does not pull the search
//!   below the strategy it starts from).
//!   With `:strict` (`ismcts:1s:NAME:strict`), a decision where one of the strategy's rules applies
//!   is not searched at all: the rule decides, and the search takes only the rest; below the root
//!   too, a decision the rules cover is taken by them without a node. `:strict=NAME` follows the
//!   rules of NAME instead, a rule set (`rules NAME { ... }`) or another strategy of the script,
//!   while the policy still plays the play-outs.
//! - *Budget.* `ismcts:500` iterations or `ismcts:1s` of thinking per decision (`ismcts` alone: 1,000
//!   iterations). Forced decisions are taken without search, and the loop guard of `mcts` keeps it from
//!   taking the same option twice from the same position in one turn.
//!
//! It never reads what its seat cannot see: the real game is read through the seat's view, its
//! options, and its history of choices (each of which the seat observed as a change of its view or not
//! at all); the test in engine/sample.rs checks that two games differing only in hidden cards give the
//! same choice.

use super::explain::{rule_named, weighed, Explanation, Notes};
use super::goals::Goals;
use super::guide::Guide;
use super::infer::Opponents;
use super::model::Model;
use super::search::{keep_to_exits, only_option_why, run_forced, LoopGuard, Scale};
use super::tree::{by_bound, by_prior, Estimate, Node, Step, EVIDENCE};
use super::Agent;
use crate::engine::{Decision, Game, Observations, RulesOf, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Consistent worlds tried per world wanted before the search falls back to `determinize`.
pub const TRIES_PER_WORLD: usize = 8;
/// The most decisions a play-out takes before the heuristic judges the position.
pub const PLAYOUT_DECISIONS: u32 = 400;
/// Iterations of `ismcts` without a budget.
pub const DEFAULT_ITERATIONS: u32 = 1000;

/// How the play-outs below the tree are played and where they stop.
#[derive(Clone, Debug, PartialEq)]
pub struct Playout {
    /// A strategy of the script (its index and name) that plays every seat, else uniformly random.
    pub strategy: Option<(usize, String)>,
    /// Turns the play-out runs past the turn of the decision before the heuristic judges the position
    /// (2: the turn after next begins); `None`: to the end of the game.
    pub turns: Option<u32>,
    /// The strategy's rules are followed wherever one applies; the search decides only the rest.
    pub strict: bool,
    /// With `strict`, a rule set or another strategy of the script (which one, and its name) whose
    /// rules are followed instead of the play-out policy's (`:strict=NAME`): the search then decides
    /// what NAME leaves open, with play-outs (and its preferred move) by the policy.
    pub rules: Option<(RulesOf, String)>,
    /// Worlds keep each player's unseen cards among that player's hidden zones
    /// (`Game::determinize_by_holder`, `:owners`).
    pub owners: bool,
    /// The other players' past decisions weigh the worlds by a model of how they play
    /// (`infer.rs`, `:infer`), not as uniform choices.
    pub infer: bool,
}

impl Default for Playout {
    fn default() -> Self {
        Playout {
            strategy: None,
            turns: Some(2),
            strict: false,
            rules: None,
            owners: false,
            infer: false,
        }
    }
}

impl Playout {
    /// How the play-out reads in the agent's name: empty for the default.
    fn suffix(&self) -> String {
        let policy = self.strategy.as_ref().map_or("random", |(_, s)| s.as_str());
        let mut flags = match (&self.rules, self.strict) {
            (Some((_, r)), true) => format!(":strict={r}"),
            (_, true) => ":strict".to_string(),
            _ => String::new(),
        };
        if self.owners {
            flags.push_str(":owners");
        }
        if self.infer {
            flags.push_str(":infer");
        }
        match self.turns {
            Some(2) if self.strategy.is_none() && flags.is_empty() => String::new(),
            Some(2) => format!(":{policy}{flags}"),
            Some(t) => format!(":{policy}:{t}{flags}"),
            None => format!(":{policy}:end{flags}"),
        }
    }
}

/// A possible world of one decision's search, its sides, and every seat's standing in it before anything is chosen.
struct World {
    game: Game,
    goals: Goals,
    root: Vec<f64>,
}

pub struct IsmctsAgent {
    rng: ChaCha8Rng,
    iterations: u32,
    /// A budget in time per decision instead of iterations; `iterations` is then a cap.
    time: Option<Duration>,
    /// A budget of positions per decision instead (`IsmctsAgent::by_positions`); `iterations`
    /// is then a cap.
    positions: Option<u64>,
    exploration: f64,
    /// Worlds drawn per decision.
    pool: usize,
    playout: Playout,
    guard: LoopGuard,
    /// What the seat has observed of the game so far.
    observed: Option<Observations>,
    /// Consistent worlds could not be drawn in this game: `determinize` from now on.
    fallback: bool,
    /// A learned model that judges where play-outs stop, and MAST play-outs (`guide.rs`).
    guide: Guide,
    /// The name it was asked by (`search:50ms`), when not its `ismcts` spec.
    called: Option<String>,
    /// With `:infer`, the model of the other players that weighs the worlds.
    opponents: Option<Opponents>,
    /// Why it chose, kept only while asked (`choose_explained`).
    notes: Notes,
    /// With a model: the model's prior over the root's options orders and favours them, and its
    /// most likely option is left only on evidence (`guide.rs`).
    model_move: bool,
    /// The model's prior over the current decision's options (by index; empty without one).
    root_prior: Vec<f64>,
    /// The model's move at the root of the current decision (the prior's most likely option).
    root_preferred: Option<usize>,
}

/// The most iterations a search with a time budget runs for one decision.
const TIMED_MAX_ITERATIONS: u32 = 1_000_000;

impl IsmctsAgent {
    pub fn new(seed: u64, iterations: u32, playout: Playout) -> Self {
        let opponents = playout.infer.then(|| {
            Opponents::new(
                seed.rotate_left(29) ^ 0x6A09_E667_F3BC_C908,
                playout.strategy.as_ref().map(|(s, _)| *s),
                playout.turns,
            )
        });
        IsmctsAgent {
            opponents,
            rng: ChaCha8Rng::seed_from_u64(seed),
            iterations: iterations.max(1),
            time: None,
            positions: None,
            exploration: 0.7,
            pool: 32,
            playout,
            guard: LoopGuard::default(),
            observed: None,
            fallback: false,
            guide: Guide::default(),
            called: None,
            notes: Notes::default(),
            model_move: false,
            root_prior: Vec::new(),
            root_preferred: None,
        }
    }

    /// The same search guided by `guide.rs`: judged by `model` where play-outs stop, with MAST
    /// play-outs when `mast`, starting from the model's prior when `model_move`, with play-outs
    /// drawn from the prior when `deep`; named `called`.
    pub fn guided(
        mut self,
        model: Option<Arc<Model>>,
        (mast, model_move, deep): (bool, bool, bool),
        called: String,
    ) -> Self {
        self.opponents = self.opponents.take().map(|o| o.with_model(model.clone()));
        self.model_move = model_move && model.is_some();
        self.guide = Guide::new(model, mast);
        self.guide.deep = deep;
        self.called = Some(called);
        self
    }

    /// Blends each play-out's reward with the model's judgement where the next turn began.
    pub fn blend(&mut self, on: bool) {
        self.guide.blend = on;
    }

    pub fn timed(seed: u64, time: Duration, playout: Playout) -> Self {
        IsmctsAgent {
            time: Some(time),
            ..IsmctsAgent::new(seed, TIMED_MAX_ITERATIONS, playout)
        }
    }

    /// A search with a budget of positions per decision: each iteration counts the positions it
    /// reached, every decision applied in its copy of a world (in the tree, forced, or in the
    /// play-out) and the position it judged at the end. A search that judges each position at once
    /// (`:now`) so runs many more iterations than one that plays to the end, as it would in the same
    /// time; and the same budget gives the same choices on any machine, whatever runs beside it.
    /// The drawing of the worlds and the model's prior at the root are not counted: every budget
    /// pays them alike.
    pub fn by_positions(seed: u64, positions: u64, playout: Playout) -> Self {
        IsmctsAgent {
            positions: Some(positions.max(1)),
            ..IsmctsAgent::new(seed, TIMED_MAX_ITERATIONS, playout)
        }
    }

    /// Whether the last decision's search played in worlds consistent with everything observed.
    pub fn infers(&self) -> bool {
        !self.fallback
    }

    /// The worlds of one decision: consistent ones when enough are found, else `determinize`'s.
    fn worlds(&mut self, game: &Game, seat: u8) -> Vec<World> {
        let wanted = self.pool.min(self.iterations as usize).max(1);
        let mut games = Vec::new();
        if !self.fallback {
            let fresh = match &mut self.observed {
                Some(o) => o.seat() != seat || !o.follow(game),
                None => true,
            };
            if fresh {
                self.observed = Observations::new(game, seat);
                if let Some(o) = &mut self.opponents {
                    o.forget();
                }
            }
            match &self.observed {
                Some(obs) => {
                    for _ in 0..wanted * TRIES_PER_WORLD {
                        let seed = self.rng.gen();
                        let drawn = match &mut self.opponents {
                            Some(model) => game.weighed_world(obs, seed, model),
                            None => game.consistent_world(obs, seed),
                        };
                        if let Some(w) = drawn {
                            games.push(w);
                            if games.len() == wanted {
                                break;
                            }
                        }
                    }
                    if games.len() * 4 < wanted {
                        games.clear();
                        self.fallback = true;
                    }
                }
                None => self.fallback = true,
            }
        }
        if games.is_empty() {
            games = (0..wanted)
                .map(|_| {
                    if self.playout.owners {
                        game.determinize_by_holder(seat, self.rng.gen())
                    } else {
                        game.determinize(seat, self.rng.gen())
                    }
                })
                .collect();
        }
        let seats = game.players() as usize;
        games
            .into_iter()
            .map(|mut g| {
                g.set_recording(false);
                let goals = Goals::of(&g);
                let root = goals.standings(&mut g).unwrap_or_else(|| vec![0.0; seats]);
                World {
                    game: g,
                    goals,
                    root,
                }
            })
            .collect()
    }

    /// The play-out strategy's own choice in the real game, when it is one of the `allowed` options.
    /// The strategy reads the game as the strategy agent does (a script's strategy reads only what its
    /// seat may see; W002 warns otherwise).
    fn policy_move(&self, game: &Game, allowed: &[usize]) -> Option<usize> {
        let (s, _) = self.playout.strategy.as_ref()?;
        match game.strategy_choice(*s) {
            Ok(Some(i)) if allowed.contains(&i) => Some(i),
            _ => None,
        }
    }

    /// The rules `:strict` follows (`strict=NAME`'s, else the policy's).
    fn strict_rules(&self) -> Option<RulesOf> {
        match (&self.playout.rules, &self.playout.strategy) {
            (Some((of, _)), _) => Some(*of),
            (None, Some((s, _))) => Some(RulesOf::Strategy(*s)),
            (None, None) => None,
        }
    }

    /// With `:strict`, the choice of the rules it follows (`strict=NAME`'s, else the policy's) in
    /// `game`, when one of them applies.
    fn rule_move(&self, game: &Game) -> Option<usize> {
        let of = self.strict_rules()?;
        let Status::Decision(d) = game.status() else {
            return None;
        };
        match game.rules_choice(of) {
            Ok(Some(i)) if i < d.options.len() => Some(i),
            _ => None,
        }
    }

    /// The play-out after the tree: the policy (a strategy, the model's play-out policy with `:deep`,
    /// MAST, else uniformly random) plays until `Playout::turns` turns past the decision's have begun,
    /// or to the end of the game. With `Guide::blend`, returns the model's judgement where the next turn began (`None` where
    /// the game ended before it, or without blending).
    fn play_out(&mut self, g: &mut Game, turn: u32, goals: &Goals) -> Option<Vec<f64>> {
        let mut midway = None;
        if self.playout.strategy.is_none() && !self.guide.mast && !self.guide.deep {
            // A random play-out counts options, never reads them.
            g.set_labels(false);
        }
        // To the end of the game: the game's own limits (turns, decisions in a turn) stop it.
        let limit = if self.playout.turns.is_some() {
            PLAYOUT_DECISIONS
        } else {
            u32::MAX
        };
        for _ in 0..limit {
            let k = match g.status() {
                Status::Decision(d) => d.options.len(),
                _ => return midway,
            };
            if self.playout.turns.is_some_and(|t| g.turns() >= turn + t) {
                return midway;
            }
            if self.guide.blend && midway.is_none() && g.turns() > turn {
                midway = self.guide.judge(g, goals);
            }
            let choice = match &self.playout.strategy {
                Some((s, _)) if k > 1 => match g.strategy_choice(*s) {
                    Ok(Some(i)) if i < k => i,
                    _ => self.rng.gen_range(0..k),
                },
                _ if k > 1 && self.guide.deep => {
                    let picked = match self.guide.pick_by_moves(g, &mut self.rng) {
                        Some(i) => Some(i),
                        None => self.guide.pick_by_prior(g, goals, &mut self.rng),
                    };
                    picked.unwrap_or_else(|| self.rng.gen_range(0..k))
                }
                _ if k > 1 && self.guide.mast => match g.status() {
                    Status::Decision(d) => {
                        let i = self.guide.pick(&d.options, &mut self.rng);
                        if let Some(l) = d.options.get(i) {
                            self.guide.note(d.player, l);
                        }
                        i
                    }
                    _ => 0,
                },
                _ => self.rng.gen_range(0..k.max(1)),
            };
            if g.apply(choice).is_err() {
                return midway;
            }
        }
        midway
    }

    /// One iteration: a world, a walk down the tree, a play-out, the backup. Returns the positions
    /// it reached (`IsmctsAgent::by_positions`).
    fn iterate(
        &mut self,
        world: &World,
        allowed: &[usize],
        nodes: &mut Vec<Node>,
        scale: &mut Scale,
    ) -> u64 {
        let seats = world.game.players() as usize;
        let mut g = world.game.clone();
        g.reseed(self.rng.gen());
        let turn = g.turns();
        let mut path = vec![0usize];
        let mut node = 0usize;
        let mut at_root = true;
        let mut ruled = 0;
        loop {
            run_forced(&mut g);
            // With `:strict`, a decision below the root that the rules cover is theirs, as in the
            // real game: no node, no search.
            if !at_root && self.playout.strict && ruled < PLAYOUT_DECISIONS {
                if let Some(i) = self.rule_move(&g) {
                    ruled += 1;
                    if g.apply(i).is_err() {
                        break;
                    }
                    continue;
                }
            }
            let Status::Decision(d) = g.status() else {
                break;
            };
            let player = d.player as usize;
            // The play-out strategy's own choice here, if it has one: tried first, and favoured by
            // a bonus that fades with its visits (a progressive bias), so the search plays the
            // strategy's move unless its play-outs show a better one.
            let preferred = match &self.playout.strategy {
                Some((s, _)) if d.options.len() > 1 => match g.strategy_choice(*s) {
                    Ok(Some(i)) => Some(i),
                    _ => None,
                },
                _ if at_root => self.root_preferred,
                _ => None,
            };
            // At the root, the model's prior over the options; below it (and at the root with
            // `:noprior`), with `:deep`, the chances of the model's play-out policy. Where there is
            // one, PUCT chooses (`by_prior`), else UCB1 (`by_bound`).
            let below = if self.guide.deep && (!at_root || self.root_prior.is_empty()) {
                self.guide.chances_held(&g, &mut nodes[node].chances)
            } else {
                None
            };
            let prior = if at_root && !self.root_prior.is_empty() {
                Some(&self.root_prior)
            } else {
                below.as_ref()
            };
            let Status::Decision(d) = g.status() else {
                break;
            };
            let step = match prior {
                Some(p) => by_prior(&mut nodes[..], node, (&d.options, player), p, |i| {
                    !at_root || allowed.contains(&i)
                }),
                None => {
                    let step = by_bound(
                        &mut nodes[..],
                        node,
                        (&d.options, player),
                        |i| !at_root || allowed.contains(&i),
                        (self.exploration, preferred),
                    );
                    match step {
                        Step::Untried(untried) => {
                            Step::Expand(match preferred.filter(|p| untried.contains(p)) {
                                Some(p) => p,
                                None => untried[self.rng.gen_range(0..untried.len())],
                            })
                        }
                        step => step,
                    }
                }
            };
            at_root = false;
            let (i, child) = match step {
                Step::Expand(i) => (i, None),
                Step::Follow(i, c) => (i, Some(c)),
                Step::Untried(_) | Step::Stuck => break,
            };
            let label = d.options[i].clone();
            self.guide.note(d.player, &label);
            if g.apply(i).is_err() {
                break;
            }
            match child {
                Some(c) => {
                    node = c;
                    path.push(node);
                }
                None => {
                    let mut child = Node::new(seats);
                    child.available = 1;
                    nodes.push(child);
                    let c = nodes.len() - 1;
                    nodes[node].children.insert(label, c);
                    path.push(c);
                    break;
                }
            }
        }
        let midway = self.play_out(&mut g, turn, &world.goals);
        run_forced(&mut g);
        let mut r = match self.guide.judge(&mut g, &world.goals) {
            Some(r) => r,
            None => scale.rewards(&mut g, &world.root, &world.goals),
        };
        // Blended: half the model's judgement where the next turn began, half where the play-out
        // ended (as AlphaGo mixed its value network with its roll-outs' outcomes).
        if let Some(m) = midway {
            for (x, y) in r.iter_mut().zip(&m) {
                *x = 0.5 * *x + 0.5 * y;
            }
        }
        self.guide.learn(&r);
        for &n in &path {
            let nd = &mut nodes[n];
            nd.visits += 1;
            for ((acc, sq), x) in nd.reward.iter_mut().zip(nd.squares.iter_mut()).zip(&r) {
                *acc += x;
                *sq += x * x;
            }
        }
        g.steps().saturating_sub(world.game.steps()) + 1
    }
}

impl Agent for IsmctsAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.options.len() <= 1 {
            return 0;
        }
        let (key, mut allowed) = self.guard.allowed(game, decision);
        // A turn that has run `TURN_WANDER` decisions ends where an option hands the game on (the
        // options tried in a world dealt from the seat's view).
        let long = keep_to_exits(game, decision.player, &mut self.rng, &mut allowed);
        if allowed.len() == 1 {
            self.notes
                .keep(|| (only_option_why(long).to_string(), Vec::new()));
            self.guard.record(key, allowed[0]);
            return allowed[0];
        }
        if self.playout.strict {
            if let Some(p) = self.rule_move(game).filter(|i| allowed.contains(i)) {
                let rules = self.strict_rules();
                self.notes.keep(|| {
                    let rule = match (rules, rules.map(|of| game.rules_pick(of))) {
                        (Some(of), Some(Ok(Some((_, r))))) => rule_named(game, of, r),
                        _ => "a rule".to_string(),
                    };
                    (format!("{rule} applies (`:strict`): no search"), Vec::new())
                });
                self.guard.record(key, p);
                return p;
            }
        }
        let seats = game.players() as usize;
        self.guide.reset();
        let worlds = self.worlds(game, decision.player);
        self.root_preferred = None;
        self.root_prior.clear();
        if self.model_move && self.playout.strategy.is_none() {
            // Where the play-outs follow the model's play-out policy and its prior was never
            // fitted (the evaluation's best move alone), the root starts from the play-out
            // policy's chances: it is the stronger player (docs/performance.md).
            let by_policy = if self.guide.deep && !self.guide.prior_fitted() {
                let games: Vec<&Game> = worlds.iter().map(|w| &w.game).collect();
                self.guide.policy_priors(&games, &allowed)
            } else {
                None
            };
            let prior = by_policy.or_else(|| {
                let pairs: Vec<(&Game, &Goals)> =
                    worlds.iter().map(|w| (&w.game, &w.goals)).collect();
                self.guide.priors(&pairs, &allowed, decision.player)
            });
            if let Some(p) = prior {
                self.root_prior = vec![0.0; decision.options.len()];
                let mut top = (f64::NEG_INFINITY, None);
                for (&i, &q) in allowed.iter().zip(&p) {
                    self.root_prior[i] = q;
                    if q > top.0 {
                        top = (q, Some(i));
                    }
                }
                self.root_preferred = top.1;
            }
        }
        let mut nodes = vec![Node::new(seats)];
        let mut scale = Scale::default();
        let started = Instant::now();
        let (mut done, mut reached) = (0, 0u64);
        for k in 0..self.iterations {
            if k > 0
                && (self.time.is_some_and(|t| started.elapsed() >= t)
                    || self.positions.is_some_and(|most| reached >= most))
            {
                break;
            }
            let world = &worlds[k as usize % worlds.len()];
            reached += self.iterate(world, &allowed, &mut nodes, &mut scale);
            done += 1;
        }
        // The most visited of the allowed options (the best mean reward among equals).
        let root = &nodes[0];
        let seat = decision.player as usize;
        let stats = |i: usize| {
            root.children
                .get(&decision.options[i])
                .map(|&c| Estimate::of(&nodes[c], seat))
        };
        let mut best = (0u32, f64::NEG_INFINITY, allowed[0]);
        for &i in &allowed {
            if let Some(e) = stats(i) {
                if (e.visits, e.mean) > (best.0, best.1) {
                    best = (e.visits, e.mean, i);
                }
            }
        }
        // With a play-out strategy, the search leaves the strategy's own move only on evidence: the
        // other option's mean must exceed it by [`EVIDENCE`] standard errors of the difference.
        let mut kept_policy = false;
        if let Some(p) = self.policy_move(game, &allowed).or(self.root_preferred) {
            if let (Some(b), Some(q)) = (stats(best.2), stats(p)) {
                if best.2 != p && !b.better_than(&q) {
                    best.2 = p;
                    kept_policy = true;
                }
            }
        }
        let consistent = !self.fallback;
        let strategy = self
            .playout
            .strategy
            .as_ref()
            .map(|(_, name)| name.as_str());
        self.notes.keep(|| {
            let mut how = format!(
                "{done} iterations{} in {} {}; value: its mean reward (0 a loss, 1 a win), the most \
                 visited option taken",
                match self.positions {
                    Some(_) => format!(" ({reached} positions)"),
                    None => String::new(),
                },
                worlds.len(),
                if consistent {
                    "worlds consistent with what it saw"
                } else {
                    "worlds dealt from what it sees"
                }
            );
            if kept_policy {
                let kept = match strategy {
                    Some(name) => format!("`{name}`'s own move"),
                    None => "the model's move".to_string(),
                };
                how.push_str(&format!(
                    ", but {kept} kept: the best did not beat it by {EVIDENCE} standard errors"
                ));
            }
            let options = weighed(decision, &allowed, best.2, |i| {
                stats(i).map(|e| (e.visits, e.mean))
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
        if let Some(c) = &self.called {
            return c.clone();
        }
        let budget = match (self.time, self.positions) {
            (Some(t), _) if t.subsec_millis() == 0 => format!("{}s", t.as_secs()),
            (Some(t), _) => format!("{}ms", t.as_millis()),
            (None, Some(n)) => format!("{n}positions"),
            (None, None) => self.iterations.to_string(),
        };
        format!("ismcts:{budget}{}", self.playout.suffix())
    }
}
