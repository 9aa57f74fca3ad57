//! Keeps `src/resources/catalogue/generated.rs` current: it is generated from the source of the
//! k8s-openapi crate this workspace locks, one entry per resource type (its
//! `impl Resource` with a resource scope), gated by the Kubernetes versions that
//! k8s-openapi models it in. When the generated text differs from the file (a new
//! k8s-openapi release), this test writes the new text and fails, so the change is
//! reviewed and committed like any other.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The generated file, relative to this crate.
const GENERATED: &str = "src/resources/catalogue/generated.rs";

/// One resource type as k8s-openapi's source declares it in one version module.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Declared {
    /// `api::apps::v1::Deployment`: the path under `k8s_openapi::`.
    path: String,
    api_version: String,
    plural: String,
    listable: bool,
    status: bool,
}

#[test]
fn the_generated_catalogue_is_current() {
    let source = k8s_openapi_source();
    let versions = version_modules(&source);
    assert!(!versions.is_empty(), "no v1_* modules under {}", source.display());
    // path → (declaration, the minor versions that have it)
    let mut types: BTreeMap<String, (Declared, Vec<u32>)> = BTreeMap::new();
    for (minor, module) in &versions {
        for declared in declared_resources(module) {
            let entry = types
                .entry(declared.path.clone())
                .or_insert_with(|| (declared.clone(), Vec::new()));
            assert_eq!(
                entry.0.listable, declared.listable,
                "{} changes shape between versions",
                declared.path
            );
            entry.1.push(*minor);
        }
    }
    let oldest = versions.first().map_or(0, |(minor, _)| *minor);
    let newest = versions.last().map_or(0, |(minor, _)| *minor);
    let text = render(&types, oldest, newest, &package_version(&source));
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED);
    let current = std::fs::read_to_string(&file).unwrap_or_default();
    if current != text {
        std::fs::write(&file, &text).expect("the generated catalogue is written");
        panic!("{GENERATED} was out of date with k8s-openapi's source and has been regenerated; review and commit it");
    }
}

/// Where cargo unpacked the k8s-openapi this workspace builds with (the packages of
/// this platform only, so that nothing needs downloading).
fn k8s_openapi_source() -> PathBuf {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline", "--filter-platform"])
        .arg(host_platform())
        .arg("--manifest-path")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let manifest = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|package| package["name"] == "k8s-openapi")
        .and_then(|package| package["manifest_path"].as_str())
        .expect("k8s-openapi is a dependency");
    Path::new(manifest)
        .parent()
        .expect("a manifest has a directory")
        .to_owned()
}

/// The host's target triple, as rustc reports it.
fn host_platform() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("rustc runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}

fn package_version(source: &Path) -> String {
    let name = source.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.strip_prefix("k8s-openapi-").unwrap_or(name).to_owned()
}

/// `src/v1_33`, `src/v1_34`, ...: (minor version, directory), oldest first.
fn version_modules(source: &Path) -> Vec<(u32, PathBuf)> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(source.join("src"))
        .expect("k8s-openapi has a src directory")
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let minor = name.strip_prefix("v1_")?.parse().ok()?;
            Some((minor, entry.path()))
        })
        .collect();
    versions.sort();
    versions
}

fn rust_files(directory: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(directory)
        .expect("a readable directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The resource types of one version module: each `impl crate::Resource` whose scope
/// is a namespace or the cluster (subresource types such as `Scale` are not
/// resources of their own) and whose path segment is not empty (meta types).
fn declared_resources(module: &Path) -> Vec<Declared> {
    let mut files = Vec::new();
    rust_files(module, &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        let directory = file
            .parent()
            .expect("a file has a directory")
            .strip_prefix(module)
            .expect("under the module");
        let module_path: Vec<String> = directory
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for block in text.split("impl crate::Resource for ").skip(1) {
            let name: String = block.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let body = &block[..block.find("\n}").unwrap_or(block.len())];
            let scope = constant(body, "type Scope = crate::", ";");
            if !matches!(scope.as_str(), "NamespaceResourceScope" | "ClusterResourceScope") {
                continue;
            }
            let plural = constant(body, "const URL_PATH_SEGMENT: &'static str = \"", "\"");
            if plural.is_empty() {
                continue;
            }
            found.push(Declared {
                path: format!("{}::{name}", module_path.join("::")),
                api_version: constant(body, "const API_VERSION: &'static str = \"", "\""),
                plural,
                listable: text.contains(&format!("impl crate::ListableResource for {name} ")),
                status: struct_has_status(&text, &name),
            });
        }
    }
    found
}

/// The text between `start` and the next `end` in `body`, empty when absent.
fn constant(body: &str, start: &str, end: &str) -> String {
    body.split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(value, _)| value.to_owned())
        .unwrap_or_default()
}

/// Whether `pub struct name { ... }` has a `status` field.
fn struct_has_status(text: &str, name: &str) -> bool {
    let Some((_, rest)) = text.split_once(&format!("pub struct {name} {{")) else {
        return false;
    };
    let fields = &rest[..rest.find("\n}").unwrap_or(rest.len())];
    fields.lines().any(|line| line.trim_start().starts_with("pub status:"))
}

/// The generated module's text.
fn render(types: &BTreeMap<String, (Declared, Vec<u32>)>, oldest: u32, newest: u32, version: &str) -> String {
    let mut text = format!(
        "//! Every resource k8s-openapi {version} models, for each Kubernetes version it supports
//! (1.{oldest} to 1.{newest}): generated from its source by `envtest/tests/catalogue.rs`
//! (run `cargo test -p wheelhouse-envtest --test catalogue` to regenerate); do not edit.
//! Each entry is compiled only for the versions that have it, through k8s-openapi's
//! `k8s_if_*` macros, so the library builds with whichever version the final binary
//! picks.

use super::{{Builtin, CREATE_ONLY, STORED, STORED_WITH_STATUS, entry}};

/// Pushes the built-in resources of the Kubernetes version k8s-openapi was built for.
#[expect(clippy::too_many_lines, reason = \"one line per resource type\")]
pub(super) fn builtins(out: &mut Vec<Builtin>) {{
"
    );
    let mut rows: Vec<&(Declared, Vec<u32>)> = types.values().collect();
    rows.sort_by(|a, b| {
        let group = |d: &Declared| {
            d.api_version
                .rsplit_once('/')
                .map_or(String::new(), |(g, _)| g.to_owned())
        };
        (group(&a.0), &a.0.plural, &a.0.api_version).cmp(&(group(&b.0), &b.0.plural, &b.0.api_version))
    });
    for (declared, minors) in rows {
        let shape = match (declared.listable, declared.status) {
            (false, _) => "CREATE_ONLY",
            (true, false) => "STORED",
            (true, true) => "STORED_WITH_STATUS",
        };
        let push = format!("out.push(entry::<k8s_openapi::{}>({shape}));", declared.path);
        let first = minors.first().copied().unwrap_or(oldest);
        let last = minors.last().copied().unwrap_or(newest);
        assert_eq!(
            u32::try_from(minors.len()).ok(),
            Some(last - first + 1),
            "{} comes and goes between versions; the generator handles only one range",
            declared.path
        );
        let _ = writeln!(text, "    // {} {}", declared.api_version, declared.plural);
        let line = match (first > oldest, last < newest) {
            (false, false) => format!("    {push}"),
            (true, false) => format!("    k8s_openapi::k8s_if_ge_1_{first}! {{ {push} }}"),
            (false, true) => format!("    k8s_openapi::k8s_if_le_1_{last}! {{ {push} }}"),
            (true, true) => {
                format!("    k8s_openapi::k8s_if_ge_1_{first}! {{ k8s_openapi::k8s_if_le_1_{last}! {{ {push} }} }}")
            }
        };
        let _ = writeln!(text, "{line}");
    }
    text.push_str("}\n");
    let _ = write!(
        text,
        "\n/// The minor version of the Kubernetes k8s-openapi was built for.\npub(super) fn minor() -> u32 {{\n    // k8s_match! calls itself by name.\n    use k8s_openapi::k8s_match;\n    k8s_match!(0_u8, {{\n"
    );
    for minor in oldest..=newest {
        let _ = writeln!(text, "        k8s_if_1_{minor}!(_ => {minor}),");
    }
    text.push_str("    })\n}\n");
    text
}
