//! Values as Go's `%#v` prints them, for messages that quote an internal Go value
//! (`field.Invalid` handed a struct): a struct literal field by field in its Go
//! declaration's order, slices and maps with their types, and a non-nil pointer inside
//! a struct as an address. Go prints the pointer's own address, different on each run,
//! so a fixed one stands in for it.

use serde_json::Value;

use crate::errors::{go_float, go_quote};

/// The address a set pointer prints as.
pub const ADDRESS: &str = "0xc000a1e000";

/// A Go struct literal being written: `pkg.Type{Field:value, ...}`.
pub struct GoStruct {
    out: String,
    empty: bool,
}

impl GoStruct {
    /// `type_name{`.
    #[must_use]
    pub fn new(type_name: &str) -> Self {
        Self {
            out: format!("{type_name}{{"),
            empty: true,
        }
    }

    /// One field, already printed.
    #[must_use]
    pub fn field(mut self, name: &str, printed: impl AsRef<str>) -> Self {
        if !self.empty {
            self.out.push_str(", ");
        }
        self.empty = false;
        self.out.push_str(name);
        self.out.push(':');
        self.out.push_str(printed.as_ref());
        self
    }

    /// The closed literal.
    #[must_use]
    pub fn end(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// A pointer inside a struct: `(*T)(nil)` or an address.
#[must_use]
pub fn pointer(type_name: &str, value: &Value) -> String {
    if value.is_null() {
        format!("(*{type_name})(nil)")
    } else {
        format!("(*{type_name})({ADDRESS})")
    }
}

/// A slice of `type_name` elements, each printed by `element`, or `[]T(nil)`.
pub fn slice(type_name: &str, value: &Value, element: impl Fn(&Value) -> String) -> String {
    let Some(items) = value.as_array() else {
        return format!("[]{type_name}(nil)");
    };
    let printed: Vec<String> = items.iter().map(element).collect();
    format!("[]{type_name}{{{}}}", printed.join(", "))
}

/// A map keyed by strings, printed as `type_name{"a":..., "b":...}` with its keys
/// sorted as `fmt` sorts them, or `type_name(nil)`.
fn map_of(type_name: &str, value: &Value, element: impl Fn(&Value) -> String) -> String {
    let Some(map) = value.as_object() else {
        return format!("{type_name}(nil)");
    };
    let printed: Vec<String> = map
        .iter()
        .map(|(key, value)| format!("{}:{}", go_quote(key), element(value)))
        .collect();
    format!("{type_name}{{{}}}", printed.join(", "))
}

/// An `interface{}` holding what `json.Unmarshal` made of a JSON value (an
/// `apiextensions.JSON`): its dynamic value's `%#v`.
fn any(value: &Value) -> String {
    match value {
        Value::Null => "interface {}(nil)".to_owned(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => go_float(number.as_f64().unwrap_or_default()),
        Value::String(text) => go_quote(text),
        Value::Array(_) => slice("interface {}", value, any),
        Value::Object(_) => map_of("map[string]interface {}", value, any),
    }
}

/// apiextensions' internal `JSONSchemaProps` (converted from a v1 schema), as
/// `field.Invalid` quotes a CRD's schema.
#[must_use]
pub fn schema_props(schema: &Value) -> String {
    const PROPS: &str = "apiextensions.JSONSchemaProps";
    let text = |key: &str| go_quote(schema[key].as_str().unwrap_or_default());
    let flag = |key: &str| (schema[key] == true).to_string();
    let props_slice = |key: &str| slice(PROPS, &schema[key], schema_props);
    let props_map = |key: &str| map_of(&format!("map[string]{PROPS}"), &schema[key], schema_props);
    GoStruct::new(PROPS)
        .field("ID", text("id"))
        .field("Schema", text("$schema"))
        .field("Ref", pointer("string", &schema["$ref"]))
        .field("Description", text("description"))
        .field("Type", text("type"))
        .field("Nullable", flag("nullable"))
        .field("Format", text("format"))
        .field("Title", text("title"))
        .field("Default", pointer("apiextensions.JSON", &schema["default"]))
        .field("Maximum", pointer("float64", &schema["maximum"]))
        .field("ExclusiveMaximum", flag("exclusiveMaximum"))
        .field("Minimum", pointer("float64", &schema["minimum"]))
        .field("ExclusiveMinimum", flag("exclusiveMinimum"))
        .field("MaxLength", pointer("int64", &schema["maxLength"]))
        .field("MinLength", pointer("int64", &schema["minLength"]))
        .field("Pattern", text("pattern"))
        .field("MaxItems", pointer("int64", &schema["maxItems"]))
        .field("MinItems", pointer("int64", &schema["minItems"]))
        .field("UniqueItems", flag("uniqueItems"))
        .field("MultipleOf", pointer("float64", &schema["multipleOf"]))
        .field("Enum", slice("apiextensions.JSON", &schema["enum"], any))
        .field("MaxProperties", pointer("int64", &schema["maxProperties"]))
        .field("MinProperties", pointer("int64", &schema["minProperties"]))
        .field("Required", strings(&schema["required"]))
        .field(
            "Items",
            pointer("apiextensions.JSONSchemaPropsOrArray", &schema["items"]),
        )
        .field("AllOf", props_slice("allOf"))
        .field("OneOf", props_slice("oneOf"))
        .field("AnyOf", props_slice("anyOf"))
        .field("Not", pointer(PROPS, &schema["not"]))
        .field("Properties", props_map("properties"))
        .field(
            "AdditionalProperties",
            pointer("apiextensions.JSONSchemaPropsOrBool", &schema["additionalProperties"]),
        )
        .field("PatternProperties", props_map("patternProperties"))
        .field(
            "Dependencies",
            map_of(
                "apiextensions.JSONSchemaDependencies",
                &schema["dependencies"],
                dependency,
            ),
        )
        .field(
            "AdditionalItems",
            pointer("apiextensions.JSONSchemaPropsOrBool", &schema["additionalItems"]),
        )
        .field(
            "Definitions",
            map_of(
                "apiextensions.JSONSchemaDefinitions",
                &schema["definitions"],
                schema_props,
            ),
        )
        .field(
            "ExternalDocs",
            pointer("apiextensions.ExternalDocumentation", &schema["externalDocs"]),
        )
        .field("Example", pointer("apiextensions.JSON", &schema["example"]))
        .field(
            "XPreserveUnknownFields",
            pointer("bool", &schema["x-kubernetes-preserve-unknown-fields"]),
        )
        .field("XEmbeddedResource", flag("x-kubernetes-embedded-resource"))
        .field("XIntOrString", flag("x-kubernetes-int-or-string"))
        .field("XListMapKeys", strings(&schema["x-kubernetes-list-map-keys"]))
        .field("XListType", pointer("string", &schema["x-kubernetes-list-type"]))
        .field("XMapType", pointer("string", &schema["x-kubernetes-map-type"]))
        .field("XValidations", validation_rules(&schema["x-kubernetes-validations"]))
        .end()
}

/// A `[]string`.
fn strings(value: &Value) -> String {
    slice("string", value, |v| go_quote(v.as_str().unwrap_or_default()))
}

/// One of `apiextensions.JSONSchemaDependencies`: a list of property names, or a
/// schema.
fn dependency(value: &Value) -> String {
    let (schema, names) = if value.is_array() {
        (&Value::Null, value)
    } else {
        (value, &Value::Null)
    };
    GoStruct::new("apiextensions.JSONSchemaPropsOrStringArray")
        .field("Schema", pointer("apiextensions.JSONSchemaProps", schema))
        .field("Property", strings(names))
        .end()
}

/// `apiextensions.ValidationRules`.
fn validation_rules(value: &Value) -> String {
    let Some(rules) = value.as_array() else {
        return "apiextensions.ValidationRules(nil)".to_owned();
    };
    let printed: Vec<String> = rules
        .iter()
        .map(|rule| {
            let text = |key: &str| go_quote(rule[key].as_str().unwrap_or_default());
            GoStruct::new("apiextensions.ValidationRule")
                .field("Rule", text("rule"))
                .field("Message", text("message"))
                .field("MessageExpression", text("messageExpression"))
                .field(
                    "Reason",
                    pointer("apiextensions.FieldValueErrorReason", &rule["reason"]),
                )
                .field("FieldPath", text("fieldPath"))
                .field("OptionalOldSelf", pointer("bool", &rule["optionalOldSelf"]))
                .end()
        })
        .collect();
    format!("apiextensions.ValidationRules{{{}}}", printed.join(", "))
}
