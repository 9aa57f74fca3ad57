//! The warnings about a pod or a pod template (`pkg/api/pod/warnings.go`), and the
//! node-label and claim helpers they share with other kinds (`pkg/api/node`,
//! `pkg/api/persistentvolumeclaim`).

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::common::pods::{APPARMOR_CONTAINER, SECCOMP_CONTAINER, SECCOMP_POD};
use crate::common::read::{entries, int, items, text};
use crate::field::Path;
use crate::godump::quote;
use crate::quantity::Quantity;

/// `deprecatedNodeLabels`: node labels kube warns about wherever a selector names them.
pub(super) fn deprecated_node_label(key: &str) -> Option<&'static str> {
    Some(match key {
        "beta.kubernetes.io/arch" => r#"deprecated since v1.14; use "kubernetes.io/arch" instead"#,
        "beta.kubernetes.io/os" => r#"deprecated since v1.14; use "kubernetes.io/os" instead"#,
        "failure-domain.beta.kubernetes.io/region" => {
            r#"deprecated since v1.17; use "topology.kubernetes.io/region" instead"#
        }
        "failure-domain.beta.kubernetes.io/zone" => {
            r#"deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#
        }
        "beta.kubernetes.io/instance-type" => {
            r#"deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#
        }
        "app.kubernetes.io/created-by" => "deprecated since v1.9",
        "scheduler.alpha.kubernetes.io/preferAvoidPods" => "deprecated since v1.22; use Taints and Tolerations instead",
        "node-role.kubernetes.io/master" => r#"use "node-role.kubernetes.io/control-plane" instead"#,
        _ => return None,
    })
}

/// `GetWarningsForNodeSelectorTerm`: each match expression on a deprecated label.
pub(super) fn node_selector_term(term: &Value, path: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    for (i, expression) in items(&term["matchExpressions"]).iter().enumerate() {
        let key = text(&expression["key"]);
        if let Some(message) = deprecated_node_label(key) {
            let at = path.child("matchExpressions").index(i).child("key");
            warnings.push(format!("{}: {key} is {message}", at.as_str()));
        }
    }
    warnings
}

/// `GetWarningsForNodeSelector` (a label selector over nodes): expressions, then labels.
pub(super) fn node_label_selector(selector: &Value, path: &Path) -> Vec<String> {
    let mut warnings = node_selector_term(selector, path);
    for label in entries(&selector["matchLabels"]).into_iter().flat_map(|m| m.keys()) {
        if let Some(message) = deprecated_node_label(label) {
            warnings.push(format!(
                "{}: {message}",
                path.child("matchLabels").child(label).as_str()
            ));
        }
    }
    warnings
}

/// The "fractional byte value" warning for `resources[name]`, when it is not a whole
/// number of bytes (`MilliValue() % 1000 != 0`).
fn fractional_bytes(resources: &Value, name: &str, path: &Path) -> Option<String> {
    let value = resources.get(name).filter(|v| !v.is_null())?;
    let quantity = Quantity::from_json(value);
    (quantity.milli_value() % 1000 != 0).then(|| {
        format!(
            "{}: fractional byte value {} is invalid, must be an integer",
            path.key(name).as_str(),
            quote(&quantity.to_string())
        )
    })
}

/// `GetWarningsForPersistentVolumeClaimSpec`: a storage request or limit that is not a
/// whole number of bytes.
pub(super) fn claim_spec(path: &Path, spec: &Value) -> Vec<String> {
    let resources = path.child("resources");
    ["requests", "limits"]
        .into_iter()
        .filter_map(|kind| fractional_bytes(&spec["resources"][kind], "storage", &resources.child(kind)))
        .collect()
}

/// `deprecatedAnnotations` of pods: annotations nothing reads any more.
const DEPRECATED_ANNOTATIONS: [(&str, &str); 3] = [
    (
        "scheduler.alpha.kubernetes.io/critical-pod",
        r#"non-functional in v1.16+; use the "priorityClassName" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/unsafe-sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
];

/// Volume plugins kube deprecated or removed, with what it says of each.
const DEPRECATED_VOLUMES: [(&str, &str); 9] = [
    ("photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
    ("gitRepo", "deprecated in v1.11"),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("flocker", "deprecated in v1.22, non-functional in v1.25+"),
    ("storageOS", "deprecated in v1.22, non-functional in v1.25+"),
    ("quobyte", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
];

/// What a client's object may cost the pairwise checks below (ports of one number,
/// paths of one volume), which kube runs over every pair: at most this many pairs
/// are compared and this many warnings made per check. The warning recorder sends at
/// most 4,096 runes of warnings, and none here is shorter than 20, so the warnings
/// kept are more than a client can ever receive; the pairs, a few milliseconds of work,
/// are past any object but one built to be slow (150,000 ports of one number would be
/// 10^10 pairs).
const MAX_PAIRS: usize = 1_000_000;
const MAX_FOUND: usize = 1_024;

/// The pairs compared and warnings made so far by one check.
#[derive(Default)]
struct Budget {
    pairs: usize,
}

impl Budget {
    /// Counts one more pair; false once the check has done enough.
    fn pair(&mut self, found: usize) -> bool {
        self.pairs += 1;
        !self.spent(found)
    }

    /// Whether the check has done enough, having made `found` warnings.
    fn spent(&self, found: usize) -> bool {
        self.pairs > MAX_PAIRS || found >= MAX_FOUND
    }
}

/// Whether a field holds a value (Go's non-nil pointer).
fn set(value: &Value) -> bool {
    !value.is_null()
}

/// `pods.VisitContainersWithPath`: init containers, containers, ephemeral containers,
/// each with its path under `spec`.
fn containers<'a>(spec: &'a Value, spec_path: &Path) -> Vec<(&'a Value, Path)> {
    ["initContainers", "containers", "ephemeralContainers"]
        .into_iter()
        .flat_map(|list| {
            let path = spec_path.child(list);
            items(&spec[list])
                .iter()
                .enumerate()
                .map(move |(i, container)| (container, path.index(i)))
        })
        .collect()
}

/// `warningsForPodSpecAndMeta`: what kube warns about in a pod's `spec` and `metadata`
/// (`template` says whether they are a template's, under `path`, or a pod's own), in
/// kube's order.
pub(super) fn spec_and_meta(path: &Path, template: bool, spec: &Value, meta: &Value) -> Vec<String> {
    let spec_path = path.child("spec");
    let annotation_path = path.child("metadata").child("annotations");
    let has_annotation = |key: &str| entries(&meta["annotations"]).is_some_and(|m| m.contains_key(key));
    let mut warnings = scheduling(spec, &spec_path);
    for (key, message) in DEPRECATED_ANNOTATIONS {
        if has_annotation(key) {
            warnings.push(format!("{}: {message}", annotation_path.key(key).as_str()));
        }
    }
    warnings.extend(volumes(spec, &spec_path));
    warnings.extend(duplicates(spec, &spec_path));
    for resource in ["memory", "ephemeral-storage"] {
        warnings.extend(fractional_bytes(
            &spec["overhead"],
            resource,
            &spec_path.child("overhead"),
        ));
    }
    let pod_security = &spec["securityContext"];
    if !set(&pod_security["seccompProfile"]) && has_annotation(SECCOMP_POD) {
        warnings.push(format!(
            r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
            annotation_path.key(SECCOMP_POD).as_str()
        ));
    }
    let pod_apparmor = set(&pod_security["appArmorProfile"]);
    let visited = containers(spec, &spec_path);
    for (container, at) in &visited {
        let name = text(&container["name"]);
        let security = &container["securityContext"];
        let seccomp_key = format!("{SECCOMP_CONTAINER}{name}");
        if !set(&security["seccompProfile"]) && has_annotation(&seccomp_key) {
            warnings.push(format!(
                r#"{}: non-functional in v1.27+; use the "seccompProfile" field instead"#,
                annotation_path.key(&seccomp_key).as_str()
            ));
        }
        // A pod's own annotation is warned of as its strategy syncs it with the field.
        let apparmor_key = format!("{APPARMOR_CONTAINER}{name}");
        if template && !(pod_apparmor || set(&security["appArmorProfile"])) && has_annotation(&apparmor_key) {
            warnings.push(format!(
                r#"{}: deprecated since v1.30; use the "appArmorProfile" field instead"#,
                annotation_path.key(&apparmor_key).as_str()
            ));
        }
        let resources = &container["resources"];
        for (kind, resource) in [
            ("limits", "memory"),
            ("requests", "memory"),
            ("limits", "ephemeral-storage"),
            ("requests", "ephemeral-storage"),
        ] {
            let path = at.child("resources").child(kind);
            warnings.extend(fractional_bytes(&resources[kind], resource, &path));
        }
        warnings.extend(hidden_env(container, at));
    }
    warnings.extend(port_conflicts(&visited));
    if spec["terminationGracePeriodSeconds"]
        .as_i64()
        .is_some_and(|seconds| seconds < 0)
    {
        warnings.push(format!(
            "{}: must be >= 0; negative values are invalid and will be treated as 1",
            spec_path.child("terminationGracePeriodSeconds").as_str()
        ));
    }
    warnings.extend(pod_affinity(spec, &spec_path));
    warnings
}

/// Deprecated node labels in the node selector, node affinity and topology spread
/// constraints, and spread constraints that select no pod.
fn scheduling(spec: &Value, spec_path: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    for key in entries(&spec["nodeSelector"]).into_iter().flat_map(|m| m.keys()) {
        if let Some(message) = deprecated_node_label(key) {
            warnings.push(format!(
                "{}: {message}",
                spec_path.child("nodeSelector").key(key).as_str()
            ));
        }
    }
    let node_affinity = &spec["affinity"]["nodeAffinity"];
    if set(node_affinity) {
        let affinity_path = spec_path.child("affinity").child("nodeAffinity");
        let required = &node_affinity["requiredDuringSchedulingIgnoredDuringExecution"];
        let terms = affinity_path
            .child("requiredDuringSchedulingIgnoredDuringExecution")
            .child("nodeSelectorTerms");
        for (i, term) in items(&required["nodeSelectorTerms"]).iter().enumerate() {
            warnings.extend(node_selector_term(term, &terms.index(i)));
        }
        let preferred = affinity_path.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in items(&node_affinity["preferredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .enumerate()
        {
            warnings.extend(node_selector_term(
                &term["preference"],
                &preferred.index(i).child("preference"),
            ));
        }
    }
    for (i, constraint) in items(&spec["topologySpreadConstraints"]).iter().enumerate() {
        let at = spec_path.child("topologySpreadConstraints").index(i);
        let key = text(&constraint["topologyKey"]);
        if let Some(message) = deprecated_node_label(key) {
            warnings.push(format!("{}: {key} is {message}", at.child("topologyKey").as_str()));
        }
        if !set(&constraint["labelSelector"]) {
            warnings.push(format!(
                "{}: a null labelSelector results in matching no pod",
                at.child("labelSelector").as_str()
            ));
        }
    }
    warnings
}

/// Deprecated volume plugins, ephemeral claims' fractional bytes, overlapping paths.
fn volumes(spec: &Value, spec_path: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    for (i, volume) in items(&spec["volumes"]).iter().enumerate() {
        let at = spec_path.child("volumes").index(i);
        for (plugin, message) in &DEPRECATED_VOLUMES[..7] {
            if set(&volume[*plugin]) {
                warnings.push(format!("{}: {message}", at.child(plugin).as_str()));
            }
        }
        let template = &volume["ephemeral"]["volumeClaimTemplate"];
        if set(&volume["ephemeral"]) && set(template) {
            let claim = at.child("ephemeral").child("volumeClaimTemplate").child("spec");
            warnings.extend(claim_spec(&claim, &template["spec"]));
        }
        for (plugin, message) in &DEPRECATED_VOLUMES[7..] {
            if set(&volume[*plugin]) {
                warnings.push(format!("{}: {message}", at.child(plugin).as_str()));
            }
        }
    }
    warnings.extend(overlapping_virtual_paths(items(&spec["volumes"])));
    warnings
}

/// Host aliases of one IP, image pull secrets of one name, and pull secrets with none.
fn duplicates(spec: &Value, spec_path: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    let host_aliases = items(&spec["hostAliases"]);
    if host_aliases.len() > 1 {
        let mut seen = BTreeSet::new();
        for (i, alias) in host_aliases.iter().enumerate() {
            let ip = text(&alias["ip"]);
            if !seen.insert(ip) {
                let at = spec_path.child("hostAliases").index(i).child("ip");
                warnings.push(format!("{}: duplicate ip {}", at.as_str(), quote(ip)));
            }
        }
    }
    let pull_secrets = items(&spec["imagePullSecrets"]);
    if pull_secrets.len() > 1 {
        let mut seen = BTreeSet::new();
        for (i, secret) in pull_secrets.iter().enumerate() {
            let name = text(&secret["name"]);
            if !seen.insert(name) {
                let at = spec_path.child("imagePullSecrets").index(i).child("name");
                warnings.push(format!("{}: duplicate name {}", at.as_str(), quote(name)));
            }
        }
    }
    for (i, secret) in pull_secrets.iter().enumerate() {
        let name = text(&secret["name"]);
        if name.is_empty() {
            let at = spec_path.child("imagePullSecrets").index(i).child("name");
            warnings.push(format!("{}: invalid empty name {}", at.as_str(), quote(name)));
        }
    }
    warnings
}

/// Pod (anti-)affinity terms without a label selector, which match no pod.
fn pod_affinity(spec: &Value, spec_path: &Path) -> Vec<String> {
    let mut warnings = Vec::new();
    for kind in ["podAffinity", "podAntiAffinity"] {
        let affinity = &spec["affinity"][kind];
        if !set(affinity) {
            continue;
        }
        let at = spec_path.child("affinity").child(kind);
        let required = at.child("requiredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in items(&affinity["requiredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .enumerate()
        {
            if !set(&term["labelSelector"]) {
                warnings.push(format!(
                    "{}: a null labelSelector results in matching no pod",
                    required.index(i).child("labelSelector").as_str()
                ));
            }
        }
        let preferred = at.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in items(&affinity["preferredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .enumerate()
        {
            if !set(&term["podAffinityTerm"]["labelSelector"]) {
                warnings.push(format!(
                    "{}: a null labelSelector results in matching no pod",
                    preferred
                        .index(i)
                        .child("podAffinityTerm")
                        .child("labelSelector")
                        .as_str()
                ));
            }
        }
    }
    warnings
}

/// A container's env var defined again in a way that hides the earlier one (which
/// server-side apply, keyed by name, may drop): by `valueFrom`, as `$(X)` itself, or
/// by a value that does not refer to `$(X)`.
fn hidden_env(container: &Value, path: &Path) -> Vec<String> {
    let env = items(&container["env"]);
    let mut warnings = Vec::new();
    if env.len() < 2 {
        return warnings;
    }
    let mut seen = BTreeSet::new();
    for (i, item) in env.iter().enumerate() {
        let name = text(&item["name"]);
        if seen.insert(name) {
            continue;
        }
        let reference = format!("$({name})");
        let value = text(&item["value"]);
        if set(&item["valueFrom"]) || value == reference || !value.contains(&reference) {
            warnings.push(format!(
                "{}: hides previous definition of {}, which may be dropped when using apply",
                path.child("env").index(i).as_str(),
                quote(name)
            ));
        }
    }
    warnings
}

/// A container port's Go `%+v` (`{Name:http HostPort:0 ContainerPort:80 Protocol:TCP HostIP:1.2.3.4}`).
fn port_dump(port: &Value) -> String {
    format!(
        "{{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{}}}",
        text(&port["name"]),
        int(&port["hostPort"]),
        int(&port["containerPort"]),
        text(&port["protocol"]),
        text(&port["hostIP"])
    )
}

/// Ports across all containers: a host IP without a host port, and two ports of one
/// number and protocol that are the same, overlap (one without a host port) or are
/// ambiguous (the same host port, one with a host IP and one without).
fn port_conflicts(containers: &[(&Value, Path)]) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut budget = Budget::default();
    let mut all: HashMap<String, Vec<(Path, &Value)>> = HashMap::new();
    for (container, path) in containers {
        for (i, port) in items(&container["ports"]).iter().enumerate() {
            let at = path.child("ports").index(i);
            let host_ip = text(&port["hostIP"]);
            let host_port = int(&port["hostPort"]);
            if !host_ip.is_empty() && host_port == 0 {
                warnings.push(format!(
                    "{}: hostIP set without hostPort: {}",
                    at.as_str(),
                    port_dump(port)
                ));
            }
            let key = format!("{}/{}", int(&port["containerPort"]), text(&port["protocol"]));
            let others = all.entry(key).or_default();
            for (other_path, other) in others.iter() {
                if !budget.pair(warnings.len()) {
                    return warnings;
                }
                let other_ip = text(&other["hostIP"]);
                let other_port = int(&other["hostPort"]);
                let conflict = if host_ip == other_ip && host_port == other_port {
                    "duplicate"
                } else if host_port == 0 || other_port == 0 {
                    "overlapping"
                } else if host_port == other_port && (host_ip.is_empty() != other_ip.is_empty()) {
                    "dangerously ambiguous"
                } else {
                    continue;
                };
                warnings.push(format!(
                    "{}: {conflict} port definition with {}",
                    at.as_str(),
                    other_path.as_str()
                ));
            }
            others.push((at, port));
        }
    }
    warnings
}

/// A path a volume projects a key to, and where it came from (`pathAndSource`).
#[derive(Clone, PartialEq)]
struct Projected {
    path: String,
    source: String,
}

impl Projected {
    fn new(path: &str, source: String) -> Self {
        Self {
            path: path.trim_end_matches('/').to_owned(),
            source,
        }
    }

    /// `"path" (source)`, or only the quoted path.
    fn describe(&self) -> String {
        if self.source.is_empty() {
            quote(&self.path)
        } else {
            format!("{} ({})", quote(&self.path), self.source)
        }
    }
}

/// `checkForOverlap`: the earlier paths equal to `needle`, or holding it or held by
/// it as a directory.
fn overlaps<'a>(earlier: &'a [Projected], needle: &Projected, budget: &mut Budget, made: usize) -> Vec<&'a Projected> {
    if needle.path.is_empty() {
        return Vec::new();
    }
    // `inner + "/"` starts with `outer + "/"`: the same path, or one under the other.
    let under = |outer: &str, inner: &str| {
        inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    let mut found = Vec::new();
    for item in earlier {
        if !budget.pair(made + found.len()) {
            break;
        }
        if !item.path.is_empty()
            && (item == needle || under(&needle.path, &item.path) || under(&item.path, &needle.path))
        {
            found.push(item);
        }
    }
    found
}

/// The paths of a list of key mappings (`extractPaths`), as given (trimmed later).
fn mapped(list: &Value, source: &str) -> Vec<(String, String)> {
    items(list)
        .iter()
        .map(|item| (text(&item["path"]).to_owned(), source.to_owned()))
        .collect()
}

/// `checkVolumeMappingForOverlap`: each path against those before it in one mapping.
fn mapping_overlaps(paths: Vec<(String, String)>, budget: &mut Budget) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut earlier: Vec<Projected> = Vec::new();
    for (path, source) in paths {
        // Each path is work too, compared or not.
        if !budget.pair(warnings.len()) {
            break;
        }
        let needle = Projected::new(&path, source);
        for found in overlaps(&earlier, &needle, budget, warnings.len()) {
            warnings.push(format!("{} with {}", needle.describe(), found.describe()));
        }
        earlier.push(needle);
    }
    warnings
}

/// `warningsForOverlappingVirtualPaths`: config map, secret, downward API and projected
/// volumes that write two keys to one path, or one under another's.
fn overlapping_virtual_paths(volumes: &[Value]) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut budget = Budget::default();
    for volume in volumes {
        if budget.spent(warnings.len()) {
            break;
        }
        let name = quote(text(&volume["name"]));
        let warn = |description: &str, body: &str| format!("volume {name} ({description}): overlapping paths: {body}");
        for (field, names, label) in [
            ("configMap", "name", "ConfigMap"),
            ("secret", "secretName", "Secret"),
            ("downwardAPI", "", "DownwardAPI"),
        ] {
            let source = &volume[field];
            if !set(source) || !source["items"].is_array() {
                continue;
            }
            let description = if names.is_empty() {
                label.to_owned()
            } else {
                format!("{label} {}", quote(text(&source[names])))
            };
            for body in mapping_overlaps(mapped(&source["items"], ""), &mut budget) {
                warnings.push(warn(&description, &body));
            }
        }
        if !set(&volume["projected"]) {
            continue;
        }
        // As in kube, a source that matches no case keeps the paths of the one before.
        let mut source_paths: Vec<(String, String)> = Vec::new();
        let mut all: Vec<Projected> = Vec::new();
        for source in items(&volume["projected"]["sources"]) {
            if entries(source).is_none_or(|fields| fields.values().all(Value::is_null)) {
                warnings.push(format!("volume {name} (Projected) has no sources provided"));
                continue;
            }
            let config_map = &source["configMap"];
            let secret = &source["secret"];
            let downward = &source["downwardAPI"];
            let bundle = &source["clusterTrustBundle"];
            if set(config_map) && config_map["items"].is_array() {
                let label = format!("ConfigMap {}", quote(text(&config_map["name"])));
                source_paths = mapped(&config_map["items"], &label);
            } else if set(secret) && secret["items"].is_array() {
                let label = format!("Secret {}", quote(text(&secret["name"])));
                source_paths = mapped(&secret["items"], &label);
            } else if set(downward) && downward["items"].is_array() {
                source_paths = mapped(&downward["items"], "DownwardAPI");
            } else if set(&source["serviceAccountToken"]) {
                let path = text(&source["serviceAccountToken"]["path"]).to_owned();
                source_paths = vec![(path, "ServiceAccountToken".to_owned())];
            } else if set(bundle) {
                let name = if set(&bundle["name"]) {
                    text(&bundle["name"])
                } else {
                    text(&bundle["signerName"])
                };
                let label = format!("ClusterTrustBundle {}", quote(name));
                source_paths = vec![(text(&bundle["path"]).to_owned(), label)];
            }
            for (path, source) in &source_paths {
                // Each path is work too, compared or not (a source that repeats the
                // paths before it can add as many again).
                if !budget.pair(warnings.len()) {
                    return warnings;
                }
                let needle = Projected::new(path, source.clone());
                for found in overlaps(&all, &needle, &mut budget, warnings.len()) {
                    let body = format!("{} with {}", needle.describe(), found.describe());
                    warnings.push(warn("Projected", &body));
                }
                all.push(needle);
            }
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn pairwise_checks_stop_at_their_budget() {
        // 2,000 ports of one number without host ports, every pair a duplicate; and
        // 2,000 paths all the same: two million warnings each without the budget.
        let ports: Vec<Value> = (0..2_000)
            .map(|i| json!({"name": format!("p{i}"), "containerPort": 80, "protocol": "TCP"}))
            .collect();
        let items: Vec<Value> = (0..2_000)
            .map(|i| json!({"key": format!("k{i}"), "path": "same"}))
            .collect();
        let spec = json!({"containers": [{"name": "c", "ports": ports}],
                          "volumes": [{"name": "v", "configMap": {"name": "m", "items": items}}]});
        let warnings = spec_and_meta(&Path::new(""), false, &spec, &json!({}));
        let count = |what: &str| warnings.iter().filter(|w| w.contains(what)).count();
        assert_eq!(count("overlapping paths"), MAX_FOUND);
        assert_eq!(count("duplicate port definition"), MAX_FOUND);
    }
}
