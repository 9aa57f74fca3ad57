//! Calls to registered admission webhooks: mutating webhooks first, in name order, then
//! validating ones, over HTTPS with `AdmissionReview` v1, as kube-apiserver does.
//!
//! A mutating webhook with `reinvocationPolicy: IfNeeded` is called once more when a
//! webhook after it changed the object, as kube-apiserver's reinvocation pass does.
//!
//! Known differences from kube-apiserver: `matchConditions` are not evaluated (a webhook
//! is called as if they all held), and `matchPolicy: Equivalent` behaves as `Exact` (no
//! conversion between API versions).

mod client;
pub(super) mod matching;
pub(super) mod review;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use self::client::Clients;
use self::review::{Reply, ReviewVersion};

/// The operation being admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    Create,
    Update,
    Delete,
}

impl Operation {
    /// The spelling of `rules[].operations` and `AdmissionRequest.operation`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Create => "CREATE",
            Self::Update => "UPDATE",
            Self::Delete => "DELETE",
        }
    }
}

/// What the server knows of a request when it asks the webhooks.
pub(crate) struct AdmissionAttributes<'a> {
    pub operation: Operation,
    pub group: &'a str,
    pub version: &'a str,
    pub kind: &'a str,
    /// The plural resource name, for example `deployments`.
    pub resource: &'a str,
    pub subresource: Option<&'a str>,
    pub namespace: Option<&'a str>,
    pub name: &'a str,
    /// The object after the change (None for delete).
    pub object: Option<&'a Value>,
    /// The object before the change (None for create).
    pub old_object: Option<&'a Value>,
    /// Labels of the object's namespace, for `namespaceSelector` (None when cluster-scoped).
    pub namespace_labels: Option<&'a BTreeMap<String, String>>,
    pub dry_run: bool,
    /// The `options` of the request (`CreateOptions`, `UpdateOptions`, `DeleteOptions`).
    pub options: Option<&'a Value>,
}

/// Why admission refused a request; the server turns it into a Status.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum AdmissionError {
    /// A webhook denied the request. `code` is the webhook's `status.code`, raised to 400
    /// when absent or below 400, `reason` its `status.reason` (possibly empty) and
    /// `details` its `status.details`, passed through as kube-apiserver's
    /// `webhookerrors.ToStatusErr` does. `message` is the webhook's explanation
    /// (`status.message`, else `status.reason`), empty if none.
    #[error("{}", denial_text(webhook, message))]
    Denied {
        webhook: String,
        code: u16,
        reason: String,
        message: String,
        details: Option<Value>,
    },
    /// A webhook with `failurePolicy: Fail` could not be called or answered garbage; the
    /// server answers 500 `InternalError`.
    #[error("Internal error occurred: failed calling webhook \"{webhook}\": {message}")]
    CallFailed { webhook: String, message: String },
    /// The server itself refused while running webhooks, whatever their failure policy:
    /// a patch that does not apply, a webhook that cannot honour dry run, a selector that
    /// does not parse. `message` is the complete text clients see.
    #[error("{message}")]
    Refused {
        code: u16,
        reason: &'static str,
        message: String,
    },
}

impl AdmissionError {
    /// A 500 `InternalError`, worded as `apierrors.NewInternalError`.
    fn internal(message: impl std::fmt::Display) -> Self {
        Self::Refused {
            code: 500,
            reason: "InternalError",
            message: format!("Internal error occurred: {message}"),
        }
    }
}

/// The first sentence of a denial, as `webhookerrors.ToStatusErr` words it.
fn denial_text(webhook: &str, message: &str) -> String {
    if message.is_empty() {
        format!("admission webhook \"{webhook}\" denied the request without explanation")
    } else {
        format!("admission webhook \"{webhook}\" denied the request: {message}")
    }
}

/// The outcome of admission that let the request through.
#[derive(Debug, Default)]
pub(crate) struct Admitted {
    /// The object after the mutating webhooks' patches, if any patched it.
    pub mutated: Option<Value>,
    /// Warnings the webhooks returned, to pass on to the client.
    pub warnings: Vec<String>,
}

/// Calls webhooks; holds the HTTPS clients, one per CA bundle, so that connections to a
/// webhook are reused across requests.
#[derive(Default)]
pub(crate) struct Webhooks {
    clients: Clients,
}

/// Why one webhook call produced no reply.
enum Failure {
    /// The call failed (`ErrCallingWebhook` upstream): `failurePolicy` decides.
    Call(String),
    /// Refused whatever the failure policy.
    Refused(AdmissionError),
}

/// One webhook of a configuration, with the defaults of admissionregistration/v1.
struct Hook<'a> {
    name: &'a str,
    spec: &'a Value,
}

impl<'a> Hook<'a> {
    fn all(configurations: &'a [Arc<Value>]) -> Vec<Self> {
        let mut configurations: Vec<&Value> = configurations.iter().map(AsRef::as_ref).collect();
        // kube-apiserver sorts configurations by name; webhooks keep their order inside one.
        configurations.sort_by(|a, b| name_of(a).cmp(name_of(b)));
        configurations
            .into_iter()
            .flat_map(|configuration| {
                configuration
                    .get("webhooks")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
            })
            .map(|spec| Self {
                name: spec.get("name").and_then(Value::as_str).unwrap_or_default(),
                spec,
            })
            .collect()
    }

    fn ignores_failures(&self) -> bool {
        self.spec.get("failurePolicy").and_then(Value::as_str) == Some("Ignore")
    }

    /// `timeoutSeconds`, 10 when unset, kept within the 1..=30 the API validates.
    fn timeout(&self) -> Duration {
        Duration::from_secs(
            self.spec
                .get("timeoutSeconds")
                .and_then(Value::as_u64)
                .unwrap_or(10)
                .clamp(1, 30),
        )
    }
}

fn name_of(object: &Value) -> &str {
    object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

impl Webhooks {
    /// Runs the mutating webhooks of `mutating` (`MutatingWebhookConfiguration` objects),
    /// then `policies` (the admission policies bound to the request, given the object
    /// as mutated; their warnings), then the validating webhooks of `validating`, for
    /// the request `attributes`: kube-apiserver's plugin order.
    pub async fn admit(
        &self,
        mutating: &[Arc<Value>],
        validating: &[Arc<Value>],
        policies: impl FnOnce(Option<&Value>) -> Result<Vec<String>, AdmissionError>,
        attributes: &AdmissionAttributes<'_>,
    ) -> Result<Admitted, AdmissionError> {
        let mut admitted = Admitted::default();
        // Webhooks never see their own configurations, so a broken webhook cannot lock
        // out the request that would remove it.
        if matching::is_exempt(attributes) {
            return Ok(admitted);
        }
        // kube-apiserver's reinvocation: a webhook that changes the object makes every
        // `IfNeeded` webhook called before it due for one more call, after the others.
        let hooks = Hook::all(mutating);
        let mut reinvocable: Vec<usize> = Vec::new();
        let mut due: Vec<usize> = Vec::new();
        for (index, hook) in hooks.iter().enumerate() {
            if self.mutate(hook, attributes, &mut admitted).await? {
                due.append(&mut reinvocable);
            }
            if hook.spec.get("reinvocationPolicy").and_then(Value::as_str) == Some("IfNeeded") {
                reinvocable.push(index);
            }
        }
        due.sort_unstable();
        for index in due {
            self.mutate(&hooks[index], attributes, &mut admitted).await?;
        }

        let object = admitted.mutated.as_ref().or(attributes.object);
        admitted.warnings.extend(policies(object)?);
        let mut called = Vec::new();
        for hook in Hook::all(validating) {
            if matching::should_call(hook.spec, attributes, object)? {
                called.push(hook);
            }
        }
        // kube-apiserver calls validating webhooks in parallel; the first refusal in
        // configuration order wins here, so the outcome does not depend on timing.
        let results =
            futures::future::join_all(called.iter().map(|hook| self.invoke(hook, false, attributes, object))).await;
        let mut refusal = None;
        for (hook, result) in called.iter().zip(results) {
            let Some(reply) = settle(hook, result)? else {
                continue;
            };
            admitted.warnings.extend(reply.warnings);
            if let Some(denied) = reply.denial {
                refusal.get_or_insert(denied);
            }
        }
        refusal.map_or(Ok(admitted), Err)
    }

    /// Calls one mutating webhook if it matches the object as mutated so far, and applies
    /// its patch; whether the patch changed the object.
    async fn mutate(
        &self,
        hook: &Hook<'_>,
        attributes: &AdmissionAttributes<'_>,
        admitted: &mut Admitted,
    ) -> Result<bool, AdmissionError> {
        let object = admitted.mutated.as_ref().or(attributes.object);
        if !matching::should_call(hook.spec, attributes, object)? {
            return Ok(false);
        }
        let Some(reply) = settle(hook, self.invoke(hook, true, attributes, object).await)? else {
            return Ok(false);
        };
        admitted.warnings.extend(reply.warnings);
        if let Some(denied) = reply.denial {
            return Err(denied);
        }
        let Some(patch) = reply.patch.filter(|patch| !patch.0.is_empty()) else {
            return Ok(false);
        };
        let Some(mut patched) = object.cloned() else {
            return Err(AdmissionError::internal(format_args!(
                "admission webhook \"{}\" attempted to modify the object, which is not supported for this operation",
                hook.name
            )));
        };
        json_patch::patch(&mut patched, &patch.0).map_err(AdmissionError::internal)?;
        let changed = object != Some(&patched);
        admitted.mutated = Some(patched);
        Ok(changed)
    }

    /// Calls one webhook that matched the request and checks its reply.
    async fn invoke(
        &self,
        hook: &Hook<'_>,
        mutating: bool,
        attributes: &AdmissionAttributes<'_>,
        object: Option<&Value>,
    ) -> Result<Reply, Failure> {
        if attributes.dry_run {
            match hook.spec.get("sideEffects").and_then(Value::as_str) {
                None => return Err(Failure::Call("Webhook SideEffects is nil".to_owned())),
                Some("None" | "NoneOnDryRun") => {}
                Some(_) => {
                    return Err(Failure::Refused(AdmissionError::Refused {
                        code: 400,
                        reason: "BadRequest",
                        message: format!("admission webhook \"{}\" does not support dry run", hook.name),
                    }));
                }
            }
        }
        let version = ReviewVersion::choose(hook.spec)
            .map_err(|message| Failure::Call(format!("could not create admission objects: {message}")))?;
        let uid = review::new_uid();
        let request = review::request(version, &uid, attributes, object);
        let client_config = hook.spec.get("clientConfig").unwrap_or(&Value::Null);
        let body = self
            .clients
            .post(client_config, request, hook.timeout())
            .await
            .map_err(Failure::Call)?;
        review::reply(version, &uid, mutating, hook.name, &body).map_err(Failure::Call)
    }
}

/// Applies `failurePolicy` to the outcome of one call: None when an ignorable failure
/// was skipped.
fn settle(hook: &Hook<'_>, result: Result<Reply, Failure>) -> Result<Option<Reply>, AdmissionError> {
    match result {
        Ok(reply) => Ok(Some(reply)),
        Err(Failure::Call(message)) if hook.ignores_failures() => {
            tracing::warn!(webhook = hook.name, "Failed calling webhook, failing open: {message}");
            Ok(None)
        }
        Err(Failure::Call(message)) => Err(AdmissionError::CallFailed {
            webhook: hook.name.to_owned(),
            message,
        }),
        Err(Failure::Refused(error)) => Err(error),
    }
}
