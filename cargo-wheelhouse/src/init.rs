//! `cargo wheelhouse init`: a new operator crate, or the files a project lacks.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::files::{Files, Outcome};
use crate::names;
use crate::project::{LAYOUT, Project};
use crate::render::{self, render, sections};

/// What `init` is asked for.
#[derive(Debug, Clone, Default)]
pub struct Init {
    /// The project's directory (made when missing).
    pub dir: PathBuf,
    /// The crate's name (default: the directory's).
    pub name: Option<String>,
    /// The domain short groups are completed with (default `example.com`).
    pub domain: Option<String>,
    /// A wheelhouse checkout to depend on by path (default: the crates.io release).
    pub wheelhouse_path: Option<String>,
    /// Makes the project a fleet controller's: the home cluster's namespace holding the
    /// members' `<cluster>-kubeconfig` Secrets. Its reconcilers then run in every
    /// member, and the home cluster's and the members' RBAC is written beside
    /// `deploy/rbac.yaml`. An existing project becomes one when `init` runs again with
    /// it; none keeps what the project is.
    pub fleet: Option<String>,
}

/// Starts a project in `request.dir` (or completes one: what exists and was changed
/// is kept); returns what was done to each file.
pub fn init(request: &Init) -> Result<Vec<Outcome>, Error> {
    let dir = &request.dir;
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.clone(),
        source,
    })?;
    let mut project = if let Some(project) = Project::load(dir)? {
        project
    } else {
        let name = match &request.name {
            Some(name) => name.clone(),
            None => default_name(dir)?,
        };
        Project {
            layout: LAYOUT.to_owned(),
            name,
            domain: request.domain.clone().unwrap_or_else(|| "example.com".to_owned()),
            wheelhouse_path: request.wheelhouse_path.clone(),
            ..Project::default()
        }
    };
    if let Some(path) = &request.wheelhouse_path {
        project.wheelhouse_path = Some(path.clone());
    }
    if let Some(namespace) = &request.fleet {
        names::check_namespace(namespace)?;
        project.fleet = Some(namespace.clone());
    }
    names::check_crate_name(&project.name)?;
    names::check_group(&project.domain)?;
    let mut files = Files::new(dir, &mut project);
    write_init(&mut files)?;
    crate::rbac::write(&mut files)?;
    let outcomes = files.outcomes().to_vec();
    project.save(dir)?;
    Ok(outcomes)
}

/// The crate name a directory suggests.
fn default_name(dir: &Path) -> Result<String, Error> {
    let absolute = std::path::absolute(dir).map_err(|source| Error::Io {
        path: dir.to_owned(),
        source,
    })?;
    let name = absolute
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase()
        .replace(' ', "-");
    names::check_crate_name(&name).map_err(|_| {
        Error::Invalid(format!(
            "the directory's name {name:?} is not a crate name; pass --name"
        ))
    })?;
    Ok(name)
}

/// The values every template of the project may use.
pub(crate) fn project_values(project: &Project) -> Vec<(&'static str, String)> {
    let (wheelhouse, envtest, feature) = match &project.wheelhouse_path {
        Some(path) => {
            let path = path.trim_end_matches('/');
            (
                format!("{{ path = \"{path}\" }}"),
                format!("{{ path = \"{path}/envtest\" }}"),
                format!("{{ path = \"{path}\", features = [\"envtest\"] }}"),
            )
        }
        None => (
            "\"0.1\"".to_owned(),
            "\"0.1\"".to_owned(),
            "{ version = \"0.1\", features = [\"envtest\"] }".to_owned(),
        ),
    };
    vec![
        ("name", project.name.clone()),
        ("crate", project.crate_ident()),
        ("domain", project.domain.clone()),
        ("wheelhouse", wheelhouse),
        ("envtest", envtest),
        ("wheelhouse_envtest_feature", feature),
        ("fleet_namespace", project.fleet.clone().unwrap_or_default()),
    ]
}

/// Borrows owned pairs as `render` takes them.
pub(crate) fn pairs<'a>(values: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    values.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

fn write_init(files: &mut Files<'_>) -> Result<(), Error> {
    let values = project_values(files.project());
    let values = pairs(&values);
    // rustfmt.toml first: the Rust files are formatted with it.
    files.generated("rustfmt.toml", render::RUSTFMT)?;
    files.owned("Cargo.toml", &render(render::CARGO_TOML, &values))?;
    files.owned(".gitignore", render::GITIGNORE)?;
    let fleet = render::fleet_sections(files.project());
    files.owned("README.md", &render(&sections(render::README, &fleet), &values))?;
    files.generated(".ci/run", render::CI_RUN)?;
    make_executable(&files.root().join(".ci/run"));
    files.owned_rust("src/main.rs", &render(render::MAIN, &values))?;
    files.owned_rust("src/lib.rs", &render(render::LIB, &values))?;
    files.owned_rust("src/api.rs", &render(render::API, &values))?;
    files.owned_rust("src/controllers.rs", &render(render::CONTROLLERS, &values))?;
    files.owned_rust("src/webhooks.rs", &render(render::WEBHOOKS, &values))?;
    files.generated_rust("src/deploy.rs", &render(render::DEPLOY, &values))?;
    files.generated_rust("tests/deploy.rs", &render(render::DEPLOY_TEST, &values))?;
    files.generated("deploy/operator.yaml", &render(render::OPERATOR, &values))?;
    files.generated("deploy/Dockerfile.prebuilt", &render(render::DOCKERFILE, &values))?;
    Ok(())
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    if let Ok(metadata) = std::fs::metadata(path) {
        let mut permissions = metadata.permissions();
        permissions.set_mode(permissions.mode() | 0o111);
        let _ = std::fs::set_permissions(path, permissions);
    }
}

#[cfg(not(unix))]
fn make_executable(_: &Path) {}
