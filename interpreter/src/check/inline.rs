//! Lowering stage: small functions are copied into their call sites, so that a helper like
//! `fn is_noble(c: card): bool = c is "Duke" or c is "Senator"` costs no call at run time.
//!
//! Only a function already lowered (declared earlier in the file), small, and called with arguments
//! that are free to copy and cannot fail (locals, constants, `you`, `active`, `this`) is copied. Its
//! binders (`for`-style aggregates, `let`) get fresh slots of the caller's frame, reserved for the
//! copy (a binder is always written before it is read, as in the function's own fresh frame). Its
//! body keeps its spans, so a runtime error still names the line of the function. The result is the
//! same value the call would give: a function sees the caller's `you` and `this`, as the copy does.

use crate::program::{Expr, ExprKind, FnDef};

/// The largest body (in expression nodes) copied into a call site.
const MAX_NODES: usize = 32;

/// The body of `def` with its parameters replaced by `args`, when the call may be inlined.
/// `fresh(n)` reserves `n` slots of the caller's frame, one after the other, for the body's binders
/// and gives the first (`None`: none are left).
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
    if !args.iter().all(copyable) || nodes(&def.body) > MAX_NODES {
        return None;
    }
    let params = def.params.len() as u16;
    let binders = def.slots - params;
    let base = if binders > 0 { fresh(binders)? } else { 0 };
    let mut body = def.body.clone();
    substitute(&mut body, args, params, base);
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
        // `dukes_in(z)` first), `dukes_in(z)` 4. `dukes_in(first([pile]))` is called: its argument
        // is not free to copy.
        let flow = p.flow.expect("a flow");
        let text = format!("{:?}", p.blocks[flow.block.index()]);
        assert_eq!(text.matches("CallFn").count(), 1, "{text}");
        for slot in 1..=4 {
            assert!(
                text.contains(&format!("slot: {slot},")),
                "slot {slot}: {text}"
            );
        }
        assert!(!text.contains("slot: 5,"), "{text}");
        assert!(flow.slots >= 5, "{}", flow.slots);
        let g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        match g.status() {
            Status::Over(o) => assert_eq!(o.reason, "three nobles"),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn a_copied_function_gives_what_its_call_gives() {
        // The same script with every call kept as a call (`zz` is never free to copy): the same end.
        let called = SRC
            .replace("let z = pile", "let zz = [pile]")
            .replace(
                "both(z) + dukes_in(z)",
                "both(first(zz)) + dukes_in(first(zz))",
            )
            .replace(
                "nobles() == 3",
                "count(c in pile where noble(first([c]))) == 3",
            );
        let p = check_source(&called).program.expect("the script checks");
        let flow = p.flow.expect("a flow");
        let text = format!("{:?}", p.blocks[flow.block.index()]);
        assert_eq!(text.matches("CallFn").count(), 4, "{text}");
        let g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        match g.status() {
            Status::Over(o) => assert_eq!(o.reason, "three nobles"),
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
