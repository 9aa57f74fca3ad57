//! wheelhouse-envtest-validation: the validation kube-apiserver runs on built-in objects
//! before it stores them, ported from `pkg/apis/<group>/validation` and apimachinery's
//! `pkg/api/validation` function by function, with kube's field paths, reasons and
//! messages. The embedded API server of `wheelhouse-envtest` calls [`validate`] on every
//! create, update and subresource write of a built-in resource; this crate knows nothing
//! of the server (no request, storage or state), only JSON values.
//!
//! Reading order: [`validate`] dispatches by API group to one module per group (`core`,
//! `apps`, `batch`, ...), whose functions carry the names of the Go functions they port
//! (`validate_pod_spec` is `ValidatePodSpec`) and run their checks in Go's order, so the
//! first error and the list of causes match; `meta` is `ValidateObjectMeta` and its
//! relatives, which every type's validation starts with; [`field`] is `field.Path` and
//! the error list.
//!
//! The object handed in has been decoded as its Go type (a field of the wrong type was
//! already a 400) and defaulted; fields are read from the JSON, where a missing field is
//! Go's zero value.
//!
//! # What is ported
//!
//! | kube function | here | covered by |
//! |---|---|---|
//! | (filled in as functions are ported) | | |

pub mod field;

mod godump;
mod json;
mod meta;
mod quantity;
mod util;

mod admissionregistration;
mod apps;
mod autoscaling;
mod batch;
mod certificates;
mod coordination;
mod core;
mod discovery;
mod events;
mod networking;
mod node;
mod policy;
mod rbac;
mod scheduling;
mod storage;

use serde_json::Value;

pub use crate::field::{ErrorList, FieldError, Path};

/// The resource being written: its group, version and kind, and whether it lives in a
/// namespace.
#[derive(Debug, Clone, Copy)]
pub struct Kind<'a> {
    /// The API group, empty for core.
    pub group: &'a str,
    /// The version the object was written in (`v1`, `v2`, `v1beta1`).
    pub version: &'a str,
    /// The kind, such as `Pod`.
    pub kind: &'a str,
    /// Whether objects of the kind live in a namespace.
    pub namespaced: bool,
}

/// What the write does, which picks the validation function kube runs (`Validate`,
/// `ValidateUpdate`, or a subresource strategy's).
#[derive(Debug, Clone, Copy)]
pub enum Write<'a> {
    /// A create (`POST`).
    Create,
    /// An update of the main resource, `old` as stored.
    Update {
        /// The object as stored before the write.
        old: &'a Value,
    },
    /// A write through a subresource (`status`, `scale`, `ephemeralcontainers`,
    /// `resize`, `finalize`, `approval`), `old` as stored.
    Subresource {
        /// The subresource's name.
        name: &'a str,
        /// The object as stored before the write.
        old: &'a Value,
    },
}

impl<'a> Write<'a> {
    /// The stored object, for an update or a subresource write.
    pub fn old(&self) -> Option<&'a Value> {
        match *self {
            Self::Create => None,
            Self::Update { old } | Self::Subresource { old, .. } => Some(old),
        }
    }
}

/// The errors kube-apiserver's validation finds in `object`, written as `write` says,
/// in the order it finds them; empty when the object is valid or its kind has no
/// validation here yet.
///
/// The order is the generic registry's: on create the kind's own validation, then,
/// only if that passed, `rest.BeforeCreate`'s metadata check with path-segment names;
/// on an update (or a subresource write) `rest.BeforeUpdate`'s metadata checks first,
/// then the kind's.
pub fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => {
            let errors = validate_kind(kind, object, write);
            if !errors.is_empty() {
                return errors;
            }
            meta::validate_generic_create(object, kind.namespaced)
        }
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = meta::validate_common_update(object, old, kind.namespaced);
            errors.extend(validate_kind(kind, object, write));
            errors
        }
    }
}

/// Whether [`validate`] ports the kind's own validation, its metadata (name rule
/// included) with it; the server keeps its older checks for the other kinds.
pub fn ports(kind: &Kind) -> bool {
    match kind.group {
        "" => core::ports(kind.kind),
        _ => false,
    }
}

/// The kind's own validation (its strategy's `Validate`, `ValidateUpdate` or a
/// subresource strategy's).
fn validate_kind(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match kind.group {
        "" => core::validate(kind, object, write),
        "apps" => apps::validate(kind, object, write),
        "batch" => batch::validate(kind, object, write),
        "autoscaling" => autoscaling::validate(kind, object, write),
        "networking.k8s.io" => networking::validate(kind, object, write),
        "policy" => policy::validate(kind, object, write),
        "rbac.authorization.k8s.io" => rbac::validate(kind, object, write),
        "storage.k8s.io" => storage::validate(kind, object, write),
        "coordination.k8s.io" => coordination::validate(kind, object, write),
        "scheduling.k8s.io" => scheduling::validate(kind, object, write),
        "certificates.k8s.io" => certificates::validate(kind, object, write),
        "discovery.k8s.io" => discovery::validate(kind, object, write),
        "admissionregistration.k8s.io" => admissionregistration::validate(kind, object, write),
        "events.k8s.io" => events::validate(kind, object, write),
        "node.k8s.io" => node::validate(kind, object, write),
        _ => ErrorList::new(),
    }
}
