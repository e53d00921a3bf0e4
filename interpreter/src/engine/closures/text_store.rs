//! Engine stage (closures): texts given to functions' parameters and to `let`s, kept in `Made::texts`.
//!
//! A slot holds only words. A function's parameter of type text (`join_terms(a: text, b: text)`)
//! or an expression's `let` given a text (the checker's, of a call it inlined) is
//! `Given::Text`: the text is made by its value closure and kept in `Made::texts` (the outermost
//! such call or `let` makes the store where nobody gave one) while the call
//! or the `let`'s body runs, the slot holding its place there, read by a value closure; the call
//! or the `let` gives the places back when it ends. Texts compared (`t == ""`) are compared by
//! value, as the walker compares them.

use super::env::Env;
use super::expr::{Cx, Int, C};
use super::functions::enter;
use super::items::Given;
use super::value::{compile_value, Val};
use crate::program::{Expr, ExprKind, TextIr, TextPartIr, Ty};
use crate::value::Value;
use std::sync::Arc;

/// A closure giving `T`, a word's or a value's.
type Of<T> = Box<dyn Fn(&mut Env) -> Option<T> + Send + Sync>;

/// Whether `x` is a text the closures know of: written out, a local given or typed a text, a
/// function's, `if` of two texts, a `let` (the checker's, of a call) whose body is one.
pub(super) fn is_text(cx: &Cx, x: &Expr) -> bool {
    texts_in(cx, x, &mut Vec::new())
}

/// `is_text`, where the locals `lets` are the `let`s around `x` given texts.
fn texts_in(cx: &Cx, x: &Expr, lets: &mut Vec<u16>) -> bool {
    match &x.kind {
        ExprKind::Text(_) | ExprKind::Const(Value::Text(_)) => true,
        ExprKind::Local(s) => {
            lets.contains(s)
                || matches!(cx.given(*s), Some(Given::Text))
                || cx.type_of_local(*s) == Some(&Ty::Text)
        }
        ExprKind::CallFn(f, _) => (cx.p.fns.get(f.index())).is_some_and(|d| d.ret == Ty::Text),
        ExprKind::If(_, a, b) => texts_in(cx, a, lets) && texts_in(cx, b, lets),
        ExprKind::Let(s, v, body) => {
            let text = texts_in(cx, v, lets);
            let outer = lets.clone();
            // A local of another value hides a text of the same slot.
            lets.retain(|l| l != s);
            if text {
                lets.push(*s);
            }
            let answer = texts_in(cx, body, lets);
            *lets = outer;
            answer
        }
        // Anything else is not known to be a text: its closures are compiled as they are.
        _ => false,
    }
}

/// Text `x` made and kept in `Made::texts`: the closure gives its place there.
pub(super) fn place(cx: &mut Cx, x: &Expr) -> C<Int> {
    let g = compile_value(cx, x)?;
    Ok(Box::new(move |env| {
        let Value::Text(t) = g(env)? else {
            return None;
        };
        let texts = &mut env.made.as_deref_mut()?.texts;
        texts.push(t);
        Some(texts.len() as i64 - 1)
    }))
}

/// Local `s` given a text, read from its place in `Made::texts`.
pub(super) fn read(cx: &mut Cx, s: u16) -> C<Val> {
    let i = cx.slot(s)?;
    Ok(Box::new(move |env| {
        let t = (env.made.as_deref()?.texts).get(usize::try_from(env.slots[i]).ok()?)?;
        Some(Value::Text(t.clone()))
    }))
}

/// A text of no part to evaluate: its words.
pub(super) fn constant(t: &TextIr) -> Option<Val> {
    if t.exprs().next().is_some() {
        return None;
    }
    let words: String = (t.parts.iter())
        .map(|part| match part {
            TextPartIr::Lit(w) => w.as_str(),
            TextPartIr::Expr(_) => "",
        })
        .collect();
    let v = Value::Text(Arc::new(words));
    Some(Box::new(move |_| Some(v.clone())))
}

/// `a == b` (or `a != b`, `eq` false) of two texts.
pub(super) fn compared(cx: &mut Cx, eq: bool, a: &Expr, b: &Expr) -> C<Int> {
    let (af, bf) = (compile_value(cx, a)?, compile_value(cx, b)?);
    Ok(Box::new(move |env| {
        Some(((af(env)? == bf(env)?) == eq) as i64)
    }))
}

/// A function's call: its arguments entered in its frame from `base`, then its body; where it
/// keeps some in `Made` (`keeps`: texts, lists), their places given back when it ends.
pub(super) fn call<T: 'static>(arg_fns: Vec<Int>, base: usize, body: Of<T>, keeps: bool) -> Of<T> {
    if keeps {
        return Box::new(move |env| {
            keeping(env, |env| {
                enter(env, &arg_fns, base).and_then(|()| body(env))
            })
        });
    }
    Box::new(move |env| {
        enter(env, &arg_fns, base)?;
        body(env)
    })
}

/// `let` of slot `i` given `vf`'s word, then its body; given a text or a list it keeps (`keeps`),
/// its place given back when the body ends.
pub(super) fn let_in<T: 'static>(vf: Int, i: usize, bf: Of<T>, keeps: bool) -> Of<T> {
    if keeps {
        return Box::new(move |env| {
            keeping(env, |env| {
                env.slots[i] = vf(env)?;
                bf(env)
            })
        });
    }
    Box::new(move |env| {
        env.slots[i] = vf(env)?;
        bf(env)
    })
}

/// Runs `f` on `env` with a store of what the closures make (`stored`), and gives back the texts
/// and lists `f` kept there when it ends.
#[inline(always)]
pub(super) fn keeping<T>(env: &mut Env, f: impl FnOnce(&mut Env) -> Option<T>) -> Option<T> {
    stored(env, |env| {
        let (texts, lists) =
            (env.made.as_deref()).map_or((0, 0), |m| (m.texts.len(), m.lists.len()));
        let v = f(env);
        if let Some(made) = env.made.as_deref_mut() {
            made.texts.truncate(texts);
            made.lists.truncate(lists);
        }
        v
    })
}

/// Runs `f` on `env` with a store of what the closures make: `env`'s own, or one made here for
/// the time of `f` (only a call or a `let` that keeps a text needs one).
#[inline(always)]
fn stored<T>(env: &mut Env, f: impl FnOnce(&mut Env) -> Option<T>) -> Option<T> {
    if env.made.is_some() {
        return f(env);
    }
    let mut made = super::env::Made::default();
    let mut inner = Env::new(env.p, env.s, env.l, env.you, &mut *env.slots);
    inner.made = Some(&mut made);
    f(&mut inner)
}
