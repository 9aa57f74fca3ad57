//! `cargo bench --bench failover`: how long leadership of the WebApp operator is
//! vacant when its leader goes, on the embedded API server, with client-go's default
//! timings (15 s lease, 10 s renew deadline, 2 s retry).
//!
//! Three replicas of the operator (`examples/src/replicas.rs`: each its own
//! Manager, identity and cache) reconcile three WebApps. Then, `FAILOVER_BENCH_RUNS`
//! times each (default 3):
//! - **graceful**: the leader is stopped (it releases the lease); measured from the
//!   release (the released record's renewTime) to the new leader's first reconcile;
//! - **kill**: the leader's task is aborted (no release, as a crash); measured from
//!   its last renew (the renewTime of its last record) to the new leader's first
//!   reconcile;
//! - **pause**: the leader is frozen in the middle of a reconcile (a WebApp's spec is
//!   changed and, once the leader reconciles it, every request of the leader is held
//!   at the server, renewals included) until another replica has taken over; measured
//!   from the pause to the new leader's first reconcile. The server's fencing witness
//!   counts the writes that arrived from a replica that did not hold the Lease then,
//!   over all pauses, as `stale_writes` (target 0). Released, the paused replica finds
//!   its term over and would stand by again (the default); it is stopped and replaced.
//!
//! Then **fence-window**: how long a fenced write spends between the moment it is
//! handed to the manager's client (just before the fence's check) and its arrival at
//! the server, over loopback HTTP with kube's own HTTP stack, `FAILOVER_BENCH_WINDOW`
//! writes (default 2,000): the window in which a replica frozen after the check still
//! delivers its write, which no client can close. Printed as `bench=failover
//! kind=fence-window p50_us=.. p99_us=.. max_us=..`.
//!
//! Then the Lease-lifecycle kinds (`failover_lifecycle.rs`): **lease-delete**, the
//! leader's Lease deleted under churn, `FAILOVER_BENCH_DELETIONS` times (default 3),
//! beside as many kills with the same timings, with the stale writes the witness saw
//! (target 0); **lease-edit**, the Lease edited to name a live standby
//! `FAILOVER_BENCH_EDITS` times (default 30), with the writes that arrived after
//! another replica began on the same WebApp (`kind=lease-edit tries=N
//! stale_writes=S`, target 0); and **apiserver-restart**, the embedded server's
//! serving process stopped for `FAILOVER_BENCH_OUTAGE_S` seconds (default 19) while
//! `FAILOVER_BENCH_WEBAPPS` WebApps (default 300) change, measured from its start to
//! every WebApp converged (`converge_ms`, target 5,000). Then **unreachable**
//! (`failover_unreachable.rs`): one replica's Lease attempts per second while the
//! server refuses connections (`kind=unreachable attempts_per_s=A`, an elector, and a
//! ring member beside it; target ≤ 2 with a 0.5 s retry period).
//! `FAILOVER_BENCH_RUNS=0` runs only these. With `USE_EXISTING_CLUSTER=true` only
//! apiserver-restart runs, on the kubeconfig's cluster, its kube-apiserver restarted
//! by `ENVTEST_APISERVER_STOP` and `ENVTEST_APISERVER_START` (the other kinds need the
//! embedded server's witnesses and request gate).
//!
//! Each gone replica is replaced by a new one, so three run throughout. Times are
//! read from the Lease's records as a watch on it saw them, and from the reconciler's
//! clock: one machine, one wall clock. Prints `bench=failover kind=.. ms=..` per run
//! and, for each kind, the median beside client-go's documented bound for the same
//! timings (graceful: a standby polls once per retry period, 2,000 ms; kill: lease
//! duration + retry period, 17,000 ms) as `ratio bench=failover kind=..
//! wheelhouse/client-go=X` (for pause the bound is the kill's: client-go's standbys
//! wait for the lease to expire as they observe it). Targets: graceful ≤ 0.1×, kill and
//! pause ≤ 1.0×, stale writes 0.

mod failover_lifecycle;
mod failover_unreachable;
#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures::StreamExt;
use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use kube::CustomResourceExt;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::watcher;
use parking_lot::Mutex;
use replicas::{Replica, Timeline, leader};
use support::{median, percentile, runtime, setting};
use webapp::WebApp;
use wheelhouse::manager::LeaderElection;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::replicas;
use wheelhouse_examples::webapp;

const LEASE: &str = "webapp-operator.example.com";
const TIMEOUT: Duration = Duration::from_mins(1);

/// Every record of the Lease, as its watch delivered them.
#[derive(Clone, Default)]
struct Records(Arc<Mutex<Vec<LeaseSpec>>>);

impl Records {
    fn watch(&self, client: kube::Client, namespace: &str) {
        let api: Api<Lease> = Api::namespaced(client, namespace);
        let config = watcher::Config::default().fields(&format!("metadata.name={LEASE}"));
        let records = self.clone();
        tokio::spawn(async move {
            let mut events = watcher(api, config).boxed();
            while let Some(event) = events.next().await {
                if let Ok(watcher::Event::Apply(lease) | watcher::Event::InitApply(lease)) = event {
                    records.0.lock().push(lease.spec.unwrap_or_default());
                }
            }
        });
    }

    /// The renewTime of the last record `identity` wrote while holding the lease, or of
    /// the record that released it (empty holder).
    fn last_of(&self, identity: &str, released: bool) -> Option<SystemTime> {
        let records = self.0.lock();
        let holder = |spec: &LeaseSpec| spec.holder_identity.clone().unwrap_or_default();
        let position = records.iter().rposition(|spec| holder(spec) == identity)?;
        let record = if released {
            records[position + 1..].iter().find(|spec| holder(spec).is_empty())?
        } else {
            &records[position]
        };
        Some(SystemTime::from(record.renew_time.as_ref()?.0))
    }
}

async fn wait_for<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Graceful,
    Kill,
    Pause,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Self::Graceful => "graceful",
            Self::Kill => "kill",
            Self::Pause => "pause",
        }
    }

    /// client-go's bound for the same timings.
    fn client_go_ms(self) -> f64 {
        match self {
            Self::Graceful => 2_000.0,
            Self::Kill | Self::Pause => 17_000.0,
        }
    }
}

/// Changes a WebApp's spec until `replica` is caught reconciling, so that a pause
/// strikes it mid-reconcile.
async fn strike_mid_reconcile(webapps: &Api<WebApp>, timeline: &Timeline, replica: usize, changes: &mut usize) {
    loop {
        let name = ["shop", "blog", "wiki"][*changes % 3];
        let replicas = i32::try_from(*changes / 3 % 3 + 1).expect("small");
        *changes += 1;
        let patch = serde_json::json!({"spec": {"replicas": replicas}});
        webapps
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("change a WebApp");
        let caught = tokio::time::Instant::now() + Duration::from_millis(300);
        while tokio::time::Instant::now() < caught {
            if timeline.in_flight(replica) {
                return;
            }
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
    }
}

async fn measure(runs: usize) -> (Vec<(Kind, f64)>, usize) {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await.expect("an embedded server");
    let server = env.server().cloned().expect("the embedded server");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    replicas::create_webapps(&client, &namespace, 1).await.expect("create");
    let webapps: Api<WebApp> = Api::namespaced(client.clone(), &namespace);
    let witness = server.witness_lease(&namespace, LEASE);
    let records = Records::default();
    records.watch(client.clone(), &namespace);
    let timeline = Timeline::default();
    let user = |index: usize| format!("replica-{index}");
    let start = |index: usize| {
        let client = kube::Client::new(server.as_user(&user(index)), namespace.clone());
        Replica::webapp(&client, &namespace, index, LeaderElection::new(LEASE), &timeline, None).expect("a replica")
    };
    let mut replicas: Vec<Replica> = (0..3).map(start).collect();
    let mut measured = Vec::new();
    let mut changes = 0;
    let kinds = std::iter::repeat_n([Kind::Graceful, Kind::Kill, Kind::Pause], runs).flatten();
    for kind in kinds {
        let old = wait_for("a leader", || leader(&replicas)).await;
        let identity = user(old);
        let vacated = if kind == Kind::Pause {
            strike_mid_reconcile(&webapps, &timeline, old, &mut changes).await;
            server.hold_requests(&identity);
            SystemTime::now()
        } else {
            let position = replicas.iter().position(|r| r.index == old).expect("the leader");
            let mut gone = replicas.remove(position);
            match kind {
                Kind::Graceful => gone.stop().await.expect("a clean stop"),
                _ => gone.kill().await,
            }
            wait_for("the lease record", || {
                records.last_of(&identity, kind == Kind::Graceful)
            })
            .await
        };
        let new = wait_for("a new leader", || leader(&replicas).filter(|&i| i != old)).await;
        let first = wait_for("the new leader's first reconcile", || timeline.first_by(new, vacated)).await;
        if kind == Kind::Pause {
            // Resumed, the paused replica finds its term over and stands by again;
            // it is stopped and replaced like the others.
            server.release_requests(&identity);
            let position = replicas
                .iter()
                .position(|r| r.index == old)
                .expect("the paused replica");
            let mut paused = replicas.remove(position);
            let _ = paused.stop().await;
        }
        let ms = first
            .started_at
            .duration_since(vacated)
            .unwrap_or_default()
            .as_secs_f64()
            * 1000.0;
        println!("bench=failover kind={} ms={ms:.1}", kind.name());
        measured.push((kind, ms));
        let next = replicas.iter().map(|r| r.index).max().unwrap_or(0).max(old) + 1;
        replicas.push(start(next));
    }
    // Held writes that a paused replica did not give up on arrive after its release.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stale = witness.stale_writes();
    for write in &stale {
        println!("stale write: {write:?}");
    }
    for replica in &mut replicas {
        let _ = replica.stop().await;
    }
    env.stop().await;
    (measured, stale.len())
}

/// The fence window: from handing a write to the manager's client to its arrival at
/// the server, over loopback HTTP; microseconds, sorted.
async fn fence_window(writes: usize) -> Vec<f64> {
    let mut env = TestEnv::embedded_with(ServerOptions::default())
        .await
        .expect("an embedded server");
    let server = env.server().cloned().expect("the embedded server");
    env.serve_http(([127, 0, 0, 1], 0).into())
        .await
        .expect("serve over HTTP");
    let kubeconfig = std::fs::read_to_string(env.kubeconfig().expect("a kubeconfig")).expect("read it");
    let kubeconfig = kubeconfig.replace("user: {}", "user: {token: writer}");
    let config = kube::config::Kubeconfig::from_yaml(&kubeconfig).expect("a kubeconfig");
    let options = kube::config::KubeConfigOptions::default();
    let config = kube::Config::from_custom_kubeconfig(config, &options)
        .await
        .expect("a config");
    let client = kube::Client::try_from(config).expect("an HTTP client");
    let namespace = env.namespace().to_owned();
    let witness = server.witness_lease(&namespace, "fence-window");
    let base = std::time::Instant::now();
    let shutdown = wheelhouse::manager::CancellationToken::new();
    let manager = wheelhouse::manager::Manager::builder(client)
        .leader_election(
            LeaderElection::new("fence-window")
                .namespace(&namespace)
                .identity("writer"),
        )
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let running = tokio::spawn(manager.clone().run());
    wait_for("leadership", || manager.is_leader().then_some(())).await;
    let configs: Api<k8s_openapi::api::core::v1::ConfigMap> = Api::namespaced(manager.client(), &namespace);
    let mut handed = Vec::with_capacity(writes);
    for count in 0..writes {
        let config = serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "window"},
            "data": {"count": count.to_string()},
        });
        handed.push(base.elapsed());
        configs
            .patch("window", &PatchParams::apply("bench").force(), &Patch::Apply(&config))
            .await
            .expect("a fenced write in the term");
    }
    let arrivals: Vec<Duration> = witness.writes().iter().map(|w| w.at).collect();
    assert_eq!(arrivals.len(), writes, "every write arrived once");
    let mut window: Vec<f64> = handed
        .iter()
        .zip(&arrivals)
        .map(|(handed, arrived)| arrived.saturating_sub(*handed).as_secs_f64() * 1e6)
        .collect();
    window.sort_by(f64::total_cmp);
    shutdown.cancel();
    let _ = running.await;
    env.stop().await;
    window
}

/// The `kind=apiserver-restart` line: the server's serving process stopped for
/// `FAILOVER_BENCH_OUTAGE_S` seconds and started again with `FAILOVER_BENCH_WEBAPPS`
/// WebApps ([`failover_lifecycle::apiserver_restart`]).
fn apiserver_restart(runtime: &tokio::runtime::Runtime) {
    let webapps = setting("FAILOVER_BENCH_WEBAPPS", 300);
    let outage = Duration::from_secs(u64::try_from(setting("FAILOVER_BENCH_OUTAGE_S", 19)).unwrap_or(19));
    // `FAILOVER_BENCH_CLIENT=kube`: the replicas on kube's own client, for comparison.
    let kube_client = std::env::var("FAILOVER_BENCH_CLIENT").is_ok_and(|client| client == "kube");
    let Some(restart) = runtime.block_on(failover_lifecycle::apiserver_restart(webapps, outage, kube_client)) else {
        println!("bench=failover kind=apiserver-restart skipped (see above)");
        return;
    };
    let how = if restart.server == "embedded" {
        "the embedded server's serving process stopped and started, its watches answered 410 after; every WebApp changed in the outage"
    } else {
        "kube-apiserver killed and started again on the same etcd; every WebApp changed once /readyz answered"
    };
    println!(
        "ratio bench=failover kind=apiserver-restart server={} client={} webapps={webapps} outage_ms={} changed_ms={:.0} converge_ms={:.0} target_ms=5000 converge/target={:.4} (from /readyz; {how})",
        restart.server,
        if kube_client { "kube" } else { "manager" },
        outage.as_millis(),
        restart.changed_ms,
        restart.converge_ms,
        restart.converge_ms / 5000.0
    );
}

fn main() {
    // The replicas' logs on stderr when asked for (`RUST_LOG=wheelhouse=debug`, say).
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_default_env() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .init();
    }
    let runtime = runtime();
    // On an existing cluster only the restart: the other kinds need the embedded
    // server's witnesses and request gate.
    if wheelhouse_envtest::use_existing_cluster() {
        apiserver_restart(&runtime);
        return;
    }
    let runs = setting("FAILOVER_BENCH_RUNS", 3);
    let window_writes = setting("FAILOVER_BENCH_WINDOW", 2_000);
    if runs > 0 {
        println!("failover: 3 replicas, lease 15 s, renew deadline 10 s, retry 2 s, {runs} runs of each kind");
        let (measured, stale_writes) = runtime.block_on(measure(runs));
        for kind in [Kind::Graceful, Kind::Kill, Kind::Pause] {
            let ms = median(measured.iter().filter(|(k, _)| *k == kind).map(|(_, ms)| *ms).collect());
            let stale = if kind == Kind::Pause {
                format!(" stale_writes={stale_writes}")
            } else {
                String::new()
            };
            println!(
                "ratio bench=failover kind={} median_ms={ms:.1} client_go_ms={:.0} wheelhouse/client-go={:.4}{stale}",
                kind.name(),
                kind.client_go_ms(),
                ms / kind.client_go_ms()
            );
        }
        let mut window = runtime.block_on(fence_window(window_writes));
        let writes = window.len();
        let mut at = |percent: usize| percentile(&mut window, percent).unwrap_or(f64::NAN);
        println!(
            "bench=failover kind=fence-window writes={} p50_us={:.0} p99_us={:.0} max_us={:.0} (handed to the client -> arrived at the server, loopback HTTP)",
            writes,
            at(50),
            at(99),
            at(100)
        );
    }
    let deletions = setting("FAILOVER_BENCH_DELETIONS", 3).max(1);
    let deleted = runtime.block_on(failover_lifecycle::lease_delete(deletions));
    let (delete_ms, kill_ms) = (median(deleted.delete_ms), median(deleted.kill_ms));
    println!(
        "ratio bench=failover kind=lease-delete deletions={deletions} stale_writes={} unheld_writes={} median_ms={delete_ms:.1} kill_median_ms={kill_ms:.1} lease-delete/kill={:.4} (lease 2 s, renew deadline 1.5 s, retry 0.4 s)",
        deleted.stale,
        deleted.unheld,
        delete_ms / kill_ms
    );
    let tries = setting("FAILOVER_BENCH_EDITS", 30).max(1);
    let edited = runtime.block_on(failover_lifecycle::lease_edit(tries));
    println!(
        "bench=failover kind=lease-edit tries={tries} stale_writes={} writes={} named_standby_led_next={} (lease 2 s, renew deadline 1.5 s, retry 0.4 s; stale: arrived after another replica began on the same WebApp)",
        edited.stale, edited.writes, edited.named_led
    );
    apiserver_restart(&runtime);
    let window = Duration::from_secs(6);
    let elector = runtime.block_on(failover_unreachable::attempts_per_second(false, window));
    let member = runtime.block_on(failover_unreachable::attempts_per_second(true, window));
    println!(
        "ratio bench=failover kind=unreachable attempts_per_s={elector:.2} ring_member_attempts_per_s={member:.2} target_per_s=2 attempts/target={:.4} (one replica, retry period 0.5 s, connects refused)",
        elector.max(member) / 2.0
    );
}
