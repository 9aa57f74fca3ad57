//! One version of one object as the store keeps it ([`Stored`]): its JSON, encoded once
//! when the version was written, and the few fields lists and watches filter on, so
//! serving or filtering a version needs no decoded object. The decoded object
//! (a `serde_json::Value`, about seven times the bytes of its JSON for a Pod) is made
//! on demand; the store keeps a few recently decoded ones ([`Decoded`]), which the
//! write path reads back as the base of its next write. A version superseded by a
//! later one (kept only for watches and lists from an older revision) is compressed
//! (LZ4: a Pod's JSON to about a quarter, a few microseconds each way).
//!
//! May import: nothing in the crate.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use serde_json::Value;

/// A stored object's key: namespace (empty when cluster-scoped) and name.
pub(crate) type ObjectKey = (String, String);

/// One version of one object: the JSON it was written as, with what selectors read.
pub(crate) struct Stored {
    /// The revision of the write that made this version (its `resourceVersion`).
    revision: u64,
    /// Shared by every version of the object.
    key: Arc<ObjectKey>,
    json: Body,
    uid: Box<str>,
    /// Has a `metadata.deletionTimestamp`.
    deleting: bool,
    /// `metadata.labels`, sorted by key (string values only, as labels are).
    labels: Box<[(Box<str>, Box<str>)]>,
}

/// A version's JSON, as it is or compressed.
#[derive(Clone)]
enum Body {
    /// The JSON itself: an object's latest version, which gets, lists and watches read.
    Plain(Bytes),
    /// LZ4 block with the JSON's length before it: a superseded version.
    Compressed(Arc<[u8]>),
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored")
            .field("revision", &self.revision)
            .field("key", &self.key)
            .field("compressed", &matches!(self.json, Body::Compressed(_)))
            .finish_non_exhaustive()
    }
}

impl Stored {
    /// `object`, written at `revision`, encoded now.
    pub(crate) fn new(revision: u64, key: Arc<ObjectKey>, object: &Value) -> Self {
        let metadata = &object["metadata"];
        let mut labels: Vec<(Box<str>, Box<str>)> = metadata["labels"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.as_str().into(), v.as_str()?.into())))
            .collect();
        labels.sort_unstable();
        Self {
            revision,
            key,
            json: Body::Plain(exact(serde_json::to_vec(object).unwrap_or_default())),
            uid: metadata["uid"].as_str().unwrap_or_default().into(),
            deleting: metadata["deletionTimestamp"].is_string(),
            labels: labels.into_boxed_slice(),
        }
    }

    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    pub(crate) fn key(&self) -> &ObjectKey {
        &self.key
    }

    pub(crate) fn shared_key(&self) -> Arc<ObjectKey> {
        self.key.clone()
    }

    pub(crate) fn namespace(&self) -> &str {
        &self.key.0
    }

    pub(crate) fn name(&self) -> &str {
        &self.key.1
    }

    pub(crate) fn uid(&self) -> &str {
        &self.uid
    }

    /// Whether the object is being deleted (it has a `deletionTimestamp`).
    pub(crate) fn deleting(&self) -> bool {
        self.deleting
    }

    /// The value of label `key`, if the object has it.
    pub(crate) fn label(&self, key: &str) -> Option<&str> {
        self.labels
            .binary_search_by(|(k, _)| k.as_ref().cmp(key))
            .ok()
            .map(|i| self.labels[i].1.as_ref())
    }

    /// The version's JSON, as written (empty if a compressed version does not
    /// decompress, which one the store compressed always does).
    pub(crate) fn json(&self) -> Bytes {
        match &self.json {
            Body::Plain(json) => json.clone(),
            Body::Compressed(block) => lz4_flex::block::decompress_size_prepended(block)
                .map(Bytes::from)
                .unwrap_or_default(),
        }
    }

    /// This version compressed, as kept once a later version supersedes it; None when
    /// it already is.
    pub(crate) fn superseded(&self) -> Option<Self> {
        let Body::Plain(json) = &self.json else {
            return None;
        };
        Some(Self {
            revision: self.revision,
            key: self.key.clone(),
            json: Body::Compressed(lz4_flex::block::compress_prepend_size(json).into()),
            uid: self.uid.clone(),
            deleting: self.deleting,
            labels: self.labels.clone(),
        })
    }

    /// The version decoded (Null if its JSON does not decode, which JSON the store wrote
    /// always does).
    pub(crate) fn decode(&self) -> Arc<Value> {
        Arc::new(serde_json::from_slice(&self.json()).unwrap_or(Value::Null))
    }
}

/// `json` in an allocation of its own length. `serde_json` grows its buffer by
/// doubling, so a Pod's 8.8 KB of JSON sat in a 16 KiB buffer, and `Bytes::from(Vec)`
/// keeps the whole buffer for as long as the version lives: the latest version of each
/// object cost 1.87 times its JSON before any history.
fn exact(json: Vec<u8>) -> Bytes {
    Bytes::from(json.into_boxed_slice())
}

/// The `apiVersion` of an object's JSON, read from its head when it is there
/// (`serde_json` writes an object's keys in order, and `apiVersion` sorts first among an
/// object's usual keys), else None: the caller decodes the object to know.
pub(crate) fn head_api_version(json: &[u8]) -> Option<&str> {
    let rest = json.strip_prefix(br#"{"apiVersion":""#)?;
    let end = rest.iter().position(|&b| b == b'"')?;
    let version = rest.get(..end)?;
    if version.contains(&b'\\') {
        return None;
    }
    std::str::from_utf8(version).ok()
}

/// The most recently decoded versions, by revision (which names one version of one
/// object: every write has its own), so that a write reading the object it wrote a
/// moment ago, or a watch event's previous object, does not decode it again.
pub(crate) struct Decoded {
    order: VecDeque<u64>,
    values: HashMap<u64, Arc<Value>>,
}

impl Decoded {
    /// Versions kept decoded: enough for the objects a burst of concurrent writers is
    /// working on, few enough that their trees are a small part of a large store.
    const CAPACITY: usize = 32;

    pub(crate) fn new() -> Self {
        Self {
            order: VecDeque::with_capacity(Self::CAPACITY),
            values: HashMap::with_capacity(Self::CAPACITY),
        }
    }

    pub(crate) fn get(&self, revision: u64) -> Option<Arc<Value>> {
        self.values.get(&revision).cloned()
    }

    /// Keeps `value` as the decoded version `revision`, forgetting the oldest kept.
    pub(crate) fn insert(&mut self, revision: u64, value: Arc<Value>) {
        if self.values.insert(revision, value).is_some() {
            return;
        }
        self.order.push_back(revision);
        while self.order.len() > Self::CAPACITY {
            if let Some(oldest) = self.order.pop_front() {
                self.values.remove(&oldest);
            }
        }
    }

    pub(crate) fn clear(&mut self) {
        self.order.clear();
        self.values.clear();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn stored(object: &Value) -> Stored {
        Stored::new(7, Arc::new(("ns".into(), "a".into())), object)
    }

    #[test]
    fn a_version_keeps_its_json_and_what_selectors_read() {
        let object = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "a", "uid": "u-1", "labels": {"b": "2", "a": "1"}}});
        let version = stored(&object);
        assert_eq!(*version.decode(), object);
        assert_eq!(head_api_version(&version.json()), Some("v1"));
        let superseded = version.superseded().unwrap();
        assert_eq!(*superseded.decode(), object);
        assert_eq!(superseded.json(), version.json());
        assert_eq!(superseded.label("a"), Some("1"));
        assert!(superseded.superseded().is_none());
        assert_eq!(
            (version.label("a"), version.label("b"), version.label("c")),
            (Some("1"), Some("2"), None)
        );
        assert_eq!(version.uid(), "u-1");
        assert_eq!(
            (version.namespace(), version.name(), version.revision()),
            ("ns", "a", 7)
        );
    }

    #[test]
    fn an_unusual_head_reads_as_unknown_version() {
        // A key sorting before apiVersion, or an escaped version: the caller decodes.
        let head = |object: Value| head_api_version(&stored(&object).json()).map(str::to_owned);
        assert_eq!(head(json!({"Zeta": 1, "apiVersion": "v1"})), None);
        assert_eq!(head(json!({"apiVersion": "a\"b"})), None);
        assert_eq!(head(json!({"kind": "x"})), None);
    }

    #[test]
    fn the_decoded_cache_forgets_the_oldest() {
        let mut decoded = Decoded::new();
        for revision in 0..=(Decoded::CAPACITY as u64) {
            decoded.insert(revision, Arc::new(json!(revision)));
        }
        assert!(decoded.get(0).is_none());
        assert_eq!(decoded.get(1).as_deref(), Some(&json!(1)));
        assert_eq!(decoded.values.len(), Decoded::CAPACITY);
    }
}
