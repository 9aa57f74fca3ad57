//! What a built-in object holds as a Go value, which kube-apiserver compares where the
//! embedded server has JSON: value structs (`spec`, `template`, `resources`) are
//! present wherever the struct holding them is, even in `New()` of the type, while
//! maps and `omitempty` slices are omitted when empty and pointers are there only when
//! set. Transcribed by field name from k8s.io/api; a name not listed is taken for a
//! value struct, or for a list Go omits when empty.

/// Fields of built-in types that are Go maps.
const MAPS: [&str; 16] = [
    "labels",
    "annotations",
    "data",
    "binaryData",
    "stringData",
    "selector",
    "nodeSelector",
    "matchLabels",
    "limits",
    "requests",
    "capacity",
    "allocatable",
    "hard",
    "used",
    "parameters",
    "overhead",
];

/// Fields of built-in types that are optional structs behind a pointer.
const POINTER_STRUCTS: [&str; 45] = [
    // Workloads and pods.
    "rollingUpdate",
    "securityContext",
    "affinity",
    "nodeAffinity",
    "podAffinity",
    "podAntiAffinity",
    "dnsConfig",
    "podFailurePolicy",
    "persistentVolumeClaimRetentionPolicy",
    "ordinals",
    // Containers.
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
    "postStart",
    "preStop",
    "httpGet",
    "exec",
    "tcpSocket",
    "grpc",
    "capabilities",
    "seLinuxOptions",
    "seccompProfile",
    "appArmorProfile",
    "windowsOptions",
    // Environment.
    "valueFrom",
    "configMapKeyRef",
    "secretKeyRef",
    "fieldRef",
    "resourceFieldRef",
    "configMapRef",
    "secretRef",
    // Volumes.
    "configMap",
    "secret",
    "emptyDir",
    "hostPath",
    "persistentVolumeClaim",
    "projected",
    "downwardAPI",
    "ephemeral",
    "csi",
    // Services and ingresses.
    "sessionAffinityConfig",
    "clientIP",
    "defaultBackend",
    "http",
];

/// List fields of built-in types without `omitempty`, present (as null) in the zero value.
const LISTS_ALWAYS_PRESENT: [&str; 2] = ["containers", "rules"];

/// What a map-valued field of a built-in type is in Go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GoMap {
    /// A Go map: omitted when empty.
    Map,
    /// An optional struct behind a pointer: present when set, even empty.
    Pointer,
    /// A value struct: present wherever the struct holding it is.
    Struct,
}

/// What the map-valued field `name` of a built-in object is in Go.
pub(crate) fn go_map(name: &str) -> GoMap {
    if MAPS.contains(&name) {
        GoMap::Map
    } else if POINTER_STRUCTS.contains(&name) {
        GoMap::Pointer
    } else {
        GoMap::Struct
    }
}

/// Whether the list field `name` of a built-in type is present (as null) wherever the
/// struct holding it is, rather than omitted when empty.
pub(crate) fn list_always_present(name: &str) -> bool {
    LISTS_ALWAYS_PRESENT.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_maps_pointers_or_value_structs() {
        assert_eq!(go_map("labels"), GoMap::Map);
        assert_eq!(go_map("rollingUpdate"), GoMap::Pointer);
        assert_eq!(go_map("emptyDir"), GoMap::Pointer);
        assert_eq!(go_map("template"), GoMap::Struct);
        assert_eq!(go_map("resources"), GoMap::Struct);
        assert!(list_always_present("containers"));
        assert!(!list_always_present("ports"));
    }
}
