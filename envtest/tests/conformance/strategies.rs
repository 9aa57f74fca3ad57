//! What the types' defaults and strategies store, and who owns it: defaults are
//! filled in as a body decodes, before the field manager records the write, so the
//! writer owns them; what a strategy or the storage adds afterwards (a Job's
//! generated selector, a Service's IP families) nobody owns. A `/status` write of a
//! built-in type keeps the metadata it changes (but for the few strategies that keep
//! their own); a CRD is answered before its names are accepted, and gets its cleanup
//! finalizer only when it is deleted; a `CertificateSigningRequest` names its
//! requester, whatever the body says, and its main endpoint changes neither spec nor
//! status.

use base64::Engine as _;
use http::Method;
use serde_json::{Value, json};

use crate::common::{start, wait_gone};
use crate::raw::send;
use crate::schema_common::server_minor;

const MANAGER: &str = "conformance-strategies";

/// The fields `manager` owns in `object`'s managed fields (as JSON text, empty when
/// it owns nothing).
fn owned_by(object: &Value, manager: &str) -> String {
    object["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["manager"] == manager)
        .map(|entry| entry["fieldsV1"].to_string())
        .collect()
}

/// Creates `body` at `path` as [`MANAGER`] and returns the stored object.
async fn create(client: &kube::Client, path: &str, body: &Value) -> Value {
    let answer = send(
        client,
        Method::POST,
        &format!("{path}?fieldManager={MANAGER}"),
        Some(body),
    )
    .await;
    assert_eq!(answer.code, 201, "create at {path}: {}", answer.body);
    answer.body
}

/// Posts `body` at `path`, which must be refused as invalid; returns the refusal.
async fn refused(client: &kube::Client, path: &str, body: &Value) -> Value {
    let answer = send(client, Method::POST, path, Some(body)).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    answer.body
}

/// Defaults of the smaller groups are stored, and owned by the object's creator.
#[tokio::test]
async fn group_defaults_are_stored_and_owned_by_the_creator() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let namespace = env.namespace();
    let policy = create(
        &client,
        &format!("/apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies"),
        &json!({"metadata": {"name": "egress"}, "spec": {"podSelector": {}, "egress": [{"ports": [{"port": 53}]}]}}),
    )
    .await;
    assert_eq!(policy["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
    assert_eq!(policy["spec"]["egress"][0]["ports"][0]["protocol"], "TCP");
    assert!(owned_by(&policy, MANAGER).contains("f:policyTypes"), "{policy}");

    let class_name = format!("defaults-{namespace}");
    let class = create(
        &client,
        "/apis/storage.k8s.io/v1/storageclasses",
        &json!({"metadata": {"name": class_name}, "provisioner": "example.com/disk"}),
    )
    .await;
    assert_eq!(
        (&class["reclaimPolicy"], &class["volumeBindingMode"]),
        (&json!("Delete"), &json!("Immediate"))
    );
    assert!(owned_by(&class, MANAGER).contains("f:reclaimPolicy"), "{class}");
    send(
        &client,
        Method::DELETE,
        &format!("/apis/storage.k8s.io/v1/storageclasses/{class_name}"),
        None,
    )
    .await;

    if minor >= 23 {
        let autoscaler = create(
            &client,
            &format!("/apis/autoscaling/v2/namespaces/{namespace}/horizontalpodautoscalers"),
            &json!({"metadata": {"name": "web"}, "spec": {
                "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                "maxReplicas": 5,
                "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300}},
            }}),
        )
        .await;
        let spec = &autoscaler["spec"];
        assert_eq!(spec["minReplicas"], 1);
        assert_eq!(spec["metrics"][0]["resource"]["name"], "cpu");
        assert_eq!(
            spec["behavior"]["scaleUp"]["policies"].as_array().map(Vec::len),
            Some(2)
        );
        assert_eq!(spec["behavior"]["scaleDown"]["stabilizationWindowSeconds"], 300);
        assert_eq!(spec["behavior"]["scaleDown"]["selectPolicy"], "Max");
        assert!(owned_by(&autoscaler, MANAGER).contains("f:scaleUp"), "{autoscaler}");
    } else {
        eprintln!("skipping autoscaling/v2 defaults: the server (1.{minor}) predates autoscaling/v2");
    }
    if minor >= 28 {
        let driver_name = format!("defaults-{namespace}.example.com");
        let driver = create(
            &client,
            "/apis/storage.k8s.io/v1/csidrivers",
            &json!({"metadata": {"name": driver_name}, "spec": {}}),
        )
        .await;
        assert_eq!(
            driver["spec"],
            json!({
                "attachRequired": true, "podInfoOnMount": false, "storageCapacity": false,
                "fsGroupPolicy": "ReadWriteOnceWithFSType", "volumeLifecycleModes": ["Persistent"],
                "requiresRepublish": false, "seLinuxMount": false,
            })
        );
        send(
            &client,
            Method::DELETE,
            &format!("/apis/storage.k8s.io/v1/csidrivers/{driver_name}"),
            None,
        )
        .await;
    } else {
        eprintln!("skipping CSIDriver defaults: the server (1.{minor}) predates several of its fields");
    }
    env.stop().await;
}

/// A persistent volume's sources take the defaults a pod volume's same-named sources
/// take: a host path's type, an RBD source's pool, user and keyring.
#[tokio::test]
async fn persistent_volume_sources_are_defaulted_as_volume_sources() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace();
    let spec = json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"]});
    let mut host = json!({"metadata": {"name": format!("host-{namespace}")}, "spec": spec});
    host["spec"]["hostPath"] = json!({"path": "/tmp/conformance"});
    let mut rbd = json!({"metadata": {"name": format!("rbd-{namespace}")}, "spec": spec});
    rbd["spec"]["rbd"] = json!({"monitors": ["10.0.0.1:6789"], "image": "disk"});
    for (volume, source, defaults) in [
        (host, "hostPath", json!({"path": "/tmp/conformance", "type": ""})),
        (
            rbd,
            "rbd",
            json!({"monitors": ["10.0.0.1:6789"], "image": "disk", "pool": "rbd", "user": "admin", "keyring": "/etc/ceph/keyring"}),
        ),
    ] {
        let stored = create(&client, "/api/v1/persistentvolumes", &volume).await;
        assert_eq!(stored["spec"][source], defaults, "{stored}");
        let name = stored["metadata"]["name"].as_str().unwrap_or_default();
        send(
            &client,
            Method::DELETE,
            &format!("/api/v1/persistentvolumes/{name}"),
            None,
        )
        .await;
    }
    env.stop().await;
}

/// A claim's and a volume's phase defaults to `Pending` as a body decodes, a status
/// write of `status: {}` included; a volume keeps its phase transition time while its
/// phase stays.
#[tokio::test]
async fn claims_and_volumes_default_their_phase_on_a_status_write() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let namespace = env.namespace();
    let claims = format!("/api/v1/namespaces/{namespace}/persistentvolumeclaims");
    let claim = json!({"metadata": {"name": "phased"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}});
    let mut written = create(&client, &claims, &claim).await;
    written["status"] = json!({"phase": null});
    let answer = send(&client, Method::PUT, &format!("{claims}/phased/status"), Some(&written)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["status"], json!({"phase": "Pending"}));

    let name = format!("phased-{namespace}");
    let volume = json!({"metadata": {"name": name},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/phased"}}});
    let mut written = create(&client, "/api/v1/persistentvolumes", &volume).await;
    let transition = written["status"]["lastPhaseTransitionTime"].clone();
    written["status"] = json!({});
    let path = format!("/api/v1/persistentvolumes/{name}");
    let answer = send(&client, Method::PUT, &format!("{path}/status"), Some(&written)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["status"]["phase"], "Pending");
    if minor >= 29 {
        assert_eq!(answer.body["status"]["lastPhaseTransitionTime"], transition);
    } else {
        eprintln!("skipping the phase transition time: the server (1.{minor}) predates it");
    }
    send(&client, Method::DELETE, &path, None).await;
    env.stop().await;
}

/// The fields of pod features that are off in 1.32 are dropped by the pod strategy,
/// and by the strategies of objects holding a pod template: dynamic resource claims
/// (the keyless claim of a new pod is no error), user namespaces, image volumes with
/// their mounts; a `procMount` is forced to `Default`.
#[tokio::test]
async fn pod_fields_of_features_that_are_off_are_dropped() {
    let env = start().await;
    let minor = server_minor(&env).await;
    if minor < 31 {
        eprintln!(
            "skipping: image volumes came in 1.31; the server (1.{minor}) decodes one as a volume with no source, an emptyDir"
        );
        env.stop().await;
        return;
    }
    let client = env.client();
    let namespace = env.namespace();
    let spec = json!({
        "containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10",
            "resources": {"claims": [{"name": "gpu"}]},
            "securityContext": {"procMount": "Unmasked"},
            "volumeMounts": [{"name": "image", "mountPath": "/image"}]}],
        "resourceClaims": [{}],
        "securityContext": {"hostUsers": false},
        "volumes": [{"name": "image", "image": {"reference": "registry.k8s.io/pause:3.10"}}]
    });
    let pod = create(
        &client,
        &format!("/api/v1/namespaces/{namespace}/pods"),
        &json!({"metadata": {"name": "gated"}, "spec": spec}),
    )
    .await;
    let kept = |spec: &Value| {
        json!({
            "claims": spec.get("resourceClaims"),
            "security": spec["securityContext"],
            "volumes": spec.get("volumes"),
            "container": [&spec["containers"][0]["resources"], &spec["containers"][0]["securityContext"], &spec["containers"][0]["volumeMounts"]],
        })
    };
    let expected =
        json!({"claims": null, "security": {}, "volumes": null, "container": [{}, {"procMount": "Default"}, null]});
    assert_eq!(kept(&pod["spec"]), expected, "{pod}");
    let deployment = create(
        &client,
        &format!("/apis/apps/v1/namespaces/{namespace}/deployments"),
        &json!({"metadata": {"name": "gated"}, "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "gated"}},
            "template": {"metadata": {"labels": {"app": "gated"}}, "spec": spec}}}),
    )
    .await;
    assert_eq!(kept(&deployment["spec"]["template"]["spec"]), expected, "{deployment}");
    env.stop().await;
}

/// An `autoscaling/v1` autoscaler gets one replica at least and an 80% CPU target as
/// its body decodes, so its writer owns both.
#[tokio::test]
async fn a_v1_autoscaler_s_defaults_are_its_writer_s() {
    let env = start().await;
    let autoscaler = create(
        &env.client(),
        &format!(
            "/apis/autoscaling/v1/namespaces/{}/horizontalpodautoscalers",
            env.namespace()
        ),
        &json!({"metadata": {"name": "v1"}, "spec": {"maxReplicas": 5,
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}}}),
    )
    .await;
    assert_eq!(autoscaler["spec"]["minReplicas"], 1);
    assert_eq!(autoscaler["spec"]["targetCPUUtilizationPercentage"], 80);
    let owned = owned_by(&autoscaler, MANAGER);
    assert!(
        owned.contains("f:minReplicas") && owned.contains("f:targetCPUUtilizationPercentage"),
        "{owned}"
    );
    env.stop().await;
}

/// A pod's quality-of-service class is backfilled by its status strategy, also when a
/// status write leaves the whole status out.
#[tokio::test]
async fn a_pod_status_write_without_a_status_keeps_the_qos_class() {
    let env = start().await;
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/pods", env.namespace());
    let mut pod = create(
        &client,
        &path,
        &json!({"metadata": {"name": "qos"}, "spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10"}]}}),
    )
    .await;
    if let Some(pod) = pod.as_object_mut() {
        pod.remove("status");
    }
    let answer = send(&client, Method::PUT, &format!("{path}/qos/status"), Some(&pod)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    let minor = server_minor(&env).await;
    if minor < 27 {
        eprintln!("skipping the backfill: the server (1.{minor}) predates the immutable class it keeps");
    } else {
        assert_eq!(answer.body["status"], json!({"qosClass": "BestEffort"}));
    }
    env.stop().await;
}

/// A container's pull policy defaults by the tag its image reference parses to:
/// `Always` for `latest` (written or implied), `IfNotPresent` for another tag, a
/// digest alone, or a reference that does not parse.
#[tokio::test]
async fn pull_policies_default_by_the_parsed_image_tag() {
    let env = start().await;
    let path = format!("/apis/apps/v1/namespaces/{}/deployments?dryRun=All", env.namespace());
    let digest = format!("example@sha256:{}", "a".repeat(64));
    let cases = [
        ("nginx", "Always"),
        ("nginx:1.27", "IfNotPresent"),
        ("Nginx", "IfNotPresent"),
        ("localhost:5000/team/app", "Always"),
        (digest.as_str(), "IfNotPresent"),
        ("a:b:c", "IfNotPresent"),
        ("a___b", "IfNotPresent"),
    ];
    for (image, policy) in cases {
        let deployment = json!({"metadata": {"name": "pulled"}, "spec": {"selector": {"matchLabels": {"app": "pulled"}},
            "template": {"metadata": {"labels": {"app": "pulled"}}, "spec": {"containers": [{"name": "app", "image": image}]}}}});
        let answer = send(&env.client(), Method::POST, &path, Some(&deployment)).await;
        assert_eq!(answer.code, 201, "{image}: {}", answer.body);
        assert_eq!(
            answer.body["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"], policy,
            "{image}"
        );
    }
    env.stop().await;
}

/// A Lease's coordination fields belong to a feature gate that is off: the strategy
/// drops them from a new Lease (an empty `preferredHolder` too) and from an updated
/// one that did not have them.
#[tokio::test]
async fn a_lease_s_coordination_fields_are_dropped() {
    let env = start().await;
    let client = env.client();
    let path = format!("/apis/coordination.k8s.io/v1/namespaces/{}/leases", env.namespace());
    let lease = json!({"metadata": {"name": "coordinated"},
        "spec": {"holderIdentity": "a", "preferredHolder": "", "strategy": "OldestEmulationVersion"}});
    let created = create(&client, &path, &lease).await;
    assert_eq!(created["spec"], json!({"holderIdentity": "a"}));
    let mut updated = created.clone();
    updated["spec"]["preferredHolder"] = json!("b");
    let answer = send(&client, Method::PUT, &format!("{path}/coordinated"), Some(&updated)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["spec"], json!({"holderIdentity": "a"}));
    env.stop().await;
}

/// What a strategy or the storage sets after the field manager ran is owned by
/// nobody: a Job's generated selector and pod labels, a Service's IP families.
#[tokio::test]
async fn fields_a_strategy_sets_are_owned_by_nobody() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace();
    let job = create(
        &client,
        &format!("/apis/batch/v1/namespaces/{namespace}/jobs"),
        &json!({"metadata": {"name": "once"}, "spec": {"template": {"spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "work", "image": crate::common::IMAGE}],
        }}}}),
    )
    .await;
    assert!(job["spec"]["selector"]["matchLabels"].is_object(), "{job}");
    let owned = owned_by(&job, MANAGER);
    assert!(owned.contains("f:backoffLimit"), "defaults are the creator's: {owned}");
    assert!(
        !owned.contains("f:selector") && !owned.contains("controller-uid"),
        "the generated selector is nobody's: {owned}"
    );
    if server_minor(&env).await >= 20 {
        let service = create(
            &client,
            &format!("/api/v1/namespaces/{namespace}/services"),
            &json!({"metadata": {"name": "web"}, "spec": {"ports": [{"port": 80}]}}),
        )
        .await;
        assert_eq!(
            service["spec"]["ipFamilies"].as_array().map(Vec::len),
            Some(1),
            "{service}"
        );
        let owned = owned_by(&service, MANAGER);
        assert!(
            owned.contains("f:sessionAffinity"),
            "defaults are the creator's: {owned}"
        );
        assert!(
            !owned.contains("f:ipFamilies"),
            "the allocated families are nobody's: {owned}"
        );
    }
    env.stop().await;
}

/// A `/status` write of a built-in object keeps the labels it changes (a Service);
/// a Deployment's status strategy keeps its labels as stored, and a custom
/// resource's keeps everything but the status.
#[tokio::test]
async fn status_writes_keep_the_metadata_their_strategy_allows() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace();
    let path = format!("/api/v1/namespaces/{namespace}/services");
    let mut service = create(
        &client,
        &path,
        &json!({"metadata": {"name": "web"}, "spec": {"ports": [{"port": 80}]}}),
    )
    .await;
    service["metadata"]["labels"] = json!({"written-through": "status"});
    let answer = send(&client, Method::PUT, &format!("{path}/web/status"), Some(&service)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["metadata"]["labels"]["written-through"], "status");

    let path = format!("/apis/apps/v1/namespaces/{namespace}/deployments");
    let mut deployment = create(
        &client,
        &path,
        &json!({"metadata": {"name": "web", "labels": {"app": "web"}}, "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": crate::common::IMAGE}]}},
        }}),
    )
    .await;
    // Unconditional (no resourceVersion): a real cluster's controllers write the
    // status too.
    if let Some(metadata) = deployment["metadata"].as_object_mut() {
        metadata.remove("resourceVersion");
    }
    deployment["metadata"]["labels"] = json!({"app": "web", "written-through": "status"});
    deployment["metadata"]["annotations"] = json!({"written-through": "status"});
    let answer = send(&client, Method::PUT, &format!("{path}/web/status"), Some(&deployment)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(answer.body["metadata"]["annotations"]["written-through"], "status");
    env.stop().await;
}

/// A CRD's create is answered with the status its strategy gives (no names accepted
/// yet), and it is established right after; it carries no finalizer until it is
/// deleted, when the cleanup finalizer and a `Terminating` condition are added.
#[tokio::test]
async fn a_crd_is_answered_before_it_is_established_and_finalized_only_when_deleted() {
    let env = start().await;
    let client = env.client();
    let group = format!("{}.strategies.wheelhouse.rs", env.namespace());
    let name = format!("gadgets.{group}");
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": name},
        "spec": {
            "group": group,
            "names": {"kind": "Gadget", "plural": "gadgets"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}],
        },
    });
    let path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    let created = create(&client, path, &crd).await;
    assert_eq!(created["status"]["acceptedNames"], json!({"kind": "", "plural": ""}));
    assert!(created["status"]["conditions"].is_null(), "{}", created["status"]);
    assert_eq!(created["status"]["storedVersions"], json!(["v1"]));
    // The definition's defaults are filled in as the body decodes: its creator owns them.
    let owned: Value = serde_json::from_str(&owned_by(&created, MANAGER)).unwrap_or_default();
    assert_eq!(
        owned["f:spec"]["f:conversion"],
        json!({".": {}, "f:strategy": {}}),
        "{owned}"
    );
    assert_eq!(
        owned["f:spec"]["f:names"],
        json!({"f:kind": {}, "f:listKind": {}, "f:plural": {}, "f:singular": {}}),
        "{owned}"
    );
    assert!(
        created["metadata"].get("finalizers").is_none(),
        "{}",
        created["metadata"]
    );
    crate::common::eventually("the CRD to be established", || async {
        let answer = send(&client, Method::GET, &format!("{path}/{name}"), None).await;
        answer.body["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "Established" && c["status"] == "True"))
            .then_some(())
    })
    .await;
    let deleted = send(&client, Method::DELETE, &format!("{path}/{name}"), None).await;
    assert_eq!(deleted.code, 200, "{}", deleted.body);
    assert_eq!(
        deleted.body["metadata"]["finalizers"],
        json!(["customresourcecleanup.apiextensions.k8s.io"])
    );
    let terminating = deleted.body["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == "Terminating")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (&terminating["status"], &terminating["reason"]),
        (&json!("True"), &json!("InstanceDeletionPending"))
    );
    let crds: kube::Api<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition> =
        kube::Api::all(client.clone());
    wait_gone(&crds, &name).await;
    env.stop().await;
}

/// A Node keeps the status it is created with (the kubelet registers its node with
/// one), and admission taints it not ready.
#[tokio::test]
async fn a_node_keeps_the_status_it_is_created_with() {
    let env = start().await;
    let client = env.client();
    let name = format!("strategies-{}", env.namespace());
    let node = create(
        &client,
        "/api/v1/nodes",
        &json!({"metadata": {"name": name}, "status": {"capacity": {"cpu": "4", "pods": "110"}}}),
    )
    .await;
    assert_eq!(node["status"]["capacity"], json!({"cpu": "4", "pods": "110"}));
    // `TaintNodesByCondition`: not ready until the node lifecycle controller sees it so.
    assert_eq!(
        node["spec"]["taints"],
        json!([{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"}])
    );
    send(&client, Method::DELETE, &format!("/api/v1/nodes/{name}"), None).await;
    env.stop().await;
}

/// An events.k8s.io Event is validated as the core Event it is stored as, so a
/// refusal names the core kind, without a group.
#[tokio::test]
async fn an_invalid_events_api_event_is_refused_as_a_core_event() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace();
    let refusal = refused(
        &client,
        &format!("/apis/events.k8s.io/v1/namespaces/{namespace}/events"),
        &json!({"metadata": {"name": "started"}, "eventTime": "2024-01-02T03:04:05.000000Z",
            "reportingController": "example.com/controller", "reportingInstance": "one",
            "action": "Started", "reason": "Started", "type": "Bogus",
            "regarding": {"kind": "Pod", "name": "web", "namespace": namespace}}),
    )
    .await;
    let message = refusal["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("Event \"started\" is invalid: "), "{message}");
    assert!(refusal["details"].get("group").is_none(), "{refusal}");
    env.stop().await;
}

/// A workload without a pod template is defaulted as Go decodes it, a zero template
/// with a zero pod spec, so it is refused for its missing containers, never for a
/// restart policy its defaults would have set.
#[tokio::test]
async fn a_workload_without_a_template_is_refused_for_its_containers() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace();
    let refusal = refused(
        &client,
        &format!("/apis/apps/v1/namespaces/{namespace}/deployments"),
        &json!({"metadata": {"name": "bare"}}),
    )
    .await;
    let message = refusal["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("spec.template.spec.containers: Required value"),
        "{message}"
    );
    assert!(!message.contains("restartPolicy"), "{message}");
    env.stop().await;
}

/// A `CertificateSigningRequest`'s user fields are the requester's, not the body's,
/// and an update through its main endpoint keeps the stored spec (its strategy's
/// `PrepareForCreate` and `PrepareForUpdate`).
#[tokio::test]
async fn a_csr_names_its_requester_and_its_spec_is_kept_on_update() {
    let env = start().await;
    let client = env.client();
    let name = format!("strategies-{}", env.namespace());
    let path = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    let usages = json!(["digital signature", "key encipherment", "client auth"]);
    let csr = create(
        &client,
        path,
        &json!({"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
            "metadata": {"name": name},
            "spec": {"request": base64::engine::general_purpose::STANDARD.encode(crate::catalogue::csr_pem()),
                "signerName": "example.com/signer", "usages": usages,
                "username": "mallory", "uid": "mallory", "groups": ["mallory"], "extra": {"k": ["v"]}}}),
    )
    .await;
    let spec = &csr["spec"];
    let user = spec["username"].as_str().unwrap_or_default();
    assert!(
        !user.is_empty() && user != "mallory",
        "the requester, not the body: {spec}"
    );
    assert!(
        spec["groups"]
            .as_array()
            .is_some_and(|g| g.contains(&json!("system:masters"))),
        "the requester's groups: {spec}"
    );
    assert!(spec.get("extra").is_none(), "no extra for a requester without: {spec}");
    let mut changed = csr.clone();
    changed["spec"]["usages"] = json!(["server auth"]);
    changed["spec"]["signerName"] = Value::Null;
    changed["metadata"]["labels"] = json!({"changed": "yes"});
    let answer = send(&client, Method::PUT, &format!("{path}/{name}"), Some(&changed)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["spec"], csr["spec"], "the spec is kept");
    assert_eq!(answer.body["metadata"]["labels"], json!({"changed": "yes"}));
    send(&client, Method::DELETE, &format!("{path}/{name}"), None).await;
    env.stop().await;
}
