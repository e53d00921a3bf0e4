//! Heavy checks, run on demand with `cargo test --release -- --ignored`: a thousand seeded random games
//! of every script for every supported player count (and the variants of the games), each of which must
//! end by the script's rules, with no engine error and none stopped by the turn limit.

use cardgame_interpreter::check::check_source;
use cardgame_interpreter::program::{OptionKind, Program};
use cardgame_interpreter::sim::{simulate, SimConfig};
use cardgame_interpreter::value::Value;
use std::sync::Arc;

fn program(path: &str) -> Arc<Program> {
    let src =
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("script");
    Arc::new(check_source(&src).program.expect("the script checks"))
}

/// Option values by name, as on the command line.
fn options(
    p: &Program,
    set: &[(&str, &str)],
) -> Vec<(cardgame_interpreter::program::OptionId, Value)> {
    set.iter()
        .map(|(k, v)| {
            let i = p.options.iter().position(|o| o.name == *k).expect("option");
            let value = match &p.options[i].kind {
                OptionKind::Bool => Value::Bool(*v == "true"),
                OptionKind::Int { .. } => Value::Int(v.parse().expect("number")),
                OptionKind::OneOf(vals) => {
                    Value::Int(vals.iter().position(|x| x == v).expect("value") as i64)
                }
            };
            (cardgame_interpreter::program::OptionId(i as u16), value)
        })
        .collect()
}

fn thousand_games(path: &str, players: u8, opts: &[(&str, &str)]) -> String {
    games_ending(path, players, opts, 0)
}

/// A thousand games; at most `stalls` of them may reach the (generous) turn limit, for a game whose
/// rulebook allows positions that never end.
fn games_ending(path: &str, players: u8, opts: &[(&str, &str)], stalls: u64) -> String {
    let p = program(path);
    let cfg = SimConfig {
        games: 1000,
        players,
        seed: 2026,
        jobs: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        agents: vec!["random".into()],
        rotate: true,
        options: options(&p, opts),
        settings: Vec::new(),
        max_turns: 10_000,
        max_decisions: cardgame_interpreter::engine::DEFAULT_MAX_DECISIONS,
        max_steps: cardgame_interpreter::engine::DEFAULT_MAX_STEPS,
        engine: Default::default(),
        shard: None,
        model: None,
        course: false,
        curves: Vec::new(),
    };
    let r = simulate(&p, &cfg, &|| ()).expect("simulation");
    assert_eq!(
        r.error_count, 0,
        "{path} {players}p {opts:?}: {:?}",
        r.errors
    );
    assert!(
        r.unfinished <= stalls,
        "{path} {players}p {opts:?}: {} games stopped at the turn limit",
        r.unfinished
    );
    assert_eq!(r.finished + r.unfinished, 1000);
    if r.unfinished > 0 {
        println!(
            "  {} games reached the turn limit of {}; replay with `cardgame run {path}` and:",
            r.unfinished, cfg.max_turns
        );
        for g in &r.stalls {
            println!("    {}", g.replay);
        }
    }
    format!("{path} {players}p {opts:?}: {:?}", r.end_reasons)
}

fn every_player_count(path: &str) {
    let p = program(path);
    for n in p.min_players..=p.max_players {
        println!("{}", thousand_games(path, n, &[]));
    }
}

/// Heart of Crown's rulebook has no end for a table where every deck has shrunk to cards that cannot buy
/// anything (random players paying for Contribution until only, say, a Farming Village and a
/// Contribution are left): a few random games in a thousand reach that deadlock (notes/heart-of-crown-gaps.md
/// gives the seeds; the test prints the flags that replay each). No rule is invented to end them: they
/// may stop at the turn limit, at most 3% of a run (30 of 1,000); every other game must end by
/// coronation, overtime or Judgement, and no game may meet an engine error.
#[test]
#[ignore = "heavy: 1,000 games per player count"]
fn heart_of_crown_thousand_games() {
    let g = "games/heart-of-crown.cardgame";
    for players in 2..=4 {
        println!("{}", games_ending(g, players, &[], 30));
    }
    println!("{}", games_ending(g, 2, &[("rares_out", "true")], 30));
    println!(
        "{}",
        games_ending(g, 3, &[("seating", "hand_elimination")], 30)
    );
}

#[test]
#[ignore = "heavy: 1,000 games per player count"]
fn craft_the_crown_thousand_games() {
    every_player_count("games/craft-the-crown.cardgame");
}

#[test]
#[ignore = "heavy: 1,000 games per player count and variant"]
fn crayne_thousand_games() {
    every_player_count("games/crayne.cardgame");
    let g = "games/crayne.cardgame";
    for d in ["easy", "normal", "hard", "challenging"] {
        println!(
            "{}",
            thousand_games(g, 1, &[("variant", "deathmatch"), ("difficulty", d)])
        );
        println!(
            "{}",
            thousand_games(g, 2, &[("variant", "coop"), ("difficulty", d)])
        );
    }
    println!("{}", thousand_games(g, 4, &[("variant", "teams")]));
    println!(
        "{}",
        thousand_games(g, 6, &[("variant", "teams"), ("team_split", "halves")])
    );
    println!(
        "{}",
        thousand_games(g, 6, &[("variant", "teams"), ("team_split", "pairs")])
    );
}

#[test]
#[ignore = "heavy: 1,000 games per player count"]
fn crafty_explorers_thousand_games() {
    every_player_count("games/crafty-explorers.cardgame");
}

#[test]
#[ignore = "heavy: 1,000 games per player count"]
fn examples_thousand_games() {
    for e in [
        "examples/market-race.cardgame",
        "examples/duel.cardgame",
        "examples/secret-bids.cardgame",
        "examples/monty-hall.cardgame",
        "examples/two-piles.cardgame",
    ] {
        every_player_count(e);
    }
}
