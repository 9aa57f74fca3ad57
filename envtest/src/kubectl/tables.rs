//! Tables: what `kubectl get` asks for (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`)
//! so that it prints the columns kube-apiserver chooses rather than NAME and AGE.
//!
//! In kube-apiserver the negotiation and the `includeObject` option live in
//! `k8s.io/apiserver/pkg/endpoints/handlers/response.go` (`asTable`), watches of Tables
//! in `handlers/watch.go` (the columns travel with the first event only), the printers
//! of built-in kinds in `pkg/printers/internalversion/printers.go` ([`builtin`]), custom
//! resources' columns in apiextensions' `tableconvertor` ([`custom`]), and the default
//! (Name, Created At) for everything else in `apiserver/pkg/registry/rest/table.go`.

mod builtin;
mod custom;
mod human;

use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use serde_json::{Value, json};

use crate::core::{GroupResource, ResourceType};
use crate::request::{Include, TableRequest};
use crate::state::ApiServer;
use builtin::{Builtin, CREATED, Column, NAME};
use custom::PrinterColumn;

/// How one resource prints.
enum Printer {
    Builtin(Builtin),
    Custom(Vec<PrinterColumn>),
    /// Name and Created At, for kinds without a printer of their own.
    Default,
}

/// A Table being made for one request: the columns of its resource, and whether a
/// watch has sent them yet.
pub(crate) struct Table {
    request: TableRequest,
    printer: Printer,
    columns_sent: AtomicBool,
}

impl Table {
    /// The Table `target` asked for, if any (see [`Table::for_request`]).
    pub fn for_target(server: &ApiServer, resource: &ResourceType, target: &crate::request::Target) -> Option<Self> {
        Self::for_request(server, resource, target.table)
    }

    /// The Table a get, list or watch asked for, with the printer of its resource (a
    /// custom resource's columns come from its CRD as stored now).
    pub fn for_request(server: &ApiServer, resource: &ResourceType, request: Option<TableRequest>) -> Option<Self> {
        let request = request?;
        let printer = if resource.custom {
            let crds = GroupResource {
                group: "apiextensions.k8s.io".into(),
                resource: "customresourcedefinitions".into(),
            };
            let crd_name = format!("{}.{}", resource.plural, resource.group);
            let crd = server.shared.state.lock().store.get(&crds, "", &crd_name);
            Printer::Custom(custom::columns(
                crd.as_deref().unwrap_or(&Value::Null),
                &resource.version,
            ))
        } else {
            builtin::printer(&resource.group, &resource.kind).map_or(Printer::Default, Printer::Builtin)
        };
        Some(Self {
            request,
            printer,
            columns_sent: AtomicBool::new(false),
        })
    }

    fn columns(&self) -> Vec<Column> {
        match &self.printer {
            Printer::Builtin(builtin) => builtin.columns(),
            Printer::Custom(columns) => columns.iter().map(|c| c.column.clone()).collect(),
            Printer::Default => vec![
                Column {
                    name: "Name".into(),
                    kind: "string".into(),
                    format: "name".into(),
                    priority: 0,
                    description: NAME.into(),
                },
                Column {
                    name: "Created At".into(),
                    kind: "date".into(),
                    format: String::new(),
                    priority: 0,
                    description: CREATED.into(),
                },
            ],
        }
    }

    fn cells(&self, object: &Value) -> Vec<Value> {
        match &self.printer {
            Printer::Builtin(builtin) => (builtin.cells)(object),
            Printer::Custom(columns) => custom::cells(columns, object),
            Printer::Default => vec![
                object["metadata"]["name"].clone(),
                object["metadata"]["creationTimestamp"].clone(),
            ],
        }
    }

    /// One row as JSON bytes; `encoded` gives the object's JSON when the row carries it.
    pub fn row(&self, object: &Value, encoded: impl FnOnce() -> Bytes) -> Bytes {
        let cells = serde_json::to_vec(&self.cells(object)).unwrap_or_default();
        let carried = match self.request.include {
            Include::None => Bytes::from_static(b"null"),
            Include::Object => encoded(),
            Include::Metadata => {
                // Written around the object's metadata rather than cloning it into a Value.
                let mut partial = Vec::with_capacity(512);
                partial.extend_from_slice(b"{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"");
                partial.extend_from_slice(self.request.api_version.as_bytes());
                partial.extend_from_slice(b"\",\"metadata\":");
                if serde_json::to_writer(&mut partial, &object["metadata"]).is_err() {
                    partial.extend_from_slice(b"null");
                }
                partial.push(b'}');
                Bytes::from(partial)
            }
        };
        let mut row = Vec::with_capacity(cells.len() + carried.len() + 24);
        row.extend_from_slice(b"{\"cells\":");
        row.extend_from_slice(&cells);
        row.extend_from_slice(b",\"object\":");
        row.extend_from_slice(&carried);
        row.push(b'}');
        Bytes::from(row)
    }

    /// The whole Table document around `rows`: the list's (or object's) metadata, the
    /// column definitions unless `columns` is false, and the rows.
    pub fn document(&self, metadata: &Value, rows: &[Bytes], columns: bool) -> Vec<u8> {
        let definitions = if columns {
            Value::Array(self.columns().iter().map(Column::to_json).collect())
        } else {
            Value::Null
        };
        let head = json!({
            "kind": "Table", "apiVersion": self.request.api_version, "metadata": metadata,
            "columnDefinitions": definitions,
        });
        crate::core::document(&head, "rows", rows)
    }

    /// The Table of a single object (a get).
    pub fn of_object(&self, object: &Value, encoded: impl FnOnce() -> Bytes) -> Vec<u8> {
        let metadata = json!({"resourceVersion": object["metadata"]["resourceVersion"]});
        self.document(&metadata, &[self.row(object, encoded)], true)
    }

    /// A watch event's object: a one-row Table, with the columns on the first only.
    pub fn of_watched(&self, object: &Value, encoded: impl FnOnce() -> Bytes) -> Bytes {
        let first = !self.columns_sent.swap(true, Ordering::Relaxed);
        let metadata = json!({"resourceVersion": object["metadata"]["resourceVersion"]});
        Bytes::from(self.document(&metadata, &[self.row(object, encoded)], first))
    }
}

#[cfg(test)]
mod tests;
