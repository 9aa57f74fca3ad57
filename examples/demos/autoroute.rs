//! The `AutoRoute` operator (`src/autoroute.rs`, on the phase scheduler) against the embedded
//! Kubernetes API server: routes are added and removed as Deployments come and go.
//!
//! - `cargo run --example autoroute` starts the embedded API server, installs the CRD,
//!   runs the controller, creates Deployments and an `AutoRoute` selecting some of them,
//!   then adds one, relabels one out of the selection and deletes one, printing each
//!   phase, the Ingress hosts and the Services after each step; then keeps serving
//!   until Ctrl-C (`--exit` stops after the demonstration), with a kubeconfig for
//!   `kubectl get autoroutes -w`.
//! - `--cluster` runs the controller against the cluster of your kubeconfig (or the
//!   in-cluster configuration) and creates nothing by itself.
//! - `--crd` prints the CRD as YAML.

use std::time::Duration;

use autoroute::{AutoRoute, AutoRouteSpec, RoutePhase};
use clap::Parser;
use demo::Failure;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::networking::v1::Ingress;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use wheelhouse::cache::{Cache, Event, Scope};
use wheelhouse::controller::Controller;
use wheelhouse::controller::phase::DeclarationError;
use wheelhouse_envtest::ServerOptions;
use wheelhouse_examples::{autoroute, demo};

#[derive(Parser)]
#[command(about = "The AutoRoute operator, on an embedded API server or your cluster")]
struct Args {
    /// Use the cluster of the kubeconfig (or in-cluster configuration); create nothing.
    #[arg(long)]
    cluster: bool,
    /// Print the `AutoRoute` CRD as YAML and exit.
    #[arg(long)]
    crd: bool,
    /// Stop after the demonstration instead of serving until Ctrl-C.
    #[arg(long)]
    exit: bool,
    /// The loopback port the embedded server is also served on, for kubectl (0: any).
    #[arg(long, default_value_t = 0)]
    port: u16,
}

/// The operator's controllers, on `cache` (the manager's).
fn controllers(cache: &Cache) -> Result<Vec<Controller>, DeclarationError> {
    Ok(vec![autoroute::controller(cache, None)?])
}

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let args = Args::parse();
    if args.crd {
        print!("{}", serde_saphyr::to_string(&wheelhouse::webhook::crd::<AutoRoute>())?);
        return Ok(());
    }
    if args.cluster {
        let client = kube::Client::try_default().await?;
        return demo::run_until_signalled(client, controllers, "AutoRoute").await;
    }
    let (env, kubeconfig) = demo::embedded(
        ServerOptions::default(),
        args.port,
        &wheelhouse::webhook::crd::<AutoRoute>(),
    )
    .await?;

    let running = demo::start(env.client(), controllers)?;
    show_phases(&running.cache);

    let namespace = env.namespace().to_owned();
    demonstrate(&env.client(), &namespace).await?;

    demo::keep_serving(args.exit, &kubeconfig, "autoroutes,services,ingresses", &namespace).await?;
    running.stop().await?;
    env.stop().await;
    Ok(())
}

/// Prints every phase change of every `AutoRoute`, as the cache sees them.
fn show_phases(cache: &Cache) {
    let mut changes = cache.informer::<AutoRoute>(Scope::default()).subscribe();
    tokio::spawn(async move {
        while let Some(event) = changes.recv().await {
            if let Event::Updated { old, new } = event {
                let phase = |r: &AutoRoute| r.status.as_ref().and_then(|s| s.phase);
                if phase(&old) != phase(&new) {
                    println!(
                        "  autoroute/{}: {:?} -> {:?}",
                        new.name_any(),
                        phase(&old).unwrap_or(RoutePhase::Initializing),
                        phase(&new).unwrap_or(RoutePhase::Initializing)
                    );
                }
            }
        }
    });
}

/// A Deployment named `name` serving on `port`, labelled `expose=<expose>`.
fn deployment(name: &str, port: i32, expose: &str) -> Result<Deployment, Failure> {
    Ok(serde_json::from_value(serde_json::json!({
        "metadata": {"name": name, "labels": {"expose": expose}},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": name, "image": "nginx:1.27", "ports": [{"containerPort": port, "protocol": "TCP"}]}]},
            },
        },
    }))?)
}

/// Waits until the route is Ready and routes exactly `expected`, then prints its hosts
/// and Services.
async fn show_routes(client: &kube::Client, namespace: &str, route: &str, expected: &[&str]) -> Result<(), Failure> {
    let routes: Api<AutoRoute> = Api::namespaced(client.clone(), namespace);
    let ingresses: Api<Ingress> = Api::namespaced(client.clone(), namespace);
    let services: Api<Service> = Api::namespaced(client.clone(), namespace);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let status = routes.get(route).await?.status.unwrap_or_default();
        let services_now = services.list(&ListParams::default()).await?.items.len();
        if status.phase == Some(RoutePhase::Ready)
            && status.info.synced_deployments == expected
            && services_now == expected.len()
        {
            break;
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("autoroute/{route} did not route {expected:?} within 30 s: {status:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let hosts: Vec<String> = ingresses
        .get_opt(route)
        .await?
        .and_then(|i| i.spec)
        .and_then(|s| s.rules)
        .into_iter()
        .flatten()
        .filter_map(|rule| rule.host)
        .collect();
    let services: Vec<String> = services
        .list(&ListParams::default())
        .await?
        .items
        .iter()
        .map(ResourceExt::name_any)
        .collect();
    println!("  ingress/{route} hosts: {hosts:?}; services: {services:?}");
    Ok(())
}

/// Deployments come and go; the route follows.
async fn demonstrate(client: &kube::Client, namespace: &str) -> Result<(), Failure> {
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), namespace);
    let routes: Api<AutoRoute> = Api::namespaced(client.clone(), namespace);
    let post = PostParams::default();
    println!("creating deployments web (8080) and api (9090) with expose=yes, and worker with expose=no");
    deployments.create(&post, &deployment("web", 8080, "yes")?).await?;
    deployments.create(&post, &deployment("api", 9090, "yes")?).await?;
    deployments.create(&post, &deployment("worker", 8000, "no")?).await?;

    println!("creating autoroute/shop selecting expose=yes");
    let spec: AutoRouteSpec = serde_json::from_value(serde_json::json!({
        "deploymentSelector": {"matchLabels": {"expose": "yes"}}
    }))?;
    routes.create(&post, &AutoRoute::new("shop", spec)).await?;
    show_routes(client, namespace, "shop", &["api", "web"]).await?;

    println!("creating deployment admin (3000) with expose=yes");
    deployments.create(&post, &deployment("admin", 3000, "yes")?).await?;
    show_routes(client, namespace, "shop", &["admin", "api", "web"]).await?;

    println!("relabelling deployment api expose=no");
    let patch = serde_json::json!({"metadata": {"labels": {"expose": "no"}}});
    deployments
        .patch("api", &PatchParams::default(), &Patch::Merge(&patch))
        .await?;
    show_routes(client, namespace, "shop", &["admin", "web"]).await?;

    println!("deleting deployment web");
    deployments.delete("web", &DeleteParams::default()).await?;
    show_routes(client, namespace, "shop", &["admin"]).await?;

    demo::print_events(client, namespace).await
}
