//! `cargo bench --bench scale`: how each cost grows with the number of objects, on
//! realistic Pods (`wheelhouse_examples::pods`: 4–8 KiB of JSON with managedFields for
//! three managers), each size beside its anchor from the same run.
//!
//! - cache: an informer's bytes per stored Pod and its time to sync, for our
//!   informer with its default transform (managedFields dropped, and skipped while
//!   decoding), ours keeping managedFields, ours metadata-only, and kube-runtime's
//!   `reflector` (which keeps managedFields), at each of `SCALE_BENCH_SIZES` (default
//!   `1000,10000`). Live bytes come from a global allocator that counts them (`cap`),
//!   as in `benches/cache.rs`: the bytes live after sync minus those just before start.
//! - envtest: at the same sizes, the embedded server's own bytes per stored Pod (live
//!   bytes before and after loading), beside the Pod's JSON size; a paginated list and
//!   a streaming-list watch of all the Pods, per object.
//! - workqueue: W1 (2 producers adding 4 keys per distinct key, round-robin over N
//!   distinct keys: dedup churn) and W2 (N unique keys), 4 workers, our queue against
//!   an unbounded flume channel, at `SCALE_BENCH_QUEUE_SIZES` (default
//!   `10000,100000,1000000`; 10,000,000 only if asked).
//!
//! - reconcile: a cold start of the WebApp operator over N WebApps already stored (list,
//!   queue, every WebApp reconciled to Ready), ours against kube-runtime's `Controller`
//!   and against three sharded replicas of ours, at `SCALE_BENCH_RECONCILE_SIZES`
//!   (default `1000`, a minute or so; `10000` and `100000` when asked, `10000` taking
//!   a quarter of an hour on 2 cores): see `scale_reconcile.rs`.
//!
//! Each line prints `per_object` figures; a `ratio bench=scale series=… largest/smallest`
//! line per series says how the per-object cost grows (1.0 is linear growth of the
//! total), and each series is drawn as a log-log SVG chart (`scale_charts.rs`). `SCALE_BENCH_ONLY=cache|envtest|workqueue|reconcile` runs those series (a
//! comma-separated list).
//!
//! Pods are loaded as a cluster makes them (create by kube-controller-manager,
//! kube-scheduler's status, the binding, the kubelet's status), so the server records
//! the three managers' managedFields itself: it replaces any a client sends on create,
//! as kube-apiserver does. The setup line says what it recorded.
//!
//! The client-go anchor is a shared informer on Pods (`benches/clientgo/informer`, a
//! process of its own, listing and watching the same embedded server served over
//! HTTP on 127.0.0.1), its heap bytes per Pod after GC and its time to sync. It builds
//! with Go modules (which needs the Go module proxy), or, with
//! `CLIENTGO_BENCH_K8S_TREE` naming a Kubernetes source tree with vendored client-go,
//! in GOPATH mode against that tree's `vendor/`; `CLIENTGO_BENCH_GO` names the `go`
//! binary (default: `go` on the `PATH`). When it cannot build or run, the bench prints
//! `client-go anchor skipped: <why>` and goes on. The workqueue series builds client-go's
//! workqueue (`benches/clientgo/main.go`) the same way.

mod scale_charts;
mod scale_reconcile;
mod scale_workqueue;
#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::alloc::System;
use std::path::{Path, PathBuf};
use std::process::Command;

use std::time::{Duration, Instant};

use cap::Cap;
use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ListParams};
use kube::runtime::{reflector, watcher};
use support::{as_f64, median, millis, runtime};
use wheelhouse_cache::{Cache, InformerOptions, Scope};
use wheelhouse_envtest::{ServerOptions, TestEnv};
use wheelhouse_examples::pods::{create_pods, realistic_pod};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// How long the watch must have been idle before live bytes are read.
const QUIET: Duration = Duration::from_millis(300);
const IN_FLIGHT: usize = 16;

fn live_bytes() -> usize {
    ALLOCATOR.allocated()
}

/// Live bytes once they stop moving: a stopped informer's task frees its store when
/// the runtime next drops it, which must not land after the next baseline.
async fn settled_live_bytes() -> usize {
    let mut last = live_bytes();
    for _ in 0..50 {
        tokio::time::sleep(QUIET).await;
        let now = live_bytes();
        if now.abs_diff(last) < 256 * 1024 {
            return now;
        }
        last = now;
    }
    last
}

fn bytes_since(baseline: usize) -> f64 {
    as_f64(live_bytes()) - as_f64(baseline)
}

fn sizes(variable: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(variable)
        .ok()
        .map(|list| {
            list.split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect::<Vec<usize>>()
        })
        .filter(|list| !list.is_empty())
        .unwrap_or_else(|| default.to_vec())
}

/// The first cache size, at which the one-off lines print.
fn sizes_first() -> usize {
    cache_sizes().first().copied().unwrap_or_default()
}

fn cache_sizes() -> Vec<usize> {
    sizes("SCALE_BENCH_SIZES", &[1_000, 10_000])
}

fn selected(series: &str) -> bool {
    std::env::var("SCALE_BENCH_ONLY").map_or(true, |only| only.split(',').any(|one| one.trim() == series))
}

/// Per-object figures of one implementation at each size, for the summary lines and
/// the charts (`scale_charts.rs`).
#[derive(Default)]
struct Curves {
    /// The size the figures recorded next belong to (see `at`).
    size: usize,
    series: Vec<(String, Vec<(usize, f64)>)>,
}

impl Curves {
    /// Figures recorded from now on are at `size` objects.
    fn at(&mut self, size: usize) {
        self.size = size;
    }

    fn record(&mut self, name: &str, per_object: f64) {
        let point = (self.size, per_object);
        match self.series.iter_mut().find(|(n, _)| n == name) {
            Some((_, values)) => values.push(point),
            None => self.series.push((name.to_owned(), vec![point])),
        }
    }

    /// The figure last recorded for `name`.
    fn last(&self, name: &str) -> Option<f64> {
        let (_, values) = self.series.iter().find(|(n, _)| n == name)?;
        values.last().map(|(_, value)| *value)
    }

    /// The growth line of each series, then its chart.
    fn summarize(&self) {
        for (name, values) in &self.series {
            if let (Some((_, first)), Some((_, last))) = (values.first(), values.last()) {
                println!(
                    "ratio bench=scale series={name} largest/smallest per_object={:.2}",
                    last / first
                );
            }
        }
        scale_charts::draw(&self.series);
    }
}

/// One informer's sync: how long, and the bytes it holds per object.
struct Ingest {
    sync: Duration,
    bytes_per_object: f64,
}

#[derive(Clone, Copy)]
enum Informer {
    /// Our default: managedFields skipped while decoding, and dropped.
    Ours,
    /// Ours, keeping managedFields (no transform).
    OursKeep,
    /// Ours, metadata only.
    OursMetadata,
    /// Ours, default transform, listing 5,000 a page instead of 500.
    OursLargePages,
    /// kube-runtime's reflector over its watcher, keeping managedFields.
    KubeReflector,
}

impl Informer {
    const ALL: [Informer; 5] = [
        Self::Ours,
        Self::OursKeep,
        Self::OursMetadata,
        Self::OursLargePages,
        Self::KubeReflector,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Ours => "wheelhouse",
            Self::OursKeep => "wheelhouse-keep",
            Self::OursMetadata => "wheelhouse-metadata",
            Self::OursLargePages => "wheelhouse-page5000",
            Self::KubeReflector => "kube-reflector",
        }
    }

    fn keeps(self) -> &'static str {
        match self {
            Self::Ours | Self::OursLargePages => "pod-without-managedFields",
            Self::OursKeep | Self::KubeReflector => "pod-with-managedFields",
            Self::OursMetadata => "metadata-without-managedFields",
        }
    }

    async fn ingest(self, env: &TestEnv, count: usize) -> Ingest {
        let baseline = settled_live_bytes().await;
        let start = Instant::now();
        let scope = Scope::namespace(env.namespace());
        let (sync, objects, bytes) = match self {
            Self::Ours | Self::OursKeep | Self::OursLargePages => {
                let cache = Cache::new(env.client());
                let options = match self {
                    Self::OursKeep => InformerOptions {
                        transform: None,
                        decode_managed_fields: true,
                        ..InformerOptions::default()
                    },
                    Self::OursLargePages => InformerOptions {
                        list_page_size: Some(5_000),
                        ..InformerOptions::default()
                    },
                    _ => InformerOptions::default(),
                };
                let informer = cache.informer_with::<Pod>(scope, options);
                cache.start();
                informer.wait_for_sync().await;
                let sync = start.elapsed();
                tokio::time::sleep(QUIET).await;
                let held = (sync, informer.store().len(), bytes_since(baseline));
                informer.stop();
                held
            }
            Self::OursMetadata => {
                let cache = Cache::new(env.client());
                let informer = cache.metadata_informer::<Pod>(scope);
                cache.start();
                informer.wait_for_sync().await;
                let sync = start.elapsed();
                tokio::time::sleep(QUIET).await;
                let held = (sync, informer.store().len(), bytes_since(baseline));
                informer.stop();
                held
            }
            Self::KubeReflector => {
                let api: Api<Pod> = Api::namespaced(env.client(), env.namespace());
                let (reader, writer) = reflector::store();
                let stream = reflector(writer, watcher(api, watcher::Config::default()));
                let task = tokio::spawn(stream.for_each(|_| std::future::ready(())));
                reader.wait_until_ready().await.expect("the reflector's writer lives");
                let sync = start.elapsed();
                tokio::time::sleep(QUIET).await;
                let held = (sync, reader.len(), bytes_since(baseline));
                task.abort();
                let _ = task.await;
                held
            }
        };
        assert_eq!(objects, count, "{} synced a partial list", self.name());
        Ingest {
            sync,
            bytes_per_object: bytes / as_f64(objects),
        }
    }
}

/// An embedded server holding `count` realistic Pods, and what it took to load them.
async fn loaded_server(count: usize, envtest: &mut Curves) -> TestEnv {
    let baseline = settled_live_bytes().await;
    // Without the garbage collector: the Pods' ReplicaSet owners are made up, and a
    // collector deletes what a missing owner owned.
    let options = ServerOptions {
        controllers: false,
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options)
        .await
        .expect("the embedded server starts");
    let api: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    // The server's bytes before it holds a Pod: what it costs whatever it stores.
    let empty = settled_live_bytes().await;
    let empty_server_bytes = empty.saturating_sub(baseline);
    let start = Instant::now();
    create_pods(&api, env.namespace(), 0..count as u64, IN_FLIGHT)
        .await
        .expect("the server takes the Pods");
    let loaded = start.elapsed();
    tokio::time::sleep(QUIET).await;
    let server_bytes = bytes_since(baseline) / as_f64(count);
    let stored_bytes = bytes_since(empty) / as_f64(count);
    let generated = realistic_pod(env.namespace(), 0);
    let generated_json = serde_json::to_vec(&generated).expect("encode").len();
    let name = generated.metadata.name.clone().unwrap_or_default();
    let stored = api.get(&name).await.expect("the first Pod");
    let stored_json = serde_json::to_vec(&stored).expect("encode").len();
    let managers: Vec<String> = stored
        .metadata
        .managed_fields
        .iter()
        .flatten()
        .map(|e| {
            format!(
                "{}/{}",
                e.manager.as_deref().unwrap_or("?"),
                e.subresource.as_deref().unwrap_or("-")
            )
        })
        .collect();
    let managed_json = |pod: &Pod| serde_json::to_vec(&pod.metadata.managed_fields).map_or(0, |b| b.len());
    println!(
        "setup size={count} loaded_ms={:.0} writes_per_pod=4 json_bytes_per_pod={stored_json} generated_json_bytes={generated_json} \
         server_managed_fields={} bytes (generated {}) managers={}",
        millis(loaded),
        managed_json(&stored),
        managed_json(&generated),
        managers.join(",")
    );
    if count == sizes_first() {
        use k8s_openapi::api::core::v1::{Container, ContainerStatus, PodSpec, PodStatus};
        use std::mem::size_of;
        println!(
            "breakdown size_of Pod={} ObjectMeta={} PodSpec={} Container={} PodStatus={} ContainerStatus={}",
            size_of::<Pod>(),
            size_of::<kube::api::ObjectMeta>(),
            size_of::<PodSpec>(),
            size_of::<Container>(),
            size_of::<PodStatus>(),
            size_of::<ContainerStatus>()
        );
    }
    if count == sizes_first() {
        where_the_bytes_go(env.namespace());
    }
    println!(
        "scale series=envtest-memory size={count} server_bytes_per_object={server_bytes:.0} | anchor json_bytes_per_object={stored_json} | ratio={:.2}",
        server_bytes / as_f64(stored_json)
    );
    println!(
        "bench=scale kind=envtest size={count} server_bytes_per_object={server_bytes:.0} json_bytes_per_object={stored_json} json_factor={:.2}",
        server_bytes / as_f64(stored_json)
    );
    println!(
        "breakdown envtest size={count} empty_server_bytes={empty_server_bytes} bytes_per_object_beyond_empty={stored_bytes:.0} factor_beyond_empty={:.2}",
        stored_bytes / as_f64(stored_json)
    );
    envtest.record("envtest-memory", server_bytes);
    env
}

/// Where a stored Pod's bytes went while the store kept decoded objects: the bytes one
/// version takes decoded into a `serde_json::Value`, beside its JSON (the store kept
/// one such tree per version within the watch window, four per Pod as loaded here).
fn where_the_bytes_go(namespace: &str) {
    let json = serde_json::to_vec(&realistic_pod(namespace, 0)).unwrap_or_default();
    let before = live_bytes();
    let decoded: serde_json::Value = serde_json::from_slice(&json).expect("a Pod's JSON");
    let tree = live_bytes().saturating_sub(before);
    std::hint::black_box(&decoded);
    drop(decoded);
    println!(
        "breakdown envtest value_tree_bytes={tree} json_bytes={} ({:.1}x)",
        json.len(),
        as_f64(tree) / as_f64(json.len())
    );
}

/// `gets` single-object reads of Pods (cycling through the `count` stored), their bytes
/// only (the server and the transport, no client decode): how long each takes.
async fn get_each(env: &TestEnv, count: usize, gets: usize) -> Duration {
    let start = Instant::now();
    for n in 0..gets {
        let name = realistic_pod(env.namespace(), (n % count) as u64)
            .metadata
            .name
            .unwrap_or_default();
        let request = http::Request::get(format!("/api/v1/namespaces/{}/pods/{name}", env.namespace()))
            .body(Vec::new())
            .expect("a get request");
        let body = env.client().request_text(request).await.expect("the Pod");
        std::hint::black_box(body);
    }
    start.elapsed()
}

/// A paginated list (500 a page, as an informer's) and a streaming-list watch of every
/// Pod, each per object.
async fn list_and_watch(env: &TestEnv, count: usize, envtest: &mut Curves) {
    let api: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let start = Instant::now();
    let mut params = ListParams::default().limit(500);
    let mut listed = 0;
    loop {
        let page = api.list(&params).await.expect("list page");
        listed += page.items.len();
        match page.metadata.continue_ {
            Some(token) if !token.is_empty() => params = params.continue_token(&token),
            _ => break,
        }
    }
    let list = start.elapsed();
    assert_eq!(listed, count);
    // Each watch three times, the median kept: one pass at 10,000 Pods is about a second,
    // which another process on the same cores can stretch by half.
    let (mut watches, mut raws, mut decodes) = (vec![], vec![], vec![]);
    for _ in 0..WATCH_RUNS {
        watches.push(watch_all(&api, count).await);
        // Where the watch's time goes: the same stream drained as bytes (the server and
        // the transport alone), then those lines decoded into Pods (the client's floor).
        let (raw, lines) = raw_watch(env, count).await;
        let start = Instant::now();
        for line in &lines {
            let event: kube::core::WatchEvent<Pod> = serde_json::from_slice(line).expect("a watch event");
            std::hint::black_box(event);
        }
        decodes.push(start.elapsed());
        raws.push(raw);
    }
    let (watch, raw, decode) = (median(watches), median(raws), median(decodes));
    let per = |elapsed: Duration| millis(elapsed) * 1000.0 / as_f64(count);
    let gets = count.min(GETS);
    let get = median(vec![
        get_each(env, count, gets).await,
        get_each(env, count, gets).await,
        get_each(env, count, gets).await,
    ]);
    let get_us = millis(get) * 1000.0 / as_f64(gets);
    println!("scale series=envtest-get size={count} gets={gets} get_us_per_object={get_us:.1}");
    envtest.record("envtest-get", get_us);
    println!(
        "scale series=envtest-list size={count} list_ms={:.0} list_us_per_object={:.1} | watch_ms={:.0} watch_us_per_object={:.1} \
         | watch_bytes_only_us_per_object={:.1} decode_only_us_per_object={:.1}",
        millis(list),
        per(list),
        millis(watch),
        per(watch),
        per(raw),
        per(decode)
    );
    envtest.record("envtest-list", per(list));
    envtest.record("envtest-watch", per(watch));
    envtest.record("envtest-watch-bytes-only", per(raw));
    envtest.record("envtest-watch-decode-only", per(decode));
}

/// Single-object gets timed at each size (each the median of three passes).
const GETS: usize = 1_000;

/// Runs of each watch, of which the median is kept.
const WATCH_RUNS: usize = 3;

/// How long kube-runtime's `watcher` with a streaming list takes to deliver all
/// `count` Pods of `api`, each decoded.
async fn watch_all(api: &Api<Pod>, count: usize) -> Duration {
    let start = Instant::now();
    let mut events = watcher(api.clone(), watcher::Config::default().streaming_lists()).boxed();
    let mut watched = 0;
    while let Some(event) = events.next().await {
        match event.expect("watch event") {
            watcher::Event::InitApply(_) => watched += 1,
            watcher::Event::InitDone => break,
            _ => {}
        }
    }
    let watch = start.elapsed();
    assert_eq!(watched, count);
    watch
}

/// A streaming-list watch of `env`'s Pods read as lines of bytes until its `count`
/// ADDED events are in: how long that took, and the lines.
async fn raw_watch(env: &TestEnv, count: usize) -> (Duration, Vec<Vec<u8>>) {
    use futures::AsyncBufReadExt;
    let request = kube::core::Request::new(format!("/api/v1/namespaces/{}/pods", env.namespace()))
        .watch(&kube::api::WatchParams::streaming_lists(), "0")
        .expect("a watch request");
    let start = Instant::now();
    let mut body = std::pin::pin!(env.client().request_stream(request).await.expect("the watch starts"));
    let mut lines = Vec::with_capacity(count);
    while lines.len() < count {
        let mut line = Vec::new();
        let read = body.read_until(b'\n', &mut line).await.expect("a watch line");
        assert!(read > 0, "the watch ended after {} events", lines.len());
        if line.starts_with(br#"{"type":"ADDED""#) {
            lines.push(line);
        }
    }
    (start.elapsed(), lines)
}

/// Builds the Go program at `program` (a path under `benches/clientgo`) into the
/// binary `name`, in a copy under the target directory: in GOPATH mode against the
/// vendored client-go of the Kubernetes tree `CLIENTGO_BENCH_K8S_TREE` names, else
/// with Go modules.
pub(crate) fn go_build(program: &str, name: &str) -> Result<PathBuf, String> {
    let go = std::env::var("CLIENTGO_BENCH_GO").unwrap_or_else(|_| "go".to_owned());
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/clientgo");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("clientgo-{name}"));
    let binary = root.join(format!("{name}-bench"));
    let mut command = Command::new(&go);
    if let Some(tree) = std::env::var_os("CLIENTGO_BENCH_K8S_TREE") {
        let package = root.join("gopath/src").join(name);
        let _ = std::fs::remove_dir_all(&package);
        std::fs::create_dir_all(&package).map_err(|e| format!("{}: {e}", package.display()))?;
        std::fs::copy(source.join(program), package.join("main.go")).map_err(|e| e.to_string())?;
        link_vendor(Path::new(&tree), &package.join("vendor"))?;
        command
            .current_dir(&package)
            .env("GO111MODULE", "off")
            .env("GOPATH", root.join("gopath"))
            .env("GOFLAGS", "");
    } else {
        let copy = root.join("module");
        let directory = Path::new(program).parent().unwrap_or(Path::new(""));
        std::fs::create_dir_all(copy.join(directory)).map_err(|e| e.to_string())?;
        for file in [Path::new("go.mod"), Path::new(program)] {
            std::fs::copy(source.join(file), copy.join(file)).map_err(|e| e.to_string())?;
        }
        command.current_dir(copy.join(directory)).env("GOFLAGS", "-mod=mod");
    }
    let output = command
        .args(["build", "-o"])
        .arg(&binary)
        .arg(".")
        .output()
        .map_err(|e| format!("{go}: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last: Vec<&str> = stderr.lines().rev().take(2).collect();
        return Err(format!("go build failed: {}", last.join(" / ")));
    }
    Ok(binary)
}

/// Makes `vendor` the tree's `vendor/`: a link to it when it holds client-go (trees
/// before 1.30 or so), else a directory of links to its entries with client-go and
/// apimachinery taken from the tree's `staging/` (later trees resolve those through a
/// Go workspace, which GOPATH mode does not read).
fn link_vendor(tree: &Path, vendor: &Path) -> Result<(), String> {
    let link = |from: &Path, to: &Path| {
        std::os::unix::fs::symlink(from, to).map_err(|e| format!("linking {}: {e}", from.display()))
    };
    let theirs = tree.join("vendor");
    if theirs.join("k8s.io/client-go").exists() {
        return link(&theirs, vendor);
    }
    let entries = |directory: &Path| -> Result<Vec<std::fs::DirEntry>, String> {
        std::fs::read_dir(directory)
            .and_then(Iterator::collect)
            .map_err(|e| format!("{}: {e}", directory.display()))
    };
    std::fs::create_dir_all(vendor.join("k8s.io")).map_err(|e| e.to_string())?;
    for entry in entries(&theirs)? {
        if entry.file_name() != "k8s.io" && entry.path().is_dir() {
            link(&entry.path(), &vendor.join(entry.file_name()))?;
        }
    }
    for entry in entries(&theirs.join("k8s.io"))? {
        link(&entry.path(), &vendor.join("k8s.io").join(entry.file_name()))?;
    }
    for staged in ["client-go", "apimachinery"] {
        link(
            &tree.join("staging/src/k8s.io").join(staged),
            &vendor.join("k8s.io").join(staged),
        )?;
    }
    Ok(())
}

/// client-go's shared informer, built from `benches/clientgo/informer`.
struct ClientGo {
    binary: PathBuf,
}

impl ClientGo {
    fn build() -> Result<Self, String> {
        go_build("informer/main.go", "informer").map(|binary| Self { binary })
    }

    /// One sync of the `count` Pods of `namespace` on the server at `url`.
    async fn ingest(&self, url: String, namespace: &str, count: usize) -> Result<Ingest, String> {
        let mut command = Command::new(&self.binary);
        command.args([url, namespace.to_owned(), count.to_string()]);
        let output = tokio::task::spawn_blocking(move || command.output())
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            return Err(format!(
                "the informer failed: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let field = |name: &str| {
            stdout
                .split_whitespace()
                .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('=')?.parse::<f64>().ok())
                .ok_or_else(|| format!("no {name} in {stdout:?}"))
        };
        Ok(Ingest {
            sync: Duration::from_secs_f64(field("sync_ms")? / 1000.0),
            bytes_per_object: field("bytes_per_object")?,
        })
    }
}

/// Each informer's sync of the `count` Pods `env` holds, on one line.
/// The most this process may hold at once, in bytes (`SCALE_BENCH_MEMORY_BUDGET_GB`,
/// default 8): the machine's memory is shared with other work.
fn memory_budget() -> f64 {
    let gigabytes = std::env::var("SCALE_BENCH_MEMORY_BUDGET_GB")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(8.0);
    gigabytes * f64::from(1u32 << 30)
}

async fn cache_series(env: &TestEnv, served: Option<(&ClientGo, String)>, count: usize, cache: &mut Curves) {
    let mut parts = Vec::new();
    let mut ingests = Vec::new();
    for informer in Informer::ALL {
        // An informer whose bytes per object at the last size, times this size, would
        // take the process past its budget is left out, with the estimate that says so.
        let bytes = format!("cache-bytes-{}", informer.name());
        if let Some(per_object) = cache.last(&bytes) {
            let (live, estimate) = (as_f64(live_bytes()), per_object * as_f64(count));
            if live + estimate > memory_budget() {
                println!(
                    "skipped bench=scale kind=cache impl={} size={count}: would hold about {:.1} GB ({per_object:.0} bytes per object at the last size) beside the {:.1} GB live, past the {:.1} GB budget (SCALE_BENCH_MEMORY_BUDGET_GB)",
                    informer.name(),
                    estimate / 1e9,
                    live / 1e9,
                    memory_budget() / 1e9
                );
                continue;
            }
        }
        let ingest = informer.ingest(env, count).await;
        let sync_us = millis(ingest.sync) * 1000.0 / as_f64(count);
        cache.record(&bytes, ingest.bytes_per_object);
        cache.record(&format!("cache-sync-{}", informer.name()), sync_us);
        parts.push(format!(
            "{} keeps={} bytes_per_object={:.0} sync_ms={:.0} sync_us_per_object={sync_us:.1}",
            informer.name(),
            informer.keeps(),
            ingest.bytes_per_object,
            millis(ingest.sync)
        ));
        println!(
            "bench=scale kind=cache size={count} impl={} bytes_per_object={:.0} sync_us_per_object={sync_us:.1}",
            informer.name(),
            ingest.bytes_per_object
        );
        ingests.push((informer.name(), ingest));
    }
    let find = |name: &str| ingests.iter().find(|(n, _)| *n == name).map(|(_, ingest)| ingest);
    let Some(ours) = find(Informer::Ours.name()) else {
        println!("scale series=cache size={count} {}", parts.join(" | "));
        return;
    };
    let mut ratios = find(Informer::KubeReflector.name()).map_or_else(
        || "ratio wheelhouse/kube-reflector skipped".to_owned(),
        |kube| {
            format!(
                "ratio wheelhouse/kube-reflector bytes={:.2} sync={:.2}",
                ours.bytes_per_object / kube.bytes_per_object,
                ours.sync.as_secs_f64() / kube.sync.as_secs_f64()
            )
        },
    );
    if let Some((client_go, url)) = served {
        match client_go.ingest(url, env.namespace(), count).await {
            Ok(go) => {
                let sync_us = millis(go.sync) * 1000.0 / as_f64(count);
                println!(
                    "bench=scale kind=cache size={count} impl=client-go bytes_per_object={:.0} sync_us_per_object={sync_us:.1}",
                    go.bytes_per_object
                );
                cache.record("cache-bytes-client-go", go.bytes_per_object);
                cache.record("cache-sync-client-go", sync_us);
                parts.push(format!(
                    "client-go keeps=pod-with-managedFields bytes_per_object={:.0} sync_ms={:.0} sync_us_per_object={sync_us:.1}",
                    go.bytes_per_object,
                    millis(go.sync)
                ));
                ratios = format!(
                    "{ratios} | ratio wheelhouse/client-go bytes={:.2} sync={:.2}",
                    ours.bytes_per_object / go.bytes_per_object,
                    ours.sync.as_secs_f64() / go.sync.as_secs_f64()
                );
            }
            Err(why) => println!("client-go anchor skipped: {why}"),
        }
    }
    println!("scale series=cache size={count} {} | {ratios}", parts.join(" | "));
}

/// Fills the process-wide caches the embedded server builds on first use (the
/// resolved schemas, the field-ownership types, the Go encoding facts): one
/// server stores one Pod, then stops. Those caches are the process's, shared by every
/// server it starts and never freed, so the first size measured would otherwise count
/// them as bytes of its own Pods. Prints what they hold.
async fn warm_process_caches() {
    let before = settled_live_bytes().await;
    let options = ServerOptions {
        controllers: false,
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options)
        .await
        .expect("the embedded server starts");
    let api: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    create_pods(&api, env.namespace(), 0..1, 1)
        .await
        .expect("the server takes a Pod");
    drop(api);
    env.stop().await;
    let kept = settled_live_bytes().await.saturating_sub(before);
    println!(
        "breakdown envtest process_caches_bytes={kept} (kept by the process after its first server stored a Pod and stopped)"
    );
}

async fn cache_and_envtest(sizes: &[usize], client_go: Option<&ClientGo>) {
    let mut cache = Curves::default();
    let mut envtest = Curves::default();
    warm_process_caches().await;
    for &count in sizes {
        cache.at(count);
        envtest.at(count);
        let mut env = loaded_server(count, &mut envtest).await;
        if selected("cache") {
            let served = match client_go {
                Some(client_go) => match env.serve_http(([127, 0, 0, 1], 0).into()).await {
                    Ok(addr) => Some((client_go, format!("http://{addr}"))),
                    Err(error) => {
                        println!("client-go anchor skipped: serving the embedded server: {error}");
                        None
                    }
                },
                None => None,
            };
            cache_series(&env, served, count, &mut cache).await;
        }
        if selected("envtest") {
            list_and_watch(&env, count, &mut envtest).await;
        }
        env.stop().await;
    }
    cache.summarize();
    envtest.summarize();
}

fn main() {
    let runtime = runtime();
    if selected("cache") || selected("envtest") {
        let sizes = cache_sizes();
        let client_go = if selected("cache") {
            ClientGo::build()
                .map_err(|why| println!("client-go anchor skipped: {why}"))
                .ok()
        } else {
            None
        };
        runtime.block_on(cache_and_envtest(&sizes, client_go.as_ref()));
    }
    if selected("workqueue") {
        let sizes = sizes("SCALE_BENCH_QUEUE_SIZES", &[10_000, 100_000, 1_000_000]);
        scale_workqueue::workqueue(&runtime, &sizes);
    }
    if selected("reconcile") {
        let sizes = sizes("SCALE_BENCH_RECONCILE_SIZES", &[1_000]);
        scale_reconcile::reconcile(&runtime, &sizes);
    }
}
