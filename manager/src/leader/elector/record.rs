//! The elector's reads and writes of its Lease: creating it, writing a record over the
//! one it read (a merge patch, never a PUT, so a missing Lease is never re-created),
//! releasing it, and following it with a watch, deletions included.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::StreamExt;
use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Patch, PatchParams, PostParams};
use kube::runtime::watcher;

use super::{Elector, Leadership, Observed, RELEASE_ATTEMPTS, why};

impl Elector {
    pub(super) async fn create(&self, now: MicroTime) -> Result<bool, kube::Error> {
        let lease = Lease {
            metadata: ObjectMeta {
                name: Some(self.config.lease_name.clone()),
                namespace: Some(self.namespace.clone()),
                labels: (!self.labels.is_empty()).then(|| self.labels.clone()),
                annotations: self.annotations(),
                ..ObjectMeta::default()
            },
            spec: Some(LeaseSpec {
                holder_identity: Some(self.identity.clone()),
                lease_duration_seconds: Some(self.config.lease_seconds()),
                acquire_time: Some(now.clone()),
                renew_time: Some(now),
                lease_transitions: Some(0),
                ..LeaseSpec::default()
            }),
        };
        match self.api.create(&PostParams::default(), &lease).await {
            Ok(created) => {
                self.record(&created);
                Ok(true)
            }
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// Writes the lease's spec, labels and annotations over `base`, on the condition
    /// that the Lease is still at `base`'s resourceVersion; remembers what was written.
    ///
    /// A JSON merge patch, not a PUT: kube-apiserver's update of a missing Lease
    /// creates it (Leases allow create on update), so a renew delayed past a deletion
    /// would resurrect the Lease; a patch of a missing object is always 404. The
    /// patch's `metadata.resourceVersion` is the precondition (409 when it moved on).
    pub(super) async fn write(&self, spec: LeaseSpec, base: &Observed) -> Result<(), kube::Error> {
        let Some(resource_version) = base.resource_version.clone() else {
            let status =
                kube::core::Status::failure("the lease record has no resourceVersion to write against", "Conflict");
            return Err(kube::Error::Api(status.with_code(409).boxed()));
        };
        let patch = self.patch(&spec, base, &resource_version);
        let written = self
            .api
            .patch(&self.config.lease_name, &PatchParams::default(), &Patch::Merge(&patch))
            .await?;
        self.record(&written);
        Ok(())
    }

    /// The merge patch of a write: the whole spec, this elector's labels, and its
    /// annotations, with those `base` carried but this elector no longer has set to
    /// null (as a PUT would drop them).
    pub(super) fn patch(&self, spec: &LeaseSpec, base: &Observed, resource_version: &str) -> serde_json::Value {
        let ours = self.annotations.lock().clone();
        let mut annotations = serde_json::Map::new();
        for key in base.annotations.keys().filter(|key| !ours.contains_key(*key)) {
            annotations.insert(key.clone(), serde_json::Value::Null);
        }
        for (key, value) in ours {
            annotations.insert(key, serde_json::Value::String(value));
        }
        serde_json::json!({
            "metadata": {
                "resourceVersion": resource_version,
                "labels": self.labels,
                "annotations": annotations,
            },
            "spec": spec,
        })
    }

    pub(super) fn annotations(&self) -> Option<BTreeMap<String, String>> {
        let annotations = self.annotations.lock();
        (!annotations.is_empty()).then(|| annotations.clone())
    }

    /// What this replica wrote is what it observes, from now, and the one record it
    /// takes for its own.
    pub(super) fn record(&self, lease: &Lease) {
        let written = Observed::of(lease);
        *self.observed.lock() = Some(written.clone());
        *self.written.lock() = Some(written);
    }

    /// Notes a record read from the server; its clock starts only if it changed. A
    /// record older than the one observed (a watch event behind a read) changes
    /// nothing.
    pub(super) fn observe(&self, lease: &Lease) -> Observed {
        let record = Observed::of(lease);
        let mut observed = self.observed.lock();
        match observed.as_mut() {
            Some(seen) if seen.uid == record.uid && record.older_than(seen) => {}
            Some(seen) if seen.spec == record.spec => {
                seen.resource_version = record.resource_version;
                seen.uid = record.uid;
                seen.annotations = record.annotations;
            }
            _ => *observed = Some(record),
        }
        observed.clone().unwrap_or_else(|| unreachable!("set just above"))
    }

    /// The watch saw `lease` stored. A leader whose term runs ends it at once if this
    /// is a record it did not write, stored after its last write: another holder, an
    /// emptied holder, or its own identity in a record someone else wrote. Judged
    /// under the write lock, so a write whose answer is on its way is known first.
    async fn seen(&self, lease: &Lease) {
        let _writing = self.writing.lock().await;
        self.observe(lease);
        let term = match &*self.state.borrow() {
            Leadership::Leader(term) if term.is_valid() => term.clone(),
            _ => return,
        };
        let record = Observed::of(lease);
        let after_our_write = self
            .written
            .lock()
            .as_ref()
            .is_none_or(|written| written.uid != record.uid || !record.older_than(written));
        if after_our_write && !self.is_own(&record) {
            let why = self.why_not_own(&record);
            let holder = record.holder().unwrap_or_default().to_owned();
            tracing::warn!(lease = %self.lease(), identity = %self.identity, why, %holder, "ending the leadership term at once");
            term.end_because(why);
        }
    }

    /// Empties the holder so a standby takes over at once (client-go's release). A
    /// conflict means our observed record is stale (say, a late answer to a renew): it
    /// re-reads and tries again for as long as the lease is still ours.
    pub(super) async fn release(&self) {
        let _writing = self.writing.lock().await;
        for _ in 0..RELEASE_ATTEMPTS {
            let Some(observed) = self.own_record() else {
                return;
            };
            let now = MicroTime(Timestamp::now());
            let spec = LeaseSpec {
                holder_identity: Some(String::new()),
                lease_duration_seconds: Some(1),
                acquire_time: Some(now.clone()),
                renew_time: Some(now),
                ..observed.spec.clone()
            };
            match self.write(spec, &observed).await {
                Ok(()) => {
                    tracing::info!(lease = %self.lease(), identity = %self.identity, "released the lease");
                    return;
                }
                // Re-read: a conflict that changed nothing (a failure answered as one)
                // leaves the record ours, and the release goes on; a record someone
                // else wrote is not ours to release.
                Err(kube::Error::Api(status)) if status.code == 409 => {
                    match self.api.get_opt(&self.config.lease_name).await {
                        Ok(Some(lease)) => {
                            if !self.is_own(&self.observe(&lease)) {
                                return;
                            }
                        }
                        Ok(None) => return,
                        Err(error) => {
                            tracing::warn!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), "could not re-read the lease to release it; standbys take it when it expires");
                            return;
                        }
                    }
                }
                Err(error) => {
                    tracing::warn!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), "could not release the lease; standbys take it when it expires");
                    return;
                }
            }
        }
        tracing::warn!(lease = %self.lease(), "the lease kept changing while releasing it; standbys take it when it expires");
    }

    /// The watch saw the Lease deleted. Its last record stays observed: held by its
    /// last holder until a lease duration after it last changed, so a standby waits
    /// as for an expiry. The holder itself, if it is this replica in the term that
    /// Lease carried, ends its term at once.
    pub(super) fn deleted(&self, lease: &Lease) {
        let before = self.observed.lock().clone();
        if before.is_some_and(|before| before.uid.is_some() && before.uid != lease.metadata.uid) {
            // An older Lease object than the one this replica knows (its own write of
            // a new one got ahead of the watch): nothing to learn from it.
            return;
        }
        let observed = self.observe(lease);
        if observed.holder() == Some(self.identity.as_str()) {
            self.end_term(why::DELETED);
        }
        if observed.holder().is_none() {
            self.freed.notify_one();
        }
    }

    /// Watches the one Lease: keeps the observed record current, and wakes a standby
    /// the moment the lease is released (a deleted one is not free: see `deleted`).
    pub(super) async fn watch_lease(self: Arc<Self>) {
        let config = watcher::Config::default().fields(&format!("metadata.name={}", self.config.lease_name));
        let mut events = watcher(self.api.clone(), config).boxed();
        while let Some(event) = events.next().await {
            match event {
                Ok(watcher::Event::Apply(lease) | watcher::Event::InitApply(lease)) => {
                    self.seen(&lease).await;
                    if Observed::of(&lease).holder().is_none() {
                        self.freed.notify_one();
                    }
                }
                Ok(watcher::Event::Delete(lease)) => self.deleted(&lease),

                Ok(watcher::Event::Init | watcher::Event::InitDone) => {}
                Err(error) => {
                    tracing::debug!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), "lease watch failed; retrying");
                    tokio::time::sleep(self.config.retry_period).await;
                }
            }
        }
    }
}
