//! Where each kind is served: its resource name, scope and subresources, read from the
//! reference server's discovery documents (`/api/v1`, `/apis/<group>/<version>`), so a
//! kind the reference does not serve is left out rather than guessed.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::target::Target;

/// A resource as the reference server serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// `apps/v1`, or `v1` for the core group.
    pub api_version: String,
    /// The kind, `Deployment`.
    pub kind: String,
    /// The resource, `deployments`.
    pub plural: String,
    /// Whether objects live in a namespace.
    pub namespaced: bool,
    /// The verbs served on the resource.
    pub verbs: Vec<String>,
    /// Whether `<plural>/status` is served.
    pub status: bool,
    /// Whether `<plural>/scale` is served.
    pub scale: bool,
}

impl Resource {
    /// `/api/v1` or `/apis/<group>/<version>`.
    pub fn base(&self) -> String {
        if self.api_version.contains('/') {
            format!("/apis/{}", self.api_version)
        } else {
            format!("/api/{}", self.api_version)
        }
    }

    /// The collection's path, in `namespace` for a namespaced resource.
    pub fn collection(&self, namespace: &str) -> String {
        if self.namespaced {
            format!("{}/namespaces/{namespace}/{}", self.base(), self.plural)
        } else {
            format!("{}/{}", self.base(), self.plural)
        }
    }

    /// One object's path.
    pub fn object(&self, namespace: &str, name: &str) -> String {
        format!("{}/{name}", self.collection(namespace))
    }

    /// Whether `verb` is served.
    pub fn serves(&self, verb: &str) -> bool {
        self.verbs.iter().any(|v| v == verb)
    }

    /// Whether objects are stored (a review or a binding is only created).
    pub fn is_stored(&self) -> bool {
        self.serves("get")
    }
}

/// The discovery documents of one server, read once per group version.
#[derive(Debug, Default)]
pub struct Discovery {
    documents: BTreeMap<String, Option<Value>>,
}

impl Discovery {
    /// The resource serving `kind` in `api_version`, or None when the server does not
    /// serve it.
    pub async fn find(&mut self, target: &Target, api_version: &str, kind: &str) -> Option<Resource> {
        if !self.documents.contains_key(api_version) {
            let path = if api_version.contains('/') {
                format!("/apis/{api_version}")
            } else {
                format!("/api/{api_version}")
            };
            let document = target.get_json(&path).await;
            self.documents.insert(api_version.to_owned(), document);
        }
        let document = self.documents.get(api_version)?.as_ref()?;
        resource_in(document, api_version, kind)
    }
}

/// The resource of `kind` in one `APIResourceList`.
fn resource_in(document: &Value, api_version: &str, kind: &str) -> Option<Resource> {
    let entries = document.get("resources")?.as_array()?;
    let name_of = |entry: &Value| entry.get("name").and_then(Value::as_str).unwrap_or("").to_owned();
    let main = entries
        .iter()
        .find(|entry| entry.get("kind").and_then(Value::as_str) == Some(kind) && !name_of(entry).contains('/'))?;
    let plural = name_of(main);
    let has = |sub: &str| entries.iter().any(|entry| name_of(entry) == format!("{plural}/{sub}"));
    Some(Resource {
        api_version: api_version.to_owned(),
        kind: kind.to_owned(),
        namespaced: main.get("namespaced").and_then(Value::as_bool).unwrap_or(false),
        verbs: main
            .get("verbs")
            .and_then(Value::as_array)
            .map(|verbs| verbs.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default(),
        status: has("status"),
        scale: has("scale"),
        plural,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_kind_is_found_with_its_subresources() {
        let document = json!({"resources": [
            {"name": "deployments", "kind": "Deployment", "namespaced": true, "verbs": ["create", "get"]},
            {"name": "deployments/scale", "kind": "Scale", "namespaced": true, "verbs": ["get"]},
            {"name": "deployments/status", "kind": "Deployment", "namespaced": true, "verbs": ["get"]},
        ]});
        let found = resource_in(&document, "apps/v1", "Deployment").expect("found");
        assert_eq!(found.plural, "deployments");
        assert!(found.namespaced && found.status && found.scale && found.is_stored());
        assert_eq!(found.object("ns", "d"), "/apis/apps/v1/namespaces/ns/deployments/d");
        assert!(resource_in(&document, "apps/v1", "Scale").is_none());
    }

    #[test]
    fn core_resources_live_under_api() {
        let resource = Resource {
            api_version: "v1".into(),
            kind: "Node".into(),
            plural: "nodes".into(),
            namespaced: false,
            verbs: vec![],
            status: true,
            scale: false,
        };
        assert_eq!(resource.collection("ignored"), "/api/v1/nodes");
    }
}
