//! `cargo bench --bench reconcile`: the WebApp operator (`examples/src/webapp.rs`)
//! reconciling 1,000 WebApps created at once on the embedded API server, run by our
//! `Controller` and, in the same process, by `kube::runtime::Controller` calling the
//! very same reconcile logic, each with 8 concurrent reconciles.
//!
//! Under our controller the operator owns its children with `owns_full` and applies
//! them through `Applier`s, which skip applies the cache shows in place; under
//! kube-runtime, whose stable API keeps the controller's child stores private, the same
//! reconciler applies both children on every pass. Both count their writes.
//!
//! For each: the time until every WebApp is Ready (Deployments are made available by
//! the embedded server as soon as they change), reconciles per second, and the latency
//! from an object's creation on the server (the moment its create request was sent)
//! to the start of its first reconcile, p50 and p99. Prints one line per figure and
//! `ratio bench=reconcile throughput=X p99_latency=Y`, ours divided by kube-runtime's.
//! `RECONCILE_BENCH_OBJECTS` (default 1,000) and `RECONCILE_BENCH_RUNS` (default 3,
//! alternating, medians, after one warm-up run of each) change the workload;
//! `RECONCILE_BENCH_ONLY=wheelhouse` or `=kube-runtime` runs one of the two (for
//! profiling; no ratio is printed then).

#[path = "support.rs"]
#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use wheelhouse_examples::webapp;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, ListParams, PostParams};
use kube::runtime::watcher;
use kube::{CustomResourceExt, ResourceExt};
use support::{median, millis, per_second};
use webapp::{Phase, WebApp, WebAppReconciler, WebAppSpec};
use wheelhouse::cache::Cache;
use wheelhouse::controller::{Action, Context, Error, Reconciler};
use wheelhouse_envtest::{ServerOptions, TestEnv, Verb, WorkloadSimulation};

const CONCURRENCY: usize = 8;

fn objects() -> usize {
    std::env::var("RECONCILE_BENCH_OBJECTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000)
}

/// When each object was created and when its first reconcile started.
#[derive(Default)]
struct Timeline {
    created: DashMap<String, Instant>,
    first_start: DashMap<String, Instant>,
    reconciles: AtomicU64,
    errors: AtomicU64,
}

impl Timeline {
    fn started(&self, name: String) {
        self.reconciles.fetch_add(1, Ordering::Relaxed);
        self.first_start.entry(name).or_insert_with(Instant::now);
    }

    /// p50 and p99 of creation-to-first-reconcile.
    fn latencies(&self) -> (Duration, Duration) {
        let mut latencies: Vec<Duration> = self
            .created
            .iter()
            .filter_map(|c| {
                self.first_start
                    .get(c.key())
                    .map(|s| s.saturating_duration_since(*c.value()))
            })
            .collect();
        latencies.sort_unstable();
        let at = |q: f64| {
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss,
                reason = "an index into a short list"
            )]
            let index = ((latencies.len() as f64 - 1.0) * q).round() as usize;
            latencies.get(index).copied().unwrap_or_default()
        };
        (at(0.5), at(0.99))
    }
}

/// Our controller's reconciler: the operator's, timed.
struct Timed {
    inner: WebAppReconciler,
    timeline: Arc<Timeline>,
}

impl Reconciler<WebApp> for Timed {
    async fn reconcile(&self, webapp: Arc<WebApp>, context: &Context) -> Result<Action, Error> {
        self.timeline.started(webapp.name_any());
        let result = self.inner.reconcile(webapp, context).await;
        if result.is_err() {
            self.timeline.errors.fetch_add(1, Ordering::Relaxed);
        }
        result
    }
}

/// kube-runtime wants an `std::error::Error`.
#[derive(Debug)]
struct Failed(String);

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failed {}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Implementation {
    Wheelhouse,
    KubeRuntime,
}

impl Implementation {
    fn name(self) -> &'static str {
        match self {
            Self::Wheelhouse => "wheelhouse",
            Self::KubeRuntime => "kube-runtime",
        }
    }
}

struct Measured {
    all_ready: Duration,
    reconciles: u64,
    errors: u64,
    /// Writes (patches and updates of WebApps, Deployments and Services) the
    /// controller sent.
    writes: u64,
    p50: Duration,
    p99: Duration,
}

async fn all_ready(api: &Api<WebApp>, count: usize) -> bool {
    let list = api.list(&ListParams::default()).await.expect("list");
    list.items.len() == count
        && list.items.iter().all(|w| {
            let status = w.status.as_ref();
            status.and_then(|s| s.phase) == Some(Phase::Ready) && status.and_then(|s| s.available_replicas) == Some(1)
        })
}

/// Starts `implementation`'s controller of the WebApps in `namespace`.
fn start(
    implementation: Implementation,
    client: kube::Client,
    namespace: String,
    timeline: Arc<Timeline>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> tokio::task::JoinHandle<()> {
    match implementation {
        Implementation::Wheelhouse => {
            let cache = Cache::new(client.clone());
            let builder = wheelhouse::controller::Controller::for_::<WebApp>(&cache)
                .namespace(namespace.clone())
                .owns_full::<Deployment>()
                .owns_full::<Service>()
                .predicate(webapp::worth_a_reconcile())
                .concurrency(CONCURRENCY);
            let inner = WebAppReconciler::cached(&builder).expect("the builder owns Deployments and Services whole");
            let controller = builder.build(Timed { inner, timeline });
            tokio::spawn(controller.run(shutdown))
        }
        Implementation::KubeRuntime => {
            let config =
                kube::runtime::controller::Config::default().concurrency(u16::try_from(CONCURRENCY).unwrap_or(8));
            let webapps: Api<WebApp> = Api::namespaced(client.clone(), &namespace);
            let reconciler = Arc::new(WebAppReconciler::new());
            tokio::spawn(async move {
                kube::runtime::Controller::new(webapps, watcher::Config::default())
                    .with_config(config)
                    .owns(
                        Api::<Deployment>::namespaced(client.clone(), &namespace),
                        watcher::Config::default(),
                    )
                    .owns(
                        Api::<Service>::namespaced(client.clone(), &namespace),
                        watcher::Config::default(),
                    )
                    .graceful_shutdown_on(shutdown)
                    .run(
                        move |webapp: Arc<WebApp>, reconciler: Arc<WebAppReconciler>| {
                            timeline.started(webapp.name_any());
                            let context = Context::new(client.clone(), "webapp");
                            let timeline = timeline.clone();
                            async move {
                                let result = reconciler.reconcile(webapp, &context).await;
                                if result.is_err() {
                                    timeline.errors.fetch_add(1, Ordering::Relaxed);
                                }
                                result
                                    .map(|action| match action.requeue_delay() {
                                        Some(delay) => kube::runtime::controller::Action::requeue(delay),
                                        None => kube::runtime::controller::Action::await_change(),
                                    })
                                    .map_err(|e| Failed(e.to_string()))
                            }
                        },
                        |_, _: &Failed, _| kube::runtime::controller::Action::requeue(Duration::from_millis(10)),
                        reconciler,
                    )
                    .for_each(|_| async {})
                    .await;
            })
        }
    }
}

async fn run(implementation: Implementation, count: usize) -> Measured {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::ZERO)),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options)
        .await
        .expect("the embedded server starts");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let client = env.client();
    let timeline = Arc::new(Timeline::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async {
        let _ = stopped.await;
    };
    let running = start(
        implementation,
        client.clone(),
        env.namespace().to_owned(),
        timeline.clone(),
        shutdown,
    );
    let api: Api<WebApp> = Api::namespaced(client.clone(), env.namespace());
    let start = Instant::now();
    let creates = futures::stream::iter(0..count)
        .map(|n| {
            let (api, timeline) = (api.clone(), timeline.clone());
            async move {
                let name = format!("app-{n}");
                let spec = WebAppSpec {
                    image: "nginx:1.27".into(),
                    replicas: Some(1),
                    port: Some(80),
                };
                timeline.created.insert(name.clone(), Instant::now());
                api.create(&PostParams::default(), &WebApp::new(&name, spec))
                    .await
                    .expect("create");
            }
        })
        .buffer_unordered(64);
    creates.for_each(|()| async {}).await;
    while !all_ready(&api, count).await {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if start.elapsed() > Duration::from_mins(2) {
            let list = api.list(&ListParams::default()).await.expect("list");
            let mut phases = std::collections::BTreeMap::<String, usize>::new();
            for webapp in &list.items {
                let status = webapp.status.as_ref();
                let phase = format!(
                    "{:?}/{:?}",
                    status.and_then(|s| s.phase),
                    status.and_then(|s| s.available_replicas)
                );
                *phases.entry(phase).or_default() += 1;
            }
            panic!(
                "{} did not make everything Ready in 2 minutes: {} objects, by phase/available {phases:?}, {} reconciles",
                implementation.name(),
                list.items.len(),
                timeline.reconciles.load(Ordering::Relaxed)
            );
        }
    }
    let all_ready = start.elapsed();
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(30), running).await;
    let (p50, p99) = timeline.latencies();
    let server = env.server().expect("the embedded server");
    let writes = ["webapps", "deployments", "services"]
        .iter()
        .map(|resource| server.request_count(Verb::Patch, resource) + server.request_count(Verb::Update, resource))
        .sum();
    env.stop().await;
    Measured {
        all_ready,
        reconciles: timeline.reconciles.load(Ordering::Relaxed),
        errors: timeline.errors.load(Ordering::Relaxed),
        writes,
        p50,
        p99,
    }
}

fn main() {
    let runs: usize = std::env::var("RECONCILE_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let count = objects();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    println!(
        "reconcile bench: {count} WebApps, concurrency {CONCURRENCY}, median of {runs} runs, {} tokio worker threads",
        runtime.metrics().num_workers()
    );
    let only = std::env::var("RECONCILE_BENCH_ONLY").ok();
    let implementations: Vec<Implementation> = [Implementation::Wheelhouse, Implementation::KubeRuntime]
        .into_iter()
        .filter(|i| only.as_deref().is_none_or(|only| only == i.name()))
        .collect();
    assert!(
        !implementations.is_empty(),
        "RECONCILE_BENCH_ONLY must be wheelhouse or kube-runtime"
    );
    let mut results: Vec<Vec<Measured>> = implementations.iter().map(|_| Vec::new()).collect();
    // Run 0 of each is a warm-up: the first run in a process is markedly slower (cold
    // allocator and caches), and would weigh on whichever goes first.
    for run_number in 0..=runs {
        for (implementation, results) in implementations.iter().zip(&mut results) {
            let measured = runtime.block_on(run(*implementation, count));
            eprintln!(
                "  run {run_number} {}: all Ready in {:.0} ms, {} reconciles ({} failed), {} writes, p50 {:.1} ms, p99 {:.1} ms",
                implementation.name(),
                millis(measured.all_ready),
                measured.reconciles,
                measured.errors,
                measured.writes,
                millis(measured.p50),
                millis(measured.p99)
            );
            if run_number > 0 {
                results.push(measured);
            }
        }
    }
    let mut summary = Vec::new();
    for (implementation, results) in implementations.iter().zip(results) {
        let all_ready = median(results.iter().map(|m| m.all_ready).collect());
        let p50 = median(results.iter().map(|m| m.p50).collect());
        let p99 = median(results.iter().map(|m| m.p99).collect());
        let reconciles = results.iter().map(|m| m.reconciles).sum::<u64>() / results.len() as u64;
        let writes = results.iter().map(|m| m.writes).sum::<u64>() / results.len() as u64;
        let ready_per_s = per_second(count, all_ready);
        println!(
            "bench=reconcile impl={} objects={count} all_ready_ms={:.0} ready_per_s={ready_per_s:.0} reconciles={reconciles} reconciles_per_s={:.0} writes={writes} p50_latency_ms={:.2} p99_latency_ms={:.2}",
            implementation.name(),
            millis(all_ready),
            per_second(usize::try_from(reconciles).unwrap_or(usize::MAX), all_ready),
            millis(p50),
            millis(p99)
        );
        summary.push((ready_per_s, p99));
    }
    if let [(ours, our_p99), (kube, kube_p99)] = summary[..] {
        println!(
            "ratio bench=reconcile throughput={:.2} p99_latency={:.2}",
            ours / kube,
            our_p99.as_secs_f64() / kube_p99.as_secs_f64()
        );
    }
}
