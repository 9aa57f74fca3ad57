//! What Go's zero value of a built-in type already holds, which an update's comparison
//! does not find added: kube-apiserver compares a created object with `New()` of its
//! type, where value structs are present (`spec`, `template`, `resources`) and maps,
//! pointers and `omitempty` slices are not. Transcribed by field name from k8s.io/api;
//! a name not listed is taken for a value struct, or for a list Go omits when empty.

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

/// Whether the field `name` of a built-in object, a list if `list`, is missing from its
/// type's zero value, so that an update adding it owns the node itself. Go omits an
/// empty map or list, but not an empty struct behind a pointer (`emptyDir: {}`).
pub(crate) fn absent_from_zero_value(name: &str, list: bool, empty: bool) -> bool {
    if list {
        !empty && !LISTS_ALWAYS_PRESENT.contains(&name)
    } else {
        (!empty && MAPS.contains(&name)) || POINTER_STRUCTS.contains(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_pointers_and_omitted_lists_are_absent_and_value_structs_present() {
        assert!(absent_from_zero_value("labels", false, false));
        assert!(!absent_from_zero_value("labels", false, true), "Go omits an empty map");
        assert!(absent_from_zero_value("rollingUpdate", false, false));
        assert!(
            absent_from_zero_value("emptyDir", false, true),
            "an empty struct is there"
        );
        assert!(absent_from_zero_value("ports", true, false));
        assert!(!absent_from_zero_value("containers", true, false));
        assert!(!absent_from_zero_value("template", false, false));
        assert!(!absent_from_zero_value("resources", false, false));
    }
}
