//! Applying an operator's manifests to a test environment, as `kubectl apply
//! --server-side` does: admission policies and their bindings, webhook
//! configurations, RBAC, `ConfigMaps` of parameters... so a test sees them enforced
//! by the server it runs against, embedded or real.

use kube::api::{Api, DynamicObject, GroupVersionKind, Patch, PatchParams};
use kube::discovery::Scope;
use serde_json::Value;

use super::{Error, TestEnv};

/// The field manager the applies use.
const MANAGER: &str = "wheelhouse-envtest";

impl TestEnv {
    /// Applies every object of `manifests`, a YAML stream (documents separated by
    /// `---`, as in `deploy/*.yaml`), with server-side apply (forcing conflicts), in
    /// order; namespaced objects without a namespace go to [`TestEnv::namespace`].
    /// Returns the objects as the server stored them.
    ///
    /// On the embedded server a `ValidatingAdmissionPolicy` and its binding apply to
    /// the next write; a real kube-apiserver starts enforcing them a moment later, so
    /// a test that expects a refusal retries with [`eventually`](crate::eventually).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), wheelhouse_envtest::Error> {
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use kube::api::{Api, PostParams};
    /// use wheelhouse_envtest::TestEnv;
    ///
    /// let env = TestEnv::embedded().await?;
    /// let ns = env.namespace();
    /// env.apply(&format!(r#"
    /// apiVersion: admissionregistration.k8s.io/v1
    /// kind: ValidatingAdmissionPolicy
    /// metadata: {{name: small-configmaps}}
    /// spec:
    ///   matchConstraints:
    ///     resourceRules:
    ///     - {{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}}
    ///   validations:
    ///   - expression: "!has(object.data) || object.data.size() <= 2"
    ///     message: at most two keys
    /// ---
    /// apiVersion: admissionregistration.k8s.io/v1
    /// kind: ValidatingAdmissionPolicyBinding
    /// metadata: {{name: small-configmaps}}
    /// spec:
    ///   policyName: small-configmaps
    ///   validationActions: [Deny]
    ///   matchResources:
    ///     namespaceSelector: {{matchLabels: {{kubernetes.io/metadata.name: {ns}}}}}
    /// "#)).await?;
    /// let api: Api<ConfigMap> = Api::namespaced(env.client(), ns);
    /// let big: ConfigMap = serde_json::from_value(serde_json::json!({
    ///     "metadata": {"name": "big"}, "data": {"a": "1", "b": "2", "c": "3"},
    /// })).unwrap();
    /// let refused = api.create(&PostParams::default(), &big).await.unwrap_err();
    /// assert!(refused.to_string().contains("denied request: at most two keys"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn apply(&self, manifests: &str) -> Result<Vec<DynamicObject>, Error> {
        let documents: Vec<Value> =
            serde_saphyr::from_multiple(manifests).map_err(|e| Error::Manifest(format!("not YAML: {e}")))?;
        let mut applied = Vec::new();
        for document in documents.into_iter().filter(|d| !d.is_null()) {
            applied.push(self.apply_one(document).await?);
        }
        Ok(applied)
    }

    async fn apply_one(&self, document: Value) -> Result<DynamicObject, Error> {
        let text = |field: &str| document[field].as_str().map(str::to_owned);
        let (Some(api_version), Some(kind)) = (text("apiVersion"), text("kind")) else {
            return Err(Error::Manifest("an object without apiVersion or kind".to_owned()));
        };
        let Some(name) = document["metadata"]["name"].as_str().map(str::to_owned) else {
            return Err(Error::Manifest(format!("a {kind} without metadata.name")));
        };
        let (group, version) = api_version.split_once('/').unwrap_or(("", &api_version));
        let gvk = GroupVersionKind::gvk(group, version, &kind);
        let (resource, capabilities) = kube::discovery::pinned_kind(&self.client, &gvk).await?;
        let api: Api<DynamicObject> = if capabilities.scope == Scope::Namespaced {
            let namespace = document["metadata"]["namespace"]
                .as_str()
                .unwrap_or(&self.namespace)
                .to_owned();
            Api::namespaced_with(self.client.clone(), &namespace, &resource)
        } else {
            Api::all_with(self.client.clone(), &resource)
        };
        let params = PatchParams::apply(MANAGER).force();
        Ok(api.patch(&name, &params, &Patch::Apply(&document)).await?)
    }
}
