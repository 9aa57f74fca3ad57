//! Request-level cases of subresources and deletes: `/scale` read and written with
//! replicas out of range and mismatched metadata, `/status` writes that also touch
//! what they may not, and deletes with options, preconditions and collections.

use serde_json::json;

use super::requests::{draft, text_step};
use super::writes::{create_seed, put_edited};
use super::{Draft, Kind, Operation, json_step, read_back, step, with_query};
use crate::mutate::{Edit, Family, values};

/// Every subresource and delete case of `kind`.
pub(super) fn cases(kind: &Kind) -> Vec<Draft> {
    if !kind.resource.is_stored() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if kind.resource.scale {
        out.extend(scale(kind));
    }
    if kind.resource.status && kind.serves("update") {
        out.extend(status(kind));
    }
    if kind.serves("delete") {
        out.extend(deletes(kind));
    }
    out
}

/// `/scale`: read, written with replicas of every kind, patched, and with mismatched
/// metadata; each followed by a read of the object, which shows what was stored.
fn scale(kind: &Kind) -> Vec<Draft> {
    let scale = format!("{}/scale", kind.object());
    let get_scale = || step("read the scale", "GET", scale.clone());
    let mut out = vec![draft(
        Operation::Scale,
        Family::Scale,
        "spec.replicas",
        "the scale read",
        vec![create_seed(kind), get_scale()],
    )];
    let replicas = [
        ("replicas -1", json!(-1)),
        ("replicas 0", json!(0)),
        ("replicas 3", json!(3)),
        ("replicas as the string \"3\"", json!("3")),
        ("replicas 2^31", json!(2_147_483_648_u64)),
        ("replicas 1.5", json!(1.5)),
        ("replicas null", json!(null)),
    ];
    for (description, value) in replicas {
        let edit = Edit::Set {
            pointer: "/spec/replicas".into(),
            value,
        };
        out.push(draft(
            Operation::Scale,
            Family::Scale,
            "spec.replicas",
            &format!("a scale PUT of {description}"),
            vec![
                create_seed(kind),
                get_scale(),
                put_edited(kind, &scale, vec![edit]),
                read_back(kind),
            ],
        ));
    }
    let metadata = [
        (
            "a scale PUT naming another object",
            "/metadata/name",
            json!("$NAME-other"),
        ),
        (
            "a scale PUT with a stale resourceVersion",
            "/metadata/resourceVersion",
            json!("1"),
        ),
        (
            "a scale PUT with another uid",
            "/metadata/uid",
            json!("00000000-0000-4000-8000-000000000001"),
        ),
    ];
    for (description, pointer, value) in metadata {
        let edit = Edit::Set {
            pointer: pointer.into(),
            value,
        };
        out.push(draft(
            Operation::Scale,
            Family::Scale,
            "metadata",
            description,
            vec![
                create_seed(kind),
                get_scale(),
                put_edited(kind, &scale, vec![edit]),
                read_back(kind),
            ],
        ));
    }
    out.extend(scale_patches(kind, &scale));
    out
}

/// `/scale` patched by every patch type, each followed by a read of the object.
fn scale_patches(kind: &Kind, scale: &str) -> Vec<Draft> {
    let mut out = Vec::new();
    let patches = [
        (
            "a scale merge patch of replicas -1",
            "application/merge-patch+json",
            r#"{"spec":{"replicas":-1}}"#,
        ),
        (
            "a scale merge patch of replicas 4",
            "application/merge-patch+json",
            r#"{"spec":{"replicas":4}}"#,
        ),
        (
            "a scale JSON patch of replicas 5",
            "application/json-patch+json",
            r#"[{"op":"replace","path":"/spec/replicas","value":5}]"#,
        ),
        (
            "a scale merge patch of the selector",
            "application/merge-patch+json",
            r#"{"status":{"selector":"a=b"}}"#,
        ),
        (
            "a scale apply of replicas 2",
            "application/apply-patch+yaml",
            r#"{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"$NAME"},"spec":{"replicas":2}}"#,
        ),
    ];
    for (description, content_type, body) in patches {
        let path = if content_type.starts_with("application/apply") {
            with_query(scale, "fieldManager=scaler")
        } else {
            scale.to_owned()
        };
        out.push(draft(
            Operation::Scale,
            Family::Scale,
            "spec.replicas",
            description,
            vec![
                create_seed(kind),
                text_step("the mutation", "PATCH", path, content_type, body),
                read_back(kind),
            ],
        ));
    }
    out
}

/// `/status`: read, written unchanged, written with a spec and a label changed too
/// (which a status write must not store), merge-patched.
fn status(kind: &Kind) -> Vec<Draft> {
    let status = format!("{}/status", kind.object());
    let seed_status = kind.seed.get("status").cloned().unwrap_or_else(|| json!({}));
    let with_status = |mut edits: Vec<Edit>| {
        edits.insert(
            0,
            Edit::Set {
                pointer: "/status".into(),
                value: seed_status.clone(),
            },
        );
        edits
    };
    let mut out = vec![
        draft(
            Operation::Status,
            Family::Status,
            "status",
            "the status read",
            vec![create_seed(kind), step("read the status", "GET", status.clone())],
        ),
        draft(
            Operation::Status,
            Family::Status,
            "status",
            "the seed's status written",
            vec![
                create_seed(kind),
                put_edited(kind, &status, with_status(Vec::new())),
                read_back(kind),
            ],
        ),
        draft(
            Operation::Status,
            Family::Status,
            "metadata.labels",
            "a status write that adds a label",
            vec![
                create_seed(kind),
                put_edited(
                    kind,
                    &status,
                    with_status(vec![Edit::Set {
                        pointer: "/metadata/labels/status-write".into(),
                        value: json!("yes"),
                    }]),
                ),
                read_back(kind),
            ],
        ),
        draft(
            Operation::Status,
            Family::Status,
            "status",
            "a status merge patch of the seed's status",
            vec![
                create_seed(kind),
                json_step(
                    "the mutation",
                    "PATCH",
                    status.clone(),
                    "application/merge-patch+json",
                    json!({ "status": seed_status }),
                ),
                read_back(kind),
            ],
        ),
    ];
    // A status write that also changes the spec: the first spec field that changes.
    let spec_change = kind
        .sites
        .iter()
        .filter(|site| site.pointer.starts_with("/spec/"))
        .find_map(values::change);
    if let Some(change) = spec_change {
        out.push(draft(
            Operation::Status,
            Family::Status,
            "spec",
            &format!("a status write that also changes {}", change.edits[0].pointer()),
            vec![
                create_seed(kind),
                put_edited(kind, &status, with_status(change.edits)),
                read_back(kind),
            ],
        ));
    }
    out
}

/// Deletes: of nothing, with options out of range or contradicting each other, with
/// preconditions, and of collections (namespaced kinds only, in the run's namespace).
fn deletes(kind: &Kind) -> Vec<Draft> {
    let delete_with = |description: &str, query: &str| {
        draft(
            Operation::Delete,
            Family::DeleteOptions,
            "?options",
            description,
            vec![
                create_seed(kind),
                step("delete", "DELETE", with_query(&kind.object(), query)),
                read_back(kind),
            ],
        )
    };
    let delete_body = |description: &str, body: &str| {
        draft(
            Operation::Delete,
            Family::DeleteOptions,
            "body",
            description,
            vec![
                create_seed(kind),
                text_step("delete", "DELETE", kind.object(), "application/json", body),
                read_back(kind),
            ],
        )
    };
    let mut out = vec![
        draft(
            Operation::Delete,
            Family::DeleteOptions,
            "path",
            "a delete of an object that does not exist",
            vec![step("delete", "DELETE", kind.object())],
        ),
        delete_with("propagationPolicy=Bogus", "propagationPolicy=Bogus"),
        delete_with("gracePeriodSeconds=-1", "gracePeriodSeconds=-1"),
        delete_with(
            "orphanDependents with propagationPolicy",
            "orphanDependents=true&propagationPolicy=Foreground",
        ),
        delete_with("propagationPolicy=Orphan", "propagationPolicy=Orphan"),
        delete_body(
            "a uid precondition that does not hold",
            r#"{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"00000000-0000-4000-8000-000000000001"}}"#,
        ),
        delete_body(
            "a resourceVersion precondition that does not hold",
            r#"{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"1"}}"#,
        ),
        delete_body("options that are not JSON", "{not json"),
        delete_body("options of another kind", r#"{"kind":"Pod","apiVersion":"v1"}"#),
    ];
    if kind.resource.namespaced && kind.serves("deletecollection") {
        let collection = |description: &str, query: &str| {
            draft(
                Operation::Delete,
                Family::DeleteOptions,
                "?labelSelector",
                description,
                vec![
                    create_seed(kind),
                    step("delete the collection", "DELETE", with_query(&kind.collection(), query)),
                    read_back(kind),
                ],
            )
        };
        out.push(collection(
            "a collection delete by label",
            "labelSelector=dfz-case%3D$NAME",
        ));
        out.push(collection(
            "a collection delete with a bad selector",
            "labelSelector=-bad",
        ));
        out.push(collection(
            "a collection delete by field, dry run",
            "fieldSelector=metadata.name%3D$NAME&dryRun=All",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::Resource;

    fn kind(namespaced: bool) -> Kind {
        Kind {
            label: "Deployment".into(),
            resource: Resource {
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                plural: "deployments".into(),
                namespaced,
                verbs: ["create", "get", "list", "update", "patch", "delete", "deletecollection"]
                    .map(String::from)
                    .to_vec(),
                status: true,
                scale: true,
            },
            seed: json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "$NAME"}}),
            builtin: true,
            sites: Vec::new(),
        }
    }

    #[test]
    fn scale_writes_are_read_back() {
        let drafts = cases(&kind(true));
        let puts: Vec<_> = drafts
            .iter()
            .filter(|d| d.operation == Operation::Scale && d.description.starts_with("a scale PUT"))
            .collect();
        assert!(puts.len() >= 7);
        assert!(
            puts.iter()
                .all(|d| d.steps.last().is_some_and(|s| s.label == "read back"))
        );
    }

    #[test]
    fn collection_deletes_stay_in_the_namespace() {
        let namespaced = cases(&kind(true));
        assert!(
            namespaced
                .iter()
                .any(|d| d.description == "a collection delete by label")
        );
        let collection = format!("{}?", kind(true).collection());
        assert!(collection.contains("/namespaces/$NAMESPACE/"));
        for draft in &namespaced {
            for step in &draft.steps {
                if step.method == "DELETE" && step.path.starts_with(&collection) {
                    assert!(step.path.contains("labelSelector=") || step.path.contains("fieldSelector="));
                }
            }
        }
        assert!(
            cases(&kind(false))
                .iter()
                .all(|d| !d.description.starts_with("a collection delete"))
        );
    }
}
