//! Storage-version migration: after a CRD's storage version changed, rewrite every
//! stored object in the new version, then drop the old versions from the CRD's
//! `status.storedVersions`, so a later release may stop serving them.
//!
//! kube-apiserver writes an object in the storage version only when the object is
//! written; objects nobody touched stay encoded in the version they were last written
//! in, and `status.storedVersions` keeps every version that may still be in storage.
//! A version listed there cannot be removed from the CRD. Rewriting each object with an
//! update that changes nothing (the same body, with its `resourceVersion`) re-encodes
//! it: the server compares the new encoding with the stored bytes, which differ in their
//! `apiVersion`, and stores it. This is what `kube-storage-version-migrator` does; here
//! it is a [`Runnable`] the operator adds to its manager.
//!
//! # Resuming
//!
//! Progress is kept on the CRD itself, in the annotation [`MIGRATION_PROGRESS_ANNOTATION`]: the
//! version being migrated to, how many objects were rewritten, the list's `continue`
//! token and the key of the last object rewritten, written after each page. A migration
//! that stops (a restart, a kill, the end of its leadership term) picks up from there:
//! from the token while the server still has its snapshot, and otherwise (410 Gone,
//! tokens live about five minutes) from a fresh list that skips the keys already done,
//! as lists come in key order. Rewriting an object twice is harmless, so a crash
//! between a rewrite and its page's progress costs only that page again.

use std::time::Duration;

use futures::future::BoxFuture;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
use kube::core::{ApiResource, DynamicObject};
use prometheus::{IntCounter, IntGauge, Opts, Registry};
use serde_json::{Value, json};

use crate::error::BoxError;
use crate::manager::Manager;
use crate::manager::runnable::{Runnable, Stop};

/// The CRD annotation a migration keeps its progress in (JSON: `to`, `migrated`,
/// `continue`, `last`).
pub const MIGRATION_PROGRESS_ANNOTATION: &str = "wheelhouse.rs/storage-migration";

/// How long to wait before trying a failed request again, doubling to at most a minute.
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
const MAX_BACKOFF: Duration = Duration::from_mins(1);

/// A [`Runnable`] that migrates one CRD's stored objects to its storage version and then
/// trims `status.storedVersions` to that version alone.
///
/// It runs on the leader only (its writes go through the manager's fenced client), does
/// nothing when `storedVersions` already names only the storage version, logs each page
/// and counts objects in `wheelhouse_storage_migration_objects_total{crd}` (with
/// `wheelhouse_storage_migration_complete{crd}` set to 1 at the end). It needs `get` and
/// `patch` on the CRD and on `customresourcedefinitions/status`, and `list` and `update`
/// on the resource.
///
/// ```no_run
/// # async fn run(client: kube::Client) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// use wheelhouse_manager::{Manager, StorageMigration};
///
/// let manager = Manager::builder(client).build()?;
/// manager.add(StorageMigration::new("webapps.example.com"))?;
/// # Ok(()) }
/// ```
pub struct StorageMigration {
    crd: String,
    page_size: u32,
    client: Option<kube::Client>,
    metrics: Option<MigrationMetrics>,
}

impl StorageMigration {
    /// Migrates the CRD named `crd` (`<plural>.<group>`), 500 objects a page.
    pub fn new(crd: impl Into<String>) -> Self {
        Self {
            crd: crd.into(),
            page_size: 500,
            client: None,
            metrics: None,
        }
    }

    /// Objects per list page, and so per progress record (at least 1).
    #[must_use]
    pub fn page_size(mut self, objects: u32) -> Self {
        self.page_size = objects.max(1);
        self
    }

    /// Runs the migration once, to its end, with `client`, outside any manager (a
    /// command-line tool, a test). Stops early, keeping its progress, when `stop` is
    /// requested.
    pub async fn run(&self, client: kube::Client, stop: &Stop) -> Result<MigrationOutcome, BoxError> {
        Migration {
            crd: &self.crd,
            page_size: self.page_size,
            crds: Api::all(client.clone()),
            client,
            metrics: self.metrics.as_ref(),
            stop,
        }
        .run()
        .await
    }
}

/// How a migration ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MigrationOutcome {
    /// `status.storedVersions` named only the storage version: nothing to do.
    NothingToDo,
    /// Every object was rewritten and `status.storedVersions` is now the storage version
    /// alone.
    Migrated {
        /// The storage version the objects are now stored in.
        to: String,
        /// Objects rewritten, by this run and the runs it resumed.
        objects: u64,
        /// Objects an earlier run had already rewritten when this one started.
        resumed_from: u64,
    },
    /// A stop was requested; the progress is on the CRD for the next run.
    Stopped {
        /// Objects rewritten so far, by this run and the runs it resumed.
        objects: u64,
    },
}

impl Runnable for StorageMigration {
    fn name(&self) -> &'static str {
        "storage-migration"
    }

    fn needs_leader_election(&self) -> bool {
        true
    }

    fn register(&mut self, manager: &Manager) -> Result<(), BoxError> {
        self.client = Some(manager.client());
        self.metrics = Some(MigrationMetrics::register(manager.registry(), &self.crd)?);
        Ok(())
    }

    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
        Box::pin(async move {
            let client = self
                .client
                .clone()
                .ok_or("the storage migration was started without a manager")?;
            let outcome = match self.run(client, &stop).await {
                Ok(outcome) => outcome,
                // A write refused by the fence, or a wait cut short, because the term
                // ended or a stop came: not a failure of the manager; the next term
                // resumes from the recorded progress.
                Err(error) if stop.is_requested() => {
                    tracing::info!(crd = %self.crd, %error, "storage migration stopped; it resumes on the next run");
                    return Ok(());
                }
                Err(error) => return Err(error),
            };
            match outcome {
                MigrationOutcome::NothingToDo => tracing::info!(crd = %self.crd, "no storage migration needed"),
                MigrationOutcome::Migrated { to, objects, .. } => {
                    tracing::info!(crd = %self.crd, %to, objects, "storage migration complete");
                }
                MigrationOutcome::Stopped { objects } => {
                    tracing::info!(crd = %self.crd, objects, "storage migration stopped; it resumes on the next run");
                }
            }
            Ok(())
        })
    }
}

/// The progress record kept in [`MIGRATION_PROGRESS_ANNOTATION`].
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Progress {
    to: String,
    migrated: u64,
    #[serde(default, rename = "continue", skip_serializing_if = "Option::is_none")]
    continue_token: Option<String>,
    /// `namespace/name` (or `name`) of the last object rewritten.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last: Option<String>,
}

/// One run of a migration.
struct Migration<'a> {
    crd: &'a str,
    page_size: u32,
    crds: Api<CustomResourceDefinition>,
    client: kube::Client,
    metrics: Option<&'a MigrationMetrics>,
    stop: &'a Stop,
}

impl Migration<'_> {
    async fn run(&self) -> Result<MigrationOutcome, BoxError> {
        let crd = self.retry("read the CRD", || self.crds.get(self.crd)).await?;
        let Some((resource, storage)) = storage_resource(&crd) else {
            return Err(format!("CRD {} has no storage version", self.crd).into());
        };
        let stored = crd
            .status
            .as_ref()
            .and_then(|s| s.stored_versions.clone())
            .unwrap_or_default();
        if stored.iter().all(|version| *version == storage) {
            self.complete(0);
            return Ok(MigrationOutcome::NothingToDo);
        }
        let mut progress = recorded_progress(&crd)
            .filter(|progress| progress.to == storage)
            .unwrap_or_else(|| Progress {
                to: storage.clone(),
                ..Progress::default()
            });
        let resumed_from = progress.migrated;
        tracing::info!(crd = %self.crd, to = %storage, ?stored, resumed_from, "storage migration starting");
        let objects: Api<DynamicObject> = Api::all_with(self.client.clone(), &resource);
        loop {
            if self.stop.is_requested() {
                return Ok(MigrationOutcome::Stopped {
                    objects: progress.migrated,
                });
            }
            let Some(page) = self.list(&objects, &mut progress).await? else {
                continue;
            };
            let next = page.metadata.continue_.clone().filter(|token| !token.is_empty());
            for object in page.items {
                let key = key_of(&object);
                if progress.last.as_ref().is_some_and(|last| key.as_str() <= last.as_str()) {
                    continue;
                }
                if self.stop.is_requested() {
                    return Ok(MigrationOutcome::Stopped {
                        objects: progress.migrated,
                    });
                }
                self.rewrite(&resource, object).await?;
                progress.migrated += 1;
                progress.last = Some(key);
                if let Some(metrics) = self.metrics {
                    metrics.objects.inc();
                }
            }
            progress.continue_token.clone_from(&next);
            if next.is_none() {
                break;
            }
            self.record(Some(&progress)).await?;
            tracing::info!(crd = %self.crd, migrated = progress.migrated, "storage migration: page done");
        }
        self.trim_stored_versions(&storage).await?;
        self.complete(1);
        Ok(MigrationOutcome::Migrated {
            to: storage,
            objects: progress.migrated,
            resumed_from,
        })
    }

    /// The next page, from the recorded token; `None` when the token had expired and
    /// the list starts again from the beginning (skipping the keys done).
    async fn list(
        &self,
        objects: &Api<DynamicObject>,
        progress: &mut Progress,
    ) -> Result<Option<kube::api::ObjectList<DynamicObject>>, BoxError> {
        let mut params = ListParams::default().limit(self.page_size);
        if let Some(token) = &progress.continue_token {
            params = params.continue_token(token);
        }
        let mut backoff = FIRST_BACKOFF;
        loop {
            match objects.list(&params).await {
                Ok(page) => return Ok(Some(page)),
                Err(kube::Error::Api(status)) if status.code == 410 && progress.continue_token.is_some() => {
                    tracing::info!(crd = %self.crd, "storage migration: list snapshot expired, listing again from the start");
                    progress.continue_token = None;
                    return Ok(None);
                }
                Err(error) if transient(&error) => {
                    tracing::warn!(crd = %self.crd, %error, "storage migration: list failed, retrying");
                    backoff = self.pause(backoff).await?;
                }
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// Writes `object` back unchanged, so the server stores it in the storage version. A
    /// conflict means somebody wrote it since the list, which stored it in the storage
    /// version already; a 404 means it is gone: both are done.
    async fn rewrite(&self, resource: &ApiResource, object: DynamicObject) -> Result<(), BoxError> {
        let name = object.metadata.name.clone().unwrap_or_default();
        let api: Api<DynamicObject> = match object.metadata.namespace.as_deref() {
            Some(namespace) => Api::namespaced_with(self.client.clone(), namespace, resource),
            None => Api::all_with(self.client.clone(), resource),
        };
        let mut backoff = FIRST_BACKOFF;
        loop {
            match api.replace(&name, &PostParams::default(), &object).await {
                Ok(_) => return Ok(()),
                Err(kube::Error::Api(status)) if status.code == 409 || status.code == 404 => return Ok(()),
                Err(error) if transient(&error) => {
                    tracing::warn!(crd = %self.crd, %name, %error, "storage migration: rewrite failed, retrying");
                    backoff = self.pause(backoff).await?;
                }
                Err(error) => return Err(format!("rewriting {name}: {error}").into()),
            }
        }
    }

    /// Records `progress` on the CRD (`None` removes the record).
    async fn record(&self, progress: Option<&Progress>) -> Result<(), BoxError> {
        let value = match progress {
            Some(progress) => Value::String(serde_json::to_string(progress)?),
            None => Value::Null,
        };
        let patch = Patch::Merge(json!({"metadata": {"annotations": {MIGRATION_PROGRESS_ANNOTATION: value}}}));
        let params = PatchParams::default();
        self.retry("record the migration's progress", || {
            self.crds.patch(self.crd, &params, &patch)
        })
        .await?;
        Ok(())
    }

    /// Sets `status.storedVersions` to `storage` alone, on the CRD as read (so a storage
    /// version changed meanwhile makes it fail rather than lose a version), then drops
    /// the progress record.
    async fn trim_stored_versions(&self, storage: &str) -> Result<(), BoxError> {
        let mut backoff = FIRST_BACKOFF;
        loop {
            let crd = self.retry("read the CRD", || self.crds.get(self.crd)).await?;
            let current = storage_resource(&crd).map(|(_, version)| version);
            if current.as_deref() != Some(storage) {
                return Err(format!(
                    "CRD {}'s storage version changed from {storage} to {} during the migration; run it again",
                    self.crd,
                    current.unwrap_or_default()
                )
                .into());
            }
            let patch = json!({
                "metadata": {"resourceVersion": crd.metadata.resource_version},
                "status": {"storedVersions": [storage]},
            });
            match self
                .crds
                .patch_status(self.crd, &PatchParams::default(), &Patch::Merge(&patch))
                .await
            {
                Ok(_) => break,
                Err(kube::Error::Api(status)) if status.code == 409 => {}
                Err(error) if transient(&error) => {
                    tracing::warn!(crd = %self.crd, %error, "storage migration: trimming storedVersions failed, retrying");
                }
                Err(error) => return Err(error.into()),
            }
            backoff = self.pause(backoff).await?;
        }
        self.record(None).await
    }

    /// Calls `request` until it succeeds or fails for good, pausing between tries.
    async fn retry<T, F, Fut>(&self, what: &str, request: F) -> Result<T, BoxError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, kube::Error>>,
    {
        let mut backoff = FIRST_BACKOFF;
        loop {
            match request().await {
                Ok(value) => return Ok(value),
                Err(error) if transient(&error) => {
                    tracing::warn!(crd = %self.crd, %error, "storage migration: could not {what}, retrying");
                    backoff = self.pause(backoff).await?;
                }
                Err(error) => {
                    return Err(format!("storage migration of {}: could not {what}: {error}", self.crd).into());
                }
            }
        }
    }

    /// Waits `backoff` (or until a stop) and returns the next one.
    async fn pause(&self, backoff: Duration) -> Result<Duration, BoxError> {
        tokio::select! {
            () = tokio::time::sleep(backoff) => Ok((backoff * 2).min(MAX_BACKOFF)),
            () = self.stop.requested() => Err("storage migration stopped while waiting to retry".into()),
            () = self.stop.term_over() => Err("storage migration stopped: the leadership term ended".into()),
        }
    }

    fn complete(&self, value: i64) {
        if let Some(metrics) = self.metrics {
            metrics.complete.set(value);
        }
    }
}

/// The resource in the CRD's storage version, and that version.
fn storage_resource(crd: &CustomResourceDefinition) -> Option<(ApiResource, String)> {
    let version = crd.spec.versions.iter().find(|version| version.storage)?;
    let group = &crd.spec.group;
    Some((
        ApiResource {
            group: group.clone(),
            version: version.name.clone(),
            api_version: format!("{group}/{}", version.name),
            kind: crd.spec.names.kind.clone(),
            plural: crd.spec.names.plural.clone(),
        },
        version.name.clone(),
    ))
}

fn recorded_progress(crd: &CustomResourceDefinition) -> Option<Progress> {
    let text = crd.metadata.annotations.as_ref()?.get(MIGRATION_PROGRESS_ANNOTATION)?;
    match serde_json::from_str(text) {
        Ok(progress) => Some(progress),
        Err(error) => {
            tracing::warn!(%error, "storage migration: ignoring an unreadable progress record");
            None
        }
    }
}

/// The key lists are ordered by: `namespace/name`, or `name` for a cluster-scoped object.
fn key_of(object: &DynamicObject) -> String {
    let name = object.metadata.name.as_deref().unwrap_or_default();
    match object.metadata.namespace.as_deref() {
        Some(namespace) => format!("{namespace}/{name}"),
        None => name.to_owned(),
    }
}

/// Errors worth trying again: the server unreachable, overloaded or timing out.
fn transient(error: &kube::Error) -> bool {
    match error {
        kube::Error::Api(status) => matches!(status.code, 429 | 500 | 502 | 503 | 504),
        kube::Error::Service(_) | kube::Error::HyperError(_) => true,
        _ => false,
    }
}

/// The migration's metrics in one registry.
#[derive(Clone, Debug)]
struct MigrationMetrics {
    objects: prometheus::IntCounter,
    complete: prometheus::IntGauge,
}

impl MigrationMetrics {
    /// Registers this CRD's series; the CRD is a constant label, so each migration a
    /// manager runs registers series of its own in the same families.
    fn register(registry: &Registry, crd: &str) -> prometheus::Result<Self> {
        let objects = IntCounter::with_opts(
            Opts::new(
                "wheelhouse_storage_migration_objects_total",
                "Objects rewritten in their CRD's storage version by the storage migration",
            )
            .const_label("crd", crd),
        )?;
        let complete = IntGauge::with_opts(
            Opts::new(
                "wheelhouse_storage_migration_complete",
                "1 once the CRD's storedVersions names only its storage version",
            )
            .const_label("crd", crd),
        )?;
        registry.register(Box::new(objects.clone()))?;
        registry.register(Box::new(complete.clone()))?;
        Ok(Self { objects, complete })
    }
}
