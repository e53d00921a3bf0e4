//! Strategies tests: a script's `strategy` picks the expected option in a constructed position, falls
//! back when no rule applies, ranks with `by`; the `strategies` command; a Market Race strategy beats
//! `random`; rule sets (`rules NAME { ... }`) spliced in with `use` decide as the same rules inline.

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, RulesOf, Status};
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

// ───────────────────────────── rule sets ─────────────────────────────

fn market_race_source() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/market-race.cardgame"
    ))
    .expect("script")
}

fn checked(src: &str) -> Arc<Program> {
    let c = check_source(src);
    assert!(
        c.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        c.diagnostics
    );
    Arc::new(c.program.expect("the script checks"))
}

/// Market Race with the rules of `plays` written inline in `money_actions` instead of `use plays`.
fn market_race_inline() -> String {
    let src = market_race_source();
    let start = src.find("rules plays").expect("the rule set");
    let open = start + src[start..].find("{\n").expect("its body") + 2;
    let close = open + src[open..].find("}\n").expect("its end");
    let rules = &src[open..close];
    assert_eq!(rules.lines().count(), 6, "{rules}");
    assert_eq!(src.matches("  use plays\n").count(), 1);
    src.replace("  use plays\n", rules)
}

/// A strategy with `use plays` decides exactly as the same strategy with the rule set's rules written
/// inline: over whole games against `random` (seats alternating), at every decision of either seat
/// both pick the same option (the fallback included: same seeds), and the games are the same.
#[test]
fn a_strategy_with_use_decides_exactly_as_with_the_rules_inline() {
    let used = checked(&market_race_source());
    let inline = checked(&market_race_inline());
    let i = index(&used, "money_actions");
    assert_eq!(used.strategies[i].rules.len(), 15);
    assert_eq!(
        inline.strategies[index(&inline, "money_actions")]
            .rules
            .len(),
        15
    );
    assert!(inline.rule_sets.iter().any(|r| r.name == "plays"));
    let mut decisions = 0;
    for n in 0..6u64 {
        let seat = (n % 2) as u8;
        let spec = |s: u8| {
            if s == seat {
                "strategy:money_actions"
            } else {
                "random"
            }
        };
        let mut a = Game::new(used.clone(), GameConfig::new(2, 500 + n));
        let mut b = Game::new(inline.clone(), GameConfig::new(2, 500 + n));
        let mut agents_a = [
            make_agent(&used, spec(0), n, 0).expect("agent"),
            make_agent(&used, spec(1), n, 1).expect("agent"),
        ];
        let mut agents_b = [
            make_agent(&inline, spec(0), n, 0).expect("agent"),
            make_agent(&inline, spec(1), n, 1).expect("agent"),
        ];
        while let Status::Decision(d) = a.status() {
            let d = d.clone();
            assert_eq!(Some(&d), b.decision(), "game {n}");
            assert_eq!(
                a.strategy_choice(i),
                b.strategy_choice(index(&inline, "money_actions")),
                "game {n}: {:?}",
                d.options
            );
            let p = d.player as usize;
            let (ca, cb) = (agents_a[p].choose(&a, &d), agents_b[p].choose(&b, &d));
            assert_eq!(ca, cb, "game {n}: {:?}", d.options);
            a.apply(ca).expect("applies");
            b.apply(cb).expect("applies");
            decisions += 1;
        }
        assert!(matches!(a.status(), Status::Over(_)), "game {n}");
        assert_eq!(
            format!("{:?}", a.status()),
            format!("{:?}", b.status()),
            "game {n}"
        );
    }
    assert!(decisions > 300, "{decisions} decisions");
}

/// Rule sets nest: a rule set may `use` another, and the rules come in the order written.
#[test]
fn rule_sets_splice_in_order_and_nest() {
    let src = format!(
        "{SHOP}\nrules buying {{ prefer buy(c) if c is \"Castle\"  use cheap }}\n\
         rules cheap \"the cheapest\" {{ prefer buy(c) by 0 - c.cost }}\n\
         rules nothing {{ }}\n\
         strategy layered {{ prefer play_card(c) if c is \"Silver\"  use nothing  use buying  prefer pass  otherwise first }}\n"
    );
    let p = checked(&src);
    let names: Vec<(&str, usize, &str)> = p
        .rule_sets
        .iter()
        .map(|r| (r.name.as_str(), r.rules.len(), r.description.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("buying", 2, ""),
            ("cheap", 1, "the cheapest"),
            ("nothing", 0, "")
        ]
    );
    let s = &p.strategies[index(&p, "layered")];
    let spans: Vec<&str> = s
        .rules
        .iter()
        .map(|r| &src[r.span.start..r.span.end])
        .collect();
    assert_eq!(
        spans,
        [
            "prefer play_card(c) if c is \"Silver\"",
            "prefer buy(c) if c is \"Castle\"",
            "prefer buy(c) by 0 - c.cost",
            "prefer pass",
        ]
    );
    // At the first menu (two Coppers and a Farm in hand, no coins): no Silver to play, nothing to
    // buy, so the strategy's last rule passes; the rule sets alone have no rule that applies.
    let g = Game::new(p.clone(), GameConfig::new(2, 1));
    let d = g.decision().expect("a decision").clone();
    let pick = g.strategy_choice(index(&p, "layered")).expect("no error");
    assert_eq!(pick.map(|i| d.options[i].as_str()), Some("pass"));
    for set in 0..p.rule_sets.len() {
        assert_eq!(g.rules_choice(RulesOf::RuleSet(set)), Ok(None));
    }
    // A rule set that does apply picks as a strategy with the same rules would.
    let src = format!(
        "{SHOP}\nrules playing {{ prefer play_card(c) if c is \"Farm\"  prefer play_card(c) }}\n"
    );
    let p = checked(&src);
    let g = Game::new(p.clone(), GameConfig::new(2, 1));
    let d = g.decision().expect("a decision").clone();
    let pick = g.rules_choice(RulesOf::RuleSet(0)).expect("no error");
    assert_eq!(pick.map(|i| d.options[i].as_str()), Some("Play Copper"));
}

/// `strategy:NAME` naming a rule set is refused with what a rule set is and how to use one; ismcts's
/// `strict=NAME` takes a rule set (or a strategy), its POLICY only a strategy.
#[test]
fn a_rule_set_is_not_a_player_but_strict_follows_it() {
    let p = checked(&market_race_source());
    let e = make_agent(&p, "strategy:plays", 1, 0)
        .err()
        .expect("refused");
    insta::assert_snapshot!(e, @"`plays` is a rule set, not a strategy: a rule set is not a player (it has no `otherwise` for the decisions its rules leave open). Follow its rules in a search with ismcts's `strict=plays` (`ismcts:1s:POLICY:strict=plays`), or play them in a strategy that starts with `use plays` (`strategy NAME { use plays  otherwise random }`)");
    let e = make_agent(&p, "ismcts:20:plays:end", 1, 0)
        .err()
        .expect("refused");
    assert!(
        e.starts_with("`plays` is a rule set, not a strategy"),
        "{e}"
    );
    for spec in [
        "ismcts:20:money_actions:end:strict=plays:owners",
        "ismcts:20:money_actions:end:strict=big_money",
    ] {
        let a = make_agent(&p, spec, 1, 0).expect("agent");
        assert_eq!(a.name(), spec);
    }
    let e = make_agent(&p, "ismcts:20:money_actions:strict=plys", 1, 0)
        .err()
        .expect("refused");
    insta::assert_snapshot!(e, @"`ismcts:20:money_actions:strict=plys`: no rule set or strategy is named `plys`: did you mean `plays`?");
    let o = cardgame(&[
        "run",
        "examples/market-race.cardgame",
        "--agents",
        "strategy:plays,random",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a rule set is not a player"));
}

/// `cardgame strategies` lists the strategies as before, then the rule sets under their own heading;
/// in JSON, the rule sets follow the strategies with `"kind": "rules"` and no agent.
#[test]
fn the_strategies_command_lists_rule_sets_after_the_strategies() {
    let o = cardgame(&["strategies", "examples/market-race.cardgame"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!(String::from_utf8_lossy(&o.stdout), @r"
    strategy:big_money  (8 rules, otherwise random)
        Castle at 8, Gold at 6 early, Manor at 5, Silver at 3 early, else a Farm
    strategy:engine  (10 rules, otherwise random)
        play Actions first; up to 3 Actions early, then points, then money
    strategy:victory_rush  (4 rules, otherwise random)
        buy the most points you can, else the dearest Treasure
    strategy:money_actions  (15 rules, otherwise random)
        Big Money with early Festivals and Carts; Carts first, a Forge last for points

    rule sets (not players: `use NAME` in a strategy, or ismcts's `strict=NAME`):
    rules plays  (6 rules)
        money_actions' plays and Forge choices
    ");
    let o = cardgame(&[
        "strategies",
        "examples/market-race.cardgame",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let list = v.as_array().expect("a list");
    assert_eq!(list.len(), 5);
    assert!(list[..4]
        .iter()
        .all(|s| s["agent"].is_string() && s.get("kind").is_none()));
    insta::assert_snapshot!(serde_json::to_string_pretty(&list[4]).expect("json"), @r#"
    {
      "description": "money_actions' plays and Forge choices",
      "kind": "rules",
      "name": "plays",
      "rules": 6
    }
    "#);
}

/// Long chains and cycles of `use` are checked without recursion: no hang, no stack overflow.
#[test]
fn long_chains_and_cycles_of_use_are_checked_quickly() {
    let head = "game \"G\" { players 2 }\nzone z: set\naction grab(c in z) { move c to box }\nflow { turn seat(1) { actions by active until pass [grab] } }\n";
    let n = 50_000;
    let mut chain = String::from(head);
    for i in 0..n {
        chain.push_str(&format!(
            "rules r{i} {{ prefer grab(c)  use r{} }}\n",
            i + 1
        ));
    }
    chain.push_str(&format!(
        "rules r{n} {{ prefer pass }}\nstrategy s {{ use r{} }}\n",
        n - 5
    ));
    let started = std::time::Instant::now();
    let c = check_source(&chain);
    // r0 would hold 50,001 rules: E504 for the first rule sets, none for those near the end.
    let codes: Vec<&str> = c.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E504"]);
    // The same chain closed into a cycle: one E503 (and r0, which would hold every rule once, an E504).
    let cycle = chain.replace(
        &format!("rules r{n} {{ prefer pass }}"),
        &format!("rules r{n} {{ use r0 }}"),
    );
    let c = check_source(&cycle);
    assert_eq!(c.diagnostics.iter().filter(|d| d.code == "E503").count(), 1);
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}
