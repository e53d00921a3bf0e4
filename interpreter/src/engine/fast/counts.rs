//! Engine stage: compiled fast paths, counts of a zone by a test of the card's kind and of other
//! locals (`count(d in p.discard where d.faction == t)`), remembered while the zone and those
//! locals are unchanged.
//!
//! Such a test reads nothing of the game but the zone's cards' kinds (and constant properties,
//! tags, tags of a group), and the values of locals other than the binder (`t`, a parameter, or
//! `c.faction` of a card another local holds): for a zone at one version and the same values of
//! those locals, the count and the work of the general loop are the same. So they are kept in the
//! state's working space (`ZoneCounts` in `State::recycled`, boxed, so a clone copies no more bytes:
//! it starts with none, since a copy's zones change apart from the original's), by zone instance,
//! version, the test (`place`) and the locals' values; a count met again evaluates its zone (its
//! work counted, its read noted as always) and adds the rest of the work it took the first time.
//! While a check's reads are recorded, and whenever a local holds something other than a plain
//! value (a list, a text), the general loop runs. Debug builds compare every answer and its work
//! with the walker's, as for every fast path.

use super::compile::{fast, local};
use super::{Fast, IntFn, ZoneFn};
use crate::program::{Expr, ExprKind, Field, Program};
use crate::value::Value;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The locals other than `slot` that test `e` reads (at most two), when it reads nothing else but
/// the kinds, tags and constant properties of cards locals hold, and constants; none when it is of
/// another form, or reads no other local (a test of the kind alone: kinds.rs).
pub(super) fn free_locals(p: &Program, e: &Expr, slot: u16) -> Option<Vec<u16>> {
    let mut free = Vec::new();
    (of_locals(p, e, slot, &mut free) && !free.is_empty() && free.len() <= 2).then_some(free)
}

fn of_locals(p: &Program, e: &Expr, slot: u16, free: &mut Vec<u16>) -> bool {
    let local = |x: &Expr, free: &mut Vec<u16>| match x.kind {
        ExprKind::Local(s) => {
            if s != slot && !free.contains(&s) {
                free.push(s);
            }
            true
        }
        _ => false,
    };
    match &e.kind {
        ExprKind::Const(_) => true,
        ExprKind::Local(_) => local(e, free),
        ExprKind::IsTag(x, ..)
        | ExprKind::IsKind(x, ..)
        | ExprKind::TagOf(_, x)
        | ExprKind::Field(Field::Kind, x) => local(x, free),
        ExprKind::Prop(pid, x) => constant_prop(p, pid.index()) && local(x, free),
        ExprKind::Unary(_, a) => of_locals(p, a, slot, free),
        ExprKind::Binary(_, a, b) => of_locals(p, a, slot, free) && of_locals(p, b, slot, free),
        ExprKind::If(c, a, b) => {
            of_locals(p, c, slot, free)
                && of_locals(p, a, slot, free)
                && of_locals(p, b, slot, free)
        }
        _ => false,
    }
}

/// A local's value as a key: a plain value only.
fn key_of(v: &Value) -> Option<(u8, u64)> {
    Some(match *v {
        Value::None => (0, 0),
        Value::Int(i) => (1, i as u64),
        Value::Bool(b) => (2, u64::from(b)),
        Value::Player(p) => (3, u64::from(p)),
        Value::Card(c) => (4, u64::from(c)),
        Value::Kind(k) => (5, u64::from(k)),
        Value::Tag(t) => (6, u64::from(t)),
        Value::Space(s) => (7, u64::from(s)),
        Value::Zone(z) => (8, u64::from(z)),
        Value::Text(_) | Value::List(_) => return None,
    })
}

/// The test of a remembered count, by its text with the binder and the other locals named by their
/// order: the copies of one function in several call sites (check/inline.rs) differ only in their
/// locals' slots, and share their counts. Each compiled count holds its own; a count is found by the
/// text's hash and then the text itself (the same one, or an equal one), so two tests never share a
/// count. Nothing is kept beside the program or across programs.
#[derive(Clone, Debug)]
struct Test {
    hash: u64,
    text: Arc<str>,
}

impl Test {
    fn same(&self, other: &Test) -> bool {
        self.hash == other.hash && (Arc::ptr_eq(&self.text, &other.text) || self.text == other.text)
    }
}

/// The test `e` of binder `slot` reading locals `free` (see `Test`).
fn place(e: &Expr, slot: u16, free: &[u16]) -> Option<Test> {
    let text = format!("{e:?}");
    let mut named = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Local(") {
        let (before, after) = rest.split_at(i + "Local(".len());
        named.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let n: u16 = after.get(..digits)?.parse().ok()?;
        match free.iter().position(|&f| f == n) {
            _ if n == slot => named.push('b'),
            Some(k) => named.push_str(&format!("f{k}")),
            None => return None,
        }
        rest = after.get(digits..)?;
    }
    named.push_str(rest);
    let mut hasher = std::hash::DefaultHasher::new();
    named.hash(&mut hasher);
    Some(Test {
        hash: hasher.finish(),
        text: Arc::from(named),
    })
}

/// `general`, the compiled count of the one zone `zf` names by test `test` of binder `slot`
/// reading locals `free`: remembered by zone, version, the test and the locals' values (see the
/// module); `general` alone when the test's text cannot be read.
pub(super) fn remembered(
    test: &Expr,
    slot: u16,
    free: Vec<u16>,
    zf: ZoneFn,
    general: Fast<IntFn>,
) -> Fast<IntFn> {
    let Some(place) = place(test, slot, &free) else {
        return general;
    };
    let g = general.run;
    fast(
        general.height,
        Box::new(move |m| {
            if m.s.watch.is_some() {
                return g(m);
            }
            let mut locals = [(0u8, 0u64); 2];
            for (k, &s) in locals.iter_mut().zip(&free) {
                match local(m, s).and_then(key_of) {
                    Some(v) => *k = v,
                    None => return g(m),
                }
            }
            let before = m.s.exec_count;
            let z = zf(m)?;
            let ver = m.s.zones.get(z as usize)?.ver;
            let zone_work = m.s.exec_count - before;
            m.s.exec_count = before;
            let key = Key {
                zone: z,
                ver,
                place: place.hash,
                locals,
            };
            if let Some((n, rest)) = m.s.recycled.get().counts.get(&key, &place) {
                let end = before + zone_work + rest;
                if end <= m.s.fixed.max_steps {
                    m.s.exec_count = end;
                    #[cfg(test)]
                    {
                        m.s.probe.counted.counts_remembered += 1;
                    }
                    return Some(n);
                }
                return g(m);
            }
            let n = g(m)?;
            let rest = m.s.exec_count - before - zone_work;
            m.s.recycled.get().counts.keep(key, &place, n, rest);
            Some(n)
        }),
    )
}

/// What a remembered count is found by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Key {
    zone: u32,
    ver: u32,
    /// The test's hash (`Test`).
    place: u64,
    locals: [(u8, u64); 2],
}

/// Counts of zones by tests of their cards' kinds and other locals, with the work that followed
/// the zone's reading (see the module); a clone starts with none.
#[derive(Debug, Default)]
pub(crate) struct ZoneCounts {
    /// `COUNTS` entries once one is kept, each key at one place (`ZoneCounts::at`): a new count
    /// there replaces the old one. Each entry: the key, the count's test (none while the entry
    /// holds no count), the count and the work after the zone's reading.
    entries: Vec<(Key, Option<Test>, i64, u64)>,
}

/// The counts remembered at most (a power of two).
const COUNTS: usize = 64;

impl Clone for ZoneCounts {
    fn clone(&self) -> ZoneCounts {
        ZoneCounts::default()
    }
}

impl ZoneCounts {
    fn at(key: &Key) -> usize {
        let h = (key.zone as u64)
            .wrapping_mul(31)
            .wrapping_add(key.place)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(key.locals[0].1)
            .wrapping_add(key.locals[1].1.wrapping_mul(7))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 58) as usize & (COUNTS - 1)
    }

    fn get(&self, key: &Key, test: &Test) -> Option<(i64, u64)> {
        let (k, t, n, rest) = self.entries.get(Self::at(key))?;
        (k == key && t.as_ref()?.same(test)).then_some((*n, *rest))
    }

    fn keep(&mut self, key: Key, test: &Test, n: i64, rest: u64) {
        if self.entries.is_empty() {
            self.entries = vec![(Key::default(), None, 0, 0); COUNTS];
        }
        if let Some(e) = self.entries.get_mut(Self::at(&key)) {
            *e = (key, Some(test.clone()), n, rest);
        }
    }
}

/// Whether property `pid` is a constant (or a list of constants) for every kind.
fn constant_prop(p: &Program, pid: usize) -> bool {
    let Some(d) = p.props.get(pid) else {
        return false;
    };
    let constant = |e: &Expr| match &e.kind {
        ExprKind::Const(_) => true,
        ExprKind::List(items) => items.iter().all(|i| matches!(i.kind, ExprKind::Const(_))),
        _ => false,
    };
    p.kinds.iter().all(|k| match k.props.get(pid) {
        Some(Some(e)) => constant(e),
        _ => constant(&d.default),
    })
}
