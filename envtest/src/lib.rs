//! wheelhouse-envtest: a Kubernetes API server that runs inside your test process, and
//! the same test environment over an existing cluster.
//!
//! [`TestEnv::start`] hands a test a `kube::Client` bound to an embedded API server, in
//! memory: nothing to install, no cluster, no container runtime. Each environment has a
//! fresh namespace of its own ([`TestEnv::namespace`]).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), wheelhouse_envtest::Error> {
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::api::{Api, PostParams};
//! use wheelhouse_envtest::{TestEnv, eventually};
//!
//! let env = TestEnv::start().await?; // embedded, or a real cluster (below)
//! let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
//! let mut config = ConfigMap::default();
//! config.metadata.name = Some("settings".into());
//! api.create(&PostParams::default(), &config).await?;
//! // ... run the operator against env.client(), then wait for what it should write:
//! let stored = eventually("the ConfigMap", || async { api.get_opt("settings").await.ok().flatten() }).await;
//! assert!(stored.metadata.resource_version.is_some());
//! env.stop().await; // deletes the namespace on a real cluster
//! # Ok(())
//! # }
//! ```
//!
//! # Embedded server or existing cluster
//!
//! - [`TestEnv::embedded`] (and [`TestEnv::embedded_with`] for [`ServerOptions`]) starts
//!   an [`ApiServer`] in the test's process. The client reaches it through a tower
//!   service, with no socket; [`TestEnv::server`] gives the test the server itself,
//!   for fault injection and request records. The server runs on threads of its own
//!   (a small tokio runtime per server, ended with it): its requests, watches,
//!   controllers and loopback listener keep going whatever the test does with its own
//!   runtime, so a current-thread `#[tokio::test]`, a blocking call or a reconciler
//!   stuck in a hot loop slows only the test, as with a real cluster.
//! - [`TestEnv::existing`] uses the cluster of the ambient kubeconfig (or the
//!   in-cluster configuration): any cluster in your kubeconfig.
//! - [`TestEnv::assets`] starts the `etcd` and `kube-apiserver` of the folder
//!   `KUBEBUILDER_ASSETS` names, once per test process, as controller-runtime's envtest
//!   does (no controllers).
//! - [`TestEnv::start`] picks ([`Backend::from_environment`]): the existing cluster when
//!   `USE_EXISTING_CLUSTER=true` ([`use_existing_cluster`]), as Go's envtest does, else
//!   the binaries of `KUBEBUILDER_ASSETS` when it is set, else the embedded server. So
//!   `USE_EXISTING_CLUSTER=true cargo test` runs the same tests against a real
//!   kube-apiserver; this crate's conformance suite (`tests/conformance/`) is written that
//!   way and runs on all three. A test that needs the embedded server's options, faults
//!   or witnesses asks [`Backend::from_environment`] (or [`TestEnv::backend`]) and skips
//!   elsewhere, naming the backend.
//!
//! What differs between them is asked, not assumed. [`TestEnv::runs_controllers`] is
//! true on the embedded server (garbage collector, namespace and CRD cleanup), never on
//! the binaries of `KUBEBUILDER_ASSETS`, and on an existing cluster when
//! `ENVTEST_CONTROLLERS=true` says kube-controller-manager runs there.
//! [`TestEnv::ready_nodes`] lists the Nodes that can run pods: the simulated ones of the
//! workload simulation (below), a real cluster's kubelets, none on a bare API server, so a
//! test that needs running pods can skip saying why. Nothing on a cluster happens at a
//! known moment, so tests wait with [`eventually`], which fails the test after
//! [`DEFAULT_TIMEOUT`] naming what it awaited.
//!
//! # What the embedded server implements
//!
//! It keeps kube-apiserver's behaviour where operators can see it, with its status
//! codes, reasons and messages:
//!
//! - **Resources**: every resource of the Kubernetes version k8s-openapi was built for
//!   (the final binary picks it; tests here use `latest`), GA, beta and alpha versions
//!   alike, from a catalogue generated from k8s-openapi's own `Resource` types (a test
//!   keeps it current). Discovery gives kube-apiserver's scope, short names,
//!   categories, verbs and subresources (`status`, `scale`, `namespaces/finalize`,
//!   `pods/binding`, `pods/eviction` within `PodDisruptionBudgets`,
//!   `serviceaccounts/token`). Built-in bodies are decoded into their types (400 on a
//!   wrong type), defaulted as kube-apiserver defaults them, and checked against the
//!   rules operators commonly break (label syntax, names, `ConfigMap` keys and
//!   `immutable`, Job templates, `CronJob` schedules, RBAC rules, disruption budgets,
//!   autoscalers, Events). core/v1 and events.k8s.io/v1 Events are one store with
//!   kube-apiserver's field conversion, as are autoscaling v1 and v2. The admission
//!   plugins a default kube-apiserver runs that change objects (priority, default
//!   tolerations, storage and ingress classes, limit ranges...) run here too.
//! - **Reviews and tokens**: `SubjectAccessReview` and its relatives are answered from
//!   the RBAC objects stored in the server, `TokenReview` authenticates the
//!   `ServiceAccount` tokens it issued; they are answered, not stored. The server itself
//!   serves every request: only the reviews consult RBAC.
//! - **CRDs**: namespaced or cluster-scoped, several versions, status and scale
//!   subresources, printer columns; their schemas enforced as kube-apiserver enforces
//!   them, with its 422 messages and field paths: pruning, defaults, `type`, `format`,
//!   `nullable`, `enum`, `required`, numeric and length limits, `pattern`, item and
//!   property counts, `allOf`/`anyOf`/`oneOf`/`not`, int-or-string, embedded resources,
//!   list-type uniqueness, on creates, updates and `/status`, with ratcheting;
//!   `x-kubernetes-validations` CEL rules with `self`, `oldSelf`, `optionalOldSelf`,
//!   `messageExpression`, `fieldPath` and `reason`, CEL's standard library and macros
//!   and Kubernetes' lists, strings, regex, URL, quantity, IP, CIDR and sets libraries.
//!   A CRD whose schema the apiextensions server would refuse is refused with its
//!   causes. Several versions convert as kube-apiserver converts them (see
//!   [Multi-version CRDs](#multi-version-crds-and-conversion) below).
//! - **resourceVersion** is one global revision; lists report the revision they read.
//! - **list**: label selectors, field selectors (`metadata.name`, `metadata.namespace`
//!   and the per-type ones such as events' `involvedObject.*`), `limit`/`continue`
//!   pagination at a consistent revision, metadata-only lists
//!   (`PartialObjectMetadataList`).
//! - **watch**: from a revision, in order, bookmarks, `timeoutSeconds`, streaming
//!   initial lists (`sendInitialEvents`); each resource keeps a window of history sized
//!   as kube-apiserver's watch cache ([`WatchWindow`]), and a watch from before it gets
//!   an in-stream 410 Expired, as does an exact list; `resourceVersionMatch` checked as
//!   `ValidateListOptions` checks it (422), and a list from a revision not reached yet
//!   waits for it, then answers 504 `ResourceVersionTooLarge`.
//! - **create/update/patch/delete**: `AlreadyExists`, `Conflict` on stale
//!   resourceVersions, 422 `Invalid` with causes, `generateName`, uid, generation bumped
//!   on spec changes only (on any change but metadata for custom resources without a
//!   status subresource), merge/JSON/strategic-merge patches, server-side apply with
//!   managed fields and conflicts (an owner per manager, operation, subresource and,
//!   for updates, API version, as kube-apiserver keys them and in its order; `/status`
//!   and `/scale` writes named by their subresource), `dryRun`, `fieldValidation`; Services' cluster IPs and node ports
//!   allocated and checked as the Service storage does. `DeleteOptions` from the
//!   body or the query (`propagationPolicy`, `preconditions`, `gracePeriodSeconds`);
//!   finalizers and `deletionTimestamp`; Background, Foreground and Orphan propagation;
//!   owner-reference garbage collection, namespace and CRD cleanup. Each refusal is the
//!   one of the layer that refuses it in kube-apiserver (the decoder's 400 in Go's
//!   wording, the patch handler's 422 of `patch`, a strategic merge's or a storage
//!   precondition's plain 500, a PUT's uid precondition's 409).
//! - **Go's encoding**: a built-in body is read as Go decodes it (a null is the field's
//!   zero value; a value of the wrong type is refused in its decoder's words) and
//!   written as Go encodes it (a zero Go leaves out is not stored, what it always writes
//!   is there: `"status": {}`, `"resources": {}`, `"creationTimestamp": null`), by
//!   facts generated from the types' Go source, and a built-in list's items carry no
//!   kind.
//! - **Admission webhooks**: registered mutating then validating webhooks are called
//!   over HTTPS (trusting their `caBundle`) with `AdmissionReview` v1; patches, denials,
//!   warnings, `failurePolicy`, `timeoutSeconds` and `matchPolicy` behave as on a real
//!   server.
//! - **Admission policies**: `ValidatingAdmissionPolicy` and its bindings
//!   (admissionregistration.k8s.io/v1) run on every write they match, between the
//!   mutating and the validating webhooks: match constraints and the binding's match
//!   resources, `matchConditions`, `variables`, `paramKind`/`paramRef`, validations with
//!   `message`/`messageExpression`/`reason`, `validationActions` (Deny: kube-apiserver's
//!   `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...`; Warn: a
//!   `Warning` header; Audit) and `failurePolicy`, on the CEL engine of CRD rules. A
//!   policy whose expressions do not compile, or a binding with an unknown action, is
//!   refused. [`TestEnv::apply`] installs an operator's policies from its manifests.
//! - **Discovery**: the legacy documents and the aggregated one (`apidiscovery.k8s.io`
//!   v2 and v2beta1, with its `ETag` and 304) list groups, versions, resources, every
//!   subresource and `storageVersionHash` in kube-apiserver 1.32's order; `/version`
//!   reports the release imitated ([`KUBERNETES_VERSION`], 1.32).
//! - **kubectl's vocabulary**: `/openapi/v3` per group version with the schemas of
//!   built-in types and of each CRD (`kubectl explain`, client-side validation),
//!   cached as kube-openapi lets clients cache it (`ETag` and 304, hashed URLs
//!   `public, immutable`, a stale hash redirected); `/openapi/v2`, every definition
//!   and path in one document as 1.32 writes it (each resource's routes with kube's
//!   operation ids, watch and all-namespaces paths, descriptions and answers; a CRD's
//!   by apiextensions' builder; the parameters many operations share under their
//!   hashed names; lists and meta types defined), as JSON or, when `Accept` asks for it
//!   first, as gnostic's protobuf `Document` (406 for anything else), built once per
//!   change of the served CRDs, with its `ETag` and 304; with
//!   the `kubectl` feature also Tables with the columns of kube-apiserver's printers and
//!   CRDs' `additionalPrinterColumns` (`kubectl get`, `-o wide`, `get -w`), protobuf
//!   request bodies (`kubectl create deployment ...`) and protobuf answers and watch
//!   streams to clients that accept only protobuf.
//!
//! - **Service-account tokens**: `serviceaccounts/<name>/token` signs a JWT (RS256,
//!   kube's `kid`) with kube-apiserver 1.32's claims and bound object (a pod with its
//!   node, a secret or a node, checked as `TokenREST` checks it); `TokenReview` and
//!   bearer tokens over HTTP verify signature, times, audiences and that the account and
//!   bound object still exist, with the pod and `credential-id` extras;
//!   `/.well-known/openid-configuration` and `/openid/v1/jwks` publish the key (one
//!   2048-bit key per process, made on the first token). Issuer and API audience are
//!   kind's, `https://kubernetes.default.svc.cluster.local`.
//! - **`pods/ephemeralcontainers`**: read as the Pod, written to add ephemeral
//!   containers, refusing the removal or change of existing ones and the fields an
//!   ephemeral container may not have, as 1.32 does.
//!
//! Not there (yet): processes in pods (no `pods/log`, `exec`, `attach`, `portforward`,
//! `proxy`: discovery lists them as kube-apiserver does, a request is 404; simulated
//! pods only report a status), `CronJobs`, HPAs and the endpoints
//! controllers in the simulation, probes and resources on simulated Nodes, CSR
//! `approval` and `pods/resize`; authentication and authorization of the server's own
//! requests (a bearer token names the user; the key set is served to anyone);
//! in `/openapi/v2`, the Go doc comments of built-in lists (generic wording) and the
//! aggregator's own key order in its path items; `managedFields` of a `TokenRequest`; conversion between versions of one built-in
//! resource other than Events and autoscalers; storage-protection finalizers and
//! the pod garbage collector; strategic-merge keys in the `OpenAPI` documents; label
//! and name syntax on custom resources; protobuf Tables, and protobuf answers to clients
//! that also accept JSON. Printers follow kube-apiserver 1.19. In CRD schemas: CEL's
//! runtime cost limits (an estimate refuses costly rules when the CRD is created),
//! ratcheting warnings, the `semver` and `format` CEL libraries (a rule using them is
//! refused, saying so), unordered equality of `set`/`map` lists, and the rarer
//! structural rules.
//!
//! # Multi-version CRDs and conversion
//!
//! A CRD with several versions is served as kube-apiserver serves it
//! (apiextensions-apiserver's `pkg/apiserver/conversion` and `customresource_handler.go`):
//!
//! - **Storage**: objects are stored in the version marked `storage: true`. A write in
//!   another version is converted to it before it is stored, and the stored object is
//!   converted back for the answer; a read, list or watch of another version converts
//!   each stored object to it. Objects written before the storage version changed stay
//!   in the version they were written in until rewritten; as kube-apiserver compares
//!   the bytes it would store, an unchanged update of such an object rewrites it in the
//!   storage version (a new resourceVersion), which is what a storage migration does.
//! - **`conversion.strategy: None`**: only `apiVersion` changes between versions.
//! - **`conversion.strategy: Webhook`**: the objects to convert are sent to the CRD's
//!   webhook in a `ConversionReview` (`apiextensions.k8s.io/v1`, or v1beta1 when that is
//!   the first of `conversionReviewVersions` the server knows) over HTTPS, trusting the
//!   `caBundle`, through the client that calls admission webhooks, with
//!   kube-apiserver's 30 s deadline. The answer is checked as kube-apiserver checks it
//!   (review kind and `uid`, `result.status`, the number of objects, each object's
//!   `apiVersion` and kind, unchanged name, namespace and uid), and each converted
//!   object keeps its original metadata but for the labels and annotations the webhook
//!   returned. A webhook that cannot be called or that fails any check fails the
//!   request with kube-apiserver's 500 and message, for example `conversion webhook for
//!   example.com/v1, Kind=WebApp failed: Post "https://...": ...`; a watch gets it as an
//!   `ERROR` event and ends.
//! - **Admission with `matchPolicy: Equivalent`** (the v1 default): a webhook whose rules
//!   name another served version of the CRD is called for writes in any version, with
//!   the object (and old object) converted to its version, `kind`/`resource` of that
//!   version and `requestKind`/`requestResource` of the request's; a mutating webhook's
//!   patch applies to the converted object, which is converted back. `Exact` webhooks
//!   see only their own version.
//! - **`status.storedVersions`** keeps every version objects may be stored in and gains
//!   a new storage version at its end (`["v1alpha1"]` then `["v1alpha1", "v1"]`); a
//!   version still listed there cannot leave `spec.versions` (422) until a storage
//!   migration removes it through `/status`.
//! - **Deprecated versions**: every request of a version marked `deprecated: true`
//!   carries `Warning: 299 - "<deprecationWarning>"`, or kube-apiserver's default text
//!   (`example.com/v1alpha1 WebApp is deprecated; use example.com/v1 WebApp`).
//! - **CRD update rules**: exactly one storage version, unique version names, a webhook
//!   client config (exactly one of `url` and `service`) and known, unique review
//!   versions for strategy `Webhook` and none for `None`, and the stored-version rule
//!   above, with kube-apiserver's 422 messages.
//!
//! Not covered: a webhook's `service` reference (there is no cluster network: give it a
//! `url`); the URL and `caBundle` checks on the CRD itself; label syntax of the labels a
//! webhook returns; equivalent versions of built-in resources (`Equivalent` is `Exact`
//! for them). Conversions are batched differently: a list, or a page of one, converts in
//! one review, where kube-apiserver's watch cache converts object by object, so a webhook
//! counting its calls sees fewer here. Label and field selectors of a list or watch are
//! evaluated on the stored objects, before conversion.
//!
//! # What a green test does not prove
//!
//! Besides what is not there at all (above), these are the ways, area by area, in which
//! the embedded server still answers differently from kube-apiserver 1.32: a test that
//! passes here can fail on a cluster where it leans on one of them.
//!
//! - **Watch and list**: the window of history follows the watch cache's size (at
//!   least 100 events per resource, all of the last 75 s, at most 102,400) smoothly,
//!   where kube-apiserver doubles and halves it in steps. A custom resource's history
//!   starts with the server, where kube-apiserver's starts when its CRD is established
//!   (a watch from before that is 410 there). Exact lists and list continuations expire
//!   with the same window, where kube-apiserver reads them from etcd back to its last
//!   compaction (5 to 10 minutes): a test may see 410 here that a cluster would not.
//!   A list with a `limit` and a resourceVersion but no match is not read as an exact
//!   list. Bookmarks come every second rather than about every minute.
//! - **Admission webhooks**: of several validating webhooks that refuse one write, the
//!   first in configuration order is the one answered, always; kube-apiserver calls
//!   them in parallel and answers whichever refusal arrives first, so a test that
//!   asserts one webhook's message where two refuse can pass here and fail there.
//! - **Admission policies**: CEL runtime cost limits (kube-apiserver: 1,000,000 per
//!   expression, 10,000,000 per policy) are not enforced, so a costly expression passes
//!   here; expressions are not type-checked against the matched resources' schemas and
//!   `status.typeChecking` is never written; the `authorizer` library and
//!   `auditAnnotations` are not evaluated; `matchPolicy: Equivalent` matches the
//!   requested version only; `request.userInfo` is always the administrator (`wheelhouse-admin`); a new or
//!   changed policy applies to the very next write (a cluster takes a moment, and
//!   denies with "no params found" until the binding's parameter informer has listed);
//!   `MutatingAdmissionPolicy` is stored, never run.
//! - **Admission webhooks**: `matchConditions` are not evaluated;
//!   `matchPolicy: Equivalent` knows the equivalent versions of CRDs only (a built-in
//!   resource's other versions are not matched); `request.userInfo` is always
//!   the administrator (`wheelhouse-admin`).
//! - **Multi-version CRDs**: what the section above lists as not covered (service
//!   references, the CRD's URL and `caBundle` checks, batching, selectors evaluated
//!   before conversion).
//! - **Server-side apply** is structured-merge-diff's (merge, compare, removal, field
//!   sets, conflicts, release, force) with the apiserver's field-manager layers, over
//!   types built from the served `OpenAPI` schemas (a CRD's list and map types; built-in
//!   types with kube 1.32's `x-kubernetes-*` extensions), comparing a built-in object's
//!   Go value as kube-apiserver does (the fields its type always holds, from the
//!   generated Go facts); defaults are recorded as the writer's and what a strategy or
//!   the storage sets afterwards (a Job's selector, a Service's IP families) as nobody's,
//!   in kube-apiserver's order. What remains: every version of a type is taken for the same shape (no conversion webhook is called to
//!   compare managers of other versions), and a schema change from granular to atomic
//!   does not rewrite existing entries; nulls an apply leaves in a custom resource are
//!   pruned before validation (kube validates them: an emptied `spec` is a 422 there);
//!   `fieldsV1` keys come back sorted as text (`k:{"port":10}` before `k:{"port":9}`);
//!   on `/status` the reset fields are `spec` alone, where some built-in status
//!   strategies also reset metadata (a Deployment's labels), which the write itself
//!   keeps as stored (`lifecycle::update_rules`).
//! - **Services**: single-stack IPv4 only (10.96.0.0/12; `ipFamilies` is always
//!   `IPv4`, an IPv6 `clusterIP` is refused as not configured); the node port range is
//!   fixed at 30000-32767; addresses and ports are handed out in turn, not at random;
//!   `healthCheckNodePort` is never allocated; a type change drops the node ports it
//!   releases as the Service is stored, after the update's webhooks, which still see
//!   them (kube-apiserver drops them before).
//! - **Validation of built-in objects**: object metadata and every core/v1 kind are
//!   validated by kube's own functions, ported whole to `wheelhouse-envtest-validation`
//!   (its docs list each one beside the test that covers it), with 1.32's feature-gate
//!   defaults and a default kube-apiserver's `--allow-privileged=false` (privileged
//!   containers are refused, as there). Other API groups keep only the rules operators
//!   commonly break (webhook configurations' rules and selectors, a Lease's
//!   `preferredHolder` and `strategy`, and most per-field rules are not checked) until
//!   their validation is ported. Messages that quote Go pointers show a fixed address;
//!   the `cmp.Diff` that follows "pod updates may not change fields other than ..."
//!   and its siblings is go-cmp's report of kube's internal types, with plain-space
//!   indents (go-cmp picks plain or non-breaking spaces at random per process).
//!   A write is validated after the mutating webhooks, as kube does (one may repair
//!   an object sent invalid), and an object a webhook changed is defaulted again
//!   first; only an object created by a PUT or a server-side apply is still refused
//!   before its webhooks run. The in-process mutating plugins (`LimitRanger`, `Priority`,
//!   `RuntimeClass`, Service IP allocation) run after validation here, before it in
//!   kube: defaults those plugins add are not validated, and a write both invalid and
//!   refused by a plugin gets the 422 where kube answers the 403 (a pod naming a
//!   `RuntimeClass` that is not a valid name).
//! - **Timing**: nothing here is eventually consistent: writes are visible at once to
//!   every read, admission policies apply at once, and controllers (garbage collector,
//!   namespace cleanup, the workload simulation) act within milliseconds. A test that
//!   reads right after a write, without [`eventually`], passes here and may not there.
//!
//! # Fault injection and request records
//!
//! The embedded server can make the unhappy paths happen on purpose:
//! [`ApiServer::fail_next`] fails the next requests that match with a 500, 503 or 429
//! (with `Retry-After`), [`ApiServer::set_latency`] delays every request,
//! [`ApiServer::drop_watches`] ends every watch as a restart would, and
//! [`ApiServer::compact`] forgets the event history so old resourceVersions get 410
//! Gone; [`ApiServer::fault_counts`] says what happened. It also records every request
//! as RBAC sees it and by whom ([`ApiServer::requests`], [`ApiServer::as_user`]), so
//! [`ApiServer::rbac_for`] gives the least-privilege rules an operator's client needed,
//! and it can witness leader fencing: [`ApiServer::witness_lease`] tells which writes
//! came from a replica that did not hold a Lease, and [`ApiServer::hold_requests`]
//! freezes one replica's requests. The witnesses work on a real cluster too, read from
//! its API server's audit log ([`TestEnv::witness_writes`], [`TestEnv::witness_lease`]:
//! start it with [`AUDIT_POLICY`] and name the log in `ENVTEST_AUDIT_LOG`), each replica
//! named by the `User-Agent` of its client ([`TestEnv::client_for`]). A test can
//! restart the API server's serving process with its state kept
//! ([`TestEnv::stop_api_server`], [`TestEnv::start_api_server`]): the embedded server's
//! listener closes and opens on the same address, and its watches from before get 410
//! Gone, as after kube-apiserver restarted; an existing cluster's, by the commands in
//! `ENVTEST_APISERVER_STOP` and `ENVTEST_APISERVER_START`.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), wheelhouse_envtest::Error> {
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::api::{Api, ListParams};
//! use wheelhouse_envtest::{InjectedFailure, TestEnv, Verb};
//!
//! let env = TestEnv::embedded().await?;
//! let server = env.server().expect("embedded");
//! server.fail_next(1, InjectedFailure::server_error(Verb::List, "configmaps"));
//! let operator: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.as_user("operator"), "default"));
//! assert!(operator.list(&ListParams::default()).await.is_err()); // the injected 500
//! assert!(operator.list(&ListParams::default()).await.is_ok());
//! assert_eq!(server.fault_counts().failed_requests, 1);
//! let rules = server.rbac_for("operator");
//! assert!(!rules.is_empty()); // list on configmaps, in "default"
//! # Ok(())
//! # }
//! ```
//!
//! # The workload simulation (feature `workloads`)
//!
//! A bare API server stores a Deployment and nothing more happens. With the `workloads`
//! feature, `ServerOptions { workloads: Some(WorkloadSimulation::default()), .. }` runs
//! a small kube-controller-manager, scheduler and kubelets inside the server:
//! Deployments make ReplicaSets (`pod-template-hash`, revision annotations, rolling
//! updates within `maxSurge`/`maxUnavailable`, Recreate, the Available and Progressing
//! conditions), ReplicaSets, `StatefulSets` (ordinal names, `ControllerRevisions`),
//! `DaemonSets` (one pod per Node) and Jobs (Complete, `succeeded`) make Pods, which are
//! bound to simulated Ready Nodes and run `pod_start_delay` later (phase, conditions,
//! container statuses, `podIP`). Pods can misbehave on purpose, by image pattern or by
//! the pod-template annotation `envtest.wheelhouse.rs/behaviour` (`never-ready`,
//! `image-pull-error`, `crash-loop`, `fail`), so operators can test their unhappy
//! paths. `WorkloadSimulation`'s own documentation has an example. The simulation is
//! off by default; a real cluster ignores it and runs its own controllers.
//!
//! # kubectl
//!
//! [`TestEnv::serve_http`] also serves the embedded server over plain HTTP on a
//! loopback address, and [`TestEnv::kubeconfig`] writes a kubeconfig pointing at it,
//! so a test (or a person) can run kubectl against it. There is no authentication, so
//! it only listens where it is told and the example binds 127.0.0.1 only:
//! `cargo run -p wheelhouse-envtest --example serve -- --port 8001` serves a server with
//! the workload simulation and prints the kubeconfig path. kubectl speaks JSON with
//! this crate's default features; the `kubectl` feature adds what it asks for first
//! (Tables for `kubectl get`, protobuf bodies for `kubectl create`).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), wheelhouse_envtest::Error> {
//! use std::net::{Ipv4Addr, SocketAddr};
//! use wheelhouse_envtest::TestEnv;
//!
//! let mut env = TestEnv::embedded().await?;
//! let address = env.serve_http(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).await?;
//! let kubeconfig = env.kubeconfig()?; // KUBECONFIG=<this> kubectl get namespaces
//! assert!(kubeconfig.exists() && address.port() != 0);
//! # Ok(())
//! # }
//! ```
//!
//! # Server options
//!
//! [`ServerOptions`] configure the embedded server (a real cluster ignores them):
//! `watch_window` how much history of each resource watches can resume from (older
//! resourceVersions get 410 Expired, as from kube-apiserver's watch cache, whose size
//! the default follows), `future_resource_version_wait` how long a list waits for a
//! resourceVersion the server has not reached (then 504), `bookmark_interval` how often a watch that asked for bookmarks gets one,
//! `controllers` whether the garbage collector, namespace and CRD cleanup and
//! kube-apiserver's own controllers (flow-control configuration, `APIService`
//! availability) run,
//! `sharded_list_and_watch` whether it honours KEP-5866's `shardSelector` on list,
//! watch and deletecollection (`shardRange(object.metadata.uid, '0x…', '0x…')` ranges
//! of the 64-bit FNV-1a hash, joined with `||`, echoed in the list's `shardInfo`), as
//! kube-apiserver 1.36 does with the alpha `ShardedListAndWatch` gate (off by default,
//! like the gate), and, with the `workloads` feature, `workloads` the simulation above.
//! [`ApiServer::new`]
//! takes them too, for a test that wants the server without a [`TestEnv`].
//!
//! # Features
//!
//! Both are off by default: a test that only needs [`TestEnv`] builds neither, and a
//! feature on by default could not be turned off again by a crate further down the
//! dependency graph.
//!
//! - `kubectl`: protobuf bodies and answers, and Table output, with Kubernetes' protobuf
//!   descriptors embedded. Without it the server speaks JSON only, as a kube-apiserver
//!   without the protobuf serializer would: a protobuf body gets 415 Unsupported Media
//!   Type, and a client whose `Accept` lists only protobuf or Tables gets 406 Not
//!   Acceptable. kubectl, which also accepts JSON, gets JSON (`kubectl get` then prints
//!   its generic columns rather than the server's).
//! - `workloads`: the workload simulation (`WorkloadSimulation`, `PodBehaviour`,
//!   `ImageRule`, `BEHAVIOUR_ANNOTATION` and `ServerOptions::workloads` exist only with
//!   it).
//!
//! ```toml
//! [dev-dependencies]
//! wheelhouse-envtest = { version = "0.1", features = ["workloads"] }
//! ```

// The modules, one folder per concern, from the bottom up; each may import only the
// ones above it in this list, as its own `//!` docs say, and
// `tests/module_graph.rs` (at the workspace root) checks that no import cycle forms.
// CRD schemas (structural schemas, defaulting, pruning, `OpenAPI` keywords, CEL) and
// name checks are the `wheelhouse-envtest-schema` crate, which knows nothing of the server.

// What everything shares: resources, verbs, the API error, responses (a leaf), and
// the server's options.
mod core;
mod options;
// What the server serves and keeps: resource types and their documents, the objects
// with their revisions and history, and what a request asks for.
mod request;
mod resources;
mod store;
// What happens to an object on its way in: its type's defaults and rules, then
// admission plugins and webhooks.
mod admission;
mod objects;
// Custom resources between their CRD's versions (strategy None, or a conversion webhook).
mod conversion;
// The server handle and what its clones share.
mod state;
// Writes: the patch types, and an object's life in the store (create, update, delete).
mod lifecycle;
mod patch;
// Authorization, for the review resources and least-privilege RBAC.
mod authz;
// kubectl's protobuf and Tables.
#[cfg(feature = "kubectl")]
mod kubectl;
// The API verbs.
mod api;
// What runs beside the server: garbage collector, namespace and CRD cleanup,
// kube-apiserver's own controllers, and the workload simulation.
mod controllers;
// The request dispatcher, where a server is put together.
mod server;
// The test environment, its loopback listener and waiting.
mod env;

pub use crate::authz::Rbac;
pub use crate::core::{KUBERNETES_VERSION, ResponseBody, Verb};
pub use crate::env::wait::{DEFAULT_TIMEOUT, eventually, eventually_within};
pub use crate::env::{AUDIT_LOG, Backend, Error, START_COMMAND, STOP_COMMAND, TestEnv, use_existing_cluster};
#[cfg(feature = "workloads")]
pub use crate::options::{BEHAVIOUR_ANNOTATION, ImageRule, PodBehaviour, WorkloadSimulation};
pub use crate::options::{ServerOptions, WatchWindow};
pub use crate::state::{
    AUDIT_POLICY, ApiServer, ArrivedWrite, FaultCounts, InjectedFailure, LeaseWitness, RequestRecord, WitnessedWrite,
    WriteWitness,
};
/// Label and field selectors, as the server parses them.
pub use wheelhouse_selector as selector;
