//! Engine stage: decisions: choices, branches, action menus and simultaneous choices.

use super::exec::{At, Flow, Frame, Mach, Stop};
use super::label::{label, zone_label};
use super::state::Ctx;
use super::trace::Event;
use super::{Decision, RuntimeError};
use crate::program::{
    ActionDef, ActionId, BranchIr, Choose, ChooseCount, Expr, ExprKind, MenuMode, Program, Stmt,
    StmtKind, TextIr,
};
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

type R<T> = Result<T, RuntimeError>;

/// An action with its arguments, as offered in a menu.
pub(crate) type MenuOption = (ActionId, Vec<Value>);

#[derive(Clone, Debug)]
pub(crate) struct MenuFrame {
    pub at: At,
    pub decider: u8,
    /// Actions left for `times N`.
    pub left: Option<i64>,
    pub taken: u32,
    /// The options of the pending decision (before `pass`).
    pub offered: Vec<MenuOption>,
}

#[derive(Clone, Debug)]
pub(crate) struct ChooseMany {
    pub slot: u16,
    pub decider: u8,
    pub prompt: String,
    pub span: Span,
    pub candidates: Vec<Value>,
    pub picked: Vec<Value>,
    pub left: usize,
    pub with_done: bool,
    /// Indices into `candidates` of the pending decision's options (before `done`).
    pub offered: Vec<usize>,
}

#[derive(Clone, Debug)]
pub(crate) struct SimulFrame {
    pub at: At,
    pub players: Vec<u8>,
    pub idx: usize,
    pub answers: Vec<Value>,
    pub offered: Vec<Value>,
    /// Decision events, shown once everyone has chosen.
    pub events: Vec<Event>,
    pub running: bool,
}

impl SimulFrame {
    pub fn new(at: At, players: Vec<u8>) -> Self {
        SimulFrame {
            at,
            players,
            idx: 0,
            answers: Vec::new(),
            offered: Vec::new(),
            events: Vec::new(),
            running: false,
        }
    }
}

/// The options of a menu being listed.
#[derive(Default)]
struct Listing {
    out: Vec<MenuOption>,
    labels: Vec<String>,
    /// Fingerprint buckets of `out`, once it is long.
    seen: Option<HashMap<u64, Vec<usize>>>,
    /// Per conjunct of the action being listed: its value for the parameters bound now, if known.
    known: Vec<Option<bool>>,
}

/// Whether an option's label can be left out and built later: building it cannot fail (its text is
/// made of words, parameters and `you`, and no argument is a list, whose text could grow too long).
fn plain_label(def: &ActionDef, args: &[Value]) -> bool {
    if args.iter().any(|v| matches!(v, Value::List(_))) {
        return false;
    }
    def.label.as_ref().is_none_or(|t| {
        t.parts.iter().all(|part| match part {
            crate::program::TextPartIr::Lit(_) => true,
            crate::program::TextPartIr::Expr(e) => {
                matches!(e.kind, ExprKind::Local(s) if (s as usize) < def.params.len())
                    || matches!(e.kind, ExprKind::You)
            }
        })
    })
}

/// Below this many options, duplicates are found by comparing each option with those before it;
/// above, by hashing, so that a long list of options is listed in linear time.
const SCAN: usize = 16;

/// Makes labels distinct by appending " #2", " #3" (counted among the labels as first written).
fn distinct_labels(labels: &mut [String]) {
    // Usually all labels differ already: nothing to rename.
    let all_distinct = if labels.len() <= SCAN {
        !(1..labels.len()).any(|i| labels[..i].contains(&labels[i]))
    } else {
        let mut seen = HashSet::with_capacity(labels.len());
        labels.iter().all(|l| seen.insert(l.as_str()))
    };
    if all_distinct {
        return;
    }
    let original: Vec<String> = labels.to_vec();
    // Every label written or given so far, and how many times each original label came before.
    let mut taken: HashSet<String> = original.iter().cloned().collect();
    let mut before: HashMap<&str, usize> = HashMap::new();
    for i in 0..labels.len() {
        let n = before.entry(original[i].as_str()).or_insert(0);
        *n += 1;
        if *n > 1 {
            let mut k = *n;
            // A label that already ends in " #k" must not collide with a generated one.
            while taken.contains(&format!("{} #{k}", original[i])) {
                k += 1;
            }
            labels[i] = format!("{} #{k}", original[i]);
            taken.insert(labels[i].clone());
        }
    }
}

impl<'a> Mach<'a> {
    /// Two options are the same for a player: equal values, or identical cards (same kind, same
    /// unordered zone, same face, same card variables, nothing attached).
    fn equivalent(&self, a: &Value, b: &Value, decider: u8) -> bool {
        if a == b {
            return true;
        }
        let (Value::Card(x), Value::Card(y)) = (a, b) else {
            return false;
        };
        let (Some(cx), Some(cy)) = (self.s.cards.get(*x as usize), self.s.cards.get(*y as usize))
        else {
            return false;
        };
        // Every test below must hold: the cheapest first.
        if cx.kind != cy.kind || cx.zone != cy.zone || cx.face_up != cy.face_up {
            return false;
        }
        if !self.mergeable(*x, decider) || !self.mergeable(*y, decider) {
            return false;
        }
        let n = self.l.n_cvars;
        let (x, y) = (*x as usize, *y as usize);
        n == 0 || self.s.cvars.get(x * n..(x + 1) * n) == self.s.cvars.get(y * n..(y + 1) * n)
    }

    /// Whether a card may be merged with identical ones for `decider`: it sees the card, the card's
    /// zone is unordered, and nothing is attached to the card.
    fn mergeable(&self, card: u32, decider: u8) -> bool {
        // Cards the decider may not see are never merged: that would tell it what they are.
        if self.hidden_from(card, decider) {
            return false;
        }
        let Some(cs) = self.s.cards.get(card as usize) else {
            return false;
        };
        let def = self.s.zones[cs.zone as usize].def;
        if self.p.zones.get(def.index()).is_none_or(|d| d.ordered) {
            return false;
        }
        let c = card as usize;
        !self.l.card_zones.iter().any(|&z| {
            let zi = self.l.zone_base[z] as usize + c;
            self.s.zones.get(zi).is_some_and(|z| !z.cards.is_empty())
        })
    }

    /// Whether a card lies where `seat` may not see it.
    fn hidden_from(&self, card: u32, seat: u8) -> bool {
        match self.s.cards.get(card as usize) {
            Some(_) => seat >= 64 || self.s.card_seen_mask(self.p, card) & (1u64 << seat) == 0,
            None => false,
        }
    }

    /// An option as the decider may see it: a card it may not see is "a card from ZONE".
    fn label_for(&self, v: &Value, decider: u8) -> String {
        if let Value::Card(c) = v {
            if self.hidden_from(*c, decider) {
                let zone = self.s.cards.get(*c as usize).map_or(0, |cs| cs.zone);
                return format!("a card from {}", zone_label(self.p, self.l, self.s, zone));
            }
        }
        label(self.p, self.l, self.s, v)
    }

    /// A hash that equivalent options share (see [`Mach::equivalent`]): identical cards hash their
    /// kind, zone, face and card variables; any other value hashes itself.
    fn fingerprint(&self, v: &Value, decider: u8, h: &mut DefaultHasher) {
        if let Value::Card(c) = v {
            if let Some(cs) = self.s.cards.get(*c as usize) {
                if self.mergeable(*c, decider) {
                    (cs.kind, cs.zone, cs.face_up).hash(h);
                    let n = self.l.n_cvars;
                    let c = *c as usize;
                    self.s.cvars.get(c * n..(c + 1) * n).hash(h);
                    return;
                }
            }
        }
        v.hash(h);
    }

    /// The indices of the first of each set of equivalent values, in order.
    fn distinct(&self, vals: &[Value], decider: u8) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::with_capacity(vals.len());
        if vals.len() <= SCAN {
            for (i, v) in vals.iter().enumerate() {
                if !out.iter().any(|&o| self.equivalent(&vals[o], v, decider)) {
                    out.push(i);
                }
            }
            return out;
        }
        let mut buckets: HashMap<u64, Vec<usize>> = HashMap::with_capacity(vals.len());
        for (i, v) in vals.iter().enumerate() {
            let mut h = DefaultHasher::new();
            self.fingerprint(v, decider, &mut h);
            let b = buckets.entry(h.finish()).or_default();
            if !b.iter().any(|&o| self.equivalent(&vals[o], v, decider)) {
                b.push(i);
                out.push(i);
            }
        }
        out
    }

    /// Keeps the first of equivalent options.
    fn dedupe(&self, vals: Vec<Value>, decider: u8) -> Vec<Value> {
        let keep = self.distinct(&vals, decider);
        if keep.len() == vals.len() {
            return vals;
        }
        keep.into_iter().map(|i| vals[i].clone()).collect()
    }

    /// The fingerprint of a menu option: its action and its arguments' fingerprints.
    fn option_fingerprint(&self, a: ActionId, args: &[Value], decider: u8) -> u64 {
        let mut h = DefaultHasher::new();
        a.0.hash(&mut h);
        for v in args {
            self.fingerprint(v, decider, &mut h);
        }
        h.finish()
    }

    /// Who decides: `by`, else `you`, else the active player.
    fn decider(&mut self, by: Option<&Expr>) -> R<u8> {
        match by {
            Some(e) => self.eval_player(e),
            None => Ok(self.you().unwrap_or(self.s.active)),
        }
    }

    fn prompt(&mut self, t: Option<&TextIr>, default: &str) -> R<String> {
        match t {
            Some(t) => self.text(t),
            None => Ok(default.to_string()),
        }
    }

    /// Before asking: decisions must be allowed here, and the checks run first.
    fn before_decision(&mut self, span: Span) -> R<Option<Stop>> {
        if let Some(why) = self.s.no_decide {
            return Err(self.err(span, format!("{why} cannot ask for a decision")));
        }
        Ok(self.run_checks()?.map(Stop::Over))
    }

    fn labels(&mut self, vals: &[Value], decider: u8) -> Vec<String> {
        if !self.wants_labels() {
            self.s.unlabelled = true;
            return vec![String::new(); vals.len()];
        }
        vals.iter().map(|v| self.label_for(v, decider)).collect()
    }

    /// Whether options get their labels as they are listed (`GameConfig::labels`, or events are
    /// recorded).
    fn wants_labels(&self) -> bool {
        self.s.labels || self.s.record
    }

    /// The labels of the pending decision, built now (its options were listed without them). The
    /// texts left out are those that cannot fail (see `plain_label`).
    pub fn labels_of_pending(&mut self) -> Vec<String> {
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
                let mut out: Vec<String> = f
                    .offered
                    .iter()
                    .map(|&i| self.label_for(&f.candidates[i], f.decider))
                    .collect();
                if f.with_done {
                    out.push("done".into());
                }
                out
            }
            _ => Vec::new(),
        };
        distinct_labels(&mut labels);
        labels
    }

    fn pending_decider(&self) -> u8 {
        match &self.s.status {
            super::Status::Decision(d) => d.player,
            _ => self.s.active,
        }
    }

    /// The label of a menu option, in the context it was listed in.
    fn option_label(&mut self, a: ActionId, args: &[Value], decider: u8) -> R<String> {
        let p: &'a Program = self.p;
        let Some(def) = p.actions.get(a.index()) else {
            return Ok(String::new());
        };
        let Some(t) = &def.label else {
            return Ok(self.default_label(def, args, decider));
        };
        let base = self.s.ctxs.len();
        let mut locals = self.s.take_locals(0);
        locals.extend(args.iter().cloned());
        self.s.push_ctx(locals, Some(decider), None);
        let r = self.text(t);
        self.s.truncate_ctxs(base);
        r
    }

    /// An action's name followed by its arguments, for an action without `label`.
    fn default_label(&self, def: &ActionDef, args: &[Value], decider: u8) -> String {
        let mut s = def.name.clone();
        for v in args.iter() {
            s.push(' ');
            s.push_str(&self.label_for(v, decider));
        }
        s
    }

    fn decision(
        &mut self,
        player: u8,
        prompt: String,
        mut options: Vec<String>,
        simultaneous: bool,
        span: Span,
    ) -> Decision {
        if !self.s.unlabelled {
            distinct_labels(&mut options);
        }
        Decision {
            player,
            prompt,
            options,
            simultaneous,
            span,
        }
    }

    /// The elements of a domain that pass the filter (with the binder in `var`).
    fn domain(&mut self, var: u16, domain: &Expr, filter: Option<&Expr>) -> R<Vec<Value>> {
        let list = self.eval_items(domain)?;
        let mut out = Vec::with_capacity(list.len());
        let mut r = Ok(());
        // Filtering changes nothing: pure function calls may be remembered meanwhile.
        self.s.remember();
        for v in list.iter() {
            if let Some(f) = filter {
                self.set_local(var, v.clone());
                match self.eval_bool(f) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
            out.push(v.clone());
        }
        self.s.forget();
        self.s.give_back(list);
        r.map(|()| out)
    }

    pub fn exec_choose(&mut self, stmt: &'a Stmt, slot: u16, ch: &'a Choose, _at: At) -> R<Flow> {
        let span = stmt.span;
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Flow::Stop(stop));
        }
        let decider = self.decider(ch.by.as_ref())?;
        let cands = self.domain(ch.var, &ch.domain, ch.filter.as_ref())?;
        match &ch.count {
            ChooseCount::One => {
                let offered = self.dedupe(cands, decider);
                if offered.is_empty() {
                    self.set_local(slot, Value::None);
                    return Ok(self.fail(span));
                }
                let prompt = self.prompt(ch.prompt.as_ref(), "Choose one")?;
                let labels = self.labels(&offered, decider);
                let d = self.decision(decider, prompt, labels, false, span);
                self.s.frames.push(Frame::ChooseOne { slot, offered });
                Ok(Flow::Stop(Stop::Decision(d)))
            }
            count => {
                let (n, with_done, default) = match count {
                    ChooseCount::Exactly(e) => {
                        let n = self.eval_int(e)?.max(0) as usize;
                        (n, false, format!("Choose {n}"))
                    }
                    ChooseCount::UpTo(e) => {
                        let n = self.eval_int(e)?.max(0) as usize;
                        (n, true, format!("Choose up to {n}"))
                    }
                    _ => (cands.len(), true, "Choose any".to_string()),
                };
                if !with_done && cands.len() < n {
                    self.set_local(slot, Value::list(cands));
                    return Ok(self.fail(span));
                }
                let prompt = self.prompt(ch.prompt.as_ref(), &default)?;
                self.s.frames.push(Frame::ChooseMany(Box::new(ChooseMany {
                    slot,
                    decider,
                    prompt,
                    span,
                    candidates: cands,
                    picked: Vec::new(),
                    left: n,
                    with_done,
                    offered: Vec::new(),
                })));
                // The frame asks at once (the checks have just run).
                self.pose_many(false)
            }
        }
    }

    pub fn step_many(&mut self) -> R<Flow> {
        self.pose_many(true)
    }

    fn pose_many(&mut self, checks: bool) -> R<Flow> {
        let Some(Frame::ChooseMany(f)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        if f.left == 0 || f.candidates.is_empty() {
            let (slot, picked) = (f.slot, Value::list(f.picked.clone()));
            self.s.frames.pop();
            self.set_local(slot, picked);
            return Ok(Flow::Next);
        }
        let span = f.span;
        if checks {
            if let Some(stop) = self.before_decision(span)? {
                return Ok(Flow::Stop(stop));
            }
        }
        let Some(Frame::ChooseMany(f)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        let offered = self.distinct(&f.candidates, f.decider);
        let mut labels: Vec<String> = if self.wants_labels() {
            offered
                .iter()
                .map(|&i| self.label_for(&f.candidates[i], f.decider))
                .collect()
        } else {
            vec![String::new(); offered.len()]
        };
        if f.with_done {
            labels.push("done".into());
        }
        if !self.wants_labels() {
            self.s.unlabelled = true;
        }
        let d = self.decision(f.decider, f.prompt.clone(), labels, false, span);
        if let Some(Frame::ChooseMany(f)) = self.s.frames.last_mut() {
            f.offered = offered;
        }
        Ok(Flow::Stop(Stop::Decision(d)))
    }

    pub fn exec_branch(
        &mut self,
        stmt: &'a Stmt,
        by: Option<&'a Expr>,
        prompt: Option<&'a TextIr>,
        branches: &'a [BranchIr],
    ) -> R<Flow> {
        let span = stmt.span;
        if let Some(stop) = self.before_decision(span)? {
            return Ok(Flow::Stop(stop));
        }
        let decider = self.decider(by)?;
        let mut labels = Vec::new();
        let mut blocks = Vec::new();
        for b in branches {
            if let Some(c) = &b.condition {
                if !self.eval_bool(c)? {
                    continue;
                }
            }
            labels.push(self.text(&b.label)?);
            blocks.push(b.body);
        }
        if blocks.is_empty() {
            return Ok(self.fail(span));
        }
        let prompt = self.prompt(prompt, "Choose one")?;
        let d = self.decision(decider, prompt, labels, false, span);
        self.s.frames.push(Frame::Branch { blocks });
        Ok(Flow::Stop(Stop::Decision(d)))
    }

    /// Every legal (action, arguments) of a menu for `decider`, with labels. Equivalent options
    /// (identical cards of an unordered zone) are offered once: the first whose condition holds.
    fn menu_options(
        &mut self,
        decider: u8,
        actions: &'a [ActionId],
    ) -> R<(Vec<MenuOption>, Vec<String>)> {
        let base = self.s.ctxs.len();
        let locals = self.s.take_locals(0);
        self.s.push_ctx(locals, Some(decider), None);
        let mut list = Listing::default();
        let mut r = Ok(());
        // Listing options changes nothing: pure function calls may be remembered meanwhile.
        self.s.remember();
        for &a in actions {
            let mut args = Vec::new();
            list.known.clear();
            if let Some(def) = self.p.actions.get(a.index()) {
                list.known.resize(def.parts.len(), None);
            }
            r = self.enum_action(a, &mut args, &mut list).map(|_| ());
            if r.is_err() {
                break;
            }
        }
        self.s.forget();
        self.s.truncate_ctxs(base);
        r?;
        Ok((list.out, list.labels))
    }

    /// Whether an action's condition holds for the arguments bound in slots 0..n. `Err(level)`: it
    /// does not, nor for any choice of the parameters from `level` on (see [`ConditionPart`]).
    fn condition_holds(&mut self, def: &'a ActionDef, list: &mut Listing) -> R<Result<(), u16>> {
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

    /// Lists the options of action `a` whose first parameters are `args`. `Some(level)`: stop
    /// listing the parameters from `level` on (a conjunct that reads only the first `level` is false).
    fn enum_action(
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
        let decider = self.you().unwrap_or(self.s.active);
        if i == def.params.len() {
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
            if out.len() < SCAN && list.seen.is_none() {
                if out.iter().any(same) {
                    return Ok(None);
                }
            } else {
                let fp = self.option_fingerprint(a, args, decider);
                let buckets = list.seen.get_or_insert_with(|| {
                    let mut m: HashMap<u64, Vec<usize>> = HashMap::new();
                    for (k, (b, bargs)) in out.iter().enumerate() {
                        let f = self.option_fingerprint(*b, bargs, decider);
                        m.entry(f).or_default().push(k);
                    }
                    m
                });
                if buckets
                    .get(&fp)
                    .is_some_and(|b| b.iter().any(|&k| same(&out[k])))
                {
                    return Ok(None);
                }
                fingerprint = Some(fp);
            }
            if let Err(level) = self.condition_holds(def, list)? {
                return Ok((level != u16::MAX).then_some(level));
            }
            let text = if !self.wants_labels() && plain_label(def, args) {
                // Built when someone reads it (`Game::set_labels`).
                self.s.unlabelled = true;
                String::new()
            } else {
                match &def.label {
                    Some(t) => self.text(t)?,
                    None => self.default_label(def, args, decider),
                }
            };
            if let (Some(fp), Some(buckets)) = (fingerprint, list.seen.as_mut()) {
                buckets.entry(fp).or_default().push(list.out.len());
            }
            list.out.push((a, args.clone()));
            list.labels.push(text);
            return Ok(None);
        }
        let dom = self.eval_items(&def.params[i])?;
        let mut r = Ok(None);
        for v in dom.iter() {
            self.set_local(i as u16, v.clone());
            args.push(v.clone());
            // Conjuncts that read parameter i or a later one must be evaluated again.
            for (k, part) in list.known.iter_mut().zip(&def.parts) {
                if part.level as usize > i {
                    *k = None;
                }
            }
            r = self.enum_action(a, args, list);
            args.pop();
            match r {
                Err(_) => break,
                // Every later choice of parameter i fails too: back to the caller's loop.
                Ok(Some(level)) if level as usize <= i => break,
                Ok(_) => r = Ok(None),
            }
        }
        self.s.give_back(dom);
        r
    }

    pub fn step_menu(&mut self) -> R<Flow> {
        let Some(Frame::Menu(m)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        let (at, decider, left, taken) = (m.at, m.decider, m.left, m.taken);
        let Some(Stmt {
            kind: StmtKind::Actions { mode, actions, .. },
            span,
        }) = self.stmt(at)
        else {
            self.s.frames.pop();
            return Ok(Flow::Next);
        };
        let done = match mode {
            MenuMode::Once | MenuMode::OnceOrPass => taken > 0,
            MenuMode::Times(_) => left.unwrap_or(0) <= 0,
            MenuMode::UntilPass => false,
        };
        if done {
            self.s.frames.pop();
            return Ok(Flow::Next);
        }
        if let Some(stop) = self.before_decision(*span)? {
            return Ok(Flow::Stop(stop));
        }
        let (offered, mut labels) = self.menu_options(decider, actions)?;
        let pass = matches!(mode, MenuMode::UntilPass | MenuMode::OnceOrPass);
        if offered.is_empty() && !pass {
            self.s.frames.pop();
            return Ok(Flow::Next);
        }
        if pass {
            labels.push("pass".into());
        }
        let d = self.decision(decider, "Choose an action".into(), labels, false, *span);
        if let Some(Frame::Menu(m)) = self.s.frames.last_mut() {
            m.offered = offered;
        }
        Ok(Flow::Stop(Stop::Decision(d)))
    }

    pub fn step_simul(&mut self) -> R<Flow> {
        let Some(Frame::Simul(f)) = self.s.frames.last() else {
            return Ok(Flow::Next);
        };
        let at = f.at;
        let Some(Stmt {
            kind:
                StmtKind::Simultaneously {
                    player,
                    var,
                    domain,
                    filter,
                    prompt,
                    body,
                    ..
                },
            span,
        }) = self.stmt(at)
        else {
            self.s.frames.pop();
            return Ok(Flow::Next);
        };
        if f.running {
            let Some(&q) = f.players.get(f.idx) else {
                self.s.frames.pop();
                return Ok(Flow::Next);
            };
            let answer = f.answers.get(f.idx).cloned().unwrap_or_default();
            if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                f.idx += 1;
            }
            self.set_local(*player, Value::Player(q));
            self.set_local(*var, answer);
            self.push_block(*body);
            return Ok(Flow::Next);
        }
        loop {
            let Some(Frame::Simul(f)) = self.s.frames.last_mut() else {
                return Ok(Flow::Next);
            };
            let Some(&q) = f.players.get(f.idx) else {
                // Everyone has chosen: show the choices, then resolve in order.
                f.running = true;
                f.idx = 0;
                let events = std::mem::take(&mut f.events);
                for e in events {
                    self.s.push_event(e);
                }
                return Ok(Flow::Next);
            };
            self.set_local(*player, Value::Player(q));
            let saved_you = self.you();
            self.set_you(Some(q));
            let opts = self.domain(*var, domain, filter.as_ref());
            self.set_you(saved_you);
            let offered = self.dedupe(opts?, q);
            if offered.is_empty() {
                if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                    f.answers.push(Value::None);
                    f.idx += 1;
                }
                continue;
            }
            if let Some(stop) = self.before_decision(*span)? {
                return Ok(Flow::Stop(stop));
            }
            let prompt = self.prompt(prompt.as_ref(), "Choose one")?;
            // Simultaneous choices are rare: always labelled.
            let labels: Vec<String> = offered.iter().map(|v| self.label_for(v, q)).collect();
            let d = self.decision(q, prompt, labels, true, *span);
            if let Some(Frame::Simul(f)) = self.s.frames.last_mut() {
                f.offered = offered;
            }
            return Ok(Flow::Stop(Stop::Decision(d)));
        }
    }

    /// Whether a chosen value is a card that not everybody can see.
    fn secret(&self, v: &Value) -> bool {
        match v {
            Value::Card(c) => self
                .s
                .cards
                .get(*c as usize)
                .is_some_and(|_| self.s.card_seen_mask(self.p, *c) != u64::MAX),
            _ => false,
        }
    }

    /// Applies option `opt` of the pending decision `d` to the frame that asked.
    pub fn answer(&mut self, d: &Decision, opt: usize) -> R<()> {
        let mut event = if self.s.record {
            Some(Event::Decision {
                player: d.player,
                prompt: d.prompt.clone(),
                options: d.options.clone(),
                chosen: d.options.get(opt).cloned().unwrap_or_default(),
                hidden: None,
            })
        } else {
            None
        };
        let mut chosen_value = Value::None;
        let mut hidden: Option<&'static str> = None;
        match self.s.frames.last_mut() {
            Some(Frame::ChooseOne { slot, offered }) => {
                let (slot, v) = (*slot, offered.get(opt).cloned().unwrap_or_default());
                self.s.frames.pop();
                chosen_value = v.clone();
                self.set_local(slot, v);
            }
            Some(Frame::ChooseMany(f)) => match f.offered.get(opt) {
                Some(&i) if i < f.candidates.len() => {
                    let v = f.candidates.remove(i);
                    chosen_value = v.clone();
                    f.picked.push(v);
                    f.left = f.left.saturating_sub(1);
                }
                _ => f.left = 0,
            },
            Some(Frame::Branch { blocks }) => {
                let b = blocks.get(opt).copied();
                self.s.frames.pop();
                if let Some(b) = b {
                    self.push_block(b);
                }
            }
            // The options are listed again before the next decision of this menu: take this one.
            Some(Frame::Menu(m)) => {
                match (opt < m.offered.len()).then(|| m.offered.swap_remove(opt)) {
                    Some((a, args)) => {
                        m.taken += 1;
                        if let Some(l) = &mut m.left {
                            *l -= 1;
                        }
                        let decider = m.decider;
                        let p: &'a Program = self.p;
                        let Some(def) = p.actions.get(a.index()) else {
                            return Err(self.err(d.span, "unknown action".into()));
                        };
                        if args.iter().any(|v| self.secret(v)) {
                            hidden = Some("an action");
                        }
                        let mut locals = self.s.take_locals(0);
                        locals.extend(args);
                        locals.resize((def.body.slots as usize).max(locals.len()), Value::None);
                        self.push_call(
                            Ctx {
                                locals,
                                you: Some(decider),
                                this: None,
                            },
                            def.body.block,
                        );
                    }
                    None => {
                        self.s.frames.pop();
                    }
                }
            }
            Some(Frame::Simul(f)) => {
                let v = f.offered.get(opt).cloned().unwrap_or_default();
                f.answers.push(v.clone());
                f.idx += 1;
                let secret = self.secret(&v);
                if let Some(Event::Decision { hidden: h, .. }) = &mut event {
                    *h = secret.then(|| "a card".to_string());
                }
                if let (Some(Frame::Simul(f)), Some(e)) = (self.s.frames.last_mut(), event) {
                    f.events.push(e);
                }
                return Ok(());
            }
            _ => return Err(self.err(d.span, "no frame is waiting for this decision".into())),
        }
        if let Some(mut e) = event {
            if self.secret(&chosen_value) {
                hidden = Some("a card");
            }
            if let Event::Decision { hidden: h, .. } = &mut e {
                *h = hidden.map(str::to_string);
            }
            self.s.push_event(e);
        }
        Ok(())
    }
}
