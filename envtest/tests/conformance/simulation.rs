//! Item 10: Deployments become available, by the embedded server's simulation or by
//! a real cluster's deployment controller.

use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;
use wheelhouse_envtest::{Backend, ServerOptions, TestEnv, WorkloadSimulation};

use crate::common::{IMAGE, TIMEOUT, deployment, eventually_within, skip_without_controllers};

/// The deployment's status once it is fully available, if it is.
fn available(deployment: &Deployment, replicas: i32) -> Option<()> {
    let status = deployment.status.as_ref()?;
    let generation = deployment.metadata.generation?;
    let done = status.replicas == Some(replicas)
        && status.ready_replicas == Some(replicas)
        && status.available_replicas == Some(replicas)
        && status.updated_replicas == Some(replicas)
        && status.observed_generation == Some(generation);
    let condition = status
        .conditions
        .iter()
        .flatten()
        .any(|c| c.type_.as_deref() == Some("Available") && c.status.as_deref() == Some("True"));
    (done && condition).then_some(())
}

/// A Deployment reaches `availableReplicas`, `observedGeneration` and the Available
/// condition, and again after a scale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deployments_become_available() {
    let env = if Backend::from_environment() == Backend::Embedded {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
            ..ServerOptions::default()
        };
        TestEnv::embedded_with(options).await.unwrap()
    } else {
        TestEnv::start().await.unwrap()
    };
    if !env.is_embedded() && skip_without_controllers(&env, "deployment status") {
        env.stop().await;
        return;
    }
    if !env.is_embedded() && !has_a_ready_node(&env).await {
        eprintln!("skipped: deployment availability needs pods to run, and this cluster has no Ready node");
        env.stop().await;
        return;
    }
    // Pods must start on a real cluster, which can take longer than a simulation.
    let timeout = if env.is_embedded() {
        TIMEOUT
    } else {
        Duration::from_mins(2)
    };
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    api.create(
        &PostParams::default(),
        &deployment("web", 2, &json!([{"name": "app", "image": IMAGE}])),
    )
    .await
    .unwrap();
    eventually_within(timeout, "2 available replicas", || async {
        available(&api.get("web").await.unwrap(), 2)
    })
    .await;

    api.patch_scale(
        "web",
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"replicas": 3}})),
    )
    .await
    .unwrap();
    eventually_within(timeout, "3 available replicas after a scale", || async {
        available(&api.get("web").await.unwrap(), 3)
    })
    .await;
    let scale = api.get_scale("web").await.unwrap();
    assert_eq!(scale.status.map(|s| s.replicas), Some(3));
    env.stop().await;
}

/// Whether any node of the cluster reports Ready (a cluster without kubelets runs no pods).
async fn has_a_ready_node(env: &TestEnv) -> bool {
    let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(env.client());
    let list = nodes
        .list(&kube::api::ListParams::default())
        .await
        .expect("nodes are listed");
    list.items.iter().any(|node| {
        node.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|conditions| conditions.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
    })
}
