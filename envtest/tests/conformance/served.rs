//! What the server under test serves, from its discovery and `/version`: tests of a
//! resource or feature newer than the server skip it with a message naming both.

use wheelhouse_envtest::TestEnv;

/// The server's version, as `/version` reports it (`1.19`, `1.37`).
pub(crate) async fn server_version(env: &TestEnv) -> String {
    let info = env.client().apiserver_version().await.expect("/version answers");
    format!("{}.{}", info.major, info.minor.trim_end_matches('+'))
}

/// Whether `group_version` (`batch/v1`, `v1`) lists the resource `plural`.
pub(crate) async fn serves(env: &TestEnv, group_version: &str, plural: &str) -> bool {
    let client = env.client();
    let list = if group_version.contains('/') {
        client.list_api_group_resources(group_version).await
    } else {
        client.list_core_api_resources(group_version).await
    };
    list.is_ok_and(|list| list.resources.iter().any(|r| r.name == plural))
}

/// False (after saying why) when the server does not serve `group_version`/`plural`.
pub(crate) async fn require(env: &TestEnv, group_version: &str, plural: &str, what: &str) -> bool {
    if serves(env, group_version, plural).await {
        return true;
    }
    let version = server_version(env).await;
    eprintln!("skipped: {what}: Kubernetes {version} does not serve {group_version} {plural}");
    false
}

/// True when the server is at least Kubernetes 1.`minor`; else says why the test skips.
pub(crate) async fn at_least(env: &TestEnv, minor: u32, feature: &str) -> bool {
    let version = server_version(env).await;
    let found: u32 = version.split('.').nth(1).and_then(|m| m.parse().ok()).unwrap_or(0);
    if found >= minor {
        return true;
    }
    eprintln!("skipped: {feature} is Kubernetes 1.{minor}+; this server is {version}");
    false
}
