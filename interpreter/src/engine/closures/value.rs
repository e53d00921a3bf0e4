//! Engine stage (closures): compiles an expression into a closure giving its value, of any type.
//!
//! Beside the word closures (expr.rs), a value closure gives what is not a machine word: lists
//! (of cards, players, kinds, lists, ...), `none`, a list a function gives, a filter, a sort or a
//! map made. A part that is a word is the word closure's, its word made a value by its type. Like
//! a word closure, a value closure reads the state and changes nothing; it answers `None` where
//! the walker would fail or meets what it does not handle (the caller then evaluates the
//! expression by the walker), and a form it does not compile is `Err(why)`. Its work is not
//! counted (docs/engine.md, "Where work is charged").

use super::each::{item, item_type};
use super::env::{Env, NONE};
use super::expr::{compile, is_word, let_in, Cx, Int, C};
use super::items::items;
use super::stmts::{type_of, value as of_word, Regs};
use crate::engine::builtins::{cmp_values, distinct, kinds_in, Gathered};
use crate::engine::eval::{MAX_LIST, MAX_RANGE};
use crate::engine::exec::Mach;
use crate::program::{Aggregate, BinOp, Builtin, Expr, ExprKind, Ty, UnOp};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::sync::Arc;

/// A compiled expression's value (`None`: the walker answers instead).
pub(crate) type Val = Box<dyn Fn(&mut Env) -> Option<Value> + Send + Sync>;

/// A compiled list: its items (a zone's cards top first, `none` no items).
pub(crate) type Items = Box<dyn Fn(&mut Env) -> Option<Arc<Vec<Value>>> + Send + Sync>;

/// The walker's local `s` of the frame's context (a local never given is `none`).
fn context_local(env: &Env, s: u16) -> Value {
    (env.s.ctxs.last())
        .and_then(|c| c.locals.get(s as usize))
        .cloned()
        .unwrap_or_default()
}

/// A value as a list, as the walker reads one: a zone's cards top first, `none` no items.
fn as_list(env: &Env, v: Value) -> Option<Arc<Vec<Value>>> {
    match v {
        Value::List(l) => Some(l),
        Value::Zone(z) => {
            let cards = &env.s.zones.get(z as usize)?.cards;
            Some(Arc::new(
                cards.iter().rev().map(|&c| Value::Card(c)).collect(),
            ))
        }
        Value::None => Some(Arc::new(Vec::new())),
        _ => None,
    }
}

/// `e` as a word closure when it is a word of a known type, its word made a value.
fn word(cx: &mut Cx, e: &Expr) -> Option<Val> {
    let t = type_of(cx, e).filter(is_word)?;
    let f = compile(cx, e).ok()?;
    Some(Box::new(move |env| Some(of_word(&t, f(env)?))))
}

/// Whether `e` is read below as a value even where it is a word: what may be `none` (a word
/// closure answers `None` for it, which would leave the whole expression to the walker), and an
/// `if` of which a branch may be.
fn read_as_value(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::Const(_)
        | ExprKind::Prop(..)
        | ExprKind::TagOf(..)
        | ExprKind::Field(crate::ops::Field::Owner, _)
        | ExprKind::Pile { count: None, .. }
        | ExprKind::Builtin(Builtin::First | Builtin::Last | Builtin::At | Builtin::Seat, _) => {
            true
        }
        ExprKind::If(_, a, b) => read_as_value(a) || read_as_value(b),
        _ => false,
    }
}

/// Compiles `e` into a closure giving its value.
pub(crate) fn compile_value(cx: &mut Cx, e: &Expr) -> C<Val> {
    if !read_as_value(e) {
        if let Some(f) = word(cx, e) {
            return Ok(f);
        }
    }
    Ok(match &e.kind {
        ExprKind::Const(v) => {
            let v = v.clone();
            Box::new(move |_| Some(v.clone()))
        }
        ExprKind::Local(s) => local(cx, *s)?,
        ExprKind::Global(v) => {
            let v = *v;
            Box::new(move |env| Some(env.s.globals.get(env.l.var(v)).cloned().unwrap_or_default()))
        }
        ExprKind::PlayerVar(v, pe) => {
            let (v, pf) = (*v, player(cx, pe)?);
            Box::new(move |env| {
                let i = pf(env)? * env.l.n_pvars + env.l.var(v);
                Some(env.s.pvars.get(i).cloned().unwrap_or_default())
            })
        }
        ExprKind::CardVar(v, ce) => {
            let (v, cf) = (*v, card(cx, ce)?);
            Box::new(move |env| {
                let i = cf(env)? * env.l.n_cvars + env.l.var(v);
                Some(env.s.cvars.get(env.l, i).cloned().unwrap_or_default())
            })
        }
        ExprKind::Option(o) => {
            let o = o.index();
            Box::new(move |env| Some(env.l.options.get(o).cloned().unwrap_or_default()))
        }
        ExprKind::Column(c) => {
            let c = c.index();
            Box::new(move |env| Some(env.l.columns.get(c).cloned().unwrap_or_default()))
        }
        // `this` is the walker's context's, where it holds the frame's.
        ExprKind::This if cx.locals => Box::new(|env| {
            let this = env.s.ctxs.last().and_then(|c| c.this);
            Some(this.map(Value::Card).unwrap_or_default())
        }),
        ExprKind::This => return Err("`this` outside a body's frame"),
        // A property that is a constant of the card's kind; a computed one is the walker's.
        ExprKind::Prop(pid, ce) => {
            let (pid, cf) = (pid.index(), card(cx, ce)?);
            Box::new(move |env| {
                let kind = env.s.cards.get(cf(env)?)?.kind as usize;
                if pid >= env.l.nprops {
                    return None;
                }
                env.l.prop_const.get(kind * env.l.nprops + pid)?.clone()
            })
        }
        ExprKind::TagOf(g, ce) => {
            let (g, p) = (*g, cx.p);
            let table: Box<[Value]> = (p.kinds.iter())
                .map(|k| {
                    let group = |t: &&crate::program::TagId| {
                        p.tags.get(t.index()).map(|d| d.group) == Some(g)
                    };
                    k.tags.iter().find(group).map(|t| Value::Tag(t.0))
                })
                .map(Option::unwrap_or_default)
                .collect();
            let cf = card(cx, ce)?;
            Box::new(move |env| {
                let kind = env.s.cards.get(cf(env)?)?.kind as usize;
                table.get(kind).cloned()
            })
        }
        ExprKind::Field(crate::ops::Field::Owner, ce) => {
            let cf = card(cx, ce)?;
            Box::new(move |env| {
                let c = u32::try_from(cf(env)?).ok()?;
                Some(env.s.card_owner(c).map(Value::Player).unwrap_or_default())
            })
        }
        ExprKind::IsKind(x, k, negated) => {
            let (k, negated, xf) = (k.0, *negated, compile_value(cx, x)?);
            Box::new(move |env| {
                let is = match xf(env)? {
                    Value::Card(c) => env.s.cards.get(c as usize).is_some_and(|cs| cs.kind == k),
                    Value::Kind(x) => x == k,
                    _ => return Some(Value::Bool(false)),
                };
                Some(Value::Bool(is != negated))
            })
        }
        ExprKind::IsTag(x, t, negated) => {
            let (t, negated, xf) = (*t, *negated, compile_value(cx, x)?);
            let tagged: Box<[bool]> = (cx.p.kinds.iter())
                .map(|k| k.tags.binary_search(&t).is_ok())
                .collect();
            Box::new(move |env| {
                let has = match xf(env)? {
                    Value::Card(c) => {
                        let kind = env.s.cards.get(c as usize).map(|cs| cs.kind as usize);
                        kind.is_some_and(|k| tagged.get(k) == Some(&true))
                    }
                    Value::Kind(k) => tagged.get(k as usize) == Some(&true),
                    Value::Tag(x) => x == t.0,
                    _ => return Some(Value::Bool(false)),
                };
                Some(Value::Bool(has != negated))
            })
        }
        ExprKind::Binary(op, a, b) => binary(cx, *op, a, b, e.span)?,
        ExprKind::If(c, a, b) => {
            let (cf, af, bf) = (
                compile(cx, c)?,
                compile_value(cx, a)?,
                compile_value(cx, b)?,
            );
            Box::new(move |env| if cf(env)? != 0 { af(env) } else { bf(env) })
        }
        ExprKind::Let(slot, v, body) => {
            let (vf, i, bf, keeps) = let_in(cx, *slot, v, body, compile_value)?;
            super::text_store::let_in(vf, i, bf, keeps)
        }
        ExprKind::Aggregate {
            op,
            value,
            slot,
            list,
            filter,
        } => {
            let (value, filter) = (value.as_deref(), filter.as_deref());
            aggregate(cx, *op, value, *slot, list, filter, e.span)?
        }
        ExprKind::CallFn(f, args) => super::functions::call(cx, f.index(), args, compile_value)?,
        ExprKind::List(items) => {
            let fs = (items.iter())
                .map(|x| compile_value(cx, x))
                .collect::<C<Vec<Val>>>()?;
            Box::new(move |env| {
                let mut out = Vec::with_capacity(fs.len());
                for f in &fs {
                    out.push(f(env)?);
                }
                Some(Value::list(out))
            })
        }
        ExprKind::Range(a, b) => {
            let (af, bf) = (compile(cx, a)?, compile(cx, b)?);
            Box::new(move |env| {
                let (a, b) = (af(env)?, bf(env)?);
                if b.checked_sub(a)? > MAX_RANGE {
                    return None;
                }
                Some(Value::list((a..=b).map(Value::Int).collect()))
            })
        }
        ExprKind::Spaces | ExprKind::Everyone => {
            let f = list(cx, e)?;
            Box::new(move |env| f(env).map(Value::List))
        }
        ExprKind::Builtin(b, args) => builtin(cx, *b, args)?,
        // Words whose closure did not compile (`word` above).
        ExprKind::You
        | ExprKind::Active
        | ExprKind::Players
        | ExprKind::TurnNumber
        | ExprKind::Participant(_)
        | ExprKind::Unary(UnOp::Neg | UnOp::Not, _)
        | ExprKind::Zone(..)
        | ExprKind::Field(..) => return Err("a word whose closure did not compile"),
        ExprKind::Text(t) if t.exprs().next().is_none() => {
            super::text_store::constant(t).ok_or("a text")?
        }
        ExprKind::Text(t) => {
            let t = super::texts::compile(cx, t)?;
            Box::new(move |env| {
                let mut out = String::new();
                t.write(env, None, &mut out)?;
                Some(Value::Text(out.into()))
            })
        }
        ExprKind::Pile {
            position,
            count,
            zone,
        } => super::piles::pile(cx, *position, count.as_deref(), zone, false)?,
    })
}

/// Local `s`: a word from its slot, or (a word not given, a value that is not a word) the
/// walker's, from its context.
fn local(cx: &mut Cx, s: u16) -> C<Val> {
    // A slot that stands for what a `let` or a parameter was given holds no value of its own.
    match cx.given(s) {
        Some(super::items::Given::Text) => return super::text_store::read(cx, s),
        Some(super::items::Given::Bound(item)) => {
            let item = item.clone();
            return super::list_store::read(cx, s, item);
        }
        Some(super::items::Given::Nothing | super::items::Given::KindList(_)) => {
            return Err("a local that stands for what it was given")
        }
        None => {}
    }
    let from_context = cx.locals;
    match cx.type_of_local(s).cloned() {
        Some(t) if is_word(&t) => {
            let i = cx.slot(s)?;
            cx.read(i);
            Ok(Box::new(move |env| match env.slots[i] {
                NONE if from_context => Some(context_local(env, s)),
                NONE => None,
                w => Some(of_word(&t, w)),
            }))
        }
        _ if from_context => Ok(Box::new(move |env| Some(context_local(env, s)))),
        _ => Err("a local that is not a word, in a function's frame"),
    }
}

/// A word naming a player, a card or a space, as an index the game has.
type Index = Box<dyn Fn(&mut Env) -> Option<usize> + Send + Sync>;

/// `e` known to be a word of type `want`, as an index below `bound` of the game.
fn index(cx: &mut Cx, e: &Expr, want: Ty, bound: fn(&Env) -> usize) -> C<Index> {
    if type_of(cx, e) != Some(want) {
        return Err("an expression not known to be a player, a card or a space");
    }
    let f = compile(cx, e)?;
    Ok(Box::new(move |env| {
        let i = usize::try_from(f(env)?).ok()?;
        (i < bound(env)).then_some(i)
    }))
}

/// A player (a seat or a participant).
fn player(cx: &mut Cx, e: &Expr) -> C<Index> {
    index(cx, e, Ty::Player, |env| {
        env.s.players as usize + env.s.participants as usize
    })
}

/// A card that exists.
fn card(cx: &mut Cx, e: &Expr) -> C<Index> {
    index(cx, e, Ty::Card, |env| env.s.cards.len())
}

/// A space of the board.
fn space(cx: &mut Cx, e: &Expr) -> C<Index> {
    index(cx, e, Ty::Space, |env| env.l.spaces.len())
}

/// Compiles list `e`: the items the closures walk (items.rs) made a list, or its value read as a
/// list.
pub(crate) fn list(cx: &mut Cx, e: &Expr) -> C<Items> {
    // A list a variable, a local or a property holds is its value as it is (no copy).
    let held = matches!(
        e.kind,
        ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Prop(..)
    );
    if let Some(Ok((walk, t))) = (!held).then(|| items(cx, e)) {
        return Ok(Box::new(move |env| {
            let mut out = Vec::new();
            walk.each(env, |_, w| {
                out.push(of_word(&t, w));
                Some(true)
            })?;
            Some(Arc::new(out))
        }));
    }
    let f = compile_value(cx, e)?;
    Ok(Box::new(move |env| {
        let v = f(env)?;
        as_list(env, v)
    }))
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=` of values that are not numbers, `in`, lists joined, and
/// arithmetic of numbers that are not words' (the rest are words: expr.rs).
fn binary(cx: &mut Cx, op: BinOp, a: &Expr, b: &Expr, span: Span) -> C<Val> {
    let (af, bf) = (compile_value(cx, a)?, compile_value(cx, b)?);
    Ok(match op {
        BinOp::Eq | BinOp::Ne => {
            let eq = op == BinOp::Eq;
            Box::new(move |env| Some(Value::Bool((af(env)? == bf(env)?) == eq)))
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Box::new(move |env| {
            let (x, y) = (af(env)?, bf(env)?);
            let o = match (&x, &y) {
                (Value::Int(i), Value::Int(j)) => i.cmp(j),
                (Value::List(_), Value::List(_)) => cmp_values(&x, &y),
                _ => return None,
            };
            Some(Value::Bool(match op {
                BinOp::Lt => o.is_lt(),
                BinOp::Le => o.is_le(),
                BinOp::Gt => o.is_gt(),
                _ => o.is_ge(),
            }))
        }),
        BinOp::In => Box::new(move |env| {
            let (x, y) = (af(env)?, bf(env)?);
            if let (Value::Card(c), Value::Zone(z)) = (&x, &y) {
                let cs = env.s.cards.get(*c as usize);
                return Some(Value::Bool(cs.is_some_and(|cs| cs.zone == *z)));
            }
            Some(Value::Bool(as_list(env, y)?.contains(&x)))
        }),
        BinOp::Concat => Box::new(move |env| {
            let (x, y) = (af(env)?, bf(env)?);
            let (x, y) = (as_list(env, x)?, as_list(env, y)?);
            if x.len() + y.len() > MAX_LIST {
                return None;
            }
            let mut out = x;
            Arc::make_mut(&mut out).extend(y.iter().cloned());
            Some(Value::List(out))
        }),
        // Numbers of values that are not words' (an aggregate of a list made, not walked).
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => Box::new(move |env| {
            let (Value::Int(i), Value::Int(j)) = (af(env)?, bf(env)?) else {
                return None;
            };
            super::expr::arithmetic_in(env, op, i, j, span).map(Value::Int)
        }),
        BinOp::And | BinOp::Or => return Err("a connective whose closure did not compile"),
    })
}

/// An aggregate over any list whose items are words of a known type: each item written in its
/// slot as a word, then the filter and the value read it, in the walker's order.
pub(super) fn aggregate(
    cx: &mut Cx,
    op: Aggregate,
    value: Option<&Expr>,
    slot: u16,
    list_e: &Expr,
    filter: Option<&Expr>,
    span: Span,
) -> C<Val> {
    let t = item_type(cx, list_e).ok_or("an aggregate over items that are not words")?;
    let src = list(cx, list_e)?;
    cx.set_type(slot, t.clone());
    let i = cx.slot(slot)?;
    let int = |cx: &mut Cx, x: Option<&Expr>| x.map(|x| compile(cx, x)).transpose();
    let (filter_f, value_int, value_v): (Option<Int>, Option<Int>, Option<Val>) = match op {
        Aggregate::Count | Aggregate::Filter | Aggregate::TakeWhile => {
            (int(cx, filter)?, None, None)
        }
        Aggregate::Sum | Aggregate::Max | Aggregate::Min => {
            (int(cx, filter)?, int(cx, value)?, None)
        }
        // `any` and `all` test their condition alone, as the walker does.
        Aggregate::Any | Aggregate::All => (None, int(cx, filter.or(value))?, None),
        Aggregate::Map | Aggregate::Flatten | Aggregate::Sort => {
            let v = value.map(|x| compile_value(cx, x)).transpose()?;
            (int(cx, filter)?, None, v)
        }
    };
    Ok(Box::new(move |env| {
        let items = src(env)?;
        let mut g = Gathered::new();
        for x in items.iter() {
            env.slots[i] = item(&t, x)?;
            if let Some(f) = &filter_f {
                if f(env)? == 0 {
                    if op == Aggregate::TakeWhile {
                        break;
                    }
                    continue;
                }
            }
            let mapped = |env: &mut Env| match &value_v {
                Some(f) => f(env),
                None => Some(x.clone()),
            };
            match op {
                Aggregate::Count => g.count += 1,
                Aggregate::Sum | Aggregate::Max | Aggregate::Min => {
                    let v = match &value_int {
                        Some(f) => f(env)?,
                        None => x.as_int()?,
                    };
                    match op {
                        Aggregate::Sum => match g.sum.checked_add(v) {
                            Some(s) => g.sum = s,
                            None => return env.fail(span, super::expr::OVERFLOW),
                        },
                        Aggregate::Max => g.best = Some(g.best.map_or(v, |b| b.max(v))),
                        _ => g.best = Some(g.best.map_or(v, |b| b.min(v))),
                    }
                }
                Aggregate::Any | Aggregate::All => {
                    let holds = match &value_int {
                        Some(f) => f(env)? != 0,
                        None => true,
                    };
                    g.any |= holds;
                    g.all &= holds;
                    if (op == Aggregate::Any && g.any) || (op == Aggregate::All && !g.all) {
                        break;
                    }
                }
                Aggregate::Filter | Aggregate::TakeWhile => g.kept.push(x.clone()),
                Aggregate::Map => g.kept.push(mapped(env)?),
                Aggregate::Flatten => {
                    let v = mapped(env)?;
                    let l = as_list(env, v)?;
                    if g.kept.len() + l.len() > MAX_LIST {
                        return None;
                    }
                    g.kept.extend(l.iter().cloned());
                }
                Aggregate::Sort => g.keyed.push((mapped(env)?, x.clone())),
            }
        }
        Some(g.value(op))
    }))
}

/// The builtins that give lists and other values (those of numbers are words: expr.rs).
fn builtin(cx: &mut Cx, b: Builtin, args: &[Expr]) -> C<Val> {
    let arg = |cx: &mut Cx, i: usize| -> C<Val> {
        compile_value(cx, args.get(i).ok_or("a builtin missing an argument")?)
    };
    let int = |cx: &mut Cx, i: usize| -> C<Int> {
        compile(cx, args.get(i).ok_or("a builtin missing an argument")?)
    };
    let list_arg = |cx: &mut Cx, i: usize| -> C<Items> {
        list(cx, args.get(i).ok_or("a builtin missing an argument")?)
    };
    Ok(match b {
        Builtin::Size => {
            let f = arg(cx, 0)?;
            Box::new(move |env| {
                let n = match f(env)? {
                    Value::Zone(z) => env.s.zones.get(z as usize)?.cards.len(),
                    v => as_list(env, v)?.len(),
                };
                Some(Value::Int(n as i64))
            })
        }
        Builtin::Take => {
            let (lf, nf) = (list_arg(cx, 0)?, int(cx, 1)?);
            Box::new(move |env| {
                let l = lf(env)?;
                let k = usize::try_from(nf(env)?.max(0)).ok()?;
                Some(Value::list(l.iter().take(k).cloned().collect()))
            })
        }
        Builtin::Index => {
            let (lf, nf) = (list_arg(cx, 0)?, int(cx, 1)?);
            Box::new(move |env| {
                let l = lf(env)?;
                Some(match usize::try_from(nf(env)?) {
                    Ok(i) if i >= 1 => l.get(i - 1).cloned().unwrap_or_default(),
                    _ => Value::None,
                })
            })
        }
        Builtin::Flatten => {
            let lf = list_arg(cx, 0)?;
            Box::new(move |env| {
                let mut out = Vec::new();
                for v in lf(env)?.iter() {
                    let l = as_list(env, v.clone())?;
                    if out.len() + l.len() > MAX_LIST {
                        return None;
                    }
                    out.extend(l.iter().cloned());
                }
                Some(Value::list(out))
            })
        }
        // A zone's first (top) or last card, read in place.
        Builtin::First | Builtin::Last => {
            let (f, first) = (arg(cx, 0)?, b == Builtin::First);
            Box::new(move |env| {
                let c = match f(env)? {
                    Value::Zone(z) => {
                        let cards = &env.s.zones.get(z as usize)?.cards;
                        let c = if first { cards.last() } else { cards.first() };
                        return Some(c.map(|&c| Value::Card(c)).unwrap_or_default());
                    }
                    v => as_list(env, v)?,
                };
                let v = if first { c.first() } else { c.last() };
                Some(v.cloned().unwrap_or_default())
            })
        }
        Builtin::Cards => {
            let (kf, lf) = (arg(cx, 0)?, list_arg(cx, 1)?);
            Box::new(move |env| {
                let k = kf(env)?;
                let k = kind_arg(env, k)?;
                let l = lf(env)?;
                let of_kind = |v: &&Value| match v {
                    Value::Card(c) => env.s.cards.get(*c as usize).is_some_and(|cs| cs.kind == k),
                    _ => false,
                };
                Some(Value::list(l.iter().filter(of_kind).cloned().collect()))
            })
        }
        Builtin::Kinds => {
            let (lf, n) = (list_arg(cx, 0)?, cx.p.kinds.len());
            Box::new(move |env| Some(Value::list(kinds_in(&env.s.cards, n, &lf(env)?))))
        }
        Builtin::Distinct => {
            let lf = list_arg(cx, 0)?;
            Box::new(move |env| Some(Value::list(distinct(&lf(env)?))))
        }
        Builtin::Seat => {
            let f = int(cx, 0)?;
            Box::new(move |env| {
                let i = f(env)?;
                Some(if i >= 1 && i <= env.s.players as i64 {
                    Value::Player((i - 1) as u8)
                } else {
                    Value::None
                })
            })
        }
        Builtin::Left | Builtin::Right => {
            let (f, left) = (player(cx, &args[0])?, b == Builtin::Left);
            Box::new(move |env| Some(env.s.neighbour(f(env)? as u8, left)))
        }
        // The living seats from a seat (`from`), or after it (`opponents`); a participant's are
        // the living seats from seat 1 (`State::seat_list`).
        Builtin::Opponents | Builtin::From => {
            let (f, skip) = (player(cx, &args[0])?, (b == Builtin::Opponents) as u8);
            Box::new(move |env| {
                let (p, n) = (f(env)? as u8, env.s.players);
                let (start, skip) = if p < n { (p, skip) } else { (0, 0) };
                Some(Value::list(
                    (skip..n)
                        .map(|k| ((start as u32 + k as u32) % n as u32) as u8)
                        .filter(|&q| env.s.living(q))
                        .map(Value::Player)
                        .collect(),
                ))
            })
        }
        Builtin::Eliminated => {
            let f = player(cx, &args[0])?;
            Box::new(move |env| Some(Value::Bool(!env.s.living(f(env)? as u8))))
        }
        Builtin::At => {
            let (xf, yf) = (int(cx, 0)?, int(cx, 1)?);
            Box::new(move |env| {
                let at = env.l.space_at(xf(env)?, yf(env)?);
                Some(at.map(Value::Space).unwrap_or_default())
            })
        }
        Builtin::Neighbours => {
            let f = space(cx, &args[0])?;
            Box::new(move |env| env.l.neighbours.get(f(env)?).cloned())
        }
        Builtin::Adjacent => {
            let (af, bf) = (space(cx, &args[0])?, space(cx, &args[1])?);
            Box::new(move |env| {
                let (a, b) = (*env.l.spaces.get(af(env)?)?, *env.l.spaces.get(bf(env)?)?);
                let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                Some(Value::Bool(
                    dx + dy == 1 || (env.l.diagonal && dx == 1 && dy == 1),
                ))
            })
        }
        Builtin::Max2 | Builtin::Min2 | Builtin::Abs => {
            return Err("a number whose closure did not compile")
        }
        // Drawn from the statement's copy of the generator, where it keeps its draws (draws.rs).
        Builtin::Random => match args {
            [l] if cx.draws => super::draws::random_value(cx, l)?,
            _ => return Err("a draw at random"),
        },
    })
}

/// The card kind a value names (a kind, or a card's kind).
fn kind_arg(env: &Env, v: Value) -> Option<u16> {
    match v {
        Value::Kind(k) => Some(k),
        Value::Card(c) => env.s.cards.get(c as usize).map(|cs| cs.kind),
        _ => None,
    }
}

/// Runs value closure `f` over the game and a compiled body's slots.
#[inline]
pub(super) fn eval_value(m: &mut Mach, regs: &mut Regs, f: &Val) -> Option<Value> {
    let mut env = Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots);
    // The statement's copy of the generator, where it keeps its draws (draws.rs).
    env.draws = m.draws.as_deref_mut();
    let v = f(&mut env);
    // The first closure of the statement to give way, and why (`Mach::fault`).
    if v.is_none() {
        m.fault.get_or_insert(env.fault);
    }
    #[cfg(test)]
    {
        m.s.probe.counted.values += v.is_some() as u64;
    }
    v
}

/// Runs list closure `f` over the game and a compiled body's slots.
#[inline]
pub(super) fn eval_list(m: &mut Mach, regs: &mut Regs, f: &Items) -> Option<Arc<Vec<Value>>> {
    let mut env = Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots);
    let v = f(&mut env);
    // The first closure of the statement to give way, and why (`Mach::fault`).
    if v.is_none() {
        m.fault.get_or_insert(env.fault);
    }
    #[cfg(test)]
    {
        m.s.probe.counted.values += v.is_some() as u64;
    }
    v
}

/// A side of `and` or `or`, or what `not` negates: its word closure, or, a truth that is not a
/// word's (lists compared: `you.taken == []`), its value closure's truth. A connective itself is
/// its word closure alone (its sides fall back in their turn).
pub(super) fn truth(cx: &mut Cx, x: &Expr) -> C<Int> {
    let connective = matches!(
        x.kind,
        ExprKind::Binary(BinOp::And | BinOp::Or, ..) | ExprKind::Unary(UnOp::Not, _)
    );
    match super::expr::compile(cx, x) {
        Ok(f) => Ok(f),
        Err(why) if connective => Err(why),
        Err(_) => {
            let vf = compile_value(cx, x)?;
            Ok(Box::new(move |env| match vf(env)? {
                Value::Bool(b) => Some(i64::from(b)),
                _ => None,
            }))
        }
    }
}
