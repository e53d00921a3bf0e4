//! Agents stage: a learned play-out policy over the options' labels (`cardgame learn`), cheap enough
//! to play whole games inside a search.
//!
//! The prior of `model.rs` scores an option by trying it (the position it leads to, read by the
//! evaluation): right at the root of a search, far too dear for every decision of a play-out. This
//! policy scores an option by what the decision shows alone: its *move*, the decision's prompt (its
//! digits read as `#`, so that "Discard 2 cards" and "Discard 3 cards" are one prompt) with the
//! option's label, each move with two weights, `a + b t`, where `t` is the game's progress (the turn
//! over the mean game's length in turns, as the evaluation reads it). A decision's chances are the
//! softmax of its options' scores; a move never seen scores 0. Such weights cannot read the position
//! beyond the progress, but the options offered already say much of it (a menu offers only the cards
//! that can be bought), and a search on top corrects the rest: Ludii's play-out policies and TAG's
//! action priors are of the same family (features of moves, fitted by self-play).
//!
//! `cardgame learn` fits the weights to the choices of its players (`learn/moves.rs`); the model
//! file keeps them as `move A B KEY` lines (`model.rs`).

use super::model::{softmax, Model};
use super::Agent;
use crate::engine::{Decision, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;

/// A learned play-out policy (see the module's notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moves {
    /// Per move key ([`key`]), its weights `[a, b]`.
    pub weights: HashMap<String, [f64; 2]>,
}

/// Writes the key of the option `label` of a decision prompted by `prompt` into `out`: the prompt
/// with its digits read as `#`, a tab, the label; tabs, line ends and backslashes in either escaped,
/// so that the key is one line of text.
pub fn key_into(prompt: &str, label: &str, out: &mut String) {
    out.clear();
    prompt_into(prompt, out);
    escaped_into(label, out);
}

/// Writes the first part of a key, the prompt with its digits read as `#` then a tab, into `out`
/// (escaped as [`key_into`] says).
fn prompt_into(prompt: &str, out: &mut String) {
    if !prompt.bytes().any(|b| b.is_ascii_digit() || special(b)) {
        out.push_str(prompt);
        out.push('\t');
        return;
    }
    let mut last_digit = false;
    for ch in prompt.chars() {
        if ch.is_ascii_digit() {
            if !last_digit {
                out.push('#');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        escape(ch, out);
    }
    out.push('\t');
}

/// Appends `text` to `out`, escaped as [`key_into`] says.
fn escaped_into(text: &str, out: &mut String) {
    if text.bytes().any(special) {
        for ch in text.chars() {
            escape(ch, out);
        }
    } else {
        out.push_str(text);
    }
}

/// Whether byte `b` is escaped in a key.
fn special(b: u8) -> bool {
    matches!(b, b'\\' | b'\t' | b'\n' | b'\r')
}

/// The key of an option (see [`key_into`]).
pub fn key(prompt: &str, label: &str) -> String {
    let mut out = String::new();
    key_into(prompt, label, &mut out);
    out
}

fn escape(ch: char, out: &mut String) {
    match ch {
        '\\' => out.push_str("\\\\"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c => out.push(c),
    }
}

impl Moves {
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The score of each option of `decision` at progress `t` (a move never seen: 0).
    pub fn scores(&self, decision: &Decision, t: f64) -> Vec<f64> {
        // The prompt's part of the keys once; each option's label after it.
        let mut buffer = String::new();
        prompt_into(&decision.prompt, &mut buffer);
        let prefix = buffer.len();
        decision
            .options
            .iter()
            .map(|label| {
                buffer.truncate(prefix);
                escaped_into(label, &mut buffer);
                self.weights
                    .get(buffer.as_str())
                    .map_or(0.0, |[a, b]| a + b * t)
            })
            .collect()
    }

    /// The chances of `decision`'s options at progress `t`.
    pub fn chances(&self, decision: &Decision, t: f64) -> Vec<f64> {
        softmax(&self.scores(decision, t))
    }

    /// An option of `decision` drawn from its chances at progress `t`.
    pub fn pick(&self, decision: &Decision, t: f64, rng: &mut ChaCha8Rng) -> usize {
        let p = self.chances(decision, t);
        let mut x = rng.gen_range(0.0..1.0);
        for (i, w) in p.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        p.len().saturating_sub(1)
    }

    /// The `move` lines of a model file, sorted by key (a stable file for a given model).
    pub fn to_lines(&self) -> String {
        let mut keys: Vec<&String> = self.weights.keys().collect();
        keys.sort();
        let mut s = String::new();
        for k in keys {
            let [a, b] = self.weights[k];
            s.push_str(&format!("move {a} {b} {k}\n"));
        }
        s
    }

    /// Reads one `move A B KEY` line into the policy; `Err` with what is wrong.
    pub fn read_line(&mut self, line: &str) -> Result<(), String> {
        let malformed = || format!("the model's line `{line}` is not `move A B KEY`");
        let rest = line.strip_prefix("move ").ok_or_else(malformed)?;
        let mut parts = rest.splitn(3, ' ');
        let (Some(a), Some(b), Some(k)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(malformed());
        };
        let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
        let (Some(a), Some(b)) = (number(a), number(b)) else {
            return Err(malformed());
        };
        if !k.contains('\t') {
            return Err(malformed());
        }
        self.weights.insert(k.to_string(), [a, b]);
        Ok(())
    }
}

/// `policy`: plays by a learned model's play-out policy alone, each choice drawn from its chances
/// (no look-ahead: thousands of games a second, a fast opponent for a study). It reads only the
/// decision (the prompt and the labels its seat is shown) and the turn.
pub struct PolicyAgent {
    model: Arc<Model>,
    rng: ChaCha8Rng,
}

impl PolicyAgent {
    pub fn new(model: Arc<Model>, seed: u64) -> PolicyAgent {
        PolicyAgent {
            model,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for PolicyAgent {
    fn choose(&mut self, game: &Game, decision: &Decision) -> usize {
        if decision.options.len() <= 1 {
            return 0;
        }
        let t = f64::from(game.turns()) / self.model.turns.max(1.0);
        self.model.moves.pick(decision, t, &mut self.rng)
    }

    fn name(&self) -> String {
        "policy".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{key, Moves};
    use crate::engine::Decision;
    use cardgame_grammar::ast::Span;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn decision(prompt: &str, options: &[&str]) -> Decision {
        Decision {
            player: 0,
            prompt: prompt.to_string(),
            options: options.iter().map(|s| s.to_string()).collect(),
            simultaneous: false,
            span: Span::default(),
        }
    }

    #[test]
    fn a_key_reads_the_prompts_digits_as_one_mark_and_escapes_tabs() {
        assert_eq!(key("Discard 12 cards", "Copper"), "Discard # cards\tCopper");
        assert_eq!(
            key("Choose an action", "Buy 3\tx"),
            "Choose an action\tBuy 3\\tx"
        );
        assert_eq!(key("Back\\slash\n", "a\rb"), "Back\\\\slash\\n\ta\\rb");
        assert_eq!(key("Pay 2\t3", "x"), "Pay #\\t#\tx");
    }

    #[test]
    fn the_policy_prefers_the_moves_that_weigh_most_and_reads_the_progress() {
        let mut moves = Moves::default();
        moves
            .weights
            .insert(key("Choose an action", "Buy Gold"), [2.0, -4.0]);
        let d = decision("Choose an action", &["Buy Gold", "pass"]);
        // Early, Gold by e^2 to 1; late (t = 1), pass by e^2 to 1.
        let early = moves.chances(&d, 0.0);
        assert!((early[0] - 2f64.exp() / (2f64.exp() + 1.0)).abs() < 1e-9);
        let late = moves.chances(&d, 1.0);
        assert!(late[1] > 0.85, "{late:?}");
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let gold = (0..1000)
            .filter(|_| moves.pick(&d, 0.0, &mut rng) == 0)
            .count();
        assert!((820..940).contains(&gold), "{gold}");
    }

    #[test]
    fn the_lines_read_back_to_the_same_policy() {
        let mut moves = Moves::default();
        moves
            .weights
            .insert(key("Forge: trash", "Copper"), [1.5, -0.25]);
        moves
            .weights
            .insert(key("Choose an action", "pass"), [-0.5, 0.0]);
        let text = moves.to_lines();
        assert_eq!(
            text,
            "move -0.5 0 Choose an action\tpass\nmove 1.5 -0.25 Forge: trash\tCopper\n"
        );
        let mut back = Moves::default();
        for l in text.lines() {
            back.read_line(l).unwrap();
        }
        assert_eq!(back, moves);
        assert!(back.read_line("move 1 x a\tb").is_err());
        assert!(back.read_line("move 1 2 no-tab").is_err());
    }
}
