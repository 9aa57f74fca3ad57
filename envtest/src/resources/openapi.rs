//! `/openapi/v3`, as kube-apiserver serves it (`k8s.io/kube-openapi/pkg/handler3`): an
//! index of one document per group version, each URL carrying a hash of its content
//! (clients cache by URL), and each document the group version's paths and the
//! schemas of its kinds. `kubectl explain` reads the schemas; kubectl also reads the
//! paths to learn that the server validates fields itself (`fieldValidation`).
//! `/openapi/v2` (`v2`) is made from the same documents.

mod extensions;
mod go_time;
mod ordered;
mod paths;
mod schemas;
mod unmarshal;
pub(crate) mod v2;

use serde_json::{Value, json};

pub(crate) use self::ordered::ordered_json;
pub(crate) use self::schemas::{
    Definitions, builtin_type, convert_integers, custom_definition, object_meta_definitions, prune_object_meta,
    prune_unknown_fields, read_as_go, selectable_fields, unknown_fields, unknown_object_meta_fields, visit_typed,
};
pub(crate) use self::unmarshal::{Mode, object_meta_error, type_error};
use crate::core::sha512_hex;
use crate::resources::registry::Registry;

/// `GET /openapi/v3`.
pub(crate) fn index(registry: &Registry) -> Value {
    let mut paths = serde_json::Map::new();
    for (group, versions) in registry.groups() {
        for version in versions {
            let key = if group.is_empty() {
                format!("api/{version}")
            } else {
                format!("apis/{group}/{version}")
            };
            let Some(document) = group_version(registry, &group, &version) else {
                continue;
            };
            // kube-openapi's `computeETag`: the SHA-512 of the document served.
            let hash = sha512_hex(&serde_json::to_vec(&document).unwrap_or_default());
            paths.insert(
                key.clone(),
                json!({"serverRelativeURL": format!("/openapi/v3/{key}?hash={hash}")}),
            );
        }
    }
    json!({"paths": paths})
}

/// `GET /openapi/v3/api/v1` or `/openapi/v3/apis/<group>/<version>`.
pub(crate) fn group_version(registry: &Registry, group: &str, version: &str) -> Option<Value> {
    let list = registry.resource_list(group, version)?;
    let mut definitions = schemas::builtin_group_version(group, version).as_ref().clone();
    for resource in registry.of_group_version(group, version) {
        if resource.custom {
            schemas::add_custom(&resource, &mut definitions);
        }
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": crate::core::openapi_version()},
        "paths": paths::paths(&list, group, version),
        "components": {"schemas": definitions},
    }))
}
