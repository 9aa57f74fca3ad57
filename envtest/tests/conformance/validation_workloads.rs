//! Validation of the workload groups (apps, batch, autoscaling, policy) as kube-apiserver
//! 1.32 answers it; the runner and what each case states are in `validation_groups`.

use serde_json::{Value, json};

use crate::common::start;
use crate::validation_groups::{Case, Expect, Older, case, patch, post, run};

const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/{ns}/deployments";
const STATEFUL_SETS: &str = "/apis/apps/v1/namespaces/{ns}/statefulsets";
const DAEMON_SETS: &str = "/apis/apps/v1/namespaces/{ns}/daemonsets";
const JOBS: &str = "/apis/batch/v1/namespaces/{ns}/jobs";
const CRON_JOBS: &str = "/apis/batch/v1/namespaces/{ns}/cronjobs";
const AUTOSCALERS: &str = "/apis/autoscaling/v2/namespaces/{ns}/horizontalpodautoscalers";
const AUTOSCALERS_V1: &str = "/apis/autoscaling/v1/namespaces/{ns}/horizontalpodautoscalers";
const BUDGETS: &str = "/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets";

const AUTOSCALING_V2: &str = "autoscaling/v2 is served from 1.23";
const POLICY_V1: &str = "policy/v1 is served from 1.21";
const CRON_JOBS_V1: &str = "batch/v1 CronJobs are served from 1.21";

/// A pod template labelled `app: x` (`restart` Always, or Never for Jobs).
fn template(restart: &str) -> Value {
    json!({"metadata": {"labels": {"app": "x"}},
        "spec": {"restartPolicy": restart, "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10"}]}})
}

/// A workload of `kind` named `name` selecting `app: x`, with `spec` merged in.
fn workload(kind: &str, name: &str, spec: Value) -> Value {
    let mut object = json!({"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": name},
        "spec": {"selector": {"matchLabels": {"app": "x"}}, "template": template("Always")}});
    if kind == "StatefulSet" {
        object["spec"]["serviceName"] = json!("s");
    }
    merge(&mut object["spec"], spec);
    object
}

fn merge(target: &mut Value, patch: Value) {
    if let (Some(target), Value::Object(patch)) = (target.as_object_mut(), patch) {
        for (key, value) in patch {
            target.insert(key, value);
        }
    }
}

/// A Job named `name` of a `Never`-restarting pod, with `spec` merged in.
fn job(name: &str, spec: Value) -> Value {
    let mut object = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name},
        "spec": {"template": {"spec": template("Never")["spec"].clone()}}});
    merge(&mut object["spec"], spec);
    object
}

/// A `CronJob` named `name` every five minutes, with `spec` merged in.
fn cron_job(name: &str, spec: Value) -> Value {
    let mut object = json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name},
        "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": {"spec": template("Never")["spec"].clone()}}}}});
    merge(&mut object["spec"], spec);
    object
}

/// An autoscaler of a Deployment, with `spec` merged in.
fn autoscaler(version: &str, name: &str, spec: Value) -> Value {
    let mut object = json!({"apiVersion": format!("autoscaling/{version}"), "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 3}});
    merge(&mut object["spec"], spec);
    object
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "a table of cases")]
async fn deployments_stateful_sets_and_daemon_sets_are_validated_as_kube_validates_them() {
    let env = start().await;
    let cases: Vec<Case> = vec![
        case(
            "a Recreate deployment with a rolling update",
            post(DEPLOYMENTS, workload("Deployment", "recreate", json!({"strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}}))),
            Expect::Invalid(&[(
                "spec.strategy.rollingUpdate",
                "FieldValueForbidden",
                "Forbidden: may not be specified when strategy `type` is 'Recreate'",
            )]),
        ),
        case(
            "a progress deadline not above minReadySeconds",
            post(DEPLOYMENTS, workload("Deployment", "deadline", json!({"minReadySeconds": 700}))),
            Expect::Invalid(&[(
                "spec.progressDeadlineSeconds",
                "FieldValueInvalid",
                "Invalid value: 600: must be greater than minReadySeconds",
            )]),
        ),
        case(
            "rolling update bounds",
            post(DEPLOYMENTS, workload("Deployment", "bounds", json!({"strategy": {"rollingUpdate": {"maxUnavailable": "150%", "maxSurge": "x"}}}))),
            Expect::Invalid(&[
                ("spec.strategy.rollingUpdate.maxSurge", "FieldValueInvalid", "Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"),
                ("spec.strategy.rollingUpdate.maxUnavailable", "FieldValueInvalid", "Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}: must not be greater than 100%"),
            ]),
        ),
        case(
            "a template its selector does not select",
            post(DEPLOYMENTS, workload("Deployment", "unselected", json!({"template": {"metadata": {"labels": {"app": "y"}}, "spec": template("Always")["spec"].clone()}}))),
            Expect::Invalid(&[(
                "spec.template.metadata.labels",
                "FieldValueInvalid",
                "Invalid value: map[string]string{\"app\":\"y\"}: `selector` does not match template `labels`",
            )]),
        ),
        case(
            "negative counts",
            post(DEPLOYMENTS, workload("Deployment", "negative", json!({"replicas": -1, "revisionHistoryLimit": -3}))),
            Expect::Invalid(&[
                ("spec.replicas", "FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0"),
                ("spec.revisionHistoryLimit", "FieldValueInvalid", "Invalid value: -3: must be greater than or equal to 0"),
            ]),
        ),
        case(
            "a Deployment's selector does not change",
            patch(
                "/apis/apps/v1/namespaces/{ns}/deployments/moving",
                json!({"spec": {"selector": {"matchLabels": {"app": "x", "tier": "web"}}, "template": {"metadata": {"labels": {"tier": "web"}}}}}),
            ),
            Expect::Invalid(&[(
                "spec.selector",
                "FieldValueInvalid",
                "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"x\", \"tier\":\"web\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable",
            )]),
        )
        .after(vec![post(DEPLOYMENTS, workload("Deployment", "moving", json!({})))]),
        case(
            "a StatefulSet's spec beyond its mutable fields",
            patch("/apis/apps/v1/namespaces/{ns}/statefulsets/fixed", json!({"spec": {"serviceName": "other"}})),
            Expect::Invalid(&[(
                "spec",
                "FieldValueForbidden",
                "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
            )]),
        )
        .on_119(Older::Causes(&[(
            "spec",
            "FieldValueForbidden",
            "Forbidden: updates to statefulset spec for fields other than 'replicas', 'template', and 'updateStrategy' are forbidden",
        )]))
        .after(vec![post(STATEFUL_SETS, workload("StatefulSet", "fixed", json!({})))]),
        case(
            "a StatefulSet's replicas and minReadySeconds change",
            patch("/apis/apps/v1/namespaces/{ns}/statefulsets/scaled", json!({"spec": {"replicas": 3, "minReadySeconds": 5}})),
            Expect::Accepted,
        )
        .after(vec![post(STATEFUL_SETS, workload("StatefulSet", "scaled", json!({})))]),
        case(
            "a StatefulSet's management policy and update strategy",
            post(STATEFUL_SETS, workload("StatefulSet", "policies", json!({"podManagementPolicy": "Bogus", "updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}}))),
            Expect::Invalid(&[
                ("spec.podManagementPolicy", "FieldValueInvalid", "Invalid value: \"Bogus\": must be 'OrderedReady' or 'Parallel'"),
                ("spec.updateStrategy.rollingUpdate", "FieldValueInvalid", "Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'"),
            ]),
        )
        // 1.19's strategy had no maxUnavailable.
        .on_119(Older::Causes(&[
            ("spec.podManagementPolicy", "FieldValueInvalid", "Invalid value: \"Bogus\": must be 'OrderedReady' or 'Parallel'"),
            ("spec.updateStrategy.rollingUpdate", "FieldValueInvalid", "Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1}: only allowed for updateStrategy 'RollingUpdate'"),
        ])),
        case(
            "a StatefulSet's pod spec is not validated",
            post(STATEFUL_SETS, workload("StatefulSet", "imageless", json!({"template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c"}]}}}))),
            Expect::Accepted,
        ),
        case(
            "a StatefulSet's status counts",
            patch("/apis/apps/v1/namespaces/{ns}/statefulsets/counted/status", json!({"status": {"replicas": 1, "readyReplicas": 2, "currentReplicas": -1}})),
            Expect::Invalid(&[
                ("status.currentReplicas", "FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0"),
                ("status.readyReplicas", "FieldValueInvalid", "Invalid value: 2: cannot be greater than status.replicas"),
            ]),
        )
        .after(vec![post(STATEFUL_SETS, workload("StatefulSet", "counted", json!({})))]),
        case(
            "a DaemonSet's rolling update surges or gives way",
            post(DAEMON_SETS, workload("DaemonSet", "both", json!({"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}}}))),
            Expect::Invalid(&[(
                "spec.updateStrategy.rollingUpdate.maxSurge",
                "FieldValueInvalid",
                "Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:\"\"}: may not be set when maxUnavailable is non-zero",
            )]),
        )
        .on_119(Older::Accepts("1.19 dropped a DaemonSet's maxSurge (alpha then)")),
        case(
            "a DaemonSet restarts its pods always",
            post(DAEMON_SETS, workload("DaemonSet", "onfailure", json!({"template": template("OnFailure")}))),
            Expect::Invalid(&[(
                "spec.template.spec.restartPolicy",
                "FieldValueNotSupported",
                "Unsupported value: \"OnFailure\": supported values: \"Always\"",
            )]),
        ),
    ];
    run(&env, cases).await;
    env.stop().await;
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "a table of cases")]
async fn jobs_and_cron_jobs_are_validated_as_kube_validates_them() {
    let env = start().await;
    let cases: Vec<Case> = vec![
        case(
            "a Job's selector without manualSelector",
            post(JOBS, job("selected", json!({"selector": {"matchLabels": {"app": "x"}}, "template": template("Never")}))),
            Expect::Invalid(&[(
                "spec.selector",
                "FieldValueInvalid",
                "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"x\", \"batch.kubernetes.io/controller-uid\":\"<uid>\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated",
            )]),
        )
        // 1.19 generated the unprefixed label.
        .on_119(Older::Causes(&[(
            "spec.selector",
            "FieldValueInvalid",
            "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"x\", \"controller-uid\":\"<uid>\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated",
        )])),
        case(
            "a Job's own selector with manualSelector",
            post(JOBS, job("manual", json!({"manualSelector": true, "selector": {"matchLabels": {"app": "x"}}, "template": template("Never")}))),
            Expect::Accepted,
        ),
        case(
            "completions changed on a NonIndexed Job",
            patch("/apis/batch/v1/namespaces/{ns}/jobs/counted", json!({"spec": {"completions": 3}})),
            Expect::Invalid(&[("spec.completions", "FieldValueInvalid", "Invalid value: 3: field is immutable")]),
        )
        .after(vec![post(JOBS, job("counted", json!({"completions": 2, "suspend": true})))]),
        case(
            "a suspended Job that never started changes its scheduling",
            patch(
                "/apis/batch/v1/namespaces/{ns}/jobs/waiting",
                json!({"spec": {"template": {"metadata": {"labels": {"queue": "a"}}, "spec": {"nodeSelector": {"zone": "a"}, "tolerations": [{"key": "k", "operator": "Exists"}]}}}}),
            ),
            Expect::Accepted,
        )
        .after(vec![post(JOBS, job("waiting", json!({"suspend": true})))])
        .on_119(Older::Fields(&[("spec.template", "FieldValueInvalid")])),
        case(
            "a Job restarts its pods on failure or never",
            post(JOBS, job("always", json!({"template": {"spec": template("Always")["spec"].clone()}}))),
            Expect::Invalid(&[(
                "spec.template.spec.restartPolicy",
                "FieldValueRequired",
                "Required value: valid values: \"OnFailure\", \"Never\"",
            )]),
        )
        .on_119(Older::Causes(&[(
            "spec.template.spec.restartPolicy",
            "FieldValueNotSupported",
            "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"",
        )])),
        case(
            "negative Job counts",
            post(JOBS, job("negative", json!({"parallelism": -1, "backoffLimit": -1}))),
            Expect::Invalid(&[
                ("spec.parallelism", "FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0"),
                ("spec.backoffLimit", "FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0"),
            ]),
        ),
        case(
            "an Indexed Job's parallelism",
            post(JOBS, job("indexed", json!({"completionMode": "Indexed", "completions": 2, "parallelism": 200_000}))),
            Expect::Invalid(&[(
                "spec.parallelism",
                "FieldValueInvalid",
                "Invalid value: 200000: must be less than or equal to 100000 when completion mode is Indexed",
            )]),
        )
        .on_119(Older::Skip("Indexed Jobs came in 1.21")),
        case(
            "a CronJob in an unknown time zone",
            post(CRON_JOBS, cron_job("mars", json!({"timeZone": "Mars/Olympus"}))),
            Expect::Invalid(&[("spec.timeZone", "FieldValueInvalid", "Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus")]),
        )
        .on_119(Older::Skip(CRON_JOBS_V1)),
        case(
            "a CronJob's time zone names an IANA zone exactly",
            post(CRON_JOBS, cron_job("lowercase", json!({"timeZone": "america/new_york"}))),
            Expect::Invalid(&[(
                "spec.timeZone",
                "FieldValueInvalid",
                "Invalid value: \"america/new_york\": unknown time zone america/new_york",
            )]),
        )
        .on_119(Older::Skip(CRON_JOBS_V1)),
        case(
            "a CronJob in New York",
            post(CRON_JOBS, cron_job("newyork", json!({"timeZone": "America/New_York"}))),
            Expect::Accepted,
        )
        .on_119(Older::Skip(CRON_JOBS_V1)),
        case(
            "a schedule out of range",
            post(CRON_JOBS, cron_job("minute", json!({"schedule": "61 * * * *"}))),
            Expect::Invalid(&[(
                "spec.schedule",
                "FieldValueInvalid",
                "Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61",
            )]),
        )
        .on_119(Older::Skip(CRON_JOBS_V1)),
        case(
            "a schedule of three fields",
            post(CRON_JOBS, cron_job("short", json!({"schedule": "* * *"}))),
            Expect::Invalid(&[(
                "spec.schedule",
                "FieldValueInvalid",
                "Invalid value: \"* * *\": expected exactly 5 fields, found 3: [* * *]",
            )]),
        )
        .on_119(Older::Skip(CRON_JOBS_V1)),
        case(
            "a CronJob's concurrency policy",
            post(CRON_JOBS, cron_job("sometimes", json!({"concurrencyPolicy": "Sometimes"}))),
            Expect::Invalid(&[(
                "spec.concurrencyPolicy",
                "FieldValueNotSupported",
                "Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\"",
            )]),
        )
        .on_119(Older::Skip(CRON_JOBS_V1)),
    ];
    run(&env, cases).await;
    env.stop().await;
}

#[tokio::test]
async fn autoscalers_and_disruption_budgets_are_validated_as_kube_validates_them() {
    let env = start().await;
    let cases: Vec<Case> = vec![
        case(
            "an autoscaler at zero replicas",
            post(AUTOSCALERS, autoscaler("v2", "zero", json!({"minReplicas": 0}))),
            Expect::Invalid(&[
                ("spec.minReplicas", "FieldValueInvalid", "Invalid value: 0: must be greater than or equal to 1"),
                ("spec.metrics", "FieldValueForbidden", "Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"),
            ]),
        )
        .on_119(Older::Skip(AUTOSCALING_V2)),
        case(
            "an autoscaling/v1 autoscaler at zero replicas",
            post(AUTOSCALERS_V1, autoscaler("v1", "zero-v1", json!({"minReplicas": 0, "targetCPUUtilizationPercentage": 50}))),
            Expect::Invalid(&[
                ("spec.minReplicas", "FieldValueInvalid", "Invalid value: 0: must be greater than or equal to 1"),
                ("spec.metrics", "FieldValueForbidden", "Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"),
            ]),
        ),
        case(
            "an autoscaler's bounds and target",
            post(AUTOSCALERS, autoscaler("v2", "bounds", json!({"minReplicas": 5, "maxReplicas": 2, "scaleTargetRef": {"kind": "a/b", "name": ".."}}))),
            Expect::Invalid(&[
                ("spec.maxReplicas", "FieldValueInvalid", "Invalid value: 2: must be greater than or equal to `minReplicas`"),
                ("spec.scaleTargetRef.kind", "FieldValueInvalid", "Invalid value: \"a/b\": may not contain '/'"),
                ("spec.scaleTargetRef.name", "FieldValueInvalid", "Invalid value: \"..\": may not be '..'"),
            ]),
        )
        .on_119(Older::Skip(AUTOSCALING_V2)),
        case(
            "an autoscaler's scaling policies",
            post(AUTOSCALERS, autoscaler("v2", "policies", json!({"behavior": {"scaleDown": {"policies": [{"type": "X", "value": 0, "periodSeconds": 2000}]}}}))),
            Expect::Invalid(&[
                ("spec.behavior.scaleDown.policies[0].type", "FieldValueNotSupported", "Unsupported value: \"X\": supported values: \"Percent\", \"Pods\""),
                ("spec.behavior.scaleDown.policies[0].value", "FieldValueInvalid", "Invalid value: 0: must be greater than zero"),
                ("spec.behavior.scaleDown.policies[0].periodSeconds", "FieldValueInvalid", "Invalid value: 2000: must be less than or equal to 1800"),
            ]),
        )
        .on_119(Older::Skip(AUTOSCALING_V2)),
        case(
            "a budget's minimum and maximum together",
            post(BUDGETS, json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "both"},
                "spec": {"minAvailable": 1, "maxUnavailable": "150%", "selector": {"matchLabels": {"app": "x"}}}})),
            Expect::Invalid(&[
                ("spec", "FieldValueInvalid", "Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(<addr>), Selector:(*v1.LabelSelector)(<addr>), MaxUnavailable:(*intstr.IntOrString)(<addr>), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set"),
                ("spec.maxUnavailable", "FieldValueInvalid", "Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}: must not be greater than 100%"),
            ]),
        )
        .on_119(Older::Skip(POLICY_V1)),
        case(
            "a budget named with a colon",
            post(BUDGETS, json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "team:web"}, "spec": {"minAvailable": 1}})),
            Expect::Accepted,
        )
        .on_119(Older::Skip(POLICY_V1)),
    ];
    run(&env, cases).await;
    env.stop().await;
}
