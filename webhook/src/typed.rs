//! Typed webhooks: [`Validator`] and [`Defaulter`] of one resource type, and the
//! adapters that decode the request's objects as that type (the paths they are served
//! at are [`registration`](crate::registration)'s).

use std::collections::BTreeMap;
use std::future::Future;
use std::marker::PhantomData;

use futures::future::BoxFuture;
use kube::core::admission::Operation;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::denial::{Denied, Warnings};
use crate::dispatch::Route;
use crate::patch::defaulting_patch;
use crate::registration::{Object, Registration, WebhookKind};
use crate::request::Request;
use crate::review::Verdict;

/// Decides whether objects of type `K` may be created, updated or deleted.
///
/// Collect every problem before answering, as kube-apiserver does, so the user fixes
/// them in one go; say in each what to do instead.
///
/// **Objects being deleted.** While an object has a `deletionTimestamp`, an update that
/// changes nothing but its `metadata` (finalizers removed, labels or annotations
/// changed) is allowed without calling [`validate_update`](Self::validate_update):
/// otherwise an object that became invalid (created before the webhook was
/// registered, or before a rule was tightened) could never lose its finalizers and
/// would stay forever. Set [`VALIDATE_WHILE_DELETING`](Self::VALIDATE_WHILE_DELETING)
/// to see those updates too.
///
/// **What is checked before any method is called.** The request's `kind` and
/// `resource` must be the validator's type (a configuration whose rules match more is
/// refused), and so must the `apiVersion` and `kind` the objects themselves carry;
/// each mismatch is denied with code 400.
///
/// ```
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_webhook::{Denied, FieldError, Request, Validator, Warnings};
///
/// /// ConfigMaps must say who owns them.
/// struct OwnerLabel;
///
/// impl Validator<ConfigMap> for OwnerLabel {
///     async fn validate_create(&self, map: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
///         let labelled = map.metadata.labels.as_ref().is_some_and(|l| l.contains_key("owner"));
///         if !labelled {
///             return Err(Denied::invalid([FieldError::required(
///                 "metadata.labels.owner",
///                 "label the ConfigMap with the team that owns it, for example owner=payments",
///             )]));
///         }
///         Ok(Vec::new())
///     }
///
///     async fn validate_update(&self, _: &ConfigMap, new: &ConfigMap, request: &Request) -> Result<Warnings, Denied> {
///         self.validate_create(new, request).await
///     }
/// }
/// ```
pub trait Validator<K>: Send + Sync + 'static {
    /// The operations the generated webhook configuration sends to this validator:
    /// add [`Operation::Delete`] when you implement
    /// [`validate_delete`](Self::validate_delete).
    const OPERATIONS: &'static [Operation] = &[Operation::Create, Operation::Update];

    /// Whether [`validate_update`](Self::validate_update) also sees updates that only
    /// change the metadata of an object being deleted (default false: they are
    /// allowed, so finalizers can always be removed).
    const VALIDATE_WHILE_DELETING: bool = false;

    /// May `object` be created?
    fn validate_create(&self, object: &K, request: &Request) -> impl Future<Output = Result<Warnings, Denied>> + Send;

    /// May `old` become `new`?
    fn validate_update(
        &self,
        old: &K,
        new: &K,
        request: &Request,
    ) -> impl Future<Output = Result<Warnings, Denied>> + Send;

    /// May `object` be deleted? Allowed unless implemented.
    fn validate_delete(&self, object: &K, request: &Request) -> impl Future<Output = Result<Warnings, Denied>> + Send {
        let _ = (object, request);
        async { Ok(Vec::new()) }
    }
}

/// Fills in what objects of type `K` leave out, on create and update. The server
/// answers with the JSON patch from the object as sent to the object as defaulted, or
/// with no patch when nothing changed; fields `K` does not model are left as sent.
///
/// **Objects being deleted** are not defaulted: while the object sent has a
/// `deletionTimestamp`, the request is allowed with no patch and `apply_defaults` is not
/// called. Defaulting then would change the spec of an object stored without its
/// defaults (created before the webhook was registered) on the update that removes a
/// finalizer, and the validator's exemption for metadata-only updates of deleting
/// objects would no longer apply, so the finalizer could never be removed.
///
/// ```
/// use k8s_openapi::api::apps::v1::Deployment;
/// use wheelhouse_webhook::{Defaulter, Denied, Request};
///
/// struct OneReplica;
///
/// impl Defaulter<Deployment> for OneReplica {
///     async fn apply_defaults(&self, deployment: &mut Deployment, _: &Request) -> Result<(), Denied> {
///         deployment.spec.replicas.get_or_insert(1);
///         Ok(())
///     }
/// }
/// ```
pub trait Defaulter<K>: Send + Sync + 'static {
    /// Sets defaults on `object`; `Err` refuses the request instead.
    ///
    /// controller-runtime calls this method `Default`. Here it is `apply_defaults`:
    /// a method named `default` would clash with `Default::default`, which the
    /// standard prelude brings into every module, as soon as the defaulter (or the
    /// object) also implements `Default` (error E0034, "multiple applicable items").
    fn apply_defaults(&self, object: &mut K, request: &Request) -> impl Future<Output = Result<(), Denied>> + Send;
}

/// Decodes the request's object as `K`; the error is the denial.
fn decode<K: Object>(raw: Option<&RawValue>, which: &str, registration: &Registration) -> Result<K, Verdict> {
    let raw = present(raw, which)?;
    check_object_type(raw, which, registration)?;
    serde_json::from_str(raw.get()).map_err(|e| undecodable(which, registration, &e))
}

fn present<'a>(raw: Option<&'a RawValue>, which: &str) -> Result<&'a RawValue, Verdict> {
    raw.ok_or_else(|| Verdict::bad_request(&format!("the request has no {which}")))
}

/// The `apiVersion` and `kind` an object carries.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ObjectType {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
}

/// Refuses an object whose own `apiVersion` and `kind` are not the webhook's: a
/// review can name one kind and carry another, and a typed decode would not notice
/// (serde ignores both fields).
fn check_object_type(raw: &RawValue, which: &str, registration: &Registration) -> Result<(), Verdict> {
    let types: ObjectType = serde_json::from_str(raw.get()).map_err(|e| undecodable(which, registration, &e))?;
    let gvk = &registration.gvk;
    if types.api_version == gvk.api_version() && types.kind == gvk.kind {
        return Ok(());
    }
    Err(Verdict::bad_request(&format!(
        "request.{which} says apiVersion {:?} kind {:?}, but {} admits apiVersion {:?} kind {:?}",
        types.api_version,
        types.kind,
        registration.path,
        gvk.api_version(),
        gvk.kind
    )))
}

fn undecodable(which: &str, registration: &Registration, error: &serde_json::Error) -> Verdict {
    let gvk = &registration.gvk;
    Verdict::bad_request(&format!(
        "request.{which} does not decode as {}/{} {}: {error}",
        gvk.group, gvk.version, gvk.kind
    ))
}

/// Refuses requests for another type or resource than `K`'s (a configuration whose
/// rules match more than the webhook was written for).
fn check_kind(request: &Request, registration: &Registration) -> Result<(), Verdict> {
    let (want, got) = (&registration.gvk, &request.kind);
    if want != got {
        return Err(Verdict::bad_request(&format!(
            "{} admits {}/{} {}, but the request is for {}/{} {}: check the webhook configuration's rules",
            registration.path, want.group, want.version, want.kind, got.group, got.version, got.kind
        )));
    }
    let resource = &request.resource;
    if resource.group != want.group || resource.version != want.version || resource.resource != registration.plural {
        return Err(Verdict::bad_request(&format!(
            "{} admits resource {}/{} {}, but the request is for resource {}/{} {}: check the webhook configuration's rules",
            registration.path,
            want.group,
            want.version,
            registration.plural,
            resource.group,
            resource.version,
            resource.resource
        )));
    }
    Ok(())
}

/// True when `new` differs from `old` in nothing but `metadata` (compared as the
/// API server sent them, key by key at the top level). Any doubt is a difference.
fn only_metadata_changed(new: &RawValue, old: &RawValue) -> bool {
    fn top_level(raw: &RawValue) -> Option<BTreeMap<String, &RawValue>> {
        serde_json::from_str(raw.get()).ok()
    }
    let (Some(new), Some(old)) = (top_level(new), top_level(old)) else {
        return false;
    };
    let without_metadata = |fields: &BTreeMap<String, &RawValue>| {
        fields
            .iter()
            .filter(|(key, _)| *key != "metadata")
            .map(|(key, value)| (key.clone(), value.get().to_owned()))
            .collect::<Vec<_>>()
    };
    without_metadata(&new) == without_metadata(&old)
}

fn denial(denied: Denied, request: &Request) -> Verdict {
    Verdict::denied(denied.into_status(&request.kind, &request.name))
}

/// A [`Validator`] as a route.
pub(crate) struct Validating<K, V> {
    validator: V,
    registration: Registration,
    _type: PhantomData<fn() -> K>,
}

impl<K: Object, V: Validator<K>> Validating<K, V> {
    pub fn new(validator: V) -> Self {
        Self {
            validator,
            registration: Registration::of::<K>(WebhookKind::Validating, V::OPERATIONS),
            _type: PhantomData,
        }
    }

    async fn decide(
        &self,
        request: &Request,
        object: Option<&RawValue>,
        old: Option<&RawValue>,
    ) -> Result<Verdict, Verdict> {
        check_kind(request, &self.registration)?;
        let decided = match request.operation {
            Operation::Create => {
                let object = decode::<K>(object, "object", &self.registration)?;
                self.validator.validate_create(&object, request).await
            }
            Operation::Update => {
                let new = decode::<K>(object, "object", &self.registration)?;
                let old_raw = present(old, "oldObject")?;
                let old = decode::<K>(Some(old_raw), "oldObject", &self.registration)?;
                let deleting = old.meta().deletion_timestamp.is_some();
                if deleting
                    && !V::VALIDATE_WHILE_DELETING
                    && object.is_some_and(|new| only_metadata_changed(new, old_raw))
                {
                    tracing::debug!("allowed a metadata-only update of an object being deleted without validating it");
                    return Ok(Verdict::allowed(Vec::new()));
                }
                self.validator.validate_update(&old, &new, request).await
            }
            Operation::Delete => {
                let old = decode::<K>(old, "oldObject", &self.registration)?;
                self.validator.validate_delete(&old, request).await
            }
            Operation::Connect => Ok(Vec::new()),
        };
        Ok(match decided {
            Ok(warnings) => Verdict::allowed(warnings),
            Err(denied) => denial(denied, request),
        })
    }
}

impl<K: Object, V: Validator<K>> Route for Validating<K, V> {
    fn admit<'a>(
        &'a self,
        request: &'a Request,
        object: Option<&'a RawValue>,
        old_object: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Verdict> {
        Box::pin(async move {
            self.decide(request, object, old_object)
                .await
                .unwrap_or_else(|refused| refused)
        })
    }

    fn registration(&self) -> Option<&Registration> {
        Some(&self.registration)
    }
}

/// A [`Defaulter`] as a route.
pub(crate) struct Defaulting<K, D> {
    defaulter: D,
    registration: Registration,
    _type: PhantomData<fn() -> K>,
}

impl<K: Object, D: Defaulter<K>> Defaulting<K, D> {
    pub fn new(defaulter: D) -> Self {
        Self {
            defaulter,
            registration: Registration::of::<K>(WebhookKind::Mutating, &[Operation::Create, Operation::Update]),
            _type: PhantomData,
        }
    }

    async fn decide(&self, request: &Request, raw: Option<&RawValue>) -> Result<Verdict, Verdict> {
        check_kind(request, &self.registration)?;
        if !matches!(request.operation, Operation::Create | Operation::Update) {
            return Ok(Verdict::allowed(Vec::new()));
        }
        let original = present(raw, "object")?;
        let mut object = decode::<K>(Some(original), "object", &self.registration)?;
        if object.meta().deletion_timestamp.is_some() {
            tracing::debug!("an object being deleted is not defaulted");
            return Ok(Verdict::allowed(Vec::new()));
        }
        let internal =
            |e: serde_json::Error| Verdict::internal_error(&format!("the defaulted object does not encode: {e}"));
        let before = encode(&object).map_err(internal)?;
        if let Err(denied) = self.defaulter.apply_defaults(&mut object, request).await {
            return Ok(denial(denied, request));
        }
        let after = encode(&object).map_err(internal)?;
        // The typed object is no longer needed: free it before the patch is made.
        drop(object);
        let mut verdict = Verdict::allowed(Vec::new());
        if before != after {
            let (before, after) = (as_raw(&before).map_err(internal)?, as_raw(&after).map_err(internal)?);
            verdict.patch = defaulting_patch(original, before, after).map_err(internal)?;
        }
        Ok(verdict)
    }
}

/// JSON text as a raw value, borrowed.
fn as_raw(encoded: &str) -> Result<&RawValue, serde_json::Error> {
    serde_json::from_str(encoded)
}

/// `object` as JSON in a buffer of exactly its size: a growing buffer doubles past
/// it, and a large object's peak memory with it. Measuring first costs a second
/// serialization, which is cheaper than the memory.
fn encode<K: Serialize>(object: &K) -> Result<String, serde_json::Error> {
    let mut measured = Measure(0);
    serde_json::to_writer(&mut measured, object)?;
    let mut buffer = Vec::with_capacity(measured.0);
    serde_json::to_writer(&mut buffer, object)?;
    // serde_json writes UTF-8 only.
    String::from_utf8(buffer).map_err(serde::ser::Error::custom)
}

/// Counts the bytes written to it.
struct Measure(usize);

impl std::io::Write for Measure {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<K: Object, D: Defaulter<K>> Route for Defaulting<K, D> {
    fn admit<'a>(
        &'a self,
        request: &'a Request,
        object: Option<&'a RawValue>,
        _: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Verdict> {
        Box::pin(async move { self.decide(request, object).await.unwrap_or_else(|refused| refused) })
    }

    fn registration(&self) -> Option<&Registration> {
        Some(&self.registration)
    }
}
