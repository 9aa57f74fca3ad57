//! Discovery as kube-apiserver 1.32 serves it: the aggregated documents
//! (`apidiscovery.k8s.io` v2 and v2beta1, which kubectl and client-go ask for first)
//! agree with the legacy ones resource by resource, carry every subresource, an `ETag`
//! that a client's `If-None-Match` turns into 304, and are refused (406) where they are
//! not served; the legacy documents carry each stored resource's `storageVersionHash`
//! and a CRD's verbs in apiextensions-apiserver's order.

use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{CustomType, eventually, start};
use crate::raw::{Answer, send, send_request};
use crate::served::at_least;

const V2: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const V2BETA1: &str = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

/// GETs `path` with the given `Accept` (and `If-None-Match`, if any).
async fn get(env: &TestEnv, path: &str, accept: &str, if_none_match: Option<&str>) -> Answer {
    let mut request = http::Request::builder()
        .method(http::Method::GET)
        .uri(path)
        .header(http::header::ACCEPT, accept);
    if let Some(etag) = if_none_match {
        request = request.header(http::header::IF_NONE_MATCH, etag);
    }
    let request = request.body(kube::client::Body::empty()).expect("a valid request");
    send_request(&env.client(), request).await
}

fn header(answer: &Answer, name: http::header::HeaderName) -> &str {
    answer
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// The legacy resources of a group version, by name (subresources included).
async fn legacy(env: &TestEnv, group_version: &str) -> Vec<Value> {
    let path = if group_version.contains('/') {
        format!("/apis/{group_version}")
    } else {
        format!("/api/{group_version}")
    };
    let answer = send(&env.client(), http::Method::GET, &path, None).await;
    assert_eq!(answer.code, 200, "{path}: {}", answer.body);
    answer.body["resources"].as_array().cloned().unwrap_or_default()
}

/// Each aggregated group version holds exactly the legacy document's resources and
/// subresources, with the same verbs, scope and kinds.
async fn assert_agrees_with_legacy(env: &TestEnv, list: &Value) {
    for group in list["items"].as_array().expect("items") {
        let name = group["metadata"]["name"].as_str().unwrap_or_default();
        // The groups of the CRDs other tests of this run create and delete (named after
        // their test namespaces) may come or go between the two reads on a shared server.
        if name.starts_with("envtest-") {
            continue;
        }
        for version in group["versions"].as_array().expect("versions") {
            let version_name = version["version"].as_str().expect("a version");
            let group_version = if name.is_empty() {
                version_name.to_owned()
            } else {
                format!("{name}/{version_name}")
            };
            let legacy = legacy(env, &group_version).await;
            let mut aggregated = Vec::new();
            for resource in version["resources"].as_array().expect("resources") {
                let plural = resource["resource"].as_str().expect("a resource name");
                aggregated.push((plural.to_owned(), resource["verbs"].clone()));
                let namespaced = resource["scope"] == "Namespaced";
                let entry = legacy
                    .iter()
                    .find(|r| r["name"] == plural)
                    .unwrap_or_else(|| panic!("{group_version} {plural} is in the legacy document"));
                assert_eq!(entry["namespaced"], namespaced, "{group_version} {plural}");
                assert_eq!(
                    entry["kind"], resource["responseKind"]["kind"],
                    "{group_version} {plural}"
                );
                for subresource in resource["subresources"].as_array().into_iter().flatten() {
                    let sub = subresource["subresource"].as_str().expect("a subresource name");
                    aggregated.push((format!("{plural}/{sub}"), subresource["verbs"].clone()));
                }
            }
            let expected: Vec<(String, Value)> = legacy
                .iter()
                .map(|r| (r["name"].as_str().unwrap_or_default().to_owned(), r["verbs"].clone()))
                .collect();
            let (mut expected, mut aggregated) = (expected, aggregated);
            expected.sort_by(|a, b| a.0.cmp(&b.0));
            aggregated.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(aggregated, expected, "{group_version}");
        }
    }
}

#[tokio::test]
async fn aggregated_discovery_agrees_with_the_legacy_documents() {
    let env = start().await;
    if !at_least(&env, 30, "aggregated discovery (apidiscovery.k8s.io/v2)").await {
        env.stop().await;
        return;
    }
    let accept = format!("{V2},{V2BETA1},application/json");
    let core = get(&env, "/api", &accept, None).await;
    assert_eq!(core.code, 200, "{}", core.body);
    assert_eq!(header(&core, http::header::CONTENT_TYPE), V2);
    assert_eq!(core.body["kind"], "APIGroupDiscoveryList");
    assert_eq!(core.body["apiVersion"], "apidiscovery.k8s.io/v2");
    let items = core.body["items"].as_array().expect("items");
    assert_eq!(items.len(), 1, "the core group alone");
    assert!(items[0]["metadata"].get("name").is_none(), "{}", items[0]["metadata"]);
    let pods = items[0]["versions"][0]["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .find(|r| r["resource"] == "pods")
        .expect("pods");
    assert_eq!(pods["responseKind"], json!({"group": "", "version": "", "kind": "Pod"}));
    let subresources: Vec<&str> = pods["subresources"]
        .as_array()
        .expect("subresources")
        .iter()
        .filter_map(|s| s["subresource"].as_str())
        .collect();
    for expected in [
        "attach",
        "binding",
        "eviction",
        "exec",
        "log",
        "portforward",
        "proxy",
        "status",
    ] {
        assert!(subresources.contains(&expected), "{expected} in {subresources:?}");
    }
    assert_agrees_with_legacy(&env, &core.body).await;

    let mut named = get(&env, "/apis", &accept, None).await;
    assert_eq!(named.code, 200, "{}", named.body);
    let legacy_groups = send(&env.client(), http::Method::GET, "/apis", None).await;
    // Other tests come and go with CRD groups of their own on a shared server, between
    // one request and the next: the groups compared are the server's own.
    let own = |name: &str| !name.ends_with(".wheelhouse.rs");
    let order = |groups: &Value, key: &str| -> Vec<String> {
        groups
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|g| g.pointer(key).and_then(Value::as_str).map(str::to_owned))
            .filter(|name| own(name))
            .collect()
    };
    if let Some(items) = named.body["items"].as_array_mut() {
        items.retain(|group| group["metadata"]["name"].as_str().is_some_and(own));
    }
    assert_eq!(
        order(&named.body["items"], "/metadata/name"),
        order(&legacy_groups.body["groups"], "/name"),
        "the same groups in the same (priority) order"
    );
    assert_agrees_with_legacy(&env, &named.body).await;
    env.stop().await;
}

#[tokio::test]
async fn aggregated_discovery_is_cached_by_etag_and_negotiated() {
    let env = start().await;
    if !at_least(&env, 30, "aggregated discovery (apidiscovery.k8s.io/v2)").await {
        env.stop().await;
        return;
    }
    let first = get(&env, "/apis", V2, None).await;
    assert_eq!(first.code, 200, "{}", first.body);
    let etag = header(&first, http::header::ETAG).to_owned();
    assert!(etag.starts_with('"') && etag.len() == 130, "a quoted SHA-512: {etag}");
    assert_eq!(header(&first, http::header::VARY), "Accept");
    assert_eq!(header(&first, http::header::CACHE_CONTROL), "public");

    let cached = get(&env, "/apis", V2, Some(&etag)).await;
    assert_eq!(cached.code, 304);
    assert_eq!(header(&cached, http::header::ETAG), etag);
    let stale = get(&env, "/apis", V2, Some("\"0\"")).await;
    assert_eq!(stale.code, 200);

    let beta = get(&env, "/apis", V2BETA1, None).await;
    assert_eq!(beta.code, 200, "{}", beta.body);
    assert_eq!(header(&beta, http::header::CONTENT_TYPE), V2BETA1);
    assert_eq!(beta.body["apiVersion"], "apidiscovery.k8s.io/v2beta1");
    assert_eq!(header(&beta, http::header::ETAG), etag, "one hash for both versions");
    assert_eq!(beta.body["items"], first.body["items"]);

    // A version the server does not have, or the aggregated document of a group
    // version, is not acceptable; a fallback clause gets the legacy document.
    let unknown = V2.replace("v=v2", "v=v3");
    let refused = get(&env, "/apis", &unknown, None).await;
    assert_eq!(refused.code, 406, "{}", refused.body);
    assert_eq!(refused.body["reason"], "NotAcceptable");
    let fallback = get(&env, "/apis", &format!("{unknown},application/json"), None).await;
    assert_eq!(fallback.code, 200);
    assert_eq!(fallback.body["kind"], "APIGroupList");
    assert_eq!(get(&env, "/api/v1", V2, None).await.code, 406);
    assert_eq!(get(&env, "/apis/apps", V2, None).await.code, 406);
    env.stop().await;
}

#[tokio::test]
async fn a_crds_discovery_is_written_as_apiextensions_writes_it() {
    let env = start().await;
    let custom = CustomType::new(&env, "Discovered", "discovereds", true);
    custom.install(&env).await;
    let group = custom.resource.group.clone();

    let legacy = legacy(&env, &format!("{group}/v1")).await;
    let resource = legacy
        .iter()
        .find(|r| r["name"] == "discovereds")
        .expect("the resource");
    assert_eq!(
        resource["verbs"],
        json!([
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "create",
            "update",
            "watch"
        ])
    );
    let hash = resource["storageVersionHash"].as_str().unwrap_or_default();
    assert_eq!(hash.len(), 12, "eight bytes in base64: {resource}");
    let names: Vec<&str> = legacy.iter().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(names, ["discovereds", "discovereds/status", "discovereds/scale"]);

    if at_least(&env, 30, "aggregated discovery (apidiscovery.k8s.io/v2)").await {
        // A real server publishes a new CRD's group a moment after it is established.
        let found = eventually("the CRD's group in aggregated discovery", || {
            let env = &env;
            let group = group.clone();
            async move {
                let list = get(env, "/apis", V2, None).await;
                list.body["items"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .find(|g| g["metadata"]["name"] == group.as_str())
                    .cloned()
            }
        })
        .await;
        let resource = &found["versions"][0]["resources"][0];
        assert_eq!(
            resource["responseKind"],
            json!({"group": group, "version": "v1", "kind": "Discovered"})
        );
        let subresources = &resource["subresources"];
        assert_eq!(subresources[0]["subresource"], "status");
        assert_eq!(
            subresources[0]["responseKind"],
            json!({"group": group, "version": "v1", "kind": "Discovered"})
        );
        assert_eq!(subresources[1]["subresource"], "scale");
        assert_eq!(
            subresources[1]["responseKind"],
            json!({"group": "autoscaling", "version": "v1", "kind": "Scale"})
        );
    }
    custom.remove(&env).await;
    env.stop().await;
}

#[tokio::test]
async fn legacy_discovery_carries_storage_version_hashes() {
    let env = start().await;
    let core = legacy(&env, "v1").await;
    let hash = |resources: &[Value], name: &str| {
        resources
            .iter()
            .find(|r| r["name"] == name)
            .map_or(Value::Null, |r| r["storageVersionHash"].clone())
    };
    // `discovery.StorageVersionHash("", "v1", "ConfigMap")`, and of what is stored.
    assert_eq!(hash(&core, "configmaps"), "qFsyl6wFWjQ=");
    assert_eq!(hash(&core, "pods"), "xPOwRZ+Yhw8=");
    assert_eq!(hash(&core, "bindings"), Value::Null, "not stored");
    assert_eq!(hash(&core, "pods/status"), Value::Null, "subresources have none");
    assert!(
        core.iter()
            .all(|r| r["name"] != "pods/status" || r["singularName"] == "")
    );
    let events = legacy(&env, "events.k8s.io/v1").await;
    assert_eq!(hash(&events, "events"), "r2yiGXH7wu8=", "stored as core Events");
    env.stop().await;
}
