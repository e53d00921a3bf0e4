//! Lowering stage: which user functions are pure (their value depends only on their arguments, `you`,
//! `this` and the state, and evaluating them changes nothing), so the engine may remember a call's
//! value while no statement runs, as when it lists the options of a menu.

use crate::program::{ActionDef, BinOp, Builtin, ConditionPart, Expr, ExprKind, Program, StmtKind};

/// What the engine may rely on, found once the script is lowered.
pub struct Analysis {
    /// One flag per function: whether it is pure (see `pure_fns`).
    pub fns: Vec<bool>,
    /// One flag per `check` block: whether it is made only of `if`s without `else` whose conditions
    /// are pure (`Program::guarded_checks`).
    pub checks: Vec<bool>,
    /// One list per action: its condition split by parameter (`ActionDef::parts`).
    pub parts: Vec<Vec<ConditionPart>>,
    /// One list per action: which parameters cannot tell identical cards apart
    /// (`ActionDef::interchangeable`).
    pub interchangeable: Vec<Vec<bool>>,
}

pub fn analyse(p: &Program) -> Analysis {
    let (fns, props) = pure_fns(p);
    let parts = p
        .actions
        .iter()
        .map(|a| condition_parts(a, &fns, &props))
        .collect();
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
    let interchangeable =
        crate::interchangeable::interchangeable(p, &|e: &Expr| pure(e, &fns, &props));
    Analysis {
        fns,
        checks,
        parts,
        interchangeable,
    }
}

/// The conjuncts of `a and b and c`, left to right.
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// How many leading parameters (slots 0..n) an expression reads: one more than the highest read.
fn params_read(e: &Expr, n: u16) -> u16 {
    let mut most = match e.kind {
        ExprKind::Local(s) if s < n => s + 1,
        _ => 0,
    };
    e.children(&mut |c| most = most.max(params_read(c, n)));
    most
}

/// An action's condition split by parameter (docs/engine.md at fe8b0bc, stage 1).
fn condition_parts(a: &ActionDef, fns: &[bool], props: &[bool]) -> Vec<ConditionPart> {
    let Some(cond) = &a.condition else {
        return Vec::new();
    };
    let n = a.params.len() as u16;
    let mut list = Vec::new();
    conjuncts(cond, &mut list);
    // Domain m: pure, and the number of parameters it reads.
    let domains: Vec<(bool, u16)> = a
        .params
        .iter()
        .map(|d| (pure(d, fns, props), params_read(d, n)))
        .collect();
    let mut level = 0;
    list.into_iter()
        .map(|e| {
            level = level.max(params_read(e, n));
            let pure = pure(e, fns, props);
            let skip = pure
                && level < n
                && domains
                    .iter()
                    .skip(level as usize + 1)
                    .all(|&(p, reads)| p && reads <= level);
            ConditionPart {
                expr: e.clone(),
                level,
                pure,
                skip,
            }
        })
        .collect()
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

/// The purity of a program's functions and properties (`pure_fns`), judged once, to judge its
/// expressions: whether evaluating one draws nothing at random and reads no pile (evaluating it
/// twice gives the same value and changes nothing).
pub(crate) struct Judged {
    fns: Vec<bool>,
    props: Vec<bool>,
}

impl Judged {
    pub(crate) fn of(p: &Program) -> Judged {
        let (fns, props) = pure_fns(p);
        Judged { fns, props }
    }

    pub(crate) fn pure(&self, e: &Expr) -> bool {
        pure(e, &self.fns, &self.props)
    }
}

fn pure(e: &Expr, fns: &[bool], props: &[bool]) -> bool {
    let here = match &e.kind {
        ExprKind::Pile { .. } | ExprKind::Builtin(Builtin::Random, _) => false,
        ExprKind::CallFn(f, _) => fns.get(f.index()).copied().unwrap_or(false),
        ExprKind::Prop(pid, _) => props.get(pid.index()).copied().unwrap_or(false),
        // Pure in themselves (their operands are judged below). Every kind is named, so that a new
        // one must be judged here.
        ExprKind::Const(_)
        | ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::PlayerVar(..)
        | ExprKind::CardVar(..)
        | ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::TagOf(..)
        | ExprKind::Field(..)
        | ExprKind::Zone(..)
        | ExprKind::Spaces
        | ExprKind::You
        | ExprKind::This
        | ExprKind::Active
        | ExprKind::Players
        | ExprKind::Everyone
        | ExprKind::TurnNumber
        | ExprKind::Participant(_)
        | ExprKind::Unary(..)
        | ExprKind::Binary(..)
        | ExprKind::IsTag(..)
        | ExprKind::IsKind(..)
        | ExprKind::If(..)
        | ExprKind::List(_)
        | ExprKind::Range(..)
        | ExprKind::Aggregate { .. }
        | ExprKind::Text(_)
        | ExprKind::Let(..)
        | ExprKind::Builtin(
            Builtin::Size
            | Builtin::Max2
            | Builtin::Min2
            | Builtin::Abs
            | Builtin::Take
            | Builtin::Index
            | Builtin::Flatten
            | Builtin::First
            | Builtin::Last
            | Builtin::Cards
            | Builtin::Kinds
            | Builtin::Distinct
            | Builtin::Seat
            | Builtin::Left
            | Builtin::Right
            | Builtin::Opponents
            | Builtin::From
            | Builtin::Eliminated
            | Builtin::At
            | Builtin::Neighbours
            | Builtin::Adjacent,
            _,
        ) => true,
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
    /// An action's condition is split into its conjuncts, each with the number of leading parameters
    /// it (and every conjunct before it) reads; a `random` is never remembered.
    #[test]
    fn conditions_are_split_by_the_parameters_they_read() {
        let src = r#"
game "Parts" { players 2 }
var ready: bool = false
action a(x in 0..3, y in 0..x) if ready and x > 0 and x + y > 2 and random([1, 2]) > 0 and ready {
  win [you] "a"
}
flow { actions by seat(1) once [a] }
"#;
        let p = check_source(src).program.expect("the script checks");
        let parts: Vec<(u16, bool, bool)> = p.actions[0]
            .parts
            .iter()
            .map(|c| (c.level, c.pure, c.skip))
            .collect();
        // `y in 0..x` reads x: a false conjunct of level 0 may not skip it (it was not evaluated for
        // every x yet); one of level 1 may (nothing after y).
        assert_eq!(
            parts,
            vec![
                (0, true, false),
                (1, true, true),
                (2, true, false),
                (2, false, false),
                (2, true, false)
            ]
        );
    }

    /// A conjunct that reads no parameter is evaluated once, and when false, ends the listing: a menu
    /// over 300 x 300 arguments costs a few steps, and lists the same options as before.
    #[test]
    fn a_false_conjunct_stops_listing_the_later_parameters() {
        let src = r#"
game "Skip" { players 2 }
var ready: bool = false
action pair(x in 0..299, y in 0..299) label "Pair {x} {y}" if ready and x + y > 596 { win [you] "pair" }
action wait() label "Wait" { ready = true }
flow { turn seat(1) { actions by seat(1) until pass [pair, wait] } }
"#;
        let p = std::sync::Arc::new(check_source(src).program.expect("the script checks"));
        let mut g = crate::engine::Game::new(p, crate::engine::GameConfig::new(2, 1));
        // Listing every pair would evaluate the condition 90,000 times.
        assert!(g.work() < 2_000, "{} steps", g.work());
        assert_eq!(
            g.decision().map(|d| d.options.clone()),
            Some(vec!["Wait".to_string(), "pass".to_string()])
        );
        g.apply(0).expect("applies");
        assert_eq!(
            g.decision().map(|d| d.options.clone()),
            Some(vec![
                "Pair 298 299".to_string(),
                "Pair 299 298".to_string(),
                "Pair 299 299".to_string(),
                "Wait".to_string(),
                "pass".to_string()
            ])
        );
    }

    /// Remembering conjuncts hides no error: the first argument that makes one fail still stops the
    /// game at its line.
    #[test]
    fn remembered_conjuncts_still_report_their_errors() {
        let src = r#"
game "Errors" { players 2 }
action a(x in [1, 0], y in 0..2) if 10 / x > 0 and y >= 0 { win [you] "a" }
flow { actions by seat(1) once [a] }
"#;
        let p = std::sync::Arc::new(check_source(src).program.expect("the script checks"));
        let g = crate::engine::Game::new(p, crate::engine::GameConfig::new(2, 1));
        match g.status() {
            crate::engine::Status::Error(e) => {
                assert!(e.message.contains("division by zero"), "{}", e.message);
                assert_eq!(e.line, 3);
            }
            s => panic!("{s:?}"),
        }
    }
}
