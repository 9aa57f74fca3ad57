//! Metadata rules that differ by who validates an object, as kube-apiserver applies
//! them: the legacy finalizer-name rule of core's `ValidateObjectMeta` on every group
//! that calls it (not on those calling apimachinery's), a custom resource's finalizer
//! warnings and `rest.BeforeUpdate` refusing a `deletionTimestamp` a patch sets, the
//! `generation` a client sends kept by kinds that count none, and the items a
//! collection delete returns.

use serde_json::{Value, json};

use crate::common::{CustomType, start};
use crate::raw::Answer;
use crate::schema_common::skip_before;
use crate::validation_core::{Body, assert_invalid, assert_ok, create, patch, request};

const NOT_STANDARD: &str =
    "Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified";

/// The `Warning` headers' texts (`299 - "text"`).
pub(crate) fn warnings(answer: &Answer) -> Vec<String> {
    answer
        .headers
        .get_all("warning")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .map(|value| {
            // `299 - "text"`, the text's quotes and backslashes escaped.
            let quoted = value.trim_start_matches("299 - ");
            let text = quoted
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(quoted);
            text.replace("\\\"", "\"").replace("\\\\", "\\")
        })
        .collect()
}

/// Groups whose validation calls core's `ValidateObjectMeta` refuse a finalizer with
/// neither a domain nor a standard name; coordination's calls apimachinery's and takes
/// it.
#[tokio::test]
async fn group_kinds_refuse_legacy_finalizer_names_as_core_does() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace();
    let deployment = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "held", "finalizers": ["cleanup"]},
        "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": {
            "metadata": {"labels": {"app": "a"}},
            "spec": {"containers": [{"name": "c", "image": crate::common::IMAGE}]},
        }},
    });
    let refused = create(
        &client,
        &format!("/apis/apps/v1/namespaces/{ns}/deployments"),
        deployment,
    )
    .await;
    assert_invalid(
        &refused,
        &[("metadata.finalizers[0]", "FieldValueInvalid", NOT_STANDARD)],
    );

    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "held", "finalizers": ["cleanup"]}});
    let roles = format!("/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles");
    assert_invalid(
        &create(&client, &roles, role).await,
        &[("metadata.finalizers[0]", "FieldValueInvalid", NOT_STANDARD)],
    );
    // Added on an update, the same rule answers, once for each time the role's update
    // validation runs core's metadata checks (`ValidateRole` twice, then
    // `ValidateObjectMetaUpdate`).
    let plain = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "plain"}});
    assert_ok(&create(&client, &roles, plain).await);
    let added = patch(
        &client,
        &format!("{roles}/plain"),
        json!({"metadata": {"finalizers": ["cleanup"]}}),
    )
    .await;
    let cause = ("metadata.finalizers[0]", "FieldValueInvalid", NOT_STANDARD);
    assert_invalid(&added, &[cause, cause, cause]);

    let lease = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "held", "finalizers": ["cleanup"]}});
    let leases = format!("/apis/coordination.k8s.io/v1/namespaces/{ns}/leases");
    assert_ok(&create(&client, &leases, lease).await);
    assert_ok(
        &patch(
            &client,
            &format!("{leases}/held"),
            json!({"metadata": {"finalizers": null}}),
        )
        .await,
    );
}

/// A custom resource takes a finalizer without a domain, warning of each one a write
/// adds.
#[tokio::test]
async fn custom_resources_warn_of_finalizers_without_a_domain() {
    let env = start().await;
    if skip_before(&env, 32, "custom resources' finalizer warnings").await {
        return;
    }
    let client = env.client();
    let custom = CustomType::new(&env, "Holder", "holders", true);
    custom.install(&env).await;
    let path = format!(
        "/apis/{}/namespaces/{}/holders",
        custom.resource.api_version,
        env.namespace()
    );
    let body = json!({"apiVersion": custom.resource.api_version, "kind": "Holder",
                      "metadata": {"name": "h", "finalizers": ["cleanup", "example.com/ok"]}});
    let created = create(&client, &path, body).await;
    assert_ok(&created);
    assert_eq!(
        warnings(&created),
        [
            "metadata.finalizers: \"cleanup\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
        ]
    );
    let added = patch(
        &client,
        &format!("{path}/h"),
        json!({"metadata": {"finalizers": ["cleanup", "example.com/ok", "a.b"]}}),
    )
    .await;
    assert_ok(&added);
    assert_eq!(
        warnings(&added),
        [
            "metadata.finalizers: \"a.b\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
        ]
    );
    assert_ok(&patch(&client, &format!("{path}/h"), json!({"metadata": {"finalizers": null}})).await);
    custom.remove(&env).await;
}

/// A merge patch may not set a custom resource's `deletionTimestamp`: the common
/// update checks and the validator's each say it is immutable.
#[tokio::test]
async fn custom_resources_refuse_a_deletion_timestamp_from_a_patch() {
    let env = start().await;
    let client = env.client();
    let custom = CustomType::new(&env, "Stamp", "stamps", true);
    custom.install(&env).await;
    let path = format!(
        "/apis/{}/namespaces/{}/stamps",
        custom.resource.api_version,
        env.namespace()
    );
    let body = json!({"apiVersion": custom.resource.api_version, "kind": "Stamp", "metadata": {"name": "s"}});
    assert_ok(&create(&client, &path, body).await);
    let stamped = patch(
        &client,
        &format!("{path}/s"),
        json!({"metadata": {"deletionTimestamp": "2000-01-01T00:00:00Z"}}),
    )
    .await;
    let immutable = "Invalid value: 2000-01-01 00:00:00 +0000 UTC: field is immutable";
    assert_invalid(
        &stamped,
        &[
            ("metadata.deletionTimestamp", "FieldValueInvalid", immutable),
            ("metadata.deletionTimestamp", "FieldValueInvalid", immutable),
        ],
    );
    custom.remove(&env).await;
}

/// A kind that counts no generations stores the `generation` a create sends; one that
/// counts them starts at 1.
#[tokio::test]
async fn a_created_generation_is_kept_where_none_is_counted() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace();
    let configmap = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "gen", "generation": 7}});
    let created = create(&client, &format!("/api/v1/namespaces/{ns}/configmaps"), configmap).await;
    assert_ok(&created);
    assert_eq!(created.body["metadata"]["generation"], json!(7));
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "gen", "generation": 7}});
    let roles = format!("/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles");
    assert_ok(&create(&client, &roles, role).await);
    // An update keeps the stored one, whatever it sends.
    let updated = patch(
        &client,
        &format!("{roles}/gen"),
        json!({"metadata": {"generation": 9, "labels": {"a": "b"}}}),
    )
    .await;
    assert_ok(&updated);
    assert_eq!(updated.body["metadata"]["generation"], json!(7));
    let negative = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "negative", "generation": -1}});
    assert_invalid(
        &create(&client, &format!("/api/v1/namespaces/{ns}/configmaps"), negative).await,
        &[(
            "metadata.generation",
            "FieldValueInvalid",
            "Invalid value: -1: must be greater than or equal to 0",
        )],
    );
}

fn item_type_fields(answer: &Answer) -> Vec<(Value, Value)> {
    answer.body["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| (item["apiVersion"].clone(), item["kind"].clone()))
        .collect()
}

/// A collection delete lists the objects it deleted, as listed before each delete: a
/// built-in kind's without `apiVersion` and `kind` (its list is converted from
/// internal objects), a custom resource's with them.
#[tokio::test]
async fn collection_deletes_list_built_in_items_without_their_type() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace();
    let configmaps = format!("/api/v1/namespaces/{ns}/configmaps");
    let doomed =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "doomed", "labels": {"doom": "yes"}}});
    assert_ok(&create(&client, &configmaps, doomed).await);
    let deleted = request(
        &client,
        http::Method::DELETE,
        &format!("{configmaps}?labelSelector=doom%3Dyes"),
        Body::None,
    )
    .await;
    assert_ok(&deleted);
    assert_eq!(deleted.body["kind"], json!("ConfigMapList"));
    assert_eq!(item_type_fields(&deleted), [(Value::Null, Value::Null)]);

    // The items are the objects as listed, before their delete: one a finalizer keeps
    // is listed without the deletionTimestamp it now has.
    let held = json!({"apiVersion": "v1", "kind": "ConfigMap",
                      "metadata": {"name": "held", "labels": {"hold": "yes"}, "finalizers": ["example.com/hold"]}});
    assert_ok(&create(&client, &configmaps, held).await);
    let deleted = request(
        &client,
        http::Method::DELETE,
        &format!("{configmaps}?labelSelector=hold%3Dyes"),
        Body::None,
    )
    .await;
    assert_ok(&deleted);
    assert_eq!(deleted.body["items"][0]["metadata"]["name"], json!("held"));
    assert!(
        deleted.body["items"][0]["metadata"]["deletionTimestamp"].is_null(),
        "{}",
        deleted.body
    );
    let after = request(&client, http::Method::GET, &format!("{configmaps}/held"), Body::None).await;
    assert!(
        after.body["metadata"]["deletionTimestamp"].is_string(),
        "{}",
        after.body
    );
    assert_ok(
        &patch(
            &client,
            &format!("{configmaps}/held"),
            json!({"metadata": {"finalizers": null}}),
        )
        .await,
    );

    let custom = CustomType::new(&env, "Doomed", "dooms", true);
    custom.install(&env).await;
    let path = format!("/apis/{}/namespaces/{ns}/dooms", custom.resource.api_version);
    let body = json!({"apiVersion": custom.resource.api_version, "kind": "Doomed", "metadata": {"name": "d"}});
    assert_ok(&create(&client, &path, body).await);
    let deleted = request(&client, http::Method::DELETE, &path, Body::None).await;
    assert_ok(&deleted);
    assert_eq!(
        item_type_fields(&deleted),
        [(json!(custom.resource.api_version), json!("Doomed"))]
    );
    custom.remove(&env).await;
}

/// The (field, reason) of each cause, in the server's order.
fn cause_fields(answer: &Answer) -> Vec<(String, String)> {
    answer.body["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|cause| {
            let text = |key: &str| cause[key].as_str().unwrap_or_default().to_owned();
            (text("field"), text("reason"))
        })
        .collect()
}

/// A `generateName` the kind's name rule refuses is one cause, and the name made from
/// it another, for custom resources and for kinds whose rule reads the spec
/// (`APIService`, CRD) as for the others.
#[tokio::test]
async fn a_bad_generate_name_is_refused_before_the_name_made_from_it() {
    let env = start().await;
    let client = env.client();
    let expected = [
        ("metadata.generateName".to_owned(), "FieldValueInvalid".to_owned()),
        ("metadata.name".to_owned(), "FieldValueInvalid".to_owned()),
    ];

    let custom = CustomType::new(&env, "Named", "nameds", true);
    custom.install(&env).await;
    let path = format!(
        "/apis/{}/namespaces/{}/nameds",
        custom.resource.api_version,
        env.namespace()
    );
    let body =
        json!({"apiVersion": custom.resource.api_version, "kind": "Named", "metadata": {"generateName": "Bad_"}});
    let refused = create(&client, &path, body).await;
    assert_eq!(refused.code, 422, "{}", refused.body);
    assert_eq!(cause_fields(&refused), expected);
    custom.remove(&env).await;

    let group = format!("{}.conformance.wheelhouse.rs", env.namespace());
    let service = json!({
        "apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
        "metadata": {"generateName": "v1-"},
        "spec": {"group": group, "version": "v1", "groupPriorityMinimum": 100, "versionPriority": 10},
    });
    let refused = create(&client, "/apis/apiregistration.k8s.io/v1/apiservices", service).await;
    assert_eq!(refused.code, 422, "{}", refused.body);
    assert_eq!(cause_fields(&refused), expected);
    let must_be = format!("must be `spec.version+\".\"+spec.group`: \"v1.{group}\"");
    assert_eq!(
        refused.body["details"]["causes"][0]["message"],
        json!(format!("Invalid value: \"v1-\": {must_be}"))
    );

    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"generateName": "things-"},
        "spec": {"group": group, "scope": "Namespaced",
                 "names": {"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
                 "versions": [{"name": "v1", "served": true, "storage": true,
                               "schema": {"openAPIV3Schema": {"type": "object"}}}]},
    });
    let refused = create(&client, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).await;
    assert_eq!(refused.code, 422, "{}", refused.body);
    assert_eq!(cause_fields(&refused), expected);
    assert_eq!(
        refused.body["details"]["causes"][0]["message"],
        json!("Invalid value: \"things-\": must be spec.names.plural+\".\"+spec.group")
    );
}

/// A node's removed dynamic kubelet configuration is dropped from a create, and from
/// an update of a node without one, rather than validated; the writer still owns it,
/// as the field manager runs before the strategy.
#[tokio::test]
async fn nodes_drop_the_removed_kubelet_config_source() {
    let env = start().await;
    if skip_before(&env, 26, "dropping the removed dynamic kubelet configuration").await {
        return;
    }
    let client = env.client();
    let name = format!("{}-node", env.namespace());
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"a": "b"}},
                      "spec": {"configSource": {"configMap": {"name": "c", "namespace": "kube-system", "kubeletConfigKey": "k"}}}});
    let created = create(&client, "/api/v1/nodes?fieldManager=tester", node).await;
    assert_ok(&created);
    assert!(created.body["spec"]["configSource"].is_null(), "{}", created.body);
    // On create too, the creator owns what the strategy then dropped.
    assert!(
        !created.body["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:configSource"].is_null(),
        "{}",
        created.body
    );
    let patched = patch(
        &client,
        &format!("/api/v1/nodes/{name}?fieldManager=tester"),
        json!({"spec": {"configSource": {}}}),
    )
    .await;
    assert_ok(&patched);
    assert!(patched.body["spec"]["configSource"].is_null(), "{}", patched.body);
    // The field manager recorded the patch's fields before the strategy dropped them.
    let owned = patched.body["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|entry| entry["operation"] == "Update" && !entry["fieldsV1"]["f:spec"]["f:configSource"].is_null());
    assert!(owned, "{}", patched.body);
    assert_ok(
        &request(
            &client,
            http::Method::DELETE,
            &format!("/api/v1/nodes/{name}"),
            Body::None,
        )
        .await,
    );
}

/// A rules review needs a namespace (400 without one) and is answered with a new
/// review holding only the rules: no name, spec or managed fields of the request.
#[tokio::test]
async fn rules_reviews_answer_a_new_review_of_the_rules() {
    let env = start().await;
    let client = env.client();
    let reviews = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    let unnamespaced = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
                              "metadata": {"name": "r"}, "spec": {}});
    let refused = create(&client, reviews, unnamespaced).await;
    assert_eq!(
        (refused.code, refused.body["message"].as_str()),
        (400, Some("no namespace on request"))
    );
    let review = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
                        "metadata": {"name": "r"}, "spec": {"namespace": env.namespace()}});
    let answered = create(&client, reviews, review).await;
    assert_eq!(answered.code, 201, "{}", answered.body);
    assert_eq!(answered.body["metadata"], json!({"creationTimestamp": null}));
    assert_eq!(answered.body["spec"], json!({}));
    let rules = |key: &str| -> Vec<String> {
        let mut rules: Vec<String> = answered.body["status"][key]
            .as_array()
            .into_iter()
            .flatten()
            .map(Value::to_string)
            .collect();
        rules.sort();
        rules
    };
    let everything = json!({"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}).to_string();
    assert!(rules("resourceRules").contains(&everything), "{}", answered.body);
    if crate::schema_common::server_minor(&env).await < 32 {
        eprintln!("skipped: the default roles' rules listed for an administrator are checked on 1.32 only");
        return;
    }
    let mut expected_resources = vec![
        everything,
        json!({"apiGroups": ["authorization.k8s.io"], "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], "verbs": ["create"]}).to_string(),
        json!({"apiGroups": ["authentication.k8s.io"], "resources": ["selfsubjectreviews"], "verbs": ["create"]}).to_string(),
    ];
    expected_resources.sort();
    assert_eq!(rules("resourceRules"), expected_resources);
    assert_eq!(rules("nonResourceRules").len(), 3, "{}", answered.body);
}

/// Each kind counts generations as its strategy does: a CSI driver from zero, only
/// once its spec changes; a priority class is created at 1 and never counts; an
/// endpoint slice counts a change of its labels too.
#[tokio::test]
async fn generations_are_counted_as_each_strategy_counts_them() {
    let env = start().await;
    if skip_before(&env, 32, "1.32's generation rules").await {
        return;
    }
    let client = env.client();
    let ns = env.namespace();
    let driver_name = format!("{ns}.example.com");
    let drivers = "/apis/storage.k8s.io/v1/csidrivers";
    let driver = json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": driver_name},
                        "spec": {"attachRequired": true}});
    let created = create(&client, drivers, driver).await;
    assert_ok(&created);
    assert_eq!(created.body["metadata"].get("generation"), None);
    let changed = patch(
        &client,
        &format!("{drivers}/{driver_name}"),
        json!({"spec": {"podInfoOnMount": true}}),
    )
    .await;
    assert_ok(&changed);
    assert_eq!(changed.body["metadata"]["generation"], json!(1));
    request(
        &client,
        http::Method::DELETE,
        &format!("{drivers}/{driver_name}"),
        Body::None,
    )
    .await;

    let classes = "/apis/scheduling.k8s.io/v1/priorityclasses";
    let class_name = format!("{ns}-class");
    let class = json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": class_name},
                       "value": 10, "description": "a"});
    assert_ok(&create(&client, classes, class).await);
    let described = patch(&client, &format!("{classes}/{class_name}"), json!({"description": "b"})).await;
    assert_ok(&described);
    assert_eq!(described.body["metadata"]["generation"], json!(1));
    request(
        &client,
        http::Method::DELETE,
        &format!("{classes}/{class_name}"),
        Body::None,
    )
    .await;

    let slices = format!("/apis/discovery.k8s.io/v1/namespaces/{ns}/endpointslices");
    let slice = json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "s"},
                       "addressType": "IPv4", "endpoints": [{"addresses": ["10.1.2.3"]}]});
    assert_ok(&create(&client, &slices, slice).await);
    let labelled = patch(
        &client,
        &format!("{slices}/s"),
        json!({"metadata": {"labels": {"a": "b"}}}),
    )
    .await;
    assert_ok(&labelled);
    assert_eq!(labelled.body["metadata"]["generation"], json!(2));
    let annotated = patch(
        &client,
        &format!("{slices}/s"),
        json!({"metadata": {"annotations": {"a": "b"}}}),
    )
    .await;
    assert_ok(&annotated);
    assert_eq!(annotated.body["metadata"]["generation"], json!(2));
    env.stop().await;
}

/// A `LimitRange` without a name is named with a UUID by its strategy (1.32 looks at
/// `generateName` first; 1.19 did not); its limits are written as Go writes none.
#[tokio::test]
async fn a_nameless_limit_range_is_named_with_a_uuid() {
    let env = start().await;
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/limitranges", env.namespace());
    let created = create(&client, &path, json!({"apiVersion": "v1", "kind": "LimitRange"})).await;
    assert_ok(&created);
    let name = created.body["metadata"]["name"].as_str().unwrap_or_default();
    let shape: Vec<usize> = name.split('-').map(str::len).collect();
    assert_eq!(shape, [8, 4, 4, 4, 12], "{name}");
    assert_eq!(created.body["spec"], json!({"limits": null}));
    if !skip_before(&env, 32, "a LimitRange's generateName").await {
        let body = json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"generateName": "lr-"}});
        let generated = create(&client, &path, body).await;
        assert_ok(&generated);
        let name = generated.body["metadata"]["name"].as_str().unwrap_or_default();
        assert!(name.starts_with("lr-") && name.len() == 8, "{name}");
    }
    env.stop().await;
}

/// An empty struct a pointer holds is not nil: a pod update that adds one changes the
/// spec and is refused, as `Semantic.DeepEqual` tells them apart.
#[tokio::test]
async fn an_empty_struct_added_to_a_pod_is_a_change() {
    let env = start().await;
    let client = env.client();
    let pods = format!("/api/v1/namespaces/{}/pods", env.namespace());
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                     "spec": {"containers": [{"name": "c", "image": crate::common::IMAGE}]}});
    assert_ok(&create(&client, &pods, pod).await);
    let changed = crate::write_options::send_typed(
        &client,
        http::Method::PATCH,
        &format!("{pods}/p"),
        "application/strategic-merge-patch+json",
        &json!({"spec": {"containers": [{"name": "c", "securityContext": {"windowsOptions": {}}}]}}),
    )
    .await;
    assert_eq!(changed.code, 422, "{}", changed.body);
    let cause = &changed.body["details"]["causes"][0];
    assert_eq!(
        (&cause["field"], &cause["reason"]),
        (&json!("spec"), &json!("FieldValueForbidden"))
    );
    env.stop().await;
}
