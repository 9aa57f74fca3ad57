//! The discovery documents, as kube-apiserver 1.32 writes them: the legacy ones
//! (`APIVersions`, `APIGroupList`, `APIGroup`, `APIResourceList`) and the aggregated
//! one (`aggregated`: `APIGroupDiscoveryList`, which kubectl and client-go ask for
//! first).
//!
//! What kube does and this follows: groups in the order of the aggregator's priorities
//! (`apiVersionPriorities` in `cmd/kube-apiserver/app/aggregator.go`: core, then apps,
//! events, authentication...; custom resources' groups at 1000, after them, by name),
//! versions in the kube-aware order (GA, beta, alpha, higher first); built-in resources
//! with their subresources in the installer's path order and verbs sorted; a CRD's in the
//! order apiextensions-apiserver's discovery controller writes them (`delete`,
//! `deletecollection`, `get`, `list`, `patch`, `create`, `update`, `watch`; `status`
//! then `scale`); and each stored resource's `storageVersionHash`, the hash of the
//! group, version and kind it is stored as (`discovery.StorageVersionHash`).

pub(crate) mod aggregated;

use base64::Engine as _;
use serde_json::{Value, json};

use super::registry::{Registry, version_priority};
use crate::core::ResourceType;

/// The verbs of a served custom resource, in apiextensions-apiserver's order.
const CUSTOM_VERBS: &[&str] = &[
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// A group's `GroupPriorityMinimum` (kube-apiserver's `apiVersionPriorities` and
/// `DefaultGenericAPIServicePriorities`); 1000 for a CRD's group, as the CRD
/// registration controller gives it.
fn group_priority(group: &str) -> u32 {
    match group {
        "" | "apiregistration.k8s.io" => 18000,
        "apps" => 17800,
        "events.k8s.io" => 17750,
        "authentication.k8s.io" => 17700,
        "authorization.k8s.io" => 17600,
        "autoscaling" => 17500,
        "batch" => 17400,
        "certificates.k8s.io" => 17300,
        "networking.k8s.io" => 17200,
        "policy" => 17100,
        "rbac.authorization.k8s.io" => 17000,
        "storage.k8s.io" => 16800,
        "apiextensions.k8s.io" | "admissionregistration.k8s.io" => 16700,
        "scheduling.k8s.io" => 16600,
        "coordination.k8s.io" => 16500,
        "node.k8s.io" => 16300,
        "discovery.k8s.io" | "resource.k8s.io" => 16200,
        "flowcontrol.apiserver.k8s.io" => 16100,
        "internal.apiserver.k8s.io" => 16000,
        "storagemigration.k8s.io" => 15800,
        _ => 1000,
    }
}

/// Each built-in group version's `VersionPriority` among its group's, as kube-apiserver
/// registers its local `APIService`s (`apiVersionPriorities`, kube-apiserver's entries
/// over `DefaultGenericAPIServicePriorities`); a version not listed gets no
/// `APIService`.
const VERSION_PRIORITIES: &[(&str, &str, u32)] = &[
    ("", "v1", 1),
    ("events.k8s.io", "v1", 15),
    ("events.k8s.io", "v1beta1", 5),
    ("authentication.k8s.io", "v1", 15),
    ("authentication.k8s.io", "v1beta1", 9),
    ("authentication.k8s.io", "v1alpha1", 1),
    ("authorization.k8s.io", "v1", 15),
    ("certificates.k8s.io", "v1", 15),
    ("certificates.k8s.io", "v1alpha1", 1),
    ("rbac.authorization.k8s.io", "v1", 15),
    ("apiextensions.k8s.io", "v1", 15),
    ("admissionregistration.k8s.io", "v1", 15),
    ("admissionregistration.k8s.io", "v1beta1", 12),
    ("admissionregistration.k8s.io", "v1alpha1", 9),
    ("coordination.k8s.io", "v1", 15),
    ("coordination.k8s.io", "v1alpha2", 12),
    ("discovery.k8s.io", "v1", 15),
    ("discovery.k8s.io", "v1beta1", 12),
    ("flowcontrol.apiserver.k8s.io", "v1", 21),
    ("flowcontrol.apiserver.k8s.io", "v1beta3", 18),
    ("flowcontrol.apiserver.k8s.io", "v1beta2", 15),
    ("flowcontrol.apiserver.k8s.io", "v1beta1", 12),
    ("flowcontrol.apiserver.k8s.io", "v1alpha1", 9),
    ("internal.apiserver.k8s.io", "v1alpha1", 9),
    ("storagemigration.k8s.io", "v1alpha1", 9),
    ("apps", "v1", 15),
    ("autoscaling", "v1", 15),
    ("autoscaling", "v2", 30),
    ("autoscaling", "v2beta1", 9),
    ("autoscaling", "v2beta2", 1),
    ("batch", "v1", 15),
    ("batch", "v1beta1", 9),
    ("batch", "v2alpha1", 9),
    ("networking.k8s.io", "v1", 15),
    ("networking.k8s.io", "v1beta1", 9),
    ("networking.k8s.io", "v1alpha1", 1),
    ("policy", "v1", 15),
    ("policy", "v1beta1", 9),
    ("storage.k8s.io", "v1", 15),
    ("storage.k8s.io", "v1beta1", 9),
    ("storage.k8s.io", "v1alpha1", 1),
    ("scheduling.k8s.io", "v1", 15),
    ("node.k8s.io", "v1", 15),
    ("node.k8s.io", "v1alpha1", 1),
    ("node.k8s.io", "v1beta1", 9),
    ("resource.k8s.io", "v1beta1", 9),
    ("resource.k8s.io", "v1alpha3", 1),
];

impl Registry {
    /// The `APIService`s kube-apiserver registers for the built-in group versions it
    /// serves (its autoregistration controller): local (no service), labelled
    /// `kube-aggregator.kubernetes.io/automanaged: onstart`, with the priorities of
    /// kube's table.
    pub(crate) fn local_apiservices(&self) -> Vec<Value> {
        let mut apis = Vec::new();
        for (group, versions) in self.groups() {
            for version in versions {
                let Some(&(_, _, version_priority)) =
                    VERSION_PRIORITIES.iter().find(|(g, v, _)| *g == group && *v == version)
                else {
                    continue;
                };
                let mut spec = json!({"version": version, "groupPriorityMinimum": group_priority(&group),
                    "versionPriority": version_priority});
                if !group.is_empty() {
                    spec["group"] = json!(group);
                }
                apis.push(json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
                    "metadata": {"name": format!("{version}.{group}"),
                                 "labels": {"kube-aggregator.kubernetes.io/automanaged": "onstart"}},
                    "spec": spec}));
            }
        }
        apis
    }
}

/// `discovery.StorageVersionHash`: the first 8 bytes of the SHA-256 of
/// `group/version/kind`, base64.
pub(crate) fn storage_version_hash(group: &str, version: &str, kind: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, format!("{group}/{version}/{kind}").as_bytes());
    base64::engine::general_purpose::STANDARD.encode(&digest.as_ref()[..8])
}

impl Registry {
    /// Groups and their versions in kube's discovery order (see the module's docs).
    pub fn ordered_groups(&self) -> Vec<(String, Vec<String>)> {
        let mut groups: Vec<(String, Vec<String>)> = self.groups().into_iter().collect();
        groups.sort_by(|(a, _), (b, _)| group_priority(b).cmp(&group_priority(a)).then_with(|| a.cmp(b)));
        groups
    }

    /// `GET /api`.
    pub fn core_versions() -> Value {
        json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]})
    }

    fn group_document(name: &str, versions: &[String]) -> Value {
        let versions: Vec<Value> = versions
            .iter()
            .map(|v| json!({"groupVersion": format!("{name}/{v}"), "version": v}))
            .collect();
        json!({"name": name, "versions": versions, "preferredVersion": versions[0]})
    }

    /// `GET /apis`.
    pub fn group_list(&self) -> Value {
        let groups: Vec<Value> = self
            .ordered_groups()
            .iter()
            .filter(|(name, _)| !name.is_empty())
            .map(|(name, versions)| Self::group_document(name, versions))
            .collect();
        json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
    }

    /// `GET /apis/<group>`.
    pub fn group(&self, group: &str) -> Option<Value> {
        let groups = self.groups();
        let versions = groups.get(group).filter(|_| !group.is_empty())?;
        let mut document = Self::group_document(group, versions);
        document["kind"] = json!("APIGroup");
        document["apiVersion"] = json!("v1");
        Some(document)
    }

    /// `GET /api/v1` or `GET /apis/<group>/<version>`.
    pub fn resource_list(&self, group: &str, version: &str) -> Option<Value> {
        let mut resources = Vec::new();
        for t in self.of_group_version(group, version) {
            let verbs: &[&str] = if t.custom { CUSTOM_VERBS } else { t.verbs() };
            let mut resource = json!({
                "name": t.plural, "singularName": t.singular, "namespaced": t.namespaced,
                "kind": t.kind, "verbs": verbs,
            });
            if !t.short_names.is_empty() {
                resource["shortNames"] = json!(t.short_names);
            }
            if !t.categories.is_empty() {
                resource["categories"] = json!(t.categories);
            }
            if let Some(hash) = self.storage_version_hash(&t) {
                resource["storageVersionHash"] = json!(hash);
            }
            resources.push(resource);
            for sub in t.subresources() {
                let kind = if sub.kind.is_empty() { t.kind.as_str() } else { sub.kind };
                let mut subresource = json!({"name": format!("{}/{}", t.plural, sub.name), "singularName": "", "namespaced": t.namespaced, "kind": kind, "verbs": sub.verbs});
                if let Some((group, version)) = sub.group_version {
                    subresource["group"] = json!(group);
                    subresource["version"] = json!(version);
                }
                resources.push(subresource);
            }
        }
        if resources.is_empty() {
            return None;
        }
        let group_version = if group.is_empty() {
            version.to_owned()
        } else {
            format!("{group}/{version}")
        };
        Some(
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": resources}),
        )
    }

    /// The `storageVersionHash` of a stored resource: of the group, version and kind
    /// its objects are stored as (a CRD's storage version; a built-in resource's
    /// preferred version but where kube 1.32 stores another: events.k8s.io Events as
    /// core Events, autoscaling v2 for autoscalers, v1beta1 for CRDs). None for what
    /// is not stored (reviews, bindings, `componentstatuses`).
    fn storage_version_hash(&self, t: &ResourceType) -> Option<String> {
        if let Some(versions) = &t.versions {
            return Some(storage_version_hash(&t.group, &versions.storage_version, &t.kind));
        }
        if !t.stored() || (t.group.is_empty() && t.plural == "componentstatuses") {
            return None;
        }
        let (group, version) = match (t.group.as_str(), t.plural.as_str()) {
            ("events.k8s.io", "events") => (String::new(), "v1".to_owned()),
            ("autoscaling", "horizontalpodautoscalers") => (t.group.clone(), "v2".to_owned()),
            ("apiextensions.k8s.io", "customresourcedefinitions") => (t.group.clone(), "v1beta1".to_owned()),
            _ => {
                let preferred = self
                    .types_of(&t.group, &t.plural)
                    .into_iter()
                    .map(|other| other.version.clone())
                    .max_by_key(|v| version_priority(v))
                    .unwrap_or_else(|| t.version.clone());
                (t.group.clone(), preferred)
            }
        };
        Some(storage_version_hash(&group, &version, &t.kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_version_hashes_are_kubes() {
        // Read from kube-apiserver 1.32's /api/v1 and /apis/apps/v1.
        assert_eq!(storage_version_hash("", "v1", "ConfigMap"), "qFsyl6wFWjQ=");
        assert_eq!(storage_version_hash("", "v1", "Pod"), "xPOwRZ+Yhw8=");
        let registry = Registry::default();
        let list = registry.resource_list("events.k8s.io", "v1").expect("served");
        let events = &list["resources"][0];
        assert_eq!(events["storageVersionHash"], "r2yiGXH7wu8=", "{events}");
        let crds = registry.resource_list("apiextensions.k8s.io", "v1").expect("served");
        assert_eq!(crds["resources"][0]["storageVersionHash"], "jfWCUB31mvA=");
    }

    #[test]
    fn groups_come_in_the_aggregators_order() {
        let registry = Registry::default();
        let names: Vec<String> = registry.ordered_groups().into_iter().map(|(name, _)| name).collect();
        let position = |group: &str| names.iter().position(|n| n == group).expect(group);
        assert_eq!(position(""), 0);
        assert!(position("apps") < position("events.k8s.io"));
        assert!(position("admissionregistration.k8s.io") < position("apiextensions.k8s.io"));
        assert!(position("discovery.k8s.io") < position("flowcontrol.apiserver.k8s.io"));
        let autoscaling = registry.ordered_groups().into_iter().find(|(n, _)| n == "autoscaling");
        assert_eq!(
            autoscaling.map(|(_, v)| v[..2].to_vec()),
            Some(vec!["v2".into(), "v1".into()])
        );
    }

    #[test]
    fn pods_list_their_subresources_by_name() {
        let registry = Registry::default();
        let list = registry.resource_list("", "v1").expect("served");
        let names: Vec<&str> = list["resources"]
            .as_array()
            .expect("resources")
            .iter()
            .filter_map(|r| r["name"].as_str())
            .filter(|n| n.starts_with("pods/"))
            .collect();
        assert_eq!(
            names,
            [
                "pods/attach",
                "pods/binding",
                "pods/ephemeralcontainers",
                "pods/eviction",
                "pods/exec",
                "pods/log",
                "pods/portforward",
                "pods/proxy",
                "pods/resize",
                "pods/status"
            ]
        );
    }
}
