//! The Canary operator, on the phase scheduler, with ingress-nginx for the traffic
//! split (no service mesh): a `Canary` runs its Deployment template as a primary
//! Deployment; when the template changes, the new one runs as a canary Deployment that
//! receives a growing share of the traffic (ingress-nginx's `canary-weight`), step by
//! step on an interval, while its success rate stays above a threshold; then it is
//! promoted (the primary takes its template) or rolled back.
//!
//! Phases: Initializing → Waiting → Evaluating → Promoting or Rollback → Waiting.
//! Objects, for a Canary `web`: Deployments `web-primary` and `web-canary`, Services of
//! the same names, Ingress `web` (to the primary) and `web-canary` (to the canary,
//! with the weight). Shared by the demo (`demos/canary.rs`) and the end-to-end tests.

pub mod metrics;

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{PodTemplateSpec, Service};
use k8s_openapi::api::networking::v1::Ingress;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, DeleteParams};
use kube::{CustomResource, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use wheelhouse::cache::Cache;
use wheelhouse::controller::phase::{
    DeclarationError, Finalizer, Objects, Outcome, Owned, Phase, PhaseScheduler, PhaseStatus, Phases, Worker,
};
use wheelhouse::controller::{Builder, Context, Controller, Error};

use metrics::{PrometheusDefaults, SuccessRate};

/// The controller's name and field manager.
pub const CONTROLLER: &str = "canary";
/// The finalizer that sends all traffic back to the primary before a Canary goes.
pub const FINALIZER: &str = "example.com/canary-traffic";
/// The annotation on each Deployment naming the template revision it runs.
pub const REVISION: &str = "example.com/revision";
/// ingress-nginx's annotations for a canary Ingress.
pub const NGINX_CANARY: &str = "nginx.ingress.kubernetes.io/canary";
/// ingress-nginx's share of requests, in percent, sent to a canary Ingress.
pub const NGINX_CANARY_WEIGHT: &str = "nginx.ingress.kubernetes.io/canary-weight";

/// A Deployment released progressively: a template change is tried as a canary before
/// it replaces the primary.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Canary",
    namespaced,
    status = "CanaryStatus",
    printcolumn = r#"{"name":"Phase","type":"string","jsonPath":".status.phase"}"#,
    printcolumn = r#"{"name":"Weight","type":"integer","jsonPath":".status.canaryWeight"}"#,
    printcolumn = r#"{"name":"Primary","type":"string","jsonPath":".status.primaryRevision"}"#,
    printcolumn = r#"{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}"#
)]
#[serde(rename_all = "camelCase")]
pub struct CanarySpec {
    /// The Deployment to release: its pod template and replicas.
    pub deployment: DeploymentTemplate,
    /// The port the pods serve on, and the Services expose.
    pub port: i32,
    /// The host the Ingresses route (default `<name>.example.com`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Time between two weight steps (`30s`, `1m`, `1m30s`, `500ms`).
    pub analysis_interval: String,
    /// The window the success rate is measured over (the `PromQL` range, `1m`).
    pub analysis_period: String,
    /// The lowest success rate, in percent, that lets the canary go on.
    pub success_threshold: f64,
    /// How many percent of the traffic each step adds (1 to 100).
    pub step_weight: i32,
    /// Where the success rate comes from.
    pub metrics: MetricsSource,
}

/// A Deployment's template and size.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
pub struct DeploymentTemplate {
    /// Pods per Deployment (primary and canary alike).
    #[serde(default = "one")]
    pub replicas: i32,
    /// The pod template.
    pub template: PodTemplateSpec,
}

fn one() -> i32 {
    1
}

/// One source of the success rate.
#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MetricsSource {
    /// A Prometheus server scraping ingress-nginx.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prometheus: Option<PrometheusSource>,
    /// A `ConfigMap` holding each Canary's rate under its name (for demonstrations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map: Option<ConfigMapSource>,
}

/// A Prometheus query.
#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct PrometheusSource {
    /// The server (`http://prometheus.monitoring:9090`; default: the operator's
    /// `--prometheus-url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The query, with `{namespace}`, `{ingress}` and `{interval}` filled in (default:
    /// the share of non-5xx responses of the canary Ingress).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
}

/// A `ConfigMap` of success rates.
#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct ConfigMapSource {
    /// Its name, in the Canary's namespace.
    pub name: String,
}

/// Where a Canary is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum CanaryPhase {
    /// New: the primary, the Services and the Ingresses are created.
    Initializing,
    /// The primary runs the template; waiting for it to change.
    Waiting,
    /// A new template runs as the canary, its traffic share growing step by step.
    Evaluating,
    /// The canary passed: the primary takes its template.
    Promoting,
    /// The canary failed: its traffic share goes back to zero.
    Rollback,
}

impl Phase for CanaryPhase {
    fn phases() -> Phases<Self> {
        Phases::new()
            .initial(Self::Initializing, [Self::Waiting])
            .phase(Self::Waiting, [Self::Evaluating])
            .phase(Self::Evaluating, [Self::Promoting, Self::Rollback])
            .phase(Self::Promoting, [Self::Waiting])
            .phase(Self::Rollback, [Self::Waiting])
    }
}

/// What the workers share in the status.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
pub struct CanaryInfo {
    /// The revision of the template the primary runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary_revision: Option<String>,
    /// The revision under evaluation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canary_revision: Option<String>,
    /// The revision last rolled back (not tried again until the template changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected_revision: Option<String>,
    /// The canary's share of the traffic, in percent.
    pub canary_weight: i32,
    /// When the weight last stepped (or the analysis started).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_step: Option<Time>,
    /// The last success rate measured, in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success_rate: Option<f64>,
}

/// A Canary's status.
pub type CanaryStatus = PhaseStatus<CanaryPhase, CanaryInfo>;

/// The Canary's Deployments, Services and Ingresses, as the cache holds them.
type OwnedDeployments = Objects<Deployment, Owned>;

/// Initializing: the primary Deployment, both Services and both Ingresses (the
/// canary's at weight 0).
pub struct Initialize;

impl Worker<Canary> for Initialize {
    type Inputs = ();
    type Outputs = (Vec<Deployment>, Vec<Service>, Vec<Ingress>);

    async fn sync(&self, canary: &Canary, (): (), _: &Context) -> Result<Outcome<Canary, Self::Outputs>, Error> {
        check_spec(canary)?;
        let revision = revision(&canary.spec.deployment);
        let primary = deployment(
            canary,
            Role::Primary,
            &canary.spec.deployment.template,
            replicas(canary),
            &revision,
        )?;
        let services = vec![service(canary, Role::Primary)?, service(canary, Role::Canary)?];
        let ingresses = vec![
            ingress(canary, Role::Primary, None)?,
            ingress(canary, Role::Canary, Some(0))?,
        ];
        let info = CanaryInfo {
            primary_revision: Some(revision),
            ..CanaryInfo::default()
        };
        Ok(Outcome::next(CanaryPhase::Waiting)
            .with_outputs((vec![primary], services, ingresses))
            .with_info(info))
    }
}

/// Waiting: a template that is neither the primary's nor the last rejected one starts
/// an evaluation.
pub struct AwaitChange;

impl Worker<Canary> for AwaitChange {
    type Inputs = ();
    type Outputs = ();

    async fn sync(&self, canary: &Canary, (): (), _: &Context) -> Result<Outcome<Canary>, Error> {
        let info = info(canary);
        let revision = revision(&canary.spec.deployment);
        if info.primary_revision.as_ref() == Some(&revision) || info.rejected_revision.as_ref() == Some(&revision) {
            return Ok(Outcome::next(CanaryPhase::Waiting));
        }
        check_spec(canary)?;
        Ok(Outcome::next(CanaryPhase::Evaluating).with_info(CanaryInfo {
            canary_revision: Some(revision),
            canary_weight: 0,
            last_step: None,
            success_rate: None,
            ..info
        }))
    }
}

/// Evaluating: once the canary Deployment is available, every analysis interval reads
/// the success rate and steps the weight, or rolls back when the rate is too low; at
/// 100 % the canary is promoted. Re-run on any input change in between, it only waits
/// for the rest of the interval.
pub struct Evaluate;

impl Worker<Canary> for Evaluate {
    type Inputs = (OwnedDeployments, SuccessRate);
    type Outputs = (Vec<Deployment>, Vec<Ingress>);

    async fn sync(
        &self,
        canary: &Canary,
        (deployments, rate): Self::Inputs,
        _: &Context,
    ) -> Result<Outcome<Canary, Self::Outputs>, Error> {
        let mut info = info(canary);
        let revision = revision(&canary.spec.deployment);
        let interval = parse_duration(&canary.spec.analysis_interval)?;
        if info.primary_revision.as_ref() == Some(&revision) {
            // The template went back to the primary's: nothing left to evaluate.
            return Ok(Outcome::next(CanaryPhase::Rollback));
        }
        if info.canary_revision.as_ref() != Some(&revision) {
            // The template changed again mid-evaluation: start over with it.
            info = CanaryInfo {
                canary_revision: Some(revision.clone()),
                canary_weight: 0,
                last_step: None,
                success_rate: None,
                ..info
            };
        }
        let canary_deployment = deployment(
            canary,
            Role::Canary,
            &canary.spec.deployment.template,
            replicas(canary),
            &revision,
        )?;
        let outputs = |weight| -> Result<Self::Outputs, Error> {
            Ok((
                vec![canary_deployment.clone()],
                vec![ingress(canary, Role::Canary, Some(weight))?],
            ))
        };
        let available = deployments
            .named(&Role::Canary.name(canary))
            .is_some_and(|d| rolled_out(d, &revision, replicas(canary)));
        let now = Timestamp::now();
        let started = info.last_step.as_ref().map(|t| t.0);
        let stay = |info: CanaryInfo, wait: Duration| -> Result<Outcome<Canary, Self::Outputs>, Error> {
            Ok(Outcome::next(CanaryPhase::Evaluating)
                .with_outputs(outputs(info.canary_weight)?)
                .with_info(info)
                .with_requeue(wait))
        };
        let Some(last_step) = started.filter(|_| available) else {
            // The clock starts once the canary serves.
            info.last_step = available.then_some(Time(now));
            return stay(info, interval);
        };
        // A step stamped in the future (a clock moved back) counts as just made.
        let elapsed = Duration::try_from(now.duration_since(last_step)).unwrap_or(Duration::ZERO);
        if elapsed < interval {
            return stay(info, interval.saturating_sub(elapsed));
        }
        let SuccessRate(Some(measured)) = rate else {
            return stay(info, interval);
        };
        info.success_rate = Some(measured);
        if measured < canary.spec.success_threshold {
            let weight = info.canary_weight;
            return Ok(Outcome::next(CanaryPhase::Rollback)
                .with_outputs(outputs(weight)?)
                .with_info(info));
        }
        info.canary_weight = (info.canary_weight + canary.spec.step_weight).min(100);
        info.last_step = Some(Time(now));
        let next = if info.canary_weight >= 100 {
            CanaryPhase::Promoting
        } else {
            CanaryPhase::Evaluating
        };
        let weight = info.canary_weight;
        Ok(Outcome::next(next)
            .with_outputs(outputs(weight)?)
            .with_info(info)
            .with_requeue(interval))
    }
}

/// Promoting: the primary takes the canary's template; once it has rolled out, all
/// traffic goes back to it and the canary is scaled to zero.
pub struct Promote;

impl Worker<Canary> for Promote {
    type Inputs = (OwnedDeployments,);
    type Outputs = (Vec<Deployment>, Vec<Ingress>);

    async fn sync(
        &self,
        canary: &Canary,
        (deployments,): Self::Inputs,
        _: &Context,
    ) -> Result<Outcome<Canary, Self::Outputs>, Error> {
        let info = info(canary);
        let revision = info
            .canary_revision
            .clone()
            .ok_or_else(|| Error::terminal("promoting without a canary revision in the status"))?;
        // What was evaluated is what the canary Deployment runs, whatever the spec says now.
        let template = deployments
            .named(&Role::Canary.name(canary))
            .map(|d| d.spec.template.clone())
            .ok_or_else(|| Error::new(std::io::Error::other("the canary Deployment is not in the cache yet")))?;
        let primary = deployment(canary, Role::Primary, &template, replicas(canary), &revision)?;
        let promoted = deployments
            .named(&Role::Primary.name(canary))
            .is_some_and(|d| rolled_out(d, &revision, replicas(canary)));
        if !promoted {
            let canary_deployment = deployment(canary, Role::Canary, &template, replicas(canary), &revision)?;
            return Ok(Outcome::next(CanaryPhase::Promoting)
                .with_outputs((
                    vec![primary, canary_deployment],
                    vec![ingress(canary, Role::Canary, Some(100))?],
                ))
                .with_requeue(parse_duration(&canary.spec.analysis_interval)?));
        }
        let idle = deployment(canary, Role::Canary, &template, 0, &revision)?;
        let info = CanaryInfo {
            primary_revision: Some(revision),
            canary_revision: None,
            canary_weight: 0,
            last_step: None,
            ..info
        };
        Ok(Outcome::next(CanaryPhase::Waiting)
            .with_outputs((vec![primary, idle], vec![ingress(canary, Role::Canary, Some(0))?]))
            .with_info(info))
    }
}

/// Rollback: the canary's traffic share back to zero and its Deployment scaled to zero;
/// its revision is remembered as rejected.
pub struct RollBack;

impl Worker<Canary> for RollBack {
    type Inputs = (OwnedDeployments,);
    type Outputs = (Vec<Deployment>, Vec<Ingress>);

    async fn sync(
        &self,
        canary: &Canary,
        (deployments,): Self::Inputs,
        _: &Context,
    ) -> Result<Outcome<Canary, Self::Outputs>, Error> {
        let info = info(canary);
        let revision = info.canary_revision.clone().unwrap_or_default();
        let template = deployments
            .named(&Role::Canary.name(canary))
            .map_or_else(|| canary.spec.deployment.template.clone(), |d| d.spec.template.clone());
        let idle = deployment(canary, Role::Canary, &template, 0, &revision)?;
        let info = CanaryInfo {
            rejected_revision: info.canary_revision.clone(),
            canary_revision: None,
            canary_weight: 0,
            last_step: None,
            ..info
        };
        Ok(Outcome::next(CanaryPhase::Waiting)
            .with_outputs((vec![idle], vec![ingress(canary, Role::Canary, Some(0))?]))
            .with_info(info))
    }
}

/// On deletion: the canary Ingress goes first, so requests go to the primary while
/// the garbage collector deletes the rest (in an order of its own).
pub struct ReleaseTraffic;

impl Finalizer<Canary> for ReleaseTraffic {
    async fn finalize(&self, canary: &Canary, context: &Context) -> Result<(), Error> {
        let ingresses: Api<Ingress> =
            Api::namespaced(context.client().clone(), &canary.namespace().unwrap_or_default());
        match ingresses
            .delete(&canary_ingress_name(canary), &DeleteParams::default())
            .await
        {
            Ok(_) => Ok(()),
            Err(kube::Error::Api(status)) if status.code == 404 => Ok(()),
            Err(error) => Err(error.into()),
        }
    }
}

/// The workers and the finalizer; `prometheus` is the default address of Prometheus
/// queries.
pub fn scheduler(prometheus: Option<String>) -> PhaseScheduler<Canary> {
    PhaseScheduler::new()
        .worker(CanaryPhase::Initializing, Initialize)
        .worker(CanaryPhase::Waiting, AwaitChange)
        .worker(CanaryPhase::Evaluating, Evaluate)
        .worker(CanaryPhase::Promoting, Promote)
        .worker(CanaryPhase::Rollback, RollBack)
        .finalizer(FINALIZER, ReleaseTraffic)
        .provide(PrometheusDefaults {
            url: prometheus,
            ..PrometheusDefaults::default()
        })
}

/// The controller builder of Canaries in `namespace` (all namespaces when None).
pub fn builder(cache: &Cache, namespace: Option<&str>) -> Builder<Canary> {
    let builder = Controller::for_::<Canary>(cache).name(CONTROLLER).concurrency(4);
    match namespace {
        Some(namespace) => builder.namespace(namespace),
        None => builder,
    }
}

/// The Canary controller.
pub fn controller(
    cache: &Cache,
    namespace: Option<&str>,
    prometheus: Option<String>,
) -> Result<Controller, DeclarationError> {
    builder(cache, namespace).build_phases(scheduler(prometheus))
}

/// The status information, or the default before any.
fn info(canary: &Canary) -> CanaryInfo {
    canary.status.as_ref().map(|s| s.info.clone()).unwrap_or_default()
}

fn replicas(canary: &Canary) -> i32 {
    canary.spec.deployment.replicas.max(1)
}

/// Refuses specs no evaluation can run with.
fn check_spec(canary: &Canary) -> Result<(), Error> {
    let spec = &canary.spec;
    parse_duration(&spec.analysis_interval)?;
    parse_duration(&spec.analysis_period)?;
    if !(1..=100).contains(&spec.step_weight) {
        return Err(Error::terminal(format!(
            "spec.stepWeight is {}; it must be between 1 and 100",
            spec.step_weight
        )));
    }
    if spec.metrics.prometheus.is_some() == spec.metrics.config_map.is_some() {
        return Err(Error::terminal(
            "spec.metrics must name exactly one source: prometheus or configMap",
        ));
    }
    Ok(())
}

/// A duration as Go writes them, without the fractions: `500ms`, `30s`, `1m30s`, `2h`.
pub fn parse_duration(text: &str) -> Result<Duration, Error> {
    let invalid = || Error::terminal(format!("{text:?} is not a duration like 30s, 1m30s or 500ms"));
    let mut total = Duration::ZERO;
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(invalid());
    }
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).ok_or_else(invalid)?;
        let number: u64 = rest[..digits].parse().map_err(|_| invalid())?;
        rest = &rest[digits..];
        let unit = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let part = match &rest[..unit] {
            "ms" => Duration::from_millis(number),
            "s" => Duration::from_secs(number),
            "m" => Duration::from_secs(number * 60),
            "h" => Duration::from_secs(number * 3600),
            _ => return Err(invalid()),
        };
        total += part;
        rest = &rest[unit..];
    }
    Ok(total)
}

/// A stable short name of a template (FNV-1a of its JSON), to tell templates apart
/// across restarts and compiler versions.
pub fn revision(template: &DeploymentTemplate) -> String {
    let text = serde_json::to_string(template).unwrap_or_default();
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{:010x}", hash & 0xff_ffff_ffff)
}

/// Whether `deployment` runs `revision` with `replicas` pods available.
fn rolled_out(deployment: &Deployment, revision: &str, replicas: i32) -> bool {
    let runs = deployment.annotations().get(REVISION).map(String::as_str) == Some(revision);
    let status = deployment.status.clone().unwrap_or_default();
    runs && status.observed_generation >= deployment.metadata.generation
        && status.available_replicas.unwrap_or(0) >= replicas
        && status.updated_replicas.unwrap_or(0) >= replicas
}

/// Which of the pair an object belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// What serves the traffic normally.
    Primary,
    /// What is being evaluated.
    Canary,
}

impl Role {
    /// The name of the role's Deployment and Service.
    pub fn name(self, canary: &Canary) -> String {
        match self {
            Self::Primary => format!("{}-primary", canary.name_any()),
            Self::Canary => format!("{}-canary", canary.name_any()),
        }
    }
}

/// The name of the canary Ingress (the one with the weight).
pub fn canary_ingress_name(canary: &Canary) -> String {
    format!("{}-canary", canary.name_any())
}

/// The Deployment of `role`, running `template`.
pub fn deployment(
    canary: &Canary,
    role: Role,
    template: &PodTemplateSpec,
    replicas: i32,
    revision: &str,
) -> Result<Deployment, Error> {
    let name = role.name(canary);
    let mut template = template.clone();
    let metadata = template.metadata.get_or_insert_default();
    metadata
        .labels
        .get_or_insert_default()
        .insert("app".to_owned(), name.clone());
    for container in template.spec.iter_mut().flat_map(|pod| pod.containers.iter_mut()) {
        // Before 1.20, server-side apply refused list items that left a defaulted merge
        // key out.
        for port in container.ports.iter_mut().flatten() {
            port.protocol.get_or_insert_with(|| "TCP".to_owned());
        }
    }
    let deployment = json!({
        "metadata": {"name": name, "annotations": {REVISION: revision}},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}}, "template": template},
    });
    Ok(serde_json::from_value(deployment)?)
}

/// The Service of `role`.
fn service(canary: &Canary, role: Role) -> Result<Service, Error> {
    let name = role.name(canary);
    let port = canary.spec.port;
    let service = json!({
        "metadata": {"name": name},
        "spec": {"selector": {"app": name}, "ports": [{"name": "http", "port": port, "targetPort": port, "protocol": "TCP"}]},
    });
    Ok(serde_json::from_value(service)?)
}

/// The Ingress of `role`: the canary's carries ingress-nginx's canary annotations with
/// `weight`.
pub fn ingress(canary: &Canary, role: Role, weight: Option<i32>) -> Result<Ingress, Error> {
    let host = canary
        .spec
        .host
        .clone()
        .unwrap_or_else(|| format!("{}.example.com", canary.name_any()));
    let (name, annotations) = match (role, weight) {
        (Role::Canary, Some(weight)) => (
            canary_ingress_name(canary),
            BTreeMap::from([
                (NGINX_CANARY.to_owned(), "true".to_owned()),
                (NGINX_CANARY_WEIGHT.to_owned(), weight.to_string()),
            ]),
        ),
        _ => (canary.name_any(), BTreeMap::new()),
    };
    let ingress = json!({
        "metadata": {"name": name, "annotations": annotations},
        "spec": {
            "ingressClassName": "nginx",
            "rules": [{"host": host, "http": {"paths": [{
                "path": "/",
                "pathType": "Prefix",
                "backend": {"service": {"name": role.name(canary), "port": {"number": canary.spec.port}}},
            }]}}],
        },
    });
    Ok(serde_json::from_value(ingress)?)
}

/// The canary weight an Ingress carries, if it is a canary Ingress.
pub fn weight_of(ingress: &Ingress) -> Option<i32> {
    ingress.annotations().get(NGINX_CANARY_WEIGHT)?.parse().ok()
}
