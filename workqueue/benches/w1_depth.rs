//! The queue under the scale bench's W1 alone (2 producers adding `keys` distinct
//! strings round-robin, 4 adds per key, a copy of the key per add, yielding every 64
//! adds; or W2 when asked: 1 producer adding each key once; 4 workers that get and done with no work; tokio's multi-threaded runtime with
//! one thread per core), with the queue's depth sampled every 0.5 ms: how deep the
//! producers let it get decides whether its table stays in the CPU's caches. The
//! workspace's `cargo bench --bench scale` runs the same workload beside client-go's.
//!
//! ```sh
//! cargo bench -p wheelhouse-workqueue --bench w1_depth -- <keys> [runs] [W1|W2]
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use wheelhouse_workqueue::WorkQueue;

const PRODUCERS: usize = 2;
const ADDS_PER_KEY: usize = 4;
const YIELD_EVERY: usize = 64;
const WORKERS: usize = 4;

/// One run: its time and the deepest queue sampled.
async fn run(keys: Arc<Vec<String>>, w2: bool) -> (Duration, usize) {
    let queue: WorkQueue<String> = WorkQueue::new();
    let (stop, deepest) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let sampler = {
        let (queue, stop, deepest) = (queue.clone(), stop.clone(), deepest.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                deepest.fetch_max(queue.len(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(500));
            }
        })
    };
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
    let producers: Vec<_> = (0..if w2 { 1 } else { PRODUCERS })
        .map(|_| {
            let (queue, keys) = (queue.clone(), keys.clone());
            tokio::spawn(async move {
                let adds = if w2 {
                    keys.len()
                } else {
                    keys.len() * ADDS_PER_KEY / PRODUCERS
                };
                for n in 0..adds {
                    queue.add(keys[n % keys.len()].clone());
                    if n % YIELD_EVERY == 0 {
                        tokio::task::yield_now().await;
                    }
                }
            })
        })
        .collect();
    for producer in producers {
        producer.await.expect("producer panicked");
    }
    queue.shutdown_with_drain().await;
    for worker in workers {
        worker.await.expect("worker panicked");
    }
    let elapsed = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    sampler.join().expect("sampler panicked");
    (elapsed, deepest.load(Ordering::Relaxed))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let count: usize = args.first().and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let runs: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(5);
    let w2 = args.get(2).is_some_and(|workload| workload == "W2");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let keys = Arc::new((0..count).map(|n| format!("default/object-{n}")).collect::<Vec<_>>());
    runtime.block_on(run(keys.clone(), w2)); // warm-up, untimed
    let mut results = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (elapsed, deepest) = runtime.block_on(run(keys.clone(), w2));
        let adds = if w2 { count } else { count * ADDS_PER_KEY };
        #[allow(clippy::cast_precision_loss)]
        let nanos = elapsed.as_secs_f64() * 1e9 / adds as f64;
        results.push((nanos, deepest));
    }
    let mut sorted: Vec<f64> = results.iter().map(|(nanos, _)| *nanos).collect();
    sorted.sort_by(f64::total_cmp);
    let deepest: Vec<usize> = results.iter().map(|(_, deepest)| *deepest).collect();
    println!(
        "bench=w1_depth workload={} keys={count} ns_per_add={:.0} runs={:.0?} deepest={deepest:?}",
        if w2 { "W2" } else { "W1" },
        sorted[sorted.len() / 2],
        results.iter().map(|(nanos, _)| *nanos).collect::<Vec<_>>()
    );
}
