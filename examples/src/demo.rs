//! What the phase-scheduler examples share: an embedded server with their CRD,
//! running their controllers until told to stop, serving until Ctrl-C, and printing
//! the Events their operator recorded.

use std::path::{Path, PathBuf};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use wheelhouse_envtest::{ServerOptions, TestEnv};

use kube::api::{Api, ListParams};
use tokio::task::JoinHandle;
use wheelhouse::cache::Cache;
use wheelhouse::controller::Controller;
use wheelhouse::controller::phase::DeclarationError;
use wheelhouse::manager::{CancellationToken, Manager};

/// The examples' error type.
pub type Failure = Box<dyn std::error::Error + Send + Sync>;

/// An embedded API server with `crd` installed, also served on `127.0.0.1:port` for
/// kubectl; returns it and the path of its kubeconfig, both printed.
pub async fn embedded(
    options: ServerOptions,
    port: u16,
    crd: &CustomResourceDefinition,
) -> Result<(TestEnv, PathBuf), Failure> {
    let mut env = TestEnv::embedded_with(options).await?;
    let address = env.serve_http(([127, 0, 0, 1], port).into()).await?;
    let kubeconfig = env.kubeconfig()?;
    println!(
        "embedded API server on http://{address}; kubeconfig: {}",
        kubeconfig.display()
    );
    env.install_crd(crd).await?;
    println!("installed CRD {}", crd.metadata.name.as_deref().unwrap_or_default());
    Ok((env, kubeconfig))
}

/// An operator's manager running on its own task.
pub struct Running {
    /// The manager's cache, shared with its controllers.
    pub cache: Cache,
    shutdown: CancellationToken,
    task: JoinHandle<Result<(), wheelhouse::manager::Error>>,
}

impl Running {
    /// Stops the manager (its controllers drain) and returns what it returned.
    pub async fn stop(self) -> Result<(), Failure> {
        self.shutdown.cancel();
        Ok(self.task.await??)
    }
}

/// The manager of `client` with the controllers `build` makes on its cache.
fn manager(
    client: kube::Client,
    shutdown: Option<CancellationToken>,
    build: impl FnOnce(&Cache) -> Result<Vec<Controller>, DeclarationError>,
) -> Result<Manager, Failure> {
    let mut builder = Manager::builder(client);
    if let Some(shutdown) = shutdown {
        builder = builder.shutdown_signal(shutdown);
    }
    let manager = builder.build()?;
    for controller in build(manager.cache())? {
        manager.add(controller)?;
    }
    Ok(manager)
}

/// Runs the controllers `build` makes under a manager of `client`, on its own task,
/// until [`Running::stop`].
pub fn start(
    client: kube::Client,
    build: impl FnOnce(&Cache) -> Result<Vec<Controller>, DeclarationError>,
) -> Result<Running, Failure> {
    let shutdown = CancellationToken::new();
    let manager = manager(client, Some(shutdown.clone()), build)?;
    Ok(Running {
        cache: manager.cache().clone(),
        shutdown,
        task: tokio::spawn(manager.run()),
    })
}

/// Runs the controllers `build` makes under a manager until SIGINT or SIGTERM, as
/// `--cluster` does.
pub async fn run_until_signalled(
    client: kube::Client,
    build: impl FnOnce(&Cache) -> Result<Vec<Controller>, DeclarationError>,
    what: &str,
) -> Result<(), Failure> {
    let manager = manager(client, None, build)?;
    println!("running the {what} controller on your cluster; Ctrl-C stops");
    manager.run().await?;
    Ok(())
}

/// Unless `exit`, says how to look with kubectl and waits for Ctrl-C.
pub async fn keep_serving(exit: bool, kubeconfig: &Path, resources: &str, namespace: &str) -> Result<(), Failure> {
    if exit {
        return Ok(());
    }
    println!();
    println!("still serving; from another terminal:");
    println!(
        "  kubectl --kubeconfig {} get {resources} -n {namespace}",
        kubeconfig.display()
    );
    println!("Ctrl-C stops.");
    tokio::signal::ctrl_c().await?;
    Ok(())
}

/// Prints the Events of `namespace`, oldest first.
pub async fn print_events(client: &kube::Client, namespace: &str) -> Result<(), Failure> {
    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(client.clone(), namespace);
    let mut recorded = events.list(&ListParams::default()).await?.items;
    recorded.sort_by_key(|e| e.event_time.as_ref().map(|t| t.0));
    for event in recorded {
        println!(
            "  event: {} {}",
            event.reason.as_deref().unwrap_or_default(),
            event.note.as_deref().unwrap_or_default()
        );
    }
    Ok(())
}
