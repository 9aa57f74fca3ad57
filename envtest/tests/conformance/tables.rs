//! Tables, what `kubectl get` asks for with
//! `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`: the columns kube-apiserver
//! defines for built-in kinds, a CRD's `additionalPrinterColumns`, `includeObject`, and
//! watches whose first event alone carries the column definitions.

use futures::StreamExt;
use http_body_util::BodyExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{CustomType, IMAGE, configmap, deployment, from_json, start};

const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

/// GETs `path` with `accept`; the status and the JSON body.
async fn get(env: &TestEnv, path: &str, accept: &str) -> (u16, Value) {
    let request = http::Request::get(path)
        .header(http::header::ACCEPT, accept)
        .body(kube::client::Body::empty())
        .expect("a request");
    let response = env.client().send(request).await.expect("the server answers");
    let code = response.status().as_u16();
    let body = response.into_body().collect().await.expect("a body").to_bytes();
    (code, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// (name, type, priority) of each column.
fn columns(table: &Value) -> Vec<(String, String, i64)> {
    table["columnDefinitions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or_default().to_owned(),
                c["type"].as_str().unwrap_or_default().to_owned(),
                c["priority"].as_i64().unwrap_or(-1),
            )
        })
        .collect()
}

fn named(columns: &[(&str, &str, i64)]) -> Vec<(String, String, i64)> {
    columns
        .iter()
        .map(|(n, t, p)| ((*n).to_owned(), (*t).to_owned(), *p))
        .collect()
}

/// The row whose first cell is `name`.
fn row<'a>(table: &'a Value, name: &str) -> &'a Value {
    table["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["cells"][0] == name)
        .unwrap_or_else(|| panic!("a row for {name} in {table}"))
}

#[tokio::test]
async fn deployments_print_kube_apiserver_columns() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let containers = json!([{"name": "web", "image": IMAGE}, {"name": "side", "image": "registry.k8s.io/pause:3.9"}]);
    api.create(&PostParams::default(), &deployment("web", 2, &containers))
        .await
        .expect("created");
    let path = format!("/apis/apps/v1/namespaces/{}/deployments", env.namespace());
    let (code, table) = get(&env, &path, TABLE).await;
    assert_eq!(code, 200, "{table}");
    assert_eq!(
        (table["kind"].as_str(), table["apiVersion"].as_str()),
        (Some("Table"), Some("meta.k8s.io/v1"))
    );
    assert_eq!(
        columns(&table),
        named(&[
            ("Name", "string", 0),
            ("Ready", "string", 0),
            ("Up-to-date", "string", 0),
            ("Available", "string", 0),
            ("Age", "string", 0),
            ("Containers", "string", 1),
            ("Images", "string", 1),
            ("Selector", "string", 1),
        ])
    );
    assert_eq!(table["columnDefinitions"][0]["format"], "name");
    let web = row(&table, "web");
    let cells = web["cells"].as_array().expect("cells");
    assert!(cells[1].as_str().is_some_and(|ready| ready.ends_with("/2")), "{web}");
    assert!(cells[4].as_str().is_some_and(|age| !age.is_empty()), "{web}");
    assert_eq!(
        cells[5..],
        [
            json!("web,side"),
            json!(format!("{IMAGE},registry.k8s.io/pause:3.9")),
            json!("app=web")
        ]
    );
    // By default each row carries the object's metadata.
    assert_eq!(web["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(web["object"]["metadata"]["name"], "web");
    env.stop().await;
}

#[tokio::test]
async fn config_maps_count_their_data_and_include_object_chooses_the_row_object() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(
        &PostParams::default(),
        &configmap("three", &[], &[("a", "1"), ("b", "2"), ("c", "3")]),
    )
    .await
    .expect("created");
    let path = format!("/api/v1/namespaces/{}/configmaps/three", env.namespace());
    let (_, table) = get(&env, &path, TABLE).await;
    assert_eq!(
        columns(&table),
        named(&[("Name", "string", 0), ("Data", "string", 0), ("Age", "string", 0)])
    );
    assert_eq!(row(&table, "three")["cells"][1], 3);
    let (_, table) = get(&env, &format!("{path}?includeObject=Object"), TABLE).await;
    assert_eq!(row(&table, "three")["object"]["data"]["b"], "2");
    let (_, table) = get(&env, &format!("{path}?includeObject=None"), TABLE).await;
    assert_eq!(row(&table, "three")["object"], Value::Null);
    let (code, status) = get(&env, &format!("{path}?includeObject=Everything"), TABLE).await;
    assert_eq!((code, status["reason"].as_str()), (400, Some("BadRequest")), "{status}");
    // The older Table version, as kubectl offers it second.
    let (_, table) = get(&env, &path, "application/json;as=Table;v=v1beta1;g=meta.k8s.io").await;
    assert_eq!(table["apiVersion"], "meta.k8s.io/v1beta1");
    // Plain JSON first in the header: plain JSON back.
    let (_, plain) = get(&env, &path, &format!("application/json,{TABLE}")).await;
    assert_eq!(plain["kind"], "ConfigMap");
    env.stop().await;
}

/// A CRD's printer columns, typed as declared; a version without any gets Age.
#[tokio::test]
async fn custom_resources_print_their_printer_columns() {
    let env = start().await;
    let custom = CustomType::new(&env, "Printed", "printeds", true);
    let mut crd = serde_json::to_value(&custom.crd).expect("JSON");
    crd["spec"]["versions"][0]["additionalPrinterColumns"] = json!([
        {"name": "Image", "type": "string", "jsonPath": ".spec.image"},
        {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas", "description": "desired copies"},
        {"name": "Ready", "type": "boolean", "jsonPath": ".status.ready", "priority": 1},
        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
    ]);
    let custom = CustomType {
        crd: from_json(crd),
        ..custom
    };
    custom.install(&env).await;
    let api = custom.namespaced(&env);
    let object = custom.object("p1", &json!({"spec": {"image": "nginx:1", "replicas": 3}}));
    api.create(&PostParams::default(), &object).await.expect("created");
    let path = format!(
        "/apis/{}/v1/namespaces/{}/printeds",
        custom.resource.group,
        env.namespace()
    );
    let (code, table) = get(&env, &path, TABLE).await;
    assert_eq!(code, 200, "{table}");
    assert_eq!(
        columns(&table),
        named(&[
            ("Name", "string", 0),
            ("Image", "string", 0),
            ("Replicas", "integer", 0),
            ("Ready", "boolean", 1),
            ("Age", "date", 0),
        ])
    );
    assert_eq!(table["columnDefinitions"][2]["description"], "desired copies");
    assert_eq!(
        table["columnDefinitions"][1]["description"],
        "Custom resource definition column (in JSONPath format): .spec.image"
    );
    let cells = &row(&table, "p1")["cells"];
    assert_eq!(cells[1], "nginx:1");
    assert_eq!(cells[2], 3);
    assert_eq!(cells[3], Value::Null, "no status yet");
    assert!(cells[4].as_str().is_some_and(|age| age.ends_with('s')), "{cells}");
    custom.remove(&env).await;
    env.stop().await;
}

/// `kubectl get -w`: every event's object is a one-row Table; only the first carries
/// the column definitions.
#[tokio::test]
async fn table_watches_send_the_columns_once() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for name in ["w1", "w2"] {
        api.create(&PostParams::default(), &configmap(name, &[], &[("k", "v")]))
            .await
            .expect("created");
    }
    let path = format!(
        "/api/v1/namespaces/{}/configmaps?watch=true&timeoutSeconds=5",
        env.namespace()
    );
    let request = http::Request::get(path)
        .header(http::header::ACCEPT, TABLE)
        .body(kube::client::Body::empty())
        .expect("a request");
    let response = env.client().send(request).await.expect("the server answers");
    let mut body = response.into_body().into_data_stream();
    let mut buffer = Vec::new();
    let mut events: Vec<Value> = Vec::new();
    while events.len() < 2 {
        let chunk = tokio::time::timeout(crate::common::TIMEOUT, body.next())
            .await
            .expect("the watch sends its initial events")
            .expect("the watch is open")
            .expect("a chunk");
        buffer.extend_from_slice(&chunk);
        while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buffer.drain(..=end).collect();
            events.push(serde_json::from_slice(&line).expect("a JSON event"));
        }
    }
    let tables: Vec<&Value> = events.iter().map(|e| &e["object"]).collect();
    assert!(tables.iter().all(|t| t["kind"] == "Table"), "{events:?}");
    assert_eq!(columns(tables[0]).len(), 3, "{}", tables[0]);
    assert!(columns(tables[1]).is_empty(), "{}", tables[1]);
    // A watch's initial events come in no promised order (kube-apiserver's watch cache
    // sends them from a hash map).
    let mut names: Vec<String> = tables.iter().map(|t| t["rows"][0]["cells"][0].to_string()).collect();
    names.sort();
    assert_eq!(names, [json!("w1").to_string(), json!("w2").to_string()]);
    env.stop().await;
}
