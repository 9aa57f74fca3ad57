//! `deploy/` is what the code and the operator's behaviour say it should be: the CRD is
//! the one the code generates, the RBAC grants exactly what the operator's client
//! sends over a whole WebApp lifecycle (least privilege), and the Deployment runs the
//! operator as an operator should run.

#[path = "../examples/webapp/operator.rs"]
mod operator;
#[path = "../examples/webapp/webhooks.rs"]
#[allow(dead_code, reason = "the test uses the webhook server, not all of the module")]
mod webhooks;

use std::collections::BTreeSet;
use std::time::Duration;

use kube::CustomResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use operator::{Phase, WebApp, WebAppSpec};
use serde_json::Value;
use wheelhouse::manager::{CancellationToken, LeaderElection, Manager};
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation, eventually};

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
    let generated = format!(
        "# Generated from WebApp::crd() (examples/webapp/operator.rs); `cargo test --test deploy` checks it and rewrites it when stale.\n{}",
        serde_saphyr::to_string(&WebApp::crd()).expect("the CRD as YAML")
    );
    let path = format!("{}/deploy/crd.yaml", env!("CARGO_MANIFEST_DIR"));
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != generated {
        std::fs::write(&path, &generated).expect("rewrite deploy/crd.yaml");
        panic!("deploy/crd.yaml was stale; it has been regenerated: review and commit it");
    }
}

/// One permission as RBAC checks it: verb, API group, resource (with `/subresource`).
type Permission = (String, String, String);

/// What the `ClusterRole` and `Role` in `deploy/rbac.yaml` grant, ignoring namespaces.
fn granted() -> BTreeSet<Permission> {
    let documents = manifests("rbac.yaml");
    let mut granted = BTreeSet::new();
    for role in of_kind(&documents, "ClusterRole")
        .into_iter()
        .chain(of_kind(&documents, "Role"))
    {
        for rule in role["rules"].as_array().expect("rules") {
            let strings = |field: &str| -> Vec<String> {
                rule[field]
                    .as_array()
                    .unwrap_or_else(|| panic!("a rule without {field}: {rule}"))
                    .iter()
                    .map(|v| v.as_str().expect("a string").to_owned())
                    .collect()
            };
            for group in strings("apiGroups") {
                for resource in strings("resources") {
                    for verb in strings("verbs") {
                        assert_ne!(verb, "*", "no wildcard verbs: {rule}");
                        assert_ne!(resource, "*", "no wildcard resources: {rule}");
                        granted.insert((verb, group.clone(), resource.clone()));
                    }
                }
            }
        }
    }
    granted
}

/// Runs the WebApp operator (manager, leader election, controller) through a whole
/// lifecycle on the embedded server, and returns what its own client sent.
async fn what_the_operator_sends(env: &TestEnv) -> BTreeSet<Permission> {
    let server = env.server().expect("the embedded server");
    let client = kube::Client::new(server.as_user("webapp-operator"), env.namespace().to_owned());
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(client)
        .leader_election(LeaderElection::new("webapp-operator").namespace(env.namespace()))
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    manager
        .add(operator::controller(manager.cache(), None, None))
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

    server
        .requests()
        .into_iter()
        .filter(|r| r.user.as_deref() == Some("webapp-operator"))
        .map(|r| {
            let resource = match &r.subresource {
                Some(sub) => format!("{}/{sub}", r.resource),
                None => r.resource.clone(),
            };
            (r.verb.as_str().to_owned(), r.group, resource)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rbac_in_deploy_grants_exactly_what_the_operator_sends() {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    if wheelhouse_envtest::use_existing_cluster() {
        eprintln!(
            "skipped: telling the operator's requests from the test's needs the embedded server's request records"
        );
        return;
    }
    let env = TestEnv::embedded_with(options).await.expect("a test environment");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let sent = what_the_operator_sends(&env).await;
    let granted = granted();
    let missing: Vec<_> = sent.difference(&granted).collect();
    assert!(
        missing.is_empty(),
        "deploy/rbac.yaml does not grant what the operator sent: {missing:?}"
    );
    // Granted but never sent: only the other half of a list/watch pair, and Events
    // (the operator records them only on some paths).
    let unused: Vec<_> = granted
        .difference(&sent)
        .filter(|(verb, group, resource)| {
            let pair = match verb.as_str() {
                "list" => "watch",
                "watch" => "list",
                _ => "",
            };
            let paired = sent.contains(&(pair.to_owned(), group.clone(), resource.clone()));
            let events = resource == "events" && (group == "events.k8s.io" || group.is_empty());
            !paired && !events
        })
        .collect();
    assert!(
        unused.is_empty(),
        "deploy/rbac.yaml grants what the operator never sent: {unused:?}"
    );
    env.stop().await;
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
