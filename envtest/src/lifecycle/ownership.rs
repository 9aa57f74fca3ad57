//! Who a write is for managed fields: its manager, endpoint and what that endpoint
//! resets, as kube-apiserver builds one field manager per resource and subresource; and
//! the structure of the written type, which server-side apply merges by, built from the
//! schemas `/openapi/v3` serves (a custom resource's version, or a built-in type with
//! its `x-kubernetes-*` extensions).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Weak};

use parking_lot::Mutex;
use serde_json::Value;

use crate::core::ResourceType;
use crate::patch::apply::Writer;
use crate::patch::type_schema::{self, ObjectType, Schema};
use crate::resources::openapi;

/// The managed-fields writer of a write of `resource` by `manager` at `now` through
/// `subresource` (`status`, `scale`, `finalize`, or None for the main endpoint).
pub(crate) fn writer<'a>(
    resource: &'a ResourceType,
    manager: &'a str,
    now: &'a str,
    subresource: Option<&'a str>,
) -> Writer<'a> {
    // The strategies' `GetResetFields`: `/status` resets the spec, and the main
    // endpoint of a type with a status subresource resets the status; a
    // CertificateSigningRequest's main endpoint resets its spec too (its user fields
    // are the server's).
    let csr = !resource.custom && resource.kind == "CertificateSigningRequest";
    let reset: &'static [&'static str] = match subresource {
        None if csr => &["spec", "status"],
        Some("status") => &["spec"],
        // A namespace's `/finalize` resets its status, as its main endpoint does.
        Some("finalize") => &["status"],
        None if resource.status => &["status"],
        _ => &[],
    };
    Writer {
        manager,
        now,
        subresource,
        api_version: resource.api_version(),
        kind: &resource.kind,
        object_type: object_type(resource),
        custom: resource.custom,
        built_in: resource.catalogue().filter(|_| !resource.custom),
        reset,
    }
}

/// The structure of `resource`'s objects: a custom resource's from its version's
/// schema (metadata typed as `ObjectMeta`), a built-in's from its type's schema; a type
/// with neither merges maps by field and replaces lists (`NewDeducedTypeConverter`).
fn object_type(resource: &ResourceType) -> Arc<ObjectType> {
    if resource.custom {
        return custom_type(resource).unwrap_or_else(|| Arc::new(ObjectType::deduced()));
    }
    match resource.catalogue() {
        Some(builtin) => builtin_type(builtin),
        None => Arc::new(ObjectType::deduced()),
    }
}

/// Built-in types never change: each is converted once.
fn builtin_type(builtin: &'static crate::core::Builtin) -> Arc<ObjectType> {
    static CACHE: LazyLock<Mutex<HashMap<usize, Arc<ObjectType>>>> = LazyLock::new(Mutex::default);
    let key = std::ptr::from_ref(builtin) as usize;
    if let Some(found) = CACHE.lock().get(&key) {
        return found.clone();
    }
    let definitions = openapi::builtin_type(builtin);
    let (root, definitions) = definitions.as_ref();
    let converted = Arc::new(ObjectType {
        schema: Arc::new(Schema::layered(type_schema::convert(definitions, false), None)),
        root: type_schema::named(root),
    });
    CACHE.lock().insert(key, converted.clone());
    converted
}

/// A custom resource version's type, converted once per schema: a CRD update brings a
/// new schema (a new `Arc`), which is converted anew; the entries of schemas no longer
/// held are dropped as the cache grows.
fn custom_type(resource: &ResourceType) -> Option<Arc<ObjectType>> {
    type Converted = (Weak<Value>, Arc<ObjectType>);
    static CACHE: LazyLock<Mutex<HashMap<usize, Converted>>> = LazyLock::new(Mutex::default);
    let schema = resource.schema.as_ref()?;
    let key = Arc::as_ptr(schema) as usize;
    if let Some((held, converted)) = CACHE.lock().get(&key)
        && held.upgrade().is_some_and(|held| Arc::ptr_eq(&held, schema))
    {
        return Some(converted.clone());
    }
    let converted = Arc::new(convert_custom(resource)?);
    let mut cache = CACHE.lock();
    if cache.len() >= 256 {
        cache.retain(|_, (held, _)| held.strong_count() > 0);
    }
    cache.insert(key, (Arc::downgrade(schema), converted.clone()));
    Some(converted)
}

/// A custom resource's type from its schema, over `ObjectMeta`'s types, converted once.
fn convert_custom(resource: &ResourceType) -> Option<ObjectType> {
    static META: LazyLock<Arc<Schema>> = LazyLock::new(|| {
        Arc::new(Schema::layered(
            type_schema::convert(openapi::object_meta_definitions(), false),
            None,
        ))
    });
    let (name, schema) = openapi::custom_definition(resource)?;
    let mut definitions = openapi::Definitions::new();
    definitions.insert(name.clone(), schema);
    Some(ObjectType {
        schema: Arc::new(Schema::layered(
            type_schema::convert(&definitions, false),
            Some(META.clone()),
        )),
        root: type_schema::named(&name),
    })
}
