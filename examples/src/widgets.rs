//! Widgets: a CRD served in two versions, `v1alpha1` and `v1`, with the same schema and
//! no conversion webhook, whose storage version a release moves from `v1alpha1` to `v1`.
//! The storage-migration demo and its test move it, then migrate the stored objects.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, PostParams};
use kube::core::{ApiResource, DynamicObject, GroupVersionKind};
use serde_json::json;

/// The CRD's group.
pub const GROUP: &str = "migrate.example.com";
/// The CRD's name.
pub const CRD_NAME: &str = "widgets.migrate.example.com";

/// The Widget CRD with `storage` (`"v1alpha1"` or `"v1"`) as its storage version.
///
/// # Panics
///
/// Only if the constant definition below stopped parsing as a CRD (every test that
/// installs it would fail first).
#[must_use]
pub fn crd(storage: &str) -> CustomResourceDefinition {
    let version = |name: &str| {
        json!({
            "name": name, "served": true, "storage": name == storage,
            "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}},
            }},
        })
    };
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": CRD_NAME},
        "spec": {
            "group": GROUP, "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [version("v1alpha1"), version("v1")],
        },
    }))
    .expect("a CRD of the right shape")
}

/// Widgets in `version` in `namespace`.
#[must_use]
pub fn api(client: kube::Client, namespace: &str, version: &str) -> Api<DynamicObject> {
    let resource = ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(GROUP, version, "Widget"), "widgets");
    Api::namespaced_with(client, namespace, &resource)
}

/// Creates `count` widgets (`widget-00000`, ...) in `v1alpha1`, `parallel` at a time.
///
/// # Errors
///
/// The first create the server refuses.
///
/// # Panics
///
/// Only if a Widget built from the constant shape below stopped parsing.
pub async fn create(client: kube::Client, namespace: &str, count: usize) -> Result<(), kube::Error> {
    use futures::{StreamExt as _, TryStreamExt as _};
    let api = api(client, namespace, "v1alpha1");
    futures::stream::iter(0..count)
        .map(|i| {
            let api = api.clone();
            async move {
                let widget: DynamicObject = serde_json::from_value(json!({
                    "apiVersion": format!("{GROUP}/v1alpha1"), "kind": "Widget",
                    "metadata": {"name": format!("widget-{i:05}")},
                    "spec": {"size": i},
                }))
                .expect("a Widget");
                api.create(&PostParams::default(), &widget).await.map(drop)
            }
        })
        .buffer_unordered(16)
        .try_collect()
        .await
}
