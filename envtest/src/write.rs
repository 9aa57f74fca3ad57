//! The write verbs: create, update, patch, delete and deletecollection, with the rules
//! kube-apiserver applies to every object (names, uids, generation, status
//! subresource, finalizers, optimistic concurrency) and admission webhooks.

use std::sync::Arc;

use bytes::Bytes;
use http::{Response, StatusCode};
use serde_json::{Value, json};

use crate::admission::{Admitted, AdmissionAttributes, AdmissionError, Operation};
use crate::patch::{self, PatchError};
use crate::registry::ResourceType;
use crate::request::{Target, Verb};
use crate::server::{ApiServer, ResponseBody, State, json_response};
use crate::status::ApiError;
use crate::store::object_key;

/// How many times an update is retried when the object changes under it (the real
/// server's `GuaranteedUpdate` loop); only requests without a precondition retry.
const MAX_ATTEMPTS: usize = 16;

/// The finalizer the real server puts on CRDs so their objects go first.
pub(crate) const CRD_CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// One write request.
pub(crate) struct Write<'a> {
    pub server: &'a ApiServer,
    pub target: &'a Target,
    pub body: &'a Bytes,
    pub content_type: &'a str,
    pub user_agent: &'a str,
}

impl Write<'_> {
    pub async fn run(&self) -> Result<Response<ResponseBody>, ApiError> {
        match self.target.verb {
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

    fn body_json(&self) -> Result<Value, ApiError> {
        serde_json::from_slice(self.body)
            .map_err(|e| ApiError::bad_request(format!("the object provided is unrecognized: json parse error: {e}")))
    }

    /// The body as an object of this resource: kind and apiVersion must be the ones of
    /// the path, as the real server checks.
    fn body_object(&self) -> Result<Value, ApiError> {
        let object = self.body_json()?;
        if !object.is_object() {
            return Err(ApiError::bad_request(
                "the object provided is unrecognized: expected a JSON object",
            ));
        }
        check_type(self.resource(), &object)?;
        Ok(object)
    }

    /// Runs the admission webhooks; the object they let through (mutated or not), and
    /// their warnings for the response.
    async fn admit(&self, operation: Operation, object: Option<&Value>, old: Option<&Value>) -> Result<Admitted, ApiError> {
        let (mutating, validating, namespace_labels) = {
            let state = self.server.shared.state.lock();
            let configs = |plural: &str| {
                state
                    .store
                    .objects(&crate::registry::GroupResource {
                        group: "admissionregistration.k8s.io".into(),
                        resource: plural.into(),
                    })
                    .values()
                    .cloned()
                    .collect::<Vec<_>>()
            };
            let mutating = configs("mutatingwebhookconfigurations");
            let validating = configs("validatingwebhookconfigurations");
            let namespace_labels = self.namespace_labels(&state, object.or(old));
            (mutating, validating, namespace_labels)
        };
        if mutating.is_empty() && validating.is_empty() {
            return Ok(Admitted::default());
        }
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
            dry_run: self.target.dry_run(),
            options: None,
        };
        self.server
            .shared
            .webhooks
            .admit(&mutating, &validating, &attributes)
            .await
            .map_err(|error| match &error {
                AdmissionError::Denied { code, reason, .. } => {
                    let reason = if reason.is_empty() { reason_for(*code).to_owned() } else { reason.clone() };
                    ApiError::new(*code, reason, error.to_string())
                }
                AdmissionError::CallFailed { .. } => ApiError::new(500, "InternalError", error.to_string()),
                AdmissionError::Refused { code, reason, message } => ApiError::new(*code, *reason, message.clone()),
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

    async fn create(&self) -> Result<Response<ResponseBody>, ApiError> {
        let object = self.body_object()?;
        let manager = self.manager();
        let object = prepare_new(self.resource(), self.target.namespace.as_deref(), object, &manager)?;
        let admitted = self.admit(Operation::Create, Some(&object), None).await?;
        let object = admitted.mutated.unwrap_or(object);
        let mut state = self.server.shared.state.lock();
        let stored = commit_create(&mut state, self.resource(), object, self.target.dry_run())?;
        Ok(with_warnings(json_response(StatusCode::CREATED, &stored), &admitted.warnings))
    }

    /// Update and patch: compute the new object from the current one, admit it, and
    /// store it if the object has not changed meanwhile (else start over).
    async fn update(&self) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let group_resource = resource.group_resource();
        let manager = self.manager();
        let now = now();
        for _ in 0..MAX_ATTEMPTS {
            let current = self
                .server
                .shared
                .state
                .lock()
                .store
                .get(&group_resource, self.namespace(), self.name());
            let Some(current) = current else {
                return self.create_by_apply(&manager).await;
            };
            let scale = self.target.subresource.as_deref() == Some("scale");
            let desired = if scale {
                self.desired_scale(&current)?
            } else {
                self.desired(&current, &manager, &now)?
            };
            check_precondition(resource, &current, &desired, self.target.verb)?;
            let Some(new) = prepare_update(
                resource,
                &current,
                desired,
                self.subresource_for_update(),
                &manager,
                &now,
                self.is_apply(),
            )?
            else {
                return Ok(self.respond_update(StatusCode::OK, &current));
            };
            let admitted = self.admit(Operation::Update, Some(&new), Some(&current)).await?;
            let new = admitted.mutated.unwrap_or(new);
            let mut state = self.server.shared.state.lock();
            let latest = state.store.get(&group_resource, self.namespace(), self.name());
            match latest {
                None => return Err(ApiError::not_found(resource, self.name())),
                Some(latest) if !Arc::ptr_eq(&latest, &current) => continue,
                Some(_) => {}
            }
            let stored = commit_update(&mut state, resource, new, self.target.dry_run());
            return Ok(with_warnings(self.respond_update(StatusCode::OK, &stored), &admitted.warnings));
        }
        Err(ApiError::stale(resource, self.name()))
    }

    fn respond_update(&self, status: StatusCode, object: &Value) -> Response<ResponseBody> {
        if self.target.subresource.as_deref() == Some("scale") {
            return json_response(status, &to_scale(object));
        }
        json_response(status, object)
    }

    /// The status subresource is the one written, except by `/scale`, which writes spec.
    fn subresource_for_update(&self) -> Option<&str> {
        self.target.subresource.as_deref().filter(|s| *s == "status")
    }

    fn is_apply(&self) -> bool {
        self.target.verb == Verb::Patch && self.content_type.starts_with("application/apply-patch")
    }

    /// A patch or PUT of an object that does not exist: only server-side apply
    /// creates it.
    async fn create_by_apply(&self, manager: &str) -> Result<Response<ResponseBody>, ApiError> {
        if !self.is_apply() || self.target.subresource.is_some() {
            return Err(ApiError::not_found(self.resource(), self.name()));
        }
        let applied = self.applied_config()?;
        let resource = self.resource();
        let object = patch::apply::apply(
            None,
            &applied,
            manager,
            self.target.flag("force"),
            &now(),
            &resource.group,
            &resource.kind,
        )
        .map_err(|e| patch_error(resource, self.name(), e))?;
        let managed_fields = object["metadata"]["managedFields"].clone();
        let mut object = prepare_new(resource, self.target.namespace.as_deref(), object, manager)?;
        // prepare_new records an Update entry for a plain create; an apply owns its fields as Apply.
        object["metadata"]["managedFields"] = managed_fields;
        let admitted = self.admit(Operation::Create, Some(&object), None).await?;
        let object = admitted.mutated.unwrap_or(object);
        let mut state = self.server.shared.state.lock();
        let stored = commit_create(&mut state, resource, object, self.target.dry_run())?;
        Ok(with_warnings(json_response(StatusCode::CREATED, &stored), &admitted.warnings))
    }

    fn applied_config(&self) -> Result<Value, ApiError> {
        let text = std::str::from_utf8(self.body).map_err(|_| ApiError::bad_request("the apply patch is not UTF-8"))?;
        let applied: Value =
            serde_saphyr::from_str(text).map_err(|e| ApiError::bad_request(format!("error decoding YAML: {e}")))?;
        if !applied.is_object() {
            return Err(ApiError::bad_request("the apply patch must be an object"));
        }
        if self.target.param("fieldManager").is_none() {
            return Err(ApiError::new(
                422,
                "Invalid",
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
            ));
        }
        check_type(self.resource(), &applied)?;
        let name = applied["metadata"]["name"].as_str().unwrap_or_default();
        if name != self.name() {
            return Err(ApiError::bad_request(
                "the name of the object does not match the name on the URL",
            ));
        }
        Ok(applied)
    }

    /// The object a PUT or a patch asks for, from the current one.
    fn desired(&self, current: &Value, manager: &str, now: &str) -> Result<Value, ApiError> {
        let resource = self.resource();
        if self.target.verb == Verb::Update {
            let desired = self.body_object()?;
            let name = desired["metadata"]["name"].as_str().unwrap_or_default();
            if name != self.name() {
                return Err(ApiError::bad_request(format!(
                    "the name of the object ({name}) does not match the name on the URL ({})",
                    self.name()
                )));
            }
            return Ok(desired);
        }
        let patched = if self.is_apply() {
            let applied = self.applied_config()?;
            patch::apply::apply(
                Some(current),
                &applied,
                manager,
                self.target.flag("force"),
                now,
                &resource.group,
                &resource.kind,
            )
        } else {
            let patch_body = self.body_json()?;
            match self.content_type.split(';').next().unwrap_or_default().trim() {
                "application/merge-patch+json" => patch::merge(current, &patch_body),
                "application/json-patch+json" => patch::json(current, &patch_body),
                "application/strategic-merge-patch+json" if !resource.custom => {
                    patch::strategic::strategic_merge(current, &patch_body, &resource.group, &resource.kind)
                }
                other => {
                    return Err(ApiError::new(
                        415,
                        "UnsupportedMediaType",
                        format!(
                            "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got {other})"
                        ),
                    ));
                }
            }
        };
        let patched = patched.map_err(|e| patch_error(resource, self.name(), e))?;
        check_type(resource, &patched)?;
        Ok(patched)
    }

    /// The object a write of `/scale` asks for: the current one with new replicas.
    fn desired_scale(&self, current: &Value) -> Result<Value, ApiError> {
        let scale = to_scale(current);
        let asked = if self.target.verb == Verb::Update {
            self.body_json()?
        } else {
            let patch_body = self.body_json()?;
            match self.content_type.split(';').next().unwrap_or_default().trim() {
                "application/json-patch+json" => patch::json(&scale, &patch_body),
                _ => patch::merge(&scale, &patch_body),
            }
            .map_err(|e| patch_error(self.resource(), self.name(), e))?
        };
        let mut desired = current.clone();
        desired["spec"]["replicas"] = asked["spec"]["replicas"].clone();
        if let Some(version) = asked["metadata"]["resourceVersion"].as_str() {
            desired["metadata"]["resourceVersion"] = json!(version);
        }
        Ok(desired)
    }

    async fn delete(&self) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let options = if self.body.is_empty() {
            json!({})
        } else {
            self.body_json()?
        };
        let policy = options["propagationPolicy"]
            .as_str()
            .or_else(|| self.target.param("propagationPolicy"))
            .map(str::to_owned);
        let orphan = options["orphanDependents"].as_bool() == Some(true);
        let policy = match policy.as_deref() {
            None if orphan => Some("Orphan"),
            None | Some("Background") => None,
            Some("Orphan") => Some("Orphan"),
            Some("Foreground") => Some("Foreground"),
            Some(other) => {
                return Err(ApiError::invalid(
                    resource,
                    self.name(),
                    &[(
                        "propagationPolicy",
                        "FieldValueNotSupported",
                        format!(
                            "Unsupported value: \"{other}\": supported values: \"Foreground\", \"Background\", \"Orphan\""
                        ),
                    )],
                ));
            }
        };
        let current =
            self.server
                .shared
                .state
                .lock()
                .store
                .get(&resource.group_resource(), self.namespace(), self.name());
        let current = current.ok_or_else(|| ApiError::not_found(resource, self.name()))?;
        check_delete_preconditions(resource, self.name(), &current, &options)?;
        self.admit(Operation::Delete, None, Some(&current)).await?;
        let mut state = self.server.shared.state.lock();
        let (status, object) = delete_object(
            &mut state,
            resource,
            self.namespace(),
            self.name(),
            policy,
            self.target.dry_run(),
        )?;
        Ok(json_response(status, &object))
    }

    async fn delete_collection(&self) -> Result<Response<ResponseBody>, ApiError> {
        let resource = self.resource();
        let labels = crate::selector::LabelSelector::parse(self.target.param("labelSelector").unwrap_or_default())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let fields = crate::selector::FieldSelector::parse(self.target.param("fieldSelector").unwrap_or_default())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let candidates: Vec<Arc<Value>> = {
            let state = self.server.shared.state.lock();
            state
                .store
                .objects(&resource.group_resource())
                .values()
                .filter(|o| {
                    self.target
                        .namespace
                        .as_deref()
                        .is_none_or(|ns| o["metadata"]["namespace"] == ns)
                })
                .filter(|o| labels.matches(o["metadata"].get("labels")) && fields.matches(o))
                .cloned()
                .collect()
        };
        let mut deleted = Vec::new();
        for object in candidates {
            self.admit(Operation::Delete, None, Some(&object)).await?;
            let (namespace, name) = object_key(&object);
            let mut state = self.server.shared.state.lock();
            if let Ok((_, last)) = delete_object(&mut state, resource, &namespace, &name, None, self.target.dry_run()) {
                deleted.push(last);
            }
        }
        let list = json!({
            "kind": format!("{}List", resource.kind), "apiVersion": resource.api_version(),
            "metadata": {"resourceVersion": self.server.revision().to_string()}, "items": deleted,
        });
        Ok(json_response(StatusCode::OK, &list))
    }
}

/// Admission warnings reach the client as `Warning` headers, as the real server sends them.
fn with_warnings(mut response: Response<ResponseBody>, warnings: &[String]) -> Response<ResponseBody> {
    for warning in warnings {
        let escaped = warning.replace('\\', "\\\\").replace('"', "\\\"");
        if let Ok(value) = http::HeaderValue::from_str(&format!("299 - \"{escaped}\"")) {
            response.headers_mut().append(http::header::WARNING, value);
        }
    }
    response
}

fn reason_for(code: u16) -> &'static str {
    match code {
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        409 => "Conflict",
        422 => "Invalid",
        429 => "TooManyRequests",
        500 => "InternalError",
        _ => "",
    }
}

fn patch_error(resource: &ResourceType, name: &str, error: PatchError) -> ApiError {
    match error {
        PatchError::BadRequest(message) => ApiError::bad_request(message),
        PatchError::Invalid(message) => ApiError::new(422, "Invalid", message),
        PatchError::Conflict(_) => {
            let mut error = ApiError::new(409, "Conflict", error.to_string());
            let mut details = json!({"name": name, "kind": resource.plural});
            if !resource.group.is_empty() {
                details["group"] = json!(resource.group);
            }
            error.details = Some(details);
            error
        }
    }
}

fn namespaces() -> crate::registry::GroupResource {
    crate::registry::GroupResource {
        group: String::new(),
        resource: "namespaces".into(),
    }
}

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

/// The current time as Kubernetes writes it (RFC 3339, whole seconds, UTC).
pub(crate) fn now() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A random v4 UUID, as the real server gives every object.
fn uid() -> String {
    let bytes: [u8; 16] = rand::random();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-4{}-{:x}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        (bytes[8] & 0x3) | 0x8,
        &hex[17..20],
        &hex[20..32]
    )
}

/// The five random characters `generateName` appends (the real server's alphabet).
fn name_suffix() -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    (0..5)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

fn check_type(resource: &ResourceType, object: &Value) -> Result<(), ApiError> {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let kind = object["kind"].as_str().unwrap_or_default();
    if kind.is_empty() {
        return Err(ApiError::bad_request("Object 'Kind' is missing in the object provided"));
    }
    if api_version.is_empty() {
        return Err(ApiError::bad_request(
            "Object 'apiVersion' is missing in the object provided",
        ));
    }
    if kind != resource.kind || api_version != resource.api_version() {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({api_version}) does not match the expected API version ({})",
            resource.api_version()
        )));
    }
    Ok(())
}

/// A DNS-1123 subdomain, the rule for most object names.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// Fills in what the server sets on a new object: name from `generateName`, uid,
/// creation time, generation; drops status behind a status subresource; records the
/// creator's managed fields.
pub(crate) fn prepare_new(
    resource: &ResourceType,
    namespace: Option<&str>,
    mut object: Value,
    manager: &str,
) -> Result<Value, ApiError> {
    if !object["metadata"].is_object() {
        object["metadata"] = json!({});
    }
    let metadata = &mut object["metadata"];
    let mut name = metadata["name"].as_str().unwrap_or_default().to_owned();
    if name.is_empty()
        && let Some(prefix) = metadata["generateName"].as_str()
    {
        name = format!("{prefix}{}", name_suffix());
        metadata["name"] = json!(name);
    }
    if name.is_empty() {
        let cause = (
            "metadata.name",
            "FieldValueRequired",
            "Required value: name or generateName is required".to_owned(),
        );
        return Err(ApiError::invalid(resource, "", &[cause]));
    }
    if !valid_name(&name) {
        let detail = format!(
            "Invalid value: \"{name}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
        );
        return Err(ApiError::invalid(
            resource,
            &name,
            &[("metadata.name", "FieldValueInvalid", detail)],
        ));
    }
    match (resource.namespaced, namespace, metadata["namespace"].as_str()) {
        (true, Some(url), Some(body)) if !body.is_empty() && body != url => {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        (true, Some(url), _) => metadata["namespace"] = json!(url),
        (true, None, _) => {
            return Err(ApiError::bad_request(
                "a namespaced resource must be created in a namespace",
            ));
        }
        (false, _, _) => {
            if let Some(map) = metadata.as_object_mut() {
                map.remove("namespace");
            }
        }
    }
    let now = now();
    metadata["uid"] = json!(uid());
    metadata["creationTimestamp"] = json!(now);
    if let Some(map) = metadata.as_object_mut() {
        for field in [
            "resourceVersion",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "managedFields",
            "selfLink",
        ] {
            map.remove(field);
        }
        if resource.generation {
            map.insert("generation".into(), json!(1));
        } else {
            map.remove("generation");
        }
    }
    if resource.status
        && let Some(map) = object.as_object_mut()
    {
        map.remove("status");
    }
    initialize_builtin(resource, &mut object);
    crate::validation::validate(resource, &mut object)?;
    patch::apply::record_update(None, &mut object, manager, &now, None, &resource.group, &resource.kind);
    Ok(object)
}

/// What built-in types get on creation: namespaces their `kubernetes` finalizer and
/// phase, CRDs their cleanup finalizer and accepted status.
fn initialize_builtin(resource: &ResourceType, object: &mut Value) {
    if resource.custom {
        return;
    }
    match (resource.group.as_str(), resource.plural.as_str()) {
        ("", "namespaces") => {
            object["spec"]["finalizers"] = json!(["kubernetes"]);
            object["status"] = json!({"phase": "Active"});
            label_namespace(object);
        }
        ("apiextensions.k8s.io", "customresourcedefinitions") => {
            let finalizers = object["metadata"]["finalizers"].as_array().cloned().unwrap_or_default();
            if !finalizers.iter().any(|f| f == CRD_CLEANUP_FINALIZER) {
                let mut finalizers = finalizers;
                finalizers.push(json!(CRD_CLEANUP_FINALIZER));
                object["metadata"]["finalizers"] = json!(finalizers);
            }
        }
        _ => {}
    }
}

/// The real server labels every namespace with its own name, and keeps the label.
fn label_namespace(object: &mut Value) {
    let name = object["metadata"]["name"].clone();
    if !object["metadata"]["labels"].is_object() {
        object["metadata"]["labels"] = json!({});
    }
    object["metadata"]["labels"]["kubernetes.io/metadata.name"] = name;
}

/// The CRD status the real server reaches once it serves the CRD.
fn established_crd_status(crd: &Value) -> Value {
    let now = now();
    let condition = |kind: &str, reason: &str, message: &str| json!({"type": kind, "status": "True", "lastTransitionTime": now, "reason": reason, "message": message});
    let versions: Vec<Value> = crd["spec"]["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["storage"] == true)
        .map(|v| v["name"].clone())
        .collect();
    json!({
        "conditions": [
            condition("NamesAccepted", "NoConflicts", "no conflicts found"),
            condition("Established", "InitialNamesAccepted", "the initial names have been accepted"),
        ],
        "acceptedNames": crd["spec"]["names"],
        "storedVersions": versions,
    })
}

/// Stores a new object after the checks that need the current state.
pub(crate) fn commit_create(
    state: &mut State,
    resource: &ResourceType,
    mut object: Value,
    dry_run: bool,
) -> Result<Value, ApiError> {
    let (namespace, name) = object_key(&object);
    if resource.namespaced {
        let found = state.store.get(&namespaces(), "", &namespace);
        let Some(found) = found else {
            return Err(ApiError::namespace_not_found(&namespace));
        };
        if found["metadata"]["deletionTimestamp"].is_string() {
            let message = format!(
                "{} \"{name}\" is forbidden: unable to create new content in namespace {namespace} because it is being terminated",
                resource.qualified()
            );
            return Err(ApiError::new(403, "Forbidden", message));
        }
    }
    let group_resource = resource.group_resource();
    if state.store.get(&group_resource, &namespace, &name).is_some() {
        return Err(ApiError::already_exists(resource, &name));
    }
    let is_crd = is_crd(resource);
    if is_crd {
        state
            .registry
            .serve_crd(&object)
            .map_err(|message| ApiError::invalid(resource, &name, &[("spec", "FieldValueInvalid", message)]))?;
        object["status"] = established_crd_status(&object);
    }
    if dry_run {
        return Ok(object);
    }
    let event = state.store.write(&group_resource, (namespace, name), Some(object));
    Ok(event.object.as_ref().clone())
}

fn is_crd(resource: &ResourceType) -> bool {
    resource.group == "apiextensions.k8s.io" && resource.plural == "customresourcedefinitions"
}

/// Stores an updated object; an object being deleted whose last finalizer went is
/// deleted for real.
pub(crate) fn commit_update(state: &mut State, resource: &ResourceType, mut object: Value, dry_run: bool) -> Value {
    let key = object_key(&object);
    let group_resource = resource.group_resource();
    if is_crd(resource) && object["metadata"]["deletionTimestamp"].is_null() {
        if state.registry.serve_crd(&object).is_ok() {
            object["status"] = established_crd_status(&object);
        }
    }
    if dry_run {
        return object;
    }
    if object["metadata"]["deletionTimestamp"].is_string() && !has_finalizers(&object) {
        let event = state.store.write(&group_resource, key, None);
        after_delete(state, resource, &event.object);
        return event.object.as_ref().clone();
    }
    state
        .store
        .write(&group_resource, key, Some(object))
        .object
        .as_ref()
        .clone()
}

/// What goes when an object is gone: a CRD takes its resource with it.
fn after_delete(state: &mut State, resource: &ResourceType, object: &Value) {
    if is_crd(resource)
        && let Ok(types) = crate::registry::crd_types(object)
        && let Some(first) = types.first()
    {
        let group_resource = first.group_resource();
        state.registry.remove(&group_resource);
        state.store.forget_resource(&group_resource);
    }
}

/// Finalizers that hold an object: `metadata.finalizers`, and for a namespace also
/// `spec.finalizers`.
pub(crate) fn has_finalizers(object: &Value) -> bool {
    let non_empty = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty());
    non_empty(&object["metadata"]["finalizers"])
        || (object["kind"] == "Namespace" && non_empty(&object["spec"]["finalizers"]))
}

/// The resourceVersion a PUT or patch carries must be the current one; a PUT of a
/// custom resource must carry one.
fn check_precondition(resource: &ResourceType, current: &Value, desired: &Value, verb: Verb) -> Result<(), ApiError> {
    let name = current["metadata"]["name"].as_str().unwrap_or_default();
    match desired["metadata"]["resourceVersion"]
        .as_str()
        .filter(|v| !v.is_empty())
    {
        Some(version) if Some(version) != current["metadata"]["resourceVersion"].as_str() => {
            Err(ApiError::stale(resource, name))
        }
        None if verb == Verb::Update && resource.requires_resource_version => Err(ApiError::invalid(
            resource,
            name,
            &[(
                "metadata.resourceVersion",
                "FieldValueInvalid",
                "Invalid value: 0x0: must be specified for an update".into(),
            )],
        )),
        _ => Ok(()),
    }
}

fn check_delete_preconditions(
    resource: &ResourceType,
    name: &str,
    current: &Value,
    options: &Value,
) -> Result<(), ApiError> {
    let preconditions = &options["preconditions"];
    for (field, label) in [("uid", "UID"), ("resourceVersion", "ResourceVersion")] {
        if let Some(expected) = preconditions[field].as_str() {
            let actual = current["metadata"][field].as_str().unwrap_or_default();
            if expected != actual {
                let why = format!(
                    "Precondition failed: {label} in precondition: {expected}, {label} in object meta: {actual}"
                );
                return Err(ApiError::conflict(resource, name, &why));
            }
        }
    }
    Ok(())
}

/// The update the server actually makes of `desired`: immutable metadata kept,
/// status or everything-but-status kept according to the subresource, generation
/// bumped on spec changes, managed fields recorded. None when nothing changes.
pub(crate) fn prepare_update(
    resource: &ResourceType,
    current: &Value,
    desired: Value,
    subresource: Option<&str>,
    manager: &str,
    now: &str,
    apply: bool,
) -> Result<Option<Value>, ApiError> {
    let mut new = if subresource == Some("status") {
        let mut new = current.clone();
        match desired.get("status") {
            Some(status) => new["status"] = status.clone(),
            None => {
                if let Some(map) = new.as_object_mut() {
                    map.remove("status");
                }
            }
        }
        if apply {
            new["metadata"]["managedFields"] = desired["metadata"]["managedFields"].clone();
        }
        new
    } else {
        let mut new = desired;
        if resource.status {
            match current.get("status") {
                Some(status) => new["status"] = status.clone(),
                None => {
                    if let Some(map) = new.as_object_mut() {
                        map.remove("status");
                    }
                }
            }
        }
        new
    };
    if !new["metadata"].is_object() {
        new["metadata"] = json!({});
    }
    for field in [
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
        "namespace",
        "name",
    ] {
        match current["metadata"].get(field) {
            Some(value) => new["metadata"][field] = value.clone(),
            None => {
                if let Some(map) = new["metadata"].as_object_mut() {
                    map.remove(field);
                }
            }
        }
    }
    if current["metadata"]["deletionTimestamp"].is_string() {
        let old: Vec<&Value> = current["metadata"]["finalizers"]
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        let added = new["metadata"]["finalizers"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|f| !old.contains(&f));
        if added {
            let name = current["metadata"]["name"].as_str().unwrap_or_default();
            let detail = "Forbidden: no new finalizers can be added if the object is being deleted".to_owned();
            return Err(ApiError::invalid(
                resource,
                name,
                &[("metadata.finalizers", "FieldValueForbidden", detail)],
            ));
        }
    }
    if resource.plural == "namespaces" && resource.group.is_empty() {
        label_namespace(&mut new);
    }
    crate::validation::validate(resource, &mut new)?;
    if resource.generation && spec_changed(current, &new) {
        let generation = current["metadata"]["generation"].as_i64().unwrap_or(1);
        new["metadata"]["generation"] = json!(generation + 1);
    }
    if !apply {
        new["metadata"]["managedFields"] = current["metadata"]["managedFields"].clone();
        if new["metadata"]["managedFields"].is_null()
            && let Some(map) = new["metadata"].as_object_mut()
        {
            map.remove("managedFields");
        }
        patch::apply::record_update(
            Some(current),
            &mut new,
            manager,
            now,
            subresource,
            &resource.group,
            &resource.kind,
        );
    }
    new["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"].clone();
    if same_object(current, &new) {
        return Ok(None);
    }
    Ok(Some(new))
}

/// Anything outside metadata and status changed (what bumps `generation`).
fn spec_changed(old: &Value, new: &Value) -> bool {
    let strip = |v: &Value| {
        let mut map = v.as_object().cloned().unwrap_or_default();
        for key in ["metadata", "status", "apiVersion", "kind"] {
            map.remove(key);
        }
        map
    };
    strip(old) != strip(new)
}

/// Equal but for the times in managed fields: such an update is a no-op and the real
/// server neither bumps the resourceVersion nor sends an event.
fn same_object(old: &Value, new: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(entries) = v["metadata"]["managedFields"].as_array_mut() {
            for entry in entries {
                if let Some(map) = entry.as_object_mut() {
                    map.remove("time");
                }
            }
        }
        v
    };
    strip(old) == strip(new)
}

/// Deletes an object, or marks it for deletion while finalizers hold it. `policy` is
/// `Orphan` or `Foreground` (None is Background). Returns the code and body to send.
pub(crate) fn delete_object(
    state: &mut State,
    resource: &ResourceType,
    namespace: &str,
    name: &str,
    policy: Option<&str>,
    dry_run: bool,
) -> Result<(StatusCode, Value), ApiError> {
    let group_resource = resource.group_resource();
    let current = state
        .store
        .get(&group_resource, namespace, name)
        .ok_or_else(|| ApiError::not_found(resource, name))?;
    let mut object = current.as_ref().clone();
    let finalizer = match policy {
        Some("Orphan") => Some("orphan"),
        Some("Foreground") => Some("foregroundDeletion"),
        _ => None,
    };
    if let Some(finalizer) = finalizer {
        let finalizers = object["metadata"]["finalizers"].as_array().cloned().unwrap_or_default();
        if !finalizers.iter().any(|f| f == finalizer) {
            let mut finalizers = finalizers;
            finalizers.push(json!(finalizer));
            object["metadata"]["finalizers"] = json!(finalizers);
        }
    }
    let key = (namespace.to_owned(), name.to_owned());
    if has_finalizers(&object) {
        if object["metadata"]["deletionTimestamp"].is_null() {
            object["metadata"]["deletionTimestamp"] = json!(now());
            object["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            if resource.plural == "namespaces" && resource.group.is_empty() {
                object["status"]["phase"] = json!("Terminating");
            }
        }
        if dry_run || object == *current {
            return Ok((StatusCode::OK, object));
        }
        let event = state.store.write(&group_resource, key, Some(object));
        return Ok((StatusCode::OK, event.object.as_ref().clone()));
    }
    if dry_run {
        return Ok((StatusCode::OK, object));
    }
    let event = state.store.write(&group_resource, key, None);
    after_delete(state, resource, &event.object);
    Ok((StatusCode::OK, event.object.as_ref().clone()))
}

/// The `autoscaling/v1` Scale of an object with a scale subresource.
pub(crate) fn to_scale(object: &Value) -> Value {
    let metadata = &object["metadata"];
    let selector = object["spec"]["selector"]["matchLabels"]
        .as_object()
        .map(|labels| {
            labels
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    json!({
        "kind": "Scale", "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": metadata["name"], "namespace": metadata["namespace"], "uid": metadata["uid"],
            "resourceVersion": metadata["resourceVersion"], "creationTimestamp": metadata["creationTimestamp"],
        },
        "spec": {"replicas": object["spec"]["replicas"]},
        "status": {"replicas": object["status"]["replicas"].as_i64().unwrap_or(0), "selector": selector},
    })
}
