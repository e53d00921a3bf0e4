//! Agents stage: a one-step agent (`greedy`, `learned`) does not wander through positions it judges
//! alike: after `WANDER_LIMIT` decisions of one turn that did not raise its value, it ends the turn
//! where an option does, though ending it looks worse (as buying and selling at one price in Craft
//! the Crown).

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
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

#[test]
fn greedy_ends_a_turn_of_trades_that_change_nothing() {
    let program = Arc::new(check_source(TRADERS).program.expect("the script checks"));
    for seed in 1..=3u64 {
        let mut config = GameConfig::new(2, seed);
        config.max_decisions = 500;
        let mut game = Game::new(program.clone(), config);
        let mut agents: Vec<_> = (0..2u8)
            .map(|s| make_agent(&program, "greedy", seed, s).expect("agent"))
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
        assert_eq!(over.reason, "the market closes", "seed {seed}");
        // Six turns, each of at most 30 trades that change nothing, the pass, and a few more
        // while the value still rose.
        assert!(decisions <= 6 * 40, "seed {seed}: {decisions} decisions");
    }
}
