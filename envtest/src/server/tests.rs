//! The server through its tower service: a round trip with kube, and bad input.

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, PostParams, WatchEvent, WatchParams};

use super::*;

fn configmap(name: &str) -> ConfigMap {
    serde_json::from_value(json!({"metadata": {"name": name}, "data": {"k": "v"}})).unwrap()
}

#[tokio::test]
async fn create_get_list_watch_through_kube() {
    let server = ApiServer::new(ServerOptions::default());
    let client = kube::Client::new(server.clone(), "default");
    let api: Api<ConfigMap> = Api::default_namespaced(client);
    let created = api.create(&PostParams::default(), &configmap("a")).await.unwrap();
    let version = created.metadata.resource_version.clone().unwrap();
    assert_eq!(api.get("a").await.unwrap().metadata.uid, created.metadata.uid);
    let list = api.list(&ListParams::default()).await.unwrap();
    assert_eq!(list.items.len(), 1);
    let error = api.create(&PostParams::default(), &configmap("a")).await.unwrap_err();
    assert!(
        matches!(error, kube::Error::Api(ref s) if s.code == 409 && s.reason == "AlreadyExists"),
        "{error:?}"
    );
    let mut events = api.watch(&WatchParams::default(), &version).await.unwrap().boxed();
    api.delete("a", &kube::api::DeleteParams::default()).await.unwrap();
    let event = events.try_next().await.unwrap().unwrap();
    assert!(matches!(event, WatchEvent::Deleted(_)), "{event:?}");
    assert_eq!(server.request_count(Verb::Watch, "configmaps"), 1);
}

/// Sends one raw request through the service, as kube's client would.
async fn raw(server: &ApiServer, method: &str, path: &str, content_type: &str, body: &str) -> (u16, Value) {
    use tower_service::Service;
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(http_body_util::Full::new(Bytes::from(body.to_owned())))
        .unwrap();
    let response = server.clone().call(request).await.unwrap();
    let code = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";
const JSON: &str = "application/json";
const MERGE: &str = "application/merge-patch+json";

/// Requests the real server refuses with a 4xx: (method, path, content type, body).
fn bad_requests() -> Vec<(&'static str, String, &'static str, &'static str)> {
    let cm = CONFIGMAPS;
    let deploy = "/apis/apps/v1/namespaces/default/deployments";
    let (json, merge) = (JSON, MERGE);
    vec![
        ("POST", cm.into(), json, "{not json"),
        ("POST", cm.into(), json, "[1,2]"),
        ("POST", cm.into(), json, "null"),
        (
            "POST",
            cm.into(),
            json,
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":"web"}"#,
        ),
        (
            "POST",
            cm.into(),
            json,
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"UPPER"}}"#,
        ),
        (
            "POST",
            cm.into(),
            json,
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":1}}"#,
        ),
        (
            "POST",
            cm.into(),
            json,
            r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"}}"#,
        ),
        (
            "POST",
            deploy.into(),
            json,
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":"x"}"#,
        ),
        (
            "POST",
            deploy.into(),
            json,
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"strategy":"x"}}"#,
        ),
        (
            "POST",
            "/api/v1/namespaces/default/services".into(),
            json,
            r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"},"spec":{"ports":[1]}}"#,
        ),
        (
            "POST",
            "/api/v1/namespaces/default/pods".into(),
            json,
            r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":"x"},"status":"x"}"#,
        ),
        ("PUT", format!("{cm}/a"), json, "{}"),
        ("PATCH", format!("{cm}/a"), merge, "{}"),
        ("PATCH", format!("{cm}/a"), "application/json-patch+json", "{}"),
        ("PATCH", format!("{cm}/a"), "application/apply-patch+yaml", ": :"),
        ("PATCH", format!("{cm}/a"), "text/plain", "x"),
        ("DELETE", format!("{cm}/a"), json, "{not json"),
        ("GET", format!("{cm}?labelSelector=a%20in%20b"), json, ""),
        ("GET", format!("{cm}?fieldSelector=spec.x%3Dy"), json, ""),
        ("GET", format!("{cm}?limit=abc"), json, ""),
        ("GET", format!("{cm}?continue=garbage"), json, ""),
        (
            "GET",
            format!("{cm}?resourceVersion=abc&resourceVersionMatch=Exact"),
            json,
            "",
        ),
        ("GET", format!("{cm}?watch=true&resourceVersion=abc"), json, ""),
        ("GET", "/api/v1/namespaces/default/nothings".into(), json, ""),
        (
            "GET",
            "/apis/apps/v1/namespaces/default/deployments/a/b/c/d".into(),
            json,
            "",
        ),
        ("PUT", cm.into(), json, "{}"),
        (
            "POST",
            "/api/v1/namespaces/missing/configmaps".into(),
            json,
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}"#,
        ),
    ]
}

#[tokio::test]
async fn bad_requests_get_status_bodies_and_never_panic() {
    let server = ApiServer::new(ServerOptions::default());
    let (cm, json, merge) = (CONFIGMAPS, JSON, MERGE);
    for (method, path, content_type, body) in bad_requests() {
        let (code, status) = raw(&server, method, &path, content_type, body).await;
        // kube-apiserver's own layers answer a few of these with a plain 500 (delete
        // options that do not decode, a resourceVersion that is not a number): the
        // same here, as a Status, never a panic.
        assert!((400..=500).contains(&code), "{method} {path} {body}: {code} {status}");
        assert_eq!(status["kind"], "Status", "{method} {path} {body}: {status}");
        assert_eq!(status["code"], code, "{method} {path}");
    }
    // Patches that turn an object malformed are refused as well.
    let (code, _) = raw(
        &server,
        "POST",
        cm,
        json,
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ok"}}"#,
    )
    .await;
    assert_eq!(code, 201);
    for patch in [
        r#"{"metadata":"x"}"#,
        r#"{"data":"x"}"#,
        r#"{"kind":"Secret"}"#,
        r#"{"metadata":{"name":"other"}}"#,
    ] {
        let (code, status) = raw(&server, "PATCH", &format!("{cm}/ok"), merge, patch).await;
        assert!((400..500).contains(&code), "{patch}: {code} {status}");
    }
}

#[tokio::test]
async fn metadata_only_clients_get_partial_object_metadata() {
    use kube::core::PartialObjectMeta;
    let server = ApiServer::new(ServerOptions::default());
    let client = kube::Client::new(server.clone(), "default");
    let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
    api.create(&PostParams::default(), &configmap("a")).await.unwrap();
    let metadata: Api<PartialObjectMeta<ConfigMap>> = Api::default_namespaced(client);
    let list = metadata.list_metadata(&ListParams::default()).await.unwrap();
    assert_eq!(list.items[0].metadata.name.as_deref(), Some("a"));
    let (_, status) = raw_with_accept(
        &server,
        "/api/v1/namespaces/default/configmaps/a",
        "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    )
    .await;
    assert_eq!(status["kind"], "PartialObjectMetadata");
    assert!(status.get("data").is_none(), "{status}");
}

async fn raw_with_accept(server: &ApiServer, path: &str, accept: &str) -> (u16, Value) {
    use tower_service::Service;
    let request = Request::builder()
        .uri(path)
        .header(header::ACCEPT, accept)
        .body(http_body_util::Full::new(Bytes::new()))
        .unwrap();
    let response = server.clone().call(request).await.unwrap();
    let code = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// A length-delimited protobuf field: tag, length, bytes.
fn field(number: u8, bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![(number << 3) | 2];
    let mut length = bytes.len();
    loop {
        let byte = u8::try_from(length & 0x7f).unwrap();
        length >>= 7;
        if length == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.extend_from_slice(bytes);
    out
}

/// A protobuf envelope (`k8s\0` + `runtime.Unknown`) around `raw`.
fn envelope(api_version: &str, kind: &str, raw: &[u8], encoding: &str) -> Vec<u8> {
    let type_meta = [field(1, api_version.as_bytes()), field(2, kind.as_bytes())].concat();
    [
        b"k8s\0".to_vec(),
        field(1, &type_meta),
        field(2, raw),
        field(3, encoding.as_bytes()),
    ]
    .concat()
}

async fn raw_bytes(server: &ApiServer, method: &str, path: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
    use tower_service::Service;
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(http_body_util::Full::new(Bytes::from(body)))
        .unwrap();
    let response = server.clone().call(request).await.unwrap();
    let code = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn protobuf_garbage_and_broken_envelopes_get_4xx_and_never_panic() {
    const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";
    let server = ApiServer::new(ServerOptions::default());
    let configmap = envelope("v1", "ConfigMap", &field(1, &field(1, b"made")), "");
    let mut bodies: Vec<(&str, String, Vec<u8>)> = vec![
        ("POST", CONFIGMAPS.into(), b"garbage".to_vec()),
        ("POST", CONFIGMAPS.into(), b"k8s\0".to_vec()),
        ("POST", CONFIGMAPS.into(), b"k8s\0\x0f\xff\xff".to_vec()),
        (
            "POST",
            CONFIGMAPS.into(),
            [b"k8s\0".as_slice(), &[0x12, 0xff, 0xff, 0xff, 0xff, 0x07]].concat(),
        ),
        ("POST", CONFIGMAPS.into(), envelope("v1", "Nothing", b"", "")),
        ("POST", CONFIGMAPS.into(), envelope("", "", b"", "")),
        (
            "POST",
            CONFIGMAPS.into(),
            envelope("v1", "Secret", &field(1, &field(1, b"s")), ""),
        ),
        ("POST", CONFIGMAPS.into(), envelope("v1", "ConfigMap", b"\xff\xff", "")),
        (
            "POST",
            CONFIGMAPS.into(),
            envelope("v1", "ConfigMap", &field(1, &field(1, b"z")), "gzip"),
        ),
        ("PUT", format!("{CONFIGMAPS}/a"), b"k8s\0\x0a".to_vec()),
        ("PATCH", format!("{CONFIGMAPS}/a"), configmap.clone()),
        (
            "POST",
            "/apis/example.com/v1/namespaces/default/widgets".into(),
            configmap.clone(),
        ),
        ("POST", CONFIGMAPS.into(), vec![0; 9 * 1024 * 1024]),
    ];
    // Every truncation of a good envelope (but the one that only drops its trailing
    // empty contentEncoding, which is the same envelope).
    for end in 4..configmap.len() - 2 {
        bodies.push(("POST", CONFIGMAPS.into(), configmap[..end].to_vec()));
    }
    for (method, path, body) in bodies {
        let (code, status) = raw_bytes(&server, method, &path, PROTOBUF, body.clone()).await;
        assert!((400..500).contains(&code), "{method} {path} {body:?}: {code} {status}");
        assert_eq!(status["kind"], "Status", "{method} {path}: {status}");
    }
    // The intact envelope is a ConfigMap.
    let (code, created) = raw_bytes(&server, "POST", CONFIGMAPS, PROTOBUF, configmap).await;
    assert_eq!(
        (code, created["metadata"]["name"].as_str()),
        (201, Some("made")),
        "{created}"
    );
}

/// Every request is counted by verb, group, resource, subresource and namespace, and
/// `request_count` still sums over all but verb and resource.
#[tokio::test]
async fn requests_are_recorded_as_rbac_sees_them() {
    let server = ApiServer::new(ServerOptions::default());
    let deployment = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}"#;
    let deployments = "/apis/apps/v1/namespaces/default/deployments";
    assert_eq!(raw(&server, "POST", deployments, JSON, deployment).await.0, 201);
    let status = format!("{deployments}/web/status");
    assert_eq!(
        raw(&server, "PATCH", &status, MERGE, r#"{"status":{"replicas":1}}"#)
            .await
            .0,
        200
    );
    assert_eq!(raw(&server, "GET", "/apis/apps/v1/deployments", JSON, "").await.0, 200);
    assert_eq!(
        raw(&server, "GET", &format!("{CONFIGMAPS}/missing"), JSON, "").await.0,
        404
    );
    let seen: Vec<String> = server
        .requests()
        .iter()
        .map(|r| {
            let subresource = r.subresource.as_deref().unwrap_or("-");
            let namespace = r.namespace.as_deref().unwrap_or("-");
            format!(
                "{} {}/{}/{subresource} in {namespace}: {}",
                r.verb, r.group, r.resource, r.count
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            "get /configmaps/- in default: 1",
            "list apps/deployments/- in -: 1",
            "create apps/deployments/- in default: 1",
            "patch apps/deployments/status in default: 1",
        ]
    );
    assert_eq!(server.request_count(Verb::Patch, "deployments"), 1);
}

/// A request whose client drops it before awaiting it (kube's `Buffer` hands the
/// service's future to a caller that gave up meanwhile) never arrives: no witness sees
/// it and nothing is written, however long the server's threads take to reach it. One
/// the client awaits arrives before its drop returns, or not at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_given_up_before_it_is_awaited_never_arrives() {
    use tower_service::Service;
    let server = ApiServer::new(ServerOptions::default());
    let witness = server.witness_writes();
    let sender = server.as_user("sender");
    let request = |name: &str| {
        Request::builder()
            .method("POST")
            .uri(CONFIGMAPS)
            .header(header::CONTENT_TYPE, JSON)
            .body(http_body_util::Full::new(Bytes::from(
                serde_json::to_vec(&configmap(name)).unwrap(),
            )))
            .unwrap()
    };
    for i in 0..50 {
        drop(sender.clone().call(request(&format!("dropped-{i}"))));
    }
    // Awaited a little, then dropped: each either arrived before the drop returned or
    // never does.
    let mut arrived_before_drop = 0;
    for i in 0..50 {
        let pending = sender.clone().call(request(&format!("raced-{i}")));
        let _ = tokio::time::timeout(std::time::Duration::from_micros(50), pending).await;
        arrived_before_drop = witness.writes().len();
    }
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let writes = witness.writes();
    assert_eq!(
        writes.len(),
        arrived_before_drop,
        "nothing arrived after its drop: {writes:?}"
    );
    let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.clone(), "default"));
    let names: Vec<String> = api
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|c| c.metadata.name)
        .collect();
    assert!(
        names.iter().all(|name| name.starts_with("raced-")),
        "no dropped request was written: {names:?}"
    );
    assert_eq!(server.request_count(Verb::Create, "configmaps"), writes.len() as u64);
}
