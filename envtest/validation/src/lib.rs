//! wheelhouse-envtest-validation: the validation kube-apiserver runs on built-in objects
//! before it stores them, ported from `pkg/apis/<group>/validation` and apimachinery's
//! `pkg/api/validation` function by function, with kube's field paths, reasons and
//! messages. The embedded API server of `wheelhouse-envtest` calls [`validate`] on every
//! create, update and subresource write of a built-in resource; this crate knows nothing
//! of the server (no request, storage or state), only JSON values.
//!
//! Reading order: [`validate`] dispatches by API group to one module per group (`core`,
//! `apps`, `batch`, ...), whose functions carry the names of the Go functions they port
//! (`validate_pod_spec` is `ValidatePodSpec`) and run their checks in Go's order, so the
//! first error and the list of causes match; `meta` is `ValidateObjectMeta` and its
//! relatives, which every type's validation starts with; [`field`] is `field.Path` and
//! the error list; `common` holds what the groups share (apimachinery's string checks,
//! selectors, Go's value printing, reading Go's zero values out of JSON).
//! [`name_errors`] is the name rule of each kind, which the server checks a new
//! object's name with.
//!
//! The object handed in has been decoded as its Go type (a field of the wrong type was
//! already a 400) and defaulted; fields are read from the JSON, where a missing field is
//! Go's zero value.
//!
//! # What is ported
//!
//! The API groups beside core (core/v1 and object metadata have their own rows).
//!
//! | kube function | here | covered by |
//! |---|---|---|
//! | `ValidateDeployment`, `ValidateDeploymentUpdate` (+ the strategy's apps/v1 selector immutability) | `apps::deployment::validate_deployment` | `apps::tests::deployment_strategies_and_deadlines`, `selectors_and_templates`; `validation_workloads` |
//! | `ValidateDeploymentSpec`, `ValidateDeploymentStrategy`, `ValidateRollingUpdateDeployment`, `ValidateRollback` | `apps::deployment` | `apps::tests::deployment_strategies_and_deadlines`; `validation_workloads` |
//! | `ValidateDeploymentStatusUpdate`, `ValidateDeploymentStatus` | `apps::deployment::validate_deployment_status_update` | `apps::tests::status_counts` |
//! | `ValidateReplicaSet`, `ValidateReplicaSetUpdate`, `ValidateReplicaSetSpec`, `ValidateReplicaSetStatusUpdate` | `apps::deployment::validate_replica_set` | `apps::tests::selectors_and_templates` |
//! | `ValidatePodTemplateSpecForReplicaSet` | `apps::deployment::validate_pod_template_spec_for_replica_set` | `apps::tests::selectors_and_templates` |
//! | `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`, `getIntOrPercentValue` | `apps::validate_positive_int_or_percent`, `is_not_more_than_100_percent` | `apps::tests::deployment_strategies_and_deadlines`; `validation_workloads` |
//! | `ValidateStatefulSet`, `ValidateStatefulSetUpdate`, `ValidateStatefulSetSpec`, `ValidatePodTemplateSpecForStatefulSet`, `ValidatePersistentVolumeClaimRetentionPolicy`, `validateRollingUpdateStatefulSet` | `apps::stateful_set` | `apps::tests::stateful_set_updates_keep_all_but_their_mutable_fields`, `stateful_sets_do_not_validate_their_pod_spec`; `validation_workloads` |
//! | `ValidateStatefulSetStatusUpdate`, `ValidateStatefulSetStatus` | `apps::stateful_set` | `validation_workloads` |
//! | `ValidateDaemonSet`, `ValidateDaemonSetUpdate`, `ValidateDaemonSetSpec`, `ValidateDaemonSetSpecUpdate`, `ValidateDaemonSetUpdateStrategy`, `ValidateRollingUpdateDaemonSet`, `ValidateDaemonSetStatusUpdate` | `apps::daemon_set` | `apps::tests::selectors_do_not_change_on_apps_v1`; `validation_workloads` |
//! | `ValidateControllerRevisionCreate`, `ValidateControllerRevisionUpdate` | `apps::daemon_set::validate_controller_revision` | `apps::tests::controller_revisions_hold_an_object` |
//! | `ValidateJob`, `validateGeneratedSelector`, `ValidateJobSpec`, `validateJobSpec`, pod failure, success and replacement policies | `batch::job` | `batch::tests::a_selector_not_generated_is_refused`, `restart_policies_and_counts`, `pod_failure_policies`; `validation_workloads` |
//! | `ValidateJobUpdate`, `ValidateJobSpecUpdate`, `validateCompletions`, `validatePodTemplateUpdate` (+ `validationOptionsForJob`) | `batch::job::validate_job_update` | `batch::tests::completions_of_non_indexed_jobs_are_immutable`, `suspended_jobs_that_never_started_may_reschedule`; `validation_workloads` |
//! | `ValidateJobUpdateStatus`, `validateJobStatus` (+ `getStatusValidationOptions` with `JobManagedBy`) | `batch::job_status` | `batch::tests::finished_jobs_state_how_they_ended` |
//! | `validateIndexesFormat`, `parseIndexInterval`, `validateFailedIndexesNotOverlapCompleted` | `batch::indexes` | `batch::indexes::tests` |
//! | `ValidateCronJobCreate`, `ValidateCronJobUpdate`, `validateCronJobSpec`, `validateScheduleFormat`, `validateTimeZone`, `ValidateJobTemplateSpec` | `batch::cron_job` | `batch::tests::cron_jobs_schedules_and_zones`; `validation_workloads` |
//! | robfig/cron `ParseStandard`; Go `time.LoadLocation`, `time.ParseDuration` | `batch::schedule` | `batch::schedule::tests` |
//! | `ValidateHorizontalPodAutoscaler`, `...Update`, `...StatusUpdate`, metrics, targets, behavior (+ v1 conversion, v2 defaults) | `autoscaling` | `autoscaling::tests`; `validation_workloads` |
//! | `ValidateScale` (a `Scale` written through a built-in resource's `/scale`) | `autoscaling::validate_scale` | `autoscaling::tests::negative_replicas_are_refused_as_validate_scale_refuses_them`; conformance `scale` |
//! | `ValidatePodDisruptionBudget`, `ValidatePodDisruptionBudgetStatusUpdate` | `policy` | `policy::tests`; `validation_workloads` |
//! | `ValidateNetworkPolicy`, `...Update`, `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`, `ValidateIPBlock` | `networking` | `networking::tests::network_policy_blocks_and_ports`; `validation_cluster` |
//! | `ValidateIngressCreate`, `ValidateIngressUpdate`, `ValidateIngressStatusUpdate`, rules, paths, backends, TLS | `networking::ingress` | `networking::tests::ingress_paths_hosts_and_backends`; `validation_cluster` |
//! | `ValidateIngressClass`, `ValidateIngressClassUpdate` | `networking::ingress::validate_ingress_class` | `networking::tests::ingress_classes` |
//! | `ValidateIPAddress`, `ValidateIPAddressUpdate`, `ValidateServiceCIDR`, `...Update`, `...StatusUpdate` | `networking::addresses` | `networking::tests::service_cidrs_and_addresses` |
//! | `ValidateRole`, `ValidateClusterRole`, `ValidatePolicyRule`, bindings, `ValidateRoleBindingSubject`, updates | `rbac` | `rbac::tests`; `validation_cluster` |
//! | `ValidateLease`, `ValidateLeaseUpdate`, `ValidateLeaseCandidate`, `...Update` | `coordination` | `coordination::tests`; `validation_cluster` |
//! | `ValidatePriorityClass`, `ValidatePriorityClassUpdate` | `scheduling` | `scheduling::tests`; `validation_cluster` |
//! | `ValidateRuntimeClass`, `ValidateRuntimeClassUpdate` | `node` | `node::tests`; `validation_cluster` |
//! | `ValidateStorageClass`, `...Update`, `ValidateVolumeAttachment` (+V1, update), `ValidateCSINode`, `ValidateCSIDriver`, `ValidateCSIStorageCapacity`, `ValidateVolumeAttributesClass` | `storage` | `storage::tests`; `validation_cluster` |
//! | `ValidateEndpointSlice`, `...Create`, `...Update` | `discovery` | `discovery::tests`; `validation_cluster` |
//! | `ValidateCertificateSigningRequestCreate`, `...Update`, `...StatusUpdate`, `...ApprovalUpdate`; `ValidateClusterTrustBundle`, `...Update`; `ValidateSignerName` | `certificates` | `certificates::tests`; `validation_cluster` |
//! | `ValidateEventCreate`, `ValidateEventUpdate` (events.k8s.io; core/v1 through `events::Fields`) | `events` | `events::tests`; `validation_cluster` |
//! | `ValidateValidatingWebhookConfiguration`, `ValidateMutatingWebhookConfiguration`, their updates, `ValidateWebhookURL`, `ValidateWebhookService` | `admissionregistration::webhooks` | `admissionregistration::tests::webhooks_name_a_client_and_their_effects`; `validation_cluster` |
//! | `ValidateValidatingAdmissionPolicy`, `...Update`, `...StatusUpdate`, `ValidateValidatingAdmissionPolicyBinding` (CEL compiled) | `admissionregistration::policies` | `admissionregistration::tests`; `validation_cluster` |
//! | `ValidateFlowSchema`, `ValidatePriorityLevelConfiguration` and their status updates | `flowcontrol` | `flowcontrol::tests`; `validation_cluster` |
//! | `ValidateSubjectAccessReview`, `ValidateSelfSubjectAccessReview`, `ValidateLocalSubjectAccessReview` | `authorization` | `authorization::tests`; `validation_cluster` |
//! | kube-aggregator `ValidateAPIService`, `...Update`, `...StatusUpdate` | `apiregistration` | `apiregistration::tests` |
//! | `ValidateStorageVersion`, `...StatusUpdate` | `apiserverinternal` | `apiserverinternal::tests` |
//! | apimachinery `IsQualifiedName`, `IsValidLabelValue`, `IsWildcardDNS1123Subdomain`, `IsValidPathSegmentName`, `NameIsDNS*`, `IsValidPercent`, `IsValidPortNum`, `IsValidPortName` | `common::names` | `common::names::tests` |
//! | metav1 `LabelSelectorAsSelector`, `ValidateLabels`; `ValidateAnnotations`; `ValidateConditions` | `common::labels`, `common::conditions` | `common::labels::tests`, `common::conditions::tests` |
//! | core `ValidateNonnegativeField`, `ValidateImmutableField`, `IsDecremented`, `ValidateHasLabel`, `ValidateQualifiedName`, `IsDomainPrefixedPath` | `common::fields` | `common::fields::tests` |
//! | core `ValidatePodSpecificAnnotations`, `ValidateTolerations`; `ValidateContainerResourceName`, `ValidateResourceQuantityValue` | `common::pods`, `common::resources` | `common::pods::tests`, `common::resources::tests` |
//!
//! Conformance tests (`envtest/tests/conformance/validation_*.rs`) send the same
//! writes to the embedded server and to real 1.32 and 1.19 servers.
//!
//! Not ported, and why:
//!
//! | kube function | why |
//! |---|---|
//! | `ValidateMutatingAdmissionPolicy`, `...Binding` | alpha in 1.32 (off by default there) |
//! | `resource.k8s.io` (DRA), `storagemigration.k8s.io` | beta/alpha in 1.32, not served by default; not ported yet |
//! | flowcontrol's mandatory `exempt`/`catch-all` fixed specs | the server creates those objects; their bootstrap values are not modelled |
//! | metav1 `ValidateFieldSelectorRequirement`, `ValidateLabelSelectorRequirement` in access reviews | only the raw-or-requirements rule is ported |
//! | the Go dump (`%#v`) of a whole pod template or spec in `field is immutable` messages | printed close to Go's, not equal (`common::go_syntax::approximate`) |
//! | a `VolumeAttachment`'s inline persistent volume spec | core's `ValidatePersistentVolumeSpec` |

pub mod field;

mod common;
#[cfg(test)]
mod testing;

mod meta;

mod admissionregistration;
mod apiregistration;
mod apiserverinternal;
mod apps;
mod authorization;
mod autoscaling;
mod batch;
mod certificates;
mod coordination;
mod core;
mod discovery;
mod events;
mod flowcontrol;
mod networking;
mod node;
mod policy;
mod rbac;
mod scheduling;
mod storage;

use serde_json::Value;

pub use crate::autoscaling::validate_scale;
pub use crate::field::{ErrorList, FieldError, Path};

/// The resource being written: its group, version and kind, and whether it lives in a
/// namespace.
#[derive(Debug, Clone, Copy)]
pub struct Kind<'a> {
    /// The API group, empty for core.
    pub group: &'a str,
    /// The version the object was written in (`v1`, `v2`, `v1beta1`).
    pub version: &'a str,
    /// The kind, such as `Pod`.
    pub kind: &'a str,
    /// Whether objects of the kind live in a namespace.
    pub namespaced: bool,
}

/// What the write does, which picks the validation function kube runs (`Validate`,
/// `ValidateUpdate`, or a subresource strategy's).
#[derive(Debug, Clone, Copy)]
pub enum Write<'a> {
    /// A create (`POST`).
    Create,
    /// An update of the main resource, `old` as stored.
    Update {
        /// The object as stored before the write.
        old: &'a Value,
    },
    /// A write through a subresource (`status`, `scale`, `ephemeralcontainers`,
    /// `resize`, `finalize`, `approval`), `old` as stored.
    Subresource {
        /// The subresource's name.
        name: &'a str,
        /// The object as stored before the write.
        old: &'a Value,
    },
}

impl<'a> Write<'a> {
    /// The stored object, for an update or a subresource write.
    pub fn old(&self) -> Option<&'a Value> {
        match *self {
            Self::Create => None,
            Self::Update { old } | Self::Subresource { old, .. } => Some(old),
        }
    }
}

/// What the name rule of `kind` (its `ValidateNameFunc`) says of a new object's
/// `name`: most kinds' names are DNS subdomains; `StatefulSets`' are DNS labels (their
/// pods' hostnames carry them); RBAC's and `PodDisruptionBudgets`' are only path
/// segments (a name like `system:controller:x` is valid); `IPAddresses` are named by
/// their address, `LeaseCandidates` like config keys. Empty when the name is valid.
pub fn name_errors(kind: &Kind, name: &str) -> Vec<String> {
    use crate::common::names;
    let rule: fn(&str, bool) -> Vec<String> = match (kind.group, kind.kind) {
        ("rbac.authorization.k8s.io", _) => rbac::validate_rbac_name,
        // Only the generic path-segment rule that follows every strategy applies to
        // PodDisruptionBudgets (their strategy validates no metadata) and to
        // CertificateSigningRequests (`ValidateCertificateRequestName` takes any name);
        // APIServices and ClusterTrustBundles are named after their spec
        // (`<version>.<group>`, `<signer>:<name>`), the rest of their rule is checked
        // with the object.
        ("policy", "PodDisruptionBudget")
        | ("apiregistration.k8s.io", "APIService")
        | ("certificates.k8s.io", "ClusterTrustBundle" | "CertificateSigningRequest") => names::name_is_path_segment,
        ("apps", "StatefulSet") => names::name_is_dns_label,
        ("networking.k8s.io", "IPAddress") => networking::ip_address_name,
        ("coordination.k8s.io", "LeaseCandidate") => common::fields::validate_config_map_key_name,
        ("internal.apiserver.k8s.io", "StorageVersion") => apiserverinternal::storage_version_name,
        _ => names::name_is_dns_subdomain,
    };
    rule(name, false)
}

/// The errors kube-apiserver's validation finds in `object`, written as `write` says,
/// in the order it finds them; empty when the object is valid or its kind has no
/// validation here yet.
pub fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match kind.group {
        "" => core::validate(kind, object, write),
        "apps" => apps::validate(kind, object, write),
        "batch" => batch::validate(kind, object, write),
        "autoscaling" => autoscaling::validate(kind, object, write),
        "networking.k8s.io" => networking::validate(kind, object, write),
        "policy" => policy::validate(kind, object, write),
        "rbac.authorization.k8s.io" => rbac::validate(kind, object, write),
        "storage.k8s.io" => storage::validate(kind, object, write),
        "coordination.k8s.io" => coordination::validate(kind, object, write),
        "scheduling.k8s.io" => scheduling::validate(kind, object, write),
        "certificates.k8s.io" => certificates::validate(kind, object, write),
        "discovery.k8s.io" => discovery::validate(kind, object, write),
        "admissionregistration.k8s.io" => admissionregistration::validate(kind, object, write),
        "events.k8s.io" => events::validate(kind, object, write),
        "node.k8s.io" => node::validate(kind, object, write),
        "flowcontrol.apiserver.k8s.io" => flowcontrol::validate(kind, object, write),
        "authorization.k8s.io" => authorization::validate(kind, object, write),
        "internal.apiserver.k8s.io" => apiserverinternal::validate(kind, object, write),
        "apiregistration.k8s.io" => apiregistration::validate(kind, object, write),
        _ => ErrorList::new(),
    }
}
