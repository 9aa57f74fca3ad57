//! The validation of the `internal.apiserver.k8s.io` API group's kinds
//! (`pkg/apis/apiserverinternal/validation`): `StorageVersions`, named
//! `<group>.<resource>`, whose status lists each API server's encoding, decodable and
//! served versions.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::fields::validate_qualified_name;
use crate::common::go_syntax::{raw, string_slice};
use crate::common::names::{dns1035_label, dns1123_subdomain, name_is_dns_subdomain};
use crate::common::read::{items, opt_text, text};
use crate::core::validate_object_meta;
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// `ValidateStorageVersionName`: `<group>.<resource>`.
pub(crate) fn storage_version_name(name: &str, _prefix: bool) -> Vec<String> {
    let Some((group, resource)) = name.rsplit_once('.') else {
        return vec!["name must be in the form of <group>.<resource>".to_owned()];
    };
    let mut errors: Vec<String> = dns1123_subdomain(group)
        .into_iter()
        .map(|m| format!("the group segment {m}"))
        .collect();
    errors.extend(
        dns1035_label(resource)
            .into_iter()
            .map(|m| format!("the resource segment {m}")),
    );
    errors
}

/// The errors in `object`, an `internal.apiserver.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "StorageVersion" {
        return ErrorList::new();
    }
    match write {
        Write::Create => {
            let mut errors =
                validate_object_meta(&object["metadata"], false, storage_version_name, &Path::new("metadata"));
            errors.extend(validate_status(&object["status"], &Path::new("status")));
            errors
        }
        Write::Subresource { name: "status", .. } => validate_status(&object["status"], &Path::new("status")),
        // `ValidateStorageVersionUpdate` checks nothing.
        Write::Update { .. } | Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `validateStorageVersionStatus`.
fn validate_status(status: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let versions = items(&status["storageVersions"]);
    let mut ids = std::collections::BTreeSet::new();
    for (index, version) in versions.iter().enumerate() {
        let entry = path.child("storageVersions").index(index);
        let id = text(&version["apiServerID"]);
        if !ids.insert(id) {
            errors.push(entry.child("apiServerID").duplicate(id));
        }
        errors.extend(validate_server_storage_version(version, &entry));
    }
    // `validateCommonVersion`.
    let common = versions
        .first()
        .map(|first| text(&first["encodingVersion"]))
        .filter(|first| versions.iter().all(|v| text(&v["encodingVersion"]) == *first));
    let declared = opt_text(&status["commonEncodingVersion"]);
    let common_path = path.child("commonEncodingVersion");
    match (common, declared) {
        (None, Some(declared)) => errors.push(common_path.invalid(
            declared,
            "should be nil if servers do not agree on the same encoding version, or if there is no server reporting the supported versions yet",
        )),
        (Some(actual), None) => errors.push(
            common_path.invalid(raw("\"null\"".to_owned()), &format!("the common encoding version is {actual}")),
        ),
        (Some(actual), Some(declared)) if actual != declared => errors.push(
            common_path.invalid(declared, &format!("the actual common encoding version is {actual}")),
        ),
        _ => {}
    }
    // `validateStorageVersionCondition` (kube indexes the conditions under `status`).
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, condition) in items(&status["conditions"]).iter().enumerate() {
        let entry = path.index(index);
        let kind = text(&condition["type"]);
        if let Some(first) = seen.get(kind) {
            errors.push(entry.child("type").invalid(
                kind,
                &format!("the type of the condition is not unique, it also appears in conditions[{first}]"),
            ));
        }
        seen.insert(kind, index);
        errors.extend(validate_qualified_name(kind, &entry.child("type")));
        errors.extend(validate_qualified_name(
            text(&condition["status"]),
            &entry.child("status"),
        ));
        if text(&condition["reason"]).is_empty() {
            errors.push(entry.child("reason").required("reason cannot be empty"));
        }
        if text(&condition["message"]).is_empty() {
            errors.push(entry.child("message").required("message cannot be empty"));
        }
    }
    errors
}

/// `validateServerStorageVersion`.
fn validate_server_storage_version(version: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let id = text(&version["apiServerID"]);
    for message in name_is_dns_subdomain(id, false) {
        errors.push(path.child("apiServerID").invalid(id, &message));
    }
    let encoding = text(&version["encodingVersion"]);
    let problems = api_version(encoding);
    if !problems.is_empty() {
        errors.push(path.child("encodingVersion").invalid(encoding, &problems.join(",")));
    }
    let decodable: Vec<&str> = items(&version["decodableVersions"]).iter().map(text).collect();
    for (index, candidate) in decodable.iter().enumerate() {
        let problems = api_version(candidate);
        if !problems.is_empty() {
            errors.push(
                path.child("decodableVersions")
                    .index(index)
                    .invalid(*candidate, &problems.join(",")),
            );
        }
    }
    if !decodable.contains(&encoding) {
        errors.push(path.child("decodableVersions").invalid(
            raw(string_slice(&version["decodableVersions"])),
            &format!("decodableVersions must include encodingVersion {encoding}"),
        ));
    }
    for (index, served) in items(&version["servedVersions"]).iter().enumerate() {
        let served = text(served);
        let entry = path.child("servedVersions").index(index);
        let problems = api_version(served);
        if !problems.is_empty() {
            errors.push(entry.invalid(served, &problems.join(",")));
        }
        if !decodable.contains(&served) {
            errors.push(entry.invalid(
                served,
                &format!(
                    "individual served version : {served} must be included in decodableVersions : [{}]",
                    decodable.join(" ")
                ),
            ));
        }
    }
    errors
}

/// `isValidAPIVersion`: `version` or `group/version`.
fn api_version(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split('/').collect();
    let mut errors = Vec::new();
    let version = match parts.as_slice() {
        [version] => *version,
        [group, version] => {
            if group.is_empty() {
                errors.push("group part: must be non-empty".to_owned());
            } else {
                errors.extend(dns1123_subdomain(group).into_iter().map(|m| format!("group part: {m}")));
            }
            *version
        }
        _ => {
            return vec![format!(
                "an apiVersion is {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyVersion')",
                wheelhouse_envtest_schema::names::regex_error(
                    "a DNS-1035 label, which must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
                    "[a-z]([-a-z0-9]*[a-z0-9])?",
                    &["my-name", "abc-123"],
                )
            )];
        }
    };
    if version.is_empty() {
        errors.push("version part: must be non-empty".to_owned());
    } else {
        errors.extend(dns1035_label(version).into_iter().map(|m| format!("version part: {m}")));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn storage_versions() {
        assert_eq!(
            super::storage_version_name("pods", false),
            ["name must be in the form of <group>.<resource>"]
        );
        assert!(super::storage_version_name("apps.deployments", false).is_empty());
        let version = json!({"metadata": {"name": "apps.deployments"}, "status": {"storageVersions": [
            {"apiServerID": "a", "encodingVersion": "apps/v1", "decodableVersions": ["apps/v1beta1"], "servedVersions": ["apps/v2"]}]}});
        assert_eq!(
            errors(
                "internal.apiserver.k8s.io",
                "v1alpha1",
                "StorageVersion",
                &version,
                Write::Create
            ),
            [
                "status.storageVersions[0].decodableVersions: Invalid value: []string{\"apps/v1beta1\"}: decodableVersions must include encodingVersion apps/v1",
                "status.storageVersions[0].servedVersions[0]: Invalid value: \"apps/v2\": individual served version : apps/v2 must be included in decodableVersions : [apps/v1beta1]",
                "status.commonEncodingVersion: Invalid value: \"null\": the common encoding version is apps/v1",
            ]
        );
    }
}
