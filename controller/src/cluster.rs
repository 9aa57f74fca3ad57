//! What a fleet controller's workers and reconciles know of their cluster: its name,
//! the fleet's engaged members, and the fleet's shared reconcile slots. A leaf module,
//! so the worker and the context can name it without importing the fleet controller.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;

use parking_lot::RwLock;
use prometheus::IntCounter;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use wheelhouse_manager::fleet::Cluster;

/// The engaged members of a fleet, by name, for [`Context::member`](crate::Context::member).
pub(crate) type Members = Arc<RwLock<BTreeMap<Arc<str>, Cluster>>>;

/// One cluster's reconcile counters, resolved once at engage.
#[derive(Clone, Debug)]
pub(crate) struct ClusterSeries {
    pub success: IntCounter,
    pub error: IntCounter,
    pub requeue: IntCounter,
    pub requeue_after: IntCounter,
}

/// What a fleet's worker knows of its cluster.
pub(crate) struct InCluster {
    pub name: Arc<str>,
    /// Every engaged member, for reconcilers that read one cluster and write another.
    pub members: Members,
    /// The fleet's reconcile slots, handed out first come, first served: a cluster's
    /// worker waits its turn behind every other cluster's, so a busy cluster cannot
    /// starve the rest.
    pub gate: Arc<Semaphore>,
    /// This cluster's workers in line for a slot.
    pub waiting: Arc<AtomicUsize>,
    pub series: Option<ClusterSeries>,
}

impl InCluster {
    /// Takes a slot, in line behind every worker of the fleet that asked before.
    pub(crate) async fn slot(&self) -> Option<OwnedSemaphorePermit> {
        let acquire = self.gate.clone().acquire_owned();
        let mut acquire = std::pin::pin!(acquire);
        // Polled once first, so that this worker is in the line before it counts as
        // waiting: whoever reads the count knows the order is already fixed.
        if let Poll::Ready(slot) = futures::poll!(&mut acquire) {
            return slot.ok();
        }
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let slot = acquire.await;
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        slot.ok()
    }
}
