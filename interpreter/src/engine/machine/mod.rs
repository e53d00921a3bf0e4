//! Engine stage (the machine): one loop that runs an entry of the program's `Code` over a window
//! of registers, reading and changing the game through `Mach`.
//!
//! docs/engine.md, "The loop". The engine evaluates a root expression on the machine whenever the
//! game runs on it (`GameConfig::engine`) and the expression has an entry: the walker's `eval`
//! hands it over (`Mach::on_machine`). A function call pushes a context and runs the function's
//! entry in a window of registers above the caller's (one vector reused by every evaluation, kept
//! in `State::recycled`); expressions never pause.

mod effects;
mod stmts;
mod values;

pub(crate) use stmts::{block_entry, span_before, step_code};

use super::code::{Code, Instr, Word};
use super::eval::MAX_DEPTH;
use super::exec::Mach;
use super::state::{Ctx, SeatList};
use super::RuntimeError;
use crate::program::Aggregate;
use crate::value::Value;
use cardgame_grammar::ast::Position;
use std::sync::Arc;

type R<T> = Result<T, RuntimeError>;

impl Mach<'_> {
    /// Whether `e` runs on the machine: the game runs on it, `e` has an entry, and no guard's reads
    /// are being noted (the walker notes them; docs/engine.md, "Moving").
    #[inline(always)]
    pub(crate) fn on_machine(&self, e: &crate::program::Expr) -> bool {
        e.entry != super::code::NO_ENTRY && self.s.fixed.machine && !self.s.recording
    }
}

/// The value of entry `entry` of the program's code, in the current context.
pub(crate) fn eval(m: &mut Mach<'_>, entry: u32) -> R<Value> {
    let p = m.p;
    let Some(code) = p.code.as_deref() else {
        return Err(m.err(p.header, "the program has no code".into()));
    };
    let regs = std::mem::take(&mut m.s.recycled.get().regs);
    let top = m.s.recycled.get().regs_top;
    let mut run = Run {
        m,
        code,
        regs,
        top,
        frame: usize::MAX,
    };
    let r = run.exec(entry);
    let Run { m, regs, .. } = run;
    m.s.recycled.get().regs = regs;
    r
}

/// One evaluation: the code, the game, and the registers of every frame of the run.
struct Run<'r, 'a> {
    m: &'r mut Mach<'a>,
    code: &'a Code,
    /// Every frame's registers; a register is always written before it is read, so the values a
    /// finished frame left above `top` are overwritten, not cleared (nothing reads them).
    regs: Vec<Value>,
    /// The first register above the running frame's.
    top: usize,
    /// The index of the walker's frame (`Frame::Code`) of the block being run; `usize::MAX` when
    /// an expression is evaluated.
    frame: usize,
}

/// How a run of the loop ended.
enum Exit {
    /// An expression's value (`Ret`).
    Value(Value),
    /// The block's end (`End`): its frame is popped.
    Done,
    /// The block's frame was unwound (`return`, `stop`, a failure in `strict`).
    Left,
    /// A statement pushed the walker's frames: the block resumes when they are done.
    Pushed,
    /// A statement stopped the walker's loop (`win`).
    Stop(super::exec::Stop),
}

impl<'r, 'a> Run<'r, 'a> {
    /// Runs entry `entry` in a new window of registers; its value.
    fn exec(&mut self, entry: u32) -> R<Value> {
        let code = self.code;
        let Some(e) = code.entries.get(entry as usize) else {
            return Err(self.m.err(self.m.p.header, "unknown entry".into()));
        };
        let base = self.top;
        let top = base + e.regs as usize;
        if self.regs.len() < top {
            self.regs.resize(top, Value::None);
        }
        self.top = top;
        let r = self.run(base, e.start as usize);
        self.top = base;
        match r? {
            Exit::Value(v) => Ok(v),
            Exit::Done | Exit::Left | Exit::Pushed | Exit::Stop(_) => Err(self
                .m
                .err(self.m.p.header, "an expression ran a statement".into())),
        }
    }

    #[inline]
    fn reg(&self, base: usize, r: u16) -> &Value {
        &self.regs[base + r as usize]
    }

    /// Writes a register. The old value is taken out before it is dropped, so that the new one is
    /// written where it goes (a value built on the stack and copied there whole is read back in
    /// wider pieces than it was written, which stalls the processor).
    #[inline(always)]
    fn set(&mut self, base: usize, r: u16, v: Value) {
        let place = &mut self.regs[base + r as usize];
        drop(std::mem::replace(place, v));
    }

    /// Writes a number into a register, in place when it holds a number already.
    #[inline(always)]
    fn set_int(&mut self, base: usize, r: u16, v: i64) {
        match &mut self.regs[base + r as usize] {
            Value::Int(x) => *x = v,
            place => drop(std::mem::replace(place, Value::Int(v))),
        }
    }

    /// Writes a truth into a register, in place when it holds a truth already.
    #[inline(always)]
    fn set_bool(&mut self, base: usize, r: u16, v: bool) {
        match &mut self.regs[base + r as usize] {
            Value::Bool(x) => *x = v,
            place => drop(std::mem::replace(place, Value::Bool(v))),
        }
    }

    #[cold]
    #[inline(never)]
    fn fail(&self, pc: usize, message: String) -> RuntimeError {
        self.m.err(self.code.spans[pc], message)
    }

    #[cold]
    #[inline(never)]
    fn expected(&self, pc: usize, what: &str, v: &Value) -> RuntimeError {
        self.fail(pc, format!("expected {what}, found {}", self.m.describe(v)))
    }

    fn truth(&self, pc: usize, v: &Value) -> R<bool> {
        match v {
            Value::Bool(b) => Ok(*b),
            v => Err(self.expected(pc, "true or false", v)),
        }
    }

    fn int(&self, pc: usize, v: &Value) -> R<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            v => Err(self.expected(pc, "a number", v)),
        }
    }

    /// Charges the work done; an error at `pc` once the budget is spent.
    #[inline]
    fn charge(&mut self, pc: usize, work: u64) -> R<()> {
        self.m.s.exec_count += work;
        if self.m.s.exec_count > self.m.s.fixed.max_steps {
            let span = self.code.spans[pc];
            return Err(self.m.over_budget(span));
        }
        Ok(())
    }

    /// The loop: one `match` per instruction, from `pc` to the entry's `Ret` or `End`, or to a
    /// statement that pushed the walker's frames.
    fn run(&mut self, base: usize, mut pc: usize) -> R<Exit> {
        let code = self.code;
        let mut work = 0u64;
        loop {
            let at = pc;
            let ins = code.instrs[pc];
            pc += 1;
            work += 1;
            match ins {
                Instr::Const { dst, k } => {
                    let v = code.consts[k as usize].clone();
                    self.set(base, dst, v);
                }
                Instr::Int { dst, v } => self.set(base, dst, Value::Int(v as i64)),
                Instr::Bool { dst, v } => self.set(base, dst, Value::Bool(v)),
                Instr::Local { dst, slot } => {
                    let v = self.m.local(slot);
                    self.set(base, dst, v);
                }
                Instr::SetLocal { slot, src } => {
                    let v = self.reg(base, src).clone();
                    self.m.set_local(slot, v);
                }
                Instr::Global { dst, var } => {
                    let m = &*self.m;
                    let v =
                        m.s.globals
                            .get(m.l.var(crate::program::VarId(var)))
                            .cloned();
                    self.set(base, dst, v.unwrap_or_default());
                }
                Instr::PlayerVar { dst, var, p } => {
                    let v = self.reg(base, p).clone();
                    let p = self.m.as_player(&v, code.spans[at])?;
                    let m = &*self.m;
                    let i = p as usize * m.l.n_pvars + m.l.var(crate::program::VarId(var));
                    let v = m.s.pvars.get(i).cloned().unwrap_or_default();
                    self.set(base, dst, v);
                }
                Instr::CardVar { dst, var, c } => {
                    let v = self.reg(base, c).clone();
                    let c = self.m.as_card(&v, code.spans[at])?;
                    let m = &*self.m;
                    let i = c as usize * m.l.n_cvars + m.l.var(crate::program::VarId(var));
                    let v = m.s.cvars.get(m.l, i).cloned().unwrap_or_default();
                    self.set(base, dst, v);
                }
                Instr::OptionValue { dst, option } => {
                    let v = self.m.l.options.get(option as usize).cloned();
                    self.set(base, dst, v.unwrap_or_default());
                }
                Instr::Column { dst, column } => {
                    let v = self.m.l.columns.get(column as usize).cloned();
                    self.set(base, dst, v.unwrap_or_default());
                }
                Instr::Word { dst, word } => {
                    let m = &mut *self.m;
                    let v = match word {
                        Word::You => Value::Player(m.you().unwrap_or(m.s.active)),
                        Word::This => m.this().map(Value::Card).unwrap_or_default(),
                        Word::Active => Value::Player(m.s.active),
                        Word::Players => Value::Int(m.s.players as i64),
                        Word::Turn => Value::Int(m.s.turn as i64),
                        Word::Everyone => m.s.seat_list(SeatList::Everyone),
                        Word::Spaces => Value::list(
                            (0..m.l.spaces.len())
                                .map(|i| Value::Space(i as u16))
                                .collect(),
                        ),
                    };
                    self.set(base, dst, v);
                }
                Instr::Participant { dst, i } => {
                    let p = self.m.s.players.saturating_add(i);
                    self.set(base, dst, Value::Player(p));
                }
                Instr::Prop { dst, prop, c } => {
                    let v = self.reg(base, c).clone();
                    let c = self.m.as_card(&v, code.spans[at])?;
                    let kind = self.m.s.cards[c as usize].kind as usize;
                    let l = self.m.l;
                    let v = match l.prop_int.get(kind * l.nprops + prop as usize) {
                        Some(Some(i)) if (prop as usize) < l.nprops => Value::Int(*i),
                        _ => {
                            self.flush(&mut work);
                            self.m.s.depth += 1;
                            let v = self.m.prop(prop as usize, c, code.spans[at]);
                            self.m.s.depth -= 1;
                            v?
                        }
                    };
                    self.set(base, dst, v);
                }
                Instr::TagOf { dst, group, c } => {
                    let v = self.reg(base, c).clone();
                    let v = values::tag_of(self.m, &v, group, code.spans[at])?;
                    self.set(base, dst, v);
                }
                Instr::Field { dst, field, x } => {
                    let v = self.reg(base, x).clone();
                    let v = values::field(self.m, field, v, code.spans[at])?;
                    self.set(base, dst, v);
                }
                Instr::ZoneShared { dst, zone } => {
                    let z = self.m.zone_of(zone as usize, None, code.spans[at])?;
                    self.set(base, dst, Value::Zone(z));
                }
                Instr::ZoneOf { dst, zone, holder } => {
                    let h = self.reg(base, holder).clone();
                    let z = self.m.zone_of(zone as usize, Some(h), code.spans[at])?;
                    self.set(base, dst, Value::Zone(z));
                }
                Instr::Neg { dst, x } => {
                    let v = match self.reg(base, x) {
                        Value::Int(i) => match i.checked_neg() {
                            Some(n) => Value::Int(n),
                            None => return Err(self.fail(at, "arithmetic overflow".into())),
                        },
                        v => return Err(self.cannot(at, "-", v)),
                    };
                    self.set(base, dst, v);
                }
                Instr::Not { dst, x } => {
                    let v = match self.reg(base, x) {
                        Value::Bool(b) => Value::Bool(!b),
                        v => return Err(self.cannot(at, "not", v)),
                    };
                    self.set(base, dst, v);
                }
                Instr::Binary { op, dst, a, b } => {
                    let v = match (self.reg(base, a), self.reg(base, b)) {
                        (Value::Int(i), Value::Int(j)) => values::ints(op, *i, *j),
                        _ => None,
                    };
                    let v = match v {
                        Some(v) => v,
                        None => {
                            let (x, y) = (self.reg(base, a).clone(), self.reg(base, b).clone());
                            self.flush(&mut work);
                            values::binary(self.m, op, x, y, code.spans[at])?
                        }
                    };
                    self.set(base, dst, v);
                }
                Instr::IsKind { dst, x, kind, neg } => {
                    let is = match self.reg(base, x) {
                        Value::Card(c) => self.m.s.cards.get(*c as usize).map(|cs| cs.kind == kind),
                        Value::Kind(k) => Some(*k == kind),
                        _ => None,
                    };
                    self.set_bool(base, dst, is.is_some_and(|is| is != neg));
                }
                Instr::IsTag { dst, x, tag, neg } => {
                    let p = self.m.p;
                    let t = crate::program::TagId(tag);
                    let has = match self.reg(base, x) {
                        Value::Card(c) => self.m.s.cards.get(*c as usize).map(|cs| {
                            p.kinds
                                .get(cs.kind as usize)
                                .is_some_and(|k| k.tags.binary_search(&t).is_ok())
                        }),
                        Value::Kind(k) => Some(
                            p.kinds
                                .get(*k as usize)
                                .is_some_and(|k| k.tags.binary_search(&t).is_ok()),
                        ),
                        Value::Tag(x) => Some(*x == tag),
                        _ => None,
                    };
                    self.set_bool(base, dst, has.is_some_and(|h| h != neg));
                }
                Instr::KindIn {
                    dst,
                    slot,
                    table,
                    general,
                } => match self.card_kind(slot) {
                    Some(k) => {
                        let v = code.truths[table as usize][k];
                        self.set_bool(base, dst, v);
                    }
                    None => pc = general as usize,
                },
                Instr::KindInt {
                    dst,
                    slot,
                    table,
                    general,
                } => match self.card_kind(slot) {
                    Some(k) => {
                        let v = code.ints[table as usize][k];
                        self.set_int(base, dst, v);
                    }
                    None => pc = general as usize,
                },
                Instr::Jump { to } => {
                    // A jump back closes a loop: the budget is tested there, so that a loop that
                    // never ends is stopped.
                    if (to as usize) < at {
                        self.flush(&mut work);
                        self.charge(at, 0)?;
                    }
                    pc = to as usize;
                }
                Instr::JumpUnless { c, to } => {
                    if !self.truth(at, self.reg(base, c))? {
                        pc = to as usize;
                    }
                }
                Instr::JumpIf { c, to } => {
                    if self.truth(at, self.reg(base, c))? {
                        pc = to as usize;
                    }
                }
                Instr::List { dst, first, n } => {
                    let s = base + first as usize;
                    let v = Value::list(self.regs[s..s + n as usize].to_vec());
                    self.set(base, dst, v);
                }
                Instr::Range { dst, a, b } => {
                    let (i, j) = (
                        self.int(at, self.reg(base, a))?,
                        self.int(at, self.reg(base, b))?,
                    );
                    self.flush(&mut work);
                    let v = values::range(self.m, i, j, code.spans[at])?;
                    self.set(base, dst, v);
                }
                Instr::IterInit { it, list, slot } => {
                    let v = self.reg(base, list).clone();
                    let (v, n) = match v {
                        Value::Zone(z) if (z as usize) < self.m.s.zones.len() => {
                            let n = self.m.s.zones[z as usize].cards.len();
                            (Value::Zone(z), n)
                        }
                        v => {
                            let l = self.m.as_list(v, code.spans[at])?;
                            let n = l.len();
                            (Value::List(l), n)
                        }
                    };
                    self.flush(&mut work);
                    self.charge(at, n as u64)?;
                    let saved = self.m.local(slot);
                    self.set(base, it, v);
                    self.set(base, it + 1, Value::Int(0));
                    self.set(base, it + 2, saved);
                }
                Instr::IterNext { it, slot, end } => {
                    let Value::Int(i) = *self.reg(base, it + 1) else {
                        return Err(self.fail(at, "a walk without its index".into()));
                    };
                    let i = i as usize;
                    let item = match self.reg(base, it) {
                        Value::Zone(z) => {
                            let cards = &self.m.s.zones[*z as usize].cards;
                            cards
                                .len()
                                .checked_sub(i + 1)
                                .and_then(|j| cards.get(j))
                                .map(|&c| Value::Card(c))
                        }
                        Value::List(l) => l.get(i).cloned(),
                        _ => None,
                    };
                    match item {
                        Some(v) => {
                            self.set(base, it + 1, Value::Int(i as i64 + 1));
                            self.m.set_local(slot, v);
                        }
                        None => pc = end as usize,
                    }
                }
                Instr::IterEnd { it, slot } => {
                    let saved = std::mem::take(&mut self.regs[base + it as usize + 2]);
                    self.m.set_local(slot, saved);
                    self.set(base, it, Value::None);
                }
                Instr::CountKinds {
                    dst,
                    zone,
                    table,
                    op,
                } => {
                    let Value::Zone(z) = *self.reg(base, zone) else {
                        let v = self.reg(base, zone).clone();
                        return Err(self.expected(at, "a zone", &v));
                    };
                    let s = &self.m.s;
                    let t = &code.truths[table as usize];
                    let cards = &s.zones[z as usize].cards;
                    let n = cards.len();
                    let pass = |c: &u32| t[s.cards[*c as usize].kind as usize];
                    let v = match op {
                        Aggregate::Any => Value::Bool(cards.iter().rev().any(pass)),
                        Aggregate::All => Value::Bool(cards.iter().rev().all(pass)),
                        _ => Value::Int(cards.iter().filter(|c| pass(c)).count() as i64),
                    };
                    self.flush(&mut work);
                    self.charge(at, n as u64)?;
                    self.set(base, dst, v);
                }
                Instr::SumKinds {
                    dst,
                    zone,
                    table,
                    pass,
                    op,
                } => {
                    let Value::Zone(z) = *self.reg(base, zone) else {
                        let v = self.reg(base, zone).clone();
                        return Err(self.expected(at, "a zone", &v));
                    };
                    let s = &self.m.s;
                    let t = &code.ints[table as usize];
                    let keep = code.truths.get(pass as usize);
                    let cards = &s.zones[z as usize].cards;
                    let n = cards.len();
                    let mut acc: Option<i64> = None;
                    let mut sum = 0i64;
                    let mut overflow = false;
                    for &c in cards.iter().rev() {
                        let k = s.cards[c as usize].kind as usize;
                        if keep.is_some_and(|keep| !keep[k]) {
                            continue;
                        }
                        let v = t[k];
                        match op {
                            Aggregate::Sum => match sum.checked_add(v) {
                                Some(x) => sum = x,
                                None => overflow = true,
                            },
                            Aggregate::Max => acc = Some(acc.map_or(v, |a| a.max(v))),
                            _ => acc = Some(acc.map_or(v, |a| a.min(v))),
                        }
                    }
                    self.flush(&mut work);
                    self.charge(at, n as u64)?;
                    if overflow {
                        return Err(self.fail(at, "arithmetic overflow".into()));
                    }
                    let v = if op == Aggregate::Sum {
                        sum
                    } else {
                        acc.unwrap_or(0)
                    };
                    self.set_int(base, dst, v);
                }
                Instr::Fold { op, acc, v } => {
                    let x = self.int(at, self.reg(base, v))?;
                    let r = match (op, self.reg(base, acc)) {
                        (Aggregate::Sum, Value::Int(s)) => match s.checked_add(x) {
                            Some(s) => s,
                            None => return Err(self.fail(at, "arithmetic overflow".into())),
                        },
                        (Aggregate::Max, Value::Int(b)) => x.max(*b),
                        (Aggregate::Min, Value::Int(b)) => x.min(*b),
                        _ => x,
                    };
                    self.set_int(base, acc, r);
                }
                Instr::FoldEnd { acc } => {
                    if self.reg(base, acc).is_none() {
                        self.set_int(base, acc, 0);
                    }
                }
                Instr::Push { acc, v } => {
                    let x = self.reg(base, v).clone();
                    if let Value::List(l) = &mut self.regs[base + acc as usize] {
                        Arc::make_mut(l).push(x);
                    }
                }
                Instr::Extend { acc, v } => {
                    let x = self.reg(base, v).clone();
                    let mut list = std::mem::take(&mut self.regs[base + acc as usize]);
                    self.flush(&mut work);
                    let r = values::extend(self.m, &mut list, x, code.spans[at]);
                    self.set(base, acc, list);
                    r?;
                }
                Instr::SortPairs { acc } => {
                    let v = std::mem::take(&mut self.regs[base + acc as usize]);
                    self.set(base, acc, values::sort_pairs(v));
                }
                Instr::Pile {
                    dst,
                    zone,
                    n,
                    position,
                } => {
                    let zv = self.reg(base, zone).clone();
                    let count = match n {
                        u16::MAX => None,
                        n => Some(self.int(at, self.reg(base, n))?),
                    };
                    self.flush(&mut work);
                    let v =
                        values::pile(self.m, zv, count, position == Position::Top, code.spans[at])?;
                    self.set(base, dst, v);
                }
                Instr::Builtin {
                    dst,
                    builtin,
                    first,
                    n,
                } => {
                    self.flush(&mut work);
                    let s = base + first as usize;
                    let span = code.spans[at];
                    let v = self.m.apply_builtin(
                        builtin,
                        &|_| span,
                        &self.regs[s..s + n as usize],
                        span,
                    )?;
                    self.set(base, dst, v);
                }
                Instr::Call { dst, f, first, n } => {
                    self.flush(&mut work);
                    let v = self.call(at, f, base + first as usize, n as usize)?;
                    self.set(base, dst, v);
                }
                Instr::Text { dst, t, first } => {
                    self.flush(&mut work);
                    let s = base + first as usize;
                    let text = &code.texts[t as usize];
                    let v = values::text(self.m, text, &self.regs[s..s + text.spans.len()])?;
                    self.set(base, dst, v);
                }
                Instr::Ret { src } => {
                    self.flush(&mut work);
                    self.charge(at, 0)?;
                    return Ok(Exit::Value(std::mem::take(
                        &mut self.regs[base + src as usize],
                    )));
                }
                Instr::Walk { w, live } => {
                    self.flush(&mut work);
                    self.charge(at, 0)?;
                    if let Some(exit) = self.walk(base, w, pc, live)? {
                        return Ok(exit);
                    }
                }
                Instr::Assign { a, holder, src } => {
                    self.flush(&mut work);
                    self.assign(base, at, a, holder, src)?;
                }
                Instr::Fail => {
                    self.m.fail(code.spans[at]);
                    if !self.frame_stands() {
                        self.flush(&mut work);
                        return Ok(Exit::Left);
                    }
                }
                Instr::Snapshot { dst, src } => {
                    let v = std::mem::take(&mut self.regs[base + src as usize]);
                    let l = self.m.as_list(v, code.spans[at])?;
                    self.set(base, dst, Value::List(l));
                }
                Instr::CountDown { n, end } => {
                    let left = self.int(at, self.reg(base, n))?;
                    if left > 0 {
                        self.set_int(base, n, left - 1);
                    } else {
                        pc = end as usize;
                    }
                }
                Instr::End => {
                    self.flush(&mut work);
                    self.charge(at, 0)?;
                    return Ok(Exit::Done);
                }
                Instr::ShortClear => self.m.s.short = false,
                Instr::ShortTake { dst } => {
                    let short = self.m.s.short;
                    self.set_bool(base, dst, short);
                }
                Instr::Move { m, what, to } => {
                    self.flush(&mut work);
                    if let Some(exit) = self.move_cards(base, at, m, what, to)? {
                        return Ok(exit);
                    }
                }
                Instr::Perform { f, card, live } => {
                    self.flush(&mut work);
                    self.charge(at, 0)?;
                    if let Some(exit) = self.perform(base, at, pc, f, card, live)? {
                        return Ok(exit);
                    }
                }
                Instr::CallProc {
                    proc,
                    first,
                    n,
                    slot,
                    live,
                } => {
                    self.flush(&mut work);
                    self.charge(at, 0)?;
                    return self.call_proc(base, at, pc, proc, first, n, slot, live);
                }
                Instr::Return { src } => {
                    self.flush(&mut work);
                    self.charge(at, 0)?;
                    return Ok(self.ret(base, src));
                }
                Instr::Log { w, skip } => {
                    if self.log_skips(w) {
                        pc = skip as usize;
                    }
                }
                Instr::LogPush { src } => self.log_push(base, src),
                Instr::Stat { id, op, src } => self.stat(base, at, id, op, src)?,
                Instr::Pay { a, holder, src } => {
                    self.flush(&mut work);
                    if let Some(exit) = self.pay(base, at, a, holder, src)? {
                        return Ok(exit);
                    }
                }
            }
        }
    }

    /// Adds the instructions run so far to the game's work (tested at the next `charge`).
    #[inline]
    fn flush(&mut self, work: &mut u64) {
        self.m.s.exec_count += *work;
        *work = 0;
    }

    /// The kind of the card local `slot` holds.
    #[inline]
    fn card_kind(&self, slot: u16) -> Option<usize> {
        match self.m.s.ctxs.last()?.locals.get(slot as usize)? {
            Value::Card(c) => self.m.s.cards.get(*c as usize).map(|cs| cs.kind as usize),
            _ => None,
        }
    }

    #[cold]
    #[inline(never)]
    fn cannot(&self, pc: usize, op: &str, v: &Value) -> RuntimeError {
        self.fail(pc, format!("cannot apply `{op}` to {}", self.m.describe(v)))
    }

    /// A user function's call: its arguments (registers `first..first + n`) in a new context.
    fn call(&mut self, at: usize, f: u16, first: usize, n: usize) -> R<Value> {
        let m = &mut *self.m;
        if m.s.depth >= MAX_DEPTH {
            return Err(self.fail(
                at,
                "expressions, functions or properties nested too deeply (endless recursion?)"
                    .into(),
            ));
        }
        let p = m.p;
        let Some(def) = p.fns.get(f as usize) else {
            return Err(self.fail(at, "unknown function".into()));
        };
        let mut locals = m.s.take_locals(0);
        locals.extend(self.regs[first..first + n].iter().cloned());
        super::state::grow_locals(&mut locals, def.slots as usize);
        let (you, this) = (m.you(), m.this());
        let outer = m.s.ctxs.len();
        m.s.ctxs.push(Ctx { locals, you, this });
        m.s.depth += 1;
        let entry = self.code.fns[f as usize];
        let r = self.exec(entry);
        self.m.s.depth -= 1;
        self.m.s.truncate_ctxs(outer);
        r
    }
}
