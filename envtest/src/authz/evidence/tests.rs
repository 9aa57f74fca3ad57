use k8s_openapi::api::rbac::v1::PolicyRule;

use super::{Evidence, Object, Rbac};
use crate::ApiServer;

fn resource(namespace: Option<&str>, group: &str, resource: &str, verb: &str) -> Evidence {
    Evidence {
        namespace: namespace.map(str::to_owned),
        object: Object::Resource {
            group: group.to_owned(),
            resource: resource.to_owned(),
        },
        verb: verb.to_owned(),
    }
}

fn url(url: &str, verb: &str) -> Evidence {
    Evidence {
        namespace: None,
        object: Object::Url(url.to_owned()),
        verb: verb.to_owned(),
    }
}

fn rule(group: &str, resources: &[&str], verbs: &[&str]) -> PolicyRule {
    PolicyRule {
        api_groups: Some(vec![group.to_owned()]),
        resources: Some(resources.iter().map(|r| (*r).to_owned()).collect()),
        verbs: verbs.iter().map(|v| (*v).to_owned()).collect(),
        ..PolicyRule::default()
    }
}

#[test]
fn verbs_of_a_resource_merge_into_one_rule_in_kubernetes_order() {
    let rbac = Rbac::from_evidence([
        resource(None, "apps", "deployments", "patch"),
        resource(None, "apps", "deployments", "watch"),
        resource(None, "apps", "deployments", "list"),
        resource(None, "apps", "deployments", "list"),
    ]);
    assert_eq!(
        rbac.cluster_rules(),
        [rule("apps", &["deployments"], &["list", "watch", "patch"])]
    );
}

#[test]
fn resources_share_a_rule_only_with_equal_verbs_and_the_same_group() {
    let rbac = Rbac::from_evidence([
        resource(None, "", "services", "list"),
        resource(None, "", "configmaps", "list"),
        resource(None, "", "secrets", "get"),
        resource(None, "apps", "deployments", "list"),
    ]);
    assert_eq!(
        rbac.cluster_rules(),
        [
            rule("", &["configmaps", "services"], &["list"]),
            rule("", &["secrets"], &["get"]),
            rule("apps", &["deployments"], &["list"]),
        ]
    );
}

#[test]
fn subresources_are_resources_of_their_own() {
    let rbac = Rbac::from_evidence([
        resource(None, "example.com", "webapps", "watch"),
        resource(None, "example.com", "webapps/status", "patch"),
        resource(None, "example.com", "webapps/finalizers", "update"),
        resource(None, "example.com", "webapps/scale", "patch"),
    ]);
    assert_eq!(
        rbac.cluster_rules(),
        [
            rule("example.com", &["webapps"], &["watch"]),
            rule("example.com", &["webapps/finalizers"], &["update"]),
            rule("example.com", &["webapps/scale", "webapps/status"], &["patch"]),
        ]
    );
}

#[test]
fn non_resource_urls_go_to_the_cluster_role_without_those_everyone_may_read() {
    let rbac = Rbac::from_evidence([
        url("/metrics", "get"),
        url("/debug/pprof/profile", "get"),
        url("/logs", "post"),
        url("/apis/apps/v1", "get"),
        url("/version", "get"),
        url("/healthz", "get"),
        url("/api", "post"),
    ]);
    let urls = |rule: &PolicyRule| rule.non_resource_urls.clone().unwrap_or_default();
    let rules = rbac.cluster_rules();
    assert_eq!(
        rules.iter().map(|r| (urls(r), r.verbs.clone())).collect::<Vec<_>>(),
        [
            (vec!["/api".to_owned(), "/logs".to_owned()], vec!["post".to_owned()]),
            (
                vec!["/debug/pprof/profile".to_owned(), "/metrics".to_owned()],
                vec!["get".to_owned()]
            ),
        ]
    );
    assert!(rules.iter().all(|r| r.api_groups.is_none() && r.resources.is_none()));
    assert!(rbac.namespaces().is_empty());
}

#[test]
fn namespaced_requests_make_a_role_per_namespace_unless_the_cluster_role_grants_them() {
    let rbac = Rbac::from_evidence([
        resource(None, "", "pods", "list"),
        resource(Some("a"), "", "pods", "list"),
        resource(Some("a"), "", "pods", "delete"),
        resource(Some("b"), "coordination.k8s.io", "leases", "get"),
        resource(Some("c"), "", "pods", "list"),
    ]);
    assert_eq!(rbac.cluster_rules(), [rule("", &["pods"], &["list"])]);
    assert_eq!(rbac.namespaces(), ["a", "b"], "c's list is granted cluster-wide");
    assert_eq!(rbac.namespace_rules("a"), [rule("", &["pods"], &["delete"])]);
    assert_eq!(
        rbac.namespace_rules("b"),
        [rule("coordination.k8s.io", &["leases"], &["get"])]
    );
    assert!(rbac.namespace_rules("c").is_empty());
}

#[test]
fn cluster_wide_grants_a_namespace_s_rules_everywhere() {
    let rbac = Rbac::from_evidence([
        resource(None, "", "pods", "list"),
        resource(Some("test"), "", "pods", "patch"),
        resource(Some("test"), "", "pods", "list"),
        resource(Some("system"), "", "pods", "patch"),
        resource(Some("system"), "", "pods", "get"),
    ])
    .cluster_wide("test");
    assert_eq!(rbac.cluster_rules(), [rule("", &["pods"], &["list", "patch"])]);
    assert_eq!(rbac.namespaces(), ["system"]);
    assert_eq!(rbac.namespace_rules("system"), [rule("", &["pods"], &["get"])]);
    assert_eq!(rbac.clone().cluster_wide("absent"), rbac);
}

#[test]
fn yaml_quotes_what_would_not_read_back_as_the_same_string() {
    let rbac = Rbac::from_evidence([
        resource(Some("on"), "", "pods", "get"),
        url("/api/*", "post"),
        url("/weird path", "get"),
    ]);
    let yaml = rbac.to_yaml("op");
    assert!(
        yaml.contains("- apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [get]\n"),
        "{yaml}"
    );
    assert!(yaml.contains("  namespace: \"on\"\n"), "{yaml}");
    assert!(
        yaml.contains("- nonResourceURLs: [\"/api/*\"]\n  verbs: [post]\n"),
        "{yaml}"
    );
    let documents: Vec<serde_json::Value> = serde_saphyr::from_multiple(&yaml).expect("valid YAML");
    assert_eq!(documents.len(), 2);
    assert_eq!(documents[0]["rules"][1]["nonResourceURLs"][0], "/weird path");
    assert_eq!(documents[1]["metadata"]["namespace"], "on");
    assert_eq!(documents[1]["rules"][0]["apiGroups"][0], "");
    assert_eq!(Rbac::default().to_yaml("op"), "");
}

#[tokio::test]
async fn the_server_s_records_of_a_user_become_its_rules() {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, ListParams, Patch, PatchParams};

    let server = ApiServer::new(crate::ServerOptions::default());
    let operator = kube::Client::new(server.as_user("operator"), "default");
    let configs: Api<ConfigMap> = Api::default_namespaced(operator.clone());
    let patch =
        serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}});
    configs
        .patch("c", &PatchParams::apply("op"), &Patch::Apply(&patch))
        .await
        .expect("applied");
    Api::<ConfigMap>::all(operator.clone())
        .list(&ListParams::default())
        .await
        .expect("listed");
    operator.apiserver_version().await.expect("a version");
    let metrics = http::Request::get("/metrics").body(Vec::new()).expect("a request");
    let _ = operator.request_text(metrics).await;
    let other: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.as_user("other"), "default"));
    other.get_opt("c").await.expect("read");

    let rbac = server.rbac_for("operator");
    assert_eq!(
        rbac.to_yaml("operator"),
        "\
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: operator
rules:
- apiGroups: [\"\"]
  resources: [configmaps]
  verbs: [list]
- nonResourceURLs: [/metrics]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: operator
  namespace: default
rules:
- apiGroups: [\"\"]
  resources: [configmaps]
  verbs: [patch]
"
    );
    assert_eq!(
        server.rbac_for("other").namespace_rules("default"),
        [rule("", &["configmaps"], &["get"])]
    );
    assert!(server.rbac_for("nobody").is_empty());
}

#[test]
fn the_yaml_reads_back_as_the_same_roles() {
    use k8s_openapi::api::rbac::v1::{ClusterRole, Role};

    let rbac = Rbac::from_evidence([
        resource(None, "", "namespaces", "get"),
        resource(None, "example.com", "webapps/status", "patch"),
        resource(Some("system"), "coordination.k8s.io", "leases", "update"),
        resource(Some("system"), "coordination.k8s.io", "leases", "get"),
        resource(Some("apps"), "", "configmaps", "watch"),
        url("/metrics", "get"),
    ]);
    let documents: Vec<serde_json::Value> = serde_saphyr::from_multiple(&rbac.to_yaml("op")).expect("valid YAML");
    let cluster_role: ClusterRole = serde_json::from_value(documents[0].clone()).expect("a ClusterRole");
    assert_eq!(cluster_role.metadata.name.as_deref(), Some("op"));
    assert_eq!(cluster_role.rules.unwrap_or_default(), rbac.cluster_rules());
    let roles: Vec<Role> = documents[1..]
        .iter()
        .map(|document| serde_json::from_value(document.clone()).expect("a Role"))
        .collect();
    let namespaces: Vec<Option<&str>> = roles.iter().map(|r| r.metadata.namespace.as_deref()).collect();
    assert_eq!(namespaces, [Some("apps"), Some("system")]);
    for role in roles {
        let namespace = role.metadata.namespace.clone().unwrap_or_default();
        assert_eq!(role.rules.unwrap_or_default(), rbac.namespace_rules(&namespace));
    }
}

/// `OwnerReferencesPermissionEnforcement`: a blocking owner reference needs `update` on
/// the owner's finalizers, changing owner references on an update needs `delete`.
#[tokio::test]
async fn owner_references_add_what_owner_references_permission_enforcement_checks() {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, Patch, PatchParams, PostParams};

    // No garbage collector: the owners need not exist.
    let options = crate::ServerOptions {
        controllers: false,
        ..crate::ServerOptions::default()
    };
    let server = ApiServer::new(options);
    let operator = kube::Client::new(server.as_user("operator"), "default");
    let configs: Api<ConfigMap> = Api::default_namespaced(operator);
    let owner = |kind: &str, uid: &str, blocks: bool| {
        serde_json::json!({"apiVersion": "apps/v1", "kind": kind, "name": "web", "uid": uid,
            "controller": blocks, "blockOwnerDeletion": blocks})
    };
    let child = |references: serde_json::Value| -> ConfigMap {
        serde_json::from_value(serde_json::json!({"metadata": {"name": "child", "ownerReferences": references}}))
            .expect("a ConfigMap")
    };
    configs
        .create(
            &PostParams::default(),
            &child(serde_json::json!([
                owner("Deployment", "1", true),
                owner("StatefulSet", "2", false)
            ])),
        )
        .await
        .expect("created");
    let created_rules = server.rbac_for("operator").namespace_rules("default");
    assert_eq!(
        created_rules,
        [
            rule("", &["configmaps"], &["create"]),
            rule("apps", &["deployments/finalizers"], &["update"])
        ],
        "no delete on a create, nothing for the reference that does not block"
    );

    let unchanged = serde_json::json!({"data": {"a": "1"}});
    let patched = configs
        .patch("child", &PatchParams::default(), &Patch::Merge(&unchanged))
        .await
        .expect("patched");
    assert_eq!(
        server.rbac_for("operator").namespace_rules("default"),
        [
            rule("", &["configmaps"], &["create", "patch"]),
            rule("apps", &["deployments/finalizers"], &["update"])
        ],
        "an update that keeps the owner references needs nothing more"
    );

    let mut moved = patched;
    moved.metadata.owner_references = child(serde_json::json!([owner("StatefulSet", "2", true)]))
        .metadata
        .owner_references;
    configs
        .replace("child", &PostParams::default(), &moved)
        .await
        .expect("replaced");
    assert_eq!(
        server.rbac_for("operator").namespace_rules("default"),
        [
            rule("", &["configmaps"], &["create", "update", "patch", "delete"]),
            rule(
                "apps",
                &["deployments/finalizers", "statefulsets/finalizers"],
                &["update"]
            ),
        ],
        "changed references need delete on the child, a newly blocking one its owner's finalizers"
    );
}
