//! Request-level cases of writes: `dryRun` values (and whether anything was stored),
//! `fieldValidation` with unknown and duplicate fields, malformed and conflicting
//! patches of every patch type, and request shapes (missing or mismatched kind and
//! apiVersion, bodies that are not objects, media types, names in the wrong place).

use serde_json::{Value, json};

use super::writes::{create_seed, put_edited};
use super::{Body, Draft, Kind, MANAGER, Operation, Step, apply, create, json_step, read_back, step, with_query};
use crate::mutate::{Edit, Family};

/// Every request-level write case of `kind`.
pub(super) fn cases(kind: &Kind) -> Vec<Draft> {
    let mut out = shapes(kind);
    if !kind.resource.is_stored() {
        return out;
    }
    out.extend(dry_runs(kind));
    out.extend(field_validation(kind));
    if kind.serves("patch") {
        out.extend(bad_patches(kind));
        out.extend(apply_cases(kind));
    }
    out
}

/// A request-level case.
pub(super) fn draft(operation: Operation, family: Family, field: &str, description: &str, steps: Vec<Step>) -> Draft {
    Draft {
        operation,
        family,
        field: field.to_owned(),
        type_field: String::new(),
        description: description.to_owned(),
        steps,
    }
}

/// A step with a text body.
pub(super) fn text_step(label: &str, method: &str, path: String, content_type: &str, body: &str) -> Step {
    Step {
        content_type: Some(content_type.to_owned()),
        body: Body::Text(body.to_owned()),
        ..step(label, method, path)
    }
}

/// `object` with `field` removed from its top level.
fn without(object: &Value, field: &str) -> Value {
    let mut copy = object.clone();
    if let Some(fields) = copy.as_object_mut() {
        fields.remove(field);
    }
    copy
}

/// `object` with `value` at the top-level `field`.
fn with(object: &Value, field: &str, value: Value) -> Value {
    let mut copy = object.clone();
    if let Some(fields) = copy.as_object_mut() {
        fields.insert(field.to_owned(), value);
    }
    copy
}

/// Creates with bodies and paths a client gets wrong, and a second create of one name.
fn shapes(kind: &Kind) -> Vec<Draft> {
    let create_with = |description: &str, body: Value| {
        draft(
            Operation::Create,
            Family::RequestShape,
            "body",
            description,
            vec![create(kind, "create", body)],
        )
    };
    let post_text = |description: &str, content_type: &str, body: &str| {
        draft(
            Operation::Create,
            Family::RequestShape,
            "body",
            description,
            vec![Step {
                creates_in: Some(kind.collection()),
                ..text_step("create", "POST", kind.collection(), content_type, body)
            }],
        )
    };
    let other_version = if kind.resource.api_version.contains('/') {
        format!("{}9", kind.resource.api_version)
    } else {
        "v9".to_owned()
    };
    let yaml = serde_saphyr::to_string(&kind.seed).unwrap_or_default();
    let mut out = vec![
        create_with("no kind", without(&kind.seed, "kind")),
        create_with("no apiVersion", without(&kind.seed, "apiVersion")),
        create_with(
            "neither kind nor apiVersion",
            without(&without(&kind.seed, "kind"), "apiVersion"),
        ),
        create_with("another kind", with(&kind.seed, "kind", json!("Other"))),
        create_with(
            "another apiVersion",
            with(&kind.seed, "apiVersion", json!(other_version)),
        ),
        create_with("a list as body", json!([])),
        create_with("an empty object as body", json!({})),
        post_text("not JSON", "application/json", "{not json"),
        post_text("null", "application/json", "null"),
        post_text("an empty body", "application/json", ""),
        post_text("YAML", "application/yaml", &yaml),
        post_text("a text/plain body", "text/plain", &kind.seed.to_string()),
        draft(
            Operation::Create,
            Family::RequestShape,
            "fieldManager",
            "a 129-character fieldManager",
            vec![Step {
                creates_in: Some(kind.collection()),
                ..json_step(
                    "create",
                    "POST",
                    with_query(&kind.collection(), &format!("fieldManager={}", "m".repeat(129))),
                    "application/json",
                    kind.seed.clone(),
                )
            }],
        ),
        draft(
            Operation::Create,
            Family::RequestShape,
            "body",
            "the same name twice",
            vec![create_seed(kind), create(kind, "create it again", kind.seed.clone())],
        ),
    ];
    if kind.resource.is_stored() {
        out.extend(path_shapes(kind));
        if kind.serves("update") {
            out.extend(put_shapes(kind));
        }
    }
    out
}

/// Creates and reads at paths that do not fit.
fn path_shapes(kind: &Kind) -> Vec<Draft> {
    let mut out = vec![draft(
        Operation::Create,
        Family::RequestShape,
        "path",
        "a POST to the object's path",
        vec![json_step(
            "create",
            "POST",
            kind.object(),
            "application/json",
            kind.seed.clone(),
        )],
    )];
    if kind.resource.namespaced {
        let elsewhere = kind.collection().replace("$NAMESPACE", "dfz-no-such-namespace");
        out.push(draft(
            Operation::Create,
            Family::RequestShape,
            "path",
            "a namespace that does not exist",
            vec![json_step(
                "create",
                "POST",
                elsewhere,
                "application/json",
                kind.seed.clone(),
            )],
        ));
    }
    out.push(draft(
        Operation::Create,
        Family::RequestShape,
        "path",
        "a GET of an object that does not exist",
        vec![read_back(kind)],
    ));
    out
}

/// `PUT`s of bodies and paths a client gets wrong.
fn put_shapes(kind: &Kind) -> Vec<Draft> {
    let put =
        |description: &str, steps: Vec<Step>| draft(Operation::Put, Family::RequestShape, "body", description, steps);
    let edited = |description: &str, edits: Vec<Edit>| {
        put(
            description,
            vec![create_seed(kind), put_edited(kind, &kind.object(), edits)],
        )
    };
    let remove = |pointer: &str| Edit::Remove {
        pointer: pointer.to_owned(),
    };
    vec![
        put(
            "a PUT of an object that does not exist",
            vec![Step {
                creates_in: Some(kind.collection()),
                ..json_step(
                    "the mutation",
                    "PUT",
                    kind.object(),
                    "application/json",
                    kind.seed.clone(),
                )
            }],
        ),
        edited("a PUT without kind", vec![remove("/kind")]),
        edited("a PUT without apiVersion", vec![remove("/apiVersion")]),
        put(
            "a PUT of not JSON",
            vec![
                create_seed(kind),
                text_step("the mutation", "PUT", kind.object(), "application/json", "{not json"),
            ],
        ),
        put(
            "a PUT to the collection",
            vec![
                create_seed(kind),
                json_step(
                    "the mutation",
                    "PUT",
                    kind.collection(),
                    "application/json",
                    kind.seed.clone(),
                ),
            ],
        ),
    ]
}

/// `dryRun` on every write, each followed by a read that shows whether it was stored.
fn dry_runs(kind: &Kind) -> Vec<Draft> {
    let create_dry = |description: &str, query: &str| {
        let mut create_step = create(kind, "create", kind.seed.clone());
        create_step.path = with_query(&create_step.path, query);
        draft(
            Operation::Create,
            Family::DryRun,
            "?dryRun",
            description,
            vec![create_step, read_back(kind)],
        )
    };
    let mut out = vec![
        create_dry("a create with dryRun=All", "dryRun=All"),
        create_dry("a create with an empty dryRun", "dryRun="),
        create_dry("a create with dryRun=bogus", "dryRun=bogus"),
        create_dry("a create with dryRun twice", "dryRun=All&dryRun=All"),
    ];
    let label = Edit::Set {
        pointer: "/metadata/labels/dry".into(),
        value: json!("run"),
    };
    if kind.serves("update") {
        let mut put = put_edited(kind, &kind.object(), vec![label]);
        put.path = with_query(&put.path, "dryRun=All");
        out.push(draft(
            Operation::Put,
            Family::DryRun,
            "?dryRun",
            "a PUT with dryRun=All",
            vec![create_seed(kind), put, read_back(kind)],
        ));
    }
    if kind.serves("patch") {
        let patch = json_step(
            "the mutation",
            "PATCH",
            with_query(&kind.object(), "dryRun=All"),
            "application/merge-patch+json",
            json!({"metadata": {"labels": {"dry": "run"}}}),
        );
        out.push(draft(
            Operation::MergePatch,
            Family::DryRun,
            "?dryRun",
            "a merge patch with dryRun=All",
            vec![create_seed(kind), patch, read_back(kind)],
        ));
        let mut applied = apply(kind, "apply", kind.seed.clone());
        applied.path = with_query(&applied.path, "dryRun=All");
        out.push(draft(
            Operation::Apply,
            Family::DryRun,
            "?dryRun",
            "an apply that would create, with dryRun=All",
            vec![applied, read_back(kind)],
        ));
    }
    if kind.serves("delete") {
        for (description, query) in [
            ("a delete with dryRun=All", "dryRun=All"),
            ("a delete with an empty dryRun", "dryRun="),
        ] {
            out.push(draft(
                Operation::Delete,
                Family::DryRun,
                "?dryRun",
                description,
                vec![
                    create_seed(kind),
                    step("delete", "DELETE", with_query(&kind.object(), query)),
                    read_back(kind),
                ],
            ));
        }
    }
    out
}

/// Unknown and duplicate fields under each `fieldValidation` value.
fn field_validation(kind: &Kind) -> Vec<Draft> {
    let mut bodies: Vec<(&str, Step)> = vec![
        (
            "an unknown top-level field",
            create(kind, "create", with(&kind.seed, "dfzUnknown", json!(1))),
        ),
        ("an unknown metadata field", {
            let mut seed = kind.seed.clone();
            if let Some(metadata) = seed.get_mut("metadata").and_then(Value::as_object_mut) {
                metadata.insert("dfzUnknown".into(), json!(1));
            }
            create(kind, "create", seed)
        }),
    ];
    if let Some(spec) = kind.seed.get("spec").and_then(Value::as_object) {
        let mut spec = spec.clone();
        spec.insert("dfzUnknown".into(), json!(1));
        bodies.push((
            "an unknown spec field",
            create(kind, "create", with(&kind.seed, "spec", Value::Object(spec))),
        ));
    }
    // The text of the seed with its apiVersion given twice.
    let text = kind.seed.to_string();
    let duplicated = format!(
        "{{\"apiVersion\":{},{}",
        kind.seed.get("apiVersion").cloned().unwrap_or(Value::Null),
        text.get(1..).unwrap_or("}")
    );
    bodies.push(("a duplicate field", {
        Step {
            creates_in: Some(kind.collection()),
            ..text_step(
                "create",
                "POST",
                with_query(&kind.collection(), &format!("fieldManager={MANAGER}")),
                "application/json",
                &duplicated,
            )
        }
    }));
    let mut out = Vec::new();
    for (what, body) in bodies {
        for validation in ["", "Strict", "Warn", "Ignore", "bogus"] {
            let mut create_step = body.clone();
            let description = if validation.is_empty() {
                format!("{what}, no fieldValidation")
            } else {
                create_step.path = with_query(&create_step.path, &format!("fieldValidation={validation}"));
                format!("{what}, fieldValidation={validation}")
            };
            out.push(draft(
                Operation::Create,
                Family::FieldValidation,
                "?fieldValidation",
                &description,
                vec![create_step],
            ));
        }
    }
    if kind.serves("patch") {
        for validation in ["Strict", "Warn"] {
            out.push(draft(
                Operation::MergePatch,
                Family::FieldValidation,
                "?fieldValidation",
                &format!("a merge patch with an unknown field, fieldValidation={validation}"),
                vec![
                    create_seed(kind),
                    json_step(
                        "the mutation",
                        "PATCH",
                        with_query(&kind.object(), &format!("fieldValidation={validation}")),
                        "application/merge-patch+json",
                        json!({"dfzUnknown": 1}),
                    ),
                ],
            ));
        }
    }
    out
}

const MERGE: &str = "application/merge-patch+json";
const JSON_PATCH: &str = "application/json-patch+json";

/// Malformed and conflicting patches of every kind: operation, description, media
/// type, body.
const BAD_PATCHES: &[(Operation, &str, &str, &str)] = &[
    (Operation::MergePatch, "not JSON", MERGE, "{not json"),
    (Operation::MergePatch, "a list", MERGE, "[1]"),
    (Operation::MergePatch, "null", MERGE, "null"),
    (Operation::MergePatch, "a string", MERGE, "\"text\""),
    (
        Operation::MergePatch,
        "a rename",
        MERGE,
        r#"{"metadata":{"name":"$NAME-renamed"}}"#,
    ),
    (
        Operation::MergePatch,
        "labels as a string",
        MERGE,
        r#"{"metadata":{"labels":"text"}}"#,
    ),
    (
        Operation::MergePatch,
        "a label value as a number",
        MERGE,
        r#"{"metadata":{"labels":{"a":1}}}"#,
    ),
    (
        Operation::MergePatch,
        "a stale resourceVersion",
        MERGE,
        r#"{"metadata":{"resourceVersion":"1"}}"#,
    ),
    (
        Operation::MergePatch,
        "another uid",
        MERGE,
        r#"{"metadata":{"uid":"00000000-0000-4000-8000-000000000001"}}"#,
    ),
    (Operation::MergePatch, "another kind", MERGE, r#"{"kind":"Other"}"#),
    (
        Operation::MergePatch,
        "another apiVersion",
        MERGE,
        r#"{"apiVersion":"v9"}"#,
    ),
    (Operation::JsonPatch, "an object", JSON_PATCH, "{}"),
    (Operation::JsonPatch, "not JSON", JSON_PATCH, "[{"),
    (
        Operation::JsonPatch,
        "an unknown op",
        JSON_PATCH,
        r#"[{"op":"bogus","path":"/metadata/labels"}]"#,
    ),
    (
        Operation::JsonPatch,
        "a remove of a missing path",
        JSON_PATCH,
        r#"[{"op":"remove","path":"/metadata/dfzMissing"}]"#,
    ),
    (
        Operation::JsonPatch,
        "a failing test",
        JSON_PATCH,
        r#"[{"op":"test","path":"/metadata/name","value":"other"}]"#,
    ),
    (
        Operation::JsonPatch,
        "a rename",
        JSON_PATCH,
        r#"[{"op":"replace","path":"/metadata/name","value":"$NAME-renamed"}]"#,
    ),
    (
        Operation::JsonPatch,
        "an add under a missing parent",
        JSON_PATCH,
        r#"[{"op":"add","path":"/metadata/dfzMissing/x","value":1}]"#,
    ),
    (
        Operation::JsonPatch,
        "a move from a missing path",
        JSON_PATCH,
        r#"[{"op":"move","from":"/metadata/dfzMissing","path":"/metadata/x"}]"#,
    ),
    (
        Operation::JsonPatch,
        "an add without a value",
        JSON_PATCH,
        r#"[{"op":"add","path":"/metadata/labels/x"}]"#,
    ),
    (
        Operation::JsonPatch,
        "an index past the end",
        JSON_PATCH,
        r#"[{"op":"add","path":"/metadata/finalizers/5","value":"example.com/x"}]"#,
    ),
    (
        Operation::JsonPatch,
        "the whole object replaced",
        JSON_PATCH,
        r#"[{"op":"replace","path":"","value":{}}]"#,
    ),
    (Operation::MergePatch, "a text/plain patch", "text/plain", "{}"),
    (
        Operation::MergePatch,
        "an application/json patch",
        "application/json",
        "{}",
    ),
];

/// Patches that are malformed, conflict with the object, or use a directive wrongly.
fn bad_patches(kind: &Kind) -> Vec<Draft> {
    let mut patches: Vec<(Operation, &str, &str, String)> = BAD_PATCHES
        .iter()
        .map(|(operation, description, content_type, body)| {
            (*operation, *description, *content_type, (*body).to_owned())
        })
        .collect();
    if kind.builtin {
        patches.extend(strategic_patches(kind));
    } else {
        patches.push((
            Operation::StrategicPatch,
            "a strategic merge patch of a custom resource",
            "application/strategic-merge-patch+json",
            "{}".into(),
        ));
    }
    let mut out: Vec<Draft> = patches
        .into_iter()
        .map(|(operation, description, content_type, body)| {
            draft(
                operation,
                Family::BadPatch,
                "body",
                description,
                vec![
                    create_seed(kind),
                    text_step("the mutation", "PATCH", kind.object(), content_type, &body),
                ],
            )
        })
        .collect();
    out.push(draft(
        Operation::MergePatch,
        Family::BadPatch,
        "path",
        "a merge patch of an object that does not exist",
        vec![json_step(
            "the mutation",
            "PATCH",
            kind.object(),
            MERGE,
            json!({"metadata": {"labels": {"a": "b"}}}),
        )],
    ));
    out
}

/// Strategic merge patches with directives used wrongly, on built-in kinds.
fn strategic_patches(kind: &Kind) -> Vec<(Operation, &'static str, &'static str, String)> {
    const SMP: &str = "application/strategic-merge-patch+json";
    let mut out = vec![
        (
            Operation::StrategicPatch,
            "$patch: bogus",
            SMP,
            r#"{"$patch":"bogus"}"#.to_owned(),
        ),
        (
            Operation::StrategicPatch,
            "an unknown directive",
            SMP,
            r#"{"metadata":{"$bogus":"x"}}"#.to_owned(),
        ),
        (
            Operation::StrategicPatch,
            "$patch: delete of the labels",
            SMP,
            r#"{"metadata":{"labels":{"$patch":"delete"}}}"#.to_owned(),
        ),
        (
            Operation::StrategicPatch,
            "$patch: replace of the labels",
            SMP,
            r#"{"metadata":{"labels":{"$patch":"replace","a":"b"}}}"#.to_owned(),
        ),
        (
            Operation::StrategicPatch,
            "$retainKeys naming a missing key",
            SMP,
            r#"{"metadata":{"$retainKeys":["dfzMissing"]}}"#.to_owned(),
        ),
        (Operation::StrategicPatch, "not JSON", SMP, "{not json".to_owned()),
    ];
    // The first list with a merge key: a delete directive without the key, an order
    // naming an item that is not there, a primitive-list deletion.
    if let Some(site) = kind
        .sites
        .iter()
        .find(|s| !s.merge_keys.is_empty() && s.value.is_some() && !s.in_status)
    {
        let tokens = crate::mutate::tokens(&site.pointer);
        if let Some((list, parents)) = tokens.split_last() {
            let wrap = |inner: Value| {
                parents
                    .iter()
                    .rev()
                    .fold(inner, |value, token| json!({ token.as_str(): value }))
                    .to_string()
            };
            let key = site.merge_keys.first().cloned().unwrap_or_default();
            out.push((
                Operation::StrategicPatch,
                "$patch: delete of an item without its merge key",
                SMP,
                wrap(json!({ list.as_str(): [{"$patch": "delete"}] })),
            ));
            out.push((
                Operation::StrategicPatch,
                "$setElementOrder naming a missing item",
                SMP,
                wrap(json!({ format!("$setElementOrder/{list}"): [{ key.as_str(): "dfz-missing" }] })),
            ));
            out.push((
                Operation::StrategicPatch,
                "$deleteFromPrimitiveList of a list of objects",
                SMP,
                wrap(json!({ format!("$deleteFromPrimitiveList/{list}"): ["x"] })),
            ));
        }
    }
    out
}

/// Server-side apply: missing field manager, bodies that do not fit, and a conflict
/// with another manager, forced and not.
fn apply_cases(kind: &Kind) -> Vec<Draft> {
    let apply_text = |description: &str, query: &str, content_type: &str, body: String| {
        draft(
            Operation::Apply,
            Family::BadPatch,
            "body",
            description,
            vec![Step {
                creates_in: Some(kind.collection()),
                ..text_step("apply", "PATCH", with_query(&kind.object(), query), content_type, &body)
            }],
        )
    };
    let manager = format!("fieldManager={MANAGER}");
    let yaml = serde_saphyr::to_string(&kind.seed).unwrap_or_default();
    let seed = kind.seed.to_string();
    let renamed = {
        let mut other = kind.seed.clone();
        if let Some(name) = other.pointer_mut("/metadata/name") {
            *name = json!("$NAME-other");
        }
        other.to_string()
    };
    vec![
        apply_text(
            "an apply without fieldManager",
            "",
            "application/apply-patch+yaml",
            seed.clone(),
        ),
        apply_text(
            "an apply with force=bogus",
            &format!("{manager}&force=bogus"),
            "application/apply-patch+yaml",
            seed.clone(),
        ),
        apply_text("an apply in YAML", &manager, "application/apply-patch+yaml", yaml),
        apply_text(
            "an apply of bad YAML",
            &manager,
            "application/apply-patch+yaml",
            "a: [b".into(),
        ),
        apply_text(
            "an apply without kind",
            &manager,
            "application/apply-patch+yaml",
            without(&kind.seed, "kind").to_string(),
        ),
        apply_text(
            "an apply without apiVersion",
            &manager,
            "application/apply-patch+yaml",
            without(&kind.seed, "apiVersion").to_string(),
        ),
        apply_text(
            "an apply naming another object",
            &manager,
            "application/apply-patch+yaml",
            renamed,
        ),
        apply_text(
            "an apply as application/apply-patch+json",
            &manager,
            "application/apply-patch+json",
            seed,
        ),
        apply_conflict(kind, false),
        apply_conflict(kind, true),
    ]
}

/// The seed created (its creator owns its labels), then applied by another manager
/// with a label changed, forced or not.
fn apply_conflict(kind: &Kind, force: bool) -> Draft {
    let mut changed = kind.seed.clone();
    if let Some(labels) = changed.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
        labels.insert("dfz-case".into(), json!("changed"));
    }
    let query = if force {
        "fieldManager=other&force=true"
    } else {
        "fieldManager=other"
    };
    draft(
        Operation::Apply,
        Family::BadPatch,
        "metadata.labels",
        if force {
            "an apply by another manager of a field the creator owns, forced"
        } else {
            "an apply by another manager of a field the creator owns"
        },
        vec![
            create_seed(kind),
            json_step(
                "apply",
                "PATCH",
                with_query(&kind.object(), query),
                "application/apply-patch+yaml",
                changed,
            ),
            read_back(kind),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::Resource;

    fn kind(builtin: bool, namespaced: bool) -> Kind {
        Kind {
            label: "Thing".into(),
            resource: Resource {
                api_version: "example.com/v1".into(),
                kind: "Thing".into(),
                plural: "things".into(),
                namespaced,
                verbs: ["create", "get", "list", "update", "patch", "delete", "watch"]
                    .map(String::from)
                    .to_vec(),
                status: false,
                scale: false,
            },
            seed: json!({"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {"name": "$NAME", "labels": {"dfz-case": "$NAME"}}, "spec": {"a": 1}}),
            builtin,
            sites: Vec::new(),
        }
    }

    #[test]
    fn a_duplicate_field_is_in_the_text() {
        let drafts = field_validation(&kind(false, true));
        let duplicate = drafts
            .iter()
            .find(|d| d.description == "a duplicate field, fieldValidation=Strict")
            .expect("the case");
        let Body::Text(text) = &duplicate.steps[0].body else {
            panic!("a text body")
        };
        assert_eq!(text.matches("\"apiVersion\"").count(), 2, "{text}");
        assert!(duplicate.steps[0].path.ends_with("fieldValidation=Strict"));
    }

    #[test]
    fn every_dry_run_is_followed_by_a_read() {
        for draft in dry_runs(&kind(true, true)) {
            assert_eq!(
                draft.steps.last().map(|s| s.method.as_str()),
                Some("GET"),
                "{}",
                draft.description
            );
        }
    }

    #[test]
    fn custom_resources_get_one_strategic_patch_which_must_fail() {
        let strategic: Vec<_> = bad_patches(&kind(false, true))
            .into_iter()
            .filter(|d| d.operation == Operation::StrategicPatch)
            .collect();
        assert_eq!(strategic.len(), 1);
        assert!(
            cases(&kind(false, false))
                .iter()
                .all(|d| d.description != "a namespace that does not exist")
        );
    }
}
