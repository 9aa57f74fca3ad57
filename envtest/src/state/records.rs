//! What the server records about the requests it receives: counts by verb and resource
//! ([`ApiServer::requests`]), non-resource URLs, and the authorizations admission asks
//! for, which `authz::evidence` turns into the rules an operator needs.

use std::sync::Arc;

use super::ApiServer;
use crate::core::Verb;
use crate::request::Target;

/// A non-resource request as RBAC authorizes it: user, lower-case HTTP method, path.
pub(crate) type NonResourceKey = (Option<Arc<str>>, String, String);

/// What the server counts a request under: what RBAC authorizes it by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct RequestKey {
    user: Option<Arc<str>>,
    verb: Verb,
    group: String,
    resource: String,
    subresource: Option<String>,
    namespace: Option<String>,
}

/// A kind of request the server received and how many of it, as RBAC sees a request:
/// verb, API group, resource and subresource (and the namespace, for Roles). See
/// [`ApiServer::requests`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRecord {
    /// Who sent it: the name given to [`ApiServer::as_user`], None for a plain clone.
    pub user: Option<String>,
    /// The verb (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, ...).
    pub verb: Verb,
    /// The API group, empty for the core group.
    pub group: String,
    /// The plural resource, like `deployments`.
    pub resource: String,
    /// The subresource, like `status` or `scale`.
    pub subresource: Option<String>,
    /// The namespace of the request; None for cluster-scoped resources and for
    /// requests across all namespaces.
    pub namespace: Option<String>,
    /// How many such requests the server received.
    pub count: u64,
}

/// What a permission is about: a resource (with its `/subresource`) in an API group, or
/// a non-resource URL such as `/metrics`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Object {
    Resource { group: String, resource: String },
    Url(String),
}

/// One request as RBAC authorizes it: the namespace (None for cluster-scoped resources,
/// requests across all namespaces and non-resource URLs), what, and the verb.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Evidence {
    pub namespace: Option<String>,
    pub object: Object,
    pub verb: String,
}

impl ApiServer {
    /// How many requests with `verb` on the plural `resource` (like `configmaps`) the
    /// server received, so tests can check, for example, that readers share one watch.
    pub fn request_count(&self, verb: Verb, resource: &str) -> u64 {
        self.shared
            .requests
            .lock()
            .iter()
            .filter(|(key, _)| key.verb == verb && key.resource == resource)
            .map(|(_, count)| count)
            .sum()
    }

    /// Every kind of resource request the server received, with its count, ordered
    /// by user, group, resource, subresource, namespace and verb: what a test compares with
    /// an operator's RBAC rules to check they cover exactly what its client sends
    /// ([`rbac_for`](Self::rbac_for) makes those rules).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use k8s_openapi::api::apps::v1::Deployment;
    /// use kube::api::{Api, ListParams};
    /// use wheelhouse_envtest::{ApiServer, Verb};
    ///
    /// let server = ApiServer::new(Default::default());
    /// let api: Api<Deployment> = Api::namespaced(kube::Client::new(server.clone(), "default"), "default");
    /// api.list(&ListParams::default()).await.unwrap();
    /// let requests = server.requests();
    /// assert_eq!(requests.len(), 1);
    /// let list = &requests[0];
    /// assert_eq!((list.verb, list.group.as_str(), list.resource.as_str()), (Verb::List, "apps", "deployments"));
    /// assert_eq!((list.subresource.as_deref(), list.namespace.as_deref(), list.count), (None, Some("default"), 1));
    /// # }
    /// ```
    pub fn requests(&self) -> Vec<RequestRecord> {
        let mut records: Vec<RequestRecord> = self
            .shared
            .requests
            .lock()
            .iter()
            .map(|(key, count)| RequestRecord {
                user: key.user.as_deref().map(str::to_owned),
                verb: key.verb,
                group: key.group.clone(),
                resource: key.resource.clone(),
                subresource: key.subresource.clone(),
                namespace: key.namespace.clone(),
                count: *count,
            })
            .collect();
        records.sort_by(|a, b| {
            (
                &a.user,
                &a.group,
                &a.resource,
                &a.subresource,
                &a.namespace,
                a.verb.as_str(),
            )
                .cmp(&(
                    &b.user,
                    &b.group,
                    &b.resource,
                    &b.subresource,
                    &b.namespace,
                    b.verb.as_str(),
                ))
        });
        records
    }

    /// The non-resource URLs `user` sent requests for, as (lower-case HTTP method, path).
    pub(crate) fn non_resource_requests(&self, user: &str) -> Vec<(String, String)> {
        self.shared
            .non_resource_requests
            .lock()
            .iter()
            .filter(|(sender, _, _)| sender.as_deref() == Some(user))
            .map(|(_, method, path)| (method.clone(), path.clone()))
            .collect()
    }

    pub(crate) fn count(&self, target: &Target) {
        let key = RequestKey {
            user: self.user.clone(),
            verb: target.verb,
            group: target.resource.group.clone(),
            resource: target.resource.plural.clone(),
            subresource: target.subresource.clone(),
            namespace: target.namespace.clone(),
        };
        *self.shared.requests.lock().entry(key).or_default() += 1;
    }
}
