//! The RBAC authorizer behind the access reviews: a request is allowed when a rule of a
//! role bound to the user (by name, by group, or as a `ServiceAccount`) covers it, or when
//! the user is in `system:masters`. The server itself still serves every request: only
//! the reviews consult these rules.
//!
//! kube-apiserver: `plugin/pkg/auth/authorizer/rbac/rbac.go` (`RuleAllows`,
//! `appliesTo`) and `pkg/apis/rbac/v1/evaluation_helpers.go` (the matchers).

use serde_json::Value;

use crate::core::GroupResource;
use crate::state::State;

const RBAC: &str = "rbac.authorization.k8s.io";

/// Who asks: a user name and its groups, as a `TokenReview` or an access review's spec
/// states them.
#[derive(Debug, Clone)]
pub(crate) struct Subject {
    pub user: String,
    pub groups: Vec<String>,
}

impl Subject {
    /// A user the server knows only by name (see `ApiServer::as_user`): authenticated,
    /// and a `ServiceAccount`'s groups when the name is a `ServiceAccount`'s.
    pub fn named(user: &str) -> Self {
        let mut groups = Vec::new();
        if let Some((namespace, _)) = user
            .strip_prefix("system:serviceaccount:")
            .and_then(|rest| rest.split_once(':'))
        {
            groups.push("system:serviceaccounts".to_owned());
            groups.push(format!("system:serviceaccounts:{namespace}"));
        }
        groups.push("system:authenticated".to_owned());
        Self {
            user: user.to_owned(),
            groups,
        }
    }
}

/// What is asked for: a resource request or a non-resource URL.
#[derive(Debug, Clone)]
pub(crate) enum Attributes {
    Resource {
        namespace: String,
        verb: String,
        group: String,
        resource: String,
        subresource: String,
        name: String,
    },
    NonResource {
        path: String,
        verb: String,
    },
}

/// The answer: allowed, why, and the roles that bindings name but do not exist.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decision {
    pub allowed: bool,
    pub reason: String,
    pub evaluation_errors: Vec<String>,
}

/// Decides as kube-apiserver's RBAC authorizer (with the `system:masters` group allowed
/// everything, as its privileged-group authorizer does).
pub(crate) fn authorize(state: &State, subject: &Subject, attributes: &Attributes) -> Decision {
    if subject.groups.iter().any(|group| group == "system:masters") {
        return Decision {
            allowed: true,
            reason: String::new(),
            evaluation_errors: Vec::new(),
        };
    }
    let mut decision = Decision::default();
    let request_namespace = match attributes {
        Attributes::Resource { namespace, .. } => namespace.as_str(),
        Attributes::NonResource { .. } => "",
    };
    let bindings = [
        ("clusterrolebindings", "ClusterRoleBinding"),
        ("rolebindings", "RoleBinding"),
    ];
    for (plural, kind) in bindings {
        for binding in &state.store.values(&rbac(plural)) {
            let binding_namespace = binding["metadata"]["namespace"].as_str().unwrap_or_default();
            if kind == "RoleBinding" && (request_namespace.is_empty() || binding_namespace != request_namespace) {
                continue;
            }
            let Some(subject_matched) = applies_to(binding, binding_namespace, subject) else {
                continue;
            };
            let role_kind = binding["roleRef"]["kind"].as_str().unwrap_or_default();
            let role_name = binding["roleRef"]["name"].as_str().unwrap_or_default();
            let role = match role_kind {
                "ClusterRole" => state.store.get(&rbac("clusterroles"), "", role_name),
                "Role" => state.store.get(&rbac("roles"), binding_namespace, role_name),
                _ => None,
            };
            let Some(role) = role else {
                let resource = if role_kind == "Role" { "role" } else { "clusterrole" };
                decision
                    .evaluation_errors
                    .push(format!("{resource}.{RBAC} \"{role_name}\" not found"));
                continue;
            };
            let rules = role["rules"].as_array().map_or(&[][..], Vec::as_slice);
            if rules.iter().any(|rule| allows(rule, attributes)) {
                let binding_name = binding["metadata"]["name"].as_str().unwrap_or_default();
                let location = if binding_namespace.is_empty() {
                    String::new()
                } else {
                    format!(" in namespace \"{binding_namespace}\"")
                };
                return Decision {
                    allowed: true,
                    reason: format!(
                        "RBAC: allowed by {kind} \"{binding_name}\" of {role_kind} \"{role_name}\" to {subject_matched}{location}"
                    ),
                    evaluation_errors: Vec::new(),
                };
            }
        }
    }
    decision
}

fn rbac(plural: &str) -> GroupResource {
    GroupResource {
        group: RBAC.to_owned(),
        resource: plural.to_owned(),
    }
}

/// The binding's subject that is `subject`, described as kube-apiserver describes it.
fn applies_to(binding: &Value, binding_namespace: &str, subject: &Subject) -> Option<String> {
    binding["subjects"].as_array()?.iter().find_map(|candidate| {
        let name = candidate["name"].as_str().unwrap_or_default();
        match candidate["kind"].as_str().unwrap_or_default() {
            "User" if name == subject.user => Some(format!("User \"{name}\"")),
            "Group" if subject.groups.iter().any(|group| group == name) => Some(format!("Group \"{name}\"")),
            "ServiceAccount" => {
                let namespace = candidate["namespace"]
                    .as_str()
                    .filter(|namespace| !namespace.is_empty())
                    .unwrap_or(binding_namespace);
                (subject.user == format!("system:serviceaccount:{namespace}:{name}"))
                    .then(|| format!("ServiceAccount \"{name}/{namespace}\""))
            }
            _ => None,
        }
    })
}

fn strings(rule: &Value, field: &str) -> Vec<String> {
    rule[field]
        .as_array()
        .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn has(values: &[String], wanted: &str) -> bool {
    values.iter().any(|value| value == "*" || value == wanted)
}

/// `RuleAllows`: the rule's verbs, and its groups, resources and names or its URLs.
fn allows(rule: &Value, attributes: &Attributes) -> bool {
    match attributes {
        Attributes::Resource {
            verb,
            group,
            resource,
            subresource,
            name,
            ..
        } => {
            let combined = if subresource.is_empty() {
                resource.clone()
            } else {
                format!("{resource}/{subresource}")
            };
            let names = strings(rule, "resourceNames");
            has(&strings(rule, "verbs"), verb)
                && has(&strings(rule, "apiGroups"), group)
                && strings(rule, "resources").iter().any(|candidate| {
                    candidate == "*"
                        || *candidate == combined
                        || (!subresource.is_empty() && candidate.strip_prefix("*/") == Some(subresource.as_str()))
                })
                && (names.is_empty() || names.iter().any(|candidate| candidate == name))
        }
        Attributes::NonResource { path, verb } => {
            has(&strings(rule, "verbs"), verb)
                && strings(rule, "nonResourceURLs").iter().any(|url| {
                    url == "*" || url == path || url.strip_suffix('*').is_some_and(|prefix| path.starts_with(prefix))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn non_resource(path: &str) -> Attributes {
        Attributes::NonResource {
            path: path.into(),
            verb: "get".into(),
        }
    }

    #[test]
    fn rules_match_as_kube_apiserver_matches_them() {
        let metrics = json!({"verbs": ["get"], "nonResourceURLs": ["/metrics"]});
        assert!(allows(&metrics, &non_resource("/metrics")));
        assert!(!allows(&metrics, &non_resource("/metrics/extra")));
        let prefix = json!({"verbs": ["*"], "nonResourceURLs": ["/debug/*"]});
        assert!(allows(&prefix, &non_resource("/debug/pprof")));
        assert!(!allows(&prefix, &non_resource("/metrics")));

        let scale = |subresource: &str, name: &str| Attributes::Resource {
            namespace: "default".into(),
            verb: "update".into(),
            group: "apps".into(),
            resource: "deployments".into(),
            subresource: subresource.into(),
            name: name.into(),
        };
        let any_subresource = json!({"verbs": ["update"], "apiGroups": ["apps"], "resources": ["*/scale"]});
        assert!(allows(&any_subresource, &scale("scale", "web")));
        assert!(!allows(&any_subresource, &scale("", "web")));
        let named = json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["deployments"], "resourceNames": ["web"]});
        assert!(allows(&named, &scale("", "web")));
        assert!(!allows(&named, &scale("", "db")));
        assert!(
            !allows(&named, &scale("scale", "web")),
            "a resource's rule does not cover its subresources"
        );
        assert!(!allows(&metrics, &scale("", "web")), "URL rules never cover resources");
    }

    #[test]
    fn service_account_users_carry_their_groups() {
        let subject = Subject::named("system:serviceaccount:monitoring:prometheus");
        assert_eq!(
            subject.groups,
            [
                "system:serviceaccounts",
                "system:serviceaccounts:monitoring",
                "system:authenticated"
            ]
        );
        let binding =
            json!({"subjects": [{"kind": "ServiceAccount", "name": "prometheus", "namespace": "monitoring"}]});
        assert_eq!(
            applies_to(&binding, "", &subject).as_deref(),
            Some("ServiceAccount \"prometheus/monitoring\"")
        );
        let group = json!({"subjects": [{"kind": "Group", "name": "system:serviceaccounts:monitoring"}]});
        assert!(applies_to(&group, "", &subject).is_some());
        assert!(applies_to(&group, "", &Subject::named("alice")).is_none());
    }
}
