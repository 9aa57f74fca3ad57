//! A built-in object written as JSON in its Go type's field order. kube-apiserver
//! encodes an object from its Go struct, so its fields come in declaration order
//! (`apiVersion`, `kind`, `metadata` with `name` first...), and a JSON or merge patch
//! applied to those bytes keeps that order; where it quotes a patched object (a patch
//! whose result does not decode), it quotes it so. json-patch re-encodes the objects
//! the patch reached (the document's top level, the objects along an operation's
//! path, those a merge patch merged into) with sorted keys and keeps the bytes of
//! the rest: `sorted` names those.

use std::fmt::Write as _;

use serde_json::Value;
use wheelhouse_envtest_schema::errors::go_json;

use super::schemas::{Definitions, builtin_type, resolve};
use crate::core::Builtin;

/// The field order of a Go type by its schema's definition name, None when unknown.
pub(crate) type FieldOrder<'o> = dyn Fn(&str) -> Option<&'static [(&'static str, &'static str)]> + 'o;

/// `object` as compact JSON (Go's escaping), each object of a named type with its
/// fields in `order`'s order, fields the type does not declare after them, and maps
/// (labels, annotations) with sorted keys, as Go writes them.
pub(crate) fn ordered_json(
    builtin: &'static Builtin,
    object: &Value,
    order: &FieldOrder<'_>,
    sorted: &dyn Fn(&[String]) -> bool,
) -> String {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    let mut writer = Writer {
        definitions,
        order,
        sorted,
        path: Vec::new(),
        out: String::new(),
    };
    writer.value(Some(root.as_str()), definitions.get(root), object);
    writer.out
}

struct Writer<'w> {
    definitions: &'w Definitions,
    order: &'w FieldOrder<'w>,
    sorted: &'w dyn Fn(&[String]) -> bool,
    /// The keys (and indices) from the root to the value being written.
    path: Vec<String>,
    out: String,
}

impl Writer<'_> {
    /// Writes `value`, whose schema is `schema` (the definition `name` at the root).
    fn value(&mut self, name: Option<&str>, schema: Option<&Value>, value: &Value) {
        let resolved = schema.and_then(|schema| resolve(self.definitions, schema));
        match (value, resolved) {
            (Value::Object(fields), Some((reference, schema))) => {
                let name = reference.or(name);
                let properties = schema["properties"].as_object();
                let additional = schema.get("additionalProperties").filter(|a| a.is_object());
                let keys = self.keys(name, fields);
                self.out.push('{');
                for (index, key) in keys.into_iter().enumerate() {
                    if index > 0 {
                        self.out.push(',');
                    }
                    let _ = write!(self.out, "{}:", go_json(&Value::String(key.clone())));
                    let child = properties.and_then(|p| p.get(key.as_str())).or(additional);
                    self.path.push(key.clone());
                    self.value(None, child, &fields[key.as_str()]);
                    self.path.pop();
                }
                self.out.push('}');
            }
            (Value::Array(items), Some((_, schema))) => {
                self.out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        self.out.push(',');
                    }
                    self.path.push(index.to_string());
                    self.value(None, schema.get("items"), item);
                    self.path.pop();
                }
                self.out.push(']');
            }
            _ => self.out.push_str(&go_json(value)),
        }
    }

    /// The order of an object's keys: sorted where the patch re-encoded it, else its
    /// type's (`TypeMeta`, embedded first in every object type, is not among the
    /// fields the facts list), fields the type does not declare after.
    fn keys<'k>(&self, name: Option<&str>, fields: &'k serde_json::Map<String, Value>) -> Vec<&'k String> {
        if (self.sorted)(&self.path) {
            return fields.keys().collect();
        }
        let declared = name.and_then(self.order).unwrap_or_default();
        // A type that declares `apiVersion` or `kind` itself (an owner reference, a
        // managed fields entry) has them in its own place, not `TypeMeta`'s.
        let type_meta: Vec<(&str, &str)> = [("kind", ""), ("apiVersion", "")]
            .into_iter()
            .filter(|(field, _)| name.is_some() && !declared.iter().any(|(f, _)| f == field))
            .collect();
        let mut keys: Vec<&String> = Vec::with_capacity(fields.len());
        for (field, _) in type_meta.iter().chain(declared) {
            if let Some((key, _)) = fields.get_key_value(*field) {
                keys.push(key);
            }
        }
        let listed = |field: &str| declared.iter().chain(&type_meta).any(|(f, _)| *f == field);
        keys.extend(fields.keys().filter(|key| !listed(key)));
        keys
    }
}
