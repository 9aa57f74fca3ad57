//! Label and field selectors as kube-apiserver reads them: a label selector it cannot
//! parse is a 400 with `labels.Parse`'s message on list, watch and deletecollection; a
//! field selector may name only the fields the resource's conversion functions know
//! (`"x" is not a known field selector: only "metadata.name", "metadata.namespace"` for
//! most, `field label not supported: x` for those with a table of their own), and those
//! fields select by the values the resource's registry exposes.

use serde_json::{Value, json};

use crate::common::start;
use crate::raw::{Answer, send};
use crate::schema_common::server_minor;

/// `GET path?<query>` with the query's value escaped.
async fn list(client: &kube::Client, path: &str, parameter: &str, value: &str) -> Answer {
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair(parameter, value)
        .finish();
    send(client, http::Method::GET, &format!("{path}?{query}"), None).await
}

/// The names a list answered.
fn names(answer: &Answer) -> Vec<String> {
    answer.body["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["metadata"]["name"].as_str().map(str::to_owned))
        .collect()
}

/// Label selectors kube cannot parse are refused with its parser's words (1.32's; the
/// words of key and value errors were different in 1.19), on list, watch and
/// deletecollection alike, and nothing is deleted.
#[tokio::test]
async fn label_selectors_kube_cannot_parse_are_a_400() {
    let env = start().await;
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let kept = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept", "labels": {"env": "a"}}});
    assert_eq!(send(&client, http::Method::POST, &path, Some(&kept)).await.code, 201);
    let newer = server_minor(&env).await > 19;
    let name_rule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let long_key = "k".repeat(64);
    let long_value = "v".repeat(64);
    let cases: Vec<(String, Option<String>)> = vec![
        ("env,,tier".into(), Some("found ',', expected: identifier after ','".into())),
        (",".into(), Some("found ',', expected: !, identifier, or 'end of string'".into())),
        ("a=b c".into(), Some("found 'c', expected: ',' or 'end of string'".into())),
        (
            "env in (a,b".into(),
            Some("unable to parse requirement: found '', expected: ',' or ')'".into()),
        ),
        (
            "env in a".into(),
            Some("unable to parse requirement: found 'a' expected: '('".into()),
        ),
        (
            "a===b".into(),
            Some("unable to parse requirement: found '=', expected: identifier".into()),
        ),
        (
            "-bad=x".into(),
            newer.then(|| format!("unable to parse requirement: <nil>: Invalid value: \"-bad\": {name_rule}")),
        ),
        (
            format!("{long_key}=x"),
            newer.then(|| {
                format!(
                    "unable to parse requirement: <nil>: Invalid value: \"{long_key}\": name part must be no more than 63 characters"
                )
            }),
        ),
        (
            format!("env={long_value}"),
            newer.then(|| {
                format!(
                    "unable to parse requirement: values[0][env]: Invalid value: \"{long_value}\": must be no more than 63 characters"
                )
            }),
        ),
        (
            "a>x".into(),
            newer.then(|| {
                "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer".into()
            }),
        ),
    ];
    for (selector, message) in &cases {
        let answer = list(&client, &path, "labelSelector", selector).await;
        assert_eq!(answer.code, 400, "{selector}: {}", answer.body);
        assert_eq!(answer.body["reason"], "BadRequest", "{selector}");
        if let Some(message) = message {
            assert_eq!(answer.body["message"], json!(message), "{selector}");
        }
    }
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("labelSelector", "env,,tier")
        .finish();
    let watch = format!("{path}?watch=true&timeoutSeconds=1&{query}");
    let watched = send(&client, http::Method::GET, &watch, None).await;
    assert_eq!(watched.code, 400, "{}", watched.body);
    let deleted = send(&client, http::Method::DELETE, &format!("{path}?{query}"), None).await;
    assert_eq!(deleted.code, 400, "{}", deleted.body);
    let still = send(&client, http::Method::GET, &format!("{path}/kept"), None).await;
    assert_eq!(still.code, 200, "a refused deletecollection deletes nothing");
    // What kube parses, it matches: set forms, empty values, integer comparisons.
    for (selector, expected) in [
        ("env in (a,b)", vec!["kept"]),
        ("env notin (,)", vec!["kept"]),
        ("env in ()", vec![]),
        ("!missing", vec!["kept"]),
        ("env=", vec![]),
        ("env", vec!["kept"]),
    ] {
        let answer = list(&client, &path, "labelSelector", selector).await;
        assert_eq!(answer.code, 200, "{selector}: {}", answer.body);
        assert_eq!(names(&answer), expected, "{selector}");
    }
    env.stop().await;
}

/// Each resource takes the field labels its conversion function knows, with kube's
/// message for the others: Services by `spec.type` and `spec.clusterIP` (1.20+), Jobs
/// by `status.successful`, Nodes by `spec.unschedulable`, ReplicaSets by nothing but
/// their metadata; the syntax is checked first.
#[tokio::test]
async fn field_selectors_name_only_what_the_resource_exposes() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let newer = server_minor(&env).await > 19;
    let not_known = |label: &str| {
        format!("\"{label}\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"")
    };
    let mut refused: Vec<(String, &str, String)> = vec![
        (
            format!("/apis/apps/v1/namespaces/{namespace}/replicasets"),
            "status.replicas=1",
            not_known("status.replicas"),
        ),
        (
            format!("/api/v1/namespaces/{namespace}/configmaps"),
            "metadata.name=a,data=1",
            not_known("data"),
        ),
        (
            format!("/api/v1/namespaces/{namespace}/pods"),
            "spec.containers=x",
            "field label not supported: spec.containers".into(),
        ),
        (
            "/api/v1/nodes".into(),
            "metadata.namespace=x",
            "field label not supported: metadata.namespace".into(),
        ),
        (
            format!("/api/v1/namespaces/{namespace}/configmaps"),
            "metadata.name",
            "invalid selector: 'metadata.name'; can't understand 'metadata.name'".into(),
        ),
        (
            format!("/api/v1/namespaces/{namespace}/configmaps"),
            "metadata.name=a=b",
            "invalid field selector: unescaped character in value: 61".into(),
        ),
    ];
    if newer {
        refused.push((
            format!("/api/v1/namespaces/{namespace}/services"),
            "spec.ports=x",
            "field label not supported: spec.ports".into(),
        ));
        refused.push((
            format!("/apis/batch/v1/namespaces/{namespace}/jobs"),
            "status.failed=1",
            "field label \"status.failed\" not supported for Job".into(),
        ));
    }
    for (path, selector, message) in &refused {
        let answer = list(&client, path, "fieldSelector", selector).await;
        assert_eq!(answer.code, 400, "{path} {selector}: {}", answer.body);
        assert_eq!(answer.body["message"], json!(message), "{path} {selector}");
    }
    let mut accepted = vec![
        (
            format!("/apis/batch/v1/namespaces/{namespace}/jobs"),
            "status.successful=1",
        ),
        ("/api/v1/nodes".into(), "spec.unschedulable=true"),
        (format!("/api/v1/namespaces/{namespace}/pods"), "spec.host=node-a"),
        (
            format!("/api/v1/namespaces/{namespace}/replicationcontrollers"),
            "status.replicas=1",
        ),
        (
            format!("/api/v1/namespaces/{namespace}/configmaps"),
            "metadata.name=a\\=b",
        ),
    ];
    if newer {
        accepted.push((
            format!("/api/v1/namespaces/{namespace}/services"),
            "spec.type=ClusterIP",
        ));
        accepted.push((
            format!("/api/v1/namespaces/{namespace}/services"),
            "spec.clusterIP=None",
        ));
    }
    for (path, selector) in &accepted {
        let answer = list(&client, path, "fieldSelector", selector).await;
        assert_eq!(answer.code, 200, "{path} {selector}: {}", answer.body);
    }
    env.stop().await;
}

/// Selected fields read what the registry exposes: a Service's type, a Job's
/// succeeded count (0 when absent), a Secret's type.
#[tokio::test]
async fn field_selectors_select_by_the_registry_s_values() {
    let env = start().await;
    if server_minor(&env).await <= 19 {
        eprintln!("skipped: Services are selectable by spec.type after Kubernetes 1.19");
        env.stop().await;
        return;
    }
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let services = format!("/api/v1/namespaces/{namespace}/services");
    let service = |name: &str, spec: Value| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec});
    let ports = json!([{"port": 80}]);
    for body in [
        service("plain", json!({"ports": ports})),
        service("headless", json!({"clusterIP": "None", "ports": ports})),
        service(
            "external",
            json!({"type": "ExternalName", "externalName": "example.com"}),
        ),
    ] {
        let created = send(&client, http::Method::POST, &services, Some(&body)).await;
        assert_eq!(created.code, 201, "{}", created.body);
    }
    let selected = list(&client, &services, "fieldSelector", "spec.type=ClusterIP").await;
    assert_eq!(names(&selected), vec!["headless", "plain"]);
    let selected = list(&client, &services, "fieldSelector", "spec.clusterIP=None").await;
    assert_eq!(names(&selected), vec!["headless"]);
    let selected = list(&client, &services, "fieldSelector", "spec.type!=ClusterIP").await;
    assert_eq!(names(&selected), vec!["external"]);

    let jobs = format!("/apis/batch/v1/namespaces/{namespace}/jobs");
    let job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "once"},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "a", "image": crate::common::IMAGE}]}}}});
    assert_eq!(send(&client, http::Method::POST, &jobs, Some(&job)).await.code, 201);
    let selected = list(&client, &jobs, "fieldSelector", "status.successful=0").await;
    assert_eq!(names(&selected), vec!["once"], "{}", selected.body);

    let secrets = format!("/api/v1/namespaces/{namespace}/secrets");
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "opaque"}, "type": "Opaque"});
    assert_eq!(
        send(&client, http::Method::POST, &secrets, Some(&secret)).await.code,
        201
    );
    let selected = list(&client, &secrets, "fieldSelector", "type=Opaque").await;
    assert!(names(&selected).contains(&"opaque".to_owned()), "{}", selected.body);
    env.stop().await;
}

/// A custom resource is selectable by `metadata.*` and by the `selectableFields` its
/// version declares (Kubernetes 1.31+), each read as `fmt.Sprint` prints the value;
/// any other label is `field label not supported`.
#[tokio::test]
async fn custom_resources_select_by_their_selectable_fields() {
    let env = start().await;
    if crate::schema_common::skip_before(&env, 31, "selectableFields of CRDs").await {
        env.stop().await;
        return;
    }
    let group = format!("{}.selectors.wheelhouse.rs", env.namespace());
    let crd: k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition =
        crate::common::from_json(json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("paints.{group}")},
            "spec": {"group": group, "scope": "Namespaced",
                "names": {"plural": "paints", "singular": "paint", "kind": "Paint", "listKind": "PaintList"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.coats"}],
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                        "properties": {"color": {"type": "string"}, "coats": {"type": "integer"}}}}}}}]},
        }));
    env.install_crd(&crd).await.expect("the CRD is served");
    let client = env.client();
    let path = format!("/apis/{group}/v1/namespaces/{}/paints", env.namespace());
    for (name, spec) in [
        ("red", json!({"color": "red", "coats": 2})),
        ("blue", json!({"color": "blue"})),
    ] {
        let paint =
            json!({"apiVersion": format!("{group}/v1"), "kind": "Paint", "metadata": {"name": name}, "spec": spec});
        let created = send(&client, http::Method::POST, &path, Some(&paint)).await;
        assert_eq!(created.code, 201, "{}", created.body);
    }
    let selected = list(&client, &path, "fieldSelector", "spec.color=red").await;
    assert_eq!(names(&selected), vec!["red"], "{}", selected.body);
    let selected = list(&client, &path, "fieldSelector", "spec.coats=2").await;
    assert_eq!(names(&selected), vec!["red"], "{}", selected.body);
    let selected = list(&client, &path, "fieldSelector", "spec.coats=").await;
    assert_eq!(
        names(&selected),
        vec!["blue"],
        "an absent field is empty: {}",
        selected.body
    );
    let refused = list(&client, &path, "fieldSelector", "spec.shine=x").await;
    assert_eq!(refused.code, 400, "{}", refused.body);
    assert_eq!(refused.body["message"], "field label not supported: spec.shine");
    let crds: kube::Api<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition> =
        kube::Api::all(client);
    crate::common::delete_quietly(&crds, &format!("paints.{group}")).await;
    env.stop().await;
}
