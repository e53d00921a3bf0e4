//! Engine stage: evaluation of expressions (they never pause) and value helpers.

use super::exec::Mach;
use super::hash::Fx;
use super::label::label;
use super::state::{Ctx, SeatList};
use super::RuntimeError;
use crate::program::{BinOp, Expr, ExprKind, Field, UnOp, VarId};
use crate::value::Value;
use cardgame_grammar::ast::Span;

/// Nesting of expression evaluation (through functions and properties too) before a runtime error.
pub(crate) const MAX_DEPTH: u32 = 800;
/// The longest list a range may build.
pub(crate) const MAX_RANGE: i64 = 1_000_000;
/// The longest list or text an expression may build (a value doubling in a loop stops here).
pub(crate) const MAX_LIST: usize = 1_000_000;
/// The most function calls remembered while listing the options of one decision.
const MAX_MEMO: usize = 512;

type R<T> = Result<T, RuntimeError>;

impl<'a> Mach<'a> {
    #[inline]
    pub fn local(&self, slot: u16) -> Value {
        self.s
            .ctxs
            .last()
            .and_then(|c| c.locals.get(slot as usize))
            .cloned()
            .unwrap_or_default()
    }

    #[inline(always)]
    pub fn set_local(&mut self, slot: u16, v: Value) {
        match self
            .s
            .ctxs
            .last_mut()
            .and_then(|c| c.locals.get_mut(slot as usize))
        {
            // The old value is taken out before it is dropped: with `*place = v`, the new value
            // had to be kept in memory across the drop (a call) and was then copied from there in
            // wider pieces than it was written, which stalls.
            Some(place) => drop(std::mem::replace(place, v)),
            None => self.set_local_slow(slot, v),
        }
    }

    /// `set_local` when there is no context yet, or the slot is past the end of the locals.
    #[cold]
    #[inline(never)]
    fn set_local_slow(&mut self, slot: u16, v: Value) {
        if self.s.ctxs.is_empty() {
            self.s.ctxs.push(Ctx::default());
        }
        if let Some(c) = self.s.ctxs.last_mut() {
            let i = slot as usize;
            if i >= c.locals.len() {
                crate::engine::state::grow_locals(&mut c.locals, i + 1);
            }
            c.locals[i] = v;
        }
    }

    pub fn you(&self) -> Option<u8> {
        self.s.ctxs.last().and_then(|c| c.you)
    }

    pub fn set_you(&mut self, you: Option<u8>) {
        if let Some(c) = self.s.ctxs.last_mut() {
            c.you = you;
        }
    }

    pub fn this(&self) -> Option<u32> {
        self.s.ctxs.last().and_then(|c| c.this)
    }

    #[cfg_attr(test, track_caller)]
    pub fn eval_int(&mut self, e: &Expr) -> R<i64> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            v => Err(self.err(
                e.span,
                format!("expected a number, found {}", self.describe(&v)),
            )),
        }
    }

    #[cfg_attr(test, track_caller)]
    pub fn eval_bool(&mut self, e: &Expr) -> R<bool> {
        // Conditions are evaluated without building values where that is easy: connectives, kind and
        // tag tests of a local card, comparisons of numbers. Anything else (and any error, and the
        // nesting limit) takes the general path below.
        if self.s.depth < MAX_DEPTH {
            match &e.kind {
                ExprKind::Binary(BinOp::And, a, b) => {
                    return Ok(self.eval_bool(a)? && self.eval_bool(b)?)
                }
                ExprKind::Binary(BinOp::Or, a, b) => {
                    return Ok(self.eval_bool(a)? || self.eval_bool(b)?)
                }
                ExprKind::Unary(UnOp::Not, x) => return Ok(!self.eval_bool(x)?),
                ExprKind::IsKind(x, k, negated) => {
                    if let Some(kind) = self.kind_of_local(x) {
                        return Ok((kind == k.0) != *negated);
                    }
                }
                ExprKind::IsTag(x, t, negated) => {
                    if let Some(kind) = self.kind_of_local(x) {
                        let has = self
                            .p
                            .kinds
                            .get(kind as usize)
                            .is_some_and(|k| k.tags.binary_search(t).is_ok());
                        return Ok(has != *negated);
                    }
                }
                ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                    let (x, y) = (self.eval(a)?, self.eval(b)?);
                    let (Value::Int(i), Value::Int(j)) = (&x, &y) else {
                        return self.order(*op, &x, &y, e.span);
                    };
                    return Ok(match op {
                        BinOp::Lt => i < j,
                        BinOp::Le => i <= j,
                        BinOp::Gt => i > j,
                        _ => i >= j,
                    });
                }
                _ => {}
            }
        }
        match self.eval(e)? {
            Value::Bool(b) => Ok(b),
            v => Err(self.err(
                e.span,
                format!("expected true or false, found {}", self.describe(&v)),
            )),
        }
    }

    /// The kind of the card a local holds (`None`: not a local, or not a card).
    #[inline]
    fn kind_of_local(&self, x: &Expr) -> Option<u16> {
        let ExprKind::Local(slot) = x.kind else {
            return None;
        };
        let Some(Value::Card(c)) = self.s.ctxs.last()?.locals.get(slot as usize) else {
            return None;
        };
        self.s.cards.get(*c as usize).map(|cs| cs.kind)
    }

    #[cfg_attr(test, track_caller)]
    pub fn eval_player(&mut self, e: &Expr) -> R<u8> {
        let v = self.eval(e)?;
        self.as_player(&v, e.span)
    }

    #[cfg_attr(test, track_caller)]
    pub fn eval_card(&mut self, e: &Expr) -> R<u32> {
        let v = self.eval(e)?;
        self.as_card(&v, e.span)
    }

    #[cfg_attr(test, track_caller)]
    pub fn eval_zone(&mut self, e: &Expr) -> R<u32> {
        match self.eval(e)? {
            Value::Zone(z) if (z as usize) < self.s.zones.len() => Ok(z),
            v => Err(self.err(
                e.span,
                format!("expected a zone, found {}", self.describe(&v)),
            )),
        }
    }

    #[inline]
    pub fn as_player(&self, v: &Value, span: Span) -> R<u8> {
        match v {
            Value::Player(p) if *p < self.s.players.saturating_add(self.s.participants) => Ok(*p),
            v => Err(self.expected("a player", v, span)),
        }
    }

    #[inline]
    pub fn as_card(&self, v: &Value, span: Span) -> R<u32> {
        match v {
            Value::Card(c) if (*c as usize) < self.s.cards.len() => Ok(*c),
            v => Err(self.expected("a card", v, span)),
        }
    }

    /// "expected a card, found ...": out of the way of the conversions above, which inline.
    #[cold]
    #[inline(never)]
    fn expected(&self, what: &str, v: &Value, span: Span) -> RuntimeError {
        self.err(span, format!("expected {what}, found {}", self.describe(v)))
    }

    /// A short description of a value for error messages.
    pub fn describe(&self, v: &Value) -> String {
        match v {
            Value::None => "none".into(),
            Value::List(_) => format!("the list [{}]", label(self.p, self.l, self.s, v)),
            _ => format!("`{}`", label(self.p, self.l, self.s, v)),
        }
    }

    #[inline]
    #[cfg_attr(test, track_caller)]
    pub fn eval(&mut self, e: &Expr) -> R<Value> {
        if let ExprKind::Const(v) = &e.kind {
            return Ok(v.clone());
        }
        if let Some(v) = self.leaf(e) {
            return Ok(v);
        }
        self.eval_deep(e)
    }

    /// Evaluates `e` onto the end of `out` (the arguments of a call or a built-in). A local's card
    /// or player is written where it goes: a whole value returned through memory and then copied
    /// is read back in wider pieces than it was written, a stall.
    #[inline]
    #[cfg_attr(test, track_caller)]
    pub fn eval_push(&mut self, e: &Expr, out: &mut Vec<Value>) -> R<()> {
        if let ExprKind::Local(s) = e.kind {
            if self.s.depth < MAX_DEPTH {
                match self.s.ctxs.last().and_then(|c| c.locals.get(s as usize)) {
                    Some(&Value::Card(c)) => out.push(Value::Card(c)),
                    Some(&Value::Player(p)) => out.push(Value::Player(p)),
                    Some(v) => out.push(v.clone()),
                    None => out.push(Value::None),
                }
                return Ok(());
            }
        }
        let v = self.eval(e)?;
        out.push(v);
        Ok(())
    }

    /// The value of an expression that reads one thing and can neither fail nor nest (`None`:
    /// any other expression, or no nesting left, where evaluating it is an error).
    #[inline]
    pub(super) fn leaf(&self, e: &Expr) -> Option<Value> {
        if self.s.depth >= MAX_DEPTH {
            return None;
        }
        Some(match &e.kind {
            ExprKind::Local(s) => self.local(*s),
            // While a guard is recorded, `note_expr` notes the read and gives the value.
            ExprKind::You | ExprKind::Active if self.s.recording => return None,
            ExprKind::You => Value::Player(self.you().unwrap_or(self.s.active)),
            ExprKind::Active => Value::Player(self.s.active),
            _ => return None,
        })
    }

    #[inline(never)]
    #[cfg_attr(test, track_caller)]
    fn eval_deep(&mut self, e: &Expr) -> R<Value> {
        if self.s.depth >= MAX_DEPTH {
            return Err(self.err(
                e.span,
                "expressions, functions or properties nested too deeply (endless recursion?)"
                    .into(),
            ));
        }
        if self.s.recording {
            if let Some(v) = self.note_expr(e) {
                return Ok(v);
            }
        }
        self.charge(1, e.span)?;
        #[cfg(test)]
        let (outer, before) = (self.s.depth == 0, self.s.probe.counted.evaluated);
        #[cfg(test)]
        {
            self.s.probe.counted.evaluated += 1;
        }
        self.s.depth += 1;
        let r = self.eval_inner(e);
        self.s.depth -= 1;
        #[cfg(test)]
        if outer {
            let at = std::panic::Location::caller();
            let delta = self.s.probe.counted.evaluated - before;
            let t = (self.s.probe.entries)
                .entry((at.file(), at.line()))
                .or_default();
            t.calls += 1;
            t.evaluated += delta;
        }
        r
    }

    /// Simple forms inline; every form that recurses has a method of its own (`#[inline(never)]`),
    /// so that the recursive path keeps small stack frames even without optimisation.
    fn eval_inner(&mut self, e: &Expr) -> R<Value> {
        Ok(match &e.kind {
            ExprKind::Const(v) => v.clone(),
            ExprKind::Local(s) => self.local(*s),
            ExprKind::Global(v) => self
                .s
                .globals
                .get(self.l.var(*v))
                .cloned()
                .unwrap_or_default(),
            ExprKind::Option(o) => self.l.options.get(o.index()).cloned().unwrap_or_default(),
            ExprKind::Column(c) => self.l.columns.get(c.index()).cloned().unwrap_or_default(),
            ExprKind::You => Value::Player(self.you().unwrap_or(self.s.active)),
            ExprKind::This => self.this().map(Value::Card).unwrap_or_default(),
            ExprKind::Active => Value::Player(self.s.active),
            ExprKind::Players => Value::Int(self.s.players as i64),
            ExprKind::TurnNumber => Value::Int(self.s.turn as i64),
            ExprKind::Participant(i) => Value::Player(self.s.players.saturating_add(*i)),
            ExprKind::IsKind(x, k, negated) => {
                let is = match self.eval(x)? {
                    Value::Card(c) => self
                        .s
                        .cards
                        .get(c as usize)
                        .is_some_and(|cs| cs.kind == k.0),
                    Value::Kind(x) => x == k.0,
                    _ => return Ok(Value::Bool(false)),
                };
                Value::Bool(is != *negated)
            }
            ExprKind::Binary(op, a, b) => return self.binary(*op, a, b, e.span),
            ExprKind::Aggregate {
                op,
                value,
                slot,
                list,
                filter,
            } => {
                return self.aggregate(
                    *op,
                    value.as_deref(),
                    *slot,
                    list,
                    filter.as_deref(),
                    e.span,
                )
            }
            ExprKind::Builtin(b, args) => return self.builtin(*b, args, e.span),
            ExprKind::Field(f, x) => return self.field(*f, x),
            ExprKind::CallFn(..) => return self.call_fn(e),
            ExprKind::PlayerVar(v, pe) => return self.player_var(*v, pe),
            ExprKind::Zone(z, Some(h)) => {
                let h = self.eval(h)?;
                return Ok(Value::Zone(self.zone_of(z.index(), Some(h), e.span)?));
            }
            ExprKind::Prop(pid, ce) => {
                if let ExprKind::Local(slot) = ce.kind {
                    if let Some(v) = self.const_prop_of_local(pid.index(), slot) {
                        return Ok(v);
                    }
                }
                return self.eval_other(e);
            }
            _ => return self.eval_other(e),
        })
    }

    #[inline(never)]
    fn call_fn(&mut self, e: &Expr) -> R<Value> {
        let ExprKind::CallFn(f, args) = &e.kind else {
            return Ok(Value::None);
        };
        let p = self.p;
        let Some(def) = p.fns.get(f.index()) else {
            return Err(self.err(e.span, "unknown function".into()));
        };
        let mut locals = self.s.take_locals(0);
        for a in args {
            self.eval_push(a, &mut locals)?;
        }
        let (you, this) = (self.you(), self.this());
        let remember =
            self.s.memo_on && p.pure_fns.get(f.index()) == Some(&true) && self.s.memo.wanted(f.0);
        let hash = if remember { Fx::of_values(&locals) } else { 0 };
        if remember {
            let (count, most) = (self.s.exec_count, self.s.fixed.max_steps);
            if let Some((v, work)) = self.s.memo.table().find(f.0, you, this, &locals, hash) {
                #[cfg(test)]
                {
                    self.s.probe.counted.calls_remembered += 1;
                }
                // The body's work, as if it ran; a call that would spend the budget runs, to end
                // where and how it ends.
                if count.saturating_add(work) <= most {
                    let v = v.clone();
                    self.s.exec_count += work;
                    self.s.give_back(locals);
                    return Ok(v);
                }
            }
        }
        let n = locals.len();
        crate::engine::state::grow_locals(&mut locals, def.slots as usize);
        let base = self.s.ctxs.len();
        self.s.ctxs.push(Ctx { locals, you, this });
        let before = self.s.exec_count;
        let value = self.eval(&def.body);
        if remember {
            let work = self.s.exec_count.saturating_sub(before);
            if let Ok(v) = &value {
                // The arguments are still the first locals of the call (a function's body binds
                // only the slots after its parameters).
                let s = &mut *self.s;
                if let Some(args) = s.ctxs.get(base).and_then(|c| c.locals.get(..n)) {
                    s.memo
                        .table()
                        .remember(f.0, you, this, args, hash, v.clone(), work, MAX_MEMO);
                }
            }
        }
        self.s.truncate_ctxs(base);
        let value = value?;
        Ok(value)
    }

    #[inline(never)]
    fn player_var(&mut self, v: VarId, pe: &Expr) -> R<Value> {
        let p = self.eval_player(pe)?;
        let i = p as usize * self.l.n_pvars + self.l.var(v);
        Ok(self.s.pvars.get(i).cloned().unwrap_or_default())
    }

    #[inline(never)]
    fn eval_other(&mut self, e: &Expr) -> R<Value> {
        Ok(match &e.kind {
            ExprKind::PlayerVar(v, pe) => {
                let p = self.eval_player(pe)?;
                let i = p as usize * self.l.n_pvars + self.l.var(*v);
                self.s.pvars.get(i).cloned().unwrap_or_default()
            }
            ExprKind::CardVar(v, ce) => {
                let c = self.eval_card(ce)?;
                let i = c as usize * self.l.n_cvars + self.l.var(*v);
                self.s.cvars.get(self.l, i).cloned().unwrap_or_default()
            }
            ExprKind::Prop(pid, ce) => {
                let c = self.eval_card(ce)?;
                self.prop(pid.index(), c, e.span)?
            }
            ExprKind::TagOf(g, ce) => {
                let c = self.eval_card(ce)?;
                let kind = self.s.cards[c as usize].kind as usize;
                let tags = self
                    .p
                    .kinds
                    .get(kind)
                    .map(|k| k.tags.as_slice())
                    .unwrap_or(&[]);
                tags.iter()
                    .find(|t| self.p.tags.get(t.index()).map(|d| d.group) == Some(*g))
                    .map(|t| Value::Tag(t.0))
                    .unwrap_or_default()
            }
            ExprKind::Zone(z, holder) => {
                let h = match holder {
                    Some(h) => Some(self.eval(h)?),
                    None => None,
                };
                Value::Zone(self.zone_of(z.index(), h, e.span)?)
            }
            ExprKind::Spaces => Value::list(
                (0..self.l.spaces.len())
                    .map(|i| Value::Space(i as u16))
                    .collect(),
            ),
            ExprKind::Everyone => self.s.seat_list(SeatList::Everyone),
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                match (op, v) {
                    (UnOp::Neg, Value::Int(i)) => Value::Int(
                        i.checked_neg()
                            .ok_or_else(|| self.err(e.span, "arithmetic overflow".into()))?,
                    ),
                    (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
                    (_, v) => {
                        return Err(self.err(
                            e.span,
                            format!("cannot apply `{}` to {}", op.symbol(), self.describe(&v)),
                        ))
                    }
                }
            }
            ExprKind::IsTag(x, t, negated) => {
                let v = self.eval(x)?;
                let has = match v {
                    Value::Card(c) => self
                        .s
                        .cards
                        .get(c as usize)
                        .and_then(|cs| self.p.kinds.get(cs.kind as usize))
                        .is_some_and(|k| k.tags.binary_search(t).is_ok()),
                    Value::Kind(k) => self
                        .p
                        .kinds
                        .get(k as usize)
                        .is_some_and(|k| k.tags.binary_search(t).is_ok()),
                    Value::Tag(x) => x == t.0,
                    _ => return Ok(Value::Bool(false)),
                };
                Value::Bool(has != *negated)
            }
            ExprKind::If(c, a, b) => {
                if self.eval_bool(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            ExprKind::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i)?);
                }
                Value::list(out)
            }
            ExprKind::Range(a, b) => {
                let (a, b) = (self.eval_int(a)?, self.eval_int(b)?);
                if b < a {
                    Value::list(Vec::new())
                } else if b.saturating_sub(a) > MAX_RANGE {
                    return Err(self.err(e.span, format!("the range {a}..{b} is too long")));
                } else {
                    self.charge((b - a) as usize + 1, e.span)?;
                    Value::list((a..=b).map(Value::Int).collect())
                }
            }
            ExprKind::Pile {
                position,
                count,
                zone,
            } => self.pile(*position, count.as_deref(), zone)?,
            ExprKind::Text(t) => Value::Text(self.text(t)?.into()),
            ExprKind::Let(slot, v, body) => {
                let v = self.eval(v)?;
                self.set_local(*slot, v);
                self.eval(body)?
            }
            ExprKind::Const(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Option(_)
            | ExprKind::Column(_)
            | ExprKind::You
            | ExprKind::This
            | ExprKind::Active
            | ExprKind::Players
            | ExprKind::TurnNumber
            | ExprKind::Participant(_)
            | ExprKind::IsKind(..)
            | ExprKind::Binary(..)
            | ExprKind::Aggregate { .. }
            | ExprKind::Builtin(..)
            | ExprKind::Field(..)
            | ExprKind::CallFn(..) => return Err(self.err(e.span, "unexpected expression".into())),
        })
    }

    /// `<`, `<=`, `>`, `>=` of values that are not both numbers: lists compare element by element
    /// (the first difference decides; a list that is a beginning of the other is smaller).
    #[inline(never)]
    pub(crate) fn order(&mut self, op: BinOp, x: &Value, y: &Value, span: Span) -> R<bool> {
        let (Value::List(a), Value::List(b)) = (x, y) else {
            return Err(self.err(
                span,
                format!(
                    "cannot apply `{}` to {} and {}",
                    op.symbol(),
                    self.describe(x),
                    self.describe(y)
                ),
            ));
        };
        self.charge(a.len().min(b.len()), span)?;
        let o = super::builtins::cmp_values(x, y);
        Ok(match op {
            BinOp::Lt => o.is_lt(),
            BinOp::Le => o.is_le(),
            BinOp::Gt => o.is_gt(),
            _ => o.is_ge(),
        })
    }

    /// Runs `f` in a new context.
    fn nested(&mut self, ctx: Ctx, f: impl FnOnce(&mut Self) -> R<Value>) -> R<Value> {
        let base = self.s.ctxs.len();
        self.s.ctxs.push(ctx);
        let r = f(self);
        self.s.truncate_ctxs(base);
        r
    }

    /// `c.prop` where `c` is a local holding a valid card whose kind has a constant value for the
    /// property: the value without evaluating anything (`None`: take the general path).
    #[inline]
    fn const_prop_of_local(&self, pid: usize, slot: u16) -> Option<Value> {
        // The general path would evaluate the local one level deeper: keep its depth limit.
        if self.s.depth >= MAX_DEPTH {
            return None;
        }
        let Some(Value::Card(c)) = self.s.ctxs.last()?.locals.get(slot as usize) else {
            return None;
        };
        let kind = self.s.cards.get(*c as usize)?.kind as usize;
        self.const_prop(kind, pid)
    }

    /// The value of property `pid` of cards of `kind`, when it is a constant.
    #[inline]
    pub(crate) fn const_prop(&self, kind: usize, pid: usize) -> Option<Value> {
        if pid >= self.l.nprops {
            return None;
        }
        self.l.prop_const.get(kind * self.l.nprops + pid)?.clone()
    }

    /// A card's property, with `this` = the card and `you` = its owner (or the active player).
    pub fn prop(&mut self, pid: usize, c: u32, span: Span) -> R<Value> {
        let kind = self.s.cards[c as usize].kind as usize;
        if let Some(v) = self.const_prop(kind, pid) {
            return Ok(v);
        }
        if self.s.recording {
            // Evaluated for the card's owner: where it lies, and the active player.
            self.note(super::watch::Dep::Moves);
            self.note(super::watch::Dep::Active);
        }
        let p = self.p;
        let expr = match p
            .kinds
            .get(kind)
            .and_then(|k| k.props.get(pid))
            .and_then(|o| o.as_ref())
        {
            Some(e) => e,
            None => match p.props.get(pid) {
                Some(d) => &d.default,
                None => return Err(self.err(span, "unknown property".into())),
            },
        };
        if let ExprKind::Const(v) = &expr.kind {
            return Ok(v.clone());
        }
        let you = Some(self.s.card_owner(c).unwrap_or(self.s.active));
        self.nested(
            Ctx {
                locals: Vec::new(),
                you,
                this: Some(c),
            },
            |m| m.eval(expr),
        )
    }

    #[inline(never)]
    fn field(&mut self, f: Field, x: &Expr) -> R<Value> {
        let v = self.eval(x)?;
        match f {
            Field::X | Field::Y => match v {
                Value::Space(s) if (s as usize) < self.l.spaces.len() => {
                    let (sx, sy) = self.l.spaces[s as usize];
                    Ok(Value::Int(if f == Field::X { sx } else { sy }))
                }
                v => Err(self.err(
                    x.span,
                    format!("expected a space, found {}", self.describe(&v)),
                )),
            },
            _ => {
                let c = self.as_card(&v, x.span)?;
                let cs = &self.s.cards[c as usize];
                Ok(match f {
                    Field::Kind => Value::Kind(cs.kind),
                    Field::Owner => self.s.card_owner(c).map(Value::Player).unwrap_or_default(),
                    Field::Zone => Value::Zone(cs.zone),
                    _ => Value::Bool(cs.face_up),
                })
            }
        }
    }

    #[inline(never)]
    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> R<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.eval_bool(a)? && self.eval_bool(b)?)),
            BinOp::Or => return Ok(Value::Bool(self.eval_bool(a)? || self.eval_bool(b)?)),
            _ => {}
        }
        let x = self.eval(a)?;
        let y = self.eval(b)?;
        if let (Value::Int(i), Value::Int(j)) = (&x, &y) {
            // Numbers: the common cases at once (overflow and division below).
            let (i, j) = (*i, *j);
            let r = match op {
                BinOp::Eq => Some(Value::Bool(i == j)),
                BinOp::Ne => Some(Value::Bool(i != j)),
                BinOp::Lt => Some(Value::Bool(i < j)),
                BinOp::Le => Some(Value::Bool(i <= j)),
                BinOp::Gt => Some(Value::Bool(i > j)),
                BinOp::Ge => Some(Value::Bool(i >= j)),
                BinOp::Add => i.checked_add(j).map(Value::Int),
                BinOp::Sub => i.checked_sub(j).map(Value::Int),
                BinOp::Mul => i.checked_mul(j).map(Value::Int),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(r);
            }
        }
        if let (Value::List(l1), Value::List(l2)) = (&x, &y) {
            self.charge(l1.len().min(l2.len()), span)?;
        }
        match op {
            BinOp::Eq => return Ok(Value::Bool(x == y)),
            BinOp::Ne => return Ok(Value::Bool(x != y)),
            BinOp::In => {
                if let (Value::Card(c), Value::Zone(z)) = (&x, &y) {
                    self.note_zone(*z);
                    return Ok(Value::Bool(
                        self.s
                            .cards
                            .get(*c as usize)
                            .is_some_and(|cs| cs.zone == *z),
                    ));
                }
                let l = self.as_list(y, b.span)?;
                self.charge(l.len(), span)?;
                return Ok(Value::Bool(l.contains(&x)));
            }
            BinOp::Concat => return self.concat(x, y, a.span, b.span, span),
            _ => {}
        }
        let (Value::Int(i), Value::Int(j)) = (&x, &y) else {
            if matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
                return Ok(Value::Bool(self.order(op, &x, &y, span)?));
            }
            return Err(self.err(
                span,
                format!(
                    "cannot apply `{}` to {} and {}",
                    op.symbol(),
                    self.describe(&x),
                    self.describe(&y)
                ),
            ));
        };
        let (i, j) = (*i, *j);
        let overflow = || "arithmetic overflow".to_string();
        Ok(match op {
            BinOp::Add => Value::Int(i.checked_add(j).ok_or_else(|| self.err(span, overflow()))?),
            BinOp::Sub => Value::Int(i.checked_sub(j).ok_or_else(|| self.err(span, overflow()))?),
            BinOp::Mul => Value::Int(i.checked_mul(j).ok_or_else(|| self.err(span, overflow()))?),
            BinOp::Div | BinOp::Rem => {
                if j == 0 {
                    return Err(self.err(span, "division by zero".into()));
                }
                let q = i.checked_div(j).ok_or_else(|| self.err(span, overflow()))?;
                let r = i - q * j;
                // Round down (towards minus infinity).
                let (q, r) = if r != 0 && ((r < 0) != (j < 0)) {
                    (q - 1, r + j)
                } else {
                    (q, r)
                };
                Value::Int(if op == BinOp::Div { q } else { r })
            }
            BinOp::Lt => Value::Bool(i < j),
            BinOp::Le => Value::Bool(i <= j),
            BinOp::Gt => Value::Bool(i > j),
            BinOp::Ge => Value::Bool(i >= j),
            _ => return Err(self.err(span, format!("unexpected operator `{}`", op.symbol()))),
        })
    }
}
