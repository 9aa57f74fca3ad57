//! The Canary operator end to end through `TestEnv::start()`, its Prometheus input
//! against a local HTTP stub, and its Evaluating worker called directly.
//!
//! Promotion and rollback need Deployments that become available: the embedded server
//! simulates that; on a real cluster it takes Nodes that run pods, and where there are
//! none (a bare control plane) those steps are skipped with a message.

#[path = "../examples/canary/metrics.rs"]
mod metrics;
#[path = "../examples/canary/operator.rs"]
mod operator;
#[path = "support/phases.rs"]
#[allow(dead_code, reason = "the AutoRoute tests use the rest")]
mod support;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Node};
use k8s_openapi::api::networking::v1::Ingress;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::{SignedDuration, Timestamp};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{CustomResourceExt, ResourceExt};
use metrics::{Prometheus, PrometheusError, SuccessRate, parse_response};
use operator::{Canary, CanaryInfo, CanaryPhase, CanarySpec, CanaryStatus, Role};
use serde_json::json;
use support::{Running, eventually};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wheelhouse::cache::{Cache, Event, Scope};
use wheelhouse::controller::Context;
use wheelhouse::controller::phase::{Objects, Worker};
use wheelhouse_envtest::{
    ApiServer, InjectedFailure, ServerOptions, TestEnv, Verb, WorkloadSimulation, use_existing_cluster,
};

/// The embedded server with Deployments made available after 100 ms, or the cluster.
async fn start() -> TestEnv {
    let env = if use_existing_cluster() {
        TestEnv::existing().await
    } else {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
            ..ServerOptions::default()
        };
        TestEnv::embedded_with(options).await
    };
    let env = env.expect("a test environment");
    env.install_crd(&Canary::crd()).await.expect("the CRD installs");
    env
}

/// Whether Deployments here ever become available: on the embedded server when it
/// simulates them; on a cluster when it has Nodes to run pods.
async fn deployments_become_available(env: &TestEnv) -> bool {
    match env.server() {
        Some(server) => server.options().workloads.is_some(),
        None => !Api::<Node>::all(env.client())
            .list(&ListParams::default())
            .await
            .expect("list nodes")
            .items
            .is_empty(),
    }
}

async fn run(env: &TestEnv, prometheus: Option<String>) -> (Cache, Running) {
    let cache = Cache::new(env.client());
    let controller = operator::controller(&cache, Some(env.namespace()), prometheus).expect("a valid declaration");
    let running = Running::start(&cache, controller).await;
    (cache, running)
}

fn template(image: &str) -> serde_json::Value {
    json!({"spec": {"containers": [{"name": "web", "image": image, "ports": [{"containerPort": 8080, "protocol": "TCP"}]}]}})
}

fn canary(name: &str, image: &str, metrics: &serde_json::Value) -> Canary {
    let spec: CanarySpec = serde_json::from_value(json!({
        "deployment": {"replicas": 1, "template": template(image)},
        "port": 8080,
        "analysisInterval": "100ms",
        "analysisPeriod": "1m",
        "successThreshold": 99.0,
        "stepWeight": 50,
        "metrics": metrics,
    }))
    .expect("a valid spec");
    Canary::new(name, spec)
}

struct Apis {
    canaries: Api<Canary>,
    deployments: Api<Deployment>,
    ingresses: Api<Ingress>,
    configs: Api<ConfigMap>,
}

impl Apis {
    fn new(env: &TestEnv) -> Self {
        let (client, namespace) = (env.client(), env.namespace());
        Self {
            canaries: Api::namespaced(client.clone(), namespace),
            deployments: Api::namespaced(client.clone(), namespace),
            ingresses: Api::namespaced(client.clone(), namespace),
            configs: Api::namespaced(client, namespace),
        }
    }

    async fn status(&self, name: &str) -> CanaryStatus {
        self.canaries.get(name).await.expect("get").status.unwrap_or_default()
    }

    async fn wait(&self, name: &str, what: &str, check: impl Fn(&CanaryStatus) -> bool) {
        eventually(&format!("canary/{name}: {what}"), || async {
            check(&self.status(name).await)
        })
        .await;
    }

    async fn set_image(&self, name: &str, image: &str) {
        let patch = json!({"spec": {"deployment": {"template": template(image)}}});
        self.canaries
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("patched");
    }

    async fn image(&self, deployment: &str) -> String {
        let deployment = self.deployments.get(deployment).await.expect("get");
        deployment
            .spec
            .template
            .spec
            .and_then(|pod| pod.containers[0].image.clone())
            .unwrap_or_default()
    }

    async fn replicas(&self, deployment: &str) -> Option<i32> {
        self.deployments.get(deployment).await.expect("get").spec.replicas
    }

    async fn weight(&self, ingress: &str) -> Option<i32> {
        operator::weight_of(&self.ingresses.get(ingress).await.expect("get"))
    }
}

/// The revision the operator gives `image`'s template.
fn revision_of(canary: &Canary, image: &str) -> String {
    let mut deployment = canary.spec.deployment.clone();
    deployment.template = serde_json::from_value(template(image)).expect("a template");
    operator::revision(&deployment)
}

/// Every canary weight the cache sees for `name`, in order.
fn record_weights(cache: &Cache, namespace: &str, name: &str) -> Arc<Mutex<Vec<i32>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut changes = cache.informer::<Canary>(Scope::namespace(namespace)).subscribe();
    let (record, name) = (seen.clone(), name.to_owned());
    tokio::spawn(async move {
        while let Some(event) = changes.recv().await {
            if let Event::Added(canary) | Event::Updated { new: canary, .. } = event
                && canary.name_any() == name
                && let Some(status) = &canary.status
            {
                let mut weights = record.lock().expect("not poisoned");
                if weights.last() != Some(&status.info.canary_weight) {
                    weights.push(status.info.canary_weight);
                }
            }
        }
    });
    seen
}

/// Checks what Initializing made for the Canary `web` running `app:1`.
async fn assert_initialized(apis: &Apis, created: &Canary) {
    apis.wait("web", "Waiting", |s| s.phase == Some(CanaryPhase::Waiting))
        .await;
    assert_eq!(apis.image("web-primary").await, "app:1");
    assert_eq!(apis.weight("web").await, None, "the main Ingress has no canary weight");
    assert_eq!(apis.weight("web-canary").await, Some(0));
    let canary_ingress = apis.ingresses.get("web-canary").await.expect("get");
    assert_eq!(
        canary_ingress
            .annotations()
            .get(operator::NGINX_CANARY)
            .map(String::as_str),
        Some("true")
    );
    let primary_revision = revision_of(created, "app:1");
    assert_eq!(
        apis.status("web").await.info.primary_revision.as_ref(),
        Some(&primary_revision)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canary_promotes_a_healthy_template_and_rolls_back_a_failing_one() {
    let env = start().await;
    let (cache, running) = run(&env, None).await;
    let apis = Apis::new(&env);
    let weights = record_weights(&cache, env.namespace(), "web");
    let rates: ConfigMap =
        serde_json::from_value(json!({"metadata": {"name": "rates"}, "data": {"web": "99.9"}})).expect("a ConfigMap");
    apis.configs
        .create(&PostParams::default(), &rates)
        .await
        .expect("created");
    let created = apis
        .canaries
        .create(
            &PostParams::default(),
            &canary("web", "app:1", &json!({"configMap": {"name": "rates"}})),
        )
        .await
        .expect("created");

    // Initializing: the primary, and both Ingresses, the canary's at weight 0.
    assert_initialized(&apis, &created).await;

    // A new template: the canary Deployment runs it, at weight 0 until it is available.
    apis.set_image("web", "app:2").await;
    apis.wait("web", "Evaluating", |s| s.phase == Some(CanaryPhase::Evaluating))
        .await;
    eventually("the canary Deployment", || async {
        apis.deployments.get_opt("web-canary").await.expect("get").is_some()
    })
    .await;
    assert_eq!(apis.image("web-canary").await, "app:2");
    if !deployments_become_available(&env).await {
        eprintln!("skipped promotion and rollback: Deployments never become available here (no Nodes)");
        running.stop().await;
        env.stop().await;
        return;
    }

    // Healthy: 50 %, 100 %, promoted; the primary runs the canary's template.
    let promoted = revision_of(&created, "app:2");
    apis.wait("web", "promoted", |s| {
        s.phase == Some(CanaryPhase::Waiting) && s.info.primary_revision.as_ref() == Some(&promoted)
    })
    .await;
    assert_eq!(apis.image("web-primary").await, "app:2");
    assert_eq!(
        apis.replicas("web-canary").await,
        Some(0),
        "the canary is scaled to zero"
    );
    assert_eq!(
        apis.weight("web-canary").await,
        Some(0),
        "all traffic back on the primary"
    );
    let stepped: BTreeSet<i32> = weights.lock().expect("not poisoned").iter().copied().collect();
    assert_eq!(
        stepped,
        BTreeSet::from([0, 50, 100]),
        "the weight stepped by stepWeight"
    );

    // Failing: rolled back; the primary keeps its template, the revision is rejected.
    let patch = json!({"data": {"web": "42"}});
    apis.configs
        .patch("rates", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("patched");
    apis.set_image("web", "app:3").await;
    let rejected = revision_of(&created, "app:3");
    apis.wait("web", "rolled back", |s| {
        s.phase == Some(CanaryPhase::Waiting) && s.info.rejected_revision.as_ref() == Some(&rejected)
    })
    .await;
    let status = apis.status("web").await;
    assert_eq!(status.info.success_rate, Some(42.0));
    assert_eq!(status.info.primary_revision.as_ref(), Some(&promoted));
    assert_eq!(apis.image("web-primary").await, "app:2");
    assert_eq!(apis.replicas("web-canary").await, Some(0));
    assert_eq!(apis.weight("web-canary").await, Some(0));

    assert_events(
        &env,
        &[
            "Evaluating -> Promoting",
            "Promoting -> Waiting",
            "Evaluating -> Rollback",
            "Rollback -> Waiting",
        ],
    )
    .await;
    running.stop().await;
    env.stop().await;
}

/// Fails unless an Event of the test's namespace has each of `notes`.
async fn assert_events(env: &TestEnv, notes: &[&str]) {
    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(env.client(), env.namespace());
    let recorded: Vec<String> = events
        .list(&ListParams::default())
        .await
        .expect("list")
        .items
        .into_iter()
        .filter_map(|e| e.note)
        .collect();
    for note in notes {
        assert!(recorded.iter().any(|n| n == note), "no Event {note}: {recorded:?}");
    }
}

/// A Prometheus stand-in: answers every request with the current answer, and records
/// the queries.
struct Stub {
    url: String,
    queries: Arc<Mutex<Vec<String>>>,
    answer: Arc<Mutex<(u16, String)>>,
}

impl Stub {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        let queries = Arc::new(Mutex::new(Vec::new()));
        let answer = Arc::new(Mutex::new((200, vector("99.5"))));
        let (record, answering) = (queries.clone(), answer.clone());
        tokio::spawn(async move {
            while let Ok((mut connection, _)) = listener.accept().await {
                let mut request = Vec::new();
                let mut buffer = [0_u8; 4096];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match connection.read(&mut buffer).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buffer[..n]),
                    }
                }
                let line = String::from_utf8_lossy(&request)
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                let target = line.split(' ').nth(1).unwrap_or_default();
                if let Some((_, query)) = target.split_once('?') {
                    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
                        if key == "query" {
                            record.lock().expect("not poisoned").push(value.into_owned());
                        }
                    }
                }
                let (code, body) = answering.lock().expect("not poisoned").clone();
                let response = format!(
                    "HTTP/1.1 {code} Answer\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = connection.write_all(response.as_bytes()).await;
            }
        });
        Self { url, queries, answer }
    }

    fn answer(&self, code: u16, body: String) {
        *self.answer.lock().expect("not poisoned") = (code, body);
    }

    fn queries(&self) -> Vec<String> {
        self.queries.lock().expect("not poisoned").clone()
    }
}

/// An instant-query answer holding one sample.
fn vector(value: &str) -> String {
    json!({"status": "success", "data": {"resultType": "vector", "result": [{"metric": {}, "value": [1_712_345_678.9, value]}]}})
        .to_string()
}

#[tokio::test]
async fn prometheus_answers_are_read_as_a_success_rate() {
    assert_eq!(parse_response(vector("99.5").as_bytes()).expect("read"), Some(99.5));
    assert_eq!(
        parse_response(vector("NaN").as_bytes()).expect("read"),
        None,
        "0/0: no traffic"
    );
    let empty = json!({"status": "success", "data": {"resultType": "vector", "result": []}}).to_string();
    assert_eq!(parse_response(empty.as_bytes()).expect("read"), None);
    let scalar = json!({"status": "success", "data": {"resultType": "scalar", "result": [1.0, "97"]}}).to_string();
    assert_eq!(parse_response(scalar.as_bytes()).expect("read"), Some(97.0));
    assert!(matches!(parse_response(b"<html>"), Err(PrometheusError::Unexpected(_))));

    let stub = Stub::start().await;
    let prometheus = Prometheus::new();
    let rate = prometheus
        .query(&format!("{}/", stub.url), "up == 1")
        .await
        .expect("an answer");
    assert_eq!(rate, Some(99.5));
    assert_eq!(stub.queries(), ["up == 1"], "the query reached the server, decoded");
    stub.answer(
        400,
        json!({"status": "error", "errorType": "bad_data", "error": "parse error at char 3"}).to_string(),
    );
    let refused = prometheus.query(&stub.url, "up ==").await.expect_err("refused");
    assert!(
        matches!(&refused, PrometheusError::Refused { status: 400, message, .. } if message == "parse error at char 3"),
        "{refused}"
    );
    let nobody = prometheus
        .query("http://127.0.0.1:1", "up")
        .await
        .expect_err("nobody there");
    assert!(matches!(nobody, PrometheusError::Unreachable { .. }), "{nobody}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canary_queries_prometheus_for_the_canary_ingress_and_records_its_errors() {
    let env = start().await;
    let stub = Stub::start().await;
    stub.answer(
        400,
        json!({"status": "error", "errorType": "bad_data", "error": "no such metric"}).to_string(),
    );
    // The address comes from the flag's default: the spec names none.
    let (_cache, running) = run(&env, Some(stub.url.clone())).await;
    let apis = Apis::new(&env);
    apis.canaries
        .create(
            &PostParams::default(),
            &canary("api", "app:1", &json!({"prometheus": {}})),
        )
        .await
        .expect("created");
    apis.wait("api", "Waiting", |s| s.phase == Some(CanaryPhase::Waiting))
        .await;
    apis.set_image("api", "app:2").await;
    apis.wait("api", "the query's error in the status", |s| {
        s.phase == Some(CanaryPhase::Evaluating)
            && s.last_error.as_deref().is_some_and(|e| e.contains("no such metric"))
    })
    .await;
    let query = stub.queries().last().cloned().expect("a query");
    assert!(
        query.contains(r#"ingress="api-canary""#) && query.contains(&format!(r#"namespace="{}""#, env.namespace())),
        "{query}"
    );
    assert!(query.contains("[1m]"), "the analysis period is the range: {query}");

    stub.answer(200, vector("99.5"));
    apis.wait("api", "the error cleared", |s| s.last_error.is_none()).await;
    if deployments_become_available(&env).await {
        apis.wait("api", "promoted", |s| {
            s.phase == Some(CanaryPhase::Waiting) && s.info.success_rate == Some(99.5)
        })
        .await;
        assert_eq!(apis.image("api-primary").await, "app:2");
    } else {
        eprintln!("skipped the promotion: Deployments never become available here (no Nodes)");
    }
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_canary_sends_its_traffic_back_to_the_primary_first() {
    let env = start().await;
    let (_cache, running) = run(&env, None).await;
    let apis = Apis::new(&env);
    // The test's own finalizer keeps the Canary (and so everything it owns, from the
    // garbage collector) after the operator's finalizer has run.
    let test_finalizer = "test.example.com/hold";
    let mut held = canary("shop", "app:1", &json!({"configMap": {"name": "rates"}}));
    held.metadata.finalizers = Some(vec![test_finalizer.to_owned()]);
    apis.canaries
        .create(&PostParams::default(), &held)
        .await
        .expect("created");
    apis.wait("shop", "Waiting", |s| s.phase == Some(CanaryPhase::Waiting))
        .await;
    eventually("the operator's finalizer", || async {
        let canary = apis.canaries.get("shop").await.expect("get");
        canary.finalizers().iter().any(|f| f == operator::FINALIZER)
    })
    .await;

    // The first attempts fail (embedded only): the finalizer is retried until it succeeds.
    if let Some(server) = env.server() {
        server.fail_next(2, InjectedFailure::server_error(Verb::Delete, "ingresses"));
    }
    apis.canaries
        .delete("shop", &DeleteParams::default())
        .await
        .expect("deleted");
    eventually("the operator's finalizer done", || async {
        let canary = apis.canaries.get("shop").await.expect("get");
        !canary.finalizers().iter().any(|f| f == operator::FINALIZER)
    })
    .await;
    assert!(
        apis.ingresses.get_opt("shop-canary").await.expect("get").is_none(),
        "the canary Ingress went first"
    );
    assert!(
        apis.ingresses.get_opt("shop").await.expect("get").is_some(),
        "the main Ingress stays"
    );
    assert!(apis.deployments.get_opt("shop-primary").await.expect("get").is_some());
    if let Some(server) = env.server() {
        assert_eq!(
            server.fault_counts().failed_requests,
            2,
            "two failed attempts, then success"
        );
    }
    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(env.client(), env.namespace());
    let finalized = events
        .list(&ListParams::default())
        .await
        .expect("list")
        .items
        .iter()
        .any(|e| e.reason.as_deref() == Some("Finalized"));
    assert!(finalized, "an Event says the finalizer ran");

    let release = json!({"metadata": {"finalizers": null}});
    apis.canaries
        .patch("shop", &PatchParams::default(), &Patch::Merge(&release))
        .await
        .expect("released");
    eventually("the Canary gone", || async {
        apis.canaries.get_opt("shop").await.expect("get").is_none()
    })
    .await;
    running.stop().await;
    env.stop().await;
}

/// A Canary in Evaluating, its canary Deployment available, last stepped `ago`.
fn evaluating(ago: SignedDuration) -> (Canary, Objects<Deployment, wheelhouse::controller::phase::Owned>) {
    let mut canary = canary("web", "app:2", &json!({"configMap": {"name": "rates"}}));
    canary.metadata.namespace = Some("default".into());
    canary.metadata.uid = Some("1234".into());
    let revision = operator::revision(&canary.spec.deployment);
    canary.status = Some(CanaryStatus {
        phase: Some(CanaryPhase::Evaluating),
        info: CanaryInfo {
            primary_revision: Some("old".into()),
            canary_revision: Some(revision.clone()),
            canary_weight: 50,
            last_step: Some(Time(Timestamp::now() - ago)),
            ..CanaryInfo::default()
        },
        ..CanaryStatus::default()
    });
    let mut deployment = operator::deployment(&canary, Role::Canary, &canary.spec.deployment.template, 1, &revision)
        .expect("a Deployment");
    deployment.metadata.generation = Some(1);
    deployment.status = Some(
        serde_json::from_value(json!({"observedGeneration": 1, "availableReplicas": 1, "updatedReplicas": 1}))
            .expect("a status"),
    );
    (canary, Objects::new(vec![Arc::new(deployment)]))
}

#[tokio::test]
async fn evaluating_steps_the_weight_once_per_interval_however_often_it_runs() {
    let context = Context::new(
        kube::Client::new(ApiServer::new(ServerOptions::default()), "default"),
        "canary",
    );
    let healthy = SuccessRate(Some(99.9));

    // Run again 10 ms after a step (an input changed): no step, back after the rest.
    let (canary, deployments) = evaluating(SignedDuration::from_millis(10));
    let outcome = operator::Evaluate
        .sync(&canary, (deployments, healthy), &context)
        .await
        .expect("synced");
    assert_eq!(outcome.next_phase(), CanaryPhase::Evaluating);
    assert_eq!(outcome.info().map(|i| i.canary_weight), Some(50));
    assert!(outcome.requeue().is_some_and(|d| d <= Duration::from_millis(90)));

    // A whole interval later: one step.
    let (canary, deployments) = evaluating(SignedDuration::from_millis(150));
    let outcome = operator::Evaluate
        .sync(&canary, (deployments, healthy), &context)
        .await
        .expect("synced");
    assert_eq!(outcome.next_phase(), CanaryPhase::Promoting, "50 + 50 reaches 100");
    assert_eq!(outcome.info().map(|i| i.canary_weight), Some(100));
    let (_, ingresses) = outcome.outputs();
    assert_eq!(
        operator::weight_of(&ingresses[0]),
        Some(100),
        "the Ingress carries the step"
    );

    // Unhealthy: rolled back, whatever the weight.
    let (canary, deployments) = evaluating(SignedDuration::from_millis(150));
    let outcome = operator::Evaluate
        .sync(&canary, (deployments, SuccessRate(Some(12.0))), &context)
        .await
        .expect("synced");
    assert_eq!(outcome.next_phase(), CanaryPhase::Rollback);
}
