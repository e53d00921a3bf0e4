//! Agents stage: a learned evaluation of positions (`cardgame learn`), a logistic model over the
//! features of `features.rs` and their products with the game's progress, kept as a readable text
//! file bound to its script's hash and player count.
//!
//! The model gives a seat's expected result (its chance to win, a share of a shared win, or, where all
//! players are one team, the share of the best score) from that seat's view:
//! `σ(bias + Σ wᵢ zᵢ + Σ uᵢ zᵢ t)`, where `zᵢ = (xᵢ − meanᵢ) / spreadᵢ` is feature i standardised over
//! the positions it was fitted on and `t` the turn divided by the mean length of those games in
//! turns (so `uᵢ` is how feature i matters more, or less, as the game goes on).
//!
//! A model reads the features that varied in the positions it was fitted on (`learn.rs` leaves the
//! others out: a constant feature cannot be weighed); the file lists them.
//!
//! Beside the evaluation, a *prior over options* (a policy): an option's score is
//! `(v + v' t) ℓ + Σ (aᵢ + bᵢ t) Δᵢ`, where `ℓ` is the model's logit of the position the option
//! leads to (for the deciding seat, in a possible world, the forced decisions after it taken) and
//! `Δᵢ = (xᵢ(after) − xᵢ(before)) / spreadᵢ` how the option changes feature i; the prior is the
//! softmax of the scores over the decision's options. A prior that was never fitted (`prior none`)
//! is the evaluation's own best move, all the chance on the option whose logit is highest; `cardgame
//! learn` fits one to the search's visits at the root (`learn/prior.rs`), starting from `v = 1`, the
//! rest 0.
//!
//! The file is text: a header (`cardgame model 8`, `script HASH`, `players N`, `turns T`, `bias B`,
//! `prior V V'`, or `prior none`, `playouts end`, `turn`, `now`, `script` or `measure`: [`Playouts`]),
//! then one line per feature it reads: `feature NAME MEAN SPREAD W U A B`, in the
//! order the features are derived; then the play-out policy: the features it reads, `reads NAME MEAN
//! SPREAD`, its hidden units, `unit C W…` (a weight per feature read), and its weights, one line per
//! move, `move A B C… KEY`, then one per part of an option, `part A B C… KEY` (`moves.rs`). Files of
//! version 7 (no `part` lines), 6 (no `unit` lines), 5 (no `reads` lines: `move A B KEY`) and 4 (no
//! `playouts` nor `move` lines) are still read.

use super::features::FeatureSet;
use super::moves::Moves;
use crate::engine::Game;
use crate::program::Program;

/// The hash of a script's text that a model names: the first 16 hex digits of its SHA-256.
pub fn script_hash(source: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(source.as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A learned evaluation (see the module's notes).
#[derive(Clone, Debug)]
pub struct Model {
    pub script: String,
    pub players: u8,
    /// The mean length in turns of the games it was fitted on: `t = turn / turns`.
    pub turns: f64,
    pub bias: f64,
    /// The features it reads: their indices among the script's features, and their names.
    pub keep: Vec<usize>,
    pub names: Vec<String>,
    pub mean: Vec<f64>,
    pub spread: Vec<f64>,
    pub w: Vec<f64>,
    pub u: Vec<f64>,
    /// The prior over options (see the module's notes).
    pub prior: Prior,
    /// The play-out policy over the options' labels (`moves.rs`; empty: none learned).
    pub moves: Moves,
    /// How `search` uses the model, as `learn` measured it for the script.
    pub playouts: Playouts,
    features: Option<FeatureSet>,
}

/// How `search` plays with a model (its `playouts` line), the setting `learn` measured strongest for
/// the script (`learn/playouts.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playouts {
    /// `turn`: play-outs cut when the next turn begins, judged by the evaluation.
    #[default]
    Turn,
    /// `end`: play-outs to the end of the game by the play-out policy.
    End,
    /// `script`: the model set aside; the search plays as it does without one (play-outs of two
    /// turns at random, judged by the script's measure).
    Script,
    /// `measure`: the model set aside; the search plays no play-out and judges each new position
    /// of its tree at once by the script's measure (`search:...:now:nomodel`).
    Measure,
    /// `now`: no play-out; each new position of the search's tree judged at once by the model
    /// (`search:...:now`).
    Now,
}

impl Playouts {
    /// Every setting, in the order of the model file's documentation.
    pub const ALL: [Playouts; 5] = [
        Playouts::Turn,
        Playouts::End,
        Playouts::Script,
        Playouts::Measure,
        Playouts::Now,
    ];

    /// The word of the model file's `playouts` line.
    pub fn name(self) -> &'static str {
        match self {
            Playouts::Turn => "turn",
            Playouts::End => "end",
            Playouts::Script => "script",
            Playouts::Measure => "measure",
            Playouts::Now => "now",
        }
    }

    /// What the search does with the setting, in a few words (`learn`'s report).
    pub fn what(self) -> &'static str {
        match self {
            Playouts::Turn => "play-outs cut at the next turn, judged by the model",
            Playouts::End => "play-outs to the end by the model's policy",
            Playouts::Script => {
                "the model set aside, play-outs of two turns judged by the script's measure"
            }
            Playouts::Measure => {
                "the model set aside, each position judged at once by the script's measure"
            }
            Playouts::Now => "no play-out, each position judged at once by the model",
        }
    }
}

/// A setting is written as its word (`learn --format json`'s `matched`).
impl serde::Serialize for Playouts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// The weights of the prior over options (see the module's notes): `value` and `value_t` weigh the
/// logit of the position an option leads to, `a` and `b` (one per feature the model reads) the
/// option's change of each feature, and its change times the game's progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    /// Whether it was fitted; if not, the prior is the evaluation's best move.
    pub fitted: bool,
    pub value: f64,
    pub value_t: f64,
    pub a: Vec<f64>,
    pub b: Vec<f64>,
}

impl Prior {
    /// The prior of the evaluation alone: an option's score is the logit it leads to.
    pub fn blank(n: usize) -> Prior {
        Prior {
            fitted: false,
            value: 1.0,
            value_t: 0.0,
            a: vec![0.0; n],
            b: vec![0.0; n],
        }
    }

    /// The chances of options whose mean scores are `scores` (`-∞`: cannot be taken): their
    /// softmax, or, for a prior never fitted, all on the best (the first among equals).
    pub fn chances(&self, scores: &[f64]) -> Vec<f64> {
        if self.fitted {
            return softmax(scores);
        }
        let mut best = 0;
        for (i, s) in scores.iter().enumerate() {
            if *s > scores[best] {
                best = i;
            }
        }
        (0..scores.len())
            .map(|i| f64::from(u8::from(i == best)))
            .collect()
    }

    /// The score of an option whose inputs are `q` (the logit it leads to, then the change of each
    /// feature the model reads: [`Model::option_inputs`]) at progress `t`.
    pub fn score(&self, q: &[f64], t: f64) -> f64 {
        let Some((l, d)) = q.split_first() else {
            return 0.0;
        };
        let mut s = (self.value + self.value_t * t) * l;
        for ((d, a), b) in d.iter().zip(&self.a).zip(&self.b) {
            s += d * (a + b * t);
        }
        s
    }
}

/// The probabilities of a softmax over `scores`.
pub fn softmax(scores: &[f64]) -> Vec<f64> {
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|x| x / total.max(f64::MIN_POSITIVE)).collect()
}

/// The first line of a model file.
const MAGIC: &str = "cardgame model 8";
/// The first lines of the model files of the versions before, still read: version 7 had no
/// `part` lines, version 6 no `unit` lines, version 5 no `reads` lines, version 4 no `move` lines.
const MAGIC_BEFORE: [&str; 4] = [
    "cardgame model 7",
    "cardgame model 6",
    "cardgame model 5",
    "cardgame model 4",
];

impl Model {
    /// A model that knows nothing yet: every position is worth one half.
    pub fn blank(program: &Program, script: String, players: u8) -> Model {
        let features = FeatureSet::new(program, players);
        let n = features.len();
        Model {
            script,
            players,
            turns: 1.0,
            bias: 0.0,
            keep: (0..n).collect(),
            names: features.names().to_vec(),
            mean: vec![0.0; n],
            spread: vec![1.0; n],
            w: vec![0.0; n],
            u: vec![0.0; n],
            prior: Prior::blank(n),
            moves: Moves::default(),
            playouts: Playouts::Turn,
            features: Some(features),
        }
    }

    /// Keeps only the features at `indices` (positions in [`Model::keep`]), with their
    /// statistics and weights.
    pub fn restrict(&mut self, indices: &[usize]) {
        let pick = |v: &[f64]| -> Vec<f64> { indices.iter().map(|&i| v[i]).collect() };
        self.mean = pick(&self.mean);
        self.spread = pick(&self.spread);
        self.w = pick(&self.w);
        self.u = pick(&self.u);
        self.prior.a = pick(&self.prior.a);
        self.prior.b = pick(&self.prior.b);
        self.names = indices.iter().map(|&i| self.names[i].clone()).collect();
        self.keep = indices.iter().map(|&i| self.keep[i]).collect();
    }

    /// The standardised features and progress of a position's raw features `x` (every feature of
    /// the script, in order: the model picks those it reads).
    pub fn inputs(&self, x: &[f64]) -> (Vec<f64>, f64) {
        let z = self
            .keep
            .iter()
            .zip(self.mean.iter().zip(&self.spread))
            .map(|(&i, (m, s))| (x.get(i).copied().unwrap_or(0.0) - m) / s)
            .collect();
        let turn = x.last().copied().unwrap_or(0.0);
        (z, turn / self.turns.max(1.0))
    }

    /// The model's logit for standardised features `z` at progress `t`.
    pub fn logit(&self, z: &[f64], t: f64) -> f64 {
        let mut y = self.bias;
        for ((z, w), u) in z.iter().zip(&self.w).zip(&self.u) {
            y += z * (w + u * t);
        }
        y
    }

    /// The expected result, between 0 and 1, of `seat` in the possible world `world` (a world the
    /// seat's agent dealt, never the real game: `features.rs`).
    pub fn value(&self, world: &mut Game, seat: u8) -> f64 {
        let Some(f) = &self.features else {
            return 0.5;
        };
        let mut x = Vec::with_capacity(f.len());
        f.extract(world, seat, &mut x);
        self.value_of(&x)
    }

    /// Every seat's logit of its expected result in the possible world `world` (see
    /// [`Model::value`]), the cards counted once.
    pub fn logits(&self, world: &mut Game) -> Vec<f64> {
        let Some(f) = &self.features else {
            return vec![0.0; world.players() as usize];
        };
        f.extract_all(world)
            .iter()
            .map(|x| {
                let (z, t) = self.inputs(x);
                self.logit(&z, t)
            })
            .collect()
    }

    /// The logit of the expected result of a position's raw features `x`.
    pub fn logit_of(&self, x: &[f64]) -> f64 {
        let (z, t) = self.inputs(x);
        self.logit(&z, t)
    }

    /// The expected result of a position's raw features `x`.
    pub fn value_of(&self, x: &[f64]) -> f64 {
        let (z, t) = self.inputs(x);
        sigmoid(self.logit(&z, t))
    }

    /// The inputs of the prior for an option (see [`Prior::score`]): `logit`, the model's logit of
    /// the position it leads to, then the change of each feature the model reads from `before` (the
    /// raw features of the decision's position) to `after` (those of the position it leads to),
    /// over the feature's spread.
    pub fn option_inputs(&self, before: &[f64], after: &[f64], logit: f64) -> Vec<f64> {
        let mut q = Vec::with_capacity(self.keep.len() + 1);
        q.push(logit);
        for (&i, s) in self.keep.iter().zip(&self.spread) {
            let d = after.get(i).copied().unwrap_or(0.0) - before.get(i).copied().unwrap_or(0.0);
            q.push(d / s);
        }
        q
    }

    /// The progress of a position's raw features `x` (its turn over the mean game's length).
    pub fn progress(&self, x: &[f64]) -> f64 {
        x.last().copied().unwrap_or(0.0) / self.turns.max(1.0)
    }

    /// The features this model reads.
    pub fn features(&self) -> Option<&FeatureSet> {
        self.features.as_ref()
    }

    /// The model as text (see the module's notes).
    pub fn to_text(&self) -> String {
        let prior = if self.prior.fitted {
            format!("{} {}", self.prior.value, self.prior.value_t)
        } else {
            "none".to_string()
        };
        let playouts = self.playouts.name();
        let mut s = format!(
            "{MAGIC}\nscript {}\nplayers {}\nturns {}\nbias {}\nprior {prior}\nplayouts {playouts}\n",
            self.script, self.players, self.turns, self.bias
        );
        for i in 0..self.names.len() {
            s.push_str(&format!(
                "feature {} {} {} {} {} {} {}\n",
                self.names[i],
                self.mean[i],
                self.spread[i],
                self.w[i],
                self.u[i],
                self.prior.a[i],
                self.prior.b[i]
            ));
        }
        s.push_str(&self.moves.to_lines());
        s
    }

    /// Reads a model file for `program`, whose text hashes to `script` at `players` players. Any
    /// mismatch is an error that says how to learn again.
    pub fn from_text(
        text: &str,
        program: &Program,
        script: &str,
        players: u8,
    ) -> Result<Model, String> {
        let again = "learn it again with `cardgame learn FILE --players N --out MODEL`";
        let mut lines = text.lines();
        match lines.next() {
            Some(l) if l == MAGIC || MAGIC_BEFORE.contains(&l) => {}
            Some(l) if l.starts_with("cardgame model ") => {
                return Err(format!(
                    "the model was written by another version of cardgame (`{l}`, this one reads \
                     `{MAGIC}`): {again}"
                ))
            }
            _ => {
                return Err(format!(
                    "not a cardgame model (its first line is not `{MAGIC}`)"
                ))
            }
        }
        let mut field = |key: &str| -> Result<String, String> {
            let line = lines.next().unwrap_or("");
            line.strip_prefix(key)
                .and_then(|r| r.strip_prefix(' '))
                .map(str::to_string)
                .ok_or_else(|| format!("the model file has no `{key}` line where expected"))
        };
        let hash = field("script")?;
        let n: u8 = field("players")?
            .parse()
            .map_err(|_| "the model's `players` is not a number".to_string())?;
        let number = |s: String, what: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("the model's `{what}` is not a number"))
        };
        let turns = number(field("turns")?, "turns")?;
        let bias = number(field("bias")?, "bias")?;
        let prior = field("prior")?;
        let weights = match prior.as_str() {
            "none" => None,
            p => {
                let (pv, pt) = p.split_once(' ').ok_or_else(|| {
                    "the model's `prior` line is not `prior V V'` nor `prior none`".to_string()
                })?;
                Some((
                    number(pv.to_string(), "prior")?,
                    number(pt.to_string(), "prior")?,
                ))
            }
        };
        if hash != script {
            return Err(format!(
                "the model was learned for another version of the script (script hash {hash}, this \
                 script's is {script}): {again}"
            ));
        }
        if n != players {
            return Err(format!(
                "the model was learned for {n} players, not {players}: {again}"
            ));
        }
        let mut model = Model::blank(program, hash, players);
        model.turns = turns;
        model.bias = bias;
        if let Some((pv, pt)) = weights {
            model.prior.fitted = true;
            model.prior.value = pv;
            model.prior.value_t = pt;
        }
        let index: std::collections::HashMap<&str, usize> = model
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut rows: Vec<(usize, [f64; 6])> = Vec::new();
        let mut moves = Moves::default();
        let malformed = |line: &str| {
            format!("the model's line `{line}` is not `feature NAME MEAN SPREAD W U A B`")
        };
        let mut playouts = Playouts::Turn;
        for line in lines.filter(|l| !l.trim().is_empty()) {
            if let Some(word) = line.strip_prefix("playouts ") {
                playouts = Playouts::ALL
                    .into_iter()
                    .find(|p| p.name() == word)
                    .ok_or_else(|| {
                        format!("the model's line `{line}` is not `playouts end`, `playouts turn`, `playouts now`, `playouts script` or `playouts measure`")
                    })?;
                continue;
            }
            if ["move ", "part ", "reads ", "unit "]
                .iter()
                .any(|p| line.starts_with(p))
            {
                moves.read_line(line, &|name| index.get(name).copied())?;
                continue;
            }
            // The name may hold spaces (a card's name): the six numbers are the last words.
            let mut parts: Vec<&str> = line.rsplitn(7, ' ').collect();
            if parts.len() != 7 {
                return Err(malformed(line));
            }
            parts.reverse();
            let Some(name) = parts[0].strip_prefix("feature ") else {
                return Err(malformed(line));
            };
            let (m, s, w, u, a, b) = (parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]);
            let Some(&i) = index.get(name) else {
                return Err(format!(
                    "the model reads a feature `{name}` that the script does not have: {again}"
                ));
            };
            if rows.last().is_some_and(|(j, _)| *j >= i) {
                return Err(format!(
                    "the model's feature `{name}` is out of the script's order: {again}"
                ));
            }
            rows.push((
                i,
                [
                    number(m.to_string(), name)?,
                    number(s.to_string(), name)?.max(1e-9),
                    number(w.to_string(), name)?,
                    number(u.to_string(), name)?,
                    number(a.to_string(), name)?,
                    number(b.to_string(), name)?,
                ],
            ));
        }
        for (i, [m, s, w, u, a, b]) in &rows {
            model.mean[*i] = *m;
            model.spread[*i] = *s;
            model.w[*i] = *w;
            model.u[*i] = *u;
            model.prior.a[*i] = *a;
            model.prior.b[*i] = *b;
        }
        let kept: Vec<usize> = rows.iter().map(|(i, _)| *i).collect();
        model.restrict(&kept);
        model.moves = moves;
        model.playouts = playouts;
        Ok(model)
    }
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::{script_hash, Model, Playouts};
    use crate::check::check_source;

    const SRC: &str = "game \"M\" { players 2 }\ncard \"Red Gem\" { copies 2 }\n\
                       zone hand per player: set\nflow { win [seat(1)] \"x\" }\n";

    #[test]
    fn a_model_reads_back_what_it_wrote_and_refuses_another_script() {
        let p = check_source(SRC).program.expect("checks");
        let mut m = Model::blank(&p, script_hash(SRC), 2);
        m.w[0] = 0.25;
        m.u[1] = -1.5;
        m.turns = 12.5;
        m.prior.fitted = true;
        m.prior.value_t = 0.5;
        m.prior.b[1] = 2.0;
        let text = m.to_text();
        let hash = script_hash(SRC);
        assert!(text.starts_with(&format!(
            "cardgame model 8\nscript {hash}\nplayers 2\nturns 12.5\nbias 0\nprior 1 0.5\nplayouts turn\n\
             feature me.hand 0 1 0.25 0 0 0\nfeature me.*:Red Gem 0 1 0 -1.5 0 2\n"
        )));
        let back = Model::from_text(&text, &p, &script_hash(SRC), 2).expect("reads");
        assert_eq!(back.to_text(), text);
        let changed = SRC.replace("copies 2", "copies 3");
        let e = Model::from_text(&text, &p, &script_hash(&changed), 2).unwrap_err();
        assert!(e.contains("another version of the script"), "{e}");
        assert!(e.contains("cardgame learn"), "{e}");
        let e = Model::from_text(&text, &p, &script_hash(SRC), 3).unwrap_err();
        assert!(e.contains("learned for 2 players, not 3"), "{e}");
        // A model that reads some of the features only (the others never varied).
        let mut some = back.clone();
        some.restrict(&[1, 3]);
        let text = some.to_text();
        assert!(text.ends_with(
            "prior 1 0.5\nplayouts turn\nfeature me.*:Red Gem 0 1 0 -1.5 0 2\nfeature next.hand 0 1 0 0 0 0\n"
        ));
        let back = Model::from_text(&text, &p, &hash, 2).expect("reads");
        assert_eq!(
            (back.keep.clone(), back.to_text()),
            (vec![1, 3], text.clone())
        );
        let swapped = text.replace("me.*:Red Gem", "next.*:Red Gem");
        let e = Model::from_text(&swapped, &p, &hash, 2).unwrap_err();
        assert!(e.contains("out of the script's order"), "{e}");
        let unknown = text.replace("me.*:Red Gem", "me.*:Blue Gem");
        let e = Model::from_text(&unknown, &p, &hash, 2).unwrap_err();
        assert!(e.contains("does not have"), "{e}");
        // A prior never fitted.
        let mut blank = back.clone();
        blank.prior = super::Prior::blank(blank.names.len());
        let text = blank.to_text();
        assert!(
            text.contains("\nbias 0\nprior none\nplayouts turn\nfeature "),
            "{text}"
        );
        let back = Model::from_text(&text, &p, &hash, 2).expect("reads");
        assert!(!back.prior.fitted);
        assert_eq!(back.prior.chances(&[0.1, 0.3, 0.2]), vec![0.0, 1.0, 0.0]);
        // A play-out policy is kept as `move` lines after the features.
        let mut playing = back.clone();
        playing.moves.weights.insert(
            super::super::moves::key("Choose an action", "Buy Gem"),
            vec![1.5, -2.0],
        );
        let text = playing.to_text();
        assert!(
            text.ends_with("0 0\nmove 1.5 -2 Choose an action\tBuy Gem\n"),
            "{text}"
        );
        let back = Model::from_text(&text, &p, &hash, 2).expect("reads");
        assert_eq!(back.moves, playing.moves);
        assert_eq!(back.playouts, Playouts::Turn);
        // And the weights of the options' parts as `part` lines after the moves'.
        let mut with_parts = playing.clone();
        with_parts.moves.parts.insert(
            super::super::moves::key("Choose an action", "buy 1=is Gem"),
            vec![0.25, 1.0],
        );
        let parts_text = with_parts.to_text();
        assert!(
            parts_text.ends_with("Buy Gem\npart 0.25 1 Choose an action\tbuy 1=is Gem\n"),
            "{parts_text}"
        );
        let back_parts = Model::from_text(&parts_text, &p, &hash, 2).expect("reads");
        assert_eq!(back_parts.moves, with_parts.moves);
        for setting in Playouts::ALL {
            let written = text.replace("playouts turn", &format!("playouts {}", setting.name()));
            let back = Model::from_text(&written, &p, &hash, 2).expect("reads");
            assert_eq!(back.playouts, setting);
            assert_eq!(back.to_text(), written);
        }
        let e = Model::from_text(&text.replace("playouts turn", "playouts far"), &p, &hash, 2)
            .unwrap_err();
        assert!(e.contains("`playouts far`"), "{e}");
        // A file of the version before (no `move` lines) is still read.
        let before = blank
            .to_text()
            .replace("cardgame model 8", "cardgame model 4");
        let back = Model::from_text(&before, &p, &hash, 2).expect("reads");
        assert!(back.moves.is_empty());
        let before = text.replace("cardgame model 8", "cardgame model 5");
        let back = Model::from_text(&before, &p, &hash, 2).expect("reads");
        assert_eq!(back.moves, playing.moves);
        // A policy that reads the position: its `reads` lines name the script's features.
        let mut reading = playing.clone();
        reading.moves.reads.push(super::super::moves::Read {
            feature: 2,
            name: "me.%:Red Gem".into(),
            mean: 0.5,
            spread: 0.25,
        });
        reading
            .moves
            .weights
            .values_mut()
            .for_each(|w| w.push(-1.0));
        let text = reading.to_text();
        assert!(
            text.ends_with(
                "0 0\nreads me.%:Red Gem 0.5 0.25\nmove 1.5 -2 -1 Choose an action\tBuy Gem\n"
            ),
            "{text}"
        );
        let back = Model::from_text(&text, &p, &hash, 2).expect("reads");
        assert_eq!(back.moves, reading.moves);
        // A policy with hidden units: a `unit` line each, and its moves weigh their outputs.
        let mut network = reading.clone();
        network.moves.units = vec![vec![0.25, 2.0], vec![-0.5, 1.0]];
        network.moves.weights.values_mut().for_each(|w| w.push(0.5));
        let text_units = network.to_text();
        assert!(
            text_units.ends_with(
                "reads me.%:Red Gem 0.5 0.25\nunit 0.25 2\nunit -0.5 1\nmove 1.5 -2 -1 0.5 Choose an action\tBuy Gem\n"
            ),
            "{text_units}"
        );
        let back = Model::from_text(&text_units, &p, &hash, 2).expect("reads");
        assert_eq!(back.moves, network.moves);
        // A unit of the wrong width, and a move line of the width without units.
        let wide = text_units.replace("unit 0.25 2\n", "unit 0.25 2 3\n");
        assert!(Model::from_text(&wide, &p, &hash, 2).is_err());
        assert!(
            Model::from_text(&text_units.replace(" 0.5 Choose", " Choose"), &p, &hash, 2).is_err()
        );
        let unknown = text.replace("reads me.%:Red Gem", "reads me.%:Blue Gem");
        let e = Model::from_text(&unknown, &p, &hash, 2).unwrap_err();
        assert!(e.contains("does not have"), "{e}");
        // A model of the format before the prior is refused with how to learn again.
        let old = "cardgame model 3\nscript x\nplayers 2\nturns 1\nbias 0\n";
        let e = Model::from_text(old, &p, &hash, 2).unwrap_err();
        assert!(e.contains("another version of cardgame"), "{e}");
        assert!(e.contains("cardgame learn"), "{e}");
    }

    #[test]
    fn the_prior_scores_an_option_by_the_logit_it_leads_to_and_what_it_changes() {
        let p = check_source(SRC).program.expect("checks");
        let mut m = Model::blank(&p, script_hash(SRC), 2);
        m.spread[1] = 2.0;
        m.restrict(&[0, 1]);
        // me.hand goes from 1 to 2, me.*:Red Gem from 0 to 4 (spread 2): changes 1 and 2.
        let q = m.option_inputs(&[1.0, 0.0, 0.0], &[2.0, 4.0, 9.0], 0.3);
        assert_eq!(q, vec![0.3, 1.0, 2.0]);
        // The blank prior: the logit alone.
        assert!((m.prior.score(&q, 0.5) - 0.3).abs() < 1e-12);
        m.prior.a[1] = 0.5;
        m.prior.b[0] = -1.0;
        // 0.3 + 1 * (0 - 0.5) + 2 * 0.5 = 0.8
        assert!((m.prior.score(&q, 0.5) - 0.8).abs() < 1e-12);
        let p = super::softmax(&[0.0, 2f64.ln()]);
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-12 && (p[1] - 2.0 / 3.0).abs() < 1e-12);
    }
}
