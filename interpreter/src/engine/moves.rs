//! Engine stage: moves of a value (a card, cards, a zone's cards: `move_value`), and of several
//! cards at once while nobody records (`move top N of Z`, a zone's cards, a list of cards lying in
//! one zone): what `move_card` (stmt.rs) does with each card in turn, the same cards, order, faces,
//! versions, marks and work, with the bookkeeping done once; `reveal` of a zone's cards.

use super::exec::{Flow, Mach};
use super::label::{kind_name, zone_label};
use super::state::State;
use super::trace::Event;
use super::RuntimeError;

use crate::value::Value;
use cardgame_grammar::ast::{Face, Position, Span};

type R<T> = Result<T, RuntimeError>;

impl Mach<'_> {
    /// `show` of a value (a card, cards or a zone's cards) to `seat`.
    pub(crate) fn show_value(&mut self, v: Value, seat: u8, span: Span) -> R<()> {
        for c in self.cards_of(v, span)?.into_iter().flatten() {
            if (c as usize) < self.s.cards.len() {
                self.s.show(c, seat);
                if self.s.record {
                    let cs = &self.s.cards[c as usize];
                    let ev = Event::Shown {
                        card: c,
                        kind: kind_name(self.p, cs.kind),
                        zone: zone_label(self.p, self.l, self.s, cs.zone),
                        player: seat,
                    };
                    self.s.events.push(ev);
                }
            }
        }
        Ok(())
    }

    /// `reveal` (face up, or `up` false: face down) of a value (a card, cards or a zone).
    pub(crate) fn reveal_value(&mut self, v: Value, up: bool, span: Span) -> R<()> {
        if self.reveal_zone(&v, up, span)? {
            return Ok(());
        }
        for c in self.cards_of(v, span)?.into_iter().flatten() {
            self.s.cards[c as usize].face_up = up;
            self.s.moved();
            if self.s.record {
                let cs = &self.s.cards[c as usize];
                let ev = Event::Reveal {
                    card: c,
                    kind: kind_name(self.p, cs.kind),
                    zone: zone_label(self.p, self.l, self.s, cs.zone),
                    face_up: up,
                };
                self.s.events.push(ev);
            }
        }
        Ok(())
    }

    /// `reveal` of a zone's cards while nobody records: turned where they lie, with the work of
    /// reading them as a list (`list_len`, `cards_of`), no list made. False for any other value.
    pub(crate) fn reveal_zone(&mut self, v: &Value, up: bool, span: Span) -> R<bool> {
        let (&Value::Zone(z), false) = (v, self.s.record) else {
            return Ok(false);
        };
        let z = z as usize;
        if z >= self.s.zones.len() {
            return Ok(false);
        }
        let k = self.list_len(v, span)?;
        self.charge_later(k);
        for i in 0..k {
            let c = self.s.zones[z].cards[i];
            self.s.cards[c as usize].face_up = up;
            self.s.moved();
        }
        Ok(true)
    }

    /// Moves the top `k` cards of zone `z` (all of them if it holds fewer) into zone `target`,
    /// another zone without a limit, top card first, while no event is recorded: what `move_ids`
    /// does with those cards (the same cards, order, faces, versions, marks and work), with the
    /// bookkeeping of the loop done once.
    pub(crate) fn move_top(
        &mut self,
        z: u32,
        k: usize,
        target: u32,
        position: Position,
        face: Option<Face>,
    ) {
        debug_assert!(z != target && !self.s.record);
        let Some(len) = self.s.zones.get(z as usize).map(|zi| zi.cards.len()) else {
            return;
        };
        let k = k.min(len);
        if k == 0 || self.s.zones.get(target as usize).is_none() {
            return;
        }
        let up = self.face_in(target, face);
        let mut moving = std::mem::take(&mut self.s.recycled.get().ids);
        moving.clear();
        if let Some(source) = self.s.zones.get_mut(z as usize) {
            // Each card taken from the top changed the zone once.
            source.ver = source.ver.wrapping_add(k as u32);
            // Bottom first, as they lay.
            moving.extend(source.cards.drain(len - k..));
        }
        let mark = self.s.steps > 0;
        for &c in moving.iter().rev() {
            debug_assert_eq!(self.s.cards[c as usize].zone, z);
            self.arrive(c, target, up, mark);
        }
        self.s.moved_many(moving.len() as u32);
        // Each card: one for the move, one for its distance from the top (it is the top).
        let mut work = 2 * moving.len();
        if let Some(to) = self.s.zones.get_mut(target as usize) {
            to.ver = to.ver.wrapping_add(moving.len() as u32);
            match position {
                Position::Top => to.cards.extend(moving.iter().rev()),
                Position::Bottom => {
                    for &c in moving.iter().rev() {
                        work += to.cards.len();
                        to.cards.insert(0, c);
                    }
                }
            }
        }
        self.charge_later(work);
        self.s.recycled.get().ids = moving;
    }

    /// Moves the cards of list `ids`, when they lie in one zone other than `target` in the list's
    /// order from the top (as `filter(c in Z where ...)` lists them), into `target`, a zone without
    /// a limit, while no event is recorded: what `move_card` does with each in turn (the same
    /// cards, order, faces, versions, marks and work: a card's work is its distance from the top
    /// once the cards before it are gone, which lay above it), the zone left in one pass instead of
    /// a search and a shift per card. False, having changed nothing, for any other list.
    pub(crate) fn move_listed(
        &mut self,
        list: &[Value],
        target: u32,
        position: Position,
        face: Option<Face>,
    ) -> bool {
        debug_assert!(!self.s.record);
        let card = |v: &Value| match v {
            &Value::Card(c) => Some(c),
            _ => None,
        };
        let ids = || list.iter().map(|v| card(v).unwrap_or(u32::MAX));
        if list
            .iter()
            .any(|v| card(v).is_none_or(|c| c as usize >= self.s.cards.len()))
        {
            return false;
        }
        let Some(z) = ids().next().map(|c| self.s.cards[c as usize].zone) else {
            return false;
        };
        if z == target || self.s.zones.get(target as usize).is_none() {
            return false;
        }
        let Some(source) = self.s.zones.get(z as usize) else {
            return false;
        };
        // Where each card lies, matched from the top down.
        let mut at = std::mem::take(&mut self.s.recycled.get().ids);
        at.clear();
        let len = source.cards.len();
        let mut next = ids();
        let mut want = next.next();
        for (i, &c) in source.cards.iter().enumerate().rev() {
            match want {
                Some(w) if w == c => {
                    at.push(i as u32);
                    want = next.next();
                }
                Some(_) => {}
                None => break,
            }
        }
        if want.is_some() {
            self.s.recycled.get().ids = at;
            return false;
        }
        let n = list.len();
        // Each card: one, and its distance from the top then (the `j` cards before it lay above).
        let mut work: usize = at
            .iter()
            .enumerate()
            .map(|(j, &i)| 1 + len - j - i as usize)
            .sum();
        if let Some(source) = self.s.zones.get_mut(z as usize) {
            source.ver = source.ver.wrapping_add(n as u32);
            // The cards' places, lowest first, skipped.
            let mut skip = at.iter().rev().peekable();
            let mut w = 0;
            for r in 0..len {
                if skip.peek().is_some_and(|&&i| i as usize == r) {
                    skip.next();
                    continue;
                }
                source.cards[w] = source.cards[r];
                w += 1;
            }
            source.cards.truncate(w);
        }
        self.s.recycled.get().ids = at;
        let up = self.face_in(target, face);
        let mark = self.s.steps > 0;
        for c in ids() {
            self.arrive(c, target, up, mark);
        }
        self.s.moved_many(n as u32);
        if let Some(to) = self.s.zones.get_mut(target as usize) {
            to.ver = to.ver.wrapping_add(n as u32);
            match position {
                Position::Top => to.cards.extend(ids()),
                Position::Bottom => {
                    for c in ids() {
                        work += to.cards.len();
                        to.cards.insert(0, c);
                    }
                }
            }
        }
        self.charge_later(work);
        true
    }

    /// Card `c`, taken out of its zone, arrives in zone `target` with face `up`: marked as moved
    /// (`mark`: the setup is over), shown to nobody, as `move_card` leaves it.
    #[inline(always)]
    fn arrive(&mut self, c: u32, target: u32, up: bool, mark: bool) {
        if mark {
            let kind = self.s.cards[c as usize].kind as usize;
            self.s.tally.mark(super::stats::Mark::Moved, kind);
        }
        self.s.unshow(c);
        let cs = &mut self.s.cards[c as usize];
        cs.zone = target;
        cs.face_up = up;
    }

    /// Whether a card moved into zone `target` with `face` (none: the zone's own) lies face up.
    #[inline(always)]
    pub(crate) fn face_in(&self, target: u32, face: Option<Face>) -> bool {
        match face {
            Some(Face::Up) => true,
            Some(Face::Down) => false,
            None => State::default_face(self.p, self.s.zones.def(target as usize)),
        }
    }

    /// `move` of a value (a card, cards or a zone) to zone instance `target`; `failed` when the
    /// pile it came from held fewer cards than asked.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn move_value(
        &mut self,
        v: Value,
        mut failed: bool,
        target: u32,
        position: Position,
        face: Option<Face>,
        what_span: Span,
        span: Span,
    ) -> R<Flow> {
        let what = what_span;
        if let Value::Card(c) = v {
            // One card: no list to build.
            let c = self.as_card(&Value::Card(c), what)?;
            if !self.move_card(c, target, position, face)? {
                failed = true;
            }
            return Ok(if failed { self.fail(span) } else { Flow::Next });
        }
        // A list is read in place (the moves do not change it); a zone's cards are copied first,
        // top first, since the moves change the zone. Every element is checked before any card moves.
        let list = match v {
            Value::Zone(z) if (z as usize) < self.s.zones.len() => {
                self.note_zone(z);
                let n = self.s.zones[z as usize].cards.len();
                // The work of reading the zone as a list, then of its elements.
                self.s.exec_count += n as u64;
                self.charge_later(n);
                let mut ids = std::mem::take(&mut self.s.recycled.get().ids);
                ids.clear();
                ids.extend(self.s.zones[z as usize].cards.iter().rev());
                if !self.move_ids(ids, target, position, face)? {
                    failed = true;
                }
                return Ok(if failed { self.fail(span) } else { Flow::Next });
            }
            Value::List(l) => l,
            v => {
                let cards = self.cards_of(v, what)?;
                for c in cards {
                    match c {
                        Some(c) => {
                            if !self.move_card(c, target, position, face)? {
                                failed = true;
                            }
                        }
                        None => failed = true,
                    }
                }
                return Ok(if failed { self.fail(span) } else { Flow::Next });
            }
        };
        self.charge_later(list.len());
        for x in list.iter() {
            if !matches!(x, Value::None) {
                self.as_card(x, what)?;
            }
        }
        // Several cards of one zone, listed from its top down, into a zone without a limit while
        // nobody records: in one pass (`move_listed`, the same moves and work).
        let unlimited = |m: &Self| {
            let def = m.s.zones.def(target as usize);
            m.p.zones.get(def.index()).is_some_and(|d| d.max.is_none())
        };
        if !self.s.record
            && list.len() > 1
            && unlimited(self)
            && self.move_listed(&list, target, position, face)
        {
            return Ok(if failed { self.fail(span) } else { Flow::Next });
        }
        for x in list.iter() {
            match x {
                Value::Card(c) => {
                    if !self.move_card(*c, target, position, face)? {
                        failed = true;
                    }
                }
                _ => failed = true,
            }
        }
        Ok(if failed { self.fail(span) } else { Flow::Next })
    }

    /// The cards named by a value: a card, a list of cards or a zone; `None` entries for `none`.
    pub(super) fn cards_of(&mut self, v: Value, span: Span) -> R<Vec<Option<u32>>> {
        match v {
            Value::None => Ok(vec![None]),
            Value::Card(c) => Ok(vec![Some(self.as_card(&Value::Card(c), span)?)]),
            Value::Zone(_) | Value::List(_) => {
                let l = self.as_list(v, span)?;
                self.charge_later(l.len());
                l.iter()
                    .map(|x| match x {
                        Value::None => Ok(None),
                        x => self.as_card(x, span).map(Some),
                    })
                    .collect()
            }
            v => Err(self.err(span, format!("expected cards, found {}", self.describe(&v)))),
        }
    }
}
