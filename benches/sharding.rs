//! Sharding a controller across three replicas, against one unsharded replica in the
//! same run, on the embedded API server with a per-request latency (as over a real
//! network, so the operator is latency-bound rather than CPU-bound):
//!
//! - `kind=throughput`: reconciles per second, each one write, of three sharded
//!   replicas over one replica (each with the same number of workers);
//! - `kind=cache-objects`: the primary objects one replica caches over what the single
//!   replica caches, with the server filtering (KEP-5866) and with the informers
//!   filtering; and `kind=watch-bytes`: the bytes of lists and watches one replica
//!   receives while every object is changed once, over what the single replica does;
//! - `kind=rebalance`: from a member's kill, graceful leave or join to every slot
//!   served again, and the reconciles of one object by two replicas at once (0);
//! - `kind=ghost` (`sharding_ghost.rs`): a member's renew delivered after it was swept,
//!   through fault proxies over HTTP: the longest time any slot went unserved, beside
//!   the same after a kill.
//!
//! Settings: `SHARDING_OBJECTS` (300), `SHARDING_LATENCY_MS` (20), `SHARDING_WINDOW_MS`
//! (3000); `SHARDING_BENCH_ONLY=ghost` runs the ghost kind alone.

mod sharding_ghost;
#[allow(dead_code, reason = "each bench uses some of the shared helpers")]
mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use futures::StreamExt;
use futures::future::BoxFuture;
use http_body_util::BodyExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use support::{as_f64, millis, setting};
use tokio::time::Instant;
use wheelhouse::controller::{Action, Context, Controller, Error, Reconciler};
use wheelhouse::manager::{OnLeadershipLost, Sharding};
use wheelhouse_envtest::{ApiServer, ServerOptions};
use wheelhouse_examples::replicas::{self, Membership, Timeline, until};

const NAMESPACE: &str = "default";
const WORKERS: usize = 4;

/// Reconciles: one write each, and a record of who reconciled what, when.
struct Patching {
    index: usize,
    /// Off while the bytes are measured: the bench's own changes are the only ones.
    writing: Arc<AtomicBool>,
    reconciles: Arc<AtomicUsize>,
    timeline: Timeline,
}

impl Reconciler<ConfigMap> for Patching {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        if !self.writing.load(Ordering::Relaxed) {
            return Ok(Action::done());
        }
        let _ending = self
            .timeline
            .begin(self.index, object.metadata.uid.clone().unwrap_or_default());
        let api: Api<ConfigMap> = Api::namespaced(context.client().clone(), NAMESPACE);
        let name = object.metadata.name.clone().unwrap_or_default();
        let patch =
            serde_json::json!({"metadata": {"annotations": {"reconciled-by": format!("replica-{}", self.index)}}});
        api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .map_err(Error::from)?;
        self.reconciles.fetch_add(1, Ordering::Relaxed);
        Ok(Action::requeue_after(Duration::ZERO))
    }
}

/// Counts the bytes of the lists and watches a replica receives.
#[derive(Clone)]
struct Counting {
    inner: ApiServer,
    bytes: Arc<AtomicU64>,
}

impl tower_service::Service<http::Request<kube::client::Body>> for Counting {
    type Response =
        http::Response<http_body_util::combinators::UnsyncBoxBody<bytes::Bytes, wheelhouse::manager::BoxError>>;
    type Error = wheelhouse::manager::BoxError;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<kube::client::Body>) -> Self::Future {
        let mut inner = self.inner.clone();
        let bytes = if request.method() == http::Method::GET {
            self.bytes.clone()
        } else {
            Arc::new(AtomicU64::new(0))
        };
        Box::pin(async move {
            let response = tower_service::Service::call(&mut inner, request).await?;
            Ok(response.map(move |body| {
                body.map_frame(move |frame| {
                    if let Some(data) = frame.data_ref() {
                        bytes.fetch_add(u64::try_from(data.len()).unwrap_or(u64::MAX), Ordering::Relaxed);
                    }
                    frame
                })
                .map_err(Into::into)
                .boxed_unsync()
            }))
        })
    }
}

/// A replica of the bench: the shared harness's, with what the bench counts.
struct Replica {
    inner: replicas::Replica,
    reconciles: Arc<AtomicUsize>,
    bytes: Arc<AtomicU64>,
    writing: Arc<AtomicBool>,
}

impl Replica {
    fn start(server: &ApiServer, index: usize, ring: Option<&str>, timeline: &Timeline) -> Self {
        let bytes = Arc::new(AtomicU64::new(0));
        let name = format!("replica-{index}");
        let client = kube::Client::new(
            Counting {
                inner: server.as_user(&name),
                bytes: bytes.clone(),
            },
            NAMESPACE,
        );
        let membership = match ring {
            Some(ring) => Membership::Ring(
                Sharding::new(ring)
                    .timings(
                        Duration::from_secs(2),
                        Duration::from_millis(1500),
                        Duration::from_millis(300),
                    )
                    .on_lost(OnLeadershipLost::Standby),
            ),
            None => Membership::Alone,
        };
        let reconciles = Arc::new(AtomicUsize::new(0));
        let writing = Arc::new(AtomicBool::new(true));
        let patching = Patching {
            index,
            writing: writing.clone(),
            reconciles: reconciles.clone(),
            timeline: timeline.clone(),
        };
        let inner = replicas::Replica::start(&client, NAMESPACE, index, membership, |manager| {
            manager.add(
                Controller::for_::<ConfigMap>(manager.cache())
                    .namespace(NAMESPACE)
                    .concurrency(WORKERS)
                    .build(patching),
            )
        })
        .expect("a replica");
        Self {
            inner,
            reconciles,
            bytes,
            writing,
        }
    }

    fn cached(&self) -> i64 {
        self.inner.cached()
    }
}

fn balanced(replicas: &[&Replica]) -> bool {
    let inner: Vec<&replicas::Replica> = replicas.iter().map(|r| &r.inner).collect();
    replicas::balanced(&inner)
}

async fn server(objects: usize, latency: Duration, filtering: bool) -> ApiServer {
    let server = ApiServer::new(ServerOptions {
        sharded_list_and_watch: filtering,
        ..ServerOptions::default()
    });
    let api: Api<ConfigMap> = Api::namespaced(kube::Client::new(server.clone(), NAMESPACE), NAMESPACE);
    futures::stream::iter(0..objects)
        .for_each_concurrent(64, |i| {
            let api = api.clone();
            async move {
                let object = ConfigMap {
                    metadata: ObjectMeta {
                        name: Some(format!("object-{i}")),
                        ..ObjectMeta::default()
                    },
                    ..ConfigMap::default()
                };
                api.create(&PostParams::default(), &object).await.expect("create");
            }
        })
        .await;
    server.set_latency(latency);
    server
}

/// The list and watch bytes each replica receives while every object is changed
/// once (the replicas themselves write nothing meanwhile).
async fn watch_bytes(server: &ApiServer, objects: usize, replicas: &[&Replica]) -> Vec<u64> {
    for replica in replicas {
        replica.writing.store(false, Ordering::Relaxed);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    for replica in replicas {
        replica.bytes.store(0, Ordering::Relaxed);
    }
    let api: Api<ConfigMap> = Api::namespaced(kube::Client::new(server.clone(), NAMESPACE), NAMESPACE);
    futures::stream::iter(0..objects)
        .for_each_concurrent(64, |i| {
            let api = api.clone();
            async move {
                let patch = serde_json::json!({"data": {"changed": "once"}});
                api.patch(&format!("object-{i}"), &PatchParams::default(), &Patch::Merge(&patch))
                    .await
                    .expect("change");
            }
        })
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    replicas.iter().map(|r| r.bytes.load(Ordering::Relaxed)).collect()
}

/// Reconciles per second over `window`, once the replicas are balanced.
async fn throughput(replicas: &[&Replica], window: Duration) -> f64 {
    let before: usize = replicas.iter().map(|r| r.reconciles.load(Ordering::Relaxed)).sum();
    tokio::time::sleep(window).await;
    let after: usize = replicas.iter().map(|r| r.reconciles.load(Ordering::Relaxed)).sum();
    as_f64(after - before) / window.as_secs_f64()
}

async fn run() {
    let objects = setting("SHARDING_OBJECTS", 300);
    let latency = Duration::from_millis(u64::try_from(setting("SHARDING_LATENCY_MS", 20)).unwrap_or(20));
    let window = Duration::from_millis(u64::try_from(setting("SHARDING_WINDOW_MS", 3000)).unwrap_or(3000));
    println!(
        "sharding: {objects} ConfigMaps, {WORKERS} workers per replica, {} ms per request, {} ms windows",
        latency.as_millis(),
        window.as_millis()
    );

    // One unsharded replica.
    let timeline = Timeline::default();
    let single_server = server(objects, latency, true).await;
    let mut single = Replica::start(&single_server, 9, None, &timeline);
    until("the single replica to reconcile every object", || {
        single.reconciles.load(Ordering::Relaxed) >= objects
    })
    .await;
    let single_rate = throughput(&[&single], window).await;
    let single_bytes = watch_bytes(&single_server, objects, &[&single]).await[0];
    let _ = single.inner.stop().await;

    for filtering in [true, false] {
        let mode = if filtering { "server" } else { "client" };
        let timeline = Timeline::default();
        let server = server(objects, latency, filtering).await;
        let mut a = Replica::start(&server, 0, Some("bench"), &timeline);
        let mut b = Replica::start(&server, 1, Some("bench"), &timeline);
        let mut c = Replica::start(&server, 2, Some("bench"), &timeline);
        let formed = until("three replicas to split the slots", || balanced(&[&a, &b, &c])).await;
        until("the sharded replicas to reconcile every object", || {
            [&a, &b, &c]
                .iter()
                .map(|r| r.reconciles.load(Ordering::Relaxed))
                .sum::<usize>()
                >= objects
        })
        .await;
        if filtering {
            let sharded_rate = throughput(&[&a, &b, &c], window).await;
            println!(
                "bench=sharding kind=throughput replicas=3 sharded_per_s={sharded_rate:.0} single_per_s={single_rate:.0}"
            );
            println!(
                "ratio bench=sharding kind=throughput replicas=3 sharded/single={:.2}",
                sharded_rate / single_rate
            );
        }
        let cached: Vec<i64> = [&a, &b, &c].iter().map(|r| r.cached()).collect();
        let most = cached.iter().copied().max().unwrap_or(0);
        let bytes = watch_bytes(&server, objects, &[&a, &b, &c]).await;
        let most_bytes = bytes.iter().copied().max().unwrap_or(0);
        for replica in [&a, &b, &c] {
            replica.writing.store(true, Ordering::Relaxed);
        }
        println!(
            "bench=sharding kind=cache-objects filtering={mode} per_replica={cached:?} single={objects} watch_bytes_per_replica={bytes:?} single_watch_bytes={single_bytes} formed_ms={:.0}",
            millis(formed)
        );
        println!(
            "ratio bench=sharding kind=cache-objects filtering={mode} replicas=3 per-replica/single={:.2}",
            as_f64(usize::try_from(most).unwrap_or(0)) / as_f64(objects)
        );
        println!(
            "ratio bench=sharding kind=watch-bytes filtering={mode} replicas=3 per-replica/single={:.2}",
            as_f64(usize::try_from(most_bytes).unwrap_or(0))
                / as_f64(usize::try_from(single_bytes).unwrap_or(1).max(1))
        );
        if !filtering {
            continue;
        }
        // Rebalancing: a kill, a graceful leave, a join.
        let killed = Instant::now();
        b.inner.kill().await;
        until("two replicas after the kill", || balanced(&[&a, &c])).await;
        let kill = killed.elapsed();
        let stopping = c.inner.stop();
        let (_, leave) = futures::join!(stopping, until("one replica after the leave", || balanced(&[&a])));
        let joined = Instant::now();
        let mut d = Replica::start(&server, 3, Some("bench"), &timeline);
        until("two replicas after the join", || balanced(&[&a, &d])).await;
        let join = joined.elapsed();
        tokio::time::sleep(Duration::from_millis(500)).await;
        println!(
            "bench=sharding kind=rebalance kill_ms={:.0} leave_ms={:.0} join_ms={:.0} double_reconciles={}",
            millis(kill),
            millis(leave),
            millis(join),
            timeline.overlaps_on_one_object().len()
        );
        let _ = a.inner.stop().await;
        let _ = d.inner.stop().await;
    }
    ghost().await;
}

async fn ghost() {
    let ghost = sharding_ghost::ghost().await;
    println!(
        "bench=sharding kind=ghost unserved_max_ms={:.0} after_heal_unserved_max_ms={:.0} kill_unserved_max_ms={:.0} (lease 2 s, renew deadline 1.5 s)",
        millis(ghost.partition),
        millis(ghost.after_heal),
        millis(ghost.kill)
    );
    println!(
        "ratio bench=sharding kind=ghost replicas=3 late-renew/kill={:.2}",
        millis(ghost.partition) / millis(ghost.kill)
    );
}

fn main() {
    if std::env::var("SHARDING_BENCH_ONLY").as_deref() == Ok("ghost") {
        support::runtime().block_on(ghost());
    } else {
        support::runtime().block_on(run());
    }
}
