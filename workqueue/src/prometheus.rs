//! Queue metrics in prometheus, under the names and labels client-go and
//! controller-runtime use, so existing dashboards and alerts work unchanged.
//!
//! Label cardinality is bounded by the number of live queues: the only labels are the
//! queue's `name` and `controller` (both the queue name, as controller-runtime sets
//! them), never a key, and a queue's series are removed when its last queue is dropped.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::Mutex;
use prometheus::core::{Collector, Desc};
use prometheus::proto::MetricFamily;
use prometheus::{
    GaugeVec, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
};

use crate::metrics::{InProgress, InProgressSource, MetricsProvider, QueueMetrics};

const LABELS: [&str; 2] = ["name", "controller"];

/// client-go's workqueue metrics, registered in a prometheus [`Registry`].
///
/// ```
/// use wheelhouse_workqueue::{PrometheusMetrics, WorkQueue};
///
/// let registry = prometheus::Registry::new();
/// let metrics = PrometheusMetrics::register(&registry).unwrap();
/// let queue: WorkQueue<String> = WorkQueue::builder().name("webapp").metrics(&metrics).build();
/// queue.add("default/web".to_owned());
///
/// let families = registry.gather();
/// let depth = families.iter().find(|f| f.name() == "workqueue_depth").unwrap();
/// assert_eq!(depth.get_metric()[0].get_gauge().get_value(), 1.0);
/// ```
#[derive(Clone)]
pub struct PrometheusMetrics {
    families: Arc<Families>,
}

struct Families {
    depth: IntGaugeVec,
    adds: IntCounterVec,
    queue_duration: HistogramVec,
    work_duration: HistogramVec,
    unfinished_work: GaugeVec,
    longest_running: GaugeVec,
    retries: IntCounterVec,
    /// Live queues by name: how many share the name, and their in-progress sources.
    queues: Mutex<HashMap<String, Vec<Arc<InProgressSlot>>>>,
}

impl Families {
    fn all(&self) -> [&dyn Collector; 7] {
        [
            &self.depth,
            &self.adds,
            &self.queue_duration,
            &self.work_duration,
            &self.unfinished_work,
            &self.longest_running,
            &self.retries,
        ]
    }
}

/// One queue's in-progress source, set after the queue's metrics were made.
type InProgressSlot = Mutex<Option<InProgressSource>>;

impl PrometheusMetrics {
    /// Creates the metric families and registers them in `registry`; fails if another
    /// collector already registered the same names there.
    pub fn register(registry: &Registry) -> Result<Self, prometheus::Error> {
        let metrics = Self::new()?;
        registry.register(Box::new(metrics.clone()))?;
        Ok(metrics)
    }

    fn new() -> Result<Self, prometheus::Error> {
        let opts = |name: &str, help: &str| Opts::new(name, help).subsystem("workqueue");
        let histogram = |name: &str, help: &str| {
            Ok::<_, prometheus::Error>(
                HistogramOpts::new(name, help)
                    .subsystem("workqueue")
                    .buckets(prometheus::exponential_buckets(10e-9, 10.0, 12)?),
            )
        };
        let families = Families {
            depth: IntGaugeVec::new(opts("depth", "Current depth of workqueue"), &LABELS)?,
            adds: IntCounterVec::new(opts("adds_total", "Total number of adds handled by workqueue"), &LABELS)?,
            queue_duration: HistogramVec::new(
                histogram(
                    "queue_duration_seconds",
                    "How long in seconds an item stays in workqueue before being requested",
                )?,
                &LABELS,
            )?,
            work_duration: HistogramVec::new(
                histogram(
                    "work_duration_seconds",
                    "How long in seconds processing an item from workqueue takes.",
                )?,
                &LABELS,
            )?,
            unfinished_work: GaugeVec::new(
                opts(
                    "unfinished_work_seconds",
                    "How many seconds of work has been done that is in progress and hasn't been observed by \
                     work_duration. Large values indicate stuck threads. One can deduce the number of stuck \
                     threads by observing the rate at which this increases.",
                ),
                &LABELS,
            )?,
            longest_running: GaugeVec::new(
                opts(
                    "longest_running_processor_seconds",
                    "How many seconds has the longest running processor for workqueue been running.",
                ),
                &LABELS,
            )?,
            retries: IntCounterVec::new(
                opts("retries_total", "Total number of retries handled by workqueue"),
                &LABELS,
            )?,
            queues: Mutex::new(HashMap::new()),
        };
        Ok(Self {
            families: Arc::new(families),
        })
    }
}

impl MetricsProvider for PrometheusMetrics {
    fn queue_metrics(&self, name: &str) -> Arc<dyn QueueMetrics> {
        let f = &self.families;
        let labels = [name, name];
        let slot = Arc::new(Mutex::new(None));
        f.queues.lock().entry(name.to_owned()).or_default().push(slot.clone());
        Arc::new(PrometheusQueueMetrics {
            name: name.to_owned(),
            depth: f.depth.with_label_values(&labels),
            adds: f.adds.with_label_values(&labels),
            queue_duration: f.queue_duration.with_label_values(&labels),
            work_duration: f.work_duration.with_label_values(&labels),
            retries: f.retries.with_label_values(&labels),
            in_progress: slot,
            families: Arc::downgrade(&self.families),
        })
    }
}

impl Collector for PrometheusMetrics {
    fn desc(&self) -> Vec<&Desc> {
        self.families.all().into_iter().flat_map(Collector::desc).collect()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let f = &self.families;
        // In-progress work only has a value when asked for: sample it now, outside the
        // `queues` lock, because a source may drop the last handle of its queue.
        let queues: Vec<_> = f.queues.lock().iter().map(|(n, s)| (n.clone(), s.clone())).collect();
        let totals: Vec<_> = queues
            .iter()
            .map(|(name, slots)| {
                let mut total = InProgress::default();
                for slot in slots {
                    if let Some(in_progress) = slot.lock().as_ref().and_then(|source| source()) {
                        total.unfinished += in_progress.unfinished;
                        total.longest = total.longest.max(in_progress.longest);
                    }
                }
                (name, total)
            })
            .collect();
        // Set only the series of queues still alive, or a dropped queue's would come back.
        let live = f.queues.lock();
        for (name, total) in totals.into_iter().filter(|(name, _)| live.contains_key(*name)) {
            let labels = [name.as_str(), name.as_str()];
            f.unfinished_work
                .with_label_values(&labels)
                .set(total.unfinished.as_secs_f64());
            f.longest_running
                .with_label_values(&labels)
                .set(total.longest.as_secs_f64());
        }
        drop(live);
        f.all().into_iter().flat_map(Collector::collect).collect()
    }
}

/// One queue's series, resolved once so the hot path does no label lookup.
struct PrometheusQueueMetrics {
    name: String,
    depth: IntGauge,
    adds: IntCounter,
    queue_duration: Histogram,
    work_duration: Histogram,
    retries: IntCounter,
    in_progress: Arc<InProgressSlot>,
    families: Weak<Families>,
}

impl QueueMetrics for PrometheusQueueMetrics {
    fn added(&self) {
        self.adds.inc();
    }
    fn depth(&self, depth: usize) {
        self.depth.set(i64::try_from(depth).unwrap_or(i64::MAX));
    }
    fn waited(&self, waited: Duration) {
        self.queue_duration.observe(waited.as_secs_f64());
    }
    fn worked(&self, worked: Duration) {
        self.work_duration.observe(worked.as_secs_f64());
    }
    fn retried(&self) {
        self.retries.inc();
    }
    fn in_progress_source(&self, source: InProgressSource) {
        *self.in_progress.lock() = Some(source);
    }
}

impl Drop for PrometheusQueueMetrics {
    fn drop(&mut self) {
        let Some(f) = self.families.upgrade() else {
            return;
        };
        let mut queues = f.queues.lock();
        let Some(slots) = queues.get_mut(&self.name) else {
            return;
        };
        slots.retain(|slot| !Arc::ptr_eq(slot, &self.in_progress));
        if !slots.is_empty() {
            return;
        }
        queues.remove(&self.name);
        let labels = [self.name.as_str(), self.name.as_str()];
        // The series may already be gone if a queue of that name was made and dropped twice.
        let _ = f.depth.remove_label_values(&labels);
        let _ = f.adds.remove_label_values(&labels);
        let _ = f.queue_duration.remove_label_values(&labels);
        let _ = f.work_duration.remove_label_values(&labels);
        let _ = f.unfinished_work.remove_label_values(&labels);
        let _ = f.longest_running.remove_label_values(&labels);
        let _ = f.retries.remove_label_values(&labels);
    }
}
