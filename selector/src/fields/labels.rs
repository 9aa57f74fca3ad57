//! Which field labels each resource can be selected by, and the value each has on an
//! object: kube's field label conversion functions (the label a client may send, and
//! what it stands for) and each registry's selectable field set (the value compared).
//!
//! | resource (group/version kind) | labels beyond `metadata.name` | kube |
//! |---|---|---|
//! | `v1 Pod` | `metadata.namespace`, `spec.nodeName` (`spec.host`), `spec.restartPolicy`, `spec.schedulerName`, `spec.serviceAccountName`, `spec.hostNetwork`, `status.phase`, `status.podIP`, `status.podIPs`, `status.nominatedNodeName` | `pkg/apis/core/v1/conversion.go`, `pkg/registry/core/pod/strategy.go` |
//! | `v1 Node` | `spec.unschedulable` (no `metadata.namespace`) | `core/v1`, `registry/core/node` |
//! | `v1 ReplicationController` | `metadata.namespace`, `status.replicas` | `core/v1`, `registry/core/replicationcontroller` |
//! | `v1 Event` | `metadata.namespace`, `involvedObject.*`, `reason`, `reportingComponent`, `source`, `type` | `core/v1`, `registry/core/event` |
//! | `v1 Namespace` | `status.phase` (no `metadata.namespace`) | `core/v1`, `registry/core/namespace` |
//! | `v1 Secret` | `metadata.namespace`, `type` | `core/v1`, `registry/core/secret` |
//! | `v1 Service` | `metadata.namespace`, `spec.clusterIP`, `spec.type` | `core/v1`, `registry/core/service` |
//! | `batch/v1 Job` | `metadata.namespace`, `status.successful` | `pkg/apis/batch/v1/conversion.go`, `registry/batch/job` |
//! | `batch/v1beta1 Job`, `JobTemplate`, `CronJob` | `metadata.namespace`, `status.successful` | `batch/v1beta1` |
//! | `apps/v1beta1`, `apps/v1beta2 StatefulSet` | `metadata.namespace`, `status.successful` (always empty) | `apps/v1beta1`, `apps/v1beta2` |
//! | `events.k8s.io/v1`, `v1beta1 Event` | `metadata.namespace`, `regarding.*`, `reason`, `reportingController`, `type` (read as core's) | `pkg/apis/events/*/conversion.go` |
//! | `certificates.k8s.io/v1`, `v1beta1 CertificateSigningRequest` | `spec.signerName` | `certificates/*`, `registry/certificates` |
//! | `certificates.k8s.io/v1alpha1 ClusterTrustBundle` | `spec.signerName` | `certificates/v1alpha1` |
//! | `resource.k8s.io/v1beta1`, `v1alpha3 ResourceSlice` | `spec.nodeName`, `spec.driver` | `resource/*` |
//! | any other built-in kind | `metadata.namespace` | `runtime.DefaultMetaV1FieldSelectorConversion` |
//! | a custom resource | `metadata.namespace` (namespaced), its version's `selectableFields` | apiextensions' `crConverter.ConvertFieldLabel` and strategy |

use serde_json::Value;

use crate::validation::go_quote;

/// The selectable fields of the resource a field selector is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    source: Source,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    /// A built-in kind at one group version.
    Builtin {
        group: String,
        version: String,
        kind: String,
        namespaced: bool,
    },
    /// A custom resource: its labels are its version's `selectableFields` (JSON paths
    /// without their leading dot).
    Custom { namespaced: bool, selectable: Vec<String> },
}

impl Default for Fields {
    /// The fields every namespaced resource has: `metadata.name`, `metadata.namespace`.
    fn default() -> Self {
        Self::builtin("", "", "", true)
    }
}

impl Fields {
    /// The selectable fields of built-in `kind` served at `group`/`version`.
    pub fn builtin(group: &str, version: &str, kind: &str, namespaced: bool) -> Self {
        Self {
            source: Source::Builtin {
                group: group.to_owned(),
                version: version.to_owned(),
                kind: kind.to_owned(),
                namespaced,
            },
        }
    }

    /// The selectable fields of a custom resource whose served version declares the
    /// `selectableFields` JSON paths `selectable` (`.spec.color`).
    pub fn custom(namespaced: bool, selectable: &[String]) -> Self {
        let selectable = selectable
            .iter()
            .map(|path| path.strip_prefix('.').unwrap_or(path).to_owned())
            .collect();
        Self {
            source: Source::Custom { namespaced, selectable },
        }
    }

    /// The field label `label` stands for, or kube's error for a label the resource
    /// does not support.
    pub(super) fn convert(&self, label: &str) -> Result<String, String> {
        match &self.source {
            Source::Custom { namespaced, selectable } => {
                let known = label == "metadata.name"
                    || (*namespaced && label == "metadata.namespace")
                    || selectable.iter().any(|s| s == label);
                if known {
                    Ok(label.to_owned())
                } else {
                    Err(format!("field label not supported: {label}"))
                }
            }
            Source::Builtin {
                group, version, kind, ..
            } => convert_builtin(group, version, kind, label),
        }
    }

    /// The value of field `label` (as converted) on `object`; None when the resource
    /// exposes no such field (compared as empty).
    pub(super) fn value(&self, object: &Value, label: &str) -> Option<String> {
        let text = |path: &[&str]| {
            path.iter()
                .try_fold(object, |value, key| value.get(*key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let namespaced = match &self.source {
            Source::Builtin { namespaced, .. } | Source::Custom { namespaced, .. } => *namespaced,
        };
        match label {
            "metadata.name" => return Some(text(&["metadata", "name"]).unwrap_or_default()),
            "metadata.namespace" if namespaced => {
                return Some(text(&["metadata", "namespace"]).unwrap_or_default());
            }
            _ => {}
        }
        match &self.source {
            Source::Custom { selectable, .. } => {
                if !selectable.iter().any(|s| s == label) {
                    return None;
                }
                let found = label.split('.').try_fold(object, |value, key| value.get(key));
                // `fmt.Sprint` of the value the JSON path finds; nothing is empty.
                Some(match found {
                    Some(Value::String(text)) => text.clone(),
                    Some(Value::Null) | None => String::new(),
                    Some(other) => other.to_string(),
                })
            }
            Source::Builtin { group, kind, .. } => builtin_value(group, kind, object, label, &text),
        }
    }
}

/// The labels core/v1 kinds with a conversion function of their own accept (all as
/// themselves but `spec.host`, which Pods read as `spec.nodeName`).
fn core_labels(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "Pod" => &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
        ],
        "Node" => &["metadata.name", "spec.unschedulable"],
        "ReplicationController" => &["metadata.name", "metadata.namespace", "status.replicas"],
        "Event" => &[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
            "metadata.namespace",
            "metadata.name",
        ],
        "Namespace" => &["status.phase", "metadata.name"],
        "Secret" => &["type", "metadata.namespace", "metadata.name"],
        "Service" => &["metadata.namespace", "metadata.name", "spec.clusterIP", "spec.type"],
        _ => return None,
    })
}

/// Kube's field label conversion of `label` for built-in `kind` at `group`/`version`.
fn convert_builtin(group: &str, version: &str, kind: &str, label: &str) -> Result<String, String> {
    let not_supported = || format!("field label not supported: {label}");
    let allow = |labels: &[&str], error: String| {
        if labels.contains(&label) {
            Ok(label.to_owned())
        } else {
            Err(error)
        }
    };
    match (group, version, kind) {
        // Old v1 clients sent `spec.host`.
        ("", "v1", "Pod") if label == "spec.host" => Ok("spec.nodeName".to_owned()),
        ("", "v1", _) if core_labels(kind).is_some() => allow(core_labels(kind).unwrap_or_default(), not_supported()),
        ("batch", "v1", "Job") => allow(
            &["metadata.name", "metadata.namespace", "status.successful"],
            format!("field label {} not supported for Job", go_quote(label)),
        ),
        ("batch", "v1beta1", "Job" | "JobTemplate" | "CronJob") => allow(
            &["metadata.name", "metadata.namespace", "status.successful"],
            format!("field label {} not supported for {}", go_quote(label), go_quote(kind)),
        ),
        ("apps", "v1beta1" | "v1beta2", "StatefulSet") => allow(
            &["metadata.name", "metadata.namespace", "status.successful"],
            format!("field label not supported for apps{version}.StatefulSet: {label}"),
        ),
        ("events.k8s.io", "v1" | "v1beta1", "Event") => {
            // Mapped to the core Event's labels, which the stored objects carry.
            let mapped = match label {
                "reason" | "type" | "metadata.namespace" | "metadata.name" => label,
                "regarding.kind" => "involvedObject.kind",
                "regarding.namespace" => "involvedObject.namespace",
                "regarding.name" => "involvedObject.name",
                "regarding.uid" => "involvedObject.uid",
                "regarding.apiVersion" => "involvedObject.apiVersion",
                "regarding.resourceVersion" => "involvedObject.resourceVersion",
                "regarding.fieldPath" => "involvedObject.fieldPath",
                "reportingController" => "reportingComponent",
                _ => return Err(not_supported()),
            };
            Ok(mapped.to_owned())
        }
        ("certificates.k8s.io", "v1" | "v1beta1", "CertificateSigningRequest")
        | ("certificates.k8s.io", "v1alpha1", "ClusterTrustBundle") => {
            allow(&["metadata.name", "spec.signerName"], not_supported())
        }
        ("resource.k8s.io", "v1beta1" | "v1alpha3", "ResourceSlice") => allow(
            &["metadata.name", "spec.nodeName", "spec.driver"],
            format!("field label not supported for {group}/{version}, Kind={kind}: {label}"),
        ),
        _ => allow(
            &["metadata.name", "metadata.namespace"],
            format!(
                "{} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                go_quote(label)
            ),
        ),
    }
}

/// The value a built-in registry's selectable field set gives `label` on `object`:
/// most fields are the string at their own path; the rest are computed.
fn builtin_value(
    group: &str,
    kind: &str,
    object: &Value,
    label: &str,
    text: &dyn Fn(&[&str]) -> Option<String>,
) -> Option<String> {
    let at = |path: &[&str]| path.iter().try_fold(object, |value, key| value.get(*key));
    let boolean = |path: &[&str]| Some(at(path).and_then(Value::as_bool).unwrap_or(false).to_string());
    let integer = |path: &[&str]| Some(at(path).and_then(Value::as_i64).unwrap_or(0).to_string());
    let plain: &[&str] = match (group, kind) {
        ("", "Pod") => &[
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "status.phase",
            "status.nominatedNodeName",
        ],
        ("", "Namespace") => &["status.phase"],
        ("", "Secret") => &["type"],
        ("", "Service") => &["spec.clusterIP", "spec.type"],
        ("certificates.k8s.io", "CertificateSigningRequest" | "ClusterTrustBundle") => &["spec.signerName"],
        ("resource.k8s.io", "ResourceSlice") => &["spec.nodeName", "spec.driver"],
        _ => &[],
    };
    if plain.contains(&label) {
        let path: Vec<&str> = label.split('.').collect();
        return Some(text(&path).unwrap_or_default());
    }
    match (group, kind, label) {
        ("", "Pod", "spec.hostNetwork") => boolean(&["spec", "hostNetwork"]),
        // The first of `podIPs`, as the pod registry exposes it.
        ("", "Pod", "status.podIP") => Some(
            object["status"]["podIPs"][0]["ip"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        ("", "Node", "spec.unschedulable") => boolean(&["spec", "unschedulable"]),
        ("", "ReplicationController", "status.replicas") => integer(&["status", "replicas"]),
        ("" | "events.k8s.io", "Event", _) => event_value(label, text),
        ("batch", "Job", "status.successful") => integer(&["status", "succeeded"]),
        _ => None,
    }
}

/// A (core) Event's selectable fields: `source` is the source component, else the
/// reporting controller.
fn event_value(label: &str, text: &dyn Fn(&[&str]) -> Option<String>) -> Option<String> {
    let of = |path: &[&str]| Some(text(path).unwrap_or_default());
    match label {
        "source" => {
            let source = text(&["source", "component"]).unwrap_or_default();
            if source.is_empty() {
                of(&["reportingComponent"])
            } else {
                Some(source)
            }
        }
        "reason" | "type" | "reportingComponent" => of(&[label]),
        _ => {
            let field = label.strip_prefix("involvedObject.")?;
            of(&["involvedObject", field])
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::FieldSelector;
    use super::*;

    fn error(text: &str, fields: &Fields) -> String {
        FieldSelector::parse_for(text, fields).unwrap_err().to_string()
    }

    #[test]
    fn each_resource_takes_the_labels_kube_converts() {
        let service = Fields::builtin("", "v1", "Service", true);
        let selector = FieldSelector::parse_for("spec.type=ClusterIP", &service).unwrap();
        assert!(selector.matches(&json!({"spec": {"type": "ClusterIP"}})));
        assert_eq!(error("spec.ports=x", &service), "field label not supported: spec.ports");
        let job = Fields::builtin("batch", "v1", "Job", true);
        let selector = FieldSelector::parse_for("status.successful=0", &job).unwrap();
        assert!(selector.matches(&json!({"status": {}})), "an absent count is 0");
        assert_eq!(
            error("status.failed=1", &job),
            "field label \"status.failed\" not supported for Job"
        );
        let node = Fields::builtin("", "v1", "Node", false);
        let selector = FieldSelector::parse_for("spec.unschedulable=false", &node).unwrap();
        assert!(selector.matches(&json!({"spec": {}})));
        assert_eq!(
            error("metadata.namespace=x", &node),
            "field label not supported: metadata.namespace"
        );
        let replica_sets = Fields::builtin("apps", "v1", "ReplicaSet", true);
        assert_eq!(
            error("status.replicas=1", &replica_sets),
            "\"status.replicas\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
    }

    #[test]
    fn converted_labels_read_what_they_stand_for() {
        let pods = Fields::builtin("", "v1", "Pod", true);
        let pod = json!({"spec": {"nodeName": "n1"}, "status": {"podIP": "10.0.0.9", "podIPs": [{"ip": "10.0.0.1"}]}});
        assert!(FieldSelector::parse_for("spec.host=n1", &pods).unwrap().matches(&pod));
        assert!(
            FieldSelector::parse_for("status.podIP=10.0.0.1", &pods)
                .unwrap()
                .matches(&pod)
        );
        assert!(FieldSelector::parse_for("status.podIPs=", &pods).unwrap().matches(&pod));
        assert!(
            FieldSelector::parse_for("spec.hostNetwork=false", &pods)
                .unwrap()
                .matches(&pod)
        );
        let events = Fields::builtin("events.k8s.io", "v1", "Event", true);
        let event = json!({"involvedObject": {"name": "web"}, "reportingComponent": "ctrl"});
        let selector = FieldSelector::parse_for("regarding.name=web,reportingController=ctrl", &events).unwrap();
        assert!(selector.matches(&event));
        let core = Fields::builtin("", "v1", "Event", true);
        assert!(FieldSelector::parse_for("source=ctrl", &core).unwrap().matches(&event));
    }

    #[test]
    fn custom_resources_select_by_their_selectable_fields() {
        let fields = Fields::custom(true, &[".spec.color".to_owned(), ".spec.size".to_owned()]);
        let object = json!({"metadata": {"name": "a", "namespace": "n"}, "spec": {"color": "red", "size": 3}});
        let selector = FieldSelector::parse_for("spec.color=red,spec.size=3", &fields).unwrap();
        assert!(selector.matches(&object));
        assert_eq!(error("spec.other=1", &fields), "field label not supported: spec.other");
        let cluster = Fields::custom(false, &[]);
        assert_eq!(
            error("metadata.namespace=n", &cluster),
            "field label not supported: metadata.namespace"
        );
    }
}
