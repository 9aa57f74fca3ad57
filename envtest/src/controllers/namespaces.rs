//! The namespace controller: a namespace being deleted loses every object in it, then
//! its `kubernetes` finalizer, and with that goes.

use serde_json::Value;

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
    if !is_deleting(&current) || !spec_finalizers(&current).any(|f| f == KUBERNETES) {
        return;
    }
    let name = &item.name;
    let resources: Vec<GroupResource> = state.store.resources().cloned().collect();
    let mut remaining = 0;
    for resource in resources {
        let Some(resource_type) = state.registry.any_version(&resource).filter(|t| t.namespaced) else {
            continue;
        };
        let objects = state.store.objects(&resource);
        // Objects are ordered by (namespace, name): this namespace's form one range.
        let start = (name.clone(), String::new());
        for ((namespace, object_name), object) in objects.range(start..).take_while(|((ns, _), _)| ns == name) {
            if !is_deleting(object) {
                let _ = delete(
                    state,
                    &resource_type,
                    namespace,
                    object_name,
                    &DeleteOptions::background(),
                );
            }
            if state.store.get(&resource, namespace, object_name).is_some() {
                remaining += 1;
            }
        }
    }
    if remaining == 0 {
        let mut desired = current.as_ref().clone();
        if let Some(list) = desired["spec"]["finalizers"].as_array_mut() {
            list.retain(|f| f != KUBERNETES);
        }
        let Some(resource_type) = item.resource_type(state) else {
            return;
        };
        update(state, &resource_type, &current, desired, None, CONTROLLER_MANAGER);
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
        assert_eq!(namespace.status.and_then(|s| s.phase).as_deref(), Some("Terminating"));
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
