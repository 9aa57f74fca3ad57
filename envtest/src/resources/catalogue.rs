//! The built-in resources the server serves: every resource of the Kubernetes version
//! k8s-openapi was built for, with its group, version, kind, plural, scope,
//! subresources, short names, categories and verbs, as kube-apiserver registers them
//! (`pkg/controlplane/apis/*` and `pkg/registry/<group>/rest/storage_<group>.go` install
//! each group's REST storage; discovery in
//! `staging/src/k8s.io/apiserver/pkg/endpoints/installer.go` lists what they offer).
//!
//! How the list stays true without a hand list, and without a version feature (a
//! library must leave the Kubernetes version to the final binary): `generated.rs` is
//! generated from k8s-openapi's own source by `tests/catalogue.rs`, one entry per type
//! with a `Resource` impl, each wrapped in k8s-openapi's `k8s_if_*` macros for the
//! versions that have it. So the library compiles against whichever version the
//! binary enables (tests use `latest`), serves exactly that version's resources, and
//! the test fails (and rewrites the file) when a new k8s-openapi adds or drops one.
//! Group, version, kind, plural and scope are read from each type's `Resource` impl
//! when the catalogue is built; a body is validated by decoding it into the type; its
//! `OpenAPI` schema is the type's `JsonSchema` (k8s-openapi's `schemars` feature). What
//! the types do not carry (short names, categories, scale, generation) is in `facts`.

mod facts;
mod views;
#[rustfmt::skip]
mod generated;

use std::sync::{Arc, LazyLock};

use serde::de::DeserializeOwned;
use serde_json::Value;

pub(crate) use self::views::{to_storage, to_view};
use crate::core::{Builtin, ResourceType, Verb};

/// The shape of a resource type, from k8s-openapi's source (see `generated.rs`).
#[derive(Clone, Copy)]
struct Shape {
    stored: bool,
    status: bool,
}

const STORED: Shape = Shape {
    stored: true,
    status: false,
};
const STORED_WITH_STATUS: Shape = Shape {
    stored: true,
    status: true,
};
const CREATE_ONLY: Shape = Shape {
    stored: false,
    status: false,
};

/// Whether a k8s-openapi scope is a namespace.
trait Scope {
    const NAMESPACED: bool;
}

impl Scope for k8s_openapi::NamespaceResourceScope {
    const NAMESPACED: bool = true;
}

impl Scope for k8s_openapi::ClusterResourceScope {
    const NAMESPACED: bool = false;
}

fn entry<T>(shape: Shape) -> Builtin
where
    T: k8s_openapi::Resource + DeserializeOwned + schemars::JsonSchema,
    T::Scope: Scope,
{
    Builtin {
        group: T::GROUP,
        version: T::VERSION,
        kind: T::KIND,
        plural: T::URL_PATH_SEGMENT,
        namespaced: <T::Scope as Scope>::NAMESPACED,
        stored: shape.stored,
        status: shape.status,
        decode: decode::<T>,
        schema: schema::<T>,
    }
}

fn decode<T: DeserializeOwned>(object: &Value) -> Result<(), String> {
    T::deserialize(object).map(drop).map_err(|error| error.to_string())
}

fn schema<T: schemars::JsonSchema>(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<T>()
}

/// The Kubernetes version served: the one k8s-openapi was built for, as
/// (major, minor).
pub(crate) fn kubernetes_version() -> (u32, u32) {
    (1, generated::minor())
}

/// Every built-in resource of the version k8s-openapi was built for.
pub(crate) fn builtins() -> &'static [Builtin] {
    static BUILTINS: LazyLock<Vec<Builtin>> = LazyLock::new(|| {
        let mut builtins = Vec::new();
        generated::builtins(&mut builtins);
        builtins
    });
    &BUILTINS
}

/// The built-in resource types, as the registry serves them; built once per process.
pub(crate) fn resource_types() -> &'static [Arc<ResourceType>] {
    static TYPES: LazyLock<Vec<Arc<ResourceType>>> =
        LazyLock::new(|| builtins().iter().map(|b| Arc::new(resource_type(b))).collect());
    &TYPES
}

fn resource_type(builtin: &'static Builtin) -> ResourceType {
    let facts = facts::facts(builtin.group, builtin.plural);
    let owned = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
    ResourceType {
        group: builtin.group.to_owned(),
        version: builtin.version.to_owned(),
        kind: builtin.kind.to_owned(),
        plural: builtin.plural.to_owned(),
        singular: builtin.kind.to_lowercase(),
        namespaced: builtin.namespaced,
        status: builtin.stored && builtin.status,
        scale: facts.scale,
        scale_paths: None,
        generation: facts.generation.set_on_create,
        bumps_generation: facts.generation.bumped,
        short_names: owned(facts.short_names),
        categories: owned(facts.categories),
        custom: false,
        requires_resource_version: false,
        schema: None,
        builtin: Some(crate::core::BuiltinRef(builtin)),
        versions: None,
        deprecation: None,
        selectable_fields: Vec::new(),
    }
}

/// Catalogue facts of a resource type (built-in or custom).
impl ResourceType {
    /// Stored objects, listed and watched (not a create-only review or binding).
    pub fn stored(&self) -> bool {
        self.catalogue().is_none_or(|b| b.stored)
    }

    /// A PUT of a missing object creates it.
    pub fn creates_on_update(&self) -> bool {
        !self.custom && facts::facts(&self.group, &self.plural).create_on_update
    }

    /// The verbs discovery lists and the server allows.
    pub fn verbs(&self) -> &'static [&'static str] {
        const STORED_VERBS: &[&str] = &[
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch",
        ];
        if !self.stored() {
            return &["create"];
        }
        if self.custom {
            return STORED_VERBS;
        }
        facts::facts(&self.group, &self.plural).verbs.unwrap_or(STORED_VERBS)
    }

    /// Whether `verb` is allowed on the resource itself.
    pub fn allows(&self, verb: Verb) -> bool {
        let name = verb.as_str();
        self.verbs().contains(&name) || (verb == Verb::Watch && self.verbs().contains(&"list"))
    }

    /// The subresources discovery lists, in its order (a CRD's `status` then `scale`;
    /// a built-in resource's by name, as kube-apiserver's installer sorts its paths):
    /// name, kind and (for another group's kind) its group and version, verbs, and
    /// whether this server serves it.
    pub fn subresources(&self) -> Vec<Subresource> {
        let mut subresources = Vec::new();
        if self.status {
            subresources.push(Subresource::of_self("status", &["get", "patch", "update"]));
        }
        if self.scale {
            subresources.push(Subresource::of_kind(
                "scale",
                "Scale",
                Some(("autoscaling", "v1")),
                &["get", "patch", "update"],
            ));
        }
        if self.custom {
            return subresources;
        }
        match (self.group.as_str(), self.plural.as_str()) {
            ("", "namespaces") => subresources.push(Subresource::of_self("finalize", &["update"])),
            ("", "serviceaccounts") => subresources.push(Subresource::of_kind(
                "token",
                "TokenRequest",
                Some(("authentication.k8s.io", "v1")),
                &["create"],
            )),
            ("", "pods") => subresources.extend([
                Subresource::of_kind("attach", "PodAttachOptions", None, CONNECT).not_served(),
                Subresource::of_kind("binding", "Binding", None, &["create"]),
                Subresource::of_self("ephemeralcontainers", SUBRESOURCE),
                Subresource::of_kind("eviction", "Eviction", Some(("policy", "v1")), &["create"]),
                Subresource::of_kind("exec", "PodExecOptions", None, CONNECT).not_served(),
                Subresource::of_self("log", &["get"]).not_served(),
                Subresource::of_kind("portforward", "PodPortForwardOptions", None, CONNECT).not_served(),
                Subresource::of_kind("proxy", "PodProxyOptions", None, PROXY).not_served(),
                Subresource::of_self("resize", SUBRESOURCE).not_served(),
            ]),
            ("", "nodes") => {
                subresources.push(Subresource::of_kind("proxy", "NodeProxyOptions", None, PROXY).not_served());
            }
            ("", "services") => {
                subresources.push(Subresource::of_kind("proxy", "ServiceProxyOptions", None, PROXY).not_served());
            }
            ("certificates.k8s.io", "certificatesigningrequests") => {
                subresources.push(Subresource::of_self("approval", SUBRESOURCE).not_served());
            }
            _ => {}
        }
        subresources.sort_by_key(|subresource| subresource.name);
        subresources
    }

    /// Whether the named subresource is served.
    pub fn serves_subresource(&self, name: &str) -> bool {
        self.subresources().iter().any(|s| s.name == name && s.served)
    }
}

/// The verbs of a connect subresource (`attach`, `exec`, `portforward`).
const CONNECT: &[&str] = &["create", "get"];
/// The verbs of a `proxy` subresource.
const PROXY: &[&str] = &["create", "delete", "get", "patch", "update"];
/// The verbs of a subresource of the resource's own kind (`status`, `resize`...).
const SUBRESOURCE: &[&str] = &["get", "patch", "update"];

/// One subresource as discovery lists it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Subresource {
    pub name: &'static str,
    /// The kind it answers with; empty for the resource's own.
    pub kind: &'static str,
    /// The group and version of `kind` when not the resource's own.
    pub group_version: Option<(&'static str, &'static str)>,
    pub verbs: &'static [&'static str],
    /// Served here; false for what discovery lists but this server cannot do
    /// (`pods/log`, `exec`, `proxy`...: there are no processes), which is 404.
    pub served: bool,
}

impl Subresource {
    /// A subresource whose kind is the resource's own.
    fn of_self(name: &'static str, verbs: &'static [&'static str]) -> Self {
        Self::of_kind(name, "", None, verbs)
    }

    fn of_kind(
        name: &'static str,
        kind: &'static str,
        group_version: Option<(&'static str, &'static str)>,
        verbs: &'static [&'static str],
    ) -> Self {
        Self {
            name,
            kind,
            group_version,
            verbs,
            served: true,
        }
    }

    fn not_served(self) -> Self {
        Self { served: false, ..self }
    }
}
