//! Kubernetes' protobuf messages and what the Go types add to them: which message an
//! apiVersion and kind is, which fields Go's JSON leaves out when zero, and the few
//! fields whose JSON name is not their proto name.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use prost_reflect::{DescriptorPool, FieldDescriptor, MessageDescriptor};

use super::ProtobufError;
use crate::resources::go_facts::{GROUP_PACKAGES, INLINED, OMIT_ZERO, RENAMED};

/// The descriptors of every Kubernetes `generated.proto`, compiled by
/// `envtest/tools/protobuf-descriptors`.
const DESCRIPTORS: &[u8] = include_bytes!("kubernetes.binpb");

/// The proto package of `metav1`: its kinds (`Status`, `DeleteOptions`, `WatchEvent`,
/// ...) are registered in every group version, as `metav1.AddToGroupVersion` does.
pub(super) const META_V1: &str = "k8s.io.apimachinery.pkg.apis.meta.v1";

/// The messages whose JSON is not an object of their fields: `k8s.io/apimachinery` types
/// with their own `MarshalJSON`.
pub(super) mod special {
    pub const QUANTITY: &str = "k8s.io.apimachinery.pkg.api.resource.Quantity";
    pub const INT_OR_STRING: &str = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
    pub const TIME: &str = "k8s.io.apimachinery.pkg.apis.meta.v1.Time";
    pub const MICRO_TIME: &str = "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime";
    pub const DURATION: &str = "k8s.io.apimachinery.pkg.apis.meta.v1.Duration";
    pub const FIELDS_V1: &str = "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1";
    pub const RAW_EXTENSION: &str = "k8s.io.apimachinery.pkg.runtime.RawExtension";
    pub const UNKNOWN: &str = "k8s.io.apimachinery.pkg.runtime.Unknown";
    pub const WATCH_EVENT: &str = "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent";
}

/// The loaded descriptors and Go facts.
pub(super) struct Schema {
    pool: DescriptorPool,
    packages: HashMap<(&'static str, &'static str), &'static str>,
    omit_zero: HashSet<(&'static str, &'static str)>,
    /// (message, proto name) → JSON name.
    json_names: HashMap<(&'static str, &'static str), &'static str>,
    /// (message, JSON name) → proto name.
    proto_names: HashMap<(&'static str, &'static str), &'static str>,
    /// Message → its embedded-struct fields, whose JSON is merged into the message's.
    inlined: HashMap<&'static str, Vec<&'static str>>,
}

/// How a message's JSON is shaped.
pub(super) enum Shape {
    /// An object of its fields.
    Object,
    /// A string (`Quantity`).
    Quantity,
    /// A number or a string (`IntOrString`).
    IntOrString,
    /// An RFC 3339 timestamp in seconds (`Time`), or null when zero.
    Time,
    /// An RFC 3339 timestamp in microseconds (`MicroTime`), or null when zero.
    MicroTime,
    /// Go's duration text, like `1h0m0s` (`Duration`).
    Duration,
    /// JSON carried as bytes (`RawExtension`, `FieldsV1`, apiextensions' `JSON`).
    RawJson,
    /// A named Go slice (`Verbs`, `ExtraValue`): the list in its one field `items`.
    Items,
    /// apiextensions' `JSONSchemaPropsOrArray`: a schema, or a list of them.
    SchemaOrArray,
    /// apiextensions' `JSONSchemaPropsOrBool`: a schema, or a boolean.
    SchemaOrBool,
    /// apiextensions' `JSONSchemaPropsOrStringArray`: a schema, or a list of strings.
    SchemaOrStrings,
}

impl Schema {
    /// The schema, loaded on first use (the first protobuf request).
    pub fn get() -> Result<&'static Self, ProtobufError> {
        static SCHEMA: OnceLock<Result<Schema, String>> = OnceLock::new();
        SCHEMA
            .get_or_init(Self::load)
            .as_ref()
            .map_err(|e| ProtobufError::Descriptors(e.clone()))
    }

    fn load() -> Result<Self, String> {
        let pool = DescriptorPool::decode(DESCRIPTORS).map_err(|e| e.to_string())?;
        let packages = GROUP_PACKAGES.iter().map(|(g, v, p)| ((*g, *v), *p)).collect();
        let omit_zero = OMIT_ZERO
            .iter()
            .flat_map(|(message, fields)| fields.iter().map(move |f| (*message, *f)))
            .collect();
        let json_names = RENAMED.iter().map(|(m, p, j)| ((*m, *p), *j)).collect();
        let proto_names = RENAMED.iter().map(|(m, p, j)| ((*m, *j), *p)).collect();
        let mut inlined: HashMap<&'static str, Vec<&'static str>> = HashMap::new();
        for (message, field) in INLINED {
            inlined.entry(message).or_default().push(field);
        }
        Ok(Self {
            pool,
            packages,
            omit_zero,
            json_names,
            proto_names,
            inlined,
        })
    }

    /// A message by its full name (`k8s.io.api.core.v1.Pod`).
    pub fn message(&self, name: &str) -> Option<MessageDescriptor> {
        self.pool.get_message_by_name(name)
    }

    /// The message of `kind` at `api_version`, or of a `metav1` kind registered there.
    pub fn message_of(&self, api_version: &str, kind: &str) -> Result<MessageDescriptor, ProtobufError> {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        let unknown = || ProtobufError::UnknownKind {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
        };
        if kind.is_empty() || kind.contains('.') {
            return Err(unknown());
        }
        let own = self
            .packages
            .get(&(group, version))
            .and_then(|package| self.message(&format!("{package}.{kind}")));
        own.or_else(|| self.message(&format!("{META_V1}.{kind}")))
            .ok_or_else(unknown)
    }

    /// Whether the group version of a resource path has protobuf messages (custom
    /// resources have none); paths that are not resource paths say yes.
    pub fn serves_path(&self, path: &str) -> bool {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match segments.as_slice() {
            ["api", version, ..] => self.packages.contains_key(&("", *version)),
            ["apis", group, version, ..] => self.packages.contains_key(&(*group, *version)),
            _ => true,
        }
    }

    /// The JSON name of a field.
    pub fn json_name<'a>(&self, message: &MessageDescriptor, field: &'a FieldDescriptor) -> &'a str {
        self.json_names
            .get(&(message.full_name(), field.name()))
            .copied()
            .unwrap_or_else(|| field.name())
    }

    /// The field a JSON key names.
    pub fn field_for_json(&self, message: &MessageDescriptor, key: &str) -> Option<FieldDescriptor> {
        let name = self
            .proto_names
            .get(&(message.full_name(), key))
            .copied()
            .unwrap_or(key);
        message.get_field_by_name(name)
    }

    /// Whether a field is an embedded Go struct, whose fields JSON writes inline.
    pub fn is_inlined(&self, message: &MessageDescriptor, field: &FieldDescriptor) -> bool {
        self.inlined
            .get(message.full_name())
            .is_some_and(|fields| fields.contains(&field.name()))
    }

    /// The embedded-struct fields of a message.
    pub fn inlined_fields(&self, message: &MessageDescriptor) -> Vec<FieldDescriptor> {
        self.inlined
            .get(message.full_name())
            .into_iter()
            .flatten()
            .filter_map(|name| message.get_field_by_name(name))
            .collect()
    }

    /// Whether Go's JSON encoder leaves this field out when it holds its zero value.
    pub fn omits_zero(&self, message: &MessageDescriptor, field: &FieldDescriptor) -> bool {
        self.omit_zero.contains(&(message.full_name(), field.name()))
    }

    /// How `message` looks in JSON.
    pub fn shape(message: &MessageDescriptor) -> Shape {
        use special::{DURATION, FIELDS_V1, INT_OR_STRING, MICRO_TIME, QUANTITY, RAW_EXTENSION, TIME};
        match message.full_name() {
            QUANTITY => Shape::Quantity,
            INT_OR_STRING => Shape::IntOrString,
            TIME => Shape::Time,
            MICRO_TIME => Shape::MicroTime,
            DURATION => Shape::Duration,
            FIELDS_V1 | RAW_EXTENSION => Shape::RawJson,
            name if name.starts_with("k8s.io.apiextensions_apiserver.") => match message.name() {
                "JSON" => Shape::RawJson,
                "JSONSchemaPropsOrArray" => Shape::SchemaOrArray,
                "JSONSchemaPropsOrBool" => Shape::SchemaOrBool,
                "JSONSchemaPropsOrStringArray" => Shape::SchemaOrStrings,
                _ => Shape::Object,
            },
            _ if matches!(message.name(), "Verbs" | "ExtraValue") && message.fields().len() == 1 => Shape::Items,
            _ => Shape::Object,
        }
    }
}
