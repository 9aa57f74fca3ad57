//! The WebApp operator end to end, through `TestEnv::start()`: on the embedded server
//! (with Deployments made available by its simulation) or on a real cluster
//! (`USE_EXISTING_CLUSTER=true`; the Ready step needs `ENVTEST_CONTROLLERS=true` and
//! nodes that can run nginx).

use std::future::Future;
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{CustomResourceExt, ResourceExt};
use webapp::{Phase, WebApp, WebAppSpec};
use wheelhouse::cache::Cache;
use wheelhouse_envtest::{Backend, ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::webapp;

const TIMEOUT: Duration = Duration::from_mins(1);

async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    wheelhouse_envtest::eventually_within(TIMEOUT, what, || {
        let done = check();
        async move { done.await.then_some(()) }
    })
    .await;
}

async fn start() -> TestEnv {
    // A real backend (an existing cluster, KUBEBUILDER_ASSETS) as it is; the embedded
    // server with its workload simulation.
    let env = if Backend::from_environment() == Backend::Embedded {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(200))),
            ..ServerOptions::default()
        };
        TestEnv::embedded_with(options).await
    } else {
        TestEnv::start().await
    };
    env.expect("a test environment")
}

/// Whether Deployments here can become available: pods run only where some Node is
/// Ready (the embedded server's simulated ones, or a real kubelet's); a bare
/// kube-apiserver and kube-controller-manager have none, so the Ready step is skipped
/// there, with a note.
async fn pods_can_run(env: &TestEnv) -> bool {
    let ready = !env.ready_nodes().await.expect("nodes are listed").is_empty();
    if !ready {
        eprintln!("skipping the Ready step: the cluster has no Ready Node to run the WebApp's pods");
    }
    ready
}

fn owned_by_webapp<K: kube::Resource>(object: &K, name: &str) -> bool {
    object
        .meta()
        .owner_references
        .iter()
        .flatten()
        .any(|r| r.kind == "WebApp" && r.name == name && r.controller == Some(true))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webapp_lifecycle() {
    let env = start().await;
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let namespace = env.namespace().to_owned();
    let client = env.client();
    let cache = Cache::new(client.clone());
    let controller = webapp::controller(&cache, Some(&namespace), None);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(controller.run(async {
        let _ = stopped.await;
    }));

    let webapps: Api<WebApp> = Api::namespaced(client.clone(), &namespace);
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &namespace);
    let services: Api<Service> = Api::namespaced(client.clone(), &namespace);
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: Some(80),
    };
    webapps
        .create(&PostParams::default(), &WebApp::new("web", spec))
        .await
        .expect("create");

    // Children exist, owned by the WebApp, and the finalizer is on.
    eventually("the Deployment and Service", || async {
        let deployment = deployments.get_opt("web").await.unwrap();
        let service = services.get_opt("web").await.unwrap();
        deployment.is_some_and(|d| owned_by_webapp(&d, "web")) && service.is_some_and(|s| owned_by_webapp(&s, "web"))
    })
    .await;
    let webapp = webapps.get("web").await.unwrap();
    assert!(webapp.finalizers().iter().any(|f| f == webapp::FINALIZER));

    if pods_can_run(&env).await {
        eventually("Ready with 2 replicas", || async {
            let status = webapps.get("web").await.unwrap().status.unwrap_or_default();
            status.phase == Some(Phase::Ready) && status.available_replicas == Some(2)
        })
        .await;
        let ready = webapps.get("web").await.unwrap().status.unwrap_or_default();
        let condition = ready
            .conditions
            .unwrap_or_default()
            .into_iter()
            .find(|c| c.type_ == "Ready")
            .expect("a Ready condition");
        assert_eq!(condition.status, "True");
        assert_eq!(ready.observed_generation, webapp.metadata.generation);
    }

    // A spec change reaches the children.
    let patch = serde_json::json!({"spec": {"replicas": 3, "image": "nginx:1.28"}});
    webapps
        .patch("web", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    eventually("the Deployment follows the spec", || async {
        let deployment = deployments.get("web").await.unwrap();
        let image = deployment
            .spec
            .template
            .spec
            .as_ref()
            .and_then(|p| p.containers[0].image.clone());
        deployment.spec.replicas == Some(3) && image.as_deref() == Some("nginx:1.28")
    })
    .await;

    // A child deleted by hand comes back.
    let uid = services.get("web").await.unwrap().uid();
    services.delete("web", &DeleteParams::default()).await.unwrap();
    eventually("the Service is recreated", || async {
        services.get_opt("web").await.unwrap().is_some_and(|s| s.uid() != uid)
    })
    .await;

    // Deleting the WebApp runs the finalizer (an Event) and lets the children go.
    webapps.delete("web", &DeleteParams::default()).await.unwrap();
    eventually("the WebApp is gone", || async {
        webapps.get_opt("web").await.unwrap().is_none()
    })
    .await;
    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(client.clone(), &namespace);
    let recorded = events.list(&ListParams::default()).await.unwrap();
    assert!(
        recorded.items.iter().any(|e| e.reason.as_deref() == Some("Deleting")
            && e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some("web")),
        "the finalizer recorded an Event"
    );
    if env.runs_controllers() {
        eventually("the children are garbage-collected", || async {
            deployments.get_opt("web").await.unwrap().is_none() && services.get_opt("web").await.unwrap().is_none()
        })
        .await;
    }

    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the controller stops")
        .unwrap();
    env.stop().await;
}
