//! kube-openapi's `deduplicateParameters` (`pkg/builder/parameters.go`): the
//! parameters that are the same on many operations are written once, in the
//! document's `parameters`, and referred to by name. A shared parameter's name is its
//! own followed by the FNV-1 hash of its JSON (as Go writes it), so the names are those
//! a 1.32 server gives the same parameters (`limit-1NfNmdNH`).

use std::collections::{BTreeMap, HashMap};

use base64::Engine as _;
use serde_json::{Map, Value, json};
use wheelhouse_envtest_schema::errors::go_json;

/// A parameter's fields in the order Go's `spec.Parameter` writes them.
const FIELD_ORDER: &[&str] = &[
    "uniqueItems",
    "type",
    "format",
    "description",
    "name",
    "in",
    "required",
    "schema",
];

/// A parameter as Go's encoder writes it: its fields in `FIELD_ORDER`, nested values
/// with sorted keys, HTML characters escaped.
fn go_parameter_json(parameter: &Value) -> String {
    let Some(fields) = parameter.as_object() else {
        return go_json(parameter);
    };
    let mut out = String::from("{");
    let mut first = true;
    let ordered = FIELD_ORDER
        .iter()
        .filter_map(|name| fields.get(*name).map(|value| (*name, value)));
    let rest = fields
        .iter()
        .filter(|(name, _)| !FIELD_ORDER.contains(&name.as_str()))
        .map(|(name, value)| (name.as_str(), value));
    for (name, value) in ordered.chain(rest) {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&go_json(&json!(name)));
        out.push(':');
        out.push_str(&go_json(value));
    }
    out.push('}');
    out
}

/// Whether kube shares the parameter: not an item's `name` (its description names the
/// kind), not `fieldValidation` or `dryRun` (old kubectl looks for them on each
/// operation to learn what the server supports), not a body of the kind's own schema.
fn shareable(parameter: &Value) -> bool {
    let place = parameter["in"].as_str().unwrap_or_default();
    let name = parameter["name"].as_str().unwrap_or_default();
    if matches!(place, "query" | "path") && name == "name" {
        return false;
    }
    if place == "query" && matches!(name, "fieldValidation" | "dryRun") {
        return false;
    }
    if place == "body"
        && name == "body"
        && parameter.get("schema").is_some()
        && !parameter["schema"]["$ref"]
            .as_str()
            .unwrap_or_default()
            .starts_with("#/definitions/io.k8s.apimachinery")
    {
        return false;
    }
    true
}

/// `base64Hash`: the first six bytes of the FNV-1 64-bit hash, URL-safe base64.
fn hash(json: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in json.as_bytes() {
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        hash ^= u64::from(*byte);
    }
    base64::engine::general_purpose::URL_SAFE.encode(&hash.to_be_bytes()[..6])
}

/// The operations of a path item, with its own parameters.
fn parameter_lists(item: &mut Value) -> Vec<&mut Vec<Value>> {
    let Some(item) = item.as_object_mut() else {
        return Vec::new();
    };
    item.iter_mut()
        .filter_map(|(key, value)| {
            if key == "parameters" {
                value.as_array_mut()
            } else {
                value.get_mut("parameters").and_then(Value::as_array_mut)
            }
        })
        .collect()
}

/// Moves every shareable parameter of `paths` into the returned `parameters` map and
/// puts a reference in its place.
pub(super) fn deduplicate(paths: &mut Map<String, Value>) -> Map<String, Value> {
    let mut by_json: BTreeMap<String, Value> = BTreeMap::new();
    for item in paths.values_mut() {
        for list in parameter_lists(item) {
            for parameter in list.iter().filter(|p| p.get("$ref").is_none() && shareable(p)) {
                by_json
                    .entry(go_parameter_json(parameter))
                    .or_insert_with(|| parameter.clone());
            }
        }
    }
    // Named in the order of their JSON, so a (rare) collision is resolved the same way
    // each time.
    let mut shared = Map::new();
    let mut names: HashMap<String, String> = HashMap::new();
    for (json, parameter) in by_json {
        let base = parameter["name"]
            .as_str()
            .filter(|n| !n.is_empty())
            .unwrap_or("param")
            .to_owned();
        let mut name = format!("{base}-{}", hash(&json));
        let mut i = 0;
        while shared.contains_key(&name) {
            i += 1;
            name = format!("{base}-{i}");
        }
        shared.insert(name.clone(), parameter);
        names.insert(json, name);
    }
    for item in paths.values_mut() {
        for list in parameter_lists(item) {
            for parameter in list.iter_mut() {
                if parameter.get("$ref").is_some() {
                    continue;
                }
                if let Some(name) = names.get(&go_parameter_json(parameter)) {
                    *parameter = json!({"$ref": format!("#/parameters/{name}")});
                }
            }
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_those_kube_gives_the_same_parameters() {
        let namespace = json!({"uniqueItems": true, "type": "string",
            "description": "object name and auth scope, such as for teams and projects",
            "name": "namespace", "in": "path", "required": true});
        assert_eq!(hash(&go_parameter_json(&namespace)), "vgWSWtn3");
        let patch = json!({"name": "body", "in": "body", "required": true,
            "schema": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}});
        assert_eq!(hash(&go_parameter_json(&patch)), "78PwaGsr");
    }

    #[test]
    fn shared_parameters_are_referred_to_and_the_others_stay() {
        let namespace = json!({"uniqueItems": true, "type": "string",
            "description": "object name and auth scope, such as for teams and projects",
            "name": "namespace", "in": "path", "required": true});
        let name = json!({"uniqueItems": true, "type": "string", "description": "name of the Pod",
            "name": "name", "in": "path", "required": true});
        let dry_run =
            json!({"uniqueItems": true, "type": "string", "description": "d", "name": "dryRun", "in": "query"});
        let mut paths = Map::new();
        paths.insert(
            "/p".into(),
            json!({"parameters": [name.clone(), namespace], "put": {"parameters": [dry_run.clone()]}}),
        );
        let shared = deduplicate(&mut paths);
        assert_eq!(shared.keys().collect::<Vec<_>>(), ["namespace-vgWSWtn3"]);
        assert_eq!(
            paths["/p"]["parameters"],
            json!([name, {"$ref": "#/parameters/namespace-vgWSWtn3"}])
        );
        assert_eq!(paths["/p"]["put"]["parameters"], json!([dry_run]));
    }
}
