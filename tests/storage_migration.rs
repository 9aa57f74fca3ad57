//! The storage-version migration, end to end: Widgets stored as `v1alpha1`, the CRD's
//! storage version moved to `v1`, a migration process (this test binary again) killed
//! (SIGKILL) half way, and a second run that resumes from the progress the first left on the CRD, rewrites every
//! object and trims `status.storedVersions` to `v1`. The killed process reaches the
//! server through a fault proxy that delays each request a little, so the kill lands
//! mid-run on a fast server too.

#![cfg(target_os = "linux")]

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, ListParams};
use wheelhouse::manager::{CancellationToken, MIGRATION_PROGRESS_ANNOTATION, MigrationOutcome, Stop, StorageMigration};
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::fault_proxy::{Direction, FaultProxy};
use wheelhouse_examples::widgets;

const WIDGETS: usize = 300;
const PAGE: u32 = 20;

/// Set in the killed run's process: the path of its kubeconfig. The test re-runs its own
/// binary, filtered to itself, so the killed run needs no other build.
const CHILD: &str = "STORAGE_MIGRATION_CHILD_KUBECONFIG";
const TEST: &str = "a_migration_killed_half_way_resumes_rewrites_every_object_and_trims_stored_versions";

/// The killed run: a migration of the Widgets with the kubeconfig at `path`, to its end
/// (which the parent does not let it reach).
async fn child(path: &str) {
    let kubeconfig = kube::config::Kubeconfig::read_from(path).expect("the parent's kubeconfig");
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &kube::config::KubeConfigOptions::default())
        .await
        .expect("a client configuration");
    let client = kube::Client::try_from(config).expect("a client");
    let stop = Stop::new(CancellationToken::new());
    let outcome = StorageMigration::new(widgets::CRD_NAME)
        .page_size(PAGE)
        .run(client, &stop)
        .await
        .expect("the killed run");
    eprintln!("the run that was to be killed finished: {outcome:?}");
}

/// The authority (`host:port`) of the kubeconfig's server, as written and as an address.
fn server_of(kubeconfig: &str) -> (String, std::net::SocketAddr) {
    let parsed = kube::config::Kubeconfig::from_yaml(kubeconfig).expect("a kubeconfig");
    let url = parsed
        .clusters
        .iter()
        .find_map(|cluster| cluster.cluster.as_ref()?.server.clone())
        .expect("a kubeconfig names its server");
    let uri: http::Uri = url.parse().expect("the server is a URL");
    let authority = uri.authority().expect("the server URL has a host").as_str();
    let upstream = authority.parse().expect("the server is an IP address and port");
    (authority.to_owned(), upstream)
}

async fn crd(client: &kube::Client) -> CustomResourceDefinition {
    Api::<CustomResourceDefinition>::all(client.clone())
        .get(widgets::CRD_NAME)
        .await
        .expect("read the CRD")
}

fn migrated_so_far(crd: &CustomResourceDefinition) -> u64 {
    crd.metadata
        .annotations
        .as_ref()
        .and_then(|annotations| annotations.get(MIGRATION_PROGRESS_ANNOTATION))
        .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok())
        .and_then(|progress| progress["migrated"].as_u64())
        .unwrap_or(0)
}

/// Deletes the Widget CRD a run on the same cluster may have left, and waits until it
/// is gone.
async fn remove_crd(client: &kube::Client) {
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let _ = crds.delete(widgets::CRD_NAME, &DeleteParams::default()).await;
    for _ in 0..300 {
        if crds.get_opt(widgets::CRD_NAME).await.expect("read CRDs").is_none() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the Widget CRD was not deleted within 30 s");
}

async fn resource_versions(client: &kube::Client, namespace: &str) -> BTreeMap<String, String> {
    widgets::api(client.clone(), namespace, "v1")
        .list(&ListParams::default())
        .await
        .expect("list Widgets")
        .items
        .into_iter()
        .map(|widget| {
            (
                widget.metadata.name.unwrap_or_default(),
                widget.metadata.resource_version.unwrap_or_default(),
            )
        })
        .collect()
}

/// The first run: a process of its own, slowed by the proxy, killed once it has
/// recorded at least two pages; how many objects it recorded.
async fn first_run_killed(env: &mut TestEnv, client: &kube::Client) -> u64 {
    let kubeconfig = std::fs::read_to_string(env.kubeconfig().expect("a kubeconfig")).expect("read it");
    let (authority, upstream) = server_of(&kubeconfig);
    let proxy = FaultProxy::start(upstream).await.expect("a fault proxy");
    let slowed = kubeconfig.replace(&authority, &proxy.address().to_string());
    proxy.set_delay(Direction::ToServer, Duration::from_millis(15));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = dir.path().join("kubeconfig");
    std::fs::write(&config, slowed).expect("write the kubeconfig");
    let mut child = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args([TEST, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, &config)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start the migration process");
    let mut recorded = 0;
    for _ in 0..3000 {
        recorded = migrated_so_far(&crd(client).await);
        if recorded >= 2 * u64::from(PAGE) {
            break;
        }
        assert!(
            child.try_wait().expect("poll the child").is_none(),
            "the migration process ended before it could be killed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    child.kill().expect("SIGKILL the migration");
    let _ = child.wait();
    assert!(
        recorded >= 2 * u64::from(PAGE),
        "the killed run recorded {recorded} objects"
    );
    let recorded = migrated_so_far(&crd(client).await);
    assert!(recorded < WIDGETS as u64, "the kill came after the end");
    recorded
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migration_killed_half_way_resumes_rewrites_every_object_and_trims_stored_versions() {
    if let Ok(path) = std::env::var(CHILD) {
        return child(&path).await;
    }
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.is_embedded() {
        env.serve_http("127.0.0.1:0".parse().expect("an address"))
            .await
            .expect("serve HTTP");
    }
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    remove_crd(&client).await;
    env.install_crd(&widgets::crd("v1alpha1"))
        .await
        .expect("install v1alpha1");
    widgets::create(client.clone(), &namespace, WIDGETS)
        .await
        .expect("create Widgets");
    env.install_crd(&widgets::crd("v1"))
        .await
        .expect("move the storage version");
    let stored = crd(&client).await.status.and_then(|status| status.stored_versions);
    assert_eq!(
        stored,
        Some(vec!["v1alpha1".to_owned(), "v1".to_owned()]),
        "kube keeps every version that may still be in storage"
    );
    let before = resource_versions(&client, &namespace).await;
    assert_eq!(before.len(), WIDGETS);

    let recorded = first_run_killed(&mut env, &client).await;

    // The second run resumes where the first recorded its progress.
    let stop = Stop::new(CancellationToken::new());
    let outcome = StorageMigration::new(widgets::CRD_NAME)
        .page_size(PAGE)
        .run(client.clone(), &stop)
        .await
        .expect("the second run");
    let MigrationOutcome::Migrated {
        to,
        objects,
        resumed_from,
    } = outcome
    else {
        panic!("the second run did not migrate: {outcome:?}");
    };
    assert_eq!(to, "v1");
    assert_eq!(resumed_from, recorded, "it resumed from the recorded progress");
    assert_eq!(
        objects, WIDGETS as u64,
        "each object counted once, including the resumed ones"
    );

    let after = crd(&client).await;
    assert_eq!(
        after.status.clone().and_then(|status| status.stored_versions),
        Some(vec!["v1".to_owned()])
    );
    assert_eq!(migrated_so_far(&after), 0);
    assert!(
        !after
            .metadata
            .annotations
            .unwrap_or_default()
            .contains_key(MIGRATION_PROGRESS_ANNOTATION),
        "the progress record is removed at the end"
    );
    let rewritten = resource_versions(&client, &namespace).await;
    let untouched: Vec<_> = before
        .iter()
        .filter(|(name, rv)| rewritten.get(*name) == Some(rv))
        .collect();
    assert!(untouched.is_empty(), "not rewritten: {untouched:?}");

    // A third run has nothing to do.
    let again = StorageMigration::new(widgets::CRD_NAME)
        .run(client.clone(), &stop)
        .await
        .expect("a third run");
    assert_eq!(again, MigrationOutcome::NothingToDo);
    remove_crd(&client).await;
    env.stop().await;
}
