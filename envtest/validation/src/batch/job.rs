//! Jobs' specs: `ValidateJob`, `ValidateJobUpdate`, `ValidateJobSpec`,
//! `validateJobSpec` (which a `CronJob`'s job template shares), the pod failure and
//! success policies, and the options the Job strategy computes
//! (`validationOptionsForJob`): prefixed labels required of Jobs created since they
//! existed, and scheduling fields mutable while a Job is suspended and never started.

use serde_json::Value;
use wheelhouse_envtest_schema::errors::BadValue;

use super::indexes::validate_indexes_format;
use crate::common::fields::{
    immutable, immutable_plain, nonnegative, nonnegative_if_set, validate_domain_prefixed_path, validate_has_label,
    validate_qualified_name,
};
use crate::common::go_syntax::{GoStruct, approximate, label_selector, pointer, raw, slice, string_map};
use crate::common::labels::label_selector_as_selector;
use crate::common::names::{dns1123_label, name_is_dns_subdomain};
use crate::common::read::{entries, flag, int, is_set, items, opt_int, opt_text, semantic_eq, text};
use crate::core;
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;

const LEGACY_CONTROLLER_UID: &str = "controller-uid";
const LEGACY_JOB_NAME: &str = "job-name";
const CONTROLLER_UID: &str = "batch.kubernetes.io/controller-uid";
const JOB_NAME: &str = "batch.kubernetes.io/job-name";

const MAX_PARALLELISM_FOR_INDEXED_JOB: i64 = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB: i64 = 100_000;
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_POD_FAILURE_POLICY_RULES: i64 = 20;
const MAX_ON_EXIT_CODES_VALUES: i64 = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS: i64 = 20;
const MAX_MANAGED_BY_LENGTH: i64 = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH: i64 = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES: i64 = 20;

/// `JobValidationOptions`, as `validationOptionsForJob` sets them.
#[derive(Debug, Clone, Copy)]
pub(super) struct JobOptions {
    /// The template's scheduling fields may change (a suspended Job never started).
    pub(super) mutable_scheduling: bool,
    /// The `batch.kubernetes.io/` labels must be on the template.
    pub(super) require_prefixed_labels: bool,
}

/// `validationOptionsForJob` for a create (`old` None) or an update.
pub(super) fn job_options(old: Option<&Value>) -> JobOptions {
    let Some(old) = old else {
        return JobOptions {
            mutable_scheduling: false,
            require_prefixed_labels: true,
        };
    };
    let labels = entries(&old["spec"]["template"]["metadata"]["labels"]);
    let has = |key: &str| labels.is_some_and(|l| l.contains_key(key));
    JobOptions {
        mutable_scheduling: flag(&old["spec"]["suspend"]) && old["status"]["startTime"].is_null(),
        require_prefixed_labels: has(JOB_NAME) && has(CONTROLLER_UID),
    }
}

/// `ValidateJob`.
pub(super) fn validate_job(job: &Value, options: JobOptions) -> ErrorList {
    let metadata = &job["metadata"];
    // Jobs share the ReplicationController's name rule, a DNS subdomain.
    let mut errors = validate_object_meta(metadata, true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_generated_selector(job, options.require_prefixed_labels));
    let spec = &job["spec"];
    errors.extend(validate_job_spec(spec, &Path::new("spec")));
    let completions = opt_int(&spec["completions"]).unwrap_or_default();
    if text(&spec["completionMode"]) == "Indexed" && completions > 0 {
        let name = text(&metadata["name"]);
        let hostname = format!("{name}-{}", completions - 1);
        if !dns1123_label(&hostname).is_empty() {
            errors.push(Path::new("metadata").child("name").invalid(
                name,
                &format!("will not able to create pod with invalid DNS label: {hostname}"),
            ));
        }
    }
    errors
}

/// `validateGeneratedSelector`: a Job whose selector the server generated keeps the
/// generated labels on its template, and its selector selects them.
fn validate_generated_selector(job: &Value, require_prefixed_labels: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let spec = &job["spec"];
    let selector = &spec["selector"];
    if flag(&spec["manualSelector"]) || selector.is_null() {
        return errors;
    }
    let uid = text(&job["metadata"]["uid"]);
    let name = text(&job["metadata"]["name"]);
    if uid.is_empty() {
        errors.push(Path::new("metadata").child("uid").required(""));
    }
    let template_metadata = &spec["template"]["metadata"];
    let path = Path::new("spec").child("template").child("metadata");
    errors.extend(validate_has_label(template_metadata, &path, LEGACY_CONTROLLER_UID, uid));
    errors.extend(validate_has_label(template_metadata, &path, LEGACY_JOB_NAME, name));
    let mut expected = serde_json::Map::new();
    if require_prefixed_labels {
        errors.extend(validate_has_label(template_metadata, &path, CONTROLLER_UID, uid));
        errors.extend(validate_has_label(template_metadata, &path, JOB_NAME, name));
        expected.insert(CONTROLLER_UID.to_owned(), Value::from(uid));
        expected.insert(JOB_NAME.to_owned(), Value::from(name));
    }
    expected.insert(LEGACY_CONTROLLER_UID.to_owned(), Value::from(uid));
    expected.insert(LEGACY_JOB_NAME.to_owned(), Value::from(name));
    if let Ok(parsed) = label_selector_as_selector(selector)
        && !parsed.matches(&Value::Object(expected))
    {
        errors.push(
            Path::new("spec")
                .child("selector")
                .invalid(raw(label_selector(selector)), "`selector` not auto-generated"),
        );
    }
    errors
}

/// `ValidateJobSpec`: `validateJobSpec` and the selector, required and matching the
/// template.
fn validate_job_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_job_spec_fields(spec, path);
    let selector = &spec["selector"];
    if selector.is_null() {
        errors.push(path.child("selector").required(""));
    } else {
        errors.extend(validate_label_selector(selector, &path.child("selector")));
    }
    let labels = &spec["template"]["metadata"]["labels"];
    if let Ok(parsed) = label_selector_as_selector(selector)
        && !parsed.matches(labels)
    {
        errors.push(
            path.child("template")
                .child("metadata")
                .child("labels")
                .invalid(raw(string_map(labels)), "`selector` does not match template `labels`"),
        );
    }
    errors
}

/// `validateJobSpec`: what a Job's spec and a `CronJob`'s job template share.
#[expect(clippy::too_many_lines, reason = "one Go function, ported whole in its order")]
pub(super) fn validate_job_spec_fields(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for field in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
    ] {
        errors.extend(nonnegative_if_set(&spec[field], &path.child(field)));
    }
    let parallelism = opt_int(&spec["parallelism"]);
    let completions = opt_int(&spec["completions"]);
    let max_failed = opt_int(&spec["maxFailedIndexes"]);
    let per_index = opt_int(&spec["backoffLimitPerIndex"]);
    if let Some(max_failed) = max_failed {
        errors.extend(nonnegative(max_failed, &path.child("maxFailedIndexes")));
        if per_index.is_none() {
            errors.push(
                path.child("backoffLimitPerIndex")
                    .required("when maxFailedIndexes is specified"),
            );
        }
    }
    if let Some(managed_by) = opt_text(&spec["managedBy"]) {
        errors.extend(validate_domain_prefixed_path(&path.child("managedBy"), managed_by));
        if i64::try_from(managed_by.len()).unwrap_or(i64::MAX) > MAX_MANAGED_BY_LENGTH {
            errors.push(path.child("managedBy").too_long(MAX_MANAGED_BY_LENGTH));
        }
    }
    let mode = opt_text(&spec["completionMode"]);
    if let Some(mode) = mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            errors.push(
                path.child("completionMode")
                    .not_supported(mode, &["NonIndexed", "Indexed"]),
            );
        }
        if mode == "Indexed" {
            if completions.is_none() {
                errors.push(path.child("completions").required("when completion mode is Indexed"));
            }
            if let Some(parallelism) = parallelism.filter(|p| *p > MAX_PARALLELISM_FOR_INDEXED_JOB) {
                errors.push(path.child("parallelism").invalid(
                    &Value::from(parallelism),
                    &format!("must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed"),
                ));
            }
            if let (Some(completions), Some(max_failed)) = (completions, max_failed)
                && max_failed > completions
            {
                errors.push(
                    path.child("maxFailedIndexes")
                        .invalid(&Value::from(max_failed), "must be less than or equal to completions"),
                );
            }
            if let Some(max_failed) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
                errors.push(path.child("maxFailedIndexes").invalid(
                    &Value::from(max_failed),
                    &format!("must be less than or equal to {MAX_FAILED_INDEXES_FOR_INDEXED_JOB}"),
                ));
            }
            if completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT) && per_index.is_some() {
                let above = format!(
                    "when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
                );
                if max_failed.is_none() {
                    errors.push(path.child("maxFailedIndexes").required(&format!(
                        "must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"
                    )));
                }
                if let Some(parallelism) = parallelism.filter(|p| *p > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
                    errors.push(path.child("parallelism").invalid(
                        &Value::from(parallelism),
                        &format!("must be less than or equal to {PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} {above}"),
                    ));
                }
                if let Some(max_failed) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
                    errors.push(path.child("maxFailedIndexes").invalid(
                        &Value::from(max_failed),
                        &format!(
                            "must be less than or equal to {MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} {above}"
                        ),
                    ));
                }
            }
        }
    }
    let indexed = mode == Some("Indexed");
    if mode.is_none_or(|m| m == "NonIndexed") {
        if let Some(per_index) = per_index {
            errors.push(
                path.child("backoffLimitPerIndex")
                    .invalid(&Value::from(per_index), "requires indexed completion mode"),
            );
        }
        if let Some(max_failed) = max_failed {
            errors.push(
                path.child("maxFailedIndexes")
                    .invalid(&Value::from(max_failed), "requires indexed completion mode"),
            );
        }
    }
    let failure_policy = &spec["podFailurePolicy"];
    if is_set(failure_policy) {
        errors.extend(validate_pod_failure_policy(spec, &path.child("podFailurePolicy")));
    }
    let success_policy = &spec["successPolicy"];
    if is_set(success_policy) {
        if indexed {
            errors.extend(validate_success_policy(spec, &path.child("successPolicy")));
        } else {
            errors.push(path.child("successPolicy").invalid(
                raw(success_policy_dump(success_policy)),
                "requires indexed completion mode",
            ));
        }
    }
    errors.extend(validate_pod_replacement_policy(
        spec,
        &path.child("podReplacementPolicy"),
    ));
    errors.extend(core::validate_pod_template_spec(
        &spec["template"],
        &path.child("template"),
    ));
    let restart_path = path.child("template").child("spec").child("restartPolicy");
    let restart = text(&spec["template"]["spec"]["restartPolicy"]);
    if restart == "Always" || restart.is_empty() {
        errors.push(restart_path.required("valid values: \"OnFailure\", \"Never\""));
    } else if restart != "OnFailure" && restart != "Never" {
        errors.push(restart_path.not_supported(restart, &["OnFailure", "Never"]));
    } else if is_set(failure_policy) && restart != "Never" {
        errors.push(restart_path.invalid(
            restart,
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
    errors
}

/// `validatePodFailurePolicy`.
fn validate_pod_failure_policy(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let rules = items(&spec["podFailurePolicy"]["rules"]);
    let rules_path = path.child("rules");
    let count = i64::try_from(rules.len()).unwrap_or(i64::MAX);
    if count > MAX_POD_FAILURE_POLICY_RULES {
        errors.push(rules_path.too_many(count, MAX_POD_FAILURE_POLICY_RULES));
    }
    let template = &spec["template"]["spec"];
    let containers: Vec<&str> = items(&template["containers"])
        .iter()
        .chain(items(&template["initContainers"]))
        .map(|c| text(&c["name"]))
        .collect();
    for (index, rule) in rules.iter().enumerate() {
        errors.extend(validate_pod_failure_policy_rule(
            spec,
            rule,
            &rules_path.index(index),
            &containers,
        ));
    }
    errors
}

/// `validatePodFailurePolicyRule`.
fn validate_pod_failure_policy_rule(spec: &Value, rule: &Value, path: &Path, containers: &[&str]) -> ErrorList {
    let mut errors = ErrorList::new();
    let action_path = path.child("action");
    let actions = ["Count", "FailIndex", "FailJob", "Ignore"];
    match text(&rule["action"]) {
        "" => errors.push(action_path.required("valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]")),
        "FailIndex" if spec["backoffLimitPerIndex"].is_null() => {
            errors.push(action_path.invalid("FailIndex", "requires the backoffLimitPerIndex to be set"));
        }
        "FailIndex" => {}
        action if !actions.contains(&action) => errors.push(action_path.not_supported(action, &actions)),
        _ => {}
    }
    let exit_codes = &rule["onExitCodes"];
    let conditions = items(&rule["onPodConditions"]);
    if is_set(exit_codes) {
        errors.extend(validate_on_exit_codes(
            exit_codes,
            &path.child("onExitCodes"),
            containers,
        ));
    }
    if !conditions.is_empty() {
        errors.extend(validate_on_pod_conditions(conditions, &path.child("onPodConditions")));
    }
    if is_set(exit_codes) && !conditions.is_empty() {
        errors.push(path.invalid(
            BadValue::Omit,
            "specifying both OnExitCodes and OnPodConditions is not supported",
        ));
    }
    if !is_set(exit_codes) && conditions.is_empty() {
        errors.push(path.invalid(
            BadValue::Omit,
            "specifying one of OnExitCodes and OnPodConditions is required",
        ));
    }
    errors
}

/// `validatePodFailurePolicyRuleOnPodConditions`.
fn validate_on_pod_conditions(conditions: &[Value], path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let count = i64::try_from(conditions.len()).unwrap_or(i64::MAX);
    if count > MAX_ON_POD_CONDITIONS_PATTERNS {
        errors.push(path.too_many(count, MAX_ON_POD_CONDITIONS_PATTERNS));
    }
    for (index, pattern) in conditions.iter().enumerate() {
        let pattern_path = path.index(index);
        errors.extend(validate_qualified_name(
            text(&pattern["type"]),
            &pattern_path.child("type"),
        ));
        let status_path = pattern_path.child("status");
        match text(&pattern["status"]) {
            "" => errors.push(status_path.required("valid values: [\"False\" \"True\" \"Unknown\"]")),
            "False" | "True" | "Unknown" => {}
            other => errors.push(status_path.not_supported(other, &["False", "True", "Unknown"])),
        }
    }
    errors
}

/// `validatePodFailurePolicyRuleOnExitCodes`.
fn validate_on_exit_codes(requirement: &Value, path: &Path, containers: &[&str]) -> ErrorList {
    let mut errors = ErrorList::new();
    let operator = text(&requirement["operator"]);
    let operator_path = path.child("operator");
    match operator {
        "" => errors.push(operator_path.required("valid values: [\"In\" \"NotIn\"]")),
        "In" | "NotIn" => {}
        other => errors.push(operator_path.not_supported(other, &["In", "NotIn"])),
    }
    if let Some(container) = opt_text(&requirement["containerName"])
        && !containers.contains(&container)
    {
        errors.push(path.child("containerName").invalid(
            container,
            "must be one of the container or initContainer names in the pod template",
        ));
    }
    let values_path = path.child("values");
    let values: Vec<i64> = items(&requirement["values"]).iter().map(int).collect();
    let shown = || raw(slice("int32", &requirement["values"], crate::common::go_syntax::int));
    let count = i64::try_from(values.len()).unwrap_or(i64::MAX);
    if values.is_empty() {
        errors.push(values_path.invalid(shown(), "at least one value is required"));
    } else if count > MAX_ON_EXIT_CODES_VALUES {
        errors.push(values_path.too_many(count, MAX_ON_EXIT_CODES_VALUES));
    }
    let mut seen = std::collections::HashSet::new();
    let mut ordered = true;
    for (index, value) in values.iter().enumerate() {
        let value_path = values_path.index(index);
        if operator == "In" && *value == 0 {
            errors.push(value_path.invalid(&Value::from(*value), "must not be 0 for the In operator"));
        }
        if !seen.insert(*value) {
            errors.push(value_path.duplicate(&Value::from(*value)));
        }
        if index > 0 && values[index - 1] > *value {
            ordered = false;
        }
    }
    if !ordered {
        errors.push(values_path.invalid(shown(), "must be ordered"));
    }
    errors
}

/// A `batch.SuccessPolicy` as Go prints it.
fn success_policy_dump(policy: &Value) -> String {
    GoStruct::new("batch.SuccessPolicy")
        .field(
            "Rules",
            slice("batch.SuccessPolicyRule", &policy["rules"], |rule| {
                GoStruct::new("batch.SuccessPolicyRule")
                    .field("SucceededIndexes", pointer("string", &rule["succeededIndexes"]))
                    .field("SucceededCount", pointer("int32", &rule["succeededCount"]))
                    .end()
            }),
        )
        .end()
}

/// `validateSuccessPolicy`.
fn validate_success_policy(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let rules = items(&spec["successPolicy"]["rules"]);
    let rules_path = path.child("rules");
    if rules.is_empty() {
        errors.push(rules_path.required("at least one rules must be specified when the successPolicy is specified"));
    }
    let count = i64::try_from(rules.len()).unwrap_or(i64::MAX);
    if count > MAX_SUCCESS_POLICY_RULES {
        errors.push(rules_path.too_many(count, MAX_SUCCESS_POLICY_RULES));
    }
    for (index, rule) in rules.iter().enumerate() {
        errors.extend(validate_success_policy_rule(spec, rule, &rules_path.index(index)));
    }
    errors
}

/// `validateSuccessPolicyRule`.
fn validate_success_policy_rule(spec: &Value, rule: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let indexes = opt_text(&rule["succeededIndexes"]);
    let count = opt_int(&rule["succeededCount"]);
    if indexes.is_none() && count.is_none() {
        errors.push(path.required("at least one of succeededCount or succeededIndexes must be specified"));
    }
    // An Indexed Job's completions are required (checked above); Go reads them anyway.
    let completions = int(&spec["completions"]);
    let mut total = 0;
    if let Some(indexes) = indexes {
        let indexes_path = path.child("succeededIndexes");
        if i64::try_from(indexes.len()).unwrap_or(i64::MAX) > MAX_SUCCEEDED_INDEXES_LENGTH {
            errors.push(indexes_path.too_long(MAX_SUCCEEDED_INDEXES_LENGTH));
        }
        match validate_indexes_format(indexes, completions) {
            Ok(found) => total = found,
            Err(error) => {
                errors.push(indexes_path.invalid(indexes, &format!("error parsing succeededIndexes: {error}")));
            }
        }
    }
    if let Some(count) = count {
        let count_path = path.child("succeededCount");
        errors.extend(nonnegative(count, &count_path));
        if count > completions {
            errors.push(count_path.invalid(
                &Value::from(count),
                &format!("must be less than or equal to {completions} (the number of specified completions)"),
            ));
        }
        if indexes.is_some() && count > total {
            errors.push(count_path.invalid(
                &Value::from(count),
                &format!("must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"),
            ));
        }
    }
    errors
}

/// `validatePodReplacementPolicy`.
fn validate_pod_replacement_policy(spec: &Value, path: &Path) -> ErrorList {
    let Some(policy) = opt_text(&spec["podReplacementPolicy"]) else {
        return ErrorList::new();
    };
    if is_set(&spec["podFailurePolicy"]) {
        if policy != "Failed" {
            return vec![path.not_supported(policy, &["Failed"])];
        }
    } else if policy != "Failed" && policy != "TerminatingOrFailed" {
        return vec![path.not_supported(policy, &["Failed", "TerminatingOrFailed"])];
    }
    ErrorList::new()
}

/// `ValidateJobUpdate` after `ValidateJob`, as the Job strategy's `ValidateUpdate`
/// runs them.
pub(super) fn validate_job_update(job: &Value, old: &Value, options: JobOptions) -> ErrorList {
    let mut errors = validate_job(job, options);
    errors.extend(validate_object_meta_update(
        &job["metadata"],
        &old["metadata"],
        &Path::new("metadata"),
    ));
    errors.extend(validate_job_spec_update(
        &job["spec"],
        &old["spec"],
        &Path::new("spec"),
        options,
    ));
    errors
}

/// `ValidateJobSpecUpdate`.
fn validate_job_spec_update(spec: &Value, old: &Value, path: &Path, options: JobOptions) -> ErrorList {
    let mut errors = validate_job_spec(spec, path);
    errors.extend(validate_completions(spec, old, &path.child("completions")));
    let selector = &spec["selector"];
    errors.extend(immutable(selector, &old["selector"], &path.child("selector"), || {
        if selector.is_null() {
            raw("\"null\"".to_owned())
        } else {
            raw(label_selector(selector))
        }
    }));
    errors.extend(validate_pod_template_update(spec, old, path, options));
    errors.extend(immutable_plain(
        &spec["completionMode"],
        &old["completionMode"],
        &path.child("completionMode"),
    ));
    let failure_policy = &spec["podFailurePolicy"];
    errors.extend(immutable(
        failure_policy,
        &old["podFailurePolicy"],
        &path.child("podFailurePolicy"),
        || raw(approximate("batch.PodFailurePolicy", failure_policy)),
    ));
    errors.extend(immutable_plain(
        &spec["backoffLimitPerIndex"],
        &old["backoffLimitPerIndex"],
        &path.child("backoffLimitPerIndex"),
    ));
    errors.extend(immutable_plain(
        &spec["managedBy"],
        &old["managedBy"],
        &path.child("managedBy"),
    ));
    let success_policy = &spec["successPolicy"];
    errors.extend(immutable(
        success_policy,
        &old["successPolicy"],
        &path.child("successPolicy"),
        || raw(success_policy_dump(success_policy)),
    ));
    errors
}

/// `validateCompletions`: immutable for `NonIndexed` Jobs; an Indexed Job's move with
/// its parallelism.
fn validate_completions(spec: &Value, old: &Value, path: &Path) -> ErrorList {
    let completions = &spec["completions"];
    if text(&spec["completionMode"]) != "Indexed" {
        return immutable_plain(completions, &old["completions"], path);
    }
    if semantic_eq(completions, &old["completions"]) {
        return ErrorList::new();
    }
    let Some(value) = opt_int(completions) else {
        return ErrorList::new();
    };
    if Some(value) != opt_int(&spec["parallelism"]) {
        return vec![path.invalid(
            &Value::from(value),
            "can only be modified in tandem with spec.parallelism",
        )];
    }
    ErrorList::new()
}

/// `validatePodTemplateUpdate`: the template is immutable, but for its scheduling
/// fields (node affinity, node selector, tolerations, labels, annotations, scheduling
/// gates) while the Job is suspended and never started.
fn validate_pod_template_update(spec: &Value, old: &Value, path: &Path, options: JobOptions) -> ErrorList {
    let template = &spec["template"];
    let mut old_template = old["template"].clone();
    if options.mutable_scheduling && old_template.is_object() {
        let new_affinity = &template["spec"]["affinity"];
        let old_affinity = old_template["spec"]["affinity"].clone();
        let affinity = match (new_affinity.is_null(), old_affinity.is_null()) {
            // Cleared: allowed if the old affinity held nothing but node affinity.
            (true, false) => {
                let mut rest = old_affinity;
                if let Some(map) = rest.as_object_mut() {
                    map.remove("nodeAffinity");
                }
                if rest.as_object().is_none_or(|m| m.values().all(Value::is_null)) {
                    Value::Null
                } else {
                    rest
                }
            }
            (false, true) => match &new_affinity["nodeAffinity"] {
                Value::Null => serde_json::json!({}),
                node => serde_json::json!({"nodeAffinity": node}),
            },
            (false, false) => {
                let mut merged = old_affinity;
                if let Some(map) = merged.as_object_mut() {
                    map.insert("nodeAffinity".to_owned(), new_affinity["nodeAffinity"].clone());
                }
                merged
            }
            (true, true) => Value::Null,
        };
        set_field(&mut old_template, &["spec", "affinity"], affinity);
        for field in ["nodeSelector", "tolerations", "schedulingGates"] {
            set_field(&mut old_template, &["spec", field], template["spec"][field].clone());
        }
        for field in ["annotations", "labels"] {
            set_field(
                &mut old_template,
                &["metadata", field],
                template["metadata"][field].clone(),
            );
        }
    }
    immutable(template, &old_template, &path.child("template"), || {
        raw(approximate("core.PodTemplateSpec", template))
    })
}

/// Sets `object[path...] = value`, making the objects on the way (a null value
/// removes the field, as a nil Go field is absent in JSON).
fn set_field(object: &mut Value, path: &[&str], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut cursor = object;
    for key in parents {
        let Some(map) = cursor.as_object_mut() else {
            return;
        };
        let entry = map.entry((*key).to_owned()).or_insert_with(|| serde_json::json!({}));
        if entry.is_null() {
            *entry = serde_json::json!({});
        }
        cursor = entry;
    }
    if let Some(map) = cursor.as_object_mut() {
        if value.is_null() {
            map.remove(*last);
        } else {
            map.insert((*last).to_owned(), value);
        }
    }
}
