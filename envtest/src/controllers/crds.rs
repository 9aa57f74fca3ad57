//! CRD cleanup, as the apiextensions server's finalizer controller: a CRD being deleted
//! loses all its objects first, then its cleanup finalizer, and with that its resource
//! stops being served.

use super::{ObjectRef, has_finalizer, is_deleting, remove_finalizer};
use crate::core::GroupResource;
use crate::lifecycle::CRD_CLEANUP_FINALIZER;
use crate::lifecycle::deletion::{DeleteOptions, delete};
use crate::resources::registry::crd_resource;
use crate::state::State;

/// The field manager of the apiextensions server's writes.
const APIEXTENSIONS: &str = "kube-apiserver";

fn crds() -> GroupResource {
    GroupResource {
        group: "apiextensions.k8s.io".into(),
        resource: "customresourcedefinitions".into(),
    }
}

/// The CRDs being deleted that define `resource`: those waiting for its objects to go.
pub(super) fn deleting_crds_of(state: &State, resource: &GroupResource) -> Vec<ObjectRef> {
    if !state.registry.any_version(resource).is_some_and(|t| t.custom) {
        return Vec::new();
    }
    // Only CRDs being deleted are decoded: a delete of any object looks here.
    state
        .store
        .objects(&crds())
        .values()
        .filter(|crd| crd.deleting())
        .map(|crd| state.store.value(crd))
        .filter(|crd| crd_resource(crd).as_ref() == Some(resource))
        .map(|crd| ObjectRef::of(&crds(), &crd))
        .collect()
}

/// Deletes the objects of a CRD `item` being deleted, and removes its cleanup
/// finalizer once none is left (objects held by finalizers are waited for).
pub(super) fn cleanup(state: &mut State, item: &ObjectRef) {
    if item.resource != crds() {
        return;
    }
    let Some(current) = item.get(state) else {
        return;
    };
    if !is_deleting(&current) || !has_finalizer(&current, CRD_CLEANUP_FINALIZER) {
        return;
    }
    // A CRD the server could not serve has no objects to wait for.
    if let Some(resource) = crd_resource(&current)
        && let Some(resource_type) = state.registry.any_version(&resource).filter(|t| t.custom)
    {
        let objects = state.store.objects(&resource);
        for ((namespace, name), object) in &objects {
            if !is_deleting(&state.store.value(object)) {
                let _ = delete(state, &resource_type, namespace, name, &DeleteOptions::background());
            }
        }
        if !state.store.objects(&resource).is_empty() {
            return;
        }
    }
    let Some(crd_type) = item.resource_type(state) else {
        return;
    };
    remove_finalizer(state, &crd_type, &current, CRD_CLEANUP_FINALIZER, APIEXTENSIONS);
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
    use kube::core::{ApiResource, GroupVersionKind};
    use serde_json::json;

    use super::super::tests::{eventually, exists, server};

    fn crd() -> CustomResourceDefinition {
        serde_json::from_value(json!({
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}],
            },
        }))
        .expect("a CRD")
    }

    fn widget(name: &str, finalizers: &[&str]) -> DynamicObject {
        serde_json::from_value(json!({
            "apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": name, "finalizers": finalizers}, "spec": {"size": 1},
        }))
        .expect("a Widget")
    }

    #[tokio::test]
    async fn deleting_a_crd_deletes_its_objects_then_stops_serving_them() {
        let (_server, client) = server();
        let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
        crds.create(&PostParams::default(), &crd())
            .await
            .expect("create the CRD");
        let resource =
            ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk("example.com", "v1", "Widget"), "widgets");
        let widgets: Api<DynamicObject> = Api::namespaced_with(client.clone(), "default", &resource);
        widgets
            .create(&PostParams::default(), &widget("plain", &[]))
            .await
            .expect("create");
        widgets
            .create(&PostParams::default(), &widget("held", &["example.com/hold"]))
            .await
            .expect("create");
        crds.delete("widgets.example.com", &DeleteParams::default())
            .await
            .expect("delete");
        eventually("the objects are deleted or terminating", || async {
            let held = widgets.get("held").await.expect("get");
            !exists(&widgets, "plain").await && held.metadata.deletion_timestamp.is_some()
        })
        .await;
        assert!(
            exists(&crds, "widgets.example.com").await,
            "the CRD waits for its objects"
        );
        let patch = Patch::Merge(json!({"metadata": {"finalizers": null}}));
        widgets
            .patch("held", &PatchParams::default(), &patch)
            .await
            .expect("release");
        eventually("the CRD is gone", || async {
            !exists(&crds, "widgets.example.com").await
        })
        .await;
        let error = widgets
            .list(&kube::api::ListParams::default())
            .await
            .expect_err("the resource is no longer served");
        assert!(
            matches!(&error, kube::Error::Api(status) if status.code == 404),
            "got {error:?}"
        );
    }
}
