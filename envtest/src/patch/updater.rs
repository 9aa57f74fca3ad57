//! structured-merge-diff's `merge.Updater` (`merge/update.go`): who owns what after a
//! write. An update takes the fields it changed from everyone else; an apply merges the
//! configuration into the object, fails on fields another manager owns and it changes
//! (unless forced, when it takes them), and prunes what its manager applied last time,
//! no longer applies and nobody else owns.
//!
//! All versions of a type are taken for the same shape (the converter is the identity):
//! managers that wrote in another version are compared in this one. The embedded server
//! stores one shape per type, and a conversion webhook cannot be called from here.

use std::collections::BTreeMap;

use serde_json::Value;

use super::fieldpath::{Path, Set};
use super::managed::VersionedSet;
use super::type_schema::ObjectType;
use super::typed::{Comparison, ValidationErrors};

/// Managers by identifier.
pub(crate) type Managers = BTreeMap<String, VersionedSet>;

/// Why an update could not be recorded or an apply made.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UpdateError {
    /// Fields other managers own that the write changes: (manager identifier, path).
    Conflicts(Vec<(String, Path)>),
    /// The objects do not fit their type (a `fmt.Errorf` in the real server: HTTP 500).
    Failed(String),
}

/// `merge.Updater` for one type; `ignored` are the fields the endpoint resets, which
/// nobody gains or loses by a write there.
pub(crate) struct Updater<'a> {
    pub object_type: &'a ObjectType,
    pub ignored: Option<&'a Set>,
}

impl Updater<'_> {
    fn filter(&self, set: Set) -> Set {
        match self.ignored {
            Some(ignored) => set.recursive_difference(ignored),
            None => set,
        }
    }

    fn field_set(&self, object: &Value, what: &str) -> Result<Set, UpdateError> {
        self.object_type
            .to_field_set(object)
            .map_err(|errors| UpdateError::Failed(format!("failed to create field set from {what}: {errors}")))
    }

    /// `update`: the comparison of `old` and `new`, and the other managers without what
    /// the write changed (taken, or refused as conflicts unless `force`) or removed.
    fn update(
        &self,
        old: &Value,
        new: &Value,
        mut managers: Managers,
        workflow: &str,
        force: bool,
    ) -> Result<(Managers, Comparison), UpdateError> {
        let mut comparison = self
            .object_type
            .compare(old, new)
            .map_err(|errors: ValidationErrors| UpdateError::Failed(format!("failed to compare objects: {errors}")))?;
        if let Some(ignored) = self.ignored {
            comparison.exclude(ignored);
        }
        let changed = comparison.changed();
        let mut conflicts: BTreeMap<String, Set> = BTreeMap::new();
        for (manager, versioned) in &managers {
            if manager == workflow {
                continue;
            }
            let conflicting = versioned.set.intersection(&changed);
            if !conflicting.is_empty() {
                conflicts.insert(manager.clone(), conflicting);
            }
        }
        if !force && !conflicts.is_empty() {
            let listed = conflicts
                .into_iter()
                .flat_map(|(manager, set)| set.paths().into_iter().map(move |path| (manager.clone(), path)))
                .collect();
            return Err(UpdateError::Conflicts(listed));
        }
        for (manager, versioned) in &mut managers {
            if manager == workflow {
                continue;
            }
            if let Some(taken) = conflicts.get(manager) {
                versioned.set = versioned.set.difference(taken);
            }
            if !comparison.removed.is_empty() {
                versioned.set = versioned.set.difference(&comparison.removed);
            }
        }
        managers.retain(|_, versioned| !versioned.set.is_empty());
        Ok((managers, comparison))
    }

    /// `Update`: `manager` wrote `new` over `live`; it owns what it changed, besides what
    /// it owned and did not remove.
    pub(crate) fn record_update(
        &self,
        live: &Value,
        new: &Value,
        version: &str,
        managers: Managers,
        manager: &str,
    ) -> Result<Managers, UpdateError> {
        let (mut managers, comparison) = self.update(live, new, managers, manager, true)?;
        let previous = managers
            .remove(manager)
            .map(|versioned| versioned.set)
            .unwrap_or_default();
        let set = self.filter(
            previous
                .difference(&comparison.removed)
                .union(&comparison.modified)
                .union(&comparison.added),
        );
        if !set.is_empty() {
            managers.insert(
                manager.to_owned(),
                VersionedSet {
                    set,
                    api_version: version.to_owned(),
                    applied: false,
                },
            );
        }
        Ok(managers)
    }

    /// `Apply`: the object after `manager` applied `config` to `live`, or None when the
    /// apply changes nothing in it, and the managers after.
    pub(crate) fn apply(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        mut managers: Managers,
        manager: &str,
        force: bool,
    ) -> Result<(Option<Value>, Managers), UpdateError> {
        let merged = self
            .object_type
            .merge(live, config)
            .map_err(|errors| UpdateError::Failed(format!("failed to merge config: {errors}")))?;
        let last = managers.get(manager).map(|versioned| versioned.set.clone());
        let set = self.filter(
            self.object_type
                .to_field_set(config)
                .map_err(|errors| UpdateError::Failed(format!("failed to get field set: {errors}")))?,
        );
        managers.insert(
            manager.to_owned(),
            VersionedSet {
                set,
                api_version: version.to_owned(),
                applied: true,
            },
        );
        let pruned = match last.filter(|last| !last.is_empty()) {
            Some(last) => self.prune(&merged, &managers, &last)?,
            None => merged,
        };
        let (managers, _) = self.update(live, &pruned, managers, manager, force)?;
        let changed = !super::value::equals(live, &pruned);
        Ok((changed.then_some(pruned), managers))
    }

    /// `prune`: removes what `last` (the manager's previous apply) held that no manager
    /// owns now, including the struct fields that leaves empty, and nothing else.
    fn prune(&self, merged: &Value, managers: &Managers, last: &Set) -> Result<Value, UpdateError> {
        let ensure = |set: &Set| self.object_type.ensure_named_fields_are_members(set);
        let last = ensure(last);
        let pruned = self.object_type.remove_items(merged, &last);

        // addBackOwnedItems: whatever any manager (the applier's new set included) owns
        // comes back.
        let owned = managers
            .values()
            .fold(Set::new(), |all, versioned| all.union(&versioned.set));
        let merged_set = ensure(&self.field_set(merged, "merged object")?);
        let pruned_set = ensure(&self.field_set(&pruned, "pruned object")?);
        let pruned = self
            .object_type
            .remove_items(merged, &merged_set.difference(&pruned_set.union(&ensure(&owned))));

        // addBackDanglingItems: only what the applier owned before is removed.
        let pruned_set = ensure(&self.field_set(&pruned, "pruned object")?);
        Ok(self
            .object_type
            .remove_items(merged, &merged_set.difference(&pruned_set).intersection(&last)))
    }
}
