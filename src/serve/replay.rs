//! Command line, serve stage: the Replay page's games. A seeded game is played once by the agents
//! (its choices kept), then any step of it is rebuilt by replaying those choices in the engine and
//! shown from one seat's view or from all of them.

use cardgame_interpreter::agents::{make_agent_with, Model};
use cardgame_interpreter::engine::{render_event, Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::value::Value;
use serde_json::{json, Value as Json};
use std::sync::{Arc, Mutex};

/// Replays kept: the choices of the last games asked for, by seed.
const KEPT: usize = 16;

/// The choices of the games replayed so far (the most recent last).
#[derive(Default)]
pub struct Replays {
    games: Mutex<Vec<(u64, Arc<Vec<u32>>)>>,
}

/// Plays the game of `cfg` with `agents` by seat (the last one filling the remaining seats, as for
/// `cardgame run`) and returns the option chosen at each decision.
fn record(
    program: &Arc<Program>,
    cfg: GameConfig,
    (agents, model): (&str, Option<&Arc<Model>>),
) -> Result<Vec<u32>, String> {
    let specs: Vec<&str> = agents.split(',').map(str::trim).collect();
    let mut seats = Vec::new();
    for seat in 0..cfg.players {
        let spec = specs
            .get(seat as usize)
            .or(specs.last())
            .copied()
            .unwrap_or("random");
        seats.push(make_agent_with(program, spec, cfg.seed, seat, model)?);
    }
    let mut cfg = cfg;
    cfg.record = false;
    let mut game = Game::new(program.clone(), cfg);
    while let Status::Decision(d) = game.status() {
        let d = d.clone();
        let n = seats.len();
        let choice = seats[d.player as usize % n]
            .choose(&game, &d)
            .min(d.options.len().saturating_sub(1));
        if game.apply(choice).is_err() {
            break;
        }
    }
    Ok(game
        .history()
        .map(|h| h.choices.clone())
        .unwrap_or_default())
}

impl Replays {
    pub fn clear(&self) {
        if let Ok(mut g) = self.games.lock() {
            g.clear();
        }
    }

    /// The choices of the game of `cfg` (its seed), played now or earlier.
    fn choices(
        &self,
        program: &Arc<Program>,
        cfg: &GameConfig,
        agents: (&str, Option<&Arc<Model>>),
    ) -> Result<Arc<Vec<u32>>, String> {
        if let Ok(g) = self.games.lock() {
            if let Some((_, c)) = g.iter().find(|(s, _)| *s == cfg.seed) {
                return Ok(c.clone());
            }
        }
        let c = Arc::new(record(program, cfg.clone(), agents)?);
        if let Ok(mut g) = self.games.lock() {
            if g.len() >= KEPT {
                g.remove(0);
            }
            g.push((cfg.seed, c.clone()));
        }
        Ok(c)
    }

    /// Step `step` of the game (0: after the setup, N: after N decisions) seen by `seat` (0-based;
    /// `None`: every seat, and the events as nobody in particular sees them).
    pub fn step(
        &self,
        program: &Arc<Program>,
        cfg: GameConfig,
        agents: (&str, Option<&Arc<Model>>),
        step: u64,
        seat: Option<u8>,
    ) -> Result<Json, String> {
        let choices = self.choices(program, &cfg, agents)?;
        let total = choices.len() as u64;
        if step > total {
            return Err(format!(
                "step {step} is past the end of the game: its steps go from 0 to {total}"
            ));
        }
        let seed = cfg.seed;
        let mut game = Game::new(program.clone(), cfg);
        let mut events = game.take_events();
        for &c in choices.iter().take(step as usize) {
            events.clear();
            if game.apply(c as usize).is_err() {
                return Err("the replay went out of step with the game".into());
            }
            events = game.take_events();
        }
        let names: Vec<String> = (0..game.players())
            .map(|p| game.label(&Value::Player(p)))
            .collect();
        let lines: Vec<String> = events
            .iter()
            .filter_map(|e| render_event(&game, e, seat))
            .collect();
        let views: Vec<_> = match seat {
            Some(s) => vec![game.view(s)],
            None => (0..game.players()).map(|s| game.view(s)).collect(),
        };
        // The pending decision: its options only for the seat that decides (or for all seats).
        let decision = match game.status() {
            Status::Decision(d) => {
                let mine = seat.is_none_or(|s| s == d.player);
                json!({
                    "player": names.get(d.player as usize),
                    "prompt": if mine { d.prompt.clone() } else { String::new() },
                    "options": if mine { d.options.clone() } else { Vec::new() },
                    "chosen": if mine { choices.get(step as usize).map(|c| *c as u64) } else { None },
                })
            }
            _ => Json::Null,
        };
        let over = match game.status() {
            Status::Over(o) => json!({
                "winners": o.winners.iter().map(|w| names.get(*w as usize).cloned().unwrap_or_default()).chain(o.participants.iter().cloned()).collect::<Vec<_>>(),
                "reason": o.reason,
                "finished": o.finished,
            }),
            _ => Json::Null,
        };
        let error = match game.status() {
            Status::Error(e) => Json::String(e.to_string()),
            _ => Json::Null,
        };
        Ok(json!({
            "game": game.program().name,
            "shown": super::session::shown_vars(game.program()),
            "seed": seed,
            "step": step,
            "steps": total,
            "turn": game.turns(),
            "seat": seat.map(|s| s + 1),
            "seats": names,
            "events": lines,
            "views": views,
            "decision": decision,
            "over": over,
            "error": error,
        }))
    }
}
