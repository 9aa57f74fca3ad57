//! Sources: informers whose events become keys on the controller's queue. A source is
//! made once, when the controller is built (so its informer is in the cache, and warm
//! on standbys), and subscribed anew each time the controller starts.

use std::fmt::Debug;
use std::sync::Arc;

use kube::Resource;
use tokio::task::JoinHandle;
use wheelhouse_cache::{Event, Informer, Origin, Route, Shards, SlotSet};
use wheelhouse_workqueue::{AddOptions, Priority, WorkQueue};

use crate::key::ObjectKey;
use crate::predicate::Predicate;
use crate::settled::Settled;

/// Subscribes to an informer and starts the task that turns its events into keys.
pub(crate) type Source = Box<dyn Fn(WorkQueue<ObjectKey>) -> JoinHandle<()> + Send + Sync>;

/// Maps a secondary object to the keys of the primary objects it concerns.
pub(crate) type MapFn<T> = Arc<dyn Fn(&T) -> Vec<ObjectKey> + Send + Sync>;

/// Events from lists (the initial one, relists, resyncs) go in at low priority, so
/// live changes are served first.
fn priority_of(origin: Origin) -> Priority {
    match origin {
        Origin::List => Priority::LOW,
        Origin::Live => Priority::NORMAL,
    }
}

fn add(queue: &WorkQueue<ObjectKey>, key: ObjectKey, priority: Priority) {
    queue.add_with(
        key,
        AddOptions {
            priority,
            ..AddOptions::default()
        },
    );
}

/// The primary objects' events: every create and delete, and the updates the
/// predicate lets through. A listed object (the replay that starts each term, a
/// relist) goes in at the priority [`Settled`] gives it: what changed since this
/// replica last reconciled it first.
pub(crate) fn primary<K>(informer: Informer<K>, predicate: Option<Predicate<K>>, settled: Settled) -> Source
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    Box::new(move |queue| {
        let mut subscription = informer.subscribe();
        let predicate = predicate.clone();
        let settled = settled.clone();
        tokio::spawn(async move {
            while let Some((event, origin)) = subscription.recv_with_origin().await {
                let key = match &event {
                    Event::Updated { old, new } if !Arc::ptr_eq(old, new) => {
                        if predicate.as_ref().is_some_and(|p| !p.update(old, new)) {
                            continue;
                        }
                        ObjectKey::of(new.as_ref())
                    }
                    Event::Added(object) | Event::Updated { new: object, .. } | Event::Deleted(object) => {
                        ObjectKey::of(object.as_ref())
                    }
                    Event::Lagged => continue, // everything follows as Added
                };
                let priority = match (&event, origin) {
                    (Event::Added(object) | Event::Updated { new: object, .. }, Origin::List) => {
                        settled.priority_of_listed(&key, object.meta().resource_version.as_deref())
                    }
                    _ => priority_of(origin),
                };
                add(&queue, key, priority);
            }
        })
    })
}

/// In a sharded manager: every stored primary object of a slot this replica starts
/// serving, queued at low priority unless it changed since this replica last
/// reconciled it ([`Settled`]): its events may have come before the slot was handed
/// over, and were let go then.
pub(crate) fn served<K>(informer: Informer<K>, shards: Shards, settled: Settled) -> Source
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    Box::new(move |queue| {
        let informer = informer.clone();
        let shards = shards.clone();
        let settled = settled.clone();
        tokio::spawn(async move {
            let mut serving = shards.watch_serving();
            let mut before = SlotSet::EMPTY;
            loop {
                let now = *serving.borrow_and_update();
                let gained = now.minus(before);
                if !gained.is_empty() {
                    for object in informer.store().all() {
                        if shards
                            .slot_of(object.meta(), Route::Own)
                            .is_some_and(|slot| gained.contains(slot))
                        {
                            let key = ObjectKey::of(object.as_ref());
                            let priority = settled.priority_of_listed(&key, object.meta().resource_version.as_deref());
                            add(&queue, key, priority);
                        }
                    }
                }
                before = now;
                if serving.changed().await.is_err() {
                    return;
                }
            }
        })
    })
}

/// A secondary type's events, mapped to primary keys (both the old and the new
/// object's, so a child that moves to another owner reconciles both).
pub(crate) fn mapped<T>(informer: Informer<T>, map: MapFn<T>) -> Source
where
    T: Resource + Clone + Debug + Send + Sync + 'static,
{
    Box::new(move |queue| {
        let mut subscription = informer.subscribe();
        let map = map.clone();
        tokio::spawn(async move {
            while let Some((event, origin)) = subscription.recv_with_origin().await {
                let priority = priority_of(origin);
                let keys = match &event {
                    Event::Updated { old, new } => {
                        let mut keys = map(old);
                        keys.extend(map(new));
                        keys
                    }
                    Event::Added(object) | Event::Deleted(object) => map(object),
                    Event::Lagged => Vec::new(),
                };
                for key in keys {
                    add(&queue, key, priority);
                }
            }
        })
    })
}

/// The kind and API group of a controller's primary type, to find it among a child's
/// ownerReferences.
pub(crate) struct OwnerKind {
    kind: String,
    group: String,
}

impl OwnerKind {
    pub(crate) fn of<K: Resource<DynamicType: Default>>() -> Self {
        let dyntype = K::DynamicType::default();
        Self {
            kind: K::kind(&dyntype).into_owned(),
            group: K::group(&dyntype).into_owned(),
        }
    }

    /// The controller owner of `child`, if it is one of ours.
    pub(crate) fn keys(&self, child: &impl Resource) -> Vec<ObjectKey> {
        let meta = child.meta();
        meta.owner_references
            .iter()
            .flatten()
            .filter(|owner| owner.controller == Some(true) && owner.kind == self.kind)
            .filter(|owner| owner.api_version.split_once('/').map_or("", |(g, _)| g) == self.group)
            .map(|owner| ObjectKey::new(meta.namespace.as_deref(), &owner.name))
            .collect()
    }
}
