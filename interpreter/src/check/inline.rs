//! Lowering stage: small functions are copied into their call sites, so that a helper like
//! `fn is_noble(c: card): bool = c is "Duke" or c is "Senator"` costs no call at run time.
//!
//! Only a function already lowered (declared earlier in the file) and small is copied. Arguments
//! free to copy that cannot fail (locals, constants, `you`, `active`, `this`) replace the
//! parameters; any other argument is evaluated first, in order, into a slot of its own (`let`), as a
//! call evaluates its arguments before its body. The body's binders (`for`-style aggregates, `let`)
//! get fresh slots of the caller's frame too, reserved for the copy (a binder is always written
//! before it is read, as in the function's own fresh frame). The body keeps its spans, so a runtime
//! error still names the line of the function. The result is the same value the call would give: a
//! function sees the caller's `you` and `this`, as the copy does.

use crate::program::{Expr, ExprKind, FnDef};

/// The largest body (in expression nodes) copied into a call site. (At 128 rather than 32,
/// Crafty Explorers' random games retire 5.7% fewer instructions and Craft the Crown's 1.6% fewer;
/// a copy holds the copies it made of its own calls, so no copy is larger than this.)
const MAX_NODES: usize = 128;

/// The body of `def` with its parameters replaced by `args`, when the call may be inlined.
/// `fresh(n)` reserves `n` slots of the caller's frame, one after the other, for the body's binders
/// and the arguments kept in slots, and gives the first (`None`: none are left).
pub(crate) fn inline_call(
    def: &FnDef,
    args: &[Expr],
    fresh: impl FnOnce(u16) -> Option<u16>,
) -> Option<Expr> {
    if args.len() != def.params.len() || (def.slots as usize) < def.params.len() {
        return None;
    }
    let copyable = |a: &Expr| {
        matches!(
            a.kind,
            ExprKind::Local(_)
                | ExprKind::Const(_)
                | ExprKind::You
                | ExprKind::Active
                | ExprKind::This
        )
    };
    if nodes(&def.body) > MAX_NODES {
        return None;
    }
    let params = def.params.len() as u16;
    let binders = def.slots - params;
    // An argument that is not free to copy is evaluated once, in order, into a slot of its own
    // (`let`), as the call evaluates its arguments before its body.
    let kept = u16::try_from(args.iter().filter(|a| !copyable(a)).count()).ok()?;
    let n = binders.checked_add(kept)?;
    let base = if n > 0 { fresh(n)? } else { 0 };
    let mut lets = Vec::new();
    let args: Vec<Expr> = args
        .iter()
        .map(|a| {
            if copyable(a) {
                return a.clone();
            }
            let slot = base + binders + lets.len() as u16;
            lets.push((slot, a.clone()));
            Expr::new(ExprKind::Local(slot), a.span)
        })
        .collect();
    let mut body = def.body.clone();
    substitute(&mut body, &args, params, base);
    while let Some((slot, v)) = lets.pop() {
        let span = v.span;
        body = Expr::new(ExprKind::Let(slot, Box::new(v), Box::new(body)), span);
    }
    Some(body)
}

/// Expression nodes in a tree.
fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.children(&mut |c| n += nodes(c));
    n
}

/// Replaces the parameters (slots below `params`) by the arguments, and moves the binders' slots to
/// `base` and after.
fn substitute(e: &mut Expr, args: &[Expr], params: u16, base: u16) {
    let moved = |s: u16| base + (s - params);
    match &mut e.kind {
        ExprKind::Local(i) if *i < params => {
            if let Some(a) = args.get(*i as usize) {
                e.kind = a.kind.clone();
            }
            return;
        }
        ExprKind::Local(i) => *i = moved(*i),
        ExprKind::Aggregate { slot, .. } | ExprKind::Let(slot, ..) if *slot >= params => {
            *slot = moved(*slot);
        }
        _ => {}
    }
    e.children_mut(&mut |c| substitute(c, args, params, base));
}

#[cfg(test)]
mod tests {
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Status};
    use crate::program::{ExprKind, Program};
    use std::sync::Arc;

    const SRC: &str = r#"game "Inline" { players 2 }
zone pile: pile
card "Duke" { copies 2 }
card "Maid" { copies 1 }
var zero: int = 0
fn noble(c: card): bool = c is "Duke" or c is "Maid"
fn nobles(): int = count(c in pile where noble(c))
fn dukes_in(z: zone): int = count(c in z where c is "Duke")
fn both(z: zone): int = dukes_in(z) * 10 + count(d in pile where d is "Maid")
fn half(n: int): int = n / zero
setup { move box to pile }
flow {
  let z = pile
  if nobles() == 3 and both(z) + dukes_in(z) == 23 and dukes_in(first([pile])) == 2 {
    win [seat(1)] "three nobles"
  }
  win [seat(2)] "{half(4)}"
}
"#;

    fn body<'a>(p: &'a Program, name: &str) -> &'a ExprKind {
        &p.fns
            .iter()
            .find(|f| f.name == name)
            .expect("declared")
            .body
            .kind
    }

    #[test]
    fn small_functions_are_copied_into_their_call_sites() {
        let p = check_source(SRC).program.expect("the script checks");
        // `noble(c)` became `c is "Duke" or c is "Maid"` inside `nobles`.
        let ExprKind::Aggregate {
            filter: Some(f), ..
        } = body(&p, "nobles")
        else {
            panic!("count with a filter");
        };
        assert!(matches!(f.kind, ExprKind::Binary(..)), "{:?}", f.kind);
        // Functions with binders of their own are copied too, each copy with slots of its own in
        // the flow's frame (after `z`, slot 0): `nobles()` 1, `both(z)` 2 and 3 (its copy of
        // `dukes_in(z)` first), `dukes_in(z)` 4, `dukes_in(first([pile]))` 5 for its binder and 6
        // for its argument, evaluated first (`let`).
        let flow = p.flow.expect("a flow");
        let text = format!("{:?}", p.blocks[flow.block.index()]);
        assert!(!text.contains("CallFn"), "{text}");
        for slot in 1..=5 {
            assert!(
                text.contains(&format!("slot: {slot},")),
                "slot {slot}: {text}"
            );
        }
        assert!(text.contains("Let(6,"), "{text}");
        assert!(flow.slots >= 7, "{}", flow.slots);
        let g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        match g.status() {
            Status::Over(o) => assert_eq!(o.reason, "three nobles"),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn arguments_not_free_to_copy_are_evaluated_once_before_the_body() {
        // `twice(n)` reads its parameter twice: an argument that is not free to copy is evaluated
        // once, into a slot of its own (`let`), and the copies give what the calls give.
        let src = r#"game "Inline" { players 2 }
zone pile: pile
zone hand per player: set
card "Duke" { copies 3 }
fn twice(n: int): int = n * 10 + n + count(pile)
setup { move box to pile }
flow {
  win [seat(1)] "{twice(count(pile) + 0)} {twice(count(seat(1).hand))}"
}
"#;
        let p = check_source(src).program.expect("the script checks");
        let flow = p.flow.expect("a flow");
        let text = format!("{:?}", p.blocks[flow.block.index()]);
        assert!(!text.contains("CallFn"), "{text}");
        assert_eq!(text.matches("Let(").count(), 2, "{text}");
        let g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        match g.status() {
            Status::Over(o) => assert_eq!(o.reason, "36 3"),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn an_error_in_a_copied_body_names_the_function_line() {
        let src = SRC.replace("if nobles() == 3", "if nobles() == 4");
        let p = check_source(&src).program.expect("the script checks");
        let flow = p.flow.expect("a flow");
        let text = format!("{:?}", p.blocks[flow.block.index()]);
        assert!(
            !text.contains("CallFn(FnId(4)"),
            "half(4) is copied: {text}"
        );
        let g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        match g.status() {
            Status::Error(e) => {
                assert_eq!(e.line, 10, "{}", e.message);
                assert!(e.message.contains("division by zero"), "{}", e.message);
            }
            s => panic!("{s:?}"),
        }
    }
}
