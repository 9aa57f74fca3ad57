//! The operator's RBAC, from the project's kinds; each file is rewritten as kinds are
//! added, unless changed by hand.
//!
//! - `deploy/rbac.yaml`: one cluster. Its own resources (with their status and
//!   finalizers), Events, the leader-election Lease, and the reviews that guard
//!   `/metrics`.
//! - A fleet controller's (`init --fleet`) two more, as a fleet splits them:
//!   `deploy/fleet-home-rbac.yaml` for the home cluster, where it runs (the members'
//!   kubeconfig Secrets, read only in their namespace; its Leases and Events; the
//!   reviews; and the kinds on the phase scheduler, which reconciles in the home
//!   cluster alone), and `deploy/fleet-member-rbac.yaml` for every member (the kinds
//!   with a reconciler, which runs in each member, and Events), with the `ServiceAccount`
//!   whose kubeconfig goes in the member's Secret.

use std::fmt::Write as _;

use crate::Error;
use crate::files::Files;
use crate::project::{Controller, Kind, Project};

pub fn write(files: &mut Files<'_>) -> Result<(), Error> {
    let project = files.project().clone();
    files.generated("deploy/rbac.yaml", &single_cluster(&project))?;
    if let Some(namespace) = &project.fleet {
        files.generated("deploy/fleet-home-rbac.yaml", &fleet_home(&project, namespace))?;
        files.generated("deploy/fleet-member-rbac.yaml", &fleet_member(&project))?;
    }
    Ok(())
}

/// The rules of `kinds`: each resource, and its status and finalizers, grouped by API
/// group in the order the kinds were created.
fn kind_rules<'a>(kinds: impl Iterator<Item = &'a Kind>) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for kind in kinds {
        match groups.iter_mut().find(|(group, _)| *group == kind.group) {
            Some((_, plurals)) => plurals.push(&kind.plural),
            None => groups.push((&kind.group, vec![&kind.plural])),
        }
    }
    let mut rules = String::new();
    for (group, plurals) in &groups {
        let resources = plurals.join(", ");
        let subresources = plurals
            .iter()
            .flat_map(|p| [format!("{p}/status"), format!("{p}/finalizers")])
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            rules,
            "  - apiGroups: [{group}]\n    resources: [{resources}]\n    verbs: [get, list, watch, create, update, patch, delete]\n  - apiGroups: [{group}]\n    resources: [{subresources}]\n    verbs: [get, update, patch]\n"
        );
    }
    rules
}

/// Events, which every controller records where its objects are.
const EVENTS: &str = "  - apiGroups: [\"\", events.k8s.io]\n    resources: [events]\n    verbs: [create, patch]\n";

/// The reviews the manager sends to guard `/metrics` (`--metrics-secure`).
const REVIEWS: &str = "  - apiGroups: [authentication.k8s.io]\n    resources: [tokenreviews]\n    verbs: [create]\n  - apiGroups: [authorization.k8s.io]\n    resources: [subjectaccessreviews]\n    verbs: [create]\n";

/// A binding of `role` (a `ClusterRole`, or a `Role` in `namespace`) to the operator's
/// `ServiceAccount`.
fn binding(name: &str, role: &str, role_kind: &str, namespace: Option<&str>) -> String {
    let (kind, metadata_namespace) = match namespace {
        Some(namespace) => ("RoleBinding", format!("\n  namespace: {namespace}")),
        None => ("ClusterRoleBinding", String::new()),
    };
    format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n  name: {role}{metadata_namespace}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: {role_kind}\n  name: {role}\nsubjects:\n  - kind: ServiceAccount\n    name: {name}\n    namespace: {name}-system\n"
    )
}

fn single_cluster(project: &Project) -> String {
    let name = &project.name;
    let rules = kind_rules(project.kinds.iter());
    format!(
        "# What the {name} operator may do: its resources, Events, its leader-election Lease\n# and the reviews that guard /metrics. Written by cargo wheelhouse from PROJECT's kinds;\n# add the rules for the objects your controllers create.\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {name}\nrules:\n{rules}{EVENTS}  - apiGroups: [coordination.k8s.io]\n    resources: [leases]\n    verbs: [get, list, watch, create, update, patch]\n{REVIEWS}---\n{}",
        binding(name, name, "ClusterRole", None)
    )
}

/// Whether a kind reconciles in every member (a reconciler, run by a fleet
/// controller) rather than in the home cluster (the phase scheduler, which has no
/// fleet builder).
fn in_members(kind: &Kind) -> bool {
    matches!(kind.controller, Controller::Reconciler)
}

fn fleet_home(project: &Project, secrets_namespace: &str) -> String {
    let name = &project.name;
    let home_kinds = kind_rules(project.kinds.iter().filter(|k| !in_members(k)));
    let mut out = format!(
        "# The {name} fleet operator in its home cluster, where it runs (deploy/operator.yaml makes\n# its namespace, ServiceAccount and Deployment): the members' <cluster>-kubeconfig Secrets,\n# read in {secrets_namespace} only; its Leases (leader election; a sharded ring also deletes\n# the Leases of replicas that left) and Events in {name}-system; the reviews that guard\n# /metrics; and the kinds on the phase scheduler, which reconcile here.\n# Written by cargo wheelhouse from PROJECT's kinds (init --fleet).\n"
    );
    if secrets_namespace != format!("{name}-system") {
        let _ = write!(
            out,
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {secrets_namespace}\n---\n"
        );
    }
    let _ = write!(
        out,
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {name}-kubeconfigs\n  namespace: {secrets_namespace}\nrules:\n  - apiGroups: [\"\"]\n    resources: [secrets]\n    verbs: [get, list, watch]\n---\n{}---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {name}-leader\n  namespace: {name}-system\nrules:\n  - apiGroups: [coordination.k8s.io]\n    resources: [leases]\n    verbs: [get, list, watch, create, update, patch, delete]\n---\n{}---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {name}-home\nrules:\n{home_kinds}{EVENTS}{REVIEWS}---\n{}",
        binding(name, &format!("{name}-kubeconfigs"), "Role", Some(secrets_namespace)),
        binding(name, &format!("{name}-leader"), "Role", Some(&format!("{name}-system"))),
        binding(name, &format!("{name}-home"), "ClusterRole", None),
    );
    out
}

fn fleet_member(project: &Project) -> String {
    let name = &project.name;
    let rules = kind_rules(project.kinds.iter().filter(|k| in_members(k)));
    format!(
        "# The {name} fleet operator in each member cluster: what its controllers do there (the\n# kinds with a reconciler, and Events; apply deploy/crd.yaml too). Apply this in every\n# member, then put a kubeconfig of the ServiceAccount {name} (namespace {name}-system) in\n# the home cluster's <member>-kubeconfig Secret, under the key `value`.\n# Written by cargo wheelhouse from PROJECT's kinds (init --fleet); add the rules for the\n# objects your controllers create.\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: {name}-system\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n  namespace: {name}-system\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {name}-member\nrules:\n{rules}{EVENTS}---\n{}",
        binding(name, &format!("{name}-member"), "ClusterRole", None)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(plural: &str, controller: Controller) -> Kind {
        Kind {
            group: "shop.example.com".into(),
            kind: plural.into(),
            plural: plural.into(),
            versions: vec!["v1".into()],
            storage: "v1".into(),
            controller,
            ..Kind::default()
        }
    }

    #[test]
    fn a_fleet_splits_the_kinds_between_home_and_members() {
        let project = Project {
            name: "shop-operator".into(),
            fleet: Some("fleet".into()),
            kinds: vec![
                kind("widgets", Controller::Reconciler),
                kind("rollouts", Controller::Phases(vec!["Pending".into()])),
            ],
            ..Project::default()
        };
        let home = fleet_home(&project, "fleet");
        let member = fleet_member(&project);
        assert!(
            home.contains("resources: [rollouts]") && !home.contains("widgets"),
            "{home}"
        );
        assert!(
            member.contains("resources: [widgets]") && !member.contains("rollouts"),
            "{member}"
        );
        assert!(home.contains("kind: Namespace\nmetadata:\n  name: fleet\n"), "{home}");
        // The Secrets' namespace is the operator's own: operator.yaml makes it.
        let own = fleet_home(&project, "shop-operator-system");
        assert!(!own.contains("kind: Namespace"), "{own}");
        assert!(!member.contains("leases") && !member.contains("secrets"), "{member}");
    }
}
