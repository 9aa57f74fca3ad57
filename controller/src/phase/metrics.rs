//! The phase scheduler's metrics: transitions, time per worker call, and how many
//! resources are in each phase (counted from the cache when scraped, so it is exact
//! however resources come and go).

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;
use prometheus::core::{Collector, Desc};
use prometheus::proto::MetricFamily;
use prometheus::{Histogram, HistogramOpts, HistogramVec, IntCounterVec, IntGaugeVec, Opts, Registry};

/// Counts the resources of one controller by phase name.
pub(crate) type CountByPhase = Box<dyn Fn() -> BTreeMap<String, i64> + Send + Sync>;

/// The metric families of every phase scheduler; register once per registry and give
/// to each scheduler with [`PhaseScheduler::metrics`](crate::phase::PhaseScheduler::metrics).
///
/// ```
/// let registry = prometheus::Registry::new();
/// let metrics = wheelhouse_controller::phase::PhaseMetrics::register(&registry).unwrap();
/// # let _ = metrics;
/// ```
#[derive(Clone)]
pub struct PhaseMetrics {
    transitions: IntCounterVec,
    sync_seconds: HistogramVec,
    resources: Arc<ResourcesByPhase>,
}

impl std::fmt::Debug for PhaseMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhaseMetrics").finish_non_exhaustive()
    }
}

impl PhaseMetrics {
    /// Registers `wheelhouse_phase_transitions_total{controller,from,to}`,
    /// `wheelhouse_phase_sync_seconds{controller,phase}` (a histogram of worker calls,
    /// inputs and outputs included) and `wheelhouse_phase_resources{controller,phase}`.
    pub fn register(registry: &Registry) -> prometheus::Result<Self> {
        let transitions = IntCounterVec::new(
            Opts::new(
                "wheelhouse_phase_transitions_total",
                "Phase transitions per controller, from and to",
            ),
            &["controller", "from", "to"],
        )?;
        let sync_seconds = HistogramVec::new(
            HistogramOpts::new(
                "wheelhouse_phase_sync_seconds",
                "Time per worker call (inputs, worker and outputs) per controller and phase",
            )
            .buckets(prometheus::exponential_buckets(0.001, 2.0, 16)?),
            &["controller", "phase"],
        )?;
        let resources = Arc::new(ResourcesByPhase {
            gauge: IntGaugeVec::new(
                Opts::new(
                    "wheelhouse_phase_resources",
                    "Resources per controller and phase, as the cache holds them",
                ),
                &["controller", "phase"],
            )?,
            sources: Mutex::new(Vec::new()),
        });
        registry.register(Box::new(transitions.clone()))?;
        registry.register(Box::new(sync_seconds.clone()))?;
        registry.register(Box::new(Shared(resources.clone())))?;
        Ok(Self {
            transitions,
            sync_seconds,
            resources,
        })
    }

    /// The series of one controller; `count` counts its resources by phase.
    pub(crate) fn for_controller(&self, controller: &str, count: CountByPhase) -> PhaseSeries {
        self.resources.sources.lock().push((controller.to_owned(), count));
        PhaseSeries {
            controller: controller.to_owned(),
            transitions: self.transitions.clone(),
            sync_seconds: self.sync_seconds.clone(),
        }
    }
}

/// One controller's series.
pub(crate) struct PhaseSeries {
    controller: String,
    transitions: IntCounterVec,
    sync_seconds: HistogramVec,
}

impl PhaseSeries {
    pub(crate) fn transition(&self, from: &str, to: &str) {
        self.transitions
            .with_label_values(&[self.controller.as_str(), from, to])
            .inc();
    }

    pub(crate) fn sync_time(&self, phase: &str) -> Histogram {
        self.sync_seconds.with_label_values(&[self.controller.as_str(), phase])
    }
}

/// The gauge of resources per phase, filled from each controller's cache on collect.
struct ResourcesByPhase {
    gauge: IntGaugeVec,
    /// Each controller's name and counter; locked through a whole collect, so two
    /// scrapes at once do not interleave their reset and sets.
    sources: Mutex<Vec<(String, CountByPhase)>>,
}

/// Registers the shared gauge (a registry takes its collectors by value).
struct Shared(Arc<ResourcesByPhase>);

impl Collector for Shared {
    fn desc(&self) -> Vec<&Desc> {
        self.0.gauge.desc()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let sources = self.0.sources.lock();
        self.0.gauge.reset();
        for (controller, count) in sources.iter() {
            for (phase, resources) in count() {
                self.0
                    .gauge
                    .with_label_values(&[controller.as_str(), phase.as_str()])
                    .set(resources);
            }
        }
        self.0.gauge.collect()
    }
}
