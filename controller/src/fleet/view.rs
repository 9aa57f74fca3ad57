//! Looking at a fleet controller while it runs: each engaged cluster's status, the
//! `/readyz` notice naming the unreachable ones, and a [`FleetView`] to wait on
//! clusters joining and leaving.

use std::fmt::{self, Debug};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::State;

/// How one engaged cluster is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterStatus {
    /// The cluster's name.
    pub name: Arc<str>,
    /// Whether its primary objects have been listed once.
    pub synced: bool,
    /// Why its primary objects' watch fails, while it does (until a relist succeeds).
    pub error: Option<String>,
    /// Primary objects cached.
    pub objects: usize,
    /// Keys waiting on its queue.
    pub queued: usize,
    /// Its workers holding a key and waiting for one of the fleet's reconcile slots.
    pub waiting: usize,
}

impl ClusterStatus {
    /// Listed and watched: its API server answers.
    pub fn ready(&self) -> bool {
        self.synced && self.error.is_none()
    }
}

impl State {
    pub(crate) fn statuses(&self) -> Vec<ClusterStatus> {
        self.engaged
            .lock()
            .values()
            .map(|engagement| {
                let (synced, error, objects) = engagement.probe.probe();
                ClusterStatus {
                    name: engagement.cluster.name_arc(),
                    synced,
                    error,
                    objects,
                    queued: engagement.queue.len(),
                    waiting: engagement.waiting.load(Ordering::Acquire),
                }
            })
            .collect()
    }

    pub(super) fn publish_names(&self) {
        let names: Vec<Arc<str>> = self.engaged.lock().keys().cloned().collect();
        self.names.send_replace(names);
    }

    /// The `/readyz` notice: which members are not reachable, and why.
    pub(super) fn readiness(&self) -> Result<(), String> {
        let statuses = self.statuses();
        let failing: Vec<String> = statuses
            .iter()
            .filter(|status| !status.ready())
            .map(|status| match &status.error {
                Some(error) => format!("{} ({error})", status.name),
                None => format!("{} (not listed yet)", status.name),
            })
            .collect();
        if failing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{} of {} clusters unreachable: {}",
            failing.len(),
            statuses.len(),
            failing.join(", ")
        ))
    }
}

/// A handle on a fleet controller's engaged clusters, to look at while it runs (from
/// [`FleetController::view`](super::FleetController::view), before the controller is handed to a manager).
#[derive(Clone)]
pub struct FleetView {
    pub(super) state: Arc<State>,
}

impl Debug for FleetView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetView")
            .field("controller", &self.state.name)
            .finish_non_exhaustive()
    }
}

impl FleetView {
    /// Every engaged cluster's status, by name.
    pub fn clusters(&self) -> Vec<ClusterStatus> {
        self.state.statuses()
    }

    /// The engaged clusters' names, sorted.
    pub fn names(&self) -> Vec<Arc<str>> {
        self.state.names.borrow().clone()
    }

    /// Waits until the engaged clusters' names (sorted) satisfy `condition`.
    pub async fn wait_for(&self, mut condition: impl FnMut(&[Arc<str>]) -> bool) {
        let mut names = self.state.names.subscribe();
        let _ = names.wait_for(|names| condition(names)).await;
    }

    /// Waits for the next change of the engaged clusters and returns their names.
    pub async fn changed(&self, mut seen: Vec<Arc<str>>) -> Vec<Arc<str>> {
        let mut names = self.state.names.subscribe();
        let _ = names.wait_for(|names| *names != seen).await;
        seen.clone_from(&names.borrow());
        seen
    }
}
