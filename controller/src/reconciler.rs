//! The [`Reconciler`] an operator writes, what it returns, and the [`Context`] it
//! writes through.

use std::fmt;
use std::fmt::Debug;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use kube::api::{Patch, PatchParams};
use kube::runtime::events::{Event as KubeEvent, EventType, Recorder, Reporter};
use kube::{Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use std::any::TypeId;

use wheelhouse_cache::{Cache, Scope, ScopeKind, Store};
use wheelhouse_manager::fleet::Cluster;

use crate::cluster::Members;

/// What a successful reconcile asks for next.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_controller::Action;
///
/// assert_eq!(Action::done().requeue_delay(), None);
/// assert_eq!(Action::requeue().requeue_delay(), Some(Duration::ZERO));
/// assert_eq!(Action::requeue_after(Duration::from_secs(30)).requeue_delay(), Some(Duration::from_secs(30)));
/// // A zero delay is allowed: it is the same as an immediate requeue.
/// assert_eq!(Action::requeue_after(Duration::ZERO), Action::requeue());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Action {
    requeue_after: Option<Duration>,
}

impl Action {
    /// Nothing more to do until the object (or something it watches) changes.
    pub fn done() -> Self {
        Self::default()
    }

    /// Reconcile again at once, even if nothing changes (controller-runtime's
    /// `Result{Requeue: true}`), without counting a failure: the key goes back on the
    /// queue and is served after the workers' other keys already waiting, never by two
    /// workers at once. Counted as `controller_runtime_reconcile_total{result="requeue"}`.
    pub fn requeue() -> Self {
        Self::requeue_after(Duration::ZERO)
    }

    /// Reconcile again after `delay` even if nothing changes (to poll something outside
    /// the cluster, or to re-check a slow rollout). A zero delay is allowed and means
    /// [`requeue`](Self::requeue); the failure backoff does not apply either way.
    pub fn requeue_after(delay: Duration) -> Self {
        Self {
            requeue_after: Some(delay),
        }
    }

    /// The requested delay, if any (zero for an immediate requeue).
    pub fn requeue_delay(&self) -> Option<Duration> {
        self.requeue_after
    }
}

/// A failed reconcile. A plain error is retried with the rate limiter's backoff; a
/// [`terminal`](Error::terminal) one is not retried until the object changes. Any
/// `std::error::Error` converts with `?`.
///
/// ```
/// use wheelhouse_controller::Error;
///
/// let transient: Error = std::io::Error::other("connection reset").into();
/// assert!(!transient.is_terminal());
/// let invalid = Error::terminal("spec.replicas must be positive");
/// assert!(invalid.is_terminal());
/// assert_eq!(invalid.to_string(), "spec.replicas must be positive");
/// ```
pub struct Error {
    source: Box<dyn std::error::Error + Send + Sync>,
    terminal: bool,
}

impl Error {
    /// An error worth retrying.
    pub fn new(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            source: source.into(),
            terminal: false,
        }
    }

    /// An error retrying cannot fix (invalid spec, missing permission): logged and
    /// counted, not retried.
    pub fn terminal(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            source: source.into(),
            terminal: true,
        }
    }

    /// Whether the error is terminal.
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// The underlying error.
    pub fn source(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.source.as_ref()
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for Error {
    fn from(error: E) -> Self {
        Self::new(error)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // kube's own text for an API error repeats the whole Status in Debug form; the
        // message, code and reason are what a reader of the log needs.
        if let Some(kube::Error::Api(status)) = self.source.downcast_ref::<kube::Error>() {
            return write!(f, "{} ({} {})", status.message, status.code, status.reason);
        }
        // Every cause: a transport error's own text is only `client error (Connect)`.
        fmt::Display::fmt(&wheelhouse_cache::error_chain(self.source.as_ref()), f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("source", &self.source)
            .field("terminal", &self.terminal)
            .finish()
    }
}

/// The child type an [`Applier`](crate::Applier) or a cached store ([`Context::owned`](crate::Context::owned))
/// was asked for is not one the controller caches whole: nothing would keep that cache
/// current.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the controller does not cache {kind}s whole: add .owns_full::<{kind}>() to the builder before asking for their Applier or store"
)]
pub struct NotOwned {
    /// The child's kind.
    pub kind: String,
}

/// What a reconcile knows besides its object, and the shortest ways to write back:
/// [`patch_status`](Self::patch_status) and [`publish`](Self::publish).
#[derive(Clone)]
pub struct Context {
    pub(crate) client: kube::Client,
    pub(crate) controller: Arc<str>,
    pub(crate) reconcile_id: String,
    /// One per controller, shared by its reconciles, so repeats of an Event are
    /// counted on one series instead of written again.
    pub(crate) recorder: Recorder,
    /// The children the controller caches whole, for [`owned`](Self::owned); `None`
    /// outside a controller.
    pub(crate) owned: Option<Arc<OwnedStores>>,
    /// In a fleet: the cluster this reconcile is for, and the fleet's engaged members.
    pub(crate) cluster: Option<(Arc<str>, Members)>,
}

/// Where a controller's whole-cached children are: its cache, the children's scope
/// (this replica's shard of them, in a sharded manager) and which types it caches.
pub(crate) struct OwnedStores {
    pub cache: Cache,
    pub scope: Scope,
    pub types: Vec<TypeId>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("controller", &self.controller)
            .field("reconcile_id", &self.reconcile_id)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// A context for calling a reconciler outside a controller (tests, benchmarks,
    /// another framework's loop).
    pub fn new(client: kube::Client, controller: &str) -> Self {
        Self {
            recorder: recorder(&client, controller),
            client,
            controller: controller.into(),
            reconcile_id: format!("{:016x}", rand::random::<u64>()),
            owned: None,
            cluster: None,
        }
    }

    /// In a fleet controller, the cluster this reconcile is for (the `cluster` of its
    /// [`ClusterKey`](crate::ClusterKey)); `None` in a single-cluster controller.
    /// [`client`](Self::client) and [`owned`](Self::owned) already point at it.
    pub fn cluster(&self) -> Option<&str> {
        self.cluster.as_ref().map(|(name, _)| &**name)
    }

    /// In a fleet controller, the engaged member named `name` (its client and cache),
    /// for a reconciler that reads one cluster and writes another; `None` when no such
    /// member is engaged, or outside a fleet.
    pub fn member(&self, name: &str) -> Option<Cluster> {
        let (_, members) = self.cluster.as_ref()?;
        members.read().get(name).cloned()
    }

    /// In a fleet controller, every engaged member, by name (empty outside a fleet).
    pub fn members(&self) -> Vec<Cluster> {
        self.cluster
            .as_ref()
            .map(|(_, members)| members.read().values().cloned().collect())
            .unwrap_or_default()
    }

    /// The cached store of the controller's children of type `D` (those it
    /// [`owns_full`](crate::Builder::owns_full)), in the controller's scope: the same
    /// informer the controller watches them with, so a reconcile triggered by a child's
    /// change finds that change here. An error for a type the controller does not cache
    /// whole, or for a context made outside a controller ([`Context::new`]).
    ///
    /// ```no_run
    /// # async fn example(context: &wheelhouse_controller::Context) -> Result<(), wheelhouse_controller::NotOwned> {
    /// use k8s_openapi::api::apps::v1::Deployment;
    ///
    /// let deployments = context.owned::<Deployment>()?;
    /// let cached = deployments.get(Some("shop"), "frontend");
    /// # let _ = cached;
    /// # Ok(())
    /// # }
    /// ```
    pub fn owned<D>(&self) -> Result<Store<D>, NotOwned>
    where
        D: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        D::DynamicType: Default,
        D::Scope: ScopeKind,
    {
        match &self.owned {
            Some(owned) if owned.types.contains(&TypeId::of::<D>()) => {
                Ok(owned.cache.informer::<D>(owned.scope.clone()).store().clone())
            }
            _ => Err(NotOwned {
                kind: D::kind(&D::DynamicType::default()).into_owned(),
            }),
        }
    }

    /// A client for the cluster the controller watches.
    pub fn client(&self) -> &kube::Client {
        &self.client
    }

    /// The controller's name.
    pub fn controller(&self) -> &str {
        &self.controller
    }

    /// An id unique to this reconcile, also on its tracing span.
    pub fn reconcile_id(&self) -> &str {
        &self.reconcile_id
    }

    /// The controller's Event recorder (reporting controller: the controller's name),
    /// for Events [`publish`](Self::publish) cannot express (a secondary object, an
    /// action other than the reason).
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// Publishes an Event about `object`: kube's `events.k8s.io/v1` Event with `reason`
    /// as both reason and action, from this controller. Repeats within kube's window
    /// update one Event's count instead of creating another.
    ///
    /// ```no_run
    /// # async fn example(context: &wheelhouse_controller::Context, config: &k8s_openapi::api::core::v1::ConfigMap) -> Result<(), kube::Error> {
    /// use wheelhouse_controller::EventType;
    ///
    /// context.publish(config, EventType::Normal, "Deleting", "its children go with it").await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn publish<K>(
        &self,
        object: &K,
        type_: EventType,
        reason: &str,
        note: impl Into<String>,
    ) -> Result<(), kube::Error>
    where
        K: Resource,
        K::DynamicType: Default,
    {
        let event = KubeEvent {
            type_,
            reason: reason.to_owned(),
            note: Some(note.into()),
            action: reason.to_owned(),
            secondary: None,
        };
        let reference = object.object_ref(&K::DynamicType::default());
        self.recorder.publish(&event, &reference).await
    }

    /// Writes `status` as `object`'s status subresource, with a JSON merge patch, and
    /// returns the object as stored. The patch carries no resourceVersion: the status
    /// is the controller's own output, computed from the spec it just read, so it is
    /// written whatever else changed meanwhile (a finalizer, a label) instead of failing
    /// with 409 Conflict. Fields of `status` that serialize as null are removed.
    ///
    /// Follow it with helpers that take the object back (a finalizer's removal): they
    /// need the returned object, whose resourceVersion is the new one.
    ///
    /// ```no_run
    /// # #[derive(Clone, Debug, serde::Serialize, serde::Deserialize, kube::CustomResource, schemars::JsonSchema)]
    /// # #[kube(group = "example.com", version = "v1", kind = "WebApp", namespaced, status = "WebAppStatus")]
    /// # struct WebAppSpec {}
    /// # #[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
    /// # struct WebAppStatus { phase: Option<String> }
    /// # async fn example(context: &wheelhouse_controller::Context, webapp: &WebApp) -> Result<(), kube::Error> {
    /// let status = WebAppStatus { phase: Some("Ready".into()) };
    /// let stored = context.patch_status(webapp, &status).await?;
    /// # let _ = stored;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn patch_status<K, S>(&self, object: &K, status: &S) -> Result<K, kube::Error>
    where
        K: Resource + Clone + Debug + DeserializeOwned,
        K::DynamicType: Default,
        K::Scope: ScopeKind,
        S: Serialize + ?Sized,
    {
        let api = K::Scope::api::<K>(
            self.client.clone(),
            object.namespace().as_deref(),
            &K::DynamicType::default(),
        );
        let patch = json!({"status": status});
        api.patch_status(&object.name_any(), &PatchParams::default(), &Patch::Merge(&patch))
            .await
    }
}

/// The recorder of the controller named `controller`.
pub(crate) fn recorder(client: &kube::Client, controller: &str) -> Recorder {
    let reporter = Reporter {
        controller: controller.to_owned(),
        instance: None,
    };
    Recorder::new(client.clone(), reporter)
}

/// Brings the cluster in line with one object's spec: called with the object as the
/// cache holds it, level-triggered (it must not matter which change caused the call)
/// and never concurrently for the same object.
///
/// ```
/// use std::sync::Arc;
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_controller::{Action, Context, Error, Reconciler};
///
/// struct Audit;
///
/// impl Reconciler<ConfigMap> for Audit {
///     async fn reconcile(&self, config: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
///         if config.data.is_none() {
///             return Err(Error::terminal("a ConfigMap without data"));
///         }
///         Ok(Action::done())
///     }
/// }
/// ```
pub trait Reconciler<K>: Send + Sync + 'static {
    /// Reconciles `object`; see [`Action`] and [`Error`] for what the result does.
    fn reconcile(&self, object: Arc<K>, context: &Context) -> impl Future<Output = Result<Action, Error>> + Send;
}

/// A shared reconciler reconciles as itself: a fleet controller hands one reconciler
/// to every cluster's workers.
impl<K, R: Reconciler<K>> Reconciler<K> for Arc<R> {
    fn reconcile(&self, object: Arc<K>, context: &Context) -> impl Future<Output = Result<Action, Error>> + Send {
        (**self).reconcile(object, context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_api_error_reads_as_its_message_code_and_reason() {
        let status = kube::core::Status::failure("the object has been modified", "Conflict").with_code(409);
        let error = Error::from(kube::Error::Api(Box::new(status)));
        assert_eq!(error.to_string(), "the object has been modified (409 Conflict)");
        let other = Error::from(std::io::Error::other("connection reset"));
        assert_eq!(other.to_string(), "connection reset");
    }

    #[test]
    fn a_transport_error_reads_with_every_cause() {
        #[derive(Debug, thiserror::Error)]
        #[error("client error (Connect)")]
        struct Connect(#[source] std::io::Error);

        let refused = std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "Connection refused (os error 111)",
        );
        let error = Error::from(kube::Error::Service(Box::new(Connect(refused))));
        assert_eq!(
            error.to_string(),
            "ServiceError: client error (Connect): Connection refused (os error 111)"
        );
    }
}
