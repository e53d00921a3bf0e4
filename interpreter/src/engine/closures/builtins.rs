//! Engine stage (closures): the builtins compiled as words (numbers, seats, spaces, top cards).
//!
//! The builtins that give a list are walked by items.rs; the rest here, or the walker's.

use super::expr::{compile, player, zone, Cx, Int, C};
use crate::program::{Aggregate, Builtin, Expr, ExprKind, Ty};
use crate::value::Value;

/// The builtins of numbers, and `count` of a list (a zone, `everyone`, any list of items.rs).
pub(super) fn builtin(cx: &mut Cx, b: Builtin, args: &[Expr]) -> C<Int> {
    Ok(match (b, args) {
        // Inside an expression of a statement that keeps its draws (draws.rs).
        (Builtin::Random, [l]) if cx.draws => super::draws::random(cx, l)?,
        (Builtin::Size, [x]) => match &x.kind {
            ExprKind::Zone(z, holder) => {
                let zf = zone(cx, z.index(), holder.as_deref(), x.span)?;
                Box::new(move |env| {
                    let z = usize::try_from(zf(env)?).ok()?;
                    Some(env.s.zones.get(z)?.cards.len() as i64)
                })
            }
            ExprKind::Everyone => {
                Box::new(|env| Some((0..env.s.players).filter(|&q| env.s.living(q)).count() as i64))
            }
            _ if super::stmts::type_of(cx, x) == Some(Ty::Zone) => {
                let zf = compile(cx, x)?;
                Box::new(move |env| {
                    let z = usize::try_from(zf(env)?).ok()?;
                    Some(env.s.zones.get(z)?.cards.len() as i64)
                })
            }
            // Any other list the closures walk (items.rs), its items counted; else a list made
            // by its value closure (`opponents(p)`, a `filter` of one), its length.
            _ => match super::items::items(cx, x) {
                Ok((items, _)) => Box::new(move |env| {
                    let mut n = 0i64;
                    items.each(env, |_, _| {
                        n += 1;
                        Some(true)
                    })?;
                    Some(n)
                }),
                Err(_) => {
                    let lf = super::value::list(cx, x)?;
                    Box::new(move |env| i64::try_from(lf(env)?.len()).ok())
                }
            },
        },
        // `left(p)`, `right(p)`: the next living seat either way (none, the walker's: a participant).
        (Builtin::Left | Builtin::Right, [x]) if player(cx, x) => {
            let (pf, left) = (compile(cx, x)?, b == Builtin::Left);
            Box::new(
                move |env| match env.s.neighbour(u8::try_from(pf(env)?).ok()?, left) {
                    Value::Player(q) => Some(q as i64),
                    _ => None,
                },
            )
        }
        (Builtin::Max2 | Builtin::Min2, [a, b2]) => {
            let (af, bf) = (compile(cx, a)?, compile(cx, b2)?);
            if b == Builtin::Max2 {
                Box::new(move |env| Some(af(env)?.max(bf(env)?)))
            } else {
                Box::new(move |env| Some(af(env)?.min(bf(env)?)))
            }
        }
        // `first(opponents(p))`: the next living seat after a seat, in seat order (`seat_list`).
        (Builtin::First, [x]) if matches!(&x.kind, ExprKind::Builtin(Builtin::Opponents, q) if q.len() == 1) =>
        {
            let ExprKind::Builtin(_, q) = &x.kind else {
                return Err("`first` of what is not `opponents`");
            };
            if !player(cx, &q[0]) {
                return Err("`opponents` of an expression not known to be a player");
            }
            let qf = compile(cx, &q[0])?;
            Box::new(move |env| {
                let (p, n) = (qf(env)?, env.s.players as i64);
                if !(0..n).contains(&p) {
                    return None;
                }
                (1..n)
                    .map(|k| ((p + k) % n) as u8)
                    .find(|&q| env.s.living(q))
                    .map(i64::from)
            })
        }
        // The top card of a zone; the first item of a filter. Of none: `none`, the walker's.
        (Builtin::First, [x]) => match &x.kind {
            ExprKind::Aggregate {
                op: Aggregate::Filter,
                value: None,
                slot,
                list,
                filter,
            } => {
                let (items, ty) = super::items::items(cx, list)?;
                cx.set_type(*slot, ty);
                let i = cx.slot(*slot)?;
                let filter = filter.as_deref().map(|f| compile(cx, f)).transpose()?;
                Box::new(move |env| {
                    let mut first = None;
                    items.each(env, |env, x| {
                        env.slots[i] = x;
                        if let Some(f) = &filter {
                            if f(env)? == 0 {
                                return Some(true);
                            }
                        }
                        // Every item is tested, as the walker builds the whole list first.
                        first = first.or(Some(x));
                        Some(true)
                    })?;
                    first
                })
            }
            _ if super::stmts::type_of(cx, x) == Some(Ty::Zone) => {
                let zf = compile(cx, x)?;
                Box::new(move |env| {
                    let z = usize::try_from(zf(env)?).ok()?;
                    env.s.zones.get(z)?.cards.last().map(|&c| c as i64)
                })
            }
            // The first item of any other list walked where it lies (`cards(k, p.owned)`): every
            // item is read, as the walker makes the whole list first.
            _ => {
                let (items, _) = super::items::items(cx, x)?;
                Box::new(move |env| {
                    let mut first = None;
                    items.each(env, |_, x| {
                        first = first.or(Some(x));
                        Some(true)
                    })?;
                    first
                })
            }
        },
        (Builtin::Abs, [a]) => {
            let af = compile(cx, a)?;
            Box::new(move |env| af(env)?.checked_abs())
        }
        // The `i`-th card of a zone (from 1, top first); of no card, `none`: the walker's.
        (Builtin::Index, [l, i]) if super::stmts::type_of(cx, l) == Some(Ty::Zone) => {
            let (zf, kf) = (compile(cx, l)?, compile(cx, i)?);
            Box::new(move |env| {
                let cards = &env.s.zones.get(usize::try_from(zf(env)?).ok()?)?.cards;
                let k = usize::try_from(kf(env)?).ok().filter(|&k| k >= 1)?;
                Some(*cards.get(cards.len().checked_sub(k)?)? as i64)
            })
        }
        // The `i`-th item (from 1) of any other list of words walked where it lies (`cities[1]`
        // of a local list of cards); of no item, `none`: the walker's. Every item is read, as the
        // walker makes the whole list first.
        (Builtin::Index, [l, i]) => {
            let (items, ty) = super::items::items(cx, l)?;
            if !super::expr::is_word(&ty) {
                return Err("an item of a list of what are not words");
            }
            let kf = compile(cx, i)?;
            Box::new(move |env| {
                let k = kf(env)?;
                let (mut n, mut found) = (0i64, None);
                items.each(env, |_, x| {
                    n += 1;
                    if n == k {
                        found = Some(x);
                    }
                    Some(true)
                })?;
                found
            })
        }
        // The player in seat `i` (from 1); of no seat, `none`: the walker's.
        (Builtin::Seat, [i]) => {
            let f = compile(cx, i)?;
            Box::new(move |env| {
                let i = f(env)?;
                (1..=env.s.players as i64).contains(&i).then_some(i - 1)
            })
        }
        // The space at `(x, y)`; off the board, `none`: the walker's.
        (Builtin::At, [x, y]) => {
            let (xf, yf) = (compile(cx, x)?, compile(cx, y)?);
            Box::new(move |env| env.l.space_at(xf(env)?, yf(env)?).map(i64::from))
        }
        (
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
            | Builtin::Random
            | Builtin::Seat
            | Builtin::Left
            | Builtin::Right
            | Builtin::Opponents
            | Builtin::From
            | Builtin::Eliminated
            | Builtin::At
            | Builtin::Neighbours
            | Builtin::Adjacent,
            _,
        ) => return Err("a builtin other than count, max, min and abs"),
    })
}
