//! The elector: acquires, renews and releases the Lease, and tells the manager when
//! this replica leads. client-go's `tryAcquireOrRenew`, with a watch for releases.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
use k8s_openapi::jiff::Timestamp;
use kube::api::Api;
use parking_lot::Mutex;
use std::sync::Arc;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::AbortOnDropHandle;

use super::{LeaderElection, LeaderMetrics, OnLeadershipLost, Term};
use crate::Error;

mod record;

/// How many conflicting writes `release` re-reads past: a holder's own record changes
/// only by its renews, so more than a few means another writer, and expiry is safe.
const RELEASE_ATTEMPTS: usize = 3;

/// What the manager is told.
#[derive(Clone)]
pub(crate) enum Leadership {
    /// Not leading (yet, or any more).
    Standby,
    /// Leading for as long as the term is valid.
    Leader(Arc<Term>),
}

/// The last Lease record this replica saw, and when it first saw it.
///
/// Invariant: `at` changes only when the record changes. A candidate may take a lease
/// held by another only once `at + leaseDurationSeconds` has passed on this machine's
/// monotonic clock: the holder had that long to renew, as measured here. The record
/// outlives the Lease: one that is deleted still counts as held by its last holder
/// until then, since that holder may not know yet and keeps its term until it does.
#[derive(Clone)]
struct Observed {
    spec: LeaseSpec,
    resource_version: Option<String>,
    /// Which Lease object it was: a deletion ends a term only if it is the term's.
    uid: Option<String>,
    /// The annotations it carried: a write that drops one of them sets it to null.
    annotations: BTreeMap<String, String>,
    at: Instant,
}

impl Observed {
    fn holder(&self) -> Option<&str> {
        self.spec.holder_identity.as_deref().filter(|h| !h.is_empty())
    }

    /// True while another holder's lease has not run out as observed here.
    fn held_by_other(&self, identity: &str, own: Duration) -> bool {
        self.holder().is_some_and(|holder| holder != identity)
            && self.expiry(own).is_some_and(|expiry| Instant::now() < expiry)
    }

    /// When the holder's lease runs out as seen from here (None: nobody holds it). A
    /// record without a positive `leaseDurationSeconds` is judged with `own` (ours), as
    /// client-go does: a missing field must not make a live holder's lease free.
    fn expiry(&self, own: Duration) -> Option<Instant> {
        self.holder()?;
        let duration = self
            .spec
            .lease_duration_seconds
            .and_then(|seconds| u64::try_from(seconds).ok())
            .filter(|&seconds| seconds > 0)
            .map_or(own, Duration::from_secs);
        Some(self.at + duration)
    }
}

/// How a spell of leadership ended.
enum Held {
    /// The manager asked the elector to stop (graceful shutdown).
    Stopped,
    /// The lease could not be renewed within the renew deadline, or another holds it.
    Lost(&'static str),
}

pub(crate) struct Elector {
    api: Api<Lease>,
    config: LeaderElection,
    identity: String,
    namespace: String,
    observed: Mutex<Option<Observed>>,
    /// Signalled by the watch when the lease is released or deleted.
    freed: Notify,
    state: watch::Sender<Leadership>,
    /// When this replica last renewed while it considers itself the leader; None when
    /// it does not. Read by the `/healthz` check: a leader whose elector stopped
    /// renewing is wedged, and should be restarted.
    renewed: Mutex<Option<Instant>>,
    paused_until: Mutex<Option<Instant>>,
    /// The number of the last term this replica began.
    terms: AtomicU64,
    metrics: Option<LeaderMetrics>,
    /// Labels the Lease is created with, and annotations every write carries (a ring
    /// member's published state).
    labels: BTreeMap<String, String>,
    annotations: Mutex<BTreeMap<String, String>>,
    /// Held across each write of the Lease, so a publish and a renew never race.
    writing: tokio::sync::Mutex<()>,
    /// Called when a term ends, before the next can begin (a ring member stops
    /// serving its slots there, so a new term never starts with the old one's).
    on_term_end: Mutex<Option<Box<dyn Fn() + Send + Sync>>>,
    /// Why the running term was ended from outside `hold` (its Lease was deleted).
    lost_why: Mutex<Option<&'static str>>,
}

impl Elector {
    pub(crate) fn new(
        client: kube::Client,
        config: LeaderElection,
        identity: String,
        namespace: String,
        metrics: Option<LeaderMetrics>,
    ) -> Arc<Self> {
        Arc::new(Self {
            api: Api::namespaced(client, &namespace),
            config,
            identity,
            namespace,
            observed: Mutex::new(None),
            freed: Notify::new(),
            state: watch::Sender::new(Leadership::Standby),
            renewed: Mutex::new(None),
            paused_until: Mutex::new(None),
            terms: AtomicU64::new(0),
            metrics,
            labels: BTreeMap::new(),
            annotations: Mutex::new(BTreeMap::new()),
            writing: tokio::sync::Mutex::new(()),
            on_term_end: Mutex::new(None),
            lost_why: Mutex::new(None),
        })
    }

    /// Calls `hook` whenever a term ends, before the next can begin.
    pub(crate) fn on_term_end(&self, hook: impl Fn() + Send + Sync + 'static) {
        *self.on_term_end.lock() = Some(Box::new(hook));
    }

    /// An elector whose Lease carries `labels` (a ring member's, found by them).
    pub(crate) fn with_labels(
        client: kube::Client,
        config: LeaderElection,
        identity: String,
        namespace: String,
        labels: BTreeMap<String, String>,
    ) -> Arc<Self> {
        let mut elector = Self::new(client, config, identity, namespace, None);
        if let Some(elector) = Arc::get_mut(&mut elector) {
            elector.labels = labels;
        }
        elector
    }

    /// Sets the annotations the next write carries, without writing.
    pub(crate) fn set_annotations(&self, annotations: BTreeMap<String, String>) {
        *self.annotations.lock() = annotations;
    }

    /// Writes `annotations` to the Lease now, as a renew: true once the server has
    /// them, false when this replica does not hold the Lease (they are written with
    /// the next acquire).
    pub(crate) async fn publish(&self, annotations: BTreeMap<String, String>) -> Result<bool, kube::Error> {
        self.set_annotations(annotations);
        let _writing = self.writing.lock().await;
        let own = self
            .observed
            .lock()
            .clone()
            .filter(|o| o.holder() == Some(self.identity.as_str()));
        let Some(own) = own else { return Ok(false) };
        let spec = LeaseSpec {
            renew_time: Some(MicroTime(Timestamp::now())),
            ..own.spec.clone()
        };
        match self.write(spec, &own).await {
            Ok(()) => Ok(true),
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(false),
            Err(kube::Error::Api(status)) if status.code == 404 => {
                self.own_lease_gone("publishing found the lease deleted");
                Ok(false)
            }
            Err(error) => Err(error),
        }
    }

    /// The lease's name.
    pub(crate) fn lease_name(&self) -> &str {
        &self.config.lease_name
    }

    /// The lease's namespace.
    pub(crate) fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The lease duration.
    pub(crate) fn lease_duration(&self) -> Duration {
        self.config.lease_duration
    }

    /// The retry period.
    pub(crate) fn retry_period(&self) -> Duration {
        self.config.retry_period
    }

    pub(crate) fn identity(&self) -> &str {
        &self.identity
    }

    pub(crate) fn lease(&self) -> String {
        format!("{}/{}", self.namespace, self.config.lease_name)
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<Leadership> {
        self.state.subscribe()
    }

    /// How long leader-only runnables get to stop once their term ended before they
    /// are abandoned: half the margin between the term's end and the earliest moment
    /// another replica can take the lease.
    pub(crate) fn term_end_grace(&self) -> Duration {
        self.config.lease_duration.saturating_sub(self.config.renew_deadline) / 2
    }

    /// Stops renewing and acquiring for `duration`, as a process stalled that long
    /// would; the watchdog still ends the term at its deadline.
    pub(crate) fn pause(&self, duration: Duration) {
        *self.paused_until.lock() = Some(Instant::now() + duration);
    }

    /// The `/healthz` check: fails once a leader has gone longer than its lease
    /// duration without renewing.
    pub(crate) fn health(&self) -> Result<(), String> {
        match *self.renewed.lock() {
            Some(renewed) if renewed.elapsed() > self.config.lease_duration => Err(format!(
                "the leader has not renewed lease {} for {:?} (lease duration {:?})",
                self.lease(),
                renewed.elapsed(),
                self.config.lease_duration
            )),
            _ => Ok(()),
        }
    }

    /// Competes for the lease until `stop` is cancelled; after each spell of
    /// leadership, stands by again or returns [`Error::LeadershipLost`].
    pub(crate) async fn run(self: Arc<Self>, stop: CancellationToken) -> Result<(), Error> {
        let watch = tokio::spawn(self.clone().watch_lease());
        let _abort_watch = AbortOnDropHandle::new(watch);
        loop {
            let Some(term) = self.acquire(&stop).await else {
                return Ok(());
            };
            *self.renewed.lock() = Some(Instant::now());
            tracing::info!(lease = %self.lease(), identity = %self.identity, "acquired the lease; leading");
            if let Some(metrics) = &self.metrics {
                metrics.leading();
            }
            *self.lost_why.lock() = None;
            self.state.send_replace(Leadership::Leader(term.clone()));
            let held = self.hold(&term, &stop).await;
            term.end();
            // What was published belonged to that term: the next starts from nothing.
            self.annotations.lock().clear();
            if let Some(hook) = &*self.on_term_end.lock() {
                hook();
            }
            *self.renewed.lock() = None;
            self.state.send_replace(Leadership::Standby);
            if let Some(metrics) = &self.metrics {
                metrics.standing_by();
            }
            match held {
                Held::Stopped => {
                    // Bounded: a shutdown must not wait on an API server it cannot reach.
                    if self.config.release_on_cancel
                        && tokio::time::timeout(self.config.renew_deadline, self.release())
                            .await
                            .is_err()
                    {
                        tracing::warn!(lease = %self.lease(), "could not release the lease in time; standbys take it when it expires");
                    }
                    return Ok(());
                }
                Held::Lost(why) => {
                    tracing::error!(lease = %self.lease(), identity = %self.identity, why, "lost the lease; leader-only work is being stopped");
                    if self.config.on_lost == OnLeadershipLost::Exit {
                        return Err(Error::LeadershipLost {
                            lease: self.lease(),
                            why,
                            abandoned: Vec::new(),
                        });
                    }
                }
            }
        }
    }

    /// Tries until the lease is ours (a new term) or `stop` is cancelled (None).
    async fn acquire(&self, stop: &CancellationToken) -> Option<Arc<Term>> {
        loop {
            self.wait_if_paused(stop).await;
            if stop.is_cancelled() {
                return None;
            }
            let sent = Instant::now();
            // A stop must not wait on an API server that does not answer.
            let attempt = tokio::select! {
                () = stop.cancelled() => return None,
                attempt = self.try_acquire_or_renew(false) => attempt,
            };
            match attempt {
                Ok(true) => {
                    let number = self.terms.fetch_add(1, Ordering::Relaxed) + 1;
                    return Some(Term::new(number, sent + self.config.renew_deadline));
                }
                Ok(false) => {}
                Err(error) => {
                    tracing::debug!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), "could not try to acquire the lease");
                }
            }
            // Next try: after a jittered retry period (client-go's JitterUntil, factor
            // 1.2), as soon as the watch sees the lease freed, or when the holder's
            // lease runs out as observed here, whichever comes first.
            let retry = self.config.retry_period.mul_f64(1.0 + 1.2 * rand::random::<f64>());
            let expiry = self
                .observed
                .lock()
                .as_ref()
                .and_then(|observed| observed.expiry(self.config.lease_duration));
            let expiry = expiry.map_or(Instant::now() + retry, |at| at + Duration::from_millis(1));
            tokio::select! {
                () = stop.cancelled() => return None,
                () = self.freed.notified() => {}
                () = tokio::time::sleep(retry) => {}
                () = tokio::time::sleep_until(expiry) => {}
            }
        }
    }

    /// Renews every retry period while the term is valid.
    async fn hold(&self, term: &Term, stop: &CancellationToken) -> Held {
        loop {
            tokio::select! {
                () = stop.cancelled() => return Held::Stopped,
                () = term.over() => return Held::Lost(self.lost_why("the renew deadline passed")),
                () = tokio::time::sleep(self.config.retry_period) => {}
            }
            self.wait_if_paused(stop).await;
            if !term.is_valid() {
                return Held::Lost(self.lost_why("the renew deadline passed"));
            }
            let sent = Instant::now();
            let attempt = tokio::time::timeout_at(term.valid_until(), self.try_acquire_or_renew(true)).await;
            match attempt {
                Ok(Ok(true)) => {
                    if !term.extend(sent + self.config.renew_deadline) {
                        return Held::Lost("the renew deadline passed before the renew succeeded");
                    }
                    *self.renewed.lock() = Some(Instant::now());
                }
                Ok(Ok(false)) => return Held::Lost(self.lost_why("another replica holds the lease")),
                Ok(Err(error)) => {
                    tracing::warn!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), deadline_in = ?term.valid_until().saturating_duration_since(Instant::now()), "failed to renew the lease; retrying until the renew deadline");
                }
                Err(_) => return Held::Lost("the renew deadline passed while renewing"),
            }
        }
    }

    /// Why the term ended: as recorded where it was ended, else `otherwise`.
    fn lost_why(&self, otherwise: &'static str) -> &'static str {
        self.lost_why.lock().take().unwrap_or(otherwise)
    }

    async fn wait_if_paused(&self, stop: &CancellationToken) {
        let until = self.paused_until.lock().take();
        if let Some(until) = until {
            tracing::warn!(lease = %self.lease(), "leader election paused (a test's stall)");
            tokio::select! {
                () = stop.cancelled() => {}
                () = tokio::time::sleep_until(until) => {}
            }
        }
    }

    /// client-go's `tryAcquireOrRenew`: true when the lease is ours after the call.
    async fn try_acquire_or_renew(&self, leading: bool) -> Result<bool, kube::Error> {
        let _writing = self.writing.lock().await;
        let now = MicroTime(Timestamp::now());
        // A leader renews its own record with the resourceVersion it last wrote,
        // without reading first; a conflict sends it through the full path.
        let own = self
            .observed
            .lock()
            .clone()
            .filter(|o| leading && o.holder() == Some(self.identity.as_str()));
        if let Some(own) = own {
            let spec = LeaseSpec {
                renew_time: Some(now.clone()),
                lease_duration_seconds: Some(self.config.lease_seconds()),
                ..own.spec.clone()
            };
            match self.write(spec, &own).await {
                Ok(()) => return Ok(true),
                Err(kube::Error::Api(status)) if status.code == 409 => {}
                Err(kube::Error::Api(status)) if status.code == 404 => {
                    self.own_lease_gone("renewing found the lease deleted");
                    return Ok(false);
                }
                Err(error) => return Err(error),
            }
        }

        let Some(lease) = self.api.get_opt(&self.config.lease_name).await? else {
            return self.lease_missing(leading, now).await;
        };
        let current = lease.spec.clone().unwrap_or_default();
        let observed = self.observe(&lease);
        if observed.held_by_other(&self.identity, self.config.lease_duration) {
            return Ok(false);
        }
        let ours = observed.holder() == Some(self.identity.as_str());
        let spec = LeaseSpec {
            holder_identity: Some(self.identity.clone()),
            lease_duration_seconds: Some(self.config.lease_seconds()),
            acquire_time: if ours {
                current.acquire_time.clone()
            } else {
                Some(now.clone())
            },
            renew_time: Some(now),
            lease_transitions: Some(current.lease_transitions.unwrap_or(0) + i32::from(!ours)),
            ..current
        };
        match self.write(spec, &observed).await {
            Ok(()) => Ok(true),
            // 404: deleted since it was read; judged on the next try.
            Err(kube::Error::Api(status)) if matches!(status.code, 404 | 409) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// The Lease does not exist. A leader's term ends (its Lease was deleted); a
    /// candidate creates it unless the last record seen is another holder's that has
    /// not run out: a deleted Lease is not a free one, as its holder may not know yet.
    async fn lease_missing(&self, leading: bool, now: MicroTime) -> Result<bool, kube::Error> {
        if leading {
            self.own_lease_gone("the lease was deleted");
            return Ok(false);
        }
        let observed = self.observed.lock().clone();
        if observed.is_some_and(|o| o.held_by_other(&self.identity, self.config.lease_duration)) {
            return Ok(false);
        }
        self.create(now).await
    }

    /// This replica's Lease was deleted under it: the term ends now, before the
    /// elector may take the Lease again, so no write of this term follows.
    fn own_lease_gone(&self, why: &'static str) {
        if let Leadership::Leader(term) = &*self.state.borrow()
            && term.is_valid()
        {
            tracing::warn!(lease = %self.lease(), identity = %self.identity, why, "ending the leadership term at once");
            *self.lost_why.lock() = Some(why);
            term.end();
        }
    }
}
