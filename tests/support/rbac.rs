//! An operator's RBAC manifest made from evidence (the rules `ApiServer::rbac_for` reads
//! off a lifecycle test's requests), and the check that the checked-in file is that.

use wheelhouse_envtest::{Rbac, TestEnv};

/// The environment variable that makes a drift check rewrite the file instead of failing.
pub const REGENERATE: &str = "WHEELHOUSE_REGENERATE";

/// The whole manifest: a `ServiceAccount` `name` in `namespace`, the roles of `rbac`
/// (all called `name`), and a binding of each to the `ServiceAccount`. `header` is the
/// opening comment, one line per item.
pub fn manifest(rbac: &Rbac, name: &str, namespace: &str, header: &[&str]) -> String {
    let mut documents = vec![format!(
        "{}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n  namespace: {namespace}\n",
        header
            .iter()
            .map(|line| format!("# {line}"))
            .collect::<Vec<_>>()
            .join("\n")
    )];
    documents.push(rbac.to_yaml(name));
    let subject = format!("subjects:\n- kind: ServiceAccount\n  name: {name}\n  namespace: {namespace}\n");
    if !rbac.cluster_rules().is_empty() {
        documents.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: {name}\n\
             roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: {name}\n{subject}"
        ));
    }
    for role_namespace in rbac.namespaces() {
        documents.push(format!(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {name}\n  namespace: {role_namespace}\n\
             roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {name}\n{subject}"
        ));
    }
    documents.retain(|document| !document.is_empty());
    documents.join("---\n")
}

/// Fails when `deploy/{file}` is not `generated`, printing the new text and how to
/// regenerate; with `WHEELHOUSE_REGENERATE=1` writes it instead.
pub fn check_or_regenerate(file: &str, generated: &str) {
    let path = format!("{}/deploy/{file}", env!("CARGO_MANIFEST_DIR"));
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in == generated {
        return;
    }
    if std::env::var(REGENERATE).is_ok_and(|v| v == "1") {
        std::fs::write(&path, generated).unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("regenerated deploy/{file}: review and commit it");
        return;
    }
    panic!(
        "deploy/{file} is not what the operator sent in this run; if the change is intended, \
         rerun with {REGENERATE}=1 to rewrite it, then review and commit. The rules from this run:\n{generated}"
    );
}

/// The client an operator under test runs with: on the embedded server, one whose
/// requests are attributed to `account`, so its RBAC can be read off them; on a real
/// cluster, the test's own.
pub fn operator_client(env: &TestEnv, account: &str) -> kube::Client {
    match env.server() {
        Some(server) => kube::Client::new(server.as_user(account), env.namespace().to_owned()),
        None => env.client(),
    }
}

/// Checks `deploy/{file}` against what `account` (see [`operator_client`]) sent in this
/// test, the test's namespace standing for any namespace, the `ServiceAccount` in
/// `namespace`; skipped on a real cluster, which keeps no such records.
pub fn check_operator_rbac(env: &TestEnv, account: &str, namespace: &str, file: &str, header: &[&str]) {
    let Some(server) = env.server() else {
        eprintln!(
            "skipped the deploy/{file} drift check: its rules come from the embedded server's records of who sent what, which a real cluster does not keep"
        );
        return;
    };
    // The event recorder patches an Event it sends again within its aggregation
    // window, which one clean lifecycle does not do.
    let rbac = server
        .rbac_for(account)
        .cluster_wide(env.namespace())
        .grant("events.k8s.io", "events", &["patch"]);
    check_or_regenerate(file, &manifest(&rbac, account, namespace, header));
}
