//! A fleet controller run by several replicas on one home cluster: with leader election
//! the leader alone engages the members, and a standby takes them all over when it
//! dies; in a ring, each member cluster (with every object in it) is engaged by exactly
//! one replica, and the clusters of a replica killed or paused past its renew deadline
//! are taken over by the others.
//!
//! Every reconcile of every replica is recorded on a [`Timeline`] (which replica, which
//! object of which cluster, from when to when): no object may ever be reconciled by two
//! replicas at once. The member clusters' servers are the second witness: every write
//! a replica sent to a member (a reply `ConfigMap` per request, rewritten on every
//! reconcile) must have arrived while that replica was reconciling that request, never
//! after another replica began it. The home cluster is `TestEnv::start()`'s, and so is
//! the first member, so `USE_EXISTING_CLUSTER=true` puts both on a real API server; the
//! other members are embedded servers.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use parking_lot::Mutex;
use serde_json::json;
use tokio::time::Instant;
use wheelhouse::controller::{Action, Context, Controller, Error, FleetView, Reconciler};
use wheelhouse::manager::fleet::InProcess;
use wheelhouse::manager::{LeaderElection, Manager, OnLeadershipLost, Sharding};
use wheelhouse_envtest::{ArrivedWrite, TestEnv, WriteWitness};
use wheelhouse_examples::replicas::{Replica, Timeline, balanced, client_of, leader, short, short_ring, until};

/// The label of the requests the replicas answer; its value names the test, so tests
/// running at once on one real cluster do not answer each other's requests.
const LABEL: &str = "wheelhouse.dev/fleet-replicas-test";
/// Requests per member cluster.
const REQUESTS: usize = 3;

/// A single-cluster reconciler: a labelled `ConfigMap` gets a `<name>-reply` that
/// names the replica, rewritten on every reconcile, and comes back every 200 ms, so
/// that two replicas reconciling one request at once would overlap.
struct Answer {
    test: &'static str,
    replica: usize,
    timeline: Timeline,
}

impl Reconciler<ConfigMap> for Answer {
    async fn reconcile(&self, request: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        if request.labels().get(LABEL).map(String::as_str) != Some(self.test) {
            return Ok(Action::done());
        }
        let cluster = context.cluster().unwrap_or_default();
        let _working = self
            .timeline
            .begin(self.replica, format!("{cluster}/{}", request.name_any()));
        let replies: Api<ConfigMap> =
            Api::namespaced(context.client().clone(), &request.namespace().unwrap_or_default());
        let name = format!("{}-reply", request.name_any());
        let reply = json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": name},
            "data": {"cluster": cluster, "replica": self.replica.to_string()},
        });
        replies
            .patch(
                &name,
                &PatchParams::apply("fleet-replicas").force(),
                &Patch::Apply(reply),
            )
            .await?;
        Ok(Action::requeue_after(Duration::from_millis(200)))
    }
}

/// The member clusters: the first is `TestEnv::start()`'s (a real API server with
/// `USE_EXISTING_CLUSTER=true`), the others embedded; each with `REQUESTS` requests.
async fn members(count: usize, test: &str) -> Vec<TestEnv> {
    let mut members = Vec::with_capacity(count);
    for index in 0..count {
        let env = if index == 0 {
            TestEnv::start().await
        } else {
            TestEnv::embedded().await
        };
        let env = env.expect("a member cluster starts");
        let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
        for request in 0..REQUESTS {
            let object: ConfigMap = serde_json::from_value(json!({
                "metadata": {"name": format!("request-{request}"), "labels": {LABEL: test}},
            }))
            .expect("a ConfigMap");
            configmaps
                .create(&PostParams::default(), &object)
                .await
                .expect("the request is created");
        }
        members.push(env);
    }
    members
}

fn member_name(index: usize) -> String {
    format!("member-{index}")
}

/// Starts replica `index` of the fleet controller on the home cluster, its fleet the
/// `members` reached as `replica-<index>` (so the witnesses tell the replicas apart).
fn start(
    home: &TestEnv,
    members: &[TestEnv],
    index: usize,
    membership: impl Into<wheelhouse_examples::replicas::Membership>,
    test: &'static str,
    timeline: &Timeline,
) -> (Replica, FleetView) {
    let view = Arc::new(Mutex::new(None));
    let replica = Replica::start(
        &client_of(home, index),
        home.namespace(),
        index,
        membership,
        |manager: &Manager| {
            let fleet = InProcess::new();
            for (member, env) in members.iter().enumerate() {
                fleet.join(member_name(member), client_of(env, index));
            }
            let controller = Controller::for_::<ConfigMap>(manager.cache())
                .name("fleet-answers")
                .concurrency(4)
                .fleet(fleet)
                .build(Answer {
                    test,
                    replica: index,
                    timeline: timeline.clone(),
                });
            *view.lock() = Some(controller.view());
            manager.add(controller)
        },
    )
    .expect("a replica starts");
    let view = view.lock().take().expect("the controller was built");
    (replica, view)
}

/// Whether the replicas' engaged clusters are every member, each engaged once.
fn each_cluster_engaged_once(views: &[&FleetView], members: usize) -> bool {
    let mut engaged: Vec<String> = views
        .iter()
        .flat_map(|view| view.names())
        .map(|name| name.to_string())
        .collect();
    engaged.sort_unstable();
    let mut expected: Vec<String> = (0..members).map(member_name).collect();
    expected.sort_unstable();
    engaged == expected
}

/// Waits until every request of every member has been reconciled since now.
async fn every_request_reconciled(timeline: &Timeline, members: usize, what: &str) {
    let since = Instant::now();
    until(what, || timeline.objects_since(since) >= members * REQUESTS).await;
}

fn assert_no_overlap(timeline: &Timeline) {
    if let Some((a, b)) = timeline.overlap_on_one_object() {
        panic!("{} reconciled by two replicas at once: {a:?} and {b:?}", a.what);
    }
}

/// Every reply a replica wrote to member `index` arrived while that replica reconciled
/// its request (or just after, a cancelled request's bytes already on their way),
/// never after another replica began it. Returns how many writes were checked.
fn assert_member_writes_fenced(witness: &WriteWitness, index: usize, timeline: &Timeline) -> usize {
    let cluster = member_name(index);
    let about = |write: &ArrivedWrite| {
        let request = write.name.as_deref()?.strip_suffix("-reply")?;
        (write.resource == "configmaps").then(|| Some(format!("{cluster}/{request}")))
    };
    let writes = witness.writes();
    assert_eq!(
        timeline.stale_writes(&writes, about),
        0,
        "a stale write reached {cluster}"
    );
    timeline.assert_writes_fenced(&writes, about, true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fleet_ring_of_three_replicas_engages_each_of_ten_clusters_once_and_takes_over_a_killed_ones() {
    const TEST: &str = "ring";
    const MEMBERS: usize = 10;
    let home = TestEnv::start().await.expect("the home cluster starts");
    let members = members(MEMBERS, TEST).await;
    let witnesses: Vec<Option<WriteWitness>> = members.iter().map(TestEnv::witness_writes).collect();
    let timeline = Timeline::default();
    let ring =
        || short_ring(Sharding::new(format!("fleet-ring-{}", std::process::id()))).on_lost(OnLeadershipLost::Standby);
    let mut replicas = Vec::new();
    let mut views = Vec::new();
    for index in 0..3 {
        let (replica, view) = start(&home, &members, index, ring(), TEST, &timeline);
        replicas.push(replica);
        views.push(view);
    }
    until("three replicas to split the ring", || {
        balanced(&replicas.iter().collect::<Vec<_>>())
    })
    .await;
    until("every member engaged by exactly one replica", || {
        each_cluster_engaged_once(&views.iter().collect::<Vec<_>>(), MEMBERS)
    })
    .await;
    every_request_reconciled(&timeline, MEMBERS, "every request of every member reconciled").await;
    assert_no_overlap(&timeline);
    for (replica, view) in replicas.iter().zip(&views) {
        eprintln!("replica-{} engages {:?}", replica.index, view.names());
    }
    let busy = views.iter().filter(|view| !view.names().is_empty()).count();
    assert!(busy > 1, "the clusters are spread over the replicas");

    // Kill the replica with the most clusters: its Lease expires, the ring hands its
    // slots over, and the others engage its clusters.
    let victim = (0..replicas.len())
        .max_by_key(|&index| views[index].names().len())
        .unwrap_or(0);
    let lost = views[victim].names();
    assert!(!lost.is_empty(), "the busiest replica engages clusters");
    replicas[victim].kill().await;
    let mut survivors: Vec<Replica> = Vec::new();
    let mut survivor_views: Vec<FleetView> = Vec::new();
    for (index, (replica, view)) in replicas.into_iter().zip(views).enumerate() {
        if index != victim {
            survivors.push(replica);
            survivor_views.push(view);
        }
    }
    until("two replicas after a kill", || {
        balanced(&survivors.iter().collect::<Vec<_>>())
    })
    .await;
    until("every member engaged by exactly one survivor", || {
        each_cluster_engaged_once(&survivor_views.iter().collect::<Vec<_>>(), MEMBERS)
    })
    .await;
    every_request_reconciled(&timeline, MEMBERS, "every request reconciled after the kill").await;
    assert_no_overlap(&timeline);

    // A join: some clusters move to the newcomer; the replicas that give them up
    // disengage them before it engages them.
    let (newcomer, newcomer_view) = start(&home, &members, 3, ring(), TEST, &timeline);
    survivors.push(newcomer);
    survivor_views.push(newcomer_view);
    until("three replicas after a join", || {
        balanced(&survivors.iter().collect::<Vec<_>>())
    })
    .await;
    until("every member engaged by exactly one replica after the join", || {
        each_cluster_engaged_once(&survivor_views.iter().collect::<Vec<_>>(), MEMBERS)
    })
    .await;
    every_request_reconciled(&timeline, MEMBERS, "every request reconciled after the join").await;
    assert_no_overlap(&timeline);

    // A pause past the renew deadline: the paused replica's term ends, its clusters
    // are disengaged (their writes refused from then on) before the others see its
    // Lease expire and take them; then it rejoins.
    let paused = (0..survivors.len())
        .max_by_key(|&index| survivor_views[index].names().len())
        .unwrap_or(0);
    survivors[paused].manager.pause_leader_election(Duration::from_secs(4));
    until("the paused replica to disengage its clusters", || {
        survivor_views[paused].names().is_empty()
    })
    .await;
    until("the paused replica to rejoin", || {
        balanced(&survivors.iter().collect::<Vec<_>>())
    })
    .await;
    until("every member engaged by exactly one replica after the pause", || {
        each_cluster_engaged_once(&survivor_views.iter().collect::<Vec<_>>(), MEMBERS)
    })
    .await;
    every_request_reconciled(&timeline, MEMBERS, "every request reconciled after the pause").await;
    assert_no_overlap(&timeline);

    let mut checked = 0;
    for (index, witness) in witnesses.iter().enumerate() {
        if let Some(witness) = witness {
            checked += assert_member_writes_fenced(witness, index, &timeline);
        }
    }
    eprintln!("{checked} writes to the members checked, none stale; {lost:?} changed hands at the kill");
    drop(survivors);
    for member in members {
        member.stop().await;
    }
    home.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fleet_under_leader_election_is_engaged_by_the_leader_alone_and_fails_over() {
    const TEST: &str = "leader";
    const MEMBERS: usize = 3;
    let home = TestEnv::start().await.expect("the home cluster starts");
    let members = members(MEMBERS, TEST).await;
    let witnesses: Vec<Option<WriteWitness>> = members.iter().map(TestEnv::witness_writes).collect();
    let timeline = Timeline::default();
    let election = || short(LeaderElection::new(format!("fleet-leader-{}", std::process::id())));
    let (first, first_view) = start(&home, &members, 0, election(), TEST, &timeline);
    let (second, second_view) = start(&home, &members, 1, election(), TEST, &timeline);
    let mut replicas = [first, second];
    let views = [first_view, second_view];
    until("a leader", || leader(&replicas).is_some()).await;
    let elected = leader(&replicas).unwrap_or(0);
    let standby = 1 - elected;
    until("the leader to engage every member", || {
        views[elected].names().len() == MEMBERS
    })
    .await;
    every_request_reconciled(&timeline, MEMBERS, "every request reconciled by the leader").await;
    assert!(views[standby].names().is_empty(), "a standby engages no member");
    assert_eq!(timeline.count(standby), 0, "a standby reconciles nothing");

    replicas[elected].kill().await;
    until("the standby to lead", || leader(&replicas) == Some(standby)).await;
    until("the new leader to engage every member", || {
        views[standby].names().len() == MEMBERS
    })
    .await;
    every_request_reconciled(&timeline, MEMBERS, "every request reconciled after the failover").await;
    if let Some((a, b)) = timeline.overlap() {
        panic!("two replicas reconciled at once: {a:?} and {b:?}");
    }
    for (index, witness) in witnesses.iter().enumerate() {
        if let Some(witness) = witness {
            assert_member_writes_fenced(witness, index, &timeline);
        }
    }
    drop(replicas);
    for member in members {
        member.stop().await;
    }
    home.stop().await;
}
