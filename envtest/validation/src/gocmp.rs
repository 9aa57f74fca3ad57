//! go-cmp's `cmp.Diff`, as kube-apiserver prints it in the messages of updates it
//! forbids (`pod updates may not change fields other than ...`, a claim's or a
//! volume's immutable spec). Kube compares its internal Go structs, so the port
//! carries their model: each struct's fields in declaration order, named types,
//! pointers, nil against empty lists, and the two methods go-cmp calls
//! (`resource.Quantity`'s `Equal`, a few types' `String`).
//!
//! | go-cmp | here |
//! |---|---|
//! | `compareAny`, `compareStruct`, `compareSlice`, `compareMap`, `comparePtr`, the validator option, `tryMethod` (`Quantity.Equal`) | `compare::compare` |
//! | `internal/diff.Difference`, `path.connect`, `zigzag` | `compare::difference` |
//! | `valueNode.PushStep`/`Report`/`PopStep` | `compare::Node` |
//! | `FormatDiff`, `formatDiffList`, `coalesceAdjacentRecords` | `report::Options::format_diff`, `format_diff_list` |
//! | `FormatValue`, `FormatType`, `wrapParens`, `formatMapKey`, `formatString` | `report::Options::format_value`, ... |
//! | `CanFormatDiffSlice`, `FormatDiffSlice`, `formatDiffSlice`, the three group passes | `report::Options::can_format_diff_slice`, ... |
//! | `textWrap`, `textList`, `textLine`, `diffStats` (compact and expanded layout) | `text` |
//! | pointer references (`report_references.go`) | not ported: they print only for cycles and shared pointers, which decoded specs do not have |
//!
//! go-cmp draws one random bit per process that picks the edit script's search
//! direction and whether lines are indented with spaces or non-breaking spaces
//! (so that nobody relies on its output); this port is the draw with plain spaces,
//! whose search starts forward.

mod compare;
mod report;
mod tables;
mod text;
mod types;
mod value;

use serde_json::{Map, Value};

use types::Ty;
use value::{Source, Val};

/// `cmp.Diff(old, new)` of two values of the internal type `type_name`
/// (`core.PodSpec`), given as v1 JSON: `old` as stored (decoded from protobuf,
/// where an empty list is nil), `new` as the request decoded it. Empty when they
/// are equal, or when the type is not modelled.
pub(crate) fn diff(type_name: &str, old: &Value, new: &Value) -> String {
    let Some(ty) = Ty::named(type_name) else {
        return String::new();
    };
    let (old, new) = if type_name == "core.PodSpec" {
        (internal_pod_spec(old), internal_pod_spec(new))
    } else {
        (old.clone(), new.clone())
    };
    let x = Val::decode(Some(&old), ty, Source::Storage);
    let y = Val::decode(Some(&new), ty, Source::Request);
    let root = compare::compare(ty, Some(&x), Some(&y));
    if root.num_diff == 0 {
        return String::new();
    }
    report::report(&root)
}

/// `Convert_v1_PodSpec_To_core_PodSpec`'s own steps: the host namespace fields move
/// into the pod's security context (made when absent) and `serviceAccount` stands in
/// for an empty `serviceAccountName`; and `Convert_v1_Pod_To_core_Pod`'s: a negative
/// grace period is read as 1 (the specs compared here are always a Pod's).
fn internal_pod_spec(spec: &Value) -> Value {
    let mut spec = spec.clone();
    let Some(object) = spec.as_object_mut() else {
        return spec;
    };
    let mut context = match object.remove("securityContext") {
        Some(Value::Object(context)) => context,
        _ => Map::new(),
    };
    for field in [
        "hostNetwork",
        "hostPID",
        "hostIPC",
        "shareProcessNamespace",
        "hostUsers",
    ] {
        match object.get(field) {
            Some(value) => context.insert(field.to_owned(), value.clone()),
            None => context.remove(field),
        };
    }
    object.insert("securityContext".to_owned(), Value::Object(context));
    let account_name_empty = object
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty);
    if account_name_empty && let Some(account) = object.get("serviceAccount").cloned() {
        object.insert("serviceAccountName".to_owned(), account);
    }
    let negative_grace = object
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64)
        .is_some_and(|grace| grace < 0);
    if negative_grace {
        object.insert("terminationGracePeriodSeconds".to_owned(), Value::from(1));
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Specs and the `cmp.Diff` Go printed for them: kube's own types decoded as the
    /// server decodes them (the old spec through protobuf, as it is stored), converted
    /// to internal types, compared by go-cmp in a process that drew plain spaces.
    const CASES: &str = include_str!("gocmp/testdata/cases.jsonl");

    #[test]
    fn diffs_are_go_cmps() {
        let cases = std::env::var("GOCMP_CASES")
            .map_or_else(|_| CASES.to_owned(), |path| std::fs::read_to_string(path).unwrap());
        let mut failures = Vec::new();
        let mut count = 0;
        for line in cases.lines() {
            let case: Value = serde_json::from_str(line).unwrap();
            let got = diff(case["type"].as_str().unwrap(), &case["old"], &case["new"]);
            count += 1;
            if got != case["diff"].as_str().unwrap() {
                failures.push(format!(
                    "{line}\n--- got\n{got}\n--- want\n{}",
                    case["diff"].as_str().unwrap()
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {count} differ; first:\n{}",
            failures.len(),
            failures.first().map_or("", String::as_str)
        );
    }
}
