//! The validation of the `apiregistration.k8s.io` API group's kinds (kube-aggregator's
//! `pkg/apis/apiregistration/validation`): `APIServices`, named `<version>.<group>`,
//! served locally or by a Service of the cluster.

use serde_json::Value;

use crate::common::names::{dns1035_label, dns1123_subdomain, name_is_path_segment, path_segment_name, port_number};
use crate::common::read::{flag, int, is_set, opt_int, text};
use crate::field::{ErrorList, Path};
use crate::meta::{validate_object_meta, validate_object_meta_update};
use crate::{Kind, Write};

/// The errors in `object`, an `apiregistration.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "APIService" {
        return ErrorList::new();
    }
    match write {
        Write::Create => validate_api_service(object),
        Write::Update { old } => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(validate_api_service(object));
            errors
        }
        Write::Subresource { name: "status", old } => {
            // `ValidateAPIServiceStatusUpdate`.
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
            let path = Path::from_parts(&["status", "conditions"]);
            for (index, condition) in crate::common::read::items(&object["status"]["conditions"])
                .iter()
                .enumerate()
            {
                let status = text(&condition["status"]);
                if !matches!(status, "True" | "False" | "Unknown") {
                    errors.push(
                        path.index(index)
                            .child("status")
                            .not_supported(status, &["True", "False", "Unknown"]),
                    );
                }
            }
            errors
        }
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `ValidateAPIService`'s metadata checks, with its name rule.
fn validate_api_service_meta(object: &Value, version: &str, group: &str) -> ErrorList {
    // The name rule needs the spec (`<version>.<group>`); the metadata checks take a
    // plain rule, so its second half is added here, where `ValidateObjectMeta` would
    // list it: after the `generateName` prefix's own causes (the rule judges the prefix
    // as a whole name), then after the name's.
    let mut errors = validate_object_meta(&object["metadata"], false, name_is_path_segment, &Path::new("metadata"));
    let required = format!("{version}.{group}");
    let must_be = |field: &str, name: &str| {
        (path_segment_name(name).is_empty() && name != required).then(|| {
            Path::from_parts(&["metadata", field]).invalid(
                name,
                &format!(
                    "must be `spec.version+\".\"+spec.group`: {}",
                    wheelhouse_envtest_schema::errors::go_quote(&required)
                ),
            )
        })
    };
    let generate_name = text(&object["metadata"]["generateName"]);
    if !generate_name.is_empty()
        && let Some(error) = must_be("generateName", generate_name)
    {
        let at = errors
            .iter()
            .position(|e| e.field != "metadata.generateName")
            .unwrap_or(errors.len());
        errors.insert(at, error);
    }
    let name = text(&object["metadata"]["name"]);
    if let Some(error) = must_be("name", name) {
        let at = errors
            .iter()
            .position(|e| e.field != "metadata.generateName" && e.field != "metadata.name")
            .unwrap_or(errors.len());
        errors.insert(at, error);
    }
    errors
}

/// `ValidateAPIService`.
fn validate_api_service(object: &Value) -> ErrorList {
    let spec = &object["spec"];
    let group = text(&spec["group"]);
    let version = text(&spec["version"]);
    let mut errors = validate_api_service_meta(object, version, group);
    let path = Path::new("spec");
    if group.is_empty() && version != "v1" {
        errors.push(
            path.child("group")
                .required("only v1 may have an empty group and it better be legacy kube"),
        );
    }
    if !group.is_empty() {
        for message in dns1123_subdomain(group) {
            errors.push(path.child("group").invalid(group, &message));
        }
    }
    for message in dns1035_label(version) {
        errors.push(path.child("version").invalid(version, &message));
    }
    let group_priority = int(&spec["groupPriorityMinimum"]);
    if group_priority <= 0 || group_priority > 20000 {
        errors.push(
            path.child("groupPriorityMinimum")
                .invalid(&Value::from(group_priority), "must be positive and less than 20000"),
        );
    }
    let version_priority = int(&spec["versionPriority"]);
    if version_priority <= 0 || version_priority > 1000 {
        errors.push(
            path.child("versionPriority")
                .invalid(&Value::from(version_priority), "must be positive and less than 1000"),
        );
    }
    let ca_bundle = text(&spec["caBundle"]);
    let skip_verify = flag(&spec["insecureSkipTLSVerify"]);
    let service = &spec["service"];
    if !is_set(service) {
        if !ca_bundle.is_empty() {
            let bytes = decoded_length(ca_bundle);
            errors.push(path.child("caBundle").invalid(
                format!("{bytes} bytes").as_str(),
                "local APIServices may not have a caBundle",
            ));
        }
        if skip_verify {
            errors.push(path.child("insecureSkipTLSVerify").invalid(
                &Value::Bool(true),
                "local APIServices may not have insecureSkipTLSVerify",
            ));
        }
        return errors;
    }
    let service_path = path.child("service");
    for field in ["namespace", "name"] {
        if text(&service[field]).is_empty() {
            errors.push(service_path.child(field).required(""));
        }
    }
    // v1 defaults the port to 443.
    let port = opt_int(&service["port"]).unwrap_or(443);
    let problems = port_number(port);
    if !problems.is_empty() {
        errors.push(service_path.child("port").invalid(
            &Value::from(port),
            &format!("port is not valid: {}", problems.join(", ")),
        ));
    }
    if skip_verify && !ca_bundle.is_empty() {
        errors.push(
            path.child("insecureSkipTLSVerify")
                .invalid(&Value::Bool(true), "may not be true if caBundle is present"),
        );
    }
    errors
}

/// The byte length of a base64 `[]byte` field.
fn decoded_length(text: &str) -> usize {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_or(0, |bytes| bytes.len())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn api_services_are_named_after_their_group_and_version() {
        let service = json!({"metadata": {"name": "v1.wrong.example.com"}, "spec": {"group": "vg.example.com", "version": "v1",
            "groupPriorityMinimum": 0, "versionPriority": 10, "caBundle": "AAAA"}});
        assert_eq!(
            errors("apiregistration.k8s.io", "v1", "APIService", &service, Write::Create),
            [
                "metadata.name: Invalid value: \"v1.wrong.example.com\": must be `spec.version+\".\"+spec.group`: \"v1.vg.example.com\"",
                "spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
                "spec.caBundle: Invalid value: \"3 bytes\": local APIServices may not have a caBundle",
            ]
        );
    }
}
