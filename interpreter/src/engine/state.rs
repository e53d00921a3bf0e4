//! Engine stage: the plain-data state of a game (cards, zones, variables, frames) and its fixed layout.

use super::exec::Frame;
use super::trace::Event;
use super::{Decision, GameConfig, Status};
use crate::program::{Expr, ExprKind, Program, VarId, Visibility, ZoneId};
use crate::value::Value;
use cardgame_grammar::ast::Scope;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Where a zone instance hangs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Holder {
    Shared,
    Player(u8),
    Card(u32),
    Space(u16),
}

#[derive(Clone, Debug)]
pub(crate) struct CardState {
    pub kind: u16,
    /// The zone instance that holds the card.
    pub zone: u32,
    pub face_up: bool,
}

/// The cards of one zone instance. Which zone and holder it is lies in `ZoneMeta` (fixed once the
/// game is created), so a clone copies only the cards and the version.
#[derive(Clone, Debug, Default)]
pub(crate) struct ZoneInst {
    /// Bottom first: the top of the zone is the end of the vector.
    pub cards: Vec<u32>,
    /// Bumped by every change of `cards` (what the checks' records compare, see `watch.rs`).
    pub ver: u32,
}

/// An instance of a per-card zone that was never touched: no cards, version 0.
static UNTOUCHED: ZoneInst = ZoneInst {
    cards: Vec::new(),
    ver: 0,
};

/// What is fixed about every zone instance, shared between clones.
#[derive(Debug, Default)]
pub(crate) struct ZoneMeta {
    /// The definition of every instance, by instance id.
    pub def: Vec<ZoneId>,
    /// Where every instance hangs, by instance id.
    pub holder: Vec<Holder>,
    /// The instance ids in the order of the script: definitions as declared, then holders (seats,
    /// cards, spaces) in order. Views and redeals follow it.
    pub declared: Vec<u32>,
}

/// The zone instances of a game, by id. The instances of shared, per-player and per-space zones come
/// first and are stored in a vector; the instances of per-card zones (one per card and definition,
/// ids from `dense.len()` on) are stored only once something changed them, in a vector sorted by id,
/// so the empty zones of a game's cards cost nothing in a clone. Reading an untouched one gives an
/// empty instance; writing one creates it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Zones {
    dense: Vec<ZoneInst>,
    sparse: Vec<(u32, ZoneInst)>,
    pub meta: std::sync::Arc<ZoneMeta>,
}

impl Zones {
    /// `dense` instances stored at once; `meta` describes them and the per-card ones after them.
    pub fn new(dense: usize, meta: ZoneMeta) -> Zones {
        Zones {
            dense: vec![ZoneInst::default(); dense],
            sparse: Vec::new(),
            meta: std::sync::Arc::new(meta),
        }
    }

    /// Number of instance ids.
    #[inline]
    pub fn len(&self) -> usize {
        self.meta.def.len()
    }

    #[inline]
    pub fn get(&self, z: usize) -> Option<&ZoneInst> {
        if let Some(zi) = self.dense.get(z) {
            return Some(zi);
        }
        if z >= self.len() {
            return None;
        }
        Some(
            match self.sparse.binary_search_by_key(&(z as u32), |e| e.0) {
                Ok(i) => &self.sparse[i].1,
                Err(_) => &UNTOUCHED,
            },
        )
    }

    /// The instance, created if it was untouched.
    #[inline(never)]
    pub fn get_mut(&mut self, z: usize) -> Option<&mut ZoneInst> {
        if z < self.dense.len() {
            return self.dense.get_mut(z);
        }
        if z >= self.len() {
            return None;
        }
        let i = match self.sparse.binary_search_by_key(&(z as u32), |e| e.0) {
            Ok(i) => i,
            Err(i) => {
                self.sparse.insert(i, (z as u32, ZoneInst::default()));
                i
            }
        };
        Some(&mut self.sparse[i].1)
    }

    /// The definition of instance `z`.
    #[inline]
    pub fn def(&self, z: usize) -> ZoneId {
        self.meta.def.get(z).copied().unwrap_or(ZoneId(0))
    }

    /// Where instance `z` hangs.
    #[inline]
    pub fn holder(&self, z: usize) -> Option<Holder> {
        self.meta.holder.get(z).copied()
    }

    /// The stored instances (every instance of a shared, per-player or per-space zone, and the
    /// per-card ones something changed), by id.
    pub fn stored(&self) -> impl Iterator<Item = (usize, &ZoneInst)> {
        self.dense
            .iter()
            .enumerate()
            .chain(self.sparse.iter().map(|(z, zi)| (*z as usize, zi)))
    }

    /// Every stored instance, to change in place.
    pub fn stored_mut(&mut self) -> impl Iterator<Item = &mut ZoneInst> {
        self.dense
            .iter_mut()
            .chain(self.sparse.iter_mut().map(|(_, zi)| zi))
    }

    /// Every instance id in the order of the script (see `ZoneMeta::declared`) with its instance.
    pub fn declared(&self) -> impl Iterator<Item = (usize, &ZoneInst)> {
        self.meta
            .declared
            .iter()
            .filter_map(|&z| self.get(z as usize).map(|zi| (z as usize, zi)))
    }

    /// The bytes a clone copies for the zones.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.dense.len() * size_of::<ZoneInst>()
            + self.sparse.len() * size_of::<(u32, ZoneInst)>()
            + self
                .stored()
                .map(|(_, zi)| zi.cards.len() * 4)
                .sum::<usize>()
    }
}

impl std::ops::Index<usize> for Zones {
    type Output = ZoneInst;
    #[inline]
    fn index(&self, z: usize) -> &ZoneInst {
        match self.get(z) {
            Some(zi) => zi,
            None => panic!("zone instance {z} out of range"),
        }
    }
}

impl std::ops::IndexMut<usize> for Zones {
    #[inline]
    fn index_mut(&mut self, z: usize) -> &mut ZoneInst {
        if z < self.dense.len() {
            return &mut self.dense[z];
        }
        match self.get_mut(z) {
            Some(zi) => zi,
            None => panic!("zone instance {z} out of range"),
        }
    }
}

impl ZoneInst {
    /// Marks the cards changed.
    #[inline]
    pub fn changed(&mut self) {
        self.ver = self.ver.wrapping_add(1);
    }
}

/// The local context of a running body: its slots, `you` and `this`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ctx {
    pub locals: Vec<Value>,
    pub you: Option<u8>,
    pub this: Option<u32>,
}

/// Grows a vector of locals to at least `n` slots, the new ones `none`. Each new slot is written
/// as it is made: `Vec::resize` clones a value into every slot (a dispatch on the value's kind
/// each), which cost about 100 instructions for the few slots of a function's call.
#[inline]
pub(crate) fn grow_locals(v: &mut Vec<Value>, n: usize) {
    if v.len() < n {
        v.resize_with(n, || Value::None);
    }
}

impl Ctx {
    pub fn new(slots: u16, you: Option<u8>, this: Option<u32>) -> Ctx {
        Ctx {
            locals: vec![Value::None; slots as usize],
            you,
            this,
        }
    }
}

/// Everything about a game that is fixed once it is created (shared between clones).
#[derive(Debug, Default)]
pub(crate) struct Layout {
    pub ncards: u32,
    /// The longest name of a card kind, a tag or a zone (a bound on the texts of values, label.rs).
    pub longest_name: usize,
    /// First zone instance of every zone definition, and how many it has.
    pub zone_base: Vec<u32>,
    pub zone_len: Vec<u32>,
    /// Index of every variable within its scope.
    pub var_slot: Vec<u32>,
    pub n_pvars: usize,
    pub n_cvars: usize,
    /// The participants' per-player variables as declared, before setup (`[i * n_pvars + slot]`), to
    /// tell whether a game gave a participant a role.
    pub participant_init: Vec<Value>,
    /// Spaces as (x, y), row by row.
    pub spaces: Vec<(i64, i64)>,
    pub width: i64,
    pub height: i64,
    pub diagonal: bool,
    /// `neighbours(s)` of every space (a list of spaces), in the order `neighbours_of` gives.
    pub neighbours: Vec<Value>,
    pub nevents: usize,
    /// Global triggers per event.
    pub glob_trigs: Vec<Vec<u16>>,
    /// Per event: the zone families (declaration order) in which some card trigger listens.
    pub families: Vec<Vec<ZoneId>>,
    /// Per event: whether some card trigger listens in any zone.
    pub anywhere: Vec<bool>,
    /// `kind * nevents + event` → indices into that kind's triggers.
    pub kind_trigs: Vec<Vec<u16>>,
    /// Zone definitions attached to cards (`per card`).
    pub card_zones: Vec<usize>,
    /// Number of card properties of the program.
    pub nprops: usize,
    /// `kind * nprops + property` → the value when it is a constant for that kind.
    pub prop_const: Vec<Option<Value>>,
    /// The same table for constant numbers only (what sums over zones read).
    pub prop_int: Vec<Option<i64>>,
    /// Every card's per-card variables as the game was created, `[card * n_cvars + slot]` (see
    /// `CardVars`).
    pub cvar_init: Vec<Value>,
    /// Per card: the first card of the run of cards created one after another whose per-card
    /// variables as created equal its own (`CardVars::same_row`: two rows never written with the same
    /// number are equal, without comparing them).
    pub cvar_row: Vec<u32>,
    /// The game's options (`option NAME`) and table columns for its number of players.
    pub options: Vec<Value>,
    pub columns: Vec<Value>,
    /// The script's measure of a seat for bots: `fn heuristic(p: player): int`, else `fn score` of
    /// the same shape (see `Game::script_score`).
    pub measure: Option<usize>,
    /// The call of the measure of the seat held by local 0 (one expression, compiled once).
    pub measure_call: Option<Expr>,
}

impl Layout {
    /// The parts that depend only on the program.
    pub fn new(p: &Program) -> Layout {
        let mut var_slot = Vec::with_capacity(p.vars.len());
        let (mut ng, mut np, mut nc) = (0u32, 0u32, 0u32);
        for v in &p.vars {
            let c = match v.scope {
                Scope::PerPlayer => &mut np,
                Scope::PerCard => &mut nc,
                _ => &mut ng,
            };
            var_slot.push(*c);
            *c += 1;
        }
        let nevents = p
            .events
            .len()
            .max(p.turn_start.index() + 1)
            .max(p.turn_end.index() + 1);
        let mut glob_trigs = vec![Vec::new(); nevents];
        for (i, t) in p.triggers.iter().enumerate() {
            if let Some(v) = glob_trigs.get_mut(t.event.index()) {
                v.push(i as u16);
            }
        }
        let mut families: Vec<Vec<ZoneId>> = vec![Vec::new(); nevents];
        let mut anywhere = vec![false; nevents];
        let mut kind_trigs = vec![Vec::new(); p.kinds.len() * nevents];
        for (k, kd) in p.kinds.iter().enumerate() {
            for (i, t) in kd.triggers.iter().enumerate() {
                let e = t.event.index();
                if e >= nevents {
                    continue;
                }
                kind_trigs[k * nevents + e].push(i as u16);
                match t.zone {
                    Some(z) => {
                        if !families[e].contains(&z) {
                            families[e].push(z);
                        }
                    }
                    None => anywhere[e] = true,
                }
            }
        }
        for f in &mut families {
            f.sort();
        }
        let card_zones = (0..p.zones.len())
            .filter(|&z| p.zones[z].scope == Scope::PerCard)
            .collect();
        let nprops = p.props.len();
        let mut prop_const = Vec::with_capacity(p.kinds.len() * nprops);
        let mut prop_int = Vec::with_capacity(p.kinds.len() * nprops);
        for k in &p.kinds {
            for (pid, d) in p.props.iter().enumerate() {
                let e = match k.props.get(pid) {
                    Some(Some(e)) => e,
                    _ => &d.default,
                };
                prop_int.push(match &e.kind {
                    ExprKind::Const(Value::Int(i)) => Some(*i),
                    _ => None,
                });
                prop_const.push(match &e.kind {
                    ExprKind::Const(v) => Some(v.clone()),
                    // A list of constants (`recipe "Stone", "Wood"`) is a constant too.
                    ExprKind::List(items) => items
                        .iter()
                        .map(|i| match &i.kind {
                            ExprKind::Const(v) => Some(v.clone()),
                            _ => None,
                        })
                        .collect::<Option<Vec<Value>>>()
                        .map(Value::list),
                    _ => None,
                });
            }
        }
        let find = |name: &str| {
            p.fns.iter().position(|f| {
                f.name == name
                    && f.params.len() == 1
                    && f.params[0] == crate::program::Ty::Player
                    && f.ret == crate::program::Ty::Int
            })
        };
        let measure = find("heuristic").or_else(|| find("score"));
        let measure_call = measure.map(|f| {
            let seat = Expr::new(ExprKind::Local(0), Default::default());
            Expr::new(
                ExprKind::CallFn(crate::program::FnId(f as u16), vec![seat]),
                Default::default(),
            )
        });
        Layout {
            measure,
            measure_call,
            var_slot,
            n_pvars: np as usize,
            n_cvars: nc as usize,
            nevents,
            glob_trigs,
            families,
            anywhere,
            kind_trigs,
            card_zones,
            nprops,
            prop_const,
            prop_int,
            ..Layout::default()
        }
    }

    /// The spaces next to space `s` (sharing a side; also a corner on a `diagonal` board), row by row
    /// from the one above-left: `neighbours(s)`.
    pub fn neighbours_of(&self, s: usize) -> Vec<Value> {
        let mut out = Vec::new();
        let Some(&(x, y)) = self.spaces.get(s) else {
            return out;
        };
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                if (dx == 0 && dy == 0) || (dx != 0 && dy != 0 && !self.diagonal) {
                    continue;
                }
                if let Some(s) = self.space_at(x + dx, y + dy) {
                    out.push(Value::Space(s));
                }
            }
        }
        out
    }

    pub fn space_at(&self, x: i64, y: i64) -> Option<u16> {
        if x < 1 || y < 1 || x > self.width || y > self.height {
            return None;
        }
        u16::try_from((y - 1) * self.width + (x - 1)).ok()
    }

    #[inline]
    pub fn var(&self, v: VarId) -> usize {
        self.var_slot.get(v.index()).copied().unwrap_or(0) as usize
    }
}

/// The per-card variables, `[card * n_cvars + slot]`. The values every card had when the game was
/// created live in the layout (`Layout::cvar_init`, shared between clones); the state keeps only the
/// values written since (`written`) and, per index, where its written value is (`at`, `u32::MAX`
/// for none; grown up to the highest index written), so a clone copies a vector of plain numbers and
/// the values that changed, not a `Value` per card and variable.
#[derive(Clone, Debug, Default)]
pub(crate) struct CardVars {
    at: Vec<u32>,
    written: Vec<Value>,
}

impl CardVars {
    /// The value at index `i` (`None`: no such variable).
    #[inline]
    pub fn get<'s>(&'s self, l: &'s Layout, i: usize) -> Option<&'s Value> {
        match self.at.get(i) {
            Some(&k) if k != u32::MAX => self.written.get(k as usize),
            _ => l.cvar_init.get(i),
        }
    }

    /// The place of the value at index `i`, written from now on (`None`: no such variable).
    pub fn get_mut(&mut self, l: &Layout, i: usize) -> Option<&mut Value> {
        if i >= l.cvar_init.len() {
            return None;
        }
        if self.at.len() <= i {
            self.at.resize(i + 1, u32::MAX);
        }
        let mut k = self.at[i];
        if k == u32::MAX {
            k = self.written.len() as u32;
            self.written
                .push(l.cvar_init.get(i).cloned().unwrap_or_default());
            self.at[i] = k;
        }
        self.written.get_mut(k as usize)
    }

    /// Card `c`'s row of `n` values equals card `d`'s.
    pub fn same_row(&self, l: &Layout, n: usize, c: usize, d: usize) -> bool {
        // Whether the row starting at `b` was never written: its places in `at` (fewer, or none,
        // past its end) are all empty.
        let untouched = |b: usize| {
            let end = (b + n).min(self.at.len());
            let mut i = b;
            while i < end {
                if self.at[i] != u32::MAX {
                    return false;
                }
                i += 1;
            }
            true
        };
        if untouched(c * n) && untouched(d * n) {
            return l.cvar_row.get(c) == l.cvar_row.get(d) || self.same_init(l, n, c, d);
        }
        self.same_values(l, n, c, d)
    }

    /// `same_row` of two rows as created (which do not start the same run).
    #[inline(never)]
    fn same_init(&self, l: &Layout, n: usize, c: usize, d: usize) -> bool {
        l.cvar_init.get(c * n..(c + 1) * n) == l.cvar_init.get(d * n..(d + 1) * n)
    }

    /// `same_row` value by value.
    #[inline(never)]
    fn same_values(&self, l: &Layout, n: usize, c: usize, d: usize) -> bool {
        (0..n).all(|k| match (self.get(l, c * n + k), self.get(l, d * n + k)) {
            // Numbers, the usual card variables, compared at once.
            (Some(Value::Int(x)), Some(Value::Int(y))) => x == y,
            (x, y) => x == y,
        })
    }

    /// The bytes a clone copies.
    pub fn heap_size(&self) -> usize {
        self.at.len() * 4 + self.written.len() * std::mem::size_of::<Value>()
    }
}

/// What a game fixes when it is created: the players' names and the limits.
#[derive(Debug, Default)]
pub(crate) struct Fixed {
    /// The seats' names, then the participants'.
    pub names: Vec<String>,
    pub max_turns: u32,
    /// The work budget between two decisions (see `GameConfig::max_steps`).
    pub max_steps: u64,
    /// Decisions one turn may take (see `GameConfig::max_decisions`).
    pub max_decisions: u64,
    /// Whether menus and guarded checks are answered by the closures first (`Engine::Closures`).
    pub closures: bool,
}

/// Working space of the engine that no decision depends on (recycled vectors, calls remembered
/// while options are listed): a clone starts with an empty one.
#[derive(Debug)]
pub(crate) struct Pool<T>(pub Vec<T>);

impl<T> Default for Pool<T> {
    fn default() -> Pool<T> {
        Pool(Vec::new())
    }
}

impl<T> Clone for Pool<T> {
    fn clone(&self) -> Pool<T> {
        Pool(Vec::new())
    }
}

/// Sums, maxima and minima of a constant number property over a zone's cards (`sum(c.points for c
/// in Z)`), remembered with the zone's version: while the zone is unchanged, the same. A clone
/// starts with none (versions are compared within one game's history only: a copy's zones change
/// apart from the original's).
#[derive(Debug, Default)]
pub(crate) struct Folds {
    /// `FOLDS` entries once one is kept, each zone and fold at one place (`Folds::at`): a new fold
    /// there replaces the old one.
    entries: Vec<Fold>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Fold {
    zone: u32,
    ver: u32,
    /// The property and the operation (`pid * 4 + op`), plus one (0: an empty entry).
    key: u32,
    value: i64,
}

/// The folds remembered at most (a power of two).
const FOLDS: usize = 64;

impl Clone for Folds {
    fn clone(&self) -> Folds {
        Folds::default()
    }
}

impl Folds {
    /// Where the fold `key` of zone `zone` is kept: the instances of one zone definition have
    /// consecutive ids, so those of a few definitions and properties do not meet.
    #[inline]
    fn at(zone: u32, key: u32) -> usize {
        (zone as usize).wrapping_add((key as usize).wrapping_mul(37)) & (FOLDS - 1)
    }

    /// The fold `key` of zone `zone` at version `ver`, if remembered.
    #[inline]
    pub fn get(&self, zone: u32, ver: u32, key: u32) -> Option<i64> {
        let f = self.entries.get(Self::at(zone, key))?;
        (f.zone == zone && f.key == key.wrapping_add(1) && f.ver == ver).then_some(f.value)
    }

    /// Remembers the fold `key` of zone `zone` at version `ver`.
    pub fn keep(&mut self, zone: u32, ver: u32, key: u32, value: i64) {
        if self.entries.is_empty() {
            self.entries = vec![Fold::default(); FOLDS];
        }
        if let Some(f) = self.entries.get_mut(Self::at(zone, key)) {
            *f = Fold {
                zone,
                ver,
                key: key.wrapping_add(1),
                value,
            };
        }
    }
}

/// `State::first_draw` before the first draw.
pub(crate) const NO_DRAW: u64 = u64::MAX;
/// `State::first_draw` when the first draw came in a nested run.
pub(crate) const NESTED_DRAW: u64 = u64::MAX - 1;

/// The mutable state of a game.
#[derive(Clone, Debug)]
pub(crate) struct State {
    /// Seats: players 0..players.
    pub players: u8,
    /// Participants that are not seats (`participant NAME`): players players..players + participants.
    pub participants: u8,
    /// The names and limits, shared between clones (fixed once the game is created).
    pub fixed: std::sync::Arc<Fixed>,
    pub rng: ChaCha8Rng,
    pub cards: Vec<CardState>,
    /// Cards shown (`show`) since they last moved, by card id, with the seats (bit mask) they were
    /// shown to. Few cards are shown at a time, so they are kept apart from `cards`.
    pub shown: Vec<(u32, u64)>,
    pub zones: Zones,
    pub globals: Vec<Value>,
    pub pvars: Vec<Value>,
    /// What simulations report: `stat` records, actions offered, cards chosen and moved.
    pub tally: super::stats::Tally,
    pub cvars: CardVars,
    /// The players out (`eliminate`), for the game or for the round.
    pub eliminated: Vec<bool>,
    /// Of the players out, those out only until the round ends (`eliminate P for round`).
    pub out_for_round: Vec<bool>,
    pub active: u8,
    pub turn: u32,
    pub frames: Vec<Frame>,
    pub ctxs: Vec<Ctx>,
    pub events: Vec<Event>,
    pub record: bool,
    /// Whether the options of menus and choices get their labels when listed (see
    /// `GameConfig::labels`); they always do while events are recorded.
    pub labels: bool,
    /// The pending decision's labels were left out (`labels` off): its options are empty strings.
    pub unlabelled: bool,
    pub status: Status,
    /// Decisions applied.
    pub steps: u64,
    /// `steps` when the current turn started.
    pub turn_steps: u64,
    /// Work done since the last decision: statements run, expressions evaluated, list items walked
    /// (see `Mach::charge`).
    pub exec_count: u64,
    /// `exec_count` at the head of the run loop, before its step, for the statement the outermost
    /// run is executing (see `first_draw`).
    pub head: u64,
    /// `head` when the random generator was first drawn from (`NO_DRAW` before that, `NESTED_DRAW`
    /// if that was in a nested run): every game of a program and configuration runs alike up to
    /// that statement, whatever its seed, so later games may start there (`GameFactory`, factory.rs).
    pub first_draw: u64,
    /// Set when `top N of Z` found fewer than N cards.
    pub short: bool,
    /// Nesting of function and property evaluation.
    pub depth: u32,
    /// Why decisions are not allowed right now (a check, given or do block).
    pub no_decide: Option<&'static str>,
    /// The innermost phase of the stack a nested run (a check) interrupted, for error positions.
    pub outer_phase: Option<super::exec::At>,
    /// Runs nested inside others (checks, given, do).
    pub nested: usize,
    /// Emptied local vectors kept for reuse (fewer allocations per call; not copied by a clone).
    pub spare: Pool<Vec<Value>>,
    /// An emptied frame stack kept for the next nested run (not copied by a clone).
    pub spare_frames: Pool<Frame>,
    /// Folds of constant properties over zones, by zone version (not copied by a clone).
    pub folds: Folds,
    /// The buffers of the last decision, emptied for the next one, and the lists of living seats
    /// (not copied by a clone; boxed, so that a clone copies one pointer for them).
    pub recycled: Lazy<Recycled>,
    /// The remembered calls (empty when `memo_on` is off; not copied by a clone).
    pub memo: Memo,
    /// Whether pure function calls are remembered now: only while no statement runs, as when the
    /// options of a menu or a choice are listed with the state unchanged.
    pub memo_on: bool,
    /// What the guarded checks read and its versions (`None` for a script without one, or before
    /// its first check ran; see `watch.rs`).
    pub watch: Option<Box<super::watch::Watch>>,
    /// Whether the reads of what is evaluated are noted in `watch` (while a guard is evaluated).
    pub recording: bool,
    /// Debug builds and tests: the game's switches of its shortcuts and what they did.
    #[cfg(any(test, debug_assertions))]
    pub probe: super::probe::Probe,
}

/// The buffers of a decision, kept empty once it was answered so that the next decision is listed
/// and asked without allocating: a menu's options, the option labels, the prompt, the `pass` label,
/// and the known values of an action's conjuncts (in `State::recycled`: a clone starts with none).
#[derive(Debug, Default)]
pub(crate) struct Recycled {
    pub options: Vec<super::decide::MenuOption>,
    pub labels: Vec<String>,
    pub prompt: String,
    pub pass: String,
    pub known: Vec<Option<bool>>,
    /// The options of the last long menu by fingerprint.
    pub seen: Option<Box<super::menus::Seen>>,
    /// The frame of the last menu that ended.
    pub menu: Option<Box<super::decide::MenuFrame>>,
    /// Card ids copied out of a zone before they move (`move top N of Z`, `move Z`).
    pub ids: Vec<u32>,
    /// The text of a `log` that nobody records.
    pub text: String,
    /// `everyone`, `opponents(p)` and `from(p)`, built once for the living seats.
    pub seat_lists: SeatLists,
    /// Counts of zones by tests of kinds and other locals, by zone version (fast/counts.rs).
    pub counts: crate::engine::fast::ZoneCounts,
}

/// Working space kept in a box made when it is first needed: a clone starts with none, and copies
/// one pointer for it.
#[derive(Debug, Default)]
pub(crate) struct Lazy<T>(Option<Box<T>>);

impl<T> Clone for Lazy<T> {
    fn clone(&self) -> Lazy<T> {
        Lazy(None)
    }
}

impl<T: Default> Lazy<T> {
    #[inline]
    pub fn get(&mut self) -> &mut T {
        self.0.get_or_insert_with(Box::default)
    }
}

impl Recycled {
    /// An empty vector for the labels of a decision.
    pub fn labels(&mut self) -> Vec<String> {
        let mut v = std::mem::take(&mut self.labels);
        v.clear();
        v
    }

    /// `text` in the recycled prompt's buffer.
    pub fn prompt(&mut self, text: &str) -> String {
        let mut s = std::mem::take(&mut self.prompt);
        s.clear();
        s.push_str(text);
        s
    }

    /// The label `pass`.
    pub fn pass(&mut self) -> String {
        let s = std::mem::take(&mut self.pass);
        if s == "pass" {
            s
        } else {
            "pass".into()
        }
    }

    /// A menu's frame, in the box of the last menu that ended.
    pub fn menu_frame(&mut self, frame: super::decide::MenuFrame) -> Box<super::decide::MenuFrame> {
        match self.menu.take() {
            Some(mut b) => {
                *b = frame;
                b
            }
            None => Box::new(frame),
        }
    }

    /// Keeps the box and the options' vector of a menu that ended.
    pub fn keep_menu(&mut self, mut m: Box<super::decide::MenuFrame>) {
        self.keep_options(std::mem::take(&mut m.offered));
        self.menu = Some(m);
    }

    /// Keeps a menu's options vector, emptied, if it is larger than the one kept (a new menu's
    /// first listing replaces an empty one).
    pub fn keep_options(&mut self, mut options: Vec<super::decide::MenuOption>) {
        if options.capacity() > self.options.capacity() {
            options.clear();
            self.options = options;
        }
    }

    /// Keeps the buffers of an answered decision.
    pub fn keep(&mut self, mut d: super::Decision) {
        if d.options.last().is_some_and(|l| l == "pass") {
            self.pass = d.options.pop().unwrap_or_default();
        }
        d.options.clear();
        self.labels = d.options;
        self.prompt = d.prompt;
    }
}

/// A list of living seats (see [`State::seat_list`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SeatList {
    /// `everyone`: the living seats in seat order.
    Everyone,
    /// `from(p)`: the living seats from p, clockwise.
    From(u8),
    /// `opponents(p)`: the living seats after p, clockwise.
    Opponents(u8),
}

/// The lists of living seats built so far, shared by every expression that asks for the same one
/// until a seat is eliminated: `for p in everyone` and `first(opponents(you))` then build nothing
/// (in `State::recycled`: a clone starts with none).
#[derive(Debug, Default)]
pub(crate) struct SeatLists {
    /// The living seats the lists were built for, a bit per seat.
    living: u64,
    /// `everyone`, then `from(p)` of every seat, then `opponents(p)` of every seat.
    lists: Vec<Option<Arc<Vec<Value>>>>,
}

/// The calls of pure functions remembered while options are listed. A call is found by a table
/// of 1,024 places addressed by the hash of its function, `you`, `this` and arguments (open
/// addressing, the next place on a collision; at most 512 calls are remembered, so at least half
/// the places are free); the arguments of every remembered call lie one after the other in `args`,
/// so remembering a call allocates nothing once the vectors have grown.
///
/// Remembering changes nothing observable: a call found here adds the work its body did when it
/// was evaluated (`MemoEntry::work`), so budgets end games at the same step whether a call was
/// remembered or not. So the calls of a function are no longer looked for once that has not paid
/// (`FnMemo`). A clone starts with none, and with every function looked for.
///
/// The table lives behind a box made at the first call remembered, so that a game's state (copied
/// by every clone) holds one pointer for it.
#[derive(Debug, Default)]
pub(crate) struct Memo(Option<Box<MemoTable>>);

#[derive(Debug, Default)]
pub(crate) struct MemoTable {
    /// The remembered calls, in the order they were remembered.
    calls: Vec<MemoEntry>,
    /// The arguments of the remembered calls (`MemoEntry::args` is a range of it).
    args: Vec<Value>,
    /// 1 + an index of `calls`, or 0 for a free place (`MEMO_PLACES` places once used).
    table: Vec<u16>,
    /// By function: whether looking for its calls pays (kept while the memo is cleared).
    by_fn: Vec<FnMemo>,
}

/// How looking for the calls of one function paid: how often it was done, and the work the calls
/// found saved.
#[derive(Clone, Copy, Debug, Default)]
struct FnMemo {
    tries: u32,
    saved: u64,
    off: bool,
}

/// A function's calls are looked for as long as they save on average at least this much work per
/// look. (Measured with callgrind over random games: Heart of Crown's calls pay at 1 and cost 1%
/// more instructions at 2; Crafty Explorers' and Craft the Crown's calls, most of them never made
/// twice, cost 13% and 4% when all are looked for.)
const MEMO_WORTH: u64 = 1;

/// The places of `Memo::table`: a power of two, at least twice the most calls remembered.
const MEMO_PLACES: usize = 1024;

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo::default()
    }
}

impl Memo {
    /// Whether the calls of `f` are looked for.
    #[inline]
    pub fn wanted(&self, f: u16) -> bool {
        self.0.as_ref().is_none_or(|t| t.wanted(f))
    }

    /// The table, made at the first use.
    #[inline]
    pub fn table(&mut self) -> &mut MemoTable {
        self.0.get_or_insert_with(Default::default)
    }

    #[inline]
    pub fn clear(&mut self) {
        if let Some(t) = &mut self.0 {
            t.clear();
        }
    }
}

impl MemoTable {
    /// The place where a call's search starts.
    #[inline]
    fn place(f: u16, you: Option<u8>, this: Option<u32>, hash: u64) -> usize {
        let you = you.map_or(0, |y| y as u64 + 1);
        let this = this.map_or(0, |t| t as u64 + 1);
        let h = (hash ^ (f as u64) << 48 ^ you << 40 ^ this).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 54) as usize & (MEMO_PLACES - 1)
    }

    /// Whether the calls of `f` are looked for.
    #[inline]
    pub fn wanted(&self, f: u16) -> bool {
        self.by_fn.get(f as usize).is_none_or(|m| !m.off)
    }

    /// The remembered value of a call and the work its body did, if any. Counts the look for
    /// `wanted`: from 128 looks on, at every power of two, a function whose calls found saved less
    /// than `MEMO_WORTH` work a look is no longer looked for.
    #[inline]
    pub fn find(
        &mut self,
        f: u16,
        you: Option<u8>,
        this: Option<u32>,
        args: &[Value],
        hash: u64,
    ) -> Option<(&Value, u64)> {
        let found = self.look(f, you, this, args, hash);
        if self.by_fn.len() <= f as usize {
            self.by_fn.resize(f as usize + 1, FnMemo::default());
        }
        let stats = &mut self.by_fn[f as usize];
        stats.tries += 1;
        if let Some(i) = found {
            stats.saved += self.calls[i].work;
        }
        if stats.tries >= 128 && stats.tries.is_power_of_two() {
            stats.off = stats.saved < stats.tries as u64 * MEMO_WORTH;
        }
        let m = &self.calls[found?];
        Some((&m.value, m.work))
    }

    /// Where a call lies among `calls`, if it was remembered.
    #[inline]
    fn look(
        &self,
        f: u16,
        you: Option<u8>,
        this: Option<u32>,
        args: &[Value],
        hash: u64,
    ) -> Option<usize> {
        if self.calls.is_empty() {
            return None;
        }
        let mut at = Self::place(f, you, this, hash);
        loop {
            let i = (*self.table.get(at)? as usize).checked_sub(1)?;
            let m = self.calls.get(i)?;
            // The hash of the arguments first: most remembered calls differ there.
            if m.hash == hash
                && m.f == f
                && m.you == you
                && m.this == this
                && self.args.get(m.args.0 as usize..m.args.1 as usize) == Some(args)
            {
                return Some(i);
            }
            at = (at + 1) & (MEMO_PLACES - 1);
        }
    }

    /// Remembers a call of `f` with arguments `args` (of hash `hash`), its value and the work its
    /// body did, unless `most` calls are remembered already.
    #[allow(clippy::too_many_arguments)]
    pub fn remember(
        &mut self,
        f: u16,
        you: Option<u8>,
        this: Option<u32>,
        args: &[Value],
        hash: u64,
        value: Value,
        work: u64,
        most: usize,
    ) {
        let n = self.calls.len();
        if n >= most.min(MEMO_PLACES / 2) {
            return;
        }
        if self.table.is_empty() {
            self.table.resize(MEMO_PLACES, 0);
        }
        let mut at = Self::place(f, you, this, hash);
        while self.table[at] != 0 {
            at = (at + 1) & (MEMO_PLACES - 1);
        }
        self.table[at] = n as u16 + 1;
        let start = self.args.len() as u32;
        self.args.extend_from_slice(args);
        self.calls.push(MemoEntry {
            f,
            you,
            this,
            args: (start, self.args.len() as u32),
            hash,
            place: at as u16,
            value,
            work,
        });
    }

    #[inline]
    pub fn clear(&mut self) {
        if self.calls.is_empty() {
            return;
        }
        for m in self.calls.drain(..) {
            self.table[m.place as usize] = 0;
        }
        self.args.clear();
    }
}

/// A remembered call of a pure function: the function, `you`, `this`, its arguments (a range of
/// `Memo::args`), its value and work, and its place in `Memo::table`.
#[derive(Clone, Debug)]
struct MemoEntry {
    f: u16,
    you: Option<u8>,
    this: Option<u32>,
    args: (u32, u32),
    /// The arguments' hash (`Fx::of_values`).
    hash: u64,
    place: u16,
    value: Value,
    /// The work the call's body did (`State::exec_count`).
    work: u64,
}

impl State {
    /// The random generator, to draw from: the first draw is noted (`first_draw`).
    #[inline]
    pub fn rng_to_draw(&mut self) -> &mut ChaCha8Rng {
        self.note_draw();
        &mut self.rng
    }

    /// Notes a draw from the random generator about to happen (`first_draw`).
    #[inline]
    pub fn note_draw(&mut self) {
        if self.first_draw == NO_DRAW {
            self.first_draw = if self.nested == 0 {
                self.head
            } else {
                NESTED_DRAW
            };
        }
    }

    pub fn new(config: &GameConfig) -> State {
        let n = config.players;
        let names = (0..n)
            .map(|i| {
                config
                    .names
                    .get(i as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("P{}", i + 1))
            })
            .collect();
        State {
            players: n,
            participants: 0,
            fixed: std::sync::Arc::new(Fixed {
                names,
                max_turns: config.max_turns,
                max_steps: config.max_steps,
                max_decisions: config.max_decisions,
                closures: false,
            }),
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            cards: Vec::new(),
            shown: Vec::new(),
            zones: Zones::default(),
            globals: Vec::new(),
            pvars: Vec::new(),
            tally: Default::default(),
            cvars: CardVars::default(),
            eliminated: vec![false; n as usize],
            out_for_round: vec![false; n as usize],
            active: 0,
            turn: 0,
            frames: Vec::new(),
            ctxs: vec![Ctx::default()],
            events: Vec::new(),
            record: config.record,
            labels: config.labels,
            unlabelled: false,
            status: Status::Decision(Decision::default()),
            steps: 0,
            turn_steps: 0,
            exec_count: 0,
            head: 0,
            first_draw: NO_DRAW,
            short: false,
            depth: 0,
            memo_on: false,
            no_decide: None,
            spare: Pool::default(),
            spare_frames: Pool::default(),
            folds: Folds::default(),
            recycled: Lazy::default(),
            memo: Memo::default(),
            nested: 0,
            outer_phase: None,
            watch: None,
            recording: false,
            #[cfg(any(test, debug_assertions))]
            probe: super::probe::Probe::of(config),
        }
    }

    /// An empty vector for locals, with `n` slots of `none`.
    pub fn take_locals(&mut self, n: usize) -> Vec<Value> {
        let mut v = self.spare.0.pop().unwrap_or_default();
        grow_locals(&mut v, n);
        v
    }

    /// Returns a vector taken with `take_locals` to the spare pool.
    #[inline]
    pub fn give_back(&mut self, mut v: Vec<Value>) {
        let spare = &mut self.spare.0;
        if v.capacity() > 0 && spare.len() < 64 {
            v.clear();
            spare.push(v);
        }
    }

    /// Starts remembering pure function calls (the state must not change until `forget`).
    pub fn remember(&mut self) {
        #[cfg(test)]
        if self.probe.without.memo {
            return;
        }
        self.memo_on = true;
    }

    pub fn forget(&mut self) {
        self.memo_on = false;
        self.clear_memo();
    }

    pub fn push_ctx(&mut self, locals: Vec<Value>, you: Option<u8>, this: Option<u32>) {
        self.ctxs.push(Ctx { locals, you, this });
    }

    pub fn pop_ctx(&mut self) {
        if let Some(c) = self.ctxs.pop() {
            self.give_back(c.locals);
        }
    }

    /// Forgets the remembered calls (the state changed).
    #[inline]
    pub fn clear_memo(&mut self) {
        self.memo.clear();
    }

    pub fn truncate_ctxs(&mut self, base: usize) {
        while self.ctxs.len() > base {
            self.pop_ctx();
        }
    }

    pub fn push_event(&mut self, e: Event) {
        if self.record {
            self.events.push(e);
        }
    }

    pub fn name(&self, p: u8) -> String {
        self.fixed
            .names
            .get(p as usize)
            .cloned()
            .unwrap_or_else(|| format!("P{}", p as u32 + 1))
    }

    /// A list of living seats as a value, built the first time it is asked for with these seats
    /// living. A participant's `from` and `opponents` are the living seats from seat 1, as
    /// `everyone`.
    pub fn seat_list(&mut self, which: SeatList) -> Value {
        let n = self.players;
        let living = (0..n.min(64))
            .filter(|&q| self.living(q))
            .fold(0u64, |m, q| m | 1 << q);
        let (i, start, skip) = match which {
            SeatList::From(p) if p < n => (1 + p as usize, p, 0),
            SeatList::Opponents(p) if p < n => (1 + n as usize + p as usize, p, 1),
            _ => (0, 0, 0),
        };
        let cache = &mut self.recycled.get().seat_lists;
        if cache.living != living || cache.lists.is_empty() {
            cache.living = living;
            cache.lists.clear();
            cache.lists.resize(1 + 2 * n as usize, None);
        }
        if let Some(Some(l)) = cache.lists.get(i) {
            return Value::List(l.clone());
        }
        let list: Arc<Vec<Value>> = Arc::new(
            (skip..n)
                .map(|k| ((start as u32 + k as u32) % n as u32) as u8)
                .filter(|&q| self.living(q))
                .map(Value::Player)
                .collect(),
        );
        if let Some(slot) = self.recycled.get().seat_lists.lists.get_mut(i) {
            *slot = Some(list.clone());
        }
        Value::List(list)
    }

    /// `left(p)` (the next living seat clockwise) or `right(p)` (anticlockwise); none for a
    /// participant, or when no other seat lives (then p itself, if it lives).
    pub fn neighbour(&self, p: u8, left: bool) -> Value {
        let n = self.players as u32;
        if p as u32 >= n {
            return Value::None;
        }
        let p = p as u32;
        for k in 1..=n {
            // Clockwise is seat + 1; k <= n keeps `p + n - k` from going below zero.
            let q = if left { (p + k) % n } else { (p + n - k) % n } as u8;
            if self.living(q) {
                return Value::Player(q);
            }
        }
        Value::None
    }

    pub fn living(&self, p: u8) -> bool {
        (p as usize) < self.eliminated.len() && !self.eliminated[p as usize]
    }

    /// The player who owns a zone instance (following cards attached to cards).
    pub fn zone_owner(&self, mut z: u32) -> Option<u8> {
        for _ in 0..64 {
            match self.zones.holder(z as usize)? {
                Holder::Player(p) => return Some(p),
                Holder::Card(c) => z = self.cards.get(c as usize)?.zone,
                _ => return None,
            }
        }
        None
    }

    pub fn card_owner(&self, c: u32) -> Option<u8> {
        self.zone_owner(self.cards.get(c as usize)?.zone)
    }

    /// Seats that can see a card lying in zone `z` with the given face, as a bit mask.
    /// Seats (bit mask) that may see a card where it lies: its zone's visibility, its face, and whom it
    /// was shown to.
    pub fn card_seen_mask(&self, p: &Program, card: u32) -> u64 {
        match self.cards.get(card as usize) {
            Some(cs) => self.seen_mask(p, cs.zone, cs.face_up) | self.known(card),
            None => 0,
        }
    }

    pub fn seen_mask(&self, p: &Program, z: u32, face_up: bool) -> u64 {
        if z as usize >= self.zones.len() {
            return 0;
        }
        let vis = p
            .zones
            .get(self.zones.def(z as usize).index())
            .map(|d| d.visibility);
        // A face-up card is seen by everyone. A face-down card lying in a public zone (a card played
        // face down on the table) shows nobody its face; in an owner zone its owner may look at it.
        if face_up {
            return u64::MAX;
        }
        match vis {
            Some(Visibility::Owner) => match self.zone_owner(z) {
                Some(o) if o < 64 => 1 << o,
                _ => 0,
            },
            // Every seat but the owner (a zone with no owner is refused by the checker, E316).
            Some(Visibility::Others) => match self.zone_owner(z) {
                Some(o) if o < 64 => !(1 << o),
                _ => 0,
            },
            Some(Visibility::Public | Visibility::Hidden) | None => 0,
        }
    }

    /// Seats (bit mask) that were shown card `c` since it last moved.
    #[inline]
    pub fn known(&self, c: u32) -> u64 {
        if self.shown.is_empty() {
            return 0;
        }
        match self.shown.binary_search_by_key(&c, |e| e.0) {
            Ok(i) => self.shown[i].1,
            Err(_) => 0,
        }
    }

    /// Card `c` is shown to `seat`.
    pub fn show(&mut self, c: u32, seat: u8) {
        if seat >= 64 {
            return;
        }
        match self.shown.binary_search_by_key(&c, |e| e.0) {
            Ok(i) => self.shown[i].1 |= 1u64 << seat,
            Err(i) => self.shown.insert(i, (c, 1u64 << seat)),
        }
    }

    /// Card `c` moved: whom it was shown to is forgotten; returns it.
    #[inline]
    pub fn unshow(&mut self, c: u32) -> u64 {
        if self.shown.is_empty() {
            return 0;
        }
        match self.shown.binary_search_by_key(&c, |e| e.0) {
            Ok(i) => self.shown.remove(i).1,
            Err(_) => 0,
        }
    }

    pub fn default_face(p: &Program, def: ZoneId) -> bool {
        p.zones.get(def.index()).map(|d| d.visibility) == Some(Visibility::Public)
    }
}

#[cfg(test)]
mod folds_tests {
    use super::Folds;

    #[test]
    fn a_fold_is_found_at_its_zone_key_and_version_only() {
        let mut f = Folds::default();
        assert_eq!(f.get(3, 0, 0), None, "nothing kept yet");
        f.keep(3, 7, 0, 42);
        assert_eq!(f.get(3, 7, 0), Some(42));
        assert_eq!(f.get(3, 8, 0), None, "another version");
        assert_eq!(f.get(3, 7, 4), None, "another property or operation");
        assert_eq!(f.get(4, 7, 0), None, "another zone");
        // Zones of consecutive ids and a few keys each have their own place.
        for z in 0..16 {
            for key in [0, 1, 4] {
                f.keep(z, 1, key, i64::from(z) * 10 + i64::from(key));
            }
        }
        for z in 0..16 {
            for key in [0, 1, 4] {
                assert_eq!(f.get(z, 1, key), Some(i64::from(z) * 10 + i64::from(key)));
            }
        }
        // A fold that takes the place of another replaces it; a copy starts with none.
        f.keep(64, 1, 0, -1);
        assert_eq!((f.get(64, 1, 0), f.get(0, 1, 0)), (Some(-1), None));
        assert_eq!(f.clone().get(64, 1, 0), None);
    }
}
