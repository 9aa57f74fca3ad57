//! What the scaffold's tests share: where the checkout is, fresh directories, the
//! requests and the command line.

use std::path::{Path, PathBuf};
use std::process::Command;

use cargo_wheelhouse::CreateApi;

/// The workspace's root: the checkout the generated project depends on by path.
pub fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is a workspace member")
        .to_owned()
}

/// A fresh directory under the target directory: cargo's configuration and the
/// build's artifacts are the workspace's there.
pub fn fresh(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn api(dir: &Path, group: &str, version: &str, kind: &str) -> CreateApi {
    CreateApi {
        dir: dir.to_owned(),
        group: group.into(),
        version: version.into(),
        kind: kind.into(),
    }
}

/// Runs `cargo wheelhouse <args>` as cargo runs a subcommand (its name first) in `dir`;
/// returns what it printed, failing the test when it fails.
pub fn cargo_wheelhouse(dir: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_cargo-wheelhouse"))
        .arg("wheelhouse")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cargo-wheelhouse runs");
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "cargo wheelhouse {args:?} failed:\n{printed}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    printed
}
