//! Engine stage: aggregates (`count`, `sum`, `sort`, ...) and built-in functions.

use super::exec::Mach;
use super::state::{CardState, SeatList};
use super::RuntimeError;
use crate::program::{Aggregate, Builtin, Expr, ExprKind};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use rand::Rng;
use std::sync::Arc;

type R<T> = Result<T, RuntimeError>;

impl<'a> Mach<'a> {
    #[inline(never)]
    pub(super) fn aggregate(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
        span: Span,
    ) -> R<Value> {
        // A zone is read in place, top first (a refill beneath it during the loop does not disturb
        // the cards above); anything else becomes a list.
        let (items, zone) = match self.eval_at(super::sites::Site::Builtin, list)? {
            Value::Zone(z) if (z as usize) < self.s.zones.len() => {
                self.note_zone(z);
                (None, Some((z, self.s.zones[z as usize].cards.len())))
            }
            v => (Some(self.as_list(v, list.span)?), None),
        };
        let len = match (&items, zone) {
            (Some(l), _) => l.len(),
            (None, Some((_, n))) => n,
            _ => 0,
        };
        // Every item is work, even one the loop below reads without evaluating anything.
        self.charge(len, span)?;
        // `sum(c.prop for c in Z)` (and max, min) over a zone: constant properties are read from the
        // layout's table without binding the card (the general path below for any other card).
        let const_prop = match (op, value.map(|v| &v.kind), filter, zone) {
            (
                Aggregate::Sum | Aggregate::Max | Aggregate::Min,
                Some(ExprKind::Prop(pid, ce)),
                None,
                Some(_),
            ) if matches!(ce.kind, ExprKind::Local(s) if s == slot)
                    // The general path evaluates the property two levels deeper.
                    && self.s.depth + 1 < super::eval::MAX_DEPTH =>
            {
                Some(pid.index())
            }
            _ => None,
        };
        let saved = self.local(slot);
        let mut count = 0i64;
        let mut sum = 0i64;
        let mut best: Option<i64> = None;
        // A filter or a map keeps at most one item per item: room for all at once.
        let mut kept = match op {
            Aggregate::Filter | Aggregate::TakeWhile | Aggregate::Map => Vec::with_capacity(len),
            _ => Vec::new(),
        };
        let mut keyed: Vec<(Value, Value)> = Vec::new();
        let mut all = true;
        let mut any = false;
        // The constant numbers first, in one pass over the zone's cards; the first card whose
        // property is not one leaves the rest to the loop below.
        let mut start = 0;
        if let (Some(pid), Some((z, _))) = (const_prop, zone) {
            let nprops = self.l.nprops;
            let mut overflow = false;
            for &c in self.s.zones[z as usize].cards.iter().rev() {
                let kind = self
                    .s
                    .cards
                    .get(c as usize)
                    .map_or(0, |cs| cs.kind as usize);
                let Some(&Some(v)) = self.l.prop_int.get(kind * nprops + pid) else {
                    break;
                };
                if !fold_number(op, v, &mut sum, &mut best) {
                    overflow = true;
                    break;
                }
                start += 1;
            }
            if overflow {
                return Err(self.err(span, "arithmetic overflow".into()));
            }
        }
        for i in start..len {
            let item = match zone {
                Some((z, _)) => {
                    let cards = &self.s.zones[z as usize].cards;
                    match cards.len().checked_sub(i + 1).and_then(|j| cards.get(j)) {
                        Some(&c) => Value::Card(c),
                        None => break,
                    }
                }
                None => match items.as_ref().and_then(|l| l.get(i)) {
                    Some(v) => v.clone(),
                    None => break,
                },
            };
            if let (Some(pid), Value::Card(c)) = (const_prop, &item) {
                let kind = self.s.cards.get(*c as usize).map(|cs| cs.kind as usize);
                if let Some(Value::Int(v)) = kind.and_then(|k| self.const_prop(k, pid)) {
                    if !fold_number(op, v, &mut sum, &mut best) {
                        return Err(self.err(span, "arithmetic overflow".into()));
                    }
                    continue;
                }
            }
            let item = &item;
            self.set_local(slot, item.clone());
            if op != Aggregate::Any && op != Aggregate::All {
                if let Some(f) = filter {
                    if !self.eval_bool(f)? {
                        if op == Aggregate::TakeWhile {
                            break;
                        }
                        continue;
                    }
                }
            }
            match op {
                Aggregate::Count => count += 1,
                Aggregate::Sum | Aggregate::Max | Aggregate::Min => {
                    let v = match value {
                        Some(v) => self.eval_int_at(super::sites::Site::Builtin, v)?,
                        None => match item {
                            Value::Int(i) => *i,
                            v => {
                                return Err(self.err(
                                    span,
                                    format!("expected a number, found {}", self.describe(v)),
                                ))
                            }
                        },
                    };
                    if !fold_number(op, v, &mut sum, &mut best) {
                        return Err(self.err(span, "arithmetic overflow".into()));
                    }
                }
                Aggregate::Any | Aggregate::All => {
                    let holds = match filter.or(value) {
                        Some(f) => self.eval_bool(f)?,
                        None => true,
                    };
                    if holds {
                        any = true;
                    } else {
                        all = false;
                    }
                    if (op == Aggregate::Any && any) || (op == Aggregate::All && !all) {
                        break;
                    }
                }
                Aggregate::Filter | Aggregate::TakeWhile => kept.push(item.clone()),
                Aggregate::Map => {
                    let v = match value {
                        Some(v) => self.eval_at(super::sites::Site::Builtin, v)?,
                        None => item.clone(),
                    };
                    kept.push(v);
                }
                Aggregate::Flatten => {
                    let v = match value {
                        Some(v) => self.eval_at(super::sites::Site::Builtin, v)?,
                        None => item.clone(),
                    };
                    let sp = value.map_or(span, |v| v.span);
                    if let Value::Zone(z) = v {
                        // A zone's cards are copied where they lie (as `as_list` would list them:
                        // the same notes, work and errors), without a list of their own.
                        let n = self.list_len(&v, sp)?;
                        if kept.len() + n > super::eval::MAX_LIST {
                            return Err(self.err(span, "this list grew too long".into()));
                        }
                        self.charge(n, span)?;
                        if let Some(zi) = self.s.zones.get(z as usize) {
                            kept.extend(zi.cards.iter().rev().map(|&c| Value::Card(c)));
                        }
                        continue;
                    }
                    let l = self.as_list(v, sp)?;
                    if kept.len() + l.len() > super::eval::MAX_LIST {
                        return Err(self.err(span, "this list grew too long".into()));
                    }
                    self.charge(l.len(), span)?;
                    kept.extend(l.iter().cloned());
                }
                Aggregate::Sort => {
                    let k = match value {
                        Some(v) => self.eval_at(super::sites::Site::Builtin, v)?,
                        None => item.clone(),
                    };
                    keyed.push((k, item.clone()));
                }
            }
        }
        self.set_local(slot, saved);
        let gathered = Gathered {
            count,
            sum,
            best,
            any,
            all,
            kept,
            keyed,
        };
        Ok(gathered.value(op))
    }

    /// The card kind an argument names (a kind, or a card's kind).
    fn kind_arg(&self, v: Value, span: Span) -> R<u16> {
        match v {
            Value::Kind(k) => Ok(k),
            Value::Card(c) if (c as usize) < self.s.cards.len() => {
                Ok(self.s.cards[c as usize].kind)
            }
            v => Err(self.err(
                span,
                format!("expected a card kind, found {}", self.describe(&v)),
            )),
        }
    }

    /// `count(cards(K, L))` or `first(cards(K, L))`, inside the call of `cards`: its arguments, then
    /// `of_kind`.
    fn call_of_kind(&mut self, args: &[Expr], want: Want) -> R<Value> {
        let kv = self.eval_at(super::sites::Site::Builtin, &args[0])?;
        let lv = self.eval_at(super::sites::Site::Builtin, &args[1])?;
        let k = self.kind_arg(kv, args[0].span)?;
        self.of_kind(k, lv, args[1].span, want)
    }

    /// The cards of kind `k` in `l` (a zone read in place, top first), as `cards(K, L)` lists them,
    /// or only how many there are or the first, with the work of listing L.
    fn of_kind(&mut self, k: u16, l: Value, span: Span, want: Want) -> R<Value> {
        fn pick(cards: &[CardState], ids: impl Iterator<Item = u32>, k: u16, want: Want) -> Value {
            let mut ids = ids.filter(|&c| cards.get(c as usize).is_some_and(|cs| cs.kind == k));
            match want {
                Want::List => Value::list(ids.map(Value::Card).collect()),
                Want::Count => Value::Int(ids.count() as i64),
                Want::First => ids.next().map(Value::Card).unwrap_or_default(),
            }
        }
        if let Value::Zone(z) = l {
            let n = self.list_len(&l, span)?;
            self.charge(n, span)?;
            let ids = self.s.zones[z as usize].cards.iter().rev().copied();
            return Ok(pick(&self.s.cards, ids, k, want));
        }
        let l = self.as_list(l, span)?;
        self.charge(l.len(), span)?;
        let ids = l.iter().filter_map(|v| match v {
            Value::Card(c) => Some(*c),
            _ => None,
        });
        Ok(pick(&self.s.cards, ids, k, want))
    }

    #[inline(never)]
    pub(super) fn builtin(&mut self, b: Builtin, args: &[Expr], span: Span) -> R<Value> {
        // `count(cards(K, L))` and `first(cards(K, L))`: without building the list, with the same
        // work, errors and depth as the call of `cards` (the general path while reads are recorded).
        if let (Builtin::Size | Builtin::First, [a]) = (b, args) {
            if let ExprKind::Builtin(Builtin::Cards, cargs) = &a.kind {
                if cargs.len() == 2 && self.s.depth < super::eval::MAX_DEPTH && !self.s.recording {
                    self.charge(1, a.span)?;
                    self.s.depth += 1;
                    let want = if b == Builtin::First {
                        Want::First
                    } else {
                        Want::Count
                    };
                    let v = self.call_of_kind(cargs, want);
                    self.s.depth -= 1;
                    return v;
                }
            }
        }
        // The arguments' values, in a recycled vector.
        let mut vals = self.s.take_locals(0);
        let r = self.builtin_of(b, args, &mut vals, span);
        self.s.give_back(vals);
        r
    }

    /// A built-in applied to its arguments `args`, whose values it puts in `vals`.
    fn builtin_of(
        &mut self,
        b: Builtin,
        args: &[Expr],
        vals: &mut Vec<Value>,
        span: Span,
    ) -> R<Value> {
        if let (Builtin::Size, [a]) = (b, args) {
            // `count(Z)` of a zone: no list to build.
            match self.eval_at(super::sites::Site::Builtin, a)? {
                Value::Zone(z) if (z as usize) < self.s.zones.len() => {
                    self.note_zone(z);
                    return Ok(Value::Int(self.s.zones[z as usize].cards.len() as i64));
                }
                v => vals.push(v),
            }
        } else {
            for a in args {
                self.eval_push(a, vals)?;
            }
        }
        self.apply_builtin(b, &|i| args.get(i).map_or(span, |a| a.span), vals, span)
    }

    /// A built-in applied to the values `vals` of its arguments (`span_of(i)`: the span of argument
    /// `i`, which its errors name): what the walker does once the arguments are evaluated.
    pub(crate) fn apply_builtin(
        &mut self,
        b: Builtin,
        span_of: &dyn Fn(usize) -> Span,
        vals: &[Value],
        span: Span,
    ) -> R<Value> {
        let arg =
            |i: usize| -> (Value, Span) { (vals.get(i).cloned().unwrap_or_default(), span_of(i)) };
        let int = |m: &Self, i: usize| -> R<i64> {
            let (v, sp) = arg(i);
            v.as_int()
                .ok_or_else(|| m.err(sp, format!("expected a number, found {}", m.describe(&v))))
        };
        // A list argument: the work the built-in does on it is counted as its length.
        let list = |m: &mut Self, i: usize| -> R<Arc<Vec<Value>>> {
            let (v, sp) = arg(i);
            let l = m.as_list(v, sp)?;
            m.charge(l.len(), sp)?;
            Ok(l)
        };
        // A list argument read in constant time (a zone still costs its cards).
        let peek = |m: &mut Self, i: usize| -> R<Arc<Vec<Value>>> {
            let (v, sp) = arg(i);
            m.as_list(v, sp)
        };
        let player = |m: &Self, i: usize| -> R<u8> {
            let (v, sp) = arg(i);
            m.as_player(&v, sp)
        };
        let space = |m: &Self, i: usize| -> R<(i64, i64)> {
            match arg(i) {
                (Value::Space(s), _) if (s as usize) < m.l.spaces.len() => {
                    Ok(m.l.spaces[s as usize])
                }
                (v, sp) => Err(m.err(sp, format!("expected a space, found {}", m.describe(&v)))),
            }
        };
        let n = self.s.players;
        Ok(match b {
            Builtin::Size => match arg(0) {
                (Value::Zone(z), _) if (z as usize) < self.s.zones.len() => {
                    self.note_zone(z);
                    Value::Int(self.s.zones[z as usize].cards.len() as i64)
                }
                _ => Value::Int(peek(self, 0)?.len() as i64),
            },
            Builtin::Max2 => Value::Int(int(self, 0)?.max(int(self, 1)?)),
            Builtin::Min2 => Value::Int(int(self, 0)?.min(int(self, 1)?)),
            Builtin::Abs => Value::Int(
                int(self, 0)?
                    .checked_abs()
                    .ok_or_else(|| self.err(span, "arithmetic overflow".into()))?,
            ),
            Builtin::Take => {
                let l = peek(self, 0)?;
                let k = int(self, 1)?.max(0) as usize;
                self.charge(k.min(l.len()), span)?;
                Value::list(l.iter().take(k).cloned().collect())
            }
            Builtin::Index => {
                let l = peek(self, 0)?;
                let i = int(self, 1)?;
                match usize::try_from(i) {
                    Ok(i) if i >= 1 => l.get(i - 1).cloned().unwrap_or_default(),
                    _ => Value::None,
                }
            }
            Builtin::Flatten => {
                let outer = list(self, 0)?;
                let mut out = Vec::new();
                for v in outer.iter() {
                    let l = self.as_list(v.clone(), span)?;
                    if out.len() + l.len() > super::eval::MAX_LIST {
                        return Err(self.err(span, "this list grew too long".into()));
                    }
                    self.charge(l.len(), span)?;
                    out.extend(l.iter().cloned());
                }
                Value::list(out)
            }
            // A zone's first (top) or last card is read in place, with the work of listing it.
            Builtin::First | Builtin::Last => match arg(0) {
                (Value::Zone(z), sp) => {
                    self.list_len(&Value::Zone(z), sp)?;
                    let cards = &self.s.zones[z as usize].cards;
                    let c = if b == Builtin::First {
                        cards.last()
                    } else {
                        cards.first()
                    };
                    c.map(|&c| Value::Card(c)).unwrap_or_default()
                }
                _ if b == Builtin::First => peek(self, 0)?.first().cloned().unwrap_or_default(),
                _ => peek(self, 0)?.last().cloned().unwrap_or_default(),
            },
            Builtin::Cards => {
                let (v, sp) = arg(0);
                let k = self.kind_arg(v, sp)?;
                let (l, sp) = arg(1);
                self.of_kind(k, l, sp, Want::List)?
            }
            Builtin::Kinds => {
                let l = list(self, 0)?;
                Value::list(kinds_in(&self.s.cards, self.p.kinds.len(), &l))
            }
            Builtin::Distinct => Value::list(distinct(&list(self, 0)?)),
            Builtin::Random => {
                let l = peek(self, 0)?;
                self.draw_from(&l)
            }
            Builtin::Seat => {
                let i = int(self, 0)?;
                if i >= 1 && i <= n as i64 {
                    Value::Player((i - 1) as u8)
                } else {
                    Value::None
                }
            }
            Builtin::Left | Builtin::Right => {
                let p = player(self, 0)?;
                self.s.neighbour(p, b == Builtin::Left)
            }
            // A participant's are the living seats from seat 1 (`State::seat_list`).
            Builtin::Opponents => {
                let p = player(self, 0)?;
                self.s.seat_list(SeatList::Opponents(p))
            }
            Builtin::From => {
                let p = player(self, 0)?;
                self.s.seat_list(SeatList::From(p))
            }
            Builtin::Eliminated => Value::Bool(!self.s.living(player(self, 0)?)),
            Builtin::At => {
                let (x, y) = (int(self, 0)?, int(self, 1)?);
                self.l.space_at(x, y).map(Value::Space).unwrap_or_default()
            }
            Builtin::Neighbours => {
                space(self, 0)?;
                match arg(0).0 {
                    Value::Space(s) => self
                        .l
                        .neighbours
                        .get(s as usize)
                        .cloned()
                        .unwrap_or_default(),
                    _ => Value::None,
                }
            }
            Builtin::Adjacent => {
                let (a, b) = (space(self, 0)?, space(self, 1)?);
                let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
                Value::Bool(dx + dy == 1 || (self.l.diagonal && dx == 1 && dy == 1))
            }
        })
    }
}

/// An order on values for `sort`: numbers, then by variant and id; lists element-wise.
pub(crate) fn cmp_values(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    fn rank(v: &Value) -> u8 {
        match v {
            Value::None => 0,
            Value::Int(_) => 1,
            Value::Bool(_) => 2,
            Value::Player(_) => 3,
            Value::Card(_) => 4,
            Value::Kind(_) => 5,
            Value::Tag(_) => 6,
            Value::Space(_) => 7,
            Value::Zone(_) => 8,
            Value::Text(_) => 9,
            Value::List(_) => 10,
        }
    }
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Player(x), Value::Player(y)) => x.cmp(y),
        (Value::Card(x), Value::Card(y)) => x.cmp(y),
        (Value::Kind(x), Value::Kind(y))
        | (Value::Tag(x), Value::Tag(y))
        | (Value::Space(x), Value::Space(y)) => x.cmp(y),
        (Value::Zone(x), Value::Zone(y)) => x.cmp(y),
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        (Value::List(x), Value::List(y)) => {
            for (i, j) in x.iter().zip(y.iter()) {
                let o = cmp_values(i, j);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Adds `v` to a `sum`, `max` or `min` under way; false when the sum overflows.
/// What is wanted of the cards of a kind in a list (see `Mach::of_kind`).
#[derive(Clone, Copy)]
enum Want {
    List,
    Count,
    First,
}

fn fold_number(op: Aggregate, v: i64, sum: &mut i64, best: &mut Option<i64>) -> bool {
    match op {
        Aggregate::Sum => match sum.checked_add(v) {
            Some(s) => *sum = s,
            None => return false,
        },
        Aggregate::Max => *best = Some(best.map_or(v, |b| b.max(v))),
        _ => *best = Some(best.map_or(v, |b| b.min(v))),
    }
    true
}

/// What an aggregate gathered over its items: its count, sum, best number, whether any and all
/// held, the items kept (or made) and the sort keys with their items.
pub(crate) struct Gathered {
    pub count: i64,
    pub sum: i64,
    pub best: Option<i64>,
    pub any: bool,
    pub all: bool,
    pub kept: Vec<Value>,
    pub keyed: Vec<(Value, Value)>,
}

impl Gathered {
    /// Nothing gathered yet (`all` holds of no items).
    pub(crate) fn new() -> Gathered {
        Gathered {
            count: 0,
            sum: 0,
            best: None,
            any: false,
            all: true,
            kept: Vec::new(),
            keyed: Vec::new(),
        }
    }

    /// The aggregate's value.
    pub(crate) fn value(mut self, op: Aggregate) -> Value {
        match op {
            Aggregate::Count => Value::Int(self.count),
            Aggregate::Sum => Value::Int(self.sum),
            Aggregate::Max | Aggregate::Min => Value::Int(self.best.unwrap_or(0)),
            Aggregate::Any => Value::Bool(self.any),
            Aggregate::All => Value::Bool(self.all),
            Aggregate::Filter | Aggregate::TakeWhile | Aggregate::Map | Aggregate::Flatten => {
                Value::list(self.kept)
            }
            Aggregate::Sort => {
                self.keyed.sort_by(|a, b| cmp_values(&a.0, &b.0));
                Value::list(self.keyed.into_iter().map(|(_, v)| v).collect())
            }
        }
    }
}

/// `kinds(L)`: the kinds of the cards (and kinds) of a list, in order of first appearance (`seen`
/// keeps this linear; of `kinds` kinds).
pub(crate) fn kinds_in(cards: &[CardState], kinds: usize, l: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut seen = vec![false; kinds];
    for v in l {
        let k = match v {
            Value::Card(c) => match cards.get(*c as usize) {
                Some(cs) => cs.kind,
                None => continue,
            },
            Value::Kind(k) => *k,
            _ => continue,
        };
        match seen.get_mut(k as usize) {
            Some(s) if !*s => {
                *s = true;
                out.push(Value::Kind(k));
            }
            Some(_) => {}
            None if !out.contains(&Value::Kind(k)) => out.push(Value::Kind(k)),
            None => {}
        }
    }
    out
}

/// `distinct(L)`: the items of a list in order of first appearance (a set keeps long lists linear).
pub(crate) fn distinct(l: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    if l.len() <= 16 {
        for v in l {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
    } else {
        let mut seen = std::collections::HashSet::with_capacity(l.len());
        for v in l {
            if seen.insert(v) {
                out.push(v.clone());
            }
        }
    }
    out
}

impl Mach<'_> {
    /// `random(L)` of the list `L`: one item drawn from the game's generator (`none` of no
    /// items, nothing drawn). The walker's `random` and the closures' (closures/in_place.rs).
    pub fn draw_from(&mut self, l: &[Value]) -> Value {
        if l.is_empty() {
            return Value::None;
        }
        let i = self.s.rng_to_draw().gen_range(0..l.len());
        l[i].clone()
    }
}
