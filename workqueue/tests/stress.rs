//! Many producers and workers on random keys with random delays, priorities and
//! failures, checking the queue's promises on every step:
//! - no key is held by two workers at once;
//! - every add is followed by a processing that starts after it (each add bumps the
//!   key's version first; a worker reads the version once it holds the key, and at the
//!   end every key must have been processed at its last version);
//! - nothing is handed out after `shutdown_with_drain` has returned.
//!
//! The run is bounded by a number of operations, so it stays fast in CI.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use rand::{Rng, SeedableRng};
use tokio::time::timeout;
use wheelhouse_workqueue::{AddOptions, ExponentialBackoff, MaxWait, Priority, WorkQueue};

const PRODUCERS: usize = 4;
const WORKERS: usize = 8;
const KEYS: usize = 64;
const ADDS_PER_PRODUCER: usize = 4_000;
const MAX_DELAY: Duration = Duration::from_millis(3);

struct Shared {
    queue: WorkQueue<usize>,
    /// Version of each key, bumped before every add of it.
    versions: Vec<AtomicU64>,
    /// The highest version a worker saw while holding each key.
    processed: Vec<AtomicU64>,
    holding: Mutex<HashSet<usize>>,
    /// Workers fail (and retry rate-limited) only while producers run, so the run ends.
    failures_allowed: AtomicBool,
    drained: AtomicBool,
    handed_out: AtomicU64,
}

async fn produce(shared: Arc<Shared>, seed: u64) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    for n in 0..ADDS_PER_PRODUCER {
        let key = rng.random_range(0..KEYS);
        shared.versions[key].fetch_add(1, Ordering::SeqCst);
        match rng.random_range(0..10) {
            0..=5 => shared.queue.add(key),
            6 | 7 => shared.queue.add_after(key, rng.random_range(Duration::ZERO..MAX_DELAY)),
            8 => shared.queue.add_with(
                key,
                AddOptions {
                    priority: Priority(rng.random_range(-2..=2)),
                    ..AddOptions::default()
                },
            ),
            _ => shared.queue.add_rate_limited(key),
        }
        if n % 16 == 0 {
            tokio::task::yield_now().await;
        }
    }
}

async fn work(shared: Arc<Shared>, seed: u64) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    while let Some(key) = shared.queue.get().await {
        assert!(
            !shared.drained.load(Ordering::SeqCst),
            "key {key} handed out after the drain"
        );
        assert!(
            shared.holding.lock().insert(key),
            "key {key} held by two workers at once"
        );
        shared.handed_out.fetch_add(1, Ordering::Relaxed);
        let version = shared.versions[key].load(Ordering::SeqCst);
        if rng.random_bool(0.3) {
            tokio::task::yield_now().await;
        }
        let failed = shared.failures_allowed.load(Ordering::SeqCst) && rng.random_bool(0.1);
        if failed {
            shared.queue.add_rate_limited(key);
        } else {
            shared.processed[key].fetch_max(version, Ordering::SeqCst);
            shared.queue.forget(&key);
        }
        assert!(shared.holding.lock().remove(&key));
        shared.queue.done(&key);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_producers_and_workers_keep_every_promise() {
    for round in 0..10 {
        run_round(round * 100).await;
    }
}

async fn run_round(seed: u64) {
    let limiter = MaxWait::new(
        ExponentialBackoff::new(Duration::from_micros(100), MAX_DELAY),
        MAX_DELAY,
    );
    let shared = Arc::new(Shared {
        queue: WorkQueue::builder().name("stress").rate_limiter(limiter).build(),
        versions: (0..KEYS).map(|_| AtomicU64::new(0)).collect(),
        processed: (0..KEYS).map(|_| AtomicU64::new(0)).collect(),
        holding: Mutex::new(HashSet::new()),
        failures_allowed: AtomicBool::new(true),
        drained: AtomicBool::new(false),
        handed_out: AtomicU64::new(0),
    });
    let workers: Vec<_> = (0..WORKERS)
        .map(|n| tokio::spawn(work(shared.clone(), seed + 50 + n as u64)))
        .collect();
    let producers: Vec<_> = (0..PRODUCERS)
        .map(|n| tokio::spawn(produce(shared.clone(), seed + n as u64)))
        .collect();
    for producer in producers {
        producer.await.unwrap();
    }
    shared.failures_allowed.store(false, Ordering::SeqCst);
    // Let every deadline pass, so the final adds are not dropped by the shutdown.
    tokio::time::sleep(MAX_DELAY * 4).await;
    timeout(Duration::from_secs(30), shared.queue.shutdown_with_drain())
        .await
        .expect("drain hung");
    shared.drained.store(true, Ordering::SeqCst);
    for worker in workers {
        timeout(Duration::from_secs(30), worker)
            .await
            .expect("a worker did not stop")
            .unwrap();
    }

    for key in 0..KEYS {
        let version = shared.versions[key].load(Ordering::SeqCst);
        let processed = shared.processed[key].load(Ordering::SeqCst);
        assert_eq!(processed, version, "key {key}: its last add was never processed");
    }
    let handed_out = shared.handed_out.load(Ordering::Relaxed);
    let adds = (PRODUCERS * ADDS_PER_PRODUCER) as u64;
    assert!(handed_out > KEYS as u64, "only {handed_out} keys handed out");
    assert!(
        handed_out < adds,
        "{handed_out} handed out for {adds} adds: nothing was deduplicated"
    );
    assert!(shared.queue.get().await.is_none());
}
