use serde_json::json;

use super::{ShardSelector, fnv1a64, honoured};

const HALF: &str = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";

fn error(text: &str) -> String {
    ShardSelector::parse(text).expect_err("the selector is refused")
}

fn with_uid(uid: &str) -> serde_json::Value {
    json!({"metadata": {"name": "x", "namespace": "default", "uid": uid}})
}

/// Reference values from the FNV specification's test vectors ("", "a", "foobar"), and
/// for uid-like strings from an independent implementation of the same algorithm (the
/// one Go's `hash/fnv.New64a` is).
#[test]
fn the_hash_is_fnv1a_64() {
    assert_eq!(fnv1a64(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64("foobar"), 0x8594_4171_f739_67e8);
    assert_eq!(fnv1a64("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"), 0x9375_4b72_48a0_0eb9);
    assert_eq!(fnv1a64("test-uid-12345"), 0xd4c5_3b72_f928_7c28);
    assert_eq!(fnv1a64("default"), 0xebad_a516_8620_c5fe);
}

#[test]
fn a_range_is_half_open() {
    // "a" hashes to 0xaf63dc4c8601ec8c.
    let at = |start: &str, end: &str| {
        ShardSelector::parse(&format!("shardRange(object.metadata.uid, '{start}', '{end}')"))
            .expect("parses")
            .matches(&with_uid("a"))
    };
    assert!(at("0xaf63dc4c8601ec8c", "0xaf63dc4c8601ec8d"), "start is inclusive");
    assert!(!at("0x0000000000000000", "0xaf63dc4c8601ec8c"), "end is exclusive");
    assert!(at("0x8000000000000000", "0x10000000000000000"), "2^64 closes the space");
    assert!(!at("0x0000000000000000", "0x8000000000000000"));
}

#[test]
fn ranges_joined_with_or_are_a_union() {
    let low = "shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000')";
    let high = "shardRange(object.metadata.uid, '0xa000000000000000', '0xb000000000000000')";
    let selector = ShardSelector::parse(&format!("{low} || ({high})")).expect("parses");
    assert!(selector.matches(&with_uid("a")), "0xaf63... is in the second range");
    assert!(!selector.matches(&with_uid("default")), "0xebad... is in neither");
    assert!(!selector.matches(&with_uid("")), "0xcbf2... is in neither");
}

#[test]
fn overlapping_and_touching_ranges_merge() {
    let text = "shardRange(object.metadata.uid, '0x4000000000000000', '0x8000000000000000') || \
                shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || \
                shardRange(object.metadata.uid, '0x2000000000000000', '0x3000000000000000')";
    let selector = ShardSelector::parse(text).expect("parses");
    assert_eq!(selector.ranges, vec![(0, 0x8000_0000_0000_0000)]);
}

#[test]
fn the_namespace_of_a_cluster_scoped_object_hashes_as_empty() {
    let selector =
        ShardSelector::parse("shardRange(object.metadata.namespace, '0xcbf29ce484222325', '0xcbf29ce484222326')")
            .expect("parses");
    assert!(selector.matches(&json!({"metadata": {"name": "node-1", "uid": "u"}})));
    assert!(!selector.matches(&with_uid("u")), "namespace default hashes elsewhere");
}

#[test]
fn the_request_text_is_echoed() {
    let text = format!("  {HALF}");
    let selector = ShardSelector::parse(&text).expect("parses");
    assert_eq!(selector.info(), json!({"selector": text}));
}

#[test]
fn double_quotes_and_spacing_are_cel() {
    let selector =
        ShardSelector::parse("shardRange( object . metadata . uid ,\"0x0000000000000000\",\n'0x8000000000000000' )")
            .expect("parses");
    assert_eq!(selector.ranges, vec![(0, 0x8000_0000_0000_0000)]);
}

#[test]
fn malformed_bounds_get_kube_apiservers_messages() {
    let bound = |start: &str| {
        error(&format!(
            "shardRange(object.metadata.uid, '{start}', '0x10000000000000000')"
        ))
    };
    assert_eq!(bound("0"), "hexStart must have '0x' prefix, got \"0\"");
    assert_eq!(
        bound("0X0000000000000000"),
        "hexStart must have '0x' prefix, got \"0X0000000000000000\""
    );
    assert_eq!(bound("0x"), "hexStart: hex value is required after '0x'");
    assert_eq!(
        bound("0x000000000000000000"),
        "hexStart: hex value too long (18 chars, max 17): \"000000000000000000\""
    );
    assert_eq!(
        bound("0xABCDEF0000000000"),
        "hexStart: invalid hex character \"A\" in \"0xABCDEF0000000000\""
    );
    assert_eq!(
        bound("0x1000000000000000f"),
        "hexStart: 17-digit hex value must be '0x10000000000000000' (2^64), got \"0x1000000000000000f\""
    );
    assert_eq!(
        bound("0x8"),
        "hexStart must be a 0x-prefixed 16-digit hex value, got \"0x8\" (did you mean \"0x0000000000000008\"?)"
    );
    assert_eq!(
        error("shardRange(object.metadata.uid, 0, '0x8000000000000000')"),
        "hexStart must be a string literal, got int64"
    );
}

#[test]
fn empty_and_inverted_ranges_are_refused() {
    let range = |start: &str, end: &str| error(&format!("shardRange(object.metadata.uid, '{start}', '{end}')"));
    assert_eq!(
        range("0x8000000000000000", "0x8000000000000000"),
        "shard range start 0x8000000000000000 must be less than end 0x8000000000000000"
    );
    assert_eq!(
        range("0x10000000000000000", "0x0000000000000000"),
        "shard range start 0x10000000000000000 must be less than end 0x0000000000000000"
    );
}

#[test]
fn other_shapes_are_refused() {
    assert_eq!(
        error(""),
        "empty shard selector is not allowed; omit the parameter for unfiltered lists"
    );
    assert_eq!(
        error("shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')"),
        "unsupported field path \"object.metadata.name\"; supported: object.metadata.uid, object.metadata.namespace"
    );
    assert_eq!(
        error("shardRange(object.metadata.uid, '0x0000000000000000')"),
        "shardRange() requires exactly 3 arguments, got 2"
    );
    assert_eq!(
        error("hashRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"),
        "unsupported function \"hashRange\"; only shardRange() and || are allowed"
    );
    assert_eq!(
        error(&format!("{HALF} && {HALF}")),
        "unsupported function \"_&&_\"; only shardRange() and || are allowed"
    );
    assert_eq!(
        error(&format!(
            "{HALF} || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')"
        )),
        "all shard ranges must use the same field, got \"object.metadata.uid\" and \"object.metadata.namespace\""
    );
    assert!(error(&format!("{HALF} ||")).starts_with("CEL parse error: "));
    assert!(error(&format!("{HALF})")).starts_with("CEL parse error: "));
    assert!(error("shardRange(object.metadata.uid, '0x0").starts_with("CEL parse error: "));
}

#[test]
fn work_is_bounded() {
    let long = vec![HALF; 1_500].join(" || ");
    assert!(long.len() > 100_000);
    assert!(error(&long).starts_with("CEL parse error: expression code point size exceeds limit"));
    let deep = format!("{}{HALF}{}", "(".repeat(300), ")".repeat(300));
    assert_eq!(
        error(&deep),
        "CEL parse error: expression recursion limit exceeded: 250"
    );
    let many = vec![HALF; 1_000].join(" || ");
    assert_eq!(ShardSelector::parse(&many).expect("parses").ranges.len(), 1);
}

#[test]
fn honoured_from_1_36_with_the_gate_on() {
    assert!(honoured(true, (1, 36)));
    assert!(honoured(true, (1, 37)));
    assert!(!honoured(true, (1, 35)));
    assert!(!honoured(false, (1, 37)));
}
