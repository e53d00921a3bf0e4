//! Engine stage: zones as the rules read them: the instance a name and holder denote, the top and
//! bottom of piles, and refilling a pile from its refill zone when it runs short.

use super::exec::Mach;
use super::label::zone_label;
use super::RuntimeError;
use crate::program::Expr;
use crate::value::Value;
use cardgame_grammar::ast::{Position, Scope, Span};

type R<T> = Result<T, RuntimeError>;

impl<'a> Mach<'a> {
    /// `top [N] of Z` / `bottom [N] of Z`, refilling the pile if needed.
    #[inline(never)]
    pub(super) fn pile(
        &mut self,
        position: Position,
        count: Option<&Expr>,
        zone: &Expr,
    ) -> R<Value> {
        let z = self.eval_zone(zone)?;
        Ok(match count {
            None => {
                self.ensure(z, 1);
                let cards = &self.s.zones[z as usize].cards;
                let c = match position {
                    Position::Top => cards.last(),
                    Position::Bottom => cards.first(),
                };
                match c {
                    Some(&c) => Value::Card(c),
                    None => {
                        self.s.short = true;
                        Value::None
                    }
                }
            }
            Some(n) => {
                let n = self.eval_int(n)?.max(0) as usize;
                let mut ids = std::mem::take(&mut self.s.recycled.get().ids);
                self.pile_ids(z, n, position, &mut ids);
                let list = Value::list(ids.iter().map(|&c| Value::Card(c)).collect());
                self.s.recycled.get().ids = ids;
                list
            }
        })
    }

    /// Replaces `ids` by the `n` cards of zone `z` from its top or bottom (top or bottom first),
    /// after the refill they need; sets `short` when fewer are there.
    pub(super) fn pile_ids(&mut self, z: u32, n: usize, position: Position, ids: &mut Vec<u32>) {
        self.ensure(z, n);
        let cards = &self.s.zones[z as usize].cards;
        if cards.len() < n {
            self.s.short = true;
        }
        ids.clear();
        match position {
            Position::Top => ids.extend(cards.iter().rev().take(n)),
            Position::Bottom => ids.extend(cards.iter().take(n)),
        }
    }

    /// The zone instance of definition `z` held by `holder`.
    pub fn zone_of(&self, z: usize, holder: Option<Value>, span: Span) -> R<u32> {
        let Some(def) = self.p.zones.get(z) else {
            return Err(self.err(span, "unknown zone".into()));
        };
        let base = self.l.zone_base.get(z).copied().unwrap_or(0);
        let len = self.l.zone_len.get(z).copied().unwrap_or(0);
        let idx = match (def.scope, holder) {
            (Scope::Shared, _) => 0,
            (Scope::PerPlayer, Some(Value::Player(p))) => p as u32,
            (Scope::PerCard, Some(Value::Card(c))) => c,
            (Scope::PerSpace, Some(Value::Space(s))) => s as u32,
            (_, h) => {
                let h = h.unwrap_or_default();
                return Err(self.err(
                    span,
                    format!("no zone `{}` for {}", def.name, self.describe(&h)),
                ));
            }
        };
        if idx >= len {
            return Err(self.err(span, format!("no zone `{}` there", def.name)));
        }
        Ok(base + idx)
    }

    /// Makes sure a zone with a refill holds at least `n` cards if it can.
    pub fn ensure(&mut self, z: u32, n: usize) {
        let zi = &self.s.zones[z as usize];
        if zi.cards.len() >= n {
            return;
        }
        let Some(rdef) = self
            .p
            .zones
            .get(self.s.zones.def(z as usize).index())
            .and_then(|d| d.refill)
        else {
            return;
        };
        let Some(r) = self.refill_inst(z, rdef.index()) else {
            return;
        };
        if r == z || self.s.zones[r as usize].cards.is_empty() {
            return;
        }
        // The state changes under a listing of options: what was remembered may be stale.
        self.s.clear_memo();
        self.s.zones[r as usize].changed();
        self.s.zones[z as usize].changed();
        self.s.moved();
        let mut moved = std::mem::take(&mut self.s.zones[r as usize].cards);
        self.charge_later(moved.len());
        rand::seq::SliceRandom::shuffle(moved.as_mut_slice(), self.s.rng_to_draw());
        let face = super::state::State::default_face(self.p, self.s.zones.def(z as usize));
        for &c in &moved {
            let cs = &mut self.s.cards[c as usize];
            cs.zone = z;
            cs.face_up = face;
        }
        let old = std::mem::replace(&mut self.s.zones[z as usize].cards, moved);
        self.s.zones[z as usize].cards.extend(old);
        if self.s.record {
            let ev = super::trace::Event::Shuffle {
                zone: zone_label(self.p, self.l, self.s, z),
                from: Some(zone_label(self.p, self.l, self.s, r)),
            };
            self.s.events.push(ev);
        }
    }

    /// The instance of zone definition `rdef` that refills instance `z`.
    fn refill_inst(&self, z: u32, rdef: usize) -> Option<u32> {
        let def = self.s.zones.def(z as usize).index();
        let rbase = *self.l.zone_base.get(rdef)?;
        let rlen = *self.l.zone_len.get(rdef)?;
        let same = self.p.zones.get(rdef)?.scope == self.p.zones.get(def)?.scope;
        let idx = if same { z - self.l.zone_base[def] } else { 0 };
        (idx < rlen).then_some(rbase + idx)
    }
}
