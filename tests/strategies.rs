//! Strategies tests: a script's `strategy` picks the expected option in a constructed position, falls
//! back when no rule applies, ranks with `by`; the `strategies` command; a Market Race strategy beats
//! `random`.

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use std::process::{Command, Output};
use std::sync::Arc;

/// A small market: a hand of Copper, Silver and a Farm, a market of cards of several costs.
const SHOP: &str = r#"game "Shop" { players 2 }
tags type: Treasure, Victory
property cost: int = 0
card "Copper" { is Treasure  copies 2 }
card "Silver" { is Treasure  copies 2  cost 3 }
card "Gold" { is Treasure  copies 1  cost 6 }
card "Farm" { is Victory  copies 2  cost 2 }
card "Castle" { is Victory  copies 1  cost 8 }
zone hand per player: set
zone market: set
zone discard per player: pile
var coins per player: int = 0
action play_card(c in you.hand) label "Play {c}" if c is Treasure { move c to you.discard }
action buy(c in market) label "Buy {c}" if c.cost <= you.coins { move c to you.discard }
setup {
  move cards("Copper", box) to seat(1).hand
  move first(cards("Farm", box)) to seat(1).hand
  move box to market
}
flow {
  loop {
    actions by seat(1) until pass [play_card, buy]
    let t = choose c in seat(1).discard by seat(1) prompt "Trash a card"
    move t to market
    let n = choose k in [1, 2, 3] by seat(1) prompt "Pick a number"
    choose by seat(1) prompt "How to end" {
      "Win alone with {n}" { win [seat(1)] "picked {n}" }
      "Share the win" { win everyone "shared" }
    }
  }
}

// Among the cards it may buy, the dearest; with no coins, pass.
strategy dearest "buy the dearest card" {
  prefer buy(c) by c.cost
  prefer play_card(c) if c is Treasure
  prefer pass
  otherwise first
}

// Buys a Castle only (never affordable here), else passes with coins under 3.
strategy castle_or_pass {
  prefer buy(c) if c is "Castle"
  prefer pass if you.coins < 3
}

// Trashes a Farm from the discard pile; picks the largest number.
strategy trasher "trash Farms" {
  prefer choose c in "Trash" if c is "Farm"
  prefer choose n: int by n
  prefer choose "Share"
  otherwise first
}

// A condition that fails at runtime (seat 1 has no coins): the fallback decides.
strategy broken {
  prefer pass if 10 / you.coins > 1
  otherwise first
}

// No rule ever applies: everything is the fallback's.
strategy lazy {
  prefer buy(c) if c is "Castle"
  otherwise first
}
"#;

fn shop() -> Arc<Program> {
    let checked = check_source(SHOP);
    assert!(
        checked.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        checked.diagnostics
    );
    Arc::new(checked.program.expect("the shop checks"))
}

fn index(p: &Program, name: &str) -> usize {
    p.strategies
        .iter()
        .position(|s| s.name == name)
        .expect("strategy")
}

fn labels(g: &Game) -> Vec<String> {
    g.decision().expect("a decision").options.clone()
}

fn choose(g: &mut Game, label: &str) {
    let i = labels(g)
        .iter()
        .position(|l| l == label)
        .unwrap_or_else(|| panic!("no option {label}: {:?}", labels(g)));
    g.apply(i).expect("applies");
}

#[test]
fn strategies_are_lowered_with_their_descriptions_and_fallbacks() {
    let p = shop();
    let names: Vec<&str> = p.strategies.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["dearest", "castle_or_pass", "trasher", "broken", "lazy"]
    );
    assert_eq!(p.strategies[0].description, "buy the dearest card");
    assert_eq!(p.strategies[0].rules.len(), 3);
    assert_eq!(p.strategies[0].fallback, "first");
    assert_eq!(p.strategies[1].fallback, "random");
}

#[test]
fn a_rule_picks_its_option_and_by_picks_the_largest_value() {
    let p = shop();
    let g = Game::new(p.clone(), GameConfig::new(2, 1));
    // No coins: nothing in the market costs 0, so `buy` matches no option; a Copper is played.
    let d = labels(&g);
    let pick = g.strategy_choice(index(&p, "dearest")).expect("no error");
    assert_eq!(pick.map(|i| d[i].as_str()), Some("Play Copper"));
    // With 7 coins, Gold (6) is the dearest affordable card; Silver (3) and Farm (2) are offered too.
    let mut h = with_coins(&p, 7);
    let d = labels(&h);
    assert!(d.contains(&"Buy Silver".to_string()) && d.contains(&"Buy Farm".to_string()));
    let pick = h.strategy_choice(index(&p, "dearest")).expect("no error");
    assert_eq!(pick.map(|i| d[i].as_str()), Some("Buy Gold"));
    // The game did not change: same options, same status.
    assert_eq!(labels(&h), d);
    choose(&mut h, "Buy Gold");
}

/// The shop after setup with seat 1's coins set (a test script's `given`).
fn with_coins(p: &Arc<Program>, coins: i64) -> Game {
    let src = format!("{SHOP}\ntest \"coins\" {{ given {{ seat(1).coins = {coins} }} }}\n");
    let checked = check_source(&src);
    let q = Arc::new(checked.program.expect("checks"));
    let t = &q.tests[0];
    assert_eq!(q.strategies.len(), p.strategies.len());
    Game::with_start(q.clone(), GameConfig::new(2, 1), t.given, None)
}

#[test]
fn pass_and_conditions_on_the_deciding_seat() {
    let p = shop();
    let g = Game::new(p.clone(), GameConfig::new(2, 1));
    let d = labels(&g);
    // No Castle to buy (8 coins needed), and 0 coins < 3: pass.
    let pick = g.strategy_choice(index(&p, "castle_or_pass")).expect("ok");
    assert_eq!(pick.map(|i| d[i].as_str()), Some("pass"));
    // With 5 coins no rule applies.
    let h = with_coins(&p, 5);
    assert_eq!(h.strategy_choice(index(&p, "castle_or_pass")), Ok(None));
}

#[test]
fn choose_rules_match_values_of_their_type_and_prompt() {
    let p = shop();
    let mut g = with_coins(&p, 2);
    choose(&mut g, "Buy Farm");
    choose(&mut g, "Play Copper");
    choose(&mut g, "pass");
    let d = g.decision().expect("decision").clone();
    assert_eq!(d.prompt, "Trash a card");
    assert_eq!(d.options[0], "Copper", "the Farm is not the first option");
    let s = index(&p, "trasher");
    let pick = g.strategy_choice(s).expect("ok");
    assert_eq!(pick.map(|i| d.options[i].as_str()), Some("Farm"));
    g.apply(pick.expect("a pick")).expect("applies");
    let d = labels(&g);
    // `choose n: int by n`: the largest number; the card rule does not see numbers.
    let pick = g.strategy_choice(s).expect("ok");
    assert_eq!(pick.map(|i| d[i].as_str()), Some("3"));
    g.apply(pick.expect("a pick")).expect("applies");
    // `choose "Share"`: the branch whose text starts with it (the second one).
    let d = labels(&g);
    assert_eq!(d, ["Win alone with 3", "Share the win"]);
    assert_eq!(g.strategy_choice(s), Ok(Some(1)));
}

#[test]
fn the_agent_falls_back_when_no_rule_applies() {
    let p = shop();
    let g = Game::new(p.clone(), GameConfig::new(2, 1));
    assert_eq!(g.strategy_choice(index(&p, "lazy")), Ok(None));
    let d = g.decision().expect("decision").clone();
    let mut a = make_agent(&p, "strategy:lazy", 1, 0).expect("agent");
    assert_eq!(a.name(), "strategy:lazy");
    // `otherwise first`: the first option.
    assert_eq!(a.choose(&g, &d), 0);
    let mut b = make_agent(&p, "strategy:dearest", 1, 0).expect("agent");
    assert_eq!(d.options[b.choose(&g, &d)], "Play Copper");
}

#[test]
fn an_unknown_strategy_is_an_error_with_a_suggestion() {
    let p = shop();
    let e = make_agent(&p, "strategy:dearst", 1, 0)
        .err()
        .expect("an error");
    assert!(e.contains("did you mean `dearest`"), "{e}");
}

fn cardgame(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

#[test]
fn the_strategies_command_lists_names_and_descriptions() {
    let o = cardgame(&["strategies", "examples/market-race.cardgame"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("big_money"), "{out}");
    assert!(out.contains("engine"), "{out}");
    let o = cardgame(&[
        "strategies",
        "examples/market-race.cardgame",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let list = v.as_array().expect("a list");
    assert!(list.iter().any(|s| s["name"] == "big_money"
        && s["description"].is_string()
        && s["fallback"].is_string()));
}

#[test]
fn an_unknown_strategy_on_the_command_line_exits_2() {
    let o = cardgame(&[
        "run",
        "examples/market-race.cardgame",
        "--agents",
        "strategy:big_mony,random",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("did you mean `big_money`"), "{err}");
}

/// `strategy:big_money` against `random` in 20 two-player games of Market Race, seats alternating.
#[test]
fn a_market_race_strategy_beats_random_in_most_games() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/market-race.cardgame"
    ))
    .expect("script");
    let p = Arc::new(check_source(&src).program.expect("checks"));
    let mut wins = 0;
    for i in 0..20u64 {
        let seat = (i % 2) as u8;
        let mut g = Game::new(p.clone(), GameConfig::new(2, 1000 + i));
        g.set_recording(false);
        let spec = |s: u8| {
            if s == seat {
                "strategy:big_money"
            } else {
                "random"
            }
        };
        let mut agents = [
            make_agent(&p, spec(0), i, 0).expect("agent"),
            make_agent(&p, spec(1), i, 1).expect("agent"),
        ];
        while let Status::Decision(d) = g.status() {
            let d = d.clone();
            let c = agents[d.player as usize].choose(&g, &d);
            g.apply(c).expect("applies");
        }
        if let Status::Over(o) = g.status() {
            if o.winners == [seat] {
                wins += 1;
            }
        }
    }
    assert!(wins >= 15, "big_money won {wins} of 20");
}

#[test]
fn strategies_play_in_run_sim_and_play() {
    let o = cardgame(&[
        "run",
        "examples/market-race.cardgame",
        "--agents",
        "strategy:big_money,strategy:engine",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = cardgame(&[
        "sim",
        "examples/market-race.cardgame",
        "--games",
        "20",
        "--agents",
        "strategy:victory_rush,random",
        "--format",
        "json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("strategy:victory_rush"), "{out}");
    // `play` with no input: the game is left unfinished, exit 0.
    let o = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args([
            "play",
            "examples/market-race.cardgame",
            "--agents",
            "strategy:engine",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0));
    for cmd in ["sim", "play"] {
        let o = Command::new(env!("CARGO_BIN_EXE_cardgame"))
            .args([
                cmd,
                "examples/market-race.cardgame",
                "--agents",
                "strategy:nope",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(2), "{cmd}");
    }
}

#[test]
fn the_strategies_command_on_a_script_without_strategies_or_with_errors() {
    let o = cardgame(&["strategies", "examples/duel.cardgame"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("defines no strategy"));
    let o = cardgame(&["strategies", "examples/duel.cardgame", "--format", "json"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "[]");
    let o = cardgame(&["strategies", "tests/errors/E501-strategy-fallback.cardgame"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_condition_that_fails_at_runtime_hands_the_decision_to_the_fallback() {
    let p = shop();
    let g = Game::new(p.clone(), GameConfig::new(2, 1));
    let e = g
        .strategy_choice(index(&p, "broken"))
        .expect_err("division by zero");
    assert!(e.message.contains("division by zero"), "{e}");
    let d = g.decision().expect("decision").clone();
    // The rule would have picked `pass`, the last option; `first` takes the first.
    assert_eq!(d.options.last().map(String::as_str), Some("pass"));
    let mut a = make_agent(&p, "strategy:broken", 1, 0).expect("agent");
    assert_eq!(a.choose(&g, &d), 0);
    // The game is untouched: still the same decision, no error.
    assert!(matches!(g.status(), Status::Decision(_)));
}
