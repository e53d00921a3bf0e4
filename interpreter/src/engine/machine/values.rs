//! Engine stage (the machine): the instructions that work on whole values (operators of lists,
//! fields, piles, texts), written once for the machine with the walker's results and errors.

use super::super::code::TextCode;
use super::super::eval::{MAX_LIST, MAX_RANGE};
use super::super::exec::Mach;
use super::super::label::label_into;
use super::super::RuntimeError;
use crate::program::{BinOp, Field, GroupId};
use crate::value::Value;
use cardgame_grammar::ast::{Position, Span};
use std::sync::Arc;

type R<T> = Result<T, RuntimeError>;

/// An operator of two numbers that cannot fail (`None`: one that may, or that is not for numbers).
#[inline]
pub(super) fn ints(op: BinOp, i: i64, j: i64) -> Option<Value> {
    match op {
        BinOp::Eq => Some(Value::Bool(i == j)),
        BinOp::Ne => Some(Value::Bool(i != j)),
        BinOp::Lt => Some(Value::Bool(i < j)),
        BinOp::Le => Some(Value::Bool(i <= j)),
        BinOp::Gt => Some(Value::Bool(i > j)),
        BinOp::Ge => Some(Value::Bool(i >= j)),
        BinOp::Add => i.checked_add(j).map(Value::Int),
        BinOp::Sub => i.checked_sub(j).map(Value::Int),
        BinOp::Mul => i.checked_mul(j).map(Value::Int),
        BinOp::Div | BinOp::Rem => {
            let (q, r) = super::super::code::floor_div(i, j)?;
            Some(Value::Int(if op == BinOp::Div { q } else { r }))
        }
        BinOp::Concat | BinOp::And | BinOp::Or | BinOp::In => None,
    }
}

/// Any binary operator but `and` and `or`, as the walker applies it to the operands' values.
pub(super) fn binary(m: &mut Mach<'_>, op: BinOp, x: Value, y: Value, span: Span) -> R<Value> {
    if let (Value::List(l1), Value::List(l2)) = (&x, &y) {
        m.charge(l1.len().min(l2.len()), span)?;
    }
    match op {
        BinOp::Eq => return Ok(Value::Bool(x == y)),
        BinOp::Ne => return Ok(Value::Bool(x != y)),
        BinOp::In => {
            if let (Value::Card(c), Value::Zone(z)) = (&x, &y) {
                return Ok(Value::Bool(
                    m.s.cards.get(*c as usize).is_some_and(|cs| cs.zone == *z),
                ));
            }
            let l = m.as_list(y, span)?;
            m.charge(l.len(), span)?;
            return Ok(Value::Bool(l.contains(&x)));
        }
        BinOp::Concat => return m.concat(x, y, span, span, span),
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::Div
        | BinOp::Rem
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::And
        | BinOp::Or => {}
    }
    let (Value::Int(i), Value::Int(j)) = (&x, &y) else {
        if matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
            return Ok(Value::Bool(m.order(op, &x, &y, span)?));
        }
        return Err(m.err(
            span,
            format!(
                "cannot apply `{}` to {} and {}",
                op.symbol(),
                m.describe(&x),
                m.describe(&y)
            ),
        ));
    };
    match ints(op, *i, *j) {
        Some(v) => Ok(v),
        None if matches!(op, BinOp::Div | BinOp::Rem) && *j == 0 => {
            Err(m.err(span, "division by zero".into()))
        }
        None => Err(m.err(span, "arithmetic overflow".into())),
    }
}

/// `a..b`.
pub(super) fn range(m: &mut Mach<'_>, a: i64, b: i64, span: Span) -> R<Value> {
    if b < a {
        Ok(Value::list(Vec::new()))
    } else if b.saturating_sub(a) > MAX_RANGE {
        Err(m.err(span, format!("the range {a}..{b} is too long")))
    } else {
        m.charge((b - a) as usize + 1, span)?;
        Ok(Value::list((a..=b).map(Value::Int).collect()))
    }
}

/// The card's tag in group `group`, or none.
pub(super) fn tag_of(m: &Mach<'_>, v: &Value, group: u16, span: Span) -> R<Value> {
    let c = m.as_card(v, span)?;
    let kind = m.s.cards[c as usize].kind as usize;
    let tags =
        m.p.kinds
            .get(kind)
            .map(|k| k.tags.as_slice())
            .unwrap_or(&[]);
    Ok(tags
        .iter()
        .find(|t| m.p.tags.get(t.index()).map(|d| d.group) == Some(GroupId(group)))
        .map(|t| Value::Tag(t.0))
        .unwrap_or_default())
}

/// A built-in field of a card or a space.
pub(super) fn field(m: &Mach<'_>, f: Field, v: Value, span: Span) -> R<Value> {
    match f {
        Field::X | Field::Y => match v {
            Value::Space(s) if (s as usize) < m.l.spaces.len() => {
                let (sx, sy) = m.l.spaces[s as usize];
                Ok(Value::Int(if f == Field::X { sx } else { sy }))
            }
            v => Err(m.err(span, format!("expected a space, found {}", m.describe(&v)))),
        },
        Field::Kind | Field::Owner | Field::Zone | Field::FaceUp => {
            let c = m.as_card(&v, span)?;
            let cs = &m.s.cards[c as usize];
            Ok(match f {
                Field::Kind => Value::Kind(cs.kind),
                Field::Owner => m.s.card_owner(c).map(Value::Player).unwrap_or_default(),
                Field::Zone => Value::Zone(cs.zone),
                _ => Value::Bool(cs.face_up),
            })
        }
    }
}

/// `top of Z`, `bottom of Z`, `top N of Z`, refilling the pile if needed.
pub(super) fn pile(m: &mut Mach<'_>, z: Value, n: Option<i64>, top: bool, span: Span) -> R<Value> {
    let z = match z {
        Value::Zone(z) if (z as usize) < m.s.zones.len() => z,
        v => return Err(m.err(span, format!("expected a zone, found {}", m.describe(&v)))),
    };
    let position = if top { Position::Top } else { Position::Bottom };
    Ok(match n {
        None => {
            m.ensure(z, 1);
            let cards = &m.s.zones[z as usize].cards;
            let c = if top { cards.last() } else { cards.first() };
            match c {
                Some(&c) => Value::Card(c),
                None => {
                    m.s.short = true;
                    Value::None
                }
            }
        }
        Some(n) => {
            let n = n.max(0) as usize;
            let mut ids = std::mem::take(&mut m.s.recycled.get().ids);
            m.pile_ids(z, n, position, &mut ids);
            let list = Value::list(ids.iter().map(|&c| Value::Card(c)).collect());
            m.s.recycled.get().ids = ids;
            list
        }
    })
}

/// `flatten`: the items of `v` (a zone: its cards, top first) appended to the list in `acc`, with
/// the walker's work and limits.
pub(super) fn extend(m: &mut Mach<'_>, acc: &mut Value, v: Value, span: Span) -> R<()> {
    let Value::List(kept) = acc else {
        return Ok(());
    };
    if let Value::Zone(z) = v {
        let n = m.list_len(&v, span)?;
        if kept.len() + n > MAX_LIST {
            return Err(m.err(span, "this list grew too long".into()));
        }
        m.charge(n, span)?;
        if let Some(zi) = m.s.zones.get(z as usize) {
            Arc::make_mut(kept).extend(zi.cards.iter().rev().map(|&c| Value::Card(c)));
        }
        return Ok(());
    }
    let l = m.as_list(v, span)?;
    if kept.len() + l.len() > MAX_LIST {
        return Err(m.err(span, "this list grew too long".into()));
    }
    m.charge(l.len(), span)?;
    Arc::make_mut(kept).extend(l.iter().cloned());
    Ok(())
}

/// `sort`: the list of keys and items by pairs becomes the items in the order of their keys (a
/// stable sort: equal keys keep the list's order).
pub(super) fn sort_pairs(v: Value) -> Value {
    let Value::List(l) = v else {
        return v;
    };
    let mut pairs: Vec<(Value, Value)> = l
        .chunks(2)
        .map(|p| (p[0].clone(), p.get(1).cloned().unwrap_or_default()))
        .collect();
    pairs.sort_by(|a, b| super::super::builtins::cmp_values(&a.0, &b.0));
    Value::list(pairs.into_iter().map(|(_, v)| v).collect())
}

/// A text from its literal pieces and its values' labels.
pub(super) fn text(m: &mut Mach<'_>, t: &TextCode, vals: &[Value]) -> R<Value> {
    let mut out = String::new();
    for (i, lit) in t.lits.iter().enumerate() {
        out.push_str(lit);
        let (Some(v), Some(&span)) = (vals.get(i), t.spans.get(i)) else {
            continue;
        };
        if let Value::List(l) = v {
            m.charge(l.len(), span)?;
        }
        label_into(m.p, m.l, m.s, v, &mut out);
        if out.len() > MAX_LIST {
            return Err(m.err(span, "this text grew too long".into()));
        }
    }
    Ok(Value::Text(Arc::new(out)))
}
