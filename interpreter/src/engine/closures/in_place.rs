//! Engine stage (closures): statements that evaluate what is not a word, run in place.
//!
//! A statement whose expressions are not all words (a list kept in a local, a text, `none`) does
//! not compile to word closures (stmts.rs); when it neither pauses nor pushes frames and draws
//! nothing at random, it still runs inside its segment: the walker's own effect, in place, its
//! errors the walker's; and a `log` while nobody records evaluates its parts without building its
//! text (and a draw of `random(L)`, draws.rs). A segment then goes on past it instead of ending
//! there.

use super::env::{word, NONE};
use super::stmts::{Ctl, Step, Sx};
use super::value::{compile_value, eval_value, Val};
use crate::engine::exec::{At, Flow, Mach};
use crate::program::{AssignOp, Builtin, Expr, ExprKind, Stmt, StmtKind, TextIr};
use crate::value::Value;

/// `log` while events are recorded: its text built (by its closures where they answer, as the
/// walker's `text_at`) and the event kept.
pub(super) fn recorded(m: &mut Mach, at: At) -> super::stmts::R<Ctl> {
    let Some(StmtKind::Log(t)) = m.stmt(at).map(|st| &st.kind) else {
        return Ok(Ctl::Walk);
    };
    m.log_event(t, at)?;
    Ok(Ctl::Next)
}

/// `log` of a text that may fail: while nobody records, its parts evaluated in order for their
/// errors and the work `text_into` counts (a list's items), nothing built; recorded, as
/// `recorded`; the walker's effect, which builds the text, when a part is a list holding a list or
/// a text, or when the text could grow past the longest allowed (a part that is a text adds its
/// length). `drawing` (parts that draw inside, compiled drawing: draws.rs): every part by its
/// closure, else nothing is done and the walker runs the statement (`Ctl::Walk`).
pub(super) fn log_of_values(sx: &mut Sx, t: &TextIr, at: At, drawing: bool) -> Step {
    let p = sx.cx.p;
    // Each part's value closure where it compiles (else the walker's `eval`).
    let parts: Vec<(crate::program::Expr, Option<Val>)> = (t.exprs())
        .map(|e| (e.clone(), compile_value(&mut sx.cx, e).ok()))
        .collect();
    let words = t.written_len();
    // The longest text of a value that is not a list or a text (label.rs): a number, a space, a
    // name of the script's, a zone's name with its holder's (a player, or a card and its number).
    let names = (p.kinds.iter().map(|k| k.name.len()))
        .chain(p.tags.iter().map(|t| t.name.len()))
        .chain(p.zones.iter().map(|z| z.name.len()))
        .max()
        .unwrap_or(0);
    Box::new(move |m, regs| {
        let walked = |m: &mut Mach| {
            if drawing {
                return Ok(Ctl::Walk);
            }
            let st = m
                .stmt(at)
                .ok_or_else(|| m.err(m.p.header, "no statement".into()))?;
            #[cfg(test)]
            {
                m.s.probe.counted.walked += 1;
            }
            m.exec_walked(st, at).map(|_| Ctl::Next)
        };
        if m.s.record {
            return recorded(m, at);
        }
        let one = 2 * names + m.s.fixed.names.iter().map(String::len).max().unwrap_or(0) + 64;
        let mut most = words;
        for (e, f) in &parts {
            let v = match f.as_ref().and_then(|f| eval_value(m, regs, f)) {
                Some(v) => v,
                None if drawing => return Ok(Ctl::Walk),
                None => {
                    #[cfg(test)]
                    {
                        m.s.probe.counted.parts_walked += 1;
                    }
                    m.eval_at(crate::engine::sites::Site::InPlace, e)?
                }
            };
            most = match v {
                Value::Text(t) => most.saturating_add(t.len()),
                Value::List(items) => {
                    if (items.iter()).any(|i| matches!(i, Value::List(_) | Value::Text(_))) {
                        return walked(m);
                    }
                    m.charge(items.len(), e.span)?;
                    most.saturating_add(items.len().saturating_mul(one + 2))
                }
                _ => most.saturating_add(one),
            };
            if most > crate::engine::eval::MAX_LIST {
                return walked(m);
            }
        }
        Ok(Ctl::Next)
    })
}

/// A statement that evaluates what is not a word (a list kept in a local, a text, `none`) and
/// neither pauses nor pushes frames (`let`, `=`, `+=`, `-=`, `move`, `reveal`, `show`, `log to`):
/// what it reads by value closures and the walker's own effect with the values (else the walker's
/// whole statement, `exec_walked`), run in place inside the segment, its errors the walker's; a local
/// it writes is copied into its slot as a word, or `NONE`. `None` for any other statement, and for
/// one that may draw at random (`random`, a pile read that refills, `shuffle`; but a pile's cards
/// moved, as the pile moves compiled): a draw is the walker's, at the head of a step of its loop,
/// where a game's factory pauses its template (factory.rs).
pub(super) fn in_place(sx: &mut Sx, st: &Stmt, at: At) -> Option<Step> {
    fn target(t: &crate::program::Target) -> Option<&crate::program::Expr> {
        match t {
            crate::program::Target::Player(_, e) | crate::program::Target::Card(_, e) => Some(e),
            crate::program::Target::Local(_) | crate::program::Target::Global(_) => None,
        }
    }
    // Per statement run in place (every other kind is `None`): what it reads, for its purity;
    // what its effect reads, in the walker's order, by value closures where they all compile (the
    // value given, the cards moved and the zone they go to, the cards revealed, the cards shown and
    // to whom); the expression of a `let` or `=` whose pile is refilled first; the local written.
    type Exprs<'e> = Vec<&'e crate::program::Expr>;
    let (read, reads, refilled, local): (Exprs, Exprs, Option<&crate::program::Expr>, Option<u16>) =
        match &st.kind {
            StmtKind::Let(slot, e) => (vec![e], vec![e], Some(e), Some(*slot)),
            StmtKind::Assign(t, op, e) => {
                let local = match t {
                    crate::program::Target::Local(slot) => Some(*slot),
                    crate::program::Target::Global(_)
                    | crate::program::Target::Player(..)
                    | crate::program::Target::Card(..) => None,
                };
                let refilled = (*op == AssignOp::Set).then_some(e);
                (
                    target(t).into_iter().chain([e]).collect(),
                    vec![e],
                    refilled,
                    local,
                )
            }
            // The top or bottom cards of a pile, moved: as the pile moves compiled above (a refill
            // may draw); the walker's effect.
            StmtKind::Move {
                what:
                    crate::program::Expr {
                        kind: ExprKind::Pile { count, zone, .. },
                        ..
                    },
                to,
                ..
            } => {
                let read = count.as_deref().into_iter().chain([&**zone, to]).collect();
                (read, Vec::new(), None, None)
            }
            StmtKind::Move { what, to, .. } => (vec![what, to], vec![what, to], None, None),
            StmtKind::Reveal(e, _) => (vec![e], vec![e], None, None),
            StmtKind::Show(what, who) => (vec![what, who], vec![what, who], None, None),
            StmtKind::LogTo(t, p) => (t.exprs().chain([p]).collect(), Vec::new(), None, None),
            StmtKind::Choose(..)
            | StmtKind::CallLet(..)
            | StmtKind::Call(..)
            | StmtKind::Perform { .. }
            | StmtKind::For { .. }
            | StmtKind::Simultaneously { .. }
            | StmtKind::Pay(..)
            | StmtKind::If(..)
            | StmtKind::While(..)
            | StmtKind::Repeat(..)
            | StmtKind::Require(_)
            | StmtKind::Log(_)
            | StmtKind::Shuffle(_)
            | StmtKind::Stat(..)
            | StmtKind::StatAt(..)
            | StmtKind::Eliminate(_)
            | StmtKind::Return(_)
            | StmtKind::Loop(_)
            | StmtKind::Break
            | StmtKind::Strict(_)
            | StmtKind::Stop
            | StmtKind::Emit(..)
            | StmtKind::Turn(..)
            | StmtKind::Phase(..)
            | StmtKind::Round(_)
            | StmtKind::EndTurn
            | StmtKind::EndPhase
            | StmtKind::EndRound
            | StmtKind::OutForRound(_)
            | StmtKind::Actions { .. }
            | StmtKind::ChooseBranch { .. }
            | StmtKind::WinTeam(..)
            | StmtKind::Win(..) => return None,
        };
    // A statement that reads piles (and draws nothing at random) runs in place only by its value
    // closures, which answer for a pile holding the cards read (no refill): where one cannot
    // answer, the statement is the walker's, at the head of a step of its loop (`Ctl::Walk`).
    let piles = !read.iter().all(|e| sx.pure.pure(e));
    if piles && !read.iter().all(|e| reads_piles(sx.pure, e)) {
        return None;
    }
    // A pile a `let` or `=` reads refilled first, as the walker's `pile` does (the place is
    // evaluated after it): then read as it is, `none` or fewer cards than read where it holds
    // fewer. The values read are made before a local's type changes (before it is bound).
    let refill = refilled.and_then(|e| super::piles::refill_of(&mut sx.cx, e));
    let mut closures = reads.iter().map(|e| match refill {
        Some(_) => super::piles::or_none(&mut sx.cx, e),
        None => compile_value(&mut sx.cx, e).ok(),
    });
    let given: Option<(Val, Option<Val>)> = match (closures.next(), closures.next()) {
        (Some(Some(a)), None) => Some((a, None)),
        (Some(Some(a)), Some(Some(b))) => Some((a, Some(b))),
        _ => None,
    };
    if piles && given.is_none() {
        return None;
    }
    if let StmtKind::Let(slot, e) = &st.kind {
        let t = super::each::local_type(&sx.cx, e);
        if let Some(ts) = sx.cx.types.get_mut(*slot as usize) {
            *ts = t;
        } else if let Some(t) = t {
            sx.cx.set_type(*slot, t);
        }
    }
    let slot = match local {
        Some(s) => Some((s, sx.cx.slot(s).ok()?)),
        None => None,
    };
    Some(Box::new(move |m, regs| {
        let Some(st) = m.stmt(at) else {
            return Ok(Ctl::Walk);
        };
        if refill.as_ref().is_some_and(|r| r.run(m, regs).is_none()) {
            return Ok(Ctl::Walk);
        }
        // The values the effect reads, by their closures; the walker's effect with them, as
        // `exec_walked` has it, or (a closure cannot answer) the walker's statement whole.
        let (mut first, mut second, mut answered) = (None, None, false);
        if let Some((a, b)) = &given {
            first = eval_value(m, regs, a);
            if let (Some(_), Some(b)) = (&first, b) {
                second = eval_value(m, regs, b);
            }
            answered = first.is_some() && (b.is_none() || second.is_some());
        }
        if piles && !answered {
            return Ok(Ctl::Walk);
        }
        if let StmtKind::Let(s, e)
        | StmtKind::Assign(crate::program::Target::Local(s), AssignOp::Set, e) = &st.kind
        {
            let v = match first {
                Some(v) if answered => v,
                _ => m.eval_at(crate::engine::sites::Site::InPlace, e)?,
            };
            if let Some((_, i)) = slot {
                regs.slots[i] = word(&v).unwrap_or(NONE);
            }
            m.set_local(*s, v);
            return Ok(Ctl::Next);
        }
        // A move that fails inside `strict` leaves the block (as `failed`).
        let before = m.s.frames.len();
        let flow = match (&st.kind, second, first) {
            // `=`, `+=` and `-=` of a value: the place after the value, as the walker's.
            (StmtKind::Assign(t, op, _), None, Some(v)) if answered => {
                m.assign_value(t, *op, v, st.span)?;
                Flow::Next
            }
            (
                StmtKind::Move {
                    what,
                    position,
                    face,
                    ..
                },
                Some(Value::Zone(z)),
                Some(v),
            ) if answered && (z as usize) < m.s.zones.len() => {
                m.s.short = false;
                m.move_value(v, false, z, *position, *face, what.span, st.span)?
            }
            (StmtKind::Reveal(e, up), None, Some(v)) if answered => {
                m.reveal_value(v, *up, e.span)?;
                Flow::Next
            }
            // The seat as the walker reads it (`as_player`: its error where it is `none` or no
            // seat), after the cards shown.
            (StmtKind::Show(e, who), Some(w), Some(v)) if answered => {
                let seat = m.as_player(&w, who.span)?;
                m.show_value(v, seat, e.span)?;
                Flow::Next
            }
            _ => m.exec_walked(st, at)?,
        };
        if m.s.frames.len() < before {
            return Ok(Ctl::Left(flow));
        }
        if let Some((s, i)) = slot {
            regs.slots[i] = word(&m.local(s)).unwrap_or(NONE);
        }
        Ok(Ctl::Next)
    }))
}

/// Whether `e` is pure but for the piles it reads: it draws nothing at random, and calls no
/// function and reads no property that is not pure.
pub(super) fn reads_piles(judged: &crate::purity::Judged, e: &crate::program::Expr) -> bool {
    if judged.pure(e) {
        return true;
    }
    match &e.kind {
        ExprKind::CallFn(..) | ExprKind::Prop(..) | ExprKind::Builtin(Builtin::Random, _) => false,
        // Every other form is pure but for what its parts read (listed, so that a new form must
        // be judged here).
        ExprKind::Builtin(..)
        | ExprKind::Const(_)
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
        | ExprKind::Pile { .. }
        | ExprKind::Text(_)
        | ExprKind::Let(..) => {
            let mut ok = true;
            e.children(&mut |x| ok = ok && reads_piles(judged, x));
            ok
        }
    }
}

/// `win V REASON`, `win team V REASON`: `V` by its value closure, then the walker's end of the game
/// (`Mach::win_of`: the winners, the reason built by the statement's text closures where they
/// answer, else by the walker).
pub(super) fn win(sx: &mut Sx, e: &Expr, team: bool, at: At) -> super::expr::C<Step> {
    let (f, span) = (compile_value(&mut sx.cx, e)?, e.span);
    Ok(Box::new(move |m, regs| {
        let (Some(v), Some(st)) = (eval_value(m, regs, &f), m.stmt(at)) else {
            return Ok(Ctl::Walk);
        };
        let (StmtKind::Win(_, reason) | StmtKind::WinTeam(_, reason)) = &st.kind else {
            return Ok(Ctl::Walk);
        };
        Ok(Ctl::Left(m.win_of(v, team, span, reason, at)?))
    }))
}
