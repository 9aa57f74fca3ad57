//! What a queue reports, through a small trait so any metrics system can receive it.
//! [`PrometheusMetrics`](crate::PrometheusMetrics) implements it with client-go's names.

use std::sync::Arc;
use std::time::Duration;

/// Hands out the metrics of each queue; a queue asks once, when it is built.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::time::Duration;
/// use wheelhouse_workqueue::{InProgressSource, MetricsProvider, QueueMetrics, WorkQueue};
///
/// /// Counts adds, and nothing else.
/// #[derive(Clone, Default)]
/// struct AddCounter(Arc<AtomicUsize>);
///
/// impl MetricsProvider for AddCounter {
///     fn queue_metrics(&self, _name: &str) -> Arc<dyn QueueMetrics> {
///         Arc::new(self.clone())
///     }
/// }
/// impl QueueMetrics for AddCounter {
///     fn added(&self) { self.0.fetch_add(1, Ordering::Relaxed); }
///     fn depth(&self, _: usize) {}
///     fn waited(&self, _: Duration) {}
///     fn worked(&self, _: Duration) {}
///     fn retried(&self) {}
///     fn in_progress_source(&self, _: InProgressSource) {}
/// }
///
/// let counter = AddCounter::default();
/// let queue = WorkQueue::builder().metrics(&counter).build();
/// queue.add(1);
/// queue.add(1);
/// assert_eq!(counter.0.load(Ordering::Relaxed), 1, "a duplicate is not an add");
/// ```
pub trait MetricsProvider: Send + Sync {
    /// The metrics of the queue called `name`.
    fn queue_metrics(&self, name: &str) -> Arc<dyn QueueMetrics>;
}

/// The events of one queue. Calls come from the queue's hot path, outside its lock:
/// keep them to an atomic increment or so. See [`MetricsProvider`] for an example.
pub trait QueueMetrics: Send + Sync {
    /// A key went from absent to waiting (a duplicate add does not count).
    fn added(&self);
    /// Keys added and not yet handed to a worker.
    fn depth(&self, depth: usize);
    /// A key waited this long between its add and a worker getting it.
    fn waited(&self, waited: Duration);
    /// A worker held a key this long, from `get` to `done`.
    fn worked(&self, worked: Duration);
    /// A key was added with a delay (client-go counts these as retries).
    fn retried(&self);
    /// Gives the metrics a way to read the work in progress when they are collected.
    /// The source returns `None` once its queue is gone.
    fn in_progress_source(&self, source: InProgressSource);
}

/// Reads the work in progress of a queue; see [`QueueMetrics::in_progress_source`].
pub type InProgressSource = Box<dyn Fn() -> Option<InProgress> + Send + Sync>;

/// Work handed out and not yet done, as client-go reports it.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::InProgress;
///
/// // Two keys held for 3 s and 1 s:
/// let in_progress = InProgress { unfinished: Duration::from_secs(4), longest: Duration::from_secs(3) };
/// assert!(in_progress.longest <= in_progress.unfinished);
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct InProgress {
    /// The sum of how long every key in progress has been held.
    pub unfinished: Duration,
    /// How long the longest-held key in progress has been held.
    pub longest: Duration,
}
