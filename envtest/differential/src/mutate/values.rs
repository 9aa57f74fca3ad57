//! Which values fit a field: for each [`Site`], the mutations its type and name call
//! for (a port gets 0 and 65536, an IP field a non-IP, a name 64 characters, a label
//! map keys at and past their limits, a list a duplicate by its merge key), and the
//! valid-looking change an update sends to probe immutability.

use serde_json::{Value, json};

use super::walk::Site;
use super::{Edit, Family, Mutation, child};
use crate::openapi::ValueType;

/// A label name segment of `n` characters (63 is the limit).
pub fn segment(n: usize) -> String {
    "a".repeat(n)
}

/// A DNS subdomain of exactly `n` characters (253 is the limit), of 63-character labels.
pub fn subdomain(n: usize) -> String {
    let mut out = String::new();
    while out.len() < n {
        if !out.is_empty() {
            out.push('.');
        }
        let room = (n - out.len()).min(63);
        out.push_str(&"a".repeat(room));
    }
    // A label may not end in `.`: never, as the loop only adds a dot before a label.
    out
}

/// Every mutation of a field for creates (and the same values through updates).
pub fn for_site(site: &Site) -> Vec<Mutation> {
    let Some(value) = &site.value else {
        return add_optional(site);
    };
    let mut out = Vec::new();
    let set = |family: Family, description: &str, value: Value| {
        Mutation::new(
            family,
            description,
            Edit::Set {
                pointer: site.pointer.clone(),
                value,
            },
        )
    };
    if !site.is_item {
        out.push(Mutation::new(
            Family::Remove,
            if site.required { "removed (required)" } else { "removed" },
            Edit::Remove {
                pointer: site.pointer.clone(),
            },
        ));
    }
    out.push(set(Family::Null, "null", Value::Null));
    let typed: Vec<(Family, &str, Value)> = match site.value_type {
        ValueType::String => strings(site, value),
        ValueType::Integer | ValueType::Number => numbers(site),
        ValueType::Boolean => vec![(Family::WrongType, "the string \"true\"", json!("true"))],
        ValueType::IntOrString => int_or_string(site),
        ValueType::Quantity => vec![
            (Family::BadQuantity, "-1", json!("-1")),
            (Family::BadQuantity, "abc", json!("abc")),
            (Family::Zero, "0", json!("0")),
            (Family::WrongType, "true", json!(true)),
        ],
        ValueType::Object | ValueType::Map => vec![
            (Family::Empty, "{}", json!({})),
            (Family::WrongType, "a string", json!("text")),
        ],
        ValueType::Array => vec![
            (Family::Empty, "[]", json!([])),
            (Family::WrongType, "a string", json!("text")),
        ],
        ValueType::Unknown => vec![],
    };
    out.extend(
        typed
            .into_iter()
            .map(|(family, description, value)| set(family, description, value)),
    );
    if site.value_type == ValueType::Map {
        out.extend(map_entries(site));
    }
    if site.value_type == ValueType::Array {
        out.extend(duplicates(site, value));
    }
    out
}

/// Mutations of a string field, by what its name and schema say it holds.
fn strings(site: &Site, value: &Value) -> Vec<(Family, &'static str, Value)> {
    let mut out = vec![
        (Family::Empty, "\"\"", json!("")),
        (Family::WrongType, "the number 42", json!(42)),
    ];
    let text = value.as_str().unwrap_or("");
    if is_enum_like(site, text) {
        out.push((Family::BogusEnum, "Bogus", json!("Bogus")));
        let lower = text.to_ascii_lowercase();
        if lower != text {
            out.push((Family::BogusEnum, "lower case", json!(lower)));
        }
    } else if is_ip_like(&site.field) {
        out.push((Family::NotAnIp, "not-an-ip", json!("not-an-ip")));
        out.push((Family::NotAnIp, "300.1.2.3", json!("300.1.2.3")));
        out.push((Family::NotAnIp, "010.1.2.3 (leading zeros)", json!("010.1.2.3")));
        out.push((Family::NotAnIp, "a CIDR", json!("10.1.2.3/24")));
    } else if is_cidr_like(&site.field) {
        out.push((Family::NotACidr, "not-a-cidr", json!("not-a-cidr")));
        out.push((Family::NotACidr, "10.0.0.0/33", json!("10.0.0.0/33")));
        out.push((Family::NotACidr, "an address", json!("10.0.0.1")));
    } else if is_name_like(&site.field) {
        out.extend(bad_names());
    }
    match site.format.as_deref() {
        Some("byte") => out.push((Family::WrongType, "not base64", json!("not base64!"))),
        Some("date-time") => out.push((Family::WrongType, "not a time", json!("yesterday"))),
        _ => {}
    }
    out
}

/// Names at and past the DNS limits, and with characters the rules forbid.
fn bad_names() -> Vec<(Family, &'static str, Value)> {
    vec![
        (Family::NameLimit, "63 characters", json!(segment(63))),
        (Family::NameLimit, "64 characters", json!(segment(64))),
        (Family::NameLimit, "253 characters", json!(subdomain(253))),
        (Family::NameLimit, "254 characters", json!(subdomain(254))),
        (Family::BadName, "upper case", json!("Upper")),
        (Family::BadName, "an underscore", json!("a_b")),
        (Family::BadName, "a colon", json!("a:b")),
        (Family::BadName, "a leading dash", json!("-a")),
        (Family::BadName, "a dot", json!("a.b")),
        (Family::BadName, "a slash", json!("a/b")),
    ]
}

/// Mutations of a number field.
fn numbers(site: &Site) -> Vec<(Family, &'static str, Value)> {
    let mut out = vec![
        (Family::Negative, "-1", json!(-1)),
        (Family::Zero, "0", json!(0)),
        (Family::Fraction, "1.5", json!(1.5)),
        (Family::WrongType, "the string \"1\"", json!("1")),
    ];
    match (site.value_type, site.format.as_deref()) {
        (ValueType::Number, _) => out.push((Family::Huge, "1e308", json!(1e308))),
        (_, Some("int64")) => out.push((Family::Huge, "2^63", json!(9_223_372_036_854_775_808_u64))),
        _ => out.push((Family::Huge, "2^31", json!(2_147_483_648_u64))),
    }
    if is_port_like(&site.field) {
        out.push((Family::PortRange, "65535", json!(65535)));
        out.push((Family::PortRange, "65536", json!(65536)));
    }
    out
}

/// Mutations of an int-or-string field (ports by number or name, percentages).
fn int_or_string(site: &Site) -> Vec<(Family, &'static str, Value)> {
    let mut out = vec![
        (Family::Negative, "-1", json!(-1)),
        (Family::Zero, "0", json!(0)),
        (Family::Empty, "\"\"", json!("")),
        (Family::WrongType, "true", json!(true)),
        (Family::Huge, "150%", json!("150%")),
        (Family::WrongType, "x%", json!("x%")),
    ];
    if is_port_like(&site.field) {
        out.push((Family::PortRange, "65536", json!(65536)));
        out.push((Family::BadName, "a bad port name", json!("Bad_Name")));
        out.push((Family::NameLimit, "a 16-character port name", json!("abcdefghijklmnop")));
    }
    out
}

/// Entries added to a map: label keys and values at and past their limits, annotation
/// and data sizes.
fn map_entries(site: &Site) -> Vec<Mutation> {
    let entry = |family: Family, description: &str, key: &str, value: Value| {
        Mutation::new(
            family,
            description,
            Edit::Set {
                pointer: child(&site.pointer, key),
                value,
            },
        )
    };
    match site.field.as_str() {
        "labels" | "matchLabels" | "nodeSelector" | "selector" => label_entries(&entry),
        "annotations" => annotation_entries(&entry),
        "data" | "binaryData" | "stringData" => {
            let big = if site.field == "binaryData" {
                json!(base64_of_zeros(1024 * 1024 + 1))
            } else {
                json!("a".repeat(1024 * 1024 + 1))
            };
            vec![
                entry(Family::DataLimit, "a key with a slash", "bad/key", json!("x")),
                entry(Family::DataLimit, "the key ..", "..", json!("x")),
                entry(Family::DataLimit, "a 253-character key", &subdomain(253), json!("x")),
                entry(Family::DataLimit, "a 254-character key", &subdomain(254), json!("x")),
                entry(Family::DataLimit, "an empty key", "", json!("x")),
                entry(Family::DataLimit, "a value over 1 MiB", "big", big),
            ]
        }
        _ => vec![entry(Family::BadLabel, "a key with a space", "bad key", json!("x"))],
    }
}

/// Label keys and values at and past their limits and with bad characters.
pub fn label_entries(entry: &dyn Fn(Family, &str, &str, Value) -> Mutation) -> Vec<Mutation> {
    let prefix_253 = subdomain(253);
    let prefix_254 = subdomain(254);
    vec![
        entry(Family::LabelLimit, "a 63-character key", &segment(63), json!("x")),
        entry(Family::LabelLimit, "a 64-character key", &segment(64), json!("x")),
        entry(
            Family::LabelLimit,
            "a 253-character prefix",
            &format!("{prefix_253}/x"),
            json!("x"),
        ),
        entry(
            Family::LabelLimit,
            "a 254-character prefix",
            &format!("{prefix_254}/x"),
            json!("x"),
        ),
        entry(Family::LabelLimit, "a 63-character value", "k", json!(segment(63))),
        entry(Family::LabelLimit, "a 64-character value", "k", json!(segment(64))),
        entry(Family::BadLabel, "a key with a space", "bad key", json!("x")),
        entry(Family::BadLabel, "a key with a colon", "a:b", json!("x")),
        entry(Family::BadLabel, "an empty key", "", json!("x")),
        entry(
            Family::BadLabel,
            "an empty name after the prefix",
            "example.com/",
            json!("x"),
        ),
        entry(Family::BadLabel, "a key with two slashes", "a/b/c", json!("x")),
        entry(Family::BadLabel, "a key with a leading dash", "-a", json!("x")),
        entry(Family::BadLabel, "a value with a space", "k", json!("bad value")),
        entry(Family::BadLabel, "a value with a leading dash", "k", json!("-a")),
        entry(Family::BadLabel, "a number as value", "k", json!(1)),
    ]
}

/// Annotation keys past their limits and annotations past their total size.
pub fn annotation_entries(entry: &dyn Fn(Family, &str, &str, Value) -> Mutation) -> Vec<Mutation> {
    vec![
        entry(Family::Annotations, "a 64-character key", &segment(64), json!("x")),
        entry(Family::Annotations, "a key with a space", "bad key", json!("x")),
        entry(Family::Annotations, "an empty key", "", json!("x")),
        entry(
            Family::Annotations,
            "a value of 256 KiB (over the total)",
            "big",
            json!("a".repeat(256 * 1024)),
        ),
        entry(Family::Annotations, "a number as value", "k", json!(1)),
    ]
}

/// `n` zero bytes in base64.
fn base64_of_zeros(n: usize) -> String {
    "A".repeat(n.div_ceil(3) * 4)
}

/// A copy of the first item, and a second item with the same key but other fields.
fn duplicates(site: &Site, value: &Value) -> Vec<Mutation> {
    let Some(first) = value.as_array().and_then(|items| items.first()) else {
        return Vec::new();
    };
    let mut out = vec![Mutation::new(
        Family::Duplicate,
        "the first item twice",
        Edit::DuplicateFirst {
            pointer: site.pointer.clone(),
            changes: Vec::new(),
        },
    )];
    if let (false, Some(fields)) = (site.merge_keys.is_empty(), first.as_object()) {
        let other = fields.iter().find(|(name, value)| {
            !site.merge_keys.iter().any(|key| key == *name) && (value.is_string() || value.is_number())
        });
        if let Some((name, value)) = other {
            let changed = match value {
                Value::String(text) => json!(format!("{text}x")),
                _ => json!(value.as_i64().unwrap_or(0) + 1),
            };
            out.push(Mutation::new(
                Family::Duplicate,
                format!("a second item with the same {}", site.merge_keys.join("+")),
                Edit::DuplicateFirst {
                    pointer: site.pointer.clone(),
                    changes: vec![(name.clone(), changed)],
                },
            ));
        }
    }
    out
}

/// A field the seed leaves out, set to a value its type makes suspicious.
fn add_optional(site: &Site) -> Vec<Mutation> {
    let value = match site.value_type {
        ValueType::String if !site.enum_values.is_empty() => json!("Bogus"),
        ValueType::String if is_ip_like(&site.field) => json!("not-an-ip"),
        ValueType::String if is_cidr_like(&site.field) => json!("not-a-cidr"),
        ValueType::String if is_name_like(&site.field) => json!("Bad_Name"),
        ValueType::String => json!(""),
        ValueType::Integer | ValueType::Number | ValueType::IntOrString => json!(-1),
        ValueType::Quantity => json!("-1"),
        ValueType::Boolean => json!(true),
        ValueType::Object => json!({}),
        ValueType::Map => json!({"bad key": "x"}),
        ValueType::Array => match site.item_type {
            Some(ValueType::Object) => json!([{}]),
            Some(ValueType::Integer | ValueType::Number) => json!([-1]),
            _ => json!([""]),
        },
        ValueType::Unknown => return Vec::new(),
    };
    let description = format!("set to {}", short(&value));
    vec![Mutation::new(
        Family::AddOptional,
        description,
        Edit::Set {
            pointer: site.pointer.clone(),
            value,
        },
    )]
}

/// A different, plausible value for an update: what probes immutability and update
/// rules. None for fields an update changes through their leaves.
pub fn change(site: &Site) -> Option<Mutation> {
    let value = site.value.as_ref()?;
    let changed = match (site.value_type, value) {
        (ValueType::String, Value::String(text)) => {
            let other = site.enum_values.iter().find(|v| *v != text);
            match other {
                Some(other) => json!(other),
                None if is_ip_like(&site.field) => json!(next_address(text)),
                None => json!(format!("{text}x")),
            }
        }
        (ValueType::Integer | ValueType::IntOrString | ValueType::Number, Value::Number(n)) => {
            json!(n.as_i64().unwrap_or(0) + 1)
        }
        (ValueType::Boolean, Value::Bool(b)) => json!(!b),
        (ValueType::Quantity, _) => json!("2"),
        (ValueType::IntOrString, Value::String(text)) => json!(format!("{text}x")),
        _ => return None,
    };
    Some(Mutation::new(
        Family::Change,
        format!("changed to {}", short(&changed)),
        Edit::Set {
            pointer: site.pointer.clone(),
            value: changed,
        },
    ))
}

/// The next IPv4 address (`10.0.0.7` from `10.0.0.6`), or the text with `x` added.
fn next_address(text: &str) -> String {
    match text.rsplit_once('.') {
        Some((head, last)) => match last.parse::<u8>() {
            Ok(n) => format!("{head}.{}", n.wrapping_add(1).max(1)),
            Err(_) => format!("{text}x"),
        },
        None => format!("{text}x"),
    }
}

/// A value in at most 40 characters, for descriptions.
pub fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!(
            "{}... ({} characters)",
            text.chars().take(24).collect::<String>(),
            text.len()
        )
    } else {
        text
    }
}

/// A string field that holds one of a few words: the schema lists them, or the seed's
/// value is a capitalised word (`ClusterIP`, `Always`).
fn is_enum_like(site: &Site, text: &str) -> bool {
    if !site.enum_values.is_empty() {
        return true;
    }
    let mut chars = text.chars();
    !is_name_like(&site.field)
        && chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && text.len() > 1
        && text.chars().all(|c| c.is_ascii_alphanumeric())
}

/// A field naming an object or a thing kube checks as a DNS name.
fn is_name_like(field: &str) -> bool {
    matches!(field, "name" | "hostname" | "subdomain" | "namespace" | "generateName") || field.ends_with("Name")
}

/// A field holding IP addresses.
fn is_ip_like(field: &str) -> bool {
    field == "ip" || field.ends_with("IP") || field.ends_with("IPs") || field == "addresses"
}

/// A field holding CIDRs.
fn is_cidr_like(field: &str) -> bool {
    field.contains("CIDR") || field.to_ascii_lowercase().contains("cidr") || field == "except"
}

/// A field holding a port number.
fn is_port_like(field: &str) -> bool {
    field == "port" || field.ends_with("Port")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(field: &str, value_type: ValueType, value: Option<Value>) -> Site {
        Site {
            pointer: format!("/spec/{field}"),
            pattern: format!("spec.{field}"),
            type_field: format!("T.{field}"),
            field: field.to_owned(),
            value,
            value_type,
            enum_values: Vec::new(),
            merge_keys: Vec::new(),
            is_set: false,
            format: None,
            item_type: None,
            is_item: false,
            in_status: false,
            required: false,
        }
    }

    fn descriptions(mutations: &[Mutation]) -> Vec<String> {
        mutations
            .iter()
            .map(|m| format!("{}:{}", m.family.name(), m.description))
            .collect()
    }

    #[test]
    fn limits_have_their_exact_lengths() {
        assert_eq!(subdomain(253).len(), 253);
        assert_eq!(subdomain(254).len(), 254);
        assert!(
            subdomain(253)
                .split('.')
                .all(|label| !label.is_empty() && label.len() <= 63)
        );
        assert_eq!(base64_of_zeros(3).len(), 4);
    }

    #[test]
    fn a_port_gets_the_range_edges() {
        let found = descriptions(&for_site(&site("containerPort", ValueType::Integer, Some(json!(80)))));
        for expected in [
            "remove:removed",
            "negative:-1",
            "zero:0",
            "port-range:65536",
            "huge:2^31",
        ] {
            assert!(found.iter().any(|f| f == expected), "{expected} in {found:?}");
        }
    }

    #[test]
    fn an_ip_field_gets_non_ips_and_a_name_field_bad_names() {
        let ip = descriptions(&for_site(&site(
            "clusterIP",
            ValueType::String,
            Some(json!("10.0.0.5")),
        )));
        assert!(ip.contains(&"not-an-ip:not-an-ip".to_owned()));
        let name = descriptions(&for_site(&site(
            "serviceAccountName",
            ValueType::String,
            Some(json!("sa")),
        )));
        assert!(name.contains(&"name-limit:64 characters".to_owned()));
        assert!(name.contains(&"bad-name:a colon".to_owned()));
        let policy = descriptions(&for_site(&site(
            "restartPolicy",
            ValueType::String,
            Some(json!("Always")),
        )));
        assert!(policy.contains(&"bogus-enum:Bogus".to_owned()));
    }

    #[test]
    fn a_list_with_a_merge_key_gets_a_second_item_with_that_key() {
        let mut list = site(
            "containers",
            ValueType::Array,
            Some(json!([{"name": "app", "image": "nginx"}])),
        );
        list.merge_keys = vec!["name".into()];
        let mutations = for_site(&list);
        let same_key = mutations
            .iter()
            .find(|m| m.description == "a second item with the same name")
            .expect("a same-key duplicate");
        assert_eq!(
            same_key.edits,
            vec![Edit::DuplicateFirst {
                pointer: "/spec/containers".into(),
                changes: vec![("image".into(), json!("nginxx"))],
            }]
        );
    }

    #[test]
    fn label_maps_get_keys_at_and_past_their_limits() {
        let labels = for_site(&site("matchLabels", ValueType::Map, Some(json!({"app": "x"}))));
        let found = descriptions(&labels);
        assert!(found.contains(&"label-limit:a 64-character key".to_owned()));
        let key_254 = labels
            .iter()
            .find(|m| m.description == "a 254-character prefix")
            .expect("the prefix mutation");
        assert_eq!(
            key_254.edits[0].pointer().len(),
            "/spec/matchLabels/".len() + 254 + "~1x".len()
        );
    }

    #[test]
    fn absent_fields_are_set_and_changes_stay_plausible() {
        let absent = for_site(&site("minReadySeconds", ValueType::Integer, None));
        assert_eq!(descriptions(&absent), ["add-optional:set to -1"]);
        let changed = change(&site("clusterIP", ValueType::String, Some(json!("10.0.0.6")))).expect("a change");
        assert_eq!(changed.description, "changed to \"10.0.0.7\"");
        let mut protocol = site("protocol", ValueType::String, Some(json!("TCP")));
        protocol.enum_values = vec!["SCTP".into(), "TCP".into()];
        assert_eq!(change(&protocol).expect("a change").description, "changed to \"SCTP\"");
    }
}
