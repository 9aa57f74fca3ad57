//! The validation of the `coordination.k8s.io` API group's kinds
//! (`pkg/apis/coordination/validation`): Leases (`ValidateLease`,
//! `ValidateLeaseUpdate`) and `LeaseCandidates` (`ValidateLeaseCandidate`,
//! `ValidateLeaseCandidateUpdate`). A Lease's `strategy` and `preferredHolder` belong
//! to the `CoordinatedLeaderElection` gate, off in 1.32: the strategy drops them unless
//! the stored Lease had them, so they are checked only then.

use serde_json::Value;

use crate::common::fields::{immutable_string, validate_config_map_key_name};
use crate::common::names::{name_is_dns_subdomain, qualified_name};
use crate::common::read::{is_set, opt_int, opt_text, text};
use crate::field::{ErrorList, Path};
use crate::meta::{validate_object_meta, validate_object_meta_update};
use crate::{Kind, Write};

/// The strategies a coordinated Lease may name (`validLeaseStrategies`).
const STRATEGIES: [&str; 1] = ["OldestEmulationVersion"];

/// The errors in `object`, a `coordination.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    let metadata = Path::new("metadata");
    let spec = Path::new("spec");
    match (kind.kind, write.old()) {
        ("Lease", None) => {
            let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &metadata);
            errors.extend(validate_lease_spec(&object["spec"], None, &spec));
            errors
        }
        ("Lease", Some(old)) => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata);
            errors.extend(validate_lease_spec(&object["spec"], Some(&old["spec"]), &spec));
            errors
        }
        ("LeaseCandidate", old) => {
            let mut errors = match old {
                None => validate_object_meta(&object["metadata"], true, validate_config_map_key_name, &metadata),
                Some(old) => validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata),
            };
            errors.extend(validate_lease_candidate_spec(&object["spec"], &spec));
            if let Some(old) = old {
                errors.extend(immutable_string(
                    &object["spec"]["leaseName"],
                    &old["spec"]["leaseName"],
                    &spec.child("leaseName"),
                ));
            }
            errors
        }
        _ => ErrorList::new(),
    }
}

/// `ValidateLeaseSpec`, of the fields the strategy keeps.
fn validate_lease_spec(spec: &Value, old: Option<&Value>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(duration) = opt_int(&spec["leaseDurationSeconds"]).filter(|d| *d <= 0) {
        errors.push(
            path.child("leaseDurationSeconds")
                .invalid(&Value::from(duration), "must be greater than 0"),
        );
    }
    if let Some(transitions) = opt_int(&spec["leaseTransitions"]).filter(|t| *t < 0) {
        errors.push(
            path.child("leaseTransitions")
                .invalid(&Value::from(transitions), "must be greater than or equal to 0"),
        );
    }
    let kept = |field: &str| old.is_some_and(|old| is_set(&old[field]));
    let strategy = opt_text(&spec["strategy"]).filter(|_| kept("strategy"));
    if let Some(strategy) = strategy {
        errors.extend(validate_coordinated_lease_strategy(strategy, &path.child("strategy")));
    }
    let preferred = opt_text(&spec["preferredHolder"]).filter(|_| kept("preferredHolder"));
    if preferred.is_some_and(|p| !p.is_empty()) && strategy.is_none_or(str::is_empty) {
        errors.push(
            path.child("preferredHolder")
                .forbidden("may only be specified if `strategy` is defined"),
        );
    }
    errors
}

/// `ValidateCoordinatedLeaseStrategy`: a known strategy, or a qualified name of
/// someone else's (kube nests the field name twice in the path).
fn validate_coordinated_lease_strategy(strategy: &str, path: &Path) -> ErrorList {
    let path = path.child("strategy");
    if strategy.split('/').count() == 1 {
        if !STRATEGIES.contains(&strategy) {
            return vec![path.not_supported(strategy, &STRATEGIES)];
        }
        return ErrorList::new();
    }
    qualified_name(strategy)
        .iter()
        .map(|message| path.invalid(strategy, message))
        .collect()
}

/// `ValidateLeaseCandidateSpec`.
fn validate_lease_candidate_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if text(&spec["leaseName"]).is_empty() {
        errors.push(path.child("leaseName").required(""));
    }
    let emulation = text(&spec["emulationVersion"]);
    let mut emulation_version = Some((0, 0, 0));
    if !emulation.is_empty() {
        emulation_version = parse_semver(emulation);
        if emulation_version.is_none() {
            errors.push(
                path.child("emulationVersion")
                    .invalid(emulation, "must be a valid semantic version"),
            );
        }
    }
    let binary = text(&spec["binaryVersion"]);
    let mut binary_version = Some((0, 0, 0));
    if binary.is_empty() {
        errors.push(path.child("binaryVersion").required(""));
    } else {
        binary_version = parse_semver(binary);
        if binary_version.is_none() {
            errors.push(
                path.child("binaryVersion")
                    .invalid(binary, "must be a valid semantic version"),
            );
        }
    }
    // A version that failed to parse reads as 0.0.0, as Go's zero `semver.Version`.
    let (ev, bv) = (
        emulation_version.unwrap_or_default(),
        binary_version.unwrap_or_default(),
    );
    if !binary.is_empty() && !emulation.is_empty() && bv < ev {
        errors.push(
            path.child("binaryVersion")
                .invalid(binary, "must be greater than or equal to `emulationVersion`"),
        );
    }
    let strategy = text(&spec["strategy"]);
    if strategy.is_empty() {
        errors.push(path.child("strategy").required(""));
    } else {
        if strategy == "OldestEmulationVersion" && ev == (0, 0, 0) {
            errors.push(
                path.child("emulationVersion")
                    .required("must be specified when `strategy` is 'OldestEmulationVersion'"),
            );
        }
        errors.extend(validate_coordinated_lease_strategy(strategy, &path.child("strategy")));
    }
    errors
}

/// `semver.Parse`'s major, minor and patch (pre-release and build parts are accepted
/// and, for this comparison, ignored); None when the text is not a version.
fn parse_semver(text: &str) -> Option<(u64, u64, u64)> {
    let core = text.split(['-', '+']).next()?;
    let parts: Vec<&str> = core.split('.').collect();
    let [major, minor, patch] = parts.as_slice() else {
        return None;
    };
    let number = |part: &str| -> Option<u64> {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) || (part.len() > 1 && part.starts_with('0')) {
            return None;
        }
        part.parse().ok()
    };
    Some((number(major)?, number(minor)?, number(patch)?))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn leases_and_candidates() {
        let lease = json!({"metadata": {"name": "l"}, "spec": {"leaseDurationSeconds": 0, "strategy": "bogus"}});
        assert_eq!(
            errors("coordination.k8s.io", "v1", "Lease", &lease, Write::Create),
            ["spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"]
        );
        let candidate = json!({"metadata": {"name": "c"}, "spec": {"binaryVersion": "1.2", "emulationVersion": "1.30.0", "strategy": "OldestEmulationVersion"}});
        assert_eq!(
            errors(
                "coordination.k8s.io",
                "v1beta1",
                "LeaseCandidate",
                &candidate,
                Write::Create
            ),
            [
                "spec.leaseName: Required value",
                "spec.binaryVersion: Invalid value: \"1.2\": must be a valid semantic version",
                "spec.binaryVersion: Invalid value: \"1.2\": must be greater than or equal to `emulationVersion`",
            ]
        );
    }
}
