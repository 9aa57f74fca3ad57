//! Regenerates what envtest's protobuf transcoder knows of Kubernetes' types, from
//! Kubernetes' own source: the messages (compiled from every `generated.proto` into one
//! `FileDescriptorSet`) and the facts about the Go types that the `.proto` files do not
//! carry but that decide the JSON kube-apiserver stores:
//!
//! - which fields Go's JSON encoder leaves out when zero (`omitempty` on a field that is
//!   not a pointer: go-to-protobuf writes such fields to the wire even when zero, so a
//!   decoder must know to drop them, or `kubectl create` bodies would store
//!   `"paused": false`, `"generation": 0` and the like);
//! - which fields the Go value of a type holds even when unset, and as what: a field
//!   that is not `omitempty` is there at its zero (`""`, `0`, `false`, or null for a nil
//!   pointer, slice or map), and a struct held by value is always there (filled the same
//!   way, or as its `MarshalJSON` writes its zero: `metav1.Time` as null). Server-side
//!   apply compares Go values, not JSON, so these decide which fields a write changed;
//! - which API group each proto package serves (`+groupName` / `GroupName`).
//!
//! Run it when envtest moves to a new Kubernetes version, with checkouts of the same
//! tag of `k8s.io/api`, `k8s.io/apimachinery` and `k8s.io/apiextensions-apiserver`:
//!
//! ```sh
//! cargo run --manifest-path envtest/tools/protobuf-descriptors/Cargo.toml -- \
//!     v1.37.0-beta.0 ../api ../apimachinery ../apiextensions-apiserver envtest/src/kubectl/protobuf
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use prost::Message;

/// The Go scalar types: their zero is what `omitempty` drops.
const GO_SCALARS: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "[]byte",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [version, api, apimachinery, apiextensions, out] = args.as_slice() else {
        eprintln!(
            "usage: protobuf-descriptors <kubernetes-version> <k8s.io/api dir> <k8s.io/apimachinery dir> <k8s.io/apiextensions-apiserver dir> <output dir>"
        );
        std::process::exit(2);
    };
    let roots = [
        ("k8s.io/api", PathBuf::from(api)),
        ("k8s.io/apimachinery", PathBuf::from(apimachinery)),
        ("k8s.io/apiextensions-apiserver", PathBuf::from(apiextensions)),
    ];
    // protox resolves imports like "k8s.io/api/core/v1/generated.proto" under one include dir.
    let include = std::env::temp_dir().join(format!("protobuf-descriptors-{}", std::process::id()));
    fs::create_dir_all(include.join("k8s.io")).expect("a temporary directory");
    let mut protos = Vec::new();
    let mut packages = Vec::new();
    for (module, dir) in &roots {
        let link = include.join(module);
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink(fs::canonicalize(dir).expect("the source directory exists"), &link)
            .expect("a symlink in the temporary directory");
        for proto in find(dir, "generated.proto") {
            let relative = proto.strip_prefix(dir).expect("under its root").to_path_buf();
            if relative.starts_with("pkg/apis/testapigroup") {
                continue;
            }
            let package_dir = relative.parent().expect("in a package").to_path_buf();
            protos.push(Path::new(module).join(&relative));
            packages.push((module.to_string(), dir.join(&package_dir), package_dir));
        }
    }
    protos.sort();
    let descriptors = protox::Compiler::new([&include])
        .expect("the include directory")
        .include_imports(true)
        .include_source_info(false)
        .open_files(&protos)
        .unwrap_or_else(|e| panic!("compiling the protos: {e}"))
        .file_descriptor_set();
    let _ = fs::remove_dir_all(&include);
    let messages: BTreeMap<String, BTreeSet<String>> = descriptors
        .file
        .iter()
        .flat_map(|file| {
            let package = file.package().to_owned();
            file.message_type.iter().map(move |m| {
                let fields = m.field.iter().map(|f| f.name().to_owned()).collect();
                (format!("{package}.{}", m.name()), fields)
            })
        })
        .collect();
    let out = PathBuf::from(out);
    fs::write(out.join("kubernetes.binpb"), descriptors.encode_to_vec()).expect("writing the descriptors");

    let named = named_types(&roots);
    let mut omit_zero: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut groups: Vec<(String, String, String)> = Vec::new();
    let mut renamed: Vec<(String, String, String)> = Vec::new();
    let mut inlined: Vec<(String, String)> = Vec::new();
    let mut present: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut omit_empty: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut types: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut composites: BTreeMap<String, String> = BTreeMap::new();
    for (module, dir, package_dir) in &packages {
        let proto_package = format!("{module}/{}", package_dir.display()).replace(['/', '-'], ".");
        let proto_package = proto_package.replace("apiextensions.apiserver", "apiextensions_apiserver");
        let fields = go_fields(dir, &named);
        let known = |message: &str, field: &str| messages.get(message).is_some_and(|fields| fields.contains(field));
        for (message, field) in fields.omitted {
            let full = format!("{proto_package}.{message}");
            if known(&full, &field) {
                omit_zero.entry(full).or_default().push(field);
            }
        }
        for (message, field) in fields.inlined {
            let full = format!("{proto_package}.{message}");
            if known(&full, &field) {
                inlined.push((full, field));
            }
        }
        for (message, fields) in fields.present {
            let full = format!("{proto_package}.{message}");
            if messages.contains_key(&full) {
                present.insert(full, fields);
            }
        }
        for (message, fields) in fields.types {
            let full = format!("{proto_package}.{message}");
            if messages.contains_key(&full) {
                types.insert(full, fields);
            }
        }
        composites.extend(fields.composites);
        for (message, fields) in fields.omit_empty {
            let full = format!("{proto_package}.{message}");
            if messages.contains_key(&full) {
                omit_empty.insert(full, fields);
            }
        }
        for (message, field, json) in fields.renamed {
            let full = format!("{proto_package}.{message}");
            if known(&full, &field) {
                renamed.push((full, field, json));
            }
        }
        if let Some(group) = group_name(dir) {
            let version = package_dir.file_name().expect("a version directory").to_string_lossy();
            groups.push((group, version.into_owned(), proto_package));
        }
    }
    // Only the composites a field of a message is declared as.
    let used: BTreeSet<&str> = types.values().flatten().map(|(_, go_type)| go_type.as_str()).collect();
    composites.retain(|name, _| used.contains(name.as_str()));
    groups.sort();
    renamed.sort();
    inlined.sort();
    fs::write(
        out.join("go_facts.rs"),
        render(
            version,
            &Facts {
                omit_zero: &omit_zero,
                omit_empty: &omit_empty,
                present: &present,
                types: &types,
                composites: &composites,
            },
            &renamed,
            &inlined,
            &groups,
        ),
    )
    .expect("writing go_facts.rs");
    let fields: usize = omit_zero.values().map(Vec::len).sum();
    eprintln!(
        "{} files, {} messages, {fields} zero-omitting fields, {} group versions",
        descriptors.file.len(),
        messages.len(),
        groups.len()
    );
}

/// Every file called `name` under `dir`.
fn find(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|n| n == name) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The Go source files of a package (tests and generated code aside).
fn go_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.ends_with(".go") && !name.ends_with("_test.go") && !name.starts_with("zz_generated")
        })
        .collect();
    files.sort();
    files
}

/// Go types declared by name over another type (`type PodPhase string`, `type
/// ResourceList map[ResourceName]resource.Quantity`), in any package: name to underlying.
fn named_types(roots: &[(&str, PathBuf)]) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for (_, root) in roots {
        let mut pending = vec![root.clone()];
        while let Some(dir) = pending.pop() {
            for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                if entry.path().is_dir() {
                    pending.push(entry.path());
                }
            }
            for file in go_files(&dir) {
                let text = fs::read_to_string(&file).unwrap_or_default();
                for line in text.lines() {
                    let mut words = line.split_whitespace();
                    if let (Some("type"), Some(name), Some(underlying)) = (words.next(), words.next(), words.next())
                        && underlying != "struct"
                        && underlying != "interface"
                        && underlying != "="
                    {
                        names.insert(name.to_owned(), underlying.to_owned());
                    }
                }
            }
        }
    }
    names
}

/// What a Go type is to `omitempty` and to a zero value.
enum GoKind {
    /// A pointer, slice or map: nil when unset.
    Nilable,
    /// A scalar, whose zero JSON is given.
    Scalar(&'static str),
    /// A struct held by value, whose zero JSON is given (`{}` for one filled field by
    /// field, or what its `MarshalJSON` writes for its zero value).
    Struct(&'static str),
}

/// What `go_type` (as written in a struct field) is, following named types.
fn go_kind(go_type: &str, named: &BTreeMap<String, String>) -> GoKind {
    let mut go_type = go_type.to_owned();
    for _ in 0..4 {
        match go_type.as_str() {
            // Bytes are a base64 string to JSON (so `omitempty` drops them as a scalar),
            // and nil unless set.
            "[]byte" => return GoKind::Scalar("null"),
            "string" => return GoKind::Scalar("\"\""),
            "bool" => return GoKind::Scalar("false"),
            scalar if GO_SCALARS.contains(&scalar) => return GoKind::Scalar("0"),
            _ => {}
        }
        if go_type.starts_with(['*', '[']) || go_type.starts_with("map[") {
            return GoKind::Nilable;
        }
        let unqualified = go_type.rsplit('.').next().unwrap_or(&go_type).to_owned();
        // Types whose MarshalJSON writes their zero as something other than an object.
        match unqualified.as_str() {
            "Time" | "MicroTime" | "RawExtension" | "JSON" | "FieldsV1" => return GoKind::Struct("null"),
            "Quantity" => return GoKind::Struct("\"0\""),
            "IntOrString" => return GoKind::Struct("0"),
            "Duration" => return GoKind::Struct("\"0s\""),
            _ => {}
        }
        match named.get(&unqualified) {
            Some(underlying) => go_type = underlying.clone(),
            None => return GoKind::Struct("{}"),
        }
    }
    GoKind::Struct("{}")
}

/// What the Go structs of `dir` say of their fields.
#[derive(Default)]
struct GoFields {
    /// (struct, proto field name) of the scalars that are not pointers and `omitempty`.
    omitted: Vec<(String, String)>,
    /// (struct, proto field name, JSON name) where the two names differ.
    renamed: Vec<(String, String, String)>,
    /// (struct, proto field name) of embedded structs, whose fields Go's JSON writes
    /// into the embedding object (`ProbeHandler` in `Probe`, `VolumeSource` in `Volume`).
    inlined: Vec<(String, String)>,
    /// By struct, the (JSON name, zero JSON) of the fields its Go value holds even when
    /// unset, an embedded struct's included.
    present: BTreeMap<String, Vec<(String, String)>>,
    /// By struct, the JSON names of its `omitempty` slices and maps, which Go leaves
    /// out when empty (`"labels": {}` is not written), an embedded struct's included.
    omit_empty: BTreeMap<String, Vec<String>>,
    /// By struct, each field's JSON name and Go type as `reflect` prints it once a
    /// pointer is followed (`[]v1.Container`, `v1.Protocol`, `int32`), as `encoding/json`
    /// names it in a type error; an embedded struct's included.
    types: BTreeMap<String, Vec<(String, String)>>,
    /// Types declared over a slice or map, as `reflect` prints them: name, underlying.
    composites: Vec<(String, String)>,
}

fn go_fields(dir: &Path, named: &BTreeMap<String, String>) -> GoFields {
    let mut fields = GoFields::default();
    // Embedded structs by embedding struct, with how many of its own fields come
    // before (Go's JSON writes the embedded fields there), folded in once every struct
    // is read.
    let mut embedded: Vec<(String, String, usize)> = Vec::new();
    for file in go_files(dir) {
        let text = fs::read_to_string(&file).unwrap_or_default();
        let (package, imports) = package_and_imports(&text);
        let mut current: Option<String> = None;
        for line in text.lines() {
            let mut words = line.split_whitespace();
            if let (Some("type"), Some(declared), Some(underlying)) = (words.next(), words.next(), words.next())
                && (underlying.starts_with("[]") || underlying.starts_with("map["))
            {
                fields.composites.push((
                    format!("{package}.{declared}"),
                    reflect_name(underlying, &package, &imports),
                ));
            }
            if let Some(rest) = line.strip_prefix("type ")
                && let Some(name) = rest.strip_suffix(" struct {")
            {
                current = Some(name.trim().to_owned());
                continue;
            }
            if line == "}" {
                current = None;
                continue;
            }
            let Some(name) = &current else { continue };
            let Some((declaration, tags)) = line.trim().split_once('`') else {
                continue;
            };
            let words: Vec<&str> = declaration.split_whitespace().collect();
            let (Some(json), Some(protobuf)) = (tag(tags, "json"), tag(tags, "protobuf")) else {
                continue;
            };
            let Some(proto_name) = protobuf.split(',').find_map(|p| p.strip_prefix("name=")) else {
                continue;
            };
            let go_type = match words.as_slice() {
                [_field, go_type] => *go_type,
                [embedded_type] if json.split(',').next().unwrap_or_default().is_empty() => {
                    fields.inlined.push((name.clone(), proto_name.to_owned()));
                    let before = fields.types.get(name).map_or(0, Vec::len);
                    embedded.push((name.clone(), embedded_type.to_string(), before));
                    continue;
                }
                // An embedded struct with a name of its own (`metav1.ObjectMeta` as
                // `metadata`) is a field like any other.
                [embedded_type] => *embedded_type,
                _ => continue,
            };
            let omitempty = json.split(',').skip(1).any(|o| o == "omitempty");
            let kind = go_kind(go_type, named);
            let json_name_here = json.split(',').next().unwrap_or_default();
            if !json_name_here.is_empty() && json_name_here != "-" {
                fields.types.entry(name.clone()).or_default().push((
                    json_name_here.to_owned(),
                    reflect_name(go_type.trim_start_matches('*'), &package, &imports),
                ));
            }
            if omitempty && matches!(kind, GoKind::Scalar(_)) {
                fields.omitted.push((name.clone(), proto_name.to_owned()));
            }
            let json_name = json.split(',').next().unwrap_or_default();
            if omitempty && matches!(kind, GoKind::Nilable) && !go_type.starts_with('*') && !json_name.is_empty() {
                fields
                    .omit_empty
                    .entry(name.clone())
                    .or_default()
                    .push(json_name.to_owned());
            }
            let zero = match kind {
                GoKind::Struct(zero) => Some(zero),
                GoKind::Scalar(zero) if !omitempty => Some(zero),
                GoKind::Nilable if !omitempty => Some("null"),
                _ => None,
            };
            if let Some(zero) = zero
                && !json_name.is_empty()
                && json_name != "-"
            {
                fields
                    .present
                    .entry(name.clone())
                    .or_default()
                    .push((json_name.to_owned(), zero.to_owned()));
            }
            if !json_name.is_empty() && json_name != "-" && json_name != proto_name {
                fields
                    .renamed
                    .push((name.clone(), proto_name.to_owned(), json_name.to_owned()));
            }
        }
    }
    for (embedding, embedded_type, before) in embedded {
        if embedded_type.starts_with('*') {
            continue;
        }
        if let Some(inner) = fields.present.get(&embedded_type).cloned() {
            fields.present.entry(embedding.clone()).or_default().extend(inner);
        }
        if let Some(inner) = fields.omit_empty.get(&embedded_type).cloned() {
            fields.omit_empty.entry(embedding.clone()).or_default().extend(inner);
        }
        if let Some(inner) = fields.types.get(&embedded_type).cloned() {
            let types = fields.types.entry(embedding).or_default();
            let at = before.min(types.len());
            types.splice(at..at, inner);
        }
    }
    fields
}

/// A Go file's package name and its imports' names (an import's alias, else the last
/// element of its path, which is its package's name in Kubernetes' tree).
fn package_and_imports(text: &str) -> (String, BTreeMap<String, String>) {
    let mut package = String::new();
    let mut imports = BTreeMap::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix("package ") {
            package = name.trim().to_owned();
            continue;
        }
        let spec = if line == "import (" {
            in_block = true;
            continue;
        } else if in_block && line == ")" {
            in_block = false;
            continue;
        } else if in_block {
            line
        } else if let Some(spec) = line.strip_prefix("import ") {
            spec
        } else {
            continue;
        };
        let mut parts = spec.split_whitespace();
        let (alias, path) = match (parts.next(), parts.next()) {
            (Some(alias), Some(path)) if path.starts_with('"') => (Some(alias), path),
            (Some(path), _) if path.starts_with('"') => (None, path),
            _ => continue,
        };
        let path = path.trim_matches('"');
        let last = path.rsplit('/').next().unwrap_or(path);
        let name = alias.unwrap_or(last);
        imports.insert(name.to_owned(), last.to_owned());
    }
    (package, imports)
}

/// Go's predeclared types, which `reflect` prints unqualified (`byte` as `uint8`).
const GO_PREDECLARED: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "uintptr", "rune", "byte",
];

/// How `reflect.Type.String` prints `go_type`, written in package `package` whose file
/// imports `imports`: named types qualified by their package's name.
fn reflect_name(go_type: &str, package: &str, imports: &BTreeMap<String, String>) -> String {
    if let Some(rest) = go_type.strip_prefix('*') {
        return format!("*{}", reflect_name(rest, package, imports));
    }
    if let Some(rest) = go_type.strip_prefix("[]") {
        return format!("[]{}", reflect_name(rest, package, imports));
    }
    if let Some(rest) = go_type.strip_prefix("map[") {
        let mut depth = 1;
        for (index, c) in rest.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        let (key, value) = (&rest[..index], &rest[index + 1..]);
                        return format!(
                            "map[{}]{}",
                            reflect_name(key, package, imports),
                            reflect_name(value, package, imports)
                        );
                    }
                }
                _ => {}
            }
        }
    }
    match go_type {
        "byte" => return "uint8".into(),
        "rune" => return "int32".into(),
        "interface{}" | "any" => return "interface {}".into(),
        predeclared if GO_PREDECLARED.contains(&predeclared) => return predeclared.into(),
        _ => {}
    }
    match go_type.split_once('.') {
        Some((alias, name)) => format!("{}.{name}", imports.get(alias).map_or(alias, String::as_str)),
        None => format!("{package}.{go_type}"),
    }
}

/// The value of one key of a Go struct tag (`json:"name,omitempty"`).
fn tag<'a>(tags: &'a str, key: &str) -> Option<&'a str> {
    let start = tags.find(&format!("{key}:\""))? + key.len() + 2;
    let end = tags[start..].find('"')?;
    Some(&tags[start..start + end])
}

/// The API group a package serves, from `+groupName=` in doc.go or `GroupName = "..."`.
fn group_name(dir: &Path) -> Option<String> {
    let doc = fs::read_to_string(dir.join("doc.go")).unwrap_or_default();
    if let Some(line) = doc.lines().find(|l| l.contains("+groupName=")) {
        return line.split("+groupName=").nth(1).map(|g| g.trim().to_owned());
    }
    for file in go_files(dir) {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for line in text.lines() {
            let line = line.trim();
            let line = line.strip_prefix("const ").unwrap_or(line);
            if line.starts_with("GroupName") && line.contains('=') {
                return line.split('"').nth(1).map(str::to_owned);
            }
        }
    }
    None
}

/// The facts by proto message that [`render`] writes.
struct Facts<'a> {
    omit_zero: &'a BTreeMap<String, Vec<String>>,
    omit_empty: &'a BTreeMap<String, Vec<String>>,
    present: &'a BTreeMap<String, Vec<(String, String)>>,
    types: &'a BTreeMap<String, Vec<(String, String)>>,
    composites: &'a BTreeMap<String, String>,
}

fn render(
    version: &str,
    facts: &Facts<'_>,
    renamed: &[(String, String, String)],
    inlined: &[(String, String)],
    groups: &[(String, String, String)],
) -> String {
    let mut text = format!(
        "//! Facts about Kubernetes' Go types that its `.proto` files do not carry, generated from\n\
         //! the Go source of Kubernetes {version} by `envtest/tools/protobuf-descriptors` (do not\n\
         //! edit; regenerate with the descriptors in `kubernetes.binpb`).\n\n\
         /// Fields whose zero value Go's JSON encoder leaves out (`omitempty`, not a pointer),\n\
         /// by proto message: go-to-protobuf writes them even when zero.\n\
         pub(crate) const OMIT_ZERO: &[(&str, &[&str])] = &[\n"
    );
    for (message, fields) in facts.omit_zero {
        let fields: Vec<String> = fields.iter().map(|f| format!("\"{f}\"")).collect();
        text.push_str(&format!("    (\"{message}\", &[{}]),\n", fields.join(", ")));
    }
    text.push_str(
        "];\n\n/// Slices and maps Go's JSON encoder leaves out when empty (`omitempty`), by proto\n\
         /// message, by JSON name.\n\
         pub(crate) const OMIT_EMPTY: &[(&str, &[&str])] = &[\n",
    );
    for (message, fields) in facts.omit_empty {
        let fields: Vec<String> = fields.iter().map(|f| format!("\"{f}\"")).collect();
        text.push_str(&format!("    (\"{message}\", &[{}]),\n", fields.join(", ")));
    }
    text.push_str(
        "];\n\n/// Fields the Go value of a type holds even when unset, by proto message: (JSON name,\n\
         /// zero JSON). A field that is not `omitempty` holds its zero (`\"\"`, `0`, `false`, null\n\
         /// for a nil pointer, slice or map); a struct held by value is always there, as `{}`\n\
         /// (holding its own such fields) or as its `MarshalJSON` writes its zero value.\n\
         pub(crate) const PRESENT_AT_ZERO: &[(&str, &[(&str, &str)])] = &[\n",
    );
    for (message, fields) in facts.present {
        let fields: Vec<String> = fields
            .iter()
            .map(|(name, zero)| format!("(\"{name}\", {zero:?})"))
            .collect();
        text.push_str(&format!("    (\"{message}\", &[{}]),\n", fields.join(", ")));
    }
    text.push_str(
        "];\n\n/// Each field's Go type as `reflect` prints it once a pointer is followed, by proto\n\
         /// message: (JSON name, type), as `encoding/json` names it in a type error.\n\
         pub(crate) const GO_TYPES: &[(&str, &[(&str, &str)])] = &[\n",
    );
    for (message, fields) in facts.types {
        let fields: Vec<String> = fields
            .iter()
            .map(|(name, go_type)| format!("(\"{name}\", {go_type:?})"))
            .collect();
        text.push_str(&format!("    (\"{message}\", &[{}]),\n", fields.join(", ")));
    }
    text.push_str(
        "];\n\n/// Types declared over a slice or map, as `reflect` prints them: (name, underlying).\n\
         pub(crate) const GO_COMPOSITES: &[(&str, &str)] = &[\n",
    );
    for (name, underlying) in facts.composites {
        text.push_str(&format!("    ({name:?}, {underlying:?}),\n"));
    }
    text.push_str(
        "];\n\n/// Fields whose JSON name is not their proto name: (message, proto name, JSON name).\n\
         pub(crate) const RENAMED: &[(&str, &str, &str)] = &[\n",
    );
    for (message, field, json) in renamed {
        text.push_str(&format!("    (\"{message}\", \"{field}\", \"{json}\"),\n"));
    }
    text.push_str(
        "];\n\n/// Embedded Go structs, whose fields JSON writes into the embedding object:\n\
         /// (message, proto field).\n\
         pub(crate) const INLINED: &[(&str, &str)] = &[\n",
    );
    for (message, field) in inlined {
        text.push_str(&format!("    (\"{message}\", \"{field}\"),\n"));
    }
    text.push_str(
        "];\n\n/// The proto package of each API group version (`\"\"` is the core group).\n\
         pub(crate) const GROUP_PACKAGES: &[(&str, &str, &str)] = &[\n",
    );
    for (group, version, package) in groups {
        text.push_str(&format!("    (\"{group}\", \"{version}\", \"{package}\"),\n"));
    }
    text.push_str("];\n");
    text
}
