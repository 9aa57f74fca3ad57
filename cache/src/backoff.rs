//! How an informer waits before it lists or watches again after a failure: from 0.2 s,
//! doubling to at most 2 s, each wait jittered to between half and all of it.
//!
//! kube-runtime's and client-go's defaults go from 0.8 s to 30 s. Waits that long are
//! kind to an API server that struggles, but they are also how long a cache stays stale
//! after the server comes back: an operator whose API server restarted for 19 s waited
//! up to 30 s more before its informers listed again. At most 2 s between tries costs
//! one refused connection (or one error answer) per informer every 2 s while the server
//! is down, and brings every informer back within 2 s of it; the jitter spreads the
//! replicas' relists so they do not all land at once.

use std::time::Duration;

use kube::runtime::utils::Backoff;

/// The first wait.
const FIRST: Duration = Duration::from_millis(200);
/// The longest wait.
const LONGEST: Duration = Duration::from_secs(2);

/// The informers' backoff; reset (by kube's `StreamBackoff`) on every event that arrives.
#[derive(Debug, Clone)]
pub(crate) struct WatchBackoff {
    next: Duration,
}

impl WatchBackoff {
    pub(crate) fn new() -> Self {
        Self { next: FIRST }
    }
}

impl Iterator for WatchBackoff {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        let wait = self.next;
        self.next = (self.next * 2).min(LONGEST);
        // Between half and all of the wait.
        Some(wait.mul_f64(rand::random_range(0.5..=1.0)))
    }
}

impl Backoff for WatchBackoff {
    fn reset(&mut self) {
        self.next = FIRST;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_to_two_seconds_and_start_again_on_reset() {
        let mut backoff = WatchBackoff::new();
        let waits: Vec<Duration> = backoff.by_ref().take(6).collect();
        for (wait, cap) in waits.iter().zip([200, 400, 800, 1600, 2000, 2000]) {
            let cap = Duration::from_millis(cap);
            assert!(*wait <= cap && *wait >= cap / 2, "{wait:?} for {cap:?}");
        }
        backoff.reset();
        assert!(backoff.next().is_some_and(|wait| wait <= FIRST));
    }
}
