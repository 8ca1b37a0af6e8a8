//! Small statistics: proportions with Wilson score intervals, and summaries of samples.

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// A proportion `successes / trials` with its 95% Wilson score interval.
///
/// The Wilson interval (Wilson 1927) is the set of true rates `p` for which the observed rate
/// is within `z` standard errors `sqrt(p(1-p)/n)` of `p`; unlike the plain normal interval it
/// stays inside [0, 1] and is not empty at 0 or n successes (10 wins out of 10 give
/// [0.722, 1]). `successes` may be fractional (a draw counted as half a win); the interval is
/// then the same formula applied to the fractional rate, an approximation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub successes: f64,
    pub trials: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// The rate and its interval; `None` without trials.
    pub fn of(successes: f64, trials: u64) -> Option<Rate> {
        if trials == 0 || !successes.is_finite() {
            return None;
        }
        let n = trials as f64;
        let p = (successes / n).clamp(0.0, 1.0);
        let (low, high) = wilson(p, n, Z95);
        Some(Rate { successes, trials, rate: p, low, high })
    }

    /// The rate of a whole count.
    pub fn count(successes: u64, trials: u64) -> Option<Rate> {
        Rate::of(successes as f64, trials)
    }
}

/// The Wilson score interval of rate `p` over `n` trials at quantile `z`.
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Mean, extremes, median and a histogram of a sample of whole numbers.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Distribution {
    pub count: u64,
    pub mean: f64,
    pub min: u64,
    pub max: u64,
    pub median: f64,
    /// Bins of equal width covering `min..=max`: `(first value, last value, count)`.
    pub histogram: Vec<(u64, u64, u64)>,
}

/// Most bins of a [`Distribution`]'s histogram.
pub const HISTOGRAM_BINS: u64 = 20;

impl Distribution {
    /// The distribution of `values` (all zero fields when empty).
    pub fn of(values: &[u64]) -> Distribution {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let (Some(&min), Some(&max)) = (sorted.first(), sorted.last()) else {
            return Distribution::default();
        };
        let count = sorted.len() as u64;
        let sum: u128 = sorted.iter().map(|&v| u128::from(v)).sum();
        let middle = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[middle] as f64
        } else {
            (sorted[middle - 1] as f64 + sorted[middle] as f64) / 2.0
        };
        let width = (max - min) / HISTOGRAM_BINS + 1;
        let bins = (max - min) / width + 1;
        let mut histogram: Vec<(u64, u64, u64)> =
            (0..bins).map(|b| (min + b * width, min + b * width + width - 1, 0)).collect();
        for &v in &sorted {
            histogram[((v - min) / width) as usize].2 += 1;
        }
        Distribution { count, mean: sum as f64 / count as f64, min, max, median, histogram }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_values_computed_by_hand() {
        // 10 of 10: p = 1, z^2 = 3.8416, denominator 1.38416, centre (1 + 0.19208)/1.38416
        // = 0.861229, half = 1.96/1.38416 * sqrt(0 + 3.8416/400) = 1.416022 * 0.0980 = 0.138770:
        // [0.722459, 1].
        let r = Rate::count(10, 10).unwrap();
        assert!((r.low - 0.722459).abs() < 1e-5 && r.high == 1.0, "{r:?}");
        // 50 of 100: centre 0.5, half = 1.96/1.038416 * sqrt(0.0025 + 0.00009604) = 0.096170.
        let r = Rate::count(50, 100).unwrap();
        assert!((r.low - 0.403830).abs() < 1e-5 && (r.high - 0.596170).abs() < 1e-5, "{r:?}");
        assert_eq!(Rate::count(0, 0), None);
        let zero = Rate::count(0, 5).unwrap();
        assert!(zero.low == 0.0 && zero.high > 0.4 && zero.high < 0.44, "{zero:?}");
    }

    #[test]
    fn distributions_have_their_median_and_bins() {
        let d = Distribution::of(&[5, 1, 3, 9]);
        assert_eq!((d.count, d.min, d.max, d.median, d.mean), (4, 1, 9, 4.0, 4.5));
        assert_eq!(d.histogram.iter().map(|b| b.2).sum::<u64>(), 4);
        assert_eq!(d.histogram.first().map(|b| b.0), Some(1));
        let wide = Distribution::of(&(0..1000).collect::<Vec<_>>());
        assert!(wide.histogram.len() as u64 <= HISTOGRAM_BINS);
        assert!(wide.histogram.iter().all(|b| b.2 > 0));
        assert_eq!(Distribution::of(&[]), Distribution::default());
    }
}
