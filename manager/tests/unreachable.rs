//! A manager whose API server cannot be reached says which URL it tried and why, in
//! the error its start returns; answers from a reachable server pass through its
//! clients unchanged; and while a server it knew refuses connections, its elector (or
//! ring member) tries its Lease at most once a retry period, never in a storm, and its
//! logs (with the default filter) say so once, not once a retry.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;
use wheelhouse_cache::{RequestError, Scope};
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::fault_proxy::FaultProxy;
use wheelhouse_examples::replicas::until;
use wheelhouse_manager::{CancellationToken, Error, LeaderElection, Manager, ManagerArgs, Sharding};

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

/// Every log line of this test binary, through the filter `ManagerArgs` sets up by
/// default (`--log-level info`).
#[derive(Clone, Default)]
struct Logs(Arc<parking_lot::Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    /// Installs the binary's subscriber, once; every test shares it.
    fn capture() -> Self {
        static LOGS: std::sync::OnceLock<Logs> = std::sync::OnceLock::new();
        #[derive(clap::Parser)]
        struct Flags {
            #[command(flatten)]
            manager: ManagerArgs,
        }
        LOGS.get_or_init(|| {
            let logs = Self::default();
            let flags = <Flags as clap::Parser>::parse_from(["operator"]).manager;
            let writer = logs.clone();
            let _ = tracing_subscriber::fmt()
                .with_env_filter(flags.log_filter().expect("the default filter"))
                .with_ansi(false)
                .with_writer(move || writer.clone())
                .try_init();
            logs
        })
        .clone()
    }

    fn lines(&self) -> usize {
        String::from_utf8_lossy(&self.0.lock()).lines().count()
    }

    /// The lines at WARN or ERROR from line `from` on.
    fn warnings_since(&self, from: usize) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock())
            .lines()
            .skip(from)
            .filter(|line| line.contains(" WARN ") || line.contains(" ERROR "))
            .map(str::to_owned)
            .collect()
    }
}

/// `client`, counting the requests for one Lease by name that are not watches: the
/// elector's attempts (its reads and writes of its Lease; the ring's lists and watches
/// name no Lease).
fn counting_attempts(client: kube::Client, attempts: &Arc<AtomicUsize>) -> kube::Client {
    let namespace = client.default_namespace().to_owned();
    let attempts = attempts.clone();
    let service = tower::service_fn(move |request: http::Request<kube::client::Body>| {
        let query = request.uri().query().unwrap_or_default();
        if request.uri().path().contains("/leases/") && !query.contains("watch") {
            attempts.fetch_add(1, Ordering::SeqCst);
        }
        let client = client.clone();
        async move { client.send(request).await.map_err(wheelhouse_manager::BoxError::from) }
    });
    kube::Client::new(service, namespace)
}

/// Starts one replica (leader election, or a ring member) reaching the embedded server
/// through a proxy, lets it take its Lease, then makes the server unreachable (open
/// connections reset, the port closed so connects are refused, as when it stopped) for
/// longer than the lease, and returns its attempts per second from a lease duration
/// into the outage (its observed record has expired by then: the moment the retry
/// storm began) to the end.
async fn attempts_per_second_while_refused(ring: bool) -> (f64, f64) {
    // One at a time, so each counts its own replica's lines.
    static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _alone = ONE_AT_A_TIME.lock().await;
    let logs = Logs::capture();
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
    }
    let proxy = FaultProxy::in_front_of(&env).await.expect("a proxy");
    let (lease_duration, retry) = (Duration::from_secs(2), Duration::from_millis(500));
    let timings = (lease_duration, Duration::from_millis(1500), retry);
    let shutdown = CancellationToken::new();
    let attempts = Arc::new(AtomicUsize::new(0));
    let client = counting_attempts(proxy.client("replica-0", env.namespace()), &attempts);
    let builder = Manager::builder(client).shutdown_signal(shutdown.clone());
    let builder = if ring {
        let sharding = Sharding::new("refused")
            .namespace(env.namespace())
            .identity("replica-0")
            .timings(timings.0, timings.1, timings.2);
        builder
            .sharding(sharding)
            .metrics_address(None)
            .health_probe_address(None)
    } else {
        let election = LeaderElection::new("refused")
            .namespace(env.namespace())
            .identity("replica-0")
            .timings(timings.0, timings.1, timings.2);
        builder.leader_election(election)
    };
    let manager = builder.build().expect("a manager");
    let running = tokio::spawn(manager.clone().run());
    // A ring member's term is its membership, as a leader's is its leadership.
    until("the replica to take its Lease", || manager.is_leader()).await;
    proxy.refuse(true);
    proxy.reset_connections();
    tokio::time::sleep(lease_duration + retry).await;
    let (before, since, lines) = (attempts.load(Ordering::SeqCst), Instant::now(), logs.lines());
    tokio::time::sleep(Duration::from_secs(6)).await;
    let logged = logs.warnings_since(lines);
    for line in &logged {
        eprintln!("logged while refused: {line}");
    }
    let tried = u32::try_from(attempts.load(Ordering::SeqCst) - before).unwrap_or(u32::MAX);
    let rate = f64::from(tried) / since.elapsed().as_secs_f64();
    let lines_per_second = f64::from(u32::try_from(logged.len()).unwrap_or(u32::MAX)) / since.elapsed().as_secs_f64();
    shutdown.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(30), running).await;
    env.stop().await;
    (rate, lines_per_second)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_elector_tries_at_most_once_a_retry_period_while_the_server_refuses() {
    let (rate, lines) = attempts_per_second_while_refused(false).await;
    eprintln!("leader election, retry period 0.5 s: {rate:.2} attempts and {lines:.2} warnings a second while refused");
    assert!(rate <= 2.0, "{rate:.1} attempts a second: a retry storm");
    // The outage began before: a line per state change, none per retry.
    assert!(lines < 0.5, "{lines:.1} warnings a second while refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ring_member_tries_at_most_once_a_retry_period_while_the_server_refuses() {
    let (rate, lines) = attempts_per_second_while_refused(true).await;
    eprintln!("ring member, retry period 0.5 s: {rate:.2} attempts and {lines:.2} warnings a second while refused");
    assert!(rate <= 2.0, "{rate:.1} attempts a second: a retry storm");
    assert!(lines < 0.5, "{lines:.1} warnings a second while refused");
}
