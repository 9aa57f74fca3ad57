//! Fleets: one controller over many clusters, each an embedded API server in this
//! process, with anchors from the same run.
//!
//! - `kind=engage`: for 1, 10 and 100 clusters of 1,000 `ConfigMap`s each, the time from
//!   starting a fleet controller until every member is engaged, listed and each object
//!   reconciled once, and the bytes the process holds afterwards per joined cluster
//!   (the `cap` allocator's count, the servers already loaded), beside the same for a
//!   single-cluster `Controller` on one of those clusters: `ratio ... fleet/controller`.
//! - `kind=throughput`: reconciles per second (each one merge patch on its cluster)
//!   across 10 clusters of 1,000 objects, for one fleet controller (concurrency 10, one
//!   worker per cluster) against one `Manager` per cluster in the same process (one
//!   worker each): `ratio ... fleet/managers`.
//! - `kind=ring`: steady reconciles per second (each one merge patch, every object
//!   requeued at once) across 10 clusters of 1,000 objects with a per-request latency
//!   on the members (as over a network), for three replicas in a ring on a home
//!   cluster, each engaging the clusters of its slots, against one replica elected
//!   leader engaging them all; every replica has the same limits (8 reconcile slots, 4
//!   per cluster): `ratio ... ring/leader`. Also the time from starting the replicas
//!   to every cluster engaged by exactly one of them.
//!
//! Settings: `FLEET_BENCH_SIZES` (`1,10,100`), `FLEET_OBJECTS` (1000),
//! `FLEET_THROUGHPUT_CLUSTERS` (10), `FLEET_RING_LATENCY_MS` (5), `FLEET_RING_WINDOW_MS`
//! (3000), `FLEET_BENCH_ONLY` (`engage`, `throughput` or `ring`: that kind alone).

#[allow(dead_code, reason = "each bench uses some of the shared helpers")]
mod support;

use std::alloc::System;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use cap::Cap;
use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};
use support::{as_f64, millis, per_second, runtime, setting};
use tokio::time::Instant;
use wheelhouse::cache::Cache;
use wheelhouse::controller::{Action, Context, Controller, Error, FleetView, Reconciler};
use wheelhouse::manager::fleet::InProcess;
use wheelhouse::manager::{LeaderElection, Manager, Sharding};
use wheelhouse_envtest::{ServerOptions, TestEnv};
use wheelhouse_examples::replicas::{Replica, client_of, short, short_ring};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// Creates in flight at once while loading a server.
const IN_FLIGHT: usize = 32;

/// Counts reconciles; with `write`, each one merge-patches its object on its cluster;
/// with `again`, each object is queued again at once (a steady load).
struct Counting {
    write: bool,
    reconciles: Arc<AtomicUsize>,
    again: bool,
}

impl Reconciler<ConfigMap> for Counting {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        if self.write {
            let namespace = object.metadata.namespace.clone().unwrap_or_default();
            let api: Api<ConfigMap> = Api::namespaced(context.client().clone(), &namespace);
            let name = object.metadata.name.clone().unwrap_or_default();
            let patch = serde_json::json!({"metadata": {"annotations": {"reconciled": "yes"}}});
            api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
        }
        self.reconciles.fetch_add(1, Ordering::Relaxed);
        Ok(if self.again {
            Action::requeue_after(Duration::ZERO)
        } else {
            Action::done()
        })
    }
}

/// An embedded server holding `objects` `ConfigMap`s in its test namespace.
async fn loaded(objects: usize) -> TestEnv {
    let options = ServerOptions {
        controllers: false,
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options)
        .await
        .expect("the embedded server starts");
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    futures::stream::iter(0..objects)
        .map(|index| {
            let api = api.clone();
            async move {
                let object: ConfigMap = serde_json::from_value(
                    serde_json::json!({"metadata": {"name": format!("object-{index}")}, "data": {"index": index.to_string()}}),
                )
                .expect("a ConfigMap");
                api.create(&PostParams::default(), &object).await.expect("the server takes it");
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .collect::<Vec<()>>()
        .await;
    env
}

async fn until(reconciles: &AtomicUsize, count: usize) {
    while reconciles.load(Ordering::Relaxed) < count {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Lets freed memory settle (tasks winding down) before reading the allocator.
async fn quiet() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Engage time and bytes for a fleet of `envs`: (elapsed, bytes per cluster).
async fn engage_fleet(envs: &[TestEnv], objects: usize) -> (Duration, f64) {
    quiet().await;
    let baseline = ALLOCATOR.allocated();
    let fleet = InProcess::new();
    let reconciles = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    for (index, env) in envs.iter().enumerate() {
        fleet.join(format!("member-{index}"), env.client());
    }
    let controller = Controller::for_::<ConfigMap>(&Cache::new(envs[0].client()))
        .concurrency(envs.len().max(4))
        .fleet(fleet.clone())
        .build(Counting {
            write: false,
            reconciles: reconciles.clone(),
            again: false,
        });
    let token = tokio_util::sync::CancellationToken::new();
    let stop = token.clone();
    let running = tokio::spawn(controller.run(async move { stop.cancelled().await }));
    until(&reconciles, envs.len() * objects).await;
    let elapsed = start.elapsed();
    quiet().await;
    let bytes = ALLOCATOR.allocated().saturating_sub(baseline);
    token.cancel();
    let _ = running.await;
    drop(fleet);
    (elapsed, as_f64(bytes) / as_f64(envs.len()))
}

/// The same for a single-cluster controller on `env`.
async fn engage_controller(env: &TestEnv, objects: usize) -> (Duration, f64) {
    quiet().await;
    let baseline = ALLOCATOR.allocated();
    let reconciles = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let cache = Cache::new(env.client());
    let controller = Controller::for_::<ConfigMap>(&cache).concurrency(4).build(Counting {
        write: false,
        reconciles: reconciles.clone(),
        again: false,
    });
    let token = tokio_util::sync::CancellationToken::new();
    let stop = token.clone();
    let running = tokio::spawn(controller.run(async move { stop.cancelled().await }));
    until(&reconciles, objects).await;
    let elapsed = start.elapsed();
    quiet().await;
    let bytes = ALLOCATOR.allocated().saturating_sub(baseline);
    token.cancel();
    let _ = running.await;
    drop(cache);
    (elapsed, as_f64(bytes))
}

async fn engage(sizes: &[usize], objects: usize) {
    let mut envs: Vec<TestEnv> = Vec::new();
    for &clusters in sizes {
        let loading = Instant::now();
        while envs.len() < clusters {
            envs.push(loaded(objects).await);
        }
        println!(
            "setup bench=fleet kind=engage clusters={clusters} objects_per_cluster={objects} loaded_ms={:.0}",
            millis(loading.elapsed())
        );
        let (anchor_time, anchor_bytes) = engage_controller(&envs[0], objects).await;
        let (time, bytes) = engage_fleet(&envs[..clusters], objects).await;
        println!(
            "bench=fleet kind=engage clusters={clusters} objects_per_cluster={objects} engaged_ms={:.0} per_cluster_ms={:.1} bytes_per_cluster={bytes:.0} controller_ms={:.0} controller_bytes={anchor_bytes:.0}",
            millis(time),
            millis(time) / as_f64(clusters),
            millis(anchor_time),
        );
        println!(
            "ratio bench=fleet kind=engage clusters={clusters} fleet/controller bytes_per_cluster={:.2} ms_per_cluster={:.2}",
            bytes / anchor_bytes,
            millis(time) / as_f64(clusters) / millis(anchor_time),
        );
    }
    for env in envs {
        env.stop().await;
    }
}

async fn throughput(clusters: usize, objects: usize) {
    let mut envs = Vec::new();
    for _ in 0..clusters {
        envs.push(loaded(objects).await);
    }
    let total = clusters * objects;

    // One fleet controller: one worker per cluster, as many slots as clusters.
    let reconciles = Arc::new(AtomicUsize::new(0));
    let fleet = InProcess::new();
    for (index, env) in envs.iter().enumerate() {
        fleet.join(format!("member-{index}"), env.client());
    }
    let controller = Controller::for_::<ConfigMap>(&Cache::new(envs[0].client()))
        .concurrency(clusters)
        .fleet(fleet.clone())
        .build(Counting {
            write: true,
            reconciles: reconciles.clone(),
            again: false,
        });
    let token = tokio_util::sync::CancellationToken::new();
    let stop = token.clone();
    let start = Instant::now();
    let running = tokio::spawn(controller.run(async move { stop.cancelled().await }));
    until(&reconciles, total).await;
    let fleet_rate = per_second(total, start.elapsed());
    token.cancel();
    let _ = running.await;

    // One manager per cluster, one worker each.
    let reconciles = Arc::new(AtomicUsize::new(0));
    let token = tokio_util::sync::CancellationToken::new();
    let mut managers = Vec::new();
    let start = Instant::now();
    for env in &envs {
        let manager = Manager::builder(env.client())
            .shutdown_signal(token.clone())
            .build()
            .expect("a manager builds");
        let controller = Controller::for_::<ConfigMap>(manager.cache()).build(Counting {
            write: true,
            reconciles: reconciles.clone(),
            again: false,
        });
        manager.add(controller).expect("the controller is added");
        managers.push(tokio::spawn(manager.run()));
    }
    until(&reconciles, total).await;
    let managers_rate = per_second(total, start.elapsed());
    token.cancel();
    for manager in managers {
        let _ = manager.await;
    }
    println!(
        "bench=fleet kind=throughput clusters={clusters} objects_per_cluster={objects} fleet_per_s={fleet_rate:.0} managers_per_s={managers_rate:.0}"
    );
    println!(
        "ratio bench=fleet kind=throughput clusters={clusters} fleet/managers={:.2}",
        fleet_rate / managers_rate
    );
    for env in envs {
        env.stop().await;
    }
}

/// Starts replica `index` of a fleet controller over `members` on `home`.
fn fleet_replica(
    home: &TestEnv,
    members: &[TestEnv],
    index: usize,
    membership: impl Into<wheelhouse_examples::replicas::Membership>,
    reconciles: &Arc<AtomicUsize>,
) -> (Replica, FleetView) {
    let mut view = None;
    let replica = Replica::start(
        &client_of(home, index),
        home.namespace(),
        index,
        membership,
        |manager| {
            let fleet = InProcess::new();
            for (member, env) in members.iter().enumerate() {
                fleet.join(format!("member-{member}"), env.client());
            }
            let controller = Controller::for_::<ConfigMap>(manager.cache())
                .concurrency(8)
                .fleet(fleet)
                .concurrency_per_cluster(4)
                .build(Counting {
                    write: true,
                    reconciles: reconciles.clone(),
                    again: true,
                });
            view = Some(controller.view());
            manager.add(controller)
        },
    )
    .expect("a replica starts");
    (replica, view.expect("the controller was built"))
}

/// Waits until the replicas engage every one of `clusters` exactly once.
async fn engaged_once(views: &[FleetView], clusters: usize) {
    loop {
        let mut names: Vec<Arc<str>> = views.iter().flat_map(FleetView::names).collect();
        let total = names.len();
        names.sort_unstable();
        names.dedup();
        if total == clusters && names.len() == clusters {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Reconciles per second over `window`, once the replicas have settled.
async fn steady_rate(reconciles: &AtomicUsize, window: Duration) -> f64 {
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = reconciles.load(Ordering::Relaxed);
    let start = Instant::now();
    tokio::time::sleep(window).await;
    per_second(reconciles.load(Ordering::Relaxed) - before, start.elapsed())
}

async fn ring(clusters: usize, objects: usize) {
    let latency = Duration::from_millis(u64::try_from(setting("FLEET_RING_LATENCY_MS", 5)).unwrap_or(5));
    let window = Duration::from_millis(u64::try_from(setting("FLEET_RING_WINDOW_MS", 3_000)).unwrap_or(3_000));
    let home = TestEnv::embedded().await.expect("the home cluster starts");
    let mut members = Vec::new();
    for _ in 0..clusters {
        members.push(loaded(objects).await);
    }
    for member in &members {
        if let Some(server) = member.server() {
            server.set_latency(latency);
        }
    }

    let reconciles = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let (leader, leader_view) = fleet_replica(
        &home,
        &members,
        0,
        short(LeaderElection::new("fleet-bench-leader")),
        &reconciles,
    );
    engaged_once(std::slice::from_ref(&leader_view), clusters).await;
    let leader_engaged = started.elapsed();
    let leader_rate = steady_rate(&reconciles, window).await;
    drop(leader);

    let reconciles = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut replicas = Vec::new();
    let mut views = Vec::new();
    for index in 1..=3 {
        let (replica, view) = fleet_replica(
            &home,
            &members,
            index,
            short_ring(Sharding::new("fleet-bench-ring")),
            &reconciles,
        );
        replicas.push(replica);
        views.push(view);
    }
    engaged_once(&views, clusters).await;
    let ring_engaged = started.elapsed();
    let ring_rate = steady_rate(&reconciles, window).await;
    let spread: Vec<usize> = views.iter().map(|view| view.names().len()).collect();
    drop(replicas);
    println!(
        "bench=fleet kind=ring clusters={clusters} objects_per_cluster={objects} latency_ms={} ring_per_s={ring_rate:.0} leader_per_s={leader_rate:.0} ring_engaged_ms={:.0} leader_engaged_ms={:.0} clusters_per_replica={spread:?}",
        millis(latency),
        millis(ring_engaged),
        millis(leader_engaged),
    );
    println!(
        "ratio bench=fleet kind=ring clusters={clusters} ring/leader={:.2}",
        ring_rate / leader_rate
    );
    for member in members {
        member.stop().await;
    }
    home.stop().await;
}

fn main() {
    let sizes: Vec<usize> = std::env::var("FLEET_BENCH_SIZES").ok().map_or_else(
        || vec![1, 10, 100],
        |value| value.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
    );
    let objects = setting("FLEET_OBJECTS", 1_000);
    let only = std::env::var("FLEET_BENCH_ONLY").unwrap_or_default();
    let runs = |kind: &str| only.is_empty() || only == kind;
    let runtime = runtime();
    let clusters = setting("FLEET_THROUGHPUT_CLUSTERS", 10);
    if runs("throughput") {
        runtime.block_on(throughput(clusters, objects));
    }
    if runs("ring") {
        runtime.block_on(ring(clusters, objects));
    }
    if runs("engage") {
        runtime.block_on(engage(&sizes, objects));
    }
}
