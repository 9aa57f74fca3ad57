//! A CRD's definition outside its schemas, checked as apiextensions-apiserver's
//! `ValidateCustomResourceDefinition` and `ValidateCustomResourceDefinitionUpdate` do
//! (`pkg/apis/apiextensions/validation/validation.go`); the schemas are `crd.rs`'s
//! (with `structural.rs`), their defaults `default_values.rs`'s.
//!
//! The apiextensions server validates its internal version, into which identical
//! per-version schemas, subresources and columns are hoisted to `spec.validation`,
//! `spec.subresources` and `spec.additionalPrinterColumns`: the field paths follow.
//!
//! Checked: the name (a DNS subdomain, `plural.group`); group (required, DNS, a dot);
//! scope; a schema per version; version names and the internal `spec.version`
//! (DNS-1035); unique names; exactly one storage version and the stored versions
//! it implies (each still in `spec.versions`); `deprecationWarning`; names (required, DNS-1035, kind and listKind
//! differ, short names, categories); scale paths; printer columns (name, type,
//! format, path); conversion strategy, webhook client and review versions;
//! `preserveUnknownFields: true`; API approval of `*.k8s.io` and `*.kubernetes.io`
//! groups; on update the group and plural, and once established scope and kind.
//!
//! Not checked: `selectableFields` (no field selectors on custom resources here);
//! webhook URL, service and CA bundle details; `status.acceptedNames` (the server
//! writes the status); the status-subresource limit on root schema fields.

use serde_json::{Value, json};

use crate::errors::{BadValue, FieldError, go_json, subscript};
use crate::names::{dns1035_label, dns1123_subdomain};

/// `printerColumnDatatypes`, sorted as `sets.List` returns them.
const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
/// `customResourceColumnDefinitionFormats`, sorted.
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// Fills in what apiextensions' v1 defaulting adds to a CRD: the singular name and
/// list kind from the kind, and the `None` conversion strategy.
pub fn apply_defaults(crd: &mut Value) {
    let kind = crd["spec"]["names"]["kind"].as_str().unwrap_or_default().to_owned();
    if let Some(names) = crd["spec"]["names"].as_object_mut() {
        if names.get("singular").and_then(Value::as_str).is_none_or(str::is_empty) {
            names.insert("singular".into(), json!(kind.to_lowercase()));
        }
        if names.get("listKind").and_then(Value::as_str).is_none_or(str::is_empty) && !kind.is_empty() {
            names.insert("listKind".into(), json!(format!("{kind}List")));
        }
    }
    if let Some(spec) = crd["spec"].as_object_mut()
        && spec.get("conversion").is_none_or(Value::is_null)
    {
        spec.insert("conversion".into(), json!({"strategy": "None"}));
    }
}

/// The violations of `crd`'s definition, schemas included (`crd::validate`), in the
/// order kube-apiserver lists them; `old` is the stored CRD on an update.
pub fn validate(crd: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errors = metadata_name(crd);
    let spec = &crd["spec"];
    group(spec, &mut errors);
    scope(spec, &mut errors);
    let schemas_hoisted = hoisted(spec, "schema").is_some();
    versions(spec, &mut errors);
    if !schemas_hoisted {
        errors.extend(crate::crd::validate(crd));
    }
    versions_together(spec, &mut errors);
    names(&spec["names"], "spec.names", true, &mut errors);
    if schemas_hoisted {
        errors.extend(crate::crd::validate(crd));
    }
    if let Some(subresources) = hoisted(spec, "subresources") {
        subresources_of(subresources, "spec.subresources", &mut errors);
    }
    if let Some(columns) = hoisted(spec, "additionalPrinterColumns") {
        columns_of(columns, "spec.additionalPrinterColumns", &mut errors);
    }
    conversion(spec, &mut errors);
    if let Some(old) = old {
        immutable(spec, &old["spec"], old, &mut errors);
    }
    stored_versions(spec, old, &mut errors);
    api_approval(crd, old, &mut errors);
    if spec["preserveUnknownFields"] == true && old.is_none_or(|o| o["spec"]["preserveUnknownFields"] != true) {
        errors.push(FieldError::invalid(
            "spec.preserveUnknownFields",
            BadValue::Json(json!(true)),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    errors
}

/// `ValidateCustomResourceDefinitionStoredVersions`, on the stored versions the
/// server records: those stored before, and the first storage version.
fn stored_versions(spec: &Value, old: Option<&Value>, errors: &mut Vec<FieldError>) {
    let mut stored: Vec<String> = old
        .and_then(|o| o["status"]["storedVersions"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let versions: &[Value] = spec["versions"].as_array().map_or(&[], Vec::as_slice);
    if let Some(first) = versions.iter().find(|v| v["storage"] == true) {
        let name = text(first, "name").to_owned();
        if !stored.contains(&name) {
            stored.push(name);
        }
    }
    // A `[]string` as kube-apiserver 1.32's `ErrorBody` prints it (`%#v`).
    let quoted: Vec<String> = stored.iter().map(|s| crate::errors::go_quote(s)).collect();
    let value = || BadValue::Raw(format!("[]string{{{}}}", quoted.join(", ")));
    if stored.is_empty() {
        errors.push(FieldError::invalid(
            "status.storedVersions",
            value(),
            "must have at least one stored version",
        ));
        return;
    }
    for version in versions.iter().filter(|v| v["storage"] == true) {
        let name = text(version, "name");
        if !stored.iter().any(|s| s == name) {
            let detail = format!("must have the storage version {name}");
            errors.push(FieldError::invalid("status.storedVersions", value(), detail));
        }
    }
    // A version objects may still be stored in cannot go until a storage migration
    // has rewritten them and removed it from the status.
    for (index, name) in stored.iter().enumerate() {
        if !versions.iter().any(|v| text(v, "name") == name) {
            let detail = format!(
                "missing from spec.versions; {name} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {name} and removes {name} from status.storedVersions"
            );
            errors.push(FieldError::invalid(
                subscript("status.storedVersions", index),
                name.as_str().into(),
                detail,
            ));
        }
    }
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}

/// The CRD's own name rule (`ValidateCustomResourceDefinition`'s `nameValidationFn`,
/// which `ValidateObjectMeta` applies to a `generateName` first, as a prefix, then to
/// the name): a DNS subdomain, and `plural.group`.
fn metadata_name(crd: &Value) -> Vec<FieldError> {
    let required = format!(
        "{}.{}",
        text(&crd["spec"]["names"], "plural"),
        text(&crd["spec"], "group")
    );
    let rule = |name: &str, prefix: bool| {
        let masked = if prefix {
            crate::names::mask_trailing_dash(name)
        } else {
            name.to_owned()
        };
        let mut found: Vec<String> = dns1123_subdomain(&masked);
        if name != required {
            found.push("must be spec.names.plural+\".\"+spec.group".to_owned());
        }
        found
    };
    let mut errors = Vec::new();
    let generate_name = text(&crd["metadata"], "generateName");
    if !generate_name.is_empty() {
        errors.extend(
            rule(generate_name, true)
                .into_iter()
                .map(|detail| FieldError::invalid("metadata.generateName", generate_name.into(), detail)),
        );
    }
    let name = text(&crd["metadata"], "name");
    errors.extend(
        rule(name, false)
            .into_iter()
            .map(|detail| FieldError::invalid("metadata.name", name.into(), detail)),
    );
    errors
}

fn group(spec: &Value, errors: &mut Vec<FieldError>) {
    let group = text(spec, "group");
    if group.is_empty() {
        errors.push(FieldError::required("spec.group", ""));
    } else if let found @ [_, ..] = dns1123_subdomain(group).as_slice() {
        errors.push(FieldError::invalid("spec.group", group.into(), found.join(",")));
    } else if !group.contains('.') {
        errors.push(FieldError::invalid(
            "spec.group",
            group.into(),
            "should be a domain with at least one dot",
        ));
    }
}

fn scope(spec: &Value, errors: &mut Vec<FieldError>) {
    match text(spec, "scope") {
        "" => errors.push(FieldError::required("spec.scope", "")),
        "Cluster" | "Namespaced" => {}
        other => errors.push(FieldError::not_supported(
            "spec.scope",
            other.into(),
            &["Cluster".to_owned(), "Namespaced".to_owned()],
        )),
    }
}

/// The value of `field` shared by every version, which the internal version holds
/// once (None when the versions differ, or when one lacks it).
fn hoisted<'a>(spec: &'a Value, field: &str) -> Option<&'a Value> {
    let versions = spec["versions"].as_array()?;
    let first = versions.first()?.get(field).filter(|v| !v.is_null())?;
    let empty = first.as_array().is_some_and(Vec::is_empty);
    (!empty && versions.iter().all(|v| v.get(field) == Some(first))).then_some(first)
}

fn versions(spec: &Value, errors: &mut Vec<FieldError>) {
    let versions: &[Value] = spec["versions"].as_array().map_or(&[], Vec::as_slice);
    let subresources_hoisted = hoisted(spec, "subresources").is_some();
    let columns_hoisted = hoisted(spec, "additionalPrinterColumns").is_some();
    for (index, version) in versions.iter().enumerate() {
        let path = subscript("spec.versions", index);
        let name = text(version, "name");
        if let found @ [_, ..] = dns1035_label(name).as_slice() {
            errors.push(FieldError::invalid(
                format!("{path}.name"),
                name.into(),
                found.join(","),
            ));
        }
        deprecation_warning(version, &path, errors);
        // Hoisted or not, every version needs its schema: kube checks the versions
        // when the hoisted (shared) one has no `openAPIV3Schema`, and a version's
        // identical copy then lacks it too.
        if version["schema"].get("openAPIV3Schema").is_none_or(Value::is_null) {
            errors.push(FieldError::required(
                format!("{path}.schema.openAPIV3Schema"),
                "schemas are required",
            ));
        }
        if !subresources_hoisted && let Some(subresources) = version.get("subresources") {
            subresources_of(subresources, &format!("{path}.subresources"), errors);
        }
        if !columns_hoisted && let Some(columns) = version.get("additionalPrinterColumns") {
            columns_of(columns, &format!("{path}.additionalPrinterColumns"), errors);
        }
    }
}

/// What the versions must be together: uniquely named, one of them stored; and the
/// internal version's `spec.version` (the first version's name) a DNS-1035 label.
fn versions_together(spec: &Value, errors: &mut Vec<FieldError>) {
    let versions: &[Value] = spec["versions"].as_array().map_or(&[], Vec::as_slice);
    let names: Vec<&str> = versions.iter().map(|v| text(v, "name")).collect();
    if names.iter().enumerate().any(|(i, name)| names[..i].contains(name)) {
        errors.push(FieldError::invalid(
            "spec.versions",
            versions_value(spec),
            "must contain unique version names",
        ));
    }
    if versions.iter().filter(|v| v["storage"] == true).count() != 1 {
        errors.push(FieldError::invalid(
            "spec.versions",
            versions_value(spec),
            "must have exactly one version marked as storage version",
        ));
    }
    if let Some(first) = names.first().filter(|n| !n.is_empty())
        && let found @ [_, ..] = dns1035_label(first).as_slice()
    {
        errors.push(FieldError::invalid("spec.version", (*first).into(), found.join(",")));
    }
}

/// The versions as the error prints them: the internal type's fields under their Go
/// names, hoisted fields null. (Go prints nested schemas with every field of the
/// internal type; this prints them as written.)
fn versions_value(spec: &Value) -> BadValue {
    let hoist = |field: &str| hoisted(spec, field).is_some();
    let (schema, subresources, columns) = (
        hoist("schema"),
        hoist("subresources"),
        hoist("additionalPrinterColumns"),
    );
    let versions: Vec<Value> = spec["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            let kept = |field: &str, hoisted: bool| if hoisted { Value::Null } else { v[field].clone() };
            json!({
                "Name": v["name"].as_str().unwrap_or_default(),
                "Served": v["served"] == true,
                "Storage": v["storage"] == true,
                "Deprecated": v["deprecated"] == true,
                "DeprecationWarning": v["deprecationWarning"].clone(),
                "Schema": kept("schema", schema),
                "Subresources": kept("subresources", subresources),
                "AdditionalPrinterColumns": kept("additionalPrinterColumns", columns),
                "SelectableFields": v["selectableFields"].clone(),
            })
        })
        .collect();
    // Go marshals struct fields in declaration order, not sorted.
    let fields = [
        "Name",
        "Served",
        "Storage",
        "Deprecated",
        "DeprecationWarning",
        "Schema",
        "Subresources",
        "AdditionalPrinterColumns",
        "SelectableFields",
    ];
    let printed: Vec<String> = versions
        .iter()
        .map(|v| {
            let parts: Vec<String> = fields.iter().map(|f| format!("\"{f}\":{}", go_json(&v[*f]))).collect();
            format!("{{{}}}", parts.join(","))
        })
        .collect();
    BadValue::Raw(format!("[{}]", printed.join(",")))
}

/// `validateDeprecationWarning`.
fn deprecation_warning(version: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let Some(warning) = version.get("deprecationWarning").and_then(Value::as_str) else {
        return;
    };
    let field = format!("{path}.deprecationWarning");
    let mut found = Vec::new();
    if version["deprecated"] == true {
        if warning.len() > 256 {
            found.push("must be <= 256 characters long".to_owned());
        }
        if warning.is_empty() {
            found.push("must not be an empty string".to_owned());
        }
        if let Some(index) = warning.char_indices().find(|(_, c)| c.is_control()).map(|(i, _)| i) {
            found.push(format!(
                "must only contain printable UTF-8 characters; non-printable character found at index {index}"
            ));
        }
    } else {
        found.push("can only be set for deprecated versions".to_owned());
    }
    for detail in found {
        errors.push(FieldError::invalid(field.clone(), warning.into(), detail));
    }
}

/// `ValidateCustomResourceDefinitionNames`; `required` for `spec.names` (not for
/// `status.acceptedNames`).
fn names(names: &Value, path: &str, required: bool, errors: &mut Vec<FieldError>) {
    if required {
        for field in ["plural", "singular", "kind", "listKind"] {
            if text(names, field).is_empty() {
                errors.push(FieldError::required(format!("{path}.{field}"), ""));
            }
        }
    }
    for field in ["plural", "singular"] {
        let value = text(names, field);
        if let found @ [_, ..] = dns1035_label(value).as_slice()
            && !value.is_empty()
        {
            errors.push(FieldError::invalid(
                format!("{path}.{field}"),
                value.into(),
                found.join(","),
            ));
        }
    }
    for field in ["kind", "listKind"] {
        let value = text(names, field);
        if let found @ [_, ..] = dns1035_label(&value.to_lowercase()).as_slice()
            && !value.is_empty()
        {
            let detail = format!("may have mixed case, but should otherwise match: {}", found.join(","));
            errors.push(FieldError::invalid(format!("{path}.{field}"), value.into(), detail));
        }
    }
    for (index, short) in names["shortNames"].as_array().into_iter().flatten().enumerate() {
        let short = short.as_str().unwrap_or_default();
        if let found @ [_, ..] = dns1035_label(short).as_slice() {
            let field = subscript(&format!("{path}.shortNames"), index);
            errors.push(FieldError::invalid(field, short.into(), found.join(",")));
        }
    }
    let kind = text(names, "kind");
    if !kind.is_empty() && kind == text(names, "listKind") {
        errors.push(FieldError::invalid(
            format!("{path}.listKind"),
            kind.into(),
            "kind and listKind may not be the same",
        ));
    }
    for (index, category) in names["categories"].as_array().into_iter().flatten().enumerate() {
        let category = category.as_str().unwrap_or_default();
        if let found @ [_, ..] = dns1035_label(category).as_slice() {
            let field = subscript(&format!("{path}.categories"), index);
            errors.push(FieldError::invalid(field, category.into(), found.join(",")));
        }
    }
}

/// `validateSimpleJSONPath`: whether `path` is a dot path; the error if not.
fn simple_json_path(path: &str, field: &str) -> Option<FieldError> {
    let detail = if path.is_empty() {
        "must not be empty"
    } else if !path.starts_with('.') {
        "must be a simple json path starting with ."
    } else {
        return None;
    };
    Some(FieldError::invalid(field, path.into(), detail))
}

/// `ValidateCustomResourceDefinitionSubresources`: the scale paths.
fn subresources_of(subresources: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let Some(scale) = subresources.get("scale").filter(|s| s.is_object()) else {
        return;
    };
    for (key, under) in [("specReplicasPath", ".spec."), ("statusReplicasPath", ".status.")] {
        let field = format!("{path}.scale.{key}");
        let value = text(scale, key);
        if value.is_empty() {
            errors.push(FieldError::required(field, ""));
        } else if let Some(error) = simple_json_path(value, &field) {
            errors.push(error);
        } else if !value.starts_with(under) {
            let detail = format!("should be a json path under {}", under.trim_end_matches('.'));
            errors.push(FieldError::invalid(field, value.into(), detail));
        }
    }
    let selector = text(scale, "labelSelectorPath");
    if !selector.is_empty() {
        let field = format!("{path}.scale.labelSelectorPath");
        if let Some(error) = simple_json_path(selector, &field) {
            errors.push(error);
        } else if !selector.starts_with(".spec.") && !selector.starts_with(".status.") {
            errors.push(FieldError::invalid(
                field,
                selector.into(),
                "should be a json path under either .spec or .status",
            ));
        }
    }
}

/// `ValidateCustomResourceColumnDefinition`, for each column.
fn columns_of(columns: &Value, path: &str, errors: &mut Vec<FieldError>) {
    for (index, column) in columns.as_array().into_iter().flatten().enumerate() {
        let at = |field: &str| format!("{}.{field}", subscript(path, index));
        if text(column, "name").is_empty() {
            errors.push(FieldError::required(at("name"), ""));
        }
        let column_type = text(column, "type");
        let types_detail = format!("must be one of {COLUMN_TYPES}");
        if column_type.is_empty() {
            errors.push(FieldError::required(at("type"), types_detail));
        } else if !COLUMN_TYPES.split(',').any(|t| t == column_type) {
            errors.push(FieldError::invalid(at("type"), column_type.into(), types_detail));
        }
        let format = text(column, "format");
        if !format.is_empty() && !COLUMN_FORMATS.split(',').any(|f| f == format) {
            let detail = format!("must be one of {COLUMN_FORMATS}");
            errors.push(FieldError::invalid(at("format"), format.into(), detail));
        }
        let json_path = text(column, "jsonPath");
        if json_path.is_empty() {
            errors.push(FieldError::required(at("JSONPath"), ""));
        } else if let Some(error) = simple_json_path(json_path, &at("JSONPath")) {
            errors.push(error);
        }
    }
}

/// `validateCustomResourceConversion`, without the webhook's URL and CA checks.
fn conversion(spec: &Value, errors: &mut Vec<FieldError>) {
    let Some(conversion) = spec.get("conversion").filter(|c| c.is_object()) else {
        return;
    };
    let strategy = text(conversion, "strategy");
    match strategy {
        "" => errors.push(FieldError::required("spec.conversion.strategy", "")),
        "None" | "Webhook" => {}
        other => errors.push(FieldError::not_supported(
            "spec.conversion.strategy",
            other.into(),
            &["None".to_owned(), "Webhook".to_owned()],
        )),
    }
    if !strategy.is_empty() && strategy != "None" && spec["preserveUnknownFields"] == true {
        errors.push(FieldError::invalid(
            "spec.conversion.strategy",
            strategy.into(),
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    let webhook = &conversion["webhook"];
    if strategy == "Webhook" {
        if webhook["clientConfig"].is_null() {
            errors.push(FieldError::required(
                "spec.conversion.webhookClientConfig",
                "required when strategy is set to Webhook",
            ));
        } else if webhook["clientConfig"]["url"].is_null() == webhook["clientConfig"]["service"].is_null() {
            errors.push(FieldError::required(
                "spec.conversion.webhookClientConfig",
                "exactly one of url or service is required",
            ));
        }
        let versions = webhook["conversionReviewVersions"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        if versions.is_empty() {
            errors.push(FieldError::required("spec.conversion.conversionReviewVersions", ""));
        }
        let mut seen: Vec<&str> = Vec::new();
        for (index, version) in versions.iter().enumerate() {
            let version = version.as_str().unwrap_or_default();
            let field = subscript("spec.conversion.conversionReviewVersions", index);
            if seen.contains(&version) {
                errors.push(FieldError::invalid(field, version.into(), "duplicate version"));
                continue;
            }
            seen.push(version);
            for detail in dns1035_label(version) {
                errors.push(FieldError::invalid(field.clone(), version.into(), detail));
            }
        }
        if !versions.is_empty() && !versions.iter().any(|v| v == "v1" || v == "v1beta1") {
            errors.push(FieldError::invalid(
                "spec.conversion.conversionReviewVersions",
                BadValue::Json(Value::Array(versions.to_vec())),
                "must include at least one of v1, v1beta1",
            ));
        }
    } else if !webhook.is_null() {
        if !webhook["clientConfig"].is_null() {
            errors.push(FieldError::forbidden(
                "spec.conversion.webhookClientConfig",
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if webhook["conversionReviewVersions"]
            .as_array()
            .is_some_and(|v| !v.is_empty())
        {
            errors.push(FieldError::forbidden(
                "spec.conversion.conversionReviewVersions",
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

/// `validateCustomResourceDefinitionSpecUpdate`: the group and plural name the
/// stored objects, so never change; scope and kind are fixed once established.
fn immutable(spec: &Value, old_spec: &Value, old: &Value, errors: &mut Vec<FieldError>) {
    let established = old["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Established" && c["status"] == "True");
    let mut fields: Vec<(&str, &Value, &Value)> = Vec::new();
    if established {
        fields.push(("spec.scope", &spec["scope"], &old_spec["scope"]));
        fields.push(("spec.names.kind", &spec["names"]["kind"], &old_spec["names"]["kind"]));
    }
    fields.push(("spec.group", &spec["group"], &old_spec["group"]));
    fields.push((
        "spec.names.plural",
        &spec["names"]["plural"],
        &old_spec["names"]["plural"],
    ));
    for (field, new, old) in fields {
        if new != old {
            let value = BadValue::from(new.as_str().unwrap_or_default());
            errors.push(FieldError::invalid(field, value, "field is immutable"));
        }
    }
}

/// `validateAPIApproval`: groups under `k8s.io` and `kubernetes.io` belong to the
/// Kubernetes project and need the approval annotation.
fn api_approval(crd: &Value, old: Option<&Value>, errors: &mut Vec<FieldError>) {
    const ANNOTATION: &str = "api-approved.kubernetes.io";
    let group = text(&crd["spec"], "group");
    let protected = ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|domain| group == *domain || group.ends_with(&format!(".{domain}")));
    if !protected {
        return;
    }
    let state = |crd: &Value| {
        let annotation = crd["metadata"]["annotations"][ANNOTATION]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let kind = if annotation.is_empty() {
            "missing"
        } else if annotation.starts_with("unapproved") {
            "bypassed"
        } else if url_with_host(&annotation) {
            "approved"
        } else {
            "invalid"
        };
        (kind, annotation)
    };
    let (new_state, annotation) = state(crd);
    if old.is_some_and(|old| state(old).0 == new_state) {
        return;
    }
    let field = format!("metadata.annotations[{ANNOTATION}]");
    match new_state {
        "missing" => errors.push(FieldError::required(
            field,
            format!("protected groups must have approval annotation \"{ANNOTATION}\", see https://github.com/kubernetes/enhancements/pull/1111"),
        )),
        "invalid" => errors.push(FieldError::invalid(
            field,
            annotation.as_str().into(),
            format!("protected groups must have approval annotation \"{ANNOTATION}\" with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"),
        )),
        _ => {}
    }
}

/// Whether `text` parses as an absolute URL with a host, as `url.ParseRequestURI`
/// with a scheme and host.
fn url_with_host(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && !rest.split('/').next().unwrap_or_default().is_empty()
            && !text.contains(' ')
    })
}

#[cfg(test)]
mod tests;
