//! Items 2, 5 and 6: resourceVersions, create and update (PUT), with the status
//! codes and Status bodies of the real server.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::common::{CustomType, IMAGE, api_error, configmap, deployment, from_json, revision, start};

/// Every write gets a resourceVersion above every earlier one, reads return the
/// version written, and a list reports a revision no older than the writes before it.
#[tokio::test]
async fn resource_versions_strictly_increase_and_lists_report_their_revision() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let mut last = 0;
    let mut check = |what: &str, version: u64| {
        assert!(
            version > last,
            "{what}: resourceVersion {version} is above the previous {last}"
        );
        last = version;
    };
    let a = api
        .create(&PostParams::default(), &configmap("a", &[], &[("n", "1")]))
        .await
        .unwrap();
    check("create a", revision(&a.metadata));
    let b = api
        .create(&PostParams::default(), &configmap("b", &[], &[("n", "1")]))
        .await
        .unwrap();
    check("create b", revision(&b.metadata));
    let patch = Patch::Merge(json!({"data": {"n": "2"}}));
    let a2 = api.patch("a", &PatchParams::default(), &patch).await.unwrap();
    check("patch a", revision(&a2.metadata));
    let mut b2 = b.clone();
    b2.data = Some([("n".to_owned(), "3".to_owned())].into());
    let b2 = api.replace("b", &PostParams::default(), &b2).await.unwrap();
    check("replace b", revision(&b2.metadata));

    let fetched = api.get("a").await.unwrap();
    assert_eq!(
        fetched.metadata.resource_version, a2.metadata.resource_version,
        "get returns the stored version"
    );
    let listed = api.list(&ListParams::default()).await.unwrap();
    let list_revision: u64 = listed.metadata.resource_version.as_deref().unwrap().parse().unwrap();
    assert!(
        list_revision >= last,
        "the list's revision {list_revision} includes the last write {last}"
    );
    for item in &listed.items {
        assert!(
            revision(&item.metadata) <= list_revision,
            "no item is newer than the list"
        );
    }
    env.stop().await;
}

/// A second create of one name is 409 `AlreadyExists` with the real server's details.
#[tokio::test]
async fn create_of_an_existing_name_is_already_exists() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("taken", &[], &[]))
        .await
        .unwrap();
    let status = api_error(api.create(&PostParams::default(), &configmap("taken", &[], &[])).await);
    assert_eq!(status.code, 409);
    assert_eq!(status.reason, "AlreadyExists");
    assert_eq!(status.message, "configmaps \"taken\" already exists");
    let details = status.details.expect("AlreadyExists has details");
    assert_eq!((details.name.as_str(), details.kind.as_str()), ("taken", "configmaps"));
    env.stop().await;
}

/// `generateName` gets a five-character random suffix; two creates get two names.
#[tokio::test]
async fn generate_name_appends_a_random_suffix() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let template: ConfigMap = from_json(json!({"metadata": {"generateName": "gen-"}}));
    let first = api.create(&PostParams::default(), &template).await.unwrap();
    let second = api.create(&PostParams::default(), &template).await.unwrap();
    let (first, second) = (first.metadata.name.unwrap(), second.metadata.name.unwrap());
    for name in [&first, &second] {
        assert!(
            name.starts_with("gen-") && name.len() == "gen-".len() + 5,
            "generated name {name}"
        );
    }
    assert_ne!(first, second);
    assert!(api.get(&first).await.is_ok());
    env.stop().await;
}

/// The server sets uid, creationTimestamp, resourceVersion and generation 1.
#[tokio::test]
async fn create_sets_uid_timestamp_and_generation() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let mut object = deployment("web", 0, &json!([{"name": "app", "image": IMAGE}]));
    object.metadata.uid = Some("chosen-by-the-client".into());
    object.metadata.generation = Some(7);
    let created = api.create(&PostParams::default(), &object).await.unwrap();
    let uid = created.metadata.uid.clone().unwrap();
    assert_ne!(uid, "chosen-by-the-client", "the server chooses the uid");
    assert_eq!(uid.len(), 36, "uid {uid} is a UUID");
    assert!(created.metadata.creation_timestamp.is_some());
    assert_eq!(created.metadata.generation, Some(1));
    assert!(created.metadata.resource_version.is_some());
    assert_eq!(created.metadata.namespace.as_deref(), Some(env.namespace()));
    env.stop().await;
}

/// A create in a namespace that does not exist is 404 `NotFound` for the namespace.
#[tokio::test]
async fn create_in_a_missing_namespace_is_not_found() {
    let env = start().await;
    let missing = format!("{}-missing", env.namespace());
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &missing);
    let status = api_error(api.create(&PostParams::default(), &configmap("orphan", &[], &[])).await);
    assert_eq!(status.code, 404);
    assert_eq!(status.reason, "NotFound");
    assert_eq!(status.message, format!("namespaces \"{missing}\" not found"));
    env.stop().await;
}

/// An object without a name is 422 Invalid, with a cause naming `metadata.name`.
#[tokio::test]
async fn create_without_a_name_is_invalid() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let status = api_error(api.create(&PostParams::default(), &configmap("", &[], &[])).await);
    assert_eq!(status.code, 422);
    assert_eq!(status.reason, "Invalid");
    assert!(
        status.message.contains("metadata.name: Required value"),
        "message: {}",
        status.message
    );
    let details = status.details.expect("Invalid has details");
    assert_eq!(details.kind, "ConfigMap");
    assert!(
        details
            .causes
            .iter()
            .any(|c| c.field == "metadata.name" && c.reason == "FieldValueRequired"),
        "causes {:?}",
        details.causes
    );
    let status = api_error(
        api.create(&PostParams::default(), &configmap("Not_A_Name", &[], &[]))
            .await,
    );
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
    let details = status.details.expect("Invalid has details");
    assert!(
        details
            .causes
            .iter()
            .any(|c| c.field == "metadata.name" && c.reason == "FieldValueInvalid")
    );
    env.stop().await;
}

/// A body that is not JSON is 400 `BadRequest` with a Status, never a crash.
#[tokio::test]
async fn malformed_json_is_bad_request() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let request = http::Request::post(&path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(b"{\"metadata\": {\"name\": ".to_vec())
        .unwrap();
    let status = api_error(env.client().request_text(request).await);
    assert_eq!(status.code, 400);
    assert_eq!(status.reason, "BadRequest");
    // The server is still serving.
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    assert!(api.list(&ListParams::default()).await.is_ok());
    env.stop().await;
}

/// A PUT carrying an old resourceVersion is 409 Conflict and changes nothing.
#[tokio::test]
async fn update_with_a_stale_resource_version_conflicts() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let original = api
        .create(&PostParams::default(), &configmap("shared", &[], &[("v", "1")]))
        .await
        .unwrap();
    let mut first = original.clone();
    first.data = Some([("v".to_owned(), "2".to_owned())].into());
    api.replace("shared", &PostParams::default(), &first).await.unwrap();
    let mut stale = original.clone();
    stale.data = Some([("v".to_owned(), "3".to_owned())].into());
    let status = api_error(api.replace("shared", &PostParams::default(), &stale).await);
    assert_eq!(status.code, 409);
    assert_eq!(status.reason, "Conflict");
    assert!(
        status.message.contains("the object has been modified"),
        "message: {}",
        status.message
    );
    assert_eq!(api.get("shared").await.unwrap().data.unwrap()["v"], "2");
    env.stop().await;
}

/// `generation` counts spec changes only: metadata and status writes leave it.
#[tokio::test]
async fn generation_increments_only_on_spec_change() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let created = api
        .create(
            &PostParams::default(),
            &deployment("web", 0, &json!([{"name": "app", "image": IMAGE}])),
        )
        .await
        .unwrap();
    assert_eq!(created.metadata.generation, Some(1));
    let labelled = api
        .patch(
            "web",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"labels": {"tier": "front"}}})),
        )
        .await
        .unwrap();
    assert_eq!(labelled.metadata.generation, Some(1), "a label is not spec");
    // Read-modify-write, retried: on a real cluster the deployment controller writes too.
    let replaced = loop {
        let mut current = api.get("web").await.unwrap();
        current.spec.replicas = Some(0);
        current.spec.min_ready_seconds = Some(5);
        match api.replace("web", &PostParams::default(), &current).await {
            Ok(replaced) => break replaced,
            Err(kube::Error::Api(status)) if status.code == 409 => {}
            Err(error) => panic!("replace failed: {error}"),
        }
    };
    assert_eq!(replaced.metadata.generation, Some(2), "a spec change bumps generation");
    env.stop().await;
}

/// Without a status subresource a custom resource's status is one more field: a
/// change of it bumps `generation` as a spec change does (so `observedGeneration ==
/// generation` never settles for an operator that writes status there); metadata
/// changes still do not.
#[tokio::test]
async fn without_a_status_subresource_a_status_change_bumps_generation() {
    let env = start().await;
    let mut plain = CustomType::new(&env, "Plain", "plains", true);
    plain.crd.spec.versions[0].subresources = None;
    plain.install(&env).await;
    let api = plain.namespaced(&env);
    let created = api
        .create(
            &PostParams::default(),
            &plain.object("p", &json!({"spec": {"replicas": 1}})),
        )
        .await
        .unwrap();
    assert_eq!(created.metadata.generation, Some(1));
    let labelled = api
        .patch(
            "p",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"labels": {"tier": "a"}}})),
        )
        .await
        .unwrap();
    assert_eq!(
        labelled.metadata.generation,
        Some(1),
        "a label is not a change of content"
    );
    let with_status = api
        .patch(
            "p",
            &PatchParams::default(),
            &Patch::Merge(json!({"status": {"observedGeneration": 1}})),
        )
        .await
        .unwrap();
    assert_eq!(with_status.data["status"]["observedGeneration"], 1);
    assert_eq!(
        with_status.metadata.generation,
        Some(2),
        "a status change bumps generation"
    );
    plain.remove(&env).await;
    env.stop().await;
}

/// With a status subresource, the main endpoint ignores status and `/status`
/// changes nothing but status.
#[tokio::test]
async fn status_subresource_separates_spec_and_status() {
    let env = start().await;
    let widgets = CustomType::new(&env, "Widget", "widgets", true);
    widgets.install(&env).await;
    let api = widgets.namespaced(&env);
    let body = json!({"spec": {"replicas": 1}, "status": {"phase": "from-create"}});
    let created = api
        .create(&PostParams::default(), &widgets.object("w", &body))
        .await
        .unwrap();
    assert!(created.data.get("status").is_none(), "create ignores status");

    // `/status` writes status and ignores the spec it is sent.
    let mut desired = created.clone();
    desired.data["spec"]["replicas"] = json!(9);
    desired.data["status"] = json!({"phase": "Ready"});
    let after_status = api.replace_status("w", &PostParams::default(), &desired).await.unwrap();
    assert_eq!(after_status.data["status"]["phase"], "Ready");
    assert_eq!(after_status.data["spec"]["replicas"], 1, "/status ignores spec");
    assert_eq!(
        after_status.metadata.generation,
        Some(1),
        "a status write does not bump generation"
    );

    // The main endpoint writes spec and ignores the status it is sent.
    let mut desired = after_status.clone();
    desired.data["spec"]["replicas"] = json!(3);
    desired.data["status"] = json!({"phase": "from-main-endpoint"});
    let after_main = api.replace("w", &PostParams::default(), &desired).await.unwrap();
    assert_eq!(after_main.data["spec"]["replicas"], 3);
    assert_eq!(
        after_main.data["status"]["phase"], "Ready",
        "the main endpoint ignores status"
    );
    assert_eq!(after_main.metadata.generation, Some(2));

    let patched = api
        .patch_status(
            "w",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 7}, "status": {"phase": "Patched"}})),
        )
        .await
        .unwrap();
    assert_eq!(patched.data["status"]["phase"], "Patched");
    assert_eq!(patched.data["spec"]["replicas"], 3, "a /status patch ignores spec");
    widgets.remove(&env).await;
    env.stop().await;
}

/// A PUT or patch that changes nothing writes nothing: the resourceVersion stays.
#[tokio::test]
async fn no_op_update_keeps_the_resource_version() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let created = api
        .create(
            &PostParams::default(),
            &configmap("still", &[("a", "b")], &[("k", "v")]),
        )
        .await
        .unwrap();
    let replaced = api.replace("still", &PostParams::default(), &created).await.unwrap();
    assert_eq!(
        replaced.metadata.resource_version, created.metadata.resource_version,
        "a no-op PUT"
    );
    let patched = api
        .patch(
            "still",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"k": "v"}})),
        )
        .await
        .unwrap();
    assert_eq!(
        patched.metadata.resource_version, created.metadata.resource_version,
        "a no-op patch"
    );
    assert_eq!(
        api.get("still").await.unwrap().metadata.resource_version,
        created.metadata.resource_version
    );
    env.stop().await;
}

/// A built-in object with a field of the wrong type cannot be decoded: 400
/// `BadRequest`, as "cannot be handled as a `ConfigMap`".
#[tokio::test]
async fn wrongly_typed_fields_are_bad_requests() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "typed"}, "data": {"count": 5}});
    let request = http::Request::post(&path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(serde_json::to_vec(&body).unwrap())
        .unwrap();
    let status = api_error(env.client().request_text(request).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (400, "BadRequest"),
        "{}",
        status.message
    );
    assert!(
        status.message.contains("cannot be handled as a ConfigMap"),
        "message: {}",
        status.message
    );
    assert!(configmaps.get_opt("typed").await.unwrap().is_none());
    env.stop().await;
}

/// A built-in object that decodes but breaks the type's validation is 422 `Invalid`
/// with causes naming the fields: a Deployment whose selector does not match its
/// template, a Pod without containers.
#[tokio::test]
async fn objects_breaking_validation_are_invalid() {
    let env = start().await;
    let deployments: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let mut mismatched = deployment("mismatched", 1, &json!([{"name": "app", "image": IMAGE}]));
    mismatched.spec.selector = from_json(json!({"matchLabels": {"app": "other"}}));
    let status = api_error(deployments.create(&PostParams::default(), &mismatched).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (422, "Invalid"),
        "{}",
        status.message
    );
    let details = status.details.expect("Invalid has details");
    assert_eq!((details.kind.as_str(), details.group.as_str()), ("Deployment", "apps"));
    assert!(
        details
            .causes
            .iter()
            .any(|c| c.field == "spec.template.metadata.labels"),
        "causes {:?}",
        details.causes
    );

    let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(env.client(), env.namespace());
    let empty = from_json(json!({"metadata": {"name": "empty"}, "spec": {"containers": []}}));
    let status = api_error(pods.create(&PostParams::default(), &empty).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (422, "Invalid"),
        "{}",
        status.message
    );
    let causes = status.details.expect("Invalid has details").causes;
    assert!(
        causes
            .iter()
            .any(|c| c.field == "spec.containers" && c.reason == "FieldValueRequired"),
        "causes {causes:?}"
    );
    env.stop().await;
}

/// A PUT without resourceVersion is an unconditional update for built-in types, but
/// is refused for custom resources (422), as the real server does.
#[tokio::test]
async fn update_without_a_resource_version() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    configmaps
        .create(&PostParams::default(), &configmap("free", &[], &[("v", "1")]))
        .await
        .unwrap();
    let replaced = configmaps
        .replace("free", &PostParams::default(), &configmap("free", &[], &[("v", "2")]))
        .await
        .expect("a ConfigMap PUT without resourceVersion is unconditional");
    assert_eq!(replaced.data.unwrap()["v"], "2");

    let widgets = CustomType::new(&env, "Widget", "widgets", true);
    widgets.install(&env).await;
    let api = widgets.namespaced(&env);
    let object = widgets.object("w", &json!({"spec": {"replicas": 1}}));
    api.create(&PostParams::default(), &object).await.unwrap();
    let status = api_error(api.replace("w", &PostParams::default(), &object).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (422, "Invalid"),
        "{}",
        status.message
    );
    assert!(
        status.message.contains("metadata.resourceVersion"),
        "message: {}",
        status.message
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// A `fieldManager` longer than 128 bytes is refused before anything is written, as
/// an invalid `CreateOptions` (1.19 words the limit "must have at most 128 bytes").
/// kube's client refuses to send one, so the request is written by hand.
#[tokio::test]
async fn a_field_manager_over_128_bytes_is_invalid() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let path = format!(
        "/api/v1/namespaces/{}/configmaps?fieldManager={}",
        env.namespace(),
        "m".repeat(129)
    );
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "managed"}});
    let answer = crate::raw::send(&env.client(), http::Method::POST, &path, Some(&body)).await;
    assert_eq!((answer.code, &answer.body["reason"]), (422, &json!("Invalid")));
    let message = answer.body["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: "),
        "{message}"
    );
    assert!(api.get_opt("managed").await.unwrap().is_none());
    env.stop().await;
}
