//! `deploy/` is what the code and the operator's behaviour say it should be: the CRD is
//! the one the code generates, the RBAC is generated from what the operator's client
//! sends over a whole WebApp lifecycle (least privilege), and the Deployment runs the
//! operator as an operator should run.

mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use kube::CustomResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::Value;
use support::rbac;
use webapp::{Phase, WebApp, WebAppSpec};
use wheelhouse::manager::{CancellationToken, LeaderElection, Manager};
use wheelhouse_envtest::{Rbac, ServerOptions, TestEnv, WorkloadSimulation, eventually};
use wheelhouse_examples::webapp;
use wheelhouse_examples::webapp::webhooks;

/// The checked-in manifests, parsed (one YAML document each).
fn manifests(file: &str) -> Vec<Value> {
    let path = format!("{}/deploy/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_saphyr::from_multiple::<Value>(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .into_iter()
        .filter(|document| !document.is_null())
        .collect()
}

fn of_kind<'a>(documents: &'a [Value], kind: &str) -> Vec<&'a Value> {
    documents.iter().filter(|d| d["kind"] == kind).collect()
}

#[test]
fn the_crd_in_deploy_is_what_the_code_generates() {
    let crd = webhooks::deploy_crd().expect("the CRD of both versions");
    let generated = format!(
        "# Generated from webhooks::deploy_crd() (examples/src/webapp/webhooks.rs): v1 stored, v1alpha1 converted by the webhook Service's /convert; `cargo test --test deploy` checks it and rewrites it when stale.\n{}",
        serde_saphyr::to_string(&crd).expect("the CRD as YAML")
    );
    let path = format!("{}/deploy/crd.yaml", env!("CARGO_MANIFEST_DIR"));
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != generated {
        std::fs::write(&path, &generated).expect("rewrite deploy/crd.yaml");
        panic!("deploy/crd.yaml was stale; it has been regenerated: review and commit it");
    }
}

/// The namespace and `ServiceAccount` `deploy/operator.yaml` runs the operator as.
const NAMESPACE: &str = "webapp-system";
const ACCOUNT: &str = "webapp-operator";

/// Runs the WebApp operator (manager, leader election in its own namespace, controller)
/// through a whole lifecycle of a WebApp in the test's namespace on the embedded server,
/// and returns the rules for what its own client sent, the test's namespace standing
/// for any namespace.
async fn what_the_operator_sends(env: &TestEnv) -> Rbac {
    let server = env.server().expect("the embedded server");
    let namespace: Namespace =
        serde_json::from_value(serde_json::json!({"metadata": {"name": NAMESPACE}})).expect("a Namespace");
    Api::<Namespace>::all(env.client())
        .create(&PostParams::default(), &namespace)
        .await
        .expect("the operator's namespace");
    let client = kube::Client::new(server.as_user(ACCOUNT), NAMESPACE);
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(client)
        .leader_election(LeaderElection::new("webapp-operator").namespace(NAMESPACE))
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    manager
        .add(webapp::controller(manager.cache(), None, None))
        .expect("add the controller");
    let (webhook_server, configurations) = webhooks::serve_locally(&env.client(), "rbac-test", None)
        .await
        .expect("the webhooks");
    manager.add(webhook_server).expect("add the webhooks");
    let running = tokio::spawn(manager.run());

    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: None,
    };
    webapps
        .create(&PostParams::default(), &WebApp::new("web", spec))
        .await
        .expect("create");
    let ready = |replicas: i32| {
        let webapps = webapps.clone();
        async move {
            let status = webapps.get("web").await.ok()?.status?;
            (status.phase == Some(Phase::Ready) && status.available_replicas == Some(replicas)).then_some(())
        }
    };
    eventually("Ready with 2 replicas", || ready(2)).await;
    let patch = serde_json::json!({"spec": {"replicas": 3}});
    webapps
        .patch("web", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("scale");
    eventually("Ready with 3 replicas", || ready(3)).await;
    webapps.delete("web", &DeleteParams::default()).await.expect("delete");
    eventually("the WebApp is gone", || async {
        webapps.get_opt("web").await.ok()?.is_none().then_some(())
    })
    .await;
    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");
    configurations
        .delete(&env.client())
        .await
        .expect("delete the webhook configurations");

    // The event recorder patches an Event it sends again within its aggregation
    // window, which one clean lifecycle does not do.
    server
        .rbac_for(ACCOUNT)
        .cluster_wide(env.namespace())
        .grant("events.k8s.io", "events", &["patch"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rbac_in_deploy_is_what_the_operator_sends_over_a_lifecycle() {
    let backend = wheelhouse_envtest::Backend::from_environment();
    if backend != wheelhouse_envtest::Backend::Embedded {
        eprintln!(
            "skipped: the rules come from the embedded server's records of who sent what, which {} does not keep",
            backend.describe()
        );
        return;
    }
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await.expect("a test environment");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let rbac = what_the_operator_sends(&env).await;
    env.stop().await;
    let generated = rbac::manifest(
        &rbac,
        ACCOUNT,
        NAMESPACE,
        &[
            "The WebApp operator's identity and permissions. Generated by tests/deploy.rs from what the",
            "operator's client sent over a WebApp's whole life on the embedded API server (WebApps in",
            "any namespace: cluster-wide; its leader-election Lease: a Role in its own namespace).",
            "The test fails when they drift; WHEELHOUSE_REGENERATE=1 cargo test --test deploy rewrites it.",
        ],
    );
    let documents: Vec<Value> = serde_saphyr::from_multiple(&generated).expect("the manifest is YAML");
    let deploy = manifests("operator.yaml");
    let deployment = of_kind(&deploy, "Deployment")[0];
    assert_eq!(deployment["metadata"]["namespace"], NAMESPACE);
    assert_eq!(deployment["spec"]["template"]["spec"]["serviceAccountName"], ACCOUNT);
    assert!(!of_kind(&documents, "ClusterRole").is_empty(), "{generated}");
    rbac::check_or_regenerate("rbac.yaml", &generated);
}

#[test]
fn the_deployment_runs_three_replicas_safely() {
    let documents = manifests("operator.yaml");
    let deployment = of_kind(&documents, "Deployment")[0];
    let spec = &deployment["spec"];
    assert_eq!(spec["replicas"], 3);
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["serviceAccountName"], "webapp-operator");
    let container = &pod["containers"][0];
    let args: Vec<&str> = container["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(args.contains(&"--leader-elect"), "{args:?}");
    assert!(args.contains(&"--cluster"), "{args:?}");
    assert!(args.contains(&"--enable-webhooks"), "{args:?}");
    assert_eq!(container["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(container["readinessProbe"]["httpGet"]["path"], "/readyz");
    assert_eq!(container["livenessProbe"]["httpGet"]["port"], "health");
    assert!(container["resources"]["requests"].is_object() && container["resources"]["limits"].is_object());
    let security = &container["securityContext"];
    assert_eq!(security["readOnlyRootFilesystem"], true);
    assert_eq!(security["allowPrivilegeEscalation"], false);
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(security["capabilities"]["drop"][0], "ALL");
    let mounts = container["volumeMounts"].as_array().expect("mounts");
    assert!(
        mounts
            .iter()
            .any(|m| m["mountPath"] == "/tmp/k8s-webhook-server/serving-certs" && m["readOnly"] == true),
        "the webhook certificate is mounted where --cert-dir looks: {mounts:?}"
    );
    let service = of_kind(&documents, "Service")
        .into_iter()
        .find(|s| s["metadata"]["name"] == webhooks::SERVICE)
        .expect("the webhook Service");
    assert_eq!(service["metadata"]["namespace"], webhooks::NAMESPACE);
    assert_eq!(service["spec"]["ports"][0]["port"], 443);
}
