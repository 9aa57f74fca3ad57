//! `create api` and `create phases`: a kind (or a new version of one), its controller
//! (a reconciler, or phase workers), its test, and the lines that add them to the
//! project's module lists.

use std::fmt::Write as _;

use crate::Error;
use crate::files::{Files, Outcome};
use crate::init::{pairs, project_values};
use crate::names;
use crate::project::{Controller, Kind, Project};
use crate::render::{self, render};

/// What `create api` is asked for.
#[derive(Debug, Clone, Default)]
pub struct CreateApi {
    /// The project's directory.
    pub dir: std::path::PathBuf,
    /// The group, short (`shop`, completed with the project's domain) or full.
    pub group: String,
    /// The version (`v1`).
    pub version: String,
    /// The kind (`Widget`).
    pub kind: String,
}

/// What `create phases` is asked for.
#[derive(Debug, Clone, Default)]
pub struct CreatePhases {
    /// The kind to create, as for `create api`.
    pub api: CreateApi,
    /// The phases in order (at least one): the first is initial, each moves to the
    /// next, the last stays.
    pub phases: Vec<String>,
}

/// Loads the project at `dir`, or says to run `init` first.
pub(crate) fn load(dir: &std::path::Path) -> Result<Project, Error> {
    Project::load(dir)?.ok_or_else(|| {
        Error::Refused(format!(
            "no PROJECT in {}: run `cargo wheelhouse init` there first",
            dir.display()
        ))
    })
}

/// Checks the flags and completes the group.
fn checked(project: &Project, request: &CreateApi) -> Result<String, Error> {
    names::check_kind(&request.kind)?;
    names::check_version(&request.version)?;
    let group = project.full_group(&request.group);
    names::check_group(&group)?;
    Ok(group)
}

/// Adds a kind with a reconciler, or a new version of an existing kind.
pub fn create_api(request: &CreateApi) -> Result<Vec<Outcome>, Error> {
    let mut project = load(&request.dir)?;
    let group = checked(&project, request)?;
    match project.kind_mut(&request.kind) {
        Some(kind) => {
            if kind.group != group {
                return Err(Error::Refused(format!(
                    "{} is already a kind of {}, not of {group}",
                    request.kind, kind.group
                )));
            }
            if !kind.versions.contains(&request.version) {
                kind.versions.push(request.version.clone());
            }
        }
        None => project.kinds.push(Kind {
            group,
            kind: request.kind.clone(),
            plural: names::plural(&request.kind),
            versions: vec![request.version.clone()],
            storage: request.version.clone(),
            controller: Controller::Reconciler,
            ..Kind::default()
        }),
    }
    let kind = project.kind(&request.kind).cloned().unwrap_or_default();
    let mut files = Files::new(&request.dir, &mut project);
    write_version(&mut files, &kind, &request.version)?;
    write_kind(&mut files, &kind)?;
    if matches!(kind.controller, Controller::Reconciler) {
        write_reconciler(&mut files, &kind)?;
    }
    crate::rbac::write(&mut files)?;
    let outcomes = files.outcomes().to_vec();
    project.save(&request.dir)?;
    Ok(outcomes)
}

/// Adds a kind whose controller is the phase scheduler, one worker per phase.
pub fn create_phases(request: &CreatePhases) -> Result<Vec<Outcome>, Error> {
    let mut project = load(&request.api.dir)?;
    let group = checked(&project, &request.api)?;
    if request.phases.is_empty() {
        return Err(Error::Invalid("--phases: name at least one phase".into()));
    }
    for phase in &request.phases {
        names::check_phase(phase)?;
    }
    let mut unique = request.phases.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != request.phases.len() {
        return Err(Error::Invalid("--phases: each phase once".into()));
    }
    match project.kind(&request.api.kind) {
        Some(existing) if existing.controller != Controller::Phases(request.phases.clone()) => {
            return Err(Error::Refused(format!(
                "{} exists already with another controller; phases are declared when the kind is created",
                request.api.kind
            )));
        }
        Some(_) => {}
        None => project.kinds.push(Kind {
            group,
            kind: request.api.kind.clone(),
            plural: names::plural(&request.api.kind),
            versions: vec![request.api.version.clone()],
            storage: request.api.version.clone(),
            controller: Controller::Phases(request.phases.clone()),
            ..Kind::default()
        }),
    }
    let kind = project.kind(&request.api.kind).cloned().unwrap_or_default();
    let mut files = Files::new(&request.api.dir, &mut project);
    write_version(&mut files, &kind, &request.api.version)?;
    write_kind(&mut files, &kind)?;
    write_phases(&mut files, &kind, &request.phases)?;
    crate::rbac::write(&mut files)?;
    let outcomes = files.outcomes().to_vec();
    project.save(&request.api.dir)?;
    Ok(outcomes)
}

/// The values of a kind's templates.
pub(crate) fn kind_values(project: &Project, kind: &Kind, version: &str) -> Vec<(&'static str, String)> {
    let mut values = project_values(project);
    values.extend([
        ("group", kind.group.clone()),
        ("version", version.to_owned()),
        ("kind", kind.kind.clone()),
        ("module", kind.module()),
        ("plural", kind.plural.clone()),
        ("hub", kind.storage.clone()),
    ]);
    values
}

fn write_version(files: &mut Files<'_>, kind: &Kind, version: &str) -> Result<(), Error> {
    let values = kind_values(files.project(), kind, version);
    let template = match &kind.controller {
        Controller::Reconciler => render(render::VERSION, &pairs(&values)),
        Controller::Phases(phases) => {
            let mut listed = String::new();
            for phase in phases {
                let _ = writeln!(
                    listed,
                    "    /// The {phase} phase; its worker is `controllers::{}::{}`.",
                    kind.module(),
                    names::snake(phase)
                );
                let _ = writeln!(listed, "    {phase},");
            }
            let declaration = phase_declaration(phases);
            let mut values = values;
            values.push(("phases", listed.trim_end().to_owned()));
            values.push(("declaration", declaration));
            render(render::PHASES_VERSION, &pairs(&values))
        }
    };
    files.generated_rust(&format!("src/api/{}/{version}.rs", kind.module()), &template)
}

/// `Phases::new().initial(A, [B]).phase(B, [C]).phase(C, [])`.
fn phase_declaration(phases: &[String]) -> String {
    let mut out = String::from("        Phases::new()");
    for (i, phase) in phases.iter().enumerate() {
        let next = phases.get(i + 1).map_or(String::new(), |next| format!("Self::{next}"));
        let method = if i == 0 { "initial" } else { "phase" };
        let _ = write!(out, "\n            .{method}(Self::{phase}, [{next}])");
    }
    out
}

/// The kind's module: its versions, the stored one, its conversion and CRD.
fn kind_module(kind: &Kind) -> String {
    let (name, hub) = (&kind.kind, &kind.storage);
    let mut out = format!(
        "//! {name} (`{}.{}`): its versions (a module each), the one objects\n//! are stored in, how the others convert to it, and the CRD.\n",
        kind.plural, kind.group
    );
    let unconverted: Vec<&String> = kind
        .versions
        .iter()
        .filter(|v| *v != hub && !kind.spokes.contains(v))
        .collect();
    if !unconverted.is_empty() {
        let list = unconverted.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ");
        let _ = write!(
            out,
            "//!\n//! Not served yet: {list} (`cargo wheelhouse create webhook --version {hub} --kind {name} --conversion --spoke {list}`).\n"
        );
    }
    out.push_str("\nuse k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;\nuse wheelhouse::webhook::conversion::Conversion;\n");
    if kind.converts() {
        out.push_str("use wheelhouse::webhook::{ConfigurationOptions, Error, WebhookServer};\n\n");
    } else {
        out.push_str("use wheelhouse::webhook::{ConfigurationOptions, Error};\n\n");
    }
    for version in &kind.versions {
        let _ = writeln!(out, "pub mod {version};");
    }
    if kind.converts() {
        out.push_str("mod conversion;\n");
    }
    let extra = match kind.controller {
        Controller::Reconciler => String::new(),
        Controller::Phases(_) => format!(", {name}Info, {name}Phase"),
    };
    let _ = write!(
        out,
        "\n/// The version objects are stored in: the hub every other version converts to and from.\npub use {hub}::{{{name}, {name}Spec, {name}Status{extra}}};\n\n"
    );
    let mut spokes = String::new();
    for spoke in &kind.spokes {
        let _ = write!(spokes, "\n        .spoke::<{spoke}::{name}>()");
    }
    let _ = write!(
        out,
        "/// The versions and how they convert: each through the hub, [`{name}`].\npub fn conversion() -> Conversion<{name}> {{\n    Conversion::hub::<{name}>(){spokes}\n}}\n\n/// The CRD of every version, converting by rewriting `apiVersion` only (strategy\n/// `None`): what a test installs before it serves the webhooks.\npub fn crd() -> Result<CustomResourceDefinition, Error> {{\n    conversion().crd()\n}}\n\n"
    );
    if kind.converts() {
        let _ = write!(
            out,
            "/// The CRD a cluster gets: its versions converted by the webhook `webhooks` reaches.\npub fn crd_for(webhooks: &ConfigurationOptions) -> Result<CustomResourceDefinition, Error> {{\n    conversion().crd_with_webhook(webhooks)\n}}\n\n/// Serves the conversions at the webhook server's `/convert`.\npub fn register_conversion(server: WebhookServer) -> WebhookServer {{\n    server.conversion(conversion())\n}}\n"
        );
    } else {
        let _ = write!(
            out,
            "/// The CRD a cluster gets (one version: nothing to convert, so no webhook).\npub fn crd_for(_webhooks: &ConfigurationOptions) -> Result<CustomResourceDefinition, Error> {{\n    crd()\n}}\n"
        );
    }
    out
}

pub(crate) fn write_kind(files: &mut Files<'_>, kind: &Kind) -> Result<(), Error> {
    let module = kind.module();
    files.generated_rust(&format!("src/api/{module}.rs"), &kind_module(kind))?;
    files.insert("src/api.rs", "kinds", &format!("pub mod {module};"), true)?;
    files.insert("src/api.rs", "crds", &format!("{module}::crd_for,"), false)?;
    Ok(())
}

fn write_reconciler(files: &mut Files<'_>, kind: &Kind) -> Result<(), Error> {
    let module = kind.module();
    let values = kind_values(files.project(), kind, &kind.storage);
    let values = pairs(&values);
    let fleet = render::fleet_sections(files.project());
    files.generated_rust(
        &format!("src/controllers/{module}.rs"),
        &render(&render::sections(render::CONTROLLER, &fleet), &values),
    )?;
    files.generated_rust(&format!("tests/{module}.rs"), &render(render::CONTROLLER_TEST, &values))?;
    files.insert("src/controllers.rs", "controllers", &format!("pub mod {module};"), true)?;
    files.insert(
        "src/controllers.rs",
        "add-controllers",
        &format!("{module}::add,"),
        false,
    )?;
    Ok(())
}

fn write_phases(files: &mut Files<'_>, kind: &Kind, phases: &[String]) -> Result<(), Error> {
    let module = kind.module();
    let mut values = kind_values(files.project(), kind, &kind.storage);
    let (mut uses, mut modules, mut workers) = (String::new(), String::new(), String::new());
    for (i, phase) in phases.iter().enumerate() {
        let phase_module = names::snake(phase);
        let _ = writeln!(uses, "use self::{phase_module}::{phase};");
        let _ = writeln!(modules, "pub mod {phase_module};");
        let _ = write!(workers, "\n        .worker({}Phase::{phase}, {phase})", kind.kind);
        let next = phases.get(i + 1).unwrap_or(phase);
        let mut worker_values = values.clone();
        worker_values.push(("phase", phase.clone()));
        worker_values.push(("next", next.clone()));
        files.generated_rust(
            &format!("src/controllers/{module}/{phase_module}.rs"),
            &render(render::PHASE_WORKER, &pairs(&worker_values)),
        )?;
    }
    let first = phases.first().cloned().unwrap_or_default();
    let last = phases.last().cloned().unwrap_or_default();
    values.extend([
        ("uses", uses.trim_end().to_owned()),
        ("modules", modules.trim_end().to_owned()),
        ("workers", workers.trim_start_matches('\n').to_owned()),
        ("first", names::snake(&first)),
        ("last", names::snake(&last)),
        ("last_phase", last),
    ]);
    let values = pairs(&values);
    files.generated_rust(
        &format!("src/controllers/{module}.rs"),
        &render(render::PHASES_CONTROLLER, &values),
    )?;
    files.generated_rust(&format!("tests/{module}.rs"), &render(render::PHASES_TEST, &values))?;
    files.insert("src/controllers.rs", "controllers", &format!("pub mod {module};"), true)?;
    files.insert(
        "src/controllers.rs",
        "add-controllers",
        &format!("{module}::add,"),
        false,
    )?;
    Ok(())
}
