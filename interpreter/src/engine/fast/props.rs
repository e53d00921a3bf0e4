//! Engine stage: compiled fast paths of a card's property that some kinds compute (`atk_bonus
//! min(2, others(you, this, Knights))`), read from a card a local holds (see `fast/mod.rs`).
//!
//! The walker (`prop`, eval.rs) reads a property in the table of constant values when the card's
//! kind has one; otherwise it evaluates the kind's expression for the property (or the property's
//! default) in a context of its own, `this` the card and `you` its owner (the active player for a
//! card nobody owns), noting where cards lie and the active player while a check's reads are
//! recorded. Here each kind's expression is compiled once with the property's node, and the
//! closure does the same: the constant when there is one, else the kind's compiled expression in the
//! same context, with the same reads and work. A kind whose expression has no fast path (or is read
//! at once by the walker: a local, `you`, `active`) gives up, as before.

use super::compile::{read, step, Compiler};
use super::{Fast, IntFn, ValueFn};
use crate::engine::exec::Mach;
use crate::engine::state::Ctx;
use crate::engine::watch::Dep;
use crate::program::ExprKind;
use crate::value::Value;

/// How one kind gives a property.
enum KindProp {
    /// Its expression is a constant (the table of constants holds it too).
    Const(Value),
    /// Its compiled expression.
    Code(ValueFn),
    /// Left to the walker.
    Walker,
}

impl Compiler<'_> {
    /// The fast path of `Prop(pid, Local(slot))` when some kind computes the property (`None`: every
    /// kind's value is a constant, or the property is read while another one is compiled; the
    /// caller's closure of constants serves then).
    pub(super) fn computed_prop(&mut self, pid: usize, slot: u16) -> Option<Fast<ValueFn>> {
        let (kinds, height) = self.kind_props(pid)?;
        Some(Fast {
            height,
            run: Box::new(move |m| {
                let (c, kind) = card_of_local(m, slot)?;
                if let Some(v) = m.const_prop(kind, pid) {
                    return Some(v);
                }
                computed(m, c, kinds.get(kind)?)
            }),
        })
    }

    /// The same as a number: the table of constant numbers first, as the closure of constants.
    pub(super) fn computed_prop_int(&mut self, pid: usize, slot: u16) -> Option<Fast<IntFn>> {
        let (kinds, height) = self.kind_props(pid)?;
        Some(Fast {
            height,
            run: Box::new(move |m| {
                let (c, kind) = card_of_local(m, slot)?;
                if pid < m.l.nprops {
                    if let Some(Some(n)) = m.l.prop_int.get(kind * m.l.nprops + pid) {
                        return Some(*n);
                    }
                }
                let v = match m.const_prop(kind, pid) {
                    Some(v) => v,
                    None => computed(m, c, kinds.get(kind)?)?,
                };
                match v {
                    Value::Int(n) => Some(n),
                    _ => None,
                }
            }),
        })
    }

    /// How each kind gives property `pid`, and the height of the property's node (`None`: no kind
    /// computes it, or a property is being compiled already).
    fn kind_props(&mut self, pid: usize) -> Option<(Vec<KindProp>, u32)> {
        // A property's expression reading another computed property is left to the walker: each
        // property node compiles every kind's expression, which must not multiply.
        if self.in_prop {
            return None;
        }
        let p = self.p;
        let default = &p.props.get(pid)?.default;
        self.in_prop = true;
        let mut kinds = Vec::with_capacity(p.kinds.len());
        let mut height = 0;
        let mut computed = false;
        for k in &p.kinds {
            let e = k.props.get(pid).and_then(|o| o.as_ref()).unwrap_or(default);
            kinds.push(match &e.kind {
                ExprKind::Const(v) => KindProp::Const(v.clone()),
                ExprKind::Local(_) | ExprKind::You | ExprKind::Active => KindProp::Walker,
                _ => match self.any_value(e) {
                    Some(f) => {
                        computed = true;
                        height = height.max(f.height);
                        KindProp::Code(f.run)
                    }
                    None => KindProp::Walker,
                },
            });
        }
        self.in_prop = false;
        // The property's node and the card's local, then the expression one level deeper.
        computed.then_some((kinds, 3 + height))
    }
}

/// The card local `slot` holds and its kind, with the step of the property's node.
#[inline(always)]
fn card_of_local(m: &mut Mach, slot: u16) -> Option<(u32, usize)> {
    step(m);
    let Some(&Value::Card(c)) = super::compile::local(m, slot) else {
        return None;
    };
    Some((c, m.s.cards.get(c as usize)?.kind as usize))
}

/// A property no constant gives: where cards lie and the active player are read (noted while a
/// check's reads are recorded), then the kind's expression or constant.
fn computed(m: &mut Mach, c: u32, how: &KindProp) -> Option<Value> {
    read(m, Dep::Moves);
    read(m, Dep::Active);
    match how {
        KindProp::Const(v) => Some(v.clone()),
        KindProp::Code(f) => of_card(m, c, f),
        KindProp::Walker => None,
    }
}

/// A kind's compiled expression for card `c`: `this` the card, `you` its owner or the active
/// player, no locals (the walker's `prop`).
fn of_card(m: &mut Mach, c: u32, f: &ValueFn) -> Option<Value> {
    let you = Some(m.s.card_owner(c).unwrap_or(m.s.active));
    let base = m.s.ctxs.len();
    m.s.ctxs.push(Ctx {
        locals: Vec::new(),
        you,
        this: Some(c),
    });
    let v = f(m);
    m.s.truncate_ctxs(base);
    v
}
