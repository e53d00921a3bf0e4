//! Engine stage: values as text (labels of options, interpolated texts, the trace).

use super::eval::MAX_LIST;
use super::exec::Mach;
use super::state::{Holder, Layout, State};
use super::RuntimeError;
use crate::program::{ExprKind, Program, TextIr, TextPartIr};
use crate::value::Value;
use std::collections::{HashMap, HashSet};

/// A value as text.
pub(crate) fn label(p: &Program, l: &Layout, s: &State, v: &Value) -> String {
    match v {
        Value::None => "none".into(),
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Player(x) => s.name(*x),
        Value::Card(c) => match s.cards.get(*c as usize) {
            Some(cs) => kind_name(p, cs.kind),
            None => format!("card#{c}"),
        },
        Value::Kind(k) => kind_name(p, *k),
        Value::Tag(t) => p
            .tags
            .get(*t as usize)
            .map_or_else(|| format!("tag#{t}"), |t| t.name.clone()),
        Value::Space(sp) => match l.spaces.get(*sp as usize) {
            Some((x, y)) => format!("({x},{y})"),
            None => format!("space#{sp}"),
        },
        Value::Zone(z) => zone_label(p, l, s, *z),
        Value::Text(t) => t.to_string(),
        Value::List(items) => items
            .iter()
            .map(|i| label(p, l, s, i))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A value as text, appended to `out` (the same text as [`label`], fewer allocations).
pub(crate) fn label_into(p: &Program, l: &Layout, s: &State, v: &Value, out: &mut String) {
    use std::fmt::Write;
    match v {
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Player(x) => match s.fixed.names.get(*x as usize) {
            Some(n) => out.push_str(n),
            None => out.push_str(&s.name(*x)),
        },
        Value::Card(c) => match s
            .cards
            .get(*c as usize)
            .and_then(|cs| p.kinds.get(cs.kind as usize))
        {
            Some(k) => out.push_str(&k.name),
            None => out.push_str(&label(p, l, s, v)),
        },
        Value::Kind(k) => match p.kinds.get(*k as usize) {
            Some(k) => out.push_str(&k.name),
            None => out.push_str(&label(p, l, s, v)),
        },
        Value::Text(t) => out.push_str(t),
        _ => out.push_str(&label(p, l, s, v)),
    }
}

pub(crate) fn kind_name(p: &Program, k: u16) -> String {
    p.kinds
        .get(k as usize)
        .map_or_else(|| format!("kind#{k}"), |k| k.name.clone())
}

/// "market", "P1.hand", "kept on City#12", "tile at (2,3)".
pub(crate) fn zone_label(p: &Program, l: &Layout, s: &State, z: u32) -> String {
    let Some(holder) = s.zones.holder(z as usize) else {
        return format!("zone#{z}");
    };
    let name = p
        .zones
        .get(s.zones.def(z as usize).index())
        .map_or("zone", |d| d.name.as_str());
    match holder {
        Holder::Shared => name.to_string(),
        Holder::Player(x) => format!("{}.{}", s.name(x), name),
        Holder::Card(c) => {
            let k = s.cards.get(c as usize).map_or(0, |cs| cs.kind);
            format!("{} on {}#{}", name, kind_name(p, k), c)
        }
        Holder::Space(sp) => match l.spaces.get(sp as usize) {
            Some((x, y)) => format!("{name} at ({x},{y})"),
            None => format!("{name} at space#{sp}"),
        },
    }
}

/// Makes labels distinct by appending " #2", " #3" (counted among the labels as first written).
pub(super) fn distinct_labels(labels: &mut [String]) {
    // Usually all labels differ already: nothing to rename.
    let all_distinct = if labels.len() <= super::options::SCAN {
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

/// Whether a card lies where `seat` may not see it.
pub(super) fn hidden_from(p: &Program, s: &State, card: u32, seat: u8) -> bool {
    match s.cards.get(card as usize) {
        Some(_) => seat >= 64 || s.card_seen_mask(p, card) & (1u64 << seat) == 0,
        None => false,
    }
}

/// An option as `seat` may see it: a card it may not see is "a card from ZONE".
pub(crate) fn label_seen(p: &Program, l: &Layout, s: &State, v: &Value, seat: u8) -> String {
    if let Value::Card(c) = v {
        if hidden_from(p, s, *c, seat) {
            let zone = s.cards.get(*c as usize).map_or(0, |cs| cs.zone);
            return format!("a card from {}", zone_label(p, l, s, zone));
        }
    }
    label(p, l, s, v)
}

/// A value written into a text shown to `seat`: each card it may not see as in [`label_seen`].
pub(crate) fn label_seen_into(
    p: &Program,
    l: &Layout,
    s: &State,
    v: &Value,
    seat: u8,
    out: &mut String,
) {
    match v {
        Value::Card(_) => out.push_str(&label_seen(p, l, s, v, seat)),
        Value::List(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                label_seen_into(p, l, s, item, seat, out);
            }
        }
        _ => label_into(p, l, s, v, out),
    }
}

/// Texts shown to one seat: a card it may not see is written "a card from ZONE".
impl Mach<'_> {
    /// An option as the decider may see it (see [`label_seen`]).
    pub(super) fn label_for(&self, v: &Value, decider: u8) -> String {
        label_seen(self.p, self.l, self.s, v, decider)
    }
}

/// Whether building text `t` cannot fail: its parts are words, locals for which `plain_local`
/// holds (no list: a list's text could grow too long), `you`, `active`, `this` and constants.
pub(crate) fn plain_text(t: &TextIr, plain_local: impl Fn(u16) -> bool) -> bool {
    t.parts.iter().all(|part| match part {
        TextPartIr::Lit(_) => true,
        TextPartIr::Expr(e) => match &e.kind {
            ExprKind::Local(s) => plain_local(*s),
            ExprKind::You
            | ExprKind::Active
            | ExprKind::This
            | ExprKind::TurnNumber
            | ExprKind::Participant(_) => true,
            ExprKind::Const(v) => !matches!(v, Value::List(_)),
            // Every other form is evaluated when the text is built and counts as one that may
            // fail or give a list (listed, so that a new form must be judged here).
            ExprKind::Global(_)
            | ExprKind::PlayerVar(..)
            | ExprKind::CardVar(..)
            | ExprKind::Option(_)
            | ExprKind::Column(_)
            | ExprKind::Prop(..)
            | ExprKind::TagOf(..)
            | ExprKind::Field(..)
            | ExprKind::Zone(..)
            | ExprKind::Spaces
            | ExprKind::Players
            | ExprKind::Everyone
            | ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::IsTag(..)
            | ExprKind::IsKind(..)
            | ExprKind::If(..)
            | ExprKind::List(_)
            | ExprKind::Range(..)
            | ExprKind::Aggregate { .. }
            | ExprKind::Pile { .. }
            | ExprKind::Builtin(..)
            | ExprKind::CallFn(..)
            | ExprKind::Text(_)
            | ExprKind::Let(..) => false,
        },
    })
}

/// Interpolated texts (`"{x} ..."`): each part's value as text.
impl Mach<'_> {
    /// Whether building a text cannot fail: its parts are words, locals that hold no list (a list's
    /// text could grow too long), `you`, `active`, `this` and constants.
    pub fn text_is_plain(&self, t: &TextIr) -> bool {
        plain_text(t, |s| !matches!(self.local(s), Value::List(_)))
    }

    pub fn text(&mut self, t: &TextIr) -> Result<String, RuntimeError> {
        self.text_into(t, String::new(), None)
    }

    /// A text shown to `seat` (an option's label, a decision's prompt): a card it may not see is
    /// written "a card from ZONE", as in an option's default label.
    pub(super) fn text_seen_by(&mut self, t: &TextIr, seat: u8) -> Result<String, RuntimeError> {
        self.text_into(t, String::new(), Some(seat))
    }

    /// Text `k` of the statement at `at` (`t`: its prompt or text when `k` is 0, then its
    /// branches' labels), by the closures where they build it, else by the walker; into `out` and
    /// shown to `viewer` as in [`Mach::text_into`].
    pub(super) fn text_at(
        &mut self,
        t: &TextIr,
        (at, k): (Option<super::exec::At>, usize),
        mut out: String,
        viewer: Option<u8>,
    ) -> Result<String, RuntimeError> {
        // A text written out as it stands is the walker's to copy: nothing is evaluated.
        let evaluated = (t.parts.iter()).any(|part| matches!(part, TextPartIr::Expr(_)));
        let closures = (self.p.closures.as_deref()).filter(|_| evaluated && self.s.fixed.closures);
        if let Some(code) = closures.zip(at).and_then(|(c, at)| c.text(at, k)) {
            if code.build(self, viewer, &mut out).is_some() {
                #[cfg(test)]
                {
                    self.s.probe.counted.texts += 1;
                }
                return Ok(out);
            }
        }
        self.text_into(t, out, viewer)
    }

    /// [`Mach::text`] written into `out`, emptied first (a recycled buffer); shown to `viewer` when
    /// one is given (see [`Mach::text_seen_by`]).
    pub fn text_into(
        &mut self,
        t: &TextIr,
        mut out: String,
        viewer: Option<u8>,
    ) -> Result<String, RuntimeError> {
        out.clear();
        for part in &t.parts {
            match part {
                TextPartIr::Lit(s) => out.push_str(s),
                TextPartIr::Expr(e) => {
                    let v = self.eval_at(super::sites::Site::Text, e)?;
                    if let Value::List(l) = &v {
                        self.charge(l.len(), e.span)?;
                    }
                    match viewer {
                        Some(seat) => label_seen_into(self.p, self.l, self.s, &v, seat, &mut out),
                        None => label_into(self.p, self.l, self.s, &v, &mut out),
                    }
                    if out.len() > MAX_LIST {
                        return Err(self.err(e.span, "this text grew too long".into()));
                    }
                }
            }
        }
        Ok(out)
    }
}
