//! `APIServices` as kube-apiserver's availability controllers keep them: one served
//! by the API server itself is `Available` (`Local`); one that names a Service says in
//! its `Available` condition what is missing (the Service, its port, its Endpoints,
//! addresses for the port), in kube-aggregator's words, as the Service and Endpoints
//! change.

use serde_json::{Value, json};

use crate::common::{eventually, start};
use crate::schema_common::server_minor;
use crate::validation_core::{Body, assert_ok, create, request};

/// The `Available` condition of the `APIService` `name` once it is (status, reason,
/// message).
async fn availability_becomes(client: &kube::Client, name: &str, expected: (&str, &str, &str)) {
    eventually(&format!("{name} to be {expected:?}"), || async {
        let answer = get_apiservice(client, name).await;
        let conditions = answer.body["status"]["conditions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let available = conditions.iter().find(|c| c["type"] == "Available")?;
        let text = |key: &str| available[key].as_str().unwrap_or_default().to_owned();
        let found = (text("status"), text("reason"), text("message"));
        (found.0 == expected.0 && found.1 == expected.1 && found.2 == expected.2).then_some(())
    })
    .await;
}

/// The path of the `APIService` `name`.
fn apiservice_path(name: &str) -> String {
    format!("{APISERVICES}/{name}")
}

const APISERVICES: &str = "/apis/apiregistration.k8s.io/v1/apiservices";

/// The `APIService` `name` as the server answers a GET of it.
async fn get_apiservice(client: &kube::Client, name: &str) -> crate::raw::Answer {
    request(client, http::Method::GET, &apiservice_path(name), Body::None).await
}

/// Deletes the cluster-scoped object at `path` when the environment stops (a failing
/// test's too), so nothing is left on a shared server.
fn delete_on_stop(env: &wheelhouse_envtest::TestEnv, path: String) {
    env.on_stop(move |client| async move {
        let _ = request(&client, http::Method::DELETE, &path, Body::None).await;
    });
}

/// An `APIService`; one with a service skips TLS verification (a local one may not).
fn apiservice(name: &str, group: &str, service: &Value) -> Value {
    json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": {"name": name},
        "spec": {"group": group, "version": "v1", "groupPriorityMinimum": 1000, "versionPriority": 15,
                 "insecureSkipTLSVerify": !service.is_null(), "service": service}})
}

#[tokio::test]
async fn apiservices_say_why_they_are_unavailable() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let group = format!("{namespace}.example.com");
    let remote = format!("v1.{group}");
    let local_group = format!("local-{namespace}.example.com");
    let local = format!("v1.{local_group}");
    // Cluster-wide: they go with the environment, a failing test's too.
    for name in [&remote, &local] {
        delete_on_stop(&env, apiservice_path(name));
    }
    let service = json!({"name": "api", "namespace": namespace});
    assert_ok(&create(&client, APISERVICES, apiservice(&remote, &group, &service)).await);
    let quoted = format!("{namespace:?}");
    availability_becomes(
        &client,
        &remote,
        (
            "False",
            "ServiceNotFound",
            &format!("service/api in {quoted} is not present"),
        ),
    )
    .await;
    let services = format!("/api/v1/namespaces/{namespace}/services");
    let on_port = |port: i64| {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "api"},
        "spec": {"ports": [{"name": "https", "port": port}]}})
    };
    assert_ok(&create(&client, &services, on_port(80)).await);
    availability_becomes(
        &client,
        &remote,
        (
            "False",
            "ServicePortError",
            &format!("service/api in {quoted} is not listening on port 443"),
        ),
    )
    .await;
    let moved = request(
        &client,
        http::Method::PATCH,
        &format!("{services}/api"),
        Body::Merge(json!({"spec": {"ports": [{"name": "https", "port": 443}]}})),
    )
    .await;
    assert_ok(&moved);
    // A Service without a selector gets no Endpoints from the endpoints controller.
    availability_becomes(
        &client,
        &remote,
        (
            "False",
            "EndpointsNotFound",
            &format!("cannot find endpoints for service/api in {quoted}"),
        ),
    )
    .await;
    let endpoints = json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "api"},
        "subsets": [{"notReadyAddresses": [{"ip": "10.1.2.3"}], "ports": [{"name": "https", "port": 8443}]}]});
    assert_ok(&create(&client, &format!("/api/v1/namespaces/{namespace}/endpoints"), endpoints).await);
    availability_becomes(
        &client,
        &remote,
        (
            "False",
            "MissingEndpoints",
            &format!("endpoints for service/api in {quoted} have no addresses with port name \"https\""),
        ),
    )
    .await;
    assert_ok(&create(&client, APISERVICES, apiservice(&local, &local_group, &Value::Null)).await);
    availability_becomes(
        &client,
        &local,
        ("True", "Local", "Local APIServices are always available"),
    )
    .await;
    env.stop().await;
}

/// The group versions kube-apiserver serves itself have local `APIService`s it
/// registered on start, available, and a local one is available as it is created.
#[tokio::test]
async fn served_group_versions_have_local_apiservices() {
    let env = start().await;
    let client = env.client();
    let mut served = vec![("v1.", 18000, 1), ("v1.apps", 17800, 15)];
    // autoscaling/v2 is served from 1.23 on.
    if server_minor(&env).await >= 23 {
        served.push(("v2.autoscaling", 17500, 30));
    }
    for (name, group_priority, version_priority) in served {
        let api = get_apiservice(&client, name).await;
        assert_ok(&api);
        assert_eq!(
            api.body["metadata"]["labels"]["kube-aggregator.kubernetes.io/automanaged"],
            "onstart"
        );
        assert_eq!(api.body["spec"]["groupPriorityMinimum"], group_priority, "{name}");
        assert_eq!(api.body["spec"]["versionPriority"], version_priority, "{name}");
        assert!(api.body["spec"]["service"].is_null());
        availability_becomes(
            &client,
            name,
            ("True", "Local", "Local APIServices are always available"),
        )
        .await;
    }
    // A local APIService is available as it is created (the strategy says so).
    let local = format!("v1.local-{}.example.com", env.namespace());
    delete_on_stop(&env, apiservice_path(&local));
    let created = create(
        &client,
        APISERVICES,
        apiservice(&local, &format!("local-{}.example.com", env.namespace()), &Value::Null),
    )
    .await;
    assert_ok(&created);
    assert_eq!(
        created.body["status"]["conditions"][0]["reason"], "Local",
        "{}",
        created.body
    );
    env.stop().await;
}

/// A CRD's served versions get local `APIService`s while a CRD serves them (the CRD
/// registration controller), with its priorities and its label.
#[tokio::test]
async fn crd_versions_have_local_apiservices() {
    let env = start().await;
    let client = env.client();
    let group = format!("{}.example.com", env.namespace());
    let crd = format!("things.{group}");
    let version = |name: &str, served: bool| {
        json!({"name": name, "served": served, "storage": name == "v1",
        "schema": {"openAPIV3Schema": {"type": "object"}}})
    };
    let definition = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": crd}, "spec": {"group": group, "scope": "Namespaced",
            "names": {"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
            "versions": [version("v1", true), version("v2", false)]}});
    let crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    let crd_path = format!("{crds}/{crd}");
    delete_on_stop(&env, crd_path.clone());
    assert_ok(&create(&client, crds, definition).await);
    let registered = eventually("the CRD's APIService", || async {
        let api = get_apiservice(&client, &format!("v1.{group}")).await;
        (api.code == 200).then_some(api.body)
    })
    .await;
    assert_eq!(
        registered["metadata"]["labels"]["kube-aggregator.kubernetes.io/automanaged"],
        "true"
    );
    assert_eq!(
        (
            &registered["spec"]["groupPriorityMinimum"],
            &registered["spec"]["versionPriority"]
        ),
        (&json!(1000), &json!(100))
    );
    availability_becomes(
        &client,
        &format!("v1.{group}"),
        ("True", "Local", "Local APIServices are always available"),
    )
    .await;
    // A version the CRD does not serve has none.
    let unserved = get_apiservice(&client, &format!("v2.{group}")).await;
    assert_eq!(unserved.code, 404);
    assert_ok(&request(&client, http::Method::DELETE, &crd_path, Body::None).await);
    eventually("the CRD's APIService to go", || async {
        let api = get_apiservice(&client, &format!("v1.{group}")).await;
        (api.code == 404).then_some(())
    })
    .await;
    env.stop().await;
}
