//! The floor of a deduplicating queue: the least any queue that deduplicates keys must
//! do, with our queue's table (`hashbrown`), hasher (`foldhash`) and key type, so that
//! how our queue's cost per add grows with the number of keys can be read against how
//! the bare dedup's grows in the same run.
//!
//! Two floors:
//! - [`minimal_queue`]: the same producers and workers as `queues::wheelhouse`, over a
//!   queue that is only a set of the keys waiting and their order, behind one lock (one
//!   probe of the set per add, one removal per get; no processing set, no priorities,
//!   no deadlines, no metrics): what dedup costs under the same concurrency;
//! - [`set_alone`]: the set alone, on one thread, with nothing but the adds and gets:
//!   every add of the workload, in the producers' order, then every get. That holds all
//!   the distinct keys at once (the deepest a queue can get), so it is what dedup costs
//!   once the table outgrows the CPU's caches, with no scheduling at all.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use hashbrown::HashSet;
use hashbrown::hash_set::Entry;
use parking_lot::Mutex;
use tokio::sync::Notify;

use super::queues::{Keys, WORKERS, produce};

type Set = HashSet<String, foldhash::fast::RandomState>;

/// A set of the keys waiting and the order they came in; a key is forgotten when a
/// worker takes it (so a key added while processed is queued again, as in client-go).
#[derive(Default)]
struct Waiting {
    keys: Set,
    order: VecDeque<String>,
    closed: bool,
}

#[derive(Default)]
struct MinimalQueue {
    waiting: Mutex<Waiting>,
    ready: Notify,
}

impl MinimalQueue {
    fn add(&self, key: String) {
        let mut waiting = self.waiting.lock();
        if let Entry::Vacant(vacant) = waiting.keys.entry(key) {
            let key = vacant.get().clone();
            vacant.insert();
            waiting.order.push_back(key);
            drop(waiting);
            self.ready.notify_one();
        }
    }

    async fn get(&self) -> Option<String> {
        loop {
            let notified = self.ready.notified();
            {
                let mut waiting = self.waiting.lock();
                if let Some(key) = waiting.order.pop_front() {
                    waiting.keys.remove(&key);
                    return Some(key);
                }
                if waiting.closed {
                    return None;
                }
            }
            notified.await;
        }
    }

    fn close(&self) {
        self.waiting.lock().closed = true;
        self.ready.notify_waiters();
    }
}

/// The minimal queue under `queues::wheelhouse`'s producers and [`WORKERS`] workers,
/// until drained.
pub async fn minimal_queue(producers: Vec<Keys>, yield_every: usize) -> Duration {
    let queue = std::sync::Arc::new(MinimalQueue::default());
    let start = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let queue = queue.clone();
            tokio::spawn(async move { while queue.get().await.is_some() {} })
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
    queue.close();
    for worker in workers {
        worker.await.expect("worker panicked");
    }
    start.elapsed()
}

/// The set alone: each producer's keys in turn, `yield_every` at a time (the order the
/// producers' adds interleave in), each inserted, then every key taken out in the order
/// it came.
pub fn set_alone(producers: Vec<Keys>, yield_every: usize) -> Duration {
    let mut producers: Vec<_> = producers.into_iter().map(Iterator::peekable).collect();
    let mut keys = Set::default();
    let mut order = VecDeque::new();
    let start = Instant::now();
    while producers.iter_mut().any(|p| p.peek().is_some()) {
        for producer in &mut producers {
            for key in producer.by_ref().take(yield_every) {
                if let Entry::Vacant(vacant) = keys.entry(key) {
                    order.push_back(vacant.get().clone());
                    vacant.insert();
                }
            }
        }
    }
    while let Some(key) = order.pop_front() {
        keys.remove(&key);
    }
    start.elapsed()
}
