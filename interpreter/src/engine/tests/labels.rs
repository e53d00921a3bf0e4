//! Engine stage: option labels left out while nobody reads them (docs/engine.md at fe8b0bc,
//! stage 3).

use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

const SCRIPT: &str = r#"
game "Labels" { players 2 }
zone hand per player: set, owner
zone pile: pile
card "Ruby" { copies 2 }
card "Opal" { copies 2 }
action play(c in you.hand) label "Play {c}" { move c to pile }
action give(c in you.hand, q in opponents(you)) { move c to q.hand }
setup { move box to seat(1).hand }
flow {
  turn seat(1) {
    actions by seat(1) once [play, give]
    let picked = choose up to 2 c in seat(1).hand by seat(1)
    let one = choose c in seat(1).hand + pile by seat(1)
  }
  win [seat(1)] "done"
}
"#;

fn game(labels: bool) -> Game {
    game_of(SCRIPT, 1, labels)
}

/// A two-player game of `src` with seed `seed`, nobody recording, labels on or off.
fn game_of(src: &str, seed: u64, labels: bool) -> Game {
    let p = Arc::new(check_source(src).program.expect("the script checks"));
    let mut config = GameConfig::new(2, seed);
    config.record = false;
    config.labels = labels;
    Game::new(p, config)
}

fn options(g: &Game) -> Vec<String> {
    match g.status() {
        Status::Decision(d) => d.options.clone(),
        s => panic!("{s:?}"),
    }
}

/// Without labels, every decision has the same number of options (empty strings), the game takes
/// the same course, and turning labels on labels the pending decision exactly as a labelled game does.
#[test]
fn labels_left_out_are_built_the_same_when_asked_for() {
    let mut on = game(true);
    let mut off = game(false);
    for choice in [1, 0, 0, 1] {
        let want = options(&on);
        let got = options(&off);
        assert_eq!(got.len(), want.len());
        assert!(got.iter().all(|l| l.is_empty() || l == "done"), "{got:?}");
        let mut labelled = off.clone();
        labelled.set_labels(true);
        assert_eq!(options(&labelled), want);
        on.apply(choice).expect("applies");
        off.apply(choice).expect("applies");
    }
    assert_eq!(on.status(), off.status());
}

/// A label whose text could fail is built as the options are listed, labels or not, so the game
/// stops at the same line.
#[test]
fn a_label_that_fails_stops_the_game_either_way() {
    let src = r#"
game "Fails" { players 2 }
action a(x in [1, 0]) label "Split {10 / x}" { win [you] "a" }
flow { actions by seat(1) once [a] }
"#;
    for labels in [true, false] {
        let g = game_of(src, 1, labels);
        match g.status() {
            Status::Error(e) => assert_eq!(e.line, 3, "{}", e.message),
            s => panic!("labels {labels}: {s:?}"),
        }
    }
}

/// While nobody records, a `log` whose text cannot fail is not built (the game ends the same), and
/// one whose text can fail still is, so the game stops at the same line either way.
#[test]
fn logs_nobody_reads_are_not_built_unless_they_could_fail() {
    let run = |src: &str, record: bool| {
        let p = Arc::new(check_source(src).program.expect("the script checks"));
        let mut config = GameConfig::new(2, 1);
        config.record = record;
        Game::new(p, config)
    };
    let plain = r#"
game "Logs" { players 2 }
flow {
  repeat 100 { log "{you} waits" }
  win [seat(1)] "done"
}
"#;
    let (on, off) = (run(plain, true), run(plain, false));
    assert_eq!(on.status(), off.status());
    let failing = r#"
game "Logs" { players 2 }
var zero: int = 0
flow {
  log "{10 / zero}"
  win [seat(1)] "done"
}
"#;
    for record in [true, false] {
        match run(failing, record).status() {
            Status::Error(e) => assert_eq!(e.line, 5, "{}", e.message),
            s => panic!("record {record}: {s:?}"),
        }
    }
}

/// A label that reads more than its parameters (a variable, a card's variable, a call, a count)
/// waits too when every such part gives no list or text: its parts are
/// evaluated as the options are listed (the same work as building it), and built when asked for,
/// the same text. A label showing a list is built at once.
#[test]
fn labels_reading_the_position_wait_and_are_built_the_same() {
    let src = r#"
game "Later" { players 2 }
zone hand per player: set, owner
zone pile: pile
card "Ruby" { copies 2 }
card "Opal" { copies 2 }
var target: player = seat(2)
var shown: list of card = []
var given per card: int = 0
fn twice(n: int): int = n * 2 + count(pile)
action give(c in you.hand) label "Give {c} to {target} ({c.given}, {twice(c.given)}, {count(pile)})" {
  c.given += 1
  move c to pile
}
action note(c in you.hand) label "Show {c} after {shown}" { shown = shown + [c] }
setup { move box to seat(1).hand }
flow {
  turn seat(1) { repeat 3 { actions by seat(1) once [give, note] } }
  win [seat(1)] "done"
}
"#;
    let (mut on, mut off) = (game_of(src, 1, true), game_of(src, 1, false));
    for choice in [0, 2, 0] {
        let want = options(&on);
        let got = options(&off);
        assert_eq!(got.len(), want.len());
        assert!(
            want.iter()
                .any(|l| l.starts_with("Give ") && l.contains(" to P2 (")),
            "{want:?}"
        );
        // The gifts' labels wait; the shows' (a list) are built.
        for (g, w) in got.iter().zip(&want) {
            if w.starts_with("Give") {
                assert!(g.is_empty(), "{g:?}");
            } else {
                assert_eq!(g, w);
            }
        }
        assert_eq!(on.work(), off.work(), "{want:?}");
        let mut labelled = off.clone();
        labelled.set_labels(true);
        assert_eq!(options(&labelled), want);
        assert_eq!(labelled.work(), off.work());
        on.apply(choice).expect("applies");
        off.apply(choice).expect("applies");
    }
    assert_eq!(on.status(), off.status());
}

/// Simultaneous choices, of one card and of several (`up to 2`, one decision per card, with
/// "done"): without labels the same options and course, and the pending decision labelled on
/// demand exactly as in a labelled game.
const SIMULTANEOUS: &str = r#"
game "Together" { players 2 }
zone hand per player: set, owner
zone pile: pile
card "Ruby" { copies 4 }
card "Opal" { copies 4 }
setup {
  for p in everyone {
    move top 4 of box to p.hand
  }
}
flow {
  simultaneously q in everyone choose c in q.hand prompt "Pick one" {
    move c to pile
  }
  simultaneously q in everyone choose up to 2 c in q.hand prompt "Pick some" {
    move c to pile
  }
  win everyone "done"
}
"#;

#[test]
fn simultaneous_labels_are_built_the_same_when_asked_for() {
    let (mut on, mut off) = (
        game_of(SIMULTANEOUS, 3, true),
        game_of(SIMULTANEOUS, 3, false),
    );
    let mut decisions = 0;
    while let Status::Decision(_) = on.status() {
        let want = options(&on);
        let got = options(&off);
        assert_eq!(got.len(), want.len());
        assert!(got.iter().all(|l| l.is_empty() || l == "done"), "{got:?}");
        assert!(want.iter().any(|l| l == "Ruby" || l == "Opal"), "{want:?}");
        let mut labelled = off.clone();
        labelled.set_labels(true);
        assert_eq!(options(&labelled), want);
        let choice = decisions % want.len();
        on.apply(choice).expect("applies");
        off.apply(choice).expect("applies");
        decisions += 1;
    }
    // Two single picks, then at least two decisions of the picks of several.
    assert!(decisions >= 4, "{decisions} decisions");
    assert_eq!(on.status(), off.status());
}

/// A card interpolated into a text its decider reads (a custom label, a branch's text, a prompt) is
/// written as the decider may see it: "a card from P1.hand" while it is hidden from the decider, its
/// name once it was shown; built eagerly or when read, the same.
#[test]
fn texts_shown_to_a_decider_name_only_the_cards_it_may_see() {
    let src = r#"
game "Hidden" { players 2 }
card "Rope" { copies 2 }
zone hand per player: set, owner
setup { move box to seat(1).hand }
action grab(c in seat(1).hand) label "Take {c}" { }
flow {
  turn seat(2) {
    let c = first(seat(1).hand)
    choose by seat(2) prompt "Is it {c}?" {
      "Guess {c}" { }
      "Pass" { }
    }
    show c to seat(2)
    actions by seat(2) once [grab]
  }
  win [seat(1)] "done"
}
"#;
    for labels in [true, false] {
        let mut g = game_of(src, 1, labels);
        g.set_labels(true);
        let Status::Decision(d) = g.status() else {
            panic!("a decision");
        };
        assert_eq!(d.prompt, "Is it a card from P1.hand?", "labels {labels}");
        assert_eq!(d.options, ["Guess a card from P1.hand", "Pass"]);
        g.apply(1).expect("applies");
        // Shown now: the label names it.
        assert_eq!(options(&g)[0], "Take Rope", "labels {labels}");
    }
}
