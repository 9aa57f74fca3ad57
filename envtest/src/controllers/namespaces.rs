//! The namespace controller: a namespace being deleted loses every object in it, then
//! its `kubernetes` finalizer, and with that goes. Meanwhile its `status.conditions`
//! say what remains, as kube-controller-manager's namespace deleter writes them.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{CONTROLLER_MANAGER, ObjectRef, is_deleting, update};
use crate::core::GroupResource;
use crate::lifecycle::deletion::{DeleteOptions, delete};
use crate::state::State;

/// The finalizer (in `spec.finalizers`) the namespace controller owns.
const KUBERNETES: &str = "kubernetes";

fn namespaces() -> GroupResource {
    GroupResource {
        group: String::new(),
        resource: "namespaces".into(),
    }
}

pub(super) fn namespace_ref(name: &str) -> ObjectRef {
    ObjectRef {
        resource: namespaces(),
        namespace: String::new(),
        name: name.to_owned(),
    }
}

/// Deletes what is left in a terminating namespace `item`, and finalizes the namespace
/// once nothing is. Objects held by finalizers only get a deletionTimestamp; the
/// namespace waits for their deletion events.
pub(super) fn finalize(state: &mut State, item: &ObjectRef) {
    if item.resource != namespaces() {
        return;
    }
    let Some(current) = item.get(state) else {
        return;
    };
    // A namespace finalized before it was deleted stays Terminating: the deleter
    // returns early, as kube-controller-manager's does, until another write of it.
    if !is_deleting(&current) || !spec_finalizers(&current).any(|f| f == KUBERNETES) {
        return;
    }
    let name = &item.name;
    let resources: Vec<GroupResource> = state.store.resources().cloned().collect();
    let mut remaining = 0;
    // `<resource>.<group>` → objects left, and finalizer → objects it holds.
    let mut left: BTreeMap<String, usize> = BTreeMap::new();
    let mut held: BTreeMap<String, usize> = BTreeMap::new();
    for resource in resources {
        let Some(resource_type) = state.registry.any_version(&resource).filter(|t| t.namespaced) else {
            continue;
        };
        let objects = state.store.objects(&resource);
        // Objects are ordered by (namespace, name): this namespace's form one range.
        let start = (name.clone(), String::new());
        for ((namespace, object_name), object) in objects.range(start..).take_while(|((ns, _), _)| ns == name) {
            if !is_deleting(&state.store.value(object)) {
                let _ = delete(
                    state,
                    &resource_type,
                    namespace,
                    object_name,
                    &DeleteOptions::background(),
                );
            }
            if let Some(still) = state.store.get(&resource, namespace, object_name) {
                remaining += 1;
                *left
                    .entry(format!("{}.{}", resource.resource, resource.group))
                    .or_default() += 1;
                for finalizer in still["metadata"]["finalizers"].as_array().into_iter().flatten() {
                    if let Some(finalizer) = finalizer.as_str() {
                        *held.entry(finalizer.to_owned()).or_default() += 1;
                    }
                }
            }
        }
    }
    if remaining > 0 {
        report_remaining(state, item, &current, &left, &held);
        return;
    }
    {
        let mut desired = current.as_ref().clone();
        if let Some(list) = desired["spec"]["finalizers"].as_array_mut() {
            list.retain(|f| f != KUBERNETES);
        }
        let Some(resource_type) = item.resource_type(state) else {
            return;
        };
        // Through `/finalize`, as kube-controller-manager does: the main endpoint keeps
        // `spec.finalizers` as stored.
        update(
            state,
            &resource_type,
            &current,
            desired,
            Some("finalize"),
            CONTROLLER_MANAGER,
        );
    }
}

/// The deletion conditions kube-controller-manager keeps on a terminating namespace
/// (`namespaceConditionUpdater`): the failures it had (none here) and what content and
/// finalizers remain, each condition in kube's words; written when they change.
fn report_remaining(
    state: &mut State,
    item: &ObjectRef,
    current: &Value,
    left: &BTreeMap<String, usize>,
    held: &BTreeMap<String, usize>,
) {
    let listed = |counts: &BTreeMap<String, usize>, format: &dyn Fn(&str, usize) -> String| {
        let mut parts: Vec<String> = counts.iter().map(|(what, count)| format(what, *count)).collect();
        parts.sort();
        parts.join(", ")
    };
    let content = (!left.is_empty()).then(|| {
        let parts = listed(left, &|what, count| format!("{what} has {count} resource instances"));
        ("SomeResourcesRemain", format!("Some resources are remaining: {parts}"))
    });
    let finalizers = (!held.is_empty()).then(|| {
        let parts = listed(held, &|what, count| format!("{what} in {count} resource instances"));
        (
            "SomeFinalizersRemain",
            format!("Some content in the namespace has finalizers remaining: {parts}"),
        )
    });
    let conditions = [
        (
            "NamespaceDeletionDiscoveryFailure",
            None,
            ("ResourcesDiscovered", "All resources successfully discovered"),
        ),
        (
            "NamespaceDeletionGroupVersionParsingFailure",
            None,
            ("ParsedGroupVersions", "All legacy kube types successfully parsed"),
        ),
        (
            "NamespaceDeletionContentFailure",
            None,
            (
                "ContentDeleted",
                "All content successfully deleted, may be waiting on finalization",
            ),
        ),
        (
            "NamespaceContentRemaining",
            content,
            ("ContentRemoved", "All content successfully removed"),
        ),
        (
            "NamespaceFinalizersRemaining",
            finalizers,
            ("ContentHasNoFinalizers", "All content-preserving finalizers finished"),
        ),
    ];
    let before = current["status"]["conditions"].as_array().cloned().unwrap_or_default();
    let now = crate::lifecycle::now();
    let mut changed = false;
    let mut written = Vec::new();
    for (kind, problem, (ok_reason, ok_message)) in conditions {
        let (status, reason, message) = match problem {
            Some((reason, message)) => ("True", reason.to_owned(), message),
            None => ("False", ok_reason.to_owned(), ok_message.to_owned()),
        };
        let previous = before.iter().find(|c| c["type"] == kind);
        let same = previous.is_some_and(|p| {
            p["status"] == status && p["reason"] == reason.as_str() && p["message"] == message.as_str()
        });
        changed |= !same;
        let since = previous
            .filter(|p| p["status"] == status)
            .and_then(|p| p["lastTransitionTime"].as_str())
            .map_or_else(|| now.clone(), str::to_owned);
        written.push(
            json!({"type": kind, "status": status, "lastTransitionTime": since, "reason": reason, "message": message}),
        );
    }
    if !changed {
        return;
    }
    let mut desired = current.clone();
    desired["status"]["conditions"] = Value::Array(written);
    if let Some(resource_type) = item.resource_type(state) {
        update(
            state,
            &resource_type,
            current,
            desired,
            Some("status"),
            CONTROLLER_MANAGER,
        );
    }
}

fn spec_finalizers(namespace: &Value) -> impl Iterator<Item = &str> {
    namespace["spec"]["finalizers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret};
    use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
    use serde_json::json;

    use super::super::tests::{eventually, exists, server};

    async fn create_namespace(client: &kube::Client, name: &str) -> Api<Namespace> {
        let namespaces: Api<Namespace> = Api::all(client.clone());
        let namespace: Namespace = serde_json::from_value(json!({"metadata": {"name": name}})).expect("a Namespace");
        namespaces
            .create(&PostParams::default(), &namespace)
            .await
            .expect("create the namespace");
        namespaces
    }

    fn configmap(name: &str, finalizers: &[&str]) -> ConfigMap {
        serde_json::from_value(json!({"metadata": {"name": name, "finalizers": finalizers}})).expect("a ConfigMap")
    }

    #[tokio::test]
    async fn deleting_a_namespace_deletes_its_objects_then_itself() {
        let (_server, client) = server();
        let namespaces = create_namespace(&client, "doomed").await;
        let configmaps: Api<ConfigMap> = Api::namespaced(client.clone(), "doomed");
        let secrets: Api<Secret> = Api::namespaced(client.clone(), "doomed");
        let elsewhere: Api<ConfigMap> = Api::default_namespaced(client);
        let post = PostParams::default();
        configmaps.create(&post, &configmap("a", &[])).await.expect("create");
        configmaps.create(&post, &configmap("b", &[])).await.expect("create");
        let secret: Secret = serde_json::from_value(json!({"metadata": {"name": "s"}})).expect("a Secret");
        secrets.create(&post, &secret).await.expect("create");
        elsewhere.create(&post, &configmap("a", &[])).await.expect("create");
        namespaces
            .delete("doomed", &DeleteParams::default())
            .await
            .expect("delete");
        eventually("the namespace is gone", || async {
            !exists(&namespaces, "doomed").await
        })
        .await;
        assert!(!exists(&configmaps, "a").await && !exists(&configmaps, "b").await && !exists(&secrets, "s").await);
        assert!(exists(&elsewhere, "a").await, "other namespaces keep their objects");
    }

    #[tokio::test]
    async fn a_namespace_stays_terminating_while_a_finalizer_holds_an_object() {
        let (_server, client) = server();
        let namespaces = create_namespace(&client, "held").await;
        let configmaps: Api<ConfigMap> = Api::namespaced(client, "held");
        configmaps
            .create(&PostParams::default(), &configmap("pinned", &["example.com/hold"]))
            .await
            .expect("create");
        namespaces
            .delete("held", &DeleteParams::default())
            .await
            .expect("delete");
        eventually("the held object is terminating", || async {
            configmaps
                .get("pinned")
                .await
                .expect("get")
                .metadata
                .deletion_timestamp
                .is_some()
        })
        .await;
        let namespace = namespaces.get("held").await.expect("the namespace waits");
        let status = namespace.status.expect("a status");
        assert_eq!(status.phase.as_deref(), Some("Terminating"));
        let conditions = status.conditions.expect("the deletion conditions");
        let condition = |kind: &str| {
            let found = conditions.iter().find(|c| c.type_ == kind).expect("the condition");
            (found.status.clone(), found.reason.clone(), found.message.clone())
        };
        assert_eq!(
            condition("NamespaceContentRemaining"),
            (
                "True".to_owned(),
                Some("SomeResourcesRemain".to_owned()),
                Some("Some resources are remaining: configmaps. has 1 resource instances".to_owned())
            )
        );
        assert_eq!(
            condition("NamespaceFinalizersRemaining"),
            (
                "True".to_owned(),
                Some("SomeFinalizersRemain".to_owned()),
                Some(
                    "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"
                        .to_owned()
                )
            )
        );
        assert_eq!(condition("NamespaceDeletionContentFailure").0, "False");
        let patch = Patch::Merge(json!({"metadata": {"finalizers": null}}));
        configmaps
            .patch("pinned", &PatchParams::default(), &patch)
            .await
            .expect("release");
        eventually("the namespace is gone", || async { !exists(&namespaces, "held").await }).await;
    }

    #[tokio::test]
    async fn an_empty_namespace_goes_at_once() {
        let (_server, client) = server();
        let namespaces = create_namespace(&client, "empty").await;
        namespaces
            .delete("empty", &DeleteParams::default())
            .await
            .expect("delete");
        eventually("the namespace is gone", || async {
            !exists(&namespaces, "empty").await
        })
        .await;
    }
}
