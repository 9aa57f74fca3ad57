//! `WEBHOOK_BENCH_THROUGH_API=1 cargo bench --bench webhook`: the slow-bodies attack of
//! [`webhook_slow`](crate::webhook_slow) on the WebApp's webhook server while an API
//! server calls it for valid requests: the API server of `TestEnv::start()`, so the
//! embedded one, or with `USE_EXISTING_CLUSTER=true` and `KUBECONFIG` a real one on this
//! machine (it calls the webhooks at 127.0.0.1, the address of some attackers too).
//! The server has the defaults an operator runs with; its admission webhooks and the
//! two-version CRD's conversion are registered for the bench's namespace.
//!
//! Each round creates a WebApp in `v1` (the mutating and the validating webhook are
//! called), lists WebApps in `v1alpha1` (the conversion webhook is called for each
//! object read), and deletes the WebApp again (so lists stay small). Prints, per attack,
//! `bench=webhook-abuse kind=slow-bodies-through-api server=embedded|v1.32.x conns=N
//! from=1|40 create_p99_ms=.. list_p99_ms=.. quiet_create_p99_ms=..
//! quiet_list_p99_ms=.. failed=F of=R`, failures being requests the API server refused
//! or did not answer (a webhook it could not call fails the request: `failurePolicy:
//! Fail`). The attacks are the direct bench's (`WEBHOOK_BENCH_SLOW_CASES` keeps some).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use wheelhouse::webhook::{Certificates, ClientConfig, ConfigurationOptions, Configurations, WebhookOptions};
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::webapp::{self, WebApp, WebAppSpec, v1alpha1};
use wheelhouse_manager::{Runnable as _, Stop};

use crate::support::{millis, percentile};
use crate::webhook_slow::{Attack, Attacker, connector, launch};
use crate::{Running, webhooks};

const ROUNDS: usize = 30;
const QUIET_ROUNDS: usize = 10;

/// Serves the WebApp's webhooks on the servers' runtime (HTTP/2 offered when `http2`)
/// and points the API server at them: the admission configurations for the bench's
/// namespace and the CRD's conversion.
async fn serve(
    servers: &tokio::runtime::Handle,
    env: &TestEnv,
    certificates: &Certificates,
    http2: bool,
) -> (Running, Configurations) {
    let namespace = env.namespace().to_owned();
    let selector = LabelSelector {
        match_labels: Some(BTreeMap::from([(LABEL.to_owned(), namespace.clone())])),
        ..LabelSelector::default()
    };
    let certificates = certificates.clone();
    let (running, configurations, crd) = servers
        .spawn(async move {
            let options = WebhookOptions {
                host: [127, 0, 0, 1].into(),
                port: 0,
                certificates: Some(certificates.clone()),
                http2,
                ..WebhookOptions::default()
            };
            let mut server = webhooks::webhook_server(options);
            let address = server.bind().expect("the webhook server binds");
            let mut configuration = ConfigurationOptions::new(
                format!("{namespace}-slow"),
                ClientConfig::Url(format!("https://{address}")),
            );
            configuration.ca_bundle = Some(certificates.ca_bundle().to_owned());
            configuration.namespace_selector = Some(selector);
            let configurations = server.configurations(&configuration);
            let crd = webapp::conversion()
                .crd_with_webhook(&configuration)
                .expect("the CRD with its webhook");
            let stop = CancellationToken::new();
            let signal = Stop::new(stop.clone());
            let task = tokio::spawn(async move {
                server.start(signal).await.expect("the webhook server runs");
            });
            (Running { address, stop, task }, configurations, crd)
        })
        .await
        .expect("our server starts");
    configurations
        .apply(&env.client())
        .await
        .expect("the admission configurations apply");
    env.install_crd(&crd).await.expect("the two-version CRD installs");
    // A real API server loads both asynchronously: a create and a converted list that
    // succeed were answered by this server (the last one is stopped).
    let started = Instant::now();
    let mut warm = 0;
    loop {
        warm += 1;
        if round(env, &format!("warm-{warm}")).await.is_ok() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_mins(1),
            "the API server never called the webhooks"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    (running, configurations)
}

/// The label on the bench's namespace its configurations select.
const LABEL: &str = "wheelhouse.rs/slow-bodies-bench";

/// A create in `v1` and a list in `v1alpha1`: their times, or the first that failed;
/// the WebApp is deleted again.
async fn round(env: &TestEnv, name: &str) -> Result<(Duration, Duration), String> {
    let current: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let older: Api<v1alpha1::WebApp> = Api::namespaced(env.client(), env.namespace());
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: Some(8080),
    };
    let started = Instant::now();
    let created = current.create(&PostParams::default(), &WebApp::new(name, spec)).await;
    let create = started.elapsed();
    let started = Instant::now();
    let listed = older.list(&ListParams::default()).await;
    let list = started.elapsed();
    if created.is_ok() {
        let _ = current.delete(name, &DeleteParams::default()).await;
    }
    created.map_err(|e| format!("create: {e}"))?;
    let listed = listed.map_err(|e| format!("list: {e}"))?;
    if listed.items.iter().any(|app| app.spec.container_port.is_none()) {
        return Err("list: a WebApp read in v1alpha1 without its port".to_owned());
    }
    Ok((create, list))
}

/// `rounds` rounds, 50 ms apart: the creates' and lists' p99, the failures and the first.
async fn rounds(env: &TestEnv, prefix: &str, rounds: usize) -> (f64, f64, usize, Option<String>) {
    let (mut creates, mut lists, mut failed, mut first) = (Vec::new(), Vec::new(), 0, None);
    for i in 0..rounds {
        match round(env, &format!("{prefix}-{i}")).await {
            Ok((create, list)) => {
                creates.push(create);
                lists.push(list);
            }
            Err(error) => {
                failed += 1;
                first.get_or_insert(error);
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let p99 = |samples: &mut [Duration]| percentile(samples, 99).map_or(0.0, millis);
    (p99(&mut creates), p99(&mut lists), failed, first)
}

pub async fn through_api(servers: &tokio::runtime::Handle) {
    let env = TestEnv::start().await.expect("a test environment");
    let client = env.client();
    let version = if env.is_embedded() {
        "embedded".to_owned()
    } else {
        let config = kube::Config::infer().await.expect("a kubeconfig");
        let host = config.cluster_url.host().unwrap_or_default().to_owned();
        if !matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]") {
            println!("bench=webhook-abuse kind=slow-bodies-through-api skipped: {host} cannot call 127.0.0.1");
            env.stop().await;
            return;
        }
        client
            .apiserver_version()
            .await
            .map_or_else(|_| "real".to_owned(), |info| info.git_version)
    };
    let namespace = env.namespace().to_owned();
    let labels = json!({"metadata": {"labels": {LABEL: namespace}}});
    Api::<Namespace>::all(client.clone())
        .patch(&namespace, &PatchParams::default(), &Patch::Merge(&labels))
        .await
        .expect("label the namespace");
    let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
    let (http1, h2) = (
        connector(&certificates, &[b"http/1.1"]),
        connector(&certificates, &[b"h2"]),
    );
    let cases = crate::webhook_slow::cases();
    let mut serving: Option<(Running, Configurations, bool)> = None;
    for (index, case) in cases.into_iter().enumerate() {
        let http2 = matches!(case, Attacker::Http2 { .. });
        if serving.as_ref().is_none_or(|(_, _, offered)| *offered != http2) {
            if let Some((old, _, _)) = serving.take() {
                old.stop.cancel();
                let _ = old.task.await;
            }
            let (running, configurations) = serve(servers, &env, &certificates, http2).await;
            serving = Some((running, configurations, http2));
        }
        let Some((running, _, _)) = serving.as_ref() else {
            unreachable!("served above");
        };
        let (quiet_create, quiet_list, _, _) = rounds(&env, &format!("quiet-{index}"), QUIET_ROUNDS).await;
        let stop = CancellationToken::new();
        let attack = Arc::new(Attack::default());
        let (what, attackers) = launch(case, running.address, &http1, &h2, &stop, &attack);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let (create, list, failed, first) = rounds(&env, &format!("attacked-{index}"), ROUNDS).await;
        stop.cancel();
        for attacker in attackers {
            let _ = attacker.await;
        }
        println!(
            "bench=webhook-abuse kind=slow-bodies-through-api server={version} {what} create_p99_ms={create:.1} list_p99_ms={list:.1} quiet_create_p99_ms={quiet_create:.1} quiet_list_p99_ms={quiet_list:.1} failed={failed} of={ROUNDS} attack_opened={}",
            attack.opened()
        );
        if let Some(first) = first {
            println!("  first failure: {}", first.chars().take(300).collect::<String>());
        }
    }
    if let Some((running, configurations, _)) = serving {
        let _ = configurations.delete(&client).await;
        // The CRD stays (deleting it would wait for every WebApp); its conversion is
        // taken out, so later users of the cluster still read WebApps.
        let none = json!({"spec": {"conversion": {"strategy": "None", "webhook": null}}});
        let _ = Api::<CustomResourceDefinition>::all(client.clone())
            .patch("webapps.example.com", &PatchParams::default(), &Patch::Merge(&none))
            .await;
        running.stop.cancel();
        let _ = running.task.await;
    }
    env.stop().await;
}
