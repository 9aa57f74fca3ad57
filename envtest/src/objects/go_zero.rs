//! What Go's JSON encoder writes of a built-in object's zero values, which the API
//! types' Go structs decide and their API documents do not say: a struct held by
//! value is written even when empty (`"status": {}`), its fields that are not
//! `omitempty` are written at zero (`"replicas": 0`), and an embedded `ObjectMeta`'s
//! `creationTimestamp` is a `metav1.Time` held by value, written as `null`. A client
//! comparing what it wrote with what it reads (a reconcile's "changed?" check, a test's
//! expected object) sees these on a real cluster, so the stored object carries them.
//!
//! The table holds the types' shapes as kube-apiserver 1.32 writes them, found by the
//! differential fuzzer and checked against the Go structs of `k8s.io/api`.

use serde_json::{Map, Value, json};

use crate::core::ResourceType;

/// Writes `object` as Go's encoder would: fields Go leaves out at their zero value
/// (`omitempty` on a field held by value: `"minReadySeconds": 0`, `"unschedulable":
/// false`, `"hostname": ""`) are dropped, and what it writes of zero values it holds
/// is added (nothing already there is changed). Custom resources are written as stored.
pub(crate) fn fill(resource: &ResourceType, object: &mut Value) {
    if resource.custom || !object.is_object() {
        return;
    }
    crate::resources::go_encoding::omit_zero_fields(resource, object);
    let (group, kind) = (resource.group.as_str(), resource.kind.as_str());
    // Pod templates: `PodTemplateSpec.ObjectMeta` is held by value.
    match (group, kind) {
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet") | ("batch", "Job") => {
            template_metadata(&mut object["spec"], "template");
        }
        // A ReplicationController's template is a pointer: only one that is there.
        ("", "ReplicationController") if object["spec"]["template"].is_object() => {
            template_metadata(&mut object["spec"], "template");
        }
        ("", "PodTemplate") => template_metadata(object, "template"),
        ("batch", "CronJob") => {
            template_metadata(&mut object["spec"], "jobTemplate");
            let job = &mut object["spec"]["jobTemplate"];
            if !job["spec"].is_object() {
                job["spec"] = json!({});
            }
            template_metadata(&mut job["spec"], "template");
        }
        // `EventTime` and the timestamps are held by value; the reporting fields are
        // not `omitempty`.
        ("", "Event") => {
            if let Some(event) = object.as_object_mut() {
                for (field, zero) in [
                    ("eventTime", Value::Null),
                    ("firstTimestamp", Value::Null),
                    ("lastTimestamp", Value::Null),
                    ("reportingComponent", json!("")),
                    ("reportingInstance", json!("")),
                ] {
                    event.entry(field).or_insert(zero);
                }
            }
        }
        _ => {}
    }
    if (group, kind) == ("apps", "StatefulSet")
        && let Some(claims) = object["spec"]["volumeClaimTemplates"].as_array_mut()
    {
        for claim in claims.iter_mut().filter(|claim| claim.is_object()) {
            embedded_metadata(claim);
        }
    }
    if let Some(zero) = zero_status(group, kind) {
        let status = &mut object["status"];
        if !status.is_object() {
            *status = json!({});
        }
        if let (Some(status), Value::Object(zero)) = (status.as_object_mut(), zero) {
            for (field, value) in zero {
                status.entry(field).or_insert(value);
            }
        }
    }
}

/// The `field` of `parent` is a template held by value: there even when absent, with
/// its metadata's `creationTimestamp`.
fn template_metadata(parent: &mut Value, field: &str) {
    if !parent.is_object() {
        return;
    }
    let template = &mut parent[field];
    if !template.is_object() {
        *template = json!({});
    }
    embedded_metadata(template);
}

/// An embedded `ObjectMeta`: there even when absent, its `creationTimestamp` `null`
/// until set.
fn embedded_metadata(holder: &mut Value) {
    let metadata = &mut holder["metadata"];
    if !metadata.is_object() {
        *metadata = Value::Object(Map::new());
    }
    if let Some(metadata) = metadata.as_object_mut() {
        metadata.entry("creationTimestamp").or_insert(Value::Null);
    }
}

/// A kind's status as Go writes it before anything set it: the status struct is held
/// by value, and these of its fields are not `omitempty`.
fn zero_status(group: &str, kind: &str) -> Option<Value> {
    Some(match (group, kind) {
        ("apps", "Deployment")
        | ("batch", "Job" | "CronJob")
        | ("certificates.k8s.io", "CertificateSigningRequest")
        | ("flowcontrol.apiserver.k8s.io", "FlowSchema" | "PriorityLevelConfiguration")
        | ("apiregistration.k8s.io", "APIService")
        | ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy")
        | ("", "ResourceQuota") => json!({}),
        ("apps", "ReplicaSet") | ("", "ReplicationController") => json!({"replicas": 0}),
        ("apps", "StatefulSet") => json!({"replicas": 0, "availableReplicas": 0}),
        ("apps", "DaemonSet") => json!({
            "currentNumberScheduled": 0, "numberMisscheduled": 0,
            "desiredNumberScheduled": 0, "numberReady": 0,
        }),
        ("policy", "PodDisruptionBudget") => json!({
            "disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0,
        }),
        ("networking.k8s.io", "Ingress") => json!({"loadBalancer": {}}),
        ("storage.k8s.io", "VolumeAttachment") => json!({"attached": false}),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::fill;

    fn builtin(group: &str, kind: &str) -> crate::core::ResourceType {
        crate::resources::catalogue::resource_types()
            .iter()
            .find(|t| t.group == group && t.kind == kind)
            .map(|t| (**t).clone())
            .expect("a built-in type")
    }

    #[test]
    fn zero_values_are_written_as_go_writes_them() {
        let mut cron_job = json!({"spec": {"schedule": "* * * * *"}});
        fill(&builtin("batch", "CronJob"), &mut cron_job);
        assert_eq!(
            cron_job,
            json!({"spec": {"schedule": "* * * * *", "jobTemplate": {"metadata": {"creationTimestamp": null},
                "spec": {"template": {"metadata": {"creationTimestamp": null}}}}}, "status": {}})
        );
        let mut replica_set = json!({"spec": {"template": {"metadata": {"labels": {"a": "b"}}}},
            "status": {"observedGeneration": 2, "replicas": 3}});
        fill(&builtin("apps", "ReplicaSet"), &mut replica_set);
        assert_eq!(
            replica_set,
            json!({"spec": {"template": {"metadata": {"labels": {"a": "b"}, "creationTimestamp": null}}},
                "status": {"observedGeneration": 2, "replicas": 3}})
        );
        let mut config_map = json!({"data": {"a": "b"}});
        fill(&builtin("", "ConfigMap"), &mut config_map);
        assert_eq!(config_map, json!({"data": {"a": "b"}}));
    }
}
