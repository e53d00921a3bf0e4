//! Engine stage: compiling an expression's fast paths into typed closures (see `fast/mod.rs`): one
//! method per way an expression is evaluated, each mirroring the walker's steps (eval.rs,
//! builtins.rs) node by node, and declining (`None`) any form it does not cover.

use super::{BoolFn, Code, Fast, FastFn, IntFn, ValueFn, ZoneFn};
use crate::engine::eval::{MAX_LIST, MAX_RANGE};
use crate::engine::exec::Mach;
use crate::engine::state::SeatList;
use crate::engine::watch::Dep;
use crate::program::{
    Aggregate, BinOp, Builtin, Expr, ExprKind, Field, FnId, Program, Ty, UnOp, VarId,
};
use crate::value::Value;
use cardgame_grammar::ast::{Position, Scope};

/// Compiles the fast paths of an expression (none for a constant or a local, which the walker reads
/// at once, and for forms not covered).
pub(super) fn compile(p: &Program, e: &Expr) -> Option<Box<Code>> {
    let mut c = Compiler {
        p,
        calling: Vec::new(),
        depth: 0,
    };
    let (int, cond, truth, zone, value) = match shape(p, e) {
        Shape::Number => (c.int(e), None, None, None, None),
        Shape::Truth => (None, c.cond(e), c.truth(e), None, None),
        Shape::Zone => (None, None, None, c.zone(e), None),
        // A constant, a local, `you` and `active` are read at once by the walker (`leaf`).
        Shape::Other
            if matches!(
                e.kind,
                ExprKind::Const(_) | ExprKind::Local(_) | ExprKind::You | ExprKind::Active
            ) =>
        {
            return None
        }
        Shape::Other => (None, None, None, None, c.value(e)),
    };
    let height = [
        int.as_ref().map(|f| f.height),
        cond.as_ref().map(|f| f.height),
        truth.as_ref().map(|f| f.height),
        zone.as_ref().map(|f| f.height),
        value.as_ref().map(|f| f.height),
    ]
    .into_iter()
    .flatten()
    .max()?;
    Some(Box::new(Code {
        height,
        int: int.map(|f| f.run),
        cond: cond.map(|f| f.run),
        truth: truth.map(|f| f.run),
        zone: zone.map(|f| f.run),
        value: value.map(|f| f.run),
    }))
}

#[derive(PartialEq)]
pub(super) enum Shape {
    Number,
    Truth,
    Zone,
    Other,
}

/// What an expression worth compiling gives, by its form and the declared types it reads (a
/// constant or a local is read at once by the walker: nothing to gain).
pub(super) fn shape(p: &Program, e: &Expr) -> Shape {
    let of_ty = |t: &Ty| match t {
        Ty::Int => Shape::Number,
        Ty::Bool => Shape::Truth,
        _ => Shape::Other,
    };

    match &e.kind {
        _ if number_shaped(e) => Shape::Number,
        ExprKind::Binary(
            BinOp::And
            | BinOp::Or
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::Eq
            | BinOp::Ne,
            ..,
        )
        | ExprKind::Unary(UnOp::Not, _)
        | ExprKind::IsKind(..)
        | ExprKind::IsTag(..)
        | ExprKind::Binary(BinOp::In, ..)
        | ExprKind::Aggregate {
            op: Aggregate::Any | Aggregate::All,
            ..
        }
        | ExprKind::Field(Field::FaceUp, _) => Shape::Truth,
        ExprKind::Field(Field::X | Field::Y, _) => Shape::Number,
        ExprKind::CallFn(f, _) => p.fns.get(f.index()).map_or(Shape::Other, |d| of_ty(&d.ret)),
        ExprKind::PlayerVar(v, _) | ExprKind::CardVar(v, _) | ExprKind::Global(v) => {
            p.vars.get(v.index()).map_or(Shape::Other, |d| of_ty(&d.ty))
        }
        ExprKind::Prop(pid, _) => p
            .props
            .get(pid.index())
            .map_or(Shape::Other, |d| of_ty(&d.ty.ty())),
        ExprKind::If(_, a, _) | ExprKind::Let(_, _, a) => shape(p, a),
        ExprKind::Zone(..) => Shape::Zone,
        _ => Shape::Other,
    }
}

/// The deepest a compilation goes (through nested expressions and the bodies of the functions they
/// call) before it declines: no fast path could run deeper than the walker's nesting limit anyway.
const MAX_COMPILE_DEPTH: u32 = crate::engine::eval::MAX_DEPTH;

pub(super) struct Compiler<'p> {
    pub(super) p: &'p Program,
    /// The functions whose bodies are being compiled (a recursive call is left to the walker).
    pub(super) calling: Vec<FnId>,
    /// How deep the compilation is now.
    pub(super) depth: u32,
}

/// Notes a read while a check's guard is recorded, as the walker's `note_expr` does for the node.
#[inline(always)]
pub(super) fn read(m: &mut Mach, d: Dep) {
    if m.s.recording {
        m.note(d);
    }
}

/// One step of work, as the walker's `charge(1)` (the budget is tested once, at the end).
#[inline(always)]
pub(super) fn step(m: &mut Mach) {
    m.s.exec_count += 1;
}

impl Compiler<'_> {
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        if self.depth >= MAX_COMPILE_DEPTH {
            return None;
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// `a OP b` with both operands as values, as the walker's `binary` (eval.rs) starts it: the node,
    /// both values, and the shorter of two lists counted; `then` makes the result of the two values.
    #[allow(clippy::type_complexity)]
    fn binary_of<T: 'static>(
        &mut self,
        a: &Expr,
        b: &Expr,
        then: impl for<'a, 'b> Fn(&'b mut Mach<'a>, Value, Value) -> Option<T> + Send + Sync + 'static,
    ) -> Option<Fast<Box<dyn for<'a, 'b> Fn(&'b mut Mach<'a>) -> Option<T> + Send + Sync>>> {
        let (a, b) = (self.value(a)?, self.value(b)?);
        let h = 2 + a.height.max(b.height);
        let (fa, fb) = (a.run, b.run);
        Some(fast(
            h,
            Box::new(move |m| {
                step(m);
                let (x, y) = (fa(m)?, fb(m)?);
                if let (Value::List(l1), Value::List(l2)) = (&x, &y) {
                    m.s.exec_count += l1.len().min(l2.len()) as u64;
                }
                then(m, x, y)
            }),
        ))
    }

    /// A number, as `eval` gives it.
    pub(super) fn int(&mut self, e: &Expr) -> Option<Fast<IntFn>> {
        self.nested(|c| c.int_node(e))
    }

    fn int_node(&mut self, e: &Expr) -> Option<Fast<IntFn>> {
        Some(match &e.kind {
            ExprKind::Const(Value::Int(i)) => {
                let i = *i;
                fast(0, Box::new(move |_| Some(i)))
            }
            ExprKind::Local(s) => {
                let s = *s;
                fast(
                    1,
                    Box::new(move |m| match local(m, s) {
                        Some(Value::Int(i)) => Some(*i),
                        _ => None,
                    }),
                )
            }
            // A player's number (`you.coins`): the value node's reads and work, without a value.
            ExprKind::PlayerVar(v, pe) => {
                let (who, h) = self.who(pe)?;
                let v = *v;
                fast(
                    2 + h,
                    Box::new(move |m| {
                        let i = player_var(m, &who, v)?;
                        match m.s.pvars.get(i) {
                            Some(Value::Int(n)) => Some(*n),
                            _ => None,
                        }
                    }),
                )
            }
            // A constant number property of the card a local holds (`c.cost`), from the table of
            // constant numbers where the kind has one.
            ExprKind::Prop(pid, ce) if matches!(ce.kind, ExprKind::Local(_)) => {
                let ExprKind::Local(s) = ce.kind else {
                    return None;
                };
                let pid = pid.index();
                fast(
                    3,
                    Box::new(move |m| {
                        let kind = kind_of_local(m, s)?;
                        if pid < m.l.nprops {
                            if let Some(Some(n)) = m.l.prop_int.get(kind * m.l.nprops + pid) {
                                return Some(*n);
                            }
                        }
                        match m.const_prop(kind, pid)? {
                            Value::Int(n) => Some(n),
                            _ => None,
                        }
                    }),
                )
            }
            // A number variable of the card a local holds (`c.boost`): the value node's reads and
            // work, without a value.
            ExprKind::CardVar(v, ce) if matches!(ce.kind, ExprKind::Local(_)) => {
                card_var_as(*v, ce, Value::as_int)?
            }
            ExprKind::Global(_)
            | ExprKind::Option(_)
            | ExprKind::Column(_)
            | ExprKind::CardVar(..)
            | ExprKind::Field(..)
            | ExprKind::Prop(..) => to_int(self.value(e)?),
            ExprKind::Players => fast(
                1,
                Box::new(|m| {
                    step(m);
                    Some(m.s.players as i64)
                }),
            ),
            ExprKind::TurnNumber => fast(
                1,
                Box::new(|m| {
                    read(m, Dep::Turn);
                    step(m);
                    Some(m.s.turn as i64)
                }),
            ),
            ExprKind::Binary(
                op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
                a,
                b,
            ) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                let h = 2 + a.height.max(b.height);
                let (fa, fb) = (a.run, b.run);
                let run: IntFn = match op {
                    BinOp::Add => Box::new(move |m| {
                        step(m);
                        fa(m)?.checked_add(fb(m)?)
                    }),
                    BinOp::Sub => Box::new(move |m| {
                        step(m);
                        fa(m)?.checked_sub(fb(m)?)
                    }),
                    BinOp::Mul => Box::new(move |m| {
                        step(m);
                        fa(m)?.checked_mul(fb(m)?)
                    }),
                    _ => {
                        let div = *op == BinOp::Div;
                        Box::new(move |m| {
                            step(m);
                            let (i, j) = (fa(m)?, fb(m)?);
                            let q = i.checked_div(j)?;
                            let r = i - q * j;
                            // Round down (towards minus infinity), as the walker.
                            let (q, r) = if r != 0 && ((r < 0) != (j < 0)) {
                                (q - 1, r + j)
                            } else {
                                (q, r)
                            };
                            Some(if div { q } else { r })
                        })
                    }
                };
                fast(h, run)
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let x = self.int(x)?;
                let f = x.run;
                fast(
                    2 + x.height,
                    Box::new(move |m| {
                        step(m);
                        f(m)?.checked_neg()
                    }),
                )
            }
            ExprKind::If(c, a, b) => if_else(self.cond(c)?, self.int(a)?, self.int(b)?),
            ExprKind::Let(slot, v, b) => let_in(*slot, self.any_value(v)?, self.int(b)?),
            ExprKind::Aggregate {
                op,
                value,
                slot,
                list,
                filter,
            } => self.aggregate(*op, value.as_deref(), *slot, list, filter.as_deref())?,
            ExprKind::Builtin(Builtin::Size, args)
                if args.len() == 1
                    && matches!(&args[0].kind, ExprKind::Builtin(Builtin::Cards, c) if c.len() == 2) =>
            {
                let ExprKind::Builtin(_, cargs) = &args[0].kind else {
                    return None;
                };
                let (k, l) = (self.value(&cargs[0])?, self.value(&cargs[1])?);
                let h = 3 + k.height.max(l.height);
                let (fk, fl) = (k.run, l.run);
                fast(
                    h,
                    Box::new(move |m| {
                        // The count's node and the call of `cards` (builtins.rs, `call_of_kind`).
                        step(m);
                        step(m);
                        let k = fk(m)?;
                        let k = kind_arg(m, k)?;
                        let l = fl(m)?;
                        Some(copies_of_kind(m, k, &l)? as i64)
                    }),
                )
            }
            ExprKind::Builtin(Builtin::Size, args) if args.len() == 1 => {
                match self.zone(&args[0]) {
                    Some(z) => {
                        let f = z.run;
                        fast(
                            2 + z.height,
                            Box::new(move |m| {
                                step(m);
                                let z = f(m)?;
                                Some(m.s.zones[z as usize].cards.len() as i64)
                            }),
                        )
                    }
                    // The length of a list (a zone's cards, `none` none: builtins.rs, nothing counted).
                    None => {
                        let v = self.value(&args[0])?;
                        let f = v.run;
                        fast(
                            2 + v.height,
                            Box::new(move |m| {
                                step(m);
                                match f(m)? {
                                    Value::List(l) => Some(l.len() as i64),
                                    Value::Zone(z) => {
                                        m.note_zone(z);
                                        Some(m.s.zones.get(z as usize)?.cards.len() as i64)
                                    }
                                    Value::None => Some(0),
                                    _ => None,
                                }
                            }),
                        )
                    }
                }
            }
            ExprKind::Builtin(b @ (Builtin::Max2 | Builtin::Min2), args) if args.len() == 2 => {
                let (a, c) = (self.int(&args[0])?, self.int(&args[1])?);
                let h = 2 + a.height.max(c.height);
                let (fa, fc) = (a.run, c.run);
                let max = *b == Builtin::Max2;
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let (i, j) = (fa(m)?, fc(m)?);
                        Some(if max { i.max(j) } else { i.min(j) })
                    }),
                )
            }
            // `abs(n)` (builtins.rs: the node, its argument; an overflow is the walker's error).
            ExprKind::Builtin(Builtin::Abs, args) if args.len() == 1 => {
                let a = self.int(&args[0])?;
                let (h, fa) = (2 + a.height, a.run);
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        fa(m)?.checked_abs()
                    }),
                )
            }
            ExprKind::CallFn(..) if shape(self.p, e) == Shape::Number => self.call_int(e)?,
            _ => return None,
        })
    }

    /// A built-in applied by the walker's code (`Mach::apply_builtin`, builtins.rs) to its arguments'
    /// values: the node's step, the arguments in order, then the built-in's own work and errors (an
    /// error gives up, and the walker reports it).
    fn builtin_value(&mut self, b: Builtin, args: &[Expr]) -> Option<Fast<ValueFn>> {
        let mut fs = Vec::with_capacity(args.len());
        let mut h = 0;
        for a in args {
            let f = self.value(a)?;
            h = h.max(f.height);
            fs.push(f.run);
        }
        // Errors give up, so the spans they would name do not matter.
        let span = args.first().map(|a| a.span).unwrap_or_default();
        Some(fast(
            2 + h,
            Box::new(move |m| {
                if b == Builtin::Eliminated {
                    read(m, Dep::Eliminated);
                }
                step(m);
                let vals = super::calls::arguments(m, &fs)?;
                let r = m.apply_builtin(b, &|_| span, &vals, span);
                m.s.give_back(vals);
                r.ok()
            }),
        ))
    }

    /// A truth, as `eval_bool` gives it (its own quick forms charge nothing for the node).
    pub(super) fn cond(&mut self, e: &Expr) -> Option<Fast<BoolFn>> {
        let general = self.nested(|c| c.cond_node(e))?;
        // `and`, `or` and `not` of tag and kind tests of one local (`c is Attack or c is Spell`)
        // count no work for a card and depend on its kind alone: a table of the kinds that pass,
        // the general closure for anything but a card.
        if matches!(
            e.kind,
            ExprKind::Binary(BinOp::And | BinOp::Or, ..) | ExprKind::Unary(UnOp::Not, _)
        ) {
            if let Some((slot, table)) =
                crate::engine::closures::kind_formula_slot(e).and_then(|slot| {
                    let table = crate::engine::closures::kind_table(self.p, e, slot)?;
                    Some((slot, table))
                })
            {
                let f = general.run;
                return Some(fast(
                    general.height,
                    Box::new(move |m| match local(m, slot) {
                        Some(&Value::Card(c)) => {
                            let kind = m.s.cards.get(c as usize)?.kind as usize;
                            table.get(kind).copied()
                        }
                        _ => f(m),
                    }),
                ));
            }
        }
        Some(general)
    }

    fn cond_node(&mut self, e: &Expr) -> Option<Fast<BoolFn>> {
        Some(match &e.kind {
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let (a, b) = (self.cond(a)?, self.cond(b)?);
                let h = 1 + a.height.max(b.height);
                let (fa, fb) = (a.run, b.run);
                if *op == BinOp::And {
                    fast(h, Box::new(move |m| Some(fa(m)? && fb(m)?)))
                } else {
                    fast(h, Box::new(move |m| Some(fa(m)? || fb(m)?)))
                }
            }
            ExprKind::Unary(UnOp::Not, x) => {
                let x = self.cond(x)?;
                let f = x.run;
                fast(1 + x.height, Box::new(move |m| Some(!f(m)?)))
            }
            ExprKind::IsKind(x, k, negated) if matches!(x.kind, ExprKind::Local(_)) => {
                let ExprKind::Local(s) = x.kind else {
                    return None;
                };
                let (k, negated) = (k.0, *negated);
                fast(
                    2,
                    Box::new(move |m| {
                        let is = match local(m, s) {
                            Some(Value::Card(c)) => m.s.cards.get(*c as usize)?.kind == k,
                            // The walker's general path: the node is charged.
                            Some(Value::Kind(x)) => {
                                let is = *x == k;
                                step(m);
                                is
                            }
                            _ => {
                                step(m);
                                return Some(false);
                            }
                        };
                        Some(is != negated)
                    }),
                )
            }
            ExprKind::IsTag(x, t, negated) if matches!(x.kind, ExprKind::Local(_)) => {
                let ExprKind::Local(s) = x.kind else {
                    return None;
                };
                let (t, negated) = (*t, *negated);
                fast(
                    2,
                    Box::new(move |m| {
                        let has = match local(m, s) {
                            Some(Value::Card(c)) => {
                                let kind = m.s.cards.get(*c as usize)?.kind;
                                m.p.kinds
                                    .get(kind as usize)
                                    .is_some_and(|k| k.tags.binary_search(&t).is_ok())
                            }
                            Some(Value::Kind(k)) => {
                                let k = *k;
                                step(m);
                                m.p.kinds
                                    .get(k as usize)
                                    .is_some_and(|k| k.tags.binary_search(&t).is_ok())
                            }
                            Some(Value::Tag(x)) => {
                                let x = *x;
                                step(m);
                                x == t.0
                            }
                            _ => {
                                step(m);
                                return Some(false);
                            }
                        };
                        Some(has != negated)
                    }),
                )
            }
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                fast(
                    1 + a.height.max(b.height),
                    compare(*op, a.run, b.run, false),
                )
            }
            _ => self.truth(e)?,
        })
    }

    /// A truth, as `eval` gives it.
    pub(super) fn truth(&mut self, e: &Expr) -> Option<Fast<BoolFn>> {
        self.nested(|c| c.truth_node(e))
    }

    fn truth_node(&mut self, e: &Expr) -> Option<Fast<BoolFn>> {
        Some(match &e.kind {
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let (a, b) = (self.cond(a)?, self.cond(b)?);
                let h = 2 + a.height.max(b.height);
                let (fa, fb) = (a.run, b.run);
                if *op == BinOp::And {
                    fast(
                        h,
                        Box::new(move |m| {
                            step(m);
                            Some(fa(m)? && fb(m)?)
                        }),
                    )
                } else {
                    fast(
                        h,
                        Box::new(move |m| {
                            step(m);
                            Some(fa(m)? || fb(m)?)
                        }),
                    )
                }
            }
            // An order is of numbers (or of lists, whose fast paths give up: the walker's then); an
            // equality is of numbers when one side is surely a number.
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                fast(2 + a.height.max(b.height), compare(*op, a.run, b.run, true))
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if number_shaped(a) || number_shaped(b) =>
            {
                let (a, b) = (self.int(a)?, self.int(b)?);
                fast(2 + a.height.max(b.height), compare(*op, a.run, b.run, true))
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let (a, b) = (self.value(a)?, self.value(b)?);
                let h = 2 + a.height.max(b.height);
                let (fa, fb) = (a.run, b.run);
                let eq = *op == BinOp::Eq;
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let (x, y) = (fa(m)?, fb(m)?);
                        // Lists cost their length to compare: the walker's path.
                        if matches!(x, Value::List(_)) || matches!(y, Value::List(_)) {
                            return None;
                        }
                        Some((x == y) == eq)
                    }),
                )
            }
            ExprKind::Binary(BinOp::In, a, b) => {
                self.binary_of(a, b, |m, x, y| match (&x, &y) {
                    (Value::Card(c), Value::Zone(z)) => {
                        m.note_zone(*z);
                        Some(m.s.cards.get(*c as usize).is_some_and(|cs| cs.zone == *z))
                    }
                    (_, Value::List(l)) => {
                        m.s.exec_count += l.len() as u64;
                        Some(l.contains(&x))
                    }
                    (_, Value::None) => Some(false),
                    _ => None,
                })?
            }
            ExprKind::Unary(UnOp::Not, x) => {
                let x = self.truth(x)?;
                let f = x.run;
                fast(
                    2 + x.height,
                    Box::new(move |m| {
                        step(m);
                        Some(!f(m)?)
                    }),
                )
            }
            ExprKind::IsKind(x, k, negated) => {
                let x = self.value(x)?;
                let (f, k, negated) = (x.run, k.0, *negated);
                fast(
                    2 + x.height,
                    Box::new(move |m| {
                        step(m);
                        let is = match f(m)? {
                            Value::Card(c) => {
                                m.s.cards.get(c as usize).is_some_and(|cs| cs.kind == k)
                            }
                            Value::Kind(x) => x == k,
                            _ => return Some(false),
                        };
                        Some(is != negated)
                    }),
                )
            }
            ExprKind::IsTag(x, t, negated) => {
                let x = self.value(x)?;
                let (f, t, negated) = (x.run, *t, *negated);
                fast(
                    2 + x.height,
                    Box::new(move |m| {
                        step(m);
                        let tagged = |m: &Mach, k: usize| {
                            m.p.kinds
                                .get(k)
                                .is_some_and(|k| k.tags.binary_search(&t).is_ok())
                        };
                        let has = match f(m)? {
                            Value::Card(c) => {
                                let kind = m.s.cards.get(c as usize).map(|cs| cs.kind as usize);
                                kind.is_some_and(|k| tagged(m, k))
                            }
                            Value::Kind(k) => tagged(m, k as usize),
                            Value::Tag(x) => x == t.0,
                            _ => return Some(false),
                        };
                        Some(has != negated)
                    }),
                )
            }
            ExprKind::If(c, a, b) => if_else(self.cond(c)?, self.truth(a)?, self.truth(b)?),
            ExprKind::Let(slot, v, b) => let_in(*slot, self.any_value(v)?, self.truth(b)?),
            // A truth variable of the card a local holds (`s.faces_left`), as the number's above.
            ExprKind::CardVar(v, ce) if matches!(ce.kind, ExprKind::Local(_)) => {
                card_var_as(*v, ce, Value::as_bool)?
            }
            ExprKind::Const(_)
            | ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Option(_)
            | ExprKind::Column(_)
            | ExprKind::PlayerVar(..)
            | ExprKind::CardVar(..)
            | ExprKind::Field(..)
            | ExprKind::Prop(..) => to_bool(self.value(e)?),
            ExprKind::Aggregate {
                op: op @ (Aggregate::Any | Aggregate::All),
                value,
                slot,
                list,
                filter,
            } => self.any_all(*op, value.as_deref(), *slot, list, filter.as_deref())?,
            ExprKind::CallFn(..) if shape(self.p, e) == Shape::Truth => self.call_truth(e)?,
            _ => return None,
        })
    }

    /// Any value, as `eval` gives it: the forms above, and the simple reads.
    /// A built-in of one seat (`opponents(p)`, `left(p)`): as builtins.rs starts it, the living seats
    /// noted, the node, the argument as a seat; `then` gives the value.
    fn of_seat(
        &mut self,
        arg: &Expr,
        then: impl for<'a, 'b> Fn(&'b mut Mach<'a>, u8) -> Option<Value> + Send + Sync + 'static,
    ) -> Option<Fast<ValueFn>> {
        let a = self.value(arg)?;
        let (h, fa) = (2 + a.height, a.run);
        Some(fast(
            h,
            Box::new(move |m| {
                read(m, Dep::Eliminated);
                step(m);
                let v = fa(m)?;
                let p = player(m, v)?;
                then(m, p)
            }),
        ))
    }

    /// A built-in of a list and a number (`L[k]`, `take(L, k)`): the node, both arguments, the list's
    /// length (a zone's cards counted as it is read as a list); `then` gets the list, its length
    /// and the number.
    #[allow(clippy::type_complexity)]
    fn list_and_int(
        &mut self,
        list: &Expr,
        k: &Expr,
        then: impl for<'a, 'b> Fn(&'b mut Mach<'a>, Value, usize, i64) -> Option<Value>
            + Send
            + Sync
            + 'static,
    ) -> Option<Fast<ValueFn>> {
        let (l, k) = (self.value(list)?, self.int(k)?);
        let h = 2 + l.height.max(k.height);
        let (fl, fk) = (l.run, k.run);
        Some(fast(
            h,
            Box::new(move |m| {
                step(m);
                let l = fl(m)?;
                let k = fk(m)?;
                let n = list_len(m, &l)?;
                then(m, l, n, k)
            }),
        ))
    }

    pub(super) fn value(&mut self, e: &Expr) -> Option<Fast<ValueFn>> {
        self.nested(|c| c.value_node(e))
    }

    /// `e` as `eval` gives it, whatever its type: a number, a truth or a zone by their own paths.
    pub(super) fn any_value(&mut self, e: &Expr) -> Option<Fast<ValueFn>> {
        Some(match shape(self.p, e) {
            Shape::Number => {
                let f = self.int(e)?;
                let run = f.run;
                fast(f.height, Box::new(move |m| run(m).map(Value::Int)))
            }
            Shape::Truth => {
                let f = self.truth(e)?;
                let run = f.run;
                fast(f.height, Box::new(move |m| run(m).map(Value::Bool)))
            }
            Shape::Zone => {
                let f = self.zone(e)?;
                let run = f.run;
                fast(f.height, Box::new(move |m| run(m).map(Value::Zone)))
            }
            Shape::Other => self.value(e)?,
        })
    }

    fn value_node(&mut self, e: &Expr) -> Option<Fast<ValueFn>> {
        Some(match &e.kind {
            ExprKind::Const(v) => {
                let v = v.clone();
                fast(0, Box::new(move |_| Some(v.clone())))
            }
            ExprKind::Local(s) => {
                let s = *s;
                fast(
                    1,
                    Box::new(move |m| Some(local(m, s).cloned().unwrap_or_default())),
                )
            }
            ExprKind::You => fast(
                1,
                Box::new(|m| {
                    read(m, Dep::Active);
                    let you = m.you();
                    Some(Value::Player(you.unwrap_or(m.s.active)))
                }),
            ),
            ExprKind::Active => fast(
                1,
                Box::new(|m| {
                    read(m, Dep::Active);
                    Some(Value::Player(m.s.active))
                }),
            ),
            // Every space of the board, in order (a list made each time, as the walker's).
            ExprKind::Spaces => fast(
                1,
                Box::new(|m| {
                    step(m);
                    let n = m.l.spaces.len();
                    Some(Value::list(
                        (0..n).map(|i| Value::Space(i as u16)).collect(),
                    ))
                }),
            ),
            // The card whose ability, trigger or property runs (`none` outside one): a node of its
            // own for the walker, one step.
            ExprKind::This => fast(
                1,
                Box::new(|m| {
                    step(m);
                    Some(m.this().map(Value::Card).unwrap_or_default())
                }),
            ),
            ExprKind::Global(v) => {
                let v = *v;
                fast(
                    1,
                    Box::new(move |m| {
                        read(m, Dep::Var(v.0));
                        step(m);
                        Some(m.s.globals.get(m.l.var(v)).cloned().unwrap_or_default())
                    }),
                )
            }
            ExprKind::Option(o) => {
                let o = o.index();
                fast(
                    1,
                    Box::new(move |m| {
                        step(m);
                        Some(m.l.options.get(o).cloned().unwrap_or_default())
                    }),
                )
            }
            // A column of the player-count table: fixed for the game (eval.rs: one step).
            ExprKind::Column(c) => {
                let c = c.index();
                fast(
                    1,
                    Box::new(move |m| {
                        step(m);
                        Some(m.l.columns.get(c).cloned().unwrap_or_default())
                    }),
                )
            }
            ExprKind::PlayerVar(v, pe) => {
                let (who, h) = self.who(pe)?;
                let v = *v;
                fast(
                    2 + h,
                    Box::new(move |m| {
                        let i = player_var(m, &who, v)?;
                        Some(m.s.pvars.get(i).cloned().unwrap_or_default())
                    }),
                )
            }
            ExprKind::Field(f, x) => {
                let x = self.value(x)?;
                let (fx, f) = (x.run, *f);
                fast(
                    2 + x.height,
                    Box::new(move |m| {
                        if let Field::Owner | Field::Zone | Field::FaceUp = f {
                            read(m, Dep::Moves);
                        }
                        step(m);
                        let v = fx(m)?;
                        if let Field::X | Field::Y = f {
                            let Value::Space(s) = v else {
                                return None;
                            };
                            let (sx, sy) = *m.l.spaces.get(s as usize)?;
                            return Some(Value::Int(if f == Field::X { sx } else { sy }));
                        }
                        let Value::Card(c) = v else {
                            return None;
                        };
                        let cs = m.s.cards.get(c as usize)?;
                        Some(match f {
                            Field::Kind => Value::Kind(cs.kind),
                            Field::Owner => {
                                m.s.card_owner(c).map(Value::Player).unwrap_or_default()
                            }
                            Field::Zone => Value::Zone(cs.zone),
                            _ => Value::Bool(cs.face_up),
                        })
                    }),
                )
            }
            // The card's tag in a group (eval.rs, `TagOf`).
            ExprKind::TagOf(g, x) => {
                let x = self.value(x)?;
                let (fx, g) = (x.run, *g);
                fast(
                    2 + x.height,
                    Box::new(move |m| {
                        step(m);
                        let Value::Card(c) = fx(m)? else {
                            return None;
                        };
                        let kind = m.s.cards.get(c as usize)?.kind as usize;
                        let p = m.p;
                        let tags = p.kinds.get(kind).map_or(&[][..], |k| k.tags.as_slice());
                        Some(
                            tags.iter()
                                .find(|t| p.tags.get(t.index()).map(|d| d.group) == Some(g))
                                .map(|t| Value::Tag(t.0))
                                .unwrap_or_default(),
                        )
                    }),
                )
            }
            ExprKind::CardVar(v, ce) => {
                let ce = self.value(ce)?;
                let (f, v) = (ce.run, *v);
                fast(
                    2 + ce.height,
                    Box::new(move |m| {
                        read(m, Dep::Var(v.0));
                        step(m);
                        let Value::Card(c) = f(m)? else {
                            return None;
                        };
                        if c as usize >= m.s.cards.len() {
                            return None;
                        }
                        let i = c as usize * m.l.n_cvars + m.l.var(v);
                        Some(m.s.cvars.get(m.l, i).cloned().unwrap_or_default())
                    }),
                )
            }
            // A constant property of the card a local holds.
            ExprKind::Prop(pid, ce) if matches!(ce.kind, ExprKind::Local(_)) => {
                let ExprKind::Local(s) = ce.kind else {
                    return None;
                };
                let pid = pid.index();
                fast(
                    3,
                    Box::new(move |m| {
                        let kind = kind_of_local(m, s)?;
                        m.const_prop(kind, pid)
                    }),
                )
            }
            ExprKind::CallFn(..) => self.call_value(e)?,
            // `cards(K, L)` and `distinct(L)` of a list (builtins.rs: the node, its arguments, then
            // the list's length as work; a zone is also listed, its length read first).
            ExprKind::Builtin(Builtin::Cards, args) if args.len() == 2 => {
                let (k, l) = (self.value(&args[0])?, self.value(&args[1])?);
                let h = 2 + k.height.max(l.height);
                let (fk, fl) = (k.run, l.run);
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let (kv, lv) = (fk(m)?, fl(m)?);
                        let k = kind_arg(m, kv)?;
                        let cards = &m.s.cards;
                        let of_kind = |c: u32| cards.get(c as usize).is_some_and(|cs| cs.kind == k);
                        let (out, work): (Vec<Value>, usize) = match &lv {
                            Value::Zone(z) => {
                                let zc = &m.s.zones.get(*z as usize)?.cards;
                                let out = zc.iter().rev().copied().filter(|&c| of_kind(c));
                                (out.map(Value::Card).collect(), 2 * zc.len())
                            }
                            Value::List(l) => {
                                let out = l
                                    .iter()
                                    .filter(|v| matches!(v, Value::Card(c) if of_kind(*c)));
                                (out.cloned().collect(), l.len())
                            }
                            Value::None => (Vec::new(), 0),
                            _ => return None,
                        };
                        if let Value::Zone(z) = lv {
                            m.note_zone(z);
                        }
                        m.s.exec_count += work as u64;
                        Some(Value::list(out))
                    }),
                )
            }
            ExprKind::Aggregate {
                op:
                    op @ (Aggregate::Filter
                    | Aggregate::TakeWhile
                    | Aggregate::Map
                    | Aggregate::Flatten
                    | Aggregate::Sort),
                value,
                slot,
                list,
                filter,
            } => self.list_aggregate(*op, value.as_deref(), *slot, list, filter.as_deref())?,
            // `L1 + L2` of lists or zones (`concat` in lists.rs: the node, both lengths read, a zone's
            // cards counted as it is read, then every item copied).
            ExprKind::Binary(BinOp::Concat, a, b) => self.binary_of(a, b, |m, x, y| {
                let (n1, n2) = (list_len(m, &x)?, list_len(m, &y)?);
                if n1 + n2 > MAX_LIST {
                    return None;
                }
                m.s.exec_count += (n1 + n2) as u64;
                // A list made just before (the left side of a chain `a + b + c`) grows in place, as
                // in the walker; nothing to add leaves it as it is.
                let mut out = match x {
                    Value::List(l) => l,
                    x => {
                        let mut out = Vec::with_capacity(n1 + n2);
                        push_items(m, &x, &mut out)?;
                        std::sync::Arc::new(out)
                    }
                };
                if n2 > 0 {
                    push_items(m, &y, std::sync::Arc::make_mut(&mut out))?;
                }
                Some(Value::List(out))
            })?,
            // `if C then L1 else L2` of any values (the walker's `If`: the node, the condition, one
            // branch).
            ExprKind::If(c, a, b) => if_else(self.cond(c)?, self.value(a)?, self.value(b)?),
            ExprKind::Let(slot, v, b) => let_in(*slot, self.any_value(v)?, self.any_value(b)?),
            // `opponents(p)` and `from(p)`: the living seats after p (from p) clockwise; a participant's
            // are the living seats from seat 1 (builtins.rs).
            ExprKind::Builtin(b @ (Builtin::Opponents | Builtin::From), args)
                if args.len() == 1 =>
            {
                let from = *b == Builtin::From;
                self.of_seat(&args[0], move |m, p| {
                    Some(m.s.seat_list(if from {
                        SeatList::From(p)
                    } else {
                        SeatList::Opponents(p)
                    }))
                })?
            }
            // `everyone`: the living seats from seat 1 (eval.rs: the node).
            ExprKind::Everyone => fast(
                1,
                Box::new(|m| {
                    read(m, Dep::Eliminated);
                    step(m);
                    Some(m.s.seat_list(SeatList::Everyone))
                }),
            ),
            // `top of Z` and `bottom of Z`: the card there (zones.rs `pile`: the node, then the
            // zone). An empty zone (which a refill may fill first) is the walker's, and so is a
            // pile read while a check's reads are recorded (it makes the record unusable).
            ExprKind::Pile {
                position,
                count: None,
                zone,
            } => {
                let z = self.zone(zone)?;
                let (h, fz, top) = (1 + z.height, z.run, *position == Position::Top);
                fast(
                    h,
                    Box::new(move |m| {
                        if m.s.recording {
                            return None;
                        }
                        step(m);
                        let z = fz(m)?;
                        let cards = &m.s.zones.get(z as usize)?.cards;
                        let c = if top { cards.last() } else { cards.first() };
                        Some(Value::Card(*c?))
                    }),
                )
            }
            // `[a, b, c]`: the node, then every item (eval.rs).
            ExprKind::List(items) => {
                let mut fs = Vec::with_capacity(items.len());
                let mut h = 0;
                for i in items {
                    let f = self.value(i)?;
                    h = h.max(f.height);
                    fs.push(f.run);
                }
                fast(
                    1 + h,
                    Box::new(move |m| {
                        step(m);
                        let mut out = Vec::with_capacity(fs.len());
                        for f in &fs {
                            out.push(f(m)?);
                        }
                        Some(Value::list(out))
                    }),
                )
            }
            // `left(p)` and `right(p)`: the next living seat clockwise or anticlockwise; none for a
            // participant (builtins.rs).
            ExprKind::Builtin(b @ (Builtin::Left | Builtin::Right), args) if args.len() == 1 => {
                let left = *b == Builtin::Left;
                self.of_seat(&args[0], move |m, p| Some(m.s.neighbour(p, left)))?
            }
            // `neighbours(s)`: the space's list, made when the game was created (builtins.rs: one
            // step for the call; anything but a space is the walker's error).
            ExprKind::Builtin(Builtin::Neighbours, args) if args.len() == 1 => {
                let f = self.value(&args[0])?;
                let (h, fs) = (f.height, f.run);
                fast(
                    2 + h,
                    Box::new(move |m| {
                        step(m);
                        match fs(m)? {
                            Value::Space(s) => m.l.neighbours.get(s as usize).cloned(),
                            _ => None,
                        }
                    }),
                )
            }
            // `a..b`: the numbers from a to b (eval.rs: the node, both ends, then one step per item;
            // a range too long is the walker's error).
            ExprKind::Range(a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                let h = 2 + a.height.max(b.height);
                let (fa, fb) = (a.run, b.run);
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let (a, b) = (fa(m)?, fb(m)?);
                        if b < a {
                            return Some(Value::list(Vec::new()));
                        }
                        if b.saturating_sub(a) > MAX_RANGE {
                            return None;
                        }
                        m.s.exec_count += (b - a) as u64 + 1;
                        // A range makes work out of two numbers: past the budget, the walker
                        // reports it (a loop over ranges would otherwise run on to its end first).
                        if m.s.exec_count > m.s.fixed.max_steps {
                            return None;
                        }
                        Some(Value::list((a..=b).map(Value::Int).collect()))
                    }),
                )
            }
            // `L[k]`: the k-th item of a list, or of a zone's cards top first; none out of range
            // (builtins.rs: the node, both arguments, a zone's cards counted as it is read as a list).
            ExprKind::Builtin(Builtin::Index, args) if args.len() == 2 => {
                self.list_and_int(&args[0], &args[1], |m, l, n, k| {
                    let i = match usize::try_from(k) {
                        Ok(i) if (1..=n).contains(&i) => i,
                        _ => return Some(Value::None),
                    };
                    Some(match &l {
                        Value::List(items) => items.get(i - 1)?.clone(),
                        Value::Zone(z) => {
                            let cards = &m.s.zones.get(*z as usize)?.cards;
                            Value::Card(*cards.get(cards.len() - i)?)
                        }
                        _ => return None,
                    })
                })?
            }
            // `take(L, k)`: the first k items (builtins.rs: the node, both arguments, a zone's cards
            // counted as it is read, then one step per item taken).
            ExprKind::Builtin(Builtin::Take, args) if args.len() == 2 => {
                self.list_and_int(&args[0], &args[1], |m, l, n, k| {
                    let k = usize::try_from(k.max(0)).unwrap_or(usize::MAX).min(n);
                    m.s.exec_count += k as u64;
                    let out: Vec<Value> = match &l {
                        Value::List(items) => items[..k].to_vec(),
                        Value::Zone(z) => {
                            let cards = &m.s.zones.get(*z as usize)?.cards;
                            cards
                                .iter()
                                .rev()
                                .take(k)
                                .map(|&c| Value::Card(c))
                                .collect()
                        }
                        _ => Vec::new(),
                    };
                    Some(Value::list(out))
                })?
            }
            ExprKind::Builtin(Builtin::Distinct, args) if args.len() == 1 => {
                let l = self.value(&args[0])?;
                let (h, fl) = (2 + l.height, l.run);
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let Value::List(l) = fl(m)? else {
                            return None;
                        };
                        m.s.exec_count += l.len() as u64;
                        Some(Value::list(crate::engine::builtins::distinct(&l)))
                    }),
                )
            }
            // Any other built-in but `random` (it draws: a fast path that gave up would draw
            // again) and the numbers (`int` writes them out): the node, its arguments, then the
            // walker's own code on their values.
            ExprKind::Builtin(b, args)
                if !matches!(
                    b,
                    Builtin::Random | Builtin::Size | Builtin::Max2 | Builtin::Min2
                ) =>
            {
                self.builtin_value(*b, args)?
            }
            // Other properties: `int` and `truth` read them through this method, which must not send
            // them back.
            ExprKind::Prop(..) => return None,
            ExprKind::Zone(..) => {
                let z = self.zone(e)?;
                let (h, run) = (z.height, z.run);
                fast(h, Box::new(move |m| run(m).map(Value::Zone)))
            }
            _ => {
                if number_shaped(e) {
                    let f = self.int(e)?;
                    let (h, run) = (f.height, f.run);
                    fast(h, Box::new(move |m| run(m).map(Value::Int)))
                } else {
                    let f = self.truth(e)?;
                    let (h, run) = (f.height, f.run);
                    fast(h, Box::new(move |m| run(m).map(Value::Bool)))
                }
            }
        })
    }

    /// A zone instance, as `eval` gives it.
    pub(super) fn zone(&mut self, e: &Expr) -> Option<Fast<ZoneFn>> {
        self.nested(|c| c.zone_node(e))
    }

    fn zone_node(&mut self, e: &Expr) -> Option<Fast<ZoneFn>> {
        Some(match &e.kind {
            ExprKind::If(c, a, b) => if_else(self.cond(c)?, self.zone(a)?, self.zone(b)?),
            ExprKind::Let(slot, v, b) => let_in(*slot, self.any_value(v)?, self.zone(b)?),
            // Every zone a fast path reads comes from here or is matched as a `Value::Zone`: each is
            // noted while a check's guard is recorded (watch.rs).
            ExprKind::Const(Value::Zone(z)) => {
                let z = *z;
                fast(
                    0,
                    Box::new(move |m| {
                        m.note_zone(z);
                        ((z as usize) < m.s.zones.len()).then_some(z)
                    }),
                )
            }
            ExprKind::Zone(z, holder) => {
                let z = z.index();
                let scope = self.p.zones.get(z)?.scope;
                let holder = match holder {
                    Some(h) => Some(self.who(h)?),
                    None if scope == Scope::Shared => None,
                    None => return None,
                };
                let h = 2 + holder.as_ref().map_or(0, |h| h.1);
                let holder = holder.map(|h| h.0);
                // `zone_of` (zones.rs), its scope known here.
                fast(
                    h,
                    Box::new(move |m| {
                        step(m);
                        let idx = match &holder {
                            Some(who) => who.holder(m, scope)?,
                            None => 0,
                        };
                        if idx >= *m.l.zone_len.get(z)? {
                            return None;
                        }
                        let zi = m.l.zone_base.get(z)? + idx;
                        m.note_zone(zi);
                        ((zi as usize) < m.s.zones.len()).then_some(zi)
                    }),
                )
            }
            _ => return None,
        })
    }
}

/// A value's fast path as a number's (another value: the walker's turn).
fn to_int(v: Fast<ValueFn>) -> Fast<IntFn> {
    let f = v.run;
    fast(
        v.height,
        Box::new(move |m| match f(m)? {
            Value::Int(i) => Some(i),
            _ => None,
        }),
    )
}

/// A value's fast path as a truth's.
fn to_bool(v: Fast<ValueFn>) -> Fast<BoolFn> {
    let f = v.run;
    fast(
        v.height,
        Box::new(move |m| match f(m)? {
            Value::Bool(b) => Some(b),
            _ => None,
        }),
    )
}

pub(super) fn fast<F>(height: u32, run: F) -> Fast<F> {
    Fast { run, height }
}

/// Whether an expression is a number by its form (arithmetic, a count, a sum, a number constant).
pub(super) fn number_shaped(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(Value::Int(_))
        | ExprKind::Players
        | ExprKind::TurnNumber
        | ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, ..)
        | ExprKind::Unary(UnOp::Neg, _)
        | ExprKind::Builtin(Builtin::Size | Builtin::Max2 | Builtin::Min2, _) => true,
        ExprKind::Aggregate { op, .. } => matches!(
            op,
            Aggregate::Count | Aggregate::Sum | Aggregate::Max | Aggregate::Min
        ),
        _ => false,
    }
}

/// A comparison of two numbers; `charged`: the node is a step (as `eval` of it, not `eval_bool`).
fn compare(op: BinOp, a: IntFn, b: IntFn, charged: bool) -> BoolFn {
    Box::new(move |m| {
        if charged {
            step(m);
        }
        let (i, j) = (a(m)?, b(m)?);
        Some(match op {
            BinOp::Lt => i < j,
            BinOp::Le => i <= j,
            BinOp::Gt => i > j,
            BinOp::Ge => i >= j,
            BinOp::Eq => i == j,
            _ => i != j,
        })
    })
}

#[inline(always)]
pub(super) fn local<'m>(m: &'m Mach, slot: u16) -> Option<&'m Value> {
    m.s.ctxs.last()?.locals.get(slot as usize)
}

/// How many items a list, a zone or `none` has, as `list_len` (lists.rs) reads it: a zone's cards are
/// work, and the zone is noted while a guard is recorded. Anything else: the walker's error.
pub(super) fn list_len(m: &mut Mach, v: &Value) -> Option<usize> {
    match v {
        Value::List(l) => Some(l.len()),
        Value::Zone(z) => {
            m.note_zone(*z);
            let n = m.s.zones.get(*z as usize)?.cards.len();
            m.s.exec_count += n as u64;
            Some(n)
        }
        Value::None => Some(0),
        _ => None,
    }
}

/// Appends the items of a list or a zone (its cards, top first); `none` has none.
pub(super) fn push_items(m: &Mach, v: &Value, out: &mut Vec<Value>) -> Option<()> {
    match v {
        Value::List(l) => out.extend(l.iter().cloned()),
        Value::Zone(z) => {
            let cards = &m.s.zones.get(*z as usize)?.cards;
            out.extend(cards.iter().rev().map(|&c| Value::Card(c)));
        }
        Value::None => {}
        _ => return None,
    }
    Some(())
}

/// How many cards of kind `k` list `l` (a zone, a list, or none) holds, as `cards(K, L)` lists them:
/// the zone noted, and the work of the call (a zone's length read, then its cards listed; a list's
/// length). `None`: another value, the walker's error.
pub(super) fn copies_of_kind(m: &mut Mach, k: u16, l: &Value) -> Option<usize> {
    let cards = &m.s.cards;
    let of_kind = |c: u32| cards.get(c as usize).is_some_and(|cs| cs.kind == k);
    let (n, work) = match l {
        Value::Zone(z) => {
            let zc = &m.s.zones.get(*z as usize)?.cards;
            (zc.iter().filter(|&&c| of_kind(c)).count(), 2 * zc.len())
        }
        Value::List(l) => (
            l.iter()
                .filter(|v| matches!(v, Value::Card(c) if of_kind(*c)))
                .count(),
            l.len(),
        ),
        Value::None => (0, 0),
        _ => return None,
    };
    if let Value::Zone(z) = l {
        m.note_zone(*z);
    }
    m.s.exec_count += work as u64;
    Some(n)
}

/// The card kind an argument names: a kind, or a card's kind (`kind_arg` in builtins.rs).
pub(super) fn kind_arg(m: &Mach, v: Value) -> Option<u16> {
    match v {
        Value::Kind(k) => Some(k),
        Value::Card(c) => Some(m.s.cards.get(c as usize)?.kind),
        _ => None,
    }
}

/// A seat, as `eval_player` accepts it.
/// Where a player's variable `v` lies, with the node's read and step (`p.coins`).
#[inline]
fn player_var(m: &mut Mach, who: &Who, v: VarId) -> Option<usize> {
    read(m, Dep::Var(v.0));
    step(m);
    let p = who.seat(m)?;
    Some(p as usize * m.l.n_pvars + m.l.var(v))
}

/// `if C then A else B` of any type (the walker's `If`: the node, the condition, one branch).
/// `let x = V` then B (a function's `let`, eval.rs): the node, V as `eval` gives it into slot `x`,
/// then B.
fn let_in<T: 'static>(slot: u16, v: Fast<ValueFn>, b: Fast<FastFn<T>>) -> Fast<FastFn<T>> {
    let h = 2 + v.height.max(b.height);
    let (fv, fb) = (v.run, b.run);
    fast(
        h,
        Box::new(move |m| {
            step(m);
            let x = fv(m)?;
            m.set_local(slot, x);
            fb(m)
        }),
    )
}

fn if_else<T: 'static>(c: Fast<BoolFn>, a: Fast<FastFn<T>>, b: Fast<FastFn<T>>) -> Fast<FastFn<T>> {
    let h = 2 + c.height.max(a.height).max(b.height);
    let (fc, fa, fb) = (c.run, a.run, b.run);
    fast(
        h,
        Box::new(move |m| {
            step(m);
            if fc(m)? {
                fa(m)
            } else {
                fb(m)
            }
        }),
    )
}

/// `CardVar(v, Local(s))` as a `T` (a number, a truth) by `from`, or `None` when `ce` is not a local.
fn card_var_as<T: 'static>(
    v: VarId,
    ce: &Expr,
    from: impl Fn(&Value) -> Option<T> + Send + Sync + 'static,
) -> Option<Fast<FastFn<T>>> {
    let ExprKind::Local(s) = ce.kind else {
        return None;
    };
    Some(fast(
        3,
        Box::new(move |m| from(card_var_of_local(m, v, s)?)),
    ))
}

/// Variable `v` of the card local `s` holds, with the reads and work of the value node of
/// `CardVar(v, Local(s))` (the variable noted, one step; reading the local counts nothing).
#[inline(always)]
fn card_var_of_local<'m>(m: &'m mut Mach, v: VarId, s: u16) -> Option<&'m Value> {
    read(m, Dep::Var(v.0));
    step(m);
    let Some(&Value::Card(c)) = local(m, s) else {
        return None;
    };
    if c as usize >= m.s.cards.len() {
        return None;
    }
    let i = c as usize * m.l.n_cvars + m.l.var(v);
    m.s.cvars.get(m.l, i)
}

/// The kind of the card local `s` holds, with the step of the property node that reads it.
#[inline]
fn kind_of_local(m: &mut Mach, s: u16) -> Option<usize> {
    step(m);
    let Some(Value::Card(c)) = local(m, s) else {
        return None;
    };
    Some(m.s.cards.get(*c as usize)?.kind as usize)
}

/// How a holder (a player, a card, a space) is read: a local, `you` and `active` directly, anything
/// else by its value's fast path. The same reads and work as that fast path.
pub(super) enum Who {
    Local(u16),
    You,
    Active,
    Value(ValueFn),
}

impl Who {
    /// A seat (or participant), as `player` of the value.
    #[inline]
    pub(super) fn seat(&self, m: &mut Mach) -> Option<u8> {
        match self {
            Who::Local(s) => match local(m, *s)? {
                &Value::Player(p) if p < m.s.players.saturating_add(m.s.participants) => Some(p),
                _ => None,
            },
            Who::You | Who::Active => {
                let v = self.simple(m);
                player(m, v)
            }
            Who::Value(f) => {
                let v = f(m)?;
                player(m, v)
            }
        }
    }

    /// `you` or `active`, noted as their value nodes note them.
    #[inline]
    fn simple(&self, m: &mut Mach) -> Value {
        read(m, Dep::Active);
        let p = match self {
            Who::You => m.you().unwrap_or(m.s.active),
            _ => m.s.active,
        };
        Value::Player(p)
    }

    /// The index of the holder's instance of a zone of this scope.
    #[inline]
    pub(super) fn holder(&self, m: &mut Mach, scope: Scope) -> Option<u32> {
        let v = match self {
            Who::Local(s) => {
                return match (scope, local(m, *s)?) {
                    (Scope::Shared, _) => Some(0),
                    (Scope::PerPlayer, &Value::Player(p)) => Some(p as u32),
                    (Scope::PerCard, &Value::Card(c)) => Some(c),
                    (Scope::PerSpace, &Value::Space(s)) => Some(s as u32),
                    _ => None,
                };
            }
            Who::You | Who::Active => self.simple(m),
            Who::Value(f) => f(m)?,
        };
        match (scope, v) {
            (Scope::Shared, _) => Some(0),
            (Scope::PerPlayer, Value::Player(p)) => Some(p as u32),
            (Scope::PerCard, Value::Card(c)) => Some(c),
            (Scope::PerSpace, Value::Space(s)) => Some(s as u32),
            _ => None,
        }
    }
}

impl Compiler<'_> {
    /// A holder's reader and the height of its value node.
    pub(super) fn who(&mut self, e: &Expr) -> Option<(Who, u32)> {
        Some(match e.kind {
            ExprKind::Local(s) => (Who::Local(s), 1),
            ExprKind::You => (Who::You, 1),
            ExprKind::Active => (Who::Active, 1),
            _ => {
                let v = self.value(e)?;
                (Who::Value(v.run), v.height)
            }
        })
    }
}

#[inline]
pub(super) fn player(m: &Mach, v: Value) -> Option<u8> {
    match v {
        Value::Player(p) if p < m.s.players.saturating_add(m.s.participants) => Some(p),
        _ => None,
    }
}

#[inline]
pub(super) fn fold(op: Aggregate, v: i64, sum: &mut i64, best: &mut Option<i64>) -> Option<()> {
    match op {
        Aggregate::Sum => *sum = sum.checked_add(v)?,
        Aggregate::Max => *best = Some(best.map_or(v, |b| b.max(v))),
        _ => *best = Some(best.map_or(v, |b| b.min(v))),
    }
    Some(())
}
