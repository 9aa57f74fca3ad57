//! The `PROJECT` file, kubebuilder's idea: what the scaffold made, so that the next
//! generator knows the project (its name, its kinds, their versions, webhooks and
//! phases) and which files are still exactly as it wrote them (a checksum of each).
//! A file whose content no longer has its checksum was changed by the user and is
//! never overwritten.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::Error;

/// The file's name at the project's root.
pub const FILE: &str = "PROJECT";

/// What the layout of generated projects is called, for a later scaffold to tell.
pub const LAYOUT: &str = "wheelhouse.rs/v1";

/// The project as the scaffold knows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    /// The layout the files follow.
    pub layout: String,
    /// The crate's name, and the operator's.
    pub name: String,
    /// The domain a short `--group` is completed with (`batch` → `batch.example.com`).
    pub domain: String,
    /// Where the wheelhouse crates come from: a path to a checkout, or none for crates.io.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wheelhouse_path: Option<String>,
    /// A fleet controller's: the home cluster's namespace holding the members'
    /// `<cluster>-kubeconfig` Secrets (Cluster API's convention); none for an operator of
    /// one cluster. With it the scaffold also writes the home cluster's and the members'
    /// RBAC (`deploy/fleet-home-rbac.yaml`, `deploy/fleet-member-rbac.yaml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<String>,
    /// Every kind, in the order created.
    #[serde(default)]
    pub kinds: Vec<Kind>,
    /// The checksum of each generated file as generated, by path from the root.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
}

/// One kind of custom resource.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Kind {
    /// The full API group (`batch.example.com`).
    pub group: String,
    /// The kind (`CronJob`).
    pub kind: String,
    /// Its plural (`cronjobs`).
    pub plural: String,
    /// Its versions, in the order created; the first is stored until a conversion
    /// names another hub.
    pub versions: Vec<String>,
    /// The storage version: the hub of its conversions.
    pub storage: String,
    /// Whether it has a reconciler (`create api`) or phase workers (`create phases`).
    pub controller: Controller,
    /// Its admission webhooks, if any (on the storage version).
    #[serde(default)]
    pub defaulting: bool,
    /// Whether a validator is generated.
    #[serde(default)]
    pub validation: bool,
    /// The versions converted to and from the hub by the webhook (none: strategy None).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spokes: Vec<String>,
}

/// How a kind is reconciled.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Controller {
    /// A reconciler with a finalizer and status conditions.
    #[default]
    Reconciler,
    /// The phase scheduler: one worker per phase, in this order.
    Phases(Vec<String>),
}

impl Kind {
    /// The kind's module and file name (`cron_job`).
    pub fn module(&self) -> String {
        crate::names::snake(&self.kind)
    }

    /// Whether its CRD converts through the webhook.
    pub fn converts(&self) -> bool {
        !self.spokes.is_empty()
    }

    /// Whether it has admission webhooks.
    pub fn admission(&self) -> bool {
        self.defaulting || self.validation
    }
}

impl Project {
    /// Reads the project at `root`; None when there is none (before `init`).
    pub fn load(root: &Path) -> Result<Option<Self>, Error> {
        let path = root.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(Error::Io { path, source }),
        };
        let project: Self =
            serde_saphyr::from_str(&text).map_err(|e| Error::Project(format!("{}: {e}", path.display())))?;
        if project.layout != LAYOUT {
            return Err(Error::Project(format!(
                "{} says layout {:?}; this cargo-wheelhouse writes {LAYOUT:?}",
                path.display(),
                project.layout
            )));
        }
        Ok(Some(project))
    }

    /// Writes the project at `root`.
    pub fn save(&self, root: &Path) -> Result<(), Error> {
        let body = serde_saphyr::to_string(self).map_err(|e| Error::Project(e.to_string()))?;
        let text = format!(
            "# Written by cargo wheelhouse: the project's kinds, and a checksum of each file as it\n# was generated, so that running a generator again never overwrites what you changed.\n{body}"
        );
        let path = root.join(FILE);
        std::fs::write(&path, text).map_err(|source| Error::Io { path, source })
    }

    /// The kind named `kind`, if the project has it.
    pub fn kind(&self, kind: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.kind == kind)
    }

    /// The kind named `kind`, to change it.
    pub fn kind_mut(&mut self, kind: &str) -> Option<&mut Kind> {
        self.kinds.iter_mut().find(|k| k.kind == kind)
    }

    /// A group as the user gave it, completed with the domain when it has no dot.
    pub fn full_group(&self, group: &str) -> String {
        if group.contains('.') {
            group.to_owned()
        } else {
            format!("{group}.{}", self.domain)
        }
    }

    /// The crate's name as a Rust path.
    pub fn crate_ident(&self) -> String {
        crate::names::crate_ident(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_reads_back_as_written() {
        let dir = std::env::temp_dir().join(format!("scaffold-project-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut project = Project {
            layout: LAYOUT.into(),
            name: "widget-operator".into(),
            domain: "example.com".into(),
            fleet: Some("fleet".into()),
            ..Project::default()
        };
        project.kinds.push(Kind {
            group: "shop.example.com".into(),
            kind: "Widget".into(),
            plural: "widgets".into(),
            versions: vec!["v1".into(), "v2".into()],
            storage: "v1".into(),
            controller: Controller::Phases(vec!["Pending".into(), "Ready".into()]),
            defaulting: true,
            validation: false,
            spokes: vec!["v2".into()],
        });
        project.files.insert("src/main.rs".into(), "0123".into());
        project.save(&dir).unwrap();
        assert_eq!(Project::load(&dir).unwrap(), Some(project));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(Project::load(&dir).unwrap(), None);
    }
}
