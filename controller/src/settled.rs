//! [`Settled`]: the resourceVersion each primary object had when this replica last
//! reconciled it successfully, kept across leadership terms, so a new term (after an
//! outage, or a handover back) queues first what changed while it was out: objects
//! whose resourceVersion moved since, and objects it never reconciled; the rest go in
//! at low priority, behind them.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use wheelhouse_workqueue::Priority;

use crate::key::ObjectKey;

/// Invariant: an entry is the object's resourceVersion as the reconcile that last
/// succeeded read it; a failed reconcile, or an object gone, removes it. Shared by the
/// workers (which write it) and the primary source (which reads it when it queues a
/// list's objects). Cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Settled(Arc<Mutex<HashMap<ObjectKey, String>>>);

impl Settled {
    /// `key` was reconciled successfully at `resource_version`.
    pub(crate) fn record(&self, key: &ObjectKey, resource_version: Option<&str>) {
        match resource_version {
            Some(version) => {
                self.0.lock().insert(key.clone(), version.to_owned());
            }
            None => self.forget(key),
        }
    }

    /// `key`'s last reconcile failed, or the object is gone: it is not settled.
    pub(crate) fn forget(&self, key: &ObjectKey) {
        self.0.lock().remove(key);
    }

    /// The priority of a listed object (the first list of a term, a relist, a slot
    /// handed over): low when this replica reconciled it at this very version, or
    /// has reconciled nothing yet (a cold start: live changes go first); normal when
    /// it changed since, or is new since this replica last worked.
    pub(crate) fn priority_of_listed(&self, key: &ObjectKey, resource_version: Option<&str>) -> Priority {
        let settled = self.0.lock();
        if settled.is_empty() {
            return Priority::LOW;
        }
        match (settled.get(key), resource_version) {
            (Some(settled), Some(version)) if settled == version => Priority::LOW,
            _ => Priority::NORMAL,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_changed_or_is_new_since_the_last_reconcile_comes_first() {
        let settled = Settled::default();
        let (a, b, c) = (
            ObjectKey::new(Some("ns"), "a"),
            ObjectKey::new(Some("ns"), "b"),
            ObjectKey::new(Some("ns"), "c"),
        );
        assert_eq!(settled.priority_of_listed(&a, Some("1")), Priority::LOW, "a cold start");
        settled.record(&a, Some("1"));
        settled.record(&b, Some("2"));
        assert_eq!(settled.priority_of_listed(&a, Some("1")), Priority::LOW, "unchanged");
        assert_eq!(
            settled.priority_of_listed(&b, Some("5")),
            Priority::NORMAL,
            "changed while out"
        );
        assert_eq!(
            settled.priority_of_listed(&c, Some("6")),
            Priority::NORMAL,
            "new while out"
        );
        settled.forget(&a);
        assert_eq!(
            settled.priority_of_listed(&a, Some("1")),
            Priority::NORMAL,
            "its last reconcile failed"
        );
    }
}
