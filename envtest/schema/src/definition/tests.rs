use serde_json::json;

use super::*;

fn crd() -> Value {
    json!({"metadata": {"name": "widgets.example.com"}, "spec": {
        "group": "example.com", "scope": "Namespaced",
        "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
        "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object"}}}],
    }})
}

fn found(crd: &Value) -> Vec<String> {
    validate(crd, None).iter().map(FieldError::summary).collect()
}

#[test]
fn a_well_formed_definition_passes_and_gets_kubes_defaults() {
    let mut crd = crd();
    crd["spec"]["names"] = json!({"plural": "widgets", "kind": "Widget"});
    apply_defaults(&mut crd);
    assert_eq!(crd["spec"]["names"]["singular"], "widget");
    assert_eq!(crd["spec"]["names"]["listKind"], "WidgetList");
    assert_eq!(crd["spec"]["conversion"], json!({"strategy": "None"}));
    assert_eq!(found(&crd), Vec::<String>::new());
}

#[test]
fn exactly_one_version_is_stored() {
    let mut crd = crd();
    let version = crd["spec"]["versions"][0].clone();
    let mut second = version.clone();
    second["name"] = json!("v2");
    crd["spec"]["versions"] = json!([version, second]);
    let errors = found(&crd);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(
        errors[1],
        "status.storedVersions: Invalid value: []string{\"v1\"}: must have the storage version v2"
    );
    assert!(
        errors[0].starts_with(
            "spec.versions: Invalid value: [{\"Name\":\"v1\",\"Served\":true,\"Storage\":true,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,"
        ),
        "{}",
        errors[0]
    );
    assert!(errors[0].ends_with(": must have exactly one version marked as storage version"));
    crd["spec"]["versions"][0]["storage"] = json!(false);
    crd["spec"]["versions"][1]["storage"] = json!(false);
    let errors = found(&crd);
    assert!(errors[0].ends_with(": must have exactly one version marked as storage version"));
    assert_eq!(
        errors[1],
        "status.storedVersions: Invalid value: []string{}: must have at least one stored version"
    );
}

#[test]
fn names_groups_and_scopes_are_checked_with_kubes_words() {
    let mut crd = crd();
    crd["metadata"]["name"] = json!("gadgets.example.com");
    crd["spec"]["group"] = json!("example");
    crd["spec"]["scope"] = json!("Global");
    crd["spec"]["names"]["listKind"] = json!("Widget");
    crd["spec"]["names"]["shortNames"] = json!(["w_1"]);
    crd["spec"]["versions"][0]["name"] = json!("V1");
    let errors = found(&crd);
    let dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    assert_eq!(
        errors,
        vec![
            "metadata.name: Invalid value: \"gadgets.example.com\": must be spec.names.plural+\".\"+spec.group"
                .to_owned(),
            "spec.group: Invalid value: \"example\": should be a domain with at least one dot".to_owned(),
            "spec.scope: Unsupported value: \"Global\": supported values: \"Cluster\", \"Namespaced\"".to_owned(),
            format!("spec.versions[0].name: Invalid value: \"V1\": {dns1035}"),
            format!("spec.version: Invalid value: \"V1\": {dns1035}"),
            format!("spec.names.shortNames[0]: Invalid value: \"w_1\": {dns1035}"),
            "spec.names.listKind: Invalid value: \"Widget\": kind and listKind may not be the same".to_owned(),
        ]
    );
}

#[test]
fn versions_need_schemas_unique_names_and_valid_subresources() {
    let mut crd = crd();
    let mut second = crd["spec"]["versions"][0].clone();
    second["storage"] = json!(false);
    second["schema"] = json!(null);
    second["subresources"] =
        json!({"scale": {"specReplicasPath": "spec.replicas", "statusReplicasPath": ".spec.replicas"}});
    second["additionalPrinterColumns"] =
        json!([{"name": "Age", "type": "time", "jsonPath": ".metadata.creationTimestamp"}]);
    crd["spec"]["versions"].as_array_mut().unwrap().push(second);
    let errors = found(&crd);
    assert!(
        errors.contains(&"spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required".to_owned())
    );
    assert!(errors.contains(
        &"spec.versions[1].subresources.scale.specReplicasPath: Invalid value: \"spec.replicas\": must be a simple json path starting with .".to_owned()
    ));
    assert!(errors.contains(
        &"spec.versions[1].subresources.scale.statusReplicasPath: Invalid value: \".spec.replicas\": should be a json path under .status".to_owned()
    ));
    assert!(errors.contains(
        &"spec.versions[1].additionalPrinterColumns[0].type: Invalid value: \"time\": must be one of boolean,date,integer,number,string".to_owned()
    ));
    assert!(
        errors
            .iter()
            .any(|e| e.ends_with(": must contain unique version names"))
    );
}

#[test]
fn identical_subresources_are_checked_once_at_the_top() {
    let mut crd = crd();
    crd["spec"]["versions"][0]["subresources"] = json!({"scale": {"statusReplicasPath": ".status.replicas"}});
    assert_eq!(
        found(&crd),
        vec!["spec.subresources.scale.specReplicasPath: Required value"]
    );
}

#[test]
fn updates_keep_the_group_and_plural_and_once_established_the_kind() {
    let mut old = crd();
    old["status"] = json!({"conditions": [{"type": "Established", "status": "True"}]});
    let mut new = crd();
    new["spec"]["names"]["kind"] = json!("Gadget");
    new["spec"]["names"]["listKind"] = json!("GadgetList");
    new["spec"]["scope"] = json!("Cluster");
    let errors: Vec<String> = validate(&new, Some(&old)).iter().map(FieldError::summary).collect();
    assert_eq!(
        errors,
        vec![
            "spec.scope: Invalid value: \"Cluster\": field is immutable",
            "spec.names.kind: Invalid value: \"Gadget\": field is immutable",
        ]
    );
}

#[test]
fn protected_groups_need_the_approval_annotation() {
    let mut crd = crd();
    crd["metadata"]["name"] = json!("widgets.x.k8s.io");
    crd["spec"]["group"] = json!("x.k8s.io");
    assert_eq!(
        found(&crd),
        vec![
            "metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111"
        ]
    );
    crd["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "unapproved, testing"});
    assert_eq!(found(&crd), Vec::<String>::new());
    crd["metadata"]["annotations"] =
        json!({"api-approved.kubernetes.io": "https://github.com/kubernetes/enhancements/pull/1111"});
    assert_eq!(found(&crd), Vec::<String>::new());
}

#[test]
fn a_stored_version_stays_until_a_migration_removes_it() {
    let mut old = crd();
    old["status"]["storedVersions"] = json!(["v1alpha1", "v1"]);
    let errors: Vec<String> = validate(&crd(), Some(&old)).iter().map(FieldError::summary).collect();
    assert_eq!(
        errors,
        [
            "status.storedVersions[0]: Invalid value: \"v1alpha1\": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions"
        ]
    );
}

#[test]
fn review_versions_are_unique_labels() {
    let mut crd = crd();
    crd["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://127.0.0.1/convert"}, "conversionReviewVersions": ["v1", "v1", "V2"]}});
    let errors = found(&crd);
    assert_eq!(
        errors[0],
        "spec.conversion.conversionReviewVersions[1]: Invalid value: \"v1\": duplicate version"
    );
    assert!(
        errors[1].starts_with("spec.conversion.conversionReviewVersions[2]: Invalid value: \"V2\": a DNS-1035 label"),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
}
