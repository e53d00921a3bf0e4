//! Engine stage: read-only figures about a position for simulation statistics (who holds which cards),
//! and what a game records as it goes for them (`stat` statements, the actions offered, the cards chosen
//! and moved).

use super::state::Holder;
use super::Game;
use crate::program::AssignOp;
use crate::value::Value;

/// What a game notes as it is played, for `cardgame sim` (never shown in a trace). Cloned with the
/// game; the bit sets grow on first use.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// `stat NAME = E` records, in the order run: (statistic, turn, value).
    pub records: Vec<(u16, u32, i64)>,
    /// `stat NAME += E` totals, by statistic (empty until the first).
    pub counters: Vec<i64>,
    /// What statistics kept per key recorded, boxed when first needed so that a game without them
    /// copies one pointer.
    pub keyed: Option<Box<KeyedTally>>,
    /// Abilities performed, `[seat * kinds + kind]` (filled on first use).
    pub performed: Vec<u32>,
    /// Three bit sets in one vector, bit `i * 3 + mark` (see `Mark`).
    marks: Vec<u64>,
}

/// What statistics kept per key (`stat NAME[K] ...`) recorded in a game.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyedTally {
    /// `stat NAME[K] = E` records, in the order run: (statistic, turn, key, value). Each is in
    /// `Tally::records` too, as a record of every key together.
    pub records: Vec<(u16, u32, Value, i64)>,
    /// `stat NAME[K] += E` totals: (statistic, key, total), in the order the keys were first
    /// counted. Each is added to `Tally::counters` too.
    pub counters: Vec<(u16, Value, i64)>,
}

/// What the tally marks, per action or card kind.
#[derive(Clone, Copy)]
pub(crate) enum Mark {
    /// An action offered in a menu at least once.
    Offered = 0,
    /// A card kind of which a card, or the kind itself, was the value of a chosen option (a
    /// `choose`, a simultaneous choice, an argument of a chosen action).
    Chosen = 1,
    /// A card kind of which a card moved to another zone after the first decision.
    Moved = 2,
}

impl Tally {
    /// `stat NAME[K] = E` (`Set`: a record of `v` for key `key`, run in turn `turn`) or
    /// `stat NAME[K] += E` / `-= E` (the key's total changes by `v`); either way also a record of
    /// every key together, as `stat NAME = E` or `+= E` would make.
    pub fn record_at(&mut self, stat: u16, turn: u32, key: Value, op: AssignOp, v: i64) {
        let i = stat as usize;
        let keyed = self.keyed.get_or_insert_with(Box::default);
        match op {
            AssignOp::Set => {
                self.records.push((stat, turn, v));
                keyed.records.push((stat, turn, key, v));
            }
            AssignOp::Add | AssignOp::Sub => {
                let v = if op == AssignOp::Sub {
                    v.saturating_neg()
                } else {
                    v
                };
                if self.counters.len() <= i {
                    self.counters.resize(i + 1, 0);
                }
                self.counters[i] = self.counters[i].saturating_add(v);
                match keyed
                    .counters
                    .iter_mut()
                    .find(|(s, k, _)| *s == stat && *k == key)
                {
                    Some(e) => e.2 = e.2.saturating_add(v),
                    None => keyed.counters.push((stat, key, v)),
                }
            }
        }
    }

    /// Marks action or kind `i`, growing the bit sets as needed.
    #[inline]
    pub fn mark(&mut self, mark: Mark, i: usize) {
        let b = i * 3 + mark as usize;
        let w = b / 64;
        if self.marks.len() <= w {
            self.marks.resize(w + 1, 0);
        }
        self.marks[w] |= 1 << (b % 64);
    }

    /// Words in the bit sets.
    pub fn marks_len(&self) -> usize {
        self.marks.len()
    }

    fn marked(&self, mark: Mark, i: usize) -> bool {
        let b = i * 3 + mark as usize;
        self.marks
            .get(b / 64)
            .is_some_and(|w| w & (1 << (b % 64)) != 0)
    }
}

impl Game {
    /// Each seat's team now (`teams by VAR`: the value of VAR as the language writes it), or `None`
    /// when the script declares no teams.
    pub fn teams(&self) -> Option<Vec<String>> {
        let var = self.prog.teams?;
        let n = self.layout.n_pvars;
        let i = self.layout.var(var);
        Some(
            (0..self.st.players as usize)
                .map(|p| {
                    let v = self.st.pvars.get(p * n + i).cloned().unwrap_or_default();
                    super::label::label(&self.prog, &self.layout, &self.st, &v)
                })
                .collect(),
        )
    }

    /// The value now of variable `var` (`Program::vars` index) as a whole number (`true` is 1): a
    /// variable of the game, or `seat`'s for a per-player variable; `None` for a per-card or per-space
    /// variable, or a value that is not a number.
    pub fn variable_number(&self, var: usize, seat: u8) -> Option<i64> {
        use cardgame_grammar::ast::Scope;
        let def = self.prog.vars.get(var)?;
        let i = self.layout.var(crate::program::VarId(var as u16));
        let value = match def.scope {
            Scope::Shared => self.st.globals.get(i),
            Scope::PerPlayer => self
                .st
                .pvars
                .get(usize::from(seat) * self.layout.n_pvars + i),
            Scope::PerCard | Scope::PerSpace => None,
        }?;
        match value {
            crate::value::Value::Int(n) => Some(*n),
            crate::value::Value::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    /// The values recorded by `stat NAME = E` so far, in the order run: (statistic index in
    /// `Program::stats`, turn number when it ran, value).
    pub fn stat_records(&self) -> &[(u16, u32, i64)] {
        &self.st.tally.records
    }

    /// The values recorded by `stat NAME[K] = E` so far, in the order run: (statistic, turn, key,
    /// value).
    pub fn stat_keyed_records(&self) -> &[(u16, u32, Value, i64)] {
        self.st.tally.keyed.as_deref().map_or(&[], |k| &k.records)
    }

    /// The totals of `stat NAME[K] += E` statistics so far: (statistic, key, total), each key in
    /// the order it was first counted.
    pub fn stat_keyed_counters(&self) -> &[(u16, Value, i64)] {
        self.st.tally.keyed.as_deref().map_or(&[], |k| &k.counters)
    }

    /// The total of a `stat NAME += E` statistic so far (0 when nothing was added).
    pub fn stat_counter(&self, stat: usize) -> i64 {
        self.st.tally.counters.get(stat).copied().unwrap_or(0)
    }

    /// Per action: whether it was offered in a menu so far.
    pub fn actions_offered(&self) -> Vec<bool> {
        (0..self.prog.actions.len())
            .map(|a| self.st.tally.marked(Mark::Offered, a))
            .collect()
    }

    /// Per card kind: whether a card of it lies outside the box now.
    pub fn kinds_out_of_box(&self) -> Vec<bool> {
        let boxed = self
            .layout
            .zone_base
            .get(self.prog.box_zone.index())
            .copied();
        let mut out = vec![false; self.prog.kinds.len()];
        for c in &self.st.cards {
            if Some(c.zone) != boxed {
                if let Some(o) = out.get_mut(c.kind as usize) {
                    *o = true;
                }
            }
        }
        out
    }

    /// Per card kind: (a card of it, or the kind, was chosen in a decision; a card of it moved to
    /// another zone after the first decision).
    pub fn kinds_used(&self) -> Vec<(bool, bool)> {
        (0..self.prog.kinds.len())
            .map(|k| {
                let t = &self.st.tally;
                (t.marked(Mark::Chosen, k), t.marked(Mark::Moved, k))
            })
            .collect()
    }
}

impl Game {
    /// Per seat: how many cards of each kind lie in zones that seat holds (its own zones, and zones
    /// attached to cards in them). Indexed `[seat][kind]`.
    pub fn holdings(&self) -> Vec<Vec<u32>> {
        let nk = self.prog.kinds.len();
        let mut out = vec![vec![0u32; nk]; self.st.players as usize];
        for card in &self.st.cards {
            if let Some(seat) = self.holder_seat(card.zone) {
                if let Some(slot) = out
                    .get_mut(seat as usize)
                    .and_then(|v| v.get_mut(card.kind as usize))
                {
                    *slot += 1;
                }
            }
        }
        out
    }

    /// Per seat: how many times an ability of each kind of card was performed for it (`perform`),
    /// counting the performing card (the copier, for `perform A of C as T`). Indexed `[seat][kind]`.
    pub fn performed(&self) -> Vec<Vec<u32>> {
        let nk = self.prog.kinds.len();
        (0..self.st.players as usize)
            .map(|p| {
                (0..nk)
                    .map(|k| {
                        self.st
                            .tally
                            .performed
                            .get(p * nk + k)
                            .copied()
                            .unwrap_or(0)
                    })
                    .collect()
            })
            .collect()
    }

    /// The seat holding a zone instance, following attachments to their host card (bounded, so a
    /// malformed chain cannot loop).
    /// The participants that are not seats (`participant NAME`) the game gave a role, by their shown
    /// names: at the end, one holds a card or has a per-player variable whose value is not the one
    /// declared (simulation reports list only them and the participants that won).
    pub fn participants_holding(&self) -> Vec<String> {
        let n = self.st.players;
        let np = self.layout.n_pvars;
        let base = n as usize * np;
        let mut held: Vec<bool> = (0..self.st.participants as usize)
            .map(|i| {
                let now = self.st.pvars.get(base + i * np..base + (i + 1) * np);
                let then = self.layout.participant_init.get(i * np..(i + 1) * np);
                now != then
            })
            .collect();
        for card in &self.st.cards {
            if let Some(p) = self.holder_seat(card.zone) {
                if let Some(h) = p.checked_sub(n).and_then(|i| held.get_mut(i as usize)) {
                    *h = true;
                }
            }
        }
        (0..self.st.participants)
            .filter(|&i| held[i as usize])
            .map(|i| self.st.name(n.saturating_add(i)))
            .collect()
    }

    fn holder_seat(&self, zone: u32) -> Option<u8> {
        let mut z = zone;
        for _ in 0..64 {
            match self.st.zones.holder(z as usize)? {
                Holder::Player(p) => return Some(p),
                Holder::Card(c) => z = self.st.cards.get(c as usize)?.zone,
                Holder::Shared | Holder::Space(_) => return None,
            }
        }
        None
    }
}

impl Game {
    /// An estimate of the bytes a game's state occupies (what a clone copies): the state itself,
    /// cards, zones, variables, frames and their locals, the tally, the checks' records. (Values
    /// count their own size: the lists they share are not copied.)
    pub fn state_size(&self) -> usize {
        use std::mem::size_of;
        let s = &self.st;
        let value = size_of::<crate::value::Value>();
        let t = &s.tally;
        size_of::<Game>()
            + s.cards.len() * size_of::<super::state::CardState>()
            + s.shown.len() * size_of::<(u32, u64)>()
            + (s.globals.len() + s.pvars.len()) * value
            + s.cvars.heap_size()
            + s.zones.heap_size()
            + s.frames.len() * size_of::<super::exec::Frame>()
            + s.ctxs
                .iter()
                .map(|c| size_of::<super::state::Ctx>() + c.locals.len() * value)
                .sum::<usize>()
            + t.records.len() * size_of::<(u16, u32, i64)>()
            + t.counters.len() * 8
            + t.keyed.as_deref().map_or(0, |k| {
                size_of::<KeyedTally>()
                    + k.records.len() * size_of::<(u16, u32, Value, i64)>()
                    + k.counters.len() * size_of::<(u16, Value, i64)>()
            })
            + t.performed.len() * 4
            + t.marks_len() * 8
            + s.watch.as_deref().map_or(0, |w| w.heap_size())
    }
}
