//! The defaults kube-apiserver fills into built-in objects
//! (`pkg/apis/<group>/v1/defaults.go`, and the Job strategy's generated selector in
//! `pkg/registry/batch/job/strategy.go`). Controllers compare what they want with what
//! the server stored, so a server that left `strategy` or `imagePullPolicy` unset
//! would make an operator pass here and flap on a real cluster. (A Service's
//! `clusterIP` and node ports are allocated as it is stored: `admission::allocation`.)

use base64::Engine;
use serde_json::{Map, Value, json};

use super::core_defaults::{container, set};
use crate::core::ResourceType;

/// Fills in the defaults of a built-in object; `current` is the stored object on an
/// update (allocated fields such as a Service's `clusterIP` carry over from it).
pub(crate) fn apply(resource: &ResourceType, object: &mut Value, current: Option<&Value>) {
    if resource.custom {
        return;
    }
    super::group_defaults::apply(resource, object);
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            // `SetDefaults_CustomResourceDefinitionSpec` and `SetDefaults_ServiceReference`,
            // as the body decodes, so the writer owns what they fill in.
            wheelhouse_envtest_schema::definition::apply_defaults(object);
            if let Some(service) = object
                .get_mut("spec")
                .and_then(|spec| spec.get_mut("conversion"))
                .and_then(|conversion| conversion.get_mut("webhook"))
                .and_then(|webhook| webhook.get_mut("clientConfig"))
                .and_then(|config| config.get_mut("service"))
                .filter(|service| service.is_object())
            {
                set(service, "port", json!(443));
            }
        }
        ("", "Pod") => {
            pod_spec(&mut object["spec"]);
            super::core_defaults::pod(object);
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
        ("", "Service") => {
            service(object, current);
            super::core_defaults::apply("Service", object, current);
            if let Some(current) = current {
                super::core_defaults::drop_type_dependent_fields(object, current);
            }
        }
        ("", "PodTemplate") => pod_template(object),
        // `source` is a struct, never omitted, in the Go type: `{}` when unset.
        ("", "Event") => set(object, "source", json!({})),
        ("events.k8s.io", "Event") => set(object, "deprecatedSource", json!({})),
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
            other_defaults(resource, object);
            template_generation(resource, object, current);
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
            // `SetDefaults_StatefulSet` fills each half of a policy given in part.
            set(spec, "persistentVolumeClaimRetentionPolicy", json!({}));
            let policy = &mut spec["persistentVolumeClaimRetentionPolicy"];
            set(policy, "whenDeleted", json!("Retain"));
            set(policy, "whenScaled", json!("Retain"));
            pod_template(spec);
            volume_claim_templates(spec);
        }
        ("", kind) => {
            other_defaults(resource, object);
            super::core_defaults::apply(kind, object, current);
        }
        _ => other_defaults(resource, object),
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

/// The defaults of a pod template held by value (`PodTemplateSpec`, whose `PodSpec`
/// is a value too): Go decodes a missing template, or a template without a spec, as
/// the zero value and defaults that, so its pod spec is defaulted all the same (and
/// validation then asks for its containers, not for a restart policy).
pub(crate) fn pod_template(spec: &mut Value) {
    if !spec.is_object() {
        return;
    }
    if spec["template"].is_null() {
        spec["template"] = json!({});
    }
    let template = &mut spec["template"];
    if !template.is_object() {
        return;
    }
    if template["spec"].is_null() {
        template["spec"] = json!({});
    }
    pod_spec(&mut template["spec"]);
}

/// The defaults of a pod template held by pointer (a `ReplicationController`'s): only
/// a template that is there.
fn pointer_pod_template(spec: &mut Value) {
    if spec.is_object() && spec.get("template").is_some_and(Value::is_object) {
        pod_template(spec);
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
    super::core_defaults::pod_spec(spec);
}

/// A DaemonSet's template generation, which apps/v1 shows as the
/// `deprecated.daemonset.template.generation` annotation: 1 on create, one more on
/// each update that changes the pod template (the DaemonSet strategy's).
fn template_generation(resource: &ResourceType, object: &mut Value, current: Option<&Value>) {
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
            // The strategy compares Go values: a template is the same whether its
            // zero values were sent or not.
            let go_template = |object: &Value| {
                let mut object = object.clone();
                super::go_zero::fill(resource, &mut object);
                object["spec"]["template"].take()
            };
            if go_template(current) == go_template(object) {
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
        // `SetDefaults_PersistentVolumeClaim`: a claim's phase is Pending unless set.
        set(template, "status", json!({}));
        if template["status"].is_object() {
            set(&mut template["status"], "phase", json!("Pending"));
        }
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

fn service(object: &mut Value, current: Option<&Value>) {
    let spec = &mut object["spec"];
    set(spec, "type", json!("ClusterIP"));
    if !spec.is_object() {
        return;
    }
    set(spec, "sessionAffinity", json!("None"));
    if spec["type"] != "ExternalName" {
        set(spec, "internalTrafficPolicy", json!("Cluster"));
    }
    if spec["type"] == "NodePort" || spec["type"] == "LoadBalancer" {
        set(spec, "externalTrafficPolicy", json!("Cluster"));
    }
    if spec["type"] == "LoadBalancer" {
        set(spec, "allocateLoadBalancerNodePorts", json!(true));
    }
    if spec["type"] != "ExternalName" {
        // The IP itself is allocated when the Service is stored (`admission::allocation`);
        // an update that names none keeps the one it had.
        if let Some(kept) = current.map(|c| c["spec"]["clusterIP"].clone()).filter(Value::is_string) {
            set(spec, "clusterIP", kept);
        }
        if let Some(ip) = spec["clusterIP"].as_str().filter(|ip| !ip.is_empty()) {
            set(spec, "clusterIPs", json!([ip]));
        }
    }
    if let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) {
        for port in ports {
            set(port, "protocol", json!("TCP"));
            // `SetDefaults_Service`: a target port of 0 or "" is the port itself.
            let unset = matches!(&port["targetPort"], Value::Null)
                || port["targetPort"] == json!(0)
                || port["targetPort"] == json!("");
            if unset && port.is_object() {
                port["targetPort"] = port["port"].clone();
            }
        }
    }
    if object["status"].is_null() {
        object["status"] = json!({"loadBalancer": {}});
    }
}

/// Fills in the defaults of the other built-in kinds (Jobs, `CronJobs`, `DaemonSets`...).
fn other_defaults(resource: &ResourceType, object: &mut Value) {
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("batch", "Job") => {
            job_spec(&mut object["spec"]);
            if object["spec"].is_object() {
                set(&mut object["spec"], "manualSelector", json!(false));
            }
            job_labels(object);
        }
        ("batch", "CronJob") => {
            let spec = &mut object["spec"];
            set(spec, "concurrencyPolicy", json!("Allow"));
            set(spec, "suspend", json!(false));
            set(spec, "successfulJobsHistoryLimit", json!(3));
            set(spec, "failedJobsHistoryLimit", json!(1));
            // `SetObjectDefaults_CronJob` defaults the job template's pod spec, not its
            // JobSpec: the Job made from it is defaulted when it is created.
            if spec["jobTemplate"]["spec"].is_object() {
                pod_template(&mut spec["jobTemplate"]["spec"]);
            }
        }
        (
            "admissionregistration.k8s.io",
            kind @ ("ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration"),
        ) => {
            let mutating = kind == "MutatingWebhookConfiguration";
            for webhook in object
                .get_mut("webhooks")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                admission_webhook(webhook, mutating);
            }
        }
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy") => {
            let spec = &mut object["spec"];
            set(spec, "failurePolicy", json!("Fail"));
            if spec["matchConstraints"].is_object() {
                match_resources(&mut spec["matchConstraints"]);
            }
        }
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding")
            if object["spec"]["matchResources"].is_object() =>
        {
            match_resources(&mut object["spec"]["matchResources"]);
        }
        // `SetDefaults_IngressClass`: parameters are cluster-scoped unless they say.
        ("networking.k8s.io", "IngressClass") if object["spec"]["parameters"].is_object() => {
            set(&mut object["spec"]["parameters"], "scope", json!("Cluster"));
        }
        ("apps", "DaemonSet") => {
            let spec = &mut object["spec"];
            set(spec, "revisionHistoryLimit", json!(10));
            set(spec, "updateStrategy", json!({"type": "RollingUpdate"}));
            if spec["updateStrategy"]["type"] == "RollingUpdate" && spec["updateStrategy"].is_object() {
                set(&mut spec["updateStrategy"], "rollingUpdate", json!({}));
                let rolling = &mut spec["updateStrategy"]["rollingUpdate"];
                set(rolling, "maxUnavailable", json!(1));
                set(rolling, "maxSurge", json!(0));
            }
            pod_template(spec);
        }
        ("", "ReplicationController") => {
            set(&mut object["spec"], "replicas", json!(1));
            pointer_pod_template(&mut object["spec"]);
        }
        ("", "PersistentVolumeClaim") => {
            set(&mut object["spec"], "volumeMode", json!("Filesystem"));
            if object["status"].is_null() {
                object["status"] = json!({"phase": "Pending"});
            }
        }
        ("", "PersistentVolume") => {
            set(&mut object["spec"], "persistentVolumeReclaimPolicy", json!("Retain"));
            set(&mut object["spec"], "volumeMode", json!("Filesystem"));
            if object["status"].is_null() {
                object["status"] = json!({"phase": "Pending"});
            }
        }
        _ => {}
    }
}

/// `SetDefaults_ValidatingWebhook` / `SetDefaults_MutatingWebhook`, with the defaults
/// of their service references and rules.
fn admission_webhook(webhook: &mut Value, mutating: bool) {
    if !webhook.is_object() {
        return;
    }
    set(webhook, "failurePolicy", json!("Fail"));
    set(webhook, "matchPolicy", json!("Equivalent"));
    set(webhook, "namespaceSelector", json!({}));
    set(webhook, "objectSelector", json!({}));
    set(webhook, "timeoutSeconds", json!(10));
    if mutating {
        set(webhook, "reinvocationPolicy", json!("Never"));
    }
    if webhook["clientConfig"]["service"].is_object() {
        set(&mut webhook["clientConfig"]["service"], "port", json!(443));
    }
    for rule in webhook
        .get_mut("rules")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if rule.is_object() {
            set(rule, "scope", json!("*"));
        }
    }
}

/// `SetDefaults_MatchResources`, with the defaults of its rules.
fn match_resources(resources: &mut Value) {
    set(resources, "matchPolicy", json!("Equivalent"));
    set(resources, "namespaceSelector", json!({}));
    set(resources, "objectSelector", json!({}));
    for field in ["resourceRules", "excludeResourceRules"] {
        for rule in resources
            .get_mut(field)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if rule.is_object() {
                set(rule, "scope", json!("*"));
            }
        }
    }
}

fn job_spec(spec: &mut Value) {
    if !spec.is_object() {
        return;
    }
    if spec["completions"].is_null() && spec["parallelism"].is_null() {
        spec["completions"] = json!(1);
        spec["parallelism"] = json!(1);
    }
    set(spec, "parallelism", json!(1));
    let backoff = if spec["backoffLimitPerIndex"].is_null() {
        6
    } else {
        i32::MAX
    };
    set(spec, "backoffLimit", json!(backoff));
    set(spec, "completionMode", json!("NonIndexed"));
    set(spec, "suspend", json!(false));
    let replacement = if spec["podFailurePolicy"].is_null() {
        "TerminatingOrFailed"
    } else {
        "Failed"
    };
    set(spec, "podReplacementPolicy", json!(replacement));
    pod_template(spec);
}

/// `SetDefaults_Job` copies the template's labels to a Job without labels; the server
/// defaults again on every read, so after the strategy's selector labels too.
fn job_labels(object: &mut Value) {
    let labels = object["spec"]["template"]["metadata"]["labels"].clone();
    let unlabelled = object["metadata"]["labels"]
        .as_object()
        .is_none_or(serde_json::Map::is_empty);
    if labels.as_object().is_some_and(|l| !l.is_empty()) && unlabelled && object["metadata"].is_object() {
        object["metadata"]["labels"] = labels;
    }
}

/// What a type's strategy sets on a new object after kube-apiserver's field manager
/// recorded the creator's fields (`PrepareForCreate`, and a Service's IP families,
/// which its storage allocates), so nobody owns them: a Job's generated selector, a
/// persistent volume's phase and its time; a pod's `AppArmor` annotations and fields
/// made to agree. Returns the warnings the strategy adds as it prepares.
pub(crate) fn prepare_for_create(resource: &ResourceType, object: &mut Value, now: &str) -> Vec<String> {
    if resource.custom {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "Pod") => warnings = wheelhouse_envtest_validation::apparmor_version_skew(object),
        ("batch", "Job") => {
            job_selector(object);
            job_labels(object);
        }
        ("", "PersistentVolume") => {
            object["status"] = json!({"phase": "Pending", "lastPhaseTransitionTime": now});
        }
        // The APIService strategy marks a local one available as it is created.
        ("apiregistration.k8s.io", "APIService") if object["spec"]["service"].is_null() => {
            object["status"] = json!({"conditions": [{"type": "Available", "status": "True",
                "lastTransitionTime": now, "reason": "Local", "message": "Local APIServices are always available"}]});
        }
        _ => {}
    }
    prepare_for_update(resource, object, None, now);
    warnings
}

/// What a type's strategy or storage sets on every write after the field manager ran
/// (`old` is the stored object on an update, `now` the write's time): the fields of
/// pods and pod templates whose feature is off (`pod_gates`), a Service's IP families
/// (those of its cluster IPs; this server has IPv4 only), a Lease's coordination
/// fields dropped, a persistent volume's phase transition time.
pub(crate) fn prepare_for_update(resource: &ResourceType, object: &mut Value, old: Option<&Value>, now: &str) {
    if resource.custom {
        return;
    }
    let (group, kind) = (resource.group.as_str(), resource.kind.as_str());
    if let Some(template) = crate::core::pod_template_path(group, kind) {
        super::pod_gates::template(object, template, old);
    }
    match (group, kind) {
        ("", "Pod") => super::pod_gates::pod(object, old),
        ("coordination.k8s.io", "Lease") => lease_coordination(object, old),
        ("", "PersistentVolume") => {
            if let Some(old) = old {
                phase_transition_time(object, old, now);
            }
        }
        ("", "Service") => ip_families(object),
        _ => {}
    }
}

/// A Service's IP families: those of its cluster IPs (this server has IPv4 only).
fn ip_families(service: &mut Value) {
    let Some(spec) = service.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    if spec["type"] != "ExternalName" {
        set(spec, "ipFamilies", json!(["IPv4"]));
        set(spec, "ipFamilyPolicy", json!("SingleStack"));
    }
}

/// The persistent volume status strategy's `LastPhaseTransitionTime`: kept while the
/// phase stays (unless the write sets one), the write's time when the phase changes
/// (unless the write sets a new one). On the main endpoint the status is the stored
/// one, so nothing changes.
fn phase_transition_time(object: &mut Value, old: &Value, now: &str) {
    let phase = |object: &Value| object["status"]["phase"].as_str().unwrap_or_default().to_owned();
    let same_phase = phase(object) == phase(old);
    let Some(status) = object.get_mut("status").and_then(Value::as_object_mut) else {
        return;
    };
    let old_time = old["status"].get("lastPhaseTransitionTime").filter(|t| !t.is_null());
    let new_time = status.get("lastPhaseTransitionTime").filter(|t| !t.is_null()).cloned();
    if same_phase {
        if new_time.is_none()
            && let Some(old_time) = old_time
        {
            status.insert("lastPhaseTransitionTime".into(), old_time.clone());
        }
    } else if new_time.is_none() || new_time.as_ref() == old_time {
        status.insert("lastPhaseTransitionTime".into(), json!(now));
    }
}

/// The Lease strategy without the `CoordinatedLeaderElection` gate (off in 1.32): a new
/// Lease's `strategy` and `preferredHolder` are dropped, an updated one's unless the
/// stored Lease had them (an empty string counts: Go's pointer is set).
fn lease_coordination(object: &mut Value, old: Option<&Value>) {
    let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    for field in ["strategy", "preferredHolder"] {
        let kept = old.is_some_and(|old| old["spec"].get(field).is_some_and(|value| !value.is_null()));
        if !kept {
            spec.remove(field);
        }
    }
}

/// A Job created without `manualSelector` gets a selector on its own uid, and its pod
/// template the matching labels, as the Job strategy's `generateSelector` does: labels
/// and a selector the user gave are kept (validation then refuses a selector that
/// selects other pods than the Job's own).
fn job_selector(object: &mut Value) {
    if object["spec"]["manualSelector"] == true || !object["spec"].is_object() {
        return;
    }
    let uid = object["metadata"]["uid"].clone();
    let name = object["metadata"]["name"].clone();
    if !uid.is_string() {
        return;
    }
    let template = &mut object["spec"]["template"];
    if template.is_null() {
        *template = json!({});
    }
    if !template.is_object() {
        return;
    }
    set(template, "metadata", json!({}));
    set(&mut template["metadata"], "labels", json!({}));
    let labels = &mut template["metadata"]["labels"];
    for (key, value) in [
        ("job-name", &name),
        ("batch.kubernetes.io/job-name", &name),
        ("controller-uid", &uid),
        ("batch.kubernetes.io/controller-uid", &uid),
    ] {
        set(labels, key, value.clone());
    }
    let spec = &mut object["spec"];
    set(spec, "selector", json!({}));
    set(&mut spec["selector"], "matchLabels", json!({}));
    set(
        &mut spec["selector"]["matchLabels"],
        "batch.kubernetes.io/controller-uid",
        uid,
    );
}
