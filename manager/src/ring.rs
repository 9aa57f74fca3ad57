//! Sharding a manager's controllers across replicas: a ring of members, each holding
//! its own Lease, that split the hash space of the primary objects among themselves.
//!
//! # The protocol
//!
//! Each replica holds a Lease of its own, labelled with the ring's name, and renews it
//! as leader election does (the same elector: client-go's timings, the observed-time
//! rule, a term that ends `renew_deadline` after the last renew
//! sent, and fenced writes). While its term is valid it is a *member*: its
//! leader-only runnables (controllers) run, and reconcile only the slots it *serves*.
//! In its Lease it publishes two annotations: the version of the member list it acts
//! on, and the slots it serves.
//!
//! Each member, whenever the ring changes:
//! 1. computes the live members from the ring's Leases (a holder, and a record that
//!    changed within its lease duration on this replica's clock) and from them the
//!    assignment (rendezvous hashing with bounded loads, each member within one slot of
//!    its share): the same list gives every member the same slots;
//! 2. **stops before it publishes**: slots it serves but no longer owns stop being
//!    reconciled, and reconciles in flight in them are waited for
//!    ([`Shards::stop_serving`](wheelhouse_cache::Shards::stop_serving)); only then it
//!    publishes the new version and the smaller set;
//! 3. **publishes before it starts**: a slot it owns but does not serve is taken only
//!    when a fresh (quorum) list of the ring's Leases shows every other live member
//!    publishing the same version and none serving that slot; it publishes the larger
//!    set, and starts reconciling the slot once the write succeeded.
//!
//! A member that leaves gracefully stops its controllers, then empties its Lease's
//! holder: the others see it gone at once. A member that dies is dropped when its
//! Lease has not changed for a lease duration; its own term ended `lease_duration -
//! renew_deadline` earlier, so it writes nothing after that (the fence). A member
//! whose Lease is deleted (by a person, or swept by a peer) is not dropped at once:
//! the others count it live, with the slots it published, until a lease duration after
//! they last saw its Lease change, as if it had died; it ends its own term at once
//! when it sees the deletion, and joins again with a new Lease that serves nothing.
//! Its renewals and publications are merge patches, which cannot re-create a deleted
//! Lease: a publication delayed past a sweep fails (404) instead of resurrecting a
//! ghost member whose share nobody would serve.
//!
//! **Invariant: no slot is served by two members at once.** Two members can only both
//! want a slot if they computed assignments from different member lists, hence
//! published different versions; each takes the slot only after a linearizable read
//! that shows the other on its own version. Each published its version before that
//! read, so whichever read second would have seen the other's version differ. A member
//! dropped as dead stopped serving when its term ended, before it could be dropped.
//! `tests/sharding.rs` checks the invariant with the embedded server's request log as
//! the witness: which replica wrote each object, when, across joins, graceful leaves,
//! kills and pauses.

mod assignment;
mod member;
mod metrics;

use std::time::Duration;

use wheelhouse_cache::ShardKey;
use wheelhouse_cache::shard::fnv1a64;

pub(crate) use member::Member;
pub(crate) use metrics::RingMetrics;

use crate::leader::{LeaderElection, OnLeadershipLost};

/// The label every member's Lease carries, valued with the ring's name.
pub const RING_LABEL: &str = "wheelhouse.rs/shard-ring";
/// The annotation with the version of the member list a member acts on.
pub const VERSION_ANNOTATION: &str = "wheelhouse.rs/shard-ring-version";
/// The annotation with the slots a member serves (16 hex digits, bit `i` = slot `i`).
pub const SERVING_ANNOTATION: &str = "wheelhouse.rs/shard-serving";

/// How a manager shards its controllers; see [`ManagerBuilder::sharding`].
///
/// Each member needs `get`, `list`, `watch`, `create`, `patch` and `delete` on
/// `coordination.k8s.io` Leases in the ring's namespace (`delete`: members remove the
/// Leases of members that left or died).
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_cache::ShardKey;
/// use wheelhouse_manager::Sharding;
///
/// let sharding = Sharding::new("webapp-operator")
///     .namespace("operators")
///     .key(ShardKey::Uid)
///     .timings(Duration::from_secs(15), Duration::from_secs(10), Duration::from_secs(2));
/// assert!(sharding.validate().is_ok());
/// assert!(Sharding::new("Not A Name").validate().is_err());
/// ```
///
/// [`ManagerBuilder::sharding`]: crate::ManagerBuilder::sharding
#[derive(Debug, Clone)]
pub struct Sharding {
    pub(crate) ring: String,
    pub(crate) key: ShardKey,
    pub(crate) election: LeaderElection,
}

impl Sharding {
    /// Members of the ring named `ring` (a DNS label: it names the members' Leases),
    /// with leader election's default timings and the uid as the key.
    pub fn new(ring: impl Into<String>) -> Self {
        let ring = ring.into();
        Self {
            election: LeaderElection::new(ring.clone()),
            ring,
            key: ShardKey::Uid,
        }
    }

    /// The Leases' namespace (default: the pod's own namespace in a cluster, else the
    /// client's default namespace).
    #[must_use]
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.election = self.election.namespace(namespace);
        self
    }

    /// This replica's identity (default: the hostname and a random suffix).
    #[must_use]
    pub fn identity(mut self, identity: impl Into<String>) -> Self {
        self.election = self.election.identity(identity);
        self
    }

    /// Which field of the primary objects is hashed (default: the uid).
    #[must_use]
    pub fn key(mut self, key: ShardKey) -> Self {
        self.key = key;
        self
    }

    /// The membership Lease's timings, with leader election's rules.
    #[must_use]
    pub fn timings(mut self, lease_duration: Duration, renew_deadline: Duration, retry_period: Duration) -> Self {
        self.election = self.election.timings(lease_duration, renew_deadline, retry_period);
        self
    }

    /// What a member does when its term ends without a graceful stop (default: it
    /// stays up and joins again, as with leader election; see [`OnLeadershipLost`]).
    #[must_use]
    pub fn on_lost(mut self, on_lost: OnLeadershipLost) -> Self {
        self.election = self.election.on_lost(on_lost);
        self
    }

    /// The ring's name.
    pub fn ring(&self) -> &str {
        &self.ring
    }

    /// Checks the ring's name (a DNS label of at most 46 characters, leaving room for
    /// the member suffix) and the timings.
    pub fn validate(&self) -> Result<(), crate::Error> {
        let name_ok = !self.ring.is_empty()
            && self.ring.len() <= 46
            && self
                .ring
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !self.ring.starts_with('-')
            && !self.ring.ends_with('-');
        if !name_ok {
            return Err(crate::Error::InvalidLeaderElection(format!(
                "the ring name {:?} must be a DNS label (lower-case letters, digits and '-') of at most 46 characters",
                self.ring
            )));
        }
        self.election.validate()
    }

    /// The election on this member's own Lease: `<ring>-<hash of the identity>`.
    pub(crate) fn member_election(&self, identity: &str) -> LeaderElection {
        let mut election = self.election.clone();
        election.lease_name = format!("{}-{:016x}", self.ring, fnv1a64(identity.as_bytes()));
        election.identity = Some(identity.to_owned());
        election
    }
}
