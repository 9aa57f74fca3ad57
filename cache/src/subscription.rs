//! Subscribers of an informer: each has its own bounded queue, so a slow one never
//! holds up the informer or the others.
//!
//! A subscriber whose queue is full is *lagged*: its queue is dropped and replaced by
//! one [`Event::Lagged`], and nothing more is queued for it until it reads that event.
//! Reading it re-syncs the subscriber: every stored object follows as [`Event::Added`],
//! then live events resume. Deletes that happened while it lagged are not reported, so
//! a subscriber must treat `Lagged` as "anything may have changed" (a controller
//! re-queues everything it then receives). Memory stays bounded by the queue capacity
//! plus, during a re-sync, one pointer per stored object.

use std::collections::VecDeque;
use std::sync::Arc;

use futures::Stream;
use parking_lot::Mutex;
use tokio::sync::Notify;

use crate::store::Store;

/// A change an informer saw, in the order the API server made it.
#[derive(Debug)]
pub enum Event<K> {
    /// The object appeared (or a subscriber re-syncs and is told what exists).
    Added(Arc<K>),
    /// The object changed; on a periodic resync `old` and `new` are the same object.
    Updated {
        /// The object as stored before.
        old: Arc<K>,
        /// The object as stored now.
        new: Arc<K>,
    },
    /// The object is gone (deleted, or found missing by a relist); its last state.
    Deleted(Arc<K>),
    /// This subscriber fell behind and missed events; the store's contents follow as
    /// `Added`. See the module docs.
    Lagged,
}

impl<K> Clone for Event<K> {
    fn clone(&self) -> Self {
        match self {
            Self::Added(object) => Self::Added(object.clone()),
            Self::Updated { old, new } => Self::Updated {
                old: old.clone(),
                new: new.clone(),
            },
            Self::Deleted(object) => Self::Deleted(object.clone()),
            Self::Lagged => Self::Lagged,
        }
    }
}

impl<K> Event<K> {
    /// The object the event is about (the new one for an update); None for `Lagged`.
    pub fn object(&self) -> Option<&Arc<K>> {
        match self {
            Self::Added(object) | Self::Deleted(object) | Self::Updated { new: object, .. } => Some(object),
            Self::Lagged => None,
        }
    }
}

/// Where an event comes from, so a consumer can serve live changes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A full list (the first, or a relist after the watch could not resume), a
    /// periodic resync, or a subscriber's copy of the store when it subscribes or
    /// re-syncs after lagging.
    List,
    /// A change the watch reported as it happened.
    Live,
}

struct Queue<K> {
    events: VecDeque<(Event<K>, Origin)>,
    /// Events are being dropped for this subscriber until it reads `Lagged`.
    lagged: bool,
    /// The informer is gone: no more events will come.
    closed: bool,
    /// How many events at the front of `events` are a re-sync's copy of the store:
    /// they do not count against the capacity, or a store larger than it would make
    /// the subscriber lag again on the next event, and never catch up.
    snapshot: usize,
}

pub(crate) struct Subscriber<K> {
    queue: Mutex<Queue<K>>,
    notify: Notify,
    capacity: usize,
}

impl<K> Subscriber<K> {
    /// Queues `event` unless the subscriber lags; a full queue makes it lag. Returns
    /// true if it lagged just now.
    pub fn push(&self, event: &Event<K>, origin: Origin) -> bool {
        let mut queue = self.queue.lock();
        if queue.lagged || queue.closed {
            return false;
        }
        let lagged_now = queue.events.len() - queue.snapshot >= self.capacity;
        if lagged_now {
            queue.events.clear();
            queue.snapshot = 0;
            queue.events.push_back((Event::Lagged, Origin::List));
            queue.lagged = true;
        } else {
            queue.events.push_back((event.clone(), origin));
        }
        drop(queue);
        self.notify.notify_one();
        lagged_now
    }

    pub fn close(&self) {
        self.queue.lock().closed = true;
        self.notify.notify_one();
    }
}

/// The subscribers of one informer. The informer publishes under this lock right after
/// it changes the store, and a subscriber (re-)syncs under it, so each subscriber sees
/// the store's contents and then exactly the events after them.
pub(crate) struct Fanout<K> {
    subscribers: Mutex<Vec<Arc<Subscriber<K>>>>,
    capacity: usize,
}

impl<K> Fanout<K> {
    pub fn new(capacity: usize) -> Self {
        Self {
            subscribers: Mutex::new(Vec::new()),
            capacity: capacity.max(1),
        }
    }

    pub fn lock(&self) -> parking_lot::MutexGuard<'_, Vec<Arc<Subscriber<K>>>> {
        self.subscribers.lock()
    }

    /// Sends `event` to every subscriber; returns how many lagged because of it.
    pub fn publish(subscribers: &mut Vec<Arc<Subscriber<K>>>, event: &Event<K>, origin: Origin) -> usize {
        // A subscription that was dropped holds the only other reference: forget it.
        subscribers.retain(|s| Arc::strong_count(s) > 1);
        subscribers.iter().filter(|s| s.push(event, origin)).count()
    }

    pub fn close(&self) {
        for subscriber in self.subscribers.lock().drain(..) {
            subscriber.close();
        }
    }
}

/// Queues the store's contents as `Added` for `subscriber` and (re)attaches it, under
/// the fan-out lock so no event falls between the snapshot and the live stream.
pub(crate) fn sync_subscriber<K: kube::Resource>(
    fanout: &Fanout<K>,
    store: &Store<K>,
    subscriber: &Arc<Subscriber<K>>,
) {
    let mut subscribers = fanout.lock();
    let snapshot = store.all();
    let mut queue = subscriber.queue.lock();
    queue
        .events
        .extend(snapshot.into_iter().map(|object| (Event::Added(object), Origin::List)));
    // Reached only with an empty queue (new, or its `Lagged` just read): all of it is
    // the snapshot.
    queue.snapshot = queue.events.len();
    queue.lagged = false;
    drop(queue);
    if !subscribers.iter().any(|s| Arc::ptr_eq(s, subscriber)) {
        subscribers.push(subscriber.clone());
    }
    drop(subscribers);
    subscriber.notify.notify_one();
}

/// The events of one subscriber, through [`recv`](Self::recv) or as a stream
/// ([`into_stream`](Self::into_stream)).
/// Dropping it unsubscribes.
pub struct Subscription<K: kube::Resource> {
    subscriber: Arc<Subscriber<K>>,
    fanout: Arc<Fanout<K>>,
    store: Store<K>,
}

impl<K: kube::Resource> Subscription<K> {
    pub(crate) fn new(fanout: Arc<Fanout<K>>, store: Store<K>) -> Self {
        let subscriber = Arc::new(Subscriber {
            queue: Mutex::new(Queue {
                events: VecDeque::new(),
                lagged: false,
                closed: false,
                snapshot: 0,
            }),
            notify: Notify::new(),
            capacity: fanout.capacity,
        });
        sync_subscriber(&fanout, &store, &subscriber);
        Self {
            subscriber,
            fanout,
            store,
        }
    }

    /// The next event; None once the informer has stopped and every event was read.
    pub async fn recv(&mut self) -> Option<Event<K>> {
        self.recv_with_origin().await.map(|(event, _)| event)
    }

    /// The next event and where it comes from (a list or the live watch).
    pub async fn recv_with_origin(&mut self) -> Option<(Event<K>, Origin)> {
        let subscriber = self.subscriber.clone();
        loop {
            let notified = subscriber.notify.notified();
            if let Some(event) = self.try_recv_with_origin() {
                return Some(event);
            }
            if self.subscriber.queue.lock().closed {
                return None;
            }
            notified.await;
        }
    }

    /// The next event if one is queued.
    pub fn try_recv(&mut self) -> Option<Event<K>> {
        self.try_recv_with_origin().map(|(event, _)| event)
    }

    /// The next event and its origin, if one is queued.
    pub fn try_recv_with_origin(&mut self) -> Option<(Event<K>, Origin)> {
        let event = {
            let mut queue = self.subscriber.queue.lock();
            let event = queue.events.pop_front()?;
            queue.snapshot = queue.snapshot.saturating_sub(1);
            event
        };
        if matches!(event.0, Event::Lagged) {
            sync_subscriber(&self.fanout, &self.store, &self.subscriber);
        }
        Some(event)
    }

    /// Events queued and not read yet.
    pub fn pending(&self) -> usize {
        self.subscriber.queue.lock().events.len()
    }

    /// The events as a `Stream`.
    pub fn into_stream(self) -> impl Stream<Item = Event<K>> + Send
    where
        K: Send + Sync + 'static,
    {
        futures::stream::unfold(self, |mut subscription| async move {
            let event = subscription.recv().await?;
            Some((event, subscription))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use k8s_openapi::api::core::v1::ConfigMap;

    use super::{Event, Fanout, Subscription};
    use crate::store::Writer;

    fn config(name: &str) -> ConfigMap {
        let mut config = ConfigMap::default();
        config.metadata.namespace = Some("default".into());
        config.metadata.name = Some(name.into());
        config
    }

    fn name(event: &Event<ConfigMap>) -> String {
        match event {
            Event::Lagged => "Lagged".into(),
            Event::Added(_) => format!("Added {}", event.object().unwrap().metadata.name.as_deref().unwrap()),
            Event::Updated { .. } => format!("Updated {}", event.object().unwrap().metadata.name.as_deref().unwrap()),
            Event::Deleted(_) => format!("Deleted {}", event.object().unwrap().metadata.name.as_deref().unwrap()),
        }
    }

    fn drain(subscription: &mut Subscription<ConfigMap>) -> Vec<String> {
        std::iter::from_fn(|| subscription.try_recv())
            .map(|e| name(&e))
            .collect()
    }

    /// Stores `object` and publishes its `Added`, as the informer does.
    fn add(fanout: &Fanout<ConfigMap>, store: &Writer<ConfigMap>, object: ConfigMap) {
        let mut subscribers = fanout.lock();
        let object = Arc::new(object);
        store.insert_arc(object.clone());
        Fanout::publish(&mut subscribers, &Event::Added(object), super::Origin::Live);
    }

    #[test]
    fn a_full_queue_becomes_one_lagged_then_the_store_contents() {
        let (fanout, store) = (Arc::new(Fanout::new(2)), Writer::default());
        let mut slow = Subscription::new(fanout.clone(), store.reader().clone());
        let mut fast = Subscription::new(fanout.clone(), store.reader().clone());
        for name in ["a", "b"] {
            add(&fanout, &store, config(name));
        }
        assert_eq!(drain(&mut fast), ["Added a", "Added b"]);
        add(&fanout, &store, config("c"));
        add(&fanout, &store, config("d"));
        assert_eq!(slow.pending(), 1, "the queue was replaced by one Lagged");
        assert_eq!(drain(&mut fast), ["Added c", "Added d"], "the others are not affected");
        assert!(matches!(slow.try_recv(), Some(Event::Lagged)));
        let mut resynced = drain(&mut slow);
        resynced.sort();
        assert_eq!(resynced, ["Added a", "Added b", "Added c", "Added d"]);
        add(&fanout, &store, config("e"));
        assert_eq!(drain(&mut slow), ["Added e"], "live events resume after the re-sync");
    }

    /// A re-sync queues the whole store, which may exceed the capacity; those events
    /// must not count against it, or a subscriber of a large store would lag again on
    /// the next event and never catch up.
    #[test]
    fn the_store_contents_do_not_count_against_the_capacity() {
        let (fanout, store) = (Arc::new(Fanout::new(2)), Writer::default());
        for name in ["a", "b", "c", "d", "e"] {
            store.insert(config(name));
        }
        let mut late = Subscription::new(fanout.clone(), store.reader().clone());
        assert_eq!(late.pending(), 5);
        add(&fanout, &store, config("f"));
        let events = drain(&mut late);
        assert_eq!(events.len(), 6, "no lag: {events:?}");
        assert_eq!(events.last().map(String::as_str), Some("Added f"));
        // Once the snapshot is read, the capacity applies to live events again.
        for name in ["g", "h", "i"] {
            add(&fanout, &store, config(name));
        }
        assert!(matches!(late.try_recv(), Some(Event::Lagged)));
    }

    #[test]
    fn a_dropped_subscription_is_forgotten() {
        let (fanout, store) = (Arc::new(Fanout::new(8)), Writer::default());
        let kept = Subscription::new(fanout.clone(), store.reader().clone());
        drop(Subscription::new(fanout.clone(), store.reader().clone()));
        add(&fanout, &store, config("a"));
        assert_eq!(fanout.lock().len(), 1);
        assert_eq!(kept.pending(), 1);
    }

    #[tokio::test]
    async fn recv_ends_after_the_queued_events_once_closed() {
        let (fanout, store) = (Arc::new(Fanout::new(8)), Writer::default());
        let mut subscription = Subscription::new(fanout.clone(), store.reader().clone());
        add(&fanout, &store, config("a"));
        fanout.close();
        assert_eq!(subscription.recv().await.map(|e| name(&e)).as_deref(), Some("Added a"));
        assert!(subscription.recv().await.is_none());
    }
}
