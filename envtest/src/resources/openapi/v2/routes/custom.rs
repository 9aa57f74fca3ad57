//! A custom resource's routes as apiextensions-apiserver's builder writes them
//! (`pkg/controller/openapi/builder`): JSON and YAML only, no watch paths, a read that
//! takes `resourceVersion`, every operation carrying the resource's own kind.

use serde_json::json;

use super::{
    CUSTOM_PATCHES, DELETE, Entry, LIST, PATCH, Route, Scope, Shape, WRITE, article, body, meta, name_parameter,
    parameter, parameters, push, title,
};

impl Scope<'_> {
    /// A custom resource's routes, as apiextensions-apiserver's builder writes them.
    pub(super) fn custom_routes(&self, entry: &Entry<'_>, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let mut shape = self.shape(entry);
        // A custom resource's operations all carry its own kind, its scale's too, and
        // its items are named by it.
        shape.gvk = json!({"group": self.group, "version": self.version, "kind": kind});
        shape.item_params.pop();
        shape.item_params.push(name_parameter(kind));
        if entry.subresource.is_none() {
            self.custom_collection_routes(entry, &shape, routes);
        }
        self.custom_item_routes(entry, &shape, routes);
    }

    /// A custom resource's collection and its list across namespaces.
    fn custom_collection_routes(&self, entry: &Entry<'_>, shape: &Shape, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let has = |verb: &str| entry.verbs.contains(&verb);
        let (gvk, produced, namespaced, scope_path, scope_params) = (
            &shape.gvk,
            &shape.produced,
            shape.namespaced,
            &shape.scope_path,
            &shape.scope_params,
        );
        let reference = self.definitions.reference(self.group, self.version, kind);
        {
            let collection = format!("{scope_path}/{}", entry.plural);
            let list_schema = self.definitions.of(self.group, self.version, &format!("{kind}List"));
            if has("list") {
                let mut list = self.route(
                    "GET",
                    "list",
                    format!("list{namespaced}{kind}"),
                    format!("list objects of kind {kind}"),
                    gvk,
                );
                list.parameters = parameters(LIST);
                list.responses = vec![(200, "OK", list_schema.clone())];
                if entry.namespaced {
                    let mut all = self.route(
                        "GET",
                        "list",
                        format!("list{kind}ForAllNamespaces"),
                        format!("list objects of kind {kind}"),
                        gvk,
                    );
                    all.parameters = parameters(LIST);
                    all.responses = vec![(200, "OK", list_schema)];
                    push(routes, format!("{}/{}", self.prefix, entry.plural), all, &[], true);
                }
                push(routes, collection.clone(), list, scope_params, true);
            }
            if has("create") {
                let mut create = self.route(
                    "POST",
                    "post",
                    format!("create{namespaced}{kind}"),
                    format!("create{}{kind}", article(kind)),
                    gvk,
                );
                create.parameters = vec![body(&reference)];
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
                delete.parameters = parameters(LIST);
                delete.responses = vec![(200, "OK", meta("Status"))];
                push(routes, collection, delete, scope_params, true);
            }
        }
    }

    /// A custom resource's item (or subresource): get, put, delete, patch.
    fn custom_item_routes(&self, entry: &Entry<'_>, shape: &Shape, routes: &mut Vec<(String, Route)>) {
        let kind = self.parent;
        let has = |verb: &str| entry.verbs.contains(&verb);
        let (gvk, produced, namespaced, scope_path, item_params) = (
            &shape.gvk,
            &shape.produced,
            shape.namespaced,
            &shape.scope_path,
            &shape.item_params,
        );
        let title = entry.subresource.map(title).unwrap_or_default();
        let doc = |whole: &str| match entry.subresource {
            Some(subresource) => format!("{whole} {subresource} of the specified {kind}"),
            None => format!("{whole} the specified {kind}"),
        };
        let item = match entry.subresource {
            Some(subresource) => format!("{scope_path}/{}/{{name}}/{subresource}", entry.plural),
            None => format!("{scope_path}/{}/{{name}}", entry.plural),
        };
        if has("get") {
            let mut get = self.route("GET", "get", format!("read{namespaced}{kind}{title}"), doc("read"), gvk);
            get.parameters = vec![parameter("resourceVersion")];
            get.responses = vec![(200, "OK", produced.clone())];
            push(routes, item.clone(), get, item_params, true);
        }
        if has("update") {
            let mut put = self.route(
                "PUT",
                "put",
                format!("replace{namespaced}{kind}{title}"),
                doc("replace"),
                gvk,
            );
            put.parameters = vec![body(&self.definitions.reference(
                entry.kind_group,
                entry.kind_version,
                entry.kind,
            ))];
            put.parameters.extend(parameters(WRITE));
            put.responses = vec![(200, "OK", produced.clone()), (201, "Created", produced.clone())];
            push(routes, item.clone(), put, item_params, true);
        }
        if entry.subresource.is_none() && has("delete") {
            let mut delete = self.route(
                "DELETE",
                "delete",
                format!("delete{namespaced}{kind}"),
                format!("delete{}{kind}", article(kind)),
                gvk,
            );
            delete.parameters = parameters(DELETE);
            delete.responses = vec![(200, "OK", meta("Status")), (202, "Accepted", meta("Status"))];
            push(routes, item.clone(), delete, item_params, true);
        }
        if has("patch") {
            let mut patch = self.route(
                "PATCH",
                "patch",
                format!("patch{namespaced}{kind}{title}"),
                doc("partially update"),
                gvk,
            );
            patch.consumes = CUSTOM_PATCHES.to_vec();
            patch.parameters = parameters(PATCH);
            patch.responses = vec![(200, "OK", produced.clone())];
            push(routes, item, patch, item_params, true);
        }
    }
}
