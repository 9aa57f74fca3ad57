//! kube-openapi's builder (`k8s.io/kube-openapi/pkg/builder`): the routes of one path
//! turned into its path item, the parameters every operation takes moved up to the
//! path, each list sorted by name and place, each operation named from its path
//! (`GetOperationIDAndTags`), with its answers and the `401` every operation may give.

use serde_json::{Map, Value, json};

/// kube-openapi's `buildPaths` for one path: the parameters (other than a body) that
/// every route takes go to the path, the rest stay with their operation, both sorted
/// by name and place; each operation gets its id and tags from its path
/// (`GetOperationIDAndTags`), its answers and the `401` every operation may answer.
pub(super) fn path_item(path: &str, routes: &[Value]) -> Value {
    let key = |p: &Value| format!("{}\u{0}{}", text(&p["name"]), text(&p["in"]));
    let common: Vec<Value> = routes
        .first()
        .map(|first| {
            first["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["in"] != "body")
                .filter(|p| {
                    routes.iter().all(|route| {
                        route["parameters"]
                            .as_array()
                            .is_some_and(|ps| ps.iter().any(|q| key(q) == key(p)))
                    })
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let common_keys: Vec<String> = common.iter().map(key).collect();
    let mut item = Map::new();
    item.insert("parameters".into(), Value::Array(sorted(common)));
    for route in routes {
        let own: Vec<Value> = route["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| !common_keys.contains(&key(p)))
            .cloned()
            .collect();
        let (id, tags) = operation_id(text(&route["operation"]), path);
        let mut responses = Map::new();
        for answer in route["responses"].as_array().into_iter().flatten() {
            responses.insert(
                answer[0].to_string(),
                json!({"description": answer[1], "schema": answer[2]}),
            );
        }
        responses.insert("401".into(), json!({"description": "Unauthorized"}));
        let mut operation = json!({
            "description": route["description"],
            "produces": route["produces"],
            "schemes": ["https"],
            "tags": tags,
            "operationId": id,
            "responses": responses,
        });
        if route["consumes"].as_array().is_some_and(|c| !c.is_empty()) {
            operation["consumes"] = route["consumes"].clone();
        }
        if !own.is_empty() {
            operation["parameters"] = Value::Array(sorted(own));
        }
        if !text(&route["action"]).is_empty() {
            operation["x-kubernetes-action"] = route["action"].clone();
        }
        if route["gvk"].is_object() {
            operation["x-kubernetes-group-version-kind"] = route["gvk"].clone();
        }
        item.insert(text(&route["method"]).to_owned(), operation);
    }
    if item["parameters"].as_array().is_some_and(Vec::is_empty) {
        item.remove("parameters");
    }
    Value::Object(item)
}

/// Parameters sorted by name, then place (`byNameIn`).
fn sorted(mut parameters: Vec<Value>) -> Vec<Value> {
    parameters.sort_by(|a, b| (text(&a["name"]), text(&a["in"])).cmp(&(text(&b["name"]), text(&b["in"]))));
    parameters
}

/// The verbs an operation name starts with (`openapi.verbs`): the first that ends a
/// prefix of the name is its verb, so `deletecollection...` is `delete` and
/// `Collection...`.
const VERBS: &[&str] = &[
    "get",
    "log",
    "read",
    "replace",
    "patch",
    "delete",
    "deletecollection",
    "watch",
    "connect",
    "proxy",
    "list",
    "create",
];

/// `GetOperationIDAndTags`: the group (less `.k8s.io`) and version go after the verb,
/// each made a valid identifier; the tag is the group and version.
fn operation_id(operation: &str, path: &str) -> (String, Vec<String>) {
    let verb = (1..=operation.len())
        .filter(|end| operation.is_char_boundary(*end))
        .map(|end| &operation[..end])
        .find(|prefix| VERBS.contains(prefix))
        .unwrap_or_default();
    let rest = &operation[verb.len()..];
    let mut parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.first() == Some(&"api") {
        parts.splice(0..1, ["apis", "core"]);
    }
    let mut prefix = verb.to_owned();
    let mut tags = Vec::new();
    if parts.len() >= 2 && parts[0] == "apis" {
        let trimmed = parts[1].strip_suffix(".k8s.io").unwrap_or(parts[1]);
        prefix.push_str(&valid_id(trimmed, !prefix.is_empty()));
        let mut tag = valid_id(trimmed, false);
        if parts.len() > 2 {
            prefix.push_str(&valid_id(parts[2], !prefix.is_empty()));
            tag = format!("{tag}_{}", valid_id(parts[2], false));
        }
        tags.push(tag);
    } else if let Some(first) = parts.first() {
        tags.push(valid_id(first, false));
    }
    let capitalize = !prefix.is_empty();
    (format!("{prefix}{}", valid_id(rest, capitalize)), tags)
}

/// `ToValidOperationID`: letters and `_` kept (digits too, past the first), anything
/// else dropped and the next letter capitalized.
fn valid_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::new();
    let mut capitalize = capitalize_first;
    for (i, c) in s.char_indices() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_carry_the_group_and_version_after_the_verb() {
        let cases = [
            (
                "readNamespacedPod",
                "/api/v1/namespaces/{namespace}/pods/{name}",
                "readCoreV1NamespacedPod",
                "core_v1",
            ),
            (
                "deletecollectionNamespacedPod",
                "/api/v1/namespaces/{namespace}/pods",
                "deleteCoreV1CollectionNamespacedPod",
                "core_v1",
            ),
            (
                "listDeploymentForAllNamespaces",
                "/apis/apps/v1/deployments",
                "listAppsV1DeploymentForAllNamespaces",
                "apps_v1",
            ),
            (
                "connectGetNamespacedPodExec",
                "/api/v1/namespaces/{namespace}/pods/{name}/exec",
                "connectCoreV1GetNamespacedPodExec",
                "core_v1",
            ),
            (
                "getAPIGroup",
                "/apis/rbac.authorization.k8s.io/",
                "getRbacAuthorizationAPIGroup",
                "rbacAuthorization",
            ),
            (
                "listNamespacedGadget",
                "/apis/probe.example.com/v1/namespaces/{namespace}/gadgets",
                "listProbeExampleComV1NamespacedGadget",
                "probeExampleCom_v1",
            ),
            (
                "getServiceAccountIssuerOpenIDConfiguration",
                "/.well-known/openid-configuration/",
                "getServiceAccountIssuerOpenIDConfiguration",
                "WellKnown",
            ),
        ];
        for (operation, path, id, tag) in cases {
            assert_eq!(
                operation_id(operation, path),
                (id.to_owned(), vec![tag.to_owned()]),
                "{operation}"
            );
        }
    }
}
