//! Request-level cases of reads: label and field selectors, valid and not, on every
//! kind's list (which field selectors a kind supports differs by kind, and the
//! servers' tables are what these compare); list options; and short watches of the
//! seed.

use std::fmt::Write;

use super::requests::draft;
use super::writes::create_seed;
use super::{Draft, Kind, Operation, step, with_query};
use crate::mutate::Family;

/// Label selectors: valid ones that pick the seed or not, and syntax errors.
const LABEL_SELECTORS: &[&str] = &[
    "dfz-case=$NAME",
    "dfz-case==$NAME",
    "dfz-case!=other",
    "dfz-case in ($NAME,x)",
    "dfz-case notin (x)",
    "dfz-case",
    "!missing",
    "dfz-case=$NAME,!missing",
    "dfz-case=",
    "dfz-case>1",
    "-bad=x",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=x",
    "env,,tier",
    "dfz-case in (a",
    "a=b=c",
    "dfz-case notin ()",
    "a b",
    "=x",
    "key=Bad Value",
    "!dfz-case=x",
];

/// Field selectors: the ones every resource has, the per-kind ones of kube's tables
/// (asked of every kind, so each server's table shows), and syntax errors.
const FIELD_SELECTORS: &[&str] = &[
    "metadata.name=$NAME",
    "metadata.name==$NAME",
    "metadata.name!=other",
    "metadata.namespace=$NAMESPACE",
    "metadata.name=$NAME,metadata.namespace=$NAMESPACE",
    "metadata.name",
    "metadata.name=a=b",
    "bogus.field=x",
    "metadata.labels.x=y",
    "metadata.uid=x",
    "spec.nodeName=x",
    "spec.restartPolicy=Always",
    "spec.schedulerName=x",
    "spec.serviceAccountName=x",
    "spec.hostNetwork=false",
    "status.phase=Pending",
    "status.podIP=x",
    "status.nominatedNodeName=x",
    "spec.type=ClusterIP",
    "spec.clusterIP=x",
    "status.successful=1",
    "spec.unschedulable=false",
    "status.replicas=1",
    "spec.replicas=1",
    "type=Opaque",
    "involvedObject.name=x",
    "reason=x",
    "source=x",
    "spec.signerName=x",
    "addressType=IPv4",
];

/// Every read case of `kind`.
pub(super) fn cases(kind: &Kind) -> Vec<Draft> {
    if !kind.resource.is_stored() || !kind.serves("list") {
        return Vec::new();
    }
    let mut out = selectors(kind);
    out.extend(list_options(kind));
    if kind.serves("watch") {
        out.extend(watches(kind));
    }
    out
}

/// The seed created, then listed with each selector.
fn selectors(kind: &Kind) -> Vec<Draft> {
    let list = |parameter: &str, selector: &str| {
        draft(
            Operation::List,
            Family::Selector,
            &format!("?{parameter}"),
            &format!("{parameter}={selector}"),
            vec![
                create_seed(kind),
                step(
                    "list",
                    "GET",
                    with_query(&kind.collection(), &format!("{parameter}={}", encode(selector))),
                ),
            ],
        )
    };
    LABEL_SELECTORS
        .iter()
        .map(|selector| list("labelSelector", selector))
        .chain(FIELD_SELECTORS.iter().map(|selector| list("fieldSelector", selector)))
        .collect()
}

/// Lists with options out of range or inconsistent.
fn list_options(kind: &Kind) -> Vec<Draft> {
    [
        "limit=-1",
        "limit=abc",
        "limit=1&continue=bogus",
        "resourceVersion=abc",
        "resourceVersionMatch=Exact",
        "resourceVersionMatch=NotOlderThan",
        "resourceVersion=0&resourceVersionMatch=Exact",
        "resourceVersion=1&resourceVersionMatch=Bogus",
        "timeoutSeconds=-1",
        "sendInitialEvents=true",
        "labelSelector=dfz-case%3D$NAME&fieldSelector=metadata.name%3D$NAME&limit=1",
    ]
    .iter()
    .map(|query| {
        draft(
            Operation::List,
            Family::ListOptions,
            "?options",
            query,
            vec![
                create_seed(kind),
                step("list", "GET", with_query(&kind.collection(), query)),
            ],
        )
    })
    .collect()
}

/// Watches of the seed that end after a second, and watches the server must refuse.
fn watches(kind: &Kind) -> Vec<Draft> {
    let selector = "fieldSelector=metadata.name%3D$NAME";
    [
        ("a watch from 0", format!("watch=1&resourceVersion=0&timeoutSeconds=1&{selector}")),
        (
            "a watch with initial events and bookmarks",
            format!(
                "watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1&{selector}"
            ),
        ),
        ("a watch from a resourceVersion that is not a number", format!("watch=1&resourceVersion=abc&timeoutSeconds=1&{selector}")),
        ("a watch with a bad label selector", "watch=1&timeoutSeconds=1&labelSelector=-bad".to_owned()),
        (
            "a watch with sendInitialEvents but no resourceVersionMatch",
            format!("watch=1&sendInitialEvents=true&timeoutSeconds=1&{selector}"),
        ),
    ]
    .into_iter()
    .map(|(description, query)| {
        draft(
            Operation::Watch,
            Family::Watch,
            "?watch",
            description,
            vec![create_seed(kind), step("watch", "GET", with_query(&kind.collection(), &query))],
        )
    })
    .collect()
}

/// `text` percent-encoded for a query value, but for the placeholders, which are
/// filled in later (their characters need no encoding).
pub(super) fn encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~' | b'$') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_are_encoded_but_placeholders_kept() {
        assert_eq!(encode("dfz-case in ($NAME,x)"), "dfz-case%20in%20%28$NAME%2Cx%29");
        assert_eq!(encode("a=b"), "a%3Db");
    }
}
