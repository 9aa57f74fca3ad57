//! The WebApp operator as the benchmarks run it: over loopback HTTP, under our
//! `Controller` or under `kube::runtime::Controller` calling the same reconcile logic,
//! with a record of when each WebApp was first reconciled.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use kube::ResourceExt;
use kube::api::{Api, ListParams};
use kube::runtime::watcher;
use wheelhouse::cache::Cache;
use wheelhouse::controller::{Action, Builder, Context, Error, Reconciler};
use wheelhouse_examples::webapp::{self, Phase, WebApp, WebAppReconciler};

use super::percentile;

/// Concurrent reconciles of each controller (and of each sharded replica).
pub const CONCURRENCY: usize = 8;

/// A client of the embedded server's loopback HTTP listener.
///
/// # Panics
/// Never for a loopback address: the URL and the client's configuration are valid.
pub fn http_client(address: SocketAddr, namespace: &str) -> kube::Client {
    let url = format!("http://{address}").parse().expect("a URL");
    let mut config = kube::Config::new(url);
    namespace.clone_into(&mut config.default_namespace);
    kube::Client::try_from(config).expect("an HTTP client")
}

/// When each object was created and when its first reconcile started.
#[derive(Default)]
pub struct Timeline {
    pub created: DashMap<String, Instant>,
    pub first_start: DashMap<String, Instant>,
    pub reconciles: AtomicU64,
    pub errors: AtomicU64,
}

impl Timeline {
    pub fn started(&self, name: String) {
        self.reconciles.fetch_add(1, Ordering::Relaxed);
        self.first_start.entry(name).or_insert_with(Instant::now);
    }

    /// p50 and p99 of creation-to-first-reconcile.
    pub fn latencies(&self) -> (Duration, Duration) {
        let mut latencies: Vec<Duration> = self
            .created
            .iter()
            .filter_map(|c| {
                self.first_start
                    .get(c.key())
                    .map(|s| s.saturating_duration_since(*c.value()))
            })
            .collect();
        (
            percentile(&mut latencies, 50).unwrap_or_default(),
            percentile(&mut latencies, 99).unwrap_or_default(),
        )
    }

    /// When the first reconcile of all started, if one did.
    pub fn first_reconcile(&self) -> Option<Instant> {
        self.first_start.iter().map(|s| *s.value()).min()
    }
}

/// Our controller's reconciler: the operator's, timed.
pub struct Timed {
    pub inner: WebAppReconciler,
    pub timeline: Arc<Timeline>,
}

impl Reconciler<WebApp> for Timed {
    async fn reconcile(&self, webapp: Arc<WebApp>, context: &Context) -> Result<Action, Error> {
        self.timeline.started(webapp.name_any());
        let result = self.inner.reconcile(webapp, context).await;
        if result.is_err() {
            self.timeline.errors.fetch_add(1, Ordering::Relaxed);
        }
        result
    }
}

/// kube-runtime wants an `std::error::Error`.
#[derive(Debug)]
pub struct Failed(String);

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failed {}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Implementation {
    Wheelhouse,
    KubeRuntime,
}

impl Implementation {
    pub fn name(self) -> &'static str {
        match self {
            Self::Wheelhouse => "wheelhouse",
            Self::KubeRuntime => "kube-runtime",
        }
    }
}

/// Whether all `count` WebApps are Ready with their one replica available.
///
/// # Panics
/// When the list fails: the bench's own server does not refuse it.
pub async fn all_ready(api: &Api<WebApp>, count: usize) -> bool {
    let list = api.list(&ListParams::default()).await.expect("list");
    list.items.len() == count && list.items.iter().all(is_ready)
}

/// Whether `webapp` is Ready with its one replica available.
fn is_ready(webapp: &WebApp) -> bool {
    let status = webapp.status.as_ref();
    status.and_then(|s| s.phase) == Some(Phase::Ready) && status.and_then(|s| s.available_replicas) == Some(1)
}

/// Waits until `count` WebApps of `api` are Ready, counting them from a watch (one list,
/// then one event per change): a check that listed all of them every few milliseconds
/// would cost N per look and take a share of the cores that grows with N from the
/// operator it times.
///
/// # Panics
/// When the watch ends: the bench's own server does not end it.
pub async fn until_all_ready(api: Api<WebApp>, count: usize) {
    use kube::runtime::WatchStreamExt;
    use kube::runtime::watcher::Event;
    let mut ready = std::collections::HashSet::new();
    let mut events = std::pin::pin!(watcher(api, watcher::Config::default()).default_backoff());
    while ready.len() < count {
        let Some(event) = events.next().await else {
            panic!("the watch of WebApps ended");
        };
        match event {
            // A relist starts over: the objects come again, then `InitDone`.
            Ok(Event::Init) => ready.clear(),
            Ok(Event::Apply(webapp) | Event::InitApply(webapp)) => {
                if is_ready(&webapp) {
                    ready.insert(webapp.name_any());
                } else {
                    ready.remove(&webapp.name_any());
                }
            }
            Ok(Event::Delete(webapp)) => {
                ready.remove(&webapp.name_any());
            }
            Ok(Event::InitDone) | Err(_) => {}
        }
    }
}

/// Writes per probe of [`write_cost`].
const PROBE_WRITES: usize = 200;

/// The server's cost of one write as it holds what it holds now: the mean time of
/// [`PROBE_WRITES`] merge patches of one small `ConfigMap`, one after another.
///
/// # Panics
/// When the server refuses the `ConfigMap` or a patch: the bench's own server does not.
pub async fn write_cost(client: kube::Client, namespace: &str) -> Duration {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Patch, PatchParams, PostParams};
    let configmaps: Api<ConfigMap> = Api::namespaced(client, namespace);
    let name = "write-probe";
    if configmaps.get_opt(name).await.expect("get").is_none() {
        let mut probe = ConfigMap::default();
        probe.metadata.name = Some(name.to_owned());
        configmaps.create(&PostParams::default(), &probe).await.expect("create");
    }
    let start = Instant::now();
    for n in 0..PROBE_WRITES {
        let patch = serde_json::json!({"data": {"n": n.to_string()}});
        configmaps
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("patch");
    }
    start.elapsed() / u32::try_from(PROBE_WRITES).unwrap_or(u32::MAX)
}

/// How many WebApps `api` holds by phase and available replicas, to say where a run
/// that timed out stood.
///
/// # Panics
/// When the list fails.
pub async fn phases(api: &Api<WebApp>) -> std::collections::BTreeMap<String, usize> {
    let list = api.list(&ListParams::default()).await.expect("list");
    let mut phases = std::collections::BTreeMap::<String, usize>::new();
    for webapp in &list.items {
        let status = webapp.status.as_ref();
        let phase = format!(
            "{:?}/{:?}",
            status.and_then(|s| s.phase),
            status.and_then(|s| s.available_replicas)
        );
        *phases.entry(phase).or_default() += 1;
    }
    phases
}

/// Our controller's builder for the WebApps of `namespace` on `cache`: the operator's,
/// with the benchmarks' concurrency.
pub fn wheelhouse_builder(cache: &Cache, namespace: String) -> Builder<WebApp> {
    wheelhouse::controller::Controller::for_::<WebApp>(cache)
        .namespace(namespace)
        .owns_full::<Deployment>()
        .owns_full::<Service>()
        .predicate(webapp::worth_a_reconcile())
        .concurrency(CONCURRENCY)
}

/// Runs `implementation`'s controller of the WebApps in `namespace` until `shutdown`.
///
/// # Panics
/// Never: the builder owns Deployments and Services whole, as the cached reconciler
/// needs.
pub async fn operate(
    implementation: Implementation,
    client: kube::Client,
    namespace: String,
    timeline: Arc<Timeline>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) {
    match implementation {
        Implementation::Wheelhouse => {
            let cache = Cache::new(client.clone());
            let builder = wheelhouse_builder(&cache, namespace);
            let inner = WebAppReconciler::cached(&builder).expect("the builder owns Deployments and Services whole");
            let controller = builder.build(Timed { inner, timeline });
            controller.run(shutdown).await;
        }
        Implementation::KubeRuntime => {
            let config =
                kube::runtime::controller::Config::default().concurrency(u16::try_from(CONCURRENCY).unwrap_or(8));
            let webapps: Api<WebApp> = Api::namespaced(client.clone(), &namespace);
            let reconciler = Arc::new(WebAppReconciler::new());
            kube::runtime::Controller::new(webapps, watcher::Config::default())
                .with_config(config)
                .owns(
                    Api::<Deployment>::namespaced(client.clone(), &namespace),
                    watcher::Config::default(),
                )
                .owns(
                    Api::<Service>::namespaced(client.clone(), &namespace),
                    watcher::Config::default(),
                )
                .graceful_shutdown_on(shutdown)
                .run(
                    move |webapp: Arc<WebApp>, reconciler: Arc<WebAppReconciler>| {
                        timeline.started(webapp.name_any());
                        let context = Context::new(client.clone(), "webapp");
                        let timeline = timeline.clone();
                        async move {
                            let result = reconciler.reconcile(webapp, &context).await;
                            if result.is_err() {
                                timeline.errors.fetch_add(1, Ordering::Relaxed);
                            }
                            result
                                .map(|action| match action.requeue_delay() {
                                    Some(delay) => kube::runtime::controller::Action::requeue(delay),
                                    None => kube::runtime::controller::Action::await_change(),
                                })
                                .map_err(|e| Failed(e.to_string()))
                        }
                    },
                    |_, _: &Failed, _| kube::runtime::controller::Action::requeue(Duration::from_millis(10)),
                    reconciler,
                )
                .for_each(|_| async {})
                .await;
        }
    }
}
