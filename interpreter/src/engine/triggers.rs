//! Engine stage (statements): events emitted, the triggers that listen gathered and run.
//!
//! `emit` lists the triggers an event reaches (global ones, then cards' in the zones they listen
//! in, seat by seat from the active one, then anywhere) in one `Frame::Emit`; `step_emit` runs them
//! one per step of the loop, each after its condition holds.

use super::exec::{Flow, Frame, Invocation, Mach, TrigRef, R};
use super::state::{Layout, State};
use crate::program::{Program, TriggerDef, ZoneId};
use crate::value::Value;
use cardgame_grammar::ast::Scope;
use std::sync::Arc;

impl<'a> Mach<'a> {
    /// Pushes the triggers of an event (they run before the next statement); its arguments are
    /// copied only when some trigger listens.
    pub fn emit(&mut self, ev: crate::program::EventId, args: &[Value]) {
        let p: &'a Program = self.p;
        let l: &'a Layout = self.l;
        let e = ev.index();
        // Most events (a turn's start and end) have no listener at all: nothing to look for.
        let families = l.families.get(e).map(|f| f.as_slice()).unwrap_or(&[]);
        if families.is_empty()
            && l.glob_trigs.get(e).is_none_or(|g| g.is_empty())
            && !l.anywhere.get(e).copied().unwrap_or(false)
        {
            return;
        }
        let mut list = Vec::new();
        let active = self.s.active;
        if let Some(g) = l.glob_trigs.get(e) {
            for &t in g {
                list.push(Invocation {
                    trig: TrigRef::Global(t),
                    card: None,
                    zone: u32::MAX,
                    you: active,
                });
            }
        }
        let n = self.s.players;
        let add_zone = |s: &State, list: &mut Vec<Invocation>, fam: ZoneId, z: u32| {
            let Some(zi) = s.zones.get(z as usize) else {
                return;
            };
            let you = s.zone_owner(z).unwrap_or(active);
            for &c in zi.cards.iter().rev() {
                let kind = s.cards[c as usize].kind;
                let Some(ts) = l.kind_trigs.get(kind as usize * l.nevents + e) else {
                    continue;
                };
                for &t in ts {
                    let trig = &p.kinds[kind as usize].triggers[t as usize];
                    if trig.zone == Some(fam) {
                        list.push(Invocation {
                            trig: TrigRef::Card(kind, t),
                            card: Some(c),
                            zone: z,
                            you,
                        });
                    }
                }
            }
        };
        // The seats from the active one, then the participants in the order declared.
        let seat_at = |k: u8| {
            if k < n {
                ((active as u32 + k as u32) % n as u32) as u8
            } else {
                k
            }
        };
        for k in 0..n.saturating_add(self.s.participants) {
            let seat = seat_at(k);
            for &fam in families {
                if p.zones.get(fam.index()).map(|d| d.scope) == Some(Scope::PerPlayer) {
                    if let Some(base) = l.zone_base.get(fam.index()) {
                        add_zone(self.s, &mut list, fam, base + seat as u32);
                    }
                }
            }
        }
        for &fam in families {
            if p.zones.get(fam.index()).map(|d| d.scope) != Some(Scope::PerPlayer) {
                let base = l.zone_base.get(fam.index()).copied().unwrap_or(0);
                for i in 0..l.zone_len.get(fam.index()).copied().unwrap_or(0) {
                    add_zone(self.s, &mut list, fam, base + i);
                }
            }
        }
        if l.anywhere.get(e).copied().unwrap_or(false) {
            self.charge_later(self.s.cards.len());
            for (c, cs) in self.s.cards.iter().enumerate() {
                let Some(ts) = l.kind_trigs.get(cs.kind as usize * l.nevents + e) else {
                    continue;
                };
                for &t in ts {
                    if p.kinds[cs.kind as usize].triggers[t as usize]
                        .zone
                        .is_none()
                    {
                        let you = self.s.zone_owner(cs.zone).unwrap_or(active);
                        list.push(Invocation {
                            trig: TrigRef::Card(cs.kind, t),
                            card: Some(c as u32),
                            zone: cs.zone,
                            you,
                        });
                    }
                }
            }
        }
        if !list.is_empty() {
            self.s.frames.push(Frame::Emit {
                args: Arc::new(args.to_vec()),
                list: Arc::new(list),
                idx: 0,
            });
        }
    }

    fn trigger(&self, t: TrigRef) -> Option<&'a TriggerDef> {
        let p: &'a Program = self.p;
        match t {
            TrigRef::Global(i) => p.triggers.get(i as usize),
            TrigRef::Card(k, i) => p.kinds.get(k as usize)?.triggers.get(i as usize),
        }
    }

    pub(super) fn step_emit(&mut self) -> R<Flow> {
        let Some(Frame::Emit { args, list, idx }) = self.s.frames.last_mut() else {
            return Ok(Flow::Next);
        };
        let Some(inv) = list.get(*idx as usize).copied() else {
            self.pop_frame();
            return Ok(Flow::Next);
        };
        *idx += 1;
        let args = args.clone();
        let Some(trig) = self.trigger(inv.trig) else {
            return Ok(Flow::Next);
        };
        if let Some(c) = inv.card {
            if self.s.cards.get(c as usize).map(|cs| cs.zone) != Some(inv.zone) {
                return Ok(Flow::Next);
            }
        }
        let mut locals = self.s.take_locals(0);
        locals.extend(args.iter().cloned());
        crate::engine::state::grow_locals(&mut locals, trig.body.slots as usize);
        let base = self.s.ctxs.len();
        self.s.push_ctx(locals, Some(inv.you), inv.card);
        if let Some(c) = &trig.condition {
            // On `Engine::Closures`, the condition compiled (closures/mod.rs), else the walker's.
            let p: &'a Program = self.p;
            let compiled = (p.closures.as_deref())
                .filter(|_| self.s.fixed.closures && !self.s.recording)
                .and_then(|cl| cl.trigger_holds(inv.trig, (p, self.s, self.l), inv.you, &args));
            let holds = match compiled {
                Some(h) => Ok(h),
                None => self.eval_bool(c),
            };
            if !holds.as_ref().is_ok_and(|h| *h) {
                self.s.truncate_ctxs(base);
                holds?;
                return Ok(Flow::Next);
            }
        }
        self.s.frames.push(Frame::Call);
        self.push_block(trig.body.block);
        Ok(Flow::Next)
    }
}
