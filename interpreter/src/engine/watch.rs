//! Engine stage: `check` blocks skipped when nothing they read has changed (docs/engine.md at
//! fe8b0bc, stage 2).
//!
//! A guarded check (only `if`s without `else`, pure conditions) none of whose conditions holds does
//! nothing. When its conditions were all false, what they read is kept with its versions; before the
//! next decision, if none of it changed, every condition is still false and the check is skipped
//! without evaluating anything. Reads are noted only while a guard is evaluated (`State::recording`):
//! the kind of every expression evaluated (`Mach::note_expr`: variables, `you`, the active player,
//! the turn, the living players, card positions) and the zone instances whose cards are read
//! (`Mach::note_zone`, at the sites that consume a `Value::Zone`). What cannot be tracked (a text, a
//! pile, `random`) makes the check not skippable.

use super::exec::Mach;
use super::state::State;
use crate::program::{Body, Builtin, Expr, ExprKind, Field};
use crate::value::Value;

/// One thing a guard read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dep {
    /// The cards of a zone instance (and their order).
    Zone(u32),
    /// Any instance of a variable definition.
    Var(u16),
    /// Where the cards lie and which face they show (`c.zone`, `c.owner`, `c.face_up`, the owner
    /// a property is evaluated for).
    Moves,
    /// The active player (`active`, and `you` outside a card).
    Active,
    Turn,
    /// The living players (`eliminate` takes from them; the end of a round gives back those out
    /// for the round, so the set can come back to the same size with other players in it).
    Eliminated,
}

/// What the guarded checks read, and the versions that tell whether it changed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    /// Per variable definition: bumped by every write to any of its instances.
    var_ver: Vec<u32>,
    /// Bumped by every card move, change of face and redeal.
    moves: u32,
    /// Bumped by every change of the living players (out, out for the round, back).
    living: u32,
    /// While a guard is evaluated: what it read so far.
    notes: Vec<Dep>,
    /// While a guard is evaluated: it read something that is not tracked.
    lost: bool,
    /// Per check: what its conditions read, with the versions, when they were last all false
    /// (`None`: the check must be evaluated).
    seen: Vec<Option<Vec<(Dep, u64)>>>,
    /// Per check: how recording has paid off lately.
    tally: Vec<Tally>,
}

/// Recording costs a little; a check whose records are nearly always out of date by the next
/// decision (what it reads changes at every move) stops recording for a while.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Guards evaluated with recording, and checks skipped, since the last look.
    records: u16,
    skips: u16,
    /// Evaluations left without recording.
    pause: u16,
}

/// Records between two looks at a check's tally.
const WINDOW: u16 = 16;
/// Evaluations without recording when fewer than one in three were skipped.
const PAUSE: u16 = 256;

impl Watch {
    /// The bytes a clone copies beyond the box itself.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        size_of::<Watch>()
            + self.var_ver.len() * 4
            + self.seen.len() * size_of::<Option<Vec<(Dep, u64)>>>()
            + self.tally.len() * size_of::<Tally>()
            + self
                .seen
                .iter()
                .flatten()
                .map(|r| r.len() * size_of::<(Dep, u64)>())
                .sum::<usize>()
    }
}

impl State {
    /// A variable definition was written.
    #[inline]
    pub fn wrote_var(&mut self, var: usize) {
        if let Some(w) = self.watch.as_deref_mut() {
            if let Some(v) = w.var_ver.get_mut(var) {
                *v = v.wrapping_add(1);
            }
        }
    }

    /// The living players changed (a player out, or back at the end of a round). A version, not
    /// a count of the players out: one out and another back leaves the count as it was.
    #[inline]
    pub fn living_changed(&mut self) {
        if let Some(w) = self.watch.as_deref_mut() {
            w.living = w.living.wrapping_add(1);
        }
    }

    /// A card moved or changed face.
    #[inline]
    pub fn moved(&mut self) {
        self.moved_many(1);
    }

    /// `moved` `n` times.
    #[inline]
    pub fn moved_many(&mut self, n: u32) {
        if let Some(w) = self.watch.as_deref_mut() {
            w.moves = w.moves.wrapping_add(n);
        }
    }

    /// Forgets every check's record (the state was changed behind the engine's back: a redeal).
    pub fn forget_checks(&mut self) {
        if let Some(w) = self.watch.as_deref_mut() {
            w.seen.iter_mut().for_each(|r| *r = None);
            w.moves = w.moves.wrapping_add(1);
        }
    }

    fn version(&self, w: &Watch, d: Dep) -> u64 {
        match d {
            Dep::Zone(z) => self
                .zones
                .get(z as usize)
                .map_or(u64::MAX, |zi| zi.ver as u64),
            Dep::Var(v) => w.var_ver.get(v as usize).map_or(u64::MAX, |&x| x as u64),
            Dep::Moves => w.moves as u64,
            Dep::Active => self.active as u64,
            Dep::Turn => self.turn as u64,
            Dep::Eliminated => w.living as u64,
        }
    }

    /// Whether check `i` has a record and nothing it holds has changed.
    fn unchanged(&self, i: usize) -> bool {
        let Some(w) = self.watch.as_deref() else {
            return false;
        };
        let Some(Some(rec)) = w.seen.get(i) else {
            return false;
        };
        rec.iter().all(|&(d, v)| self.version(w, d) == v)
    }
}

impl<'a> Mach<'a> {
    /// Whether guarded check `i` has work to do: its guards answered by the closures when the game
    /// runs on them and they compiled (engine/closures), else as `guard_needed` says.
    pub(crate) fn check_needed(&mut self, i: usize, body: Body) -> bool {
        let closures = self.p.closures.as_deref().filter(|_| self.s.fixed.closures);
        match closures.and_then(|k| k.guard_holds(i, self.p, self.s, self.l)) {
            Some(holds) => holds,
            None => self.guard_needed(i, body),
        }
    }

    /// Whether guarded check `i` has work to do (see `some_guard_holds`). A check none of whose
    /// conditions held, when nothing they read has changed since, is skipped without evaluating
    /// anything; otherwise its guard is evaluated, noting what it reads.
    pub(crate) fn guard_needed(&mut self, i: usize, body: Body) -> bool {
        if self.s.unchanged(i) {
            if let Some(t) = self.s.watch.as_deref_mut().and_then(|w| w.tally.get_mut(i)) {
                t.skips = t.skips.saturating_add(1);
            }
            #[cfg(debug_assertions)]
            self.assert_still_false(body);
            return false;
        }
        let n = self.p.checks.len();
        let nvars = self.p.vars.len();
        let w = self.s.watch.get_or_insert_with(|| {
            Box::new(Watch {
                var_ver: vec![0; nvars],
                seen: vec![None; n],
                tally: vec![Tally::default(); n],
                ..Watch::default()
            })
        });
        let paused = match w.tally.get_mut(i) {
            Some(t) if t.pause > 0 => {
                t.pause -= 1;
                true
            }
            _ => false,
        };
        // Remembered calls would hide what they read (they are off while checks run anyway).
        let record = !paused && !self.s.memo_on && !self.s.recording;
        if record {
            w.notes.clear();
            w.lost = false;
            self.s.recording = true;
        }
        let holds = self.some_guard_holds(body);
        if record {
            self.s.recording = false;
            let s = &mut *self.s;
            if let Some(mut w) = s.watch.take() {
                // The record's vector is reused from one evaluation to the next.
                let mut rec = w.seen.get_mut(i).and_then(|r| r.take()).unwrap_or_default();
                rec.clear();
                let keep = !holds && !w.lost;
                if keep {
                    rec.extend(w.notes.iter().map(|&d| (d, s.version(&w, d))));
                }
                w.notes.clear();
                if let Some(slot) = w.seen.get_mut(i) {
                    *slot = keep.then_some(rec);
                }
                if let Some(t) = w.tally.get_mut(i) {
                    t.records += 1;
                    if t.records >= WINDOW {
                        if t.skips < t.records / 2 {
                            t.pause = PAUSE;
                            if let Some(slot) = w.seen.get_mut(i) {
                                *slot = None;
                            }
                        }
                        t.records = 0;
                        t.skips = 0;
                    }
                }
                s.watch = Some(w);
            }
        }
        holds
    }

    /// The safety net of debug builds: a skipped check's conditions are evaluated all the same (their
    /// work not counted) and must all be false.
    #[cfg(debug_assertions)]
    fn assert_still_false(&mut self, body: Body) {
        let work = std::mem::replace(&mut self.s.exec_count, 0);
        let holds = self.some_guard_holds(body);
        self.s.exec_count = work;
        debug_assert!(
            !holds,
            "a check was skipped though one of its conditions holds (a read not tracked)"
        );
    }

    /// Notes what an expression reads by its kind alone (called while recording, for every
    /// expression evaluated but constants and locals). For `you` and `active`, which `eval` reads at
    /// once when not recording, also gives their value (no work counted, as then).
    #[inline]
    pub(crate) fn note_expr(&mut self, e: &Expr) -> Option<Value> {
        let d = match &e.kind {
            ExprKind::Global(v) | ExprKind::PlayerVar(v, _) | ExprKind::CardVar(v, _) => {
                Dep::Var(v.0)
            }
            ExprKind::You | ExprKind::Active => {
                self.note(Dep::Active);
                self.s.recording = false;
                let v = self.leaf(e);
                self.s.recording = true;
                return v;
            }
            ExprKind::TurnNumber => Dep::Turn,
            ExprKind::Everyone
            | ExprKind::Builtin(
                Builtin::Left
                | Builtin::Right
                | Builtin::Opponents
                | Builtin::From
                | Builtin::Eliminated,
                _,
            ) => Dep::Eliminated,
            ExprKind::Field(Field::Owner | Field::Zone | Field::FaceUp, _) => Dep::Moves,
            ExprKind::Text(_) | ExprKind::Pile { .. } | ExprKind::Builtin(Builtin::Random, _) => {
                if let Some(w) = self.s.watch.as_deref_mut() {
                    w.lost = true;
                }
                return None;
            }
            // What these read of the game is noted elsewhere: their operands as they are evaluated,
            // a zone's cards where they are consumed (`note_zone`), a property's or a function's
            // own expression as it runs. Every kind is named, so that a new one must be placed.
            ExprKind::Const(_)
            | ExprKind::Local(_)
            | ExprKind::Option(_)
            | ExprKind::Column(_)
            | ExprKind::Prop(..)
            | ExprKind::TagOf(..)
            | ExprKind::Field(Field::Kind | Field::X | Field::Y, _)
            | ExprKind::Zone(..)
            | ExprKind::Spaces
            | ExprKind::This
            | ExprKind::Players
            | ExprKind::Participant(_)
            | ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::IsTag(..)
            | ExprKind::IsKind(..)
            | ExprKind::If(..)
            | ExprKind::List(_)
            | ExprKind::Range(..)
            | ExprKind::Aggregate { .. }
            | ExprKind::CallFn(..)
            | ExprKind::Let(..)
            | ExprKind::Builtin(
                Builtin::Size
                | Builtin::Max2
                | Builtin::Min2
                | Builtin::Abs
                | Builtin::Take
                | Builtin::Index
                | Builtin::Flatten
                | Builtin::First
                | Builtin::Last
                | Builtin::Cards
                | Builtin::Kinds
                | Builtin::Distinct
                | Builtin::Seat
                | Builtin::At
                | Builtin::Neighbours
                | Builtin::Adjacent,
                _,
            ) => return None,
        };
        self.note(d);
        None
    }

    /// Notes that the cards of zone instance `z` are read.
    #[inline]
    pub(crate) fn note_zone(&mut self, z: u32) {
        if self.s.recording {
            self.note(Dep::Zone(z));
        }
    }

    /// Notes a read (while recording).
    #[inline(never)]
    pub(crate) fn note(&mut self, d: Dep) {
        if let Some(w) = self.s.watch.as_deref_mut() {
            if !w.notes.contains(&d) {
                w.notes.push(d);
            }
        }
    }
}
