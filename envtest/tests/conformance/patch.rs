//! Item 7: JSON merge patch, JSON patch, strategic merge patch and server-side apply.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::common::{IMAGE, api_error, configmap, deployment, start};
use crate::error_classes::{STRATEGIC, patch as patch_text};
use crate::metadata_rules::warnings;

fn data(cm: &ConfigMap) -> BTreeMap<&str, &str> {
    cm.data
        .iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// A merge patch sets keys, and `null` removes one.
#[tokio::test]
async fn merge_patch_sets_and_removes_keys() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("m", &[], &[("a", "1"), ("b", "2")]))
        .await
        .unwrap();
    let patch = json!({"data": {"b": null, "c": "3"}, "metadata": {"labels": {"patched": "yes"}}});
    let patched = api
        .patch("m", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(data(&patched), BTreeMap::from([("a", "1"), ("c", "3")]));
    assert_eq!(patched.metadata.labels.unwrap()["patched"], "yes");
    env.stop().await;
}

/// JSON patch operations apply in order; a failing `test` is 422 and changes nothing.
#[tokio::test]
async fn json_patch_applies_operations_and_a_failed_test_is_invalid() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("j", &[], &[("a", "1"), ("b", "2")]))
        .await
        .unwrap();
    let operations = json!([
        {"op": "test", "path": "/data/a", "value": "1"},
        {"op": "replace", "path": "/data/a", "value": "10"},
        {"op": "remove", "path": "/data/b"},
        {"op": "add", "path": "/data/c", "value": "3"},
        {"op": "copy", "from": "/data/c", "path": "/data/d"},
    ]);
    let patch: json_patch::Patch = serde_json::from_value(operations).unwrap();
    let patched = api
        .patch("j", &PatchParams::default(), &Patch::<()>::Json(patch))
        .await
        .unwrap();
    assert_eq!(data(&patched), BTreeMap::from([("a", "10"), ("c", "3"), ("d", "3")]));

    let failing = json!([
        {"op": "test", "path": "/data/a", "value": "wrong"},
        {"op": "replace", "path": "/data/a", "value": "never"},
    ]);
    let patch: json_patch::Patch = serde_json::from_value(failing).unwrap();
    let status = api_error(api.patch("j", &PatchParams::default(), &Patch::<()>::Json(patch)).await);
    assert_eq!(status.code, 422);
    assert_eq!(status.reason, "Invalid");
    let current = api.get("j").await.unwrap();
    assert_eq!(
        current.metadata.resource_version, patched.metadata.resource_version,
        "nothing was written"
    );
    env.stop().await;
}

/// A strategic merge patch on a Deployment merges containers by name (the other
/// container stays) and their env by name (other variables stay).
#[tokio::test]
async fn strategic_merge_patch_merges_lists_by_key() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let containers = json!([
        {"name": "app", "image": format!("{IMAGE}-app"), "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
         "ports": [{"containerPort": 8080, "protocol": "TCP"}]},
        {"name": "sidecar", "image": IMAGE},
    ]);
    api.create(&PostParams::default(), &deployment("smp", 0, &containers))
        .await
        .unwrap();
    let patch = json!({"spec": {"template": {"spec": {"containers": [
        {"name": "app", "image": format!("{IMAGE}-app2"), "env": [{"name": "B", "value": "20"}, {"name": "C", "value": "3"}]}
    ]}}}});
    let patched = api
        .patch("smp", &PatchParams::default(), &Patch::Strategic(&patch))
        .await
        .unwrap();
    let containers = patched.spec.template.spec.unwrap().containers;
    let names: Vec<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["app", "sidecar"], "containers merge by name");
    assert_eq!(containers[0].image.as_deref(), Some(format!("{IMAGE}-app2").as_str()));
    assert_eq!(
        containers[1].image.as_deref(),
        Some(IMAGE),
        "the other container keeps its image"
    );
    let env_vars: BTreeMap<&str, &str> = containers[0]
        .env
        .iter()
        .flatten()
        .map(|e| (e.name.as_str(), e.value.as_deref().unwrap_or_default()))
        .collect();
    assert_eq!(
        env_vars,
        BTreeMap::from([("A", "1"), ("B", "20"), ("C", "3")]),
        "env merges by name"
    );
    assert_eq!(
        containers[0].ports.as_ref().map(Vec::len),
        Some(1),
        "ports not in the patch stay"
    );
    assert_eq!(patched.metadata.generation, Some(2));

    // `$patch: delete` removes one element of a merged list.
    let delete = json!({"spec": {"template": {"spec": {"containers": [{"name": "sidecar", "$patch": "delete"}]}}}});
    let patched = api
        .patch("smp", &PatchParams::default(), &Patch::Strategic(&delete))
        .await
        .unwrap();
    let containers = patched.spec.template.spec.unwrap().containers;
    assert_eq!(containers.len(), 1);
    assert_eq!(containers[0].name, "app");
    env.stop().await;
}

/// Where a strategic merge patch puts what it adds, and what it does with directives
/// at the edges: the patch's new items lead the live ones (no `$setElementOrder`
/// given), a merged list of values follows the patch's order with the live-only values
/// placed among them, `$patch: delete` on a live map leaves it empty, a value the
/// object lacks is taken as sent (so a list item without its merge key is validation's
/// to refuse, not the merge's) and the directives other than `$patch` it carries are
/// unknown fields.
#[tokio::test]
async fn strategic_merge_patch_orders_additions_and_takes_new_values_as_sent() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let mut object = serde_json::to_value(deployment("smp-edges", 0, &json!([{"name": "a", "image": IMAGE}]))).unwrap();
    object["metadata"]["finalizers"] = json!(["example.com/d", "example.com/b"]);
    object["spec"]["template"]["spec"]["securityContext"] = json!({"runAsUser": 1});
    api.create(&PostParams::default(), &serde_json::from_value(object).unwrap())
        .await
        .unwrap();
    let edges = json!({
        "metadata": {"finalizers": ["example.com/c", "example.com/b"]},
        "spec": {"template": {"spec": {
            "containers": [{"name": "b", "image": IMAGE}],
            "securityContext": {"$patch": "delete"},
            "affinity": {"$retainKeys": ["nodeAffinity"], "nodeAffinity": {}}
        }}}
    });
    let path = format!("/apis/apps/v1/namespaces/{}/deployments/smp-edges", env.namespace());
    let patched = patch_text(&env.client(), &path, STRATEGIC, &edges.to_string()).await;
    assert_eq!(patched.code, 200, "{}", patched.body);
    assert_eq!(
        patched.body["metadata"]["finalizers"],
        json!(["example.com/c", "example.com/d", "example.com/b"])
    );
    let spec = &patched.body["spec"]["template"]["spec"];
    let names: Vec<&str> = spec["containers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["b", "a"]);
    assert_eq!(spec["securityContext"], json!({}));
    assert_eq!(spec["affinity"], json!({"nodeAffinity": {}}));
    if crate::schema_common::server_minor(&env).await >= 25 {
        assert_eq!(
            warnings(&patched),
            ["unknown field \"spec.template.spec.affinity.$retainKeys\""]
        );
    } else {
        eprintln!("skipping the unknown-field warning: the server predates server-side field validation (1.25)");
    }

    // A list the live object lacks is taken whole: its keyless item meets validation.
    let keyless = json!({"spec": {"template": {"spec": {"containers": [
        {"name": "a", "volumeDevices": [{}]}
    ]}}}});
    let refused = patch_text(&env.client(), &path, STRATEGIC, &keyless.to_string()).await;
    assert_eq!(refused.code, 422, "{}", refused.body);
    let fields: Vec<&str> = refused.body["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["field"].as_str())
        .collect();
    assert!(
        fields.contains(&"spec.template.spec.containers[1].volumeDevices[0].devicePath"),
        "{fields:?}"
    );
    // The finalizers would hold the namespace's deletion on a real cluster.
    let released = patch_text(&env.client(), &path, STRATEGIC, r#"{"metadata":{"finalizers":null}}"#).await;
    assert_eq!(released.code, 200, "{}", released.body);
    env.stop().await;
}

/// Server-side apply creates the object, records its manager, and removes the fields
/// the manager stops applying.
#[tokio::test]
async fn server_side_apply_creates_records_managers_and_removes_dropped_fields() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let alpha = PatchParams::apply("alpha");
    let applied =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa"}, "data": {"a": "1", "b": "2"}});
    let created = api.patch("ssa", &alpha, &Patch::Apply(&applied)).await.unwrap();
    assert_eq!(data(&created), BTreeMap::from([("a", "1"), ("b", "2")]));
    let managers = created.metadata.managed_fields.clone().unwrap_or_default();
    let entry = managers
        .iter()
        .find(|m| m.manager.as_deref() == Some("alpha"))
        .expect("alpha is a manager");
    assert_eq!(entry.operation.as_deref(), Some("Apply"));
    assert_eq!(entry.fields_type.as_deref(), Some("FieldsV1"));
    let fields = entry.fields_v1.as_ref().expect("alpha's fields").0.clone();
    assert!(
        fields["f:data"]["f:a"].is_object() && fields["f:data"]["f:b"].is_object(),
        "fields {fields}"
    );

    let reapplied = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ssa"}, "data": {"a": "1"}});
    let after = api.patch("ssa", &alpha, &Patch::Apply(&reapplied)).await.unwrap();
    assert_eq!(
        data(&after),
        BTreeMap::from([("a", "1")]),
        "b is no longer applied, so it goes"
    );

    // A field someone else set by update is not removed by alpha's apply.
    api.patch(
        "ssa",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"other": "x"}})),
    )
    .await
    .unwrap();
    let after = api.patch("ssa", &alpha, &Patch::Apply(&reapplied)).await.unwrap();
    assert_eq!(data(&after), BTreeMap::from([("a", "1"), ("other", "x")]));

    // Apply needs a field manager.
    let status = api_error(
        api.patch("ssa", &PatchParams::default(), &Patch::Apply(&reapplied))
            .await,
    );
    assert_eq!(status.code, 422, "apply without fieldManager: {}", status.message);
    env.stop().await;
}

/// A second manager applying a field another owns is 409 Conflict; `force` takes the
/// field over.
#[tokio::test]
async fn server_side_apply_conflicts_between_managers_unless_forced() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let object = |value: &str| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "owned"}, "data": {"key": value}});
    api.patch("owned", &PatchParams::apply("alpha"), &Patch::Apply(object("alpha")))
        .await
        .unwrap();
    let status = api_error(
        api.patch("owned", &PatchParams::apply("beta"), &Patch::Apply(object("beta")))
            .await,
    );
    assert_eq!(status.code, 409);
    assert_eq!(status.reason, "Conflict");
    assert!(
        status.message.contains("\"alpha\"") && status.message.contains(".data.key"),
        "message: {}",
        status.message
    );
    assert_eq!(api.get("owned").await.unwrap().data.unwrap()["key"], "alpha");

    // Applying the same value is shared ownership, not a conflict.
    let shared = api
        .patch("owned", &PatchParams::apply("gamma"), &Patch::Apply(object("alpha")))
        .await
        .unwrap();
    assert_eq!(shared.data.unwrap()["key"], "alpha");

    let forced = api
        .patch(
            "owned",
            &PatchParams::apply("beta").force(),
            &Patch::Apply(object("beta")),
        )
        .await
        .unwrap();
    assert_eq!(forced.data.unwrap()["key"], "beta");
    let owners: Vec<String> = forced
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m.fields_v1.as_ref().is_some_and(|f| f.0["f:data"]["f:key"].is_object()))
        .filter_map(|m| m.manager)
        .collect();
    assert_eq!(owners, ["beta"], "force took the field from alpha and gamma");
    env.stop().await;
}

/// Server-side apply merges associative lists by key between managers: each keeps
/// the containers it applies, and a manager dropping its container removes only that.
#[tokio::test]
async fn server_side_apply_merges_associative_lists_between_managers() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let base = json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "shared"},
        "spec": {
            "replicas": 0,
            "selector": {"matchLabels": {"app": "shared"}},
            "template": {"metadata": {"labels": {"app": "shared"}}, "spec": {"containers": [{"name": "app", "image": IMAGE}]}},
        },
    });
    api.patch("shared", &PatchParams::apply("owner"), &Patch::Apply(&base))
        .await
        .unwrap();
    let sidecar = |containers: serde_json::Value| {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "shared"},
            "spec": {"template": {"spec": {"containers": containers}}},
        })
    };
    let with_sidecar = sidecar(json!([{"name": "sidecar", "image": IMAGE}]));
    api.patch("shared", &PatchParams::apply("injector"), &Patch::Apply(&with_sidecar))
        .await
        .unwrap();
    let names = |d: &Deployment| -> Vec<String> {
        let spec = d.spec.template.spec.as_ref().unwrap();
        let mut names: Vec<String> = spec.containers.iter().map(|c| c.name.clone()).collect();
        names.sort();
        names
    };
    let current = api.get("shared").await.unwrap();
    assert_eq!(names(&current), ["app", "sidecar"]);

    // The owner re-applying its own configuration leaves the injector's container.
    let current = api
        .patch("shared", &PatchParams::apply("owner"), &Patch::Apply(&base))
        .await
        .unwrap();
    assert_eq!(names(&current), ["app", "sidecar"]);

    // The injector applying no containers removes only its own.
    let without = sidecar(json!([]));
    let current = api
        .patch("shared", &PatchParams::apply("injector"), &Patch::Apply(&without))
        .await
        .unwrap();
    assert_eq!(names(&current), ["app"]);
    env.stop().await;
}

/// A patch names the object of its URL, as the patch handler checks it before anything
/// else sees the object: a rename (by any kind of patch) or a move to another namespace
/// is a 400 that stores nothing, and a patch that drops the namespace keeps the URL's.
#[tokio::test]
async fn a_patch_never_renames_or_moves_the_object() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("named", &[], &[("a", "1")]))
        .await
        .unwrap();
    let renames = [
        Patch::Merge(json!({"metadata": {"name": "renamed"}})),
        Patch::Json(
            serde_json::from_value(json!([{"op": "replace", "path": "/metadata/name", "value": "renamed"}])).unwrap(),
        ),
        Patch::Strategic(json!({"metadata": {"name": "renamed"}})),
    ];
    for rename in &renames {
        let status = api_error(api.patch("named", &PatchParams::default(), rename).await);
        assert_eq!(
            (status.code, status.reason.as_str(), status.message.as_str()),
            (
                400,
                "BadRequest",
                "the name of the object (renamed) does not match the name on the URL (named)"
            )
        );
    }
    let moved = json!({"metadata": {"namespace": "elsewhere"}});
    let status = api_error(api.patch("named", &PatchParams::default(), &Patch::Merge(&moved)).await);
    // Older servers (1.19 among them) checked the namespace only in `checkName`, in
    // its own words; `EnsureObjectNamespaceMatchesRequestNamespace` came with 1.22.
    let expected = if crate::schema_common::server_minor(&env).await < 22 {
        format!(
            "the namespace of the object (elsewhere) does not match the namespace on the request ({})",
            env.namespace()
        )
    } else {
        "the namespace of the provided object does not match the namespace sent on the request".to_owned()
    };
    assert_eq!((status.code, status.message), (400, expected));
    let dropped = json!({"metadata": {"namespace": null}, "data": {"b": "2"}});
    let patched = api
        .patch("named", &PatchParams::default(), &Patch::Merge(&dropped))
        .await
        .expect("a patch that drops the namespace is the URL's namespace's");
    assert_eq!(patched.metadata.namespace.as_deref(), Some(env.namespace()));
    assert_eq!(data(&patched), BTreeMap::from([("a", "1"), ("b", "2")]));
    assert!(api.get_opt("renamed").await.unwrap().is_none(), "nothing was renamed");
    env.stop().await;
}

/// A JSON patch whose result does not decode is refused quoting the patched object as
/// json-patch wrote it: the top level (which the patch reached) with sorted keys, the
/// untouched metadata in `ObjectMeta`'s field order.
#[tokio::test]
async fn an_undecodable_patch_result_is_quoted_as_json_patch_writes_it() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("quoted", &[], &[("a", "1")]))
        .await
        .expect("created");
    let body = serde_json::to_vec(&json!([{"op": "replace", "path": "/data", "value": "text"}])).expect("JSON");
    let request = http::Request::builder()
        .method(http::Method::PATCH)
        .uri(format!("/api/v1/namespaces/{}/configmaps/quoted", env.namespace()))
        .header(http::header::CONTENT_TYPE, "application/json-patch+json")
        .body(kube::client::Body::from(body))
        .expect("a valid request");
    let answer = crate::raw::send_request(&env.client(), request).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or_default();
    let quoted = format!(
        r#"{{\"apiVersion\":\"v1\",\"data\":\"text\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"quoted\",\"namespace\":\"{}\",\"uid\":"#,
        env.namespace()
    );
    assert!(message.contains(&quoted), "{quoted} not in {message}");
    env.stop().await;
}

/// A webhook configuration's webhooks merge by name in a strategic merge patch (as
/// its Go tags declare), and an item without the name is the patch code's 500.
#[tokio::test]
async fn strategic_merge_patch_merges_webhooks_by_name() {
    let env = start().await;
    let client = env.client();
    let name = format!("{}-hooks", env.namespace());
    let path = format!("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/{name}");
    let hook = |name: &str| {
        json!({"name": name, "admissionReviewVersions": ["v1"], "sideEffects": "None",
               "clientConfig": {"url": "https://example.com/validate"},
               "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["configmaps"]}],
               "namespaceSelector": {"matchLabels": {"never": "true"}}})
    };
    let body = json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
                      "metadata": {"name": name}, "webhooks": [hook("a.example.com"), hook("b.example.com")]});
    let created = crate::raw::send(
        &client,
        http::Method::POST,
        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
        Some(&body),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    let strategic = "application/strategic-merge-patch+json";
    let merged = crate::write_options::send_typed(
        &client,
        http::Method::PATCH,
        &path,
        strategic,
        &json!({"webhooks": [{"name": "b.example.com", "timeoutSeconds": 5}]}),
    )
    .await;
    assert_eq!(merged.code, 200, "{}", merged.body);
    let webhooks = merged.body["webhooks"].as_array().expect("webhooks");
    assert_eq!(webhooks.len(), 2, "{webhooks:?}");
    assert_eq!(webhooks[1]["timeoutSeconds"], 5);
    let keyless = crate::write_options::send_typed(
        &client,
        http::Method::PATCH,
        &path,
        strategic,
        &json!({"webhooks": [{}]}),
    )
    .await;
    assert_eq!(keyless.code, 500, "{}", keyless.body);
    assert_eq!(
        keyless.body["message"],
        "map: map[] does not contain declared merge key: name"
    );
    crate::raw::send(&client, http::Method::DELETE, &path, None).await;
    env.stop().await;
}

/// A strategic merge patch reaching into a controller revision's `data` (a
/// `runtime.RawExtension`) is the merge's plain error for a map or list it would merge
/// (a 500), as the merge finds no struct field to look it up in.
#[tokio::test]
async fn strategic_merge_patch_cannot_look_into_a_raw_extension() {
    let env = start().await;
    let path = format!("/apis/apps/v1/namespaces/{}/controllerrevisions", env.namespace());
    let revision = serde_json::json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "raw"},
        "data": {"spec": {"a": 1}}, "revision": 1});
    let created = crate::raw::send(&env.client(), http::Method::POST, &path, Some(&revision)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let answer = patch_text(
        &env.client(),
        &format!("{path}/raw"),
        STRATEGIC,
        r#"{"data":{"spec":{"a":2}}}"#,
    )
    .await;
    assert_eq!(answer.code, 500, "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "unable to find api field in struct RawExtension for the json field \"spec\""
    );
    env.stop().await;
}

/// kube's JSON patch library reads a key an object lacks as `null`: a `replace` of it
/// adds it, and a `test` of it against `null` passes (a missing parent still fails).
#[tokio::test]
async fn json_patch_replaces_and_tests_a_missing_key_as_null() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("lenient", &[], &[("a", "1")]))
        .await
        .unwrap();
    let path = format!("/api/v1/namespaces/{}/configmaps/lenient", env.namespace());
    let json_patch = "application/json-patch+json";
    let replaced = patch_text(
        &env.client(),
        &path,
        json_patch,
        r#"[{"op":"test","path":"/data/b","value":null},{"op":"replace","path":"/data/b","value":"2"}]"#,
    )
    .await;
    assert_eq!(replaced.code, 200, "{}", replaced.body);
    assert_eq!(replaced.body["data"], serde_json::json!({"a": "1", "b": "2"}));
    for refused in [
        r#"[{"op":"test","path":"/data/c","value":"x"}]"#,
        r#"[{"op":"replace","path":"/missing/key","value":"x"}]"#,
    ] {
        let answer = patch_text(&env.client(), &path, json_patch, refused).await;
        assert_eq!(answer.code, 422, "{refused}: {}", answer.body);
    }
    env.stop().await;
}
