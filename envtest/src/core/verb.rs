//! The API verbs a request can have, as RBAC and audit logs name them.

use std::fmt;

/// The API verbs, as kube-apiserver names them in audit logs and RBAC.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use kube::api::{Api, ListParams};
/// use wheelhouse_envtest::{ApiServer, Verb};
///
/// let server = ApiServer::new(Default::default());
/// let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.clone(), "default"));
/// api.list(&ListParams::default()).await.unwrap();
/// assert_eq!(server.request_count(Verb::List, "configmaps"), 1);
/// assert_eq!(Verb::DeleteCollection.as_str(), "deletecollection");
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    /// Read one object.
    Get,
    /// Read a collection.
    List,
    /// Stream the changes of a collection.
    Watch,
    /// POST a new object.
    Create,
    /// PUT a whole object.
    Update,
    /// PATCH an object (any patch type, including server-side apply).
    Patch,
    /// Delete one object.
    Delete,
    /// Delete a collection.
    DeleteCollection,
}

impl Verb {
    /// The lower-case name (`get`, `deletecollection`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::List => "list",
            Self::Watch => "watch",
            Self::Create => "create",
            Self::Update => "update",
            Self::Patch => "patch",
            Self::Delete => "delete",
            Self::DeleteCollection => "deletecollection",
        }
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
