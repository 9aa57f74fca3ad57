//! Secure metrics end to end, as kubebuilder scaffolds them: `/metrics` over HTTPS,
//! each scrape's bearer token authenticated by a `TokenReview` and its user authorized by
//! a `SubjectAccessReview`, both answered by the API server from its `ServiceAccounts` and
//! RBAC objects. On the embedded server and, with `USE_EXISTING_CLUSTER=true`, on a
//! real one (the kubeconfig's user must be allowed to create `ServiceAccount` tokens,
//! reviews, `ClusterRoles` and `ClusterRoleBindings`).

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::authentication::v1::TokenRequest;
use k8s_openapi::api::core::v1::ServiceAccount;
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, PolicyRule, RoleRef, Subject};
use kube::api::{Api, DeleteParams, ObjectMeta, PostParams};
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::TlsConnector;
use wheelhouse_envtest::TestEnv;
use wheelhouse_manager::{CancellationToken, Certificates, Error, Manager};

const LOOPBACK: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 0);

/// A TLS client that trusts `ca_pem` and offers the ALPN `protocols`.
fn connector(ca_pem: &str, protocols: &[&[u8]]) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(certificate.expect("a CA certificate")).expect("a root");
    }
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = protocols.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}

/// Status code and body of `GET /metrics` over HTTPS, with `token` as bearer.
async fn scrape(tls: &TlsConnector, address: SocketAddr, token: Option<&str>) -> (u16, String) {
    let tcp = tokio::net::TcpStream::connect(address).await.expect("connect");
    let mut stream = tls
        .connect(ServerName::try_from("127.0.0.1").expect("a name"), tcp)
        .await
        .expect("a TLS handshake with the metrics server");
    let authorization = token.map_or(String::new(), |token| format!("Authorization: Bearer {token}\r\n"));
    let request = format!("GET /metrics HTTP/1.1\r\nHost: test\r\n{authorization}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = Vec::new();
    // A peer closing without TLS close_notify is the server's right here.
    let _ = stream.read_to_end(&mut response).await;
    common::status_and_body(&String::from_utf8_lossy(&response))
}

async fn service_account_token(env: &TestEnv, name: &str) -> String {
    let accounts: Api<ServiceAccount> = Api::namespaced(env.client(), env.namespace());
    let account = ServiceAccount {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            ..ObjectMeta::default()
        },
        ..ServiceAccount::default()
    };
    accounts
        .create(&PostParams::default(), &account)
        .await
        .expect("a ServiceAccount");
    let request = accounts
        .create_token_request(name, &PostParams::default(), &TokenRequest::default())
        .await
        .expect("a token for the ServiceAccount");
    request
        .status
        .and_then(|status| status.token)
        .expect("a token in the token request's status")
}

/// The `metrics-reader` `ClusterRole` of `deploy/metrics-auth.yaml`, bound to one
/// `ServiceAccount`; names carry the test's namespace, as these objects are cluster-wide.
async fn grant_metrics_reader(env: &TestEnv, account: &str) -> String {
    let name = format!("{}-metrics-reader", env.namespace());
    let roles: Api<ClusterRole> = Api::all(env.client());
    let role = ClusterRole {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            ..ObjectMeta::default()
        },
        rules: Some(vec![PolicyRule {
            non_resource_urls: Some(vec!["/metrics".into()]),
            verbs: vec!["get".into()],
            ..PolicyRule::default()
        }]),
        ..ClusterRole::default()
    };
    roles
        .create(&PostParams::default(), &role)
        .await
        .expect("a ClusterRole");
    let bindings: Api<ClusterRoleBinding> = Api::all(env.client());
    let binding = ClusterRoleBinding {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            ..ObjectMeta::default()
        },
        role_ref: RoleRef {
            api_group: Some("rbac.authorization.k8s.io".into()),
            kind: "ClusterRole".into(),
            name: name.clone(),
        },
        subjects: Some(vec![Subject {
            kind: "ServiceAccount".into(),
            name: account.into(),
            namespace: Some(env.namespace().into()),
            ..Subject::default()
        }]),
    };
    bindings
        .create(&PostParams::default(), &binding)
        .await
        .expect("a ClusterRoleBinding");
    name
}

/// Whether the server authorizes a user nobody bound: true under
/// `--authorization-mode=AlwaysAllow`, where no scrape can be refused.
async fn allows_everyone(env: &TestEnv) -> bool {
    let review = serde_json::json!({
        "apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
        "spec": {"user": "wheelhouse-test-nobody", "nonResourceAttributes": {"path": "/metrics", "verb": "get"}},
    });
    let request = http::Request::post("/apis/authorization.k8s.io/v1/subjectaccessreviews")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&review).expect("JSON"))
        .expect("a request");
    let answer: serde_json::Value = env.client().request(request).await.expect("a review");
    answer["status"]["allowed"] == true
}

async fn revoke(env: &TestEnv, name: &str) {
    let _ = Api::<ClusterRoleBinding>::all(env.client())
        .delete(name, &DeleteParams::default())
        .await;
    let _ = Api::<ClusterRole>::all(env.client())
        .delete(name, &DeleteParams::default())
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_user_allowed_to_get_metrics_can_scrape_them() {
    let env = TestEnv::start().await.expect("a test environment");
    let scraper = service_account_token(&env, "metrics-scraper").await;
    let stranger = service_account_token(&env, "stranger").await;
    let granted = grant_metrics_reader(&env, "metrics-scraper").await;

    let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .shutdown_signal(shutdown.clone())
        .metrics_address(Some(LOOPBACK))
        .metrics_secure(true)
        .metrics_certificates(certificates.clone())
        .health_probe_address(Some(LOOPBACK))
        .build()
        .expect("a manager");
    let metrics = manager.metrics_address().expect("a metrics address");
    let probes = manager.health_probe_address().expect("a probe address");
    let running = tokio::spawn(manager.run());
    let tls = connector(certificates.ca_bundle(), &[b"http/1.1"]);

    let (status, body) = scrape(&tls, metrics, Some(&scraper)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("# TYPE process_start_time_seconds"), "{body}");

    let (status, body) = scrape(&tls, metrics, None).await;
    assert_eq!((status, body.trim()), (401, "Unauthorized"), "no token");
    let (status, body) = scrape(&tls, metrics, Some("not-a-token-the-server-issued")).await;
    assert_eq!((status, body.trim()), (401, "Unauthorized"), "an unknown token");

    if allows_everyone(&env).await {
        eprintln!("skipped the refusal: this server allows everyone everything (--authorization-mode=AlwaysAllow)");
    } else {
        let (status, body) = scrape(&tls, metrics, Some(&stranger)).await;
        let user = format!("system:serviceaccount:{}:stranger", env.namespace());
        assert_eq!(
            (status, body.trim()),
            (403, format!("Authorization denied for user {user}").as_str()),
            "a known user without the rule"
        );
    }

    // The probes stay plain HTTP for the kubelet, with no token.
    let (status, body) = common::get(probes, "/healthz").await;
    assert_eq!(status, 200, "{body}");

    shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(30), running)
        .await
        .expect("the manager stops")
        .expect("no panic")
        .expect("a clean stop");
    revoke(&env, &granted).await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_is_offered_only_with_enable_http2() {
    let env = TestEnv::embedded().await.expect("a test environment");
    for enabled in [false, true] {
        let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
        let shutdown = CancellationToken::new();
        let manager = Manager::builder(env.client())
            .shutdown_signal(shutdown.clone())
            .metrics_address(Some(LOOPBACK))
            .metrics_secure(true)
            .metrics_certificates(certificates.clone())
            .enable_http2(enabled)
            .build()
            .expect("a manager");
        let metrics = manager.metrics_address().expect("a metrics address");
        let running = tokio::spawn(manager.run());
        let tls = connector(certificates.ca_bundle(), &[b"h2", b"http/1.1"]);
        let tcp = tokio::net::TcpStream::connect(metrics).await.expect("connect");
        let stream = tls
            .connect(ServerName::try_from("127.0.0.1").expect("a name"), tcp)
            .await
            .expect("a handshake");
        let chosen = stream.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
        let expected: &[u8] = if enabled { b"h2" } else { b"http/1.1" };
        assert_eq!(chosen.as_deref(), Some(expected), "--enable-http2={enabled}");
        shutdown.cancel();
        running.await.expect("no panic").expect("a clean stop");
    }
}

#[tokio::test]
async fn secure_metrics_and_probes_cannot_share_an_address() {
    let env = TestEnv::embedded().await.expect("a test environment");
    let free = std::net::TcpListener::bind(LOOPBACK).expect("a free port");
    let address = free.local_addr().expect("its address");
    drop(free);
    let error = Manager::builder(env.client())
        .shutdown_signal(CancellationToken::new())
        .metrics_address(Some(address))
        .health_probe_address(Some(address))
        .metrics_secure(true)
        .build()
        .expect_err("HTTPS metrics and plain probes on one port");
    assert!(
        matches!(error, Error::SecureMetricsShareProbeAddress { address: a } if a == address),
        "{error}"
    );
}

/// kubebuilder's flags make metrics secure without being asked: a scrape without a
/// token is refused, over the certificate `--metrics-cert-path` names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flags_make_metrics_secure_by_default() {
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        manager: wheelhouse_manager::ManagerArgs,
    }
    let env = TestEnv::embedded().await.expect("a test environment");
    let dir = tempfile::tempdir().expect("a directory");
    let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
    certificates.write_to(dir.path()).expect("write tls.crt and tls.key");
    let cert_path = format!("--metrics-cert-path={}", dir.path().display());
    let flags = Flags::parse_from([
        "operator",
        "--metrics-bind-address=127.0.0.1:0",
        "--health-probe-bind-address=0",
        &cert_path,
    ]);
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .args(&flags.manager)
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let metrics = manager.metrics_address().expect("a metrics address");
    let running = tokio::spawn(manager.run());
    let tls = connector(certificates.ca_bundle(), &[b"http/1.1"]);
    let (status, body) = scrape(&tls, metrics, None).await;
    assert_eq!((status, body.trim()), (401, "Unauthorized"));
    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");
}
