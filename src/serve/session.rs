//! Command line, serve stage: the Play page's game (one per server), a person at one seat against
//! bots; what it sends is the engine's view of that seat and the trace as that seat may see it, and
//! why each bot chose as it did since the seat's last choice (`Agent::choose_explained`).

use crate::games::seat_bots;
use crate::play::fold_events;
use cardgame_interpreter::agents::{Agent, Explanation, Model};
use cardgame_interpreter::engine::{render_event, Event, Game, GameConfig, Status};
use cardgame_interpreter::program::Program;
use cardgame_interpreter::value::Value;
use serde_json::{json, Value as Json};
use std::sync::Arc;

/// The trace of one turn (or of the setup), as the seat may see it.
#[derive(serde::Serialize)]
pub struct TurnLog {
    pub title: String,
    pub lines: Vec<String>,
}

/// A game in progress at the seat `seat` (0-based).
pub struct Session {
    game: Game,
    seat: u8,
    bots: Vec<Option<Box<dyn Agent>>>,
    /// What happened since the seat's last choice.
    since: Vec<String>,
    /// Why each bot chose as it did since the seat's last choice (the last `WHY_KEPT`).
    why: Vec<Explanation>,
    /// Whether the game has not started its first turn yet.
    in_setup: bool,
    trace: Vec<TurnLog>,
}

/// Why a choice was refused; nothing changed.
pub enum Refusal {
    /// A bad request (4xx 400): an option out of range, a step that is not the current one.
    Bad(String),
    /// The game is not waiting for the seat (4xx 409).
    Conflict(String),
}

impl Session {
    /// Creates the game and runs the bots up to the seat's first decision (or the end).
    pub fn new(
        program: Arc<Program>,
        cfg: GameConfig,
        seat: u8,
        agents: &str,
        model: Option<&Arc<Model>>,
    ) -> Result<Session, String> {
        let bots = seat_bots(&program, agents, cfg.seed, cfg.players, seat, model)?;
        let mut s = Session {
            game: Game::new(program, cfg),
            seat,
            bots,
            since: Vec::new(),
            why: Vec::new(),
            in_setup: true,
            trace: vec![TurnLog {
                title: "setup".into(),
                lines: Vec::new(),
            }],
        };
        s.advance();
        Ok(s)
    }

    /// Records the pending events and lets the bots play until the seat decides or the game ends.
    fn advance(&mut self) {
        loop {
            self.collect();
            let Status::Decision(d) = self.game.status() else {
                return;
            };
            if d.player == self.seat {
                return;
            }
            let d = d.clone();
            let choice = match self
                .bots
                .get_mut(d.player as usize)
                .and_then(|b| b.as_mut())
            {
                Some(bot) => {
                    let (i, e) = bot.choose_explained(&self.game, &d);
                    if self.why.len() == crate::play::WHY_KEPT {
                        self.why.remove(0);
                    }
                    self.why.push(e);
                    i.min(d.options.len().saturating_sub(1))
                }
                None => 0,
            };
            if self.game.apply(choice).is_err() {
                self.collect();
                return;
            }
        }
    }

    /// Moves the game's new events into the trace, rendered for the seat.
    fn collect(&mut self) {
        let events = self.game.take_events();
        // As at the terminal: the setup in one line, runs of moves between two zones in one.
        let folded = fold_events(&self.game, &events, self.seat, &mut self.in_setup);
        self.since.extend(folded);
        for e in events {
            if let Event::Turn { .. } = e {
                self.trace.push(TurnLog {
                    title: String::new(),
                    lines: Vec::new(),
                });
            }
            let Some(line) = render_event(&self.game, &e, Some(self.seat)) else {
                continue;
            };
            if let Some(t) = self.trace.last_mut() {
                if t.title.is_empty() {
                    t.title = line;
                } else {
                    t.lines.push(line);
                }
            }
        }
    }

    /// Chooses option `option` (0-based) of the seat's decision; `step` (when given) must be the
    /// number of decisions made so far, so that a page showing an old position changes nothing.
    pub fn choose(&mut self, option: usize, step: Option<u64>) -> Result<(), Refusal> {
        let Status::Decision(d) = self.game.status() else {
            return Err(Refusal::Conflict("the game is over".into()));
        };
        if d.player != self.seat {
            return Err(Refusal::Conflict("it is not this seat's decision".into()));
        }
        if let Some(s) = step {
            if s != self.game.steps() {
                return Err(Refusal::Conflict(format!(
                    "the page shows step {s} but the game is at step {}: reload it",
                    self.game.steps()
                )));
            }
        }
        if option >= d.options.len() {
            return Err(Refusal::Bad(format!(
                "option {} is not one of the {} options (they are numbered from 1)",
                option + 1,
                d.options.len()
            )));
        }
        self.since.clear();
        self.why.clear();
        if let Err(e) = self.game.apply(option) {
            return Err(Refusal::Bad(e.to_string()));
        }
        self.advance();
        Ok(())
    }

    /// Everything the Play page shows, as the seat may see it.
    pub fn state(&self) -> Json {
        let g = &self.game;
        let names: Vec<String> = (0..g.players())
            .map(|p| g.label(&Value::Player(p)))
            .collect();
        let (over, error) = match g.status() {
            Status::Over(o) => (
                json!({
                    "winners": o.winners.iter().map(|w| names.get(*w as usize).cloned().unwrap_or_default()).chain(o.participants.iter().cloned()).collect::<Vec<_>>(),
                    "reason": o.reason,
                    "finished": o.finished,
                    "turns": g.turns(),
                }),
                Json::Null,
            ),
            Status::Error(e) => (Json::Null, Json::String(e.to_string())),
            Status::Decision(_) => (Json::Null, Json::Null),
        };
        let waiting_for = match g.status() {
            Status::Decision(d) if d.player != self.seat => {
                Json::String(names.get(d.player as usize).cloned().unwrap_or_default())
            }
            _ => Json::Null,
        };
        json!({
            "game": g.program().name,
            "shown": shown_vars(g.program()),
            "seat": self.seat + 1,
            "seats": names,
            "step": g.steps(),
            "turn": g.turns(),
            "view": g.view(self.seat),
            "waiting_for": waiting_for,
            // Every seat's score by the script's `fn score`, when it has one (as `play` shows it).
            "scores": crate::scores::scores(g),
            "since": self.since,
            // Why each bot chose as it did since then: the page shows it on request.
            "why": self.why,
            "trace": self.trace,
            "over": over,
            "error": error,
        })
    }
}

/// The variables the script declares `shown`: the pages list them always, others when not blank.
pub fn shown_vars(p: &Program) -> Vec<&str> {
    p.vars
        .iter()
        .filter(|v| v.shown)
        .map(|v| v.name.as_str())
        .collect()
}

/// Every card definition as the Play page shows it on demand: name, text, tags and properties
/// (public: they are printed on the cards).
pub fn cards(game: &Game) -> Json {
    let inv = game.inventory();
    Json::Array(
        inv.cards
            .iter()
            .map(|c| {
                let props: serde_json::Map<String, Json> = c.properties.iter().cloned().collect();
                json!({"name": c.name, "text": c.text, "tags": c.tags, "properties": props})
            })
            .collect(),
    )
}

/// A new game's cards: the inventory after setup of a game with the same configuration.
pub fn cards_of(program: Arc<Program>, cfg: GameConfig) -> Json {
    cards(&Game::new(program, cfg))
}
