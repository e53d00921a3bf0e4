//! Engine stage: trace events and their one-line text rendering (omniscient or from one seat).

use super::Game;

/// Whether seat `seat` saw a moved card, from the event's `seen` bit set (seats past 64 see nothing).
pub fn seen_by(seen: u64, seat: u8) -> bool {
    seat < 64 && seen & (1u64 << seat) != 0
}

/// Something that happened, in order. Seats are 0-based.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    Turn {
        turn: u32,
        player: u8,
        name: String,
    },
    Phase {
        name: String,
    },
    Decision {
        player: u8,
        prompt: String,
        options: Vec<String>,
        chosen: String,
        /// What the other seats see instead of `chosen` when it names a card they may not see
        /// ("a card", "an action").
        #[serde(skip)]
        hidden: Option<String>,
    },
    Move {
        card: u32,
        kind: String,
        from: String,
        to: String,
        face_up: bool,
        /// Seats (bit mask) that may see the card before or after the move.
        #[serde(skip)]
        seen: u64,
    },
    Shuffle {
        zone: String,
        /// The zone whose cards were shuffled in beneath (a refill).
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    Reveal {
        card: u32,
        kind: String,
        zone: String,
        face_up: bool,
    },
    /// `show C to P`: the card became visible to one player (`player`) alone.
    Shown {
        card: u32,
        kind: String,
        zone: String,
        player: u8,
    },
    Log {
        text: String,
    },
    /// `log "text" to P`: a line of P's private log, which the other seats do not read.
    #[serde(rename = "private_log")]
    Told {
        player: u8,
        text: String,
    },
    Fail {
        line: usize,
    },
    Eliminated {
        player: u8,
        name: String,
    },
    /// `eliminate P for round`.
    #[serde(rename = "out_for_round")]
    OutForRound {
        player: u8,
        name: String,
    },
    /// A round ended; the players out for the round are back (seats, and their names).
    #[serde(rename = "round_end")]
    RoundEnd {
        back: Vec<u8>,
        names: Vec<String>,
    },
    Over {
        winners: Vec<u8>,
        /// The participants that won, by name (see `Outcome::participants`).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        participants: Vec<String>,
        reason: String,
        finished: bool,
    },
    Error {
        message: String,
        line: usize,
    },
}

/// One line of text for an event; `viewer` None is omniscient, else what that seat may see.
pub fn render_event(game: &Game, event: &Event, viewer: Option<u8>) -> Option<String> {
    let name = |p: u8| {
        game.names()
            .get(p as usize)
            .cloned()
            .unwrap_or_else(|| format!("P{}", p as u32 + 1))
    };
    Some(match event {
        Event::Turn { turn, player, .. } => format!("turn {turn}: {}", name(*player)),
        Event::Phase { name } => format!("phase {name}"),
        Event::Decision {
            player,
            chosen,
            hidden,
            ..
        } => match hidden {
            Some(h) if viewer.is_some_and(|v| v != *player) => {
                format!("{} chooses {h}", name(*player))
            }
            _ => format!("{} chooses \"{chosen}\"", name(*player)),
        },
        Event::Move {
            kind,
            from,
            to,
            seen,
            ..
        } => {
            let visible = viewer.is_none_or(|v| seen_by(*seen, v));
            if visible {
                format!("{kind}: {from} -> {to}")
            } else {
                format!("a card: {from} -> {to}")
            }
        }
        Event::Shuffle { zone, from } => match from {
            Some(f) => format!("{zone} shuffled from {f}"),
            None => format!("{zone} shuffled"),
        },
        Event::Reveal {
            kind,
            zone,
            face_up,
            ..
        } => {
            if *face_up {
                format!("{kind} revealed in {zone}")
            } else {
                format!("{kind} hidden in {zone}")
            }
        }
        Event::Shown {
            kind, zone, player, ..
        } => {
            if viewer.is_none_or(|v| v == *player) {
                format!("{kind} in {zone} shown to {}", name(*player))
            } else {
                format!("a card in {zone} shown to {}", name(*player))
            }
        }
        Event::Log { text } => format!("log: {text}"),
        Event::Told { player, text } => match viewer {
            Some(v) if v != *player => return None,
            _ => format!("log to {}: {text}", name(*player)),
        },
        Event::Fail { line } => format!("failed at line {line}"),
        Event::Eliminated { player, .. } => format!("{} is eliminated", name(*player)),
        Event::OutForRound { player, .. } => format!("{} is out for the round", name(*player)),
        Event::RoundEnd { back, .. } => {
            let back: Vec<String> = back.iter().map(|&p| name(p)).collect();
            match back.len() {
                0 => "the round ends".to_string(),
                1 => format!("the round ends: {} is back", back[0]),
                _ => format!("the round ends: {} are back", back.join(", ")),
            }
        }
        Event::Over {
            winners,
            participants,
            reason,
            ..
        } => {
            if winners.is_empty() && participants.is_empty() {
                format!("game over: nobody wins ({reason})")
            } else {
                let w: Vec<String> = winners
                    .iter()
                    .map(|&p| name(p))
                    .chain(participants.iter().cloned())
                    .collect();
                format!(
                    "game over: {} {} ({reason})",
                    w.join(", "),
                    if w.len() == 1 { "wins" } else { "win" }
                )
            }
        }
        Event::Error { message, line } => format!("error: line {line}: {message}"),
    })
}
