//! One replica's part in the ring: it follows the members' Leases and moves its
//! served slots by the protocol in [`crate::ring`].

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, ListParams};
use parking_lot::Mutex;
use tokio::time::Instant;
use wheelhouse_cache::{Informer, Shards, SlotSet};

use super::assignment::{assign, version};
use super::{RingMetrics, SERVING_ANNOTATION, VERSION_ANNOTATION};
use crate::leader::{Elector, Leadership, Term};

/// A Lease record as this replica saw it, and since when (its own clock).
///
/// Kept after the Lease is deleted: a deleted Lease is not an expired one (its holder
/// may not know yet, and serves on until its term ends), so its member counts as live,
/// with what it published, until `at + duration`.
struct Seen {
    resource_version: Option<String>,
    at: Instant,
    /// The member it named and what it published, and its lease duration; None
    /// without a holder (a member that left).
    last: Option<(Published, Duration)>,
}

impl Seen {
    fn live_until(&self) -> Option<Instant> {
        self.last.as_ref().map(|(_, duration)| self.at + *duration)
    }
}

/// What one member of the ring published.
#[derive(Clone)]
struct Published {
    identity: String,
    version: String,
    serving: SlotSet,
}

/// The ring version and served slots a member's Lease annotations publish. Without
/// the annotation a member has published nothing, so serves nothing; one that does not
/// parse is taken to claim every slot, so that none is taken from it.
fn published(annotations: Option<&BTreeMap<String, String>>) -> (String, SlotSet) {
    let get = |key: &str| annotations.and_then(|a| a.get(key));
    let version = get(VERSION_ANNOTATION).cloned().unwrap_or_default();
    let serving = get(SERVING_ANNOTATION).map_or(SlotSet::EMPTY, |serving| serving.parse().unwrap_or(SlotSet::ALL));
    (version, serving)
}

/// This replica's membership: the runnable that moves its slots.
pub(crate) struct Member {
    ring: String,
    elector: Arc<Elector>,
    shards: Shards,
    leases: Informer<Lease>,
    /// Unfenced: the fresh list a gain is decided on.
    api: Api<Lease>,
    selector: String,
    metrics: Option<RingMetrics>,
    seen: Mutex<HashMap<String, Seen>>,
    /// The records `sweep` tried to delete already (once each).
    swept: Mutex<HashSet<(String, String)>>,
}

/// What step 1 of a round decided: the live members, their list's version, and the
/// slots this member owns in it.
struct Plan {
    members: Vec<String>,
    version: String,
    desired: SlotSet,
}

/// What this member serves and published, across steps.
#[derive(Default)]
struct State {
    /// The term `serving` was granted in: a new term starts from nothing.
    term: u64,
    serving: SlotSet,
    published: Option<(String, SlotSet)>,
    /// Since when what it owns and what it serves differ (a handover under way).
    moving_since: Option<Instant>,
}

impl Member {
    pub(crate) fn new(
        ring: String,
        elector: Arc<Elector>,
        shards: Shards,
        leases: Informer<Lease>,
        api: Api<Lease>,
        metrics: Option<RingMetrics>,
    ) -> Self {
        let selector = format!("{}={ring}", super::RING_LABEL);
        Self {
            ring,
            elector,
            shards,
            leases,
            api,
            selector,
            metrics,
            seen: Mutex::new(HashMap::new()),
            swept: Mutex::new(HashSet::new()),
        }
    }

    fn term(&self) -> Option<Arc<Term>> {
        match &*self.elector.subscribe().borrow() {
            Leadership::Leader(term) if term.is_valid() => Some(term.clone()),
            _ => None,
        }
    }

    /// A member's published state, if its Lease says it is live now.
    fn live(&self, lease: &Lease) -> Option<Published> {
        let name = lease.metadata.name.clone().unwrap_or_default();
        if name == self.elector.lease_name() {
            return None;
        }
        let spec = lease.spec.as_ref();
        let identity = spec
            .and_then(|spec| spec.holder_identity.clone())
            .filter(|h| !h.is_empty());
        let duration = spec
            .and_then(|spec| spec.lease_duration_seconds)
            .and_then(|s| u64::try_from(s).ok())
            .filter(|&s| s > 0)
            .map_or(self.elector.lease_duration(), Duration::from_secs);
        let (version, serving) = published(lease.metadata.annotations.as_ref());
        let last = identity.map(|identity| {
            let published = Published {
                identity,
                version,
                serving,
            };
            (published, duration)
        });
        let mut seen = self.seen.lock();
        let entry = seen.entry(name).or_insert_with(|| Seen {
            resource_version: None,
            at: Instant::now(),
            last: None,
        });
        if entry.resource_version != lease.metadata.resource_version {
            entry.resource_version.clone_from(&lease.metadata.resource_version);
            entry.at = Instant::now();
        }
        entry.last = last;
        let until = entry.live_until()?;
        (Instant::now() < until).then(|| entry.last.as_ref().map(|(published, _)| published.clone()))?
    }

    /// Members whose Lease was deleted but which count as live still (see [`Seen`]);
    /// forgets the records that no longer count.
    fn deleted_but_live(&self, present: &HashSet<&str>) -> Vec<Published> {
        let now = Instant::now();
        let mut seen = self.seen.lock();
        seen.retain(|name, entry| {
            present.contains(name.as_str()) || entry.live_until().is_some_and(|until| now < until)
        });
        seen.iter()
            .filter(|(name, _)| !present.contains(name.as_str()))
            .filter_map(|(_, entry)| entry.last.as_ref().map(|(published, _)| published.clone()))
            .collect()
    }

    /// Deletes the Leases of members that left (an empty holder) or died (expired as
    /// seen here), each on the condition that it is still that record: otherwise a
    /// newcomer, which has never seen them change, would take them for live members
    /// for a lease duration.
    async fn sweep(&self) {
        let gone: Vec<(String, String)> = self
            .leases
            .store()
            .all()
            .iter()
            .filter(|lease| lease.metadata.name.as_deref() != Some(self.elector.lease_name()))
            .filter(|lease| self.live(lease).is_none())
            .filter_map(|lease| Some((lease.metadata.name.clone()?, lease.metadata.resource_version.clone()?)))
            .filter(|record| self.swept.lock().insert(record.clone()))
            .collect();
        for (name, resource_version) in gone {
            let preconditions = kube::api::Preconditions {
                resource_version: Some(resource_version),
                uid: None,
            };
            let params = kube::api::DeleteParams {
                preconditions: Some(preconditions),
                ..kube::api::DeleteParams::default()
            };
            let deleted = tokio::time::timeout(self.elector.attempt_timeout(), self.api.delete(&name, &params));
            match deleted
                .await
                .unwrap_or_else(|_| Err(kube::Error::Service("no answer in time".into())))
            {
                Ok(_) => {
                    tracing::info!(ring = %self.ring, lease = %name, "deleted the Lease of a member that left or died");
                }
                Err(error) => {
                    tracing::debug!(ring = %self.ring, lease = %name, error = %wheelhouse_cache::error_chain(&error), "did not delete a gone member's Lease");
                }
            }
        }
    }

    /// The live members as the informer has them, this replica included, and those
    /// whose Lease was deleted less than a lease duration after it last changed.
    fn members(&self) -> Vec<String> {
        let leases = self.leases.store().all();
        let present: HashSet<&str> = leases
            .iter()
            .filter_map(|lease| lease.metadata.name.as_deref())
            .collect();
        let mut members: Vec<String> = leases
            .iter()
            .filter_map(|lease| self.live(lease))
            .chain(self.deleted_but_live(&present))
            .map(|published| published.identity)
            .collect();
        members.push(self.elector.identity().to_owned());
        members.sort_unstable();
        members.dedup();
        members
    }

    fn annotations(version: &str, serving: SlotSet) -> BTreeMap<String, String> {
        BTreeMap::from([
            (VERSION_ANNOTATION.to_owned(), version.to_owned()),
            (SERVING_ANNOTATION.to_owned(), serving.to_string()),
        ])
    }

    /// Whether a fresh list of the ring shows `members` live, every other one on
    /// `version`, and none serving any of `gain`.
    async fn others_agree(&self, members: &[String], version: &str, gain: SlotSet) -> bool {
        // Bounded as the elector's attempts: a list stuck on a dead connection must not
        // hold the member's rounds.
        let params = ListParams::default().labels(&self.selector);
        let list = self.api.list(&params);
        let leases = match tokio::time::timeout(self.elector.attempt_timeout(), list).await {
            Ok(Ok(list)) => list.items,
            Ok(Err(error)) => {
                tracing::debug!(ring = %self.ring, error = %wheelhouse_cache::error_chain(&error), "could not list the ring's leases; retrying");
                return false;
            }
            Err(_) => {
                tracing::debug!(ring = %self.ring, "listing the ring's leases got no answer in time; retrying");
                return false;
            }
        };
        let mut live: HashSet<String> = HashSet::from([self.elector.identity().to_owned()]);
        for lease in &leases {
            let Some(other) = self.live(lease) else { continue };
            if other.version != version || !other.serving.intersection(gain).is_empty() {
                tracing::debug!(ring = %self.ring, member = %other.identity, their_version = %other.version, "waiting for a member to move to this ring version");
                return false;
            }
            live.insert(other.identity);
        }
        live.len() == members.len() && members.iter().all(|m| live.contains(m))
    }

    /// One round of the protocol in [`crate::ring`], its numbered steps in order.
    async fn step(&self, state: &mut State) {
        let Some(term) = self.term() else {
            self.stand_down(state).await;
            return;
        };
        self.begin_term_if_new(state, &term);
        let plan = self.compute_assignment(state).await;
        if !self.stop_then_publish(state, &plan).await {
            return;
        }
        self.publish_then_start(state, &plan, &term).await;
        if state.serving == plan.desired
            && let Some(since) = state.moving_since.take()
            && let Some(metrics) = &self.metrics
        {
            metrics.handover_seconds.observe(since.elapsed().as_secs_f64());
        }
        self.report(plan.members.len(), state.serving);
    }

    /// Not a member (no valid term): serve nothing, and publish nothing with the
    /// next term's first write.
    async fn stand_down(&self, state: &mut State) {
        if !state.serving.is_empty() {
            self.shards.stop_serving(state.serving).await;
            self.count_moved(state.serving, "lost");
            state.serving = SlotSet::EMPTY;
        }
        if state.published.take().is_some() {
            // The next term starts by publishing that nothing is served.
            self.elector.set_annotations(Self::annotations("", SlotSet::EMPTY));
        }
        self.report(0, state.serving);
    }

    /// A new term starts from nothing served or published.
    fn begin_term_if_new(&self, state: &mut State, term: &Term) {
        if state.term != term.number() {
            // The elector cleared the shards when the last term ended.
            state.term = term.number();
            state.serving = SlotSet::EMPTY;
            state.published = None;
            self.shards.clear_serving();
        }
    }

    /// Step 1: the live members (after sweeping the gone ones' Leases), the version
    /// of their list and this member's slots in it. The caches start fetching the
    /// slots to come while what is served stays.
    async fn compute_assignment(&self, state: &mut State) -> Plan {
        self.sweep().await;
        let members = self.members();
        let version = version(&members);
        let me = members.iter().position(|m| m == self.elector.identity()).unwrap_or(0);
        let desired = assign(&members).get(me).copied().unwrap_or(SlotSet::EMPTY);
        self.report(members.len(), state.serving);
        if desired != state.serving && state.moving_since.is_none() {
            state.moving_since = Some(Instant::now());
        }
        self.shards.set_accepted(desired.union(state.serving));
        Plan {
            members,
            version,
            desired,
        }
    }

    /// Step 2, stop before publishing: slots no longer owned stop being served (their
    /// reconciles in flight awaited), then the version and the smaller set are
    /// published. False when the publication did not happen: the round ends there.
    async fn stop_then_publish(&self, state: &mut State, plan: &Plan) -> bool {
        let lost = state.serving.minus(plan.desired);
        if !lost.is_empty() {
            self.shards.stop_serving(lost).await;
            state.serving = state.serving.minus(lost);
            self.count_moved(lost, "lost");
            tracing::info!(ring = %self.ring, slots = lost.len(), serving = state.serving.len(), "stopped serving slots another member owns now");
        }
        let current = (plan.version.clone(), state.serving);
        if state.published.as_ref() != Some(&current) {
            match self
                .elector
                .publish(Self::annotations(&plan.version, state.serving))
                .await
            {
                Ok(true) => state.published = Some(current),
                Ok(false) => return false,
                Err(error) => {
                    tracing::debug!(ring = %self.ring, error = %wheelhouse_cache::error_chain(&error), "could not publish this member's slots; retrying");
                    return false;
                }
            }
        }
        self.shards.set_accepted(plan.desired);
        true
    }

    /// Step 3, publish before starting: slots owned but not served are taken once a
    /// fresh list shows every other live member on this version and none serving
    /// them; the larger set is published, and the slots served once that succeeded.
    async fn publish_then_start(&self, state: &mut State, plan: &Plan, term: &Term) {
        let gain = plan.desired.minus(state.serving);
        if gain.is_empty() || !self.others_agree(&plan.members, &plan.version, gain).await || !term.is_valid() {
            return;
        }
        let serving = state.serving.union(gain);
        match self.elector.publish(Self::annotations(&plan.version, serving)).await {
            Ok(true) => {
                state.published = Some((plan.version.clone(), serving));
                state.serving = serving;
                self.shards.serve(gain);
                self.count_moved(gain, "gained");
                tracing::info!(ring = %self.ring, slots = gain.len(), serving = serving.len(), "serving slots handed over");
            }
            Ok(false) => {}
            Err(error) => {
                tracing::debug!(ring = %self.ring, error = %wheelhouse_cache::error_chain(&error), "could not publish gained slots; retrying");
            }
        }
    }

    fn report(&self, members: usize, serving: SlotSet) {
        if let Some(metrics) = &self.metrics {
            metrics.members.set(i64::try_from(members).unwrap_or(i64::MAX));
            metrics.owned_fraction.set(serving.fraction());
            metrics.objects.set(self.shards.objects());
            metrics.server_filtering.set(match self.shards.server_filtering() {
                wheelhouse_cache::shard::ServerFiltering::Unknown => -1,
                wheelhouse_cache::shard::ServerFiltering::Yes => 1,
                wheelhouse_cache::shard::ServerFiltering::No => 0,
            });
        }
    }

    fn count_moved(&self, slots: SlotSet, direction: &str) {
        if let Some(metrics) = &self.metrics {
            metrics
                .handovers
                .with_label_values(&[direction])
                .inc_by(u64::from(slots.len()));
        }
    }

    /// Follows the ring until `stop` resolves, then stops serving what it served.
    pub(crate) async fn run(&self, stop: impl Future<Output = ()>) {
        let mut stop = std::pin::pin!(stop);
        let shards = self.shards.clone();
        self.elector.on_term_end(move || shards.clear_serving());
        self.leases.start();
        let mut events = self.leases.subscribe();
        let mut leadership = self.elector.subscribe();
        let tick = (self.elector.retry_period() / 4).max(Duration::from_millis(50));
        let mut state = State::default();
        // A closed source is ready at once, every time: waiting on it again would spin
        // without yielding (and hang a runtime's shutdown); the tick paces the rounds.
        let (mut events_open, mut leadership_open) = (true, true);
        loop {
            // A round waits on the API server; a stop must not wait for an unreachable one.
            tokio::select! {
                () = &mut stop => break,
                () = self.step(&mut state) => {}
            }
            tokio::select! {
                () = &mut stop => break,
                event = events.recv(), if events_open => events_open = event.is_some(),
                changed = leadership.changed(), if leadership_open => leadership_open = changed.is_ok(),
                () = tokio::time::sleep(tick) => {}
            }
        }
        if !state.serving.is_empty() {
            self.shards.stop_serving(state.serving).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_claim_blocks_every_slot_and_no_claim_blocks_none() {
        assert_eq!(published(None), (String::new(), SlotSet::EMPTY));
        let annotations = Member::annotations("v1", SlotSet::from_bits(0b101));
        assert_eq!(
            published(Some(&annotations)),
            ("v1".to_owned(), SlotSet::from_bits(0b101))
        );
        let garbled = BTreeMap::from([(SERVING_ANNOTATION.to_owned(), "not hex".to_owned())]);
        assert_eq!(published(Some(&garbled)), (String::new(), SlotSet::ALL));
    }
}
