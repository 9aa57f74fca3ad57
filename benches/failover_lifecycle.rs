//! The failover bench's Lease-lifecycle kinds: the leader's Lease deleted under churn
//! (`kind=lease-delete`), edited to name a live standby (`kind=lease-edit`), and an API
//! server restart (`kind=apiserver-restart`).
//!
//! - **lease-delete**: three WebApp replicas (2 s lease, 1.5 s renew deadline, 0.4 s
//!   retry) while the WebApps' specs change every 20 ms; the leader's Lease is deleted
//!   `runs` times, and, as the anchor, the leader is killed as many times. Measured
//!   from the deletion to the first reconcile of the term that created the Lease anew
//!   (from the kill to the next leader's first reconcile). The server's
//!   witness counts the writes that arrived while another identity held the Lease
//!   (`stale_writes`, target 0), and apart from them those that arrived while nobody
//!   held it (`unheld_writes`: the deleted leader's, in the moment before its watch
//!   told it; it ends its term then).
//! - **lease-edit**: the same replicas and churn; the Lease is edited `tries` times to
//!   name a live standby (as `kubectl patch lease --type merge -p
//!   '{"spec":{"holderIdentity":..}}'`, or a restore from a backup). The server's
//!   write witness counts the writes about a WebApp (its own, its Deployment's, its
//!   Service's) that arrived after another replica began to reconcile that WebApp,
//!   from work its sender had begun before (`stale_writes`, target 0): two leaders.
//! - **apiserver-restart**: three WebApp replicas with client-go's timings, each with
//!   the client the manager makes of its configuration (`Manager::builder_from_config`,
//!   as the operator's binary: a restarting server's `Retry-After` is not slept). On
//!   the embedded server, reached over HTTP, its serving process stops
//!   (`TestEnv::stop_api_server`: open connections reset, new ones refused, every watch
//!   answered 410 after, as a restarted kube-apiserver's watch cache does) for `outage`
//!   (19 s, past the lease duration: every term ends), while every WebApp's spec
//!   changes, and starts again. On an existing cluster (`USE_EXISTING_CLUSTER=true`)
//!   its kube-apiserver is stopped and started by the commands `ENVTEST_APISERVER_STOP`
//!   and `ENVTEST_APISERVER_START` (etcd kept), and every WebApp changes as soon as
//!   `/readyz` answers: with one API server nothing can change during the outage.
//!   Measured from `/readyz` (the embedded server's start) to every WebApp converged
//!   (its Deployment has its replicas and its status its generation), judged from
//!   two watches started then (`FAILOVER_BENCH_POLL=1`: by listing every WebApp and
//!   Deployment every 20 ms, as earlier rounds did, which takes cores from what it
//!   times); the target is 5 s at 300 WebApps.

use std::time::{Duration, SystemTime};

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use kube::CustomResourceExt;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams};
use tokio::time::Instant;
use wheelhouse::manager::{LeaderElection, OnLeadershipLost};
use wheelhouse_envtest::{ArrivedWrite, ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::replicas::{self, Connection, Replica, Timeline, leader, short};
use wheelhouse_examples::webapp::WebApp;

use crate::wait_for;

/// What the deletions (and the kills beside them) showed.
pub struct LeaseDelete {
    /// From each deletion to the next term's first reconcile, ms.
    pub delete_ms: Vec<f64>,
    /// From each kill to the next leader's first reconcile, ms.
    pub kill_ms: Vec<f64>,
    /// Writes that arrived while another identity held the Lease.
    pub stale: usize,
    /// Writes that arrived while nobody held it.
    pub unheld: usize,
}

fn options() -> ServerOptions {
    ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    }
}

/// Changes the WebApps' specs every 20 ms until dropped.
fn churn(client: kube::Client, namespace: &str, names: Vec<String>) -> tokio_util::task::AbortOnDropHandle<()> {
    let webapps: Api<WebApp> = Api::namespaced(client, namespace);
    tokio_util::task::AbortOnDropHandle::new(tokio::spawn(async move {
        for change in 0_usize.. {
            let replicas = i32::try_from(change / names.len() % 3 + 1).expect("small");
            let patch = serde_json::json!({"spec": {"replicas": replicas}});
            let _ = webapps
                .patch(
                    &names[change % names.len()],
                    &PatchParams::default(),
                    &Patch::Merge(&patch),
                )
                .await;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }))
}

fn ms_since(then: SystemTime, now: SystemTime) -> f64 {
    now.duration_since(then).unwrap_or_default().as_secs_f64() * 1000.0
}

pub async fn lease_delete(runs: usize) -> LeaseDelete {
    const LEASE: &str = "lease-delete";
    let env = TestEnv::embedded_with(options()).await.expect("an embedded server");
    let server = env.server().cloned().expect("the embedded server");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    replicas::create_webapps(&client, &namespace, 1).await.expect("create");
    let witness = server.witness_lease(&namespace, LEASE);
    let timeline = Timeline::default();
    let start = |index: usize| {
        let client = kube::Client::new(server.as_user(&format!("replica-{index}")), namespace.clone());
        let election = short(LeaderElection::new(LEASE)).on_lost(OnLeadershipLost::Standby);
        Replica::webapp(&client, &namespace, index, election, &timeline, None).expect("a replica")
    };
    let mut replicas: Vec<Replica> = (0..3).map(start).collect();
    let names = ["shop", "blog", "wiki"].map(String::from).to_vec();
    let _churn = churn(client.clone(), &namespace, names);
    let leases: Api<Lease> = Api::namespaced(client.clone(), &namespace);
    let mut result = LeaseDelete {
        delete_ms: Vec::new(),
        kill_ms: Vec::new(),
        stale: 0,
        unheld: 0,
    };
    for _ in 0..runs {
        // A deletion: the leader ends its term when its watch tells it, and may
        // create the Lease anew; the others count it held for a lease duration.
        wait_for("a leader", || leader(&replicas)).await;
        let deleted = SystemTime::now();
        leases
            .delete(LEASE, &DeleteParams::default())
            .await
            .expect("delete the Lease");
        let holder = recreated(&leases, LEASE).await;
        let since = SystemTime::now();
        let new: usize = holder
            .strip_prefix("replica-")
            .and_then(|index| index.parse().ok())
            .expect("a replica's identity");
        let first = wait_for("the new term's first reconcile", || timeline.first_by(new, since)).await;
        result.delete_ms.push(ms_since(deleted, first.started_at));

        // The anchor: a kill, measured the same way.
        let old = wait_for("a leader", || leader(&replicas)).await;
        let position = replicas.iter().position(|r| r.index == old).expect("the leader");
        let mut gone = replicas.remove(position);
        let killed = SystemTime::now();
        gone.kill().await;
        let new = wait_for("a new leader", || leader(&replicas).filter(|&i| i != old)).await;
        let first = wait_for("the new leader's first reconcile", || timeline.first_by(new, killed)).await;
        result.kill_ms.push(ms_since(killed, first.started_at));
        let next = replicas.iter().map(|r| r.index).max().unwrap_or(0).max(old) + 1;
        replicas.push(start(next));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stale = witness.stale_writes();
    result.stale = stale.iter().filter(|w| w.holder_user.is_some()).count();
    result.unheld = stale.len() - result.stale;
    for write in stale.iter().filter(|w| w.holder_user.is_some()) {
        println!("stale write: {write:?}");
    }
    for replica in &mut replicas {
        let _ = replica.stop().await;
    }
    env.stop().await;
    result
}

/// What the edits showed.
pub struct LeaseEdit {
    /// Writes about a WebApp that arrived after another replica began on it.
    pub stale: usize,
    /// Writes about the WebApps the witness saw in all.
    pub writes: usize,
    /// How many times the named standby led next.
    pub named_led: usize,
}

pub async fn lease_edit(tries: usize) -> LeaseEdit {
    const LEASE: &str = "lease-edit";
    let env = TestEnv::embedded_with(options()).await.expect("an embedded server");
    let server = env.server().cloned().expect("the embedded server");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    replicas::create_webapps(&client, &namespace, 1).await.expect("create");
    let witness = env.witness_writes().expect("the embedded server's witness");
    let timeline = Timeline::default();
    let start = |index: usize| {
        let client = kube::Client::new(server.as_user(&format!("replica-{index}")), namespace.clone());
        let election = short(LeaderElection::new(LEASE)).on_lost(OnLeadershipLost::Standby);
        Replica::webapp(&client, &namespace, index, election, &timeline, None).expect("a replica")
    };
    let mut replicas: Vec<Replica> = (0..3).map(start).collect();
    let names = ["shop", "blog", "wiki"].map(String::from).to_vec();
    let _churn = churn(client.clone(), &namespace, names);
    let leases: Api<Lease> = Api::namespaced(client.clone(), &namespace);
    let mut named_led = 0;
    for attempt in 0..tries {
        let old = wait_for("a leader", || leader(&replicas)).await;
        // Let it work for a while: the edit lands in the middle of its reconciles.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let standby = (old + 1 + attempt % 2) % 3;
        let patch = serde_json::json!({"spec": {"holderIdentity": format!("replica-{standby}")}});
        leases
            .patch(LEASE, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("edit the Lease");
        wait_for("the edited leader's term to end", || {
            (!replicas[old].manager.is_leader()).then_some(())
        })
        .await;
        let next = wait_for("the next leader", || leader(&replicas)).await;
        named_led += usize::from(next == standby);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let about = |write: &ArrivedWrite| {
        let children = ["webapps", "deployments", "services"].contains(&write.resource.as_str());
        children.then(|| write.name.clone()).flatten().map(Some)
    };
    let writes = witness.writes();
    let stale = timeline.stale_writes(&writes, about);
    let counted = writes.iter().filter(|write| about(write).is_some()).count();
    for replica in &mut replicas {
        let _ = replica.stop().await;
    }
    env.stop().await;
    LeaseEdit {
        stale,
        writes: counted,
        named_led,
    }
}

/// Waits until the Lease exists again, held, and returns its holder.
async fn recreated(leases: &Api<Lease>, name: &str) -> String {
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        let lease = leases.get_opt(name).await.ok().flatten();
        if let Some(holder) = lease
            .and_then(|lease| lease.spec?.holder_identity)
            .filter(|holder| !holder.is_empty())
        {
            return holder;
        }
        assert!(Instant::now() < deadline, "the Lease was never created again");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// True when every WebApp's Deployment has the WebApp's replicas and its status
/// describes its generation.
async fn converged(client: &kube::Client, namespace: &str) -> bool {
    let webapps: Api<WebApp> = Api::namespaced(client.clone(), namespace);
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), namespace);
    let (Ok(webapps), Ok(deployments)) = (
        webapps.list(&ListParams::default()).await,
        deployments.list(&ListParams::default()).await,
    ) else {
        return false;
    };
    webapps.items.iter().all(|webapp| {
        let deployed = deployments
            .items
            .iter()
            .find(|d| d.metadata.name == webapp.metadata.name)
            .and_then(|d| d.spec.replicas);
        let observed = webapp.status.as_ref().and_then(|s| s.observed_generation);
        observed == webapp.metadata.generation && deployed == Some(webapp.spec.replicas.unwrap_or(1))
    })
}

/// A watch of `api` whose failures are retried after a short pause: the server has
/// just restarted, and a growing backoff would time the backoff, not the operator.
fn paced_watch<K>(
    api: Api<K>,
) -> impl futures::Stream<Item = Result<kube::runtime::watcher::Event<K>, kube::runtime::watcher::Error>>
where
    K: kube::Resource + Clone + std::fmt::Debug + serde::de::DeserializeOwned + Send + 'static,
{
    use futures::StreamExt;
    kube::runtime::watcher(api, kube::runtime::watcher::Config::default()).then(|event| async move {
        if let Err(error) = &event {
            tracing::debug!(%error, "the convergence watch failed");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        event
    })
}

/// Waits until every one of `count` WebApps has converged (as [`converged`] judges),
/// judging from two watches (one list each, then one event per change) started now:
/// polling lists of every WebApp and Deployment every few milliseconds, as the check
/// before the outage does, would take a share of the cores from the operator it times.
///
/// # Panics
/// When `deadline` passes first.
async fn until_converged(client: &kube::Client, namespace: &str, count: usize, deadline: Instant) {
    use futures::StreamExt;
    use kube::ResourceExt;
    use kube::runtime::watcher::Event;
    use std::collections::HashMap;
    enum Seen {
        WebApp(Box<Event<WebApp>>),
        Deployment(Box<Event<Deployment>>),
    }
    let webapps = paced_watch(Api::<WebApp>::namespaced(client.clone(), namespace))
        .map(|e| e.map(|event| Seen::WebApp(Box::new(event))));
    let deployments = paced_watch(Api::<Deployment>::namespaced(client.clone(), namespace))
        .map(|e| e.map(|event| Seen::Deployment(Box::new(event))));
    let mut events = std::pin::pin!(futures::stream::select(webapps, deployments));
    // name -> (wanted replicas, generation observed), and name -> deployed replicas.
    let mut wanted: HashMap<String, (i32, bool)> = HashMap::new();
    let mut deployed: HashMap<String, Option<i32>> = HashMap::new();
    let done = |wanted: &HashMap<String, (i32, bool)>, deployed: &HashMap<String, Option<i32>>| {
        wanted.len() == count
            && wanted
                .iter()
                .all(|(name, (replicas, observed))| *observed && deployed.get(name) == Some(&Some(*replicas)))
    };
    while !done(&wanted, &deployed) {
        let next = tokio::time::timeout_at(deadline, events.next()).await;
        let Ok(Some(event)) = next else {
            panic!("the WebApps never converged after the outage");
        };
        match event {
            Ok(Seen::WebApp(event)) => match *event {
                Event::Init => wanted.clear(),
                Event::Apply(webapp) | Event::InitApply(webapp) => {
                    let observed =
                        webapp.status.as_ref().and_then(|s| s.observed_generation) == webapp.metadata.generation;
                    wanted.insert(webapp.name_any(), (webapp.spec.replicas.unwrap_or(1), observed));
                }
                Event::Delete(webapp) => {
                    wanted.remove(&webapp.name_any());
                }
                Event::InitDone => {}
            },
            Ok(Seen::Deployment(event)) => match *event {
                Event::Init => deployed.clear(),
                Event::Apply(deployment) | Event::InitApply(deployment) => {
                    deployed.insert(deployment.name_any(), deployment.spec.replicas);
                }
                Event::Delete(deployment) => {
                    deployed.remove(&deployment.name_any());
                }
                Event::InitDone => {}
            },
            Err(_) => {}
        }
    }
}

/// What an API server restart showed.
pub struct Restart {
    /// The server: `embedded`, or the existing cluster's `/version` (`v1.32.0`).
    pub server: String,
    /// From the restarted server's readiness to every WebApp converged, ms.
    pub converge_ms: f64,
    /// From the restarted server's readiness to the last change of the WebApps
    /// accepted, ms: 0 on the embedded server, which took them during the outage.
    pub changed_ms: f64,
}

/// A client of `env`'s API server over its own connections, witnessed as `user`, that
/// leaves a 429, 503 or 504 to its caller (kube's default retry would sleep a
/// restarting server's `Retry-After: 10` inside the request, and the figure with it).
fn client_without_retry(env: &TestEnv, user: &str) -> kube::Client {
    let mut config = env.config_for(user).expect("a configuration");
    config.default_retry = false;
    kube::Client::try_from(config).expect("a client")
}

/// Changes every one of `count` WebApps (`replicas: 2`), 16 at a time, each patch
/// tried again until it is accepted (a server just restarted may still refuse some).
async fn change_all(client: &kube::Client, namespace: &str, count: usize) {
    use futures::StreamExt;
    let webapps: Api<WebApp> = Api::namespaced(client.clone(), namespace);
    let deadline = Instant::now() + Duration::from_mins(1);
    futures::stream::iter(0..count)
        .for_each_concurrent(16, |index| {
            let webapps = webapps.clone();
            async move {
                let patch = serde_json::json!({"spec": {"replicas": 2}});
                let name = format!("webapp-{index}");
                while let Err(error) = webapps
                    .patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
                    .await
                {
                    assert!(Instant::now() < deadline, "{name} could not be changed: {error}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        })
        .await;
}

/// An API server restart with `count` WebApps and three replicas of the WebApp
/// operator (client-go's timings), each with the client the manager makes of its
/// configuration, as the operator's binary has: on the embedded server, its serving
/// process stopped for `outage` while every WebApp changes (the bench's own client
/// reaches the store in process); on an existing cluster (`USE_EXISTING_CLUSTER=true`),
/// its kube-apiserver stopped and started again by `ENVTEST_APISERVER_STOP` and
/// `ENVTEST_APISERVER_START` (etcd kept), and every WebApp changed as soon as `/readyz`
/// answers (one API server, nothing to change during the outage). Measured from
/// `/readyz` (the embedded server: its start) to every WebApp converged. None (the
/// reason on stderr) on an existing cluster without the commands.
/// `kube_client` gives the replicas kube's own client of their configuration instead
/// (its default retry sleeps a 429's or 503's `Retry-After`), for comparison.
pub async fn apiserver_restart(count: usize, outage: Duration, kube_client: bool) -> Option<Restart> {
    const LEASE: &str = "apiserver-restart";
    let existing = wheelhouse_envtest::use_existing_cluster();
    let mut env = if existing {
        TestEnv::start().await.expect("the existing cluster")
    } else {
        let mut env = TestEnv::embedded_with(options()).await.expect("an embedded server");
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
        env
    };
    if !env.can_restart_api_server() {
        env.stop().await;
        return None;
    }
    let server = if existing {
        let version = env.client().apiserver_version().await.expect("the server's version");
        version.git_version
    } else {
        "embedded".to_owned()
    };
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let namespace = env.namespace().to_owned();
    // The embedded server's own client reaches its store in process, also while it is
    // stopped; an existing cluster's is made anew after the restart.
    let client = if existing {
        client_without_retry(&env, "bench")
    } else {
        env.client()
    };
    replicas::create_many_webapps(&client, &namespace, count)
        .await
        .expect("create");
    let timeline = Timeline::default();
    let mut replicas = Vec::new();
    for index in 0..3 {
        let config = env.config_for(&format!("replica-{index}")).expect("a configuration");
        let connection = if kube_client {
            Connection::Client(kube::Client::try_from(config).expect("a client"))
        } else {
            Connection::from(config)
        };
        let election = LeaderElection::new(LEASE).on_lost(OnLeadershipLost::Standby);
        replicas.push(Replica::webapp(connection, &namespace, index, election, &timeline, None).expect("a replica"));
    }
    wait_for("a leader", || leader(&replicas)).await;
    let deadline = Instant::now() + Duration::from_mins(3);
    while !converged(&client, &namespace).await {
        assert!(
            Instant::now() < deadline,
            "the WebApps never converged before the outage"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    env.stop_api_server().await.expect("stop the API server");
    if existing {
        tokio::time::sleep(outage).await;
    } else {
        // Every WebApp changes while the server is away, so each needs a reconcile after.
        tokio::time::sleep(outage / 2).await;
        change_all(&client, &namespace, count).await;
        tokio::time::sleep(outage.saturating_sub(outage / 2)).await;
    }
    env.start_api_server().await.expect("start the API server");
    let back = Instant::now();
    let client = if existing {
        let client = client_without_retry(&env, "bench");
        change_all(&client, &namespace, count).await;
        client
    } else {
        client
    };
    let changed = back.elapsed();
    if std::env::var_os("FAILOVER_BENCH_POLL").is_some() {
        let deadline = back + Duration::from_mins(2);
        while !converged(&client, &namespace).await {
            assert!(
                Instant::now() < deadline,
                "the WebApps never converged after the outage"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    } else {
        until_converged(&client, &namespace, count, back + Duration::from_mins(2)).await;
    }
    let converge = back.elapsed();
    for replica in &mut replicas {
        let _ = replica.stop().await;
    }
    env.stop().await;
    Some(Restart {
        server,
        converge_ms: converge.as_secs_f64() * 1000.0,
        changed_ms: changed.as_secs_f64() * 1000.0,
    })
}
