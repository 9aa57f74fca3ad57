//! `DeleteOptions` as kube-apiserver reads them: from the request body when there is
//! one, else from the query string (never a mix of the two), then validated.
//!
//! kube-apiserver: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/delete.go`
//! (`DeleteResource`, `DeleteCollection`) reads them; `ValidateDeleteOptions` in
//! `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go` checks them.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::DeleteOptions as WireOptions;
use serde_json::{Value, json};

use crate::core::ApiError;
use crate::request::Target;

/// What a delete asks for, once read and validated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DeleteOptions {
    /// `dryRun: [All]`: everything is checked and answered, nothing is stored.
    pub dry_run: bool,
    /// `propagationPolicy`, or the deprecated `orphanDependents` turned into one.
    pub propagation: Option<Propagation>,
    /// `gracePeriodSeconds`; negative values count as 1, as the real server treats them.
    pub grace_period_seconds: Option<i64>,
    /// `preconditions.uid`.
    pub uid: Option<String>,
    /// `preconditions.resourceVersion`.
    pub resource_version: Option<String>,
}

/// How a deleted owner's dependents are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Propagation {
    /// The dependents go first; the owner waits for them (`foregroundDeletion`).
    Foreground,
    /// The owner goes now; the garbage collector deletes the dependents afterwards.
    Background,
    /// The dependents stay, without their owner reference (`orphan`).
    Orphan,
}

impl DeleteOptions {
    /// Options that delete at once, with nothing held: what the server's own
    /// controllers use when they remove an object.
    pub fn background() -> Self {
        Self::default()
    }

    /// Options with only a propagation policy.
    pub fn propagating(propagation: Option<Propagation>) -> Self {
        Self {
            propagation,
            ..Self::default()
        }
    }

    /// Reads options sent inside another object (an Eviction's `deleteOptions`).
    pub fn read_body(body: &Value) -> Result<Self, ApiError> {
        let wire = from_body(body)?;
        validate(&wire)?;
        Ok(Self::from_wire(wire))
    }

    /// Reads the options of a delete: the body when the request had one, else the
    /// query string. The body is decoded as the delete handler decodes it, into the
    /// meta group's `DeleteOptions`, and what does not decode is a plain error, a 500:
    /// a body that is not JSON, another kind, a field of the wrong type.
    pub fn read(body: Option<&[u8]>, target: &Target) -> Result<Self, ApiError> {
        let wire = match body {
            Some(body) => from_delete_body(body)?,
            None => from_query(target)?,
        };
        validate(&wire)?;
        Ok(Self::from_wire(wire))
    }

    fn from_wire(wire: WireOptions) -> Self {
        let propagation = match (wire.propagation_policy.as_deref(), wire.orphan_dependents) {
            (Some("Foreground"), _) => Some(Propagation::Foreground),
            (Some("Background"), _) | (None, Some(false)) => Some(Propagation::Background),
            (Some(_), _) | (None, Some(true)) => Some(Propagation::Orphan),
            (None, None) => None,
        };
        let preconditions = wire.preconditions.unwrap_or_default();
        Self {
            dry_run: wire.dry_run.is_some_and(|values| !values.is_empty()),
            propagation,
            grace_period_seconds: wire
                .grace_period_seconds
                .map(|seconds| if seconds < 0 { 1 } else { seconds }),
            uid: preconditions.uid,
            resource_version: preconditions.resource_version,
        }
    }

    /// The options as admission webhooks receive them (`AdmissionReview.request.options`).
    pub fn to_json(&self) -> Value {
        let mut options = json!({"kind": "DeleteOptions", "apiVersion": "meta.k8s.io/v1"});
        if self.dry_run {
            options["dryRun"] = json!(["All"]);
        }
        if let Some(seconds) = self.grace_period_seconds {
            options["gracePeriodSeconds"] = json!(seconds);
        }
        if let Some(propagation) = self.propagation {
            options["propagationPolicy"] = json!(format!("{propagation:?}"));
        }
        options
    }
}

/// The body: a `DeleteOptions` of any group version (clients send `v1` or
/// `meta.k8s.io/v1`); a field of the wrong type is a bad request.
fn from_body(body: &Value) -> Result<WireOptions, ApiError> {
    if !body.is_object() {
        return Err(ApiError::bad_request(
            "the body of a delete must be a DeleteOptions object",
        ));
    }
    serde_json::from_value(body.clone())
        .map_err(|error| ApiError::bad_request(format!("the DeleteOptions in the body could not be decoded: {error}")))
}

/// The body of a delete, as `DeleteResource` decodes it (see [`DeleteOptions::read`]).
fn from_delete_body(body: &[u8]) -> Result<WireOptions, ApiError> {
    let plain = |message: String| ApiError::new(500, "", message);
    let body: Value = crate::core::decode_json(body)
        .map_err(|why| plain(format!("couldn't get version/kind; json parse error: {why}")))?;
    let Some(fields) = body.as_object() else {
        return Err(plain(format!(
            "couldn't get version/kind; json parse error: json: cannot unmarshal {} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
            crate::core::go_json_type(&body)
        )));
    };
    let text = |field: &str| fields.get(field).and_then(Value::as_str).unwrap_or_default();
    let (kind, api_version) = (text("kind"), text("apiVersion"));
    match kind {
        "" | "DeleteOptions" => {}
        "ListOptions" | "GetOptions" | "CreateOptions" | "UpdateOptions" | "PatchOptions" => {
            return Err(plain("decoded object cannot be converted to DeleteOptions".into()));
        }
        other => {
            let version = if api_version.is_empty() {
                "meta.k8s.io/v1"
            } else {
                api_version
            };
            return Err(plain(format!(
                "no kind \"{other}\" is registered for version \"{version}\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\""
            )));
        }
    }
    serde_json::from_value(body.clone()).map_err(|error| plain(error.to_string()))
}

/// The query: `dryRun`, `gracePeriodSeconds`, `orphanDependents`, `propagationPolicy`
/// (preconditions cannot be sent this way).
fn from_query(target: &Target) -> Result<WireOptions, ApiError> {
    let grace_period_seconds = match target.param("gracePeriodSeconds") {
        Some(text) => Some(
            text.parse::<i64>()
                .map_err(|_| ApiError::bad_request(format!("strconv.ParseInt: parsing \"{text}\": invalid syntax")))?,
        ),
        None => None,
    };
    let orphan_dependents = match target.param("orphanDependents") {
        Some(text) => Some(
            text.parse::<bool>()
                .map_err(|_| ApiError::bad_request(format!("strconv.ParseBool: parsing \"{text}\": invalid syntax")))?,
        ),
        None => None,
    };
    Ok(WireOptions {
        // Every value, empty ones too: `?dryRun=` is refused, never a real delete.
        dry_run: target.dry_run.clone(),
        grace_period_seconds,
        orphan_dependents,
        propagation_policy: target.param("propagationPolicy").map(str::to_owned),
        ..WireOptions::default()
    })
}

/// `ValidateDeleteOptions`: 422 with the real server's causes.
fn validate(options: &WireOptions) -> Result<(), ApiError> {
    let mut causes: Vec<(&str, &str, String)> = Vec::new();
    if let (Some(_), Some(policy)) = (options.orphan_dependents, &options.propagation_policy) {
        causes.push((
            "propagationPolicy",
            "FieldValueInvalid",
            format!("Invalid value: \"{policy}\": orphanDependents and deletionPropagation cannot be both set"),
        ));
    }
    if let Some(policy) = &options.propagation_policy
        && !matches!(policy.as_str(), "Foreground" | "Background" | "Orphan")
    {
        causes.push((
            "propagationPolicy",
            "FieldValueNotSupported",
            format!(
                "Unsupported value: \"{policy}\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
            ),
        ));
    }
    if let Some(values) = &options.dry_run
        && values.iter().any(|value| value != "All")
    {
        let quoted: Vec<String> = values.iter().map(|value| format!("{value:?}")).collect();
        causes.push((
            "dryRun",
            "FieldValueNotSupported",
            format!(
                "Unsupported value: []string{{{}}}: supported values: \"All\"",
                quoted.join(", ")
            ),
        ));
    }
    if causes.is_empty() {
        return Ok(());
    }
    Err(invalid_options(&causes))
}

/// 422 for a `DeleteOptions.meta.k8s.io` that breaks a rule.
fn invalid_options(causes: &[(&str, &str, String)]) -> ApiError {
    let summary: Vec<String> = causes
        .iter()
        .map(|(field, _, detail)| format!("{field}: {detail}"))
        .collect();
    let summary = if summary.len() == 1 {
        summary[0].clone()
    } else {
        format!("[{}]", summary.join(", "))
    };
    let mut error = ApiError::new(
        422,
        "Invalid",
        format!("DeleteOptions.meta.k8s.io \"\" is invalid: {summary}"),
    );
    let causes: Vec<Value> = causes
        .iter()
        .map(|(field, reason, message)| json!({"reason": reason, "message": message, "field": field}))
        .collect();
    error.details = Some(json!({"group": "meta.k8s.io", "kind": "DeleteOptions", "causes": causes}));
    error
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn target(query: &[(&str, &str)]) -> Target {
        let registry = crate::resources::registry::Registry::default();
        let query: HashMap<String, String> = query.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        crate::request::parse(
            &registry,
            &http::Method::DELETE,
            "/api/v1/namespaces/default/configmaps/c1",
            query,
        )
        .unwrap()
        .unwrap()
    }

    #[test]
    fn the_body_wins_over_the_query_and_is_read_whole() {
        let body = json!({"kind": "DeleteOptions", "apiVersion": "v1", "dryRun": ["All"], "propagationPolicy": "Foreground",
            "gracePeriodSeconds": 5, "preconditions": {"uid": "u", "resourceVersion": "7"}});
        let options = DeleteOptions::read(
            Some(body.to_string().as_bytes()),
            &target(&[("propagationPolicy", "Orphan")]),
        )
        .unwrap();
        assert_eq!(
            options,
            DeleteOptions {
                dry_run: true,
                propagation: Some(Propagation::Foreground),
                grace_period_seconds: Some(5),
                uid: Some("u".into()),
                resource_version: Some("7".into()),
            }
        );
        // A body, even an empty object, means the query is not read at all.
        let options = DeleteOptions::read(Some(b"{}"), &target(&[("dryRun", "All")])).unwrap();
        assert!(!options.dry_run);
    }

    #[test]
    fn without_a_body_the_query_is_read() {
        let options = DeleteOptions::read(
            None,
            &target(&[
                ("dryRun", "All"),
                ("gracePeriodSeconds", "-3"),
                ("orphanDependents", "true"),
            ]),
        )
        .unwrap();
        assert_eq!(
            (options.dry_run, options.propagation, options.grace_period_seconds),
            (true, Some(Propagation::Orphan), Some(1))
        );
        let error = DeleteOptions::read(None, &target(&[("gracePeriodSeconds", "abc")])).unwrap_err();
        assert_eq!(error.code, 400);
    }

    #[test]
    fn invalid_options_are_refused_as_the_real_server_words_it() {
        let error = DeleteOptions::read(Some(br#"{"dryRun": ["Bogus"]}"#), &target(&[])).unwrap_err();
        assert_eq!(error.code, 422);
        assert_eq!(
            error.message,
            "DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Bogus\"}: supported values: \"All\""
        );
        let both = json!({"orphanDependents": true, "propagationPolicy": "Background"});
        let error = DeleteOptions::read(Some(both.to_string().as_bytes()), &target(&[])).unwrap_err();
        assert!(
            error
                .message
                .contains("orphanDependents and deletionPropagation cannot be both set")
        );
    }

    #[test]
    fn a_body_that_does_not_decode_is_the_handler_s_plain_error() {
        for (body, message) in [
            (&b"{not json"[..], "couldn't get version/kind; json parse error: "),
            (br#"{"propagationPolicy": 5}"#, "invalid type"),
            (
                br#"{"kind": "Pod", "apiVersion": "v1"}"#,
                "no kind \"Pod\" is registered for version \"v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\"",
            ),
            (
                br#"{"kind": "ListOptions"}"#,
                "decoded object cannot be converted to DeleteOptions",
            ),
        ] {
            let error = DeleteOptions::read(Some(body), &target(&[])).unwrap_err();
            assert_eq!((error.code, error.reason.as_ref()), (500, ""), "{error:?}");
            assert!(error.message.starts_with(message), "{}", error.message);
        }
    }
}
