//! Cases of field and metadata mutations: each mutation created, and sent as an update
//! of the created seed through one of the update verbs (chosen from the case's hash,
//! so every verb gets its share); each field changed on update through `PUT` and one
//! patch type; status fields through `/status`; and the unmutated seed through every
//! verb, which shows what the servers default and store.

use serde_json::{Value, json};

use super::patches::{json_patch, merge_diff};
use super::{Body, Draft, Kind, MANAGER, Operation, Step, apply, create, json_step, read_back, step, with_query};
use crate::mutate::walk::Site;
use crate::mutate::{self, Edit, Family, Mutation, metadata, values};
use crate::prng::stable_hash;

/// Every write case of `kind`.
pub(super) fn cases(kind: &Kind) -> Vec<Draft> {
    let mut out = seed_cases(kind);
    let stored = kind.resource.is_stored();
    for site in &kind.sites {
        if site.in_status {
            if kind.resource.status && kind.serves("update") {
                for mutation in values::for_site(site) {
                    out.push(status_case(kind, site, mutation));
                }
            }
            continue;
        }
        for mutation in values::for_site(site) {
            out.push(create_case(kind, &site.pattern, &site.type_field, &mutation));
            if stored {
                let update = pick(kind, &mutation, UPDATES);
                out.extend(update_case(kind, update, &site.pattern, &site.type_field, &mutation));
            }
        }
        if let (true, Some(change)) = (stored, values::change(site)) {
            out.extend(update_case(
                kind,
                Operation::Put,
                &site.pattern,
                &site.type_field,
                &change,
            ));
            let patch = pick(kind, &change, PATCHES);
            out.extend(update_case(kind, patch, &site.pattern, &site.type_field, &change));
        }
    }
    if stored {
        out.extend(metadata_cases(kind));
    }
    out
}

/// The update verbs a mutation may go through.
const UPDATES: &[Operation] = &[
    Operation::Put,
    Operation::MergePatch,
    Operation::StrategicPatch,
    Operation::JsonPatch,
    Operation::Apply,
];

/// The patch verbs a change may go through besides `PUT`.
const PATCHES: &[Operation] = &[
    Operation::MergePatch,
    Operation::StrategicPatch,
    Operation::JsonPatch,
    Operation::Apply,
];

/// One of `operations`, from the mutation's hash; strategic merge patches only for
/// built-in kinds (custom resources refuse them, which a request-level case covers).
fn pick(kind: &Kind, mutation: &Mutation, operations: &[Operation]) -> Operation {
    let allowed: Vec<Operation> = operations
        .iter()
        .copied()
        .filter(|op| kind.builtin || *op != Operation::StrategicPatch)
        .collect();
    let hash = stable_hash(&format!("{}|{:?}", kind.label, mutation.edits));
    let index = usize::try_from(hash % allowed.len().max(1) as u64).unwrap_or(0);
    allowed.get(index).copied().unwrap_or(Operation::Put)
}

/// The mutated object created.
fn create_case(kind: &Kind, field: &str, type_field: &str, mutation: &Mutation) -> Draft {
    Draft {
        operation: Operation::Create,
        family: mutation.family,
        field: field.to_owned(),
        type_field: type_field.to_owned(),
        description: mutation.description.clone(),
        steps: vec![create(
            kind,
            "create the mutated object",
            mutate::apply(&kind.seed, &mutation.edits),
        )],
    }
}

/// The seed created (applied, for `Apply`), then the mutation sent by `operation`; None
/// when the operation cannot carry it (a JSON patch of nothing).
fn update_case(kind: &Kind, operation: Operation, field: &str, type_field: &str, mutation: &Mutation) -> Option<Draft> {
    let mutated = mutate::apply(&kind.seed, &mutation.edits);
    let patch = |content_type: &str, body: Value| {
        json_step(
            "the mutation",
            "PATCH",
            with_query(&kind.object(), &format!("fieldManager={MANAGER}")),
            content_type,
            body,
        )
    };
    let steps = match operation {
        Operation::Put => vec![
            create_seed(kind),
            put_edited(kind, &kind.object(), mutation.edits.clone()),
        ],
        Operation::MergePatch => vec![
            create_seed(kind),
            patch("application/merge-patch+json", merge_diff(&kind.seed, &mutated)),
        ],
        Operation::StrategicPatch => vec![
            create_seed(kind),
            patch(
                "application/strategic-merge-patch+json",
                merge_diff(&kind.seed, &mutated),
            ),
        ],
        Operation::JsonPatch => {
            let operations = json_patch(&kind.seed, &mutation.edits);
            if operations.as_array().is_none_or(Vec::is_empty) {
                return None;
            }
            vec![create_seed(kind), patch("application/json-patch+json", operations)]
        }
        Operation::Apply => vec![
            apply(kind, "apply the seed", kind.seed.clone()),
            apply(kind, "apply the mutation", mutated),
        ],
        _ => return None,
    };
    Some(Draft {
        operation,
        family: mutation.family,
        field: field.to_owned(),
        type_field: type_field.to_owned(),
        description: mutation.description.clone(),
        steps,
    })
}

/// The seed created, then its status written with the seed's status, mutated.
fn status_case(kind: &Kind, site: &Site, mutation: Mutation) -> Draft {
    let mut edits = vec![Edit::Set {
        pointer: "/status".into(),
        value: kind.seed.get("status").cloned().unwrap_or_else(|| json!({})),
    }];
    edits.extend(mutation.edits);
    Draft {
        operation: Operation::Status,
        family: mutation.family,
        field: site.pattern.clone(),
        type_field: site.type_field.clone(),
        description: mutation.description,
        steps: vec![
            create_seed(kind),
            put_edited(kind, &format!("{}/status", kind.object()), edits),
        ],
    }
}

/// The `POST` of the unmutated seed.
pub(super) fn create_seed(kind: &Kind) -> Step {
    create(kind, "create the seed", kind.seed.clone())
}

/// A `PUT` to `path` of the previous answer, edited.
pub(super) fn put_edited(kind: &Kind, path: &str, edits: Vec<Edit>) -> Step {
    Step {
        content_type: Some("application/json".into()),
        body: Body::EditAnswer(edits),
        creates_in: Some(kind.collection()),
        ..step(
            "the mutation",
            "PUT",
            with_query(path, &format!("fieldManager={MANAGER}")),
        )
    }
}

/// The seed through every verb the kind serves, unchanged.
fn seed_cases(kind: &Kind) -> Vec<Draft> {
    let draft = |operation, description: &str, steps| Draft {
        operation,
        family: Family::Seed,
        field: String::new(),
        type_field: String::new(),
        description: description.to_owned(),
        steps,
    };
    let mut out = vec![draft(Operation::Create, "the seed created", vec![create_seed(kind)])];
    if !kind.resource.is_stored() {
        return out;
    }
    out.push(draft(
        Operation::Create,
        "the seed created and read back",
        vec![create_seed(kind), read_back(kind)],
    ));
    let empty_patch = |content_type: &str, body: Value| {
        json_step(
            "the mutation",
            "PATCH",
            with_query(&kind.object(), &format!("fieldManager={MANAGER}")),
            content_type,
            body,
        )
    };
    if kind.serves("update") {
        out.push(draft(
            Operation::Put,
            "the seed written back unchanged",
            vec![
                create_seed(kind),
                put_edited(kind, &kind.object(), Vec::new()),
                read_back(kind),
            ],
        ));
    }
    if kind.serves("patch") {
        out.push(draft(
            Operation::MergePatch,
            "an empty merge patch",
            vec![
                create_seed(kind),
                empty_patch("application/merge-patch+json", json!({})),
            ],
        ));
        out.push(draft(
            Operation::JsonPatch,
            "an empty JSON patch",
            vec![create_seed(kind), empty_patch("application/json-patch+json", json!([]))],
        ));
        if kind.builtin {
            out.push(draft(
                Operation::StrategicPatch,
                "an empty strategic merge patch",
                vec![
                    create_seed(kind),
                    empty_patch("application/strategic-merge-patch+json", json!({})),
                ],
            ));
        }
        out.push(draft(
            Operation::Apply,
            "the seed applied twice",
            vec![
                apply(kind, "apply the seed", kind.seed.clone()),
                apply(kind, "apply it again", kind.seed.clone()),
                read_back(kind),
            ],
        ));
    }
    if kind.serves("delete") {
        out.push(draft(
            Operation::Delete,
            "the seed deleted",
            vec![
                create_seed(kind),
                step("delete", "DELETE", with_query(&kind.object(), "gracePeriodSeconds=0")),
                read_back(kind),
            ],
        ));
    }
    if kind.serves("list") {
        out.push(draft(
            Operation::List,
            "the seed listed",
            vec![create_seed(kind), step("list", "GET", kind.collection())],
        ));
    }
    out
}

/// Metadata mutations: names and `generateName` on create, labels and annotations on
/// create and update, server-set fields on create, and changes no update may make.
fn metadata_cases(kind: &Kind) -> Vec<Draft> {
    let mut out = Vec::new();
    let field_of = |mutation: &Mutation| {
        let tokens = mutate::tokens(mutation.edits.last().map_or("", Edit::pointer));
        tokens.iter().take(2).cloned().collect::<Vec<_>>().join(".")
    };
    let type_of = |field: &str| format!("meta.v1.ObjectMeta.{}", field.trim_start_matches("metadata."));
    let mut creates = metadata::names();
    creates.extend(metadata::generate_name());
    creates.extend(metadata::create_fields(kind.resource.namespaced));
    for mutation in &creates {
        let field = field_of(mutation);
        out.push(create_case(kind, &field, &type_of(&field), mutation));
    }
    for mutation in metadata::labels_and_annotations() {
        let field = field_of(&mutation);
        out.push(create_case(kind, &field, &type_of(&field), &mutation));
        let update = pick(kind, &mutation, UPDATES);
        out.extend(update_case(kind, update, &field, &type_of(&field), &mutation));
    }
    if kind.serves("update") {
        for mutation in metadata::updates(kind.resource.namespaced) {
            let field = field_of(&mutation);
            out.extend(update_case(kind, Operation::Put, &field, &type_of(&field), &mutation));
            out.extend(update_case(
                kind,
                Operation::MergePatch,
                &field,
                &type_of(&field),
                &mutation,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::Resource;
    use crate::openapi::ValueType;

    fn kind(builtin: bool) -> Kind {
        let seed = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "$NAME"}, "data": {"a": "b"}});
        Kind {
            label: "ConfigMap".into(),
            resource: Resource {
                api_version: "v1".into(),
                kind: "ConfigMap".into(),
                plural: "configmaps".into(),
                namespaced: true,
                verbs: ["create", "get", "list", "update", "patch", "delete"]
                    .map(String::from)
                    .to_vec(),
                status: false,
                scale: false,
            },
            sites: vec![Site {
                pointer: "/data".into(),
                pattern: "data".into(),
                type_field: "core.v1.ConfigMap.data".into(),
                field: "data".into(),
                value: Some(json!({"a": "b"})),
                value_type: ValueType::Map,
                enum_values: vec![],
                merge_keys: vec![],
                is_set: false,
                format: None,
                item_type: None,
                is_item: false,
                in_status: false,
                required: false,
            }],
            seed,
            builtin,
        }
    }

    #[test]
    fn every_field_mutation_is_created_and_sent_as_an_update() {
        let drafts = cases(&kind(true));
        let creates = drafts
            .iter()
            .filter(|d| d.operation == Operation::Create && d.field == "data")
            .count();
        let updates = drafts
            .iter()
            .filter(|d| d.operation != Operation::Create && d.field == "data")
            .count();
        assert!(creates > 5);
        // Every mutation of the map has one update (a JSON patch of nothing is dropped).
        assert!(updates >= creates - 1, "{updates} updates for {creates} creates");
        let put = drafts
            .iter()
            .find(|d| d.operation == Operation::Put && d.family != Family::Seed)
            .expect("a PUT");
        assert_eq!(put.steps[0].label, "create the seed");
        assert!(matches!(put.steps[1].body, Body::EditAnswer(_)));
        assert_eq!(
            put.steps[1].path,
            "/api/v1/namespaces/$NAMESPACE/configmaps/$NAME?fieldManager=envtest-differential"
        );
    }

    #[test]
    fn custom_resources_get_no_strategic_patches() {
        let drafts = cases(&kind(false));
        assert!(drafts.iter().all(|d| d.operation != Operation::StrategicPatch));
        assert!(
            cases(&kind(true))
                .iter()
                .any(|d| d.operation == Operation::StrategicPatch)
        );
    }

    #[test]
    fn metadata_is_mutated_for_every_stored_kind() {
        let drafts = cases(&kind(true));
        let name = drafts
            .iter()
            .find(|d| d.description == "64 characters" && d.field == "metadata.name")
            .expect("a long name");
        assert_eq!(name.type_field, "meta.v1.ObjectMeta.name");
        let Body::Json(body) = &name.steps[0].body else {
            panic!("a JSON body")
        };
        assert_eq!(body.pointer("/metadata/name"), Some(&json!("$NAME{64}")));
        assert!(
            drafts
                .iter()
                .any(|d| d.field == "metadata.labels" && d.operation != Operation::Create)
        );
    }
}
