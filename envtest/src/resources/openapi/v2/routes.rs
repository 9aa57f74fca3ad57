//! The paths of `/openapi/v2` as kube-apiserver 1.32 writes them: each resource's
//! routes as the endpoint installer registers them
//! (`staging/src/k8s.io/apiserver/pkg/endpoints/installer.go`: the actions, their
//! operation names, descriptions, parameters, media types and answers), a custom
//! resource's as apiextensions-apiserver's builder does
//! (`pkg/controller/openapi/builder`: no watch paths, JSON and YAML only), and
//! kube-openapi's builder turning routes into path items
//! (`k8s.io/kube-openapi/pkg/builder`: the parameters every operation of a path takes
//! moved up to the path, each list sorted by name and place, the operation id with its
//! group and version). Discovery's and the service-account issuer's paths come with
//! them.

use std::sync::LazyLock;

use serde_json::{Map, Value, json};

pub(super) use self::discovery::other_paths;

mod custom;
mod discovery;

/// The media types of a built-in resource's answers; a list or watch adds the streams.
const MEDIA: &[&str] = &[
    "application/json",
    "application/yaml",
    "application/vnd.kubernetes.protobuf",
];
const STREAMS: &[&str] = &[
    "application/json;stream=watch",
    "application/vnd.kubernetes.protobuf;stream=watch",
];
/// A custom resource's, for answers and bodies alike.
const CUSTOM_MEDIA: &[&str] = &["application/json", "application/yaml"];
const PATCHES: &[&str] = &[
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
];
const CUSTOM_PATCHES: &[&str] = &[
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
];
/// `ListOptions` as a query.
const LIST: &[&str] = &[
    "allowWatchBookmarks",
    "continue",
    "fieldSelector",
    "labelSelector",
    "limit",
    "resourceVersion",
    "resourceVersionMatch",
    "sendInitialEvents",
    "timeoutSeconds",
    "watch",
];
/// `CreateOptions` and `UpdateOptions`.
const WRITE: &[&str] = &["dryRun", "fieldManager", "fieldValidation"];
const PATCH: &[&str] = &["body.patch", "dryRun", "fieldManager.patch", "fieldValidation", "force"];
/// `DeleteOptions` as a query, with its body.
const DELETE: &[&str] = &[
    "body.delete",
    "dryRun",
    "gracePeriodSeconds",
    "ignoreStoreReadErrorWithClusterBreakingPotential",
    "orphanDependents",
    "propagationPolicy",
];
const LOG: &[&str] = &[
    "container.log",
    "follow",
    "insecureSkipTLSVerifyBackend",
    "limitBytes",
    "previous",
    "sinceSeconds",
    "stream",
    "tailLines",
    "timestamps",
];
const EXEC: &[&str] = &[
    "command",
    "container.exec",
    "stderr.exec",
    "stdin.exec",
    "stdout.exec",
    "tty.exec",
];
const ATTACH: &[&str] = &[
    "container.attach",
    "stderr.attach",
    "stdin.attach",
    "stdout.attach",
    "tty.attach",
];
/// The methods a `proxy` subresource connects.
const PROXY_METHODS: &[&str] = &["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH"];

/// The built-in resources whose storage answers a delete with the object it deleted
/// (`ReturnDeletedObject`), where the others answer a `Status`.
const RETURN_DELETED: &[(&str, &str)] = &[
    ("", "persistentvolumeclaims"),
    ("", "persistentvolumes"),
    ("", "pods"),
    ("", "podtemplates"),
    ("", "resourcequotas"),
    ("", "serviceaccounts"),
    ("", "services"),
    ("storage.k8s.io", "csidrivers"),
    ("storage.k8s.io", "csinodes"),
    ("storage.k8s.io", "storageclasses"),
    ("storage.k8s.io", "volumeattachments"),
];

/// The query, path and body parameters kube writes, by role (`fieldManager.patch` is
/// `PatchOptions`' wording of `fieldManager`): each as 1.32 describes it, its fields in
/// Go's order, which names a shared parameter by the hash of its JSON.
static PARAMETERS: LazyLock<Map<String, Value>> =
    LazyLock::new(|| serde_json::from_str::<Map<String, Value>>(include_str!("parameters.json")).unwrap_or_default());

fn parameter(role: &str) -> Value {
    PARAMETERS.get(role).cloned().unwrap_or(Value::Null)
}

fn parameters(roles: &[&str]) -> Vec<Value> {
    roles.iter().map(|role| parameter(role)).collect()
}

/// The `{name}` of an item's path, naming the kind.
fn name_parameter(kind: &str) -> Value {
    json!({"uniqueItems": true, "type": "string", "description": format!("name of the {kind}"),
        "name": "name", "in": "path", "required": true})
}

fn body(reference: &str) -> Value {
    json!({"name": "body", "in": "body", "required": true, "schema": {"$ref": reference}})
}

/// One route: a method on a path, before kube-openapi's builder shares its parameters.
struct Route {
    method: String,
    action: &'static str,
    /// The installer's operation name (`readNamespacedPodStatus`), without the group
    /// and version the operation id adds.
    operation: String,
    description: String,
    parameters: Vec<Value>,
    consumes: Vec<&'static str>,
    produces: Vec<&'static str>,
    responses: Vec<(u16, &'static str, Value)>,
    gvk: Option<Value>,
}

/// The definitions a route's answers and bodies refer to.
pub(super) struct Definitions<'d> {
    /// `#/definitions/<name>` by `group/version/kind`.
    pub by_kind: &'d Map<String, Value>,
}

impl Definitions<'_> {
    fn of(&self, group: &str, version: &str, kind: &str) -> Value {
        match self.by_kind.get(&format!("{group}/{version}/{kind}")) {
            Some(reference) => json!({"$ref": reference}),
            None => json!({"type": "object"}),
        }
    }

    fn reference(&self, group: &str, version: &str, kind: &str) -> String {
        self.of(group, version, kind)["$ref"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

fn meta(name: &str) -> Value {
    json!({"$ref": format!("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.{name}")})
}

/// One discovery entry of a group version.
struct Entry<'l> {
    plural: &'l str,
    subresource: Option<&'l str>,
    /// The kind it answers with, and that kind's group and version.
    kind: &'l str,
    kind_group: &'l str,
    kind_version: &'l str,
    namespaced: bool,
    verbs: Vec<&'l str>,
}

/// The paths of one group version's resources, from its discovery document.
pub(super) fn resource_paths(
    list: &Value,
    group: &str,
    version: &str,
    custom: bool,
    definitions: &Definitions<'_>,
    paths: &mut Map<String, Value>,
) {
    let prefix = if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    };
    let entries: Vec<Entry<'_>> = list["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|resource| {
            let name = resource["name"].as_str().unwrap_or_default();
            let (plural, subresource) = match name.split_once('/') {
                Some((plural, subresource)) => (plural, Some(subresource)),
                None => (name, None),
            };
            Entry {
                plural,
                subresource,
                kind: resource["kind"].as_str().unwrap_or_default(),
                kind_group: resource.get("group").and_then(Value::as_str).unwrap_or(group),
                kind_version: resource.get("version").and_then(Value::as_str).unwrap_or(version),
                namespaced: resource["namespaced"].as_bool().unwrap_or(false),
                verbs: resource["verbs"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect(),
            }
        })
        .collect();
    let mut routes: Vec<(String, Route)> = Vec::new();
    for entry in &entries {
        // A subresource's operations and descriptions name its resource's kind.
        let parent = entries
            .iter()
            .find(|e| e.plural == entry.plural && e.subresource.is_none())
            .map_or(entry.kind, |e| e.kind);
        let scope = Scope {
            prefix: &prefix,
            group,
            version,
            custom,
            definitions,
            parent,
        };
        if custom {
            scope.custom_routes(entry, &mut routes);
        } else {
            scope.builtin_routes(entry, &mut routes);
        }
    }
    for (path, route) in routes {
        let item = paths.entry(path).or_insert_with(|| json!({"routes": []}));
        if let Some(list) = item["routes"].as_array_mut() {
            list.push(route_value(route));
        }
    }
}

/// What the routes of one resource share.
struct Scope<'s> {
    prefix: &'s str,
    group: &'s str,
    version: &'s str,
    custom: bool,
    definitions: &'s Definitions<'s>,
    /// The kind of the resource (a subresource's parent's).
    parent: &'s str,
}

/// What the routes of one discovery entry share: its kind's group version kind and
/// definition, and its paths' scope.
struct Shape {
    gvk: Value,
    produced: Value,
    namespaced: &'static str,
    scope_path: String,
    scope_params: Vec<Value>,
    item_params: Vec<Value>,
}

/// Adds `route` at `path` with the path's parameters (and `pretty`, which every route
/// but a connect one takes).
fn push(routes: &mut Vec<(String, Route)>, path: String, mut route: Route, params: &[Value], with_pretty: bool) {
    route.parameters.extend(params.iter().cloned());
    if with_pretty {
        route.parameters.push(parameter("pretty"));
    }
    routes.push((path, route));
}

impl Scope<'_> {
    fn route(&self, method: &str, action: &'static str, operation: String, description: String, gvk: &Value) -> Route {
        let media = if self.custom { CUSTOM_MEDIA } else { MEDIA };
        Route {
            method: method.to_ascii_lowercase(),
            action,
            operation,
            description,
            parameters: Vec::new(),
            consumes: if self.custom {
                CUSTOM_MEDIA.to_vec()
            } else {
                vec!["*/*"]
            },
            produces: media.to_vec(),
            responses: Vec::new(),
            gvk: Some(gvk.clone()),
        }
    }

    /// What every route of a built-in resource's entry shares.
    fn shape(&self, entry: &Entry<'_>) -> Shape {
        let scope_path = if entry.namespaced {
            format!("{}/namespaces/{{namespace}}", self.prefix)
        } else {
            self.prefix.to_owned()
        };
        let mut scope_params = Vec::new();
        if entry.namespaced {
            scope_params.push(parameter("namespace"));
        }
        let mut item_params = scope_params.clone();
        item_params.push(name_parameter(entry.kind));
        Shape {
            gvk: json!({"group": entry.kind_group, "version": entry.kind_version, "kind": entry.kind}),
            produced: self.definitions.of(entry.kind_group, entry.kind_version, entry.kind),
            namespaced: if entry.namespaced { "Namespaced" } else { "" },
            scope_path,
            scope_params,
            item_params,
        }
    }

    fn builtin_routes(&self, entry: &Entry<'_>, routes: &mut Vec<(String, Route)>) {
        let shape = self.shape(entry);
        match entry.subresource {
            None => self.collection_routes(entry, &shape, routes),
            // A connect subresource (`PodExecOptions`...; `log` is read).
            Some(subresource) if entry.kind.ends_with("Options") && subresource != "log" => {
                self.connect_routes(entry, subresource, &shape, routes);
            }
            Some(subresource) => {
                let item = format!("{}/{}/{{name}}/{subresource}", shape.scope_path, entry.plural);
                self.item_routes(entry, &item, Some(subresource), &shape, routes);
            }
        }
    }

    /// A resource's collection, its list across namespaces, its watch paths and its
    /// item.
    fn collection_routes(&self, entry: &Entry<'_>, shape: &Shape, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let has = |verb: &str| entry.verbs.contains(&verb);
        let Shape {
            gvk,
            produced,
            namespaced,
            scope_path,
            scope_params,
            item_params: _,
        } = shape;
        {
            let collection = format!("{scope_path}/{}", entry.plural);
            let item = format!("{collection}/{{name}}");
            let list_kind = format!("{}List", entry.kind);
            let list_schema = self.definitions.of(self.group, self.version, &list_kind);
            let watchable = has("watch") && has("list");
            if has("list") {
                let doc = if watchable {
                    "list or watch objects of kind "
                } else {
                    "list objects of kind "
                };
                let mut list = self.route(
                    "GET",
                    "list",
                    format!("list{namespaced}{kind}"),
                    format!("{doc}{kind}"),
                    gvk,
                );
                list.produces.extend(STREAMS);
                list.parameters = parameters(LIST);
                list.responses = vec![(200, "OK", list_schema.clone())];
                if entry.namespaced {
                    let mut all = self.route(
                        "GET",
                        "list",
                        format!("list{kind}ForAllNamespaces"),
                        format!("{doc}{kind}"),
                        gvk,
                    );
                    all.produces.extend(STREAMS);
                    all.parameters = parameters(LIST);
                    all.responses = vec![(200, "OK", list_schema.clone())];
                    push(routes, format!("{}/{}", self.prefix, entry.plural), all, &[], true);
                }
                push(routes, collection.clone(), list, scope_params, true);
            }
            if has("create") {
                let article = article(kind);
                let mut create = self.route(
                    "POST",
                    "post",
                    format!("create{namespaced}{kind}"),
                    format!("create{article}{kind}"),
                    gvk,
                );
                create.parameters = vec![body(&self.definitions.reference(
                    entry.kind_group,
                    entry.kind_version,
                    entry.kind,
                ))];
                create.parameters.extend(parameters(WRITE));
                create.responses = vec![
                    (200, "OK", produced.clone()),
                    (201, "Created", produced.clone()),
                    (202, "Accepted", produced.clone()),
                ];
                push(routes, collection.clone(), create, scope_params, true);
            }
            if has("deletecollection") {
                let mut delete = self.route(
                    "DELETE",
                    "deletecollection",
                    format!("deletecollection{namespaced}{kind}"),
                    format!("delete collection of {kind}"),
                    gvk,
                );
                delete.parameters = parameters(DELETE);
                delete.parameters.extend(
                    parameters(LIST)
                        .into_iter()
                        .filter(|p| p["name"] != "watch" && p["name"] != "allowWatchBookmarks"),
                );
                delete.responses = vec![(200, "OK", meta("Status"))];
                push(routes, collection.clone(), delete, scope_params, true);
            }
            if watchable {
                self.watch_routes(entry, shape, routes);
            }
            self.item_routes(entry, &item, None, shape, routes);
        }
    }

    /// The deprecated watch paths of a resource that can be listed and watched: the
    /// collection's (in a namespace and across them) and an item's.
    fn watch_routes(&self, entry: &Entry<'_>, shape: &Shape, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let (gvk, namespaced, scope_params, item_params) =
            (&shape.gvk, shape.namespaced, &shape.scope_params, &shape.item_params);
        let watch_event = meta("WatchEvent");
        let watch_list = |operation: String| {
            let mut watch = self.route("GET", "watchlist", operation, format!("watch individual changes to a list of {kind}. deprecated: use the 'watch' parameter with a list operation instead."), gvk);
            watch.produces.extend(STREAMS);
            watch.parameters = parameters(LIST);
            watch.responses = vec![(200, "OK", watch_event.clone())];
            watch
        };
        let watch_prefix = format!("{}/watch", self.prefix);
        if entry.namespaced {
            push(
                routes,
                format!("{watch_prefix}/{}", entry.plural),
                watch_list(format!("watch{kind}ListForAllNamespaces")),
                &[],
                true,
            );
            push(
                routes,
                format!("{watch_prefix}/namespaces/{{namespace}}/{}", entry.plural),
                watch_list(format!("watch{namespaced}{kind}List")),
                scope_params,
                true,
            );
        } else {
            push(
                routes,
                format!("{watch_prefix}/{}", entry.plural),
                watch_list(format!("watch{kind}List")),
                &[],
                true,
            );
        }
        let mut watch = self.route("GET", "watch", format!("watch{namespaced}{kind}"), format!("watch changes to an object of kind {kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter."), gvk);
        watch.produces.extend(STREAMS);
        watch.parameters = parameters(LIST);
        watch.responses = vec![(200, "OK", watch_event)];
        let watch_item = if entry.namespaced {
            format!("{watch_prefix}/namespaces/{{namespace}}/{}/{{name}}", entry.plural)
        } else {
            format!("{watch_prefix}/{}/{{name}}", entry.plural)
        };
        push(routes, watch_item, watch, item_params, true);
    }

    /// A connect subresource's routes: one per method it connects (a proxy's also with
    /// a `{path}`).
    fn connect_routes(&self, entry: &Entry<'_>, subresource: &str, shape: &Shape, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let (namespaced, gvk, item_params) = (shape.namespaced, &shape.gvk, &shape.item_params);
        let item = format!("{}/{}/{{name}}/{subresource}", shape.scope_path, entry.plural);
        let title = title(subresource);
        {
            let (methods, options): (&[&str], &[&str]) = match subresource {
                "exec" => (&["GET", "POST"], EXEC),
                "attach" => (&["GET", "POST"], ATTACH),
                "portforward" => (&["GET", "POST"], &["ports"]),
                _ => (PROXY_METHODS, &[]),
            };
            let proxy_path = match kind {
                "Pod" => "path.pod",
                "Node" => "path.node",
                _ => "path.service",
            };
            let connect = |method: &str, suffix: &str| {
                let mut route = self.route(
                    method,
                    "connect",
                    format!("connect{}{namespaced}{kind}{title}{suffix}", title_lower(method)),
                    format!("connect {method} requests to {subresource} of {kind}"),
                    gvk,
                );
                route.consumes = vec!["*/*"];
                route.produces = vec!["*/*"];
                route.responses = vec![(200, "OK", json!({"type": "string"}))];
                route.parameters = parameters(options);
                if subresource == "proxy" {
                    route.parameters.push(parameter(proxy_path));
                }
                route
            };
            for method in methods {
                push(routes, item.clone(), connect(method, ""), item_params, false);
                if subresource == "proxy" {
                    let mut with_path = item_params.clone();
                    with_path.push(parameter("path"));
                    push(
                        routes,
                        format!("{item}/{{path}}"),
                        connect(method, "WithPath"),
                        &with_path,
                        false,
                    );
                }
            }
        }
    }

    /// The get, put, patch, delete and (for a subresource) post of an item.
    fn item_routes(
        &self,
        entry: &Entry<'_>,
        item: &str,
        subresource: Option<&str>,
        shape: &Shape,
        routes: &mut Vec<(String, Route)>,
    ) {
        let (gvk, produced, item_params) = (&shape.gvk, &shape.produced, &shape.item_params);
        let kind = self.parent;
        let has = |verb: &str| entry.verbs.contains(&verb);
        let namespaced = shape.namespaced;
        let title = subresource.map(title).unwrap_or_default();
        let doc = |whole: &str, part: &str| match subresource {
            Some(subresource) => format!("{part} {subresource} of the specified {kind}"),
            None => format!("{whole} the specified {kind}"),
        };
        let reference = self
            .definitions
            .reference(entry.kind_group, entry.kind_version, entry.kind);
        if has("get") {
            let mut get = self.route(
                "GET",
                "get",
                format!("read{namespaced}{kind}{title}"),
                doc("read", "read"),
                gvk,
            );
            get.responses = vec![(200, "OK", produced.clone())];
            if subresource == Some("log") {
                get.produces.insert(0, "text/plain");
                get.parameters = parameters(LOG);
                get.responses = vec![(200, "OK", json!({"type": "string"}))];
            }
            push(routes, item.to_owned(), get, item_params, true);
        }
        if has("update") {
            let mut put = self.route(
                "PUT",
                "put",
                format!("replace{namespaced}{kind}{title}"),
                doc("replace", "replace"),
                gvk,
            );
            put.parameters = vec![body(&reference)];
            put.parameters.extend(parameters(WRITE));
            put.responses = vec![(200, "OK", produced.clone()), (201, "Created", produced.clone())];
            push(routes, item.to_owned(), put, item_params, true);
        }
        if has("patch") {
            let mut patch = self.route(
                "PATCH",
                "patch",
                format!("patch{namespaced}{kind}{title}"),
                doc("partially update", "partially update"),
                gvk,
            );
            patch.consumes = PATCHES.to_vec();
            patch.parameters = parameters(PATCH);
            patch.responses = vec![(200, "OK", produced.clone()), (201, "Created", produced.clone())];
            push(routes, item.to_owned(), patch, item_params, true);
        }
        if let Some(subresource) = subresource
            && has("create")
        {
            let article = article(kind);
            let mut create = self.route(
                "POST",
                "post",
                format!("create{namespaced}{kind}{title}"),
                format!("create {subresource} of{article}{kind}"),
                gvk,
            );
            create.parameters = vec![body(&reference)];
            create.parameters.extend(parameters(WRITE));
            create.responses = vec![
                (200, "OK", produced.clone()),
                (201, "Created", produced.clone()),
                (202, "Accepted", produced.clone()),
            ];
            push(routes, item.to_owned(), create, item_params, true);
        }
        if subresource.is_none() && has("delete") {
            let article = article(kind);
            let returned = if RETURN_DELETED.contains(&(self.group, entry.plural)) {
                produced.clone()
            } else {
                meta("Status")
            };
            let mut delete = self.route(
                "DELETE",
                "delete",
                format!("delete{namespaced}{kind}"),
                format!("delete{article}{kind}"),
                gvk,
            );
            delete.parameters = parameters(DELETE);
            delete.responses = vec![(200, "OK", returned.clone()), (202, "Accepted", returned)];
            push(routes, item.to_owned(), delete, item_params, true);
        }
    }
}

/// A route as the builder's input: kept as JSON until its path's routes are all known.
fn route_value(route: Route) -> Value {
    json!({
        "method": route.method,
        "action": route.action,
        "operation": route.operation,
        "description": route.description,
        "parameters": route.parameters,
        "consumes": route.consumes,
        "produces": route.produces,
        "responses": route.responses.into_iter().map(|(code, text, schema)| json!([code, text, schema])).collect::<Vec<_>>(),
        "gvk": route.gvk,
    })
}

/// `GetArticleForNoun(noun, " ")`.
fn article(noun: &str) -> &'static str {
    if !noun.ends_with("ss") && noun.ends_with('s') {
        return " ";
    }
    match noun.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => " an ",
        _ => " a ",
    }
}

/// `strings.Title` of one word.
fn title(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `strings.Title(strings.ToLower(method))`.
fn title_lower(method: &str) -> String {
    title(&method.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_as_kube_writes_them() {
        assert_eq!(format!("create{}Pod", article("Pod")), "create a Pod");
        assert_eq!(format!("create{}Eviction", article("Eviction")), "create an Eviction");
        assert_eq!(format!("delete{}Endpoints", article("Endpoints")), "delete Endpoints");
        assert_eq!(
            format!("create{}IngressClass", article("IngressClass")),
            "create an IngressClass"
        );
    }

    #[test]
    fn every_role_is_in_the_table() {
        for roles in [LIST, WRITE, PATCH, DELETE, LOG, EXEC, ATTACH] {
            for role in roles {
                assert!(parameter(role).is_object(), "{role}");
            }
        }
        for role in [
            "namespace",
            "pretty",
            "ports",
            "path",
            "path.pod",
            "path.node",
            "path.service",
        ] {
            assert!(parameter(role).is_object(), "{role}");
        }
    }
}
