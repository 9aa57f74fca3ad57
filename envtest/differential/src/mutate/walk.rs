//! The fields of a seed, walked together with its schema: every value the seed sets
//! (the first item of each list stands for the list's items), and, one level into
//! each object the seed sets, the properties the schema declares that the seed leaves
//! out, so mutations reach optional fields no seed thought of.

use serde_json::Value;

use super::child;
use crate::openapi::{Schemas, Shape, ValueType};

/// One field of a seed.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about a field, each read on its own"
)]
pub struct Site {
    /// Where it is (RFC 6901 pointer into the object).
    pub pointer: String,
    /// The path with list indices as `[*]`: `spec.containers[*].ports[*].containerPort`.
    pub pattern: String,
    /// The field within the nearest named type: `core.v1.ContainerPort.containerPort`,
    /// which is the same whichever kind embeds the type.
    pub type_field: String,
    /// The property name (`containerPort`), or the list's name for its items.
    pub field: String,
    /// The seed's value; None when the seed leaves the field out.
    pub value: Option<Value>,
    /// What the schema (or, without one, the value) says it is.
    pub value_type: ValueType,
    /// The values an enum allows.
    pub enum_values: Vec<String>,
    /// For lists: the keys identifying items.
    pub merge_keys: Vec<String>,
    /// For lists: whether items are a set.
    pub is_set: bool,
    /// The schema's `format`.
    pub format: Option<String>,
    /// For lists: what the items are.
    pub item_type: Option<ValueType>,
    /// Whether it is a list's item rather than a named field.
    pub is_item: bool,
    /// Whether it lies under `status`.
    pub in_status: bool,
    /// Whether the schema says the field is required.
    pub required: bool,
}

/// Where the walk is.
struct Place {
    pointer: String,
    pattern: String,
    type_name: String,
    relative: String,
    field: String,
    in_status: bool,
}

impl Place {
    fn type_field(&self) -> String {
        if self.relative.is_empty() {
            self.type_name.clone()
        } else {
            format!("{}.{}", self.type_name, self.relative)
        }
    }

    fn property(&self, name: &str) -> Self {
        let join = |base: &str| {
            if base.is_empty() {
                name.to_owned()
            } else {
                format!("{base}.{name}")
            }
        };
        Self {
            pointer: child(&self.pointer, name),
            pattern: join(&self.pattern),
            type_name: self.type_name.clone(),
            relative: join(&self.relative),
            field: name.to_owned(),
            in_status: self.in_status || (self.pointer.is_empty() && name == "status"),
        }
    }

    fn item(&self, index: usize) -> Self {
        Self {
            pointer: child(&self.pointer, &index.to_string()),
            pattern: format!("{}[*]", self.pattern),
            type_name: self.type_name.clone(),
            relative: format!("{}[*]", self.relative),
            field: self.field.clone(),
            in_status: self.in_status,
        }
    }

    /// Entering a value of a named type: fields below are named from it.
    fn entering(mut self, shape: Option<&Shape<'_>>) -> Self {
        if let Some(name) = shape.and_then(Shape::type_name) {
            self.type_name = name;
            self.relative = String::new();
        }
        self
    }
}

/// Every field of `object` (a whole seed) below its root, but for `apiVersion`, `kind`
/// and `metadata` (the `metadata` mutations cover what every kind shares).
pub fn sites(schemas: &Schemas, root: Option<Shape<'_>>, object: &Value, kind: &str) -> Vec<Site> {
    let place = Place {
        pointer: String::new(),
        pattern: String::new(),
        type_name: root
            .as_ref()
            .and_then(Shape::type_name)
            .unwrap_or_else(|| kind.to_owned()),
        relative: String::new(),
        field: String::new(),
        in_status: false,
    };
    let mut out = Vec::new();
    walk_object(schemas, root, object, &place, &mut out, true);
    out
}

fn walk_object(
    schemas: &Schemas,
    shape: Option<Shape<'_>>,
    value: &Value,
    place: &Place,
    out: &mut Vec<Site>,
    root: bool,
) {
    let Some(fields) = value.as_object() else { return };
    let is_map = shape.as_ref().is_some_and(|s| s.value_type() == ValueType::Map);
    if is_map {
        // Maps of strings (labels, data) are mutated as a whole by the map's own
        // mutations (keys at their limits...); the entries of maps of quantities and
        // numbers (requests, limits, capacity) one by one.
        let entries = shape.and_then(|s| schemas.values(s));
        let numeric = entries.as_ref().is_some_and(|e| {
            matches!(
                e.value_type(),
                ValueType::Quantity | ValueType::Integer | ValueType::Number | ValueType::IntOrString
            )
        });
        if numeric {
            let mut names: Vec<&String> = fields.keys().collect();
            names.sort();
            for name in names {
                visit(
                    schemas,
                    entries,
                    Some(&fields[name]),
                    place.property(name),
                    out,
                    false,
                    false,
                );
            }
        }
        return;
    }
    let required = shape.as_ref().map(Shape::required).unwrap_or_default();
    // Sorted, so the walk's order never depends on how the JSON map keeps its keys.
    let mut names: Vec<&String> = fields.keys().collect();
    names.sort();
    for name in names {
        let field_value = &fields[name];
        if root && matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        let field_shape = shape.and_then(|s| schemas.property(s, name));
        let here = place.property(name);
        visit(
            schemas,
            field_shape,
            Some(field_value),
            here,
            out,
            false,
            required.contains(&name.as_str()),
        );
    }
    // The properties the seed leaves out, one level deep: set, never walked into.
    if let Some(shape) = shape {
        for name in shape.property_names() {
            if fields.contains_key(name) || (root && matches!(name, "apiVersion" | "kind" | "metadata")) {
                continue;
            }
            let field_shape = schemas.property(shape, name);
            let here = place.property(name);
            visit(schemas, field_shape, None, here, out, false, false);
        }
    }
}

fn visit(
    schemas: &Schemas,
    shape: Option<Shape<'_>>,
    value: Option<&Value>,
    place: Place,
    out: &mut Vec<Site>,
    is_item: bool,
    required: bool,
) {
    let value_type = shape
        .as_ref()
        .map(Shape::value_type)
        .filter(|t| *t != ValueType::Unknown)
        .or_else(|| value.map(type_of))
        .unwrap_or(ValueType::Unknown);
    let items = shape.and_then(|s| schemas.items(s));
    out.push(Site {
        pointer: place.pointer.clone(),
        pattern: place.pattern.clone(),
        type_field: place.type_field(),
        field: place.field.clone(),
        value: value.cloned(),
        value_type,
        enum_values: shape
            .as_ref()
            .map(|s| s.enum_values().into_iter().map(str::to_owned).collect())
            .unwrap_or_default(),
        merge_keys: shape
            .as_ref()
            .map(|s| s.merge_keys().into_iter().map(str::to_owned).collect())
            .unwrap_or_default(),
        is_set: shape.as_ref().is_some_and(Shape::is_set),
        format: shape.as_ref().and_then(Shape::format).map(str::to_owned),
        item_type: items
            .as_ref()
            .map(Shape::value_type)
            .or_else(|| value.and_then(|v| v.get(0)).map(type_of)),
        is_item,
        in_status: place.in_status,
        required,
    });
    let Some(value) = value else { return };
    match value {
        Value::Object(_) => {
            let inner = place.entering(shape.as_ref());
            walk_object(schemas, shape, value, &inner, out, false);
        }
        Value::Array(list) if !list.is_empty() => {
            visit(schemas, items, list.first(), place.item(0), out, true, false);
        }
        _ => {}
    }
}

/// What a JSON value is, when no schema says.
fn type_of(value: &Value) -> ValueType {
    match value {
        Value::Object(_) => ValueType::Object,
        Value::Array(_) => ValueType::Array,
        Value::String(_) => ValueType::String,
        Value::Number(n) if n.is_f64() => ValueType::Number,
        Value::Number(_) => ValueType::Integer,
        Value::Bool(_) => ValueType::Boolean,
        Value::Null => ValueType::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas() -> Schemas {
        let mut schemas = Schemas::default();
        schemas.insert(
            "io.k8s.api.core.v1.Pod",
            json!({"type": "object", "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Pod"}],
                   "properties": {"apiVersion": {"type": "string"}, "metadata": {"type": "object"},
                                  "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}]}}}),
        );
        schemas.insert(
            "io.k8s.api.core.v1.PodSpec",
            json!({"type": "object", "properties": {
                "containers": {"type": "array", "x-kubernetes-patch-merge-key": "name",
                               "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}]}},
                "nodeSelector": {"type": "object", "additionalProperties": {"type": "string"}},
                "hostNetwork": {"type": "boolean"},
            }}),
        );
        schemas.insert(
            "io.k8s.api.core.v1.Container",
            json!({"type": "object", "properties": {"name": {"type": "string"}, "image": {"type": "string"}}}),
        );
        schemas
    }

    #[test]
    fn a_seed_is_walked_with_its_schema() {
        let schemas = schemas();
        let root = schemas.root("v1", "Pod");
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                         "spec": {"containers": [{"name": "c", "image": "i"}], "nodeSelector": {"a": "b"}}});
        let found = sites(&schemas, root, &pod, "Pod");
        let patterns: Vec<(&str, &str, bool)> = found
            .iter()
            .map(|s| (s.pattern.as_str(), s.type_field.as_str(), s.value.is_some()))
            .collect();
        assert_eq!(
            patterns,
            [
                ("spec", "core.v1.Pod.spec", true),
                ("spec.containers", "core.v1.PodSpec.containers", true),
                ("spec.containers[*]", "core.v1.PodSpec.containers[*]", true),
                ("spec.containers[*].image", "core.v1.Container.image", true),
                ("spec.containers[*].name", "core.v1.Container.name", true),
                ("spec.nodeSelector", "core.v1.PodSpec.nodeSelector", true),
                ("spec.hostNetwork", "core.v1.PodSpec.hostNetwork", false),
            ]
        );
        let containers = &found[1];
        assert_eq!(containers.merge_keys, ["name"]);
        assert_eq!(containers.item_type, Some(ValueType::Object));
        assert_eq!(found[5].value_type, ValueType::Map);
        assert_eq!(found[6].value_type, ValueType::Boolean);
        assert_eq!(found[3].pointer, "/spec/containers/0/image");
    }

    #[test]
    fn without_a_schema_the_values_say_what_fields_are() {
        let found = sites(&Schemas::default(), None, &json!({"spec": {"n": 1, "f": 1.5}}), "Thing");
        let types: Vec<_> = found.iter().map(|s| (s.type_field.as_str(), s.value_type)).collect();
        assert_eq!(
            types,
            [
                ("Thing.spec", ValueType::Object),
                ("Thing.spec.f", ValueType::Number),
                ("Thing.spec.n", ValueType::Integer)
            ]
        );
    }
}
