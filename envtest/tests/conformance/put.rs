//! A PUT whose body names another object than its URL is a bad
//! request (400), whether or not the object of the URL exists, as kube-apiserver's
//! `checkName` answers it before looking anything up.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use serde_json::json;

use crate::common::{configmap, start};
use crate::raw::send;
use crate::schema_common::server_minor;

#[tokio::test]
async fn put_of_a_body_naming_another_object_is_a_bad_request() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    api.create(&PostParams::default(), &configmap("existing", &[], &[]))
        .await
        .unwrap();
    let body = |name: &str, namespace: Option<&str>| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": namespace}, "data": {"k": "v"}});
    let path = |name: &str| format!("/api/v1/namespaces/{namespace}/configmaps/{name}");
    for url_name in ["existing", "missing"] {
        let answer = send(
            &env.client(),
            http::Method::PUT,
            &path(url_name),
            Some(&body("other", None)),
        )
        .await;
        assert_eq!(
            (answer.code, answer.body["reason"].as_str()),
            (400, Some("BadRequest")),
            "PUT {url_name} naming other: {}",
            answer.body
        );
        assert_eq!(
            answer.body["message"],
            format!("the name of the object (other) does not match the name on the URL ({url_name})")
        );
    }
    let answer = send(
        &env.client(),
        http::Method::PUT,
        &path("existing"),
        Some(&body("existing", Some("kube-system"))),
    )
    .await;
    assert_eq!(answer.code, 400, "{}", answer.body);
    // 1.19's update handler checked the namespace with the name (`checkName`); by 1.32
    // it checks it first, in `rest.EnsureObjectNamespaceMatchesRequestNamespace`,
    // whose words these are (the release between was not checked).
    let expected = if server_minor(&env).await < 20 {
        format!("the namespace of the object (kube-system) does not match the namespace on the request ({namespace})")
    } else {
        "the namespace of the provided object does not match the namespace sent on the request".to_owned()
    };
    assert_eq!(answer.body["message"], expected);
    // The object of the URL was not touched; a PUT of a missing object is still 404.
    assert!(
        !api.get("existing")
            .await
            .unwrap()
            .data
            .unwrap_or_default()
            .contains_key("k")
    );
    let answer = send(
        &env.client(),
        http::Method::PUT,
        &path("missing"),
        Some(&body("missing", None)),
    )
    .await;
    assert_eq!(answer.code, 404, "{}", answer.body);
    env.stop().await;
}

/// A PUT of a missing object creates it for the resources whose strategy allows it
/// (Leases, as leader election relies on), and is 404 for the others.
#[tokio::test]
async fn put_creates_a_missing_lease() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let path = format!("/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/leader");
    let lease = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "leader"},
        "spec": {"holderIdentity": "replica-a", "leaseDurationSeconds": 15}});
    let answer = send(&env.client(), http::Method::PUT, &path, Some(&lease)).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert_eq!(answer.body["spec"]["holderIdentity"], "replica-a");
    let again = send(&env.client(), http::Method::GET, &path, None).await;
    assert_eq!(again.code, 200, "{}", again.body);
    env.stop().await;
}

/// Services and `events.k8s.io` Events are created by a PUT as well (their strategies
/// allow it); a config map is not.
#[tokio::test]
async fn put_creates_a_missing_service_and_event_but_not_a_config_map() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let minor = server_minor(&env).await;
    if minor >= 23 {
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "put"}, "spec": {"ports": [{"port": 80}]}});
        let path = format!("/api/v1/namespaces/{namespace}/services/put");
        let answer = send(&env.client(), http::Method::PUT, &path, Some(&service)).await;
        assert_eq!(answer.code, 201, "{}", answer.body);
        assert!(answer.body["spec"]["clusterIP"].is_string(), "{}", answer.body);
    } else {
        eprintln!("skipping the Service: its own REST storage (before 1.23) created on a PUT only when forced");
    }
    if minor >= 19 {
        let event = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "put"},
            "eventTime": "2024-01-01T00:00:00.000000Z", "reportingController": "example.com/c", "reportingInstance": "i",
            "action": "Act", "reason": "Reason", "type": "Normal", "regarding": {"kind": "Pod", "name": "p", "namespace": namespace}});
        let path = format!("/apis/events.k8s.io/v1/namespaces/{namespace}/events/put");
        let answer = send(&env.client(), http::Method::PUT, &path, Some(&event)).await;
        assert_eq!(answer.code, 201, "{}", answer.body);
    }
    let config_map = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "put"}});
    let path = format!("/api/v1/namespaces/{namespace}/configmaps/put");
    let answer = send(&env.client(), http::Method::PUT, &path, Some(&config_map)).await;
    assert_eq!(answer.code, 404, "{}", answer.body);
    env.stop().await;
}

/// The custom resource handler routes by verb, not by path: a POST to an object's
/// path creates the body's object (whatever the path names), a PUT or PATCH of the
/// collection is a 400 that no name was given (a patch's media type is checked
/// before). Built-in types have no such routes.
#[tokio::test]
async fn custom_resources_take_a_post_to_an_object_s_path_and_refuse_a_put_of_the_collection() {
    let env = start().await;
    let kind = crate::schema_common::SchemaType::with_spec(&env, "Routed", &json!({"type": "object"}));
    kind.install(&env).await;
    let resource = &kind.resource;
    let collection = format!(
        "/apis/{}/{}/namespaces/{}/{}",
        resource.group,
        resource.version,
        env.namespace(),
        resource.plural
    );
    let object = |name: &str| json!({"apiVersion": resource.api_version, "kind": "Routed", "metadata": {"name": name}});
    let created = send(
        &env.client(),
        http::Method::POST,
        &format!("{collection}/elsewhere"),
        Some(&object("posted")),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["metadata"]["name"], "posted");
    let put = send(&env.client(), http::Method::PUT, &collection, Some(&object("posted"))).await;
    assert_eq!((put.code, &put.body["message"]), (400, &json!("name must be provided")));
    // A patch's media type is checked first.
    let labels = r#"{"metadata":{"labels":{"a":"b"}}}"#;
    let merge = crate::error_classes::patch(&env.client(), &collection, "application/merge-patch+json", labels).await;
    assert_eq!(
        (merge.code, &merge.body["message"]),
        (400, &json!("name must be provided"))
    );
    let plain = crate::error_classes::patch(&env.client(), &collection, "application/json", labels).await;
    assert_eq!(plain.code, 415, "{}", plain.body);
    let config_maps = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let answer = send(
        &env.client(),
        http::Method::PUT,
        &config_maps,
        Some(&json!({"metadata": {"name": "x"}})),
    )
    .await;
    assert_eq!(answer.code, 405, "{}", answer.body);
    kind.remove(&env).await;
    env.stop().await;
}

/// The update handler decodes the body first: a field of the wrong type is its 400
/// before the name is compared (another 400) and before a stale resourceVersion (409).
#[tokio::test]
async fn a_put_body_is_decoded_before_its_name_and_version_are_checked() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    api.create(&PostParams::default(), &configmap("decoded", &[], &[]))
        .await
        .unwrap();
    let path = format!("/api/v1/namespaces/{namespace}/configmaps/decoded");
    let stale = |name: &str, value: serde_json::Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "resourceVersion": "1"}, "data": {"a": value}});
    let typed = "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string";
    // Before 1.24 the decoder (json-iterator) worded its errors otherwise.
    let worded = server_minor(&env).await >= 24;
    for name in ["decoded", "other"] {
        let answer = send(&env.client(), http::Method::PUT, &path, Some(&stale(name, json!(1)))).await;
        assert_eq!(answer.code, 400, "{name}: {}", answer.body);
        if worded {
            assert_eq!(answer.body["message"].as_str(), Some(typed), "{name}");
        }
    }
    let misnamed = send(
        &env.client(),
        http::Method::PUT,
        &path,
        Some(&stale("other", json!("1"))),
    )
    .await;
    assert_eq!(misnamed.code, 400, "{}", misnamed.body);
    let conflict = send(
        &env.client(),
        http::Method::PUT,
        &path,
        Some(&stale("decoded", json!("1"))),
    )
    .await;
    assert_eq!(conflict.code, 409, "{}", conflict.body);
    env.stop().await;
}
