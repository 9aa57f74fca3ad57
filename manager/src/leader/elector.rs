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

use super::{LeaderElection, LeaderMetrics, OnLeadershipLost, Term, why};
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
    fn of(lease: &Lease) -> Self {
        Self {
            spec: lease.spec.clone().unwrap_or_default(),
            resource_version: lease.metadata.resource_version.clone(),
            uid: lease.metadata.uid.clone(),
            annotations: lease.metadata.annotations.clone().unwrap_or_default(),
            at: Instant::now(),
        }
    }

    /// The term this record began, as server-side fencing names it:
    /// `<holderIdentity>/<leaseTransitions>` (the policy reads the Lease the same way).
    fn token(&self) -> String {
        format!(
            "{}/{}",
            self.spec.holder_identity.as_deref().unwrap_or_default(),
            self.spec.lease_transitions.unwrap_or(0)
        )
    }

    fn holder(&self) -> Option<&str> {
        self.spec.holder_identity.as_deref().filter(|h| !h.is_empty())
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

    /// Whether this record is older than `other` (stored before it). Resource versions
    /// are etcd's revisions on every server this runs against, integers that grow with
    /// each write; ones that do not parse are never taken for older, so a record that
    /// cannot be placed is judged as new.
    fn older_than(&self, other: &Self) -> bool {
        let revision = |o: &Self| o.resource_version.as_deref().and_then(|v| v.parse::<u64>().ok());
        matches!((revision(self), revision(other)), (Some(a), Some(b)) if a < b)
    }
}

/// How a spell of leadership ended.
enum Held {
    /// The manager asked the elector to stop (graceful shutdown).
    Stopped,
    /// The term ended without a stop; the term says why.
    Lost,
}

pub(crate) struct Elector {
    api: Api<Lease>,
    config: LeaderElection,
    identity: String,
    namespace: String,
    observed: Mutex<Option<Observed>>,
    /// The record this replica last wrote (its answer from the server): the only
    /// record it takes for its own. Any other record naming it (restored from a
    /// backup, edited by hand) is someone else's, and waited out as such. Written and
    /// read under `writing`, so a watch event is never judged against a write whose
    /// answer has not come yet.
    written: Mutex<Option<Observed>>,
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
    /// Failed attempts (acquire or renew), logged once a run and summed up.
    outage: wheelhouse_cache::Outage,
}

impl Elector {
    pub(crate) fn new(
        client: kube::Client,
        config: LeaderElection,
        identity: String,
        namespace: String,
        metrics: Option<LeaderMetrics>,
    ) -> Arc<Self> {
        let outage = wheelhouse_cache::Outage::new(format!("attempts on lease {namespace}/{}", config.lease_name));
        Arc::new(Self {
            api: Api::namespaced(client, &namespace),
            config,
            identity,
            namespace,
            observed: Mutex::new(None),
            written: Mutex::new(None),
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
            outage,
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
        let Some(own) = self.own_record() else { return Ok(false) };
        let spec = LeaseSpec {
            renew_time: Some(MicroTime(Timestamp::now())),
            ..own.spec.clone()
        };
        let Ok(written) = tokio::time::timeout(self.attempt_timeout(), self.write(spec, &own)).await else {
            tracing::debug!(lease = %self.lease(), timeout = ?self.attempt_timeout(), "publishing got no answer in time; the next round tries again");
            return Ok(false);
        };
        match written {
            Ok(()) => Ok(true),
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(false),
            Err(kube::Error::Api(status)) if status.code == 404 => {
                self.end_term(why::DELETED);
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

    /// How long one attempt (the reads and writes of one try) may take: half the renew
    /// deadline, at least a second, as client-go's resourcelock bounds its client. A
    /// request stuck on a dead connection (a connect the kernel keeps retrying, an
    /// answer that never comes) would otherwise hold the elector for the client's own
    /// timeouts (kube's: 30 s to connect, 295 s to read), and a member or leader whose
    /// API server came back would not campaign again until then.
    pub(crate) fn attempt_timeout(&self) -> Duration {
        (self.config.renew_deadline / 2).max(Duration::from_secs(1))
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
            self.state.send_replace(Leadership::Leader(term.clone()));
            let held = self.hold(&term, &stop).await;
            term.end();
            let why = term.why().unwrap_or(why::STOPPED);
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
                Held::Lost => {
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
                attempt = tokio::time::timeout(self.attempt_timeout(), self.try_acquire_or_renew(false)) => attempt,
            };
            match &attempt {
                Ok(Ok(_)) => {
                    self.outage.succeeded();
                }
                Ok(Err(error)) => {
                    self.outage.failed(&wheelhouse_cache::error_chain(error));
                }
                Err(_) => {
                    self.outage
                        .failed(&format!("no answer within {:?}", self.attempt_timeout()));
                }
            }
            let failed = match attempt {
                Ok(Ok(true)) => {
                    let number = self.terms.fetch_add(1, Ordering::Relaxed) + 1;
                    let term = Term::new(number, sent + self.config.renew_deadline);
                    if let Some(token) = self.written.lock().as_ref().map(Observed::token) {
                        term.set_token(token);
                    }
                    return Some(term);
                }
                Ok(Ok(false)) => false,
                Ok(Err(error)) => {
                    tracing::debug!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), "could not try to acquire the lease");
                    true
                }
                Err(_) => {
                    tracing::debug!(lease = %self.lease(), timeout = ?self.attempt_timeout(), "an attempt to acquire the lease got no answer in time");
                    true
                }
            };
            // Next try: after a jittered retry period (client-go's JitterUntil, factor
            // 1.2); after an answer, also as soon as the watch sees the lease freed, or
            // when the holder's lease runs out as observed here, if that is still to
            // come. A failed attempt always waits the whole period: an expiry already
            // past, or a wake the watch left behind, would otherwise send the next try
            // at once, and a server that refuses at once would see a storm of them.
            let retry = self.config.retry_period.mul_f64(1.0 + 1.2 * rand::random::<f64>());
            let now = Instant::now();
            let expiry = self
                .observed
                .lock()
                .as_ref()
                .and_then(|observed| observed.expiry(self.config.lease_duration))
                .map(|at| at + Duration::from_millis(1))
                .filter(|&at| at > now && !failed);
            tokio::select! {
                () = stop.cancelled() => return None,
                () = self.freed.notified(), if !failed => {}
                () = tokio::time::sleep(retry) => {}
                () = sleep_until_some(expiry) => {}
            }
        }
    }

    /// Renews every retry period while the term is valid.
    async fn hold(&self, term: &Term, stop: &CancellationToken) -> Held {
        loop {
            tokio::select! {
                () = stop.cancelled() => return Held::Stopped,
                () = term.over() => return Held::Lost,
                () = tokio::time::sleep(self.config.retry_period) => {}
            }
            self.wait_if_paused(stop).await;
            if !term.is_valid() {
                return Held::Lost;
            }
            let sent = Instant::now();
            let bound = term.valid_until().min(sent + self.attempt_timeout());
            let attempt = tokio::time::timeout_at(bound, self.try_acquire_or_renew(true)).await;
            match &attempt {
                Ok(Ok(_)) => {
                    self.outage.succeeded();
                }
                Ok(Err(error)) => {
                    self.outage.failed(&wheelhouse_cache::error_chain(error));
                }
                Err(_) => {
                    self.outage
                        .failed(&format!("no answer within {:?}", self.attempt_timeout()));
                }
            }
            match attempt {
                Ok(Ok(true)) => {
                    if !term.extend(sent + self.config.renew_deadline) {
                        return Held::Lost;
                    }
                    *self.renewed.lock() = Some(Instant::now());
                }
                // The renew found the lease gone or someone else's, and said so on
                // the term (a record it cannot judge ends the term as changed hands).
                Ok(Ok(false)) => {
                    term.end_because(why::CHANGED_HANDS);
                    return Held::Lost;
                }
                Ok(Err(error)) => {
                    tracing::debug!(lease = %self.lease(), error = %wheelhouse_cache::error_chain(&error), deadline_in = ?term.valid_until().saturating_duration_since(Instant::now()), "failed to renew the lease; retrying until the renew deadline");
                }
                // No answer in time: another try while the term lasts, on a fresh
                // request (the next renew cannot rely on the record it may have left).
                Err(_) if Instant::now() < term.valid_until() => {
                    tracing::debug!(lease = %self.lease(), timeout = ?self.attempt_timeout(), deadline_in = ?term.valid_until().saturating_duration_since(Instant::now()), "a renew of the lease got no answer in time; retrying until the renew deadline");
                }
                Err(_) => {
                    term.end_because(why::NOT_RENEWED);
                    return Held::Lost;
                }
            }
        }
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
    /// Unlike client-go, a record naming this replica is its own only if it is the
    /// record it last wrote ([`Elector::is_own`]); any other is waited out as another
    /// holder's, and a leader that finds one ends its term.
    async fn try_acquire_or_renew(&self, leading: bool) -> Result<bool, kube::Error> {
        let _writing = self.writing.lock().await;
        let now = MicroTime(Timestamp::now());
        // A leader renews its own record with the resourceVersion it last wrote,
        // without reading first; a conflict sends it through the full path.
        if leading && let Some(own) = self.own_record() {
            let spec = LeaseSpec {
                renew_time: Some(now.clone()),
                lease_duration_seconds: Some(self.config.lease_seconds()),
                ..own.spec.clone()
            };
            match self.write(spec, &own).await {
                Ok(()) => return Ok(true),
                Err(kube::Error::Api(status)) if status.code == 409 => {}
                Err(kube::Error::Api(status)) if status.code == 404 => {
                    self.end_term(why::DELETED);
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
        let ours = self.is_own(&observed);
        if leading && !ours {
            // Changed under this term by another writer: the term ends here, and the
            // record is judged as anyone's on the next try.
            self.end_term(self.why_not_own(&observed));
            return Ok(false);
        }
        if self.held_by_other(&observed) {
            return Ok(false);
        }
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

    /// The record this replica last wrote, if it holds the lease in it.
    fn own_record(&self) -> Option<Observed> {
        self.written
            .lock()
            .clone()
            .filter(|written| written.holder() == Some(self.identity.as_str()))
    }

    /// Whether `observed` is exactly the record this replica last wrote (its
    /// resourceVersion), and names this replica. Only such a record is its own: the
    /// same holder in any other record (restored from a backup, edited by hand, or
    /// written by another process with this identity) may be someone acting now.
    fn is_own(&self, observed: &Observed) -> bool {
        observed.holder() == Some(self.identity.as_str())
            && observed.resource_version.is_some()
            && self
                .written
                .lock()
                .as_ref()
                .is_some_and(|written| written.resource_version == observed.resource_version)
    }

    /// True while someone else's record has not run out as observed here: another
    /// holder's, or one naming this replica that it did not write.
    fn held_by_other(&self, observed: &Observed) -> bool {
        observed.holder().is_some()
            && !self.is_own(observed)
            && observed
                .expiry(self.config.lease_duration)
                .is_some_and(|expiry| Instant::now() < expiry)
    }

    /// Why a record that is not this replica's own ends its term.
    fn why_not_own(&self, observed: &Observed) -> &'static str {
        if observed.holder() == Some(self.identity.as_str()) {
            why::OVERWRITTEN
        } else {
            why::CHANGED_HANDS
        }
    }

    /// The Lease does not exist. A leader's term ends (its Lease was deleted); a
    /// candidate creates it unless the last record seen is another holder's that has
    /// not run out: a deleted Lease is not a free one, as its holder may not know yet.
    async fn lease_missing(&self, leading: bool, now: MicroTime) -> Result<bool, kube::Error> {
        if leading {
            self.end_term(why::DELETED);
            return Ok(false);
        }
        let observed = self.observed.lock().clone();
        if observed.is_some_and(|o| self.held_by_other(&o)) {
            return Ok(false);
        }
        self.create(now).await
    }

    /// This replica's Lease was deleted, or changed by another writer, under its term:
    /// the term ends now, before the elector may take the Lease again, so no write of
    /// this term follows.
    fn end_term(&self, why: &'static str) {
        if let Leadership::Leader(term) = &*self.state.borrow()
            && term.is_valid()
        {
            tracing::warn!(lease = %self.lease(), identity = %self.identity, why, "ending the leadership term at once");
            term.end_because(why);
        }
    }
}

/// Sleeps until `at`, or forever without it.
async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
