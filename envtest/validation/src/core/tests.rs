//! Tests of the core kinds through [`crate::validate`], with cases from kube's
//! `validation_test.go` and answers checked against a real 1.32 (objects are given
//! as the server holds them after defaulting).

use serde_json::{Value, json};

use crate::field::ErrorList;
use crate::{Kind, Write, validate};

fn kind(name: &'static str, namespaced: bool) -> Kind<'static> {
    Kind {
        group: "",
        version: "v1",
        kind: name,
        namespaced,
    }
}

fn errors(kind_name: &'static str, object: &Value, write: Write) -> Vec<String> {
    let namespaced = !matches!(kind_name, "Node" | "Namespace" | "PersistentVolume");
    let found: ErrorList = validate(&kind(kind_name, namespaced), object, write);
    found.iter().map(|e| format!("{}: {}", e.field, e.body())).collect()
}

fn created(kind_name: &'static str, object: &Value) -> Vec<String> {
    errors(kind_name, object, Write::Create)
}

fn updated(kind_name: &'static str, new: &Value, old: &Value) -> Vec<String> {
    errors(kind_name, new, Write::Update { old })
}

/// A pod as the server holds it after defaulting.
fn pod(spec: &Value) -> Value {
    let mut pod = json!({"metadata": {"name": "p", "namespace": "ns", "uid": "u", "resourceVersion": "1"},
        "spec": {"restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30,
            "securityContext": {}, "schedulerName": "default-scheduler",
            "containers": [container("c")]},
        "status": {"phase": "Pending", "qosClass": "BestEffort"}});
    for (key, value) in spec.as_object().into_iter().flatten() {
        pod["spec"][key.as_str()] = value.clone();
    }
    pod
}

fn container(name: &str) -> Value {
    json!({"name": name, "image": "nginx", "imagePullPolicy": "Always", "terminationMessagePolicy": "File",
        "terminationMessagePath": "/dev/termination-log", "resources": {}})
}

#[test]
fn a_defaulted_pod_is_valid() {
    assert_eq!(created("Pod", &pod(&json!({}))), Vec::<String>::new());
}

#[test]
fn containers_are_named_once_with_ports_in_range_and_requests_within_limits() {
    let mut second = container("c");
    second["ports"] = json!([{"containerPort": 70000, "protocol": "TCP"}, {"containerPort": 80, "protocol": "ICMP"}]);
    second["resources"] = json!({"limits": {"cpu": "500m"}, "requests": {"cpu": "1"}});
    let found = created("Pod", &pod(&json!({"containers": [container("c"), second]})));
    assert_eq!(
        found,
        vec![
            "spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
            "spec.containers[1].ports[1].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            "spec.containers[1].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m",
            "spec.containers[1].name: Duplicate value: \"c\"",
        ]
    );
}

#[test]
fn ephemeral_containers_wait_for_their_subresource() {
    let spec = json!({"ephemeralContainers": [{"name": "e", "image": "busybox", "imagePullPolicy": "Always", "terminationMessagePolicy": "File"}]});
    assert_eq!(
        created("Pod", &pod(&spec)),
        vec!["spec.ephemeralContainers: Forbidden: cannot be set on create"]
    );
    let old = pod(&json!({}));
    let new = pod(&spec);
    let write = Write::Subresource {
        name: "ephemeralcontainers",
        old: &old,
    };
    assert_eq!(errors("Pod", &new, write), Vec::<String>::new());
    let removed = Write::Subresource {
        name: "ephemeralcontainers",
        old: &new,
    };
    assert_eq!(
        errors("Pod", &old, removed),
        vec!["spec.ephemeralContainers: Forbidden: existing ephemeral containers \"e\" may not be removed\n"]
    );
}

#[test]
fn pod_updates_change_only_what_kube_lets_them() {
    let old = pod(&json!({"activeDeadlineSeconds": 100}));
    let mut image = old.clone();
    image["spec"]["containers"][0]["image"] = json!("nginx:2");
    image["spec"]["activeDeadlineSeconds"] = json!(50);
    assert_eq!(updated("Pod", &image, &old), Vec::<String>::new());
    let mut renamed = old.clone();
    renamed["spec"]["hostname"] = json!("x");
    let found = updated("Pod", &renamed, &old);
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .starts_with("spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`")
    );
    let mut longer = old.clone();
    longer["spec"]["activeDeadlineSeconds"] = json!(200);
    assert_eq!(
        updated("Pod", &longer, &old),
        vec!["spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value"]
    );
    let mut more = old.clone();
    more["spec"]["containers"] = json!([container("c"), container("d")]);
    assert_eq!(
        updated("Pod", &more, &old),
        vec!["spec.containers: Forbidden: pod updates may not add or remove containers"]
    );
}

#[test]
fn pod_status_needs_ips_and_keeps_its_class() {
    let old = pod(&json!({}));
    let mut new = old.clone();
    new["status"]["podIP"] = json!("not-an-ip");
    new["status"]["qosClass"] = json!("Guaranteed");
    let write = Write::Subresource {
        name: "status",
        old: &old,
    };
    assert_eq!(
        errors("Pod", &new, write),
        vec![
            "status.qosClass: Invalid value: \"Guaranteed\": field is immutable",
            "status.podIPs[0]: Invalid value: \"not-an-ip\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
        ]
    );
}

#[test]
fn bindings_name_a_node() {
    assert_eq!(
        created("Binding", &json!({"target": {"kind": "Pod"}})),
        vec![
            "target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\"",
            "target.name: Required value",
        ]
    );
}

#[test]
fn templates_take_no_ephemeral_containers() {
    let template = json!({"metadata": {"labels": {"a": "b"}}, "spec": pod(&json!({"ephemeralContainers": [
        {"name": "e", "image": "x", "imagePullPolicy": "Always", "terminationMessagePolicy": "File"}]}))["spec"]});
    let found = crate::core::validate_pod_template_spec(&template, &crate::field::Path::new("spec.template"));
    let printed: Vec<String> = found.iter().map(|e| format!("{}: {}", e.field, e.body())).collect();
    assert_eq!(
        printed,
        vec!["spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"]
    );
}

fn service(spec: &Value) -> Value {
    let mut service = json!({"metadata": {"name": "s", "namespace": "ns", "uid": "u", "resourceVersion": "1"},
        "spec": {"type": "ClusterIP", "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
            "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack"}});
    for (key, value) in spec.as_object().into_iter().flatten() {
        service["spec"][key.as_str()] = value.clone();
    }
    service
}

#[test]
fn services_name_ports_and_point_external_names_somewhere() {
    let ports =
        json!([{"port": 80, "protocol": "TCP", "targetPort": 80}, {"port": 80, "protocol": "TCP", "targetPort": 80}]);
    assert_eq!(
        created("Service", &service(&json!({"ports": ports}))),
        vec![
            "spec.ports[0].name: Required value",
            "spec.ports[1].name: Required value",
            "spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}",
        ]
    );
    let external = json!({"metadata": {"name": "s", "namespace": "ns"}, "spec": {"type": "ExternalName", "sessionAffinity": "None"}});
    assert_eq!(created("Service", &external), vec!["spec.externalName: Required value"]);
}

#[test]
fn cluster_ips_stay_once_set() {
    let old = service(&json!({"ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}],
        "clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"]}));
    let mut new = old.clone();
    new["spec"]["clusterIP"] = json!("10.0.0.2");
    new["spec"]["clusterIPs"] = json!(["10.0.0.2"]);
    assert_eq!(
        updated("Service", &new, &old),
        vec!["spec.clusterIPs[0]: Invalid value: []string{\"10.0.0.2\"}: may not change once set"]
    );
}

#[test]
fn secrets_carry_what_their_type_requires() {
    let secret =
        |kind: &str, data: Value| json!({"metadata": {"name": "s", "namespace": "ns"}, "type": kind, "data": data});
    assert_eq!(
        created("Secret", &secret("kubernetes.io/tls", json!({"tls.crt": "eA=="}))),
        vec!["data[tls.key]: Required value"]
    );
    assert_eq!(
        created(
            "Secret",
            &secret("kubernetes.io/dockerconfigjson", json!({".dockerconfigjson": "WzFd"}))
        ),
        vec![
            "data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": json: cannot unmarshal array into Go value of type map[string]interface {}"
        ]
    );
    let old = secret("Opaque", json!({}));
    let new = secret("kubernetes.io/tls", json!({"tls.crt": "eA==", "tls.key": "eA=="}));
    assert_eq!(
        updated("Secret", &new, &old),
        vec!["type: Invalid value: \"kubernetes.io/tls\": field is immutable"]
    );
}

#[test]
fn config_maps_stay_within_a_mebibyte() {
    let big = json!({"metadata": {"name": "c", "namespace": "ns"}, "data": {"a": "x".repeat(1024 * 1024 + 1)}});
    assert_eq!(
        created("ConfigMap", &big),
        vec!["[]: Too long: may not be more than 1048576 bytes"]
    );
}

#[test]
fn claims_keep_their_spec_while_unbound() {
    let claim = |size: &str| {
        json!({"metadata": {"name": "c", "namespace": "ns"}, "spec": {"accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": size}}, "volumeMode": "Filesystem"}, "status": {"phase": "Pending"}})
    };
    let found = updated("PersistentVolumeClaim", &claim("2Gi"), &claim("1Gi"));
    assert_eq!(found.len(), 1);
    assert!(found[0].starts_with(
        "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"
    ));
    let mut bound = claim("1Gi");
    bound["status"] = json!({"phase": "Bound", "capacity": {"storage": "1Gi"}});
    let mut grown = bound.clone();
    grown["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
    assert_eq!(updated("PersistentVolumeClaim", &grown, &bound), Vec::<String>::new());
}

#[test]
fn nodes_keep_pod_cidrs_and_use_known_taint_effects() {
    let node = |cidr: &str| json!({"metadata": {"name": "n"}, "spec": {"podCIDR": cidr, "podCIDRs": [cidr], "taints": [{"key": "a", "effect": "Bogus"}]}});
    assert_eq!(
        created("Node", &node("10.0.0.0/24")),
        vec![
            "metadata.taints[0].effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
        ]
    );
    let found = updated("Node", &node("10.0.1.0/24"), &node("10.0.0.0/24"));
    assert!(found.contains(
        &"spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid".to_owned()
    ));
}

#[test]
fn namespaces_finalize_with_qualified_names() {
    let old = json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}});
    let new =
        json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["bad", "a/b/c"]}, "status": {"phase": "Active"}});
    let found = errors(
        "Namespace",
        &new,
        Write::Subresource {
            name: "finalize",
            old: &old,
        },
    );
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[0],
        "spec.finalizers[0]: Invalid value: \"bad\": name is neither a standard finalizer name nor is it fully qualified"
    );
    let mut terminating = old.clone();
    terminating["status"]["phase"] = json!("Terminating");
    let status = errors(
        "Namespace",
        &terminating,
        Write::Subresource {
            name: "status",
            old: &old,
        },
    );
    assert_eq!(
        status,
        vec!["status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"]
    );
}

#[test]
fn limit_ranges_default_within_max() {
    let range = json!({"metadata": {"name": "l", "namespace": "ns"}, "spec": {"limits": [{"type": "Container",
        "max": {"cpu": "1"}, "default": {"cpu": "2"}, "defaultRequest": {"cpu": "2"}}]}});
    assert_eq!(
        created("LimitRange", &range),
        vec![
            "spec.limits[0].defaultRequest[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"2\", Format:\"DecimalSI\"}: default request value 2 is greater than max value 1",
            "spec.limits[0].default[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"1\", Format:\"DecimalSI\"}: default value 2 is greater than max value 1",
        ]
    );
}

#[test]
fn quotas_name_standard_resources_and_compatible_scopes() {
    let quota = json!({"metadata": {"name": "q", "namespace": "ns"}, "spec": {"hard": {"bogus": "1", "pods": "1.5"}, "scopes": ["Terminating", "NotTerminating"]}});
    assert_eq!(
        created("ResourceQuota", &quota),
        vec![
            "spec.hard[bogus]: Invalid value: bogus: must be a standard resource type or fully qualified",
            "spec.hard[bogus]: Invalid value: bogus: must be a standard resource for quota",
            "spec.hard[pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"\", Format:\"DecimalSI\"}: must be an integer",
            "spec.scopes: Invalid value: []core.ResourceQuotaScope{\"Terminating\", \"NotTerminating\"}: conflicting scopes",
        ]
    );
}

#[test]
fn core_events_keep_the_legacy_rules_only() {
    let event =
        json!({"metadata": {"name": "Not_A_DNS_Name", "namespace": "ns"}, "involvedObject": {"namespace": "other"}});
    assert_eq!(
        created("Event", &event),
        vec!["involvedObject.namespace: Invalid value: \"other\": does not match event.namespace"]
    );
    let new = json!({"metadata": {"name": "e", "namespace": "ns"}, "involvedObject": {"namespace": "ns"},
        "eventTime": "2024-01-01T00:00:00.000000Z"});
    let found = created("Event", &new);
    assert!(
        found.contains(&"reportingComponent: Required value".to_owned()),
        "{found:?}"
    );
}

#[test]
fn replication_controllers_select_their_template() {
    let controller = json!({"metadata": {"name": "r", "namespace": "ns"}, "spec": {"replicas": 1, "selector": {"a": "b"},
        "template": {"metadata": {"labels": {"a": "c"}}, "spec": pod(&json!({}))["spec"]}}});
    assert_eq!(
        created("ReplicationController", &controller),
        vec![
            "spec.template.metadata.labels: Invalid value: map[string]string{\"a\":\"c\"}: `selector` does not match template `labels`"
        ]
    );
}

#[test]
fn odd_json_never_panics() {
    let odd = [
        json!(null),
        json!([]),
        json!("x"),
        json!({"metadata": 5, "spec": []}),
        json!({"spec": {"containers": [5, null, {"name": 7, "ports": "x", "resources": {"limits": {"cpu": "bad"}}}], "volumes": [{}]}}),
        json!({"spec": {"ports": [{"port": "x"}], "clusterIPs": [1, 2, 3], "type": 4}}),
        json!({"data": {"a": 5}, "type": "kubernetes.io/tls"}),
    ];
    for kind_name in [
        "Pod",
        "Service",
        "Secret",
        "ConfigMap",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "Node",
        "Namespace",
        "LimitRange",
        "ResourceQuota",
        "ReplicationController",
        "PodTemplate",
        "Endpoints",
        "Event",
        "ServiceAccount",
        "Binding",
    ] {
        for object in &odd {
            let _ = created(kind_name, object);
            let _ = updated(kind_name, object, &odd[4]);
            for name in ["status", "finalize", "ephemeralcontainers", "resize", "scale"] {
                let _ = errors(kind_name, object, Write::Subresource { name, old: &odd[3] });
            }
        }
    }
}

/// An invalid label on a volume or claim update is reported by every function kube
/// runs that validates the new object's metadata, as 1.32 reports it (4 and 5 times,
/// checked against a real server): `validateCommonFields` twice, then for a volume
/// the strategy's `ValidatePersistentVolume` and the one `ValidatePersistentVolumeUpdate`
/// runs; for a claim the strategy's `ValidatePersistentVolumeClaim` and
/// `ValidatePersistentVolumeClaimUpdate`'s metadata and claim checks.
#[test]
fn volume_and_claim_updates_report_each_validation_kube_runs() {
    let volume = |labels: Value| {
        json!({"metadata": {"name": "v", "uid": "u", "resourceVersion": "1", "labels": labels},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/x", "type": ""},
                "persistentVolumeReclaimPolicy": "Retain", "volumeMode": "Filesystem"},
            "status": {"phase": "Pending"}})
    };
    let bad = json!({"-a": "b"});
    let found = updated("PersistentVolume", &volume(bad.clone()), &volume(json!({})));
    assert_eq!(
        found.iter().filter(|e| e.starts_with("metadata.labels")).count(),
        4,
        "{found:?}"
    );
    let claim = |labels: Value| {
        json!({"metadata": {"name": "c", "namespace": "ns", "uid": "u", "resourceVersion": "1", "labels": labels},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, "volumeMode": "Filesystem"},
            "status": {"phase": "Pending"}})
    };
    let found = updated("PersistentVolumeClaim", &claim(bad), &claim(json!({})));
    assert_eq!(
        found.iter().filter(|e| e.starts_with("metadata.labels")).count(),
        5,
        "{found:?}"
    );
}

/// Mount options in the beta annotation only for the sources that take them
/// (`checkMountOption`).
#[test]
fn mount_options_are_refused_on_volumes_that_take_none() {
    let volume = |source: (&str, Value)| {
        let mut volume = json!({"metadata": {"name": "v", "annotations": {"volume.beta.kubernetes.io/mount-options": "ro"}},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                "persistentVolumeReclaimPolicy": "Retain", "volumeMode": "Filesystem"}});
        volume["spec"][source.0] = source.1;
        volume
    };
    assert_eq!(
        created(
            "PersistentVolume",
            &volume(("hostPath", json!({"path": "/x", "type": ""})))
        ),
        [
            "metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type"
        ]
    );
    assert_eq!(
        created(
            "PersistentVolume",
            &volume(("nfs", json!({"server": "s", "path": "/x"})))
        ),
        Vec::<String>::new()
    );
}
