//! Lowering stage: which action parameters cannot tell identical cards apart, so that listing a menu
//! may try one card of each set of identical ones (docs/engine.md at fe8b0bc, stage 1).
//!
//! A menu lists two options as one when their arguments are identical cards for the decider (same
//! kind, same unordered zone, same face, same card variables, nothing attached: `Mach::equivalent`).
//! When an action's condition and the domains of its later parameters are pure and read parameter i
//! only through what identical cards share, a second card identical to one already tried at
//! parameter i gives exactly the options of the first again, each dropped as a duplicate: the engine
//! skips it without evaluating anything. Reads that could tell two such cards apart (comparing them,
//! `in`, passing one to a function or a property that does, a position on a board) keep every card.

use crate::program::{ActionDef, Builtin, Expr, ExprKind, Field, Program, Slot};

/// What an expression must not tell apart: the card in a local, or the card a property is read of.
#[derive(Clone, Copy, PartialEq)]
enum Subject {
    Local(Slot),
    This,
}

/// Per action, per parameter: whether identical cards there list the same options
/// (`ActionDef::interchangeable`). `pure`: whether an expression is pure (purity.rs): evaluating it
/// once or many times, in any order, gives the same values and changes nothing.
pub(crate) fn interchangeable(p: &Program, pure: &dyn Fn(&Expr) -> bool) -> Vec<Vec<bool>> {
    let mut blind = Blind {
        p,
        fns: p.fns.iter().map(|f| vec![None; f.params.len()]).collect(),
        fns_this: vec![None; p.fns.len()],
        props: vec![None; p.props.len()],
        depth: 0,
    };
    p.actions
        .iter()
        .map(|a| per_action(&mut blind, a, pure))
        .collect()
}

fn per_action(blind: &mut Blind, a: &ActionDef, pure: &dyn Fn(&Expr) -> bool) -> Vec<bool> {
    let pure_condition = a.condition.as_ref().is_none_or(pure);
    (0..a.params.len())
        .map(|i| {
            let s = Subject::Local(i as Slot);
            pure_condition
                && a.condition.as_ref().is_none_or(|c| blind.expr(c, s))
                && a.params[i + 1..]
                    .iter()
                    .all(|d| pure(d) && blind.expr(d, s))
        })
        .collect()
}

/// The analysis, with what it found of functions and properties so far.
struct Blind<'p> {
    p: &'p Program,
    /// Per function, per parameter: `Some(answer)`, or `None` while not yet known. A parameter under
    /// study is marked `Some(false)` first, so a recursive function is judged cautiously.
    fns: Vec<Vec<Option<bool>>>,
    /// Per function: whether its body reads `this` only through what identical cards share.
    fns_this: Vec<Option<bool>>,
    /// Per property: whether its value is the same for identical cards.
    props: Vec<Option<bool>>,
    /// Functions and properties being studied, one inside the other: past [`MAX_NESTING`], the
    /// answer is no (a long chain of calls must not exhaust the stack).
    depth: u32,
}

/// What is studied once and remembered: a function's parameter, a function's `this`, a property.
#[derive(Clone, Copy)]
enum Study {
    FnParam(usize, usize),
    FnThis(usize),
    Prop(usize),
}

/// How deep the study of functions and properties inside one another may go.
const MAX_NESTING: u32 = 64;

impl Blind<'_> {
    fn is(e: &Expr, s: Subject) -> bool {
        match (&e.kind, s) {
            (ExprKind::Local(x), Subject::Local(y)) => *x == y,
            (ExprKind::This, Subject::This) => true,
            _ => false,
        }
    }

    /// Whether `e` gives the same value for any two identical cards as its subject.
    fn expr(&mut self, e: &Expr, s: Subject) -> bool {
        if Self::is(e, s) || self.depth > MAX_NESTING {
            // The card itself, used where it could be compared or passed on.
            return false;
        }
        match &e.kind {
            // What identical cards share: kind, tags, zone, owner, face, card variables.
            ExprKind::IsKind(x, ..)
            | ExprKind::IsTag(x, ..)
            | ExprKind::TagOf(_, x)
            | ExprKind::CardVar(_, x)
            | ExprKind::Field(Field::Kind | Field::Owner | Field::Zone | Field::FaceUp, x)
                if Self::is(x, s) =>
            {
                true
            }
            ExprKind::Prop(id, x) if Self::is(x, s) => self.prop(id.index()),
            // The zones attached to the card are empty (a card with anything attached is never
            // merged): counting or walking them gives the same for both.
            ExprKind::Builtin(Builtin::Size, args)
                if args.len() == 1 && Self::attached(&args[0], s) =>
            {
                true
            }
            ExprKind::Aggregate {
                value,
                list,
                filter,
                ..
            } if Self::attached(list, s) => [value, filter]
                .into_iter()
                .flatten()
                .all(|x| self.expr(x, s)),
            // A function reads `this` as its caller's: where `this` is the subject, so is it there.
            ExprKind::CallFn(f, args) => {
                (s != Subject::This || self.fn_this(f.index()))
                    && args.iter().enumerate().all(|(k, x)| {
                        if Self::is(x, s) {
                            self.fn_param(f.index(), k)
                        } else {
                            self.expr(x, s)
                        }
                    })
            }
            _ => {
                let mut all = true;
                e.children(&mut |c| all = all && self.expr(c, s));
                all
            }
        }
    }

    /// A zone attached to the subject card.
    fn attached(e: &Expr, s: Subject) -> bool {
        matches!(&e.kind, ExprKind::Zone(_, Some(x)) if Self::is(x, s))
    }

    fn fn_param(&mut self, f: usize, k: usize) -> bool {
        self.study(Study::FnParam(f, k))
    }

    fn fn_this(&mut self, f: usize) -> bool {
        self.study(Study::FnThis(f))
    }

    fn prop(&mut self, id: usize) -> bool {
        self.study(Study::Prop(id))
    }

    /// Where the answer for `key` is kept (`None`: no such function, parameter or property).
    fn known(&mut self, key: Study) -> Option<&mut Option<bool>> {
        match key {
            Study::FnParam(f, k) => self.fns.get_mut(f).and_then(|v| v.get_mut(k)),
            Study::FnThis(f) => self.fns_this.get_mut(f),
            Study::Prop(id) => self.props.get_mut(id),
        }
    }

    /// The answer for `key`, studied once: while it is studied it reads as no, so a recursive
    /// function or property is judged cautiously.
    fn study(&mut self, key: Study) -> bool {
        match self.known(key) {
            None => return false,
            Some(Some(b)) => return *b,
            Some(slot) => *slot = Some(false),
        }
        self.depth += 1;
        let p = self.p;
        let b = match key {
            Study::FnParam(f, k) => p
                .fns
                .get(f)
                .is_some_and(|d| self.expr(&d.body, Subject::Local(k as Slot))),
            Study::FnThis(f) => p
                .fns
                .get(f)
                .is_some_and(|d| self.expr(&d.body, Subject::This)),
            Study::Prop(id) => p.props.get(id).is_some_and(|d| {
                self.expr(&d.default, Subject::This)
                    && p.kinds.iter().all(|k| {
                        k.props
                            .get(id)
                            .and_then(|e| e.as_ref())
                            .is_none_or(|e| self.expr(e, Subject::This))
                    })
            }),
        };
        self.depth -= 1;
        if let Some(slot) = self.known(key) {
            *slot = Some(b);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use crate::check::check_source;

    /// Which parameters are found blind to the difference between identical cards, by how the
    /// condition and the later domains read them.
    #[test]
    fn parameters_read_only_through_what_identical_cards_share() {
        let src = r#"
game "Same" { players 2 }
property points: int = 0
property picked: bool = this == chosen
property dear: bool = this.points >= 2
zone deck: pile
zone hand per player: set
var chosen: card = none
var coins per player: int = 3
card "One" { copies 4 points 1 }
card "Two" { copies 4 points 2 }
fn rich(c: card): bool = c.points >= 2 and c is not "One"
fn same(c: card, d: card): bool = c == d
setup { move box to deck }
action kind(c in you.hand) if c is "One" { chosen = c }
action cost(c in you.hand) if rich(c) and c.points <= you.coins and c.dear { chosen = c }
action ident(c in you.hand) if c != chosen { chosen = c }
action passes(c in you.hand) if same(c, chosen) { chosen = c }
action prop(c in you.hand) if not c.picked { chosen = c }
action luck(c in you.hand) if random([1, 2]) == 1 { chosen = c }
action pair(c in you.hand, d in you.hand) if c.points < d.points { chosen = c }
action inlist(c in you.hand) if c in [chosen] { chosen = c }
action zones(c in you.hand, z in [c.zone]) if count(c.zone) > 0 { chosen = c }
action both(c in you.hand, d in [c]) { chosen = d }
flow { turn seat(1) { actions by seat(1) once [kind, cost, ident, passes, prop, luck, pair, inlist, zones, both] } }
"#;
        let p = check_source(src).program.expect("the script checks");
        let flags: Vec<String> = p
            .actions
            .iter()
            .map(|a| format!("{} {:?}", a.name, a.interchangeable))
            .collect();
        assert_eq!(
            flags,
            [
                "kind [true]",
                "cost [true]",
                "ident [false]",
                "passes [false]",
                "prop [false]",
                "luck [false]",
                "pair [true, true]",
                "inlist [false]",
                "zones [true, true]",
                "both [false, true]",
            ]
        );
    }

    /// A menu over a hand of identical cards tries one of each; a condition that compares cards
    /// still sees every card. (Debug builds count the cards skipped, and list each skipped card's
    /// options anyway to check that they were all duplicates.)
    #[cfg(debug_assertions)]
    #[test]
    fn identical_cards_are_tried_once_unless_the_action_tells_them_apart() {
        use crate::engine::{Game, GameConfig};
        use std::sync::Arc;
        let src = r#"
game "Hand" { players 2 }
property points: int = 0
zone deck: pile
zone hand per player: set
var marked: card = none
card "One" { copies 40 points 1 }
card "Two" { copies 2 points 2 }
setup { move box to seat(1).hand }
action mark(c in you.hand) label "Mark {c}" { marked = c }
action other(c in you.hand) label "Other {c}" if c != marked { move c to deck }
action play(c in you.hand) label "Play {c}" if sum(d.points for d in you.hand) > c.points { move c to deck }
action play_any(c in you.hand) label "Play {c}" if sum(d.points for d in you.hand) > c.points and c != none {
  move c to deck
}
flow { turn seat(1) {
  actions by seat(1) once [mark]
  actions by seat(1) once [other]
  actions by seat(1) once [play]
  actions by seat(1) once [play_any]
} }
"#;
        let p = Arc::new(check_source(src).program.expect("the script checks"));
        // On the walker, whose menus count the cards they skip (the closures' plans do not).
        let mut config = GameConfig::new(2, 1);
        config.engine = crate::engine::Engine::Walker;
        let mut g = Game::new(p, config);
        let options = |g: &Game| g.decision().map(|d| d.options.clone()).unwrap_or_default();
        let skipped = |g: &Game| g.counted().cards_skipped;
        assert_eq!(options(&g), ["Mark One", "Mark Two"]);
        // 39 Ones and a Two were skipped, and nothing else.
        assert_eq!(skipped(&g), 40);
        // `marked` is now the first One: the other Ones still differ from it.
        g.apply(0).expect("applies");
        assert_eq!(options(&g), ["Other One", "Other Two"]);
        assert_eq!(skipped(&g), 40);
        g.apply(1).expect("applies");
        assert_eq!(options(&g), ["Play One", "Play Two"]);
        assert_eq!(skipped(&g), 79);
        // `c != none` tells cards apart: each card is tried.
        g.apply(1).expect("applies");
        assert_eq!(options(&g), ["Play One"]);
        assert_eq!(skipped(&g), 79);
    }
}
