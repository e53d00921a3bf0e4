//! Grammar stage: tests of the parser on items (header, tables, declarations, cards, actions, triggers, rules tests).

use crate::helpers::*;
use cardgame_grammar::ast::*;
use cardgame_grammar::SyntaxError;

// ───────────────────────────── items ─────────────────────────────

#[test]
fn header_table_and_declarations() {
    let s = parse_ok(
        r#"game "Tiny Market" {
  players 2..4
  option rares: bool = true "Shuffle the rare cards"
  option hand_size: int 3..7 = 5 "Cards in a starting hand"
  option card_set: one of random, first_time, primer = random
}
table by players {
  columns factions, market
  1: 3, 4
  2: 4, -5
}
tags faction: Knights, Demons, Elves
property cost: int = 0
property recipe: kinds
var influence per player: int = 30 min -99 max 30
var chosen per player: list of list of card = []
var marker: player = seat(1)
zone deck per player: pile, hidden, refill from discard
zone kept per card: set
zone tile per space: set, max 1
zone supply
spaces board: grid players + 1 by 6 diagonal
event crafted(c: card, p: player)
event tick
abilities play, defense
fn price(p: player, c: card): int = max(1, c.cost - p.discount)
"#,
    );
    let items = &s.items;
    assert_eq!(items.len(), 17);
    match &items[0] {
        Item::Game(g) => {
            assert_eq!(g.name.plain().as_deref(), Some("Tiny Market"));
            let pr = g.players.as_ref().unwrap();
            assert_eq!((pr.min, pr.max), (2, 4));
            assert_eq!(g.options.len(), 3);
            assert_eq!(g.options[0].kind, OptionKind::Bool);
            assert_eq!(g.options[1].kind, OptionKind::Int { min: 3, max: 7 });
            match &g.options[2].kind {
                OptionKind::OneOf(v) => assert_eq!(v.len(), 3),
                other => panic!("{other:?}"),
            }
            assert!(g.options[2].description.is_none());
        }
        other => panic!("{other:?}"),
    }
    match &items[1] {
        Item::Table(t) => {
            assert_eq!(t.columns.len(), 2);
            assert_eq!(t.rows.len(), 2);
            assert_eq!(t.rows[1].players, 2);
            assert_eq!(show(&t.rows[1].values[1]), "(- 5)");
        }
        other => panic!("{other:?}"),
    }
    match &items[2] {
        Item::Tags(t) => assert_eq!((t.group.name.as_str(), t.tags.len()), ("faction", 3)),
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&items[3], Item::Property(p) if p.ty == PropertyType::Int && p.default.is_some())
    );
    assert!(
        matches!(&items[4], Item::Property(p) if p.ty == PropertyType::Kinds && p.default.is_none())
    );
    match &items[5] {
        Item::Var(v) => {
            assert_eq!(v.scope, Scope::PerPlayer);
            assert!(matches!(v.ty, TypeExpr::Int(_)));
            assert_eq!(show(v.min.as_ref().unwrap()), "(- 99)");
            assert_eq!(show(v.max.as_ref().unwrap()), "30");
        }
        other => panic!("{other:?}"),
    }
    match &items[6] {
        Item::Var(v) => match &v.ty {
            TypeExpr::List(inner, _) => assert!(
                matches!(**inner, TypeExpr::List(ref c, _) if matches!(**c, TypeExpr::Card(_)))
            ),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&items[7], Item::Var(v) if v.scope == Scope::Shared && matches!(v.ty, TypeExpr::Player(_)))
    );
    match &items[8] {
        Item::Zone(z) => {
            assert_eq!(z.scope, Scope::PerPlayer);
            assert_eq!(z.attrs.len(), 3);
            assert!(matches!(&z.attrs[2], ZoneAttr::RefillFrom(i) if i.name == "discard"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&items[9], Item::Zone(z) if z.scope == Scope::PerCard));
    assert!(
        matches!(&items[10], Item::Zone(z) if z.scope == Scope::PerSpace && matches!(z.attrs[1], ZoneAttr::Max(_)))
    );
    assert!(matches!(&items[11], Item::Zone(z) if z.attrs.is_empty() && z.scope == Scope::Shared));
    match &items[12] {
        Item::Spaces(sp) => {
            assert_eq!(show(&sp.width), "(+ players 1)");
            assert_eq!(show(&sp.height), "6");
            assert!(sp.diagonal);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&items[13], Item::Event(e) if e.params.len() == 2));
    assert!(matches!(&items[14], Item::Event(e) if e.params.is_empty()));
    assert!(matches!(&items[15], Item::Abilities(a) if a.names.len() == 2));
    assert!(
        matches!(&items[16], Item::Fn(f) if f.params.len() == 2 && matches!(f.ret, TypeExpr::Int(_)))
    );
}

#[test]
fn cards_actions_and_triggers() {
    let src = r#"card "Pack of Ghouls" {
  is Baron
  copies 2
  cost 3
  is Action, Attack
  attack 2 + (if count(c in you.discard where c is Baron) >= 1 then 2 else 0)
  recipe ["Iron", "Wood"]
  text "A card."
  ability play { you.coins += 1 }
  on crafted(c, p) in owned if p == you and c is Tool {
    you.gold += 2
  }
}
action buy(c in market) label "Buy {c}" if c.cost <= you.coins {
  pay c.cost from you.coins
}
action pass_turn { end turn }
on crafted(c, p) if c is "Crown" { win [p] "crafted the Crown" }
on turn_start(p) { }
setup { }
flow { }
check { }
"#;
    let s = parse_ok(src);
    assert_eq!(s.items.len(), 8);
    match &s.items[0] {
        Item::Card(c) => {
            assert_eq!(c.items.len(), 9);
            assert!(matches!(&c.items[0], CardItem::Is(t, _) if t.len() == 1));
            assert!(matches!(&c.items[1], CardItem::Copies(..)));
            assert!(matches!(&c.items[2], CardItem::Property(n, _, _) if n.name == "cost"));
            // A property value never swallows the `is` line after it.
            assert!(matches!(&c.items[3], CardItem::Is(t, _) if t.len() == 2));
            assert!(
                matches!(&c.items[5], CardItem::Property(n, e, _) if n.name == "recipe" && matches!(e.kind, ExprKind::List(_)))
            );
            assert!(matches!(&c.items[6], CardItem::Text(..)));
            assert!(
                matches!(&c.items[7], CardItem::Ability(n, b, _) if n.name == "play" && b.stmts.len() == 1)
            );
            match &c.items[8] {
                CardItem::Trigger(t) => {
                    assert_eq!(t.event.name, "crafted");
                    assert_eq!(t.bindings.len(), 2);
                    assert_eq!(t.zone.as_ref().unwrap().name, "owned");
                    assert_eq!(
                        show(t.condition.as_ref().unwrap()),
                        "(and (== p you) (is c Tool))"
                    );
                }
                other => panic!("{other:?}"),
            }
            assert_eq!(slice(src, c.span), &src[..src.find("\naction").unwrap()]);
        }
        other => panic!("{other:?}"),
    }
    match &s.items[1] {
        Item::Action(a) => {
            assert_eq!(a.params.len(), 1);
            assert_eq!(show(&a.params[0].domain), "market");
            assert_eq!(show_text(a.label.as_ref().unwrap()), "\"Buy {c}\"");
            assert!(a.condition.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&s.items[2], Item::Action(a) if a.params.is_empty() && a.label.is_none()));
    assert!(matches!(&s.items[3], Item::Trigger(t) if t.zone.is_none() && t.condition.is_some()));
    assert!(matches!(&s.items[4], Item::Trigger(t) if t.bindings.len() == 1));
    assert!(matches!(&s.items[5], Item::Setup(_)));
    assert!(matches!(&s.items[6], Item::Flow(_)));
    assert!(matches!(&s.items[7], Item::Check(_)));
}

#[test]
fn rules_tests() {
    let s = parse_ok(
        r#"test "buying a card pays its cost" {
  players 2
  seed 7
  option rares = false
  names Alex, Bob
  given {
    Alex.coins = 5
  }
  start main_phase(Alex)
  expect decider Alex
  expect options has "Buy City"
  choose "Buy City"
  expect Alex.coins == 2
  expect log "Alex"
  do { Bob.coins = 1 }
  expect options lacks "Buy City"
  expect winners [Alex]
  expect over
}"#,
    );
    match &s.items[0] {
        Item::Test(t) => {
            assert_eq!(t.players.map(|p| p.0), Some(2));
            assert_eq!(t.seed.map(|p| p.0), Some(7));
            assert_eq!(t.options.len(), 1);
            assert_eq!(t.names.len(), 2);
            assert_eq!(t.given.as_ref().unwrap().stmts.len(), 1);
            let (name, args, _) = t.start.as_ref().unwrap();
            assert_eq!((name.name.as_str(), args.len()), ("main_phase", 1));
            let kinds: Vec<&TestStepKind> = t.steps.iter().map(|s| &s.kind).collect();
            assert_eq!(kinds.len(), 9);
            assert!(matches!(kinds[0], TestStepKind::Decider(_)));
            assert!(matches!(kinds[1], TestStepKind::OptionsHas(_)));
            assert!(matches!(kinds[2], TestStepKind::Choose(_)));
            assert!(matches!(kinds[3], TestStepKind::Expect(_)));
            assert!(matches!(kinds[4], TestStepKind::Log(_)));
            assert!(matches!(kinds[5], TestStepKind::Do(_)));
            assert!(matches!(kinds[6], TestStepKind::OptionsLacks(_)));
            assert!(matches!(kinds[7], TestStepKind::Winners(_)));
            assert!(matches!(kinds[8], TestStepKind::Over));
        }
        other => panic!("{other:?}"),
    }
    let e = errors_of("test \"t\" { seed 1 seed 2 }");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].code(), SyntaxError::DUPLICATE);
}
