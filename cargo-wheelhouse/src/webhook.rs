//! `create webhook`: a kind's typed defaulter and validator (with unit tests, and a
//! test through the API server), or its hub-and-spoke conversions (with a round-trip
//! property test, and a test through the API server).

use std::fmt::Write as _;

use crate::Error;
use crate::api::{kind_values, load, write_kind};
use crate::files::{Files, Outcome};
use crate::init::pairs;
use crate::names;
use crate::project::{Controller, Kind};
use crate::render::{self, render, sections};

/// What `create webhook` is asked for.
#[derive(Debug, Clone, Default)]
pub struct CreateWebhook {
    /// The project's directory.
    pub dir: std::path::PathBuf,
    /// The version the webhooks take (admission: the stored version) or the hub the
    /// other versions convert to and from (conversion; it becomes the stored version).
    pub version: String,
    /// The kind.
    pub kind: String,
    /// A mutating webhook that fills in defaults.
    pub defaulting: bool,
    /// A validating webhook.
    pub validation: bool,
    /// Conversions between the hub and the spokes.
    pub conversion: bool,
    /// The versions converted to and from the hub (default: every other version).
    pub spokes: Vec<String>,
}

/// Adds webhooks or conversions to an existing kind.
pub fn create_webhook(request: &CreateWebhook) -> Result<Vec<Outcome>, Error> {
    let mut project = load(&request.dir)?;
    if !(request.defaulting || request.validation || request.conversion) {
        return Err(Error::Invalid(
            "say which: --defaulting, --validation and/or --conversion".into(),
        ));
    }
    names::check_version(&request.version)?;
    let Some(kind) = project.kind_mut(&request.kind) else {
        return Err(Error::Refused(format!(
            "no kind {}: `cargo wheelhouse create api --kind {}` first",
            request.kind, request.kind
        )));
    };
    if matches!(kind.controller, Controller::Phases(_)) {
        return Err(Error::Refused(
            "webhooks of a phase-scheduled kind are not scaffolded: its status is the scheduler's; write them by hand"
                .into(),
        ));
    }
    if !kind.versions.contains(&request.version) {
        return Err(Error::Refused(format!(
            "{} has no version {}: `cargo wheelhouse create api --version {} --kind {}` first",
            request.kind, request.version, request.version, request.kind
        )));
    }
    if request.conversion {
        let spokes: Vec<String> = if request.spokes.is_empty() {
            kind.versions
                .iter()
                .filter(|v| **v != request.version)
                .cloned()
                .collect()
        } else {
            request.spokes.clone()
        };
        if spokes.is_empty() {
            return Err(Error::Refused(format!(
                "{} has one version: add another with `create api --version ...` before converting",
                request.kind
            )));
        }
        for spoke in &spokes {
            if *spoke == request.version || !kind.versions.contains(spoke) {
                return Err(Error::Refused(format!(
                    "--spoke {spoke}: a spoke is another existing version of {}",
                    request.kind
                )));
            }
        }
        kind.storage.clone_from(&request.version);
        kind.spokes = spokes;
    } else if request.version != kind.storage {
        return Err(Error::Refused(format!(
            "admission webhooks take the stored version, {}: with matchPolicy Equivalent they see writes in every version",
            kind.storage
        )));
    }
    kind.defaulting |= request.defaulting;
    kind.validation |= request.validation;
    let kind = kind.clone();
    let mut files = Files::new(&request.dir, &mut project);
    if kind.admission() {
        write_admission(&mut files, &kind)?;
    }
    if kind.converts() {
        write_kind(&mut files, &kind)?;
        write_conversion(&mut files, &kind)?;
    }
    let outcomes = files.outcomes().to_vec();
    project.save(&request.dir)?;
    Ok(outcomes)
}

fn write_admission(files: &mut Files<'_>, kind: &Kind) -> Result<(), Error> {
    let module = kind.module();
    let values = kind_values(files.project(), kind, &kind.storage);
    let on = [("defaulting", kind.defaulting), ("validation", kind.validation)];
    let source = render(&sections(render::WEBHOOK, &on), &pairs(&values));
    files.generated_rust(&format!("src/webhooks/{module}.rs"), &source)?;
    let test = render(&sections(render::WEBHOOK_TEST, &on), &pairs(&values));
    files.generated_rust(&format!("tests/{module}_webhooks.rs"), &test)?;
    files.insert("src/webhooks.rs", "webhooks", &format!("pub mod {module};"), true)?;
    files.insert("src/webhooks.rs", "admission", &format!("{module}::register,"), false)?;
    Ok(())
}

fn write_conversion(files: &mut Files<'_>, kind: &Kind) -> Result<(), Error> {
    let module = kind.module();
    files.generated_rust(&format!("src/api/{module}/conversion.rs"), &conversion_module(kind))?;
    for spoke in &kind.spokes {
        let mut values = kind_values(files.project(), kind, &kind.storage);
        values.push(("spoke", spoke.clone()));
        files.generated_rust(
            &format!("tests/{module}_{spoke}_conversion.rs"),
            &render(render::CONVERSION_TEST, &pairs(&values)),
        )?;
    }
    files.insert(
        "src/webhooks.rs",
        "conversions",
        &format!("crate::api::{module}::register_conversion,"),
        false,
    )?;
    Ok(())
}

/// The `From` impls between the hub and each spoke, field by field as the scaffold made
/// the versions, and a property test that a hub read through each spoke comes back
/// the same.
fn conversion_module(kind: &Kind) -> String {
    let (name, hub) = (&kind.kind, &kind.storage);
    let spokes = kind.spokes.join(", ");
    let mut out = format!(
        "//! {name}'s conversions: {hub} (the hub, stored) to and from {spokes}, field by field.\n//! The API server sends every read and write in a spoke version to the webhook server's\n//! `/convert`, which converts through these. When a version gains a field the\n//! others lack, keep it across a round trip with\n//! `wheelhouse::webhook::conversion::stash` and `unstash`.\n\nuse super::{{{hub}, {spokes}}};\n"
    );
    for spoke in &kind.spokes {
        for (from, to) in [(spoke, hub), (hub, spoke)] {
            let _ = write!(
                out,
                "\nimpl From<{from}::{name}> for {to}::{name} {{\n    fn from(object: {from}::{name}) -> Self {{\n        Self {{\n            metadata: object.metadata,\n            spec: {to}::{name}Spec {{\n                size: object.spec.size,\n            }},\n            status: object.status.map(|status| {to}::{name}Status {{\n                conditions: status.conditions,\n                observed_generation: status.observed_generation,\n            }}),\n        }}\n    }}\n}}\n"
            );
        }
    }
    let _ = write!(
        out,
        "\n#[cfg(test)]\nmod tests {{\n    use proptest::prelude::*;\n\n    use super::*;\n\n    fn stored(size: Option<i32>, observed: Option<i64>) -> {hub}::{name} {{\n        let mut object = {hub}::{name}::new(\"sample\", {hub}::{name}Spec {{ size }});\n        object.status = observed.map(|generation| {hub}::{name}Status {{\n            conditions: Vec::new(),\n            observed_generation: Some(generation),\n        }});\n        object\n    }}\n\n    proptest! {{\n"
    );
    for spoke in &kind.spokes {
        let _ = write!(
            out,
            "        /// A {name} read in {spoke} and written back is the {name} stored.\n        #[test]\n        fn {spoke}_round_trips_through_the_hub(size in proptest::option::of(any::<i32>()), observed in proptest::option::of(any::<i64>())) {{\n            let object = stored(size, observed);\n            let back = {hub}::{name}::from({spoke}::{name}::from(object.clone()));\n            prop_assert_eq!(back, object);\n        }}\n"
        );
    }
    out.push_str("    }\n}\n");
    out
}
