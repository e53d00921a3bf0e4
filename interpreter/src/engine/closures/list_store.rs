//! Engine stage (closures): lists given to functions' parameters, kept in `Made::lists`.
//!
//! A function's parameter of a list of words given a list the closures walk (items.rs) but do not
//! stand for (`cards_text(filter(c in p.owned where c.on_offer))`, `names_text(trade_names, q)`, as
//! Craft the Crown writes its offers), or a `let` given one (the checker's, of a call it inlined),
//! is `Given::Bound`, as a menu's parameter ranging over lists
//! is: the list is made by walking it, its items as words, and kept in `Made::lists` while the
//! call or the `let`'s body runs, the slot holding its place there (the outermost call or `let`
//! that keeps one makes the store where nobody gave one, text_store.rs). It is read as a list walked (`Items::Bound`), passed on
//! to another function's parameter as its place, or made a value by its item type (`read`). The
//! call or the `let` gives the places back when it ends, as it gives back its texts.

use super::env::Env;
use super::expr::{is_word, Cx, Int, C};
use super::items::{items, Items};
use super::stmts::{type_of, value as of_word};
use super::value::Val;
use crate::engine::eval::MAX_LIST;
use crate::program::{Expr, Ty};
use crate::value::Value;

/// List `a` made and kept in `Made::lists`: the closure giving its place there, and the type of
/// its items. A word (a zone among them, whose value the walker reads as its cards only where a
/// list is walked) is not made here.
pub(super) fn place(cx: &mut Cx, a: &Expr) -> C<(Int, Ty)> {
    if type_of(cx, a).is_some_and(|t| is_word(&t)) {
        return Err("a word given to a list");
    }
    let (list, ty) = items(cx, a)?;
    let place: Int = Box::new(move |env| {
        let words = made(&list, env)?;
        let lists = &mut env.made.as_deref_mut()?.lists;
        lists.push(words.into());
        Some(lists.len() as i64 - 1)
    });
    Ok((place, ty))
}

/// The items of `list` as words, `None` where the walker would fail (more than `MAX_LIST`).
fn made(list: &Items, env: &mut Env) -> Option<Vec<i64>> {
    let mut words = Vec::new();
    list.each(env, |_, w| {
        words.push(w);
        Some(words.len() <= MAX_LIST)
    })?;
    (words.len() <= MAX_LIST).then_some(words)
}

/// Local `s` given a list of words of type `item` kept in `Made::lists`, read as a list value.
pub(super) fn read(cx: &mut Cx, s: u16, item: Ty) -> C<Val> {
    let i = cx.slot(s)?;
    Ok(Box::new(move |env| {
        let j = usize::try_from(env.slots[i]).ok()?;
        let list = env.made.as_deref()?.lists.get(j)?;
        Some(Value::list(
            list.iter().map(|&w| of_word(&item, w)).collect(),
        ))
    }))
}
