//! The workqueue workloads' producers and workers, for our queue and for the flume
//! channel anchor: `benches/workqueue.rs` runs them at one size, `benches/scale.rs` at
//! each size.

use std::time::{Duration, Instant};

use wheelhouse_workqueue::WorkQueue;

/// How many workers take keys, for every implementation.
pub const WORKERS: usize = 4;

/// One producer's keys, made before timing.
pub type Keys = Box<dyn Iterator<Item = String> + Send>;

/// Adds every key, yielding to the runtime every `yield_every` adds, as an informer
/// does between events.
pub async fn produce(keys: Keys, yield_every: usize, mut add: impl FnMut(String)) {
    for (n, key) in keys.enumerate() {
        add(key);
        if n % yield_every == 0 {
            tokio::task::yield_now().await;
        }
    }
}

/// Our queue: the producers add, [`WORKERS`] workers `get` and `done` with no work,
/// until the queue is drained.
pub async fn wheelhouse(producers: Vec<Keys>, yield_every: usize) -> Duration {
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
    let producers: Vec<_> = producers
        .into_iter()
        .map(|keys| {
            let queue = queue.clone();
            tokio::spawn(produce(keys, yield_every, move |key| queue.add(key)))
        })
        .collect();
    for producer in producers {
        producer.await.expect("producer panicked");
    }
    queue.shutdown_with_drain().await;
    for worker in workers {
        worker.await.expect("worker panicked");
    }
    start.elapsed()
}

/// The anchor: an unbounded flume channel (no dedup, no per-key bookkeeping) with the
/// same producers and workers.
pub async fn flume_channel(producers: Vec<Keys>, yield_every: usize) -> Duration {
    let (sender, receiver) = flume::unbounded::<String>();
    let start = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let receiver = receiver.clone();
            tokio::spawn(async move { while receiver.recv_async().await.is_ok() {} })
        })
        .collect();
    drop(receiver);
    let producers: Vec<_> = producers
        .into_iter()
        .map(|keys| {
            let sender = sender.clone();
            tokio::spawn(produce(keys, yield_every, move |key| {
                sender.send(key).expect("workers are alive");
            }))
        })
        .collect();
    drop(sender);
    for producer in producers {
        producer.await.expect("producer panicked");
    }
    for worker in workers {
        worker.await.expect("worker panicked");
    }
    start.elapsed()
}
