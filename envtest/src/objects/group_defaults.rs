//! The defaults of the smaller API groups, each ported whole from its
//! `pkg/apis/<group>/<version>/defaults.go` (and the generated `zz_generated.defaults.go`
//! that says which nested structs they reach). They run as the body is decoded, before
//! the field manager records the write, so the writer owns what they fill in.
//!
//! | kube function | here |
//! |---|---|
//! | autoscaling/v2 `SetDefaults_HorizontalPodAutoscaler`, `..Behavior`, `GenerateHPAScaleUpRules`, `GenerateHPAScaleDownRules` | [`autoscaler`] |
//! | storage/v1 `SetDefaults_StorageClass`, `SetDefaults_CSIDriver` (`SELinuxMountReadWriteOncePod` is on in 1.32) | [`storage_class`], [`csi_driver`] |
//! | networking/v1 `SetDefaults_NetworkPolicy`, `SetDefaults_NetworkPolicyPort` | [`network_policy`] |
//! | flowcontrol/v1 `SetDefaults_FlowSchemaSpec`, `..ExemptPriorityLevelConfiguration`, `..LimitedPriorityLevelConfiguration`, `..QueuingConfiguration` | [`flow_schema`], [`priority_level`] |
//! | scheduling/v1 `SetDefaults_PriorityClass` | [`apply`] |
//! | discovery/v1 `SetDefaults_EndpointPort` | [`endpoint_slice`] |
//! | rbac/v1 `SetDefaults_RoleBinding`, `SetDefaults_ClusterRoleBinding`, `SetDefaults_Subject` | [`role_binding`] |

use serde_json::{Value, json};

use super::core_defaults::set;
use crate::core::ResourceType;

/// Fills in the defaults of `object` if its group is one of this module's.
pub(super) fn apply(resource: &ResourceType, object: &mut Value) {
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("autoscaling", "HorizontalPodAutoscaler") if object["apiVersion"] == "autoscaling/v2" => {
            autoscaler(object);
        }
        // autoscaling/v1's `SetDefaults_HorizontalPodAutoscaler` (one replica at least),
        // and the 80% CPU target its conversion gives a spec without one: both there
        // as the body decodes, so the writer owns them.
        ("autoscaling", "HorizontalPodAutoscaler") if object["apiVersion"] == "autoscaling/v1" => {
            if let Some(spec) = object.get_mut("spec").filter(|spec| spec.is_object()) {
                set(spec, "minReplicas", json!(1));
                set(spec, "targetCPUUtilizationPercentage", json!(80));
            }
        }
        ("storage.k8s.io", "StorageClass") => storage_class(object),
        ("storage.k8s.io", "CSIDriver") => csi_driver(object),
        ("networking.k8s.io", "NetworkPolicy") => network_policy(object),
        ("flowcontrol.apiserver.k8s.io", "FlowSchema") => flow_schema(object),
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration") => priority_level(object),
        ("scheduling.k8s.io", "PriorityClass") => set(object, "preemptionPolicy", json!("PreemptLowerPriority")),
        ("discovery.k8s.io", "EndpointSlice") => endpoint_slice(object),
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => role_binding(object),
        _ => {}
    }
}

/// The items of the list `field` of `object`, none when it is absent or not a list
/// (never adding the field, as indexing a JSON map mutably would).
fn array_mut<'a>(object: &'a mut Value, field: &str) -> impl Iterator<Item = &'a mut Value> {
    object
        .get_mut(field)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// Sets `field` when it is unset or Go's zero for its type (`== 0`, `== ""`, an empty
/// slice), as the defaulting functions that test `len(x) == 0` or `x == 0` do.
fn set_if_zero(object: &mut Value, field: &str, value: Value) {
    let zero = match object.get(field) {
        None | Some(Value::Null) => true,
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        Some(Value::String(s)) => s.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    };
    if zero && object.is_object() {
        object[field] = value;
    }
}

/// autoscaling/v2: one replica at least, a CPU target of 80% when no metric is given,
/// and a behavior given in part completed from the default scaling rules.
fn autoscaler(object: &mut Value) {
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    set(spec, "minReplicas", json!(1));
    set_if_zero(
        spec,
        "metrics",
        json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]),
    );
    let Some(behavior) = spec.get_mut("behavior").filter(|b| b.is_object()) else {
        return;
    };
    let scale_up = json!({
        "stabilizationWindowSeconds": 0,
        "selectPolicy": "Max",
        "policies": [
            {"type": "Pods", "value": 4, "periodSeconds": 15},
            {"type": "Percent", "value": 100, "periodSeconds": 15},
        ],
    });
    let scale_down = json!({
        "selectPolicy": "Max",
        "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}],
    });
    behavior["scaleUp"] = scaling_rules(&behavior["scaleUp"], scale_up);
    behavior["scaleDown"] = scaling_rules(&behavior["scaleDown"], scale_down);
}

/// `copyHPAScalingRules`: the defaults, with each field `given` sets (non-nil) in
/// their place.
fn scaling_rules(given: &Value, mut defaults: Value) -> Value {
    for field in ["selectPolicy", "stabilizationWindowSeconds", "policies"] {
        if let Some(value) = given.get(field).filter(|v| !v.is_null()) {
            defaults[field] = value.clone();
        }
    }
    defaults
}

fn storage_class(object: &mut Value) {
    set(object, "reclaimPolicy", json!("Delete"));
    set(object, "volumeBindingMode", json!("Immediate"));
}

fn csi_driver(object: &mut Value) {
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    set(spec, "attachRequired", json!(true));
    set(spec, "podInfoOnMount", json!(false));
    set(spec, "storageCapacity", json!(false));
    set(spec, "fsGroupPolicy", json!("ReadWriteOnceWithFSType"));
    set_if_zero(spec, "volumeLifecycleModes", json!(["Persistent"]));
    set(spec, "requiresRepublish", json!(false));
    set(spec, "seLinuxMount", json!(false));
}

/// `Ingress`, and `Egress` too when egress rules are given; each rule's ports TCP
/// unless they say.
fn network_policy(object: &mut Value) {
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    for direction in ["ingress", "egress"] {
        for rule in array_mut(spec, direction) {
            for port in array_mut(rule, "ports") {
                if port.is_object() {
                    set(port, "protocol", json!("TCP"));
                }
            }
        }
    }
    let egress = spec["egress"].as_array().is_some_and(|rules| !rules.is_empty());
    let types = if egress {
        json!(["Ingress", "Egress"])
    } else {
        json!(["Ingress"])
    };
    set_if_zero(spec, "policyTypes", types);
}

fn flow_schema(object: &mut Value) {
    if let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) {
        set_if_zero(spec, "matchingPrecedence", json!(1000));
    }
}

fn priority_level(object: &mut Value) {
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    if let Some(exempt) = spec.get_mut("exempt").filter(|e| e.is_object()) {
        set(exempt, "nominalConcurrencyShares", json!(0));
        set(exempt, "lendablePercent", json!(0));
    }
    let Some(limited) = spec.get_mut("limited").filter(|l| l.is_object()) else {
        return;
    };
    set(limited, "nominalConcurrencyShares", json!(30));
    set(limited, "lendablePercent", json!(0));
    let queuing = limited.get_mut("limitResponse").and_then(|r| r.get_mut("queuing"));
    if let Some(queuing) = queuing.filter(|q| q.is_object()) {
        set_if_zero(queuing, "handSize", json!(8));
        set_if_zero(queuing, "queues", json!(64));
        set_if_zero(queuing, "queueLengthLimit", json!(50));
    }
}

/// Each port named `""` and TCP unless it says.
fn endpoint_slice(object: &mut Value) {
    for port in array_mut(object, "ports") {
        if port.is_object() {
            set(port, "name", json!(""));
            set(port, "protocol", json!("TCP"));
        }
    }
}

/// The role reference's group is RBAC's unless given; a subject's group is RBAC's for
/// users and groups, none for service accounts.
fn role_binding(object: &mut Value) {
    if let Some(role) = object.get_mut("roleRef").filter(|r| r.is_object()) {
        set_if_zero(role, "apiGroup", json!("rbac.authorization.k8s.io"));
    }
    for subject in array_mut(object, "subjects") {
        if !subject.is_object() {
            continue;
        }
        let group = match subject["kind"].as_str() {
            Some("User" | "Group") => "rbac.authorization.k8s.io",
            _ => continue,
        };
        set_if_zero(subject, "apiGroup", json!(group));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_behavior_given_in_part_is_completed_from_the_default_rules() {
        let mut hpa = json!({"apiVersion": "autoscaling/v2", "spec": {"maxReplicas": 3, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300}}}});
        autoscaler(&mut hpa);
        let spec = &hpa["spec"];
        assert_eq!(spec["minReplicas"], 1);
        assert_eq!(spec["metrics"][0]["resource"]["target"]["averageUtilization"], 80);
        assert_eq!(
            spec["behavior"]["scaleUp"]["policies"][0],
            json!({"type": "Pods", "value": 4, "periodSeconds": 15})
        );
        assert_eq!(spec["behavior"]["scaleDown"]["stabilizationWindowSeconds"], 300);
        assert_eq!(spec["behavior"]["scaleDown"]["selectPolicy"], "Max");
    }

    #[test]
    fn network_policies_default_their_types_from_their_rules() {
        let mut policy = json!({"spec": {"egress": [{"ports": [{"port": 53}]}]}});
        network_policy(&mut policy);
        assert_eq!(policy["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
        assert_eq!(policy["spec"]["egress"][0]["ports"][0]["protocol"], "TCP");
        let mut given = json!({"spec": {"policyTypes": ["Egress"]}});
        network_policy(&mut given);
        assert_eq!(given["spec"]["policyTypes"], json!(["Egress"]));
    }

    #[test]
    fn subjects_default_their_group_by_kind() {
        let mut binding = json!({"roleRef": {"kind": "Role", "name": "r"}, "subjects": [{"kind": "User", "name": "u"}, {"kind": "ServiceAccount", "name": "s"}]});
        role_binding(&mut binding);
        assert_eq!(binding["roleRef"]["apiGroup"], "rbac.authorization.k8s.io");
        assert_eq!(binding["subjects"][0]["apiGroup"], "rbac.authorization.k8s.io");
        assert!(binding["subjects"][1].get("apiGroup").is_none());
        // What the body leaves out stays out: no field is added as null.
        let mut bare = json!({"roleRef": {"kind": "Role", "name": "r"}});
        role_binding(&mut bare);
        assert!(bare.get("subjects").is_none(), "{bare}");
        let mut policy = json!({"spec": {"podSelector": {}}});
        network_policy(&mut policy);
        assert_eq!(policy["spec"], json!({"podSelector": {}, "policyTypes": ["Ingress"]}));
    }
}
