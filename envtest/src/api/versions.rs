//! What a list or watch may ask of resourceVersions, checked before anything is read,
//! as kube-apiserver checks it: the combinations `ValidateListOptions` refuses (422
//! `ListOptions.meta.k8s.io "" is invalid`), and a list from a revision the server has
//! not reached yet, which waits for it and then answers 504 `ResourceVersionTooLarge`.
//!
//! Where 1.32's rules come from: `ValidateListOptions` in apimachinery's
//! `meta/internalversion/validation` (with the `WatchList` gate on, so
//! `sendInitialEvents` is allowed on watches), and the watch cache's
//! `waitUntilFreshAndBlock` (a 3 s wait, then `NewTooLargeResourceVersionError` with a
//! retry after 1 s) for lists it serves, `NotOlderThan` ones with a `limit` included;
//! lists it hands to etcd (`Exact`, or a `limit` with a resourceVersion and no match)
//! fail at once with etcd's 500 "required revision is a future revision", as a real
//! 1.32 answers them.
//!
//! May import: `core`, `request`, `state`.

use std::time::Duration;

use serde_json::json;

use crate::core::ApiError;
use crate::request::Target;
use crate::state::ApiServer;

/// The match values a list may ask for.
const EXACT: &str = "Exact";
const NOT_OLDER_THAN: &str = "NotOlderThan";

/// How often a list waiting for a future revision looks again.
const POLL: Duration = Duration::from_millis(5);

/// `ValidateListOptions`: the 422 of a list or watch whose `resourceVersionMatch`,
/// `resourceVersion`, `continue` and `sendInitialEvents` do not go together.
pub(crate) fn validate(target: &Target, watch: bool) -> Result<(), ApiError> {
    let version = target.param("resourceVersion");
    let matching = target.param("resourceVersionMatch");
    let continues = target.param("continue").is_some();
    let initial_events = target.param("sendInitialEvents").is_some();
    let mut causes: Vec<(&str, &str, String)> = Vec::new();
    let forbidden = |detail: &str| {
        (
            "resourceVersionMatch",
            "FieldValueForbidden",
            format!("Forbidden: {detail}"),
        )
    };
    let not_supported = |value: &str, supported: &[&str]| {
        let supported: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
        (
            "resourceVersionMatch",
            "FieldValueNotSupported",
            format!(
                "Unsupported value: \"{value}\": supported values: {}",
                supported.join(", ")
            ),
        )
    };
    if watch {
        if initial_events && matching != Some(NOT_OLDER_THAN) {
            causes.push(forbidden(
                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ));
        }
        if let Some(matching) = matching {
            if !initial_events {
                causes.push(forbidden(
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if matching != NOT_OLDER_THAN {
                causes.push(not_supported(matching, &[NOT_OLDER_THAN]));
            }
            if continues {
                causes.push(forbidden("resourceVersionMatch is forbidden when continue is provided"));
            }
        }
    } else {
        if let Some(matching) = matching {
            if version.is_none() {
                causes.push(forbidden(
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ));
            }
            if continues {
                causes.push(forbidden("resourceVersionMatch is forbidden when continue is provided"));
            }
            if matching != EXACT && matching != NOT_OLDER_THAN {
                causes.push(not_supported(matching, &[EXACT, NOT_OLDER_THAN, ""]));
            }
            if matching == EXACT && version == Some("0") {
                causes.push(forbidden(
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
        }
        if initial_events {
            causes.push((
                "sendInitialEvents",
                "FieldValueForbidden",
                "Forbidden: sendInitialEvents is forbidden for list".to_owned(),
            ));
        }
    }
    if causes.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid_kind("meta.k8s.io", "ListOptions", "", &causes))
}

/// For a list from a resourceVersion above the server's revision: waits (as the
/// watch cache does) for the server to reach it, up to the configured wait, then
/// answers 504. Lists kube-apiserver sends to etcd fail at once. Nothing to wait for
/// on a continuation (its revision is the token's) or an unparseable version (the
/// read answers that).
pub(crate) async fn wait_for_revision(server: &ApiServer, target: &Target) -> Result<(), ApiError> {
    if target.param("continue").is_some() {
        return Ok(());
    }
    let Some(wanted) = target.param("resourceVersion").and_then(|v| v.parse::<u64>().ok()) else {
        return Ok(());
    };
    if wanted == 0 || server.revision() >= wanted {
        return Ok(());
    }
    let matching = target.param("resourceVersionMatch");
    let from_etcd = matching == Some(EXACT) || (matching.is_none() && target.param("limit").is_some());
    if from_etcd {
        return Err(ApiError::new(
            500,
            "",
            "etcdserver: mvcc: required revision is a future revision",
        ));
    }
    let deadline = tokio::time::Instant::now() + server.options().future_resource_version_wait;
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(POLL).await;
        if server.revision() >= wanted {
            return Ok(());
        }
    }
    Err(too_large(wanted, server.revision(), 1))
}

/// `storage.NewTooLargeResourceVersionError`: a 504 `Timeout` whose cause says
/// `ResourceVersionTooLarge`, with the seconds to wait before retrying.
fn too_large(wanted: u64, current: u64, retry_after: u64) -> ApiError {
    let mut error = ApiError::new(
        504,
        "Timeout",
        format!("Timeout: Too large resource version: {wanted}, current: {current}"),
    );
    error.details = Some(json!({
        "causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}],
    }));
    error.retry_after = Some(retry_after);
    error
}
