//! Engine stage: menus of one parameter listed in one loop (engine/menus.rs), against the general
//! enumeration.

use crate::check::check_source;
use crate::engine::{Game, GameConfig, Status};
use std::sync::Arc;

/// Cards of three kinds and two tags; menus whose conditions test tags, kinds, a variable that no
/// parameter reads, and a property, in several orders, of one parameter and of two; identical
/// cards in a hand (merged) and in a pile (not merged).
const SCRIPT: &str = r#"
game "Menus" { players 2 }
tags type: Gem, Rock
property points: int = 0
zone hand per player: set, owner
zone row: pile
zone spent: pile
card "Ruby" { is Gem copies 5 points 3 }
card "Flint" { is Rock copies 5 points 1 }
card "Straw" { copies 4 points 2 }
var coins per player: int = 0 min 0 max 3
action polish(c in you.hand) label "Polish {c}" if c is Gem or c is Rock {
  move c to spent
  you.coins += 1
}
action sell(c in you.hand) if you.coins > 0 and not (c is Rock) and c.points >= 2 {
  move c to row
  you.coins -= 1
}
action pick(c in row) label "Pick {c}" if c is "Straw" or (c is Gem and you.coins < 2) {
  move c to you.hand
}
action drop(c in you.hand) if c.points < 2 and c is not Gem { move c to row }
action swap(c in you.hand, d in row) label "Swap {c} for {d}" if c is Gem and d is "Straw" {
  move c to row
  move d to you.hand
}
setup {
  for p in everyone { move take(box, 6) to p.hand }
  move box to row
}
flow {
  repeat 20 {
    for p in everyone {
      turn p { actions by p until pass [polish, sell, pick, drop, swap] }
    }
  }
  win everyone "done"
}
"#;

/// The options and the work of each decision of a game of `SCRIPT` with the given seed, the
/// options chosen by the seed too, labels off (built when read), menus listed with their shortcuts
/// or plainly (`plain`); and the cards its menus passed over by their kind.
fn play(seed: u64, plain: bool) -> (Vec<(Vec<String>, u64)>, u64) {
    let p = Arc::new(check_source(SCRIPT).program.expect("the script checks"));
    let mut config = GameConfig::new(2, seed);
    config.record = false;
    config.labels = false;
    config.without.menu_shortcuts = plain;
    // The walker's shortcuts: on the closures, the menus with a plan are not the walker's.
    config.engine = crate::engine::Engine::Walker;
    let mut g = Game::new(p, config);
    let mut seen = Vec::new();
    let mut pick = seed;
    while let Status::Decision(d) = g.status() {
        let n = d.options.len();
        seen.push((d.options.clone(), g.work()));
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        g.apply((pick >> 33) as usize % n).expect("applies");
        if seen.len() > 2_000 {
            break;
        }
    }
    (seen, g.counted().passed_by_kind)
}

/// Every decision lists the same options with the same work whether menus are listed with their
/// shortcuts (one loop for one parameter, tables of kinds) or plainly by the general enumeration,
/// and cards were passed over by their kind.
#[test]
fn shortcuts_list_what_the_general_enumeration_lists() {
    for seed in 1..=4 {
        let (fast, passed) = play(seed, false);
        assert!(
            passed > 0,
            "seed {seed}: no card was passed over by its kind"
        );
        let (general, passed) = play(seed, true);
        assert_eq!(
            passed, 0,
            "seed {seed}: the general enumeration passes no card over"
        );
        assert!(fast.len() > 20, "seed {seed}: {} decisions", fast.len());
        assert_eq!(fast, general, "seed {seed}");
    }
}

/// Copies of a card are one option while their card variables are equal, whether never written or
/// written back to what they were, and two options once they differ (`CardVars::same_row`), with
/// one variable and with three.
#[test]
fn copies_are_one_option_while_their_card_variables_are_equal() {
    let script = |vars: &str, written: &str| {
        format!(
            r#"
game "Rows" {{ players 2 }}
zone hand per player: set, owner
zone pile: pile
{vars}
card "Gem" {{ copies 6 }}
action play(c in you.hand) label "Play {{c}} {{c.mark}}" {{ move c to pile }}
setup {{
  move box to seat(1).hand
  let k = 0
  for c in seat(1).hand {{
    k = k + 1
    {written}
  }}
}}
flow {{ turn seat(1) {{ actions by seat(1) once [play] }} win [seat(1)] "done" }}
"#
        )
    };
    let one = "var mark per card: int = 0";
    let three = "var low per card: int = 0\nvar mark per card: int = 0\nvar high per card: int = 5";
    for vars in [one, three] {
        for (written, expected) in [
            ("", vec!["Play Gem 0"]),
            ("if k == 2 { c.mark = 1 }", vec!["Play Gem 0", "Play Gem 1"]),
            ("if k == 2 { c.mark = 1\n c.mark = 0 }", vec!["Play Gem 0"]),
            ("if k > 3 { c.mark = 1 }", vec!["Play Gem 0", "Play Gem 1"]),
        ] {
            let src = script(vars, written);
            let p = Arc::new(check_source(&src).program.expect("the script checks"));
            let mut config = GameConfig::new(2, 1);
            config.labels = true;
            let g = Game::new(p, config);
            let Status::Decision(d) = g.status() else {
                panic!("{:?}", g.status());
            };
            let mut options = d.options.clone();
            options.sort();
            assert_eq!(options, expected, "{vars} / {written}");
        }
    }
}

/// An action named twice in a menu (W006) offers its options once; a parameter over a list offers
/// each different item once, whether the list repeats items (`[2, 1, 1, 3]`) or holds different
/// ones in increasing order (`1..3`, whose options `offer` compares with none).
#[test]
fn each_option_is_offered_once() {
    let src = r#"
game "Twice" { players 2 }
card "Coin" { copies 2 }
zone pile: set
zone hand per player: set
setup { move box to pile }
action grab(c in pile) label "Grab {c}" { move c to you.hand }
action pick(n in [2, 1, 1, 3]) label "Pick {n}" { log "{n}" }
action step(n in 1..3) label "Step {n}" { log "{n}" }
flow {
  turn seat(1) { actions by seat(1) once [grab, pick, grab, step, pick] }
  win [seat(1)] "done"
}
"#;
    let checked = check_source(src);
    let codes: Vec<&str> = checked.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["W006", "W006"]);
    let p = Arc::new(checked.program.expect("the script checks"));
    let mut config = GameConfig::new(2, 1);
    config.labels = true;
    for plain in [false, true] {
        config.without.menu_shortcuts = plain;
        let g = Game::new(p.clone(), config.clone());
        let Status::Decision(d) = g.status() else {
            panic!("{:?}", g.status());
        };
        assert_eq!(
            d.options,
            [
                "Grab Coin",
                "Pick 2",
                "Pick 1",
                "Pick 3",
                "Step 1",
                "Step 2",
                "Step 3"
            ],
            "plain: {plain}"
        );
    }
}

/// A market of 20 kinds, two copies of each (more sets of identical cards than a menu keeps without
/// allocating): each kind the decider can pay for is one option, listed by the closures alone and
/// the same as the walker's, decision by decision.
#[test]
fn a_market_of_many_kinds_lists_one_option_a_kind_on_the_closures() {
    use super::oracle::{checked, config};
    use crate::engine::Engine;
    let kinds: String = (1..=20)
        .map(|k| format!("card \"K{k}\" {{ copies 2 price {} }}\n", k % 5))
        .collect();
    let src = format!(
        r#"
game "Market" {{ players 2 }}
property price: int = 0
var gold per player: int = 4 min 0
zone market: set
zone hand per player: set, owner
{kinds}
action buy(c in market) label "Buy {{c}}" if you.gold >= c.price {{
  move c to you.hand
  you.gold -= c.price
}}
setup {{ move box to market }}
flow {{
  repeat 3 {{ for p in everyone {{ turn p {{ actions by p until pass [buy] }} }} }}
  win everyone "done"
}}
"#
    );
    let program = checked(&src);
    let menus = |engine: Engine| {
        let mut g = Game::new(program.clone(), config(2, 5, engine));
        let mut seen = Vec::new();
        while let Status::Decision(d) = g.status() {
            seen.push(d.options.clone());
            let last = d.options.len() - 1;
            g.apply(last).expect("applies");
        }
        (seen, g.counted().evaluated)
    };
    let (closures, evaluated) = menus(Engine::Closures);
    let (walker, _) = menus(Engine::Walker);
    assert_eq!(closures, walker);
    // The first menu: every kind priced at most 4 (all 20), and `pass`.
    assert_eq!(closures.first().map(Vec::len), Some(21));
    assert_eq!(evaluated, 0, "the walker evaluated {evaluated} expressions");
}
