//! The fence webhook, for API servers without admission policies: see
//! [`FenceWebhook`].

use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use kube::core::admission::{AdmissionRequest, AdmissionResponse, Operation};
use kube::core::{ApiResource, DynamicObject, GroupVersionKind};
use serde_json::{Value, json};

use super::server::{ServerFencing, ServerFencingError, TERM_ANNOTATION};

/// The label a fenced write carries (`<label key>=<`[`ServerFencing::label_value`]`>`),
/// which the webhook configuration's `objectSelector` matches.
pub const FENCE_LABEL: &str = "wheelhouse.dev/fenced-by";

/// How long the webhook waits for the Lease before denying: below the configuration's
/// timeout, so the answer is the webhook's own refusal, not kube-apiserver's timeout.
pub const READ_TIMEOUT: Duration = Duration::from_secs(3);

/// The configuration's `timeoutSeconds`: how long kube-apiserver waits for the answer.
pub const WEBHOOK_TIMEOUT_SECONDS: i32 = 5;

/// How the API server fences: chosen from discovery by [`ServerFencing::mechanism`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FencingMechanism {
    /// A `ValidatingAdmissionPolicy` with the Lease as its parameter (1.30+).
    AdmissionPolicy,
    /// The operator's validating webhook ([`FenceWebhook`]), where the server has no
    /// admission policies.
    Webhook,
}

/// How kube-apiserver reaches the fence webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenceWebhookClient {
    /// Through the operator's webhook Service (the usual deployment).
    Service {
        /// The Service's namespace.
        namespace: String,
        /// The Service's name.
        name: String,
        /// The Service's port (kube-apiserver's default: 443).
        port: Option<i32>,
    },
    /// At a base URL such as `https://127.0.0.1:9443` (the path is appended).
    Url(String),
}

/// Server-side fencing where the API server has no `ValidatingAdmissionPolicy`
/// (before 1.30; 1.19 has none): a validating webhook the operator serves judges each
/// fenced write against the Lease read fresh from the API server.
///
/// The writes are stamped as for the policy (the term in [`TERM_ANNOTATION`]), and
/// labelled [`FENCE_LABEL`]`=<fencing>` so the webhook configuration's `objectSelector`
/// sends kube-apiserver's admission only the operator's fenced objects (1.19's
/// configurations have no `matchConditions`). [`FenceWebhook::review`] then reads the
/// Lease with a plain GET (no `resourceVersion`: a quorum read of etcd, never a cache)
/// and allows the write only when its stamp is the Lease's term now.
///
/// # Which replica answers, and why that is safe
///
/// Every replica serves the webhook (it is a route of the webhook server, which every
/// replica runs), and kube-apiserver calls whichever the Service picks. None judges by
/// what it believes of its own term: the answer depends only on the write's stamp and
/// the Lease as etcd holds it when the webhook reads it, after the write arrived. So an
/// old leader whose held write arrives after a takeover cannot approve it, even when
/// the Service routes the review to that very replica: it reads the new holder.
///
/// # Failing closed
///
/// - A replica that cannot read the Lease (partitioned from the API server, the read
///   slower than 3 s) denies: a fenced write is never allowed unjudged.
/// - No replica reachable: the configuration's `failurePolicy: Fail` refuses.
/// - No Lease: a stamped write was sent in a term, and a term needs its Lease, so the
///   Lease was deleted since; its holder's term ended with it. Denied (the policy,
///   whose `parameterNotFoundAction` must be `Allow` for unstamped writes, allows it).
///
/// # What it costs (beyond the policy's costs)
///
/// - Per fenced write: one call from kube-apiserver to the webhook (TLS, an
///   `AdmissionReview` each way) and one GET of the Lease from etcd: about one extra
///   request's latency and one extra etcd read per write.
/// - Availability: while no replica answers, every write of a labelled object is
///   refused, the users' included (their writes are allowed only once judged, as
///   [`ServerFencing::operator`] lets them through in the handler, not in the
///   configuration, which 1.19 cannot condition on the user).
/// - One label per fenced object besides the annotation.
///
/// # The window that remains
///
/// The decision is taken when the Lease is read; the write is stored after the answer
/// travels back. A takeover in between (the old holder's record unrenewed for a lease
/// duration at the very moment of the read) lets the write in after it. The answer's
/// travel is bounded by the configuration's `timeoutSeconds` (5 s),
/// as the policy's window is bounded by its informer's lag.
///
/// The fence webhook's decision: serve it on every replica's webhook server at
/// [`ServerFencing::webhook_path`], as a raw handler of `wheelhouse-webhook`. Cheap to
/// clone.
///
/// ```no_run
/// # fn example(manager: &wheelhouse_manager::Manager, fencing: &wheelhouse_manager::ServerFencing) {
/// let fence = manager.fence_webhook().expect("built with server_fencing");
/// let handler = move |request| {
///     let fence = fence.clone();
///     async move { fence.review(request).await }
/// };
/// // webhook_server.handler(fencing.webhook_path(), handler)
/// # let _ = handler;
/// # }
/// ```
#[derive(Clone)]
pub struct FenceWebhook {
    leases: Api<Lease>,
    lease_name: String,
    /// `<lease namespace>/<lease name>/`: the stamps this webhook judges.
    prefix: String,
    operator: Option<String>,
}

impl std::fmt::Debug for FenceWebhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FenceWebhook")
            .field("lease", &self.prefix)
            .field("operator", &self.operator)
            .finish_non_exhaustive()
    }
}

/// What the webhook knew of the Lease when it judged.
#[derive(Debug)]
pub(crate) enum LeaseRead {
    Found(Box<Lease>),
    Missing,
    Failed(String),
}

impl FenceWebhook {
    /// The webhook judging `fencing`'s writes against the Lease
    /// `lease_namespace/lease_name`, read with `client` (an unfenced one: every replica
    /// reads, leader or not).
    pub fn new(fencing: &ServerFencing, client: kube::Client, lease_namespace: &str, lease_name: &str) -> Self {
        Self {
            leases: Api::namespaced(client, lease_namespace),
            lease_name: lease_name.to_owned(),
            prefix: format!("{lease_namespace}/{lease_name}/"),
            operator: fencing.operator_name().map(str::to_owned),
        }
    }

    /// Allows or denies one write, as the [`FenceWebhook`] documentation says.
    pub async fn review(&self, request: AdmissionRequest<DynamicObject>) -> AdmissionResponse {
        let response = AdmissionResponse::from(&request);
        let Some(stamp) = self.stamp_to_judge(&request) else {
            return response;
        };
        let read = match tokio::time::timeout(READ_TIMEOUT, self.leases.get_opt(&self.lease_name)).await {
            Ok(Ok(Some(lease))) => LeaseRead::Found(Box::new(lease)),
            Ok(Ok(None)) => LeaseRead::Missing,
            Ok(Err(error)) => LeaseRead::Failed(error.to_string()),
            Err(_) => LeaseRead::Failed(format!("no answer within {READ_TIMEOUT:?}")),
        };
        match self.judge(&stamp, &read) {
            Ok(()) => response,
            Err(reason) => {
                // kube-apiserver answers a denial without a code as 400; a fenced
                // write is forbidden, as the policy answers it.
                let mut denied = response.deny(reason);
                denied.result.code = 403;
                denied.result.reason = "Forbidden".into();
                denied
            }
        }
    }

    /// The term stamp of a write this webhook judges, or None for a write it lets
    /// through unjudged (not a create or update, another user's, stamped for another
    /// Lease or not at all): the policy's `matchConditions`, in code.
    pub(crate) fn stamp_to_judge(&self, request: &AdmissionRequest<DynamicObject>) -> Option<String> {
        if !matches!(request.operation, Operation::Create | Operation::Update) {
            return None;
        }
        if let Some(operator) = &self.operator
            && request.user_info.username.as_deref() != Some(operator.as_str())
        {
            return None;
        }
        let stamp = request
            .object
            .as_ref()?
            .metadata
            .annotations
            .as_ref()?
            .get(TERM_ANNOTATION)?;
        stamp.starts_with(&self.prefix).then(|| stamp.clone())
    }

    /// Ok when `stamp` is the term of the Lease as read; else why not.
    pub(crate) fn judge(&self, stamp: &str, read: &LeaseRead) -> Result<(), String> {
        let lease = match read {
            LeaseRead::Found(lease) => lease,
            LeaseRead::Missing => {
                let lease = self.prefix.trim_end_matches('/');
                return Err(format!(
                    "written in leadership term {stamp}, but the lease {lease} is gone (its term ended with it)"
                ));
            }
            LeaseRead::Failed(why) => {
                return Err(format!(
                    "written in leadership term {stamp}, which cannot be judged now: the lease could not be read ({why})"
                ));
            }
        };
        let spec = lease.spec.clone().unwrap_or_default();
        let term = format!(
            "{}{}/{}",
            self.prefix,
            spec.holder_identity.unwrap_or_default(),
            spec.lease_transitions.unwrap_or(0)
        );
        if stamp == term {
            Ok(())
        } else {
            Err(format!(
                "written in leadership term {stamp}, but the lease is in term {term} now"
            ))
        }
    }
}

impl ServerFencing {
    /// How this API server can fence, from discovery: the admission policy where it
    /// serves `ValidatingAdmissionPolicy`, else the webhook.
    ///
    /// # Errors
    /// Discovery's error.
    pub async fn mechanism(client: &kube::Client) -> Result<FencingMechanism, ServerFencingError> {
        match Self::supported(client).await {
            Ok(()) => Ok(FencingMechanism::AdmissionPolicy),
            Err(ServerFencingError::Unsupported(_)) => Ok(FencingMechanism::Webhook),
            Err(error) => Err(error),
        }
    }

    /// The value of [`FENCE_LABEL`] on the objects this fencing stamps: its name where
    /// that is a valid label value, else a hash of it.
    pub fn label_value(&self) -> String {
        let name = self.name();
        let valid = name.len() <= 63
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            && name.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
            && name.bytes().last().is_some_and(|b| b.is_ascii_alphanumeric());
        if valid {
            return name.to_owned();
        }
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("h-{hash:016x}")
    }

    /// Where the webhook server serves [`FenceWebhook`]: `/fence-<label value>`.
    pub fn webhook_path(&self) -> String {
        format!("/fence-{}", self.label_value())
    }

    /// The `ValidatingWebhookConfiguration` (admissionregistration.k8s.io/v1, 1.16+)
    /// that sends the labelled writes of the fenced resources to the webhook, which
    /// judges them against `lease_namespace/lease_name`.
    pub fn webhook_manifest(&self, client: &FenceWebhookClient, ca_bundle: Option<&str>) -> Value {
        let path = self.webhook_path();
        let mut client_config = match client {
            FenceWebhookClient::Service { namespace, name, port } => {
                let mut service = json!({"namespace": namespace, "name": name, "path": path});
                if let Some(port) = port {
                    service["port"] = json!(port);
                }
                json!({"service": service})
            }
            FenceWebhookClient::Url(base) => json!({"url": format!("{}{path}", base.trim_end_matches('/'))}),
        };
        if let Some(ca_bundle) = ca_bundle {
            // A ByteString is written as base64, as the API's `[]byte` fields are.
            let encoded = k8s_openapi::ByteString(ca_bundle.as_bytes().to_vec());
            client_config["caBundle"] = serde_json::to_value(encoded).unwrap_or_default();
        }
        let rules = self.admission_rules();
        json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingWebhookConfiguration",
            "metadata": {"name": self.name()},
            "webhooks": [{
                "name": format!("{}.fence.wheelhouse.dev", self.label_value()),
                "clientConfig": client_config,
                "rules": rules,
                "objectSelector": {"matchLabels": {FENCE_LABEL: self.label_value()}},
                "failurePolicy": "Fail",
                "matchPolicy": "Equivalent",
                "sideEffects": "None",
                "admissionReviewVersions": ["v1"],
                "timeoutSeconds": WEBHOOK_TIMEOUT_SECONDS,
            }],
        })
    }

    /// Installs [`webhook_manifest`](Self::webhook_manifest) with server-side apply
    /// (field manager `wheelhouse-fencing`). kube-apiserver loads it within a second
    /// or so; writes before that are not judged.
    ///
    /// # Errors
    /// The request's error.
    pub async fn install_webhook(
        &self,
        client: &kube::Client,
        webhook: &FenceWebhookClient,
        ca_bundle: Option<&str>,
    ) -> Result<(), ServerFencingError> {
        let manifest = self.webhook_manifest(webhook, ca_bundle);
        let gvk = GroupVersionKind::gvk("admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration");
        let api: Api<DynamicObject> = Api::all_with(
            client.clone(),
            &ApiResource::from_gvk_with_plural(&gvk, "validatingwebhookconfigurations"),
        );
        let params = PatchParams::apply("wheelhouse-fencing").force();
        api.patch(self.name(), &params, &Patch::Apply(&manifest)).await?;
        Ok(())
    }

    /// Installs what this API server fences with, chosen from discovery: the policy
    /// and its binding, or the webhook's configuration. Returns which.
    ///
    /// # Errors
    /// Discovery's or a request's error.
    pub async fn install_by_discovery(
        &self,
        client: &kube::Client,
        lease_namespace: &str,
        lease_name: &str,
        webhook: &FenceWebhookClient,
        ca_bundle: Option<&str>,
    ) -> Result<FencingMechanism, ServerFencingError> {
        let mechanism = Self::mechanism(client).await?;
        match mechanism {
            FencingMechanism::AdmissionPolicy => self.install(client, lease_namespace, lease_name).await?,
            FencingMechanism::Webhook => self.install_webhook(client, webhook, ca_bundle).await?,
        }
        Ok(mechanism)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use k8s_openapi::api::coordination::v1::LeaseSpec;

    use super::*;

    /// A webhook whose Lease reads are refused (a client needs a runtime).
    fn webhook(operator: Option<&str>) -> FenceWebhook {
        let client =
            kube::Client::try_from(kube::Config::new("http://127.0.0.1:1".parse().expect("a URL"))).expect("a client");
        let mut fencing = ServerFencing::new("f").resource_named("", "configmaps");
        if let Some(operator) = operator {
            fencing = fencing.operator(operator);
        }
        FenceWebhook::new(&fencing, client, "ns", "lease")
    }

    fn request(operation: &str, user: &str, stamp: Option<&str>) -> AdmissionRequest<DynamicObject> {
        let annotations = stamp.map(|s| BTreeMap::from([(TERM_ANNOTATION.to_owned(), s.to_owned())]));
        let review = json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "request": {
                "uid": "u",
                "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
                "resource": {"group": "", "version": "v1", "resource": "configmaps"},
                "operation": operation,
                "userInfo": {"username": user},
                "object": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "annotations": annotations}},
                "dryRun": false,
            },
        });
        let review: kube::core::admission::AdmissionReview<DynamicObject> =
            serde_json::from_value(review).expect("a review");
        review.try_into().expect("a request")
    }

    fn lease(holder: &str, transitions: i32) -> LeaseRead {
        LeaseRead::Found(Box::new(Lease {
            spec: Some(LeaseSpec {
                holder_identity: Some(holder.into()),
                lease_transitions: Some(transitions),
                ..LeaseSpec::default()
            }),
            ..Lease::default()
        }))
    }

    #[tokio::test]
    async fn only_this_leases_stamps_from_the_operator_on_writes_are_judged() {
        let hook = webhook(Some("op"));
        assert_eq!(
            hook.stamp_to_judge(&request("UPDATE", "op", Some("ns/lease/a/1")))
                .as_deref(),
            Some("ns/lease/a/1")
        );
        assert!(
            hook.stamp_to_judge(&request("UPDATE", "someone", Some("ns/lease/a/1")))
                .is_none()
        );
        assert!(
            hook.stamp_to_judge(&request("UPDATE", "op", Some("ns/other/a/1")))
                .is_none()
        );
        assert!(hook.stamp_to_judge(&request("CREATE", "op", None)).is_none());
        assert!(
            hook.stamp_to_judge(&request("DELETE", "op", Some("ns/lease/a/1")))
                .is_none()
        );
        assert!(
            webhook(None)
                .stamp_to_judge(&request("CREATE", "anyone", Some("ns/lease/a/1")))
                .is_some()
        );
    }

    #[tokio::test]
    async fn a_stamp_passes_only_in_the_leases_term_and_fails_closed() {
        let hook = webhook(None);
        assert!(hook.judge("ns/lease/a/1", &lease("a", 1)).is_ok());
        let refused = hook.judge("ns/lease/a/1", &lease("b", 2)).expect_err("another term");
        assert!(
            refused.contains("but the lease is in term ns/lease/b/2 now"),
            "{refused}"
        );
        assert!(
            hook.judge("ns/lease/a/1", &lease("a", 2)).is_err(),
            "the same holder's next term"
        );
        assert!(hook.judge("ns/lease/a/1", &LeaseRead::Missing).is_err());
        let unread = hook
            .judge("ns/lease/a/1", &LeaseRead::Failed("refused".into()))
            .expect_err("fail closed");
        assert!(unread.contains("could not be read (refused)"), "{unread}");
    }

    #[tokio::test]
    async fn an_unreadable_lease_denies_the_write() {
        let response = webhook(None)
            .review(request("UPDATE", "op", Some("ns/lease/a/1")))
            .await;
        assert!(!response.allowed);
        assert_eq!(response.result.code, 403);
        let response = webhook(None).review(request("UPDATE", "op", None)).await;
        assert!(response.allowed, "unstamped writes are not judged");
    }

    #[test]
    fn the_configuration_selects_the_labelled_objects_of_the_fenced_resources() {
        let fencing = ServerFencing::new("webapp-fencing")
            .resource_named("apps", "deployments")
            .resource_named("", "services");
        let manifest = fencing.webhook_manifest(
            &FenceWebhookClient::Service {
                namespace: "system".into(),
                name: "webhook".into(),
                port: Some(443),
            },
            Some("PEM"),
        );
        let hook = &manifest["webhooks"][0];
        assert_eq!(hook["objectSelector"]["matchLabels"][FENCE_LABEL], "webapp-fencing");
        assert_eq!(hook["clientConfig"]["service"]["path"], "/fence-webapp-fencing");
        assert_eq!(hook["clientConfig"]["caBundle"], "UEVN");
        assert_eq!(hook["failurePolicy"], "Fail");
        assert_eq!(hook["rules"][0]["apiGroups"], json!(["apps"]));
        assert_eq!(hook["rules"][1]["resources"], json!(["services"]));
        let by_url = fencing.webhook_manifest(&FenceWebhookClient::Url("https://127.0.0.1:9443/".into()), None);
        assert_eq!(
            by_url["webhooks"][0]["clientConfig"]["url"],
            "https://127.0.0.1:9443/fence-webapp-fencing"
        );
    }

    #[test]
    fn label_values_are_valid_whatever_the_name() {
        assert_eq!(ServerFencing::new("fencing-ns-1").label_value(), "fencing-ns-1");
        let long = ServerFencing::new("x".repeat(80)).label_value();
        assert!(long.starts_with("h-") && long.len() == 18, "{long}");
        assert!(ServerFencing::new("a:b").label_value().starts_with("h-"));
    }
}
