//! Realistic Pods, for tests and benchmarks that should see what a cache holds on a
//! real cluster rather than a small object of one string: two containers with env,
//! ports, probes, resources and volume mounts; volumes; a ReplicaSet owner; labels
//! and annotations; a running status; and `metadata.managedFields` for the three
//! managers kube-apiserver records on such a Pod. Each is 4–8 KiB of JSON.
//!
//! Everything comes from a seed, so a benchmark at 1,000 Pods and one at 1,000,000
//! share their first 1,000, and a test can name the Pod it failed on:
//!
//! ```
//! use wheelhouse_examples::pods::realistic_pod;
//!
//! let pod = realistic_pod("default", 7);
//! assert_eq!(pod, realistic_pod("default", 7));
//! assert_eq!(pod.spec.as_ref().map(|spec| spec.containers.len()), Some(2));
//! let managers: Vec<_> = pod.metadata.managed_fields.iter().flatten().filter_map(|e| e.manager.as_deref()).collect();
//! assert_eq!(managers, ["kube-controller-manager", "kube-scheduler", "kubelet"]);
//! ```
//!
//! [`PodWrites`] splits one Pod into the writes its managers make, for loading it into
//! an API server that records managedFields itself (the embedded one does: it replaces
//! any a client sends, as kube-apiserver does on create); [`create_pods`] makes them.

mod fields;
mod shape;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ManagedFieldsEntry, Time};
use kube::api::{Api, Patch, PatchParams, PostParams};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

pub use fields::fields_v1;

/// The field manager kube-apiserver records for the ReplicaSet controller's create.
pub const CONTROLLER_MANAGER: &str = "kube-controller-manager";
/// The field manager of the scheduler's status write (the `PodScheduled` condition).
pub const SCHEDULER: &str = "kube-scheduler";
/// The field manager of the node agent's status writes.
pub const KUBELET: &str = "kubelet";

/// The writes that make one realistic Pod on an API server, each by its manager, in
/// order: what a cluster's controllers do to a Deployment's Pod.
#[derive(Debug, Clone, PartialEq)]
pub struct PodWrites {
    /// The Pod as the ReplicaSet controller creates it: metadata and spec, no node, no
    /// status (created with field manager [`CONTROLLER_MANAGER`]).
    pub create: Pod,
    /// The scheduler's status patch: `PodScheduled` (field manager [`SCHEDULER`],
    /// status subresource).
    pub scheduled: Value,
    /// The node the Pod is bound to (`pods/binding`: kube-apiserver records no
    /// manager for it).
    pub node: String,
    /// The kubelet's status patch: phase, conditions, IPs and container statuses
    /// (field manager [`KUBELET`], status subresource).
    pub kubelet: Value,
}

/// The Pod number `seed` of namespace `namespace`, whole: what a client reading a
/// real cluster receives, managedFields included. The same seed always gives the same
/// Pod (for one version of `rand`); names are distinct for distinct seeds.
///
/// # Panics
/// Never for any seed: the shape is fixed and the tests decode it over many seeds.
pub fn realistic_pod(namespace: &str, seed: u64) -> Pod {
    let mut rng = StdRng::seed_from_u64(seed);
    let parts = shape::Parts::new(namespace, seed, &mut rng);
    let mut pod = parts.pod();
    pod["spec"]["nodeName"] = json!(parts.node);
    pod["status"] = parts.status();
    let scheduled = parts.scheduled();
    // Each manager owns what it wrote, as kube-apiserver computes it for an Update.
    let created = parts.pod();
    let kubelet_status = kubelet_patch(&parts);
    let entries = [
        (CONTROLLER_MANAGER, None, &parts.created, created_fields(&created)),
        (SCHEDULER, Some("status"), &parts.scheduled_at, fields_v1(&scheduled)),
        (KUBELET, Some("status"), &parts.started_at, fields_v1(&kubelet_status)),
    ];
    pod["metadata"]["managedFields"] = entries
        .into_iter()
        .map(|(manager, subresource, time, fields)| {
            let mut entry = json!({
                "manager": manager,
                "operation": "Update",
                "apiVersion": "v1",
                "time": time,
                "fieldsType": "FieldsV1",
                "fieldsV1": fields,
            });
            if let Some(subresource) = subresource {
                entry["subresource"] = json!(subresource);
            }
            entry
        })
        .collect();
    serde_json::from_value(pod).expect("the generated Pod matches k8s-openapi's Pod")
}

/// The kubelet's status patch: all of the status but `PodScheduled`, which stays the
/// scheduler's (a strategic merge patch merges conditions by type).
fn kubelet_patch(parts: &shape::Parts) -> Value {
    let mut status = parts.status();
    if let Some(conditions) = status["conditions"].as_array_mut() {
        conditions.retain(|c| c["type"] != "PodScheduled");
    }
    json!({ "status": status })
}

/// The fields the creating controller owns: all it sent but the server's own.
fn created_fields(created: &Value) -> Value {
    let mut owned = created.clone();
    if let Some(metadata) = owned["metadata"].as_object_mut() {
        for server_set in ["name", "namespace", "uid", "resourceVersion", "creationTimestamp"] {
            metadata.remove(server_set);
        }
    }
    if let Some(object) = owned.as_object_mut() {
        object.remove("apiVersion");
        object.remove("kind");
    }
    fields_v1(&owned)
}

impl PodWrites {
    /// The writes of Pod number `seed` (the same Pod as [`realistic_pod`] gives).
    ///
    /// # Panics
    /// Never for any seed (as [`realistic_pod`]).
    pub fn new(namespace: &str, seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let parts = shape::Parts::new(namespace, seed, &mut rng);
        let mut create = parts.pod();
        if let Some(metadata) = create["metadata"].as_object_mut() {
            metadata.remove("uid");
            metadata.remove("creationTimestamp");
        }
        Self {
            create: serde_json::from_value(create).expect("the generated Pod matches k8s-openapi's Pod"),
            scheduled: parts.scheduled(),
            node: parts.node.clone(),
            kubelet: kubelet_patch(&parts),
        }
    }

    /// The Pod's name.
    pub fn name(&self) -> &str {
        self.create.metadata.name.as_deref().unwrap_or_default()
    }

    /// Makes the Pod through `api`: create, scheduler's status, binding, kubelet's
    /// status, each with its manager, so the server records managedFields as a
    /// cluster's would. The owner ReplicaSet is made up: a server running the garbage
    /// collector deletes the Pod soon after (the embedded one runs none with
    /// `ServerOptions { controllers: false, .. }`).
    pub async fn apply(&self, api: &Api<Pod>) -> Result<(), kube::Error> {
        let name = self.name().to_owned();
        let as_manager = |manager: &str| PatchParams {
            field_manager: Some(manager.to_owned()),
            ..PatchParams::default()
        };
        let create = PostParams {
            field_manager: Some(CONTROLLER_MANAGER.to_owned()),
            ..PostParams::default()
        };
        api.create(&create, &self.create).await?;
        api.patch_status(&name, &as_manager(SCHEDULER), &Patch::Strategic(&self.scheduled))
            .await?;
        let binding = json!({
            "apiVersion": "v1",
            "kind": "Binding",
            "metadata": { "name": name },
            "target": { "apiVersion": "v1", "kind": "Node", "name": self.node },
        });
        api.create_subresource::<Value, Value>("binding", &name, &PostParams::default(), &binding)
            .await?;
        api.patch_status(&name, &as_manager(KUBELET), &Patch::Strategic(&self.kubelet))
            .await?;
        Ok(())
    }
}

/// Makes Pods number `seeds` in `api`'s namespace, `in_flight` at a time (each as
/// [`PodWrites::apply`]); the first error stops it.
pub async fn create_pods(
    api: &Api<Pod>,
    namespace: &str,
    seeds: std::ops::Range<u64>,
    in_flight: usize,
) -> Result<(), kube::Error> {
    let mut writes = futures::stream::iter(seeds)
        .map(|seed| async move { PodWrites::new(namespace, seed).apply(api).await })
        .buffer_unordered(in_flight.max(1));
    while let Some(result) = writes.next().await {
        result?;
    }
    Ok(())
}

/// The managedFields entry of `manager` in `pod`, if it has one.
pub fn managed_entry<'a>(pod: &'a Pod, manager: &str) -> Option<&'a ManagedFieldsEntry> {
    pod.metadata
        .managed_fields
        .iter()
        .flatten()
        .find(|entry| entry.manager.as_deref() == Some(manager))
}

/// A time `seconds` after the generator's epoch (2026-01-01), as the API writes it.
fn time(seconds: i64) -> Value {
    let epoch = 1_767_225_600;
    let at = k8s_openapi::jiff::Timestamp::from_second(epoch + seconds).unwrap_or_default();
    serde_json::to_value(Time(at)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_len(pod: &Pod) -> usize {
        serde_json::to_vec(pod).expect("encode").len()
    }

    #[test]
    fn pods_are_four_to_eight_kib_of_json() {
        let sizes: Vec<usize> = (0..300).map(|seed| json_len(&realistic_pod("default", seed))).collect();
        let (min, max) = (sizes.iter().min().copied(), sizes.iter().max().copied());
        assert!(min >= Some(4 * 1024), "smallest Pod {min:?} bytes");
        assert!(max <= Some(8 * 1024), "largest Pod {max:?} bytes");
    }

    #[test]
    fn the_same_seed_gives_the_same_pod_and_other_seeds_other_names() {
        assert_eq!(realistic_pod("default", 42), realistic_pod("default", 42));
        assert_eq!(PodWrites::new("default", 42), PodWrites::new("default", 42));
        let names: std::collections::HashSet<_> = (0..2000)
            .map(|seed| realistic_pod("default", seed).metadata.name)
            .collect();
        assert_eq!(names.len(), 2000);
    }

    #[test]
    fn three_managers_own_what_each_wrote() {
        let pod = realistic_pod("default", 3);
        let fields = |manager| {
            let entry = managed_entry(&pod, manager).expect("an entry");
            serde_json::to_value(entry.fields_v1.as_ref().expect("fieldsV1")).expect("encode")
        };
        let controller = fields(CONTROLLER_MANAGER);
        assert!(controller["f:spec"]["f:containers"].is_object());
        assert!(controller["f:metadata"]["f:ownerReferences"].is_object());
        assert!(
            controller["f:spec"].get("f:nodeName").is_none(),
            "the binding records no manager"
        );
        let scheduler = fields(SCHEDULER);
        assert!(scheduler["f:status"]["f:conditions"]["k:{\"type\":\"PodScheduled\"}"].is_object());
        let kubelet = fields(KUBELET);
        assert!(kubelet["f:status"]["f:containerStatuses"].is_object());
        assert!(
            kubelet["f:status"]["f:conditions"]
                .get("k:{\"type\":\"PodScheduled\"}")
                .is_none()
        );
        let status_entries = pod.metadata.managed_fields.iter().flatten();
        let subresources: Vec<_> = status_entries.map(|e| e.subresource.as_deref()).collect();
        assert_eq!(subresources, [None, Some("status"), Some("status")]);
    }

    #[test]
    fn pods_have_a_real_pods_parts() {
        let with_last_applied = (0..40)
            .map(|seed| realistic_pod("default", seed))
            .filter(|pod| {
                let annotations = pod.metadata.annotations.as_ref();
                annotations.is_some_and(|a| a.contains_key("kubectl.kubernetes.io/last-applied-configuration"))
            })
            .count();
        assert!((1..40).contains(&with_last_applied), "{with_last_applied} of 40");
        let pod = realistic_pod("team-a", 1);
        assert_eq!(pod.metadata.namespace.as_deref(), Some("team-a"));
        let owner = &pod.metadata.owner_references.as_ref().expect("an owner")[0];
        assert_eq!((owner.kind.as_str(), owner.controller), ("ReplicaSet", Some(true)));
        let spec = pod.spec.as_ref().expect("a spec");
        for container in &spec.containers {
            assert!(container.env.as_ref().is_some_and(|env| !env.is_empty()));
            assert!(container.ports.is_some() && container.readiness_probe.is_some());
            assert!(container.resources.is_some() && container.volume_mounts.is_some());
        }
        assert!(spec.volumes.as_ref().is_some_and(|v| v.len() >= 3));
        let status = pod.status.as_ref().expect("a status");
        assert_eq!(status.phase.as_deref(), Some("Running"));
        assert_eq!(status.container_statuses.as_ref().map(Vec::len), Some(2));
        assert_eq!(status.conditions.as_ref().map(Vec::len), Some(5));
    }

    #[test]
    fn the_writes_make_the_same_pod_but_for_what_the_server_sets() {
        let writes = PodWrites::new("default", 9);
        let pod = realistic_pod("default", 9);
        assert_eq!(writes.name(), pod.metadata.name.as_deref().unwrap_or_default());
        assert_eq!(
            writes.create.spec.as_ref().map(|s| &s.containers),
            pod.spec.as_ref().map(|s| &s.containers)
        );
        assert_eq!(
            Some(writes.node.as_str()),
            pod.spec.as_ref().and_then(|s| s.node_name.as_deref())
        );
        assert!(writes.create.metadata.managed_fields.is_none() && writes.create.status.is_none());
        let conditions = writes.kubelet["status"]["conditions"].as_array().map(Vec::len);
        assert_eq!(conditions, Some(4), "all but PodScheduled");
        assert_eq!(
            writes.kubelet["status"]["podIP"],
            json!(pod.status.as_ref().and_then(|s| s.pod_ip.clone()))
        );
    }
}
