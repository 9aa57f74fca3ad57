//! The leader-election metrics: client-go's `leader_election_master_status` and a
//! counter of this replica's transitions.

use prometheus::{IntCounterVec, IntGaugeVec, Opts, Registry};

/// One lease's series in one registry.
#[derive(Clone, Debug)]
pub(crate) struct LeaderMetrics {
    status: prometheus::IntGauge,
    became_leader: prometheus::IntCounter,
    became_standby: prometheus::IntCounter,
}

impl LeaderMetrics {
    /// Registers the families and resolves the series of `lease`.
    pub(crate) fn register(registry: &Registry, lease: &str) -> prometheus::Result<Self> {
        let status = IntGaugeVec::new(
            Opts::new(
                "leader_election_master_status",
                "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
            ),
            &["name"],
        )?;
        let transitions = IntCounterVec::new(
            Opts::new(
                "wheelhouse_leader_election_transitions_total",
                "Times this replica became the leader (to=leader) or stopped being it (to=standby)",
            ),
            &["name", "to"],
        )?;
        registry.register(Box::new(status.clone()))?;
        registry.register(Box::new(transitions.clone()))?;
        let metrics = Self {
            status: status.with_label_values(&[lease]),
            became_leader: transitions.with_label_values(&[lease, "leader"]),
            became_standby: transitions.with_label_values(&[lease, "standby"]),
        };
        metrics.status.set(0);
        Ok(metrics)
    }

    pub(crate) fn leading(&self) {
        self.status.set(1);
        self.became_leader.inc();
    }

    pub(crate) fn standing_by(&self) {
        self.status.set(0);
        self.became_standby.inc();
    }
}
