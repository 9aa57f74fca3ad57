//! The Tables of custom resources: a Name column, then the CRD version's
//! `additionalPrinterColumns` (an Age column when it declares none), each cell found
//! by its `JSONPath` and typed as the column says. kube-apiserver does this in
//! `apiextensions-apiserver/pkg/registry/customresource/tableconvertor/tableconvertor.go`
//! (and `serveDefaultColumnsIfEmpty` in `apiserver/customresource_handler.go`).

use serde_json::{Value, json};
use serde_json_path::JsonPath;

use super::builtin::{CREATED, Column, NAME};
use super::human::since;

/// One printer column of a CRD version: its definition and its compiled path (None
/// when the path does not parse; such cells are empty).
pub(super) struct PrinterColumn {
    pub column: Column,
    path: Option<JsonPath>,
}

/// The columns of a CRD's `version`: Name first, then what the CRD declares.
pub(super) fn columns(crd: &Value, version: &str) -> Vec<PrinterColumn> {
    let declared = crd["spec"]["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|v| v["name"] == version)
        .and_then(|v| v["additionalPrinterColumns"].as_array())
        .filter(|columns| !columns.is_empty())
        .cloned()
        .unwrap_or_else(|| {
            vec![json!({"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp", "description": CREATED})]
        });
    let mut columns = vec![PrinterColumn {
        column: Column {
            name: "Name".into(),
            kind: "string".into(),
            format: "name".into(),
            priority: 0,
            description: NAME.into(),
        },
        path: None,
    }];
    for declared in declared {
        let json_path = declared["jsonPath"].as_str().unwrap_or_default();
        let description = declared["description"].as_str().filter(|d| !d.is_empty()).map_or_else(
            || format!("Custom resource definition column (in JSONPath format): {json_path}"),
            str::to_owned,
        );
        columns.push(PrinterColumn {
            column: Column {
                name: declared["name"].as_str().unwrap_or_default().to_owned(),
                kind: declared["type"].as_str().unwrap_or_default().to_owned(),
                format: declared["format"].as_str().unwrap_or_default().to_owned(),
                priority: declared["priority"].as_i64().unwrap_or(0),
                description,
            },
            path: JsonPath::parse(&to_rfc9535(json_path)).ok(),
        });
    }
    columns
}

/// The cells of one custom object.
pub(super) fn cells(columns: &[PrinterColumn], object: &Value) -> Vec<Value> {
    let mut cells = vec![object["metadata"]["name"].clone()];
    for printer in columns.iter().skip(1) {
        let found = printer.path.as_ref().and_then(|path| path.query(object).first());
        cells.push(match found {
            None | Some(Value::Null) => Value::Null,
            Some(value) => cell(&printer.column.kind, value),
        });
    }
    cells
}

/// `cellForJSONValue`, and `JSONPath`'s printing for string columns (maps and lists as
/// JSON, numbers and booleans as text).
fn cell(kind: &str, value: &Value) -> Value {
    match (kind, value) {
        ("string", Value::String(_)) | ("boolean", Value::Bool(_)) => value.clone(),
        ("string", other) => Value::String(other.to_string()),
        ("integer", Value::Number(n)) => n
            .as_i64()
            .or_else(|| n.as_f64().map(truncate))
            .map_or(Value::Null, Value::from),
        ("number", Value::Number(n)) => n.as_f64().map_or(Value::Null, Value::from),
        ("date", Value::String(text)) => {
            if text.parse::<jiff::Timestamp>().is_ok() {
                Value::String(since(value))
            } else {
                Value::String("<invalid>".into())
            }
        }
        _ => Value::Null,
    }
}

#[expect(
    clippy::cast_possible_truncation,
    reason = "Go's int64(float64) truncates the same way"
)]
fn truncate(n: f64) -> i64 {
    n as i64
}

/// A Kubernetes `JSONPath` as CRDs write it (`.status.conditions[?(@.type=="Ready")].status`,
/// no `$`, no braces) in RFC 9535 syntax: `$` first, and dotted names in brackets so
/// names with dashes and other characters the RFC's shorthand refuses still work.
pub(super) fn to_rfc9535(path: &str) -> String {
    let path = path.trim().trim_start_matches('{').trim_end_matches('}');
    let mut out = String::from("$");
    let mut chars = path.trim_start_matches('$').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                let mut name = String::new();
                while let Some(&next) = chars.peek() {
                    if next == '.' || next == '[' {
                        break;
                    }
                    // `\.` escapes a dot inside a name, as in label keys.
                    if next == '\\' {
                        chars.next();
                        if let Some(escaped) = chars.next() {
                            name.push(escaped);
                        }
                        continue;
                    }
                    name.push(next);
                    chars.next();
                }
                if name == "*" {
                    out.push_str("[*]");
                } else if !name.is_empty() {
                    let quoted = name.replace('\\', "\\\\").replace('\'', "\\'");
                    out.push_str("['");
                    out.push_str(&quoted);
                    out.push_str("']");
                }
            }
            '[' => {
                // Copy a bracket segment whole, quotes and nested parentheses included.
                out.push('[');
                let mut depth = 1;
                let mut quote: Option<char> = None;
                for next in chars.by_ref() {
                    out.push(next);
                    match (quote, next) {
                        (Some(q), c) if c == q => quote = None,
                        (None, '\'' | '"') => quote = Some(next),
                        (None, '[') => depth += 1,
                        (None, ']') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_paths_become_rfc_9535_paths() {
        assert_eq!(to_rfc9535(".spec.replicas"), "$['spec']['replicas']");
        assert_eq!(
            to_rfc9535(".status.conditions[?(@.type==\"Ready\")].status"),
            "$['status']['conditions'][?(@.type==\"Ready\")]['status']"
        );
        assert_eq!(
            to_rfc9535(".metadata.labels.app\\.kubernetes\\.io/name"),
            "$['metadata']['labels']['app.kubernetes.io/name']"
        );
        assert_eq!(
            to_rfc9535(".spec.items[0].ready-replicas"),
            "$['spec']['items'][0]['ready-replicas']"
        );
    }

    #[test]
    fn cells_are_typed_as_the_columns_say() {
        let crd = json!({"spec": {"versions": [{"name": "v1", "additionalPrinterColumns": [
            {"name": "Image", "type": "string", "jsonPath": ".spec.image"},
            {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas", "description": "how many"},
            {"name": "Ready", "type": "boolean", "jsonPath": ".status.conditions[?(@.type==\"Ready\")].status", "priority": 1},
            {"name": "Ratio", "type": "number", "jsonPath": ".spec.ratio"},
            {"name": "Tags", "type": "string", "jsonPath": ".spec.tags"},
            {"name": "Missing", "type": "string", "jsonPath": ".spec.nothing"},
            {"name": "Started", "type": "date", "jsonPath": ".status.started"},
        ]}]}});
        let columns = columns(&crd, "v1");
        let names: Vec<&str> = columns.iter().map(|c| c.column.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Name", "Image", "Replicas", "Ready", "Ratio", "Tags", "Missing", "Started"
            ]
        );
        assert_eq!(columns[2].column.description, "how many");
        assert_eq!(
            columns[1].column.description,
            "Custom resource definition column (in JSONPath format): .spec.image"
        );
        assert_eq!(columns[3].column.priority, 1);
        let object = json!({"metadata": {"name": "w1"},
            "spec": {"image": "nginx:1", "replicas": 3, "ratio": 0.5, "tags": ["a", "b"]},
            "status": {"conditions": [{"type": "Ready", "status": "True"}], "started": "not a time"}});
        // As the real server: a boolean column shows nothing for the string "True".
        assert_eq!(
            cells(&columns, &object),
            vec![
                json!("w1"),
                json!("nginx:1"),
                json!(3),
                Value::Null,
                json!(0.5),
                json!("[\"a\",\"b\"]"),
                Value::Null,
                json!("<invalid>")
            ]
        );
    }

    #[test]
    fn a_version_without_columns_gets_age() {
        let columns = columns(&json!({"spec": {"versions": [{"name": "v1"}]}}), "v1");
        let names: Vec<(&str, &str)> = columns
            .iter()
            .map(|c| (c.column.name.as_str(), c.column.kind.as_str()))
            .collect();
        assert_eq!(names, [("Name", "string"), ("Age", "date")]);
        assert_eq!(columns[1].column.description, CREATED);
    }
}
