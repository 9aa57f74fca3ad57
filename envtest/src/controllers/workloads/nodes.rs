//! The simulated Nodes: what a kubelet registers when it starts and keeps reporting
//! (`pkg/kubelet/kubelet_node_status.go`: `initialNode`, and the setters of
//! `pkg/kubelet/nodestatus/setters.go` for addresses, capacity, node info and the
//! `MemoryPressure`, `DiskPressure`, `PIDPressure` and `Ready` conditions).

use serde_json::{Value, json};

use super::Kind;
use super::cluster::Cluster;
use super::fields::timestamp;

/// The field manager of the kubelet's writes.
pub(super) const KUBELET: &str = "kubelet";

/// The name of the `number`th simulated Node (from 1).
pub(super) fn node_name(number: usize) -> String {
    format!("worker-{number}")
}

/// Whether `node` is one of the simulated Nodes (pods bound to others are left alone,
/// as on a cluster whose node has no kubelet).
pub(super) fn is_simulated(cluster: &Cluster<'_>, node: &str) -> bool {
    (1..=cluster.options.nodes).any(|number| node_name(number) == node)
}

/// Registers the Nodes that are not there yet, Ready.
pub(super) fn register(cluster: &mut Cluster<'_>) {
    for number in 1..=cluster.options.nodes {
        let name = node_name(number);
        if cluster.get(Kind::Node, "", &name).is_some() {
            continue;
        }
        // Registering creates the Node; its status is a write of its own, as the
        // kubelet's first status update is.
        let mut node = node(number, &name);
        let status = node["status"].take();
        match cluster.create(Kind::Node, "", node, KUBELET) {
            Ok(created) => {
                let ready = cluster.write_status(Kind::Node, &created, status, KUBELET);
                untaint_ready(cluster, ready.as_deref().unwrap_or(&created));
            }
            Err(error) => tracing::debug!(?error, name, "a simulated node was refused"),
        }
    }
}

/// The node lifecycle controller's part: a Ready node loses the not-ready taint
/// admission gave it.
fn untaint_ready(cluster: &mut Cluster<'_>, node: &Value) {
    let taint = crate::admission::plugins::NOT_READY_TAINT;
    let Some(taints) = node["spec"]["taints"].as_array() else {
        return;
    };
    if !taints.iter().any(|t| t["key"] == taint) {
        return;
    }
    let mut untainted = node.clone();
    let kept: Vec<Value> = taints.iter().filter(|t| t["key"] != taint).cloned().collect();
    if kept.is_empty() {
        if let Some(spec) = untainted["spec"].as_object_mut() {
            spec.remove("taints");
        }
    } else {
        untainted["spec"]["taints"] = json!(kept);
    }
    cluster.update(Kind::Node, node, untainted, false, "kube-controller-manager");
}

/// The Node the kubelet of the `number`th node registers.
fn node(number: usize, name: &str) -> Value {
    let now = timestamp();
    let condition = |kind: &str, status: &str, reason: &str, message: &str| {
        json!({
            "type": kind, "status": status, "reason": reason, "message": message,
            "lastHeartbeatTime": now, "lastTransitionTime": now,
        })
    };
    let resources = json!({
        "cpu": "8", "memory": "32Gi", "pods": "110", "ephemeral-storage": "100Gi",
        "hugepages-1Gi": "0", "hugepages-2Mi": "0",
    });
    let (major, minor) = crate::core::KUBERNETES_VERSION;
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "labels": {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "beta.kubernetes.io/os": "linux",
                "beta.kubernetes.io/arch": "amd64",
            },
            "annotations": {"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
        },
        "spec": {"podCIDR": pod_cidr(number), "podCIDRs": [pod_cidr(number)]},
        "status": {
            "capacity": resources,
            "allocatable": resources,
            "conditions": [
                condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
            ],
            "addresses": [
                {"type": "InternalIP", "address": node_ip(number)},
                {"type": "Hostname", "address": name},
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "machineID": format!("{number:032x}"),
                "systemUUID": format!("00000000-0000-0000-0000-{number:012x}"),
                "bootID": format!("{number:08x}-0000-0000-0000-000000000000"),
                "kernelVersion": "6.1.0",
                "osImage": "wheelhouse simulated node",
                "containerRuntimeVersion": "containerd://1.7.0",
                "kubeletVersion": format!("v{major}.{minor}.0"),
                "kubeProxyVersion": "",
                "operatingSystem": "linux",
                "architecture": "amd64",
            },
        },
    })
}

/// The pod network of the `number`th node.
fn pod_cidr(number: usize) -> String {
    format!("10.244.{}.0/24", number % 256)
}

/// The address of the `number`th node.
pub(super) fn node_ip(number: usize) -> String {
    format!("172.18.0.{}", (number + 1) % 256)
}

/// The number of a simulated node by its name.
pub(super) fn number_of(name: &str) -> Option<usize> {
    name.strip_prefix("worker-")?.parse().ok()
}

/// An address for the `index`th pod on the `number`th node.
pub(super) fn pod_ip(number: usize, index: u32) -> String {
    format!("10.244.{}.{}", number % 256, index % 253 + 2)
}
