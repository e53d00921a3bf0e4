//! Engine stage (closures): calls of script functions, inline in a frame above the caller's, or
//! callables compiled once, each call in a frame of its own.
//!
//! A leaf function's call (one whose own calls need no slots above its frame: `owns(p, k)`,
//! `is_piece(c)`) is compiled in place, its body in a frame of slots above its caller's, where it
//! fits in the bank of [`SLOTS`]. Any other call is a callable's: the function's body compiled once
//! per program and kind of arguments (`Callables`), run with its arguments in slots of its own, a
//! new bank, so that its nested calls need no room in its caller's (Crayne's `atk_gain` calling
//! `hurt` calling `past_walls`; Craft the Crown's `tool_gain_of`, of 46 locals, in a bank of
//! [`BANK`]). Inlining every call that fits compiles the same bodies again at every call site:
//! Crayne's `sim` of its two strategies over 4 games ran 370 million instructions so, 325 with
//! the leaves alone inlined (the walker's 361), the other three measured alike (callgrind). A
//! function that returns a list walked where it is read (items.rs) is inlined only: its items are
//! given to the caller's closures in the caller's slots.

use super::env::{Env, BANK, NONE, SLOTS};
use super::expr::{compile, is_word, Cx, Int, C, DEPTH};
use super::items::Given;
use crate::program::{Builtin, Expr, ExprKind, Program, Ty};
use crate::value::Value;
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::sync::Arc;

/// A closure giving `T`, a word's or a value's.
type Of<T> = Box<dyn Fn(&mut Env) -> Option<T> + Send + Sync>;

/// A callable's body, shared by every call of it.
type Shared<T> = Arc<dyn Fn(&mut Env) -> Option<T> + Send + Sync>;

/// Why a frame does not fit in the bank of slots (`Cx::slot`): a call in a frame of its own may.
pub(super) const PAST_SLOTS: &str = "more slots than the closures' frame holds";

/// The callables compiled while a program's closures are built, by function and kind of arguments:
/// each body compiled once (or found not to compile), shared by every call of it. Build time only;
/// what a closure keeps is its callable's body (`Shared`).
#[derive(Default)]
pub(crate) struct Callables {
    compiled: RefCell<Vec<(Key, Box<dyn Any>)>>,
    /// Per function, the slots its call needs inlined (`Callables::need`), once worked out.
    needs: RefCell<Vec<Option<usize>>>,
}

/// A callable's body, or why it does not compile.
type Compiled<T> = C<Shared<T>>;

/// What a callable's body was compiled for: the function, the types of its frame's slots as the
/// call starts, what its parameters that are not words are given, and what the body gives.
#[derive(PartialEq)]
struct Key {
    f: usize,
    types: Vec<Option<Ty>>,
    given: Vec<(u16, Given)>,
    card: bool,
    bank: usize,
    nullable: u64,
    of: TypeId,
}

impl Callables {
    fn find<T: 'static>(&self, key: &Key) -> Option<Compiled<T>> {
        let compiled = self.compiled.borrow();
        let (_, body) = compiled.iter().find(|(k, _)| k == key)?;
        body.downcast_ref::<Compiled<T>>().cloned()
    }

    fn keep<T: 'static>(&self, key: Key, body: Compiled<T>) {
        self.compiled.borrow_mut().push((key, Box::new(body)));
    }

    /// The slots function `f`'s call needs inlined: its frame's and the most that a call in its
    /// body needs above it (`usize::MAX` for a function that calls itself).
    fn need(&self, p: &Program, f: usize) -> usize {
        if let Some(n) = self.needs.borrow().get(f).copied().flatten() {
            return n;
        }
        let Some(def) = p.fns.get(f) else {
            return usize::MAX;
        };
        {
            let mut needs = self.needs.borrow_mut();
            if needs.len() < p.fns.len() {
                needs.resize(p.fns.len(), None);
            }
            // Worked out while it is: a call of itself needs more than any bank.
            needs[f] = Some(usize::MAX);
        }
        let mut most = 0;
        self.calls_in(p, &def.body, &mut most);
        let n = frame_of(p, f).saturating_add(most);
        self.needs.borrow_mut()[f] = Some(n);
        n
    }

    /// The most slots a call in `e` needs inlined, into `most`.
    fn calls_in(&self, p: &Program, e: &Expr, most: &mut usize) {
        if let ExprKind::CallFn(g, _) = &e.kind {
            *most = (*most).max(self.need(p, g.index()));
        }
        e.children(&mut |x| self.calls_in(p, x, most));
    }
}

/// A call's frame before its body is compiled: the arguments' closures, the context the body
/// compiles in, whether an argument is kept in `Made` (a text, a list made: the call gives it back
/// when it ends), and in a frame of its own, the caller's slots of a computed property's card and
/// its owner with the callee's they are copied to.
struct Framed<'p> {
    args: Vec<Int>,
    inner: Cx<'p>,
    keeps: bool,
    card: Option<[(usize, usize); 2]>,
}

/// The slots of function `f`'s own frame: its parameters and locals.
fn frame_of(p: &Program, f: usize) -> usize {
    p.fns
        .get(f)
        .map_or(0, |d| d.slots.max(d.params.len() as u16) as usize)
}

/// Whether local `slot` is read in `e` only as the list an aggregate walks or the list of `take`
/// or of `cards(k, L)` walked (a zone's word then stands for the list of its cards).
fn walked_only(e: &Expr, slot: u16) -> bool {
    match &e.kind {
        ExprKind::Local(s) => *s != slot,
        ExprKind::Aggregate {
            list,
            value,
            filter,
            ..
        } if listed(list, slot) => [value, filter]
            .into_iter()
            .flatten()
            .all(|x| walked_only(x, slot)),
        ExprKind::Builtin(Builtin::Take, a) if a.len() == 2 && listed(&a[0], slot) => {
            walked_only(&a[1], slot)
        }
        _ => {
            let mut only = true;
            e.children(&mut |x| only = only && walked_only(x, slot));
            only
        }
    }
}

/// Whether `e`, a list walked, is local `slot` or its cards of a kind (`cards(k, slot)`), the kind
/// not reading it.
fn listed(e: &Expr, slot: u16) -> bool {
    match &e.kind {
        ExprKind::Local(s) => *s == slot,
        ExprKind::Builtin(Builtin::Cards, a) if a.len() == 2 => {
            listed(&a[1], slot) && walked_only(&a[0], slot)
        }
        _ => false,
    }
}

/// What a function's parameter or a `let` that is not a word is given, when the closures stand
/// for it (`Given`), and the closure of what its slot holds.
pub(super) fn given(cx: &mut Cx, a: &Expr) -> C<(Given, Int)> {
    match &a.kind {
        ExprKind::Const(Value::None) => Ok((Given::Nothing, Box::new(|_| Some(super::env::NONE)))),
        ExprKind::Prop(pid, ce) if super::stmts::type_of(cx, ce) == Some(Ty::Card) => {
            let table = super::items::kind_lists(cx.p, pid.index())
                .ok_or("a property that is not a constant list of kinds")?;
            Ok((Given::KindList(table), compile(cx, ce)?))
        }
        ExprKind::Local(s) => match cx.given(*s) {
            Some(Given::Bound(ty)) => {
                let (ty, i) = (ty.clone(), cx.slot(*s)?);
                Ok((Given::Bound(ty), Box::new(move |env| Some(env.slots[i]))))
            }
            Some(Given::Nothing | Given::KindList(_) | Given::Text) | None => {
                Err("a value that is not a word")
            }
        },
        _ => Err("a value that is not a word"),
    }
}

/// Function `f`'s call of `args` compiled in a frame above the caller's (`own`: false) or in one
/// of its own, up to its body.
fn frame<'p>(cx: &mut Cx<'p>, f: usize, args: &[Expr], own: bool) -> C<Framed<'p>> {
    let def = cx.p.fns.get(f).ok_or("an unknown function")?;
    if cx.depth >= DEPTH {
        return Err("functions called too deep (a recursive function)");
    }
    if args.len() > 8 || args.len() != def.params.len() {
        return Err("a function with parameters that are not words");
    }
    // A parameter that is a list of cards given a zone, and read only as the list an aggregate
    // or `take` walks, is the zone's word: it is read where it lies, as the walker reads the list.
    // A parameter that is not a word may be given what the closures stand for (`given`), or
    // a text or a list of words kept in `Made` (text_store.rs, list_store.rs).
    let (mut types, mut given, mut arg_fns) = (Vec::new(), Vec::new(), Vec::new());
    let (mut keeps, mut nullable) = (false, 0u64);
    for (s, (t, a)) in def.params.iter().zip(args).enumerate() {
        let t = match t {
            _ if is_word(t) => t.clone(),
            Ty::List(item)
                if **item == Ty::Card
                    && super::stmts::type_of(cx, a) == Some(Ty::Zone)
                    && walked_only(&def.body, s as u16) =>
            {
                Ty::Zone
            }
            Ty::Text => {
                given.push((s as u16, Given::Text));
                arg_fns.push(super::text_store::place(cx, a)?);
                keeps = true;
                continue;
            }
            _ => {
                let (g, f) = match (self::given(cx, a), t) {
                    (Ok(given), _) => given,
                    (Err(_), Ty::List(item)) if is_word(item) => {
                        keeps = true;
                        let (place, _) = super::list_store::place(cx, a)
                            .map_err(|_| "a function's list given what the closures do not walk")?;
                        (Given::Bound((**item).clone()), place)
                    }
                    (Err(_), _) => return Err("a function with parameters that are not words"),
                };
                given.push((s as u16, g));
                arg_fns.push(f);
                continue;
            }
        };
        // A word that may be `none` (a function's, `first`'s, a parameter given `none`): `NONE`.
        let word = match is_word(&t) && may_be_none(cx, a) {
            true => {
                nullable |= 1 << s;
                or_none(cx, a)?
            }
            false => compile(cx, a)?,
        };
        types.push((s as u16, t));
        arg_fns.push(word);
    }
    let base = if own { 0 } else { cx.base + cx.types.len() };
    // A frame of its own lies in a bank of `SLOTS`, or of `BANK` where its locals (and a computed
    // property's card and owner) need more.
    let locals = def.slots.max(def.params.len() as u16) as usize + 2;
    let bank = match own {
        true if locals > SLOTS => BANK,
        true => SLOTS,
        false => cx.bank,
    };
    let mut inner = Cx {
        p: cx.p,
        base,
        types: vec![None; def.slots.max(def.params.len() as u16) as usize],
        depth: cx.depth + 1,
        // A function's slots are written before they are read: nothing to load for them.
        reads: 0,
        locals: false,
        given,
        card: cx.card,
        // A function that draws is the walker's (draws.rs, `drawn_inside`).
        draws: false,
        fns: cx.fns.clone(),
        bank,
        nullable,
    };
    for (s, t) in types {
        inner.set_type(s, t);
    }
    inner.slot(def.slots.saturating_sub(1))?;
    // In a frame of its own, a computed property's card and owner are copied above the locals.
    let card = match (own, cx.card) {
        (true, Some((this, you))) => {
            let n = inner.types.len() as u16;
            inner.set_type(n, Ty::Card);
            inner.set_type(n + 1, Ty::Player);
            let (t, y) = (inner.slot(n)?, inner.slot(n + 1)?);
            inner.card = Some((t, y));
            Some([(this, t), (you, y)])
        }
        (true, None) | (false, _) => None,
    };
    Ok(Framed {
        args: arg_fns,
        inner,
        keeps,
        card,
    })
}

/// A function's call compiled in a frame above the caller's: its arguments' closures, the
/// frame's first slot, its body compiled by `body` (a word, or any value: value.rs), and whether
/// an argument is kept in `Made` (a text, a list made: the call gives it back when it ends).
pub(super) fn inline<T>(
    cx: &mut Cx,
    f: usize,
    args: &[Expr],
    body: impl FnOnce(&mut Cx, &Expr) -> C<T>,
) -> C<(Vec<Int>, usize, T, bool)> {
    let mut framed = frame(cx, f, args, false)?;
    let def = cx.p.fns.get(f).ok_or("an unknown function")?;
    let base = framed.inner.base;
    let body = body(&mut framed.inner, &def.body)?;
    Ok((framed.args, base, body, framed.keeps))
}

/// A function's call giving `T` by its body compiled by `body`: a leaf's (a function whose calls
/// need no slots above its frame) inline where its frame fits above the caller's, else a
/// callable's, in a frame of its own.
pub(super) fn call<T: 'static>(
    cx: &mut Cx,
    f: usize,
    args: &[Expr],
    body: fn(&mut Cx, &Expr) -> C<Of<T>>,
) -> C<Of<T>> {
    let room = cx.bank.saturating_sub(cx.base + cx.types.len());
    let (need, own) = (cx.fns.need(cx.p, f), frame_of(cx.p, f));
    if need > room || need > own {
        return callable(cx, f, args, body);
    }
    match inline(cx, f, args, body) {
        Ok((arg_fns, base, body, keeps)) => Ok(super::text_store::call(arg_fns, base, body, keeps)),
        Err(PAST_SLOTS) => callable(cx, f, args, body),
        Err(why) => Err(why),
    }
}

/// A function's call in a frame of its own: its body compiled once per program and kind of
/// arguments (`Callables`), its arguments written in a new bank of slots.
fn callable<T: 'static>(
    cx: &mut Cx,
    f: usize,
    args: &[Expr],
    body: fn(&mut Cx, &Expr) -> C<Of<T>>,
) -> C<Of<T>> {
    let mut framed = frame(cx, f, args, true)?;
    let def = cx.p.fns.get(f).ok_or("an unknown function")?;
    let key = Key {
        f,
        types: framed.inner.types.clone(),
        given: framed.inner.given.clone(),
        card: framed.card.is_some(),
        bank: framed.inner.bank,
        nullable: framed.inner.nullable,
        of: TypeId::of::<T>(),
    };
    let shared = match cx.fns.find::<T>(&key) {
        Some(compiled) => compiled?,
        None => {
            let compiled: Compiled<T> = body(&mut framed.inner, &def.body).map(Arc::from);
            cx.fns.keep(key, compiled.clone());
            compiled?
        }
    };
    let (arg_fns, card, keeps) = (framed.args, framed.card, framed.keeps);
    Ok(match (framed.inner.bank, keeps) {
        (SLOTS, false) => Box::new(move |env| run::<T, SLOTS>(env, &arg_fns, card, &shared)),
        (_, false) => Box::new(move |env| run::<T, BANK>(env, &arg_fns, card, &shared)),
        (SLOTS, true) => Box::new(move |env| {
            super::text_store::keeping(env, |env| run::<T, SLOTS>(env, &arg_fns, card, &shared))
        }),
        (_, true) => Box::new(move |env| {
            super::text_store::keeping(env, |env| run::<T, BANK>(env, &arg_fns, card, &shared))
        }),
    })
}

/// A callable's call: its arguments (and a computed property's card and owner, `card`) written
/// in a new bank of `N` slots, then its body.
#[inline(always)]
fn run<T, const N: usize>(
    env: &mut Env,
    arg_fns: &[Int],
    card: Option<[(usize, usize); 2]>,
    body: &Shared<T>,
) -> Option<T> {
    let mut slots = [NONE; N];
    for (slot, a) in slots.iter_mut().zip(arg_fns) {
        *slot = a(env)?;
    }
    if let Some(copied) = card {
        for (from, to) in copied {
            *slots.get_mut(to)? = *env.slots.get(from)?;
        }
    }
    let mut inner = Env::new(env.p, env.s, env.l, env.you, &mut slots);
    inner.made = env.made.as_deref_mut();
    body(&mut inner)
}

/// Whether word `a` may be `none` where its closure cannot say so: a function's value, `first` of a
/// list, a parameter that may be given `none`.
fn may_be_none(cx: &Cx, a: &Expr) -> bool {
    match &a.kind {
        ExprKind::CallFn(..) | ExprKind::Builtin(Builtin::First, _) => true,
        ExprKind::Local(_) => super::expr::as_is(cx, a) && !cx.locals,
        _ => false,
    }
}

/// Word `x`'s closure, answering `NONE` where `x` may be `none` (`may_be_none`) and is: where its
/// word closure cannot answer, its value closure says whether it is `none`.
pub(super) fn or_none(cx: &mut Cx, x: &Expr) -> C<Int> {
    if let ExprKind::Local(s) = x.kind {
        if super::expr::as_is(cx, x) {
            let i = cx.slot(s)?;
            cx.read(i);
            return Ok(Box::new(move |env| Some(env.slots[i])));
        }
    }
    let f = compile(cx, x)?;
    if !may_be_none(cx, x) {
        return Ok(f);
    }
    let Ok(g) = super::value::compile_value(cx, x) else {
        return Ok(f);
    };
    Ok(Box::new(move |env| match f(env) {
        Some(w) => Some(w),
        None => matches!(g(env)?, crate::value::Value::None).then_some(NONE),
    }))
}

/// A call's arguments written in its frame's slots from `base`.
#[inline(always)]
pub(super) fn enter(env: &mut Env, arg_fns: &[Int], base: usize) -> Option<()> {
    let mut vals = [0i64; 8];
    for (v, a) in vals.iter_mut().zip(arg_fns) {
        *v = a(env)?;
    }
    env.slots[base..base + arg_fns.len()].copy_from_slice(&vals[..arg_fns.len()]);
    Some(())
}
