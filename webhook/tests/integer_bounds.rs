//! Generated CRDs bound their integer fields ([`wheelhouse_webhook::crd`]): through an
//! API server, a value past a field's Rust type is refused when it is written (where
//! without the bounds it would be stored, and no list could decode it again), and
//! every value of the type, to the ends of its range, is taken. On the embedded server,
//! or with `USE_EXISTING_CLUSTER=true` a real one (1.19 and 1.32 alike).

use kube::CustomResource;
use kube::api::{Api, PostParams};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

/// One field of each bounded format.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(group = "bounds.wheelhouse.rs", version = "v1", kind = "Ranged", namespaced)]
pub struct RangedSpec {
    /// `format: int8`.
    pub small: Option<i8>,
    /// `format: int32`.
    pub count: Option<i32>,
    /// `format: uint32`.
    pub size: Option<u32>,
    /// `format: int64`.
    pub offset: Option<i64>,
    /// `format: uint64`.
    pub total: Option<u64>,
}

/// The largest int64 the bound takes: 2^63 - 1024 (see the module of `crd`).
const INT64_END: i64 = 9_223_372_036_854_774_784;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_past_a_fields_type_are_refused_and_its_whole_range_is_taken() {
    let env = TestEnv::start().await.expect("a test environment");
    env.install_crd(&wheelhouse_webhook::crd::<Ranged>())
        .await
        .expect("the bounded CRD installs");
    let ranged: Api<kube::api::DynamicObject> = Api::namespaced_with(
        env.client(),
        env.namespace(),
        &kube::api::ApiResource::erase::<Ranged>(&()),
    );
    let create = |name: &str, spec: Value| {
        let object = json!({
            "apiVersion": "bounds.wheelhouse.rs/v1", "kind": "Ranged",
            "metadata": {"name": name}, "spec": spec,
        });
        let ranged = ranged.clone();
        async move {
            let object = serde_json::from_value(object).expect("an object");
            ranged.create(&PostParams::default(), &object).await
        }
    };

    let ends = [
        (
            "lowest",
            json!({"small": -128, "count": i32::MIN, "size": 0, "offset": -INT64_END, "total": 0}),
        ),
        (
            "highest",
            json!({"small": 127, "count": i32::MAX, "size": u32::MAX, "offset": INT64_END, "total": i64::MAX}),
        ),
    ];
    for (name, spec) in ends {
        create(name, spec.clone())
            .await
            .unwrap_or_else(|error| panic!("{spec} is in range: {error}"));
        // And it reads back as the operator's type.
        Api::<Ranged>::namespaced(env.client(), env.namespace())
            .get(name)
            .await
            .unwrap_or_else(|error| panic!("{name} decodes: {error}"));
    }

    let past = [
        json!({"small": 128}),
        json!({"small": -129}),
        json!({"count": 3_000_000_000_i64}),
        json!({"count": i64::from(i32::MIN) - 1}),
        json!({"size": -1}),
        json!({"size": 1_u64 << 32}),
        json!({"total": -1}),
    ];
    for (n, spec) in past.into_iter().enumerate() {
        let refused = create(&format!("past-{n}"), spec.clone())
            .await
            .expect_err(&format!("{spec} is refused"));
        assert!(
            matches!(refused, kube::Error::Api(ref status) if status.code == 422),
            "{spec}: {refused:?}"
        );
    }
    env.stop().await;
}
