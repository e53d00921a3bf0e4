//! Engine stage: menus: the cards of a parameter sorted into sets of identical ones, options found
//! by fingerprint once they are many, and the options of an action of one parameter over a zone
//! listed in one loop (docs/engine.md at fe8b0bc, "The sixteenth session").
//!
//! Most actions of a script have one parameter whose domain is a zone (`play_card(c in you.hand)`,
//! `buy(c in market)`). `Mach::list_one` lists them without the general enumeration's recursion
//! over parameters and vector of arguments: each card of the zone is read where it lies, sorted
//! (`sort_card`), written into the parameter's local and offered. What it does, in which order, with
//! which work and errors, is what `enum_action` does for the same action; debug builds list every
//! action of every menu a second time plainly (`enum_action`, no tables of kinds) and compare.

use super::exec::Mach;
use super::hash::Fx;
use super::options::{Known, Listing};
use super::RuntimeError;
use crate::program::{ActionDef, ActionId, Program};
use crate::value::Value;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

type R<T> = Result<T, RuntimeError>;

/// Values by fingerprint, once there are many: per fingerprint the last value added with it, and
/// per value the one added before it with the same fingerprint (`NONE`: none). A menu's are kept
/// from one listing to the next (cleared, not freed), and no value costs an allocation of its own.
#[derive(Debug, Default, Clone)]
pub(crate) struct Seen {
    last: HashMap<u64, u32, BuildHasherDefault<Fx>>,
    before: Vec<u32>,
}

/// The end of a chain of values of one fingerprint (`Seen`).
const NONE: u32 = u32::MAX;

impl Seen {
    pub(super) fn with_capacity(n: usize) -> Seen {
        Seen {
            last: HashMap::with_capacity_and_hasher(n, Default::default()),
            before: Vec::with_capacity(n),
        }
    }

    pub(super) fn clear(&mut self) {
        self.last.clear();
        self.before.clear();
    }

    /// Adds value `k` with fingerprint `fp`.
    pub(super) fn add(&mut self, fp: u64, k: usize) {
        let prev = self.last.insert(fp, k as u32).unwrap_or(NONE);
        if self.before.len() <= k {
            self.before.resize(k + 1, NONE);
        }
        self.before[k] = prev;
    }

    /// Whether a value added with fingerprint `fp` passes `same` (the last added first).
    pub(super) fn any(&self, fp: u64, mut same: impl FnMut(usize) -> bool) -> bool {
        let mut k = self.last.get(&fp).copied().unwrap_or(NONE);
        while k != NONE {
            if same(k as usize) {
                return true;
            }
            k = self.before.get(k as usize).copied().unwrap_or(NONE);
        }
        false
    }
}

/// The items of a parameter's domain, read where they lie: a zone's cards (nothing moves while
/// options are listed), or a list's items.
pub(super) enum Domain {
    /// The zone and how many cards it held.
    Zone(u32, usize),
    List(std::sync::Arc<Vec<Value>>),
}

/// Whether a domain's items are different values none of which is a card, by its form: the board,
/// the living players, a range of numbers, and the built-ins that give different players or spaces.
pub(super) fn distinct_items(e: &crate::program::Expr) -> bool {
    use crate::program::{Builtin, ExprKind};
    matches!(
        e.kind,
        ExprKind::Spaces
            | ExprKind::Everyone
            | ExprKind::Range(..)
            | ExprKind::Builtin(Builtin::Opponents | Builtin::From | Builtin::Neighbours, _)
    )
}

impl Domain {
    pub(super) fn len(&self) -> usize {
        match self {
            Domain::Zone(_, n) => *n,
            Domain::List(v) => v.len(),
        }
    }

    /// The `k`th item, top first for a zone: a card as its number, anything else as a value (a
    /// card is built where it goes: see `enum_action`).
    #[inline(always)]
    pub(super) fn get(&self, m: &Mach, k: usize) -> (Option<u32>, Value) {
        match self {
            Domain::Zone(z, n) => match m
                .s
                .zones
                .get(*z as usize)
                .and_then(|zi| zi.cards.get(n.wrapping_sub(k + 1)))
            {
                Some(&c) => (Some(c), Value::None),
                None => (None, Value::None),
            },
            Domain::List(v) => match v.get(k) {
                Some(&Value::Card(c)) => (Some(c), Value::None),
                Some(x) => (None, x.clone()),
                None => (None, Value::None),
            },
        }
    }
}

/// How many sets of identical cards a parameter's listing keeps apart; past that, every card is
/// tried.
const TRIED: usize = 16;

/// The sets of identical cards met so far at one parameter of a menu being listed: the first card
/// of each set, its kind, and once another card was alike it, whether that first card may be merged
/// at all (and then whether the decider sees its zone's cards of its face).
pub(super) struct Tried {
    first: [(u32, Option<Option<bool>>); TRIED],
    kinds: [u16; TRIED],
    n: usize,
    /// The set the last card belonged to, tried first: identical cards usually lie together. At
    /// most one set is alike a card (`alike` is an equivalence), so the answer is the same.
    last: usize,
}

impl Default for Tried {
    fn default() -> Self {
        Tried {
            first: [(0, None); TRIED],
            kinds: [0; TRIED],
            n: 0,
            last: 0,
        }
    }
}

/// How many leading conjuncts `Mach::by_kind` looks at.
const PRE: usize = 4;

/// A leading conjunct of an action's condition, as `Mach::by_kind` reads it.
#[derive(Clone, Copy)]
enum Pre<'a> {
    /// It reads no parameter: its value once known (`Listing::known`).
    Known(usize),
    /// A table of the kinds that pass.
    Table(&'a [bool]),
}

/// The leading conjuncts `Mach::by_kind` reads: the first `n`; `whole`: they are all of them.
struct Prefilter<'a> {
    parts: [Pre<'a>; PRE],
    n: usize,
    whole: bool,
}

impl Prefilter<'_> {
    /// No conjunct read: no card is decided by its kind.
    fn none() -> Self {
        Prefilter {
            parts: [Pre::Known(0); PRE],
            n: 0,
            whole: false,
        }
    }
}

/// Where a card of a parameter's domain belongs.
pub(super) enum Sorted {
    /// Identical to a card tried before, for the decider: it lists nothing new.
    Skip,
    /// The first card of a new set of identical cards.
    First,
    /// Anything else: alike a card tried before but not mergeable, or past `TRIED` sets.
    Other,
}

impl<'a> Mach<'a> {
    /// Whether menus are listed by the general enumeration alone now (`enum_action`, without
    /// `list_one` and tables of kinds): in debug builds and tests, while a debug check lists a
    /// menu a second time or in a game created without the shortcuts of menus (engine/probe.rs).
    #[inline]
    fn plain(&self) -> bool {
        #[cfg(any(test, debug_assertions))]
        if self.s.probe.plain {
            return true;
        }
        false
    }

    /// Sorts card `c` of a parameter's domain among the sets tried so far (and adds a new set).
    #[inline(always)]
    pub(super) fn sort_card(&self, t: &mut Tried, c: u32, decider: u8) -> Sorted {
        let kind = self.s.cards.get(c as usize).map_or(u16::MAX, |cs| cs.kind);
        // A card of another kind is passed over without reading the tried card (most cards of a
        // hand differ in kind).
        let found = if t.last < t.n && t.kinds[t.last] == kind && self.alike(t.first[t.last].0, c) {
            Some(t.last)
        } else {
            (0..t.n).find(|&k| t.kinds[k] == kind && self.alike(t.first[k].0, c))
        };
        match found {
            Some(k) => {
                t.last = k;
                let (first, known) = t.first[k];
                let sees = known.unwrap_or_else(|| {
                    self.mergeable(first, decider).then(|| {
                        let cs = &self.s.cards[first as usize];
                        self.s.seen_mask(self.p, cs.zone, cs.face_up) & (1u64 << decider) != 0
                    })
                });
                t.first[k].1 = Some(sees);
                let skip = sees.is_some_and(|sees| self.mergeable_like(c, sees, decider));
                #[cfg(debug_assertions)]
                assert_eq!(
                    skip,
                    sees.is_some() && self.mergeable(c, decider),
                    "mergeable_like"
                );
                if skip {
                    Sorted::Skip
                } else {
                    Sorted::Other
                }
            }
            None if t.n < TRIED => {
                t.first[t.n] = (c, None);
                t.kinds[t.n] = kind;
                t.last = t.n;
                t.n += 1;
                Sorted::First
            }
            None => Sorted::Other,
        }
    }

    /// Lists the options of action `a` (`enum_action`; `list_one` for one parameter).
    pub(super) fn list_action(
        &mut self,
        a: ActionId,
        args: &mut Vec<Value>,
        list: &mut Listing,
    ) -> R<()> {
        let p: &'a crate::program::Program = self.p;
        #[cfg(debug_assertions)]
        let before = (self.s.exec_count, list.clone());
        let r = match p.actions.get(a.index()) {
            Some(def) if def.params.len() == 1 && !self.plain() => {
                self.list_one(a, def, args, list)
            }
            _ => self.enum_action(a, args, list).map(|_| ()),
        };
        #[cfg(debug_assertions)]
        if r.is_ok() && !self.plain() {
            self.check_listing(a, list, before);
        }
        r
    }

    /// Lists the options of action `a`, of one parameter: `enum_action`'s options, work and errors,
    /// in one loop when the domain is a zone.
    pub(super) fn list_one(
        &mut self,
        a: ActionId,
        def: &'a ActionDef,
        args: &mut Vec<Value>,
        list: &mut Listing,
    ) -> R<()> {
        debug_assert!(def.params.len() == 1 && args.is_empty());
        let dom = self.domain_items(&def.params[0])?;
        let Domain::Zone(z, n) = dom else {
            return self.enum_domain(a, def, &dom, args, list).map(|_| ());
        };
        let decider = self.you().unwrap_or(self.s.active);
        let merge = def.interchangeable.first().copied().unwrap_or(false);
        let pre = self.prefilter(a, def);
        let mut tried = Tried::default();
        let mut r = Ok(());
        for k in 0..n {
            // Nothing moves while options are listed: the zone still holds its `n` cards.
            let Some(&c) = self.s.zones[z as usize].cards.get(n - 1 - k) else {
                break;
            };
            let holds = match pre.n {
                0 => false,
                _ => match self.by_kind(&pre, list, c) {
                    Some(false) => {
                        #[cfg(test)]
                        {
                            self.s.probe.counted.passed_by_kind += 1;
                        }
                        continue;
                    }
                    Some(true) => true,
                    None => false,
                },
            };
            let mut fresh = false;
            if merge {
                match self.sort_card(&mut tried, c, decider) {
                    Sorted::Skip => {
                        #[cfg(debug_assertions)]
                        self.check_skipped(a, args, list, &Value::Card(c));
                        continue;
                    }
                    Sorted::First => fresh = true,
                    Sorted::Other => {}
                }
            }
            self.set_local(0, Value::Card(c));
            list.forget_from(def, 0);
            match self.offer(
                a,
                def,
                &[Value::Card(c)],
                decider,
                list,
                Known { fresh, holds },
            ) {
                Ok(None) => {}
                // A conjunct that reads no parameter is false: no card can be offered.
                Ok(Some(0)) => break,
                Ok(Some(_)) => {}
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        r
    }

    /// The leading conjuncts of the condition of an action of one parameter that read no parameter
    /// or are tables of the parameter's kinds, up to the last table among them (none: no table).
    fn prefilter(&self, a: ActionId, def: &'a ActionDef) -> Prefilter<'a> {
        let mut pre = Prefilter::none();
        if self.plain() {
            return pre;
        }
        let mut k = 0;
        for (j, part) in def.parts.iter().enumerate().take(PRE) {
            pre.parts[k] = if part.level == 0 {
                Pre::Known(j)
            } else {
                let p: &'a Program = self.p;
                match (p.closures.as_deref()).and_then(|c| c.part_kinds(a, j)) {
                    Some(table) => Pre::Table(table),
                    None => break,
                }
            };
            k += 1;
            if matches!(pre.parts[k - 1], Pre::Table(_)) {
                pre.n = k;
            }
        }
        pre.whole = pre.n == def.parts.len();
        pre
    }

    /// The condition for card `c` by the tables of kinds, when they decide it with no work and no
    /// error, as `offer` would find it. `Some(false)`: the card fails a conjunct that is a table
    /// while every conjunct before it is known to hold (it reads no parameter, is pure and was
    /// evaluated for an earlier card); the card lists nothing, whether or not it is identical to a
    /// card tried before. `Some(true)`: every conjunct is a table the card passes or known to hold.
    #[inline]
    fn by_kind(&self, pre: &Prefilter, list: &Listing, c: u32) -> Option<bool> {
        let kind = self.s.cards.get(c as usize)?.kind as usize;
        for part in &pre.parts[..pre.n] {
            match *part {
                Pre::Known(j) => {
                    if list.known.get(j).copied().flatten() != Some(true) {
                        return None;
                    }
                }
                Pre::Table(table) => {
                    if !*table.get(kind)? {
                        return Some(false);
                    }
                }
            }
        }
        pre.whole.then_some(true)
    }

    /// Debug builds: the same action listed again plainly (`enum_action` without tables of
    /// kinds), from the listing and the work before, gives the same options, labels and work.
    #[cfg(debug_assertions)]
    fn check_listing(&mut self, a: ActionId, list: &Listing, (work, mut again): (u64, Listing)) {
        let done = self.s.exec_count;
        self.s.exec_count = work;
        let mut args = Vec::new();
        // Listed twice, the cards skipped are counted once.
        #[cfg(test)]
        let skipped = self.s.probe.counted.cards_skipped;
        let was = std::mem::replace(&mut self.s.probe.plain, true);
        let r = self.enum_action(a, &mut args, &mut again);
        self.s.probe.plain = was;
        #[cfg(test)]
        {
            self.s.probe.counted.cards_skipped = skipped;
        }
        assert!(
            r.is_ok(),
            "a plain listing fails where the listing did not: {r:?}"
        );
        assert_eq!(self.s.exec_count, done, "a listing's work");
        self.s.exec_count = done;
        assert!(again.same_as(list), "a listing's options");
    }
}

impl<'a> Mach<'a> {
    /// A menu's options listed by the program's closures (`Engine::Closures`), in the buffer of the
    /// last decision's; `None` when they cannot (the walker lists it: `menu_options`).
    pub(super) fn closures_menu(
        &mut self,
        decider: u8,
        actions: &[ActionId],
    ) -> Option<Vec<super::decide::MenuOption>> {
        let closures = self
            .p
            .closures
            .as_deref()
            .filter(|_| self.s.fixed.closures)?;
        let mut out = std::mem::take(&mut self.s.recycled.get().options);
        out.clear();
        if closures.list_menu(self.p, self.s, self.l, decider, actions, &mut out) {
            return Some(out);
        }
        self.s.recycled.get().options = out;
        None
    }

    /// The labels of options the closures listed, as `offer` makes them: left out when nobody
    /// reads them and building them later cannot fail.
    pub(super) fn labels_of(
        &mut self,
        offered: &[super::decide::MenuOption],
        decider: u8,
    ) -> R<Vec<String>> {
        let p: &'a crate::program::Program = self.p;
        let mut labels = self.s.recycled.get().labels();
        let wanted = self.wants_labels();
        for (a, args) in offered {
            // A label nobody reads that cannot fail, without a call (most options of a play-out).
            if let (false, Some(def)) = (wanted, p.actions.get(a.index())) {
                if super::options::plain_label(def, args) {
                    self.s.unlabelled = true;
                    labels.push(String::new());
                    continue;
                }
            }
            let text = self.label_of(*a, args, decider)?;
            labels.push(text);
        }
        Ok(labels)
    }

    /// The label of one option the closures listed, as `offer` makes it (empty when nobody reads
    /// it and building it later cannot fail).
    pub(super) fn label_of(&mut self, a: ActionId, args: &[Value], decider: u8) -> R<String> {
        let p: &'a crate::program::Program = self.p;
        let Some(def) = p.actions.get(a.index()) else {
            return Ok(String::new());
        };
        if !self.wants_labels() && super::options::plain_label(def, args) {
            self.s.unlabelled = true;
            return Ok(String::new());
        }
        let base = self.s.ctxs.len();
        let mut locals = self.s.take_locals(def.body.slots as usize);
        for (slot, v) in locals.iter_mut().zip(args.iter()) {
            *slot = v.clone();
        }
        self.s.push_ctx(locals, Some(decider), None);
        let text = self.offered_label(a, def, args, decider);
        self.s.truncate_ctxs(base);
        text
    }

    /// Action `a`'s label for the option of arguments `args`, as `decider` sees it, built by the
    /// closures (`None`: the action has no label, it did not compile, or a closure cannot answer).
    pub(super) fn compiled_label(
        &mut self,
        a: ActionId,
        args: &[Value],
        decider: u8,
    ) -> Option<String> {
        let closures = self
            .p
            .closures
            .as_deref()
            .filter(|_| self.s.fixed.closures)?;
        let mut out = String::new();
        closures.label(a, (self.p, self.s, self.l), args, decider, &mut out)?;
        #[cfg(test)]
        {
            self.s.probe.counted.texts += 1;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;

    /// Values of one fingerprint are found whatever their order and however many; another
    /// fingerprint's are not; a cleared table finds nothing; values may be added past gaps.
    #[test]
    fn seen_finds_the_values_of_a_fingerprint() {
        let mut seen = Seen::default();
        for k in 0..40 {
            seen.add(k % 3, k as usize);
        }
        let found = |seen: &Seen, fp: u64| {
            let mut ks = Vec::new();
            seen.any(fp, |k| {
                ks.push(k);
                false
            });
            ks
        };
        let ones: Vec<usize> = (0..40).filter(|k| k % 3 == 1).rev().collect();
        assert_eq!(found(&seen, 1), ones);
        assert!(seen.any(2, |k| k == 38));
        assert!(!seen.any(2, |k| k == 37));
        assert!(found(&seen, 7).is_empty());
        seen.clear();
        assert!(found(&seen, 1).is_empty());
        seen.add(5, 9);
        seen.add(5, 3);
        assert_eq!(found(&seen, 5), [3, 9]);
    }
}
