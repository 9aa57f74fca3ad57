//! The `AutoRoute` operator and the phase scheduler under it, end to end through
//! `TestEnv::start()`: on the embedded server, or on a real cluster with
//! `USE_EXISTING_CLUSTER=true` (fault injection is embedded-only and says so).
//!
//! Tests that show something did *not* happen run one worker and wait for a marker
//! whose event arrives after the one under test: the queue serves keys in order, so
//! once the marker's route has been synced, every earlier key has been too.

#[path = "../examples/autoroute/operator.rs"]
#[allow(dead_code, reason = "the tests build the controller with hooks")]
mod operator;
#[path = "support/rbac.rs"]
mod rbac;
#[path = "support/phases.rs"]
mod support;

use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::networking::v1::Ingress;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{CustomResourceExt, ResourceExt};
use operator::{AutoRoute, AutoRouteSpec, RoutePhase};
use serde_json::json;
use support::{Calls, Running, eventually};
use wheelhouse::cache::Cache;
use wheelhouse::controller::phase::{MANAGED_BY_LABEL, OWNER_UID_LABEL, PHASE_LABEL, PhaseScheduler};
use wheelhouse_envtest::{InjectedFailure, TestEnv, Verb};

/// Who the operator runs as (its requests are attributed to it on the embedded server).
const ACCOUNT: &str = "autoroute-operator";

/// The environment, with the CRD installed.
async fn start() -> TestEnv {
    let env = TestEnv::start().await.expect("a test environment");
    env.install_crd(&AutoRoute::crd()).await.expect("the CRD installs");
    env
}

/// Runs the `AutoRoute` controller of the test's namespace with `scheduler`'s workers
/// and `workers` concurrent syncs.
async fn run(env: &TestEnv, scheduler: PhaseScheduler<AutoRoute>, workers: usize) -> (Cache, Running) {
    let cache = Cache::new(rbac::operator_client(env, ACCOUNT));
    let controller = operator::builder(&cache, Some(env.namespace()))
        .concurrency(workers)
        .build_phases(scheduler)
        .expect("a valid declaration");
    let running = Running::start(&cache, controller).await;
    (cache, running)
}

fn deployment(name: &str, labels: &serde_json::Value, port: i32) -> Deployment {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "ports": [{"containerPort": port, "protocol": "TCP"}]}]},
            },
        },
    }))
    .expect("a valid Deployment")
}

fn route(name: &str, selector: &serde_json::Value) -> AutoRoute {
    let spec: AutoRouteSpec =
        serde_json::from_value(json!({"deploymentSelector": {"matchLabels": selector}})).expect("a valid spec");
    AutoRoute::new(name, spec)
}

struct Apis {
    deployments: Api<Deployment>,
    routes: Api<AutoRoute>,
    services: Api<Service>,
    ingresses: Api<Ingress>,
}

impl Apis {
    fn new(env: &TestEnv) -> Self {
        let (client, namespace) = (env.client(), env.namespace());
        Self {
            deployments: Api::namespaced(client.clone(), namespace),
            routes: Api::namespaced(client.clone(), namespace),
            services: Api::namespaced(client.clone(), namespace),
            ingresses: Api::namespaced(client, namespace),
        }
    }

    async fn relabel(&self, name: &str, labels: serde_json::Value) {
        let patch = json!({"metadata": {"labels": labels}});
        self.deployments
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("relabelled");
    }

    /// Waits until `route` is Ready, synced with exactly `expected`.
    async fn ready_with(&self, route: &str, expected: &[&str]) {
        eventually(&format!("autoroute/{route} Ready with {expected:?}"), || async {
            let status = self.routes.get(route).await.expect("get").status.unwrap_or_default();
            status.phase == Some(RoutePhase::Ready) && status.info.synced_deployments == expected
        })
        .await;
    }

    /// The names of the Services, sorted.
    async fn services(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .services
            .list(&ListParams::default())
            .await
            .expect("list")
            .items
            .iter()
            .map(ResourceExt::name_any)
            .collect();
        names.sort();
        names
    }

    /// The hosts of the route's Ingress (none when there is no Ingress).
    async fn hosts(&self, route: &str) -> Vec<String> {
        self.ingresses
            .get_opt(route)
            .await
            .expect("get")
            .and_then(|i| i.spec?.rules)
            .into_iter()
            .flatten()
            .filter_map(|rule| rule.host)
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autoroute_routes_follow_the_selected_deployments_and_pruning_removes_the_rest() {
    let env = start().await;
    let (_cache, running) = run(&env, operator::scheduler(), 4).await;
    let apis = Apis::new(&env);
    let post = PostParams::default();
    for (name, expose, port) in [("web", "yes", 8080), ("api", "yes", 9090), ("worker", "no", 8000)] {
        apis.deployments
            .create(&post, &deployment(name, &json!({"expose": expose}), port))
            .await
            .expect("created");
    }
    let created = apis
        .routes
        .create(&post, &route("shop", &json!({"expose": "yes"})))
        .await
        .expect("created");

    apis.ready_with("shop", &["api", "web"]).await;
    eventually("a Service per selected Deployment", || async {
        apis.services().await == ["shop-api", "shop-web"]
    })
    .await;
    assert_eq!(apis.hosts("shop").await, ["api.shop", "web.shop"]);
    let service = apis.services.get("shop-web").await.expect("get");
    let labels = service.labels();
    assert_eq!(labels.get(OWNER_UID_LABEL), created.metadata.uid.as_ref());
    assert_eq!(labels.get(PHASE_LABEL).map(String::as_str), Some("Syncing"));
    assert_eq!(
        labels.get(MANAGED_BY_LABEL).map(String::as_str),
        Some(operator::CONTROLLER)
    );
    let owner = wheelhouse::controller::owner::controller_of(&service).expect("a controller owner");
    assert_eq!((owner.kind.as_str(), owner.name.as_str()), ("AutoRoute", "shop"));
    let service_port = service.spec.and_then(|s| s.ports).expect("ports")[0].port;
    assert_eq!(service_port, 8080, "the port of the Deployment's first container");
    let status = apis.routes.get("shop").await.expect("get").status.expect("a status");
    assert_eq!(status.observed_generation, created.metadata.generation);
    assert!(status.last_transition_time.is_some());
    assert!(
        status
            .conditions
            .iter()
            .any(|c| c.type_ == "Routed" && c.status == "True")
    );

    // A Deployment that starts matching is routed.
    apis.deployments
        .create(&post, &deployment("admin", &json!({"expose": "yes"}), 3000))
        .await
        .expect("created");
    apis.ready_with("shop", &["admin", "api", "web"]).await;
    eventually("admin's Service", || async {
        apis.services().await == ["shop-admin", "shop-api", "shop-web"]
    })
    .await;

    // One that stops matching, or goes, is pruned (the route lives on, so this is the
    // scheduler's doing, not the garbage collector's).
    apis.relabel("api", json!({"expose": "no"})).await;
    apis.ready_with("shop", &["admin", "web"]).await;
    eventually("api's Service pruned", || async {
        apis.services().await == ["shop-admin", "shop-web"]
    })
    .await;
    assert_eq!(apis.hosts("shop").await, ["admin.shop", "web.shop"]);
    apis.deployments
        .delete("web", &DeleteParams::default())
        .await
        .expect("deleted");
    apis.ready_with("shop", &["admin"]).await;
    eventually("web's Service pruned", || async {
        apis.services().await == ["shop-admin"]
    })
    .await;

    // Nothing selected: no Service, and no Ingress (an Ingress needs a rule).
    apis.relabel("admin", json!({"expose": "no"})).await;
    apis.ready_with("shop", &[]).await;
    eventually("everything pruned", || async {
        apis.services().await.is_empty() && apis.ingresses.get_opt("shop").await.expect("get").is_none()
    })
    .await;

    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(env.client(), env.namespace());
    let notes: Vec<String> = events
        .list(&ListParams::default())
        .await
        .expect("list")
        .items
        .into_iter()
        .filter(|e| e.reason.as_deref() == Some("PhaseChanged"))
        .filter_map(|e| e.note)
        .collect();
    assert!(notes.iter().any(|n| n == "Initializing -> Syncing"), "{notes:?}");
    assert!(
        notes.iter().filter(|n| *n == "Ready -> Syncing").count() >= 4,
        "an Event per transition: {notes:?}"
    );
    running.stop().await;
    rbac::check_operator_rbac(
        &env,
        ACCOUNT,
        "autoroute-system",
        "autoroute-rbac.yaml",
        &[
            "The AutoRoute operator's identity and permissions. Generated by tests/autoroute.rs from what",
            "the operator's client sent over an AutoRoute's life on the embedded API server (routes in",
            "any namespace: cluster-wide). The test fails when they drift;",
            "WHEELHOUSE_REGENERATE=1 cargo test --test autoroute rewrites it.",
        ],
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_input_change_reruns_only_the_routes_whose_selection_it_touches() {
    let env = start().await;
    let calls = Calls::default();
    // One worker: keys are served in the order their events arrived. A long work
    // interval: no periodic re-run blurs the count.
    let scheduler = operator::scheduler()
        .on_sync(calls.hook())
        .work_interval(Duration::from_hours(1));
    let (_cache, running) = run(&env, scheduler, 1).await;
    let apis = Apis::new(&env);
    let post = PostParams::default();
    for team in ["a", "b", "marker"] {
        apis.deployments
            .create(&post, &deployment(&format!("{team}-1"), &json!({"team": team}), 80))
            .await
            .expect("created");
        apis.routes
            .create(&post, &route(team, &json!({"team": team})))
            .await
            .expect("created");
    }
    for team in ["a", "b", "marker"] {
        apis.ready_with(team, &[&format!("{team}-1")]).await;
    }
    // Outputs applied by Syncing come back as events and run Ready once more; the
    // marker's own round trip shows when that has settled.
    let marker = calls.count("marker");
    apis.relabel("marker-1", json!({"round": "1"})).await;
    calls.wait_for("marker", marker + 1).await;
    let (a_before, b_before) = (calls.count("a"), calls.count("b"));

    // A change to a's Deployment (still selected) runs a's Ready worker, not b's.
    apis.relabel("a-1", json!({"version": "2"})).await;
    let marker = calls.count("marker");
    apis.relabel("marker-1", json!({"round": "2"})).await;
    calls.wait_for("marker", marker + 1).await;
    // At least once: on a real cluster a-1 may change again meanwhile (its controller
    // writes its status), and each change is an event of a's input; 1.32 ran a twice.
    assert!(calls.count("a") > a_before, "a's input changed: {:?}", calls.of("a"));
    assert_eq!(
        calls.count("b"),
        b_before,
        "b's inputs did not change: {:?}",
        calls.of("b")
    );

    // A Deployment moving from a's selection to b's changes both.
    apis.relabel("a-1", json!({"team": "b"})).await;
    apis.ready_with("a", &[]).await;
    apis.ready_with("b", &["a-1", "b-1"]).await;
    let marker = calls.count("marker");
    let (a_moved, b_moved) = (calls.count("a"), calls.count("b"));
    apis.relabel("marker-1", json!({"round": "3"})).await;
    calls.wait_for("marker", marker + 1).await;
    assert!(a_moved > a_before + 1 && b_moved > b_before, "both re-ran");
    assert_eq!(
        calls.of("marker").iter().filter(|p| *p == "Syncing").count(),
        1,
        "the marker's selection never changed: {:?}",
        calls.of("marker")
    );
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outputs_are_applied_before_the_status_so_a_failure_between_reruns_the_same_worker() {
    let env = start().await;
    let Some(server) = env.server().cloned() else {
        eprintln!("skipped: injecting a failure between the outputs and the status needs the embedded API server");
        env.stop().await;
        return;
    };
    let calls = Calls::default();
    // The first time `fail-status` enters Syncing, fail the next write of an AutoRoute:
    // the status write that follows its outputs.
    let armed = std::sync::atomic::AtomicBool::new(true);
    let record = calls.hook();
    let injector = server.clone();
    let scheduler = operator::scheduler().on_sync(move |key, phase| {
        record(key, phase);
        if key.name == "fail-status" && phase == "Syncing" && armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            injector.fail_next(1, InjectedFailure::server_error(Verb::Patch, "autoroutes"));
        }
    });
    let (_cache, running) = run(&env, scheduler, 1).await;
    let apis = Apis::new(&env);
    let post = PostParams::default();
    apis.deployments
        .create(&post, &deployment("web", &json!({"expose": "yes"}), 80))
        .await
        .expect("created");

    apis.routes
        .create(&post, &route("fail-status", &json!({"expose": "yes"})))
        .await
        .expect("created");
    apis.ready_with("fail-status", &["web"]).await;
    assert_eq!(server.fault_counts().failed_requests, 1, "the status write failed once");
    let phases = calls.of("fail-status");
    assert_eq!(
        phases[..3],
        ["Initializing", "Syncing", "Syncing"],
        "the status write failed after the outputs: the same worker ran again"
    );

    // A failed output: the status does not move, the worker runs again, and the error
    // is in the status meanwhile.
    server.fail_next(1, InjectedFailure::server_error(Verb::Patch, "ingresses"));
    apis.routes
        .create(&post, &route("fail-output", &json!({"expose": "yes"})))
        .await
        .expect("created");
    apis.ready_with("fail-output", &["web"]).await;
    assert_eq!(server.fault_counts().failed_requests, 2);
    assert_eq!(
        calls.of("fail-output")[..3],
        ["Initializing", "Syncing", "Syncing"],
        "an output failed: the status kept the phase"
    );
    let status = apis
        .routes
        .get("fail-output")
        .await
        .expect("get")
        .status
        .expect("status");
    assert_eq!(status.last_error, None, "a successful sync clears the error");
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_that_changes_nothing_writes_no_status() {
    let env = start().await;
    let calls = Calls::default();
    let scheduler = operator::scheduler()
        .on_sync(calls.hook())
        .work_interval(Duration::from_millis(20));
    let (_cache, running) = run(&env, scheduler, 1).await;
    let apis = Apis::new(&env);
    let post = PostParams::default();
    apis.deployments
        .create(&post, &deployment("web", &json!({"expose": "yes"}), 80))
        .await
        .expect("created");
    apis.routes
        .create(&post, &route("steady", &json!({"expose": "yes"})))
        .await
        .expect("created");
    apis.ready_with("steady", &["web"]).await;
    let settled = calls.count("steady");
    calls.wait_for("steady", settled + 1).await;
    let version = apis.routes.get("steady").await.expect("get").resource_version();
    let writes = |env: &TestEnv| {
        env.server()
            .map(|s| s.request_count(Verb::Patch, "autoroutes") + s.request_count(Verb::Update, "autoroutes"))
    };
    let writes_before = writes(&env);
    let ready_runs = calls.count("steady");

    // Ten more runs of the Ready worker, each finding everything as it was.
    calls.wait_for("steady", ready_runs + 10).await;
    assert!(calls.of("steady")[ready_runs..].iter().all(|p| p == "Ready"));
    assert_eq!(
        apis.routes.get("steady").await.expect("get").resource_version(),
        version,
        "the route was not written"
    );
    assert_eq!(writes(&env), writes_before, "no status write reached the server");
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_selector_stops_the_route_with_the_reason_in_its_status() {
    let env = start().await;
    let (_cache, running) = run(&env, operator::scheduler(), 1).await;
    let apis = Apis::new(&env);
    let spec: AutoRouteSpec = serde_json::from_value(json!({"deploymentSelector": {"matchExpressions": [
        {"key": "tier", "operator": "In", "values": []}
    ]}}))
    .expect("a spec");
    apis.routes
        .create(&PostParams::default(), &AutoRoute::new("broken", spec))
        .await
        .expect("created");
    eventually("the error in the status", || async {
        let status = apis.routes.get("broken").await.expect("get").status.unwrap_or_default();
        status.phase == Some(RoutePhase::Initializing)
            && status.last_error.is_some_and(|e| e.contains("not a valid requirement"))
    })
    .await;
    running.stop().await;
    env.stop().await;
}
