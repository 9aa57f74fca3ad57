//! The ring's metrics: its members, this replica's share, its objects, and the
//! handovers.

use prometheus::{Gauge, Histogram, HistogramOpts, IntCounterVec, IntGauge, Opts, Registry};

/// One ring's series in one registry.
#[derive(Clone, Debug)]
pub(crate) struct RingMetrics {
    pub members: IntGauge,
    pub owned_fraction: Gauge,
    pub objects: IntGauge,
    pub server_filtering: IntGauge,
    pub handovers: IntCounterVec,
    pub handover_seconds: Histogram,
}

impl RingMetrics {
    pub(crate) fn register(registry: &Registry, ring: &str) -> prometheus::Result<Self> {
        let labelled = |name: &str, help: &str| Opts::new(name, help).const_label("ring", ring);
        let metrics = Self {
            members: IntGauge::with_opts(labelled(
                "wheelhouse_shard_ring_members",
                "Live members of the ring, as this replica sees them",
            ))?,
            owned_fraction: Gauge::with_opts(labelled(
                "wheelhouse_shard_owned_fraction",
                "The share of the hash space this replica reconciles (0 to 1)",
            ))?,
            objects: IntGauge::with_opts(labelled(
                "wheelhouse_shard_objects",
                "Primary objects in this replica's sharded caches",
            ))?,
            server_filtering: IntGauge::with_opts(labelled(
                "wheelhouse_shard_server_filtering",
                "1 when the API server filters watches by shardSelector, 0 when the informers filter, -1 before it is known",
            ))?,
            handovers: IntCounterVec::new(
                labelled(
                    "wheelhouse_shard_handover_slots_total",
                    "Slots (1/64 of the hash space each) this replica started (direction=gained) or stopped (direction=lost) serving",
                ),
                &["direction"],
            )?,
            handover_seconds: Histogram::with_opts(
                HistogramOpts::new(
                    "wheelhouse_shard_handover_duration_seconds",
                    "From a ring change to this replica serving exactly what it owns",
                )
                .const_label("ring", ring)
                .buckets(prometheus::exponential_buckets(0.01, 2.0, 14)?),
            )?,
        };
        registry.register(Box::new(metrics.members.clone()))?;
        registry.register(Box::new(metrics.owned_fraction.clone()))?;
        registry.register(Box::new(metrics.objects.clone()))?;
        registry.register(Box::new(metrics.server_filtering.clone()))?;
        registry.register(Box::new(metrics.handovers.clone()))?;
        registry.register(Box::new(metrics.handover_seconds.clone()))?;
        metrics.server_filtering.set(-1);
        Ok(metrics)
    }
}
