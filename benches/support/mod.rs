//! What the benchmarks share: medians, units, and settings read from the environment.

pub mod dedup_floor;
pub mod operator;
pub mod queues;

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

/// The value `percent` of the way up `values` once sorted (nearest rank, rounding
/// down), or None for no values: 50 is a median, 100 the maximum.
pub fn percentile<T: Copy + PartialOrd>(values: &mut [T], percent: usize) -> Option<T> {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values.get(values.len().saturating_sub(1) * percent / 100).copied()
}

/// The multi-threaded tokio runtime a benchmark drives its work on (one worker per
/// core).
///
/// # Panics
/// When the runtime cannot start (no threads to be had): a benchmark cannot run then.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// The alternatives a benchmark compares, less those the environment variable
/// `variable` excludes: when set, it names the one alternative to run (for profiling).
///
/// # Panics
/// When `variable` names none of them.
pub fn selected<T: Copy>(variable: &str, all: &[T], name: impl Fn(T) -> &'static str) -> Vec<T> {
    let only = std::env::var(variable).ok();
    let chosen: Vec<T> = all
        .iter()
        .copied()
        .filter(|&item| only.as_deref().is_none_or(|only| only == name(item)))
        .collect();
    assert!(
        !chosen.is_empty(),
        "{variable} must be one of: {}",
        all.iter().map(|&item| name(item)).collect::<Vec<_>>().join(", ")
    );
    chosen
}
