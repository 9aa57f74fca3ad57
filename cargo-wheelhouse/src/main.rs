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
        /// Depend on a wheelhouse checkout by path (default: the crates.io release).
        #[arg(long, value_name = "PATH")]
        wheelhouse_path: Option<String>,
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
        } => {
            let request = Init {
                dir,
                name,
                domain: Some(domain),
                wheelhouse_path,
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
