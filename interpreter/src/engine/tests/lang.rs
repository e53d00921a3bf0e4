//! Engine stage: tests of the language's round-two constructs, from script text through the checker
//! to the engine (procedures that return values, function bodies with `let`, `text` values).

use super::games::logs;
use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

/// A two-player game of a script that must check without errors.
pub(super) fn start(src: &str) -> Game {
    let checked = check_source(src);
    let errors: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let p = Arc::new(checked.program.expect("the script checks"));
    Game::new(p, GameConfig::new(2, 1))
}

/// The codes of the diagnostics of a script.
fn codes_of(src: &str) -> Vec<&'static str> {
    check_source(src)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

fn reason(g: &Game) -> String {
    match g.status() {
        Status::Over(o) => o.reason.clone(),
        s => panic!("not over: {s:?}"),
    }
}

/// A procedure's result is kept by `let`, also when the procedure pauses for a decision before it
/// returns; `return` leaves loops and blocks at once; a procedure that ends without `return` (or
/// with `stop`) gives `none`; recursion works.
#[test]
fn a_procedure_returns_a_value_after_a_decision() {
    let src = r#"
game "Returns" { players 2 }
proc pick(p: player): int {
  let n = choose n in 1..3 by p prompt "How many?"
  for i in 1..10 {
    if i == n {
      return i * 10
    }
  }
  log "never"
}
proc nothing(): card {
  log "nothing"
}
proc stopped(): int {
  stop
  return 1
}
proc fact(n: int): int {
  if n <= 1 {
    return 1
  }
  let rest = fact(n - 1)
  return n * rest
}
flow {
  let a = pick(seat(2))
  let b = nothing()
  let c = stopped()
  let f = fact(5)
  win [seat(1)] "{a} {b} {c} {f}"
}
"#;
    let mut g = start(src);
    let d = g.decision().expect("a decision");
    assert_eq!(d.options, vec!["1", "2", "3"]);
    g.apply(1).expect("applies");
    assert_eq!(reason(&g), "20 none none 120");
    assert_eq!(logs(&g.take_events()), ["nothing"]);
}

/// `let` in a function's body: each name is computed once, in order, and may use the ones before;
/// a `text` parameter and result.
#[test]
fn a_function_body_names_values_with_let() {
    let src = r#"
game "Lets" { players 2 }
fn shout(t: text, n: int): text {
  let twice = n * 2
  let more = twice + 1
  "{t}: {twice} then {more}"
}
flow {
  let s = shout("count", 4)
  win [seat(1)] "{s}"
}
"#;
    let g = start(src);
    assert_eq!(reason(&g), "count: 8 then 9");
}

/// `L[i]` from 1 (none out of range, also on zones), `[E for x in L where C]`, `flatten` of a
/// comprehension over per-card zones and of a list of lists, `take_while`, and lists of numbers
/// compared and sorted element by element.
#[test]
fn lists_are_indexed_computed_flattened_and_compared() {
    let src = r#"
game "Lists" { players 2 }
zone deck: pile
zone domain per player: set
zone kept per card: set
card "A" { copies 2 }
card "B" { copies 3 }
card "C" { copies 1 }
setup {
  move cards("A", box) to seat(1).domain
  move take(cards("B", box), 2) to first(seat(1).domain).kept
  move cards("B", box) to last(seat(1).domain).kept
  move cards("C", box) to deck
}
flow {
  let xs = [10, 20, 30]
  log "{xs[1]} {xs[3]} {xs[4]} {xs[0]} {xs[-1]} {deck[1]} {deck[2]}"
  log "{[x * x for x in xs where x > 10]} {[x + 1 for x in []]}"
  log "{count(flatten(t.kept for t in seat(1).domain))} {flatten([[1, 2], [], [3]])}"
  log "{take_while(x in [1, 2, 5, 1] where x < 3)} {take_while(x in [5] where x < 3)}"
  let hands = [[2, 14, 9], [2, 14, 3], [3], [2, 14]]
  log "{sort(h in hands by h)}"
  log "{[2, 14] > [2, 9]} {[2] < [2, 1]} {[3] <= [2, 9]} {[1, 2] >= [1, 2]}"
  win [seat(1)] "done"
}
"#;
    let mut g = start(src);
    assert_eq!(reason(&g), "done");
    assert_eq!(
        logs(&g.take_events()),
        [
            "10 30 none none none C none",
            "400, 900 ",
            "3 1, 2, 3",
            "1, 2 ",
            "2, 14, 2, 14, 3, 2, 14, 9, 3",
            "true true false true",
        ]
    );
}

/// The checker's errors for the list constructs: an index that is not a number, indexing something
/// that is not a list, comparing lists that hold no numbers, `flatten` of a list of numbers.
#[test]
fn list_constructs_are_type_checked() {
    let base = "game \"L\" { players 2 }\nflow {\n  let xs = [1, 2]\n  log \"{BODY}\"\n  win [seat(1)] \"x\"\n}\n";
    for (body, want) in [
        ("xs[true]", "expected an int, found a bool"),
        ("seat(1)[1]", "expected a list or a zone, found a player"),
        (
            "[seat(1)] < [seat(2)]",
            "expected a list of int, found a list of player",
        ),
        ("flatten(xs)", "expected a list or a zone, found an int"),
    ] {
        let checked = check_source(&base.replace("BODY", body));
        let messages: Vec<(&str, &str)> = checked
            .diagnostics
            .iter()
            .map(|d| (d.code, d.message.as_str()))
            .collect();
        assert_eq!(messages, [("E201", want)], "{body}");
    }
}

/// `choose order x in L`: one decision per element but the last, each offering what is left; the
/// result is the list in the order chosen; with one element or none nothing is asked.
#[test]
fn an_order_decision_lists_every_element_in_the_chosen_order() {
    let src = r#"
game "Order" { players 2 }
zone deck: pile
card "A" { copies 1 }
card "B" { copies 1 }
card "C" { copies 1 }
card "D" { copies 1 }
setup { move box to deck }
flow {
  let order = choose order c in deck where c is not "D" by seat(2) prompt "Put back (the last ends on top)"
  for c in order { move c to deck top }
  let one = choose order c in deck where c is "A"
  let none_left = choose order c in deck where false
  win [seat(1)] "{order} / {[c for c in deck]} / {one} / {count(none_left)}"
}
"#;
    let mut g = start(src);
    let d = g.decision().expect("a decision");
    assert_eq!(d.player, 1);
    assert_eq!(d.prompt, "Put back (the last ends on top)");
    let mut first_options = d.options.clone();
    first_options.sort();
    assert_eq!(first_options, ["A", "B", "C"]);
    let b = d.options.iter().position(|o| o == "B").expect("B offered");
    g.apply(b).expect("applies");
    let d = g.decision().expect("a second decision");
    let mut left = d.options.clone();
    left.sort();
    assert_eq!(left, ["A", "C"]);
    let c = d.options.iter().position(|o| o == "C").expect("C offered");
    g.apply(c).expect("applies");
    // A is the last: placed without asking, and so are the one-element and empty orders.
    let reason = reason(&g);
    let (order, rest) = reason.split_once(" / ").expect("parts");
    assert_eq!(order, "B, C, A");
    assert!(rest.starts_with("A, C, B"), "{rest}");
    assert!(rest.ends_with(" / A / 0"), "{rest}");
}

/// A card family: one kind per combination, in order (the first list outermost), named and
/// described from its values, which its properties, tags and abilities read as constants; a table
/// of rows; cards ordered by a property and by a tag.
#[test]
fn a_card_family_defines_one_card_per_combination() {
    let src = r#"
game "Deck" { players 2 }
tags suit: Clubs, Hearts
property rank: int = 0
property points: int = 0
abilities play
zone deck: pile
card "{rank} of {suit}" for suit in [Hearts, Clubs], rank in 2..3 {
  is suit
  rank rank
  text "The {rank} of {suit}."
  ability play { log "{rank} played" }
}
card "{name}" for (rank, name, points) in [[11, "Jack", 1], [12, "Queen", 2]] {
  copies 2
  rank rank
  points points
}
setup { move box to deck }
flow {
  for c in sort(c in deck by c.kind) { perform play of c }
  log "{[c.kind for c in sort(c in deck by [c.rank, c.points])]}"
  log "{distinct([c.suit for c in sort(c in deck where c.rank < 11 by c.suit)])}"
  win [seat(1)] "{count(deck)}"
}
"#;
    let checked = check_source(src);
    let p = checked.program.expect("the script checks");
    let kinds: Vec<(&str, &str)> = p
        .kinds
        .iter()
        .map(|k| (k.name.as_str(), k.text.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("2 of Hearts", "The 2 of Hearts."),
            ("3 of Hearts", "The 3 of Hearts."),
            ("2 of Clubs", "The 2 of Clubs."),
            ("3 of Clubs", "The 3 of Clubs."),
            ("Jack", ""),
            ("Queen", ""),
        ]
    );
    let mut g = Game::new(Arc::new(p), GameConfig::new(2, 1));
    assert_eq!(reason(&g), "8");
    assert_eq!(
        logs(&g.take_events()),
        [
            "2 played",
            "3 played",
            "2 played",
            "3 played",
            "2 of Hearts, 2 of Clubs, 3 of Hearts, 3 of Clubs, Jack, Jack, Queen, Queen",
            "Clubs, Hearts",
        ]
    );
}

/// What a family cannot be made of: values not written out, rows of the wrong length, a name that
/// shows something else than the family's values, two cards of the same name.
#[test]
fn card_family_errors() {
    let base = "game \"F\" { players 2 }\ntags suit: Clubs, Hearts\nvar n: int = 3\nzone deck: pile\nFAMILY { copies 1 }\nsetup { move box to deck }\nflow { win [seat(1)] \"{count(deck)}\" }\n";
    for (family, code, want) in [
        (
            "card \"{x}\" for x in 1..n",
            "E313",
            "the values of a card family must be written out in the script",
        ),
        (
            "card \"{a}\" for (a, b) in [[1, 2], [3]]",
            "E313",
            "each row of this table needs 2 values; [3] does not have them",
        ),
        (
            "card \"{x} {n}\" for x in [1, 2]",
            "E313",
            "a card family's name shows only the family's own values",
        ),
        (
            "card \"Same\" for x in [Clubs, Hearts]",
            "E101",
            "the card \"Same\" is defined twice",
        ),
    ] {
        let checked = check_source(&base.replace("FAMILY", family));
        let found: Vec<(&str, &str)> = checked
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.code, d.message.as_str()))
            .collect();
        assert_eq!(found, [(code, want)], "{family}");
    }
}

/// `x = choose ...` and `x = proc(args)` give a local a new value, as `let` does; anything but a
/// local is E202, and a value of another type E201.
#[test]
fn a_choice_or_a_result_can_be_assigned_to_a_local() {
    let src = r#"
game "Assign" { players 2 }
var best: int = 0
proc double(n: int): int {
  return n * 2
}
flow {
  let n = 1
  n = choose x in 5..6 by seat(1)
  let m = 0
  m = double(n)
  let later = none
  later = choose p in everyone by seat(2)
  win [later] "{n} {m}"
}
"#;
    let mut g = start(src);
    g.apply(1).expect("6");
    g.apply(0).expect("P1");
    assert_eq!(reason(&g), "6 12");
    for (from, to, code) in [
        (
            "n = choose x in 5..6 by seat(1)",
            "best = choose x in 5..6 by seat(1)",
            "E202",
        ),
        ("m = double(n)", "best = double(n)", "E202"),
        ("let m = 0", "let m = seat(1)", "E201"),
    ] {
        let checked = check_source(&src.replace(from, to));
        let codes: Vec<&str> = checked
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, [code], "{to}");
    }
}

/// Card names in quotes are kinds wherever kinds are expected: in the branches of an `if` whose value is
/// a list of kinds, and in a list written out after `in` (`c.kind in ["A", "B"]`); a text on the left of
/// `in` still compares with kinds.
#[test]
fn card_names_are_kinds_in_branches_and_in_written_lists() {
    let src = r#"
game "Kinds" {
  players 2
  option pick: one of first, second = second
}
zone deck: pile
card "A" { copies 1 }
card "B" { copies 1 }
card "C" { copies 1 }
setup { move box to deck }
fn chosen(): list of kind = if pick == first then ["A"] else ["B", "C"]
flow {
  let kept = filter(c in deck where c.kind in chosen())
  let named = filter(c in deck where c.kind in ["A", "C"])
  let text_left = filter(c in deck where "B" in [c.kind])
  win [seat(1)] "{count(kept)} {count(named)} {count(text_left)}"
}
"#;
    let g = start(src);
    assert_eq!(reason(&g), "2 2 1");
}

/// `cards(K, L)`, `count(cards(K, L))`, `first(cards(K, L))`, `first` and `last` read a zone in place
/// and a list as a list,
/// with the same results; a kind that is none is a runtime error at the kind's argument.
#[test]
fn cards_of_a_kind_in_zones_and_lists() {
    let src = r#"
game "Kinds" { players 2 }
zone deck: pile
card "A" { copies 3 }
card "B" { copies 2 }
setup {
  move cards("B", box) to deck
  move cards("A", box) to deck
}
flow {
  let l = [last(deck), first(deck)]
  log "{count(cards("A", deck))} {count(cards("B", deck))} {count(cards(first(kinds(deck)), deck))}"
  log "{count(cards("A", l))} {count(cards("B", l))} {cards("B", deck)} {first(deck)} {last(deck)}"
  log "{count(cards("A", []))} {first(cards("A", box))} {first(cards("B", deck))} {first(cards("A", l))}"
  log "{count(cards(first(kinds(box)), deck))}"
}
"#;
    let mut g = start(src);
    let Status::Error(e) = g.status() else {
        panic!("{:?}", g.status())
    };
    assert!(
        e.message.contains("expected a card kind, found none"),
        "{}",
        e.message
    );
    assert_eq!(
        logs(&g.take_events()),
        ["3 2 3", "1 1 B, B A B", "0 none B A"]
    );
}

/// `win L E`: the reason is any text expression (a function's result, a variable), not only a
/// written text.
#[test]
fn a_win_reason_is_any_text_expression() {
    let src = r#"
game "Because" { players 2 }
var why: text = "nobody"
fn because(p: player, n: int): text = "{p} reached {n}"
flow {
  turn seat(1) {
    why = because(active, 3)
    win [active] why
  }
}
"#;
    assert_eq!(reason(&start(src)), "P1 reached 3");
    let team = src.replace("win [active] why", "win [] because(seat(2), 4)");
    assert_eq!(reason(&start(&team)), "P2 reached 4");
}

/// A zone `others` is seen by every seat but its owner: in views, in the labels of its owner's
/// options, and in the worlds an agent samples (the owner's own card is what it does not know).
#[test]
fn an_others_zone_is_seen_by_everyone_but_its_owner() {
    let src = r#"
game "Foreheads" { players 3 }
property rank: int = 0
card "{r}" for r in 1..9 { rank r }
zone deck: pile, hidden
zone hand per player: set, others
setup {
  move box to deck
  for p in everyone { move top 1 of deck to p.hand }
}
action name(c in seat(1).hand + seat(2).hand + seat(3).hand) { }
flow { turn seat(1) { actions by seat(1) once [name] } win [] "done" }
"#;
    let checked = check_source(src);
    let p = Arc::new(checked.program.expect("the script checks"));
    let mut config = GameConfig::new(3, 1);
    config.labels = true;
    let g = Game::new(p, config);
    let hand = |v: &crate::engine::View, seat: usize| {
        v.zones
            .iter()
            .find(|z| z.name == format!("P{seat}.hand"))
            .map(|z| z.cards.clone())
            .expect("the hand is in the view")
    };
    let v1 = g.view(0);
    assert_eq!(hand(&v1, 1), vec![None], "its owner does not see it");
    let one = |v: Vec<Option<String>>| v.into_iter().flatten().next().expect("a card seen");
    let (second, third) = (one(hand(&v1, 2)), one(hand(&v1, 3)));
    let own = one(hand(&g.view(1), 1));
    assert_eq!(one(hand(&g.view(2), 1)), own, "every other seat sees it");
    let Status::Decision(d) = g.status() else {
        panic!("a decision")
    };
    assert_eq!(
        d.options,
        [
            "name a card from P1.hand".to_string(),
            format!("name {second}"),
            format!("name {third}")
        ]
    );
    // Seat 1's worlds deal it another card of those it cannot see; the others' cards stay.
    let mine: std::collections::HashSet<_> = (0..40)
        .map(|seed| hand(&g.determinize(0, seed).view(1), 1))
        .collect();
    assert!(mine.len() > 1, "{mine:?}");
    for seed in 0..40 {
        let world = g.determinize(0, seed).view(0);
        assert_eq!(hand(&world, 2), vec![Some(second.clone())]);
    }
}

/// `let x: TYPE = E`: the local has the written type, so card names in quotes are kinds (also in a
/// list, and when assigned later), in statements and in a function's body.
#[test]
fn a_typed_let_makes_card_names_kinds() {
    let src = r#"
game "Typed" { players 2 }
card "Red 1" { copies 1 }
card "Red 2" { copies 1 }
card "Captain" { copies 1 }
zone deck: pile
fn reds(): list of kind {
  let named: list of kind = ["Red 1", "Red 2"]
  named
}
setup {
  let with: kind = none
  with = "Captain"
  move cards(with, box) to deck
  for k in reds() { move cards(k, box) to deck }
}
flow { turn seat(1) { win [active] "{count(deck)} in the deck" } }
"#;
    assert_eq!(reason(&start(src)), "3 in the deck");
    let wrong = src.replace("let with: kind = none", "let with: int = \"Captain\"");
    let codes = codes_of(&wrong);
    assert!(codes.contains(&"E201"), "{codes:?}");
}

/// `for (a, b) in L` takes each element of L (a list) apart by position, also for the `where`
/// condition; a name past an element's end is `none`; elements that are not lists are E201.
#[test]
fn a_for_takes_lists_apart() {
    let src = r#"
game "Pairs" { players 2 }
var total: int = 0
var missing: int = 0
flow {
  turn seat(1) {
    for (a, b) in [[1, 2], [3, 4], [5, 6]] where a > 1 { total += a * b }
    for (x, y, z) in [[1, 2]] { if z == none { missing += 1 } }
    for (p, q) in [[seat(1), seat(2)], [seat(2), seat(1)]] { log "{p} passes to {q}" }
    win [active] "total {total}, missing {missing}"
  }
}
"#;
    let g = start(src);
    assert_eq!(reason(&g), "total 42, missing 1");
    let bad = src.replace("for (x, y, z) in [[1, 2]]", "for (x, y, z) in [1, 2]");
    let codes = codes_of(&bad);
    assert!(codes.contains(&"E201"), "{codes:?}");
}

/// `sort(E for x in L where C)`: the values of E, smallest first (numbers, and lists of numbers
/// compared item by item).
#[test]
fn sort_orders_the_values_of_an_expression() {
    let src = r#"
game "Sorted" { players 2 }
property rank: int = 0
card "Five" { copies 1  rank 5 }
card "Two" { copies 1  rank 2 }
card "Nine" { copies 1  rank 9 }
zone hand per player: set
setup { move box to seat(1).hand }
flow {
  turn seat(1) {
    let all = sort(c.rank for c in seat(1).hand)
    let high = sort(c.rank for c in seat(1).hand where c.rank > 2)
    let pairs = sort([c.rank, 0 - c.rank] for c in seat(1).hand)
    win [active] "{all} / {high} / {pairs[1]}"
  }
}
"#;
    assert_eq!(reason(&start(src)), "2, 5, 9 / 5, 9 / 2, -2");
}

/// `max(a, b)` and `min(a, b)` take two lists of numbers too, compared as `<` compares them (item
/// by item, a shorter list first when it is the start of the other), and so do `max(E for x in L)`
/// and `min(...)` (`none` when there are no values).
#[test]
fn max_and_min_compare_two_lists_of_numbers() {
    let src = r#"
game "Hands" { players 2 }
fn value(a: int, b: int): list of int = sort(x for x in [a, b])
flow {
  turn seat(1) {
    let best = max(value(3, 9), value(4, 5))
    let worst = min(value(3, 9), value(4, 5))
    let short = max([2], [2, 1])
    let most = max(value(a, 9 - a) for a in 1..4)
    let least = min(value(a, 9 - a) for a in 1..4 where a > 1)
    let none_of = max(value(1, 1) for a in [])
    win [active] "{best} / {worst} / {short} / {most} / {least} / {none_of}"
  }
}
"#;
    assert_eq!(
        reason(&start(src)),
        "4, 5 / 3, 9 / 2, 1 / 4, 5 / 2, 7 / none"
    );
}
