//! The `continue` token of a paged list, as kube-apiserver's storage writes and reads
//! it (`storage.EncodeContinue`, `DecodeContinue`): unpadded URL-safe base64 of
//! `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the last one served>"}`,
//! the key relative to the list's prefix (`<namespace>/<name>` across namespaces,
//! `<name>` within one) with a NUL byte appended. A token that does not read is the
//! storage's 400 `invalid continue token: ...`, in its words.

use std::ops::Bound;

use base64::Engine;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::{DecodePaddingMode, general_purpose};
use serde_json::{Value, json};

use crate::core::{ApiError, ResourceType};
use crate::store::ObjectKey;

/// The only version of the token.
const VERSION: &str = "meta.k8s.io/v1";

/// Go's `base64.RawURLEncoding` reading: no padding, trailing bits not checked.
const RAW_URL: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// The token of a list of `resource` (in `namespace`, or across them) at `revision`
/// whose last object served is `last`.
pub(super) fn encode(resource: &ResourceType, namespace: Option<&str>, revision: u64, last: &ObjectKey) -> String {
    let (object_namespace, name) = last;
    let start = if namespace.is_none() && resource.namespaced {
        format!("{object_namespace}/{name}\0")
    } else {
        format!("{name}\0")
    };
    let token = json!({"v": VERSION, "rv": revision, "start": start});
    general_purpose::URL_SAFE_NO_PAD.encode(token.to_string())
}

/// Where a list continues and at which revision, from its `token`.
pub(super) fn decode(
    resource: &ResourceType,
    namespace: Option<&str>,
    token: &str,
) -> Result<(u64, Bound<ObjectKey>), ApiError> {
    let invalid = |why: String| ApiError::bad_request(format!("invalid continue token: {why}"));
    let generic = "continue key is not valid";
    let data = RAW_URL
        .decode(token)
        .map_err(|error| invalid(format!("{generic}: {}", base64_error(token, &error))))?;
    let decoded = crate::core::decode_json(&data).map_err(|why| invalid(format!("{generic}: {why}")))?;
    let field = |name: &str, go_type: &str, value: &Value| {
        format!(
            "{generic}: json: cannot unmarshal {} into Go struct field continueToken.{name} of type {go_type}",
            { crate::core::go_json_type(value) }
        )
    };
    let Value::Object(fields) = &decoded else {
        return Err(invalid(format!(
            "{generic}: json: cannot unmarshal {} into Go value of type storage.continueToken",
            crate::core::go_json_type(&decoded)
        )));
    };
    let text = |name: &str| match fields.get(name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(invalid(field(name, "string", other))),
    };
    let version = text("v")?;
    let start = text("start")?;
    let revision = match fields.get("rv") {
        None | Some(Value::Null) => 0,
        Some(Value::Number(number)) => number.as_i64().ok_or_else(|| {
            invalid(format!(
                "{generic}: json: cannot unmarshal number {number} into Go struct field continueToken.rv of type int64"
            ))
        })?,
        Some(other) => return Err(invalid(field("rv", "int64", other))),
    };
    if version != VERSION {
        return Err(invalid(format!(
            "{generic}: server does not recognize this encoded version {version}"
        )));
    }
    if revision == 0 {
        return Err(invalid(format!(
            "{generic}: incorrect encoded start resourceVersion (version {VERSION})"
        )));
    }
    if start.is_empty() {
        return Err(invalid(format!(
            "{generic}: encoded start key empty (version {VERSION})"
        )));
    }
    // `path.Clean` must leave the key as it is: no `..`, no doubled or trailing slash.
    let rooted = if start.starts_with('/') {
        start.clone()
    } else {
        format!("/{start}")
    };
    if clean(&rooted) != rooted {
        return Err(invalid(format!("{generic}: {start}")));
    }
    let revision = u64::try_from(revision).map_err(|_| {
        invalid(format!(
            "{generic}: incorrect encoded start resourceVersion (version {VERSION})"
        ))
    })?;
    let key = rooted[1..].to_owned();
    let (key, bound): (String, fn(ObjectKey) -> Bound<ObjectKey>) = match key.strip_suffix('\0') {
        Some(last) => (last.to_owned(), Bound::Excluded),
        None => (key, Bound::Included),
    };
    let key = match namespace {
        Some(namespace) => (namespace.to_owned(), key),
        None if resource.namespaced => match key.split_once('/') {
            Some((namespace, name)) => (namespace.to_owned(), name.to_owned()),
            None => (key, String::new()),
        },
        None => (String::new(), key),
    };
    Ok((revision, bound(key)))
}

/// Go's `base64.CorruptInputError` for `token`: the byte at which reading failed.
fn base64_error(token: &str, error: &base64::DecodeError) -> String {
    let offset = match error {
        base64::DecodeError::InvalidByte(offset, _) | base64::DecodeError::InvalidLastSymbol(offset, _) => *offset,
        // One symbol left over: Go reports the byte where its quantum began.
        base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidPadding => token.len() - token.len() % 4,
    };
    format!("illegal base64 data at input byte {offset}")
}

/// Go's `path.Clean` of a rooted path.
fn clean(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config_maps() -> ResourceType {
        crate::resources::catalogue::resource_types()
            .iter()
            .find(|t| t.group.is_empty() && t.kind == "ConfigMap")
            .map(|t| (**t).clone())
            .expect("a built-in type")
    }

    fn message(result: Result<(u64, Bound<ObjectKey>), ApiError>) -> String {
        result.err().map(|error| error.message).unwrap_or_default()
    }

    #[test]
    fn tokens_read_back_where_they_were_written() {
        let config_maps = config_maps();
        let last = ("ns".to_owned(), "b".to_owned());
        for namespace in [None, Some("ns")] {
            let token = encode(&config_maps, namespace, 7, &last);
            let (revision, start) = decode(&config_maps, namespace, &token).expect("a token");
            assert_eq!((revision, start), (7, Bound::Excluded(last.clone())));
        }
    }

    #[test]
    fn tokens_that_do_not_read_are_refused_in_the_storage_s_words() {
        let config_maps = config_maps();
        let read = |token: &str| message(decode(&config_maps, None, token));
        assert_eq!(
            read("bogus"),
            "invalid continue token: continue key is not valid: illegal base64 data at input byte 4"
        );
        let encoded = |value: Value| general_purpose::URL_SAFE_NO_PAD.encode(value.to_string());
        assert_eq!(
            read(&encoded(json!({"v": "meta.k8s.io/v1", "rv": 0, "start": "a"}))),
            "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
        );
        assert_eq!(
            read(&encoded(json!({"v": "other", "rv": 1, "start": "a"}))),
            "invalid continue token: continue key is not valid: server does not recognize this encoded version other"
        );
        assert_eq!(
            read(&encoded(json!({"v": "meta.k8s.io/v1", "rv": 1, "start": "../a"}))),
            "invalid continue token: continue key is not valid: ../a"
        );
        assert_eq!(
            read(&encoded(json!({"v": "meta.k8s.io/v1", "rv": "1", "start": "a"}))),
            "invalid continue token: continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64"
        );
    }
}
