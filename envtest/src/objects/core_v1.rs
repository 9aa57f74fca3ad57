//! What core/v1's hand-written conversions (`pkg/apis/core/v1/conversion.go`) do to a
//! built-in object on its way into kube's internal types and back out, which every
//! write takes (the decoded body is converted to the internal version, and what is
//! stored and answered is converted back):
//!
//! | kube | here |
//! |---|---|
//! | `Convert_v1_PodSpec_To_core_PodSpec`, `Convert_core_PodSpec_To_v1_PodSpec` | `serviceAccount` is an alias of `serviceAccountName`: the name wins, and both are written |
//! | `Convert_v1_Pod_To_core_Pod`, `Convert_core_Pod_To_v1_Pod` | a pod's negative `terminationGracePeriodSeconds` becomes 1 (a template's is kept) |
//! | `dropInitContainerAnnotations` (pods and pod templates) | the alpha and beta init-container annotations are dropped |
//! | `Convert_v1_PodStatus_To_core_PodStatus`, `Convert_core_PodStatus_To_v1_PodStatus` | `podIP` is authoritative over a `podIPs` that disagrees or is missing; `podIP` is `podIPs[0]` |
//! | `Convert_v1_NodeSpec_To_core_NodeSpec`, `Convert_core_NodeSpec_To_v1_NodeSpec` | the same of a node's `podCIDR` and `podCIDRs` |
//!
//! The host namespace fields (`hostNetwork` and its siblings), which the conversion
//! moves into the internal security context and back, come out as they went in.

use serde_json::{Map, Value, json};

use crate::core::Builtin;

const INIT_CONTAINER_ANNOTATIONS: [&str; 4] = [
    "pod.beta.kubernetes.io/init-containers",
    "pod.alpha.kubernetes.io/init-containers",
    "pod.beta.kubernetes.io/init-container-statuses",
    "pod.alpha.kubernetes.io/init-container-statuses",
];

/// Converts `object` as its trip through the internal version would (see the module
/// docs); kinds without a core/v1 pod, pod template or node are left alone.
pub(crate) fn round_trip(builtin: &'static Builtin, object: &mut Value) {
    crate::resources::openapi::visit_typed(builtin, object, &mut |definition, _, fields| match definition {
        "io.k8s.api.core.v1.PodSpec" => pod_spec(fields),
        "io.k8s.api.core.v1.Pod" => {
            drop_init_container_annotations(fields);
            let spec = fields.get_mut("spec").and_then(Value::as_object_mut);
            if let Some(grace) = spec.and_then(|spec| spec.get_mut("terminationGracePeriodSeconds"))
                && grace.as_i64().is_some_and(|seconds| seconds < 0)
            {
                *grace = json!(1);
            }
        }
        "io.k8s.api.core.v1.PodTemplateSpec" => drop_init_container_annotations(fields),
        "io.k8s.api.core.v1.PodStatus" => {
            singular_authoritative(fields, "podIP", "podIPs", |ip| json!({"ip": ip}), |item| &item["ip"]);
        }
        "io.k8s.api.core.v1.NodeSpec" => {
            singular_authoritative(fields, "podCIDR", "podCIDRs", |cidr| json!(cidr), |item| item);
        }
        _ => {}
    });
}

/// The service account's two names: `serviceAccountName`, else the deprecated
/// `serviceAccount`, written to both.
fn pod_spec(spec: &mut Map<String, Value>) {
    let text = |field: &str| spec.get(field).and_then(Value::as_str).unwrap_or_default().to_owned();
    let name = Some(text("serviceAccountName"))
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| text("serviceAccount"));
    if name.is_empty() {
        spec.remove("serviceAccount");
        return;
    }
    spec.insert("serviceAccountName".to_owned(), json!(name));
    spec.insert("serviceAccount".to_owned(), json!(name));
}

fn drop_init_container_annotations(fields: &mut Map<String, Value>) {
    let annotations = fields
        .get_mut("metadata")
        .and_then(|metadata| metadata.get_mut("annotations"))
        .and_then(Value::as_object_mut);
    if let Some(annotations) = annotations {
        for key in INIT_CONTAINER_ANNOTATIONS {
            annotations.remove(key);
        }
    }
}

/// A singular field and its plural, as the conversions keep them: a singular that
/// disagrees with the plural's first item, or has no plural, replaces the plural;
/// the singular is written as the plural's first item.
fn singular_authoritative(
    fields: &mut Map<String, Value>,
    singular: &str,
    plural: &str,
    item_of: impl Fn(&str) -> Value,
    value_of: impl Fn(&Value) -> &Value,
) {
    let one = fields
        .get(singular)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let first = fields
        .get(plural)
        .and_then(Value::as_array)
        .and_then(|items| items.first())
        .map(|item| value_of(item).as_str().unwrap_or_default().to_owned());
    if !one.is_empty() && first.as_deref() != Some(one.as_str()) {
        fields.insert(plural.to_owned(), json!([item_of(&one)]));
    }
    let first = fields
        .get(plural)
        .and_then(Value::as_array)
        .and_then(|items| items.first())
        .map(|item| value_of(item).clone());
    if let Some(first) = first {
        fields.insert(singular.to_owned(), first);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn converted(group: &str, kind: &str, mut object: Value) -> Value {
        let builtin = crate::resources::catalogue::builtins()
            .iter()
            .find(|b| b.group == group && b.kind == kind)
            .expect("a built-in kind");
        round_trip(builtin, &mut object);
        object
    }

    #[test]
    fn pods_and_nodes_come_back_as_the_internal_types_write_them() {
        let pod = converted(
            "",
            "Pod",
            json!({"metadata": {"annotations": {"pod.beta.kubernetes.io/init-containers": "[]", "kept": "x"}},
                   "spec": {"serviceAccount": "old", "terminationGracePeriodSeconds": -5, "containers": []},
                   "status": {"podIP": "10.0.0.2", "podIPs": [{"ip": "10.0.0.9"}]}}),
        );
        assert_eq!(pod["metadata"]["annotations"], json!({"kept": "x"}));
        assert_eq!(pod["spec"]["serviceAccountName"], "old");
        assert_eq!(pod["spec"]["serviceAccount"], "old");
        assert_eq!(pod["spec"]["terminationGracePeriodSeconds"], 1);
        assert_eq!(pod["status"]["podIPs"], json!([{"ip": "10.0.0.2"}]));
        let node = converted("", "Node", json!({"spec": {"podCIDRs": ["10.244.0.0/24"]}}));
        assert_eq!(node["spec"]["podCIDR"], "10.244.0.0/24");
        // A template keeps its negative grace period; its service account names are one.
        let deployment = converted(
            "apps",
            "Deployment",
            json!({"spec": {"template": {"spec": {"serviceAccountName": "new", "serviceAccount": "old",
                                                  "terminationGracePeriodSeconds": -5}}}}),
        );
        let spec = &deployment["spec"]["template"]["spec"];
        assert_eq!(
            (&spec["serviceAccount"], &spec["terminationGracePeriodSeconds"]),
            (&json!("new"), &json!(-5))
        );
    }
}
