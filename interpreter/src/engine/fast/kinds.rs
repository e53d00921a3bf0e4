//! Engine stage: compiled fast paths, tests of a card that depend on its kind alone (`c is Basic`,
//! `c.faction != none`, `c.cost >= 3`), decided once per kind instead of once per card; numbers
//! (`coin_worth(c)`) and values (`d.faction`) of a card's kind alone likewise (`learned_int`,
//! `learned_value`).
//!
//! A test over an aggregate's binder (`filter(c in box where T)`, `count(...)`, `any(...)`) that
//! reads nothing but the binder's kind, its tags, its tag in a group and its constant properties,
//! and constants, gives the same answer for every card of a kind, after the same work: the
//! program is the same for every game, and such a test reads nothing of the game. So the answer
//! and the work are learned from the first card of each kind the compiled test meets (the local
//! bound, the closure run and its work counted) and replayed for the others, whose local is then
//! not bound at all. A test of tags and kinds alone counts no work and is known before any card is
//! met (`kind_table`). The items' order, the work counted and the local's value after the loop are
//! those of the general loop (`each` in calls.rs); debug builds compare the whole aggregate with
//! the walker, as for every fast path.

use super::compile::{fast, kind_table, local};
use super::{BoolFn, Fast, FastFn, IntFn, ValueFn};
use crate::engine::exec::Mach;
use crate::program::{Expr, ExprKind, Field, Program};
use crate::value::Value;
use std::sync::OnceLock;

/// How a test of an aggregate's binder is decided by the binder's kind.
pub(super) enum ByKind {
    /// Tags and kinds joined by `and`, `or`, `not`: which kinds pass, with no work.
    Table(Vec<bool>),
    /// Any other test of the kind alone: per kind, the answer and work learned from the first card
    /// of the kind (shared by every game and thread: the same for all).
    Learned(Vec<OnceLock<(bool, u64)>>),
}

impl ByKind {
    /// How test `e` of local `slot` is decided by the kind of card the local holds, if it is.
    pub(super) fn of(p: &Program, e: &Expr, slot: u16) -> Option<ByKind> {
        if let Some(t) = kind_table(p, e, slot) {
            return Some(ByKind::Table(t));
        }
        kind_alone(p, e, slot).then(|| ByKind::Learned(unknown(p)))
    }

    /// The answer and work for kind `kind`, when known.
    #[inline(always)]
    fn known(&self, kind: usize) -> Option<(bool, u64)> {
        match self {
            ByKind::Table(t) => t.get(kind).map(|&pass| (pass, 0)),
            ByKind::Learned(l) => l.get(kind)?.get().copied(),
        }
    }

    fn learn(&self, kind: usize, pass: bool, work: u64) {
        if let ByKind::Learned(l) = self {
            if let Some(cell) = l.get(kind) {
                let _ = cell.set((pass, work));
            }
        }
    }
}

/// Nothing learned yet, for each kind.
fn unknown<T>(p: &Program) -> Vec<OnceLock<T>> {
    (0..p.kinds.len()).map(|_| OnceLock::new()).collect()
}

/// Test `e` (compiled as `general`) when it is one of the kind of the card a local holds with work
/// (`c.faction != none`, `c.cost <= 3`; not a table's tags and kinds): for a card, the answer and
/// work learned from the first card of its kind, replayed; anything else, `general`.
pub(super) fn learned(p: &Program, e: &Expr, general: Fast<BoolFn>) -> Fast<BoolFn> {
    let form = binder_slot(e).is_some_and(|slot| kind_table(p, e, slot).is_none());
    replayed(p, e, form, general)
}

/// Number `e` (compiled as `general`) when it is one of the kind of the card a local holds, with
/// work and more than a constant property's read (`coin_worth(c)`, `(c.cost + 1) / 2`): for a
/// card, the value and work learned from the first card of its kind, replayed; anything else,
/// `general`.
pub(super) fn learned_int(p: &Program, e: &Expr, general: Fast<IntFn>) -> Fast<IntFn> {
    let form = matches!(
        e.kind,
        ExprKind::CallFn(..) | ExprKind::If(..) | ExprKind::Binary(..) | ExprKind::Unary(..)
    );
    replayed(p, e, form, general)
}

/// Value `e` (compiled as `general`) when it is one of the kind of the card a local holds: a tag of
/// a group (`d.faction`), or a call or `if` of such: as `learned_int`.
pub(super) fn learned_value(p: &Program, e: &Expr, general: Fast<ValueFn>) -> Fast<ValueFn> {
    let form = matches!(
        e.kind,
        ExprKind::TagOf(..) | ExprKind::CallFn(..) | ExprKind::If(..)
    );
    replayed(p, e, form, general)
}

/// `general`, for a card of a kind met before (when `e`, of a `form` worth it, reads the kind
/// alone), replaced by the value and work it gave for the first card of that kind (a `OnceLock`
/// per kind, shared by every game and thread).
fn replayed<T: Clone + Send + Sync + 'static>(
    p: &Program,
    e: &Expr,
    form: bool,
    general: Fast<FastFn<T>>,
) -> Fast<FastFn<T>> {
    let Some(slot) = binder_slot(e).filter(|&s| form && kind_alone(p, e, s)) else {
        return general;
    };
    let known: Vec<OnceLock<(T, u64)>> = unknown(p);
    let f = general.run;
    fast(
        general.height,
        Box::new(move |m| {
            let kind = match local(m, slot) {
                Some(&Value::Card(c)) => m.s.cards.get(c as usize)?.kind as usize,
                _ => return f(m),
            };
            let Some(cell) = known.get(kind) else {
                return f(m);
            };
            if let Some((v, work)) = cell.get() {
                m.s.exec_count += work;
                return Some(v.clone());
            }
            let before = m.s.exec_count;
            let v = f(m)?;
            let _ = cell.set((v.clone(), m.s.exec_count - before));
            Some(v)
        }),
    )
}

/// The local whose card's kind a test reads (the first met).
fn binder_slot(e: &Expr) -> Option<u16> {
    match &e.kind {
        ExprKind::IsTag(x, ..)
        | ExprKind::IsKind(x, ..)
        | ExprKind::TagOf(_, x)
        | ExprKind::Field(_, x)
        | ExprKind::Prop(_, x) => match x.kind {
            ExprKind::Local(s) => Some(s),
            _ => None,
        },
        ExprKind::CallFn(_, args) => match args.as_slice() {
            [Expr {
                kind: ExprKind::Local(s),
                ..
            }] => Some(*s),
            _ => None,
        },
        ExprKind::Unary(_, a) => binder_slot(a),
        ExprKind::Binary(_, a, b) => binder_slot(a).or_else(|| binder_slot(b)),
        ExprKind::If(c, a, b) => binder_slot(c)
            .or_else(|| binder_slot(a))
            .or_else(|| binder_slot(b)),
        ExprKind::List(items) => items.iter().find_map(binder_slot),
        _ => None,
    }
}

/// Whether `e` reads nothing but constants and the kind of the card local `slot` holds (its kind,
/// tags, tag in a group, properties constant for every kind).
fn kind_alone(p: &Program, e: &Expr, slot: u16) -> bool {
    alone_within(p, e, slot, 0)
}

/// The calls followed at most, one inside another (`kind_alone`).
const MAX_CALLS: u32 = 4;

fn alone_within(p: &Program, e: &Expr, slot: u16, calls: u32) -> bool {
    let binder = |x: &Expr| matches!(x.kind, ExprKind::Local(s) if s == slot);
    let kind_alone = |p: &Program, e: &Expr, slot: u16| alone_within(p, e, slot, calls);
    match &e.kind {
        // A function of one card, called with the card, whose body reads only that card's kind
        // (`coin_worth(c)`): its parameter is its first local.
        ExprKind::CallFn(f, args) => {
            calls < MAX_CALLS
                && matches!(args.as_slice(), [a] if binder(a))
                && p.fns
                    .get(f.index())
                    .is_some_and(|d| alone_within(p, &d.body, 0, calls + 1))
        }
        ExprKind::Const(_) => true,
        ExprKind::IsTag(x, ..)
        | ExprKind::IsKind(x, ..)
        | ExprKind::TagOf(_, x)
        | ExprKind::Field(Field::Kind, x) => binder(x),
        ExprKind::Prop(pid, x) => binder(x) && constant_prop(p, pid.index()),
        ExprKind::Unary(_, a) => kind_alone(p, a, slot),
        ExprKind::Binary(_, a, b) => kind_alone(p, a, slot) && kind_alone(p, b, slot),
        ExprKind::If(c, a, b) => {
            kind_alone(p, c, slot) && kind_alone(p, a, slot) && kind_alone(p, b, slot)
        }
        ExprKind::List(items) => items.iter().all(|i| kind_alone(p, i, slot)),
        _ => false,
    }
}

/// Whether property `pid` is a constant (or a list of constants) for every kind.
pub(super) fn constant_prop(p: &Program, pid: usize) -> bool {
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

/// Runs `test` on each of `len` items in turn (`item(m, i)`, `None` ending them early), as `each`
/// in calls.rs binds them to local `slot` and runs it, and gives each item and its answer to `f`
/// until `f` says stop (`Some(true)`) or something gives up (`None`). A card whose kind's answer is
/// known is not bound; the local's value before is restored when any item was.
pub(super) fn each_by_kind(
    m: &mut Mach,
    len: usize,
    item: impl Fn(&Mach, usize) -> Option<Value>,
    slot: u16,
    by: &ByKind,
    test: &BoolFn,
    mut f: impl FnMut(&mut Mach, Value, bool) -> Option<bool>,
) -> Option<()> {
    let mut saved: Option<Value> = None;
    let mut r = Some(());
    for i in 0..len {
        let Some(item) = item(m, i) else {
            break;
        };
        let kind = match item {
            Value::Card(c) => Some(m.s.cards.get(c as usize).map(|cs| cs.kind as usize)),
            _ => None,
        };
        let known = match kind {
            Some(Some(k)) => by.known(k),
            // A card that is not in the game: the test's turn (it gives up as the walker fails).
            _ => None,
        };
        let pass = match known {
            Some((pass, work)) => {
                m.s.exec_count += work;
                pass
            }
            None => {
                if saved.is_none() {
                    saved = Some(local(m, slot).cloned().unwrap_or_default());
                }
                m.set_local(slot, item.clone());
                let before = m.s.exec_count;
                let Some(pass) = test(m) else {
                    r = None;
                    break;
                };
                if let Some(Some(k)) = kind {
                    by.learn(k, pass, m.s.exec_count - before);
                }
                pass
            }
        };
        match f(m, item, pass) {
            Some(false) => {}
            Some(true) => break,
            None => {
                r = None;
                break;
            }
        }
    }
    if let Some(v) = saved {
        m.set_local(slot, v);
    }
    r
}
