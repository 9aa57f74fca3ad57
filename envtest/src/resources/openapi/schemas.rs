//! The `components.schemas` of the `OpenAPI` v3 documents: built-in types' schemas
//! from k8s-openapi's `JsonSchema` impls (named as kube-apiserver names them,
//! `io.k8s.api.apps.v1.Deployment`), and each CRD version's own `openAPIV3Schema`
//! (named `<reversed group>.<version>.<Kind>`, with `metadata` pointing at
//! `ObjectMeta`, as `apiextensions-apiserver/pkg/controller/openapi/builder` builds it).
//! Each resource's schema carries `x-kubernetes-group-version-kind`, which is how
//! `kubectl explain` finds it. The same schemas tell which fields of a built-in
//! object are unknown, for `fieldValidation`.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use parking_lot::Mutex;
use schemars::SchemaGenerator;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::core::{Builtin, ResourceType};

/// Definitions by name, as in `components.schemas`.
pub(crate) type Definitions = Map<String, Value>;

/// Generated schemas, kept for the life of the process (built-in types never change).
type Cache<K, V> = LazyLock<Mutex<HashMap<K, Arc<V>>>>;

pub(super) const REF_PREFIX: &str = "#/components/schemas/";
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

fn generator() -> SchemaGenerator {
    SchemaGenerator::new(SchemaSettings::openapi3().with(|settings| settings.meta_schema = None))
}

/// The name a `$ref` schema refers to.
pub(super) fn referenced(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .or_else(|| {
            schema
                .get("allOf")
                .and_then(|all| all.get(0))
                .and_then(|first| first.get("$ref"))
        })
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix(REF_PREFIX))
}

/// `builtins`' schemas and every schema they use, each resource's tagged with its
/// group, version and kind.
fn generate(builtins: &[&Builtin]) -> Definitions {
    let mut generator = generator();
    let roots: Vec<(String, &Builtin)> = builtins
        .iter()
        .filter_map(|builtin| {
            let root = builtin.schema(&mut generator);
            referenced(root.as_value()).map(|name| (name.to_owned(), *builtin))
        })
        .collect();
    let mut definitions = generator.take_definitions(true);
    super::extensions::add(&mut definitions);
    for (name, builtin) in roots {
        if let Some(schema) = definitions.get_mut(&name) {
            schema["x-kubernetes-group-version-kind"] =
                json!([{"group": builtin.group, "version": builtin.version, "kind": builtin.kind}]);
        }
    }
    definitions
}

/// The schemas of the built-in resources of one group version, generated once.
pub(super) fn builtin_group_version(group: &str, version: &str) -> Arc<Definitions> {
    static CACHE: Cache<(String, String), Definitions> = LazyLock::new(Mutex::default);
    let key = (group.to_owned(), version.to_owned());
    if let Some(found) = CACHE.lock().get(&key) {
        return found.clone();
    }
    let builtins: Vec<&Builtin> = crate::resources::catalogue::builtins()
        .iter()
        .filter(|b| b.group == group && b.version == version)
        .collect();
    let definitions = Arc::new(generate(&builtins));
    CACHE.lock().insert(key, definitions.clone());
    definitions
}

/// `ObjectMeta` and the schemas it uses, which every CRD's schema refers to.
fn object_meta() -> &'static Definitions {
    static META: LazyLock<Definitions> = LazyLock::new(|| {
        let mut generator = generator();
        generator.subschema_for::<k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>();
        let mut definitions = generator.take_definitions(true);
        super::extensions::add(&mut definitions);
        definitions
    });
    &META
}

/// `ObjectMeta` and the schemas it uses, with their extensions: the metadata of every
/// custom resource (and of its embedded resources) is typed by them.
pub(crate) fn object_meta_definitions() -> &'static Definitions {
    object_meta()
}

/// A custom resource's `metadata` as the custom resource codec leaves it: decoded as
/// an `ObjectMeta` and encoded again, so the fields `ObjectMeta` lacks are dropped.
pub(crate) fn prune_object_meta(metadata: &mut Value) {
    let definitions = object_meta();
    if let Some(schema) = definitions.get(OBJECT_META) {
        prune(definitions, schema, metadata);
    }
}

/// The fields of a custom resource's `metadata` that `ObjectMeta` lacks
/// (`metadata.dfzUnknown`), as the custom resource codec's strict decoding of its
/// metadata names them: before the fields its schema prunes.
pub(crate) fn unknown_object_meta_fields(metadata: &Value) -> Vec<String> {
    let definitions = object_meta();
    let mut found = Vec::new();
    if let Some(schema) = definitions.get(OBJECT_META) {
        walk(definitions, schema, metadata, "metadata", &mut found);
    }
    found
}

/// `buildSelectableFields`: a custom resource version's `selectableFields` as its
/// definitions (and its list's) carry them, each path without its leading dot; an
/// empty list when it declares none.
pub(crate) fn selectable_fields(resource: &ResourceType) -> Value {
    resource
        .selectable_fields
        .iter()
        .map(|path| json!({"fieldPath": path.strip_prefix('.').unwrap_or(path)}))
        .collect()
}

/// Adds the schema of a custom resource's version (and `ObjectMeta`'s) to `definitions`.
pub(super) fn add_custom(resource: &ResourceType, definitions: &mut Definitions) {
    let Some((name, schema)) = custom_definition(resource) else {
        return;
    };
    definitions.insert(name, schema);
    for (name, meta) in object_meta() {
        definitions.entry(name.clone()).or_insert_with(|| meta.clone());
    }
}

/// A custom resource version's schema as apiextensions-apiserver's `OpenAPI` builder
/// publishes it (`buildKubeNative`), and its definition name: the CRD's schema with
/// `apiVersion`, `kind` and a `metadata` referring to `ObjectMeta`, at its root and in
/// every embedded resource. Refers to [`object_meta_definitions`].
pub(crate) fn custom_definition(resource: &ResourceType) -> Option<(String, Value)> {
    let mut schema = resource.schema.as_deref()?.clone();
    if !schema.is_object() {
        return None;
    }
    if !schema["properties"].is_object() {
        schema["properties"] = json!({});
    }
    add_type_meta(&mut schema, TYPE_META_DESCRIPTIONS);
    add_embedded_properties(&mut schema);
    schema["type"] = json!("object");
    schema["x-kubernetes-group-version-kind"] =
        json!([{"group": resource.group, "version": resource.version, "kind": resource.kind}]);
    schema["x-kubernetes-selectable-fields"] = selectable_fields(resource);
    let reversed: Vec<&str> = resource.group.split('.').rev().collect();
    let name = format!("{}.{}.{}", reversed.join("."), resource.version, resource.kind);
    Some((name, schema))
}

/// The descriptions of `apiVersion`, `kind` and `metadata`: the root's, and an embedded
/// resource's (`addEmbeddedProperties`).
type Descriptions = [&'static str; 3];

const TYPE_META_DESCRIPTIONS: Descriptions = [
    "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
];

const EMBEDDED_DESCRIPTIONS: Descriptions = [
    "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
];

fn add_type_meta(schema: &mut Value, [api_version, kind, metadata]: Descriptions) {
    let properties = &mut schema["properties"];
    properties["apiVersion"] = json!({"type": "string", "description": api_version});
    properties["kind"] = json!({"type": "string", "description": kind});
    properties["metadata"] =
        json!({"allOf": [{"$ref": format!("{REF_PREFIX}{OBJECT_META}")}], "description": metadata});
}

/// `addEmbeddedProperties`: an `x-kubernetes-embedded-resource` object has `apiVersion`,
/// `kind` and `metadata` like a resource of its own.
fn add_embedded_properties(schema: &mut Value) {
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        properties.values_mut().for_each(add_embedded_properties);
    }
    for nested in ["items", "additionalProperties"] {
        if let Some(child) = schema.get_mut(nested).filter(|child| child.is_object()) {
            add_embedded_properties(child);
        }
    }
    if schema["x-kubernetes-embedded-resource"] == true {
        if !schema["properties"].is_object() {
            schema["properties"] = json!({});
        }
        add_type_meta(schema, EMBEDDED_DESCRIPTIONS);
    }
}

/// One built-in type's schema and the schemas it uses, with their extensions, generated
/// once per type: its root definition's name and the definitions.
pub(crate) fn builtin_type(builtin: &'static Builtin) -> Arc<(String, Definitions)> {
    static CACHE: Cache<usize, (String, Definitions)> = LazyLock::new(Mutex::default);
    let key = std::ptr::from_ref(builtin) as usize;
    if let Some(found) = CACHE.lock().get(&key) {
        return found.clone();
    }
    let mut generator = generator();
    let root = builtin.schema(&mut generator);
    let name = referenced(root.as_value()).unwrap_or_default().to_owned();
    let mut definitions = generator.take_definitions(true);
    super::extensions::add(&mut definitions);
    let found = Arc::new((name, definitions));
    CACHE.lock().insert(key, found.clone());
    found
}

/// The fields of a built-in object that its type does not have (`spec.replica`,
/// `spec.template.spec.containers[0].imagePullPolice`), as kube-apiserver's strict
/// decoding names them.
pub(crate) fn unknown_fields(builtin: &'static Builtin, object: &Value) -> Vec<String> {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    let mut found = Vec::new();
    if let Some(schema) = definitions.get(root) {
        walk(definitions, schema, object, "", &mut found);
    }
    found
}

/// Drops the fields of a built-in object that its type does not have, as decoding into
/// the Go type drops them in kube-apiserver: they are warned about (or refused) by
/// `fieldValidation`, never stored.
pub(crate) fn prune_unknown_fields(builtin: &'static Builtin, object: &mut Value) {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    if let Some(schema) = definitions.get(root) {
        prune(definitions, schema, object);
    }
}

/// A schema with its `$ref` followed, and the name of the definition it refers to;
/// None where the walkers below stop: an unknown reference, or a value its schema
/// leaves free (`x-kubernetes-preserve-unknown-fields`, an embedded resource).
pub(super) fn resolve<'d>(definitions: &'d Definitions, schema: &'d Value) -> Option<(Option<&'d str>, &'d Value)> {
    let (name, schema) = match referenced(schema) {
        Some(name) => (Some(name), definitions.get(name)?),
        None => (None, schema),
    };
    let free =
        schema["x-kubernetes-preserve-unknown-fields"] == true || schema["x-kubernetes-embedded-resource"] == true;
    (!free).then_some((name, schema))
}

/// A visit of [`visit_typed`]: the definition's name, its schema and the object's fields.
pub(crate) type TypedVisit<'v> = dyn FnMut(&str, &Value, &mut Map<String, Value>) + 'v;

/// Visits every object within a built-in object whose schema is a named definition,
/// with that definition's name (`io.k8s.api.apps.v1.DeploymentSpec`) and schema,
/// outermost first: fields the visit adds are visited in turn.
pub(crate) fn visit_typed(builtin: &'static Builtin, object: &mut Value, visit: &mut TypedVisit<'_>) {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    if let Some(schema) = definitions.get(root) {
        visit_with(definitions, Some(root), schema, object, visit);
    }
}

fn visit_with(
    definitions: &Definitions,
    name: Option<&str>,
    schema: &Value,
    value: &mut Value,
    visit: &mut TypedVisit<'_>,
) {
    let Some((reference, schema)) = resolve(definitions, schema) else {
        return;
    };
    let name = reference.or(name);
    match value {
        Value::Object(fields) => {
            if let Some(name) = name {
                visit(name, schema, fields);
            }
            let properties = schema["properties"].as_object();
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (key, child) in fields.iter_mut() {
                if let Some(child_schema) = properties.and_then(|p| p.get(key)).or(additional) {
                    visit_with(definitions, None, child_schema, child, visit);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    visit_with(definitions, None, item_schema, item, visit);
                }
            }
        }
        _ => {}
    }
}

/// Calls `visit` with each field, map value or list item of `value` that `schema` (a
/// resolved schema) types, and that child's schema.
fn for_each_child(schema: &Value, value: &mut Value, visit: &mut dyn FnMut(&Value, &mut Value)) {
    match value {
        Value::Object(fields) => {
            let properties = schema["properties"].as_object();
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (key, child) in fields.iter_mut() {
                if let Some(child_schema) = properties.and_then(|p| p.get(key)).or(additional) {
                    visit(child_schema, child);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items.iter_mut() {
                    visit(item_schema, item);
                }
            }
        }
        _ => {}
    }
}

/// Whether a resolved schema describes an object whose fields nothing declares (its
/// bytes are kept as they came).
fn opaque_object(schema: &Value) -> bool {
    !schema["properties"].is_object() && !schema.get("additionalProperties").is_some_and(Value::is_object)
}

/// What Go's decoder makes of a built-in object's body before anything reads it, in
/// one walk: null fields are removed, as decoding into the Go type leaves them at their
/// zero values, and a null item of a list or value of a map becomes the zero value of
/// its type, as Go's decoder stores one there (`command: [null]` is `[""]`,
/// `containers: [null]` a container with no fields); a `[]byte` field (`format: byte`)
/// is written as Go writes the bytes it read (its decoder skips line breaks and takes
/// unused bits that are set; its encoder writes neither; a string that is not base64
/// is left for the type check to refuse). Opaque values (a `RawExtension`, a CRD's
/// JSON) keep theirs, as Go keeps their bytes.
pub(crate) fn read_as_go(builtin: &'static Builtin, object: &mut Value) {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    if let Some(schema) = definitions.get(root) {
        read_as_go_with(definitions, schema, object);
    }
}

fn read_as_go_with(definitions: &Definitions, schema: &Value, value: &mut Value) {
    let Some((_, schema)) = resolve(definitions, schema) else {
        return;
    };
    match value {
        Value::Object(_) if opaque_object(schema) => return,
        Value::Object(fields) => match schema.get("additionalProperties").filter(|a| a.is_object()) {
            Some(element) => {
                for entry in fields.values_mut().filter(|entry| entry.is_null()) {
                    *entry = go_zero(definitions, element);
                }
            }
            None => fields.retain(|_, field| !field.is_null()),
        },
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items.iter_mut().filter(|item| item.is_null()) {
                    *item = go_zero(definitions, item_schema);
                }
            }
        }
        Value::String(text) if schema["format"] == "byte" => {
            use base64::Engine;
            if let Ok(bytes) = crate::core::go_base64(text.as_bytes()) {
                let canonical = base64::engine::general_purpose::STANDARD.encode(bytes);
                if canonical != *text {
                    *text = canonical;
                }
            }
            return;
        }
        _ => return,
    }
    for_each_child(schema, value, &mut |child_schema, child| {
        read_as_go_with(definitions, child_schema, child);
    });
}

/// The JSON of the zero value of `schema`'s Go type, as a null decodes into a list item
/// or map value: "" for a string (a quantity's is "0"), 0, false, an empty struct; a
/// type whose zero Go writes as null (a pointer, slice, map, time) stays null.
fn go_zero(definitions: &Definitions, schema: &Value) -> Value {
    let Some((name, schema)) = resolve(definitions, schema) else {
        return Value::Null;
    };
    let named = |suffix: &str| name.is_some_and(|name| name.ends_with(suffix));
    if named(".api.resource.Quantity") {
        return Value::String("0".to_owned());
    }
    if named(".util.intstr.IntOrString") {
        return Value::from(0);
    }
    if named(".apis.meta.v1.Time") || named(".apis.meta.v1.MicroTime") {
        return Value::Null;
    }
    match schema["type"].as_str() {
        Some("string") => Value::String(String::new()),
        Some("integer" | "number") => Value::from(0),
        Some("boolean") => Value::Bool(false),
        _ if schema["properties"].is_object() => Value::Object(serde_json::Map::new()),
        _ => Value::Null,
    }
}

/// An applied object's integers as the unstructured converter sets them on the Go
/// type: a whole float is an integer, and an integer wider than an `int32` field wraps
/// as reflect's `SetInt` truncates it (kube validates what that leaves).
pub(crate) fn convert_integers(builtin: &'static Builtin, object: &mut Value) {
    let schema = builtin_type(builtin);
    let (root, definitions) = schema.as_ref();
    if let Some(schema) = definitions.get(root) {
        convert_integers_with(definitions, schema, object);
    }
}

fn convert_integers_with(definitions: &Definitions, schema: &Value, value: &mut Value) {
    let Some((_, schema)) = resolve(definitions, schema) else {
        return;
    };
    if let Value::Number(number) = value
        && schema["type"] == "integer"
    {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "Go's conversion of a whole float64 to int64"
        )]
        let whole = number
            .as_i64()
            .or_else(|| number.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64));
        if let Some(whole) = whole {
            #[expect(clippy::cast_possible_truncation, reason = "reflect's SetInt on an int32 wraps")]
            let converted = if schema["format"] == "int32" {
                i64::from(whole as i32)
            } else {
                whole
            };
            *value = Value::from(converted);
        }
        return;
    }
    for_each_child(schema, value, &mut |child_schema, child| {
        convert_integers_with(definitions, child_schema, child);
    });
}

fn prune(definitions: &Definitions, schema: &Value, value: &mut Value) {
    let Some((_, schema)) = resolve(definitions, schema) else {
        return;
    };
    if let Value::Object(fields) = value {
        if opaque_object(schema) {
            return;
        }
        let properties = schema["properties"].as_object();
        let additional = schema.get("additionalProperties").is_some_and(Value::is_object);
        fields.retain(|key, _| additional || properties.is_some_and(|p| p.contains_key(key)));
    }
    for_each_child(schema, value, &mut |child_schema, child| {
        prune(definitions, child_schema, child);
    });
}

fn walk(definitions: &Definitions, schema: &Value, value: &Value, path: &str, found: &mut Vec<String>) {
    let Some((_, schema)) = resolve(definitions, schema) else {
        return;
    };
    match value {
        Value::Object(fields) => {
            let properties = schema["properties"].as_object();
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            if properties.is_none() && additional.is_none() {
                return; // an opaque object (RawExtension, JSON): anything goes
            }
            for (key, child) in fields {
                let child_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                match properties.and_then(|p| p.get(key)).or(additional) {
                    Some(child_schema) => walk(definitions, child_schema, child, &child_path, found),
                    None => found.push(child_path),
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (index, item) in items.iter().enumerate() {
                    walk(definitions, item_schema, item, &format!("{path}[{index}]"), found);
                }
            }
        }
        _ => {}
    }
}
