//! `pods/eviction` as kube-apiserver's `EvictionREST` answers it: a dry run changes
//! nothing (the pod stays, the budget is not spent), the request's `dryRun` and the
//! Eviction's own must agree, a ready pod spends its budget and an unready one goes
//! without spending it when the budget is healthy, several budgets are a 500, and a
//! pod that is not running ignores budgets. No disruption controller runs on the
//! servers these tests use, so each test writes its budget's status itself, as that
//! controller would.

use serde_json::{Value, json};

use crate::common::{IMAGE, client_without_retries, start};
use crate::raw::{Answer, send};
use crate::schema_common::{server_minor, skip_before};
use crate::served::serves;

/// The policy version a server serves disruption budgets and evictions in
/// (`policy/v1` from 1.21, `policy/v1beta1` before).
async fn policy_version(env: &wheelhouse_envtest::TestEnv) -> &'static str {
    if serves(env, "policy/v1", "poddisruptionbudgets").await {
        "policy/v1"
    } else {
        "policy/v1beta1"
    }
}

/// What the tests send: pods, budgets and evictions in one namespace.
struct Cluster {
    client: kube::Client,
    namespace: String,
    policy: &'static str,
}

impl Cluster {
    async fn new(env: &wheelhouse_envtest::TestEnv) -> Self {
        Self {
            // A 429 is what some of these tests expect: kube's retries would hide it.
            client: client_without_retries(env).await,
            namespace: env.namespace().to_owned(),
            policy: policy_version(env).await,
        }
    }

    async fn send(&self, method: http::Method, path: &str, body: Option<&Value>) -> Answer {
        send(&self.client, method, path, body).await
    }

    fn pods(&self) -> String {
        format!("/api/v1/namespaces/{}/pods", self.namespace)
    }

    fn budgets(&self) -> String {
        format!(
            "/apis/{}/namespaces/{}/poddisruptionbudgets",
            self.policy, self.namespace
        )
    }

    /// A pod labelled `app`, in `phase`, Ready or not (no status for `Pending`).
    async fn pod(&self, name: &str, app: &str, phase: &str, ready: bool) {
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": {"app": app}},
            "spec": {"containers": [{"name": "app", "image": IMAGE}]}});
        let created = self.send(http::Method::POST, &self.pods(), Some(&pod)).await;
        assert_eq!(created.code, 201, "{}", created.body);
        if phase == "Pending" {
            return;
        }
        let ready = if ready { "True" } else { "False" };
        let status = json!({"status": {"phase": phase, "conditions": [{"type": "Ready", "status": ready}]}});
        self.merge(&format!("{}/{name}/status", self.pods()), &status).await;
    }

    async fn merge(&self, path: &str, change: &Value) {
        let request = http::Request::builder()
            .method(http::Method::PATCH)
            .uri(path)
            .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
            .body(kube::client::Body::from(serde_json::to_vec(change).unwrap()))
            .unwrap();
        let answer = crate::raw::send_request(&self.client, request).await;
        assert_eq!(answer.code, 200, "PATCH {path}: {}", answer.body);
    }

    /// A budget over the pods labelled `app` (`extra` added to its spec), with the
    /// status the disruption controller would have written.
    async fn budget(&self, name: &str, app: &str, extra: &Value, status: &Value) {
        let mut spec = json!({"minAvailable": 1, "selector": {"matchLabels": {"app": app}}});
        if let (Some(spec), Some(extra)) = (spec.as_object_mut(), extra.as_object()) {
            spec.extend(extra.clone());
        }
        let budget =
            json!({"apiVersion": self.policy, "kind": "PodDisruptionBudget", "metadata": {"name": name}, "spec": spec});
        let created = self.send(http::Method::POST, &self.budgets(), Some(&budget)).await;
        assert_eq!(created.code, 201, "{}", created.body);
        self.merge(&format!("{}/{name}/status", self.budgets()), &json!({"status": status}))
            .await;
    }

    async fn budget_status(&self, name: &str) -> Value {
        let answer = self
            .send(http::Method::GET, &format!("{}/{name}", self.budgets()), None)
            .await;
        assert_eq!(answer.code, 200, "{}", answer.body);
        answer.body["status"].clone()
    }

    /// Evicts `name` with `query` (`?dryRun=All`) and the Eviction's own fields.
    async fn evict(&self, name: &str, query: &str, extra: &Value) -> Answer {
        let mut eviction = json!({"apiVersion": self.policy, "kind": "Eviction", "metadata": {"name": name}});
        if let (Some(eviction), Some(extra)) = (eviction.as_object_mut(), extra.as_object()) {
            eviction.extend(extra.clone());
        }
        let path = format!("{}/{name}/eviction{query}", self.pods());
        self.send(http::Method::POST, &path, Some(&eviction)).await
    }

    /// The pod, or None once it is gone; a pod being deleted counts as gone.
    async fn live_pod(&self, name: &str) -> Option<Value> {
        let answer = self
            .send(http::Method::GET, &format!("{}/{name}", self.pods()), None)
            .await;
        (answer.code == 200 && answer.body["metadata"]["deletionTimestamp"].is_null()).then_some(answer.body)
    }
}

/// The status of a budget that allows `allowed` disruptions.
fn observed(allowed: i64, current: i64, desired: i64) -> Value {
    json!({"observedGeneration": 1, "disruptionsAllowed": allowed, "currentHealthy": current,
        "desiredHealthy": desired, "expectedPods": current + 1})
}

/// `kubectl drain --dry-run=server`: the eviction is answered as a real one would be,
/// and neither the pod nor its budget changes, whether the dry run is in the query or
/// in the Eviction's `deleteOptions`.
#[tokio::test]
async fn a_dry_run_eviction_leaves_the_pod_and_its_budget() {
    let env = start().await;
    let cluster = Cluster::new(&env).await;
    cluster.pod("web", "web", "Running", true).await;
    cluster.budget("guard", "web", &json!({}), &observed(1, 2, 1)).await;
    let before = cluster.budget_status("guard").await;
    for (query, extra) in [
        ("?dryRun=All", json!({})),
        ("", json!({"deleteOptions": {"dryRun": ["All"]}})),
        ("?dryRun=All", json!({"deleteOptions": {"dryRun": ["All"]}})),
    ] {
        let answer = cluster.evict("web", query, &extra).await;
        assert_eq!(answer.code, 201, "{query} {extra}: {}", answer.body);
        assert_eq!(answer.body["status"], "Success");
        assert!(cluster.live_pod("web").await.is_some(), "a dry run deletes nothing");
        assert_eq!(cluster.budget_status("guard").await, before, "a dry run spends nothing");
    }
    // Two dry-run options that disagree are kube's 500, and nothing happens.
    let answer = cluster
        .evict("web", "?dryRun=All", &json!({"deleteOptions": {"dryRun": ["Bogus"]}}))
        .await;
    assert_eq!(answer.code, 500, "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "Non-matching dry-run options in request and content: [All] and [Bogus]"
    );
    // A dry run the options refuse: 422 of the request's CreateOptions.
    let answer = cluster.evict("web", "?dryRun=", &json!({})).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    assert_eq!(answer.body["details"]["kind"], "CreateOptions");
    assert!(cluster.live_pod("web").await.is_some());
    // The real eviction spends the budget and records the pod as disrupted.
    let answer = cluster.evict("web", "", &json!({})).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert!(cluster.live_pod("web").await.is_none(), "the pod is evicted");
    let after = cluster.budget_status("guard").await;
    assert_eq!(after["disruptionsAllowed"], 0);
    assert!(after["disruptedPods"]["web"].is_string(), "{after}");
    env.stop().await;
}

/// A budget that allows nothing refuses with 429 and says why; one its controller has
/// not observed yet refuses with a retry after 10 s; two budgets over one pod are a 500
/// `Status`; a pod that is not running is evicted whatever its budget says.
#[tokio::test]
async fn budgets_refuse_as_kube_refuses() {
    let env = start().await;
    let cluster = Cluster::new(&env).await;
    cluster.pod("full", "full", "Running", true).await;
    cluster.budget("full", "full", &json!({}), &observed(0, 1, 1)).await;
    let answer = cluster.evict("full", "", &json!({})).await;
    assert_eq!(answer.code, 429, "{}", answer.body);
    assert_eq!(answer.body["reason"], "TooManyRequests");
    assert_eq!(
        answer.body["message"],
        "Cannot evict pod as it would violate the pod's disruption budget."
    );
    assert_eq!(
        answer.body["details"]["causes"],
        json!([{"reason": "DisruptionBudget", "message": "The disruption budget full needs 1 healthy pods and has 1 currently"}])
    );
    assert!(cluster.live_pod("full").await.is_some());

    cluster.pod("new", "new", "Running", true).await;
    cluster
        .budget(
            "new",
            "new",
            &json!({}),
            &json!({"observedGeneration": 0, "disruptionsAllowed": 1}),
        )
        .await;
    let answer = cluster.evict("new", "", &json!({})).await;
    assert_eq!(answer.code, 429, "{}", answer.body);
    assert_eq!(
        answer.body["details"]["causes"][0]["message"],
        "The disruption budget new is still being processed by the server."
    );
    // 1.19 gave no retry advice here; 1.32 asks for 10 s.
    let retry = if server_minor(&env).await <= 19 {
        Value::Null
    } else {
        json!(10)
    };
    assert_eq!(answer.body["details"]["retryAfterSeconds"], retry);

    // A second budget over "full": more than one is not supported.
    cluster.budget("again", "full", &json!({}), &observed(1, 1, 1)).await;
    let answer = cluster.evict("full", "", &json!({})).await;
    assert_eq!(answer.code, 500, "{}", answer.body);
    assert_eq!(answer.body["status"], "Failure");
    assert_eq!(
        answer.body["message"],
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
    );
    assert!(cluster.live_pod("full").await.is_some());

    // A pending pod disrupts nothing by going.
    cluster.pod("pending", "full", "Pending", false).await;
    let answer = cluster.evict("pending", "", &json!({})).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert!(cluster.live_pod("pending").await.is_none());
    env.stop().await;
}

/// An unready pod under a budget that has the healthy pods it needs goes without
/// spending the budget (Kubernetes 1.20+), and with `unhealthyPodEvictionPolicy:
/// AlwaysAllow` even when the budget is short (1.27+, where the field is on by default).
#[tokio::test]
async fn unready_pods_go_without_spending_a_healthy_budget() {
    let env = start().await;
    if skip_before(&env, 20, "evicting an unready pod under a healthy budget").await {
        env.stop().await;
        return;
    }
    let cluster = Cluster::new(&env).await;
    cluster.pod("ready", "app", "Running", true).await;
    cluster.pod("stuck", "app", "Running", false).await;
    cluster.budget("guard", "app", &json!({}), &observed(0, 1, 1)).await;
    let answer = cluster.evict("stuck", "", &json!({})).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert!(cluster.live_pod("stuck").await.is_none());
    assert_eq!(cluster.budget_status("guard").await["disruptionsAllowed"], 0);

    // A short budget keeps its unready pods, unless it always allows them to go.
    cluster.pod("crashing", "short", "Running", false).await;
    cluster.budget("short", "short", &json!({}), &observed(0, 0, 1)).await;
    let answer = cluster.evict("crashing", "", &json!({})).await;
    assert_eq!(answer.code, 429, "{}", answer.body);
    if !skip_before(&env, 27, "unhealthyPodEvictionPolicy").await {
        cluster.pod("failing", "lenient", "Running", false).await;
        let policy = json!({"unhealthyPodEvictionPolicy": "AlwaysAllow"});
        cluster.budget("lenient", "lenient", &policy, &observed(0, 0, 1)).await;
        let answer = cluster.evict("failing", "", &json!({})).await;
        assert_eq!(answer.code, 201, "{}", answer.body);
        assert!(cluster.live_pod("failing").await.is_none());
    }
    env.stop().await;
}

/// The Eviction must name the pod of the URL and be an Eviction; the subresource takes
/// only POST.
#[tokio::test]
async fn evictions_are_checked_as_kube_checks_them() {
    let env = start().await;
    let cluster = Cluster::new(&env).await;
    cluster.pod("web", "web", "Running", true).await;
    let answer = cluster.evict("web", "", &json!({"metadata": {"name": "other"}})).await;
    assert_eq!(answer.code, 400, "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "name in URL does not match name in Eviction object"
    );
    let missing = cluster.evict("missing", "", &json!({})).await;
    assert_eq!(missing.code, 404, "{}", missing.body);
    assert_eq!(missing.body["message"], "pods \"missing\" not found");
    let path = format!("{}/web/eviction", cluster.pods());
    for method in [http::Method::GET, http::Method::PUT, http::Method::DELETE] {
        let answer = cluster.send(method.clone(), &path, Some(&json!({}))).await;
        assert_eq!(answer.code, 405, "{method} {path}: {}", answer.body);
    }
    assert!(cluster.live_pod("web").await.is_some());
    env.stop().await;
}
