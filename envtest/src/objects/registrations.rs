//! What the embedded admission of `ValidatingAdmissionPolicies` shares with their
//! validation: the names a policy's CEL expressions may use. (The policies, bindings
//! and webhook configurations are validated as kube validates them by the
//! `wheelhouse-envtest-validation` crate, CEL compilation included.)

/// The names a policy's expressions may use (`params` only with a `paramKind`),
/// as the admission plugin declares them.
pub(crate) fn declared_names(has_params: bool) -> Vec<&'static str> {
    let mut names = vec![
        "object",
        "oldObject",
        "request",
        "namespaceObject",
        "variables",
        "authorizer",
    ];
    if has_params {
        names.push("params");
    }
    names
}
