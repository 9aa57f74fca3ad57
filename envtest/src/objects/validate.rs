//! What the real server checks in an object's body before storing it: built-in types
//! must decode as their Go types would (else 400), CRDs must carry schemas the
//! apiextensions server accepts, and custom resources are pruned, defaulted and
//! validated against their CRD's structural schema (the `wheelhouse-envtest-schema` crate, else 422).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Deserialize as _;
use serde_json::Value;

use crate::core::{ApiError, ResourceType};
use wheelhouse_envtest_schema::errors::FieldError;
use wheelhouse_envtest_schema::{self as schema, Write};

/// How the object being written came to be, which decides what a custom resource's
/// schema does to it before validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decoding {
    /// Decoded from a body (a create, a PUT, a patch's result): unknown fields pruned,
    /// defaults applied, the `null`s the schema does not allow dropped.
    Body,
    /// Made by a server-side apply: defaulted by the field manager, nothing pruned.
    Applied,
}

/// Checks `object` for `resource`, as created (`current` None) or as an update of
/// `current` through `subresource`; custom resources are pruned and defaulted in place
/// as `decoding` says. A built-in object has been decoded already ([`decode`]).
pub(crate) fn validate(
    resource: &ResourceType,
    object: &mut Value,
    current: Option<&Value>,
    subresource: Option<&str>,
    decoding: Decoding,
) -> Result<(), ApiError> {
    let name = object["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    if resource.custom {
        let status_only = subresource == Some("status");
        // The custom resource strategy's metadata checks come first, then the schema's.
        let mut errors =
            wheelhouse_envtest_validation::validate_custom_resource_metadata(object, resource.namespaced, current);
        if let Some(schema) = resource.schema.clone() {
            let write = match (current, subresource) {
                (None, _) => Write::Create,
                (Some(current), Some("status")) => Write::Status(current),
                (Some(current), _) => Write::Update(current),
            };
            let admitted = match decoding {
                Decoding::Body => schema::admit(&schema, object, write),
                Decoding::Applied => schema::admit_applied(&schema, object, write),
            };
            if let Err(found) = admitted {
                errors.extend(found);
            }
        }
        let admitted = if errors.is_empty() {
            Ok(())
        } else {
            Err(invalid(resource, &name, &errors))
        };
        // The scale paths' checks follow the schema's, in one list of causes.
        let scale = super::custom_scale::violations(resource, object, status_only);
        return match (admitted, scale.is_empty()) {
            (result, true) => result,
            (result, false) => {
                let mut causes: Vec<Value> = result
                    .err()
                    .and_then(|error| error.details)
                    .and_then(|details| details["causes"].as_array().cloned())
                    .unwrap_or_default();
                causes.extend(scale.iter().map(|(field, detail)| {
                    serde_json::json!({"reason": "FieldValueInvalid", "message": detail, "field": field})
                }));
                let causes: Vec<(String, String, String)> = causes
                    .iter()
                    .map(|c| {
                        let text = |key: &str| c[key].as_str().unwrap_or_default().to_owned();
                        (text("field"), text("reason"), text("message"))
                    })
                    .collect();
                let causes: Vec<(&str, &str, String)> = causes
                    .iter()
                    .map(|(f, r, m)| (f.as_str(), r.as_str(), m.clone()))
                    .collect();
                Err(ApiError::invalid(resource, &name, &causes))
            }
        };
    }
    let kind = wheelhouse_envtest_validation::Kind {
        group: &resource.group,
        version: &resource.version,
        kind: &resource.kind,
        namespaced: resource.namespaced,
    };
    let write = match (current, subresource) {
        (None, _) => wheelhouse_envtest_validation::Write::Create,
        (Some(old), None) => wheelhouse_envtest_validation::Write::Update { old },
        (Some(old), Some(name)) => wheelhouse_envtest_validation::Write::Subresource { name, old },
    };
    let ported = wheelhouse_envtest_validation::validate(&kind, object, write);
    if !ported.is_empty() {
        return Err(invalid(resource, &name, &ported));
    }
    if resource.group == "apiextensions.k8s.io"
        && resource.kind == "CustomResourceDefinition"
        && subresource != Some("status")
    {
        schema::definition::apply_defaults(object);
        let errors = schema::definition::validate(object, current);
        if !errors.is_empty() {
            return Err(invalid(resource, &name, &errors));
        }
    }
    Ok(())
}

/// A 422 from field errors.
fn invalid(resource: &ResourceType, name: &str, errors: &[FieldError]) -> ApiError {
    let causes: Vec<(&str, &str, String)> = errors
        .iter()
        .map(|error| (error.field.as_str(), error.kind.reason(), error.body()))
        .collect();
    ApiError::invalid(resource, name, &causes)
}

/// `fieldValidation` (`mode`): fields the object's type does not declare, and fields
/// the body named twice (`duplicates`, as [`duplicate_fields`] finds them), are an
/// error (Strict: the decoder's 400, naming the kind and version), warnings (Warn, the
/// default) or nothing (Ignore).
pub(crate) fn field_validation(
    resource: &ResourceType,
    mode: Option<&str>,
    object: &Value,
    duplicates: &[String],
) -> Result<Vec<String>, ApiError> {
    let unknown = match resource.catalogue() {
        Some(builtin) => crate::resources::openapi::unknown_fields(builtin, object),
        None => unknown_fields(resource, object),
    };
    if unknown.is_empty() && duplicates.is_empty() {
        return Ok(Vec::new());
    }
    let described: Vec<String> = duplicates
        .iter()
        .map(|f| format!("duplicate field \"{f}\""))
        .chain(unknown.iter().map(|f| format!("unknown field \"{f}\"")))
        .collect();
    match mode {
        Some("Ignore") => Ok(Vec::new()),
        Some("Strict") => Err(ApiError::bad_request(format!(
            "{} in version \"{}\" cannot be handled as a {}: strict decoding error: {}",
            resource.kind,
            resource.version,
            resource.kind,
            described.join(", ")
        ))),
        _ => Ok(described),
    }
}

/// The fields a JSON body names twice in one object, as paths (`spec.replicas`,
/// `spec.containers[0].name`), in the order they appear: the strict decoder reports
/// them (the value read is the last one, as here).
pub(crate) fn duplicate_fields(body: &[u8]) -> Vec<String> {
    use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

    struct Scan<'a> {
        path: String,
        found: &'a mut Vec<String>,
    }

    impl<'de> DeserializeSeed<'de> for Scan<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Scan<'_> {
        type Value = ();
        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("any JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                let path = if self.path.is_empty() {
                    key.clone()
                } else {
                    format!("{}.{key}", self.path)
                };
                if !seen.insert(key) && !self.found.contains(&path) {
                    self.found.push(path.clone());
                }
                map.next_value_seed(Scan {
                    path,
                    found: &mut *self.found,
                })?;
            }
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut index = 0;
            loop {
                let path = format!("{}[{index}]", self.path);
                if seq
                    .next_element_seed(Scan {
                        path,
                        found: &mut *self.found,
                    })?
                    .is_none()
                {
                    return Ok(());
                }
                index += 1;
            }
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
    }

    let mut found = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    // A body that is not JSON has been refused already; nothing to report then.
    let _ = Scan {
        path: String::new(),
        found: &mut found,
    }
    .deserialize(&mut deserializer);
    found
}

/// The fields of a custom resource that its schema does not declare (and that
/// pruning would drop), for `fieldValidation` Strict and Warn.
fn unknown_fields(resource: &ResourceType, object: &Value) -> Vec<String> {
    let Some(schema) = resource.schema.as_deref().filter(|_| resource.custom) else {
        return Vec::new();
    };
    let mut unknown = match object.get("metadata") {
        Some(metadata) if metadata.is_object() => crate::resources::openapi::unknown_object_meta_fields(metadata),
        _ => Vec::new(),
    };
    unknown.extend(schema::unknown_fields(schema, object));
    unknown
}

/// Decodes a built-in object into its k8s-openapi type, first of all as kube-apiserver
/// decodes a body before it defaults, prepares or validates it: a field of the wrong
/// type is a 400, as the real server's decoder reports it (and nothing after meets a
/// string where an object belongs); fields the type does not have are dropped, as
/// decoding into the Go type drops them (`fieldValidation` has reported them already).
/// Custom resources are checked by their schema in [`validate`].
pub(crate) fn decode(resource: &ResourceType, object: &mut Value) -> Result<(), ApiError> {
    decode_as(resource, object, Decoding::Body)
}

/// [`decode`] of an object that came as `decoding` says.
pub(crate) fn decode_as(resource: &ResourceType, object: &mut Value, decoding: Decoding) -> Result<(), ApiError> {
    let Some(builtin) = resource.catalogue() else {
        // A custom resource's metadata is decoded as an ObjectMeta all the same (the
        // custom resource codec's `Coerce`): labels that are not a map of strings are
        // refused here, not stored, and fields ObjectMeta lacks are dropped; then the
        // codec prunes and defaults the rest by the version's schema.
        let decoded = match object.get("metadata") {
            Some(metadata) if resource.custom => ObjectMeta::deserialize(metadata).map(drop).map_err(|error| {
                // Go's decoder's words where they are known, serde's otherwise.
                let why = crate::resources::openapi::object_meta_error(metadata)
                    .unwrap_or_else(|| format!("metadata: {error}"));
                ApiError::bad_request(format!(
                    "{} in version \"{}\" cannot be handled as a {}: {why}",
                    resource.kind, resource.version, resource.kind
                ))
            }),
            _ => Ok(()),
        };
        if resource.custom {
            decoded?;
            if let Some(metadata) = object.get_mut("metadata").filter(|m| m.is_object()) {
                crate::resources::openapi::prune_object_meta(metadata);
            }
            if let Some(schema) = resource.schema.as_deref() {
                match decoding {
                    Decoding::Body => wheelhouse_envtest_schema::decode(schema, object),
                    Decoding::Applied => wheelhouse_envtest_schema::decode_applied(schema, object),
                }
            }
            return Ok(());
        }
        return decoded;
    };
    // Go decodes a JSON null as the field's zero value (the field is as good as absent,
    // a string of a map is ""), and bytes from base64 as its own decoder reads them.
    crate::resources::openapi::read_as_go(builtin, object);
    let refused = |error: String| {
        ApiError::bad_request(format!(
            "{} in version \"{}\" cannot be handled as a {}: {error}",
            resource.kind, resource.version, resource.kind
        ))
    };
    // Go's decoder names the struct, field path and Go type; where it would not
    // refuse what serde refuses, serde's own words. Go refuses some of what serde
    // takes (a time with a space for its `T`), so its checks run either way.
    // Go's decoder never refuses a field left out (it stays at its zero value), where
    // serde refuses a required one: that is no error here.
    let go_error = crate::resources::openapi::type_error(builtin, object, crate::resources::openapi::Mode::Json);
    if let Err(error) = builtin.decode(object)
        && (go_error.is_some() || !error.starts_with("missing field"))
    {
        return Err(refused(go_error.unwrap_or(error)));
    }
    if let Some(error) = go_error {
        return Err(refused(error));
    }
    crate::resources::openapi::prune_unknown_fields(builtin, object);
    super::core_v1::round_trip(builtin, object);
    // Once decoded, a field Go leaves out at zero is indistinguishable from one not sent
    // (defaults treat both alike: a Service's `type: ""` becomes ClusterIP). The zero
    // values Go writes are added once the defaults are in (`fill_go_zero_values`): the
    // defaults here set a field that is not there, where Go's set one at its zero.
    crate::resources::go_encoding::omit_zero_fields(resource, object);
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn custom(schema: &Value) -> ResourceType {
        let crd = json!({"spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "webapps", "kind": "WebApp"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]}});
        crate::resources::registry::crd_types(&crd).unwrap().remove(0)
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "spec": {"type": "object", "required": ["image"], "properties": {
                "image": {"type": "string"}, "replicas": {"type": "integer"},
                "mode": {"type": "string", "enum": ["fast", "safe"]},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            }},
            "status": {"type": "object", "properties": {"phase": {"type": "string"}}},
        }})
    }

    #[test]
    fn unknown_fields_of_custom_resources_are_pruned() {
        let resource = custom(&schema());
        let mut object = json!({"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "a", "namespace": "default"},
            "spec": {"image": "nginx", "unknown": 1, "extra": {"kept": true}}, "stray": "x"});
        assert_eq!(unknown_fields(&resource, &object), vec!["spec.unknown", "stray"]);
        validate(&resource, &mut object, None, None, Decoding::Body).unwrap();
        assert_eq!(object["spec"], json!({"image": "nginx", "extra": {"kept": true}}));
        assert!(object.get("stray").is_none());
        assert_eq!(object["metadata"]["name"], "a");
    }

    #[test]
    fn wrong_types_missing_required_fields_and_bad_enums_are_invalid() {
        let resource = custom(&schema());
        let mut object = json!({"metadata": {"name": "a"}, "spec": {"replicas": "three", "mode": "slow"}});
        let error = validate(&resource, &mut object, None, None, Decoding::Body).unwrap_err();
        assert_eq!((error.code, error.reason.as_ref()), (422, "Invalid"));
        let causes = error.details.unwrap()["causes"].clone();
        let fields: Vec<&str> = causes
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["field"].as_str().unwrap())
            .collect();
        assert!(
            fields.contains(&"spec.image") && fields.contains(&"spec.replicas") && fields.contains(&"spec.mode"),
            "{fields:?}"
        );
    }

    #[test]
    fn built_in_objects_must_decode() {
        let registry = crate::resources::registry::Registry::default();
        let deployments = registry.get("apps", "v1", "deployments").unwrap();
        let mut bad = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a"}, "spec": {"replicas": "two"}});
        assert_eq!(decode(&deployments, &mut bad).unwrap_err().code, 400);
        let mut good = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": {"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [{"name": "a", "image": "nginx"}]}}}});
        decode(&deployments, &mut good).unwrap();
        // The server fills in the defaults before it validates (a strategy type, a
        // restart policy).
        crate::objects::apply_defaults(&deployments, &mut good, None);
        validate(&deployments, &mut good, None, None, Decoding::Body).unwrap();
        let mut stray = good.clone();
        stray["spec"]["replicaz"] = json!(2);
        stray["unknown"] = json!({"a": 1});
        stray["spec"]["template"]["spec"]["containers"][0]["imagePullPolice"] = json!("Always");
        decode(&deployments, &mut stray).unwrap();
        assert_eq!(stray, good, "fields the type lacks are dropped, as decoding drops them");
    }
}
