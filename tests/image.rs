//! The image recipes in `deploy/` can build, checked without a container engine: what
//! each Dockerfile copies is what its documented `cargo build` produces, from an example
//! the workspace has; `.dockerignore` keeps `target/` out of the build context but lets
//! that binary in; both images run as the numeric non-root user `operator.yaml` expects.

use std::path::Path;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The uid and gid the images run as, and the Deployment's `runAsUser`.
const NON_ROOT: u32 = 65532;

fn read(path: &str) -> String {
    let path = format!("{ROOT}/{path}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// One instruction of a Dockerfile: its keyword (upper case) and the rest.
#[derive(Debug)]
struct Instruction {
    keyword: String,
    arguments: String,
}

/// A Dockerfile's instructions (continuation lines joined, comments dropped) and its
/// comment lines.
struct Dockerfile {
    instructions: Vec<Instruction>,
    comments: Vec<String>,
}

impl Dockerfile {
    fn parse(path: &str) -> Self {
        let text = read(path);
        let mut instructions = Vec::new();
        let mut comments = Vec::new();
        let mut pending = String::new();
        for line in text.lines() {
            let trimmed = line.trim();
            if let Some(comment) = trimmed.strip_prefix('#') {
                comments.push(comment.trim().to_owned());
                continue;
            }
            if trimmed.is_empty() && pending.is_empty() {
                continue;
            }
            if let Some(continued) = trimmed.strip_suffix('\\') {
                pending.push_str(continued);
                pending.push(' ');
                continue;
            }
            pending.push_str(trimmed);
            let (keyword, arguments) = pending.split_once(' ').unwrap_or((&pending, ""));
            instructions.push(Instruction {
                keyword: keyword.to_uppercase(),
                arguments: arguments.trim().to_owned(),
            });
            pending.clear();
        }
        assert!(pending.is_empty(), "{path} ends in a continued line");
        Self { instructions, comments }
    }

    /// The instructions of the last stage: what the image is.
    fn final_stage(&self) -> &[Instruction] {
        let start = self
            .instructions
            .iter()
            .rposition(|i| i.keyword == "FROM")
            .expect("a FROM");
        &self.instructions[start..]
    }

    fn all(&self, keyword: &str) -> Vec<&str> {
        self.instructions
            .iter()
            .filter(|i| i.keyword == keyword)
            .map(|i| i.arguments.as_str())
            .collect()
    }
}

fn final_argument<'a>(stage: &'a [Instruction], keyword: &str) -> &'a str {
    let found: Vec<&Instruction> = stage.iter().filter(|i| i.keyword == keyword).collect();
    assert_eq!(found.len(), 1, "one {keyword} in the final stage: {stage:?}");
    &found[0].arguments
}

/// The numeric user and group of `USER uid:gid`.
fn numeric_user(user: &str) -> (u32, u32) {
    let (uid, gid) = user
        .split_once(':')
        .unwrap_or_else(|| panic!("USER {user} names no group"));
    let number = |id: &str| {
        id.parse::<u32>()
            .unwrap_or_else(|_| panic!("USER {user} is not numeric"))
    };
    (number(uid), number(gid))
}

/// What `cargo build` with these arguments produces: `target/[<triple>/]<profile>/examples/<name>`,
/// and the example's name.
fn cargo_output(command: &str) -> (String, String) {
    let words: Vec<&str> = command.split_whitespace().collect();
    let after = |flag: &str| {
        words
            .iter()
            .position(|w| *w == flag)
            .and_then(|i| words.get(i + 1))
            .map(|w| (*w).to_owned())
    };
    let example = after("--example").unwrap_or_else(|| panic!("no --example in {command:?}"));
    let profile = if words.contains(&"--release") {
        "release"
    } else {
        "debug"
    };
    let target = after("--target").map_or_else(String::new, |triple| format!("{triple}/"));
    (format!("target/{target}{profile}/examples/{example}"), example)
}

/// The examples the examples crate declares (`[[example]]` name = ...), with their paths.
fn declared_examples() -> Vec<(String, String)> {
    let manifest = read("examples/Cargo.toml");
    let mut examples = Vec::new();
    for section in manifest.split("[[example]]").skip(1) {
        let value = |key: &str| {
            section
                .lines()
                .take_while(|line| !line.starts_with('['))
                .find_map(|line| {
                    let (k, v) = line.split_once('=')?;
                    (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
                })
        };
        if let (Some(name), Some(path)) = (value("name"), value("path")) {
            examples.push((name, path));
        }
    }
    examples
}

fn assert_example_exists(name: &str) {
    let examples = declared_examples();
    let (_, path) = examples
        .iter()
        .find(|(declared, _)| declared == name)
        .unwrap_or_else(|| panic!("no example {name} in examples/Cargo.toml: {examples:?}"));
    assert!(
        Path::new(&format!("{ROOT}/examples/{path}")).is_file(),
        "example {name}'s source {path} is missing"
    );
}

/// Both images run the binary as `/webapp-operator`, as user and group 65532.
fn assert_runs_as_non_root(dockerfile: &Dockerfile, path: &str) {
    let stage = dockerfile.final_stage();
    assert_eq!(
        numeric_user(final_argument(stage, "USER")),
        (NON_ROOT, NON_ROOT),
        "{path}"
    );
    assert_eq!(final_argument(stage, "ENTRYPOINT"), r#"["/webapp-operator"]"#, "{path}");
}

fn operator_run_as_user() -> u64 {
    let documents: Vec<Value> = serde_saphyr::from_multiple(&read("deploy/operator.yaml")).expect("operator.yaml");
    let deployment = documents
        .iter()
        .find(|d| d["kind"] == "Deployment")
        .expect("the Deployment");
    deployment["spec"]["template"]["spec"]["securityContext"]["runAsUser"]
        .as_u64()
        .expect("runAsUser")
}

#[test]
fn the_source_build_copies_what_it_built() {
    let dockerfile = Dockerfile::parse("deploy/Dockerfile");
    let build = dockerfile
        .all("RUN")
        .into_iter()
        .find(|run| run.contains("cargo build"))
        .expect("a RUN cargo build");
    let (binary, example) = cargo_output(build);
    assert_example_exists(&example);
    assert!(
        build.contains(&format!("cp {binary} /webapp-operator")),
        "{build:?} copies what it built ({binary})"
    );
    let final_copy = final_argument(dockerfile.final_stage(), "COPY");
    assert!(
        final_copy.starts_with("--from=") && final_copy.ends_with(" /webapp-operator"),
        "{final_copy}"
    );
    assert_runs_as_non_root(&dockerfile, "deploy/Dockerfile");
}

#[test]
fn the_prebuilt_image_copies_what_the_documented_build_produces() {
    let dockerfile = Dockerfile::parse("deploy/Dockerfile.prebuilt");
    let documented = dockerfile
        .comments
        .iter()
        .find(|line| line.contains("cargo build"))
        .expect("the build command, in a comment");
    let (binary, example) = cargo_output(documented);
    assert_example_exists(&example);
    let stage = dockerfile.final_stage();
    let base = final_argument(stage, "FROM");
    assert!(
        base == "scratch" || base.starts_with("gcr.io/distroless/"),
        "FROM {base}"
    );
    if base == "scratch" {
        assert!(
            documented.contains("+crt-static") || documented.contains("-musl"),
            "FROM scratch needs a static binary: {documented}"
        );
    }
    assert_eq!(
        final_argument(stage, "COPY"),
        format!("{binary} /webapp-operator"),
        "the Dockerfile copies what `{documented}` produces"
    );
    assert_runs_as_non_root(&dockerfile, "deploy/Dockerfile.prebuilt");

    // deploy/README.md documents the same command (its lines may be continued).
    let readme = read("deploy/README.md").replace("\\\n", " ");
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let command = &documented[documented.find("RUSTFLAGS").unwrap_or(0)..];
    assert!(
        words(&readme).contains(&words(command)),
        "deploy/README.md documents {command:?}"
    );
    assert!(readme.contains("Dockerfile.prebuilt") && readme.contains("`Dockerfile`"));
}

#[test]
fn the_build_context_leaves_target_out_but_the_prebuilt_binary_in() {
    let patterns: Vec<String> = read(".dockerignore")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect();
    let excludes = |path: &str| {
        patterns
            .iter()
            .any(|p| p.trim_start_matches('/').trim_end_matches('/') == path)
    };
    assert!(excludes("target"), "{patterns:?}");
    let prebuilt = Dockerfile::parse("deploy/Dockerfile.prebuilt");
    let copied = final_argument(prebuilt.final_stage(), "COPY")
        .split_whitespace()
        .next()
        .expect("a source")
        .to_owned();
    assert!(
        patterns.contains(&format!("!{copied}")),
        "{copied} is let back into the context: {patterns:?}"
    );
    // What the source build needs stays in.
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "src",
        "examples",
        "manager",
        "cache",
        "controller",
        "benches",
        "tests",
    ] {
        assert!(!excludes(needed), "{needed} is needed by deploy/Dockerfile");
    }
}

#[test]
fn the_images_user_is_the_deployments() {
    assert_eq!(operator_run_as_user(), u64::from(NON_ROOT));
}
