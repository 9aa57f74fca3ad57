//! Leader election on a `coordination.k8s.io/v1` Lease, with client-go's algorithm
//! (`k8s.io/client-go/tools/leaderelection`), plus a watch on the Lease so a standby
//! takes a released lease at once instead of at its next poll.
//!
//! Safety rests on three rules, each stated where it is kept:
//! - a candidate takes the lease only when it is free or when it has seen the same
//!   record, unchanged, for a whole lease duration on its own monotonic clock
//!   ([`elector::Observed`]): no other machine's timestamps are trusted;
//! - every write carries the resourceVersion it read, so of two candidates at most
//!   one wins;
//! - a leader's [`Term`] ends `renew_deadline` after the *sending* of its last
//!   successful renew, which is before any other replica can have seen that renew
//!   expire (`lease_duration` after it saw it): from then the manager's client refuses
//!   writes, and the manager stops every leader-only runnable, whether or not the
//!   elector itself is still running.
//!
//! And three about the Lease's own lifecycle:
//! - a record is this replica's own only if it is exactly the record it last wrote
//!   (the resourceVersion of its last successful write): one naming it that it did not
//!   write (restored from a backup, edited by hand) is someone else's and is waited out
//!   for a lease duration like any other holder's, and a leader whose watch (or renew)
//!   finds a record it did not write, stored after its last write, ends its term at
//!   once: so does one that finds another holder there;
//! - a deleted Lease is not a free one: its last record counts as held by its last
//!   holder until a lease duration after this replica last saw it change, exactly as
//!   an expiry; the holder, when its renew finds the Lease gone (404) or its watch
//!   sees it deleted, ends its term at once, before it may take the Lease again;
//! - renewals (and a ring member's publications) are JSON merge patches carrying the
//!   resourceVersion they were based on, never PUTs: kube-apiserver creates a Lease
//!   on the update of a missing one, so a renew delayed past a deletion would
//!   resurrect it, where a patch of a missing object is always 404.
//!
//! After a failed attempt (no answer, or an error), a candidate always waits its
//! jittered retry period before the next: it wakes early only for an answer's news (the
//! watch seeing the Lease freed, or an observed expiry still to come), so an API server
//! that refuses connections sees at most one attempt per retry period from each.
//!
//! A replica whose term ended stays up as a standby and campaigns again unless
//! [`OnLeadershipLost::Exit`] asks for controller-runtime's exit.

mod elector;
mod metrics;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub(crate) use elector::{Elector, Leadership};
pub(crate) use metrics::LeaderMetrics;

use crate::Error;

/// What a replica does after its leadership term ended without a graceful stop (the
/// lease was not renewed in time, another replica holds it, or it was deleted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnLeadershipLost {
    /// Stop the manager, which returns [`Error::LeadershipLost`] (controller-runtime's
    /// behaviour: the process exits and restarts as a cold standby).
    Exit,
    /// Stay up as a standby (the default): the caches stay warm, the manager's client
    /// refuses writes, and the replica competes for the lease again; leader-only
    /// runnables start anew in each term it wins. After an API server outage that
    /// ended every term, the replicas take over again without a restart and a relist.
    #[default]
    Standby,
}

/// How a manager elects its leader; see [`ManagerBuilder::leader_election`].
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_manager::{LeaderElection, OnLeadershipLost};
///
/// let election = LeaderElection::new("webapp-operator")
///     .namespace("operators")
///     .timings(Duration::from_secs(15), Duration::from_secs(10), Duration::from_secs(2))
///     .on_lost(OnLeadershipLost::Standby);
/// assert!(election.validate().is_ok());
/// assert!(LeaderElection::new("x").timings(Duration::from_secs(5), Duration::from_secs(10), Duration::from_secs(2)).validate().is_err());
/// ```
///
/// [`ManagerBuilder::leader_election`]: crate::ManagerBuilder::leader_election
#[derive(Debug, Clone)]
pub struct LeaderElection {
    pub(crate) lease_name: String,
    pub(crate) namespace: Option<String>,
    pub(crate) identity: Option<String>,
    pub(crate) lease_duration: Duration,
    pub(crate) renew_deadline: Duration,
    pub(crate) retry_period: Duration,
    pub(crate) release_on_cancel: bool,
    pub(crate) on_lost: OnLeadershipLost,
}

impl LeaderElection {
    /// Elects on the Lease named `lease_name` (controller-runtime's `LeaderElectionID`),
    /// with client-go's default timings: 15 s lease, 10 s renew deadline, 2 s retry.
    pub fn new(lease_name: impl Into<String>) -> Self {
        Self {
            lease_name: lease_name.into(),
            namespace: None,
            identity: None,
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
            release_on_cancel: true,
            on_lost: OnLeadershipLost::Standby,
        }
    }

    /// The Lease's namespace (default: the pod's own namespace in a cluster, else the
    /// client's default namespace).
    #[must_use]
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// This replica's identity in the Lease (default: the hostname, an underscore and
    /// a random suffix, so two processes on one host never share it).
    #[must_use]
    pub fn identity(mut self, identity: impl Into<String>) -> Self {
        self.identity = Some(identity.into());
        self
    }

    /// How long a lease is valid without renewal; how long a leader keeps trying to
    /// renew before it stops its work; how often it renews (and standbys poll).
    /// Must satisfy `lease_duration > renew_deadline > 1.2 × retry_period`.
    #[must_use]
    pub fn timings(mut self, lease_duration: Duration, renew_deadline: Duration, retry_period: Duration) -> Self {
        self.lease_duration = lease_duration;
        self.renew_deadline = renew_deadline;
        self.retry_period = retry_period;
        self
    }

    /// Whether a leader that stops gracefully empties the Lease's holder, so a standby
    /// takes over at once (default true).
    #[must_use]
    pub fn release_on_cancel(mut self, release: bool) -> Self {
        self.release_on_cancel = release;
        self
    }

    /// What to do after losing the lease (default [`OnLeadershipLost::Standby`];
    /// [`OnLeadershipLost::Exit`] keeps controller-runtime's exit).
    #[must_use]
    pub fn on_lost(mut self, on_lost: OnLeadershipLost) -> Self {
        self.on_lost = on_lost;
        self
    }

    /// Checks client-go's rules: a name, `lease_duration > renew_deadline`,
    /// `renew_deadline > 1.2 × retry_period`, and a lease of at least one second
    /// (the Lease stores whole seconds).
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |why: String| Err(Error::InvalidLeaderElection(why));
        if self.lease_name.is_empty() {
            return invalid("the lease name (--leader-election-id) is empty".into());
        }
        if self.lease_duration < Duration::from_secs(1) {
            return invalid(format!(
                "the lease duration {:?} is under one second, the Lease's unit",
                self.lease_duration
            ));
        }
        if self.lease_duration <= self.renew_deadline {
            return invalid(format!(
                "the lease duration {:?} must be longer than the renew deadline {:?}",
                self.lease_duration, self.renew_deadline
            ));
        }
        if self.renew_deadline.as_secs_f64() <= 1.2 * self.retry_period.as_secs_f64() {
            return invalid(format!(
                "the renew deadline {:?} must be longer than 1.2 × the retry period {:?}",
                self.renew_deadline, self.retry_period
            ));
        }
        if self.retry_period.is_zero() {
            return invalid("the retry period is zero".into());
        }
        Ok(())
    }

    /// The lease duration as the Lease stores it: whole seconds, rounded up.
    fn lease_seconds(&self) -> i32 {
        let seconds = self.lease_duration.as_secs() + u64::from(self.lease_duration.subsec_nanos() > 0);
        i32::try_from(seconds).unwrap_or(i32::MAX)
    }
}

/// The default identity: the hostname and a random suffix.
pub(crate) fn default_identity() -> String {
    let host = hostname::get()
        .ok()
        .and_then(|name| name.into_string().ok())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "wheelhouse".to_owned());
    format!("{host}_{:016x}", rand::random::<u64>())
}

/// Why a leadership term ended, as the logs and [`Error::LeadershipLost`] say it: each
/// cause once, where it is found.
pub(crate) mod why {
    /// No renew succeeded within the renew deadline (the API server unreachable or
    /// slow, or the process stalled).
    pub(crate) const NOT_RENEWED: &str = "the lease was not renewed within the renew deadline";
    /// The Lease was deleted (seen on the watch, or a renew answered 404).
    pub(crate) const DELETED: &str = "the lease was deleted";
    /// The Lease names another holder now (seen on the watch, or on a renew).
    pub(crate) const CHANGED_HANDS: &str = "the lease changed hands";
    /// The Lease names this replica but holds a record it did not write (restored from
    /// a backup, edited by hand): someone else may act as this identity.
    pub(crate) const OVERWRITTEN: &str = "the lease was overwritten by a record this replica did not write";
    /// The manager stopped (graceful shutdown).
    pub(crate) const STOPPED: &str = "the manager is stopping";
}

/// One spell of leadership. Leader-only runnables run only while it is valid.
///
/// Invariant: once `ended` is cancelled, or `valid_until` has passed, the term is over
/// for good; `extend` never revives it. The elector extends it after each successful
/// renew; the manager's watchdog ends it when `valid_until` passes, so a frozen elector
/// cannot keep leader-only work running.
pub(crate) struct Term {
    /// Counts this replica's terms from 1: two terms are the same term only if their
    /// numbers are, however the manager's view of them was merged.
    number: u64,
    /// When the term was created; `valid_until` counts nanoseconds from it.
    start: Instant,
    valid_until: AtomicU64,
    ended: CancellationToken,
    /// The first cause found for the end (one of [`why`]); set before `ended` is
    /// cancelled, so whoever sees the end reads why.
    why: OnceLock<&'static str>,
    /// The Lease record that began the term, as `<holderIdentity>/<leaseTransitions>`:
    /// what server-side fencing stamps on the term's writes.
    token: OnceLock<String>,
}

impl Term {
    pub(crate) fn new(number: u64, valid_until: Instant) -> Arc<Self> {
        let start = Instant::now();
        Arc::new(Self {
            number,
            start,
            valid_until: AtomicU64::new(nanos_between(start, valid_until)),
            ended: CancellationToken::new(),
            why: OnceLock::new(),
            token: OnceLock::new(),
        })
    }

    /// Names the Lease record that began the term (set once, before the term is
    /// handed out).
    pub(crate) fn set_token(&self, token: String) {
        let _ = self.token.set(token);
    }

    /// The Lease record that began the term, as `<holderIdentity>/<leaseTransitions>`.
    pub(crate) fn token(&self) -> Option<&str> {
        self.token.get().map(String::as_str)
    }

    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    pub(crate) fn valid_until(&self) -> Instant {
        self.start + Duration::from_nanos(self.valid_until.load(Ordering::Acquire))
    }

    /// True while the lease is known to be ours: not ended, deadline not passed.
    pub(crate) fn is_valid(&self) -> bool {
        !self.ended.is_cancelled() && Instant::now() < self.valid_until()
    }

    /// Moves the deadline to `until`; false (and no effect) once the term is over.
    pub(crate) fn extend(&self, until: Instant) -> bool {
        if !self.is_valid() {
            self.end_because(why::NOT_RENEWED);
            return false;
        }
        self.valid_until
            .fetch_max(nanos_between(self.start, until), Ordering::AcqRel);
        true
    }

    /// Ends the term because of `why` (one of [`why`]); a term already over keeps the
    /// first cause found.
    pub(crate) fn end_because(&self, why: &'static str) {
        let cause = if self.is_valid() { why } else { why::NOT_RENEWED };
        let _ = self.why.set(cause);
        self.ended.cancel();
    }

    /// Ends the term; the cause is its deadline's if that passed, else a stop.
    pub(crate) fn end(&self) {
        self.end_because(why::STOPPED);
    }

    /// Why the term ended (its deadline, if nothing else was recorded); None while it
    /// runs.
    pub(crate) fn why(&self) -> Option<&'static str> {
        if self.is_valid() {
            return None;
        }
        Some(self.why.get().copied().unwrap_or(why::NOT_RENEWED))
    }

    /// Resolves when the term ends: ended explicitly, or its deadline passed. Ends it
    /// in the second case, so every reader agrees.
    pub(crate) async fn over(&self) {
        loop {
            let until = self.valid_until();
            tokio::select! {
                () = self.ended.cancelled() => return,
                () = tokio::time::sleep_until(until) => {
                    if Instant::now() >= self.valid_until() {
                        self.end_because(why::NOT_RENEWED);
                        return;
                    }
                }
            }
        }
    }
}

fn nanos_between(start: Instant, later: Instant) -> u64 {
    u64::try_from(later.saturating_duration_since(start).as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_term_ends_at_its_deadline_and_is_never_revived() {
        let term = Term::new(1, Instant::now() + Duration::from_secs(10));
        assert!(term.is_valid());
        tokio::time::advance(Duration::from_secs(5)).await;
        assert!(term.extend(Instant::now() + Duration::from_secs(10)));
        tokio::time::advance(Duration::from_secs(9)).await;
        assert!(term.is_valid(), "extended to 15 s from the start");
        term.over().await;
        assert!(!term.is_valid());
        assert!(
            !term.extend(Instant::now() + Duration::from_secs(10)),
            "a late renew does not revive it"
        );
        assert!(!term.is_valid());
        assert_eq!(term.why(), Some(why::NOT_RENEWED));
    }

    #[tokio::test(start_paused = true)]
    async fn a_term_keeps_the_first_cause_of_its_end() {
        let term = Term::new(1, Instant::now() + Duration::from_secs(10));
        assert_eq!(term.why(), None);
        term.end_because(why::DELETED);
        term.end_because(why::CHANGED_HANDS);
        term.over().await;
        assert_eq!(term.why(), Some(why::DELETED));
        // A cause found after the deadline passed is not the cause: the deadline is.
        let late = Term::new(2, Instant::now() + Duration::from_secs(1));
        tokio::time::advance(Duration::from_secs(2)).await;
        late.end_because(why::CHANGED_HANDS);
        assert_eq!(late.why(), Some(why::NOT_RENEWED));
    }

    #[tokio::test(start_paused = true)]
    async fn extending_never_moves_the_deadline_back() {
        let term = Term::new(1, Instant::now() + Duration::from_secs(10));
        assert!(term.extend(Instant::now() + Duration::from_secs(3)));
        tokio::time::advance(Duration::from_secs(5)).await;
        assert!(term.is_valid());
    }

    #[test]
    fn timings_are_validated_as_client_go_does() {
        let s = Duration::from_secs;
        let ok = LeaderElection::new("id");
        assert!(ok.validate().is_ok());
        let cases = [
            (s(10), s(10), s(2), "longer than the renew deadline"),
            (s(15), s(2), s(2), "1.2 × the retry period"),
            (
                Duration::from_millis(500),
                Duration::from_millis(300),
                Duration::from_millis(100),
                "under one second",
            ),
        ];
        for (lease, renew, retry, why) in cases {
            let error = LeaderElection::new("id")
                .timings(lease, renew, retry)
                .validate()
                .expect_err(why)
                .to_string();
            assert!(error.contains(why), "{error}");
        }
        assert!(LeaderElection::new("").validate().is_err());
    }

    #[test]
    fn lease_seconds_round_up() {
        let election = LeaderElection::new("id").timings(
            Duration::from_millis(1500),
            Duration::from_secs(1),
            Duration::from_millis(200),
        );
        assert_eq!(election.lease_seconds(), 2);
        assert_eq!(LeaderElection::new("id").lease_seconds(), 15);
    }

    #[test]
    fn default_identities_differ() {
        assert_ne!(default_identity(), default_identity());
    }
}
