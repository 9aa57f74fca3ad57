//! Field paths as structured-merge-diff names them (`fieldpath/element.go`, `path.go`,
//! `serialize-pe.go`): a step is a field of a map, an item of an associative list by its
//! key fields, an item of a set by its value, or (for atomic lists, in validation only)
//! an index. Steps order as `PathElement.Compare` orders them, which is the order of
//! `FieldsV1` keys and of conflict lists.

mod set;

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Value};

pub(crate) use self::set::Set;
use super::value;

/// One step of a field path.
#[derive(Debug, Clone)]
pub(crate) enum PathElement {
    /// A field of a map or struct (`f:name`).
    Field(String),
    /// An item of an associative list, by its key fields sorted by name (`k:{...}`).
    Key(Vec<(String, Value)>),
    /// An item of a set, by its value (`v:...`).
    Value(Value),
    /// An item of a list by position (`i:3`); never in managed fields the server writes.
    Index(usize),
}

impl PathElement {
    /// The rank of the step's kind: fields, then keys, then values, then indices.
    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// A key element from its fields in any order.
    pub(crate) fn key(mut fields: Vec<(String, Value)>) -> PathElement {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(fields)
    }

    /// The `FieldsV1` form: `f:name`, `k:{"name":"a"}`, `v:"x"`, `i:0`.
    pub(crate) fn serialize(&self) -> String {
        match self {
            PathElement::Field(name) => format!("f:{name}"),
            PathElement::Key(fields) => {
                let mut out = String::from("k:{");
                for (index, (name, field)) in fields.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    value::write_go_string(name, &mut out);
                    out.push(':');
                    out.push_str(&value::to_go_json(field));
                }
                out.push('}');
                out
            }
            PathElement::Value(item) => format!("v:{}", value::to_go_json(item)),
            PathElement::Index(index) => format!("i:{index}"),
        }
    }

    /// `DeserializePathElement`: `Ok(None)` for a kind of step this version does not
    /// know (skipped with what lies below it, as the real server skips it).
    pub(crate) fn parse(text: &str) -> Result<Option<PathElement>, String> {
        let Some((kind, rest)) = text.split_at_checked(2) else {
            return Err("key must be 2 characters long:".to_owned());
        };
        if !kind.ends_with(':') {
            return Err(format!("missing colon: {text}"));
        }
        let element = match kind {
            "f:" => PathElement::Field(rest.to_owned()),
            "v:" => PathElement::Value(serde_json::from_str(rest).map_err(|e| e.to_string())?),
            "k:" => {
                let fields: Map<String, Value> = serde_json::from_str(rest).map_err(|e| e.to_string())?;
                PathElement::key(fields.into_iter().collect())
            }
            "i:" => PathElement::Index(rest.parse().map_err(|e: std::num::ParseIntError| e.to_string())?),
            _ => return Ok(None),
        };
        Ok(Some(element))
    }
}

impl Ord for PathElement {
    /// `PathElement.Compare`.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.cmp(b),
            (PathElement::Key(a), PathElement::Key(b)) => {
                for ((name_a, value_a), (name_b, value_b)) in a.iter().zip(b) {
                    let order = name_a.cmp(name_b).then_with(|| value::compare(value_a, value_b));
                    if order != Ordering::Equal {
                        return order;
                    }
                }
                a.len().cmp(&b.len())
            }
            (PathElement::Value(a), PathElement::Value(b)) => value::compare(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl fmt::Display for PathElement {
    /// `PathElement.String`, as conflicts print it: `.name`, `[name="a"]`, `[="x"]`, `[0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(name, field)| format!("{name}={}", value::to_go_string(field)))
                    .collect();
                write!(f, "[{}]", fields.join(","))
            }
            PathElement::Value(item) => write!(f, "[={}]", value::to_go_string(item)),
            PathElement::Index(index) => write!(f, "[{index}]"),
        }
    }
}

/// A path from the object's root.
pub(crate) type Path = Vec<PathElement>;

/// `Path.String`: `.spec.ports[name="a"].port`.
pub(crate) fn describe(path: &[PathElement]) -> String {
    path.iter().map(ToString::to_string).collect()
}

/// A path of field names, for building sets by hand.
pub(crate) fn fields(names: &[&str]) -> Path {
    names
        .iter()
        .map(|name| PathElement::Field((*name).to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn key(name: &str, value: Value) -> PathElement {
        PathElement::key(vec![(name.to_owned(), value)])
    }

    #[test]
    fn elements_order_fields_keys_values_then_indices() {
        let mut elements = [
            PathElement::Index(0),
            PathElement::Value(json!("x")),
            key("port", json!(10)),
            key("port", json!(9)),
            PathElement::Field("b".into()),
            PathElement::Field("a".into()),
        ];
        elements.sort();
        let printed: Vec<String> = elements.iter().map(PathElement::serialize).collect();
        assert_eq!(
            printed,
            ["f:a", "f:b", "k:{\"port\":9}", "k:{\"port\":10}", "v:\"x\"", "i:0"]
        );
    }

    #[test]
    fn elements_print_and_parse_as_the_real_server_writes_them() {
        let element = PathElement::key(vec![
            ("protocol".into(), json!("TCP")),
            ("containerPort".into(), json!(80)),
        ]);
        assert_eq!(element.serialize(), r#"k:{"containerPort":80,"protocol":"TCP"}"#);
        assert_eq!(element.to_string(), r#"[containerPort=80,protocol="TCP"]"#);
        assert_eq!(PathElement::parse(&element.serialize()), Ok(Some(element)));
        assert_eq!(PathElement::parse("x:whatever"), Ok(None));
        assert!(PathElement::parse("k:{nope").is_err());
        assert!(PathElement::parse("f").is_err());
        let path = vec![
            PathElement::Field("spec".into()),
            key("name", json!("a")),
            PathElement::Value(json!(1)),
        ];
        assert_eq!(describe(&path), ".spec[name=\"a\"][=1]");
    }
}
