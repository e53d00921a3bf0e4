//! Simulation stage: a rate with its 95% interval (the Wilson score), as every report gives rates.

use serde::Serialize;

/// A rate with its 95% confidence interval (Wilson score).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Rate {
    pub wins: u64,
    pub games: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(wins: u64, games: u64) -> Rate {
        if games == 0 {
            return Rate {
                wins,
                games,
                rate: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let (rate, low, high) = wilson(wins as f64, games);
        Rate {
            wins,
            games,
            rate,
            low,
            high,
        }
    }
}

/// The rate `successes / trials` with its 95% Wilson score interval, as `(rate, low, high)`;
/// `successes` may be fractional (a tie counted half). All three are 0 when there are no trials.
pub fn wilson(successes: f64, trials: u64) -> (f64, f64, f64) {
    if trials == 0 {
        return (0.0, 0.0, 0.0);
    }
    let n = trials as f64;
    let p = successes / n;
    let z = 1.959_964;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    (
        p,
        // At 0% and 100% the bound is exact (no rounding error like 0.9999999999999999).
        if successes <= 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        if successes >= n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    )
}
