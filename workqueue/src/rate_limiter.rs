//! Rate limiters: how long a key waits before it is retried.
//!
//! A [`RateLimiter`] answers `when(key)` each time a key fails; the queue's
//! `add_rate_limited` adds the key after that delay. Limiters compose: the default is
//! client-go's, the larger of a per-key exponential backoff and an overall token bucket.

use std::hash::Hash;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter as Gcra};
use parking_lot::Mutex;
use rand::Rng;

/// Decides how long a failing key waits before its next try.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{ExponentialBackoff, RateLimiter};
///
/// let limiter = ExponentialBackoff::new(Duration::from_millis(5), Duration::from_secs(1000));
/// assert_eq!(limiter.when(&"default/web"), Duration::from_millis(5));
/// assert_eq!(limiter.when(&"default/web"), Duration::from_millis(10));
/// assert_eq!(limiter.num_requeues(&"default/web"), 2);
/// limiter.forget(&"default/web");
/// assert_eq!(limiter.when(&"default/web"), Duration::from_millis(5));
/// ```
pub trait RateLimiter<K>: Send + Sync {
    /// Records a failure of `key` and returns how long it should wait.
    fn when(&self, key: &K) -> Duration;
    /// Forgets `key`'s failures: its next failure starts the backoff over.
    fn forget(&self, key: &K);
    /// How many failures of `key` are remembered.
    fn num_requeues(&self, key: &K) -> u32;
}

impl<K, L: RateLimiter<K> + ?Sized> RateLimiter<K> for Box<L> {
    fn when(&self, key: &K) -> Duration {
        (**self).when(key)
    }
    fn forget(&self, key: &K) {
        (**self).forget(key);
    }
    fn num_requeues(&self, key: &K) -> u32 {
        (**self).num_requeues(key)
    }
}

/// client-go's default limiter: the larger of a per-key exponential backoff from 5 ms
/// to 1000 s and a token bucket of 10 retries a second with bursts of 100.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{RateLimiter, default_rate_limiter};
///
/// let limiter = default_rate_limiter::<&str>();
/// assert_eq!(limiter.when(&"default/web"), Duration::from_millis(5));
/// ```
pub fn default_rate_limiter<K: Eq + Hash + Clone + Send + Sync + 'static>() -> MaxOf<K> {
    MaxOf::new(vec![
        Box::new(ExponentialBackoff::new(
            Duration::from_millis(5),
            Duration::from_secs(1000),
        )),
        Box::new(TokenBucket::from_quota(Quota::per_second(TEN).allow_burst(HUNDRED))),
    ])
}

const TEN: NonZeroU32 = NonZeroU32::new(10).expect("10 is not zero");
const HUNDRED: NonZeroU32 = NonZeroU32::new(100).expect("100 is not zero");

/// Per-key exponential backoff: `base × 2^failures`, capped at `max`. See
/// [`RateLimiter`] for an example.
pub struct ExponentialBackoff<K> {
    base: Duration,
    max: Duration,
    failures: DashMap<K, u32>,
}

impl<K: Eq + Hash> ExponentialBackoff<K> {
    /// A backoff that starts at `base` and never exceeds `max`.
    pub fn new(base: Duration, max: Duration) -> Self {
        Self {
            base,
            max,
            failures: DashMap::new(),
        }
    }
}

impl<K: Eq + Hash + Clone + Send + Sync> RateLimiter<K> for ExponentialBackoff<K> {
    fn when(&self, key: &K) -> Duration {
        let exponent = {
            let mut failures = self.failures.entry(key.clone()).or_insert(0);
            let exponent = *failures;
            *failures = failures.saturating_add(1);
            exponent
        };
        // Overflow-safe: 2^exponent saturates long before a u32 exponent could overflow it.
        let factor = 2u32.checked_pow(exponent).unwrap_or(u32::MAX);
        self.base
            .checked_mul(factor)
            .map_or(self.max, |delay| delay.min(self.max))
    }

    fn forget(&self, key: &K) {
        self.failures.remove(key);
    }

    fn num_requeues(&self, key: &K) -> u32 {
        self.failures.get(key).map_or(0, |failures| *failures)
    }
}

/// The quota given to [`TokenBucket::new`] cannot be built.
///
/// ```
/// use wheelhouse_workqueue::TokenBucket;
///
/// let error = TokenBucket::new(0.0, 10).err().unwrap();
/// assert_eq!(error.to_string(), "invalid token bucket: 0 qps with a burst of 10 (both must be positive and finite)");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid token bucket: {qps} qps with a burst of {burst} (both must be positive and finite)")]
pub struct InvalidQuota {
    /// The rate asked for.
    pub qps: f64,
    /// The burst asked for.
    pub burst: u32,
}

/// An overall token bucket (not per key) on `governor`'s GCRA: `burst` retries at
/// once, then one every `1/qps` seconds.
///
/// Like Go's `rate.Limiter.Reserve`, each call claims the next free slot even when it
/// lies in the future, so a thousand keys failing at once are paced, not bunched.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{RateLimiter, TokenBucket};
///
/// let bucket = TokenBucket::new(2.0, 1).unwrap(); // one at once, then one every 500 ms
/// assert_eq!(RateLimiter::<&str>::when(&bucket, &"a"), Duration::ZERO);
/// let next = RateLimiter::<&str>::when(&bucket, &"b");
/// assert!(next > Duration::from_millis(400) && next <= Duration::from_millis(500));
/// ```
pub struct TokenBucket {
    gcra: Gcra<NotKeyed, InMemoryState, PinnedClock, NoOpMiddleware<Instant>>,
    clock: PinnedClock,
    /// Pinning the clock and checking must not interleave between callers.
    reserving: Mutex<()>,
}

impl TokenBucket {
    /// A bucket refilled at `qps` tokens a second holding at most `burst`.
    pub fn new(qps: f64, burst: u32) -> Result<Self, InvalidQuota> {
        let invalid = || InvalidQuota { qps, burst };
        if !(qps.is_finite() && qps > 0.0) {
            return Err(invalid());
        }
        let burst_size = NonZeroU32::new(burst).ok_or_else(invalid)?;
        let period = Duration::try_from_secs_f64(1.0 / qps).map_err(|_| invalid())?;
        let quota = Quota::with_period(period).ok_or_else(invalid)?.allow_burst(burst_size);
        Ok(Self::from_quota(quota))
    }

    /// A bucket with a `governor` quota.
    pub fn from_quota(quota: Quota) -> Self {
        let clock = PinnedClock::new();
        Self {
            gcra: Gcra::direct_with_clock(quota, clock.clone()),
            clock,
            reserving: Mutex::new(()),
        }
    }
}

impl<K> RateLimiter<K> for TokenBucket {
    fn when(&self, _key: &K) -> Duration {
        let _reserving = self.reserving.lock();
        let now = Instant::now();
        self.clock.pin(now);
        match self.gcra.check() {
            Ok(()) => Duration::ZERO,
            Err(not_until) => {
                let slot = not_until.earliest_possible();
                // Taking the token at its slot is what makes the next caller wait after it.
                self.clock.pin(slot);
                let _claimed = self.gcra.check();
                slot.saturating_duration_since(now)
            }
        }
    }

    fn forget(&self, _key: &K) {}

    fn num_requeues(&self, _key: &K) -> u32 {
        0
    }
}

/// A clock that reads whatever instant it was last pinned to, so the bucket can ask
/// governor "is a token free at this future time?".
#[derive(Clone)]
struct PinnedClock {
    origin: Instant,
    nanos_since_origin: Arc<AtomicU64>,
}

impl PinnedClock {
    fn new() -> Self {
        Self {
            origin: Instant::now(),
            nanos_since_origin: Arc::new(AtomicU64::new(0)),
        }
    }

    fn pin(&self, at: Instant) {
        let nanos = u64::try_from(at.saturating_duration_since(self.origin).as_nanos()).unwrap_or(u64::MAX);
        self.nanos_since_origin.store(nanos, Ordering::Relaxed);
    }
}

impl Clock for PinnedClock {
    type Instant = Instant;

    fn now(&self) -> Instant {
        self.origin + Duration::from_nanos(self.nanos_since_origin.load(Ordering::Relaxed))
    }
}

/// `fast` for the first `fast_attempts` failures of a key, then `slow`.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{FastSlow, RateLimiter};
///
/// let limiter = FastSlow::new(Duration::from_millis(10), Duration::from_secs(5), 2);
/// let delays: Vec<_> = (0..3).map(|_| limiter.when(&"a")).collect();
/// assert_eq!(delays, [Duration::from_millis(10), Duration::from_millis(10), Duration::from_secs(5)]);
/// ```
pub struct FastSlow<K> {
    fast: Duration,
    slow: Duration,
    fast_attempts: u32,
    failures: DashMap<K, u32>,
}

impl<K: Eq + Hash> FastSlow<K> {
    /// Retries after `fast` up to `fast_attempts` times, then after `slow`.
    pub fn new(fast: Duration, slow: Duration, fast_attempts: u32) -> Self {
        Self {
            fast,
            slow,
            fast_attempts,
            failures: DashMap::new(),
        }
    }
}

impl<K: Eq + Hash + Clone + Send + Sync> RateLimiter<K> for FastSlow<K> {
    fn when(&self, key: &K) -> Duration {
        let mut failures = self.failures.entry(key.clone()).or_insert(0);
        *failures = failures.saturating_add(1);
        if *failures <= self.fast_attempts {
            self.fast
        } else {
            self.slow
        }
    }

    fn forget(&self, key: &K) {
        self.failures.remove(key);
    }

    fn num_requeues(&self, key: &K) -> u32 {
        self.failures.get(key).map_or(0, |failures| *failures)
    }
}

/// The largest delay of several limiters; all of them count every failure.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{ExponentialBackoff, FastSlow, MaxOf, RateLimiter};
///
/// let limiter: MaxOf<&str> = MaxOf::new(vec![
///     Box::new(ExponentialBackoff::new(Duration::from_millis(1), Duration::from_secs(1))),
///     Box::new(FastSlow::new(Duration::from_millis(20), Duration::from_millis(20), 0)),
/// ]);
/// assert_eq!(limiter.when(&"a"), Duration::from_millis(20));
/// ```
pub struct MaxOf<K> {
    limiters: Vec<Box<dyn RateLimiter<K>>>,
}

impl<K> MaxOf<K> {
    /// Combines `limiters`; with none, every delay is zero.
    pub fn new(limiters: Vec<Box<dyn RateLimiter<K>>>) -> Self {
        Self { limiters }
    }
}

impl<K> RateLimiter<K> for MaxOf<K> {
    fn when(&self, key: &K) -> Duration {
        // Every limiter must see the failure, so no short-circuiting `max_by`.
        self.limiters
            .iter()
            .map(|l| l.when(key))
            .fold(Duration::ZERO, Duration::max)
    }

    fn forget(&self, key: &K) {
        for limiter in &self.limiters {
            limiter.forget(key);
        }
    }

    fn num_requeues(&self, key: &K) -> u32 {
        self.limiters.iter().map(|l| l.num_requeues(key)).max().unwrap_or(0)
    }
}

/// Caps another limiter's delay at `max`.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{ExponentialBackoff, MaxWait, RateLimiter};
///
/// let limiter = MaxWait::new(ExponentialBackoff::new(Duration::from_secs(1), Duration::from_secs(1000)), Duration::from_secs(2));
/// let delays: Vec<_> = (0..3).map(|_| limiter.when(&"a")).collect();
/// assert_eq!(delays, [Duration::from_secs(1), Duration::from_secs(2), Duration::from_secs(2)]);
/// ```
pub struct MaxWait<L> {
    inner: L,
    max: Duration,
}

impl<L> MaxWait<L> {
    /// Never waits longer than `max`, whatever `inner` says.
    pub fn new(inner: L, max: Duration) -> Self {
        Self { inner, max }
    }
}

impl<K, L: RateLimiter<K>> RateLimiter<K> for MaxWait<L> {
    fn when(&self, key: &K) -> Duration {
        self.inner.when(key).min(self.max)
    }
    fn forget(&self, key: &K) {
        self.inner.forget(key);
    }
    fn num_requeues(&self, key: &K) -> u32 {
        self.inner.num_requeues(key)
    }
}

/// Spreads another limiter's delays: `d` becomes a random delay in `[d, d × (1 + factor))`,
/// so keys that failed together do not all come back at the same instant.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{FastSlow, Jitter, RateLimiter};
///
/// let limiter = Jitter::new(FastSlow::new(Duration::from_secs(1), Duration::from_secs(1), 0), 0.1);
/// let delay = limiter.when(&"a");
/// assert!(delay >= Duration::from_secs(1) && delay < Duration::from_millis(1100));
/// ```
pub struct Jitter<L> {
    inner: L,
    factor: f64,
}

impl<L> Jitter<L> {
    /// Adds up to `factor × delay` at random; a factor that is not positive and finite adds nothing.
    pub fn new(inner: L, factor: f64) -> Self {
        let factor = if factor.is_finite() && factor > 0.0 {
            factor
        } else {
            0.0
        };
        Self { inner, factor }
    }
}

impl<K, L: RateLimiter<K>> RateLimiter<K> for Jitter<L> {
    fn when(&self, key: &K) -> Duration {
        let delay = self.inner.when(key);
        if self.factor == 0.0 || delay.is_zero() {
            return delay;
        }
        let extra = delay.mul_f64(self.factor * rand::rng().random::<f64>());
        delay.saturating_add(extra)
    }
    fn forget(&self, key: &K) {
        self.inner.forget(key);
    }
    fn num_requeues(&self, key: &K) -> u32 {
        self.inner.num_requeues(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn exponential_doubles_per_failure_and_caps() {
        let limiter = ExponentialBackoff::new(5 * MS, 40 * MS);
        let delays: Vec<_> = (0..6).map(|_| limiter.when(&"a")).collect();
        assert_eq!(delays, [5 * MS, 10 * MS, 20 * MS, 40 * MS, 40 * MS, 40 * MS]);
        assert_eq!(limiter.num_requeues(&"a"), 6);
        assert_eq!(limiter.when(&"b"), 5 * MS, "keys back off independently");
    }

    #[test]
    fn exponential_survives_huge_failure_counts() {
        let limiter = ExponentialBackoff::new(5 * MS, Duration::from_secs(1000));
        limiter.failures.insert("a", u32::MAX - 1);
        assert_eq!(limiter.when(&"a"), Duration::from_secs(1000));
        assert_eq!(limiter.when(&"a"), Duration::from_secs(1000));
        let limiter = ExponentialBackoff::new(Duration::MAX, Duration::MAX);
        assert_eq!(limiter.when(&"a"), Duration::MAX);
        assert_eq!(limiter.when(&"a"), Duration::MAX);
    }

    #[test]
    fn forget_resets_backoff() {
        let limiter = ExponentialBackoff::new(5 * MS, Duration::from_secs(1));
        limiter.when(&"a");
        limiter.when(&"a");
        limiter.forget(&"a");
        assert_eq!(limiter.num_requeues(&"a"), 0);
        assert_eq!(limiter.when(&"a"), 5 * MS);
    }

    #[test]
    fn bucket_admits_burst_at_once_then_paces() {
        let bucket = TokenBucket::new(10.0, 100).unwrap();
        for i in 0..100 {
            assert_eq!(
                RateLimiter::<&str>::when(&bucket, &"a"),
                Duration::ZERO,
                "token {i} of the burst"
            );
        }
        // Each later call claims the next slot, 100 ms after the one before.
        for n in 1..=5u32 {
            let delay = RateLimiter::<&str>::when(&bucket, &"a");
            let expected = 100 * MS * n;
            assert!(
                delay <= expected && delay + 50 * MS > expected,
                "call {n}: waited {delay:?}, expected about {expected:?}"
            );
        }
        assert_eq!(RateLimiter::<&str>::num_requeues(&bucket, &"a"), 0);
    }

    #[test]
    fn bucket_rejects_invalid_quotas() {
        assert!(TokenBucket::new(0.0, 10).is_err());
        assert!(TokenBucket::new(f64::NAN, 10).is_err());
        assert!(TokenBucket::new(10.0, 0).is_err());
        let message = TokenBucket::new(-1.0, 5).err().unwrap().to_string();
        assert!(message.contains("-1 qps"), "{message}");
    }

    #[test]
    fn fast_slow_switches_after_fast_attempts() {
        let limiter = FastSlow::new(MS, 10 * MS, 2);
        let delays: Vec<_> = (0..4).map(|_| limiter.when(&"a")).collect();
        assert_eq!(delays, [MS, MS, 10 * MS, 10 * MS]);
        limiter.forget(&"a");
        assert_eq!(limiter.when(&"a"), MS);
    }

    #[test]
    fn max_of_takes_the_largest_and_counts_in_all() {
        let limiter: MaxOf<&str> = MaxOf::new(vec![
            Box::new(ExponentialBackoff::new(MS, Duration::from_secs(1))),
            Box::new(FastSlow::new(3 * MS, 100 * MS, 1)),
        ]);
        assert_eq!(limiter.when(&"a"), 3 * MS);
        assert_eq!(limiter.when(&"a"), 100 * MS);
        assert_eq!(limiter.num_requeues(&"a"), 2);
        limiter.forget(&"a");
        assert_eq!(limiter.num_requeues(&"a"), 0);
    }

    #[test]
    fn max_wait_caps() {
        let limiter = MaxWait::new(ExponentialBackoff::new(10 * MS, Duration::from_secs(10)), 25 * MS);
        let delays: Vec<_> = (0..3).map(|_| limiter.when(&"a")).collect();
        assert_eq!(delays, [10 * MS, 20 * MS, 25 * MS]);
    }

    #[test]
    fn jitter_stays_within_its_factor() {
        let limiter = Jitter::new(FastSlow::new(100 * MS, 100 * MS, 0), 0.5);
        let delays: Vec<_> = (0..200).map(|_| limiter.when(&"a")).collect();
        assert!(delays.iter().all(|d| *d >= 100 * MS && *d < 150 * MS), "{delays:?}");
        assert!(delays.iter().any(|d| *d != delays[0]), "jitter never varied");
    }

    #[test]
    fn default_is_client_go_s() {
        let limiter = default_rate_limiter::<String>();
        let key = "default/web".to_owned();
        assert_eq!(limiter.when(&key), 5 * MS);
        assert_eq!(limiter.when(&key), 10 * MS);
        assert_eq!(limiter.num_requeues(&key), 2);
    }
}
