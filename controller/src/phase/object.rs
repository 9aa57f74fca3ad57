//! The phase scheduler's vocabulary, shared by its inputs, outputs and status: what
//! an object and a phased resource are, the labels every output carries, and how a
//! part of the scheduler adds to the controller's builder. It imports none of them.

use std::fmt::Debug;

use kube::Resource;
use kube::core::object::HasStatus;
use serde::Serialize;
use serde::de::DeserializeOwned;
use wheelhouse_cache::ScopeKind;

use crate::controller::Builder;
use crate::phase::declaration::Phase;
use crate::phase::status::PhaseStatus;

/// The name of the index, on every input type's store, of objects by label.
pub const LABELS_INDEX: &str = "wheelhouse.rs/labels";

/// The label on every output: the uid of the resource it was produced for.
pub const OWNER_UID_LABEL: &str = "wheelhouse.rs/owner-uid";
/// The label on every output: the phase whose worker produced it last.
pub const PHASE_LABEL: &str = "wheelhouse.rs/phase";
/// The label on every output: the controller that applied it.
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";

/// A typed Kubernetes object the scheduler can read, watch or apply: any `k8s-openapi`
/// type or `#[derive(CustomResource)]` struct.
pub trait Object:
    Resource<DynamicType = (), Scope: ScopeKind> + Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

impl<T> Object for T where
    T: Resource<DynamicType = (), Scope: ScopeKind>
        + Clone
        + Debug
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static
{
}

/// A resource the phase scheduler can run: a typed Kubernetes object whose status is a
/// [`PhaseStatus`]. Implemented for every such type (a `#[derive(CustomResource)]`
/// struct with `status = "PhaseStatus<..>"`, or an alias of it); nothing to write.
pub trait Phased: Object {
    /// The phases.
    type Phase: Phase;
    /// What the workers share in the status.
    type Info: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// The status, if the resource has one yet.
    fn phase_status(&self) -> Option<&PhaseStatus<Self::Phase, Self::Info>>;
}

impl<K, P, I> Phased for K
where
    K: Object + HasStatus<Status = PhaseStatus<P, I>>,
    P: Phase,
    I: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static,
{
    type Phase = P;
    type Info = I;

    fn phase_status(&self) -> Option<&PhaseStatus<P, I>> {
        self.status()
    }
}

/// Something to add to the controller's builder at build time (a watch, an owned type).
pub(crate) type Registration<K> = Box<dyn FnOnce(Builder<K>) -> Builder<K> + Send>;
