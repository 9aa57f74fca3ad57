//! [`ApiServer`]: the embedded Kubernetes API server, a tower service that kube's
//! `Client` calls in memory and that `serve_http` also puts on a loopback port.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use crate::workloads::WorkloadSimulation;
use bytes::Bytes;
use http::{HeaderValue, Request, Response, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full};
use parking_lot::Mutex;
use serde_json::{Value, json};

use crate::admission::Webhooks;
use crate::registry::Registry;
use crate::request::{self, Target, Verb};
use crate::status::ApiError;
use crate::store::Store;

/// The body of every response: whole for most, streamed for watches.
pub type ResponseBody = UnsyncBoxBody<Bytes, Infallible>;

/// Requests larger than this are refused with 413, as kube-apiserver refuses bodies
/// over its limit (3 MiB objects in etcd, with headroom for JSON).
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// How the embedded server behaves; the default is a plain kube-apiserver plus the
/// controllers every cluster runs (garbage collector, namespace cleanup).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), wheelhouse_envtest::Error> {
/// use std::time::Duration;
/// use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
///
/// // Deployments get ReplicaSets and Pods, which run and become Ready 50 ms after
/// // they are bound to a simulated Node.
/// let workloads = WorkloadSimulation::pods_start_after(Duration::from_millis(50));
/// let options = ServerOptions { workloads: Some(workloads), ..Default::default() };
/// let env = TestEnv::embedded_with(options).await?;
/// assert!(env.runs_controllers());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// How many events the server keeps for watches to resume from; older watches
    /// get 410 Gone (default 10,000, like a busy cluster's watch cache).
    pub history_limit: usize,
    /// How often a watch that asked for bookmarks gets one (default 1 s; the real
    /// server sends one about every minute).
    pub bookmark_interval: Duration,
    /// Run the garbage collector and namespace and CRD cleanup, as
    /// kube-controller-manager does (default on).
    pub controllers: bool,
    /// Simulate the workload controllers, a scheduler and kubelets on simulated Nodes,
    /// so Deployments, StatefulSets, DaemonSets and Jobs get running Pods and the
    /// status kube-controller-manager writes (default off; see [`WorkloadSimulation`]).
    pub workloads: Option<WorkloadSimulation>,
    /// The `ShardedListAndWatch` feature gate (KEP-5866): honour `shardSelector` on
    /// list, watch and deletecollection and answer lists with `metadata.shardInfo`.
    /// Default off, as the gate is alpha (off) in kube-apiserver 1.36; a server that
    /// serves a version before 1.36 ignores the parameter whatever this says.
    pub sharded_list_and_watch: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            history_limit: 10_000,
            bookmark_interval: Duration::from_secs(1),
            controllers: true,
            workloads: None,
            sharded_list_and_watch: false,
        }
    }
}

/// State behind the server's one lock: short critical sections, never held across
/// an await.
pub(crate) struct State {
    pub store: Store,
    pub registry: Registry,
}

pub(crate) struct Shared {
    pub state: Mutex<State>,
    pub options: ServerOptions,
    pub webhooks: Webhooks,
    pub faults: Mutex<Faults>,
    pub counters: FaultCounters,
    pub requests: Mutex<HashMap<RequestKey, u64>>,
    /// Requests for non-resource URLs (discovery, `/version`, `/metrics`...): user,
    /// lower-case HTTP method (RBAC's verb for them) and path.
    pub non_resource_requests: Mutex<BTreeSet<NonResourceKey>>,
    /// Authorizations admission asks for beyond the request's own (see `rbac::owners`),
    /// by user.
    pub authorization_checks: Mutex<HashSet<(Option<Arc<str>>, crate::rbac::Evidence)>>,
    pub witnesses: crate::witness::Witnesses,
    /// The `ServiceAccount` tokens issued (`serviceaccounts/token`), for `TokenReviews`.
    pub tokens: Mutex<crate::actions::Tokens>,
}

/// A non-resource request as RBAC authorizes it: user, lower-case HTTP method, path.
pub(crate) type NonResourceKey = (Option<Arc<str>>, String, String);

/// What the server counts a request under: what RBAC authorizes it by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct RequestKey {
    user: Option<Arc<str>>,
    verb: Verb,
    group: String,
    resource: String,
    subresource: Option<String>,
    namespace: Option<String>,
}

/// A kind of request the server received and how many of it, as RBAC sees a request:
/// verb, API group, resource and subresource (and the namespace, for Roles). See
/// [`ApiServer::requests`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRecord {
    /// Who sent it: the name given to [`ApiServer::as_user`], None for a plain clone.
    pub user: Option<String>,
    /// The verb (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, ...).
    pub verb: Verb,
    /// The API group, empty for the core group.
    pub group: String,
    /// The plural resource, like `deployments`.
    pub resource: String,
    /// The subresource, like `status` or `scale`.
    pub subresource: Option<String>,
    /// The namespace of the request; None for cluster-scoped resources and for
    /// requests across all namespaces.
    pub namespace: Option<String>,
    /// How many such requests the server received.
    pub count: u64,
}

/// The embedded API server. Cheap to clone: clones share one server.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use wheelhouse_envtest::ApiServer;
///
/// let server = ApiServer::new(Default::default());
/// let client = kube::Client::new(server.clone(), "default");
/// let version = client.apiserver_version().await.unwrap();
/// assert_eq!(version.major, "1");
/// # }
/// ```
#[derive(Clone)]
pub struct ApiServer {
    pub(crate) shared: Arc<Shared>,
    /// Who the requests sent through this handle come from (see [`ApiServer::as_user`]).
    pub(crate) user: Option<Arc<str>>,
}

impl std::fmt::Debug for ApiServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiServer").finish_non_exhaustive()
    }
}

/// A request failure to inject; see [`ApiServer::fail_next`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use kube::api::{Api, ListParams};
/// use wheelhouse_envtest::{ApiServer, FaultCounts, InjectedFailure, Verb};
///
/// let server = ApiServer::new(Default::default());
/// server.fail_next(1, InjectedFailure::too_many_requests(Verb::List, "configmaps"));
/// let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.clone(), "default"));
/// let error = api.list(&ListParams::default()).await.unwrap_err();
/// assert!(matches!(error, kube::Error::Api(status) if status.code == 429));
/// assert!(api.list(&ListParams::default()).await.is_ok()); // only the next one failed
/// assert_eq!(server.fault_counts(), FaultCounts { failed_requests: 1, ..Default::default() });
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InjectedFailure {
    /// Only requests with this verb (any verb when None).
    pub verb: Option<Verb>,
    /// Only requests for this plural resource name, like `configmaps` (any when None).
    pub resource: Option<String>,
    /// The HTTP code: 500, 503, 429...
    pub code: u16,
    /// For 429 and 503, the `Retry-After` the client is told (seconds).
    pub retry_after: Option<u64>,
}

impl InjectedFailure {
    /// 500 Internal Server Error for `verb` on `resource`.
    pub fn server_error(verb: Verb, resource: &str) -> Self {
        Self {
            verb: Some(verb),
            resource: Some(resource.to_owned()),
            code: 500,
            retry_after: None,
        }
    }

    /// 429 Too Many Requests with `Retry-After: 1` for `verb` on `resource`.
    pub fn too_many_requests(verb: Verb, resource: &str) -> Self {
        Self {
            code: 429,
            retry_after: Some(1),
            ..Self::server_error(verb, resource)
        }
    }
}

#[derive(Default)]
pub(crate) struct Faults {
    failures: Vec<(InjectedFailure, u32)>,
    latency: Duration,
}

/// How many faults the server has injected, so tests can assert they happened (see
/// the example of [`InjectedFailure`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// Watches ended by [`ApiServer::drop_watches`].
    pub dropped_watches: u64,
    /// Calls of [`ApiServer::compact`].
    pub compactions: u64,
    /// Requests failed by [`ApiServer::fail_next`].
    pub failed_requests: u64,
    /// Requests delayed by [`ApiServer::set_latency`].
    pub delayed_requests: u64,
}

#[derive(Default)]
pub(crate) struct FaultCounters {
    dropped_watches: AtomicU64,
    compactions: AtomicU64,
    failed_requests: AtomicU64,
    delayed_requests: AtomicU64,
}

impl ApiServer {
    /// A new, empty server with the namespaces every cluster has (`default`,
    /// `kube-system`, `kube-public`, `kube-node-lease`).
    pub fn new(options: ServerOptions) -> Self {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                store: Store::new(options.history_limit),
                registry: Registry::default(),
            }),
            options,
            webhooks: Webhooks::default(),
            faults: Mutex::new(Faults::default()),
            counters: FaultCounters::default(),
            requests: Mutex::new(HashMap::new()),
            non_resource_requests: Mutex::new(BTreeSet::new()),
            authorization_checks: Mutex::new(HashSet::new()),
            witnesses: crate::witness::Witnesses::default(),
            tokens: Mutex::new(crate::actions::Tokens::default()),
        });
        let server = Self { shared, user: None };
        for namespace in ["default", "kube-system", "kube-public", "kube-node-lease"] {
            let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}});
            server.create_system_object("", "v1", "namespaces", namespace);
        }
        for class in crate::plugins::system_priority_classes() {
            server.create_system_object("scheduling.k8s.io", "v1", "priorityclasses", class);
        }
        crate::controllers::start(&server);
        server
    }

    /// A handle of the same server whose requests [`requests`](Self::requests)
    /// attributes to `user`, as kube-apiserver attributes requests to the
    /// authenticated user: give an operator `kube::Client::new(server.as_user("op"),
    /// ..)` to tell its requests from the test's own, for example to check its RBAC.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use kube::api::{Api, ListParams};
    /// use wheelhouse_envtest::ApiServer;
    ///
    /// let server = ApiServer::new(Default::default());
    /// let operator: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.as_user("operator"), "default"));
    /// operator.list(&ListParams::default()).await.unwrap();
    /// assert_eq!(server.requests()[0].user.as_deref(), Some("operator"));
    /// # }
    /// ```
    #[must_use]
    pub fn as_user(&self, user: &str) -> Self {
        Self {
            shared: self.shared.clone(),
            user: Some(user.into()),
        }
    }

    /// The user of this handle's requests (see [`as_user`](Self::as_user)).
    pub(crate) fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }

    /// The user a bearer token authenticates as: a `ServiceAccount`'s, for a token the
    /// server issued (`serviceaccounts/token`) that is still valid.
    pub(crate) fn user_of_token(&self, token: &str) -> Option<String> {
        crate::actions::authenticate_token(self, token).map(|(subject, _, _)| subject.user)
    }

    /// The options the server was started with.
    pub fn options(&self) -> &ServerOptions {
        &self.shared.options
    }

    /// The current revision (the resourceVersion of the latest write).
    pub fn revision(&self) -> u64 {
        self.shared.state.lock().store.revision()
    }

    /// Ends every open watch now, as when the API server restarts or a load balancer
    /// cuts connections; clients must re-watch. Returns how many were open.
    pub fn drop_watches(&self) -> usize {
        let dropped = self.shared.state.lock().store.drop_watches();
        self.shared
            .counters
            .dropped_watches
            .fetch_add(dropped as u64, Ordering::Relaxed);
        dropped
    }

    /// Forgets the event history, as an etcd compaction does: a watch or list
    /// continuation from an older resourceVersion gets 410 Gone.
    pub fn compact(&self) {
        self.shared.state.lock().store.compact();
        self.shared.counters.compactions.fetch_add(1, Ordering::Relaxed);
    }

    /// Fails the next `count` requests that match `failure` with its code.
    pub fn fail_next(&self, count: u32, failure: InjectedFailure) {
        self.shared.faults.lock().failures.push((failure, count));
    }

    /// Delays every request by `latency` (zero turns it off).
    pub fn set_latency(&self, latency: Duration) {
        self.shared.faults.lock().latency = latency;
    }

    /// The faults injected so far.
    pub fn fault_counts(&self) -> FaultCounts {
        let counters = &self.shared.counters;
        FaultCounts {
            dropped_watches: counters.dropped_watches.load(Ordering::Relaxed),
            compactions: counters.compactions.load(Ordering::Relaxed),
            failed_requests: counters.failed_requests.load(Ordering::Relaxed),
            delayed_requests: counters.delayed_requests.load(Ordering::Relaxed),
        }
    }

    /// How many requests with `verb` on the plural `resource` (like `configmaps`) the
    /// server received, so tests can check, for example, that readers share one watch.
    pub fn request_count(&self, verb: Verb, resource: &str) -> u64 {
        self.shared
            .requests
            .lock()
            .iter()
            .filter(|(key, _)| key.verb == verb && key.resource == resource)
            .map(|(_, count)| count)
            .sum()
    }

    /// Every kind of resource request the server received, with its count, ordered
    /// by user, group, resource, subresource, namespace and verb: what a test compares with
    /// an operator's RBAC rules to check they cover exactly what its client sends
    /// ([`rbac_for`](Self::rbac_for) makes those rules).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use k8s_openapi::api::apps::v1::Deployment;
    /// use kube::api::{Api, ListParams};
    /// use wheelhouse_envtest::{ApiServer, Verb};
    ///
    /// let server = ApiServer::new(Default::default());
    /// let api: Api<Deployment> = Api::namespaced(kube::Client::new(server.clone(), "default"), "default");
    /// api.list(&ListParams::default()).await.unwrap();
    /// let requests = server.requests();
    /// assert_eq!(requests.len(), 1);
    /// let list = &requests[0];
    /// assert_eq!((list.verb, list.group.as_str(), list.resource.as_str()), (Verb::List, "apps", "deployments"));
    /// assert_eq!((list.subresource.as_deref(), list.namespace.as_deref(), list.count), (None, Some("default"), 1));
    /// # }
    /// ```
    pub fn requests(&self) -> Vec<RequestRecord> {
        let mut records: Vec<RequestRecord> = self
            .shared
            .requests
            .lock()
            .iter()
            .map(|(key, count)| RequestRecord {
                user: key.user.as_deref().map(str::to_owned),
                verb: key.verb,
                group: key.group.clone(),
                resource: key.resource.clone(),
                subresource: key.subresource.clone(),
                namespace: key.namespace.clone(),
                count: *count,
            })
            .collect();
        records.sort_by(|a, b| {
            (
                &a.user,
                &a.group,
                &a.resource,
                &a.subresource,
                &a.namespace,
                a.verb.as_str(),
            )
                .cmp(&(
                    &b.user,
                    &b.group,
                    &b.resource,
                    &b.subresource,
                    &b.namespace,
                    b.verb.as_str(),
                ))
        });
        records
    }

    /// The non-resource URLs `user` sent requests for, as (lower-case HTTP method, path).
    pub(crate) fn non_resource_requests(&self, user: &str) -> Vec<(String, String)> {
        self.shared
            .non_resource_requests
            .lock()
            .iter()
            .filter(|(sender, _, _)| sender.as_deref() == Some(user))
            .map(|(_, method, path)| (method.clone(), path.clone()))
            .collect()
    }

    fn create_system_object(&self, group: &str, version: &str, plural: &str, object: Value) {
        let mut state = self.shared.state.lock();
        let Some(resource) = state.registry.get(group, version, plural) else {
            return;
        };
        let name = object["metadata"]["name"].as_str().unwrap_or_default().to_owned();
        if let Ok(object) = crate::rules::prepare_new(&resource, None, object, "kube-apiserver") {
            state
                .store
                .write(&resource.group_resource(), (String::new(), name), Some(object));
        }
    }

    /// Handles one request (the whole body already read): protobuf bodies are read as
    /// the JSON they hold, and a client that accepts only protobuf gets protobuf.
    pub(crate) async fn handle(&self, request: Request<Bytes>) -> Response<ResponseBody> {
        let protobuf_answer = crate::protobuf::accepts_only_protobuf(request.headers());
        let watch = request::is_watch(request.uri().query());
        let path = request.uri().path().to_owned();
        let response = match crate::protobuf::decode_request(request) {
            Ok(request) => self.handle_json(request).await,
            Err(error) => error_response(&error),
        };
        if protobuf_answer {
            return crate::protobuf::encode_response(&path, watch, response).await;
        }
        response
    }

    async fn handle_json(&self, request: Request<Bytes>) -> Response<ResponseBody> {
        let (parts, body) = request.into_parts();
        let query = request::parse_query(parts.uri.query());
        let path = parts.uri.path().to_owned();
        let parsed = {
            let state = self.shared.state.lock();
            request::parse(&state.registry, &parts.method, &path, query)
        };
        let mut target = match parsed {
            Ok(Some(target)) => target,
            Ok(None) => {
                let method = parts.method.as_str().to_ascii_lowercase();
                let key = (self.user.clone(), method, path.clone());
                self.shared.non_resource_requests.lock().insert(key);
                let state = self.shared.state.lock();
                return crate::discovery::serve(&state.registry, &parts);
            }
            Err(error) => return error_response(&error),
        };
        let accept = parts
            .headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        target.metadata_only = accept.contains("as=PartialObjectMetadata");
        if matches!(target.verb, Verb::Get | Verb::List | Verb::Watch) {
            target.table = match crate::tables::requested(accept, &target.query) {
                Ok(table) => table,
                Err(error) => return error_response(&error),
            };
        }
        self.count(&target);
        self.shared.witnesses.arrive(self, self.user.as_deref(), &target, &body);
        if let Some(error) = self.inject(&target).await {
            return error_response(&error);
        }
        let result = match target.verb {
            Verb::Get => crate::read::get(self, &target),
            Verb::List => crate::read::list(self, &target),
            Verb::Watch => crate::read::watch(self, &target),
            Verb::Create | Verb::Update | Verb::Patch | Verb::Delete | Verb::DeleteCollection => {
                let content_type = parts
                    .headers
                    .get(header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("application/json")
                    .to_owned();
                let user_agent = parts
                    .headers
                    .get(header::USER_AGENT)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                let write = crate::write::Write {
                    server: self,
                    target: &target,
                    body: &body,
                    content_type: &content_type,
                    user_agent: &user_agent,
                };
                write.run().await
            }
        };
        match result {
            Ok(response) => response,
            Err(error) => error_response(&error),
        }
    }

    fn count(&self, target: &Target) {
        let key = RequestKey {
            user: self.user.clone(),
            verb: target.verb,
            group: target.resource.group.clone(),
            resource: target.resource.plural.clone(),
            subresource: target.subresource.clone(),
            namespace: target.namespace.clone(),
        };
        *self.shared.requests.lock().entry(key).or_default() += 1;
    }

    /// Applies injected latency and failures to a request.
    async fn inject(&self, target: &Target) -> Option<ApiError> {
        let (latency, failure) = {
            let mut faults = self.shared.faults.lock();
            let index = faults.failures.iter().position(|(f, _)| {
                f.verb.is_none_or(|v| v == target.verb)
                    && f.resource.as_ref().is_none_or(|r| *r == target.resource.plural)
            });
            let failure = index.map(|i| {
                let failure = faults.failures[i].0.clone();
                faults.failures[i].1 -= 1;
                if faults.failures[i].1 == 0 {
                    faults.failures.remove(i);
                }
                failure
            });
            (faults.latency, failure)
        };
        if !latency.is_zero() {
            self.shared.counters.delayed_requests.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(latency).await;
        }
        let failure = failure?;
        self.shared.counters.failed_requests.fetch_add(1, Ordering::Relaxed);
        let mut error = match failure.code {
            429 => ApiError::new(
                429,
                "TooManyRequests",
                "the server has received too many requests and has asked us to try again later",
            ),
            503 => ApiError::new(
                503,
                "ServiceUnavailable",
                "the server is currently unable to handle the request",
            ),
            code => ApiError::new(code, "InternalError", "Internal error occurred: injected by envtest"),
        };
        error.retry_after = failure.retry_after;
        Some(error)
    }
}

pub(crate) fn full_body(bytes: impl Into<Bytes>) -> ResponseBody {
    Full::new(bytes.into()).boxed_unsync()
}

pub(crate) fn json_response(status: StatusCode, value: &Value) -> Response<ResponseBody> {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes_response(status, bytes)
}

pub(crate) fn bytes_response(status: StatusCode, bytes: Vec<u8>) -> Response<ResponseBody> {
    let mut response = Response::new(full_body(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

pub(crate) fn text_response(status: StatusCode, text: &'static str) -> Response<ResponseBody> {
    let mut response = Response::new(full_body(text));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

pub(crate) fn error_response(error: &ApiError) -> Response<ResponseBody> {
    if error.plain_text {
        return text_response(StatusCode::NOT_FOUND, "404 page not found\n");
    }
    let status = StatusCode::from_u16(error.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = json_response(status, &error.to_status());
    if let Some(seconds) = error.retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

impl<B> tower_service::Service<Request<B>> for ApiServer
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let server = self.clone();
        Box::pin(async move {
            server.shared.witnesses.gate(server.user.as_deref()).await;
            let (parts, body) = request.into_parts();
            let limited = http_body_util::Limited::new(body, MAX_BODY_BYTES);
            let bytes = match limited.collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(error) => {
                    let message = format!("the request body could not be read: {error}");
                    let code = if message.contains("length limit") { 413 } else { 400 };
                    let reason = if code == 413 {
                        "RequestEntityTooLarge"
                    } else {
                        "BadRequest"
                    };
                    return Ok(error_response(&ApiError::new(code, reason, message)));
                }
            };
            Ok(server.handle(Request::from_parts(parts, bytes)).await)
        })
    }
}

#[cfg(test)]
mod tests;
