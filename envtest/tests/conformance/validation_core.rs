//! The validation kube-apiserver runs on core/v1 objects and on every object's
//! metadata (`pkg/apis/core/validation`, apimachinery's `ValidateObjectMeta`), answered
//! as 1.32 answers: the code, and each cause's field, reason and message, in kube's
//! words. Messages that print Go pointers compare with the address masked, and
//! messages ending in a `cmp.Diff` (which varies its whitespace on purpose) compare
//! their first line. Where 1.19 words a rule differently or predates it, the test says
//! so and checks what 1.19 answers instead.
//!
//! The pods' rules are in `validation_pods`; this module holds the harness.

use serde_json::{Value, json};

use crate::common::start;
use crate::raw::{Answer, send_request};
use crate::schema_common::server_minor;

/// A merge patch, a JSON body, or no body.
pub(crate) enum Body {
    Json(Value),
    Merge(Value),
    None,
}

/// Sends one request; `path` is relative to the API root (`/api/v1/...`).
pub(crate) async fn request(client: &kube::Client, method: http::Method, path: &str, body: Body) -> Answer {
    let (content_type, bytes) = match body {
        Body::Json(value) => ("application/json", serde_json::to_vec(&value).expect("JSON")),
        Body::Merge(value) => (
            "application/merge-patch+json",
            serde_json::to_vec(&value).expect("JSON"),
        ),
        Body::None => ("application/json", Vec::new()),
    };
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(bytes))
        .expect("a valid request");
    send_request(client, request).await
}

/// POSTs `body` to `collection` (a path).
pub(crate) async fn create(client: &kube::Client, collection: &str, body: Value) -> Answer {
    request(client, http::Method::POST, collection, Body::Json(body)).await
}

/// Merge-patches `path`.
pub(crate) async fn patch(client: &kube::Client, path: &str, body: Value) -> Answer {
    request(client, http::Method::PATCH, path, Body::Merge(body)).await
}

/// A cause as compared: (field, reason, message), Go pointer addresses masked and a
/// trailing `cmp.Diff` cut off.
pub(crate) type Cause = (String, String, String);

fn masked(message: &str) -> String {
    let first = message.split('\n').next().unwrap_or_default();
    let mut out = String::with_capacity(first.len());
    let mut rest = first;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let digits = tail.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(tail.len());
        out.push_str("0xADDR");
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
}

/// The answer's causes, sorted (kube lists a map's entries in random order).
pub(crate) fn causes(answer: &Answer) -> Vec<Cause> {
    let mut causes: Vec<Cause> = answer.body["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|cause| {
            let text = |key: &str| cause[key].as_str().unwrap_or_default().to_owned();
            (text("field"), text("reason"), masked(&text("message")))
        })
        .collect();
    causes.sort();
    causes
}

/// Asserts a 422 `Invalid` with exactly these causes (field, reason, message).
pub(crate) fn assert_invalid(answer: &Answer, expected: &[(&str, &str, &str)]) {
    assert_eq!(
        (answer.code, answer.body["reason"].as_str()),
        (422, Some("Invalid")),
        "{}",
        answer.body
    );
    let mut expected: Vec<Cause> = expected
        .iter()
        .map(|(f, r, m)| ((*f).to_owned(), (*r).to_owned(), masked(m)))
        .collect();
    expected.sort();
    assert_eq!(causes(answer), expected);
}

/// Asserts a 422 whose causes are at these (field, reason) pairs, whatever their
/// messages say (for servers that word them differently).
pub(crate) fn assert_invalid_at(answer: &Answer, expected: &[(&str, &str)]) {
    assert_eq!(answer.code, 422, "{}", answer.body);
    let found: Vec<(String, String)> = causes(answer).into_iter().map(|(f, r, _)| (f, r)).collect();
    let mut expected: Vec<(String, String)> = expected
        .iter()
        .map(|(f, r)| ((*f).to_owned(), (*r).to_owned()))
        .collect();
    expected.sort();
    assert_eq!(found, expected);
}

/// Asserts the write succeeded.
pub(crate) fn assert_ok(answer: &Answer) {
    assert!((200..300).contains(&answer.code), "{} {}", answer.code, answer.body);
}

const QUALIFIED: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const CONFIG_KEY: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

fn in_namespace(env: &wheelhouse_envtest::TestEnv, plural: &str) -> String {
    format!("/api/v1/namespaces/{}/{plural}", env.namespace())
}

#[tokio::test]
async fn metadata_needs_a_name_qualified_finalizers_and_complete_owner_references() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let configmaps = in_namespace(&env, "configmaps");
    let unnamed = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}}),
    )
    .await;
    assert_invalid(
        &unnamed,
        &[(
            "metadata.name",
            "FieldValueRequired",
            "Required value: name or generateName is required",
        )],
    );
    let finalizers = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "finalized", "finalizers": ["bad", "a/b/c", "example.com/ok"]}}),
    )
    .await;
    assert_invalid(
        &finalizers,
        &[
            (
                "metadata.finalizers",
                "FieldValueInvalid",
                "Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            ),
            (
                "metadata.finalizers[0]",
                "FieldValueInvalid",
                "Invalid value: \"bad\": name is neither a standard finalizer name nor is it fully qualified",
            ),
        ],
    );
    // 1.19 named the controllers without their kinds.
    let controllers = if minor < 20 {
        "a and b"
    } else {
        "Pod/a and ReplicaSet/b"
    };
    let owners = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "owned", "ownerReferences": [
            {"apiVersion": "v1", "kind": "Pod", "name": "a", "uid": "1", "controller": true},
            {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "b", "uid": "", "controller": true},
        ]}}),
    )
    .await;
    assert_invalid(
        &owners,
        &[
            (
                "metadata.ownerReferences.uid",
                "FieldValueInvalid",
                "Invalid value: \"\": uid must not be empty",
            ),
            (
                "metadata.ownerReferences",
                "FieldValueInvalid",
                &format!(
                    "Invalid value: []v1.OwnerReference{{v1.OwnerReference{{APIVersion:\"v1\", Kind:\"Pod\", Name:\"a\", UID:\"1\", Controller:(*bool)(0x1), BlockOwnerDeletion:(*bool)(nil)}}, v1.OwnerReference{{APIVersion:\"apps/v1\", Kind:\"ReplicaSet\", Name:\"b\", UID:\"\", Controller:(*bool)(0x1), BlockOwnerDeletion:(*bool)(nil)}}}}: Only one reference can have Controller set to true. Found \"true\" in references for {controllers}"
                ),
            ),
        ],
    );
    env.stop().await;
}

#[tokio::test]
async fn annotations_labels_and_generated_names_follow_their_rules() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let configmaps = in_namespace(&env, "configmaps");
    let big = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "annotated", "annotations": {"a": "x".repeat(256 * 1024)}}}),
    )
    .await;
    // 1.19 worded TooLong "must have at most N bytes".
    let too_long = if minor < 20 {
        "Too long: must have at most 262144 bytes"
    } else {
        "Too long: may not be more than 262144 bytes"
    };
    assert_invalid(&big, &[("metadata.annotations", "FieldValueTooLong", too_long)]);
    let labels = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "labelled", "labels": {"-a": "b", "ok": "-bad-"}}}),
    )
    .await;
    assert_invalid(
        &labels,
        &[
            (
                "metadata.labels",
                "FieldValueInvalid",
                &format!("Invalid value: \"-a\": {QUALIFIED}"),
            ),
            (
                "metadata.labels",
                "FieldValueInvalid",
                "Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ),
        ],
    );
    let generated = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "Bad_"}}),
    )
    .await;
    assert_invalid_at(
        &generated,
        &[
            ("metadata.generateName", "FieldValueInvalid"),
            ("metadata.name", "FieldValueInvalid"),
        ],
    );
    env.stop().await;
}

#[tokio::test]
async fn updates_keep_the_uid_and_refuse_what_objects_being_deleted_gain() {
    let env = start().await;
    let client = env.client();
    let configmaps = in_namespace(&env, "configmaps");
    let object =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept", "finalizers": ["example.com/a"]}});
    assert_ok(&create(&client, &configmaps, object).await);
    let path = format!("{configmaps}/kept");
    let renamed = patch(&client, &path, json!({"metadata": {"uid": "not-the-uid"}})).await;
    // The registry's common checks and the kind's update rules both find it; the
    // message names it once.
    let immutable = (
        "metadata.uid",
        "FieldValueInvalid",
        "Invalid value: \"not-the-uid\": field is immutable",
    );
    assert_invalid(&renamed, &[immutable, immutable]);
    assert_eq!(
        renamed.body["message"],
        "ConfigMap \"kept\" is invalid: metadata.uid: Invalid value: \"not-the-uid\": field is immutable"
    );
    assert_ok(&request(&client, http::Method::DELETE, &path, Body::None).await);
    let gained = patch(
        &client,
        &path,
        json!({"metadata": {"finalizers": ["example.com/a", "example.com/b"]}}),
    )
    .await;
    let forbidden = (
        "metadata.finalizers",
        "FieldValueForbidden",
        "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\"}",
    );
    assert_invalid(&gained, &[forbidden, forbidden]);
    assert_ok(&patch(&client, &path, json!({"metadata": {"finalizers": null}})).await);
    env.stop().await;
}

#[tokio::test]
async fn config_maps_keep_keys_size_and_immutability() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let configmaps = in_namespace(&env, "configmaps");
    let big = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big"}, "data": {"a": "x".repeat(1024 * 1024 + 1)}}),
    )
    .await;
    let too_long = if minor < 20 {
        "Too long: must have at most 1048576 bytes"
    } else {
        "Too long: may not be more than 1048576 bytes"
    };
    // `field.NewPath("")` prints as `[]`: the error is about the whole object.
    assert_invalid(&big, &[("[]", "FieldValueTooLong", too_long)]);
    let keys = create(
        &client,
        &configmaps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "keys"}, "data": {"a b": "1", "..x": "2"}, "binaryData": {"a b": "eA=="}}),
    )
    .await;
    assert_invalid(
        &keys,
        &[
            (
                "data[a b]",
                "FieldValueInvalid",
                &format!("Invalid value: \"a b\": {CONFIG_KEY}"),
            ),
            (
                "data[a b]",
                "FieldValueInvalid",
                "Invalid value: \"a b\": duplicate of key present in binaryData",
            ),
            (
                "data[..x]",
                "FieldValueInvalid",
                "Invalid value: \"..x\": must not start with '..'",
            ),
            (
                "binaryData[a b]",
                "FieldValueInvalid",
                &format!("Invalid value: \"a b\": {CONFIG_KEY}"),
            ),
        ],
    );
    let fixed = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "fixed"}, "data": {"a": "1"}, "immutable": true});
    assert_ok(&create(&client, &configmaps, fixed).await);
    let changed = patch(
        &client,
        &format!("{configmaps}/fixed"),
        json!({"data": {"a": "2"}, "immutable": false}),
    )
    .await;
    assert_invalid(
        &changed,
        &[
            (
                "immutable",
                "FieldValueForbidden",
                "Forbidden: field is immutable when `immutable` is set",
            ),
            (
                "data",
                "FieldValueForbidden",
                "Forbidden: field is immutable when `immutable` is set",
            ),
        ],
    );
    env.stop().await;
}

#[tokio::test]
async fn secrets_carry_what_their_type_requires_and_keep_their_type() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let secrets = in_namespace(&env, "secrets");
    let secret = |name: &str, kind: &str, data: Value| json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}, "type": kind, "data": data});
    let tls = create(
        &client,
        &secrets,
        secret("tls", "kubernetes.io/tls", json!({"tls.crt": "eA=="})),
    )
    .await;
    assert_invalid(&tls, &[("data[tls.key]", "FieldValueRequired", "Required value")]);
    let docker = create(
        &client,
        &secrets,
        secret("docker", "kubernetes.io/dockerconfigjson", json!({})),
    )
    .await;
    assert_invalid(
        &docker,
        &[("data[.dockerconfigjson]", "FieldValueRequired", "Required value")],
    );
    let garbled = create(
        &client,
        &secrets,
        secret(
            "garbled",
            "kubernetes.io/dockerconfigjson",
            json!({".dockerconfigjson": "eA=="}),
        ),
    )
    .await;
    assert_invalid(
        &garbled,
        &[(
            "data[.dockerconfigjson]",
            "FieldValueInvalid",
            "Invalid value: \"<secret contents redacted>\": invalid character 'x' looking for beginning of value",
        )],
    );
    let token = create(
        &client,
        &secrets,
        secret("token", "kubernetes.io/service-account-token", json!({})),
    )
    .await;
    assert_invalid(
        &token,
        &[(
            "metadata.annotations[kubernetes.io/service-account.name]",
            "FieldValueRequired",
            "Required value",
        )],
    );
    let basic = create(
        &client,
        &secrets,
        secret("basic", "kubernetes.io/basic-auth", json!({})),
    )
    .await;
    if minor < 20 {
        // 1.19 formatted the key into a path with a stray `%s`.
        assert_invalid_at(
            &basic,
            &[
                ("data[%s][password]", "FieldValueRequired"),
                ("data[%s][username]", "FieldValueRequired"),
            ],
        );
    } else {
        assert_invalid(
            &basic,
            &[
                ("data[username]", "FieldValueRequired", "Required value"),
                ("data[password]", "FieldValueRequired", "Required value"),
            ],
        );
    }
    assert_ok(&create(&client, &secrets, secret("plain", "Opaque", json!({"a": "eA=="}))).await);
    let retyped = patch(
        &client,
        &format!("{secrets}/plain"),
        json!({"type": "kubernetes.io/basic-auth", "data": {"username": "eA=="}}),
    )
    .await;
    assert_invalid(
        &retyped,
        &[(
            "type",
            "FieldValueInvalid",
            "Invalid value: \"kubernetes.io/basic-auth\": field is immutable",
        )],
    );
    env.stop().await;
}

/// A TLS Secret whose pair `crypto/tls` cannot load is accepted, with the warning its
/// strategy gives (1.32 warns; 1.19 has no such warning, and the versions between are
/// not checked).
#[tokio::test]
async fn a_tls_secret_that_does_not_load_is_accepted_with_a_warning() {
    let env = start().await;
    let secrets = in_namespace(&env, "secrets");
    let loose = create(
        &env.client(),
        &secrets,
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "loose"}, "type": "kubernetes.io/tls",
            "data": {"tls.crt": "Y2VydA==", "tls.key": "a2V5"}}),
    )
    .await;
    assert_ok(&loose);
    let warning = loose.headers.get("warning").and_then(|w| w.to_str().ok());
    if server_minor(&env).await >= 32 {
        assert_eq!(
            warning,
            Some(r#"299 - "tls: failed to find any PEM data in certificate input""#)
        );
    }
    env.stop().await;
}

#[tokio::test]
async fn services_name_their_ports_and_say_where_external_names_lead() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let services = in_namespace(&env, "services");
    let service = |name: &str, spec: Value| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec});
    let unnamed = create(
        &client,
        &services,
        service("unnamed", json!({"ports": [{"port": 80}, {"port": 81}]})),
    )
    .await;
    assert_invalid(
        &unnamed,
        &[
            ("spec.ports[0].name", "FieldValueRequired", "Required value"),
            ("spec.ports[1].name", "FieldValueRequired", "Required value"),
        ],
    );
    let twice = create(
        &client,
        &services,
        service(
            "twice",
            json!({"ports": [{"name": "a", "port": 80}, {"name": "a", "port": 80}]}),
        ),
    )
    .await;
    assert_invalid(
        &twice,
        &[
            ("spec.ports[1].name", "FieldValueDuplicate", "Duplicate value: \"a\""),
            (
                "spec.ports[1]",
                "FieldValueDuplicate",
                "Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}",
            ),
        ],
    );
    let nowhere = create(&client, &services, service("nowhere", json!({"type": "ExternalName"}))).await;
    assert_invalid(
        &nowhere,
        &[("spec.externalName", "FieldValueRequired", "Required value")],
    );
    let node_port = create(
        &client,
        &services,
        service("nodeport", json!({"ports": [{"port": 80, "nodePort": 30123}]})),
    )
    .await;
    assert_invalid(
        &node_port,
        &[(
            "spec.ports[0].nodePort",
            "FieldValueForbidden",
            "Forbidden: may not be used when `type` is 'ClusterIP'",
        )],
    );
    let bad_name = create(&client, &services, service("1svc", json!({"ports": [{"port": 80}]}))).await;
    let rule = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    assert_invalid(
        &bad_name,
        &[(
            "metadata.name",
            "FieldValueInvalid",
            &format!("Invalid value: \"1svc\": {rule}"),
        )],
    );
    assert_ok(&create(&client, &services, service("fixed", json!({"ports": [{"port": 80}]}))).await);
    let moved = patch(
        &client,
        &format!("{services}/fixed"),
        json!({"spec": {"clusterIP": "10.0.0.99", "clusterIPs": ["10.0.0.99"]}}),
    )
    .await;
    if minor < 20 {
        // 1.19 had one cluster IP, immutable as such.
        assert_invalid_at(&moved, &[("spec.clusterIP", "FieldValueInvalid")]);
    } else {
        assert_invalid(
            &moved,
            &[(
                "spec.clusterIPs[0]",
                "FieldValueInvalid",
                "Invalid value: []string{\"10.0.0.99\"}: may not change once set",
            )],
        );
    }
    env.stop().await;
}

/// `SetDefaults_Service` makes a target port of 0 or "" the port itself, before
/// validation could call either out of range.
#[tokio::test]
async fn service_target_ports_of_zero_or_empty_default_to_the_port() {
    let env = start().await;
    let client = env.client();
    let services = in_namespace(&env, "services");
    for (name, target) in [("target-zero", json!(0)), ("target-empty", json!(""))] {
        let body = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"ports": [{"port": 8080, "targetPort": target}]}});
        let answer = create(&client, &services, body).await;
        assert_ok(&answer);
        assert_eq!(answer.body["spec"]["ports"][0]["targetPort"], json!(8080), "{name}");
    }
    env.stop().await;
}

#[tokio::test]
async fn claims_keep_their_spec_but_for_a_bound_claims_size() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let claims = in_namespace(&env, "persistentvolumeclaims");
    let empty = create(
        &client,
        &claims,
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "empty"}, "spec": {}}),
    )
    .await;
    assert_invalid(
        &empty,
        &[
            (
                "spec.accessModes",
                "FieldValueRequired",
                "Required value: at least 1 access mode is required",
            ),
            ("spec.resources[storage]", "FieldValueRequired", "Required value"),
        ],
    );
    let claim = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}});
    assert_ok(&create(&client, &claims, claim).await);
    let grown = patch(
        &client,
        &format!("{claims}/data"),
        json!({"spec": {"resources": {"requests": {"storage": "2Gi"}}}}),
    )
    .await;
    let detail = if minor < 29 {
        "Forbidden: spec is immutable after creation except resources.requests for bound claims"
    } else {
        "Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"
    };
    assert_invalid(&grown, &[("spec", "FieldValueForbidden", detail)]);
    env.stop().await;
}

#[tokio::test]
async fn nodes_keep_their_pod_cidrs_and_taint_with_known_effects() {
    let env = start().await;
    let client = env.client();
    let name = format!("{}-node", env.namespace());
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "spec": {"taints": [{"key": "a", "effect": "Bogus"}]}});
    let tainted = create(&client, "/api/v1/nodes", node).await;
    // `ValidateNode` checks taints at `metadata.taints`: kube's path, kept.
    assert_invalid(
        &tainted,
        &[(
            "metadata.taints[0].effect",
            "FieldValueNotSupported",
            "Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
        )],
    );
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "spec": {"podCIDR": "10.0.0.0/24", "podCIDRs": ["10.0.0.0/24"]}});
    assert_ok(&create(&client, "/api/v1/nodes", node).await);
    let path = format!("/api/v1/nodes/{name}");
    let moved = patch(
        &client,
        &path,
        json!({"spec": {"podCIDR": "10.0.1.0/24", "podCIDRs": ["10.0.1.0/24"]}}),
    )
    .await;
    let minor = server_minor(&env).await;
    if minor < 20 {
        // 1.19 also refused any spec change but labels, taints and capacity.
        assert_invalid_at(
            &moved,
            &[("[]", "FieldValueForbidden"), ("spec.podCIDRs", "FieldValueForbidden")],
        );
    } else {
        assert_invalid(
            &moved,
            &[(
                "spec.podCIDRs",
                "FieldValueForbidden",
                "Forbidden: node updates may not change podCIDR except from \"\" to valid",
            )],
        );
    }
    assert_ok(&request(&client, http::Method::DELETE, &path, Body::None).await);
    env.stop().await;
}

#[tokio::test]
async fn limit_ranges_and_quotas_must_agree_with_themselves() {
    let env = start().await;
    let client = env.client();
    let limits = create(
        &client,
        &in_namespace(&env, "limitranges"),
        json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "limits"},
            "spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}, "default": {"cpu": "2"}}]}}),
    )
    .await;
    // The default request defaults to the default, so both exceed the max.
    assert_invalid(
        &limits,
        &[
            (
                "spec.limits[0].default[cpu]",
                "FieldValueInvalid",
                "Invalid value: resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"1\", Format:\"DecimalSI\"}: default value 2 is greater than max value 1",
            ),
            (
                "spec.limits[0].defaultRequest[cpu]",
                "FieldValueInvalid",
                "Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"2\", Format:\"DecimalSI\"}: default request value 2 is greater than max value 1",
            ),
        ],
    );
    let quota = create(
        &client,
        &in_namespace(&env, "resourcequotas"),
        json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "quota"},
            "spec": {"hard": {"pods": "1.5", "cpu": "-1"}, "scopes": ["BestEffort", "NotBestEffort"]}}),
    )
    .await;
    assert_invalid(
        &quota,
        &[
            (
                "spec.hard[pods]",
                "FieldValueInvalid",
                "Invalid value: resource.Quantity{i:resource.int64Amount{value:15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"\", Format:\"DecimalSI\"}: must be an integer",
            ),
            (
                "spec.hard[cpu]",
                "FieldValueInvalid",
                "Invalid value: \"-1\": must be greater than or equal to 0",
            ),
            (
                "spec.scopes",
                "FieldValueInvalid",
                "Invalid value: []core.ResourceQuotaScope{\"BestEffort\", \"NotBestEffort\"}: unsupported scope applied to resource",
            ),
            (
                "spec.scopes",
                "FieldValueInvalid",
                "Invalid value: []core.ResourceQuotaScope{\"BestEffort\", \"NotBestEffort\"}: conflicting scopes",
            ),
        ],
    );
    env.stop().await;
}

#[tokio::test]
async fn namespaces_endpoints_and_controllers_follow_core_rules() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let namespace = create(
        &client,
        "/api/v1/namespaces",
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "Bad.Name"}}),
    )
    .await;
    let label_rule = if minor < 20 {
        "a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
    } else {
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
    };
    assert_invalid(
        &namespace,
        &[(
            "metadata.name",
            "FieldValueInvalid",
            &format!("Invalid value: \"Bad.Name\": {label_rule}"),
        )],
    );
    let endpoints = create(
        &client,
        &in_namespace(&env, "endpoints"),
        json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "ends"},
            "subsets": [{"addresses": [{"ip": "127.0.0.1"}], "ports": [{"port": 0}]}, {}]}),
    )
    .await;
    assert_invalid_at(
        &endpoints,
        &[
            ("subsets[0].addresses[0].ip", "FieldValueInvalid"),
            ("subsets[0].ports[0].port", "FieldValueInvalid"),
            ("subsets[1]", "FieldValueRequired"),
        ],
    );
    let controller = create(
        &client,
        &in_namespace(&env, "replicationcontrollers"),
        json!({"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc"},
            "spec": {"replicas": -1, "selector": {"a": "b"}, "template": {"metadata": {"labels": {"a": "c"}},
                "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}}),
    )
    .await;
    assert_invalid(
        &controller,
        &[
            (
                "spec.replicas",
                "FieldValueInvalid",
                "Invalid value: -1: must be greater than or equal to 0",
            ),
            (
                "spec.template.metadata.labels",
                "FieldValueInvalid",
                "Invalid value: map[string]string{\"a\":\"c\"}: `selector` does not match template `labels`",
            ),
            (
                "spec.template.spec.restartPolicy",
                "FieldValueNotSupported",
                "Unsupported value: \"Never\": supported values: \"Always\"",
            ),
        ],
    );
    env.stop().await;
}
