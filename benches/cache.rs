//! `cargo bench --bench cache`: our informer against kube-runtime's reflector, in the
//! same process and the same run, over the embedded API server.
//!
//! - Ingest: `CACHE_BENCH_OBJECTS` `ConfigMaps` (default 50,000, 1 KiB of data each) are
//!   created before timing; then each implementation starts, and we time it from start
//!   to synced and count the bytes it holds per stored object once its watch is quiet.
//!   The anchor is `reflector(store_writer, watcher(api, watcher::Config::default()))`.
//!   The two alternate over `CACHE_BENCH_RUNS` runs (default 3); figures are medians.
//! - Fan-out: one informer, 8 subscribers each draining its subscription in its own
//!   task, `CACHE_BENCH_UPDATES` updates (default 100,000) made on the server as fast as
//!   the client can with 16 in flight; events/s delivered to all 8. The anchor is
//!   kube's reflector feeding a `tokio::sync::broadcast` channel with 8 receivers.
//!
//! `CACHE_BENCH_ONLY=ingest` or `=fanout` runs one of the two. The `breakdown` lines
//! say where one object's bytes go (each part's heap, freed part by part);
//! `CACHE_BENCH_DIAG=1` adds decode times and our sync time over other list strategies.
//!
//! Memory is counted by a global allocator that tracks live bytes (the `cap` crate, as
//! the workspace forbids `unsafe`): bytes requested and not yet freed, without the
//! allocator's own per-block overhead. A figure is the live bytes after sync minus the
//! live bytes just before start, divided by the objects stored. The embedded server
//! runs in the same process: its own store was allocated before the baseline and stays
//! put, so only what it holds per watch (the same for both) lands in the difference.
//!
//! Targets, as the wheelhouse figure over kube-runtime's: bytes per object
//! ≤ 0.45 and sync time ≤ 0.8.

#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::alloc::System;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cap::Cap;
use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::{WatchStreamExt, reflector, watcher};
use serde_json::json;
use support::{as_f64, median, millis, runtime, setting};
use wheelhouse_cache::{Cache, Event, Informer, InformerOptions, Scope};
use wheelhouse_envtest::TestEnv;

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

const DATA_BYTES: usize = 1024;
const SUBSCRIBERS: usize = 8;
const FANOUT_OBJECTS: usize = 1_000;
const IN_FLIGHT: usize = 16;
/// How long the watch must have been idle before live bytes are read.
const QUIET: Duration = Duration::from_millis(300);
/// A subscriber that hears nothing for this long has received all it will.
const SILENCE: Duration = Duration::from_secs(5);

fn live_bytes() -> usize {
    ALLOCATOR.allocated()
}

fn configmap(n: usize) -> ConfigMap {
    let mut config = ConfigMap::default();
    config.metadata.name = Some(format!("object-{n}"));
    config.data = Some([("data".to_owned(), "x".repeat(DATA_BYTES))].into());
    config
}

async fn create_all(api: &Api<ConfigMap>, count: usize, make: fn(usize) -> ConfigMap) {
    let mut creates = futures::stream::iter(0..count)
        .map(|n| {
            let api = api.clone();
            async move { api.create(&PostParams::default(), &make(n)).await.expect("create") }
        })
        .buffer_unordered(IN_FLIGHT);
    while creates.next().await.is_some() {}
}

/// One implementation's ingest: how long it took to sync and what it holds.
struct Ingest {
    sync: Duration,
    objects: usize,
    bytes: isize,
}

impl Ingest {
    fn bytes_per_object(&self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "byte totals fit an f64 exactly enough")]
        let bytes = self.bytes as f64;
        bytes / as_f64(self.objects)
    }
}

fn bytes_since(baseline: usize) -> isize {
    let now = isize::try_from(live_bytes()).expect("live bytes fit an isize");
    now - isize::try_from(baseline).expect("live bytes fit an isize")
}

async fn ingest_wheelhouse(client: kube::Client, namespace: &str, count: usize) -> Ingest {
    tokio::time::sleep(QUIET).await;
    let baseline = live_bytes();
    let start = Instant::now();
    let cache = Cache::new(client);
    let informer = cache.informer::<ConfigMap>(Scope::namespace(namespace));
    cache.start();
    informer.wait_for_sync().await;
    let sync = start.elapsed();
    tokio::time::sleep(QUIET).await;
    let bytes = bytes_since(baseline);
    let objects = informer.store().len();
    assert_eq!(objects, count, "our informer synced a partial list");
    informer.stop();
    drop(informer);
    drop(cache);
    Ingest { sync, objects, bytes }
}

async fn ingest_kube(api: Api<ConfigMap>, count: usize) -> Ingest {
    tokio::time::sleep(QUIET).await;
    let baseline = live_bytes();
    let start = Instant::now();
    let (reader, writer) = reflector::store();
    let stream = reflector(writer, watcher(api, watcher::Config::default()));
    let task = tokio::spawn(stream.for_each(|_| std::future::ready(())));
    reader.wait_until_ready().await.expect("the reflector's writer lives");
    let sync = start.elapsed();
    tokio::time::sleep(QUIET).await;
    let bytes = bytes_since(baseline);
    let objects = reader.len();
    assert_eq!(objects, count, "kube's reflector synced a partial list");
    task.abort();
    let _ = task.await;
    drop(reader);
    Ingest { sync, objects, bytes }
}

fn report_ingest(name: &str, runs: &[Ingest]) -> (f64, f64) {
    let sync_ms = median(runs.iter().map(|r| millis(r.sync)).collect());
    let bytes = median(runs.iter().map(Ingest::bytes_per_object).collect());
    let objects = runs[0].objects;
    println!(
        "bench=ingest impl={name} objects={objects} sync_ms={sync_ms:.0} objects_per_s={:.0} bytes_per_object={bytes:.0}",
        as_f64(objects) / (sync_ms / 1000.0)
    );
    (sync_ms, bytes)
}

/// Prints how many bytes dropping one part of `object` frees.
fn freed(object: &mut ConfigMap, part: &str, take: fn(&mut ConfigMap)) {
    let before = live_bytes();
    take(object);
    println!("breakdown part={part} bytes={}", before.saturating_sub(live_bytes()));
}

/// Where one stored object's bytes go: the heap of each part of a `ConfigMap` as the
/// client decodes it, measured by dropping the parts one by one.
fn breakdown(mut object: ConfigMap) {
    let json = serde_json::to_string(&object).expect("encode");
    println!(
        "breakdown object_json_bytes={} managed_fields={}",
        json.len(),
        serde_json::to_string(&object.metadata.managed_fields).expect("encode")
    );
    println!(
        "breakdown part=struct(ArcInner<ConfigMap>) bytes={}",
        std::mem::size_of::<ConfigMap>() + 2 * std::mem::size_of::<usize>()
    );
    freed(&mut object, "metadata.managedFields", |o| {
        drop(o.metadata.managed_fields.take());
    });
    let strings: usize = object
        .data
        .iter()
        .flatten()
        .map(|(k, v)| k.capacity() + v.capacity())
        .sum();
    println!("breakdown part=data.strings bytes={strings}");
    freed(&mut object, "data(map+strings)", |o| drop(o.data.take()));
    freed(&mut object, "metadata.name", |o| drop(o.metadata.name.take()));
    freed(&mut object, "metadata.namespace", |o| drop(o.metadata.namespace.take()));
    freed(&mut object, "metadata.uid", |o| drop(o.metadata.uid.take()));
    freed(&mut object, "metadata.resourceVersion", |o| {
        drop(o.metadata.resource_version.take());
    });
    freed(&mut object, "metadata.labels", |o| drop(o.metadata.labels.take()));
    freed(&mut object, "metadata.annotations", |o| {
        drop(o.metadata.annotations.take());
    });
    freed(&mut object, "rest", |o| *o = ConfigMap::default());
}

async fn ingest(runs: usize) {
    let count = setting("CACHE_BENCH_OBJECTS", 50_000);
    let env = TestEnv::embedded().await.expect("the embedded server starts");
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let start = Instant::now();
    create_all(&api, count, configmap).await;
    println!("setup: created {count} ConfigMaps in {:.0} ms", millis(start.elapsed()));
    breakdown(api.get("object-0").await.expect("get"));

    let mut ours = Vec::new();
    let mut anchor = Vec::new();
    for run in 0..runs {
        // Alternate which goes first, so neither always runs on a warmer heap.
        if run % 2 == 0 {
            ours.push(ingest_wheelhouse(env.client(), env.namespace(), count).await);
            anchor.push(ingest_kube(api.clone(), count).await);
        } else {
            anchor.push(ingest_kube(api.clone(), count).await);
            ours.push(ingest_wheelhouse(env.client(), env.namespace(), count).await);
        }
        let (o, a) = (&ours[run], &anchor[run]);
        println!(
            "run={run} wheelhouse sync_ms={:.0} bytes_per_object={:.0} | kube-reflector sync_ms={:.0} bytes_per_object={:.0}",
            millis(o.sync),
            o.bytes_per_object(),
            millis(a.sync),
            a.bytes_per_object()
        );
    }
    if std::env::var("CACHE_BENCH_DIAG").is_ok_and(|v| v == "1") {
        diagnose_sync(&env, runs, count).await;
    }
    let (our_ms, our_bytes) = report_ingest("wheelhouse", &ours);
    let (kube_ms, kube_bytes) = report_ingest("kube-reflector", &anchor);
    println!(
        "ratio bench=ingest bytes_per_object={:.2} sync_time={:.2}",
        our_bytes / kube_bytes,
        our_ms / kube_ms
    );
    env.stop().await;
}

/// Sync time of our informer over a watcher with `config`, and of a plain paginated
/// list (the floor: no informer can sync faster than it can list), for choosing the
/// informer's default list strategy. `CACHE_BENCH_DIAG=1` prints them.
async fn diagnose_sync(env: &TestEnv, runs: usize, count: usize) {
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let configs = [
        ("page_size=500", watcher::Config::default()),
        ("page_size=5000", watcher::Config::default().page_size(5000)),
        ("page_size=50000", watcher::Config::default().page_size(50_000)),
        ("streaming_lists", watcher::Config::default().streaming_lists()),
    ];
    let mut items = api.list(&ListParams::default()).await.expect("list").items;
    let with = serde_json::to_vec(&items).expect("encode");
    for item in &mut items {
        item.metadata.managed_fields = None;
    }
    let without = serde_json::to_vec(&items).expect("encode");
    drop(items);
    for (label, body) in [("with_managed_fields", with), ("without_managed_fields", without)] {
        let start = Instant::now();
        let items: Vec<ConfigMap> = serde_json::from_slice(&body).expect("decode");
        let decode = start.elapsed();
        drop(items);
        println!("diag decode {label} bytes={} ms={:.0}", body.len(), millis(decode));
    }
    for (label, config) in configs {
        let mut informer_ms = Vec::new();
        let mut list_ms = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let source = watcher(api.clone(), config.clone()).default_backoff().boxed();
            let informer = Informer::new("diag", source, InformerOptions::default(), None);
            informer.start();
            informer.wait_for_sync().await;
            informer_ms.push(millis(start.elapsed()));
            assert_eq!(informer.store().len(), count);
            informer.stop();
            drop(informer);
            if let Some(limit) = config
                .page_size
                .filter(|_| config.initial_list_strategy == watcher::InitialListStrategy::ListWatch)
            {
                let start = Instant::now();
                let mut params = ListParams::default().limit(limit);
                let mut items = 0;
                loop {
                    let page = api.list(&params).await.expect("list page");
                    items += page.items.len();
                    match page.metadata.continue_ {
                        Some(token) if !token.is_empty() => params = params.continue_token(&token),
                        _ => break,
                    }
                }
                assert_eq!(items, count);
                list_ms.push(millis(start.elapsed()));
            }
        }
        let list = if list_ms.is_empty() {
            String::new()
        } else {
            format!(" list_only_ms={:.0}", median(list_ms))
        };
        println!(
            "diag bench=ingest impl=wheelhouse {label} sync_ms={:.0}{list}",
            median(informer_ms)
        );
    }
}

/// What the subscribers of one fan-out run received, and when the last event came.
struct Received {
    events: usize,
    lagged: usize,
    last: Instant,
}

/// One fan-out run: how fast the server took the updates, and what reached the
/// subscribers how soon after the first update.
struct Fanout {
    patched: Duration,
    delivered: Duration,
    events: usize,
    lagged: usize,
}

impl Fanout {
    fn events_per_s(&self) -> f64 {
        as_f64(self.events) / self.delivered.as_secs_f64()
    }
}

/// Numbers every update, so that no patch ever repeats a value (the server would
/// drop it as a no-op and no event would follow).
static UPDATES_MADE: AtomicUsize = AtomicUsize::new(0);

async fn make_updates(api: &Api<ConfigMap>, updates: usize) {
    let first = UPDATES_MADE.fetch_add(updates, Ordering::Relaxed);
    let mut patches = futures::stream::iter(0..updates)
        .map(|n| {
            let api = api.clone();
            // Object by object in turn, so the updates in flight touch different objects.
            let object = n % FANOUT_OBJECTS;
            async move {
                let patch = json!({ "data": { "round": (first + n).to_string() } });
                api.patch(
                    &format!("object-{object}"),
                    &PatchParams::default(),
                    &Patch::Merge(&patch),
                )
                .await
                .expect("patch")
            }
        })
        .buffer_unordered(IN_FLIGHT);
    while patches.next().await.is_some() {}
}

fn small_configmap(n: usize) -> ConfigMap {
    let mut config = ConfigMap::default();
    config.metadata.name = Some(format!("object-{n}"));
    config.data = Some([("round".to_owned(), "created".to_owned())].into());
    config
}

/// Makes the updates, then waits for the subscribers (each counting until it has
/// `updates` events or hears nothing for [`SILENCE`]).
async fn measure_fanout(
    api: &Api<ConfigMap>,
    updates: usize,
    subscribers: Vec<tokio::task::JoinHandle<Received>>,
) -> Fanout {
    let start = Instant::now();
    make_updates(api, updates).await;
    let patched = start.elapsed();
    let mut run = Fanout {
        patched,
        delivered: patched,
        events: 0,
        lagged: 0,
    };
    for subscriber in subscribers {
        let received = subscriber.await.expect("subscriber");
        run.events += received.events;
        run.lagged += received.lagged;
        run.delivered = run.delivered.max(received.last.duration_since(start));
    }
    run
}

fn received(last: Instant) -> Received {
    Received {
        events: 0,
        lagged: 0,
        last,
    }
}

async fn fanout_wheelhouse(env: &TestEnv, updates: usize) -> Fanout {
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(Scope::namespace(env.namespace()));
    cache.start();
    informer.wait_for_sync().await;
    let subscribers = (0..SUBSCRIBERS)
        .map(|_| {
            let mut subscription = informer.subscribe();
            tokio::spawn(async move {
                let mut received = received(Instant::now());
                while received.events < updates {
                    match tokio::time::timeout(SILENCE, subscription.recv()).await {
                        Ok(Some(Event::Updated { .. })) => {
                            received.events += 1;
                            received.last = Instant::now();
                        }
                        Ok(Some(Event::Lagged)) => received.lagged += 1,
                        Ok(Some(_)) => {}
                        Ok(None) | Err(_) => break,
                    }
                }
                received
            })
        })
        .collect();
    let run = measure_fanout(&api, updates, subscribers).await;
    informer.stop();
    run
}

async fn fanout_kube(env: &TestEnv, updates: usize) -> Fanout {
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let (sender, _) = tokio::sync::broadcast::channel::<Arc<ConfigMap>>(4096);
    let (reader, writer) = reflector::store();
    let stream = reflector(writer, watcher(api.clone(), watcher::Config::default()));
    let publish = sender.clone();
    let task = tokio::spawn(stream.for_each(move |event| {
        if let Ok(watcher::Event::Apply(object)) = event {
            let _ = publish.send(Arc::new(object));
        }
        std::future::ready(())
    }));
    reader.wait_until_ready().await.expect("the reflector's writer lives");
    let subscribers = (0..SUBSCRIBERS)
        .map(|_| {
            let mut channel = sender.subscribe();
            tokio::spawn(async move {
                let mut received = received(Instant::now());
                while received.events < updates {
                    match tokio::time::timeout(SILENCE, channel.recv()).await {
                        Ok(Ok(_)) => {
                            received.events += 1;
                            received.last = Instant::now();
                        }
                        Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => received.lagged += 1,
                        Ok(Err(_)) | Err(_) => break,
                    }
                }
                received
            })
        })
        .collect();
    let run = measure_fanout(&api, updates, subscribers).await;
    task.abort();
    run
}

fn report_fanout(name: &str, updates: usize, runs: &[Fanout]) -> f64 {
    let events_per_s = median(runs.iter().map(Fanout::events_per_s).collect());
    let updates_per_s = median(runs.iter().map(|r| as_f64(updates) / r.patched.as_secs_f64()).collect());
    let events = runs.iter().map(|r| r.events).min().unwrap_or_default();
    let lagged: usize = runs.iter().map(|r| r.lagged).sum();
    println!(
        "bench=fanout impl={name} subscribers={SUBSCRIBERS} updates={updates} events_per_s={events_per_s:.0} \
         (server took updates at {updates_per_s:.0}/s; fewest events delivered in a run {events}, lags {lagged})"
    );
    events_per_s
}

async fn fanout(runs: usize) {
    let updates = setting("CACHE_BENCH_UPDATES", 100_000);
    let env = TestEnv::embedded().await.expect("the embedded server starts");
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    create_all(&api, FANOUT_OBJECTS, small_configmap).await;
    let mut ours = Vec::new();
    let mut anchor = Vec::new();
    for run in 0..runs {
        if run % 2 == 0 {
            ours.push(fanout_wheelhouse(&env, updates).await);
            anchor.push(fanout_kube(&env, updates).await);
        } else {
            anchor.push(fanout_kube(&env, updates).await);
            ours.push(fanout_wheelhouse(&env, updates).await);
        }
        println!(
            "run={run} wheelhouse events_per_s={:.0} events={} | kube-reflector+broadcast events_per_s={:.0} events={}",
            ours[run].events_per_s(),
            ours[run].events,
            anchor[run].events_per_s(),
            anchor[run].events
        );
    }
    let our_rate = report_fanout("wheelhouse", updates, &ours);
    let kube_rate = report_fanout("kube-reflector+broadcast", updates, &anchor);
    println!("ratio bench=fanout events_per_s={:.2}", our_rate / kube_rate);
    env.stop().await;
}

fn main() {
    let runtime = runtime();
    let runs = setting("CACHE_BENCH_RUNS", 3).max(1);
    println!(
        "cache bench: {} tokio worker threads, {runs} runs",
        runtime.metrics().num_workers()
    );
    let only = std::env::var("CACHE_BENCH_ONLY").unwrap_or_default();
    runtime.block_on(async {
        if only.is_empty() || only == "ingest" {
            ingest(runs).await;
        }
        if only.is_empty() || only == "fanout" {
            fanout(runs).await;
        }
    });
}
