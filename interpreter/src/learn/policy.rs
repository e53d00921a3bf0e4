//! Learning stage: the play-out policy as it is trained (`agents/moves.rs`'s form, its moves by
//! index rather than by key): the scores of a decision's options, the gradient of its hidden units,
//! and its fit to a teacher's choices (imitation, `learn/moves.rs`).
//!
//! A policy without hidden units scores an option by its move's weights over `1`, the progress and
//! the features read (none for the policy of the progress alone). One with hidden units (a small
//! network: `--policy-units`) first sums the features read into each unit, `tanh(c + Σ wᵢ zᵢ)`,
//! and its moves weigh the units' outputs instead of the features: every move shares what the
//! units read of the position, so a few thousand games teach it what the linear policy, whose
//! every move weighs every feature alone, needs far more to learn.

use crate::agents::model::softmax;
use crate::agents::moves::{dot, summed_rows, through_units};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::borrow::Cow;

/// Passes over the decisions at most, the step of AdaGrad and the weight of the L2 penalty.
const EPOCHS: u32 = 30;
const RATE: f64 = 0.1;
const L2: f64 = 1e-4;

/// One decision ready to fit: for each option, the indices of its keys (its move's, then its
/// parts' where the policy weighs them), the option taken, the policy's inputs before any hidden
/// unit (`1`, the progress, the features read, standardised: `Moves::reading`).
pub(super) struct Row {
    pub moves: Vec<Vec<u32>>,
    pub taken: usize,
    pub inputs: Vec<f64>,
}

/// A play-out policy as it is fitted: per move (by index) its weights, and its hidden units (none:
/// the moves' weights read the features themselves).
#[derive(Clone, Debug)]
pub(super) struct Net {
    pub weights: Vec<Vec<f64>>,
    pub units: Vec<Vec<f64>>,
}

impl Net {
    /// A policy of `moves` moves whose weights are all 0, reading `reads` features through `units`
    /// hidden units (0: directly), their first weights drawn from `seed` ([`first_units`]).
    pub fn blank(moves: usize, (reads, units): (usize, usize), seed: u64) -> Net {
        let width = 2 + if units == 0 { reads } else { units };
        Net {
            weights: vec![vec![0.0; width]; moves],
            units: first_units(units, reads, seed),
        }
    }

    /// The inputs the moves weigh for a row's `inputs`: themselves where there is no hidden unit,
    /// else `1`, the progress and each unit's output.
    fn features<'a>(&self, inputs: &'a [f64]) -> Cow<'a, [f64]> {
        if self.units.is_empty() {
            return Cow::Borrowed(inputs);
        }
        let (head, reading) = inputs.split_at(inputs.len().min(2));
        Cow::Owned(through_units(&self.units, head, reading))
    }

    /// The scores of a row's options.
    fn scores(&self, row: &Row) -> Vec<f64> {
        let features = self.features(&row.inputs);
        self.scores_with(row, &features)
    }

    /// The scores of a row's options with the moves' inputs `features`: each option's keys'
    /// weights summed.
    fn scores_with(&self, row: &Row, features: &[f64]) -> Vec<f64> {
        (row.moves.iter())
            .map(|keys| {
                (keys.iter())
                    .map(|&m| dot(&self.weights[m as usize], features))
                    .sum()
            })
            .collect()
    }

    /// The weights an option whose keys are `keys` gives the moves' inputs: its keys' weights
    /// summed.
    fn summed(&self, keys: &[u32]) -> Vec<f64> {
        let width = self.weights.first().map_or(2, Vec::len);
        summed_rows(width, keys.iter().map(|&m| &self.weights[m as usize]))
    }
}

/// The first weights of `count` hidden units over `reads` features: drawn uniformly within
/// `±√(3 / reads)`, so that a unit's sum over standardised features spreads by about 1 (its `tanh`
/// neither flat nor saturated); biases 0.
pub(super) fn first_units(count: usize, reads: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0075_6E69_7473);
    let bound = (3.0 / reads.max(1) as f64).sqrt();
    (0..count)
        .map(|_| {
            std::iter::once(0.0)
                .chain((0..reads).map(|_| rng.gen_range(-bound..bound)))
                .collect()
        })
        .collect()
}

/// Adds to `gradient` (one row per unit: its bias, then a weight per feature read) the gradient of
/// `Σᵢ pushᵢ · scoreᵢ` with respect to the hidden units' weights, for a decision whose `reading` gave
/// the units' `outputs`, and whose options are weighed by `options` (each option's move weights,
/// and its push).
pub(super) fn units_gradient(
    (reading, outputs): (&[f64], &[f64]),
    options: &[(&[f64], f64)],
    gradient: &mut [Vec<f64>],
) {
    for (j, (h, row)) in outputs.iter().zip(gradient.iter_mut()).enumerate() {
        let through: f64 = options
            .iter()
            .map(|(w, push)| push * w.get(2 + j).copied().unwrap_or(0.0))
            .sum();
        let d = through * (1.0 - h * h);
        if d == 0.0 {
            continue;
        }
        row[0] += d;
        for (g, z) in row[1..].iter_mut().zip(reading) {
            *g += d * z;
        }
    }
}

/// The mean cross-entropy of `net` on `rows`, and how many of them the policy's most likely option
/// is the one taken.
pub(super) fn loss(net: &Net, rows: &[&Row]) -> (f64, usize) {
    let mut total = 0.0;
    let mut agree = 0;
    for row in rows {
        let s = net.scores(row);
        let p = softmax(&s);
        total -= p[row.taken].max(1e-12).ln();
        let best = (0..s.len()).fold(0, |b, i| if s[i] > s[b] { i } else { b });
        agree += usize::from(best == row.taken);
    }
    (total / rows.len().max(1) as f64, agree)
}

/// Fits `start` to the choices of `train` by stochastic gradient descent on the cross-entropy
/// (AdaGrad's steps, an L2 penalty, the order shuffled by `seed`), keeping the pass with the lowest
/// cross-entropy on `held`.
pub(super) fn fit(start: Net, train: &[&Row], held: &[&Row], seed: u64) -> Net {
    let mut net = start;
    let width = net.weights.first().map_or(2, Vec::len);
    let reads = net.units.first().map_or(0, |u| u.len().saturating_sub(1));
    let (position, units_step) = (position_step(width - 2), position_step(reads));
    let mut squares = vec![vec![1e-8; width]; net.weights.len()];
    let mut unit_squares = vec![vec![1e-8; reads + 1]; net.units.len()];
    let mut best = (loss(&net, held).0, net.clone());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x006D_6F76_6573);
    for _ in 0..EPOCHS {
        order.shuffle(&mut rng);
        for &r in &order {
            let row = train[r];
            let features = net.features(&row.inputs).into_owned();
            let p = softmax(&net.scores_with(row, &features));
            if !net.units.is_empty() {
                // The units' step first, through the moves' weights as they are.
                let summed: Vec<Vec<f64>> = row.moves.iter().map(|keys| net.summed(keys)).collect();
                let options: Vec<(&[f64], f64)> = (summed.iter().enumerate())
                    .map(|(i, w)| {
                        let error = p[i] - f64::from(u8::from(i == row.taken));
                        (w.as_slice(), error)
                    })
                    .collect();
                let mut gradient = vec![vec![0.0; reads + 1]; net.units.len()];
                let reading = row.inputs.get(2..).unwrap_or(&[]);
                units_gradient((reading, &features[2..]), &options, &mut gradient);
                for ((unit, g), acc) in net.units.iter_mut().zip(&gradient).zip(&mut unit_squares) {
                    for ((w, g), acc) in unit.iter_mut().zip(g).zip(acc.iter_mut()) {
                        let grad = g + L2 * *w;
                        *acc += grad * grad;
                        *w -= RATE * units_step * grad / acc.sqrt();
                    }
                }
            }
            let keys = (row.moves.iter().enumerate())
                .flat_map(|(i, keys)| keys.iter().map(move |&m| (i, m)));
            for (i, m) in keys {
                let error = p[i] - f64::from(u8::from(i == row.taken));
                let w = &mut net.weights[m as usize];
                let g = &mut squares[m as usize];
                for (j, x) in features.iter().enumerate().take(width) {
                    let grad = error * x + L2 * w[j];
                    g[j] += grad * grad;
                    let rate = if j < 2 { RATE } else { RATE * position };
                    w[j] -= rate * grad / g[j].sqrt();
                }
            }
        }
        let l = loss(&net, held).0;
        if l < best.0 {
            best = (l, net.clone());
        } else if l > best.0 * 1.001 {
            break;
        }
    }
    best.1
}

/// The factor on the steps of the weights on the position, for a policy that reads `reads`
/// features: 1 up to 64 of them, then `8 / √reads`. AdaGrad's first steps move every weight by the
/// whole step, each in the sign of its gradient; over many features whose signs are unrelated the
/// scores then move by the step times about `√reads`, which this holds where Market Race's 64 were
/// measured (at more, whole fits diverged and kept no weight). The same holds a hidden unit's sum.
pub(super) fn position_step(reads: usize) -> f64 {
    (8.0 / (reads.max(1) as f64).sqrt()).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::{fit, loss, Net, Row};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_policy_learns_which_move_is_taken_and_when() {
        // Move 0 is taken over move 1 early (t < 0.5) and move 1 late; move 2 never.
        let rows: Vec<Row> = (0..400)
            .map(|i| {
                let t = f64::from(i % 10) / 10.0;
                Row {
                    moves: vec![vec![0], vec![1], vec![2]],
                    taken: usize::from(t >= 0.5),
                    inputs: vec![1.0, t],
                }
            })
            .collect();
        let all: Vec<&Row> = rows.iter().collect();
        let net = fit(Net::blank(3, (0, 0), 7), &all[..300], &all[300..], 7);
        let (l, agree) = loss(&net, &all[300..]);
        assert!(l < 0.5 * 3f64.ln(), "{l}");
        // All but the decisions near the switch are predicted.
        assert!(agree >= 80, "{agree}");
        // Late on, move 0 weighs less than move 1; move 2 least of all early.
        let weights = &net.weights;
        let at = |m: usize, t: f64| weights[m][0] + weights[m][1] * t;
        assert!(at(1, 0.9) > at(0, 0.9) && at(0, 0.1) > at(1, 0.1));
        assert!(at(2, 0.1) < at(0, 0.1));
    }

    /// Rows of two moves over `reads` features (the first two meaningful, the rest noise), move 0
    /// taken where `taken_first` says so of the first two.
    fn rows_of(reads: usize, taken_first: &dyn Fn(f64, f64) -> bool) -> Vec<Row> {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        (0..2000)
            .map(|i| {
                let sign = |b: bool| if b { 1.0 } else { -1.0 };
                let (a, b) = (sign(i % 2 == 0), sign(i % 4 < 2));
                let mut inputs = vec![1.0, f64::from(i % 10) / 10.0, a, b];
                inputs.extend((2..reads).map(|_| rng.gen_range(-1.0..1.0)));
                Row {
                    moves: vec![vec![0], vec![1]],
                    taken: usize::from(!taken_first(a, b)),
                    inputs,
                }
            })
            .collect()
    }

    #[test]
    fn the_policy_learns_a_move_that_depends_on_the_position() {
        // Move 0 is taken where the first feature is above its mean, move 1 where it is below,
        // whatever the progress; 99 other features are noise.
        let rows = rows_of(100, &|a, _| a > 0.0);
        let all: Vec<&Row> = rows.iter().collect();
        let net = fit(Net::blank(2, (100, 0), 7), &all[..1500], &all[1500..], 7);
        let (l, agree) = loss(&net, &all[1500..]);
        assert!(l < 0.2 * 2f64.ln(), "{l}");
        assert!(agree >= 490, "{agree}");
        assert!(net.weights[0][2] > net.weights[1][2]);
    }

    #[test]
    fn hidden_units_learn_what_no_move_weighs_alone() {
        // Move 0 is taken where the first two features agree (both above their means or both
        // below), which no weighing of each feature alone can tell; 18 other features are noise.
        let rows = rows_of(20, &|a, b| a * b > 0.0);
        let all: Vec<&Row> = rows.iter().collect();
        let (train, held) = (&all[..1500], &all[1500..]);
        let linear = fit(Net::blank(2, (20, 0), 7), train, held, 7);
        let network = fit(Net::blank(2, (20, 8), 7), train, held, 7);
        let (linear_loss, linear_agree) = loss(&linear, held);
        let (network_loss, network_agree) = loss(&network, held);
        // The linear policy does no better than a coin; the units tell nearly every decision.
        assert!(linear_agree < 300, "{linear_agree}");
        assert!(linear_loss > 0.9 * 2f64.ln(), "{linear_loss}");
        assert!(network_agree >= 480, "{network_agree}");
        assert!(network_loss < 0.3 * 2f64.ln(), "{network_loss}");
    }
}
