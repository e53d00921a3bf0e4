//! Command line: `cardgame play`, a person at the terminal against bots.
//!
//! It shows what the person's seat may see, what happened since their last decision, and the legal
//! options with numbers; a bad answer repeats the prompt with the reason.

use cardgame_interpreter::agents::Agent;
use cardgame_interpreter::engine::{render_event, Game, Status, View};
use cardgame_interpreter::value::Value;
use std::io::{BufRead, Write};

/// The seat's view as text: the players' variables, then every zone that holds cards.
pub fn render_view(v: &View) -> String {
    let mut s = String::new();
    for p in &v.players {
        let vars: Vec<String> = p
            .vars
            .iter()
            .map(|x| format!("{} {}", x.name, x.value))
            .collect();
        let mark = if p.seat == v.active { " (active)" } else { "" };
        let out = if p.eliminated { " [out]" } else { "" };
        s.push_str(&format!("  {}{mark}{out}: {}\n", p.name, vars.join(", ")));
    }
    if !v.globals.is_empty() {
        let vars: Vec<String> = v
            .globals
            .iter()
            .map(|x| format!("{} {}", x.name, x.value))
            .collect();
        s.push_str(&format!("  {}\n", vars.join(", ")));
    }
    for z in v.zones.iter().filter(|z| z.count > 0 && z.name != "box") {
        let seen: Vec<&str> = z.cards.iter().filter_map(|c| c.as_deref()).collect();
        let hidden = z.count - seen.len();
        let mut parts: Vec<String> = Vec::new();
        // Group identical visible cards: "City x3".
        let mut i = 0;
        while i < seen.len() {
            let mut j = i;
            while j < seen.len() && seen[j] == seen[i] {
                j += 1;
            }
            parts.push(if j - i > 1 {
                format!("{} x{}", seen[i], j - i)
            } else {
                seen[i].to_string()
            });
            i = j;
        }
        if hidden > 0 {
            parts.push(format!("{hidden} hidden"));
        }
        s.push_str(&format!(
            "  {} ({}): {}\n",
            z.name,
            z.count,
            parts.join(", ")
        ));
    }
    s
}

/// Play a game where `seat` is a person reading `input`; the others are `bots` (indexed by seat).
pub fn play(
    game: &mut Game,
    seat: u8,
    bots: &mut [Option<Box<dyn Agent>>],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    loop {
        let events = game.take_events();
        for e in &events {
            if let Some(line) = render_event(game, e, Some(seat)) {
                writeln!(out, "  | {line}")?;
            }
        }
        let d = match game.status() {
            Status::Decision(d) => d.clone(),
            Status::Over(o) => {
                let who: Vec<String> = o
                    .winners
                    .iter()
                    .map(|w| game.label(&Value::Player(*w)))
                    .collect();
                let who = if who.is_empty() {
                    "nobody wins".to_string()
                } else {
                    format!("{} wins", who.join(" and "))
                };
                writeln!(
                    out,
                    "game over: {who} ({}) after {} turns",
                    o.reason,
                    game.turns()
                )?;
                return Ok(());
            }
            Status::Error(e) => {
                writeln!(out, "the game stopped with an error: {e}")?;
                return Ok(());
            }
        };
        let choice = if d.player == seat {
            writeln!(out, "\n{}", render_view(&game.view(seat)))?;
            let prompt = if d.prompt.is_empty() {
                "Your choice".to_string()
            } else {
                d.prompt.clone()
            };
            writeln!(out, "{prompt}:")?;
            for (i, o) in d.options.iter().enumerate() {
                writeln!(out, "  {}. {o}", i + 1)?;
            }
            loop {
                write!(out, "> ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out, "\nno more input: the game is left unfinished")?;
                    return Ok(());
                }
                let answer = line.trim();
                match answer.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= d.options.len() => break n - 1,
                    Ok(n) => writeln!(
                        out,
                        "{n} is not an option: answer a number from 1 to {}",
                        d.options.len()
                    )?,
                    Err(_) => match d
                        .options
                        .iter()
                        .position(|o| o.eq_ignore_ascii_case(answer))
                    {
                        Some(i) => break i,
                        None => writeln!(
                            out,
                            "`{answer}` is not an option: answer a number from 1 to {}",
                            d.options.len()
                        )?,
                    },
                }
            }
        } else {
            match bots.get_mut(d.player as usize).and_then(|b| b.as_mut()) {
                Some(bot) => bot.choose(game, &d).min(d.options.len().saturating_sub(1)),
                None => 0,
            }
        };
        if game.apply(choice).is_err() {
            return Ok(());
        }
    }
}
