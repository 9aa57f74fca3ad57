//! `cargo bench --bench reconcile`: the WebApp operator (`examples/src/webapp.rs`)
//! reconciling 1,000 WebApps created at once on the embedded API server, run by our
//! `Controller` and by `kube::runtime::Controller` calling the very same reconcile
//! logic, each with 8 concurrent reconciles, one after the other in one process.
//!
//! Under our controller the operator owns its children with `owns_full` and applies
//! them through `Applier`s, which skip applies the cache shows in place; under
//! kube-runtime, whose stable API keeps the controller's child stores private, the same
//! reconciler applies both children on every pass. Both count their writes.
//!
//! The operator runs on a tokio runtime of its own and talks to the server over
//! loopback HTTP, as an operator talks to kube-apiserver; the server (with its
//! simulated workload controllers) and the bench's own requests run on another
//! runtime. So the operator's own cost can be told apart from the server's: its
//! runtime's threads sum their CPU time (`/proc/thread-self/schedstat`) and their
//! allocations (a per-thread counting allocator) as they stop.
//!
//! For each: the time until every WebApp is Ready (Deployments are made available by
//! the embedded server as soon as they change), reconciles per second, the latency
//! from an object's creation on the server (the moment its create request was sent)
//! to the start of its first reconcile (p50 and p99), and the operator's CPU time and
//! allocations per reconcile and per WebApp. Prints one line per implementation and
//! the ratios, ours divided by kube-runtime's:
//! `ratio bench=reconcile throughput=X p99_latency=Y` (end to end, both sides sharing
//! the cores), `ratio bench=reconcile kind=operator-cpu wheelhouse/kube-runtime=X` and
//! `ratio bench=reconcile kind=operator-allocs wheelhouse/kube-runtime=X` (per
//! reconcile; `per_webapp=` gives the same per WebApp made Ready).
//! `RECONCILE_BENCH_OBJECTS` (default 1,000) and `RECONCILE_BENCH_RUNS` (default 3,
//! alternating, medians, after one warm-up run of each) change the workload;
//! `RECONCILE_BENCH_ONLY=wheelhouse` or `=kube-runtime` runs one of the two (for
//! profiling; no ratio is printed then).

#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use densa_alloc::{AllocStats, CountingAllocator};
use futures::StreamExt;
use kube::CustomResourceExt;
use kube::api::{Api, PostParams};
use support::operator::{CONCURRENCY, Implementation, Timeline, all_ready, http_client, operate, phases};
use support::{as_f64, median, millis, per_second, runtime, selected, setting};
use wheelhouse_envtest::{ServerOptions, TestEnv, Verb, WorkloadSimulation};
use wheelhouse_examples::webapp::{WebApp, WebAppSpec};

/// Counts every thread's allocations; the operator's threads report theirs.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::system();

/// What the operator runtime's threads used, each adding its share as it stops.
#[derive(Default)]
struct OperatorUsage {
    cpu_nanos: AtomicU64,
    allocations: AtomicU64,
    allocated_bytes: AtomicU64,
}

static OPERATOR_USAGE: OperatorUsage = OperatorUsage {
    cpu_nanos: AtomicU64::new(0),
    allocations: AtomicU64::new(0),
    allocated_bytes: AtomicU64::new(0),
};

thread_local! {
    /// An operator thread's CPU time and allocation counts when it started.
    static AT_START: Cell<(Duration, AllocStats)> = const { Cell::new((Duration::ZERO, AllocStats::ZERO)) };
}

/// The CPU time the calling thread has run, from `/proc/thread-self/schedstat`
/// (nanoseconds on a CPU; Linux with scheduler statistics, else zero).
fn thread_cpu_time() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|stat| stat.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// A runtime for the operator alone, whose threads report what they used.
fn operator_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .thread_name("operator")
        .on_thread_start(|| AT_START.set((thread_cpu_time(), densa_alloc::thread_stats())))
        .on_thread_stop(|| {
            // Allocations first: reading the CPU time allocates.
            let allocations = densa_alloc::thread_stats();
            let cpu = thread_cpu_time();
            let (cpu_at_start, allocations_at_start) = AT_START.get();
            let allocations = allocations.since(allocations_at_start);
            let cpu = u64::try_from(cpu.saturating_sub(cpu_at_start).as_nanos()).unwrap_or(u64::MAX);
            OPERATOR_USAGE.cpu_nanos.fetch_add(cpu, Ordering::Relaxed);
            OPERATOR_USAGE
                .allocations
                .fetch_add(allocations.allocs, Ordering::Relaxed);
            OPERATOR_USAGE
                .allocated_bytes
                .fetch_add(allocations.bytes_allocated, Ordering::Relaxed);
        })
        .enable_all()
        .build()
        .expect("the operator's runtime")
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
    /// CPU time of the operator runtime's threads.
    operator_cpu: Duration,
    /// Allocations and bytes allocated on the operator runtime's threads.
    operator_allocations: u64,
    operator_allocated_bytes: u64,
}

/// One run: a fresh embedded server, and the operator on a runtime of its own.
fn run(driver: &tokio::runtime::Runtime, implementation: Implementation, count: usize) -> Measured {
    let (env, address) = driver.block_on(async {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::ZERO)),
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
        (env, address)
    });
    let namespace = env.namespace().to_owned();
    let timeline = Arc::new(Timeline::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async {
        let _ = stopped.await;
    };
    for counter in [
        &OPERATOR_USAGE.cpu_nanos,
        &OPERATOR_USAGE.allocations,
        &OPERATOR_USAGE.allocated_bytes,
    ] {
        counter.store(0, Ordering::Relaxed);
    }
    let operator = operator_runtime();
    let running = operator.spawn({
        let (namespace, timeline) = (namespace.clone(), timeline.clone());
        // Made on the operator's runtime, so the client's connection tasks run there.
        async move {
            let client = http_client(address, &namespace);
            operate(implementation, client, namespace, timeline, shutdown).await;
        }
    });
    let api: Api<WebApp> = Api::namespaced(env.client(), &namespace);
    let all_ready = driver.block_on(create_and_wait(&api, implementation, count, &timeline));
    let _ = stop.send(());
    driver.block_on(async {
        let _ = tokio::time::timeout(Duration::from_secs(30), running).await;
    });
    // Every operator thread reports what it used as it stops.
    operator.shutdown_timeout(Duration::from_secs(10));
    let (p50, p99) = timeline.latencies();
    let server = env.server().expect("the embedded server");
    let writes = ["webapps", "deployments", "services"]
        .iter()
        .map(|resource| server.request_count(Verb::Patch, resource) + server.request_count(Verb::Update, resource))
        .sum();
    driver.block_on(env.stop());
    Measured {
        all_ready,
        reconciles: timeline.reconciles.load(Ordering::Relaxed),
        errors: timeline.errors.load(Ordering::Relaxed),
        writes,
        p50,
        p99,
        operator_cpu: Duration::from_nanos(OPERATOR_USAGE.cpu_nanos.load(Ordering::Relaxed)),
        operator_allocations: OPERATOR_USAGE.allocations.load(Ordering::Relaxed),
        operator_allocated_bytes: OPERATOR_USAGE.allocated_bytes.load(Ordering::Relaxed),
    }
}

/// Creates `count` WebApps at once and returns how long until all were Ready.
async fn create_and_wait(
    api: &Api<WebApp>,
    implementation: Implementation,
    count: usize,
    timeline: &Timeline,
) -> Duration {
    let start = Instant::now();
    let creates = futures::stream::iter(0..count)
        .map(|n| async move {
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
        })
        .buffer_unordered(64);
    creates.for_each(|()| async {}).await;
    while !all_ready(api, count).await {
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(
            start.elapsed() <= Duration::from_mins(2),
            "{} did not make everything Ready in 2 minutes: by phase/available {:?}, {} reconciles",
            implementation.name(),
            phases(api).await,
            timeline.reconciles.load(Ordering::Relaxed)
        );
    }
    start.elapsed()
}

/// One implementation's medians, as the ratios need them.
struct Summary {
    ready_per_s: f64,
    p99: Duration,
    /// Operator CPU microseconds per reconcile and per WebApp.
    cpu: (f64, f64),
    /// Operator allocations per reconcile and per WebApp.
    allocations: (f64, f64),
}

/// Prints `implementation`'s line, from the medians of its runs.
fn summarize(implementation: Implementation, results: &[Measured], count: usize) -> Summary {
    let all_ready = median(results.iter().map(|m| m.all_ready).collect());
    let p50 = median(results.iter().map(|m| m.p50).collect());
    let p99 = median(results.iter().map(|m| m.p99).collect());
    let reconciles = median(results.iter().map(|m| m.reconciles).collect());
    let writes = median(results.iter().map(|m| m.writes).collect());
    let ready_per_s = per_second(count, all_ready);
    // Per reconcile within each run, then the median of the runs.
    let cpu_per_reconcile = median(
        results
            .iter()
            .map(|m| each(m.operator_cpu.as_secs_f64() * 1e6, m.reconciles))
            .collect(),
    );
    let allocations_per_reconcile = median(
        results
            .iter()
            .map(|m| {
                each(
                    as_f64(usize::try_from(m.operator_allocations).unwrap_or(usize::MAX)),
                    m.reconciles,
                )
            })
            .collect(),
    );
    let kib_per_reconcile = median(
        results
            .iter()
            .map(|m| {
                each(
                    as_f64(usize::try_from(m.operator_allocated_bytes).unwrap_or(usize::MAX)) / 1024.0,
                    m.reconciles,
                )
            })
            .collect(),
    );
    let operator_cpu = median(results.iter().map(|m| m.operator_cpu).collect());
    let count_u64 = u64::try_from(count).unwrap_or(u64::MAX);
    let cpu_per_webapp = each(operator_cpu.as_secs_f64() * 1e6, count_u64);
    let allocations_per_webapp = each(
        as_f64(usize::try_from(median(results.iter().map(|m| m.operator_allocations).collect())).unwrap_or(usize::MAX)),
        count_u64,
    );
    println!(
        "bench=reconcile impl={} objects={count} all_ready_ms={:.0} ready_per_s={ready_per_s:.0} reconciles={reconciles} reconciles_per_s={:.0} writes={writes} p50_latency_ms={:.2} p99_latency_ms={:.2} operator_cpu_ms={:.0} operator_cpu_us_per_reconcile={cpu_per_reconcile:.0} operator_allocs_per_reconcile={allocations_per_reconcile:.0} operator_alloc_kib_per_reconcile={kib_per_reconcile:.0} operator_cpu_us_per_webapp={cpu_per_webapp:.0} operator_allocs_per_webapp={allocations_per_webapp:.0}",
        implementation.name(),
        millis(all_ready),
        per_second(usize::try_from(reconciles).unwrap_or(usize::MAX), all_ready),
        millis(p50),
        millis(p99),
        millis(operator_cpu),
    );
    Summary {
        ready_per_s,
        p99,
        cpu: (cpu_per_reconcile, cpu_per_webapp),
        allocations: (allocations_per_reconcile, allocations_per_webapp),
    }
}

/// A figure of `measured` divided among `per` (reconciles or WebApps).
fn each(total: f64, per: u64) -> f64 {
    total / as_f64(usize::try_from(per).unwrap_or(usize::MAX)).max(1.0)
}

fn main() {
    let runs = setting("RECONCILE_BENCH_RUNS", 3).max(1);
    let count = setting("RECONCILE_BENCH_OBJECTS", 1_000);
    let driver = runtime();
    println!(
        "reconcile bench: {count} WebApps, concurrency {CONCURRENCY}, median of {runs} runs, {} tokio worker threads for the server and as many for the operator",
        driver.metrics().num_workers()
    );
    let implementations = selected(
        "RECONCILE_BENCH_ONLY",
        &[Implementation::Wheelhouse, Implementation::KubeRuntime],
        Implementation::name,
    );
    let mut results: Vec<Vec<Measured>> = implementations.iter().map(|_| Vec::new()).collect();
    // Run 0 of each is a warm-up: the first run in a process is markedly slower (cold
    // allocator and caches), and would weigh on whichever goes first.
    for run_number in 0..=runs {
        for (implementation, results) in implementations.iter().zip(&mut results) {
            let measured = run(&driver, *implementation, count);
            eprintln!(
                "  run {run_number} {}: all Ready in {:.0} ms, {} reconciles ({} failed), {} writes, p50 {:.1} ms, p99 {:.1} ms, operator CPU {:.0} ms, {} allocations",
                implementation.name(),
                millis(measured.all_ready),
                measured.reconciles,
                measured.errors,
                measured.writes,
                millis(measured.p50),
                millis(measured.p99),
                millis(measured.operator_cpu),
                measured.operator_allocations
            );
            if run_number > 0 {
                results.push(measured);
            }
        }
    }
    let summary: Vec<Summary> = implementations
        .iter()
        .zip(&results)
        .map(|(implementation, results)| summarize(*implementation, results, count))
        .collect();
    if let [ours, kube] = &summary[..] {
        println!(
            "ratio bench=reconcile throughput={:.2} p99_latency={:.2}",
            ours.ready_per_s / kube.ready_per_s,
            ours.p99.as_secs_f64() / kube.p99.as_secs_f64()
        );
        println!(
            "ratio bench=reconcile kind=operator-cpu wheelhouse/kube-runtime={:.2} per_webapp={:.2}",
            ours.cpu.0 / kube.cpu.0,
            ours.cpu.1 / kube.cpu.1
        );
        println!(
            "ratio bench=reconcile kind=operator-allocs wheelhouse/kube-runtime={:.2} per_webapp={:.2}",
            ours.allocations.0 / kube.allocations.0,
            ours.allocations.1 / kube.allocations.1
        );
    }
}
