//! The sharding bench's `kind=ghost`: a ring member whose renew is delivered after
//! it was swept must not come back as a ghost that the ring counts live while it
//! serves nothing. Measured as the longest time any slot goes unserved.
//!
//! Three members (2 s lease, 1.5 s renew deadline, 0.4 s retry) reach the embedded
//! server over HTTP, each through its own fault proxy. The anchor, in the same run: a
//! member is killed, and its slots wait for its Lease to expire. Then a member is
//! partitioned (its bytes held, a renew among them) until the others have taken its
//! slots and swept its Lease; the partition heals, its held bytes (renewals among
//! them) are delivered late, and the slots are watched for two lease durations more. A ghost would leave its share
//! unserved for a lease duration after the heal; without one, only the handover back
//! to the rejoining member leaves slots unserved, briefly.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, ListParams};
use tokio::time::Instant;
use wheelhouse::cache::SlotSet;
use wheelhouse::manager::ring::RING_LABEL;
use wheelhouse::manager::{OnLeadershipLost, Sharding};
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::fault_proxy::FaultProxy;
use wheelhouse_examples::replicas::{Replica, balanced, short_ring, until};

const RING: &str = "ghost";

/// What the kill and the late renew cost: the longest time any slot went unserved.
pub struct Ghost {
    /// From the partition to the end.
    pub partition: Duration,
    /// From the heal to the end.
    pub after_heal: Duration,
    /// The anchor: after a member was killed.
    pub kill: Duration,
}

/// Per slot, since when it has gone unserved, and the longest stretch so far.
struct Unserved {
    since: [Option<Instant>; 64],
    longest: Duration,
}

impl Unserved {
    fn new() -> Self {
        Self {
            since: [None; 64],
            longest: Duration::ZERO,
        }
    }

    fn observe(&mut self, served: SlotSet, now: Instant) {
        for (slot, since) in (0_u8..).zip(self.since.iter_mut()) {
            if served.contains(slot) {
                if let Some(since) = since.take() {
                    self.longest = self.longest.max(now - since);
                }
            } else if since.is_none() {
                *since = Some(now);
            }
        }
    }

    fn longest(&self, now: Instant) -> Duration {
        self.since
            .iter()
            .flatten()
            .map(|&since| now - since)
            .fold(self.longest, Duration::max)
    }
}

/// The slots `members` serve together.
fn served(members: &[&Replica]) -> SlotSet {
    members
        .iter()
        .fold(SlotSet::EMPTY, |all, member| all.union(member.serving()))
}

/// Observes what `members` serve every 2 ms on each tracker until `done`, then for
/// `more`.
async fn watch(members: &[&Replica], trackers: &mut [&mut Unserved], mut done: impl FnMut() -> bool, more: Duration) {
    let deadline = Instant::now() + Duration::from_mins(1);
    let mut until_then: Option<Instant> = None;
    loop {
        let now = Instant::now();
        let slots = served(members);
        for tracker in trackers.iter_mut() {
            tracker.observe(slots, now);
        }
        if until_then.is_none() && done() {
            until_then = Some(now + more);
        }
        if until_then.is_some_and(|then| now >= then) {
            return;
        }
        assert!(now < deadline, "the ring never settled");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

fn member(proxy: &FaultProxy, namespace: &str, index: usize) -> Replica {
    let client = proxy.client(&format!("replica-{index}"), namespace);
    let sharding = short_ring(Sharding::new(RING)).on_lost(OnLeadershipLost::Standby);
    Replica::start(&client, namespace, index, sharding, |_| Ok(())).expect("a member")
}

pub async fn ghost() -> Ghost {
    let mut env = TestEnv::embedded().await.expect("an embedded server");
    let address = env
        .serve_http(([127, 0, 0, 1], 0).into())
        .await
        .expect("serve over HTTP");
    let namespace = env.namespace().to_owned();
    let proxies = [
        FaultProxy::start(address).await.expect("a proxy"),
        FaultProxy::start(address).await.expect("a proxy"),
        FaultProxy::start(address).await.expect("a proxy"),
    ];
    let mut first = member(&proxies[0], &namespace, 0);
    let mut victim = member(&proxies[1], &namespace, 1);
    let mut killed = member(&proxies[2], &namespace, 2);
    until("three members to split the slots", || {
        balanced(&[&first, &victim, &killed])
    })
    .await;

    // The anchor: a kill.
    killed.kill().await;
    let mut kill = Unserved::new();
    watch(
        &[&first, &victim],
        &mut [&mut kill],
        || balanced(&[&first, &victim]),
        Duration::from_millis(200),
    )
    .await;
    let kill_max = kill.longest(Instant::now());
    let mut third = member(&proxies[2], &namespace, 3);
    until("three members again", || balanced(&[&first, &victim, &third])).await;

    // The late renew: partitioned until swept, then healed.
    let leases: Api<Lease> = Api::namespaced(env.client(), &namespace);
    let selector = format!("{RING_LABEL}={RING}");
    let holder_of = |lease: &Lease| lease.spec.as_ref().and_then(|s| s.holder_identity.clone());
    let mut whole = Unserved::new();
    proxies[1].partition();
    let swept = || async {
        let list = leases.list(&ListParams::default().labels(&selector)).await.ok()?;
        list.items
            .iter()
            .all(|l| holder_of(l).as_deref() != Some("replica-1"))
            .then_some(())
    };
    let members = [&first, &victim, &third];
    loop {
        watch(
            &members,
            &mut [&mut whole],
            || balanced(&[&first, &third]),
            Duration::ZERO,
        )
        .await;
        if swept().await.is_some() {
            break;
        }
    }
    proxies[1].heal();
    let mut after_heal = Unserved::new();
    watch(
        &members,
        &mut [&mut whole, &mut after_heal],
        || balanced(&members),
        Duration::from_secs(4),
    )
    .await;
    let now = Instant::now();
    let ghost = Ghost {
        partition: whole.longest(now),
        after_heal: after_heal.longest(now),
        kill: kill_max,
    };
    for member in [&mut first, &mut victim, &mut third] {
        let _ = member.stop().await;
    }
    env.stop().await;
    ghost
}
