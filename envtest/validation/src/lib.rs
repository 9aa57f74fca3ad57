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
//! ## Object metadata and core/v1
//!
//! Every kube function below (and in the next table) is ported whole, at 1.32's
//! feature-gate defaults, its checks in Go's order. The embedded server's conformance modules
//! `validation_core` and `validation_pods` check the answers against a real 1.32 (and
//! 1.19's wording where it differs); the unit tests sit beside each module. Values a
//! message prints as Go's `%#v` does (slices, maps, structs, quantities) print the same
//! here, but for pointer addresses (Go prints a random one). The `cmp.Diff` report
//! that follows "pod updates may not change fields other than ..." and a claim's or a
//! volume's immutable spec is go-cmp's own, ported in `gocmp` over a model of kube's
//! internal types generated from its source, with the plain-space indents go-cmp
//! draws in half of its processes (it draws non-breaking spaces in the others).
//!
//! | kube function | here | covered by |
//! |---|---|---|
//! | `maskTrailingDash` | `schema::names::mask_trailing_dash` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `NameIsDNSSubdomain` | `meta::name_is_dns_subdomain` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `NameIsDNSLabel` | `meta::name_is_dns_label` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `NameIsDNS1035Label` | `meta::name_is_dns1035_label` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `path.ValidatePathSegmentName` | `meta::validate_path_segment_name` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateNonnegativeField` | `meta::validate_nonnegative_field` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateImmutableField` | `meta::validate_immutable_field` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateObjectMeta` | `meta::validate_object_meta` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateObjectMetaUpdate` | `meta::validate_object_meta_update` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateAnnotations` | `meta::validate_annotations` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `validateOwnerReference` | `meta::validate_owner_reference` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateOwnerReferences` | `meta::validate_owner_references` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateFinalizerName` | `meta::validate_finalizer_name` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateFinalizers` | `meta::validate_finalizers` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateNoNewFinalizers` | `meta::validate_no_new_finalizers` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `ValidateObjectMetaAccessor` | `meta::validate_generic_create` | `meta::tests`, conformance `validation_core::metadata_*` |
//! | `MaxLenError` | `util::max_len_error` | `util::tests` |
//! | `EmptyError` | `util::empty_error` | `util::tests` |
//! | `InclusiveRangeError` | `util::inclusive_range_error` | `util::tests` |
//! | `RegexError` | `util::regex_error` | `util::tests` |
//! | `IsQualifiedName` | `util::is_qualified_name` | `util::tests` |
//! | `IsValidLabelValue` | `util::is_valid_label_value` | `util::tests` |
//! | `IsDNS1123Label` | `util::is_dns1123_label` | `util::tests` |
//! | `IsDNS1123Subdomain` | `util::is_dns1123_subdomain` | `util::tests` |
//! | `IsDNS1035Label` | `util::is_dns1035_label` | `util::tests` |
//! | `IsWildcardDNS1123Subdomain` | `util::is_wildcard_dns1123_subdomain` | `util::tests` |
//! | `IsCIdentifier` | `util::is_c_identifier` | `util::tests` |
//! | `IsValidPortNum` | `util::is_valid_port_num` | `util::tests` |
//! | `IsInRange` | `util::is_in_range` | `util::tests` |
//! | `IsValidUserID` | `util::is_valid_id` | `util::tests` |
//! | `IsValidPortName` | `util::is_valid_port_name` | `util::tests` |
//! | `IsValidPercent` | `util::is_valid_percent` | `util::tests` |
//! | `IsHTTPHeaderName` | `util::is_http_header_name` | `util::tests` |
//! | `IsEnvVarName` | `util::is_env_var_name` | `util::tests` |
//! | `IsRelaxedEnvVarName` | `util::is_relaxed_env_var_name` | `util::tests` |
//! | `IsConfigMapKey` | `util::is_config_map_key` | `util::tests` |
//! | `IsFullyQualifiedDomainName` | `util::is_fully_qualified_domain_name` | `util::tests` |
//! | `IsDomainPrefixedPath` | `util::is_domain_prefixed_path` | `util::tests` |
//! | `netutils.ParseIPSloppy` | `util::parse_ip_sloppy` | `util::tests` |
//! | `netutils.ParseCIDRSloppy` | `util::parse_cidr_sloppy` | `util::tests` |
//! | `IsValidIP` | `util::is_valid_ip` | `util::tests` |
//! | `IsValidIPv4Address` | `util::is_valid_ipv4_address` | `util::tests` |
//! | `IsValidIPv6Address` | `util::is_valid_ipv6_address` | `util::tests` |
//! | `IsValidCIDR` | `util::is_valid_cidr` | `util::tests` |
//! | `resource.ParseQuantity` | `quantity::parse` | `quantity::tests` |
//! | `Sign` | `quantity::sign` | `quantity::tests` |
//! | `IsZero` | `quantity::is_zero` | `quantity::tests` |
//! | `Cmp` | `quantity::cmp` | `quantity::tests` |
//! | `Value` | `quantity::value` | `quantity::tests` |
//! | `MilliValue` | `quantity::milli_value` | `quantity::tests` |
//! | `Add` | `quantity::plus` | `quantity::tests` |
//! | `String` | `quantity::fmt` | `quantity::tests` |
//! | `CanonicalizeBytes` | `quantity::canonical` | `quantity::tests` |
//! | `parseQuantityString` | `quantity::split` | `quantity::tests` |
//! | `ParseQuantity` | `quantity::fast_path` | `quantity::tests` |
//! | `ValidatePodTemplateSpec` | `core::validate_pod_template_spec` | `core::tests` |
//! | `path` | `core::validate_pod_template_spec` | `core::tests` |
//! | `validateKubeFinalizerName` | `core::validate_kube_finalizer_name` | `core::tests` |
//! | core's `ValidateObjectMeta`/`ValidateObjectMetaUpdate` (apimachinery's plus `validateKubeFinalizerName` per finalizer), called by every group that calls them in kube (apps, autoscaling, batch, certificates, core, discovery, events, flowcontrol, networking, rbac, scheduling, storage, internal); admissionregistration, coordination, node and apiregistration call apimachinery's | `core::validate_object_meta`, `core::validate_object_meta_update` | conformance `metadata_rules::group_kinds_refuse_legacy_finalizer_names_as_core_does` |
//! | `validateFinalizerName` | `core::validate_finalizer_name` | `core::tests` |
//! | `ValidateDNS1123Label` | `core::validate_dns1123_label` | `core::tests` |
//! | `ValidateDNS1123Subdomain` | `core::validate_dns1123_subdomain` | `core::tests` |
//! | `ValidateQualifiedName` | `core::validate_qualified_name` | `core::tests` |
//! | `ValidateNonnegativeQuantity` | `core::validate_nonnegative_quantity` | `core::tests` |
//! | `ValidatePositiveQuantityValue` | `core::validate_positive_quantity_value` | `core::tests` |
//! | `qos.GetPodQOS` | `core::quality_of_service_of` | `core::tests` |
//! | `qos.ComputePodQOS` | `core::quality_of_service` | `core::tests` |
//! | `ValidateSecret` | `core::config::validate_secret` | `core::tests::secrets_*`, `config_maps_*`, conformance `validation_core::secrets_*`, `config_maps_*` |
//! | `ValidateSecretUpdate` | `core::config::validate_secret_update` | `core::tests::secrets_*`, `config_maps_*`, conformance `validation_core::secrets_*`, `config_maps_*` |
//! | `ValidateConfigMap` | `core::config::validate_config_map` | `core::tests::secrets_*`, `config_maps_*`, conformance `validation_core::secrets_*`, `config_maps_*` |
//! | `ValidateConfigMapUpdate` | `core::config::validate_config_map_update` | `core::tests::secrets_*`, `config_maps_*`, conformance `validation_core::secrets_*`, `config_maps_*` |
//! | `ValidateServiceAccount` | `core::config::validate_service_account` | `core::tests::secrets_*`, `config_maps_*`, conformance `validation_core::secrets_*`, `config_maps_*` |
//! | `ValidateServiceAccountUpdate` | `core::config::validate_service_account_update` | `core::tests::secrets_*`, `config_maps_*`, conformance `validation_core::secrets_*`, `config_maps_*` |
//! | `validateContainers` | `core::container::validate_containers` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateInitContainers` | `core::container::validate_init_containers` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateEphemeralContainers` | `core::container::validate_ephemeral_containers` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateContainerOnlyForPod` | `core::container::validate_container_only_for_pod` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateContainerCommon` | `core::container::validate_container_common` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateContainerPorts` | `core::container::validate_container_ports` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `AccumulateUniqueHostPorts` | `core::container::check_host_port_conflicts` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `ValidateEnv` | `core::container::validate_env` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateEnvVarValueFrom` | `core::container::validate_env_var_value_from` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateObjectFieldSelector` | `core::downward::validate_object_field_selector` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `fieldpath.SplitMaybeSubscriptedPath` | `core::downward::split_maybe_subscripted_path` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `pods.ConvertDownwardAPIFieldLabel` | `core::downward::convert_downward_api_field_label` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateContainerResourceFieldSelector` | `core::downward::validate_container_resource_field_selector` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateContainerResourceDivisor` | `core::downward::validate_container_resource_divisor` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateConfigMapKeySelector` | `core::container::validate_key_selector` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `ValidateEnvFrom` | `core::container::validate_env_from` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validatePullPolicy` | `core::container::validate_pull_policy` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateResizePolicy` | `core::container::validate_resize_policy` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateLifecycle` | `core::probes::validate_lifecycle` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateProbe` | `core::probes::validate_probe` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateHandler` | `core::probes::validate_handler` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `validateSleepAction` | `core::probes::validate_sleep` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `ValidatePortNumOrName` | `core::probes::validate_port_num_or_name` | `core::tests::containers_*`, conformance `validation_pods::containers_*` |
//! | `ValidateReplicationController` | `core::controller::validate_replication_controller` | `core::tests::replication_controllers_*`, conformance `validation_core::namespaces_endpoints_and_controllers_*` |
//! | `ValidateReplicationControllerSpec` | `core::controller::validate_spec` | `core::tests::replication_controllers_*`, conformance `validation_core::namespaces_endpoints_and_controllers_*` |
//! | `ValidatePodTemplateSpecForRC` | `core::controller::validate_template_for_rc` | `core::tests::replication_controllers_*`, conformance `validation_core::namespaces_endpoints_and_controllers_*` |
//! | `ValidateReplicationControllerStatusUpdate` | `core::controller::validate_status_update` | `core::tests::replication_controllers_*`, conformance `validation_core::namespaces_endpoints_and_controllers_*` |
//! | `ValidatePodTemplate` | `core::controller::validate_pod_template` | `core::tests::replication_controllers_*`, conformance `validation_core::namespaces_endpoints_and_controllers_*` |
//! | `ValidatePodTemplateUpdate` | `core::controller::validate_pod_template_update` | `core::tests::replication_controllers_*`, conformance `validation_core::namespaces_endpoints_and_controllers_*` |
//! | `ValidateEventCreate` | `core::event::validate_event_create` | `core::tests::core_events_*` |
//! | `ValidateEventUpdate` | `core::event::validate_event_update` | `core::tests::core_events_*` |
//! | `validateV1EventSeries` | `core::event::validate_series` | `core::tests::core_events_*` |
//! | `legacyValidateEvent` | `core::event::legacy_validate_event` | `core::tests::core_events_*` |
//! | `IsHugePageResourceName` | `core::helper::is_huge_page_resource_name` | through the kinds above |
//! | `IsQuotaHugePageResourceName` | `core::helper::is_quota_huge_page_resource_name` | through the kinds above |
//! | `HugePageSizeFromResourceName` | `core::helper::huge_page_size` | through the kinds above |
//! | `IsHugePageResourceValueDivisible` | `core::helper::is_huge_page_resource_value_divisible` | through the kinds above |
//! | `IsStandardResourceQuotaScope` | `core::helper::is_standard_resource_quota_scope` | through the kinds above |
//! | `IsResourceQuotaScopeValidForResource` | `core::helper::is_resource_quota_scope_valid_for_resource` | through the kinds above |
//! | `IsStandardContainerResourceName` | `core::helper::is_standard_container_resource_name` | through the kinds above |
//! | `IsNativeResource` | `core::helper::is_native_resource` | through the kinds above |
//! | `IsExtendedResourceName` | `core::helper::is_extended_resource_name` | through the kinds above |
//! | `IsOvercommitAllowed` | `core::helper::is_overcommit_allowed` | through the kinds above |
//! | `IsStandardLimitRangeType` | `core::helper::is_standard_limit_range_type` | through the kinds above |
//! | `IsStandardQuotaResourceName` | `core::helper::is_standard_quota_resource_name` | through the kinds above |
//! | `IsStandardResourceName` | `core::helper::is_standard_resource_name` | through the kinds above |
//! | `IsIntegerResourceName` | `core::helper::is_integer_resource_name` | through the kinds above |
//! | `IsStandardFinalizerName` | `core::helper::is_standard_finalizer_name` | through the kinds above |
//! | `GetDeletionCostFromPodAnnotations` | `core::helper::deletion_cost_is_valid` | through the kinds above |
//! | `ValidateNamespace` | `core::namespace::validate_namespace` | `core::tests::namespaces_*`, conformance `validation_core::namespaces_*` |
//! | `ValidateNamespaceStatusUpdate` | `core::namespace::validate_status_update` | `core::tests::namespaces_*`, conformance `validation_core::namespaces_*` |
//! | `ValidateNamespaceFinalizeUpdate` | `core::namespace::validate_finalize_update` | `core::tests::namespaces_*`, conformance `validation_core::namespaces_*` |
//! | `ValidateNodeUpdate` | `core::node::validate` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `ValidateNode` | `core::node::validate_node` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `ValidateNodeResources` | `core::node::validate_node_resources` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `validateNodeTaints` | `core::node::validate_node_taints` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `ValidateNodeSpecificAnnotations` | `core::node::validate_node_specific_annotations` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `validateNodeConfigSourceSpec` | `core::node::validate_config_source` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `validateConfigMapNodeConfigSource` | `core::node::validate_config_map_source` | `core::tests::nodes_*`, conformance `validation_core::nodes_*` |
//! | `hasInvalidLabelValueInAffinitySelector` | `core::options::has_invalid_label_value_in_affinity` | `core::tests::containers_*`, conformance `validation_pods` |
//! | `ValidatePodCreate` | `core::pod::validate_pod_create` | `core::tests::containers_*`, conformance `validation_pods` |
//! | `validatePodMetadataAndSpec` | `core::pod::validate_pod_metadata_and_spec` | `core::tests::containers_*`, conformance `validation_pods` |
//! | `ValidatePodSpecificAnnotations` | `core::pod::validate_pod_specific_annotations` | `core::tests::containers_*`, conformance `validation_pods` |
//! | `ValidatePodSpec` | `core::pod_spec::validate_pod_spec` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validatePodResourceClaims` | `core::pod_spec::validate_pod_resource_claims` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validatePodHostNetworkDeps` | `core::pod_spec::validate_host_network_deps` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateRestartPolicy` | `core::pod_spec::validate_restart_policy` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateImagePullSecrets` | `core::pod_spec::validate_image_pull_secrets` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validatePodDNSConfig` | `core::pod_spec::validate_dns_config` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateSchedulingGates` | `core::pod_spec::validate_scheduling_gates` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateAffinity` | `core::scheduling::validate_affinity` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validatePodAffinityTerm` | `core::scheduling::validate_pod_affinity_term` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateMatchLabelKeysAndMismatchLabelKeys` | `core::scheduling::validate_match_label_keys_and_mismatch` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateLabelKeys` | `core::scheduling::label_keys` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `ValidateNodeSelector` | `core::scheduling::validate_node_selector` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `ValidateNodeSelectorTerm` | `core::scheduling::validate_node_selector_term` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `ValidateNodeSelectorRequirement` | `core::scheduling::validate_node_selector_requirement` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `ValidateNodeFieldSelectorRequirement` | `core::scheduling::validate_node_field_selector_requirement` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateTaintEffect` | `core::scheduling::validate_taint_effect` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `ValidateTolerations` | `core::scheduling::validate_tolerations` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateTopologySpreadConstraints` | `core::scheduling::validate_topology_spread_constraints` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `validateMatchLabelKeysInTopologySpread` | `core::scheduling::validate_match_label_keys_in_topology_spread` | `core::tests::a_defaulted_pod_is_valid`, probes (`validation_pods`) |
//! | `ValidatePodUpdate` | `core::pod_update::validate_pod_update` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `validateNodeAffinityMutation` | `core::pod_update::validate_node_affinity_mutation` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidateContainerUpdates` | `core::pod_update::validate_container_updates` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `validateOnlyAddedTolerations` | `core::pod_update::validate_only_added_tolerations` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `validateOnlyDeletedSchedulingGates` | `core::pod_update::validate_only_deleted_scheduling_gates` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidatePodSpecificAnnotationUpdates` | `core::pod::validate_annotation_updates` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidatePodStatusUpdate` | `core::pod_status::validate_pod_status_update` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidateContainerStateTransition` | `core::pod_status::state_transitions` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `validatePodIPs` | `core::pod_status::validate_pod_ips` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `validateHostIPs` | `core::pod_status::validate_host_ips` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidatePodEphemeralContainersUpdate` | `core::pod_update::validate_ephemeral_containers_update` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidatePodResize` | `core::pod_update::validate_pod_resize` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `ValidatePodBinding` | `core::pod_update::validate_pod_binding` | `core::tests::pod_updates_*`, `pod_status_*`, conformance `validation_pods::pod_updates_*` |
//! | `validateProjectionSources` | `core::projected::validate_projection_sources` | differential probe (projected volumes) |
//! | `ValidateLimitRange` | `core::quota::validate_limit_range` | `core::tests::limit_ranges_*`, `quotas_*`, conformance `validation_core::limit_ranges_*` |
//! | `ValidateResourceQuotaStatus` | `core::quota::validate_status` | `core::tests::limit_ranges_*`, `quotas_*`, conformance `validation_core::limit_ranges_*` |
//! | `ValidateResourceQuotaSpec` | `core::quota::validate_spec` | `core::tests::limit_ranges_*`, `quotas_*`, conformance `validation_core::limit_ranges_*` |
//! | `validateScopedResourceSelectorRequirement` | `core::quota::validate_scope_selector` | `core::tests::limit_ranges_*`, `quotas_*`, conformance `validation_core::limit_ranges_*` |
//! | `validateResourceName` | `core::resources::validate_resource_name` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `validateContainerResourceName` | `core::resources::validate_container_resource_name` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `ValidateResourceQuotaResourceName` | `core::resources::validate_resource_quota_resource_name` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `validateLimitRangeTypeName` | `core::resources::validate_limit_range_type_name` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `validateLimitRangeResourceName` | `core::resources::validate_limit_range_resource_name` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `ValidateResourceQuantityValue` | `core::resources::validate_resource_quantity_value` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `validateBasicResource` | `core::resources::validate_basic_resource` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `ValidateContainerResourceRequirements` | `core::resources::validate_container_resource_requirements` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `validateResourceQuantityHugePageValue` | `core::resources::huge_page_value` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `validateResourceClaimNames` | `core::resources::validate_resource_claim_names` | `core::tests::quotas_*`, conformance `validation_pods::requests_may_not_exceed_limits` |
//! | `ValidateSecurityContext` | `core::security::validate_security_context` | differential probe (pod security) |
//! | `validatePodSpecSecurityContext` | `core::security::validate_pod_security_context` | differential probe (pod security) |
//! | `validateSysctls` | `core::security::validate_sysctls` | differential probe (pod security) |
//! | `ValidateHostSysctl` | `core::security::validate_host_sysctl` | differential probe (pod security) |
//! | `validateSeccompProfileField` | `core::security::validate_seccomp_profile_field` | differential probe (pod security) |
//! | `ValidateAppArmorProfileField` | `core::security::validate_app_armor_profile_field` | differential probe (pod security) |
//! | `validateWindowsSecurityContextOptions` | `core::security::validate_windows_options` | differential probe (pod security) |
//! | `VisitContainersWithPath` | `core::security::containers_with_paths` | differential probe (pod security) |
//! | `validateWindowsHostProcessPod` | `core::security::validate_windows_host_process_pod` | differential probe (pod security) |
//! | `validateOS` | `core::security::validate_os` | differential probe (pod security) |
//! | `ValidateSeccompProfile` | `core::annotations::validate_seccomp_profile` | differential probe (pod security) |
//! | `ValidateSeccompPodAnnotations` | `core::annotations::validate_seccomp_pod_annotations` | differential probe (pod security) |
//! | `ValidateAppArmorPodAnnotations` | `core::annotations::validate_app_armor_pod_annotations` | differential probe (pod security) |
//! | `validateSeccompAnnotationsAndFields` | `core::annotations::validate_seccomp_annotations_and_fields` | differential probe (pod security) |
//! | `validateAppArmorAnnotationsAndFieldsMatchOnCreate` | `core::annotations::validate_app_armor_annotations_and_fields` | differential probe (pod security) |
//! | `isHeadlessService` | `core::cluster_ips::is_headless` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateService` | `core::service::validate_service` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `validateServicePort` | `core::service::validate_service_port` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `validateLoadBalancerClassField` | `core::service::validate_load_balancer_class` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `apiservice.ExternallyAccessible` | `core::service::externally_accessible` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `validateServiceExternalTrafficPolicy` | `core::service::validate_external_traffic_policy` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `validateServiceInternalTrafficFieldsValue` | `core::service::validate_internal_traffic_policy` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateServiceClusterIPsRelatedFields` | `core::cluster_ips::validate_cluster_ips_related_fields` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateServiceUpdate` | `core::service::validate_service_update` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `validateUpgradeDowngradeClusterIPs` | `core::cluster_ips::validate_upgrade_downgrade_cluster_ips` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `validateUpgradeDowngradeIPFamilies` | `core::cluster_ips::validate_upgrade_downgrade_ip_families` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateLoadBalancerStatus` | `core::service::validate_load_balancer_status` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateNonSpecialIP` | `core::endpoints::validate_non_special_ip` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateEndpoints` | `core::endpoints::validate_endpoints` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidateEndpointsUpdate` | `core::endpoints::validate_endpoints_update` | `core::tests::services_*`, `cluster_ips_*`, conformance `validation_core::services_*` |
//! | `ValidatePersistentVolume` | `core::persistent_volume::validate_persistent_volume` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `ValidatePersistentVolumeSpec` | `core::persistent_volume::validate_persistent_volume_spec` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `validateISCSIPersistentVolumeSource` | `core::persistent_volume::iscsi` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `validateCSIPersistentVolumeSource` | `core::persistent_volume::csi` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `ValidatePersistentVolumeUpdate` | `core::persistent_volume::validate_persistent_volume_update` | `core::tests::claims_*`, `core::tests::volume_and_claim_updates_*`, conformance `validation_core::claims_*` |
//! | `pkg/volume/validation.ValidatePersistentVolume` (`checkMountOption`) | `core::persistent_volume::check_mount_option` | `core::tests::mount_options_*` |
//! | `ValidatePersistentVolumeClaim` | `core::claim::validate_persistent_volume_claim` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `ValidatePersistentVolumeClaimTemplate` | `core::claim::validate_claim_template` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `ValidatePersistentVolumeClaimSpec` | `core::claim::validate_claim_spec` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `validateDataSource` | `core::claim::validate_data_sources` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `ValidatePersistentVolumeClaimUpdate` | `core::claim::validate_claim_update` | `core::tests::claims_*`, `core::tests::volume_and_claim_updates_*`, conformance `validation_core::claims_*` |
//! | `ValidatePersistentVolumeClaimStatusUpdate` | `core::claim::validate_claim_status_update` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `validatePersistentVolumeClaimResourceKey` | `core::claim::validate_claim_resource_key` | `core::tests::claims_*`, conformance `validation_core::claims_*` |
//! | `ValidateVolumes` | `core::volume::validate_volumes` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateVolumeSource` | `core::volume::validate_volume_source` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateHostPathVolumeSource` | `core::sources::host_path` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateFCVolumeSource` | `core::sources::fc` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateGCEPersistentDiskVolumeSource` | `core::sources::gce_persistent_disk` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateAWSElasticBlockStoreVolumeSource` | `core::sources::aws_elastic_block_store` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateKeyToPath` | `core::sources::key_to_path` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateNFSVolumeSource` | `core::sources::nfs` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateQuobyteVolumeSource` | `core::sources::quobyte` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateFlockerVolumeSource` | `core::sources::flocker` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateFlexVolumeSource` | `core::sources::flex` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateAzureDisk` | `core::sources::azure_disk` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `ValidateCSIDriverName` | `core::sources::validate_csi_driver_name` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateDownwardAPIVolumeFile` | `core::downward::downward_api_file` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateLocalDescendingPath` | `core::paths::validate_local_descending_path` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validatePathNoBacksteps` | `core::paths::validate_path_no_backsteps` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `ValidateLocalNonReservedPath` | `core::paths::validate_local_non_reserved_path` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `ValidateVolumeMounts` | `core::volume::validate_volume_mounts` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateMountPropagation` | `core::volume::validate_mount_propagation` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateMountRecursiveReadOnly` | `core::volume::validate_mount_recursive_read_only` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `ValidateVolumeDevices` | `core::volume::validate_volume_devices` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `GetVolumeMountMap` | `core::volume::name_to_path` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `validateQualifiedName` | `core::container::validate_app_protocol` | conformance `validation_pods::volumes_mounts_and_probes_*` |
//! | `rest.BeforeCreate`'s metadata check | `meta::validate_generic_create` | conformance `validation_core::annotations_*` |
//! | `rest.BeforeUpdate`'s `validateCommonFields` | `meta::validate_common_update` | conformance `validation_core::updates_keep_the_uid_*` |
//!
//! ## The other API groups
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
//! ## Warnings
//!
//! | kube function | here | covered by |
//! |---|---|---|
//! | every strategy's `WarningsOnCreate` and `WarningsOnUpdate` (pods and pod templates, the workloads, Services, claims, volumes, storage and node kinds, Secrets, custom resources), the pod strategy's `applyAppArmorVersionSkew` | [`warnings`], [`apparmor_version_skew`] (the module `warnings` has the table of each) | `warnings::tests`; conformance `warnings` |
//!
//! Conformance tests (`envtest/tests/conformance/validation_*.rs`) send the same
//! writes to the embedded server and to real 1.32 and 1.19 servers.
//!
//! # What is not ported, and why
//!
//! | kube function | why |
//! |---|---|
//! | `ValidateMutatingAdmissionPolicy`, `...Binding` | alpha in 1.32 (off by default there) |
//! | `resource.k8s.io` (DRA), `storagemigration.k8s.io` | beta/alpha in 1.32, not served by default; not ported yet |
//! | flowcontrol's mandatory `exempt`/`catch-all` fixed specs | the server creates those objects; their bootstrap values are not modelled |
//! | metav1 `ValidateFieldSelectorRequirement`, `ValidateLabelSelectorRequirement` in access reviews | only the raw-or-requirements rule is ported |
//! | the Go dump (`%#v`) of a whole pod template or spec in `field is immutable` messages | printed close to Go's, not equal (`common::go_syntax::approximate`) |
//! | a `VolumeAttachment`'s inline persistent volume spec | core's `ValidatePersistentVolumeSpec` |
//!
//! - Fields whose feature gate is off in 1.32 (`hostUsers`, `supplementalGroupsPolicy`,
//!   `seLinuxChangePolicy`, `procMount`, pod-level `resources`, image volumes, cluster
//!   trust bundle projections, DRA resource claims in statuses, container users and
//!   resource health): kube's strategy drops them before validation, so their rules
//!   never run; here they are not checked either (the server drops them as kube's
//!   strategies do, before validation).
//! - `ValidatePodLogOptions`, `ValidateNodeSelectorRequirement` for scheduler
//!   configuration, `ValidatePersistentVolumeSpec` for inline (CSI migration)
//!   volumes, `ValidateAvoidPodsInNodeAnnotations`, `ValidateTopologySelectorTerm` and
//!   `ValidateSignerName`: not reached by any core/v1 write (options, other groups'
//!   types, or retired annotations).
//! - The `resourceVersion` checks of `ValidateObjectMetaUpdate` and the status
//!   updates: kube-apiserver's store sets the version before validation, so they never
//!   fire; the server checks versions itself.
//! - A health check node port a `LoadBalancer` Service still needs is not required:
//!   kube allocates it before validation, the server allocates it after.
//! - `cmp.Diff`'s report differs where the server lost what Go keeps: an empty list
//!   sent in a request is left out by the server's decoding before validation, where
//!   Go keeps it as an empty (not nil) slice; and where go-cmp's per-process draw
//!   searches its edit script from the end instead of the start (lists whose items
//!   could align either way).

pub mod field;

mod common;
mod gocmp;
mod godump;
mod json;
mod meta;
mod quantity;
#[cfg(test)]
mod testing;
mod util;

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
mod warnings;

use serde_json::Value;

pub use crate::autoscaling::conversion as autoscaling_conversion;
pub use crate::autoscaling::validate_scale;
pub use crate::field::{ErrorList, FieldError, Path};
pub use crate::warnings::{apparmor_version_skew, custom_resource_warnings, warnings};

/// What `resource.ParseQuantity` says of `text` when it does not parse (its format or
/// its suffix), as a body's quantity is refused when it decodes; None when it parses.
pub fn quantity_error(text: &str) -> Option<&'static str> {
    match crate::quantity::Quantity::parse(text) {
        Err(error) if error == crate::quantity::FORMAT_ERROR || error == crate::quantity::SUFFIX_ERROR => Some(error),
        // Past what this port holds exactly, Go's arbitrary precision still parses it.
        _ => None,
    }
}

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
///
/// The order is the generic registry's: on create the kind's own validation, then,
/// only if that passed, `rest.BeforeCreate`'s metadata check with path-segment names;
/// on an update (or a subresource write) `rest.BeforeUpdate`'s metadata checks first,
/// then the kind's.
pub fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => {
            let errors = validate_kind(kind, object, write);
            if !errors.is_empty() || is_review(kind) {
                return errors;
            }
            meta::validate_generic_create(object, kind.namespaced)
        }
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = meta::validate_common_update(object, old, kind.namespaced);
            errors.extend(validate_kind(kind, object, write));
            errors
        }
    }
}

/// Whether [`validate`] ports the kind's own validation, its metadata (name rule
/// included) with it; the server checks the names of the other kinds itself.
pub fn ports(kind: &Kind) -> bool {
    match kind.group {
        "" => core::ports(kind.kind),
        group => PORTED_GROUPS.contains(&group),
    }
}

/// The API groups beside core whose kinds [`validate`] validates.
const PORTED_GROUPS: &[&str] = &[
    "apps",
    "batch",
    "autoscaling",
    "networking.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "storage.k8s.io",
    "coordination.k8s.io",
    "scheduling.k8s.io",
    "certificates.k8s.io",
    "discovery.k8s.io",
    "admissionregistration.k8s.io",
    "events.k8s.io",
    "node.k8s.io",
    "flowcontrol.apiserver.k8s.io",
    "authorization.k8s.io",
    "internal.apiserver.k8s.io",
    "apiregistration.k8s.io",
];

/// The metadata checks of a custom resource's strategy (apiextensions'
/// `customResourceValidator`): `ValidateObjectMetaAccessor` with DNS-subdomain names on
/// create; on an update or a subresource write `rest.BeforeUpdate`'s common checks
/// (`validateCommonFields`) and then `ValidateObjectMetaAccessorUpdate` against `old`.
/// The schema's checks follow them in the same list of causes.
pub fn validate_custom_resource_metadata(object: &Value, namespaced: bool, old: Option<&Value>) -> ErrorList {
    let path = Path::new("metadata");
    match old {
        None => meta::validate_object_meta(&object["metadata"], namespaced, meta::name_is_dns_subdomain, &path),
        // `rest.BeforeUpdate`'s common checks, then the validator's own.
        Some(old) => {
            let mut errors = meta::validate_common_update(object, old, namespaced);
            errors.extend(meta::validate_object_meta_update(
                &object["metadata"],
                &old["metadata"],
                &path,
            ));
            errors
        }
    }
}

/// Whether `kind` is a review (`TokenReview`, the access reviews): asked, answered and
/// never stored, its REST handler validates the body itself and skips
/// `rest.BeforeCreate`, so it needs no name.
fn is_review(kind: &Kind) -> bool {
    matches!(kind.group, "authentication.k8s.io" | "authorization.k8s.io")
}

/// The kind's own validation (its strategy's `Validate`, `ValidateUpdate` or a
/// subresource strategy's).
fn validate_kind(kind: &Kind, object: &Value, write: Write) -> ErrorList {
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
