//! The write verbs: create, update, patch, delete and deletecollection, as
//! kube-apiserver carries them out, with its status codes and messages.
//!
//! # The steps of a write
//!
//! Every write goes through the same steps, in this order, and each can end it with the
//! error kube-apiserver would send:
//!
//! 1. **Decode** the body: JSON (or YAML for server-side apply) whose `kind` and
//!    `apiVersion` are the path's (400 otherwise). Protobuf bodies arrive already
//!    transcoded to JSON by the dispatcher (feature `kubectl`), or are refused with 415.
//! 2. **Compute the new object**: a create's body; for an update, the PUT body, or the
//!    patch (merge, JSON, strategic merge, apply) applied to the current object, or new
//!    replicas written through `/scale`. `fieldValidation` then reports the fields the
//!    type does not declare (a 400 when Strict, `Warning` headers when Warn).
//! 3. **Prepare** it (`crate::lifecycle`): the fields the server owns (name from
//!    `generateName`, uid, creation time, generation, managed fields), what an update
//!    may not change (immutable metadata, status behind its subresource), then the
//!    type's **defaults** and **validation**: a built-in type's rules, or a CRD's
//!    structural schema and CEL rules (422 with causes).
//! 4. **Admission webhooks**: the mutating ones, then the validating ones, over HTTPS
//!    (`crate::admission`); then, for a custom resource written in a version other than
//!    its CRD's storage version, **conversion** to the storage version
//!    (`crate::conversion`), the stored object being converted back for the answer. They run with no lock held: they are network calls that may
//!    take seconds, and the rest of the server keeps serving meanwhile. An object a
//!    mutating webhook changed is defaulted and validated again before the validating
//!    webhooks see it, as kube-apiserver validates after mutating admission (an
//!    invalid patch is the request's 422). Step 3 keeps its validation's refusal
//!    aside until then, so a webhook may repair an object sent invalid, as on
//!    kube-apiserver; the refusal stands when no webhook changes the object. (A PUT or
//!    an apply that creates still validates before its webhooks.)
//! 5. **Conflict checks and storage**, under the server's lock, in one critical section:
//!    the namespace exists and is not terminating, the name is free (409
//!    `AlreadyExists`), the in-process admission plugins (limit ranges, priority,
//!    default classes) read what they need from the store, and, for an update, the
//!    object is still the one step 2 started from. Then the store assigns the next
//!    revision as the object's `resourceVersion`.
//! 6. **Watch fan-out**: in the same critical section the store appends the write's
//!    event to its history and hands it to every open watch of the resource
//!    (`crate::store`), so a watcher sees writes in revision order, each once. The
//!    watch channels are unbounded: a slow watcher never slows a write down.
//!
//! # Optimistic concurrency
//!
//! Because step 4 holds no lock, another write can land between reading the current
//! object and storing the new one. An update therefore runs kube-apiserver's
//! `GuaranteedUpdate` loop: under the lock it checks that the stored object is still
//! the very one it read (the store never changes an object in place, so identity of
//! the shared pointer means "unchanged"), and otherwise starts again from step 2 with
//! the newer object, at most [`MAX_ATTEMPTS`] times. A request that names the
//! `resourceVersion` it read is not retried: the precondition fails with 409 Conflict
//! instead, which is what a client's read-modify-write loop expects.
//!
//! Deletes (`crate::lifecycle::deletion`) check preconditions, run the webhooks, and
//! then either remove the object or, when finalizers hold it, set its
//! `deletionTimestamp` and leave it to whoever owns the finalizers.

use std::sync::Arc;

use bytes::Bytes;
use http::{Response, StatusCode};
use serde_json::{Value, json};

use crate::admission::{AdmissionAttributes, AdmissionError, Admitted, Converting, Operation, VersionConverter};
use crate::core::{ApiError, ResourceType, ResponseBody, Verb, json_response};
use crate::lifecycle::deletion::DeleteOptions;
use crate::lifecycle::{
    check_body_type, check_precondition, check_type, commit_create, commit_update, namespaces, now,
    prepare_new_validated_later, prepare_update_validated_later,
};
use crate::patch::{self, PatchError};
use crate::request::Target;
use crate::resources::catalogue::{to_storage, to_view};
use crate::state::{ApiServer, State};
use crate::store::object_key;

mod desired;
mod options;

/// How many times an update is retried when the object changes under it (the real
/// server's `GuaranteedUpdate` loop); only requests without a precondition retry.
const MAX_ATTEMPTS: usize = 16;

/// One write request, as the dispatcher parsed it.
pub(crate) struct Write<'a> {
    pub server: &'a ApiServer,
    /// The verb, resource, namespace, name, subresource and query parameters.
    pub target: &'a Target,
    /// The body, as JSON (the dispatcher transcodes protobuf bodies).
    pub body: &'a Bytes,
    /// Which patch type a PATCH is, and whether a body is protobuf.
    pub content_type: &'a str,
    /// The field manager when the request names none (`kubectl`, `kube-rs`...).
    pub user_agent: &'a str,
}

/// The largest apply body whose bad YAML is worded as libyaml words it (see
/// `applied_config`).
const YAML_WORDED_UP_TO: usize = 8 * 1024;

impl Write<'_> {
    /// Carries out the write; the response, or the error kube-apiserver would send.
    /// A create on a subresource or of a resource that is never stored (a binding,
    /// an eviction, a review, a token) acts rather than stores.
    pub async fn run(&self) -> Result<Response<ResponseBody>, ApiError> {
        if self.content_type.starts_with("application/vnd.kubernetes.protobuf") {
            return Err(ApiError::new(
                415,
                "UnsupportedMediaType",
                "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (this embedded server does not decode protobuf)",
            ));
        }
        let patch_type = match self.target.verb {
            Verb::Patch => Some(options::patch_type(self.target, self.content_type)?),
            _ => None,
        };
        // The handlers' `Namer.Name`: an update or patch of a custom resource's
        // collection (routed by verb alone) names no object.
        if matches!(self.target.verb, Verb::Update | Verb::Patch) && self.target.name.is_none() {
            return Err(ApiError::bad_request("name must be provided"));
        }
        options::validate(self.target, patch_type)?;
        match self.target.verb {
            Verb::Create if self.target.subresource.is_some() || !self.resource().stored() => self.act().await,
            Verb::Create => self.create().await,
            Verb::Update | Verb::Patch => self.update().await,
            Verb::Delete => self.delete().await,
            Verb::DeleteCollection => self.delete_collection().await,
            Verb::Get | Verb::List | Verb::Watch => Err(ApiError::method_not_allowed()),
        }
    }

    fn resource(&self) -> &ResourceType {
        &self.target.resource
    }

    /// The object in its CRD's storage version, as it is stored (`crate::conversion`).
    async fn to_storage_version(&self, object: Value) -> Result<Value, ApiError> {
        crate::conversion::to_storage(&self.server.shared.webhooks, self.resource(), object).await
    }

    /// A stored object as the requested version serves it, through its CRD's
    /// conversion webhook where it has one.
    async fn as_requested(&self, object: Arc<Value>) -> Result<Arc<Value>, ApiError> {
        crate::conversion::for_read(&self.server.shared.webhooks, self.resource(), object).await
    }

    fn name(&self) -> &str {
        self.target.name.as_deref().unwrap_or_default()
    }

    fn namespace(&self) -> &str {
        self.target.namespace.as_deref().unwrap_or_default()
    }

    /// The field manager: the `fieldManager` parameter, else the user agent's program
    /// name, as the real server derives it.
    fn manager(&self) -> String {
        if let Some(manager) = self.target.param("fieldManager") {
            return manager.to_owned();
        }
        let agent = self.user_agent.split('/').next().unwrap_or_default();
        if agent.is_empty() {
            "unknown".to_owned()
        } else {
            agent.to_owned()
        }
    }

    /// The body as JSON. The body of a create or an update is read as its media type
    /// says, JSON or YAML, as kube-apiserver's serializers read it, and any other type
    /// is a 415 (a patch's media type names its patch type instead).
    fn body_json(&self) -> Result<Value, ApiError> {
        if matches!(self.target.verb, Verb::Create | Verb::Update) {
            match self.content_type.split(';').next().unwrap_or_default().trim() {
                "application/json" | "" => {}
                "application/yaml" => {
                    let text = std::str::from_utf8(self.body)
                        .map_err(|_| ApiError::bad_request("the object provided is unrecognized: not UTF-8"))?;
                    return serde_saphyr::from_str(text)
                        .map_err(|e| ApiError::bad_request(format!("the object provided is unrecognized: yaml: {e}")));
                }
                _ => {
                    return Err(ApiError::new(
                        415,
                        "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
                    ));
                }
            }
        }
        crate::core::decode_json(self.body).map_err(|why| self.unrecognized(&format!("json parse error: {why}")))
    }

    /// The 400 of a create or update body the decoder cannot read as an object: kube's
    /// `couldn't get version/kind` (`transformDecodeError` without a kind), quoting the
    /// body's start.
    fn unrecognized(&self, why: &str) -> ApiError {
        ApiError::bad_request(format!(
            "the object provided is unrecognized (must be of type {}): couldn't get version/kind; {why} ({})",
            self.resource().kind,
            crate::core::summarize_data(self.body)
        ))
    }

    /// The body as an object of this resource: kind and apiVersion must be the ones of
    /// the path, as the real server checks. A built-in object may leave them out (and
    /// a `null` body is an empty object): the decoder takes them from the path, as
    /// kube-apiserver's does; a custom resource must name its kind.
    fn body_object(&self) -> Result<Value, ApiError> {
        let mut object = self.body_json()?;
        if object.is_null() && !self.resource().custom {
            object = json!({});
        }
        if !object.is_object() {
            if object.is_null() {
                // A custom resource's `null` reaches the unstructured decoder, which
                // finds no kind in it.
                return Err(ApiError::bad_request(format!(
                    "the object provided is unrecognized (must be of type {}): Object 'Kind' is missing in 'null' ({})",
                    self.resource().kind,
                    crate::core::summarize_data(self.body)
                )));
            }
            return Err(self.unrecognized(&format!(
                "json parse error: json: cannot unmarshal {} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
                crate::core::go_json_type(&object)
            )));
        }
        let state = self.server.shared.state.lock();
        check_body_type(&state.registry, self.resource(), &mut object, self.body)?;
        Ok(object)
    }

    /// Runs the admission webhooks; the object they let through (mutated or not), and
    /// their warnings for the response.
    async fn admit(
        &self,
        operation: Operation,
        object: Option<&Value>,
        old: Option<&Value>,
    ) -> Result<Admitted, ApiError> {
        let options = self.write_options(operation);
        self.admit_with(operation, object, old, Some(&options), None).await
    }

    /// [`Self::admit`] of a new object whose validation refused it (`invalid`):
    /// the mutating webhooks may make it valid, and the refusal stands unless they
    /// change it into an object that passes.
    async fn admit_invalid(&self, object: &Value, invalid: Option<&ApiError>) -> Result<Admitted, ApiError> {
        let options = self.write_options(Operation::Create);
        self.admit_with(Operation::Create, Some(object), None, Some(&options), invalid)
            .await
    }

    /// The `CreateOptions` or `UpdateOptions` of the request, as admission sees them: a
    /// patch's options become `UpdateOptions` (or `CreateOptions` when an apply creates),
    /// with what the query said of `dryRun`, `fieldManager` and `fieldValidation`.
    fn write_options(&self, operation: Operation) -> Value {
        let kind = if operation == Operation::Create {
            "CreateOptions"
        } else {
            "UpdateOptions"
        };
        let mut options = json!({"kind": kind, "apiVersion": "meta.k8s.io/v1"});
        if let Some(dry_run) = self.target.param("dryRun") {
            options["dryRun"] = json!([dry_run]);
        }
        for field in ["fieldManager", "fieldValidation"] {
            if let Some(value) = self.target.param(field) {
                options[field] = json!(value);
            }
        }
        options
    }

    /// [`Self::admit`] with the request's options (`DeleteOptions` for a delete), and
    /// the validation's refusal of the object when it was deferred to after the
    /// mutating webhooks.
    async fn admit_with(
        &self,
        operation: Operation,
        object: Option<&Value>,
        old: Option<&Value>,
        options: Option<&Value>,
        invalid: Option<&ApiError>,
    ) -> Result<Admitted, ApiError> {
        if let (Operation::Create | Operation::Update, Some(object)) = (operation, object) {
            self.server.record_owner_reference_checks(self.target, object, old);
        }
        let (mutating, validating, policies, namespace_labels) = {
            let state = self.server.shared.state.lock();
            let configs = |plural: &str| {
                state.store.values(&crate::core::GroupResource {
                    group: "admissionregistration.k8s.io".into(),
                    resource: plural.into(),
                })
            };
            let mutating = configs("mutatingwebhookconfigurations");
            let validating = configs("validatingwebhookconfigurations");
            let policies =
                crate::admission::policies::collect(&state.store, &state.registry, self.target.namespace.as_deref());
            if mutating.is_empty() && validating.is_empty() && policies.is_empty() {
                // The usual case: no webhooks or policies, nothing more to read for them.
                return invalid.map_or_else(|| Ok(Admitted::default()), |invalid| Err(invalid.clone()));
            }
            let namespace_labels = self.namespace_labels(&state, object.or(old));
            (mutating, validating, policies, namespace_labels)
        };
        let resource = self.resource();
        let name = object
            .or(old)
            .and_then(|o| o["metadata"]["name"].as_str())
            .unwrap_or_else(|| self.name())
            .to_owned();
        let attributes = AdmissionAttributes {
            operation,
            group: &resource.group,
            version: &resource.version,
            kind: &resource.kind,
            resource: &resource.plural,
            subresource: self.target.subresource.as_deref(),
            namespace: self.target.namespace.as_deref(),
            name: &name,
            object,
            old_object: old,
            namespace_labels: namespace_labels.as_ref(),
            // A delete's options say whether it is a dry run, not the query.
            dry_run: options.map_or_else(|| self.target.dry_run(), |o| o["dryRun"].is_array()),
            options,
            equivalent_versions: resource.versions.as_deref().map_or(&[], |v| v.served.as_slice()),
            converter: Some(&Converter {
                server: self.server,
                resource,
            }),
        };
        // What a webhook's patch made is defaulted and validated as the request's own
        // object was (kube-apiserver's strategy runs after mutating admission).
        let subresource = self.subresource_for_update();
        let revalidate = |object: Option<&mut Value>| match object {
            Some(object) if matches!(operation, Operation::Create | Operation::Update) => {
                crate::lifecycle::revalidate(resource, object, old, subresource).map_err(AdmissionError::Invalid)
            }
            // Left as it came: the refusal, if its validation was deferred.
            _ => invalid.map_or(Ok(()), |invalid| Err(AdmissionError::Invalid(invalid.clone()))),
        };
        self.server
            .shared
            .webhooks
            .admit(
                &mutating,
                &validating,
                revalidate,
                |object| crate::admission::policies::validate(&policies, &attributes, object),
                &attributes,
            )
            .await
            .map_err(|error| match &error {
                // The webhook's status as it wrote it, its message prefixed
                // (`webhookerrors.ToStatusErr`): no reason is made up for it.
                AdmissionError::Denied {
                    code, reason, details, ..
                } => {
                    let mut denied = ApiError::new(*code, reason.clone(), error.to_string());
                    denied.details.clone_from(details);
                    denied
                }
                AdmissionError::CallFailed { .. } => ApiError::new(500, "InternalError", error.to_string()),
                AdmissionError::Refused { code, reason, message } => ApiError::new(*code, *reason, message.clone()),
                AdmissionError::Invalid(invalid) => invalid.clone(),
            })
    }

    /// Labels of the namespace an object is in (or of the namespace itself).
    fn namespace_labels(
        &self,
        state: &State,
        object: Option<&Value>,
    ) -> Option<std::collections::BTreeMap<String, String>> {
        let namespace = if self.resource().plural == "namespaces" && self.resource().group.is_empty() {
            return object.map(labels_of);
        } else {
            self.target.namespace.as_deref()?
        };
        let found = state.store.get(&namespaces(), "", namespace)?;
        Some(labels_of(&found))
    }

    /// `fieldValidation` on the request's object (`objects::field_validation`).
    fn check_unknown_fields(&self, object: &Value) -> Result<Vec<String>, ApiError> {
        let mode = self.target.param("fieldValidation");
        // The fields a JSON body names twice are the strict decoder's to report too.
        let json_body = matches!(self.target.verb, Verb::Create | Verb::Update)
            && matches!(
                self.content_type.split(';').next().unwrap_or_default().trim(),
                "application/json" | ""
            );
        let duplicates = if json_body {
            crate::objects::duplicate_fields(self.body)
        } else {
            Vec::new()
        };
        crate::objects::field_validation(self.resource(), mode, object, &duplicates)
    }

    /// A create that acts rather than stores (a binding, an eviction, a review), after
    /// admission sees it.
    async fn act(&self) -> Result<Response<ResponseBody>, ApiError> {
        // A review is decoded as any built-in body is (kind and apiVersion default to
        // the path's, `null` is an empty review); the other actions read theirs.
        let is_review = !self.resource().stored() && self.target.subresource.is_none();
        let body = if is_review {
            self.body_object()?
        } else {
            self.body_json()?
        };
        if !body.is_object() {
            return Err(ApiError::bad_request(
                "the object provided is unrecognized: expected a JSON object",
            ));
        }
        let admitted = self.admit(Operation::Create, Some(&body), None).await?;
        let body = admitted.mutated.unwrap_or(body);
        let (status, answer) = crate::api::actions::create(self.server, self.target, &body, &self.manager())?;
        Ok(with_warnings(json_response(status, &answer), &admitted.warnings))
    }

    /// A create, step by step (see the module docs): decode, report unknown fields,
    /// prepare (server fields, defaults, validation), webhooks, then store under the
    /// lock, where the namespace and name are checked and the plugins run.
    async fn create(&self) -> Result<Response<ResponseBody>, ApiError> {
        let object = self.body_object()?;
        // The storage layer refuses a new object that names a resourceVersion (a
        // plain error: a 500), once admission and validation have passed; a dry run
        // never reaches it. One that is not a number is cleared like any other.
        let names_version = object["metadata"]["resourceVersion"]
            .as_str()
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|v| v != 0);
        let mut warnings = self.check_unknown_fields(&object)?;
        let mut object = object;
        warnings.extend(crate::lifecycle::dedup_owner_references(&mut object, false));
        let manager = self.manager();
        // Validation waits for the mutating webhooks, which may repair the object.
        let (mut object, prepared, invalid) = prepare_new_validated_later(
            self.resource(),
            self.target.namespace.as_deref(),
            object,
            &manager,
            crate::objects::Decoding::Body,
        )?;
        warnings.extend(prepared);
        name_requester(self.resource(), &mut object, self.server);
        let admitted = self.admit_invalid(&object, invalid.as_ref()).await?;
        // A PUT that creates (Leases, ...) is the registry's update writing a new key,
        // which never asks that question.
        if names_version && self.target.verb == Verb::Create && !self.target.dry_run() {
            return Err(ApiError::new(
                500,
                "",
                "resourceVersion should not be set on objects to be created",
            ));
        }
        let object = admitted.mutated.unwrap_or(object);
        warnings.extend(strategy_warnings(self.resource(), &object, None));
        let object = self.to_storage_version(to_storage(self.resource(), object)).await?;
        let stored = {
            let mut state = self.server.shared.state.lock();
            commit_create(&mut state, self.resource(), object, self.target.dry_run())?
        };
        warnings.extend(admitted.warnings);
        let stored = self.as_requested(stored).await?;
        let stored = to_view(self.resource(), &stored);
        Ok(with_warnings(json_response(StatusCode::CREATED, &stored), &warnings))
    }

    /// Update and patch: compute the new object from the current one, prepare and
    /// admit it, and store it if the object has not changed meanwhile, else start over
    /// from the newer object (the `GuaranteedUpdate` loop of the module docs). An update
    /// that changes nothing is answered with the current object and stores nothing, so
    /// it makes no new revision and no watch event, as on a real server.
    async fn update(&self) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let group_resource = resource.group_resource();
        let manager = self.manager();
        let now = now();
        if self.target.verb == Verb::Update {
            // The update handler decodes the body before it compares names or looks
            // anything up: a field of the wrong type is its 400, before the 409 of a
            // stale resourceVersion.
            if self.target.subresource.as_deref() != Some("scale") {
                let mut decoded = self.body_object()?;
                crate::objects::decode(resource, &mut decoded)?;
            }
            self.check_names_in_body()?;
        }
        for _ in 0..MAX_ATTEMPTS {
            let current = self
                .server
                .shared
                .state
                .lock()
                .store
                .get(&group_resource, self.namespace(), self.name());
            let Some(stored) = current else {
                return self.create_missing(&manager).await;
            };
            // The object as this version serves it; what is stored is converted back.
            let current = self.as_requested(stored.clone()).await?;
            let current = to_view(resource, &current);
            let scale = self.target.subresource.as_deref() == Some("scale");
            let mut desired = if scale {
                self.desired_scale(&current)?
            } else {
                self.desired(&current, &manager, &now)?
            };
            check_precondition(resource, &current, &desired, self.target.verb)?;
            let mut warnings = self.check_unknown_fields(&desired)?;
            let patched = self.target.verb == Verb::Patch;
            warnings.extend(crate::lifecycle::dedup_owner_references(&mut desired, patched));
            // Validation waits for the mutating webhooks, which may repair the object.
            let prepared = prepare_update_validated_later(
                resource,
                &current,
                desired,
                self.subresource_for_update(),
                &manager,
                &now,
                self.is_apply(),
            )?;
            let (new, invalid) = match prepared {
                Some(prepared) => prepared,
                // kube-apiserver compares the bytes it would store: an object still in an
                // older version is rewritten in the storage version (what a storage
                // migration's no-op update relies on), even when nothing else changed.
                None if crate::conversion::outside_storage_version(resource, &stored) => {
                    (current.clone().into_owned(), None)
                }
                // Nothing changed, but the request was decoded and judged all the same.
                None => {
                    if self.main_strategy() {
                        warnings.extend(strategy_warnings(resource, &current, Some(&current)));
                    }
                    return Ok(with_warnings(self.respond_update(StatusCode::OK, &current), &warnings));
                }
            };
            let options = self.write_options(Operation::Update);
            let admitted = self
                .admit_with(
                    Operation::Update,
                    Some(&new),
                    Some(&current),
                    Some(&options),
                    invalid.as_ref(),
                )
                .await?;
            let new = admitted.mutated.unwrap_or(new);
            if self.main_strategy() {
                warnings.extend(strategy_warnings(resource, &new, Some(&current)));
            }
            let mut new = self.to_storage_version(to_storage(resource, new)).await?;
            let stored = {
                let mut state = self.server.shared.state.lock();
                if self.target.subresource.is_none() {
                    crate::admission::plugins::admit(&state.store, resource, &mut new, Some(&stored))?;
                }
                let latest = state.store.get(&group_resource, self.namespace(), self.name());
                match latest {
                    None => return Err(ApiError::not_found(resource, self.name())),
                    Some(latest) if !Arc::ptr_eq(&latest, &stored) => continue,
                    Some(_) => {}
                }
                crate::lifecycle::charge_quota(
                    &mut state,
                    resource,
                    crate::lifecycle::QuotaOperation::Update,
                    self.target.subresource.as_deref(),
                    &new,
                    Some(&stored),
                    self.target.dry_run(),
                )?;
                commit_update(&mut state, resource, new, self.target.dry_run())
            };
            warnings.extend(admitted.warnings);
            let stored = self.as_requested(stored).await?;
            let stored = to_view(resource, &stored);
            return Ok(with_warnings(self.respond_update(StatusCode::OK, &stored), &warnings));
        }
        Err(ApiError::stale(resource, self.name()))
    }

    /// Whether the write goes through the type's main strategy, whose warnings it
    /// gets: the main endpoint, or `/scale`, which kube writes through the same store.
    fn main_strategy(&self) -> bool {
        matches!(self.target.subresource.as_deref(), None | Some("scale"))
    }

    /// The answer to an update: the object, or its `Scale` for a write of `/scale`.
    fn respond_update(&self, status: StatusCode, object: &Value) -> Response<ResponseBody> {
        if self.target.subresource.as_deref() == Some("scale") {
            return json_response(status, &crate::api::scale::to_scale(self.resource(), object));
        }
        json_response(status, object)
    }

    /// The subresource an update goes through, as managed fields name it: `status`,
    /// `scale` (which writes the spec; the object is split as on the main endpoint) or
    /// a namespace's `finalize`, a pod's `ephemeralcontainers`.
    fn subresource_for_update(&self) -> Option<&str> {
        self.target
            .subresource
            .as_deref()
            .filter(|s| matches!(*s, "status" | "scale" | "finalize" | "ephemeralcontainers"))
    }

    /// Whether the request is a server-side apply (`PATCH` with an apply content type).
    fn is_apply(&self) -> bool {
        self.target.verb == Verb::Patch && self.content_type.starts_with("application/apply-patch")
    }

    /// A patch or PUT of an object that does not exist: server-side apply creates it,
    /// and so does a PUT of the resources whose strategy allows create on update.
    async fn create_missing(&self, manager: &str) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let put_creates = self.target.verb == Verb::Update && resource.creates_on_update();
        if !(self.is_apply() || put_creates) || self.target.subresource.is_some() {
            return Err(ApiError::not_found(resource, self.name()));
        }
        if put_creates {
            return self.create().await;
        }
        let applied = self.applied_config()?;
        let now = now();
        let writer = crate::lifecycle::writer(resource, manager, &now, None);
        let object = patch::apply::apply(None, &applied, self.target.flag("force"), &writer).map_err(patch_error)?;
        let mut object = desired::converted_from_apply(resource, &applied, object)?;
        // The handler's `checkName` of the object the apply made (its typed conversions
        // fail first): nothing exists to lend it a name, so the configuration must.
        self.check_name(object["metadata"]["name"].as_str().unwrap_or_default())?;
        let deduped = crate::lifecycle::dedup_owner_references(&mut object, true);
        let managed_fields = object["metadata"]["managedFields"].clone();
        let (mut object, prepared) = crate::lifecycle::prepare_new_as(
            resource,
            self.target.namespace.as_deref(),
            object,
            manager,
            crate::objects::Decoding::Applied,
        )?;
        let mut warnings: Vec<String> = deduped.into_iter().chain(prepared).collect();
        name_requester(resource, &mut object, self.server);
        // prepare_new records an Update entry for a plain create; an apply owns its fields as Apply.
        object["metadata"]["managedFields"] = managed_fields;
        let admitted = self.admit(Operation::Create, Some(&object), None).await?;
        let object = admitted.mutated.unwrap_or(object);
        warnings.extend(strategy_warnings(resource, &object, None));
        let object = self.to_storage_version(to_storage(resource, object)).await?;
        let stored = {
            let mut state = self.server.shared.state.lock();
            commit_create(&mut state, resource, object, self.target.dry_run())?
        };
        warnings.extend(admitted.warnings);
        let stored = self.as_requested(stored).await?;
        let stored = to_view(resource, &stored);
        Ok(with_warnings(json_response(StatusCode::CREATED, &stored), &warnings))
    }

    /// The apply configuration of a server-side apply: a YAML or JSON object of this
    /// resource, named as the URL names it, from a request that names its field manager.
    fn applied_config(&self) -> Result<Value, ApiError> {
        let text = std::str::from_utf8(self.body).map_err(|_| ApiError::bad_request("the apply patch is not UTF-8"))?;
        // A body serde-saphyr refuses is worded as Go's libyaml words it. libyaml's
        // time grows faster than linearly with nesting, and a client controls the body,
        // so only a small body is asked (an apply's bad YAML is a few lines); a larger
        // one keeps serde-saphyr's words.
        let applied: Value = serde_saphyr::from_str(text).map_err(|e| {
            match (text.len() <= YAML_WORDED_UP_TO)
                .then(|| crate::core::yaml_syntax_error(text))
                .flatten()
            {
                Some(why) => {
                    ApiError::bad_request(format!("error decoding YAML: error converting YAML to JSON: {why}"))
                }
                None => ApiError::bad_request(format!("error decoding YAML: {e}")),
            }
        })?;
        // An empty document decodes as an empty map.
        let applied = if applied.is_null() { json!({}) } else { applied };
        if !applied.is_object() {
            // sigs.k8s.io/yaml's words for a document that is not a map.
            return Err(ApiError::bad_request(format!(
                "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                crate::core::go_json_type(&applied)
            )));
        }
        // The field manager's version check: the configuration is of the endpoint's
        // group, version and kind (`invalid object type: /v1, Kind=`, its GVK printed).
        let resource = self.resource();
        let api_version = applied["apiVersion"].as_str().unwrap_or_default();
        let kind = applied["kind"].as_str().unwrap_or_default();
        if kind != resource.kind || api_version != resource.api_version() {
            let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
            return Err(ApiError::bad_request(format!(
                "invalid object type: {group}/{version}, Kind={kind}"
            )));
        }
        check_type(resource, &applied)?;
        Ok(applied)
    }

    /// A PUT's body must name the object of the URL, whether it exists or not
    /// (`checkName` in kube-apiserver's `handlers/rest.go`).
    fn check_names_in_body(&self) -> Result<(), ApiError> {
        let body = self.body_json()?;
        let metadata = &body["metadata"];
        // The namespace first (`rest.EnsureObjectNamespaceMatchesRequestNamespace`, in
        // the update handler since after 1.19), then the name (`checkName`).
        let namespace = metadata["namespace"].as_str().unwrap_or_default();
        if !self.namespace().is_empty() && !namespace.is_empty() && namespace != self.namespace() {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        self.check_name(metadata["name"].as_str().unwrap_or_default())
    }

    /// The handlers' `checkName`: the object a PUT or a patch makes names the object of
    /// the URL (an object without a name is one whose name cannot be determined).
    fn check_name(&self, name: &str) -> Result<(), ApiError> {
        if name.is_empty() {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({} based on URL) was undeterminable: name must be provided",
                self.name()
            )));
        }
        if name != self.name() {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({name}) does not match the name on the URL ({})",
                self.name()
            )));
        }
        Ok(())
    }

    /// The `DeleteOptions` of a delete or deletecollection: its body, else its query.
    fn delete_options(&self) -> Result<DeleteOptions, ApiError> {
        let body = (!self.body.is_empty()).then_some(self.body);
        DeleteOptions::read(body.map(|b| &b[..]), self.target)
    }

    /// A delete: the object must exist; the webhooks see it with the options; then,
    /// under the lock, preconditions, finalizers and propagation decide whether it goes
    /// now or is marked for deletion (`crate::lifecycle::deletion`).
    async fn delete(&self) -> Result<Response<ResponseBody>, ApiError> {
        let options = self.delete_options()?;
        let answer = self.delete_object(&options).await;
        with_delete_warnings(self.resource(), &options, answer)
    }

    /// [`Self::delete`] once its options are read.
    async fn delete_object(&self, options: &DeleteOptions) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let current =
            self.server
                .shared
                .state
                .lock()
                .store
                .get(&resource.group_resource(), self.namespace(), self.name());
        let current = current.ok_or_else(|| ApiError::not_found(resource, self.name()))?;
        let current = self.as_requested(current).await?;
        self.admit_delete(&current, options).await?;
        let deleted = {
            let mut state = self.server.shared.state.lock();
            crate::lifecycle::deletion::delete(&mut state, resource, self.namespace(), self.name(), options)?
        };
        // An object still there (finalizers hold it) is answered in the requested version.
        if let crate::lifecycle::deletion::Deleted::Pending(object) = &deleted
            && crate::conversion::by_webhook(resource)
        {
            let object = self.as_requested(object.clone()).await?;
            return Ok(json_response(StatusCode::OK, &object));
        }
        Ok(json_response(StatusCode::OK, &deleted.response(resource)))
    }

    /// Runs the admission webhooks of deleting `current`.
    async fn admit_delete(&self, current: &Value, options: &DeleteOptions) -> Result<(), ApiError> {
        let options = options.to_json();
        self.admit_with(Operation::Delete, None, Some(current), Some(&options), None)
            .await
            .map(drop)
    }

    /// A deletecollection: the objects the selectors (and a shard selector) match when
    /// the request arrives, each admitted and deleted as a delete of its own, taking the
    /// lock once per object so other requests interleave. An object that went away or
    /// whose precondition fails meanwhile is skipped, not an error.
    async fn delete_collection(&self) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let labels = wheelhouse_selector::LabelSelector::parse(self.target.param("labelSelector").unwrap_or_default())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let fields = wheelhouse_selector::FieldSelector::parse_for(
            self.target.param("fieldSelector").unwrap_or_default(),
            &resource.selectable_fields(),
        )
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let shard = crate::api::shard::requested(self.server.options(), self.target)?;
        let options = self.delete_options()?;
        let selected = |o: &Value| {
            self.target
                .namespace
                .as_deref()
                .is_none_or(|ns| o["metadata"]["namespace"] == ns)
                && labels.matches(o["metadata"].get("labels"))
                && fields.matches(o)
                && shard.as_ref().is_none_or(|shard| shard.matches(o))
        };
        let answer = self.delete_matching(&selected, &options).await;
        with_delete_warnings(resource, &options, answer)
    }

    /// [`Self::delete_collection`] of the objects `selected` takes, its options read.
    async fn delete_matching(
        &self,
        selected: &(dyn Fn(&Value) -> bool + Sync),
        options: &DeleteOptions,
    ) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let candidates: Vec<Arc<Value>> = {
            let state = self.server.shared.state.lock();
            state
                .store
                .values(&resource.group_resource())
                .iter()
                .filter(|o| selected(o))
                .cloned()
                .collect()
        };
        let mut deleted = Vec::new();
        for object in candidates {
            let object = self.as_requested(object).await?;
            self.admit_delete(&object, options).await?;
            let (namespace, name) = object_key(&object);
            let outcome = {
                let mut state = self.server.shared.state.lock();
                // Preconditions name one object; the real server applies them to each.
                crate::lifecycle::deletion::delete(&mut state, resource, &namespace, &name, options)
            };
            // The answer lists the objects as the collection was listed, before each
            // delete (`Store.DeleteCollection` returns its list), not as deleted: one
            // a finalizer keeps shows no deletionTimestamp there.
            if outcome.is_ok() {
                let mut item = to_view(resource, &object).into_owned();
                // A built-in kind's store answers with its internal objects, which the
                // list's conversion writes without `apiVersion` and `kind`; a custom
                // resource is unstructured and keeps them.
                if !resource.custom
                    && let Some(fields) = item.as_object_mut()
                {
                    fields.remove("apiVersion");
                    fields.remove("kind");
                }
                deleted.push(item);
            }
        }
        let list = json!({
            "kind": format!("{}List", resource.kind), "apiVersion": resource.api_version(),
            "metadata": {"resourceVersion": self.server.revision().to_string()}, "items": deleted,
        });
        Ok(json_response(StatusCode::OK, &list))
    }
}

/// Converts a write's object to another version of its CRD for the admission webhooks
/// registered for that version (`matchPolicy: Equivalent`).
struct Converter<'a> {
    server: &'a ApiServer,
    resource: &'a ResourceType,
}

impl VersionConverter for Converter<'_> {
    fn convert<'a>(&'a self, object: &'a Value, version: &'a str) -> Converting<'a> {
        Box::pin(async move {
            crate::conversion::to_version(&self.server.shared.webhooks, self.resource, object, version)
                .await
                .map_err(|error| error.message)
        })
    }
}

/// What the Job registry warns of a delete that leaves the propagation policy to its
/// default, which in `batch/v1` orphans the Job's pods.
const JOB_DELETE_WARNING: &str = "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning";

/// A delete's answer with the warnings its registry adds before it deletes (so an
/// error answer, a 404 for one, carries them too).
fn with_delete_warnings(
    resource: &ResourceType,
    options: &DeleteOptions,
    answer: Result<Response<ResponseBody>, ApiError>,
) -> Result<Response<ResponseBody>, ApiError> {
    let job = !resource.custom && resource.group == "batch" && resource.kind == "Job";
    if !job || options.propagation.is_some() {
        return answer;
    }
    let warnings = [JOB_DELETE_WARNING.to_owned()];
    Ok(with_warnings(
        answer.unwrap_or_else(|error| crate::core::error_response(&error)),
        &warnings,
    ))
}

/// Warnings reach the client as `Warning` headers as kube-apiserver's recorder
/// (`WithWarningRecorder`) writes them: each text once, in order; once they pass
/// 4,096 runes in all, every one (those written already included) is cut to 256
/// runes, and the rest are dropped once that budget is spent too; a text with a
/// control character is skipped, as `NewWarningHeader` refuses it.
fn with_warnings(mut response: Response<ResponseBody>, warnings: &[String]) -> Response<ResponseBody> {
    const TOTAL_RUNES: usize = 4 * 1024;
    const ITEM_RUNES: usize = 256;
    let header = |text: &str| {
        if text.chars().any(char::is_control) {
            return None;
        }
        let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
        http::HeaderValue::from_bytes(format!("299 - \"{escaped}\"").as_bytes()).ok()
    };
    let cut = |text: &str| -> (String, usize) {
        let runes = text.chars().count();
        if runes > ITEM_RUNES {
            (text.chars().take(ITEM_RUNES).collect(), ITEM_RUNES)
        } else {
            (text.to_owned(), runes)
        }
    };
    let mut recorded = std::collections::HashSet::new();
    let mut ordered: Vec<&str> = Vec::new();
    let mut headers = Vec::new();
    let (mut written, mut truncating) = (0, false);
    for text in warnings.iter().map(String::as_str).filter(|t| !t.is_empty()) {
        if truncating && written >= TOTAL_RUNES {
            break;
        }
        if !recorded.insert(text) {
            continue;
        }
        ordered.push(text);
        let (shown, runes) = if truncating {
            cut(text)
        } else {
            (text.to_owned(), text.chars().count())
        };
        let Some(value) = header(&shown) else {
            continue;
        };
        if truncating || written + runes <= TOTAL_RUNES {
            written += runes;
            headers.push(value);
            continue;
        }
        truncating = true;
        written = 0;
        headers.clear();
        for earlier in &ordered {
            let (shown, runes) = cut(earlier);
            if let Some(value) = header(&shown) {
                written += runes;
                headers.push(value);
            }
        }
    }
    for value in headers {
        response.headers_mut().append(http::header::WARNING, value);
    }
    response
}

/// A patch that could not be applied, as kube-apiserver answers it: a malformed patch
/// is a 400, one that makes an invalid object a 422, and an apply that would take
/// fields another manager owns a 409 listing each conflict as a cause.
fn patch_error(error: PatchError) -> ApiError {
    match error {
        PatchError::BadRequest(message) => ApiError::bad_request(message),
        PatchError::Rejected(_) => ApiError {
            details: Some(json!({})),
            ..ApiError::new(
                422,
                "Invalid",
                "the server rejected our request due to an error in our request",
            )
        },
        PatchError::TooLarge(message) => ApiError::new(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: {message}"),
        ),
        // The real server's field manager fails with a plain error: a 500 without a reason.
        PatchError::Internal(message) => ApiError::new(500, "", message),
        PatchError::Conflict(ref conflicts) => {
            // kube-apiserver's apply conflict names no object, only the causes.
            let causes: Vec<Value> = conflicts.iter().map(crate::patch::Conflict::cause).collect();
            let mut error = ApiError::new(409, "Conflict", error.to_string());
            error.details = Some(json!({"causes": causes}));
            error
        }
    }
}

/// An object's labels, for a webhook's `namespaceSelector`.
fn labels_of(object: &Value) -> std::collections::BTreeMap<String, String> {
    object["metadata"]["labels"]
        .as_object()
        .map(|labels| {
            labels
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// The warnings a type's strategy adds to a write of its main endpoint
/// (`WarningsOnCreate`, `WarningsOnUpdate` given the stored `old`), after mutating
/// admission.
fn strategy_warnings(resource: &ResourceType, object: &Value, old: Option<&Value>) -> Vec<String> {
    if resource.custom {
        return wheelhouse_envtest_validation::custom_resource_warnings(object, old);
    }
    let kind = wheelhouse_envtest_validation::Kind {
        group: &resource.group,
        version: &resource.version,
        kind: &resource.kind,
        namespaced: resource.namespaced,
    };
    wheelhouse_envtest_validation::warnings(&kind, object, old)
}

/// A `CertificateSigningRequest` names who asked for it: its strategy's
/// `PrepareForCreate` drops the user fields a client sent and fills them from the
/// request's user, after the field manager recorded the client's fields.
fn name_requester(resource: &ResourceType, object: &mut Value, server: &ApiServer) {
    if resource.custom || resource.group != "certificates.k8s.io" || resource.kind != "CertificateSigningRequest" {
        return;
    }
    let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    for field in ["username", "uid", "groups", "extra"] {
        spec.remove(field);
    }
    let info = crate::authz::reviews::requester_info(server);
    for field in ["username", "uid", "groups"] {
        if let Some(value) = info.get(field) {
            spec.insert(field.to_owned(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(warnings: &[String]) -> Vec<String> {
        let response = with_warnings(json_response(StatusCode::OK, &json!({})), warnings);
        response
            .headers()
            .get_all(http::header::WARNING)
            .iter()
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
            .collect()
    }

    #[test]
    fn warnings_are_recorded_as_kube_s_recorder_writes_them() {
        // Each text once, quotes and backslashes escaped, UTF-8 kept, control
        // characters and empty texts skipped.
        let texts = ["a \"b\" \\c", "a \"b\" \\c", "", "bell\u{7}", "größe"].map(str::to_owned);
        assert_eq!(sent(&texts), [r#"299 - "a \"b\" \\c""#, r#"299 - "größe""#]);
        // Past 4,096 runes, every text (those before included) is cut to 256, and
        // once the cut ones reach 4,096 again the rest are dropped.
        let long: Vec<String> = (0..40).map(|i| format!("{i:03}{}", "x".repeat(297))).collect();
        let headers = sent(&long);
        assert_eq!(headers.len(), 16);
        assert!(
            headers.iter().all(|h| h.len() == "299 - \"\"".len() + 256),
            "{headers:?}"
        );
        assert!(headers[15].starts_with("299 - \"015"), "{}", headers[15]);
    }
}
