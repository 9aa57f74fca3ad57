//! Waiting in tests: poll a condition until it holds, for a bounded time. Nothing a
//! test checks on a cluster happens at a known moment (controllers, watches and a real
//! cluster's latency all vary), so a fixed sleep is either too short or wasted time.

use std::future::Future;
use std::time::Duration;

/// How long [`eventually`] waits: generous, for a busy real cluster.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the condition is checked again.
const POLL: Duration = Duration::from_millis(20);

/// Waits until `check` returns `Some` and returns its value; panics (failing the test)
/// after [`DEFAULT_TIMEOUT`] with a message naming `what` was awaited.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use wheelhouse_envtest::eventually;
///
/// let attempts = AtomicU32::new(0);
/// let third = eventually("the third attempt", || async {
///     let n = attempts.fetch_add(1, Ordering::SeqCst) + 1;
///     (n == 3).then_some(n)
/// })
/// .await;
/// assert_eq!(third, 3);
/// # }
/// ```
pub async fn eventually<T, F, Fut>(what: &str, check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    eventually_within(DEFAULT_TIMEOUT, what, check).await
}

/// [`eventually`] with another time limit.
///
/// # Panics
/// When `check` has not returned `Some` within `timeout`: a test assertion.
pub async fn eventually_within<T, F, Fut>(timeout: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        tokio::time::sleep(POLL).await;
    }
}
