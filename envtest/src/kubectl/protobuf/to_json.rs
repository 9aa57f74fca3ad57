//! A decoded protobuf message as the JSON object kube-apiserver would store: Go's
//! `encoding/json` rules over the Go types the messages were generated from, with the
//! `MarshalJSON` of the apimachinery types that are not plain structs (`Quantity`,
//! `IntOrString`, `Time`, `MicroTime`, `Duration`, `RawExtension`, `FieldsV1`, ...).
//! Also the envelope (`runtime.Unknown`) around a whole object, here rather than in
//! `wire` because a `RawExtension` may hold an envelope of its own: decoding the two
//! calls each other.

use base64::Engine;
use bytes::Bytes;
use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor, ReflectMessage, Value as Proto};
use serde_json::{Map, Number, Value};

use super::ProtobufError;
use super::schema::special;
use super::schema::{Schema, Shape};

/// The four bytes every protobuf body starts with.
pub(super) const MAGIC: &[u8] = b"k8s\0";

/// The JSON object (with apiVersion and kind) in a protobuf envelope.
pub(super) fn decode_object(schema: &Schema, body: &[u8]) -> Result<Value, ProtobufError> {
    let rest = body.strip_prefix(MAGIC).ok_or(ProtobufError::NotMarked)?;
    let unknown = decode(schema, special::UNKNOWN, "envelope (runtime.Unknown)", rest)?;
    let text = |message: &DynamicMessage, name: &str| {
        message
            .get_field_by_name(name)
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    let type_meta = match unknown.get_field_by_name("typeMeta").as_deref() {
        Some(Proto::Message(type_meta)) => type_meta.clone(),
        _ => DynamicMessage::new(unknown.descriptor()),
    };
    let (api_version, kind) = (text(&type_meta, "apiVersion"), text(&type_meta, "kind"));
    let encoding = text(&unknown, "contentEncoding");
    if !encoding.is_empty() {
        return Err(ProtobufError::bad_value(
            "runtime.Unknown.contentEncoding",
            format!("{encoding:?} is not supported"),
        ));
    }
    let raw = match unknown.get_field_by_name("raw").as_deref() {
        Some(Proto::Bytes(raw)) => raw.clone(),
        _ => Bytes::new(),
    };
    let descriptor = schema.message_of(&api_version, &kind)?;
    let decoded = DynamicMessage::decode(descriptor, raw).map_err(|source| ProtobufError::Malformed {
        what: kind.clone(),
        source,
    })?;
    let mut object = message(schema, &decoded)?;
    if let Value::Object(fields) = &mut object {
        fields.insert("apiVersion".to_owned(), Value::String(api_version));
        fields.insert("kind".to_owned(), Value::String(kind));
    }
    Ok(object)
}

/// A message of the named type from its bytes, or what is malformed about them.
fn decode(schema: &Schema, name: &str, what: &str, bytes: &[u8]) -> Result<DynamicMessage, ProtobufError> {
    let descriptor = schema
        .message(name)
        .ok_or_else(|| ProtobufError::Descriptors(format!("{name} is missing")))?;
    DynamicMessage::decode(descriptor, bytes).map_err(|source| ProtobufError::Malformed {
        what: what.to_owned(),
        source,
    })
}

/// The JSON of `message`.
pub(super) fn message(schema: &Schema, message: &DynamicMessage) -> Result<Value, ProtobufError> {
    let descriptor = message.descriptor();
    let field = |name: &str| {
        descriptor
            .get_field_by_name(name)
            .filter(|f| message.has_field(f))
            .map(|f| message.get_field(&f).into_owned())
    };
    let text = |name: &str| field(name).and_then(|v| v.as_str().map(str::to_owned));
    let int = |name: &str| field(name).and_then(|v| v.as_i64().or_else(|| v.as_i32().map(i64::from)));
    Ok(match Schema::shape(&descriptor) {
        Shape::Object => object(schema, &descriptor, message)?,
        // A Quantity's zero is "0", as resource.Quantity marshals it.
        Shape::Quantity => Value::String(text("string").unwrap_or_else(|| "0".to_owned())),
        Shape::IntOrString if int("type") == Some(1) => Value::String(text("strVal").unwrap_or_default()),
        Shape::IntOrString => Value::from(int("intVal").unwrap_or(0)),
        Shape::Time | Shape::MicroTime if message.fields().next().is_none() => Value::Null,
        Shape::Time => Value::String(timestamp(&descriptor, int("seconds"), None)?),
        Shape::MicroTime => Value::String(timestamp(&descriptor, int("seconds"), int("nanos"))?),
        Shape::Duration => Value::String(go_duration(int("duration").unwrap_or(0))),
        Shape::RawJson => match descriptor.fields().next().and_then(|f| field(f.name())) {
            Some(Proto::Bytes(raw)) if !raw.is_empty() => raw_json(schema, &descriptor, &raw)?,
            _ => Value::Null,
        },
        Shape::Items => match field("items") {
            Some(items) => value(schema, &descriptor, &items_field(&descriptor)?, &items)?,
            None => Value::Array(Vec::new()),
        },
        Shape::SchemaOrArray => match field("jSONSchemas") {
            Some(Proto::List(schemas)) if !schemas.is_empty() => value(
                schema,
                &descriptor,
                &items_field_named(&descriptor, "jSONSchemas")?,
                &Proto::List(schemas),
            )?,
            _ => nested_or_null(schema, field("schema"))?,
        },
        Shape::SchemaOrBool => match field("schema") {
            Some(nested) => nested_or_null(schema, Some(nested))?,
            None => Value::Bool(field("allows").and_then(|v| v.as_bool()).unwrap_or(false)),
        },
        Shape::SchemaOrStrings => match field("property") {
            Some(Proto::List(names)) if !names.is_empty() => {
                Value::Array(names.iter().filter_map(|n| n.as_str()).map(Value::from).collect())
            }
            _ => nested_or_null(schema, field("schema"))?,
        },
    })
}

/// The JSON object of a plain message: its set fields under their JSON names, less
/// the zero values Go's `omitempty` drops, with embedded structs' fields inline.
fn object(schema: &Schema, descriptor: &MessageDescriptor, message: &DynamicMessage) -> Result<Value, ProtobufError> {
    let mut object = Map::new();
    for (field, field_value) in message.fields() {
        if schema.omits_zero(descriptor, &field) && field_value.is_default(&field.kind()) {
            continue;
        }
        let json = value(schema, descriptor, &field, field_value)?;
        if schema.is_inlined(descriptor, &field) {
            // An embedded Go struct: its fields are the object's own, unless shadowed.
            if let Value::Object(embedded) = json {
                for (key, embedded_value) in embedded {
                    object.entry(key).or_insert(embedded_value);
                }
            }
            continue;
        }
        object.insert(schema.json_name(descriptor, &field).to_owned(), json);
    }
    Ok(Value::Object(object))
}

/// The JSON of one field's value (a list, a map or a single value).
fn value(
    schema: &Schema,
    parent: &MessageDescriptor,
    field: &FieldDescriptor,
    field_value: &Proto,
) -> Result<Value, ProtobufError> {
    match field_value {
        Proto::List(items) => items
            .iter()
            .map(|item| single(schema, parent, field, &field.kind(), item))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        Proto::Map(entries) => {
            let value_kind = match field.kind() {
                Kind::Message(entry) => entry.map_entry_value_field().kind(),
                other => other,
            };
            let mut object = Map::new();
            for (key, entry) in entries {
                let key = match key {
                    MapKey::String(key) => key.clone(),
                    MapKey::Bool(b) => b.to_string(),
                    MapKey::I32(n) => n.to_string(),
                    MapKey::I64(n) => n.to_string(),
                    MapKey::U32(n) => n.to_string(),
                    MapKey::U64(n) => n.to_string(),
                };
                object.insert(key, single(schema, parent, field, &value_kind, entry)?);
            }
            Ok(Value::Object(object))
        }
        single_value => single(schema, parent, field, &field.kind(), single_value),
    }
}

/// The JSON of a value that is neither a list nor a map.
fn single(
    schema: &Schema,
    parent: &MessageDescriptor,
    field: &FieldDescriptor,
    kind: &Kind,
    single_value: &Proto,
) -> Result<Value, ProtobufError> {
    Ok(match single_value {
        Proto::Bool(b) => Value::Bool(*b),
        Proto::I32(n) | Proto::EnumNumber(n) => Value::from(*n),
        Proto::I64(n) => Value::from(*n),
        Proto::U32(n) => Value::from(*n),
        Proto::U64(n) => Value::from(*n),
        Proto::F32(n) => float(parent, field, f64::from(*n))?,
        Proto::F64(n) => float(parent, field, *n)?,
        Proto::String(s) => Value::String(s.clone()),
        Proto::Bytes(bytes) => Value::String(base64::engine::general_purpose::STANDARD.encode(bytes)),
        Proto::Message(nested) => message(schema, nested)?,
        Proto::List(_) | Proto::Map(_) => {
            return Err(ProtobufError::bad_value(
                format!("{}.{}", parent.full_name(), field.name()),
                format!("a nested list or map where {kind:?} was expected"),
            ));
        }
    })
}

fn float(parent: &MessageDescriptor, field: &FieldDescriptor, n: f64) -> Result<Value, ProtobufError> {
    Number::from_f64(n).map(Value::Number).ok_or_else(|| {
        ProtobufError::bad_value(
            format!("{}.{}", parent.full_name(), field.name()),
            "not a finite number",
        )
    })
}

fn nested_or_null(schema: &Schema, nested: Option<Proto>) -> Result<Value, ProtobufError> {
    match nested {
        Some(Proto::Message(nested)) => message(schema, &nested),
        _ => Ok(Value::Null),
    }
}

fn items_field(descriptor: &MessageDescriptor) -> Result<FieldDescriptor, ProtobufError> {
    items_field_named(descriptor, "items")
}

fn items_field_named(descriptor: &MessageDescriptor, name: &str) -> Result<FieldDescriptor, ProtobufError> {
    descriptor
        .get_field_by_name(name)
        .ok_or_else(|| ProtobufError::bad_value(descriptor.full_name(), format!("has no field {name}")))
}

/// JSON carried as bytes: JSON text, or an embedded protobuf envelope (an object a Go
/// client encoded as protobuf inside a `RawExtension`).
fn raw_json(schema: &Schema, descriptor: &MessageDescriptor, raw: &[u8]) -> Result<Value, ProtobufError> {
    if raw.starts_with(MAGIC) {
        return decode_object(schema, raw);
    }
    serde_json::from_slice(raw)
        .map_err(|e| ProtobufError::bad_value(descriptor.full_name(), format!("is not JSON: {e}")))
}

/// `Time` (seconds) and `MicroTime` (microseconds) as Go's RFC 3339 text, in UTC.
fn timestamp(
    descriptor: &MessageDescriptor,
    seconds: Option<i64>,
    nanos: Option<i64>,
) -> Result<String, ProtobufError> {
    let nanos = nanos.unwrap_or(0);
    let bad = |reason: String| ProtobufError::bad_value(descriptor.full_name(), reason);
    let at = i32::try_from(nanos)
        .ok()
        .and_then(|n| jiff::Timestamp::new(seconds.unwrap_or(0), n).ok())
        .ok_or_else(|| bad(format!("{seconds:?} s {nanos} ns is not a time")))?;
    let whole = at.strftime("%Y-%m-%dT%H:%M:%S");
    if descriptor.name() == "MicroTime" {
        Ok(format!("{whole}.{:06}Z", nanos / 1000))
    } else {
        Ok(format!("{whole}Z"))
    }
}

/// A duration as Go's `time.Duration.String` writes it: `1h0m0s`, `1.5s`, `300ms`.
pub(super) fn go_duration(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".to_owned();
    }
    let sign = if nanos < 0 { "-" } else { "" };
    let u = nanos.unsigned_abs();
    if u < 1_000_000_000 {
        let (unit, digits) = match u {
            0..1_000 => ("ns", 0),
            1_000..1_000_000 => ("µs", 3),
            _ => ("ms", 6),
        };
        let scale = 10u64.pow(digits);
        return format!("{sign}{}{}{unit}", u / scale, fraction(u % scale, digits));
    }
    let seconds = u / 1_000_000_000;
    let fraction = fraction(u % 1_000_000_000, 9);
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{sign}{hours}h{minutes}m{seconds}{fraction}s")
    } else if minutes > 0 {
        format!("{sign}{minutes}m{seconds}{fraction}s")
    } else {
        format!("{sign}{seconds}{fraction}s")
    }
}

/// `.5` for 500 of 3 digits; nothing for zero.
fn fraction(value: u64, digits: u32) -> String {
    if value == 0 {
        return String::new();
    }
    let text = format!("{value:0width$}", width = digits as usize);
    format!(".{}", text.trim_end_matches('0'))
}
