//! Protobuf on the wire. Bodies are built with k8s-pb's prost types
//! (an encoder independent of the server's descriptor-driven decoder), sent as a Go
//! client sends them (`k8s\0` + `runtime.Unknown`), and read back through kube's JSON.

use bytes::Bytes;
use http_body_util::BodyExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_pb::api::apps::v1 as apps;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
use kube::api::{Api, PostParams};
use prost::Message;
use wheelhouse_envtest::TestEnv;

use crate::common::{IMAGE, start};

const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

/// `message` in the protobuf envelope kube-apiserver reads.
fn envelope(api_version: &str, kind: &str, message: &impl Message) -> Vec<u8> {
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: Some(api_version.to_owned()),
            kind: Some(kind.to_owned()),
        }),
        raw: Some(message.encode_to_vec()),
        content_encoding: Some(String::new()),
        content_type: Some(String::new()),
    };
    [b"k8s\0".as_slice(), &unknown.encode_to_vec()].concat()
}

/// Sends one raw request; the status, the content type and the body.
async fn send(env: &TestEnv, method: &str, path: &str, accept: &str, body: Vec<u8>) -> (u16, String, Bytes) {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::CONTENT_TYPE, PROTOBUF)
        .header(http::header::ACCEPT, accept)
        .body(kube::client::Body::from(body))
        .expect("a request");
    let response = env.client().send(request).await.expect("the server answers");
    let code = response.status().as_u16();
    let content_type = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = response.into_body().collect().await.expect("a body").to_bytes();
    (code, content_type, body)
}

fn metadata(name: &str) -> meta::ObjectMeta {
    meta::ObjectMeta {
        name: Some(name.to_owned()),
        ..Default::default()
    }
}

/// A `ConfigMap` created with a protobuf body is the object a JSON create would make:
/// strings, bytes (`binaryData`) and labels arrive intact.
#[tokio::test]
async fn a_protobuf_create_stores_the_same_object_as_json() {
    let env = start().await;
    let config_map = core::ConfigMap {
        metadata: Some(meta::ObjectMeta {
            labels: [("tier".to_owned(), "web".to_owned())].into(),
            ..metadata("from-protobuf")
        }),
        data: [("greeting".to_owned(), "hello".to_owned())].into(),
        binary_data: [("blob".to_owned(), vec![0, 159, 146, 150])].into(),
        immutable: None,
    };
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let body = envelope("v1", "ConfigMap", &config_map);
    let (code, _, answer) = send(&env, "POST", &path, "application/json", body).await;
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&answer));

    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let stored = api.get("from-protobuf").await.expect("the ConfigMap exists");
    assert_eq!(
        stored.data.unwrap_or_default().get("greeting").map(String::as_str),
        Some("hello")
    );
    let blob = stored
        .binary_data
        .unwrap_or_default()
        .remove("blob")
        .expect("binaryData.blob");
    assert_eq!(blob.0, vec![0, 159, 146, 150]);
    assert_eq!(
        stored
            .metadata
            .labels
            .unwrap_or_default()
            .get("tier")
            .map(String::as_str),
        Some("web")
    );
    env.stop().await;
}

/// Go writes every non-pointer field, zero or not: the server keeps a zero where Go's
/// field is a pointer (`replicas: 0` stays 0 rather than defaulting to 1) and drops it
/// where the field is `omitempty` (`minReadySeconds`, `paused`), as kube-apiserver does.
#[tokio::test]
async fn zero_values_mean_what_they_mean_in_go() {
    let env = start().await;
    let labels: std::collections::BTreeMap<String, String> = [("app".to_owned(), "zero".to_owned())].into();
    let deployment = apps::Deployment {
        metadata: Some(metadata("zero")),
        spec: Some(apps::DeploymentSpec {
            replicas: Some(0),
            min_ready_seconds: Some(0),
            paused: Some(false),
            selector: Some(meta::LabelSelector {
                match_labels: labels.clone(),
                ..Default::default()
            }),
            template: Some(core::PodTemplateSpec {
                metadata: Some(meta::ObjectMeta {
                    labels,
                    ..Default::default()
                }),
                spec: Some(core::PodSpec {
                    containers: vec![core::Container {
                        name: Some("main".to_owned()),
                        image: Some(IMAGE.to_owned()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
            }),
            ..Default::default()
        }),
        status: None,
    };
    let path = format!("/apis/apps/v1/namespaces/{}/deployments", env.namespace());
    let (code, _, answer) = send(
        &env,
        "POST",
        &path,
        "application/json",
        envelope("apps/v1", "Deployment", &deployment),
    )
    .await;
    assert_eq!(code, 201, "{}", String::from_utf8_lossy(&answer));
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let spec = api.get("zero").await.expect("the Deployment exists").spec;
    assert_eq!(spec.replicas, Some(0), "an explicit zero of a pointer field is kept");
    assert_eq!(spec.min_ready_seconds, None, "an omitempty zero is dropped");
    assert_eq!(spec.paused, None, "an omitempty false is dropped");
    env.stop().await;
}

/// A client that accepts only protobuf reads protobuf; kube (JSON) reads the same object.
#[tokio::test]
async fn protobuf_only_clients_read_protobuf() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let created = api
        .create(
            &PostParams::default(),
            &crate::common::configmap("read-me", &[], &[("k", "v")]),
        )
        .await
        .expect("created");
    let path = format!("/api/v1/namespaces/{}/configmaps/read-me", env.namespace());
    let (code, content_type, body) = send(&env, "GET", &path, PROTOBUF, Vec::new()).await;
    assert_eq!((code, content_type.as_str()), (200, PROTOBUF));
    let rest = body.strip_prefix(b"k8s\0".as_slice()).expect("the protobuf magic");
    let unknown = Unknown::decode(rest).expect("an envelope");
    let type_meta = unknown.type_meta.expect("typeMeta");
    assert_eq!(
        (type_meta.api_version.as_deref(), type_meta.kind.as_deref()),
        (Some("v1"), Some("ConfigMap"))
    );
    let read = core::ConfigMap::decode(unknown.raw.unwrap_or_default().as_slice()).expect("a ConfigMap");
    let read_metadata = read.metadata.expect("metadata");
    assert_eq!(read_metadata.uid, created.metadata.uid);
    assert_eq!(read.data.get("k").map(String::as_str), Some("v"));
    env.stop().await;
}

/// Broken protobuf is refused with 400, as kube-apiserver refuses it.
#[tokio::test]
async fn broken_protobuf_is_a_bad_request() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    for body in [b"not protobuf".to_vec(), b"k8s\0\x0f\xff".to_vec()] {
        let (code, _, answer) = send(&env, "POST", &path, "application/json", body).await;
        assert_eq!(code, 400, "{}", String::from_utf8_lossy(&answer));
    }
    env.stop().await;
}
