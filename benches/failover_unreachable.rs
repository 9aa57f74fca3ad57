//! The failover bench's `kind=unreachable`: how often one replica tries its Lease
//! while the API server refuses connections, as when its process is down.
//!
//! One replica (an elector, then a ring member; 2 s lease, 1.5 s renew deadline,
//! 0.5 s retry) reaches the embedded server over HTTP through a fault proxy and takes
//! its Lease; then the proxy resets its connections and closes its port (every
//! connect refused at once). From a lease duration and a retry period into the outage
//! (its observed record has expired by then: where a retry storm would begin) for
//! `window`, the requests that name its Lease and are not watches are counted, per
//! second. The target is at most one a retry period (2 a second), the bound an
//! elector that always waits its jittered retry period after a failed attempt keeps.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::time::Instant;
use wheelhouse::manager::{BoxError, CancellationToken, LeaderElection, Manager, Sharding};
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::fault_proxy::FaultProxy;

use crate::wait_for;

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
        async move { client.send(request).await.map_err(BoxError::from) }
    });
    kube::Client::new(service, namespace)
}

/// One replica's Lease attempts per second while refused; a ring member when `ring`.
pub async fn attempts_per_second(ring: bool, window: Duration) -> f64 {
    let mut env = TestEnv::embedded().await.expect("an embedded server");
    env.serve_http(([127, 0, 0, 1], 0).into())
        .await
        .expect("serve over HTTP");
    let proxy = FaultProxy::in_front_of(&env).await.expect("a proxy");
    let (lease, renew, retry) = (
        Duration::from_secs(2),
        Duration::from_millis(1500),
        Duration::from_millis(500),
    );
    let shutdown = CancellationToken::new();
    let attempts = Arc::new(AtomicUsize::new(0));
    let client = counting_attempts(proxy.client("replica-0", env.namespace()), &attempts);
    let builder = Manager::builder(client)
        .shutdown_signal(shutdown.clone())
        .metrics_address(None)
        .health_probe_address(None);
    let builder = if ring {
        let sharding = Sharding::new("refused")
            .namespace(env.namespace())
            .identity("replica-0")
            .timings(lease, renew, retry);
        builder.sharding(sharding)
    } else {
        let election = LeaderElection::new("refused")
            .namespace(env.namespace())
            .identity("replica-0")
            .timings(lease, renew, retry);
        builder.leader_election(election)
    };
    let manager = builder.build().expect("a manager");
    let running = tokio::spawn(manager.clone().run());
    // A ring member's term is its membership, as a leader's is its leadership.
    wait_for("the replica to take its Lease", || manager.is_leader().then_some(())).await;
    proxy.refuse(true);
    proxy.reset_connections();
    tokio::time::sleep(lease + retry).await;
    let (before, since) = (attempts.load(Ordering::SeqCst), Instant::now());
    tokio::time::sleep(window).await;
    let tried = u32::try_from(attempts.load(Ordering::SeqCst) - before).unwrap_or(u32::MAX);
    let rate = f64::from(tried) / since.elapsed().as_secs_f64();
    shutdown.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(30), running).await;
    env.stop().await;
    rate
}
