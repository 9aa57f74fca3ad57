//! The defaults kube-apiserver fills into built-in objects, and the validation rules
//! of theirs that operators trip over. Controllers compare what they want with what
//! the server stored, so a server that left `strategy`, `imagePullPolicy` or a Service's
//! `clusterIP` unset would make an operator pass here and flap on a real cluster.

use std::sync::atomic::{AtomicU32, Ordering};

use base64::Engine;
use serde_json::{Map, Value, json};

use crate::registry::ResourceType;

/// Cluster IPs are handed out from 10.96.0.0/12, as a kubeadm cluster does.
static NEXT_CLUSTER_IP: AtomicU32 = AtomicU32::new(10);

/// Fills in the defaults of a built-in object; `current` is the stored object on an
/// update (allocated fields such as a Service's `clusterIP` carry over from it).
pub(crate) fn apply(resource: &ResourceType, object: &mut Value, current: Option<&Value>) {
    if resource.custom {
        return;
    }
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "Pod") => {
            pod_spec(&mut object["spec"]);
            // `SetDefaults_Pod`, not `SetDefaults_PodSpec`: Pods only, not templates.
            if object["spec"].is_object() {
                set(&mut object["spec"], "enableServiceLinks", json!(true));
                pod_resources(&mut object["spec"]);
            }
            if !object["status"].is_object() && !object["status"].is_null() {
                return;
            }
            if current.is_none() && object["status"].get("phase").is_none() {
                let qos = qos_class(&object["spec"]);
                object["status"] = json!({"phase": "Pending", "qosClass": qos});
            }
        }
        ("", "Service") => service(object, current),
        ("", "Secret") => {
            set(object, "type", json!("Opaque"));
            secret_string_data(object);
        }
        ("apps", "Deployment") => {
            let spec = &mut object["spec"];
            set(spec, "replicas", json!(1));
            set(spec, "revisionHistoryLimit", json!(10));
            set(spec, "progressDeadlineSeconds", json!(600));
            set(spec, "strategy", json!({"type": "RollingUpdate"}));
            // kubectl create sends `strategy: {}`: the type is defaulted inside it too.
            if spec["strategy"].is_object() {
                set(&mut spec["strategy"], "type", json!("RollingUpdate"));
            }
            if spec["strategy"]["type"] == "RollingUpdate" && spec["strategy"].is_object() {
                set(&mut spec["strategy"], "rollingUpdate", json!({}));
                let rolling = &mut spec["strategy"]["rollingUpdate"];
                set(rolling, "maxUnavailable", json!("25%"));
                set(rolling, "maxSurge", json!("25%"));
            }
            pod_template(spec);
        }
        ("apps", "DaemonSet") => {
            crate::catalogue::rules::apply_defaults(resource, object);
            template_generation(object, current);
        }
        ("apps", "ReplicaSet") => {
            set(&mut object["spec"], "replicas", json!(1));
            pod_template(&mut object["spec"]);
        }
        ("apps", "StatefulSet") => {
            let spec = &mut object["spec"];
            set(spec, "replicas", json!(1));
            set(spec, "revisionHistoryLimit", json!(10));
            set(spec, "podManagementPolicy", json!("OrderedReady"));
            set(
                spec,
                "updateStrategy",
                json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}),
            );
            set(
                spec,
                "persistentVolumeClaimRetentionPolicy",
                json!({"whenDeleted": "Retain", "whenScaled": "Retain"}),
            );
            pod_template(spec);
            volume_claim_templates(spec);
        }
        _ => crate::catalogue::rules::apply_defaults(resource, object),
    }
}

/// Sets `field` of an object unless it is there already.
pub(crate) fn set(object: &mut Value, field: &str, value: Value) {
    if object.is_null() {
        *object = Value::Object(Map::new());
    } else if !object.is_object() {
        return; // malformed: decoding reports it with the real server's message
    }
    if object.get(field).is_none_or(Value::is_null) {
        object[field] = value;
    }
}

/// A Secret's `stringData` is write-only: the server encodes each entry into `data`,
/// where it replaces an entry of the same key, and stores no `stringData`.
fn secret_string_data(object: &mut Value) {
    let Some(Value::Object(strings)) = object.as_object_mut().and_then(|o| o.remove("stringData")) else {
        return;
    };
    if !object["data"].is_object() {
        object["data"] = Value::Object(Map::new());
    }
    if let Some(data) = object["data"].as_object_mut() {
        for (key, value) in strings {
            if let Value::String(text) = value {
                data.insert(
                    key,
                    Value::String(base64::engine::general_purpose::STANDARD.encode(text)),
                );
            }
        }
    }
}

pub(crate) fn pod_template(spec: &mut Value) {
    if spec.is_object() && spec["template"].is_object() && spec["template"]["spec"].is_object() {
        pod_spec(&mut spec["template"]["spec"]);
    }
}

fn pod_spec(spec: &mut Value) {
    if !spec.is_object() {
        return;
    }
    set(spec, "restartPolicy", json!("Always"));
    set(spec, "dnsPolicy", json!("ClusterFirst"));
    set(spec, "terminationGracePeriodSeconds", json!(30));
    set(spec, "schedulerName", json!("default-scheduler"));
    set(spec, "securityContext", json!({}));
    for list in ["initContainers", "containers"] {
        if let Some(containers) = spec.get_mut(list).and_then(Value::as_array_mut) {
            containers.iter_mut().for_each(container);
        }
    }
}

/// A DaemonSet's template generation, which apps/v1 shows as the
/// `deprecated.daemonset.template.generation` annotation: 1 on create, one more on
/// each update that changes the pod template (the DaemonSet strategy's).
fn template_generation(object: &mut Value, current: Option<&Value>) {
    const ANNOTATION: &str = "deprecated.daemonset.template.generation";
    let generation = match current {
        None => 1,
        Some(current) => {
            let Some(before) = current["metadata"]["annotations"][ANNOTATION]
                .as_str()
                .and_then(|g| g.parse::<i64>().ok())
            else {
                return;
            };
            if current["spec"]["template"] == object["spec"]["template"] {
                before
            } else {
                before + 1
            }
        }
    };
    let metadata = &mut object["metadata"];
    if !metadata.is_object() {
        return;
    }
    if !metadata["annotations"].is_object() {
        metadata["annotations"] = json!({});
    }
    metadata["annotations"][ANNOTATION] = json!(generation.to_string());
}

/// A StatefulSet's claim templates: claim defaults (`SetDefaults_PersistentVolumeClaim`),
/// and the `apiVersion` and `kind` apps/v1's conversion writes into each.
fn volume_claim_templates(spec: &mut Value) {
    let Some(templates) = spec.get_mut("volumeClaimTemplates").and_then(Value::as_array_mut) else {
        return;
    };
    for template in templates.iter_mut().filter(|t| t.is_object()) {
        template["apiVersion"] = json!("v1");
        template["kind"] = json!("PersistentVolumeClaim");
        if template["spec"].is_object() {
            set(&mut template["spec"], "volumeMode", json!("Filesystem"));
        }
        set(template, "status", json!({"phase": "Pending"}));
    }
}

/// What a Pod changed by admission (`LimitRanger`) gets: the resource defaults again,
/// as the server applies them when it reads the stored Pod, and its quality-of-service class, which
/// the Pod strategy computes after admission.
pub(crate) fn after_pod_admission(pod: &mut Value) {
    pod_resources(&mut pod["spec"]);
    if pod["status"].is_object() {
        pod["status"]["qosClass"] = json!(qos_class(&pod["spec"]));
    }
}

/// `SetDefaults_Pod`'s resources: a request defaults to its limit, and each container
/// with cpu or memory resources gets a resize policy for them (`NotRequired`), as
/// 1.32 shows (1.19 had no resize policy).
fn pod_resources(spec: &mut Value) {
    for list in ["initContainers", "containers"] {
        let Some(containers) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for container in containers {
            let resources = &mut container["resources"];
            if let Some(limits) = resources.get("limits").and_then(Value::as_object).cloned() {
                if !resources["requests"].is_object() {
                    resources["requests"] = json!({});
                }
                for (name, quantity) in limits {
                    set(&mut resources["requests"], &name, quantity);
                }
            }
            if list == "containers" {
                resize_policy(container);
            }
        }
    }
}

/// `setDefaultResizePolicy`: cpu, then memory, for those the container asks for.
fn resize_policy(container: &mut Value) {
    let resources = &container["resources"];
    let asked = |name: &str| resources["requests"].get(name).is_some() || resources["limits"].get(name).is_some();
    let wanted: Vec<&str> = ["cpu", "memory"].into_iter().filter(|name| asked(name)).collect();
    let mut policies = container["resizePolicy"].as_array().cloned().unwrap_or_default();
    let before = policies.len();
    for name in wanted {
        if !policies.iter().any(|p| p["resourceName"] == name) {
            policies.push(json!({"resourceName": name, "restartPolicy": "NotRequired"}));
        }
    }
    if policies.len() != before {
        container["resizePolicy"] = Value::Array(policies);
    }
}

/// `qos.GetPodQOS`: Guaranteed when every container limits cpu and memory and asks
/// for what it limits, `BestEffort` when none asks for or limits anything, else
/// Burstable.
fn qos_class(spec: &Value) -> &'static str {
    let containers: Vec<&Value> = ["initContainers", "containers"]
        .iter()
        .flat_map(|list| spec[*list].as_array().into_iter().flatten())
        .collect();
    let set_quantities = |container: &Value, kind: &str| -> Vec<(String, String)> {
        let mut found: Vec<(String, String)> = container["resources"][kind]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(name, _)| matches!(name.as_str(), "cpu" | "memory"))
            .filter_map(|(name, q)| q.as_str().map(|q| (name.clone(), q.to_owned())))
            .filter(|(_, q)| !is_zero(q))
            .collect();
        found.sort();
        found
    };
    let mut any = false;
    let mut guaranteed = true;
    for container in &containers {
        let requests = set_quantities(container, "requests");
        let limits = set_quantities(container, "limits");
        any |= !requests.is_empty() || !limits.is_empty();
        guaranteed &= limits.len() == 2 && (requests.is_empty() || requests == limits);
    }
    match (any, guaranteed) {
        (false, _) => "BestEffort",
        (true, true) => "Guaranteed",
        (true, false) => "Burstable",
    }
}

/// A quantity of zero (`0`, `0m`, `0Mi`...).
fn is_zero(quantity: &str) -> bool {
    quantity
        .trim_start_matches(['+', '-'])
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .all(|c| c == '0' || c == '.')
        && quantity.chars().any(|c| c.is_ascii_digit())
}

fn container(container: &mut Value) {
    if !container.is_object() {
        return;
    }
    let image = container["image"].as_str().unwrap_or_default();
    let name = image.rsplit('/').next().unwrap_or_default();
    let untagged_or_latest = !name.contains(':') && !name.contains('@') || name.ends_with(":latest");
    let policy = if untagged_or_latest { "Always" } else { "IfNotPresent" };
    set(container, "imagePullPolicy", json!(policy));
    set(container, "terminationMessagePath", json!("/dev/termination-log"));
    set(container, "terminationMessagePolicy", json!("File"));
    set(container, "resources", json!({}));
    // `get_mut`, not indexing: indexing a map mutably inserts a null field.
    if let Some(ports) = container.get_mut("ports").and_then(Value::as_array_mut) {
        for port in ports {
            set(port, "protocol", json!("TCP"));
        }
    }
}

fn service(object: &mut Value, current: Option<&Value>) {
    let spec = &mut object["spec"];
    set(spec, "type", json!("ClusterIP"));
    if !spec.is_object() {
        return;
    }
    set(spec, "sessionAffinity", json!("None"));
    set(spec, "internalTrafficPolicy", json!("Cluster"));
    if spec["type"] != "ExternalName" {
        let kept = current.map(|c| c["spec"]["clusterIP"].clone()).filter(Value::is_string);
        let ip = kept.unwrap_or_else(|| {
            let n = NEXT_CLUSTER_IP.fetch_add(1, Ordering::Relaxed);
            json!(format!("10.96.{}.{}", (n >> 8) & 0xff, n & 0xff))
        });
        set(spec, "clusterIP", ip);
        let ip = spec["clusterIP"].clone();
        set(spec, "clusterIPs", json!([ip]));
        set(spec, "ipFamilies", json!(["IPv4"]));
        set(spec, "ipFamilyPolicy", json!("SingleStack"));
    }
    if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
        for port in ports {
            set(port, "protocol", json!("TCP"));
            let number = port["port"].clone();
            set(port, "targetPort", number);
        }
    }
    if object["status"].is_null() {
        object["status"] = json!({"loadBalancer": {}});
    }
}

/// The validation rules of built-in types that an object can break (field, reason,
/// detail), worded as the real server words them.
pub(crate) fn violations(resource: &ResourceType, object: &Value) -> Vec<(String, &'static str, String)> {
    let mut found = Vec::new();
    if resource.custom {
        return found;
    }
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "Pod") => pod_spec_violations(&object["spec"], "spec", &mut found),
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => {
            let spec = &object["spec"];
            let selector = &spec["selector"];
            if selector.is_null() {
                found.push(("spec.selector".into(), "FieldValueRequired", "Required value".into()));
            } else {
                let labels = &spec["template"]["metadata"]["labels"];
                let selected = wheelhouse_selector::LabelSelector::from_structured(Some(selector))
                    .is_ok_and(|s| s.matches(Some(labels)));
                if !selected {
                    found.push((
                        "spec.template.metadata.labels".into(),
                        "FieldValueInvalid",
                        format!("Invalid value: {labels}: `selector` does not match template `labels`"),
                    ));
                }
            }
            pod_spec_violations(&spec["template"]["spec"], "spec.template.spec", &mut found);
        }
        ("", "Service") => {
            let spec = &object["spec"];
            let headless = spec["clusterIP"] == "None";
            let needs_ports = spec["type"] != "ExternalName" && !headless;
            if needs_ports && spec["ports"].as_array().is_none_or(Vec::is_empty) {
                found.push(("spec.ports".into(), "FieldValueRequired", "Required value".into()));
            }
        }
        _ => {}
    }
    found.extend(crate::catalogue::rules::violations(resource, object));
    found
}

pub(crate) fn pod_spec_violations(spec: &Value, path: &str, found: &mut Vec<(String, &'static str, String)>) {
    let containers = spec["containers"].as_array().map(Vec::as_slice).unwrap_or_default();
    if containers.is_empty() {
        found.push((
            format!("{path}.containers"),
            "FieldValueRequired",
            "Required value".into(),
        ));
    }
    for (index, container) in containers.iter().enumerate() {
        for field in ["name", "image"] {
            if container[field].as_str().is_none_or(str::is_empty) {
                found.push((
                    format!("{path}.containers[{index}].{field}"),
                    "FieldValueRequired",
                    "Required value".into(),
                ));
            }
        }
    }
}

/// Fields of built-in types that an update may not change.
pub(crate) fn immutable_changes(
    resource: &ResourceType,
    current: &Value,
    new: &Value,
) -> Vec<(String, &'static str, String)> {
    let mut found = Vec::new();
    let immutable: &[&str] = match (resource.group.as_str(), resource.kind.as_str()) {
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => &["selector"],
        ("", "Service") => &["clusterIP"],
        _ => &[],
    };
    for field in immutable {
        let (before, after) = (&current["spec"][field], &new["spec"][field]);
        if !before.is_null() && before != after {
            found.push((
                format!("spec.{field}"),
                "FieldValueInvalid",
                format!("Invalid value: {after}: field is immutable"),
            ));
        }
    }
    found.extend(crate::catalogue::rules::immutable_changes(resource, current, new));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    fn resource(group: &str, plural: &str) -> std::sync::Arc<ResourceType> {
        Registry::default().get(group, "v1", plural).unwrap()
    }

    #[test]
    fn daemon_sets_count_their_template_generations() {
        let daemon_sets = resource("apps", "daemonsets");
        let template = |image: &str| json!({"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": image}]}});
        let mut created = json!({"metadata": {"name": "d"}, "spec": {"template": template("nginx:1")}});
        apply(&daemon_sets, &mut created, None);
        let generation =
            |object: &Value| object["metadata"]["annotations"]["deprecated.daemonset.template.generation"].clone();
        assert_eq!(generation(&created), "1");
        assert_eq!(
            created["spec"]["revisionHistoryLimit"], 10,
            "the other defaults still apply"
        );
        let mut relabelled = created.clone();
        relabelled["metadata"]["labels"] = json!({"x": "y"});
        apply(&daemon_sets, &mut relabelled, Some(&created));
        assert_eq!(generation(&relabelled), "1", "the template did not change");
        let mut updated = created.clone();
        updated["spec"]["template"] = template("nginx:2");
        apply(&daemon_sets, &mut updated, Some(&created));
        assert_eq!(generation(&updated), "2");
    }

    #[test]
    fn pods_ask_for_their_limits_and_get_their_qos_class() {
        let pods = resource("", "pods");
        let pod = |resources: &Value| {
            let mut pod =
                json!({"spec": {"containers": [{"name": "a", "image": "nginx:1.27", "resources": resources}]}});
            apply(&pods, &mut pod, None);
            pod
        };
        let limited = pod(&json!({"limits": {"cpu": "1"}}));
        let container = &limited["spec"]["containers"][0];
        assert_eq!(container["resources"]["requests"], json!({"cpu": "1"}));
        assert_eq!(
            container["resizePolicy"],
            json!([{"resourceName": "cpu", "restartPolicy": "NotRequired"}])
        );
        assert!(container.get("ports").is_none(), "no null field appears");
        assert_eq!(limited["status"]["qosClass"], "Burstable");
        let both = json!({"limits": {"cpu": "1", "memory": "1Gi"}});
        assert_eq!(pod(&both)["status"]["qosClass"], "Guaranteed");
        let unequal = json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}});
        assert_eq!(pod(&unequal)["status"]["qosClass"], "Burstable");
        let nothing = pod(&json!({}));
        assert_eq!(nothing["status"]["qosClass"], "BestEffort");
        assert!(nothing["spec"]["containers"][0].get("resizePolicy").is_none());
        assert_eq!(nothing["spec"]["enableServiceLinks"], true);
    }

    #[test]
    fn deployments_get_strategy_history_and_pod_defaults_and_keep_what_is_set() {
        let mut deployment = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [
            {"name": "a", "image": "nginx:1.27", "ports": [{"containerPort": 80}]},
            {"name": "b", "image": "busybox", "imagePullPolicy": "Never"},
        ]}}}});
        apply(&resource("apps", "deployments"), &mut deployment, None);
        let spec = &deployment["spec"];
        assert_eq!(spec["replicas"], 3);
        assert_eq!(
            spec["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
        );
        assert_eq!(spec["revisionHistoryLimit"], 10);
        let pod = &spec["template"]["spec"];
        assert_eq!(
            (pod["restartPolicy"].as_str(), pod["dnsPolicy"].as_str()),
            (Some("Always"), Some("ClusterFirst"))
        );
        assert_eq!(pod["containers"][0]["imagePullPolicy"], "IfNotPresent");
        assert_eq!(pod["containers"][0]["ports"][0]["protocol"], "TCP");
        assert_eq!(pod["containers"][1]["imagePullPolicy"], "Never");
        assert!(pod.get("initContainers").is_none(), "{pod}");
        let again = deployment.clone();
        apply(&resource("apps", "deployments"), &mut deployment, None);
        assert_eq!(deployment, again, "defaulting is idempotent");
    }

    #[test]
    fn an_empty_strategy_gets_its_type_as_kubectl_create_sends_it() {
        let mut deployment = json!({"spec": {"strategy": {}, "template": {"spec": {"containers": []}}}});
        apply(&resource("apps", "deployments"), &mut deployment, None);
        assert_eq!(
            deployment["spec"]["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
        );
    }

    #[test]
    fn secrets_move_string_data_into_data() {
        let mut secret = json!({"data": {"a": "b2xk", "b": "Yg=="}, "stringData": {"a": "new", "c": "see"}});
        apply(&resource("", "secrets"), &mut secret, None);
        assert_eq!(
            secret,
            json!({"type": "Opaque", "data": {"a": "bmV3", "b": "Yg==", "c": "c2Vl"}})
        );
    }

    #[test]
    fn services_get_a_cluster_ip_that_updates_keep() {
        let services = resource("", "services");
        let mut service = json!({"spec": {"ports": [{"port": 80}]}});
        apply(&services, &mut service, None);
        assert_eq!(
            service["spec"]["ports"][0],
            json!({"port": 80, "protocol": "TCP", "targetPort": 80})
        );
        let ip = service["spec"]["clusterIP"].clone();
        assert!(ip.as_str().is_some_and(|ip| ip.starts_with("10.96.")));
        let mut update = json!({"spec": {"ports": [{"port": 81}]}});
        apply(&services, &mut update, Some(&service));
        assert_eq!(update["spec"]["clusterIP"], ip);
    }

    #[test]
    fn workloads_must_select_their_template_and_name_their_containers() {
        let deployments = resource("apps", "deployments");
        let object = json!({"spec": {"selector": {"matchLabels": {"app": "a"}}, "template": {"metadata": {"labels": {"app": "b"}}, "spec": {"containers": [{"name": "c"}]}}}});
        let fields: Vec<String> = violations(&deployments, &object).into_iter().map(|v| v.0).collect();
        assert_eq!(
            fields,
            [
                "spec.template.metadata.labels",
                "spec.template.spec.containers[0].image"
            ]
        );
        let changed = json!({"spec": {"selector": {"matchLabels": {"app": "z"}}}});
        assert_eq!(immutable_changes(&deployments, &object, &changed).len(), 1);
    }
}
