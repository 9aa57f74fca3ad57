//! The CEL type of each schema node, with the size limits that bound a rule's cost, as
//! kube-apiserver derives them (`SchemaDeclType` in
//! `k8s.io/apiserver/pkg/cel/common/schemas.go`), and the escaping of property names
//! that are not CEL identifiers (`Escape` in `pkg/cel/escaping.go`).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// The largest request body kube-apiserver takes, which bounds unbounded lists, maps
/// and strings (`MaxRequestSizeBytes`, 3 MiB).
pub(crate) const MAX_REQUEST_BYTES: u64 = 3 * 1024 * 1024;

/// A CEL type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ty {
    Dyn,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    /// A type value (`int`, `type(x)`).
    Type,
    List(Box<Decl>),
    Map(Box<Decl>, Box<Decl>),
    /// An object of the schema: its properties by their CEL (escaped) names.
    Object(Arc<BTreeMap<String, Decl>>),
    Optional(Box<Decl>),
    /// A library type: `kubernetes.URL`, `kubernetes.Quantity`.
    Opaque(&'static str),
}

/// A type and the most elements (items, properties, bytes) a value of it can have.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decl {
    pub ty: Ty,
    pub max_elements: u64,
    /// The smallest JSON a value takes, which bounds how many fit in a request.
    pub min_size: u64,
}

impl Decl {
    pub fn new(ty: Ty) -> Self {
        let min_size = match ty {
            Ty::Bool => 4,
            Ty::String | Ty::Bytes | Ty::Object(_) | Ty::List(_) | Ty::Map(..) => 2,
            Ty::Duration => 3,
            Ty::Timestamp => 21,
            _ => 1,
        };
        Self {
            ty,
            max_elements: 0,
            min_size,
        }
    }

    pub fn sized(ty: Ty, max_elements: u64) -> Self {
        Self {
            max_elements,
            ..Self::new(ty)
        }
    }

    pub fn dyn_() -> Self {
        Self::sized(Ty::Dyn, MAX_REQUEST_BYTES)
    }

    pub fn list(element: Self, max_items: u64) -> Self {
        Self::sized(Ty::List(Box::new(element)), max_items)
    }
}

impl fmt::Display for Ty {
    /// Type names as cel-go prints them in its errors.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Dyn => write!(f, "dyn"),
            Self::Null => write!(f, "null_type"),
            Self::Bool => write!(f, "bool"),
            Self::Int => write!(f, "int"),
            Self::Uint => write!(f, "uint"),
            Self::Double => write!(f, "double"),
            Self::String => write!(f, "string"),
            Self::Bytes => write!(f, "bytes"),
            Self::Duration => write!(f, "google.protobuf.Duration"),
            Self::Timestamp => write!(f, "google.protobuf.Timestamp"),
            Self::Type => write!(f, "type"),
            Self::List(element) => write!(f, "list({})", element.ty),
            Self::Map(key, value) => write!(f, "map({}, {})", key.ty, value.ty),
            Self::Object(_) => write!(f, "object"),
            Self::Optional(inner) => write!(f, "optional_type({})", inner.ty),
            Self::Opaque(name) => write!(f, "{name}"),
        }
    }
}

/// CEL's reserved words: a property named so is `__name__` in rules.
const RESERVED: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// A property name as rules spell it (`foo-bar` is `foo__dash__bar`), or None when no
/// rule can name it.
pub(crate) fn escape(name: &str) -> Option<String> {
    let first = name.chars().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut escaped = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '_' if chars.peek() == Some(&'_') => {
                chars.next();
                escaped.push_str("__underscores__");
            }
            '.' => escaped.push_str("__dot__"),
            '-' => escaped.push_str("__dash__"),
            '/' => escaped.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => escaped.push(c),
            _ => return None,
        }
    }
    Some(escaped)
}

fn max_length_elements(schema: &Value) -> Option<u64> {
    // maxLength counts characters; a character takes up to 4 bytes.
    schema["maxLength"].as_u64().map(|n| n.saturating_mul(4))
}

/// `SchemaDeclType`: the CEL type of values of `schema`; `resource` adds the
/// `apiVersion`, `kind` and `metadata` (name, generateName) of the root or of an
/// embedded resource. None for schemas rules cannot see (no type).
pub(crate) fn of_schema(schema: &Value, resource: bool) -> Option<Decl> {
    if schema["x-kubernetes-int-or-string"] == true {
        let max = schema["maxLength"]
            .as_u64()
            .map_or(MAX_REQUEST_BYTES - 2, |n| n.saturating_mul(4));
        return Some(Decl {
            min_size: 1,
            ..Decl::sized(Ty::Dyn, max)
        });
    }
    let schema_type = schema["type"].as_str().or(if resource { Some("object") } else { None });
    match schema_type? {
        "array" => {
            let items = schema.get("items")?;
            let element = of_schema(items, items["x-kubernetes-embedded-resource"] == true)?;
            let max = schema["maxItems"]
                .as_u64()
                .unwrap_or((MAX_REQUEST_BYTES - 2) / (element.min_size + 1));
            Some(Decl::list(element, max))
        }
        "object" => {
            if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                let value = of_schema(additional, additional["x-kubernetes-embedded-resource"] == true)?;
                let max = schema["maxProperties"]
                    .as_u64()
                    .unwrap_or((MAX_REQUEST_BYTES - 2) / (value.min_size + 6));
                let key = Decl::sized(Ty::String, MAX_REQUEST_BYTES);
                return Some(Decl::sized(Ty::Map(Box::new(key), Box::new(value)), max));
            }
            let mut fields = BTreeMap::new();
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let mut min_size = 2;
            for (name, property) in schema["properties"].as_object().into_iter().flatten() {
                let Some(decl) = of_schema(property, property["x-kubernetes-embedded-resource"] == true) else {
                    continue;
                };
                if required.contains(&name.as_str()) && property.get("default").is_none() {
                    min_size += name.len() as u64 + decl.min_size + 4;
                }
                if let Some(escaped) = escape(name) {
                    fields.insert(escaped, decl);
                }
            }
            if resource {
                let text = || Decl::sized(Ty::String, MAX_REQUEST_BYTES);
                fields.entry("apiVersion".into()).or_insert_with(text);
                fields.entry("kind".into()).or_insert_with(text);
                let mut metadata = BTreeMap::new();
                metadata.insert("name".to_owned(), text());
                metadata.insert("generateName".to_owned(), text());
                fields.insert("metadata".into(), Decl::new(Ty::Object(Arc::new(metadata))));
            }
            Some(Decl {
                min_size,
                ..Decl::new(Ty::Object(Arc::new(fields)))
            })
        }
        "string" => {
            let per_request = MAX_REQUEST_BYTES - 2;
            let decl = match schema["format"].as_str() {
                Some("byte") => Decl::sized(Ty::Bytes, max_length_elements(schema).unwrap_or(per_request)),
                Some("duration") => Decl::sized(Ty::Duration, 21),
                Some("date") => Decl::sized(Ty::Timestamp, 12),
                Some("date-time") => Decl::sized(Ty::Timestamp, 32),
                _ => {
                    let enum_max = schema["enum"].as_array().filter(|e| !e.is_empty()).map(|e| {
                        e.iter()
                            .filter_map(Value::as_str)
                            .map(|s| s.len() as u64)
                            .max()
                            .unwrap_or(0)
                    });
                    let max = max_length_elements(schema).or(enum_max).unwrap_or(per_request);
                    Decl::sized(Ty::String, max)
                }
            };
            Some(decl)
        }
        "boolean" => Some(Decl::new(Ty::Bool)),
        "number" => Some(Decl::new(Ty::Double)),
        "integer" => Some(Decl::new(Ty::Int)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn property_names_are_escaped_as_kubernetes_escapes_them() {
        assert_eq!(escape("replicas").as_deref(), Some("replicas"));
        assert_eq!(escape("foo-bar").as_deref(), Some("foo__dash__bar"));
        assert_eq!(escape("a.b/c").as_deref(), Some("a__dot__b__slash__c"));
        assert_eq!(escape("a__b").as_deref(), Some("a__underscores__b"));
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("1st"), None);
        assert_eq!(escape("a b"), None);
    }

    #[test]
    fn schemas_give_types_and_bounds() {
        let schema = json!({"type": "object", "properties": {
            "tags": {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "when": {"type": "string", "format": "date-time"},
            "size": {"x-kubernetes-int-or-string": true},
        }});
        let decl = of_schema(&schema, true).unwrap();
        let Ty::Object(fields) = &decl.ty else {
            panic!("{decl:?}")
        };
        assert!(fields.contains_key("metadata") && fields.contains_key("kind"));
        let Ty::List(element) = &fields["tags"].ty else {
            panic!()
        };
        assert_eq!((fields["tags"].max_elements, element.max_elements), (5, 40));
        assert!(matches!(fields["labels"].ty, Ty::Map(..)));
        assert_eq!(fields["when"].ty, Ty::Timestamp);
        assert_eq!(fields["size"].ty, Ty::Dyn);
    }
}
