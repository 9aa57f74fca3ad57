//! The scaffold end to end: a project generated with every generator (a kind with a
//! reconciler, its webhooks, a second version with conversions, a kind on the phase
//! scheduler) has every file it promises, formatted, and loses nothing when the
//! generators run again; and that it builds, passes its own tests on the embedded API
//! server, `clippy -D warnings` and `rustfmt --check` against this checkout (minutes of
//! compiling, on the workspace's target directory so the dependencies are shared).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod support;

use cargo_wheelhouse::files::Outcome;
use cargo_wheelhouse::{CreatePhases, CreateWebhook, Init};
use support::{api, cargo_wheelhouse, checkout, fresh};

/// Runs every generator, as a newcomer growing a project would; returns every outcome.
fn generate(dir: &Path) -> Vec<Outcome> {
    let mut outcomes = cargo_wheelhouse::init(&Init {
        dir: dir.to_owned(),
        name: Some("shop-operator".into()),
        domain: None,
        wheelhouse_path: Some(checkout().display().to_string()),
        fleet: None,
    })
    .expect("init");
    outcomes.extend(cargo_wheelhouse::create_api(&api(dir, "shop", "v1", "Widget")).expect("create api"));
    outcomes.extend(
        cargo_wheelhouse::create_webhook(&CreateWebhook {
            dir: dir.to_owned(),
            version: "v1".into(),
            kind: "Widget".into(),
            defaulting: true,
            validation: true,
            ..CreateWebhook::default()
        })
        .expect("create webhook"),
    );
    outcomes.extend(cargo_wheelhouse::create_api(&api(dir, "shop", "v2", "Widget")).expect("a second version"));
    outcomes.extend(
        cargo_wheelhouse::create_webhook(&CreateWebhook {
            dir: dir.to_owned(),
            version: "v1".into(),
            kind: "Widget".into(),
            conversion: true,
            spokes: vec!["v2".into()],
            ..CreateWebhook::default()
        })
        .expect("create webhook --conversion"),
    );
    outcomes.extend(
        cargo_wheelhouse::create_phases(&CreatePhases {
            api: api(dir, "shop", "v1alpha1", "Rollout"),
            phases: vec!["Pending".into(), "Rolling".into(), "Done".into()],
        })
        .expect("create phases"),
    );
    outcomes
}

/// Every file under `dir` (but `target/`), by relative path.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).expect("readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    pending.push(path);
                }
            } else {
                let relative = path.strip_prefix(dir).expect("under dir").display().to_string();
                files.insert(relative, std::fs::read_to_string(&path).expect("text"));
            }
        }
    }
    files
}

fn edit(dir: &Path, file: &str, change: impl FnOnce(&str) -> String) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("the file exists");
    std::fs::write(&path, change(&text)).expect("writable");
}

#[test]
fn scaffold_generating_twice_loses_nothing_the_user_changed() {
    let dir = fresh("scaffold-twice");
    generate(&dir);
    // The user's changes: a generated file, a file they own, a marker file.
    edit(&dir, "src/controllers/widget.rs", |t| {
        format!("{t}\n// the user's note\n")
    });
    edit(&dir, "src/main.rs", |t| {
        t.replace("manager.run().await?;", "manager.run().await?; // mine")
    });
    edit(&dir, "src/api/widget/v1.rs", |t| {
        t.replace(
            "pub size: Option<i32>,",
            "pub size: Option<i32>,\n    /// Mine.\n    #[serde(default)]\n    pub colour: String,",
        )
    });
    let before = snapshot(&dir);

    let again = generate(&dir);
    let after = snapshot(&dir);
    assert_eq!(before, after, "a second run changed files");
    let written: Vec<&Outcome> = again
        .iter()
        .filter(|o| matches!(o, Outcome::Created(_) | Outcome::Updated(_) | Outcome::Inserted(..)))
        .collect();
    assert!(written.is_empty(), "a second run wrote {written:?}");
    for kept in ["src/controllers/widget.rs", "src/main.rs", "src/api/widget/v1.rs"] {
        assert!(
            again.contains(&Outcome::Kept(kept.into())),
            "{kept} is reported kept: {again:?}"
        );
    }

    // A marker the user removed: the line is reported for them to add, not lost.
    edit(&dir, "src/api.rs", |t| {
        t.replace("    // +wheelhouse:scaffold:crds\n", "")
    });
    let outcomes = cargo_wheelhouse::create_api(&api(&dir, "shop", "v1", "Gadget")).expect("create api");
    assert!(
        outcomes.contains(&Outcome::Missing("src/api.rs".into(), "gadget::crd_for,".into())),
        "{outcomes:?}"
    );
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn scaffold_refuses_what_kubernetes_or_the_project_would() {
    let dir = fresh("scaffold-refusals");
    let no_project = cargo_wheelhouse::create_api(&api(&dir, "shop", "v1", "Widget"));
    assert!(no_project.is_err_and(|e| e.to_string().contains("cargo wheelhouse init")));
    cargo_wheelhouse::init(&Init {
        dir: dir.clone(),
        name: Some("shop-operator".into()),
        ..Init::default()
    })
    .expect("init");
    for (request, says) in [
        (api(&dir, "shop", "1", "Widget"), "--version"),
        (api(&dir, "shop", "v1", "widget"), "--kind"),
        (api(&dir, "Shop", "v1", "Widget"), "lower-case"),
    ] {
        let error = cargo_wheelhouse::create_api(&request).expect_err("refused");
        assert!(error.to_string().contains(says), "{error}");
    }
    let webhook = cargo_wheelhouse::create_webhook(&CreateWebhook {
        dir: dir.clone(),
        version: "v1".into(),
        kind: "Widget".into(),
        validation: true,
        ..CreateWebhook::default()
    });
    assert!(webhook.is_err_and(|e| e.to_string().contains("create api")));
    cargo_wheelhouse::create_api(&api(&dir, "shop", "v1", "Widget")).expect("create api");
    let one_version = cargo_wheelhouse::create_webhook(&CreateWebhook {
        dir: dir.clone(),
        version: "v1".into(),
        kind: "Widget".into(),
        conversion: true,
        ..CreateWebhook::default()
    });
    assert!(one_version.is_err_and(|e| e.to_string().contains("one version")));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// Runs cargo in `dir` with the workspace's target directory (its dependencies are
/// built there already) and lock file, offline; fails the test with cargo's output.
/// `ci` sets `CI=true` for it, as the project's own CI runs; otherwise `CI` is removed,
/// as on a newcomer's machine (the test suite may itself run under CI).
fn cargo(dir: &Path, ci: bool, args: &[&str]) {
    let started = Instant::now();
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("tmp is in the target directory");
    // Offline: everything the project needs is in the workspace's lock file, and
    // fetched already.
    let (subcommand, rest) = args.split_first().expect("a cargo subcommand");
    let mut command = Command::new(env!("CARGO"));
    command
        .arg(subcommand)
        .arg("--offline")
        .args(rest)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target);
    if ci {
        command.env("CI", "true");
    } else {
        command.env_remove("CI");
    }
    let output = command.output().expect("cargo runs");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "cargo {args:?} failed:\n{report}");
    eprintln!("cargo {} took {:.1} s", args.join(" "), started.elapsed().as_secs_f64());
}

/// Every `.rs` file under `dir` (but `target/`), by relative path.
fn rust_files(dir: &Path) -> Vec<String> {
    snapshot(dir)
        .into_keys()
        .filter(|path| Path::new(path).extension().is_some_and(|ext| ext == "rs"))
        .collect()
}

/// What a newcomer gets, checked without building it (the build is
/// `scaffold_project_passes_its_tests_clippy_and_rustfmt`): every
/// file the generators promise, the dependency on this checkout by path, CI's script
/// executable, every module declared where the generators put its file, and every Rust
/// file as `rustfmt --check` wants it.
#[test]
fn scaffold_generates_every_promised_file_formatted() {
    let dir = fresh("scaffold-files");
    generate(&dir);
    let files = snapshot(&dir);
    for promised in [
        "Cargo.toml",
        "PROJECT",
        "README.md",
        "rustfmt.toml",
        ".ci/run",
        "deploy/operator.yaml",
        "deploy/rbac.yaml",
        "deploy/Dockerfile.prebuilt",
        "src/main.rs",
        "src/deploy.rs",
        "src/api/widget/v1.rs",
        "src/api/widget/v2.rs",
        "src/api/widget/conversion.rs",
        "src/controllers/widget.rs",
        "src/webhooks/widget.rs",
        "src/api/rollout/v1alpha1.rs",
        "src/controllers/rollout.rs",
        "src/controllers/rollout/pending.rs",
        "src/controllers/rollout/rolling.rs",
        "src/controllers/rollout/done.rs",
        "tests/deploy.rs",
        "tests/widget.rs",
        "tests/widget_webhooks.rs",
        "tests/widget_v2_conversion.rs",
        "tests/rollout.rs",
    ] {
        assert!(
            files.contains_key(promised),
            "{promised} is generated: {:?}",
            files.keys()
        );
    }
    let manifest = &files["Cargo.toml"];
    assert!(
        manifest.contains(&format!("wheelhouse = {{ path = \"{}\" }}", checkout().display())),
        "the project depends on the checkout by path:\n{manifest}"
    );
    assert!(manifest.contains("[workspace]"), "a workspace of its own:\n{manifest}");
    let readme = &files["README.md"];
    assert!(
        readme.contains("cargo test") && readme.contains("cargo run"),
        "{readme}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(dir.join(".ci/run"))
            .expect(".ci/run")
            .permissions()
            .mode();
        assert_ne!(mode & 0o111, 0, ".ci/run is executable");
    }

    // The module tree: each `mod x;` of `src/a.rs` has its `src/a/x.rs` (or `src/x.rs`
    // from the crate's root), so the crate's modules are all there before it is built.
    for (path, text) in files.iter().filter(|(p, _)| p.starts_with("src/")) {
        let parent = match path.as_str() {
            "src/lib.rs" | "src/main.rs" => "src".to_owned(),
            other => other.trim_end_matches(".rs").to_owned(),
        };
        for line in text.lines().map(str::trim) {
            let Some(rest) = line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")) else {
                continue;
            };
            let Some(module) = rest.strip_suffix(';') else {
                continue; // an inline module
            };
            let file = format!("{parent}/{module}.rs");
            assert!(files.contains_key(&file), "{path} declares `{line}`: {file} is missing");
        }
    }

    // Formatted as the project's own `cargo fmt -- --check` wants, without a build.
    let output = Command::new("rustfmt")
        .args(["--check", "--edition", "2024", "--config-path", "rustfmt.toml"])
        .args(rust_files(&dir))
        .current_dir(&dir)
        .output()
        .expect("rustfmt runs (rustup component add rustfmt)");
    assert!(
        output.status.success(),
        "the generated code is not formatted:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// Builds the generated project against this checkout and runs its own CI (tests on the
/// embedded API server, clippy, rustfmt), as a newcomer's first `cargo test` would. It
/// is the slowest test of the workspace (several minutes of compiling on two cores: the
/// generated project is a workspace of its own, so wheelhouse's crates are built again
/// for it), and the one that shows the scaffold's promise holds.
#[test]
fn scaffold_project_passes_its_tests_clippy_and_rustfmt() {
    let dir = fresh("scaffold-project");
    generate(&dir);
    std::fs::copy(checkout().join("Cargo.lock"), dir.join("Cargo.lock")).expect("the workspace's lock file");
    // A newcomer's first `cargo test` writes deploy/crd.yaml and deploy/webhook.yaml
    // from the code; under CI afterwards nothing is left to rewrite.
    cargo(&dir, false, &["test"]);
    cargo(&dir, true, &["test", "--test", "deploy"]);
    cargo(&dir, true, &["clippy", "--all-targets", "--", "-D", "warnings"]);
    let rustfmt = Command::new(env!("CARGO"))
        .args(["fmt", "--", "--check"])
        .current_dir(&dir)
        .output()
        .expect("cargo fmt runs");
    assert!(
        rustfmt.status.success(),
        "the generated code is not formatted:\n{}",
        String::from_utf8_lossy(&rustfmt.stdout)
    );
    assert!(
        std::fs::read_to_string(dir.join("deploy/crd.yaml"))
            .is_ok_and(|crds| crds.contains("widgets.shop.example.com")),
        "the project's deploy test wrote its CRDs"
    );

    // The same project made a fleet controller's: its reconcilers' `add` builds them
    // with `.fleet(..)`, which must compile and pass clippy too (its tests are the
    // single-cluster ones above, the builder and reconciler being the same).
    cargo_wheelhouse::init(&Init {
        dir: dir.clone(),
        fleet: Some("fleet".into()),
        ..Init::default()
    })
    .expect("init --fleet");
    let controller = std::fs::read_to_string(dir.join("src/controllers/widget.rs")).expect("widget.rs");
    assert!(
        !controller.contains(".fleet("),
        "a controller is rewritten by create api, not init"
    );
    cargo_wheelhouse::create_api(&api(&dir, "shop", "v1", "Widget")).expect("create api again");
    let controller = std::fs::read_to_string(dir.join("src/controllers/widget.rs")).expect("widget.rs");
    assert!(controller.contains(".fleet(members)"), "{controller}");
    cargo(&dir, true, &["clippy", "--all-targets", "--", "-D", "warnings"]);
}

/// The README's two commands, verbatim: a new project depends on the checkout the
/// command was built from (so it builds before any release), `--crates-io` on the
/// release; `create api` in the project's directory finds it.
#[test]
fn scaffold_readme_commands_start_a_project_on_this_checkout() {
    let parent = fresh("scaffold-cli");
    std::fs::create_dir_all(&parent).expect("a directory");
    let printed = cargo_wheelhouse(&parent, &["init", "shop-operator"]);
    assert!(
        printed.contains("create  src/main.rs") && printed.contains("next: "),
        "{printed}"
    );
    let project = parent.join("shop-operator");
    let printed = cargo_wheelhouse(
        &project,
        &[
            "create",
            "api",
            "--group",
            "shop",
            "--version",
            "v1",
            "--kind",
            "Widget",
        ],
    );
    assert!(printed.contains("create  src/controllers/widget.rs"), "{printed}");
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        manifest.contains(&format!("wheelhouse = {{ path = \"{}\" }}", checkout().display())),
        "{manifest}"
    );

    cargo_wheelhouse(&parent, &["init", "released", "--crates-io"]);
    let manifest = std::fs::read_to_string(parent.join("released/Cargo.toml")).expect("Cargo.toml");
    assert!(manifest.contains("wheelhouse = \"0.1\""), "{manifest}");
    std::fs::remove_dir_all(&parent).expect("cleaned up");
}
