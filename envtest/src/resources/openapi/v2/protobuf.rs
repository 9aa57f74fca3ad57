//! `/openapi/v2` as protobuf (`application/com.github.proto-openapi.spec.v2.v1.0+protobuf`):
//! the JSON document compiled into gnostic's `openapi.v2.Document` message
//! (`github.com/google/gnostic-models/openapiv2`: `ParseDocument` then
//! `proto.Marshal`), as kube-openapi's handler serves it. Each object becomes its
//! message, field by field; a map of names (paths, definitions, properties, answers)
//! its `Named...` entries in the document's order; a value of any shape (`default`,
//! `enum`, `example`, a vendor extension) an `Any` holding its YAML, block style with
//! two-space indents as gnostic writes it. Fields at their zero value are left out,
//! as proto3 does.

use serde_json::{Map, Value};

/// A protobuf message being written.
#[derive(Default)]
struct Message(Vec<u8>);

impl Message {
    fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            // Seven bits at a time, low first; the truncation is the encoding.
            #[allow(clippy::cast_possible_truncation)]
            self.0.push((value as u8 & 0x7f) | 0x80);
            value >>= 7;
        }
        #[allow(clippy::cast_possible_truncation)]
        self.0.push(value as u8);
    }

    fn key(&mut self, field: u32, wire: u8) {
        self.varint((u64::from(field) << 3) | u64::from(wire));
    }

    fn bytes(&mut self, field: u32, bytes: &[u8]) {
        self.key(field, 2);
        self.varint(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    fn string(&mut self, field: u32, value: &str) {
        if !value.is_empty() {
            self.bytes(field, value.as_bytes());
        }
    }

    /// A string field from `object[name]` when it is a string.
    fn string_of(&mut self, field: u32, object: &Map<String, Value>, name: &str) {
        if let Some(value) = object.get(name).and_then(Value::as_str) {
            self.string(field, value);
        }
    }

    fn strings_of(&mut self, field: u32, object: &Map<String, Value>, name: &str) {
        for value in object.get(name).and_then(Value::as_array).into_iter().flatten() {
            if let Some(value) = value.as_str() {
                self.bytes(field, value.as_bytes());
            }
        }
    }

    fn bool_of(&mut self, field: u32, object: &Map<String, Value>, name: &str) {
        if object.get(name).and_then(Value::as_bool) == Some(true) {
            self.key(field, 0);
            self.varint(1);
        }
    }

    fn double_of(&mut self, field: u32, object: &Map<String, Value>, name: &str) {
        if let Some(value) = object.get(name).and_then(Value::as_f64)
            && value != 0.0
        {
            self.key(field, 1);
            self.0.extend_from_slice(&value.to_le_bytes());
        }
    }

    fn int_of(&mut self, field: u32, object: &Map<String, Value>, name: &str) {
        if let Some(value) = object.get(name).and_then(Value::as_i64)
            && value != 0
        {
            self.key(field, 0);
            // int64's two's complement, as protobuf writes a negative varint.
            #[allow(clippy::cast_sign_loss)]
            self.varint(value as u64);
        }
    }

    fn message(&mut self, field: u32, message: &Message) {
        self.bytes(field, &message.0);
    }

    fn message_with(&mut self, field: u32, write: impl FnOnce(&mut Message)) {
        let mut inner = Message::default();
        write(&mut inner);
        self.message(field, &inner);
    }

    /// An `Any` holding `value`'s YAML.
    fn any(&mut self, field: u32, value: &Value) {
        self.message_with(field, |any| any.string(2, &yaml(value)));
    }

    /// The `x-` fields of `object` as `NamedAny` entries.
    fn extensions(&mut self, field: u32, object: &Map<String, Value>) {
        for (name, value) in object.iter().filter(|(name, _)| name.starts_with("x-")) {
            self.message_with(field, |named| {
                named.string(1, name);
                named.any(2, value);
            });
        }
    }
}

/// The document as gnostic's `Document` message.
pub(super) fn encode(document: &Value) -> Vec<u8> {
    let Some(doc) = document.as_object() else {
        return Vec::new();
    };
    let mut out = Message::default();
    out.string_of(1, doc, "swagger");
    if let Some(info) = doc.get("info").and_then(Value::as_object) {
        out.message_with(2, |m| {
            m.string_of(1, info, "title");
            m.string_of(2, info, "version");
            m.string_of(3, info, "description");
            m.extensions(7, info);
        });
    }
    out.string_of(3, doc, "host");
    out.string_of(4, doc, "basePath");
    out.strings_of(5, doc, "schemes");
    out.strings_of(6, doc, "consumes");
    out.strings_of(7, doc, "produces");
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        out.message_with(8, |m| {
            m.extensions(1, paths);
            for (path, item) in paths.iter().filter(|(path, _)| !path.starts_with("x-")) {
                m.message_with(2, |named| {
                    named.string(1, path);
                    named.message(2, &path_item(item));
                });
            }
        });
    }
    if let Some(definitions) = doc.get("definitions").and_then(Value::as_object) {
        out.message_with(9, |m| named_schemas(m, 1, definitions));
    }
    if let Some(parameters) = doc.get("parameters").and_then(Value::as_object) {
        out.message_with(10, |m| {
            for (name, value) in parameters {
                m.message_with(1, |named| {
                    named.string(1, name);
                    named.message(2, &parameter(value));
                });
            }
        });
    }
    for requirement in doc.get("security").and_then(Value::as_array).into_iter().flatten() {
        let Some(requirement) = requirement.as_object() else {
            continue;
        };
        out.message_with(12, |m| {
            for (name, scopes) in requirement {
                m.message_with(1, |named| {
                    named.string(1, name);
                    named.message_with(2, |array| {
                        for scope in scopes.as_array().into_iter().flatten().filter_map(Value::as_str) {
                            array.bytes(1, scope.as_bytes());
                        }
                    });
                });
            }
        });
    }
    if let Some(definitions) = doc.get("securityDefinitions").and_then(Value::as_object) {
        out.message_with(13, |m| {
            for (name, definition) in definitions {
                let Some(definition) = definition.as_object() else {
                    continue;
                };
                m.message_with(1, |named| {
                    named.string(1, name);
                    named.message_with(2, |item| security_definition(item, definition));
                });
            }
        });
    }
    out.extensions(16, doc);
    out.0
}

/// A `SecurityDefinitionsItem`: basic or API key (what kube-apiserver declares).
fn security_definition(item: &mut Message, definition: &Map<String, Value>) {
    match definition.get("type").and_then(Value::as_str) {
        Some("basic") => item.message_with(1, |m| {
            m.string_of(1, definition, "type");
            m.string_of(2, definition, "description");
            m.extensions(3, definition);
        }),
        _ => item.message_with(2, |m| {
            m.string_of(1, definition, "type");
            m.string_of(2, definition, "name");
            m.string_of(3, definition, "in");
            m.string_of(4, definition, "description");
            m.extensions(5, definition);
        }),
    }
}

fn path_item(item: &Value) -> Message {
    let mut m = Message::default();
    let Some(item) = item.as_object() else {
        return m;
    };
    m.string_of(1, item, "$ref");
    for (field, method) in [
        (2, "get"),
        (3, "put"),
        (4, "post"),
        (5, "delete"),
        (6, "options"),
        (7, "head"),
        (8, "patch"),
    ] {
        if let Some(operation) = item.get(method).and_then(Value::as_object) {
            m.message(field, &self::operation(operation));
        }
    }
    parameters_items(&mut m, 9, item);
    m.extensions(10, item);
    m
}

fn operation(operation: &Map<String, Value>) -> Message {
    let mut m = Message::default();
    m.strings_of(1, operation, "tags");
    m.string_of(2, operation, "summary");
    m.string_of(3, operation, "description");
    m.string_of(5, operation, "operationId");
    m.strings_of(6, operation, "produces");
    m.strings_of(7, operation, "consumes");
    parameters_items(&mut m, 8, operation);
    if let Some(responses) = operation.get("responses").and_then(Value::as_object) {
        m.message_with(9, |r| {
            for (code, response) in responses.iter().filter(|(code, _)| !code.starts_with("x-")) {
                r.message_with(1, |named| {
                    named.string(1, code);
                    named.message_with(2, |value| match response.get("$ref").and_then(Value::as_str) {
                        Some(reference) => value.message_with(2, |j| j.string(1, reference)),
                        None => value.message_with(1, |resp| {
                            let Some(response) = response.as_object() else {
                                return;
                            };
                            resp.string_of(1, response, "description");
                            if let Some(schema) = response.get("schema") {
                                resp.message_with(2, |item| item.message(1, &self::schema(schema)));
                            }
                            resp.extensions(5, response);
                        }),
                    });
                });
            }
            r.extensions(2, responses);
        });
    }
    m.strings_of(10, operation, "schemes");
    m.bool_of(11, operation, "deprecated");
    m.extensions(13, operation);
    m
}

/// The `parameters` of a path item or operation as `ParametersItem`s: a reference, or
/// the parameter itself.
fn parameters_items(m: &mut Message, field: u32, object: &Map<String, Value>) {
    for value in object.get("parameters").and_then(Value::as_array).into_iter().flatten() {
        m.message_with(field, |item| match value.get("$ref").and_then(Value::as_str) {
            Some(reference) => item.message_with(2, |j| {
                j.string(1, reference);
                if let Some(object) = value.as_object() {
                    j.string_of(2, object, "description");
                }
            }),
            None => item.message(1, &parameter(value)),
        });
    }
}

/// A `Parameter`: a body parameter, or one of the query, path, header and form kinds.
fn parameter(value: &Value) -> Message {
    let mut m = Message::default();
    let Some(p) = value.as_object() else {
        return m;
    };
    let place = p.get("in").and_then(Value::as_str).unwrap_or_default();
    if place == "body" {
        m.message_with(1, |b| {
            b.string_of(1, p, "description");
            b.string_of(2, p, "name");
            b.string_of(3, p, "in");
            b.bool_of(4, p, "required");
            if let Some(schema) = p.get("schema") {
                b.message(5, &schema_message(schema));
            }
            b.extensions(6, p);
        });
        return m;
    }
    // The fields after `name` are numbered one higher where the kind has
    // `allowEmptyValue` (query and form data).
    let (kind, allows_empty) = match place {
        "header" => (1, false),
        "formData" => (2, true),
        "path" => (4, false),
        _ => (3, true),
    };
    m.message_with(2, |non_body| {
        non_body.message_with(kind, |s| {
            s.bool_of(1, p, "required");
            s.string_of(2, p, "in");
            s.string_of(3, p, "description");
            s.string_of(4, p, "name");
            let base = if allows_empty {
                s.bool_of(5, p, "allowEmptyValue");
                6
            } else {
                5
            };
            simple_schema(s, base, p);
        });
    });
    m
}

/// The shared tail of a non-body parameter (and `PrimitivesItems`, from `type` at
/// `base`): type, format, items, collectionFormat, default and the validations.
fn simple_schema(s: &mut Message, base: u32, p: &Map<String, Value>) {
    s.string_of(base, p, "type");
    s.string_of(base + 1, p, "format");
    if let Some(items) = p.get("items").and_then(Value::as_object) {
        s.message_with(base + 2, |m| primitives_items(m, items));
    }
    s.string_of(base + 3, p, "collectionFormat");
    if let Some(default) = p.get("default") {
        s.any(base + 4, default);
    }
    s.double_of(base + 5, p, "maximum");
    s.bool_of(base + 6, p, "exclusiveMaximum");
    s.double_of(base + 7, p, "minimum");
    s.bool_of(base + 8, p, "exclusiveMinimum");
    s.int_of(base + 9, p, "maxLength");
    s.int_of(base + 10, p, "minLength");
    s.string_of(base + 11, p, "pattern");
    s.int_of(base + 12, p, "maxItems");
    s.int_of(base + 13, p, "minItems");
    s.bool_of(base + 14, p, "uniqueItems");
    for value in p.get("enum").and_then(Value::as_array).into_iter().flatten() {
        s.any(base + 15, value);
    }
    s.double_of(base + 16, p, "multipleOf");
    s.extensions(base + 17, p);
}

fn primitives_items(m: &mut Message, items: &Map<String, Value>) {
    simple_schema(m, 1, items);
}

fn named_schemas(m: &mut Message, field: u32, schemas: &Map<String, Value>) {
    for (name, schema) in schemas {
        m.message_with(field, |named| {
            named.string(1, name);
            named.message(2, &schema_message(schema));
        });
    }
}

fn schema(value: &Value) -> Message {
    schema_message(value)
}

/// A `Schema`.
fn schema_message(value: &Value) -> Message {
    let mut m = Message::default();
    let Some(s) = value.as_object() else {
        return m;
    };
    m.string_of(1, s, "$ref");
    m.string_of(2, s, "format");
    m.string_of(3, s, "title");
    m.string_of(4, s, "description");
    if let Some(default) = s.get("default") {
        m.any(5, default);
    }
    m.double_of(6, s, "multipleOf");
    m.double_of(7, s, "maximum");
    m.bool_of(8, s, "exclusiveMaximum");
    m.double_of(9, s, "minimum");
    m.bool_of(10, s, "exclusiveMinimum");
    m.int_of(11, s, "maxLength");
    m.int_of(12, s, "minLength");
    m.string_of(13, s, "pattern");
    m.int_of(14, s, "maxItems");
    m.int_of(15, s, "minItems");
    m.bool_of(16, s, "uniqueItems");
    m.int_of(17, s, "maxProperties");
    m.int_of(18, s, "minProperties");
    m.strings_of(19, s, "required");
    for value in s.get("enum").and_then(Value::as_array).into_iter().flatten() {
        m.any(20, value);
    }
    match s.get("additionalProperties") {
        Some(Value::Bool(allowed)) => m.message_with(21, |a| {
            a.key(2, 0);
            a.varint(u64::from(*allowed));
        }),
        Some(additional @ Value::Object(_)) => m.message_with(21, |a| a.message(1, &schema_message(additional))),
        _ => {}
    }
    match s.get("type") {
        Some(Value::String(kind)) => m.message_with(22, |t| t.string(1, kind)),
        Some(Value::Array(kinds)) => m.message_with(22, |t| {
            for kind in kinds.iter().filter_map(Value::as_str) {
                t.bytes(1, kind.as_bytes());
            }
        }),
        _ => {}
    }
    match s.get("items") {
        Some(items @ Value::Object(_)) => m.message_with(23, |i| i.message(1, &schema_message(items))),
        Some(Value::Array(items)) => m.message_with(23, |i| {
            for item in items {
                i.message(1, &schema_message(item));
            }
        }),
        _ => {}
    }
    for all in s.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        m.message(24, &schema_message(all));
    }
    if let Some(properties) = s.get("properties").and_then(Value::as_object) {
        m.message_with(25, |p| named_schemas(p, 1, properties));
    }
    m.string_of(26, s, "discriminator");
    m.bool_of(27, s, "readOnly");
    if let Some(example) = s.get("example") {
        m.any(30, example);
    }
    m.extensions(31, s);
    m
}

/// `value` as block-style YAML with two-space indents, ending in a newline.
fn yaml(value: &Value) -> String {
    let mut out = String::new();
    write_yaml(&mut out, value, 0);
    out
}

fn write_yaml(out: &mut String, value: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, child) in map {
                out.push_str(&pad);
                out.push_str(&scalar(&Value::String(key.clone())));
                out.push(':');
                match child {
                    Value::Object(m) if !m.is_empty() => {
                        out.push('\n');
                        write_yaml(out, child, indent + 2);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        write_yaml(out, child, indent + 2);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(child));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                out.push_str(&pad);
                out.push_str("- ");
                match item {
                    Value::Object(m) if !m.is_empty() => {
                        // The first key on the dash's line, the others under it.
                        let mut nested = String::new();
                        write_yaml(&mut nested, item, indent + 2);
                        out.push_str(nested.trim_start_matches(' '));
                    }
                    Value::Array(a) if !a.is_empty() => {
                        let mut nested = String::new();
                        write_yaml(&mut nested, item, indent + 2);
                        out.push_str(nested.trim_start_matches(' '));
                    }
                    _ => {
                        out.push_str(&scalar(item));
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            out.push_str(&pad);
            out.push_str(&scalar(value));
            out.push('\n');
        }
    }
}

/// A scalar as YAML writes it: plain when it reads back as the same string, else
/// double-quoted.
fn scalar(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
        Value::String(s) => {
            let ambiguous = matches!(
                s.to_ascii_lowercase().as_str(),
                "" | "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off" | "y" | "n"
            ) || s.parse::<f64>().is_ok();
            let plain = !ambiguous
                && !s.starts_with([
                    ' ', '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`',
                ])
                && !s.ends_with(' ')
                && !s.contains(": ")
                && !s.contains(" #")
                && !s.ends_with(':')
                && s.chars().all(|c| !c.is_control());
            if plain {
                s.clone()
            } else {
                serde_json::to_string(s).unwrap_or_default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn extensions_are_yaml_as_gnostic_writes_them() {
        assert_eq!(
            yaml(&json!({"group": "", "kind": "Pod", "version": "v1"})),
            "group: \"\"\nkind: Pod\nversion: v1\n"
        );
        assert_eq!(yaml(&json!("list")), "list\n");
        assert_eq!(
            yaml(&json!(["containerPort", "protocol"])),
            "- containerPort\n- protocol\n"
        );
        assert_eq!(
            yaml(
                &json!([{"discriminator": "type", "fields-to-discriminateBy": {"localhostProfile": "LocalhostProfile"}}])
            ),
            "- discriminator: type\n  fields-to-discriminateBy:\n    localhostProfile: LocalhostProfile\n"
        );
    }

    #[test]
    fn the_document_starts_as_kube_s_does() {
        let document = json!({"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.32.0"}, "paths": {}});
        let bytes = encode(&document);
        let mut expected = vec![0x0a, 3];
        expected.extend_from_slice(b"2.0");
        expected.extend_from_slice(&[0x12, 0x15, 0x0a, 10]);
        expected.extend_from_slice(b"Kubernetes");
        expected.extend_from_slice(&[0x12, 7]);
        expected.extend_from_slice(b"v1.32.0");
        expected.extend_from_slice(&[0x42, 0]);
        assert_eq!(bytes, expected);
    }
}
