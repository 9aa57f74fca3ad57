//! Cases from apimachinery's `objectmeta_test.go` and metav1's `validation_test.go`.

use serde_json::json;

use super::*;
use crate::field::ErrorType;

fn bodies(errors: &ErrorList) -> Vec<String> {
    errors.iter().map(|e| format!("{}: {}", e.field, e.body())).collect()
}

fn path() -> Path {
    Path::new("metadata")
}

#[test]
fn names_follow_the_kinds_rule() {
    let meta = json!({"name": "a.b", "namespace": "ns"});
    assert!(validate_object_meta(&meta, true, name_is_dns_subdomain, &path()).is_empty());
    let errors = validate_object_meta(&meta, true, name_is_dns_label, &path());
    assert_eq!(
        bodies(&errors),
        vec!["metadata.name: Invalid value: \"a.b\": must not contain dots"]
    );
    let unnamed = validate_object_meta(&json!({"namespace": "ns"}), true, name_is_dns_subdomain, &path());
    assert_eq!(
        bodies(&unnamed),
        vec!["metadata.name: Required value: name or generateName is required"]
    );
}

#[test]
fn generate_name_may_end_in_a_dash() {
    let meta = json!({"generateName": "web-", "name": "web-x2k9p", "namespace": "ns"});
    assert!(validate_object_meta(&meta, true, name_is_dns_subdomain, &path()).is_empty());
    let bad = json!({"generateName": "Web-", "name": "web-1", "namespace": "ns"});
    let errors = validate_object_meta(&bad, true, name_is_dns_subdomain, &path());
    assert_eq!(errors[0].field, "metadata.generateName");
}

#[test]
fn namespaces_follow_the_scope() {
    let errors = validate_object_meta(&json!({"name": "a"}), true, name_is_dns_subdomain, &path());
    assert_eq!(bodies(&errors), vec!["metadata.namespace: Required value"]);
    let errors = validate_object_meta(
        &json!({"name": "a", "namespace": "x"}),
        false,
        name_is_dns_subdomain,
        &path(),
    );
    assert_eq!(
        bodies(&errors),
        vec!["metadata.namespace: Forbidden: not allowed on this type"]
    );
    let errors = validate_object_meta(
        &json!({"name": "a", "namespace": "A"}),
        true,
        name_is_dns_subdomain,
        &path(),
    );
    assert_eq!(errors[0].field, "metadata.namespace");
}

#[test]
fn owner_references_need_a_uid_and_one_controller() {
    let meta = json!({"name": "x", "namespace": "default", "ownerReferences": [
        {"apiVersion": "v1", "kind": "Pod", "name": "a", "uid": "u1", "controller": true},
        {"apiVersion": "v1", "kind": "Event", "name": "b", "uid": "", "controller": true},
    ]});
    let errors = validate_object_meta(&meta, true, name_is_dns_subdomain, &path());
    let printed = bodies(&errors);
    assert_eq!(
        printed[0],
        "metadata.ownerReferences.uid: Invalid value: \"\": uid must not be empty"
    );
    assert!(
        printed[1].starts_with(
            "metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:\"v1\", Kind:\"Event\""
        )
    );
    assert!(printed[1].ends_with("/v1, Kind=Event is disallowed from being an owner"));
    assert!(printed[2].starts_with("metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{"));
    assert!(printed[2].ends_with(
        "Only one reference can have Controller set to true. Found \"true\" in references for Pod/a and Event/b"
    ));
    let missing = validate_owner_references(&json!([{}]), &Path::new("o"));
    let fields: Vec<&str> = missing.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, vec!["o.apiVersion", "o.kind", "o.name", "o.uid"]);
}

#[test]
fn finalizers_are_qualified_and_not_conflicting() {
    let errors = validate_finalizers(&json!(["a/b/c", "orphan", "foregroundDeletion"]), &Path::new("f"));
    assert_eq!(errors.len(), 2);
    assert!(
        errors[0]
            .body()
            .starts_with("Invalid value: \"a/b/c\": a qualified name must consist")
    );
    assert_eq!(
        errors[1].body(),
        "Invalid value: []string{\"a/b/c\", \"orphan\", \"foregroundDeletion\"}: finalizer orphan and foregroundDeletion cannot be both set"
    );
}

#[test]
fn annotations_are_limited_in_total_size() {
    let big = "x".repeat(256 * 1024);
    let errors = validate_annotations(&json!({"a": big}), &Path::new("metadata.annotations"));
    assert_eq!(
        bodies(&errors),
        vec!["metadata.annotations: Too long: may not be more than 262144 bytes"]
    );
    let fits = "x".repeat(256 * 1024 - 1);
    assert!(validate_annotations(&json!({"a": fits}), &Path::new("a")).is_empty());
    // Case does not matter in annotation keys.
    assert!(validate_annotations(&json!({"Example.COM/Key": ""}), &Path::new("a")).is_empty());
    assert_eq!(
        validate_labels(&json!({"Example.COM/Key": ""}), &Path::new("l")).len(),
        1
    );
}

#[test]
fn updates_keep_identity_and_deletion_fields() {
    let old = json!({"name": "a", "namespace": "ns", "uid": "1", "creationTimestamp": "2024-01-02T03:04:05Z", "generation": 2});
    let mut new = old.clone();
    assert!(validate_object_meta_update(&new, &old, &path()).is_empty());
    new["uid"] = json!("2");
    new["deletionTimestamp"] = json!("2024-01-02T03:04:06Z");
    new["generation"] = json!(1);
    let printed = bodies(&validate_object_meta_update(&new, &old, &path()));
    assert_eq!(
        printed,
        vec![
            "metadata.generation: Invalid value: 1: must not be decremented",
            "metadata.uid: Invalid value: \"2\": field is immutable",
            "metadata.deletionTimestamp: Invalid value: 2024-01-02 03:04:06 +0000 UTC: field is immutable",
        ]
    );
}

#[test]
fn objects_being_deleted_gain_no_finalizers() {
    let old = json!({"name": "a", "deletionTimestamp": "2024-01-02T03:04:05Z", "finalizers": ["a/x"]});
    let mut new = old.clone();
    new["finalizers"] = json!(["a/x", "b/y", "a/z"]);
    let errors = validate_object_meta_update(&new, &old, &path());
    assert_eq!(errors[0].kind, ErrorType::Forbidden);
    assert_eq!(
        errors[0].body(),
        "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"a/z\", \"b/y\"}"
    );
}

#[test]
fn selectors_check_operators_values_and_keys() {
    let selector = json!({"matchLabels": {"a": "-"}, "matchExpressions": [
        {"key": "k", "operator": "In"},
        {"key": "k", "operator": "Exists", "values": ["x"]},
        {"key": "-k", "operator": "Near", "values": ["-"]},
    ]});
    let fields: Vec<String> = validate_label_selector(&selector, &Path::new("s"))
        .iter()
        .map(|e| e.field.clone())
        .collect();
    assert_eq!(
        fields,
        vec![
            "s.matchLabels",
            "s.matchExpressions[0].values",
            "s.matchExpressions[1].values",
            "s.matchExpressions[2].operator",
            "s.matchExpressions[2].key",
            "s.matchExpressions[2].values[0]",
        ]
    );
    assert!(label_selector_has_invalid_label_value(&selector));
}

#[test]
fn path_segment_names_refuse_only_slashes_percents_and_dots() {
    assert!(validate_path_segment_name("system:controller:x", false).is_empty());
    assert_eq!(validate_path_segment_name("..", false), vec!["may not be '..'"]);
    assert_eq!(
        validate_path_segment_name("a/%", false),
        vec!["may not contain '/'", "may not contain '%'"]
    );
    assert!(validate_path_segment_name("..", true).is_empty());
}

#[test]
fn conditions_follow_metav1() {
    let conditions = json!([
        {"type": "Ready", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z", "reason": "Ok"},
        {"type": "Ready", "status": "Maybe", "reason": "1bad"},
    ]);
    let fields: Vec<String> = validate_conditions(&conditions, &Path::new("c"))
        .iter()
        .map(|e| e.field.clone())
        .collect();
    assert_eq!(
        fields,
        vec!["c[1].type", "c[1].status", "c[1].lastTransitionTime", "c[1].reason"]
    );
}

#[test]
fn managed_fields_and_field_managers() {
    let entries = json!([{"operation": "Bogus", "fieldsType": "FieldsV2", "manager": "a\u{7}"}]);
    let printed = bodies(&validate_managed_fields(&entries, &Path::new("m")));
    assert_eq!(
        printed,
        vec![
            "m[0].operation: Invalid value: \"Bogus\": must be `Apply` or `Update`",
            "m[0].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
            "m[0].manager: Invalid value: \"a\\a\": invalid character U+0007 (at position 1)",
        ]
    );
}
