//! `DropDisabledPodFields` and `DropDisabledTemplateFields` (`pkg/api/pod/util.go`)
//! with 1.32's default feature gates: the pod strategies (and every strategy holding a
//! pod template) drop the fields of features that are off, unless the stored object
//! already used them. The field manager has recorded them by then, so an object's
//! managed fields still name what it does not keep, as on a real server.
//!
//! | kube function | gate (off in 1.32) | here |
//! |---|---|---|
//! | `hostUsersInUse` | `UserNamespacesSupport` | `securityContext.hostUsers` |
//! | `supplementalGroupsPolicyInUse` | `SupplementalGroupsPolicy` | `securityContext.supplementalGroupsPolicy`, statuses' `user` |
//! | `dropDisabledPodLevelResources` | `PodLevelResources` | `spec.resources` |
//! | `dropDisabledProcMountField` | `ProcMountType` | a container's `procMount` forced to `Default` |
//! | `dropDisabledDynamicResourceAllocationFields` | `DynamicResourceAllocation` | `resourceClaims`, containers' `resources.claims`, `resourceClaimStatuses` |
//! | `dropDisabledClusterTrustBundleProjection` | `ClusterTrustBundleProjection` | projected `clusterTrustBundle` sources |
//! | `dropImageVolumes` | `ImageVolume` | image volumes and their mounts |
//! | `dropSELinuxChangePolicy` | `SELinuxChangePolicy` | `securityContext.seLinuxChangePolicy` |
//! | `dropDisabledPodStatusFields` | `InPlacePodVerticalScalingAllocatedStatus`, `ResourceHealthStatus` | statuses' `allocatedResources`, `allocatedResourcesStatus` |
//!
//! The other gates `dropDisabledFields` consults (in-place resize, sidecars, recursive
//! read-only mounts, sleep actions, topology spread and affinity label keys) are on in
//! 1.32, so nothing of theirs is dropped.

use serde_json::{Value, json};

const CONTAINER_LISTS: [&str; 3] = ["containers", "initContainers", "ephemeralContainers"];
const STATUS_LISTS: [&str; 3] = [
    "containerStatuses",
    "initContainerStatuses",
    "ephemeralContainerStatuses",
];

/// `DropDisabledPodFields`: a Pod's spec and status, `old` the stored Pod on an update.
pub(super) fn pod(pod: &mut Value, old: Option<&Value>) {
    let old_spec = old.map(|old| &old["spec"]);
    if let Some(spec) = pod.get_mut("spec").filter(|spec| spec.is_object()) {
        spec_fields(spec, old_spec);
    }
    if let Some(status) = pod.get_mut("status").filter(|status| status.is_object()) {
        status_fields(status, old_spec);
    }
}

/// `DropDisabledTemplateFields`: the pod template of a workload (`template` is its
/// path in the object), `old` the stored object on an update.
pub(super) fn template(object: &mut Value, template: &[&str], old: Option<&Value>) {
    let old_spec = old.map(|old| at(old, template).map_or(&Value::Null, |t| &t["spec"]));
    let Some(spec) = at_mut(object, template)
        .and_then(|t| t.get_mut("spec"))
        .filter(|s| s.is_object())
    else {
        return;
    };
    spec_fields(spec, old_spec);
}

fn at<'v>(value: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(value, |value, key| value.get(*key))
}

fn at_mut<'v>(value: &'v mut Value, path: &[&str]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |value, key| value.get_mut(*key))
}

fn set(value: &Value) -> bool {
    !value.is_null()
}

fn non_empty(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty(),
        Value::Object(map) => !map.is_empty(),
        _ => false,
    }
}

fn containers(spec: &Value) -> impl Iterator<Item = &Value> {
    CONTAINER_LISTS
        .iter()
        .flat_map(move |list| spec[*list].as_array().into_iter().flatten())
}

fn containers_mut(spec: &mut Value) -> impl Iterator<Item = &mut Value> {
    spec.as_object_mut()
        .into_iter()
        .flat_map(|map| map.iter_mut())
        .filter(|(key, _)| CONTAINER_LISTS.contains(&key.as_str()))
        .flat_map(|(_, list)| list.as_array_mut().into_iter().flatten())
}

fn remove(value: &mut Value, field: &str) {
    if let Some(map) = value.as_object_mut() {
        map.remove(field);
    }
}

/// `dropDisabledFields` of a pod spec.
fn spec_fields(spec: &mut Value, old: Option<&Value>) {
    let old = old.unwrap_or(&Value::Null);
    let old_security = &old["securityContext"];
    for field in ["hostUsers", "supplementalGroupsPolicy", "seLinuxChangePolicy"] {
        if !set(&old_security[field])
            && let Some(security) = spec.get_mut("securityContext")
        {
            remove(security, field);
        }
    }
    // `podLevelResourcesInUse`: requests or limits at the pod's level.
    if !(non_empty(&old["resources"]["requests"]) || non_empty(&old["resources"]["limits"])) {
        remove(spec, "resources");
    }
    // `procMountInUse`: a container of the stored spec with another than the default.
    let proc_mount_in_use = containers(old).any(|c| {
        let mount = &c["securityContext"]["procMount"];
        set(mount) && mount != "Default"
    });
    if !proc_mount_in_use {
        for container in containers_mut(spec) {
            if let Some(mount) = container
                .get_mut("securityContext")
                .and_then(|security| security.get_mut("procMount"))
                .filter(|mount| set(mount))
            {
                *mount = json!("Default");
            }
        }
    }
    // `dynamicResourceAllocationInUse`: the stored spec has pod-level claims.
    if !non_empty(&old["resourceClaims"]) {
        for container in containers_mut(spec) {
            if let Some(resources) = container.get_mut("resources") {
                remove(resources, "claims");
            }
        }
        remove(spec, "resourceClaims");
    }
    let old_projections = old["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|v| v["projected"]["sources"].as_array().into_iter().flatten());
    if !old_projections.clone().any(|s| set(&s["clusterTrustBundle"])) {
        let volumes = spec.get_mut("volumes").and_then(Value::as_array_mut);
        for volume in volumes.into_iter().flatten() {
            let sources = volume
                .get_mut("projected")
                .and_then(|projected| projected.get_mut("sources"))
                .and_then(Value::as_array_mut);
            for source in sources.into_iter().flatten() {
                remove(source, "clusterTrustBundle");
            }
        }
    }
    let image_in_use = old["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|v| set(&v["image"]));
    if !image_in_use {
        drop_image_volumes(spec);
    }
}

/// `dropImageVolumes`: image volumes go, and the mounts of them.
fn drop_image_volumes(spec: &mut Value) {
    let Some(volumes) = spec.get_mut("volumes").and_then(Value::as_array_mut) else {
        return;
    };
    let mut images = Vec::new();
    volumes.retain(|volume| {
        let image = set(&volume["image"]);
        if image {
            images.push(volume["name"].clone());
        }
        !image
    });
    if images.is_empty() {
        return;
    }
    if volumes.is_empty() {
        remove(spec, "volumes");
    }
    for container in containers_mut(spec) {
        if let Some(mounts) = container.get_mut("volumeMounts").and_then(Value::as_array_mut) {
            mounts.retain(|mount| !images.contains(&mount["name"]));
            if mounts.is_empty() {
                remove(container, "volumeMounts");
            }
        }
    }
}

/// `dropDisabledPodStatusFields`.
fn status_fields(status: &mut Value, old: Option<&Value>) {
    let old = old.unwrap_or(&Value::Null);
    let keep_user = set(&old["securityContext"]["supplementalGroupsPolicy"]);
    for list in STATUS_LISTS {
        let entries = status.get_mut(list).and_then(Value::as_array_mut);
        for entry in entries.into_iter().flatten() {
            remove(entry, "allocatedResources");
            remove(entry, "allocatedResourcesStatus");
            if !keep_user {
                remove(entry, "user");
            }
        }
    }
    if !non_empty(&old["resourceClaims"]) {
        remove(status, "resourceClaimStatuses");
    }
}
