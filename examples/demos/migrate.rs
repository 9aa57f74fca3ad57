//! Storage-version migration: a release moved the Widget CRD's storage version from
//! `v1alpha1` to `v1`; every Widget written before is still stored as `v1alpha1`, and
//! `status.storedVersions` says so. [`StorageMigration`] rewrites each stored object
//! through the API (an update that changes nothing re-encodes it in the storage
//! version), keeping its progress on the CRD after each page, and then trims
//! `storedVersions` to `v1`, so a later release may stop serving `v1alpha1`.
//!
//! `cargo run --example migrate` does it on the embedded server with 2,000 Widgets.
//! `--cluster --crd <name>` migrates that CRD on the kubeconfig's cluster instead. An
//! operator adds the same
//! runnable to its manager: `manager.add(StorageMigration::new("widgets.migrate.example.com"))`.

use clap::Parser;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::Api;
use wheelhouse::manager::{CancellationToken, MigrationOutcome, Stop, StorageMigration};
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::widgets;

#[derive(Parser)]
#[command(about = "Migrate a CRD's stored objects to its storage version")]
struct Args {
    /// Migrate `--crd` on the kubeconfig's cluster instead of running the demo.
    #[arg(long, requires = "crd")]
    cluster: bool,
    /// The CRD to migrate (`<plural>.<group>`).
    #[arg(long)]
    crd: Option<String>,
    /// Objects per page (and per progress record).
    #[arg(long, default_value_t = 100)]
    page_size: u32,
    /// How many Widgets the demo creates.
    #[arg(long, default_value_t = 2000)]
    objects: usize,
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Failure> {
    tracing_subscriber_init();
    let args = Args::parse();
    let token = CancellationToken::new();
    let stop = Stop::new(token.clone());
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            token.cancel();
        }
    });
    if args.cluster {
        let client = kube::Client::try_default().await?;
        let crd = args.crd.unwrap_or_default();
        let outcome = StorageMigration::new(crd)
            .page_size(args.page_size)
            .run(client, &stop)
            .await?;
        println!("{outcome:?}");
        return Ok(());
    }

    let env = TestEnv::embedded().await?;
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    env.install_crd(&widgets::crd("v1alpha1")).await?;
    widgets::create(client.clone(), &namespace, args.objects).await?;
    println!("{} Widgets stored as v1alpha1 in namespace {namespace}", args.objects);
    env.install_crd(&widgets::crd("v1")).await?;
    println!(
        "storage version now v1; storedVersions: {:?}",
        stored_versions(&client).await?
    );

    let migration = StorageMigration::new(widgets::CRD_NAME).page_size(args.page_size);
    match migration.run(client.clone(), &stop).await? {
        MigrationOutcome::Migrated { objects, .. } => println!("rewrote {objects} Widgets in v1"),
        other => println!("{other:?}"),
    }
    println!("storedVersions: {:?}", stored_versions(&client).await?);
    Ok(())
}

async fn stored_versions(client: &kube::Client) -> Result<Vec<String>, kube::Error> {
    let crd = Api::<CustomResourceDefinition>::all(client.clone())
        .get(widgets::CRD_NAME)
        .await?;
    Ok(crd.status.and_then(|status| status.stored_versions).unwrap_or_default())
}

/// Logs at info to stderr, so the migration's page-by-page progress shows.
fn tracing_subscriber_init() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
}
