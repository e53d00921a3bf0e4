//! Engine stage: compiled fast paths of statements (stage 4 of docs/engine.md at fe8b0bc).
//!
//! The first time a statement runs, a statement of a form covered here is compiled into one closure
//! ([`StmtCompiled`]): an assignment of a number to a variable of a player, of a card or a global
//! one whose bounds are constants (`p.coins += 1`, `round = 0`), or to a local; `let`; `if`; `move`
//! of a card, a zone's cards, a list of cards or the top cards of a pile into a zone without a
//! limit; a procedure's call
//! (the procedure itself still runs on the stack of frames: it may pause); `log` while nobody
//! records, of a text that cannot fail (nothing to build). The closure evaluates
//! what the statement reads with the expressions' fast paths, in the walker's order and with its
//! work, then tests the budget, and only then changes the game, in a way that cannot fail. Whenever
//! it cannot be sure of that (a value of another type, an overflow, an expression's fast path that
//! gives up, a spent budget, reads being recorded for a check), it gives up before changing
//! anything, its work is taken back, and `exec` runs the statement as it always did, reporting what
//! it reports.
//! Debug builds run the statements a fast path completed a second time with `exec` on a copy of
//! the state from before them, and compare what the two changed (`check_stmt`): the first 256 runs
//! of each statement and one in 256 after.

use super::compile::{shape, Compiler, Shape};
use super::{Fast, ValueFn};
use crate::engine::exec::{At, Frame, Mach};
use crate::engine::state::Ctx;
use crate::program::{
    AssignOp, Expr, ExprKind, Program, Stmt, StmtKind, Target, TextIr, TextPartIr, VarId,
};
use crate::value::Value;
use std::sync::OnceLock;

/// A compiled statement: `None` when it gave up before changing anything.
type StmtFn = Box<dyn for<'a, 'b> Fn(&'b mut Mach<'a>) -> Option<()> + Send + Sync>;

/// A statement's compiled closure, and how deep the walker could nest below it.
pub(crate) struct StmtCode {
    pub height: u32,
    pub run: StmtFn,
    /// Debug builds: how many times the statement ran by this path (see `checked`).
    #[cfg(debug_assertions)]
    pub runs: std::sync::atomic::AtomicU32,
}

impl StmtCode {
    fn new(height: u32, run: StmtFn) -> StmtCode {
        StmtCode {
            height,
            run,
            #[cfg(debug_assertions)]
            runs: Default::default(),
        }
    }

    /// Debug builds: whether this run is checked against `exec`: the first 256 runs of each
    /// statement and one in 256 after (a check copies the whole state; expressions' checks are
    /// cheap enough to be made every time).
    #[cfg(debug_assertions)]
    fn checked(&self) -> bool {
        let n = self.runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        n < 256 || n.is_multiple_of(256)
    }
}

/// The compiled fast path of a statement, made the first time it runs (none: a form not covered).
/// The fast paths of a block's statements lie side by side in the block (`Block::compiled`), not
/// in the statements, so that the run loop reads one short entry per statement rather than a
/// statement's whole node and a box behind it. A copy of a block starts uncompiled.
#[derive(Default)]
pub struct StmtCompiled(OnceLock<Option<StmtCode>>);

super::made_on_first_use!(StmtCompiled);

impl StmtCompiled {
    pub(crate) fn get(&self, p: &Program, s: &Stmt) -> Option<&StmtCode> {
        self.0.get_or_init(|| compile_stmt(p, s)).as_ref()
    }
}

/// A variable's bounds when both are constant numbers or absent (`min 0 max 10`): `write_place`
/// clamps with them without evaluating anything.
fn constant_bounds(p: &Program, var: VarId) -> Option<(Option<i64>, Option<i64>)> {
    let def = p.vars.get(var.index())?;
    // Only a number variable (a truth written from a local would give up at every run).
    if def.ty != crate::program::Ty::Int {
        return None;
    }
    let bound = |b: &Option<Expr>| match b.as_ref().map(|e| &e.kind) {
        None => Some(None),
        Some(ExprKind::Const(Value::Int(i))) => Some(Some(*i)),
        Some(_) => None,
    };
    Some((bound(&def.min)?, bound(&def.max)?))
}

/// The new value of a number variable, as `combine` and `write_place` make it (`None`: an overflow,
/// which the walker reports).
#[inline(always)]
fn assigned(op: AssignOp, cur: i64, v: i64, (lo, hi): (Option<i64>, Option<i64>)) -> Option<i64> {
    let mut x = match op {
        AssignOp::Set => v,
        AssignOp::Add => cur.checked_add(v)?,
        AssignOp::Sub => cur.checked_sub(v)?,
    };
    if let Some(hi) = hi {
        x = x.min(hi);
    }
    if let Some(lo) = lo {
        x = x.max(lo);
    }
    Some(x)
}

/// Assigns `v` to a cell that holds a number (`None`, nothing written: the cell holds anything
/// else, or an overflow; the walker's turn).
#[inline(always)]
fn assign_number(
    cell: Option<&mut Value>,
    op: AssignOp,
    v: i64,
    bounds: (Option<i64>, Option<i64>),
) -> Option<()> {
    let Some(Value::Int(n)) = cell else {
        return None;
    };
    *n = assigned(op, *n, v, bounds)?;
    Some(())
}

/// Whether `= E` into `target` writes a value that no bound clamps: a variable of another type than
/// a number, or a local given anything but a number (the number's own paths are below).
fn sets_any_value(p: &Program, target: &Target, e: &Expr) -> bool {
    let var = match target {
        Target::Player(var, _) | Target::Global(var) | Target::Card(var, _) => *var,
        Target::Local(_) => return shape(p, e) != Shape::Number,
    };
    p.vars
        .get(var.index())
        .is_some_and(|d| d.ty != crate::program::Ty::Int)
}

/// `x = E` or `let x = E` of a value into local `x`: E, then the budget, then the local written.
fn set_local(slot: u16, value: Fast<ValueFn>) -> StmtCode {
    let f = value.run;
    let run: StmtFn = Box::new(move |m| {
        let v = f(m)?;
        if m.s.exec_count > m.s.fixed.max_steps {
            return None;
        }
        m.set_local(slot, v);
        Some(())
    });
    StmtCode::new(value.height, run)
}

/// `T = E` of a value no bound clamps (`sets_any_value`): `exec`'s `Assign` evaluates E, then the
/// holder (`place`), then writes the cell (`write_place`) and notes the variable written.
fn set_any_value(c: &mut Compiler, target: &Target, e: &Expr) -> Option<StmtCode> {
    let value = c.any_value(e)?;
    if let Target::Local(slot) = target {
        return Some(set_local(*slot, value));
    }
    let f = value.run;
    let (run, h): (StmtFn, u32) = match target {
        Target::Local(_) => return None, // written above
        Target::Global(var) => {
            let var = *var;
            let run: StmtFn = Box::new(move |m| {
                let v = f(m)?;
                if m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                *m.s.globals.get_mut(m.l.var(var))? = v;
                m.s.wrote_var(var.index());
                Some(())
            });
            (run, 0)
        }
        Target::Player(var, pe) => {
            let var = *var;
            let (who, h) = c.who(pe)?;
            let run: StmtFn = Box::new(move |m| {
                let v = f(m)?;
                let seat = who.seat(m)?;
                if m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                let i = seat as usize * m.l.n_pvars + m.l.var(var);
                *m.s.pvars.get_mut(i)? = v;
                m.s.wrote_var(var.index());
                Some(())
            });
            (run, h)
        }
        Target::Card(var, ce) => {
            let var = *var;
            let (who, h) = c.who(ce)?;
            let run: StmtFn = Box::new(move |m| {
                let v = f(m)?;
                let card = who.holder(m, cardgame_grammar::ast::Scope::PerCard)?;
                if card as usize >= m.s.cards.len() || m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                let i = card as usize * m.l.n_cvars + m.l.var(var);
                *m.s.cvars.get_mut(m.l, i)? = v;
                m.s.wrote_var(var.index());
                Some(())
            });
            (run, h)
        }
    };
    Some(StmtCode::new(value.height.max(h), run))
}

/// `log` while nobody records: `exec` builds nothing for a text that cannot fail (literals, `you`,
/// `active`, `this`, the turn, participants, constants and locals that are not lists), which is
/// what this tests, reading only the locals it names.
fn plain_log(t: &TextIr) -> Option<StmtCode> {
    let mut slots = Vec::new();
    for part in &t.parts {
        let TextPartIr::Expr(e) = part else {
            continue;
        };
        match &e.kind {
            ExprKind::Local(slot) => slots.push(*slot),
            ExprKind::You
            | ExprKind::Active
            | ExprKind::This
            | ExprKind::TurnNumber
            | ExprKind::Participant(_) => {}
            ExprKind::Const(v) if !matches!(v, Value::List(_)) => {}
            _ => return None,
        }
    }
    let run: StmtFn = Box::new(move |m| {
        if m.s.record {
            return None;
        }
        for &slot in &slots {
            if let Some(Value::List(_)) = super::compile::local(m, slot) {
                return None;
            }
        }
        Some(())
    });
    Some(StmtCode::new(0, run))
}

/// Any other `log` while nobody records: `exec` builds its text only for the errors it could meet
/// (an expression's, a list's length past the budget, a text grown too long). Its parts are
/// evaluated by their fast paths, in order, with the work `exec` counts, and nothing is built: a
/// part that gives a text or a list holding one or a list (whose text could grow long), or a text
/// that could reach the longest allowed even from names alone, is left to `exec`.
fn log_of_values(c: &mut Compiler, t: &TextIr) -> Option<StmtCode> {
    let (mut parts, mut height, mut words) = (Vec::new(), 0, 0usize);
    for part in &t.parts {
        match part {
            TextPartIr::Lit(w) => words += w.len(),
            TextPartIr::Expr(e) => {
                let f = c.any_value(e)?;
                height = height.max(f.height);
                parts.push(f.run);
            }
        }
    }
    // The longest text of a value that is not a list or a text (label.rs): a number, a space, a
    // name of the script's, a zone's name with its holder's (a player, or a card and its number).
    let p = c.p;
    let names = (p.kinds.iter().map(|k| k.name.len()))
        .chain(p.tags.iter().map(|t| t.name.len()))
        .chain(p.zones.iter().map(|z| z.name.len()))
        .max()
        .unwrap_or(0);
    let run: StmtFn = Box::new(move |m| {
        if m.s.record {
            return None;
        }
        let one = 2 * names + m.s.fixed.names.iter().map(String::len).max().unwrap_or(0) + 64;
        let mut most = words;
        for f in &parts {
            most = match f(m)? {
                Value::Text(_) => return None,
                // A list's items (none a list or a text), counted as work as `exec` does, each
                // with its separator.
                Value::List(items) => {
                    if items
                        .iter()
                        .any(|i| matches!(i, Value::List(_) | Value::Text(_)))
                    {
                        return None;
                    }
                    m.s.exec_count += items.len() as u64;
                    most.checked_add(items.len().checked_mul(one + 2)?)?
                }
                _ => most.checked_add(one)?,
            };
            if most > crate::engine::eval::MAX_LIST {
                return None;
            }
        }
        if m.s.exec_count > m.s.fixed.max_steps {
            return None;
        }
        Some(())
    });
    Some(StmtCode::new(height, run))
}

fn compile_stmt(p: &Program, s: &Stmt) -> Option<StmtCode> {
    let mut c = Compiler {
        p,
        calling: Vec::new(),
        depth: 0,
    };
    match &s.kind {
        StmtKind::Assign(target, AssignOp::Set, e) if sets_any_value(p, target, e) => {
            set_any_value(&mut c, target, e)
        }
        // `p.v op= E` and `v op= E` of a number variable: `exec`'s `Assign` evaluates E (as a
        // number, or `eval` of a constant or a local), then the holder (`eval_player`), then reads
        // the cell (but for `=`), combines, clamps and writes.
        StmtKind::Assign(target @ (Target::Player(..) | Target::Global(_)), op, e) => {
            let op = *op;
            let value = c.int(e)?;
            let (var, who) = match target {
                Target::Player(var, pe) => (*var, Some(c.who(pe)?)),
                Target::Global(var) => (*var, None),
                _ => return None,
            };
            let bounds = constant_bounds(p, var)?;
            let height = value.height.max(who.as_ref().map_or(0, |w| w.1));
            let f = value.run;
            let run: StmtFn = match who {
                Some((who, _)) => Box::new(move |m| {
                    let v = f(m)?;
                    let seat = who.seat(m)?;
                    if m.s.exec_count > m.s.fixed.max_steps {
                        return None;
                    }
                    let i = seat as usize * m.l.n_pvars + m.l.var(var);
                    let cell = m.s.pvars.get_mut(i);
                    assign_number(cell, op, v, bounds)?;
                    m.s.wrote_var(var.index());
                    Some(())
                }),
                None => Box::new(move |m| {
                    let v = f(m)?;
                    if m.s.exec_count > m.s.fixed.max_steps {
                        return None;
                    }
                    let cell = m.s.globals.get_mut(m.l.var(var));
                    assign_number(cell, op, v, bounds)?;
                    m.s.wrote_var(var.index());
                    Some(())
                }),
            };
            Some(StmtCode::new(height, run))
        }
        // `c.v op= E` of a number variable of a card: as above, the holder by `eval_card`.
        StmtKind::Assign(Target::Card(var, ce), op, e) => {
            let op = *op;
            let value = c.int(e)?;
            let (who, h) = c.who(ce)?;
            let bounds = constant_bounds(p, *var)?;
            let (var, f) = (*var, value.run);
            let run: StmtFn = Box::new(move |m| {
                let v = f(m)?;
                let card = who.holder(m, cardgame_grammar::ast::Scope::PerCard)?;
                if card as usize >= m.s.cards.len() || m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                let i = card as usize * m.l.n_cvars + m.l.var(var);
                // Read first: `get_mut` keeps a written copy of the card's value even if nothing
                // is written then.
                let Some(&Value::Int(cur)) = m.s.cvars.get(m.l, i) else {
                    return None;
                };
                let x = assigned(op, cur, v, bounds)?;
                assign_number(m.s.cvars.get_mut(m.l, i), AssignOp::Set, x, (None, None))?;
                m.s.wrote_var(var.index());
                Some(())
            });
            Some(StmtCode::new(value.height.max(h), run))
        }
        // `x op= E` of a local holding a number (`=`: any number).
        StmtKind::Assign(Target::Local(slot), op, e) => {
            let (op, slot) = (*op, *slot);
            let value = c.int(e)?;
            let f = value.run;
            let run: StmtFn = Box::new(move |m| {
                let v = f(m)?;
                if m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                let x = match op {
                    AssignOp::Set => v,
                    _ => match super::compile::local(m, slot)? {
                        &Value::Int(cur) => assigned(op, cur, v, (None, None))?,
                        _ => return None,
                    },
                };
                m.set_local(slot, Value::Int(x));
                Some(())
            });
            Some(StmtCode::new(value.height, run))
        }
        // `let x = E`: a number by its own path, any other value by the value's.
        StmtKind::Let(slot, e) => {
            let slot = *slot;
            // A local is read as it is, whatever it holds; a number by its own path.
            let number = !matches!(e.kind, ExprKind::Local(_));
            if let Some(value) = number.then(|| c.int(e)).flatten() {
                let f = value.run;
                let run: StmtFn = Box::new(move |m| {
                    let v = f(m)?;
                    if m.s.exec_count > m.s.fixed.max_steps {
                        return None;
                    }
                    m.set_local(slot, Value::Int(v));
                    Some(())
                });
                return Some(StmtCode::new(value.height, run));
            }
            Some(set_local(slot, c.value(e)?))
        }
        // `if C1 { } else if C2 { } else { }`: the conditions in order, as `eval_bool` gives them,
        // then the block of the first that holds (or `else`) is pushed.
        StmtKind::If(branches, other) => {
            let mut conds = Vec::with_capacity(branches.len());
            let mut height = 0;
            for (cond, block) in branches {
                let f = c.cond(cond)?;
                height = height.max(f.height);
                conds.push((f.run, *block));
            }
            let other = *other;
            let run: StmtFn = Box::new(move |m| {
                let mut chosen = other;
                for (f, block) in &conds {
                    if f(m)? {
                        chosen = Some(*block);
                        break;
                    }
                }
                if m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                if let Some(b) = chosen {
                    m.push_block(b);
                }
                Some(())
            });
            Some(StmtCode::new(height, run))
        }
        // `move C to Z` of a card, a zone's cards or a list of cards (not a pile): `exec_move`
        // evaluates what moves, then the zone, then moves the cards. Only into a zone without a
        // `max`, where no move can fail.
        // `move top N of Z to T` while nobody records, Z holding at least N cards (no refill, not
        // short) and T another zone without a limit: `exec`'s `move_pile` (the pile's node, Z, N,
        // then T; the cards' list; their moves) in one pass (`move_top`).
        StmtKind::Move {
            what:
                Expr {
                    kind:
                        ExprKind::Pile {
                            position: cardgame_grammar::ast::Position::Top,
                            count: Some(n),
                            zone,
                        },
                    ..
                },
            to,
            position,
            face,
        } => {
            if let ExprKind::Zone(z, _) = &to.kind {
                if p.zones.get(z.index()).is_none_or(|d| d.max.is_some()) {
                    return None;
                }
            }
            let source = c.zone(zone)?;
            let count = c.int(n)?;
            let dest = c.zone(to)?;
            // The pile's node nests what it reads one level deeper.
            let height = (1 + source.height.max(count.height)).max(dest.height);
            let (fs, fc, fd) = (source.run, count.run, dest.run);
            let (position, face) = (*position, *face);
            let run: StmtFn = Box::new(move |m| {
                if m.s.record {
                    return None;
                }
                m.s.short = false;
                m.s.exec_count += 1;
                let z = fs(m)?;
                let n = fc(m)?.max(0) as usize;
                let target = fd(m)?;
                if m.s.exec_count > m.s.fixed.max_steps || z == target {
                    return None;
                }
                if m.s
                    .zones
                    .get(z as usize)
                    .is_none_or(|zi| zi.cards.len() < n)
                {
                    return None;
                }
                let def = m.s.zones.def(target as usize);
                if m.p.zones.get(def.index()).is_none_or(|d| d.max.is_some()) {
                    return None;
                }
                // The list of the cards taken, then their moves.
                m.charge_later(n);
                m.move_top(z, n, target, position, face);
                Some(())
            });
            Some(StmtCode::new(height, run))
        }
        StmtKind::Move {
            what,
            to,
            position,
            face,
        } if !matches!(what.kind, ExprKind::Pile { .. }) => {
            // A zone named here with a limit: the move can fail, `exec`'s (other zones are tested
            // when the move runs).
            if let ExprKind::Zone(z, _) = &to.kind {
                if p.zones.get(z.index()).is_none_or(|d| d.max.is_some()) {
                    return None;
                }
            }
            let card = c.value(what)?;
            let zone = c.zone(to)?;
            let (position, face) = (*position, *face);
            let height = card.height.max(zone.height);
            let (fc, fz) = (card.run, zone.run);
            let run: StmtFn = Box::new(move |m| {
                m.s.short = false;
                let what = fc(m)?;
                let target = fz(m)?;
                if m.s.exec_count > m.s.fixed.max_steps || m.s.short {
                    return None;
                }
                let def = m.s.zones.def(target as usize);
                if m.p.zones.get(def.index()).is_none_or(|d| d.max.is_some()) {
                    return None;
                }
                let n = m.s.cards.len();
                match what {
                    Value::Card(card) if (card as usize) < n => {
                        let moved = m.move_card(card, target, position, face);
                        debug_assert!(matches!(moved, Ok(true)), "a move without a limit fails");
                    }
                    // A zone's cards, top first: the work of reading it as a list, then of its
                    // cards (`exec_move`).
                    Value::Zone(z) if (z as usize) < m.s.zones.len() => {
                        let k = m.s.zones[z as usize].cards.len();
                        m.s.exec_count += 2 * k as u64;
                        if z != target && !m.s.record {
                            m.move_top(z, usize::MAX, target, position, face);
                            return Some(());
                        }
                        let mut ids = std::mem::take(&mut m.s.recycled.get().ids);
                        ids.clear();
                        ids.extend(m.s.zones[z as usize].cards.iter().rev());
                        let moved = m.move_ids(ids, target, position, face);
                        debug_assert!(matches!(moved, Ok(true)), "a move without a limit fails");
                    }
                    // A list of cards, every one a card (`none` or anything else: `exec`).
                    Value::List(l)
                        if l.iter()
                            .all(|v| matches!(v, &Value::Card(c) if (c as usize) < n)) =>
                    {
                        m.s.exec_count += l.len() as u64;
                        // Several cards of one zone, listed from its top down: in one pass.
                        if !m.s.record && l.len() > 1 && m.move_listed(&l, target, position, face) {
                            return Some(());
                        }
                        for v in l.iter() {
                            if let &Value::Card(card) = v {
                                let moved = m.move_card(card, target, position, face);
                                debug_assert!(
                                    matches!(moved, Ok(true)),
                                    "a move without a limit fails"
                                );
                            }
                        }
                    }
                    _ => return None,
                }
                Some(())
            });
            Some(StmtCode::new(height, run))
        }
        // A procedure's call (`proc(args)`, `let x = proc(args)`): its arguments as `eval_push`
        // gives them, then its frames; the procedure itself runs on the stack as before.
        StmtKind::Call(proc, args) | StmtKind::CallLet(_, proc, args) => {
            let result = match &s.kind {
                StmtKind::CallLet(slot, ..) => Some(*slot),
                _ => None,
            };
            let def = p.procs.get(proc.index())?;
            let (slots, block) = (def.body.slots as usize, def.body.block);
            let mut height = 0;
            let mut fs = Vec::with_capacity(args.len());
            for a in args {
                let f = c.value(a)?;
                height = height.max(f.height);
                fs.push(f.run);
            }
            let run: StmtFn = Box::new(move |m| {
                let mut locals = m.s.take_locals(0);
                for f in &fs {
                    match f(m) {
                        Some(v) => locals.push(v),
                        None => {
                            m.s.give_back(locals);
                            return None;
                        }
                    }
                }
                if m.s.exec_count > m.s.fixed.max_steps {
                    m.s.give_back(locals);
                    return None;
                }
                crate::engine::state::grow_locals(&mut locals, slots);
                if let Some(slot) = result {
                    m.s.frames.push(Frame::Result { slot });
                }
                let (you, this) = (m.you(), m.this());
                m.push_call(Ctx { locals, you, this }, block);
                Some(())
            });
            Some(StmtCode::new(height, run))
        }
        // `perform A of C` (by the card's owner, as itself): `exec` evaluates the card, finds its
        // kind's ability (none: a failure, `exec`'s), counts the performance for the owner (the
        // active player for a card nobody owns) and pushes the ability's frames.
        StmtKind::Perform {
            ability,
            card,
            as_card: None,
            by: None,
        } => {
            let fc = c.value(card)?;
            let (height, fc, ability) = (fc.height, fc.run, ability.index());
            let run: StmtFn = Box::new(move |m| {
                let Value::Card(card) = fc(m)? else {
                    return None;
                };
                let kind = m.s.cards.get(card as usize)?.kind as usize;
                let p: &Program = m.p;
                let body = *p.kinds.get(kind)?.abilities.get(ability)?.as_ref()?;
                if m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                let you = m.s.card_owner(card).unwrap_or(m.s.active);
                let nk = p.kinds.len();
                if m.s.tally.performed.is_empty() {
                    m.s.tally.performed = vec![0; m.s.players as usize * nk];
                }
                if let Some(n) = m.s.tally.performed.get_mut(you as usize * nk + kind) {
                    *n += 1;
                }
                let locals = m.s.take_locals(body.slots as usize);
                m.push_call(
                    Ctx {
                        locals,
                        you: Some(you),
                        this: Some(card),
                    },
                    body.block,
                );
                Some(())
            });
            Some(StmtCode::new(height, run))
        }
        // `reveal C` / `hide C` of a card, a zone's cards or a list of cards while nobody records:
        // `exec` evaluates them, counts a list's items (a zone's twice: read as a list, then as
        // cards), then turns each card (`none` is passed over).
        StmtKind::Reveal(e, up) => {
            let f = c.value(e)?;
            let (height, f, up) = (f.height, f.run, *up);
            let run: StmtFn = Box::new(move |m| {
                if m.s.record {
                    return None;
                }
                let v = f(m)?;
                if m.s.exec_count > m.s.fixed.max_steps {
                    return None;
                }
                let n = m.s.cards.len();
                let turn = |m: &mut Mach, c: u32| {
                    m.s.cards[c as usize].face_up = up;
                    m.s.moved();
                };
                match v {
                    Value::None => {}
                    Value::Card(c) if (c as usize) < n => turn(m, c),
                    // A zone's cards: read as a list (its length) and counted as cards.
                    Value::Zone(z) if (z as usize) < m.s.zones.len() => {
                        m.note_zone(z);
                        let k = m.s.zones[z as usize].cards.len();
                        m.charge_later(2 * k);
                        for i in 0..k {
                            let c = m.s.zones[z as usize].cards[i];
                            turn(m, c);
                        }
                    }
                    Value::List(l)
                        if l.iter().all(|v| match v {
                            Value::Card(c) => (*c as usize) < n,
                            Value::None => true,
                            _ => false,
                        }) =>
                    {
                        m.charge_later(l.len());
                        for v in l.iter() {
                            if let Value::Card(c) = v {
                                turn(m, *c);
                            }
                        }
                    }
                    _ => return None,
                }
                Some(())
            });
            Some(StmtCode::new(height, run))
        }
        // A plain text's log first (nothing to evaluate), then by its parts' values (a local that
        // holds a list, or any other part).
        StmtKind::Log(t) => match (plain_log(t), log_of_values(&mut c, t)) {
            (Some(plain), Some(parts)) => {
                let height = plain.height.max(parts.height);
                let (a, b) = (plain.run, parts.run);
                Some(StmtCode::new(
                    height,
                    Box::new(move |m| a(m).or_else(|| b(m))),
                ))
            }
            (plain, parts) => plain.or(parts),
        },
        _ => None,
    }
}

impl<'a> Mach<'a> {
    /// Runs `stmt` by its compiled fast path; false when it has none or it gave up, having changed
    /// nothing (`exec` runs it then).
    #[inline(always)]
    #[cfg_attr(not(debug_assertions), allow(unused_variables))]
    pub(crate) fn fast_stmt(&mut self, stmt: &'a Stmt, compiled: &'a StmtCompiled, at: At) -> bool {
        #[cfg(debug_assertions)]
        if self.s.probe.walking {
            return false;
        }
        #[cfg(test)]
        if self.s.probe.without.fast_statements {
            return false;
        }
        if self.s.recording {
            return false;
        }
        let Some(code) = compiled.get(self.p, stmt) else {
            return false;
        };
        if self.s.depth.saturating_add(code.height) >= crate::engine::eval::MAX_DEPTH {
            return false;
        }
        let start = self.s.exec_count;
        #[cfg(debug_assertions)]
        let before = code.checked().then(|| self.s.clone());
        if (code.run)(self).is_none() {
            self.s.exec_count = start;
            return false;
        }
        #[cfg(debug_assertions)]
        match before {
            Some(before) => self.check_stmt(stmt, at, before),
            None => self.count_statement(),
        }
        true
    }

    /// Tests: a statement answered by its fast path, counted among the fast answers.
    #[cfg(debug_assertions)]
    fn count_statement(&mut self) {
        #[cfg(test)]
        {
            self.s.probe.counted.answered += 1;
            self.s.probe.counted.statements += 1;
        }
    }

    /// Debug builds: `exec` run on the state from before the statement changes what the fast path
    /// changed, in the same way, with the same work (counted among the fast answers).
    #[cfg(debug_assertions)]
    fn check_stmt(&mut self, stmt: &'a Stmt, at: At, before: crate::engine::state::State) {
        self.count_statement();
        let fast = std::mem::replace(&mut *self.s, before);
        self.s.probe.walking = true;
        let r = self.exec_walked(stmt, at);
        let walked = std::mem::replace(&mut *self.s, fast);
        assert!(
            r.is_ok(),
            "the walker fails where the fast path of {:?} did not",
            stmt.kind
        );
        // Statements that turn cards or count performances: the cards, zones and tally too.
        let moves = matches!(
            stmt.kind,
            StmtKind::Move { .. } | StmtKind::Reveal(..) | StmtKind::Perform { .. }
        );
        let key = |s: &crate::engine::state::State| {
            let mut k = format!(
                "{} {:?} {:?} {:?} {:?} {:?} {:?}",
                s.exec_count,
                s.globals,
                s.pvars,
                s.cvars,
                s.watch,
                s.short,
                s.ctxs.last().map(|c| (&c.locals, c.you, c.this))
            );
            // What a statement can push: a block, or a call's frames and context.
            let top = &s.frames[s.frames.len().saturating_sub(3)..];
            k += &format!(" {} {:?} {}", s.frames.len(), top, s.ctxs.len());
            if moves {
                k += &format!(
                    "{:?} {:?} {:?} {:?} {}",
                    s.cards,
                    s.zones,
                    s.shown,
                    s.tally,
                    s.events.len()
                );
            }
            k
        };
        assert_eq!(key(&walked), key(self.s), "fast path of {:?}", stmt.kind);
    }
}
