//! The types' schemas, from the reference server's `/openapi/v3` documents: what a
//! field is (string, integer, map, list with a merge key, quantity, enum...) and which
//! optional fields a seed leaves out, so mutations fit each field and reach the ones no
//! seed sets.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::target::Target;

/// The component schemas of every group version read so far, by name
/// (`io.k8s.api.core.v1.Pod`).
#[derive(Debug, Default)]
pub struct Schemas {
    components: BTreeMap<String, Value>,
    /// The `/openapi/v3` index: group version path to its hashed URL.
    index: Option<BTreeMap<String, String>>,
    loaded: BTreeSet<String>,
}

/// What kind of value a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// A JSON object with named properties.
    Object,
    /// A map: an object with `additionalProperties`.
    Map,
    /// A list.
    Array,
    /// A string.
    String,
    /// An integer.
    Integer,
    /// A floating point number.
    Number,
    /// A boolean.
    Boolean,
    /// `IntOrString`: a number or a string.
    IntOrString,
    /// A resource quantity (`100m`, `1Gi`).
    Quantity,
    /// Anything (no type said).
    Unknown,
}

/// A schema with its `$ref` followed: `own` is the schema as written where it is used
/// (a property, carrying list and patch metadata), `resolved` the definition it refers
/// to, `name` that definition's name.
#[derive(Debug, Clone, Copy)]
pub struct Shape<'a> {
    own: &'a Value,
    resolved: &'a Value,
    name: Option<&'a str>,
}

impl Schemas {
    /// Reads the reference server's schemas of `api_version` (once); false when it
    /// serves no `OpenAPI` v3 document for it.
    pub async fn load(&mut self, target: &Target, api_version: &str) -> bool {
        let key = if api_version.contains('/') {
            format!("apis/{api_version}")
        } else {
            format!("api/{api_version}")
        };
        if self.loaded.contains(&key) {
            return true;
        }
        if self.index.is_none() {
            let index = target.get_json("/openapi/v3").await;
            let paths = index
                .as_ref()
                .and_then(|index| index.get("paths"))
                .and_then(Value::as_object)
                .map(|paths| {
                    paths
                        .iter()
                        .filter_map(|(path, entry)| {
                            let url = entry.get("serverRelativeURL")?.as_str()?;
                            Some((path.clone(), url.to_owned()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            self.index = Some(paths);
        }
        let url = self
            .index
            .as_ref()
            .and_then(|index| index.get(&key).cloned())
            .unwrap_or_else(|| format!("/openapi/v3/{key}"));
        let Some(document) = target.get_json(&url).await else {
            return false;
        };
        if let Some(schemas) = document.pointer("/components/schemas").and_then(Value::as_object) {
            for (name, schema) in schemas {
                self.components.entry(name.clone()).or_insert_with(|| schema.clone());
            }
        }
        self.loaded.insert(key);
        true
    }

    /// Reads the schemas of `api_version` until `kind`'s is among them or `wait` has
    /// passed: a CRD's schema is published a moment after the CRD is established, and
    /// a run that generated its cases without it would not repeat the next time.
    pub async fn load_kind(&mut self, target: &Target, api_version: &str, kind: &str, wait: std::time::Duration) {
        let deadline = std::time::Instant::now() + wait;
        loop {
            self.load(target, api_version).await;
            let no_documents = self.index.as_ref().is_some_and(BTreeMap::is_empty);
            if self.root(api_version, kind).is_some() || no_documents || std::time::Instant::now() >= deadline {
                return;
            }
            // Read the index and the document again: both change when a CRD arrives.
            self.index = None;
            self.loaded.retain(|key| !key.ends_with(api_version));
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    }

    /// Adds one named schema (tests, and kinds whose documents were read elsewhere).
    #[cfg(test)]
    pub fn insert(&mut self, name: &str, schema: Value) {
        self.components.insert(name.to_owned(), schema);
    }

    /// The schema of `kind` in `api_version`, found by its
    /// `x-kubernetes-group-version-kind`.
    pub fn root(&self, api_version: &str, kind: &str) -> Option<Shape<'_>> {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        self.components.iter().find_map(|(name, schema)| {
            let gvks = schema.get("x-kubernetes-group-version-kind")?.as_array()?;
            gvks.iter()
                .any(|gvk| {
                    gvk.get("group").and_then(Value::as_str).unwrap_or("") == group
                        && gvk.get("version").and_then(Value::as_str) == Some(version)
                        && gvk.get("kind").and_then(Value::as_str) == Some(kind)
                })
                .then_some(Shape {
                    own: schema,
                    resolved: schema,
                    name: Some(name.as_str()),
                })
        })
    }

    /// `schema` with its reference followed (`$ref`, or `allOf` of one `$ref`).
    pub fn shape<'a>(&'a self, schema: &'a Value) -> Shape<'a> {
        let reference = schema.get("$ref").and_then(Value::as_str).or_else(|| {
            let all_of = schema.get("allOf")?.as_array()?;
            match all_of.as_slice() {
                [only] => only.get("$ref").and_then(Value::as_str),
                _ => None,
            }
        });
        let target = reference
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .and_then(|name| self.components.get_key_value(name));
        match target {
            Some((name, resolved)) => Shape {
                own: schema,
                resolved,
                name: Some(name.as_str()),
            },
            None => Shape {
                own: schema,
                resolved: schema,
                name: None,
            },
        }
    }

    /// The schema of property `field` of an object shape.
    pub fn property<'a>(&'a self, shape: Shape<'a>, field: &str) -> Option<Shape<'a>> {
        let schema = shape.resolved.get("properties")?.get(field)?;
        Some(self.shape(schema))
    }

    /// The item schema of a list shape.
    pub fn items<'a>(&'a self, shape: Shape<'a>) -> Option<Shape<'a>> {
        Some(self.shape(shape.resolved.get("items")?))
    }

    /// The value schema of a map shape.
    pub fn values<'a>(&'a self, shape: Shape<'a>) -> Option<Shape<'a>> {
        let additional = shape.resolved.get("additionalProperties")?;
        additional.is_object().then(|| self.shape(additional))
    }
}

impl<'a> Shape<'a> {
    /// What kind of value it describes.
    pub fn value_type(&self) -> ValueType {
        match self.name {
            Some("io.k8s.apimachinery.pkg.api.resource.Quantity") => return ValueType::Quantity,
            Some("io.k8s.apimachinery.pkg.util.intstr.IntOrString") => return ValueType::IntOrString,
            _ => {}
        }
        let said = |key: &str| self.resolved.get(key).or_else(|| self.own.get(key));
        if said("x-kubernetes-int-or-string").and_then(Value::as_bool) == Some(true)
            || said("format").and_then(Value::as_str) == Some("int-or-string")
        {
            return ValueType::IntOrString;
        }
        match said("type").and_then(Value::as_str) {
            Some("object") if self.resolved.get("properties").is_none() && said("additionalProperties").is_some() => {
                ValueType::Map
            }
            Some("object") => ValueType::Object,
            Some("array") => ValueType::Array,
            Some("string") => ValueType::String,
            Some("integer") => ValueType::Integer,
            Some("number") => ValueType::Number,
            Some("boolean") => ValueType::Boolean,
            _ if self.resolved.get("properties").is_some() => ValueType::Object,
            _ => ValueType::Unknown,
        }
    }

    /// The definition's short name (`core.v1.ContainerPort` for
    /// `io.k8s.api.core.v1.ContainerPort`, `meta.v1.ObjectMeta` for
    /// `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`), when the schema is a named
    /// definition.
    pub fn type_name(&self) -> Option<String> {
        let name = self.name?;
        let short = [
            "io.k8s.api.",
            "io.k8s.apimachinery.pkg.apis.",
            "io.k8s.apimachinery.pkg.",
        ]
        .iter()
        .find_map(|prefix| name.strip_prefix(prefix))
        .unwrap_or(name);
        Some(short.to_owned())
    }

    /// The properties an object shape declares, in name order.
    pub fn property_names(&self) -> Vec<&'a str> {
        let mut names: Vec<&str> = self
            .resolved
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().map(String::as_str).collect())
            .unwrap_or_default();
        names.sort_unstable();
        names
    }

    /// The properties the schema says are required.
    pub fn required(&self) -> Vec<&'a str> {
        self.resolved
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The values an enum allows.
    pub fn enum_values(&self) -> Vec<&'a str> {
        self.own
            .get("enum")
            .or_else(|| self.resolved.get("enum"))
            .and_then(Value::as_array)
            .map(|values| values.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The keys identifying a list's items: `x-kubernetes-list-map-keys`, else the
    /// strategic-merge key.
    pub fn merge_keys(&self) -> Vec<&'a str> {
        if let Some(keys) = self.own.get("x-kubernetes-list-map-keys").and_then(Value::as_array) {
            return keys.iter().filter_map(Value::as_str).collect();
        }
        self.own
            .get("x-kubernetes-patch-merge-key")
            .and_then(Value::as_str)
            .map(|key| vec![key])
            .unwrap_or_default()
    }

    /// Whether the list is a set of unique scalars (`x-kubernetes-list-type: set`).
    pub fn is_set(&self) -> bool {
        self.own.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("set")
    }

    /// The `format` (`int32`, `date-time`, `byte`...).
    pub fn format(&self) -> Option<&'a str> {
        self.own
            .get("format")
            .or_else(|| self.resolved.get("format"))
            .and_then(Value::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas() -> Schemas {
        let mut schemas = Schemas::default();
        schemas.insert(
            "io.k8s.api.core.v1.Container",
            json!({"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"},
                "ports": {"type": "array", "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
                          "x-kubernetes-patch-merge-key": "containerPort",
                          "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerPort"}]}},
                "resources": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"}},
            }}),
        );
        schemas.insert(
            "io.k8s.api.core.v1.ContainerPort",
            json!({"type": "object", "properties": {"protocol": {"type": "string", "enum": ["TCP", "UDP"]}}}),
        );
        schemas.insert(
            "io.k8s.api.core.v1.Pod",
            json!({"type": "object", "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Pod"}],
                   "properties": {"spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}]}}}),
        );
        schemas.insert("io.k8s.apimachinery.pkg.api.resource.Quantity", json!({"oneOf": []}));
        schemas
    }

    #[test]
    fn references_are_followed_and_list_metadata_kept() {
        let schemas = schemas();
        let pod = schemas.root("v1", "Pod").expect("the Pod schema");
        let container = schemas.property(pod, "spec").expect("spec");
        assert_eq!(container.type_name().as_deref(), Some("core.v1.Container"));
        assert_eq!(container.required(), vec!["name"]);
        let ports = schemas.property(container, "ports").expect("ports");
        assert_eq!(ports.value_type(), ValueType::Array);
        assert_eq!(ports.merge_keys(), vec!["containerPort", "protocol"]);
        let port = schemas.items(ports).expect("items");
        let protocol = schemas.property(port, "protocol").expect("protocol");
        assert_eq!(protocol.enum_values(), vec!["TCP", "UDP"]);
        let resources = schemas.property(container, "resources").expect("resources");
        assert_eq!(resources.value_type(), ValueType::Map);
        let quantity = schemas.values(resources).expect("values");
        assert_eq!(quantity.value_type(), ValueType::Quantity);
        assert!(schemas.root("apps/v1", "Pod").is_none());
    }
}
