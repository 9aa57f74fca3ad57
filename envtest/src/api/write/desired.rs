//! The object a PUT, a patch or a write of `/scale` asks for, from the current one: the
//! patch types applied as kube-apiserver's patch handler applies them, and the patched
//! result decoded and checked as that handler checks it (its 422 of `patch`, the name
//! and namespace of the URL).

use serde_json::{Value, json};
use wheelhouse_envtest_schema::errors::{go_json, go_plain};

use super::{Write, patch_error};
use crate::core::{ApiError, Verb};
use crate::lifecycle::check_type;
use crate::patch;

impl Write<'_> {
    /// A patched object names the object of the URL, as the patch handler checks it
    /// (`EnsureObjectNamespaceMatchesRequestNamespace`, then `checkName`): a namespace
    /// the patch removed is the request's again, a cluster-scoped object's is cleared,
    /// another namespace or another name is a 400 (a rename is never a write).
    fn check_patched_name(&self, patched: &mut Value) -> Result<(), ApiError> {
        let resource = self.resource();
        if !patched["metadata"].is_object() {
            patched["metadata"] = json!({});
        }
        let request_namespace = if resource.namespaced {
            self.target.namespace.clone().unwrap_or_default()
        } else {
            String::new()
        };
        let namespace = patched["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
        if namespace != request_namespace {
            if namespace.is_empty() || request_namespace.is_empty() {
                patched["metadata"]["namespace"] = json!(request_namespace);
                if request_namespace.is_empty()
                    && let Some(metadata) = patched["metadata"].as_object_mut()
                {
                    metadata.remove("namespace");
                }
            } else {
                return Err(ApiError::bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request",
                ));
            }
        }
        self.check_name(patched["metadata"]["name"].as_str().unwrap_or_default())
    }

    /// The object a PUT or a patch asks for, from the current one.
    pub(super) fn desired(&self, current: &Value, manager: &str, now: &str) -> Result<Value, ApiError> {
        let resource = self.resource();
        if self.target.verb == Verb::Update {
            return self.body_object();
        }
        let mut strategic_shown: Option<String> = None;
        let mut patch_body: Option<Value> = None;
        let patched = if self.is_apply() {
            let applied = self.applied_config()?;
            let writer = crate::lifecycle::writer(resource, manager, now, self.subresource_for_update());
            let object = patch::apply::apply(Some(current), &applied, self.target.flag("force"), &writer)
                .map_err(patch_error)?;
            Ok(converted_from_apply(resource, &applied, object)?)
        } else {
            let media_type = self.content_type.split(';').next().unwrap_or_default().trim();
            let decoded = match media_type {
                "application/merge-patch+json" | "application/json-patch+json" => {
                    patch::decode(self.body, "error decoding patch: ")
                }
                _ => patch::decode(self.body, ""),
            };
            patch_body = decoded.as_ref().ok().cloned();
            match media_type {
                "application/merge-patch+json" => decoded.and_then(|body| patch::merge(current, &body)),
                "application/json-patch+json" => decoded.and_then(|body| patch::json(current, &body)),
                "application/strategic-merge-patch+json" if !resource.custom => decoded.and_then(|body| {
                    strategic_shown = Some(go_plain(&body));
                    patch::strategic::strategic_merge(current, &body, &resource.group, &resource.kind)
                }),
                other => {
                    return Err(ApiError::new(
                        415,
                        "UnsupportedMediaType",
                        format!(
                            "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got {other})"
                        ),
                    ));
                }
            }
        };
        let mut patched = patched.map_err(patch_error)?;
        if !self.is_apply() {
            // What the patch handler quotes of a patch that does not decode: the patched
            // JSON, or the strategic merge patch itself as Go prints a map.
            let strategic = strategic_shown.is_some();
            // A built-in object is patched as its Go encoding, in struct field order,
            // but for the objects the patch reached, which json-patch re-encodes sorted.
            let shown = strategic_shown.unwrap_or_else(|| match resource.catalogue().filter(|_| !resource.custom) {
                Some(builtin) => {
                    let reached = patch_body
                        .as_ref()
                        .map(|body| reached_paths(current, body))
                        .unwrap_or_default();
                    crate::resources::go_encoding::go_struct_json(builtin, &patched, &|path| reached.sorted(path))
                }
                None => go_json(&patched),
            });
            self.decode_patched(&mut patched, &shown, strategic)?;
        }
        check_type(resource, &patched)?;
        self.check_patched_name(&mut patched)?;
        Ok(patched)
    }

    /// A merge, JSON or strategic merge patch's result decoded into the resource's
    /// type, as the patch handler decodes it: a result that is not an object of this
    /// kind and version, has a field of the wrong type or (under `fieldValidation=
    /// Strict`) a field its type lacks is the handler's 422 of `patch`, quoting `shown`.
    /// A built-in result without kind or apiVersion takes the path's, as its codec does.
    /// A strategic merge patch's result is converted from the patched map, not decoded
    /// from JSON, and refused in the converter's words.
    fn decode_patched(&self, patched: &mut Value, shown: &str, strategic: bool) -> Result<(), ApiError> {
        let resource = self.resource();
        let invalid = |why: &str| ApiError::invalid_patch(shown, why);
        if !patched.is_object() {
            return Err(invalid("the patched object is not a JSON object"));
        }
        let text = |value: &Value, field: &str| value[field].as_str().unwrap_or_default().to_owned();
        if resource.custom {
            if text(patched, "kind").is_empty() {
                return Err(invalid(&format!("Object 'Kind' is missing in '{shown}'")));
            }
        } else {
            for (field, default) in [("kind", resource.kind.clone()), ("apiVersion", resource.api_version())] {
                if text(patched, field).is_empty() {
                    patched[field] = json!(default);
                }
            }
        }
        zero_null_strings(patched);
        let (kind, api_version) = (text(patched, "kind"), text(patched, "apiVersion"));
        if kind != resource.kind || api_version != resource.api_version() {
            // A custom resource's scheme is the unstructured one, which names no file.
            let scheme = if resource.custom {
                String::new()
            } else {
                format!(" in scheme \"{}\"", crate::lifecycle::scheme(resource))
            };
            return Err(invalid(&format!(
                "no kind \"{kind}\" is registered for version \"{api_version}\"{scheme}"
            )));
        }
        // The decoder's own complaint, without the create handler's preamble.
        let preamble = format!("cannot be handled as a {}: ", resource.kind);
        let refused = |error: ApiError| {
            invalid(
                error
                    .message
                    .split_once(&preamble)
                    .map_or(error.message.as_str(), |(_, why)| why),
            )
        };
        if strategic
            && let Some(builtin) = resource.catalogue()
            && let Some(why) =
                crate::resources::openapi::type_error(builtin, patched, crate::resources::openapi::Mode::Unstructured)
        {
            return Err(invalid(&why));
        }
        let mut decoded = patched.clone();
        crate::objects::decode(resource, &mut decoded).map_err(refused)?;
        if self.target.param("fieldValidation") == Some("Strict") {
            crate::objects::field_validation(resource, Some("Strict"), patched, &[]).map_err(refused)?;
        }
        Ok(())
    }

    /// The object a write of `/scale` asks for: the current one with the replicas of
    /// the Scale the PUT sends or the patch makes (`crate::api::scale::apply`).
    pub(super) fn desired_scale(&self, current: &Value) -> Result<Value, ApiError> {
        let resource = self.resource();
        let scale = crate::api::scale::base_scale(resource, current);
        let asked = if self.target.verb == Verb::Update {
            self.body_json()?
        } else {
            let patch_body = self.body_json()?;
            match self.content_type.split(';').next().unwrap_or_default().trim() {
                "application/json-patch+json" => patch::json(&scale, &patch_body),
                _ => patch::merge(&scale, &patch_body),
            }
            .map_err(patch_error)?
        };
        crate::api::scale::apply(resource, current, &asked, self.target.verb == Verb::Patch)
    }
}

/// An applied object as the field manager hands it on, converted from the merge's
/// unstructured result to the Go type (`toVersioned`): a value the converter cannot
/// set is its plain 500 (`cannot convert float64 to int32`), naming the applied
/// configuration; a whole float is an integer, and an integer too wide for an `int32`
/// field wraps, as the converter sets it.
pub(super) fn converted_from_apply(
    resource: &crate::core::ResourceType,
    applied: &Value,
    mut object: Value,
) -> Result<Value, ApiError> {
    let Some(builtin) = resource.catalogue().filter(|_| !resource.custom) else {
        return Ok(object);
    };
    if let Some(why) =
        crate::resources::openapi::type_error(builtin, &object, crate::resources::openapi::Mode::Unstructured)
    {
        let text = |name: &str| applied["metadata"][name].as_str().unwrap_or_default().to_owned();
        let gvk = format!("{}/{}, Kind={}", resource.group, resource.version, resource.kind);
        return Err(ApiError::new(
            500,
            "",
            format!(
                "failed to convert new object ({}/{}; {gvk}) to proper version: unable to convert unstructured object to {gvk}: {why}",
                text("namespace"),
                text("name")
            ),
        ));
    }
    crate::resources::openapi::convert_integers(builtin, &mut object);
    Ok(object)
}

/// Go decodes a JSON null into a map of strings as the empty string: a JSON patch that
/// adds a label or an annotation without a value stores "" (only these maps, where the
/// value's type is known to be a string, are touched).
fn zero_null_strings(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if matches!(key.as_str(), "labels" | "annotations")
                    && let Value::Object(entries) = field
                {
                    for entry in entries.values_mut().filter(|entry| entry.is_null()) {
                        *entry = json!("");
                    }
                } else {
                    zero_null_strings(field);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(zero_null_strings),
        _ => {}
    }
}

/// Where json-patch writes a patched document with sorted keys: it decodes the
/// objects a patch reaches and encodes them again from Go maps, and keeps the bytes of
/// the rest (written in Go's struct order).
#[derive(Default)]
struct Reencoded {
    /// Objects decoded on the way: along a JSON patch operation's `path` and `from`,
    /// and each object a merge patch merges into.
    objects: Vec<Vec<String>>,
    /// Values the patch put in whole, every object within them sorted: a JSON patch's
    /// `value`, as the client wrote it (this server reads bodies into sorted maps, as
    /// clients that encode from maps write them), and a merge patch's value where the
    /// document had no object to merge it into (`pruneNulls` decodes it all).
    subtrees: Vec<Vec<String>>,
}

impl Reencoded {
    fn sorted(&self, path: &[String]) -> bool {
        path.is_empty() || self.objects.iter().any(|p| p == path) || self.subtrees.iter().any(|p| path.starts_with(p))
    }
}

/// What a merge or JSON patch makes json-patch re-encode in `current`.
fn reached_paths(current: &Value, patch: &Value) -> Reencoded {
    let mut reached = Reencoded::default();
    match patch {
        Value::Array(operations) => {
            for operation in operations {
                for pointer in ["path", "from"].iter().filter_map(|f| operation[*f].as_str()) {
                    let tokens = pointer_tokens(pointer);
                    for end in 1..tokens.len() {
                        reached.objects.push(tokens[..end].to_vec());
                    }
                }
                if matches!(operation["op"].as_str(), Some("add" | "replace"))
                    && let Some(pointer) = operation["path"].as_str()
                {
                    let mut tokens = pointer_tokens(pointer);
                    // An item appended to a list lands at its end.
                    if tokens.last().is_some_and(|last| last == "-") {
                        let parent = tokens[..tokens.len() - 1]
                            .iter()
                            .try_fold(current, |value, token| match value {
                                Value::Object(fields) => fields.get(token),
                                Value::Array(items) => items.get(token.parse::<usize>().ok()?),
                                _ => None,
                            });
                        let length = parent.and_then(Value::as_array).map_or(0, Vec::len);
                        if let Some(last) = tokens.last_mut() {
                            *last = length.to_string();
                        }
                    }
                    reached.subtrees.push(tokens);
                }
            }
        }
        Value::Object(_) => merged_into(current, patch, &mut Vec::new(), &mut reached),
        _ => {}
    }
    reached
}

/// A JSON pointer's reference tokens, unescaped.
fn pointer_tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// `mergeDocs`: a patch object met by an object is merged into it, key by key; any
/// other value of the patch replaces what was there, and is decoded whole
/// (`pruneNulls`) where the document had no object there.
fn merged_into(current: &Value, patch: &Value, keys: &mut Vec<String>, reached: &mut Reencoded) {
    let (Value::Object(current), Value::Object(patch)) = (current, patch) else {
        return;
    };
    if !keys.is_empty() {
        reached.objects.push(keys.clone());
    }
    for (key, value) in patch.iter().filter(|(_, value)| !value.is_null()) {
        keys.push(key.clone());
        match current.get(key) {
            Some(inner) if inner.is_object() && value.is_object() => merged_into(inner, value, keys, reached),
            _ => reached.subtrees.push(keys.clone()),
        }
        keys.pop();
    }
}
