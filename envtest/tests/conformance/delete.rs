//! Item 8: finalizers, propagation policies and garbage collection through owner
//! references, namespace deletion and CRD deletion.

use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::common::{
    CustomType, configmap, eventually, from_json, is_gone, skip_without_controllers, start, wait_gone,
};

const HOLD: &str = "conformance.wheelhouse.rs/hold";

/// A dependent of `owner` (a `ConfigMap`) that blocks its owner's foreground deletion.
fn dependent(name: &str, owner: &ConfigMap, finalizers: &[&str]) -> ConfigMap {
    from_json(json!({
        "metadata": {
            "name": name,
            "finalizers": finalizers,
            "ownerReferences": [{
                "apiVersion": "v1", "kind": "ConfigMap", "name": owner.metadata.name,
                "uid": owner.metadata.uid, "blockOwnerDeletion": true,
            }],
        },
    }))
}

async fn release(api: &Api<ConfigMap>, name: &str) {
    api.patch(
        name,
        &PatchParams::default(),
        &Patch::Merge(json!({"metadata": {"finalizers": null}})),
    )
    .await
    .unwrap();
}

/// A finalizer keeps a deleted object, with `deletionTimestamp`, until it is removed.
#[tokio::test]
async fn finalizers_keep_the_object_until_removed() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let held: ConfigMap = from_json(json!({"metadata": {"name": "held", "finalizers": [HOLD]}}));
    api.create(&PostParams::default(), &held).await.unwrap();
    let deleted = api.delete("held", &DeleteParams::default()).await.unwrap();
    let returned = deleted.left().expect("a held object is returned, not a Status");
    assert!(returned.metadata.deletion_timestamp.is_some());
    let current = api
        .get("held")
        .await
        .expect("the object stays while its finalizer does");
    assert!(current.metadata.deletion_timestamp.is_some());
    assert_eq!(
        current.metadata.finalizers.as_deref(),
        Some([HOLD.to_owned()].as_slice())
    );

    // A second delete changes nothing; adding a finalizer is forbidden now.
    api.delete("held", &DeleteParams::default()).await.unwrap();
    let add = json!({"metadata": {"finalizers": [HOLD, "conformance.wheelhouse.rs/late"]}});
    let status = crate::common::api_error(api.patch("held", &PatchParams::default(), &Patch::Merge(&add)).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (422, "Invalid"),
        "{}",
        status.message
    );

    release(&api, "held").await;
    wait_gone(&api, "held").await;
    env.stop().await;
}

/// Background deletion (the default): the owner goes at once, the garbage collector
/// then deletes its dependents.
#[tokio::test]
async fn background_deletion_collects_dependents() {
    let env = start().await;
    if skip_without_controllers(&env, "garbage collection of dependents") {
        env.stop().await;
        return;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let owner = api
        .create(&PostParams::default(), &configmap("owner", &[], &[]))
        .await
        .unwrap();
    for name in ["dep-1", "dep-2"] {
        api.create(&PostParams::default(), &dependent(name, &owner, &[]))
            .await
            .unwrap();
    }
    api.delete("owner", &DeleteParams::background()).await.unwrap();
    wait_gone(&api, "owner").await;
    wait_gone(&api, "dep-1").await;
    wait_gone(&api, "dep-2").await;
    env.stop().await;
}

/// Foreground deletion: the owner stays (with the `foregroundDeletion` finalizer)
/// until its blocking dependents are gone.
#[tokio::test]
async fn foreground_deletion_keeps_the_owner_until_dependents_are_gone() {
    let env = start().await;
    if skip_without_controllers(&env, "foreground deletion") {
        env.stop().await;
        return;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let owner = api
        .create(&PostParams::default(), &configmap("owner", &[], &[]))
        .await
        .unwrap();
    api.create(&PostParams::default(), &dependent("dep", &owner, &[HOLD]))
        .await
        .unwrap();
    api.delete("owner", &DeleteParams::foreground()).await.unwrap();
    let owner_now = api
        .get("owner")
        .await
        .expect("the owner stays during foreground deletion");
    assert!(owner_now.metadata.deletion_timestamp.is_some());
    assert!(
        owner_now
            .metadata
            .finalizers
            .iter()
            .flatten()
            .any(|f| f == "foregroundDeletion")
    );
    // The collector deletes the dependent, which its own finalizer holds.
    eventually("the dependent to be marked for deletion", || async {
        api.get("dep").await.unwrap().metadata.deletion_timestamp.map(|_| ())
    })
    .await;
    assert!(!is_gone(&api, "owner").await, "the owner waits for its dependent");
    release(&api, "dep").await;
    wait_gone(&api, "dep").await;
    wait_gone(&api, "owner").await;
    env.stop().await;
}

/// Orphan deletion: the owner goes, dependents stay and lose the owner reference.
#[tokio::test]
async fn orphan_deletion_keeps_dependents_without_the_owner_reference() {
    let env = start().await;
    if skip_without_controllers(&env, "orphaning dependents") {
        env.stop().await;
        return;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let owner = api
        .create(&PostParams::default(), &configmap("owner", &[], &[]))
        .await
        .unwrap();
    api.create(&PostParams::default(), &dependent("dep", &owner, &[]))
        .await
        .unwrap();
    api.delete("owner", &DeleteParams::orphan()).await.unwrap();
    wait_gone(&api, "owner").await;
    let orphan = api.get("dep").await.expect("the dependent stays");
    let owned_by = orphan.metadata.owner_references.unwrap_or_default();
    assert!(
        owned_by.iter().all(|r| r.uid != owner.metadata.uid.clone().unwrap()),
        "owner reference removed: {owned_by:?}"
    );
    assert!(orphan.metadata.deletion_timestamp.is_none());
    env.stop().await;
}

/// Deleting a namespace deletes everything in it, then the namespace.
#[tokio::test]
async fn namespace_deletion_removes_its_contents() {
    let env = start().await;
    if skip_without_controllers(&env, "namespace deletion") {
        env.stop().await;
        return;
    }
    let namespaces: Api<Namespace> = Api::all(env.client());
    let doomed: Namespace = from_json(json!({"metadata": {"generateName": "conformance-doomed-"}}));
    let doomed = namespaces
        .create(&PostParams::default(), &doomed)
        .await
        .unwrap()
        .metadata
        .name
        .unwrap();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &doomed);
    for name in ["one", "two"] {
        api.create(&PostParams::default(), &configmap(name, &[("suite", "doomed")], &[]))
            .await
            .unwrap();
    }
    namespaces.delete(&doomed, &DeleteParams::default()).await.unwrap();
    let terminating = namespaces.get_opt(&doomed).await.unwrap();
    if let Some(namespace) = terminating {
        assert_eq!(namespace.status.and_then(|s| s.phase).as_deref(), Some("Terminating"));
        // A terminating namespace takes no new objects (403 Forbidden). The namespace
        // controller races this request: once it has removed the namespace, the answer
        // is 404 NotFound, and then the namespace must be gone.
        if let Err(kube::Error::Api(status)) = api.create(&PostParams::default(), &configmap("late", &[], &[])).await {
            if status.code == 404 {
                assert!(
                    namespaces.get_opt(&doomed).await.unwrap().is_none(),
                    "{}",
                    status.message
                );
            } else {
                assert_eq!(status.code, 403, "{}", status.message);
            }
        }
    }
    wait_gone(&namespaces, &doomed).await;
    let everywhere: Api<ConfigMap> = Api::all(env.client());
    let left = everywhere
        .list(&ListParams::default().fields(&format!("metadata.namespace={doomed}")))
        .await
        .unwrap();
    assert!(
        left.items.is_empty(),
        "nothing is left of the namespace: {:?}",
        left.items
    );
    env.stop().await;
}

/// Deleting a CRD deletes its objects: installed again, the type starts empty.
#[tokio::test]
async fn crd_deletion_removes_its_objects() {
    let env = start().await;
    let widgets = CustomType::new(&env, "Widget", "widgets", true);
    widgets.install(&env).await;
    let api = widgets.namespaced(&env);
    for name in ["first", "second"] {
        api.create(
            &PostParams::default(),
            &widgets.object(name, &json!({"spec": {"replicas": 1}})),
        )
        .await
        .unwrap();
    }
    widgets.remove(&env).await;
    let crds: Api<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition> =
        Api::all(env.client());
    wait_gone(&crds, &widgets.name()).await;
    widgets.install(&env).await;
    let left = api.list(&ListParams::default()).await.unwrap();
    assert!(left.items.is_empty(), "the objects went with the CRD: {:?}", left.items);
    widgets.remove(&env).await;
    env.stop().await;
}
