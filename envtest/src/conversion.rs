//! Custom resources between the versions of their CRD, as apiextensions-apiserver
//! converts them (`pkg/apiserver/conversion`): objects are stored in the CRD's storage
//! version and served in the version a request names.
//!
//! - Strategy `None` (`nopConverter`): only `apiVersion` changes.
//! - Strategy `Webhook` (`webhookConverter`): the objects that are not yet in the
//!   desired version go to the CRD's webhook in one `ConversionReview` (`review`), over
//!   the HTTPS clients admission webhooks use; the answer is checked as kube-apiserver
//!   checks it (count, `apiVersion`, kind, name, namespace and uid), and the converted
//!   objects keep their original metadata but for labels and annotations. A webhook that
//!   cannot be called or that answers wrongly fails the request with kube-apiserver's
//!   500 and message (`conversion webhook for <group>/<version>, Kind=<Kind> failed: ...`).
//!
//! Reads of a version other than the storage one convert each stored object to it;
//! writes convert the object to the storage version before it is stored and the stored
//! object back for the answer, as kube-apiserver's storage codec does.
//!
//! May import: `core`, `admission` (its webhook client).

mod review;

use std::sync::Arc;

use serde_json::{Value, json};

use crate::admission::Webhooks;
use crate::core::{ApiError, ResourceType};

/// Whether objects read through `resource` may need the CRD's webhook: its strategy is
/// `Webhook`. That holds for the storage version too, since objects written before the
/// storage version changed stay in the version they were written in; which objects are
/// sent is decided object by object. (Strategy `None` needs nothing here: the served
/// views rewrite `apiVersion`.)
pub(crate) fn by_webhook(resource: &ResourceType) -> bool {
    resource
        .versions
        .as_deref()
        .is_some_and(|versions| versions.webhook.is_some())
}

/// Whether a stored object of `resource` is in another version than its CRD's storage
/// version (written before the storage version changed).
pub(crate) fn outside_storage_version(resource: &ResourceType, stored: &Value) -> bool {
    resource
        .versions
        .as_deref()
        .is_some_and(|versions| stored["apiVersion"] != api_version_of(resource, &versions.storage_version).as_str())
}

/// A stored object as `resource`'s version serves it: converted by the CRD's webhook
/// when it is in another version, else the object itself.
pub(crate) async fn for_read(
    webhooks: &Webhooks,
    resource: &ResourceType,
    object: Arc<Value>,
) -> Result<Arc<Value>, ApiError> {
    if !needs_webhook(resource, &object, &resource.version) {
        return Ok(object);
    }
    let mut converted = convert(webhooks, resource, vec![object], &resource.version).await?;
    converted
        .pop()
        .ok_or_else(|| ApiError::new(500, "", "conversion returned no object"))
}

/// Stored objects as `resource`'s version serves them, those in another version
/// converted together in one call to the CRD's webhook (a list, or a page of one).
pub(crate) async fn list_for_read(
    webhooks: &Webhooks,
    resource: &ResourceType,
    objects: Vec<Arc<Value>>,
) -> Result<Vec<Arc<Value>>, ApiError> {
    if !objects.iter().any(|o| needs_webhook(resource, o, &resource.version)) {
        return Ok(objects);
    }
    convert(webhooks, resource, objects, &resource.version).await
}

/// An object written through `resource`, in the CRD's storage version: converted by
/// the webhook, or with its `apiVersion` rewritten under strategy `None`.
pub(crate) async fn to_storage(webhooks: &Webhooks, resource: &ResourceType, object: Value) -> Result<Value, ApiError> {
    let Some(versions) = resource.versions.as_deref() else {
        return Ok(object);
    };
    let storage = versions.storage_version.clone();
    if api_version_of(resource, &storage) == object["apiVersion"].as_str().unwrap_or_default() {
        return Ok(object);
    }
    if versions.webhook.is_none() {
        let mut object = object;
        object["apiVersion"] = json!(api_version_of(resource, &storage));
        return Ok(object);
    }
    let mut converted = convert(webhooks, resource, vec![Arc::new(object)], &storage).await?;
    let object = converted
        .pop()
        .ok_or_else(|| ApiError::new(500, "", "conversion returned no object"))?;
    Ok(Arc::unwrap_or_clone(object))
}

/// An object to the version `version` of its CRD, as an admission webhook registered
/// for that version with `matchPolicy: Equivalent` is sent it.
pub(crate) async fn to_version(
    webhooks: &Webhooks,
    resource: &ResourceType,
    object: &Value,
    version: &str,
) -> Result<Value, ApiError> {
    let desired = api_version_of(resource, version);
    if object["apiVersion"] == desired.as_str() {
        return Ok(object.clone());
    }
    let uses_webhook = resource.versions.as_deref().is_some_and(|v| v.webhook.is_some());
    if !uses_webhook {
        let mut object = object.clone();
        object["apiVersion"] = json!(desired);
        return Ok(object);
    }
    let mut converted = convert(webhooks, resource, vec![Arc::new(object.clone())], version).await?;
    let object = converted
        .pop()
        .ok_or_else(|| ApiError::new(500, "", "conversion returned no object"))?;
    Ok(Arc::unwrap_or_clone(object))
}

fn api_version_of(resource: &ResourceType, version: &str) -> String {
    if resource.group.is_empty() {
        version.to_owned()
    } else {
        format!("{}/{version}", resource.group)
    }
}

fn needs_webhook(resource: &ResourceType, object: &Value, version: &str) -> bool {
    resource.versions.as_deref().is_some_and(|v| v.webhook.is_some())
        && object["apiVersion"] != api_version_of(resource, version).as_str()
}

/// Go's `GroupVersionKind.String()` of an object: `group/version, Kind=Kind`.
fn gvk_of(object: &Value) -> String {
    format!(
        "{}, Kind={}",
        object["apiVersion"].as_str().unwrap_or_default(),
        object["kind"].as_str().unwrap_or_default()
    )
}

/// `webhookConverter.Convert`: the objects not in `version` go to the webhook in one
/// review, and come back checked and with their metadata restored; the others stay as
/// they are. Errors are worded as kube-apiserver words them for one object, which is
/// how its storage converts the objects of a list too (one by one, as it decodes them).
async fn convert(
    webhooks: &Webhooks,
    resource: &ResourceType,
    objects: Vec<Arc<Value>>,
    version: &str,
) -> Result<Vec<Arc<Value>>, ApiError> {
    let desired = api_version_of(resource, version);
    let Some(webhook) = resource.versions.as_deref().and_then(|v| v.webhook.as_ref()) else {
        return Ok(objects);
    };
    let pending: Vec<usize> = (0..objects.len())
        .filter(|i| objects[*i]["apiVersion"] != desired.as_str())
        .collect();
    let Some(first) = pending.first() else {
        return Ok(objects);
    };
    let failure = |object: &Value, detail: String| {
        ApiError::new(500, "", format!("conversion webhook for {} {detail}", gvk_of(object)))
    };
    let sent: Vec<&Value> = pending.iter().map(|i| objects[*i].as_ref()).collect();
    let converted = review::call(webhooks, webhook, &sent, &desired)
        .await
        .map_err(|error| match error {
            review::Error::Unsupported(message) => ApiError::new(500, "", message),
            review::Error::Failed(message) => failure(&objects[*first], format!("failed: {message}")),
        })?;
    if converted.len() != pending.len() {
        let detail = format!("returned {} objects, expected {}", converted.len(), pending.len());
        return Err(failure(&objects[*first], detail));
    }
    let mut objects = objects;
    for (index, mut object) in pending.into_iter().zip(converted) {
        let original = &objects[index];
        check_converted(original, &object, &desired)
            .map_err(|detail| failure(original, format!("returned invalid object at index 0: {detail}")))?;
        same_identity(original, &object)
            .map_err(|detail| failure(original, format!("returned invalid object: {detail}")))?;
        restore_metadata(original, &mut object)
            .map_err(|detail| failure(original, format!("returned invalid metadata: {detail}")))?;
        objects[index] = Arc::new(object);
    }
    Ok(objects)
}

/// The converted object is of the desired group version and of the original's kind.
fn check_converted(original: &Value, converted: &Value, desired: &str) -> Result<(), String> {
    let received = converted["apiVersion"].as_str().unwrap_or_default();
    if received != desired {
        return Err(format!(
            "invalid groupVersion (expected {desired}, received {received})"
        ));
    }
    let (expected, received) = (
        original["kind"].as_str().unwrap_or_default(),
        converted["kind"].as_str().unwrap_or_default(),
    );
    if expected != received {
        return Err(format!("invalid kind (expected {expected}, received {received})"));
    }
    Ok(())
}

/// `validateConvertedObject`: a webhook may not change what the object is.
fn same_identity(original: &Value, converted: &Value) -> Result<(), String> {
    let field = |object: &Value, pointer: &str| {
        object
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    for (name, pointer) in [
        ("kind", "/kind"),
        ("name", "/metadata/name"),
        ("namespace", "/metadata/namespace"),
        ("UID", "/metadata/uid"),
    ] {
        let (expected, received) = (field(original, pointer), field(converted, pointer));
        if expected != received {
            return Err(format!("must have the same {name}: {expected} != {received}"));
        }
    }
    Ok(())
}

/// `restoreObjectMeta`: the converted object gets the original's metadata, but for
/// the labels and annotations the webhook returned (strings only).
fn restore_metadata(original: &Value, converted: &mut Value) -> Result<(), String> {
    let returned = match converted.get("metadata") {
        None => return Err("missing metadata in converted object".to_owned()),
        Some(Value::Object(metadata)) => metadata.clone(),
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in converted object",
                go_type(other)
            ));
        }
    };
    let mut metadata = original["metadata"].as_object().cloned().unwrap_or_default();
    for field in ["labels", "annotations"] {
        match returned.get(field) {
            None | Some(Value::Null) => {
                metadata.remove(field);
            }
            Some(Value::Object(entries)) => {
                if let Some((key, value)) = entries.iter().find(|(_, v)| !v.is_string()) {
                    return Err(format!(
                        "metadata.{field}[{key}] must be a string, but is {} in converted object",
                        go_type(value)
                    ));
                }
                metadata.insert(field.to_owned(), Value::Object(entries.clone()));
            }
            Some(other) => {
                return Err(format!(
                    "invalid metadata.{field} of type {} in converted object",
                    go_type(other)
                ));
            }
        }
    }
    converted["metadata"] = Value::Object(metadata);
    Ok(())
}

/// How Go's `%T` names a decoded JSON value.
fn go_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

#[cfg(test)]
mod tests;
