//! Prometheus metrics of informers, labelled by informer name.

use prometheus::{IntCounterVec, IntGaugeVec, Opts, Registry};

/// The metric families of every informer of a cache; register once per registry.
///
/// ```
/// let registry = prometheus::Registry::new();
/// let metrics = wheelhouse_cache::CacheMetrics::register(&registry).unwrap();
/// # let _ = metrics;
/// assert!(registry.gather().is_empty() || true);
/// ```
#[derive(Clone, Debug)]
pub struct CacheMetrics {
    objects: IntGaugeVec,
    events: IntCounterVec,
    relists: IntCounterVec,
    watch_restarts: IntCounterVec,
}

impl CacheMetrics {
    /// Registers `wheelhouse_cache_objects`, `wheelhouse_cache_events_total`,
    /// `wheelhouse_cache_relists_total` and `wheelhouse_cache_watch_restarts_total`.
    pub fn register(registry: &Registry) -> prometheus::Result<Self> {
        let objects = IntGaugeVec::new(
            Opts::new("wheelhouse_cache_objects", "Objects stored by the informer"),
            &["informer"],
        )?;
        let events = IntCounterVec::new(
            Opts::new(
                "wheelhouse_cache_events_total",
                "Events the informer delivered to its subscribers, by type",
            ),
            &["informer", "type"],
        )?;
        let relists = IntCounterVec::new(
            Opts::new(
                "wheelhouse_cache_relists_total",
                "Full lists after the first, such as after a 410 Gone",
            ),
            &["informer"],
        )?;
        let watch_restarts = IntCounterVec::new(
            Opts::new(
                "wheelhouse_cache_watch_restarts_total",
                "Watches or lists that failed and were retried with backoff",
            ),
            &["informer"],
        )?;
        registry.register(Box::new(objects.clone()))?;
        registry.register(Box::new(events.clone()))?;
        registry.register(Box::new(relists.clone()))?;
        registry.register(Box::new(watch_restarts.clone()))?;
        Ok(Self {
            objects,
            events,
            relists,
            watch_restarts,
        })
    }

    pub(crate) fn for_informer(&self, informer: &str) -> InformerMetrics {
        InformerMetrics {
            objects: self.objects.with_label_values(&[informer]),
            added: self.events.with_label_values(&[informer, "added"]),
            updated: self.events.with_label_values(&[informer, "updated"]),
            deleted: self.events.with_label_values(&[informer, "deleted"]),
            relists: self.relists.with_label_values(&[informer]),
            watch_restarts: self.watch_restarts.with_label_values(&[informer]),
        }
    }
}

/// One informer's series, resolved once.
#[derive(Clone, Debug)]
pub(crate) struct InformerMetrics {
    pub objects: prometheus::IntGauge,
    pub added: prometheus::IntCounter,
    pub updated: prometheus::IntCounter,
    pub deleted: prometheus::IntCounter,
    pub relists: prometheus::IntCounter,
    pub watch_restarts: prometheus::IntCounter,
}
