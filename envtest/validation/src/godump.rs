//! Values as Go's `%#v` prints them, for the field errors whose value is a Go slice,
//! map or struct (`field.Invalid(path, finalizers, ...)` shows `[]string{"a", "b"}`).
//! Pointers print as `(*T)(0x...)` in Go, with an address that changes on every
//! request; here they print with a fixed address of the same shape.

use std::fmt::Write as _;

use serde_json::Value;

use crate::field::BadValue;
use crate::json::{entries, items, text};

/// The address a non-nil pointer prints with (Go prints the real, random one).
const ADDRESS: &str = "0xc000a1b2c0";

/// `%q` of a string.
pub(crate) fn quote(value: &str) -> String {
    wheelhouse_envtest_schema::errors::go_quote(value)
}

/// `[]string{"a", "b"}` (`[]string(nil)` when empty and absent).
pub(crate) fn string_slice(type_name: &str, value: &Value) -> String {
    if value.is_null() {
        return format!("[]{type_name}(nil)");
    }
    let quoted: Vec<String> = items(value).iter().map(|item| quote(text(item))).collect();
    format!("[]{type_name}{{{}}}", quoted.join(", "))
}

/// `[]string{"a", "b"}` of plain strings.
pub(crate) fn strings(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| quote(v)).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

/// `map[string]string{"a":"b"}`, keys sorted as `fmt` sorts them.
pub(crate) fn string_map(value: &Value) -> String {
    if value.is_null() {
        return "map[string]string(nil)".to_owned();
    }
    let mut pairs: Vec<(&String, &str)> = entries(value).map(|(k, v)| (k, text(v))).collect();
    pairs.sort();
    let printed: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{}", quote(k), quote(v)))
        .collect();
    format!("map[string]string{{{}}}", printed.join(", "))
}

/// A pointer field: `(*T)(nil)` or `(*T)(0x...)`.
pub(crate) fn pointer(type_name: &str, value: &Value) -> String {
    if value.is_null() {
        format!("(*{type_name})(nil)")
    } else {
        format!("(*{type_name})({ADDRESS})")
    }
}

/// A child `*field.Path` where kube passes a path as the bad value (`validateDataSource`
/// gives `fldPath.Child("dataSource")`): Go prints the struct it points to, its parent
/// a pointer.
pub(crate) fn child_field_path(name: &str) -> String {
    format!(
        "field.Path{{name:{}, index:\"\", parent:(*field.Path)({ADDRESS})}}",
        quote(name)
    )
}

/// A Go struct: `type{Field:value, ...}` from (field name, printed value) pairs.
pub(crate) fn structure(type_name: &str, fields: &[(&str, String)]) -> String {
    let mut out = format!("{type_name}{{");
    for (index, (name, value)) in fields.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{name}:{value}");
    }
    out.push('}');
    out
}

/// A `metav1.OwnerReference` as `%#v` prints it.
pub(crate) fn owner_reference(reference: &Value) -> String {
    structure(
        "v1.OwnerReference",
        &[
            ("APIVersion", quote(text(&reference["apiVersion"]))),
            ("Kind", quote(text(&reference["kind"]))),
            ("Name", quote(text(&reference["name"]))),
            ("UID", quote(text(&reference["uid"]))),
            ("Controller", pointer("bool", &reference["controller"])),
            ("BlockOwnerDeletion", pointer("bool", &reference["blockOwnerDeletion"])),
        ],
    )
}

/// `[]v1.OwnerReference{...}`.
pub(crate) fn owner_references(references: &Value) -> String {
    let printed: Vec<String> = items(references).iter().map(owner_reference).collect();
    format!("[]v1.OwnerReference{{{}}}", printed.join(", "))
}

/// `[]core.PodIP{...}` or `[]core.HostIP{...}` (`kind` is `PodIP` or `HostIP`).
pub(crate) fn ips(kind: &str, list: &[Value]) -> String {
    let printed: Vec<String> = list.iter().map(|ip| ip_entry(kind, ip)).collect();
    format!("[]core.{kind}{{{}}}", printed.join(", "))
}

/// `core.PodIP{IP:"..."}`.
pub(crate) fn ip_entry(kind: &str, ip: &Value) -> String {
    format!("core.{kind}{{IP:{}}}", quote(text(&ip["ip"])))
}

/// A `*metav1.Time` as `%#v` prints it inside a struct.
fn time_pointer(value: &Value) -> String {
    let Some(stamp) = value.as_str() else {
        return "<nil>".to_owned();
    };
    let months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let number = |range: std::ops::Range<usize>| stamp.get(range).and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
    let month = months.get(number(5..7).saturating_sub(1)).copied().unwrap_or("January");
    format!(
        "time.Date({}, time.{month}, {}, {}, {}, {}, 0, time.UTC)",
        number(0..4),
        number(8..10),
        number(11..13),
        number(14..16),
        number(17..19)
    )
}

/// A `core.Taint`.
pub(crate) fn taint(taint: &Value) -> String {
    structure(
        "core.Taint",
        &[
            ("Key", quote(text(&taint["key"]))),
            ("Value", quote(text(&taint["value"]))),
            ("Effect", quote(text(&taint["effect"]))),
            ("TimeAdded", time_pointer(&taint["timeAdded"])),
        ],
    )
}

/// A `core.NodeAddress`.
pub(crate) fn node_address(address: &Value) -> String {
    structure(
        "core.NodeAddress",
        &[
            ("Type", quote(text(&address["type"]))),
            ("Address", quote(text(&address["address"]))),
        ],
    )
}

/// A container's `core.SecurityContext`.
pub(crate) fn security_context(context: &Value) -> String {
    let fields = [
        ("Capabilities", "capabilities", "core.Capabilities"),
        ("Privileged", "privileged", "bool"),
        ("SELinuxOptions", "seLinuxOptions", "core.SELinuxOptions"),
        ("WindowsOptions", "windowsOptions", "core.WindowsSecurityContextOptions"),
        ("RunAsUser", "runAsUser", "int64"),
        ("RunAsGroup", "runAsGroup", "int64"),
        ("RunAsNonRoot", "runAsNonRoot", "bool"),
        ("ReadOnlyRootFilesystem", "readOnlyRootFilesystem", "bool"),
        ("AllowPrivilegeEscalation", "allowPrivilegeEscalation", "bool"),
        ("ProcMount", "procMount", "core.ProcMountType"),
        ("SeccompProfile", "seccompProfile", "core.SeccompProfile"),
        ("AppArmorProfile", "appArmorProfile", "core.AppArmorProfile"),
    ];
    let printed: Vec<(&str, String)> = fields
        .iter()
        .map(|(name, field, type_name)| (*name, pointer(type_name, &context[*field])))
        .collect();
    structure("core.SecurityContext", &printed)
}

/// A `core.ResourceList`, keys sorted as `fmt` sorts them, each quantity as parsed.
pub(crate) fn resource_list(list: &Value) -> String {
    let mut pairs: Vec<(&String, &Value)> = entries(list).collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let printed: Vec<String> = pairs
        .iter()
        .map(|(name, value)| {
            format!(
                "{}:{}",
                quote(name),
                crate::quantity::Quantity::from_json(value).go_dump(false)
            )
        })
        .collect();
    format!("core.ResourceList{{{}}}", printed.join(", "))
}

/// What a field error shows for a nil pointer: the string `null`, quoted (`ErrorBody`
/// turns a nil pointer into `"null"` and prints it with `%q`).
pub(crate) fn nil() -> BadValue {
    BadValue::Raw("\"null\"".to_owned())
}

/// A pointer field's value as a field error shows it: the value, or [`nil`].
pub(crate) fn pointee(value: &Value) -> BadValue {
    if value.is_null() { nil() } else { BadValue::from(value) }
}

/// `[]core.ContainerResizePolicy{...}`.
pub(crate) fn resize_policies(policies: &Value) -> String {
    let printed: Vec<String> = items(policies)
        .iter()
        .map(|p| {
            structure(
                "core.ContainerResizePolicy",
                &[
                    ("ResourceName", quote(text(&p["resourceName"]))),
                    ("RestartPolicy", quote(text(&p["restartPolicy"]))),
                ],
            )
        })
        .collect();
    format!("[]core.ContainerResizePolicy{{{}}}", printed.join(", "))
}

/// A quota's `core.ScopeSelector`.
pub(crate) fn scope_selector(selector: &Value) -> String {
    let printed: Vec<String> = items(&selector["matchExpressions"])
        .iter()
        .map(|r| {
            structure(
                "core.ScopedResourceSelectorRequirement",
                &[
                    ("ScopeName", quote(text(&r["scopeName"]))),
                    ("Operator", quote(text(&r["operator"]))),
                    ("Values", string_slice("string", &r["values"])),
                ],
            )
        })
        .collect();
    format!(
        "core.ScopeSelector{{MatchExpressions:[]core.ScopedResourceSelectorRequirement{{{}}}}}",
        printed.join(", ")
    )
}

/// A value already printed as Go prints it.
pub(crate) fn raw(printed: String) -> BadValue {
    BadValue::Raw(printed)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn collections_print_as_percent_sharp_v() {
        assert_eq!(string_slice("string", &json!(["a", "b"])), r#"[]string{"a", "b"}"#);
        assert_eq!(string_slice("string", &Value::Null), "[]string(nil)");
        assert_eq!(
            string_map(&json!({"b": "2", "a": "1"})),
            r#"map[string]string{"a":"1", "b":"2"}"#
        );
        assert_eq!(
            owner_reference(&json!({"apiVersion": "v1", "kind": "Pod", "name": "a", "uid": "u"})),
            r#"v1.OwnerReference{APIVersion:"v1", Kind:"Pod", Name:"a", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}"#
        );
    }
}
