//! The core/v1 defaults kube-apiserver fills in that validation depends on
//! (`pkg/apis/core/v1/defaults.go` and the `+default` markers of `k8s.io/api/core/v1`):
//! probes and HTTP handlers, the downward API's `apiVersion`, volume sources and
//! modes, ephemeral containers, host-network ports, the ports of endpoints, the items
//! of limit ranges, the selectors of replication controllers, a Service's session
//! affinity and a Node's allocatable resources.
//! Without them a valid object would fail the ported validation (a liveness probe's
//! `successThreshold` must be 1, which only the default makes it).

use serde_json::{Map, Value, json};

/// `SetDefaults_*` of the parts of a pod spec that `defaults::pod_spec` leaves out,
/// for Pods and every pod template.
pub(super) fn pod_spec(spec: &mut Value) {
    if let Some(volumes) = spec.get_mut("volumes").and_then(Value::as_array_mut) {
        volumes.iter_mut().for_each(volume);
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        let Some(containers) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for item in containers.iter_mut().filter(|c| c.is_object()) {
            if list == "ephemeralContainers" {
                container(item);
            }
            for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
                if let Some(probe) = item.get_mut(probe).filter(|p| p.is_object()) {
                    self::probe(probe);
                }
            }
            if let Some(lifecycle) = item.get_mut("lifecycle").filter(|l| l.is_object()) {
                for hook in ["postStart", "preStop"] {
                    if let Some(get) = lifecycle
                        .get_mut(hook)
                        .and_then(|h| h.get_mut("httpGet"))
                        .filter(|g| g.is_object())
                    {
                        http_get(get);
                    }
                }
            }
            if let Some(env) = item.get_mut("env").and_then(Value::as_array_mut) {
                for var in env {
                    if let Some(field) = var
                        .get_mut("valueFrom")
                        .and_then(|f| f.get_mut("fieldRef"))
                        .filter(|f| f.is_object())
                    {
                        set(field, "apiVersion", json!("v1"));
                    }
                }
            }
        }
    }
}

/// `SetDefaults_Pod`'s host-network ports: with `hostNetwork`, each container port's
/// `hostPort` defaults to the container port (Pods only, not templates).
pub(super) fn pod(pod: &mut Value) {
    if pod["spec"]["hostNetwork"] != true {
        return;
    }
    for list in ["containers", "initContainers"] {
        let Some(containers) = pod["spec"].get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for item in containers {
            let Some(ports) = item.get_mut("ports").and_then(Value::as_array_mut) else {
                continue;
            };
            for port in ports.iter_mut().filter(|p| p.is_object()) {
                if port["hostPort"].as_i64().unwrap_or(0) == 0 {
                    port["hostPort"] = port["containerPort"].clone();
                }
            }
        }
    }
}

/// `SetDefaults_Probe`, and its HTTP action's.
fn probe(probe: &mut Value) {
    for (field, value) in [
        ("timeoutSeconds", 1),
        ("periodSeconds", 10),
        ("successThreshold", 1),
        ("failureThreshold", 3),
    ] {
        if probe[field].as_i64().unwrap_or(0) == 0 {
            probe[field] = json!(value);
        }
    }
    if let Some(get) = probe.get_mut("httpGet").filter(|g| g.is_object()) {
        http_get(get);
    }
}

/// `SetDefaults_HTTPGetAction`.
fn http_get(get: &mut Value) {
    if get["path"].as_str().is_none_or(str::is_empty) {
        get["path"] = json!("/");
    }
    if get["scheme"].as_str().is_none_or(str::is_empty) {
        get["scheme"] = json!("HTTP");
    }
}

/// The volume sources a pod volume may have.
const SOURCES: &[&str] = &[
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
];

/// `SetDefaults_Volume` and the defaults of its sources.
fn volume(volume: &mut Value) {
    let Some(map) = volume.as_object_mut() else {
        return;
    };
    if SOURCES.iter().all(|source| map.get(*source).is_none_or(Value::is_null)) {
        map.insert("emptyDir".into(), json!({}));
    }
    // 0644, as `SecretVolumeSourceDefaultMode` and its siblings.
    for source in ["secret", "configMap", "downwardAPI", "projected"] {
        if let Some(source) = map.get_mut(source).filter(|s| s.is_object()) {
            set(source, "defaultMode", json!(420));
        }
    }
    if let Some(host) = map.get_mut("hostPath").filter(|s| s.is_object()) {
        set(host, "type", json!(""));
    }
    if let Some(files) = map
        .get_mut("downwardAPI")
        .and_then(|d| d.get_mut("items"))
        .and_then(Value::as_array_mut)
    {
        files.iter_mut().for_each(field_ref_version);
    }
    if let Some(sources) = map
        .get_mut("projected")
        .and_then(|p| p.get_mut("sources"))
        .and_then(Value::as_array_mut)
    {
        for source in sources.iter_mut().filter(|s| s.is_object()) {
            if let Some(files) = source
                .get_mut("downwardAPI")
                .and_then(|d| d.get_mut("items"))
                .and_then(Value::as_array_mut)
            {
                files.iter_mut().for_each(field_ref_version);
            }
            if let Some(token) = source.get_mut("serviceAccountToken").filter(|t| t.is_object()) {
                set(token, "expirationSeconds", json!(3600));
            }
        }
    }
    marked_defaults(map);
}

/// The `+default` markers of the in-tree volume sources.
fn marked_defaults(map: &mut serde_json::Map<String, Value>) {
    let defaults: &[(&str, &[(&str, Value)])] = &[
        ("iscsi", &[("iscsiInterface", json!("default"))]),
        (
            "rbd",
            &[
                ("pool", json!("rbd")),
                ("user", json!("admin")),
                ("keyring", json!("/etc/ceph/keyring")),
            ],
        ),
        (
            "azureDisk",
            &[
                ("cachingMode", json!("ReadWrite")),
                ("fsType", json!("ext4")),
                ("readOnly", json!(false)),
                ("kind", json!("Shared")),
            ],
        ),
        (
            "scaleIO",
            &[("storageMode", json!("ThinProvisioned")), ("fsType", json!("xfs"))],
        ),
    ];
    for (source, fields) in defaults {
        if let Some(source) = map.get_mut(*source).filter(|s| s.is_object()) {
            for (field, value) in *fields {
                set(source, field, value.clone());
            }
        }
    }
}

/// `SetDefaults_ObjectFieldSelector` of a downward API file.
fn field_ref_version(file: &mut Value) {
    if let Some(field) = file.get_mut("fieldRef").filter(|f| f.is_object()) {
        set(field, "apiVersion", json!("v1"));
    }
}

/// The other core kinds' defaults; `current` is the stored object on an update.
pub(super) fn apply(kind: &str, object: &mut Value, current: Option<&Value>) {
    match kind {
        "PersistentVolumeClaim" => {
            claim_data_sources(object, current);
            default_phase(object, "Pending");
        }
        "Endpoints" => endpoints(object),
        "LimitRange" => limit_range(object),
        "ReplicationController" => replication_controller(object),
        "Service" => session_affinity(object),
        "Node" => node(object),
        "Namespace" => {
            label_namespace(object);
            default_phase(object, "Active");
        }
        // `SetObjectDefaults_PersistentVolume`: its sources are defaulted as a pod
        // volume's same-named sources are (a host path's type, the markers).
        "PersistentVolume" => {
            default_phase(object, "Pending");
            if let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut) {
                if let Some(host) = spec.get_mut("hostPath").filter(|s| s.is_object()) {
                    set(host, "type", json!(""));
                }
                marked_defaults(spec);
            }
        }
        _ => {}
    }
}

/// `SetDefaults_NamespaceStatus`, `SetDefaults_PersistentVolume` and
/// `SetDefaults_PersistentVolumeClaim`: an object's status phase is `phase` unless it
/// says otherwise, on every write (a status write of `status: {}` included; the
/// status is a struct in Go, there even when the body leaves it out).
fn default_phase(object: &mut Value, phase: &str) {
    let Some(map) = object.as_object_mut() else {
        return;
    };
    let status = map.entry("status").or_insert_with(|| json!({}));
    if !status.is_object() {
        *status = json!({});
    }
    if status["phase"].as_str().is_none_or(str::is_empty) {
        status["phase"] = json!(phase);
    }
}

/// `SetDefaults_Namespace` (and the namespace strategy's `Canonicalize`, which labels
/// a namespace made from `generateName` once it has its name): a namespace with a name
/// is labelled with it.
pub(crate) fn label_namespace(object: &mut Value) {
    let Some(name) = object["metadata"]["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
    else {
        return;
    };
    let metadata = &mut object["metadata"];
    if !metadata["labels"].is_object() {
        metadata["labels"] = Value::Object(Map::new());
    }
    metadata["labels"]["kubernetes.io/metadata.name"] = Value::String(name);
}

/// `SetDefaults_Endpoints`: ports are TCP unless said otherwise.
fn endpoints(object: &mut Value) {
    let Some(subsets) = object.get_mut("subsets").and_then(Value::as_array_mut) else {
        return;
    };
    for subset in subsets {
        if let Some(ports) = subset.get_mut("ports").and_then(Value::as_array_mut) {
            for port in ports.iter_mut().filter(|p| p.is_object()) {
                set(port, "protocol", json!("TCP"));
            }
        }
    }
}

/// `SetDefaults_LimitRangeItem`: a Container limit's default is its max, its default
/// request its default (or its min).
fn limit_range(object: &mut Value) {
    let Some(limits) = object
        .get_mut("spec")
        .and_then(|s| s.get_mut("limits"))
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for limit in limits.iter_mut().filter(|l| l["type"] == "Container") {
        for field in ["default", "defaultRequest"] {
            if !limit[field].is_object() {
                limit[field] = json!({});
            }
        }
        let fill = |limit: &mut Value, from: &str, to: &str| {
            let source = limit[from].as_object().cloned().unwrap_or_default();
            for (key, value) in source {
                if limit[to].get(&key).is_none() {
                    limit[to][key.as_str()] = value;
                }
            }
        };
        fill(limit, "max", "default");
        fill(limit, "default", "defaultRequest");
        fill(limit, "min", "defaultRequest");
    }
}

/// `SetDefaults_ReplicationController`: the selector and labels default to the
/// template's labels.
fn replication_controller(object: &mut Value) {
    let labels = object["spec"]["template"]["metadata"]["labels"].clone();
    if !labels.is_object() {
        return;
    }
    let empty = |value: &Value| value.as_object().is_none_or(serde_json::Map::is_empty);
    if object["spec"].is_object() && empty(&object["spec"]["selector"]) {
        object["spec"]["selector"] = labels.clone();
    }
    if object["metadata"].is_object() && empty(&object["metadata"]["labels"]) {
        object["metadata"]["labels"] = labels;
    }
}

/// `SetDefaults_Service`'s session affinity (no config without `ClientIP`, three hours
/// of stickiness with it) and external traffic policy (`Cluster` for a `ClusterIP`
/// Service with external IPs too), and the strategy's `NormalizeClusterIPs` for any
/// type (`clusterIPs` follow a given `clusterIP`).
fn session_affinity(object: &mut Value) {
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    let external_ips = spec["externalIPs"].as_array().is_some_and(|ips| !ips.is_empty());
    if spec["type"] == "ClusterIP" && external_ips {
        set(spec, "externalTrafficPolicy", json!("Cluster"));
    }
    if let Some(ip) = spec["clusterIP"]
        .as_str()
        .filter(|ip| !ip.is_empty())
        .map(str::to_owned)
        && spec["clusterIPs"].as_array().is_none_or(Vec::is_empty)
    {
        spec["clusterIPs"] = json!([ip]);
    }
    if spec["sessionAffinity"] == "None"
        && let Some(map) = spec.as_object_mut()
    {
        map.remove("sessionAffinityConfig");
    }
    if spec["sessionAffinity"] == "ClientIP" && spec["sessionAffinityConfig"]["clientIP"]["timeoutSeconds"].is_null() {
        spec["sessionAffinityConfig"] = json!({"clientIP": {"timeoutSeconds": 10800}});
    }
}

/// `SetDefaults_NodeStatus`: allocatable is the capacity unless given.
fn node(object: &mut Value) {
    let Some(status) = object.get_mut("status").filter(|s| s.is_object()) else {
        return;
    };
    if status["allocatable"].is_null() && status["capacity"].is_object() {
        status["allocatable"] = status["capacity"].clone();
    }
}

/// The Service strategy's `dropTypeDependentFields`: on an update to a type that no
/// longer uses them, the cluster IPs, IP families, node ports, health check port,
/// load balancer fields and external traffic policy the client left as they were are
/// dropped (to be released), so that validation does not refuse what the client never
/// asked for.
pub(super) fn drop_type_dependent_fields(service: &mut Value, old: &Value) {
    let Some(spec) = service.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    let old_spec = &old["spec"];
    let kind = |spec: &Value| spec["type"].as_str().unwrap_or("ClusterIP").to_owned();
    let (old_type, new_type) = (kind(old_spec), kind(spec));
    let same = |field: &str, spec: &Value| spec[field] == old_spec[field];
    let drop = |spec: &mut Value, field: &str| {
        if let Some(map) = spec.as_object_mut() {
            map.remove(field);
        }
    };
    if old_type != "ExternalName" && new_type == "ExternalName" {
        if same("clusterIP", spec) && same("clusterIPs", spec) {
            drop(spec, "clusterIP");
            drop(spec, "clusterIPs");
        }
        if same("ipFamilies", spec) {
            drop(spec, "ipFamilies");
        }
        if same("ipFamilyPolicy", spec) {
            drop(spec, "ipFamilyPolicy");
        }
    }
    let node_ports = |spec: &Value| -> Vec<i64> {
        spec["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["nodePort"].as_i64())
            .filter(|p| *p != 0)
            .collect()
    };
    let needs_node_port = |kind: &str| kind == "NodePort" || kind == "LoadBalancer";
    let superset = node_ports(spec).iter().all(|port| node_ports(old_spec).contains(port));
    if needs_node_port(&old_type)
        && !needs_node_port(&new_type)
        && superset
        && let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut)
    {
        for port in ports.iter_mut().filter_map(Value::as_object_mut) {
            port.remove("nodePort");
        }
    }
    let needs_health_check =
        |spec: &Value, kind: &str| kind == "LoadBalancer" && spec["externalTrafficPolicy"] == "Local";
    if needs_health_check(old_spec, &old_type)
        && !needs_health_check(spec, &new_type)
        && same("healthCheckNodePort", spec)
    {
        drop(spec, "healthCheckNodePort");
    }
    if old_type == "LoadBalancer" && new_type != "LoadBalancer" {
        if spec["allocateLoadBalancerNodePorts"].is_boolean() && same("allocateLoadBalancerNodePorts", spec) {
            drop(spec, "allocateLoadBalancerNodePorts");
        }
        if same("loadBalancerClass", spec) {
            drop(spec, "loadBalancerClass");
        }
    }
    let accessible = |spec: &Value, kind: &str| {
        kind == "NodePort"
            || kind == "LoadBalancer"
            || (kind == "ClusterIP" && spec["externalIPs"].as_array().is_some_and(|ips| !ips.is_empty()))
    };
    if accessible(old_spec, &old_type) && !accessible(spec, &new_type) && same("externalTrafficPolicy", spec) {
        drop(spec, "externalTrafficPolicy");
    }
}

/// The claim strategy's `EnforceDataSourceBackwardsCompatibility` (a `dataSource` other
/// than a claim or a volume snapshot is dropped, as it always was, unless the stored
/// claim had one or `dataSourceRef` is given) and `NormalizeDataSources` (each of
/// `dataSource` and `dataSourceRef` fills the other).
fn claim_data_sources(claim: &mut Value, current: Option<&Value>) {
    let in_use = current.is_some_and(|c| !c["spec"]["dataSource"].is_null() || !c["spec"]["dataSourceRef"].is_null());
    let Some(spec) = claim.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let source = spec.get("dataSource").cloned().unwrap_or_default();
    let reference = spec.get("dataSourceRef").cloned().unwrap_or_default();
    if !in_use && reference.is_null() && !source.is_null() {
        let group = source["apiGroup"].as_str().unwrap_or_default();
        let kind = source["kind"].as_str().unwrap_or_default();
        let claim_or_snapshot = (group.is_empty() && kind == "PersistentVolumeClaim")
            || (group == "snapshot.storage.k8s.io" && kind == "VolumeSnapshot");
        if !claim_or_snapshot {
            spec.remove("dataSource");
        }
    }
    let source = spec.get("dataSource").cloned().unwrap_or_default();
    let copy = |from: &Value| {
        let mut to = json!({"kind": from["kind"], "name": from["name"]});
        if from["apiGroup"].is_string() {
            to["apiGroup"] = from["apiGroup"].clone();
        }
        to
    };
    if !source.is_null() && reference.is_null() {
        spec.insert("dataSourceRef".into(), copy(&source));
    } else if source.is_null() && !reference.is_null() && reference["namespace"].as_str().is_none_or(str::is_empty) {
        spec.insert("dataSource".into(), copy(&reference));
    }
}

/// Sets `field` of an object unless it is there already.
pub(super) fn set(object: &mut Value, field: &str, value: Value) {
    if object.is_null() {
        *object = Value::Object(Map::new());
    } else if !object.is_object() {
        return; // malformed: decoding reports it with the real server's message
    }
    if object.get(field).is_none_or(Value::is_null) {
        object[field] = value;
    }
}

/// The tag `parsers.ParseImageName` reads from an image reference (the docker
/// reference grammar): the one written, `latest` when neither tag nor digest is, and
/// none when the reference does not parse (empty, upper case in the path, a bare
/// 64-hex identifier, longer than 255 characters).
fn image_tag(image: &str) -> &str {
    static REFERENCE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let alphanumeric = "[a-z0-9]+";
        let separator = "(?:[._]|__|[-]+)";
        let component = format!("{alphanumeric}(?:{separator}{alphanumeric})*");
        let domain_component = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
        let host = format!(r"(?:{domain_component}(?:\.{domain_component})*|\[(?:[a-fA-F0-9:]+)\])");
        let domain = format!("{host}(?::[0-9]+)?");
        let name = format!("(?:{domain}/)?{component}(?:/{component})*");
        let tag = r"[\w][\w.-]{0,127}";
        let digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
        regex::Regex::new(&format!("^({name})(?::({tag}))?(?:@({digest}))?$")).expect("the reference grammar")
    });
    let identifier = image.len() == 64 && image.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    let Some(parts) = REFERENCE.captures(image).filter(|_| !identifier) else {
        return "";
    };
    if parts.get(1).map_or(0, |name| name.as_str().len()) > 255 {
        return "";
    }
    match (parts.get(2), parts.get(3)) {
        (Some(tag), _) => tag.as_str(),
        (None, Some(_)) => "",
        (None, None) => "latest",
    }
}

/// `SetDefaults_Container`.
pub(super) fn container(container: &mut Value) {
    if !container.is_object() {
        return;
    }
    let image = container["image"].as_str().unwrap_or_default();
    let policy = if image_tag(image) == "latest" {
        "Always"
    } else {
        "IfNotPresent"
    };
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
