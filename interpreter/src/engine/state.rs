//! Engine stage: the plain-data state of a game (cards, zones, variables, frames) and its fixed layout.

use super::exec::Frame;
use super::trace::Event;
use super::{Decision, GameConfig, Status};
use crate::program::{ExprKind, Program, VarId, Visibility, ZoneId};
use crate::value::Value;
use cardgame_grammar::ast::Scope;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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
    /// Seats (bit mask) that were shown the card (`show`) since it last moved.
    pub known: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct ZoneInst {
    pub def: ZoneId,
    pub holder: Holder,
    /// Bottom first: the top of the zone is the end of the vector.
    pub cards: Vec<u32>,
    /// Bumped by every change of `cards` (what the checks' records compare, see `watch.rs`).
    pub ver: u32,
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
    /// The script's measure of a seat for bots: `fn heuristic(p: player): int`, else `fn score` of
    /// the same shape (see `Game::script_score`).
    pub measure: Option<usize>,
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
        for k in &p.kinds {
            for (pid, d) in p.props.iter().enumerate() {
                let e = match k.props.get(pid) {
                    Some(Some(e)) => e,
                    _ => &d.default,
                };
                prop_const.push(match &e.kind {
                    ExprKind::Const(v) => Some(v.clone()),
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
        Layout {
            measure,
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
            ..Layout::default()
        }
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

/// The mutable state of a game.
#[derive(Clone, Debug)]
pub(crate) struct State {
    /// Seats: players 0..players.
    pub players: u8,
    /// Participants that are not seats (`participant NAME`): players players..players + participants.
    pub participants: u8,
    /// Shared between clones (fixed once the game is created).
    pub names: std::sync::Arc<[String]>,
    pub max_turns: u32,
    /// The work budget between two decisions (see `GameConfig::max_steps`).
    pub max_steps: u64,
    /// Decisions one turn may take (see `GameConfig::max_decisions`).
    pub max_decisions: u64,
    pub rng: ChaCha8Rng,
    pub cards: Vec<CardState>,
    pub zones: Vec<ZoneInst>,
    pub options: Vec<Value>,
    pub columns: Vec<Value>,
    pub globals: Vec<Value>,
    pub pvars: Vec<Value>,
    /// Abilities performed, `[seat * kinds + kind]` (filled on first use), for simulation figures.
    pub performed: Vec<u32>,
    /// What simulations report: `stat` records, actions offered, cards chosen and moved.
    pub tally: super::stats::Tally,
    pub cvars: Vec<Value>,
    pub eliminated: Vec<bool>,
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
    /// Set when `top N of Z` found fewer than N cards.
    pub short: bool,
    /// Nesting of function and property evaluation.
    pub depth: u32,
    /// Why decisions are not allowed right now (a check, given or do block).
    pub no_decide: Option<&'static str>,
    /// The innermost phase of the stack a nested run (a check) interrupted, for error positions.
    pub outer_phase: Option<super::exec::At>,
    /// An emptied frame stack kept for the next nested run.
    pub spare_frames: Vec<Frame>,
    /// Runs nested inside others (checks, given, do).
    pub nested: usize,
    /// Emptied local vectors kept for reuse (fewer allocations per call).
    pub spare: Vec<Vec<Value>>,
    /// Whether pure function calls are remembered now: only while no statement runs, as when the
    /// options of a menu or a choice are listed with the state unchanged.
    pub memo_on: bool,
    /// The remembered calls (empty when `memo_on` is off).
    pub memo: Vec<MemoEntry>,
    /// What the guarded checks read and its versions (`None` for a script without one, or before
    /// its first check ran; see `watch.rs`).
    pub watch: Option<Box<super::watch::Watch>>,
    /// Whether the reads of what is evaluated are noted in `watch` (while a guard is evaluated).
    pub recording: bool,
}

/// A remembered call of a pure function: function, `you`, `this`, arguments and value.
#[derive(Clone, Debug)]
pub struct MemoEntry {
    pub func: u16,
    pub you: Option<u8>,
    pub this: Option<u32>,
    pub args: Vec<Value>,
    pub value: Value,
}

impl State {
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
            names,
            max_turns: config.max_turns,
            max_steps: config.max_steps,
            max_decisions: config.max_decisions,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            cards: Vec::new(),
            zones: Vec::new(),
            options: Vec::new(),
            columns: Vec::new(),
            globals: Vec::new(),
            pvars: Vec::new(),
            performed: Vec::new(),
            tally: Default::default(),
            cvars: Vec::new(),
            eliminated: vec![false; n as usize],
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
            short: false,
            depth: 0,
            memo_on: false,
            memo: Vec::new(),
            no_decide: None,
            spare: Vec::new(),
            nested: 0,
            spare_frames: Vec::new(),
            outer_phase: None,
            watch: None,
            recording: false,
        }
    }

    /// An empty vector for locals, with `n` slots of `none`.
    pub fn take_locals(&mut self, n: usize) -> Vec<Value> {
        let mut v = self.spare.pop().unwrap_or_default();
        v.resize(n, Value::None);
        v
    }

    /// Returns a vector taken with `take_locals` to the spare pool.
    pub fn give_back(&mut self, mut v: Vec<Value>) {
        if v.capacity() > 0 && self.spare.len() < 64 {
            v.clear();
            self.spare.push(v);
        }
    }

    /// Starts remembering pure function calls (the state must not change until `forget`).
    pub fn remember(&mut self) {
        self.memo_on = true;
    }

    pub fn forget(&mut self) {
        self.memo_on = false;
        self.memo.clear();
    }

    pub fn push_ctx(&mut self, locals: Vec<Value>, you: Option<u8>, this: Option<u32>) {
        self.ctxs.push(Ctx { locals, you, this });
    }

    pub fn pop_ctx(&mut self) {
        if let Some(c) = self.ctxs.pop() {
            let mut v = c.locals;
            if v.capacity() > 0 && self.spare.len() < 64 {
                v.clear();
                self.spare.push(v);
            }
        }
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
        self.names
            .get(p as usize)
            .cloned()
            .unwrap_or_else(|| format!("P{}", p as u32 + 1))
    }

    pub fn living(&self, p: u8) -> bool {
        (p as usize) < self.eliminated.len() && !self.eliminated[p as usize]
    }

    /// The player who owns a zone instance (following cards attached to cards).
    pub fn zone_owner(&self, mut z: u32) -> Option<u8> {
        for _ in 0..64 {
            match self.zones.get(z as usize)?.holder {
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
            Some(cs) => self.seen_mask(p, cs.zone, cs.face_up) | cs.known,
            None => 0,
        }
    }

    pub fn seen_mask(&self, p: &Program, z: u32, face_up: bool) -> u64 {
        let Some(zi) = self.zones.get(z as usize) else {
            return 0;
        };
        let vis = p.zones.get(zi.def.index()).map(|d| d.visibility);
        // A face-up card is seen by everyone. A face-down card lying in a public zone (a card played
        // face down on the table) shows nobody its face; in an owner zone its owner may look at it.
        if face_up {
            return u64::MAX;
        }
        if vis == Some(Visibility::Owner) {
            if let Some(o) = self.zone_owner(z) {
                if o < 64 {
                    return 1 << o;
                }
            }
        }
        0
    }

    pub fn default_face(p: &Program, def: ZoneId) -> bool {
        p.zones.get(def.index()).map(|d| d.visibility) == Some(Visibility::Public)
    }
}
