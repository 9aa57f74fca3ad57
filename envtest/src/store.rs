//! The server's storage: every object of every resource, one global revision, the
//! history of changes that watches replay, and the open watches.
//!
//! Invariants, kept by `write` (the only way anything changes):
//! - `revision` strictly increases, and an object's `metadata.resourceVersion` is the
//!   revision of the write that produced it;
//! - `history` holds every event with a revision in `(compacted, revision]`, in order,
//!   so a watch from any revision `>= compacted` misses nothing, and a list at such a
//!   revision can be rebuilt by undoing the events after it;
//! - every open watch of a resource receives each of its events exactly once, in order.
//!
//! May import: `core`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use futures::channel::mpsc;
use serde_json::Value;

use crate::core::GroupResource;

/// Objects of one resource, by (namespace, name); namespace is empty when
/// cluster-scoped. Persistent, so a list can keep a snapshot for its next pages at no cost.
pub(crate) type Objects = imbl::OrdMap<(String, String), Arc<Value>>;

/// The JSON of the objects of one resource, with the revision it was encoded at:
/// every object is encoded once, when written, and lists and watches send those bytes
/// to every reader instead of encoding the object again for each.
pub(crate) type Encoded = imbl::OrdMap<(String, String), (u64, Bytes)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventType {
    Added,
    Modified,
    Deleted,
}

/// One change to one object.
#[derive(Debug)]
pub(crate) struct Event {
    pub revision: u64,
    pub resource: GroupResource,
    pub kind: EventType,
    /// The object after the change; for a delete, its last state (at the delete's revision).
    pub object: Arc<Value>,
    /// The object before the change, if it existed.
    pub previous: Option<Arc<Value>>,
    /// `object` as JSON.
    pub json: Bytes,
}

struct Watcher {
    /// None: every resource (the built-in controllers watch everything).
    resource: Option<GroupResource>,
    sender: mpsc::UnboundedSender<Arc<Event>>,
}

/// All objects and their history.
pub(crate) struct Store {
    revision: u64,
    resources: HashMap<GroupResource, Objects>,
    encoded: HashMap<GroupResource, Encoded>,
    history: VecDeque<Arc<Event>>,
    history_limit: usize,
    /// Watches from a revision below this one get 410 Gone.
    compacted: u64,
    watchers: Vec<Watcher>,
}

impl Store {
    pub fn new(history_limit: usize) -> Self {
        Self {
            revision: 1,
            resources: HashMap::new(),
            encoded: HashMap::new(),
            history: VecDeque::new(),
            history_limit: history_limit.max(1),
            compacted: 1,
            watchers: Vec::new(),
        }
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn compacted(&self) -> u64 {
        self.compacted
    }

    pub fn get(&self, resource: &GroupResource, namespace: &str, name: &str) -> Option<Arc<Value>> {
        self.resources
            .get(resource)?
            .get(&(namespace.to_owned(), name.to_owned()))
            .cloned()
    }

    /// The objects of a resource now (an O(1) snapshot).
    pub fn objects(&self, resource: &GroupResource) -> Objects {
        self.resources.get(resource).cloned().unwrap_or_default()
    }

    /// The encoded objects of a resource now (an O(1) snapshot).
    pub fn encoded(&self, resource: &GroupResource) -> Encoded {
        self.encoded.get(resource).cloned().unwrap_or_default()
    }

    /// The objects of a resource as they were at `revision`, or None when the history
    /// no longer reaches back that far.
    pub fn objects_at(&self, resource: &GroupResource, revision: u64) -> Option<Objects> {
        if revision < self.compacted {
            return None;
        }
        let mut objects = self.objects(resource);
        for event in self.history.iter().rev().take_while(|e| e.revision > revision) {
            if event.resource != *resource {
                continue;
            }
            let key = object_key(&event.object);
            if event.kind == EventType::Added {
                objects.remove(&key);
            } else if let Some(previous) = &event.previous {
                objects.insert(key, previous.clone());
            }
        }
        Some(objects)
    }

    /// Every resource that has objects.
    pub fn resources(&self) -> impl Iterator<Item = &GroupResource> {
        self.resources.iter().filter(|(_, o)| !o.is_empty()).map(|(r, _)| r)
    }

    /// Stores `object` (None deletes the object at `key`), stamps it with the next
    /// revision, records the event and sends it to the watches. Returns the event.
    pub fn write(&mut self, resource: &GroupResource, key: (String, String), object: Option<Value>) -> Arc<Event> {
        self.revision += 1;
        let revision = self.revision;
        let objects = self.resources.entry(resource.clone()).or_default();
        let encoded = self.encoded.entry(resource.clone()).or_default();
        let previous = objects.get(&key).cloned();
        let (kind, object, json) = if let Some(mut object) = object {
            if !object["metadata"].is_object() {
                object["metadata"] = Value::Object(serde_json::Map::new());
            }
            object["metadata"]["resourceVersion"] = Value::String(revision.to_string());
            let json = Bytes::from(serde_json::to_vec(&object).unwrap_or_default());
            let object = Arc::new(object);
            objects.insert(key.clone(), object.clone());
            encoded.insert(key, (revision, json.clone()));
            let kind = if previous.is_some() {
                EventType::Modified
            } else {
                EventType::Added
            };
            (kind, object, json)
        } else {
            objects.remove(&key);
            encoded.remove(&key);
            let mut last = previous.as_deref().cloned().unwrap_or(Value::Null);
            last["metadata"]["resourceVersion"] = Value::String(revision.to_string());
            let json = Bytes::from(serde_json::to_vec(&last).unwrap_or_default());
            (EventType::Deleted, Arc::new(last), json)
        };
        let event = Arc::new(Event {
            revision,
            resource: resource.clone(),
            kind,
            object,
            previous,
            json,
        });
        self.history.push_back(event.clone());
        while self.history.len() > self.history_limit {
            if let Some(dropped) = self.history.pop_front() {
                self.compacted = dropped.revision;
            }
        }
        self.watchers.retain(|w| {
            w.resource.as_ref().is_some_and(|r| r != resource) || w.sender.unbounded_send(event.clone()).is_ok()
        });
        event
    }

    /// Events of `resource` after `revision`, or None if some were compacted away.
    pub fn events_since(&self, resource: &GroupResource, revision: u64) -> Option<Vec<Arc<Event>>> {
        if revision < self.compacted {
            return None;
        }
        let start = self.history.partition_point(|e| e.revision <= revision);
        Some(
            self.history
                .range(start..)
                .filter(|e| e.resource == *resource)
                .cloned()
                .collect(),
        )
    }

    /// Opens a watch of `resource`: it receives every event written from now on.
    pub fn subscribe(&mut self, resource: &GroupResource) -> mpsc::UnboundedReceiver<Arc<Event>> {
        self.subscribe_to(Some(resource.clone()))
    }

    /// Opens a watch of every resource, for the built-in controllers; it is not ended
    /// by `drop_watches`, which simulates clients losing their connections.
    pub fn subscribe_all(&mut self) -> mpsc::UnboundedReceiver<Arc<Event>> {
        self.subscribe_to(None)
    }

    fn subscribe_to(&mut self, resource: Option<GroupResource>) -> mpsc::UnboundedReceiver<Arc<Event>> {
        let (sender, receiver) = mpsc::unbounded();
        self.watchers.push(Watcher { resource, sender });
        receiver
    }

    /// Ends every open watch (a fault, or a server shutting down); returns how many.
    pub fn drop_watches(&mut self) -> usize {
        let open = self
            .watchers
            .iter()
            .filter(|w| w.resource.is_some() && !w.sender.is_closed())
            .count();
        self.watchers.retain(|w| w.resource.is_none());
        open
    }

    /// Forgets all history: watches and list continuations from an older revision get
    /// 410 Gone, as after an etcd compaction.
    pub fn compact(&mut self) {
        self.history.clear();
        self.compacted = self.revision;
    }

    /// Deletes every object of a resource without events (its type is gone).
    pub fn forget_resource(&mut self, resource: &GroupResource) {
        self.resources.remove(resource);
        self.encoded.remove(resource);
    }
}

/// The (namespace, name) of an object.
pub(crate) fn object_key(object: &Value) -> (String, String) {
    let field = |name: &str| object["metadata"][name].as_str().unwrap_or_default().to_owned();
    (field("namespace"), field("name"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn configmaps() -> GroupResource {
        GroupResource {
            group: String::new(),
            resource: "configmaps".into(),
        }
    }

    fn key(name: &str) -> (String, String) {
        ("default".into(), name.into())
    }

    fn object(name: &str, data: &str) -> Value {
        json!({"metadata": {"namespace": "default", "name": name}, "data": {"v": data}})
    }

    #[test]
    fn revisions_increase_and_stamp_objects() {
        let mut store = Store::new(100);
        let first = store.write(&configmaps(), key("a"), Some(object("a", "1")));
        let second = store.write(&configmaps(), key("a"), Some(object("a", "2")));
        assert!(second.revision > first.revision);
        assert_eq!(second.kind, EventType::Modified);
        let stored = store.get(&configmaps(), "default", "a").unwrap();
        assert_eq!(
            stored["metadata"]["resourceVersion"],
            json!(second.revision.to_string())
        );
    }

    #[test]
    fn a_snapshot_at_an_old_revision_undoes_later_events() {
        let mut store = Store::new(100);
        store.write(&configmaps(), key("a"), Some(object("a", "1")));
        let at = store.revision();
        store.write(&configmaps(), key("a"), Some(object("a", "2")));
        store.write(&configmaps(), key("b"), Some(object("b", "1")));
        store.write(&configmaps(), key("a"), None);
        let then = store.objects_at(&configmaps(), at).unwrap();
        assert_eq!(then.len(), 1);
        assert_eq!(then[&key("a")]["data"]["v"], json!("1"));
        store.compact();
        assert!(store.objects_at(&configmaps(), at).is_none());
        assert!(store.events_since(&configmaps(), at).is_none());
    }

    #[test]
    fn history_beyond_the_limit_is_compacted() {
        let mut store = Store::new(2);
        let first = store.write(&configmaps(), key("a"), Some(object("a", "1"))).revision;
        for n in 2..5 {
            store.write(&configmaps(), key("a"), Some(object("a", &n.to_string())));
        }
        assert!(store.events_since(&configmaps(), first).is_none());
        assert_eq!(
            store.events_since(&configmaps(), store.revision() - 2).unwrap().len(),
            2
        );
    }

    #[test]
    fn watches_receive_events_of_their_resource_until_dropped() {
        let mut store = Store::new(100);
        let mut watch = store.subscribe(&configmaps());
        let secrets = GroupResource {
            group: String::new(),
            resource: "secrets".into(),
        };
        store.write(&secrets, key("s"), Some(object("s", "1")));
        store.write(&configmaps(), key("a"), Some(object("a", "1")));
        let event = watch.try_recv().unwrap();
        assert_eq!(event.object["metadata"]["name"], json!("a"));
        assert!(watch.try_recv().is_err());
        assert_eq!(store.drop_watches(), 1);
        assert!(matches!(watch.try_recv(), Ok(_) | Err(_)));
    }
}
