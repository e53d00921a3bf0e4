//! Engine stage (closures): the candidates of a `choose`, listed by value closures.
//!
//! The decision is the walker's (decide.rs); the list of its candidates, the items of its domain
//! that pass its filter, is made by the domain's value closure (value.rs) and the filter's word
//! closure, each item written in the binder's slot as a word, compiled where the `choose` stands
//! in its block (the frame's types known there). Where one cannot answer, the walker lists them.

use super::each::{item, item_type};
use super::env::Env;
use super::expr::{compile, Int};
use super::stmts::{Regs, Sx};
use super::value::{list, Items};
use crate::engine::exec::Mach;
use crate::program::{Choose, Ty};
use crate::value::Value;

/// A `choose`'s domain and filter compiled.
pub(crate) struct Domain {
    list: Items,
    filter: Option<Int>,
    /// The binder's local, and its slot.
    var: u16,
    slot: usize,
    /// The type of the domain's items.
    ty: Ty,
    /// The slots the closures read, loaded from the walker's context.
    reads: u32,
}

/// Compiles the domain and the filter of `ch` (`None`: the walker lists its candidates).
pub(super) fn compile_domain(sx: &mut Sx, ch: &Choose) -> Option<Domain> {
    let outer = std::mem::take(&mut sx.cx.reads);
    let domain = (|| {
        let items = list(&mut sx.cx, &ch.domain).ok()?;
        let ty = item_type(&sx.cx, &ch.domain)?;
        // The walker writes items of this type to the binder either way.
        sx.cx.set_type(ch.var, ty.clone());
        let slot = sx.cx.slot(ch.var).ok()?;
        let filter = match &ch.filter {
            Some(f) => Some(compile(&mut sx.cx, f).ok()?),
            None => None,
        };
        Some(Domain {
            list: items,
            filter,
            var: ch.var,
            slot,
            ty,
            reads: 0,
        })
    })();
    let reads = sx.cx.reads;
    sx.cx.reads |= outer;
    domain.map(|d| Domain { reads, ..d })
}

/// The candidates of `d`, as the walker's `domain` lists them: the domain's items that pass the
/// filter, the binder left holding the last item tested.
pub(crate) fn candidates(d: &Domain, m: &mut Mach) -> Option<Vec<Value>> {
    let mut regs = Regs::loaded(m, d.reads);
    let mut env = Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots);
    let items = (d.list)(&mut env)?;
    let mut out = Vec::with_capacity(items.len());
    for v in items.iter() {
        if let Some(f) = &d.filter {
            env.slots[d.slot] = item(&d.ty, v)?;
            if f(&mut env)? == 0 {
                continue;
            }
        }
        out.push(v.clone());
    }
    if let (Some(_), Some(last)) = (&d.filter, items.last()) {
        m.set_local(d.var, last.clone());
    }
    #[cfg(test)]
    {
        m.s.probe.counted.values += 1;
    }
    Some(out)
}
