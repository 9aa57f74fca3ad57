//! The WebApp's two versions through an API server: `v1` stored, `v1alpha1` converted by
//! the operator's own webhook server (`/convert`, beside its admission webhooks, on one
//! port), so a WebApp written in one version reads in the other; what `v1alpha1`
//! cannot hold (the status conditions) is not carried through it, but left to the
//! operator to compute again (never taken from an annotation a client writes). On the
//! embedded server, or with `USE_EXISTING_CLUSTER=true` a real one on this machine,
//! which calls the webhook at 127.0.0.1.

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use wheelhouse_envtest::{TestEnv, eventually};
use wheelhouse_examples::webapp::{self, WebApp, WebAppSpec, v1alpha1, webhooks};
use wheelhouse_manager::Manager;

/// Takes the conversion webhook out of the WebApp CRD (strategy None), so the tests
/// that run after this one on the same cluster, whose server is gone, still read and
/// write WebApps. The CRD itself stays: deleting it would wait for every WebApp of every
/// namespace, finalizers included.
async fn stop_converting(client: &kube::Client) {
    let none = json!({"spec": {"conversion": {"strategy": "None", "webhook": null}}});
    Api::<CustomResourceDefinition>::all(client.clone())
        .patch("webapps.example.com", &PatchParams::default(), &Patch::Merge(&none))
        .await
        .expect("take the conversion webhook out of the CRD");
}

/// Labels the test's namespace, serves the WebApp's webhooks and conversions from a
/// manager, registers them and installs the two-version CRD that calls them.
async fn serve_converting(
    env: &TestEnv,
) -> (
    wheelhouse::webhook::Configurations,
    CancellationToken,
    tokio::task::JoinHandle<Result<(), wheelhouse_manager::Error>>,
) {
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    let key = "wheelhouse.rs/conversion-test";
    let labels = json!({"metadata": {"labels": {key: namespace}}});
    Api::<Namespace>::all(client.clone())
        .patch(&namespace, &PatchParams::default(), &Patch::Merge(&labels))
        .await
        .expect("label the namespace");
    let selector = LabelSelector {
        match_labels: Some(BTreeMap::from([(key.to_owned(), namespace.clone())])),
        ..LabelSelector::default()
    };
    let (server, configurations, crd) =
        webhooks::serve_locally_converting(&client, &format!("{namespace}-conversion"), Some(selector))
            .await
            .expect("the webhooks register");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(client.clone())
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    manager.add(server).expect("add the webhook server");
    let running = tokio::spawn(manager.run());
    env.install_crd(&crd).await.expect("the two-version CRD installs");
    (configurations, shutdown, running)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webapp_reads_and_writes_in_both_versions_through_our_conversion_webhook() {
    let env = TestEnv::start().await.expect("a test environment");
    if !env.is_embedded() {
        let config = env
            .config_for("wheelhouse-loopback-probe")
            .expect("the environment's configuration");
        let host = config.cluster_url.host().unwrap_or_default().to_owned();
        if !matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]") {
            eprintln!("skipped: the API server at {host} cannot call a webhook on this machine's 127.0.0.1");
            env.stop().await;
            return;
        }
    }
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    // The admission configurations are cluster-wide: they see only this namespace.
    let (configurations, shutdown, running) = serve_converting(&env).await;

    let current: Api<WebApp> = Api::namespaced(client.clone(), &namespace);
    let older: Api<v1alpha1::WebApp> = Api::namespaced(client.clone(), &namespace);
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: Some(8080),
    };
    current
        .create(&PostParams::default(), &WebApp::new("shop", spec))
        .await
        .expect("create in v1");
    // A real server takes a CRD's conversion into account asynchronously.
    let read = eventually("v1alpha1 reads to be converted", || async {
        older
            .get("shop")
            .await
            .ok()
            .filter(|old| old.spec.container_port.is_some())
    })
    .await;
    assert_eq!(
        read.spec.container_port,
        Some(8080),
        "v1's port is v1alpha1's containerPort"
    );
    assert_eq!(read.spec.image, "nginx:1.27");

    // v1's conditions, which v1alpha1 has no field for, are not carried through an
    // update made in it: the operator (not running here) computes them again.
    let status = json!({"status": {"phase": "Ready", "conditions": [{
        "type": "Ready", "status": "True", "reason": "Available", "message": "2 of 2 pods",
        "lastTransitionTime": "2026-01-01T00:00:00Z",
    }]}});
    current
        .patch_status("shop", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .expect("set v1's status");
    let mut old = older.get("shop").await.expect("read as v1alpha1");
    old.spec.image = "nginx:1.28".into();
    older
        .replace("shop", &PostParams::default(), &old)
        .await
        .expect("update through v1alpha1");
    let now = current.get("shop").await.expect("read as v1");
    assert_eq!(now.spec.image, "nginx:1.28");
    assert_eq!(now.spec.port, Some(8080));
    let conditions = now
        .status
        .clone()
        .and_then(|status| status.conditions)
        .unwrap_or_default();
    assert!(
        conditions.is_empty(),
        "the conditions v1alpha1 cannot hold are left to the operator: {conditions:?}"
    );
    assert_eq!(
        now.status.and_then(|s| s.phase),
        Some(webapp::Phase::Ready),
        "the rest of the status stays"
    );

    // Written in v1alpha1, read in v1.
    let mut second = v1alpha1::WebApp::new(
        "cart",
        v1alpha1::WebAppSpec {
            image: "nginx:1.27".into(),
            replicas: None,
            container_port: Some(9090),
        },
    );
    second.metadata.namespace = Some(namespace.clone());
    older
        .create(&PostParams::default(), &second)
        .await
        .expect("create in v1alpha1");
    let cart = current.get("cart").await.expect("read as v1");
    assert_eq!(cart.spec.port, Some(9090));

    configurations.delete(&client).await.expect("remove the configurations");
    stop_converting(&client).await;
    shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(30), running)
        .await
        .expect("the manager stops")
        .expect("the manager's task")
        .expect("the manager ran");
    let _ = webapp::Phase::Ready;
    env.stop().await;
}
