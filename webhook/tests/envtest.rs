//! `envtest::serve`: a webhook server's admission webhooks and conversions registered
//! with a test environment in one line, called by its API server (the embedded one, or
//! with `USE_EXISTING_CLUSTER=true` a real one on this machine), whatever the test's
//! own thread does, and removed when the environment stops, also after a panic.

use std::sync::mpsc;

use k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::CustomResource;
use kube::api::{Api, PostParams};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use wheelhouse_envtest::TestEnv;
use wheelhouse_webhook::conversion::Conversion;
use wheelhouse_webhook::{Defaulter, Denied, Request, Validator, Warnings, WebhookOptions, WebhookServer};

mod v1 {
    use super::*;

    /// The hub.
    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
    #[kube(group = "test.wheelhouse.rs", version = "v1", kind = "Sprocket", namespaced)]
    pub struct SprocketSpec {
        pub teeth: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub finish: Option<String>,
    }
}

mod v1beta1 {
    use super::*;

    /// `teeth` was `cogs`; no finish.
    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
    #[kube(group = "test.wheelhouse.rs", version = "v1beta1", kind = "Sprocket", namespaced)]
    pub struct SprocketSpec {
        pub cogs: i64,
    }
}

impl From<v1beta1::Sprocket> for v1::Sprocket {
    fn from(old: v1beta1::Sprocket) -> Self {
        let spec = v1::SprocketSpec {
            teeth: old.spec.cogs,
            finish: None,
        };
        v1::Sprocket {
            metadata: old.metadata,
            spec,
        }
    }
}

impl From<v1::Sprocket> for v1beta1::Sprocket {
    fn from(hub: v1::Sprocket) -> Self {
        v1beta1::Sprocket {
            metadata: hub.metadata,
            spec: v1beta1::SprocketSpec { cogs: hub.spec.teeth },
        }
    }
}

struct Teeth;

impl Validator<v1::Sprocket> for Teeth {
    async fn validate_create(&self, sprocket: &v1::Sprocket, _: &Request) -> Result<Warnings, Denied> {
        if sprocket.spec.teeth > 100 {
            return Err(Denied::new("at most 100 teeth"));
        }
        Ok(Warnings::new())
    }

    async fn validate_update(
        &self,
        _: &v1::Sprocket,
        new: &v1::Sprocket,
        request: &Request,
    ) -> Result<Warnings, Denied> {
        self.validate_create(new, request).await
    }
}

struct Finish;

impl Defaulter<v1::Sprocket> for Finish {
    async fn apply_defaults(&self, sprocket: &mut v1::Sprocket, _: &Request) -> Result<(), Denied> {
        sprocket.spec.finish.get_or_insert_with(|| "matte".into());
        Ok(())
    }
}

fn server() -> WebhookServer {
    WebhookServer::new(WebhookOptions::default())
        .validator::<v1::Sprocket>(Teeth)
        .defaulter::<v1::Sprocket>(Finish)
        .conversion(Conversion::hub::<v1::Sprocket>().spoke::<v1beta1::Sprocket>())
}

fn sprocket(name: &str, teeth: i64) -> v1::Sprocket {
    v1::Sprocket::new(name, v1::SprocketSpec { teeth, finish: None })
}

/// Whether the API server can call a webhook here; says why not.
async fn reaches_loopback(env: &TestEnv) -> bool {
    let reaches = wheelhouse_webhook::envtest::calls_loopback(env).await;
    if !reaches {
        eprintln!("skipped: this API server cannot call a webhook on this machine's 127.0.0.1");
    }
    reaches
}

/// A client of the same API server as `env`'s (given its embedded server, or else its
/// configuration: the ambient kubeconfig's, or the generated one of `KUBEBUILDER_ASSETS`)
/// that outlives it: to see what its stop left. Made on the runtime it is used on.
fn survivor(embedded: Option<wheelhouse_envtest::ApiServer>, config: Option<kube::Config>) -> kube::Client {
    match embedded {
        Some(server) => kube::Client::new(server, "default"),
        None => {
            kube::Client::try_from(config.expect("a real cluster's configuration")).expect("a client of the cluster")
        }
    }
}

/// Whether the CRD's conversion still calls the server at `address` (another test of
/// this process may have pointed it at its own since).
async fn converts_at(client: &kube::Client, address: std::net::SocketAddr) -> bool {
    let crd = Api::<CustomResourceDefinition>::all(client.clone())
        .get("sprockets.test.wheelhouse.rs")
        .await
        .expect("the CRD stays");
    let url = crd
        .spec
        .conversion
        .and_then(|c| c.webhook)
        .and_then(|w| w.client_config)
        .and_then(|c| c.url)
        .unwrap_or_default();
    url.starts_with(&format!("https://{address}/"))
}

#[tokio::test]
async fn one_line_serves_the_webhooks_and_the_conversions_and_stop_removes_them() {
    let env = TestEnv::start().await.expect("a test environment");
    if !reaches_loopback(&env).await {
        env.stop().await;
        return;
    }
    let served = wheelhouse_webhook::envtest::serve(&env, server())
        .await
        .expect("the webhooks are served");
    assert_eq!(served.crds().len(), 1);

    let sprockets: Api<v1::Sprocket> = Api::namespaced(env.client(), env.namespace());
    let refused = sprockets
        .create(&PostParams::default(), &sprocket("big", 500))
        .await
        .expect_err("the validator refuses");
    assert!(refused.to_string().contains("at most 100 teeth"), "{refused}");
    let created = sprockets
        .create(&PostParams::default(), &sprocket("small", 12))
        .await
        .expect("allowed");
    assert_eq!(created.spec.finish.as_deref(), Some("matte"), "defaulted");
    let older: Api<v1beta1::Sprocket> = Api::namespaced(env.client(), env.namespace());
    let converted = older.get("small").await.expect("read in the other version");
    assert_eq!(converted.spec.cogs, 12, "converted by the webhook");

    let after = survivor(env.server().cloned(), env.config_for("survivor").ok());
    let name = served
        .configurations()
        .validating
        .as_ref()
        .and_then(|c| c.metadata.name.clone())
        .expect("a validating configuration");
    env.stop().await;
    let configurations: Api<ValidatingWebhookConfiguration> = Api::all(after.clone());
    assert!(
        configurations.get_opt(&name).await.expect("get").is_none(),
        "deleted at stop"
    );
    assert!(
        !converts_at(&after, served.address()).await,
        "the conversion webhook is out of the CRD"
    );
}

/// The webhooks answer while the test's only thread is blocked: a create through them
/// from another thread succeeds before the test's thread runs again.
#[tokio::test(flavor = "current_thread")]
async fn the_webhooks_answer_while_the_tests_only_thread_is_blocked() {
    let mut env = TestEnv::start().await.expect("a test environment");
    if !reaches_loopback(&env).await {
        env.stop().await;
        return;
    }
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into()).await.expect("a listener");
    }
    wheelhouse_webhook::envtest::serve(&env, server())
        .await
        .expect("the webhooks are served");
    let config = env.config_for("bystander").expect("a client configuration");
    let namespace = env.namespace().to_owned();
    let (done, created) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let result = runtime.block_on(async move {
            let client = kube::Client::try_from(config).map_err(|e| e.to_string())?;
            let sprockets: Api<v1::Sprocket> = Api::namespaced(client, &namespace);
            let (params, object) = (PostParams::default(), sprocket("elsewhere", 3));
            let create = sprockets.create(&params, &object);
            match tokio::time::timeout(std::time::Duration::from_secs(30), create).await {
                Ok(created) => created.map_err(|e| e.to_string()),
                Err(_) => Err("no answer within 30 s".to_owned()),
            }
        });
        let _ = done.send(result);
    });
    // Blocks the test's only thread until the other thread's create is answered.
    let created = created.recv().expect("the other thread answers").expect("created");
    assert_eq!(
        created.spec.finish.as_deref(),
        Some("matte"),
        "defaulted by the webhook"
    );
    env.stop().await;
}

#[test]
fn a_test_that_panics_still_removes_its_webhooks() {
    let (registered, names) = mpsc::channel();
    let test = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let env = TestEnv::start().await.expect("a test environment");
            if !reaches_loopback(&env).await {
                return;
            }
            let served = wheelhouse_webhook::envtest::serve(&env, server())
                .await
                .expect("the webhooks are served");
            let name = served
                .configurations()
                .validating
                .as_ref()
                .and_then(|c| c.metadata.name.clone());
            let config = env.config_for("survivor").ok();
            let _ = registered.send((name, served.address(), env.server().cloned(), config));
            panic!("the test fails before it stops its environment");
        });
    });
    let panicked = test.join().is_err();
    let Ok((name, address, embedded, config)) = names.recv() else {
        return; // skipped
    };
    assert!(panicked, "the test panicked");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let after = survivor(embedded, config);
        let configurations: Api<ValidatingWebhookConfiguration> = Api::all(after.clone());
        let name = name.expect("a validating configuration");
        assert!(
            configurations.get_opt(&name).await.expect("get").is_none(),
            "deleted after the panic"
        );
        assert!(
            !converts_at(&after, address).await,
            "the conversion webhook is out of the CRD"
        );
    });
}
