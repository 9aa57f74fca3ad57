//! What every kind shares: `metadata`. Names at and past their limits and with bad
//! characters (which rule applies differs by kind: DNS subdomain, DNS label, path
//! segment), `generateName`, labels, annotations, finalizers, owner references, and
//! the fields a server sets itself, sent on create and changed on update.
//!
//! Names are written with `$NAME` (the case's object name) and `$NAME{n}` (that name
//! padded to `n` characters), so each case's objects stay its own.

use serde_json::{Value, json};

use super::values::{annotation_entries, label_entries};
use super::{Edit, Family, Mutation, child};

/// A uid no object has.
const ALIEN_UID: &str = "00000000-0000-4000-8000-000000000001";

fn set(family: Family, description: &str, pointer: &str, value: Value) -> Mutation {
    Mutation::new(
        family,
        description,
        Edit::Set {
            pointer: pointer.to_owned(),
            value,
        },
    )
}

/// Names past their limits or with forbidden characters, for creates.
pub fn names() -> Vec<Mutation> {
    let name = |family, description, value: &str| set(family, description, "/metadata/name", json!(value));
    vec![
        name(Family::NameLimit, "63 characters", "$NAME{63}"),
        name(Family::NameLimit, "64 characters", "$NAME{64}"),
        name(Family::NameLimit, "253 characters", "$NAME{253}"),
        name(Family::NameLimit, "254 characters", "$NAME{254}"),
        name(Family::BadName, "upper case", "$NAME-Upper"),
        name(Family::BadName, "an underscore", "$NAME_b"),
        name(Family::BadName, "a colon", "$NAME:b"),
        name(Family::BadName, "a leading dash", "-$NAME"),
        name(Family::BadName, "a leading digit", "9$NAME"),
        name(Family::BadName, "a dot", "$NAME.b"),
        name(Family::BadName, "a slash", "$NAME/b"),
        name(Family::BadName, "a percent sign", "$NAME%b"),
        name(Family::BadName, "the name ..", ".."),
        name(Family::BadName, "an empty name", ""),
    ]
}

/// `generateName` with and without a name.
pub fn generate_name() -> Vec<Mutation> {
    let without_name = |description: &str, prefix: &str| Mutation {
        family: Family::Metadata,
        description: description.to_owned(),
        edits: vec![
            Edit::Remove {
                pointer: "/metadata/name".into(),
            },
            Edit::Set {
                pointer: "/metadata/generateName".into(),
                value: json!(prefix),
            },
        ],
    };
    vec![
        without_name("generateName only", "$NAME-"),
        without_name("a bad generateName only", "Bad_"),
        without_name("a 70-character generateName", "$NAME{70}"),
        Mutation::new(
            Family::Metadata,
            "neither name nor generateName",
            Edit::Remove {
                pointer: "/metadata/name".into(),
            },
        ),
    ]
}

/// Labels and annotations added to the object's own metadata.
pub fn labels_and_annotations() -> Vec<Mutation> {
    let labels = |family: Family, description: &str, key: &str, value: Value| {
        set(family, description, &child("/metadata/labels", key), value)
    };
    let annotations = |family: Family, description: &str, key: &str, value: Value| {
        set(family, description, &child("/metadata/annotations", key), value)
    };
    let mut out = label_entries(&labels);
    out.extend(annotation_entries(&annotations));
    out
}

/// Finalizers, owner references and the fields a server sets itself, given on create.
pub fn create_fields(namespaced: bool) -> Vec<Mutation> {
    let meta = |description: &str, field: &str, value: Value| {
        set(Family::Metadata, description, &format!("/metadata/{field}"), value)
    };
    let mut out = vec![
        meta("a qualified finalizer", "finalizers", json!(["example.com/cleanup"])),
        meta("a finalizer without a domain", "finalizers", json!(["cleanup"])),
        meta("a finalizer with a space", "finalizers", json!(["bad finalizer"])),
        meta(
            "a finalizer twice",
            "finalizers",
            json!(["example.com/a", "example.com/a"]),
        ),
        meta("the finalizer kubernetes", "finalizers", json!(["kubernetes"])),
        meta("a finalizer with two slashes", "finalizers", json!(["a/b/c"])),
        meta("a resourceVersion", "resourceVersion", json!("1")),
        meta("a uid", "uid", json!(ALIEN_UID)),
        meta(
            "a creationTimestamp",
            "creationTimestamp",
            json!("2000-01-01T00:00:00Z"),
        ),
        meta(
            "a deletionTimestamp",
            "deletionTimestamp",
            json!("2000-01-01T00:00:00Z"),
        ),
        meta("deletionGracePeriodSeconds", "deletionGracePeriodSeconds", json!(30)),
        meta("a generation", "generation", json!(7)),
        meta("a selfLink", "selfLink", json!("/bogus")),
        meta(
            "managedFields with a bad operation",
            "managedFields",
            json!([{"manager": "x", "operation": "Bogus"}]),
        ),
        meta(
            "managedFields of another manager",
            "managedFields",
            json!([{"manager": "other", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:metadata": {"f:labels": {}}}}]),
        ),
    ];
    out.extend(owner_references());
    if namespaced {
        out.push(meta(
            "another namespace than the URL's",
            "namespace",
            json!("other-namespace"),
        ));
        out.push(meta("an empty namespace", "namespace", json!("")));
    }
    out
}

/// Owner references complete and missing each of their required fields, and two
/// controllers.
fn owner_references() -> Vec<Mutation> {
    let meta = |description: &str, field: &str, value: Value| {
        set(Family::Metadata, description, &format!("/metadata/{field}"), value)
    };
    let owner = |fields: Value| {
        let mut reference = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": ALIEN_UID});
        if let (Some(target), Some(extra)) = (reference.as_object_mut(), fields.as_object()) {
            for (key, value) in extra {
                if value.is_null() {
                    target.remove(key);
                } else {
                    target.insert(key.clone(), value.clone());
                }
            }
        }
        reference
    };
    vec![
        meta("an owner reference", "ownerReferences", json!([owner(json!({}))])),
        meta(
            "an owner reference without a uid",
            "ownerReferences",
            json!([owner(json!({"uid": null}))]),
        ),
        meta(
            "an owner reference without a name",
            "ownerReferences",
            json!([owner(json!({"name": null}))]),
        ),
        meta(
            "an owner reference without a kind",
            "ownerReferences",
            json!([owner(json!({"kind": null}))]),
        ),
        meta(
            "an owner reference without an apiVersion",
            "ownerReferences",
            json!([owner(json!({"apiVersion": null}))]),
        ),
        meta(
            "an owner reference with a bad apiVersion",
            "ownerReferences",
            json!([owner(json!({"apiVersion": "a/b/c"}))]),
        ),
        meta(
            "two controller owner references",
            "ownerReferences",
            json!([
                owner(json!({"controller": true})),
                owner(json!({"controller": true, "name": "other", "uid": "00000000-0000-4000-8000-000000000002"}))
            ]),
        ),
        meta(
            "blockOwnerDeletion without controller",
            "ownerReferences",
            json!([owner(json!({"blockOwnerDeletion": true}))]),
        ),
    ]
}

/// Metadata changed by an update: fields a client may not change, and a rename.
pub fn updates(namespaced: bool) -> Vec<Mutation> {
    let meta = |description: &str, field: &str, value: Value| {
        set(Family::Metadata, description, &format!("/metadata/{field}"), value)
    };
    let mut out = vec![
        meta("the name changed", "name", json!("$NAME-renamed")),
        meta("the uid changed", "uid", json!(ALIEN_UID)),
        meta(
            "the creationTimestamp changed",
            "creationTimestamp",
            json!("2000-01-01T00:00:00Z"),
        ),
        meta("the generation changed", "generation", json!(99)),
        meta(
            "a deletionTimestamp set",
            "deletionTimestamp",
            json!("2000-01-01T00:00:00Z"),
        ),
        meta("a generateName set", "generateName", json!("other-")),
        meta("a finalizer added", "finalizers", json!(["example.com/cleanup"])),
        meta("a bad finalizer added", "finalizers", json!(["bad finalizer"])),
        meta("a label added", "labels", json!({"added": "yes"})),
        meta("the resourceVersion made stale", "resourceVersion", json!("1")),
        meta("the resourceVersion not a number", "resourceVersion", json!("abc")),
        Mutation::new(
            Family::Metadata,
            "the resourceVersion left out",
            Edit::Remove {
                pointer: "/metadata/resourceVersion".into(),
            },
        ),
    ];
    if namespaced {
        out.push(meta("the namespace changed", "namespace", json!("other-namespace")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_the_case_name_so_cases_never_collide() {
        for mutation in names() {
            let Edit::Set { value, .. } = &mutation.edits[0] else {
                panic!("a name is set")
            };
            let name = value.as_str().unwrap_or_default();
            assert!(
                name.contains("$NAME") || matches!(name, ".." | ""),
                "{}",
                mutation.description
            );
        }
    }

    #[test]
    fn namespace_mutations_are_for_namespaced_kinds_only() {
        let count = |namespaced| {
            create_fields(namespaced)
                .iter()
                .filter(|m| m.edits[0].pointer() == "/metadata/namespace")
                .count()
        };
        assert_eq!((count(true), count(false)), (2, 0));
        assert!(updates(true).len() > updates(false).len());
    }

    #[test]
    fn an_owner_reference_loses_the_field_it_lacks() {
        let mutations = create_fields(false);
        let without_uid = mutations
            .iter()
            .find(|m| m.description == "an owner reference without a uid")
            .expect("the mutation");
        let Edit::Set { value, .. } = &without_uid.edits[0] else {
            panic!("set")
        };
        assert!(value[0].get("uid").is_none() && value[0].get("name").is_some());
    }
}
