//! What the server does to an object on every write, whatever the verb: the fields
//! it sets on a new object, what an update may and may not change (immutable
//! metadata, status behind its subresource, generation), finalizers and deletion, and
//! the side effects of storing CRDs and namespaces.

use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{Value, json};

pub(crate) use crate::admission::quota::Operation as QuotaOperation;
use crate::core::{ApiError, GroupResource, ResourceType, Verb};
use crate::objects::Decoding;
use crate::patch;
use crate::state::State;
use crate::store::object_key;

use super::update_rules::{
    check_no_finalizer_added_while_deleting, keep_immutable_metadata, same_object, spec_changed, split_by_subresource,
};

/// The finalizer the real server puts on CRDs so their objects go first.
pub(crate) const CRD_CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

pub(crate) fn namespaces() -> GroupResource {
    GroupResource {
        group: String::new(),
        resource: "namespaces".into(),
    }
}

/// The current time as Kubernetes writes it (RFC 3339, whole seconds, UTC).
pub(crate) fn now() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A random v4 UUID, as the real server gives every object.
fn uid() -> String {
    let bytes: [u8; 16] = rand::random();
    let hex: String = bytes.iter().fold(String::with_capacity(32), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    });
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

pub(crate) fn check_type(resource: &ResourceType, object: &Value) -> Result<(), ApiError> {
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
    if object.get("metadata").is_some_and(|m| !m.is_object()) {
        return Err(ApiError::bad_request(format!(
            "{kind} in version \"{}\" cannot be handled as a {kind}: metadata: expected an object",
            resource.version
        )));
    }
    if kind != resource.kind || api_version != resource.api_version() {
        return Err(ApiError::bad_request(format!(
            "the API version in the data ({api_version}) does not match the expected API version ({})",
            resource.api_version()
        )));
    }
    Ok(())
}

/// The body of a create or PUT as kube-apiserver's decoder reads it against the path's
/// type (`runtime.Decode` with the path's kind as default, then the handler's version
/// check). A built-in type's body may leave `kind` and `apiVersion` out (they default to
/// the path's); one that names another kind or version gets the decoder's 400, worded
/// by whether the scheme knows that kind (`converting ... unknown conversion`, `no kind
/// ... is registered`) or only that version. A custom resource's body must carry its
/// kind (the unstructured decoder quotes the body that lacks it) and the path's
/// apiVersion; another kind is a 422 of `kind`. `raw` is the body as sent.
pub(crate) fn check_body_type(
    registry: &crate::resources::registry::Registry,
    resource: &ResourceType,
    object: &mut Value,
    raw: &[u8],
) -> Result<(), ApiError> {
    let text = |field: &str| object[field].as_str().unwrap_or_default().to_owned();
    let (kind, api_version) = (text("kind"), text("apiVersion"));
    if resource.custom {
        if kind.is_empty() {
            let body = String::from_utf8_lossy(raw);
            let shown = crate::core::summarize_data(raw);
            return Err(ApiError::bad_request(format!(
                "the object provided is unrecognized (must be of type {}): Object 'Kind' is missing in '{body}' ({shown})",
                resource.kind
            )));
        }
        if api_version != resource.api_version() {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({api_version}) does not match the expected API version ({})",
                resource.api_version()
            )));
        }
        if kind != resource.kind {
            let name = object["metadata"]["name"].as_str().unwrap_or_default();
            return Err(ApiError::invalid_kind(
                &resource.group,
                &kind,
                name,
                &[(
                    "kind",
                    "FieldValueInvalid",
                    format!("Invalid value: \"{kind}\": must be {}", resource.kind),
                )],
            ));
        }
        return check_type(resource, object);
    }
    let kind = if kind.is_empty() { resource.kind.clone() } else { kind };
    let api_version = if api_version.is_empty() {
        resource.api_version()
    } else {
        api_version
    };
    object["kind"] = json!(kind);
    object["apiVersion"] = json!(api_version);
    if kind == resource.kind && api_version == resource.api_version() {
        return check_type(resource, object);
    }
    let version = api_version.rsplit('/').next().unwrap_or_default();
    let registered = registry.by_kind(&api_version, &kind).filter(|t| !t.custom);
    let detail = match registered {
        Some(_) if kind == resource.kind => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({api_version}) does not match the expected API version ({})",
                resource.api_version()
            )));
        }
        Some(_) => {
            // The internal package of the path's group: `core`, `apps`, `networking`...
            let internal = if resource.group.is_empty() {
                "core"
            } else {
                resource.group.split('.').next().unwrap_or_default()
            };
            format!(
                "converting ({version}.{kind}) to ({internal}.{}): unknown conversion",
                resource.kind
            )
        }
        None => {
            let scheme = scheme(resource);
            format!("no kind \"{kind}\" is registered for version \"{api_version}\" in scheme \"{scheme}\"")
        }
    };
    Err(ApiError::bad_request(format!(
        "{kind} in version \"{version}\" cannot be handled as a {}: {detail}",
        resource.kind
    )))
}

/// Where the scheme that decodes a built-in resource's bodies was built, as its
/// errors name it (`runtime.Scheme`'s name is the file and line that made it): the
/// apiextensions and aggregator servers have their own, every other group is in
/// kube-apiserver's legacy scheme.
pub(crate) fn scheme(resource: &ResourceType) -> &'static str {
    match resource.group.as_str() {
        "apiextensions.k8s.io" => "pkg/apiserver/apiserver.go:53",
        "apiregistration.k8s.io" => "pkg/apiserver/scheme/scheme.go:28",
        _ => "pkg/api/legacyscheme/scheme.go:30",
    }
}

/// Prepares a new object for storing, in kube-apiserver's order (the body decoded as
/// its Go type with its defaults, the field manager, `BeforeCreate` in
/// `staging/src/k8s.io/apiserver/pkg/registry/rest/create.go` with the type's strategy,
/// then validation): the name, from `generateName` if need be, and its
/// syntax ([`name_new`]); the namespace of the URL ([`place_in_namespace`]); what the
/// server owns in `metadata` and a status behind its subresource ([`reset_server_fields`]);
/// a built-in type's defaults, the creator's managed fields, the type's own initial
/// state, and validation. Also returns the warnings the strategy added as it prepared.
pub(crate) fn prepare_new(
    resource: &ResourceType,
    namespace: Option<&str>,
    object: Value,
    manager: &str,
) -> Result<(Value, Vec<String>), ApiError> {
    prepare_new_as(resource, namespace, object, manager, Decoding::Body)
}

/// [`prepare_new`] of an object that came as `decoding` says (a server-side apply's).
pub(crate) fn prepare_new_as(
    resource: &ResourceType,
    namespace: Option<&str>,
    object: Value,
    manager: &str,
    decoding: Decoding,
) -> Result<(Value, Vec<String>), ApiError> {
    let (object, warnings, invalid) = prepare_new_validated_later(resource, namespace, object, manager, decoding)?;
    match invalid {
        Some(invalid) => Err(invalid),
        None => Ok((object, warnings)),
    }
}

/// [`prepare_new_as`] with the validation's refusal handed back beside the object
/// instead of ending the write: kube-apiserver validates a new object after its
/// mutating admission, which may make it valid.
pub(crate) fn prepare_new_validated_later(
    resource: &ResourceType,
    namespace: Option<&str>,
    mut object: Value,
    manager: &str,
    decoding: Decoding,
) -> Result<(Value, Vec<String>, Option<ApiError>), ApiError> {
    crate::objects::decode_as(resource, &mut object, decoding)?;
    if !object["metadata"].is_object() {
        object["metadata"] = json!({});
    }
    name_new(resource, &mut object["metadata"])?;
    place_in_namespace(resource, namespace, &mut object["metadata"])?;
    let now = now();
    reset_server_fields(resource, &mut object, &now);
    crate::objects::apply_defaults(resource, &mut object, None);
    // The field manager records the creator's fields as the body decoded, defaults
    // included, before the strategy and the storage add theirs, which nobody owns.
    record_create(resource, &mut object, manager, &now);
    drop_node_config(resource, &mut object);
    initialize_builtin(resource, &mut object);
    let warnings = crate::objects::prepare_for_create(resource, &mut object, &now);
    crate::objects::fill_go_zero_values(resource, &mut object);
    let invalid = crate::objects::validate(resource, &mut object, None, None, decoding).err();
    Ok((object, warnings, invalid))
}

/// The handlers' `dedupOwnerReferencesAndAddWarning`: drops each owner reference
/// equal in every field to one before it, and returns the warning naming the dropped
/// references' uids. A create or PUT dedups before its field manager runs; a patch
/// after mutating admission (`after_admission`), whose warning says so.
pub(crate) fn dedup_owner_references(object: &mut Value, after_admission: bool) -> Option<String> {
    let references = object.get_mut("metadata")?.get_mut("ownerReferences")?.as_array_mut()?;
    let mut kept: Vec<Value> = Vec::with_capacity(references.len());
    // Equal references found by a canonical key rather than by comparing each with
    // every one kept (a client sends the list); a reference is a flat object.
    let mut seen = std::collections::HashSet::new();
    let mut duplicates = Vec::new();
    for reference in references.drain(..) {
        let key = match reference.as_object() {
            Some(map) => {
                let mut fields: Vec<String> = map.iter().map(|(key, value)| format!("{key:?}:{value}")).collect();
                fields.sort_unstable();
                fields.join(",")
            }
            None => reference.to_string(),
        };
        if seen.insert(key) {
            kept.push(reference);
        } else {
            duplicates.push(reference["uid"].as_str().unwrap_or_default().to_owned());
        }
    }
    *references = kept;
    if duplicates.is_empty() {
        return None;
    }
    let when = if after_admission {
        " after mutating admission happens"
    } else {
        ""
    };
    Some(format!(
        ".metadata.ownerReferences contains duplicate entries{when}; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: {}",
        duplicates.join(", ")
    ))
}

/// The create handler's field manager: `manager` owns every field of the new object
/// as decoded (an `Update` entry at `now`).
pub(crate) fn record_create(resource: &ResourceType, object: &mut Value, manager: &str, now: &str) {
    patch::apply::record_update(None, object, &super::writer(resource, manager, now, None));
}

/// The new object's name: its own, or `generateName` with a random suffix. Custom
/// resources and the kinds whose validation is ported check it with the rest of their
/// metadata; for the others it is required and (but for a CRD's) valid by its kind's
/// name rule, one cause per broken rule as `ValidateObjectMeta` lists them.
fn name_new(resource: &ResourceType, metadata: &mut Value) -> Result<(), ApiError> {
    let mut name = metadata["name"].as_str().unwrap_or_default().to_owned();
    if name.is_empty()
        && let Some(prefix) = metadata["generateName"].as_str()
    {
        name = format!("{prefix}{}", name_suffix());
        metadata["name"] = json!(name);
    }
    // A LimitRange's strategy names a nameless one with a UUID (`PrepareForCreate`,
    // which 1.32 runs after `generateName` gave its name).
    if name.is_empty() && !resource.custom && resource.group.is_empty() && resource.kind == "LimitRange" {
        name = uid();
        metadata["name"] = json!(name);
    }
    // The kinds whose validation is ported check their name (and its absence) with the
    // rest of their metadata, in the order and with the rule kube-apiserver uses.
    if ported(resource) {
        return Ok(());
    }
    if name.is_empty() {
        let cause = (
            "metadata.name",
            "FieldValueRequired",
            "Required value: name or generateName is required".to_owned(),
        );
        return Err(ApiError::invalid(resource, "", &[cause]));
    }
    // A CRD's name is checked with its definition (`wheelhouse_envtest_schema::definition`),
    // whose name rule adds to this one; a built-in kind's with its own rule (RBAC
    // names, for one, are path segments, not DNS subdomains).
    let name_errors = if is_crd(resource) {
        Vec::new()
    } else {
        let kind = wheelhouse_envtest_validation::Kind {
            group: &resource.group,
            version: &resource.version,
            kind: &resource.kind,
            namespaced: resource.namespaced,
        };
        wheelhouse_envtest_validation::name_errors(&kind, &name)
    };
    if name_errors.is_empty() {
        return Ok(());
    }
    let shown = wheelhouse_envtest_schema::errors::go_quote(&name);
    let causes: Vec<(&str, &str, String)> = name_errors
        .iter()
        .map(|detail| {
            (
                "metadata.name",
                "FieldValueInvalid",
                format!("Invalid value: {shown}: {detail}"),
            )
        })
        .collect();
    Err(ApiError::invalid(resource, &name, &causes))
}

/// Whether the kind's name (and `generateName`) is checked with the rest of its
/// metadata: a custom resource's by its strategy (`validate_custom_resource_metadata`),
/// a built-in kind's where `wheelhouse_envtest_validation` ports its validation.
fn ported(resource: &ResourceType) -> bool {
    resource.custom
        || wheelhouse_envtest_validation::ports(&wheelhouse_envtest_validation::Kind {
            group: &resource.group,
            version: &resource.version,
            kind: &resource.kind,
            namespaced: resource.namespaced,
        })
}

/// A namespaced object takes the URL's namespace (a different one in the body is a
/// 400); a cluster-scoped one loses any.
fn place_in_namespace(resource: &ResourceType, namespace: Option<&str>, metadata: &mut Value) -> Result<(), ApiError> {
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
    Ok(())
}

/// What the server owns on a new object, whatever the client sent: a fresh uid and
/// creation time, no resourceVersion, deletion or managed fields yet, generation 1
/// where the type counts generations (elsewhere the client's stays), and no status
/// where a subresource owns it.
fn reset_server_fields(resource: &ResourceType, object: &mut Value, now: &str) {
    let metadata = &mut object["metadata"];
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
        // A type that counts no generations keeps the one the client sent: no
        // strategy nor `rest.BeforeCreate` touches it (validation refuses a negative).
        if resource.generation {
            map.insert("generation".into(), json!(1));
        }
    }
    // A Node's strategy keeps the status it is created with (the kubelet registers
    // its node with one); every other type's drops a status its subresource owns.
    let keeps_status = is_node(resource);
    if resource.status
        && !keeps_status
        && let Some(map) = object.as_object_mut()
    {
        map.remove("status");
    }
}

/// What built-in types get on creation: namespaces their `kubernetes` finalizer and
/// phase (`namespace_strategy`). (A CRD gets its cleanup finalizer when it is deleted.)
fn is_node(resource: &ResourceType) -> bool {
    !resource.custom && resource.group.is_empty() && resource.kind == "Node"
}

/// The Node strategy's `dropDisabledFields` on create: the removed dynamic kubelet
/// configuration goes, after the field manager recorded it (so the creator still
/// owns `spec.configSource`, as on kube-apiserver).
fn drop_node_config(resource: &ResourceType, object: &mut Value) {
    if is_node(resource) {
        for (half, field) in [("spec", "configSource"), ("status", "config")] {
            if let Some(map) = object.get_mut(half).and_then(Value::as_object_mut) {
                map.remove(field);
            }
        }
    }
}

fn initialize_builtin(resource: &ResourceType, object: &mut Value) {
    if resource.custom {
        return;
    }
    if resource.group.is_empty() && resource.plural == "namespaces" {
        super::namespace_strategy::prepare_for_create(object);
    }
}

/// The CRD status the real server reaches once it serves the CRD. `storedVersions`
/// keeps every version the CRD has held (its status as written) and gains the storage
/// version at its end, as the apiextensions strategy's `PrepareForUpdate` appends it:
/// objects written before may still be stored in the earlier ones.
fn established_crd_status(crd: &Value) -> Value {
    let now = now();
    let condition = |kind: &str, reason: &str, message: &str| json!({"type": kind, "status": "True", "lastTransitionTime": now, "reason": reason, "message": message});
    let mut versions: Vec<Value> = crd["status"]["storedVersions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v.is_string())
        .cloned()
        .collect();
    let storage = crd["spec"]["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|v| v["storage"] == true)
        .map(|v| v["name"].clone());
    if let Some(storage) = storage
        && !versions.contains(&storage)
    {
        versions.push(storage);
    }
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
) -> Result<Arc<Value>, ApiError> {
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
    crate::admission::plugins::admit(&state.store, resource, &mut object, None)?;
    charge_quota(state, resource, QuotaOperation::Create, None, &object, None, dry_run)?;
    crate::objects::fill_go_zero_values(resource, &mut object);
    let is_crd = is_crd(resource);
    if is_crd {
        // A dry run checks that the CRD could be served and serves nothing.
        let served = if dry_run {
            crate::resources::registry::crd_types(&object).map(drop)
        } else {
            state.registry.serve_crd(&object)
        };
        served.map_err(|message| ApiError::invalid(resource, &name, &[("spec", "FieldValueInvalid", message)]))?;
        object["status"] = initial_crd_status(&object);
        crate::objects::fill_go_zero_values(resource, &mut object);
    }
    if dry_run {
        return Ok(Arc::new(object));
    }
    let created = state
        .store
        .write(&group_resource, (namespace, name), Some(object))
        .object()
        .clone();
    if is_crd {
        // The naming and establishing controllers accept the names and establish the
        // CRD right after: a status write of their own, which the creator's answer
        // does not show (as on a real server, a moment later).
        let mut established = (*created).clone();
        established["status"] = established_crd_status(&created);
        controller_update(state, resource, &created, established, Some("status"), "kube-apiserver");
    }
    Ok(created)
}

/// A new CRD's status as its strategy's `PrepareForCreate` leaves it: no names
/// accepted and no conditions yet, the storage version recorded.
fn initial_crd_status(crd: &Value) -> Value {
    let storage: Vec<Value> = crd["spec"]["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["storage"] == true)
        .map(|v| v["name"].clone())
        .collect();
    json!({"storedVersions": storage})
}

/// The `ResourceQuota` admission step of a write, under the server's lock so that the
/// check and the charge are one: refuses what exceeds a quota of the namespace, else
/// stores the usage it charges in the quotas' status (not for a dry run).
pub(crate) fn charge_quota(
    state: &mut State,
    resource: &ResourceType,
    operation: QuotaOperation,
    subresource: Option<&str>,
    object: &Value,
    old: Option<&Value>,
    dry_run: bool,
) -> Result<(), ApiError> {
    let charged =
        crate::admission::quota::evaluate(&state.store, resource, operation, subresource, object, old, dry_run)?;
    if charged.is_empty() {
        return Ok(());
    }
    let quotas = crate::admission::quota::quotas_resource();
    let Some(quota_type) = state.registry.any_version(&quotas) else {
        return Ok(());
    };
    for charged in charged {
        let (namespace, name) = object_key(&charged);
        let Some(current) = state.store.get(&quotas, &namespace, &name) else {
            continue;
        };
        let mut desired = (*current).clone();
        desired["status"] = charged["status"].clone();
        // kube-apiserver writes the charge through its loopback client.
        controller_update(state, &quota_type, &current, desired, Some("status"), "kube-apiserver");
    }
    Ok(())
}

fn is_crd(resource: &ResourceType) -> bool {
    resource.group == "apiextensions.k8s.io" && resource.plural == "customresourcedefinitions"
}

/// Stores an updated object; an object being deleted whose last finalizer went is
/// deleted for real. Returns the object as stored, shared with the store (no copy is
/// made under the server's lock).
pub(crate) fn commit_update(
    state: &mut State,
    resource: &ResourceType,
    mut object: Value,
    dry_run: bool,
) -> Arc<Value> {
    let key = object_key(&object);
    let group_resource = resource.group_resource();
    crate::objects::fill_go_zero_values(resource, &mut object);
    if is_crd(resource)
        && object["metadata"]["deletionTimestamp"].is_null()
        && (if dry_run {
            crate::resources::registry::crd_types(&object).is_ok()
        } else {
            state.registry.serve_crd(&object).is_ok()
        })
    {
        object["status"] = established_crd_status(&object);
    }
    if dry_run {
        return Arc::new(object);
    }
    if object["metadata"]["deletionTimestamp"].is_string() && !has_finalizers(&object) {
        let event = state.store.write(&group_resource, key, None);
        after_delete(state, resource, event.object());
        return event.object().clone();
    }
    state.store.write(&group_resource, key, Some(object)).object().clone()
}

/// What goes when an object is gone: a CRD takes its resource with it.
pub(crate) fn after_delete(state: &mut State, resource: &ResourceType, object: &Value) {
    if is_crd(resource)
        && let Ok(types) = crate::resources::registry::crd_types(object)
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

/// The preconditions of a PUT or a patch, in the order the registry's `Store.Update`
/// checks them: a PUT's uid is a storage precondition (another uid is the storage
/// layer's 409), the resourceVersion it carries must be a number (else the versioner's
/// plain 500) and the current one (409), and a PUT without one is refused where the
/// type's strategy does not allow unconditional updates (custom resources, Leases,
/// webhook configurations, ...: [`allows_unconditional_update`]).
pub(crate) fn check_precondition(
    resource: &ResourceType,
    current: &Value,
    desired: &Value,
    verb: Verb,
) -> Result<(), ApiError> {
    let name = current["metadata"]["name"].as_str().unwrap_or_default();
    let current_uid = current["metadata"]["uid"].as_str().unwrap_or_default();
    if verb == Verb::Update
        && let Some(uid) = desired["metadata"]["uid"].as_str().filter(|uid| !uid.is_empty())
        && uid != current_uid
    {
        let key = storage_key(resource, current);
        return Err(ApiError::conflict(
            resource,
            name,
            &format!(
                "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {current_uid}"
            ),
        ));
    }
    let version = desired["metadata"]["resourceVersion"]
        .as_str()
        .filter(|v| !v.is_empty());
    if let Some(Err(why)) = version.map(crate::core::parse_uint) {
        return Err(ApiError::new(500, "", why));
    }
    match version {
        Some(version) if Some(version) != current["metadata"]["resourceVersion"].as_str() => {
            Err(ApiError::stale(resource, name))
        }
        None if verb == Verb::Update
            && (resource.requires_resource_version || !allows_unconditional_update(resource)) =>
        {
            // The registry names the resource, not the kind, in this one.
            Err(ApiError::invalid_kind(
                &resource.group,
                &resource.plural,
                name,
                &[(
                    "metadata.resourceVersion",
                    "FieldValueInvalid",
                    "Invalid value: 0x0: must be specified for an update".into(),
                )],
            ))
        }
        _ => Ok(()),
    }
}

/// `AllowUnconditionalUpdate` of each type's strategy in kube-apiserver 1.32: the
/// built-in types whose strategy answers false (their status strategies inherit it);
/// custom resources answer false too ([`ResourceType::requires_resource_version`]).
fn allows_unconditional_update(resource: &ResourceType) -> bool {
    const CONDITIONAL_ONLY: &[(&str, &str)] = &[
        ("certificates.k8s.io", "clustertrustbundles"),
        ("node.k8s.io", "runtimeclasses"),
        ("storagemigration.k8s.io", "storageversionmigrations"),
        ("policy", "poddisruptionbudgets"),
        ("internal.apiserver.k8s.io", "storageversions"),
        ("storage.k8s.io", "csidrivers"),
        ("storage.k8s.io", "csistoragecapacities"),
        ("storage.k8s.io", "volumeattachments"),
        ("storage.k8s.io", "csinodes"),
        ("coordination.k8s.io", "leases"),
        ("coordination.k8s.io", "leasecandidates"),
        ("admissionregistration.k8s.io", "validatingadmissionpolicies"),
        ("admissionregistration.k8s.io", "validatingadmissionpolicybindings"),
        ("admissionregistration.k8s.io", "mutatingadmissionpolicies"),
        ("admissionregistration.k8s.io", "mutatingadmissionpolicybindings"),
        ("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
        ("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
        ("apiextensions.k8s.io", "customresourcedefinitions"),
        ("apiregistration.k8s.io", "apiservices"),
    ];
    resource.custom
        || !CONDITIONAL_ONLY
            .iter()
            .any(|(group, plural)| *group == resource.group && *plural == resource.plural)
}

/// The object's key in kube-apiserver's etcd, as its storage errors quote it:
/// `/registry/<prefix>/<namespace>/<name>`, the prefix being the resource (with its
/// group for custom resources and the aggregated APIs) or the few older names the
/// registries keep (`minions`, `services/specs`, `controllers`, ...).
fn storage_key(resource: &ResourceType, object: &Value) -> String {
    let prefix = match (resource.group.as_str(), resource.plural.as_str()) {
        ("", "nodes") => "minions".to_owned(),
        ("", "services") => "services/specs".to_owned(),
        ("", "endpoints") => "services/endpoints".to_owned(),
        ("", "replicationcontrollers") => "controllers".to_owned(),
        ("networking.k8s.io", "ingresses") => "ingress".to_owned(),
        (group @ ("apiextensions.k8s.io" | "apiregistration.k8s.io"), plural) => format!("{group}/{plural}"),
        (group, plural) if resource.custom => format!("{group}/{plural}"),
        (_, plural) => plural.to_owned(),
    };
    let metadata = &object["metadata"];
    let name = metadata["name"].as_str().unwrap_or_default();
    match metadata["namespace"].as_str().filter(|ns| !ns.is_empty()) {
        Some(namespace) => format!("/registry/{prefix}/{namespace}/{name}"),
        None => format!("/registry/{prefix}/{name}"),
    }
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
    match prepare_update_validated_later(resource, current, desired, subresource, manager, now, apply)? {
        Some((_, Some(invalid))) => Err(invalid),
        prepared => Ok(prepared.map(|(new, _)| new)),
    }
}

/// An object a mutating webhook changed, defaulted and validated again as
/// [`prepare_new`] and [`prepare_update`] treat the request's own: kube-apiserver's
/// strategy runs after mutating admission.
pub(crate) fn revalidate(
    resource: &ResourceType,
    object: &mut Value,
    current: Option<&Value>,
    subresource: Option<&str>,
) -> Result<(), ApiError> {
    crate::objects::apply_defaults(resource, object, current);
    crate::objects::fill_go_zero_values(resource, object);
    crate::objects::validate(resource, object, current, subresource, Decoding::Body)
}

/// [`prepare_update`] with the validation's refusal handed back beside the new object
/// instead of ending the write (kube-apiserver validates after its mutating
/// admission, which may make the object valid). An update that changes nothing is
/// refused at once, as no webhook will see it.
pub(crate) fn prepare_update_validated_later(
    resource: &ResourceType,
    current: &Value,
    desired: Value,
    subresource: Option<&str>,
    manager: &str,
    now: &str,
    apply: bool,
) -> Result<Option<(Value, Option<ApiError>)>, ApiError> {
    let mut desired = desired;
    let decoding = if apply { Decoding::Applied } else { Decoding::Body };
    crate::objects::decode_as(resource, &mut desired, decoding)?;
    // The node strategy drops a configSource the node did not have (see
    // `split_by_subresource`), after the field manager recorded it.
    let node = !resource.custom && resource.group.is_empty() && resource.kind == "Node" && subresource.is_none();
    let dropped_config_source = Some(desired["spec"]["configSource"].clone())
        .filter(|source| node && !source.is_null() && current["spec"]["configSource"].is_null());
    let is_namespace = !resource.custom && resource.group.is_empty() && resource.plural == "namespaces";
    let mut new = if is_namespace {
        // The namespace strategies say what each endpoint keeps, metadata included.
        let mut new = desired;
        super::namespace_strategy::prepare_for_update(&mut new, current, subresource);
        new
    } else {
        split_by_subresource(resource, current, desired, subresource, apply)
    };
    keep_immutable_metadata(current, &mut new);
    check_no_finalizer_added_while_deleting(resource, current, &new)?;
    crate::objects::apply_defaults(resource, &mut new, Some(current));
    crate::objects::prepare_for_update(resource, &mut new, Some(current), now);
    // kube-apiserver runs its mutating admission before validation: the tolerations
    // `DefaultTolerationSeconds` adds on every update of a pod are there before the
    // pod's update rules (only additions to tolerations) look at it.
    if resource.group.is_empty() && resource.plural == "pods" && subresource.is_none() {
        crate::admission::plugins::default_tolerations(&mut new);
    }
    crate::objects::fill_go_zero_values(resource, &mut new);
    let invalid = crate::objects::validate(resource, &mut new, Some(current), subresource, decoding).err();
    // A custom resource without a status subresource counts a status change as a
    // change of its generation, as the custom resource strategy compares everything
    // but metadata then.
    let counts_status = resource.custom && !resource.status;
    // An EndpointSlice's strategy also counts a change of its labels (`Semantic`:
    // none and an empty map are alike).
    let labels = |object: &Value| {
        object["metadata"]["labels"]
            .as_object()
            .filter(|l| !l.is_empty())
            .cloned()
    };
    let slice = !resource.custom && resource.group == "discovery.k8s.io" && resource.kind == "EndpointSlice";
    let relabelled = slice && labels(current) != labels(&new);
    if resource.bumps_generation && (spec_changed(current, &new, counts_status) || relabelled) {
        // A kind that sets no generation on create counts up from Go's zero.
        let unset = i64::from(resource.generation);
        let generation = current["metadata"]["generation"].as_i64().unwrap_or(unset);
        new["metadata"]["generation"] = json!(generation + 1);
    }
    if !apply {
        new["metadata"]["managedFields"] = current["metadata"]["managedFields"].clone();
        if new["metadata"]["managedFields"].is_null()
            && let Some(map) = new["metadata"].as_object_mut()
        {
            map.remove("managedFields");
        }
        if let Some(source) = &dropped_config_source {
            new["spec"]["configSource"] = source.clone();
        }
        patch::apply::record_update(
            Some(current),
            &mut new,
            &super::writer(resource, manager, now, subresource),
        );
        if dropped_config_source.is_some()
            && let Some(spec) = new.get_mut("spec").and_then(Value::as_object_mut)
        {
            spec.remove("configSource");
        }
    }
    new["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"].clone();
    if same_object(current, &new) {
        return invalid.map_or(Ok(None), Err);
    }
    Ok(Some((new, invalid)))
}

/// Server-side applies `applied` to `current` (or to its `subresource`) with force, as
/// `manager`: what kube-apiserver's own controllers do through their loopback client
/// (the flow-control configuration controller's `ApplyStatus`). The object as stored
/// after, None when nothing changed or the apply was refused.
pub(crate) fn controller_apply(
    state: &mut State,
    resource: &ResourceType,
    current: &Value,
    applied: &Value,
    subresource: Option<&str>,
    manager: &str,
) -> Option<Arc<Value>> {
    let now = now();
    let writer = super::writer(resource, manager, &now, subresource);
    let desired = match patch::apply::apply(Some(current), applied, true, &writer) {
        Ok(desired) => desired,
        Err(error) => {
            tracing::debug!(%error, "a built-in controller's apply was refused");
            return None;
        }
    };
    match prepare_update(resource, current, desired, subresource, manager, &now, true) {
        Ok(Some(new)) => Some(commit_update(state, resource, new, false)),
        Ok(None) => None,
        Err(error) => {
            tracing::debug!(?error, "a built-in controller's apply was refused");
            None
        }
    }
}

/// Writes `desired` over `current` as a client's update of the object (or of its
/// `subresource`) would; the object as stored after, None when nothing changed or
/// the write was refused (a failure is left for the object's next event to retry).
pub(crate) fn controller_update(
    state: &mut State,
    resource: &ResourceType,
    current: &Value,
    desired: Value,
    subresource: Option<&str>,
    manager: &str,
) -> Option<Arc<Value>> {
    match prepare_update(resource, current, desired, subresource, manager, &now(), false) {
        Ok(Some(new)) => Some(commit_update(state, resource, new, false)),
        Ok(None) => None,
        Err(error) => {
            tracing::debug!(?error, "a built-in controller's update was refused");
            None
        }
    }
}
