//! The batch group's rules, with 1.32's answers (each checked against a real
//! kube-apiserver).

use serde_json::{Value, json};

use crate::Write;
use crate::testing::errors;

const UID: &str = "0d9a7e3c-2b4f-4c6e-9a8b-1f2e3d4c5b6a";

/// A defaulted Job (its selector generated) with `spec` merged in.
fn job(spec: &Value) -> Value {
    let mut object = json!({"metadata": {"name": "j", "namespace": "n", "uid": UID}, "spec": {
        "parallelism": 1, "completions": 1, "backoffLimit": 6, "completionMode": "NonIndexed", "suspend": false,
        "manualSelector": false, "podReplacementPolicy": "TerminatingOrFailed",
        "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": UID}},
        "template": {"metadata": {"labels": {"batch.kubernetes.io/controller-uid": UID, "controller-uid": UID,
            "batch.kubernetes.io/job-name": "j", "job-name": "j"}},
            "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}});
    for (key, value) in spec.as_object().into_iter().flatten() {
        object["spec"][key] = value.clone();
    }
    object
}

fn check(object: &Value) -> Vec<String> {
    errors("batch", "v1", "Job", object, Write::Create)
}

#[test]
fn a_defaulted_job_is_valid() {
    assert!(check(&job(&json!({}))).is_empty(), "{:?}", check(&job(&json!({}))));
}

#[test]
fn a_selector_not_generated_is_refused() {
    let selector = json!({"matchLabels": {"app": "x", "batch.kubernetes.io/controller-uid": UID}});
    let mut object = job(&json!({"selector": selector}));
    object["spec"]["template"]["metadata"]["labels"]["app"] = json!("x");
    assert_eq!(
        check(&object),
        [format!(
            "spec.selector: Invalid value: v1.LabelSelector{{MatchLabels:map[string]string{{\"app\":\"x\", \"batch.kubernetes.io/controller-uid\":\"{UID}\"}}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}: `selector` not auto-generated"
        )]
    );
}

#[test]
fn restart_policies_and_counts() {
    let mut always = job(&json!({"parallelism": -1}));
    always["spec"]["template"]["spec"]["restartPolicy"] = json!("Always");
    assert_eq!(
        check(&always),
        [
            "spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
            "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"",
        ]
    );
    assert_eq!(
        check(&job(
            &json!({"completionMode": "Indexed", "completions": 2, "parallelism": 200_000})
        )),
        [
            "spec.parallelism: Invalid value: 200000: must be less than or equal to 100000 when completion mode is Indexed"
        ]
    );
    assert_eq!(
        check(&job(&json!({"backoffLimitPerIndex": 1}))),
        ["spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"]
    );
}

#[test]
fn pod_failure_policies() {
    let policy = json!({"rules": [{"action": "Bogus", "onExitCodes": {"operator": "In", "values": [0, 3, 3, 1]}}]});
    let mut object = job(&json!({"podFailurePolicy": policy, "podReplacementPolicy": "Failed"}));
    object["spec"]["template"]["spec"]["restartPolicy"] = json!("Never");
    assert_eq!(
        check(&object),
        [
            "spec.podFailurePolicy.rules[0].action: Unsupported value: \"Bogus\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"",
            "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
            "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3",
            "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 3, 3, 1}: must be ordered",
        ]
    );
}

#[test]
fn completions_of_non_indexed_jobs_are_immutable() {
    let old = job(&json!({"completions": 2, "suspend": true}));
    let new = job(&json!({"completions": 3, "suspend": true}));
    assert_eq!(
        errors("batch", "v1", "Job", &new, Write::Update { old: &old }),
        ["spec.completions: Invalid value: 3: field is immutable"]
    );
    let indexed_old = job(&json!({"completionMode": "Indexed", "completions": 2, "parallelism": 2}));
    let indexed = job(&json!({"completionMode": "Indexed", "completions": 3, "parallelism": 2}));
    assert_eq!(
        errors("batch", "v1", "Job", &indexed, Write::Update { old: &indexed_old }),
        ["spec.completions: Invalid value: 3: can only be modified in tandem with spec.parallelism"]
    );
}

#[test]
fn suspended_jobs_that_never_started_may_reschedule() {
    let old = job(&json!({"suspend": true}));
    let mut new = old.clone();
    new["spec"]["template"]["spec"]["nodeSelector"] = json!({"zone": "a"});
    new["spec"]["template"]["spec"]["tolerations"] = json!([{"key": "k", "operator": "Exists"}]);
    new["spec"]["template"]["metadata"]["labels"]["queue"] = json!("a");
    assert!(errors("batch", "v1", "Job", &new, Write::Update { old: &old }).is_empty());
    let mut started = old.clone();
    started["status"] = json!({"startTime": "2024-01-01T00:00:00Z"});
    let fields: Vec<String> = errors("batch", "v1", "Job", &new, Write::Update { old: &started })
        .into_iter()
        .map(|e| e.split(':').next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(fields, ["spec.template"]);
}

#[test]
fn finished_jobs_state_how_they_ended() {
    let old = job(&json!({}));
    let mut new = old.clone();
    new["status"] = json!({"active": 2, "failed": -1, "conditions": [{"type": "Complete", "status": "True"}]});
    assert_eq!(
        errors(
            "batch",
            "v1",
            "Job",
            &new,
            Write::Subresource {
                name: "status",
                old: &old
            }
        ),
        [
            "status.failed: Invalid value: -1: must be greater than or equal to 0",
            "status.completionTime: Required value: completionTime is required for Complete jobs",
            "status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
            "status.active: Invalid value: 2: active>0 is invalid for finished job",
            "status.startTime: Required value: startTime is required for finished job",
            "status.failed: Invalid value: -1: cannot decrease the failed counter",
        ]
    );
}

fn cron_job(spec: &Value) -> Value {
    let mut object = json!({"metadata": {"name": "c", "namespace": "n"}, "spec": {"schedule": "*/5 * * * *",
        "concurrencyPolicy": "Allow", "jobTemplate": {"spec": {"parallelism": 1, "completions": 1, "backoffLimit": 6,
            "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}}}});
    for (key, value) in spec.as_object().into_iter().flatten() {
        object["spec"][key] = value.clone();
    }
    object
}

#[test]
fn cron_jobs_schedules_and_zones() {
    let check = |spec: Value| errors("batch", "v1", "CronJob", &cron_job(&spec), Write::Create);
    assert!(check(json!({"timeZone": "America/New_York"})).is_empty());
    assert_eq!(
        check(json!({"timeZone": "Mars/Olympus"})),
        ["spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"]
    );
    assert_eq!(
        check(json!({"timeZone": "Local"})),
        [
            "spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
        ]
    );
    assert_eq!(
        check(json!({"schedule": "TZ=UTC 0 * * * *"})),
        [
            "spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
        ]
    );
    let mut long = cron_job(&json!({}));
    long["metadata"]["name"] = json!("c".repeat(53));
    assert_eq!(
        errors("batch", "v1", "CronJob", &long, Write::Create),
        [format!(
            "metadata.name: Invalid value: \"{}\": must be no more than 52 characters",
            "c".repeat(53)
        )]
    );
    let mut template = cron_job(&json!({}));
    template["spec"]["jobTemplate"]["spec"]["selector"] = json!({"matchLabels": {"a": "b"}});
    assert_eq!(
        errors("batch", "v1", "CronJob", &template, Write::Create),
        [
            "spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"a\":\"b\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated"
        ]
    );
}

#[test]
fn hostile_json_never_panics() {
    for body in [
        json!(null),
        json!(5),
        json!({"spec": "x"}),
        json!({"spec": {"schedule": "TZ=", "completionMode": "Indexed", "successPolicy": {"rules": [{"succeededIndexes": "9-1"}]}}}),
    ] {
        for kind in ["Job", "CronJob"] {
            let _ = errors("batch", "v1", kind, &body, Write::Create);
            let _ = errors("batch", "v1", kind, &body, Write::Update { old: &body });
            let _ = errors(
                "batch",
                "v1",
                kind,
                &body,
                Write::Subresource {
                    name: "status",
                    old: &body,
                },
            );
        }
    }
}
