//! secrets (`ValidateSecret`: keys, the 1 MiB limit and what each type requires, the
//! type and `immutable` fixed on update), config maps (`ValidateConfigMap`) and
//! service accounts (`ValidateServiceAccount`).

use base64::Engine;
use serde_json::Value;

use super::go_json;
use super::{empty_path, invalid_each, validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::json::{entries, text};
use crate::meta;
use crate::util;

/// `core.MaxSecretSize`: 1 MiB.
const MAX_SECRET_SIZE: i64 = 1024 * 1024;

/// A Secret's value as bytes (the JSON holds it in base64; the decoder refused a body
/// that is not).
fn decoded(value: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text(value))
        .unwrap_or_default()
}

fn size(bytes: usize) -> i64 {
    i64::try_from(bytes).unwrap_or(i64::MAX)
}

/// `ValidateSecret`.
pub(super) fn validate_secret(secret: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &secret["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let data_path = Path::new("data");
    let data = &secret["data"];
    let mut total = 0i64;
    for (key, value) in entries(data) {
        errors.extend(invalid_each(&data_path.key(key), key, &util::is_config_map_key(key)));
        total = total.saturating_add(size(decoded(value).len()));
    }
    if total > MAX_SECRET_SIZE {
        errors.push(data_path.too_long(MAX_SECRET_SIZE));
    }
    let required = |key: &str| data_path.key(key).required("");
    match text(&secret["type"]) {
        "kubernetes.io/service-account-token" => {
            let account = text(&secret["metadata"]["annotations"]["kubernetes.io/service-account.name"]);
            if account.is_empty() {
                errors.push(
                    Path::new("metadata")
                        .child("annotations")
                        .key("kubernetes.io/service-account.name")
                        .required(""),
                );
            }
        }
        kind @ ("kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson") => {
            let key = if kind == "kubernetes.io/dockercfg" {
                ".dockercfg"
            } else {
                ".dockerconfigjson"
            };
            match data.get(key) {
                None => errors.push(required(key)),
                Some(value) => {
                    if let Err(message) = json_object(&decoded(value)) {
                        errors.push(data_path.key(key).invalid("<secret contents redacted>", &message));
                    }
                }
            }
        }
        "kubernetes.io/basic-auth" if data.get("username").is_none() && data.get("password").is_none() => {
            errors.push(required("username"));
            errors.push(required("password"));
        }
        "kubernetes.io/ssh-auth" if data.get("ssh-privatekey").is_none_or(|v| decoded(v).is_empty()) => {
            errors.push(required("ssh-privatekey"));
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if data.get(key).is_none() {
                    errors.push(required(key));
                }
            }
        }
        _ => {}
    }
    errors
}

/// Whether `bytes` decode as Go's `json.Unmarshal` into a `map[string]interface{}`
/// would; its error message when not.
fn json_object(bytes: &[u8]) -> Result<(), String> {
    if let Some(message) = go_json::syntax_error(bytes) {
        return Err(message);
    }
    // One valid value: its first byte says its kind.
    let kind = match bytes.iter().find(|c| !c.is_ascii_whitespace()) {
        Some(b'{' | b'n') | None => return Ok(()),
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b't' | b'f') => "bool",
        Some(_) => "number",
    };
    Err(format!(
        "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
    ))
}

/// `ValidateSecretUpdate`.
pub(super) fn validate_secret_update(new: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(super::validate_immutable_string(
        &new["type"],
        &old["type"],
        &Path::new("type"),
    ));
    if old["immutable"] == true {
        errors.extend(immutable_fields(new, old, &["data"]));
    }
    errors.extend(validate_secret(new));
    errors
}

/// What `immutable: true` keeps: the flag itself and the data.
fn immutable_fields(new: &Value, old: &Value, fields: &[&str]) -> ErrorList {
    const DETAIL: &str = "field is immutable when `immutable` is set";
    let mut errors = ErrorList::new();
    if new["immutable"] != true {
        errors.push(Path::new("immutable").forbidden(DETAIL));
    }
    for field in fields {
        if !crate::json::same(&new[*field], &old[*field]) {
            errors.push(Path::new(field).forbidden(DETAIL));
        }
    }
    errors
}

/// `ValidateConfigMap`: keys, no key in both `data` and `binaryData`, 1 MiB in all.
pub(super) fn validate_config_map(config: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &config["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let mut total = 0i64;
    for (key, value) in entries(&config["data"]) {
        let key_path = Path::new("data").key(key);
        errors.extend(invalid_each(&key_path, key, &util::is_config_map_key(key)));
        if config["binaryData"].get(key).is_some() {
            errors.push(key_path.invalid(key.as_str(), "duplicate of key present in binaryData"));
        }
        total = total.saturating_add(size(text(value).len()));
    }
    for (key, value) in entries(&config["binaryData"]) {
        errors.extend(invalid_each(
            &Path::new("binaryData").key(key),
            key,
            &util::is_config_map_key(key),
        ));
        total = total.saturating_add(size(decoded(value).len()));
    }
    if total > MAX_SECRET_SIZE {
        errors.push(empty_path().too_long(MAX_SECRET_SIZE));
    }
    errors
}

/// `ValidateConfigMapUpdate`.
pub(super) fn validate_config_map_update(new: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &Path::new("metadata"));
    if old["immutable"] == true {
        errors.extend(immutable_fields(new, old, &["data", "binaryData"]));
    }
    errors.extend(validate_config_map(new));
    errors
}

/// `ValidateServiceAccount`.
pub(super) fn validate_service_account(account: &Value) -> ErrorList {
    validate_object_meta(
        &account["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    )
}

/// `ValidateServiceAccountUpdate`.
pub(super) fn validate_service_account_update(new: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_service_account(new));
    errors
}
