//! What the groups' unit tests share: validating an object of a kind and reading the
//! errors as kube's 422 lists them (`field: body`).

use serde_json::Value;

use crate::{Kind, Write, validate};

/// The errors of `object`, a `group`/`version` `kind`, written as `write` says, each
/// as `field: body`. The object (and the stored one) is first given what the server
/// gives every object before validation ([`as_stored`]), so a test names only what
/// it is about.
pub(crate) fn errors(group: &str, version: &str, kind: &str, object: &Value, write: Write) -> Vec<String> {
    let namespaced = !CLUSTER_SCOPED.contains(&kind);
    let kind = Kind {
        group,
        version,
        kind,
        namespaced,
    };
    let mut object = as_stored(object);
    let mut old = write.old().map(as_stored);
    // A namespaced object is in the URL's namespace by the time it is validated.
    if namespaced {
        for object in std::iter::once(&mut object).chain(old.as_mut()) {
            let Some(fields) = object.as_object_mut() else {
                continue;
            };
            let metadata = fields.entry("metadata").or_insert_with(|| serde_json::json!({}));
            if let Some(metadata) = metadata.as_object_mut() {
                metadata.entry("namespace").or_insert_with(|| "default".into());
            }
        }
    }
    let write = match (write, old.as_ref()) {
        (Write::Update { .. }, Some(old)) => Write::Update { old },
        (Write::Subresource { name, .. }, Some(old)) => Write::Subresource { name, old },
        (write, _) => write,
    };
    validate(&kind, &object, write)
        .iter()
        .map(|error| format!("{}: {}", error.field, error.body()))
        .collect()
}

/// The fields of the errors (for cases whose messages another test pins down).
pub(crate) fn fields(group: &str, version: &str, kind: &str, object: &Value, write: Write) -> Vec<String> {
    errors(group, version, kind, object, write)
        .into_iter()
        .map(|error| error.split(": ").next().unwrap_or_default().to_owned())
        .collect()
}

/// The kinds the tests write that live outside namespaces.
const CLUSTER_SCOPED: &[&str] = &[
    "APIService",
    "CertificateSigningRequest",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterTrustBundle",
    "CSIDriver",
    "CSINode",
    "FlowSchema",
    "IngressClass",
    "IPAddress",
    "MutatingWebhookConfiguration",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "RuntimeClass",
    "SelfSubjectAccessReview",
    "SelfSubjectRulesReview",
    "ServiceCIDR",
    "StorageClass",
    "StorageVersion",
    "SubjectAccessReview",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
    "VolumeAttributesClass",
];

/// `object` as the server hands it to validation: every pod template with the core
/// defaults its pod spec's validation requires (`SetDefaults_PodSpec`,
/// `SetDefaults_Container`).
fn as_stored(object: &Value) -> Value {
    let mut object = object.clone();
    for path in [
        &["spec", "template", "spec"][..],
        &["spec", "jobTemplate", "spec", "template", "spec"],
        &["template", "spec"],
    ] {
        let mut spec = Some(&mut object);
        for key in path {
            spec = spec.and_then(|v| v.get_mut(*key));
        }
        if let Some(spec) = spec.and_then(Value::as_object_mut) {
            spec.entry("dnsPolicy").or_insert_with(|| "ClusterFirst".into());
            spec.entry("terminationGracePeriodSeconds").or_insert_with(|| 30.into());
            spec.entry("schedulerName")
                .or_insert_with(|| "default-scheduler".into());
            for list in ["containers", "initContainers"] {
                for container in spec.get_mut(list).and_then(Value::as_array_mut).into_iter().flatten() {
                    if let Some(container) = container.as_object_mut() {
                        container
                            .entry("imagePullPolicy")
                            .or_insert_with(|| "IfNotPresent".into());
                        container
                            .entry("terminationMessagePolicy")
                            .or_insert_with(|| "File".into());
                    }
                }
            }
        }
    }
    object
}
