//! Engine stage: the options of a decision: identical cards merged, action menus listed (conditions
//! split by parameter), and labels built, or left out while nobody reads them.

use super::decide::{Args, ChooseMany, MenuOption};
use super::exec::{Frame, Mach};
use super::hash::{hash_shallow, Fx};
use super::label::distinct_labels;
use super::menus::{Domain, Seen, Sorted, Tried};
use super::RuntimeError;
use crate::program::{
    ActionDef, ActionId, ExprKind, MenuMode, Program, Stmt, StmtKind, TextPartIr,
};
use crate::value::Value;
use std::hash::{Hash, Hasher};

type R<T> = Result<T, RuntimeError>;

/// The options of a menu being listed.
#[derive(Default, Clone)]
pub(super) struct Listing {
    out: Vec<MenuOption>,
    labels: Vec<String>,
    /// `out` by fingerprint, once it is long.
    seen: Option<Box<Seen>>,
    /// Per conjunct of the action being listed: its value for the parameters bound now, if known.
    pub(super) known: Vec<Option<bool>>,
}

impl Listing {
    /// Forgets the known values of the conjuncts that read parameter `i` or a later one: they must
    /// be evaluated again for its next value.
    #[inline]
    pub(super) fn forget_from(&mut self, def: &ActionDef, i: usize) {
        for (k, part) in self.known.iter_mut().zip(&def.parts) {
            if part.level as usize > i {
                *k = None;
            }
        }
    }

    /// Debug builds: the same options and labels.
    #[cfg(debug_assertions)]
    pub(super) fn same_as(&self, other: &Listing) -> bool {
        self.labels == other.labels && self.out == other.out
    }
}

/// Whether an option's label can be left out and built later: building it cannot fail (its text is
/// made of words, parameters and `you`, and no argument is a list, whose text could grow too long).
pub(super) fn plain_label(def: &ActionDef, args: &[Value]) -> bool {
    if args.iter().any(|v| matches!(v, Value::List(_))) {
        return false;
    }
    def.label.as_ref().is_none_or(|t| {
        t.parts.iter().all(|part| match part {
            TextPartIr::Lit(_) => true,
            TextPartIr::Expr(e) => {
                matches!(e.kind, ExprKind::Local(s) if (s as usize) < def.params.len())
                    || matches!(e.kind, ExprKind::You)
            }
        })
    })
}

/// Below this many options, duplicates are found by comparing each option with those before it;
/// above, by hashing, so that a long list of options is listed in linear time.
pub(super) const SCAN: usize = 16;
/// What is known of an option before `Mach::offer` offers it.
#[derive(Clone, Copy, Default)]
pub(super) struct Known {
    /// It differs from every option listed before (its only argument is the first card of a new
    /// set of identical cards).
    pub fresh: bool,
    /// Its condition holds, with no work (engine/menus.rs, tables of kinds).
    pub holds: bool,
}

impl<'a> Mach<'a> {
    /// Two options are the same for a player: equal values, or identical cards (same kind, same
    /// unordered zone, same face, same card variables, nothing attached).
    pub(super) fn equivalent(&self, a: &Value, b: &Value, decider: u8) -> bool {
        if a == b {
            return true;
        }
        let (Value::Card(x), Value::Card(y)) = (a, b) else {
            return false;
        };
        // Every test must hold: the cheapest first.
        self.alike(*x, *y) && self.mergeable(*x, decider) && self.mergeable(*y, decider)
    }

    /// Same kind, same zone, same face, same card variables: with both cards mergeable, identical.
    pub(super) fn alike(&self, x: u32, y: u32) -> bool {
        let (Some(cx), Some(cy)) = (self.s.cards.get(x as usize), self.s.cards.get(y as usize))
        else {
            return false;
        };
        if cx.kind != cy.kind || cx.zone != cy.zone || cx.face_up != cy.face_up {
            return false;
        }
        let n = self.l.n_cvars;
        n == 0 || self.s.cvars.same_row(self.l, n, x as usize, y as usize)
    }

    /// Whether a card may be merged with identical ones for `decider`: it sees the card, the card's
    /// zone is unordered, and nothing is attached to the card.
    pub(super) fn mergeable(&self, card: u32, decider: u8) -> bool {
        // Cards the decider may not see are never merged: that would tell it what they are.
        if super::label::hidden_from(self.p, self.s, card, decider) {
            return false;
        }
        let Some(cs) = self.s.cards.get(card as usize) else {
            return false;
        };
        let def = self.s.zones.def(cs.zone as usize);
        if self.p.zones.get(def.index()).is_none_or(|d| d.ordered) {
            return false;
        }
        !self.holds_cards(card)
    }

    /// Whether cards are attached to `card` (in a zone of its own, `zone kept per card`).
    fn holds_cards(&self, card: u32) -> bool {
        let c = card as usize;
        self.l.card_zones.iter().any(|&z| {
            let zi = self.l.zone_base[z] as usize + c;
            self.s.zones.get(zi).is_some_and(|z| !z.cards.is_empty())
        })
    }

    /// `mergeable(card, decider)` for a card alike (`alike`) to a mergeable card: it lies in the
    /// same (unordered) zone with the same face, so only what is the card's own can differ: whether
    /// it was shown to the decider (`sees`: the decider sees that zone's cards of that face anyway),
    /// and the cards attached to it.
    pub(super) fn mergeable_like(&self, card: u32, sees: bool, decider: u8) -> bool {
        (sees || self.s.known(card) & (1u64 << decider) != 0) && !self.holds_cards(card)
    }

    /// A hash that equivalent options share (see [`Mach::equivalent`]): identical cards hash their
    /// kind, zone, face and card variables; a list (equivalent only to an equal list) its length and
    /// first item, so that long lists are not walked for every option; any other value hashes itself.
    pub(super) fn fingerprint(&self, v: &Value, decider: u8, h: &mut Fx) {
        if let Value::Card(c) = v {
            if let Some(cs) = self.s.cards.get(*c as usize) {
                if self.mergeable(*c, decider) {
                    (cs.kind, cs.zone, cs.face_up).hash(h);
                    let n = self.l.n_cvars;
                    let c = *c as usize;
                    for k in 0..n {
                        self.s.cvars.get(self.l, c * n + k).hash(h);
                    }
                    return;
                }
            }
        }
        hash_shallow(v, h);
    }

    /// The indices of the first of each set of equivalent values, in order.
    pub(super) fn distinct(&self, vals: &[Value], decider: u8) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::with_capacity(vals.len());
        if vals.len() <= SCAN {
            for (i, v) in vals.iter().enumerate() {
                if !out.iter().any(|&o| self.equivalent(&vals[o], v, decider)) {
                    out.push(i);
                }
            }
            return out;
        }
        let mut seen = Seen::with_capacity(vals.len());
        for (i, v) in vals.iter().enumerate() {
            let mut h = Fx::default();
            self.fingerprint(v, decider, &mut h);
            let fp = h.finish();
            if !seen.any(fp, |o| self.equivalent(&vals[o], v, decider)) {
                seen.add(fp, i);
                out.push(i);
            }
        }
        out
    }

    /// Keeps the first of equivalent options.
    pub(super) fn dedupe(&self, vals: Vec<Value>, decider: u8) -> Vec<Value> {
        let keep = self.distinct(&vals, decider);
        if keep.len() == vals.len() {
            return vals;
        }
        keep.into_iter().map(|i| vals[i].clone()).collect()
    }

    /// The fingerprint of a menu option: its action and its arguments' fingerprints.
    pub(super) fn option_fingerprint(&self, a: ActionId, args: &[Value], decider: u8) -> u64 {
        let mut h = Fx::default();
        a.0.hash(&mut h);
        for v in args {
            self.fingerprint(v, decider, &mut h);
        }
        h.finish()
    }

    pub(super) fn labels(&mut self, vals: &[Value], decider: u8) -> Vec<String> {
        let mut out = self.s.recycled.get().labels();
        if !self.wants_labels() {
            self.s.unlabelled = true;
            out.resize(vals.len(), String::new());
            return out;
        }
        out.extend(vals.iter().map(|v| self.label_for(v, decider)));
        out
    }

    /// Whether options get their labels as they are listed (`GameConfig::labels`, or events are
    /// recorded).
    pub(super) fn wants_labels(&self) -> bool {
        self.s.labels || self.s.record
    }

    /// Whether an option's label whose text reads more than its parameters and `you` (a variable,
    /// a call) can be built later all the same: every such part gives, evaluated now, a value whose
    /// text cannot grow long (not a list, not a text), and the whole text cannot reach the longest
    /// allowed from names alone. The parts are evaluated now, with the work the label's text
    /// counts, so that the work is the same as if it were built; when the label cannot wait (a part
    /// fails, or gives a list or a text), that work is taken back and the text is built now,
    /// counting it again and failing where it fails. Built later, in the same position (a pending
    /// decision's state does not change), the text is the same.
    /// The label of action `a`'s option of arguments `args` as `decider` sees it, in the option's
    /// context: empty where nobody reads labels and building it later cannot fail (built when
    /// someone reads it, `Game::set_labels`), else by the closures, else by the walker.
    pub(super) fn offered_label(
        &mut self,
        a: ActionId,
        def: &ActionDef,
        args: &[Value],
        decider: u8,
    ) -> R<String> {
        if !self.wants_labels() && (plain_label(def, args) || self.label_can_wait(a, def, args)) {
            self.s.unlabelled = true;
            return Ok(String::new());
        }
        match (&def.label, self.compiled_label(a, args, decider)) {
            (_, Some(text)) => Ok(text),
            (Some(t), None) => self.text_seen_by(t, decider),
            (None, None) => Ok(self.default_label(def, args, decider)),
        }
    }

    pub(super) fn label_can_wait(&mut self, a: ActionId, def: &ActionDef, args: &[Value]) -> bool {
        let Some(t) = &def.label else {
            return false;
        };
        if args
            .iter()
            .any(|v| matches!(v, Value::List(_) | Value::Text(_)))
        {
            return false;
        }
        let player = self
            .s
            .fixed
            .names
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(0);
        let one = 2 * self.l.longest_name + player + 64;
        let start = self.s.exec_count;
        let mut most = t.written_len();
        let closures = self.p.closures.as_deref().filter(|_| self.s.fixed.closures);
        for (j, e) in t.exprs().enumerate() {
            most = most.saturating_add(one);
            match e.kind {
                ExprKind::Local(s) if (s as usize) < def.params.len() => continue,
                ExprKind::You => continue,
                _ => {}
            }
            let compiled = closures.and_then(|c| {
                let decider = self.you().unwrap_or(self.s.active);
                c.label_part(a, j, (self.p, self.s, self.l), args, decider)
            });
            match compiled.map_or_else(|| self.eval_at(super::sites::Site::LabelPart, e), Ok) {
                Ok(Value::List(_) | Value::Text(_)) | Err(_) => {
                    self.s.exec_count = start;
                    return false;
                }
                Ok(_) => {}
            }
        }
        if most > crate::engine::eval::MAX_LIST {
            self.s.exec_count = start;
            return false;
        }
        true
    }

    /// The labels of the pending decision, built now (its options were listed without them). The
    /// texts left out are those that cannot fail (see `plain_label` and `label_can_wait`); the
    /// work of building them was counted when the options were listed.
    pub fn labels_of_pending(&mut self) -> Vec<String> {
        let work = self.s.exec_count;
        let labels = self.pending_labels();
        self.s.exec_count = work;
        labels
    }

    fn pending_labels(&mut self) -> Vec<String> {
        let mut labels: Vec<String> = match self.s.frames.last() {
            Some(Frame::Menu(m)) => {
                let (decider, at) = (m.decider, m.at);
                let offered = m.offered.clone();
                let mut out: Vec<String> = offered
                    .iter()
                    .map(|(a, args)| self.option_label(*a, args, decider).unwrap_or_default())
                    .collect();
                if let Some(Stmt {
                    kind: StmtKind::Actions { mode, .. },
                    ..
                }) = self.stmt(at)
                {
                    if matches!(mode, MenuMode::UntilPass | MenuMode::OnceOrPass) {
                        out.push("pass".into());
                    }
                }
                out
            }
            Some(Frame::ChooseOne { offered, .. }) => {
                let decider = self.pending_decider();
                offered.iter().map(|v| self.label_for(v, decider)).collect()
            }
            Some(Frame::ChooseMany(f)) => {
                let mut out = Vec::new();
                self.many_labels(f, &f.offered, f.decider, true, &mut out);
                out
            }
            // A simultaneous choice: of one element, or one of several (`picking`).
            Some(Frame::Simul(f)) => {
                let decider = self.pending_decider();
                match f.picking.as_deref() {
                    Some(pk) => {
                        let mut out = Vec::new();
                        self.many_labels(pk, &pk.offered, decider, true, &mut out);
                        out
                    }
                    None => f
                        .offered
                        .iter()
                        .map(|v| self.label_for(v, decider))
                        .collect(),
                }
            }
            _ => Vec::new(),
        };
        distinct_labels(&mut labels);
        labels
    }

    /// The labels of the candidates `offered` of a choice of several elements, then `done` when it
    /// may stop, onto `out`: built when `wanted`, else left out (empty; built on demand by
    /// `labels_of_pending`).
    pub(super) fn many_labels(
        &self,
        many: &ChooseMany,
        offered: &[usize],
        decider: u8,
        wanted: bool,
        out: &mut Vec<String>,
    ) {
        if wanted {
            out.extend(
                offered
                    .iter()
                    .map(|&i| self.label_for(&many.candidates[i], decider)),
            );
        } else {
            out.resize(out.len() + offered.len(), String::new());
        }
        if many.with_done {
            out.push("done".into());
        }
    }

    pub(super) fn pending_decider(&self) -> u8 {
        match &self.s.status {
            super::Status::Decision(d) => d.player,
            _ => self.s.active,
        }
    }

    /// The label of a menu option, in the context it was listed in.
    pub(super) fn option_label(&mut self, a: ActionId, args: &[Value], decider: u8) -> R<String> {
        let p: &'a Program = self.p;
        let Some(def) = p.actions.get(a.index()) else {
            return Ok(String::new());
        };
        let Some(t) = &def.label else {
            return Ok(self.default_label(def, args, decider));
        };
        if let Some(text) = self.compiled_label(a, args, decider) {
            return Ok(text);
        }
        let base = self.s.ctxs.len();
        let mut locals = self.s.take_locals(0);
        locals.extend(args.iter().cloned());
        self.s.push_ctx(locals, Some(decider), None);
        let r = self.text_seen_by(t, decider);
        self.s.truncate_ctxs(base);
        r
    }

    /// An action's name followed by its arguments, for an action without `label`.
    pub(super) fn default_label(&self, def: &ActionDef, args: &[Value], decider: u8) -> String {
        let mut s = def.name.clone();
        for v in args.iter() {
            s.push(' ');
            s.push_str(&self.label_for(v, decider));
        }
        s
    }

    /// Every legal (action, arguments) of a menu for `decider`, with labels. Equivalent options
    /// (identical cards of an unordered zone) are offered once: the first whose condition holds.
    pub(super) fn menu_options(
        &mut self,
        decider: u8,
        actions: &'a [ActionId],
    ) -> R<(Vec<MenuOption>, Vec<String>)> {
        let base = self.s.ctxs.len();
        // Room for every action's parameters and binders: no local is written past the end.
        let slots = actions
            .iter()
            .filter_map(|a| self.p.actions.get(a.index()))
            .map(|d| d.body.slots as usize)
            .max()
            .unwrap_or(0);
        let locals = self.s.take_locals(slots);
        self.s.push_ctx(locals, Some(decider), None);
        // The buffers of the last decision are used again: listing a menu allocates nothing once
        // they are large enough.
        let rec = self.s.recycled.get();
        let mut list = Listing {
            out: std::mem::take(&mut rec.options),
            labels: rec.labels(),
            seen: None,
            known: std::mem::take(&mut rec.known),
        };
        list.out.clear();
        let mut args = self.s.take_locals(0);
        let mut r = Ok(false);
        // Listing options changes nothing: pure function calls may be remembered meanwhile.
        self.s.remember();
        // No action is named twice (the checker keeps the first, W006): `fresh` options are new.
        // The actions that have a plan are listed by the closures, the others by the walker:
        // the options of one action are compared with that action's alone (`offer`).
        let closures = self.p.closures.as_deref().filter(|_| self.s.fixed.closures);
        for &a in actions {
            if let Some(c) = closures.filter(|c| c.planned(a)) {
                r = self.closures_action(c, a, decider, &mut list);
                match r {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(_) => break,
                }
            }
            args.clear();
            list.known.clear();
            if let Some(def) = self.p.actions.get(a.index()) {
                list.known.resize(def.parts.len(), None);
            }
            r = self.list_action(a, &mut args, &mut list).map(|()| true);
            if r.is_err() {
                break;
            }
        }
        self.s.forget();
        self.s.truncate_ctxs(base);
        self.s.give_back(args);
        let rec = self.s.recycled.get();
        rec.known = list.known;
        if let Some(mut seen) = list.seen {
            seen.clear();
            rec.seen = Some(seen);
        }
        r?;
        Ok((list.out, list.labels))
    }

    /// Lists action `a` of a menu by the closures, its labels made as `offer` makes them; false
    /// when a closure could not answer (nothing is listed: the walker lists the action).
    fn closures_action(
        &mut self,
        c: &super::closures::Closures,
        a: ActionId,
        decider: u8,
        list: &mut Listing,
    ) -> R<bool> {
        let start = list.out.len();
        let out = &mut list.out;
        if !c.list_menu(self.p, self.s, self.l, decider, &[a], out) {
            list.out.truncate(start);
            return Ok(false);
        }
        for k in start..list.out.len() {
            let text = self.label_of(a, &list.out[k].1, decider)?;
            list.labels.push(text);
        }
        Ok(true)
    }

    /// Whether an action's condition holds for the arguments bound in slots 0..n. `Err(level)`: it
    /// does not, nor for any choice of the parameters from `level` on (see [`ConditionPart`]).
    pub(super) fn condition_holds(
        &mut self,
        def: &'a ActionDef,
        list: &mut Listing,
    ) -> R<Result<(), u16>> {
        if def.parts.is_empty() {
            if let Some(c) = &def.condition {
                if !self.eval_bool(c)? {
                    return Ok(Err(u16::MAX));
                }
            }
            return Ok(Ok(()));
        }
        for (j, part) in def.parts.iter().enumerate() {
            let holds = match list.known.get(j).copied().flatten() {
                Some(b) => b,
                None => {
                    let b = self.eval_bool(&part.expr)?;
                    if part.pure {
                        if let Some(k) = list.known.get_mut(j) {
                            *k = Some(b);
                        }
                    }
                    b
                }
            };
            if !holds {
                return Ok(Err(if part.skip { part.level } else { u16::MAX }));
            }
        }
        Ok(Ok(()))
    }

    /// Debug builds: a card skipped as identical to one tried before lists no new option, and no error.
    #[cfg(debug_assertions)]
    pub(super) fn check_skipped(
        &mut self,
        a: ActionId,
        args: &mut Vec<Value>,
        list: &mut Listing,
        v: &Value,
    ) {
        #[cfg(test)]
        {
            self.s.probe.counted.cards_skipped += 1;
        }
        let (before, work) = (list.out.len(), self.s.exec_count);
        let known = list.known.clone();
        let i = args.len();
        self.set_local(i as u16, v.clone());
        args.push(v.clone());
        list.forget_from(&self.p.actions[a.index()], i);
        let r = self.enum_action(a, args, list);
        args.pop();
        list.known = known;
        // The check's own work may spend a small budget: only then may it fail.
        let spent = self.s.exec_count > self.s.fixed.max_steps;
        self.s.exec_count = work;
        assert!(
            r.is_ok() || spent,
            "a skipped identical card fails: {:?}",
            r.err()
        );
        assert_eq!(
            list.out.len(),
            before,
            "a skipped identical card adds options"
        );
    }

    /// Lists the options of action `a` whose first parameters are `args`. `Some(level)`: stop
    /// listing the parameters from `level` on (a conjunct that reads only the first `level` is false).
    pub(super) fn enum_action(
        &mut self,
        a: ActionId,
        args: &mut Vec<Value>,
        list: &mut Listing,
    ) -> R<Option<u16>> {
        let p: &'a Program = self.p;
        let Some(def) = p.actions.get(a.index()) else {
            return Ok(None);
        };
        let i = args.len();
        if i == def.params.len() {
            let decider = self.you().unwrap_or(self.s.active);
            return self.offer(a, def, args, decider, list, Known::default());
        }
        let dom = self.domain_items(&def.params[i])?;
        self.enum_domain(a, def, &dom, args, list)
    }

    /// `enum_action` with parameter `args.len()`'s domain evaluated.
    pub(super) fn enum_domain(
        &mut self,
        a: ActionId,
        def: &'a ActionDef,
        dom: &Domain,
        args: &mut Vec<Value>,
        list: &mut Listing,
    ) -> R<Option<u16>> {
        let i = args.len();
        let decider = self.you().unwrap_or(self.s.active);
        let last = i + 1 == def.params.len();
        let mut r = Ok(None);
        // The only parameter, over different items none of which is a card: each option differs from
        // every other (`equivalent` is equality but for cards), and `offer` compares with none.
        let distinct = i == 0 && last && super::menus::distinct_items(&def.params[i]);
        // One card of each set of identical ones, where the action cannot tell them apart.
        let merge = def.interchangeable.get(i).copied().unwrap_or(false);
        let mut tried = Tried::default();
        for k in 0..dom.len() {
            // A card item stays a number until it is written into the local and the arguments;
            // any other item is a value (`other`).
            let (card, other) = dom.get(self, k);
            // An option of a single parameter whose card is the first of a new set of identical
            // cards: no option listed before can be the same (`offer` compares with none).
            let mut fresh = distinct;
            if let (true, Some(c)) = (merge, &card) {
                match self.sort_card(&mut tried, *c, decider) {
                    Sorted::Skip => {
                        #[cfg(debug_assertions)]
                        self.check_skipped(a, args, list, &Value::Card(*c));
                        continue;
                    }
                    Sorted::First => fresh = i == 0 && last,
                    Sorted::Other => {}
                }
            }
            // A card is written where it goes: a value built and then copied was read back in wider
            // pieces than it had been written, a store-forwarding stall (docs/engine.md at fe8b0bc).
            // Any other item is bound out of line, so that the two paths cannot be merged into one
            // copy.
            match card {
                Some(c) => {
                    self.set_local(i as u16, Value::Card(c));
                    args.push(Value::Card(c));
                }
                None => self.bind_parameter(i as u16, other, args),
            }
            list.forget_from(def, i);
            // The last parameter: the option itself (what `enum_action` would do one level down).
            let step = if last {
                self.offer(
                    a,
                    def,
                    args,
                    decider,
                    list,
                    Known {
                        fresh,
                        holds: false,
                    },
                )
            } else {
                self.enum_action(a, args, list)
            };
            args.pop();
            // Matched where it is returned, not copied into `r` first (a stall, as above).
            match step {
                Ok(None) => r = Ok(None),
                // Every later choice of parameter i fails too: back to the caller's loop.
                Ok(Some(level)) if level as usize <= i => {
                    r = Ok(Some(level));
                    break;
                }
                Ok(Some(_)) => r = Ok(None),
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        r
    }

    /// Offers action `a` with all its arguments, unless an equivalent option is offered already or
    /// its condition does not hold (`Some(level)`: nor for any choice of the parameters from
    /// `level` on). What is known of it already: `known`.
    #[inline]
    pub(super) fn offer(
        &mut self,
        a: ActionId,
        def: &'a ActionDef,
        args: &[Value],
        decider: u8,
        list: &mut Listing,
        known: Known,
    ) -> R<Option<u16>> {
        let Known { fresh, holds } = known;
        // Many options listed: from now on they are compared by fingerprint (the last long
        // menu's table, cleared).
        if list.seen.is_none() && !fresh && list.out.len() >= SCAN {
            let mut seen = self.s.recycled.get().seen.take().unwrap_or_default();
            for (k, (b, bargs)) in list.out.iter().enumerate() {
                seen.add(self.option_fingerprint(*b, bargs, decider), k);
            }
            list.seen = Some(seen);
        }
        let out = &list.out;
        let same = |(b, bargs): &MenuOption| {
            *b == a
                && bargs
                    .iter()
                    .zip(args.iter())
                    .all(|(x, y)| self.equivalent(x, y, decider))
        };
        // Few options so far: compare with each; many: with those of the same fingerprint.
        let mut fingerprint = None;
        match &list.seen {
            None if fresh => {
                debug_assert!(!out.iter().any(same), "a fresh option is listed already");
            }
            None => {
                if out.iter().any(same) {
                    return Ok(None);
                }
            }
            Some(seen) => {
                let fp = self.option_fingerprint(a, args, decider);
                if seen.any(fp, |k| same(&out[k])) {
                    return Ok(None);
                }
                fingerprint = Some(fp);
            }
        }
        if !holds {
            if let Err(level) = self.condition_holds(def, list)? {
                return Ok((level != u16::MAX).then_some(level));
            }
        }
        let text = self.offered_label(a, def, args, decider)?;
        if let (Some(fp), Some(seen)) = (fingerprint, list.seen.as_mut()) {
            seen.add(fp, list.out.len());
        }
        // A single card or player is written where it goes (a stall, as in `enum_action`).
        let n = list.out.len();
        match args {
            [Value::Card(c)] => {
                let c = *c;
                list.out
                    .resize_with(n + 1, || (a, Args::One(Value::Card(c))));
            }
            [Value::Player(p)] => {
                let p = *p;
                list.out
                    .resize_with(n + 1, || (a, Args::One(Value::Player(p))));
            }
            _ => list.out.push((a, Args::from_slice(args))),
        }
        list.labels.push(text);
        Ok(None)
    }
}

impl<'a> Mach<'a> {
    /// Binds parameter `slot` to an item that is not a card: in its local and the arguments.
    #[inline(never)]
    fn bind_parameter(&mut self, slot: u16, v: Value, args: &mut Vec<Value>) {
        self.set_local(slot, v.clone());
        args.push(v);
    }

    /// A parameter's domain, with the notes, work and errors of `eval_items`.
    #[cfg_attr(test, track_caller)]
    pub(super) fn domain_items(&mut self, e: &crate::program::Expr) -> R<Domain> {
        match self.eval_at(super::sites::Site::Domain, e)? {
            Value::Zone(z) if (z as usize) < self.s.zones.len() => {
                self.note_zone(z);
                let n = self.s.zones[z as usize].cards.len();
                self.charge(n, e.span)?;
                Ok(Domain::Zone(z, n))
            }
            v => {
                let l = self.as_list(v, e.span)?;
                self.charge(l.len(), e.span)?;
                Ok(Domain::List(l))
            }
        }
    }
}
