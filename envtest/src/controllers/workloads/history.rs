//! ControllerRevisions, the history StatefulSets and DaemonSets keep of their pod
//! templates (`pkg/controller/history/controller_history.go`:
//! `NewControllerRevision`, `HashControllerRevision`; `pkg/controller/statefulset/`
//! `stateful_set_utils.go`: `getPatch`, `newRevision`, and
//! `stateful_set_control.go`: `getStatefulSetRevisions`, `truncateHistory`): each
//! revision holds the patch that restores its template, is named after a hash of that
//! patch, and is numbered in order; a template seen before reuses its revision with a
//! new number.

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};

use super::Kind;
use super::cluster::{CONTROLLER_MANAGER, Cluster};
use super::fields::{controller_reference, int, name_of, namespace_of};

/// The label of a revision's hash (`ControllerRevisionHashLabel`).
const HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// The alphabet `rand.SafeEncodeString` maps digits onto (no vowels, no look-alikes).
const SAFE_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `rand.SafeEncodeString`.
pub(super) fn safe_encode(text: &str) -> String {
    text.bytes()
        .map(|b| char::from(SAFE_ALPHABET[usize::from(b) % SAFE_ALPHABET.len()]))
        .collect()
}

/// JSON as Go's `json.Marshal` writes a `map[string]interface{}`: keys sorted, no
/// spaces, and `<`, `>`, `&` escaped; the bytes ControllerRevision hashes are taken of.
pub(super) fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            out.push('{');
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::String(text) => write_string(text, out),
        other => out.push_str(&other.to_string()),
    }
}

fn write_string(text: &str, out: &mut String) {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    for c in quoted.chars() {
        match c {
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
}

/// `controller.ComputeHash`: FNV-1a (32 bits) of a pod template and the collision
/// count, safe-encoded; Deployments name ReplicaSets with it (`pod-template-hash`) and
/// DaemonSets their revisions. kube-controller-manager hashes Go's dump of the template
/// struct, which only Go can reproduce; this hashes its canonical JSON, so the names
/// differ from a real cluster's but have the same form and the same stability.
pub(super) fn template_hash(template: &Value, collision_count: Option<i64>) -> String {
    let mut hash = fnv1a(canonical_json(template).as_bytes(), 0x811c_9dc5);
    if let Some(count) = collision_count {
        let bytes = u64::from(u32::try_from(count & 0xffff_ffff).unwrap_or(0)).to_le_bytes();
        hash = fnv1a(&bytes, hash);
    }
    safe_encode(&hash.to_string())
}

fn fnv1a(bytes: &[u8], mut hash: u32) -> u32 {
    for byte in bytes {
        hash ^= u32::from(*byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// The patch a revision of `owner` holds: `{"spec":{"template":{...,"$patch":"replace"}}}`
/// with the template as Go encodes it (`creationTimestamp: null` included).
pub(super) fn patch_of(owner: &Value) -> Value {
    let mut template = owner["spec"]["template"].clone();
    if !template["metadata"].is_object() {
        template["metadata"] = json!({});
    }
    if template["metadata"].get("creationTimestamp").is_none() {
        template["metadata"]["creationTimestamp"] = Value::Null;
    }
    template["$patch"] = json!("replace");
    json!({"spec": {"template": template}})
}

/// `HashControllerRevision`: FNV-1 (32 bits) of the patch's bytes and the collision
/// count, safe-encoded.
pub(super) fn revision_hash(data: &Value, collision_count: i64) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    let bytes = canonical_json(data).into_bytes();
    for byte in bytes.iter().chain(collision_count.to_string().as_bytes()) {
        hash = hash.wrapping_mul(0x0100_0193);
        hash ^= u32::from(*byte);
    }
    safe_encode(&hash.to_string())
}

/// The revisions an owner keeps, oldest (lowest number) first.
pub(super) fn revisions(cluster: &Cluster<'_>, owner: &Value) -> Vec<Arc<Value>> {
    let mut revisions = cluster.children(owner, Kind::ControllerRevision);
    revisions.sort_by_key(|r| int(&r["revision"], 0));
    revisions
}

/// What `getStatefulSetRevisions` settles: the revision pods run now and the one they
/// are moving to, and the collision count.
pub(super) struct Revisions {
    pub current: Arc<Value>,
    pub update: Arc<Value>,
    pub collision_count: i64,
}

/// Whose history: the two controllers name and label their revisions differently.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// `<set>-<hash of the patch>`, labelled `controller.kubernetes.io/hash`.
    StatefulSet,
    /// `<daemon set>-<hash of the template>` (`controller.ComputeHash`), labelled
    /// `controller-revision-hash`.
    DaemonSet,
}

impl Style {
    fn hash(self, owner: &Value, data: &Value, collision_count: i64) -> String {
        match self {
            Self::StatefulSet => revision_hash(data, collision_count),
            Self::DaemonSet => template_hash(
                &owner["spec"]["template"],
                owner["status"]["collisionCount"].as_i64().map(|_| collision_count),
            ),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::StatefulSet => HASH_LABEL,
            Self::DaemonSet => "controller-revision-hash",
        }
    }
}

/// Finds or makes the revision of `owner`'s template, as `getStatefulSetRevisions`
/// (and the daemon set controller's `constructHistory`) do; `current_name` is the
/// revision its status calls current.
pub(super) fn sync_revisions(
    cluster: &mut Cluster<'_>,
    owner: &Value,
    current_name: Option<&str>,
    style: Style,
) -> Option<Revisions> {
    let existing = revisions(cluster, owner);
    let mut collision_count = int(&owner["status"]["collisionCount"], 0);
    let data = patch_of(owner);
    let next = existing.last().map_or(1, |r| int(&r["revision"], 0) + 1);
    let equal: Vec<&Arc<Value>> = existing.iter().filter(|r| r["data"] == data).collect();
    let update = match (equal.last(), existing.last()) {
        (Some(latest_equal), Some(latest)) if Arc::ptr_eq(latest_equal, latest) => (*latest).clone(),
        (Some(older), _) => {
            let mut desired = older.as_ref().clone();
            desired["revision"] = json!(next);
            cluster
                .update(Kind::ControllerRevision, older, desired, false, CONTROLLER_MANAGER)
                .unwrap_or_else(|| (*older).clone())
        }
        (None, _) => loop {
            let hash = style.hash(owner, &data, collision_count);
            let name = format!("{}-{hash}", truncate(name_of(owner), 223));
            let revision = new_revision(owner, &name, &data, next, (style.label(), &hash));
            match cluster.create(
                Kind::ControllerRevision,
                namespace_of(owner),
                revision,
                CONTROLLER_MANAGER,
            ) {
                Ok(created) => break created,
                Err(error) if error.code == 409 => {
                    let found = cluster.get(Kind::ControllerRevision, namespace_of(owner), &name);
                    if let Some(found) = found.filter(|r| r["data"] == data) {
                        break found;
                    }
                    collision_count += 1;
                    if collision_count > 100 {
                        return None;
                    }
                }
                Err(error) => {
                    tracing::debug!(?error, "a simulated controller revision was refused");
                    return None;
                }
            }
        },
    };
    let current = current_name
        .and_then(|name| existing.iter().find(|r| name_of(r) == name).cloned())
        .unwrap_or_else(|| update.clone());
    Some(Revisions {
        current,
        update,
        collision_count,
    })
}

fn truncate(name: &str, length: usize) -> &str {
    name.get(..length).unwrap_or(name)
}

/// A ControllerRevision of `owner` (`NewControllerRevision`): the template's labels
/// plus the hash label, the owner's annotations, the owner as controller.
fn new_revision(owner: &Value, name: &str, data: &Value, revision: i64, (label, hash): (&str, &str)) -> Value {
    let mut labels = owner["spec"]["template"]["metadata"]["labels"].clone();
    if !labels.is_object() {
        labels = json!({});
    }
    labels[label] = json!(hash);
    let mut metadata = json!({
        "name": name,
        "labels": labels,
        "ownerReferences": [controller_reference(owner)],
    });
    if let Some(annotations) = owner["metadata"]["annotations"].as_object() {
        metadata["annotations"] = Value::Object(annotations.clone());
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": "ControllerRevision",
        "metadata": metadata,
        "data": data,
        "revision": revision,
    })
}

/// `truncateHistory`: deletes the oldest revisions beyond `limit`, sparing those named
/// in `live` (the current and update revisions, and those pods still run).
pub(super) fn truncate_history(cluster: &mut Cluster<'_>, owner: &Value, live: &[String], limit: i64) {
    let historic: Vec<Arc<Value>> = revisions(cluster, owner)
        .into_iter()
        .filter(|r| !live.iter().any(|name| name == name_of(r)))
        .collect();
    let excess = i64::try_from(historic.len()).unwrap_or(i64::MAX) - limit.max(0);
    for revision in historic.iter().take(usize::try_from(excess.max(0)).unwrap_or(0)) {
        let (namespace, name) = (namespace_of(revision).to_owned(), name_of(revision).to_owned());
        cluster.delete(Kind::ControllerRevision, &namespace, &name, None);
    }
}
