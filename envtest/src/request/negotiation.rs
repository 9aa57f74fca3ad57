//! Which answer a client's `Accept` header asks for, as kube-apiserver negotiates it:
//! goautoneg's parse and order of the clauses (`ParseAccept`), then the first clause a
//! serializer of the server matches and the endpoint allows, with its `as`/`g`/`v`
//! transform (`NegotiateMediaTypeOptions` and `acceptMediaTypeOptions` in apiserver's
//! `pkg/endpoints/handlers/negotiation/negotiate.go`). No acceptable clause is 406.

use crate::core::ApiError;

/// One clause of an `Accept` header: `type/subtype;param=value;q=0.9`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Clause {
    pub media_type: String,
    pub subtype: String,
    pub q: f64,
    pub params: Vec<(String, String)>,
}

impl Clause {
    fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// The object a client asks the answer to be turned into (`as=Table;g=meta.k8s.io;v=v1`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Convert {
    pub kind: String,
    pub group: String,
    pub version: String,
}

/// What the negotiation chose: the serializer's subtype (`json`, `yaml`,
/// `vnd.kubernetes.protobuf`) and the transform, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Negotiated {
    pub subtype: &'static str,
    pub convert: Option<Convert>,
}

/// The serializers the server writes with, in kube's order (JSON first: the answer to a
/// request without `Accept`).
fn serializers() -> &'static [&'static str] {
    if cfg!(feature = "kubectl") {
        &["json", "yaml", "vnd.kubernetes.protobuf"]
    } else {
        &["json", "yaml"]
    }
}

/// goautoneg's `ParseAccept`: the clauses in order of preference (higher `q` first,
/// then concrete types before wildcards), malformed ones left out.
pub(crate) fn parse_accept(header: &str) -> Vec<Clause> {
    let trim = |s: &str| s.trim_matches(' ').to_owned();
    let mut clauses: Vec<Clause> = Vec::new();
    for part in header.split(',') {
        let part = part.trim_matches(' ');
        if part.is_empty() {
            continue;
        }
        let (media, params) = part.split_once(';').unwrap_or((part, ""));
        let (media_type, subtype) = match media.split_once('/') {
            None if trim(media) == "*" => ("*".to_owned(), "*".to_owned()),
            None => continue,
            Some((_, rest)) if rest.contains('/') => continue,
            Some((media_type, subtype)) => (trim(media_type), trim(subtype)),
        };
        let mut clause = Clause {
            media_type,
            subtype,
            q: 1.0,
            params: Vec::new(),
        };
        for param in params.split(';') {
            let Some((key, value)) = param.split_once('=') else {
                continue;
            };
            if value.contains('=') {
                continue;
            }
            let key = trim(key);
            if key == "q" {
                clause.q = value.trim().parse().unwrap_or(0.0);
            } else {
                clause.params.push((key, trim(value)));
            }
        }
        clauses.push(clause);
    }
    // Go's sort.Sort with goautoneg's Less; an insertion sort, as Go's is on the short
    // slices an Accept header makes, so equal clauses keep their order.
    let less = |a: &Clause, b: &Clause| {
        a.q > b.q || (a.media_type != "*" && b.media_type == "*") || (a.subtype != "*" && b.subtype == "*")
    };
    for i in 1..clauses.len() {
        let mut j = i;
        while j > 0 && less(&clauses[j], &clauses[j - 1]) {
            clauses.swap(j, j - 1);
            j -= 1;
        }
    }
    clauses
}

/// `NegotiateMediaTypeOptions`: the first clause a serializer matches whose transform
/// `allows` accepts (given the serializer's subtype and the transform); JSON without a
/// transform for an empty header. `stream` may only be `watch`, and `sv` is refused.
pub(crate) fn negotiate(header: &str, allows: impl Fn(&str, Option<&Convert>) -> bool) -> Option<Negotiated> {
    if header.trim().is_empty() {
        return Some(Negotiated {
            subtype: "json",
            convert: None,
        });
    }
    for clause in parse_accept(header) {
        for &subtype in serializers() {
            let matches = (clause.media_type == "application" && (clause.subtype == subtype || clause.subtype == "*"))
                || (clause.media_type == "*" && clause.subtype == "*");
            if !matches {
                continue;
            }
            if clause.param("stream").is_some_and(|s| !s.is_empty() && s != "watch")
                || clause.param("sv").is_some_and(|s| !s.is_empty())
            {
                continue;
            }
            let convert = ["as", "g", "v"]
                .iter()
                .any(|key| clause.param(key).is_some())
                .then(|| Convert {
                    kind: clause.param("as").unwrap_or_default().to_owned(),
                    group: clause.param("g").unwrap_or_default().to_owned(),
                    version: clause.param("v").unwrap_or_default().to_owned(),
                });
            if allows(subtype, convert.as_ref()) {
                return Some(Negotiated { subtype, convert });
            }
        }
    }
    None
}

/// The 406 kube-apiserver answers when no clause is acceptable.
pub(crate) fn not_acceptable() -> ApiError {
    let types: Vec<String> = serializers().iter().map(|s| format!("application/{s}")).collect();
    ApiError::new(
        406,
        "NotAcceptable",
        format!("only the following media types are accepted: {}", types.join(", ")),
    )
}

/// What a resource endpoint allows (`RequestScope.AllowsMediaTypeTransform`): no
/// transform, a `meta.k8s.io` v1 or v1beta1 `Table` (JSON or YAML, and only with the
/// `kubectl` feature, which makes Tables) or `PartialObjectMetadata(List)`.
pub(crate) fn resource_allows(subtype: &str, convert: Option<&Convert>) -> bool {
    let Some(convert) = convert else {
        return true;
    };
    if convert.group != "meta.k8s.io" || !matches!(convert.version.as_str(), "v1" | "v1beta1") {
        return false;
    }
    match convert.kind.as_str() {
        "Table" => cfg!(feature = "kubectl") && matches!(subtype, "json" | "yaml"),
        "PartialObjectMetadata" | "PartialObjectMetadataList" => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_are_ordered_as_goautoneg_orders_them() {
        let clauses = parse_accept("*/*;q=0.5, application/json;as=Table;v=v1;g=meta.k8s.io, text/*, bogus");
        let order: Vec<(&str, &str)> = clauses
            .iter()
            .map(|c| (c.media_type.as_str(), c.subtype.as_str()))
            .collect();
        assert_eq!(order, [("application", "json"), ("text", "*"), ("*", "*")]);
        assert!((clauses[2].q - 0.5).abs() < f64::EPSILON);
        assert_eq!(clauses[0].param("as"), Some("Table"));
    }

    #[test]
    fn the_first_acceptable_clause_wins_and_none_is_406() {
        let table_v2 = "application/json;as=Table;g=meta.k8s.io;v=v2";
        assert_eq!(negotiate(table_v2, resource_allows), None);
        let fallback = negotiate(&format!("{table_v2}, application/json"), resource_allows);
        assert_eq!(
            fallback,
            Some(Negotiated {
                subtype: "json",
                convert: None
            })
        );
        let metadata = negotiate(
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
            resource_allows,
        );
        assert_eq!(
            metadata.and_then(|n| n.convert).map(|c| c.kind).as_deref(),
            Some("PartialObjectMetadataList")
        );
        assert!(negotiate("", resource_allows).is_some());
        assert!(negotiate("text/html", resource_allows).is_none());
        assert!(negotiate("application/json;stream=other", resource_allows).is_none());
        assert_eq!(not_acceptable().code, 406);
    }
}
