//! Engine stage (closures): compiles a body's statements into closures that change the game.
//!
//! A statement compiles when every expression it evaluates is a word (expr.rs) and its effect is
//! one this file knows: `let`, writes of numbers and `pay` (places.rs), `if`, `while`, `repeat`,
//! `loop` and `break` (loops.rs), `for` (each.rs), `move` of a card, of a zone's cards or of a
//! pile's top cards (moves.rs), `require`, `stat` (keyed too), `log`, `eliminate` (for a round
//! too, recorded or not), `return` of a word, `stop`, `win` (in_place.rs), `shuffle`, `phase`,
//! `turn`, `strict`, `round` and their ends (segments.rs), decisions (decisions.rs); calls and
//! `perform` run inline (calls.rs). Any other statement stays the walker's (`None`). A statement evaluates everything
//! it reads first and answers [`Ctl::Walk`] before changing anything when a closure cannot
//! answer: the walker then runs it.
//! Locals live in the walker's context and in the int slots at once: a write goes to both, so
//! the walker reads what the closures wrote wherever it takes over (segments.rs).

use super::blocks::{block, inline, BlockCode};
use super::env::{word, Env, Slots, NONE};
use super::expr::{compile, Cx, Int, C};
use super::value::{compile_value, eval_value};
use crate::engine::exec::{At, Flow, Frame, Mach, Stop};
use crate::engine::RuntimeError;
use crate::program::{
    AssignOp, BinOp, Builtin, ChooseCount, ExprKind, Stmt, StmtKind, TextIr, TextPartIr, Ty, UnOp,
};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::sync::Arc;

pub(crate) type R<T> = Result<T, RuntimeError>;

/// What a compiled statement did.
pub(crate) enum Ctl {
    /// Done; the next statement follows.
    Next,
    /// Nothing done: the walker runs this statement.
    Walk,
    /// Done, and frames were pushed above the block (a body the walker runs): the block resumes
    /// after this statement once they are popped.
    Pushed,
    /// The frames below changed (`return`, a failure caught by `strict`, the game's end): the
    /// block is left, the walker goes on with `Flow`.
    Left(Flow),
    /// `return` of a word, or `stop` (`None`), in a body run inline (calls.rs): the call gives the
    /// word (else `none`) to its caller.
    Return(Option<i64>),
    /// `break`: the innermost loop is left (loops.rs), the statement after it follows.
    Break,
    /// A decision posed (decisions.rs: its frame on top, as the walker leaves it), or the game
    /// ended before it: the walker's frames for the position are made as for `Pushed`, and the
    /// loop stops with `Stop`; the block resumes after this statement once the decision is
    /// answered.
    Paused(Stop),
}

/// What a compiled body runs with: its slots, `you`, and how deep inside inline calls it runs
/// (0: in a frame of its own).
pub(crate) struct Regs {
    pub slots: Slots,
    pub you: u8,
    pub depth: u8,
}

/// A compiled statement.
pub(crate) type Step = Box<dyn for<'a, 'b> Fn(&'b mut Mach<'a>, &mut Regs) -> R<Ctl> + Send + Sync>;

/// The statement compiler: the frame's types, the body's `return` type, and every block compiled,
/// by id, shared by the statements that run them inline.
pub(crate) struct Sx<'p> {
    pub cx: Cx<'p>,
    /// The program's functions and properties judged pure (`in_place`).
    pub pure: &'p crate::purity::Judged,
    pub ret: Option<Ty>,
    pub blocks: &'p mut Vec<Option<Arc<BlockCode>>>,
}

/// A word of the type `t` as the walker's value.
#[inline]
pub(crate) fn value(t: &Ty, w: i64) -> Value {
    match t {
        Ty::Int => Value::Int(w),
        Ty::Bool => Value::Bool(w != 0),
        Ty::Player => Value::Player(w as u8),
        Ty::Card => Value::Card(w as u32),
        Ty::Kind => Value::Kind(w as u16),
        Ty::Tag => Value::Tag(w as u16),
        Ty::Space => Value::Space(w as u16),
        Ty::Zone => Value::Zone(w as u32),
        Ty::Text | Ty::List(_) | Ty::Any => Value::None,
    }
}

/// The type of `e` when it is a word the closures compute; `None` otherwise. Every expression
/// form is listed, and every builtin and aggregate: a new one must be judged here.
pub(super) fn type_of(cx: &Cx, e: &crate::program::Expr) -> Option<Ty> {
    use crate::program::Aggregate;
    let p = cx.p;
    Some(match &e.kind {
        ExprKind::Const(v) => super::env::word_type(v)?,
        ExprKind::Local(s) => cx.type_of_local(*s)?.clone(),
        ExprKind::Global(v) | ExprKind::PlayerVar(v, _) | ExprKind::CardVar(v, _) => {
            p.vars.get(v.index())?.ty.clone()
        }
        ExprKind::Prop(..) | ExprKind::Players | ExprKind::TurnNumber => Ty::Int,
        ExprKind::Unary(op, _) => match op {
            UnOp::Neg => Ty::Int,
            UnOp::Not => Ty::Bool,
        },
        ExprKind::IsTag(..) | ExprKind::IsKind(..) => Ty::Bool,
        ExprKind::You | ExprKind::Active | ExprKind::Participant(_) => Ty::Player,
        ExprKind::This => Ty::Card,
        ExprKind::Binary(op, ..) => match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => Ty::Int,
            BinOp::And
            | BinOp::Or
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge => Ty::Bool,
            BinOp::Concat | BinOp::In => return None,
        },
        ExprKind::If(_, a, _) => type_of(cx, a)?,
        ExprKind::TagOf(..) => Ty::Tag,
        ExprKind::Field(f, _) => match f {
            crate::ops::Field::Kind => Ty::Kind,
            crate::ops::Field::Owner => Ty::Player,
            crate::ops::Field::Zone => Ty::Zone,
            crate::ops::Field::FaceUp => Ty::Bool,
            crate::ops::Field::X | crate::ops::Field::Y => Ty::Int,
        },
        ExprKind::Let(_, _, body) => type_of(cx, body)?,
        ExprKind::Zone(..) => Ty::Zone,
        // A pile's top or bottom card; its top or bottom cards are a list.
        ExprKind::Pile { count, zone, .. } => {
            if count.is_some() || type_of(cx, zone) != Some(Ty::Zone) {
                return None;
            }
            Ty::Card
        }
        ExprKind::Aggregate { op, .. } => match op {
            Aggregate::Count | Aggregate::Sum | Aggregate::Max | Aggregate::Min => Ty::Int,
            Aggregate::Any | Aggregate::All => Ty::Bool,
            Aggregate::Filter
            | Aggregate::Sort
            | Aggregate::Map
            | Aggregate::Flatten
            | Aggregate::TakeWhile => return None,
        },
        ExprKind::CallFn(f, _) => p.fns.get(f.index())?.ret.clone(),
        ExprKind::Builtin(b, x) => match b {
            Builtin::Size | Builtin::Max2 | Builtin::Min2 | Builtin::Abs => Ty::Int,
            Builtin::Left | Builtin::Right | Builtin::Seat => Ty::Player,
            Builtin::At if x.len() == 2 => Ty::Space,
            // An item of a list of words (compiled only where the statement keeps its draws:
            // draws.rs).
            Builtin::Random if x.len() == 1 => {
                super::each::item_type(cx, &x[0]).filter(super::expr::is_word)?
            }
            Builtin::Index if x.len() == 2 && type_of(cx, &x[0]) == Some(Ty::Zone) => Ty::Card,
            // An item of a list of words walked where it lies (builtins.rs).
            Builtin::Index if x.len() == 2 => {
                super::each::item_type(cx, &x[0]).filter(super::expr::is_word)?
            }
            Builtin::First => match x.first().map(|x| &x.kind) {
                Some(ExprKind::Builtin(Builtin::Opponents, _)) => Ty::Player,
                Some(ExprKind::Aggregate {
                    op: Aggregate::Filter,
                    value: None,
                    list,
                    ..
                }) => match &list.kind {
                    ExprKind::Everyone => Ty::Player,
                    ExprKind::Spaces => Ty::Space,
                    _ if type_of(cx, list) == Some(Ty::Zone) => Ty::Card,
                    _ => super::each::item_type(cx, list)?,
                },
                Some(_) if type_of(cx, &x[0]) == Some(Ty::Zone) => Ty::Card,
                Some(_) => super::each::item_type(cx, &x[0])?,
                None => return None,
            },
            Builtin::At
            | Builtin::Random
            | Builtin::Index
            | Builtin::Take
            | Builtin::Flatten
            | Builtin::Last
            | Builtin::Cards
            | Builtin::Kinds
            | Builtin::Distinct
            | Builtin::Opponents
            | Builtin::From
            | Builtin::Eliminated
            | Builtin::Neighbours
            | Builtin::Adjacent => return None,
        },
        // Lists, texts, and words the closures do not type here.
        ExprKind::Option(_)
        | ExprKind::Column(_)
        | ExprKind::Spaces
        | ExprKind::Everyone
        | ExprKind::List(_)
        | ExprKind::Range(..)
        | ExprKind::Text(_) => return None,
    })
}

/// Compiles `e` as a word of a known type.
fn typed(cx: &mut Cx, e: &crate::program::Expr) -> C<(Int, Ty)> {
    let t = (type_of(cx, e).filter(super::expr::is_word))
        .ok_or("an expression whose type is not a word")?;
    Ok((compile(cx, e)?, t))
}

/// Runs `f` on an `Env` over the game and the slots.
#[inline(always)]
pub(super) fn eval(m: &mut Mach, regs: &mut Regs, f: &Int) -> Option<i64> {
    let mut env = Env::new(m.p, m.s, m.l, regs.you, &mut regs.slots);
    env.draws = m.draws.as_deref_mut();
    let v = f(&mut env);
    // The first closure of the statement to give way, and why (`Mach::fault`).
    if v.is_none() {
        m.fault.get_or_insert(env.fault);
    }
    v
}

/// Gives way for the walker's runtime error `failure` at `span`, which the segment raises
/// (`Mach::fault`; in debug builds the walker runs the statement and is checked to fail so).
#[cold]
pub(super) fn fails(m: &mut Mach, span: Span, failure: super::env::Failure) -> R<Ctl> {
    m.fault = Some(Some(super::env::Fault { span, failure }));
    Ok(Ctl::Walk)
}

/// Counts `n` units of work (docs/engine.md, "Where work is charged").
#[inline(always)]
pub(crate) fn charge(m: &mut Mach, n: u32, span: Span) -> R<()> {
    m.charge(n as usize, span)
}

/// `fail` at `span`: the block is left when a `strict` caught it, else it goes on.
pub(super) fn failed(m: &mut Mach, span: Span) -> Ctl {
    let before = m.s.frames.len();
    let flow = m.fail(span);
    if m.s.frames.len() < before {
        Ctl::Left(flow)
    } else {
        Ctl::Next
    }
}

/// Whether building `t` cannot fail, known when compiling (as `Mach::text_is_plain`).
fn plain(cx: &Cx, t: &TextIr) -> bool {
    crate::engine::label::plain_text(t, |s| {
        cx.type_of_local(s)
            .is_some_and(|t| value(t, 0) != Value::None)
    })
}

/// The branch of an `if` taken (its `else`, numbered after the conditions, where `other`), if any;
/// `None` where a condition's closure could not answer.
#[inline(always)]
fn branch(m: &mut Mach, regs: &mut Regs, conds: &[Int], other: bool) -> Option<Option<usize>> {
    for (i, c) in conds.iter().enumerate() {
        if eval(m, regs, c)? != 0 {
            return Some(Some(i));
        }
    }
    Some(other.then_some(conds.len()))
}

/// Whether the statement at `at` heads the segment running: its block's frame is on top, resumed
/// there (segments.rs, `run`, leaves the frame's `pc` past the segment's first statement while it
/// runs).
fn heads(m: &Mach, at: At) -> bool {
    matches!(m.s.frames.last(), Some(&Frame::Block { block, pc })
        if block == at.block && pc == at.idx + 1)
}

/// Compiles one statement; `Err` when it is the walker's. A `let`, `=`, `+=` or `-=` that draws
/// inside its expression is compiled drawing, and keeps its draws when it runs (draws.rs).
pub(super) fn stmt(sx: &mut Sx, st: &Stmt, at: At) -> C<Step> {
    if !super::draws::keeps_draws(sx, st) {
        return stmt_of(sx, st, at);
    }
    sx.cx.draws = true;
    let step = stmt_of(sx, st, at);
    sx.cx.draws = false;
    step.map(super::draws::kept)
}

fn stmt_of(sx: &mut Sx, st: &Stmt, at: At) -> C<Step> {
    let span = st.span;
    let written = |sx: &mut Sx, slot: u16, t: Option<Ty>| {
        if let Some(ts) = sx.cx.types.get_mut(slot as usize) {
            *ts = t;
        } else if let Some(t) = t {
            sx.cx.set_type(slot, t);
        }
    };
    let step: C<Step> = match &st.kind {
        StmtKind::Let(slot, e) => match typed(&mut sx.cx, e) {
            Ok((f, t)) => {
                let (s, i) = (*slot, sx.cx.slot(*slot)?);
                let refill = super::piles::refill_of(&mut sx.cx, e);
                let nullable = super::piles::or_none(&mut sx.cx, e);
                let none = super::nones::holds_none(&mut sx.cx, e);
                written(sx, s, Some(t.clone()));
                Ok(Box::new(move |m, regs| {
                    if refill.as_ref().is_some_and(|r| r.run(m, regs).is_none()) {
                        return Ok(Ctl::Walk);
                    }
                    let Some(w) = eval(m, regs, &f) else {
                        // `none` (an empty pile, `first` of no items, a local or a variable that
                        // holds it): the slot holds no word.
                        let v = if super::nones::held(&none, m, regs) {
                            Some(Value::None)
                        } else {
                            nullable.as_ref().and_then(|g| eval_value(m, regs, g))
                        };
                        if v != Some(Value::None) {
                            return Ok(Ctl::Walk);
                        }
                        regs.slots[i] = NONE;
                        m.set_local(s, Value::None);
                        return Ok(Ctl::Next);
                    };
                    regs.slots[i] = w;
                    m.set_local(s, value(&t, w));
                    Ok(Ctl::Next)
                }))
            }
            Err(why) => {
                let t = super::each::local_type(&sx.cx, e);
                written(sx, *slot, t);
                Err(why)
            }
        },
        StmtKind::Choose(slot, ch) => {
            // One item of the domain (or `none`, which the slot holds as no word), or a list of
            // them (read from the walker's context).
            let item = super::each::item_type(&sx.cx, &ch.domain);
            let chosen = match ch.count {
                ChooseCount::One => item,
                _ => item.map(|t| Ty::List(Box::new(t))),
            };
            let step = super::decisions::choose(sx, ch, at);
            written(sx, *slot, chosen);
            Ok(step)
        }
        StmtKind::CallLet(slot, proc, args) => {
            let step = super::calls::call(sx, *proc, args, Some(*slot));
            let t = sx.cx.p.procs.get(proc.index()).and_then(|d| d.ret.clone());
            written(sx, *slot, t);
            step
        }
        StmtKind::Call(proc, args) => super::calls::call(sx, *proc, args, None),
        StmtKind::Emit(ev, args) => super::calls::emit(sx, *ev, args),
        StmtKind::Perform {
            ability,
            card,
            as_card,
            by,
        } => super::calls::perform(sx, *ability, card, as_card.as_ref(), by.as_ref(), span),
        StmtKind::For {
            slot,
            list,
            filter,
            body,
        } => super::each::compile_for(sx, *slot, list, filter.as_ref(), *body, at, span),
        StmtKind::Simultaneously {
            player, players, ..
        } => {
            let step = super::decisions::simultaneous(sx, players, at);
            written(sx, *player, None);
            Ok(step)
        }
        StmtKind::Assign(t, op, e) => super::places::assign(sx, t, *op, e, span),
        StmtKind::Pay(e, t) => super::places::pay(sx, e, t, span),
        StmtKind::If(branches, other) => {
            // Conditions that draw inside (draws.rs): drawn from a copy of the generator, kept
            // once every condition tested has answered.
            let drawing = super::draws::conditions_draw(sx, branches.iter().map(|(c, _)| c));
            sx.cx.draws = drawing;
            let conds: C<Vec<Int>> = (branches.iter())
                .map(|(c, _)| compile(&mut sx.cx, c))
                .collect();
            sx.cx.draws = false;
            let conds = conds?;
            let bodies: Vec<Arc<BlockCode>> = (branches.iter().map(|(_, b)| *b))
                .chain(*other)
                .map(|b| block(sx, b))
                .collect();
            let other = bodies.len() > conds.len();
            // Conditions that read a pile first (piles.rs, `leading`): refilled, then tested.
            let refills = (!drawing)
                .then(|| super::piles::leading(&mut sx.cx, branches.iter().map(|(c, _)| c)))
                .flatten();
            if let Some(refills) = refills {
                return Ok(Box::new(move |m, regs| {
                    for (i, c) in conds.iter().enumerate() {
                        if refills[i]
                            .as_ref()
                            .is_some_and(|r| r.run(m, regs).is_none())
                        {
                            return Ok(Ctl::Walk);
                        }
                        match eval(m, regs, c) {
                            None => return Ok(Ctl::Walk),
                            Some(0) => {}
                            Some(_) => return inline(m, regs, &bodies[i], || None),
                        }
                    }
                    match other {
                        true => inline(m, regs, &bodies[conds.len()], || None),
                        false => Ok(Ctl::Next),
                    }
                }));
            }
            if drawing {
                return Ok(Box::new(move |m, regs| {
                    m.draws = Some(Box::new(super::draws::Draws::of(m)));
                    let taken = branch(m, regs, &conds, other);
                    let draws = m.draws.take();
                    let Some(taken) = taken else {
                        return Ok(Ctl::Walk);
                    };
                    if let Some(d) = draws {
                        d.keep(m);
                    }
                    match taken {
                        Some(i) => inline(m, regs, &bodies[i], || None),
                        None => Ok(Ctl::Next),
                    }
                }));
            }
            Ok(Box::new(move |m, regs| {
                match branch(m, regs, &conds, other) {
                    None => Ok(Ctl::Walk),
                    Some(Some(i)) => inline(m, regs, &bodies[i], || None),
                    Some(None) => Ok(Ctl::Next),
                }
            }))
        }
        StmtKind::While(c, body) => super::loops::compile_while(sx, c, *body, at, span),
        StmtKind::Repeat(n, body) => super::loops::compile_repeat(sx, n, *body, span),
        StmtKind::Loop(body) => Ok(super::loops::compile_loop(sx, *body, span)),
        StmtKind::Break => Ok(super::loops::compile_break()),
        StmtKind::Move {
            what,
            to,
            position,
            face,
        } => super::moves::compile_move(sx, what, to, *position, *face, span),
        StmtKind::Require(c) => {
            // A condition that draws inside, or reads a pile first, as an `if`'s (draws.rs,
            // piles.rs).
            let (cf, refill, drawing) = super::draws::condition(sx, c)?;
            if drawing || refill.is_some() {
                return Ok(Box::new(move |m, regs| {
                    match super::draws::tested(m, regs, refill.as_ref(), drawing, &cf) {
                        None => Ok(Ctl::Walk),
                        Some(0) => Ok(failed(m, span)),
                        Some(_) => Ok(Ctl::Next),
                    }
                }));
            }
            Ok(Box::new(move |m, regs| match eval(m, regs, &cf) {
                None => Ok(Ctl::Walk),
                Some(0) => Ok(failed(m, span)),
                Some(_) => Ok(Ctl::Next),
            }))
        }
        StmtKind::Stat(id, op, e) => {
            let (id, op) = (*id, *op);
            let ef = compile(&mut sx.cx, e)?;
            Ok(Box::new(move |m, regs| {
                let Some(v) = eval(m, regs, &ef) else {
                    return Ok(Ctl::Walk);
                };
                let turn = m.s.turn;
                let t = &mut m.s.tally;
                let i = id as usize;
                match op {
                    AssignOp::Set => t.records.push((id, turn, v)),
                    AssignOp::Add | AssignOp::Sub => {
                        if t.counters.len() <= i {
                            t.counters.resize(i + 1, 0);
                        }
                        let v = if op == AssignOp::Sub {
                            v.saturating_neg()
                        } else {
                            v
                        };
                        t.counters[i] = t.counters[i].saturating_add(v);
                    }
                }
                Ok(Ctl::Next)
            }))
        }
        StmtKind::StatAt(id, k, op, e) => {
            let (id, op) = (*id, *op);
            let (kf, kt) = typed(&mut sx.cx, k)?;
            let ef = compile(&mut sx.cx, e)?;
            Ok(Box::new(move |m, regs| {
                let (Some(key), Some(v)) = (eval(m, regs, &kf), eval(m, regs, &ef)) else {
                    return Ok(Ctl::Walk);
                };
                let turn = m.s.turn;
                m.s.tally.record_at(id, turn, value(&kt, key), op, v);
                Ok(Ctl::Next)
            }))
        }
        StmtKind::Log(t) if plain(&sx.cx, t) => Ok(Box::new(move |m, _| match m.s.record {
            true => super::in_place::recorded(m, at),
            false => Ok(Ctl::Next),
        })),
        // A player as a word (in the seats, else the walker's value and errors); a list of
        // them by its value closure, its effect and errors the walker's `eliminate_value`.
        StmtKind::Eliminate(e) if type_of(&sx.cx, e) == Some(Ty::Player) => {
            let (pf, vf, span) = (
                compile(&mut sx.cx, e)?,
                compile_value(&mut sx.cx, e)?,
                e.span,
            );
            Ok(Box::new(move |m, regs| match eval(m, regs, &pf) {
                Some(p) if (0..m.s.players as i64).contains(&p) => {
                    let player = p as u8;
                    if m.s.put_out(player, false) && m.s.record {
                        let name = m.s.name(player);
                        (m.s.events).push(crate::engine::trace::Event::Eliminated { player, name });
                    }
                    Ok(Ctl::Next)
                }
                _ => match eval_value(m, regs, &vf) {
                    Some(v) => m.eliminate_value(v, span).map(|()| Ctl::Next),
                    None => Ok(Ctl::Walk),
                },
            }))
        }
        StmtKind::Eliminate(e) => {
            let (f, span) = (compile_value(&mut sx.cx, e)?, e.span);
            Ok(Box::new(move |m, regs| match eval_value(m, regs, &f) {
                Some(v) => m.eliminate_value(v, span).map(|()| Ctl::Next),
                None => Ok(Ctl::Walk),
            }))
        }
        // Of a player or a list of them, by its value closure, and its effect and errors
        // (outside a round, of what is not a player) the walker's `out_for_round_of`.
        StmtKind::OutForRound(e) => {
            let (f, span) = (compile_value(&mut sx.cx, e)?, e.span);
            Ok(Box::new(move |m, regs| match eval_value(m, regs, &f) {
                Some(v) => m.out_for_round_of(v, span).map(|_| Ctl::Next),
                None => Ok(Ctl::Walk),
            }))
        }
        StmtKind::Return(e) => {
            let ret = sx
                .ret
                .clone()
                .ok_or("`return` of a body that gives nothing")?;
            let (ef, t) = typed(&mut sx.cx, e)?;
            if t != ret {
                return Err("`return` of another type than the procedure's");
            }
            Ok(Box::new(move |m, regs| {
                let Some(w) = eval(m, regs, &ef) else {
                    return Ok(Ctl::Walk);
                };
                if regs.depth > 0 {
                    return Ok(Ctl::Return(Some(w)));
                }
                m.leave_call();
                if let Some(&Frame::Result { slot }) = m.s.frames.last() {
                    m.pop_frame();
                    m.set_local(slot, value(&t, w));
                }
                Ok(Ctl::Left(Flow::Next))
            }))
        }
        // A part that draws at random or reads a pile: the walker's (see `in_place`).
        StmtKind::Log(t)
            if t.parts.iter().all(|part| match part {
                TextPartIr::Lit(_) => true,
                TextPartIr::Expr(e) => sx.pure.pure(e),
            }) =>
        {
            Ok(super::in_place::log_of_values(sx, t, at, false))
        }
        // Parts that draw inside in the walker's order: drawn from a copy of the generator, kept
        // when every part answered (draws.rs).
        StmtKind::Log(t)
            if super::draws::conditions_draw(sx, t.exprs().collect::<Vec<_>>().into_iter()) =>
        {
            sx.cx.draws = true;
            let step = super::in_place::log_of_values(sx, t, at, true);
            sx.cx.draws = false;
            Ok(super::draws::kept(step))
        }
        StmtKind::Log(_) => Err("a `log` that may draw at random out of the walker's order"),
        // The game's first draw (`State::first_draw`) at the head of a step of its own: a
        // segment reaching it elsewhere ends before it, so that a factory's games start there
        // (factory.rs), after all that every game does alike.
        StmtKind::Shuffle(e) if type_of(&sx.cx, e) == Some(Ty::Zone) => {
            let zf = compile(&mut sx.cx, e)?;
            Ok(Box::new(move |m, regs| match eval(m, regs, &zf) {
                Some(_) if m.s.first_draw == crate::engine::state::NO_DRAW && !heads(m, at) => {
                    Ok(Ctl::Walk)
                }
                Some(z) if (0..m.s.zones.len() as i64).contains(&z) => {
                    m.shuffle_zone(z as u32);
                    Ok(Ctl::Next)
                }
                _ => Ok(Ctl::Walk),
            }))
        }
        StmtKind::Shuffle(_) => Err("`shuffle` of what is not known to be a zone"),
        // Out of the body being run: its inline call ends giving `none`, else the walker's
        // `leave_call` (as a `return`'s).
        StmtKind::Stop => Ok(Box::new(|m, regs| {
            if regs.depth > 0 {
                return Ok(Ctl::Return(None));
            }
            m.leave_call();
            Ok(Ctl::Left(Flow::Next))
        })),
        StmtKind::Reveal(..) | StmtKind::Show(..) | StmtKind::LogTo(..) => {
            Err("a statement the closures leave to the walker")
        }
        StmtKind::Actions { by, mode, .. } => Ok(super::decisions::actions(sx, by, mode, at)),
        StmtKind::ChooseBranch { by, branches, .. } => {
            Ok(super::decisions::branches(sx, by.as_ref(), branches, at))
        }
        StmtKind::Phase(name, body) => Ok(super::segments::phase(sx, name, *body, at)),
        StmtKind::Turn(e, body) => super::segments::turn(sx, e, *body),
        StmtKind::EndTurn => Ok(super::segments::end_turn()),
        StmtKind::EndPhase => Ok(super::segments::end_phase()),
        StmtKind::Strict(body) => Ok(super::segments::strict(sx, *body)),
        StmtKind::Round(body) => Ok(super::segments::round(sx, *body)),
        StmtKind::EndRound => Ok(super::segments::end_round()),
        StmtKind::Win(e, _) => super::in_place::win(sx, e, false, at),
        StmtKind::WinTeam(e, _) => super::in_place::win(sx, e, true, at),
    };
    step.or_else(|why| {
        (super::in_place::in_place(sx, st, at))
            .or_else(|| super::draws::draw(sx, st))
            .ok_or(why)
    })
}

impl Regs {
    /// Registers of no word but the slots `reads` names, loaded from the walker's context.
    pub(crate) fn loaded(m: &Mach, reads: u32) -> Regs {
        let mut regs = Regs {
            slots: [NONE; super::env::SLOTS],
            you: 0,
            depth: 0,
        };
        load(m, &mut regs, reads);
        regs
    }
}

/// Loads the slots `reads` of the context on top as words (`NONE` where a local holds no word)
/// and its `you` (the active player where it has none, as the walker reads it).
#[inline]
pub(crate) fn load(m: &Mach, regs: &mut Regs, reads: u32) {
    regs.you = m.s.active;
    if let Some(ctx) = m.s.ctxs.last() {
        let mut left = reads;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(v) = ctx.locals.get(i) {
                regs.slots[i] = word(v).unwrap_or(NONE);
            }
        }
        if let Some(you) = ctx.you {
            regs.you = you;
        }
    }
}
