//! `deploy/rbac.yaml`: what the operator may do, from the project's kinds: its own
//! resources (with their status and finalizers), Events, the leader-election Lease,
//! and the reviews that guard `/metrics`. Rewritten as kinds are added, unless changed
//! by hand.

use std::fmt::Write as _;

use crate::Error;
use crate::files::Files;

pub fn write(files: &mut Files<'_>) -> Result<(), Error> {
    let project = files.project();
    let name = project.name.clone();
    let mut rules = String::new();
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for kind in &project.kinds {
        match groups.iter_mut().find(|(group, _)| *group == kind.group) {
            Some((_, plurals)) => plurals.push(&kind.plural),
            None => groups.push((&kind.group, vec![&kind.plural])),
        }
    }
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
    let text = format!(
        "# What the {name} operator may do: its resources, Events, its leader-election Lease\n# and the reviews that guard /metrics. Written by cargo wheelhouse from PROJECT's kinds;\n# add the rules for the objects your controllers create.\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {name}\nrules:\n{rules}  - apiGroups: [\"\", events.k8s.io]\n    resources: [events]\n    verbs: [create, patch]\n  - apiGroups: [coordination.k8s.io]\n    resources: [leases]\n    verbs: [get, list, watch, create, update, patch]\n  - apiGroups: [authentication.k8s.io]\n    resources: [tokenreviews]\n    verbs: [create]\n  - apiGroups: [authorization.k8s.io]\n    resources: [subjectaccessreviews]\n    verbs: [create]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: {name}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: {name}\nsubjects:\n  - kind: ServiceAccount\n    name: {name}\n    namespace: {name}-system\n"
    );
    files.generated("deploy/rbac.yaml", &text)
}
