//! The resource types the server serves: the built-in ones it starts with and those
//! that `CustomResourceDefinitions` add (the discovery documents describing them are
//! `crate::resources::discovery`).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::core::{ConversionWebhook, CrdVersions, GroupResource, ResourceType, ScalePaths};

/// The resource types served now, by group, version and plural name.
#[derive(Debug, Clone)]
pub(crate) struct Registry {
    types: BTreeMap<(String, String, String), Arc<ResourceType>>,
}

impl Default for Registry {
    fn default() -> Self {
        let types = crate::resources::catalogue::resource_types()
            .iter()
            .map(|t| ((t.group.clone(), t.version.clone(), t.plural.clone()), t.clone()))
            .collect();
        Self { types }
    }
}

impl Registry {
    fn insert(&mut self, resource: ResourceType) {
        let key = (
            resource.group.clone(),
            resource.version.clone(),
            resource.plural.clone(),
        );
        self.types.insert(key, Arc::new(resource));
    }

    pub fn get(&self, group: &str, version: &str, plural: &str) -> Option<Arc<ResourceType>> {
        self.types
            .get(&(group.to_owned(), version.to_owned(), plural.to_owned()))
            .cloned()
    }

    /// The type of `apiVersion` + `kind`, as found in an owner reference.
    pub fn by_kind(&self, api_version: &str, kind: &str) -> Option<Arc<ResourceType>> {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        self.types
            .values()
            .find(|t| t.group == group && t.version == version && t.kind == kind)
            .cloned()
    }

    /// Any served version of a group and resource.
    pub fn any_version(&self, resource: &GroupResource) -> Option<Arc<ResourceType>> {
        self.types
            .values()
            .find(|t| t.group == resource.group && t.plural == resource.resource)
            .cloned()
    }

    /// The types served at one group version.
    pub fn of_group_version(&self, group: &str, version: &str) -> Vec<Arc<ResourceType>> {
        self.types
            .values()
            .filter(|t| t.group == group && t.version == version)
            .cloned()
            .collect()
    }

    /// The custom resource types served, in the registry's order: what `/openapi/v2`'s
    /// cached document depends on (each CRD change serves new ones).
    pub fn custom_types(&self) -> Vec<Arc<ResourceType>> {
        self.types.values().filter(|t| t.custom).cloned().collect()
    }

    /// Every served version of a group and resource.
    pub fn types_of(&self, group: &str, plural: &str) -> Vec<Arc<ResourceType>> {
        self.types
            .values()
            .filter(|t| t.group == group && t.plural == plural)
            .cloned()
            .collect()
    }

    /// Serves the versions a CRD declares (replacing what it served before).
    pub fn serve_crd(&mut self, crd: &Value) -> Result<(), String> {
        let types = crd_types(crd)?;
        if let Some(defined) = crd_resource(crd) {
            self.types
                .retain(|(g, _, p), _| !(*g == defined.group && *p == defined.resource));
        }
        for resource in types {
            self.insert(resource);
        }
        Ok(())
    }

    /// Stops serving a CRD's resource.
    pub fn remove(&mut self, resource: &GroupResource) {
        self.types
            .retain(|(g, _, p), t| !(*g == resource.group && *p == resource.resource && t.custom));
    }

    /// Groups and their versions, the preferred (first declared, else highest) first.
    pub fn groups(&self) -> BTreeMap<String, Vec<String>> {
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for t in self.types.values() {
            let versions = groups.entry(t.group.clone()).or_default();
            if !versions.contains(&t.version) {
                versions.push(t.version.clone());
            }
        }
        for versions in groups.values_mut() {
            versions.sort_by_key(|v| std::cmp::Reverse(version_priority(v)));
        }
        groups
    }
}

/// What a CRD's versions share: its storage version and conversion strategy.
fn crd_versions(crd: &Value, group: &str, plural: &str) -> CrdVersions {
    let spec = &crd["spec"];
    let storage_version = spec["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|v| v["storage"] == true)
        .and_then(|v| v["name"].as_str())
        .unwrap_or_default()
        .to_owned();
    let conversion = &spec["conversion"];
    let webhook = (conversion["strategy"] == "Webhook").then(|| ConversionWebhook {
        client_config: conversion["webhook"]["clientConfig"].clone(),
        review_versions: conversion["webhook"]["conversionReviewVersions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
    });
    let served = spec["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["served"] != false)
        .filter_map(|v| v["name"].as_str().map(str::to_owned))
        .collect();
    CrdVersions {
        crd: format!("{plural}.{group}"),
        storage_version,
        served,
        webhook,
    }
}

/// The warning a deprecated version's requests carry: its `deprecationWarning`, else
/// kube-apiserver's default (`defaultDeprecationWarning` in apiextensions-apiserver's
/// `customresource_handler.go`), which names the newest served version that is not
/// deprecated and is newer than this one.
fn deprecation_warning(spec: &Value, version: &Value, kind: &str) -> Option<String> {
    if version["deprecated"] != true {
        return None;
    }
    if let Some(warning) = version["deprecationWarning"].as_str() {
        return Some(warning.to_owned());
    }
    let group = spec["group"].as_str().unwrap_or_default();
    let name = version["name"].as_str().unwrap_or_default();
    let message = format!("{group}/{name} {kind} is deprecated");
    let newer = spec["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["served"] == true && v["deprecated"] != true)
        .filter_map(|v| v["name"].as_str())
        .filter(|v| version_priority(v) > version_priority(name))
        .max_by_key(|v| version_priority(v));
    Some(match newer {
        Some(newer) => format!("{message}; use {group}/{newer} {kind}"),
        None => message,
    })
}

/// Kubernetes' version order: GA > beta > alpha, then by number.
pub(crate) fn version_priority(version: &str) -> (u8, u32, u32) {
    let digits = |s: &str| s.parse::<u32>().unwrap_or(0);
    let Some(rest) = version.strip_prefix('v') else {
        return (0, 0, 0);
    };
    if let Some((major, minor)) = rest.split_once("beta") {
        (2, digits(major), digits(minor))
    } else if let Some((major, minor)) = rest.split_once("alpha") {
        (1, digits(major), digits(minor))
    } else {
        (3, digits(rest), 0)
    }
}

/// The group and resource a CRD defines, whether it serves any version or not.
pub(crate) fn crd_resource(crd: &Value) -> Option<GroupResource> {
    let spec = &crd["spec"];
    Some(GroupResource {
        group: spec["group"].as_str()?.to_owned(),
        resource: spec["names"]["plural"].as_str()?.to_owned(),
    })
}

/// The resource types a CRD declares, one per served version.
pub(crate) fn crd_types(crd: &Value) -> Result<Vec<ResourceType>, String> {
    let spec = crd.get("spec").ok_or("spec: Required value")?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    let group = text(spec.get("group")).ok_or("spec.group: Required value")?;
    let names = spec.get("names").ok_or("spec.names: Required value")?;
    let plural = text(names.get("plural")).ok_or("spec.names.plural: Required value")?;
    let kind = text(names.get("kind")).ok_or("spec.names.kind: Required value")?;
    let singular = text(names.get("singular")).unwrap_or_else(|| kind.to_lowercase());
    let short_names: Vec<String> = names
        .get("shortNames")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    let categories: Vec<String> = names
        .get("categories")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    let namespaced = spec.get("scope").and_then(Value::as_str) != Some("Cluster");
    let versions = Arc::new(crd_versions(crd, &group, &plural));
    let mut types = Vec::new();
    for version in spec.get("versions").and_then(Value::as_array).into_iter().flatten() {
        if version.get("served").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        let name = text(version.get("name")).ok_or("spec.versions[].name: Required value")?;
        let subresources = version.get("subresources");
        types.push(ResourceType {
            group: group.clone(),
            version: name,
            kind: kind.clone(),
            plural: plural.clone(),
            singular: singular.clone(),
            namespaced,
            status: subresources.and_then(|s| s.get("status")).is_some(),
            scale: subresources.and_then(|s| s.get("scale")).is_some(),
            scale_paths: subresources.and_then(|s| s.get("scale")).map(|scale| {
                let path = |key: &str| scale.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                ScalePaths {
                    spec_replicas: path("specReplicasPath"),
                    status_replicas: path("statusReplicasPath"),
                    label_selector: Some(path("labelSelectorPath")).filter(|p| !p.is_empty()),
                }
            }),
            generation: true,
            bumps_generation: true,
            short_names: short_names.clone(),
            categories: categories.clone(),
            custom: true,
            requires_resource_version: true,
            schema: version
                .get("schema")
                .and_then(|s| s.get("openAPIV3Schema"))
                .map(|s| Arc::new(s.clone())),
            builtin: None,
            deprecation: deprecation_warning(spec, version, &kind),
            versions: Some(versions.clone()),
            selectable_fields: version
                .get("selectableFields")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|field| field.get("jsonPath").and_then(Value::as_str).map(str::to_owned))
                .collect(),
        });
    }
    // A CRD may serve none of its versions: it is valid, and serves nothing.
    Ok(types)
}
