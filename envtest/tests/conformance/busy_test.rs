//! The API server works on whatever the test does with its own thread: a
//! current-thread `#[tokio::test]` that blocks, or spins in a loop that never yields,
//! does not stop the server answering others or its controllers collecting garbage.
//! A kube-apiserver is another process; the embedded server has threads of its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::json;

use crate::common::{TIMEOUT, from_json, skip_without_controllers, start};

/// Waits, on a thread and runtime of its own and through a client of its own, until
/// `name` is gone from `namespace` (then sets `gone`), for at most [`TIMEOUT`].
fn wait_gone_elsewhere(config: kube::Config, namespace: &str, name: &str, gone: &AtomicBool) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let client = runtime.block_on(async move { kube::Client::try_from(config).expect("a client") });
    let configmaps: Api<ConfigMap> = Api::namespaced(client, namespace);
    // A request nobody answers must fail the test, not hang it.
    runtime.block_on(async {
        let waiting = async {
            loop {
                if let Ok(None) = configmaps.get_opt(name).await {
                    gone.store(true, Ordering::Release);
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        let _ = tokio::time::timeout(TIMEOUT, waiting).await;
    });
}

#[tokio::test(flavor = "current_thread")]
async fn garbage_is_collected_and_others_answered_while_the_tests_only_thread_spins() {
    let mut env = start().await;
    if skip_without_controllers(&env, "garbage collection") {
        env.stop().await;
        return;
    }
    if env.is_embedded() {
        // Another client reaches the embedded server through its loopback listener.
        env.serve_http(([127, 0, 0, 1], 0).into()).await.expect("a listener");
    }
    let config = env.config_for("bystander").expect("a client configuration");
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let owner = configmaps
        .create(
            &PostParams::default(),
            &from_json(json!({"metadata": {"name": "owner"}})),
        )
        .await
        .expect("create the owner");
    let uid = owner.metadata.uid.expect("a uid");
    let child: ConfigMap = from_json(json!({"metadata": {"name": "child", "ownerReferences": [
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": uid}
    ]}}));
    configmaps
        .create(&PostParams::default(), &child)
        .await
        .expect("create the child");
    configmaps
        .delete("owner", &DeleteParams::background())
        .await
        .expect("delete the owner");

    // From here the test's only thread never yields: whatever collects the child and
    // answers the bystander runs elsewhere, or the deadline fails the test.
    let gone = Arc::new(AtomicBool::new(false));
    let bystander = std::thread::spawn({
        let (namespace, gone) = (env.namespace().to_owned(), gone.clone());
        move || wait_gone_elsewhere(config, &namespace, "child", &gone)
    });
    let deadline = Instant::now() + TIMEOUT;
    while !gone.load(Ordering::Acquire) && Instant::now() < deadline {
        std::hint::spin_loop();
    }
    bystander.join().expect("the bystander's thread");
    assert!(
        gone.load(Ordering::Acquire),
        "the child was collected and the bystander answered while the test's thread spun"
    );
    env.stop().await;
}
