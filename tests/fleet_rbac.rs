//! The RBAC of the WebApp operator run as a fleet controller, generated from evidence
//! as `deploy/rbac.yaml` is: the operator runs on a home cluster (leader election, the
//! members' kubeconfig Secrets read there) over two member clusters, through a whole
//! WebApp life in each member, every request attributed to the operator's account;
//! what it sent to the home cluster is `deploy/fleet-home-rbac.yaml` (the Secrets and
//! the Lease, in its own namespace), and what it sent to the members is
//! `deploy/fleet-member-rbac.yaml` (the controller's own rules, bound in each member).

mod support;

use std::time::Duration;

use k8s_openapi::api::core::v1::{Namespace, Secret};
use kube::CustomResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use support::rbac;
use wheelhouse::manager::fleet::KubeconfigSecrets;
use wheelhouse::manager::{CancellationToken, LeaderElection, Manager};
use wheelhouse_envtest::{Rbac, ServerOptions, TestEnv, WorkloadSimulation, eventually};
use wheelhouse_examples::webapp::{self, Phase, WebApp, WebAppReconciler, WebAppSpec};

/// The operator's namespace on the home cluster (its Lease, the members' Secrets) and
/// in each member (its `ServiceAccount` there).
const NAMESPACE: &str = "webapp-system";
/// The operator's account, in the home cluster and in the members.
const ACCOUNT: &str = "webapp-fleet-operator";

/// A member: an embedded server with WebApps, served on loopback so a kubeconfig
/// reaches it; the kubeconfig authenticates as the operator's account.
async fn member() -> (TestEnv, String) {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    let mut env = TestEnv::embedded_with(options).await.expect("a member starts");
    env.serve_http(([127, 0, 0, 1], 0).into())
        .await
        .expect("served on loopback");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let config = env.config_for(ACCOUNT).expect("the member's address");
    let kubeconfig = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: member\n  cluster:\n    server: {}\nusers:\n- name: {ACCOUNT}\n  user:\n    token: {ACCOUNT}\ncontexts:\n- name: member\n  context:\n    cluster: member\n    user: {ACCOUNT}\ncurrent-context: member\n",
        config.cluster_url
    );
    (env, kubeconfig)
}

/// A WebApp's whole life in `member`: created, Ready, scaled, deleted.
async fn lifecycle(member: &TestEnv) {
    let webapps: Api<WebApp> = Api::namespaced(member.client(), member.namespace());
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
    let patch = json!({"spec": {"replicas": 3}});
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
}

/// What the operator's account sent to `env`, the test's namespace standing for any.
fn sent(env: &TestEnv) -> Rbac {
    env.server()
        .expect("the embedded server")
        .rbac_for(ACCOUNT)
        .cluster_wide(env.namespace())
}

/// What it sent to a member, where its reconciles record Events.
fn sent_to_member(env: &TestEnv) -> Rbac {
    // The event recorder patches an Event it sends again within its aggregation
    // window, which one clean lifecycle does not do.
    sent(env).grant("events.k8s.io", "events", &["patch"])
}

fn rules_of(manifest: &str, kind: &str) -> Vec<Value> {
    serde_saphyr::from_multiple::<Value>(manifest)
        .expect("the manifest is YAML")
        .into_iter()
        .filter(|document| document["kind"] == kind)
        .flat_map(|document| document["rules"].as_array().cloned().unwrap_or_default())
        .collect()
}

fn grants(rules: &[Value], resource: &str, verb: &str) -> bool {
    rules.iter().any(|rule| {
        let has = |field: &str, value: &str| rule[field].as_array().is_some_and(|v| v.iter().any(|x| x == value));
        has("resources", resource) && has("verbs", verb)
    })
}

/// What the operator sent to the members, which must be the same for each.
fn asked_of_every_member(members: &[(TestEnv, String)]) -> Rbac {
    let mut member_rbac = sent_to_member(&members[0].0);
    for (member, _) in &members[1..] {
        let rbac = sent_to_member(member);
        assert_eq!(
            rbac.cluster_rules(),
            member_rbac.cluster_rules(),
            "the members are asked the same"
        );
        member_rbac = rbac;
    }
    member_rbac
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_rbac_in_deploy_is_what_the_operator_sends_to_its_home_and_members() {
    let backend = wheelhouse_envtest::Backend::from_environment();
    if backend != wheelhouse_envtest::Backend::Embedded {
        eprintln!(
            "skipped: the rules come from the embedded server's records of who sent what, which {} does not keep",
            backend.describe()
        );
        return;
    }
    let home = TestEnv::embedded().await.expect("the home cluster starts");
    let namespace: Namespace = serde_json::from_value(json!({"metadata": {"name": NAMESPACE}})).expect("a Namespace");
    Api::<Namespace>::all(home.client())
        .create(&PostParams::default(), &namespace)
        .await
        .expect("the operator's namespace");
    let members = [member().await, member().await];
    let secrets: Api<Secret> = Api::namespaced(home.client(), NAMESPACE);
    for (index, (_, kubeconfig)) in members.iter().enumerate() {
        let secret: Secret = serde_json::from_value(json!({
            "metadata": {"name": format!("member-{index}-kubeconfig")},
            "stringData": {"value": kubeconfig},
        }))
        .expect("a Secret");
        secrets
            .create(&PostParams::default(), &secret)
            .await
            .expect("the member's kubeconfig Secret");
    }

    let server = home.server().expect("the embedded server");
    let client = kube::Client::new(server.as_user(ACCOUNT), NAMESPACE);
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(client)
        .leader_election(LeaderElection::new("webapp-fleet-operator").namespace(NAMESPACE))
        .shutdown_signal(shutdown.clone())
        .metrics_address(None)
        .health_probe_address(None)
        .build()
        .expect("a manager");
    let provider = KubeconfigSecrets::new(manager.cache(), NAMESPACE);
    let controller = webapp::builder(manager.cache(), None)
        .fleet(provider)
        .build(WebAppReconciler::new());
    let view = controller.view();
    manager.add(controller).expect("add the fleet controller");
    let running = tokio::spawn(manager.run());
    tokio::time::timeout(Duration::from_mins(1), view.wait_for(|names| names.len() == 2))
        .await
        .expect("both members engaged within 60 s");
    for (member, _) in &members {
        lifecycle(member).await;
    }
    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");

    let home_rbac = sent(&home);
    let home_manifest = rbac::manifest(
        &home_rbac,
        ACCOUNT,
        NAMESPACE,
        &[
            "The WebApp fleet operator on its home cluster. Generated by tests/fleet_rbac.rs from what",
            "the operator's client sent to the home cluster while it ran the WebApp controller over",
            "two members: its leader-election Lease and the members' kubeconfig Secrets, both in its",
            "own namespace. A sharded ring also deletes the Leases of members that left or died.",
            "The test fails when they drift; WHEELHOUSE_REGENERATE=1 cargo test --test fleet_rbac rewrites it.",
        ],
    );
    let home_rules = rules_of(&home_manifest, "Role");
    assert!(grants(&home_rules, "secrets", "watch"), "{home_manifest}");
    assert!(grants(&home_rules, "leases", "patch"), "{home_manifest}");
    assert!(
        rules_of(&home_manifest, "ClusterRole").is_empty(),
        "nothing cluster-wide on the home cluster: {home_manifest}"
    );

    let member_rbac = asked_of_every_member(&members);
    let member_manifest = rbac::manifest(
        &member_rbac,
        ACCOUNT,
        NAMESPACE,
        &[
            "The WebApp fleet operator in each member cluster: the WebApp controller's own rules.",
            "Generated by tests/fleet_rbac.rs from what the operator's client sent to two members over",
            "a WebApp's whole life in each; apply it in every member and put a kubeconfig of this",
            "ServiceAccount in the home cluster's <member>-kubeconfig Secret.",
            "The test fails when they drift; WHEELHOUSE_REGENERATE=1 cargo test --test fleet_rbac rewrites it.",
        ],
    );
    let member_rules = rules_of(&member_manifest, "ClusterRole");
    assert!(grants(&member_rules, "webapps", "watch"), "{member_manifest}");
    assert!(grants(&member_rules, "deployments", "patch"), "{member_manifest}");
    assert!(!grants(&member_rules, "secrets", "list"), "{member_manifest}");
    for (member, _) in members {
        member.stop().await;
    }
    home.stop().await;
    rbac::check_or_regenerate("fleet-home-rbac.yaml", &home_manifest);
    rbac::check_or_regenerate("fleet-member-rbac.yaml", &member_manifest);
}
