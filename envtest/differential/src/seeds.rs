//! Seeds: one valid object per kind, which a real 1.32 accepts, that mutations start
//! from. They are YAML files in the tool's `seeds/` folder (one document per object;
//! `$NAME` and `$NAMESPACE` stand for the case's object name and the run's namespace),
//! and the example operators' CRDs, taken from the examples crate so they never drift.

use std::path::Path;

use kube::CustomResourceExt;
use serde_json::Value;

/// Why the seeds could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file or folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A document is not YAML of a Kubernetes object.
    #[error("{path}: {message}")]
    Document {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// One valid object of a kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Seed {
    /// Where it was written (`core.yaml`).
    pub source: String,
    /// `apps/v1`.
    pub api_version: String,
    /// `Deployment`.
    pub kind: String,
    /// A second seed of a kind names what it varies (`tls` for a TLS `Secret`), from
    /// its annotation `differential.wheelhouse.rs/variant`, which is removed.
    pub variant: Option<String>,
    /// The object, with `$NAME` and `$NAMESPACE` where the case's values go.
    pub object: Value,
}

/// Every seed of every `*.yaml` file in `dir`, files in name order, documents in file
/// order.
pub fn load(dir: &Path) -> Result<Vec<Seed>, Error> {
    let unreadable = |source| Error::Read {
        path: dir.display().to_string(),
        source,
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(unreadable)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut seeds = Vec::new();
    for file in files {
        let source = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&file).map_err(|source| Error::Read {
            path: file.display().to_string(),
            source,
        })?;
        seeds.extend(parse(&source, &text)?);
    }
    Ok(seeds)
}

/// The seeds of one file's text.
pub fn parse(source: &str, text: &str) -> Result<Vec<Seed>, Error> {
    let documents: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| Error::Document {
        path: source.to_owned(),
        message: format!("not YAML: {e}"),
    })?;
    documents
        .into_iter()
        .filter(|document| !document.is_null())
        .map(|mut object| {
            let text_of = |field: &str| object.get(field).and_then(Value::as_str).map(str::to_owned);
            match (text_of("apiVersion"), text_of("kind")) {
                (Some(api_version), Some(kind)) => Ok(Seed {
                    source: source.to_owned(),
                    api_version,
                    kind,
                    variant: take_variant(&mut object),
                    object,
                }),
                _ => Err(Error::Document {
                    path: source.to_owned(),
                    message: "a document without apiVersion or kind".to_owned(),
                }),
            }
        })
        .collect()
}

/// The annotation naming a seed's variant.
const VARIANT: &str = "differential.wheelhouse.rs/variant";

/// Removes the variant annotation (and the annotations, if it was the only one).
fn take_variant(object: &mut Value) -> Option<String> {
    let metadata = object.get_mut("metadata")?.as_object_mut()?;
    let annotations = metadata.get_mut("annotations")?.as_object_mut()?;
    let variant = annotations.remove(VARIANT)?.as_str().map(str::to_owned);
    if annotations.is_empty() {
        metadata.remove("annotations");
    }
    variant
}

/// The example operators' CRDs (`WebApp`, `AutoRoute`, `Canary`, `Widget`), installed
/// on every server before a run so their objects can be seeds.
pub fn example_crds() -> Vec<Value> {
    use wheelhouse_examples::{autoroute::AutoRoute, canary::Canary, webapp::WebApp, widgets};
    [
        serde_json::to_value(WebApp::crd()),
        serde_json::to_value(AutoRoute::crd()),
        serde_json::to_value(Canary::crd()),
        serde_json::to_value(widgets::crd("v1")),
    ]
    .into_iter()
    .filter_map(Result::ok)
    .collect()
}

/// `object` with `$NAME`, `$NAME{n}` and `$NAMESPACE` filled in every string and key
/// (see [`fill`]).
pub fn instantiate(object: &Value, name: &str, namespace: &str) -> Value {
    match object {
        Value::String(text) if text.contains('$') => Value::String(fill(text, name, namespace)),
        Value::Array(items) => Value::Array(items.iter().map(|item| instantiate(item, name, namespace)).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, value)| (fill(key, name, namespace), instantiate(value, name, namespace)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `text` with `$NAMESPACE` replaced by `namespace`, `$NAME` by `name`, and `$NAME{n}`
/// by `name` padded with `a` to `n` characters (a name at an exact length that is still
/// the case's own).
pub fn fill(text: &str, name: &str, namespace: &str) -> String {
    if !text.contains('$') {
        return text.to_owned();
    }
    let text = text.replace("$NAMESPACE", namespace);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("$NAME") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "$NAME".len()..];
        out.push_str(name);
        if let Some(inner) = rest.strip_prefix('{')
            && let Some(end) = inner.find('}')
            && let Ok(length) = inner[..end].parse::<usize>()
        {
            out.push_str(&"a".repeat(length.saturating_sub(name.len())));
            rest = &inner[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documents_become_seeds() {
        let text =
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: $NAME}\n---\napiVersion: apps/v1\nkind: Deployment\n";
        let seeds = parse("core.yaml", text).expect("parses");
        assert_eq!(seeds.len(), 2);
        assert_eq!(
            (seeds[1].api_version.as_str(), seeds[1].kind.as_str()),
            ("apps/v1", "Deployment")
        );
        assert!(parse("bad.yaml", "kind: X\n").is_err());
        let variant =
            "apiVersion: v1\nkind: Secret\nmetadata:\n  annotations: {differential.wheelhouse.rs/variant: tls}\n";
        let seeds = parse("core.yaml", variant).expect("parses");
        assert_eq!(seeds[0].variant.as_deref(), Some("tls"));
        assert_eq!(
            seeds[0].object,
            json!({"apiVersion": "v1", "kind": "Secret", "metadata": {}})
        );
    }

    #[test]
    fn placeholders_are_filled_in_keys_and_values() {
        let object =
            json!({"metadata": {"name": "$NAME", "namespace": "$NAMESPACE"}, "data": {"$NAME.key": "x"}, "n": 1});
        let filled = instantiate(&object, "obj-1", "ns");
        assert_eq!(
            filled,
            json!({"metadata": {"name": "obj-1", "namespace": "ns"}, "data": {"obj-1.key": "x"}, "n": 1})
        );
    }

    #[test]
    fn a_padded_name_has_its_exact_length() {
        assert_eq!(fill("$NAME{10}", "dfz-1", "ns"), "dfz-1aaaaa");
        assert_eq!(fill("x-$NAME-$NAMESPACE", "n", "ns"), "x-n-ns");
        assert_eq!(fill("$NAME{2}", "long-name", "ns"), "long-name");
        assert_eq!(fill("$NAME{x}", "n", "ns"), "n{x}");
    }

    #[test]
    fn the_example_crds_are_all_there() {
        let names: Vec<_> = example_crds()
            .iter()
            .filter_map(|crd| crd.pointer("/metadata/name").and_then(Value::as_str).map(str::to_owned))
            .collect();
        assert_eq!(
            names,
            [
                "webapps.example.com",
                "autoroutes.example.com",
                "canaries.example.com",
                "widgets.migrate.example.com"
            ]
        );
    }

    #[test]
    fn the_shipped_seeds_parse() {
        let seeds = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds")).expect("the seeds load");
        assert!(seeds.len() > 40, "{} seeds", seeds.len());
        for seed in &seeds {
            // Access reviews may have no name; every other seed is named after its case.
            let name = seed.object.pointer("/metadata/name").and_then(Value::as_str);
            assert!(
                name.map_or(seed.api_version.starts_with("authorization"), |n| n.contains("$NAME")),
                "{} {} names $NAME",
                seed.source,
                seed.kind
            );
        }
    }
}
