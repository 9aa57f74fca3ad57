//! Bodies decoded as kube-apiserver's Go decoder decodes them: a null item of a list
//! is its type's zero value, a time that does not parse is refused in `time.Parse`'s
//! words, and a patched object quoted in an error is the JSON json-patch wrote (Go's
//! field order where the patch did not reach, sorted keys where it did).

use serde_json::json;

use crate::common::start;
use crate::error_classes::{MERGE, patch};
use crate::raw::send;
use crate::schema_common::server_minor;

/// The decoder's 400 for a `kind` body: `why` after the create handler's preamble, or
/// (1.19, whose json-iterator wrapped it in its own context) somewhere in the message.
fn assert_refused_as_it_decodes(answer: &crate::raw::Answer, kind: &str, why: &str, bare: bool) {
    assert_eq!(answer.code, 400, "{why}: {}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or_default();
    if bare {
        assert_eq!(
            message,
            format!("{kind} in version \"v1\" cannot be handled as a {kind}: {why}")
        );
    } else {
        assert!(message.contains(why), "{why}: {message}");
    }
}

/// `verbs: ["get", null]` is stored as `["get", ""]`: Go decodes a null list item as
/// the zero value of the item's type.
#[tokio::test]
async fn a_null_list_item_is_stored_as_its_zero_value() {
    let env = start().await;
    let client = env.client();
    let path = format!(
        "/apis/rbac.authorization.k8s.io/v1/namespaces/{}/roles",
        env.namespace()
    );
    let body = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "nulls"},
        "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", null]}]});
    let created = send(&client, http::Method::POST, &path, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["rules"][0]["verbs"], json!(["get", ""]));
    env.stop().await;
}

/// A time that does not parse as RFC 3339 is refused with `time.Parse`'s error, which
/// names the element of the layout where it stopped (1.19's decoder, json-iterator,
/// wrapped it in its own context).
#[tokio::test]
async fn a_time_that_does_not_parse_is_refused_in_go_s_words() {
    let env = start().await;
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/events", env.namespace());
    let bare = server_minor(&env).await >= 20;
    for (time, why) in [
        (
            "",
            r#"parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006""#,
        ),
        (
            "2024-01-02 03:04:05Z",
            r#"parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T""#,
        ),
        (
            "2024-13-02T03:04:05Z",
            r#"parsing time "2024-13-02T03:04:05Z": month out of range"#,
        ),
        (
            "2024-01-02T03:04:05Zx",
            r#"parsing time "2024-01-02T03:04:05Zx": extra text: "x""#,
        ),
    ] {
        let body = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "timed"}, "firstTimestamp": time});
        let answer = send(&client, http::Method::POST, &path, Some(&body)).await;
        assert_refused_as_it_decodes(&answer, "Event", why, bare);
    }
    env.stop().await;
}

/// A merge patch whose result does not decode quotes the patched JSON as json-patch
/// wrote it: what the patch did not reach keeps the stored object's Go field order
/// (metadata's `name` first, a probe's handler before its timings), the objects it
/// merged into and the values it put in whole have sorted keys.
#[tokio::test]
async fn a_quoted_patched_object_is_in_go_order_where_the_patch_did_not_reach() {
    let env = start().await;
    let client = env.client();
    let collection = format!("/apis/apps/v1/namespaces/{}/deployments", env.namespace());
    let body = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "quoted"},
        "spec": {"selector": {"matchLabels": {"app": "q"}}, "template": {"metadata": {"labels": {"app": "q"}},
            "spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10",
                "livenessProbe": {"tcpSocket": {"port": 8080}}}]}}}});
    let created = send(&client, http::Method::POST, &collection, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let path = format!("{collection}/quoted");

    let answer = patch(&client, &path, MERGE, r#"{"spec":{"paused":"yes"}}"#).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or_default();
    for expected in [
        r#"\"metadata\":{\"name\":\"quoted\",\"namespace\":"#,
        r#"\"livenessProbe\":{\"tcpSocket\":{\"port\":8080},\"timeoutSeconds\":1,"#,
        r#"\"spec\":{\"paused\":\"yes\",\"progressDeadlineSeconds\":600,\"replicas\":1,"#,
    ] {
        assert!(message.contains(expected), "{expected} in {message}");
    }

    let answer = patch(
        &client,
        &path,
        MERGE,
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"app","image":42}]}}}}"#,
    )
    .await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(r#"\"containers\":[{\"image\":42,\"name\":\"app\"}]"#),
        "{message}"
    );
    env.stop().await;
}

/// A merge patch's list replaces the stored one with the null keys of its objects
/// dropped (json-patch prunes what it puts where there was no object), so a null
/// quantity is left out rather than stored as `"0"`.
#[tokio::test]
async fn a_merge_patch_drops_null_keys_in_the_lists_it_puts() {
    let env = start().await;
    let client = env.client();
    let collection = format!("/api/v1/namespaces/{}/limitranges", env.namespace());
    let body = json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "pruned"},
        "spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}}]}});
    let created = send(&client, http::Method::POST, &collection, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let patched = patch(
        &client,
        &format!("{collection}/pruned"),
        MERGE,
        r#"{"spec":{"limits":[{"type":"Container","max":{"cpu":"2","memory":null}}]}}"#,
    )
    .await;
    assert_eq!(patched.code, 200, "{}", patched.body);
    assert_eq!(patched.body["spec"]["limits"][0]["max"], json!({"cpu": "2"}));
    env.stop().await;
}

/// A quantity that does not parse is refused as it decodes, with `ParseQuantity`'s
/// error (1.19's decoder wrapped it in its own context).
#[tokio::test]
async fn a_quantity_that_does_not_parse_is_refused_as_it_decodes() {
    let env = start().await;
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/limitranges", env.namespace());
    let bare = server_minor(&env).await >= 20;
    for (quantity, why) in [
        (
            "x",
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        ),
        ("1Mm", "unable to parse quantity's suffix"),
    ] {
        let body = json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "quantities"},
            "spec": {"limits": [{"type": "Container", "max": {"cpu": quantity}}]}});
        let answer = send(&client, http::Method::POST, &path, Some(&body)).await;
        assert_refused_as_it_decodes(&answer, "LimitRange", why, bare);
    }
    env.stop().await;
}

/// An apply's result reaches the type through the unstructured converter: a value it
/// cannot set is its plain 500, and an integer too wide for an `int32` field wraps, so
/// validation judges what the wrap left.
#[tokio::test]
async fn an_applied_object_is_converted_as_the_field_manager_converts_it() {
    let env = start().await;
    if server_minor(&env).await < 25 {
        eprintln!("skipped: 1.19's field manager converted applied objects with other words");
        env.stop().await;
        return;
    }
    let client = env.client();
    let ns = env.namespace().to_owned();
    let apply = |path: String, body: serde_json::Value| {
        let client = client.clone();
        async move {
            crate::error_classes::send_text(
                &client,
                http::Method::PATCH,
                &path,
                "application/apply-patch+yaml",
                &body.to_string(),
            )
            .await
        }
    };
    let lease = |transitions: serde_json::Value| {
        json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "wrapped"},
            "spec": {"holderIdentity": "a", "leaseTransitions": transitions}})
    };
    let lease_path = format!("/apis/coordination.k8s.io/v1/namespaces/{ns}/leases/wrapped?fieldManager=applier");
    let created = apply(lease_path.clone(), lease(json!(1))).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let wrapped = apply(lease_path, lease(json!(2_147_483_648_i64))).await;
    assert_eq!(wrapped.code, 422, "{}", wrapped.body);
    assert_eq!(
        wrapped.body["details"]["causes"][0]["message"],
        "Invalid value: -2147483648: must be greater than or equal to 0"
    );

    let template_path = format!("/api/v1/namespaces/{ns}/podtemplates/converted?fieldManager=applier");
    let template = json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "converted"},
        "template": {"spec": {"containers": [{"name": "app", "image": crate::common::IMAGE,
            "ports": [{"containerPort": 1.5}]}]}}});
    let refused = apply(template_path, template).await;
    assert_eq!(refused.code, 500, "{}", refused.body);
    assert_eq!(
        refused.body["message"],
        "failed to convert new object (/converted; /v1, Kind=PodTemplate) to proper version: unable to convert unstructured object to /v1, Kind=PodTemplate: cannot convert float64 to int32"
    );
    env.stop().await;
}

/// A custom resource's body is pruned as it decodes: a field its `metadata` or its
/// schema lacks is dropped before the field manager records the writer's fields, so the
/// write is recorded (its managed fields name what was kept) and nothing unknown is
/// stored, whatever `fieldValidation` asks.
#[tokio::test]
async fn a_custom_resource_is_pruned_before_its_fields_are_recorded() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"size": {"type": "integer"}}});
    let schema = crate::schema_common::SchemaType::with_spec(&env, "Pruned", &spec);
    schema.install(&env).await;
    let path = format!(
        "/apis/{}/v1/namespaces/{}/pruneds?fieldValidation=Ignore&fieldManager=writer",
        schema.resource.group,
        env.namespace()
    );
    let mut body =
        serde_json::to_value(schema.object("a", &json!({"spec": {"size": 1, "bogus": true}}))).expect("JSON");
    body["metadata"]["bogus"] = json!(1);
    let created = send(&env.client(), http::Method::POST, &path, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["spec"], json!({"size": 1}));
    assert!(created.body["metadata"].get("bogus").is_none(), "{}", created.body);
    let managed = &created.body["metadata"]["managedFields"];
    assert_eq!(managed[0]["manager"], "writer", "{}", created.body);
    assert_eq!(managed[0]["fieldsV1"]["f:spec"], json!({".": {}, "f:size": {}}));
    schema.remove(&env).await;
    env.stop().await;
}

/// Bytes are read as Go's `encoding/base64` reads them: a line break is skipped and
/// unused bits may be set (the stored string is written canonically), and what does
/// not decode is refused with the offset Go names.
#[tokio::test]
async fn bytes_are_read_as_go_reads_base64() {
    let env = start().await;
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/secrets", env.namespace());
    let secret = |name: &str, value: &str| json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}, "data": {"k": value}});
    let loose = send(&client, http::Method::POST, &path, Some(&secret("loose", "aGVs\nbG8="))).await;
    assert_eq!(loose.code, 201, "{}", loose.body);
    assert_eq!(loose.body["data"]["k"], "aGVsbG8=");
    let bits = send(&client, http::Method::POST, &path, Some(&secret("bits", "YR=="))).await;
    assert_eq!(bits.code, 201, "{}", bits.body);
    assert_eq!(bits.body["data"]["k"], "YQ==");
    let bare = server_minor(&env).await >= 20;
    for (value, offset) in [("x", 0), ("aGVsbG8", 4), ("aG=x", 2), ("aGU=aGU=", 4)] {
        let refused = send(&client, http::Method::POST, &path, Some(&secret("bad", value))).await;
        let why = format!("illegal base64 data at input byte {offset}");
        assert_refused_as_it_decodes(&refused, "Secret", &why, bare);
    }
    env.stop().await;
}

/// A body goes through kube's internal types and back: a pod's two service account
/// names become one, a node's `podCIDR` and `podCIDRs` agree, and an empty list that
/// Go writes when empty comes back from storage as null.
#[tokio::test]
async fn objects_come_back_as_the_internal_types_write_them() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace();
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "aliased"},
        "spec": {"serviceAccount": "builder", "containers": [{"name": "c", "image": crate::common::IMAGE}]}});
    let created = send(
        &client,
        http::Method::POST,
        &format!("/api/v1/namespaces/{ns}/pods"),
        Some(&pod),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["spec"]["serviceAccountName"], "builder");
    assert_eq!(created.body["spec"]["serviceAccount"], "builder");
    let name = format!("{ns}-node");
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "spec": {"podCIDRs": ["10.244.7.0/24"]}});
    let created = send(&client, http::Method::POST, "/api/v1/nodes", Some(&node)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["spec"]["podCIDR"], "10.244.7.0/24");
    send(&client, http::Method::DELETE, &format!("/api/v1/nodes/{name}"), None).await;
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "none"}, "rules": []});
    let path = format!("/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles");
    let created = send(&client, http::Method::POST, &path, Some(&role)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body.get("rules"), Some(&json!(null)));
    env.stop().await;
}
