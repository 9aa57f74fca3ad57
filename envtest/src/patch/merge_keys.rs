//! Which lists of built-in types a strategic merge patch merges item by item, and by
//! which key, transcribed from the `patchStrategy`/`patchMergeKey` tags of k8s.io/api
//! (the `x-kubernetes-patch-*` extensions of `extensions.json` list them all; server-side
//! apply reads its `x-kubernetes-list-*` keys from the schemas themselves). The apply
//! keys kept beside a patch key (`keys`) are the `listMapKey`s of the same list.

/// How a list field merges, as its Go struct tags declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListStrategy {
    /// Replaced as a whole: no patch strategy, or a list of a custom resource.
    Atomic,
    /// A list of scalars merged as a set (`patchStrategy: merge` without a key).
    Set,
    /// A list of objects merged item by item.
    Map {
        /// The strategic merge key (`patchMergeKey`).
        patch_key: &'static str,
        /// The server-side apply keys (`listMapKey`), sorted by name as managed fields
        /// print them; can be more than the patch key (ports are keyed by port and protocol).
        keys: &'static [MapKey],
    },
}

/// One key field of an associative list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MapKey {
    pub name: &'static str,
    /// The value the API server defaults a missing key to, so that an item without it
    /// still has an identity (`protocol` is `TCP`).
    pub default: Option<&'static str>,
}

const fn key(name: &'static str) -> MapKey {
    MapKey { name, default: None }
}

const fn by(name: &'static str, keys: &'static [MapKey]) -> ListStrategy {
    ListStrategy::Map { patch_key: name, keys }
}

const BY_NAME: ListStrategy = by("name", &[key("name")]);
const BY_TYPE: ListStrategy = by("type", &[key("type")]);
const BY_IP: ListStrategy = by("ip", &[key("ip")]);
const BY_UID: ListStrategy = by("uid", &[key("uid")]);
const BY_MOUNT_PATH: ListStrategy = by("mountPath", &[key("mountPath")]);
const BY_DEVICE_PATH: ListStrategy = by("devicePath", &[key("devicePath")]);
const TCP: Option<&str> = Some("TCP");
const CONTAINER_PORTS: ListStrategy = by(
    "containerPort",
    &[
        MapKey {
            name: "containerPort",
            default: None,
        },
        MapKey {
            name: "protocol",
            default: TCP,
        },
    ],
);
const SERVICE_PORTS: ListStrategy = by(
    "port",
    &[
        MapKey {
            name: "port",
            default: None,
        },
        MapKey {
            name: "protocol",
            default: TCP,
        },
    ],
);
const TOPOLOGY_SPREAD: ListStrategy = by("topologyKey", &[key("topologyKey"), key("whenUnsatisfiable")]);

/// The merge strategy of the list at `path` (field names from the object root, list
/// items left out) in an object of `kind` in API group `group`.
pub(crate) fn list_merge_key(group: &str, kind: &str, path: &[&str]) -> ListStrategy {
    if let Some(field) = object_meta_field(group, kind, path) {
        return match field {
            ["finalizers"] => ListStrategy::Set,
            ["ownerReferences"] => BY_UID,
            _ => ListStrategy::Atomic,
        };
    }
    if let Some(prefix) = pod_spec_prefix(group, kind)
        && let Some(field) = path.strip_prefix(prefix)
    {
        return pod_spec_list(field);
    }
    kind_list(group, kind, path)
}

fn pod_spec_prefix(group: &str, kind: &str) -> Option<&'static [&'static str]> {
    match (group, kind) {
        ("", "Pod") => Some(&["spec"]),
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet")
        | ("batch", "Job")
        | ("", "ReplicationController") => Some(&["spec", "template", "spec"]),
        ("batch", "CronJob") => Some(&["spec", "jobTemplate", "spec", "template", "spec"]),
        ("", "PodTemplate") => Some(&["template", "spec"]),
        _ => None,
    }
}

/// The path within an `ObjectMeta` when `path` lies in one: the object's own metadata
/// (custom resources included) or a template's.
fn object_meta_field<'p>(group: &str, kind: &str, path: &'p [&'p str]) -> Option<&'p [&'p str]> {
    if let Some(field) = path.strip_prefix(&["metadata"]) {
        return Some(field);
    }
    if (group, kind) == ("batch", "CronJob")
        && let Some(field) = path.strip_prefix(&["spec", "jobTemplate", "metadata"])
    {
        return Some(field);
    }
    let template = crate::core::pod_template_path(group, kind)?;
    path.strip_prefix(template)?.strip_prefix(&["metadata"])
}

/// Lists of `PodSpec` and of its containers.
fn pod_spec_list(field: &[&str]) -> ListStrategy {
    match field {
        [
            "containers"
            | "initContainers"
            | "ephemeralContainers"
            | "volumes"
            | "imagePullSecrets"
            | "schedulingGates"
            | "resourceClaims",
        ]
        | ["containers" | "initContainers" | "ephemeralContainers", "env"] => BY_NAME,
        ["hostAliases"] => BY_IP,
        ["topologySpreadConstraints"] => TOPOLOGY_SPREAD,
        ["containers" | "initContainers" | "ephemeralContainers", "ports"] => CONTAINER_PORTS,
        ["containers" | "initContainers" | "ephemeralContainers", "volumeMounts"] => BY_MOUNT_PATH,
        ["containers" | "initContainers" | "ephemeralContainers", "volumeDevices"] => BY_DEVICE_PATH,
        // tolerations, readinessGates, envFrom, command, args, ... carry no patch strategy.
        _ => ListStrategy::Atomic,
    }
}

/// Lists outside pod specs and metadata, by kind.
fn kind_list(group: &str, kind: &str, path: &[&str]) -> ListStrategy {
    match (group, kind, path) {
        ("", "Service", ["spec", "ports"]) => SERVICE_PORTS,
        ("", "Node", ["spec", "podCIDRs"]) => ListStrategy::Set,
        ("", "ServiceAccount", ["secrets"])
        | ("storage.k8s.io", "CSINode", ["spec", "drivers"])
        | (
            "admissionregistration.k8s.io",
            "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration",
            ["webhooks"] | ["webhooks", "matchConditions"],
        )
        | (
            "admissionregistration.k8s.io",
            "ValidatingAdmissionPolicy" | "MutatingAdmissionPolicy",
            ["spec", "matchConditions" | "variables"],
        )
        | (
            "",
            "Pod",
            ["status", "resourceClaimStatuses"]
            | [
                "status",
                "containerStatuses" | "initContainerStatuses" | "ephemeralContainerStatuses",
                "allocatedResourcesStatus",
            ],
        ) => BY_NAME,
        (
            "",
            "Pod",
            [
                "status",
                "containerStatuses" | "initContainerStatuses" | "ephemeralContainerStatuses",
                "volumeMounts",
            ],
        ) => BY_MOUNT_PATH,
        // hostIPs merge by ip in a strategic merge patch but are atomic to apply.
        ("", "Pod", ["status", "podIPs"]) => BY_IP,
        ("", "ComponentStatus", ["conditions"])
        | ("autoscaling", "HorizontalPodAutoscaler", ["status", "conditions"])
        | ("policy", "PodDisruptionBudget", ["status", "conditions"])
        | ("flowcontrol.apiserver.k8s.io", "FlowSchema" | "PriorityLevelConfiguration", ["status", "conditions"])
        | ("networking.k8s.io", "ServiceCIDR", ["status", "conditions"])
        | ("apiregistration.k8s.io", "APIService", ["status", "conditions"])
        | ("storagemigration.k8s.io", "StorageVersionMigration", ["status", "conditions"])
        | (
            "",
            "Pod" | "Node" | "Namespace" | "Service" | "PersistentVolumeClaim" | "ReplicationController",
            ["status", "conditions"],
        )
        | ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet", ["status", "conditions"])
        | ("batch", "Job", ["status", "conditions"])
        | ("", "Node", ["status", "addresses"]) => BY_TYPE,
        _ => ListStrategy::Atomic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patch_key(strategy: ListStrategy) -> Option<&'static str> {
        match strategy {
            ListStrategy::Map { patch_key, .. } => Some(patch_key),
            _ => None,
        }
    }

    #[test]
    fn containers_are_keyed_by_name_wherever_the_pod_spec_sits() {
        let places: [(&str, &str, &[&str]); 6] = [
            ("", "Pod", &["spec", "containers"]),
            ("apps", "Deployment", &["spec", "template", "spec", "containers"]),
            ("apps", "StatefulSet", &["spec", "template", "spec", "initContainers"]),
            (
                "apps",
                "DaemonSet",
                &["spec", "template", "spec", "ephemeralContainers"],
            ),
            ("batch", "Job", &["spec", "template", "spec", "containers"]),
            (
                "batch",
                "CronJob",
                &["spec", "jobTemplate", "spec", "template", "spec", "containers"],
            ),
        ];
        for (group, kind, path) in places {
            assert_eq!(
                patch_key(list_merge_key(group, kind, path)),
                Some("name"),
                "{kind} {path:?}"
            );
        }
    }

    #[test]
    fn container_lists_use_their_declared_keys() {
        let container = ["spec", "template", "spec", "containers"];
        let at = |field: &'static str| {
            let mut path = container.to_vec();
            path.push(field);
            list_merge_key("apps", "ReplicaSet", &path)
        };
        assert_eq!(patch_key(at("ports")), Some("containerPort"));
        assert_eq!(patch_key(at("env")), Some("name"));
        assert_eq!(patch_key(at("volumeMounts")), Some("mountPath"));
        assert_eq!(at("args"), ListStrategy::Atomic);
        assert_eq!(at("envFrom"), ListStrategy::Atomic);
    }

    #[test]
    fn ports_are_applied_by_port_and_protocol_defaulting_to_tcp() {
        let ListStrategy::Map { keys, .. } = list_merge_key("", "Service", &["spec", "ports"]) else {
            panic!("service ports are a map list");
        };
        assert_eq!(keys.iter().map(|k| k.name).collect::<Vec<_>>(), ["port", "protocol"]);
        assert_eq!(keys[1].default, Some("TCP"));
    }

    #[test]
    fn pod_spec_lists_follow_the_real_tags() {
        let pod = |field| list_merge_key("", "Pod", &["spec", field]);
        assert_eq!(patch_key(pod("volumes")), Some("name"));
        assert_eq!(patch_key(pod("imagePullSecrets")), Some("name"));
        assert_eq!(patch_key(pod("hostAliases")), Some("ip"));
        assert_eq!(pod("tolerations"), ListStrategy::Atomic);
    }

    #[test]
    fn metadata_lists_are_keyed_for_every_kind_and_in_templates() {
        assert_eq!(
            list_merge_key("example.com", "Widget", &["metadata", "finalizers"]),
            ListStrategy::Set
        );
        assert_eq!(
            patch_key(list_merge_key("", "Pod", &["metadata", "ownerReferences"])),
            Some("uid")
        );
        assert_eq!(
            list_merge_key("apps", "Deployment", &["spec", "template", "metadata", "finalizers"]),
            ListStrategy::Set
        );
    }

    #[test]
    fn conditions_are_keyed_by_type_in_built_in_statuses_only() {
        for (group, kind) in [("", "Pod"), ("", "Node"), ("", "Namespace"), ("apps", "Deployment")] {
            assert_eq!(
                patch_key(list_merge_key(group, kind, &["status", "conditions"])),
                Some("type")
            );
        }
        assert_eq!(
            list_merge_key("example.com", "Widget", &["status", "conditions"]),
            ListStrategy::Atomic
        );
        assert_eq!(
            list_merge_key("example.com", "Widget", &["spec", "containers"]),
            ListStrategy::Atomic
        );
    }
}
