//! `cargo bench --bench workqueue`: our queue against two anchors in the same run.
//!
//! - W1, dedup churn: 2 producers each add 500,000 keys drawn round-robin from 10,000
//!   distinct `default/object-N` strings; 4 workers `get`/`done` with no work; timed
//!   until the producers are done and the queue has drained.
//! - W2, unique: 1 producer adds 1,000,000 distinct keys; 4 workers; timed until all
//!   are processed.
//!
//! Anchors: an unbounded `flume` channel shared by the same producers and workers (the
//! limit: an MPMC queue with no dedup and no per-key bookkeeping), and
//! `kube::runtime::scheduler` (dedup of pending keys; a single consumer stream, since it
//! has no get/done). Producers yield to the runtime every `WQ_BENCH_YIELD_EVERY` adds
//! (default 64), as an informer does between watch events, so workers run while keys
//! arrive. The setting matters: the rarer the yields, the longer the queue grows, and
//! the more of W1's adds our queue deduplicates while a channel must carry them all.
//!
//! A third workload explains the first two rather than setting a target:
//! - S, serial cost: on one thread, with no runtime and nobody to wake, 64 adds then a
//!   worker loop of 64 `get().await`/`done`, over 1,000,000 distinct keys; the same for
//!   flume (64 sends, a loop of 64 `recv_async().await`). It is what each
//!   implementation costs per key by itself, and it bounds W2, whose producer and
//!   workers mostly take turns on one thread (see the README).
//!   Beside it, two parts every key of our queue pays: a mutex lock and unlock (three
//!   per key: `add`, `get`, `done`; a channel takes two) and a clone and drop of the
//!   key (`get` hands out a copy, which a channel does not make).
//!
//! Two more anchors run when a Go toolchain is on the `PATH` (or named by `WQ_BENCH_GO`):
//! client-go's workqueue and a Go channel, on the same workloads, from `benches/clientgo`,
//! built with `go build` in a copy under `target/` (it fetches client-go, so it needs the
//! Go module proxy). Each of their runs is a process of its own, alternating with ours;
//! without Go, or if the build fails, the bench says so and goes on without them.
//!
//! Each figure is the median of `WQ_BENCH_RUNS` runs (default 5) after one warm-up.
//! `WQ_BENCH_ONLY=W2/wheelhouse` runs one measurement alone, for profiling; `WQ_BENCH_ONLY=S`
//! runs the serial workload alone.

#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::path::Path;
use std::pin::pin;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{FutureExt, StreamExt};
use kube::runtime::scheduler::{ScheduleRequest, scheduler};
use support::queues::{self, Keys};
use support::{median, per_second, runtime, setting};
use wheelhouse_workqueue::WorkQueue;

const DEFAULT_YIELD_EVERY: usize = 64;
const W1_PRODUCERS: usize = 2;
const W1_ADDS_PER_PRODUCER: usize = 500_000;
const W1_DISTINCT_KEYS: usize = 10_000;
const W2_KEYS: usize = 1_000_000;
const S_KEYS: usize = 1_000_000;
const S_BATCH: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Workload {
    W1,
    W2,
}

impl Workload {
    fn name(self) -> &'static str {
        match self {
            Workload::W1 => "W1",
            Workload::W2 => "W2",
        }
    }

    fn adds(self) -> usize {
        match self {
            Workload::W1 => W1_PRODUCERS * W1_ADDS_PER_PRODUCER,
            Workload::W2 => W2_KEYS,
        }
    }

    /// The producers' keys, made before timing; W1 clones a shared key per add, as a
    /// handler turning an event into a key would.
    fn producers(self) -> Vec<Keys> {
        match self {
            Workload::W1 => {
                let distinct: Arc<Vec<String>> =
                    Arc::new((0..W1_DISTINCT_KEYS).map(|n| format!("default/object-{n}")).collect());
                (0..W1_PRODUCERS)
                    .map(|_| {
                        let distinct = distinct.clone();
                        let keys = (0..W1_ADDS_PER_PRODUCER).map(move |n| distinct[n % W1_DISTINCT_KEYS].clone());
                        Box::new(keys) as Keys
                    })
                    .collect()
            }
            Workload::W2 => {
                let keys: Vec<String> = (0..W2_KEYS).map(|n| format!("default/object-{n}")).collect();
                vec![Box::new(keys.into_iter())]
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Wheelhouse,
    Flume,
    KubeScheduler,
    /// client-go's workqueue, run by `benches/clientgo`.
    ClientGo,
    /// A Go channel, run by `benches/clientgo`.
    GoChannel,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Wheelhouse => "wheelhouse",
            Anchor::Flume => "flume",
            Anchor::KubeScheduler => "kube-scheduler",
            Anchor::ClientGo => "client-go",
            Anchor::GoChannel => "go-channel",
        }
    }

    /// One timed run of `workload`.
    fn measure(self, workload: Workload, runtime: &tokio::runtime::Runtime, go: Option<&GoBench>) -> Duration {
        let producers = || workload.producers();
        match self {
            Anchor::Wheelhouse => runtime.block_on(queues::wheelhouse(producers(), yield_every())),
            Anchor::Flume => runtime.block_on(queues::flume_channel(producers(), yield_every())),
            Anchor::KubeScheduler => runtime.block_on(kube_scheduler(producers())),
            Anchor::ClientGo | Anchor::GoChannel => go.expect("Go anchors run only once built").measure(workload, self),
        }
    }
}

fn yield_every() -> usize {
    setting("WQ_BENCH_YIELD_EVERY", DEFAULT_YIELD_EVERY).max(1)
}

async fn kube_scheduler(producers: Vec<Keys>) -> Duration {
    let (sender, receiver) = futures::channel::mpsc::unbounded::<ScheduleRequest<String>>();
    let start = Instant::now();
    let consumer = tokio::spawn(async move {
        let mut scheduled = pin!(scheduler(receiver));
        while scheduled.next().await.is_some() {}
    });
    let producers: Vec<_> = producers
        .into_iter()
        .map(|keys| {
            let sender = sender.clone();
            tokio::spawn(queues::produce(keys, yield_every(), move |message| {
                let request = ScheduleRequest {
                    message,
                    run_at: tokio::time::Instant::now(),
                };
                sender.unbounded_send(request).expect("the scheduler is alive");
            }))
        })
        .collect();
    drop(sender);
    for producer in producers {
        producer.await.expect("producer panicked");
    }
    consumer.await.expect("consumer panicked");
    start.elapsed()
}

fn serial_keys() -> Vec<String> {
    (0..S_KEYS).map(|n| format!("default/object-{n}")).collect()
}

fn serial_wheelhouse(keys: Vec<String>) -> Duration {
    let queue: WorkQueue<String> = WorkQueue::new();
    let start = Instant::now();
    let mut keys = keys.into_iter();
    loop {
        let batch = keys.by_ref().take(S_BATCH).map(|key| queue.add(key)).count();
        if batch == 0 {
            break;
        }
        // Awaited in a worker loop, as a controller's worker does; with keys queued it
        // completes on its first poll.
        let workers = async {
            for _ in 0..batch {
                let key = queue.get().await.expect("a key is queued");
                queue.done(&key);
            }
        };
        workers.now_or_never().expect("every get finds a key queued");
    }
    start.elapsed()
}

fn serial_flume(keys: Vec<String>) -> Duration {
    let (sender, receiver) = flume::unbounded::<String>();
    let start = Instant::now();
    let mut keys = keys.into_iter();
    loop {
        let batch = keys
            .by_ref()
            .take(S_BATCH)
            .map(|key| sender.send(key).expect("the receiver is alive"))
            .count();
        if batch == 0 {
            break;
        }
        let workers = async {
            for _ in 0..batch {
                drop(receiver.recv_async().await.expect("a key was sent"));
            }
        };
        workers.now_or_never().expect("every receive finds a key sent");
    }
    start.elapsed()
}

/// Nanoseconds per iteration of `part`, over `S_KEYS` iterations.
fn part_cost(mut part: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..S_KEYS {
        part();
    }
    nanos_per(S_KEYS, start.elapsed())
}

#[expect(clippy::cast_precision_loss, reason = "operation counts fit an f64 exactly enough")]
fn nanos_per(operations: usize, elapsed: Duration) -> f64 {
    elapsed.as_secs_f64() * 1e9 / operations as f64
}

fn serial(runs: usize) {
    let mut ours = Vec::new();
    let mut flume = Vec::new();
    for run in 0..=runs {
        let (a, b) = (serial_wheelhouse(serial_keys()), serial_flume(serial_keys()));
        eprintln!("  S run {run}: wheelhouse {a:?} flume {b:?}");
        if run > 0 {
            ours.push(a);
            flume.push(b);
        }
    }
    let (ours, flume) = (median(ours), median(flume));
    for (name, elapsed) in [("wheelhouse", ours), ("flume", flume)] {
        println!(
            "bench=S impl={name} keys_per_s={:.0} ns_per_key={:.1}",
            per_second(S_KEYS, elapsed),
            nanos_per(S_KEYS, elapsed)
        );
    }
    let mutex = std::sync::Mutex::new(0_u64);
    let lock = part_cost(|| *std::hint::black_box(&mutex).lock().expect("not poisoned") += 1);
    let key = String::from("default/object-500000");
    let clone = part_cost(|| drop(std::hint::black_box(std::hint::black_box(&key).clone())));
    println!("bench=S part=mutex-lock-unlock ns={lock:.1}");
    println!("bench=S part=key-clone-drop ns={clone:.1}");
    println!(
        "ratio bench=S wheelhouse/flume={:.2}",
        flume.as_secs_f64() / ours.as_secs_f64()
    );
}

fn main() {
    let runs = setting("WQ_BENCH_RUNS", 5).max(1);
    let runtime = runtime();
    println!(
        "workqueue bench: {} tokio worker threads, producers yield every {} adds, median of {runs} runs",
        runtime.metrics().num_workers(),
        yield_every()
    );
    let only = std::env::var("WQ_BENCH_ONLY").ok();
    let wanted = |workload: Workload, anchor: Anchor| {
        only.as_ref()
            .is_none_or(|only| *only == format!("{}/{}", workload.name(), anchor.name()))
    };
    let workloads = [Workload::W1, Workload::W2];
    let go_wanted = workloads
        .iter()
        .any(|&workload| wanted(workload, Anchor::ClientGo) || wanted(workload, Anchor::GoChannel));
    let go = go_wanted.then(GoBench::build).flatten();
    let mut anchors = vec![Anchor::Wheelhouse, Anchor::Flume, Anchor::KubeScheduler];
    if go.is_some() {
        anchors.extend([Anchor::ClientGo, Anchor::GoChannel]);
    }
    for workload in workloads {
        let selected: Vec<Anchor> = anchors
            .iter()
            .copied()
            .filter(|&anchor| wanted(workload, anchor))
            .collect();
        // Runs alternate between implementations, so a slow spell of a noisy machine
        // hits all of them alike; run 0 of each is a warm-up.
        let mut times = vec![Vec::new(); selected.len()];
        for run in 0..=runs {
            for (anchor, times) in selected.iter().zip(&mut times) {
                let elapsed = anchor.measure(workload, &runtime, go.as_ref());
                eprintln!("  {} {} run {run}: {elapsed:?}", workload.name(), anchor.name());
                if run > 0 {
                    times.push(elapsed);
                }
            }
        }
        let rates: Vec<(Anchor, f64)> = selected
            .iter()
            .zip(times)
            .map(|(&anchor, times)| (anchor, per_second(workload.adds(), median(times))))
            .collect();
        for (anchor, rate) in &rates {
            println!("bench={} impl={} adds_per_s={rate:.0}", workload.name(), anchor.name());
        }
        if let [(Anchor::Wheelhouse, ours), others @ ..] = &rates[..]
            && !others.is_empty()
        {
            let ratios: Vec<String> = others
                .iter()
                .map(|(anchor, theirs)| format!("wheelhouse/{}={:.2}", anchor.name(), ours / theirs))
                .collect();
            println!("ratio bench={} {}", workload.name(), ratios.join(" "));
        }
    }
    if only.as_deref().is_none_or(|only| only == "S") {
        serial(runs);
    }
}

/// `benches/clientgo`, built once; each measurement is one run of it in a process of its
/// own (after a warm-up run in that process), so that its runs alternate with ours.
struct GoBench {
    binary: std::path::PathBuf,
}

impl GoBench {
    /// Builds `benches/clientgo` in a copy under target/ (so that go.sum is written
    /// there, not in the sources), or says why it cannot and returns `None`.
    fn build() -> Option<Self> {
        let go = std::env::var("WQ_BENCH_GO").unwrap_or_else(|_| "go".to_owned());
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/clientgo");
        let copy = Path::new(env!("CARGO_TARGET_TMPDIR")).join("clientgo");
        let copied = std::fs::create_dir_all(&copy).and_then(|()| {
            for file in ["go.mod", "main.go"] {
                std::fs::copy(source.join(file), copy.join(file))?;
            }
            Ok(())
        });
        if let Err(error) = copied {
            let (source, copy) = (source.display(), copy.display());
            println!("go anchors skipped: cannot copy {source} to {copy}: {error}");
            return None;
        }
        let binary = copy.join("clientgo-bench");
        let mut command = Command::new(&go);
        command.arg("build").arg("-o").arg(&binary).arg(".").current_dir(&copy);
        if std::env::var_os("GOFLAGS").is_none() {
            command.env("GOFLAGS", "-mod=mod");
        }
        match command.status() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                let copy = copy.display();
                println!("go anchors skipped: `{go} build` in {copy} failed ({status}); its errors are above");
                return None;
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                println!("go anchors skipped: no Go toolchain ({go:?} not found; WQ_BENCH_GO names another)");
                return None;
            }
            Err(error) => {
                println!("go anchors skipped: cannot run {go:?}: {error}");
                return None;
            }
        }
        let version = Command::new(&go).arg("version").output().ok();
        let version = version.map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned());
        println!("go anchors: {}", version.unwrap_or_default());
        Some(Self { binary })
    }

    fn measure(&self, workload: Workload, anchor: Anchor) -> Duration {
        let output = Command::new(&self.binary)
            .env("WQ_BENCH_ONLY", format!("{}/{}", workload.name(), anchor.name()))
            .env("WQ_BENCH_RUNS", "1")
            .output()
            .unwrap_or_else(|error| panic!("cannot run {}: {error}", self.binary.display()));
        assert!(
            output.status.success(),
            "{} failed ({}): {}",
            self.binary.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let rate = stdout
            .lines()
            .find_map(parse_rate)
            .unwrap_or_else(|| panic!("no figure in the Go bench's output: {stdout:?}"));
        Duration::from_secs_f64(rate_to_seconds(workload.adds(), rate))
    }
}

#[expect(clippy::cast_precision_loss, reason = "operation counts fit an f64 exactly enough")]
fn rate_to_seconds(operations: usize, per_second: f64) -> f64 {
    operations as f64 / per_second
}

/// The rate of a line such as `bench=W1 impl=client-go adds_per_s=4228633`.
fn parse_rate(line: &str) -> Option<f64> {
    line.split(' ')
        .find_map(|field| field.strip_prefix("adds_per_s=")?.parse().ok())
}
