//! [`WorkQueue`], the handle workers and event handlers share: the state machine of
//! `state.rs` and the parked workers of `waiters.rs` behind one short lock. An add that
//! finds the lock held does not wait for it: it is left for the holder to apply (see
//! [`DeferredAdd`]).

use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::pin::Pin;
use std::sync::atomic::{Ordering, fence};
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use crossbeam_queue::ArrayQueue;
use parking_lot::Mutex;
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

use crate::metrics::{InProgress, MetricsProvider, QueueMetrics};
use crate::rate_limiter::{RateLimiter, default_rate_limiter};
use crate::state::{Added, Finished, Now, State};
use crate::waiters::{Waiters, Wakeups};

/// What a queue key must be: cheap to compare and hash, and sendable between tasks.
/// Clones happen once per key that enters the queue, so a key that is cheap to clone
/// (an `Arc<str>`, a small struct) makes the queue faster still.
///
/// ```
/// use std::sync::Arc;
/// use wheelhouse_workqueue::WorkQueue;
///
/// #[derive(Clone, PartialEq, Eq, Hash)]
/// struct ObjectRef { namespace: Arc<str>, name: Arc<str> }
///
/// let queue = WorkQueue::new();
/// queue.add(ObjectRef { namespace: "default".into(), name: "web".into() });
/// # assert_eq!(queue.len(), 1);
/// ```
pub trait Key: Clone + Eq + Hash + Send + Sync + 'static {}
impl<T: Clone + Eq + Hash + Send + Sync + 'static> Key for T {}

/// How urgently a key should be served; higher first. See the crate docs on aging.
///
/// ```
/// use wheelhouse_workqueue::Priority;
///
/// assert!(Priority::HIGH > Priority::NORMAL && Priority::NORMAL > Priority::LOW);
/// assert_eq!(Priority::default(), Priority::NORMAL);
/// let between = Priority(-10); // any i32 works; ten aging intervals of handicap
/// # let _ = between;
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Priority(pub i32);

impl Priority {
    /// For initial lists and resyncs, which should not delay live changes.
    pub const LOW: Self = Self(-100);
    /// The priority of a plain `add`.
    pub const NORMAL: Self = Self(0);
    /// For keys that must jump the queue.
    pub const HIGH: Self = Self(100);
}

/// Options of [`WorkQueue::add_with`]; the default is a plain `add`.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{AddOptions, Priority, WorkQueue};
///
/// let queue = WorkQueue::new();
/// // A resync: low priority, spread over the next second.
/// queue.add_with("default/web", AddOptions { priority: Priority::LOW, after: Some(Duration::from_secs(1)), ..Default::default() });
/// assert_eq!(queue.len(), 0); // not yet due
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AddOptions {
    /// Higher is served first; a duplicate add keeps the highest priority asked for.
    pub priority: Priority,
    /// Add the key only after this delay; the earliest pending deadline wins.
    pub after: Option<Duration>,
    /// Also wait as long as the rate limiter says (the longer of the two delays).
    pub rate_limited: bool,
}

/// A deduplicating, delaying, rate-limited, prioritised queue of keys with client-go's
/// contract: a key is never handed to two workers at once, and no add is lost.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use wheelhouse_workqueue::WorkQueue;
///
/// let queue = WorkQueue::new();
/// queue.add("default/web");
/// queue.add("default/web"); // a duplicate: still one key queued
/// assert_eq!(queue.len(), 1);
///
/// let key = queue.get().await.unwrap();
/// queue.add(key); // changed while processing: it will be served again after `done`
/// queue.done(&key);
/// assert_eq!(queue.get().await, Some("default/web"));
/// # }
/// ```
pub struct WorkQueue<K> {
    shared: Arc<Shared<K>>,
}

struct Shared<K> {
    inner: Mutex<Inner<K>>,
    /// Adds that found the lock held, left for its holder (see [`DeferredAdd`]).
    deferred: ArrayQueue<DeferredAdd<K>>,
    hasher: foldhash::fast::RandomState,
    rate_limiter: Box<dyn RateLimiter<K>>,
    metrics: Option<Arc<dyn QueueMetrics>>,
    /// Notified when the queue becomes drained during shutdown.
    drained: Notify,
    name: String,
    /// Runs once, under the lock, when a worker is about to park (tests only).
    #[cfg(test)]
    before_parking: TestHook,
    /// Runs once, outside the lock, when an add that found it held is about to defer
    /// itself (tests only).
    #[cfg(test)]
    before_deferring: TestHook,
}

struct Inner<K> {
    state: State<K>,
    waiters: Waiters,
}

/// An add that found the lock held. Rather than wait for the lock, the caller leaves
/// the add here and returns, and whoever holds the lock applies it. Two rules keep
/// this invisible to callers:
/// - every acquisition of the lock applies the deferred adds before anything else, so
///   what the lock guards is only ever read with every earlier add applied, and one
///   caller's adds apply in the order it made them;
/// - whoever lets go of the lock then looks for deferred adds, and applies them if the
///   lock is still free (`catch_up`); whoever defers an add then looks at the lock, and
///   applies the deferred adds if it is free. A fence on both sides makes at least one
///   of the two see the other, so no add is left waiting.
///
/// With two producers on two cores, they and the workers' `get`s contend for the lock
/// all the time; a producer that leaves its add instead of waiting for the lock (and
/// often parking its thread) keeps producing. Only plain adds are deferred: adds with
/// a delay are rare, and `done` would have to clone its key.
struct DeferredAdd<K> {
    key: K,
    hash: u64,
    priority: i32,
}

/// What applying deferred adds did, for the metrics recorded once the lock is released
/// (metrics are never called under the lock).
#[derive(Default, Clone, Copy)]
struct Applied {
    /// Adds that queued their key or marked it dirty (a duplicate is not an add).
    added: usize,
    depth: usize,
}

/// How many adds may wait for the lock's holder; past that, callers wait for the lock.
///
/// Small on purpose. The holder applies every deferred add before its own operation,
/// so while a producer keeps deferring, a worker holding the lock spends its turn on
/// the producer's adds and hands out one key per turn: with room for 1,024 the
/// producers ran ahead and the queue grew as deep as the keys there were (up to
/// 1,000,000 in the scale bench), and every operation then missed the cache in a table
/// of that size. A few adds of room keep a producer from waiting behind a short hold
/// and bound how far it runs ahead (the scale bench's W1 workload run alone, per add, medians
/// of five alternated runs on a loaded 2-core machine: 388 → 247 ns at 10,000 keys,
/// 655 → 557 at 100,000, 743 → 530 at 1,000,000, for 1,024 → 8; at a heavier load
/// 779 → 505, 818 → 691, and 902 → 1,097 at 1,000,000, where runs spread widely).
const DEFERRED_CAPACITY: usize = 8;

impl<K> Clone for WorkQueue<K> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<K> fmt::Debug for WorkQueue<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkQueue")
            .field("name", &self.shared.name)
            .finish_non_exhaustive()
    }
}

impl<K: Key> Default for WorkQueue<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Key> WorkQueue<K> {
    /// An unnamed queue with client-go's default rate limiter and no metrics.
    pub fn new() -> Self {
        Self::builder().build()
    }

    /// Configures a queue: name, rate limiter, metrics, aging.
    pub fn builder() -> Builder<K> {
        Builder {
            name: String::new(),
            rate_limiter: None,
            metrics: None,
            aging_interval: DEFAULT_AGING_INTERVAL,
        }
    }

    /// The name given to the builder (the `name` label of the metrics).
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// Adds `key` now. A queued key is not queued twice; a key being processed is
    /// served again after its `done`. Ignored once the queue is shutting down.
    #[inline]
    pub fn add(&self, key: K) {
        self.add_with(key, AddOptions::default());
    }

    /// Adds `key` after `delay`; if the key already waits for a deadline, the earliest
    /// one wins. A zero delay is a plain add.
    pub fn add_after(&self, key: K, delay: Duration) {
        self.add_with(
            key,
            AddOptions {
                after: Some(delay),
                ..AddOptions::default()
            },
        );
    }

    /// Adds `key` after the delay the rate limiter gives it (counting one more failure).
    pub fn add_rate_limited(&self, key: K) {
        self.add_with(
            key,
            AddOptions {
                rate_limited: true,
                ..AddOptions::default()
            },
        );
    }

    /// Adds `key` with a priority, a delay, or a rate-limited delay.
    #[inline]
    pub fn add_with(&self, mut key: K, options: AddOptions) {
        let mut delay = options.after.unwrap_or_default();
        if options.rate_limited {
            delay = delay.max(self.shared.rate_limiter.when(&key));
        }
        let hash = self.shared.hasher.hash_one(&key);
        let priority = options.priority.0;
        let mut now = Now::lazy();
        let at = (!delay.is_zero()).then(|| now.get().checked_add(delay).unwrap_or_else(far_future));
        let mut wake = Wakeups::default();
        let mut inner = match self.shared.inner.try_lock() {
            Some(inner) => inner,
            None if at.is_none() => {
                #[cfg(test)]
                run_hook(&self.shared.before_deferring);
                match self.shared.deferred.push(DeferredAdd { key, hash, priority }) {
                    Ok(()) => return self.shared.catch_up_after_deferring(),
                    Err(full) => {
                        key = full.key;
                        self.shared.inner.lock()
                    }
                }
            }
            None => self.shared.inner.lock(),
        };
        let applied = self.shared.apply_deferred(&mut inner, &mut wake);
        let added = match at {
            None => inner.state.add(key, hash, priority, &mut now),
            Some(at) => inner.state.add_at(key, hash, priority, at),
        };
        match added {
            Added::Queued => {
                let queued = inner.state.len();
                wake.push(inner.waiters.wake_for_work(queued));
            }
            Added::Scheduled { earliest: true } => wake.push(inner.waiters.take_timer_owner()),
            Added::Scheduled { earliest: false } | Added::MarkedDirty | Added::Unchanged => {}
        }
        let depth = inner.state.depth();
        drop(inner);
        self.shared.after_unlock(&mut wake, applied);
        self.shared.record_added(added, depth);
    }

    /// Waits for the next key; `None` once the queue is shut down and nothing is left
    /// queued. Every key returned must be given back with [`done`](Self::done).
    ///
    /// Cancel-safe: dropping the future before it completes loses no key.
    pub async fn get(&self) -> Option<K> {
        let mut waiter = Waiter {
            queue: self,
            parked_as: None,
            timer: None,
        };
        std::future::poll_fn(|cx| waiter.poll(cx)).await
    }

    /// Ends the processing of `key`. If it was added meanwhile, it is queued again.
    #[inline]
    pub fn done(&self, key: &K) {
        let hash = self.shared.hasher.hash_one(key);
        let mut wake = Wakeups::default();
        let mut inner = self.shared.inner.lock();
        let applied = self.shared.apply_deferred(&mut inner, &mut wake);
        let finished = inner.state.done(key, hash);
        if finished.requeued {
            let queued = inner.state.len();
            wake.push(inner.waiters.wake_for_work(queued));
        }
        let drained = inner.state.is_drained();
        let depth = inner.state.depth();
        drop(inner);
        if drained {
            self.shared.drained.notify_waiters();
        }
        self.shared.after_unlock(&mut wake, applied);
        self.shared.record_done(&finished, depth);
    }

    /// Forgets `key`'s failures in the rate limiter (call it when the key succeeds).
    pub fn forget(&self, key: &K) {
        self.shared.rate_limiter.forget(key);
    }

    /// How many failures of `key` the rate limiter remembers.
    pub fn num_requeues(&self, key: &K) -> u32 {
        self.shared.rate_limiter.num_requeues(key)
    }

    /// Keys waiting for a worker (delayed keys count once their deadline has passed).
    pub fn len(&self) -> usize {
        let mut wake = Wakeups::default();
        let mut inner = self.shared.inner.lock();
        let applied = self.shared.apply_deferred(&mut inner, &mut wake);
        if inner.state.promote_due(&mut Now::lazy()) > 0 {
            let queued = inner.state.len();
            wake.push(inner.waiters.wake_for_work(queued));
        }
        let len = inner.state.len();
        drop(inner);
        self.shared.after_unlock(&mut wake, applied);
        len
    }

    /// True when no key waits for a worker.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Stops the queue: adds are ignored from now on, delayed keys are dropped, and
    /// `get` hands out what is still queued, then returns `None`.
    pub fn shutdown(&self) {
        let mut wake = Wakeups::default();
        let mut inner = self.shared.inner.lock();
        // Adds deferred before the shutdown count as made before it.
        let applied = self.shared.apply_deferred(&mut inner, &mut wake);
        inner.state.shutdown(&mut Now::lazy());
        let parked = inner.waiters.take_all();
        let drained = inner.state.is_drained();
        let (queued, processing) = (inner.state.len(), inner.state.processing());
        drop(inner);
        tracing::debug!(queue = %self.shared.name, queued, processing, "work queue shutting down");
        for waker in parked {
            waker.wake();
        }
        if drained {
            self.shared.drained.notify_waiters();
        }
        self.shared.after_unlock(&mut wake, applied);
    }

    /// Shuts down and waits until every queued key has been handed out and every
    /// handed-out key is done. Workers must keep calling `get` meanwhile, or this waits
    /// forever: wrap it in a timeout if they may not.
    pub async fn shutdown_with_drain(&self) {
        self.shutdown();
        loop {
            let notified = self.shared.drained.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if self.shared.inner.lock().state.is_drained() {
                break;
            }
            notified.await;
        }
        tracing::debug!(queue = %self.shared.name, "work queue drained");
    }

    /// True once [`shutdown`](Self::shutdown) has been called.
    pub fn is_shutting_down(&self) -> bool {
        self.shared.inner.lock().state.is_shutting_down()
    }

    /// Hands out a key, or parks the worker until there is one.
    fn poll_get(
        &self,
        parked_as: &mut Option<u64>,
        timer: &mut Option<Pin<Box<Sleep>>>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<K>> {
        loop {
            let mut now = Now::lazy();
            let mut wake = Wakeups::default();
            let mut guard = self.shared.inner.lock();
            let inner = &mut *guard;
            let applied = self.shared.apply_deferred(inner, &mut wake);
            if let Some(id) = *parked_as {
                inner.waiters.unpark(id);
            }
            inner.state.promote_due(&mut now);
            let popped = inner.state.pop(&mut now);
            if popped.is_some() || inner.state.is_shutting_down() {
                // More keys queued: pass the wake-up on down the chain.
                if inner.state.len() > 0 {
                    let queued = inner.state.len();
                    wake.push(inner.waiters.wake_for_work(queued));
                }
                if let Some(id) = parked_as.take() {
                    release_timer(inner, id, &mut wake);
                }
                let depth = inner.state.depth();
                drop(guard);
                self.shared.after_unlock(&mut wake, applied);
                let popped = popped.map(|popped| {
                    if let Some(metrics) = &self.shared.metrics {
                        metrics.waited(popped.waited);
                        metrics.depth(depth);
                    }
                    popped.key
                });
                return Poll::Ready(popped);
            }
            let id = *parked_as.get_or_insert_with(|| inner.waiters.new_id());
            inner.waiters.park(id, cx.waker());
            let deadline = inner.state.next_deadline().filter(|_| inner.waiters.claim_timer(id));
            #[cfg(test)]
            run_hook(&self.shared.before_parking);
            drop(guard);
            self.shared.after_unlock(&mut wake, applied);
            let Some(deadline) = deadline else {
                *timer = None;
                return Poll::Pending;
            };
            let sleep = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
            if sleep.deadline() != deadline {
                sleep.as_mut().reset(deadline);
            }
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
        }
    }

    /// A `get` future is dropped while parked: take it off the list, and pass on a
    /// wake-up or the timer it may have had, so no queued key is left unserved.
    fn abandon_get(&self, id: u64) {
        let mut wake = Wakeups::default();
        let mut guard = self.shared.inner.lock();
        let inner = &mut *guard;
        let applied = self.shared.apply_deferred(inner, &mut wake);
        let was_woken = !inner.waiters.unpark(id);
        if was_woken && inner.state.len() > 0 {
            let queued = inner.state.len();
            wake.push(inner.waiters.wake_for_work(queued));
        }
        release_timer(inner, id, &mut wake);
        drop(guard);
        self.shared.after_unlock(&mut wake, applied);
    }

    fn in_progress(shared: &Weak<Shared<K>>) -> Option<InProgress> {
        let shared = shared.upgrade()?;
        let now = Instant::now();
        Some(shared.inner.lock().state.in_progress(now))
    }
}

impl<K: Key> Shared<K> {
    /// Applies the adds deferred while the lock was held; call it right after taking
    /// the lock, before reading anything it guards.
    #[inline]
    #[must_use = "the adds applied are recorded once the lock is released"]
    fn apply_deferred(&self, inner: &mut Inner<K>, wake: &mut Wakeups) -> Applied {
        if self.deferred.is_empty() {
            return Applied::default();
        }
        self.apply_deferred_now(inner, wake)
    }

    #[inline(never)]
    fn apply_deferred_now(&self, inner: &mut Inner<K>, wake: &mut Wakeups) -> Applied {
        let mut now = Now::lazy();
        let mut applied = Applied::default();
        while let Some(DeferredAdd { key, hash, priority }) = self.deferred.pop() {
            match inner.state.add(key, hash, priority, &mut now) {
                Added::Queued => {
                    let queued = inner.state.len();
                    wake.push(inner.waiters.wake_for_work(queued));
                    applied.added += 1;
                }
                Added::MarkedDirty => applied.added += 1,
                Added::Scheduled { .. } | Added::Unchanged => {}
            }
        }
        applied.depth = inner.state.depth();
        applied
    }

    /// Once the lock is released: wakes the workers collected under it, records the
    /// metrics of the deferred adds it applied, and applies adds deferred meanwhile.
    #[inline]
    fn after_unlock(&self, wake: &mut Wakeups, applied: Applied) {
        // Most operations wake nobody and applied no deferred add: keep that path short.
        if !wake.is_empty() || applied.added > 0 {
            self.wake_and_record(wake, applied);
        }
        self.catch_up();
    }

    #[inline(never)]
    fn wake_and_record(&self, wake: &mut Wakeups, applied: Applied) {
        std::mem::take(wake).wake();
        self.record_applied(applied);
    }

    #[inline]
    fn record_applied(&self, applied: Applied) {
        if let Some(metrics) = self.metrics.as_ref().filter(|_| applied.added > 0) {
            for _ in 0..applied.added {
                metrics.added();
            }
            metrics.depth(applied.depth);
        }
    }

    /// Applies adds deferred meanwhile, unless someone else holds the lock (it will
    /// apply them, or see them once it lets go). Call it after letting go of the lock,
    /// and after deferring an add. See [`DeferredAdd`].
    #[inline]
    fn catch_up(&self) {
        fence(Ordering::SeqCst);
        if !self.deferred.is_empty() {
            self.catch_up_now();
        }
    }

    /// `catch_up` for the caller that has just deferred an add: it knows the list is not
    /// empty, so it looks at the lock instead (one cache line, where the list's state
    /// is two that the holder is writing). Either it sees the lock free and applies
    /// the add itself, or the holder, looking at the list once it lets go, sees the add.
    #[inline]
    fn catch_up_after_deferring(&self) {
        fence(Ordering::SeqCst);
        if !self.inner.is_locked() {
            self.catch_up_now();
        }
    }

    #[inline(never)]
    fn catch_up_now(&self) {
        loop {
            let Some(mut inner) = self.inner.try_lock() else {
                return;
            };
            let mut wake = Wakeups::default();
            let applied = self.apply_deferred_now(&mut inner, &mut wake);
            drop(inner);
            wake.wake();
            self.record_applied(applied);
            fence(Ordering::SeqCst);
            if self.deferred.is_empty() {
                return;
            }
        }
    }

    fn record_added(&self, added: Added, depth: usize) {
        if let Some(metrics) = &self.metrics {
            match added {
                Added::Queued | Added::MarkedDirty => {
                    metrics.added();
                    metrics.depth(depth);
                }
                Added::Scheduled { .. } => metrics.retried(),
                Added::Unchanged => {}
            }
        }
    }

    fn record_done(&self, finished: &Finished, depth: usize) {
        if let (Some(metrics), Some(started)) = (&self.metrics, finished.started) {
            metrics.worked(started.elapsed());
            if finished.requeued {
                metrics.depth(depth);
            }
        }
    }
}

/// The worker `id` stops waiting: if it owned the timer, another parked worker takes it.
fn release_timer<K: Key>(inner: &mut Inner<K>, id: u64, wake: &mut Wakeups) {
    if inner.waiters.release_timer(id) && inner.state.next_deadline().is_some() {
        wake.push(inner.waiters.pop());
    }
}

/// Code a test runs at a given point of the queue's, once.
#[cfg(test)]
type TestHook = Mutex<Option<Box<dyn FnOnce() + Send>>>;

#[cfg(test)]
fn run_hook(hook: &TestHook) {
    let hook = hook.lock().take();
    if let Some(hook) = hook {
        hook();
    }
}

/// A deadline too far to represent is as good as never; shutdown drops it.
fn far_future() -> Instant {
    Instant::now() + Duration::from_hours(24 * 365 * 30)
}

/// How long a key waits to gain one point of priority (see the crate docs on aging).
pub const DEFAULT_AGING_INTERVAL: Duration = Duration::from_millis(100);

/// The state of one `get` call; dropping it while parked hands on what it was given.
struct Waiter<'a, K: Key> {
    queue: &'a WorkQueue<K>,
    /// Set while this worker may be on the parked list.
    parked_as: Option<u64>,
    timer: Option<Pin<Box<Sleep>>>,
}

impl<K: Key> Waiter<'_, K> {
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Option<K>> {
        self.queue.poll_get(&mut self.parked_as, &mut self.timer, cx)
    }
}

impl<K: Key> Drop for Waiter<'_, K> {
    #[inline]
    fn drop(&mut self) {
        if let Some(id) = self.parked_as {
            self.queue.abandon_get(id);
        }
    }
}

/// Builds a [`WorkQueue`]; see [`WorkQueue::builder`].
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_workqueue::{ExponentialBackoff, PrometheusMetrics, WorkQueue};
///
/// let metrics = PrometheusMetrics::register(&prometheus::Registry::new()).unwrap();
/// let queue: WorkQueue<String> = WorkQueue::builder()
///     .name("webapp")
///     .rate_limiter(ExponentialBackoff::new(Duration::from_millis(50), Duration::from_secs(60)))
///     .metrics(&metrics)
///     .aging_interval(Duration::from_millis(10))
///     .build();
/// assert_eq!(queue.name(), "webapp");
/// ```
pub struct Builder<K> {
    name: String,
    rate_limiter: Option<Box<dyn RateLimiter<K>>>,
    metrics: Option<Box<dyn MetricsProvider>>,
    aging_interval: Duration,
}

impl<K: Key> Builder<K> {
    /// Names the queue; the name labels its metrics and logs.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The limiter behind `add_rate_limited` (default: [`default_rate_limiter`]).
    #[must_use]
    pub fn rate_limiter(mut self, limiter: impl RateLimiter<K> + 'static) -> Self {
        self.rate_limiter = Some(Box::new(limiter));
        self
    }

    /// Reports the queue's metrics to `provider` (default: none).
    #[must_use]
    pub fn metrics<P: MetricsProvider + Clone + 'static>(mut self, provider: &P) -> Self {
        self.metrics = Some(Box::new(provider.clone()));
        self
    }

    /// How long a key waits to gain one point of priority (default 100 ms: a
    /// [`Priority::LOW`] key overtakes fresh [`Priority::NORMAL`] keys after 10 s).
    #[must_use]
    pub fn aging_interval(mut self, interval: Duration) -> Self {
        self.aging_interval = interval;
        self
    }

    /// Builds the queue. It needs no runtime until a worker awaits `get`.
    pub fn build(self) -> WorkQueue<K> {
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner {
                state: State::new(self.aging_interval, self.metrics.is_some()),
                waiters: Waiters::default(),
            }),
            deferred: ArrayQueue::new(DEFERRED_CAPACITY),
            hasher: foldhash::fast::RandomState::default(),
            rate_limiter: self.rate_limiter.unwrap_or_else(|| Box::new(default_rate_limiter())),
            metrics: self.metrics.map(|provider| provider.queue_metrics(&self.name)),
            drained: Notify::new(),
            name: self.name,
            #[cfg(test)]
            before_parking: Mutex::new(None),
            #[cfg(test)]
            before_deferring: Mutex::new(None),
        });
        if let Some(metrics) = &shared.metrics {
            let weak = Arc::downgrade(&shared);
            metrics.in_progress_source(Box::new(move || WorkQueue::in_progress(&weak)));
        }
        WorkQueue { shared }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Barrier, mpsc};
    use std::thread;

    use super::*;

    const PATIENCE: Duration = Duration::from_secs(10);

    /// Makes `keys`' adds on another thread and says whether they all returned; the
    /// caller holds the lock, so an add that waited for it would never return.
    fn adds_return(queue: &WorkQueue<u32>, keys: impl IntoIterator<Item = u32> + Send + 'static) -> bool {
        let (returned, on_return) = mpsc::channel();
        let adder = queue.clone();
        thread::spawn(move || {
            keys.into_iter().for_each(|key| adder.add(key));
            returned.send(()).ok();
        });
        on_return.recv_timeout(PATIENCE).is_ok()
    }

    #[tokio::test]
    async fn an_add_that_finds_the_lock_held_returns_and_applies_at_the_next_acquisition() {
        let queue = WorkQueue::new();
        let guard = queue.shared.inner.lock();
        assert!(adds_return(&queue, [1, 2, 1]), "an add waited for the lock");
        assert_eq!(queue.shared.deferred.len(), 3);
        drop(guard);
        // The duplicate is deduplicated, and the order of the adds is kept.
        assert_eq!(queue.len(), 2);
        assert_eq!(queue.get().await, Some(1));
        assert_eq!(queue.get().await, Some(2));
    }

    #[tokio::test]
    async fn a_deferred_add_wakes_a_parked_worker_once_the_lock_is_free() {
        let queue = WorkQueue::new();
        let worker = tokio::spawn({
            let queue = queue.clone();
            async move { queue.get().await }
        });
        tokio::task::yield_now().await; // the worker parks
        let guard = queue.shared.inner.lock();
        assert!(adds_return(&queue, [7]));
        drop(guard);
        // What every holder does once it lets go of the lock.
        queue.shared.catch_up();
        let got = tokio::time::timeout(PATIENCE, worker)
            .await
            .expect("the worker was woken");
        assert_eq!(got.expect("worker panicked"), Some(7));
    }

    #[tokio::test]
    async fn adds_deferred_before_a_shutdown_are_served_before_it_ends() {
        let queue = WorkQueue::new();
        let guard = queue.shared.inner.lock();
        assert!(adds_return(&queue, [1, 2]));
        drop(guard);
        queue.shutdown();
        assert_eq!(queue.get().await, Some(1));
        assert_eq!(queue.get().await, Some(2));
        assert_eq!(queue.get().await, None);
    }

    #[test]
    fn when_no_room_is_left_an_add_waits_for_the_lock() {
        let queue = WorkQueue::new();
        let guard = queue.shared.inner.lock();
        let keys = 0..u32::try_from(DEFERRED_CAPACITY + 1).unwrap();
        let (returned, on_return) = mpsc::channel();
        let adder = queue.clone();
        let producer = thread::spawn(move || {
            keys.for_each(|key| adder.add(key));
            returned.send(()).ok();
        });
        let deadline = std::time::Instant::now() + PATIENCE;
        while queue.shared.deferred.len() < DEFERRED_CAPACITY {
            assert!(std::time::Instant::now() < deadline, "the first adds were not deferred");
            thread::yield_now();
        }
        // The list is full and the lock held: the last add can only wait (or be lost,
        // which the count below would show).
        assert!(
            on_return.recv_timeout(Duration::from_millis(100)).is_err(),
            "the add past capacity must wait"
        );
        drop(guard);
        on_return
            .recv_timeout(PATIENCE)
            .expect("the waiting add went on once the lock was free");
        producer.join().unwrap();
        assert_eq!(queue.len(), DEFERRED_CAPACITY + 1);
    }

    /// The holder lets go of the lock, and finds no deferred add, between an add's
    /// finding the lock held and its leaving itself in the list. Nobody takes the lock
    /// after that, so the add must see the lock free and apply itself.
    #[test]
    fn an_add_deferred_just_after_the_holder_let_go_applies_itself() {
        let queue: WorkQueue<u32> = WorkQueue::new();
        let guard = queue.shared.inner.lock();
        let (found_held, on_found_held) = mpsc::channel();
        let (let_go, on_let_go) = mpsc::channel();
        *queue.shared.before_deferring.lock() = Some(Box::new(move || {
            found_held.send(()).ok();
            on_let_go.recv_timeout(PATIENCE).ok();
        }));
        let adder = queue.clone();
        let producer = thread::spawn(move || adder.add(7));
        on_found_held
            .recv_timeout(PATIENCE)
            .expect("the add found the lock held");
        // Let go as a holder does, once the list has been found empty.
        drop(guard);
        queue.shared.catch_up();
        let_go.send(()).unwrap();
        producer.join().unwrap();
        assert!(queue.shared.deferred.is_empty(), "the add was left in the list");
        assert_eq!(queue.shared.inner.lock().state.len(), 1);
    }

    /// Two producers add at the same moment, so one often finds the lock held by the
    /// other and defers; then nobody touches the queue but the worker. Each key must
    /// still be served: whoever held the lock applies the deferred add as it lets go.
    #[test]
    fn no_deferred_add_is_left_behind_when_producers_race() {
        const ROUNDS: u32 = 300;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .unwrap();
        let queue: WorkQueue<u32> = WorkQueue::new();
        let (served, on_served) = mpsc::channel();
        runtime.spawn({
            let queue = queue.clone();
            async move {
                while let Some(key) = queue.get().await {
                    served.send(key).ok();
                    queue.done(&key);
                }
            }
        });
        let start = Arc::new(Barrier::new(2));
        for round in 0..ROUNDS {
            let producers: Vec<_> = [2 * round, 2 * round + 1]
                .into_iter()
                .map(|key| {
                    let (queue, start) = (queue.clone(), start.clone());
                    thread::spawn(move || {
                        start.wait();
                        queue.add(key);
                    })
                })
                .collect();
            for producer in producers {
                producer.join().unwrap();
            }
            let mut got = [on_served.recv_timeout(PATIENCE), on_served.recv_timeout(PATIENCE)]
                .map(|key| key.unwrap_or_else(|_| panic!("round {round}: an add was left behind")));
            got.sort_unstable();
            assert_eq!(got, [2 * round, 2 * round + 1]);
        }
        queue.shutdown();
    }

    /// Wakes nothing; counts how often it was woken.
    #[derive(Default)]
    struct CountingWaker(std::sync::atomic::AtomicUsize);

    impl futures::task::ArcWake for CountingWaker {
        fn wake_by_ref(this: &Arc<Self>) {
            this.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn an_add_deferred_while_a_worker_parks_wakes_it() {
        let queue = WorkQueue::new();
        let adder = queue.clone();
        *queue.shared.before_parking.lock() = Some(Box::new(move || {
            // The worker holds the lock: this add is left for it, and nothing else
            // touches the queue afterwards.
            assert!(adds_return(&adder, [7]));
        }));
        let woken = Arc::new(CountingWaker::default());
        let waker = futures::task::waker(woken.clone());
        let mut cx = Context::from_waker(&waker);
        let mut get = std::pin::pin!(queue.get());
        assert!(get.as_mut().poll(&mut cx).is_pending());
        assert_eq!(
            woken.0.load(Ordering::SeqCst),
            1,
            "the parked worker was not woken for the deferred add"
        );
        assert_eq!(get.poll(&mut cx), Poll::Ready(Some(7)));
    }

    /// Counts adds, and calls made while the queue's lock is held.
    #[derive(Clone, Default)]
    struct LockChecking {
        queue: Arc<std::sync::OnceLock<WorkQueue<u32>>>,
        added: Arc<std::sync::atomic::AtomicUsize>,
        under_lock: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl LockChecking {
        fn check(&self) {
            if self.queue.get().is_some_and(|queue| queue.shared.inner.is_locked()) {
                self.under_lock.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    impl MetricsProvider for LockChecking {
        fn queue_metrics(&self, _name: &str) -> Arc<dyn QueueMetrics> {
            Arc::new(self.clone())
        }
    }

    impl QueueMetrics for LockChecking {
        fn added(&self) {
            self.added.fetch_add(1, Ordering::SeqCst);
            self.check();
        }
        fn depth(&self, _: usize) {
            self.check();
        }
        fn waited(&self, _: Duration) {
            self.check();
        }
        fn worked(&self, _: Duration) {
            self.check();
        }
        fn retried(&self) {
            self.check();
        }
        fn in_progress_source(&self, _: crate::metrics::InProgressSource) {}
    }

    #[test]
    fn deferred_adds_are_counted_once_the_lock_is_released() {
        let metrics = LockChecking::default();
        let queue = WorkQueue::builder().metrics(&metrics).build();
        assert!(metrics.queue.set(queue.clone()).is_ok());
        let guard = queue.shared.inner.lock();
        assert!(adds_return(&queue, [1, 2, 1]));
        drop(guard);
        assert_eq!(queue.len(), 2);
        assert_eq!(metrics.added.load(Ordering::SeqCst), 2, "a duplicate is not an add");
        assert_eq!(
            metrics.under_lock.load(Ordering::SeqCst),
            0,
            "metrics were called under the lock"
        );
    }
}
