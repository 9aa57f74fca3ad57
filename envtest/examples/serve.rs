//! Serves the embedded API server on a loopback port for kubectl and curl:
//!
//! ```text
//! cargo run -p wheelhouse-envtest --example serve -- --port 8001
//! export KUBECONFIG=<the path it prints>
//! kubectl get ns
//! ```
//!
//! Plain HTTP with no authentication, so it only ever listens on 127.0.0.1.

use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};

/// Runs the embedded Kubernetes API server until Ctrl-C.
#[derive(Debug, Parser)]
struct Args {
    /// The loopback port to listen on.
    #[arg(long, default_value_t = 8001)]
    port: u16,
    /// How long after a pod is bound to a simulated Node it runs (and, if healthy,
    /// becomes Ready), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pod_start_delay: u64,
    /// How many simulated Nodes to register.
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// Serve a bare API server: no workload controllers, scheduler or kubelets, so
    /// Deployments get no ReplicaSets or Pods.
    #[arg(long)]
    no_workloads: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    match serve(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: &Args) -> Result<(), String> {
    let options = ServerOptions {
        workloads: (!args.no_workloads).then(|| WorkloadSimulation {
            nodes: args.nodes,
            ..WorkloadSimulation::pods_start_after(Duration::from_millis(args.pod_start_delay))
        }),
        ..ServerOptions::default()
    };
    let mut env = TestEnv::embedded_with(options)
        .await
        .map_err(|e| format!("the embedded API server did not start: {e}"))?;
    // Loopback only: anyone who can reach the port can do anything.
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
    let bound = env.serve_http(addr).await.map_err(|e| match e {
        wheelhouse_envtest::Error::Io(io) if io.kind() == std::io::ErrorKind::AddrInUse => {
            format!("port {} is already in use; pick another with --port", args.port)
        }
        other => format!("could not listen on {addr}: {other}"),
    })?;
    let kubeconfig = env
        .kubeconfig()
        .map_err(|e| format!("could not write the kubeconfig: {e}"))?;
    println!("wheelhouse-envtest API server on http://{bound} (plain HTTP, no auth)");
    println!("kubeconfig: {}", kubeconfig.display());
    println!();
    println!("  export KUBECONFIG={}", kubeconfig.display());
    println!("  kubectl get ns");
    println!();
    println!("Ctrl-C stops the server; everything is kept in memory only.");
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| format!("could not wait for Ctrl-C: {e}"))?;
    env.stop().await;
    Ok(())
}
