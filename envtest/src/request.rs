//! What a request asks for: the verb, the resource type, namespace and name, and the
//! query parameters, parsed from the REST path of the Kubernetes API.
//!
//! May import: `core`, `resources`.

use std::collections::HashMap;
use std::sync::Arc;

pub(crate) mod negotiation;

use crate::resources::registry::Registry;

use crate::core::{ApiError, ResourceType, Verb};

/// A parsed resource request.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub verb: Verb,
    pub resource: Arc<ResourceType>,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub subresource: Option<String>,
    pub query: HashMap<String, String>,
    /// Every `dryRun` of the query, in order, empty ones included (None without any):
    /// kube decodes the parameter as a list, and `?dryRun=` is a list of one empty value.
    pub dry_run: Option<Vec<String>>,
    /// The client asked for metadata only (`Accept: ...;as=PartialObjectMetadata...`),
    /// as kube's metadata watchers and controller-runtime's metadata informers do.
    pub metadata_only: bool,
    /// The client asked for a Table (`Accept: ...;as=Table...`), as `kubectl get` does.
    #[cfg(feature = "kubectl")]
    pub table: Option<TableRequest>,
}

impl Target {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    pub fn flag(&self, name: &str) -> bool {
        matches!(self.param(name), Some("true" | "1"))
    }

    /// Whether the write is a dry run (`dryrun.IsDryRun`: any value; the write's
    /// options were validated first, so any value is `All`).
    pub fn dry_run(&self) -> bool {
        self.dry_run.as_ref().is_some_and(|values| !values.is_empty())
    }
}

#[cfg(feature = "kubectl")]
/// A request for a Table: which version of `meta.k8s.io` and what each row carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TableRequest {
    /// `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`.
    pub api_version: &'static str,
    pub include: Include,
}

#[cfg(feature = "kubectl")]
/// `includeObject`: what each row's `object` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Include {
    /// Nothing (`object: null`).
    None,
    /// The object's `PartialObjectMetadata` (the default).
    Metadata,
    /// The whole object.
    Object,
}

#[cfg(feature = "kubectl")]
/// The Table the `Accept` header asks for, if the clause negotiation picks asks for
/// one; a bad `includeObject` is refused as kube-apiserver refuses it.
pub(crate) fn requested(accept: &str, query: &HashMap<String, String>) -> Result<Option<TableRequest>, ApiError> {
    let convert = negotiation::negotiate(accept, negotiation::resource_allows).and_then(|chosen| chosen.convert);
    let api_version = match convert {
        Some(convert) if convert.kind == "Table" && convert.version == "v1" => "meta.k8s.io/v1",
        Some(convert) if convert.kind == "Table" => "meta.k8s.io/v1beta1",
        _ => return Ok(None),
    };
    let include = match query.get("includeObject").map(String::as_str) {
        None | Some("" | "Metadata") => Include::Metadata,
        Some("Object") => Include::Object,
        Some("None") => Include::None,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "Unable to convert to Table as requested: includeObject: Invalid value: \"{other}\": must be 'Metadata', 'Object', 'None', or empty"
            )));
        }
    };
    Ok(Some(TableRequest { api_version, include }))
}

/// Without the `kubectl` feature, kube-apiserver's answer to what only that feature
/// serves: 415 for a protobuf body, and 406 for a client whose `Accept` lists only
/// protobuf or Tables. A client that also accepts JSON, as kubectl does, gets JSON.
#[cfg_attr(
    feature = "kubectl",
    allow(dead_code, reason = "with kubectl it is tested, not called")
)]
pub(crate) fn refuse_kubectl_media(request: &http::Request<bytes::Bytes>) -> Option<ApiError> {
    const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";
    let header = |name| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let media_type = |clause: &str| clause.split(';').next().unwrap_or_default().trim().to_owned();
    if media_type(header(http::header::CONTENT_TYPE)) == PROTOBUF && !request.body().is_empty() {
        return Some(ApiError::new(
            415,
            "UnsupportedMediaType",
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml",
        ));
    }
    let clauses: Vec<&str> = header(http::header::ACCEPT)
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let kubectl_only = |clause: &&str| media_type(clause) == PROTOBUF || clause.contains("as=Table");
    if !clauses.is_empty() && clauses.iter().all(kubectl_only) {
        return Some(ApiError::new(
            406,
            "NotAcceptable",
            "only the following media types are accepted: application/json, application/yaml",
        ));
    }
    None
}

/// Every value of `key` in the query string, in order; None when it is absent.
pub(crate) fn query_values(query: Option<&str>, key: &str) -> Option<Vec<String>> {
    let values: Vec<String> = form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
        .collect();
    (!values.is_empty()).then_some(values)
}

/// Parses the query string into a map (the last value of a repeated key wins).
pub(crate) fn parse_query(query: Option<&str>) -> HashMap<String, String> {
    form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

#[cfg(feature = "kubectl")]
/// Whether a query string asks for a watch (`watch=true` or `watch=1`).
pub(crate) fn is_watch(query: Option<&str>) -> bool {
    form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .any(|(k, v)| k == "watch" && matches!(&*v, "true" | "1"))
}

/// Parses a resource path (`/api/v1/namespaces/default/pods/web/status`); Ok(None)
/// when the path is not a resource path at all (discovery and the like).
pub(crate) fn parse(
    registry: &Registry,
    method: &http::Method,
    path: &str,
    query: HashMap<String, String>,
) -> Result<Option<Target>, ApiError> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (group, version, rest) = match segments.as_slice() {
        ["api", version, rest @ ..] if !rest.is_empty() => ("", *version, rest),
        ["apis", group, version, rest @ ..] if !rest.is_empty() => (*group, *version, rest),
        _ => return Ok(None),
    };
    let namespaced_form = rest.len() >= 3 && rest[0] == "namespaces" && registry.get(group, version, rest[2]).is_some();
    let (namespace, rest) = if namespaced_form {
        (Some(rest[1].to_owned()), &rest[2..])
    } else {
        (None, rest)
    };
    if !group.is_empty() && registry.group(group).is_none() {
        return Err(ApiError::page_not_found());
    }
    let resource = registry
        .get(group, version, rest[0])
        .ok_or_else(ApiError::path_not_found)?;
    if rest.len() > 3 || (resource.namespaced && namespace.is_none() && rest.len() > 1) {
        return Err(ApiError::path_not_found());
    }
    let mut name = rest.get(1).map(|s| (*s).to_owned());
    let subresource = rest.get(2).map(|s| (*s).to_owned());
    if let Some(sub) = &subresource
        && !resource.serves_subresource(sub)
    {
        return Err(ApiError::path_not_found());
    }
    // Create-only resources (reviews, bindings) have no objects to name.
    if name.is_some() && !resource.stored() {
        return Err(ApiError::path_not_found());
    }
    let watch = matches!(query.get("watch").map(String::as_str), Some("true" | "1"));
    let verb = match (method.as_str(), name.is_some()) {
        ("GET", true) => Verb::Get,
        ("GET", false) if watch => Verb::Watch,
        ("GET", false) => Verb::List,
        ("POST", false) => Verb::Create,
        // pods/binding and pods/eviction: a POST to the subresource of an object.
        ("POST", true) if subresource.is_some() => Verb::Create,
        // The custom resource handler routes by verb alone (built-in types have no
        // such routes, a 405): a POST to an object's path is a create of the body's
        // object, and a PUT or PATCH of the collection names no object (refused by
        // the write, after a patch's media type).
        ("POST", true) if resource.custom => {
            name = None;
            Verb::Create
        }
        ("PUT", true) => Verb::Update,
        ("PATCH", true) => Verb::Patch,
        ("PUT", false) if resource.custom => Verb::Update,
        ("PATCH", false) if resource.custom => Verb::Patch,
        ("DELETE", true) => Verb::Delete,
        ("DELETE", false) => Verb::DeleteCollection,
        _ => return Err(ApiError::method_not_allowed()),
    };
    if subresource.is_none() && !resource.allows(verb) {
        return Err(ApiError::method_not_allowed());
    }
    // A subresource serves only its own verbs (`pods/eviction` is create-only,
    // `namespaces/finalize` update-only): any other method is 405, as kube-apiserver
    // installs no handler for it.
    if let Some(sub) = &subresource
        && let Some(served) = resource.subresources().into_iter().find(|s| s.name == sub)
        && !served.verbs.contains(&verb.as_str())
    {
        return Err(ApiError::method_not_allowed());
    }
    let dry_run = query.get("dryRun").map(|value| vec![value.clone()]);
    Ok(Some(Target {
        verb,
        resource,
        namespace,
        name,
        subresource,
        query,
        dry_run,
        metadata_only: false,
        #[cfg(feature = "kubectl")]
        table: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(method: &str, path: &str) -> Target {
        let method = http::Method::from_bytes(method.as_bytes()).unwrap();
        parse(&Registry::default(), &method, path, HashMap::new())
            .unwrap()
            .unwrap()
    }

    #[test]
    fn without_kubectl_protobuf_and_table_only_clients_are_refused_as_kube_apiserver_refuses_them() {
        let request = |accept: &str, content_type: &str, body: &'static [u8]| {
            let request = http::Request::builder()
                .method("POST")
                .uri("/api/v1/namespaces/default/configmaps")
                .header(http::header::ACCEPT, accept)
                .header(http::header::CONTENT_TYPE, content_type)
                .body(bytes::Bytes::from_static(body))
                .unwrap();
            refuse_kubectl_media(&request).map(|error| (error.code, error.reason))
        };
        let protobuf = "application/vnd.kubernetes.protobuf";
        let table = "application/json;as=Table;v=v1;g=meta.k8s.io";
        assert_eq!(
            request(protobuf, "application/json", b"{}"),
            Some((406, "NotAcceptable".into()))
        );
        assert_eq!(
            request(table, "application/json", b"{}"),
            Some((406, "NotAcceptable".into()))
        );
        assert_eq!(
            request("application/json", protobuf, b"k8s\0"),
            Some((415, "UnsupportedMediaType".into()))
        );
        // kubectl get falls back to JSON; kube's clients send JSON or nothing.
        assert_eq!(
            request(&format!("{table},application/json"), "application/json", b"{}"),
            None
        );
        assert_eq!(request(&format!("{protobuf}, */*"), "application/json", b"{}"), None);
        assert_eq!(request("", "", b""), None);
    }

    #[test]
    fn paths_of_namespaced_and_cluster_resources() {
        let t = target("GET", "/api/v1/namespaces/default/pods/web/status");
        assert_eq!((t.verb, t.resource.plural.as_str()), (Verb::Get, "pods"));
        assert_eq!(
            (t.namespace.as_deref(), t.name.as_deref(), t.subresource.as_deref()),
            (Some("default"), Some("web"), Some("status"))
        );
        let t = target("GET", "/api/v1/namespaces/default");
        assert_eq!(
            (t.resource.plural.as_str(), t.name.as_deref(), t.namespace),
            ("namespaces", Some("default"), None)
        );
        let t = target("DELETE", "/apis/apps/v1/deployments");
        assert_eq!((t.verb, t.namespace), (Verb::DeleteCollection, None));
        let t = target("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases");
        assert_eq!((t.verb, t.namespace.as_deref()), (Verb::Create, Some("kube-system")));
    }

    #[test]
    fn unknown_paths_and_methods() {
        let registry = Registry::default();
        let get = http::Method::GET;
        assert!(parse(&registry, &get, "/apis/example.com/v1/widgets", HashMap::new()).is_err());
        assert!(parse(&registry, &get, "/version", HashMap::new()).unwrap().is_none());
        assert!(
            parse(
                &registry,
                &http::Method::PUT,
                "/api/v1/namespaces/default/configmaps",
                HashMap::new()
            )
            .is_err()
        );
        assert!(
            parse(
                &registry,
                &get,
                "/api/v1/namespaces/default/configmaps/a/status",
                HashMap::new()
            )
            .is_err()
        );
    }
}
