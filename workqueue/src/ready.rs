//! The ready queue: keys waiting for a worker, in one FIFO bucket per priority.
//!
//! Which bucket is served next follows one rule, *aging*: every key is ranked by
//! `enqueued_at - priority × aging_interval`, earliest first. A key of priority `p + n`
//! therefore overtakes keys of priority `p` that arrived less than `n × aging_interval`
//! before it, and no key waits forever however many higher-priority keys keep coming.
//! Within a bucket keys are served in arrival order.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

/// One entry of a bucket. It may be stale: the state machine decides, through
/// `ticket`, whether the key still waits here (see `state.rs`).
#[derive(Clone)]
pub(crate) struct Item<K> {
    pub key: K,
    pub hash: u64,
    pub ticket: u64,
    pub since: Instant,
}

#[derive(Clone)]
struct Bucket<K> {
    priority: i32,
    items: VecDeque<Item<K>>,
}

/// Buckets sorted by descending priority. Few priorities are in use at once
/// (normal and low, in a controller), so a short sorted `Vec` beats any map.
#[derive(Clone)]
pub(crate) struct ReadyQueue<K> {
    buckets: Vec<Bucket<K>>,
    aging_nanos: i128,
    epoch: Instant,
}

impl<K> ReadyQueue<K> {
    pub fn new(aging_interval: Duration) -> Self {
        Self {
            buckets: Vec::new(),
            aging_nanos: i128::try_from(aging_interval.as_nanos()).unwrap_or(i128::MAX),
            epoch: Instant::now(),
        }
    }

    pub fn push(&mut self, priority: i32, item: Item<K>) {
        let index = match self.buckets.iter().position(|b| b.priority <= priority) {
            Some(i) if self.buckets[i].priority == priority => i,
            found => {
                let i = found.unwrap_or(self.buckets.len());
                let bucket = Bucket {
                    priority,
                    items: VecDeque::new(),
                };
                self.buckets.insert(i, bucket);
                i
            }
        };
        self.buckets[index].items.push_back(item);
    }

    /// Removes the item the aging rule serves next (possibly a stale one).
    pub fn pop(&mut self) -> Option<Item<K>> {
        let mut nonempty = (0..self.buckets.len()).filter(|&i| !self.buckets[i].items.is_empty());
        let mut chosen = nonempty.next()?;
        // Ranks are computed only when two buckets compete: the common case of a
        // single priority in use pays for no clock arithmetic.
        let mut chosen_rank = None;
        for index in nonempty {
            let best = *chosen_rank.get_or_insert_with(|| self.head_rank(chosen));
            let rank = self.head_rank(index);
            // Ties go to the higher priority, which comes first in `buckets`.
            if rank < best {
                chosen = index;
                chosen_rank = Some(rank);
            }
        }
        self.buckets[chosen].items.pop_front()
    }

    fn head_rank(&self, index: usize) -> i128 {
        let bucket = &self.buckets[index];
        let Some(head) = bucket.items.front() else {
            return i128::MAX;
        };
        let waited_from = i128::try_from(head.since.duration_since(self.epoch).as_nanos()).unwrap_or(i128::MAX);
        waited_from.saturating_sub(i128::from(bucket.priority).saturating_mul(self.aging_nanos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(key: u32, since: Instant) -> Item<u32> {
        Item {
            key,
            hash: 0,
            ticket: 0,
            since,
        }
    }

    fn drain(queue: &mut ReadyQueue<u32>) -> Vec<u32> {
        std::iter::from_fn(|| queue.pop().map(|i| i.key)).collect()
    }

    #[test]
    fn higher_priority_first_then_fifo() {
        let now = Instant::now();
        let mut queue = ReadyQueue::new(Duration::from_secs(1));
        queue.push(0, item(1, now));
        queue.push(-10, item(2, now));
        queue.push(10, item(3, now));
        queue.push(0, item(4, now));
        queue.push(10, item(5, now));
        assert_eq!(drain(&mut queue), vec![3, 5, 1, 4, 2]);
    }

    #[test]
    fn a_key_that_waited_long_enough_overtakes_higher_priorities() {
        let start = Instant::now();
        let mut queue = ReadyQueue::new(Duration::from_millis(100));
        // Priority -10 buys a 1 s handicap: it must beat normal keys that arrive later than 1 s after it.
        queue.push(-10, item(1, start));
        queue.push(0, item(2, start + Duration::from_millis(900)));
        queue.push(0, item(3, start + Duration::from_millis(1100)));
        assert_eq!(drain(&mut queue), vec![2, 1, 3]);
    }
}
