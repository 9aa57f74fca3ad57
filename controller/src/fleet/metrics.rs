//! A fleet's metrics, labelled by cluster: reconciles by result, and sampled at each
//! scrape, the members, whether each is reachable, its queue depth and its cached
//! objects. A cluster that leaves takes its series with it.

use std::sync::{Arc, Weak};

use parking_lot::Mutex;
use prometheus::core::{Collector, Desc};
use prometheus::proto::MetricFamily;
use prometheus::{IntCounterVec, IntGaugeVec, Opts, Registry};

use super::State;
use crate::cluster::ClusterSeries;

/// The metric families of every fleet controller; register once per registry (a
/// manager does it for the fleet controllers added to it).
///
/// ```
/// let registry = prometheus::Registry::new();
/// let metrics = wheelhouse_controller::FleetMetrics::register(&registry).unwrap();
/// # let _ = metrics;
/// ```
#[derive(Clone)]
pub struct FleetMetrics {
    reconciles: IntCounterVec,
    changes: IntCounterVec,
    sampled: Arc<Sampled>,
}

impl std::fmt::Debug for FleetMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetMetrics").finish_non_exhaustive()
    }
}

/// The gauges read from the fleets' state at each scrape.
struct Sampled {
    clusters: IntGaugeVec,
    ready: IntGaugeVec,
    depth: IntGaugeVec,
    objects: IntGaugeVec,
    fleets: Mutex<Vec<Weak<State>>>,
}

impl FleetMetrics {
    /// Registers `wheelhouse_fleet_reconcile_total{controller,cluster,result}`,
    /// `wheelhouse_fleet_membership_changes_total{controller,change}` (`joined`,
    /// `left`), and, sampled at each scrape, `wheelhouse_fleet_clusters{controller}`,
    /// `wheelhouse_fleet_cluster_ready{controller,cluster}` (0 while its API server
    /// cannot be listed or watched), `wheelhouse_fleet_queue_depth{controller,cluster}`
    /// and `wheelhouse_fleet_cache_objects{controller,cluster}` (primary objects cached).
    pub fn register(registry: &Registry) -> prometheus::Result<Self> {
        let gauge = |name: &str, help: &str, labels: &[&str]| IntGaugeVec::new(Opts::new(name, help), labels);
        let per_cluster = ["controller", "cluster"];
        let metrics = Self {
            reconciles: IntCounterVec::new(
                Opts::new(
                    "wheelhouse_fleet_reconcile_total",
                    "Reconciles per controller, cluster and result",
                ),
                &["controller", "cluster", "result"],
            )?,
            changes: IntCounterVec::new(
                Opts::new(
                    "wheelhouse_fleet_membership_changes_total",
                    "Clusters engaged (joined) and disengaged (left) per controller",
                ),
                &["controller", "change"],
            )?,
            sampled: Arc::new(Sampled {
                clusters: gauge(
                    "wheelhouse_fleet_clusters",
                    "Clusters engaged per controller",
                    &["controller"],
                )?,
                ready: gauge(
                    "wheelhouse_fleet_cluster_ready",
                    "1 when the cluster's primary objects are listed and watched, 0 while its API server fails",
                    &per_cluster,
                )?,
                depth: gauge(
                    "wheelhouse_fleet_queue_depth",
                    "Keys waiting per controller and cluster",
                    &per_cluster,
                )?,
                objects: gauge(
                    "wheelhouse_fleet_cache_objects",
                    "Primary objects cached per controller and cluster",
                    &per_cluster,
                )?,
                fleets: Mutex::new(Vec::new()),
            }),
        };
        registry.register(Box::new(metrics.reconciles.clone()))?;
        registry.register(Box::new(metrics.changes.clone()))?;
        registry.register(Box::new(SampledCollector(metrics.sampled.clone())))?;
        Ok(metrics)
    }

    /// Samples `state` at each scrape from now on, while it lives.
    pub(crate) fn follow(&self, state: &Arc<State>) {
        self.sampled.fleets.lock().push(Arc::downgrade(state));
    }

    pub(crate) fn for_cluster(&self, controller: &str, cluster: &str) -> ClusterSeries {
        let result = |r: &str| self.reconciles.with_label_values(&[controller, cluster, r]);
        ClusterSeries {
            success: result("success"),
            error: result("error"),
            requeue: result("requeue"),
            requeue_after: result("requeue_after"),
        }
    }

    /// Counts a membership change and, when a cluster left, forgets its series.
    pub(crate) fn changed(&self, controller: &str, cluster: &str, joined: bool) {
        let change = if joined { "joined" } else { "left" };
        self.changes.with_label_values(&[controller, change]).inc();
        if !joined {
            for result in ["success", "error", "requeue", "requeue_after"] {
                let _ = self.reconciles.remove_label_values(&[controller, cluster, result]);
            }
        }
    }
}

struct SampledCollector(Arc<Sampled>);

impl Collector for SampledCollector {
    fn desc(&self) -> Vec<&Desc> {
        let sampled = &self.0;
        [&sampled.clusters, &sampled.ready, &sampled.depth, &sampled.objects]
            .into_iter()
            .flat_map(Collector::desc)
            .collect()
    }

    fn collect(&self) -> Vec<MetricFamily> {
        let sampled = &self.0;
        for gauge in [&sampled.clusters, &sampled.ready, &sampled.depth, &sampled.objects] {
            gauge.reset();
        }
        let mut fleets = sampled.fleets.lock();
        fleets.retain(|fleet| fleet.strong_count() > 0);
        for fleet in fleets.iter().filter_map(Weak::upgrade) {
            let controller = &*fleet.name;
            let statuses = fleet.statuses();
            sampled
                .clusters
                .with_label_values(&[controller])
                .set(i64::try_from(statuses.len()).unwrap_or(i64::MAX));
            for status in statuses {
                let labels = [controller, status.name.as_ref()];
                sampled.ready.with_label_values(&labels).set(i64::from(status.ready()));
                sampled
                    .depth
                    .with_label_values(&labels)
                    .set(i64::try_from(status.queued).unwrap_or(i64::MAX));
                sampled
                    .objects
                    .with_label_values(&labels)
                    .set(i64::try_from(status.objects).unwrap_or(i64::MAX));
            }
        }
        drop(fleets);
        [&sampled.clusters, &sampled.ready, &sampled.depth, &sampled.objects]
            .into_iter()
            .flat_map(Collector::collect)
            .collect()
    }
}
