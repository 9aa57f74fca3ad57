//! The apps group's rules, with 1.32's answers (each checked against a real
//! kube-apiserver).

use serde_json::{Value, json};

use crate::Write;
use crate::testing::{errors, fields};

fn template() -> Value {
    json!({"metadata": {"labels": {"app": "x"}}, "spec": {"restartPolicy": "Always", "containers": [{"name": "c", "image": "i"}]}})
}

/// A defaulted apps/v1 object of `kind` with `spec` merged in.
fn object(kind: &str, spec: &Value) -> Value {
    let mut spec_value = json!({"selector": {"matchLabels": {"app": "x"}}, "template": template(), "replicas": 1});
    match kind {
        "Deployment" => {
            spec_value["strategy"] =
                json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}});
            spec_value["progressDeadlineSeconds"] = json!(600);
        }
        "StatefulSet" => {
            spec_value["podManagementPolicy"] = json!("OrderedReady");
            spec_value["updateStrategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}});
            spec_value["serviceName"] = json!("s");
        }
        "DaemonSet" => {
            spec_value["updateStrategy"] =
                json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}});
        }
        _ => {}
    }
    for (key, value) in spec.as_object().into_iter().flatten() {
        spec_value[key] = value.clone();
    }
    json!({"metadata": {"name": "a", "namespace": "n"}, "spec": spec_value})
}

fn check(kind: &str, spec: &Value) -> Vec<String> {
    errors("apps", "v1", kind, &object(kind, spec), Write::Create)
}

#[test]
fn valid_workloads_pass() {
    for kind in ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"] {
        assert!(
            check(kind, &json!({})).is_empty(),
            "{kind}: {:?}",
            check(kind, &json!({}))
        );
    }
}

#[test]
fn deployment_strategies_and_deadlines() {
    assert_eq!(
        check(
            "Deployment",
            &json!({"strategy": {"type": "Recreate", "rollingUpdate": {}}})
        ),
        ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]
    );
    assert_eq!(
        check("Deployment", &json!({"minReadySeconds": 700})),
        ["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"]
    );
    assert_eq!(
        check(
            "Deployment",
            &json!({"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}})
        ),
        [
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0"
        ]
    );
    assert_eq!(
        check("Deployment", &json!({"strategy": {"type": "Bogus"}})),
        [
            "spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:\"Bogus\", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: \"Recreate\", \"RollingUpdate\""
        ]
    );
}

#[test]
fn selectors_and_templates() {
    assert_eq!(
        check("Deployment", &json!({"selector": null}))[0],
        "spec.selector: Required value"
    );
    assert_eq!(
        check("ReplicaSet", &json!({"selector": {}})),
        [
            "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment"
        ]
    );
    assert_eq!(
        check(
            "Deployment",
            &json!({"template": {"metadata": {"labels": {"app": "y"}}, "spec": template()["spec"].clone()}})
        ),
        [
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"y\"}: `selector` does not match template `labels`"
        ]
    );
    let never = json!({"template": {"metadata": {"labels": {"app": "x"}}, "spec": {"restartPolicy": "Never", "activeDeadlineSeconds": 5}}});
    assert_eq!(
        check("ReplicaSet", &never),
        [
            "spec.template.spec.containers: Required value",
            "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
            "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported",
        ]
    );
}

#[test]
fn stateful_set_updates_keep_all_but_their_mutable_fields() {
    let old = object("StatefulSet", &json!({}));
    let moved = object("StatefulSet", &json!({"serviceName": "other"}));
    assert_eq!(
        errors("apps", "v1", "StatefulSet", &moved, Write::Update { old: &old }),
        [
            "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
        ]
    );
    let scaled = object("StatefulSet", &json!({"replicas": 3, "minReadySeconds": 5}));
    assert!(errors("apps", "v1", "StatefulSet", &scaled, Write::Update { old: &old }).is_empty());
    // `maxUnavailable` belongs to an alpha gate: dropped, not validated.
    let dropped = object(
        "StatefulSet",
        &json!({"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0}}}),
    );
    assert!(errors("apps", "v1", "StatefulSet", &dropped, Write::Create).is_empty());
}

#[test]
fn stateful_sets_do_not_validate_their_pod_spec() {
    let imageless = json!({"template": {"metadata": {"labels": {"app": "x"}}, "spec": {"restartPolicy": "Always", "containers": [{"name": "c"}]}}});
    assert!(check("StatefulSet", &imageless).is_empty());
    assert_eq!(
        check(
            "StatefulSet",
            &json!({"updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}})
        ),
        [
            "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'"
        ]
    );
}

#[test]
fn selectors_do_not_change_on_apps_v1() {
    let old = object("DaemonSet", &json!({}));
    let mut moved = object(
        "DaemonSet",
        &json!({"selector": {"matchLabels": {"app": "x", "b": "c"}}}),
    );
    moved["spec"]["template"]["metadata"]["labels"]["b"] = json!("c");
    moved["metadata"]["annotations"] = json!({"deprecated.daemonset.template.generation": "2"});
    let mut old = old;
    old["metadata"]["annotations"] = json!({"deprecated.daemonset.template.generation": "1"});
    assert_eq!(
        fields("apps", "v1", "DaemonSet", &moved, Write::Update { old: &old }),
        ["spec.selector"]
    );
}

#[test]
fn status_counts() {
    let mut object = object("Deployment", &json!({}));
    object["status"] = json!({"replicas": 1, "readyReplicas": 3, "availableReplicas": 4, "updatedReplicas": -1});
    let old = object.clone();
    assert_eq!(
        errors(
            "apps",
            "v1",
            "Deployment",
            &object,
            Write::Subresource {
                name: "status",
                old: &old
            }
        ),
        [
            "status.updatedReplicas: Invalid value: -1: must be greater than or equal to 0",
            "status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 4: cannot be greater than status.replicas",
            "status.availableReplicas: Invalid value: 4: cannot be greater than readyReplicas",
        ]
    );
}

#[test]
fn controller_revisions_hold_an_object() {
    let revision = json!({"metadata": {"name": "r"}, "revision": 1, "data": 5});
    assert_eq!(
        errors("apps", "v1", "ControllerRevision", &revision, Write::Create),
        ["data: Required value: data must be a valid JSON object"]
    );
    let old = json!({"metadata": {"name": "r"}, "revision": 1, "data": {"a": 1}});
    let new = json!({"metadata": {"name": "r"}, "revision": 1, "data": {"a": 2}});
    assert_eq!(
        errors("apps", "v1", "ControllerRevision", &new, Write::Update { old: &old }),
        [
            "data: Invalid value: runtime.RawExtension{Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x32, 0x7d}, Object:runtime.Object(nil)}: field is immutable"
        ]
    );
}

#[test]
fn hostile_json_never_panics() {
    for body in [
        json!(null),
        json!(5),
        json!("x"),
        json!([1]),
        json!({"spec": 7, "metadata": []}),
    ] {
        for kind in [
            "Deployment",
            "ReplicaSet",
            "StatefulSet",
            "DaemonSet",
            "ControllerRevision",
        ] {
            let _ = errors("apps", "v1", kind, &body, Write::Create);
            let _ = errors("apps", "v1", kind, &body, Write::Update { old: &body });
            let _ = errors(
                "apps",
                "v1",
                kind,
                &body,
                Write::Subresource {
                    name: "status",
                    old: &body,
                },
            );
        }
    }
}
