//! The WebApp operator over a fleet: a hub and three member clusters, each an embedded
//! API server in this process, a fourth member added and one removed while it runs.
//!
//! - The hub holds the members' kubeconfig Secrets (`<member>-kubeconfig` in the
//!   namespace `fleet`, Cluster API's convention); the operator's manager runs on the
//!   hub and its WebApp controller is a fleet controller over
//!   [`KubeconfigSecrets`]: a Secret created joins a member, one deleted makes it leave.
//! - The reconciler is the single-cluster WebApp reconciler, unchanged: each reconcile's
//!   context carries its member's client.
//! - A WebApp on the hub fans out: a hub controller ([`HubFanOut`]) copies it into every
//!   member and writes back how many members run it Ready and the replicas available
//!   across the fleet.
//! - Each join and leave is printed as the controller engages or disengages the member.
//! - At the end one member's API server stops: `/readyz?verbose` names it (degraded,
//!   the replica stays ready) and the others carry on.
//!
//! `cargo run --example fleet`

use std::net::SocketAddr;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Namespace, Secret};
use kube::CustomResourceExt;
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wheelhouse::controller::Controller;
use wheelhouse::controller::FleetView;
use wheelhouse::manager::Manager;
use wheelhouse::manager::fleet::KubeconfigSecrets;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::fanout::{HubFanOut, MEMBER_NAMESPACE};
use wheelhouse_examples::webapp::{self, Phase, WebApp, WebAppReconciler, WebAppSpec};

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// The hub's namespace holding the members' kubeconfig Secrets.
const FLEET_NAMESPACE: &str = "fleet";

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let hub = TestEnv::embedded().await?;
    let namespaces: Api<Namespace> = Api::all(hub.client());
    let namespace = serde_json::from_value(json!({"metadata": {"name": FLEET_NAMESPACE}}))?;
    namespaces.create(&PostParams::default(), &namespace).await?;
    println!("hub: embedded API server; member kubeconfigs go in Secrets of namespace {FLEET_NAMESPACE}");

    let mut members: Vec<Member> = Vec::new();
    for index in 1..=4 {
        members.push(member(&format!("member-{index}")).await?);
    }

    let manager = Manager::builder(hub.client())
        .health_probe_address(Some(SocketAddr::from(([127, 0, 0, 1], 0))))
        .build()?;
    hub.install_crd(&WebApp::crd()).await?;
    let provider = KubeconfigSecrets::new(manager.cache(), FLEET_NAMESPACE);
    let fan_out = Controller::for_::<WebApp>(manager.cache())
        .name("webapp-fan-out")
        .namespace(MEMBER_NAMESPACE)
        .build(HubFanOut::new(provider.clusters().clone()));
    manager.add(fan_out)?;
    let controller = webapp::builder(manager.cache(), None)
        .fleet(provider)
        .build(WebAppReconciler::new());
    let view = controller.view();
    tokio::spawn(print_membership(view.clone()));
    manager.add(controller)?;
    let probes = manager.health_probe_address();
    let shutdown = manager.shutdown_token();
    let running = tokio::spawn(manager.run());

    // Three members join, each with a WebApp the operator brings to Ready.
    for member in &members[..3] {
        join(&hub, member).await?;
    }
    view.wait_for(|names| names.len() == 3).await;
    for member in &members[..3] {
        deploy_and_wait(member).await?;
    }

    // A WebApp on the hub fans out into the members; their progress comes back.
    let hub_webapps: Api<WebApp> = Api::namespaced(hub.client(), MEMBER_NAMESPACE);
    let spec: WebAppSpec = serde_json::from_value(json!({"image": "nginx:1.27", "replicas": 2}))?;
    hub_webapps
        .create(&PostParams::default(), &WebApp::new("catalog", spec))
        .await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let status = hub_webapps.get("catalog").await?.status.unwrap_or_default();
        if status.phase == Some(Phase::Ready) {
            println!(
                "  hub: WebApp catalog Ready in every member, {} replicas available across the fleet",
                status.available_replicas.unwrap_or(0)
            );
            break;
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("hub WebApp catalog not Ready after 30 s ({status:?})").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A fourth joins while it runs.
    join(&hub, &members[3]).await?;
    view.wait_for(|names| names.len() == 4).await;
    deploy_and_wait(&members[3]).await?;

    // The second leaves: its Secret is deleted; the others carry on.
    let secrets: Api<Secret> = Api::namespaced(hub.client(), FLEET_NAMESPACE);
    secrets
        .delete(&format!("{}-kubeconfig", members[1].name), &DeleteParams::default())
        .await?;
    view.wait_for(|names| !names.iter().any(|n| **n == *members[1].name))
        .await;
    println!("members now: {:?}", view.names());

    // The third's API server goes away: it is reported, and nothing else is held up.
    let away = members.remove(2);
    println!("stopping {}'s API server", away.name);
    away.env.stop().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while view.clusters().iter().all(wheelhouse::controller::ClusterStatus::ready) {
        if tokio::time::Instant::now() > deadline {
            return Err("the stopped member was not reported within 30 s".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    if let Some(probes) = probes {
        println!("\n/readyz?verbose:\n{}", get(probes, "/readyz?verbose").await?);
    }
    for status in view.clusters() {
        println!(
            "  {}: ready={} webapps cached={} queued={}",
            status.name,
            status.ready(),
            status.objects,
            status.queued
        );
    }
    println!("stopping the manager (every member is disengaged)");
    shutdown.cancel();
    running.await??;
    Ok(())
}

/// One member: an embedded API server served on loopback (so a kubeconfig reaches it),
/// with the WebApp CRD, and Deployments that become available after a second.
struct Member {
    name: String,
    env: TestEnv,
    kubeconfig: String,
}

async fn member(name: &str) -> Result<Member, Failure> {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_secs(1))),
        ..ServerOptions::default()
    };
    let mut env = TestEnv::embedded_with(options).await?;
    env.serve_http(([127, 0, 0, 1], 0).into()).await?;
    let kubeconfig = std::fs::read_to_string(env.kubeconfig()?)?;
    env.install_crd(&WebApp::crd()).await?;
    Ok(Member {
        name: name.to_owned(),
        env,
        kubeconfig,
    })
}

/// Writes `member`'s kubeconfig Secret in the hub: the provider sees it and the member joins.
async fn join(hub: &TestEnv, member: &Member) -> Result<(), Failure> {
    let secrets: Api<Secret> = Api::namespaced(hub.client(), FLEET_NAMESPACE);
    let secret = serde_json::from_value(json!({
        "metadata": {"name": format!("{}-kubeconfig", member.name)},
        "stringData": {"value": member.kubeconfig},
    }))?;
    secrets.create(&PostParams::default(), &secret).await?;
    Ok(())
}

/// Creates a WebApp in `member` and waits until the operator reports it Ready.
async fn deploy_and_wait(member: &Member) -> Result<(), Failure> {
    let webapps: Api<WebApp> = Api::namespaced(member.env.client(), member.env.namespace());
    let spec: WebAppSpec = serde_json::from_value(json!({"image": "nginx:1.27", "replicas": 2}))?;
    webapps
        .create(&PostParams::default(), &WebApp::new("shop", spec))
        .await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let phase = webapps.get("shop").await?.status.and_then(|s| s.phase);
        if phase == Some(Phase::Ready) {
            println!("  {}: WebApp shop is Ready", member.name);
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("{}: WebApp shop not Ready after 30 s ({phase:?})", member.name).into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Prints each member as the controller engages or disengages it.
async fn print_membership(view: FleetView) {
    let mut seen = Vec::new();
    loop {
        let now = view.changed(seen.clone()).await;
        for name in now.iter().filter(|n| !seen.contains(*n)) {
            println!("joined: {name}");
        }
        for name in seen.iter().filter(|n| !now.contains(*n)) {
            println!("left:   {name}");
        }
        seen = now;
    }
}

/// A plain HTTP GET on loopback.
async fn get(address: SocketAddr, path: &str) -> Result<String, Failure> {
    let mut stream = tokio::net::TcpStream::connect(address).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await?;
    Ok(response
        .split_once("\r\n\r\n")
        .map_or(response.clone(), |(_, body)| body.to_owned()))
}
