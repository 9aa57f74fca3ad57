//! The warnings a type's strategy sends with a write it accepts (`WarningsOnCreate`,
//! `WarningsOnUpdate`): pods and pod templates, the workloads around them, Services,
//! storage, and kube's quirks (a replication controller's update warns about its old
//! template). 1.32's wording; older servers warn of less and are skipped.

use serde_json::{Value, json};

use crate::common::{IMAGE, start};
use crate::metadata_rules::warnings;
use crate::raw::Answer;
use crate::schema_common::skip_before;
use crate::validation_core::{Body, assert_ok, create, patch, request};

/// The answer's warnings, sorted (kube walks maps in random order).
fn sorted(answer: &Answer) -> Vec<String> {
    let mut list = warnings(answer);
    list.sort();
    list
}

/// A pod template kube warns about in every way that does not depend on the kind
/// around it.
fn noisy_template() -> Value {
    json!({
        "metadata": {"labels": {"app": "w"}, "annotations": {
            "scheduler.alpha.kubernetes.io/critical-pod": "",
            "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
        }},
        "spec": {
            "nodeSelector": {"beta.kubernetes.io/os": "linux"},
            "terminationGracePeriodSeconds": -5,
            "imagePullSecrets": [{"name": "a"}, {"name": "a"}],
            "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "failure-domain.beta.kubernetes.io/zone",
                                           "whenUnsatisfiable": "DoNotSchedule"}],
            "volumes": [
                {"name": "cfg", "configMap": {"name": "m", "items": [{"key": "a", "path": "x"}, {"key": "b", "path": "x/y"}]}},
                {"name": "repo", "gitRepo": {"repository": "https://example.com/r.git"}},
                {"name": "p", "projected": {"sources": [
                    {"secret": {"name": "s", "items": [{"key": "k", "path": "token"}]}},
                    {"serviceAccountToken": {"path": "token/inner/"}},
                ]}},
            ],
            "containers": [
                {"name": "c", "image": IMAGE,
                 "resources": {"requests": {"memory": "1.5"}},
                 "env": [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}, {"name": "B", "value": "1"}, {"name": "B", "value": "$(B)x"}],
                 "ports": [{"containerPort": 80, "hostIP": "127.0.0.1"}, {"containerPort": 80}]},
            ],
        },
    })
}

/// What [`noisy_template`] is warned of, under `at` (`spec.template`).
fn noisy_warnings(at: &str) -> Vec<String> {
    let mut expected: Vec<String> = [
        format!(r#"{at}.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead"#),
        format!(r#"{at}.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead"#),
        format!(r#"{at}.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead"#),
        format!(r#"{at}.spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#),
        format!("{at}.spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod"),
        format!("{at}.spec.volumes[1].gitRepo: deprecated in v1.11"),
        r#"volume "cfg" (ConfigMap "m"): overlapping paths: "x/y" with "x""#.to_owned(),
        r#"volume "p" (Projected): overlapping paths: "token/inner" (ServiceAccountToken) with "token" (Secret "s")"#.to_owned(),
        format!(r#"{at}.spec.imagePullSecrets[1].name: duplicate name "a""#),
        format!(r#"{at}.spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer"#),
        format!(r#"{at}.spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply"#),
        format!("{at}.spec.containers[0].ports[0]: hostIP set without hostPort: {{Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:127.0.0.1}}"),
        format!("{at}.spec.containers[0].ports[1]: overlapping port definition with {at}.spec.containers[0].ports[0]"),
        format!("{at}.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"),
    ]
    .into();
    expected.sort();
    expected
}

/// A Deployment warns of a name that is no DNS label and of its template on create;
/// an update warns again only when the generation moves, as a change of replicas
/// does, through the main endpoint or `/scale` (which kube writes through the same
/// strategy).
#[tokio::test]
async fn workloads_warn_of_their_name_and_their_pod_template() {
    let env = start().await;
    if skip_before(&env, 32, "1.32's pod template warnings").await {
        return;
    }
    let client = env.client();
    let deployments = format!("/apis/apps/v1/namespaces/{}/deployments", env.namespace());
    let body = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web.v1"},
        "spec": {"selector": {"matchLabels": {"app": "w"}}, "template": noisy_template()}});
    let created = create(&client, &deployments, body).await;
    assert_ok(&created);
    let mut expected = noisy_warnings("spec.template");
    expected.push("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]".to_owned());
    expected.sort();
    assert_eq!(sorted(&created), expected);

    let labelled = patch(
        &client,
        &format!("{deployments}/web.v1"),
        json!({"metadata": {"labels": {"x": "y"}}}),
    )
    .await;
    assert_ok(&labelled);
    assert!(
        warnings(&labelled).is_empty(),
        "no generation moved: {:?}",
        warnings(&labelled)
    );
    let replicas = patch(
        &client,
        &format!("{deployments}/web.v1"),
        json!({"spec": {"replicas": 3}}),
    )
    .await;
    assert_ok(&replicas);
    assert_eq!(sorted(&replicas), noisy_warnings("spec.template"));
    let scaled = patch(
        &client,
        &format!("{deployments}/web.v1/scale"),
        json!({"spec": {"replicas": 2}}),
    )
    .await;
    assert_ok(&scaled);
    assert_eq!(scaled.body["kind"], "Scale");
    assert_eq!(sorted(&scaled), noisy_warnings("spec.template"));
    env.stop().await;
}

/// A replication controller's update warns about the template it had, not the one it
/// gets: its strategy passes them in the wrong order.
#[tokio::test]
async fn a_replication_controller_update_warns_about_its_old_template() {
    let env = start().await;
    if skip_before(&env, 32, "1.32's pod template warnings").await {
        return;
    }
    let client = env.client();
    let controllers = format!("/api/v1/namespaces/{}/replicationcontrollers", env.namespace());
    let template = |selector: Value| {
        json!({"metadata": {"labels": {"app": "r"}}, "spec": {"nodeSelector": selector,
              "containers": [{"name": "c", "image": IMAGE}]}})
    };
    let body = json!({"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc"},
        "spec": {"replicas": 0, "selector": {"app": "r"}, "template": template(json!({"beta.kubernetes.io/arch": "amd64"}))}});
    let created = create(&client, &controllers, body).await;
    assert_ok(&created);
    let arch = r#"spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead"#;
    assert_eq!(warnings(&created), [arch]);
    let fixed = patch(
        &client,
        &format!("{controllers}/rc"),
        json!({"spec": {"template": template(json!({"beta.kubernetes.io/arch": null, "kubernetes.io/arch": "amd64"}))}}),
    )
    .await;
    assert_ok(&fixed);
    assert_eq!(warnings(&fixed), [arch], "the old template's warning");
    env.stop().await;
}

/// A pod's deprecated `AppArmor` annotation becomes its container's field, with a
/// warning; a field without an annotation gets the annotation, silently.
#[tokio::test]
async fn a_pod_s_apparmor_annotation_and_field_are_made_to_agree() {
    let env = start().await;
    if skip_before(&env, 30, "the AppArmor field (1.30)").await {
        return;
    }
    let client = env.client();
    let pods = format!("/api/v1/namespaces/{}/pods", env.namespace());
    let body = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "armored", "annotations": {
        "container.apparmor.security.beta.kubernetes.io/a": "localhost/profile"}},
    "spec": {"containers": [
        {"name": "a", "image": IMAGE},
        {"name": "b", "image": IMAGE, "securityContext": {"appArmorProfile": {"type": "RuntimeDefault"}}},
    ]}});
    let created = create(&client, &pods, body).await;
    assert_ok(&created);
    assert_eq!(
        warnings(&created),
        [
            r#"metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]: deprecated since v1.30; use the "appArmorProfile" field instead"#
        ]
    );
    let pod = &created.body;
    assert_eq!(
        pod["spec"]["containers"][0]["securityContext"]["appArmorProfile"],
        json!({"type": "Localhost", "localhostProfile": "profile"})
    );
    assert_eq!(
        pod["metadata"]["annotations"]["container.apparmor.security.beta.kubernetes.io/b"],
        "runtime/default"
    );
    env.stop().await;
}

/// Services warn of addresses Go's strict parser refuses, of IPv6 ranges not written
/// canonically and of fields their type ignores; claims of fractional bytes; ingresses
/// of the class annotation; endpoint slices of FQDN addresses.
#[tokio::test]
async fn services_claims_ingresses_and_slices_warn_of_what_kube_deprecates() {
    let env = start().await;
    if skip_before(&env, 32, "1.32's warnings").await {
        return;
    }
    let client = env.client();
    let ns = env.namespace();
    let service = create(
        &client,
        &format!("/api/v1/namespaces/{ns}/services"),
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc"},
               "spec": {"ports": [{"port": 80}], "externalIPs": ["10.0.0.01"], "externalName": "example.com",
                        "type": "LoadBalancer", "loadBalancerSourceRanges": ["2001:DB8::/32"]}}),
    )
    .await;
    assert_ok(&service);
    assert_eq!(
        sorted(&service),
        [
            r#"spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("10.0.0.01"): IPv4 field has octet with leading zero"#,
            r#"spec.externalName is ignored when spec.type is not "ExternalName""#,
            r#"spec.loadBalancerSourceRanges[0]: IPv6 prefix "2001:DB8::/32" is not in RFC 5952 canonical format ("2001:db8::/32"), which may cause controller apply-loops"#,
        ]
    );
    let claim = create(
        &client,
        &format!("/api/v1/namespaces/{ns}/persistentvolumeclaims"),
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
               "metadata": {"name": "c", "annotations": {"volume.beta.kubernetes.io/storage-class": "slow"}},
               "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1.5"}}}}),
    )
    .await;
    assert_ok(&claim);
    assert_eq!(
        sorted(&claim),
        [
            r#"metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead"#,
            r#"spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer"#,
        ]
    );
    let ingress = create(
        &client,
        &format!("/apis/networking.k8s.io/v1/namespaces/{ns}/ingresses"),
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
               "metadata": {"name": "i", "annotations": {"kubernetes.io/ingress.class": "nginx"}},
               "spec": {"defaultBackend": {"service": {"name": "svc", "port": {"number": 80}}}}}),
    )
    .await;
    assert_ok(&ingress);
    assert_eq!(
        warnings(&ingress),
        [r#"annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead"#]
    );
    let slice = create(
        &client,
        &format!("/apis/discovery.k8s.io/v1/namespaces/{ns}/endpointslices"),
        json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "s"},
               "addressType": "FQDN", "endpoints": [{"addresses": ["example.com"]}]}),
    )
    .await;
    assert_ok(&slice);
    assert_eq!(warnings(&slice), ["spec.addressType: FQDN endpoints are deprecated"]);
    env.stop().await;
}

/// Owner references equal in every field are stored once, with a warning naming the
/// uid: a create says so before admission, a patch after it.
#[tokio::test]
async fn duplicate_owner_references_are_stored_once_with_a_warning() {
    let env = start().await;
    if skip_before(&env, 20, "owner reference deduplication (1.20)").await {
        return;
    }
    let client = env.client();
    let maps = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    // A real owner: the garbage collector deletes a dependent of a missing one.
    let owner = create(
        &client,
        &maps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "o"}}),
    )
    .await;
    assert_ok(&owner);
    let uid = owner.body["metadata"]["uid"].as_str().expect("a uid").to_owned();
    let owner = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": uid});
    let created = create(
        &client,
        &maps,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "d", "ownerReferences": [owner, owner]}}),
    )
    .await;
    assert_ok(&created);
    assert_eq!(created.body["metadata"]["ownerReferences"], json!([owner]));
    assert_eq!(
        warnings(&created),
        [format!(
            ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: {uid}"
        )]
    );
    let patched = patch(
        &client,
        &format!("{maps}/d"),
        json!({"metadata": {"ownerReferences": [owner, owner]}}),
    )
    .await;
    assert_ok(&patched);
    assert_eq!(patched.body["metadata"]["ownerReferences"], json!([owner]));
    assert_eq!(
        warnings(&patched),
        [format!(
            ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: {uid}"
        )]
    );
    env.stop().await;
}

/// Deleting a Job without a propagation policy warns that its pods stay (`batch/v1`
/// orphans them by default), even when there is no such Job; a policy silences it.
#[tokio::test]
async fn deleting_a_job_without_a_policy_warns_that_its_pods_stay() {
    let env = start().await;
    if skip_before(&env, 27, "the Job delete warning").await {
        return;
    }
    let client = env.client();
    let jobs = format!("/apis/batch/v1/namespaces/{}/jobs", env.namespace());
    let job = |name: &str| {
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name}, "spec": {"suspend": true,
               "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": IMAGE}]}}}})
    };
    assert_ok(&create(&client, &jobs, job("j")).await);
    let warned = "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning";
    let deleted = request(&client, http::Method::DELETE, &format!("{jobs}/j"), Body::None).await;
    assert_ok(&deleted);
    assert_eq!(warnings(&deleted), [warned]);
    let missing = request(&client, http::Method::DELETE, &format!("{jobs}/never"), Body::None).await;
    assert_eq!(missing.code, 404);
    assert_eq!(warnings(&missing), [warned]);
    assert_ok(&create(&client, &jobs, job("k")).await);
    let quiet = request(
        &client,
        http::Method::DELETE,
        &format!("{jobs}/k?propagationPolicy=Background"),
        Body::None,
    )
    .await;
    assert_ok(&quiet);
    assert!(warnings(&quiet).is_empty());
    env.stop().await;
}

/// Warnings are sent as kube's recorder writes them: once past 4,096 runes in all,
/// the warnings after are dropped (each cut to 256 runes first, which these are
/// within), so a write with many warnings is answered with the first few thousand
/// runes of them.
#[tokio::test]
async fn many_warnings_are_cut_at_the_recorder_s_budget() {
    let env = start().await;
    if skip_before(&env, 32, "1.32's pod template warnings").await {
        return;
    }
    let client = env.client();
    let env_vars: Vec<Value> = (0..80)
        .map(|i| json!({"name": format!("V{i}"), "value": "x"}))
        .collect();
    let mut doubled = env_vars.clone();
    doubled.extend(env_vars);
    let pod_templates = format!("/api/v1/namespaces/{}/podtemplates", env.namespace());
    let body = json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "noisy"},
        "template": {"spec": {"containers": [{"name": "c", "image": IMAGE, "env": doubled}]}}});
    let created = create(&client, &pod_templates, body).await;
    assert_ok(&created);
    let sent = warnings(&created);
    // The warnings kube makes, in order, and what its recorder lets through.
    let made: Vec<String> = (0..80)
        .map(|i| {
            format!(
                "template.spec.containers[0].env[{}]: hides previous definition of \"V{i}\", which may be dropped when using apply",
                80 + i
            )
        })
        .collect();
    let mut written = 0;
    let mut kept = 0;
    for text in &made {
        written += text.chars().count();
        kept += 1;
        if written > 4096 {
            break;
        }
    }
    assert_eq!(sent, made[..kept]);
    env.stop().await;
}
