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

    fn builtin_routes(&self, entry: &Entry<'_>, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let gvk = json!({"group": entry.kind_group, "version": entry.kind_version, "kind": entry.kind});
        let produced = self.definitions.of(entry.kind_group, entry.kind_version, entry.kind);
        let has = |verb: &str| entry.verbs.contains(&verb);
        let namespaced = if entry.namespaced { "Namespaced" } else { "" };
        let scope_path = if entry.namespaced {
            format!("{}/namespaces/{{namespace}}", self.prefix)
        } else {
            self.prefix.to_owned()
        };
        let mut scope_params = Vec::new();
        if entry.namespaced {
            scope_params.push(parameter("namespace"));
        }
        let item_params = {
            let mut params = scope_params.clone();
            params.push(name_parameter(entry.kind));
            params
        };
        let pretty = parameter("pretty");
        let mut add = |path: String, mut route: Route, params: &[Value], with_pretty: bool| {
            route.parameters.extend(params.iter().cloned());
            if with_pretty {
                route.parameters.push(pretty.clone());
            }
            routes.push((path, route));
        };

        let Some(subresource) = entry.subresource else {
            let collection = format!("{scope_path}/{}", entry.plural);
            let item = format!("{collection}/{{name}}");
            let list_kind = format!("{}List", entry.kind);
            let list_schema = self.definitions.of(self.group, self.version, &list_kind);
            let watchable = has("watch") && has("list");
            let watch_event = meta("WatchEvent");
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
                    &gvk,
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
                        &gvk,
                    );
                    all.produces.extend(STREAMS);
                    all.parameters = parameters(LIST);
                    all.responses = vec![(200, "OK", list_schema.clone())];
                    add(format!("{}/{}", self.prefix, entry.plural), all, &[], true);
                }
                add(collection.clone(), list, &scope_params, true);
            }
            if has("create") {
                let article = article(kind);
                let mut create = self.route(
                    "POST",
                    "post",
                    format!("create{namespaced}{kind}"),
                    format!("create{article}{kind}"),
                    &gvk,
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
                add(collection.clone(), create, &scope_params, true);
            }
            if has("deletecollection") {
                let mut delete = self.route(
                    "DELETE",
                    "deletecollection",
                    format!("deletecollection{namespaced}{kind}"),
                    format!("delete collection of {kind}"),
                    &gvk,
                );
                delete.parameters = parameters(DELETE);
                delete.parameters.extend(
                    parameters(LIST)
                        .into_iter()
                        .filter(|p| p["name"] != "watch" && p["name"] != "allowWatchBookmarks"),
                );
                delete.responses = vec![(200, "OK", meta("Status"))];
                add(collection.clone(), delete, &scope_params, true);
            }
            if watchable {
                let watch_list = |operation: String| {
                    let mut watch = self.route("GET", "watchlist", operation, format!("watch individual changes to a list of {kind}. deprecated: use the 'watch' parameter with a list operation instead."), &gvk);
                    watch.produces.extend(STREAMS);
                    watch.parameters = parameters(LIST);
                    watch.responses = vec![(200, "OK", watch_event.clone())];
                    watch
                };
                let watch_prefix = format!("{}/watch", self.prefix);
                if entry.namespaced {
                    add(
                        format!("{watch_prefix}/{}", entry.plural),
                        watch_list(format!("watch{kind}ListForAllNamespaces")),
                        &[],
                        true,
                    );
                    add(
                        format!("{watch_prefix}/namespaces/{{namespace}}/{}", entry.plural),
                        watch_list(format!("watch{namespaced}{kind}List")),
                        &scope_params,
                        true,
                    );
                } else {
                    add(
                        format!("{watch_prefix}/{}", entry.plural),
                        watch_list(format!("watch{kind}List")),
                        &[],
                        true,
                    );
                }
                let mut watch = self.route("GET", "watch", format!("watch{namespaced}{kind}"), format!("watch changes to an object of kind {kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter."), &gvk);
                watch.produces.extend(STREAMS);
                watch.parameters = parameters(LIST);
                watch.responses = vec![(200, "OK", watch_event)];
                let watch_item = if entry.namespaced {
                    format!("{watch_prefix}/namespaces/{{namespace}}/{}/{{name}}", entry.plural)
                } else {
                    format!("{watch_prefix}/{}/{{name}}", entry.plural)
                };
                add(watch_item, watch, &item_params, true);
            }
            self.item_routes(entry, &item, None, &gvk, &produced, &item_params, &mut add);
            return;
        };

        let item = format!("{scope_path}/{}/{{name}}/{subresource}", entry.plural);
        let title = title(subresource);
        if entry.kind.ends_with("Options") && subresource != "log" {
            // A connect subresource: one route per method it connects.
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
                    &gvk,
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
                add(item.clone(), connect(method, ""), &item_params, false);
                if subresource == "proxy" {
                    let mut with_path = item_params.clone();
                    with_path.push(parameter("path"));
                    add(
                        format!("{item}/{{path}}"),
                        connect(method, "WithPath"),
                        &with_path,
                        false,
                    );
                }
            }
            return;
        }
        self.item_routes(entry, &item, Some(subresource), &gvk, &produced, &item_params, &mut add);
    }

    /// The get, put, patch, delete and (for a subresource) post of an item.
    #[allow(clippy::too_many_arguments)]
    fn item_routes(
        &self,
        entry: &Entry<'_>,
        item: &str,
        subresource: Option<&str>,
        gvk: &Value,
        produced: &Value,
        item_params: &[Value],
        add: &mut impl FnMut(String, Route, &[Value], bool),
    ) {
        let kind = self.parent;
        let has = |verb: &str| entry.verbs.contains(&verb);
        let namespaced = if entry.namespaced { "Namespaced" } else { "" };
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
            add(item.to_owned(), get, item_params, true);
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
            add(item.to_owned(), put, item_params, true);
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
            add(item.to_owned(), patch, item_params, true);
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
            add(item.to_owned(), create, item_params, true);
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
            add(item.to_owned(), delete, item_params, true);
        }
    }

    /// A custom resource's routes, as apiextensions-apiserver's builder writes them.
    fn custom_routes(&self, entry: &Entry<'_>, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        // A custom resource's operations all carry its own kind, its scale's too.
        let gvk = json!({"group": self.group, "version": self.version, "kind": kind});
        let produced = self.definitions.of(entry.kind_group, entry.kind_version, entry.kind);
        let reference = self.definitions.reference(self.group, self.version, kind);
        let has = |verb: &str| entry.verbs.contains(&verb);
        let namespaced = if entry.namespaced { "Namespaced" } else { "" };
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
        item_params.push(name_parameter(kind));
        let pretty = parameter("pretty");
        let mut add = |path: String, mut route: Route, params: &[Value]| {
            route.parameters.extend(params.iter().cloned());
            route.parameters.push(pretty.clone());
            routes.push((path, route));
        };
        let title = entry.subresource.map(title).unwrap_or_default();
        let doc = |whole: &str| match entry.subresource {
            Some(subresource) => format!("{whole} {subresource} of the specified {kind}"),
            None => format!("{whole} the specified {kind}"),
        };
        let item = match entry.subresource {
            Some(subresource) => format!("{scope_path}/{}/{{name}}/{subresource}", entry.plural),
            None => format!("{scope_path}/{}/{{name}}", entry.plural),
        };
        if entry.subresource.is_none() {
            let collection = format!("{scope_path}/{}", entry.plural);
            let list_schema = self.definitions.of(self.group, self.version, &format!("{kind}List"));
            if has("list") {
                let mut list = self.route(
                    "GET",
                    "list",
                    format!("list{namespaced}{kind}"),
                    format!("list objects of kind {kind}"),
                    &gvk,
                );
                list.parameters = parameters(LIST);
                list.responses = vec![(200, "OK", list_schema.clone())];
                if entry.namespaced {
                    let mut all = self.route(
                        "GET",
                        "list",
                        format!("list{kind}ForAllNamespaces"),
                        format!("list objects of kind {kind}"),
                        &gvk,
                    );
                    all.parameters = parameters(LIST);
                    all.responses = vec![(200, "OK", list_schema)];
                    add(format!("{}/{}", self.prefix, entry.plural), all, &[]);
                }
                add(collection.clone(), list, &scope_params);
            }
            if has("create") {
                let mut create = self.route(
                    "POST",
                    "post",
                    format!("create{namespaced}{kind}"),
                    format!("create{}{kind}", article(kind)),
                    &gvk,
                );
                create.parameters = vec![body(&reference)];
                create.parameters.extend(parameters(WRITE));
                create.responses = vec![
                    (200, "OK", produced.clone()),
                    (201, "Created", produced.clone()),
                    (202, "Accepted", produced.clone()),
                ];
                add(collection.clone(), create, &scope_params);
            }
            if has("deletecollection") {
                let mut delete = self.route(
                    "DELETE",
                    "deletecollection",
                    format!("deletecollection{namespaced}{kind}"),
                    format!("delete collection of {kind}"),
                    &gvk,
                );
                delete.parameters = parameters(LIST);
                delete.responses = vec![(200, "OK", meta("Status"))];
                add(collection, delete, &scope_params);
            }
        }
        if has("get") {
            let mut get = self.route(
                "GET",
                "get",
                format!("read{namespaced}{kind}{title}"),
                doc("read"),
                &gvk,
            );
            get.parameters = vec![parameter("resourceVersion")];
            get.responses = vec![(200, "OK", produced.clone())];
            add(item.clone(), get, &item_params);
        }
        if has("update") {
            let mut put = self.route(
                "PUT",
                "put",
                format!("replace{namespaced}{kind}{title}"),
                doc("replace"),
                &gvk,
            );
            put.parameters = vec![body(&self.definitions.reference(
                entry.kind_group,
                entry.kind_version,
                entry.kind,
            ))];
            put.parameters.extend(parameters(WRITE));
            put.responses = vec![(200, "OK", produced.clone()), (201, "Created", produced.clone())];
            add(item.clone(), put, &item_params);
        }
        if entry.subresource.is_none() && has("delete") {
            let mut delete = self.route(
                "DELETE",
                "delete",
                format!("delete{namespaced}{kind}"),
                format!("delete{}{kind}", article(kind)),
                &gvk,
            );
            delete.parameters = parameters(DELETE);
            delete.responses = vec![(200, "OK", meta("Status")), (202, "Accepted", meta("Status"))];
            add(item.clone(), delete, &item_params);
        }
        if has("patch") {
            let mut patch = self.route(
                "PATCH",
                "patch",
                format!("patch{namespaced}{kind}{title}"),
                doc("partially update"),
                &gvk,
            );
            patch.consumes = CUSTOM_PATCHES.to_vec();
            patch.parameters = parameters(PATCH);
            patch.responses = vec![(200, "OK", produced)];
            add(item, patch, &item_params);
        }
    }
}

/// Discovery's paths (`/api/`, `/apis/`, each group's and group version's), `/version/`
/// and the service-account issuer's documents, as kube-apiserver registers them.
pub(super) fn other_paths(groups: &[(String, Vec<String>)], paths: &mut Map<String, Value>) {
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

/// kube-openapi's `buildPaths` for one path: the parameters (other than a body) that
/// every route takes go to the path, the rest stay with their operation, both sorted
/// by name and place; each operation gets its id and tags from its path
/// (`GetOperationIDAndTags`), its answers and the `401` every operation may answer.
pub(super) fn path_item(path: &str, routes: &[Value]) -> Value {
    let key = |p: &Value| format!("{}\u{0}{}", text(&p["name"]), text(&p["in"]));
    let common: Vec<Value> = routes
        .first()
        .map(|first| {
            first["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["in"] != "body")
                .filter(|p| {
                    routes.iter().all(|route| {
                        route["parameters"]
                            .as_array()
                            .is_some_and(|ps| ps.iter().any(|q| key(q) == key(p)))
                    })
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let common_keys: Vec<String> = common.iter().map(key).collect();
    let mut item = Map::new();
    item.insert("parameters".into(), Value::Array(sorted(common)));
    for route in routes {
        let own: Vec<Value> = route["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| !common_keys.contains(&key(p)))
            .cloned()
            .collect();
        let (id, tags) = operation_id(text(&route["operation"]), path);
        let mut responses = Map::new();
        for answer in route["responses"].as_array().into_iter().flatten() {
            responses.insert(
                answer[0].to_string(),
                json!({"description": answer[1], "schema": answer[2]}),
            );
        }
        responses.insert("401".into(), json!({"description": "Unauthorized"}));
        let mut operation = json!({
            "description": route["description"],
            "produces": route["produces"],
            "schemes": ["https"],
            "tags": tags,
            "operationId": id,
            "responses": responses,
        });
        if route["consumes"].as_array().is_some_and(|c| !c.is_empty()) {
            operation["consumes"] = route["consumes"].clone();
        }
        if !own.is_empty() {
            operation["parameters"] = Value::Array(sorted(own));
        }
        if !text(&route["action"]).is_empty() {
            operation["x-kubernetes-action"] = route["action"].clone();
        }
        if route["gvk"].is_object() {
            operation["x-kubernetes-group-version-kind"] = route["gvk"].clone();
        }
        item.insert(text(&route["method"]).to_owned(), operation);
    }
    if item["parameters"].as_array().is_some_and(Vec::is_empty) {
        item.remove("parameters");
    }
    Value::Object(item)
}

/// Parameters sorted by name, then place (`byNameIn`).
fn sorted(mut parameters: Vec<Value>) -> Vec<Value> {
    parameters.sort_by(|a, b| (text(&a["name"]), text(&a["in"])).cmp(&(text(&b["name"]), text(&b["in"]))));
    parameters
}

/// The verbs an operation name starts with (`openapi.verbs`): the first that ends a
/// prefix of the name is its verb, so `deletecollection...` is `delete` and
/// `Collection...`.
const VERBS: &[&str] = &[
    "get",
    "log",
    "read",
    "replace",
    "patch",
    "delete",
    "deletecollection",
    "watch",
    "connect",
    "proxy",
    "list",
    "create",
];

/// `GetOperationIDAndTags`: the group (less `.k8s.io`) and version go after the verb,
/// each made a valid identifier; the tag is the group and version.
fn operation_id(operation: &str, path: &str) -> (String, Vec<String>) {
    let verb = (1..=operation.len())
        .filter(|end| operation.is_char_boundary(*end))
        .map(|end| &operation[..end])
        .find(|prefix| VERBS.contains(prefix))
        .unwrap_or_default();
    let rest = &operation[verb.len()..];
    let mut parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.first() == Some(&"api") {
        parts.splice(0..1, ["apis", "core"]);
    }
    let mut prefix = verb.to_owned();
    let mut tags = Vec::new();
    if parts.len() >= 2 && parts[0] == "apis" {
        let trimmed = parts[1].strip_suffix(".k8s.io").unwrap_or(parts[1]);
        prefix.push_str(&valid_id(trimmed, !prefix.is_empty()));
        let mut tag = valid_id(trimmed, false);
        if parts.len() > 2 {
            prefix.push_str(&valid_id(parts[2], !prefix.is_empty()));
            tag = format!("{tag}_{}", valid_id(parts[2], false));
        }
        tags.push(tag);
    } else if let Some(first) = parts.first() {
        tags.push(valid_id(first, false));
    }
    let capitalize = !prefix.is_empty();
    (format!("{prefix}{}", valid_id(rest, capitalize)), tags)
}

/// `ToValidOperationID`: letters and `_` kept (digits too, past the first), anything
/// else dropped and the next letter capitalized.
fn valid_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::new();
    let mut capitalize = capitalize_first;
    for (i, c) in s.char_indices() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
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

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_carry_the_group_and_version_after_the_verb() {
        let cases = [
            (
                "readNamespacedPod",
                "/api/v1/namespaces/{namespace}/pods/{name}",
                "readCoreV1NamespacedPod",
                "core_v1",
            ),
            (
                "deletecollectionNamespacedPod",
                "/api/v1/namespaces/{namespace}/pods",
                "deleteCoreV1CollectionNamespacedPod",
                "core_v1",
            ),
            (
                "listDeploymentForAllNamespaces",
                "/apis/apps/v1/deployments",
                "listAppsV1DeploymentForAllNamespaces",
                "apps_v1",
            ),
            (
                "connectGetNamespacedPodExec",
                "/api/v1/namespaces/{namespace}/pods/{name}/exec",
                "connectCoreV1GetNamespacedPodExec",
                "core_v1",
            ),
            (
                "getAPIGroup",
                "/apis/rbac.authorization.k8s.io/",
                "getRbacAuthorizationAPIGroup",
                "rbacAuthorization",
            ),
            (
                "listNamespacedGadget",
                "/apis/probe.example.com/v1/namespaces/{namespace}/gadgets",
                "listProbeExampleComV1NamespacedGadget",
                "probeExampleCom_v1",
            ),
            (
                "getServiceAccountIssuerOpenIDConfiguration",
                "/.well-known/openid-configuration/",
                "getServiceAccountIssuerOpenIDConfiguration",
                "WellKnown",
            ),
        ];
        for (operation, path, id, tag) in cases {
            assert_eq!(
                operation_id(operation, path),
                (id.to_owned(), vec![tag.to_owned()]),
                "{operation}"
            );
        }
    }

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
