//! The validation kube-apiserver runs on Pods (`ValidatePodCreate`, `ValidatePodUpdate`,
//! `ValidatePodStatusUpdate`): containers, ports, resources, what an update may change
//! and a status's addresses, answered as 1.32 answers (see `validation_core` for the
//! harness and how messages compare).

use serde_json::{Value, json};

use crate::common::start;
use crate::schema_common::{server_minor, skip_before};
use crate::validation_core::{assert_invalid, assert_invalid_at, assert_ok, create, patch};

fn pod(name: &str, spec: &Value) -> Value {
    let mut pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
        "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10"}]}});
    if let (Some(target), Some(extra)) = (pod["spec"].as_object_mut(), spec.as_object()) {
        for (key, value) in extra {
            target.insert(key.clone(), value.clone());
        }
    }
    pod
}

fn pods(env: &wheelhouse_envtest::TestEnv) -> String {
    format!("/api/v1/namespaces/{}/pods", env.namespace())
}

#[tokio::test]
async fn containers_need_unique_names_and_ports_in_range() {
    let env = start().await;
    let client = env.client();
    let twice = create(
        &client,
        &pods(&env),
        pod(
            "twice",
            &json!({"containers": [{"name": "c", "image": "x"}, {"name": "c", "image": "x"}]}),
        ),
    )
    .await;
    assert_invalid(
        &twice,
        &[(
            "spec.containers[1].name",
            "FieldValueDuplicate",
            "Duplicate value: \"c\"",
        )],
    );
    let ports = create(
        &client,
        &pods(&env),
        pod("ports", &json!({"containers": [{"name": "c", "image": "x", "ports": [{"containerPort": 70000}, {"containerPort": 80, "name": "Bad_Name"}]}]})),
    )
    .await;
    assert_invalid(
        &ports,
        &[
            (
                "spec.containers[0].ports[0].containerPort",
                "FieldValueInvalid",
                "Invalid value: 70000: must be between 1 and 65535, inclusive",
            ),
            (
                "spec.containers[0].ports[1].name",
                "FieldValueInvalid",
                "Invalid value: \"Bad_Name\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
            ),
        ],
    );
    let empty = create(&client, &pods(&env), pod("empty", &json!({"containers": []}))).await;
    assert_invalid(&empty, &[("spec.containers", "FieldValueRequired", "Required value")]);
    env.stop().await;
}

#[tokio::test]
async fn requests_may_not_exceed_limits() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let answer = create(
        &client,
        &pods(&env),
        pod(
            "greedy",
            &json!({"containers": [{"name": "c", "image": "x",
            "resources": {"limits": {"cpu": "500m", "memory": "1Gi"}, "requests": {"cpu": "1", "memory": "2Gi"}}}]}),
        ),
    )
    .await;
    // 1.19 did not name the limit.
    let (cpu, memory) = if minor < 20 {
        (
            "must be less than or equal to cpu limit",
            "must be less than or equal to memory limit",
        )
    } else {
        (
            "must be less than or equal to cpu limit of 500m",
            "must be less than or equal to memory limit of 1Gi",
        )
    };
    assert_invalid(
        &answer,
        &[
            (
                "spec.containers[0].resources.requests",
                "FieldValueInvalid",
                &format!("Invalid value: \"1\": {cpu}"),
            ),
            (
                "spec.containers[0].resources.requests",
                "FieldValueInvalid",
                &format!("Invalid value: \"2Gi\": {memory}"),
            ),
        ],
    );
    env.stop().await;
}

#[tokio::test]
async fn ephemeral_containers_are_not_given_on_create() {
    let env = start().await;
    let client = env.client();
    if server_minor(&env).await < 23 {
        eprintln!("skipped: ephemeral containers need Kubernetes 1.23 (1.19 drops the field with its gate off)");
        env.stop().await;
        return;
    }
    let answer = create(
        &client,
        &pods(&env),
        pod(
            "ephemeral",
            &json!({"ephemeralContainers": [{"name": "e", "image": "busybox"}]}),
        ),
    )
    .await;
    assert_invalid(
        &answer,
        &[(
            "spec.ephemeralContainers",
            "FieldValueForbidden",
            "Forbidden: cannot be set on create",
        )],
    );
    env.stop().await;
}

#[tokio::test]
async fn pod_updates_change_images_deadlines_and_tolerations_only() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    let path = |name: &str| format!("{}/{name}", pods(&env));
    assert_ok(
        &create(
            &client,
            &pods(&env),
            pod("steady", &json!({"activeDeadlineSeconds": 100})),
        )
        .await,
    );
    let renamed = patch(&client, &path("steady"), json!({"spec": {"hostname": "elsewhere"}})).await;
    if minor < 20 {
        assert_invalid_at(&renamed, &[("spec", "FieldValueForbidden")]);
    } else {
        assert_invalid(
            &renamed,
            &[(
                "spec",
                "FieldValueForbidden",
                "Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
            )],
        );
    }
    let longer = patch(
        &client,
        &path("steady"),
        json!({"spec": {"activeDeadlineSeconds": 200}}),
    )
    .await;
    assert_invalid(
        &longer,
        &[(
            "spec.activeDeadlineSeconds",
            "FieldValueInvalid",
            "Invalid value: 200: must be less than or equal to previous value",
        )],
    );
    let image = json!({"spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9"}],
        "activeDeadlineSeconds": 50, "tolerations": [{"key": "example.com/added", "operator": "Exists"}]}});
    assert_ok(&patch(&client, &path("steady"), image).await);
    env.stop().await;
}

/// go-cmp's report as kube-apiserver prints it, with its indentation made plain: go-cmp
/// draws once per process whether a line's marker is followed by a space or a
/// non-breaking space, so that nobody depends on its output.
fn go_cmp_report(answer: &crate::raw::Answer) -> String {
    let message = answer.body["message"].as_str().unwrap_or_default();
    let report = message.split_once('\n').map_or("", |(_, report)| report);
    report
        .split('\n')
        .map(|line| {
            let mut chars = line.chars();
            match (chars.next(), chars.next()) {
                (Some(mark @ ('\u{a0}' | '-' | '+')), Some('\u{a0}')) => {
                    format!("{} {}", if mark == '\u{a0}' { ' ' } else { mark }, chars.as_str())
                }
                _ => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A refused pod update ends with go-cmp's report of the stored spec against the
/// munged new one, both as kube's internal Go types: fields in their declaration
/// order, runs of equal fields elided, nested values at go-cmp's verbosity. 1.19
/// printed another diff, and each version's internal types have their own fields, so
/// the report is checked from 1.32 on.
#[tokio::test]
async fn refused_pod_updates_end_with_go_cmps_report() {
    let env = start().await;
    if skip_before(&env, 32, "go-cmp's report of 1.32's internal pod spec").await {
        return;
    }
    let client = env.client();
    let path = |name: &str| format!("{}/{name}", pods(&env));
    let spec = json!({"hostname": "web", "volumes": [{"name": "scratch", "emptyDir": {"sizeLimit": "64Mi"}}],
        "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "args": ["--verbose"],
            "resources": {"requests": {"cpu": "100m"}}}]});
    assert_ok(&create(&client, &pods(&env), pod("reported", &spec)).await);
    let renamed = patch(&client, &path("reported"), json!({"spec": {"hostname": "elsewhere"}})).await;
    assert_eq!(
        go_cmp_report(&renamed),
        concat!(
            "  core.PodSpec{\n",
            "  \t... // 12 identical fields\n",
            "  \tSecurityContext:   &{},\n",
            "  \tImagePullSecrets:  nil,\n",
            "- \tHostname:          \"web\",\n",
            "+ \tHostname:          \"elsewhere\",\n",
            "  \tSubdomain:         \"\",\n",
            "  \tSetHostnameAsFQDN: nil,\n",
            "  \t... // 17 identical fields\n",
            "  }\n"
        )
    );
    let policy = patch(
        &client,
        &path("reported"),
        json!({"spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "args": ["--verbose"], "terminationMessagePolicy": "FallbackToLogsOnError",
            "resources": {"requests": {"cpu": "250m"}}}]}}),
    )
    .await;
    assert_eq!(
        go_cmp_report(&policy),
        concat!(
            "  core.PodSpec{\n",
            "  \tVolumes:        {{Name: \"scratch\", VolumeSource: {EmptyDir: &{SizeLimit: &{i: {...}, Format: \"BinarySI\"}}}}},\n",
            "  \tInitContainers: nil,\n",
            "  \tContainers: []core.Container{\n",
            "  \t\t{\n",
            "  \t\t\t... // 6 identical fields\n",
            "  \t\t\tEnvFrom: nil,\n",
            "  \t\t\tEnv:     nil,\n",
            "  \t\t\tResources: core.ResourceRequirements{\n",
            "  \t\t\t\tLimits: nil,\n",
            "- \t\t\t\tRequests: core.ResourceList{\n",
            "- \t\t\t\t\ts\"cpu\": {i: resource.int64Amount{value: 100, scale: -3}, s: \"100m\", Format: \"DecimalSI\"},\n",
            "- \t\t\t\t},\n",
            "+ \t\t\t\tRequests: core.ResourceList{\n",
            "+ \t\t\t\t\ts\"cpu\": {i: resource.int64Amount{value: 250, scale: -3}, s: \"250m\", Format: \"DecimalSI\"},\n",
            "+ \t\t\t\t},\n",
            "  \t\t\t\tClaims: nil,\n",
            "  \t\t\t},\n",
            "  \t\t\tResizePolicy:  {{ResourceName: s\"cpu\", RestartPolicy: \"NotRequired\"}},\n",
            "  \t\t\tRestartPolicy: nil,\n",
            "  \t\t\t... // 5 identical fields\n",
            "  \t\t\tLifecycle:                nil,\n",
            "  \t\t\tTerminationMessagePath:   \"/dev/termination-log\",\n",
            "- \t\t\tTerminationMessagePolicy: \"File\",\n",
            "+ \t\t\tTerminationMessagePolicy: \"FallbackToLogsOnError\",\n",
            "  \t\t\tImagePullPolicy:          \"IfNotPresent\",\n",
            "  \t\t\tSecurityContext:          nil,\n",
            "  \t\t\t... // 3 identical fields\n",
            "  \t\t},\n",
            "  \t},\n",
            "  \tEphemeralContainers: nil,\n",
            "  \tRestartPolicy:       \"Always\",\n",
            "  \t... // 29 identical fields\n",
            "  }\n"
        )
    );
    env.stop().await;
}

#[tokio::test]
async fn status_addresses_must_be_ips_and_qos_stays() {
    let env = start().await;
    let client = env.client();
    let minor = server_minor(&env).await;
    assert_ok(&create(&client, &pods(&env), pod("placed", &json!({}))).await);
    let status = format!("{}/placed/status", pods(&env));
    let address = patch(&client, &status, json!({"status": {"podIP": "not-an-ip"}})).await;
    let example = if minor < 20 {
        "(e.g. 10.9.8.7)"
    } else {
        "(e.g. 10.9.8.7 or 2001:db8::ffff)"
    };
    assert_invalid(
        &address,
        &[(
            "status.podIPs[0]",
            "FieldValueInvalid",
            &format!("Invalid value: \"not-an-ip\": must be a valid IP address, {example}"),
        )],
    );
    let two = patch(
        &client,
        &status,
        json!({"status": {"podIPs": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}]}}),
    )
    .await;
    assert_invalid(
        &two,
        &[(
            "status.podIPs",
            "FieldValueInvalid",
            "Invalid value: []core.PodIP{core.PodIP{IP:\"10.0.0.1\"}, core.PodIP{IP:\"10.0.0.2\"}}: may specify no more than one IP for each IP family",
        )],
    );
    let class = patch(&client, &status, json!({"status": {"qosClass": "Guaranteed"}})).await;
    if minor < 20 {
        // 1.19 let a status write change the class.
        assert_ok(&class);
    } else {
        assert_invalid(
            &class,
            &[(
                "status.qosClass",
                "FieldValueInvalid",
                "Invalid value: \"Guaranteed\": field is immutable",
            )],
        );
    }
    env.stop().await;
}

#[tokio::test]
async fn volumes_mounts_and_probes_are_checked_in_kubes_order() {
    let env = start().await;
    let client = env.client();
    let spec = json!({
        "volumes": [{"name": "v", "emptyDir": {}, "hostPath": {"path": "/x"}}, {"name": "w", "configMap": {"name": "c", "defaultMode": 4096}}],
        "containers": [{"name": "c", "image": "x",
            "volumeMounts": [{"name": "nope", "mountPath": "/a"}, {"name": "w", "mountPath": "/a"}],
            "livenessProbe": {"successThreshold": 2, "exec": {"command": ["true"]}}}],
    });
    let answer = create(&client, &pods(&env), pod("mounted", &spec)).await;
    // A refused volume is no volume: the mount of `w` names nothing.
    assert_invalid(
        &answer,
        &[
            (
                "spec.volumes[0].hostPath",
                "FieldValueForbidden",
                "Forbidden: may not specify more than 1 volume type",
            ),
            (
                "spec.volumes[1].configMap.defaultMode",
                "FieldValueInvalid",
                "Invalid value: 4096: must be a number between 0 and 0777 (octal), both inclusive",
            ),
            (
                "spec.containers[0].volumeMounts[0].name",
                "FieldValueNotFound",
                "Not found: \"nope\"",
            ),
            (
                "spec.containers[0].volumeMounts[1].mountPath",
                "FieldValueInvalid",
                "Invalid value: \"/a\": must be unique",
            ),
            (
                "spec.containers[0].volumeMounts[1].name",
                "FieldValueNotFound",
                "Not found: \"w\"",
            ),
            (
                "spec.containers[0].livenessProbe.successThreshold",
                "FieldValueInvalid",
                "Invalid value: 2: must be 1",
            ),
        ],
    );
    env.stop().await;
}
