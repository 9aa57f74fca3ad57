//! The WebApp operator: a `WebApp` custom resource that owns a Deployment and a
//! Service. Shared by the demos (`demos/webapp.rs`, `demos/ha.rs`), the end-to-end tests
//! and the benchmarks.
//!
//! Two versions are served: `example.com/v1` ([`WebApp`]), the hub and the storage
//! version, which the operator reads and writes, and the older
//! [`v1alpha1`](v1alpha1::WebApp), converted by the webhook server ([`conversion`]).

pub mod fencing;
pub mod image;
pub mod v1alpha1;
pub mod webhooks;

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::api::Api;
use kube::{CustomResource, Resource, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use wheelhouse::cache::Cache;
use wheelhouse::controller::conditions::ConditionBuilder;
use wheelhouse::controller::{
    Action, Applier, Builder, Context, Controller, ControllerMetrics, Error, EventType, NotOwned, Predicate,
    Reconciler, apply, finalizer, owner, predicate,
};
use wheelhouse::webhook::conversion::Conversion;

/// The field manager of everything the operator writes.
pub const MANAGER: &str = "webapp-controller";
/// The finalizer that lets the operator record the deletion before the object goes.
pub const FINALIZER: &str = "example.com/webapp-cleanup";

/// The replica count of a WebApp that names none: what the mutating webhook writes in,
/// and what the operator assumes where no webhook runs.
pub const DEFAULT_REPLICAS: i32 = 1;
/// The port of a WebApp that names none.
pub const DEFAULT_PORT: i32 = 80;

/// A web application: an image served by `replicas` pods behind a Service on `port`.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "WebApp",
    namespaced,
    status = "WebAppStatus",
    shortname = "wa",
    printcolumn = r#"{"name":"Image","type":"string","jsonPath":".spec.image"}"#,
    printcolumn = r#"{"name":"Replicas","type":"integer","jsonPath":".spec.replicas"}"#,
    printcolumn = r#"{"name":"Available","type":"integer","jsonPath":".status.availableReplicas"}"#,
    printcolumn = r#"{"name":"Phase","type":"string","jsonPath":".status.phase"}"#,
    printcolumn = r#"{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}"#
)]
#[serde(rename_all = "camelCase")]
pub struct WebAppSpec {
    /// The container image to run.
    pub image: String,
    /// How many pods (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The port the container listens on, and the Service exposes (default 80).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

impl WebAppSpec {
    /// The replica count, defaulted.
    pub fn replicas(&self) -> i32 {
        self.replicas.unwrap_or(DEFAULT_REPLICAS)
    }

    /// The port, defaulted.
    pub fn port(&self) -> i32 {
        self.port.unwrap_or(DEFAULT_PORT)
    }
}

/// The WebApp's versions: `v1` the hub (stored), `v1alpha1` converted to and from it
/// by the `From`/`TryFrom` impls of [`v1alpha1`]. The webhook server serves it
/// ([`webhooks::webhook_server`]); [`Conversion::crd`] is the CRD of both versions.
pub fn conversion() -> Conversion<WebApp> {
    Conversion::hub::<WebApp>().spoke::<v1alpha1::WebApp>()
}

/// Where a WebApp is in its life.
#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum Phase {
    /// Seen, children not created yet.
    Reconciling,
    /// Children created, pods not all available.
    Waiting,
    /// Every replica available.
    Ready,
    /// Was ready; the replica count changed and the rollout is under way.
    Scaling,
    /// Being deleted.
    Deleting,
}

/// What the operator reports.
#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebAppStatus {
    /// Where the WebApp is.
    pub phase: Option<Phase>,
    /// Pods available, from the Deployment.
    pub available_replicas: Option<i32>,
    /// The `Ready` condition.
    pub conditions: Option<Vec<Condition>>,
    /// The generation the status describes.
    pub observed_generation: Option<i64>,
}

/// The reconciler: level-triggered, idempotent.
#[derive(Default)]
pub struct WebAppReconciler {
    /// Appliers of the children, comparing with the controller's cache; None sends
    /// every apply to the server.
    children: Option<Children>,
}

/// The children's appliers: a pass that finds the Deployment and the Service as it
/// wants them (after a status change of the Deployment, or the periodic requeue)
/// writes neither.
struct Children {
    deployments: Applier<Deployment>,
    services: Applier<Service>,
}

impl WebAppReconciler {
    /// A reconciler that applies the children through the informers of the controller
    /// `builder` makes, which must own both with `owns_full` (as [`builder`] does).
    pub fn cached(builder: &Builder<WebApp>) -> Result<Self, NotOwned> {
        Ok(Self {
            children: Some(Children {
                deployments: builder.applier(MANAGER)?,
                services: builder.applier(MANAGER)?,
            }),
        })
    }

    /// A reconciler with no cache of the children: every pass applies both.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Which updates of a WebApp are worth a reconcile: spec changes, the start of its
/// deletion, and conditions gone missing (a write through `v1alpha1`, which cannot
/// hold them, drops them: see [`v1alpha1`]). Its status is otherwise the operator's
/// own output, so a status write must not bring the WebApp straight back (children's
/// changes still do, through `owns`).
pub fn worth_a_reconcile() -> Predicate<WebApp> {
    let conditions_lost = Predicate::new(|old: &WebApp, new: &WebApp| {
        let conditions = |webapp: &WebApp| webapp.status.as_ref().and_then(|s| s.conditions.as_ref()).is_some();
        conditions(old) && !conditions(new)
    });
    predicate::generation_changed()
        .or(predicate::deletion_started())
        .or(conditions_lost)
}

/// The controller of WebApps in `namespace` (all namespaces when None). Added to a
/// manager, it reports to the manager's registry; `metrics` names another.
///
/// # Panics
/// Never: [`builder`] owns Deployments and Services whole, as
/// [`WebAppReconciler::cached`] needs.
pub fn controller(cache: &Cache, namespace: Option<&str>, metrics: Option<&ControllerMetrics>) -> Controller {
    let mut builder = builder(cache, namespace);
    if let Some(metrics) = metrics {
        builder = builder.metrics(metrics);
    }
    let reconciler = WebAppReconciler::cached(&builder).expect("builder() owns Deployments and Services whole");
    builder.build(reconciler)
}

/// The controller's builder, before its reconciler: what it watches and how.
pub fn builder(cache: &Cache, namespace: Option<&str>) -> Builder<WebApp> {
    let builder = Controller::for_::<WebApp>(cache)
        .name("webapp")
        .owns_full::<Deployment>()
        .owns_full::<Service>()
        .predicate(worth_a_reconcile())
        .concurrency(4);
    match namespace {
        Some(namespace) => builder.namespace(namespace),
        None => builder,
    }
}

fn labels(webapp: &WebApp) -> serde_json::Value {
    json!({"app.kubernetes.io/name": webapp.name_any(), "app.kubernetes.io/managed-by": MANAGER})
}

/// The Deployment a WebApp wants. Ports name their protocol, though TCP is the
/// default: server-side apply before Kubernetes 1.20 refuses list items that leave out
/// a merge key the server defaults.
pub fn desired_deployment(webapp: &WebApp) -> Result<Deployment, Error> {
    let labels = labels(webapp);
    let deployment = json!({
        "metadata": {"name": webapp.name_any(), "labels": labels, "ownerReferences": [owner::controller_ref(webapp)]},
        "spec": {
            "replicas": webapp.spec.replicas(),
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "web", "image": webapp.spec.image, "ports": [{"containerPort": webapp.spec.port(), "protocol": "TCP"}]}]},
            },
        },
    });
    Ok(serde_json::from_value(deployment)?)
}

/// The Service a WebApp wants.
pub fn desired_service(webapp: &WebApp) -> Result<Service, Error> {
    let service = json!({
        "metadata": {"name": webapp.name_any(), "labels": labels(webapp), "ownerReferences": [owner::controller_ref(webapp)]},
        "spec": {"selector": labels(webapp), "ports": [{"name": "http", "port": webapp.spec.port(), "targetPort": webapp.spec.port(), "protocol": "TCP"}]},
    });
    Ok(serde_json::from_value(service)?)
}

/// The phase a WebApp is in, given its Deployment's availability.
fn phase_of(webapp: &WebApp, available: i32, rolled_out: bool) -> Phase {
    let was = webapp.status.as_ref().and_then(|s| s.phase);
    if available >= webapp.spec.replicas() && rolled_out {
        Phase::Ready
    } else if matches!(was, Some(Phase::Ready | Phase::Scaling)) {
        Phase::Scaling
    } else {
        Phase::Waiting
    }
}

impl WebAppReconciler {
    /// Writes `status` unless the WebApp already shows it; returns the WebApp as stored.
    async fn write_status(context: &Context, webapp: WebApp, status: WebAppStatus) -> Result<WebApp, Error> {
        if webapp.status.as_ref() == Some(&status) {
            return Ok(webapp);
        }
        Ok(context.patch_status(&webapp, &status).await?)
    }

    /// Applies the Deployment and the Service, and returns the Deployment as stored.
    async fn apply_children(
        &self,
        client: &kube::Client,
        namespace: &str,
        webapp: &WebApp,
    ) -> Result<Arc<Deployment>, Error> {
        let deployments = Api::namespaced(client.clone(), namespace);
        let services = Api::<Service>::namespaced(client.clone(), namespace);
        let (deployment, service) = (desired_deployment(webapp)?, desired_service(webapp)?);
        let stored = if let Some(children) = &self.children {
            let stored = children.deployments.apply(&deployments, &deployment).await?;
            children.services.apply(&services, &service).await?;
            stored
        } else {
            let stored = apply(&deployments, &deployment, MANAGER).await?;
            apply(&services, &service, MANAGER).await?;
            Arc::new(stored)
        };
        Ok(stored)
    }

    /// Records the deletion, then lets the WebApp go. The finalizer's removal is
    /// checked against the resourceVersion the status write returned: the WebApp as
    /// the operator last wrote it, not as the cache held it before.
    async fn cleanup(context: &Context, api: &Api<WebApp>, webapp: &WebApp) -> Result<Action, Error> {
        let mut status = webapp.status.clone().unwrap_or_default();
        status.phase = Some(Phase::Deleting);
        let webapp = Self::write_status(context, webapp.clone(), status).await?;
        let note = format!(
            "WebApp {} is being deleted; its Deployment and Service go with it",
            webapp.name_any()
        );
        context.publish(&webapp, EventType::Normal, "Deleting", note).await?;
        finalizer::remove(api, &webapp, FINALIZER).await?;
        Ok(Action::done())
    }
}

impl Reconciler<WebApp> for WebAppReconciler {
    async fn reconcile(&self, webapp: Arc<WebApp>, context: &Context) -> Result<Action, Error> {
        let namespace = webapp.namespace().unwrap_or_default();
        let client = context.client().clone();
        let webapps: Api<WebApp> = Api::namespaced(client.clone(), &namespace);
        if finalizer::is_deleting(webapp.as_ref()) {
            return Self::cleanup(context, &webapps, &webapp).await;
        }
        if webapp.spec.replicas() < 0 {
            return Err(Error::terminal(format!(
                "spec.replicas is {}; it must not be negative",
                webapp.spec.replicas()
            )));
        }
        let mut webapp = finalizer::ensure(&webapps, webapp.as_ref(), FINALIZER).await?;
        if webapp.status.is_none() {
            let status = WebAppStatus {
                phase: Some(Phase::Reconciling),
                ..WebAppStatus::default()
            };
            webapp = Self::write_status(context, webapp, status).await?;
        }
        let deployment = self.apply_children(&client, &namespace, &webapp).await?;

        let deployment_status = deployment.status.clone().unwrap_or_default();
        let available = deployment_status.available_replicas.unwrap_or(0);
        let rolled_out = deployment_status.observed_generation >= deployment.metadata.generation;
        let phase = phase_of(&webapp, available, rolled_out);
        let mut status = webapp.status.clone().unwrap_or_default();
        let mut conditions = status.conditions.take().unwrap_or_default();
        let (ready, reason) = if phase == Phase::Ready {
            (true, "AllReplicasAvailable")
        } else {
            (false, "Rollout")
        };
        ConditionBuilder::ready()
            .status(ready)
            .reason(reason)
            .message(format!("{available} of {} replicas available", webapp.spec.replicas()))
            .observed_generation(webapp.meta().generation)
            .set_in(&mut conditions);
        let status = WebAppStatus {
            phase: Some(phase),
            available_replicas: Some(available),
            conditions: Some(conditions),
            observed_generation: webapp.meta().generation,
        };
        Self::write_status(context, webapp, status).await?;
        Ok(Action::requeue_after(Duration::from_secs(30)))
    }
}
