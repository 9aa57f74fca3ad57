//! The ready queue: keys waiting for a worker, in one FIFO bucket per priority.
//!
//! Which bucket is served next follows one rule, *aging*: every key is ranked by
//! `enqueued_at - priority × aging_interval`, earliest first. A key of priority `p + n`
//! therefore overtakes keys of priority `p` that arrived less than `n × aging_interval`
//! before it, and no key waits forever however many higher-priority keys keep coming.
//! Within a bucket keys are served in arrival order.
//!
//! Reading the clock is a large part of an add's cost, so keys are stamped only once two
//! priorities have been used (or metrics want times). Keys queued before that carry
//! [`UNSTAMPED`] and age from the moment stamping began: they were queued no later than
//! that, so they are never ranked as older than they are, and priorities keep their
//! meaning for the keys of an initial list queued before the first live change.

use std::collections::VecDeque;
use std::time::Duration;

/// One entry of a bucket: not the key itself, which stays in the state's table (a
/// copy is made for the worker that gets it, not for every key queued). It may be
/// stale: the state decides, through `ticket`, whether the key still waits here.
#[derive(Clone, Copy)]
pub(crate) struct Item {
    pub hash: u64,
    /// Where the key's slot was in the table when it was queued: a hint, checked by
    /// `ticket`, since growing the table moves slots.
    pub bucket: usize,
    pub ticket: u64,
    /// When it was queued, in nanoseconds since the queue's epoch, or [`UNSTAMPED`].
    pub since: u64,
}

#[derive(Clone)]
struct Bucket {
    priority: i32,
    items: VecDeque<Item>,
}

/// Buckets sorted by descending priority. Few priorities are in use at once
/// (normal and low, in a controller), so a short sorted `Vec` beats any map.
#[derive(Clone)]
pub(crate) struct ReadyQueue {
    buckets: Vec<Bucket>,
    aging_nanos: i128,
    /// When keys began to be stamped; unstamped keys age from then.
    stamped_from: Option<u64>,
}

/// The `since` of a key queued before times were kept.
pub(crate) const UNSTAMPED: u64 = 0;

impl ReadyQueue {
    pub fn new(aging_interval: Duration) -> Self {
        Self {
            buckets: Vec::new(),
            aging_nanos: i128::try_from(aging_interval.as_nanos()).unwrap_or(i128::MAX),
            stamped_from: None,
        }
    }

    /// Whether a key of `priority` must be stamped: once stamping began, or when it
    /// would make a second priority.
    #[inline]
    pub fn contested_by(&self, priority: i32) -> bool {
        self.stamped_from.is_some() || self.buckets.iter().any(|b| b.priority != priority)
    }

    /// Stamping begins (if it had not) at `now`.
    pub fn stamp_from(&mut self, now: u64) {
        self.stamped_from.get_or_insert(now);
    }

    #[inline]
    pub fn push(&mut self, priority: i32, item: Item) {
        // One priority in use is the common case: no search.
        if let [only] = &mut self.buckets[..]
            && only.priority == priority
        {
            return only.items.push_back(item);
        }
        self.push_sorted(priority, item);
    }

    fn push_sorted(&mut self, priority: i32, item: Item) {
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
    #[inline]
    pub fn pop(&mut self) -> Option<Item> {
        if let [only] = &mut self.buckets[..] {
            return only.items.pop_front();
        }
        self.pop_ranked()
    }

    fn pop_ranked(&mut self) -> Option<Item> {
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
        let since = if head.since == UNSTAMPED {
            self.stamped_from.unwrap_or(UNSTAMPED)
        } else {
            head.since
        };
        i128::from(since).saturating_sub(i128::from(bucket.priority).saturating_mul(self.aging_nanos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items named by their ticket.
    fn item(ticket: u64, since: u64) -> Item {
        Item {
            hash: 0,
            bucket: 0,
            ticket,
            since,
        }
    }

    fn drain(queue: &mut ReadyQueue) -> Vec<u64> {
        std::iter::from_fn(|| queue.pop().map(|i| i.ticket)).collect()
    }

    #[test]
    fn higher_priority_first_then_fifo() {
        let now = 0;
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
        const MS: u64 = 1_000_000;
        let mut queue = ReadyQueue::new(Duration::from_millis(100));
        // Priority -10 is a 1 s handicap: it must beat normal keys that arrive more than 1 s after it.
        queue.push(-10, item(1, 0));
        queue.push(0, item(2, 900 * MS));
        queue.push(0, item(3, 1100 * MS));
        assert_eq!(drain(&mut queue), vec![2, 1, 3]);
    }
}
