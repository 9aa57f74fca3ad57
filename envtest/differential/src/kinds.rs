//! The kinds a run fuzzes: each seed matched with where the reference serves it
//! (seeds of kinds it does not serve are left out, saying so), its schema, and its
//! fields; labelled by kind, or by kind and version where two seeds share a kind.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::discovery::Discovery;
use crate::mutate::walk;
use crate::openapi::Schemas;
use crate::plan::Kind;
use crate::seeds::Seed;
use crate::target::Target;

/// The label every stored seed carries, `dfz-case: <the case's object name>`, which
/// the selector cases select by.
pub const CASE_LABEL: &str = "dfz-case";

/// The kinds of `seeds` the reference serves, and why the others were left out.
/// `custom_groups` are the groups of CRDs (no strategic merge patches there).
pub async fn build(reference: &Target, seeds: Vec<Seed>, custom_groups: &BTreeSet<String>) -> (Vec<Kind>, Vec<String>) {
    // Seeds of one kind in several versions are told apart by their version.
    let mut shared: BTreeMap<String, usize> = BTreeMap::new();
    for seed in seeds.iter().filter(|seed| seed.variant.is_none()) {
        *shared.entry(seed.kind.clone()).or_insert(0) += 1;
    }
    let mut discovery = Discovery::default();
    let mut schemas = Schemas::default();
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for seed in seeds {
        let Some(resource) = discovery.find(reference, &seed.api_version, &seed.kind).await else {
            skipped.push(format!(
                "{} {} ({}): not served by {}",
                seed.api_version, seed.kind, seed.source, reference.name
            ));
            continue;
        };
        schemas
            .load_kind(
                reference,
                &seed.api_version,
                &seed.kind,
                std::time::Duration::from_secs(30),
            )
            .await;
        let label = match &seed.variant {
            Some(variant) => format!("{} ({variant})", seed.kind),
            None if shared.get(&seed.kind).copied().unwrap_or(0) > 1 => format!("{} ({})", seed.kind, seed.api_version),
            None => seed.kind.clone(),
        };
        let group = seed.api_version.rsplit_once('/').map_or("", |(group, _)| group);
        let mut object = seed.object;
        if resource.is_stored() {
            label_case(&mut object);
        }
        found.push((
            label,
            resource,
            object,
            !custom_groups.contains(group),
            seed.api_version,
            seed.kind,
        ));
    }
    // Walked once every schema is loaded: a type may refer to another group's types.
    let kinds = found
        .into_iter()
        .map(|(label, resource, seed, builtin, api_version, kind)| {
            let sites = walk::sites(&schemas, schemas.root(&api_version, &kind), &seed, &kind);
            Kind {
                label,
                resource,
                seed,
                builtin,
                sites,
            }
        })
        .collect();
    (kinds, skipped)
}

/// Adds the case label to a seed's labels.
fn label_case(object: &mut Value) {
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        let labels = metadata.entry("labels").or_insert_with(|| json!({}));
        if let Some(labels) = labels.as_object_mut() {
            labels.entry(CASE_LABEL).or_insert_with(|| json!("$NAME"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_get_the_case_label_once() {
        let mut object = json!({"metadata": {"name": "$NAME"}});
        label_case(&mut object);
        label_case(&mut object);
        assert_eq!(
            object,
            json!({"metadata": {"name": "$NAME", "labels": {"dfz-case": "$NAME"}}})
        );
    }
}
