//! [`Request`]: what a webhook learns of an admission request besides its objects, as
//! the server decodes it from a review, or as a unit test builds it with
//! [`Request::create`], [`Request::update`] and [`Request::delete`] to call a
//! validator or defaulter directly, as Go tests call `ValidateCreate`.

use k8s_openapi::api::authentication::v1::UserInfo;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::core::admission::Operation;
use kube::core::{GroupVersionKind, GroupVersionResource};
use serde_json::json;

use crate::registration::Object;

/// The uid of requests built for tests: a UUID, as kube-apiserver sends.
const TEST_UID: &str = "00000000-0000-4000-8000-000000000000";

/// What a webhook learns of an admission request besides the objects.
///
/// `dry_run` tells whether the request will be persisted: a webhook with side effects
/// (writing elsewhere, calling out) must skip them when it is true, which is what
/// `sideEffects: None` promises kube-apiserver.
///
/// The server decodes it from each review. A test builds one with
/// [`create`](Self::create), [`update`](Self::update) or [`delete`](Self::delete),
/// filled in as kube-apiserver fills it for that object (kind, resource, name,
/// namespace, operation, options), and changes what it needs with the `with_*`
/// setters; then it calls the webhook's own method, no server involved:
///
/// ```
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_webhook::{Denied, FieldError, Request, Validator, Warnings};
///
/// struct OwnerLabel;
///
/// impl Validator<ConfigMap> for OwnerLabel {
///     async fn validate_create(&self, map: &ConfigMap, request: &Request) -> Result<Warnings, Denied> {
///         if request.user_info.username.as_deref() == Some("system:admin") {
///             return Ok(vec!["an administrator skipped the owner check".into()]);
///         }
///         let labelled = map.metadata.labels.as_ref().is_some_and(|l| l.contains_key("owner"));
///         Denied::if_any(if labelled { vec![] } else { vec![FieldError::required("metadata.labels.owner", "")] })?;
///         Ok(Vec::new())
///     }
///     async fn validate_update(&self, _: &ConfigMap, new: &ConfigMap, request: &Request) -> Result<Warnings, Denied> {
///         self.validate_create(new, request).await
///     }
/// }
///
/// let mut map = ConfigMap::default();
/// map.metadata.name = Some("settings".into());
/// let request = Request::create(&map).with_namespace("shop");
/// assert_eq!((request.name.as_str(), request.resource.resource.as_str()), ("settings", "configmaps"));
///
/// let denied = futures::executor::block_on(OwnerLabel.validate_create(&map, &request)).unwrap_err();
/// assert_eq!(denied.to_string(), "metadata.labels.owner: Required value");
///
/// let admin = request.with_user("system:admin", ["system:masters"]);
/// let warnings = futures::executor::block_on(OwnerLabel.validate_create(&map, &admin)).unwrap();
/// assert_eq!(warnings.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Request {
    /// Identifies this call; the answer carries it back.
    pub uid: String,
    /// The type of the object, as sent to the webhook.
    pub kind: GroupVersionKind,
    /// The resource the request is for.
    pub resource: GroupVersionResource,
    /// The subresource, such as `status` or `scale`.
    pub sub_resource: Option<String>,
    /// The object's name (empty on a create with `generateName`).
    pub name: String,
    /// The object's namespace (None when cluster-scoped).
    pub namespace: Option<String>,
    /// What the request does.
    pub operation: Operation,
    /// Who asks.
    pub user_info: UserInfo,
    /// True when nothing will be persisted: skip side effects.
    pub dry_run: bool,
    /// `CreateOptions`, `UpdateOptions` or `DeleteOptions` of the request.
    pub options: Option<RawExtension>,
}

impl Request {
    /// True when the webhook may have side effects outside the object (not a dry run).
    pub fn may_have_side_effects(&self) -> bool {
        !self.dry_run
    }

    /// The request kube-apiserver sends to admit creating `object`: its type's kind
    /// and resource, its name (empty with `generateName`) and namespace, operation
    /// `CREATE` with `CreateOptions`, no user, not a dry run.
    ///
    /// For a defaulter, build it before lending the object out:
    /// `apply_defaults(&mut object, &Request::create(&object))` borrows `object` twice
    /// and does not compile, while `let request = Request::create(&object);` first does
    /// (the request describes the object as sent, before defaults).
    pub fn create<K: Object>(object: &K) -> Self {
        Self::about(object, Operation::Create, "CreateOptions")
    }

    /// The request to admit `old` becoming `new` (operation `UPDATE`, with
    /// `UpdateOptions`); named after `new`. Call the webhook with both objects:
    /// `validator.validate_update(&old, &new, &Request::update(&old, &new))`.
    pub fn update<K: Object>(old: &K, new: &K) -> Self {
        let request = Self::about(new, Operation::Update, "UpdateOptions");
        // kube-apiserver names an update after the stored object; they agree unless
        // the test gave them different names, when the new one is what it asked for.
        if request.name.is_empty() {
            return Self::about(old, Operation::Update, "UpdateOptions");
        }
        request
    }

    /// The request to admit deleting `object` (operation `DELETE`, with
    /// `DeleteOptions`); a validator sees `object` as the old object.
    pub fn delete<K: Object>(object: &K) -> Self {
        Self::about(object, Operation::Delete, "DeleteOptions")
    }

    fn about<K: Object>(object: &K, operation: Operation, options: &str) -> Self {
        let meta = object.meta();
        let (group, version) = (K::group(&()).into_owned(), K::version(&()).into_owned());
        Self {
            uid: TEST_UID.to_owned(),
            kind: GroupVersionKind::gvk(&group, &version, &K::kind(&())),
            resource: GroupVersionResource::gvr(&group, &version, &K::plural(&())),
            sub_resource: None,
            name: meta.name.clone().unwrap_or_default(),
            namespace: meta.namespace.clone(),
            operation,
            user_info: UserInfo::default(),
            dry_run: false,
            options: Some(RawExtension(json!({"apiVersion": "meta.k8s.io/v1", "kind": options}))),
        }
    }

    /// The same request from `username` in `groups`.
    #[must_use]
    pub fn with_user<G: Into<String>>(
        mut self,
        username: impl Into<String>,
        groups: impl IntoIterator<Item = G>,
    ) -> Self {
        self.user_info.username = Some(username.into());
        self.user_info.groups = Some(groups.into_iter().map(Into::into).collect());
        self
    }

    /// The same request from the user `user_info` describes (uid, extra fields).
    #[must_use]
    pub fn with_user_info(mut self, user_info: UserInfo) -> Self {
        self.user_info = user_info;
        self
    }

    /// The same request, a dry run when `dry_run` is true.
    #[must_use]
    pub fn with_dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// The same request for an object in `namespace`.
    #[must_use]
    pub fn with_namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// The same request for an object named `name`.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The same request for a subresource, such as `status`.
    #[must_use]
    pub fn with_sub_resource(mut self, sub_resource: impl Into<String>) -> Self {
        self.sub_resource = Some(sub_resource.into());
        self
    }

    /// The same request with these operation options, as JSON (for example
    /// `{"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions", "fieldManager": "kubectl"}`).
    #[must_use]
    pub fn with_options(mut self, options: serde_json::Value) -> Self {
        self.options = Some(RawExtension(options));
        self
    }

    /// The same request with another uid.
    #[must_use]
    pub fn with_uid(mut self, uid: impl Into<String>) -> Self {
        self.uid = uid.into();
        self
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::apps::v1::Deployment;

    use super::*;

    fn deployment(name: &str) -> Deployment {
        let mut deployment = Deployment::default();
        deployment.metadata.name = Some(name.into());
        deployment.metadata.namespace = Some("shop".into());
        deployment
    }

    #[test]
    fn requests_are_filled_in_as_kube_apiserver_fills_them() {
        let web = deployment("web");
        let create = Request::create(&web);
        assert_eq!(create.kind, GroupVersionKind::gvk("apps", "v1", "Deployment"));
        assert_eq!(create.resource, GroupVersionResource::gvr("apps", "v1", "deployments"));
        assert_eq!(
            (create.name.as_str(), create.namespace.as_deref()),
            ("web", Some("shop"))
        );
        assert_eq!(create.operation, Operation::Create);
        assert_eq!(create.options.as_ref().unwrap().0["kind"], "CreateOptions");
        assert!(create.may_have_side_effects());
        assert_eq!(create.uid.len(), 36, "a UUID, as the server's decoder insists");

        let update = Request::update(&web, &web);
        assert_eq!(update.operation, Operation::Update);
        assert_eq!(update.options.as_ref().unwrap().0["kind"], "UpdateOptions");
        let delete = Request::delete(&web);
        assert_eq!((delete.operation, delete.name.as_str()), (Operation::Delete, "web"));
        assert_eq!(delete.options.as_ref().unwrap().0["kind"], "DeleteOptions");
    }

    #[test]
    fn setters_change_only_what_they_name() {
        let request = Request::create(&deployment(""))
            .with_name("generated-x1")
            .with_namespace("other")
            .with_dry_run(true)
            .with_user("alice", ["devs"])
            .with_sub_resource("status")
            .with_uid("u-1")
            .with_options(json!({"kind": "CreateOptions", "fieldManager": "kubectl"}));
        assert_eq!(request.name, "generated-x1");
        assert_eq!(request.namespace.as_deref(), Some("other"));
        assert!(request.dry_run && !request.may_have_side_effects());
        assert_eq!(request.user_info.username.as_deref(), Some("alice"));
        assert_eq!(request.user_info.groups, Some(vec!["devs".to_owned()]));
        assert_eq!(request.sub_resource.as_deref(), Some("status"));
        assert_eq!(request.uid, "u-1");
        assert_eq!(request.options.unwrap().0["fieldManager"], "kubectl");
        assert_eq!(request.operation, Operation::Create);
        let named = Request::update(&deployment(""), &deployment("web"));
        assert_eq!(named.name, "web");
        assert_eq!(Request::update(&deployment("old"), &deployment("")).name, "old");
    }
}
