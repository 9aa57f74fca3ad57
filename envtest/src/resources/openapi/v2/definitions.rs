//! The definitions `/openapi/v2`'s paths refer to beyond the served kinds' own: the
//! meta types of answers and bodies (`Status`, `WatchEvent`, `DeleteOptions`, `Patch`,
//! discovery's documents, `version.Info`), the kinds subresources answer with
//! (`Scale`, `Eviction`, `TokenRequest`), and each kind's list. Lists are written as
//! apiextensions-apiserver's builder writes a custom resource's (`<Kind>List is a list
//! of <Kind>`), and a built-in list in openapi-gen's shape (`items` of the kind,
//! `ListMeta`), its descriptions generic where kube's come from each Go type's comment.

use std::sync::LazyLock;

use schemars::SchemaGenerator;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

const API_VERSION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const LIST_META: &str = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

/// The meta and subresource types, generated once from k8s-openapi's schemas, in the
/// v3 form `to_v2_schema` turns into v2's.
static EXTRA: LazyLock<Map<String, Value>> = LazyLock::new(|| {
    use k8s_openapi::api::{authentication, autoscaling, core, policy};
    use k8s_openapi::apimachinery::pkg::{apis::meta::v1 as meta, version};
    let mut generator = SchemaGenerator::new(SchemaSettings::openapi3().with(|settings| settings.meta_schema = None));
    generator.subschema_for::<meta::Status>();
    generator.subschema_for::<meta::WatchEvent<core::v1::Pod>>();
    generator.subschema_for::<meta::DeleteOptions>();
    generator.subschema_for::<meta::Patch>();
    generator.subschema_for::<meta::APIGroup>();
    generator.subschema_for::<meta::APIGroupList>();
    generator.subschema_for::<meta::APIResourceList>();
    generator.subschema_for::<meta::APIVersions>();
    generator.subschema_for::<meta::ListMeta>();
    generator.subschema_for::<version::Info>();
    generator.subschema_for::<autoscaling::v1::Scale>();
    generator.subschema_for::<policy::v1::Eviction>();
    generator.subschema_for::<authentication::v1::TokenRequest>();
    let mut definitions = generator.take_definitions(true);
    let kinds = [
        ("io.k8s.api.autoscaling.v1.Scale", "autoscaling", "v1", "Scale"),
        ("io.k8s.api.policy.v1.Eviction", "policy", "v1", "Eviction"),
        (
            "io.k8s.api.authentication.v1.TokenRequest",
            "authentication.k8s.io",
            "v1",
            "TokenRequest",
        ),
        ("io.k8s.apimachinery.pkg.apis.meta.v1.Status", "", "v1", "Status"),
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
            "",
            "v1",
            "WatchEvent",
        ),
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
            "",
            "v1",
            "DeleteOptions",
        ),
        ("io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup", "", "v1", "APIGroup"),
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList",
            "",
            "v1",
            "APIGroupList",
        ),
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
            "",
            "v1",
            "APIResourceList",
        ),
        (
            "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions",
            "",
            "v1",
            "APIVersions",
        ),
    ];
    for (name, group, version, kind) in kinds {
        if let Some(schema) = definitions.get_mut(name) {
            schema["x-kubernetes-group-version-kind"] = json!([{"group": group, "version": version, "kind": kind}]);
        }
    }
    definitions
});

/// A listable kind: its group, version and kind, and when a custom resource's, its
/// plural and selectable fields.
pub(super) struct Listed {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub custom: Option<(String, Value)>,
}

/// Adds the meta and subresource types, and the list of each `listed` kind that
/// `definitions` lacks.
pub(super) fn add(definitions: &mut Map<String, Value>, listed: &[Listed], by_kind: &Map<String, Value>) {
    for (name, schema) in EXTRA.iter() {
        definitions
            .entry(name.clone())
            .or_insert_with(|| super::to_v2_schema(schema.clone()));
    }
    for entry in listed {
        let (group, version, kind) = (entry.group.as_str(), entry.version.as_str(), entry.kind.as_str());
        let Some(name) = by_kind
            .get(&format!("{group}/{version}/{kind}"))
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix("#/definitions/"))
        else {
            continue;
        };
        let list_name = format!("{name}List");
        if definitions.contains_key(&list_name) {
            continue;
        }
        let list_gvk = json!([{"group": group, "version": version, "kind": format!("{kind}List")}]);
        let item = json!({"$ref": format!("#/definitions/{name}")});
        let list = match &entry.custom {
            // apiextensions-apiserver's builder, word for word.
            Some((plural, selectable)) => json!({
                "description": format!("{kind}List is a list of {kind}"),
                "type": "object",
                "required": ["items"],
                "properties": {
                    "apiVersion": {"description": API_VERSION, "type": "string"},
                    "items": {"description": format!("List of {plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md"), "type": "array", "items": item},
                    "kind": {"description": KIND, "type": "string"},
                    "metadata": {"description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds", "$ref": LIST_META},
                },
                "x-kubernetes-group-version-kind": list_gvk,
                "x-kubernetes-selectable-fields": selectable,
            }),
            None => json!({
                "description": format!("{kind}List is a list of {kind} objects."),
                "type": "object",
                "required": ["items"],
                "properties": {
                    "apiVersion": {"description": API_VERSION, "type": "string"},
                    "items": {"description": format!("Items is the list of {kind} objects."), "type": "array", "items": item},
                    "kind": {"description": KIND, "type": "string"},
                    "metadata": {"description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", "$ref": LIST_META},
                },
                "x-kubernetes-group-version-kind": list_gvk,
            }),
        };
        definitions.insert(list_name, list);
    }
}
