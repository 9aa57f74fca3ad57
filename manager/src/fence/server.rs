//! Server-side fencing (opt-in): see [`ServerFencing`], whose documentation says how
//! it works, what it costs and what it leaves out.

use std::fmt::Write as _;

use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::core::{ApiResource, DynamicObject, GroupVersionKind};
use serde_json::{Value, json};

/// The annotation a fenced write carries: the term it was sent in,
/// `<lease namespace>/<lease name>/<holderIdentity>/<leaseTransitions>` of the Lease
/// record that began it (the Lease named first, so that each operator's policy judges
/// only the objects stamped with its own Lease).
pub const TERM_ANNOTATION: &str = "wheelhouse.dev/leader-term";

/// Server-side fencing (opt-in): the API server itself refuses a write sent in a
/// leadership term that has ended, however late the network delivers it.
///
/// The client-side fence ([`Fenced`](crate::Fenced)) stops a write before it leaves
/// the process, and cancels it at the term's end; what it cannot stop is a request
/// whose bytes already left and that a partition holds past a takeover. For the
/// resources named here, the manager's client stamps every create, update and patch
/// of the object itself with the term it was sent in ([`TERM_ANNOTATION`]: the Lease,
/// and `<holderIdentity>/<leaseTransitions>` of the record that began the term), and
/// a `ValidatingAdmissionPolicy` ([`ServerFencing::manifests`]) whose parameter is the
/// leader-election Lease refuses a stamped object whose term is not the Lease's now.
/// A write held in a partition while another replica took the Lease arrives with the
/// old term, and is answered 403 without being applied.
///
/// # What it costs
///
/// - One CEL evaluation in admission per write of a fenced resource (the binding
///   matches only those resources, and `matchConditions` can narrow it to the
///   operator's own user); the Lease is read from the admission plugin's informer, not
///   from etcd.
/// - One annotation on every fenced object, rewritten on the first write of each new
///   term (annotation churn: one extra changed field per object and takeover; within a
///   term the value does not change, so a write that changed nothing else stays a
///   no-op).
/// - The manager's client reads and re-serialises the body of each fenced write to
///   stamp it.
///
/// # What it judges against
///
/// The admission plugin reads the Lease from its informer, not from etcd: a write that
/// arrives within that informer's lag of a takeover (milliseconds on a healthy server) is
/// judged against the record before it. The same lag refuses the new leader's first
/// writes (403, retried by the workqueue) until the informer has its term; and a takeover
/// comes at least `lease_duration - renew_deadline` after the old term's end. So the
/// policy never lets both terms write: it follows the Lease's history one record at a
/// time, a lag behind. Each kube-apiserver has its own informer, each with its lag.
///
/// Known problem of kube-apiserver (kubernetes/kubernetes#130887, still open): once no
/// binding names `paramKind` Lease for a policy refresh (say the binding is deleted and
/// applied again), the server's Lease informer is stopped for good and never restarted;
/// its policies then judge against a frozen copy of the Lease (and find no new one) until
/// kube-apiserver restarts. Install the binding once with `deploy/` and leave it in place
/// (or restart the API servers after removing it).
///
/// # What it does not cover
///
/// - Writes to a subresource (`/status`, `/scale`): kube-apiserver's status strategy
///   copies the stored object's metadata over the request's, so a term stamped there
///   never reaches the policy. Fence status writes with a `resourceVersion`
///   precondition (`replace_status` with the object read in the term): a write from an
///   ended term then fails with 409 if anything was written since it read the object.
/// - Deletes: a DELETE carries no object. Use `Preconditions` (uid, resourceVersion).
/// - JSON patches (`application/json-patch+json`) are sent unstamped; the stored
///   object's term is what the policy judges. Use merge or apply patches on fenced
///   resources.
/// - A missing Lease: the binding's `parameterNotFoundAction` is `Allow`, so that users
///   can write the fenced resources before any replica has led (and while a deleted
///   Lease is being re-created); the client-side fence alone covers that window.
/// - Sharding: a ring member's term is its own Lease's, which a single binding cannot
///   name; [`ManagerBuilder::server_fencing`](crate::ManagerBuilder::server_fencing)
///   with sharding is refused.
/// - Clusters before 1.30 (`admissionregistration.k8s.io/v1` policies are GA in 1.30;
///   1.19 has none): [`ServerFencing::mechanism`] says so from discovery, and the
///   operator's own validating webhook fences there instead
///   ([`FenceWebhook`](crate::FenceWebhook), which reads the Lease from etcd for each
///   write). A `resourceVersion` precondition is no substitute: it refuses a held
///   write only when something else wrote the object since it was read, and a new
///   leader that finds the object as it wants it writes nothing.
///
/// Which writes the API server fences, and the policy that does it.
///
/// ```
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_manager::ServerFencing;
///
/// let fencing = ServerFencing::new("webapp-fencing")
///     .resource::<ConfigMap>()
///     .operator("system:serviceaccount:webapp-system:webapp-operator");
/// let manifests = fencing.manifests("webapp-system", "webapp-leader");
/// assert_eq!(manifests[0]["kind"], "ValidatingAdmissionPolicy");
/// assert_eq!(manifests[1]["spec"]["paramRef"]["name"], "webapp-leader");
/// assert!(fencing.fences("", "configmaps"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerFencing {
    /// The policy's and the binding's name (both cluster-scoped).
    name: String,
    /// (group, plural) of each fenced resource.
    resources: Vec<(String, String)>,
    /// When set, only this user's writes are judged (`matchConditions`): users editing
    /// a fenced object by hand keep whatever term it carries, and must not be refused.
    operator: Option<String>,
}

/// Why the policy could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum ServerFencingError {
    /// The API server serves no `admissionregistration.k8s.io/v1`
    /// `ValidatingAdmissionPolicy` (before 1.30); the reason says what discovery found.
    #[error("server-side fencing is not available on this API server: {0}")]
    Unsupported(String),
    /// A request failed.
    #[error("server-side fencing: {0}")]
    Kube(#[from] kube::Error),
}

impl ServerFencing {
    /// Fencing named `name` (the policy and binding are cluster-scoped: name them after
    /// the operator), fencing no resource yet.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            resources: Vec::new(),
            operator: None,
        }
    }

    /// Fences writes of `K` (the object itself, not its subresources).
    #[must_use]
    pub fn resource<K: kube::Resource<DynamicType = ()>>(self) -> Self {
        self.resource_named(K::group(&()), K::plural(&()))
    }

    /// Fences writes of the resource `plural` of API group `group` ("" for the core
    /// group).
    #[must_use]
    pub fn resource_named(mut self, group: impl Into<String>, plural: impl Into<String>) -> Self {
        let resource = (group.into(), plural.into());
        if !self.resources.contains(&resource) {
            self.resources.push(resource);
        }
        self
    }

    /// Judges only the writes of `username` (the operator's service account,
    /// `system:serviceaccount:<namespace>:<name>`): anyone else's write of a fenced
    /// object passes whatever term it carries.
    #[must_use]
    pub fn operator(mut self, username: impl Into<String>) -> Self {
        self.operator = Some(username.into());
        self
    }

    /// The policy's and the binding's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The user whose writes alone are judged, if one was named.
    pub fn operator_name(&self) -> Option<&str> {
        self.operator.as_deref()
    }

    /// The fenced resources' plurals by API group, in the order first named.
    pub(crate) fn groups(&self) -> Vec<(&str, Vec<&str>)> {
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for (group, plural) in &self.resources {
            match groups.iter_mut().find(|(g, _)| g == group) {
                Some((_, plurals)) => plurals.push(plural),
                None => groups.push((group, vec![plural])),
            }
        }
        groups
    }

    /// Whether writes of `group`/`plural` are stamped and judged.
    pub fn fences(&self, group: &str, plural: &str) -> bool {
        self.resources.iter().any(|(g, p)| g == group && p == plural)
    }

    /// The admission rules that send the fenced resources' creates and updates to the
    /// policy or the webhook.
    pub(super) fn admission_rules(&self) -> Vec<Value> {
        self.groups()
            .iter()
            .map(|(group, plurals)| {
                json!({
                    "apiGroups": [group],
                    "apiVersions": ["*"],
                    "operations": ["CREATE", "UPDATE"],
                    "resources": plurals,
                })
            })
            .collect()
    }

    /// The `ValidatingAdmissionPolicy` and its binding for the Lease
    /// `lease_namespace/lease_name`, as JSON objects (admissionregistration.k8s.io/v1).
    pub fn manifests(&self, lease_namespace: &str, lease_name: &str) -> [Value; 2] {
        let rules = self.admission_rules();
        let key = cel_string(TERM_ANNOTATION);
        let stamped = format!("object.metadata.annotations[{key}]");
        let prefix = cel_string(&format!("{lease_namespace}/{lease_name}/"));
        let mut spec = json!({
            "failurePolicy": "Fail",
            "paramKind": {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease"},
            "matchConstraints": {"resourceRules": rules},
            "variables": [{
                "name": "term",
                "expression": "(has(params.spec.holderIdentity) ? params.spec.holderIdentity : '') + '/' + \
                               string(has(params.spec.leaseTransitions) ? params.spec.leaseTransitions : 0)",
            }],
            // Only objects stamped with a term of this Lease: another operator's
            // fencing (its own Lease, its own policy) is not this policy's to judge.
            "matchConditions": [{
                "name": "stamped-with-this-lease",
                "expression": format!(
                    "has(object.metadata.annotations) && {key} in object.metadata.annotations && {stamped}.startsWith({prefix})"
                ),
            }],
            "validations": [{
                "expression": format!("{stamped} == {prefix} + variables.term"),
                "messageExpression": format!(
                    "'written in leadership term ' + {stamped} + ', but the lease is in term ' + {prefix} + variables.term + ' now'"
                ),
                "reason": "Forbidden",
            }],
        });
        if let Some(operator) = &self.operator
            && let Some(conditions) = spec["matchConditions"].as_array_mut()
        {
            conditions.push(json!({
                "name": "operator",
                "expression": format!("request.userInfo.username == {}", cel_string(operator)),
            }));
        }
        let policy = json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicy",
            "metadata": {"name": self.name},
            "spec": spec,
        });
        let binding = json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicyBinding",
            "metadata": {"name": self.name},
            "spec": {
                "policyName": self.name,
                "validationActions": ["Deny"],
                "paramRef": {
                    "name": lease_name,
                    "namespace": lease_namespace,
                    "parameterNotFoundAction": "Allow",
                },
            },
        });
        [policy, binding]
    }

    /// [`manifests`](Self::manifests) as YAML documents (for `deploy/`), JSON being
    /// YAML.
    pub fn to_yaml(&self, lease_namespace: &str, lease_name: &str) -> String {
        let mut text = String::new();
        for manifest in self.manifests(lease_namespace, lease_name) {
            let _ = writeln!(
                text,
                "---\n{}",
                serde_json::to_string_pretty(&manifest).unwrap_or_default()
            );
        }
        text
    }

    /// Ok when the API server serves `admissionregistration.k8s.io/v1`
    /// `ValidatingAdmissionPolicy`; else why not (from discovery), and the fence
    /// webhook ([`FenceWebhook`](crate::FenceWebhook)) is the fallback.
    ///
    /// # Errors
    /// [`ServerFencingError::Unsupported`] with what discovery found, or the request's
    /// error.
    pub async fn supported(client: &kube::Client) -> Result<(), ServerFencingError> {
        let resources = match client.list_api_group_resources("admissionregistration.k8s.io/v1").await {
            Ok(resources) => resources,
            Err(kube::Error::Api(status)) if status.code == 404 => {
                return Err(ServerFencingError::Unsupported(
                    "discovery has no admissionregistration.k8s.io/v1 (kube-apiserver before 1.16)".into(),
                ));
            }
            Err(error) => return Err(error.into()),
        };
        let served = |name: &str| resources.resources.iter().any(|r| r.name == name);
        if served("validatingadmissionpolicies") && served("validatingadmissionpolicybindings") {
            return Ok(());
        }
        let version = client
            .apiserver_version()
            .await
            .map_or_else(|_| "unknown".into(), |v| v.git_version);
        Err(ServerFencingError::Unsupported(format!(
            "admissionregistration.k8s.io/v1 serves no validatingadmissionpolicies on {version} (GA in 1.30); \
             fence with the fence webhook instead (ServerFencing::webhook_manifest, Manager::fence_webhook)"
        )))
    }

    /// Installs the policy and binding for the Lease `lease_namespace/lease_name` with
    /// server-side apply (field manager `wheelhouse-fencing`). The admission plugin
    /// picks them up within a second or so; writes before that are not judged.
    ///
    /// # Errors
    /// [`ServerFencingError::Unsupported`] before 1.30, or a request's error.
    pub async fn install(
        &self,
        client: &kube::Client,
        lease_namespace: &str,
        lease_name: &str,
    ) -> Result<(), ServerFencingError> {
        Self::supported(client).await?;
        let params = PatchParams::apply("wheelhouse-fencing").force();
        for manifest in self.manifests(lease_namespace, lease_name) {
            let api = admission_api(client, manifest_kind(&manifest));
            api.patch(&self.name, &params, &Patch::Apply(&manifest)).await?;
        }
        Ok(())
    }

    /// Removes the binding and the policy (absent ones are not an error).
    ///
    /// # Errors
    /// A request's error other than 404.
    pub async fn uninstall(&self, client: &kube::Client) -> Result<(), ServerFencingError> {
        for kind in ["ValidatingAdmissionPolicyBinding", "ValidatingAdmissionPolicy"] {
            match admission_api(client, kind)
                .delete(&self.name, &DeleteParams::default())
                .await
            {
                Ok(_) => {}
                Err(kube::Error::Api(status)) if status.code == 404 => {}
                Err(error) => return Err(error.into()),
            }
        }
        Ok(())
    }
}

fn manifest_kind(manifest: &Value) -> &str {
    manifest["kind"].as_str().unwrap_or_default()
}

fn admission_api(client: &kube::Client, kind: &str) -> Api<DynamicObject> {
    let gvk = GroupVersionKind::gvk("admissionregistration.k8s.io", "v1", kind);
    let plural = format!("{}s", kind.to_lowercase()).replace("policys", "policies");
    Api::all_with(client.clone(), &ApiResource::from_gvk_with_plural(&gvk, &plural))
}

/// `value` as a CEL string literal.
fn cel_string(value: &str) -> String {
    let mut literal = String::from("'");
    for c in value.chars() {
        match c {
            '\\' => literal.push_str("\\\\"),
            '\'' => literal.push_str("\\'"),
            c => literal.push(c),
        }
    }
    literal.push('\'');
    literal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_matches_the_fenced_resources_by_group_and_judges_only_the_operator() {
        let fencing = ServerFencing::new("f")
            .resource_named("", "configmaps")
            .resource_named("apps", "deployments")
            .resource_named("", "secrets")
            .resource_named("", "configmaps")
            .operator("system:serviceaccount:ns:o'p");
        let [policy, binding] = fencing.manifests("ns", "lease");
        let rules = &policy["spec"]["matchConstraints"]["resourceRules"];
        assert_eq!(rules[0]["resources"], json!(["configmaps", "secrets"]));
        assert_eq!(rules[1]["apiGroups"], json!(["apps"]));
        assert_eq!(
            policy["spec"]["matchConditions"][1]["expression"],
            "request.userInfo.username == 'system:serviceaccount:ns:o\\'p'"
        );
        assert_eq!(binding["spec"]["paramRef"]["namespace"], "ns");
        assert!(fencing.fences("apps", "deployments") && !fencing.fences("apps", "configmaps"));
    }

    #[test]
    fn admission_resources_are_named_by_their_plurals() {
        let client_free = |kind| {
            let gvk = GroupVersionKind::gvk("admissionregistration.k8s.io", "v1", kind);
            let plural = format!("{}s", kind.to_lowercase()).replace("policys", "policies");
            ApiResource::from_gvk_with_plural(&gvk, &plural).plural
        };
        assert_eq!(client_free("ValidatingAdmissionPolicy"), "validatingadmissionpolicies");
        assert_eq!(
            client_free("ValidatingAdmissionPolicyBinding"),
            "validatingadmissionpolicybindings"
        );
    }

    #[test]
    fn yaml_documents_are_the_manifests() {
        let text = ServerFencing::new("f")
            .resource_named("", "configmaps")
            .to_yaml("ns", "l");
        assert_eq!(text.matches("---\n").count(), 2);
        assert!(text.contains("\"paramKind\""));
    }
}
