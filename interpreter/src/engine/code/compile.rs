//! Engine stage (code): the compiler from the lowered program's expressions to `Code`.
//!
//! Every root expression (roots.rs) becomes one entry. Registers are given out like a stack: an
//! expression's value goes to the register it is given, its operands to the registers above, which
//! are free again once it is computed. The match over expression kinds is exhaustive: a kind the
//! machine does not cover yet is an `Uncovered` answer, and the program then runs on the walker.

use super::{kinds, roots, Code, Entry, Instr, Reg, TextCode, Uncovered, Word, NO_ENTRY};
use crate::program::{Aggregate, BinOp, Expr, ExprKind, Program, TextPartIr, UnOp};
use crate::value::Value;
use cardgame_grammar::ast::Span;

type C<T> = Result<T, Uncovered>;

/// Builds the program's code and numbers its root expressions; on a construct not covered, leaves
/// `code` empty and says which in `uncovered`.
pub(crate) fn attach(p: &mut Program) {
    match compile(p) {
        Ok(code) => {
            let mut next = 0u32;
            roots::each_root_mut(p, &mut |e| {
                e.entry = next;
                next += 1;
            });
            debug_assert!(next as usize <= code.entries.len());
            p.code = Some(std::sync::Arc::new(code));
            p.uncovered = None;
        }
        Err(u) => {
            roots::each_root_mut(p, &mut |e| e.entry = NO_ENTRY);
            p.code = None;
            p.uncovered = Some(u);
        }
    }
}

/// The program's root expressions in entry order, for the engine's tests.
#[cfg(test)]
pub(crate) fn each_root_for_tests(p: &Program, f: &mut dyn FnMut(&Expr)) {
    roots::each_root(p, f)
}

/// Compiles every root expression of the program, in the order of `roots::each_root`.
fn compile(p: &Program) -> C<Code> {
    let mut c = Compiler {
        p,
        code: Code::default(),
        next: 0,
        most: 0,
    };
    let mut failed = None;
    roots::each_root(p, &mut |e| {
        if failed.is_none() {
            if let Err(u) = c.root(e) {
                failed = Some(u);
            }
        }
    });
    if let Some(u) = failed {
        return Err(u);
    }
    // The functions' bodies are the first roots.
    c.code.fns = (0..p.fns.len() as u32).collect();
    // Then the blocks, after every root (so that the roots keep their numbers).
    c.blocks()?;
    Ok(c.code)
}

pub(super) struct Compiler<'p> {
    pub(super) p: &'p Program,
    pub(super) code: Code,
    /// The first free register of the entry being compiled.
    pub(super) next: Reg,
    /// The registers the entry needs.
    pub(super) most: Reg,
}

pub(super) fn uncovered(what: &'static str, span: Span) -> Uncovered {
    Uncovered { what, span }
}

impl<'p> Compiler<'p> {
    fn root(&mut self, e: &Expr) -> C<()> {
        let start = self.code.instrs.len() as u32;
        self.next = 0;
        self.most = 0;
        let r = self.value(e)?;
        self.emit(Instr::Ret { src: r }, e.span);
        self.code.entries.push(Entry {
            start,
            regs: self.most,
        });
        Ok(())
    }

    pub(super) fn emit(&mut self, i: Instr, span: Span) -> u32 {
        self.code.instrs.push(i);
        self.code.spans.push(span);
        (self.code.instrs.len() - 1) as u32
    }

    pub(super) fn here(&self) -> u32 {
        self.code.instrs.len() as u32
    }

    /// Points the jump at `at` to `to`.
    pub(super) fn patch(&mut self, at: u32, to: u32) {
        match &mut self.code.instrs[at as usize] {
            Instr::Jump { to: t }
            | Instr::JumpIf { to: t, .. }
            | Instr::JumpUnless { to: t, .. }
            | Instr::KindIn { general: t, .. }
            | Instr::KindInt { general: t, .. }
            | Instr::IterNext { end: t, .. }
            | Instr::CountDown { end: t, .. }
            | Instr::Log { skip: t, .. } => *t = to,
            _ => {}
        }
    }

    pub(super) fn alloc(&mut self, n: u16, span: Span) -> C<Reg> {
        let r = self.next;
        self.next = self
            .next
            .checked_add(n)
            .ok_or_else(|| uncovered("an expression too large for one frame", span))?;
        self.most = self.most.max(self.next);
        Ok(r)
    }

    /// `e` into a new register.
    pub(super) fn value(&mut self, e: &Expr) -> C<Reg> {
        let r = self.alloc(1, e.span)?;
        self.into(e, r)?;
        Ok(r)
    }

    /// `e` into register `dst`; the registers above it are free again afterwards.
    pub(super) fn into(&mut self, e: &Expr, dst: Reg) -> C<()> {
        let mark = self.next;
        if !self.by_kind(e, dst)? {
            self.general(e, dst)?;
        }
        self.next = mark.max(dst + 1);
        Ok(())
    }

    /// A test or number of one card's kind alone: a table read, with the general code beside it
    /// for a local that holds no card. False when `e` is no such expression.
    fn by_kind(&mut self, e: &Expr, dst: Reg) -> C<bool> {
        let worth = matches!(
            e.kind,
            ExprKind::IsKind(..)
                | ExprKind::IsTag(..)
                | ExprKind::Unary(..)
                | ExprKind::Binary(..)
                | ExprKind::If(..)
                | ExprKind::CallFn(..)
                | ExprKind::Builtin(..)
        );
        let Some(slot) = worth.then(|| kinds::subject(e)).flatten() else {
            return Ok(false);
        };
        let at = if let Some(t) = kinds::truths(self.p, e, slot) {
            let table = self.table_truths(t, e.span)?;
            self.emit(
                Instr::KindIn {
                    dst,
                    slot,
                    table,
                    general: 0,
                },
                e.span,
            )
        } else if let Some(t) = kinds::ints(self.p, e, slot) {
            let table = self.table_ints(t, e.span)?;
            self.emit(
                Instr::KindInt {
                    dst,
                    slot,
                    table,
                    general: 0,
                },
                e.span,
            )
        } else {
            return Ok(false);
        };
        let over = self.emit(Instr::Jump { to: 0 }, e.span);
        let general = self.here();
        self.patch(at, general);
        self.general(e, dst)?;
        let end = self.here();
        self.patch(over, end);
        Ok(true)
    }

    fn table_truths(&mut self, t: Box<[bool]>, span: Span) -> C<u16> {
        if let Some(i) = self.code.truths.iter().position(|x| *x == t) {
            return Ok(i as u16);
        }
        self.code.truths.push(t);
        u16::try_from(self.code.truths.len() - 1)
            .map_err(|_| uncovered("too many kind tests", span))
    }

    fn table_ints(&mut self, t: Box<[i64]>, span: Span) -> C<u16> {
        if let Some(i) = self.code.ints.iter().position(|x| *x == t) {
            return Ok(i as u16);
        }
        self.code.ints.push(t);
        u16::try_from(self.code.ints.len() - 1)
            .map_err(|_| uncovered("too many kind numbers", span))
    }

    fn constant(&mut self, v: &Value, dst: Reg, span: Span) {
        let i = match v {
            Value::Int(i) => i32::try_from(*i).ok().map(|v| Instr::Int { dst, v }),
            Value::Bool(b) => Some(Instr::Bool { dst, v: *b }),
            _ => None,
        };
        let i = i.unwrap_or_else(|| {
            self.code.consts.push(v.clone());
            Instr::Const {
                dst,
                k: (self.code.consts.len() - 1) as u32,
            }
        });
        self.emit(i, span);
    }

    /// Expressions `xs` into consecutive new registers; the first of them.
    pub(super) fn args(&mut self, xs: &[Expr], span: Span) -> C<(Reg, u16)> {
        let n = u16::try_from(xs.len()).map_err(|_| uncovered("too many arguments", span))?;
        let first = self.alloc(n, span)?;
        for (i, x) in xs.iter().enumerate() {
            let mark = self.next;
            self.into(x, first + i as u16)?;
            self.next = mark;
        }
        Ok((first, n))
    }

    fn general(&mut self, e: &Expr, dst: Reg) -> C<()> {
        let span = e.span;
        match &e.kind {
            ExprKind::Const(v) => self.constant(v, dst, span),
            ExprKind::Local(slot) => {
                self.emit(Instr::Local { dst, slot: *slot }, span);
            }
            ExprKind::Global(v) => {
                self.emit(Instr::Global { dst, var: v.0 }, span);
            }
            ExprKind::PlayerVar(v, x) => {
                let p = self.value(x)?;
                self.emit(Instr::PlayerVar { dst, var: v.0, p }, x.span);
            }
            ExprKind::CardVar(v, x) => {
                let c = self.value(x)?;
                self.emit(Instr::CardVar { dst, var: v.0, c }, x.span);
            }
            ExprKind::Option(o) => {
                self.emit(Instr::OptionValue { dst, option: o.0 }, span);
            }
            ExprKind::Column(c) => {
                self.emit(Instr::Column { dst, column: c.0 }, span);
            }
            ExprKind::Prop(prop, x) => {
                let c = self.value(x)?;
                self.emit(
                    Instr::Prop {
                        dst,
                        prop: prop.0,
                        c,
                    },
                    x.span,
                );
            }
            ExprKind::TagOf(g, x) => {
                let c = self.value(x)?;
                self.emit(Instr::TagOf { dst, group: g.0, c }, x.span);
            }
            ExprKind::Field(field, x) => {
                let x2 = self.value(x)?;
                self.emit(
                    Instr::Field {
                        dst,
                        field: *field,
                        x: x2,
                    },
                    x.span,
                );
            }
            ExprKind::Zone(z, None) => {
                self.emit(Instr::ZoneShared { dst, zone: z.0 }, span);
            }
            ExprKind::Zone(z, Some(h)) => {
                let holder = self.value(h)?;
                self.emit(
                    Instr::ZoneOf {
                        dst,
                        zone: z.0,
                        holder,
                    },
                    span,
                );
            }
            ExprKind::Spaces => self.word(Word::Spaces, dst, span),
            ExprKind::You => self.word(Word::You, dst, span),
            ExprKind::This => self.word(Word::This, dst, span),
            ExprKind::Active => self.word(Word::Active, dst, span),
            ExprKind::Players => self.word(Word::Players, dst, span),
            ExprKind::Everyone => self.word(Word::Everyone, dst, span),
            ExprKind::TurnNumber => self.word(Word::Turn, dst, span),
            ExprKind::Participant(i) => {
                self.emit(Instr::Participant { dst, i: *i }, span);
            }
            ExprKind::Unary(op, x) => {
                let x2 = self.value(x)?;
                let i = match op {
                    UnOp::Neg => Instr::Neg { dst, x: x2 },
                    UnOp::Not => Instr::Not { dst, x: x2 },
                };
                self.emit(i, span);
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                // `a and b`: b only when a holds; both must be truths (the jumps test them).
                self.into(a, dst)?;
                let skip = if *op == BinOp::And {
                    self.emit(Instr::JumpUnless { c: dst, to: 0 }, a.span)
                } else {
                    self.emit(Instr::JumpIf { c: dst, to: 0 }, a.span)
                };
                self.into(b, dst)?;
                let end = self.here() + 1;
                self.emit(Instr::JumpIf { c: dst, to: end }, b.span);
                self.patch(skip, end);
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.value(a)?;
                let y = self.value(b)?;
                self.emit(
                    Instr::Binary {
                        op: *op,
                        dst,
                        a: x,
                        b: y,
                    },
                    span,
                );
            }
            ExprKind::IsTag(x, t, neg) => {
                let x2 = self.value(x)?;
                self.emit(
                    Instr::IsTag {
                        dst,
                        x: x2,
                        tag: t.0,
                        neg: *neg,
                    },
                    span,
                );
            }
            ExprKind::IsKind(x, k, neg) => {
                let x2 = self.value(x)?;
                self.emit(
                    Instr::IsKind {
                        dst,
                        x: x2,
                        kind: k.0,
                        neg: *neg,
                    },
                    span,
                );
            }
            ExprKind::If(c, a, b) => {
                self.into(c, dst)?;
                let to_else = self.emit(Instr::JumpUnless { c: dst, to: 0 }, c.span);
                self.into(a, dst)?;
                let to_end = self.emit(Instr::Jump { to: 0 }, span);
                let other = self.here();
                self.patch(to_else, other);
                self.into(b, dst)?;
                let end = self.here();
                self.patch(to_end, end);
            }
            ExprKind::List(items) => {
                let (first, n) = self.args(items, span)?;
                self.emit(Instr::List { dst, first, n }, span);
            }
            ExprKind::Range(a, b) => {
                let x = self.value(a)?;
                let y = self.value(b)?;
                self.emit(Instr::Range { dst, a: x, b: y }, span);
            }
            ExprKind::Aggregate {
                op,
                value,
                slot,
                list,
                filter,
            } => self.aggregate(
                *op,
                value.as_deref(),
                *slot,
                list,
                filter.as_deref(),
                dst,
                span,
            )?,
            ExprKind::Pile {
                position,
                count,
                zone,
            } => {
                let z = self.value(zone)?;
                let n = match count {
                    Some(c) => self.value(c)?,
                    None => u16::MAX,
                };
                self.emit(
                    Instr::Pile {
                        dst,
                        zone: z,
                        n,
                        position: *position,
                    },
                    zone.span,
                );
            }
            ExprKind::Builtin(b, args) => {
                let (first, n) = self.args(args, span)?;
                self.emit(
                    Instr::Builtin {
                        dst,
                        builtin: *b,
                        first,
                        n,
                    },
                    span,
                );
            }
            ExprKind::CallFn(f, args) => {
                let (first, n) = self.args(args, span)?;
                self.emit(
                    Instr::Call {
                        dst,
                        f: f.0,
                        first,
                        n,
                    },
                    span,
                );
            }
            ExprKind::Text(t) => self.text(t, dst, span)?,
            ExprKind::Let(slot, v, body) => {
                let r = self.value(v)?;
                self.emit(
                    Instr::SetLocal {
                        slot: *slot,
                        src: r,
                    },
                    span,
                );
                self.into(body, dst)?;
            }
        }
        Ok(())
    }

    /// A text into `dst`: its interpolated values into new registers, then `Text`.
    pub(super) fn text(&mut self, t: &crate::program::TextIr, dst: Reg, span: Span) -> C<()> {
        let mut lits = vec![String::new()];
        let mut spans = Vec::new();
        let mut xs = Vec::new();
        for part in &t.parts {
            match part {
                TextPartIr::Lit(s) => lits.last_mut().into_iter().for_each(|l| l.push_str(s)),
                TextPartIr::Expr(x) => {
                    xs.push(x);
                    spans.push(x.span);
                    lits.push(String::new());
                }
            }
        }
        let first = self.alloc(xs.len() as u16, span)?;
        for (i, x) in xs.iter().enumerate() {
            let mark = self.next;
            self.into(x, first + i as u16)?;
            self.next = mark;
        }
        self.code.texts.push(TextCode { lits, spans });
        let t = (self.code.texts.len() - 1) as u32;
        self.emit(Instr::Text { dst, t, first }, span);
        Ok(())
    }

    fn word(&mut self, word: Word, dst: Reg, span: Span) {
        self.emit(Instr::Word { dst, word }, span);
    }

    /// `count`, `sum`, `any`, ... over a list: one instruction for a zone and a test of the card's
    /// kind, else a loop of ordinary instructions.
    #[allow(clippy::too_many_arguments)]
    fn aggregate(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
        dst: Reg,
        span: Span,
    ) -> C<()> {
        if matches!(list.kind, ExprKind::Zone(..))
            && self.by_kind_aggregate(op, value, slot, list, filter, dst, span)?
        {
            return Ok(());
        }
        let it = self.alloc(4, span)?;
        self.into(list, it)?;
        self.emit(Instr::IterInit { it, list: it, slot }, span);
        match op {
            Aggregate::Count | Aggregate::Sum => self.constant(&Value::Int(0), dst, span),
            Aggregate::Max | Aggregate::Min => self.constant(&Value::None, dst, span),
            Aggregate::Any => self.constant(&Value::Bool(false), dst, span),
            Aggregate::All => self.constant(&Value::Bool(true), dst, span),
            Aggregate::Filter
            | Aggregate::Map
            | Aggregate::TakeWhile
            | Aggregate::Sort
            | Aggregate::Flatten => self.constant(&Value::list(Vec::new()), dst, span),
        }
        let head = self.emit(Instr::IterNext { it, slot, end: 0 }, span);
        let mut exits = Vec::new();
        if !matches!(op, Aggregate::Any | Aggregate::All) {
            if let Some(f) = filter {
                let t = self.value(f)?;
                let j = self.emit(Instr::JumpUnless { c: t, to: head }, f.span);
                if op == Aggregate::TakeWhile {
                    exits.push(j);
                }
                self.next = t;
            }
        }
        match op {
            Aggregate::Count => {
                let one = self.alloc(1, span)?;
                self.emit(Instr::Int { dst: one, v: 1 }, span);
                self.emit(
                    Instr::Binary {
                        op: BinOp::Add,
                        dst,
                        a: dst,
                        b: one,
                    },
                    span,
                );
                self.next = one;
            }
            Aggregate::Sum | Aggregate::Max | Aggregate::Min => {
                let v = match value {
                    Some(v) => self.value(v)?,
                    None => {
                        let r = self.alloc(1, span)?;
                        self.emit(Instr::Local { dst: r, slot }, span);
                        r
                    }
                };
                self.emit(Instr::Fold { op, acc: dst, v }, span);
                self.next = v;
            }
            Aggregate::Any | Aggregate::All => {
                let t = match filter.or(value) {
                    Some(f) => self.value(f)?,
                    None => {
                        let r = self.alloc(1, span)?;
                        self.emit(Instr::Bool { dst: r, v: true }, span);
                        r
                    }
                };
                let sp = filter.or(value).map_or(span, |f| f.span);
                if op == Aggregate::Any {
                    self.emit(Instr::JumpUnless { c: t, to: head }, sp);
                    self.emit(Instr::Bool { dst, v: true }, span);
                } else {
                    self.emit(Instr::JumpIf { c: t, to: head }, sp);
                    self.emit(Instr::Bool { dst, v: false }, span);
                }
                exits.push(self.emit(Instr::Jump { to: 0 }, span));
                self.next = t;
            }
            Aggregate::Filter | Aggregate::TakeWhile | Aggregate::Map | Aggregate::Flatten => {
                let v = match (op, value) {
                    (Aggregate::Map | Aggregate::Flatten, Some(v)) => self.value(v)?,
                    _ => {
                        let r = self.alloc(1, span)?;
                        self.emit(Instr::Local { dst: r, slot }, span);
                        r
                    }
                };
                let sp = value.map_or(span, |v| v.span);
                if op == Aggregate::Flatten {
                    self.emit(Instr::Extend { acc: dst, v }, sp);
                } else {
                    self.emit(Instr::Push { acc: dst, v }, span);
                }
                self.next = v;
            }
            Aggregate::Sort => {
                // The key, then the item: `SortPairs` sorts the pairs by key at the end.
                let k = match value {
                    Some(v) => self.value(v)?,
                    None => {
                        let r = self.alloc(1, span)?;
                        self.emit(Instr::Local { dst: r, slot }, span);
                        r
                    }
                };
                self.emit(Instr::Push { acc: dst, v: k }, span);
                self.emit(Instr::Local { dst: k, slot }, span);
                self.emit(Instr::Push { acc: dst, v: k }, span);
                self.next = k;
            }
        }
        self.emit(Instr::Jump { to: head }, span);
        let end = self.here();
        self.patch(head, end);
        for j in exits {
            self.patch(j, end);
        }
        self.emit(Instr::IterEnd { it, slot }, span);
        if matches!(op, Aggregate::Max | Aggregate::Min) {
            self.emit(Instr::FoldEnd { acc: dst }, span);
        }
        if op == Aggregate::Sort {
            self.emit(Instr::SortPairs { acc: dst }, span);
        }
        Ok(())
    }

    /// `count(c in Z where T)`, `any`, `all`, and `sum(N for c in Z where T)` (also `max`, `min`)
    /// where T and N read only the card's kind: one instruction.
    #[allow(clippy::too_many_arguments)]
    fn by_kind_aggregate(
        &mut self,
        op: Aggregate,
        value: Option<&Expr>,
        slot: u16,
        list: &Expr,
        filter: Option<&Expr>,
        dst: Reg,
        span: Span,
    ) -> C<bool> {
        match op {
            Aggregate::Count | Aggregate::Any | Aggregate::All => {
                let test = match op {
                    Aggregate::Count => filter,
                    _ => filter.or(value),
                };
                let Some(t) = test.and_then(|t| kinds::truths(self.p, t, slot)) else {
                    return Ok(false);
                };
                let table = self.table_truths(t, span)?;
                self.into(list, dst)?;
                self.emit(
                    Instr::CountKinds {
                        dst,
                        zone: dst,
                        table,
                        op,
                    },
                    span,
                );
                Ok(true)
            }
            Aggregate::Sum | Aggregate::Max | Aggregate::Min => {
                let Some(n) = value.and_then(|v| kinds::ints(self.p, v, slot)) else {
                    return Ok(false);
                };
                let pass = match filter {
                    None => u16::MAX,
                    Some(f) => match kinds::truths(self.p, f, slot) {
                        Some(t) => self.table_truths(t, span)?,
                        None => return Ok(false),
                    },
                };
                let table = self.table_ints(n, span)?;
                self.into(list, dst)?;
                self.emit(
                    Instr::SumKinds {
                        dst,
                        zone: dst,
                        table,
                        pass,
                        op,
                    },
                    span,
                );
                Ok(true)
            }
            Aggregate::Filter
            | Aggregate::Map
            | Aggregate::TakeWhile
            | Aggregate::Sort
            | Aggregate::Flatten => Ok(false),
        }
    }
}
