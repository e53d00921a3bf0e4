//! Engine stage: tests of expressions' values and errors on the walker, the closures' oracle:
//! numbers, truths, calls, aggregates, lists, piles, computed properties and the budget.

use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

/// A two-player game of 20 cards worth 1 to 5 points in a pile, whose flow is `flow`.
fn game(defs: &str, flow: &str, max_steps: Option<u64>) -> Game {
    let src = format!(
        "game \"Expressions\" {{ players 2 }}\nproperty points: int = 0\nzone deck: pile\n\
         zone hand per player: set\nvar coins per player: int = 0\nvar flag: bool = false\n\
         card \"One\" {{ copies 4 points 1 }}\ncard \"Three\" {{ copies 8 points 3 }}\n\
         card \"Five\" {{ copies 8 points 5 }}\nsetup {{ move box to deck }}\n{defs}\n\
         flow {{\n{flow}\n}}\n"
    );
    super::build::checked_game(&src, max_steps)
}

/// The game's end: its winners' reason, or its runtime error.
fn end(g: &Game) -> String {
    match g.status() {
        Status::Over(o) => o.reason.clone(),
        Status::Error(e) => format!("error: {}", e.message),
        Status::Decision(_) => "a decision".into(),
    }
}

const DEFS: &str = r#"
fn worth(p: player): int = sum(c.points for c in p.hand) + count(p.hand) * 2 - p.coins / 3
fn rich(p: player): bool = worth(p) >= 10 and not (p.coins > 100) or flag
fn best(n: int): int = if n > 3 then max(n, 7) else min(n, -1) % 5
"#;

#[test]
fn numbers_truths_and_calls_evaluate() {
    let g = game(
        DEFS,
        r#"turn seat(1) {
             move top 6 of deck to you.hand
             you.coins = 7
             if rich(you) and count(cards("Five", you.hand)) >= 0 and any(c in you.hand where c is "One") and not all(c in you.hand where c.points > 1) {
               win [you] "worth {worth(you)}, best {best(worth(you))}, {sum(c.points for c in you.hand where c is "Three")}"
             }
             win [you] "not rich"
           }"#,
        None,
    );
    assert_eq!(end(&g), "worth 20, best 20, 6");
}

#[test]
fn aggregates_over_zones_joined_by_plus() {
    let g = game(
        "fn all_points(p: player): int = sum(c.points for c in p.hand + deck + p.hand where c is not \"One\")\n\
         fn owned_by(p: player, l: list of card): int = count(x in l where x.owner == p) * 100 + count(cards(\"Three\", l)) * 10 + count(c in l where c in p.hand)\n\
         fn none_left(p: player): bool = all(c in p.hand + deck where c.points > 0) and not any(c in deck + p.hand where c.points > 5)",
        r#"turn seat(1) {
             move top 3 of deck to you.hand
             if none_left(you) { win [you] "{all_points(you)} {count(c in you.hand + deck where c.points >= 1)} {owned_by(you, filter(c in deck where true) + you.hand)}" }
           }"#,
        None,
    );
    assert_eq!(end(&g), "64 20 383");
}

#[test]
fn tags_of_a_group_evaluate() {
    let defs = "tags colour: Red, Blue\ncard \"Red Seven\" { is Red  copies 2  points 7 }\n\
         fn reds(p: player): int = count(c in p.hand where c.colour == Red) * 10 + count(c in p.hand where c.colour == none)";
    let deal = "move cards(\"Red Seven\", deck) to you.hand\nmove top 3 of deck to you.hand";
    let g = game(
        defs,
        &format!("turn seat(1) {{\n{deal}\nwin [you] \"x\"\n}}"),
        None,
    );
    assert_eq!(end(&g), "x");
    let g = game(
        defs,
        &format!(
            "turn seat(1) {{\n{deal}\nwin [you] \"{{reds(you)}} {{all(c in you.hand where c.colour != Blue)}}\"\n}}"
        ),
        None,
    );
    assert_eq!(end(&g), "23 true");
}

#[test]
fn lists_of_a_kind_distinct_lists_and_orders_evaluate() {
    let g = game(
        "fn priciest(k: kind, l: list of card): int = max(c.points for c in cards(k, l))\n\
         fn kinds_in(l: list of kind): int = count(k in distinct(l) where k != none)\n\
         fn above(p: player, n: int): bool = if n >= 0 then p.coins >= n else p.coins < 0 - n",
        r#"turn seat(1) {
             move top 6 of deck to you.hand
             you.coins = 4
             win [you] "{priciest("Five", filter(c in deck where true))} {kinds_in([c.kind for c in deck])} {count(distinct([1, 2, 1]))} {above(you, 3)} {above(you, -5)} {count(opponents(you))} {sum(q.coins * 10 + 1 for q in from(you))}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "5 2 2 true true 1 42");
}

#[test]
fn filters_maps_and_take_whiles_evaluate() {
    let g = game(
        "fn big(p: player): list of card = filter(c in p.hand + deck where c.points >= 3)\n\
         fn doubled(p: player): list of int = [c.points * 2 for c in p.hand where c is not \"One\"]\n\
         fn lead(p: player): int = count(take_while(c in deck where c.points == 5))\n\
         fn total(p: player): int = count(big(p)) * 100 + sum(x for x in doubled(p)) + lead(p) * 1000",
        r#"turn seat(1) {
             move top 6 of deck to you.hand
             move top 8 of deck to seat(2).hand
             win [you] "{total(you)} {doubled(you)}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "6812 6, 6");
}

#[test]
fn joined_chosen_and_flattened_lists_evaluate() {
    let g = game(
        "fn high(p: player): list of card = filter(c in p.hand where c.points > 1)\n\
         fn pick(p: player): list of card = if p.coins > 0 then high(p) else filter(c in deck where c.points == 5)\n\
         fn both(p: player): int = count(high(p) + pick(p)) * 100 + sum(v for v in flatten([c.points, 1] for c in p.hand where c.points > 1))",
        r#"turn seat(1) {
             move top 6 of deck to you.hand
             let a = both(you)
             you.coins = 2
             win [you] "{a} {both(you)}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "1008 408");
}

#[test]
fn ranges_indices_takes_literals_and_neighbours_evaluate() {
    let g = game(
        "fn slot(p: player, c: card): int = max(k for k in 1..count(p.hand) where p.hand[k] == c)\n\
         fn before_it(p: player, c: card): int = count(d in p.hand where d in take(p.hand, slot(p, c) - 1))\n\
         fn pair(p: player): list of player = [p, left(p), right(p)]\n\
         fn score(p: player): int = slot(p, first(p.hand)) * 1000 + slot(p, last(p.hand)) * 100 + before_it(p, last(p.hand)) * 10 + count(pair(p)) + sum(x for x in 3..1) + count(take([1, 2, 3], -2)) + count(take(deck, 100))",
        r#"turn seat(1) {
             move top 5 of deck to you.hand
             win [you] "{score(you)} {pair(you)} {you.hand[0]} {you.hand[6]} {deck[1]}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "1558 P1, P2, P2 none none Three");
}

#[test]
fn table_columns_evaluate() {
    // Two rows: the column is read from the game's table (with one player count it would be a
    // constant). `LIMIT` is replaced by the calls.
    let src = r#"game "Columns" { players 2..3 }
table by players {
  columns hand_size, bonus
  2: 4, 10
  3: 3, 20
}
card "Coin" { copies 10 }
zone deck: pile
zone hand per player: set
fn limit(p: player): int = if count(p.hand) > hand_size then hand_size else count(p.hand) + bonus
setup { move box to deck }
flow {
  turn seat(1) {
    move top 3 of deck to you.hand
    let a = LIMIT
    move top 3 of deck to you.hand
    win [you] "{a} {LIMIT}"
  }
}
"#;
    let play = |limit: &str, players: u8| {
        let checked = check_source(&src.replace("LIMIT", limit));
        let program = checked
            .program
            .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics));
        let mut config = GameConfig::new(players, 1);
        config.engine = crate::engine::Engine::Walker;
        let g = Game::new(Arc::new(program), config);
        end(&g)
    };
    let two = play("limit(you) + 0", 2);
    assert_eq!(two, "13 4");
    let three = play("limit(you) + 0", 3);
    assert_eq!(three, "23 3");
}

#[test]
fn a_range_too_long_is_the_walkers_error() {
    let g = game(
        "fn many(n: int): int = count(k in 1..n where k > 0)",
        "turn seat(1) { win [you] \"{many(2000000)}\" }",
        None,
    );
    assert!(
        end(&g).starts_with("error: the range 1..2000000 is too long"),
        "{}",
        end(&g)
    );
}

#[test]
fn any_and_all_compile_as_whole_conditions() {
    let g = game("", r#"turn seat(1) { win [you] "no five" }"#, None);
    assert_eq!(end(&g), "no five");
    let g = game(
        "",
        r#"turn seat(1) {
             if all(c in deck where c.points > 0) {
               if any(c in deck where c.points > 4) { win [you] "some fives" }
             }
             win [you] "no five"
           }"#,
        None,
    );
    assert_eq!(end(&g), "some fives");
}

#[test]
fn forms_not_covered_are_left_to_the_walker() {
    // A property of a card that is not in a local, a field of it, a list: compiled around, or not
    // at all, and evaluated by the walker.
    let g = game(
        "fn top_points(): int = (top of deck).points + 1\nfn kind_twice(p: player): bool = first(p.hand).kind == (top of deck).kind",
        r#"turn seat(1) {
             move top 2 of deck to you.hand
             if (top of deck).points > 0 and top_points() == 2 and kind_twice(you) { win [you] "{top_points()}" }
           }"#,
        None,
    );
    assert_eq!(end(&g), "2");
}

#[test]
fn a_long_chain_of_calls_compiles_within_bounds() {
    // 3,000 functions, each calling the next: compiling stops at the nesting limit (no stack
    // overflow), and the walker reports the nesting as before.
    let mut defs = String::from("fn f2999(n: int): int = n\n");
    for i in (0..2999).rev() {
        defs.push_str(&format!(
            "fn f{i}(n: int): int = f{}(n) + 1 + n * 0\n",
            i + 1
        ));
    }
    let g = game(&defs, "turn seat(1) { win [you] \"{f0(1)}\" }", None);
    assert!(end(&g).contains("nested too deeply"), "{}", end(&g));
    let g = game(&defs, "turn seat(1) { win [you] \"{f2900(1)}\" }", None);
    assert_eq!(end(&g), "100");
}

#[test]
fn errors_stay_the_walkers() {
    for (defs, flow, max_steps, error) in [
        (
            "fn big(n: int): int = n * n * n * n * n",
            "turn seat(1) { win [you] \"{big(100000)}\" }",
            None,
            "error: arithmetic overflow",
        ),
        (
            "fn ratio(p: player): int = 10 / p.coins",
            "turn seat(1) { win [you] \"{ratio(you)}\" }",
            None,
            "error: division by zero",
        ),
        (
            "fn deep(n: int): int = if n <= 0 then 0 else 1 + deep(n - 1)",
            "turn seat(1) { win [you] \"{deep(5000)}\" }",
            None,
            "error: expressions, functions or properties nested too deeply (endless recursion?)",
        ),
        (
            "fn heavy(p: player): int = sum(c.points for c in deck) + sum(c.points + 1 for c in deck)",
            "turn seat(1) { if heavy(you) > 0 { win [you] \"heavy\" } }",
            Some(40),
            "error: ran more than 40 steps",
        ),
    ] {
        let g = game(defs, flow, max_steps);
        let got = end(&g);
        assert!(got.starts_with(error), "{flow}: {got}");
    }
}

#[test]
fn a_value_of_an_unexpected_type_leaves_it_to_the_walker() {
    // The first card of an empty hand is none: the walker reports it.
    let g = game(
        "fn pts(c: card): int = c.points + 1",
        "turn seat(1) { win [you] \"{pts(first(you.hand))}\" }",
        None,
    );
    assert!(
        end(&g).starts_with("error: expected a card, found none"),
        "{}",
        end(&g)
    );
}

#[test]
fn other_built_ins_evaluate() {
    // `kinds`, `flatten`, `first`, `last`, `seat`, `eliminated` and `abs`: the arguments compiled,
    // the built-in applied by the walker's own code, so `mix` compiles whole.
    let g = game(
        "fn mix(p: player): int = count(kinds(p.hand)) * 10000 + count(flatten([take(p.hand, 2), take(deck, 3)])) * 1000 + abs(p.coins - 10) * 10 + (if eliminated(p) then 5 else 0) + (if seat(2) == p then 1 else 0) + count(c in p.hand where c == last(p.hand) or c == first(deck))",
        r#"turn seat(1) {
             move top 6 of deck to you.hand
             you.coins = 3
             win [you] "{mix(you)}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "25071");
    // An overflow inside the built-in: the walker reports it.
    let g = game(
        "fn wide(p: player): int = abs(p.coins - 9223372036854775807 - 1) + count(kinds(p.hand))",
        "turn seat(1) { win [you] \"{wide(you)}\" }",
        None,
    );
    assert_eq!(end(&g), "error: arithmetic overflow");
}

#[test]
fn folds_of_constant_properties_follow_their_zone() {
    // The sum and the maximum of `points` over a hand are remembered with the hand's version: the
    // same while it is unchanged, computed again after each move into or out of it.
    let g = game(
        "fn pts(p: player): int = sum(c.points for c in p.hand) * 100 + max(c.points for c in p.hand)",
        r#"turn seat(1) {
             move top 2 of deck to you.hand
             let a = pts(you)
             let b = pts(you)
             move top 14 of deck to you.hand
             let c = pts(you)
             move you.hand to deck
             move top 1 of deck to you.hand
             win [you] "{a} {b} {c} {pts(you)} {sum(d.points for d in you.hand)}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "201 201 4805 101 1");
}

#[test]
fn a_piles_top_and_everyone_evaluate_and_an_empty_pile_refills() {
    // `top of` a pile that holds cards and `everyone`; the top of an empty pile with a refill is
    // read after the walker refills it.
    let defs = "zone pool per player: pile, refill from spent\nzone spent per player: pile\n\
                fn top_points(p: player): int = if count(p.pool) > 0 then (top of p.pool).points else 0";
    let g = game(
        defs,
        r#"turn seat(1) {
             move top 3 of deck to you.spent
             let a = top of deck
             let b = bottom of deck
             let c = top of you.pool
             let n = count(everyone)
             win [you] "{a} {b} {c} {count(you.pool)} {count(you.spent)} {n} {top_points(you)} {first(everyone)}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "One Five One 3 0 2 1 P1");
}

/// A property some kinds compute (`bonus`), with `this` and `you`: read from a card a local holds,
/// inside aggregates and a sort.
const COMPUTED: &str = r#"
game "Props" { players 2 }
property points: int = 0
property bonus: int = 0
zone deck: pile
zone hand per player: set
var boost per card: int = 0
var marked per card: bool = false
card "One" { copies 4 points 1 }
card "Three" { copies 4 points 3 bonus count(c in you.hand where c.points == 3) }
card "Five" { copies 4 points 5 bonus if this.boost > 0 then this.boost + 1 else 0 }
setup { move box to deck }
flow {
  turn seat(1) {
    move top 12 of deck to you.hand
    for c in you.hand where c is "Five" {
      c.boost = 2
      c.marked = true
    }
    win [you] "{sum(c.points + c.bonus + c.boost for c in you.hand)} {count(c in you.hand where c.marked and not (c.bonus == 0))} {first(sort(c in you.hand by 0 - c.bonus)).bonus} {first(sort(k in [3, 1, 2] by k))}"
  }
}
"#;

#[test]
fn computed_properties_this_and_sorts_answer_as_the_walker() {
    let g = super::build::checked_game(COMPUTED, None);
    // One: 1 + 0 + 0 each; Three: 3 + 4 (the Threes in hand) + 0; Five: 5 + 3 (boost 2, plus 1) + 2.
    assert_eq!(end(&g), "72 4 4 1");
    // Every budget up to the game's work: the game's end, or the spent budget reported.
    let needed = g.work();
    for max in 0..needed + 5 {
        let g = super::build::checked_game(COMPUTED, Some(max));
        let ended = end(&g);
        assert!(
            ended == "72 4 4 1" || ended.starts_with("error: ran more than"),
            "budget {max}: {ended}"
        );
    }
}

/// `any`, `all` and `count` whose test is a tag of the binder, over a zone, zones joined by `+`, a
/// list of cards and a list holding `none` (not a card: the general loop); tests of `and`, `or` and
/// `not` of tags and kinds (a table of the kinds that pass, the general test for `none`).
const TAGGED: &str = r#"
game "Tags" { players 2 }
tags colour: Red, Blue
zone deck: pile
zone hand per player: set
card "Ruby" { is Red copies 3 }
card "Sky" { is Blue copies 2 }
card "Grey" { copies 4 }
setup { move box to deck }
flow {
  turn seat(1) {
    move top 5 of deck to you.hand
    let l = filter(c in deck where true)
    let n = [none, first(deck)]
    win [you] "{count(c in you.hand where c is Red)} {count(c in you.hand + deck where c is not Blue)} {any(c in deck where c is Blue)} {all(c in l where c is not Red)} {count(c in l where c is Blue)} {count(c in n where c is not Red)} {any(c in n where c is Blue)} {count(c in you.hand + deck where c is Red or not (c is Blue and c is "Sky"))} {count(c in n where not (c is Red) and c is not Blue)} {any(c in deck where c is "Grey")} {count(c in you.hand where c is "Sky" or c is "Grey")}"
  }
}
"#;

#[test]
fn tag_tests_read_the_items_where_they_lie() {
    let g = super::build::checked_game(TAGGED, None);
    // The top five cards, the Rubies and the Skies, go to the hand; the deck keeps the Greys. `none`
    // passes no tag test, `is not` included. Kind tests and their `and`, `or` and `not` are tables
    // too.
    assert_eq!(end(&g), "3 7 false true 0 1 false 7 1 true 2");
}

/// `sum`, `max` and `min` of a constant property over `cards(K, L)`, of a zone and of a list, with
/// copies and with none: counted without a list made, with the walker's work (compared in debug
/// builds).
#[test]
fn a_property_over_the_cards_of_a_kind() {
    let g = game(
        "fn of_threes(l: list of card): int = sum(c.points for c in cards(\"Three\", l))\n\
         fn top_five(p: player): int = max(c.points for c in cards(\"Five\", deck)) + min(c.points for c in cards(\"One\", p.hand))",
        r#"turn seat(1) {
             move cards("One", deck) to you.hand
             win [you] "{of_threes(filter(c in deck where true))} {sum(c.points for c in cards("Three", deck))} {top_five(you)} {top_five(seat(2))} {max(c.points for c in cards("One", deck))}"
           }"#,
        None,
    );
    assert_eq!(end(&g), "24 24 6 5 0");
}

/// Tests and numbers of the card's kind alone with work (`c.colour != none`, `c.points * 2 > 5`,
/// calls of functions of one card such as `worth(c)`), whole (the filter, count, `any` and `all`
/// below) or as the left side of an `and` whose right side reads the game.
#[test]
fn tests_of_the_kind_alone_answer_as_the_walker() {
    let defs = "tags colour: Red, Blue\ncard \"Red Seven\" { is Red  copies 2  points 7 }\n\
         card \"Blue Two\" { is Blue  copies 3  points 2 }\n\
         fn worth(c: card): int = if c.colour == Red then c.points * 2 else (c.points + 1) / 2\n\
         fn big(c: card): bool = worth(c) > 2\n\
         fn shade(c: card): tag = if c.colour == none then Blue else c.colour\n\
         fn of_colour(t: tag): int = count(c in deck where c.colour == t) * 10 + count(c in deck where c.colour == none)";
    let flow = r#"turn seat(1) {
             win [you] "{count(filter(c in deck where c.colour != none and c.points > 2))} {count(c in deck where c.points * 2 > 5)} {any(c in deck where c.colour == Blue and c.points < 2)} {all(c in deck where c.points >= 1)} {count(c in deck where c.colour != none and c.points > count(deck) - 19)} {[c.points for c in filter(c in deck where not (c.colour == Red))]} {sum(worth(c) for c in deck)} {count(c in deck where big(c))} {max(worth(c) * 10 + c.points for c in deck where c.points > 1)} {of_colour(Red)} {of_colour(Blue)} {count(distinct([c.colour for c in deck]))} {[shade(c) for c in deck where c.points > 4]}"
           }"#;
    let g = game(defs, flow, None);
    assert_eq!(
        end(&g),
        "2 18 false true 2 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 5, 5, 5, 5, 5, 5, 5, 5, 2, 2, 2 75 10 147 40 50 3 Blue, Blue, Blue, Blue, Blue, Blue, Blue, Blue, Red, Red"
    );
    // Every budget ends the game or reports the spent budget, and the whole needs more than the
    // budgets below it.
    for max in 0..120 {
        let g = game(defs, flow, Some(max));
        let e = end(&g);
        assert!(
            e.starts_with("error: ran more than") || e.starts_with("2 18"),
            "{e}"
        );
    }
}

/// A count of a zone by a test of the card's kind and of other locals (`c.colour == t`,
/// `c.colour == d.colour`), asked again with the same zone and values, after a move or with
/// another value.
#[test]
fn counts_by_kind_and_locals_follow_their_zone() {
    let defs = "tags colour: Red, Blue\ncard \"Red Seven\" { is Red  copies 2  points 7 }\n\
         card \"Blue Two\" { is Blue  copies 3  points 2 }\n\
         fn of_colour(t: tag): int = count(c in deck where c.colour == t)\n\
         fn like(d: card): int = count(c in deck where c.colour == d.colour and c.points > 1)";
    // One call site each, so that the same compiled count meets the changes: a move between two
    // counts of Blue, Red and Blue at the same version, the same card twice.
    let flow = r#"turn seat(1) {
             let a = 0
             for t in [Red, Red, Blue, Blue, Red, Blue] {
               a = a * 10 + of_colour(t)
               if t == Blue { move first(cards("Blue Two", deck)) to you.hand }
             }
             let b = first(cards("Red Seven", deck))
             for d in [b, b, first(cards("Blue Two", you.hand)), b] {
               a = a * 10 + like(d)
               if d != b { move filter(c in deck where c is Red) to you.hand }
             }
             win [you] "{a}"
           }"#;
    let g = game(defs, flow, None);
    assert_eq!(end(&g), "2232212200");
    // Every budget ends the game or reports the spent budget.
    for max in 0..400 {
        let g = game(defs, flow, Some(max));
        let e = end(&g);
        assert!(
            e.starts_with("error: ran more than") || e == "2232212200",
            "{e}"
        );
    }
}
