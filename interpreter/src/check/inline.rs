//! Lowering stage: small functions are copied into their call sites, so that a helper like
//! `fn is_noble(c: card): bool = c is "Duke" or c is "Senator"` costs no call at run time.
//!
//! Only a function already lowered (declared earlier in the file), with no binder of its own (no
//! `for`-style aggregate: its only locals are its parameters), small, and called with arguments that
//! are free to copy and cannot fail (locals, constants, `you`, `active`, `this`) is copied. Its body
//! keeps its spans, so a runtime error still names the line of the function. The result is the same
//! value the call would give: a function sees the caller's `you` and `this`, as the copy does.

use crate::program::{Expr, ExprKind, FnDef};

/// The largest body (in expression nodes) copied into a call site.
const MAX_NODES: usize = 32;

/// The body of `def` with its parameters replaced by `args`, when the call may be inlined.
pub(crate) fn inline_call(def: &FnDef, args: &[Expr]) -> Option<Expr> {
    if def.slots as usize != def.params.len() || args.len() != def.params.len() {
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
    let mut body = def.body.clone();
    substitute(&mut body, args);
    Some(body)
}

/// Expression nodes in a tree.
fn nodes(e: &Expr) -> usize {
    let mut n = 1;
    e.children(&mut |c| n += nodes(c));
    n
}

fn substitute(e: &mut Expr, args: &[Expr]) {
    if let ExprKind::Local(i) = e.kind {
        if let Some(a) = args.get(i as usize) {
            e.kind = a.kind.clone();
        }
        return;
    }
    e.children_mut(&mut |c| substitute(c, args));
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
fn half(n: int): int = n / zero
setup { move box to pile }
flow {
  if nobles() == 3 { win [seat(1)] "three nobles" }
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
        // `nobles()` has a binder of its own: the flow still calls it.
        let flow = p.flow.expect("a flow");
        let text = format!("{:?}", p.blocks[flow.block.index()]);
        assert!(text.contains("CallFn"), "{text}");
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
            !text.contains("CallFn(FnId(2)"),
            "half(4) is copied: {text}"
        );
        let g = Game::new(Arc::new(p), GameConfig::new(2, 1));
        match g.status() {
            Status::Error(e) => {
                assert_eq!(e.line, 8, "{}", e.message);
                assert!(e.message.contains("division by zero"), "{}", e.message);
            }
            s => panic!("{s:?}"),
        }
    }
}
