//! DELETE as kube-apiserver carries it out: preconditions, graceful deletion of pods,
//! the garbage collector's `orphan` and `foregroundDeletion` finalizers, objects held
//! by finalizers, and what the client is answered (the object while its deletion is
//! pending, else a `Status` or, for a few resources, the deleted object).
//!
//! kube-apiserver: `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`
//! (`Delete`, `updateForGracefulDeletionAndFinalizers`, `markAsDeleting`,
//! `deletionFinalizersForGarbageCollection`, `finalizeDelete`),
//! `staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go` (`BeforeDelete`), the pod
//! strategy's `CheckGracefulDelete` (`pkg/registry/core/pod/strategy.go`) and each
//! resource's `ReturnDeletedObject` (`pkg/registry/*/*/storage/storage.go`).

mod delete_options;

use std::sync::Arc;

use serde_json::{Value, json};

pub(crate) use self::delete_options::{DeleteOptions, Propagation};
use crate::core::{ApiError, ResourceType};
use crate::lifecycle::{after_delete, has_finalizers, now};
use crate::state::State;

/// The finalizer of an owner deleted with `propagationPolicy: Foreground`.
pub(crate) const FOREGROUND_FINALIZER: &str = "foregroundDeletion";
/// The finalizer of an owner deleted with `propagationPolicy: Orphan`.
pub(crate) const ORPHAN_FINALIZER: &str = "orphan";

/// What a delete did.
#[derive(Debug, Clone)]
pub(crate) enum Deleted {
    /// The object is still there, marked for deletion: finalizers or a grace period
    /// hold it. Carries the object as it is now.
    Pending(Arc<Value>),
    /// The object is gone (or would be, on a dry run). Carries its last state.
    Gone(Arc<Value>),
}

impl Deleted {
    /// The object, as it is now or as it was last.
    #[cfg(feature = "workloads")]
    pub fn object(&self) -> &Arc<Value> {
        match self {
            Self::Pending(object) | Self::Gone(object) => object,
        }
    }

    /// What the client is answered: the object while its deletion is pending; once
    /// gone, a `Status` naming it (kind = the resource, as the real server fills it),
    /// except for the resources that always answer with the deleted object.
    pub fn response(&self, resource: &ResourceType) -> Value {
        match self {
            Self::Gone(object) if !returns_deleted_object(resource) => {
                let mut details = json!({
                    "name": object["metadata"]["name"],
                    "kind": resource.plural,
                    "uid": object["metadata"]["uid"],
                });
                if !resource.group.is_empty() {
                    details["group"] = json!(resource.group);
                }
                json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": details})
            }
            Self::Pending(object) | Self::Gone(object) => {
                crate::resources::catalogue::to_view(resource, object).into_owned()
            }
        }
    }
}

/// The resources whose storage sets `ReturnDeletedObject`: deleting one answers with
/// the object even once it is gone.
fn returns_deleted_object(resource: &ResourceType) -> bool {
    !resource.custom
        && matches!(
            (resource.group.as_str(), resource.plural.as_str()),
            (
                "",
                "namespaces"
                    | "persistentvolumes"
                    | "persistentvolumeclaims"
                    | "pods"
                    | "podtemplates"
                    | "resourcequotas"
                    | "services"
                    | "serviceaccounts"
            ) | (
                "storage.k8s.io",
                "csidrivers" | "csinodes" | "storageclasses" | "volumeattachments" | "volumeattributesclasses"
            )
        )
}

/// Resources with a graceful deletion strategy: only pods, which wait for their
/// kubelet to stop them.
fn deletes_gracefully(resource: &ResourceType) -> bool {
    !resource.custom && resource.group.is_empty() && resource.plural == "pods"
}

/// Whether the garbage collector's finalizers apply (events opt out).
fn collects_garbage(resource: &ResourceType) -> bool {
    resource.custom || resource.plural != "events" || !matches!(resource.group.as_str(), "" | "events.k8s.io")
}

/// The policy when the request names none: `batch/v1` Jobs and `v1`
/// `ReplicationControllers` orphan their dependents, for backwards compatibility.
fn orphans_by_default(resource: &ResourceType) -> bool {
    !resource.custom
        && matches!(
            (
                resource.group.as_str(),
                resource.version.as_str(),
                resource.plural.as_str()
            ),
            ("batch", "v1", "jobs") | ("", "v1", "replicationcontrollers")
        )
}

/// Deletes an object, or marks it for deletion while finalizers or a grace period
/// hold it.
/// The CRD storage's `Delete`: the first delete of a CRD adds the cleanup finalizer
/// (which the finalizer controller removes once the CRD's objects are gone) and a
/// `Terminating` condition; a live CRD carries no finalizer of the server's.
fn begin_crd_deletion(crd: &mut Value) {
    let finalizers = crd["metadata"]["finalizers"].as_array().cloned().unwrap_or_default();
    if !finalizers.iter().any(|f| f == crate::lifecycle::CRD_CLEANUP_FINALIZER) {
        let mut finalizers = finalizers;
        finalizers.push(json!(crate::lifecycle::CRD_CLEANUP_FINALIZER));
        crd["metadata"]["finalizers"] = json!(finalizers);
    }
    if !crd["status"].is_object() {
        crd["status"] = json!({});
    }
    let mut conditions = crd["status"]["conditions"].as_array().cloned().unwrap_or_default();
    let terminating = json!({
        "type": "Terminating",
        "status": "True",
        "lastTransitionTime": now(),
        "reason": "InstanceDeletionPending",
        "message": "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    });
    // `SetCRDCondition`: a condition of the same status keeps its transition time.
    match conditions.iter_mut().find(|c| c["type"] == "Terminating") {
        Some(existing) => {
            let time = if existing["status"] == "True" {
                existing["lastTransitionTime"].clone()
            } else {
                terminating["lastTransitionTime"].clone()
            };
            *existing = terminating;
            existing["lastTransitionTime"] = time;
        }
        None => conditions.push(terminating),
    }
    crd["status"]["conditions"] = json!(conditions);
}

pub(crate) fn delete(
    state: &mut State,
    resource: &ResourceType,
    namespace: &str,
    name: &str,
    options: &DeleteOptions,
) -> Result<Deleted, ApiError> {
    let group_resource = resource.group_resource();
    let current = state
        .store
        .get(&group_resource, namespace, name)
        .ok_or_else(|| ApiError::not_found(resource, name))?;
    // NamespaceLifecycle keeps the namespaces the cluster itself needs.
    if group_resource == crate::lifecycle::namespaces() && matches!(name, "default" | "kube-system" | "kube-public") {
        return Err(ApiError::forbidden(resource, name, "this namespace may not be deleted"));
    }
    check_preconditions(resource, name, &current, options)?;
    let mut object = current.as_ref().clone();
    let mut grace = None;
    if deletes_gracefully(resource) {
        match begin_graceful_deletion(&mut object, options) {
            Graceful::AlreadyPending => return Ok(Deleted::Pending(current)),
            Graceful::Period(period) => grace = Some(period),
            Graceful::No => {}
        }
    }
    if collects_garbage(resource) {
        set_gc_finalizers(resource, &mut object, options);
    }
    let is_crd = !resource.custom && group_resource.group == "apiextensions.k8s.io";
    if is_crd && current["metadata"]["deletionTimestamp"].is_null() {
        begin_crd_deletion(&mut object);
    }
    let key = (namespace.to_owned(), name.to_owned());
    // The namespace storage's `Delete`: the first delete of a namespace only marks it
    // Terminating, finalizers or not; a later one deletes it once `spec.finalizers`
    // is empty (the namespace controller sends that one).
    let first_namespace_delete =
        group_resource == crate::lifecycle::namespaces() && current["metadata"]["deletionTimestamp"].is_null();
    if has_finalizers(&object) || grace.is_some_and(|period| period > 0) || first_namespace_delete {
        if grace.is_none() {
            mark_as_deleting(resource, &mut object);
        }
        if object == *current {
            return Ok(Deleted::Pending(current));
        }
        if options.dry_run {
            return Ok(Deleted::Pending(Arc::new(object)));
        }
        let event = state.store.write(&group_resource, key, Some(object));
        return Ok(Deleted::Pending(event.object().clone()));
    }
    if options.dry_run {
        return Ok(Deleted::Gone(Arc::new(object)));
    }
    if grace.is_some() {
        // A pod deleted with no grace period is stored marked before it goes, as the
        // real server does: watchers see the deletionTimestamp, then the deletion.
        state.store.write(&group_resource, key.clone(), Some(object));
    }
    let event = state.store.write(&group_resource, key, None);
    after_delete(state, resource, event.object());
    Ok(Deleted::Gone(event.object().clone()))
}

/// `BeforeDelete`'s preconditions, with its wording (the resource named by its kind).
fn check_preconditions(
    resource: &ResourceType,
    name: &str,
    current: &Value,
    options: &DeleteOptions,
) -> Result<(), ApiError> {
    let metadata = &current["metadata"];
    let actual = |field: &str| metadata[field].as_str().unwrap_or_default().to_owned();
    let why = if let Some(uid) = options.uid.as_deref().filter(|uid| *uid != actual("uid")) {
        format!(
            "the UID in the precondition ({uid}) does not match the UID in record ({}). The object might have been deleted and then recreated",
            actual("uid")
        )
    } else if let Some(version) = options
        .resource_version
        .as_deref()
        .filter(|version| *version != actual("resourceVersion"))
    {
        format!(
            "the ResourceVersion in the precondition ({version}) does not match the ResourceVersion in record ({}). The object might have been modified",
            actual("resourceVersion")
        )
    } else {
        return Ok(());
    };
    let kind = if resource.group.is_empty() {
        resource.kind.clone()
    } else {
        format!("{}.{}", resource.kind, resource.group)
    };
    let mut error = ApiError::new(
        409,
        "Conflict",
        format!("Operation cannot be fulfilled on {kind} \"{name}\": {why}"),
    );
    let mut details = json!({"name": name, "kind": resource.kind});
    if !resource.group.is_empty() {
        details["group"] = json!(resource.group);
    }
    error.details = Some(details);
    Err(error)
}

/// What graceful deletion made of a pod.
enum Graceful {
    /// Its deletion was already pending and the request does not shorten it.
    AlreadyPending,
    /// Marked (or re-marked) to go after this many seconds; 0 deletes it now.
    Period(i64),
    /// Not graceful: deleted like any object.
    No,
}

/// `BeforeDelete` with the pod strategy's `CheckGracefulDelete`: a pod on a node that
/// has not finished gets its `terminationGracePeriodSeconds` (or the request's
/// period) to stop; an unscheduled or finished pod goes at once. An already pending
/// period may only be shortened.
fn begin_graceful_deletion(object: &mut Value, options: &DeleteOptions) -> Graceful {
    let metadata = &object["metadata"];
    if metadata["deletionTimestamp"].is_string() {
        let Some(existing) = metadata["deletionGracePeriodSeconds"].as_i64().filter(|p| *p > 0) else {
            return Graceful::No;
        };
        let Some(mut period) = options.grace_period_seconds.filter(|p| *p < existing) else {
            return Graceful::AlreadyPending;
        };
        let deadline = metadata["deletionTimestamp"]
            .as_str()
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            .unwrap_or_else(jiff::Timestamp::now);
        let mut deadline =
            deadline - jiff::SignedDuration::from_secs(existing) + jiff::SignedDuration::from_secs(period);
        let now = jiff::Timestamp::now();
        if deadline < now {
            deadline = now;
            if period != 0 {
                period = 1;
            }
        }
        object["metadata"]["deletionTimestamp"] = json!(format_time(deadline));
        object["metadata"]["deletionGracePeriodSeconds"] = json!(period);
        return Graceful::Period(period);
    }
    let spec = &object["spec"];
    let mut period = options
        .grace_period_seconds
        .or_else(|| spec["terminationGracePeriodSeconds"].as_i64())
        .unwrap_or(0);
    let unscheduled = spec["nodeName"].as_str().is_none_or(str::is_empty);
    let finished = matches!(object["status"]["phase"].as_str(), Some("Succeeded" | "Failed"));
    if unscheduled || finished {
        period = 0;
    }
    let deadline = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(period);
    object["metadata"]["deletionTimestamp"] = json!(format_time(deadline));
    object["metadata"]["deletionGracePeriodSeconds"] = json!(period);
    bump_generation(object);
    Graceful::Period(period)
}

fn format_time(time: jiff::Timestamp) -> String {
    time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A controller stops acting on an object once it is being deleted: the real server
/// bumps `metadata.generation` (where kept) when the deletion starts.
fn bump_generation(object: &mut Value) {
    if let Some(generation) = object["metadata"]["generation"].as_i64().filter(|g| *g > 0) {
        object["metadata"]["generation"] = json!(generation + 1);
    }
}

/// `markAsDeleting`: an object held by finalizers gets its deletionTimestamp (kept if
/// earlier) and a zero grace period; a namespace turns Terminating.
fn mark_as_deleting(resource: &ResourceType, object: &mut Value) {
    if object["metadata"]["deletionTimestamp"].is_null() {
        bump_generation(object);
        object["metadata"]["deletionTimestamp"] = json!(now());
    }
    object["metadata"]["deletionGracePeriodSeconds"] = json!(0);
    if !resource.custom && resource.group.is_empty() && resource.plural == "namespaces" {
        object["status"]["phase"] = json!("Terminating");
    }
}

/// `deletionFinalizersForGarbageCollection`: the `orphan` and `foregroundDeletion`
/// finalizers as the request's policy (else the finalizers already there, else the
/// resource's default) asks.
fn set_gc_finalizers(resource: &ResourceType, object: &mut Value, options: &DeleteOptions) {
    let existing: Vec<String> = object["metadata"]["finalizers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str().map(str::to_owned))
        .collect();
    let has = |finalizer: &str| existing.iter().any(|f| f == finalizer);
    let (orphan, foreground) = match options.propagation {
        Some(Propagation::Orphan) => (true, false),
        Some(Propagation::Foreground) => (false, true),
        Some(Propagation::Background) => (false, false),
        None if has(ORPHAN_FINALIZER) => (true, false),
        None if has(FOREGROUND_FINALIZER) => (false, true),
        None => (orphans_by_default(resource), false),
    };
    let mut wanted: Vec<String> = existing
        .iter()
        .filter(|f| *f != ORPHAN_FINALIZER && *f != FOREGROUND_FINALIZER)
        .cloned()
        .collect();
    if orphan {
        wanted.push(ORPHAN_FINALIZER.to_owned());
    }
    if foreground {
        wanted.push(FOREGROUND_FINALIZER.to_owned());
    }
    if wanted.len() == existing.len() && wanted.iter().all(|f| has(f)) {
        return;
    }
    if wanted.is_empty() {
        if let Some(metadata) = object["metadata"].as_object_mut() {
            metadata.remove("finalizers");
        }
    } else {
        object["metadata"]["finalizers"] = json!(wanted);
    }
}
