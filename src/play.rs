//! Command line: `cardgame play`, a person at the terminal against bots.
//!
//! At each of the person's decisions it shows what the seat may see (identical cards grouped, the
//! variables worth a look), then what happened since their last decision (the setup folded into one
//! line, runs of moves between the same zones into one line), then the legal options with numbers.
//! `? N` or `?NAME` prints a card's text and properties; `why` explains the bots' choices since the
//! person's last decision; a bad answer repeats the prompt with the reason.

use cardgame_interpreter::agents::{Agent, Explanation};
use cardgame_interpreter::engine::{render_event, CardEntry, Event, Game, Status, View};
use cardgame_interpreter::value::Value;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// A value of a view as the language writes it: `none`, `true`, `[a, b]`, a name without quotes.
pub fn show(v: &Json) -> String {
    match v {
        Json::Null => "none".into(),
        Json::String(s) => s.clone(),
        Json::Array(items) => format!(
            "[{}]",
            items.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        v => v.to_string(),
    }
}

/// Whether a value is the kind a player need not be told about until it changes.
fn is_blank(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::Bool(b) => !b,
        Json::Number(n) => n.as_f64() == Some(0.0),
        Json::Array(a) => a.is_empty(),
        Json::String(s) => s.is_empty(),
        Json::Object(_) => false,
    }
}

/// The cards a zone shows: identical visible cards grouped in the order the view lists them
/// ("Farming Village x4, Apprentice Maid"), then the hidden ones counted.
fn grouped(cards: &[Option<String>]) -> String {
    let mut groups: Vec<(&str, usize)> = Vec::new();
    let mut hidden = 0;
    for c in cards {
        match c.as_deref() {
            None => hidden += 1,
            Some(name) => match groups.iter_mut().find(|g| g.0 == name) {
                Some(g) => g.1 += 1,
                None => groups.push((name, 1)),
            },
        }
    }
    let mut parts: Vec<String> = groups
        .iter()
        .map(|(n, k)| {
            if *k > 1 {
                format!("{n} x{k}")
            } else {
                n.to_string()
            }
        })
        .collect();
    if hidden > 0 {
        parts.push(format!("{hidden} hidden"));
    }
    parts.join(", ")
}

/// The variables shown last time, to tell which changed: (seat or `None` for a global, name) → value.
pub type Shown = BTreeMap<(Option<u8>, String), Json>;

/// The seat's view as text: the players with the variables worth a look, then every zone that holds
/// cards. A script that declares variables `shown` (`declared`) says which ones a player looks at: only
/// those are listed, the others are its own bookkeeping. In a script that declares none, the variables
/// listed are those that changed since `shown` was recorded (when `shown` is empty, those not at a blank
/// value). `all` lists every variable. `shown` is updated.
pub fn render_view(v: &View, declared: &[&str], shown: &mut Shown, all: bool) -> String {
    let first = shown.is_empty();
    let mut pick = |seat: Option<u8>, name: &str, value: &Json| -> Option<String> {
        let key = (seat, name.to_string());
        let changed = match shown.get(&key) {
            Some(old) => old != value,
            None => !first || !is_blank(value),
        };
        shown.insert(key, value.clone());
        let worth = if declared.is_empty() {
            changed
        } else {
            declared.contains(&name)
        };
        (all || worth).then(|| format!("{name} {}", show(value)))
    };
    let mut s = String::new();
    for p in &v.players {
        let vars: Vec<String> = p
            .vars
            .iter()
            .filter_map(|x| pick(Some(p.seat), &x.name, &x.value))
            .collect();
        let mark = if p.seat == v.active { " (active)" } else { "" };
        let out = if p.eliminated { " [out]" } else { "" };
        let vars = if vars.is_empty() {
            String::new()
        } else {
            format!(": {}", vars.join(", "))
        };
        s.push_str(&format!("  {}{mark}{out}{vars}\n", p.name));
    }
    // Participants that are not seats (`participant NAME`): shown only with something to show, so
    // one the variant gives no role does not clutter the table.
    for p in &v.participants {
        let vars: Vec<String> = p
            .vars
            .iter()
            .filter_map(|x| pick(Some(p.seat), &x.name, &x.value))
            .collect();
        if !vars.is_empty() {
            s.push_str(&format!("  {}: {}\n", p.name, vars.join(", ")));
        }
    }
    let globals: Vec<String> = v
        .globals
        .iter()
        .filter_map(|x| pick(None, &x.name, &x.value))
        .collect();
    if !globals.is_empty() {
        s.push_str(&format!("  {}\n", globals.join(", ")));
    }
    for z in v.zones.iter().filter(|z| z.count > 0 && z.name != "box") {
        s.push_str(&format!(
            "  {} ({}): {}\n",
            z.name,
            z.count,
            grouped(&z.cards)
        ));
    }
    s
}

/// A run of moves between two zones: from, to, the visible cards' names with counts, the hidden count.
type Run = (String, String, Vec<(String, usize)>, usize);

/// The lines of `events` as `seat` may see them: the setup (what came before the first turn) in one
/// line, runs of moves between the same two zones in one line, the end of the game left out (the
/// caller says it once).
pub fn fold_events(game: &Game, events: &[Event], seat: u8, in_setup: &mut bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut setup = 0usize;
    let mut run: Option<Run> = None;
    let flush = |run: &mut Option<Run>, lines: &mut Vec<String>| {
        if let Some((from, to, names, hidden)) = run.take() {
            let mut parts: Vec<String> = names
                .iter()
                .map(|(n, k)| {
                    if *k > 1 {
                        format!("{n} x{k}")
                    } else {
                        n.clone()
                    }
                })
                .collect();
            match hidden {
                0 => {}
                1 if parts.is_empty() => parts.push("a card".into()),
                h => parts.push(format!("{h} cards")),
            }
            lines.push(format!("{}: {from} -> {to}", parts.join(", ")));
        }
    };
    for e in events {
        if let Event::Turn { .. } = e {
            if *in_setup && setup > 0 {
                lines.push(format!(
                    "setup: {setup} events (`cardgame run --view {}` lists them)",
                    seat + 1
                ));
            }
            *in_setup = false;
        }
        if *in_setup {
            setup += 1;
            continue;
        }
        match e {
            Event::Over { .. } => continue,
            Event::Move {
                kind,
                from,
                to,
                seen,
                ..
            } => {
                let visible = cardgame_interpreter::engine::seen_by(*seen, seat);
                let same = run.as_ref().is_some_and(|r| r.0 == *from && r.1 == *to);
                if !same {
                    flush(&mut run, &mut lines);
                    run = Some((from.clone(), to.clone(), Vec::new(), 0));
                }
                if let Some(r) = run.as_mut() {
                    if visible {
                        match r.2.iter_mut().find(|(n, _)| n == kind) {
                            Some(x) => x.1 += 1,
                            None => r.2.push((kind.clone(), 1)),
                        }
                    } else {
                        r.3 += 1;
                    }
                }
            }
            e => {
                flush(&mut run, &mut lines);
                if let Some(line) = render_event(game, e, Some(seat)) {
                    lines.push(line);
                }
            }
        }
    }
    flush(&mut run, &mut lines);
    if *in_setup && setup > 0 {
        lines.push(format!("setup: {setup} events so far"));
    }
    lines
}

/// A card's definition as text: name, tags, properties that are set, text.
fn card_text(c: &CardEntry) -> String {
    let mut s = c.name.clone();
    if !c.tags.is_empty() {
        s.push_str(&format!(" ({})", c.tags.join(", ")));
    }
    let props: Vec<String> = c
        .properties
        .iter()
        .filter(|(_, v)| !is_blank(v))
        .map(|(n, v)| format!("{n} {}", show(v)))
        .collect();
    if !props.is_empty() {
        s.push_str(&format!("\n  {}", props.join(", ")));
    }
    if !c.text.is_empty() {
        s.push_str(&format!("\n  {}", c.text));
    }
    s
}

/// The card an option's label names (the longest card name it contains).
fn card_in<'a>(label: &str, cards: &'a [CardEntry]) -> Option<&'a CardEntry> {
    cards
        .iter()
        .filter(|c| !c.name.is_empty() && label.contains(c.name.as_str()))
        .max_by_key(|c| c.name.len())
}

/// The whole numbers a card sets (not zero), for an option that names it: "cost 3, points 1".
fn numbers(c: &CardEntry) -> String {
    c.properties
        .iter()
        .filter(|(_, v)| v.is_i64() && !is_blank(v))
        .map(|(n, v)| format!("{n} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The answer to `?` followed by `query`: a number names an option's card, else a card by name.
fn ask(query: &str, options: &[String], cards: &[CardEntry]) -> String {
    let q = query.trim();
    if q.is_empty() {
        return "answer with an option's number or its text; `? N` shows the card of option N, \
                `?NAME` a card by name; `vars` shows every variable; `why` explains the bots' choices \
                since your last decision"
            .into();
    }
    if let Ok(n) = q.parse::<usize>() {
        return match options.get(n.wrapping_sub(1)) {
            Some(o) => match card_in(o, cards) {
                Some(c) => card_text(c),
                None => format!("option {n} (`{o}`) names no card"),
            },
            None => format!("there is no option {n}"),
        };
    }
    let lower = q.to_lowercase();
    let found = cards
        .iter()
        .find(|c| c.name.to_lowercase() == lower)
        .or_else(|| {
            cards
                .iter()
                .find(|c| c.name.to_lowercase().contains(&lower))
        });
    match found {
        Some(c) => card_text(c),
        None => {
            let names = cards.iter().map(|c| c.name.as_str());
            match cardgame_interpreter::diag::did_you_mean(q, names) {
                Some(h) => format!("no card is called `{q}`: {h}"),
                None => format!("no card is called `{q}`"),
            }
        }
    }
}

/// The most explanations `why` (and serve's panel) keeps: the bots' last choices since the person's
/// last decision (in a game the bots play on alone, the earlier ones are dropped).
pub const WHY_KEPT: usize = 40;

/// The answer to `why`: each bot's choice since the person's last decision, with why.
pub fn why(explained: &[Explanation]) -> String {
    if explained.is_empty() {
        return "no bot has chosen since your last decision\n".into();
    }
    explained.iter().map(|e| e.to_string()).collect()
}

/// A decision's prompt, or a plain one when the script gives none.
fn prompt_of(prompt: &str) -> String {
    if prompt.is_empty() {
        "Your choice".to_string()
    } else {
        prompt.to_string()
    }
}

/// Play a game where `seat` is a person reading `input`; the others are `bots` (indexed by seat).
pub fn play(
    game: &mut Game,
    seat: u8,
    bots: &mut [Option<Box<dyn Agent>>],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let cards = game.inventory().cards;
    let declared: Vec<String> = game
        .program()
        .vars
        .iter()
        .filter(|v| v.shown)
        .map(|v| v.name.clone())
        .collect();
    let declared: Vec<&str> = declared.iter().map(String::as_str).collect();
    let mut in_setup = true;
    let mut since: Vec<String> = Vec::new();
    let mut shown = Shown::new();
    // Why each bot chose as it did since the person's last decision (for `why`).
    let mut explained: Vec<Explanation> = Vec::new();
    loop {
        let events = game.take_events();
        since.extend(fold_events(game, &events, seat, &mut in_setup));
        let d = match game.status() {
            Status::Decision(d) => d.clone(),
            Status::Over(o) => {
                for line in &since {
                    writeln!(out, "  | {line}")?;
                }
                let who: Vec<String> = o
                    .winners
                    .iter()
                    .map(|w| game.label(&Value::Player(*w)))
                    .chain(o.participants.iter().cloned())
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
                if let Some(line) = crate::scores::scores_line(game) {
                    writeln!(out, "{line}")?;
                }
                return Ok(());
            }
            Status::Error(e) => {
                for line in &since {
                    writeln!(out, "  | {line}")?;
                }
                writeln!(out, "the game stopped with an error: {e}")?;
                return Ok(());
            }
        };
        let choice = if d.player == seat && d.options.len() == 1 {
            // A forced choice is taken for the person, and said, with what led to it.
            since.push(format!(
                "{}: `{}`, the only option, taken for you",
                prompt_of(&d.prompt),
                d.options[0]
            ));
            0
        } else if d.player == seat {
            let view = game.view(seat);
            writeln!(
                out,
                "\n{}",
                render_view(&view, &declared, &mut shown, false)
            )?;
            // What happened since the last decision, kept just above the prompt.
            if !since.is_empty() {
                writeln!(out, "since your last decision:")?;
                for line in since.drain(..) {
                    writeln!(out, "  | {line}")?;
                }
            }
            if let Some(line) = crate::scores::scores_line(game) {
                writeln!(out, "{line}")?;
            }
            writeln!(out, "{}:", prompt_of(&d.prompt))?;
            for (i, o) in d.options.iter().enumerate() {
                match card_in(o, &cards).map(numbers).filter(|n| !n.is_empty()) {
                    Some(n) => writeln!(out, "  {}. {o}  ({n})", i + 1)?,
                    None => writeln!(out, "  {}. {o}", i + 1)?,
                }
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
                if let Some(q) = answer.strip_prefix('?') {
                    writeln!(out, "{}", ask(q, &d.options, &cards))?;
                    continue;
                }
                if answer == "vars" {
                    write!(out, "{}", render_view(&view, &declared, &mut shown, true))?;
                    continue;
                }
                if answer == "why" {
                    write!(out, "{}", why(&explained))?;
                    continue;
                }
                match answer.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= d.options.len() => break n - 1,
                    Ok(n) => writeln!(
                        out,
                        "{n} is not an option: answer a number from 1 to {} (`?` for help)",
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
                            "`{answer}` is not an option: answer a number from 1 to {} (`?` for help)",
                            d.options.len()
                        )?,
                    },
                }
            }
        } else {
            match bots.get_mut(d.player as usize).and_then(|b| b.as_mut()) {
                Some(bot) => {
                    let (i, e) = bot.choose_explained(game, &d);
                    if explained.len() == WHY_KEPT {
                        explained.remove(0);
                    }
                    explained.push(e);
                    i.min(d.options.len().saturating_sub(1))
                }
                None => 0,
            }
        };
        if d.player == seat {
            explained.clear();
        }
        if game.apply(choice).is_err() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_every_identical_card_in_display_order() {
        let cards: Vec<Option<String>> = ["Farm", "Maid", "Farm", "Farm"]
            .iter()
            .map(|s| Some(s.to_string()))
            .chain([None, None])
            .collect();
        assert_eq!(grouped(&cards), "Farm x3, Maid, 2 hidden");
    }

    #[test]
    fn values_are_shown_as_the_language_writes_them() {
        let v = serde_json::json!([null, "P2", [], true, 3]);
        assert_eq!(show(&v), "[none, P2, [], true, 3]");
    }
}
