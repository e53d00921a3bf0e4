//! Engine stage: tests of the compiled fast paths of statements (`fast/stmts.rs`). Debug builds run
//! every statement a fast path completed a second time with `exec` and compare what both changed;
//! these tests make the fast paths run, and give up where `exec` reports an error or a budget ends,
//! so that what a game does, reports and counts stays `exec`'s.

use super::build::game_without;
use crate::engine::probe::Without;
use crate::engine::{Game, Status};

/// A game of `src` with seed `seed`, the budget `max_steps`, events recorded or not, and every
/// statement run by `exec` when `walked` (none by a fast path: engine/probe.rs).
fn game_of(src: &str, seed: u64, max_steps: Option<u64>, record: bool, walked: bool) -> Game {
    let without = Without {
        fast_statements: walked,
        ..Without::default()
    };
    game_without(src, seed, max_steps, record, without)
}

/// The statements game `g` ran by their fast paths (debug builds count them).
fn statements(g: &Game) -> u64 {
    g.counted().statements
}

/// A two-player game whose flow is `flow`: `coins` is a player's number with constant bounds, the
/// fast paths' form; `slow` the same with a bound that is an expression, which `exec` runs.
fn game(flow: &str, max_steps: Option<u64>) -> Game {
    game_walked(flow, max_steps, false)
}

/// [`game`], with every statement run by `exec` when `walked`.
fn game_walked(flow: &str, max_steps: Option<u64>, walked: bool) -> Game {
    let src = format!(
        "game \"Statements\" {{ players 2 }}\nproperty points: int = 0\nzone deck: pile\n\
         card \"Five\" {{ copies 8 points 5 }}\nsetup {{ move box to deck }}\n\
         var coins per player: int = 0 min 0 max 100\n\
         var slow per player: int = 0 min 0 max count(deck) * 0 + 100\n\
         var round: int = 0\nvar stock per card: int = 1\n\
         flow {{\n{flow}\n}}\n"
    );
    game_of(&src, 1, max_steps, true, walked)
}

/// The game's end: its winners' reason, or its runtime error and its line.
fn end(g: &Game) -> String {
    match g.status() {
        Status::Over(o) => o.reason.clone(),
        Status::Error(e) => format!("error: {} (line {})", e.message, e.line),
        Status::Decision(_) => "a decision".into(),
    }
}

/// Assignments of players', cards' and global numbers and of locals, `let` and `if`.
const BODY: &str = r#"turn seat(1) {
  let n = count(deck)
  repeat 5 {
    you.coins += n * 5
    round += 1
    first(deck).stock -= 2
    n -= 1
    if you.coins > 50 { round += 10 } else if n < 0 { round -= 100 } else { n = n + 0 }
  }
  win [you] "{you.coins} {round} {n} {first(deck).stock}"
}"#;

/// Every budget from nothing to `past` steps beyond `needed`: the game `at(budget)` ends the same
/// way with the fast paths and with `exec` alone, with the same error at the same line, after the
/// same work. Gives how many budgets ended the game with a budget's error.
fn same_at_every_budget(needed: u64, past: u64, at: impl Fn(u64, bool) -> Game) -> u64 {
    let mut ended = 0;
    for max in 0..needed + past {
        let fast = at(max, false);
        let walked = at(max, true);
        assert_eq!(end(&fast), end(&walked), "budget {max}");
        assert_eq!(fast.work(), walked.work(), "budget {max}");
        ended += u64::from(end(&fast).starts_with("error: ran more than"));
    }
    ended
}

#[test]
fn assignments_lets_and_ifs_take_the_fast_path() {
    let g = game(BODY, None);
    // 40, 75, then 110 and more, clamped to 100 by the constant bound.
    assert_eq!(end(&g), "100 45 3 -9");
    // The setup's `move`, `let`, and per round the four assignments, the `if` and one branch's
    // assignment.
    assert_eq!(statements(&g), 2 + 5 * 6);
    // The same with a bound that is an expression: `exec` runs those five assignments.
    let g = game(&BODY.replace("coins", "slow"), None);
    assert_eq!(end(&g), "100 45 3 -9");
    assert_eq!(statements(&g), 2 + 5 * 5);
    // And with every statement run by `exec`.
    let g = game_walked(BODY, None, true);
    assert_eq!(end(&g), "100 45 3 -9");
    assert_eq!(statements(&g), 0);
}

#[test]
fn budgets_end_at_the_same_step_either_way() {
    // Every budget from nothing to more than the game needs: with the fast paths and with `exec`
    // alone the game ends the same way, with the same error at the same line, after the same work.
    let needed = game(BODY, None).work();
    let ended = same_at_every_budget(needed, 20, |max, walked| {
        game_walked(BODY, Some(max), walked)
    });
    // Budgets that end the game before its end and budgets that let it finish are both tried (the
    // last steps' work is counted but not tested: no step follows the end).
    assert!(
        ended >= needed / 2 && ended <= needed,
        "{ended} of {needed} budgets spent"
    );
}

#[test]
fn an_overflow_is_the_walkers_error() {
    let g = game(
        "round = 9223372036854775807\nround += 1\nwin everyone \"no overflow\"",
        None,
    );
    assert_eq!(end(&g), "error: arithmetic overflow (line 12)");
    let g = game(
        "let n = 9223372036854775807\nn += 1\nwin everyone \"no overflow\"",
        None,
    );
    assert_eq!(end(&g), "error: arithmetic overflow (line 12)");
}

/// Moves of a card, of a zone's cards, of a list, and into a zone with a limit.
const MOVES: &str = r#"turn seat(1) {
  let c = first(deck)
  move c to you.hand
  move top of deck to you.hand
  move you.hand to pile
  move filter(x in deck where x.points > 0) to you.hand
  repeat 3 {
    move first(you.hand) to small
  }
  move [first(you.hand), first(pile)] to deck
  win [you] "{count(deck)} {count(you.hand)} {count(pile)} {count(small)}"
}"#;

#[test]
fn moves_take_the_fast_path_and_end_budgets_the_same_way() {
    let script = |flow: &str, max, walked| {
        let src = format!(
            "game \"Moves\" {{ players 2 }}\nproperty points: int = 0\nzone deck: pile\n\
             zone pile: pile\nzone small: set, max 2\nzone hand per player: set\n\
             card \"Five\" {{ copies 8 points 5 }}\nsetup {{ move box to deck }}\n\
             flow {{\n{flow}\n}}\n"
        );
        game_of(&src, 1, max, true, walked)
    };
    let g = script(MOVES, None, false);
    assert_eq!(end(&g), "2 3 1 2");
    // The setup's move, `let`, and the moves of `c`, of the hand, of the filter and of the list:
    // not those into `small` (it has a limit), nor `top of` (a pile).
    assert_eq!(statements(&g), 1 + 1 + 4);
    let needed = g.work();
    same_at_every_budget(needed, 10, |max, walked| script(MOVES, Some(max), walked));
}

/// Logs: texts that cannot fail (a player, a number, the turn's number and a constant), a list's and
/// an expression's.
const LOGS: &str = r#"turn seat(1) {
  let n = 3
  let l = everyone
  log "{you} has {n} at turn {turn_number}, {active} is active"
  log "{n}"
  log "the players: {l}"
  log "{count(deck)} cards"
  win [you] "{n}"
}"#;

#[test]
fn logs_nobody_records_take_the_fast_path() {
    let script = |flow: &str, record: bool, walked: bool| {
        let src = format!(
            "game \"Logs\" {{ players 2 }}\nzone deck: pile\ncard \"Five\" {{ copies 8 }}\n\
             setup {{ move box to deck }}\nflow {{\n{flow}\n}}\n"
        );
        game_of(&src, 1, None, record, walked)
    };
    let without = LOGS
        .lines()
        .filter(|l| !l.trim_start().starts_with("log"))
        .collect::<Vec<_>>()
        .join("\n");
    let answered = |flow: &str, record| {
        let g = script(flow, record, false);
        assert_eq!(end(&g), "3");
        (statements(&g), g.work())
    };
    let (base, base_work) = answered(&without, false);
    // Every log: the first two build nothing at all, the list's and the expression's have their
    // parts evaluated for the errors they could meet (a list's items are work).
    let (n, work) = answered(LOGS, false);
    assert_eq!(n - base, 4);
    // Each log is one step, and the list's two players and the expression are work too, as
    // `exec` counts them.
    assert!(work > base_work + 4 + 2);
    let walked = script(LOGS, false, true);
    assert_eq!(walked.work(), work);
    // While events are recorded, every text is built: `exec` runs every log.
    let (base, _) = answered(&without, true);
    let (n, _) = answered(LOGS, true);
    assert_eq!(n, base);
}

/// Moves of a whole zone into another, on top and at the bottom, with cards shown to a player and
/// faces given, and a `check` that watches the moves.
const ZONE_MOVES: &str = r#"turn seat(1) {
  move top 3 of deck to pile
  show pile to you
  move deck to you.hand
  move pile to you.hand bottom face up
  move you.hand to pile
  move pile to deck bottom
  move deck to you.hand face down
  win [you] "{count(deck)} {count(you.hand)} {count(pile)} {sum(c.points for c in you.hand)}"
}"#;

#[test]
fn moves_of_whole_zones_nobody_records_are_the_walkers() {
    let script = |max: Option<u64>, walked: bool| {
        let src = format!(
            "game \"Zone moves\" {{ players 2 }}\nproperty points: int = 0\nzone deck: pile\n\
             zone pile: pile\nzone hand per player: set\nvar moves: int = 0\n\
             card \"Five\" {{ copies 5 points 5 }}\ncard \"One\" {{ copies 3 points 1 }}\n\
             setup {{ move box to deck\n shuffle deck }}\n\
             check {{ if count(pile) > 100 {{ moves += 1 }} }}\n\
             flow {{\n{ZONE_MOVES}\n}}\n"
        );
        game_of(&src, 7, max, false, walked)
    };
    let g = script(None, false);
    assert_eq!(end(&g), "0 8 0 28");
    // The five moves of whole zones (each checked against `exec` in debug builds, cards, zones,
    // versions, shown cards, marks and work); not `top 3 of` (a pile) nor `show`.
    assert!(statements(&g) >= 5);
    let needed = g.work();
    same_at_every_budget(needed, 10, |max, walked| script(Some(max), walked));
}

/// Lists of cards moved: from one zone, listed from its top down (`filter`: in one pass), to the
/// top and to the bottom, shown cards among them; and lists that are not so (from the bottom up,
/// from two zones, a card twice, one card) card by card.
const LIST_MOVES: &str = r#"turn seat(1) {
  move top 2 of deck to pile
  move top 3 of deck to you.hand
  show deck to you
  move filter(c in deck where c is "Five") to pile
  move filter(c in pile where c.points < 5) to you.hand bottom face up
  move [last(you.hand), first(you.hand)] to deck
  move filter(c in you.hand + deck where true) to pile bottom
  move [first(pile), first(pile)] to deck
  move filter(c in pile where c is "One") to deck
  win [you] "{count(deck)} {count(you.hand)} {count(pile)} {sum(c.points for c in deck)} {[c.points for c in pile]}"
}"#;

#[test]
fn lists_of_cards_of_one_zone_move_in_one_pass() {
    let script = |max: Option<u64>, walked: bool| {
        let src = format!(
            "game \"List moves\" {{ players 2 }}\nproperty points: int = 0\nzone deck: pile\n\
             zone pile: pile\nzone hand per player: set\n\
             card \"Five\" {{ copies 5 points 5 }}\ncard \"One\" {{ copies 3 points 1 }}\n\
             card \"Two\" {{ copies 4 points 2 }}\n\
             setup {{ move box to deck\n shuffle deck }}\n\
             flow {{\n{LIST_MOVES}\n}}\n"
        );
        game_of(&src, 7, max, false, walked)
    };
    let g = script(None, false);
    assert_eq!(end(&g), "4 0 8 8 5, 5, 5, 2, 5, 2, 2, 2");
    // Every move (each checked against `exec` in debug builds: cards, zones, versions, shown
    // cards, marks and work).
    assert!(statements(&g) >= 9);
    let needed = g.work();
    same_at_every_budget(needed, 10, |max, walked| script(Some(max), walked));
}

/// `pay` of a negative amount adds: past the largest number it is an overflow, not a panic.
#[test]
fn a_payment_past_the_largest_number_is_an_overflow() {
    let g = game(
        "round = 5\npay 0 - 9223372036854775807 - 1 from round\nwin everyone \"paid\"",
        None,
    );
    assert_eq!(end(&g), "error: arithmetic overflow (line 12)");
    let g = game(
        "round = 5\npay 0 - 4 from round\nwin everyone \"{round}\"",
        None,
    );
    assert_eq!(end(&g), "9");
}

/// The top cards of a pile into other zones: enough cards (the fast path), then fewer than asked
/// (a refill from the discard: `exec`), and the pile's top moved into the pile itself (`exec`).
const PILE_MOVES: &str = r#"turn seat(1) {
  move top 3 of deck to you.hand
  move top 2 of deck to pile bottom face up
  move top 2 of pile to you.hand
  move top 0 of deck to pile
  move top 4 of deck to pile
  move top 1 of pile to pile
  win [you] "{count(deck)} {count(you.hand)} {count(pile)} {count(discard)} {sum(c.points for c in you.hand)}"
}"#;

#[test]
fn top_cards_of_a_pile_take_the_fast_path_unless_it_runs_short() {
    let script = |flow: &str, max: Option<u64>, walked: bool| {
        let src = format!(
            "game \"Pile moves\" {{ players 2 }}\nproperty points: int = 0\n\
             zone deck: pile, refill from discard\nzone discard: pile\nzone pile: pile\n\
             zone hand per player: set\n\
             card \"Five\" {{ copies 4 points 5 }}\ncard \"One\" {{ copies 4 points 1 }}\n\
             setup {{ move box to deck\n shuffle deck\n move top 2 of deck to discard }}\n\
             flow {{\n{flow}\n}}\n"
        );
        game_of(&src, 3, max, false, walked)
    };
    let setup = statements(&script("win everyone \"none\"", None, false));
    let g = script(PILE_MOVES, None, false);
    // 6 in the deck: 3 to the hand, 2 under the pile, the pile's top 2 to the hand; 1 left, 4
    // asked: the 2 discarded cards refill the deck, 3 go to the pile.
    assert!(end(&g).starts_with("0 5 3 0 "), "{}", end(&g));
    // The first four moves of the flow (each checked against `exec` in debug builds); not the
    // move that runs short, nor the pile into itself.
    assert_eq!(statements(&g), setup + 4);
    let needed = g.work();
    same_at_every_budget(needed, 10, |max, walked| {
        script(PILE_MOVES, Some(max), walked)
    });
}

/// Assignments of values no bound clamps: a list, a player and a card to variables of a player, a
/// global and a card, a truth to a card's variable, a list to a local.
const VALUES: &str = r#"turn seat(1) {
  let hand = filter(c in deck where c.points > 0)
  repeat 3 {
    you.mine = take(deck, 2)
    leader = left(you)
    first(deck).marked = count(you.mine) > 1
    picked = first(you.mine)
    hand = you.mine
  }
  win [leader] "{count(you.mine)} {picked} {first(deck).marked} {count(hand)} {leader}"
}"#;

#[test]
fn assignments_of_any_value_take_the_fast_path_and_end_budgets_the_same_way() {
    let script = |flow: &str, max, walked| {
        let src = format!(
            "game \"Values\" {{ players 2 }}\nproperty points: int = 0\nzone deck: pile\n\
             card \"Five\" {{ copies 8 points 5 }}\nsetup {{ move box to deck }}\n\
             var mine per player: list of card = []\nvar leader: player = seat(1)\n\
             var picked: card = none\nvar marked per card: bool = false\n\
             flow {{\n{flow}\n}}\n"
        );
        game_of(&src, 1, max, false, walked)
    };
    let g = script(VALUES, None, false);
    assert_eq!(end(&g), "2 Five true 2 P2");
    // The setup's move, `let`, and the five assignments of each of the three rounds.
    assert_eq!(statements(&g), 1 + 1 + 3 * 5);
    let g = script(VALUES, None, true);
    assert_eq!(end(&g), "2 Five true 2 P2");
    let needed = g.work();
    let ended = same_at_every_budget(needed, 10, |max, walked| script(VALUES, Some(max), walked));
    assert!(
        ended > 0 && ended < needed + 10,
        "{ended} budgets ended the game"
    );
}

#[test]
fn logs_of_expressions_leave_their_errors_and_budgets_to_exec() {
    let script = |flow: &str, max, walked| {
        let src = format!(
            "game \"Logs\" {{ players 2 }}\nzone deck: pile\ncard \"Five\" {{ copies 8 }}\n\
             var big: int = 9223372036854775807\nsetup {{ move box to deck }}\n\
             flow {{\n{flow}\n}}\n"
        );
        game_of(&src, 1, max, false, walked)
    };
    // An overflow in a log's text is `exec`'s error, at the log's line; a list of lists is built by
    // `exec` (its text could grow long), which gives the same end.
    let g = script(
        "log \"{count(deck)} {big + 1}\"\nwin everyone \"no overflow\"",
        None,
        false,
    );
    assert_eq!(end(&g), "error: arithmetic overflow (line 7)");
    let nested = "let l = [[1, 2], [3]]\nlog \"{l} {count(deck)}\"\nwin everyone \"{count(l)}\"";
    let g = script(nested, None, false);
    assert_eq!(end(&g), "2");
    // The setup's move and `let`: not the log.
    assert_eq!(statements(&g), 2);
    // Every budget ends the game at the same step, with the same error, either way.
    let needed = script(LOGS, None, false).work();
    same_at_every_budget(needed, 10, |max, walked| script(LOGS, Some(max), walked));
}

/// `perform` of a card's ability and `reveal` / `hide` of a card, a zone's cards and a list, while
/// nobody records (the events are off, as in `sim`).
const TURNING: &str = r#"game "Turning" { players 2 }
property points: int = 0
abilities play
zone deck: pile, hidden
zone hand per player: set, owner
var score per player: int = 0
card "Five" {
  copies 4
  points 5
  ability play { you.score += this.points }
}
card "Blank" { copies 2 }
setup { move box to deck }
flow {
  turn seat(1) {
    move top 6 of deck to you.hand
    reveal you.hand
    hide first(you.hand)
    reveal [first(you.hand), none]
    for c in you.hand {
      perform play of c
    }
    reveal deck
    win [you] "{you.score} {count(c in you.hand where c.face_up)}"
  }
}
"#;

#[test]
fn performs_and_reveals_take_the_fast_path() {
    let game = |max: Option<u64>, walked: bool| game_of(TURNING, 1, max, false, walked);
    let g = game(None, false);
    // Four Fives perform (the Blanks have no ability: a failure, `exec`'s); every card ends face up.
    assert_eq!(end(&g), "20 6");
    // Ten statements by their fast paths, four of them the reveals and the hide and four the Fives'
    // performs (without either of those fast paths, six).
    assert_eq!(statements(&g), 10);
    let needed = g.work();
    let ended = same_at_every_budget(needed, 10, |max, walked| game(Some(max), walked));
    assert!(
        ended > 0 && ended <= needed,
        "{ended} of {needed} budgets spent"
    );
}
