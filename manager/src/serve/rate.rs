//! [`MinDataRate`]: how fast a request body must arrive, as Kestrel's
//! `MinRequestBodyDataRate` puts it (bytes per second, judged over a grace period),
//! and the watch a [`RequestBody`](super::RequestBody) keeps on it.
//!
//! Kestrel judges the average since the body began, which a client defeats by
//! sending most of its body at once and then a byte now and then: the average stays
//! high for minutes while the bytes it sent stay held. Here every period of `grace`
//! must bring `bytes_per_second × grace` bytes (or the rest of a body of declared
//! length); a period starts when the last one's quota was met, so a body that stops
//! is closed within one period of its last burst, whatever it sent before. Time the
//! server spends not reading (deciding what to do with the last piece, waiting for
//! room in its budget) is not the client's and is not counted.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

/// The slowest a request body may arrive: `bytes_per_second`, judged over each period
/// of `grace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinDataRate {
    /// Bytes a second, on average over each period.
    pub bytes_per_second: u64,
    /// The period it is judged over; also how long a client has for its first bytes.
    pub grace: Duration,
}

impl MinDataRate {
    /// The bytes one period must bring.
    fn quota(&self) -> u64 {
        let quota = u128::from(self.bytes_per_second) * self.grace.as_millis() / 1000;
        u64::try_from(quota).unwrap_or(u64::MAX).max(1)
    }
}

/// The watch on one body: the period under way, what it brought, and the timer that
/// ends it.
pub(super) struct RateWatch {
    rate: MinDataRate,
    /// Bytes still to come, when the body declared its length.
    remaining: Option<u64>,
    period_bytes: u64,
    timer: Pin<Box<Sleep>>,
    /// When the last piece was handed to the server: the time until it asks again is
    /// not the client's.
    handed_at: Option<Instant>,
}

impl RateWatch {
    pub fn new(rate: MinDataRate, declared: Option<u64>) -> Self {
        Self {
            rate,
            remaining: declared,
            period_bytes: 0,
            timer: Box::pin(tokio::time::sleep(rate.grace)),
            // The period starts when the server first asks for the body.
            handed_at: Some(Instant::now()),
        }
    }

    /// The server asks for more: the time since it was handed the last piece is added
    /// to the period.
    pub fn asked(&mut self) {
        if let Some(handed) = self.handed_at.take() {
            let deadline = self.timer.deadline() + handed.elapsed();
            self.timer.as_mut().reset(deadline);
        }
    }

    /// `bytes` arrived and are handed to the server.
    pub fn arrived(&mut self, bytes: u64) {
        let now = Instant::now();
        self.handed_at = Some(now);
        self.period_bytes = self.period_bytes.saturating_add(bytes);
        let quota = self.quota();
        if let Some(remaining) = &mut self.remaining {
            *remaining = remaining.saturating_sub(bytes);
        }
        if self.period_bytes >= quota {
            self.period_bytes = 0;
            self.timer.as_mut().reset(now + self.rate.grace);
        }
    }

    /// This period's quota: the rate's, or the rest of a declared body if less.
    fn quota(&self) -> u64 {
        let quota = self.rate.quota();
        self.remaining.map_or(quota, |remaining| quota.min(remaining.max(1)))
    }

    /// Ready when the period ended short of its quota (with the client waited on).
    pub fn poll_too_slow(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        self.timer.as_mut().poll(cx)
    }

    pub fn rate(&self) -> MinDataRate {
        self.rate
    }
}

#[cfg(test)]
mod tests {
    use std::task::Waker;

    use super::*;

    fn expired(watch: &mut RateWatch) -> bool {
        watch.poll_too_slow(&mut Context::from_waker(Waker::noop())).is_ready()
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_then_a_trickle_is_too_slow_within_one_period() {
        let rate = MinDataRate {
            bytes_per_second: 1000,
            grace: Duration::from_secs(2),
        };
        let mut watch = RateWatch::new(rate, Some(65_000));
        // The server reads as soon as it can; the client sends most of its body.
        watch.asked();
        watch.arrived(64_000);
        for _ in 0..3 {
            watch.asked();
            tokio::time::advance(Duration::from_millis(600)).await;
            watch.arrived(1);
            assert!(!expired(&mut watch));
        }
        watch.asked();
        tokio::time::advance(Duration::from_millis(300)).await;
        assert!(expired(&mut watch), "a byte every 600 ms is not 1000 a second");
    }

    #[tokio::test(start_paused = true)]
    async fn a_steady_body_and_the_servers_own_pauses_are_never_too_slow() {
        let rate = MinDataRate {
            bytes_per_second: 1000,
            grace: Duration::from_secs(1),
        };
        let mut watch = RateWatch::new(rate, None);
        for _ in 0..10 {
            watch.asked();
            tokio::time::advance(Duration::from_millis(900)).await;
            watch.arrived(1000);
            assert!(!expired(&mut watch));
            // The server takes its time with the piece: not the client's.
            tokio::time::advance(Duration::from_secs(5)).await;
        }
        // The end of a declared body needs only what is left.
        let mut ending = RateWatch::new(rate, Some(1500));
        ending.asked();
        ending.arrived(1000);
        ending.asked();
        tokio::time::advance(Duration::from_millis(900)).await;
        ending.arrived(500);
        ending.asked();
        tokio::time::advance(Duration::from_millis(900)).await;
        assert!(!expired(&mut ending));
    }
}
