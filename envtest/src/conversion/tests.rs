//! The checks a conversion webhook's answer goes through, and what of it is kept.

use serde_json::json;

use super::*;

#[test]
fn only_labels_and_annotations_come_from_the_webhook() {
    let original = json!({"apiVersion": "example.com/v1", "kind": "WebApp",
        "metadata": {"name": "a", "namespace": "ns", "uid": "u", "resourceVersion": "7", "labels": {"app": "a"}},
        "spec": {"replicas": 2}});
    let mut converted = json!({"apiVersion": "example.com/v2", "kind": "WebApp",
        "metadata": {"name": "a", "namespace": "ns", "uid": "u", "resourceVersion": "99", "generation": 5,
            "annotations": {"converted": "yes"}},
        "spec": {"size": 2}});
    check_converted(&original, &converted, "example.com/v2").unwrap();
    same_identity(&original, &converted).unwrap();
    restore_metadata(&original, &mut converted).unwrap();
    assert_eq!(
        converted["metadata"],
        json!({"name": "a", "namespace": "ns", "uid": "u", "resourceVersion": "7", "annotations": {"converted": "yes"}}),
        "the original metadata, the webhook's annotations, and no labels since the answer had none"
    );
    assert_eq!(converted["spec"], json!({"size": 2}));
}

#[test]
fn a_webhook_may_not_change_what_the_object_is() {
    let original = json!({"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "a", "uid": "u"}});
    let renamed = json!({"apiVersion": "example.com/v2", "kind": "WebApp", "metadata": {"name": "b", "uid": "u"}});
    assert_eq!(
        same_identity(&original, &renamed).unwrap_err(),
        "must have the same name: a != b"
    );
    assert_eq!(
        check_converted(&original, &renamed, "example.com/v3").unwrap_err(),
        "invalid groupVersion (expected example.com/v3, received example.com/v2)"
    );
    let other_kind = json!({"apiVersion": "example.com/v2", "kind": "Other", "metadata": {"name": "a", "uid": "u"}});
    assert_eq!(
        check_converted(&original, &other_kind, "example.com/v2").unwrap_err(),
        "invalid kind (expected WebApp, received Other)"
    );
    let mut bad_label = json!({"apiVersion": "example.com/v2", "kind": "WebApp", "metadata": {"labels": {"n": 1}}});
    assert_eq!(
        restore_metadata(&original, &mut bad_label).unwrap_err(),
        "metadata.labels[n] must be a string, but is int64 in converted object"
    );
    let mut no_metadata = json!({"apiVersion": "example.com/v2", "kind": "WebApp"});
    assert_eq!(
        restore_metadata(&original, &mut no_metadata).unwrap_err(),
        "missing metadata in converted object"
    );
}

#[test]
fn only_crds_with_a_webhook_call_it() {
    let crd = |strategy: serde_json::Value| {
        json!({"metadata": {"name": "webapps.example.com"}, "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "webapps", "kind": "WebApp"}, "conversion": strategy,
            "versions": [{"name": "v1", "served": true, "storage": true}, {"name": "v2", "served": true, "storage": false}]}})
    };
    let webhook = crd(
        json!({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
        "clientConfig": {"url": "https://127.0.0.1:1/convert"}}}),
    );
    let types = crate::resources::registry::crd_types(&webhook).unwrap();
    let by_version = |v: &str| types.iter().find(|t| t.version == v).unwrap();
    assert!(by_webhook(by_version("v1")), "objects stored before may be in v2");
    assert!(by_webhook(by_version("v2")));
    let none = crate::resources::registry::crd_types(&crd(json!({"strategy": "None"}))).unwrap();
    assert!(none.iter().all(|t| !by_webhook(t)));
    assert_eq!(none[0].versions.as_ref().unwrap().storage_version, "v1");
}
