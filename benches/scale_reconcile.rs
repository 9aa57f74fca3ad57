//! The reconcile series of `cargo bench --bench scale`: a cold start of the WebApp
//! operator over N WebApps already stored on the embedded server (its informers list,
//! its queue fills, and every WebApp is reconciled to Ready), under our `Controller`,
//! under `kube::runtime::Controller` calling the same reconcile logic, and under three
//! replicas of our operator sharing the WebApps in a ring (`Sharding`), each on a fresh
//! server in the same run.
//!
//! The operator runs as in `benches/reconcile.rs`: on a tokio runtime of its own, over
//! loopback HTTP, with `CONCURRENCY` reconciles per controller (per replica when
//! sharded), while the server simulates the workload controllers and kubelets that make
//! each Deployment available. The clock starts as the operator starts (the WebApps,
//! stored beforehand, have no children yet) and stops when a watch of the WebApps has
//! seen every one Ready (a watch, not a list every few milliseconds: a list of N
//! WebApps costs N, and polling it would take a share of the cores that grows with N);
//! `first_reconcile_ms` is how long its informers took to list and hand out the first
//! key. Each line also gives the server's cost of one write (`server_write_us_*`, a
//! merge patch of one small `ConfigMap`) before the operator starts, holding the N
//! WebApps, and after, holding everything the cold start made. The sharded ring's time includes its forming (2 s member Leases),
//! and the server filters lists and watches by `shardSelector` (KEP-5866).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use kube::CustomResourceExt;
use kube::api::Api;
use wheelhouse::manager::{OnLeadershipLost, Sharding};
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::replicas::{self, Membership, Replica, create_many_webapps};
use wheelhouse_examples::webapp::{WebApp, WebAppReconciler};

use crate::Curves;
use crate::support::operator::{
    CONCURRENCY, Implementation, Timed, Timeline, http_client, operate, phases, until_all_ready, wheelhouse_builder,
    write_cost,
};
use crate::support::{as_f64, millis};

fn micros(duration: Duration) -> f64 {
    millis(duration) * 1000.0
}

/// Replicas in the sharded ring.
const SHARDS: usize = 3;

#[derive(Clone, Copy)]
enum Operator {
    /// One replica of ours, or kube-runtime's.
    Single(Implementation),
    /// `SHARDS` replicas of ours in a ring.
    Sharded,
}

impl Operator {
    const ALL: [Operator; 3] = [
        Self::Single(Implementation::Wheelhouse),
        Self::Single(Implementation::KubeRuntime),
        Self::Sharded,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Single(implementation) => implementation.name(),
            Self::Sharded => "wheelhouse-sharded3",
        }
    }
}

/// One cold start: until every WebApp is Ready, until the first reconcile, and the
/// reconciles it took.
struct ColdStart {
    ready: Duration,
    first_reconcile: Duration,
    reconciles: u64,
    errors: u64,
    /// The server's cost of one write holding the N WebApps only, and holding
    /// everything the cold start made (some 5N objects): if writes cost more as the
    /// store grows, the cold start's time grows faster than N for that reason alone.
    write_before: Duration,
    write_after: Duration,
}

/// Runs `operator` until `shutdown`: our controller and kube-runtime's as in
/// `benches/reconcile.rs`; the sharded replicas each with a manager of its own.
async fn run_operator(
    operator: Operator,
    address: std::net::SocketAddr,
    namespace: String,
    timeline: Arc<Timeline>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) {
    match operator {
        Operator::Single(implementation) => {
            let client = http_client(address, &namespace);
            operate(implementation, client, namespace, timeline, shutdown).await;
        }
        Operator::Sharded => {
            let mut running = Vec::new();
            for index in 0..SHARDS {
                let client = http_client(address, &namespace);
                let ring = replicas::short_ring(Sharding::new("webapp-cold-start")).on_lost(OnLeadershipLost::Standby);
                let timeline = timeline.clone();
                let scope = namespace.clone();
                let replica = Replica::start(&client, &namespace, index, Membership::Ring(ring), |manager| {
                    let builder = wheelhouse_builder(manager.cache(), scope);
                    let inner =
                        WebAppReconciler::cached(&builder).expect("the builder owns Deployments and Services whole");
                    manager.add(builder.build(Timed { inner, timeline }))
                })
                .expect("a sharded replica starts");
                running.push(replica);
            }
            shutdown.await;
            for replica in &mut running {
                let _ = replica.stop().await;
            }
        }
    }
}

/// A fresh server holding `count` WebApps, then `operator`'s cold start over them.
fn cold_start(driver: &tokio::runtime::Runtime, operator: Operator, count: usize) -> ColdStart {
    let (env, address) = driver.block_on(async {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::ZERO)),
            sharded_list_and_watch: true,
            ..ServerOptions::default()
        };
        let mut env = TestEnv::embedded_with(options)
            .await
            .expect("the embedded server starts");
        env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
        let address = env
            .serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("the server listens");
        create_many_webapps(&env.client(), env.namespace(), count)
            .await
            .expect("the server takes the WebApps");
        (env, address)
    });
    let namespace = env.namespace().to_owned();
    let write_before = driver.block_on(write_cost(env.client(), &namespace));
    let timeline = Arc::new(Timeline::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async {
        let _ = stopped.await;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .thread_name("operator")
        .enable_all()
        .build()
        .expect("the operator's runtime");
    let start = Instant::now();
    let running = runtime.spawn(run_operator(
        operator,
        address,
        namespace.clone(),
        timeline.clone(),
        shutdown,
    ));
    let api: Api<WebApp> = Api::namespaced(env.client(), &namespace);
    let limit = Duration::from_mins(2) + Duration::from_millis(u64::try_from(count).unwrap_or(u64::MAX) * 50);
    let ready = driver.block_on(async {
        if tokio::time::timeout(limit, until_all_ready(api.clone(), count))
            .await
            .is_err()
        {
            panic!(
                "{} did not make {count} WebApps Ready in {} s: by phase/available {:?}, {} reconciles",
                operator.name(),
                limit.as_secs(),
                phases(&api).await,
                timeline.reconciles.load(Ordering::Relaxed)
            );
        }
        start.elapsed()
    });
    let _ = stop.send(());
    driver.block_on(async {
        let _ = tokio::time::timeout(Duration::from_secs(30), running).await;
    });
    runtime.shutdown_timeout(Duration::from_secs(10));
    // Once the operator has stopped, so that its own requests do not share the server.
    let write_after = driver.block_on(write_cost(env.client(), &namespace));
    driver.block_on(env.stop());
    ColdStart {
        ready,
        first_reconcile: timeline
            .first_reconcile()
            .map_or(ready, |first| first.saturating_duration_since(start)),
        reconciles: timeline.reconciles.load(Ordering::Relaxed),
        errors: timeline.errors.load(Ordering::Relaxed),
        write_before,
        write_after,
    }
}

/// The series at each of `sizes`: one line per size, then how each grew.
pub fn reconcile(driver: &tokio::runtime::Runtime, sizes: &[usize]) {
    let mut curves = Curves::default();
    for &count in sizes {
        curves.at(count);
        let mut parts = Vec::new();
        let mut readies = Vec::new();
        for operator in Operator::ALL {
            let measured = cold_start(driver, operator, count);
            let us_per_object = millis(measured.ready) * 1000.0 / as_f64(count);
            curves.record(&format!("reconcile-{}", operator.name()), us_per_object);
            let (before, after) = (micros(measured.write_before), micros(measured.write_after));
            curves.record(&format!("reconcile-server-write-after-{}", operator.name()), after);
            parts.push(format!(
                "{} ready_ms={:.0} ready_us_per_object={us_per_object:.0} first_reconcile_ms={:.0} reconciles={} failed={} server_write_us_before={before:.0} server_write_us_after={after:.0}",
                operator.name(),
                millis(measured.ready),
                millis(measured.first_reconcile),
                measured.reconciles,
                measured.errors
            ));
            readies.push(measured.ready.as_secs_f64());
        }
        println!(
            "scale series=reconcile size={count} concurrency={CONCURRENCY} {} | ratio wheelhouse/kube-runtime={:.2} wheelhouse-sharded3/kube-runtime={:.2} wheelhouse-sharded3/wheelhouse={:.2}",
            parts.join(" | "),
            readies[0] / readies[1],
            readies[2] / readies[1],
            readies[2] / readies[0]
        );
    }
    curves.summarize();
}
