//! A CRD's own schema, checked when the CRD is written, as apiextensions-apiserver's
//! `ValidateCustomResourceDefinitionOpenAPISchema` does
//! (`pkg/apis/apiextensions/validation/validation.go`, with the structural checks of
//! `pkg/apiserver/schema/validation.go`): types where a structural schema needs them,
//! patterns that compile, no `uniqueItems`, coherent list types, and
//! `x-kubernetes-validations` whose rules compile, whose messages, reasons and field
//! paths are valid, and whose estimated cost fits kube-apiserver's budgets.

use serde_json::Value;

use crate::cel::{self, RULE_COST_LIMIT, Rule, SCHEMA_COST_LIMIT};
use crate::errors::{BadValue, FieldError, child, go_json, subscript};
use crate::structural::{self, Found};

/// The reasons a rule may give (`supportedValidationReason`, sorted).
const REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// The violations of the schemas in a CRD. When every version has the same schema,
/// the apiextensions server checks it once, as `spec.validation` (its internal
/// version hoists identical per-version fields), else each as
/// `spec.versions[i].schema`.
pub(crate) fn validate(crd: &Value) -> Vec<FieldError> {
    let versions: Vec<&Value> = crd["spec"]["versions"].as_array().into_iter().flatten().collect();
    let identical = versions.windows(2).all(|pair| pair[0]["schema"] == pair[1]["schema"]);
    let schemas: Vec<(String, &Value)> = if identical {
        versions
            .first()
            .and_then(|v| v["schema"].get("openAPIV3Schema"))
            .map(|schema| ("spec.validation.openAPIV3Schema".to_owned(), schema))
            .into_iter()
            .collect()
    } else {
        versions
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let schema = v["schema"].get("openAPIV3Schema")?;
                Some((format!("spec.versions[{i}].schema.openAPIV3Schema"), schema))
            })
            .collect()
    };
    let mut errors = Vec::new();
    for (path, schema) in schemas {
        let mut walk = Walk {
            errors: Vec::new(),
            structural: Vec::new(),
            root_property: None,
            cel: Vec::new(),
            total_cost: 0,
        };
        if status_enabled(crd, &path) {
            walk.errors.extend(status_root(schema, &path));
        }
        if schema["nullable"] == true {
            walk.errors.push(FieldError::forbidden(
                child(&path, "nullable"),
                "nullable cannot be true at the root",
            ));
        }
        walk.node(schema, &path, Place::Root, Some(1), None);
        // A schema `NewStructural` cannot build is neither checked as structural, nor
        // are its defaults or rules; otherwise the structural errors come first (kube
        // sorts them), and the defaults and rules are checked only without them.
        let buildable = structural::buildable(schema);
        let mut structural = if buildable { walk.structural } else { Vec::new() };
        structural.sort_by_key(|e| format!("{}: {}", e.field, e.body()));
        let defaults = if buildable && structural.is_empty() {
            crate::default_values::validate(schema, &path)
        } else {
            Vec::new()
        };
        let rules_checked = buildable && structural.is_empty() && defaults.is_empty();
        errors.extend(structural);
        errors.extend(defaults);
        errors.extend(walk.errors);
        if rules_checked {
            errors.extend(walk.cel);
            if walk.total_cost > SCHEMA_COST_LIMIT {
                let message = cost_message(
                    "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                    walk.total_cost,
                    SCHEMA_COST_LIMIT,
                );
                errors.push(FieldError::forbidden(path.clone(), message));
            }
        }
    }
    errors
}

/// The fields a root schema may set when the status subresource is enabled
/// (`allowedFieldsAtRootSchema`), by JSON name: those that keep their meaning once
/// `properties.status` is extracted as the status's own schema.
const ALLOWED_AT_ROOT: [&str; 22] = [
    "description",
    "type",
    "format",
    "title",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "required",
    "items",
    "properties",
    "externalDocs",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-validations",
];

/// `JSONSchemaProps`' fields in their Go order, by JSON name: the order the root check
/// meets them in.
const SCHEMA_FIELDS: [&str; 44] = [
    "id",
    "$schema",
    "$ref",
    "description",
    "type",
    "nullable",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "patternProperties",
    "dependencies",
    "additionalItems",
    "definitions",
    "externalDocs",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

/// Whether the schema at `path` belongs to a version serving `/status`: for the one
/// schema all versions share (`spec.validation`), any version that does.
fn status_enabled(crd: &Value, path: &str) -> bool {
    let versions = crd["spec"]["versions"].as_array().into_iter().flatten();
    let serves_status = |version: &Value| version["subresources"].get("status").is_some_and(|s| !s.is_null());
    match path
        .strip_prefix("spec.versions[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|index| index.parse::<usize>().ok())
    {
        Some(index) => versions.clone().nth(index).is_some_and(serves_status),
        None => versions.clone().any(serves_status),
    }
}

/// `validateCustomResourceDefinitionValidation`'s check of a root schema whose object
/// serves `/status`: its type must be `object`, and the first set field (in Go's field
/// order, a Go zero value counting as unset) outside [`ALLOWED_AT_ROOT`] is refused,
/// quoting the whole schema as Go prints it.
fn status_root(schema: &Value, path: &str) -> Option<FieldError> {
    for field in SCHEMA_FIELDS {
        let value = &schema[field];
        let unset = match value {
            Value::Null => true,
            Value::Bool(flag) => !flag,
            Value::String(text) => text.is_empty(),
            _ => false,
        };
        if unset {
            continue;
        }
        if field == "type" {
            if value != "object" {
                return Some(FieldError::invalid(
                    child(path, "type"),
                    BadValue::from(value),
                    "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
                ));
            }
            continue;
        }
        if !ALLOWED_AT_ROOT.contains(&field) {
            return Some(FieldError::invalid(
                path.to_owned(),
                BadValue::Raw(crate::go_syntax::schema_props(schema)),
                "only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled",
            ));
        }
    }
    None
}

/// Where a schema node sits, which decides what it must declare.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Root,
    Property,
    Items,
    Additional,
    /// Inside allOf, anyOf, oneOf or not: no type, and rules are not compiled.
    Combinator,
    /// The two branches of `anyOf` that spell `x-kubernetes-int-or-string` (each with a
    /// type, which a combinator may otherwise not have).
    IntOrString,
}

impl Place {
    fn nested(self) -> bool {
        matches!(self, Self::Combinator | Self::IntOrString)
    }
}

/// `anyOf: [{type: integer}, {type: string}]`, which structural schemas allow beside
/// `x-kubernetes-int-or-string`.
fn int_or_string_branches(any_of: &Value) -> bool {
    *any_of == serde_json::json!([{"type": "integer"}, {"type": "string"}])
}

struct Walk {
    errors: Vec<FieldError>,
    /// `ValidateStructural`'s errors, which hold back the checks of defaults.
    structural: Vec<FieldError>,
    /// The top-level `metadata`, `apiVersion` or `kind` being walked, if any.
    root_property: Option<String>,
    /// The errors of compiling the rules (`CELErrors`): kube-apiserver compiles them
    /// only for a schema it could build, structural, with valid defaults.
    cel: Vec<FieldError>,
    total_cost: u64,
}

impl Walk {
    /// Checks `schema` at `path`. `cardinality` is how many times its rules may run in
    /// one object (None inside combinators, where rules are not compiled);
    /// `uncorrelatable` names the list above whose items `oldSelf` cannot reach.
    fn node(
        &mut self,
        schema: &Value,
        path: &str,
        place: Place,
        cardinality: Option<u64>,
        uncorrelatable: Option<&str>,
    ) {
        let before = self.errors.len() + self.structural.len();
        self.structure(schema, path, place);
        let mut found = Found::default();
        match place {
            Place::Combinator => structural::check_nested(schema, path, &mut found),
            Place::IntOrString => {}
            _ => structural::check(
                schema,
                path,
                place == Place::Root,
                self.root_property.as_deref(),
                &mut found,
            ),
        }
        self.structural.extend(found.structural);
        self.errors.extend(found.other);
        // Inside a combinator, properties and items carry value constraints only.
        let nested = |own: Place| if place.nested() { Place::Combinator } else { own };
        if let Some(properties) = schema["properties"].as_object() {
            for (name, property) in properties {
                let property_path = subscript(&child(path, "properties"), name);
                let resource_field = matches!(name.as_str(), "metadata" | "apiVersion" | "kind");
                let outer = self.root_property.clone();
                if place == Place::Root && resource_field {
                    self.root_property = Some(name.clone());
                }
                self.node(
                    property,
                    &property_path,
                    nested(Place::Property),
                    cardinality,
                    uncorrelatable,
                );
                self.root_property = outer;
            }
        }
        if let Some(items) = schema.get("items").filter(|s| s.is_object()) {
            let items_path = child(path, "items");
            let cardinality = cardinality.map(|c| c.saturating_mul(cel::cardinality_of_items(schema)));
            let correlatable = schema["x-kubernetes-list-type"] == "map";
            let uncorrelatable = if correlatable {
                uncorrelatable
            } else {
                Some(uncorrelatable.unwrap_or(path))
            };
            self.node(items, &items_path, nested(Place::Items), cardinality, uncorrelatable);
        }
        if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
            let cardinality = cardinality.map(|c| c.saturating_mul(cel::cardinality_of_values(schema)));
            let additional_path = child(path, "additionalProperties");
            self.node(
                additional,
                &additional_path,
                nested(Place::Additional),
                cardinality,
                uncorrelatable,
            );
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            let own = if keyword == "anyOf" && int_or_string_branches(&schema[keyword]) {
                Place::IntOrString
            } else {
                Place::Combinator
            };
            for (index, part) in schema[keyword].as_array().into_iter().flatten().enumerate() {
                let part_path = subscript(&child(path, keyword), index);
                self.node(part, &part_path, own, None, uncorrelatable);
            }
        }
        if let Some(not) = schema.get("not").filter(|s| s.is_object()) {
            self.node(not, &child(path, "not"), Place::Combinator, None, uncorrelatable);
        }
        let schema_errors = self.errors.len() + self.structural.len() > before;
        self.rules(schema, path, place, cardinality, uncorrelatable, schema_errors);
    }

    /// The structural checks of one node.
    fn structure(&mut self, schema: &Value, path: &str, place: Place) {
        let schema_type = schema["type"].as_str();
        // An embedded resource without a type has its own error (`structural.rs`).
        let untyped_ok = schema["x-kubernetes-int-or-string"] == true
            || schema["x-kubernetes-preserve-unknown-fields"] == true
            || schema["x-kubernetes-embedded-resource"] == true;
        match (place, schema_type) {
            (Place::Root, None) => {
                self.structural.push(FieldError::required(
                    child(path, "type"),
                    "must not be empty at the root",
                ));
            }
            (Place::Root, Some(other)) if other != "object" => {
                self.structural.push(FieldError::invalid(
                    child(path, "type"),
                    other.into(),
                    "must be object at the root",
                ));
            }
            (Place::Items, None) if !untyped_ok => {
                let detail = "must not be empty for specified array items";
                self.structural.push(FieldError::required(child(path, "type"), detail));
            }
            (Place::Property | Place::Additional, None) if !untyped_ok => {
                let detail = "must not be empty for specified object fields";
                self.structural.push(FieldError::required(child(path, "type"), detail));
            }
            _ => {}
        }
        if schema["uniqueItems"] == true {
            self.errors.push(FieldError::forbidden(
                child(path, "uniqueItems"),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ));
        }
        if let Some(pattern) = schema["pattern"].as_str()
            && let Err(error) = crate::keywords::pattern(pattern)
        {
            let detail = format!(
                "must be a valid regular expression, but isn't: {}",
                error.lines().last().unwrap_or(&error)
            );
            self.structural
                .push(FieldError::invalid(child(path, "pattern"), pattern.into(), detail));
        }
        self.list_type(schema, path);
    }

    fn list_type(&mut self, schema: &Value, path: &str) {
        let list_type = schema["x-kubernetes-list-type"].as_str();
        let keys = schema["x-kubernetes-list-map-keys"]
            .as_array()
            .filter(|k| !k.is_empty());
        if let Some(list_type) = list_type {
            if !matches!(list_type, "atomic" | "set" | "map") {
                let supported = ["atomic".to_owned(), "set".to_owned(), "map".to_owned()];
                let field = child(path, "x-kubernetes-list-type");
                self.errors
                    .push(FieldError::not_supported(field, list_type.into(), &supported));
            }
            if schema["type"] != "array" {
                let field = child(path, "type");
                self.errors.push(match schema["type"].as_str() {
                    None => FieldError::required(field, "must be array if x-kubernetes-list-type is specified"),
                    Some(other) => FieldError::invalid(
                        field,
                        other.into(),
                        "must be array if x-kubernetes-list-type is specified",
                    ),
                });
            }
            if list_type == "map" && keys.is_none() {
                let field = child(path, "x-kubernetes-list-map-keys");
                self.errors.push(FieldError::required(
                    field,
                    "must not be empty if x-kubernetes-list-type is map",
                ));
            }
        }
        if let Some(keys) = keys {
            let field = child(path, "x-kubernetes-list-type");
            match list_type {
                None => self.errors.push(FieldError::required(
                    field,
                    "must be map if x-kubernetes-list-map-keys is non-empty",
                )),
                Some("map") => {
                    let properties = &schema["items"]["properties"];
                    let all_named = keys
                        .iter()
                        .all(|k| k.as_str().is_some_and(|k| properties.get(k).is_some()));
                    if !all_named {
                        let field = child(path, "x-kubernetes-list-map-keys");
                        let value = BadValue::Json(Value::Array(keys.clone()));
                        self.errors.push(FieldError::invalid(
                            field,
                            value,
                            "entries must all be names of item properties",
                        ));
                    }
                }
                Some(other) => self.errors.push(FieldError::invalid(
                    field,
                    other.into(),
                    "must be map if x-kubernetes-list-map-keys is non-empty",
                )),
            }
        }
    }

    /// The checks of one rule's own fields (`validation.go`: rule, message,
    /// messageExpression, reason, fieldPath).
    fn rule_fields(&mut self, schema: &Value, rule: &Rule<'_>, at: &dyn Fn(&str) -> String) {
        let trimmed_message = rule.message.trim();
        if rule.expression.trim().is_empty() {
            self.errors
                .push(FieldError::required(at("rule"), "rule is not specified"));
        } else if !rule.message.is_empty() && trimmed_message.is_empty() {
            let detail = "must be non-empty if specified";
            self.errors
                .push(FieldError::invalid(at("message"), rule.message.into(), detail));
        } else if has_newlines(trimmed_message) {
            let detail = "must not contain line breaks";
            self.errors
                .push(FieldError::invalid(at("message"), rule.message.into(), detail));
        } else if has_newlines(rule.expression.trim()) && trimmed_message.is_empty() {
            let detail = "message must be specified if rule contains line breaks";
            self.errors.push(FieldError::required(at("message"), detail));
        }
        if !rule.message_expression.is_empty() && rule.message_expression.trim().is_empty() {
            let detail = "messageExpression must be non-empty if specified";
            self.errors.push(FieldError::required(at("messageExpression"), detail));
        }
        if let Some(reason) = rule.reason
            && !REASONS.contains(&reason)
        {
            let supported: Vec<String> = REASONS.iter().map(|r| (*r).to_owned()).collect();
            self.errors
                .push(FieldError::not_supported(at("reason"), reason.into(), &supported));
        }
        if !rule.field_path.is_empty() {
            let value = BadValue::from(rule.field_path);
            if rule.field_path.trim().is_empty() {
                let detail = "must be non-empty if specified";
                self.errors
                    .push(FieldError::invalid(at("fieldPath"), value.clone(), detail));
            }
            if has_newlines(rule.field_path) {
                let detail = "must not contain line breaks";
                self.errors
                    .push(FieldError::invalid(at("fieldPath"), value.clone(), detail));
            }
            if cel::field_path(rule.field_path, schema).is_err() {
                self.errors
                    .push(FieldError::invalid(at("fieldPath"), value, "must be a valid path"));
            }
        }
    }

    /// The checks of `x-kubernetes-validations` on one node.
    fn rules(
        &mut self,
        schema: &Value,
        path: &str,
        place: Place,
        cardinality: Option<u64>,
        uncorrelatable: Option<&str>,
        deeper_errors: bool,
    ) {
        let Some(rules) = schema["x-kubernetes-validations"].as_array() else {
            return;
        };
        let before = self.errors.len();
        for (index, raw) in rules.iter().enumerate() {
            let at = |field: &str| child(&subscript(&child(path, "x-kubernetes-validations"), index), field);
            self.rule_fields(schema, &Rule::of(raw), &at);
        }
        let Some(cardinality) = cardinality else {
            return;
        };
        if deeper_errors || self.errors.len() > before || place.nested() {
            return;
        }
        let resource = place == Place::Root || schema["x-kubernetes-embedded-resource"] == true;
        for (index, raw) in rules.iter().enumerate() {
            let rule = Rule::of(raw);
            if rule.expression.trim().is_empty() {
                continue;
            }
            let at = |field: &str| child(&subscript(&child(path, "x-kubernetes-validations"), index), field);
            let compiled = match cel::compile(schema, resource, &rule) {
                Ok(compiled) => compiled,
                Err(detail) => {
                    self.cel
                        .push(FieldError::invalid(at("rule"), BadValue::Raw(go_rule(raw)), detail));
                    continue;
                }
            };
            let cost = compiled.cost.saturating_mul(cardinality);
            if cost > RULE_COST_LIMIT {
                let message = cost_message("estimated rule cost", cost, RULE_COST_LIMIT);
                self.cel.push(FieldError::forbidden(at("rule"), message));
            }
            self.total_cost = self.total_cost.saturating_add(cost);
            match compiled.message {
                Some(Err(detail)) => {
                    let value = BadValue::Raw(go_rule(raw));
                    self.cel
                        .push(FieldError::invalid(at("messageExpression"), value, detail));
                }
                Some(Ok(message_cost)) => {
                    let cost = message_cost.saturating_mul(cardinality);
                    if cost > RULE_COST_LIMIT {
                        let message = cost_message("estimated messageExpression cost", cost, RULE_COST_LIMIT);
                        self.cel.push(FieldError::forbidden(at("messageExpression"), message));
                    }
                    self.total_cost = self.total_cost.saturating_add(cost);
                }
                None => {}
            }
            if compiled.uses_old_self {
                if let Some(list) = uncorrelatable {
                    let detail =
                        format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {list}");
                    self.cel
                        .push(FieldError::invalid(at("rule"), rule.expression.into(), detail));
                }
            } else if let Some(optional) = rule.optional_old_self {
                let detail = "may not be set if oldSelf is not used in rule";
                self.cel.push(FieldError::invalid(
                    at("optionalOldSelf"),
                    BadValue::Json(Value::Bool(optional)),
                    detail,
                ));
            }
        }
    }
}

/// A rule as Go's `encoding/json` prints apiextensions' internal `ValidationRule` (no
/// JSON tags: the Go field names, in declaration order).
fn go_rule(rule: &Value) -> String {
    let text = |key: &str| go_json(&Value::String(rule[key].as_str().unwrap_or_default().to_owned()));
    let optional = |key: &str| rule.get(key).map_or_else(|| "null".to_owned(), go_json);
    format!(
        "{{\"Rule\":{},\"Message\":{},\"MessageExpression\":{},\"Reason\":{},\"FieldPath\":{},\"OptionalOldSelf\":{}}}",
        text("rule"),
        text("message"),
        text("messageExpression"),
        optional("reason"),
        text("fieldPath"),
        optional("optionalOldSelf"),
    )
}

fn has_newlines(text: &str) -> bool {
    text.contains(['\n', '\r'])
}

/// `getCostErrorMessage`.
#[expect(clippy::cast_precision_loss, reason = "a ratio shown to one decimal")]
fn cost_message(name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_owned()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

#[cfg(test)]
mod tests;
