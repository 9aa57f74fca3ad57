//! The flagship example: the WebApp operator (`src/webapp.rs`) under a [`Manager`],
//! against the embedded Kubernetes API server, with a short demonstration of its
//! lifecycle.
//!
//! - `cargo run --example webapp` starts the embedded API server (Deployments become
//!   available after a second, as if their pods started), installs the CRD, runs the
//!   operator's manager (leader election on a Lease, `/metrics`, `/healthz`, `/readyz`
//!   on loopback), creates a WebApp, reads it as `v1` and as `v1alpha1` (converted by
//!   the webhook server's `/convert`), scales it, deletes it, printing each phase and the
//!   children the operator made, and a few lines of `/metrics`; then keeps serving
//!   until Ctrl-C, with a kubeconfig so `kubectl get webapps -w` works from another
//!   terminal.
//! - `--cluster` runs the operator against the cluster of your kubeconfig (or the
//!   in-cluster configuration) and creates nothing by itself; kubebuilder's flags
//!   apply (`--leader-elect`, `--metrics-bind-address`, `--health-probe-bind-address`,
//!   `--enable-webhooks`, `--log-level`, `--log-format`, ...: the table in
//!   `ManagerArgs`' rustdoc).
//! - `--crd` prints the CRD as YAML (`cargo run --example webapp -- --crd | kubectl apply -f -`):
//!   `deploy/crd.yaml`, both versions, converted by the webhook Service of `deploy/`.

use std::net::SocketAddr;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Service;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use webapp::{Phase, WebApp, WebAppSpec};
use wheelhouse::cache::{Cache, Event, Scope};
use wheelhouse::manager::{LeaderElection, Manager, ManagerArgs, Sharding};
use wheelhouse::webhook::{WebhookOptions, WebhookServer};
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::webapp::{self, v1alpha1, webhooks};

// The Lease the operator's replicas elect their leader on.
use webapp::fencing::LEADER_ELECTION_ID;

#[derive(Parser)]
#[command(about = "The WebApp operator, on an embedded API server or your cluster")]
#[expect(clippy::struct_excessive_bools, reason = "command-line switches, one per flag")]
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
    /// With --cluster: shard the WebApps across the replicas instead of electing one
    /// leader (each replica holds its own Lease in the ring `webapp-operator` and
    /// reconciles its share; `cargo run --example sharded` shows it on the embedded
    /// server). Exclusive with --leader-elect.
    #[arg(long, conflicts_with = "leader_elect")]
    shards: bool,
    /// With --cluster --leader-elect: stamp the Deployments and Services written with
    /// the leadership term, for the policy of deploy/fencing.yaml (Kubernetes 1.30+),
    /// which refuses a write from a term that has ended.
    #[arg(long, conflicts_with = "shards")]
    server_fencing: bool,
    #[command(flatten)]
    manager: ManagerArgs,
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let matches = Args::command().get_matches();
    let args = Args::from_arg_matches(&matches)?;
    if args.crd {
        print!("{}", serde_saphyr::to_string(&webhooks::deploy_crd()?)?);
        return Ok(());
    }
    args.manager.init_logging()?;
    if args.cluster {
        return run_on_cluster(&args.manager, args.shards, args.server_fencing).await;
    }
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_secs(1))),
        ..ServerOptions::default()
    };
    let mut env = TestEnv::embedded_with(options).await?;
    let address = env.serve_http(([127, 0, 0, 1], args.port).into()).await?;
    let kubeconfig = env.kubeconfig()?;
    println!(
        "embedded API server on http://{address}; kubeconfig: {}",
        kubeconfig.display()
    );

    // The demo's manager: leader election on a Lease in the demo's namespace, and the
    // metrics and probe server on loopback (any free port unless a flag names one).
    // Metrics are plain HTTP here, so `curl` reads them on this machine alone; with
    // `--cluster` they are HTTPS and each scrape is checked with the API server
    // (`--metrics-secure`, on by default; see deploy/metrics-auth.yaml).
    let manager = Manager::builder(env.client())
        .metrics_secure(false)
        .metrics_address(loopback(
            &matches,
            "metrics_bind_address",
            args.manager.metrics_address()?,
        ))
        .health_probe_address(loopback(
            &matches,
            "health_probe_bind_address",
            args.manager.health_probe_address()?,
        ))
        .leader_election(LeaderElection::new(LEADER_ELECTION_ID).namespace(env.namespace()))
        .build()?;
    manager.add(webapp::controller(manager.cache(), None, None))?;
    // The webhooks on 127.0.0.1 with a self-signed certificate, registered with the
    // embedded server, which calls them as kube-apiserver would; the CRD serves v1
    // (stored) and v1alpha1, converted by the same server's /convert.
    let (webhook_server, _configurations, crd) =
        webhooks::serve_locally_converting(&env.client(), "webapp", None).await?;
    env.install_crd(&crd).await?;
    println!("installed CRD webapps.example.com (v1 stored, v1alpha1 converted by the webhook)");
    if let Some(address) = webhook_server.local_addr() {
        println!(
            "webhooks: https://{address} (mutating: defaults; validating: image tag, replicas, port; /convert: v1 <-> v1alpha1)"
        );
    }
    manager.add(webhook_server)?;
    show_phases(manager.cache());
    if let Some(metrics) = manager.metrics_address() {
        println!("metrics:  curl http://{metrics}/metrics");
    }
    if let Some(probes) = manager.health_probe_address() {
        println!("probes:   curl http://{probes}/healthz  http://{probes}/readyz?verbose");
    }
    let metrics_address = manager.metrics_address();
    let running = tokio::spawn(manager.run());

    let namespace = env.namespace().to_owned();
    demonstrate(&env.client(), &namespace).await?;
    if let Some(address) = metrics_address {
        show_metrics(address).await?;
    }

    println!();
    println!("still serving; from another terminal:");
    println!("  kubectl --kubeconfig {} get webapps -w", kubeconfig.display());
    println!(
        "  kubectl --kubeconfig {} get webapps.v1alpha1.example.com -o yaml   (the older version)",
        kubeconfig.display()
    );
    println!(
        "  kubectl --kubeconfig {} apply -f <a WebApp>   (namespace {namespace})",
        kubeconfig.display()
    );
    println!("Ctrl-C stops.");
    // The manager stops on SIGINT/SIGTERM; a failure of the operator ends the process
    // with its error (and a non-zero exit).
    running.await??;
    env.stop().await;
    Ok(())
}

/// In the demo, metrics and probes listen on loopback: on the port a flag named, or
/// on any free port when the flag was left at its default.
fn loopback(matches: &ArgMatches, flag: &str, parsed: Option<SocketAddr>) -> Option<SocketAddr> {
    let parsed = parsed?;
    let port = match matches.value_source(flag) {
        Some(ValueSource::CommandLine | ValueSource::EnvVariable) => parsed.port(),
        _ => 0,
    };
    Some(SocketAddr::from(([127, 0, 0, 1], port)))
}

/// With `--enable-webhooks` it serves the validating and mutating webhooks (certificates
/// from `--cert-dir`; apply deploy/webhook.yaml); the embedded demo always serves them.
/// The conversions are served in either case: deploy/crd.yaml sends every read of
/// `v1alpha1` to `/convert`, which would fail with nothing there.
async fn run_on_cluster(flags: &ManagerArgs, shards: bool, server_fencing: bool) -> Result<(), Failure> {
    // From the configuration, not a client: with leader election the manager's writes
    // then go out on connections that check the term at the socket.
    let config = kube::Config::infer().await?;
    let mut builder = Manager::builder_from_config(config)?
        .args(flags)
        .leader_election_id(LEADER_ELECTION_ID);
    if shards {
        builder = builder.sharding(Sharding::new("webapp-operator"));
    }
    if server_fencing {
        builder = builder.server_fencing(webapp::fencing::server_fencing());
    }
    let manager = builder.build()?;
    manager.add(webapp::controller(manager.cache(), None, None))?;
    let options = WebhookOptions::from_args(flags);
    let mut server = if flags.enable_webhooks {
        webhooks::webhook_server(options)
    } else {
        WebhookServer::new(options).conversion(webapp::conversion())
    };
    // Every replica serves the fence webhook: on clusters without admission policies
    // (before 1.30) deploy/fencing-webhook.yaml sends the fenced writes to it.
    if let Some(fence) = manager.fence_webhook() {
        server = server.handler(webapp::fencing::server_fencing().webhook_path(), move |request| {
            let fence = fence.clone();
            async move { fence.review(request).await }
        });
    }
    manager.add(server)?;
    tracing::info!(
        metrics = ?manager.metrics_address(),
        probes = ?manager.health_probe_address(),
        leader_election = flags.leader_elect,
        shards,
        "running the WebApp operator on your cluster; Ctrl-C stops"
    );
    manager.run().await?;
    Ok(())
}

/// Prints the lines of `/metrics` that show the operator at work.
async fn show_metrics(address: SocketAddr) -> Result<(), Failure> {
    let mut stream = tokio::net::TcpStream::connect(address).await?;
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n")
        .await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    println!("from /metrics:");
    let shown = [
        "controller_runtime_reconcile_total{",
        "workqueue_adds_total{",
        "leader_election_master_status{",
    ];
    for line in response
        .lines()
        .filter(|line| shown.iter().any(|prefix| line.starts_with(prefix)))
    {
        println!("  {line}");
    }
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

/// Reads one WebApp as both versions, as `kubectl get webapps.v1.example.com` and
/// `kubectl get webapps.v1alpha1.example.com` would.
async fn show_both_versions(client: &kube::Client, namespace: &str, name: &str) -> Result<(), Failure> {
    println!("reading webapp/{name} as both versions (v1 is stored; v1alpha1 is converted by the webhook):");
    let hub = Api::<WebApp>::namespaced(client.clone(), namespace).get(name).await?;
    println!(
        "  example.com/v1:       image {}, replicas {}, port {}",
        hub.spec.image,
        hub.spec.replicas(),
        hub.spec.port()
    );
    match Api::<v1alpha1::WebApp>::namespaced(client.clone(), namespace)
        .get(name)
        .await
    {
        Ok(old) if old.spec.container_port.is_some() => println!(
            "  example.com/v1alpha1: image {}, replicas {}, containerPort {}",
            old.spec.image,
            old.spec.replicas.unwrap_or_default(),
            old.spec.container_port.unwrap_or_default()
        ),
        // The embedded server may serve the stored object under the other version
        // without calling the conversion webhook (strategy None's behaviour).
        Ok(_) => println!(
            "  example.com/v1alpha1: served without conversion (containerPort missing): this API server does not call conversion webhooks"
        ),
        Err(error) => println!("  example.com/v1alpha1: not served: {error}"),
    }
    Ok(())
}

/// Create, scale and delete a WebApp, showing what the operator does.
async fn demonstrate(client: &kube::Client, namespace: &str) -> Result<(), Failure> {
    let webapps: Api<WebApp> = Api::namespaced(client.clone(), namespace);
    let name = "hello";
    println!("creating webapp/unpinned: image nginx (no tag)");
    let unpinned = WebAppSpec {
        image: "nginx".into(),
        replicas: Some(2),
        port: None,
    };
    match webapps
        .create(&PostParams::default(), &WebApp::new("unpinned", unpinned))
        .await
    {
        Err(kube::Error::Api(status)) => println!("  denied: {}", status.message),
        Ok(_) => return Err("the validating webhook let an image without a tag through".into()),
        Err(other) => return Err(other.into()),
    }
    println!("creating webapp/{name} in namespace {namespace}: nginx:1.27, 2 replicas, no port");
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: None,
    };
    let created = webapps.create(&PostParams::default(), &WebApp::new(name, spec)).await?;
    println!(
        "  defaulted by the mutating webhook: port {}, label {}={}",
        created.spec.port(),
        webhooks::MANAGED_BY_LABEL,
        created
            .labels()
            .get(webhooks::MANAGED_BY_LABEL)
            .map_or("", String::as_str)
    );
    wait_for_phase(&webapps, name, Phase::Ready, 2).await?;
    show_children(client, namespace, name).await?;
    show_both_versions(client, namespace, name).await?;

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
