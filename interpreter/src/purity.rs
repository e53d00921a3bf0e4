//! Lowering stage: which user functions are pure (their value depends only on their arguments, `you`,
//! `this` and the state, and evaluating them changes nothing), so the engine may remember a call's
//! value while no statement runs, as when it lists the options of a menu.

use crate::program::{Builtin, Expr, ExprKind, Program};

/// One flag per function of the program. Impure: a function that draws at random (`random`), reads
/// a pile (reading the top of a zone with a refill may reshuffle), or calls, or reads a property
/// whose value calls, something impure.
pub fn pure_fns(p: &Program) -> Vec<bool> {
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
            return fns;
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
}
