//! Every resource k8s-openapi 0.29.0 models, for each Kubernetes version it supports
//! (1.33 to 1.37): generated from its source by `envtest/tests/catalogue.rs`
//! (run `cargo test -p wheelhouse-envtest --test catalogue` to regenerate); do not edit.
//! Each entry is compiled only for the versions that have it, through k8s-openapi's
//! `k8s_if_*` macros, so the library builds with whichever version the final binary
//! picks.

use super::{Builtin, CREATE_ONLY, STORED, STORED_WITH_STATUS, entry};

/// Pushes the built-in resources of the Kubernetes version k8s-openapi was built for.
#[expect(clippy::too_many_lines, reason = "one line per resource type")]
pub(super) fn builtins(out: &mut Vec<Builtin>) {
    // v1 bindings
    out.push(entry::<k8s_openapi::api::core::v1::Binding>(CREATE_ONLY));
    // v1 componentstatuses
    out.push(entry::<k8s_openapi::api::core::v1::ComponentStatus>(STORED));
    // v1 configmaps
    out.push(entry::<k8s_openapi::api::core::v1::ConfigMap>(STORED));
    // v1 endpoints
    out.push(entry::<k8s_openapi::api::core::v1::Endpoints>(STORED));
    // v1 events
    out.push(entry::<k8s_openapi::api::core::v1::Event>(STORED));
    // v1 limitranges
    out.push(entry::<k8s_openapi::api::core::v1::LimitRange>(STORED));
    // v1 namespaces
    out.push(entry::<k8s_openapi::api::core::v1::Namespace>(STORED_WITH_STATUS));
    // v1 nodes
    out.push(entry::<k8s_openapi::api::core::v1::Node>(STORED_WITH_STATUS));
    // v1 persistentvolumeclaims
    out.push(entry::<k8s_openapi::api::core::v1::PersistentVolumeClaim>(STORED_WITH_STATUS));
    // v1 persistentvolumes
    out.push(entry::<k8s_openapi::api::core::v1::PersistentVolume>(STORED_WITH_STATUS));
    // v1 pods
    out.push(entry::<k8s_openapi::api::core::v1::Pod>(STORED_WITH_STATUS));
    // v1 podtemplates
    out.push(entry::<k8s_openapi::api::core::v1::PodTemplate>(STORED));
    // v1 replicationcontrollers
    out.push(entry::<k8s_openapi::api::core::v1::ReplicationController>(STORED_WITH_STATUS));
    // v1 resourcequotas
    out.push(entry::<k8s_openapi::api::core::v1::ResourceQuota>(STORED_WITH_STATUS));
    // v1 secrets
    out.push(entry::<k8s_openapi::api::core::v1::Secret>(STORED));
    // v1 serviceaccounts
    out.push(entry::<k8s_openapi::api::core::v1::ServiceAccount>(STORED));
    // v1 services
    out.push(entry::<k8s_openapi::api::core::v1::Service>(STORED_WITH_STATUS));
    // admissionregistration.k8s.io/v1 mutatingadmissionpolicies
    k8s_openapi::k8s_if_ge_1_36! { out.push(entry::<k8s_openapi::api::admissionregistration::v1::MutatingAdmissionPolicy>(STORED)); }
    // admissionregistration.k8s.io/v1alpha1 mutatingadmissionpolicies
    out.push(entry::<k8s_openapi::api::admissionregistration::v1alpha1::MutatingAdmissionPolicy>(STORED));
    // admissionregistration.k8s.io/v1beta1 mutatingadmissionpolicies
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::admissionregistration::v1beta1::MutatingAdmissionPolicy>(STORED)); }
    // admissionregistration.k8s.io/v1 mutatingadmissionpolicybindings
    k8s_openapi::k8s_if_ge_1_36! { out.push(entry::<k8s_openapi::api::admissionregistration::v1::MutatingAdmissionPolicyBinding>(STORED)); }
    // admissionregistration.k8s.io/v1alpha1 mutatingadmissionpolicybindings
    out.push(entry::<k8s_openapi::api::admissionregistration::v1alpha1::MutatingAdmissionPolicyBinding>(STORED));
    // admissionregistration.k8s.io/v1beta1 mutatingadmissionpolicybindings
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::admissionregistration::v1beta1::MutatingAdmissionPolicyBinding>(STORED)); }
    // admissionregistration.k8s.io/v1 mutatingwebhookconfigurations
    out.push(entry::<k8s_openapi::api::admissionregistration::v1::MutatingWebhookConfiguration>(STORED));
    // admissionregistration.k8s.io/v1 validatingadmissionpolicies
    out.push(entry::<k8s_openapi::api::admissionregistration::v1::ValidatingAdmissionPolicy>(STORED_WITH_STATUS));
    // admissionregistration.k8s.io/v1beta1 validatingadmissionpolicies
    k8s_openapi::k8s_if_le_1_33! { out.push(entry::<k8s_openapi::api::admissionregistration::v1beta1::ValidatingAdmissionPolicy>(STORED_WITH_STATUS)); }
    // admissionregistration.k8s.io/v1 validatingadmissionpolicybindings
    out.push(entry::<k8s_openapi::api::admissionregistration::v1::ValidatingAdmissionPolicyBinding>(STORED));
    // admissionregistration.k8s.io/v1beta1 validatingadmissionpolicybindings
    k8s_openapi::k8s_if_le_1_33! { out.push(entry::<k8s_openapi::api::admissionregistration::v1beta1::ValidatingAdmissionPolicyBinding>(STORED)); }
    // admissionregistration.k8s.io/v1 validatingwebhookconfigurations
    out.push(entry::<k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration>(STORED));
    // apiextensions.k8s.io/v1 customresourcedefinitions
    out.push(entry::<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition>(STORED_WITH_STATUS));
    // apiregistration.k8s.io/v1 apiservices
    out.push(entry::<k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1::APIService>(STORED_WITH_STATUS));
    // apps/v1 controllerrevisions
    out.push(entry::<k8s_openapi::api::apps::v1::ControllerRevision>(STORED));
    // apps/v1 daemonsets
    out.push(entry::<k8s_openapi::api::apps::v1::DaemonSet>(STORED_WITH_STATUS));
    // apps/v1 deployments
    out.push(entry::<k8s_openapi::api::apps::v1::Deployment>(STORED_WITH_STATUS));
    // apps/v1 replicasets
    out.push(entry::<k8s_openapi::api::apps::v1::ReplicaSet>(STORED_WITH_STATUS));
    // apps/v1 statefulsets
    out.push(entry::<k8s_openapi::api::apps::v1::StatefulSet>(STORED_WITH_STATUS));
    // authentication.k8s.io/v1 selfsubjectreviews
    out.push(entry::<k8s_openapi::api::authentication::v1::SelfSubjectReview>(CREATE_ONLY));
    // authentication.k8s.io/v1 tokenreviews
    out.push(entry::<k8s_openapi::api::authentication::v1::TokenReview>(CREATE_ONLY));
    // authorization.k8s.io/v1 localsubjectaccessreviews
    out.push(entry::<k8s_openapi::api::authorization::v1::LocalSubjectAccessReview>(CREATE_ONLY));
    // authorization.k8s.io/v1 selfsubjectaccessreviews
    out.push(entry::<k8s_openapi::api::authorization::v1::SelfSubjectAccessReview>(CREATE_ONLY));
    // authorization.k8s.io/v1 selfsubjectrulesreviews
    out.push(entry::<k8s_openapi::api::authorization::v1::SelfSubjectRulesReview>(CREATE_ONLY));
    // authorization.k8s.io/v1 subjectaccessreviews
    out.push(entry::<k8s_openapi::api::authorization::v1::SubjectAccessReview>(CREATE_ONLY));
    // autoscaling/v1 horizontalpodautoscalers
    out.push(entry::<k8s_openapi::api::autoscaling::v1::HorizontalPodAutoscaler>(STORED_WITH_STATUS));
    // autoscaling/v2 horizontalpodautoscalers
    out.push(entry::<k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscaler>(STORED_WITH_STATUS));
    // batch/v1 cronjobs
    out.push(entry::<k8s_openapi::api::batch::v1::CronJob>(STORED_WITH_STATUS));
    // batch/v1 jobs
    out.push(entry::<k8s_openapi::api::batch::v1::Job>(STORED_WITH_STATUS));
    // certificates.k8s.io/v1 certificatesigningrequests
    out.push(entry::<k8s_openapi::api::certificates::v1::CertificateSigningRequest>(STORED_WITH_STATUS));
    // certificates.k8s.io/v1 clustertrustbundles
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::certificates::v1::ClusterTrustBundle>(STORED)); }
    // certificates.k8s.io/v1alpha1 clustertrustbundles
    k8s_openapi::k8s_if_le_1_36! { out.push(entry::<k8s_openapi::api::certificates::v1alpha1::ClusterTrustBundle>(STORED)); }
    // certificates.k8s.io/v1beta1 clustertrustbundles
    out.push(entry::<k8s_openapi::api::certificates::v1beta1::ClusterTrustBundle>(STORED));
    // certificates.k8s.io/v1 podcertificaterequests
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::certificates::v1::PodCertificateRequest>(STORED_WITH_STATUS)); }
    // certificates.k8s.io/v1alpha1 podcertificaterequests
    k8s_openapi::k8s_if_ge_1_34! { k8s_openapi::k8s_if_le_1_34! { out.push(entry::<k8s_openapi::api::certificates::v1alpha1::PodCertificateRequest>(STORED_WITH_STATUS)); } }
    // certificates.k8s.io/v1beta1 podcertificaterequests
    k8s_openapi::k8s_if_ge_1_35! { out.push(entry::<k8s_openapi::api::certificates::v1beta1::PodCertificateRequest>(STORED_WITH_STATUS)); }
    // coordination.k8s.io/v1alpha2 leasecandidates
    out.push(entry::<k8s_openapi::api::coordination::v1alpha2::LeaseCandidate>(STORED));
    // coordination.k8s.io/v1beta1 leasecandidates
    out.push(entry::<k8s_openapi::api::coordination::v1beta1::LeaseCandidate>(STORED));
    // coordination.k8s.io/v1 leases
    out.push(entry::<k8s_openapi::api::coordination::v1::Lease>(STORED));
    // discovery.k8s.io/v1 endpointslices
    out.push(entry::<k8s_openapi::api::discovery::v1::EndpointSlice>(STORED));
    // events.k8s.io/v1 events
    out.push(entry::<k8s_openapi::api::events::v1::Event>(STORED));
    // flowcontrol.apiserver.k8s.io/v1 flowschemas
    out.push(entry::<k8s_openapi::api::flowcontrol::v1::FlowSchema>(STORED_WITH_STATUS));
    // flowcontrol.apiserver.k8s.io/v1 prioritylevelconfigurations
    out.push(entry::<k8s_openapi::api::flowcontrol::v1::PriorityLevelConfiguration>(STORED_WITH_STATUS));
    // internal.apiserver.k8s.io/v1alpha1 storageversions
    out.push(entry::<k8s_openapi::api::apiserverinternal::v1alpha1::StorageVersion>(STORED_WITH_STATUS));
    // lifecycle.k8s.io/v1alpha1 evictionrequests
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::lifecycle::v1alpha1::EvictionRequest>(STORED_WITH_STATUS)); }
    // lifecycle.k8s.io/v1alpha1 evictions
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::lifecycle::v1alpha1::Eviction>(STORED_WITH_STATUS)); }
    // networking.k8s.io/v1 ingressclasses
    out.push(entry::<k8s_openapi::api::networking::v1::IngressClass>(STORED));
    // networking.k8s.io/v1 ingresses
    out.push(entry::<k8s_openapi::api::networking::v1::Ingress>(STORED_WITH_STATUS));
    // networking.k8s.io/v1 ipaddresses
    out.push(entry::<k8s_openapi::api::networking::v1::IPAddress>(STORED));
    // networking.k8s.io/v1beta1 ipaddresses
    k8s_openapi::k8s_if_le_1_36! { out.push(entry::<k8s_openapi::api::networking::v1beta1::IPAddress>(STORED)); }
    // networking.k8s.io/v1 networkpolicies
    out.push(entry::<k8s_openapi::api::networking::v1::NetworkPolicy>(STORED));
    // networking.k8s.io/v1 servicecidrs
    out.push(entry::<k8s_openapi::api::networking::v1::ServiceCIDR>(STORED_WITH_STATUS));
    // networking.k8s.io/v1beta1 servicecidrs
    k8s_openapi::k8s_if_le_1_36! { out.push(entry::<k8s_openapi::api::networking::v1beta1::ServiceCIDR>(STORED_WITH_STATUS)); }
    // node.k8s.io/v1 runtimeclasses
    out.push(entry::<k8s_openapi::api::node::v1::RuntimeClass>(STORED));
    // policy/v1 poddisruptionbudgets
    out.push(entry::<k8s_openapi::api::policy::v1::PodDisruptionBudget>(STORED_WITH_STATUS));
    // rbac.authorization.k8s.io/v1 clusterrolebindings
    out.push(entry::<k8s_openapi::api::rbac::v1::ClusterRoleBinding>(STORED));
    // rbac.authorization.k8s.io/v1 clusterroles
    out.push(entry::<k8s_openapi::api::rbac::v1::ClusterRole>(STORED));
    // rbac.authorization.k8s.io/v1 rolebindings
    out.push(entry::<k8s_openapi::api::rbac::v1::RoleBinding>(STORED));
    // rbac.authorization.k8s.io/v1 roles
    out.push(entry::<k8s_openapi::api::rbac::v1::Role>(STORED));
    // resource.k8s.io/v1 deviceclasses
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::resource::v1::DeviceClass>(STORED)); }
    // resource.k8s.io/v1alpha3 deviceclasses
    k8s_openapi::k8s_if_le_1_33! { out.push(entry::<k8s_openapi::api::resource::v1alpha3::DeviceClass>(STORED)); }
    // resource.k8s.io/v1beta1 deviceclasses
    out.push(entry::<k8s_openapi::api::resource::v1beta1::DeviceClass>(STORED));
    // resource.k8s.io/v1beta2 deviceclasses
    out.push(entry::<k8s_openapi::api::resource::v1beta2::DeviceClass>(STORED));
    // resource.k8s.io/v1 devicetaintrules
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::resource::v1::DeviceTaintRule>(STORED_WITH_STATUS)); }
    // resource.k8s.io/v1alpha3 devicetaintrules
    out.push(entry::<k8s_openapi::api::resource::v1alpha3::DeviceTaintRule>(STORED));
    // resource.k8s.io/v1beta2 devicetaintrules
    k8s_openapi::k8s_if_ge_1_36! { out.push(entry::<k8s_openapi::api::resource::v1beta2::DeviceTaintRule>(STORED_WITH_STATUS)); }
    // resource.k8s.io/v1 resourceclaims
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::resource::v1::ResourceClaim>(STORED_WITH_STATUS)); }
    // resource.k8s.io/v1alpha3 resourceclaims
    k8s_openapi::k8s_if_le_1_33! { out.push(entry::<k8s_openapi::api::resource::v1alpha3::ResourceClaim>(STORED_WITH_STATUS)); }
    // resource.k8s.io/v1beta1 resourceclaims
    out.push(entry::<k8s_openapi::api::resource::v1beta1::ResourceClaim>(STORED_WITH_STATUS));
    // resource.k8s.io/v1beta2 resourceclaims
    out.push(entry::<k8s_openapi::api::resource::v1beta2::ResourceClaim>(STORED_WITH_STATUS));
    // resource.k8s.io/v1 resourceclaimtemplates
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::resource::v1::ResourceClaimTemplate>(STORED)); }
    // resource.k8s.io/v1alpha3 resourceclaimtemplates
    k8s_openapi::k8s_if_le_1_33! { out.push(entry::<k8s_openapi::api::resource::v1alpha3::ResourceClaimTemplate>(STORED)); }
    // resource.k8s.io/v1beta1 resourceclaimtemplates
    out.push(entry::<k8s_openapi::api::resource::v1beta1::ResourceClaimTemplate>(STORED));
    // resource.k8s.io/v1beta2 resourceclaimtemplates
    out.push(entry::<k8s_openapi::api::resource::v1beta2::ResourceClaimTemplate>(STORED));
    // resource.k8s.io/v1alpha3 resourcepoolstatusrequests
    k8s_openapi::k8s_if_ge_1_36! { out.push(entry::<k8s_openapi::api::resource::v1alpha3::ResourcePoolStatusRequest>(STORED_WITH_STATUS)); }
    // resource.k8s.io/v1 resourceslices
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::resource::v1::ResourceSlice>(STORED)); }
    // resource.k8s.io/v1alpha3 resourceslices
    k8s_openapi::k8s_if_le_1_33! { out.push(entry::<k8s_openapi::api::resource::v1alpha3::ResourceSlice>(STORED)); }
    // resource.k8s.io/v1beta1 resourceslices
    out.push(entry::<k8s_openapi::api::resource::v1beta1::ResourceSlice>(STORED));
    // resource.k8s.io/v1beta2 resourceslices
    out.push(entry::<k8s_openapi::api::resource::v1beta2::ResourceSlice>(STORED));
    // scheduling.k8s.io/v1alpha3 compositepodgroups
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::scheduling::v1alpha3::CompositePodGroup>(STORED_WITH_STATUS)); }
    // scheduling.k8s.io/v1alpha2 podgroups
    k8s_openapi::k8s_if_ge_1_36! { k8s_openapi::k8s_if_le_1_36! { out.push(entry::<k8s_openapi::api::scheduling::v1alpha2::PodGroup>(STORED_WITH_STATUS)); } }
    // scheduling.k8s.io/v1alpha3 podgroups
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::scheduling::v1alpha3::PodGroup>(STORED_WITH_STATUS)); }
    // scheduling.k8s.io/v1beta1 podgroups
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::scheduling::v1beta1::PodGroup>(STORED_WITH_STATUS)); }
    // scheduling.k8s.io/v1 priorityclasses
    out.push(entry::<k8s_openapi::api::scheduling::v1::PriorityClass>(STORED));
    // scheduling.k8s.io/v1alpha1 workloads
    k8s_openapi::k8s_if_ge_1_35! { k8s_openapi::k8s_if_le_1_35! { out.push(entry::<k8s_openapi::api::scheduling::v1alpha1::Workload>(STORED)); } }
    // scheduling.k8s.io/v1alpha2 workloads
    k8s_openapi::k8s_if_ge_1_36! { k8s_openapi::k8s_if_le_1_36! { out.push(entry::<k8s_openapi::api::scheduling::v1alpha2::Workload>(STORED)); } }
    // scheduling.k8s.io/v1alpha3 workloads
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::scheduling::v1alpha3::Workload>(STORED)); }
    // scheduling.k8s.io/v1beta1 workloads
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::scheduling::v1beta1::Workload>(STORED)); }
    // storage.k8s.io/v1 csidrivers
    out.push(entry::<k8s_openapi::api::storage::v1::CSIDriver>(STORED));
    // storage.k8s.io/v1 csinodes
    out.push(entry::<k8s_openapi::api::storage::v1::CSINode>(STORED));
    // storage.k8s.io/v1 csistoragecapacities
    out.push(entry::<k8s_openapi::api::storage::v1::CSIStorageCapacity>(STORED));
    // storage.k8s.io/v1 storageclasses
    out.push(entry::<k8s_openapi::api::storage::v1::StorageClass>(STORED));
    // storage.k8s.io/v1 volumeattachments
    out.push(entry::<k8s_openapi::api::storage::v1::VolumeAttachment>(STORED_WITH_STATUS));
    // storage.k8s.io/v1 volumeattributesclasses
    k8s_openapi::k8s_if_ge_1_34! { out.push(entry::<k8s_openapi::api::storage::v1::VolumeAttributesClass>(STORED)); }
    // storage.k8s.io/v1alpha1 volumeattributesclasses
    k8s_openapi::k8s_if_le_1_34! { out.push(entry::<k8s_openapi::api::storage::v1alpha1::VolumeAttributesClass>(STORED)); }
    // storage.k8s.io/v1beta1 volumeattributesclasses
    k8s_openapi::k8s_if_le_1_36! { out.push(entry::<k8s_openapi::api::storage::v1beta1::VolumeAttributesClass>(STORED)); }
    // storagemigration.k8s.io/v1 storageversionmigrations
    k8s_openapi::k8s_if_ge_1_37! { out.push(entry::<k8s_openapi::api::storagemigration::v1::StorageVersionMigration>(STORED_WITH_STATUS)); }
    // storagemigration.k8s.io/v1alpha1 storageversionmigrations
    k8s_openapi::k8s_if_le_1_34! { out.push(entry::<k8s_openapi::api::storagemigration::v1alpha1::StorageVersionMigration>(STORED_WITH_STATUS)); }
    // storagemigration.k8s.io/v1beta1 storageversionmigrations
    k8s_openapi::k8s_if_ge_1_35! { out.push(entry::<k8s_openapi::api::storagemigration::v1beta1::StorageVersionMigration>(STORED_WITH_STATUS)); }
}

/// The minor version of the Kubernetes k8s-openapi was built for.
pub(super) fn minor() -> u32 {
    // k8s_match! calls itself by name.
    use k8s_openapi::k8s_match;
    k8s_match!(0_u8, {
        k8s_if_1_33!(_ => 33),
        k8s_if_1_34!(_ => 34),
        k8s_if_1_35!(_ => 35),
        k8s_if_1_36!(_ => 36),
        k8s_if_1_37!(_ => 37),
    })
}
