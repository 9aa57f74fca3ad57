//! The server's state and the handle every handler is given: [`ApiServer`] and what
//! its clones share (the store and registry behind one lock, webhooks, injected
//! faults, what requests were seen, lease witnesses). The request
//! dispatcher (`server`) and the handlers build on this module; it knows none of them.
//!
//! May import: `core`, `options`, `resources`, `store`, `request`, `admission` (the
//! registered webhooks live in the state).

mod faults;
mod records;
mod runtime;
mod witness;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::admission::Webhooks;
use crate::options::ServerOptions;
use crate::resources::registry::Registry;
use crate::store::Store;

pub(crate) use self::faults::{FaultCounters, Faults};
pub use self::faults::{FaultCounts, InjectedFailure};
pub use self::records::RequestRecord;
pub(crate) use self::records::{Evidence, NonResourceKey, Object, RequestKey};
pub(crate) use self::runtime::{ServerRuntime, arrive};
pub(crate) use self::witness::Witnesses;
pub use self::witness::{AUDIT_POLICY, ArrivedWrite, LeaseWitness, WitnessedWrite, WriteWitness};

/// State behind the server's one lock: short critical sections, never held across
/// an await.
pub(crate) struct State {
    pub store: Store,
    pub registry: Registry,
}

/// What every clone of an [`ApiServer`] shares: one server.
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
    /// Authorizations admission asks for beyond the request's own (see `authz::evidence::owners`),
    /// by user.
    pub authorization_checks: Mutex<HashSet<(Option<Arc<str>>, Evidence)>>,
    pub witnesses: Witnesses,
    /// The server's own threads, where every request is handled (see `runtime`).
    pub runtime: ServerRuntime,
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

impl ApiServer {
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

    /// The options the server was started with.
    pub fn options(&self) -> &ServerOptions {
        &self.shared.options
    }

    /// The current revision (the resourceVersion of the latest write).
    pub fn revision(&self) -> u64 {
        self.shared.state.lock().store.revision()
    }
}
