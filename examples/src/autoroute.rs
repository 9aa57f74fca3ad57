//! The `AutoRoute` operator, on the phase scheduler: an `AutoRoute` selects Deployments
//! by label and gets one Service per Deployment and one Ingress with a host per
//! Deployment (`<deployment>.<route>`). Phases Initializing → Syncing → Ready; Ready
//! goes back to Syncing when the selected set changes, and Syncing's outputs are pruned
//! of what it no longer returns. Shared by the demo (`demos/autoroute.rs`), the end-to-end
//! tests and the `phases` benchmark (which also runs this logic as a plain reconciler).

use std::borrow::Cow;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::networking::v1::Ingress;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::{CustomResource, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use wheelhouse::cache::Cache;
use wheelhouse::controller::phase::{
    DeclarationError, Objects, Outcome, Phase, PhaseScheduler, PhaseStatus, Phases, Selector, Worker,
};
use wheelhouse::controller::{Builder, Context, Controller, Error};

/// The controller's name: its field manager and the `app.kubernetes.io/managed-by`
/// label of what it applies.
pub const CONTROLLER: &str = "autoroute";

/// Routes to every Deployment its selector picks: a Service each, and an Ingress host
/// `<deployment>.<route>` each.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "AutoRoute",
    namespaced,
    status = "AutoRouteStatus",
    shortname = "ar",
    printcolumn = r#"{"name":"Phase","type":"string","jsonPath":".status.phase"}"#,
    printcolumn = r#"{"name":"Deployments","type":"string","jsonPath":".status.syncedDeployments"}"#,
    printcolumn = r#"{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}"#
)]
#[serde(rename_all = "camelCase")]
pub struct AutoRouteSpec {
    /// Which Deployments of the route's namespace to route to.
    pub deployment_selector: LabelSelector,
}

/// Where an `AutoRoute` is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum RoutePhase {
    /// New: the selector is checked.
    Initializing,
    /// Services and the Ingress are being brought in line with the selected Deployments.
    Syncing,
    /// Routes match the selection; watching for it to change.
    Ready,
}

impl Phase for RoutePhase {
    fn phases() -> Phases<Self> {
        Phases::new()
            .initial(Self::Initializing, [Self::Syncing])
            .phase(Self::Syncing, [Self::Ready])
            .phase(Self::Ready, [Self::Syncing])
    }
}

/// What the workers share in the status.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct RouteInfo {
    /// The Deployments routed to, by name, sorted.
    pub synced_deployments: Vec<String>,
}

/// An `AutoRoute`'s status: the scheduler's fields and [`RouteInfo`].
pub type AutoRouteStatus = PhaseStatus<RoutePhase, RouteInfo>;

/// The Deployments an `AutoRoute` selects: its `deploymentSelector`.
pub struct Selected;

impl Selector<AutoRoute> for Selected {
    fn selector(route: &AutoRoute) -> Option<Cow<'_, LabelSelector>> {
        Some(Cow::Borrowed(&route.spec.deployment_selector))
    }
}

/// Initializing: a route whose selector cannot select anything stops here, with the
/// reason in `status.lastError`.
pub struct Initialize;

impl Worker<AutoRoute> for Initialize {
    type Inputs = ();
    type Outputs = ();

    async fn sync(&self, route: &AutoRoute, (): (), _: &Context) -> Result<Outcome<AutoRoute>, Error> {
        check_selector(&route.spec.deployment_selector)?;
        Ok(Outcome::next(RoutePhase::Syncing))
    }
}

/// Syncing: a Service per selected Deployment and the Ingress; Services of Deployments
/// no longer selected are pruned by the scheduler.
pub struct SyncRoutes;

impl Worker<AutoRoute> for SyncRoutes {
    type Inputs = (Objects<Deployment, Selected>,);
    type Outputs = (Vec<Service>, Vec<Ingress>);

    async fn sync(
        &self,
        route: &AutoRoute,
        (deployments,): Self::Inputs,
        _: &Context,
    ) -> Result<Outcome<AutoRoute, Self::Outputs>, Error> {
        let services = desired_services(route, &deployments)?;
        let ingress = desired_ingress(route, &deployments)?.into_iter().collect();
        let synced = RouteInfo {
            synced_deployments: names(&deployments),
        };
        let message = format!("{} hosts routed", synced.synced_deployments.len());
        Ok(Outcome::next(RoutePhase::Ready)
            .with_outputs((services, ingress))
            .with_info(synced)
            .with_condition("Routed", "True", "Synced", &message))
    }
}

/// Ready: back to Syncing when the selected Deployments are not the synced ones.
pub struct CheckRoutes;

impl Worker<AutoRoute> for CheckRoutes {
    type Inputs = (Objects<Deployment, Selected>,);
    type Outputs = ();

    async fn sync(
        &self,
        route: &AutoRoute,
        (deployments,): Self::Inputs,
        _: &Context,
    ) -> Result<Outcome<AutoRoute>, Error> {
        Ok(Outcome::next(next_when_ready(route, &names(&deployments))))
    }
}

/// Where a Ready route goes, given the names of the Deployments it selects now.
pub fn next_when_ready(route: &AutoRoute, selected: &[String]) -> RoutePhase {
    let synced = route.status.as_ref().map(|s| s.info.synced_deployments.as_slice());
    if synced == Some(selected) {
        RoutePhase::Ready
    } else {
        RoutePhase::Syncing
    }
}

/// The workers; tests and benchmarks add hooks before building.
pub fn scheduler() -> PhaseScheduler<AutoRoute> {
    PhaseScheduler::new()
        .worker(RoutePhase::Initializing, Initialize)
        .worker(RoutePhase::Syncing, SyncRoutes)
        .worker(RoutePhase::Ready, CheckRoutes)
}

/// The controller builder of `AutoRoutes` in `namespace` (all namespaces when None).
pub fn builder(cache: &Cache, namespace: Option<&str>) -> Builder<AutoRoute> {
    let builder = Controller::for_::<AutoRoute>(cache).name(CONTROLLER).concurrency(4);
    match namespace {
        Some(namespace) => builder.namespace(namespace),
        None => builder,
    }
}

/// The `AutoRoute` controller.
pub fn controller(cache: &Cache, namespace: Option<&str>) -> Result<Controller, DeclarationError> {
    builder(cache, namespace).build_phases(scheduler())
}

/// Refuses selectors that cannot work (an unknown operator, `In` without values).
pub fn check_selector(selector: &LabelSelector) -> Result<(), Error> {
    for expression in selector.match_expressions.iter().flatten() {
        let values = expression.values.as_ref().map_or(0, Vec::len);
        let valid = match expression.operator.as_str() {
            "In" | "NotIn" => values > 0,
            "Exists" | "DoesNotExist" => values == 0,
            _ => false,
        };
        if !valid {
            return Err(Error::terminal(format!(
                "spec.deploymentSelector: {} {:?} is not a valid requirement",
                expression.key, expression.operator
            )));
        }
    }
    Ok(())
}

/// The names of `deployments`, sorted (they come sorted from the cache).
pub fn names(deployments: &[Arc<Deployment>]) -> Vec<String> {
    deployments.iter().map(|d| d.name_any()).collect()
}

/// The port a Deployment serves on: its first container's first port, else 80.
fn port_of(deployment: &Deployment) -> i32 {
    deployment
        .spec
        .template
        .spec
        .as_ref()
        .and_then(|pod| pod.containers.first())
        .and_then(|container| container.ports.as_ref()?.first())
        .map_or(80, |port| port.container_port)
}

/// The name of the route's Service for `deployment`.
pub fn service_name(route: &AutoRoute, deployment: &str) -> String {
    format!("{}-{deployment}", route.name_any())
}

/// The host of the route for `deployment`.
pub fn host(route: &AutoRoute, deployment: &str) -> String {
    format!("{deployment}.{}", route.name_any())
}

/// One Service per Deployment, selecting its pods.
pub fn desired_services(route: &AutoRoute, deployments: &[Arc<Deployment>]) -> Result<Vec<Service>, Error> {
    deployments
        .iter()
        .map(|deployment| {
            let port = port_of(deployment);
            let service = json!({
                "metadata": {"name": service_name(route, &deployment.name_any())},
                "spec": {
                    "selector": deployment.spec.selector.match_labels,
                    // protocol is spelled out: before 1.20, server-side apply refused
                    // list items that left a defaulted merge key out.
                    "ports": [{"name": "http", "port": port, "targetPort": port, "protocol": "TCP"}],
                },
            });
            Ok(serde_json::from_value(service)?)
        })
        .collect()
}

/// The Ingress with a host per Deployment; None when no Deployment is selected (an
/// Ingress needs a rule).
pub fn desired_ingress(route: &AutoRoute, deployments: &[Arc<Deployment>]) -> Result<Option<Ingress>, Error> {
    if deployments.is_empty() {
        return Ok(None);
    }
    let rules: Vec<_> = deployments
        .iter()
        .map(|deployment| {
            let name = deployment.name_any();
            json!({
                "host": host(route, &name),
                "http": {"paths": [{
                    "path": "/",
                    "pathType": "Prefix",
                    "backend": {"service": {"name": service_name(route, &name), "port": {"number": port_of(deployment)}}},
                }]},
            })
        })
        .collect();
    let ingress = json!({"metadata": {"name": route.name_any()}, "spec": {"rules": rules}});
    Ok(Some(serde_json::from_value(ingress)?))
}
