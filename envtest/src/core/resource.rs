//! What a resource is: the group-resource its objects are stored under, one served
//! resource type at one version, and the catalogue entry of a built-in type.

use std::sync::Arc;

use serde_json::Value;

/// Where a resource's objects live, whatever version they are read at: objects of a
/// CRD with two served versions are the same objects.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct GroupResource {
    pub group: String,
    pub resource: String,
}

/// One served resource at one version.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each flag is an independent property discovery reports"
)]
pub(crate) struct ResourceType {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The plural name used in paths, for example `deployments`.
    pub plural: String,
    pub singular: String,
    pub namespaced: bool,
    /// Has a `/status` subresource: the main endpoint ignores status changes.
    pub status: bool,
    /// Has a `/scale` subresource (spec replicas path).
    pub scale: bool,
    /// Where a custom resource's `/scale` reads and writes (None: `.spec.replicas`,
    /// `.status.replicas` and the spec's selector, as built-in types keep them).
    pub scale_paths: Option<ScalePaths>,
    /// `metadata.generation` is set to 1 on create.
    pub generation: bool,
    /// `metadata.generation` is bumped on spec changes.
    pub bumps_generation: bool,
    pub short_names: Vec<String>,
    /// Categories a CRD declares (`kubectl get <category>` lists them all).
    pub categories: Vec<String>,
    /// Defined by a `CustomResourceDefinition` (so no strategic merge patch).
    pub custom: bool,
    /// Updates without a resourceVersion are refused (custom resources).
    pub requires_resource_version: bool,
    /// The `openAPIV3Schema` of a custom resource's version: objects are validated
    /// and pruned against it, as the real server does.
    pub schema: Option<Arc<Value>>,
    /// The catalogue entry of a built-in resource (its type's decoder and schema).
    pub builtin: Option<BuiltinRef>,
    /// A custom resource's versions: where its objects are stored and how they convert
    /// between the CRD's versions (None for built-in types).
    pub versions: Option<Arc<CrdVersions>>,
    /// The `Warning` a request of this version carries when the CRD marks it
    /// `deprecated` (its `deprecationWarning`, else kube-apiserver's default text).
    pub deprecation: Option<String>,
    /// A custom resource version's `selectableFields` (their JSON paths): the field
    /// labels a field selector may name besides `metadata.*`.
    pub selectable_fields: Vec<String>,
}

/// What every served version of one CRD shares: the storage version and the
/// conversion strategy (`spec.conversion`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CrdVersions {
    /// The CRD's name (`<plural>.<group>`).
    pub crd: String,
    /// The version objects are written in (the one marked `storage: true`).
    pub storage_version: String,
    /// The served versions, in the order the CRD lists them (a webhook registered for
    /// one of them sees writes of the others, with `matchPolicy: Equivalent`).
    pub served: Vec<String>,
    /// `spec.conversion.webhook` when the strategy is `Webhook`; None for `None`
    /// (only `apiVersion` changes between versions).
    pub webhook: Option<ConversionWebhook>,
}

/// Where and how a CRD's conversion webhook is called.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ConversionWebhook {
    /// `clientConfig`: `url` or `service`, and `caBundle`.
    pub client_config: Value,
    /// `conversionReviewVersions`, in the CRD's order of preference.
    pub review_versions: Vec<String>,
}

/// The JSON paths of a CRD's scale subresource (`.spec.replicas` style).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScalePaths {
    pub spec_replicas: String,
    pub status_replicas: String,
    /// Without one, the Scale has no selector (kube omits the field).
    pub label_selector: Option<String>,
}

/// A built-in resource's catalogue entry; two are equal when they are the same entry.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuiltinRef(pub &'static Builtin);

impl PartialEq for BuiltinRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl ResourceType {
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Where the objects are stored (events.k8s.io Events are core Events).
    pub fn group_resource(&self) -> GroupResource {
        self.storage()
    }

    /// The catalogue entry of a built-in type.
    pub fn catalogue(&self) -> Option<&'static Builtin> {
        self.builtin.as_ref().map(|b| b.0)
    }

    /// Where the objects live: events.k8s.io Events in core Events' store.
    pub fn storage(&self) -> GroupResource {
        self.catalogue()
            .and_then(Builtin::stored_as)
            .unwrap_or_else(|| GroupResource {
                group: self.group.clone(),
                resource: self.plural.clone(),
            })
    }

    /// The fields a field selector of this resource may name, and their values.
    pub fn selectable_fields(&self) -> wheelhouse_selector::Fields {
        if self.custom {
            wheelhouse_selector::Fields::custom(self.namespaced, &self.selectable_fields)
        } else {
            wheelhouse_selector::Fields::builtin(&self.group, &self.version, &self.kind, self.namespaced)
        }
    }

    /// `deployments.apps`, `configmaps`: how the real server names a resource in errors.
    pub fn qualified(&self) -> String {
        if self.group.is_empty() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }
}

/// One built-in resource at one version, as k8s-openapi models it.
pub(crate) struct Builtin {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub plural: &'static str,
    pub namespaced: bool,
    /// Stored, listed and watched; false for the create-only resources (reviews,
    /// bindings) whose answer is computed.
    pub stored: bool,
    /// Has a `status` field, served through a `/status` subresource.
    pub status: bool,
    pub(crate) decode: fn(&Value) -> Result<(), String>,
    pub(crate) schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Builtin({}/{} {})", self.group, self.version, self.plural)
    }
}

impl Builtin {
    /// Decodes `object` into the k8s-openapi type: the error a field of the wrong type
    /// gives, as kube-apiserver's decoder refuses it.
    pub fn decode(&self, object: &Value) -> Result<(), String> {
        (self.decode)(object)
    }

    /// The type's schema, its parts registered as definitions of `generator`.
    pub fn schema(&self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        (self.schema)(generator)
    }

    /// `events.k8s.io` Events are core Events seen another way (one store).
    fn stored_as(&self) -> Option<GroupResource> {
        (self.group == "events.k8s.io" && self.plural == "events").then(|| GroupResource {
            group: String::new(),
            resource: "events".into(),
        })
    }
}

/// Where the pod template sits in the kinds that hold one (workloads, `PodTemplate`).
pub(crate) fn pod_template_path(group: &str, kind: &str) -> Option<&'static [&'static str]> {
    match (group, kind) {
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet")
        | ("batch", "Job")
        | ("", "ReplicationController") => Some(&["spec", "template"]),
        ("batch", "CronJob") => Some(&["spec", "jobTemplate", "spec", "template"]),
        ("", "PodTemplate") => Some(&["template"]),
        _ => None,
    }
}
