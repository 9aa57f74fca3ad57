//! Namespaces as their strategies keep them: `spec.finalizers` given on create are
//! kept (with `kubernetes` appended), only `/finalize` changes them afterwards (a PUT
//! or patch of the namespace leaves them as stored), the status changes only through
//! `/status`, and the first delete of a namespace marks it Terminating whatever its
//! finalizers.

use serde_json::{Value, json};

use crate::common::start;
use crate::raw::{Answer, send, send_request};
use crate::schema_common::server_minor;

/// A namespace of the test's own, removed at the end of the test whatever it holds.
struct Scratch {
    client: kube::Client,
    name: String,
}

impl Scratch {
    /// Creates the namespace `<test namespace>-<suffix>`, with nothing but its name.
    async fn create(env: &wheelhouse_envtest::TestEnv, suffix: &str) -> Self {
        Self::create_with(env, suffix, &json!({})).await.0
    }

    /// Creates the namespace `<test namespace>-<suffix>` from `body` (its `spec` and
    /// `status`, the name set here); the scratch namespace and the created object.
    async fn create_with(env: &wheelhouse_envtest::TestEnv, suffix: &str, body: &Value) -> (Self, Value) {
        let scratch = Self {
            client: env.client(),
            name: format!("{}-{suffix}", env.namespace()),
        };
        let mut namespace = body.clone();
        namespace["apiVersion"] = json!("v1");
        namespace["kind"] = json!("Namespace");
        namespace["metadata"] = json!({"name": scratch.name});
        let created = send(
            &scratch.client,
            http::Method::POST,
            "/api/v1/namespaces",
            Some(&namespace),
        )
        .await;
        assert_eq!(created.code, 201, "{}", created.body);
        (scratch, created.body)
    }

    fn path(&self) -> String {
        format!("/api/v1/namespaces/{}", self.name)
    }

    async fn get(&self) -> Value {
        let answer = send(&self.client, http::Method::GET, &self.path(), None).await;
        assert_eq!(answer.code, 200, "{}", answer.body);
        answer.body
    }

    async fn patch(&self, content_type: &str, body: &Value) -> Answer {
        let request = http::Request::builder()
            .method(http::Method::PATCH)
            .uri(self.path())
            .header(http::header::CONTENT_TYPE, content_type)
            .body(kube::client::Body::from(serde_json::to_vec(body).unwrap()))
            .unwrap();
        send_request(&self.client, request).await
    }

    /// Deletes the namespace, then empties its `spec.finalizers`: the write that takes
    /// a Terminating namespace's last finalizer deletes it, so no cluster keeps it.
    async fn remove(&self) {
        let _ = send(&self.client, http::Method::DELETE, &self.path(), None).await;
        let finalized = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": self.name}, "spec": {"finalizers": []}});
        let path = format!("{}/finalize", self.path());
        let _ = send(&self.client, http::Method::PUT, &path, Some(&finalized)).await;
    }
}

/// Finalizers given on create are kept, `kubernetes` appended; the status sent is not.
/// Afterwards a PUT, a merge patch and a strategic-merge patch of the namespace change
/// its labels but not its finalizers; `/finalize` changes both and not the status.
#[tokio::test]
async fn only_finalize_changes_a_namespace_s_finalizers() {
    let env = start().await;
    let body = json!({"spec": {"finalizers": ["example.com/hold"]}, "status": {"phase": "Terminating"}});
    let (scratch, created) = Scratch::create_with(&env, "fin", &body).await;
    assert_eq!(created["spec"]["finalizers"], json!(["example.com/hold", "kubernetes"]));
    assert_eq!(created["status"]["phase"], "Active");

    let put = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": scratch.name, "labels": {"step": "put"}},
        "spec": {"finalizers": ["example.com/other"]}});
    let answer = send(&scratch.client, http::Method::PUT, &scratch.path(), Some(&put)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["metadata"]["labels"]["step"], "put");
    for (content_type, step) in [
        ("application/merge-patch+json", "merge"),
        ("application/strategic-merge-patch+json", "strategic"),
    ] {
        let change = json!({"metadata": {"labels": {"step": step}}, "spec": {"finalizers": ["example.com/patched"]}});
        let answer = scratch.patch(content_type, &change).await;
        assert_eq!(answer.code, 200, "{content_type}: {}", answer.body);
        assert_eq!(answer.body["metadata"]["labels"]["step"], step);
    }
    assert_eq!(
        scratch.get().await["spec"]["finalizers"],
        json!(["example.com/hold", "kubernetes"]),
        "the main endpoint keeps the finalizers as stored"
    );

    let finalize = json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": scratch.name, "labels": {"step": "finalize"}},
        "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Terminating"}});
    let path = format!("{}/finalize", scratch.path());
    let answer = send(&scratch.client, http::Method::PUT, &path, Some(&finalize)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["spec"]["finalizers"], json!(["kubernetes"]));
    assert_eq!(answer.body["metadata"]["labels"]["step"], "finalize");
    assert_eq!(answer.body["status"]["phase"], "Active", "/finalize keeps the status");
    // managedFields name their subresource from 1.22 on.
    if server_minor(&env).await >= 22 {
        let entries = answer.body["metadata"]["managedFields"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let finalizing = entries
            .iter()
            .find(|entry| entry["subresource"] == "finalize")
            .unwrap_or_else(|| panic!("an entry for /finalize: {entries:?}"));
        assert_eq!(finalizing["fieldsV1"]["f:spec"], json!({"f:finalizers": {}}));
    }
    let without_spec = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": scratch.name}});
    let answer = send(&scratch.client, http::Method::PUT, &path, Some(&without_spec)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(
        answer.body["spec"],
        json!({}),
        "no finalizers left, and a spec all the same"
    );
    scratch.remove().await;
    env.stop().await;
}

/// A namespace's phase defaults to `Active` as its body decodes, on a status write as on
/// a create: a `/status` write of `status: {}` is not a phase left empty, and the label
/// it adds is kept.
#[tokio::test]
async fn a_status_write_without_a_phase_keeps_the_namespace_active() {
    let env = start().await;
    let scratch = Scratch::create(&env, "phase").await;
    let mut written = scratch.get().await;
    written["metadata"]["labels"]["written"] = json!("status");
    written["status"] = json!({});
    let path = format!("{}/status", scratch.path());
    let answer = send(&scratch.client, http::Method::PUT, &path, Some(&written)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["status"], json!({"phase": "Active"}));
    assert_eq!(answer.body["metadata"]["labels"]["written"], "status");
    scratch.remove().await;
    env.stop().await;
}

/// The first delete of a namespace marks it Terminating even with no finalizers left
/// (and there it stays: the namespace controller has nothing to finalize); a second
/// delete of the finalized namespace deletes it.
#[tokio::test]
async fn a_namespace_is_terminating_before_it_goes() {
    let env = start().await;
    let scratch = Scratch::create(&env, "del").await;
    let path = format!("{}/finalize", scratch.path());
    let finalized = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": scratch.name}, "spec": {"finalizers": []}});
    assert_eq!(
        send(&scratch.client, http::Method::PUT, &path, Some(&finalized))
            .await
            .code,
        200
    );
    let deleted = send(&scratch.client, http::Method::DELETE, &scratch.path(), None).await;
    assert_eq!(deleted.code, 200, "{}", deleted.body);
    assert_eq!(deleted.body["kind"], "Namespace", "{}", deleted.body);
    assert_eq!(deleted.body["status"]["phase"], "Terminating");
    assert!(deleted.body["metadata"]["deletionTimestamp"].is_string());
    // A second delete of a finalized namespace deletes it.
    let again = send(&scratch.client, http::Method::DELETE, &scratch.path(), None).await;
    assert_eq!(again.code, 200, "{}", again.body);
    let gone = send(&scratch.client, http::Method::GET, &scratch.path(), None).await;
    assert_eq!(gone.code, 404, "{}", gone.body);
    env.stop().await;
}
