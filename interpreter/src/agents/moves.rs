//! Agents stage: a learned play-out policy over the options' labels (`cardgame learn`), cheap enough
//! to play whole games inside a search.
//!
//! The prior of `model.rs` scores an option by trying it (the position it leads to, read by the
//! evaluation): right at the root of a search, far too dear for every decision of a play-out. This
//! policy scores an option by what the decision shows alone: its *move*, the decision's prompt (its
//! digits read as `#`, so that "Discard 2 cards" and "Discard 3 cards" are one prompt) with the
//! option's label, each move with its weights `a + b t + Σ cⱼ zⱼ`, where `t` is the game's progress
//! (the turn over the mean game's length in turns, as the evaluation reads it) and `zⱼ` the
//! position's features that the policy *reads*, standardised (and clipped to ±3 spreads): counts
//! the engine derives from any script that every seat knows as they are (`features.rs`,
//! `FeatureSet::is_known`: what each seat owns by kind and holds in each zone, the public shared
//! zones by kind, the variables; not a hidden pile's composition, which a search's worlds deal
//! again, nor the script's measures, which would run a script function at every decision). So a
//! move can weigh more while its card is rare in the decider's deck, or as a market row empties.
//! A policy may also weigh each option's *parts* (`learn --policy-parts`; `Game::option_parts`):
//! what the option is made of as its decider may see it (the action, each argument by its kind,
//! tags and fixed properties, a space by the cards on it), each with its own weights, added to the
//! move's: options alike on different cards or spaces then share what is learned of one.
//! A decision's chances are the softmax of its options' scores; a move or a part never seen scores
//! 0. The options offered already say much of the position (a menu offers only the cards that can be
//! bought), and a search on top corrects the rest: Ludii's play-out policies and TAG's action priors
//! are of the same family (features of moves and states, fitted by self-play).
//!
//! The features are read from a world of the search (where the search plays out) or, for the
//! `policy` agent, from a world dealt from its seat's view: never from the real game's hidden cards.
//!
//! A policy may read the position through *hidden units* (a small network, `learn --policy-units`):
//! each unit sums the features read, `hⱼ = tanh(cⱼ + Σ wⱼᵢ zᵢ)`, and a move's weights `cⱼ` are then
//! over the units' outputs instead of the features, `a + b t + Σ cⱼ hⱼ`: the units are shared by
//! every move, so what they learn of the position from one move's outcomes serves the others.
//!
//! `cardgame learn` fits the weights to the choices of its players (`learn/moves.rs`); the model
//! file keeps them as `reads NAME MEAN SPREAD` lines, one per feature read, `unit C W…` lines, one
//! per hidden unit, then `move A B C… KEY` lines (`model.rs`).

use super::features::FeatureSet;
use super::model::softmax;
use super::search::{only_exits, wander_exits};
use crate::engine::{Decision, Game};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// A learned play-out policy (see the module's notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moves {
    /// The position's features the policy reads, in the script's order of features.
    pub reads: Vec<Read>,
    /// The policy's hidden units, where it has any: each unit's weights over `1` and the features
    /// read (`1 + reads.len()`); its output is the `tanh` of their sum.
    pub units: Vec<Vec<f64>>,
    /// Per move key ([`key`]), its weights over the policy's inputs ([`Moves::inputs`]): `a`, `b`,
    /// then one per hidden unit, or, where there are none, one per feature read
    /// ([`Moves::width`] in all).
    pub weights: Table,
    /// Per part key (the prompt as in [`key`], a tab, then a part of an option:
    /// `Game::option_parts`), its weights, as a move's: an option scores its move's weights and
    /// those of each of its parts. Empty for a policy of labels alone.
    pub parts: Table,
}

/// Weights by key. Keys are looked up at every option of every decision of a play-out, so the
/// table hashes with `rustc-hash`'s quick hash rather than the standard one, which resists
/// collisions chosen by an adversary (keys here come from the script): `search` with a model on
/// Heart of Crown spent 7% of its time in the standard hash.
pub type Table = HashMap<String, Vec<f64>, rustc_hash::FxBuildHasher>;

/// The keys of one option: its move's ([`key`]) and, where the policy weighs the options' parts,
/// each part's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptionKeys {
    pub label: String,
    pub parts: Vec<String>,
}

/// The keys of each option of `decision`, the pending decision of `game`: its move's and, where
/// `with_parts`, its parts' (`Game::option_parts`, as the decider may see them).
pub fn option_keys(game: &Game, decision: &Decision, with_parts: bool) -> Vec<OptionKeys> {
    let mut prefix = String::new();
    prompt_into(&decision.prompt, &mut prefix);
    let joined = |text: &str| {
        let mut k = prefix.clone();
        escaped_into(text, &mut k);
        k
    };
    let mut keys: Vec<OptionKeys> = (decision.options.iter())
        .map(|label| OptionKeys {
            label: joined(label),
            parts: Vec::new(),
        })
        .collect();
    if with_parts {
        game.each_option_part(decision.player, &mut |option, part| {
            if let Some(k) = keys.get_mut(option) {
                k.parts.push(joined(part));
            }
        });
    }
    keys
}

/// A feature of the position that a policy reads: its index among the script's features
/// (`FeatureSet`), its name, and the mean and spread that standardise it.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    pub feature: usize,
    pub name: String,
    pub mean: f64,
    pub spread: f64,
}

/// How far from its mean, in spreads, a feature read counts at most: a count that is rare in the
/// teacher's games (a card in the trash) has a small spread, and would otherwise weigh tens of
/// times more than the others where it occurs.
pub const CLIP: f64 = 3.0;

impl Read {
    /// The standardised value of the feature whose raw value is `x`, clipped to ±[`CLIP`].
    pub fn standardise(&self, x: f64) -> f64 {
        ((x - self.mean) / self.spread).clamp(-CLIP, CLIP)
    }
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
        self.weights.is_empty() && self.parts.is_empty()
    }

    /// Whether the policy reads the position (beyond the progress).
    pub fn reads_position(&self) -> bool {
        !self.reads.is_empty()
    }

    /// Whether every feature the policy reads is one every seat knows as it is
    /// (`FeatureSet::is_known`): then the real game and any world dealt from a seat's view give the
    /// same inputs. `cardgame learn` writes only such; a model file edited by hand may read others.
    pub fn reads_only_known(&self, features: &FeatureSet) -> bool {
        self.reads.iter().all(|r| features.is_known(r.feature))
    }

    /// How many weights a move has: `a`, `b`, then one per hidden unit or, where there are none,
    /// one per feature read.
    pub fn width(&self) -> usize {
        2 + if self.units.is_empty() {
            self.reads.len()
        } else {
            self.units.len()
        }
    }

    /// The policy's inputs at a decision of `seat` in `world` at progress `t` ([`Self::inputs_of`]
    /// the [reading](Self::reading) of `world`). `features` are the script's; `world` is a world
    /// an agent dealt (`features.rs`), or the real game where the policy [reads only known
    /// counts](Self::reads_only_known).
    pub fn inputs(&self, features: &FeatureSet, world: &Game, seat: u8, t: f64) -> Vec<f64> {
        self.inputs_of(&self.reading(features, world, seat), t)
    }

    /// Each feature the policy reads, standardised, at a decision of `seat` in `world` (empty, and
    /// nothing counted, where it reads none).
    pub fn reading(&self, features: &FeatureSet, world: &Game, seat: u8) -> Vec<f64> {
        if !self.reads_position() {
            return Vec::new();
        }
        let x = if self.reads_only_known(features) {
            features.extract_known_counts(world, seat)
        } else {
            features.extract_counts(world, seat)
        };
        self.reads
            .iter()
            .map(|r| r.standardise(x.get(r.feature).copied().unwrap_or(0.0)))
            .collect()
    }

    /// The policy's inputs for a `reading` at progress `t`: `1`, `t`, then the hidden units'
    /// outputs or, where there are none, the reading itself.
    pub fn inputs_of(&self, reading: &[f64], t: f64) -> Vec<f64> {
        through_units(&self.units, &[1.0, t], reading)
    }

    /// [`Self::inputs`], the hidden units' sums updated from the last reading `sums` holds for
    /// `seat` rather than summed again: between two decisions of a seat in a play-out a few cards
    /// moved, so a few features changed, and only their weights are added (a reading that changed
    /// in more than half its features, or the [`RESUM`]th update in a row, is summed whole). The
    /// same inputs as [`Self::inputs`] but for the rounding of the sums (about 1e-15).
    pub fn inputs_updating(
        &self,
        features: &FeatureSet,
        (world, seat, t): (&Game, u8, f64),
        sums: &mut UnitSums,
    ) -> Vec<f64> {
        let reading = self.reading(features, world, seat);
        if self.units.is_empty() {
            return self.inputs_of(&reading, t);
        }
        let seat = seat as usize;
        if sums.seats.len() <= seat {
            sums.seats.resize_with(seat + 1, SeatSums::default);
        }
        let sums = &mut sums.seats[seat];
        let changed: Vec<usize> = if sums.reading.len() == reading.len() {
            (0..reading.len())
                .filter(|&i| reading[i] != sums.reading[i])
                .collect()
        } else {
            (0..reading.len()).collect()
        };
        if sums.sums.len() != self.units.len()
            || sums.updates >= RESUM
            || 2 * changed.len() > reading.len()
        {
            sums.sums = (self.units.iter())
                .map(|unit| unit_sum(unit, &reading))
                .collect();
            sums.updates = 0;
        } else {
            for &i in &changed {
                let by = reading[i] - sums.reading[i];
                for (sum, unit) in sums.sums.iter_mut().zip(&self.units) {
                    *sum += unit.get(1 + i).copied().unwrap_or(0.0) * by;
                }
            }
            sums.updates += 1;
        }
        sums.reading = reading;
        let mut inputs = Vec::with_capacity(2 + sums.sums.len());
        inputs.extend([1.0, t]);
        inputs.extend(sums.sums.iter().map(|&s| tanh(s)));
        inputs
    }

    /// Whether the policy weighs the options' parts beside their labels.
    pub fn weighs_parts(&self) -> bool {
        !self.parts.is_empty()
    }

    /// The score of each option of `decision`, the pending decision of `game`, with the policy's
    /// `inputs` ([`Self::inputs`]): its move's weights and, where the policy weighs parts, its
    /// parts' (a move or a part never seen: 0), each row found through `rows` (an agent's
    /// [`Rows`], kept between its decisions).
    pub fn scores(
        &self,
        game: &Game,
        decision: &Decision,
        inputs: &[f64],
        rows: &mut Rows,
    ) -> Vec<f64> {
        if rows.len > Rows::MOST {
            *rows = Rows::default();
        }
        let Rows { prompts, len } = rows;
        let prompt = match prompts.get_mut(decision.prompt.as_str()) {
            Some(prompt) => prompt,
            None => prompts.entry(decision.prompt.clone()).or_default(),
        };
        let mut key = String::new();
        let mut score = |part: bool, text: &str| {
            let (found, table) = match part {
                false => (&mut prompt.moves, &self.weights),
                true => (&mut prompt.parts, &self.parts),
            };
            let row = match found.get(text) {
                Some(row) => row,
                None => {
                    key_into(&decision.prompt, text, &mut key);
                    *len += 1;
                    let row = table
                        .get(key.as_str())
                        .map(|w| w.clone().into_boxed_slice());
                    found.entry(text.to_string()).or_insert(row)
                }
            };
            row.as_deref().map_or(0.0, |w| dot(w, inputs))
        };
        let mut scores: Vec<f64> = (decision.options.iter())
            .map(|label| score(false, label))
            .collect();
        if self.weighs_parts() {
            game.each_option_part(decision.player, &mut |option, part| {
                if let Some(total) = scores.get_mut(option) {
                    *total += score(true, part);
                }
            });
        }
        scores
    }

    /// The score of an option whose keys are `keys` with the policy's `inputs` (as
    /// [`Self::scores`]).
    pub fn score_of(&self, keys: &OptionKeys, inputs: &[f64]) -> f64 {
        let of = |table: &Table, k: &String| table.get(k).map_or(0.0, |w| dot(w, inputs));
        of(&self.weights, &keys.label) + keys.parts.iter().map(|k| of(&self.parts, k)).sum::<f64>()
    }

    /// The chances of `decision`'s options (the pending decision of `game`) with the policy's
    /// `inputs`.
    pub fn chances(
        &self,
        (game, decision): (&Game, &Decision),
        (inputs, rows): (&[f64], &mut Rows),
    ) -> Vec<f64> {
        softmax(&self.scores(game, decision, inputs, rows))
    }

    /// The option of `decision` (the pending decision of `game`) the policy scores highest with
    /// its `inputs` (among equal scores, one drawn at random); in a turn that has run
    /// `TURN_WANDER` decisions, among those that hand the game on (`search::wander_exits`).
    pub fn best(
        &self,
        (game, decision): (&Game, &Decision),
        (inputs, rows): (&[f64], &mut Rows),
        rng: &mut ChaCha8Rng,
    ) -> usize {
        let mut scores = self.scores(game, decision, inputs, rows);
        if let Some(exits) = wander_exits(game) {
            for (i, s) in scores.iter_mut().enumerate() {
                if !exits.contains(&i) {
                    *s = f64::NEG_INFINITY;
                }
            }
        }
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= top).collect();
        match ties.len() {
            0 => 0,
            1 => ties[0],
            n => ties[rng.gen_range(0..n)],
        }
    }

    /// An option of `decision` (the pending decision of `game`) drawn from its chances with the
    /// policy's `inputs`; in a turn that has run `TURN_WANDER` decisions, among those that hand
    /// the game on (`search::wander_exits`).
    pub fn pick(
        &self,
        (game, decision): (&Game, &Decision),
        (inputs, rows): (&[f64], &mut Rows),
        rng: &mut ChaCha8Rng,
    ) -> usize {
        let mut chances = self.chances((game, decision), (inputs, rows));
        if let Some(exits) = wander_exits(game) {
            only_exits(&mut chances, &exits);
        }
        draw(&chances, rng)
    }

    /// The `reads` lines of a model file, its `unit` lines, then its `move` lines and its `part`
    /// lines, each sorted by key (a stable file for a given model).
    pub fn to_lines(&self) -> String {
        let mut s = String::new();
        for r in &self.reads {
            s.push_str(&format!("reads {} {} {}\n", r.name, r.mean, r.spread));
        }
        for unit in &self.units {
            s.push_str("unit");
            for w in unit {
                s.push_str(&format!(" {w}"));
            }
            s.push('\n');
        }
        for (word, table) in [("move", &self.weights), ("part", &self.parts)] {
            let mut keys: Vec<&String> = table.keys().collect();
            keys.sort();
            for k in keys {
                s.push_str(word);
                for w in &table[k] {
                    s.push_str(&format!(" {w}"));
                }
                s.push_str(&format!(" {k}\n"));
            }
        }
        s
    }

    /// Reads one `reads NAME MEAN SPREAD`, `unit C W…`, `move A B C… KEY` or `part A B C… KEY` line
    /// into the policy (the `reads` lines first, then the `unit` lines, then the `move` and `part`
    /// lines; `feature` gives a feature's index among the script's by its name); `Err` with what is
    /// wrong.
    pub fn read_line(
        &mut self,
        line: &str,
        feature: &dyn Fn(&str) -> Option<usize>,
    ) -> Result<(), String> {
        let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
        if let Some(rest) = line.strip_prefix("reads ") {
            let malformed = || format!("the model's line `{line}` is not `reads NAME MEAN SPREAD`");
            // The name may hold spaces (a card's name): the two numbers are the last words.
            let mut parts = rest.rsplitn(3, ' ');
            let (Some(spread), Some(mean), Some(name)) = (parts.next(), parts.next(), parts.next())
            else {
                return Err(malformed());
            };
            let (Some(mean), Some(spread)) = (number(mean), number(spread)) else {
                return Err(malformed());
            };
            if !self.weights.is_empty() || !self.parts.is_empty() || !self.units.is_empty() {
                return Err(format!(
                    "the model's line `{line}` comes after a `unit`, `move` or `part` line"
                ));
            }
            let index = feature(name).ok_or_else(|| {
                format!("the model's policy reads a feature `{name}` that the script does not have")
            })?;
            self.reads.push(Read {
                feature: index,
                name: name.to_string(),
                mean,
                spread: spread.max(1e-9),
            });
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("unit ") {
            let weights: Option<Vec<f64>> = rest.split(' ').map(number).collect();
            let reads = self.reads.len();
            let weights = weights.filter(|w| w.len() == 1 + reads).ok_or_else(|| {
                format!(
                    "the model's line `{line}` is not `unit` with {} weights",
                    1 + reads
                )
            })?;
            if !self.weights.is_empty() || !self.parts.is_empty() {
                return Err(format!(
                    "the model's line `{line}` comes after a `move` or `part` line"
                ));
            }
            self.units.push(weights);
            return Ok(());
        }
        let inputs = self.width();
        let malformed = || {
            format!(
                "the model's line `{line}` is not `move` or `part` with {inputs} weights then a key"
            )
        };
        let (rest, table) = match (line.strip_prefix("move "), line.strip_prefix("part ")) {
            (Some(rest), _) => (rest, &mut self.weights),
            (None, Some(rest)) => (rest, &mut self.parts),
            (None, None) => return Err(malformed()),
        };
        let mut parts: Vec<&str> = rest.splitn(inputs + 1, ' ').collect();
        let key = parts
            .pop()
            .filter(|k| k.contains('\t') && parts.len() == inputs);
        let Some(key) = key else {
            return Err(malformed());
        };
        let weights: Option<Vec<f64>> = parts.into_iter().map(number).collect();
        let weights = weights.ok_or_else(malformed)?;
        table.insert(key.to_string(), weights);
        Ok(())
    }
}

/// What a policy's moves weigh: `head` (`1` and the progress), then the outputs of the hidden
/// `units` for `reading` or, where there are none, the reading itself. Shared by the policy as it
/// plays ([`Moves::inputs_of`]) and as it is trained (`learn/policy.rs`).
pub fn through_units(units: &[Vec<f64>], head: &[f64], reading: &[f64]) -> Vec<f64> {
    let mut inputs = Vec::with_capacity(head.len() + units.len().max(reading.len()));
    inputs.extend_from_slice(head);
    if units.is_empty() {
        inputs.extend_from_slice(reading);
    } else {
        inputs.extend(units.iter().map(|unit| unit_output(unit, reading)));
    }
    inputs
}

/// The rows of a policy's tables an agent has looked up, by the decision's prompt as it is shown
/// then by the option's label or part: at every decision of a play-out each option's key would
/// otherwise be written out and hashed whole (prompt and text), a tenth of a search's time with a
/// policy that weighs parts. A row not in the table is remembered as `None`. Forgotten whole past
/// [`Rows::MOST`] entries (labels holding numbers can be many).
#[derive(Clone, Debug, Default)]
pub struct Rows {
    prompts: HashMap<String, PromptRows, rustc_hash::FxBuildHasher>,
    len: usize,
}

/// The rows found under one prompt ([`Rows`]).
#[derive(Clone, Debug, Default)]
struct PromptRows {
    moves: HashMap<String, Option<Box<[f64]>>, rustc_hash::FxBuildHasher>,
    parts: HashMap<String, Option<Box<[f64]>>, rustc_hash::FxBuildHasher>,
}

impl Rows {
    /// The entries kept at most.
    pub const MOST: usize = 1 << 14;
}

/// What an agent keeps between its play-out decisions for [`Moves::inputs_updating`]: per seat,
/// its last reading and the hidden units' sums for it.
#[derive(Clone, Debug, Default)]
pub struct UnitSums {
    seats: Vec<SeatSums>,
}

/// One seat's last reading and the hidden units' sums for it ([`UnitSums`]).
#[derive(Clone, Debug, Default)]
struct SeatSums {
    reading: Vec<f64>,
    sums: Vec<f64>,
    /// Updates since the sums were last summed whole.
    updates: u32,
}

/// How many updates in a row [`Moves::inputs_updating`] makes before it sums whole again, so that
/// rounding cannot pile up.
pub const RESUM: u32 = 64;

/// The output of a hidden unit whose weights are `unit` (over `1` and the reading) for `reading`:
/// `tanh(c + Σ wᵢ zᵢ)`.
pub fn unit_output(unit: &[f64], reading: &[f64]) -> f64 {
    tanh(unit_sum(unit, reading))
}

/// A hidden unit's sum before its `tanh`: `c + Σ wᵢ zᵢ` ([`unit_output`]).
fn unit_sum(unit: &[f64], reading: &[f64]) -> f64 {
    let (bias, weights) = unit.split_first().unwrap_or((&0.0, &[]));
    // Four sums side by side, which the compiler can run as one vector operation (a unit reads
    // hundreds of features at every decision of a play-out).
    let n = weights.len().min(reading.len());
    let (w, z) = (&weights[..n], &reading[..n]);
    let mut sums = [0.0; 4];
    for (w, z) in w.chunks_exact(4).zip(z.chunks_exact(4)) {
        for k in 0..4 {
            sums[k] += w[k] * z[k];
        }
    }
    let tail = n - n % 4;
    let rest = dot(&w[tail..], &z[tail..]);
    bias + (sums[0] + sums[1]) + (sums[2] + sums[3]) + rest
}

/// `tanh(x)` to within 7e-6, several times cheaper than the standard library's (which took a tenth
/// of a search's time with a model whose policy has hidden units): the quotient of Lambert's
/// continued fraction for `tanh` cut after its ninth term, `x (34459425 + 4729725 x² + 135135 x⁴
/// + 990 x⁶ + x⁸) / (34459425 + 16216200 x² + 945945 x⁴ + 13860 x⁶ + 45 x⁸)`, held within ±1.
/// The policy plays and is trained with this same function (`through_units`).
pub fn tanh(x: f64) -> f64 {
    let x = x.clamp(-9.0, 9.0);
    let x2 = x * x;
    let above = 34_459_425.0 + x2 * (4_729_725.0 + x2 * (135_135.0 + x2 * (990.0 + x2)));
    let below = 34_459_425.0 + x2 * (16_216_200.0 + x2 * (945_945.0 + x2 * (13_860.0 + 45.0 * x2)));
    (x * above / below).clamp(-1.0, 1.0)
}

/// The sum of `rows`, entry by entry, over `width` entries: the weights an option gives the policy's
/// inputs are its keys' rows summed (its move's and its parts').
pub fn summed_rows<'a>(width: usize, rows: impl IntoIterator<Item = &'a Vec<f64>>) -> Vec<f64> {
    let mut sum = vec![0.0; width];
    for row in rows {
        for (s, w) in sum.iter_mut().zip(row) {
            *s += w;
        }
    }
    sum
}

/// An option drawn from its `chances`.
pub fn draw(chances: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let mut x = rng.gen_range(0.0..1.0);
    for (i, w) in chances.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    chances.len().saturating_sub(1)
}

/// `Σ wᵢ xᵢ` over the shorter of the two.
pub(crate) fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(w, x)| w * x).sum()
}

#[cfg(test)]
mod tests;
