//! What k8s-openapi's types do not say about a resource and kube-apiserver's REST
//! storage does: short names and categories (`ShortNames()`, `Categories()` in
//! `pkg/registry/<group>/<resource>/storage/storage.go`), the scale subresource, which
//! strategies keep `metadata.generation` (`PrepareForCreate` setting `Generation = 1`
//! in `pkg/registry/<group>/<resource>/strategy.go`), which accept a PUT of a missing
//! object (`AllowCreateOnUpdate`), and verbs narrower than the usual eight.
//!
//! The set of resources comes from k8s-openapi (see `generated.rs`); these tables only
//! add to it, keyed by group and resource, so a resource they do not name is served
//! with the defaults kube-apiserver's generic registry gives.

/// The facts of one resource (any version).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Facts {
    pub short_names: &'static [&'static str],
    pub categories: &'static [&'static str],
    /// `/scale` (an `autoscaling/v1` Scale of `spec.replicas`).
    pub scale: bool,
    /// How the strategy counts `metadata.generation`.
    pub generation: Generation,
    /// A PUT of a missing object creates it.
    pub create_on_update: bool,
    /// Verbs other than the eight of a stored resource (None: all eight).
    pub verbs: Option<&'static [&'static str]>,
}

/// How a strategy counts `metadata.generation`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Generation {
    /// Set to 1 on create (`PrepareForCreate`).
    pub set_on_create: bool,
    /// Bumped on spec changes (`PrepareForUpdate`): where it is set on create, but for
    /// priority classes, and for CSI drivers, whose create keeps what the client sent.
    pub bumped: bool,
}

const ALL: &[&str] = &["all"];
const NAMESPACE_VERBS: &[&str] = &["create", "delete", "get", "list", "patch", "update", "watch"];
const READ_VERBS: &[&str] = &["get", "list"];
const API_EXTENSIONS: &[&str] = &["api-extensions"];

/// The facts of `group`/`plural`.
pub(crate) fn facts(group: &str, plural: &str) -> Facts {
    Facts {
        short_names: short_names(group, plural),
        categories: categories(group, plural),
        scale: matches!(
            (group, plural),
            ("", "replicationcontrollers") | ("apps", "deployments" | "replicasets" | "statefulsets")
        ),
        generation: Generation {
            set_on_create: keeps_generation(group, plural),
            bumped: (keeps_generation(group, plural) && (group, plural) != ("scheduling.k8s.io", "priorityclasses"))
                || (group, plural) == ("storage.k8s.io", "csidrivers"),
        },
        create_on_update: matches!(
            (group, plural),
            ("", "endpoints" | "events" | "limitranges" | "services")
                | ("events.k8s.io", "events")
                | ("coordination.k8s.io", "leases")
                | ("node.k8s.io", "runtimeclasses")
                | (
                    "rbac.authorization.k8s.io",
                    "roles" | "rolebindings" | "clusterroles" | "clusterrolebindings"
                )
        ),
        verbs: match (group, plural) {
            ("", "namespaces") => Some(NAMESPACE_VERBS),
            ("", "componentstatuses") => Some(READ_VERBS),
            _ => None,
        },
    }
}

fn short_names(group: &str, plural: &str) -> &'static [&'static str] {
    match (group, plural) {
        ("", "componentstatuses") => &["cs"],
        ("", "configmaps") => &["cm"],
        ("", "endpoints") => &["ep"],
        ("" | "events.k8s.io", "events") => &["ev"],
        ("", "limitranges") => &["limits"],
        ("", "namespaces") => &["ns"],
        ("", "nodes") => &["no"],
        ("", "persistentvolumeclaims") => &["pvc"],
        ("", "persistentvolumes") => &["pv"],
        ("", "pods") => &["po"],
        ("", "replicationcontrollers") => &["rc"],
        ("", "resourcequotas") => &["quota"],
        ("", "serviceaccounts") => &["sa"],
        ("", "services") => &["svc"],
        ("apps", "daemonsets") => &["ds"],
        ("apps", "deployments") => &["deploy"],
        ("apps", "replicasets") => &["rs"],
        ("apps", "statefulsets") => &["sts"],
        ("autoscaling", "horizontalpodautoscalers") => &["hpa"],
        ("batch", "cronjobs") => &["cj"],
        ("certificates.k8s.io", "certificatesigningrequests") => &["csr"],
        ("networking.k8s.io", "ingresses") => &["ing"],
        ("networking.k8s.io", "networkpolicies") => &["netpol"],
        ("policy", "poddisruptionbudgets") => &["pdb"],
        ("scheduling.k8s.io", "priorityclasses") => &["pc"],
        ("storage.k8s.io", "storageclasses") => &["sc"],
        ("storage.k8s.io", "volumeattributesclasses") => &["vac"],
        ("apiextensions.k8s.io", "customresourcedefinitions") => &["crd", "crds"],
        _ => &[],
    }
}

/// `all` is what `kubectl get all` lists; `api-extensions` the resources that extend
/// the API (`kubectl get api-extensions`).
fn categories(group: &str, plural: &str) -> &'static [&'static str] {
    match (group, plural) {
        ("", "pods" | "replicationcontrollers" | "services")
        | ("apps", "daemonsets" | "deployments" | "replicasets" | "statefulsets")
        | ("autoscaling", "horizontalpodautoscalers")
        | ("batch", "cronjobs" | "jobs") => ALL,
        ("apiextensions.k8s.io", "customresourcedefinitions") | ("apiregistration.k8s.io", "apiservices") => {
            API_EXTENSIONS
        }
        _ if admission_configuration(group, plural) => API_EXTENSIONS,
        _ => &[],
    }
}

/// Webhook configurations and admission policies and their bindings.
fn admission_configuration(group: &str, plural: &str) -> bool {
    group == "admissionregistration.k8s.io"
        && matches!(
            plural,
            "mutatingwebhookconfigurations"
                | "validatingwebhookconfigurations"
                | "validatingadmissionpolicies"
                | "validatingadmissionpolicybindings"
                | "mutatingadmissionpolicies"
                | "mutatingadmissionpolicybindings"
        )
}

/// The strategies that set `Generation = 1` on create: workloads and the other
/// resources whose controllers report an `observedGeneration`.
fn keeps_generation(group: &str, plural: &str) -> bool {
    admission_configuration(group, plural)
        || matches!(
            (group, plural),
            ("", "podtemplates" | "replicationcontrollers")
                | ("apiextensions.k8s.io", "customresourcedefinitions")
                | ("apps", "daemonsets" | "deployments" | "replicasets" | "statefulsets")
                | ("batch", "cronjobs" | "jobs")
                | ("discovery.k8s.io", "endpointslices")
                | (
                    "flowcontrol.apiserver.k8s.io",
                    "flowschemas" | "prioritylevelconfigurations"
                )
                | ("networking.k8s.io", "ingresses" | "ingressclasses" | "networkpolicies")
                | ("policy", "poddisruptionbudgets")
                | ("resource.k8s.io", "deviceclasses" | "resourceslices")
                | ("scheduling.k8s.io", "priorityclasses")
        )
}
