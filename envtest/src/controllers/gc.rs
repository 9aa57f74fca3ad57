//! The garbage collector, as kube-controller-manager's: objects whose owners are all
//! gone are deleted, owners deleted in the foreground wait for their dependents, and
//! owners deleted with orphaning let go of theirs.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::{CONTROLLER_MANAGER, ObjectRef, has_finalizer, is_deleting, remove_finalizer, update};
use crate::core::ResourceType;
use crate::lifecycle::deletion::{
    DeleteOptions, FOREGROUND_FINALIZER as FOREGROUND, ORPHAN_FINALIZER as ORPHAN, Propagation, delete,
};
use crate::state::State;
use crate::store::{Event, EventType};

/// The dependency graph, built from the events the controllers received.
///
/// Invariant: `dependents` and `owners` describe the objects as of the last event
/// observed, which may lag the store; every decision re-reads the store, and the index
/// only says where to look.
#[derive(Default)]
pub(super) struct GarbageCollector {
    /// Owner uid → the objects whose `ownerReferences` name it.
    dependents: HashMap<String, BTreeSet<ObjectRef>>,
    /// Dependent → the owner uids it is indexed under, to unindex it exactly.
    owners: HashMap<ObjectRef, Vec<String>>,
    /// Owners seen deleted while dependents still named them. They count as absent even
    /// when their kind is no longer served (a deleted CRD's objects); an entry goes when
    /// the owner has no dependents left.
    deleted: HashSet<String>,
}

/// What an owner reference points at, as the real collector classifies it.
enum Owner {
    /// No object with this uid: the reference dangles.
    Absent,
    /// Being deleted in the foreground: it waits for this dependent to go.
    WaitingForDependents,
    /// Exists, or cannot be resolved (unknown kind): the dependent stays.
    Solid,
}

impl GarbageCollector {
    /// Indexes the object of `event` and marks dirty what the change concerns: the
    /// dependents of a deleted owner, and the owners of a changed dependent (which may
    /// be waiting for it).
    pub fn observe(&mut self, state: &State, event: &Event, item: &ObjectRef, dirty: &mut BTreeSet<ObjectRef>) {
        let owner_uids = if event.kind == EventType::Deleted {
            Vec::new()
        } else {
            references(event.object())
                .filter_map(|r| r["uid"].as_str())
                .map(str::to_owned)
                .collect()
        };
        self.index(item, owner_uids);
        if event.kind == EventType::Deleted {
            let uid = uid_of(event.object());
            if let Some(dependents) = self.dependents.get(uid) {
                self.deleted.insert(uid.to_owned());
                dirty.extend(dependents.iter().cloned());
            }
        }
        let previous = event.previous().map(AsRef::as_ref).into_iter().flat_map(references);
        for reference in references(event.object()).chain(previous) {
            if let Some((owner, _)) = resolve(state, reference, &item.namespace) {
                dirty.insert(owner);
            }
        }
    }

    fn index(&mut self, item: &ObjectRef, owner_uids: Vec<String>) {
        if let Some(old) = self.owners.remove(item) {
            for uid in old {
                if let Some(dependents) = self.dependents.get_mut(&uid) {
                    dependents.remove(item);
                    if dependents.is_empty() {
                        self.dependents.remove(&uid);
                        self.deleted.remove(&uid);
                    }
                }
            }
        }
        if owner_uids.is_empty() {
            return;
        }
        for uid in &owner_uids {
            self.dependents.entry(uid.clone()).or_default().insert(item.clone());
        }
        self.owners.insert(item.clone(), owner_uids);
    }

    /// Deletes `item` if no owner holds it, or drops its references to owners that are
    /// gone (or waiting for it) when another owner still holds it.
    pub fn attempt_to_delete(&self, state: &mut State, item: &ObjectRef) {
        let Some(current) = item.get(state) else {
            return;
        };
        if is_deleting(&current) {
            return;
        }
        let references: Vec<&Value> = references(&current).collect();
        if references.is_empty() {
            return;
        }
        // The uids of owners this dependent no longer answers to.
        let mut let_go = Vec::new();
        let (mut solid, mut waiting) = (false, false);
        for reference in references {
            match self.classify(state, reference, &item.namespace) {
                Owner::Solid => solid = true,
                Owner::Absent => let_go.push(reference["uid"].clone()),
                Owner::WaitingForDependents => {
                    waiting = true;
                    let_go.push(reference["uid"].clone());
                }
            }
        }
        let Some(resource) = item.resource_type(state) else {
            return;
        };
        if solid {
            if !let_go.is_empty() {
                strip_references(state, &resource, &current, |r| let_go.contains(&r["uid"]));
            }
            return;
        }
        // An owner waits in the foreground: a dependent that has dependents of its own
        // goes in the foreground too, so the wait reaches down the whole tree.
        let policy = (waiting && self.dependents.contains_key(uid_of(&current))).then_some(Propagation::Foreground);
        // Failing means the object went meanwhile: nothing left to do.
        let _ = delete(
            state,
            &resource,
            &item.namespace,
            &item.name,
            &DeleteOptions::propagating(policy),
        );
    }

    /// Carries out the `orphan` and `foregroundDeletion` finalizers of an owner being
    /// deleted.
    pub fn process_owner(&self, state: &mut State, item: &ObjectRef) {
        let Some(current) = item.get(state) else {
            return;
        };
        if !is_deleting(&current) {
            return;
        }
        let Some(resource) = item.resource_type(state) else {
            return;
        };
        let uid = uid_of(&current).to_owned();
        let dependents: Vec<ObjectRef> = self.dependents.get(&uid).into_iter().flatten().cloned().collect();
        if has_finalizer(&current, ORPHAN) {
            for dependent in &dependents {
                let (Some(object), Some(dependent_type)) = (dependent.get(state), dependent.resource_type(state))
                else {
                    continue;
                };
                strip_references(state, &dependent_type, &object, |r| r["uid"] == uid.as_str());
            }
            remove_finalizer(state, &resource, &current, ORPHAN, CONTROLLER_MANAGER);
            return;
        }
        if has_finalizer(&current, FOREGROUND) {
            let remaining: Vec<&ObjectRef> = dependents
                .iter()
                .filter(|d| {
                    d.get(state)
                        .is_some_and(|o| references(&o).any(|r| r["uid"] == uid.as_str()))
                })
                .collect();
            if remaining.is_empty() {
                remove_finalizer(state, &resource, &current, FOREGROUND, CONTROLLER_MANAGER);
            }
            for dependent in remaining {
                self.attempt_to_delete(state, dependent);
            }
        }
    }

    fn classify(&self, state: &State, reference: &Value, namespace: &str) -> Owner {
        let Some(uid) = reference["uid"].as_str() else {
            return Owner::Solid;
        };
        if self.deleted.contains(uid) {
            return Owner::Absent;
        }
        let Some((owner, _)) = resolve(state, reference, namespace) else {
            return Owner::Solid;
        };
        match owner.get(state) {
            Some(object) if uid_of(&object) == uid => {
                if is_deleting(&object) && has_finalizer(&object, FOREGROUND) {
                    Owner::WaitingForDependents
                } else {
                    Owner::Solid
                }
            }
            _ => Owner::Absent,
        }
    }
}

/// Where the owner a reference names would be: found by kind, in the dependent's
/// namespace when namespaced. None when the kind is not served, the reference is
/// malformed, or a cluster-scoped dependent names a namespaced owner (which the real
/// collector cannot resolve either).
fn resolve(state: &State, reference: &Value, namespace: &str) -> Option<(ObjectRef, Arc<ResourceType>)> {
    let api_version = reference["apiVersion"].as_str()?;
    let kind = reference["kind"].as_str()?;
    let name = reference["name"].as_str()?;
    let owner_type = state.registry.by_kind(api_version, kind)?;
    if owner_type.namespaced && namespace.is_empty() {
        return None;
    }
    let owner = ObjectRef {
        resource: owner_type.group_resource(),
        namespace: if owner_type.namespaced {
            namespace.to_owned()
        } else {
            String::new()
        },
        name: name.to_owned(),
    };
    Some((owner, owner_type))
}

fn references(object: &Value) -> impl Iterator<Item = &Value> {
    object["metadata"]["ownerReferences"].as_array().into_iter().flatten()
}

fn uid_of(object: &Value) -> &str {
    object["metadata"]["uid"].as_str().unwrap_or_default()
}

/// Removes the owner references `drop` selects, as the collector's patch does.
fn strip_references(state: &mut State, resource: &ResourceType, current: &Value, drop: impl Fn(&Value) -> bool) {
    let mut desired = current.clone();
    let Some(list) = desired["metadata"]["ownerReferences"].as_array_mut() else {
        return;
    };
    list.retain(|r| !drop(r));
    if list.is_empty()
        && let Some(metadata) = desired["metadata"].as_object_mut()
    {
        metadata.remove("ownerReferences");
    }
    update(state, resource, current, desired, None, CONTROLLER_MANAGER);
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
    use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
    use serde_json::json;

    use super::super::tests::{eventually, exists, server};

    /// A `ConfigMap` in `default` owned by `owners`, holding `finalizers`.
    fn configmap(name: &str, owners: &[(&str, &str, &str, &str)], finalizers: &[&str]) -> ConfigMap {
        let references: Vec<_> = owners
            .iter()
            .map(|(api_version, kind, name, uid)| json!({"apiVersion": api_version, "kind": kind, "name": name, "uid": uid}))
            .collect();
        serde_json::from_value(json!({
            "metadata": {"name": name, "ownerReferences": references, "finalizers": finalizers},
        }))
        .expect("a ConfigMap")
    }

    fn owned_by(owner: &ConfigMap) -> (&str, &str, &str, &str) {
        let name = owner.metadata.name.as_deref().expect("name");
        ("v1", "ConfigMap", name, owner.metadata.uid.as_deref().expect("uid"))
    }

    async fn create(api: &Api<ConfigMap>, object: &ConfigMap) -> ConfigMap {
        api.create(&PostParams::default(), object).await.expect("create")
    }

    /// Returns once the collector has handled every earlier write: it handles writes in
    /// order, so once a later object with an absent owner is collected, so are they.
    async fn settle(api: &Api<ConfigMap>) {
        create(
            api,
            &configmap("barrier", &[("v1", "ConfigMap", "absent", "u-absent")], &[]),
        )
        .await;
        eventually("the barrier is collected", || async { !exists(api, "barrier").await }).await;
    }

    async fn release(api: &Api<ConfigMap>, name: &str) {
        let patch = Patch::Merge(json!({"metadata": {"finalizers": null}}));
        api.patch(name, &PatchParams::default(), &patch)
            .await
            .expect("remove finalizers");
    }

    #[tokio::test]
    async fn a_dependent_is_collected_after_its_owner_is_deleted() {
        let (_server, client) = server();
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        let owner = create(&api, &configmap("owner", &[], &[])).await;
        create(&api, &configmap("dependent", &[owned_by(&owner)], &[])).await;
        create(&api, &configmap("bystander", &[], &[])).await;
        api.delete("owner", &DeleteParams::default()).await.expect("delete");
        eventually("the dependent is collected", || async {
            !exists(&api, "dependent").await
        })
        .await;
        assert!(exists(&api, "bystander").await);
    }

    #[tokio::test]
    async fn a_dependent_created_with_an_absent_owner_is_collected() {
        let (_server, client) = server();
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        // The owner's name exists, but with another uid: another object.
        create(&api, &configmap("owner", &[], &[])).await;
        create(
            &api,
            &configmap("stale", &[("v1", "ConfigMap", "owner", "not-the-uid")], &[]),
        )
        .await;
        create(&api, &configmap("lost", &[("v1", "ConfigMap", "never", "u-1")], &[])).await;
        eventually("both dependents are collected", || async {
            !exists(&api, "stale").await && !exists(&api, "lost").await
        })
        .await;
        assert!(exists(&api, "owner").await);
    }

    #[tokio::test]
    async fn a_live_owner_keeps_a_dependent_and_loses_only_the_dangling_reference() {
        let (_server, client) = server();
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        let first = create(&api, &configmap("first", &[], &[])).await;
        let second = create(&api, &configmap("second", &[], &[])).await;
        create(&api, &configmap("shared", &[owned_by(&first), owned_by(&second)], &[])).await;
        settle(&api).await;
        assert!(exists(&api, "shared").await, "live owners hold it");
        api.delete("first", &DeleteParams::default()).await.expect("delete");
        eventually("the dangling reference is dropped", || async {
            let shared = api.get("shared").await.expect("get");
            shared
                .metadata
                .owner_references
                .is_some_and(|r| r.len() == 1 && r[0].name == "second")
        })
        .await;
    }

    #[tokio::test]
    async fn a_cluster_scoped_owner_is_found_without_a_namespace() {
        let (_server, client) = server();
        let namespaces: Api<Namespace> = Api::all(client.clone());
        let namespace: Namespace = serde_json::from_value(json!({"metadata": {"name": "owner-ns"}})).expect("ns");
        let namespace = namespaces
            .create(&PostParams::default(), &namespace)
            .await
            .expect("create");
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        let uid = namespace.metadata.uid.as_deref().expect("uid");
        create(
            &api,
            &configmap("dependent", &[("v1", "Namespace", "owner-ns", uid)], &[]),
        )
        .await;
        settle(&api).await;
        assert!(exists(&api, "dependent").await, "its owner was found");
        namespaces
            .delete("owner-ns", &DeleteParams::default())
            .await
            .expect("delete");
        eventually("the dependent is collected", || async {
            !exists(&api, "dependent").await
        })
        .await;
    }

    #[tokio::test]
    async fn foreground_deletion_deletes_dependents_before_the_owner() {
        let (_server, client) = server();
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        let owner = create(&api, &configmap("owner", &[], &[])).await;
        create(&api, &configmap("plain", &[owned_by(&owner)], &[])).await;
        create(&api, &configmap("held", &[owned_by(&owner)], &["example.com/hold"])).await;
        api.delete("owner", &DeleteParams::foreground()).await.expect("delete");
        eventually("the plain dependent is gone and the held one terminating", || async {
            let held = api.get("held").await.expect("get");
            !exists(&api, "plain").await && held.metadata.deletion_timestamp.is_some()
        })
        .await;
        let waiting = api.get("owner").await.expect("the owner waits for its dependents");
        assert!(
            waiting
                .metadata
                .finalizers
                .is_some_and(|f| f.contains(&"foregroundDeletion".to_owned()))
        );
        release(&api, "held").await;
        eventually("the owner is gone", || async { !exists(&api, "owner").await }).await;
    }

    #[tokio::test]
    async fn foreground_deletion_reaches_down_the_tree() {
        let (_server, client) = server();
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        let root = create(&api, &configmap("root", &[], &[])).await;
        let middle = create(&api, &configmap("middle", &[owned_by(&root)], &[])).await;
        create(&api, &configmap("leaf", &[owned_by(&middle)], &["example.com/hold"])).await;
        api.delete("root", &DeleteParams::foreground()).await.expect("delete");
        eventually("the leaf is terminating", || async {
            api.get("leaf")
                .await
                .expect("get")
                .metadata
                .deletion_timestamp
                .is_some()
        })
        .await;
        assert!(exists(&api, "middle").await && exists(&api, "root").await);
        release(&api, "leaf").await;
        eventually("the whole tree is gone", || async {
            !exists(&api, "root").await && !exists(&api, "middle").await && !exists(&api, "leaf").await
        })
        .await;
    }

    #[tokio::test]
    async fn orphan_deletion_keeps_dependents_and_strips_their_references() {
        let (_server, client) = server();
        let api: Api<ConfigMap> = Api::default_namespaced(client);
        let owner = create(&api, &configmap("owner", &[], &[])).await;
        let other = create(&api, &configmap("other", &[], &[])).await;
        create(&api, &configmap("kept", &[owned_by(&owner)], &[])).await;
        create(&api, &configmap("co-owned", &[owned_by(&owner), owned_by(&other)], &[])).await;
        api.delete("owner", &DeleteParams::orphan()).await.expect("delete");
        eventually("the owner is gone", || async { !exists(&api, "owner").await }).await;
        let kept = api.get("kept").await.expect("the dependent is kept");
        assert!(kept.metadata.owner_references.is_none_or(|r| r.is_empty()));
        let co_owned = api.get("co-owned").await.expect("the co-owned dependent is kept");
        let references = co_owned.metadata.owner_references.expect("one reference left");
        assert_eq!(
            references.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
            ["other"]
        );
    }
}
