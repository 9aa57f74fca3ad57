//! Predicates: which updates of the primary resource are worth a reconcile. Creates,
//! deletes and re-syncs always pass; a predicate sees the object before and after.

use std::sync::Arc;

use kube::Resource;

/// Decides whether an update from `old` to `new` triggers a reconcile.
///
/// ```
/// use k8s_openapi::api::apps::v1::Deployment;
/// use wheelhouse_controller::predicate::{Predicate, annotations_changed, generation_changed, labels_changed};
///
/// // A status-only update bumps neither generation nor labels nor annotations.
/// let spec_or_metadata = generation_changed().or(labels_changed()).or(annotations_changed());
/// let mut old = Deployment::default();
/// old.metadata.generation = Some(1);
/// let mut new = old.clone();
/// new.status = Some(Default::default());
/// assert!(!spec_or_metadata.update(&old, &new));
/// new.metadata.generation = Some(2);
/// assert!(spec_or_metadata.update(&old, &new));
/// assert!(!spec_or_metadata.clone().not().update(&old, &new));
/// ```
pub struct Predicate<K> {
    update: Arc<UpdateFn<K>>,
}

/// Whether an update from the first object to the second passes.
type UpdateFn<K> = dyn Fn(&K, &K) -> bool + Send + Sync;

impl<K> Clone for Predicate<K> {
    fn clone(&self) -> Self {
        Self {
            update: self.update.clone(),
        }
    }
}

impl<K> std::fmt::Debug for Predicate<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Predicate").finish_non_exhaustive()
    }
}

impl<K: 'static> Predicate<K> {
    /// A predicate from a function of the old and new object.
    pub fn new(update: impl Fn(&K, &K) -> bool + Send + Sync + 'static) -> Self {
        Self {
            update: Arc::new(update),
        }
    }

    /// Whether the update passes.
    pub fn update(&self, old: &K, new: &K) -> bool {
        (self.update)(old, new)
    }

    /// Passes when both pass.
    #[must_use]
    pub fn and(self, other: Self) -> Self {
        Self::new(move |old, new| self.update(old, new) && other.update(old, new))
    }

    /// Passes when either passes.
    #[must_use]
    pub fn or(self, other: Self) -> Self {
        Self::new(move |old, new| self.update(old, new) || other.update(old, new))
    }

    /// Passes when this one does not.
    #[must_use]
    #[expect(clippy::should_implement_trait, reason = "reads as a sentence beside and/or")]
    pub fn not(self) -> Self {
        Self::new(move |old, new| !self.update(old, new))
    }
}

/// Passes when `metadata.generation` changed: a spec change, not a status update.
pub fn generation_changed<K: Resource + 'static>() -> Predicate<K> {
    Predicate::new(|old: &K, new: &K| old.meta().generation != new.meta().generation)
}

/// Passes when the labels changed.
pub fn labels_changed<K: Resource + 'static>() -> Predicate<K> {
    Predicate::new(|old: &K, new: &K| old.meta().labels != new.meta().labels)
}

/// Passes when the annotations changed.
pub fn annotations_changed<K: Resource + 'static>() -> Predicate<K> {
    Predicate::new(|old: &K, new: &K| old.meta().annotations != new.meta().annotations)
}

/// Passes when deletion starts (`metadata.deletionTimestamp` appears): pair it with
/// [`generation_changed`] so that a finalizer still runs when status-only updates are
/// filtered out.
///
/// ```
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
/// use wheelhouse_controller::predicate::deletion_started;
///
/// let old = ConfigMap::default();
/// let mut new = old.clone();
/// assert!(!deletion_started().update(&old, &new));
/// new.metadata.deletion_timestamp = Some(Time(jiff::Timestamp::now()));
/// assert!(deletion_started().update(&old, &new));
/// ```
pub fn deletion_started<K: Resource + 'static>() -> Predicate<K> {
    Predicate::new(|old: &K, new: &K| old.meta().deletion_timestamp != new.meta().deletion_timestamp)
}
