//! Engine stage (closures): a card's property as a word, a constant of its kind or computed.
//!
//! A property is, per kind of card, the kind's expression or the property's default. A constant
//! is read from a table by kind; a computed one (`def_bonus if this.mode == 2 then 3 else 0`) is
//! compiled as the walker evaluates it (`Mach::prop`): in a frame above the caller's, `this` the
//! card and `you` its owner (the active player where nobody owns it), the property's own locals
//! (the binders of its aggregates) below them. A kind whose expression does not compile, or whose
//! property is not a word, answers `None`: the walker reads it.

use super::env::{word, Env};
use super::expr::{compile, constant, kind_of, Cx, Int, C, DEPTH};
use crate::program::{Expr, ExprKind, Program};

/// A property of one kind: its constant word, its expression compiled, or the walker's.
enum Of {
    Word(i64),
    /// The expression, and the slots its card and the card's owner are written in.
    Computed(Int, (usize, usize)),
    Walker,
}

/// The number of local slots `e` uses: one past the highest it binds or reads.
fn slots_of(e: &Expr) -> usize {
    // Every kind named: a new kind that binds or reads a slot must say so here, or the card's and
    // its owner's slots, placed past these, would share one with it.
    let own = match &e.kind {
        ExprKind::Local(s) | ExprKind::Let(s, ..) | ExprKind::Aggregate { slot: s, .. } => {
            *s as usize + 1
        }
        ExprKind::Const(_)
        | ExprKind::Global(_)
        | ExprKind::PlayerVar(..)
        | ExprKind::CardVar(..)
        | ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::Prop(..)
        | ExprKind::TagOf(..)
        | ExprKind::Field(..)
        | ExprKind::Zone(..)
        | ExprKind::Spaces
        | ExprKind::You
        | ExprKind::This
        | ExprKind::Active
        | ExprKind::Players
        | ExprKind::Everyone
        | ExprKind::TurnNumber
        | ExprKind::Participant(_)
        | ExprKind::Unary(..)
        | ExprKind::Binary(..)
        | ExprKind::IsTag(..)
        | ExprKind::IsKind(..)
        | ExprKind::If(..)
        | ExprKind::List(_)
        | ExprKind::Range(..)
        | ExprKind::Pile { .. }
        | ExprKind::Builtin(..)
        | ExprKind::CallFn(..)
        | ExprKind::Text(_) => 0,
    };
    let mut most = own;
    e.children(&mut |x| most = most.max(slots_of(x)));
    most
}

/// A property's expression compiled in a frame above `cx`'s, with the slots of its card and of
/// the card's owner; or why not.
fn computed(cx: &Cx, e: &Expr) -> C<(Int, (usize, usize))> {
    if cx.depth >= DEPTH {
        return Err("properties computed too deep (a recursive property)");
    }
    let locals = slots_of(e);
    let base = cx.base + cx.types.len();
    let mut inner = Cx::new(cx.p, locals + 2);
    inner.base = base;
    inner.depth = cx.depth + 1;
    inner.fns = cx.fns.clone();
    inner.bank = cx.bank;
    let card = (inner.slot(locals as u16)?, inner.slot(locals as u16 + 1)?);
    inner.card = Some(card);
    inner.set_type(locals as u16, crate::program::Ty::Card);
    inner.set_type(locals as u16 + 1, crate::program::Ty::Player);
    Ok((compile(&mut inner, e)?, card))
}

/// What property `pid` of cards of kind `k` is.
fn of(cx: &Cx, p: &Program, pid: usize, k: usize) -> Of {
    if let Some(v) = constant(p, pid, k) {
        return word(v).map_or(Of::Walker, Of::Word);
    }
    let is_word = p
        .props
        .get(pid)
        .is_some_and(|d| super::expr::is_word(&d.ty.ty()));
    let e = match p.kinds.get(k).and_then(|kind| kind.props.get(pid)) {
        Some(Some(e)) => e,
        _ => match p.props.get(pid) {
            Some(d) => &d.default,
            None => return Of::Walker,
        },
    };
    match computed(cx, e) {
        Ok((f, card)) if is_word => Of::Computed(f, card),
        _ => Of::Walker,
    }
}

/// A closure reading a property of the card given it (a word), or answering `None` (the walker's).
pub(super) type OfCard = Box<dyn Fn(&mut Env, i64) -> Option<i64> + Send + Sync>;

/// `ce.pid` of a card `ce` (known to be a card): per kind its constant word, else its expression
/// run with the card and its owner in the frame's slots. Where `ce` is a local or a variable that
/// holds `none`, the walker's error (nones.rs).
pub(super) fn prop(cx: &mut Cx, pid: usize, ce: &Expr) -> C<Int> {
    let p = cx.p;
    let kinds: Vec<Of> = (0..p.kinds.len()).map(|k| of(cx, p, pid, k)).collect();
    let cf = compile(cx, ce)?;
    let none = (super::nones::holds_none(cx, ce), ce.span);
    if !kinds.iter().any(|k| matches!(k, Of::Computed(..))) {
        let table: Box<[Option<i64>]> = (kinds.iter())
            .map(|k| match k {
                Of::Word(w) => Some(*w),
                Of::Computed(..) | Of::Walker => None,
            })
            .collect();
        return Ok(Box::new(move |env| {
            let Some(c) = cf(env) else {
                return super::nones::no_card(env, &none);
            };
            *table.get(kind_of(env, c)?)?
        }));
    }
    let read = by_kind(kinds.into_boxed_slice());
    Ok(Box::new(move |env: &mut Env| {
        let Some(c) = cf(env) else {
            return super::nones::no_card(env, &none);
        };
        read(env, c)
    }))
}

/// Property `pid` of the card given it, where it is computed for some kind (`None` where it is a
/// constant of every kind's: a table by kind reads those).
pub(super) fn computed_of_card(cx: &Cx, pid: usize) -> Option<OfCard> {
    let p = cx.p;
    let kinds: Vec<Of> = (0..p.kinds.len()).map(|k| of(cx, p, pid, k)).collect();
    (kinds.iter().any(|k| matches!(k, Of::Computed(..)))).then(|| by_kind(kinds.into_boxed_slice()))
}

/// Per kind of the card given it, its constant word, its expression computed, or the walker's.
fn by_kind(kinds: Box<[Of]>) -> OfCard {
    Box::new(
        move |env: &mut Env, c: i64| match kinds.get(kind_of(env, c)?)? {
            Of::Word(w) => Some(*w),
            Of::Walker => None,
            Of::Computed(f, (this, you)) => {
                let owner = env.s.card_owner(u32::try_from(c).ok()?);
                *env.slots.get_mut(*this)? = c;
                *env.slots.get_mut(*you)? = i64::from(owner.unwrap_or(env.s.active));
                f(env)
            }
        },
    )
}
