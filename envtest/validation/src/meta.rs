//! apimachinery's object-metadata validation (`k8s.io/apimachinery/pkg/api/validation`:
//! `ValidateObjectMeta`, `ValidateObjectMetaUpdate`, owner references, finalizers,
//! annotations, and the name rules each kind picks), metav1's label and selector
//! validation (`pkg/apis/meta/v1/validation`), and the metadata checks the generic
//! registry runs on every write (`rest.BeforeCreate` and `rest.BeforeUpdate`).

// Conditions serve the other API groups' validation as it is ported.
#![allow(dead_code)]

use serde_json::{Value, json};

use crate::field::{BadValue, ErrorList, Path};
use crate::godump;
use crate::json::{entries, int, items, opt_int, strings, text};
use crate::util;

/// `FieldImmutableErrorMsg`.
pub(crate) const FIELD_IMMUTABLE: &str = "field is immutable";

/// `IsNegativeErrorMsg`.
pub(crate) const IS_NEGATIVE: &str = "must be greater than or equal to 0";

/// `TotalAnnotationSizeLimitB`: 256 KiB.
pub(crate) const TOTAL_ANNOTATION_SIZE_LIMIT: i64 = 256 * 1024;

/// A kind's name rule (`ValidateNameFunc`): the messages for a bad `name`, or for a bad
/// `generateName` prefix when `prefix` is true.
pub(crate) type NameRule = fn(name: &str, prefix: bool) -> Vec<String>;

fn masked(name: &str, prefix: bool) -> String {
    if prefix {
        wheelhouse_envtest_schema::names::mask_trailing_dash(name)
    } else {
        name.to_owned()
    }
}

/// `NameIsDNSSubdomain`: most kinds' names.
pub(crate) fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    util::is_dns1123_subdomain(&masked(name, prefix))
}

/// `NameIsDNSLabel`: namespaces, pods' hostnames.
pub(crate) fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    util::is_dns1123_label(&masked(name, prefix))
}

/// `NameIsDNS1035Label`: Services.
pub(crate) fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    util::is_dns1035_label(&masked(name, prefix))
}

/// `path.ValidatePathSegmentName`: names that only need to be a URL path segment
/// (RBAC objects, and every object's name in the registry's generic check).
pub(crate) fn validate_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for illegal in [".", ".."] {
            if name == illegal {
                return vec![format!("may not be '{illegal}'")];
            }
        }
    }
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(*illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// `ValidateNonnegativeField`.
pub(crate) fn validate_nonnegative_field(value: i64, path: &Path) -> ErrorList {
    if value < 0 {
        vec![path.invalid(&json!(value), IS_NEGATIVE)]
    } else {
        Vec::new()
    }
}

/// `ValidateImmutableField`, comparing semantically; `shown` is the new value as the
/// message prints it.
pub(crate) fn validate_immutable_field(new: &Value, old: &Value, shown: BadValue, path: &Path) -> ErrorList {
    if crate::json::same(new, old) {
        Vec::new()
    } else {
        vec![path.invalid(shown, FIELD_IMMUTABLE)]
    }
}

/// `ValidateObjectMeta` (`ValidateObjectMetaAccessor`): `meta` at `path`, of a kind
/// that lives in a namespace if `requires_namespace`, its name checked with
/// `name_rule`.
pub(crate) fn validate_object_meta(
    meta: &Value,
    requires_namespace: bool,
    name_rule: NameRule,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let generate_name = text(&meta["generateName"]);
    if !generate_name.is_empty() {
        for message in name_rule(generate_name, true) {
            errors.push(path.child("generateName").invalid(generate_name, &message));
        }
    }
    let name = text(&meta["name"]);
    if name.is_empty() {
        errors.push(path.child("name").required("name or generateName is required"));
    } else {
        for message in name_rule(name, false) {
            errors.push(path.child("name").invalid(name, &message));
        }
    }
    let namespace = text(&meta["namespace"]);
    if requires_namespace {
        if namespace.is_empty() {
            errors.push(path.child("namespace").required(""));
        } else {
            for message in name_is_dns_label(namespace, false) {
                errors.push(path.child("namespace").invalid(namespace, &message));
            }
        }
    } else if !namespace.is_empty() {
        errors.push(path.child("namespace").forbidden("not allowed on this type"));
    }
    errors.extend(validate_nonnegative_field(
        int(&meta["generation"]),
        &path.child("generation"),
    ));
    errors.extend(validate_labels(&meta["labels"], &path.child("labels")));
    errors.extend(validate_annotations(&meta["annotations"], &path.child("annotations")));
    errors.extend(validate_owner_references(
        &meta["ownerReferences"],
        &path.child("ownerReferences"),
    ));
    errors.extend(validate_finalizers(&meta["finalizers"], &path.child("finalizers")));
    errors.extend(validate_managed_fields(
        &meta["managedFields"],
        &path.child("managedFields"),
    ));
    errors
}

/// `ValidateObjectMetaUpdate` (`ValidateObjectMetaAccessorUpdate`): what an update may
/// not change in `new` from `old`. (The `resourceVersion` check is left to the server,
/// whose store sets it before validation, as kube-apiserver's does.)
pub(crate) fn validate_object_meta_update(new: &Value, old: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if !old["deletionTimestamp"].is_null() {
        errors.extend(validate_no_new_finalizers(
            &new["finalizers"],
            &old["finalizers"],
            &path.child("finalizers"),
        ));
    }
    if int(&new["generation"]) < int(&old["generation"]) {
        errors.push(
            path.child("generation")
                .invalid(&new["generation"], "must not be decremented"),
        );
    }
    for field in ["name", "namespace", "uid"] {
        let shown = BadValue::from(text(&new[field]));
        errors.extend(validate_immutable_field(
            &json!(text(&new[field])),
            &json!(text(&old[field])),
            shown,
            &path.child(field),
        ));
    }
    for field in ["creationTimestamp", "deletionTimestamp"] {
        let shown = if new[field].is_null() {
            godump::nil()
        } else {
            godump::raw(go_time(&new[field]))
        };
        errors.extend(validate_immutable_field(
            &new[field],
            &old[field],
            shown,
            &path.child(field),
        ));
    }
    let grace = &new["deletionGracePeriodSeconds"];
    let shown = godump::pointee(grace);
    errors.extend(validate_immutable_field(
        grace,
        &old["deletionGracePeriodSeconds"],
        shown,
        &path.child("deletionGracePeriodSeconds"),
    ));
    errors.extend(validate_labels(&new["labels"], &path.child("labels")));
    errors.extend(validate_annotations(&new["annotations"], &path.child("annotations")));
    errors.extend(validate_owner_references(
        &new["ownerReferences"],
        &path.child("ownerReferences"),
    ));
    errors.extend(validate_managed_fields(
        &new["managedFields"],
        &path.child("managedFields"),
    ));
    errors
}

/// A `metav1.Time` as its `String` method prints it (`2006-01-02 15:04:05 +0000 UTC`).
fn go_time(value: &Value) -> String {
    let Some(stamp) = value.as_str() else {
        return value.to_string();
    };
    match stamp.strip_suffix('Z').and_then(|s| s.split_once('T')) {
        Some((date, time)) => format!("{date} {time} +0000 UTC"),
        None => stamp.to_owned(),
    }
}

/// `ValidateAnnotations`: keys are qualified names (case aside), and keys and values
/// together stay within 256 KiB.
pub(crate) fn validate_annotations(annotations: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut total: i64 = 0;
    for (key, value) in entries(annotations) {
        for message in util::is_qualified_name(&key.to_lowercase()) {
            errors.push(path.invalid(key.as_str(), &message));
        }
        total += i64::try_from(key.len() + text(value).len()).unwrap_or(i64::MAX);
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errors.push(path.too_long(TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    errors
}

/// metav1's `ValidateLabelName`.
pub(crate) fn validate_label_name(name: &str, path: &Path) -> ErrorList {
    util::is_qualified_name(name)
        .iter()
        .map(|message| path.invalid(name, message))
        .collect()
}

/// metav1's `ValidateLabels`: keys are qualified names, values label values.
pub(crate) fn validate_labels(labels: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (key, value) in entries(labels) {
        errors.extend(validate_label_name(key, path));
        let value = text(value);
        for message in util::is_valid_label_value(value) {
            errors.push(path.invalid(value, &message));
        }
    }
    errors
}

/// `LabelSelectorValidationOptions`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SelectorOptions {
    /// `AllowInvalidLabelValueInSelector`: for updates of objects stored with them.
    pub allow_invalid_label_value: bool,
    /// `AllowUnknownOperatorInRequirement`.
    pub allow_unknown_operator: bool,
}

/// metav1's `ValidateLabelSelector`: a structured label selector at `path`.
pub(crate) fn validate_label_selector(selector: &Value, path: &Path) -> ErrorList {
    validate_label_selector_with(selector, SelectorOptions::default(), path)
}

/// metav1's `ValidateLabelSelector` with options.
pub(crate) fn validate_label_selector_with(selector: &Value, options: SelectorOptions, path: &Path) -> ErrorList {
    if selector.is_null() {
        return ErrorList::new();
    }
    let mut errors = validate_labels(&selector["matchLabels"], &path.child("matchLabels"));
    for (index, requirement) in items(&selector["matchExpressions"]).iter().enumerate() {
        errors.extend(validate_label_selector_requirement(
            requirement,
            options,
            &path.child("matchExpressions").index(index),
        ));
    }
    errors
}

/// metav1's `ValidateLabelSelectorRequirement`.
pub(crate) fn validate_label_selector_requirement(
    requirement: &Value,
    options: SelectorOptions,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let values = items(&requirement["values"]);
    match text(&requirement["operator"]) {
        "In" | "NotIn" => {
            if values.is_empty() {
                errors.push(
                    path.child("values")
                        .required("must be specified when `operator` is 'In' or 'NotIn'"),
                );
            }
        }
        "Exists" | "DoesNotExist" => {
            if !values.is_empty() {
                errors.push(
                    path.child("values")
                        .forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                );
            }
        }
        operator => {
            if !options.allow_unknown_operator {
                errors.push(
                    path.child("operator")
                        .invalid(operator, "not a valid selector operator"),
                );
            }
        }
    }
    errors.extend(validate_label_name(text(&requirement["key"]), &path.child("key")));
    if !options.allow_invalid_label_value {
        for (index, value) in values.iter().enumerate() {
            let value = text(value);
            for message in util::is_valid_label_value(value) {
                errors.push(path.child("values").index(index).invalid(value, &message));
            }
        }
    }
    errors
}

/// metav1's `LabelSelectorHasInvalidLabelValue`.
pub(crate) fn label_selector_has_invalid_label_value(selector: &Value) -> bool {
    items(&selector["matchExpressions"]).iter().any(|requirement| {
        items(&requirement["values"])
            .iter()
            .any(|value| !util::is_valid_label_value(text(value)).is_empty())
    })
}

/// The kinds that may not own other objects (`BannedOwners`): core Events.
fn banned_owner(group: &str, version: &str, kind: &str) -> bool {
    group.is_empty() && version == "v1" && kind == "Event"
}

/// `validateOwnerReference`.
fn validate_owner_reference(reference: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let api_version = text(&reference["apiVersion"]);
    let kind = text(&reference["kind"]);
    // `schema.FromAPIVersionAndKind`: the version is what follows the last `/`.
    let (group, version) = match api_version.split_once('/') {
        Some((group, version)) if !version.contains('/') => (group, version),
        Some(_) => ("", ""),
        None => ("", api_version),
    };
    if version.is_empty() {
        errors.push(
            path.child("apiVersion")
                .invalid(api_version, "version must not be empty"),
        );
    }
    if kind.is_empty() {
        errors.push(path.child("kind").invalid(kind, "kind must not be empty"));
    }
    let name = text(&reference["name"]);
    if name.is_empty() {
        errors.push(path.child("name").invalid(name, "name must not be empty"));
    }
    let uid = text(&reference["uid"]);
    if uid.is_empty() {
        errors.push(path.child("uid").invalid(uid, "uid must not be empty"));
    }
    if banned_owner(group, version, kind) {
        errors.push(path.invalid(
            godump::raw(godump::owner_reference(reference)),
            &format!("/{version}, Kind={kind} is disallowed from being an owner"),
        ));
    }
    errors
}

/// `ValidateOwnerReferences`: each reference complete, at most one controller.
pub(crate) fn validate_owner_references(references: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut first_controller: Option<String> = None;
    for reference in items(references) {
        errors.extend(validate_owner_reference(reference, path));
        if reference["controller"] == true {
            let current = format!("{}/{}", text(&reference["kind"]), text(&reference["name"]));
            match &first_controller {
                Some(first) => errors.push(path.invalid(
                    godump::raw(godump::owner_references(references)),
                    &format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {current}"
                    ),
                )),
                None => first_controller = Some(current),
            }
        }
    }
    errors
}

/// `ValidateFinalizerName`: a qualified name.
pub(crate) fn validate_finalizer_name(name: &str, path: &Path) -> ErrorList {
    util::is_qualified_name(name)
        .iter()
        .map(|message| path.invalid(name, message))
        .collect()
}

/// `ValidateFinalizers`: qualified names, and not both `orphan` and
/// `foregroundDeletion`.
pub(crate) fn validate_finalizers(finalizers: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let names = strings(finalizers);
    for name in &names {
        errors.extend(validate_finalizer_name(name, path));
    }
    if names.contains(&"orphan") && names.contains(&"foregroundDeletion") {
        errors.push(path.invalid(
            godump::raw(godump::string_slice("string", finalizers)),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errors
}

/// `ValidateNoNewFinalizers`: an object being deleted may not gain finalizers.
pub(crate) fn validate_no_new_finalizers(new: &Value, old: &Value, path: &Path) -> ErrorList {
    let before = strings(old);
    let mut extra: Vec<&str> = strings(new).into_iter().filter(|f| !before.contains(f)).collect();
    extra.sort_unstable();
    extra.dedup();
    if extra.is_empty() {
        return ErrorList::new();
    }
    vec![path.forbidden(&format!(
        "no new finalizers can be added if the object is being deleted, found new finalizers {}",
        godump::strings(&extra)
    ))]
}

/// metav1's `ValidateManagedFields`.
pub(crate) fn validate_managed_fields(entries_list: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, entry) in items(entries_list).iter().enumerate() {
        let path = path.index(index);
        let operation = text(&entry["operation"]);
        if operation != "Apply" && operation != "Update" {
            errors.push(
                path.child("operation")
                    .invalid(operation, "must be `Apply` or `Update`"),
            );
        }
        let fields_type = text(&entry["fieldsType"]);
        if !fields_type.is_empty() && fields_type != "FieldsV1" {
            errors.push(path.child("fieldsType").invalid(fields_type, "must be `FieldsV1`"));
        }
        errors.extend(validate_field_manager(text(&entry["manager"]), &path.child("manager")));
        if text(&entry["subresource"]).len() > 256 {
            errors.push(path.child("subresource").too_long(256));
        }
    }
    errors
}

/// metav1's `ValidateFieldManager`: at most 128 bytes, printable characters.
pub(crate) fn validate_field_manager(manager: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if manager.len() > 128 {
        errors.push(path.too_long(128));
    }
    for (position, character) in manager.char_indices() {
        if !is_print(character) {
            errors.push(path.invalid(
                manager,
                &format!(
                    "invalid character U+{:04X} (at position {position})",
                    u32::from(character)
                ),
            ));
        }
    }
    errors
}

/// Go's `unicode.IsPrint`, for the characters a client could send: not a control or
/// format character, and no space but the ASCII one.
fn is_print(character: char) -> bool {
    let format = matches!(u32::from(character), 0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF);
    !character.is_control() && !format && (character == ' ' || !character.is_whitespace())
}

/// metav1's `ValidateConditions`: each condition valid, no type twice.
pub(crate) fn validate_conditions(conditions: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen: Vec<&str> = Vec::new();
    for (index, condition) in items(conditions).iter().enumerate() {
        let kind = text(&condition["type"]);
        if seen.contains(&kind) {
            errors.push(path.index(index).child("type").duplicate(kind));
        } else {
            seen.push(kind);
        }
        errors.extend(validate_condition(condition, &path.index(index)));
    }
    errors
}

/// metav1's `ValidateCondition`.
pub(crate) fn validate_condition(condition: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_label_name(text(&condition["type"]), &path.child("type"));
    let status = text(&condition["status"]);
    if !matches!(status, "True" | "False" | "Unknown") {
        errors.push(
            path.child("status")
                .not_supported(status, &["False", "True", "Unknown"]),
        );
    }
    if let Some(generation) = opt_int(&condition["observedGeneration"]).filter(|g| *g < 0) {
        errors.push(
            path.child("observedGeneration")
                .invalid(&json!(generation), "must be greater than or equal to zero"),
        );
    }
    if text(&condition["lastTransitionTime"]).is_empty() {
        errors.push(path.child("lastTransitionTime").required("must be set"));
    }
    let reason = text(&condition["reason"]);
    if reason.is_empty() {
        errors.push(path.child("reason").required("must be set"));
    } else {
        if !is_condition_reason(reason) {
            errors.push(path.child("reason").invalid(
                reason,
                &util::regex_error(
                    "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
                    "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
                    &["my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"],
                ),
            ));
        }
        if reason.len() > 1024 {
            errors.push(path.child("reason").too_long(1024));
        }
    }
    if text(&condition["message"]).len() > 32 * 1024 {
        errors.push(path.child("message").too_long(32 * 1024));
    }
    errors
}

/// `[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?`.
fn is_condition_reason(reason: &str) -> bool {
    let bytes = reason.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b',' | b':'))
        && bytes.last().is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// What `rest.BeforeCreate` checks after the kind's own validation passed:
/// `ValidateObjectMetaAccessor` with path-segment names, on every kind.
pub(crate) fn validate_generic_create(object: &Value, namespaced: bool) -> ErrorList {
    validate_object_meta(
        &object["metadata"],
        namespaced,
        validate_path_segment_name,
        &Path::new("metadata"),
    )
}

/// What `rest.BeforeUpdate` checks before the kind's own update validation
/// (`validateCommonFields`): the new metadata as on create, with path-segment names,
/// then what the update may not change.
pub(crate) fn validate_common_update(new: &Value, old: &Value, namespaced: bool) -> ErrorList {
    let path = Path::new("metadata");
    let mut errors = validate_object_meta(&new["metadata"], namespaced, validate_path_segment_name, &path);
    errors.extend(validate_object_meta_update(&new["metadata"], &old["metadata"], &path));
    errors
}

#[cfg(test)]
mod tests;
