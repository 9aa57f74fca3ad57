//! Mutations: one change to a valid object (a field removed, emptied, given a wrong
//! type, a value out of range, a name past its limit, a list item duplicated, a value
//! changed on update), written as edits that apply to the seed, or to the object a
//! server answered when a case updates what it created. `walk` finds the fields of a
//! seed and its schema, `values` says which values fit each field, `metadata` covers
//! what every kind shares.

pub mod metadata;
pub mod values;
pub mod walk;

use clap::ValueEnum;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a mutation changes, the second axis of the agreement figures (the first is how
/// the request is sent, `plan::Operation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// The seed itself, unchanged, through every verb: defaults and what the server
    /// stores and answers.
    Seed,
    /// A field removed.
    Remove,
    /// A field set to `null`.
    Null,
    /// An empty string, list or map.
    Empty,
    /// A value of another JSON type.
    WrongType,
    /// A negative number.
    Negative,
    /// Zero.
    Zero,
    /// A number past its type's range.
    Huge,
    /// A fraction where an integer belongs.
    Fraction,
    /// A port number out of 1-65535, or at its edge.
    PortRange,
    /// Something that is not an IP address in an IP field.
    NotAnIp,
    /// Something that is not a CIDR in a CIDR field.
    NotACidr,
    /// A quantity that does not parse, or is negative.
    BadQuantity,
    /// A value an enum does not allow.
    BogusEnum,
    /// A name at and past its length limit (63, 253).
    NameLimit,
    /// A name with characters its rule forbids (uppercase, `_`, `:`, `/`, leading `-`).
    BadName,
    /// A label key or value at and past its limits.
    LabelLimit,
    /// A label key or value with characters the label rules forbid.
    BadLabel,
    /// Annotations at and past their size limits, or with bad keys.
    Annotations,
    /// Data keys and sizes (`ConfigMap`, `Secret`) past their limits.
    DataLimit,
    /// A list item duplicated, or a second item with the same merge key.
    Duplicate,
    /// A field the seed lacks, set (from the schema).
    AddOptional,
    /// A field's value changed on update: immutability and update rules.
    Change,
    /// Object metadata: generateName, finalizers, owner references, server-set fields.
    Metadata,
    /// `dryRun` values, and whether a dry run stored anything.
    DryRun,
    /// `fieldValidation` with unknown and duplicate fields.
    FieldValidation,
    /// Label and field selectors on lists.
    Selector,
    /// List options: limit, continue, resourceVersion and its match.
    ListOptions,
    /// Watches of mutated and valid objects.
    Watch,
    /// Malformed and conflicting patches of every patch type.
    BadPatch,
    /// Request shapes: missing or mismatched kind, apiVersion, name, namespace,
    /// resourceVersion, bodies and media types.
    RequestShape,
    /// Delete options: preconditions, propagation, grace, collections.
    DeleteOptions,
    /// The scale subresource.
    Scale,
    /// The status subresource.
    Status,
}

impl Family {
    /// The family's name as the command line and the report write it.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|value| value.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// One change to an object, by JSON pointer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Edit {
    /// Sets the value at `pointer`, making the objects above it if they are missing.
    Set {
        /// Where (RFC 6901).
        pointer: String,
        /// What.
        value: Value,
    },
    /// Removes the value at `pointer`, if it is there.
    Remove {
        /// Where.
        pointer: String,
    },
    /// Appends to the list at `pointer` a copy of its first item, with `changes`
    /// (field, value) set in the copy: a duplicate, or a second item with the same key.
    DuplicateFirst {
        /// The list.
        pointer: String,
        /// Fields changed in the copy.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        changes: Vec<(String, Value)>,
    },
}

impl Edit {
    /// Where the edit applies.
    pub fn pointer(&self) -> &str {
        match self {
            Self::Set { pointer, .. } | Self::Remove { pointer } | Self::DuplicateFirst { pointer, .. } => pointer,
        }
    }
}

/// One mutation of a field: what it is, in words and as edits.
#[derive(Debug, Clone, PartialEq)]
pub struct Mutation {
    /// Its family.
    pub family: Family,
    /// What it does, in a few words (`-1`, `64-character key`).
    pub description: String,
    /// The edits that make it.
    pub edits: Vec<Edit>,
}

impl Mutation {
    /// A mutation of one edit.
    pub fn new(family: Family, description: impl Into<String>, edit: Edit) -> Self {
        Self {
            family,
            description: description.into(),
            edits: vec![edit],
        }
    }
}

/// `document` with `edits` applied in order; an edit whose place does not exist (an
/// index past a list's end, a path through a scalar) is skipped.
pub fn apply(document: &Value, edits: &[Edit]) -> Value {
    let mut result = document.clone();
    for edit in edits {
        apply_one(&mut result, edit);
    }
    result
}

fn apply_one(document: &mut Value, edit: &Edit) {
    match edit {
        Edit::Set { pointer, value } => {
            let tokens = tokens(pointer);
            let Some((last, parents)) = tokens.split_last() else {
                *document = value.clone();
                return;
            };
            let mut current = document;
            for token in parents {
                let next = match current {
                    Value::Object(fields) => Some(
                        fields
                            .entry(token.clone())
                            .or_insert_with(|| Value::Object(serde_json::Map::new())),
                    ),
                    Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
                    _ => None,
                };
                let Some(next) = next else { return };
                if next.is_null() {
                    *next = Value::Object(serde_json::Map::new());
                }
                current = next;
            }
            match current {
                Value::Object(fields) => {
                    fields.insert(last.clone(), value.clone());
                }
                Value::Array(items) => {
                    if let Some(slot) = last.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                        *slot = value.clone();
                    }
                }
                _ => {}
            }
        }
        Edit::Remove { pointer } => {
            let tokens = tokens(pointer);
            let Some((last, parents)) = tokens.split_last() else {
                return;
            };
            let Some(parent) = document.pointer_mut(&to_pointer(parents)) else {
                return;
            };
            match parent {
                Value::Object(fields) => {
                    fields.remove(last);
                }
                Value::Array(items) => {
                    if let Some(index) = last.parse::<usize>().ok().filter(|i| *i < items.len()) {
                        items.remove(index);
                    }
                }
                _ => {}
            }
        }
        Edit::DuplicateFirst { pointer, changes } => {
            let Some(Value::Array(items)) = document.pointer_mut(pointer) else {
                return;
            };
            let Some(mut copy) = items.first().cloned() else {
                return;
            };
            for (field, value) in changes {
                if let Value::Object(fields) = &mut copy {
                    fields.insert(field.clone(), value.clone());
                }
            }
            items.push(copy);
        }
    }
}

/// The unescaped tokens of a JSON pointer.
pub fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// A JSON pointer of tokens, escaped.
pub fn to_pointer<S: AsRef<str>>(tokens: &[S]) -> String {
    tokens.iter().fold(String::new(), |mut out, token| {
        out.push('/');
        out.push_str(&token.as_ref().replace('~', "~0").replace('/', "~1"));
        out
    })
}

/// `pointer` extended by one token, escaped.
pub fn child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_makes_the_objects_above_it() {
        let edited = apply(
            &json!({"metadata": {"name": "x"}}),
            &[Edit::Set {
                pointer: child("/metadata/labels", "example.com/key"),
                value: json!("v"),
            }],
        );
        assert_eq!(
            edited,
            json!({"metadata": {"name": "x", "labels": {"example.com/key": "v"}}})
        );
    }

    #[test]
    fn set_and_remove_reach_into_lists_and_skip_what_is_not_there() {
        let document = json!({"spec": {"ports": [{"port": 80}, {"port": 81}]}});
        let edited = apply(
            &document,
            &[
                Edit::Set {
                    pointer: "/spec/ports/1/port".into(),
                    value: json!(-1),
                },
                Edit::Remove {
                    pointer: "/spec/ports/0".into(),
                },
                Edit::Set {
                    pointer: "/spec/ports/9/port".into(),
                    value: json!(1),
                },
                Edit::Remove {
                    pointer: "/spec/missing/x".into(),
                },
            ],
        );
        assert_eq!(edited, json!({"spec": {"ports": [{"port": -1}]}}));
    }

    #[test]
    fn duplicate_first_appends_a_changed_copy() {
        let edited = apply(
            &json!({"items": [{"name": "a", "image": "x"}]}),
            &[Edit::DuplicateFirst {
                pointer: "/items".into(),
                changes: vec![("image".into(), json!("y"))],
            }],
        );
        assert_eq!(
            edited,
            json!({"items": [{"name": "a", "image": "x"}, {"name": "a", "image": "y"}]})
        );
    }

    #[test]
    fn pointers_escape_and_unescape() {
        let pointer = to_pointer(&["a/b", "c~d"]);
        assert_eq!(pointer, "/a~1b/c~0d");
        assert_eq!(tokens(&pointer), vec!["a/b", "c~d"]);
        assert!(tokens("").is_empty());
    }

    #[test]
    fn families_have_kebab_case_names() {
        assert_eq!(Family::NotAnIp.name(), "not-an-ip");
        assert_eq!(Family::AddOptional.name(), "add-optional");
    }
}
