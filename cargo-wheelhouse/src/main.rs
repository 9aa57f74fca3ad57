//! `cargo wheelhouse`: the scaffold's command line (see the library's docs for what
//! each generator writes).

use std::path::PathBuf;
use std::process::ExitCode;

use cargo_wheelhouse::files::Outcome;
use cargo_wheelhouse::{CreateApi, CreatePhases, CreateWebhook, Init};
use clap::{Parser, Subcommand};

/// Starts and grows a wheelhouse operator, as kubebuilder and Autopilot do.
#[derive(Parser)]
#[command(name = "cargo wheelhouse", version, about)]
struct Flags {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A new operator crate: `main()` with a `Manager` and kubebuilder's flags, deploy/,
    /// .ci/run, a README.
    Init {
        /// Where (made when missing; default: here).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The crate's name (default: the directory's).
        #[arg(long)]
        name: Option<String>,
        /// The domain a short --group is completed with.
        #[arg(long, default_value = "example.com")]
        domain: String,
        /// Depend on a wheelhouse checkout by path (default: the checkout this command
        /// was installed from, while it exists; else the crates.io release).
        #[arg(long, value_name = "PATH", conflicts_with = "crates_io")]
        wheelhouse_path: Option<String>,
        /// Depend on the crates.io release even when installed from a checkout.
        #[arg(long)]
        crates_io: bool,
        /// A fleet controller: its reconcilers run in every member cluster whose
        /// `<member>-kubeconfig` Secret is in this namespace of the home cluster
        /// (`--fleet` alone: `fleet`), and deploy/ gets the home cluster's and the
        /// members' RBAC. Given to an existing project, makes it one.
        #[arg(long, value_name = "NAMESPACE", num_args = 0..=1, require_equals = true, default_missing_value = "fleet")]
        fleet: Option<String>,
    },
    /// Adds to the project.
    #[command(subcommand)]
    Create(Create),
}

#[derive(Subcommand)]
enum Create {
    /// A kind with `CustomResource`, its reconciler (finalizer, status conditions) and a
    /// `TestEnv` test; or a new version of a kind.
    Api {
        #[command(flatten)]
        kind: KindFlags,
    },
    /// A kind's defaulting and validating webhooks (on its stored version), or its
    /// conversions (--version is the hub, stored; the spokes convert through it).
    Webhook {
        /// The project (default: here).
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        #[arg(long)]
        version: String,
        #[arg(long)]
        kind: String,
        #[arg(long)]
        defaulting: bool,
        #[arg(long)]
        validation: bool,
        #[arg(long)]
        conversion: bool,
        /// The versions converted to and from the hub (default: every other).
        #[arg(long, value_delimiter = ',')]
        spoke: Vec<String>,
    },
    /// A kind on the phase scheduler: one stateless worker per phase, in order.
    Phases {
        #[command(flatten)]
        kind: KindFlags,
        /// The phases in order, such as Pending,Provisioning,Ready.
        #[arg(long, value_delimiter = ',', required = true)]
        phases: Vec<String>,
    },
}

#[derive(clap::Args)]
struct KindFlags {
    /// The project (default: here).
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// The API group: short (completed with the project's domain) or full.
    #[arg(long)]
    group: String,
    /// The version, such as v1 or v1beta1.
    #[arg(long)]
    version: String,
    /// The kind, such as `CronJob`.
    #[arg(long)]
    kind: String,
}

impl KindFlags {
    fn request(self) -> CreateApi {
        CreateApi {
            dir: self.dir,
            group: self.group,
            version: self.version,
            kind: self.kind,
        }
    }
}

/// The wheelhouse checkout this command was built from (`cargo install --path
/// cargo-wheelhouse`), when it is still there.
fn installed_from() -> Option<String> {
    let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let is_wheelhouse = std::fs::read_to_string(checkout.join("Cargo.toml"))
        .is_ok_and(|manifest| manifest.contains("name = \"wheelhouse\""))
        && checkout.join("envtest/Cargo.toml").exists();
    is_wheelhouse.then(|| checkout.display().to_string())
}

fn main() -> ExitCode {
    // As a cargo subcommand, cargo passes its own name for it first.
    let mut args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("wheelhouse") {
        args.remove(1);
    }
    let flags = Flags::parse_from(args);
    let (result, next) = match flags.command {
        Command::Init {
            dir,
            name,
            domain,
            wheelhouse_path,
            crates_io,
            fleet,
        } => {
            // A new project depends on what this command was built from, so that the
            // README's two commands work from a checkout; an existing one keeps its
            // choice (`PROJECT`).
            let new_project = !dir.join("PROJECT").exists();
            let wheelhouse_path = match wheelhouse_path {
                Some(path) => Some(path),
                None if new_project && !crates_io => installed_from(),
                None => None,
            };
            let request = Init {
                dir,
                name,
                domain: Some(domain),
                wheelhouse_path,
                fleet,
            };
            let result = cargo_wheelhouse::init(&request);
            (
                result,
                "next: cargo wheelhouse create api --group <group> --version v1 --kind <Kind>, then cargo test",
            )
        }
        Command::Create(Create::Api { kind }) => (
            cargo_wheelhouse::create_api(&kind.request()),
            "next: cargo test (the CRD, deploy/crd.yaml, is written by tests/deploy.rs)",
        ),
        Command::Create(Create::Webhook {
            dir,
            version,
            kind,
            defaulting,
            validation,
            conversion,
            spoke,
        }) => {
            let request = CreateWebhook {
                dir,
                version,
                kind,
                defaulting,
                validation,
                conversion,
                spokes: spoke,
            };
            (cargo_wheelhouse::create_webhook(&request), "next: cargo test")
        }
        Command::Create(Create::Phases { kind, phases }) => {
            let request = CreatePhases {
                api: kind.request(),
                phases,
            };
            (cargo_wheelhouse::create_phases(&request), "next: cargo test")
        }
    };
    match result {
        Ok(outcomes) => {
            for outcome in &outcomes {
                if !matches!(outcome, Outcome::Unchanged(_)) {
                    println!("{outcome}");
                }
            }
            println!("{next}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
