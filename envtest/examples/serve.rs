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
use wheelhouse_envtest::{ServerOptions, TestEnv};

/// Runs the embedded Kubernetes API server until Ctrl-C.
#[derive(Debug, Parser)]
struct Args {
    /// The loopback port to listen on.
    #[arg(long, default_value_t = 8001)]
    port: u16,
    /// Make Deployments available this many milliseconds after they change.
    #[arg(long, value_name = "MS")]
    simulate_deployments: Option<u64>,
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
        simulate_deployments: args.simulate_deployments.map(Duration::from_millis),
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
