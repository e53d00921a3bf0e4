//! Engine stage (closures): the options of an action of two parameters, or of one over any list
//! the closures walk, listed by compiled closures.
//!
//! As the walker's `enum_domain`: for each item of the first domain in order (a zone's cards top
//! first, seats, spaces), the conjuncts that read the first parameter alone; then for each item of
//! the second domain (which may read the first), an option unless one of this action's options
//! listed before is the same for the decider (every argument equal, or identical cards: same kind,
//! zone, face and card variables, seen by the decider in an unordered zone, nothing attached), and
//! then the conjuncts that read the second.

use super::env::Env;
use super::menu::{compare, holds_cards, ActionPlan, Domain, Part};
use crate::engine::decide::{Args, MenuOption};
use crate::program::{ActionId, Program};
use crate::value::Value;

/// How many options of one action the closures compare by scanning; past it the walker lists the
/// action (it compares by fingerprint).
const LISTED: usize = 256;

/// What makes an argument the same as another for the decider: equal `class`, for identical
/// cards (`card` set) the same card variables, and for lists (`list` set) the same items.
#[derive(Clone, Copy)]
struct Key {
    class: u64,
    /// A card that may be merged with identical ones: compared by its variables too.
    card: Option<u32>,
    /// A list's place among `Made::lists` (its items' hash in `class`).
    list: Option<u32>,
}

impl Key {
    #[inline(always)]
    fn same(self, other: Key, env: &Env) -> bool {
        self.class == other.class
            && match (self.card, other.card) {
                (Some(x), Some(y)) => {
                    let l = env.l;
                    l.n_cvars == 0 || env.s.cvars.same_row(l, l.n_cvars, x as usize, y as usize)
                }
                _ => true,
            }
            && match (self.list, other.list) {
                (Some(x), Some(y)) => x == y || same_lists(env, x, y),
                _ => true,
            }
    }
}

/// Whether the lists made at places `x` and `y` among `Made::lists` hold the same items.
#[inline(never)]
fn same_lists(env: &Env, x: u32, y: u32) -> bool {
    let list = |i: u32| env.made.as_deref().and_then(|m| m.lists.get(i as usize));
    list(x) == list(y)
}

/// The key of an item for `env.you` (the walker's `equivalent`, `mergeable`), its word `w` (for a
/// list, its place among `Made::lists`).
fn key(env: &Env, p: &Program, w: i64, v: &Value) -> Option<Key> {
    let (s, l) = (env.s, env.l);
    let plain = |class| Key {
        class,
        card: None,
        list: None,
    };
    Some(match v {
        Value::Card(c) => {
            let cs = s.cards.get(*c as usize)?;
            let ordered = p.zones.get(s.zones.def(cs.zone as usize).index())?.ordered;
            let seen = env.you < 64 && s.card_seen_mask(p, *c) & (1u64 << env.you) != 0;
            if !ordered && seen && !holds_cards(s, l, *c) {
                let class =
                    1 << 62 | (cs.zone as u64) << 24 | (cs.kind as u64) << 1 | cs.face_up as u64;
                Key {
                    class,
                    card: Some(*c),
                    list: None,
                }
            } else {
                plain(2 << 62 | *c as u64)
            }
        }
        Value::Player(q) => plain(3 << 62 | *q as u64),
        // The items of one parameter are of one type: equal words, equal values.
        Value::Space(_)
        | Value::Int(_)
        | Value::Bool(_)
        | Value::Kind(_)
        | Value::Tag(_)
        | Value::Zone(_) => plain(super::env::word(v)? as u64),
        Value::List(_) => {
            let j = u32::try_from(w).ok()?;
            let items = env.made.as_deref()?.lists.get(j as usize)?;
            let class = (items.iter()).fold(items.len() as u64, |h, &x| {
                (h ^ x as u64).wrapping_mul(0x100_0000_01b3)
            });
            Key {
                class,
                card: None,
                list: Some(j),
            }
        }
        Value::None | Value::Text(_) => return None,
    })
}

/// Calls `f` with each item of `domain` in the walker's order, as a word and a value.
fn each(
    domain: &Domain,
    env: &mut Env,
    mut f: impl FnMut(&mut Env, i64, Value) -> Option<()>,
) -> Option<()> {
    let s = env.s;
    match domain {
        // An action of no parameter has no second one (`plan`).
        Domain::Nothing => return None,
        Domain::Opponents(q) => {
            let q = q(env)?;
            if !(0..s.players as i64).contains(&q) {
                return None;
            }
            let n = s.players as i64;
            for k in 1..n {
                let q = ((q + k) % n) as u8;
                if s.living(q) {
                    f(env, q as i64, Value::Player(q))?;
                }
            }
        }
        Domain::Everyone => {
            for q in 0..s.players {
                if s.living(q) {
                    f(env, q as i64, Value::Player(q))?;
                }
            }
        }
        Domain::Spaces => {
            for i in 0..env.l.spaces.len() {
                f(env, i as i64, Value::Space(i as u16))?;
            }
        }
        Domain::Items(items, ty) => {
            items.each(env, |env, w| {
                f(env, w, super::stmts::value(ty, w))?;
                Some(true)
            })?;
        }
        // Each list made and kept for the listing (its items read through `Items::Bound`, its
        // place compared by keys of options listed before).
        Domain::Lists(lists, ty) => {
            for list in lists {
                let mut words = Vec::new();
                list.each(env, |_, w| {
                    words.push(w);
                    Some(words.len() <= crate::engine::eval::MAX_LIST)
                })?;
                if words.len() > crate::engine::eval::MAX_LIST {
                    return None;
                }
                let v = Value::list(words.iter().map(|&w| super::stmts::value(ty, w)).collect());
                let lists = &mut env.made.as_deref_mut()?.lists;
                let j = lists.len();
                lists.push(words.into());
                f(env, j as i64, v)?;
            }
        }
        Domain::Cards(zones) => {
            for (zf, limit) in zones {
                let z = usize::try_from(zf(env)?).ok()?;
                let limit = match limit {
                    Some(n) => usize::try_from(n(env)?.max(0)).ok()?,
                    None => usize::MAX,
                };
                let cards = &s.zones.get(z)?.cards;
                for &card in cards[cards.len().saturating_sub(limit)..].iter().rev() {
                    f(env, card as i64, Value::Card(card))?;
                }
            }
        }
    }
    Some(())
}

/// Whether the conjuncts of `plan` that read the first parameter alone hold for item `w` (`v`).
fn first_holds(plan: &ActionPlan, env: &mut Env, w: i64, v: &Value) -> Option<bool> {
    let kind = match v {
        Value::Card(c) => Some(env.s.cards.get(*c as usize)?.kind as usize),
        _ => None,
    };
    if let (Some(t), Some(k)) = (plan.by_kind.as_deref(), kind) {
        if !*t.get(k)? {
            return Some(false);
        }
    }
    env.slots[0] = w;
    for part in &plan.rest {
        let holds = match part {
            Part::Versus {
                table,
                op,
                other,
                left,
            } => {
                let mine = *table.get(kind?)?;
                let other = other(env)?;
                let (x, y) = if *left { (mine, other) } else { (other, mine) };
                compare(*op, x, y)?
            }
            Part::General(f) => f(env)? != 0,
        };
        if !holds {
            return Some(false);
        }
    }
    Some(true)
}

/// Adds the options of action `a` of two parameters, or of one over a list that is not zones'
/// cards nor seats (items.rs), to `out`; `None` when the walker must.
pub(super) fn list(
    plan: &ActionPlan,
    env: &mut Env,
    p: &Program,
    a: ActionId,
    out: &mut Vec<MenuOption>,
) -> Option<()> {
    // A domain of lists: the lists made while this action is listed, kept until it is done (the
    // keys of its options listed so far compare them).
    let lists = |d: &Domain| matches!(d, Domain::Lists(..));
    if env.made.is_none()
        && (lists(&plan.domain) || plan.second.as_ref().is_some_and(|d| lists(&d.0)))
    {
        let mut made = super::env::Made::default();
        let mut env = Env::new(env.p, env.s, env.l, env.you, &mut *env.slots);
        env.made = Some(&mut made);
        return list(plan, &mut env, p, a, out);
    }
    // The keys of the options listed so far, in order.
    let Some((domain, pairs)) = plan.second.as_ref() else {
        let mut listed: Vec<Key> = Vec::new();
        return each(&plan.domain, env, |env, w, v| {
            let kv = key(env, p, w, &v)?;
            if listed.iter().any(|&i| i.same(kv, env)) || !first_holds(plan, env, w, &v)? {
                return Some(());
            }
            if listed.len() == LISTED {
                return None;
            }
            listed.push(kv);
            out.push((a, Args::One(v)));
            Some(())
        });
    };
    let mut listed: Vec<(Key, Key)> = Vec::new();
    each(&plan.domain, env, |env, w, v| {
        if !first_holds(plan, env, w, &v)? {
            return Some(());
        }
        let kv = key(env, p, w, &v)?;
        each(domain, env, |env, x, y| {
            // The second argument's key only where an option listed has a first argument the
            // same as this one (seldom: the first arguments differ).
            let mut ky = None;
            for &(i, j) in &listed {
                if i.same(kv, env) {
                    let k = match ky {
                        Some(k) => k,
                        None => *ky.insert(key(env, p, x, &y)?),
                    };
                    if j.same(k, env) {
                        return Some(());
                    }
                }
            }
            env.slots[1] = x;
            for f in pairs {
                if f(env)? == 0 {
                    return Some(());
                }
            }
            if listed.len() == LISTED {
                return None;
            }
            let ky = match ky {
                Some(k) => k,
                None => key(env, p, x, &y)?,
            };
            listed.push((kv, ky));
            out.push((a, Args::Many(vec![v.clone(), y])));
            Some(())
        })
    })
}
