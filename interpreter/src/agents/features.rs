//! Agents stage: the features of a position, derived from any script without knowing the game, for
//! a learned evaluation (`cardgame learn`, `model.rs`).
//!
//! They are read from a *possible world* of the deciding seat, never from the real game: a game in
//! which what the seat sees is kept and the rest is dealt again from what it knows
//! (`Game::determinize_by_holder`: each player's unseen cards among that player's unseen places, what
//! a seat with a perfect memory knows of a deck-builder's decks), or one of a search's sampled worlds.
//! Every card of such a world is counted, hidden ones included: the counts then say what each seat
//! owns (the composition of a hidden deck, which a seat's own view shows only as a number of unseen
//! cards), and where a card's place is unknown the world's guess stands for it. Seen from the deciding
//! seat ("me", then "next", "seat+2", ... in seat order):
//! - for every seat, the number of cards in each of its zones (`per player` zones: `me.hand`); the
//!   count of each kind over all its zones (`me.*:Copper`, what it owns) and its share of them
//!   (`me.%:Copper`); its variables that are numbers or truth values (another seat's `private`
//!   variables read 0: the deciding seat cannot see them). Counts by kind are kept per owner, not
//!   per zone: a compact set, so that a few thousand games of self-play see each feature vary
//!   often (`learn.rs` also leaves out of a model the features that never varied in self-play);
//! - for the shared zones (the box included), the count of each kind, and the shared variables;
//! - the script's own measure of each seat (`fn heuristic`, else `fn score`: `me.measure`), where it
//!   declares one, evaluated in the world;
//! - the game's progress: the turn number.
//!
//! Zones attached to cards or spaces are left out. Every feature has a readable name (`me.hand`,
//! `me.*:Copper`, `next.coins`, `market:Silver`, `turn`), which the model file lists; `turn` is
//! always the last.

use crate::engine::Game;
use crate::program::Program;
use crate::program::Visibility;
use crate::value::Value;
use cardgame_grammar::ast::Scope;

/// Where the cards of one zone definition are counted.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The i-th per-player zone.
    Player(usize),
    /// The i-th shared zone.
    Shared(usize),
    /// Not counted (zones attached to cards or spaces).
    Ignored,
}

/// Where each feature of a script at a player count lies in the vector, and its name.
#[derive(Clone, Debug)]
pub struct FeatureSet {
    names: Vec<String>,
    /// Kinds in the script.
    kinds: usize,
    /// By zone definition: where its cards are counted.
    slots: Vec<Slot>,
    /// By zone definition: whether its counts by kind are features every seat knows (a per-player
    /// zone, a public shared one), which are all a play-out policy reads ([`Self::is_known`]).
    zones_known: Vec<bool>,
    player_zones: usize,
    /// The per-player variables the model reads: (index in `Program::vars`, private).
    player_vars: Vec<(usize, bool)>,
    shared_zones: usize,
    shared_vars: Vec<usize>,
    players: usize,
    /// Features in one seat's block.
    per_seat: usize,
    /// Where the shared block starts.
    shared_base: usize,
    /// Where the measures start, when the script has one.
    measure_base: Option<usize>,
    /// By feature: whether every world a seat deals keeps it as the real game has it (see
    /// [`Self::is_known`]).
    known: Vec<bool>,
}

/// Whether a variable's type holds a number the model can read (an int or a truth value).
fn numeric(ty: &crate::program::Ty) -> bool {
    matches!(ty, crate::program::Ty::Int | crate::program::Ty::Bool)
}

fn number(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::Int(i)) => *i as f64,
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        _ => 0.0,
    }
}

pub use crate::engine::relative_name;

impl FeatureSet {
    pub fn new(program: &Program, players: u8) -> FeatureSet {
        let players = players as usize;
        let kinds: Vec<&str> = program.kinds.iter().map(|k| k.name.as_str()).collect();
        let box_zone = program.box_zone.index();
        let (mut pzones, mut szones) = (Vec::new(), Vec::new());
        // Whether each shared zone's cards are seen by every seat (public, and not the box).
        let mut shown: Vec<bool> = Vec::new();
        let slots: Vec<Slot> = program
            .zones
            .iter()
            .enumerate()
            .map(|(i, z)| match z.scope {
                Scope::PerPlayer => {
                    pzones.push(z.name.as_str());
                    Slot::Player(pzones.len() - 1)
                }
                Scope::Shared => {
                    szones.push(z.name.as_str());
                    shown.push(i != box_zone && z.visibility == Visibility::Public);
                    Slot::Shared(szones.len() - 1)
                }
                Scope::PerCard | Scope::PerSpace if i == box_zone => {
                    szones.push(z.name.as_str());
                    shown.push(false);
                    Slot::Shared(szones.len() - 1)
                }
                Scope::PerCard | Scope::PerSpace => Slot::Ignored,
            })
            .collect();
        let vars_of = |scope: Scope| -> Vec<usize> {
            program
                .vars
                .iter()
                .enumerate()
                .filter(|(_, v)| numeric(&v.ty) && v.scope == scope)
                .map(|(i, _)| i)
                .collect()
        };
        let pvars = vars_of(Scope::PerPlayer);
        let svars = vars_of(Scope::Shared);
        let mut names = Vec::new();
        for r in 0..players {
            let prefix = relative_name(r);
            for z in &pzones {
                names.push(format!("{prefix}.{z}"));
            }
            for k in &kinds {
                names.push(format!("{prefix}.*:{k}"));
            }
            for k in &kinds {
                names.push(format!("{prefix}.%:{k}"));
            }
            for &v in &pvars {
                names.push(format!("{prefix}.{}", program.vars[v].name));
            }
        }
        let shared_base = names.len();
        let mut known = vec![true; shared_base];
        for (z, public) in szones.iter().zip(&shown) {
            for k in &kinds {
                names.push(format!("{z}:{k}"));
                known.push(*public);
            }
        }
        for &v in &svars {
            names.push(program.vars[v].name.clone());
        }
        let has_measure = program.fns.iter().any(|f| {
            (f.name == "heuristic" || f.name == "score")
                && f.params == [crate::program::Ty::Player]
                && f.ret == crate::program::Ty::Int
        });
        let measure_base = has_measure.then_some(names.len());
        if has_measure {
            for r in 0..players {
                names.push(format!("{}.measure", relative_name(r)));
            }
        }
        known.resize(names.len(), true);
        names.push("turn".into());
        known.resize(names.len(), false);
        if let Some(base) = measure_base {
            known[base..base + players].fill(false);
        }
        let zones_known = (slots.iter())
            .map(|slot| match *slot {
                Slot::Player(_) => true,
                Slot::Shared(z) => shown[z],
                Slot::Ignored => false,
            })
            .collect();
        FeatureSet {
            zones_known,
            known,
            per_seat: pzones.len() + 2 * kinds.len() + pvars.len(),
            kinds: kinds.len(),
            slots,
            player_zones: pzones.len(),
            player_vars: pvars
                .iter()
                .map(|&v| (v, program.vars[v].private))
                .collect(),
            shared_zones: szones.len(),
            shared_vars: svars,
            players,
            shared_base,
            measure_base,
            names,
        }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The features of the possible world `world` seen from `seat` (see the module's notes), written
    /// into `out` (resized to [`Self::len`]). `world` must be a world the seat's agent dealt, never
    /// the real game: every card in it is counted.
    pub fn extract(&self, world: &mut Game, seat: u8, out: &mut Vec<f64>) {
        let mut all = self.extract_all(world);
        match all.get_mut(seat as usize) {
            Some(x) => std::mem::swap(out, x),
            None => {
                out.clear();
                out.resize(self.len(), 0.0);
            }
        }
    }

    /// The features of the possible world `world` seen from every seat in turn (one vector per
    /// seat): the cards are counted once. `world` must be a world an agent dealt (see
    /// [`Self::extract`]); each seat's vector leaves out the other seats' private variables.
    pub fn extract_all(&self, world: &mut Game) -> Vec<Vec<f64>> {
        let n = self.players.max(1);
        let (blocks, mut shared) = self.counted(world, false);
        if let Some(base) = self.measure_base {
            for p in 0..n {
                if let Some(v) = world.script_score_here(p as u8) {
                    shared[base - self.shared_base + p] = v as f64;
                }
            }
        }
        (0..n)
            .map(|me| self.seen_by(me, &blocks, &shared))
            .collect()
    }

    /// The features of the possible world `world` seen from `seat`, as [`Self::extract`] gives
    /// them but with the script's measures left at 0: no script function runs, so that a play-out
    /// policy can read them at every decision (`moves.rs`).
    pub fn extract_counts(&self, world: &Game, seat: u8) -> Vec<f64> {
        let (blocks, shared) = self.counted(world, false);
        let me = (seat as usize).min(self.players.max(1) - 1);
        self.seen_by(me, &blocks, &shared)
    }

    /// The features of `world` seen from `seat` as [`Self::extract_counts`] gives them, but right
    /// only where every seat knows them ([`Self::is_known`]): the hidden shared zones' cards are
    /// not counted (their features read 0). What a play-out policy that reads only known features
    /// reads at every decision, without walking the piles it never reads.
    pub fn extract_known_counts(&self, world: &Game, seat: u8) -> Vec<f64> {
        let (blocks, shared) = self.counted(world, true);
        let me = (seat as usize).min(self.players.max(1) - 1);
        self.seen_by(me, &blocks, &shared)
    }

    /// Every seat's block in seat order, then the shared block (the measures left at 0), counted
    /// in one pass over the cards of `world` (where `known_only`, of the zones whose counts every
    /// seat knows).
    fn counted(&self, world: &Game, known_only: bool) -> (Vec<Vec<f64>>, Vec<f64>) {
        let n = self.players.max(1);
        let k = self.kinds;
        let mut blocks = vec![vec![0.0; self.per_seat]; n];
        let mut shared = vec![0.0; self.len() - self.shared_base];
        let counted = |zone: usize| !known_only || self.zones_known.get(zone) == Some(&true);
        world.each_zone(counted, |zone, holder, kinds| {
            match (self.slots.get(zone).copied(), holder) {
                (Some(Slot::Player(z)), Some(p)) => {
                    if let Some(b) = blocks.get_mut(p as usize) {
                        let (count, owned) = b.split_at_mut(self.player_zones);
                        count[z] += kinds.held() as f64;
                        for kind in kinds {
                            if let Some(x) = owned.get_mut(kind).filter(|_| kind < k) {
                                *x += 1.0;
                            }
                        }
                    }
                }
                (Some(Slot::Shared(z)), _) => {
                    let by_kind = &mut shared[z * k..(z + 1) * k];
                    for kind in kinds {
                        if let Some(x) = by_kind.get_mut(kind) {
                            *x += 1.0;
                        }
                    }
                }
                (Some(Slot::Player(_)) | Some(Slot::Ignored) | None, _) => {}
            }
        });
        let owned = self.player_zones;
        let share = owned + k;
        let vars = share + k;
        for (p, b) in blocks.iter_mut().enumerate() {
            let total: f64 = b[owned..owned + k].iter().sum();
            if total > 0.0 {
                for i in 0..k {
                    b[share + i] = b[owned + i] / total;
                }
            }
            for (j, &(v, _)) in self.player_vars.iter().enumerate() {
                b[vars + j] = number(world.var_value(v, p as u8));
            }
        }
        let globals = self.shared_zones * k;
        for (j, &v) in self.shared_vars.iter().enumerate() {
            shared[globals + j] = number(world.var_value(v, 0));
        }
        if let Some(t) = shared.last_mut() {
            *t = f64::from(world.turns());
        }
        (blocks, shared)
    }

    /// Seat `me`'s vector of the counted `blocks` and `shared` block: the seats in order from
    /// `me`, another seat's private variables read 0, then the shared block with the measures
    /// turned to start at `me`.
    fn seen_by(&self, me: usize, blocks: &[Vec<f64>], shared: &[f64]) -> Vec<f64> {
        let n = self.players.max(1);
        let vars = self.player_zones + 2 * self.kinds;
        let mut x = Vec::with_capacity(self.len());
        for r in 0..n {
            let q = (me + r) % n;
            x.extend_from_slice(&blocks[q]);
            if r > 0 {
                // Another seat's private variables: the deciding seat cannot see them.
                let start = x.len() - self.per_seat + vars;
                for (j, &(_, private)) in self.player_vars.iter().enumerate() {
                    if private {
                        x[start + j] = 0.0;
                    }
                }
            }
        }
        x.extend_from_slice(shared);
        if let Some(base) = self.measure_base {
            for r in 0..n {
                x[base + r] = shared[base - self.shared_base + (me + r) % n];
            }
        }
        x
    }

    /// Whether feature `i` is the same in every world a seat deals from its view
    /// (`Game::determinize_by_holder`) as in the real game: each seat's counts and variables (its
    /// unseen cards stay among its own unseen places), the public shared zones' counts by kind and
    /// the shared variables; not the hidden shared zones' counts by kind nor the box's (their
    /// unseen cards are dealt again among them), nor the script's measures or the turn, which
    /// [`Self::extract_counts`] does not read. A play-out policy reads only these, so that what it
    /// learns from real games holds in a search's worlds.
    pub fn is_known(&self, i: usize) -> bool {
        self.known.get(i).copied().unwrap_or(false)
    }

    /// The indices of the features every seat knows as they are ([`Self::is_known`]), in order.
    pub fn known(&self) -> Vec<usize> {
        (0..self.len()).filter(|&i| self.is_known(i)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::FeatureSet;
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig};
    use std::sync::Arc;

    #[test]
    fn features_count_what_each_seat_owns_by_kind_zone_and_seat() {
        let src =
            "game \"F\" { players 2 }\ncard \"Gem\" { copies 3 }\ncard \"Rock\" { copies 2 }\n\
                   zone hand per player: set, owner\nzone deck per player: pile, hidden\n\
                   zone pool: set\nzone stock: pile, hidden\n\
                   var coins per player: int = 0\nvar secret per player private: int = 0\n\
                   var round: int = 0\n\
                   setup { move take(cards(\"Gem\", box), 2) to seat(1).hand\n\
                   move cards(\"Gem\", box) to seat(1).deck\n\
                   move cards(\"Rock\", box) to pool\n seat(2).coins = 4\n seat(2).secret = 7\n\
                   round = 2 }\n\
                   flow { let n = choose n in [1, 2] by seat(2)  win [seat(1)] \"x\" }\n";
        let p = Arc::new(check_source(src).program.expect("checks"));
        let g = Game::new(p.clone(), GameConfig::new(2, 1));
        let f = FeatureSet::new(&p, 2);
        // What a play-out policy may read: every seat's counts and the public pool, not the box
        // (nor the turn).
        let known = |name: &str| f.is_known(f.names().iter().position(|n| n == name).unwrap());
        assert!(known("me.hand") && known("next.*:Gem") && known("pool:Rock") && known("round"));
        assert!(!known("box:Gem") && !known("stock:Gem") && !known("turn"));
        let mut x = Vec::new();
        let show = |x: &[f64]| {
            f.names()
                .iter()
                .zip(x)
                .filter(|(_, v)| **v != 0.0)
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Seat 2 sees neither seat 1's hand nor its deck; its world keeps them seat 1's.
        let mut world = g.determinize_by_holder(1, 3);
        f.extract(&mut world, 1, &mut x);
        assert_eq!(
            show(&x),
            "me.coins=4 me.secret=7 next.hand=2 next.deck=1 next.*:Gem=3 next.%:Gem=1 \
             pool:Rock=2 round=2"
        );
        let mut world = g.determinize_by_holder(0, 3);
        f.extract(&mut world, 0, &mut x);
        assert_eq!(
            show(&x),
            "me.hand=2 me.deck=1 me.*:Gem=3 me.%:Gem=1 next.coins=4 pool:Rock=2 round=2"
        );
    }

    #[test]
    fn the_known_counts_are_the_real_games_in_every_world_a_seat_deals() {
        // Market Race after some random play: hands, decks and discards of both seats.
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/market-race.cardgame"
        ))
        .expect("the example");
        let p = Arc::new(check_source(&src).program.expect("checks"));
        let mut g = Game::new(p.clone(), GameConfig::new(2, 5));
        for _ in 0..40 {
            if let crate::engine::Status::Decision(d) = g.status() {
                let last = d.options.len() - 1;
                g.apply(last).expect("applies");
            }
        }
        let f = FeatureSet::new(&p, 2);
        for seat in 0..2u8 {
            let real = f.extract_counts(&g, seat);
            for seed in 0..8 {
                let world = g.determinize_by_holder(seat, seed);
                let dealt = f.extract_counts(&world, seat);
                // What a play-out policy reads: the known features alone, the hidden piles not
                // walked (they read 0).
                let known = f.extract_known_counts(&world, seat);
                for i in 0..f.len() {
                    let name = &f.names()[i];
                    if f.is_known(i) {
                        assert_eq!(real[i], dealt[i], "{name} for seat {seat}");
                        assert_eq!(known[i], dealt[i], "{name} for seat {seat}");
                    } else if name.starts_with("supply:") {
                        assert_eq!(known[i], 0.0, "{name} for seat {seat}");
                    }
                }
            }
        }
    }
}
