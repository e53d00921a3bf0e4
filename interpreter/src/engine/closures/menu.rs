//! Engine stage (closures): a menu's options listed by compiled closures, identical cards merged.

use super::env::Env;
use super::expr::{compile, zone, Cx, Int, C};
use super::kinds;
use crate::engine::decide::{Args, MenuOption};
use crate::engine::state::{Layout, State};
use crate::program::{ActionDef, ActionId, BinOp, Builtin, Expr, ExprKind, Program, Ty};
use crate::value::Value;

/// An action of no parameter, or of one over zones' cards or a list of seats, listed by the
/// closures.
pub(crate) struct ActionPlan {
    /// The parameter's domain.
    pub(super) domain: Domain,
    /// The conjuncts of the action's condition that read no parameter: run once per menu.
    before: Vec<Int>,
    /// The conjuncts that read only the parameter's kind, as one table by kind (`None`: none).
    pub(super) by_kind: Option<Box<[bool]>>,
    /// The other conjuncts, the parameter in slot 0.
    pub(super) rest: Vec<Part>,
    /// The slot of the parameter.
    slot: usize,
    /// Identical cards of the domain list one option (`ActionDef::interchangeable`).
    merge: bool,
    /// A second parameter (pairs.rs): its domain, which may read the first, and the conjuncts that
    /// read it (`rest` then holds those that read the first parameter alone).
    pub(super) second: Option<(Domain, Vec<Int>)>,
}

/// A conjunct of an action's condition that reads its parameter and more.
pub(crate) enum Part {
    /// Compared with a number of the parameter's kind (`c.cost <= you.coins`): the other side
    /// reads no parameter, so it runs once per menu; the card's side is a table by kind.
    Versus {
        table: Box<[i64]>,
        op: crate::program::BinOp,
        /// The side that reads no parameter.
        other: Int,
        /// The table is the left operand.
        left: bool,
    },
    General(Int),
}

/// An option the closures list of no parameter, or of a seat or a space.
#[derive(Clone, Copy)]
enum Offered {
    Nothing,
    Player(u8),
    Space(u16),
}

impl Offered {
    /// Adds the option of action `a` to `out`, made where it goes (as the walker's `offer`: a value
    /// built and then copied is read back in wider pieces than it was written, a stall).
    #[inline(always)]
    fn push(self, out: &mut Vec<MenuOption>, a: ActionId) {
        let n = out.len();
        match self {
            Offered::Nothing => out.push((a, Args::Many(Vec::new()))),
            Offered::Player(p) => out.resize_with(n + 1, || (a, Args::One(Value::Player(p)))),
            Offered::Space(sp) => out.resize_with(n + 1, || (a, Args::One(Value::Space(sp)))),
        }
    }
}

/// What an action's parameter ranges over.
pub(super) enum Domain {
    /// No parameter: the action alone is one option.
    Nothing,
    /// The cards of zone instances, one after the other, each top first and up to its number
    /// (`take(zone, n)`; `None`: all).
    Cards(Vec<(Int, Option<Int>)>),
    /// `opponents(p)`: the living seats after `p`, in seat order from `p`.
    Opponents(Int),
    /// `everyone`: the living seats in seat order.
    Everyone,
    /// The spaces of the board, in order.
    Spaces,
    /// Any other list the closures walk (items.rs), of items of the type given.
    Items(super::items::Items, Ty),
    /// A list written out of lists the closures walk, whose items are words of the type given:
    /// each list is made, kept among `Made::lists` and given to the parameter (`Given::Bound`).
    Lists(Vec<super::items::Items>, Ty),
}

/// The domain of an action's first parameter, and the type of its items (`None`: no parameter).
fn domain(cx: &mut Cx, params: &[Expr]) -> Result<(Domain, Option<Ty>), &'static str> {
    let param = match params {
        [] => return Ok((Domain::Nothing, None)),
        [param] | [param, _] => param,
        _ => return Err("an action of more than two parameters"),
    };
    domain_of(cx, param)
}

/// The domain `param` of a parameter, and the type of its items.
fn domain_of(cx: &mut Cx, param: &Expr) -> Result<(Domain, Option<Ty>), &'static str> {
    Ok(match &param.kind {
        ExprKind::Everyone => (Domain::Everyone, Some(Ty::Player)),
        ExprKind::Spaces => (Domain::Spaces, Some(Ty::Space)),
        ExprKind::Builtin(Builtin::Opponents, q) => match q.as_slice() {
            [q] => (Domain::Opponents(compile(cx, q)?), Some(Ty::Player)),
            _ => return Err("`opponents` of other than one player"),
        },
        ExprKind::List(xs) if !xs.is_empty() && xs.iter().all(|x| list_of_words(cx, x)) => {
            let mut lists = Vec::new();
            let mut ty = None;
            for x in xs {
                let (items, t) = super::items::items(cx, x)?;
                if ty.get_or_insert_with(|| t.clone()) != &t {
                    return Err("a list of lists of other items");
                }
                lists.push(items);
            }
            let ty = ty.ok_or("a list of no lists")?;
            let list = Ty::List(Box::new(ty.clone()));
            (Domain::Lists(lists, ty), Some(list))
        }
        _ => {
            let mut zones = Vec::new();
            match cards(cx, param, &mut zones, 0) {
                Ok(()) => (Domain::Cards(zones), Some(Ty::Card)),
                Err(why) => {
                    let (items, ty) = super::items::items(cx, param).map_err(|_| why)?;
                    (Domain::Items(items, ty.clone()), Some(ty))
                }
            }
        }
    })
}

/// Whether `e` is a list of words (not a zone: its cards would be walked as a list).
fn list_of_words(cx: &Cx, e: &Expr) -> bool {
    super::stmts::type_of(cx, e) != Some(Ty::Zone) && super::each::item_type(cx, e).is_some()
}

/// Slot `s` holds the parameter of domain items of type `ty`: a word, or the place of a list among
/// `Made::lists`.
fn bind(cx: &mut Cx, s: u16, ty: Ty) {
    match ty {
        Ty::List(item) => cx.give(s, super::items::Given::Bound(*item)),
        ty => cx.set_type(s, ty),
    }
}

/// The zones of a domain of cards, in order: a zone, `a + b`, `take(zone, n)`, a function of no
/// parameter that gives one of these.
fn cards(cx: &mut Cx, e: &Expr, out: &mut Vec<(Int, Option<Int>)>, depth: u32) -> C<()> {
    match &e.kind {
        ExprKind::Zone(z, holder) => {
            out.push((zone(cx, z.index(), holder.as_deref(), e.span)?, None))
        }
        ExprKind::Binary(BinOp::Add | BinOp::Concat, a, b) => {
            cards(cx, a, out, depth)?;
            cards(cx, b, out, depth)?;
        }
        ExprKind::Builtin(Builtin::Take, args) => {
            let [list, n] = args.as_slice() else {
                return Err("`take` of other than a list and a number");
            };
            let first = out.len();
            cards(cx, list, out, depth)?;
            if out.len() != first + 1 || out[first].1.is_some() {
                return Err("`take` of other than one zone");
            }
            out[first].1 = Some(compile(cx, n)?);
        }
        ExprKind::CallFn(f, args) if args.is_empty() && depth < 8 => {
            let def = cx.p.fns.get(f.index()).ok_or("an unknown function")?;
            cards(cx, &def.body, out, depth + 1)?;
        }
        _ if super::stmts::type_of(cx, e) == Some(Ty::Zone) => out.push((compile(cx, e)?, None)),
        _ => return Err("a parameter whose domain is not zones' cards or a list of seats"),
    }
    Ok(())
}

/// The plan of an action: no parameter or one over zones or seats, a condition that compiles.
pub(super) fn plan(
    p: &Program,
    a: &ActionDef,
    fns: &std::rc::Rc<super::functions::Callables>,
) -> Result<ActionPlan, &'static str> {
    let mut cx = Cx::new(p, a.body.slots.max(1) as usize);
    cx.fns = fns.clone();
    let (domain, ty) = domain(&mut cx, &a.params)?;
    let cards = ty == Some(Ty::Card);
    if let Some(ty) = &ty {
        bind(&mut cx, 0, ty.clone());
    }
    // The conjuncts, as the checker split them (the whole condition when it did not).
    let parts: Vec<(&crate::program::Expr, u16)> = match (&a.condition, a.parts.is_empty()) {
        (Some(c), true) => vec![(c, u16::MAX)],
        (_, false) => a
            .parts
            .iter()
            .map(|part| (&part.expr, part.level))
            .collect(),
        (None, true) => Vec::new(),
    };
    // A second parameter: its domain may read the first; the conjuncts that read it run per pair.
    let mut second = match a.params.get(1) {
        Some(param) => {
            let (d, t) = domain_of(&mut cx, param)?;
            bind(&mut cx, 1, t.ok_or("a second parameter of no items")?);
            Some((d, Vec::new()))
        }
        None => None,
    };
    let (mut before, mut by_kind, mut rest) = (Vec::new(), None::<Vec<bool>>, Vec::new());
    for (e, level) in parts {
        if let (Some((_, pairs)), true) = (&mut second, level > 1) {
            pairs.push(compile(&mut cx, e)?);
        } else if let Some(t) = kinds::table(p, e, 0).filter(|_| cards) {
            let t = t.iter().map(|&v| v != 0);
            by_kind = Some(match by_kind {
                Some(b) => b.into_iter().zip(t).map(|(x, y)| x && y).collect(),
                None => t.collect(),
            });
        } else if level == 0 || ty.is_none() {
            before.push(compile(&mut cx, e)?);
        } else {
            rest.push(part(&mut cx, e, cards)?);
        }
    }
    if rest.len() > PARTS {
        return Err("an action's condition of too many conjuncts");
    }
    Ok(ActionPlan {
        domain,
        before,
        by_kind: by_kind.map(Vec::into_boxed_slice),
        rest,
        slot: 0,
        merge: a.interchangeable.first().copied().unwrap_or(false),
        second,
    })
}

/// How many sets of identical cards one parameter keeps apart without allocating (a zone of more
/// kinds is listed again, its sets in a list: `offer_cards`'s `SPILL`).
const SETS: usize = 16;

/// Lists the menu, each option added to `out`; `None` when the walker must (what was added is
/// then the caller's to drop).
pub(super) fn list(
    plans: &[Result<ActionPlan, &'static str>],
    p: &Program,
    s: &State,
    l: &Layout,
    decider: u8,
    actions: &[ActionId],
    out: &mut Vec<MenuOption>,
) -> Option<()> {
    // A menu with an action that has no plan is the walker's: known before anything is listed.
    if !(actions.iter()).all(|a| plans.get(a.index()).is_some_and(|plan| plan.is_ok())) {
        return None;
    }
    let mut slots = [0; super::env::SLOTS];
    let mut env = Env::new(p, s, l, decider, &mut slots);
    for &a in actions {
        let plan = plans.get(a.index())?.as_ref().ok()?;
        let mut none = false;
        for part in &plan.before {
            none |= part(&mut env)? == 0;
        }
        if none {
            continue;
        }
        if plan.second.is_some() || matches!(plan.domain, Domain::Items(..) | Domain::Lists(..)) {
            super::pairs::list(plan, &mut env, p, a, out)?;
            continue;
        }
        let zones = match &plan.domain {
            Domain::Nothing => {
                Offered::Nothing.push(out, a);
                continue;
            }
            Domain::Opponents(q) => {
                let q = q(&mut env)?;
                if !(0..s.players as i64).contains(&q) {
                    return None;
                }
                let n = s.players as i64;
                for k in 1..n {
                    let q = ((q + k) % n) as u8;
                    if s.living(q) {
                        item(plan, &mut env, a, q as i64, Offered::Player(q), out)?;
                    }
                }
                continue;
            }
            Domain::Everyone => {
                for q in 0..s.players {
                    if s.living(q) {
                        item(plan, &mut env, a, q as i64, Offered::Player(q), out)?;
                    }
                }
                continue;
            }
            Domain::Spaces => {
                for i in 0..l.spaces.len() {
                    let sp = i as u16;
                    item(plan, &mut env, a, i as i64, Offered::Space(sp), out)?;
                }
                continue;
            }
            Domain::Cards(zones) => zones,
            // Listed by pairs.rs, above.
            Domain::Items(..) | Domain::Lists(..) => return None,
        };
        // The sides of comparisons that read no parameter, once for the menu.
        let mut others = [0i64; PARTS];
        for (o, part) in others.iter_mut().zip(&plan.rest) {
            if let Part::Versus { other, .. } = part {
                *o = other(&mut env)?;
            }
        }
        // Cards without variables, nothing attached to any: identical by kind and face alone.
        let plain = l.n_cvars == 0 && l.card_zones.is_empty();
        for (zf, limit) in zones {
            let z = usize::try_from(zf(&mut env)?).ok()?;
            let limit = match limit {
                Some(n) => usize::try_from(n(&mut env)?.max(0)).ok()?,
                None => usize::MAX,
            };
            let cards = &s.zones.get(z)?.cards;
            let cards = &cards[cards.len().saturating_sub(limit)..];
            let def = p.zones.get(s.zones.def(z).index())?;
            let zone = Zone {
                z,
                cards,
                merge: !def.ordered,
            };
            let start = out.len();
            let listed = match plain {
                true => offer_cards::<true, false>(plan, &mut env, p, a, &zone, &others, out)?,
                false => offer_cards::<false, false>(plan, &mut env, p, a, &zone, &others, out)?,
            };
            // More sets than the array holds: the zone listed again, its sets in a list.
            if !listed {
                out.truncate(start);
                match plain {
                    true => offer_cards::<true, true>(plan, &mut env, p, a, &zone, &others, out)?,
                    false => offer_cards::<false, true>(plan, &mut env, p, a, &zone, &others, out)?,
                };
            }
        }
    }
    Some(())
}

/// A zone instance whose cards a menu lists: its id, its cards (up to the domain's number, top
/// last) and whether identical cards of it are one option (an unordered zone).
struct Zone<'z> {
    z: usize,
    cards: &'z [u32],
    merge: bool,
}

/// Offers action `a` with each card of `zone`, top first, whose condition holds. Identical cards of
/// an unordered zone that the decider sees are one option (the walker's `equivalent`): the first
/// whose condition holds; cards of two zones are never identical. When the action cannot tell them
/// apart (`interchangeable`), the first of each set alone is tried. `PLAIN`: the cards have no
/// variables and nothing is attached to any, so kind and face alone make them identical. `SPILL`:
/// the sets past [`SETS`] are kept in a list; else `Some(false)` when they would be (what was
/// added is then the caller's to drop).
#[inline(always)]
fn offer_cards<const PLAIN: bool, const SPILL: bool>(
    plan: &ActionPlan,
    env: &mut Env,
    p: &Program,
    a: ActionId,
    zone: &Zone,
    others: &[i64; PARTS],
    out: &mut Vec<MenuOption>,
) -> Option<bool> {
    let (s, l) = (env.s, env.l);
    if !zone.merge {
        for &card in zone.cards.iter().rev() {
            let kind = s.cards.get(card as usize)?.kind;
            if holds(plan, env, card, kind, others)? {
                out.push((a, Args::One(Value::Card(card))));
            }
        }
        return Some(true);
    }
    // The decider sees the zone's face-down cards, or only those shown to it.
    let bit = 1u64 << env.you.min(63);
    let sees_down = s.seen_mask(p, zone.z as u32, false) & bit != 0;
    let mut sets = [(u32::MAX, 0u32); SETS];
    let mut n = 0;
    let mut more: Vec<(u32, u32)> = Vec::new();
    for &card in zone.cards.iter().rev() {
        let cs = s.cards.get(card as usize)?;
        let key = (cs.kind as u32) << 1 | cs.face_up as u32;
        // Cards with cards attached to them are never merged (the walker's `mergeable`).
        let seen = (cs.face_up || sees_down || s.known(card) & bit != 0)
            && (PLAIN || !holds_cards(s, l, card));
        let alike = |&(k, first): &(u32, u32)| {
            k == key && (PLAIN || (s.cvars).same_row(l, l.n_cvars, first as usize, card as usize))
        };
        if seen && (sets[..n].iter().any(alike) || (SPILL && more.iter().any(alike))) {
            continue;
        }
        if seen && plan.merge {
            match sets.get_mut(n) {
                Some(set) => *set = (key, card),
                None if SPILL => more.push((key, card)),
                None => return Some(false),
            }
            n = (n + 1).min(SETS);
        }
        if holds(plan, env, card, cs.kind, others)? {
            if seen && !plan.merge {
                match sets.get_mut(n) {
                    Some(set) => *set = (key, card),
                    None if SPILL => more.push((key, card)),
                    None => return Some(false),
                }
                n = (n + 1).min(SETS);
            }
            out.push((a, Args::One(Value::Card(card))));
        }
    }
    Some(true)
}

/// Whether the condition of `plan` holds for `card` (of kind `kind`), the sides of its comparisons
/// that read no parameter in `others`.
#[inline(always)]
fn holds(
    plan: &ActionPlan,
    env: &mut Env,
    card: u32,
    kind: u16,
    others: &[i64; PARTS],
) -> Option<bool> {
    if let Some(t) = plan.by_kind.as_deref() {
        if !*t.get(kind as usize)? {
            return Some(false);
        }
    }
    if plan.rest.is_empty() {
        return Some(true);
    }
    env.slots[plan.slot] = card as i64;
    for (part, &other) in plan.rest.iter().zip(others) {
        let holds = match part {
            Part::Versus {
                table, op, left, ..
            } => {
                let mine = *table.get(kind as usize)?;
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

/// Offers action `a` with `o` (a seat or a space, the word `w`: no two are alike) when the
/// condition holds.
#[inline]
fn item(
    plan: &ActionPlan,
    env: &mut Env,
    a: ActionId,
    w: i64,
    o: Offered,
    out: &mut Vec<MenuOption>,
) -> Option<()> {
    env.slots[plan.slot] = w;
    for part in &plan.rest {
        let holds = match part {
            Part::General(f) => f(env)? != 0,
            // Tables of kinds are made for cards only (`plan`).
            Part::Versus { .. } => return None,
        };
        if !holds {
            return Some(());
        }
    }
    o.push(out, a);
    Some(())
}

/// Whether cards are attached to `card` (in a zone of its own, `zone kept per card`).
#[inline]
pub(super) fn holds_cards(s: &State, l: &Layout, card: u32) -> bool {
    l.card_zones.iter().any(|&z| {
        let zi = l
            .zone_base
            .get(z)
            .map_or(usize::MAX, |&b| b as usize + card as usize);
        s.zones.get(zi).is_some_and(|z| !z.cards.is_empty())
    })
}

/// Conjuncts an action's plan keeps apart from its tables (more do not compile).
const PARTS: usize = 8;

/// A conjunct that reads the parameter: a comparison with a number of its kind (a card), or any
/// other.
fn part(cx: &mut Cx, e: &Expr, card: bool) -> Result<Part, &'static str> {
    if let crate::program::ExprKind::Binary(op, a, b) = &e.kind {
        if card && compare(*op, 0, 0).is_some() {
            let sides = [(a, b, true), (b, a, false)];
            for (mine, other, left) in sides {
                if let (Some(table), false) = (kinds::table(cx.p, mine, 0), reads(other, 0)) {
                    let other = compile(cx, other)?;
                    let op = *op;
                    return Ok(Part::Versus {
                        table,
                        op,
                        other,
                        left,
                    });
                }
            }
        }
    }
    Ok(Part::General(compile(cx, e)?))
}

/// The comparison `op` of two words (`None` for an operator that does not compare).
pub(super) fn compare(op: BinOp, x: i64, y: i64) -> Option<bool> {
    match op {
        BinOp::Eq => Some(x == y),
        BinOp::Ne => Some(x != y),
        BinOp::Lt => Some(x < y),
        BinOp::Le => Some(x <= y),
        BinOp::Gt => Some(x > y),
        BinOp::Ge => Some(x >= y),
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::Div
        | BinOp::Rem
        | BinOp::Concat
        | BinOp::In
        | BinOp::And
        | BinOp::Or => None,
    }
}

/// Whether `e` reads local `slot` of its frame.
fn reads(e: &Expr, slot: u16) -> bool {
    if matches!(e.kind, crate::program::ExprKind::Local(s) if s == slot) {
        return true;
    }
    let mut found = false;
    e.children(&mut |x| found = found || reads(x, slot));
    found
}
