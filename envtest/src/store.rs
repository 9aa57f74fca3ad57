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
//! - every open watch of a resource receives each of its events exactly once, in order;
//! - each version of an object is held once, as the JSON it was written as
//!   ([`Stored`]), shared by the object map, the history event that wrote it and the
//!   next event's `previous`: an object and its history within the window cost about
//!   the JSON of each version kept, not a decoded tree per version (a Pod's
//!   `serde_json::Value` is about seven times its JSON). Objects are decoded on demand,
//!   the few most recent kept decoded for the write that follows.
//!
//! May import: `core`.

mod stored;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use futures::channel::mpsc;
use parking_lot::Mutex;
use serde_json::Value;

use crate::core::GroupResource;
use crate::options::WatchWindow;

use self::stored::Decoded;
pub(crate) use self::stored::{ObjectKey, Stored, head_api_version};

/// The objects of one resource, by (namespace, name); namespace is empty when
/// cluster-scoped. Each is its latest version's JSON ([`Stored`]): encoded once, when
/// written, so lists and watches send those bytes to every reader. Persistent, so a
/// list can keep a snapshot for its next pages at no cost.
pub(crate) type Objects = imbl::OrdMap<ObjectKey, Arc<Stored>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventType {
    Added,
    Modified,
    Deleted,
}

/// One change to one object, as watches and the built-in controllers receive it: the
/// versions before and after, decoded when first asked for.
#[derive(Debug)]
pub(crate) struct Event {
    pub revision: u64,
    pub resource: GroupResource,
    pub kind: EventType,
    /// The object after the change; for a delete, its last state (at the delete's revision).
    pub stored: Arc<Stored>,
    /// The object before the change, if it existed.
    pub before: Option<Arc<Stored>>,
    object: OnceLock<Arc<Value>>,
    previous: OnceLock<Option<Arc<Value>>>,
}

impl Event {
    fn new(resource: GroupResource, kind: EventType, stored: Arc<Stored>, before: Option<Arc<Stored>>) -> Self {
        Self {
            revision: stored.revision(),
            resource,
            kind,
            stored,
            before,
            object: OnceLock::new(),
            previous: OnceLock::new(),
        }
    }

    /// An object already stored, seen as just added (a scan at startup).
    pub fn added(resource: GroupResource, stored: Arc<Stored>) -> Self {
        Self::new(resource, EventType::Added, stored, None)
    }

    /// The object after the change, decoded.
    pub fn object(&self) -> &Arc<Value> {
        self.object.get_or_init(|| self.stored.decode())
    }

    /// The object before the change, decoded, if it existed.
    pub fn previous(&self) -> Option<&Arc<Value>> {
        self.previous
            .get_or_init(|| self.before.as_ref().map(|b| b.decode()))
            .as_ref()
    }
}

/// One event as the history keeps it: the versions, not their decoded objects.
struct Change {
    /// When it was written, for the window's age bound.
    written: Instant,
    kind: EventType,
    object: Arc<Stored>,
    previous: Option<Arc<Stored>>,
}

impl Change {
    fn revision(&self) -> u64 {
        self.object.revision()
    }
}

struct Watcher {
    /// None: every resource (the built-in controllers watch everything).
    resource: Option<GroupResource>,
    sender: mpsc::UnboundedSender<Arc<Event>>,
}

/// The recent events of one resource: the watch cache's window.
#[derive(Default)]
struct History {
    /// The events, oldest first.
    events: VecDeque<Change>,
    /// Watches from a revision below this one get 410 Expired (0: none dropped yet).
    floor: u64,
}

/// All objects and their history.
pub(crate) struct Store {
    revision: u64,
    resources: HashMap<GroupResource, Objects>,
    history: HashMap<GroupResource, History>,
    window: WatchWindow,
    /// Every resource's floor after a compaction ([`Store::compact`]).
    compacted: u64,
    watchers: Vec<Watcher>,
    /// Recently decoded versions; behind a lock of its own so reads (`&self`) fill it.
    decoded: Mutex<Decoded>,
}

impl Store {
    pub fn new(window: WatchWindow) -> Self {
        Self {
            revision: 1,
            resources: HashMap::new(),
            history: HashMap::new(),
            window,
            compacted: 1,
            watchers: Vec::new(),
            decoded: Mutex::new(Decoded::new()),
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

    /// The object now, decoded.
    pub fn get(&self, resource: &GroupResource, namespace: &str, name: &str) -> Option<Arc<Value>> {
        self.get_stored(resource, namespace, name).map(|s| self.value(&s))
    }

    /// The object's latest version.
    pub fn get_stored(&self, resource: &GroupResource, namespace: &str, name: &str) -> Option<Arc<Stored>> {
        self.resources
            .get(resource)?
            .get(&(namespace.to_owned(), name.to_owned()))
            .cloned()
    }

    /// `version` decoded, from the recently decoded ones when it is there.
    pub fn value(&self, version: &Stored) -> Arc<Value> {
        if let Some(value) = self.decoded.lock().get(version.revision()) {
            return value;
        }
        let value = version.decode();
        self.decoded.lock().insert(version.revision(), value.clone());
        value
    }

    /// Every object of a resource now, decoded.
    pub fn values(&self, resource: &GroupResource) -> Vec<Arc<Value>> {
        self.objects(resource).values().map(|s| self.value(s)).collect()
    }

    /// The objects of a resource now (an O(1) snapshot).
    pub fn objects(&self, resource: &GroupResource) -> Objects {
        self.resources.get(resource).cloned().unwrap_or_default()
    }

    /// The objects of a resource as they were at `revision`, or None when the history
    /// no longer reaches back that far.
    pub fn objects_at(&self, resource: &GroupResource, revision: u64) -> Option<Objects> {
        if revision < self.floor(resource) {
            return None;
        }
        let mut objects = self.objects(resource);
        let events = self.history.get(resource).map(|h| &h.events);
        for change in events
            .into_iter()
            .flatten()
            .rev()
            .take_while(|c| c.revision() > revision)
        {
            let key = change.object.key();
            if change.kind == EventType::Added {
                objects.remove(key);
            } else if let Some(previous) = &change.previous {
                objects.insert(key.clone(), previous.clone());
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
    pub fn write(&mut self, resource: &GroupResource, key: ObjectKey, object: Option<Value>) -> Arc<Event> {
        self.revision += 1;
        let revision = self.revision;
        let current = self.resources.get(resource).and_then(|o| o.get(&key)).cloned();
        let previous = current.map(|c| self.supersede(resource, c));
        let shared_key = previous
            .as_ref()
            .map_or_else(|| Arc::new(key.clone()), |p| p.shared_key());
        let (kind, mut object) = if let Some(mut object) = object {
            if !object["metadata"].is_object() {
                object["metadata"] = Value::Object(serde_json::Map::new());
            }
            let kind = if previous.is_some() {
                EventType::Modified
            } else {
                EventType::Added
            };
            (kind, object)
        } else {
            let last = previous.as_ref().map(|p| (*self.value(p)).clone());
            (EventType::Deleted, last.unwrap_or(Value::Null))
        };
        object["metadata"]["resourceVersion"] = Value::String(revision.to_string());
        let stored = Stored::new(revision, shared_key, &object);
        // A delete's version is never the latest: it is kept compressed from the start.
        let stored = Arc::new(match kind {
            EventType::Deleted => stored.superseded().unwrap_or(stored),
            _ => stored,
        });
        let objects = self.resources.entry(resource.clone()).or_default();
        if kind == EventType::Deleted {
            objects.remove(&key);
        } else {
            objects.insert(key, stored.clone());
        }
        let object = Arc::new(object);
        let event = Event::new(resource.clone(), kind, stored.clone(), previous.clone());
        let _ = event.object.set(object.clone());
        {
            let mut decoded = self.decoded.lock();
            if let Some(before) = previous.as_ref().and_then(|p| decoded.get(p.revision())) {
                let _ = event.previous.set(Some(before));
            }
            if kind != EventType::Deleted {
                decoded.insert(revision, object);
            }
        }
        let event = Arc::new(event);
        let now = Instant::now();
        let history = self.history.entry(resource.clone()).or_default();
        history.events.push_back(Change {
            written: now,
            kind,
            object: stored,
            previous,
        });
        self.window.trim(history, now);
        self.watchers.retain(|w| {
            w.resource.as_ref().is_some_and(|r| r != resource) || w.sender.unbounded_send(event.clone()).is_ok()
        });
        event
    }

    /// `version`, an object's latest version until now, as kept once superseded
    /// (compressed), also in the history event that wrote it.
    fn supersede(&mut self, resource: &GroupResource, version: Arc<Stored>) -> Arc<Stored> {
        let Some(compressed) = version.superseded() else {
            return version;
        };
        let compressed = Arc::new(compressed);
        if let Some(history) = self.history.get_mut(resource) {
            let at = history.events.partition_point(|c| c.revision() < version.revision());
            if let Some(change) = history.events.get_mut(at)
                && Arc::ptr_eq(&change.object, &version)
            {
                change.object = compressed.clone();
            }
        }
        compressed
    }

    /// Events of `resource` after `revision`, or None if some were compacted away.
    pub fn events_since(&self, resource: &GroupResource, revision: u64) -> Option<Vec<Arc<Event>>> {
        if revision < self.floor(resource) {
            return None;
        }
        let Some(history) = self.history.get(resource) else {
            return Some(Vec::new());
        };
        let start = history.events.partition_point(|c| c.revision() <= revision);
        Some(
            history
                .events
                .range(start..)
                .map(|c| {
                    Arc::new(Event::new(
                        resource.clone(),
                        c.kind,
                        c.object.clone(),
                        c.previous.clone(),
                    ))
                })
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
        self.decoded.lock().clear();
    }
}

impl WatchWindow {
    /// Drops the oldest events this window no longer keeps, raising the floor to the
    /// revision just below the oldest event left, as the watch cache's "too old
    /// resource version" bound is.
    fn trim(&self, history: &mut History, now: Instant) {
        let keep_at_least = self.min_events.max(1);
        let mut dropped = false;
        while let Some(Change { written, .. }) = history.events.front() {
            let over = history.events.len() > self.max_events.max(keep_at_least);
            let stale = history.events.len() > keep_at_least && now.duration_since(*written) > self.fresh_for;
            if !(over || stale) {
                break;
            }
            history.events.pop_front();
            dropped = true;
        }
        if dropped && let Some(oldest) = history.events.front() {
            history.floor = oldest.revision() - 1;
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
        assert_eq!(then[&key("a")].decode()["data"]["v"], json!("1"));
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
        assert_eq!(event.object()["metadata"]["name"], json!("a"));
        assert!(watch.try_recv().is_err());
        assert_eq!(store.drop_watches(), 1);
        assert!(matches!(watch.try_recv(), Ok(_) | Err(_)));
    }
}
