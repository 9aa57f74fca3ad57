//! What the schema tests share: a CRD of the test's own with a given schema, the
//! causes of a 422 as kube-apiserver lists them, and the server's version, which
//! decides the wording the tests expect where kube-apiserver reworded a cause.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use kube::core::Status;
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{api_error, delete_quietly, from_json};

/// The minor version of the server's Kubernetes (`/version`).
pub(crate) async fn server_minor(env: &TestEnv) -> u32 {
    let version = env.client().apiserver_version().await.expect("GET /version");
    version
        .minor
        .trim_end_matches('+')
        .parse()
        .expect("the minor version is a number")
}

/// Tests of a feature newer than the server return early, naming the version.
pub(crate) async fn skip_before(env: &TestEnv, minor: u32, feature: &str) -> bool {
    let found = server_minor(env).await;
    if found >= minor {
        return false;
    }
    eprintln!("skipped: {feature} needs Kubernetes 1.{minor} or later; the server is 1.{found}");
    true
}

/// A CRD of the test's own with one served version whose schema is `schema`, with a
/// status subresource.
pub(crate) struct SchemaType {
    pub(crate) crd: CustomResourceDefinition,
    pub(crate) resource: ApiResource,
}

impl SchemaType {
    pub(crate) fn new(env: &TestEnv, kind: &str, schema: &Value) -> Self {
        let group = format!("{}.schema.wheelhouse.rs", env.namespace());
        let plural = format!("{}s", kind.to_ascii_lowercase());
        let crd = from_json(json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{group}")},
            "spec": {
                "group": group, "scope": "Namespaced",
                "names": {"plural": plural, "singular": kind.to_ascii_lowercase(), "kind": kind, "listKind": format!("{kind}List")},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": schema}, "subresources": {"status": {}}}],
            },
        }));
        let resource = ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(&group, "v1", kind), &plural);
        Self { crd, resource }
    }

    /// `spec` and `status` properties as given.
    pub(crate) fn with_spec(env: &TestEnv, kind: &str, spec: &Value) -> Self {
        let status = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
        Self::new(
            env,
            kind,
            &json!({"type": "object", "properties": {"spec": spec, "status": status}}),
        )
    }

    pub(crate) async fn install(&self, env: &TestEnv) -> Api<DynamicObject> {
        env.install_crd(&self.crd)
            .await
            .expect("the CRD is installed and served");
        Api::namespaced_with(env.client(), env.namespace(), &self.resource)
    }

    pub(crate) async fn remove(&self, env: &TestEnv) {
        let crds: Api<CustomResourceDefinition> = Api::all(env.client());
        delete_quietly(&crds, self.crd.metadata.name.as_deref().unwrap_or_default()).await;
    }

    /// The kind as a 422 names it: `Kind.group`.
    pub(crate) fn qualified_kind(&self) -> String {
        format!("{}.{}", self.resource.kind, self.resource.group)
    }

    pub(crate) fn object(&self, name: &str, body: &Value) -> DynamicObject {
        crate::common::object_of(&self.resource, name, body)
    }

    /// Creates `body` as `name` and returns the 422's causes (field, reason, message),
    /// sorted, after checking the message names the object as kube-apiserver does.
    pub(crate) async fn refused(
        &self,
        api: &Api<DynamicObject>,
        name: &str,
        body: &Value,
    ) -> Vec<(String, String, String)> {
        let status = api_error(api.create(&PostParams::default(), &self.object(name, body)).await);
        self.causes(&status, name)
    }

    /// The causes of a 422 for `name`, sorted.
    pub(crate) fn causes(&self, status: &Status, name: &str) -> Vec<(String, String, String)> {
        assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"), "{status:?}");
        let prefix = format!("{} \"{name}\" is invalid: ", self.qualified_kind());
        assert!(
            status.message.starts_with(&prefix),
            "{:?} starts with {prefix:?}",
            status.message
        );
        let details = status.details.as_ref().expect("a 422 has details");
        assert_eq!(
            (details.kind.as_str(), details.group.as_str()),
            (self.resource.kind.as_str(), self.resource.group.as_str())
        );
        let mut causes: Vec<(String, String, String)> = details
            .causes
            .iter()
            .map(|c| (c.field.clone(), c.reason.clone(), c.message.clone()))
            .collect();
        for (field, _, message) in &causes {
            let summary = format!("{field}: {message}");
            assert!(
                status.message.contains(&summary),
                "{:?} lists {summary:?}",
                status.message
            );
        }
        causes.sort();
        causes
    }
}

/// A cause, for comparing with `refused`.
pub(crate) fn cause(field: &str, reason: &str, message: &str) -> (String, String, String) {
    (field.to_owned(), reason.to_owned(), message.to_owned())
}

/// Sorted causes.
pub(crate) fn sorted(mut causes: Vec<(String, String, String)>) -> Vec<(String, String, String)> {
    causes.sort();
    causes
}

/// How the server's release words the causes whose wording changed: until 1.20 an
/// error's value was often its limit rather than the value found, and errors of no
/// property had an empty path (`<nil>` since); kube-apiserver mapped kube-openapi's
/// length, count and type errors to their own field error types in 1.24, reworded
/// "too long" in 1.24 and 1.32, and prints maps as JSON since 1.34.
pub(crate) struct Wording {
    pub(crate) minor: u32,
}

impl Wording {
    pub(crate) async fn of(env: &TestEnv) -> Self {
        Self {
            minor: server_minor(env).await,
        }
    }

    /// The path of errors about no property in particular.
    pub(crate) fn nil_path(&self) -> &'static str {
        if self.minor < 20 { "" } else { "<nil>" }
    }

    /// A number past a bound (minimum, maximum, multipleOf): 1.19 showed the bound.
    pub(crate) fn bound(&self, field: &str, found: &str, limit: &str, relation: &str) -> (String, String, String) {
        let shown = if self.minor < 20 { limit } else { found };
        cause(
            field,
            "FieldValueInvalid",
            &format!("Invalid value: {shown}: {field} in body should {relation}"),
        )
    }

    /// A string past its maxLength.
    pub(crate) fn too_long(&self, field: &str, value: &str, max: u32) -> (String, String, String) {
        match self.minor {
            0..20 => cause(
                field,
                "FieldValueInvalid",
                &format!("Invalid value: \"\": {field} in body should be at most {max} chars long"),
            ),
            20..24 => cause(
                field,
                "FieldValueInvalid",
                &format!("Invalid value: \"{value}\": {field} in body should be at most {max} chars long"),
            ),
            24..32 => cause(
                field,
                "FieldValueTooLong",
                &format!("Too long: may not be longer than {max}"),
            ),
            _ => cause(
                field,
                "FieldValueTooLong",
                &format!("Too long: may not be more than {max} bytes"),
            ),
        }
    }

    /// A list short of its minItems: 1.19 showed no value.
    pub(crate) fn too_few_items(&self, field: &str, count: u32, min: u32) -> (String, String, String) {
        let shown = if self.minor < 20 {
            "\"\"".to_owned()
        } else {
            count.to_string()
        };
        let message = format!("Invalid value: {shown}: {field} in body should have at least {min} items");
        cause(field, "FieldValueInvalid", &message)
    }

    /// A string not matching its pattern: 1.19 showed no value.
    pub(crate) fn mismatch(&self, field: &str, value: &str, pattern: &str) -> (String, String, String) {
        let shown = if self.minor < 20 { "" } else { value };
        let message = format!("Invalid value: \"{shown}\": {field} in body should match '{pattern}'");
        cause(field, "FieldValueInvalid", &message)
    }

    /// A string short of its minLength.
    pub(crate) fn too_short(&self, field: &str, value: &str, min: u32) -> (String, String, String) {
        let shown = if self.minor < 20 { "" } else { value };
        let message = format!("Invalid value: \"{shown}\": {field} in body should be at least {min} chars long");
        cause(field, "FieldValueInvalid", &message)
    }

    /// A list (`items`) or map (`properties`) past its maxItems or maxProperties.
    pub(crate) fn too_many(&self, field: &str, count: u32, max: u32, noun: &str) -> (String, String, String) {
        if self.minor < 24 {
            let shown = match (self.minor < 20, noun) {
                (true, "items") => "\"\"".to_owned(),
                (true, _) => max.to_string(),
                (false, _) => count.to_string(),
            };
            let message = format!("Invalid value: {shown}: {field} in body should have at most {max} {noun}");
            return cause(field, "FieldValueInvalid", &message);
        }
        cause(
            field,
            "FieldValueTooMany",
            &format!("Too many: {count}: must have at most {max} items"),
        )
    }

    /// A value of the wrong type or format.
    pub(crate) fn type_invalid(&self, field: &str, message: &str) -> (String, String, String) {
        let reason = if self.minor < 24 {
            "FieldValueInvalid"
        } else {
            "FieldValueTypeInvalid"
        };
        cause(field, reason, message)
    }

    /// A map value, as a cause prints it.
    pub(crate) fn map(&self, json: &str) -> String {
        if self.minor < 34 {
            format!("map[string]interface {{}}{json}")
        } else {
            json.to_owned()
        }
    }

    /// A status property past its minimum, written through `/status`: validated with
    /// the whole schema until 1.28, with the status schema since (whose messages name
    /// the property from the status down, and whose field lacked `status.` in 1.28-1.30).
    pub(crate) fn status_minimum(&self, property: &str, found: &str, limit: &str) -> (String, String, String) {
        let full = format!("status.{property}");
        let shown = if self.minor < 20 { limit } else { found };
        let (field, named) = match self.minor {
            0..28 => (full.clone(), full.clone()),
            28..31 => (property.to_owned(), property.to_owned()),
            _ => (full.clone(), property.to_owned()),
        };
        let message = format!("Invalid value: {shown}: {named} in body should be greater than or equal to {limit}");
        cause(&field, "FieldValueInvalid", &message)
    }

    /// A missing `apiVersion` or `kind` of an embedded resource.
    pub(crate) fn embedded_required(&self, field: &str) -> (String, String, String) {
        let message = if self.minor < 34 {
            "Required value: must not be empty"
        } else {
            "Required value"
        };
        cause(field, "FieldValueRequired", message)
    }
}
