//! The workqueue series of `cargo bench --bench scale`: W1 (dedup churn) and W2 (unique
//! keys), as in `benches/workqueue.rs`, at each size, against an unbounded flume
//! channel, in nanoseconds per add.

use std::sync::Arc;
use std::time::{Duration, Instant};

use wheelhouse_workqueue::WorkQueue;

use crate::Curves;
use crate::support::{as_f64, median};

const WORKERS: usize = 4;
const W1_PRODUCERS: usize = 2;
const W1_ADDS_PER_KEY: usize = 4;
const QUEUE_RUNS: usize = 3;

async fn w1_wheelhouse(keys: Arc<Vec<String>>) -> Duration {
    let queue: WorkQueue<String> = WorkQueue::new();
    let start = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let queue = queue.clone();
            tokio::spawn(async move {
                while let Some(key) = queue.get().await {
                    queue.done(&key);
                }
            })
        })
        .collect();
    let producers: Vec<_> = producer_keys(&keys)
        .into_iter()
        .map(|keys| {
            let queue = queue.clone();
            tokio::spawn(produce(keys, move |key| queue.add(key)))
        })
        .collect();
    for producer in producers {
        producer.await.expect("producer");
    }
    queue.shutdown_with_drain().await;
    for worker in workers {
        worker.await.expect("worker");
    }
    start.elapsed()
}

async fn w1_flume(keys: Arc<Vec<String>>) -> Duration {
    let (sender, receiver) = flume::unbounded::<String>();
    let start = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let receiver = receiver.clone();
            tokio::spawn(async move { while receiver.recv_async().await.is_ok() {} })
        })
        .collect();
    drop(receiver);
    let producers: Vec<_> = producer_keys(&keys)
        .into_iter()
        .map(|keys| {
            let sender = sender.clone();
            tokio::spawn(produce(keys, move |key| sender.send(key).expect("workers live")))
        })
        .collect();
    drop(sender);
    for producer in producers {
        producer.await.expect("producer");
    }
    for worker in workers {
        worker.await.expect("worker");
    }
    start.elapsed()
}

type Keys = Box<dyn Iterator<Item = String> + Send>;

/// The producers' keys: for W1 (`keys` shared, each producer adding every key
/// `W1_ADDS_PER_KEY / W1_PRODUCERS` times, round-robin), cloned per add as a handler
/// turning an event into a key would; a single producer of `keys` once each for W2.
fn producer_keys(keys: &Arc<Vec<String>>) -> Vec<Keys> {
    (0..W1_PRODUCERS)
        .map(|_| {
            let keys = keys.clone();
            let adds = keys.len() * W1_ADDS_PER_KEY / W1_PRODUCERS;
            Box::new((0..adds).map(move |n| keys[n % keys.len()].clone())) as Keys
        })
        .collect()
}

async fn produce(keys: Keys, mut add: impl FnMut(String)) {
    for (n, key) in keys.enumerate() {
        add(key);
        if n % 64 == 0 {
            tokio::task::yield_now().await;
        }
    }
}

async fn w2_wheelhouse(keys: Vec<String>) -> Duration {
    let queue: WorkQueue<String> = WorkQueue::new();
    let start = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let queue = queue.clone();
            tokio::spawn(async move {
                while let Some(key) = queue.get().await {
                    queue.done(&key);
                }
            })
        })
        .collect();
    let producer = {
        let queue = queue.clone();
        tokio::spawn(produce(Box::new(keys.into_iter()), move |key| queue.add(key)))
    };
    producer.await.expect("producer");
    queue.shutdown_with_drain().await;
    for worker in workers {
        worker.await.expect("worker");
    }
    start.elapsed()
}

async fn w2_flume(keys: Vec<String>) -> Duration {
    let (sender, receiver) = flume::unbounded::<String>();
    let start = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let receiver = receiver.clone();
            tokio::spawn(async move { while receiver.recv_async().await.is_ok() {} })
        })
        .collect();
    drop(receiver);
    let producer = tokio::spawn(produce(Box::new(keys.into_iter()), move |key| {
        sender.send(key).expect("workers live");
    }));
    producer.await.expect("producer");
    for worker in workers {
        worker.await.expect("worker");
    }
    start.elapsed()
}

fn queue_keys(count: usize) -> Vec<String> {
    (0..count).map(|n| format!("default/object-{n}")).collect()
}

pub fn workqueue(runtime: &tokio::runtime::Runtime, sizes: &[usize]) {
    let mut curves = Curves::default();
    for &count in sizes {
        let nanos = |elapsed: Duration, operations: usize| elapsed.as_secs_f64() * 1e9 / as_f64(operations);
        let (mut w1_ours, mut w1_anchor, mut w2_ours, mut w2_anchor) = (vec![], vec![], vec![], vec![]);
        let shared = Arc::new(queue_keys(count));
        for _ in 0..QUEUE_RUNS {
            w1_ours.push(nanos(
                runtime.block_on(w1_wheelhouse(shared.clone())),
                count * W1_ADDS_PER_KEY,
            ));
            w1_anchor.push(nanos(
                runtime.block_on(w1_flume(shared.clone())),
                count * W1_ADDS_PER_KEY,
            ));
            w2_ours.push(nanos(runtime.block_on(w2_wheelhouse(queue_keys(count))), count));
            w2_anchor.push(nanos(runtime.block_on(w2_flume(queue_keys(count))), count));
        }
        for (workload, ours, anchor) in [("W1", w1_ours, w1_anchor), ("W2", w2_ours, w2_anchor)] {
            let (ours, anchor) = (median(ours), median(anchor));
            println!(
                "scale series=workqueue-{workload} size={count} wheelhouse ns_per_object={ours:.0} | flume ns_per_object={anchor:.0} | ratio={:.2}",
                ours / anchor
            );
            curves.record(&format!("workqueue-{workload}-wheelhouse"), ours);
            curves.record(&format!("workqueue-{workload}-flume"), anchor);
        }
    }
    curves.summarize();
}
