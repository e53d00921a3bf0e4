//! Learning stage: fitting the evaluation (`agents/model.rs`, a logistic model over the features
//! and their products with the game's progress) to recorded positions, by stochastic gradient
//! descent with AdaGrad's steps on the cross-entropy.

use crate::agents::Model;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The mean cross-entropy of `model` on `rows` (standardised inputs, progress, target).
/// A position's standardised features, progress and target.
pub(super) type Row = (Vec<f64>, f64, f64);

pub(super) fn loss(model: &Model, rows: &[Row]) -> f64 {
    let total: f64 = rows
        .iter()
        .map(|(z, t, y)| {
            let p = crate::agents::model::sigmoid(model.logit(z, *t)).clamp(1e-9, 1.0 - 1e-9);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / rows.len().max(1) as f64
}

/// How well a fitted model predicts the results of positions it was not fitted on.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Fit {
    /// The mean cross-entropy on the held-out positions.
    pub loss: f64,
    /// The same for a model that knows only the mean result (what the features add is the gap).
    pub constant: f64,
}

/// Passes over the data at most, and the step of AdaGrad.
const EPOCHS: u32 = 30;
const RATE: f64 = 0.05;
/// The weight of the L2 penalty on the script's measures, and on the other features.
const L2: f64 = 1e-4;
const L2_OTHERS: f64 = 1e-2;

/// A recorded position's features and its target.
pub(super) type Sample<'a> = (&'a [f32], f64);

/// Fits `model` on `train` (standardising the features over it, and leaving out of the model those
/// that never varied in it) by stochastic gradient descent with AdaGrad's steps, in an order
/// shuffled by `seed`, and keeps the weights of the pass whose cross-entropy on `valid` (positions
/// of other games) is the lowest.
pub(super) fn fit(
    model: &mut Model,
    train: &[Sample<'_>],
    valid: &[Sample<'_>],
    turns: f64,
    seed: u64,
) -> Fit {
    let n = model.names.len();
    if train.is_empty() {
        return Fit::default();
    }
    let rows = train.len() as f64;
    let mut sum = vec![0.0; n];
    let mut squares = vec![0.0; n];
    for (x, _) in train {
        for i in 0..n {
            let v = f64::from(x.get(i).copied().unwrap_or(0.0));
            sum[i] += v;
            squares[i] += v * v;
        }
    }
    let mut kept = Vec::new();
    for i in 0..n {
        let mean = sum[i] / rows;
        let var = (squares[i] / rows - mean * mean).max(0.0);
        model.mean[i] = mean;
        model.spread[i] = var.sqrt().max(1e-6);
        if var > 1e-12 {
            kept.push(i);
        }
    }
    model.restrict(&kept);
    model.turns = turns.max(1.0);
    model.w.iter_mut().for_each(|w| *w = 0.0);
    model.u.iter_mut().for_each(|u| *u = 0.0);
    let standardise = |data: &[Sample<'_>]| -> Vec<Row> {
        data.iter()
            .map(|(x, y)| {
                let z = model
                    .keep
                    .iter()
                    .zip(model.mean.iter().zip(&model.spread))
                    .map(|(&i, (m, s))| (f64::from(x[i]) - m) / s)
                    .collect();
                let t = f64::from(x.last().copied().unwrap_or(0.0)) / model.turns;
                (z, t, *y)
            })
            .collect()
    };
    let inputs = standardise(train);
    let held = standardise(valid);
    let mean_y = train.iter().map(|(_, y)| y).sum::<f64>() / rows;
    let clamped = mean_y.clamp(0.01, 0.99);
    model.bias = (clamped / (1.0 - clamped)).ln();
    let constant = loss(model, &held);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // First the script's own measures alone (where it has one), then every feature from there,
    // the others held near zero by a stronger penalty: the model starts from what the script's
    // author wrote and learns what it misses.
    let n = model.names.len();
    let measures: Vec<bool> = model
        .names
        .iter()
        .map(|n| n.ends_with(".measure"))
        .collect();
    let mut best = if measures.contains(&true) {
        descend(model, (&inputs, &held), (&measures, RATE), &mut rng)
    } else {
        f64::INFINITY
    };
    let all = vec![true; n];
    best = best.min(descend(model, (&inputs, &held), (&all, RATE), &mut rng));
    Fit {
        loss: best,
        constant,
    }
}

/// Passes of stochastic gradient descent with AdaGrad's steps (of `rate`) over `inputs`, moving the
/// weights of the features in `free` (and the bias), until the loss on `held` (else on `inputs`) goes up;
/// leaves `model` at its best pass and returns that loss. Weights of the script's measures are
/// penalised by [`L2`], the others by [`L2_OTHERS`].
pub(super) fn descend(
    model: &mut Model,
    (inputs, held): (&[Row], &[Row]),
    (free, rate): (&[bool], f64),
    rng: &mut ChaCha8Rng,
) -> f64 {
    let n = model.names.len();
    let penalty: Vec<f64> = model
        .names
        .iter()
        .map(|name| {
            if name.ends_with(".measure") {
                L2
            } else {
                L2_OTHERS
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    // AdaGrad's sums of squared gradients: the bias, then w and u per feature.
    let (mut gb, mut gw, mut gu) = (1e-8, vec![1e-8; n], vec![1e-8; n]);
    let judged = |m: &Model| {
        if held.is_empty() {
            loss(m, inputs)
        } else {
            loss(m, held)
        }
    };
    let mut best = (judged(model), model.clone());
    for _ in 0..EPOCHS {
        order.shuffle(rng);
        for &r in &order {
            let (z, t, y) = &inputs[r];
            let p = crate::agents::model::sigmoid(model.logit(z, *t));
            let g = p - y;
            gb += g * g;
            model.bias -= rate * g / gb.sqrt();
            for i in 0..n {
                let z = z[i];
                if !free[i] || (z == 0.0 && model.w[i] == 0.0 && model.u[i] == 0.0) {
                    continue;
                }
                let dw = g * z + penalty[i] * model.w[i];
                let du = g * z * t + penalty[i] * model.u[i];
                gw[i] += dw * dw;
                gu[i] += du * du;
                model.w[i] -= rate * dw / gw[i].sqrt();
                model.u[i] -= rate * du / gu[i].sqrt();
            }
        }
        let l = judged(model);
        if l < best.0 {
            best = (l, model.clone());
        } else {
            // The held-out loss went up: the passes from here on fit the noise.
            break;
        }
    }
    *model = best.1;
    best.0
}
