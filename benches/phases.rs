//! `cargo bench --bench phases`: the `AutoRoute` operator (`examples/src/autoroute.rs`)
//! driving 1,000 `AutoRoutes`, each selecting 3 of 3,000 Deployments, from creation to
//! Ready on the embedded API server, run by the phase scheduler and, in the same
//! process, by the same logic written as one plain `Reconciler` (a match on the phase),
//! each with 8 concurrent syncs.
//!
//! The plain reconciler does what the scheduler does for this operator, by hand: the
//! same workers' logic, the same Services and Ingress (labels included) applied through
//! `Applier`s over `owns_full` informers and pruned, the status written as a merge patch only when it
//! changed, an Event per transition, and Deployment changes mapped to the routes that
//! select them through a cache index. Both count their writes (patches, updates and
//! deletes of `AutoRoutes`, Services and Ingresses, and Events) on the server.
//!
//! For each: the time until every `AutoRoute` is Ready with its 3 Deployments, worker
//! runs (reconciles, for the plain one) and writes. Then 30 Deployments move from one
//! route's selection to another's; it reports how many routes re-ran (the target: only
//! the 60 whose selection changed), worker runs, and the time until all 60 statuses
//! show their new Deployments. Prints `bench=phases impl=...` lines and
//! `ratio bench=phases throughput=X` (the scheduler's routes per second over the plain
//! reconciler's). `PHASES_BENCH_ROUTES` (default 1,000) and `PHASES_BENCH_RUNS`
//! (default 3, alternating, medians, after one warm-up run of each) change the
//! workload; `PHASES_BENCH_ONLY=phase-scheduler` or `=plain-reconciler` runs one (for
//! profiling; no ratio then).

#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use autoroute::{AutoRoute, AutoRouteSpec, AutoRouteStatus, RouteInfo, RoutePhase};
use dashmap::DashMap;
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::networking::v1::Ingress;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::events::{Event as KubeEvent, EventType, Recorder, Reporter};
use kube::{CustomResourceExt, Resource, ResourceExt};
use serde_json::json;
use support::{median, millis, per_second, runtime, selected, setting};
use wheelhouse::cache::{Cache, Event, ListOptions, Scope, Store};
use wheelhouse::controller::phase::{MANAGED_BY_LABEL, OWNER_UID_LABEL, PHASE_LABEL, PhaseScheduler};
use wheelhouse::controller::{
    Action, Applier, Context, Controller, ControllerMetrics, Error, ObjectKey, Predicate, Reconciler, predicate,
};
use wheelhouse_envtest::{ServerOptions, TestEnv, Verb, WatchWindow};
use wheelhouse_examples::autoroute;

const CONCURRENCY: usize = 8;
const PER_ROUTE: usize = 3;
const RELABELLED: usize = 30;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Implementation {
    PhaseScheduler,
    PlainReconciler,
}

impl Implementation {
    fn name(self) -> &'static str {
        match self {
            Self::PhaseScheduler => "phase-scheduler",
            Self::PlainReconciler => "plain-reconciler",
        }
    }
}

/// Worker runs per route.
#[derive(Default)]
struct Runs(DashMap<String, u64>);

impl Runs {
    fn record(&self, name: &str) {
        *self.0.entry(name.to_owned()).or_default() += 1;
    }

    fn snapshot(&self) -> HashMap<String, u64> {
        self.0.iter().map(|e| (e.key().clone(), *e.value())).collect()
    }
}

/// Each route's phase and synced Deployments, by name.
type Seen = HashMap<String, (Option<RoutePhase>, Vec<String>)>;

/// The routes' phases and synced Deployments, as a watch of the bench's own sees them.
#[derive(Clone, Default)]
struct Tracker {
    routes: Arc<Mutex<Seen>>,
    changed: Arc<tokio::sync::Notify>,
}

impl Tracker {
    fn follow(cache: &Cache, namespace: &str) -> Self {
        let tracker = Self::default();
        let mut changes = cache.informer::<AutoRoute>(Scope::namespace(namespace)).subscribe();
        let follow = tracker.clone();
        tokio::spawn(async move {
            while let Some(event) = changes.recv().await {
                if let Event::Added(route) | Event::Updated { new: route, .. } = event {
                    let status = route.status.clone().unwrap_or_default();
                    follow
                        .routes
                        .lock()
                        .expect("not poisoned")
                        .insert(route.name_any(), (status.phase, status.info.synced_deployments));
                    follow.changed.notify_waiters();
                }
            }
        });
        cache.start();
        tracker
    }

    /// Waits until `done` holds on the routes.
    async fn wait(&self, what: &str, done: impl Fn(&Seen) -> bool) {
        let deadline = Instant::now() + Duration::from_mins(3);
        loop {
            let notified = self.changed.notified();
            if done(&self.routes.lock().expect("not poisoned")) {
                return;
            }
            assert!(Instant::now() < deadline, "{what} did not happen in 3 minutes");
            let _ = tokio::time::timeout(Duration::from_millis(50), notified).await;
        }
    }
}

fn route_name(index: usize) -> String {
    format!("r-{index}")
}

fn deployment(index: usize, route: usize) -> Deployment {
    let name = format!("d-{index}");
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"route": route_name(route)}},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "ports": [{"containerPort": 8000 + index % 10, "protocol": "TCP"}]}]},
            },
        },
    }))
    .expect("a valid Deployment")
}

fn route(index: usize) -> AutoRoute {
    let spec: AutoRouteSpec = serde_json::from_value(json!({
        "deploymentSelector": {"matchLabels": {"route": route_name(index)}}
    }))
    .expect("a valid spec");
    AutoRoute::new(&route_name(index), spec)
}

/// The Deployments each route should sync after the relabelling: the first
/// Deployment of route k (k < 30) moves to route `routes - 1 - k`.
fn after_relabel(routes: usize) -> HashMap<String, Vec<String>> {
    let mut selected: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for index in 0..routes * PER_ROUTE {
        let mut owner = index / PER_ROUTE;
        if index % PER_ROUTE == 0 && owner < RELABELLED {
            owner = routes - 1 - owner;
        }
        selected.entry(owner).or_default().push(format!("d-{index}"));
    }
    selected
        .into_iter()
        .map(|(route, mut names)| {
            names.sort();
            (route_name(route), names)
        })
        .collect()
}

// ---------------------------------------------------------------------------------
// The same logic as one plain reconciler.
// ---------------------------------------------------------------------------------

/// The index, on the routes' store, of each route under the one label its selector
/// requires (`<namespace>/<key>=<value>`).
const SELECTS: &str = "bench/selects";
/// The index, on the Deployments' store, of each Deployment under each of its labels.
const LABELS: &str = "bench/labels";
/// The index, on the outputs' stores, of each object under its controller owner's uid.
const OWNER: &str = "bench/owner";

fn label_keys(namespace: &str, labels: &BTreeMap<String, String>) -> Vec<String> {
    labels.iter().map(|(k, v)| format!("{namespace}/{k}={v}")).collect()
}

fn owner_uid(object: &impl Resource) -> Vec<String> {
    wheelhouse::controller::owner::controller_of(object)
        .map(|o| o.uid.clone())
        .into_iter()
        .collect()
}

/// The `AutoRoute` operator as one reconciler.
struct Plain {
    deployments: Store<Deployment>,
    services: Applier<Service>,
    service_store: Store<Service>,
    ingresses: Applier<Ingress>,
    ingress_store: Store<Ingress>,
    recorder: Recorder,
    runs: Arc<Runs>,
}

impl Plain {
    fn selected(&self, route: &AutoRoute) -> Vec<Arc<Deployment>> {
        let namespace = route.namespace().unwrap_or_default();
        let wanted = route.spec.deployment_selector.match_labels.clone().unwrap_or_default();
        let Some(first) = label_keys(&namespace, &wanted).into_iter().next() else {
            return Vec::new();
        };
        let mut selected = self
            .deployments
            .list(&ListOptions {
                index: Some((LABELS.to_owned(), first)),
                ..ListOptions::default()
            })
            .unwrap_or_default();
        selected.retain(|d| wanted.iter().all(|(k, v)| d.labels().get(k) == Some(v)));
        selected.sort_by_key(|d| d.name_any());
        selected
    }

    async fn write_status(
        &self,
        api: &Api<AutoRoute>,
        route: &AutoRoute,
        status: &AutoRouteStatus,
    ) -> Result<(), Error> {
        if route.status.as_ref() == Some(status) {
            return Ok(());
        }
        let patch = json!({"metadata": {"resourceVersion": route.resource_version()}, "status": status});
        api.patch_status(&route.name_any(), &PatchParams::default(), &Patch::Merge(&patch))
            .await?;
        Ok(())
    }

    async fn transition(
        &self,
        api: &Api<AutoRoute>,
        route: &AutoRoute,
        mut status: AutoRouteStatus,
        from: RoutePhase,
        to: RoutePhase,
    ) -> Result<Action, Error> {
        status.phase = Some(to);
        status.observed_generation = route.meta().generation;
        status.last_error = None;
        status.last_transition_time = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            k8s_openapi::jiff::Timestamp::now(),
        ));
        self.write_status(api, route, &status).await?;
        let event = KubeEvent {
            type_: EventType::Normal,
            reason: "PhaseChanged".into(),
            note: Some(format!("{from:?} -> {to:?}")),
            action: "Sync".into(),
            secondary: None,
        };
        let mut regarding = route.object_ref(&());
        regarding.resource_version.clone_from(&route.meta().resource_version);
        self.recorder.publish(&event, &regarding).await?;
        Ok(Action::done())
    }

    /// Applies `desired` and deletes the route's other objects of the type.
    async fn apply_and_prune<T>(
        &self,
        applier: &Applier<T>,
        store: &Store<T>,
        api: &Api<T>,
        route: &AutoRoute,
        desired: Vec<T>,
    ) -> Result<(), Error>
    where
        T: Resource<DynamicType = ()>
            + Clone
            + std::fmt::Debug
            + serde::Serialize
            + serde::de::DeserializeOwned
            + Send
            + Sync
            + 'static,
    {
        let owner = wheelhouse::controller::owner::controller_ref(route).ok_or_else(|| Error::terminal("no uid"))?;
        let mut kept = HashSet::new();
        for mut object in desired {
            // The same labels as the scheduler's outputs: the objects are the same.
            let labels = object.meta_mut().labels.get_or_insert_default();
            labels.insert(OWNER_UID_LABEL.to_owned(), owner.uid.clone());
            labels.insert(PHASE_LABEL.to_owned(), "Syncing".to_owned());
            labels.insert(MANAGED_BY_LABEL.to_owned(), "autoroute-plain".to_owned());
            object.meta_mut().owner_references = Some(vec![owner.clone()]);
            kept.insert(object.name_any());
            applier.apply(api, &object).await?;
        }
        let previous = store
            .list(&ListOptions {
                index: Some((OWNER.to_owned(), owner.uid.clone())),
                ..ListOptions::default()
            })
            .unwrap_or_default();
        for object in previous.iter().filter(|o| !kept.contains(&o.name_any())) {
            match api.delete(&object.name_any(), &DeleteParams::default()).await {
                Ok(_) => {}
                Err(kube::Error::Api(status)) if status.code == 404 => {}
                Err(error) => return Err(error.into()),
            }
        }
        Ok(())
    }
}

impl Reconciler<AutoRoute> for Plain {
    async fn reconcile(&self, route: Arc<AutoRoute>, context: &Context) -> Result<Action, Error> {
        self.runs.record(&route.name_any());
        let namespace = route.namespace().unwrap_or_default();
        let api: Api<AutoRoute> = Api::namespaced(context.client().clone(), &namespace);
        let status = route.status.clone().unwrap_or_default();
        let phase = status.phase.unwrap_or(RoutePhase::Initializing);
        match phase {
            RoutePhase::Initializing => {
                autoroute::check_selector(&route.spec.deployment_selector)?;
                self.transition(&api, &route, status, phase, RoutePhase::Syncing).await
            }
            RoutePhase::Syncing => {
                let deployments = self.selected(&route);
                let services = autoroute::desired_services(&route, &deployments)?;
                let ingress = autoroute::desired_ingress(&route, &deployments)?.into_iter().collect();
                let client = context.client().clone();
                self.apply_and_prune(
                    &self.services,
                    &self.service_store,
                    &Api::namespaced(client.clone(), &namespace),
                    &route,
                    services,
                )
                .await?;
                self.apply_and_prune(
                    &self.ingresses,
                    &self.ingress_store,
                    &Api::namespaced(client, &namespace),
                    &route,
                    ingress,
                )
                .await?;
                let mut status = status;
                status.info = RouteInfo {
                    synced_deployments: autoroute::names(&deployments),
                };
                let message = format!("{} hosts routed", status.info.synced_deployments.len());
                wheelhouse::controller::conditions::set_condition(
                    &mut status.conditions,
                    "Routed",
                    "True",
                    "Synced",
                    &message,
                    route.meta().generation,
                );
                self.transition(&api, &route, status, phase, RoutePhase::Ready).await
            }
            RoutePhase::Ready => {
                let selected = autoroute::names(&self.selected(&route));
                if autoroute::next_when_ready(&route, &selected) == RoutePhase::Ready {
                    return Ok(Action::requeue_after(Duration::from_hours(1)));
                }
                self.transition(&api, &route, status, phase, RoutePhase::Syncing).await
            }
        }
    }
}

fn plain_controller(cache: &Cache, namespace: &str, runs: Arc<Runs>, metrics: &ControllerMetrics) -> Controller {
    let scope = Scope::namespace(namespace);
    let deployments = cache.informer::<Deployment>(scope.clone()).store().clone();
    deployments.add_index(LABELS, |d: &Deployment| {
        label_keys(d.metadata.namespace.as_deref().unwrap_or_default(), d.labels())
    });
    let routes = cache.informer::<AutoRoute>(scope.clone()).store().clone();
    routes.add_index(SELECTS, |r: &AutoRoute| {
        let wanted = r.spec.deployment_selector.match_labels.clone().unwrap_or_default();
        label_keys(r.metadata.namespace.as_deref().unwrap_or_default(), &wanted)
            .into_iter()
            .take(1)
            .collect()
    });
    let services = cache.informer::<Service>(scope.clone());
    services.store().add_index(OWNER, owner_uid);
    let ingresses = cache.informer::<Ingress>(scope.clone());
    ingresses.store().add_index(OWNER, owner_uid);
    let reporter = Reporter {
        controller: "autoroute-plain".into(),
        instance: None,
    };
    let plain = Plain {
        deployments,
        services: Applier::new(&services, "autoroute-plain"),
        service_store: services.store().clone(),
        ingresses: Applier::new(&ingresses, "autoroute-plain"),
        ingress_store: ingresses.store().clone(),
        recorder: Recorder::new(cache.client(), reporter),
        runs,
    };
    let phase = |r: &AutoRoute| r.status.as_ref().and_then(|s| s.phase);
    let selecting = routes.clone();
    Controller::for_::<AutoRoute>(cache)
        .name("autoroute-plain")
        .metrics(metrics)
        .namespace(namespace)
        .concurrency(CONCURRENCY)
        .owns_full::<Service>()
        .owns_full::<Ingress>()
        .watches::<Deployment>(move |d: &Deployment| {
            let keys = label_keys(d.metadata.namespace.as_deref().unwrap_or_default(), d.labels());
            let mut routes: Vec<ObjectKey> = keys
                .into_iter()
                .flat_map(|key| {
                    selecting
                        .list(&ListOptions {
                            index: Some((SELECTS.to_owned(), key)),
                            ..ListOptions::default()
                        })
                        .unwrap_or_default()
                })
                .map(|r| ObjectKey::of(r.as_ref()))
                .collect();
            routes.sort();
            routes.dedup();
            routes
        })
        .predicate(predicate::generation_changed().or(Predicate::new(move |old, new| phase(old) != phase(new))))
        .build(plain)
}

// ---------------------------------------------------------------------------------

fn phase_controller(cache: &Cache, namespace: &str, runs: Arc<Runs>, metrics: &ControllerMetrics) -> Controller {
    let scheduler: PhaseScheduler<AutoRoute> = autoroute::scheduler()
        .work_interval(Duration::from_hours(1))
        .on_sync(move |key, _| runs.record(&key.name));
    autoroute::builder(cache, Some(namespace))
        .metrics(metrics)
        .concurrency(CONCURRENCY)
        .build_phases(scheduler)
        .expect("a valid declaration")
}

struct Measured {
    all_ready: Duration,
    /// CPU time the whole process (server included) spent until every route was Ready.
    cpu: Duration,
    /// Reconciles that failed until then (409 Conflicts on a stale status, mostly).
    failed: u64,
    runs: u64,
    writes: u64,
    events: u64,
    relabel_ready: Duration,
    reran_routes: usize,
    reran_unaffected: usize,
    relabel_runs: u64,
}

/// Writes to the server the operator made: patches, updates and deletes of its
/// resources, and Events.
fn writes(env: &TestEnv) -> (u64, u64) {
    let server = env.server().expect("the embedded server");
    let resources: u64 = ["autoroutes", "services", "ingresses"]
        .iter()
        .map(|r| {
            [Verb::Patch, Verb::Update, Verb::Delete]
                .iter()
                .map(|v| server.request_count(*v, r))
                .sum::<u64>()
        })
        .sum();
    let events = server.request_count(Verb::Create, "events") + server.request_count(Verb::Patch, "events");
    (resources + events, events)
}

#[expect(clippy::too_many_lines, reason = "one run, step by step")]
async fn run(implementation: Implementation, routes: usize) -> Measured {
    let options = ServerOptions {
        watch_window: WatchWindow {
            min_events: 200_000,
            max_events: 200_000,
            ..WatchWindow::default()
        },
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options)
        .await
        .expect("the embedded server starts");
    env.install_crd(&AutoRoute::crd()).await.expect("the CRD installs");
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &namespace);
    futures::stream::iter(0..routes * PER_ROUTE)
        .map(|index| {
            let deployments = deployments.clone();
            async move {
                deployments
                    .create(&PostParams::default(), &deployment(index, index / PER_ROUTE))
                    .await
                    .expect("create");
            }
        })
        .buffer_unordered(64)
        .for_each(|()| async {})
        .await;

    let runs = Arc::new(Runs::default());
    let cache = Cache::new(client.clone());
    let registry = prometheus::Registry::new();
    let metrics = ControllerMetrics::register(&registry).expect("metrics register");
    let controller = match implementation {
        Implementation::PhaseScheduler => phase_controller(&cache, &namespace, runs.clone(), &metrics),
        Implementation::PlainReconciler => plain_controller(&cache, &namespace, runs.clone(), &metrics),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(controller.run(async {
        let _ = stopped.await;
    }));
    cache.wait_for_sync(Duration::from_mins(1)).await.expect("synced");
    let observer = Cache::new(client.clone());
    let tracker = Tracker::follow(&observer, &namespace);
    observer.wait_for_sync(Duration::from_mins(1)).await.expect("synced");

    let (writes_before, events_before) = writes(&env);
    let cpu_before = cpu_time();
    let api: Api<AutoRoute> = Api::namespaced(client.clone(), &namespace);
    let started = Instant::now();
    futures::stream::iter(0..routes)
        .map(|index| {
            let api = api.clone();
            async move {
                api.create(&PostParams::default(), &route(index)).await.expect("create");
            }
        })
        .buffer_unordered(64)
        .for_each(|()| async {})
        .await;
    tracker
        .wait("every route Ready", |seen| {
            seen.len() == routes
                && seen
                    .values()
                    .all(|(phase, synced)| *phase == Some(RoutePhase::Ready) && synced.len() == PER_ROUTE)
        })
        .await;
    let all_ready = started.elapsed();
    let cpu = cpu_time().saturating_sub(cpu_before);
    let (writes_after, events_after) = writes(&env);
    let runs_to_ready: u64 = runs.snapshot().values().sum();
    let failed = failed_reconciles(&registry);

    // Let the outputs' own events come back and settle before counting re-runs.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = runs.snapshot();
    let expected = after_relabel(routes);
    let affected: HashSet<String> = (0..RELABELLED)
        .flat_map(|k| [route_name(k), route_name(routes - 1 - k)])
        .collect();
    let started = Instant::now();
    for k in 0..RELABELLED {
        let patch = json!({"metadata": {"labels": {"route": route_name(routes - 1 - k)}}});
        deployments
            .patch(
                &format!("d-{}", k * PER_ROUTE),
                &PatchParams::default(),
                &Patch::Merge(&patch),
            )
            .await
            .expect("relabelled");
    }
    tracker
        .wait("the relabelled routes' statuses", |seen| {
            affected.iter().all(|name| {
                seen.get(name).is_some_and(|(phase, synced)| {
                    *phase == Some(RoutePhase::Ready) && Some(synced) == expected.get(name)
                })
            })
        })
        .await;
    let relabel_ready = started.elapsed();
    // Let stragglers (the pruned and added Services' events) run before counting.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = runs.snapshot();
    let reran: HashSet<&String> = after
        .iter()
        .filter(|(name, count)| before.get(*name).copied().unwrap_or(0) < **count)
        .map(|(name, _)| name)
        .collect();
    let relabel_runs = after.values().sum::<u64>() - before.values().sum::<u64>();

    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(30), running).await;
    env.stop().await;
    Measured {
        all_ready,
        cpu,
        failed,
        runs: runs_to_ready,
        writes: writes_after - writes_before,
        events: events_after - events_before,
        relabel_ready,
        reran_routes: reran.len(),
        reran_unaffected: reran.iter().filter(|name| !affected.contains(**name)).count(),
        relabel_runs,
    }
}

/// `controller_runtime_reconcile_errors_total`, summed.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a counter of a few events"
)]
fn failed_reconciles(registry: &prometheus::Registry) -> u64 {
    registry
        .gather()
        .iter()
        .filter(|family| family.name() == "controller_runtime_reconcile_errors_total")
        .flat_map(prometheus::proto::MetricFamily::get_metric)
        .map(|sample| sample.get_counter().get_value())
        .sum::<f64>() as u64
}

/// The CPU time this process has used (user and system, all threads), from
/// `/proc/self/stat` in clock ticks of 10 ms: with other work on the machine, a steadier
/// measure of the cost than wall time.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces, so split after its ')').
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |index: usize| fields.get(index).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are the 14th and 15th fields; the 3rd is the first after ')'.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

fn main() {
    let routes = setting("PHASES_BENCH_ROUTES", 1_000).max(2 * RELABELLED);
    let runs = setting("PHASES_BENCH_RUNS", 3).max(1);
    let runtime = runtime();
    println!(
        "phases bench: {routes} AutoRoutes x {PER_ROUTE} of {} Deployments, concurrency {CONCURRENCY}, median of {runs} runs, {} tokio worker threads",
        routes * PER_ROUTE,
        runtime.metrics().num_workers()
    );
    let implementations = selected(
        "PHASES_BENCH_ONLY",
        &[Implementation::PhaseScheduler, Implementation::PlainReconciler],
        Implementation::name,
    );
    let mut results: Vec<Vec<Measured>> = implementations.iter().map(|_| Vec::new()).collect();
    // Run 0 of each is a warm-up: the first run in a process is markedly slower.
    for run_number in 0..=runs {
        for (implementation, results) in implementations.iter().zip(&mut results) {
            let measured = runtime.block_on(run(*implementation, routes));
            eprintln!(
                "  run {run_number} {}: all Ready in {:.0} ms ({:.0} ms CPU), {} worker runs ({} failed), {} writes ({} Events); relabel: {} routes re-ran ({} unaffected), {} worker runs, statuses in {:.0} ms",
                implementation.name(),
                millis(measured.all_ready),
                millis(measured.cpu),
                measured.runs,
                measured.failed,
                measured.writes,
                measured.events,
                measured.reran_routes,
                measured.reran_unaffected,
                measured.relabel_runs,
                millis(measured.relabel_ready),
            );
            if run_number > 0 {
                results.push(measured);
            }
        }
    }
    let mut throughput = Vec::new();
    let mut cpu_costs = Vec::new();
    for (implementation, results) in implementations.iter().zip(results) {
        let all_ready = median(results.iter().map(|m| m.all_ready).collect());
        let relabel = median(results.iter().map(|m| m.relabel_ready).collect());
        let cpu = median(results.iter().map(|m| m.cpu).collect());
        let count = results.len() as u64;
        let average = |value: fn(&Measured) -> u64| results.iter().map(value).sum::<u64>() / count;
        let reran = results.iter().map(|m| m.reran_routes).max().unwrap_or(0);
        let unaffected = results.iter().map(|m| m.reran_unaffected).max().unwrap_or(0);
        let ready_per_s = per_second(routes, all_ready);
        println!(
            "bench=phases impl={} routes={routes} all_ready_ms={:.0} ready_per_s={ready_per_s:.0} cpu_ms={:.0} worker_runs={} writes={} events={}",
            implementation.name(),
            millis(all_ready),
            millis(cpu),
            average(|m| m.runs),
            average(|m| m.writes),
            average(|m| m.events),
        );
        println!(
            "bench=phases-relabel impl={} relabelled={RELABELLED} affected={} reran_routes={reran} reran_unaffected={unaffected} worker_runs={} status_ms={:.0}",
            implementation.name(),
            2 * RELABELLED,
            average(|m| m.relabel_runs),
            millis(relabel),
        );
        throughput.push(ready_per_s);
        cpu_costs.push(cpu);
    }
    if let ([ours, plain], [our_cpu, plain_cpu]) = (&throughput[..], &cpu_costs[..]) {
        println!(
            "ratio bench=phases throughput={:.2} cpu_per_route={:.2}",
            ours / plain,
            our_cpu.as_secs_f64() / plain_cpu.as_secs_f64()
        );
    }
}
