//! `deploy/`'s monitoring is what a running operator needs and serves: the rules of
//! `metrics-auth.yaml` let the operator review scrapes and a reader scrape, the
//! `ServiceMonitor` scrapes the port and scheme the Deployment serves, and every metric
//! the Grafana dashboard queries is in a running manager's `/metrics`.

use std::collections::BTreeSet;
use std::net::SocketAddr;

use k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, ResourceAttributes, SubjectAccessReview, SubjectAccessReviewSpec,
};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use kube::api::{Api, PostParams};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use webapp::{WebApp, WebAppSpec};
use wheelhouse::manager::{CancellationToken, LeaderElection, Manager};
use wheelhouse_envtest::TestEnv;
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

fn named<'a>(documents: &'a [Value], kind: &str, name: &str) -> &'a Value {
    documents
        .iter()
        .find(|d| d["kind"] == kind && d["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name}"))
}

async fn allowed(client: &kube::Client, user: &str, groups: &[&str], spec: SubjectAccessReviewSpec) -> bool {
    let review = SubjectAccessReview {
        spec: SubjectAccessReviewSpec {
            user: Some(user.to_owned()),
            groups: Some(groups.iter().map(|g| (*g).to_owned()).collect()),
            ..spec
        },
        ..SubjectAccessReview::default()
    };
    let answer = Api::<SubjectAccessReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await
        .expect("a SubjectAccessReview");
    answer.status.expect("a status").allowed
}

/// Embedded only: the manifests' cluster-wide names are those of a real deployment,
/// which a test must not overwrite on a shared cluster.
#[tokio::test]
async fn metrics_auth_lets_the_operator_review_scrapes_and_a_reader_scrape() {
    let env = TestEnv::embedded().await.expect("the embedded API server");
    let documents = manifests("metrics-auth.yaml");
    let roles: Api<ClusterRole> = Api::all(env.client());
    let bindings: Api<ClusterRoleBinding> = Api::all(env.client());
    for document in &documents {
        match document["kind"].as_str() {
            Some("ClusterRole") => {
                let role = serde_json::from_value(document.clone()).expect("a ClusterRole");
                roles.create(&PostParams::default(), &role).await.expect("create");
            }
            Some("ClusterRoleBinding") => {
                let binding = serde_json::from_value(document.clone()).expect("a ClusterRoleBinding");
                bindings.create(&PostParams::default(), &binding).await.expect("create");
            }
            other => panic!("unexpected {other:?} in metrics-auth.yaml"),
        }
    }
    // A scraper holding the reader role, as monitor.yaml binds Prometheus.
    let mut reader_binding = named(
        &manifests("monitor.yaml"),
        "ClusterRoleBinding",
        "webapp-metrics-reader-prometheus",
    )
    .clone();
    reader_binding["subjects"] = json!([{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "scraper"}]);
    let reader_binding = serde_json::from_value(reader_binding).expect("a ClusterRoleBinding");
    bindings
        .create(&PostParams::default(), &reader_binding)
        .await
        .expect("create");

    let operator = format!("system:serviceaccount:{}:webapp-operator", webhooks::NAMESPACE);
    let operator_groups = ["system:serviceaccounts", "system:authenticated"];
    let create = |group: &str, resource: &str| SubjectAccessReviewSpec {
        resource_attributes: Some(ResourceAttributes {
            verb: Some("create".into()),
            group: Some(group.into()),
            resource: Some(resource.into()),
            ..ResourceAttributes::default()
        }),
        ..SubjectAccessReviewSpec::default()
    };
    let client = env.client();
    assert!(
        allowed(
            &client,
            &operator,
            &operator_groups,
            create("authentication.k8s.io", "tokenreviews")
        )
        .await
    );
    assert!(
        allowed(
            &client,
            &operator,
            &operator_groups,
            create("authorization.k8s.io", "subjectaccessreviews")
        )
        .await
    );
    assert!(
        !allowed(&client, &operator, &operator_groups, create("", "secrets")).await,
        "nothing more"
    );
    let get_metrics = || SubjectAccessReviewSpec {
        non_resource_attributes: Some(NonResourceAttributes {
            path: Some("/metrics".into()),
            verb: Some("get".into()),
        }),
        ..SubjectAccessReviewSpec::default()
    };
    assert!(allowed(&client, "scraper", &["system:authenticated"], get_metrics()).await);
    assert!(!allowed(&client, "someone-else", &["system:authenticated"], get_metrics()).await);
    assert!(
        !allowed(&client, &operator, &operator_groups, get_metrics()).await,
        "the operator reviews scrapes; it does not read its own metrics"
    );
}

#[test]
fn the_service_monitor_scrapes_what_the_deployment_serves() {
    let operator = manifests("operator.yaml");
    let deployment = named(&operator, "Deployment", "webapp-operator");
    let container = &deployment["spec"]["template"]["spec"]["containers"][0];
    let args: Vec<&str> = container["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let port = args
        .iter()
        .find_map(|arg| arg.strip_prefix("--metrics-bind-address=:"))
        .expect("--metrics-bind-address")
        .parse::<u16>()
        .expect("a port");
    assert!(
        !args.iter().any(|arg| arg.starts_with("--metrics-secure")),
        "metrics stay secure (the default): {args:?}"
    );
    let container_port = container["ports"]
        .as_array()
        .expect("ports")
        .iter()
        .find(|p| p["containerPort"] == port)
        .expect("the metrics port declared");
    let service = named(&operator, "Service", "webapp-operator-metrics");
    let service_port = service["spec"]["ports"]
        .as_array()
        .expect("ports")
        .iter()
        .find(|p| p["targetPort"] == container_port["name"])
        .expect("the Service exposes the metrics port");

    let monitor = manifests("monitor.yaml");
    let monitor = named(&monitor, "ServiceMonitor", "webapp-operator-metrics-monitor");
    assert_eq!(monitor["metadata"]["namespace"], service["metadata"]["namespace"]);
    let selector = monitor["spec"]["selector"]["matchLabels"]
        .as_object()
        .expect("matchLabels");
    for (key, value) in selector {
        assert_eq!(
            &service["metadata"]["labels"][key], value,
            "the monitor selects the Service"
        );
    }
    let endpoint = &monitor["spec"]["endpoints"][0];
    assert_eq!(endpoint["port"], service_port["name"]);
    assert_eq!(endpoint["scheme"], "https");
    assert_eq!(endpoint["path"], "/metrics");
    assert!(
        endpoint["bearerTokenFile"].is_string() || endpoint["authorization"].is_object(),
        "a token for the operator's TokenReview: {endpoint}"
    );
}

/// The metric names a `PromQL` expression reads: identifiers followed by a selector
/// (`name{...}`), and `label_values`' metric.
fn metrics_queried(expression: &str) -> Vec<String> {
    let mut names = Vec::new();
    let characters: Vec<char> = expression.chars().collect();
    let mut i = 0;
    while i < characters.len() {
        let starts_identifier = characters[i].is_ascii_alphabetic() || characters[i] == '_';
        let after_word = i > 0 && (characters[i - 1].is_ascii_alphanumeric() || "_:$".contains(characters[i - 1]));
        if !starts_identifier || after_word {
            i += 1;
            continue;
        }
        let start = i;
        while i < characters.len() && (characters[i].is_ascii_alphanumeric() || "_:".contains(characters[i])) {
            i += 1;
        }
        let word: String = characters[start..i].iter().collect();
        let rest = characters[i..].iter().collect::<String>();
        let before = characters[..start].iter().collect::<String>();
        if rest.trim_start().starts_with('{') || before.trim_end().ends_with("label_values(") {
            names.push(word);
        }
    }
    names
}

fn dashboard_queries() -> Vec<String> {
    let path = format!("{}/deploy/grafana-dashboard.json", env!("CARGO_MANIFEST_DIR"));
    let dashboard: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the dashboard")).expect("JSON");
    let mut queries = Vec::new();
    let mut panels: Vec<&Value> = dashboard["panels"].as_array().expect("panels").iter().collect();
    while let Some(panel) = panels.pop() {
        panels.extend(panel["panels"].as_array().into_iter().flatten());
        for target in panel["targets"].as_array().into_iter().flatten() {
            queries.push(target["expr"].as_str().expect("an expression").to_owned());
        }
    }
    for variable in dashboard["templating"]["list"].as_array().expect("variables") {
        if let Some(definition) = variable["definition"].as_str() {
            queries.push(definition.to_owned());
        }
    }
    queries
}

/// The sample names of a Prometheus text exposition.
fn metrics_served(exposition: &str) -> BTreeSet<String> {
    exposition
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .filter_map(|line| line.split(['{', ' ']).next())
        .map(str::to_owned)
        .collect()
}

async fn scrape(address: SocketAddr) -> String {
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    response
}

#[test]
fn the_dashboard_parser_finds_metric_names() {
    assert_eq!(
        metrics_queried(r#"histogram_quantile(0.5, sum by (le) (rate(a_b_bucket{job="$job"}[5m]))) + c_d{x="1"}"#),
        ["a_b_bucket", "c_d"]
    );
    assert_eq!(
        metrics_queried("label_values(controller_runtime_reconcile_total, namespace)"),
        ["controller_runtime_reconcile_total"]
    );
}

/// A manager as an operator runs it (a controller, the webhook server, leader
/// election), after one `WebApp` went through the webhooks and the reconciler. Embedded
/// only: the webhooks listen on this machine's loopback, which a cluster's API server
/// cannot call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_metric_the_dashboard_queries_is_served() {
    let queried: BTreeSet<String> = dashboard_queries().iter().flat_map(|q| metrics_queried(q)).collect();
    assert!(
        queried.len() >= 15,
        "the dashboard reads the families it should: {queried:?}"
    );
    for family in [
        "controller_runtime_reconcile",
        "workqueue_",
        "controller_runtime_webhook_",
        "leader_election_",
    ] {
        assert!(
            queried.iter().any(|name| name.starts_with(family)),
            "no {family}* panel"
        );
    }

    let env = TestEnv::embedded().await.expect("the embedded API server");
    env.install_crd(&<WebApp as kube::CustomResourceExt>::crd())
        .await
        .expect("the CRD");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .leader_election(LeaderElection::new("webapp-operator-dashboard").namespace(env.namespace()))
        .metrics_address(Some(SocketAddr::from(([127, 0, 0, 1], 0))))
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    manager
        .add(webapp::controller(manager.cache(), Some(env.namespace()), None))
        .expect("add the controller");
    let (webhook_server, configurations) = webhooks::serve_locally(&env.client(), env.namespace(), None)
        .await
        .expect("the webhooks");
    manager.add(webhook_server).expect("add the webhooks");
    let address = manager.metrics_address().expect("a metrics address");
    let running = tokio::spawn(manager.run());

    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(1),
        port: None,
    };
    webapps
        .create(&PostParams::default(), &WebApp::new("web", spec))
        .await
        .expect("create a WebApp through the webhooks");
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let served = metrics_served(&scrape(address).await);
        let missing: Vec<&String> = queried.iter().filter(|name| !served.contains(*name)).collect();
        if missing.is_empty() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the dashboard queries metrics a running manager does not serve: {missing:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }

    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");
    configurations
        .delete(&env.client())
        .await
        .expect("delete the webhook configurations");
    env.stop().await;
}
