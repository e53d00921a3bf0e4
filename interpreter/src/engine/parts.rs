//! Engine stage: what each option of the pending decision is made of, as its decider may see it:
//! the words a learned play-out policy weighs beside the option's label (`agents/moves.rs`).
//!
//! A label ("Harvest at (1,2)") names an option; its *parts* say what it does with what: the
//! action's name, then each argument described by what it is, never where it lies: a card by its
//! kind, a space by the top card of each zone attached to it, a player by its seat relative to the
//! decider. Two options on different spaces whose tiles are of one kind share their parts, so what a
//! policy learns of one serves the other. A card the decider may not see is `hidden`.

use super::label::hidden_from;
use super::strategy::Offered;
use super::Game;
use crate::value::Value;
use cardgame_grammar::ast::Scope;

impl Game {
    /// The parts of each option of the pending decision, in the order of `Decision::options`, as
    /// `seat` may see them (see the module's notes): `pass` for a menu's `pass` or a multiple
    /// choice's `done`; for a menu's option, its action's name, then `NAME I=WORD` for each word
    /// describing its `I`-th argument; for a choice's option, `=WORD` for each word describing the
    /// value. A branch's option has none (its label says it all). Empty without a decision.
    pub fn option_parts(&self, seat: u8) -> Vec<Vec<String>> {
        let mut parts: Vec<Vec<String>> = Vec::new();
        self.each_option_part(seat, &mut |option, part| {
            if parts.len() <= option {
                parts.resize_with(option + 1, Vec::new);
            }
            parts[option].push(part.to_string());
        });
        let options = self.decision().map_or(0, |d| d.options.len());
        parts.resize_with(options.max(parts.len()), Vec::new);
        parts
    }

    /// Calls `part(option, text)` with each part of each option of the pending decision, in the
    /// order of [`Game::option_parts`], each written in one buffer (no text is kept).
    pub fn each_option_part(&self, seat: u8, part: &mut dyn FnMut(usize, &str)) {
        use std::fmt::Write;
        let mut text = String::new();
        for (option, offered) in self.offered_options().into_iter().enumerate() {
            text.clear();
            let mut emit = |t: &str| part(option, t);
            match offered {
                Offered::Action(action, args) => {
                    let name = (self.prog.actions.get(action.index()))
                        .map_or("action", |a| a.name.as_str());
                    emit(name);
                    for (i, arg) in args.iter().enumerate() {
                        text.clear();
                        let _ = write!(text, "{name} {}=", i + 1);
                        self.words(arg, seat, &mut text, &mut emit);
                    }
                }
                Offered::Value(v) => {
                    text.push('=');
                    self.words(&v, seat, &mut text, &mut emit);
                }
                Offered::Pass => emit("pass"),
                Offered::Branch(_) | Offered::Other => {}
            }
        }
    }

    /// Calls `emit` with `text` followed by each word that describes `v` to `seat` (see the
    /// module's notes); `text` is as it was after.
    fn words(&self, v: &Value, seat: u8, text: &mut String, emit: &mut dyn FnMut(&str)) {
        use std::fmt::Write;
        let (p, s) = (&*self.prog, &self.st);
        let start = text.len();
        let mut word = |text: &mut String, w: std::fmt::Arguments| {
            let _ = text.write_fmt(w);
            emit(text);
            text.truncate(start);
        };
        match v {
            Value::None => word(text, format_args!("none")),
            Value::Int(i) => word(text, format_args!("{i}")),
            Value::Bool(b) => word(text, format_args!("{b}")),
            Value::Text(t) => word(text, format_args!("{t}")),
            Value::Player(x) => {
                let seats = u16::from(self.players().max(1));
                let relative = (u16::from(*x) + seats - u16::from(seat) % seats) % seats;
                word(text, format_args!("{}", relative_name(relative as usize)))
            }
            Value::Card(c) => match s.cards.get(*c as usize) {
                Some(card) if !hidden_from(p, s, *c, seat) => {
                    self.kind_words(card.kind, text, emit)
                }
                _ => word(text, format_args!("hidden")),
            },
            Value::Kind(k) => self.kind_words(*k, text, emit),
            Value::Tag(t) => match p.tags.get(*t as usize) {
                Some(t) => word(text, format_args!("{}", t.name)),
                None => word(text, format_args!("tag")),
            },
            Value::Zone(z) => {
                let def = s.zones.def(*z as usize).index();
                match p.zones.get(def) {
                    Some(d) => word(text, format_args!("{}", d.name)),
                    None => word(text, format_args!("zone")),
                }
            }
            Value::Space(space) => {
                // The top card of each zone attached to the space.
                for (def, zone) in p.zones.iter().enumerate() {
                    if zone.scope != Scope::PerSpace {
                        continue;
                    }
                    let base = self.layout.zone_base.get(def).copied().unwrap_or(0);
                    let len = self.layout.zone_len.get(def).copied().unwrap_or(0);
                    if u32::from(*space) >= len {
                        continue;
                    }
                    let instance = (base + u32::from(*space)) as usize;
                    let top = s.zones.get(instance).and_then(|z| z.cards.last());
                    let _ = write!(text, "{}:", zone.name);
                    match top {
                        None => {
                            text.push_str("empty");
                            emit(text);
                        }
                        Some(&c) => self.words(&Value::Card(c), seat, text, emit),
                    }
                    text.truncate(start);
                }
            }
            Value::List(items) => {
                for item in items.iter() {
                    self.words(item, seat, text, emit);
                }
            }
        }
    }

    /// Calls `emit` with `text` followed by each word that describes a card of kind `kind`
    /// ([`kind_words`], written once per program in `Layout::kind_words`); `text` is as it was
    /// after.
    fn kind_words(&self, kind: u16, text: &mut String, emit: &mut dyn FnMut(&str)) {
        let start = text.len();
        for word in self
            .layout
            .kind_words
            .get(kind as usize)
            .into_iter()
            .flatten()
        {
            text.truncate(start);
            text.push_str(word);
            emit(text);
        }
        text.truncate(start);
    }
}

/// How a seat is named relative to the deciding one: `me`, `next`, then `seat+2`, ...
pub fn relative_name(r: usize) -> String {
    match r {
        0 => "me".into(),
        1 => "next".into(),
        r => format!("seat+{r}"),
    }
}

/// The words that describe a card of kind `kind` of program `p`: its name, `is TAG` for each of its
/// tags, and `NAME=VALUE` for each property whose value is the same for every card of the kind (a
/// number, a truth value, a text, a tag or a kind: `constant(property)`).
pub(crate) fn kind_words<'a>(
    p: &crate::program::Program,
    kind: usize,
    constant: &dyn Fn(usize) -> Option<&'a Value>,
) -> Vec<String> {
    let Some(def) = p.kinds.get(kind) else {
        return Vec::new();
    };
    let mut words = vec![def.name.clone()];
    for tag in &def.tags {
        if let Some(t) = p.tags.get(tag.index()) {
            words.push(format!("is {}", t.name));
        }
    }
    for (pid, prop) in p.props.iter().enumerate() {
        let value = match constant(pid).cloned() {
            Some(Value::Int(i)) => i.to_string(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Text(t)) => t.to_string(),
            Some(Value::Tag(t)) => match p.tags.get(t as usize) {
                Some(t) => t.name.clone(),
                None => continue,
            },
            Some(Value::Kind(k)) => match p.kinds.get(k as usize) {
                Some(k) => k.name.clone(),
                None => continue,
            },
            // A card's property that is itself a card, a space, a player, a zone or a list says
            // where, not what: left out.
            Some(
                Value::None
                | Value::Player(_)
                | Value::Card(_)
                | Value::Space(_)
                | Value::Zone(_)
                | Value::List(_),
            )
            | None => continue,
        };
        words.push(format!("{}={value}", prop.name));
    }
    words
}

#[cfg(test)]
mod tests {
    use crate::check::check_source;
    use crate::engine::{Game, GameConfig, Status};
    use std::sync::Arc;

    #[test]
    fn an_options_parts_describe_its_arguments_as_the_decider_sees_them() {
        // Two spaces, a face-down tile on one and a face-up tile on the other; a card in hand, a
        // card in the other seat's hidden hand; actions over a space, a card and a player.
        let src = "game \"P\" { players 2 }\ntags kind: Tile, Gem\nproperty worth: int = 0\n\
                   card \"Wood\" { is Tile  copies 2 }\ncard \"Ruby\" { is Gem  worth 3  copies 2 }\n\
                   spaces board: grid 2 by 1\n\
                   zone terrain per space: set, hidden\nzone hand per player: set, owner\n\
                   setup { move first(cards(\"Wood\", box)) to at(1, 1).terrain\n\
                   move first(cards(\"Wood\", box)) to at(2, 1).terrain face up\n\
                   move first(cards(\"Ruby\", box)) to seat(1).hand\n\
                   move first(cards(\"Ruby\", box)) to seat(2).hand }\n\
                   action visit(s in board) label \"Visit {s}\" { }\n\
                   action reveal_card(c in cards(\"Ruby\", seat(1).hand) + cards(\"Ruby\", seat(2).hand)) label \"Show {c}\" { }\n\
                   action name(q in everyone) label \"Name {q}\" { }\n\
                   flow { actions by seat(1) times 1 [visit, reveal_card, name] }\n";
        let checked = check_source(src);
        let program = Arc::new(
            checked
                .program
                .unwrap_or_else(|| panic!("{:?}", checked.diagnostics)),
        );
        let game = Game::new(program, GameConfig::new(2, 1));
        let Status::Decision(d) = game.status() else {
            panic!("a decision");
        };
        let shown: Vec<String> = (d.options.iter())
            .zip(game.option_parts(0))
            .map(|(label, parts)| format!("{label}: {}", parts.join(" | ")))
            .collect();
        assert_eq!(
            shown.join("\n"),
            "Visit (1,1): visit | visit 1=terrain:hidden\n\
             Visit (2,1): visit | visit 1=terrain:Wood | visit 1=terrain:is Tile | \
             visit 1=terrain:worth=0\n\
             Show Ruby: reveal_card | reveal_card 1=Ruby | reveal_card 1=is Gem | \
             reveal_card 1=worth=3\n\
             Show a card from P2.hand: reveal_card | reveal_card 1=hidden\n\
             Name P1: name | name 1=me\n\
             Name P2: name | name 1=next"
        );
    }
}
