//! Aggregated discovery (`apidiscovery.k8s.io` v2 and v2beta1): every group, version
//! and resource in one `APIGroupDiscoveryList`, `/api` for the core group and `/apis`
//! for the others, as kube-apiserver 1.32 serves it
//! (`staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated`). Built-in
//! resources are converted from the legacy list as `ConvertGroupVersionIntoToDiscovery`
//! converts them (subresources under their resource, a kind of the same group version
//! with empty group and version); a CRD's are written as apiextensions-apiserver's
//! discovery controller writes them (group and version always set, sorted by name).

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::resources::registry::Registry;

/// The `APIGroupDiscoveryList` of the core group (`core`) or of the named groups, in
/// kube's order, without `kind` and `apiVersion` (the version asked for sets them).
pub(crate) fn group_list(registry: &Registry, core: bool) -> Value {
    let items: Vec<Value> = registry
        .ordered_groups()
        .into_iter()
        .filter(|(group, _)| group.is_empty() == core)
        .map(|(group, versions)| {
            let versions: Vec<Value> = versions
                .iter()
                .map(|version| {
                    json!({
                        "version": version,
                        "resources": resources(registry, &group, version),
                        "freshness": "Current",
                    })
                })
                .collect();
            let mut metadata = json!({"creationTimestamp": null});
            if !group.is_empty() {
                metadata["name"] = json!(group);
            }
            json!({"metadata": metadata, "versions": versions})
        })
        .collect();
    json!({"metadata": {}, "items": items})
}

/// The `APIResourceDiscovery` entries of one group version.
fn resources(registry: &Registry, group: &str, version: &str) -> Vec<Value> {
    let custom = |plural: &str| {
        registry
            .get(group, version, plural)
            .is_some_and(|resource| resource.custom)
    };
    let Some(list) = registry.resource_list(group, version) else {
        return Vec::new();
    };
    let legacy = list["resources"].as_array().cloned().unwrap_or_default();
    let mut resources: Vec<Value> = Vec::new();
    let mut positions: HashMap<&str, usize> = HashMap::new();
    for entry in legacy
        .iter()
        .filter(|r| !r["name"].as_str().unwrap_or_default().contains('/'))
    {
        let name = entry["name"].as_str().unwrap_or_default();
        let kind = response_kind(entry, custom(name).then_some((group, version)));
        let mut resource = json!({
            "resource": name,
            "responseKind": kind,
            "scope": scope(entry),
            "singularResource": entry["singularName"],
            "verbs": entry["verbs"],
        });
        for key in ["shortNames", "categories"] {
            if entry.get(key).is_some() {
                resource[key] = entry[key].clone();
            }
        }
        positions.insert(name, resources.len());
        resources.push(resource);
    }
    for entry in &legacy {
        let Some((parent, subresource)) = entry["name"].as_str().and_then(|n| n.split_once('/')) else {
            continue;
        };
        let Some(&index) = positions.get(parent) else {
            continue;
        };
        let kind = response_kind(entry, custom(parent).then_some((group, version)));
        let discovered = json!({"subresource": subresource, "responseKind": kind, "verbs": entry["verbs"]});
        if !resources[index]["subresources"].is_array() {
            resources[index]["subresources"] = json!([]);
        }
        if let Some(list) = resources[index]["subresources"].as_array_mut() {
            list.push(discovered);
        }
    }
    resources
}

/// `responseKind`: the legacy entry's group, version and kind (empty group and version
/// for a built-in kind of the same group version; a CRD's own group and version).
fn response_kind(entry: &Value, custom: Option<(&str, &str)>) -> Value {
    let text = |key: &str| entry[key].as_str().unwrap_or_default().to_owned();
    let (mut group, mut version) = (text("group"), text("version"));
    if let Some((own_group, own_version)) = custom
        && entry.get("group").is_none()
    {
        (group, version) = (own_group.to_owned(), own_version.to_owned());
    }
    json!({"group": group, "version": version, "kind": text("kind")})
}

fn scope(entry: &Value) -> &'static str {
    if entry["namespaced"] == true {
        "Namespaced"
    } else {
        "Cluster"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pods_carry_their_subresources_and_the_core_group_has_no_name() {
        let registry = Registry::default();
        let core = group_list(&registry, true);
        let items = core["items"].as_array().expect("items");
        assert_eq!(items.len(), 1);
        assert!(items[0]["metadata"].get("name").is_none());
        let resources = items[0]["versions"][0]["resources"].as_array().expect("resources");
        let pods = resources.iter().find(|r| r["resource"] == "pods").expect("pods");
        assert_eq!(pods["responseKind"], json!({"group": "", "version": "", "kind": "Pod"}));
        assert_eq!(pods["scope"], "Namespaced");
        let eviction = pods["subresources"]
            .as_array()
            .expect("subresources")
            .iter()
            .find(|s| s["subresource"] == "eviction")
            .expect("eviction");
        assert_eq!(
            eviction["responseKind"],
            json!({"group": "policy", "version": "v1", "kind": "Eviction"})
        );
        assert!(pods.get("storageVersionHash").is_none());
        let named = group_list(&registry, false);
        assert_eq!(named["items"][0]["metadata"]["name"], "apiregistration.k8s.io");
    }
}
