//! Engine stage: compiling the fast paths of aggregates over a zone and of function calls (see
//! `fast/mod.rs`), as `aggregate` (builtins.rs) and `call_fn` (eval.rs) do them, step by step.

use super::compile::{
    copies_of_kind, fast, fold, kind_arg, list_len, local, push_items, step, Compiler,
};
use super::{BoolFn, Fast, FastFn, IntFn, ValueFn, ZoneFn};
use crate::engine::closures::kind_table;
use crate::engine::eval::MAX_LIST;
use crate::engine::exec::Mach;
use crate::engine::hash::Fx;
use crate::engine::state::Ctx;
use crate::program::{Aggregate, BinOp, Builtin, Expr, ExprKind};
use crate::value::Value;
use std::sync::Arc;

/// The most function calls remembered while listing the options of one decision (as eval.rs).
const MAX_MEMO: usize = 512;

/// The most zones joined by `+` that an aggregate's fast path walks.
const MAX_PARTS: usize = 8;

/// What an aggregate walks: zones (one, or several joined by `+`) or any value that is a list.
pub(super) enum Source {
    Zones(Vec<ZoneFn>),
    Value(ValueFn),
}

/// What an aggregate walks, evaluated: the first `n` zones of the array, or a list.
enum Items {
    Zones([u32; MAX_PARTS], usize),
    List(Arc<Vec<Value>>),
}

/// Evaluates what an aggregate walks, with the work the walker counts for it (one zone: read in
/// place; `Z1 + Z2 + ...`: the list `concat` in lists.rs builds, step by step; a list: nothing), and
/// gives the number of items.
#[inline(always)]
fn open(src: &Source, m: &mut Mach) -> Option<(Items, usize)> {
    let parts = match src {
        Source::Zones(parts) => parts,
        Source::Value(f) => {
            return match f(m)? {
                Value::Zone(z) if (z as usize) < m.s.zones.len() => {
                    m.note_zone(z);
                    let n = m.s.zones[z as usize].cards.len();
                    let mut zs = [0u32; MAX_PARTS];
                    zs[0] = z;
                    Some((Items::Zones(zs, 1), n))
                }
                Value::List(l) => {
                    let n = l.len();
                    Some((Items::List(l), n))
                }
                Value::None => Some((Items::Zones([0; MAX_PARTS], 0), 0)),
                _ => None,
            };
        }
    };
    let mut zs = [0u32; MAX_PARTS];
    let mut total = 0usize;
    for (j, part) in parts.iter().enumerate() {
        let z = part(m)?;
        zs[j] = z;
        let n = m.s.zones[z as usize].cards.len();
        total += n;
        if j >= 1 {
            // `L + Zj`: the node, the lengths it reads (the first zone's too), the items it copies.
            let first = if j == 1 { total - n } else { 0 };
            m.s.exec_count += (1 + first + n + total) as u64;
            if total > MAX_LIST {
                return None;
            }
        }
    }
    Some((Items::Zones(zs, parts.len()), total))
}

/// The `i`th card of zones one after the other, each top first.
#[inline]
fn nth_card(m: &Mach, items: &Items, mut i: usize) -> Option<u32> {
    let Items::Zones(zs, k) = items else {
        return None;
    };
    for &z in &zs[..*k] {
        let cards = &m.s.zones[z as usize].cards;
        if i < cards.len() {
            return Some(cards[cards.len() - 1 - i]);
        }
        i -= cards.len();
    }
    None
}

/// The key of a fold of property `pid` in `State::folds`.
fn fold_key(pid: usize, op: Aggregate) -> u32 {
    (pid as u32) << 2
        | match op {
            Aggregate::Sum => 0,
            Aggregate::Max => 1,
            _ => 2,
        }
}

/// `sum`, `max` or `min` of constant number property `pid` over the one zone `zf` names (see
/// `aggregate`): the zone's cards as work, then `fold_zone`.
fn fold_of_zone(zf: ZoneFn, pid: usize, op: Aggregate) -> IntFn {
    Box::new(move |m| {
        step(m);
        let z = zf(m)?;
        let zone = m.s.zones.get(z as usize)?;
        let ver = zone.ver;
        m.s.exec_count += zone.cards.len() as u64;
        fold_zone(m, z, ver, pid, op)
    })
}

/// `sum`, `max` or `min` of constant number property `pid` over zone `z`'s cards (at version
/// `ver`), read from the table of constant numbers; remembered while the zone is unchanged
/// (`State::folds`).
#[inline(always)]
fn fold_zone(m: &mut Mach, z: u32, ver: u32, pid: usize, op: Aggregate) -> Option<i64> {
    let key = fold_key(pid, op);
    if let Some(v) = m.s.folds.get(z, ver, key) {
        return Some(v);
    }
    let (mut sum, mut best) = (0i64, None);
    let nprops = m.l.nprops;
    for &c in m.s.zones[z as usize].cards.iter().rev() {
        let kind = m.s.cards.get(c as usize)?.kind as usize;
        let v = (*m.l.prop_int.get(kind * nprops + pid)?)?;
        fold(op, v, &mut sum, &mut best)?;
    }
    let v = if op == Aggregate::Sum {
        sum
    } else {
        best.unwrap_or(0)
    };
    m.s.folds.keep(z, ver, key, v);
    Some(v)
}

/// The values of a call's or a built-in's arguments, in order, in a vector from the pool (`None`,
/// the vector given back, when one gives up).
#[inline(always)]
pub(super) fn arguments(m: &mut Mach, args: &[ValueFn]) -> Option<Vec<Value>> {
    let mut vals = m.s.take_locals(0);
    for a in args {
        match a(m) {
            Some(v) => vals.push(v),
            None => {
                m.s.give_back(vals);
                return None;
            }
        }
    }
    Some(vals)
}

/// Binds each item in turn to local `slot`, as the walker's loop does, and runs `f` until it says
/// stop (`Some(true)`) or gives up (`None`); the local's value before is restored either way.
fn each(
    m: &mut Mach,
    items: &Items,
    len: usize,
    slot: u16,
    mut f: impl FnMut(&mut Mach) -> Option<bool>,
) -> Option<()> {
    // Nothing to bind (an empty zone: most of a board's): the local is left as it is.
    if len == 0 {
        return Some(());
    }
    let saved = local(m, slot).cloned().unwrap_or_default();
    let mut r = Some(());
    for i in 0..len {
        // A card is written where it goes, not built and then copied there.
        match items {
            Items::Zones(..) => {
                let Some(c) = nth_card(m, items, i) else {
                    break;
                };
                m.set_local(slot, Value::Card(c));
            }
            Items::List(l) => match l.get(i) {
                Some(&Value::Card(c)) => m.set_local(slot, Value::Card(c)),
                Some(item) => m.set_local(slot, item.clone()),
                None => break,
            },
        }
        match f(m) {
            Some(false) => {}
            Some(true) => break,
            None => {
                r = None;
                break;
            }
        }
    }
    m.set_local(slot, saved);
    r
}

/// The items that pass a test of their kind (`tagged`), in order, as cards (`None`: an item that is
/// not a card, the general loop's turn).
fn kept_by_kind(m: &Mach, items: &Items, len: usize, passes: &[bool]) -> Option<Vec<Value>> {
    let cards = &m.s.cards;
    let pass = |c: u32| {
        let kind = cards.get(c as usize)?.kind as usize;
        passes.get(kind).copied()
    };
    let mut kept = Vec::new();
    match items {
        Items::Zones(zs, k) => {
            for &z in &zs[..*k] {
                for &c in m.s.zones[z as usize].cards.iter().rev() {
                    if pass(c)? {
                        kept.push(Value::Card(c));
                    }
                }
            }
        }
        Items::List(l) => {
            for v in l.iter().take(len) {
                let Value::Card(c) = v else {
                    return None;
                };
                if pass(*c)? {
                    kept.push(Value::Card(*c));
                }
            }
        }
    }
    Some(kept)
}

/// How many of the items pass a test of their kind (`kind_table`: tags and kinds of the binder,
/// joined by `and`, `or` and `not`; it reads nothing else and counts no work for a card, so the
/// items are read where they lie, without binding the local), up to `stop` of them (`None`: an
/// item that is not a card, which the compiled test would have counted work for: the general
/// loop's turn).
fn tagged(m: &Mach, items: &Items, len: usize, passes: &[bool], stop: usize) -> Option<usize> {
    let cards = &m.s.cards;
    let pass = |c: u32| {
        let kind = cards.get(c as usize)?.kind as usize;
        passes.get(kind).copied()
    };
    let mut n = 0;
    match items {
        Items::Zones(zs, k) => {
            for &z in &zs[..*k] {
                for &c in m.s.zones[z as usize].cards.iter().rev() {
                    if pass(c)? {
                        n += 1;
                        if n >= stop {
                            return Some(n);
                        }
                    }
                }
            }
        }
        Items::List(l) => {
            for v in l.iter().take(len) {
                let Value::Card(c) = v else {
                    return None;
                };
                if pass(*c)? {
                    n += 1;
                    if n >= stop {
                        return Some(n);
                    }
                }
            }
        }
    }
    Some(n)
}

/// `any` or `all` of the items by the compiled test, each bound to the local in turn.
#[inline(always)]
fn any_all_each(
    m: &mut Mach,
    items: &Items,
    len: usize,
    slot: u16,
    test: &BoolFn,
    any: bool,
) -> Option<bool> {
    let mut decided = !any;
    each(m, items, len, slot, |m| {
        let stop = test(m)? == any;
        if stop {
            decided = any;
        }
        Some(stop)
    })?;
    Some(decided)
}

impl Compiler<'_> {
    /// What an aggregate walks: one zone, zones joined by `+` (at most `MAX_PARTS`), or a value
    /// that is a list (a local, a variable).
    fn source(&mut self, list: &Expr) -> Option<Fast<Source>> {
        if let Some(z) = self.zones(list) {
            return Some(fast(z.height, Source::Zones(z.run)));
        }
        let v = self.value(list)?;
        Some(fast(v.height, Source::Value(v.run)))
    }

    fn zones(&mut self, list: &Expr) -> Option<Fast<Vec<ZoneFn>>> {
        if let ExprKind::Binary(BinOp::Concat, a, b) = &list.kind {
            let mut parts = self.zones(a)?;
            let last = self.zone(b)?;
            if parts.run.len() >= MAX_PARTS {
                return None;
            }
            parts.run.push(last.run);
            parts.height = 2 + parts.height.max(last.height);
            return Some(parts);
        }
        let z = self.zone(list)?;
        Some(fast(z.height, vec![z.run]))
    }

    /// An aggregate's filter, and the height of the whole: the loop, the item and the deepest of
    /// what it walks, the value and the filter.
    fn filter_of(
        &mut self,
        filter: Option<&Expr>,
        zone: u32,
        value: Option<u32>,
    ) -> Option<(Option<BoolFn>, u32)> {
        let filter = match filter {
            Some(f) => Some(self.cond(f)?),
            None => None,
        };
        let h = 3 + zone
            .max(value.unwrap_or(0))
            .max(filter.as_ref().map_or(0, |f| f.height));
        Some((filter.map(|f| f.run), h))
    }

    /// `any` or `all` over a zone: the test of each card in turn until one decides.
    pub(super) fn any_all(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
    ) -> Option<Fast<BoolFn>> {
        let zone = self.source(list)?;
        let test = match filter.or(value) {
            Some(f) => Some(self.cond(f)?),
            None => None,
        };
        let tags = filter.or(value).and_then(|t| kind_table(self.p, t, slot));
        let h = 3 + zone.height.max(test.as_ref().map_or(0, |t| t.height));
        let (fz, test) = (zone.run, test.map(|t| t.run));
        let any = op == Aggregate::Any;
        let run: BoolFn = match (tags, test) {
            // A tag test: the items read where they lie (`any`: one card that passes; `all`: as
            // many that pass as there are items), the general loop for a list of other things.
            (Some(passes), Some(test)) => Box::new(move |m| {
                step(m);
                let (items, len) = open(&fz, m)?;
                m.s.exec_count += len as u64;
                let stop = if any { 1 } else { usize::MAX };
                match tagged(m, &items, len, &passes, stop) {
                    Some(n) if any => Some(n > 0),
                    Some(n) => Some(n == len),
                    None => any_all_each(m, &items, len, slot, &test, any),
                }
            }),
            (_, test) => Box::new(move |m| {
                step(m);
                let (items, len) = open(&fz, m)?;
                m.s.exec_count += len as u64;
                let Some(test) = &test else {
                    // Every card passes: `any` of a non-empty zone, `all` of any.
                    return Some(!any || len > 0);
                };
                any_all_each(m, &items, len, slot, test, any)
            }),
        };
        Some(fast(h, run))
    }

    /// `count`, `sum`, `max` or `min` over a zone (`aggregate` in builtins.rs, the same order and work).
    pub(super) fn aggregate(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
    ) -> Option<Fast<IntFn>> {
        if !matches!(
            op,
            Aggregate::Count | Aggregate::Sum | Aggregate::Max | Aggregate::Min
        ) {
            return None;
        }
        if let Some(f) = self.prop_of_cards(op, value, slot, list, filter) {
            return Some(f);
        }
        let zone = self.source(list)?;
        // `sum(c.prop for c in Z)` of one zone: read from the table of constant numbers, nothing
        // evaluated (as the walker does for a zone, not for a list).
        let const_prop = match (op, value.map(|v| &v.kind), filter) {
            (
                Aggregate::Sum | Aggregate::Max | Aggregate::Min,
                Some(ExprKind::Prop(pid, ce)),
                None,
            ) if matches!(ce.kind, ExprKind::Local(s) if s == slot) => Some(pid.index()),
            _ => None,
        };
        let value = match (op, value) {
            (Aggregate::Count, _) => None,
            (_, Some(v)) => Some(self.int(v)?),
            (_, None) => return None,
        };
        // `count(x in L where x is Tag)`: the items read where they lie (`tagged`).
        let tags = match (op, &value) {
            (Aggregate::Count, None) => filter.and_then(|t| kind_table(self.p, t, slot)),
            _ => None,
        };
        let (filter, h) = self.filter_of(filter, zone.height, value.as_ref().map(|v| v.height))?;
        // A constant property over one zone named in place (`sum(c.points for c in p.deck)`): the
        // zone, its length as work, then the fold remembered for its version or made (the same as
        // the general closure below, without its items).
        let fz = match (const_prop, zone.run) {
            (Some(pid), Source::Zones(mut parts)) if parts.len() == 1 => {
                return Some(fast(h, fold_of_zone(parts.pop()?, pid, op)));
            }
            (_, run) => run,
        };
        // A count by a tag test: the items read where they lie, the general loop for a list of
        // other things.
        let filter = match (tags, filter) {
            (Some(passes), Some(test)) => {
                return Some(fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let (items, len) = open(&fz, m)?;
                        m.s.exec_count += len as u64;
                        if let Some(n) = tagged(m, &items, len, &passes, usize::MAX) {
                            return Some(n as i64);
                        }
                        let mut count = 0i64;
                        each(m, &items, len, slot, |m| {
                            count += i64::from(test(m)?);
                            Some(false)
                        })?;
                        Some(count)
                    }),
                ));
            }
            (_, filter) => filter,
        };
        let value = value.map(|v| v.run);
        let general: Fast<IntFn> = fast(
            h,
            Box::new(move |m| {
                step(m);
                let (items, len) = open(&fz, m)?;
                m.s.exec_count += len as u64;
                let mut sum = 0i64;
                let mut best: Option<i64> = None;
                // The walker's table of constant numbers serves one zone read in place only.
                if let (Some(pid), Items::Zones(zs, 1)) = (const_prop, &items) {
                    let ver = m.s.zones[zs[0] as usize].ver;
                    return fold_zone(m, zs[0], ver, pid, op);
                }
                let mut count = 0i64;
                each(m, &items, len, slot, |m| {
                    if let Some(f) = &filter {
                        if !f(m)? {
                            return Some(false);
                        }
                    }
                    match &value {
                        None => count += 1,
                        Some(v) => fold(op, v(m)?, &mut sum, &mut best)?,
                    }
                    Some(false)
                })?;
                Some(match op {
                    Aggregate::Count => count,
                    Aggregate::Sum => sum,
                    _ => best.unwrap_or(0),
                })
            }),
        );
        Some(general)
    }

    /// `sum`, `max` or `min` of a constant property over `cards(K, L)` (`max(c.price for c in
    /// cards(k, pool))`): every item is of kind K, so the property is K's and only the copies are
    /// counted, no list made. The work of the general closure: the aggregate's node, the call of
    /// `cards` (its node, its arguments, L's length, twice for a zone), then two per copy: the item,
    /// and the property read from it (one step). A property that is not a constant of K: the
    /// walker's turn.
    fn prop_of_cards(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
    ) -> Option<Fast<IntFn>> {
        let (Aggregate::Sum | Aggregate::Max | Aggregate::Min, Some(v), None) = (op, value, filter)
        else {
            return None;
        };
        let (ExprKind::Prop(pid, ce), ExprKind::Builtin(Builtin::Cards, args)) =
            (&v.kind, &list.kind)
        else {
            return None;
        };
        if !matches!(ce.kind, ExprKind::Local(s) if s == slot) || args.len() != 2 {
            return None;
        }
        // The heights the general closure would have: its list and its value.
        let h = 3 + self.value(list)?.height.max(self.int(v)?.height);
        let (k, l) = (self.value(&args[0])?, self.value(&args[1])?);
        let (fk, fl, pid) = (k.run, l.run, pid.index());
        Some(fast(
            h,
            Box::new(move |m| {
                // The aggregate's node, then the call of `cards`.
                step(m);
                step(m);
                let (kv, lv) = (fk(m)?, fl(m)?);
                let k = kind_arg(m, kv)?;
                let n = copies_of_kind(m, k, &lv)?;
                // Each copy an item, and its property read as a step.
                m.s.exec_count += 2 * n as u64;
                if n == 0 {
                    return Some(0);
                }
                let Value::Int(p) = m.const_prop(k as usize, pid)? else {
                    return None;
                };
                match op {
                    Aggregate::Sum => p.checked_mul(n as i64),
                    _ => Some(p),
                }
            }),
        ))
    }

    /// `filter(x in L where C)`, `take_while(x in L where C)` and `[E for x in L where C]` as a list
    /// (`aggregate` in builtins.rs, the same order and work).
    pub(super) fn list_aggregate(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
    ) -> Option<Fast<ValueFn>> {
        let value = match (op, value) {
            (Aggregate::Map | Aggregate::Flatten | Aggregate::Sort, Some(v)) => {
                Some(self.value(v)?)
            }
            (
                Aggregate::Filter
                | Aggregate::TakeWhile
                | Aggregate::Map
                | Aggregate::Flatten
                | Aggregate::Sort,
                None,
            ) => None,
            _ => return None,
        };
        let zone = self.source(list)?;
        // `filter(c in Z where T)` with T a test of the card's kind alone (`kind_table`): no item
        // bound, each read where it lies (a list holding other things than cards: the loop).
        let tags = match (op, &value, filter) {
            (Aggregate::Filter, None, Some(t)) => kind_table(self.p, t, slot),
            _ => None,
        };
        let (filter, h) = self.filter_of(filter, zone.height, value.as_ref().map(|v| v.height))?;
        let fz = zone.run;
        let (filter, by_kind) = match (tags, filter) {
            (Some(by), Some(test)) => (None, Some((by, test))),
            (_, filter) => (filter, None),
        };
        if let Some((passes, test)) = by_kind {
            return Some(fast(
                h,
                Box::new(move |m| {
                    step(m);
                    let (items, len) = open(&fz, m)?;
                    m.s.exec_count += len as u64;
                    if let Some(kept) = kept_by_kind(m, &items, len, &passes) {
                        return Some(Value::list(kept));
                    }
                    let mut kept = Vec::with_capacity(len);
                    each(m, &items, len, slot, |m| {
                        if test(m)? {
                            kept.push(local(m, slot)?.clone());
                        }
                        Some(false)
                    })?;
                    Some(Value::list(kept))
                }),
            ));
        }
        let value = value.map(|v| v.run);
        let take_while = op == Aggregate::TakeWhile;
        let flatten = op == Aggregate::Flatten;
        // `sort(x in L by K)`: each item with its key, then a stable sort by the keys (the walker's
        // `aggregate`: the keys' work, none for sorting).
        let sort = op == Aggregate::Sort;
        Some(fast(
            h,
            Box::new(move |m| {
                step(m);
                let (items, len) = open(&fz, m)?;
                m.s.exec_count += len as u64;
                let mut kept = Vec::with_capacity(len);
                let mut keys = Vec::new();
                each(m, &items, len, slot, |m| {
                    if let Some(f) = &filter {
                        if !f(m)? {
                            // `take_while` stops at the first item that fails.
                            return Some(take_while);
                        }
                    }
                    let v = match &value {
                        Some(v) => v(m)?,
                        None => local(m, slot)?.clone(),
                    };
                    if flatten {
                        // Each list joined (a zone's cards read and counted as `as_list` does).
                        let n = list_len(m, &v)?;
                        if kept.len() + n > MAX_LIST {
                            return None;
                        }
                        m.s.exec_count += n as u64;
                        push_items(m, &v, &mut kept)?;
                    } else if sort {
                        kept.push(local(m, slot)?.clone());
                        keys.push(v);
                    } else {
                        kept.push(v);
                    }
                    Some(false)
                })?;
                if sort {
                    let mut order: Vec<usize> = (0..kept.len()).collect();
                    order.sort_by(|&a, &b| crate::engine::builtins::cmp_values(&keys[a], &keys[b]));
                    let sorted = order.into_iter().map(|i| std::mem::take(&mut kept[i]));
                    return Some(Value::list(sorted.collect()));
                }
                Some(Value::list(kept))
            }),
        ))
    }

    /// A call of a function (`call_fn` in eval.rs): its arguments, remembered calls, its body in a
    /// frame of its own.
    /// A call of a user function whose value is a number, a truth or any value: its arguments,
    /// then its body with them as its locals (remembered while options are listed, when pure).
    pub(super) fn call_int(&mut self, e: &Expr) -> Option<Fast<IntFn>> {
        self.call_as(e, |c, body| c.int(body), Value::Int, Value::as_int)
    }

    pub(super) fn call_truth(&mut self, e: &Expr) -> Option<Fast<BoolFn>> {
        self.call_as(e, |c, body| c.truth(body), Value::Bool, Value::as_bool)
    }

    pub(super) fn call_value(&mut self, e: &Expr) -> Option<Fast<ValueFn>> {
        self.call_as(e, |c, body| c.value(body), |v| v, |v| Some(v.clone()))
    }

    /// A call whose body compiles to a closure giving `T` (`into` and `from`: `T` as the value a
    /// remembered call keeps).
    fn call_as<T: Clone + 'static>(
        &mut self,
        e: &Expr,
        compile_body: impl FnOnce(&mut Self, &Expr) -> Option<Fast<FastFn<T>>>,
        into: fn(T) -> Value,
        from: fn(&Value) -> Option<T>,
    ) -> Option<Fast<FastFn<T>>> {
        let ExprKind::CallFn(f, args) = &e.kind else {
            return None;
        };
        let f = *f;
        if self.calling.contains(&f) {
            return None;
        }
        let p = self.p;
        let def = p.fns.get(f.index())?;
        let mut compiled = Vec::with_capacity(args.len());
        let mut h = 0;
        for a in args {
            let a = self.value(a)?;
            h = h.max(a.height);
            compiled.push(a.run);
        }
        self.calling.push(f);
        let body = compile_body(self, &def.body);
        self.calling.pop();
        let body = body?;
        let h = 2 + h.max(body.height);
        let (run, slots) = (body.run, def.slots as usize);
        let pure = p.pure_fns.get(f.index()) == Some(&true);
        Some(fast(
            h,
            Box::new(move |m| {
                step(m);
                let mut locals = arguments(m, &compiled)?;
                let (you, this) = (m.you(), m.this());
                let remember = pure && m.s.memo_on && m.s.memo.wanted(f.0);
                let hash = if remember { Fx::of_values(&locals) } else { 0 };
                if remember {
                    if let Some((v, work)) = m.s.memo.table().find(f.0, you, this, &locals, hash) {
                        #[cfg(test)]
                        {
                            m.s.probe.counted.calls_remembered += 1;
                        }
                        // The body's work, as if it ran (the budget is tested by `settle`).
                        let v = from(v);
                        m.s.exec_count += work;
                        m.s.give_back(locals);
                        return v;
                    }
                }
                let n = locals.len();
                crate::engine::state::grow_locals(&mut locals, slots);
                let base = m.s.ctxs.len();
                m.s.ctxs.push(Ctx { locals, you, this });
                let before = m.s.exec_count;
                let v = run(m);
                if remember {
                    let work = m.s.exec_count.saturating_sub(before);
                    if let Some(v) = &v {
                        // The arguments are still the first locals of the call (a function's body
                        // binds only the slots after its parameters).
                        let s = &mut *m.s;
                        if let Some(args) = s.ctxs.get(base).and_then(|c| c.locals.get(..n)) {
                            let v = into(v.clone());
                            s.memo
                                .table()
                                .remember(f.0, you, this, args, hash, v, work, MAX_MEMO);
                        }
                    }
                }
                m.s.truncate_ctxs(base);
                let v = v?;
                Some(v)
            }),
        ))
    }
}
