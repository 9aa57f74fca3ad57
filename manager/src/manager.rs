//! [`Manager`]: the client, the shared cache, the metrics registry and the runnables
//! of one operator process, and its builder.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt::{self, Debug};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use k8s_openapi::api::coordination::v1::Lease;
use parking_lot::Mutex;
use prometheus::Registry;
use tokio_util::sync::CancellationToken;
use wheelhouse_cache::{Cache, CacheMetrics, Scope, Shards};

use crate::Error;
use crate::args::ManagerArgs;
use crate::cert_watcher::{CertWatcher, ServingCertificate, tls_server_config};
use crate::certs::Certificates;
use crate::error::BoxError;
use crate::fence::Fence;
use crate::fence::server::{ServerFencing, ServerFencingError};
use crate::fence::webhook::{FenceWebhook, FencingMechanism};
use crate::health::{Check, Checks};
use crate::http::{Listener, Routes, Secure};
use crate::leader::{Elector, LeaderElection, LeaderMetrics, Leadership, default_identity};
use crate::metrics_auth::MetricsAuth;
use crate::ring::{Member, RING_LABEL, RingMetrics, Sharding};

mod lifecycle;
pub(crate) mod runnable;

use self::runnable::{Runnable, Stop};

/// One operator process: what its `main()` composes.
///
/// Start order: the metrics and probe server, then runnables that every replica runs
/// (webhook servers), then the caches (until synced), then — once this replica leads,
/// or at once without leader election — the leader-only runnables (controllers). On
/// SIGTERM/SIGINT (or the token given to [`ManagerBuilder::shutdown_signal`]) they stop
/// in reverse, within the graceful-shutdown timeout. A runnable that fails stops the
/// manager, and [`run`](Manager::run) returns its error.
///
/// ```no_run
/// # async fn example(client: kube::Client) -> Result<(), wheelhouse_manager::Error> {
/// use std::net::SocketAddr;
/// use wheelhouse_manager::{LeaderElection, Manager, Stop, runnable_fn};
///
/// let manager = Manager::builder(client)
///     .metrics_address(Some(SocketAddr::from(([0, 0, 0, 0], 8080))))
///     .health_probe_address(Some(SocketAddr::from(([0, 0, 0, 0], 8081))))
///     .leader_election(LeaderElection::new("my-operator"))
///     .build()?;
/// manager.add(runnable_fn("reporter", true, |stop: Stop| async move {
///     stop.requested().await;
///     Ok(())
/// }))?;
/// manager.run().await
/// # }
/// ```
#[derive(Clone)]
pub struct Manager {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    /// Fenced, with leader election: what runnables, the cache and controllers use.
    pub client: kube::Client,
    /// As given to the builder: the elector's, and every replica's work.
    pub unfenced_client: kube::Client,
    pub fence: Option<Arc<Fence>>,
    pub cache: Cache,
    pub registry: Registry,
    pub runnables: Mutex<Vec<Arc<dyn Runnable>>>,
    pub elector: Option<Arc<Elector>>,
    pub healthz: Checks,
    pub readyz: Checks,
    pub listeners: Mutex<Vec<Listener>>,
    pub addresses: Addresses,
    pub shutdown: CancellationToken,
    pub handle_signals: bool,
    pub graceful_shutdown_timeout: Duration,
    pub cache_sync_timeout: Duration,
    pub synced: AtomicBool,
    pub started: AtomicBool,
    /// How the server fences, once discovery has said.
    pub fencing_mechanism: std::sync::OnceLock<FencingMechanism>,
    /// Metric families registered once in `registry` and shared, by type.
    pub shared_metrics: Mutex<HashMap<TypeId, Box<dyn Any + Send + Sync>>>,
}

/// Where the HTTP endpoints were bound.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Addresses {
    pub metrics: Option<SocketAddr>,
    /// Metrics are HTTPS with authentication and authorization.
    pub metrics_secure: bool,
    pub health_probe: Option<SocketAddr>,
}

impl Debug for Manager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self
            .inner
            .runnables
            .lock()
            .iter()
            .map(|r| r.name().to_owned())
            .collect();
        f.debug_struct("Manager")
            .field("runnables", &names)
            .field("leader_election", &self.inner.elector.as_ref().map(|e| e.lease()))
            .finish_non_exhaustive()
    }
}

impl Manager {
    /// Starts building a manager around `client`.
    ///
    /// With leader election its writes are fenced where they are handed to `client`:
    /// a request frozen after that check may still leave at resume (see
    /// [`Fenced`](crate::Fenced)). [`Manager::builder_from_config`] closes that window.
    pub fn builder(client: kube::Client) -> ManagerBuilder {
        ManagerBuilder {
            client,
            config: None,
            registry: None,
            metrics_address: None,
            metrics_secure: false,
            metrics_cert_dir: None,
            metrics_certificates: None,
            http2: false,
            health_probe_address: None,
            leader_election: None,
            leader_election_id: None,
            sharding: None,
            shutdown: None,
            graceful_shutdown_timeout: Duration::from_secs(30),
            cache_sync_timeout: Duration::from_mins(2),
            args_error: None,
            cluster_url: None,
            server_fencing: None,
        }
    }

    /// Starts building a manager on the API server `config` describes: reads go
    /// through a client as `kube::Client::try_from(config)` makes it, except that a
    /// 429, 503 or 504 is retried three times within a second rather than after the
    /// server's `Retry-After` (a restarting kube-apiserver's `Retry-After: 10` for
    /// custom resources would keep the informers stale for seconds after `/readyz`;
    /// the callers' own backoff takes over), and, with leader
    /// election or sharding, writes through connections of their own that check the
    /// term on every write to the socket, so a request frozen anywhere above the
    /// socket is refused when the process resumes (see [`Fenced`](crate::Fenced)).
    /// Failed requests name `config.cluster_url`.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// let config = kube::Config::infer().await?;
    /// let manager = wheelhouse_manager::Manager::builder_from_config(config)?
    ///     .leader_election_id("my-operator")
    ///     .build()?;
    /// # let _ = manager; Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`Error::Client`] when kube cannot make a client of `config` (its TLS or
    /// credentials settings).
    pub fn builder_from_config(config: kube::Config) -> Result<ManagerBuilder, Error> {
        let client = crate::client::client_of(&config).map_err(Error::Client)?;
        let cluster_url = config.cluster_url.clone();
        let mut builder = Self::builder(client).cluster_url(cluster_url);
        builder.config = Some(config);
        Ok(builder)
    }

    /// The client everything reads and writes through. With leader election its
    /// writes are fenced: each is let through only while this replica's leadership
    /// term is valid, checked as it is sent, and cancelled if the term ends before the
    /// answer; a refused write fails with [`Fenced`](crate::Fenced) (inside
    /// `kube::Error::Service`). Reads always pass. The cache and the controllers built
    /// on it use this client, so a leader-only runnable's writes all go through it.
    pub fn client(&self) -> kube::Client {
        self.inner.client.clone()
    }

    /// The client as given to [`Manager::builder`] (its failed requests naming their
    /// URL), without fencing: for what every replica does (a webhook server's own objects, say), never for leader-only work.
    pub fn unfenced_client(&self) -> kube::Client {
        self.inner.unfenced_client.clone()
    }

    /// This replica's shards, in a sharded manager ([`ManagerBuilder::sharding`]): the
    /// slots its caches keep and its controllers reconcile.
    pub fn shards(&self) -> Option<&Shards> {
        self.inner.cache.shards()
    }

    /// The shared informer cache: one watch per type and scope, for every runnable.
    pub fn cache(&self) -> &Cache {
        &self.inner.cache
    }

    /// The Prometheus registry `/metrics` serves; register your own metrics here.
    pub fn registry(&self) -> &Registry {
        &self.inner.registry
    }

    /// The metric families of type `M`, registered with `register` the first time any
    /// runnable asks and shared after that (families can be registered only once).
    ///
    /// ```
    /// # fn example(manager: &wheelhouse_manager::Manager) -> prometheus::Result<()> {
    /// let first = manager.shared_metrics(wheelhouse_workqueue_like::register)?;
    /// let again = manager.shared_metrics(wheelhouse_workqueue_like::register)?; // not registered twice
    /// # let _ = (first, again); Ok(())
    /// # }
    /// # mod wheelhouse_workqueue_like {
    /// #   pub fn register(r: &prometheus::Registry) -> prometheus::Result<prometheus::IntCounter> {
    /// #       let c = prometheus::IntCounter::new("x_total", "x")?; r.register(Box::new(c.clone()))?; Ok(c)
    /// #   }
    /// # }
    /// ```
    pub fn shared_metrics<M>(&self, register: impl FnOnce(&Registry) -> prometheus::Result<M>) -> prometheus::Result<M>
    where
        M: Clone + Send + Sync + 'static,
    {
        let mut shared = self.inner.shared_metrics.lock();
        if let Some(existing) = shared.get(&TypeId::of::<M>())
            && let Some(metrics) = existing.downcast_ref::<M>()
        {
            return Ok(metrics.clone());
        }
        let metrics = register(&self.inner.registry)?;
        shared.insert(TypeId::of::<M>(), Box::new(metrics.clone()));
        Ok(metrics)
    }

    /// Adds a runnable; it starts when [`run`](Self::run) reaches its group. Calls its
    /// [`Runnable::register`] now.
    pub fn add(&self, runnable: impl Runnable) -> Result<(), Error> {
        if self.inner.started.load(Ordering::Acquire) {
            return Err(Error::AlreadyRunning);
        }
        let mut runnable = runnable;
        runnable.register(self).map_err(|source| Error::Register {
            name: runnable.name().to_owned(),
            source,
        })?;
        self.inner.runnables.lock().push(Arc::new(runnable));
        Ok(())
    }

    /// Adds a liveness check to `/healthz`, by name.
    pub fn add_healthz_check(
        &self,
        name: impl Into<String>,
        check: impl Fn() -> Result<(), String> + Send + Sync + 'static,
    ) {
        self.inner.healthz.add(name, Arc::new(check) as Check);
    }

    /// Adds a readiness check to `/readyz`, by name.
    pub fn add_readyz_check(
        &self,
        name: impl Into<String>,
        check: impl Fn() -> Result<(), String> + Send + Sync + 'static,
    ) {
        self.inner.readyz.add(name, Arc::new(check) as Check);
    }

    /// Adds a readiness notice to `/readyz`, by name: when it fails, `?verbose` lists it
    /// as `[+]name degraded: reason`, but the replica stays ready (a fleet's unreachable
    /// member is worth seeing, not a reason to stop serving the others).
    pub fn add_readyz_notice(
        &self,
        name: impl Into<String>,
        check: impl Fn() -> Result<(), String> + Send + Sync + 'static,
    ) {
        self.inner.readyz.add_notice(name, Arc::new(check) as Check);
    }

    /// Where `/metrics` is served (known from [`ManagerBuilder::build`] on).
    pub fn metrics_address(&self) -> Option<SocketAddr> {
        self.inner.addresses.metrics
    }

    /// Where `/healthz` and `/readyz` are served.
    pub fn health_probe_address(&self) -> Option<SocketAddr> {
        self.inner.addresses.health_probe
    }

    /// The webhook that fences [`ManagerBuilder::server_fencing`]'s writes on API
    /// servers without admission policies, judging them against this manager's Lease:
    /// serve it on every replica's webhook server at
    /// [`ServerFencing::webhook_path`]. None without server-side fencing.
    pub fn fence_webhook(&self) -> Option<FenceWebhook> {
        let fencing = self.inner.fence.as_ref()?.server_fencing()?;
        let elector = self.inner.elector.as_ref()?;
        Some(FenceWebhook::new(
            fencing,
            self.inner.unfenced_client.clone(),
            elector.namespace(),
            elector.lease_name(),
        ))
    }

    /// How the API server fences [`ManagerBuilder::server_fencing`]'s writes, from
    /// discovery (asked once, then remembered): the admission policy where the server
    /// has one, else the [`fence_webhook`](Self::fence_webhook). None without
    /// server-side fencing.
    ///
    /// # Errors
    /// Discovery's error (asked again next time).
    pub async fn server_fencing_mechanism(&self) -> Result<Option<FencingMechanism>, ServerFencingError> {
        if self
            .inner
            .fence
            .as_ref()
            .and_then(|fence| fence.server_fencing())
            .is_none()
        {
            return Ok(None);
        }
        if let Some(known) = self.inner.fencing_mechanism.get() {
            return Ok(Some(*known));
        }
        let mechanism = ServerFencing::mechanism(&self.inner.unfenced_client).await?;
        Ok(Some(*self.inner.fencing_mechanism.get_or_init(|| mechanism)))
    }

    /// This replica's identity in the Lease, with leader election.
    pub fn identity(&self) -> Option<&str> {
        self.inner.elector.as_deref().map(Elector::identity)
    }

    /// True while this replica runs leader-only work: it holds a valid lease and the
    /// manager has begun its term (its client's writes pass the fence; between the two,
    /// while the previous term's runnables are still stopping, they would not), or there
    /// is no leader election and the manager runs.
    pub fn is_leader(&self) -> bool {
        match &self.inner.elector {
            Some(elector) => matches!(
                &*elector.subscribe().borrow(),
                Leadership::Leader(term) if term.is_valid()
                    && self.inner.fence.as_ref().is_none_or(|fence| fence.has_entered(term))
            ),
            None => self.inner.started.load(Ordering::Acquire) && self.inner.synced.load(Ordering::Acquire),
        }
    }

    /// Resolves each time leadership changes, with whether this replica now leads
    /// (immediately with the current state the first time). It turns false as soon as
    /// the term ends, when writes start being refused; the manager logs the loss (and,
    /// with [`OnLeadershipLost::Exit`](crate::OnLeadershipLost::Exit), returns
    /// [`Error::LeadershipLost`]) only once every leader-only runnable stopped.
    pub fn leadership(&self) -> impl futures::Stream<Item = bool> + Send + 'static {
        let receiver = self.inner.elector.as_ref().map(|e| e.subscribe());
        futures::stream::unfold((receiver, true), |(receiver, first)| async move {
            let mut receiver = receiver?;
            if !first {
                receiver.changed().await.ok()?;
            }
            let leads = matches!(&*receiver.borrow_and_update(), Leadership::Leader(_));
            Some((leads, (Some(receiver), false)))
        })
    }

    /// Stops renewing and acquiring the lease for `duration`, as a process stalled by a
    /// long pause would, while everything else runs on: for failover tests. Leader-only
    /// work still stops at the renew deadline. No effect without leader election.
    pub fn pause_leader_election(&self, duration: Duration) {
        if let Some(elector) = &self.inner.elector {
            elector.pause(duration);
        }
    }

    /// A token that, when cancelled, stops the manager gracefully.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.inner.shutdown.clone()
    }

    /// Runs everything until shutdown or a failure; see [`Manager`] for the order.
    pub async fn run(self) -> Result<(), Error> {
        lifecycle::run(self).await
    }
}

/// Builds a [`Manager`]; see [`Manager::builder`].
#[must_use]
pub struct ManagerBuilder {
    client: kube::Client,
    /// Given to [`Manager::builder_from_config`]: the fenced writes' own HTTP stack is
    /// made from it.
    config: Option<kube::Config>,
    registry: Option<Registry>,
    metrics_address: Option<SocketAddr>,
    metrics_secure: bool,
    metrics_cert_dir: Option<PathBuf>,
    metrics_certificates: Option<Certificates>,
    http2: bool,
    health_probe_address: Option<SocketAddr>,
    leader_election: Option<LeaderElection>,
    leader_election_id: Option<String>,
    sharding: Option<Sharding>,
    shutdown: Option<CancellationToken>,
    graceful_shutdown_timeout: Duration,
    cache_sync_timeout: Duration,
    args_error: Option<Error>,
    cluster_url: Option<http::Uri>,
    server_fencing: Option<ServerFencing>,
}

impl ManagerBuilder {
    /// Applies the command-line options: addresses, secure metrics (`--metrics-secure`,
    /// on by default, with `--metrics-cert-path`), `--enable-http2`, and leader election when
    /// `--leader-elect` is given (its Lease named by `--leader-election-id`, else by
    /// [`leader_election_id`](Self::leader_election_id)).
    pub fn args(mut self, args: &ManagerArgs) -> Self {
        match (args.metrics_address(), args.health_probe_address()) {
            (Ok(metrics), Ok(probes)) => {
                self.metrics_address = metrics;
                self.health_probe_address = probes;
            }
            (Err(error), _) | (_, Err(error)) => self.args_error = Some(error),
        }
        self.metrics_secure = args.metrics_secure;
        self.metrics_cert_dir.clone_from(&args.metrics_cert_path);
        self.http2 = args.enable_http2;
        if args.leader_elect {
            let id = args
                .leader_election_id
                .clone()
                .or_else(|| self.leader_election_id.clone());
            let mut election = LeaderElection::new(id.unwrap_or_default());
            if let Some(namespace) = &args.leader_election_namespace {
                election = election.namespace(namespace);
            }
            self.leader_election = Some(election);
        }
        self
    }

    /// The Lease name `--leader-elect` uses when `--leader-election-id` is not given.
    pub fn leader_election_id(mut self, id: impl Into<String>) -> Self {
        let id = id.into();
        if let Some(election) = &mut self.leader_election
            && election.lease_name.is_empty()
        {
            election.lease_name.clone_from(&id);
        }
        self.leader_election_id = Some(id);
        self
    }

    /// Serves `/metrics` on `address` (None, the default: not served). Port 0 picks a
    /// free port; [`Manager::metrics_address`] tells which.
    pub fn metrics_address(mut self, address: Option<SocketAddr>) -> Self {
        self.metrics_address = address;
        self
    }

    /// Serves `/metrics` over HTTPS and lets a request through only when the API server
    /// authenticates its bearer token (a `TokenReview`) and authorizes the user to `get`
    /// the non-resource URL `/metrics` (a `SubjectAccessReview`), as kubebuilder's
    /// scaffold does; answers are cached briefly. The certificate comes from
    /// [`metrics_cert_dir`](Self::metrics_cert_dir) or
    /// [`metrics_certificates`](Self::metrics_certificates), else is self-signed. Off
    /// by default for a builder, as in controller-runtime; [`args`](Self::args) turns it
    /// on (`--metrics-secure` defaults to true). Give the scraper's `ServiceAccount` the
    /// `metrics-reader` `ClusterRole` of `deploy/metrics-auth.yaml`.
    pub fn metrics_secure(mut self, secure: bool) -> Self {
        self.metrics_secure = secure;
        self
    }

    /// Where secure metrics find `tls.crt` and `tls.key`, reloaded when they change
    /// (`--metrics-cert-path`).
    pub fn metrics_cert_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.metrics_cert_dir = Some(dir.into());
        self
    }

    /// Certificates held in memory for secure metrics, served instead of a directory's.
    pub fn metrics_certificates(mut self, certificates: Certificates) -> Self {
        self.metrics_certificates = Some(certificates);
        self
    }

    /// Offers HTTP/2 on the secure metrics server (`--enable-http2`; off by default
    /// since HTTP/2's rapid-reset attack). Plain HTTP is always HTTP/1.1.
    pub fn enable_http2(mut self, enable: bool) -> Self {
        self.http2 = enable;
        self
    }

    /// Serves `/healthz` and `/readyz` on `address` (None, the default: not served).
    pub fn health_probe_address(mut self, address: Option<SocketAddr>) -> Self {
        self.health_probe_address = address;
        self
    }

    /// Shards the controllers across the replicas instead of electing one leader:
    /// every replica that holds its membership Lease in the ring runs the leader-only
    /// runnables, and each controller reconciles only the objects of the slots the
    /// ring hands this replica (see [`Sharding`] and the protocol in its module). A
    /// leader-only runnable that must run once per cluster needs a manager of its own,
    /// with leader election.
    ///
    /// ```no_run
    /// # async fn example(client: kube::Client) -> Result<(), wheelhouse_manager::Error> {
    /// use wheelhouse_manager::{Manager, Sharding};
    ///
    /// let manager = Manager::builder(client)
    ///     .sharding(Sharding::new("webapp-operator"))
    ///     .build()?;
    /// // Controllers built on manager.cache() now keep and reconcile this replica's share.
    /// manager.run().await
    /// # }
    /// ```
    pub fn sharding(mut self, sharding: Sharding) -> Self {
        self.sharding = Some(sharding);
        self
    }

    /// Asks the API server to fence the writes `fencing` names (opt-in, with leader
    /// election): the manager's client stamps each create, update and patch of those
    /// resources with its term ([`TERM_ANNOTATION`](crate::TERM_ANNOTATION)), and the
    /// `ValidatingAdmissionPolicy` of [`ServerFencing::manifests`] (installed with the
    /// operator's `deploy/`, or by [`ServerFencing::install`]) refuses a write from a
    /// term that has ended, however late it arrives. What it costs and leaves out is on
    /// [`ServerFencing`]'s module. [`build`](Self::build) refuses it with sharding.
    pub fn server_fencing(mut self, fencing: ServerFencing) -> Self {
        self.server_fencing = Some(fencing);
        self
    }

    /// Elects one leader among the replicas, which alone runs the leader-only
    /// runnables. Exclusive with [`sharding`](Self::sharding).
    pub fn leader_election(mut self, election: LeaderElection) -> Self {
        self.leader_election = Some(election);
        self
    }

    /// Registers metrics in `registry` instead of a new one.
    pub fn registry(mut self, registry: Registry) -> Self {
        self.registry = Some(registry);
        self
    }

    /// Stops the manager when `token` is cancelled, instead of on SIGTERM/SIGINT.
    pub fn shutdown_signal(mut self, token: CancellationToken) -> Self {
        self.shutdown = Some(token);
        self
    }

    /// How long stopping may take in all before the stragglers are abandoned
    /// (default 30 s).
    pub fn graceful_shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.graceful_shutdown_timeout = timeout;
        self
    }

    /// How long the caches may take to sync before the manager gives up (default 2 min).
    pub fn cache_sync_timeout(mut self, timeout: Duration) -> Self {
        self.cache_sync_timeout = timeout;
        self
    }

    /// The API server's URL, as the `kube::Config` the client was made from has it
    /// (`config.cluster_url`), so that a request that gets no answer names it:
    /// `GET https://10.0.0.1:443/api/v1/...: client error (Connect): tcp connect error:
    /// Connection refused (os error 111)`. kube's client does not tell its URL; without
    /// this, such errors name the request's path.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// let config = kube::Config::infer().await?;
    /// let cluster_url = config.cluster_url.clone();
    /// let manager = wheelhouse_manager::Manager::builder(kube::Client::try_from(config)?)
    ///     .cluster_url(cluster_url)
    ///     .build()?;
    /// # let _ = manager; Ok(())
    /// # }
    /// ```
    pub fn cluster_url(mut self, url: http::Uri) -> Self {
        self.cluster_url = Some(url);
        self
    }

    /// Validates the options, registers the cache's, the process's and the leader
    /// election's metrics, and binds the HTTP listeners.
    pub fn build(mut self) -> Result<Manager, Error> {
        if let Some(error) = self.args_error.take() {
            return Err(error);
        }
        // Every client the manager hands out names the URL of a request that got no answer.
        self.client = wheelhouse_cache::name_request_urls(self.client, self.cluster_url.as_ref());
        let secure = self.secure_metrics_if_asked()?;
        let shard_ring = self.ring_member()?;
        let registry = self.registry.take().unwrap_or_default();
        registry.register(Box::new(prometheus::process_collector::ProcessCollector::for_self()))?;
        let elector = match &shard_ring {
            Some((_, elector)) => Some(elector.clone()),
            None => self.leader_elector(&registry)?,
        };
        if self.server_fencing.is_some() && (shard_ring.is_some() || elector.is_none()) {
            return Err(Error::InvalidLeaderElection(
                "server-side fencing needs leader election, without sharding (a ring member's term is its own Lease's, which one policy binding cannot name)".into(),
            ));
        }
        let fence = elector.as_ref().map(|elector| match &self.config {
            Some(config) => {
                let cluster_url = self.cluster_url.clone();
                Fence::to_the_socket(elector.lease(), config.clone(), move |writes| {
                    wheelhouse_cache::name_request_urls(writes, cluster_url.as_ref())
                })
            }
            None => Fence::new(elector.lease(), self.client.clone()),
        });
        if let (Some(fence), Some(fencing)) = (&fence, self.server_fencing.take()) {
            fence.stamp_with(fencing);
        }
        let client = match &fence {
            Some(fence) => fence.client(self.client.clone()),
            None => self.client.clone(),
        };
        let shards = shard_ring.as_ref().map(|(sharding, _)| Shards::new(sharding.key));
        let cache = Cache::with_shards(client.clone(), Some(CacheMetrics::register(&registry)?), shards.clone());
        let (healthz, readyz) = health_checks(elector.as_ref());
        let (listeners, addresses) = bind(
            self.metrics_address,
            self.health_probe_address,
            secure,
            &registry,
            &healthz,
            &readyz,
        )?;
        let handle_signals = self.shutdown.is_none();
        let manager = Manager {
            inner: Arc::new(Inner {
                client,
                unfenced_client: self.client,
                fence,
                cache,
                registry,
                runnables: Mutex::new(Vec::new()),
                elector,
                healthz,
                readyz,
                listeners: Mutex::new(listeners),
                addresses,
                shutdown: self.shutdown.unwrap_or_default(),
                handle_signals,
                graceful_shutdown_timeout: self.graceful_shutdown_timeout,
                cache_sync_timeout: self.cache_sync_timeout,
                synced: AtomicBool::new(false),
                started: AtomicBool::new(false),
                fencing_mechanism: std::sync::OnceLock::new(),
                shared_metrics: Mutex::new(HashMap::new()),
            }),
        };
        if let (Some((sharding, elector)), Some(shards)) = (shard_ring, shards) {
            join_ring(&manager, &sharding, elector, shards)?;
        }
        add_informers_readiness(&manager);
        Ok(manager)
    }
}

impl ManagerBuilder {
    /// The secure metrics' TLS and reviews, when metrics are served and secure.
    fn secure_metrics_if_asked(&self) -> Result<Option<Secure>, Error> {
        if self.metrics_secure && self.metrics_address.is_some() {
            self.secure_metrics().map(Some)
        } else {
            Ok(None)
        }
    }

    /// With leader election, the elector of the one Lease, its metrics registered.
    fn leader_elector(&self, registry: &Registry) -> Result<Option<Arc<Elector>>, Error> {
        let Some(election) = self.leader_election.clone() else {
            return Ok(None);
        };
        if election.lease_name.is_empty() {
            return Err(Error::MissingLeaderElectionId);
        }
        election.validate()?;
        let identity = election.identity.clone().unwrap_or_else(default_identity);
        let namespace = election
            .namespace
            .clone()
            .unwrap_or_else(|| own_namespace(&self.client));
        let metrics = LeaderMetrics::register(registry, &election.lease_name)?;
        Ok(Some(Elector::new(
            self.client.clone(),
            election,
            identity,
            namespace,
            Some(metrics),
        )))
    }

    /// With sharding, the elector of this replica's own Lease in the ring.
    fn ring_member(&self) -> Result<Option<(Sharding, Arc<Elector>)>, Error> {
        let sharding = match (&self.sharding, &self.leader_election) {
            (Some(_), Some(_)) => {
                return Err(Error::InvalidLeaderElection(
                    "sharding and leader election are exclusive: each ring member holds a Lease of its own; drop --leader-elect or the sharding".into(),
                ));
            }
            (Some(sharding), None) => sharding,
            (None, _) => return Ok(None),
        };
        sharding.validate()?;
        let identity = sharding.election.identity.clone().unwrap_or_else(default_identity);
        let namespace = sharding
            .election
            .namespace
            .clone()
            .unwrap_or_else(|| own_namespace(&self.client));
        let labels = std::collections::BTreeMap::from([(RING_LABEL.to_owned(), sharding.ring.clone())]);
        let elector = Elector::with_labels(
            self.client.clone(),
            sharding.member_election(&identity),
            identity,
            namespace,
            labels,
        );
        Ok(Some((sharding.clone(), elector)))
    }

    /// The TLS and the reviews of secure metrics. The reviews are sent by every
    /// replica, leader or not, so through the client as given, never fenced.
    fn secure_metrics(&self) -> Result<Secure, Error> {
        let (serving, watcher) = if let Some(certificates) = &self.metrics_certificates {
            (ServingCertificate::new(certificates.certified_key()?), None)
        } else if let Some(dir) = &self.metrics_cert_dir {
            let watcher = CertWatcher::load(dir)?;
            (watcher.serving(), Some(watcher))
        } else {
            let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
            if let Some(address) = self.metrics_address
                && !address.ip().is_unspecified()
            {
                names.push(address.ip().to_string());
            }
            if let Ok(host) = hostname::get()
                && let Some(host) = host.to_str()
            {
                names.push(host.to_owned());
            }
            let certificates = Certificates::self_signed(names)?;
            tracing::info!(
                "metrics are served with a self-signed certificate; give --metrics-cert-path for one a scraper can verify"
            );
            (ServingCertificate::new(certificates.certified_key()?), None)
        };
        let config = tls_server_config(serving, self.http2)?;
        Ok(Secure {
            acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(config)),
            watcher,
            auth: Arc::new(MetricsAuth::new(self.client.clone())),
        })
    }
}

/// `/healthz` (a ping, and with an elector a wedged leader's check) and `/readyz`
/// (filled once the manager exists).
fn health_checks(elector: Option<&Arc<Elector>>) -> (Checks, Checks) {
    let healthz = Checks::default();
    let readyz = Checks::default();
    healthz.add("ping", Arc::new(|| Ok(())));
    if let Some(elector) = elector {
        let elector = elector.clone();
        healthz.add("leader-election", Arc::new(move || elector.health()));
    }
    (healthz, readyz)
}

/// `/readyz` passes once the manager's caches have synced.
fn add_informers_readiness(manager: &Manager) {
    let weak = Arc::downgrade(&manager.inner);
    manager.inner.readyz.add(
        "informers",
        Arc::new(move || match weak.upgrade() {
            Some(inner) if inner.synced.load(Ordering::Acquire) && inner.cache.has_synced() => Ok(()),
            Some(_) => Err("the caches have not synced yet".into()),
            None => Err("the manager is gone".into()),
        }),
    );
}

/// Adds the runnable that follows the ring's Leases and moves this replica's slots.
fn join_ring(manager: &Manager, sharding: &Sharding, elector: Arc<Elector>, shards: Shards) -> Result<(), Error> {
    let namespace = elector.namespace().to_owned();
    let leases = manager
        .inner
        .cache
        .informer::<Lease>(Scope::namespace(namespace.clone()).labels(format!("{RING_LABEL}={}", sharding.ring)));
    let metrics = RingMetrics::register(&manager.inner.registry, &sharding.ring)?;
    manager.add(Member::new(
        sharding.ring.clone(),
        elector,
        shards,
        leases,
        kube::Api::namespaced(manager.inner.unfenced_client.clone(), &namespace),
        Some(metrics),
    ))
}

/// Binds the metrics and probe listeners: one listener when both share an address
/// (plain metrics only: secure metrics are HTTPS, probes plain HTTP).
fn bind(
    metrics: Option<SocketAddr>,
    probes: Option<SocketAddr>,
    secure: Option<Secure>,
    registry: &Registry,
    healthz: &Checks,
    readyz: &Checks,
) -> Result<(Vec<Listener>, Addresses), Error> {
    let metric_routes = || Routes {
        metrics: Some(registry.clone()),
        probes: None,
    };
    let probe_routes = || Routes {
        metrics: None,
        probes: Some((healthz.clone(), readyz.clone())),
    };
    let mut addresses = Addresses::default();
    let mut listeners = Vec::new();
    match (metrics, probes) {
        (Some(m), Some(p)) if m == p && m.port() != 0 && secure.is_some() => {
            return Err(Error::SecureMetricsShareProbeAddress { address: m });
        }
        (Some(m), Some(p)) if m == p && m.port() != 0 => {
            let routes = Routes {
                metrics: Some(registry.clone()),
                probes: Some((healthz.clone(), readyz.clone())),
            };
            let listener = Listener::bind(m, "metrics and health probe", routes)?;
            addresses.metrics = listener.local_addr();
            addresses.health_probe = addresses.metrics;
            listeners.push(listener);
        }
        (metrics, probes) => {
            if let Some(address) = metrics {
                let mut listener = Listener::bind(address, "metrics", metric_routes())?;
                if let Some(secure) = secure {
                    if let Some(watcher) = &secure.watcher {
                        // A certificate that cannot be read or loaded is kept serving,
                        // and the replica says it is not ready.
                        let health = watcher.health();
                        readyz.add("metrics-certificate", Arc::new(move || health.check()));
                    }
                    listener = listener.secure(secure);
                    addresses.metrics_secure = true;
                }
                addresses.metrics = listener.local_addr();
                listeners.push(listener);
            }
            if let Some(address) = probes {
                let listener = Listener::bind(address, "health probe", probe_routes())?;
                addresses.health_probe = listener.local_addr();
                listeners.push(listener);
            }
        }
    }
    Ok((listeners, addresses))
}

/// The pod's namespace in a cluster, else the client's default namespace.
fn own_namespace(client: &kube::Client) -> String {
    std::fs::read_to_string("/var/run/secrets/kubernetes.io/serviceaccount/namespace")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| client.default_namespace().to_owned())
}

/// The ring member is one of the manager's runnables, on every replica.
impl Runnable for Member {
    fn name(&self) -> &'static str {
        "shard-ring"
    }

    /// Every replica follows the ring, member or not.
    fn needs_leader_election(&self) -> bool {
        false
    }

    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
        Box::pin(async move {
            self.run(stop.requested()).await;
            Ok(())
        })
    }
}
