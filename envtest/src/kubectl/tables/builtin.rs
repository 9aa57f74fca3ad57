//! The columns kube-apiserver prints for built-in kinds and how each object fills them:
//! `pkg/printers/internalversion/printers.go` of Kubernetes (the column names, types,
//! priorities and descriptions of 1.19, checked against a real 1.19 server). The server
//! prints every column, wide ones (priority 1) included; kubectl shows those with `-o wide`.

use serde_json::{Value, json};

use super::human::{format_label_selector, format_labels, join_field, seconds_between, selector_string, since};

/// One column of a Table (`TableColumnDefinition`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Column {
    pub name: String,
    /// `string`, `integer`, `number`, `boolean` or `date`.
    pub kind: String,
    /// `name` for the object's name column, else empty.
    pub format: String,
    pub priority: i64,
    pub description: String,
}

impl Column {
    pub fn to_json(&self) -> Value {
        json!({"name": self.name, "type": self.kind, "format": self.format, "description": self.description, "priority": self.priority})
    }
}

/// A column as written in the printers: (name, type, priority, description).
type Spec = (&'static str, &'static str, i64, &'static str);

/// A built-in kind's printer: its columns and the cells of one object.
pub(super) struct Builtin {
    pub columns: &'static [Spec],
    pub cells: fn(&Value) -> Vec<Value>,
}

impl Builtin {
    pub fn columns(&self) -> Vec<Column> {
        self.columns
            .iter()
            .map(|(name, kind, priority, description)| Column {
                name: (*name).to_owned(),
                kind: (*kind).to_owned(),
                format: if *name == "Name" { "name" } else { "" }.to_owned(),
                priority: *priority,
                description: (*description).to_owned(),
            })
            .collect()
    }
}

pub(super) const NAME: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names";
pub(super) const CREATED: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const CONTAINERS: &str = "Names of each container in the template.";
const IMAGES: &str = "Images referenced by each container in the template.";
const JOB_SELECTOR: &str = "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";
const WEBHOOKS: &str = "Webhooks indicates the number of webhooks registered in this configuration";

/// How one object fills a kind's columns.
type Cells = fn(&Value) -> Vec<Value>;

/// The printer of a built-in kind, by API group and kind; None for kinds printed with
/// the default columns (Name, Created At), as Roles and CRDs are.
pub(super) fn printer(group: &str, kind: &str) -> Option<Builtin> {
    let (columns, cells): (&'static [Spec], Cells) = match (group, kind) {
        ("", "Namespace") => (NAMESPACE, |o| vec![name(o), text(&o["status"]["phase"]), age(o)]),
        ("", "Pod") => (POD, pod),
        ("", "Service") => (SERVICE, service),
        ("", "ConfigMap") => (CONFIG_MAP, |o| {
            vec![name(o), json!(count(&o["data"]) + count(&o["binaryData"])), age(o)]
        }),
        ("", "Secret") => (SECRET, |o| {
            vec![name(o), text(&o["type"]), json!(count(&o["data"])), age(o)]
        }),
        ("", "ServiceAccount") => (SERVICE_ACCOUNT, |o| vec![name(o), json!(count(&o["secrets"])), age(o)]),
        ("" | "events.k8s.io", "Event") => (EVENT, event),
        ("apps", "Deployment") => (DEPLOYMENT, deployment),
        ("apps", "ReplicaSet") => (REPLICA_SET, replica_set),
        ("apps", "StatefulSet") => (STATEFUL_SET, stateful_set),
        ("apps", "DaemonSet") => (DAEMON_SET, daemon_set),
        ("batch", "Job") => (JOB, job),
        ("batch", "CronJob") => (CRON_JOB, cron_job),
        ("coordination.k8s.io", "Lease") => (LEASE, |o| vec![name(o), text(&o["spec"]["holderIdentity"]), age(o)]),
        ("networking.k8s.io", "Ingress") => (INGRESS, ingress),
        ("rbac.authorization.k8s.io", "RoleBinding") => (ROLE_BINDING, binding),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding") => (CLUSTER_ROLE_BINDING, binding),
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration") => {
            (WEBHOOK_CONFIGURATION, |o| {
                vec![name(o), json!(count(&o["webhooks"])), age(o)]
            })
        }
        ("policy", "PodDisruptionBudget") => (POD_DISRUPTION_BUDGET, pod_disruption_budget),
        ("scheduling.k8s.io", "PriorityClass") => (PRIORITY_CLASS, |o| {
            let value = o["value"].as_i64().unwrap_or(0);
            vec![
                name(o),
                json!(value),
                json!(o["globalDefault"].as_bool().unwrap_or(false)),
                age(o),
            ]
        }),
        _ => return None,
    };
    Some(Builtin { columns, cells })
}

const NAMESPACE: &[Spec] = &[
    ("Name", "string", 0, NAME),
    ("Status", "string", 0, "The status of the namespace"),
    ("Age", "string", 0, CREATED),
];

const CONFIG_MAP: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Data",
        "string",
        0,
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    ),
    ("Age", "string", 0, CREATED),
];

const SECRET: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Type",
        "string",
        0,
        "Used to facilitate programmatic handling of secret data.",
    ),
    (
        "Data",
        "string",
        0,
        "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    ("Age", "string", 0, CREATED),
];

const SERVICE_ACCOUNT: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Secrets",
        "string",
        0,
        "Secrets is the list of secrets allowed to be used by pods running using this ServiceAccount. More info: https://kubernetes.io/docs/concepts/configuration/secret",
    ),
    ("Age", "string", 0, CREATED),
];

const LEASE: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Holder",
        "string",
        0,
        "holderIdentity contains the identity of the holder of a current lease.",
    ),
    ("Age", "string", 0, CREATED),
];

const WEBHOOK_CONFIGURATION: &[Spec] = &[
    ("Name", "string", 0, NAME),
    ("Webhooks", "integer", 0, WEBHOOKS),
    ("Age", "string", 0, CREATED),
];

const PRIORITY_CLASS: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Value",
        "integer",
        0,
        "The value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
    ),
    (
        "Global-Default",
        "boolean",
        0,
        "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.",
    ),
    ("Age", "string", 0, CREATED),
];

fn name(object: &Value) -> Value {
    text(&object["metadata"]["name"])
}

fn age(object: &Value) -> Value {
    Value::String(since(&object["metadata"]["creationTimestamp"]))
}

/// A string field as a cell ("" when unset, as Go's zero string).
fn text(value: &Value) -> Value {
    Value::String(value.as_str().unwrap_or_default().to_owned())
}

fn int(value: &Value) -> i64 {
    value.as_i64().unwrap_or(0)
}

/// How many entries a map or list has.
fn count(value: &Value) -> usize {
    match value {
        Value::Object(map) => map.len(),
        Value::Array(items) => items.len(),
        _ => 0,
    }
}

fn or_none(text: String) -> Value {
    Value::String(if text.is_empty() { "<none>".to_owned() } else { text })
}

/// `layoutContainerCells`: container names and images, comma-separated.
fn containers_and_images(pod_spec: &Value) -> [Value; 2] {
    let containers = &pod_spec["containers"];
    [
        Value::String(join_field(containers, "name", ",")),
        Value::String(join_field(containers, "image", ",")),
    ]
}

const POD: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Ready",
        "string",
        0,
        "The aggregate readiness state of this pod for accepting traffic.",
    ),
    (
        "Status",
        "string",
        0,
        "The aggregate status of the containers in this pod.",
    ),
    (
        "Restarts",
        "integer",
        0,
        "The number of times the containers in this pod have been restarted.",
    ),
    ("Age", "string", 0, CREATED),
    (
        "IP",
        "string",
        1,
        "IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
    ),
    (
        "Node",
        "string",
        1,
        "NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.",
    ),
    (
        "Nominated Node",
        "string",
        1,
        "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
    ),
    (
        "Readiness Gates",
        "string",
        1,
        "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/0007-pod-ready%2B%2B.md",
    ),
];

/// `printPod`: ready containers, the reason a person would want to see (a waiting or
/// terminated container's reason, `Init:...`, `Terminating`) and restarts.
fn pod(pod: &Value) -> Vec<Value> {
    let status = &pod["status"];
    let total = count(&pod["spec"]["containers"]);
    let mut reason = status["reason"]
        .as_str()
        .filter(|r| !r.is_empty())
        .or_else(|| status["phase"].as_str())
        .unwrap_or_default()
        .to_owned();
    let mut restarts = 0;
    let mut ready = 0;
    let mut initializing = false;
    let init_statuses = status["initContainerStatuses"].as_array().cloned().unwrap_or_default();
    let init_count = count(&pod["spec"]["initContainers"]);
    for (i, container) in init_statuses.iter().enumerate() {
        restarts += int(&container["restartCount"]);
        let state = &container["state"];
        let terminated = &state["terminated"];
        let waiting_reason = state["waiting"]["reason"].as_str().unwrap_or_default();
        if terminated.is_object() && int(&terminated["exitCode"]) == 0 {
            continue;
        }
        reason = if terminated.is_object() {
            match terminated["reason"].as_str().filter(|r| !r.is_empty()) {
                Some(why) => format!("Init:{why}"),
                None if int(&terminated["signal"]) != 0 => format!("Init:Signal:{}", int(&terminated["signal"])),
                None => format!("Init:ExitCode:{}", int(&terminated["exitCode"])),
            }
        } else if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" {
            format!("Init:{waiting_reason}")
        } else {
            format!("Init:{i}/{init_count}")
        };
        initializing = true;
        break;
    }
    if !initializing {
        restarts = 0;
        let mut running = false;
        for container in status["containerStatuses"].as_array().into_iter().flatten().rev() {
            restarts += int(&container["restartCount"]);
            let state = &container["state"];
            let terminated = &state["terminated"];
            if let Some(why) = state["waiting"]["reason"].as_str().filter(|r| !r.is_empty()) {
                why.clone_into(&mut reason);
            } else if let Some(why) = terminated["reason"].as_str().filter(|r| !r.is_empty()) {
                why.clone_into(&mut reason);
            } else if terminated.is_object() {
                reason = if int(&terminated["signal"]) == 0 {
                    format!("ExitCode:{}", int(&terminated["exitCode"]))
                } else {
                    format!("Signal:{}", int(&terminated["signal"]))
                };
            } else if container["ready"].as_bool() == Some(true) && state["running"].is_object() {
                running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && running {
            let shown = if condition_true(status, "Ready") {
                "Running"
            } else {
                "NotReady"
            };
            shown.clone_into(&mut reason);
        }
    }
    if pod["metadata"]["deletionTimestamp"].is_string() {
        let shown = if status["reason"] == "NodeLost" {
            "Unknown"
        } else {
            "Terminating"
        };
        shown.clone_into(&mut reason);
    }
    let ip = status["podIPs"][0]["ip"].as_str().unwrap_or_default().to_owned();
    let gates = pod["spec"]["readinessGates"].as_array().cloned().unwrap_or_default();
    let readiness_gates = if gates.is_empty() {
        "<none>".to_owned()
    } else {
        let passed = gates
            .iter()
            .filter(|gate| {
                gate["conditionType"]
                    .as_str()
                    .is_some_and(|t| condition_true(status, t))
            })
            .count();
        format!("{passed}/{}", gates.len())
    };
    vec![
        name(pod),
        Value::String(format!("{ready}/{total}")),
        Value::String(reason),
        json!(restarts),
        age(pod),
        or_none(ip),
        or_none(pod["spec"]["nodeName"].as_str().unwrap_or_default().to_owned()),
        or_none(status["nominatedNodeName"].as_str().unwrap_or_default().to_owned()),
        Value::String(readiness_gates),
    ]
}

/// Whether the status has a condition of `kind` that is True.
fn condition_true(status: &Value, kind: &str) -> bool {
    status["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == kind)
        .is_some_and(|c| c["status"] == "True")
}

const SERVICE: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Type",
        "string",
        0,
        "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ExternalName\" maps to the specified externalName. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a stable IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the clusterIP. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types",
    ),
    (
        "Cluster-IP",
        "string",
        0,
        "clusterIP is the IP address of the service and is usually assigned randomly by the master. If an address is specified manually and is not in use by others, it will be allocated to the service; otherwise, creation of the service will fail. This field can not be changed through updates. Valid values are \"None\", empty string (\"\"), or a valid IP address. \"None\" can be specified for headless services when proxying is not required. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
    ),
    (
        "External-IP",
        "string",
        0,
        "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
    ),
    (
        "Port(s)",
        "string",
        0,
        "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
    ),
    ("Age", "string", 0, CREATED),
    (
        "Selector",
        "string",
        1,
        "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
    ),
];

/// `loadBalancerStatusStringer` (wide, so never clipped): ingress IPs or hostnames.
fn load_balancer(status: &Value) -> String {
    let mut addresses: Vec<&str> = status["ingress"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| {
            i["ip"]
                .as_str()
                .filter(|ip| !ip.is_empty())
                .or_else(|| i["hostname"].as_str().filter(|h| !h.is_empty()))
        })
        .collect();
    addresses.sort_unstable();
    addresses.dedup();
    addresses.join(",")
}

fn service(service: &Value) -> Vec<Value> {
    let spec = &service["spec"];
    let kind = spec["type"].as_str().unwrap_or_default();
    let external_ips: Vec<&str> = spec["externalIPs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let external = match kind {
        "ClusterIP" | "NodePort" if !external_ips.is_empty() => external_ips.join(","),
        "ClusterIP" | "NodePort" => "<none>".to_owned(),
        "LoadBalancer" => {
            let balancer = load_balancer(&service["status"]["loadBalancer"]);
            let mut all: Vec<&str> = balancer.split(',').filter(|a| !a.is_empty()).collect();
            all.extend(&external_ips);
            if all.is_empty() {
                "<pending>".to_owned()
            } else {
                all.join(",")
            }
        }
        "ExternalName" => spec["externalName"].as_str().unwrap_or_default().to_owned(),
        _ => "<unknown>".to_owned(),
    };
    let ports: Vec<String> = spec["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let protocol = p["protocol"].as_str().unwrap_or_default();
            match int(&p["nodePort"]) {
                0 => format!("{}/{protocol}", int(&p["port"])),
                node_port => format!("{}:{node_port}/{protocol}", int(&p["port"])),
            }
        })
        .collect();
    vec![
        name(service),
        text(&spec["type"]),
        or_none(spec["clusterIP"].as_str().unwrap_or_default().to_owned()),
        Value::String(external),
        or_none(ports.join(",")),
        age(service),
        Value::String(format_labels(&spec["selector"])),
    ]
}

const EVENT: &[Spec] = &[
    (
        "Last Seen",
        "string",
        0,
        "The time at which the most recent occurrence of this event was recorded.",
    ),
    (
        "Type",
        "string",
        0,
        "Type of this event (Normal, Warning), new types could be added in the future",
    ),
    (
        "Reason",
        "string",
        0,
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    ("Object", "string", 0, "The object that this event is about."),
    (
        "Subobject",
        "string",
        1,
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
    ),
    (
        "Source",
        "string",
        1,
        "The component reporting this event. Should be a short machine understandable string.",
    ),
    (
        "Message",
        "string",
        0,
        "A human-readable description of the status of this operation.",
    ),
    (
        "First Seen",
        "string",
        1,
        "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
    ),
    ("Count", "string", 1, "The number of times this event has occurred."),
    ("Name", "string", 1, NAME),
];

/// `printEvent`, over either view of an Event: core/v1 names its fields
/// `involvedObject`, `message`, `firstTimestamp`...; events.k8s.io/v1 `regarding`,
/// `note`, `deprecatedFirstTimestamp`...
fn event(event: &Value) -> Vec<Value> {
    let field = |core: &str, events: &str| {
        let value = &event[core];
        if value.is_null() {
            event[events].clone()
        } else {
            value.clone()
        }
    };
    let first = field("firstTimestamp", "deprecatedFirstTimestamp");
    let first_seen = if first.is_string() {
        since(&first)
    } else {
        since(&event["eventTime"])
    };
    let last = field("lastTimestamp", "deprecatedLastTimestamp");
    let mut last_seen = if last.is_string() {
        since(&last)
    } else {
        first_seen.clone()
    };
    let series = &event["series"];
    let count = if series.is_object() {
        last_seen = since(&series["lastObservedTime"]);
        int(&series["count"]) + 1
    } else {
        match int(&field("count", "deprecatedCount")) {
            0 => 1,
            n => n,
        }
    };
    let regarding = field("involvedObject", "regarding");
    let kind = regarding["kind"].as_str().unwrap_or_default().to_lowercase();
    let target = match regarding["name"].as_str().filter(|n| !n.is_empty()) {
        Some(name) => format!("{kind}/{name}"),
        None => kind,
    };
    let source = field("source", "deprecatedSource");
    let first_non_empty = |a: &Value, b: &Value| {
        a.as_str()
            .filter(|s| !s.is_empty())
            .or_else(|| b.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let component = first_non_empty(&source["component"], &event["reportingController"]);
    let instance = first_non_empty(&source["host"], &event["reportingInstance"]);
    let source = if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    };
    let message = field("message", "note");
    vec![
        Value::String(last_seen),
        text(&event["type"]),
        text(&event["reason"]),
        Value::String(target),
        text(&regarding["fieldPath"]),
        Value::String(source),
        Value::String(message.as_str().unwrap_or_default().trim().to_owned()),
        Value::String(first_seen),
        json!(count),
        name(event),
    ]
}

const DEPLOYMENT: &[Spec] = &[
    ("Name", "string", 0, NAME),
    ("Ready", "string", 0, "Number of the pod with ready state"),
    (
        "Up-to-date",
        "string",
        0,
        "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
    ),
    (
        "Available",
        "string",
        0,
        "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
    ),
    ("Age", "string", 0, CREATED),
    ("Containers", "string", 1, CONTAINERS),
    ("Images", "string", 1, IMAGES),
    (
        "Selector",
        "string",
        1,
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
    ),
];

fn deployment(deployment: &Value) -> Vec<Value> {
    let (spec, status) = (&deployment["spec"], &deployment["status"]);
    let [containers, images] = containers_and_images(&spec["template"]["spec"]);
    vec![
        name(deployment),
        Value::String(format!("{}/{}", int(&status["readyReplicas"]), int(&spec["replicas"]))),
        json!(int(&status["updatedReplicas"])),
        json!(int(&status["availableReplicas"])),
        age(deployment),
        containers,
        images,
        Value::String(selector_string(&spec["selector"])),
    ]
}

const REPLICA_SET: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Desired",
        "integer",
        0,
        "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
    ),
    (
        "Current",
        "integer",
        0,
        "Replicas is the most recently oberved number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
    ),
    (
        "Ready",
        "integer",
        0,
        "The number of ready replicas for this replica set.",
    ),
    ("Age", "string", 0, CREATED),
    ("Containers", "string", 1, CONTAINERS),
    ("Images", "string", 1, IMAGES),
    (
        "Selector",
        "string",
        1,
        "Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    ),
];

fn replica_set(set: &Value) -> Vec<Value> {
    let (spec, status) = (&set["spec"], &set["status"]);
    let [containers, images] = containers_and_images(&spec["template"]["spec"]);
    vec![
        name(set),
        json!(int(&spec["replicas"])),
        json!(int(&status["replicas"])),
        json!(int(&status["readyReplicas"])),
        age(set),
        containers,
        images,
        Value::String(format_label_selector(&spec["selector"])),
    ]
}

const STATEFUL_SET: &[Spec] = &[
    ("Name", "string", 0, NAME),
    ("Ready", "string", 0, "Number of the pod with ready state"),
    ("Age", "string", 0, CREATED),
    ("Containers", "string", 1, CONTAINERS),
    ("Images", "string", 1, IMAGES),
];

fn stateful_set(set: &Value) -> Vec<Value> {
    let (spec, status) = (&set["spec"], &set["status"]);
    let [containers, images] = containers_and_images(&spec["template"]["spec"]);
    vec![
        name(set),
        Value::String(format!("{}/{}", int(&status["readyReplicas"]), int(&spec["replicas"]))),
        age(set),
        containers,
        images,
    ]
}

const DAEMON_SET: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Desired",
        "integer",
        0,
        "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
    ),
    (
        "Current",
        "integer",
        0,
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
    ),
    (
        "Ready",
        "integer",
        0,
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
    ),
    (
        "Up-to-date",
        "integer",
        0,
        "The total number of nodes that are running updated daemon pod",
    ),
    (
        "Available",
        "integer",
        0,
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
    ),
    (
        "Node Selector",
        "string",
        0,
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    ("Age", "string", 0, CREATED),
    ("Containers", "string", 1, CONTAINERS),
    ("Images", "string", 1, IMAGES),
    (
        "Selector",
        "string",
        1,
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    ),
];

fn daemon_set(set: &Value) -> Vec<Value> {
    let (spec, status) = (&set["spec"], &set["status"]);
    let pod_spec = &spec["template"]["spec"];
    let [containers, images] = containers_and_images(pod_spec);
    vec![
        name(set),
        json!(int(&status["desiredNumberScheduled"])),
        json!(int(&status["currentNumberScheduled"])),
        json!(int(&status["numberReady"])),
        json!(int(&status["updatedNumberScheduled"])),
        json!(int(&status["numberAvailable"])),
        Value::String(format_labels(&pod_spec["nodeSelector"])),
        age(set),
        containers,
        images,
        Value::String(format_label_selector(&spec["selector"])),
    ]
}

const JOB: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Completions",
        "string",
        0,
        "The number of pods which reached phase Succeeded.",
    ),
    ("Duration", "string", 0, "Time required to complete the job."),
    ("Age", "string", 0, CREATED),
    ("Containers", "string", 1, CONTAINERS),
    ("Images", "string", 1, IMAGES),
    ("Selector", "string", 1, JOB_SELECTOR),
];

fn job(job: &Value) -> Vec<Value> {
    let (spec, status) = (&job["spec"], &job["status"]);
    let succeeded = int(&status["succeeded"]);
    let completions = match spec["completions"].as_i64() {
        Some(completions) => format!("{succeeded}/{completions}"),
        None => match int(&spec["parallelism"]) {
            parallelism if parallelism > 1 => format!("{succeeded}/1 of {parallelism}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let duration = match (&status["startTime"], &status["completionTime"]) {
        (Value::String(_), Value::String(_)) => seconds_between(&status["startTime"], &status["completionTime"])
            .map(super::human::human_duration)
            .unwrap_or_default(),
        (start @ Value::String(_), _) => since(start),
        _ => String::new(),
    };
    let [containers, images] = containers_and_images(&spec["template"]["spec"]);
    vec![
        name(job),
        Value::String(completions),
        Value::String(duration),
        age(job),
        containers,
        images,
        Value::String(format_label_selector(&spec["selector"])),
    ]
}

const CRON_JOB: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Schedule",
        "string",
        0,
        "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
    ),
    (
        "Suspend",
        "boolean",
        0,
        "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
    ),
    ("Active", "integer", 0, "A list of pointers to currently running jobs."),
    (
        "Last Schedule",
        "string",
        0,
        "Information when was the last time the job was successfully scheduled.",
    ),
    ("Age", "string", 0, CREATED),
    ("Containers", "string", 1, CONTAINERS),
    ("Images", "string", 1, IMAGES),
    ("Selector", "string", 1, JOB_SELECTOR),
];

fn cron_job(cron_job: &Value) -> Vec<Value> {
    let (spec, status) = (&cron_job["spec"], &cron_job["status"]);
    let job_spec = &spec["jobTemplate"]["spec"];
    // printBoolPtr: a string, though the column says boolean.
    let suspend = match spec["suspend"].as_bool() {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    let last = &status["lastScheduleTime"];
    let last = if last.is_string() {
        since(last)
    } else {
        "<none>".to_owned()
    };
    let [containers, images] = containers_and_images(&job_spec["template"]["spec"]);
    vec![
        name(cron_job),
        text(&spec["schedule"]),
        Value::String(suspend.to_owned()),
        json!(count(&status["active"])),
        Value::String(last),
        age(cron_job),
        containers,
        images,
        Value::String(format_label_selector(&job_spec["selector"])),
    ]
}

const INGRESS: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Class",
        "string",
        0,
        "The name of the IngressClass resource that should be used for additional configuration",
    ),
    (
        "Hosts",
        "string",
        0,
        "Hosts that incoming requests are matched against before the ingress rule",
    ),
    (
        "Address",
        "string",
        0,
        "Address is a list containing ingress points for the load-balancer",
    ),
    ("Ports", "string", 0, "Ports of TLS configurations that open"),
    ("Age", "string", 0, CREATED),
];

fn ingress(ingress: &Value) -> Vec<Value> {
    let spec = &ingress["spec"];
    let rules = spec["rules"].as_array().cloned().unwrap_or_default();
    // formatHosts: the first three hosts, then how many more rules there are.
    let hosts: Vec<&str> = rules
        .iter()
        .take(3)
        .filter_map(|r| r["host"].as_str().filter(|h| !h.is_empty()))
        .collect();
    let hosts = match (hosts.is_empty(), rules.len() > 3) {
        (true, _) => "*".to_owned(),
        (false, true) => format!("{} + {} more...", hosts.join(","), rules.len() - 3),
        (false, false) => hosts.join(","),
    };
    let ports = if count(&spec["tls"]) > 0 { "80, 443" } else { "80" };
    vec![
        name(ingress),
        Value::String(spec["ingressClassName"].as_str().unwrap_or("<none>").to_owned()),
        Value::String(hosts),
        Value::String(load_balancer(&ingress["status"]["loadBalancer"])),
        Value::String(ports.to_owned()),
        age(ingress),
    ]
}

const ROLE_BINDING: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Role",
        "string",
        0,
        "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
    ),
    ("Age", "string", 0, CREATED),
    ("Users", "string", 1, "Users in the roleBinding"),
    ("Groups", "string", 1, "Groups in the roleBinding"),
    ("ServiceAccounts", "string", 1, "ServiceAccounts in the roleBinding"),
];

const CLUSTER_ROLE_BINDING: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Role",
        "string",
        0,
        "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
    ),
    ("Age", "string", 0, CREATED),
    ("Users", "string", 1, "Users in the clusterRoleBinding"),
    ("Groups", "string", 1, "Groups in the clusterRoleBinding"),
    (
        "ServiceAccounts",
        "string",
        1,
        "ServiceAccounts in the clusterRoleBinding",
    ),
];

/// `printRoleBinding` / `printClusterRoleBinding`, with `rbac.SubjectsStrings`.
fn binding(binding: &Value) -> Vec<Value> {
    let role = &binding["roleRef"];
    let (mut users, mut groups, mut accounts) = (Vec::new(), Vec::new(), Vec::new());
    for subject in binding["subjects"].as_array().into_iter().flatten() {
        let subject_name = subject["name"].as_str().unwrap_or_default();
        match subject["kind"].as_str().unwrap_or_default() {
            "User" => users.push(subject_name.to_owned()),
            "Group" => groups.push(subject_name.to_owned()),
            "ServiceAccount" => accounts.push(format!(
                "{}/{subject_name}",
                subject["namespace"].as_str().unwrap_or_default()
            )),
            _ => {}
        }
    }
    vec![
        name(binding),
        Value::String(format!(
            "{}/{}",
            role["kind"].as_str().unwrap_or_default(),
            role["name"].as_str().unwrap_or_default()
        )),
        age(binding),
        Value::String(users.join(", ")),
        Value::String(groups.join(", ")),
        Value::String(accounts.join(", ")),
    ]
}

const POD_DISRUPTION_BUDGET: &[Spec] = &[
    ("Name", "string", 0, NAME),
    (
        "Min Available",
        "string",
        0,
        "The minimum number of pods that must be available.",
    ),
    (
        "Max Unavailable",
        "string",
        0,
        "The maximum number of pods that may be unavailable.",
    ),
    (
        "Allowed Disruptions",
        "integer",
        0,
        "Calculated number of pods that may be disrupted at this time.",
    ),
    ("Age", "string", 0, CREATED),
];

fn pod_disruption_budget(budget: &Value) -> Vec<Value> {
    let spec = &budget["spec"];
    let int_or_string = |value: &Value| match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => "N/A".to_owned(),
    };
    vec![
        name(budget),
        Value::String(int_or_string(&spec["minAvailable"])),
        Value::String(int_or_string(&spec["maxUnavailable"])),
        json!(int(&budget["status"]["disruptionsAllowed"])),
        age(budget),
    ]
}
