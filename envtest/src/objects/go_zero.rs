//! What Go's JSON encoder writes of a built-in object's zero values, which the API
//! types' Go structs decide and their API documents do not say: a struct held by
//! value is written even when empty (`"status": {}`), its fields that are not
//! `omitempty` are written at zero (`"replicas": 0`), and an embedded `ObjectMeta`'s
//! `creationTimestamp` is a `metav1.Time` held by value, written as `null`. A client
//! comparing what it wrote with what it reads (a reconcile's "changed?" check, a test's
//! expected object) sees these on a real cluster, so the stored object carries them.
//! The rule is Go's, from the facts generated from the types' source
//! ([`crate::resources::go_encoding`]).

use serde_json::Value;

use crate::core::ResourceType;

/// Writes `object` as Go's encoder would: fields Go leaves out at their zero value
/// are dropped, and what it writes of zero values it holds is added (nothing already
/// there is changed). Custom resources are written as stored.
pub(crate) fn fill(resource: &ResourceType, object: &mut Value) {
    if resource.custom || !object.is_object() {
        return;
    }
    // A view (events.k8s.io Events, autoscaling/v1) is stored as the type it views:
    // the object is written as the type it is.
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let stored_as = crate::resources::catalogue::resource_types()
        .iter()
        .find(|t| t.kind == resource.kind && t.api_version() == api_version && api_version != resource.api_version());
    let resource = stored_as.map_or(resource, |t| &**t);
    crate::resources::go_encoding::encode_as_go(resource, object);
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
            json!({"metadata": {"creationTimestamp": null},
                "spec": {"schedule": "* * * * *", "jobTemplate": {"metadata": {"creationTimestamp": null},
                "spec": {"template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": null}}}}},
                "status": {}})
        );
        let mut replica_set = json!({"spec": {"template": {"metadata": {"labels": {"a": "b"}}}},
            "status": {"observedGeneration": 2, "replicas": 3}});
        fill(&builtin("apps", "ReplicaSet"), &mut replica_set);
        assert_eq!(
            replica_set,
            json!({"metadata": {"creationTimestamp": null},
                "spec": {"selector": null, "template": {"metadata": {"labels": {"a": "b"}, "creationTimestamp": null},
                "spec": {"containers": null}}},
                "status": {"observedGeneration": 2, "replicas": 3}})
        );
        let mut config_map = json!({"data": {"a": "b"}});
        fill(&builtin("", "ConfigMap"), &mut config_map);
        assert_eq!(
            config_map,
            json!({"metadata": {"creationTimestamp": null}, "data": {"a": "b"}})
        );
        // A struct held by value that is atomic is written whole at its zero; a
        // `metav1.Time` held by value as null.
        let mut binding = json!({"metadata": {"name": "b"}});
        fill(
            &builtin("rbac.authorization.k8s.io", "ClusterRoleBinding"),
            &mut binding,
        );
        assert_eq!(
            binding,
            json!({"metadata": {"name": "b", "creationTimestamp": null},
                "roleRef": {"apiGroup": "", "kind": "", "name": ""}})
        );
    }
}
