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

mod layout;
mod memo;
mod zones;
pub(crate) use layout::*;
pub(crate) use memo::*;
pub(crate) use zones::*;

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
