//! The authorizations the `OwnerReferencesPermissionEnforcement` admission plugin asks for
//! (`plugin/pkg/admission/gc`), recorded as evidence though not enforced: a default
//! cluster does not run the plugin, but some distributions and hardened clusters do, and an
//! operator whose rules lack them cannot own its children there.

use std::collections::HashMap;

use serde_json::Value;

use crate::request::Target;
use crate::resources::registry::Registry;
use crate::state::{Evidence, Object};

/// Updates of these may change owner references without `delete` on the object.
const WHITELISTED: &[(&str, &str, &str)] = &[("", "pods", "status")];

/// What the plugin authorizes for a create (`old` None) or update of `object` through
/// `target`: `delete` on the object when an update changes its owner references, and
/// `update` on the owner's `finalizers` subresource for each reference that newly
/// blocks the owner's deletion.
pub(crate) fn checks(registry: &Registry, target: &Target, object: &Value, old: Option<&Value>) -> Vec<Evidence> {
    let resource = &target.resource;
    let subresource = target.subresource.as_deref().unwrap_or_default();
    if WHITELISTED.contains(&(resource.group.as_str(), resource.plural.as_str(), subresource)) {
        return Vec::new();
    }
    let new_refs = owner_references(object);
    let changing = match old {
        None => !new_refs.is_empty(),
        Some(old) => owner_references(old) != new_refs,
    };
    if !changing {
        return Vec::new();
    }
    let mut checks = Vec::new();
    if old.is_some() {
        let resource_name = match &target.subresource {
            Some(sub) => format!("{}/{sub}", resource.plural),
            None => resource.plural.clone(),
        };
        checks.push(Evidence {
            namespace: target.namespace.clone(),
            object: Object::Resource {
                group: resource.group.clone(),
                resource: resource_name,
            },
            verb: "delete".to_owned(),
        });
    }
    let was_blocking: HashMap<&str, bool> = old
        .map(owner_references)
        .unwrap_or_default()
        .into_iter()
        .map(|reference| (reference["uid"].as_str().unwrap_or_default(), blocks(reference)))
        .collect();
    for reference in new_refs {
        let uid = reference["uid"].as_str().unwrap_or_default();
        if !blocks(reference) || was_blocking.get(uid).copied().unwrap_or(false) {
            continue;
        }
        let api_version = reference["apiVersion"].as_str().unwrap_or_default();
        let kind = reference["kind"].as_str().unwrap_or_default();
        // The plugin refuses a reference it cannot map; there is nothing to grant for it.
        if let Some(owner) = registry.by_kind(api_version, kind) {
            checks.push(Evidence {
                namespace: target.namespace.clone(),
                object: Object::Resource {
                    group: owner.group.clone(),
                    resource: format!("{}/finalizers", owner.plural),
                },
                verb: "update".to_owned(),
            });
        }
    }
    checks
}

fn owner_references(object: &Value) -> Vec<&Value> {
    object["metadata"]["ownerReferences"]
        .as_array()
        .map(|references| references.iter().collect())
        .unwrap_or_default()
}

fn blocks(reference: &Value) -> bool {
    reference["blockOwnerDeletion"].as_bool() == Some(true)
}
