//! Engine stage: values as text (labels of options, interpolated texts, the trace).

use super::state::{Holder, Layout, State};
use crate::program::Program;
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
