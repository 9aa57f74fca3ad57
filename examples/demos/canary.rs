//! The Canary operator (`src/canary.rs`, on the phase scheduler; success rates from
//! `metrics.rs`) against the embedded Kubernetes API server: a promotion and a rollback.
//!
//! - `cargo run --example canary` starts the embedded API server (Deployments become
//!   available half a second after each change, as if their pods started), installs
//!   the CRD, runs the controller, and creates a Canary whose success rate comes from
//!   a `ConfigMap` the demonstration edits. It changes the image with a healthy rate
//!   (the canary's weight steps to 100 %, then it is promoted), then again with a
//!   failing rate (rolled back), then deletes the Canary (its finalizer sends the
//!   traffic back to the primary first), printing each phase and weight; then keeps
//!   serving until Ctrl-C (`--exit` stops after the demonstration).
//! - `--cluster` runs the controller against the cluster of your kubeconfig, with
//!   `--prometheus-url` as the default Prometheus of Canaries that name none.
//! - `--crd` prints the CRD as YAML.

use std::time::Duration;

use canary::{Canary, CanaryPhase, CanarySpec};
use clap::Parser;
use demo::Failure;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::api::networking::v1::Ingress;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use wheelhouse::cache::{Cache, Event, Scope};
use wheelhouse::controller::Controller;
use wheelhouse::controller::phase::DeclarationError;
use wheelhouse_envtest::{ServerOptions, WorkloadSimulation};
use wheelhouse_examples::{canary, demo};

#[derive(Parser)]
#[command(about = "The Canary operator, on an embedded API server or your cluster")]
struct Args {
    /// Use the cluster of the kubeconfig (or in-cluster configuration); create nothing.
    #[arg(long)]
    cluster: bool,
    /// Print the Canary CRD as YAML and exit.
    #[arg(long)]
    crd: bool,
    /// Stop after the demonstration instead of serving until Ctrl-C.
    #[arg(long)]
    exit: bool,
    /// The Prometheus of Canaries whose spec names none (`http://prometheus:9090`).
    #[arg(long)]
    prometheus_url: Option<String>,
    /// The loopback port the embedded server is also served on, for kubectl (0: any).
    #[arg(long, default_value_t = 0)]
    port: u16,
}

/// The operator's controllers, on `cache` (the manager's).
fn controllers(cache: &Cache, prometheus: Option<String>) -> Result<Vec<Controller>, DeclarationError> {
    Ok(vec![canary::controller(cache, None, prometheus)?])
}

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let args = Args::parse();
    if args.crd {
        print!("{}", serde_saphyr::to_string(&wheelhouse::webhook::crd::<Canary>())?);
        return Ok(());
    }
    if args.cluster {
        let client = kube::Client::try_default().await?;
        let prometheus = args.prometheus_url;
        return demo::run_until_signalled(client, |cache| controllers(cache, prometheus), "Canary").await;
    }
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(500))),
        ..ServerOptions::default()
    };
    let (env, kubeconfig) = demo::embedded(options, args.port, &wheelhouse::webhook::crd::<Canary>()).await?;

    let prometheus = args.prometheus_url;
    let running = demo::start(env.client(), |cache| controllers(cache, prometheus))?;
    show_progress(&running.cache);

    let namespace = env.namespace().to_owned();
    demonstrate(&env.client(), &namespace).await?;

    demo::keep_serving(args.exit, &kubeconfig, "canaries,deployments,ingresses", &namespace).await?;
    running.stop().await?;
    env.stop().await;
    Ok(())
}

/// Prints every phase and weight change of every Canary, as the cache sees them.
fn show_progress(cache: &Cache) {
    let mut changes = cache.informer::<Canary>(Scope::default()).subscribe();
    tokio::spawn(async move {
        while let Some(event) = changes.recv().await {
            if let Event::Updated { old, new } = event {
                let state = |c: &Canary| {
                    c.status.as_ref().map(|s| {
                        (
                            s.phase.unwrap_or(CanaryPhase::Initializing),
                            s.info.canary_weight,
                            s.info.success_rate,
                        )
                    })
                };
                let (before, after) = (state(&old), state(&new));
                if let Some((phase, weight, rate)) = after
                    && before.map(|(p, w, _)| (p, w)) != Some((phase, weight))
                {
                    let rate = rate.map(|r| format!(", success rate {r}%")).unwrap_or_default();
                    println!("  canary/{}: {phase:?}, weight {weight}%{rate}", new.name_any());
                }
            }
        }
    });
}

/// The image the primary Deployment runs.
async fn primary_image(client: &kube::Client, namespace: &str, name: &str) -> Result<String, Failure> {
    let primary = Api::<Deployment>::namespaced(client.clone(), namespace)
        .get(&format!("{name}-primary"))
        .await?;
    Ok(primary
        .spec
        .template
        .spec
        .and_then(|pod| pod.containers.first().and_then(|c| c.image.clone()))
        .unwrap_or_default())
}

/// Waits until the Canary is back in Waiting with `check` holding on its status.
async fn wait_until(
    canaries: &Api<Canary>,
    name: &str,
    what: &str,
    check: impl Fn(&canary::CanaryStatus) -> bool,
) -> Result<(), Failure> {
    let deadline = tokio::time::Instant::now() + Duration::from_mins(1);
    loop {
        let status = canaries.get(name).await?.status.unwrap_or_default();
        if check(&status) {
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("canary/{name}: {what} did not happen within 60 s: {status:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn set_image(canaries: &Api<Canary>, name: &str, image: &str) -> Result<(), Failure> {
    let patch = serde_json::json!({"spec": {"deployment": {"template": {"spec": {"containers": [
        {"name": "web", "image": image, "ports": [{"containerPort": 9898, "protocol": "TCP"}]}
    ]}}}}});
    canaries
        .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
        .await?;
    Ok(())
}

async fn set_success_rate(configs: &Api<ConfigMap>, name: &str, rate: &str) -> Result<(), Failure> {
    let patch = serde_json::json!({"data": {name: rate}});
    configs
        .patch("canary-metrics", &PatchParams::default(), &Patch::Merge(&patch))
        .await?;
    Ok(())
}

/// A promotion, a rollback and a deletion.
async fn demonstrate(client: &kube::Client, namespace: &str) -> Result<(), Failure> {
    let canaries: Api<Canary> = Api::namespaced(client.clone(), namespace);
    let configs: Api<ConfigMap> = Api::namespaced(client.clone(), namespace);
    let name = "podinfo";
    let post = PostParams::default();
    println!("creating configmap/canary-metrics: {name} succeeds 99.5% of the time");
    let config: ConfigMap = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "canary-metrics"}, "data": {name: "99.5"}
    }))?;
    configs.create(&post, &config).await?;

    println!("creating canary/{name}: podinfo 6.0.0, steps of 25% every second, threshold 99%");
    let spec: CanarySpec = serde_json::from_value(serde_json::json!({
        "deployment": {"replicas": 2, "template": {
            "metadata": {"labels": {"team": "web"}},
            "spec": {"containers": [{"name": "web", "image": "ghcr.io/stefanprodan/podinfo:6.0.0", "ports": [{"containerPort": 9898, "protocol": "TCP"}]}]},
        }},
        "port": 9898,
        "analysisInterval": "1s",
        "analysisPeriod": "1m",
        "successThreshold": 99.0,
        "stepWeight": 25,
        "metrics": {"configMap": {"name": "canary-metrics"}},
    }))?;
    canaries.create(&post, &Canary::new(name, spec)).await?;
    wait_until(&canaries, name, "Waiting", |s| s.phase == Some(CanaryPhase::Waiting)).await?;
    println!("  primary runs {}", primary_image(client, namespace, name).await?);

    println!("changing the image to podinfo 6.0.1 (healthy)");
    let before = canaries
        .get(name)
        .await?
        .status
        .unwrap_or_default()
        .info
        .primary_revision;
    set_image(&canaries, name, "ghcr.io/stefanprodan/podinfo:6.0.1").await?;
    wait_until(&canaries, name, "the promotion", |s| {
        s.phase == Some(CanaryPhase::Waiting) && s.info.primary_revision != before
    })
    .await?;
    let weight = Api::<Ingress>::namespaced(client.clone(), namespace)
        .get(&format!("{name}-canary"))
        .await
        .map(|i| canary::weight_of(&i))?;
    println!(
        "  promoted: primary runs {}; canary ingress weight back to {weight:?}",
        primary_image(client, namespace, name).await?
    );

    println!("changing the image to podinfo 6.0.2, which fails: success rate 80%");
    set_success_rate(&configs, name, "80").await?;
    set_image(&canaries, name, "ghcr.io/stefanprodan/podinfo:6.0.2").await?;
    wait_until(&canaries, name, "the rollback", |s| {
        s.phase == Some(CanaryPhase::Waiting) && s.info.rejected_revision.is_some()
    })
    .await?;
    println!(
        "  rolled back: primary still runs {}",
        primary_image(client, namespace, name).await?
    );

    println!("deleting canary/{name}");
    canaries.delete(name, &DeleteParams::default()).await?;
    for _ in 0..600 {
        if canaries.get_opt(name).await?.is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let canary_ingress = Api::<Ingress>::namespaced(client.clone(), namespace)
        .get_opt(&format!("{name}-canary"))
        .await?;
    println!(
        "  canary/{name} gone; canary ingress {}",
        if canary_ingress.is_none() {
            "deleted first by the finalizer"
        } else {
            "still there"
        }
    );
    demo::print_events(client, namespace).await
}
