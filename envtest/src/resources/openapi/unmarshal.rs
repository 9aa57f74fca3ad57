//! The type errors Go's `encoding/json` (as `sigs.k8s.io/json` forks it) reports when a
//! body does not fit a built-in type: `json: cannot unmarshal number into Go struct
//! field RoleRef.roleRef.apiGroup of type string`. The value's JSON kind (`string`,
//! `number`, `bool`, `array`, `object`; a number that does not fit an integer as
//! `number 1.5`), the innermost struct being decoded and the JSON field names from the
//! root joined by dots (no list indices, no map keys), and the Go type as `reflect`
//! prints it, from the facts generated from the types' source ([`crate::resources::
//! go_facts`]). The types that decode themselves answer as their `UnmarshalJSON` does:
//! a `metav1.Time` wants a string, a `resource.Quantity` a string or number matching
//! its pattern, an `intstr.IntOrString` a string or an `int32`.
//!
//! A strategic merge patch's result is not decoded from JSON but converted from the
//! patched map (`runtime.DefaultUnstructuredConverter.FromUnstructured`), whose errors
//! are its own: `cannot convert int64 to string`, `unrecognized type: int32`, `cannot
//! restore struct from: string`, without a path ([`Mode::Unstructured`]).

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::Value;

use super::schemas::{Definitions, REF_PREFIX, builtin_type, resolve};
use crate::core::{Builtin, go_json_type as kind};

/// What `resource.Quantity`'s `UnmarshalJSON` says of a value it cannot parse.
const QUANTITY_PATTERN: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// How a value reaches the Go type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Decoded from JSON (`encoding/json`): a create, an update, a merge or JSON patch.
    Json,
    /// Converted from an unstructured map (`FromUnstructured`): a strategic merge patch.
    Unstructured,
}

/// The first type error Go meets decoding `object` into `builtin`'s type, in Go's
/// words; None when Go would decode it (or fails on what this does not follow: a time
/// or quantity string that does not parse, base64 bytes).
pub(crate) fn type_error(builtin: &'static Builtin, object: &Value, mode: Mode) -> Option<String> {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    let mut decoder = Decoder {
        mode,
        definitions,
        fields: Vec::new(),
        structure: String::new(),
    };
    // The root by reference, so that its fields' Go types are looked up as any
    // struct's are (`Secret.type` is a `v1.SecretType`).
    let reference = serde_json::json!({ "$ref": format!("{REF_PREFIX}{root}") });
    definitions.get(root)?;
    decoder.value(&reference, &go_name(root), object).err()
}

/// The first type error Go meets decoding a custom resource's `metadata` as an
/// `ObjectMeta`: the custom resource codec decodes it on its own (`json.Unmarshal`
/// into the struct), so paths start inside it (`ObjectMeta.labels`).
pub(crate) fn object_meta_error(metadata: &Value) -> Option<String> {
    const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    let definitions = super::schemas::object_meta_definitions();
    definitions.get(OBJECT_META)?;
    let mut decoder = Decoder {
        mode: Mode::Json,
        definitions,
        fields: Vec::new(),
        structure: String::new(),
    };
    let reference = serde_json::json!({ "$ref": format!("{REF_PREFIX}{OBJECT_META}") });
    decoder.value(&reference, "v1.ObjectMeta", metadata).err()
}

struct Decoder<'d> {
    mode: Mode,
    definitions: &'d Definitions,
    /// The JSON field names from the root to the value being decoded.
    fields: Vec<String>,
    /// The Go name of the innermost struct whose field is being decoded.
    structure: String,
}

impl Decoder<'_> {
    fn value(&mut self, schema: &Value, go_type: &str, value: &Value) -> Result<(), String> {
        let Some((name, schema)) = resolve(self.definitions, schema) else {
            return Ok(());
        };
        if value.is_null() {
            return Ok(());
        }
        match name.and_then(|name| name.rsplit('.').next()) {
            Some(time @ ("Time" | "MicroTime" | "Duration")) if name.is_some_and(|n| n.contains(".apis.meta.")) => {
                // A time that does not parse is its `UnmarshalJSON`'s `time.Parse` error,
                // bare (the decoder passes an unmarshaler's error on as it is).
                let layout = match time {
                    "Time" => Some(super::go_time::Layout::Rfc3339),
                    "MicroTime" => Some(super::go_time::Layout::Rfc3339Micro),
                    _ => None,
                };
                return match value {
                    Value::String(text) => match layout.and_then(|layout| super::go_time::parse_error(layout, text)) {
                        Some(error) => Err(error),
                        None => Ok(()),
                    },
                    other => Err(self.unmarshaler(kind(other), "string")),
                };
            }
            Some("Quantity") => {
                // `UnmarshalJSON` parses the string (spaces trimmed) or the number's text.
                return match value {
                    Value::String(text) => match wheelhouse_envtest_validation::quantity_error(text.trim()) {
                        Some(error) => Err(error.to_owned()),
                        None => Ok(()),
                    },
                    Value::Number(_) => Ok(()),
                    _ => Err(QUANTITY_PATTERN.to_owned()),
                };
            }
            Some("IntOrString") => {
                return match value {
                    Value::String(_) => Ok(()),
                    Value::Number(number) if fits("int32", number) => Ok(()),
                    other => Err(self.unmarshaler(&what(other), "int32")),
                };
            }
            _ => {}
        }
        if let Some(properties) = schema["properties"].as_object() {
            let Value::Object(fields) = value else {
                return Err(self.refused("struct from:", value, go_type));
            };
            let structure = name.map_or_else(|| go_type.rsplit('.').next().unwrap_or(go_type).to_owned(), go_struct);
            let types = name.and_then(field_types);
            for (field, child) in fields {
                let Some(child_schema) = properties.get(field) else {
                    continue;
                };
                let child_type = types
                    .and_then(|types| types.get(field.as_str()).copied())
                    .map_or_else(|| schema_type(child_schema), str::to_owned);
                let outer = std::mem::replace(&mut self.structure, structure.clone());
                self.fields.push(field.clone());
                let result = self.value(child_schema, &child_type, child);
                self.fields.pop();
                self.structure = outer;
                result?;
            }
            return Ok(());
        }
        if let Some(element) = schema.get("additionalProperties").filter(|a| a.is_object()) {
            let Value::Object(entries) = value else {
                return Err(self.refused("map from", value, go_type));
            };
            let element_type = map_element(go_type).unwrap_or_else(|| schema_type(element));
            for child in entries.values() {
                self.value(element, &element_type, child)?;
            }
            return Ok(());
        }
        if let Some(item) = schema.get("items") {
            let item_type = slice_element(go_type).unwrap_or_else(|| schema_type(item));
            let Value::Array(items) = value else {
                // Bytes are converted from their base64 string, through encoding/json
                // (`sliceFromUnstructured`), whose error the converter wraps.
                if self.mode == Mode::Unstructured
                    && let (Value::String(text), "uint8") = (value, item_type.as_str())
                {
                    return convert_bytes(text);
                }
                return Err(self.refused("slice from", value, go_type));
            };
            for child in items {
                self.value(item, &item_type, child)?;
            }
            return Ok(());
        }
        if self.mode == Mode::Unstructured {
            if let Value::String(text) = value
                && schema["format"] == "byte"
            {
                return convert_bytes(text);
            }
            return convert_scalar(schema, value, go_type);
        }
        self.json_scalar(schema, go_type, value)
    }

    /// A scalar as Go's JSON decoder reads it into `go_type`.
    fn json_scalar(&self, schema: &Value, go_type: &str, value: &Value) -> Result<(), String> {
        match (schema["type"].as_str(), value) {
            (Some("integer"), Value::Number(number)) if !fits(go_type, number) => {
                Err(self.mismatch(&format!("number {number}"), go_type))
            }
            // `[]byte` is read as base64, and Go's error is its own, with no field named.
            (Some("string"), Value::String(text)) if schema["format"] == "byte" => {
                crate::core::go_base64(text.as_bytes())
                    .map(drop)
                    .map_err(crate::core::go_base64_error)
            }
            (Some("string"), Value::String(_))
            | (Some("boolean"), Value::Bool(_))
            | (Some("integer" | "number"), Value::Number(_)) => Ok(()),
            (Some("string" | "boolean" | "integer" | "number"), _) => Err(self.mismatch(kind(value), go_type)),
            _ => Ok(()),
        }
    }

    /// A value that is not the object, map or list its type is: Go's decoder's type
    /// error, or the converter's `cannot restore <what> <kind>`.
    fn refused(&self, what_restored: &str, value: &Value, go_type: &str) -> String {
        match self.mode {
            Mode::Json => self.mismatch(kind(value), go_type),
            Mode::Unstructured => format!("cannot restore {what_restored} {}", unstructured_kind(value)),
        }
    }

    /// A type that decodes itself failing to decode `what` as `go_type`: decoded from
    /// JSON, the decoder adds where; converted, its `UnmarshalJSON` is called alone.
    fn unmarshaler(&self, what: &str, go_type: &str) -> String {
        match self.mode {
            Mode::Json => self.mismatch(what, go_type),
            Mode::Unstructured => format!("json: cannot unmarshal {what} into Go value of type {go_type}"),
        }
    }

    /// `UnmarshalTypeError.Error()`.
    fn mismatch(&self, what: &str, go_type: &str) -> String {
        if self.structure.is_empty() && self.fields.is_empty() {
            return format!("json: cannot unmarshal {what} into Go value of type {go_type}");
        }
        format!(
            "json: cannot unmarshal {what} into Go struct field {}.{} of type {go_type}",
            self.structure,
            self.fields.join(".")
        )
    }
}

/// `fromUnstructured` of a scalar: a value of the unstructured map (string, int64,
/// float64, bool) set on a field of a scalar kind, as Go's reflection converts it.
fn convert_scalar(schema: &Value, value: &Value, go_type: &str) -> Result<(), String> {
    let target = match schema["type"].as_str() {
        Some("string") => "string",
        Some("boolean") => "bool",
        Some("integer") if schema["format"] == "int32" => "int32",
        Some("integer") => "int64",
        Some("number") => "float64",
        _ => return Ok(()),
    };
    let source = unstructured_kind(value);
    // Exactly as Go compares: `sv.Float() == math.Trunc(sv.Float())`.
    #[expect(clippy::float_cmp, reason = "Go's own test is exact")]
    let integral = |value: &Value| value.as_f64().is_some_and(|f| f == f.trunc());
    match (target, source) {
        ("string", "string") | ("bool", "bool") | ("int32" | "int64" | "float64", "int64") | ("float64", "float64") => {
            Ok(())
        }
        ("int32" | "int64", "float64") if integral(value) => Ok(()),
        // Convertible in Go, but not between JSON's kinds.
        ("string", "int64") | ("int32" | "int64", "float64") => Err(format!("cannot convert {source} to {go_type}")),
        _ => Err(format!("unrecognized type: {target}")),
    }
}

/// `sliceFromUnstructured` of a string into `[]byte`: read as base64 by encoding/json
/// (an empty string is no bytes), whose error the converter wraps.
fn convert_bytes(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Ok(());
    }
    crate::core::go_base64(text.as_bytes())
        .map(drop)
        .map_err(|error| format!("error decoding from json: {}", crate::core::go_base64_error(error)))
}

/// The `reflect.Kind` of a value of an unstructured map.
fn unstructured_kind(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Number(number) if number.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::Bool(_) => "bool",
        Value::Array(_) => "slice",
        Value::Object(_) => "map",
        Value::Null => "invalid",
    }
}

/// What Go names a value that does not fit an integer: a number with its literal.
fn what(value: &Value) -> String {
    match value {
        Value::Number(number) => format!("number {number}"),
        other => kind(other).to_owned(),
    }
}

/// Whether `number` decodes into the Go type `go_type`: an integer type takes an
/// integer in its range; any other type any number.
fn fits(go_type: &str, number: &serde_json::Number) -> bool {
    let (Some(value), unsigned) = (
        number
            .as_i64()
            .map(i128::from)
            .or_else(|| number.as_u64().map(i128::from)),
        go_type.starts_with('u'),
    ) else {
        // Not an integer (`1.5`, `1e3`): no integer type takes it.
        return !is_integer_type(go_type);
    };
    let bits = match go_type {
        "int8" | "uint8" => 8,
        "int16" | "uint16" => 16,
        "int32" | "uint32" => 32,
        _ => 64,
    };
    if unsigned {
        0 <= value && value < 1_i128 << bits
    } else {
        -(1_i128 << (bits - 1)) <= value && value < 1_i128 << (bits - 1)
    }
}

/// Go's integer types.
fn is_integer_type(go_type: &str) -> bool {
    matches!(
        go_type,
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32" | "uint64"
    )
}

/// How `reflect` prints the Go type of a definition (`io.k8s.api.core.v1.PodSpec` is
/// `v1.PodSpec`).
fn go_name(definition: &str) -> String {
    let mut parts = definition.rsplit('.');
    match (parts.next(), parts.next()) {
        (Some(name), Some(package)) => format!("{package}.{name}"),
        _ => definition.to_owned(),
    }
}

/// The Go struct name of a definition (`io.k8s.api.rbac.v1.RoleRef` is `RoleRef`).
fn go_struct(definition: &str) -> String {
    definition.rsplit('.').next().unwrap_or(definition).to_owned()
}

/// The Go type a schema without generated facts stands for.
fn schema_type(schema: &Value) -> String {
    if let Some(name) = super::schemas::referenced(schema) {
        return go_name(name);
    }
    match schema["type"].as_str() {
        Some("string") => "string".into(),
        Some("boolean") => "bool".into(),
        Some("integer") if schema["format"] == "int32" => "int32".into(),
        Some("integer") => "int64".into(),
        Some("number") => "float64".into(),
        Some("array") => format!("[]{}", schema_type(&schema["items"])),
        Some("object") if schema["additionalProperties"].is_object() => {
            format!("map[string]{}", schema_type(&schema["additionalProperties"]))
        }
        _ => "interface {}".into(),
    }
}

/// The element type of a slice type, following a named slice (`v1.Verbs`).
fn slice_element(go_type: &str) -> Option<String> {
    let go_type = underlying(go_type);
    go_type.strip_prefix("[]").map(str::to_owned)
}

/// The value type of a map type, following a named map (`v1.ResourceList`).
fn map_element(go_type: &str) -> Option<String> {
    let rest = underlying(go_type).strip_prefix("map[")?;
    let mut depth = 1;
    for (index, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(rest[index + 1..].to_owned());
                }
            }
            _ => {}
        }
    }
    None
}

/// A named slice or map type's underlying type; any other type itself.
fn underlying(go_type: &str) -> &str {
    static COMPOSITES: LazyLock<HashMap<&'static str, &'static str>> =
        LazyLock::new(|| crate::resources::go_facts::GO_COMPOSITES.iter().copied().collect());
    COMPOSITES.get(go_type).copied().unwrap_or(go_type)
}

/// The Go types of a definition's fields by JSON name, from the generated facts (keyed
/// by proto message).
fn field_types(definition: &str) -> Option<&'static HashMap<&'static str, &'static str>> {
    static BY_MESSAGE: LazyLock<HashMap<&'static str, HashMap<&'static str, &'static str>>> = LazyLock::new(|| {
        crate::resources::go_facts::GO_TYPES
            .iter()
            .map(|(message, fields)| (*message, fields.iter().copied().collect()))
            .collect()
    });
    let message = format!("k8s.io.{}", definition.strip_prefix("io.k8s.")?)
        .replace("k8s.io.apiextensions-apiserver.", "k8s.io.apiextensions_apiserver.");
    BY_MESSAGE.get(message.as_str())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn json_error(builtin: &'static Builtin, object: &Value) -> Option<String> {
        type_error(builtin, object, Mode::Json)
    }

    fn builtin(group: &str, kind: &str) -> &'static Builtin {
        crate::resources::catalogue::builtins()
            .iter()
            .find(|b| b.group == group && b.kind == kind)
            .expect("a built-in type")
    }

    #[test]
    fn type_errors_name_the_struct_the_path_and_the_go_type() {
        let role_binding = builtin("rbac.authorization.k8s.io", "RoleBinding");
        assert_eq!(
            json_error(role_binding, &json!({"roleRef": {"apiGroup": 42}})).as_deref(),
            Some("json: cannot unmarshal number into Go struct field RoleRef.roleRef.apiGroup of type string")
        );
        let role = builtin("rbac.authorization.k8s.io", "Role");
        assert_eq!(
            json_error(role, &json!({"rules": [{"resources": "text"}]})).as_deref(),
            Some("json: cannot unmarshal string into Go struct field PolicyRule.rules.resources of type []string")
        );
        let daemon_set = builtin("apps", "DaemonSet");
        assert_eq!(
            json_error(daemon_set, &json!({"status": "text"})).as_deref(),
            Some("json: cannot unmarshal string into Go struct field DaemonSet.status of type v1.DaemonSetStatus")
        );
        let namespace = builtin("", "Namespace");
        assert_eq!(
            json_error(namespace, &json!({"metadata": {"labels": {"k": 1}}})).as_deref(),
            Some("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string")
        );
        let pod = builtin("", "Pod");
        assert_eq!(
            json_error(pod, &json!({"spec": {"containers": [{"ports": [{"protocol": 6}]}]}})).as_deref(),
            Some(
                "json: cannot unmarshal number into Go struct field ContainerPort.spec.containers.ports.protocol of type v1.Protocol"
            )
        );
        assert_eq!(
            json_error(pod, &json!({"spec": {"terminationGracePeriodSeconds": 1.5}})).as_deref(),
            Some(
                "json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64"
            )
        );
        assert_eq!(
            json_error(
                pod,
                &json!({"spec": {"containers": [{"resources": {"limits": {"cpu": true}}}]}})
            )
            .as_deref(),
            Some(QUANTITY_PATTERN)
        );
        assert_eq!(json_error(pod, &json!({"spec": {"containers": [{"name": "a"}]}})), None);
    }

    #[test]
    fn a_converted_map_s_errors_are_the_converter_s() {
        let pod = builtin("", "Pod");
        let converted = |object: Value| type_error(pod, &object, Mode::Unstructured);
        assert_eq!(
            converted(json!({"spec": {"containers": [{"image": 42}]}})).as_deref(),
            Some("cannot convert int64 to string")
        );
        assert_eq!(
            converted(json!({"spec": {"containers": [{"ports": [{"protocol": 6}]}]}})).as_deref(),
            Some("cannot convert int64 to v1.Protocol")
        );
        assert_eq!(
            converted(json!({"spec": {"activeDeadlineSeconds": "x"}})).as_deref(),
            Some("unrecognized type: int64")
        );
        assert_eq!(
            converted(json!({"spec": "x"})).as_deref(),
            Some("cannot restore struct from: string")
        );
        assert_eq!(
            converted(json!({"spec": {"containers": {"a": 1}}})).as_deref(),
            Some("cannot restore slice from map")
        );
        assert_eq!(
            converted(json!({"metadata": {"labels": "x"}})).as_deref(),
            Some("cannot restore map from string")
        );
        assert_eq!(converted(json!({"spec": {"activeDeadlineSeconds": 3.0}})), None);
    }
}
