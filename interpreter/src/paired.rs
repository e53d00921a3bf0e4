//! Simulation stage: the statistics of a paired comparison (`cardgame compare`): per figure, the sums
//! that give both sides' values, their difference and its standard error, added up game by game in
//! whole numbers (so that shards add up), and the intervals read from them.
//!
//! Each figure is a ratio of sums over games, `ΣS / ΣN` (a rate or a per-game mean has `N = 1`; a
//! statistic's mean has `N` = its records in the game). The difference `B - A` of two ratios taken
//! over the same games is estimated with the delta method: with `u = (S_A - a·N_A) / mean(N_A)` and
//! `v = (S_B - b·N_B) / mean(N_B)` per game, its variance is `Σ(v - u)² / (G - 1) / G`. The pairing
//! shows in the cross sums: two sides that play alike games have close `u` and `v`, and small
//! differences become visible with few games.

use serde::{Deserialize, Serialize};

/// The sums of one figure over the games compared, both sides.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    sa: i128,
    sb: i128,
    na: i128,
    nb: i128,
    saa: i128,
    sbb: i128,
    sab: i128,
    naa: i128,
    nbb: i128,
    nab: i128,
    san: i128,
    sbn: i128,
    /// Σ S_A·N_B and Σ N_A·S_B.
    sanb: i128,
    nasb: i128,
}

/// What one figure's sums say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub a: f64,
    pub b: f64,
    /// `b - a`.
    pub difference: f64,
    /// The standard error of the difference.
    pub error: f64,
}

impl Paired {
    /// The sums of `games` games in which the figure was 0 of 1 on both sides (a rate that a figure
    /// seen for the first time had in the games before).
    pub fn zeros(games: u64) -> Paired {
        let g = i128::from(games);
        Paired {
            na: g,
            nb: g,
            naa: g,
            nbb: g,
            nab: g,
            ..Paired::default()
        }
    }

    /// Adds the sums of other games (a shard's) to these.
    pub fn absorb(&mut self, other: &Paired) {
        self.sa += other.sa;
        self.sb += other.sb;
        self.na += other.na;
        self.nb += other.nb;
        self.saa += other.saa;
        self.sbb += other.sbb;
        self.sab += other.sab;
        self.naa += other.naa;
        self.nbb += other.nbb;
        self.nab += other.nab;
        self.san += other.san;
        self.sbn += other.sbn;
        self.sanb += other.sanb;
        self.nasb += other.nasb;
    }

    /// Whether the figure was 0 in every game on both sides.
    pub fn is_nothing(&self) -> bool {
        self.saa == 0 && self.sbb == 0
    }

    /// Adds one game: `(S, N)` of side A and of side B.
    pub fn add(&mut self, (sa, na): (i128, i128), (sb, nb): (i128, i128)) {
        self.sa += sa;
        self.sb += sb;
        self.na += na;
        self.nb += nb;
        self.saa += sa * sa;
        self.sbb += sb * sb;
        self.sab += sa * sb;
        self.naa += na * na;
        self.nbb += nb * nb;
        self.nab += na * nb;
        self.san += sa * na;
        self.sbn += sb * nb;
        self.sanb += sa * nb;
        self.nasb += na * sb;
    }

    /// Adds the sums of other games (another shard).
    pub fn merge(&mut self, o: &Paired) {
        for (x, y) in [
            (&mut self.sa, o.sa),
            (&mut self.sb, o.sb),
            (&mut self.na, o.na),
            (&mut self.nb, o.nb),
            (&mut self.saa, o.saa),
            (&mut self.sbb, o.sbb),
            (&mut self.sab, o.sab),
            (&mut self.naa, o.naa),
            (&mut self.nbb, o.nbb),
            (&mut self.nab, o.nab),
            (&mut self.san, o.san),
            (&mut self.sbn, o.sbn),
            (&mut self.sanb, o.sanb),
            (&mut self.nasb, o.nasb),
        ] {
            *x += y;
        }
    }

    /// Both values, the difference and its standard error over `games` games; `None` when a side has
    /// nothing to average (a statistic it never recorded).
    pub fn estimate(&self, games: u64) -> Option<Estimate> {
        if self.na == 0 || self.nb == 0 || games == 0 {
            return None;
        }
        let g = games as f64;
        let f = |x: i128| x as f64;
        let a = f(self.sa) / f(self.na);
        let b = f(self.sb) / f(self.nb);
        let mean_na = f(self.na) / g;
        let mean_nb = f(self.nb) / g;
        let uu = (f(self.saa) - 2.0 * a * f(self.san) + a * a * f(self.naa)) / (mean_na * mean_na);
        let vv = (f(self.sbb) - 2.0 * b * f(self.sbn) + b * b * f(self.nbb)) / (mean_nb * mean_nb);
        let uv = (f(self.sab) - b * f(self.sanb) - a * f(self.nasb) + a * b * f(self.nab))
            / (mean_na * mean_nb);
        let error = if games < 2 {
            f64::INFINITY
        } else {
            ((uu + vv - 2.0 * uv).max(0.0) / (g - 1.0) / g).sqrt()
        };
        Some(Estimate {
            a,
            b,
            difference: b - a,
            error,
        })
    }
}

/// The `p` quantile of the standard normal distribution (Acklam's rational approximation, relative
/// error below 1.2e-9), for `p` in (0, 1).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let low = 0.024_25;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < low {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - low {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The half width of the asymptotic confidence sequence of level `1 - alpha` for a mean after `t`
/// samples of variance `variance`, tuned to be narrowest at `t_target` samples (Waudby-Smith, Arbour,
/// Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence
/// sequences", 2024): the interval holds at every `t` at once, so it may be looked at after every
/// game and the study stopped as soon as it excludes 0.
pub fn sequence_half_width(t: u64, variance: f64, alpha: f64, t_target: u64) -> f64 {
    let t = t.max(1) as f64;
    let log_a = (1.0 / alpha).ln();
    let rho2 = (2.0 * log_a + (2.0 * log_a + 1.0).ln()) / t_target.max(1) as f64;
    let grow = t * variance * rho2 + 1.0;
    (2.0 * grow / (t * t * rho2) * (grow.sqrt() / alpha).ln()).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_normal_quantile_is_right() {
        for (p, z) in [
            (0.5, 0.0),
            (0.975, 1.959_963_985),
            (0.025, -1.959_963_985),
            (0.995, 2.575_829_304),
            (1.0 - 0.05 / 40.0, 3.023_341_44),
        ] {
            assert!(
                (normal_quantile(p) - z).abs() < 1e-6,
                "{p}: {}",
                normal_quantile(p)
            );
        }
    }

    #[test]
    fn a_rate_paired_with_itself_differs_by_nothing_and_pairing_narrows_the_interval() {
        // Side B wins exactly when side A does, but for one game in ten where it loses instead.
        let mut paired = Paired::default();
        let mut unpaired = Paired::default();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for g in 0..1000 {
            let a = i128::from(rng.gen_bool(0.5));
            let b = if g % 10 == 0 { 0 } else { a };
            paired.add((a, 1), (b, 1));
            let other = i128::from(rng.gen_bool(0.5));
            unpaired.add((a, 1), (other, 1));
        }
        let e = paired.estimate(1000).expect("both sides");
        let u = unpaired.estimate(1000).expect("both sides");
        assert!(e.difference < 0.0 && e.difference > -0.1);
        // The unpaired sides' error is that of two independent rates, about sqrt(0.5/1000).
        assert!(
            (u.error - (0.5f64 / 1000.0).sqrt()).abs() < 0.004,
            "{}",
            u.error
        );
        assert!(e.error < u.error / 3.0, "{} against {}", e.error, u.error);
        let mut same = Paired::default();
        same.add((1, 1), (1, 1));
        same.add((0, 1), (0, 1));
        let s = same.estimate(2).expect("both sides");
        assert_eq!((s.difference, s.error), (0.0, 0.0));
    }

    #[test]
    fn a_ratio_is_the_mean_of_the_records_and_a_side_without_records_has_none() {
        let mut p = Paired::default();
        p.add((6, 3), (0, 0));
        p.add((4, 1), (0, 0));
        assert_eq!(p.estimate(2), None);
        p.add((0, 0), (10, 2));
        let e = p.estimate(3).expect("both sides");
        assert_eq!((e.a, e.b), (2.5, 5.0));
    }

    #[test]
    fn looking_after_every_game_keeps_the_sequence_s_error_rate() {
        // No difference: the share of studies whose sequence ever excludes 0 while it is watched
        // after every game, up to 2,000 games, must stay near 5% (a fixed interval, looked at so
        // often, would exclude 0 in most of them).
        let mut rng = ChaCha8Rng::seed_from_u64(44);
        let (studies, games) = (400, 2000u64);
        let (mut sequence_wrong, mut fixed_wrong) = (0, 0);
        for _ in 0..studies {
            let (mut sum, mut squares) = (0.0f64, 0.0f64);
            let (mut seq, mut fixed) = (false, false);
            for t in 1..=games {
                let d =
                    f64::from(u8::from(rng.gen_bool(0.5))) - f64::from(u8::from(rng.gen_bool(0.5)));
                sum += d;
                squares += d * d;
                if t < 10 {
                    continue;
                }
                let n = t as f64;
                let mean = sum / n;
                let variance = (squares - n * mean * mean) / (n - 1.0);
                seq |= mean.abs() > sequence_half_width(t, variance, 0.05, games);
                fixed |= mean.abs() > 1.96 * (variance / n).sqrt();
            }
            sequence_wrong += u32::from(seq);
            fixed_wrong += u32::from(fixed);
        }
        let rate = f64::from(sequence_wrong) / f64::from(studies);
        assert!(rate <= 0.075, "the sequence was wrong in {rate}");
        assert!(f64::from(fixed_wrong) / f64::from(studies) > 0.2);
    }
}
