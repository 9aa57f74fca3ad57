//! An object's JSON as the CEL values rules see (`UnstructuredToVal` in
//! apiextensions-apiserver's `pkg/apiserver/schema/cel/values.go` and apiserver's
//! `pkg/cel/common/values.go`): declared properties under their escaped names,
//! `number`s as doubles, `date-time` and `date` strings as timestamps, `duration`
//! strings as durations, `byte` strings as bytes; embedded resources and the root keep
//! `apiVersion`, `kind` and `metadata.name`/`generateName`.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine as _;
use cel::Value as Cel;
use serde_json::Value;

use super::types::escape;

/// `value` as CEL sees it through `schema`; `resource` for the root and embedded
/// resources.
pub(crate) fn to_cel(value: &Value, schema: &Value, resource: bool) -> Cel {
    match value {
        Value::Null => Cel::Null,
        Value::Bool(flag) => Cel::Bool(*flag),
        Value::Number(number) => number_to_cel(number, schema),
        Value::String(text) => string_to_cel(text, schema),
        Value::Array(items) => {
            let item_schema = &schema["items"];
            let embedded = item_schema["x-kubernetes-embedded-resource"] == true;
            Cel::List(Arc::new(
                items.iter().map(|item| to_cel(item, item_schema, embedded)).collect(),
            ))
        }
        Value::Object(map) => {
            let mut fields: HashMap<String, Cel> = HashMap::new();
            if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                let embedded = additional["x-kubernetes-embedded-resource"] == true;
                for (key, child) in map {
                    fields.insert(key.clone(), to_cel(child, additional, embedded));
                }
                return Cel::from(fields);
            }
            let properties = schema["properties"].as_object();
            for (key, child) in map {
                if let Some(property) = properties.and_then(|p| p.get(key)) {
                    if let Some(name) = escape(key) {
                        let embedded = property["x-kubernetes-embedded-resource"] == true;
                        fields.insert(name, to_cel(child, property, embedded));
                    }
                } else if resource && matches!(key.as_str(), "apiVersion" | "kind") {
                    fields.insert(key.clone(), raw(child));
                } else if resource && key == "metadata" {
                    let mut metadata: HashMap<String, Cel> = HashMap::new();
                    for field in ["name", "generateName"] {
                        if let Some(text) = child.get(field) {
                            metadata.insert(field.to_owned(), raw(text));
                        }
                    }
                    fields.insert(key.clone(), Cel::from(metadata));
                }
            }
            Cel::from(fields)
        }
    }
}

fn number_to_cel(number: &serde_json::Number, schema: &Value) -> Cel {
    let integer = number.as_i64();
    match (schema["type"].as_str(), integer) {
        (Some("number"), _) | (_, None) => Cel::Float(number.as_f64().unwrap_or_default()),
        (_, Some(i)) => Cel::Int(i),
    }
}

fn string_to_cel(text: &str, schema: &Value) -> Cel {
    if schema["type"] != "string" {
        return Cel::from(text);
    }
    match schema["format"].as_str() {
        Some("date-time") => {
            chrono::DateTime::parse_from_rfc3339(text).map_or_else(|_| Cel::from(text), Cel::Timestamp)
        }
        Some("date") => chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .ok()
            .and_then(|date| date.and_hms_opt(0, 0, 0))
            .map_or_else(
                || Cel::from(text),
                |midnight| Cel::Timestamp(midnight.and_utc().fixed_offset()),
            ),
        Some("duration") => crate::formats::parse_go_duration(text)
            .and_then(|nanos| i64::try_from(nanos).ok())
            .map_or_else(
                || Cel::from(text),
                |nanos| Cel::Duration(chrono::Duration::nanoseconds(nanos)),
            ),
        Some("byte") => base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_or_else(|_| Cel::from(text), |bytes| Cel::Bytes(Arc::new(bytes))),
        _ => Cel::from(text),
    }
}

/// JSON without a schema: what `apiVersion`, `kind` and metadata names are.
pub(crate) fn raw(value: &Value) -> Cel {
    match value {
        Value::Null => Cel::Null,
        Value::Bool(flag) => Cel::Bool(*flag),
        Value::Number(number) => number
            .as_i64()
            .map_or_else(|| Cel::Float(number.as_f64().unwrap_or_default()), Cel::Int),
        Value::String(text) => Cel::from(text.as_str()),
        Value::Array(items) => Cel::List(Arc::new(items.iter().map(raw).collect())),
        Value::Object(map) => Cel::from(map.iter().map(|(k, v)| (k.clone(), raw(v))).collect::<HashMap<_, _>>()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_take_their_schema_types() {
        let schema = json!({"type": "object", "properties": {
            "ratio": {"type": "number"}, "count": {"type": "integer"},
            "when": {"type": "string", "format": "date-time"},
            "timeout": {"type": "string", "format": "duration"},
            "foo-bar": {"type": "string"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        }});
        let object = json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n", "uid": "u"},
            "ratio": 1, "count": 2, "when": "2024-01-02T03:04:05Z", "timeout": "1m", "foo-bar": "x",
            "labels": {"a-b": "c"}, "undeclared": 1});
        let Cel::Map(map) = to_cel(&object, &schema, true) else {
            panic!()
        };
        let get = |k: &str| map.get(&cel::objects::Key::from(k)).cloned();
        assert_eq!(get("ratio"), Some(Cel::Float(1.0)));
        assert_eq!(get("count"), Some(Cel::Int(2)));
        assert!(matches!(get("when"), Some(Cel::Timestamp(_))));
        assert_eq!(get("timeout"), Some(Cel::Duration(chrono::Duration::minutes(1))));
        assert_eq!(get("foo__dash__bar"), Some(Cel::from("x")));
        assert_eq!(get("kind"), Some(Cel::from("K")));
        assert!(get("undeclared").is_none());
        let Some(Cel::Map(metadata)) = get("metadata") else {
            panic!()
        };
        assert_eq!(metadata.map.len(), 1);
    }
}
