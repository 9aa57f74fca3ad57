//! The Kubernetes version the embedded server imitates: what `/version`, the `OpenAPI`
//! documents and the simulated kubelets report. Its behaviour (status codes, messages,
//! discovery, defaults) is checked against a real kube-apiserver of this version, so a
//! client that branches on the server's version takes the branch it would take there.
//!
//! The resources served are another matter: they come from the Kubernetes version
//! k8s-openapi was built for (`crate::resources::catalogue::kubernetes_version`), which
//! may be newer, so a resource of a later release is served beside 1.32's behaviour.

/// `(major, minor)` of the Kubernetes release the server imitates.
pub const KUBERNETES_VERSION: (u32, u32) = (1, 32);

/// `v1.32.0+wheelhouse-envtest`: the `gitVersion` `/version` reports (a release with
/// build metadata naming this server, as a distribution marks its builds).
pub(crate) fn git_version() -> String {
    let (major, minor) = KUBERNETES_VERSION;
    format!("v{major}.{minor}.0+wheelhouse-envtest")
}

/// `1.32.0`: the `info.version` of the `OpenAPI` documents, as kube-apiserver 1.32
/// writes it (without the `v`).
pub(crate) fn openapi_version() -> String {
    let (major, minor) = KUBERNETES_VERSION;
    format!("{major}.{minor}.0")
}
