//! Custom resources through their CRD's conversion webhook, as kube-apiserver converts
//! them: stored in the storage version and converted for the version a request names
//! (reads, lists, watches and writes), kube-apiserver's 500 when the webhook fails, and
//! `matchPolicy: Equivalent` admission webhooks called with the object converted to
//! their version. Every test but one runs on both servers (see `conversion_common`).

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use serde_json::{Value, json};

use crate::common::{api_error, delete_quietly, eventually, from_json, skip_unless_embedded, start};
use crate::conversion_common::{Webhooks, Widgets, spec_of};

/// A v2 write goes through the webhook into the v1 storage version; each version reads
/// its own shape back (get, list and watch), and the webhook saw `ConversionReview`s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversion_webhook_converts_reads_lists_watches_and_writes() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let (v1, v2) = (widgets.api(&env, "v1"), widgets.api(&env, "v2"));

    let created = eventually("the conversion webhook to be reachable", || async {
        v2.create(
            &PostParams::default(),
            &widgets.object("v2", "a", &json!({"replicas": 3})),
        )
        .await
        .ok()
    })
    .await;
    assert_eq!(
        created.types.as_ref().unwrap().api_version,
        format!("{}/v2", widgets.group)
    );
    assert_eq!(
        spec_of(&created),
        json!({"replicas": 3}),
        "the answer is in the version written"
    );

    // Stored as v1: read at v1 it has v1's field, not v2's.
    let stored = v1.get("a").await.unwrap();
    assert_eq!(spec_of(&stored), json!({"size": 3}));
    assert_eq!(spec_of(&v2.get("a").await.unwrap()), json!({"replicas": 3}));

    v1.create(&PostParams::default(), &widgets.object("v1", "b", &json!({"size": 7})))
        .await
        .unwrap();
    let listed = v2.list(&ListParams::default()).await.unwrap();
    let specs: Vec<Value> = listed.items.iter().map(spec_of).collect();
    assert_eq!(specs, vec![json!({"replicas": 3}), json!({"replicas": 7})]);

    // An update at v2 of an object stored at v1.
    let patch = json!({"spec": {"replicas": 4}});
    let patched = v2
        .patch("b", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(spec_of(&patched), json!({"replicas": 4}));
    assert_eq!(spec_of(&v1.get("b").await.unwrap()), json!({"size": 4}));

    let mut events = v2
        .watch(
            &WatchParams::default(),
            &listed.metadata.resource_version.clone().unwrap(),
        )
        .await
        .unwrap()
        .boxed();
    v1.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(&json!({"spec": {"size": 9}})),
    )
    .await
    .unwrap();
    let seen = loop {
        match events.try_next().await.unwrap() {
            Some(WatchEvent::Modified(object)) if object.metadata.name.as_deref() == Some("a") => break object,
            Some(_) => {}
            None => panic!("the watch ended before the change to a"),
        }
    };
    assert_eq!(spec_of(&seen), json!({"replicas": 9}), "a v2 watch sees v2 objects");

    let reviews = webhooks.reviews("/convert");
    assert!(!reviews.is_empty());
    for review in &reviews {
        assert_eq!(review["apiVersion"], "apiextensions.k8s.io/v1");
        assert_eq!(review["kind"], "ConversionReview");
    }
    assert!(
        reviews
            .iter()
            .any(|r| r["request"]["desiredAPIVersion"] == format!("{}/v1", widgets.group))
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// A webhook that cannot be reached, that fails, or that renames what it converts
/// fails the read with kube-apiserver's 500 and message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_conversion_webhook_is_a_500_naming_the_kind() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/fail"))
        .await
        .unwrap();
    let (v1, v2) = (widgets.api(&env, "v1"), widgets.api(&env, "v2"));
    // A write in the storage version needs no conversion.
    eventually("the CRD to serve v1 writes", || async {
        v1.create(&PostParams::default(), &widgets.object("v1", "a", &json!({"size": 1})))
            .await
            .ok()
    })
    .await;
    let prefix = format!("conversion webhook for {}/v1, Kind=Widget ", widgets.group);

    let status = eventually("the failing webhook to be called", || async {
        let result = v2.get("a").await;
        result.is_err().then(|| api_error(result))
    })
    .await;
    assert_eq!(status.code, 500);
    assert_eq!(status.message, format!("{prefix}failed: widgets cannot convert today"));

    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let rename = json!({"spec": {"conversion": {"webhook": {"clientConfig": webhooks.client_config("/rename")}}}});
    crds.patch(&widgets.name(), &PatchParams::default(), &Patch::Merge(&rename))
        .await
        .unwrap();
    let status = eventually("the renaming webhook to be called", || async {
        let result = v2.get("a").await;
        let status = api_error(result);
        status.message.contains("must have the same name").then_some(status)
    })
    .await;
    assert_eq!(status.code, 500);
    assert_eq!(
        status.message,
        format!("{prefix}returned invalid object: must have the same name: a != renamed")
    );

    // Nothing listens on a port that was free a moment ago.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://{}/convert", closed.local_addr().unwrap());
    drop(closed);
    let unreachable = json!({"spec": {"conversion": {"webhook": {"clientConfig": {"url": url}}}}});
    crds.patch(&widgets.name(), &PatchParams::default(), &Patch::Merge(&unreachable))
        .await
        .unwrap();
    let status = eventually("the unreachable webhook to be called", || async {
        let status = api_error(v2.get("a").await);
        status.message.contains(&url).then_some(status)
    })
    .await;
    assert_eq!(status.code, 500);
    assert!(
        status
            .message
            .starts_with(&format!("{prefix}failed: Post \"{url}?timeout=30s\": ")),
        "{}",
        status.message
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// An admission webhook registered for v2 sees a v1 write converted to v2, named as v2
/// with the request's version in `requestKind`; a mutating one's patch, made to the v2
/// object, reaches the stored v1 object converted back. `Exact` webhooks are not called.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn equivalent_admission_webhooks_see_the_object_in_their_version() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let rule = json!([{"operations": ["CREATE"], "apiGroups": [widgets.group], "apiVersions": ["v2"], "resources": ["widgets"]}]);
    let hook = |name: &str, path: &str, policy: &str| {
        json!({"name": format!("{name}.{}", widgets.group), "clientConfig": webhooks.client_config(path),
            "rules": rule, "matchPolicy": policy, "sideEffects": "None", "admissionReviewVersions": ["v1"],
            "failurePolicy": "Fail", "timeoutSeconds": 5})
    };
    let configuration = format!("{}-equivalent", env.namespace());
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(env.client());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(env.client());
    mutating
        .create(
            &PostParams::default(),
            &from_json(
                json!({"metadata": {"name": configuration}, "webhooks": [hook("mutate", "/mutate", "Equivalent")]}),
            ),
        )
        .await
        .unwrap();
    validating
        .create(
            &PostParams::default(),
            &from_json(json!({"metadata": {"name": configuration}, "webhooks": [
                hook("validate", "/validate", "Equivalent"), hook("exact", "/exact", "Exact")]})),
        )
        .await
        .unwrap();
    let v1 = widgets.api(&env, "v1");
    // Configurations take effect asynchronously on a real server: probe until mutated.
    let created = eventually("the v2 webhooks to see v1 writes", || async {
        let probe = widgets.object("v1", "", &json!({"size": 1}));
        let mut probe = probe;
        probe.metadata.generate_name = Some("probe-".into());
        probe.metadata.name = None;
        let created = v1.create(&PostParams::default(), &probe).await.ok()?;
        let name = created.metadata.name.clone()?;
        let validated = webhooks
            .reviews("/validate")
            .iter()
            .any(|r| r["request"]["object"]["metadata"]["name"] == name.as_str());
        (created.metadata.labels.as_ref()?.get("mutated")? == "true" && validated).then_some(created)
    })
    .await;
    let name = created.metadata.name.clone().unwrap_or_default();
    assert_eq!(
        spec_of(&created),
        json!({"size": 5}),
        "the patch to spec.replicas, converted back to v1"
    );

    let review = webhooks
        .reviews("/validate")
        .into_iter()
        .find(|r| r["request"]["object"]["metadata"]["name"] == name.as_str())
        .expect("the validating webhook saw the object");
    let request = &review["request"];
    assert_eq!(
        request["kind"],
        json!({"group": widgets.group, "version": "v2", "kind": "Widget"})
    );
    assert_eq!(request["resource"]["version"], "v2");
    assert_eq!(
        request["requestKind"],
        json!({"group": widgets.group, "version": "v1", "kind": "Widget"})
    );
    assert_eq!(request["requestResource"]["version"], "v1");
    assert_eq!(request["object"]["apiVersion"], format!("{}/v2", widgets.group));
    assert_eq!(request["object"]["spec"], json!({"replicas": 5}));
    assert!(
        webhooks.reviews("/exact").is_empty(),
        "an Exact webhook for v2 never sees v1 writes"
    );

    delete_quietly(&mutating, &configuration).await;
    delete_quietly(&validating, &configuration).await;
    widgets.remove(&env).await;
    env.stop().await;
}

/// On the embedded server a list whose objects cannot be converted fails with the
/// webhook's message, and a watch gets it as an `ERROR` event and ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_conversion_fails_lists_and_ends_watches() {
    let env = start().await;
    // kube-apiserver 1.31+ lists from its watch cache, which keeps retrying a failed
    // conversion in the background instead of failing the request.
    if skip_unless_embedded(&env, "a list and a watch failing with the conversion webhook") {
        env.stop().await;
        return;
    }
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/fail"))
        .await
        .unwrap();
    let (v1, v2) = (widgets.api(&env, "v1"), widgets.api(&env, "v2"));
    v1.create(&PostParams::default(), &widgets.object("v1", "a", &json!({"size": 1})))
        .await
        .unwrap();
    let status = api_error(v2.list(&ListParams::default()).await);
    assert_eq!(status.code, 500);
    assert_eq!(
        status.message,
        format!(
            "conversion webhook for {}/v1, Kind=Widget failed: widgets cannot convert today",
            widgets.group
        )
    );
    let mut events = v2.watch(&WatchParams::default(), "0").await.unwrap().boxed();
    match events.try_next().await.unwrap() {
        Some(WatchEvent::Error(error)) => {
            assert_eq!(error.code, 500);
            assert!(
                error.message.ends_with("failed: widgets cannot convert today"),
                "{}",
                error.message
            );
        }
        other => panic!("expected an ERROR event, got {other:?}"),
    }
    assert!(
        events.try_next().await.unwrap().is_none(),
        "the watch ends after its error"
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// After the storage version moves from v1 to v2, an object still stored in v1 is
/// converted for a list and a watch of v2, the new storage version, too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_stored_before_the_storage_version_moved_are_converted() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let (v1, v2) = (widgets.api(&env, "v1"), widgets.api(&env, "v2"));
    eventually("the CRD to serve v1 writes", || async {
        v1.create(
            &PostParams::default(),
            &widgets.object("v1", "old", &json!({"size": 2})),
        )
        .await
        .ok()
    })
    .await;
    let conversion = json!({"strategy": "Webhook", "webhook": {
        "clientConfig": webhooks.client_config("/convert"), "conversionReviewVersions": ["v1"]}});
    let moved = widgets.crd(
        &[
            Widgets::version("v1", false, "size"),
            Widgets::version("v2", true, "replicas"),
        ],
        &conversion,
    );
    env.install_crd(&moved).await.unwrap();
    // A real server reinitializes the resource's storage when its CRD changes, and
    // answers 429 "storage is (re)initializing" meanwhile.
    let listed = eventually("a list once the storage is ready", || async {
        match v2.list(&ListParams::default()).await {
            Ok(listed) => Some(listed),
            Err(kube::Error::Api(status)) if status.code == 429 => None,
            Err(error) => panic!("the list failed: {error}"),
        }
    })
    .await;
    let specs: Vec<Value> = listed.items.iter().map(spec_of).collect();
    assert_eq!(specs, vec![json!({"replicas": 2})]);
    let mut events = v2.watch(&WatchParams::default(), "0").await.unwrap().boxed();
    match events.try_next().await.unwrap() {
        Some(WatchEvent::Added(object)) => assert_eq!(spec_of(&object), json!({"replicas": 2})),
        other => panic!("expected the object ADDED, got {other:?}"),
    }
    widgets.remove(&env).await;
    env.stop().await;
}
