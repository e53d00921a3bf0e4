//! Engine stage (closures): the lists the closures walk without making them.
//!
//! A zone's cards top first, the living seats, the board's spaces, a space's neighbours, the cards
//! of a zone for each item of another list (`flatten`), and the lists made of these; the
//! aggregates over them are aggregates.rs's.

use super::env::Env;
use super::expr::{compile, zone, Cx, Int, C};
use crate::program::{Aggregate, BinOp, Builtin, Expr, ExprKind, Program, PropType, Ty};
use crate::value::Value;
use std::sync::Arc;

/// The items an aggregate walks: a zone's cards, top first, the living seats in seat order, the
/// spaces of the board, or the neighbours of a space (in the layout's order).
pub(super) enum Items {
    Zone(Int),
    /// `take(zone, n)`: the zone's top `n` cards, top first.
    Top(Int, Int),
    Seats,
    Spaces,
    Neighbours(Int),
    /// `flatten(z for x in L where C)`, `flatten([z for x in L where C])`: for each item of L
    /// (bound to the slot) that passes C, the cards of zone z, top first.
    Nested {
        outer: Box<Items>,
        slot: usize,
        filter: Option<Int>,
        zone: Int,
    },
    /// `a + b`: the items of one list, then of the other.
    Concat(Box<Items>, Box<Items>),
    /// `filter(x in L where C)` (each item of L, bound to the slot, that passes C), or
    /// `take_while(x in L where C)` (`stop`: up to the first that does not).
    Filter {
        list: Box<Items>,
        slot: usize,
        cond: Int,
        stop: bool,
    },
    /// `[V for x in L where C]`: for each item of L (bound to the slot) that passes C, the word V.
    Map {
        list: Box<Items>,
        slot: usize,
        filter: Option<Int>,
        value: Int,
    },
    /// `if C then A else B` of two lists.
    Choice(Int, Box<Items>, Box<Items>),
    /// A function's list: its arguments written in its frame's slots from `base`, then its body;
    /// `keeps`: an argument kept in `Made` (a text, a list made), given back when the walk ends.
    Call {
        args: Vec<Int>,
        base: usize,
        body: Box<Items>,
        keeps: bool,
    },
    /// `let` of a slot (the checker's, of a call it inlined) given `value`'s word, then the items
    /// of its body; `keeps`: the value kept in `Made` (a text, a list made), given back when the
    /// walk ends.
    Let {
        value: Int,
        slot: usize,
        body: Box<Items>,
        keeps: bool,
    },
    /// A card's property that is a list of kinds constant for its kind (`c.recipe`): the card,
    /// and per kind its kinds as words.
    KindList(Int, KindLists),
    /// `distinct(L)`: each item of L the first time it comes (more than 16 different items are
    /// the walker's).
    Distinct(Box<Items>),
    /// A global variable holding a list of words.
    Global(crate::program::VarId),
    /// A player's variable holding a list of words: the variable, the player.
    PlayerVar(crate::program::VarId, Int),
    /// A body's local holding a list of words, read from the walker's context (which holds a
    /// body's locals too: `Cx::locals`).
    Context(u16),
    /// `cards(k, L)`: the cards of L of kind k.
    OfKind(Int, Box<Items>),
    /// A list written out of words, each evaluated as it is walked.
    Words(Vec<Int>),
    /// `take(L, n)` of a list that is not a zone: its first `n` items.
    Take(Box<Items>, Int),
    /// `sort(x in L where C by K)`: the items of L (bound to the slot) that pass C, in the order of
    /// their keys K (`None`: the items themselves), the first first among equal keys (the walker's
    /// stable sort; words of one type compare as their values do).
    Sorted {
        list: Box<Items>,
        slot: usize,
        filter: Option<Int>,
        key: Option<Int>,
    },
    /// `kinds(L)`: the kind of each item of L (a card's, or a kind itself: `cards` false) the
    /// first time it comes.
    Kinds {
        list: Box<Items>,
        cards: bool,
    },
    /// The list a parameter ranging over lists is given (`Given::Bound`): its slot holds the
    /// list's place among `Made::lists`.
    Bound(usize),
    /// `a..b`: the numbers from a to b (none when b < a); a range longer than `WALK` is the
    /// walker's.
    Range(Int, Int),
}

/// Per kind, a property's list of kinds as words.
pub(super) type KindLists = Arc<[Box<[i64]>]>;

/// A function's parameter or a `let` that is not a word, given what the closures stand for: in
/// the function's frame it is read only where the compiler looks for it (`Cx::given`).
#[derive(Clone, PartialEq)]
pub(crate) enum Given {
    /// `none`: compared with a word, it equals none (`k == skip`).
    Nothing,
    /// A card's property that is a list of kinds constant for its kind (`c.recipe`): its slot
    /// holds the card, and it is read only as a list walked (`KindList`).
    KindList(KindLists),
    /// A list of words of the type given, one of `Made::lists`: its slot holds the list's place
    /// there, and it is read only as a list walked (`Bound`).
    Bound(Ty),
    /// A text: its slot holds the text's place in `Made::texts`, read by a value closure.
    Text,
}

/// The most cards of one zone the closures walk in one evaluation: a larger zone is the walker's,
/// which counts the work of walking it (the closures count none of an expression's work, so that a
/// loop over a huge zone would otherwise run on past the budget unseen).
pub(super) const WALK: usize = 4096;

/// The most kinds of card a program may have for the closures to walk `kinds(L)` (a set of them
/// kept in bits).
const KINDS: usize = 256;

impl Items {
    /// Calls `f` on every item, in order, until it answers `Some(false)` (stop) or `None`.
    #[inline(always)]
    pub(super) fn each(
        &self,
        env: &mut Env,
        mut f: impl FnMut(&mut Env, i64) -> Option<bool>,
    ) -> Option<()> {
        match self {
            Items::Zone(zf) => {
                let z = usize::try_from(zf(env)?).ok()?;
                let n = env.s.zones.get(z)?.cards.len();
                if n > WALK {
                    return None;
                }
                for k in 0..n {
                    // Read in place, top first, as the walker reads it.
                    let c = *env.s.zones.get(z)?.cards.get(n.checked_sub(k + 1)?)?;
                    if !f(env, c as i64)? {
                        break;
                    }
                }
            }
            Items::Top(zf, nf) => {
                let z = usize::try_from(zf(env)?).ok()?;
                let n = env.s.zones.get(z)?.cards.len();
                let take = usize::try_from(nf(env)?.max(0)).ok()?.min(n);
                if take > WALK {
                    return None;
                }
                for k in 0..take {
                    let c = *env.s.zones.get(z)?.cards.get(n.checked_sub(k + 1)?)?;
                    if !f(env, c as i64)? {
                        break;
                    }
                }
            }
            Items::Seats => {
                for q in 0..env.s.players {
                    if env.s.living(q) && !f(env, q as i64)? {
                        break;
                    }
                }
            }
            Items::Spaces => {
                for i in 0..env.l.spaces.len() {
                    if !f(env, i as i64)? {
                        break;
                    }
                }
            }
            Items::Nested {
                outer,
                slot,
                filter,
                zone,
            } => {
                let inner = &mut |env: &mut Env, x: i64| {
                    env.slots[*slot] = x;
                    if let Some(c) = filter {
                        if c(env)? == 0 {
                            return Some(true);
                        }
                    }
                    let z = usize::try_from(zone(env)?).ok()?;
                    let n = env.s.zones.get(z)?.cards.len();
                    if n > WALK {
                        return None;
                    }
                    for k in 0..n {
                        let c = *env.s.zones.get(z)?.cards.get(n.checked_sub(k + 1)?)?;
                        if !f(env, c as i64)? {
                            return Some(false);
                        }
                    }
                    Some(true)
                };
                outer.each_dyn(env, inner)?;
            }
            Items::Concat(a, b) => {
                let mut go = true;
                a.each_dyn(env, &mut |env, x| {
                    go = f(env, x)?;
                    Some(go)
                })?;
                if go {
                    b.each_dyn(env, &mut f)?;
                }
            }
            Items::Filter {
                list,
                slot,
                cond,
                stop,
            } => {
                list.each_dyn(env, &mut |env, x| {
                    env.slots[*slot] = x;
                    if cond(env)? == 0 {
                        return Some(!*stop);
                    }
                    f(env, x)
                })?;
            }
            Items::Map {
                list,
                slot,
                filter,
                value,
            } => {
                list.each_dyn(env, &mut |env, x| {
                    env.slots[*slot] = x;
                    if let Some(c) = filter {
                        if c(env)? == 0 {
                            return Some(true);
                        }
                    }
                    let y = value(env)?;
                    f(env, y)
                })?;
            }
            Items::Choice(c, a, b) => {
                let list = if c(env)? != 0 { a } else { b };
                list.each_dyn(env, &mut f)?;
            }
            Items::Call {
                args,
                base,
                body,
                keeps: false,
            } => {
                super::functions::enter(env, args, *base)?;
                body.each_dyn(env, &mut f)?;
            }
            Items::Call {
                args,
                base,
                body,
                keeps: true,
            } => {
                super::text_store::keeping(env, |env| {
                    super::functions::enter(env, args, *base)?;
                    body.each_dyn(env, &mut f)
                })?;
            }
            Items::Let {
                value,
                slot,
                body,
                keeps,
            } => {
                let mut walk = |env: &mut Env| {
                    *env.slots.get_mut(*slot)? = value(env)?;
                    body.each_dyn(env, &mut f)
                };
                match keeps {
                    true => super::text_store::keeping(env, walk)?,
                    false => walk(env)?,
                }
            }
            Items::KindList(cf, table) => {
                let c = usize::try_from(cf(env)?).ok()?;
                let k = env.s.cards.get(c)?.kind as usize;
                for &w in table.get(k)?.iter() {
                    if !f(env, w)? {
                        break;
                    }
                }
            }
            Items::Distinct(list) => {
                // The first 16 items seen in place, any more in a set.
                let (mut seen, mut n) = ([0i64; 16], 0);
                let mut more = std::collections::HashSet::new();
                list.each_dyn(env, &mut |env, x| {
                    if seen[..n].contains(&x) || more.contains(&x) {
                        return Some(true);
                    }
                    match seen.get_mut(n) {
                        Some(at) => {
                            *at = x;
                            n += 1;
                        }
                        None => {
                            more.insert(x);
                        }
                    }
                    f(env, x)
                })?;
            }
            Items::Global(v) => {
                let s = env.s;
                words(env, s.globals.get(env.l.var(*v))?, &mut f)?;
            }
            Items::PlayerVar(v, pf) => {
                let (s, p) = (env.s, usize::try_from(pf(env)?).ok()?);
                words(env, s.pvars.get(p * env.l.n_pvars + env.l.var(*v))?, &mut f)?;
            }
            Items::Context(slot) => {
                let s = env.s;
                words(env, s.ctxs.last()?.locals.get(*slot as usize)?, &mut f)?;
            }
            // Of a list made for a parameter (`Bound`): one loop over its cards' kinds.
            Items::OfKind(kf, list) if matches!(**list, Items::Bound(_)) => {
                let (k, Items::Bound(i)) = (kf(env)?, &**list) else {
                    return None;
                };
                let cards = bound(env, *i)?;
                for &c in cards.iter() {
                    if env.s.cards.get(c as usize)?.kind as i64 == k && !f(env, c)? {
                        break;
                    }
                }
            }
            Items::OfKind(kf, list) => {
                let k = kf(env)?;
                list.each_dyn(env, &mut |env, c| {
                    if env.s.cards.get(usize::try_from(c).ok()?)?.kind as i64 != k {
                        return Some(true);
                    }
                    f(env, c)
                })?;
            }
            Items::Words(xs) => {
                for x in xs {
                    let w = x(env)?;
                    if !f(env, w)? {
                        break;
                    }
                }
            }
            Items::Take(list, nf) => {
                let mut left = nf(env)?;
                if left > 0 {
                    list.each_dyn(env, &mut |env, x| {
                        left -= 1;
                        Some(f(env, x)? && left > 0)
                    })?;
                }
            }
            Items::Sorted {
                list,
                slot,
                filter,
                key,
            } => {
                let mut keyed: Vec<(i64, i64)> = Vec::new();
                list.each_dyn(env, &mut |env, x| {
                    env.slots[*slot] = x;
                    if let Some(c) = filter {
                        if c(env)? == 0 {
                            return Some(true);
                        }
                    }
                    let k = match key {
                        Some(k) => k(env)?,
                        None => x,
                    };
                    keyed.push((k, x));
                    Some(true)
                })?;
                keyed.sort_by_key(|&(k, _)| k);
                for (_, x) in keyed {
                    if !f(env, x)? {
                        break;
                    }
                }
            }
            Items::Kinds { list, cards } => {
                let mut seen = [0u64; KINDS / 64];
                list.each_dyn(env, &mut |env, x| {
                    let k = match cards {
                        true => env.s.cards.get(usize::try_from(x).ok()?)?.kind as usize,
                        false => usize::try_from(x).ok()?,
                    };
                    let (word, bit) = (seen.get_mut(k / 64)?, 1u64 << (k % 64));
                    if *word & bit != 0 {
                        return Some(true);
                    }
                    *word |= bit;
                    f(env, k as i64)
                })?;
            }
            Items::Bound(i) => {
                let list = bound(env, *i)?;
                for &w in list.iter() {
                    if !f(env, w)? {
                        break;
                    }
                }
            }
            Items::Range(af, bf) => {
                let (a, b) = (af(env)?, bf(env)?);
                if b.checked_sub(a)? >= WALK as i64 {
                    return None;
                }
                for k in a..=b {
                    if !f(env, k)? {
                        break;
                    }
                }
            }
            Items::Neighbours(sf) => {
                let sp = usize::try_from(sf(env)?).ok()?;
                let l = env.l;
                let crate::value::Value::List(near) = l.neighbours.get(sp)? else {
                    return None;
                };
                for v in near.iter() {
                    if !f(env, super::env::word(v)?)? {
                        break;
                    }
                }
            }
        }
        Some(())
    }

    /// `each` of a closure behind a reference (the outer loop of `Nested`).
    fn each_dyn(
        &self,
        env: &mut Env,
        f: &mut dyn FnMut(&mut Env, i64) -> Option<bool>,
    ) -> Option<()> {
        self.each(env, f)
    }
}

/// The items of a list an aggregate walks, and their type.
pub(super) fn items(cx: &mut Cx, list: &Expr) -> C<(Items, Ty)> {
    Ok(match &list.kind {
        ExprKind::Zone(z, holder) => (
            Items::Zone(zone(cx, z.index(), holder.as_deref(), list.span)?),
            Ty::Card,
        ),
        ExprKind::Everyone => (Items::Seats, Ty::Player),
        ExprKind::Builtin(Builtin::Take, a)
            if a.len() == 2 && super::stmts::type_of(cx, &a[0]) == Some(Ty::Zone) =>
        {
            (
                Items::Top(compile(cx, &a[0])?, compile(cx, &a[1])?),
                Ty::Card,
            )
        }
        ExprKind::Builtin(Builtin::Take, a) if a.len() == 2 => {
            let (list, ty) = items(cx, &a[0])?;
            (Items::Take(Box::new(list), compile(cx, &a[1])?), ty)
        }
        ExprKind::Spaces => (Items::Spaces, Ty::Space),
        ExprKind::Range(a, b) => (Items::Range(compile(cx, a)?, compile(cx, b)?), Ty::Int),
        ExprKind::Builtin(Builtin::Neighbours, s) if s.len() == 1 => {
            if super::stmts::type_of(cx, &s[0]) != Some(Ty::Space) {
                return Err("`neighbours` of what is not known to be a space");
            }
            (Items::Neighbours(compile(cx, &s[0])?), Ty::Space)
        }
        ExprKind::Builtin(Builtin::Flatten, l) if l.len() == 1 => match &l[0].kind {
            ExprKind::Aggregate {
                op: Aggregate::Map,
                value: Some(v),
                slot,
                list,
                filter,
            } => nested(cx, v, *slot, list, filter.as_deref())?,
            _ => return Err("`flatten` of what is not a list of zones"),
        },
        ExprKind::Aggregate {
            op: Aggregate::Flatten,
            value: Some(v),
            slot,
            list,
            filter,
        } => nested(cx, v, *slot, list, filter.as_deref())?,
        _ if super::stmts::type_of(cx, list) == Some(Ty::Zone) => {
            (Items::Zone(compile(cx, list)?), Ty::Card)
        }
        ExprKind::Binary(BinOp::Add | BinOp::Concat, a, b) => {
            let ((a, ta), (b, tb)) = (items(cx, a)?, items(cx, b)?);
            let t = unify(ta, tb).ok_or("a list of two lists of other items")?;
            (Items::Concat(Box::new(a), Box::new(b)), t)
        }
        ExprKind::Aggregate {
            op: op @ (Aggregate::Filter | Aggregate::TakeWhile),
            value: None,
            slot,
            list,
            filter: Some(cond),
        } => {
            let (list, ty) = items(cx, list)?;
            cx.set_type(*slot, ty.clone());
            let slot = cx.slot(*slot)?;
            let cond = compile(cx, cond)?;
            let stop = *op == Aggregate::TakeWhile;
            let list = Box::new(list);
            (
                Items::Filter {
                    list,
                    slot,
                    cond,
                    stop,
                },
                ty,
            )
        }
        ExprKind::Aggregate {
            op: Aggregate::Map,
            value: Some(v),
            slot,
            list,
            filter,
        } => {
            let (list, ty) = items(cx, list)?;
            cx.set_type(*slot, ty);
            let slot = cx.slot(*slot)?;
            let filter = filter.as_deref().map(|c| compile(cx, c)).transpose()?;
            let ty = (super::stmts::type_of(cx, v))
                .filter(super::expr::is_word)
                .ok_or("a list made of what is not known to be a word")?;
            let value = compile(cx, v)?;
            let list = Box::new(list);
            let map = Items::Map {
                list,
                slot,
                filter,
                value,
            };
            (map, ty)
        }
        ExprKind::Aggregate {
            op: Aggregate::Sort,
            value,
            slot,
            list,
            filter,
        } => sorted(cx, value.as_deref(), *slot, list, filter.as_deref())?,
        ExprKind::Builtin(Builtin::Kinds, l) if l.len() == 1 => {
            let (list, ty) = items(cx, &l[0])?;
            let cards = match ty {
                Ty::Card => true,
                Ty::Kind => false,
                _ => return Err("`kinds` of a list that is not of cards or kinds"),
            };
            if cx.p.kinds.len() > KINDS {
                return Err("`kinds` in a program of too many kinds");
            }
            let list = Box::new(list);
            (Items::Kinds { list, cards }, Ty::Kind)
        }
        ExprKind::If(c, a, b) => {
            let c = compile(cx, c)?;
            let ((a, ta), (b, tb)) = (items(cx, a)?, items(cx, b)?);
            let t = unify(ta, tb).ok_or("a choice of two lists of other items")?;
            (Items::Choice(c, Box::new(a), Box::new(b)), t)
        }
        ExprKind::CallFn(f, args) => call(cx, f.index(), args)?,
        ExprKind::Let(slot, v, body) => {
            let (value, slot, (body, ty), keeps) = super::expr::let_in(cx, *slot, v, body, items)?;
            let body = Box::new(body);
            let walked = Items::Let {
                value,
                slot,
                body,
                keeps,
            };
            (walked, ty)
        }
        ExprKind::Builtin(Builtin::Distinct, l) if l.len() == 1 => {
            let (list, ty) = items(cx, &l[0])?;
            (Items::Distinct(Box::new(list)), ty)
        }
        ExprKind::Prop(pid, ce) if super::stmts::type_of(cx, ce) == Some(Ty::Card) => {
            let table = kind_lists(cx.p, pid.index())
                .ok_or("a property that is not a constant list of kinds")?;
            (Items::KindList(compile(cx, ce)?, table), Ty::Kind)
        }
        ExprKind::Local(s) => match cx.given(*s) {
            Some(Given::KindList(table)) => {
                let i = cx.slot(*s)?;
                let table = table.clone();
                (
                    Items::KindList(Box::new(move |env| Some(env.slots[i])), table),
                    Ty::Kind,
                )
            }
            Some(Given::Bound(ty)) => (Items::Bound(cx.slot(*s)?), ty.clone()),
            Some(Given::Nothing) => return Err("a local given `none`"),
            Some(Given::Text) => return Err("a text"),
            None => match cx.type_of_local(*s) {
                Some(Ty::List(item)) if cx.locals && super::expr::is_word(item) => {
                    (Items::Context(*s), (**item).clone())
                }
                _ => return Err("a local list that is not a body's list of words"),
            },
        },
        // A list written out: its items words of one type (`[]`: of any type).
        ExprKind::List(xs) => {
            let ty = match xs.first() {
                None => Ty::Any,
                Some(_) => super::each::item_type(cx, list)
                    .ok_or("a list written out of items that are not words of one type")?,
            };
            let xs = xs.iter().map(|x| compile(cx, x)).collect::<C<Vec<Int>>>()?;
            (Items::Words(xs), ty)
        }
        ExprKind::Builtin(Builtin::Cards, a) if a.len() == 2 => {
            let (list, ty) = items(cx, &a[1])?;
            if ty != Ty::Card {
                return Err("`cards` of a list that is not of cards");
            }
            let kf: Int = match super::stmts::type_of(cx, &a[0]) {
                Some(Ty::Kind) => compile(cx, &a[0])?,
                Some(Ty::Card) => {
                    let cf = compile(cx, &a[0])?;
                    Box::new(move |env| {
                        let c = usize::try_from(cf(env)?).ok()?;
                        Some(env.s.cards.get(c)?.kind as i64)
                    })
                }
                _ => return Err("`cards` of what is not known to be a kind or a card"),
            };
            (Items::OfKind(kf, Box::new(list)), Ty::Card)
        }
        ExprKind::Global(v) => match cx.p.vars.get(v.index()).map(|d| &d.ty) {
            Some(Ty::List(item)) if super::expr::is_word(item) => {
                (Items::Global(*v), (**item).clone())
            }
            _ => return Err("a variable that is not a list of words"),
        },
        ExprKind::PlayerVar(v, pe) => match cx.p.vars.get(v.index()).map(|d| &d.ty) {
            Some(Ty::List(item))
                if super::expr::is_word(item)
                    && super::stmts::type_of(cx, pe) == Some(Ty::Player) =>
            {
                (Items::PlayerVar(*v, compile(cx, pe)?), (**item).clone())
            }
            _ => return Err("a player's variable that is not a list of words"),
        },
        _ => return Err("an aggregate over a list that is not a zone, seats, spaces or zones'"),
    })
}

/// The list made for a parameter whose slot `i` holds its place among `Made::lists`.
fn bound(env: &Env, i: usize) -> Option<Arc<[i64]>> {
    let j = usize::try_from(*env.slots.get(i)?).ok()?;
    env.made.as_deref()?.lists.get(j).cloned()
}

/// The items of a variable's list (`v`), each as a word, given to `f` until it answers false;
/// `None` for a value that is not a list, or an item that is not a word.
fn words(env: &mut Env, v: &Value, f: &mut dyn FnMut(&mut Env, i64) -> Option<bool>) -> Option<()> {
    let Value::List(list) = v else {
        return None;
    };
    for x in list.iter() {
        if !f(env, super::env::word(x)?)? {
            break;
        }
    }
    Some(())
}

/// The type of the items of two lists walked one after the other or one of them: the same, where
/// an empty list written out (`[]`, of any type) takes the other's.
fn unify(a: Ty, b: Ty) -> Option<Ty> {
    match (a, b) {
        (Ty::Any, t) | (t, Ty::Any) => Some(t),
        (a, b) => (a == b).then_some(a),
    }
}

/// Per kind, the list of kinds of property `pid` as words (`None`: a property that is not a list
/// of kinds constant for every kind).
pub(super) fn kind_lists(p: &Program, pid: usize) -> Option<KindLists> {
    if p.props.get(pid)?.ty != PropType::Kinds {
        return None;
    }
    let kind = |v: &Value| match v {
        Value::Kind(k) => Some(*k as i64),
        _ => None,
    };
    (0..p.kinds.len())
        .map(|k| {
            let e = match p.kinds.get(k)?.props.get(pid)? {
                Some(e) => e,
                None => &p.props.get(pid)?.default,
            };
            match &e.kind {
                ExprKind::Const(Value::List(l)) => l.iter().map(kind).collect(),
                ExprKind::List(xs) => (xs.iter())
                    .map(|x| match &x.kind {
                        ExprKind::Const(v) => kind(v),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            }
        })
        .collect()
}

/// `sort(x in L where C by K)` of words, walked in the order of their keys.
fn sorted(
    cx: &mut Cx,
    key: Option<&Expr>,
    slot: u16,
    list: &Expr,
    filter: Option<&Expr>,
) -> C<(Items, Ty)> {
    let (list, ty) = items(cx, list)?;
    cx.set_type(slot, ty.clone());
    let i = cx.slot(slot)?;
    let filter = filter.map(|c| compile(cx, c)).transpose()?;
    let key = match key {
        Some(k) if super::stmts::type_of(cx, k).is_some_and(|t| super::expr::is_word(&t)) => {
            Some(compile(cx, k)?)
        }
        Some(_) => return Err("a sort by what is not known to be a word"),
        None => None,
    };
    let list = Box::new(list);
    let sorted = Items::Sorted {
        list,
        slot: i,
        filter,
        key,
    };
    Ok((sorted, ty))
}

/// The items of the list a function gives, its body compiled in a frame above the caller's (as
/// expr.rs compiles a call of a function giving a word).
fn call(cx: &mut Cx, f: usize, args: &[Expr]) -> C<(Items, Ty)> {
    let (args, base, (body, ty), keeps) = super::functions::inline(cx, f, args, items)?;
    let body = Box::new(body);
    let call = Items::Call {
        args,
        base,
        body,
        keeps,
    };
    Ok((call, ty))
}

/// The cards of zone `v` for each item of `list` (bound to `slot`) that passes `filter`.
fn nested(cx: &mut Cx, v: &Expr, slot: u16, list: &Expr, filter: Option<&Expr>) -> C<(Items, Ty)> {
    let (outer, ty) = items(cx, list)?;
    cx.set_type(slot, ty);
    if super::stmts::type_of(cx, v) != Some(Ty::Zone) {
        return Err("`flatten` of what is not a list of zones");
    }
    let i = cx.slot(slot)?;
    let filter = filter.map(|f| compile(cx, f)).transpose()?;
    let zone = compile(cx, v)?;
    Ok((
        Items::Nested {
            outer: Box::new(outer),
            slot: i,
            filter,
            zone,
        },
        Ty::Card,
    ))
}
