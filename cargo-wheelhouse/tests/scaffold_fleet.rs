//! The scaffold of a fleet controller (`init --fleet`): the RBAC of the home cluster
//! and of the members, read back as Kubernetes would bind it, and the generated
//! controllers' `.fleet(..)`; that it builds is checked with the rest of the project in
//! `scaffold.rs`.

use std::path::Path;

use cargo_wheelhouse::files::Outcome;
use cargo_wheelhouse::{CreatePhases, Init};
use support::{api, cargo_wheelhouse, fresh};

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod support;

/// One document of an RBAC manifest, as far as the fleet tests read it.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    kind: String,
    metadata: Metadata,
    #[serde(default)]
    rules: Vec<Rule>,
    role_ref: Option<Named>,
    #[serde(default)]
    subjects: Vec<Subject>,
}

#[derive(Debug, serde::Deserialize)]
struct Metadata {
    name: String,
    namespace: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    api_groups: Vec<String>,
    resources: Vec<String>,
    verbs: Vec<String>,
}

#[derive(Debug, serde::Deserialize)]
struct Named {
    kind: String,
    name: String,
}

#[derive(Debug, serde::Deserialize)]
struct Subject {
    kind: String,
    name: String,
    namespace: String,
}

/// The documents of a manifest file.
fn manifests(dir: &Path, file: &str) -> Vec<Manifest> {
    let text = std::fs::read_to_string(dir.join(file)).expect("the manifest is written");
    format!("\n{text}")
        .split("\n---\n")
        .map(|document| serde_saphyr::from_str(document).unwrap_or_else(|e| panic!("{file}: {e}\n{document}")))
        .collect()
}

/// The verbs the roles of `documents` (named by a binding to the operator's
/// `ServiceAccount`, in `namespace` or cluster-wide) grant on `group`/`resource`.
fn granted(documents: &[Manifest], namespace: Option<&str>, group: &str, resource: &str) -> Vec<String> {
    let bound = |role: &Manifest| {
        documents.iter().any(|binding| {
            binding
                .role_ref
                .as_ref()
                .is_some_and(|r| r.kind == role.kind && r.name == role.metadata.name)
                && binding.metadata.namespace == role.metadata.namespace
                && binding.subjects.iter().any(|s| {
                    s.kind == "ServiceAccount" && s.name == "shop-operator" && s.namespace == "shop-operator-system"
                })
        })
    };
    documents
        .iter()
        .filter(|d| match d.kind.as_str() {
            "ClusterRole" => true,
            "Role" => d.metadata.namespace.as_deref() == namespace,
            _ => false,
        })
        .filter(|role| bound(role))
        .flat_map(|role| &role.rules)
        .filter(|rule| rule.api_groups.iter().any(|g| g == group) && rule.resources.iter().any(|r| r == resource))
        .flat_map(|rule| rule.verbs.clone())
        .collect()
}

/// `init --fleet`: the home cluster gets what the fleet controller does there (the
/// members' kubeconfig Secrets in their namespace only, its Leases and Events, the
/// reviews of /metrics, the kinds on the phase scheduler), each member what its
/// reconcilers do there; each role is bound to the operator's `ServiceAccount`. A
/// project made a fleet's later gets them too, and one cluster's project none.
#[test]
fn scaffold_fleet_project_gets_home_and_member_rbac() {
    let dir = fresh("scaffold-fleet");
    cargo_wheelhouse::init(&Init {
        dir: dir.clone(),
        name: Some("shop-operator".into()),
        ..Init::default()
    })
    .expect("init");
    cargo_wheelhouse::create_api(&api(&dir, "shop", "v1", "Widget")).expect("create api");
    assert!(!dir.join("deploy/fleet-home-rbac.yaml").exists() && !dir.join("deploy/fleet-member-rbac.yaml").exists());
    let refused = cargo_wheelhouse::init(&Init {
        dir: dir.clone(),
        fleet: Some("Fleet".into()),
        ..Init::default()
    });
    assert!(refused.is_err_and(|e| e.to_string().contains("--fleet")));
    let outcomes = cargo_wheelhouse::init(&Init {
        dir: dir.clone(),
        fleet: Some("clusters".into()),
        ..Init::default()
    })
    .expect("init --fleet");
    assert!(
        outcomes.contains(&Outcome::Created("deploy/fleet-member-rbac.yaml".into())),
        "{outcomes:?}"
    );
    cargo_wheelhouse::create_api(&api(&dir, "shop", "v1", "Widget")).expect("create api again");
    cargo_wheelhouse::create_phases(&CreatePhases {
        api: api(&dir, "shop", "v1alpha1", "Rollout"),
        phases: vec!["Pending".into(), "Done".into()],
    })
    .expect("create phases");

    let home = manifests(&dir, "deploy/fleet-home-rbac.yaml");
    let system = Some("shop-operator-system");
    assert_eq!(
        granted(&home, Some("clusters"), "", "secrets"),
        ["get", "list", "watch"]
    );
    assert!(
        granted(&home, system, "", "secrets").is_empty(),
        "Secrets in their namespace only"
    );
    let leases = granted(&home, system, "coordination.k8s.io", "leases");
    for verb in ["get", "list", "watch", "create", "update", "patch", "delete"] {
        assert!(leases.iter().any(|v| v == verb), "leases {verb}: {leases:?}");
    }
    assert!(granted(&home, Some("clusters"), "coordination.k8s.io", "leases").is_empty());
    assert_eq!(granted(&home, system, "events.k8s.io", "events"), ["create", "patch"]);
    assert_eq!(
        granted(&home, None, "authentication.k8s.io", "tokenreviews"),
        ["create"]
    );
    assert!(!granted(&home, None, "shop.example.com", "rollouts/status").is_empty());
    assert!(
        granted(&home, None, "shop.example.com", "widgets").is_empty(),
        "widgets reconcile in the members"
    );
    assert!(
        home.iter()
            .any(|d| d.kind == "Namespace" && d.metadata.name == "clusters")
    );

    let member = manifests(&dir, "deploy/fleet-member-rbac.yaml");
    let widgets = granted(&member, None, "shop.example.com", "widgets");
    assert!(
        ["get", "list", "watch", "patch"]
            .iter()
            .all(|v| widgets.iter().any(|w| w == v)),
        "{widgets:?}"
    );
    assert_eq!(
        granted(&member, None, "shop.example.com", "widgets/finalizers"),
        ["get", "update", "patch"]
    );
    assert_eq!(granted(&member, None, "", "events"), ["create", "patch"]);
    assert!(
        granted(&member, None, "shop.example.com", "rollouts").is_empty(),
        "rollouts stay home"
    );
    assert!(granted(&member, None, "coordination.k8s.io", "leases").is_empty());
    assert!(granted(&member, None, "", "secrets").is_empty());
    for (kind, name) in [
        ("Namespace", "shop-operator-system"),
        ("ServiceAccount", "shop-operator"),
    ] {
        assert!(
            member.iter().any(|d| d.kind == kind && d.metadata.name == name),
            "{kind} {name}"
        );
    }

    let controller = std::fs::read_to_string(dir.join("src/controllers/widget.rs")).expect("widget.rs");
    assert!(
        controller.contains("FLEET_NAMESPACE: &str = \"clusters\"") && controller.contains(".fleet(members)"),
        "{controller}"
    );
    let project = std::fs::read_to_string(dir.join("PROJECT")).expect("PROJECT");
    assert!(project.contains("fleet: clusters"), "{project}");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// From the command line, `--fleet` alone names the namespace `fleet`, and the README
/// says how to deploy to the home cluster and the members.
#[test]
fn scaffold_fleet_flag_alone_names_the_namespace_fleet() {
    let parent = fresh("scaffold-fleet-cli");
    std::fs::create_dir_all(&parent).expect("a directory");
    let printed = cargo_wheelhouse(&parent, &["init", "shop-operator", "--fleet"]);
    assert!(printed.contains("create  deploy/fleet-home-rbac.yaml"), "{printed}");
    let readme = std::fs::read_to_string(parent.join("shop-operator/README.md")).expect("README.md");
    assert!(
        readme.contains("deploy/fleet-member-rbac.yaml") && readme.contains("-n fleet"),
        "{readme}"
    );
    std::fs::remove_dir_all(&parent).expect("cleaned up");
}
