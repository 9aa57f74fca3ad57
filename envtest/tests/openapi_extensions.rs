//! Keeps `src/resources/openapi/extensions.json` current: the `x-kubernetes-*` extensions
//! of the built-in types' `OpenAPI` v3 schemas (list types and map keys, map types,
//! patch strategies and merge keys, and the defaults of list map keys), which the
//! schemas k8s-openapi generates lack, and which definitions hold any JSON value
//! (`"untyped": true`: no `type` there). The server adds them to the schemas it serves
//! and builds server-side apply's types from them.
//!
//! They are taken from a Kubernetes source tree's `api/openapi-spec/v3` documents, so the
//! test needs one: `KUBERNETES_SOURCE=<kubernetes dir> cargo test -p wheelhouse-envtest
//! --test openapi_extensions -- --ignored`. When the extracted text differs from the
//! file, the test writes it and fails, so the change is reviewed and committed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map, Value};

/// The generated file, relative to this crate.
const GENERATED: &str = "src/resources/openapi/extensions.json";

#[test]
#[ignore = "needs a Kubernetes source tree in KUBERNETES_SOURCE"]
fn the_extensions_match_the_kubernetes_source() {
    let source = std::env::var("KUBERNETES_SOURCE").expect("KUBERNETES_SOURCE names a Kubernetes source tree");
    let text = render(
        &Path::new(&source).join("api/openapi-spec/v3"),
        &version(Path::new(&source)),
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED);
    let current = std::fs::read_to_string(&file).unwrap_or_default();
    if current != text {
        std::fs::write(&file, &text).expect("the extensions are written");
        panic!("{GENERATED} was out of date with {source} and has been regenerated; review and commit it");
    }
}

/// The tree's version: its `git describe`, else the newest release whose changelog it
/// carries (a tree copied without its history).
fn version(source: &Path) -> String {
    let described = std::process::Command::new("git")
        .arg("-C")
        .arg(source)
        .args(["describe", "--tags", "--always"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned());
    described.unwrap_or_else(|| {
        let newest = std::fs::read_dir(source.join("CHANGELOG"))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let minor = name.strip_prefix("CHANGELOG-1.")?.strip_suffix(".md")?;
                minor.parse::<u32>().ok()
            })
            .max();
        newest.map_or_else(|| "unknown".to_owned(), |minor| format!("v1.{minor}"))
    })
}

fn reference(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .or_else(|| schema.pointer("/allOf/0/$ref"))
        .and_then(Value::as_str)
        .and_then(|reference| reference.rsplit('/').next())
}

fn render(directory: &Path, version: &str) -> String {
    let mut definitions = Map::new();
    let mut entries: Vec<_> = std::fs::read_dir(directory)
        .expect("the v3 documents are there")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    for path in entries {
        let document: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        if let Some(schemas) = document.pointer("/components/schemas").and_then(Value::as_object) {
            for (name, schema) in schemas {
                definitions.insert(name.clone(), schema.clone());
            }
        }
    }
    // The fields that key a map list: their defaults name items that omit them.
    let mut key_fields: BTreeSet<(String, String)> = BTreeSet::new();
    for schema in definitions.values() {
        for property in schema["properties"].as_object().into_iter().flatten().map(|(_, p)| p) {
            let Some(item) = reference(&property["items"]) else {
                continue;
            };
            for key in property["x-kubernetes-list-map-keys"].as_array().into_iter().flatten() {
                if let Some(key) = key.as_str() {
                    key_fields.insert((item.to_owned(), key.to_owned()));
                }
            }
        }
    }
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for (name, schema) in &definitions {
        let mut extracted = Map::new();
        // A definition of any JSON value (apiextensions' `JSON`) has no type there,
        // where k8s-openapi calls it an object.
        if schema.get("type").is_none() && schema.get("properties").is_none() {
            extracted.insert("untyped".into(), Value::Bool(true));
        }
        if let Some(map_type) = schema.get("x-kubernetes-map-type") {
            extracted.insert("x-kubernetes-map-type".into(), map_type.clone());
        }
        let mut properties = Map::new();
        for (property, property_schema) in schema["properties"].as_object().into_iter().flatten() {
            let mut kept: Map<String, Value> = property_schema
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(key, _)| key.starts_with("x-kubernetes-") && *key != "x-kubernetes-validations")
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect();
            if key_fields.contains(&(name.clone(), property.clone()))
                && let Some(default) = property_schema.get("default")
            {
                kept.insert("default".into(), default.clone());
            }
            if !kept.is_empty() {
                properties.insert(property.clone(), Value::Object(kept));
            }
        }
        if !properties.is_empty() {
            extracted.insert("properties".into(), Value::Object(properties));
        }
        if !extracted.is_empty() {
            out.insert(name.clone(), Value::Object(extracted));
        }
    }
    let mut text = format!(
        "{{\n\"source\": {},\n\"definitions\": {{\n",
        Value::String(format!("kubernetes {version} api/openapi-spec/v3"))
    );
    let count = out.len();
    for (index, (name, extracted)) in out.into_iter().enumerate() {
        let separator = if index + 1 == count { "" } else { "," };
        let _ = writeln!(text, "{}: {extracted}{separator}", Value::String(name));
    }
    text.push_str("}\n}\n");
    text
}
