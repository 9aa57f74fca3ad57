//! One fleet over API servers of different versions at once: the members named by
//! the kubeconfig files in `FLEET_MEMBER_KUBECONFIGS` (paths separated by commas, say
//! a kube-apiserver 1.32 and a 1.19) beside an embedded member, each answering its own
//! requests through the same single-cluster reconciler. Skipped without the variable:
//! it needs real servers to point at.

use std::sync::Arc;

use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use serde_json::json;
use wheelhouse::controller::{Action, Context, Controller, Error, Reconciler};
use wheelhouse::manager::Manager;
use wheelhouse::manager::fleet::InProcess;
use wheelhouse_envtest::{TestEnv, eventually};

/// The variable naming the real members' kubeconfig files.
const MEMBERS: &str = "FLEET_MEMBER_KUBECONFIGS";
const LABEL: &str = "wheelhouse.dev/fleet-mixed-test";

/// A `ConfigMap` labelled for this test gets a `<name>-reply` naming the cluster and
/// the server's version.
struct Replies;

impl Reconciler<ConfigMap> for Replies {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        if !object.labels().contains_key(LABEL) {
            return Ok(Action::done());
        }
        let version = context.client().apiserver_version().await?.git_version;
        let replies: Api<ConfigMap> =
            Api::namespaced(context.client().clone(), &object.namespace().unwrap_or_default());
        let reply: ConfigMap = serde_json::from_value(json!({
            "metadata": {"name": format!("{}-reply", object.name_any())},
            "data": {"cluster": context.cluster().unwrap_or_default(), "version": version},
        }))?;
        match replies.create(&PostParams::default(), &reply).await {
            Ok(_) => Ok(Action::done()),
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(Action::done()),
            Err(error) => Err(error.into()),
        }
    }
}

async fn client_of(path: &str) -> kube::Client {
    let kubeconfig = Kubeconfig::read_from(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    kube::Client::try_from(config).expect("a client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_over_members_of_different_versions_answers_in_each() {
    let Ok(paths) = std::env::var(MEMBERS) else {
        eprintln!("skipped: {MEMBERS} names no real members' kubeconfigs");
        return;
    };
    let hub = TestEnv::embedded().await.expect("the hub starts");
    let embedded = TestEnv::embedded().await.expect("an embedded member");
    let namespace = format!("fleet-mixed-{}", std::process::id());
    let mut members: Vec<(String, kube::Client, String)> =
        vec![("embedded".into(), embedded.client(), embedded.namespace().to_owned())];
    for (index, path) in paths.split(',').filter(|p| !p.is_empty()).enumerate() {
        let client = client_of(path).await;
        let object: Namespace = serde_json::from_value(json!({"metadata": {"name": namespace}})).expect("a Namespace");
        Api::<Namespace>::all(client.clone())
            .create(&PostParams::default(), &object)
            .await
            .expect("the test's namespace");
        members.push((format!("real-{index}"), client, namespace.clone()));
    }
    let fleet = InProcess::new();
    for (name, client, _) in &members {
        fleet.join(name.as_str(), client.clone());
    }
    let manager = Manager::builder(hub.client())
        .metrics_address(None)
        .health_probe_address(None)
        .build()
        .expect("a manager");
    let controller = Controller::for_::<ConfigMap>(manager.cache())
        .name("mixed-replies")
        .fleet(fleet)
        .build(Replies);
    manager.add(controller).expect("added");
    let shutdown = manager.shutdown_token();
    let running = tokio::spawn(manager.run());

    for (name, client, namespace) in &members {
        let configmaps: Api<ConfigMap> = Api::namespaced(client.clone(), namespace);
        let request: ConfigMap =
            serde_json::from_value(json!({"metadata": {"name": "request", "labels": {LABEL: "yes"}}}))
                .expect("a ConfigMap");
        configmaps
            .create(&PostParams::default(), &request)
            .await
            .expect("the request");
        let data = eventually(&format!("the reply in {name}"), || async {
            configmaps.get_opt("request-reply").await.ok().flatten()?.data
        })
        .await;
        let version = client.apiserver_version().await.expect("/version").git_version;
        assert_eq!(data.get("cluster"), Some(name), "{data:?}");
        assert_eq!(data.get("version"), Some(&version), "{data:?}");
        eprintln!("{name}: answered, kube-apiserver {version}");
    }
    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");
    for (_, client, _) in &members[1..] {
        let _ = Api::<Namespace>::all(client.clone())
            .delete(&namespace, &DeleteParams::default())
            .await;
    }
    embedded.stop().await;
    hub.stop().await;
}
