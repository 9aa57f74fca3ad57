//! `cargo bench --bench failover`: how long leadership of the WebApp operator is
//! vacant when its leader goes, on the embedded API server, with client-go's default
//! timings (15 s lease, 10 s renew deadline, 2 s retry).
//!
//! Three replicas of the operator (`examples/webapp/replicas.rs`: each its own
//! Manager, identity and cache) reconcile three WebApps. Then, `FAILOVER_BENCH_RUNS`
//! times each (default 3):
//! - **graceful**: the leader is stopped (it releases the lease); measured from the
//!   release (the released record's renewTime) to the new leader's first reconcile;
//! - **kill**: the leader's task is aborted (no release, as a crash); measured from
//!   its last renew (the renewTime of its last record) to the new leader's first
//!   reconcile.
//!
//! Each gone replica is replaced by a new one, so three run throughout. Times are
//! read from the Lease's records as a watch on it saw them, and from the reconciler's
//! clock: one machine, one wall clock. Prints `bench=failover kind=.. ms=..` per run
//! and, for each kind, the median beside client-go's documented bound for the same
//! timings (graceful: a standby polls once per retry period, 2,000 ms; kill: lease
//! duration + retry period, 17,000 ms) as `ratio bench=failover kind=..
//! wheelhouse/client-go=X`. Targets: graceful ≤ 0.1×, kill ≤ 1.0×.

#[path = "../examples/webapp/operator.rs"]
#[allow(dead_code, reason = "the bench uses the operator's builder, not all of it")]
mod operator;
#[path = "../examples/webapp/replicas.rs"]
mod replicas;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures::StreamExt;
use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use kube::CustomResourceExt;
use kube::api::Api;
use kube::runtime::watcher;
use operator::WebApp;
use parking_lot::Mutex;
use replicas::{Replica, Timeline, leader};
use wheelhouse::manager::LeaderElection;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};

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
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Self::Graceful => "graceful",
            Self::Kill => "kill",
        }
    }

    /// client-go's bound for the same timings.
    fn client_go_ms(self) -> f64 {
        match self {
            Self::Graceful => 2_000.0,
            Self::Kill => 17_000.0,
        }
    }
}

async fn measure(runs: usize) -> Vec<(Kind, f64)> {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await.expect("an embedded server");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    replicas::create_webapps(&client, &namespace, 1).await.expect("create");
    let records = Records::default();
    records.watch(client.clone(), &namespace);
    let timeline = Timeline::default();
    let start = |index: usize| {
        Replica::start(&client, &namespace, index, LeaderElection::new(LEASE), &timeline, None).expect("a replica")
    };
    let mut replicas: Vec<Replica> = (0..3).map(start).collect();
    let mut measured = Vec::new();
    let kinds = std::iter::repeat_n([Kind::Graceful, Kind::Kill], runs).flatten();
    for kind in kinds {
        let old = wait_for("a leader", || leader(&replicas)).await;
        let identity = format!("replica-{old}");
        let position = replicas.iter().position(|r| r.index == old).expect("the leader");
        let mut gone = replicas.remove(position);
        match kind {
            Kind::Graceful => gone.stop().await.expect("a clean stop"),
            Kind::Kill => gone.kill().await,
        }
        let new = wait_for("a new leader", || leader(&replicas).filter(|&i| i != old)).await;
        let vacated = wait_for("the lease record", || {
            records.last_of(&identity, kind == Kind::Graceful)
        })
        .await;
        let first = wait_for("the new leader's first reconcile", || timeline.first_by(new, vacated)).await;
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
    for replica in &mut replicas {
        let _ = replica.stop().await;
    }
    env.stop().await;
    measured
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let runs: usize = std::env::var("FAILOVER_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    println!("failover: 3 replicas, lease 15 s, renew deadline 10 s, retry 2 s, {runs} runs of each kind");
    let measured = runtime.block_on(measure(runs));
    for kind in [Kind::Graceful, Kind::Kill] {
        let ms = median(measured.iter().filter(|(k, _)| *k == kind).map(|(_, ms)| *ms).collect());
        println!(
            "ratio bench=failover kind={} median_ms={ms:.1} client_go_ms={:.0} wheelhouse/client-go={:.4}",
            kind.name(),
            kind.client_go_ms(),
            ms / kind.client_go_ms()
        );
    }
}
