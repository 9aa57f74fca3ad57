//! Calls to registered admission webhooks: mutating webhooks first, in name order, then
//! validating ones, over HTTPS with `AdmissionReview` v1, as kube-apiserver does.
//!
//! `matchPolicy: Equivalent` (admissionregistration/v1's default): a webhook whose rules
//! name another served version of the request's resource (a CRD's other versions) is
//! called with the object converted to that version (`AdmissionAttributes::converter`),
//! `kind` and `resource` of that version and `requestKind` and `requestResource` of the
//! request's; a mutating webhook's patch applies to the converted object, which is then
//! converted back. A conversion that fails is a 500 whatever the failure policy.
//!
//! A mutating webhook with `reinvocationPolicy: IfNeeded` is called once more when a
//! webhook after it changed the object, as kube-apiserver's reinvocation pass does.
//!
//! Known differences from kube-apiserver: `matchConditions` are not evaluated (a webhook
//! is called as if they all held), and built-in resources have no equivalent versions
//! here (`Equivalent` is `Exact` for them).

mod client;
pub(super) mod matching;
pub(super) mod review;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

pub(crate) use self::client::CallError;
use self::client::Clients;
pub(crate) use self::review::new_uid;
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
    /// The other served versions of the resource, in the order their CRD lists them,
    /// for the webhooks that match one of them (`matchPolicy: Equivalent`).
    pub equivalent_versions: &'a [String],
    /// Converts the object to one of `equivalent_versions` (None: nothing converts).
    pub converter: Option<&'a dyn VersionConverter>,
}

/// The future a [`VersionConverter`] returns.
pub(crate) type Converting<'a> = Pin<Box<dyn Future<Output = Result<Value, String>> + Send + 'a>>;

/// Converts an object of the request's resource to another of its versions, for a
/// webhook registered for that version; the error is the conversion's message.
pub(crate) trait VersionConverter: Send + Sync {
    fn convert<'a>(&'a self, object: &'a Value, version: &'a str) -> Converting<'a>;
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
    /// The object the mutating webhooks made does not pass the type's validation:
    /// kube-apiserver validates after mutating admission, so a webhook's invalid
    /// patch is the request's 422 (or whatever the validation answers).
    #[error("{}", .0.message)]
    Invalid(crate::core::ApiError),
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
    /// POSTs `body` to the webhook of `client_config` over the clients admission uses
    /// (same CA bundles, pools and deadline): how conversion webhooks are called.
    pub async fn send(
        &self,
        client_config: &Value,
        body: Vec<u8>,
        timeout: Duration,
    ) -> Result<bytes::Bytes, CallError> {
        self.clients.send(client_config, body, timeout).await
    }

    /// Runs the mutating webhooks of `mutating` (`MutatingWebhookConfiguration` objects),
    /// then `revalidate` on the object they changed, if they did (defaults and the
    /// type's validation, which kube-apiserver runs after mutating admission), then `policies`
    /// (the admission policies bound to the request, given the object as mutated;
    /// their warnings), then the validating webhooks of `validating`, for the request
    /// `attributes`: kube-apiserver's order.
    pub async fn admit(
        &self,
        mutating: &[Arc<Value>],
        validating: &[Arc<Value>],
        revalidate: impl FnOnce(Option<&mut Value>) -> Result<(), AdmissionError>,
        policies: impl FnOnce(Option<&Value>) -> Result<Vec<String>, AdmissionError>,
        attributes: &AdmissionAttributes<'_>,
    ) -> Result<Admitted, AdmissionError> {
        let mut admitted = Admitted::default();
        // Webhooks never see their own configurations, so a broken webhook cannot lock
        // out the request that would remove it.
        if matching::is_exempt(attributes) {
            revalidate(None)?;
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

        revalidate(admitted.mutated.as_mut())?;
        let object = admitted.mutated.as_ref().or(attributes.object);
        admitted.warnings.extend(policies(object)?);
        let mut called = Vec::new();
        for hook in Hook::all(validating) {
            if let Some(version) = matching::version_to_call(hook.spec, attributes, object)? {
                called.push((hook, version));
            }
        }
        // kube-apiserver calls validating webhooks in parallel; the first refusal in
        // configuration order wins here, so the outcome does not depend on timing.
        let results = futures::future::join_all(
            called
                .iter()
                .map(|(hook, version)| self.call_at(hook, false, attributes, object, version)),
        )
        .await;
        let mut refusal = None;
        for ((hook, _), result) in called.iter().zip(results) {
            let Some((reply, _)) = settle(hook, result)? else {
                continue;
            };
            admitted.warnings.extend(reply.warnings);
            if let Some(denied) = reply.denial {
                refusal.get_or_insert(denied);
            }
        }
        refusal.map_or(Ok(admitted), Err)
    }

    /// Calls one mutating webhook if it matches the object as mutated so far (at its own
    /// version or an equivalent one), and applies its patch; whether the patch changed
    /// the object.
    async fn mutate(
        &self,
        hook: &Hook<'_>,
        attributes: &AdmissionAttributes<'_>,
        admitted: &mut Admitted,
    ) -> Result<bool, AdmissionError> {
        let object = admitted.mutated.as_ref().or(attributes.object);
        let Some(version) = matching::version_to_call(hook.spec, attributes, object)? else {
            return Ok(false);
        };
        let called = self.call_at(hook, true, attributes, object, version).await;
        let Some((reply, seen)) = settle(hook, called)? else {
            return Ok(false);
        };
        admitted.warnings.extend(reply.warnings);
        if let Some(denied) = reply.denial {
            return Err(denied);
        }
        let Some(patch) = reply.patch.filter(|patch| !patch.0.is_empty()) else {
            return Ok(false);
        };
        // The patch applies to the object the webhook saw, in its version.
        let Some(mut patched) = seen.or_else(|| object.cloned()) else {
            return Err(AdmissionError::internal(format_args!(
                "admission webhook \"{}\" attempted to modify the object, which is not supported for this operation",
                hook.name
            )));
        };
        json_patch::patch(&mut patched, &patch.0).map_err(AdmissionError::internal)?;
        if version != attributes.version {
            patched = convert(attributes, &patched, attributes.version).await?;
        }
        let changed = object != Some(&patched);
        admitted.mutated = Some(patched);
        Ok(changed)
    }

    /// Calls one webhook that matched the request at `version`: the request's own, or
    /// an equivalent one its objects are converted to first. The reply, and the object
    /// the webhook saw when it was converted.
    async fn call_at(
        &self,
        hook: &Hook<'_>,
        mutating: bool,
        attributes: &AdmissionAttributes<'_>,
        object: Option<&Value>,
        version: &str,
    ) -> Result<(Reply, Option<Value>), Failure> {
        if version == attributes.version {
            return self
                .invoke(hook, mutating, attributes, object, attributes.version)
                .await
                .map(|reply| (reply, None));
        }
        let converted = match object {
            Some(object) => Some(convert(attributes, object, version).await.map_err(Failure::Refused)?),
            None => None,
        };
        let old = match attributes.old_object {
            Some(old) => Some(convert(attributes, old, version).await.map_err(Failure::Refused)?),
            None => None,
        };
        let at_version = AdmissionAttributes {
            version,
            object: converted.as_ref(),
            old_object: old.as_ref(),
            ..*attributes
        };
        let reply = self
            .invoke(hook, mutating, &at_version, converted.as_ref(), attributes.version)
            .await?;
        Ok((reply, converted))
    }

    /// Calls one webhook that matched the request and checks its reply;
    /// `request_version` is the version the request itself named.
    async fn invoke(
        &self,
        hook: &Hook<'_>,
        mutating: bool,
        attributes: &AdmissionAttributes<'_>,
        object: Option<&Value>,
        request_version: &str,
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
        let request = review::request(version, &uid, attributes, object, request_version);
        let client_config = hook.spec.get("clientConfig").unwrap_or(&Value::Null);
        let body = self
            .clients
            .post(client_config, request, hook.timeout())
            .await
            .map_err(Failure::Call)?;
        review::reply(version, &uid, mutating, hook.name, &body).map_err(Failure::Call)
    }
}

/// `object` converted to `version` of the request's resource: a failure is kube-apiserver's
/// 500 `InternalError`, whatever the webhook's failure policy.
async fn convert(attributes: &AdmissionAttributes<'_>, object: &Value, version: &str) -> Result<Value, AdmissionError> {
    let converter = attributes
        .converter
        .ok_or_else(|| AdmissionError::internal(format_args!("unable to convert to {version}: unknown kind")))?;
    converter
        .convert(object, version)
        .await
        .map_err(AdmissionError::internal)
}

/// Applies `failurePolicy` to the outcome of one call: None when an ignorable failure
/// was skipped.
fn settle<T>(hook: &Hook<'_>, result: Result<T, Failure>) -> Result<Option<T>, AdmissionError> {
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
