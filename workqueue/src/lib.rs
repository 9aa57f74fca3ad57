//! A work queue for Kubernetes controllers, with client-go's semantics and more speed.
//!
//! Event handlers [`add`](WorkQueue::add) keys (usually `namespace/name`); workers
//! [`get`](WorkQueue::get) a key, reconcile it and call [`done`](WorkQueue::done). The
//! contract, which the tests pin down:
//! - a key is either *queued* or *processing*, never both: adding a queued key does
//!   nothing, and a key is never handed to two workers at once;
//! - a key added while it is processing is queued again when it is done, exactly once,
//!   so no change is ever lost;
//! - keys of one priority are served in the order they were added.
//!
//! On top of that: delays ([`add_after`](WorkQueue::add_after), earliest deadline wins),
//! retries ([`add_rate_limited`](WorkQueue::add_rate_limited) with composable
//! [`RateLimiter`]s), priorities ([`add_with`](WorkQueue::add_with)), graceful shutdown
//! ([`shutdown_with_drain`](WorkQueue::shutdown_with_drain)) and client-go's prometheus
//! metrics ([`PrometheusMetrics`]).
//!
//! # Priorities and aging
//! Higher [`Priority`] is served first, but waiting also counts: every key is ranked by
//! the time it was added minus `priority × aging_interval` (default 100 ms). A
//! [`Priority::LOW`] key (-100) is therefore served before [`Priority::NORMAL`] keys that
//! arrive more than 10 s after it, and no key starves however busy the queue is.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use std::time::Duration;
//! use wheelhouse_workqueue::{AddOptions, Priority, WorkQueue};
//!
//! let queue = WorkQueue::new();
//! queue.add_with("default/from-initial-list", AddOptions { priority: Priority::LOW, ..Default::default() });
//! queue.add("default/live-change");
//! assert_eq!(queue.get().await, Some("default/live-change"));
//! assert_eq!(queue.get().await, Some("default/from-initial-list"));
//!
//! queue.add_after("default/later", Duration::from_millis(5));
//! assert_eq!(queue.get().await, Some("default/later")); // parks until the deadline
//! # }
//! ```

mod metrics;
mod prometheus;
mod queue;
mod rate_limiter;
mod ready;
mod state;
mod waiters;

#[cfg(test)]
mod model_check;

pub use crate::metrics::{InProgress, InProgressSource, MetricsProvider, QueueMetrics};
pub use crate::prometheus::PrometheusMetrics;
pub use crate::queue::{AddOptions, Builder, DEFAULT_AGING_INTERVAL, Key, Priority, WorkQueue};
pub use crate::rate_limiter::{
    ExponentialBackoff, FastSlow, InvalidQuota, Jitter, MaxOf, MaxWait, RateLimiter, TokenBucket, default_rate_limiter,
};
