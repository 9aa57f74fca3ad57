//! The WebApp operator's work loop, without a cluster yet.
//!
//! Until the embedded API server, the cache and the controller land, this example runs
//! the part of the operator that exists: a simulated informer feeds `namespace/name`
//! keys into a `WorkQueue` (the initial list at low priority, then live changes), and
//! workers reconcile them, retrying failures with client-go's rate limiter and
//! requeueing steady objects for a periodic check. It ends with a graceful drain and
//! prints the queue's prometheus metrics.
//!
//! Run it with `cargo run --example webapp`.

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use prometheus::{Encoder, TextEncoder};
use wheelhouse::prelude::*;
use wheelhouse::workqueue::PrometheusMetrics;

/// Pretend API state: how many reconciles each WebApp still needs before it is Ready.
type World = DashMap<String, u32>;

async fn reconcile(world: &World, key: &str) -> Result<&'static str, String> {
    tokio::time::sleep(Duration::from_millis(20)).await; // a round trip to the API server
    let mut pending = world.get_mut(key).ok_or_else(|| format!("{key} is gone"))?;
    if *pending > 0 {
        *pending -= 1;
        return Err("Deployment not available yet".to_owned());
    }
    Ok("Ready")
}

async fn worker(id: usize, queue: WorkQueue<String>, world: Arc<World>) {
    while let Some(key) = queue.get().await {
        match reconcile(&world, &key).await {
            Ok(phase) => {
                println!("worker {id}: {key} -> {phase}");
                queue.forget(&key);
            }
            Err(reason) => {
                let retries = queue.num_requeues(&key);
                println!("worker {id}: {key} -> Waiting ({reason}), retry {}", retries + 1);
                queue.add_rate_limited(key.clone());
            }
        }
        queue.done(&key);
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let registry = prometheus::Registry::new();
    let metrics = PrometheusMetrics::register(&registry)?;
    let queue: WorkQueue<String> = WorkQueue::builder().name("webapp").metrics(&metrics).build();
    let world = Arc::new(World::new());

    println!("initial list: 4 WebApps, queued at low priority");
    for n in 0..4 {
        let key = format!("default/shop-{n}");
        world.insert(key.clone(), n % 3);
        let low = AddOptions {
            priority: Priority::LOW,
            ..AddOptions::default()
        };
        queue.add_with(key, low);
    }
    println!("live change: default/blog created, served before the initial list");
    world.insert("default/blog".to_owned(), 1);
    queue.add("default/blog".to_owned());
    println!("starting 2 workers");
    let workers: Vec<_> = (0..2)
        .map(|id| tokio::spawn(worker(id, queue.clone(), world.clone())))
        .collect();

    tokio::time::sleep(Duration::from_millis(400)).await;
    println!("live change: default/shop-0 edited twice while queued: one reconcile");
    queue.add("default/shop-0".to_owned());
    queue.add("default/shop-0".to_owned());
    tokio::time::sleep(Duration::from_millis(200)).await;

    println!("shutting down: draining what is queued and in progress");
    queue.shutdown_with_drain().await;
    for worker in workers {
        worker.await?;
    }

    let mut text = Vec::new();
    TextEncoder::new().encode(&registry.gather(), &mut text)?;
    let text = String::from_utf8(text)?;
    println!("\nmetrics:");
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.contains("_bucket")) {
        println!("  {line}");
    }
    Ok(())
}
