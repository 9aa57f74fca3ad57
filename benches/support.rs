//! What the benchmarks share: medians, units, and settings read from the environment.

use std::time::Duration;

/// The middle of `values` (the upper of the two middles of an even count).
///
/// # Panics
/// When `values` is empty: a benchmark always has runs.
pub fn median<T: Copy + PartialOrd>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    *values.get(values.len() / 2).expect("a median of no values")
}

/// A duration in milliseconds.
pub fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// `count` over `elapsed`, per second.
#[expect(clippy::cast_precision_loss, reason = "counts fit an f64 exactly enough")]
pub fn per_second(count: usize, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64()
}

/// A count as an `f64`, for ratios.
#[expect(
    clippy::cast_precision_loss,
    reason = "counts and byte totals fit an f64 exactly enough"
)]
pub fn as_f64(count: usize) -> f64 {
    count as f64
}

/// The number in the environment variable `name`, or `default`.
pub fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
