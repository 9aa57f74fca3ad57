//! The workqueue series of `cargo bench --bench scale`: W1 (dedup churn) and W2 (unique
//! keys), as in `benches/workqueue.rs`, at each size, against an unbounded flume
//! channel, in nanoseconds per add.

use std::sync::Arc;
use std::time::Duration;

use crate::Curves;
use crate::support::queues::{self, Keys};
use crate::support::{as_f64, median};

/// Adds between yields to the runtime, as `benches/workqueue.rs` by default.
const YIELD_EVERY: usize = 64;
const W1_PRODUCERS: usize = 2;
const W1_ADDS_PER_KEY: usize = 4;
const QUEUE_RUNS: usize = 3;

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

/// W2's one producer, adding each key once.
fn single(keys: Vec<String>) -> Vec<Keys> {
    vec![Box::new(keys.into_iter())]
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
                runtime.block_on(queues::wheelhouse(producer_keys(&shared), YIELD_EVERY)),
                count * W1_ADDS_PER_KEY,
            ));
            w1_anchor.push(nanos(
                runtime.block_on(queues::flume_channel(producer_keys(&shared), YIELD_EVERY)),
                count * W1_ADDS_PER_KEY,
            ));
            w2_ours.push(nanos(
                runtime.block_on(queues::wheelhouse(single(queue_keys(count)), YIELD_EVERY)),
                count,
            ));
            w2_anchor.push(nanos(
                runtime.block_on(queues::flume_channel(single(queue_keys(count)), YIELD_EVERY)),
                count,
            ));
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
