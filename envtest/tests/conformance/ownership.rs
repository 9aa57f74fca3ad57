//! Managed fields as kube-apiserver keeps them: who owns what after updates, applies
//! and writes through the status and scale subresources, and how a conflict names the
//! owner.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::common::{CustomType, IMAGE, api_error, configmap, deployment, start};
use crate::schema_common::skip_before;

/// The entry of `manager` with `operation`, if the object has one.
fn entry<'a>(entries: &'a [ManagedFieldsEntry], manager: &str, operation: &str) -> Option<&'a ManagedFieldsEntry> {
    entries
        .iter()
        .find(|e| e.manager.as_deref() == Some(manager) && e.operation.as_deref() == Some(operation))
}

fn fields(entry: &ManagedFieldsEntry) -> Value {
    entry.fields_v1.as_ref().map(|f| f.0.clone()).unwrap_or_default()
}

/// A `fieldManager` for a write other than apply.
fn manager(name: &str) -> PatchParams {
    PatchParams {
        field_manager: Some(name.into()),
        ..PatchParams::default()
    }
}

/// One name writing with `Update` (a create) and then with `Apply` is two owners: the
/// apply changing a field the update set conflicts, and the message names the update's
/// owner with its API version.
#[tokio::test]
async fn updating_and_applying_under_one_name_are_two_owners() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let params = PostParams {
        field_manager: Some("m".into()),
        ..PostParams::default()
    };
    api.create(&params, &configmap("twice", &[], &[("key", "1")]))
        .await
        .unwrap();
    let applied = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "twice"}, "data": {"key": "2"}});
    let status = api_error(
        api.patch("twice", &PatchParams::apply("m"), &Patch::Apply(&applied))
            .await,
    );
    assert_eq!(status.code, 409);
    assert_eq!(status.reason, "Conflict");
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"m\" using v1: .data.key"
    );

    let forced = api
        .patch("twice", &PatchParams::apply("m").force(), &Patch::Apply(&applied))
        .await
        .unwrap();
    let entries = forced.metadata.managed_fields.unwrap_or_default();
    let by_apply = entry(&entries, "m", "Apply").expect("m's Apply entry");
    assert_eq!(fields(by_apply), json!({"f:data": {"f:key": {}}}));
    // The update still owns the map it created, though no longer the key.
    let by_update = entry(&entries, "m", "Update").expect("m's Update entry");
    assert_eq!(fields(by_update), json!({"f:data": {}}));
    env.stop().await;
}

/// An update by a second manager takes the fields it changes; the first manager keeps
/// its entry for what it still owns: the map it created (`f:data: {}`), which is why
/// kube-apiserver never drops that entry even when every key has changed hands.
#[tokio::test]
async fn an_update_by_another_manager_keeps_the_first_managers_entry() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let params = PostParams {
        field_manager: Some("first".into()),
        ..PostParams::default()
    };
    let created = api
        .create(&params, &configmap("handed", &[], &[("a", "1")]))
        .await
        .unwrap();
    let entries = created.metadata.managed_fields.unwrap_or_default();
    let first = entry(&entries, "first", "Update").expect("first's entry");
    assert_eq!(fields(first), json!({"f:data": {".": {}, "f:a": {}}}));

    let updated = api
        .patch("handed", &manager("second"), &Patch::Merge(json!({"data": {"a": "2"}})))
        .await
        .unwrap();
    let entries = updated.metadata.managed_fields.unwrap_or_default();
    let first = entry(&entries, "first", "Update").expect("first keeps its entry");
    assert_eq!(fields(first), json!({"f:data": {}}));
    let second = entry(&entries, "second", "Update").expect("second's entry");
    assert_eq!(fields(second), json!({"f:data": {"f:a": {}}}));
    env.stop().await;
}

/// A write through `/scale` is recorded as the scale subresource's (`subresource:
/// scale`, owning `.spec.replicas`), and an apply that changes the replicas conflicts
/// with it by that name.
#[tokio::test]
async fn scale_writes_are_owned_by_the_scale_subresource() {
    let env = start().await;
    if skip_before(&env, 22, "managedFields naming their subresource").await {
        return env.stop().await;
    }
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let containers = json!([{"name": "app", "image": IMAGE}]);
    let mut applied = serde_json::to_value(deployment("scaled", 0, &containers)).unwrap();
    applied["apiVersion"] = json!("apps/v1");
    applied["kind"] = json!("Deployment");
    api.patch("scaled", &PatchParams::apply("ci"), &Patch::Apply(&applied))
        .await
        .unwrap();
    api.patch_scale(
        "scaled",
        &manager("scaler"),
        &Patch::Merge(json!({"spec": {"replicas": 1}})),
    )
    .await
    .unwrap();
    let scaled = api.get("scaled").await.unwrap();
    let entries = scaled.metadata.managed_fields.unwrap_or_default();
    let through_scale = entry(&entries, "scaler", "Update").expect("the scaler's entry");
    assert_eq!(through_scale.subresource.as_deref(), Some("scale"));
    assert_eq!(through_scale.api_version.as_deref(), Some("apps/v1"));
    assert_eq!(fields(through_scale), json!({"f:spec": {"f:replicas": {}}}));
    let ci = entry(&entries, "ci", "Apply").expect("ci's entry");
    assert!(
        fields(ci)["f:spec"].get("f:replicas").is_none(),
        "the scale took the replicas"
    );

    let status = api_error(
        api.patch("scaled", &PatchParams::apply("ci"), &Patch::Apply(&applied))
            .await,
    );
    assert_eq!(status.code, 409);
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"scaler\" with subresource \"scale\" using apps/v1: .spec.replicas"
    );
    env.stop().await;
}

/// A server-side apply of `/status` that carries spec fields is accepted: the status
/// strategy resets the spec, so the apply neither conflicts on it, changes it, nor owns
/// it; its entry names the status subresource.
#[tokio::test]
async fn a_status_apply_ignores_the_spec_it_carries() {
    let env = start().await;
    // 1.19 computed apply conflicts over the whole object on `/status`: strategies'
    // reset fields, which leave the spec out, came in 1.21 and subresource entries in 1.22.
    if skip_before(&env, 22, "a status apply that ignores the spec").await {
        return env.stop().await;
    }
    let widgets = CustomType::new(&env, "Gadget", "gadgets", true);
    widgets.install(&env).await;
    let api = widgets.namespaced(&env);
    let owned = json!({"apiVersion": widgets.resource.api_version, "kind": "Gadget",
        "metadata": {"name": "g"}, "spec": {"size": "small"}});
    api.patch("g", &PatchParams::apply("owner"), &Patch::Apply(&owned))
        .await
        .unwrap();
    let status = json!({"apiVersion": widgets.resource.api_version, "kind": "Gadget",
        "metadata": {"name": "g"}, "spec": {"size": "large"}, "status": {"phase": "Ready"}});
    let written = api
        .patch_status("g", &PatchParams::apply("ctl"), &Patch::Apply(&status))
        .await
        .expect("the spec part is ignored, not a conflict");
    assert_eq!(written.data["spec"]["size"], "small");
    assert_eq!(written.data["status"]["phase"], "Ready");
    let entries = written.metadata.managed_fields.unwrap_or_default();
    let ctl = entry(&entries, "ctl", "Apply").expect("ctl's entry");
    assert_eq!(ctl.subresource.as_deref(), Some("status"));
    let owned = fields(ctl);
    assert!(owned["f:status"].get("f:phase").is_some(), "fields {owned}");
    assert!(owned.get("f:spec").is_none(), "fields {owned}");
    widgets.remove(&env).await;
    env.stop().await;
}
