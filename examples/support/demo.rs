//! What the phase-scheduler examples share: running their controllers until told to
//! stop, serving until Ctrl-C, and printing the Events their operator recorded.

use std::path::Path;

use kube::api::{Api, ListParams};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use wheelhouse::controller::Controller;

/// The examples' error type.
pub type Failure = Box<dyn std::error::Error + Send + Sync>;

/// Runs `controllers` on their own task until the returned sender fires (a manager
/// would do this, and stop them in order).
pub fn run(controllers: Vec<Controller>) -> (oneshot::Sender<()>, JoinHandle<()>) {
    let (stop, stopped) = oneshot::channel::<()>();
    let running = tokio::spawn(async move {
        let stopped = futures::FutureExt::shared(async {
            let _ = stopped.await;
        });
        futures::future::join_all(controllers.into_iter().map(|c| c.run(stopped.clone()))).await;
    });
    (stop, running)
}

/// Runs `controllers` until Ctrl-C, as `--cluster` does.
pub async fn run_until_ctrl_c(controllers: Vec<Controller>, what: &str) -> Result<(), Failure> {
    let (stop, running) = run(controllers);
    println!("running the {what} controller on your cluster; Ctrl-C stops");
    tokio::signal::ctrl_c().await?;
    let _ = stop.send(());
    running.await?;
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
