//! Engine stage (code): the root expressions of a program, in one fixed order, for the compiler
//! (which gives each an entry) and for numbering them (`Expr::entry`).
//!
//! A root is an expression that something other than an expression holds: a statement, an action,
//! a function's body, a property, a trigger's condition, a strategy's rule. The order is the
//! order of this file; both walks below are one macro, so they cannot disagree. A test's own
//! expressions (`expect`, `start`) are not roots: the walker evaluates them.

use crate::program::{ChooseCount, Expr, MenuMode, Program, Stmt, StmtKind, Target, TextPartIr};

macro_rules! each_root {
    ($p:expr, $f:expr, $iter:ident, $($borrow:tt)+) => {{
        let p = $p;
        let f = $f;
        for d in p.fns.$iter() {
            f($($borrow)+ d.body);
        }
        for d in p.props.$iter() {
            f($($borrow)+ d.default);
        }
        for k in p.kinds.$iter() {
            for e in k.props.$iter().flatten() {
                f(e);
            }
            for t in k.triggers.$iter() {
                if let Some(c) = $($borrow)+ t.condition {
                    f(c);
                }
            }
        }
        for a in p.actions.$iter() {
            for e in a.params.$iter() {
                f(e);
            }
            if let Some(t) = $($borrow)+ a.label {
                text!(t, f, $iter);
            }
            if let Some(c) = $($borrow)+ a.condition {
                f(c);
            }
            for part in a.parts.$iter() {
                f($($borrow)+ part.expr);
            }
        }
        for t in p.triggers.$iter() {
            if let Some(c) = $($borrow)+ t.condition {
                f(c);
            }
        }
        for b in p.blocks.$iter() {
            for s in b.stmts.$iter() {
                stmt!(s, f, $iter, $($borrow)+);
            }
        }
        for s in p.strategies.$iter() {
            for r in s.rules.$iter() {
                rule!(r, f, $($borrow)+);
            }
        }
        for s in p.rule_sets.$iter() {
            for r in s.rules.$iter() {
                rule!(r, f, $($borrow)+);
            }
        }
    }};
}

macro_rules! text {
    ($t:expr, $f:expr, $iter:ident) => {
        for part in $t.parts.$iter() {
            if let TextPartIr::Expr(x) = part {
                $f(x);
            }
        }
    };
}

macro_rules! rule {
    ($r:expr, $f:expr, $($borrow:tt)+) => {
        if let Some(c) = $($borrow)+ $r.condition {
            $f(c);
        }
        if let Some(c) = $($borrow)+ $r.by {
            $f(c);
        }
    };
}

macro_rules! count {
    ($c:expr, $f:expr) => {
        match $c {
            ChooseCount::Exactly(e) | ChooseCount::UpTo(e) => $f(e),
            ChooseCount::One | ChooseCount::Any | ChooseCount::Order => {}
        }
    };
}

macro_rules! target {
    ($t:expr, $f:expr) => {
        match $t {
            Target::Player(_, e) | Target::Card(_, e) => $f(e),
            Target::Local(_) | Target::Global(_) => {}
        }
    };
}

macro_rules! stmt {
    ($s:expr, $f:expr, $iter:ident, $($borrow:tt)+) => {{
        let s: $($borrow)+ Stmt = $s;
        match $($borrow)+ s.kind {
            StmtKind::Let(_, e)
            | StmtKind::Shuffle(e)
            | StmtKind::Reveal(e, _)
            | StmtKind::While(e, _)
            | StmtKind::Repeat(e, _)
            | StmtKind::Require(e)
            | StmtKind::Return(e)
            | StmtKind::Turn(e, _)
            | StmtKind::Eliminate(e)
            | StmtKind::OutForRound(e)
            | StmtKind::Stat(_, _, e) => $f(e),
            StmtKind::StatAt(_, k, _, e) => {
                $f(k);
                $f(e);
            }
            StmtKind::Choose(_, c) => {
                count!($($borrow)+ c.count, $f);
                $f($($borrow)+ c.domain);
                if let Some(x) = $($borrow)+ c.filter {
                    $f(x);
                }
                if let Some(x) = $($borrow)+ c.by {
                    $f(x);
                }
                if let Some(t) = $($borrow)+ c.prompt {
                    text!(t, $f, $iter);
                }
            }
            StmtKind::Assign(t, _, e) => {
                target!(t, $f);
                $f(e);
            }
            StmtKind::Move { what, to, .. } => {
                $f(what);
                $f(to);
            }
            StmtKind::Pay(e, t) => {
                $f(e);
                target!(t, $f);
            }
            StmtKind::Show(a, b) => {
                $f(a);
                $f(b);
            }
            StmtKind::If(branches, _) => {
                for (c, _) in branches.$iter() {
                    $f(c);
                }
            }
            StmtKind::For { list, filter, .. } => {
                $f(list);
                if let Some(x) = filter {
                    $f(x);
                }
            }
            StmtKind::Loop(_)
            | StmtKind::Break
            | StmtKind::Strict(_)
            | StmtKind::Stop
            | StmtKind::Phase(..)
            | StmtKind::Round(_)
            | StmtKind::EndTurn
            | StmtKind::EndPhase
            | StmtKind::EndRound => {}
            StmtKind::Perform { card, as_card, by, .. } => {
                $f(card);
                if let Some(x) = as_card {
                    $f(x);
                }
                if let Some(x) = by {
                    $f(x);
                }
            }
            StmtKind::Emit(_, args) | StmtKind::Call(_, args) | StmtKind::CallLet(_, _, args) => {
                for a in args.$iter() {
                    $f(a);
                }
            }
            StmtKind::Actions { by, mode, .. } => {
                $f(by);
                if let MenuMode::Times(e) = mode {
                    $f(e);
                }
            }
            StmtKind::ChooseBranch { by, prompt, branches } => {
                if let Some(x) = by {
                    $f(x);
                }
                if let Some(t) = prompt {
                    text!(t, $f, $iter);
                }
                for b in branches.$iter() {
                    text!(b.label, $f, $iter);
                    if let Some(c) = $($borrow)+ b.condition {
                        $f(c);
                    }
                }
            }
            StmtKind::Simultaneously { players, count, domain, filter, prompt, .. } => {
                $f(players);
                count!(count, $f);
                $f(domain);
                if let Some(x) = filter {
                    $f(x);
                }
                if let Some(t) = prompt {
                    text!(t, $f, $iter);
                }
            }
            StmtKind::Win(e, t) | StmtKind::WinTeam(e, t) => {
                $f(e);
                text!(t, $f, $iter);
            }
            StmtKind::Log(t) => text!(t, $f, $iter),
            StmtKind::LogTo(t, p) => {
                text!(t, $f, $iter);
                $f(p);
            }
        }
    }};
}

/// Calls `f` on every root expression of the program, in the order entries are numbered.
pub(super) fn each_root(p: &Program, f: &mut dyn FnMut(&Expr)) {
    each_root!(p, f, iter, &)
}

/// [`each_root`], mutably: the same roots in the same order.
pub(super) fn each_root_mut(p: &mut Program, f: &mut dyn FnMut(&mut Expr)) {
    each_root!(p, f, iter_mut, &mut)
}
