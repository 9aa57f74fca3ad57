//! A controller sharded across replicas, each its own Manager in a ring: every
//! reconcile of every replica is recorded (object, replica, start, end), and no object
//! may ever be reconciled by two replicas at once, while members join, leave
//! gracefully, are killed, and pause past their renew deadline. Every object must be
//! reconciled by the end, and each replica's caches must hold only its share.
//!
//! Runs on the embedded server twice, with and without its KEP-5866 support (the
//! server filtering, and the informers filtering), and on a real cluster once.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ListParams, ObjectMeta, PostParams};
use parking_lot::Mutex;
use tokio::time::Instant;
use wheelhouse::cache::shard::ServerFiltering;
use wheelhouse::cache::{ShardKey, SlotSet};
use wheelhouse::controller::{Action, Context, Controller, Error, Reconciler};
use wheelhouse::manager::{CancellationToken, Manager, OnLeadershipLost, Sharding};
use wheelhouse_envtest::{ServerOptions, TestEnv};

const OBJECTS: usize = 48;
const LABEL: &str = "wheelhouse.rs/sharding-test";

/// One reconcile: which replica, which object, when.
#[derive(Debug, Clone)]
struct Span {
    replica: String,
    object: String,
    start: Instant,
    end: Instant,
}

#[derive(Default, Clone)]
struct Timeline(Arc<Mutex<Vec<Span>>>);

impl Timeline {
    /// Two replicas' reconciles of one object that overlap in time.
    fn overlap(&self) -> Option<(Span, Span)> {
        let spans = self.0.lock().clone();
        let mut by_object: HashMap<&str, Vec<&Span>> = HashMap::new();
        for span in &spans {
            by_object.entry(&span.object).or_default().push(span);
        }
        for spans in by_object.values_mut() {
            spans.sort_by_key(|s| s.start);
            for (i, a) in spans.iter().enumerate() {
                for b in &spans[i + 1..] {
                    if b.start >= a.end {
                        break;
                    }
                    if a.replica != b.replica {
                        return Some(((*a).clone(), (*b).clone()));
                    }
                }
            }
        }
        None
    }

    /// The objects reconciled since `since`, by anyone.
    fn reconciled_since(&self, since: Instant) -> usize {
        let spans = self.0.lock();
        let mut objects: Vec<&str> = spans
            .iter()
            .filter(|s| s.start >= since)
            .map(|s| s.object.as_str())
            .collect();
        objects.sort_unstable();
        objects.dedup();
        objects.len()
    }
}

struct Recording {
    replica: String,
    timeline: Timeline,
}

impl Reconciler<ConfigMap> for Recording {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        let start = Instant::now();
        // Long enough that two replicas reconciling one object at once would overlap.
        tokio::time::sleep(Duration::from_millis(20)).await;
        self.timeline.0.lock().push(Span {
            replica: self.replica.clone(),
            object: object.metadata.uid.clone().unwrap_or_default(),
            start,
            end: Instant::now(),
        });
        Ok(Action::requeue_after(Duration::from_millis(200)))
    }
}

struct Replica {
    manager: Manager,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Replica {
    fn start(env: &TestEnv, ring: &str, name: &str, timeline: &Timeline) -> Self {
        let stop = CancellationToken::new();
        let client = match env.server() {
            Some(server) => kube::Client::new(server.as_user(name), env.namespace()),
            None => env.client(),
        };
        let manager = Manager::builder(client)
            .sharding(
                Sharding::new(ring)
                    .namespace(env.namespace())
                    .identity(name)
                    .key(ShardKey::Uid)
                    .timings(
                        Duration::from_secs(2),
                        Duration::from_millis(1500),
                        Duration::from_millis(300),
                    )
                    .on_lost(OnLeadershipLost::Standby),
            )
            .shutdown_signal(stop.clone())
            .metrics_address(None)
            .health_probe_address(None)
            .build()
            .expect("a sharded manager");
        let controller = Controller::for_::<ConfigMap>(manager.cache())
            .namespace(env.namespace())
            .concurrency(4)
            .build(Recording {
                replica: name.to_owned(),
                timeline: timeline.clone(),
            });
        manager.add(controller).expect("the controller");
        let run = manager.clone();
        let task = tokio::spawn(async move {
            let _ = run.run().await;
        });
        Self { manager, stop, task }
    }

    fn serving(&self) -> SlotSet {
        self.manager
            .shards()
            .map_or(SlotSet::EMPTY, wheelhouse::cache::Shards::serving)
    }

    async fn leave(self) {
        self.stop.cancel();
        let _ = tokio::time::timeout(Duration::from_secs(30), self.task).await;
    }

    fn kill(self) {
        self.task.abort();
    }
}

async fn until(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(90);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the replicas serve disjoint slots covering the whole space, each its
/// share (within the assignment's one-slot balance).
async fn balanced(replicas: &[&Replica], what: &str) {
    until(what, || {
        let sets: Vec<SlotSet> = replicas.iter().map(|r| r.serving()).collect();
        let mut all = SlotSet::EMPTY;
        for set in &sets {
            assert!(
                all.intersection(*set).is_empty(),
                "two replicas serve one slot: {sets:?}"
            );
            all = all.union(*set);
        }
        let fair = 64 / u32::try_from(replicas.len()).unwrap_or(1);
        all == SlotSet::ALL && sets.iter().all(|s| s.len() >= fair && s.len() <= fair + 1)
    })
    .await;
}

fn assert_no_overlap(timeline: &Timeline) {
    if let Some((a, b)) = timeline.overlap() {
        panic!(
            "object {} reconciled by two replicas at once: {a:?} and {b:?}",
            a.object
        );
    }
}

async fn create_objects(env: &TestEnv) {
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for i in 0..OBJECTS {
        let object = ConfigMap {
            metadata: ObjectMeta {
                name: Some(format!("sharded-{i}")),
                labels: Some([(LABEL.to_owned(), "yes".to_owned())].into()),
                ..ObjectMeta::default()
            },
            ..ConfigMap::default()
        };
        api.create(&PostParams::default(), &object).await.expect("create");
    }
}

async fn every_object_reconciled(timeline: &Timeline, env: &TestEnv, what: &str) {
    let since = Instant::now();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let total = api
        .list(&ListParams::default().labels(&format!("{LABEL}=yes")))
        .await
        .expect("list")
        .items
        .len();
    until(what, || timeline.reconciled_since(since) >= total).await;
}

async fn scenario(env: TestEnv, ring: &str, filtering: Option<ServerFiltering>) {
    create_objects(&env).await;
    let timeline = Timeline::default();
    let a = Replica::start(&env, ring, "replica-a", &timeline);
    let b = Replica::start(&env, ring, "replica-b", &timeline);
    let c = Replica::start(&env, ring, "replica-c", &timeline);
    balanced(&[&a, &b, &c], "three replicas to split the slots").await;
    // Each sharded informer asked the server whether it filters: the embedded one
    // does when its KEP-5866 support is on; a real one before 1.36 never does.
    let seen = a.manager.shards().map(wheelhouse::cache::Shards::server_filtering);
    match filtering {
        Some(expected) => assert_eq!(seen, Some(expected)),
        None => assert_ne!(seen, Some(ServerFiltering::Unknown)),
    }
    every_object_reconciled(&timeline, &env, "every object reconciled by three replicas").await;
    // Each replica's cache holds its share, not every object (the shares add up).
    let cached: Vec<i64> = [&a, &b, &c]
        .iter()
        .map(|r| r.manager.shards().map_or(0, wheelhouse::cache::Shards::objects))
        .collect();
    assert!(
        cached.iter().all(|&n| n < i64::try_from(OBJECTS).unwrap_or(i64::MAX)),
        "{cached:?}"
    );
    assert_no_overlap(&timeline);

    // A graceful leave: the other two take its slots.
    b.leave().await;
    balanced(&[&a, &c], "two replicas after a graceful leave").await;
    every_object_reconciled(&timeline, &env, "every object after the leave").await;
    assert_no_overlap(&timeline);

    // A join.
    let d = Replica::start(&env, ring, "replica-d", &timeline);
    balanced(&[&a, &c, &d], "three replicas after a join").await;
    assert_no_overlap(&timeline);

    // A kill: its Lease expires, then the others take over.
    c.kill();
    balanced(&[&a, &d], "two replicas after a kill").await;
    every_object_reconciled(&timeline, &env, "every object after the kill").await;
    assert_no_overlap(&timeline);

    // A pause past the renew deadline: its term ends and its controllers stop before
    // the others see its Lease expire; then it rejoins.
    a.manager.pause_leader_election(Duration::from_secs(4));
    until("the paused replica to stop serving", || a.serving().is_empty()).await;
    balanced(&[&a, &d], "the paused replica to rejoin").await;
    every_object_reconciled(&timeline, &env, "every object after the pause").await;
    assert_no_overlap(&timeline);

    // Objects created and deleted while sharded reach one replica each.
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.delete("sharded-0", &DeleteParams::default()).await.expect("delete");
    every_object_reconciled(&timeline, &env, "every object after a delete").await;
    assert_no_overlap(&timeline);

    a.leave().await;
    d.leave().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_object_is_reconciled_by_two_replicas_at_once_with_server_filtering() {
    let options = ServerOptions {
        sharded_list_and_watch: true,
        ..ServerOptions::default()
    };
    let env = TestEnv::start_with(options).await.expect("a test environment");
    let expected = env.is_embedded().then_some(ServerFiltering::Yes);
    scenario(env, "sharded-server", expected).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_object_is_reconciled_by_two_replicas_at_once_with_client_filtering() {
    if wheelhouse_envtest::use_existing_cluster() {
        eprintln!(
            "skipped: the server-filtering test runs this scenario on the existing cluster already (whatever it supports)"
        );
        return;
    }
    let env = TestEnv::embedded().await.expect("a test environment");
    scenario(env, "sharded-client", Some(ServerFiltering::No)).await;
}
