//! Engine stage (the machine): the statements that change the game, compiled: `move`, `perform`,
//! calls of procedures and `return`, `pay`, `stat`, `log`, with the walker's results, failures
//! and errors.

use super::super::code::{AssignCode, Code, PlaceCode};
use super::super::exec::Frame;
use super::super::state::Ctx;
use super::super::stmt::Place;
use super::super::trace::Event;
use super::{Exit, Run, R};
use crate::program::{Program, StmtKind};
use crate::value::Value;

impl Run<'_, '_> {
    /// `Exit::Left` when a failure unwound the block's frame (a `strict` around it).
    fn left(&self) -> Option<Exit> {
        (!self.frame_stands()).then_some(Exit::Left)
    }

    /// The variable an `Assign` or a `Pay` writes.
    pub(super) fn place(&self, base: usize, ac: &AssignCode, holder: u16) -> R<Place> {
        let h = &self.regs[base + holder as usize];
        Ok(match ac.place {
            PlaceCode::Local(s) => Place::Local(s),
            PlaceCode::Global(var) => Place::Global(var.index(), self.m.l.var(var)),
            PlaceCode::Player(var) => Place::Player(var.index(), self.m.as_player(h, ac.holder)?),
            PlaceCode::Card(var) => Place::Card(var.index(), self.m.as_card(h, ac.holder)?),
        })
    }

    /// `Move`.
    pub(super) fn move_cards(
        &mut self,
        base: usize,
        at: usize,
        m: u32,
        what: u16,
        to: u16,
    ) -> R<Option<Exit>> {
        let code: &Code = self.code;
        let mc = code.moves[m as usize];
        let target = match &self.regs[base + to as usize] {
            Value::Zone(z) if (*z as usize) < self.m.s.zones.len() => *z,
            v => {
                let found = self.m.describe(v);
                return Err(self.m.err(mc.to, format!("expected a zone, found {found}")));
            }
        };
        let failed = matches!(self.regs[base + mc.short as usize], Value::Bool(true));
        let v = std::mem::take(&mut self.regs[base + what as usize]);
        self.m.move_value(
            v,
            failed,
            target,
            mc.position,
            mc.face,
            mc.what,
            code.spans[at],
        )?;
        Ok(self.left())
    }

    /// `Perform`: pushes the ability's body as the walker does, and stops.
    pub(super) fn perform(
        &mut self,
        base: usize,
        at: usize,
        pc: usize,
        f: u32,
        card: u16,
        live: u16,
    ) -> R<Option<Exit>> {
        let code: &Code = self.code;
        let pf = code.performs[f as usize];
        let span = code.spans[at];
        let r = base + card as usize;
        let c = match &self.regs[r] {
            Value::Card(c) => self.m.as_card(&Value::Card(*c), pf.card)?,
            Value::None => {
                self.m.fail(span);
                return Ok(self.left());
            }
            v => {
                let found = self.m.describe(v);
                return Err(self
                    .m
                    .err(pf.card, format!("expected a card, found {found}")));
            }
        };
        let kind = self.m.s.cards[c as usize].kind as usize;
        let p: &Program = self.m.p;
        let Some(body) = p
            .kinds
            .get(kind)
            .and_then(|k| k.abilities.get(pf.ability.index()))
            .and_then(|b| b.as_ref())
        else {
            self.m.fail(span);
            return Ok(self.left());
        };
        let this = match pf.as_card {
            Some(sp) => self.m.as_card(&self.regs[r + 1], sp)?,
            None => c,
        };
        let you = match pf.by {
            Some(sp) => self.m.as_player(&self.regs[r + 2], sp)?,
            None => self.m.s.card_owner(c).unwrap_or(self.m.s.active),
        };
        let s = &mut *self.m.s;
        let nk = p.kinds.len();
        if s.tally.performed.is_empty() {
            s.tally.performed = vec![0; s.players as usize * nk];
        }
        let performer = s
            .cards
            .get(this as usize)
            .map_or(kind, |cs| cs.kind as usize);
        if let Some(n) = s.tally.performed.get_mut(you as usize * nk + performer) {
            *n += 1;
        }
        let locals = s.take_locals(body.slots as usize);
        self.m.push_call(
            Ctx {
                locals,
                you: Some(you),
                this: Some(this),
            },
            body.block,
        );
        self.suspend(base, pc, live);
        Ok(Some(Exit::Pushed))
    }

    /// `CallProc`: pushes the procedure's body (under the slot of `let x = proc(..)`), and stops.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_proc(
        &mut self,
        base: usize,
        at: usize,
        pc: usize,
        proc: u16,
        first: u16,
        n: u16,
        slot: u16,
        live: u16,
    ) -> R<Exit> {
        let p: &Program = self.m.p;
        let Some(def) = p.procs.get(proc as usize) else {
            return Err(self.m.err(self.code.spans[at], "unknown procedure".into()));
        };
        if slot != u16::MAX {
            self.m.s.frames.push(Frame::Result { slot });
        }
        let mut locals = self.m.s.take_locals(0);
        let args = base + first as usize..base + first as usize + n as usize;
        locals.extend(self.regs[args].iter_mut().map(std::mem::take));
        super::super::state::grow_locals(&mut locals, def.body.slots as usize);
        let (you, this) = (self.m.you(), self.m.this());
        self.m.push_call(Ctx { locals, you, this }, def.body.block);
        self.suspend(base, pc, live);
        Ok(Exit::Pushed)
    }

    /// `Return`: leaves the procedure, giving the value to the `let` that called it.
    pub(super) fn ret(&mut self, base: usize, src: u16) -> Exit {
        let v = std::mem::take(&mut self.regs[base + src as usize]);
        self.m.leave_call();
        if let Some(&Frame::Result { slot }) = self.m.s.frames.last() {
            self.m.pop_frame();
            self.m.set_local(slot, v);
        }
        Exit::Left
    }

    /// `Log`: whether the text need not be built (nobody records, and it cannot fail).
    pub(super) fn log_skips(&self, w: u32) -> bool {
        if self.m.s.record {
            return false;
        }
        let Some(&(b, idx)) = self.code.walks.get(w as usize) else {
            return false;
        };
        let at = super::super::exec::At {
            block: crate::program::BlockId(b),
            idx,
        };
        match self.m.stmt(at).map(|s| &s.kind) {
            Some(StmtKind::Log(t)) => self.m.text_is_plain(t),
            _ => false,
        }
    }

    /// `LogPush`.
    pub(super) fn log_push(&mut self, base: usize, src: u16) {
        let v = std::mem::take(&mut self.regs[base + src as usize]);
        if self.m.s.record {
            let text = match v {
                Value::Text(t) => Arc::unwrap_or_clone(t),
                v => {
                    let mut out = String::new();
                    super::super::label::label_into(self.m.p, self.m.l, self.m.s, &v, &mut out);
                    out
                }
            };
            self.m.s.events.push(Event::Log { text });
        }
    }

    /// `Stat`.
    pub(super) fn stat(&mut self, base: usize, at: usize, id: u16, op: u8, src: u16) -> R<()> {
        let v = self.int(at, &self.regs[base + src as usize])?;
        let turn = self.m.s.turn;
        let t = &mut self.m.s.tally;
        let i = id as usize;
        if op == 0 {
            t.records.push((id, turn, v));
        } else {
            if t.counters.len() <= i {
                t.counters.resize(i + 1, 0);
            }
            let v = if op == 2 { v.saturating_neg() } else { v };
            t.counters[i] = t.counters[i].saturating_add(v);
        }
        Ok(())
    }

    /// `Pay`.
    pub(super) fn pay(
        &mut self,
        base: usize,
        at: usize,
        a: u32,
        holder: u16,
        src: u16,
    ) -> R<Option<Exit>> {
        let code: &Code = self.code;
        let ac = code.assigns[a as usize];
        let span = code.spans[at];
        let amount = self.int(at, &self.regs[base + src as usize])?;
        let place = self.place(base, &ac, holder)?;
        match self.m.read_place(&place) {
            Value::Int(have) if have >= amount => {
                // A negative amount adds: past the largest number it is an overflow.
                let Some(left) = have.checked_sub(amount) else {
                    return Err(self.m.err(span, "arithmetic overflow".into()));
                };
                self.m.write_place(&place, Value::Int(left), span)?;
                Ok(None)
            }
            Value::Int(_) | Value::None => {
                self.m.fail(span);
                Ok(self.left())
            }
            v => {
                let found = self.m.describe(&v);
                Err(self.m.err(span, format!("cannot pay from {found}")))
            }
        }
    }
}

use std::sync::Arc;
