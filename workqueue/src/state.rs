//! The queue's state machine: what happens to a key on add, get, done, a deadline and
//! shutdown. It is synchronous and knows nothing of tasks or wakers, so it can be
//! checked exhaustively (see `model_check.rs`); `queue.rs` wraps it in a lock.
//!
//! Every key the queue knows has one [`Slot`] in `slots`, and its [`KeyState`] is the
//! single source of truth about the key. The invariants, most of them made
//! unrepresentable by the type and the rest asserted by `check_invariants`:
//! - a key is *queued* (waiting for a worker) or *processing* (held by one worker), never
//!   both: so a key is never handed to two workers at once;
//! - a key added while processing is marked to be queued again at `done`
//!   ([`Then::Requeue`]), so no change is ever lost;
//! - a key has at most one pending deadline, the earliest asked for, and none while it
//!   is queued or marked for re-queue (it will be served sooner anyway);
//! - a key with nothing pending is removed, so the table holds only live keys.
//!
//! The ready queue and the deadline heap may hold stale items (a key whose priority was
//! raised is pushed again; a deadline brought forward is pushed again). A ready item is
//! live only while its ticket is the one in the key's state, a heap item only while its
//! time is the key's deadline; stale items are dropped when they surface. This keeps
//! every operation O(1) or O(log n) without searching.
//!
//! The layout is tuned for the hot path: a slot is small (the table is probed on every
//! add, get and done, and at a million keys every probe misses the cache), times are
//! nanoseconds since the queue's epoch, and `pop` finds its slot by ticket without
//! reading the key's bytes: first at the table position the slot had when it was
//! queued, then, if growing the table has moved it, by probing with its hash.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::time::Duration;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use tokio::time::Instant;

use crate::metrics::InProgress;
use crate::ready::{Item, ReadyQueue, UNSTAMPED};

/// Where a key is in its life; see the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyState {
    /// Waiting in the ready queue; `ticket` names its live item there.
    Queued { ticket: u64, since: u64, priority: i32 },
    /// Held by a worker since `started`; `then` says what happens at `done`.
    Processing { started: u64, then: Then },
    /// Neither queued nor held: waiting for a deadline.
    Waiting(Deadline),
}

/// What `done` does with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Then {
    /// Nothing is pending: the key is forgotten.
    Forget,
    /// It was added while processing: queue it again.
    Requeue { since: u64, priority: i32 },
    /// A deadline was asked for while processing: wait for it.
    Wait(Deadline),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Deadline {
    at: u64,
    priority: i32,
}

#[derive(Clone)]
struct Slot<K> {
    key: K,
    hash: u64,
    state: KeyState,
}

/// A pending deadline in the heap; ordered by time, then by `order` so equal deadlines
/// keep the order they were asked in.
#[derive(Clone)]
struct Delayed<K> {
    at: u64,
    order: u64,
    hash: u64,
    key: K,
}

impl<K> PartialEq for Delayed<K> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.order) == (other.at, other.order)
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
        (self.at, self.order).cmp(&(other.at, other.order))
    }
}

/// The current time, read from the system clock at most once and only if something
/// needs it: on the hot path, reading the clock costs more than the rest of an add.
pub(crate) struct Now(Option<Instant>);

impl Now {
    pub fn lazy() -> Self {
        Self(None)
    }

    #[cfg(test)]
    pub fn at(now: Instant) -> Self {
        Self(Some(now))
    }

    pub fn get(&mut self) -> Instant {
        *self.0.get_or_insert_with(Instant::now)
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
    /// When the key was handed out, if the caller was processing it and times are
    /// kept (`track_time`: only metrics read it).
    pub started: Option<Instant>,
    /// The key had been added meanwhile and is queued again: wake a worker.
    pub requeued: bool,
}

#[derive(Clone)]
pub(crate) struct State<K> {
    slots: HashTable<Slot<K>>,
    ready: ReadyQueue,
    /// Live items in `ready`: the queue's length.
    ready_len: usize,
    /// Keys to re-queue at `done`; with `ready_len`, the depth client-go reports.
    dirty_len: usize,
    processing_len: usize,
    /// Pending deadlines, earliest on top; may hold stale ones (see module docs).
    delayed: BinaryHeap<Reverse<Delayed<K>>>,
    next_ticket: u64,
    shutting_down: bool,
    /// Time zero of the nanosecond timestamps.
    epoch: Instant,
    /// Stamp every key with the times metrics report; otherwise times are read only
    /// for aging and deadlines.
    track_time: bool,
    /// When each key in progress was handed out, kept with `track_time` so that
    /// metrics read the work in progress without scanning the table.
    running: Vec<u64>,
}

impl<K: Clone + Eq> State<K> {
    pub fn new(aging_interval: Duration, track_time: bool) -> Self {
        Self {
            slots: HashTable::new(),
            ready: ReadyQueue::new(aging_interval),
            ready_len: 0,
            dirty_len: 0,
            processing_len: 0,
            delayed: BinaryHeap::new(),
            next_ticket: 0,
            shutting_down: false,
            epoch: Instant::now(),
            track_time,
            running: Vec::new(),
        }
    }

    /// The time a key queued at `priority` now is stamped with: a real time when metrics
    /// want it or priorities compete (aging compares times), else none (see `ready.rs`).
    fn stamp(&mut self, priority: i32, now: &mut Now) -> u64 {
        if !self.track_time && !self.ready.contested_by(priority) {
            return UNSTAMPED;
        }
        let now = self.nanos(now.get());
        self.ready.stamp_from(now);
        now
    }

    /// A time for metrics only.
    fn metrics_time(&self, now: &mut Now) -> u64 {
        if self.track_time {
            self.nanos(now.get())
        } else {
            UNSTAMPED
        }
    }

    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_nanos()).unwrap_or(u64::MAX)
    }

    fn instant(&self, nanos: u64) -> Instant {
        self.epoch + Duration::from_nanos(nanos)
    }

    fn ticket(&mut self) -> u64 {
        self.next_ticket += 1;
        self.next_ticket
    }

    /// Queues a key that was not queued.
    fn enqueue(&mut self, hash: u64, bucket: usize, ticket: u64, since: u64, priority: i32) {
        self.push_ready(hash, bucket, ticket, since, priority);
        self.ready_len += 1;
    }

    /// Puts an item on the ready list; a key already queued at a lower priority leaves a
    /// stale item behind, so it is not counted again.
    fn push_ready(&mut self, hash: u64, bucket: usize, ticket: u64, since: u64, priority: i32) {
        let item = Item {
            hash,
            bucket,
            ticket,
            since,
        };
        self.ready.push(priority, item);
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
    #[inline]
    pub fn add(&mut self, key: K, hash: u64, priority: i32, now: &mut Now) -> Added {
        if self.shutting_down {
            return Added::Unchanged;
        }
        let now = self.stamp(priority, now);
        let ticket = self.ticket();
        let (bucket, slot) = match self.slots.entry(hash, |s| s.hash == hash && s.key == key, |s| s.hash) {
            Entry::Vacant(vacant) => {
                let state = KeyState::Queued {
                    ticket,
                    since: now,
                    priority,
                };
                let bucket = vacant.insert(Slot { key, hash, state }).bucket_index();
                self.enqueue(hash, bucket, ticket, now, priority);
                return Added::Queued;
            }
            Entry::Occupied(occupied) => (occupied.bucket_index(), occupied.into_mut()),
        };
        match &mut slot.state {
            KeyState::Processing {
                then: Then::Requeue { priority: dirty, .. },
                ..
            } => {
                *dirty = (*dirty).max(priority);
                Added::Unchanged
            }
            KeyState::Processing { then, .. } => {
                *then = Then::Requeue { since: now, priority };
                self.dirty_len += 1;
                Added::MarkedDirty
            }
            KeyState::Queued {
                ticket: current,
                priority: queued,
                since,
            } => {
                if priority > *queued {
                    // Move up a bucket, keeping the time it has already waited; the old item goes stale.
                    (*current, *queued) = (ticket, priority);
                    let since = *since;
                    self.push_ready(hash, bucket, ticket, since, priority);
                }
                Added::Unchanged
            }
            KeyState::Waiting(_) => {
                slot.state = KeyState::Queued {
                    ticket,
                    since: now,
                    priority,
                };
                self.enqueue(hash, bucket, ticket, now, priority);
                Added::Queued
            }
        }
    }

    /// Adds `key` at `at`. The earliest deadline wins, and a key that will be served
    /// sooner anyway (queued, or dirty) is left as it is.
    pub fn add_at(&mut self, key: K, hash: u64, priority: i32, at: Instant) -> Added {
        if self.shutting_down {
            return Added::Unchanged;
        }
        let at = self.nanos(at);
        let order = self.ticket();
        let asked = Deadline { at, priority };
        match self.slots.entry(hash, |s| s.hash == hash && s.key == key, |s| s.hash) {
            Entry::Vacant(vacant) => {
                let state = KeyState::Waiting(asked);
                vacant.insert(Slot {
                    key: key.clone(),
                    hash,
                    state,
                });
            }
            Entry::Occupied(occupied) => match &mut occupied.into_mut().state {
                KeyState::Queued { .. }
                | KeyState::Processing {
                    then: Then::Requeue { .. },
                    ..
                } => return Added::Unchanged,
                KeyState::Processing {
                    then: then @ Then::Forget,
                    ..
                } => *then = Then::Wait(asked),
                KeyState::Processing {
                    then: Then::Wait(current),
                    ..
                }
                | KeyState::Waiting(current) => {
                    if !bring_forward(current, asked) {
                        return Added::Unchanged;
                    }
                }
            },
        }
        let earliest = self.delayed.peek().is_none_or(|Reverse(first)| at < first.at);
        self.delayed.push(Reverse(Delayed { at, order, hash, key }));
        Added::Scheduled { earliest }
    }

    /// The first pending deadline (it may belong to a stale item, which only makes a
    /// timer fire early and find nothing to do).
    pub fn next_deadline(&self) -> Option<Instant> {
        self.delayed.peek().map(|Reverse(d)| self.instant(d.at))
    }

    /// Adds every key whose deadline has passed; returns how many were queued.
    #[inline]
    pub fn promote_due(&mut self, now: &mut Now) -> usize {
        if self.delayed.is_empty() {
            return 0;
        }
        self.promote_due_now(now)
    }

    #[inline(never)]
    fn promote_due_now(&mut self, now: &mut Now) -> usize {
        let due_by = self.nanos(now.get());
        let mut queued = 0;
        while self.delayed.peek().is_some_and(|Reverse(d)| d.at <= due_by) {
            let Some(Reverse(due)) = self.delayed.pop() else {
                break;
            };
            let ticket = self.ticket();
            let Ok(mut occupied) = self
                .slots
                .find_entry(due.hash, |s| s.hash == due.hash && s.key == due.key)
            else {
                continue;
            };
            let bucket = occupied.bucket_index();
            let slot = occupied.get_mut();
            match &mut slot.state {
                KeyState::Waiting(deadline) if deadline.at == due.at => {
                    let priority = deadline.priority;
                    let since = due_by;
                    slot.state = KeyState::Queued {
                        ticket,
                        since,
                        priority,
                    };
                    self.enqueue(due.hash, bucket, ticket, since, priority);
                    queued += 1;
                }
                KeyState::Processing {
                    then: then @ Then::Wait(_),
                    ..
                } => {
                    if let Then::Wait(deadline) = *then
                        && deadline.at == due.at
                    {
                        *then = Then::Requeue {
                            since: due_by,
                            priority: deadline.priority,
                        };
                        self.dirty_len += 1;
                    }
                }
                _ => {} // stale: the deadline was replaced or consumed
            }
        }
        queued
    }

    /// Hands the next queued key to a worker.
    #[inline]
    pub fn pop(&mut self, now: &mut Now) -> Option<Popped<K>> {
        let now = self.metrics_time(now);
        while let Some(item) = self.ready.pop() {
            // Tickets are unique, so the ticket alone names the slot: no key comparison.
            // It is usually still where it was queued; growing the table moves it.
            let live = |s: &Slot<K>| matches!(s.state, KeyState::Queued { ticket, .. } if ticket == item.ticket);
            let found = match self.slots.get_bucket_mut(item.bucket) {
                Some(slot) if live(slot) => Some(slot),
                _ => self.slots.find_mut(item.hash, live),
            };
            let Some(slot) = found else {
                continue; // stale: the key was raised to a higher priority
            };
            let KeyState::Queued { since, .. } = slot.state else {
                continue;
            };
            slot.state = KeyState::Processing {
                started: now,
                then: Then::Forget,
            };
            if self.track_time {
                self.running.push(now);
            }
            self.ready_len -= 1;
            self.processing_len += 1;
            return Some(Popped {
                key: slot.key.clone(),
                waited: Duration::from_nanos(now.saturating_sub(since)),
            });
        }
        None
    }

    /// Ends the processing of `key`; a dirty key is queued again.
    #[inline]
    pub fn done(&mut self, key: &K, hash: u64) -> Finished {
        let mut finished = Finished {
            started: None,
            requeued: false,
        };
        let Ok(mut occupied) = self.slots.find_entry(hash, |s| s.hash == hash && s.key == *key) else {
            return finished;
        };
        let slot = occupied.get_mut();
        let KeyState::Processing { started, then } = slot.state else {
            return finished;
        };
        self.processing_len -= 1;
        if self.track_time {
            finished.started = Some(self.epoch + Duration::from_nanos(started));
            if let Some(index) = self.running.iter().position(|at| *at == started) {
                self.running.swap_remove(index);
            }
        }
        match then {
            Then::Forget => {
                occupied.remove();
            }
            Then::Wait(deadline) => slot.state = KeyState::Waiting(deadline),
            Then::Requeue { since, priority } => {
                self.next_ticket += 1;
                let ticket = self.next_ticket;
                slot.state = KeyState::Queued {
                    ticket,
                    since,
                    priority,
                };
                self.dirty_len -= 1;
                let bucket = occupied.bucket_index();
                self.enqueue(hash, bucket, ticket, since, priority);
                finished.requeued = true;
            }
        }
        finished
    }

    /// The work handed out and not yet done, as of `now` (zero without `track_time`).
    pub fn in_progress(&self, now: Instant) -> InProgress {
        let now = self.nanos(now);
        let mut in_progress = InProgress::default();
        for started in &self.running {
            let held = Duration::from_nanos(now.saturating_sub(*started));
            in_progress.unfinished += held;
            in_progress.longest = in_progress.longest.max(held);
        }
        in_progress
    }

    /// Stops accepting adds and drops the deadlines still in the future; keys already
    /// due, queued or dirty stay so that workers can drain them.
    pub fn shutdown(&mut self, now: &mut Now) {
        self.promote_due(now);
        self.shutting_down = true;
        self.delayed.clear();
        self.slots.retain(|slot| match &mut slot.state {
            KeyState::Waiting(_) => false,
            KeyState::Processing { then, .. } => {
                if matches!(then, Then::Wait(_)) {
                    *then = Then::Forget;
                }
                true
            }
            KeyState::Queued { .. } => true,
        });
    }
}

/// Keeps the earlier of two deadlines and the higher of their priorities; false if
/// `current` was already as early.
fn bring_forward(current: &mut Deadline, asked: Deadline) -> bool {
    current.priority = current.priority.max(asked.priority);
    if current.at <= asked.at {
        return false;
    }
    current.at = asked.at;
    true
}

/// What tests see of a key: the plain facts, whatever the encoding.
#[cfg(test)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyView {
    /// The priority it is queued at.
    pub queued: Option<i32>,
    pub processing: bool,
    /// The priority it will be re-queued at after `done`.
    pub dirty: Option<i32>,
    /// Its pending deadline and priority.
    pub deadline: Option<(Instant, i32)>,
}

#[cfg(test)]
impl<K: Clone + Eq> State<K> {
    /// What the state says of `key`, if it knows it.
    pub fn view(&self, key: &K, hash: u64) -> Option<KeyView> {
        let slot = self.slots.find(hash, |s| s.key == *key)?;
        let deadline = |d: Deadline| Some((self.instant(d.at), d.priority));
        Some(match slot.state {
            KeyState::Queued { priority, .. } => KeyView {
                queued: Some(priority),
                ..KeyView::default()
            },
            KeyState::Processing { then, .. } => KeyView {
                processing: true,
                dirty: match then {
                    Then::Requeue { priority, .. } => Some(priority),
                    _ => None,
                },
                deadline: match then {
                    Then::Wait(d) => deadline(d),
                    _ => None,
                },
                ..KeyView::default()
            },
            KeyState::Waiting(d) => KeyView {
                deadline: deadline(d),
                ..KeyView::default()
            },
        })
    }

    /// Number of keys in the table.
    pub fn keys(&self) -> usize {
        self.slots.len()
    }

    /// Asserts the invariants the types do not enforce.
    pub fn check_invariants(&self) {
        let (mut queued, mut processing, mut dirty) = (0, 0, 0);
        for slot in &self.slots {
            match slot.state {
                KeyState::Queued { .. } => queued += 1,
                KeyState::Processing { then, .. } => {
                    processing += 1;
                    dirty += usize::from(matches!(then, Then::Requeue { .. }));
                }
                KeyState::Waiting(_) => assert!(!self.shutting_down, "a deadline survived shutdown"),
            }
        }
        assert_eq!(queued, self.ready_len, "ready_len is off");
        assert_eq!(processing, self.processing_len, "processing_len is off");
        assert_eq!(dirty, self.dirty_len, "dirty_len is off");
        let running = if self.track_time { processing } else { 0 };
        assert_eq!(self.running.len(), running, "running is off");
    }

    /// The size of a slot, which the hot path is sensitive to.
    pub fn slot_size() -> usize {
        std::mem::size_of::<Slot<K>>()
    }
}
