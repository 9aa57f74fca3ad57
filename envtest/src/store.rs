//! The server's storage: every object of every resource, one global revision, the
//! history of changes that watches replay, and the open watches.
//!
//! Invariants, kept by `write` (the only way anything changes):
//! - `revision` strictly increases, and an object's `metadata.resourceVersion` is the
//!   revision of the write that produced it;
//! - each resource's `history` holds, in order, every event of that resource with a
//!   revision above its `floor`, so a watch from any revision `>= floor` misses nothing,
//!   and a list at such a revision can be rebuilt by undoing the events after it;
//! - a resource's history is a window, sized as kube-apiserver sizes its watch cache
//!   ([`WatchWindow`]): events leave it oldest first, and its floor rises to the
//!   revision just below the oldest event kept, as the watch cache's does (a watch from
//!   below it is 410 Expired even when no event of the resource lies in between);
//! - every open watch of a resource receives each of its events exactly once, in order.
//!
//! May import: `core`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use futures::channel::mpsc;
use serde_json::Value;

use crate::core::GroupResource;
use crate::options::WatchWindow;

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

/// The recent events of one resource: the watch cache's window.
#[derive(Default)]
struct History {
    /// The events, oldest first, each with the moment it was written.
    events: VecDeque<(Instant, Arc<Event>)>,
    /// Watches from a revision below this one get 410 Expired (0: none dropped yet).
    floor: u64,
}

/// All objects and their history.
pub(crate) struct Store {
    revision: u64,
    resources: HashMap<GroupResource, Objects>,
    encoded: HashMap<GroupResource, Encoded>,
    history: HashMap<GroupResource, History>,
    window: WatchWindow,
    /// Every resource's floor after a compaction ([`Store::compact`]).
    compacted: u64,
    watchers: Vec<Watcher>,
}

impl Store {
    pub fn new(window: WatchWindow) -> Self {
        Self {
            revision: 1,
            resources: HashMap::new(),
            encoded: HashMap::new(),
            history: HashMap::new(),
            window,
            compacted: 1,
            watchers: Vec::new(),
        }
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The oldest revision a watch or an exact list of `resource` can start from.
    pub fn floor(&self, resource: &GroupResource) -> u64 {
        self.history
            .get(resource)
            .map_or(self.compacted, |h| h.floor.max(self.compacted))
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
        if revision < self.floor(resource) {
            return None;
        }
        let mut objects = self.objects(resource);
        let events = self.history.get(resource).map(|h| &h.events);
        for (_, event) in events
            .into_iter()
            .flatten()
            .rev()
            .take_while(|(_, e)| e.revision > revision)
        {
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
        let now = Instant::now();
        let history = self.history.entry(resource.clone()).or_default();
        history.events.push_back((now, event.clone()));
        self.window.trim(history, now);
        self.watchers.retain(|w| {
            w.resource.as_ref().is_some_and(|r| r != resource) || w.sender.unbounded_send(event.clone()).is_ok()
        });
        event
    }

    /// Events of `resource` after `revision`, or None if some were compacted away.
    pub fn events_since(&self, resource: &GroupResource, revision: u64) -> Option<Vec<Arc<Event>>> {
        if revision < self.floor(resource) {
            return None;
        }
        let Some(history) = self.history.get(resource) else {
            return Some(Vec::new());
        };
        let start = history.events.partition_point(|(_, e)| e.revision <= revision);
        Some(history.events.range(start..).map(|(_, e)| e.clone()).collect())
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

impl WatchWindow {
    /// Drops the oldest events this window no longer keeps, raising the floor to the
    /// revision just below the oldest event left, as the watch cache's "too old
    /// resource version" bound is.
    fn trim(&self, history: &mut History, now: Instant) {
        let keep_at_least = self.min_events.max(1);
        let mut dropped = false;
        while let Some((written, _)) = history.events.front() {
            let over = history.events.len() > self.max_events.max(keep_at_least);
            let stale = history.events.len() > keep_at_least && now.duration_since(*written) > self.fresh_for;
            if !(over || stale) {
                break;
            }
            history.events.pop_front();
            dropped = true;
        }
        if dropped && let Some((_, oldest)) = history.events.front() {
            history.floor = oldest.revision - 1;
        }
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
        let mut store = Store::new(WatchWindow::default());
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
        let mut store = Store::new(WatchWindow::default());
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
    fn history_beyond_the_window_expires() {
        let window = WatchWindow {
            min_events: 2,
            max_events: 2,
            ..WatchWindow::default()
        };
        let mut store = Store::new(window);
        let first = store.write(&configmaps(), key("a"), Some(object("a", "1"))).revision;
        for n in 2..5 {
            store.write(&configmaps(), key("a"), Some(object("a", &n.to_string())));
        }
        assert!(store.events_since(&configmaps(), first).is_none());
        assert_eq!(
            store.events_since(&configmaps(), store.revision() - 2).unwrap().len(),
            2
        );
        // The floor is just below the oldest event kept, whatever other resources wrote.
        assert_eq!(store.floor(&configmaps()), store.revision() - 2);
    }

    #[test]
    fn stale_events_beyond_the_minimum_expire_and_fresh_ones_stay() {
        let fresh = WatchWindow {
            min_events: 1,
            max_events: 100,
            fresh_for: std::time::Duration::from_hours(1),
        };
        let mut store = Store::new(fresh);
        let first = store.write(&configmaps(), key("a"), Some(object("a", "1"))).revision;
        store.write(&configmaps(), key("a"), Some(object("a", "2")));
        assert_eq!(store.events_since(&configmaps(), first).unwrap().len(), 1);

        let stale = WatchWindow {
            fresh_for: std::time::Duration::ZERO,
            ..fresh
        };
        let mut store = Store::new(stale);
        let first = store.write(&configmaps(), key("a"), Some(object("a", "1"))).revision;
        std::thread::sleep(std::time::Duration::from_millis(2));
        store.write(&configmaps(), key("a"), Some(object("a", "2")));
        assert!(store.events_since(&configmaps(), first - 1).is_none());
        assert!(store.events_since(&configmaps(), first).is_some());
    }

    #[test]
    fn windows_are_per_resource() {
        let window = WatchWindow {
            min_events: 1,
            max_events: 1,
            ..WatchWindow::default()
        };
        let mut store = Store::new(window);
        let secrets = GroupResource {
            group: String::new(),
            resource: "secrets".into(),
        };
        let quiet = store.write(&secrets, key("s"), Some(object("s", "1"))).revision;
        for n in 0..5 {
            store.write(&configmaps(), key("a"), Some(object("a", &n.to_string())));
        }
        assert_eq!(store.events_since(&secrets, quiet - 1).unwrap().len(), 1);
        assert!(store.events_since(&configmaps(), quiet).is_none());
    }

    #[test]
    fn watches_receive_events_of_their_resource_until_dropped() {
        let mut store = Store::new(WatchWindow::default());
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
