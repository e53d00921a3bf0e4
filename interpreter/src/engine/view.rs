//! Engine stage: what one seat may see of a game (serialisable for agents and front ends).

use super::label::{kind_name, label, zone_label};
use super::state::{Holder, Layout, State};
use super::Status;
use crate::program::{GroupId, Program, ShownBy};
use crate::value::Value;
use cardgame_grammar::ast::Scope;

#[derive(Clone, Debug, serde::Serialize)]
pub struct View {
    pub seat: u8,
    pub active: u8,
    pub turn: u32,
    pub zones: Vec<ZoneView>,
    pub globals: Vec<VarView>,
    pub players: Vec<PlayerView>,
    /// The participants that are not seats (`participant NAME "Name"`), seen as another player is:
    /// `seat` is their player number (after the seats). Left out of JSON when the script has none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub participants: Vec<PlayerView>,
    /// The pending decision, if it is this seat's.
    pub decision: Option<DecisionView>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct ZoneView {
    pub name: String,
    pub count: usize,
    /// Top first; `null` for a card this seat may not see.
    pub cards: Vec<Option<String>>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct VarView {
    pub name: String,
    pub value: serde_json::Value,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayerView {
    pub seat: u8,
    pub name: String,
    pub eliminated: bool,
    pub vars: Vec<VarView>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct DecisionView {
    pub prompt: String,
    pub options: Vec<String>,
    pub simultaneous: bool,
}

fn json(p: &Program, l: &Layout, s: &State, v: &Value) -> serde_json::Value {
    match v {
        Value::None => serde_json::Value::Null,
        Value::Int(i) => (*i).into(),
        Value::Bool(b) => (*b).into(),
        Value::List(items) => items.iter().map(|i| json(p, l, s, i)).collect(),
        // A card variable names the card's kind: it is not secret information by itself.
        _ => label(p, l, s, v).into(),
    }
}

/// A card kind's value of a property for a zone's display order: a number, else last. A property
/// computed from the game (not a constant of the kind) is not evaluated here and counts as last.
fn shown_key(p: &Program, l: &Layout, kind: usize, pid: usize) -> i64 {
    let constant = l.prop_const.get(kind * l.nprops + pid).cloned().flatten();
    let literal = || {
        let e = p
            .kinds
            .get(kind)
            .and_then(|k| k.props.get(pid))
            .and_then(|o| o.as_ref())
            .or_else(|| p.props.get(pid).map(|d| &d.default))?;
        match &e.kind {
            crate::program::ExprKind::Const(v) => Some(v.clone()),
            _ => None,
        }
    };
    match constant.or_else(literal) {
        Some(Value::Int(n)) => n,
        Some(Value::Bool(b)) => i64::from(b),
        _ => i64::MAX,
    }
}

/// Where a card kind's tag of group `g` stands in the group's declaration (its cards without one
/// last).
fn group_key(p: &Program, kind: usize, g: GroupId) -> i64 {
    let (Some(k), Some(group)) = (p.kinds.get(kind), p.groups.get(g.index())) else {
        return i64::MAX;
    };
    group
        .tags
        .iter()
        .position(|t| k.tags.contains(t))
        .map_or(i64::MAX, |at| at as i64)
}

pub(crate) fn view(p: &Program, l: &Layout, s: &State, seat: u8) -> View {
    // Zones attached to cards are listed only when they hold something.
    let zones = s
        .zones
        .declared()
        .filter(|&(zi, z)| {
            !(matches!(s.zones.holder(zi), Some(Holder::Card(_))) && z.cards.is_empty())
        })
        .map(|(zi, z)| {
            let seen = |c: u32| {
                let cs = &s.cards[c as usize];
                let mask = s.seen_mask(p, zi as u32, cs.face_up) | s.known(c);
                seat < 64 && mask & (1u64 << seat) != 0
            };
            // Top first; a zone `shown by` properties lists the cards this seat sees in that
            // order, then the others (so the order tells nothing of the unseen cards).
            let mut order: Vec<u32> = z.cards.iter().rev().copied().collect();
            let shown_by = &p.zones[s.zones.def(zi).index()].shown_by;
            if !shown_by.is_empty() {
                order.sort_by_key(|&c| {
                    let key: Vec<i64> = if seen(c) {
                        let kind = s.cards[c as usize].kind as usize;
                        shown_by
                            .iter()
                            .map(|key| match key {
                                ShownBy::Prop(pid) => shown_key(p, l, kind, pid.index()),
                                ShownBy::Group(g) => group_key(p, kind, *g),
                            })
                            .collect()
                    } else {
                        vec![i64::MAX; shown_by.len() + 1]
                    };
                    key
                });
            }
            ZoneView {
                name: zone_label(p, l, s, zi as u32),
                count: z.cards.len(),
                cards: order
                    .iter()
                    .map(|&c| seen(c).then(|| kind_name(p, s.cards[c as usize].kind)))
                    .collect(),
            }
        })
        .collect();
    let mut globals = Vec::new();
    let mut pvars = Vec::new();
    for (vi, v) in p.vars.iter().enumerate() {
        let slot = l.var_slot[vi] as usize;
        match v.scope {
            Scope::PerPlayer => pvars.push((v.name.clone(), slot, v.private)),
            Scope::PerCard => {}
            _ => globals.push(VarView {
                name: v.name.clone(),
                value: json(p, l, s, s.globals.get(slot).unwrap_or(&Value::None)),
            }),
        }
    }
    let everybody = s.players.saturating_add(s.participants);
    let mut players: Vec<PlayerView> = (0..everybody)
        .map(|q| PlayerView {
            seat: q,
            name: s.name(q),
            eliminated: !s.living(q),
            // Another player's private variables are left out of this seat's view.
            vars: pvars
                .iter()
                .filter(|(_, _, private)| !private || q == seat)
                .map(|(name, slot, _)| VarView {
                    name: name.clone(),
                    value: json(
                        p,
                        l,
                        s,
                        s.pvars
                            .get(q as usize * l.n_pvars + slot)
                            .unwrap_or(&Value::None),
                    ),
                })
                .collect(),
        })
        .collect();
    let participants = players.split_off(s.players as usize);
    let decision = match &s.status {
        Status::Decision(d) if d.player == seat => Some(DecisionView {
            prompt: d.prompt.clone(),
            options: d.options.clone(),
            simultaneous: d.simultaneous,
        }),
        _ => None,
    };
    View {
        seat,
        active: s.active,
        turn: s.turn,
        zones,
        globals,
        players,
        participants,
        decision,
    }
}

/// The component inventory of a game (`cardgame cards`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Inventory {
    pub game: String,
    pub players: u8,
    pub total: usize,
    pub cards: Vec<CardEntry>,
    /// Zones holding cards, with how many.
    pub zones: Vec<ZoneCount>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct CardEntry {
    pub name: String,
    pub copies: usize,
    pub tags: Vec<String>,
    /// Property values (of the first copy; `null` when it cannot be computed).
    pub properties: Vec<(String, serde_json::Value)>,
    pub text: String,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct ZoneCount {
    pub name: String,
    pub count: usize,
}

pub(crate) fn inventory(m: &mut super::exec::Mach<'_>) -> Inventory {
    let p = m.p;
    let mut cards = Vec::new();
    for (k, kd) in p.kinds.iter().enumerate() {
        let first = m.s.cards.iter().position(|c| c.kind as usize == k);
        let copies = m.s.cards.iter().filter(|c| c.kind as usize == k).count();
        let mut properties = Vec::new();
        for (pi, pd) in p.props.iter().enumerate() {
            let v = match first {
                Some(c) => m.prop(pi, c as u32, kd.span).ok(),
                None => match kd
                    .props
                    .get(pi)
                    .and_then(|e| e.as_ref())
                    .unwrap_or(&pd.default)
                    .kind
                {
                    crate::program::ExprKind::Const(ref v) => Some(v.clone()),
                    _ => None,
                },
            };
            let v = v.map_or(serde_json::Value::Null, |v| json(p, m.l, m.s, &v));
            properties.push((pd.name.clone(), v));
        }
        cards.push(CardEntry {
            name: kd.name.clone(),
            copies,
            tags: kd
                .tags
                .iter()
                .filter_map(|t| p.tags.get(t.index()).map(|t| t.name.clone()))
                .collect(),
            properties,
            text: kd.text.clone(),
        });
    }
    let zones =
        m.s.zones
            .declared()
            .filter(|(_, z)| !z.cards.is_empty())
            .map(|(zi, z)| ZoneCount {
                name: zone_label(p, m.l, m.s, zi as u32),
                count: z.cards.len(),
            })
            .collect();
    Inventory {
        game: p.name.clone(),
        players: m.s.players,
        total: m.s.cards.len(),
        cards,
        zones,
    }
}

/// `name` padded with spaces to `width` characters (as `{:width$}` does, which panics past 65,535).
fn padded(name: &str, width: usize) -> String {
    let mut s = name.to_string();
    s.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(name.chars().count()),
    ));
    s
}

impl Inventory {
    /// The inventory as text, one card definition and one zone per line.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{}, {} players: {} cards\n\ncards:\n",
            self.game, self.players, self.total
        );
        let width = self.cards.iter().map(|c| c.name.len()).max().unwrap_or(0);
        for c in &self.cards {
            out.push_str(&format!("  {}  x{:<3}", padded(&c.name, width), c.copies));
            if !c.tags.is_empty() {
                out.push_str(&format!("  {}", c.tags.join(", ")));
            }
            let props: Vec<String> = c
                .properties
                .iter()
                .map(|(n, v)| match v {
                    serde_json::Value::String(s) => format!("{n} {s}"),
                    v => format!("{n} {v}"),
                })
                .collect();
            if !props.is_empty() {
                out.push_str(&format!("  ({})", props.join(", ")));
            }
            out.push('\n');
        }
        out.push_str("\nzones after setup:\n");
        let width = self.zones.iter().map(|z| z.name.len()).max().unwrap_or(0);
        for z in &self.zones {
            out.push_str(&format!("  {}  {}\n", padded(&z.name, width), z.count));
        }
        out
    }
}
