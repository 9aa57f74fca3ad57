//! A manager whose API server cannot be reached says which URL it tried and why, in
//! the error its start returns; answers from a reachable server pass through its
//! clients unchanged.

use std::net::TcpListener;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;
use wheelhouse_cache::{RequestError, Scope};
use wheelhouse_envtest::TestEnv;
use wheelhouse_manager::{CancellationToken, Error, Manager};

#[tokio::test]
async fn a_refused_connection_stops_the_start_with_the_url_and_the_cause() {
    // A port on 127.0.0.1 that was just free, and is closed now: no cluster is used.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let url = format!("https://127.0.0.1:{port}");
    let cluster_url: http::Uri = url.parse().expect("a URL");
    let client = kube::Client::try_from(kube::Config::new(cluster_url.clone())).expect("a client");
    let manager = Manager::builder(client)
        .cluster_url(cluster_url)
        .shutdown_signal(CancellationToken::new())
        .cache_sync_timeout(Duration::from_secs(3))
        .build()
        .expect("a manager");

    let direct = Api::<ConfigMap>::namespaced(manager.client(), "default")
        .get("settings")
        .await
        .expect_err("nothing listens");
    let request = RequestError::of(&direct).expect("a request that got no answer");
    assert_eq!(
        request.url(),
        format!("{url}/api/v1/namespaces/default/configmaps/settings")
    );
    assert!(direct.to_string().contains("Connection refused"), "{direct}");

    manager.cache().informer::<ConfigMap>(Scope::namespace("default"));
    let stopped = manager.run().await.expect_err("the caches cannot sync");
    assert!(matches!(stopped, Error::CacheSync(_)), "{stopped}");
    let message = stopped.to_string();
    assert!(
        message.contains(&format!("GET {url}/api/v1/namespaces/default/configmaps")),
        "{message}"
    );
    assert!(message.contains("tcp connect error: Connection refused"), "{message}");
}

#[tokio::test]
async fn answers_pass_through_unchanged() {
    let env = TestEnv::start().await.expect("a test environment");
    let manager = Manager::builder(env.client())
        .shutdown_signal(CancellationToken::new())
        .build()
        .expect("a manager");
    let missing = Api::<ConfigMap>::namespaced(manager.client(), env.namespace())
        .get("no-such-config-map")
        .await
        .expect_err("not there");
    assert!(
        matches!(&missing, kube::Error::Api(status) if status.code == 404),
        "{missing}"
    );
    env.stop().await;
}
