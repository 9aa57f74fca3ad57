//! What each server makes up on its own, replaced by placeholders before answers are
//! compared: uids, resourceVersions, timestamps it set, names it generated, addresses
//! and ports it allocated, `selfLink`; and, in lists, the objects other runs and the
//! server itself keep (only this run's objects count).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// What one server made up during one case, learnt from its answers as the case runs.
#[derive(Debug, Default, Clone)]
pub struct Made {
    /// uids of objects it created.
    pub uids: BTreeSet<String>,
    /// resourceVersions it answered.
    pub versions: BTreeSet<String>,
    /// Names it generated from a `generateName`.
    pub names: BTreeSet<String>,
    /// Cluster IPs and node ports it allocated to a Service (strings, as messages
    /// quote them).
    pub allocated: BTreeSet<String>,
}

impl Made {
    /// Learns from one answer's body (an object, a list or a watch stream).
    pub fn learn(&mut self, body: &Value, generate_name: Option<&str>) {
        // A create refused after the name was generated names it in the Status's details.
        if body.get("kind").and_then(Value::as_str) == Some("Status")
            && let (Some(prefix), Some(name)) = (generate_name, body.pointer("/details/name").and_then(Value::as_str))
        {
            self.learn_generated(prefix, name);
        }
        if let Some(metadata) = body.get("metadata") {
            if let Some(uid) = metadata.get("uid").and_then(Value::as_str) {
                self.uids.insert(uid.to_owned());
            }
            if let Some(version) = metadata.get("resourceVersion").and_then(Value::as_str) {
                self.versions.insert(version.to_owned());
            }
            if let (Some(prefix), Some(name)) = (generate_name, metadata.get("name").and_then(Value::as_str)) {
                self.learn_generated(prefix, name);
            }
        }
        if let Some(spec) = body.get("spec") {
            let ips = spec.get("clusterIPs").and_then(Value::as_array).into_iter().flatten();
            let ports = spec.get("ports").and_then(Value::as_array).into_iter().flatten();
            let allocated = ips
                .filter_map(Value::as_str)
                .filter(|ip| ip.contains(['.', ':']))
                .map(str::to_owned)
                .chain(ports.filter_map(|port| port.get("nodePort")).map(Value::to_string));
            self.allocated.extend(allocated);
        }
        for list in ["items", "stream"] {
            for item in body.get(list).and_then(Value::as_array).into_iter().flatten() {
                self.learn(item.get("object").unwrap_or(item), None);
            }
        }
    }
}

impl Made {
    /// `name` when it is `prefix` and the five characters kube's name generator adds.
    fn learn_generated(&mut self, prefix: &str, name: &str) {
        let cut = name.len().saturating_sub(5);
        if name.len() > 5 && name.is_char_boundary(cut) && prefix.starts_with(&name[..cut]) {
            self.names.insert(name.to_owned());
        }
    }
}

/// The request a normalised answer answers: the strings and numbers it carried, so a
/// value the client sent is never mistaken for one the server made.
#[derive(Debug, Default)]
pub struct Sent {
    strings: BTreeSet<String>,
    numbers: BTreeSet<String>,
}

impl Sent {
    /// What a request body carried.
    pub fn of(body: &Value) -> Self {
        let mut sent = Self::default();
        sent.collect(body);
        sent
    }

    fn collect(&mut self, value: &Value) {
        match value {
            Value::String(text) => {
                self.strings.insert(text.clone());
            }
            Value::Number(number) => {
                self.numbers.insert(number.to_string());
            }
            Value::Array(items) => items.iter().for_each(|item| self.collect(item)),
            Value::Object(fields) => fields.values().for_each(|field| self.collect(field)),
            _ => {}
        }
    }
}

/// An answer's body with what the server made up replaced; list items not named with
/// `prefix` (this run's names) are left out.
pub fn normalise(body: &Value, made: &Made, sent: &Sent, prefix: &str) -> Value {
    let mut body = body.clone();
    if let Some(items) = body.get_mut("items").and_then(Value::as_array_mut) {
        items.retain(|item| {
            item.pointer("/metadata/name")
                .and_then(Value::as_str)
                .is_some_and(|name| name.contains(prefix))
        });
    }
    // Watch events: this run's objects, and bookmarks (which name none).
    if let Some(events) = body.get_mut("stream").and_then(Value::as_array_mut) {
        events.retain(|event| {
            event
                .pointer("/object/metadata/name")
                .and_then(Value::as_str)
                .is_none_or(|name| name.contains(prefix))
        });
    }
    if let Some(metadata) = body.get_mut("metadata").and_then(Value::as_object_mut)
        && body_is_list(metadata)
    {
        metadata.remove("continue");
        metadata.remove("remainingItemCount");
    }
    scrub(&mut body, made, sent, "");
    body
}

/// A list's metadata has no name.
fn body_is_list(metadata: &Map<String, Value>) -> bool {
    !metadata.contains_key("name") && !metadata.contains_key("uid")
}

fn scrub(value: &mut Value, made: &Made, sent: &Sent, path: &str) {
    match value {
        Value::Object(fields) => {
            if path.ends_with("metadata") || path.is_empty() {
                fields.remove("selfLink");
            }
            for (key, field) in fields.iter_mut() {
                let here = format!("{path}/{key}");
                if let Some(placeholder) = made_up_field(key, path, field, sent) {
                    *field = Value::String(placeholder.to_owned());
                } else {
                    scrub(field, made, sent, &here);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                scrub(item, made, sent, &format!("{path}/*"));
            }
        }
        Value::String(text) => {
            *text = replace_made(text, made, sent);
        }
        _ => {}
    }
}

/// The placeholder for a field the server fills in itself, when it did here.
fn made_up_field(key: &str, path: &str, value: &Value, sent: &Sent) -> Option<&'static str> {
    let not_sent = || match value {
        Value::String(text) => !sent.strings.contains(text),
        Value::Number(number) => !sent.numbers.contains(&number.to_string()),
        _ => false,
    };
    let in_metadata = path.ends_with("/metadata") || path == "metadata";
    match key {
        "uid" if in_metadata => Some("<uid>"),
        "resourceVersion" if in_metadata && not_sent() => Some("<resourceVersion>"),
        "creationTimestamp" | "deletionTimestamp" if in_metadata && !value.is_null() && not_sent() => Some("<time>"),
        "time" if path.contains("managedFields") => Some("<time>"),
        "clusterIP" | "healthCheckNodePort" if path.ends_with("/spec") && not_sent() && !is_none(value) => {
            Some("<allocated>")
        }
        "nodePort" if path.contains("/spec/ports") && not_sent() => Some("<allocated>"),
        "clusterIPs" if path.ends_with("/spec") => {
            let allocated = value.as_array().is_some_and(|ips| {
                ips.iter().any(|ip| {
                    ip.as_str()
                        .is_some_and(|ip| !sent.strings.contains(ip) && !ip.is_empty() && ip != "None")
                })
            });
            allocated.then_some("<allocated>")
        }
        _ => None,
    }
}

/// `None` and the empty string are what a client writes to ask for no address.
fn is_none(value: &Value) -> bool {
    matches!(value.as_str(), Some("None" | ""))
}

/// `text` with made-up uids, generated names and resourceVersions replaced, and a
/// timestamp the client never sent replaced by `<time>`.
fn replace_made(text: &str, made: &Made, sent: &Sent) -> String {
    if looks_like_time(text) && !sent.strings.contains(text) {
        return "<time>".to_owned();
    }
    let mut out = go_cmp_indents(&go_addresses(text));
    for uid in &made.uids {
        out = out.replace(uid.as_str(), "<uid>");
    }
    for name in &made.names {
        out = out.replace(name.as_str(), "<generated-name>");
    }
    if made.versions.contains(&out) {
        return "<resourceVersion>".to_owned();
    }
    // Sentences (messages) may quote a resourceVersion; names and values never hold
    // spaces, and their digits are never replaced.
    if !made.versions.is_empty() && out.contains(' ') {
        out = replace_numbers(&out, &made.versions, "<resourceVersion>");
    }
    // A Service's addresses and ports quoted in a message (an object printed whole):
    // each server allocates its own.
    if out.contains(' ') {
        for ip in made
            .allocated
            .iter()
            .filter(|ip| ip.contains(['.', ':']) && !sent.strings.contains(*ip))
        {
            out = out.replace(&format!("\"{ip}\""), "\"<allocated>\"");
            out = out.replace(&format!("\\\"{ip}\\\""), "\\\"<allocated>\\\"");
        }
        let ports: BTreeSet<String> = made
            .allocated
            .iter()
            .filter(|port| !port.contains(['.', ':']) && !sent.numbers.contains(*port))
            .cloned()
            .collect();
        if !ports.is_empty() {
            out = replace_numbers(&out, &ports, "<allocated>");
        }
    }
    out
}

/// `text` with the lines of a go-cmp report indented with plain spaces. go-cmp draws
/// once per process whether its line markers (`  `, `- `, `+ `) use a space or a
/// non-breaking space, so that nobody depends on its output; two kube-apiservers
/// differ on it as often as not, so it is no disagreement between servers.
fn go_cmp_indents(text: &str) -> String {
    if !text.contains('\u{a0}') {
        return text.to_owned();
    }
    text.split('\n')
        .map(|line| {
            let mut chars = line.chars();
            match (chars.next(), chars.next()) {
                (Some(mark @ ('\u{a0}' | '-' | '+')), Some('\u{a0}')) => {
                    let mark = if mark == '\u{a0}' { ' ' } else { mark };
                    format!("{mark} {}", chars.as_str())
                }
                _ => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whole numbers of `text` that are in `numbers`, replaced by `placeholder`; a number
/// counts as whole only between spaces, quotes and punctuation, never beside a letter,
/// digit or `-` (so `web-46` keeps its 46).
fn replace_numbers(text: &str, numbers: &BTreeSet<String>, placeholder: &str) -> String {
    let joins = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() && !joins(i.checked_sub(1).map(|p| chars[p])) {
            let end = (i..chars.len())
                .find(|&j| !chars[j].is_ascii_digit())
                .unwrap_or(chars.len());
            let number: String = chars[i..end].iter().collect();
            if !joins(chars.get(end).copied()) && numbers.contains(&number) {
                out.push_str(placeholder);
            } else {
                out.push_str(&number);
            }
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `text` with the addresses Go prints for a non-nil pointer in a `%#v` dump
/// (`(*bool)(0xc000a1b2c0)`) replaced by `<address>`: they are wherever the value sat
/// in that process's memory, different on each run of the same server.
fn go_addresses(text: &str) -> String {
    const OPEN: &str = ")(0x";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        let digits = &rest[at + OPEN.len()..];
        let length = digits.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(digits.len());
        out.push_str(&rest[..at + 2]);
        if length > 0 && digits[length..].starts_with(')') {
            out.push_str("<address>");
        } else {
            out.push_str(&rest[at + 2..at + OPEN.len() + length]);
        }
        rest = &digits[length..];
    }
    out.push_str(rest);
    out
}

/// RFC 3339: `2024-01-02T03:04:05Z`, with an optional fraction and offset.
fn looks_like_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    let shape = |i: usize, expected: u8| bytes.get(i) == Some(&expected);
    let digits =
        |range: std::ops::Range<usize>| range.into_iter().all(|i| bytes.get(i).is_some_and(u8::is_ascii_digit));
    bytes.len() >= 20
        && digits(0..4)
        && shape(4, b'-')
        && digits(5..7)
        && shape(7, b'-')
        && digits(8..10)
        && shape(10, b'T')
        && digits(11..13)
        && shape(13, b':')
        && digits(14..16)
        && shape(16, b':')
        && digits(17..19)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn allocated_addresses_quoted_in_messages_are_replaced() {
        let mut made = Made::default();
        made.learn(
            &json!({"metadata": {"name": "s"}, "spec": {"clusterIPs": ["10.0.125.77"], "ports": [{"port": 80, "nodePort": 31234}]}}),
            None,
        );
        let message = r#"patch: Invalid value: "{\"spec\":{\"clusterIP\":\"10.0.125.77\",\"ports\":[{\"port\":80,\"nodePort\":31234}]}}": x"#;
        assert_eq!(
            replace_made(message, &made, &Sent::default()),
            r#"patch: Invalid value: "{\"spec\":{\"clusterIP\":\"<allocated>\",\"ports\":[{\"port\":80,\"nodePort\":<allocated>}]}}": x"#
        );
        // What the client sent is its own.
        let sent = Sent::of(&json!({"spec": {"ports": [{"nodePort": 31234}]}}));
        assert!(replace_made(message, &made, &sent).contains("31234"));
    }

    #[test]
    fn go_cmp_reports_are_compared_with_plain_indents() {
        let nbsp = "spec: Forbidden: x\n\u{a0}\u{a0}core.PodSpec{\n-\u{a0}\tA: 1,\n+\u{a0}\tA: 2,\n\u{a0}\u{a0}}\n";
        let plain = "spec: Forbidden: x\n  core.PodSpec{\n- \tA: 1,\n+ \tA: 2,\n  }\n";
        assert_eq!(go_cmp_indents(nbsp), plain);
        assert_eq!(go_cmp_indents(plain), plain);
        // A non-breaking space elsewhere is the text's own.
        assert_eq!(go_cmp_indents("a\u{a0}b"), "a\u{a0}b");
    }

    #[test]
    fn what_the_server_made_up_is_replaced() {
        let body = json!({
            "metadata": {"name": "x", "uid": "u-1", "resourceVersion": "41", "creationTimestamp": "2024-01-02T03:04:05Z",
                         "selfLink": "/api/v1/x", "managedFields": [{"manager": "m", "time": "2024-01-02T03:04:05Z"}],
                         "labels": {"controller-uid": "u-1"}},
            "spec": {"clusterIP": "10.96.0.5", "ports": [{"port": 80, "nodePort": 30001}]},
        });
        let mut made = Made::default();
        made.learn(&body, None);
        let normal = normalise(
            &body,
            &made,
            &Sent::of(&json!({"spec": {"ports": [{"port": 80}]}})),
            "dfz",
        );
        assert_eq!(
            normal,
            json!({
                "metadata": {"name": "x", "uid": "<uid>", "resourceVersion": "<resourceVersion>", "creationTimestamp": "<time>",
                             "managedFields": [{"manager": "m", "time": "<time>"}], "labels": {"controller-uid": "<uid>"}},
                "spec": {"clusterIP": "<allocated>", "ports": [{"port": 80, "nodePort": "<allocated>"}]},
            })
        );
    }

    #[test]
    fn what_the_client_sent_is_kept() {
        let body = json!({"spec": {"clusterIP": "10.0.0.9", "ports": [{"nodePort": 30001}]}, "eventTime": "2024-01-02T03:04:05.000000Z"});
        let sent = Sent::of(&body);
        assert_eq!(normalise(&body, &Made::default(), &sent, "dfz"), body);
    }

    #[test]
    fn messages_lose_uids_and_resource_versions() {
        let mut made = Made::default();
        made.learn(&json!({"metadata": {"uid": "abc-123", "resourceVersion": "77"}}), None);
        let status = json!({"kind": "Status", "message": "uid abc-123 at 77, not 770 nor web-77", "name": "dfz-77"});
        let normal = normalise(&status, &made, &Sent::default(), "dfz");
        assert_eq!(
            normal["message"],
            json!("uid <uid> at <resourceVersion>, not 770 nor web-77")
        );
        assert_eq!(normal["name"], json!("dfz-77"));
    }

    #[test]
    fn lists_keep_this_runs_objects_only() {
        let list = json!({"kind": "List", "metadata": {"resourceVersion": "9", "continue": "x"},
                          "items": [{"metadata": {"name": "dfz-1-2"}}, {"metadata": {"name": "kube-root"}}]});
        let mut made = Made::default();
        made.learn(&list, None);
        let normal = normalise(&list, &made, &Sent::default(), "dfz-1-");
        assert_eq!(normal["items"].as_array().map(Vec::len), Some(1));
        assert_eq!(normal["metadata"], json!({"resourceVersion": "<resourceVersion>"}));
    }

    #[test]
    fn go_pointer_addresses_are_replaced() {
        let dump = "Controller:(*bool)(0x158b1d46b530), Other:(*bool)(nil), Odd:(x)(0xzz)";
        assert_eq!(
            replace_made(dump, &Made::default(), &Sent::default()),
            "Controller:(*bool)(<address>), Other:(*bool)(nil), Odd:(x)(0xzz)"
        );
    }

    #[test]
    fn names_generated_for_a_refused_create_are_replaced() {
        let mut made = Made::default();
        made.learn(
            &json!({"kind": "Status", "details": {"name": "Bad_m82qb"}}),
            Some("Bad_"),
        );
        assert_eq!(
            replace_made("\"Bad_m82qb\" is invalid", &made, &Sent::default()),
            "\"<generated-name>\" is invalid"
        );
    }

    #[test]
    fn generated_names_are_replaced() {
        let mut made = Made::default();
        made.learn(&json!({"metadata": {"name": "web-x7k2p"}}), Some("web-"));
        assert_eq!(replace_made("web-x7k2p", &made, &Sent::default()), "<generated-name>");
        assert!(looks_like_time("2024-01-02T03:04:05+01:00"));
        assert!(!looks_like_time("2024-01-02"));
    }
}
