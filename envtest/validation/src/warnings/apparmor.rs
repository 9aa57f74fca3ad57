//! The pod strategy's `applyAppArmorVersionSkew` (`pkg/registry/core/pod/strategy.go`),
//! which a new pod goes through as its strategy prepares it: each container's
//! deprecated `AppArmor` annotation and its `appArmorProfile` field are made to agree,
//! so that kubelets older than the field enforce it too, and an annotation without a
//! field is warned of.

use serde_json::{Map, Value, json};

use crate::common::pods::APPARMOR_CONTAINER;
use crate::common::read::{entries, items, text};
use crate::field::Path;

/// The annotation an `appArmorProfile` field stands for (`appArmorAnnotationForField`),
/// empty for a profile it cannot express.
fn annotation_for(profile: &Value) -> String {
    match text(&profile["type"]) {
        "Unconfined" => "unconfined".to_owned(),
        "RuntimeDefault" => "runtime/default".to_owned(),
        "Localhost" if profile["localhostProfile"].is_string() => {
            format!("localhost/{}", text(&profile["localhostProfile"]))
        }
        _ => String::new(),
    }
}

/// The field an annotation stands for (`apparmorFieldForAnnotation`), if it is one
/// `ValidateAppArmorProfileField` accepts.
fn field_for(annotation: &str) -> Option<Value> {
    let profile = match annotation {
        "unconfined" => json!({"type": "Unconfined"}),
        "runtime/default" => json!({"type": "RuntimeDefault"}),
        _ => {
            let name = annotation.strip_prefix("localhost/").filter(|n| !n.is_empty())?;
            json!({"type": "Localhost", "localhostProfile": name})
        }
    };
    crate::core::validate_app_armor_profile_field(&profile, &Path::new(""))
        .is_empty()
        .then_some(profile)
}

/// `applyAppArmorVersionSkew`: syncs each container's annotation and field of a new
/// `pod` (not a Windows one) and returns the warnings it adds.
pub fn apparmor_version_skew(pod: &mut Value) -> Vec<String> {
    if pod["spec"]["os"]["name"] == "windows" {
        return Vec::new();
    }
    let pod_profile = pod["spec"]["securityContext"]["appArmorProfile"].clone();
    let annotations: Map<String, Value> = entries(&pod["metadata"]["annotations"]).cloned().unwrap_or_default();
    let mut added: Vec<(String, String)> = Vec::new();
    let mut fields: Vec<(&str, usize, Value)> = Vec::new();
    let mut warnings = Vec::new();
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for (index, container) in items(&pod["spec"][list]).iter().enumerate() {
            let key = format!("{APPARMOR_CONTAINER}{}", text(&container["name"]));
            let container_profile = &container["securityContext"]["appArmorProfile"];
            let Some(annotation) = annotations.get(&key) else {
                let source = if container_profile.is_null() {
                    &pod_profile
                } else {
                    container_profile
                };
                let annotation = if source.is_null() {
                    String::new()
                } else {
                    annotation_for(source)
                };
                if !annotation.is_empty() {
                    added.push((key, annotation));
                }
                continue;
            };
            if !container_profile.is_null() {
                continue;
            }
            let field = field_for(text(annotation));
            let mut warn = field.is_none();
            if let Some(field) = field
                && field != pod_profile
            {
                fields.push((list, index, field));
                warn = true;
            }
            if warn {
                let at = Path::new("metadata").child("annotations").key(&key);
                warnings.push(format!(
                    r#"{}: deprecated since v1.30; use the "appArmorProfile" field instead"#,
                    at.as_str()
                ));
            }
        }
    }
    if !added.is_empty() && pod["metadata"].is_object() {
        let annotations = &mut pod["metadata"]["annotations"];
        if !annotations.is_object() {
            *annotations = json!({});
        }
        for (key, value) in added {
            annotations[key] = json!(value);
        }
    }
    for (list, index, field) in fields {
        let container = &mut pod["spec"][list][index];
        if !container["securityContext"].is_object() {
            container["securityContext"] = json!({});
        }
        container["securityContext"]["appArmorProfile"] = field;
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_and_fields_are_made_to_agree() {
        let mut pod = json!({
            "metadata": {"annotations": {
                "container.apparmor.security.beta.kubernetes.io/b": "localhost/p",
                "container.apparmor.security.beta.kubernetes.io/c": "bogus",
                "container.apparmor.security.beta.kubernetes.io/d": "runtime/default"
            }},
            "spec": {
                "securityContext": {"appArmorProfile": {"type": "RuntimeDefault"}},
                "containers": [
                    {"name": "a", "securityContext": {"appArmorProfile": {"type": "Unconfined"}}},
                    {"name": "b"}, {"name": "c"}, {"name": "d"}, {"name": "e"}
                ]
            }
        });
        let warnings = apparmor_version_skew(&mut pod);
        let annotations = &pod["metadata"]["annotations"];
        assert_eq!(
            annotations["container.apparmor.security.beta.kubernetes.io/a"],
            "unconfined"
        );
        assert_eq!(
            annotations["container.apparmor.security.beta.kubernetes.io/e"],
            "runtime/default"
        );
        assert_eq!(
            pod["spec"]["containers"][1]["securityContext"]["appArmorProfile"],
            json!({"type": "Localhost", "localhostProfile": "p"})
        );
        // Invalid, or the pod's own profile: no field is written.
        assert!(pod["spec"]["containers"][2]["securityContext"].is_null());
        assert!(pod["spec"]["containers"][3]["securityContext"].is_null());
        assert_eq!(
            warnings,
            [
                r#"metadata.annotations[container.apparmor.security.beta.kubernetes.io/b]: deprecated since v1.30; use the "appArmorProfile" field instead"#,
                r#"metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead"#,
            ]
        );
        let mut windows = json!({"metadata": {"annotations": {"container.apparmor.security.beta.kubernetes.io/a": "x"}},
            "spec": {"os": {"name": "windows"}, "containers": [{"name": "a"}]}});
        assert!(apparmor_version_skew(&mut windows).is_empty());
    }
}
