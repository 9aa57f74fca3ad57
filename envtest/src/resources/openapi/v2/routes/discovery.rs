//! The paths kube-apiserver registers besides its resources': discovery's (`/api/`,
//! `/apis/`, each group's and group version's), `/version/` and the service-account
//! issuer's documents.

use serde_json::{Map, Value, json};

use super::{MEDIA, Route, meta, route_value};

/// Discovery's paths (`/api/`, `/apis/`, each group's and group version's), `/version/`
/// and the service-account issuer's documents, as kube-apiserver registers them.
pub(in crate::resources::openapi::v2) fn other_paths(groups: &[(String, Vec<String>)], paths: &mut Map<String, Value>) {
    let get = |path: &str,
               operation: &str,
               description: &str,
               consumes: &[&'static str],
               produces: &[&'static str],
               schema: Value| {
        let route = Route {
            method: "get".into(),
            action: "",
            operation: operation.into(),
            description: description.into(),
            parameters: Vec::new(),
            consumes: consumes.to_vec(),
            produces: produces.to_vec(),
            responses: vec![(200, "OK", schema)],
            gvk: None,
        };
        (path.to_owned(), json!({"routes": [route_value(route)]}))
    };
    let mut add = |(path, item): (String, Value)| {
        paths.insert(path, item);
    };
    add(get(
        "/api/",
        "getAPIVersions",
        "get available API versions",
        MEDIA,
        MEDIA,
        meta("APIVersions"),
    ));
    add(get(
        "/apis/",
        "getAPIVersions",
        "get available API versions",
        MEDIA,
        MEDIA,
        meta("APIGroupList"),
    ));
    for (group, versions) in groups {
        if group.is_empty() {
            for version in versions {
                add(get(
                    &format!("/api/{version}/"),
                    "getAPIResources",
                    "get available resources",
                    MEDIA,
                    MEDIA,
                    meta("APIResourceList"),
                ));
            }
            continue;
        }
        add(get(
            &format!("/apis/{group}/"),
            "getAPIGroup",
            "get information of a group",
            MEDIA,
            MEDIA,
            meta("APIGroup"),
        ));
        for version in versions {
            add(get(
                &format!("/apis/{group}/{version}/"),
                "getAPIResources",
                "get available resources",
                MEDIA,
                MEDIA,
                meta("APIResourceList"),
            ));
        }
    }
    let json_only = &["application/json"];
    add(get(
        "/version/",
        "getCodeVersion",
        "get the code version",
        json_only,
        json_only,
        json!({"$ref": "#/definitions/io.k8s.apimachinery.pkg.version.Info"}),
    ));
    add(get(
        "/.well-known/openid-configuration/",
        "getServiceAccountIssuerOpenIDConfiguration",
        "get service account issuer OpenID configuration, also known as the 'OIDC discovery doc'",
        &[],
        json_only,
        json!({"type": "string"}),
    ));
    add(get(
        "/openid/v1/jwks/",
        "getServiceAccountIssuerOpenIDKeyset",
        "get service account issuer OpenID JSON Web Key Set (contains public token verification keys)",
        &[],
        &["application/jwk-set+json"],
        json!({"type": "string"}),
    ));
}
