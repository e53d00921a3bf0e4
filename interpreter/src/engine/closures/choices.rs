//! Engine stage (closures): the candidates of a `choose`, listed by value closures.
//!
//! The decision is the walker's (decide.rs); the list of its candidates, the items of its domain
//! that pass its filter, is made by the domain's value closure (value.rs) and the filter's word
//! closure, each item written in the binder's slot as a word, compiled where the `choose` (or the
//! `simultaneously` choosing one) stands in its block (the frame's types known there). Where one
//! cannot answer, the walker lists them. The condition of a `while` whose body paused is tested
//! alike where the walker's loop frame goes on (`holds`), refilling or drawing as the loop's, and
//! so is the `where` filter of a `for`'s next items.

use super::each::{item, item_type};
use super::env::Env;
use super::expr::{compile, Int};
use super::stmts::{Regs, Sx};
use super::value::{list, Items};
use crate::engine::exec::Mach;
use crate::program::{Expr, Ty};
use crate::value::Value;

/// The list a `choose` ranges over: walked where it lies (items.rs), or made (value.rs).
enum List {
    Walked(super::items::Items),
    Made(Items),
}

/// A `choose`'s domain and filter compiled.
pub(crate) struct Domain {
    list: List,
    filter: Option<Int>,
    /// The binder's local, and its slot.
    var: u16,
    slot: usize,
    /// The type of the domain's items.
    ty: Ty,
    /// The number of a `simultaneously`'s `choose N` or `up to N`, each seat's.
    count: Option<Int>,
    /// The slots the closures read, loaded from the walker's context.
    reads: u32,
}

/// Compiles the domain and the filter of a `choose` (`None`: the walker lists its candidates),
/// its binder `var`, and a `simultaneously`'s number of items each seat chooses, `count`.
pub(super) fn compile_domain(
    sx: &mut Sx,
    var: u16,
    domain: &Expr,
    filter: Option<&Expr>,
    count: Option<&Expr>,
) -> Option<Domain> {
    let outer = std::mem::take(&mut sx.cx.reads);
    let domain = (|| {
        let (items, ty) = match super::items::items(&mut sx.cx, domain) {
            Ok((walked, ty)) => (List::Walked(walked), ty),
            Err(_) => (
                List::Made(list(&mut sx.cx, domain).ok()?),
                item_type(&sx.cx, domain)?,
            ),
        };
        // The walker writes items of this type to the binder either way.
        sx.cx.set_type(var, ty.clone());
        let slot = sx.cx.slot(var).ok()?;
        let filter = match filter {
            Some(f) => Some(compile(&mut sx.cx, f).ok()?),
            None => None,
        };
        // The number, where it compiles (else the walker's).
        let count = count
            .filter(|n| super::stmts::type_of(&sx.cx, n) == Some(Ty::Int))
            .and_then(|n| compile(&mut sx.cx, n).ok());
        Some(Domain {
            list: items,
            filter,
            var,
            slot,
            ty,
            count,
            reads: 0,
        })
    })();
    let reads = sx.cx.reads;
    sx.cx.reads |= outer;
    domain.map(|d| Domain { reads, ..d })
}

/// The condition of a `while` or the filter of a `for` compiled, tested where the walker's loop
/// frame goes on after its body paused (a decision in the body): its word closure, the refill of a pile it reads first or
/// whether it draws inside (as the compiled loop's, `draws::condition`), and the slots it reads.
pub(crate) struct Condition {
    test: Int,
    refill: Option<super::piles::Refill>,
    drawing: bool,
    reads: u32,
}

/// Compiles the condition of a `while` where it stands in its block (`None`: the walker tests it).
pub(super) fn compile_condition(sx: &mut Sx, c: &Expr) -> Option<Condition> {
    let outer = std::mem::take(&mut sx.cx.reads);
    let test = super::draws::condition(sx, c).ok();
    let reads = sx.cx.reads;
    sx.cx.reads |= outer;
    let (test, refill, drawing) = test?;
    Some(Condition {
        test,
        refill,
        drawing,
        reads,
    })
}

/// Compiles the `where` filter of `for slot in list` where the loop stands in its block, its
/// local of the list's item type as the compiled loop's (each.rs), tested where the walker's loop
/// frame goes on after its body paused (`None`: the walker tests it). The local's type is left as
/// it was: the loop's statement is compiled after it, its list first.
pub(super) fn compile_filter(sx: &mut Sx, slot: u16, list: &Expr, f: &Expr) -> Option<Condition> {
    let t = item_type(&sx.cx, list)?;
    let before = (sx.cx.types.clone(), sx.cx.given.clone());
    let outer = std::mem::take(&mut sx.cx.reads);
    sx.cx.set_type(slot, t);
    let test = sx.cx.slot(slot).and_then(|_| compile(&mut sx.cx, f)).ok();
    let reads = sx.cx.reads;
    sx.cx.reads |= outer;
    (sx.cx.types, sx.cx.given) = before;
    Some(Condition {
        test: test?,
        refill: None,
        drawing: false,
        reads,
    })
}

/// Whether condition `c` holds, its pile refilled first or its draws kept as the compiled loop's
/// (`draws::tested`; `None`: a closure could not answer, the walker tests it).
pub(crate) fn holds(c: &Condition, m: &mut Mach) -> Option<bool> {
    let mut regs = Regs::loaded(m, c.reads);
    let holds = super::draws::tested(m, &mut regs, c.refill.as_ref(), c.drawing, &c.test);
    holds.map(|w| w != 0)
}

/// The candidates of `d`, as the walker's `domain` lists them: the domain's items that pass the
/// filter, the binder left holding the last item tested.
pub(crate) fn candidates(d: &Domain, m: &mut Mach) -> Option<Vec<Value>> {
    let mut regs = Regs::loaded(m, d.reads);
    let mut env = Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots);
    let mut out = Vec::new();
    // The binder's last item, where a filter was run.
    let last = match &d.list {
        List::Walked(items) => {
            let mut last = None;
            items.each(&mut env, |env, w| {
                if let Some(f) = &d.filter {
                    env.slots[d.slot] = w;
                    last = Some(w);
                    if f(env)? == 0 {
                        return Some(true);
                    }
                }
                out.push(super::stmts::value(&d.ty, w));
                Some(true)
            })?;
            last.map(|w| super::stmts::value(&d.ty, w))
        }
        List::Made(made) => {
            let items = made(&mut env)?;
            out.reserve(items.len());
            for v in items.iter() {
                if let Some(f) = &d.filter {
                    env.slots[d.slot] = item(&d.ty, v)?;
                    if f(&mut env)? == 0 {
                        continue;
                    }
                }
                out.push(v.clone());
            }
            d.filter.as_ref().and(items.last().cloned())
        }
    };
    if let Some(last) = last {
        m.set_local(d.var, last);
    }
    #[cfg(test)]
    {
        m.s.probe.counted.values += 1;
    }
    Some(out)
}

/// The number of items a seat of a `simultaneously` chooses, by its closure (`None`: not compiled,
/// or it could not answer; the walker evaluates it).
pub(crate) fn count(d: &Domain, m: &mut Mach) -> Option<i64> {
    let mut regs = Regs::loaded(m, d.reads);
    super::stmts::eval(m, &mut regs, d.count.as_ref()?)
}
