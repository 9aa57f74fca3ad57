//! The server over real sockets: TLS versions, bad bytes on the wire, idle
//! connections, the graceful stop, certificate rotation under load, and the server as
//! a manager runnable.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use common::{AllowAll, Client, HUNG, VALIDATE, der, local, review, start};
use k8s_openapi::api::core::v1::ConfigMap;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use wheelhouse_envtest::{TestEnv, eventually};
use wheelhouse_manager::{Manager, Runnable, Stop};
use wheelhouse_webhook::{Certificates, Denied, Request, Validator, Warnings, WebhookOptions, WebhookServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_1_2_and_1_3_are_served() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let (address, stop, running) = start(WebhookServer::new(local(&certificates)).validator::<ConfigMap>(AllowAll));
    for version in [&rustls::version::TLS12, &rustls::version::TLS13] {
        let client = Client::with_versions(certificates.ca_bundle(), &[version]);
        let mut connection = client.connect(address).await.expect("handshake");
        assert_eq!(connection.version, Some(version.version));
        assert_eq!(connection.certificate, der(certificates.cert_pem()));
        connection.allowed("tls").await.unwrap();
    }
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_on_the_wire_never_takes_the_server_down() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let (address, stop, running) = start(WebhookServer::new(local(&certificates)).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());

    // Plain bytes where a TLS handshake belongs.
    let mut plain = tokio::net::TcpStream::connect(address).await.unwrap();
    plain.write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n").await.unwrap();
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(HUNG, plain.read_to_end(&mut rest))
        .await
        .expect("closed");

    // Not HTTP inside TLS: hyper answers 400 and closes.
    let mut tls = client.tls(address).await.unwrap();
    tls.write_all(b"\x00\x01\x02 not http at all\r\n\r\n").await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(HUNG, tls.read_to_end(&mut answer))
        .await
        .expect("closed");
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 400"),
        "{answer:?}"
    );

    // A body shorter than its Content-Length, then the client goes away.
    let mut tls = client.tls(address).await.unwrap();
    tls.write_all(b"POST /validate--v1-configmap HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"kind\"")
        .await
        .unwrap();
    drop(tls);

    let mut connection = client.connect(address).await.unwrap();
    connection.allowed("after-garbage").await.expect("still serving");
    let (status, _) = connection
        .post(VALIDATE, bytes::Bytes::from_static(b"{\"kind\":"))
        .await
        .unwrap();
    assert_eq!(status, 400);
    connection
        .allowed("same-connection")
        .await
        .expect("the connection survives a 400");
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        idle_timeout: Duration::from_millis(200),
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let mut connection = Client::trusting(certificates.ca_bundle())
        .connect(address)
        .await
        .unwrap();
    connection.allowed("then-idle").await.unwrap();
    let closed = tokio::time::timeout(HUNG, connection.driver).await;
    assert!(closed.is_ok(), "the server closed the idle connection");
    stop.cancel();
    running.await.unwrap();
}

/// Holds every request until released, and says when one arrived.
struct Gate {
    arrived: Arc<Notify>,
    release: Arc<Notify>,
}

impl Validator<ConfigMap> for Gate {
    async fn validate_create(&self, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
        self.arrived.notify_one();
        self.release.notified().await;
        Ok(vec!["waited".into()])
    }
    async fn validate_update(&self, _: &ConfigMap, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
        Ok(Vec::new())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_finishes_requests_in_flight_and_stops_accepting() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let (arrived, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let gate = Gate {
        arrived: arrived.clone(),
        release: release.clone(),
    };
    let (address, stop, running) = start(WebhookServer::new(local(&certificates)).validator::<ConfigMap>(gate));
    let client = Client::trusting(certificates.ca_bundle());
    let mut idle = client.connect(address).await.unwrap();
    let mut busy = client.connect(address).await.unwrap();
    let in_flight = tokio::spawn(async move { busy.allowed("in-flight").await });
    arrived.notified().await;

    stop.cancel();
    // The idle connection is closed at once; the busy one waits for its answer.
    tokio::time::timeout(HUNG, &mut idle.driver)
        .await
        .expect("idle connection closed")
        .unwrap()
        .ok();
    assert!(!running.is_finished(), "the server waits for the request in flight");
    release.notify_one();
    let answer = tokio::time::timeout(HUNG, in_flight)
        .await
        .expect("answered")
        .unwrap()
        .unwrap();
    assert_eq!(answer["warnings"][0], "waited");
    tokio::time::timeout(HUNG, running)
        .await
        .expect("the server stopped")
        .unwrap();
    assert!(
        client.connect(address).await.is_err(),
        "no new connection after the stop"
    );
}

/// The files as the kubelet lays out a mounted Secret: `tls.crt -> ..data/tls.crt`,
/// `..data -> ..<version>/`, replaced by renaming a new `..data` symlink over the old.
fn mount(dir: &Path, version: &str, certificates: &Certificates) {
    let versioned = dir.join(format!("..{version}"));
    certificates.write_to(&versioned).unwrap();
    let staged = dir.join("..data_tmp");
    std::os::unix::fs::symlink(format!("..{version}"), &staged).unwrap();
    std::fs::rename(&staged, dir.join("..data")).unwrap();
    for name in [wheelhouse_webhook::CERT_FILE, wheelhouse_webhook::KEY_FILE] {
        let link = dir.join(name);
        if std::fs::symlink_metadata(&link).is_err() {
            std::os::unix::fs::symlink(format!("..data/{name}"), &link).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_certificate_is_served_to_new_connections_with_no_failed_request() {
    let dir = tempfile::tempdir().unwrap();
    let first = Certificates::self_signed(["127.0.0.1"]).unwrap();
    mount(dir.path(), "2025_01_01", &first);
    let options = WebhookOptions {
        host: [127, 0, 0, 1].into(),
        port: 0,
        cert_dir: dir.path().to_owned(),
        cert_poll_interval: Duration::from_millis(20),
        ..WebhookOptions::default()
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(first.ca_bundle());
    let second = first.reissue(["127.0.0.1"]).unwrap();
    let (old, new) = (der(first.cert_pem()), der(second.cert_pem()));

    let done = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let saw_new = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(parking_lot::Mutex::new(Vec::<String>::new()));
    let mut load = Vec::new();
    for worker in 0..8 {
        let (client, done, answered, saw_new, failures) = (
            client.clone(),
            done.clone(),
            answered.clone(),
            saw_new.clone(),
            failures.clone(),
        );
        let (old, new) = (old.clone(), new.clone());
        load.push(tokio::spawn(async move {
            let mut round = 0;
            while !done.load(Ordering::Acquire) {
                // A few requests per connection, then a new connection (and handshake).
                let mut connection = match client.connect(address).await {
                    Ok(connection) => connection,
                    Err(error) => {
                        failures.lock().push(format!("connect: {error}"));
                        continue;
                    }
                };
                if connection.certificate == new {
                    saw_new.fetch_add(1, Ordering::AcqRel);
                } else if connection.certificate != old {
                    failures.lock().push("an unknown certificate".into());
                }
                for _ in 0..4 {
                    round += 1;
                    match connection.allowed(&format!("w{worker}-{round}")).await {
                        Ok(_) => answered.fetch_add(1, Ordering::AcqRel),
                        Err(error) => {
                            failures.lock().push(error);
                            0
                        }
                    };
                }
            }
        }));
    }
    let answered_before = eventually("load before the rotation", || async {
        let n = answered.load(Ordering::Acquire);
        (n >= 200).then_some(n)
    })
    .await;
    assert_eq!(saw_new.load(Ordering::Acquire), 0);
    mount(dir.path(), "2025_02_01", &second);
    std::fs::remove_dir_all(dir.path().join("..2025_01_01")).unwrap();
    eventually("a new connection to be served the renewed certificate", || async {
        (saw_new.load(Ordering::Acquire) >= 20).then_some(())
    })
    .await;
    done.store(true, Ordering::Release);
    for worker in load {
        worker.await.unwrap();
    }
    let failures = failures.lock().clone();
    assert!(failures.is_empty(), "failed requests: {failures:?}");
    assert!(answered.load(Ordering::Acquire) > answered_before);
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_manager_every_replica_serves_and_servers_share_the_metric_families() {
    let env = TestEnv::embedded().await.unwrap();
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .shutdown_signal(shutdown.clone())
        .health_probe_address(Some(([127, 0, 0, 1], 0).into()))
        .build()
        .unwrap();
    let probes = manager.health_probe_address().unwrap();
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let mut addresses = Vec::new();
    for _ in 0..2 {
        let mut server = WebhookServer::new(local(&certificates)).validator::<ConfigMap>(AllowAll);
        assert!(!server.needs_leader_election());
        addresses.push(server.bind().unwrap());
        manager.add(server).expect("a second server shares the families");
    }
    let registry = manager.registry().clone();
    let ready = |port: u16| async move {
        let answer = get(probes, &format!("/readyz/webhook-server-{port}")).await;
        answer.starts_with("HTTP/1.1 200")
    };
    let running = tokio::spawn(manager.run());
    let client = Client::trusting(certificates.ca_bundle());
    for address in &addresses {
        let mut connection = eventually("the server to accept", || async { client.connect(*address).await.ok() }).await;
        connection.allowed("under-manager").await.unwrap();
    }
    for address in &addresses {
        eventually("the readiness check to pass", || async {
            ready(address.port()).await.then_some(())
        })
        .await;
    }
    let served: f64 = registry
        .gather()
        .iter()
        .filter(|f| f.name() == "controller_runtime_webhook_requests_total")
        .flat_map(|f| f.get_metric().iter().map(|m| m.get_counter().get_value()))
        .sum();
    assert!(
        (served - 2.0).abs() < f64::EPSILON,
        "both servers counted in one family: {served}"
    );
    shutdown.cancel();
    tokio::time::timeout(HUNG, running)
        .await
        .expect("the manager stops")
        .unwrap()
        .unwrap();
    env.stop().await;
}

#[tokio::test]
async fn a_missing_certificate_or_a_duplicate_path_fails_at_bind() {
    let dir = tempfile::tempdir().unwrap();
    let options = WebhookOptions {
        port: 0,
        cert_dir: dir.path().to_owned(),
        ..WebhookOptions::default()
    };
    let error = WebhookServer::new(options).bind().unwrap_err().to_string();
    assert!(error.contains("tls.crt") && error.contains("--cert-dir"), "{error}");
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let error = WebhookServer::new(local(&certificates))
        .validator::<ConfigMap>(AllowAll)
        .validator::<ConfigMap>(AllowAll)
        .bind()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("two webhooks are registered at /validate--v1-configmap"),
        "{error}"
    );
    let _ = review("unused");
}

/// A plain HTTP GET, answered in full.
async fn get(address: SocketAddr, path: &str) -> String {
    let mut tcp = tokio::net::TcpStream::connect(address).await.unwrap();
    tcp.write_all(format!("GET {path} HTTP/1.1\r\nhost: probe\r\nconnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.unwrap();
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_says_whether_it_serves() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let mut server = WebhookServer::new(local(&certificates)).validator::<ConfigMap>(AllowAll);
    server.bind().unwrap();
    assert!(!server.is_serving(), "bound is not serving");
    let server = Arc::new(server);
    let token = CancellationToken::new();
    let running = tokio::spawn({
        let (server, stop) = (server.clone(), Stop::new(token.clone()));
        async move { server.start(stop).await.unwrap() }
    });
    eventually("the server to serve", || async { server.is_serving().then_some(()) }).await;
    token.cancel();
    running.await.unwrap();
    assert!(!server.is_serving(), "stopped is not serving");
}

/// A resource with two versions, `count` renamed `total`, for the conversion test.
mod gadgets {
    use kube::CustomResource;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    pub mod v1 {
        use super::*;
        #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
        #[kube(group = "test.wheelhouse.rs", version = "v1", kind = "Gadget", namespaced)]
        pub struct GadgetSpec {
            pub total: i64,
        }
    }

    pub mod v1beta1 {
        use super::*;
        #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
        #[kube(group = "test.wheelhouse.rs", version = "v1beta1", kind = "Gadget", namespaced)]
        pub struct GadgetSpec {
            pub count: i64,
        }
    }

    impl From<v1beta1::Gadget> for v1::Gadget {
        fn from(old: v1beta1::Gadget) -> Self {
            let mut new = Self::new("", v1::GadgetSpec { total: old.spec.count });
            new.metadata = old.metadata;
            new
        }
    }

    impl From<v1::Gadget> for v1beta1::Gadget {
        fn from(hub: v1::Gadget) -> Self {
            let mut old = Self::new("", v1beta1::GadgetSpec { count: hub.spec.total });
            old.metadata = hub.metadata;
            old
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversions_are_answered_on_the_admission_port_and_connection() {
    use wheelhouse_webhook::conversion::Conversion;

    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let server = WebhookServer::new(local(&certificates))
        .validator::<ConfigMap>(AllowAll)
        .conversion(Conversion::hub::<gadgets::v1::Gadget>().spoke::<gadgets::v1beta1::Gadget>());
    let (address, stop, running) = start(server);
    let mut connection = Client::trusting(certificates.ca_bundle())
        .connect(address)
        .await
        .expect("handshake");
    connection.allowed("before").await.unwrap();
    let review = serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {
            "uid": "0123abcd-0123-4567-89ab-0123456789ab", "desiredAPIVersion": "test.wheelhouse.rs/v1",
            "objects": [{"apiVersion": "test.wheelhouse.rs/v1beta1", "kind": "Gadget", "metadata": {"name": "g"}, "spec": {"count": 3}}],
        },
    });
    let (status, body) = connection.post("/convert", review.to_string().into()).await.unwrap();
    assert_eq!(status, 200);
    let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["response"]["uid"], "0123abcd-0123-4567-89ab-0123456789ab");
    assert_eq!(answer["response"]["result"]["status"], "Success");
    assert_eq!(
        answer["response"]["convertedObjects"][0]["spec"],
        serde_json::json!({"total": 3})
    );
    connection.allowed("after").await.unwrap();
    stop.cancel();
    running.await.unwrap();
}
