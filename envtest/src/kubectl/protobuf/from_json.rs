//! A stored JSON object as the protobuf message a Go client decodes: the inverse of
//! `to_json`, for answers to clients that accept only protobuf. Keys the message has no
//! field for (`apiVersion` and `kind`, which travel in the envelope) are left out, as
//! Go's decoder ignores unknown JSON keys.

use std::collections::HashMap;

use base64::Engine;
use bytes::Bytes;
use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor, ReflectMessage, Value as Proto};
use serde_json::Value;

use super::ProtobufError;
use super::schema::{Schema, Shape};

/// The message `descriptor` holding `json`.
pub(super) fn message(
    schema: &Schema,
    descriptor: &MessageDescriptor,
    json: &Value,
) -> Result<DynamicMessage, ProtobufError> {
    let mut message = DynamicMessage::new(descriptor.clone());
    let bad = |reason: &str| ProtobufError::bad_value(descriptor.full_name(), format!("{reason}, not {json}"));
    let mut set = |name: &str, value: Proto| {
        if let Some(field) = descriptor.get_field_by_name(name) {
            message.set_field(&field, value);
        }
    };
    match (Schema::shape(descriptor), json) {
        (_, Value::Null) => {}
        (Shape::Object, Value::Object(fields)) => {
            for (key, field_json) in fields {
                let Some(field) = schema.field_for_json(descriptor, key) else {
                    continue;
                };
                if schema.is_inlined(descriptor, &field) {
                    continue;
                }
                if field_json.is_null() {
                    continue;
                }
                let value = field_value(schema, descriptor, &field, field_json)?;
                message.set_field(&field, value);
            }
            // Embedded Go structs take the keys that are theirs from the same object.
            for field in schema.inlined_fields(descriptor) {
                if let Kind::Message(embedded) = field.kind() {
                    let embedded = self::message(schema, &embedded, json)?;
                    if embedded.fields().next().is_some() {
                        message.set_field(&field, Proto::Message(embedded));
                    }
                }
            }
        }
        (Shape::Quantity, Value::String(text)) => set("string", Proto::String(text.clone())),
        (Shape::Quantity, Value::Number(n)) => set("string", Proto::String(n.to_string())),
        (Shape::IntOrString, Value::Number(n)) => {
            let n = n
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| bad("an int32"))?;
            set("type", Proto::I64(0));
            set("intVal", Proto::I32(n));
        }
        (Shape::IntOrString, Value::String(text)) => {
            set("type", Proto::I64(1));
            set("strVal", Proto::String(text.clone()));
        }
        (Shape::Time | Shape::MicroTime, Value::String(text)) => {
            let at: jiff::Timestamp = text.parse().map_err(|_| bad("an RFC 3339 time"))?;
            set("seconds", Proto::I64(at.as_second()));
            if matches!(Schema::shape(descriptor), Shape::MicroTime) {
                set("nanos", Proto::I32(at.subsec_nanosecond() / 1000 * 1000));
            }
        }
        (Shape::Duration, Value::String(text)) => {
            set(
                "duration",
                Proto::I64(parse_go_duration(text).ok_or_else(|| bad("a duration"))?),
            );
        }
        (Shape::RawJson, raw) => {
            let raw = serde_json::to_vec(raw).map_err(|e| bad(&e.to_string()))?;
            if let Some(field) = descriptor.fields().next() {
                message.set_field(&field, Proto::Bytes(Bytes::from(raw)));
            }
        }
        (Shape::Items, Value::Array(_)) => set_from_json(schema, &mut message, "items", json)?,
        (Shape::SchemaOrArray, Value::Array(_)) => set_from_json(schema, &mut message, "jSONSchemas", json)?,
        (Shape::SchemaOrArray | Shape::SchemaOrBool | Shape::SchemaOrStrings, Value::Object(_)) => {
            set_from_json(schema, &mut message, "schema", json)?;
            if matches!(Schema::shape(descriptor), Shape::SchemaOrBool) {
                set_from_json(schema, &mut message, "allows", &Value::Bool(true))?;
            }
        }
        (Shape::SchemaOrBool, Value::Bool(_)) => set_from_json(schema, &mut message, "allows", json)?,
        (Shape::SchemaOrStrings, Value::Array(_)) => set_from_json(schema, &mut message, "property", json)?,
        _ => return Err(bad("a value of another shape")),
    }
    Ok(message)
}

/// Sets the field `name` of `message` from its JSON.
fn set_from_json(schema: &Schema, message: &mut DynamicMessage, name: &str, json: &Value) -> Result<(), ProtobufError> {
    let descriptor = message.descriptor();
    if let Some(field) = descriptor.get_field_by_name(name) {
        let value = field_value(schema, &descriptor, &field, json)?;
        message.set_field(&field, value);
    }
    Ok(())
}

/// One field's value (a list, a map or a single value) from its JSON.
fn field_value(
    schema: &Schema,
    parent: &MessageDescriptor,
    field: &FieldDescriptor,
    json: &Value,
) -> Result<Proto, ProtobufError> {
    let bad = |reason: &str| ProtobufError::bad_value(format!("{}.{}", parent.full_name(), field.name()), reason);
    if field.is_map() {
        let Kind::Message(entry) = field.kind() else {
            return Err(bad("a map without an entry message"));
        };
        let value_kind = entry.map_entry_value_field().kind();
        let Value::Object(entries) = json else {
            return Err(bad("expected an object"));
        };
        let mut map = HashMap::new();
        for (key, entry_json) in entries {
            map.insert(
                MapKey::String(key.clone()),
                single(schema, parent, field, &value_kind, entry_json)?,
            );
        }
        return Ok(Proto::Map(map));
    }
    if field.is_list() {
        let Value::Array(items) = json else {
            return Err(bad("expected an array"));
        };
        let items = items
            .iter()
            .map(|item| single(schema, parent, field, &field.kind(), item))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Proto::List(items));
    }
    single(schema, parent, field, &field.kind(), json)
}

/// A value that is neither a list nor a map.
fn single(
    schema: &Schema,
    parent: &MessageDescriptor,
    field: &FieldDescriptor,
    kind: &Kind,
    json: &Value,
) -> Result<Proto, ProtobufError> {
    let bad = || {
        ProtobufError::bad_value(
            format!("{}.{}", parent.full_name(), field.name()),
            format!("{json} is not a {kind:?}"),
        )
    };
    let int = || json.as_i64().ok_or_else(bad);
    let uint = || json.as_u64().ok_or_else(bad);
    Ok(match kind {
        Kind::Double => Proto::F64(json.as_f64().ok_or_else(bad)?),
        #[expect(
            clippy::cast_possible_truncation,
            reason = "a float field holds what the client sent"
        )]
        Kind::Float => Proto::F32(json.as_f64().ok_or_else(bad)? as f32),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Proto::I32(i32::try_from(int()?).map_err(|_| bad())?),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Proto::I64(int()?),
        Kind::Uint32 | Kind::Fixed32 => Proto::U32(u32::try_from(uint()?).map_err(|_| bad())?),
        Kind::Uint64 | Kind::Fixed64 => Proto::U64(uint()?),
        Kind::Bool => Proto::Bool(json.as_bool().ok_or_else(bad)?),
        Kind::String => Proto::String(json.as_str().ok_or_else(bad)?.to_owned()),
        Kind::Bytes => {
            let text = json.as_str().ok_or_else(bad)?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(text)
                .map_err(|_| bad())?;
            Proto::Bytes(Bytes::from(bytes))
        }
        Kind::Enum(_) => Proto::EnumNumber(i32::try_from(int()?).map_err(|_| bad())?),
        Kind::Message(descriptor) => Proto::Message(message(schema, descriptor, json)?),
    })
}

/// Nanoseconds of a duration in Go's syntax (`1h30m`, `1.5s`, `300ms`, `-2m`), the one
/// parser the schema's `duration` format uses.
pub(super) fn parse_go_duration(text: &str) -> Option<i64> {
    wheelhouse_envtest_schema::formats::parse_go_duration(text).and_then(|nanos| i64::try_from(nanos).ok())
}
