//! The queue's state machine: what happens to a key on add, get, done, a deadline and
//! shutdown. It is synchronous and knows nothing of tasks or wakers, so it can be
//! checked exhaustively (see `tests/model.rs`); `queue.rs` wraps it in a lock.
//!
//! Every key the queue knows has one [`Slot`] in `slots`, and the slot's [`Entry`] is the
//! single source of truth about the key. The invariants, which `check_invariants` asserts:
//! - a key is *queued* (waiting for a worker) or *processing* (held by one worker), never
//!   both: so a key is never handed to two workers at once;
//! - `dirty` is only set while processing: the key was added again while a worker held
//!   it, and `done` queues it once more, so no change is ever lost;
//! - a key has at most one pending deadline, the earliest asked for, and none while it
//!   is queued or dirty (it will be served sooner than the deadline anyway);
//! - a slot with none of the above is removed, so the table holds only live keys.
//!
//! The ready queue and the deadline heap may hold stale items (a key whose priority was
//! raised is pushed again; a deadline brought forward is pushed again). An item is live
//! only while its ticket matches the one in the key's entry; stale items are dropped when
//! they surface. This keeps every operation O(1) or O(log n) without searching.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::time::Duration;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry as TableEntry;
use tokio::time::Instant;

use crate::ready::{Item, ReadyQueue};

/// What the queue knows about one key.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Set while the key waits in the ready queue.
    pub queued: Option<Queued>,
    /// Set while a worker holds the key: when it got it.
    pub processing: Option<Instant>,
    /// Set when the key was added while processing: the priority and time of that add.
    pub dirty: Option<(i32, Instant)>,
    /// Set while the key waits for a deadline and is neither queued nor dirty.
    pub deadline: Option<Deadline>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Queued {
    pub ticket: u64,
    pub priority: i32,
    pub since: Instant,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deadline {
    pub ticket: u64,
    pub at: Instant,
    pub priority: i32,
}

impl Entry {
    fn is_empty(&self) -> bool {
        self.queued.is_none() && self.processing.is_none() && self.deadline.is_none()
    }
}

#[derive(Clone)]
struct Slot<K> {
    key: K,
    hash: u64,
    entry: Entry,
}

/// A pending deadline in the heap; ordered by time, then by ticket so equal deadlines
/// keep the order they were asked for.
#[derive(Clone)]
struct Delayed<K> {
    at: Instant,
    ticket: u64,
    hash: u64,
    key: K,
}

impl<K> PartialEq for Delayed<K> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.ticket) == (other.at, other.ticket)
    }
}
impl<K> Eq for Delayed<K> {}
impl<K> PartialOrd for Delayed<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<K> Ord for Delayed<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.at, self.ticket).cmp(&(other.at, other.ticket))
    }
}

/// What an add did, so the caller can wake a worker and record metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Added {
    /// The key is now queued (it was not before): wake a worker.
    Queued,
    /// The key is being processed and will be queued again at `done`.
    MarkedDirty,
    /// The key's next deadline was set or brought forward; `earliest` says whether it is
    /// now the first deadline of the whole queue (a sleeping timer must be re-armed).
    Scheduled { earliest: bool },
    /// Nothing changed (a duplicate), or the queue is shutting down.
    Unchanged,
}

/// A key handed to a worker.
pub(crate) struct Popped<K> {
    pub key: K,
    pub waited: Duration,
}

/// What `done` did.
pub(crate) struct Finished {
    /// When the key was handed out, if the caller was processing it.
    pub started: Option<Instant>,
    /// The key was dirty and is queued again: wake a worker.
    pub requeued: bool,
}

#[derive(Clone)]
pub(crate) struct State<K> {
    slots: HashTable<Slot<K>>,
    ready: ReadyQueue<K>,
    /// Live items in `ready`: the queue's length.
    ready_len: usize,
    /// Keys marked dirty while processing; with `ready_len`, the depth client-go reports.
    dirty_len: usize,
    processing_len: usize,
    /// Pending deadlines, earliest on top; may hold stale ones (see module docs).
    delayed: BinaryHeap<Reverse<Delayed<K>>>,
    next_ticket: u64,
    shutting_down: bool,
}

impl<K: Clone + Eq> State<K> {
    pub fn new(aging_interval: Duration) -> Self {
        Self {
            slots: HashTable::new(),
            ready: ReadyQueue::new(aging_interval),
            ready_len: 0,
            dirty_len: 0,
            processing_len: 0,
            delayed: BinaryHeap::new(),
            next_ticket: 0,
            shutting_down: false,
        }
    }

    fn ticket(&mut self) -> u64 {
        self.next_ticket += 1;
        self.next_ticket
    }

    /// Keys waiting for a worker.
    pub fn len(&self) -> usize {
        self.ready_len
    }

    /// Keys added and not yet handed out: queued ones plus dirty ones (client-go's depth).
    pub fn depth(&self) -> usize {
        self.ready_len + self.dirty_len
    }

    pub fn processing(&self) -> usize {
        self.processing_len
    }

    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down
    }

    /// Shut down, nothing queued and nothing held by a worker.
    pub fn is_drained(&self) -> bool {
        self.shutting_down && self.ready_len == 0 && self.processing_len == 0
    }

    /// Adds `key` now. A queued key keeps its place unless `priority` is higher; a key
    /// being processed is marked dirty; any later deadline the key had is dropped.
    pub fn add(&mut self, key: K, hash: u64, priority: i32, now: Instant) -> Added {
        if self.shutting_down {
            return Added::Unchanged;
        }
        let ticket = self.ticket();
        let queued = Queued {
            ticket,
            priority,
            since: now,
        };
        let slot = match self.slots.entry(hash, |s| s.key == key, |s| s.hash) {
            TableEntry::Vacant(vacant) => {
                self.ready.push(priority, item(key.clone(), hash, queued));
                self.ready_len += 1;
                let entry = Entry {
                    queued: Some(queued),
                    ..Entry::default()
                };
                vacant.insert(Slot { key, hash, entry });
                return Added::Queued;
            }
            TableEntry::Occupied(occupied) => occupied.into_mut(),
        };
        let entry = &mut slot.entry;
        if entry.processing.is_some() {
            entry.deadline = None;
            return match &mut entry.dirty {
                Some((dirty_priority, _)) => {
                    *dirty_priority = (*dirty_priority).max(priority);
                    Added::Unchanged
                }
                dirty @ None => {
                    *dirty = Some((priority, now));
                    self.dirty_len += 1;
                    Added::MarkedDirty
                }
            };
        }
        if let Some(current) = &mut entry.queued {
            if priority <= current.priority {
                return Added::Unchanged;
            }
            // Move up a bucket, keeping the time it has already waited; the old item goes stale.
            *current = Queued {
                since: current.since,
                ..queued
            };
            self.ready.push(priority, item(key, hash, *current));
            return Added::Unchanged;
        }
        // Only a pending deadline kept the slot: the key is served now instead.
        entry.deadline = None;
        entry.queued = Some(queued);
        self.ready.push(priority, item(key, hash, queued));
        self.ready_len += 1;
        Added::Queued
    }

    /// Adds `key` at `at`. The earliest deadline wins, and a key that will be served
    /// sooner anyway (queued, or dirty) is left as it is.
    pub fn add_at(&mut self, key: K, hash: u64, priority: i32, at: Instant) -> Added {
        if self.shutting_down {
            return Added::Unchanged;
        }
        let ticket = self.ticket();
        let deadline = Deadline { ticket, at, priority };
        match self.slots.entry(hash, |s| s.key == key, |s| s.hash) {
            TableEntry::Vacant(vacant) => {
                let entry = Entry {
                    deadline: Some(deadline),
                    ..Entry::default()
                };
                vacant.insert(Slot {
                    key: key.clone(),
                    hash,
                    entry,
                });
            }
            TableEntry::Occupied(occupied) => {
                let entry = &mut occupied.into_mut().entry;
                if entry.queued.is_some() || entry.dirty.is_some() {
                    return Added::Unchanged;
                }
                match &mut entry.deadline {
                    Some(current) if current.at <= at => {
                        current.priority = current.priority.max(priority);
                        return Added::Unchanged;
                    }
                    Some(current) => {
                        *current = Deadline {
                            priority: current.priority.max(priority),
                            ..deadline
                        };
                    }
                    none => *none = Some(deadline),
                }
            }
        }
        let earliest = self.next_deadline().is_none_or(|first| at < first);
        self.delayed.push(Reverse(Delayed { at, ticket, hash, key }));
        Added::Scheduled { earliest }
    }

    /// The first pending deadline (it may belong to a stale item, which only makes a
    /// timer fire early and find nothing to do).
    pub fn next_deadline(&self) -> Option<Instant> {
        self.delayed.peek().map(|Reverse(d)| d.at)
    }

    /// Adds every key whose deadline has passed; returns how many were queued.
    pub fn promote_due(&mut self, now: Instant) -> usize {
        let mut queued = 0;
        while self.delayed.peek().is_some_and(|Reverse(d)| d.at <= now) {
            let Some(Reverse(due)) = self.delayed.pop() else {
                break;
            };
            let Some(slot) = self.slots.find_mut(due.hash, |s| s.key == due.key) else {
                continue;
            };
            let Some(deadline) = slot.entry.deadline.filter(|d| d.ticket == due.ticket) else {
                continue;
            };
            slot.entry.deadline = None;
            if self.add(due.key, due.hash, deadline.priority, now) == Added::Queued {
                queued += 1;
            }
        }
        queued
    }

    /// Hands the next queued key to a worker.
    pub fn pop(&mut self, now: Instant) -> Option<Popped<K>> {
        while let Some(item) = self.ready.pop() {
            let Some(slot) = self.slots.find_mut(item.hash, |s| s.key == item.key) else {
                continue;
            };
            let entry = &mut slot.entry;
            let Some(queued) = entry.queued.filter(|q| q.ticket == item.ticket) else {
                continue;
            };
            entry.queued = None;
            entry.processing = Some(now);
            self.ready_len -= 1;
            self.processing_len += 1;
            return Some(Popped {
                key: item.key,
                waited: now.saturating_duration_since(queued.since),
            });
        }
        None
    }

    /// Ends the processing of `key`; a dirty key is queued again.
    pub fn done(&mut self, key: &K, hash: u64) -> Finished {
        let mut finished = Finished {
            started: None,
            requeued: false,
        };
        let ticket = self.ticket();
        let Ok(mut occupied) = self.slots.find_entry(hash, |s| s.key == *key) else {
            return finished;
        };
        let slot = occupied.get_mut();
        let Some(started) = slot.entry.processing.take() else {
            return finished;
        };
        self.processing_len -= 1;
        finished.started = Some(started);
        if let Some((priority, since)) = slot.entry.dirty.take() {
            self.dirty_len -= 1;
            let queued = Queued {
                ticket,
                priority,
                since,
            };
            slot.entry.queued = Some(queued);
            self.ready.push(priority, item(slot.key.clone(), hash, queued));
            self.ready_len += 1;
            finished.requeued = true;
        } else if slot.entry.is_empty() {
            occupied.remove();
        }
        finished
    }

    /// Stops accepting adds and drops the deadlines still in the future; keys already
    /// due, queued or dirty stay so that workers can drain them.
    pub fn shutdown(&mut self, now: Instant) {
        self.promote_due(now);
        self.shutting_down = true;
        self.delayed.clear();
        for slot in &mut self.slots {
            slot.entry.deadline = None;
        }
        self.slots.retain(|slot| !slot.entry.is_empty());
    }

    /// The entry of `key`, for tests and the model check.
    #[cfg(test)]
    pub fn entry(&self, key: &K, hash: u64) -> Option<Entry> {
        self.slots.find(hash, |s| s.key == *key).map(|s| s.entry)
    }

    /// Number of keys in the table.
    #[cfg(test)]
    pub fn keys(&self) -> usize {
        self.slots.len()
    }

    /// Asserts every invariant of the module docs; for tests.
    #[cfg(test)]
    pub fn check_invariants(&self) {
        let (mut queued, mut processing, mut dirty) = (0, 0, 0);
        for slot in &self.slots {
            let e = slot.entry;
            assert!(!e.is_empty(), "an empty slot was kept");
            assert!(
                e.queued.is_none() || e.processing.is_none(),
                "a key is both queued and processing"
            );
            assert!(e.dirty.is_none() || e.processing.is_some(), "dirty without processing");
            assert!(
                e.deadline.is_none() || (e.queued.is_none() && e.dirty.is_none()),
                "a deadline on a key that is served sooner"
            );
            queued += usize::from(e.queued.is_some());
            processing += usize::from(e.processing.is_some());
            dirty += usize::from(e.dirty.is_some());
        }
        assert_eq!(queued, self.ready_len, "ready_len is off");
        assert_eq!(processing, self.processing_len, "processing_len is off");
        assert_eq!(dirty, self.dirty_len, "dirty_len is off");
    }
}

fn item<K>(key: K, hash: u64, queued: Queued) -> Item<K> {
    Item {
        key,
        hash,
        ticket: queued.ticket,
        since: queued.since,
    }
}
