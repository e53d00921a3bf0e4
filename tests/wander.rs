//! Agents stage: players do not wander through a turn for ever. A one-step agent (`greedy`,
//! `learned`) ends the turn where an option does after 30 decisions of one turn that did not raise
//! its value, though ending it looks worse (as buying and selling at one price in Craft the Crown); a
//! play-out policy, which has no value to see its progress by, after `TURN_WANDER` decisions of one
//! turn.

use cardgame_interpreter::agents::moves::{key, Moves, Table};
use cardgame_interpreter::agents::{make_agent, wander_exits, TURN_WANDER};
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Each turn a player may swap a coin for a token and back as often as they like (the measure counts
/// both alike; the count of trades makes every position new, as a market's cards do) or pass, which
/// costs them points of the measure; three turns each.
const TRADERS: &str = r#"game "Traders" { players 2 }
var coins per player: int = 20
var tokens per player: int = 0
var passes per player: int = 0
var trades per player: int = 0
fn heuristic(p: player): int = p.coins + p.tokens - 3 * p.passes
flow {
  repeat 3 {
    for p in everyone {
      turn p {
        loop {
          choose by p {
            "buy a token" if p.coins > 0 { p.coins -= 1  p.tokens += 1  p.trades += 1 }
            "sell a token" if p.tokens > 0 { p.tokens -= 1  p.coins += 1  p.trades += 1 }
            "pass" { p.passes += 1  break }
          }
        }
      }
    }
  }
  win [] "the market closes"
}
"#;

/// The decisions of a game of Traders between two `spec` agents, which must end by its rules (the
/// limit of decisions in a turn is 500).
fn traders(spec: &str, seed: u64) -> u64 {
    let program = Arc::new(check_source(TRADERS).program.expect("the script checks"));
    let mut config = GameConfig::new(2, seed);
    config.max_decisions = 500;
    let mut game = Game::new(program.clone(), config);
    let mut agents: Vec<_> = (0..2u8)
        .map(|s| make_agent(&program, spec, seed, s).expect("agent"))
        .collect();
    let mut decisions = 0;
    while let Status::Decision(d) = game.status().clone() {
        let choice = agents[d.player as usize].choose(&game, &d);
        game.apply(choice).expect("a legal option");
        decisions += 1;
    }
    let Status::Over(over) = game.status() else {
        panic!("the game ends")
    };
    assert_eq!(over.reason, "the market closes", "{spec}, seed {seed}");
    decisions
}

#[test]
fn greedy_ends_a_turn_of_trades_that_change_nothing() {
    for seed in 1..=3u64 {
        // Six turns, each of at most 30 trades that change nothing, the pass, and a few more
        // while the value still rose.
        let decisions = traders("greedy", seed);
        assert!(decisions <= 6 * 40, "seed {seed}: {decisions} decisions");
    }
}

#[test]
fn the_searches_end_a_turn_that_ran_the_wander_limit() {
    for spec in ["search:30", "mcts:30"] {
        let decisions = traders(spec, 2);
        assert!(
            decisions <= 6 * (TURN_WANDER + 1),
            "{spec}: {decisions} decisions"
        );
    }
}

/// A game of `src` (Traders or a variant) after `trades` trades of seat 1's first decisions
/// (buying, then selling, in turn).
fn traded_in(src: &str, trades: u64) -> Game {
    let program = Arc::new(check_source(src).program.expect("the script checks"));
    let mut game = Game::new(program, GameConfig::new(2, 1));
    for k in 0..trades {
        let Status::Decision(d) = game.status().clone() else {
            panic!("a decision")
        };
        let label = if k % 2 == 0 {
            "buy a token"
        } else {
            "sell a token"
        };
        let i = d.options.iter().position(|o| o == label).expect(label);
        game.apply(i).expect("a legal option");
    }
    game
}

/// A game of Traders after `trades` trades of seat 1's first turn.
fn traded(trades: u64) -> Game {
    traded_in(TRADERS, trades)
}

#[test]
fn a_turn_that_ran_the_wander_limit_ends_by_the_options_that_hand_the_game_on() {
    assert_eq!(traded(TURN_WANDER - 1).decisions_in_turn(), TURN_WANDER - 1);
    assert_eq!(wander_exits(&traded(TURN_WANDER - 1)), None);
    let game = traded(TURN_WANDER);
    let Status::Decision(d) = game.status().clone() else {
        panic!("a decision")
    };
    let exits = wander_exits(&game).expect("exits");
    let labels: Vec<&str> = exits.iter().map(|&i| d.options[i].as_str()).collect();
    assert_eq!(labels, ["pass"]);
    // A play-out policy that would trade for ever passes there, and only there.
    let mut weights = Table::default();
    for (label, w) in [("buy a token", 5.0), ("sell a token", 5.0), ("pass", -5.0)] {
        weights.insert(key(&d.prompt, label), vec![w, 0.0]);
    }
    let policy = Moves {
        weights,
        ..Moves::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let best = |game: &Game, rng: &mut ChaCha8Rng| {
        let Status::Decision(d) = game.status().clone() else {
            panic!("a decision")
        };
        d.options[policy.best((game, &d), (&[1.0, 0.0], &mut Default::default()), rng)].clone()
    };
    assert_eq!(best(&game, &mut rng), "pass");
    assert_ne!(best(&traded(TURN_WANDER - 1), &mut rng), "pass");
    let picked = |game: &Game, rng: &mut ChaCha8Rng| {
        let Status::Decision(d) = game.status().clone() else {
            panic!("a decision")
        };
        d.options[policy.pick((game, &d), (&[1.0, 0.0], &mut Default::default()), rng)].clone()
    };
    assert!((0..20).all(|_| picked(&game, &mut rng) == "pass"));
}

#[test]
fn no_wander_is_ended_before_the_first_turn() {
    // Traders without its turns: every decision comes before the first turn, where only the end of
    // the game would end a wander (a solitaire's give-up).
    let src = TRADERS.replace("      turn p {\n", "      if true {\n");
    assert_ne!(src, TRADERS);
    let game = traded_in(&src, TURN_WANDER + 10);
    assert_eq!(game.turns(), 0);
    assert_eq!(wander_exits(&game), None);
}
