//! Fleets through the facade: a fleet controller under a manager (its `/readyz` notice
//! for an unreachable member), and the kubeconfig providers (contexts, and Secrets in
//! the home cluster, watched). Member clusters are embedded API servers served on
//! loopback so a kubeconfig reaches them; the first one is `TestEnv::start()`'s, so
//! `USE_EXISTING_CLUSTER=true` makes it a real API server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, PostParams};
use kube::config::Kubeconfig;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wheelhouse::cache::Cache;
use wheelhouse::controller::{Action, Context, Controller, Error, Reconciler};
use wheelhouse::manager::Manager;
use wheelhouse::manager::fleet::{
    ClusterEvent, InProcess, KubeconfigContexts, KubeconfigError, KubeconfigSecrets, Provider,
};
use wheelhouse_envtest::{TestEnv, eventually};

/// The label of the objects the tests' reconciler answers.
const LABEL: &str = "wheelhouse.dev/fleet-facade-test";

/// A single-cluster reconciler: a `ConfigMap` labelled for its test gets a
/// `<name>-reply` next to it. The label's value keeps tests that run at once on one
/// real cluster from answering each other's requests.
struct Replies(&'static str);

impl Reconciler<ConfigMap> for Replies {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        if object.labels().get(LABEL).map(String::as_str) != Some(self.0) {
            return Ok(Action::done());
        }
        let replies: Api<ConfigMap> =
            Api::namespaced(context.client().clone(), &object.namespace().unwrap_or_default());
        let reply: ConfigMap = serde_json::from_value(json!({
            "metadata": {"name": format!("{}-reply", object.name_any())},
            "data": {"cluster": context.cluster().unwrap_or_default()},
        }))?;
        match replies.create(&PostParams::default(), &reply).await {
            Ok(_) => Ok(Action::done()),
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(Action::done()),
            Err(error) => Err(error.into()),
        }
    }
}

async fn request(env: &TestEnv, name: &str, test: &str) {
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let object: ConfigMap =
        serde_json::from_value(json!({"metadata": {"name": name, "labels": {LABEL: test}}})).expect("a ConfigMap");
    configmaps
        .create(&PostParams::default(), &object)
        .await
        .expect("the request is created");
}

async fn reply(env: &TestEnv, name: &str) -> String {
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let reply = format!("{name}-reply");
    eventually(&format!("{reply} in {}", env.namespace()), || async {
        configmaps
            .get_opt(&reply)
            .await
            .ok()
            .flatten()?
            .data?
            .get("cluster")
            .cloned()
    })
    .await
}

/// A member reachable through a kubeconfig: embedded ones are served on loopback.
async fn member(first: bool) -> (TestEnv, String) {
    let mut env = if first {
        TestEnv::start().await.expect("the first member starts")
    } else {
        TestEnv::embedded().await.expect("a member starts")
    };
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("served on loopback");
    }
    let path = env.kubeconfig().expect("a kubeconfig");
    let kubeconfig = std::fs::read_to_string(path).expect("the kubeconfig reads");
    (env, kubeconfig)
}

/// A plain HTTP GET on loopback: the status line's code and the body.
async fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("the probe port answers");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("the request is sent");
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .await
        .expect("the response is read");
    let code = response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_default();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (code, body)
}

/// A client for an address nothing listens on, whose errors name it.
async fn unreachable_client() -> kube::Client {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("its address");
    drop(listener);
    let config = kube::Config::new(format!("http://{address}").parse().expect("a URL"));
    let url = config.cluster_url.clone();
    wheelhouse::cache::name_request_urls(kube::Client::try_from(config).expect("a client"), Some(&url))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_under_a_manager_names_an_unreachable_member_on_readyz_and_stays_ready() {
    let hub = TestEnv::embedded().await.expect("the hub starts");
    let (member_1, _) = member(true).await;
    let fleet = InProcess::new();
    fleet.join("member-1", member_1.client());
    fleet.join("away", unreachable_client().await);
    let manager = Manager::builder(hub.client())
        .health_probe_address(Some(SocketAddr::from(([127, 0, 0, 1], 0))))
        .build()
        .expect("the manager builds");
    let controller = Controller::for_::<ConfigMap>(manager.cache())
        .name("replies")
        .fleet(fleet.clone())
        .build(Replies("manager"));
    let view = controller.view();
    manager.add(controller).expect("the fleet controller is added");
    let probes = manager.health_probe_address().expect("a probe address");
    let shutdown = manager.shutdown_token();
    let running = tokio::spawn(manager.run());
    request(&member_1, "request", "manager").await;
    assert_eq!(reply(&member_1, "request").await, "member-1");
    eventually("the unreachable member reported", || async {
        view.clusters()
            .iter()
            .any(|c| &*c.name == "away" && c.error.is_some())
            .then_some(())
    })
    .await;
    let (code, body) = get(probes, "/readyz?verbose").await;
    assert_eq!(
        code, 200,
        "one unreachable member does not make the replica unready: {body}"
    );
    assert!(
        body.contains("[+]fleet-replies degraded: 1 of 2 clusters unreachable: away ("),
        "{body}"
    );
    assert!(
        body.contains("connection refused") || body.contains("Connection refused"),
        "{body}"
    );
    let (code, body) = get(probes, "/readyz").await;
    assert_eq!((code, body.as_str()), (200, "ok"));
    shutdown.cancel();
    running
        .await
        .expect("the manager task")
        .expect("the manager stops cleanly");
    member_1.stop().await;
    hub.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_from_kubeconfig_contexts_reaches_each_context() {
    let (first, first_config) = member(true).await;
    let (second, second_config) = member(false).await;
    // One kubeconfig with both clusters, their contexts renamed `a` and `b`.
    let rename = |text: &str, name: &str| {
        let mut config = Kubeconfig::from_yaml(text).expect("the kubeconfig parses");
        let current = config.current_context.clone().expect("a current context");
        let context = config
            .contexts
            .iter_mut()
            .find(|c| c.name == current)
            .expect("its context");
        context.name = name.to_owned();
        config.contexts.retain(|c| c.name == name);
        config.current_context = Some(name.to_owned());
        for cluster in &mut config.clusters {
            cluster.name = format!("{name}-{}", cluster.name);
        }
        for user in &mut config.auth_infos {
            user.name = format!("{name}-{}", user.name);
        }
        if let Some(context) = config.contexts[0].context.as_mut() {
            context.cluster = format!("{name}-{}", context.cluster);
            context.user = context.user.as_ref().map(|user| format!("{name}-{user}"));
        }
        config
    };
    let merged = rename(&first_config, "a")
        .merge(rename(&second_config, "b"))
        .expect("the kubeconfigs merge");
    let missing = KubeconfigContexts::new(merged.clone(), &["a", "nowhere"]).await;
    assert!(matches!(missing, Err(KubeconfigError::NoSuchContext(name)) if name == "nowhere"));
    let fleet = KubeconfigContexts::new(merged, &[])
        .await
        .expect("the contexts make clients");
    let names: Vec<String> = fleet.clusters().names().iter().map(ToString::to_string).collect();
    assert_eq!(names, ["a", "b"]);
    let controller = Controller::for_::<ConfigMap>(&Cache::new(first.client()))
        .fleet(fleet)
        .build(Replies("contexts"));
    let token = tokio_util::sync::CancellationToken::new();
    let stop = token.clone();
    let running = tokio::spawn(controller.run(async move { stop.cancelled().await }));
    request(&first, "request", "contexts").await;
    request(&second, "request", "contexts").await;
    assert_eq!(reply(&first, "request").await, "a");
    assert_eq!(reply(&second, "request").await, "b");
    token.cancel();
    running.await.expect("the controller stops");
    first.stop().await;
    second.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_from_kubeconfig_secrets_joins_and_leaves_as_the_secrets_come_and_go() {
    let hub = TestEnv::embedded().await.expect("the hub starts");
    let (first, first_config) = member(true).await;
    let home = Cache::new(hub.client());
    let provider = KubeconfigSecrets::new(&home, hub.namespace());
    let mut events = provider.watch();
    let secrets: Api<Secret> = Api::namespaced(hub.client(), hub.namespace());
    let secret = |name: &str, kubeconfig: &str| -> Secret {
        serde_json::from_value(json!({"metadata": {"name": name}, "stringData": {"value": kubeconfig}}))
            .expect("a Secret")
    };
    // Not a kubeconfig Secret by name, and one whose kubeconfig does not parse: neither joins.
    secrets
        .create(&PostParams::default(), &secret("registry-credentials", &first_config))
        .await
        .expect("created");
    secrets
        .create(
            &PostParams::default(),
            &secret("broken-kubeconfig", "{not: [a kubeconfig"),
        )
        .await
        .expect("created");
    secrets
        .create(&PostParams::default(), &secret("first-kubeconfig", &first_config))
        .await
        .expect("created");
    let joined = tokio::time::timeout(Duration::from_secs(30), events.next())
        .await
        .expect("a join within 30 s");
    let Some(ClusterEvent::Joined(cluster)) = joined else {
        panic!("expected the first member to join, got {joined:?}");
    };
    assert_eq!(cluster.name(), "first");
    assert_eq!(
        provider.clusters().names().len(),
        1,
        "only the usable kubeconfig Secret joins"
    );
    // The member's client works: it reads the member's namespace.
    let configmaps: Api<ConfigMap> = Api::namespaced(cluster.client().clone(), first.namespace());
    configmaps
        .list(&kube::api::ListParams::default())
        .await
        .expect("the member answers");
    secrets
        .delete("first-kubeconfig", &DeleteParams::default())
        .await
        .expect("deleted");
    let left = tokio::time::timeout(Duration::from_secs(30), events.next())
        .await
        .expect("a leave within 30 s");
    assert!(
        matches!(&left, Some(ClusterEvent::Left(name)) if &**name == "first"),
        "{left:?}"
    );
    assert!(provider.clusters().names().is_empty());
    first.stop().await;
    hub.stop().await;
}
