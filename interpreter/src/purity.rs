//! Lowering stage: which user functions are pure (their value depends only on their arguments, `you`,
//! `this` and the state, and evaluating them changes nothing), so the engine may remember a call's
//! value while no statement runs, as when it lists the options of a menu.

use crate::program::{Builtin, Expr, ExprKind, Program, StmtKind};

/// One flag per function of the program (see `pure_fns`), and one per `check` block: whether it is
/// made only of `if`s without `else` whose conditions are pure (`Program::guarded_checks`).
pub fn analyse(p: &Program) -> (Vec<bool>, Vec<bool>) {
    let (fns, props) = pure_fns(p);
    let checks = p
        .checks
        .iter()
        .map(|body| {
            p.blocks.get(body.block.index()).is_some_and(|b| {
                b.stmts.iter().all(|st| match &st.kind {
                    StmtKind::If(branches, None) => {
                        branches.iter().all(|(c, _)| pure(c, &fns, &props))
                    }
                    _ => false,
                })
            })
        })
        .collect();
    (fns, checks)
}

/// One flag per function and one per property of the program. Impure: a function that draws at
/// random (`random`), reads a pile (reading the top of a zone with a refill may reshuffle), or
/// calls, or reads a property whose value calls, something impure.
fn pure_fns(p: &Program) -> (Vec<bool>, Vec<bool>) {
    let mut fns = vec![true; p.fns.len()];
    let mut props = vec![true; p.props.len()];
    loop {
        let mut changed = false;
        for (i, f) in p.fns.iter().enumerate() {
            if fns[i] && !pure(&f.body, &fns, &props) {
                fns[i] = false;
                changed = true;
            }
        }
        for (i, d) in p.props.iter().enumerate() {
            if !props[i] {
                continue;
            }
            let ok = pure(&d.default, &fns, &props)
                && p.kinds.iter().all(|k| {
                    k.props
                        .get(i)
                        .and_then(|e| e.as_ref())
                        .is_none_or(|e| pure(e, &fns, &props))
                });
            if !ok {
                props[i] = false;
                changed = true;
            }
        }
        if !changed {
            return (fns, props);
        }
    }
}

fn pure(e: &Expr, fns: &[bool], props: &[bool]) -> bool {
    let here = match &e.kind {
        ExprKind::Pile { .. } | ExprKind::Builtin(Builtin::Random, _) => false,
        ExprKind::CallFn(f, _) => fns.get(f.index()).copied().unwrap_or(false),
        ExprKind::Prop(pid, _) => props.get(pid.index()).copied().unwrap_or(false),
        _ => true,
    };
    let mut all = here;
    if all {
        e.children(&mut |c| all = all && pure(c, fns, props));
    }
    all
}

#[cfg(test)]
mod tests {
    use crate::check::check_source;

    #[test]
    fn random_piles_and_what_reads_them_are_impure() {
        let src = r#"
game "Purity" { players 2 }
property weight: int = 0
property luck: int = random([1, 2])
zone deck per player: pile, hidden, refill from discard
zone discard per player: pile
card "A" { copies 2 weight 3 }
fn heavy(p: player): int = sum(c.weight for c in p.deck)
fn twice(p: player): int = heavy(p) * 2
fn lucky(p: player): int = sum(c.luck for c in p.deck)
fn peek(p: player): card = top of p.deck
fn odd(): int = random([1, 3])
fn odder(): int = odd() + 1
setup { move box to seat(1).deck }
flow { win [seat(1)] "x" }
check { if twice(active) + lucky(active) + odder() < 0 and peek(active) == none { win [active] "y" } }
"#;
        let checked = check_source(src);
        let p = checked.program.expect("the script checks");
        let flags: Vec<(&str, bool)> = p
            .fns
            .iter()
            .map(|f| f.name.as_str())
            .zip(p.pure_fns.iter().copied())
            .collect();
        assert_eq!(
            flags,
            vec![
                ("heavy", true),
                ("twice", true),
                ("lucky", false),
                ("peek", false),
                ("odd", false),
                ("odder", false)
            ]
        );
    }

    #[test]
    fn checks_made_of_pure_ifs_are_guarded() {
        let src = r#"
game "Guards" { players 2 }
zone deck: pile, hidden
card "A" { copies 3 }
var goal: int = 2
var x: int = 0
fn many(): int = count(deck)
setup { move box to deck }
check { if many() >= 4 { win [seat(1)] "four" } else if x == 1 { win [seat(2)] "x" } }
check { if count(take(deck, 1)) == 7 { win [seat(2)] "seven" } }
check { if random([1, 2]) == 3 { win [seat(2)] "three" } }
check {
  let n = many()
  if n == 9 { win [seat(2)] "nine" }
}
check { if x == 1 { x = 2 } else { x = 3 } }
check { if many() / (x - 3) == 0 { win [seat(2)] "never" } }
flow {
  turn seat(1) { goal = 3 }
  win [seat(1)] "flow"
}
"#;
        let p = check_source(src).program.expect("the script checks");
        assert_eq!(
            p.guarded_checks,
            vec![true, true, false, false, false, true]
        );
        // The fifth check sets x to 3, so the last divides by zero: a guard that fails runs the
        // check, which reports the error.
        let g =
            crate::engine::Game::new(std::sync::Arc::new(p), crate::engine::GameConfig::new(2, 1));
        match g.status() {
            crate::engine::Status::Error(e) => {
                assert!(e.message.contains("division by zero"), "{}", e.message)
            }
            s => panic!("{s:?}"),
        }
    }
}
