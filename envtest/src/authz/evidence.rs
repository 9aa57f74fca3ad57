//! RBAC from evidence: the least-privilege rules that grant exactly the requests a user
//! sent to the embedded server, as a `ClusterRole` and a `Role` per namespace.
//!
//! kubebuilder keeps rules by hand in `+kubebuilder:rbac` markers, which drift from what
//! the code does; here a test run is the evidence. A rule grants the product of its
//! groups, resources and verbs, so a rule holds one API group and the resources whose
//! verbs are the same: that product is then exactly what was sent.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use k8s_openapi::api::rbac::v1::PolicyRule;
use serde_json::Value;

use crate::request::Target;
use crate::state::{ApiServer, Evidence, Object};

mod owners;

/// Non-resource URLs every authenticated user may `get` through the default
/// `system:discovery` and `system:public-info-viewer` `ClusterRoles`: a rule for them
/// would grant nothing.
const PUBLIC_URLS: &[&str] = &[
    "/api",
    "/api/*",
    "/apis",
    "/apis/*",
    "/healthz",
    "/livez",
    "/readyz",
    "/openapi",
    "/openapi/*",
    "/version",
    "/version/",
];

fn is_public(url: &str, verb: &str) -> bool {
    verb == "get"
        && PUBLIC_URLS.iter().any(|pattern| match pattern.strip_suffix('*') {
            Some(prefix) => url.starts_with(prefix),
            None => url == *pattern,
        })
}

/// The least-privilege RBAC rules for what one user sent: a `ClusterRole` for requests
/// that are not in a namespace (cluster-scoped resources, lists and watches across all
/// namespaces, non-resource URLs), and a `Role` for each namespace the user sent
/// namespaced requests to that the `ClusterRole` does not already grant.
///
/// Made by [`ApiServer::rbac_for`]. A test's namespace usually stands for any namespace
/// the operator will meet: [`cluster_wide`](Self::cluster_wide) moves its rules into the
/// `ClusterRole`.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use k8s_openapi::api::coordination::v1::Lease;
/// use kube::api::{Api, ListParams, PostParams};
/// use wheelhouse_envtest::ApiServer;
///
/// let server = ApiServer::new(Default::default());
/// let operator = kube::Client::new(server.as_user("operator"), "default");
/// Api::<ConfigMap>::all(operator.clone()).list(&ListParams::default()).await.unwrap();
/// let lease = serde_json::from_value(serde_json::json!({"metadata": {"name": "lock"}})).unwrap();
/// Api::<Lease>::namespaced(operator, "kube-system").create(&PostParams::default(), &lease).await.unwrap();
///
/// let rbac = server.rbac_for("operator");
/// assert_eq!(
///     rbac.to_yaml("operator"),
///     "\
/// apiVersion: rbac.authorization.k8s.io/v1
/// kind: ClusterRole
/// metadata:
///   name: operator
/// rules:
/// - apiGroups: [\"\"]
///   resources: [configmaps]
///   verbs: [list]
/// ---
/// apiVersion: rbac.authorization.k8s.io/v1
/// kind: Role
/// metadata:
///   name: operator
///   namespace: kube-system
/// rules:
/// - apiGroups: [coordination.k8s.io]
///   resources: [leases]
///   verbs: [create]
/// "
/// );
/// # }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rbac {
    /// The verbs sent for each object, by namespace (None: the `ClusterRole`).
    /// Invariant: no namespace holds a verb the `ClusterRole` holds for the same
    /// resource, and non-resource URLs are only in the `ClusterRole`.
    grants: BTreeMap<Option<String>, BTreeMap<Object, BTreeSet<String>>>,
}

impl Rbac {
    pub(crate) fn from_evidence(evidence: impl IntoIterator<Item = Evidence>) -> Self {
        let mut rbac = Self::default();
        for Evidence {
            namespace,
            object,
            verb,
        } in evidence
        {
            let namespace = match &object {
                Object::Url(url) if is_public(url, &verb) => continue,
                Object::Url(_) => None,
                Object::Resource { .. } => namespace,
            };
            rbac.grants
                .entry(namespace)
                .or_default()
                .entry(object)
                .or_default()
                .insert(verb);
        }
        rbac.drop_what_the_cluster_role_grants();
        rbac
    }

    fn drop_what_the_cluster_role_grants(&mut self) {
        let cluster = self.grants.get(&None).cloned().unwrap_or_default();
        for (namespace, objects) in &mut self.grants {
            if namespace.is_none() {
                continue;
            }
            for (object, verbs) in objects.iter_mut() {
                if let Some(granted) = cluster.get(object) {
                    verbs.retain(|verb| !granted.contains(verb));
                }
            }
            objects.retain(|_, verbs| !verbs.is_empty());
        }
        self.grants.retain(|_, objects| !objects.is_empty());
    }

    /// The same rules with those of `namespace` granted in every namespace (in the
    /// `ClusterRole`): for the namespace a test put its objects in, which stands for
    /// any namespace an operator that watches them all will meet.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use kube::api::{Api, ListParams};
    /// use wheelhouse_envtest::ApiServer;
    ///
    /// let server = ApiServer::new(Default::default());
    /// let operator = kube::Client::new(server.as_user("operator"), "default");
    /// Api::<ConfigMap>::namespaced(operator, "test-1").list(&ListParams::default()).await.unwrap();
    /// let rbac = server.rbac_for("operator");
    /// assert_eq!(rbac.namespaces(), ["test-1"]);
    /// let rbac = rbac.cluster_wide("test-1");
    /// assert!(rbac.namespaces().is_empty());
    /// assert_eq!(rbac.cluster_rules()[0].resources.as_deref(), Some(&["configmaps".to_owned()][..]));
    /// # }
    /// ```
    #[must_use]
    pub fn cluster_wide(mut self, namespace: &str) -> Self {
        if let Some(objects) = self.grants.remove(&Some(namespace.to_owned())) {
            let cluster = self.grants.entry(None).or_default();
            for (object, verbs) in objects {
                cluster.entry(object).or_default().extend(verbs);
            }
        }
        self.drop_what_the_cluster_role_grants();
        self
    }

    /// The same rules plus `verbs` on `resource` of API group `group`, in every
    /// namespace: what the operator needs but a test run may not exercise, stated by
    /// its author beside the evidence (kube's event recorder, for one, patches an Event
    /// only when it sends the same one again within its aggregation window).
    ///
    /// ```
    /// use wheelhouse_envtest::ApiServer;
    ///
    /// let server = ApiServer::new(Default::default());
    /// let rbac = server.rbac_for("operator").grant("events.k8s.io", "events", &["create", "patch"]);
    /// let rule = &rbac.cluster_rules()[0];
    /// assert_eq!(rule.verbs, ["create", "patch"]);
    /// ```
    #[must_use]
    pub fn grant(mut self, group: &str, resource: &str, verbs: &[&str]) -> Self {
        let object = Object::Resource {
            group: group.to_owned(),
            resource: resource.to_owned(),
        };
        self.grants
            .entry(None)
            .or_default()
            .entry(object)
            .or_default()
            .extend(verbs.iter().map(|verb| (*verb).to_owned()));
        self.drop_what_the_cluster_role_grants();
        self
    }

    /// Whether the user sent nothing that needs a permission.
    pub fn is_empty(&self) -> bool {
        self.grants.is_empty()
    }

    /// The rules of the `ClusterRole`.
    pub fn cluster_rules(&self) -> Vec<PolicyRule> {
        self.grants.get(&None).map(rules).unwrap_or_default()
    }

    /// The namespaces that need a `Role`, in order.
    pub fn namespaces(&self) -> Vec<&str> {
        self.grants.keys().filter_map(Option::as_deref).collect()
    }

    /// The rules of the `Role` in `namespace` (none when it needs no `Role`).
    pub fn namespace_rules(&self, namespace: &str) -> Vec<PolicyRule> {
        self.grants
            .get(&Some(namespace.to_owned()))
            .map(rules)
            .unwrap_or_default()
    }

    /// The `ClusterRole` and the `Role`s, all called `name`, as YAML documents separated
    /// by `---` (flow-style lists, as people write RBAC by hand). Empty when there is
    /// nothing to grant.
    pub fn to_yaml(&self, name: &str) -> String {
        let mut documents = Vec::new();
        let cluster_rules = self.cluster_rules();
        if !cluster_rules.is_empty() {
            documents.push(role_yaml("ClusterRole", name, None, &cluster_rules));
        }
        for namespace in self.namespaces() {
            documents.push(role_yaml(
                "Role",
                name,
                Some(namespace),
                &self.namespace_rules(namespace),
            ));
        }
        documents.join("---\n")
    }
}

/// The rules for one role: per API group, the resources with equal verbs in one rule;
/// then the non-resource URLs with equal verbs in one rule.
fn rules(objects: &BTreeMap<Object, BTreeSet<String>>) -> Vec<PolicyRule> {
    let mut by_group: BTreeMap<&str, BTreeMap<Vec<String>, Vec<String>>> = BTreeMap::new();
    let mut urls: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for (object, verbs) in objects {
        let verbs = ordered(verbs);
        match object {
            Object::Resource { group, resource } => by_group
                .entry(group)
                .or_default()
                .entry(verbs)
                .or_default()
                .push(resource.clone()),
            Object::Url(url) => urls.entry(verbs).or_default().push(url.clone()),
        }
    }
    let mut rules: Vec<PolicyRule> = Vec::new();
    for (group, by_verbs) in by_group {
        let mut group_rules: Vec<PolicyRule> = by_verbs
            .into_iter()
            .map(|(verbs, resources)| PolicyRule {
                api_groups: Some(vec![group.to_owned()]),
                resources: Some(resources),
                verbs,
                ..PolicyRule::default()
            })
            .collect();
        group_rules.sort_by(|a, b| a.resources.cmp(&b.resources));
        rules.extend(group_rules);
    }
    let mut url_rules: Vec<PolicyRule> = urls
        .into_iter()
        .map(|(verbs, urls)| PolicyRule {
            non_resource_urls: Some(urls),
            verbs,
            ..PolicyRule::default()
        })
        .collect();
    url_rules.sort_by(|a, b| a.non_resource_urls.cmp(&b.non_resource_urls));
    rules.extend(url_rules);
    rules
}

/// Verbs in the order Kubernetes lists them (`get, list, watch, create, update, patch,
/// delete, deletecollection`), other verbs (HTTP methods of non-resource URLs) after.
fn ordered(verbs: &BTreeSet<String>) -> Vec<String> {
    const ORDER: &[&str] = &[
        "get",
        "list",
        "watch",
        "create",
        "update",
        "patch",
        "delete",
        "deletecollection",
    ];
    let rank = |verb: &str| ORDER.iter().position(|v| *v == verb).unwrap_or(ORDER.len());
    let mut verbs: Vec<String> = verbs.iter().cloned().collect();
    verbs.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    verbs
}

fn role_yaml(kind: &str, name: &str, namespace: Option<&str>, rules: &[PolicyRule]) -> String {
    let mut yaml = format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n  name: {}\n",
        scalar(name)
    );
    if let Some(namespace) = namespace {
        let _ = writeln!(yaml, "  namespace: {}", scalar(namespace));
    }
    yaml.push_str("rules:\n");
    for rule in rules {
        let mut fields = Vec::new();
        if let Some(groups) = &rule.api_groups {
            fields.push(("apiGroups", groups));
        }
        if let Some(resources) = &rule.resources {
            fields.push(("resources", resources));
        }
        if let Some(urls) = &rule.non_resource_urls {
            fields.push(("nonResourceURLs", urls));
        }
        fields.push(("verbs", &rule.verbs));
        for (index, (field, values)) in fields.into_iter().enumerate() {
            let values: Vec<String> = values.iter().map(|v| scalar(v)).collect();
            let lead = if index == 0 { "- " } else { "  " };
            let _ = writeln!(yaml, "{lead}{field}: [{}]", values.join(", "));
        }
    }
    yaml
}

/// A YAML scalar: plain when it reads back as the same string, else double-quoted
/// (a JSON string is a YAML double-quoted scalar).
fn scalar(value: &str) -> String {
    let plain = value
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '/')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'))
        && !value.chars().all(|c| c.is_ascii_digit() || c == '.')
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        value.to_owned()
    } else {
        serde_json::Value::from(value).to_string()
    }
}

impl ApiServer {
    /// The least-privilege RBAC rules for every request `user` sent (see
    /// [`as_user`](Self::as_user)), from the server's own records: resources with their
    /// subresources (`webapps/status`), non-resource URLs beyond those every
    /// authenticated user may read, in the namespace each request was sent to; and what
    /// the `OwnerReferencesPermissionEnforcement` admission plugin would authorize
    /// (`update` on `webapps/finalizers` to make a child that blocks its WebApp's
    /// deletion), so the rules also hold on clusters that run it. See [`Rbac`] for an
    /// example.
    pub fn rbac_for(&self, user: &str) -> Rbac {
        let resources = self
            .requests()
            .into_iter()
            .filter(|record| record.user.as_deref() == Some(user))
            .map(|record| Evidence {
                namespace: record.namespace,
                object: Object::Resource {
                    group: record.group,
                    resource: match record.subresource {
                        Some(subresource) => format!("{}/{subresource}", record.resource),
                        None => record.resource,
                    },
                },
                verb: record.verb.as_str().to_owned(),
            });
        let checks = self
            .shared
            .authorization_checks
            .lock()
            .iter()
            .filter(|(sender, _)| sender.as_deref() == Some(user))
            .map(|(_, evidence)| evidence.clone())
            .collect::<Vec<_>>();
        let urls = self
            .non_resource_requests(user)
            .into_iter()
            .map(|(method, url)| Evidence {
                namespace: None,
                object: Object::Url(url),
                verb: method,
            });
        Rbac::from_evidence(resources.chain(checks).chain(urls))
    }

    /// Records what `OwnerReferencesPermissionEnforcement` would authorize for this
    /// handle's user creating (`old` None) or updating `object` through `target`.
    pub(crate) fn record_owner_reference_checks(&self, target: &Target, object: &Value, old: Option<&Value>) {
        let checks = owners::checks(&self.shared.state.lock().registry, target, object, old);
        let mut recorded = self.shared.authorization_checks.lock();
        for evidence in checks {
            recorded.insert((self.user.clone(), evidence));
        }
    }
}

#[cfg(test)]
mod tests;
