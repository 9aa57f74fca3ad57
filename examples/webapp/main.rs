//! The flagship example: the WebApp operator (`operator.rs`) against the embedded
//! Kubernetes API server, with a short demonstration of its lifecycle.
//!
//! - `cargo run --example webapp` starts the embedded API server (Deployments become
//!   available after a second, as if their pods started), installs the CRD, runs the
//!   controller, creates a WebApp, scales it, deletes it, printing each phase and the
//!   children the operator made; then keeps serving until Ctrl-C, with a kubeconfig so
//!   `kubectl get webapps -w` works from another terminal.
//! - `--cluster` runs the controller against the cluster of your kubeconfig (or the
//!   in-cluster configuration) and creates nothing by itself.
//! - `--crd` prints the CRD as YAML (`cargo run --example webapp -- --crd | kubectl apply -f -`).

mod operator;

use std::time::Duration;

use clap::Parser;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{CustomResourceExt, ResourceExt};
use operator::{Phase, WebApp, WebAppSpec};
use wheelhouse::cache::{Cache, Event, Scope};
use wheelhouse_envtest::{ServerOptions, TestEnv};

#[derive(Parser)]
#[command(about = "The WebApp operator, on an embedded API server or your cluster")]
struct Args {
    /// Use the cluster of the kubeconfig (or in-cluster configuration); create nothing.
    #[arg(long)]
    cluster: bool,
    /// Print the WebApp CRD as YAML and exit.
    #[arg(long)]
    crd: bool,
    /// The loopback port the embedded server is also served on, for kubectl (0: any).
    #[arg(long, default_value_t = 0)]
    port: u16,
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let args = Args::parse();
    if args.crd {
        print!("{}", serde_saphyr::to_string(&WebApp::crd())?);
        return Ok(());
    }
    if args.cluster {
        return run_on_cluster().await;
    }
    let options = ServerOptions {
        simulate_deployments: Some(Duration::from_secs(1)),
        ..ServerOptions::default()
    };
    let mut env = TestEnv::embedded_with(options).await?;
    let address = env.serve_http(([127, 0, 0, 1], args.port).into()).await?;
    let kubeconfig = env.kubeconfig()?;
    println!(
        "embedded API server on http://{address}; kubeconfig: {}",
        kubeconfig.display()
    );
    env.install_crd(&WebApp::crd()).await?;
    println!("installed CRD webapps.example.com");

    let cache = Cache::new(env.client());
    let controller = operator::controller(&cache, None, None);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(controller.run(async {
        let _ = stopped.await;
    }));
    show_phases(&cache);

    let namespace = env.namespace().to_owned();
    demonstrate(&env.client(), &namespace).await?;

    println!();
    println!("still serving; from another terminal:");
    println!("  kubectl --kubeconfig {} get webapps -w", kubeconfig.display());
    println!(
        "  kubectl --kubeconfig {} apply -f <a WebApp>   (namespace {namespace})",
        kubeconfig.display()
    );
    println!("Ctrl-C stops.");
    tokio::signal::ctrl_c().await?;
    let _ = stop.send(());
    running.await?;
    env.stop().await;
    Ok(())
}

async fn run_on_cluster() -> Result<(), Failure> {
    let client = kube::Client::try_default().await?;
    let cache = Cache::new(client);
    let controller = operator::controller(&cache, None, None);
    println!("running the WebApp controller on your cluster; Ctrl-C stops");
    controller
        .run(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    Ok(())
}

/// Prints every phase change of every WebApp, as the cache sees them.
fn show_phases(cache: &Cache) {
    let mut changes = cache.informer::<WebApp>(Scope::default()).subscribe();
    tokio::spawn(async move {
        while let Some(event) = changes.recv().await {
            match event {
                Event::Updated { old, new } => {
                    let phase = |w: &WebApp| w.status.as_ref().and_then(|s| s.phase);
                    if phase(&old) != phase(&new)
                        && let Some(phase) = phase(&new)
                    {
                        let available = new.status.as_ref().and_then(|s| s.available_replicas).unwrap_or(0);
                        println!(
                            "  webapp/{}: {phase:?} ({available}/{} available)",
                            new.name_any(),
                            new.spec.replicas()
                        );
                    }
                }
                Event::Deleted(gone) => println!("  webapp/{}: gone", gone.name_any()),
                Event::Added(_) | Event::Lagged => {}
            }
        }
    });
}

async fn wait_for_phase(api: &Api<WebApp>, name: &str, phase: Phase, replicas: i32) -> Result<(), Failure> {
    let deadline = tokio::time::Instant::now() + Duration::from_mins(1);
    loop {
        let webapp = api.get(name).await?;
        let status = webapp.status.unwrap_or_default();
        if status.phase == Some(phase) && status.available_replicas == Some(replicas) {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("webapp/{name} did not reach {phase:?} with {replicas} replicas in 60 s").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn show_children(client: &kube::Client, namespace: &str, name: &str) -> Result<(), Failure> {
    let deployment = Api::<Deployment>::namespaced(client.clone(), namespace)
        .get(name)
        .await?;
    let service = Api::<Service>::namespaced(client.clone(), namespace).get(name).await?;
    let owner = |refs: Option<&Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference>>| {
        refs.and_then(|r| r.first())
            .map(|r| format!("{}/{}", r.kind, r.name))
            .unwrap_or_default()
    };
    let spec = deployment.spec;
    let image = spec
        .template
        .spec
        .and_then(|p| p.containers.first().and_then(|c| c.image.clone()));
    let (replicas, image) = (spec.replicas.unwrap_or(0), image.unwrap_or_default());
    println!(
        "  children: deployment/{name} (replicas {replicas}, image {image}, owner {}), service/{name} (clusterIP {}, owner {})",
        owner(deployment.metadata.owner_references.as_ref()),
        service.spec.and_then(|s| s.cluster_ip).unwrap_or_default(),
        owner(service.metadata.owner_references.as_ref()),
    );
    Ok(())
}

/// Create, scale and delete a WebApp, showing what the operator does.
async fn demonstrate(client: &kube::Client, namespace: &str) -> Result<(), Failure> {
    let webapps: Api<WebApp> = Api::namespaced(client.clone(), namespace);
    let name = "hello";
    println!("creating webapp/{name} in namespace {namespace}: nginx:1.27, 2 replicas, port 80");
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: Some(80),
    };
    webapps.create(&PostParams::default(), &WebApp::new(name, spec)).await?;
    wait_for_phase(&webapps, name, Phase::Ready, 2).await?;
    show_children(client, namespace, name).await?;

    println!("scaling webapp/{name} to 4 replicas");
    let patch = serde_json::json!({"spec": {"replicas": 4}});
    webapps
        .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await?;
    wait_for_phase(&webapps, name, Phase::Ready, 4).await?;
    show_children(client, namespace, name).await?;

    println!("deleting webapp/{name}");
    webapps.delete(name, &DeleteParams::default()).await?;
    let mut gone = false;
    for _ in 0..600 {
        if webapps.get_opt(name).await?.is_none() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if !gone {
        return Err(format!("webapp/{name} was not deleted within 30 s").into());
    }
    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(client.clone(), namespace);
    let recorded = events.list(&ListParams::default()).await?;
    for event in recorded
        .items
        .iter()
        .filter(|e| e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some(name))
    {
        println!(
            "  event: {} {}",
            event.reason.as_deref().unwrap_or_default(),
            event.note.as_deref().unwrap_or_default()
        );
    }
    let deployments = Api::<Deployment>::namespaced(client.clone(), namespace);
    for _ in 0..600 {
        if deployments.get_opt(name).await?.is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let left = deployments.list(&ListParams::default()).await?.items.len();
    println!("  garbage collector: {left} deployments left in {namespace}");
    Ok(())
}
