//! No crate of the workspace has an import cycle among its top-level modules, and the
//! layering that says so holds where it was promised: envtest's `core` imports nothing
//! of the crate, and the schema and validation crates import nothing of the server. Run with
//! `cargo test --test module_graph`.
//!
//! A crate's graph is read from its source: every `crate::` path in `src/**/*.rs` (in
//! `use` declarations, `use crate::{a, b::c}` groups and inline paths) is an edge from
//! the top-level module of its file to the module it names. Test code counts too, and so
//! does code behind a cargo feature. The modules of each folder (`src/a/b.rs` and
//! `src/a/c.rs`, siblings under `a`) are checked the same way, their edges read from
//! `crate::a::c` paths and from the `super::` paths that lead from a file up to its
//! folder. A `super::` never reaches the crate root, which the same check asserts. A
//! cycle is reported as its edges, each with the file and line that makes it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Edges between top-level modules, each with one place that makes it.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The server's crate and its schema and validation crates, which must never import
/// the server.
const SERVER: &str = "envtest";
const SCHEMA: &str = "envtest/schema";
const VALIDATION: &str = "envtest/validation";

#[test]
fn no_crate_has_an_import_cycle() {
    let mut failures = Vec::new();
    for member in members() {
        let problems = check_crate(&root().join(&member));
        if !problems.is_empty() {
            failures.push(format!("{member}:\n{}", problems.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_server_and_schema_crates_are_checked() {
    let members = members();
    for checked in [SERVER, SCHEMA, VALIDATION] {
        assert!(members.iter().any(|m| m == checked), "{checked} is a workspace member");
    }
    let server = graph(&root().join(SERVER).join("src"));
    assert!(server.len() > 10, "too few modules found in {SERVER}");
}

#[test]
fn envtest_core_depends_on_no_other_module() {
    let graph = graph(&root().join(SERVER).join("src"));
    let core = graph.get("core").expect("a `core` module");
    assert!(core.is_empty(), "core imports {core:?}");
}

#[test]
fn the_schema_crate_never_imports_the_server() {
    let schema = root().join(SCHEMA);
    assert_imports_no_server(&schema, &["_schema"]);
    // Nor was a server module copied in: the two crates share no top-level module name.
    let server: BTreeSet<String> = graph(&root().join(SERVER).join("src")).into_keys().collect();
    let schema: BTreeSet<String> = graph(&schema.join("src")).into_keys().collect();
    let shared: Vec<&String> = server.intersection(&schema).collect();
    assert!(shared.is_empty(), "server modules in the schema crate: {shared:?}");
}

#[test]
fn the_validation_crate_never_imports_the_server() {
    assert_imports_no_server(&root().join(VALIDATION), &["_schema", "_validation"]);
}

/// The crate at `dir` neither depends on nor names the server crate; it may name the
/// envtest crates whose names continue with one of `allowed` (`_schema`).
fn assert_imports_no_server(dir: &Path, allowed: &[&str]) {
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).expect("the crate's Cargo.toml");
    let server_dependency = manifest.lines().find(|line| {
        let line = line.trim_start();
        line.starts_with("wheelhouse-envtest")
            && !allowed
                .iter()
                .any(|a| line.starts_with(&format!("wheelhouse-envtest{}", a.replace('_', "-"))))
    });
    assert_eq!(server_dependency, None, "{} depends on the server", display(dir));
    for file in rust_files(&dir.join("src")) {
        let text = fs::read_to_string(&file).expect("readable source");
        for (index, line) in text.lines().enumerate() {
            let mentions_server = line
                .split("wheelhouse_envtest")
                .skip(1)
                .any(|rest| !allowed.iter().any(|a| rest.starts_with(a)));
            assert!(
                !mentions_server,
                "{}:{} names the server crate",
                display(&file),
                index + 1
            );
        }
    }
}

#[test]
fn cycles_are_found() {
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph.entry(from.into()).or_default().insert(to.into(), String::new());
    }
    let cycle = find_cycle(&graph).expect("a cycle");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4);
    graph.get_mut("c").expect("c").remove("a");
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn nested_groups_and_super_paths_are_read() {
    let text = "use super::super::{cluster::{A, B}, fields::name_of};\nuse super::x::Y;\nlet n = crate::a::b::c();\n";
    let two_up: Vec<Vec<String>> = full_paths(text, "super::super::").into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        two_up,
        [vec!["cluster", "A"], vec!["cluster", "B"], vec!["fields", "name_of"]]
    );
    let one_up: Vec<Vec<String>> = full_paths(text, "super::").into_iter().map(|(p, _)| p).collect();
    assert_eq!(one_up, [vec!["x", "Y"]], "a longer run of super:: is not a shorter one");
    let crate_paths: Vec<Vec<String>> = full_paths(text, "crate::").into_iter().map(|(p, _)| p).collect();
    assert_eq!(crate_paths, [vec!["a", "b", "c"]]);
}

#[test]
fn grouped_and_inline_paths_are_read() {
    let text = "use crate::{core::{A, B}, store};\nlet x = crate::rules::now(); // crate::ignored\n";
    let names: Vec<String> = crate_paths(text).into_iter().map(|(name, _)| name).collect();
    assert_eq!(names, ["core", "store", "rules"]);
}

/// The workspace's root directory (this package's).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path relative to the workspace root, for messages.
fn display(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// The workspace's members with a `src/` (the facade, `.`, first), from `Cargo.toml`.
fn members() -> Vec<String> {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).expect("the workspace Cargo.toml");
    let list = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("a `members = [...]` list");
    let mut members = vec![".".to_owned()];
    members.extend(
        list.split(',')
            .map(|m| m.trim().trim_matches('"').to_owned())
            .filter(|m| !m.is_empty()),
    );
    members.retain(|m| root().join(m).join("src").is_dir());
    members
}

/// What is wrong with the crate in `dir`: an import cycle among its top-level modules
/// (each edge with its file and line), a `super::` that reaches the crate root, and
/// `mod.rs` module files (the workspace names a module file for its module).
fn check_crate(dir: &Path) -> Vec<String> {
    let src = dir.join("src");
    let mut problems = Vec::new();
    let graph = graph(&src);
    if let Some(cycle) = find_cycle(&graph) {
        problems.push(format!(
            "import cycle among top-level modules:\n{}",
            describe(&graph, &cycle)
        ));
    }
    for folder in folders(&src) {
        let graph = folder_graph(&src, &folder);
        if let Some(cycle) = find_cycle(&graph) {
            let name = folder.strip_prefix(&src).expect("under src").display().to_string();
            problems.push(format!(
                "import cycle among the modules of {name}/:\n{}",
                describe(&graph, &cycle)
            ));
        }
    }
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).expect("under src");
        // src/a.rs and src/a/mod.rs are module `a`; src/a/b.rs is `a::b`, one deeper.
        let mut depth = relative.components().count();
        if relative.ends_with("mod.rs") {
            depth -= 1;
            problems.push(format!(
                "{} is a mod.rs: name the module file for its module",
                display(&file)
            ));
        }
        let escape = format!("use {}", "super::".repeat(depth));
        let text = fs::read_to_string(&file).expect("readable source");
        // Indented `use`s are in inline modules, one level deeper than the file.
        if let Some(index) = text.lines().position(|line| line.starts_with(&escape)) {
            problems.push(format!(
                "{}:{} reaches the crate root through super::",
                display(&file),
                index + 1
            ));
        }
    }
    problems
}

/// A cycle's edges, each with the file and line that makes it.
fn describe(graph: &Graph, cycle: &[String]) -> String {
    let steps: Vec<String> = cycle
        .windows(2)
        .map(|pair| format!("  {} -> {} ({})", pair[0], pair[1], graph[&pair[0]][&pair[1]]))
        .collect();
    steps.join("\n")
}

/// Every folder of modules under `src` (`src/a/`, `src/a/b/`...), not `src` itself.
fn folders(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            found.push(path.clone());
            found.extend(folders(&path));
        }
    }
    found.sort();
    found
}

/// The graph among the modules of one folder (siblings, such as `a::b` and `a::c` for
/// `src/a/`): an edge wherever a file of one names another as `crate::a::c` or through
/// as many `super::` as lead from the file to the folder. The folder's own module file
/// (`src/a.rs`) is their parent, not a sibling.
fn folder_graph(src: &Path, folder: &Path) -> Graph {
    let prefix: Vec<String> = folder
        .strip_prefix(src)
        .expect("under src")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let mut graph = Graph::new();
    for file in rust_files(folder) {
        let relative = file.strip_prefix(folder).expect("under the folder");
        let Some(first) = relative.components().next() else {
            continue;
        };
        let first = first.as_os_str().to_string_lossy();
        let module = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
        if module == "mod" {
            continue;
        }
        // How many `super::` lead from this file's module up to the folder's module.
        let mut depth = relative.components().count();
        if relative.ends_with("mod.rs") {
            depth -= 1;
        }
        let text = fs::read_to_string(&file).expect("readable source");
        let edges = graph.entry(module.clone()).or_default();
        let crate_targets = full_paths(&text, "crate::")
            .into_iter()
            .filter(|(path, _)| path.len() > prefix.len() && path[..prefix.len()] == prefix[..])
            .map(|(path, line)| (path[prefix.len()].clone(), line));
        let super_targets = full_paths(&text, &"super::".repeat(depth))
            .into_iter()
            .filter_map(|(path, line)| path.first().cloned().map(|name| (name, line)));
        for (target, line) in crate_targets.chain(super_targets) {
            if target != module && target != "super" {
                edges
                    .entry(target)
                    .or_insert_with(|| format!("{}:{line}", display(&file)));
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for edges in graph.values_mut() {
        edges.retain(|to, _| modules.contains(to));
    }
    graph
}

/// The paths after every `start` (`crate::`, `super::super::`) in `text`, comments
/// skipped, as their segments (`a::{b, c::d}` is `[a, b]` and `[a, c, d]`), with
/// their lines. A `start` preceded by a name or by another `super::` is not one.
fn full_paths(text: &str, start: &str) -> Vec<(Vec<String>, usize)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut from = 0;
        while let Some(at) = code[from..].find(start).map(|at| from + at) {
            from = at + start.len();
            let rest = &code[from..];
            let preceded = code[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':');
            if preceded || rest.starts_with("super::") {
                continue;
            }
            for path in expand(rest) {
                found.push((path, index + 1));
            }
        }
    }
    found
}

/// The paths a `use` tree starting at `text` names: `a::b::{c, d::e}` is `[a, b, c]`
/// and `[a, b, d, e]`.
fn expand(text: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut paths = Vec::new();
            for item in split_group(group) {
                for tail in expand(item.trim()) {
                    let mut path = segments.clone();
                    path.extend(tail);
                    paths.push(path);
                }
            }
            return paths;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            return if segments.is_empty() {
                Vec::new()
            } else {
                vec![segments]
            };
        }
        rest = &rest[name.len()..];
        segments.push(name);
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => return vec![segments],
        }
    }
}

/// The items of a `{...}` group (the text after its `{`), split at its top-level commas.
fn split_group(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// The top-level module graph of the crate whose sources are in `src`.
fn graph(src: &Path) -> Graph {
    let reexports = lib_reexports(&fs::read_to_string(src.join("lib.rs")).unwrap_or_default());
    let mut graph = Graph::new();
    for file in rust_files(src) {
        let relative = file.strip_prefix(src).expect("under src");
        let Some(first) = relative.components().next() else {
            continue;
        };
        let first = first.as_os_str().to_string_lossy();
        let module = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
        if module == "lib" || module == "main" || module == "bin" {
            continue;
        }
        let text = fs::read_to_string(&file).expect("readable source");
        let edges = graph.entry(module.clone()).or_default();
        for (name, line) in crate_paths(&text) {
            let target = reexports.get(&name).cloned().unwrap_or(name);
            if target != module {
                edges
                    .entry(target)
                    .or_insert_with(|| format!("{}:{line}", display(&file)));
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for edges in graph.values_mut() {
        edges.retain(|to, _| modules.contains(to));
    }
    graph
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// `pub use crate::module::Name` in lib.rs: `crate::Name` elsewhere means `module`.
fn lib_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.split(';') {
        let Some((_, rest)) = statement.split_once("pub use crate::") else {
            continue;
        };
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim();
            if !item.is_empty() {
                names.insert(item.to_owned(), module.to_owned());
            }
        }
    }
    names
}

/// The first segment after every `crate::` in `text` (comments skipped), with its line.
fn crate_paths(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                found.extend(group_heads(group).into_iter().map(|name| (name, index + 1)));
            } else {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    found.push((name, index + 1));
                }
            }
        }
    }
    found
}

/// The first segment of each item of a `{a::b, c}` group (the text after its `{`).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_item_start = true;
    let mut current = String::new();
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_item_start = true,
            c if at_item_start && depth == 0 && (c.is_alphanumeric() || c == '_') => current.push(c),
            _ if at_item_start && !current.is_empty() => {
                heads.push(std::mem::take(&mut current));
                at_item_start = false;
            }
            _ => {}
        }
    }
    if !current.is_empty() {
        heads.push(current);
    }
    heads
}

/// A cycle as its modules in order, the first repeated at the end; None if acyclic.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Visiting,
        Done,
    }
    fn visit(
        node: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(node.to_owned(), Mark::Visiting);
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            match marks.get(next) {
                Some(Mark::Visiting) => {
                    let start = path.iter().position(|n| n == next).expect("on the path");
                    let mut cycle = path[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(Mark::Done) => {}
                None => {
                    if let Some(cycle) = visit(next, graph, marks, path) {
                        return Some(cycle);
                    }
                }
            }
        }
        path.pop();
        marks.insert(node.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if !marks.contains_key(node)
            && let Some(cycle) = visit(node, graph, &mut marks, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}
