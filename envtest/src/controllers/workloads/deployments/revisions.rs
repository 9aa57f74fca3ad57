//! A Deployment's ReplicaSets as revisions (`pkg/controller/deployment/sync.go`:
//! `getNewReplicaSet`; `pkg/controller/deployment/util/deployment_util.go`:
//! `FindNewReplicaSet`, `EqualIgnoreHash`, `SetNewReplicaSetAnnotations`,
//! `SetReplicasAnnotations`, `MaxRevision`): the new ReplicaSet is the one whose
//! template is the Deployment's (ignoring `pod-template-hash`), named
//! `<deployment>-<hash of the template>`, and each ReplicaSet carries its revision and
//! the Deployment's size in annotations.

use std::sync::Arc;

use k8s_openapi::api::apps::v1::DeploymentSpec;
use serde_json::{Map, Value, json};

use super::super::Kind;
use super::super::cluster::CONTROLLER_MANAGER;
use super::super::fields::{controller_reference, int, name_of, namespace_of};
use super::super::history::template_hash;
use super::{Deployment, max_surge, wanted};

pub(super) const REVISION: &str = "deployment.kubernetes.io/revision";
const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";
pub(super) const DESIRED_REPLICAS: &str = "deployment.kubernetes.io/desired-replicas";
pub(super) const MAX_REPLICAS: &str = "deployment.kubernetes.io/max-replicas";
/// The label a Deployment adds to its ReplicaSets' selectors and pods.
pub(super) const HASH_LABEL: &str = "pod-template-hash";
/// Annotations a ReplicaSet does not take from its Deployment (`annotationsToSkip`).
const NOT_COPIED: [&str; 6] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    REVISION_HISTORY,
    DESIRED_REPLICAS,
    MAX_REPLICAS,
    "deprecated.deployment.rollback.to",
];
/// How long `revision-history` may grow (`maxRevHistoryLengthInChars`).
const MAX_HISTORY_CHARS: usize = 2000;

/// Whether two pod templates are the same but for `pod-template-hash`
/// (`EqualIgnoreHash`, which compares as Go's semantic equality: nulls and empty
/// collections count as absent).
pub(super) fn equal_ignoring_hash(a: &Value, b: &Value) -> bool {
    let normalize = |template: &Value| {
        let mut template = template.clone();
        if let Some(labels) = template["metadata"]["labels"].as_object_mut() {
            labels.remove(HASH_LABEL);
        }
        drop_empty(&mut template);
        template
    };
    normalize(a) == normalize(b)
}

/// Removes nulls, empty objects and empty arrays, recursively.
fn drop_empty(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                drop_empty(child);
            }
            map.retain(|_, child| !is_empty(child));
        }
        Value::Array(items) => items.iter_mut().for_each(drop_empty),
        _ => {}
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// The revision a ReplicaSet's annotation records (0 when it has none or it does not
/// parse).
pub(super) fn revision(object: &Value) -> i64 {
    annotation(object, REVISION).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn annotation<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object["metadata"]["annotations"][key].as_str()
}

/// An integer annotation (`getIntFromAnnotation`).
pub(super) fn int_annotation(object: &Value, key: &str) -> Option<i64> {
    annotation(object, key)?.parse().ok()
}

/// The highest revision among `replica_sets` (`MaxRevision`).
pub(super) fn max_revision(replica_sets: &[Arc<Value>]) -> i64 {
    replica_sets.iter().map(|rs| revision(rs)).max().unwrap_or(0)
}

/// The oldest ReplicaSet whose template is the Deployment's (`FindNewReplicaSet`).
pub(super) fn find_new(deployment: &Value, replica_sets: &[Arc<Value>]) -> Option<Arc<Value>> {
    replica_sets
        .iter()
        .find(|rs| equal_ignoring_hash(&rs["spec"]["template"], &deployment["spec"]["template"]))
        .cloned()
}

/// `SetReplicasAnnotations`: the Deployment's size and its size with surge; whether
/// anything changed.
pub(super) fn set_replicas_annotations(annotations: &mut Map<String, Value>, desired: i64, max: i64) -> bool {
    let mut changed = false;
    for (key, value) in [(DESIRED_REPLICAS, desired), (MAX_REPLICAS, max)] {
        let value = json!(value.to_string());
        if annotations.get(key) != Some(&value) {
            annotations.insert(key.to_owned(), value);
            changed = true;
        }
    }
    changed
}

/// `SetNewReplicaSetAnnotations`: the Deployment's own annotations (but the skipped
/// ones), the new revision (remembering the one it replaces in `revision-history`),
/// and for a new ReplicaSet the replica annotations. Whether anything changed.
pub(super) fn set_new_annotations(
    deployment: &Value,
    spec: &DeploymentSpec,
    annotations: &mut Map<String, Value>,
    new_revision: i64,
    exists: bool,
) -> bool {
    let mut changed = false;
    for (key, value) in deployment["metadata"]["annotations"].as_object().into_iter().flatten() {
        if NOT_COPIED.contains(&key.as_str()) || annotations.get(key) == Some(value) {
            continue;
        }
        annotations.insert(key.clone(), value.clone());
        changed = true;
    }
    let old = annotations.get(REVISION).and_then(Value::as_str).map(str::to_owned);
    let old_revision = match old.as_deref() {
        None | Some("") => 0,
        Some(text) => match text.parse::<i64>() {
            Ok(revision) => revision,
            // The real controller gives up on a ReplicaSet whose revision is no number.
            Err(_) => return false,
        },
    };
    if old_revision < new_revision {
        annotations.insert(REVISION.to_owned(), json!(new_revision.to_string()));
        changed = true;
        if let Some(old) = old {
            let history = annotations
                .get(REVISION_HISTORY)
                .and_then(Value::as_str)
                .unwrap_or_default();
            let updated = append_history(history, &old);
            if let Some(updated) = updated {
                annotations.insert(REVISION_HISTORY.to_owned(), json!(updated));
            }
        }
    }
    if !exists {
        let desired = wanted(spec);
        changed |= set_replicas_annotations(annotations, desired, desired + max_surge(spec));
    }
    changed
}

/// `revision-history` with `old` appended, oldest entries dropped to stay within
/// the length limit; None when even that cannot fit.
fn append_history(history: &str, old: &str) -> Option<String> {
    if history.is_empty() {
        return Some(old.to_owned());
    }
    let entries: Vec<&str> = history.split(',').collect();
    let mut total = history.len() + old.len() + 1;
    let mut start = 0;
    while total > MAX_HISTORY_CHARS && start < entries.len() {
        total -= entries[start].len() + 1;
        start += 1;
    }
    if total > MAX_HISTORY_CHARS {
        return None;
    }
    let mut kept: Vec<&str> = entries[start..].to_vec();
    kept.push(old);
    Some(kept.join(","))
}

/// What `getNewReplicaSet` returns: the new ReplicaSet, or why the sync stops here.
pub(super) enum NewReplicaSet {
    Found(Arc<Value>),
    /// None exists and the caller did not ask to create one.
    Absent,
    /// Creating it failed (or collided); the sync ends and is retried.
    Failed,
}

impl Deployment<'_, '_> {
    /// `getNewReplicaSet`: the new ReplicaSet with its annotations brought up to date
    /// (and the Deployment's revision with them), or a new one created when `create`.
    pub(super) fn new_replica_set(&mut self, old: &[Arc<Value>], create: bool) -> NewReplicaSet {
        let new_revision = max_revision(old) + 1;
        if let Some(existing) = find_new(&self.object, &self.replica_sets) {
            let mut annotations = existing["metadata"]["annotations"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let changed = set_new_annotations(&self.object, &self.spec, &mut annotations, new_revision, true);
            let min_ready = self.spec.min_ready_seconds.map_or(0, i64::from);
            if changed || int(&existing["spec"]["minReadySeconds"], 0) != min_ready {
                let mut desired = existing.as_ref().clone();
                desired["metadata"]["annotations"] = Value::Object(annotations);
                set_or_remove(&mut desired["spec"], "minReadySeconds", min_ready);
                let written = self
                    .cluster
                    .update(Kind::ReplicaSet, &existing, desired, false, CONTROLLER_MANAGER);
                return NewReplicaSet::Found(self.replace_replica_set(written.unwrap_or(existing)));
            }
            let revision = annotation(&existing, REVISION).unwrap_or_default().to_owned();
            let mut needs_update = self.set_revision(&revision);
            if self.has_progress_deadline() && self.condition("Progressing").is_none() {
                let message = format!("Found new replica set \"{}\"", name_of(&existing));
                self.set_condition("Progressing", "True", "FoundNewReplicaSet", &message);
                needs_update = true;
            }
            if needs_update {
                self.save();
            }
            return NewReplicaSet::Found(existing);
        }
        if !create {
            return NewReplicaSet::Absent;
        }
        self.create_replica_set(old, new_revision)
    }

    fn create_replica_set(&mut self, old: &[Arc<Value>], new_revision: i64) -> NewReplicaSet {
        let collision_count = self.object["status"]["collisionCount"].as_i64();
        let template = &self.object["spec"]["template"];
        let hash = template_hash(template, collision_count);
        let mut template = template.clone();
        if !template["metadata"].is_object() {
            template["metadata"] = json!({});
        }
        if !template["metadata"]["labels"].is_object() {
            template["metadata"]["labels"] = json!({});
        }
        template["metadata"]["labels"][HASH_LABEL] = json!(hash);
        let mut selector = self.object["spec"]["selector"].clone();
        if !selector["matchLabels"].is_object() {
            selector["matchLabels"] = json!({});
        }
        selector["matchLabels"][HASH_LABEL] = json!(hash);
        let name = format!("{}-{hash}", name_of(&self.object));
        let mut replica_set = json!({
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "name": name,
                "labels": template["metadata"]["labels"],
                "ownerReferences": [controller_reference(&self.object)],
            },
            "spec": {"replicas": 0, "selector": selector, "template": template},
        });
        set_or_remove(
            &mut replica_set["spec"],
            "minReadySeconds",
            self.spec.min_ready_seconds.map_or(0, i64::from),
        );
        let mut all: Vec<Arc<Value>> = old.to_vec();
        all.push(Arc::new(replica_set.clone()));
        let new_replicas = self.new_rs_new_replicas(&all, &replica_set);
        replica_set["spec"]["replicas"] = json!(new_replicas);
        let mut annotations = Map::new();
        set_new_annotations(&self.object, &self.spec, &mut annotations, new_revision, false);
        replica_set["metadata"]["annotations"] = Value::Object(annotations);
        let namespace = namespace_of(&self.object).to_owned();
        let created = match self
            .cluster
            .create(Kind::ReplicaSet, &namespace, replica_set, CONTROLLER_MANAGER)
        {
            Ok(created) => created,
            Err(error) if error.code == 409 => {
                // Made before (a sync that ended early), or a hash collision.
                let existing = self.cluster.get(Kind::ReplicaSet, &namespace, &name);
                let ours = existing.filter(|rs| {
                    super::super::fields::controller_uid(rs).as_deref() == self.object["metadata"]["uid"].as_str()
                        && equal_ignoring_hash(&self.object["spec"]["template"], &rs["spec"]["template"])
                });
                let Some(existing) = ours else {
                    let count = collision_count.unwrap_or(0) + 1;
                    self.object["status"]["collisionCount"] = json!(count);
                    self.save();
                    return NewReplicaSet::Failed;
                };
                return NewReplicaSet::Found(self.replace_replica_set(existing));
            }
            Err(error) => {
                let message = format!("Failed to create new replica set \"{name}\": {}", error.message);
                if self.has_progress_deadline() {
                    self.set_condition("Progressing", "False", "ReplicaSetCreateError", &message);
                    self.save();
                }
                self.event(true, "ReplicaSetCreateError", &message);
                return NewReplicaSet::Failed;
            }
        };
        if new_replicas > 0 {
            let message = format!("Scaled up replica set {name} to {new_replicas}");
            self.event(false, "ScalingReplicaSet", &message);
        }
        self.set_revision(&new_revision.to_string());
        if self.has_progress_deadline() {
            let message = format!("Created new replica set \"{name}\"");
            self.set_condition("Progressing", "True", "NewReplicaSetCreated", &message);
        }
        self.save();
        NewReplicaSet::Found(self.replace_replica_set(created))
    }
}

/// Sets a field to a number, or removes it when zero (Go's `omitempty`).
pub(super) fn set_or_remove(object: &mut Value, field: &str, value: i64) {
    if value == 0 {
        if let Some(map) = object.as_object_mut() {
            map.remove(field);
        }
    } else {
        object[field] = json!(value);
    }
}
