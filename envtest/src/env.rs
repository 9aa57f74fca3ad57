//! [`TestEnv`]: what a test runs against, the embedded server, an existing cluster or
//! the etcd and kube-apiserver of `KUBEBUILDER_ASSETS` (`assets`), with the same
//! helpers on all so one test suite serves all; the embedded server on
//! a loopback port for kubectl (`http`), stopped and started again as a restart
//! (`restart`), waiting for what a test expects (`wait`), and applying an operator's
//! manifests (`apply`).
//!
//! May import: `core`, `options`, `state`.

mod apply;
mod assets;
mod cleanup;
pub(crate) mod http;
mod restart;
pub(crate) mod wait;
mod witness;

pub use self::restart::{START_COMMAND, STOP_COMMAND};
pub use self::witness::AUDIT_LOG;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::options::ServerOptions;
use crate::state::ApiServer;

/// Why a test environment could not start or a helper failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A request to the API server failed.
    #[error("request to the API server failed: {0}")]
    Kube(#[from] kube::Error),
    /// `USE_EXISTING_CLUSTER=true` but no usable kubeconfig or in-cluster config.
    #[error("USE_EXISTING_CLUSTER=true but no cluster configuration was found: {0}")]
    Config(String),
    /// Writing the kubeconfig or binding a port failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Something the helper waited for did not happen in time.
    #[error("timed out after {seconds} s waiting for {what}")]
    Timeout {
        /// What was awaited.
        what: String,
        /// How long.
        seconds: u64,
    },
    /// A manifest given to [`TestEnv::apply`] is not YAML of Kubernetes objects.
    #[error("cannot apply the manifest: {0}")]
    Manifest(String),
    /// The etcd and kube-apiserver of `KUBEBUILDER_ASSETS` did not start.
    #[error("the control plane of KUBEBUILDER_ASSETS did not start: {0}")]
    Assets(String),
    /// The helper needs the embedded server (for example `serve_http`).
    #[error("{0} needs the embedded API server, but this environment uses an existing cluster")]
    NotEmbedded(&'static str),
}

/// A Kubernetes API for one test, chosen as Go's envtest chooses:
///
/// 1. `USE_EXISTING_CLUSTER=true`: the cluster of the kubeconfig ([`existing`](TestEnv::existing));
/// 2. else, when `KUBEBUILDER_ASSETS` names a folder holding `etcd` and
///    `kube-apiserver`: those binaries, started once per test process on free loopback
///    ports and shared by its tests ([`assets`](TestEnv::assets)), reached as an existing
///    cluster is (no controllers run there: no kube-controller-manager is started);
/// 3. else the embedded server ([`embedded`](TestEnv::embedded)), the default: no
///    binaries, starts in microseconds, simulates the controllers and records what
///    tests witness.
///
/// Each environment creates a fresh namespace for its test ([`TestEnv::namespace`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), wheelhouse_envtest::Error> {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use kube::api::{Api, PostParams};
/// use wheelhouse_envtest::TestEnv;
///
/// let env = TestEnv::start().await?;
/// let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
/// let mut config = ConfigMap::default();
/// config.metadata.name = Some("settings".into());
/// let created = configmaps.create(&PostParams::default(), &config).await?;
/// assert!(created.metadata.uid.is_some());
/// env.stop().await;
/// # Ok(())
/// # }
/// ```
pub struct TestEnv {
    client: kube::Client,
    server: Option<ApiServer>,
    /// The configuration of an existing cluster, to clean up after the test.
    cluster: Option<kube::Config>,
    namespace: String,
    dir: tempfile::TempDir,
    served_at: Option<SocketAddr>,
    /// The HTTP listener of [`serve_http`](Self::serve_http), ended with the
    /// environment.
    serving: Option<http::Serving>,
    kubeconfig: Option<PathBuf>,
    /// The API server's audit log, when this environment started it (the witnesses
    /// read an existing cluster's from `ENVTEST_AUDIT_LOG`): Some on the control plane
    /// of `KUBEBUILDER_ASSETS` only.
    audit_log: Option<PathBuf>,
    /// What helpers asked to undo when the environment stops ([`on_stop`](Self::on_stop)).
    cleanups: cleanup::Cleanups,
    stopped: bool,
}

impl std::fmt::Debug for TestEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestEnv")
            .field("embedded", &self.server.is_some())
            .field("namespace", &self.namespace)
            .finish_non_exhaustive()
    }
}

/// True when `USE_EXISTING_CLUSTER` asks for the kubeconfig's cluster.
pub fn use_existing_cluster() -> bool {
    env_flag("USE_EXISTING_CLUSTER")
}

/// The API server a test environment runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The embedded server: simulated controllers, faults, witnesses.
    Embedded,
    /// The etcd and kube-apiserver of `KUBEBUILDER_ASSETS`, started by the test
    /// process: no controllers run.
    Assets,
    /// The cluster of the kubeconfig (`USE_EXISTING_CLUSTER=true`).
    Existing,
}

impl Backend {
    /// The backend [`TestEnv::start`] chooses from the process's environment. A test
    /// that needs the embedded server (its options, faults or witnesses) asks this
    /// before it starts one, and skips where it is not [`Embedded`](Self::Embedded).
    pub fn from_environment() -> Self {
        if use_existing_cluster() {
            Self::Existing
        } else if assets::assets_dir().is_some() {
            Self::Assets
        } else {
            Self::Embedded
        }
    }

    /// How a skip message names it.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Embedded => "the embedded API server",
            Self::Assets => "the etcd and kube-apiserver of KUBEBUILDER_ASSETS",
            Self::Existing => "the existing cluster of USE_EXISTING_CLUSTER",
        }
    }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes"))
}

impl TestEnv {
    /// The existing cluster when `USE_EXISTING_CLUSTER=true`, else the control plane of
    /// `KUBEBUILDER_ASSETS` when it is set, else the embedded server.
    pub async fn start() -> Result<Self, Error> {
        Self::start_with(ServerOptions::default()).await
    }

    /// As [`start`](Self::start), with `options` for the embedded server (which a real
    /// API server ignores).
    pub async fn start_with(options: ServerOptions) -> Result<Self, Error> {
        match Backend::from_environment() {
            Backend::Existing => Self::existing().await,
            Backend::Assets => Self::assets().await,
            Backend::Embedded => Self::embedded_with(options).await,
        }
    }

    /// The folder `KUBEBUILDER_ASSETS` names, when set: [`start`](Self::start) then runs
    /// its etcd and kube-apiserver (unless `USE_EXISTING_CLUSTER=true`).
    pub fn kubebuilder_assets() -> Option<PathBuf> {
        assets::assets_dir()
    }

    /// An environment on the etcd and kube-apiserver in the folder `KUBEBUILDER_ASSETS`
    /// names, started by the first call in the process (on free loopback ports, with
    /// fresh certificates and an admin token in `system:masters`) and shared by the
    /// later ones; they end with the process, killed or not, and their temporary
    /// directory goes with them. [`kubeconfig`](Self::kubeconfig) is the admin's.
    ///
    /// # Errors
    /// When `KUBEBUILDER_ASSETS` is unset or lacks a binary, or the servers do not get
    /// ready within two minutes (the error quotes their logs' last lines).
    pub async fn assets() -> Result<Self, Error> {
        let plane = assets::shared().await?;
        let client = kube::Client::try_from(plane.config.clone())?;
        let mut env = Self::with_client(client, None, Some(plane.config.clone())).await?;
        env.kubeconfig = Some(plane.kubeconfig.clone());
        env.audit_log = Some(plane.audit_log.clone());
        Ok(env)
    }

    /// A new embedded API server with default options.
    pub async fn embedded() -> Result<Self, Error> {
        Self::embedded_with(ServerOptions::default()).await
    }

    /// A new embedded API server with `options` (deployment simulation, history size...).
    pub async fn embedded_with(options: ServerOptions) -> Result<Self, Error> {
        let server = ApiServer::new(options);
        let client = kube::Client::new(server.clone(), "default");
        Self::with_client(client, Some(server), None).await
    }

    /// The cluster of the ambient kubeconfig (or in-cluster configuration). Its client
    /// is kube's default, which retries a 429, 503 or 504 (up to 15 times, with a
    /// backoff growing to minutes), as client-go retries an answer with `Retry-After`:
    /// a test that asserts such an answer needs a client of its own with
    /// `default_retry` off ([`config_for`](Self::config_for)).
    pub async fn existing() -> Result<Self, Error> {
        let config = kube::Config::infer().await.map_err(|e| Error::Config(e.to_string()))?;
        let client = kube::Client::try_from(config.clone())?;
        let mut env = Self::with_client(client, None, Some(config)).await?;
        env.kubeconfig = std::env::var_os("KUBECONFIG")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".kube/config")));
        Ok(env)
    }

    async fn with_client(
        client: kube::Client,
        server: Option<ApiServer>,
        cluster: Option<kube::Config>,
    ) -> Result<Self, Error> {
        let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client.clone());
        let namespace: k8s_openapi::api::core::v1::Namespace = serde_json::from_value(json!({
            "metadata": {"generateName": "envtest-", "labels": {"wheelhouse.rs/envtest": "true"}}
        }))
        .map_err(|e| Error::Config(e.to_string()))?;
        let created = namespaces.create(&PostParams::default(), &namespace).await?;
        let namespace = created.metadata.name.unwrap_or_default();
        Ok(Self {
            client,
            server,
            cluster,
            namespace,
            dir: tempfile::tempdir()?,
            served_at: None,
            serving: None,
            kubeconfig: None,
            audit_log: None,
            cleanups: cleanup::Cleanups::default(),
            stopped: false,
        })
    }

    /// A client for this environment (default namespace: [`namespace`](Self::namespace)).
    pub fn client(&self) -> kube::Client {
        self.client.clone()
    }

    /// The namespace created for this test; it is deleted by [`stop`](Self::stop).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The embedded server, for fault injection and counters; None on a real cluster.
    pub fn server(&self) -> Option<&ApiServer> {
        self.server.as_ref()
    }

    /// True on the embedded server.
    pub fn is_embedded(&self) -> bool {
        self.server.is_some()
    }

    /// The API server this environment runs against.
    pub fn backend(&self) -> Backend {
        if self.server.is_some() {
            Backend::Embedded
        } else if self.audit_log.is_some() {
            Backend::Assets
        } else {
            Backend::Existing
        }
    }

    /// Whether the controllers that a bare API server lacks (garbage collector,
    /// namespace cleanup) run: always on the embedded server (unless turned off), on
    /// an existing cluster when `ENVTEST_CONTROLLERS=true`, never on the control plane
    /// of `KUBEBUILDER_ASSETS` (no kube-controller-manager is started).
    pub fn runs_controllers(&self) -> bool {
        match self.backend() {
            Backend::Embedded => self.server.as_ref().is_some_and(|server| server.options().controllers),
            Backend::Assets => false,
            Backend::Existing => env_flag("ENVTEST_CONTROLLERS"),
        }
    }

    /// The Nodes that can run pods here (Ready ones): the simulated Nodes of
    /// `ServerOptions::workloads` on the embedded server, the kubelets' Nodes on a
    /// cluster. Empty where pods never start (the embedded server without the
    /// simulation, or a bare kube-apiserver and kube-controller-manager), so a test of
    /// running pods can decide from the server whether to skip.
    pub async fn ready_nodes(&self) -> Result<Vec<String>, Error> {
        let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(self.client.clone());
        let list = nodes.list(&kube::api::ListParams::default()).await?;
        Ok(list
            .items
            .into_iter()
            .filter(|node| {
                let conditions = node.status.as_ref().and_then(|s| s.conditions.as_ref());
                conditions.is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
            })
            .filter_map(|node| node.metadata.name)
            .collect())
    }

    /// Creates or updates a CRD (server-side apply) and waits until it is established
    /// and its resource is served.
    pub async fn install_crd(&self, crd: &CustomResourceDefinition) -> Result<(), Error> {
        let crds: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        let name = crd.metadata.name.clone().unwrap_or_default();
        let mut crd = crd.clone();
        crd.metadata.managed_fields = None;
        crd.metadata.resource_version = None;
        let params = PatchParams::apply("wheelhouse-envtest").force();
        crds.patch(&name, &params, &Patch::Apply(&crd)).await?;
        let group = crd.spec.group.clone();
        let plural = crd.spec.names.plural.clone();
        let versions: Vec<String> = crd
            .spec
            .versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.clone())
            .collect();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let established = crds.get(&name).await?.status.is_some_and(|status| {
                status
                    .conditions
                    .unwrap_or_default()
                    .iter()
                    .any(|c| c.type_ == "Established" && c.status == "True")
            });
            let mut served = established;
            for version in &versions {
                if !served {
                    break;
                }
                served = self
                    .client
                    .list_api_group_resources(&format!("{group}/{version}"))
                    .await
                    .is_ok_and(|list| list.resources.iter().any(|r| r.name == plural));
            }
            if served {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                return Err(Error::Timeout {
                    what: format!("CRD {name} to be established"),
                    seconds: 30,
                });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Also serves the embedded API over plain HTTP on `addr` (use port 0 for any
    /// free port), so kubectl and curl can reach it; returns the bound address.
    /// Loopback only: the server has no authentication. A request with a bearer token
    /// is attributed to the user the token names (see [`ApiServer::as_user`]), so
    /// processes given kubeconfigs with different tokens can be told apart.
    pub async fn serve_http(&mut self, addr: SocketAddr) -> Result<SocketAddr, Error> {
        let server = self.server.clone().ok_or(Error::NotEmbedded("serve_http"))?;
        let (bound, serving) = http::serve(server, addr).await?;
        self.served_at = Some(bound);
        self.serving = Some(serving);
        self.kubeconfig = None;
        Ok(bound)
    }

    /// A kubeconfig file for this environment: for the embedded server, one pointing
    /// at [`serve_http`](Self::serve_http)'s address (call that first), in the test's
    /// temporary directory; for an existing cluster, the ambient kubeconfig; for the
    /// control plane of `KUBEBUILDER_ASSETS`, its admin's.
    pub fn kubeconfig(&mut self) -> Result<PathBuf, Error> {
        if let Some(path) = &self.kubeconfig {
            return Ok(path.clone());
        }
        let addr = self
            .served_at
            .ok_or(Error::NotEmbedded("kubeconfig (call serve_http first)"))?;
        let path = self.dir.path().join("kubeconfig");
        std::fs::write(&path, kubeconfig_yaml(addr, &self.namespace))?;
        self.kubeconfig = Some(path.clone());
        Ok(path)
    }

    /// Runs `cleanup` with a client of this environment when it stops: at
    /// [`stop`](Self::stop), newest first and before the namespace goes, or, when the
    /// test ends without it (a panic, an early return), when the environment is
    /// dropped, on a runtime of its own. For helpers that register what a namespace
    /// does not hold, cluster-wide objects or servers, so that the next test, on a
    /// shared cluster, does not find them. A cleanup should not fail the test: report
    /// and go on.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), wheelhouse_envtest::Error> {
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use wheelhouse_envtest::TestEnv;
    ///
    /// let env = TestEnv::start().await?;
    /// let undone = Arc::new(AtomicBool::new(false));
    /// let flag = undone.clone();
    /// env.on_stop(move |_client| async move { flag.store(true, Ordering::SeqCst) });
    /// env.stop().await;
    /// assert!(undone.load(Ordering::SeqCst));
    /// # Ok(())
    /// # }
    /// ```
    pub fn on_stop<F, Fut>(&self, cleanup: F)
    where
        F: FnOnce(kube::Client) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.cleanups.push(Box::new(move |client| Box::pin(cleanup(client))));
    }

    /// Runs what [`on_stop`](Self::on_stop) registered, deletes the test's namespace
    /// (on an existing cluster) and stops serving.
    pub async fn stop(mut self) {
        self.stopped = true;
        self.cleanups.run(&self.client).await;
        if self.cluster.is_some() {
            let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(self.client.clone());
            if let Err(error) = namespaces.delete(&self.namespace, &DeleteParams::default()).await {
                tracing::warn!(namespace = %self.namespace, %error, "could not delete the test namespace");
            }
        }
        if let Some(server) = &self.server {
            server.drop_watches();
        }
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        if self.stopped {
            return;
        }
        if let Some(server) = &self.server {
            server.drop_watches();
        }
        if self.cluster.is_none() && self.cleanups.is_empty() {
            return;
        }
        // The test's runtime may be ending (or panicking): clean up on a runtime of our
        // own, with a client of its own.
        let (cluster, server) = (self.cluster.clone(), self.server.clone());
        let (namespace, cleanups) = (self.namespace.clone(), std::mem::take(&mut self.cleanups));
        let cleanup = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
                return;
            };
            runtime.block_on(async {
                let client = match (cluster.clone(), server) {
                    (Some(config), _) => kube::Client::try_from(config).ok(),
                    (None, Some(server)) => Some(kube::Client::new(server, namespace.clone())),
                    (None, None) => None,
                };
                let Some(client) = client else {
                    return;
                };
                cleanups.run(&client).await;
                if cluster.is_some() {
                    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client);
                    let _ = namespaces.delete(&namespace, &DeleteParams::default()).await;
                }
            });
        });
        let _ = cleanup.join();
    }
}

/// A kubeconfig for the plain-HTTP listener of the embedded server.
pub(crate) fn kubeconfig_yaml(addr: SocketAddr, namespace: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: envtest\n  cluster:\n    server: http://{addr}\ncontexts:\n- name: envtest\n  context:\n    cluster: envtest\n    user: envtest\n    namespace: {namespace}\ncurrent-context: envtest\nusers:\n- name: envtest\n  user: {{}}\n"
    )
}
