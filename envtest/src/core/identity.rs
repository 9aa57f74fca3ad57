//! Who the server's own handle is: the administrator every request is made as unless
//! `ApiServer::as_user` names another user. It is the same user the real-binaries
//! backend's token authenticates (`wheelhouse-admin` in `system:masters`), so what a
//! test reads of its own identity (a `CertificateSigningRequest`'s requester, an admission
//! review's `userInfo`) is the same on both backends.

use serde_json::{Value, json};

/// The administrator's name, and its uid (kube-apiserver's token file gives the uid
/// beside the name; the backend's token file gives both the name).
pub(crate) const ADMIN: &str = "wheelhouse-admin";

/// The administrator's groups, as kube-apiserver's authenticator reports them (the
/// token file's group, then `system:authenticated`, which every authenticated user is in).
pub(crate) const ADMIN_GROUPS: [&str; 2] = ["system:masters", "system:authenticated"];

/// The administrator as an `authentication.k8s.io/v1` `UserInfo`.
pub(crate) fn admin_user_info() -> Value {
    json!({"username": ADMIN, "uid": ADMIN, "groups": ADMIN_GROUPS})
}
