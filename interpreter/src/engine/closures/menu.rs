//! Engine stage (closures): a menu's options listed by compiled closures, identical cards merged.

use super::expr::{compile, zone, Cx};
use super::{item_type, ActionPlan, Closures, Env};
use crate::engine::decide::{Args, MenuOption};
use crate::engine::state::{Layout, State};
use crate::program::{ActionDef, ActionId, ExprKind, Program};
use crate::value::Value;

/// The plan of an action: one parameter whose domain is a zone, a condition that compiles.
pub(super) fn plan(p: &Program, a: &ActionDef) -> Result<ActionPlan, &'static str> {
    let [param] = a.params.as_slice() else {
        return Err("an action of more or fewer than one parameter");
    };
    let ExprKind::Zone(z, holder) = &param.kind else {
        return Err("a parameter whose domain is not a zone");
    };
    let ty = item_type(p, param).ok_or("a parameter whose items are not known")?;
    let mut cx = Cx::new(p, a.body.slots.max(1) as usize);
    let domain = zone(&mut cx, z.index(), holder.as_deref())?;
    cx.set_type(0, ty);
    let condition = a
        .condition
        .as_ref()
        .map(|c| compile(&mut cx, c))
        .transpose()?;
    Ok(ActionPlan {
        domain,
        condition,
        slot: 0,
        merge: a.interchangeable.first().copied().unwrap_or(false),
    })
}

/// How many sets of identical cards one parameter keeps apart (as the walker's `Tried`).
const SETS: usize = 16;

/// Lists the menu into `out`; `None` when the walker must.
pub(super) fn list(
    c: &Closures,
    p: &Program,
    s: &State,
    l: &Layout,
    decider: u8,
    actions: &[ActionId],
    out: &mut Vec<MenuOption>,
) -> Option<()> {
    out.clear();
    // Cards with variables or with cards attached to them may differ from others of their kind.
    let plain_cards = l.n_cvars == 0 && l.card_zones.is_empty();
    let mut env = Env::new(s, l, decider);
    for &a in actions {
        let plan = c.actions.get(a.index())?.as_ref().ok()?;
        let z = usize::try_from((plan.domain)(&mut env)?).ok()?;
        let cards = &s.zones.get(z)?.cards;
        let def = p.zones.get(s.zones.def(z).index())?;
        // Identical cards of an unordered zone that the decider sees are one option (the walker's
        // `equivalent`): the first whose condition holds. When the action cannot tell them apart
        // (`interchangeable`), the first of each set alone is tried.
        let merge = !def.ordered;
        if merge && !plain_cards {
            return None;
        }
        let mut sets = [(u16::MAX, false); SETS];
        let mut n = 0;
        for &card in cards.iter().rev() {
            let cs = s.cards.get(card as usize)?;
            let key = (cs.kind, cs.face_up);
            let seen = merge && s.card_seen_mask(p, card) & (1u64 << decider) != 0;
            if seen && sets[..n].contains(&key) {
                continue;
            }
            if seen && plan.merge {
                n = add(&mut sets, n, key)?;
            }
            env.slots[plan.slot] = card as i64;
            let holds = match &plan.condition {
                Some(cond) => cond(&mut env)? != 0,
                None => true,
            };
            if holds {
                if seen && !plan.merge {
                    n = add(&mut sets, n, key)?;
                }
                out.push((a, Args::One(Value::Card(card))));
            }
        }
    }
    Some(())
}

/// Adds a set of identical cards; past the sets the walker keeps apart, the walker lists the menu.
fn add(sets: &mut [(u16, bool); SETS], n: usize, key: (u16, bool)) -> Option<usize> {
    *sets.get_mut(n)? = key;
    Some(n + 1)
}
