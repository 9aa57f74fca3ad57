//! Validation of networking, RBAC, storage, discovery, certificates, events, admission
//! registration, flow control, scheduling, node and coordination objects, and of
//! access reviews, as kube-apiserver 1.32 answers it; the runner and what each case
//! states are in `validation_groups`.

use serde_json::{Value, json};

use crate::common::start;
use crate::validation_groups::{Case, Expect, Older, case, patch, post, run};

const INGRESSES: &str = "/apis/networking.k8s.io/v1/namespaces/{ns}/ingresses";
const NETWORK_POLICIES: &str = "/apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies";
const ROLES: &str = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles";
const CLUSTER_ROLES: &str = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
const ROLE_BINDINGS: &str = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings";
const CLUSTER_ROLE_BINDINGS: &str = "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings";
const LEASES: &str = "/apis/coordination.k8s.io/v1/namespaces/{ns}/leases";
const PRIORITY_CLASSES: &str = "/apis/scheduling.k8s.io/v1/priorityclasses";
const RUNTIME_CLASSES: &str = "/apis/node.k8s.io/v1/runtimeclasses";
const STORAGE_CLASSES: &str = "/apis/storage.k8s.io/v1/storageclasses";
const ENDPOINT_SLICES: &str = "/apis/discovery.k8s.io/v1/namespaces/{ns}/endpointslices";
const EVENTS: &str = "/apis/events.k8s.io/v1/namespaces/{ns}/events";
const CSRS: &str = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
const WEBHOOKS: &str = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
const POLICIES: &str = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
const BINDINGS: &str = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
const FLOW_SCHEMAS: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
const ACCESS_REVIEWS: &str = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

/// An object of `kind` in `api_version` named `name`, with `fields` merged in.
fn object(api_version: &str, kind: &str, name: &str, fields: Value) -> Value {
    let mut object = json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": name}});
    if let (Some(target), Value::Object(fields)) = (object.as_object_mut(), fields) {
        target.extend(fields);
    }
    object
}

/// An Ingress with one rule for `host`, its path and type as given.
fn ingress(name: &str, host: &str, path: Value) -> Value {
    let mut entry = json!({"backend": {"service": {"name": "web", "port": {"number": 80}}}});
    if let (Some(target), Value::Object(fields)) = (entry.as_object_mut(), path) {
        target.extend(fields);
    }
    object(
        "networking.k8s.io/v1",
        "Ingress",
        name,
        json!({"spec": {"rules": [{"host": host, "http": {"paths": [entry]}}]}}),
    )
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "a table of cases")]
async fn networking_rbac_and_scheduling_objects_are_validated_as_kube_validates_them() {
    let env = start().await;
    let cases: Vec<Case> = vec![
        case(
            "an Ingress path without a type",
            post(INGRESSES, ingress("untyped", "a.example.com", json!({"path": "/"}))),
            Expect::Invalid(&[(
                "spec.rules[0].http.paths[0].pathType",
                "FieldValueRequired",
                "Required value: pathType must be specified",
            )]),
        ),
        case(
            "an Ingress with a relative path",
            post(INGRESSES, ingress("relative", "a.example.com", json!({"path": "web", "pathType": "Prefix"}))),
            Expect::Invalid(&[(
                "spec.rules[0].http.paths[0].path",
                "FieldValueInvalid",
                "Invalid value: \"web\": must be an absolute path",
            )]),
        ),
        case(
            "an Ingress with a bad host",
            post(INGRESSES, ingress("host", "Bad_Host", json!({"path": "/", "pathType": "Prefix"}))),
            Expect::Invalid(&[(
                "spec.rules[0].host",
                "FieldValueInvalid",
                "Invalid value: \"Bad_Host\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            )]),
        )
        .on_119(Older::Causes(&[(
            "spec.rules[0].host",
            "FieldValueInvalid",
            "Invalid value: \"Bad_Host\": a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        )])),
        case(
            "an Ingress with an IP for a host",
            post(INGRESSES, ingress("address", "10.0.0.1", json!({"path": "/", "pathType": "Exact"}))),
            Expect::Invalid(&[(
                "spec.rules[0].host",
                "FieldValueInvalid",
                "Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address",
            )]),
        ),
        case(
            "an Ingress without rules or a default backend",
            post(INGRESSES, object("networking.k8s.io/v1", "Ingress", "empty", json!({"spec": {}}))),
            Expect::Invalid(&[(
                "spec",
                "FieldValueInvalid",
                "Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified",
            )]),
        ),
        case(
            "a NetworkPolicy with a bad CIDR",
            post(NETWORK_POLICIES, object("networking.k8s.io/v1", "NetworkPolicy", "cidr", json!({"spec": {"podSelector": {},
                "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/33"}}]}]}}))),
            Expect::Invalid(&[(
                "spec.ingress[0].from[0].ipBlock.cidr",
                "FieldValueInvalid",
                "Invalid value: \"10.0.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
            )]),
        )
        .on_119(Older::Causes(&[(
            "spec.ingress[0].from[0].ipBlock.cidr",
            "FieldValueInvalid",
            "Invalid value: \"10.0.0.0/33\": not a valid CIDR",
        )])),
        case(
            "a NetworkPolicy's exceptions outside its CIDR",
            post(NETWORK_POLICIES, object("networking.k8s.io/v1", "NetworkPolicy", "except", json!({"spec": {"podSelector": {},
                "egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.0/16", "except": ["11.0.0.0/24", "10.0.0.0/8"]}}]}]}}))),
            Expect::Invalid(&[
                ("spec.egress[0].to[0].ipBlock.except[0]", "FieldValueInvalid", "Invalid value: \"11.0.0.0/24\": must be a strict subset of `cidr`"),
                ("spec.egress[0].to[0].ipBlock.except[1]", "FieldValueInvalid", "Invalid value: \"10.0.0.0/8\": must be a strict subset of `cidr`"),
            ]),
        ),
        case(
            "a Role named with colons",
            post(ROLES, object("rbac.authorization.k8s.io/v1", "Role", "system:team:reader",
                json!({"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}))),
            Expect::Accepted,
        ),
        case(
            "a ClusterRole named with colons",
            post(CLUSTER_ROLES, object("rbac.authorization.k8s.io/v1", "ClusterRole", "{p}:reader",
                json!({"rules": [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]}))),
            Expect::Accepted,
        ),
        case(
            "a Role's rules",
            post(ROLES, object("rbac.authorization.k8s.io/v1", "Role", "rules",
                json!({"rules": [{"nonResourceURLs": ["/x"], "apiGroups": [""]}, {"verbs": ["get"]}]}))),
            Expect::Invalid(&[
                ("rules[0].verbs", "FieldValueRequired", "Required value: verbs must contain at least one value"),
                ("rules[0].nonResourceURLs", "FieldValueInvalid", "Invalid value: []string{\"/x\"}: namespaced rules cannot apply to non-resource URLs"),
                ("rules[0].nonResourceURLs", "FieldValueInvalid", "Invalid value: []string{\"/x\"}: rules cannot apply to both regular resources and non-resource URLs"),
                ("rules[1].apiGroups", "FieldValueRequired", "Required value: resource rules must supply at least one api group"),
                ("rules[1].resources", "FieldValueRequired", "Required value: resource rules must supply at least one resource"),
            ]),
        ),
        case(
            "a RoleBinding's role and subjects",
            post(ROLE_BINDINGS, object("rbac.authorization.k8s.io/v1", "RoleBinding", "binding",
                json!({"roleRef": {"apiGroup": "x", "kind": "Thing", "name": ""}, "subjects": [{"kind": "Robot", "name": ""}]}))),
            Expect::Invalid(&[
                ("roleRef.apiGroup", "FieldValueNotSupported", "Unsupported value: \"x\": supported values: \"rbac.authorization.k8s.io\""),
                ("roleRef.kind", "FieldValueNotSupported", "Unsupported value: \"Thing\": supported values: \"Role\", \"ClusterRole\""),
                ("roleRef.name", "FieldValueRequired", "Required value"),
                ("subjects[0].name", "FieldValueRequired", "Required value"),
                ("subjects[0].kind", "FieldValueNotSupported", "Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\""),
            ]),
        ),
        case(
            "a ClusterRoleBinding's service account needs a namespace",
            post(CLUSTER_ROLE_BINDINGS, object("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "{p}-binding",
                json!({"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "view"}, "subjects": [{"kind": "ServiceAccount", "name": "sa"}]}))),
            Expect::Invalid(&[
                ("roleRef.kind", "FieldValueNotSupported", "Unsupported value: \"Role\": supported values: \"ClusterRole\""),
                ("subjects[0].namespace", "FieldValueRequired", "Required value"),
            ]),
        ),
        case(
            "a RoleBinding's role does not change",
            patch("/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings/viewer", json!({"roleRef": {"name": "edit"}})),
            Expect::Invalid(&[(
                "roleRef",
                "FieldValueInvalid",
                "Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef",
            )]),
        )
        .after(vec![post(ROLE_BINDINGS, object("rbac.authorization.k8s.io/v1", "RoleBinding", "viewer",
            json!({"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"}})))]),
        case(
            "a Lease's duration and transitions",
            post(LEASES, object("coordination.k8s.io/v1", "Lease", "lease", json!({"spec": {"leaseDurationSeconds": 0, "leaseTransitions": -1}}))),
            Expect::Invalid(&[
                ("spec.leaseDurationSeconds", "FieldValueInvalid", "Invalid value: 0: must be greater than 0"),
                ("spec.leaseTransitions", "FieldValueInvalid", "Invalid value: -1: must be greater than or equal to 0"),
            ]),
        )
        .on_119(Older::Causes(&[
            ("spec.leaseDurationSeconds", "FieldValueInvalid", "Invalid value: 0: must be greater than 0"),
            ("spec.leaseTransitions", "FieldValueInvalid", "Invalid value: -1: must to greater or equal than 0"),
        ])),
        case(
            "a user's priority above a billion",
            post(PRIORITY_CLASSES, object("scheduling.k8s.io/v1", "PriorityClass", "{p}-high", json!({"value": 2_000_000_000}))),
            Expect::Invalid(&[(
                "value",
                "FieldValueForbidden",
                "Forbidden: maximum allowed value of a user defined priority is 1000000000",
            )]),
        ),
        case(
            "a PriorityClass's value does not change",
            patch("/apis/scheduling.k8s.io/v1/priorityclasses/{p}-fixed", json!({"value": 6})),
            Expect::Invalid(&[("value", "FieldValueForbidden", "Forbidden: may not be changed in an update.")]),
        )
        .on_119(Older::Causes(&[("Value", "FieldValueForbidden", "Forbidden: may not be changed in an update.")]))
        .after(vec![post(PRIORITY_CLASSES, object("scheduling.k8s.io/v1", "PriorityClass", "{p}-fixed", json!({"value": 5})))]),
        case(
            "a RuntimeClass's handler does not change",
            patch("/apis/node.k8s.io/v1/runtimeclasses/{p}-runc", json!({"handler": "crun"})),
            Expect::Invalid(&[("handler", "FieldValueInvalid", "Invalid value: \"crun\": field is immutable")]),
        )
        .after(vec![post(RUNTIME_CLASSES, object("node.k8s.io/v1", "RuntimeClass", "{p}-runc", json!({"handler": "runc"})))])
        .on_119(Older::Skip("node.k8s.io/v1 is served from 1.20")),
        case(
            "an IngressClass's controller removed is the empty string that changed",
            patch("/apis/networking.k8s.io/v1/ingressclasses/{p}-class", json!({"spec": {"controller": null}})),
            Expect::Invalid(&[
                ("spec.controller", "FieldValueInvalid", "Invalid value: \"\": field is immutable"),
                ("spec.controller", "FieldValueRequired", "Required value"),
            ]),
        )
        .after(vec![post(
            "/apis/networking.k8s.io/v1/ingressclasses",
            object("networking.k8s.io/v1", "IngressClass", "{p}-class", json!({"spec": {"controller": "example.com/ingress"}})),
        )]),
    ];
    run(&env, cases).await;
    env.stop().await;
}

#[tokio::test]
#[expect(clippy::too_many_lines, reason = "a table of cases")]
async fn storage_discovery_events_and_admission_objects_are_validated_as_kube_validates_them() {
    let env = start().await;
    let hook = |name: &str, fields: Value| {
        let mut hook = json!({"name": name, "clientConfig": {"url": "https://example.com/hook"},
            "sideEffects": "None", "admissionReviewVersions": ["v1"]});
        if let (Some(target), Value::Object(fields)) = (hook.as_object_mut(), fields) {
            target.extend(fields);
        }
        hook
    };
    let cases: Vec<Case> = vec![
        case(
            "a StorageClass's provisioner and policies",
            post(STORAGE_CLASSES, object("storage.k8s.io/v1", "StorageClass", "{p}-storage",
                json!({"provisioner": "a/b/c", "reclaimPolicy": "Recycle", "volumeBindingMode": "Later"}))),
            Expect::Invalid(&[
                ("provisioner", "FieldValueInvalid", "Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
                ("reclaimPolicy", "FieldValueNotSupported", "Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\""),
                ("volumeBindingMode", "FieldValueNotSupported", "Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\""),
            ]),
        ),
        case(
            "a StorageClass's parameters do not change",
            patch("/apis/storage.k8s.io/v1/storageclasses/{p}-fixed", json!({"parameters": {"a": "c"}})),
            Expect::Invalid(&[("parameters", "FieldValueForbidden", "Forbidden: updates to parameters are forbidden.")]),
        )
        .after(vec![post(STORAGE_CLASSES, object("storage.k8s.io/v1", "StorageClass", "{p}-fixed",
            json!({"provisioner": "example.com/p", "parameters": {"a": "b"}})))]),
        case(
            "an EndpointSlice's addresses and ports",
            post(ENDPOINT_SLICES, object("discovery.k8s.io/v1", "EndpointSlice", "slice", json!({"addressType": "IPv4",
                "endpoints": [{"addresses": ["1.2.3", "127.0.0.1"]}], "ports": [{"name": "Bad", "protocol": "ICMP"}]}))),
            Expect::Invalid(&[
                ("endpoints[0].addresses[0]", "FieldValueInvalid", "Invalid value: \"1.2.3\": must be a valid IPv4 address"),
                ("endpoints[0].addresses[0]", "FieldValueInvalid", "Invalid value: \"1.2.3\": must be a valid IP address"),
                ("endpoints[0].addresses[1]", "FieldValueInvalid", "Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"),
                ("ports[0].name", "FieldValueInvalid", "Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                ("ports[0].protocol", "FieldValueNotSupported", "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
            ]),
        )
        .on_119(Older::Skip("discovery.k8s.io/v1 is served from 1.21")),
        case(
            "an Event without its reporting fields",
            post(EVENTS, object("events.k8s.io/v1", "Event", "event", json!({"eventTime": "2024-01-01T00:00:00.000000Z",
                "reportingController": "bad controller", "type": "Normal", "regarding": {"kind": "Pod", "name": "p", "namespace": "{ns}"}}))),
            Expect::Invalid(&[
                ("reportingController", "FieldValueInvalid", "Invalid value: \"bad controller\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
                ("reportingInstance", "FieldValueRequired", "Required value"),
                ("action", "FieldValueRequired", "Required value"),
                ("reason", "FieldValueRequired", "Required value"),
            ]),
        )
        .on_119(Older::Skip("events.k8s.io/v1 is served from 1.19 with other rules")),
        case(
            "a CertificateSigningRequest that is not PEM",
            post(CSRS, object("certificates.k8s.io/v1", "CertificateSigningRequest", "{p}-csr",
                json!({"spec": {"request": "bm90IGEgY3Ny", "usages": ["client auth", "flying"], "signerName": "example.com"}}))),
            Expect::Invalid(&[
                ("spec.request", "FieldValueInvalid", "Invalid value: []byte{0x6e, 0x6f, 0x74, 0x20, 0x61, 0x20, 0x63, 0x73, 0x72}: PEM block type must be CERTIFICATE REQUEST"),
                ("spec.usages[1]", "FieldValueNotSupported", "Unsupported value: \"flying\": supported values: \"any\", \"cert sign\", \"client auth\", \"code signing\", \"content commitment\", \"crl sign\", \"data encipherment\", \"decipher only\", \"digital signature\", \"email protection\", \"encipher only\", \"ipsec end system\", \"ipsec tunnel\", \"ipsec user\", \"key agreement\", \"key encipherment\", \"microsoft sgc\", \"netscape sgc\", \"ocsp signing\", \"s/mime\", \"server auth\", \"signing\", \"timestamping\""),
                ("spec.signerName", "FieldValueInvalid", "Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'"),
            ]),
        )
        .on_119(Older::Fields(&[
            ("spec.request", "FieldValueInvalid"),
            ("spec.usages[1]", "FieldValueNotSupported"),
            ("spec.signerName", "FieldValueInvalid"),
        ])),
        case(
            "a CertificateSigningRequest without a request (Go's nil bytes)",
            post(CSRS, object("certificates.k8s.io/v1", "CertificateSigningRequest", "{p}-nil",
                json!({"spec": {"usages": ["client auth"], "signerName": "example.com/signer"}}))),
            Expect::Invalid(&[
                ("spec.request", "FieldValueInvalid", "Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST"),
            ]),
        )
        .on_119(Older::Fields(&[("spec.request", "FieldValueInvalid")])),
        case(
            "a webhook configuration's names, side effects and client",
            post(WEBHOOKS, object("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "{p}-hooks",
                json!({"webhooks": [hook("short", json!({"sideEffects": "Some", "timeoutSeconds": 31, "clientConfig": {"url": "http://example.com/x?q=1"}})),
                    hook("a.b.c", json!({"clientConfig": {}}))]}))),
            Expect::Invalid(&[
                ("webhooks[0].name", "FieldValueInvalid", "Invalid value: \"short\": should be a domain with at least three segments separated by dots"),
                ("webhooks[0].sideEffects", "FieldValueNotSupported", "Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\""),
                ("webhooks[0].timeoutSeconds", "FieldValueInvalid", "Invalid value: 31: the timeout value must be between 1 and 30 seconds"),
                ("webhooks[0].clientConfig.url", "FieldValueInvalid", "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"),
                ("webhooks[0].clientConfig.url", "FieldValueInvalid", "Invalid value: \"q=1\": query parameters are not permitted in the URL"),
                ("webhooks[1].clientConfig", "FieldValueRequired", "Required value: exactly one of url or service is required"),
            ]),
        ),
        case(
            "an admission policy's expressions",
            post(POLICIES, object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "{p}-policy",
                json!({"spec": {"failurePolicy": "Maybe", "matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"]}]},
                    "validations": [{"expression": ""}]}}))),
            Expect::Invalid(&[
                ("spec.failurePolicy", "FieldValueNotSupported", "Unsupported value: \"Maybe\": supported values: \"Fail\", \"Ignore\""),
                ("spec.validations[0].expression", "FieldValueRequired", "Required value: expression is not specified"),
            ]),
        )
        .on_119(Older::Skip("admissionregistration.k8s.io/v1 admission policies are served from 1.30")),
        case(
            "an admission policy's expressions are typed: variables as compiled so far, the request and namespace as kube declares them",
            post(POLICIES, object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "{p}-typed",
                json!({"spec": {"failurePolicy": "Fail", "matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}]},
                    "variables": [{"name": "early", "expression": "variables.late"}, {"name": "late", "expression": "[1, 2]"}],
                    "validations": [
                        {"expression": "variables.late[0] == 'a'"},
                        {"expression": "request.foo == 1", "messageExpression": "variables.nope"},
                        {"expression": "namespaceObject.metadata.UID == '' && namespaceObject.metadata.uid == ''"}
                    ]}}))),
            Expect::Invalid(&[
                ("spec.variables[0].expression", "FieldValueInvalid", "Invalid value: \"variables.late\": compilation failed: ERROR: <input>:1:10: undefined field 'late'\n | variables.late\n | .........^"),
                ("spec.validations[0].expression", "FieldValueInvalid", "Invalid value: \"variables.late[0] == 'a'\": compilation failed: ERROR: <input>:1:19: found no matching overload for '_==_' applied to '(int, string)'\n | variables.late[0] == 'a'\n | ..................^"),
                ("spec.validations[1].expression", "FieldValueInvalid", "Invalid value: \"request.foo == 1\": compilation failed: ERROR: <input>:1:8: undefined field 'foo'\n | request.foo == 1\n | .......^"),
                ("spec.validations[1].messageExpression", "FieldValueInvalid", "Invalid value: \"variables.nope\": compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^"),
                ("spec.validations[2].expression", "FieldValueInvalid", "Invalid value: \"namespaceObject.metadata.UID == '' && namespaceObject.metadata.uid == ''\": compilation failed: ERROR: <input>:1:63: undefined field 'uid'\n | namespaceObject.metadata.UID == '' && namespaceObject.metadata.uid == ''\n | ..............................................................^"),
            ]),
        )
        .on_119(Older::Skip("admissionregistration.k8s.io/v1 admission policies are served from 1.30")),
        case(
            "an admission policy binding's actions",
            post(BINDINGS, object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", "{p}-binding",
                json!({"spec": {"policyName": "p", "validationActions": ["Deny", "Warn", "Shout"]}}))),
            Expect::Invalid(&[
                ("spec.validationActions[2]", "FieldValueNotSupported", "Unsupported value: \"Shout\": supported values: \"Audit\", \"Deny\", \"Warn\""),
                ("spec.validationActions", "FieldValueInvalid", "Invalid value: []admissionregistration.ValidationAction{\"Deny\", \"Warn\", \"Shout\"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"),
            ]),
        )
        .on_119(Older::Skip("admissionregistration.k8s.io/v1 admission policies are served from 1.30")),
        case(
            "a FlowSchema's precedence and level",
            post(FLOW_SCHEMAS, object("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", "{p}-flow",
                json!({"spec": {"matchingPrecedence": 20000, "priorityLevelConfiguration": {"name": ""}}}))),
            Expect::Invalid(&[
                ("spec.matchingPrecedence", "FieldValueInvalid", "Invalid value: 20000: must not be greater than 10000"),
                ("spec.priorityLevelConfiguration.name", "FieldValueRequired", "Required value: must reference a priority level"),
            ]),
        )
        .on_119(Older::Skip("flowcontrol.apiserver.k8s.io/v1 is served from 1.29")),
        case(
            "an access review of nothing for nobody",
            post(ACCESS_REVIEWS, json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview", "spec": {}})),
            Expect::Invalid(&[
                ("spec.resourceAttributes", "FieldValueInvalid", "Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified"),
                ("spec.user", "FieldValueInvalid", "Invalid value: \"\": at least one of user or group must be specified"),
            ]),
        ),
    ];
    run(&env, cases).await;
    env.stop().await;
}
