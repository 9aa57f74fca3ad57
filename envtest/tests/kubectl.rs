//! kubectl as a real client: the embedded server served over HTTP (or the existing
//! cluster when `USE_EXISTING_CLUSTER=true`) must answer what kubectl asks for
//! discovery, `OpenAPI`, apply, get, watch and delete. Each test is skipped when kubectl
//! is not on PATH. The CRD these tests install is left in place on an existing cluster
//! (other tests may be using it); the objects live in the test's namespace.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use kube::api::{Api, ApiResource, DynamicObject, Patch, PatchParams};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use wheelhouse_envtest::TestEnv;

/// No kubectl command may take longer than this: a hang fails the test instead.
const KUBECTL_TIMEOUT: Duration = Duration::from_mins(1);

const CRD_NAME: &str = "gadgets.kubectl.envtest.wheelhouse.rs";

const CRD_YAML: &str = r"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.kubectl.envtest.wheelhouse.rs
spec:
  group: kubectl.envtest.wheelhouse.rs
  scope: Namespaced
  names:
    kind: Gadget
    plural: gadgets
    singular: gadget
    listKind: GadgetList
    shortNames: [gdg]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color:
                type: string
              size:
                type: integer
          status:
            type: object
            properties:
              ready:
                type: boolean
";

fn gadget_yaml(name: &str, color: &str, size: u32) -> String {
    format!(
        "apiVersion: kubectl.envtest.wheelhouse.rs/v1\nkind: Gadget\nmetadata:\n  name: {name}\n  labels:\n    app: envtest\nspec:\n  color: {color}\n  size: {size}\n"
    )
}

fn gadgets(env: &TestEnv) -> Api<DynamicObject> {
    let resource = ApiResource {
        group: "kubectl.envtest.wheelhouse.rs".into(),
        version: "v1".into(),
        api_version: "kubectl.envtest.wheelhouse.rs/v1".into(),
        kind: "Gadget".into(),
        plural: "gadgets".into(),
    };
    Api::namespaced_with(env.client(), env.namespace(), &resource)
}

/// True when a `kubectl` binary runs; tests print why they skip otherwise.
fn kubectl_on_path() -> bool {
    let found = std::process::Command::new("kubectl")
        .args(["version", "--client"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !found {
        eprintln!("skipped: kubectl is not on PATH");
    }
    found
}

/// kubectl bound to one test environment: its kubeconfig, its namespace, and a
/// discovery cache of its own so runs never share stale discovery.
struct Kubectl {
    kubeconfig: PathBuf,
    namespace: String,
    cache: tempfile::TempDir,
}

/// A running `kubectl get -w`.
struct Watch {
    child: tokio::process::Child,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Watch {
    /// The next line kubectl prints; fails the test after 30 s or if kubectl ended.
    async fn next_line(&mut self) -> String {
        tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
            .await
            .expect("kubectl get -w printed a line within 30 s")
            .expect("kubectl's stdout is readable")
            .expect("kubectl get -w is still running")
    }

    async fn stop(mut self) {
        self.child.kill().await.expect("kubectl stops");
    }
}

/// What one kubectl run printed.
struct Output {
    success: bool,
    stdout: String,
    stderr: String,
}

impl Kubectl {
    /// A started environment, served over HTTP when embedded, and kubectl for it;
    /// None (after saying why) when kubectl is absent.
    async fn start() -> Option<(TestEnv, Self)> {
        if !kubectl_on_path() {
            return None;
        }
        let mut env = TestEnv::start().await.expect("the test environment starts");
        if env.is_embedded() {
            env.serve_http("127.0.0.1:0".parse().expect("a socket address"))
                .await
                .expect("the embedded server listens on loopback");
        }
        let kubectl = Self {
            kubeconfig: env.kubeconfig().expect("a kubeconfig"),
            namespace: env.namespace().to_owned(),
            cache: tempfile::tempdir().expect("a temporary directory"),
        };
        Some((env, kubectl))
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("kubectl");
        command
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .arg("--cache-dir")
            .arg(self.cache.path())
            .args(["-n", &self.namespace])
            .args(args)
            .env_remove("KUBECONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        command
    }

    /// Starts a long-running kubectl (`get -w`) whose output is read line by line.
    fn watch(&self, args: &[&str]) -> Watch {
        let mut child = self.command(args).spawn().expect("kubectl starts");
        let stdout = child.stdout.take().expect("kubectl's stdout");
        Watch {
            child,
            lines: BufReader::new(stdout).lines(),
        }
    }

    /// Runs kubectl with `args`, feeding `stdin` (for `-f -`), within [`KUBECTL_TIMEOUT`].
    async fn run(&self, args: &[&str], stdin: &str) -> Output {
        let mut child = self.command(args).spawn().expect("kubectl starts");
        let mut input = child.stdin.take().expect("kubectl's stdin");
        let stdin = stdin.to_owned();
        let feed = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            let _ = input.write_all(stdin.as_bytes()).await;
        });
        let output = tokio::time::timeout(KUBECTL_TIMEOUT, child.wait_with_output())
            .await
            .unwrap_or_else(|_| panic!("kubectl {args:?} did not finish within {KUBECTL_TIMEOUT:?}"))
            .expect("kubectl runs");
        feed.await.expect("stdin was written");
        Output {
            success: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Runs kubectl and fails the test, with its output, unless it succeeds.
    async fn ok(&self, args: &[&str], stdin: &str) -> String {
        let output = self.run(args, stdin).await;
        assert!(
            output.success,
            "kubectl {args:?} failed\nstdout:\n{}\nstderr:\n{}",
            output.stdout, output.stderr
        );
        output.stdout
    }

    /// Applies the Gadget CRD and waits until the API server reports it established.
    async fn install_crd(&self) {
        let applied = self.ok(&["apply", "-f", "-"], CRD_YAML).await;
        assert!(applied.contains(CRD_NAME), "{applied}");
        self.ok(
            &[
                "wait",
                "--for",
                "condition=Established",
                &format!("crd/{CRD_NAME}"),
                "--timeout",
                "30s",
            ],
            "",
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_crd_and_object_then_get_json() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    kubectl.install_crd().await;
    let applied = kubectl
        .ok(&["apply", "-f", "-"], &gadget_yaml("blinker", "red", 3))
        .await;
    assert!(
        applied.contains("gadget.kubectl.envtest.wheelhouse.rs/blinker created"),
        "{applied}"
    );
    let again = kubectl
        .ok(&["apply", "-f", "-"], &gadget_yaml("blinker", "red", 3))
        .await;
    assert!(again.contains("blinker unchanged"), "{again}");

    let list: Value = serde_json::from_str(&kubectl.ok(&["get", "gadgets", "-o", "json"], "").await).expect("JSON");
    assert_eq!(list["kind"], "List");
    let items = list["items"].as_array().expect("items");
    assert_eq!(items.len(), 1, "{list}");
    let gadget = &items[0];
    assert_eq!(gadget["apiVersion"], "kubectl.envtest.wheelhouse.rs/v1");
    assert_eq!(gadget["kind"], "Gadget");
    assert_eq!(gadget["metadata"]["name"], "blinker");
    assert_eq!(gadget["metadata"]["namespace"], env.namespace());
    assert_eq!(gadget["metadata"]["labels"]["app"], "envtest");
    assert_eq!(gadget["metadata"]["generation"], 1);
    assert!(gadget["metadata"]["uid"].is_string(), "{gadget}");
    assert!(
        gadget["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"].is_string(),
        "client-side apply records what it applied: {gadget}"
    );
    assert_eq!(gadget["spec"], json!({"color": "red", "size": 3}));

    // The short name and the single-object form, and the object kube reads is the same.
    let one: Value =
        serde_json::from_str(&kubectl.ok(&["get", "gdg", "blinker", "-o", "json"], "").await).expect("JSON");
    let read = gadgets(&env).get("blinker").await.expect("kube reads the gadget");
    assert_eq!(
        one["metadata"]["resourceVersion"].as_str(),
        read.metadata.resource_version.as_deref()
    );
    assert_eq!(one["spec"], read.data["spec"]);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_watch_receives_an_update_from_another_client() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    kubectl.install_crd().await;
    kubectl
        .ok(&["apply", "-f", "-"], &gadget_yaml("spinner", "green", 1))
        .await;

    let template = "jsonpath={.metadata.name}={.spec.color}{\"\\n\"}";
    let mut watch = kubectl.watch(&["get", "gadgets", "-w", "-o", template]);
    assert_eq!(
        watch.next_line().await,
        "spinner=green",
        "the initial state comes first"
    );

    let patch = json!({"spec": {"color": "blue"}});
    gadgets(&env)
        .patch("spinner", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("kube patches the gadget");
    assert_eq!(watch.next_line().await, "spinner=blue", "the watch delivers the update");

    watch.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_removes_the_object() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    kubectl.install_crd().await;
    kubectl
        .ok(&["apply", "-f", "-"], &gadget_yaml("doomed", "black", 9))
        .await;
    let deleted = kubectl
        .ok(&["delete", "gadget", "doomed", "--timeout", "30s"], "")
        .await;
    assert!(
        deleted.contains("gadget.kubectl.envtest.wheelhouse.rs \"doomed\" deleted"),
        "{deleted}"
    );

    let missing = kubectl.run(&["get", "gadget", "doomed"], "").await;
    assert!(!missing.success, "the gadget is gone: {}", missing.stdout);
    assert!(missing.stderr.contains("NotFound"), "{}", missing.stderr);
    let error = gadgets(&env)
        .get("doomed")
        .await
        .expect_err("kube does not find it either");
    assert!(matches!(error, kube::Error::Api(status) if status.code == 404));

    // `delete -f` of a built-in object, and of one that is already gone.
    let config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scratch\ndata:\n  a: b\n";
    kubectl.ok(&["apply", "-f", "-"], config_map).await;
    let deleted = kubectl.ok(&["delete", "-f", "-"], config_map).await;
    assert!(deleted.contains("configmap \"scratch\" deleted"), "{deleted}");
    let again = kubectl.run(&["delete", "-f", "-"], config_map).await;
    assert!(!again.success && again.stderr.contains("not found"), "{}", again.stderr);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_resources_lists_builtin_and_custom_resources() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    kubectl.install_crd().await;
    let listed = kubectl.ok(&["api-resources"], "").await;
    let names: Vec<&str> = listed
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    for name in [
        "namespaces",
        "configmaps",
        "deployments",
        "leases",
        "customresourcedefinitions",
        "gadgets",
    ] {
        assert!(names.contains(&name), "api-resources lists {name}:\n{listed}");
    }
    let gadget = listed
        .lines()
        .find(|line| line.starts_with("gadgets "))
        .expect("the gadgets row");
    for column in ["gdg", "kubectl.envtest.wheelhouse.rs/v1", "true", "Gadget"] {
        assert!(gadget.split_whitespace().any(|c| c == column), "{gadget}");
    }
    let namespaced = kubectl
        .ok(&["api-resources", "--namespaced=false", "-o", "name"], "")
        .await;
    assert!(namespaced.lines().any(|l| l == "namespaces"), "{namespaced}");
    assert!(!namespaced.lines().any(|l| l == "configmaps"), "{namespaced}");
    // `kubectl get all` expands the `all` category from discovery.
    let all = kubectl
        .ok(&["api-resources", "--categories", "all", "-o", "name"], "")
        .await;
    for name in [
        "pods",
        "services",
        "deployments.apps",
        "replicasets.apps",
        "statefulsets.apps",
    ] {
        assert!(all.lines().any(|l| l == name), "the all category has {name}:\n{all}");
    }
    assert!(!all.lines().any(|l| l == "configmaps"), "{all}");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_namespaces_and_describe_a_config_map() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    let namespaces = kubectl.ok(&["get", "ns"], "").await;
    assert!(
        namespaces.contains("default") && namespaces.contains(env.namespace()),
        "{namespaces}"
    );

    let config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: described\n  labels:\n    tier: web\ndata:\n  greeting: hello\n";
    kubectl.ok(&["apply", "-f", "-"], config_map).await;
    let described = kubectl.ok(&["describe", "configmap", "described"], "").await;
    for expected in ["Name:", "described", "tier=web", "greeting", "hello"] {
        assert!(described.contains(expected), "describe shows {expected}:\n{described}");
    }
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_a_config_map_client_side_and_server_side() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    let first = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: one\n  b: two\n";
    let second = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: uno\n";
    let configmaps: Api<k8s_openapi::api::core::v1::ConfigMap> = Api::namespaced(env.client(), env.namespace());

    // Client-side apply: GET, then a strategic merge patch computed from the
    // last-applied annotation, so `b` (no longer applied) is removed.
    assert!(
        kubectl
            .ok(&["apply", "-f", "-"], first)
            .await
            .contains("configmap/applied created")
    );
    assert!(
        kubectl
            .ok(&["apply", "-f", "-"], second)
            .await
            .contains("configmap/applied configured")
    );
    let data = configmaps
        .get("applied")
        .await
        .expect("kube reads it")
        .data
        .unwrap_or_default();
    assert_eq!(data.get("a").map(String::as_str), Some("uno"));
    assert!(!data.contains_key("b"), "{data:?}");

    // Server-side apply: the server owns the merge; the field manager is kubectl's.
    let server_side = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: by-server\ndata:\n  a: one\n  b: two\n";
    let applied = kubectl.ok(&["apply", "--server-side", "-f", "-"], server_side).await;
    assert!(applied.contains("configmap/by-server serverside-applied"), "{applied}");
    let shrunk = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: by-server\ndata:\n  a: uno\n";
    kubectl.ok(&["apply", "--server-side", "-f", "-"], shrunk).await;
    let read = configmaps.get("by-server").await.expect("kube reads it");
    let data = read.data.unwrap_or_default();
    assert_eq!(data.get("a").map(String::as_str), Some("uno"));
    assert!(!data.contains_key("b"), "{data:?}");
    let managers: Vec<String> = read
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .filter_map(|entry| entry.manager)
        .collect();
    assert!(managers.iter().any(|m| m == "kubectl"), "{managers:?}");
    env.stop().await;
}

#[tokio::test]
async fn serve_http_refuses_addresses_other_than_loopback() {
    let mut env = TestEnv::start().await.expect("the test environment starts");
    if !env.is_embedded() {
        eprintln!("skipped: serve_http needs the embedded API server");
        return;
    }
    let error = env
        .serve_http("0.0.0.0:0".parse().expect("a socket address"))
        .await
        .expect_err("the unauthenticated server is not exposed beyond loopback");
    assert!(error.to_string().contains("only listens on loopback"), "{error}");
    let bound = env.serve_http("[::1]:0".parse().expect("a socket address")).await;
    assert!(
        bound.is_ok()
            || matches!(&bound, Err(wheelhouse_envtest::Error::Io(e)) if e.kind() == std::io::ErrorKind::AddrNotAvailable),
        "{bound:?}"
    );
    env.stop().await;
}

/// The header of kubectl's table output, split into column names.
fn header(output: &str) -> Vec<String> {
    let first = output.lines().next().unwrap_or_default();
    // Column names contain single spaces (NOMINATED NODE): split on runs of two or more.
    first
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The cells of the row for `name`.
fn row<'a>(output: &'a str, name: &str) -> Vec<&'a str> {
    output
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&name))
        .unwrap_or_else(|| panic!("a row for {name} in:\n{output}"))
}

/// Whether the server serves `plural` in `group_version`, from discovery.
async fn serves(env: &TestEnv, group_version: &str, plural: &str) -> bool {
    env.client()
        .list_api_group_resources(group_version)
        .await
        .is_ok_and(|list| list.resources.iter().any(|r| r.name == plural))
}

/// kubectl's imperative commands send protobuf bodies for built-in kinds (`kubectl run`
/// sends JSON); each creates what it says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imperative_create_commands_work() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    let extra_namespace = format!("{}-made", env.namespace());
    let commands: [&[&str]; 7] = [
        &["create", "namespace", &extra_namespace],
        &[
            "create",
            "configmap",
            "settings",
            "--from-literal=color=blue",
            "--from-literal=size=3",
        ],
        &[
            "create",
            "secret",
            "generic",
            "credentials",
            "--from-literal=password=hunter2",
        ],
        &["create", "serviceaccount", "robot"],
        &[
            "create",
            "deployment",
            "web",
            "--image=registry.k8s.io/pause:3.10",
            "--replicas=3",
            "--port=80",
        ],
        &[
            "create",
            "deployment",
            "idle",
            "--image=registry.k8s.io/pause:3.10",
            "--replicas=0",
        ],
        &[
            "run",
            "single",
            "--image=registry.k8s.io/pause:3.10",
            "--labels=app=single",
            "--env=MODE=test",
        ],
    ];
    for command in commands {
        let created = kubectl.ok(command, "").await;
        assert!(created.contains("created"), "kubectl {command:?}: {created}");
    }
    check_created(&env, &extra_namespace).await;

    // Jobs are served once the catalogue of every built-in resource is in.
    if serves(&env, "batch/v1", "jobs").await {
        let created = kubectl
            .ok(
                &[
                    "create",
                    "job",
                    "once",
                    "--image=registry.k8s.io/pause:3.10",
                    "--",
                    "true",
                ],
                "",
            )
            .await;
        assert!(created.contains("job.batch/once created"), "{created}");
    } else {
        eprintln!("skipped: `kubectl create job`: the server under test does not serve batch/v1 jobs (discovery)");
    }
    kubectl
        .ok(&["delete", "namespace", &extra_namespace, "--wait=false"], "")
        .await;
    env.stop().await;
}

/// What the imperative commands of `imperative_create_commands_work` made, read with kube.
async fn check_created(env: &TestEnv, extra_namespace: &str) {
    use k8s_openapi::api::apps::v1::Deployment;
    use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod, Secret, ServiceAccount};
    let client = env.client();
    let namespaces: Api<Namespace> = Api::all(client.clone());
    assert!(namespaces.get_opt(extra_namespace).await.expect("get").is_some());
    let config_map = Api::<ConfigMap>::namespaced(client.clone(), env.namespace())
        .get("settings")
        .await
        .expect("the ConfigMap");
    let data = config_map.data.unwrap_or_default();
    assert_eq!((data["color"].as_str(), data["size"].as_str()), ("blue", "3"));
    let secret = Api::<Secret>::namespaced(client.clone(), env.namespace())
        .get("credentials")
        .await
        .expect("the Secret");
    assert_eq!(secret.data.unwrap_or_default()["password"].0, b"hunter2");
    assert_eq!(secret.type_.as_deref(), Some("Opaque"));
    Api::<ServiceAccount>::namespaced(client.clone(), env.namespace())
        .get("robot")
        .await
        .expect("the ServiceAccount");
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), env.namespace());
    let web = deployments.get("web").await.expect("the Deployment").spec;
    assert_eq!(web.replicas, Some(3));
    let container = &web.template.spec.expect("a pod spec").containers[0];
    assert_eq!(container.image.as_deref(), Some("registry.k8s.io/pause:3.10"));
    assert_eq!(container.ports.as_ref().map(|p| p[0].container_port), Some(80));
    let strategy = web.strategy.and_then(|s| s.type_);
    assert_eq!(
        strategy.as_deref(),
        Some("RollingUpdate"),
        "defaulted as on a real server"
    );
    assert_eq!(
        deployments.get("idle").await.expect("the Deployment").spec.replicas,
        Some(0)
    );
    let pod = Api::<Pod>::namespaced(client.clone(), env.namespace())
        .get("single")
        .await
        .expect("the Pod");
    assert_eq!(pod.metadata.labels.unwrap_or_default()["app"], "single");
}

/// `kubectl get` prints the columns kube-apiserver's printers define, wide ones with
/// `-o wide`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_prints_the_real_columns() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    let image = "registry.k8s.io/pause:3.10";
    kubectl
        .ok(
            &[
                "create",
                "deployment",
                "web",
                &format!("--image={image}"),
                "--replicas=2",
            ],
            "",
        )
        .await;
    kubectl
        .ok(&["create", "service", "clusterip", "front", "--tcp=80:8080"], "")
        .await;
    kubectl
        .ok(
            &["create", "configmap", "two", "--from-literal=a=1", "--from-literal=b=2"],
            "",
        )
        .await;
    kubectl.ok(&["run", "solo", &format!("--image={image}")], "").await;

    let deployments = kubectl.ok(&["get", "deploy"], "").await;
    assert_eq!(
        header(&deployments),
        ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]
    );
    assert!(row(&deployments, "web")[1].ends_with("/2"), "{deployments}");
    let wide = kubectl.ok(&["get", "deploy", "-o", "wide"], "").await;
    assert_eq!(
        header(&wide),
        [
            "NAME",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR"
        ]
    );
    assert_eq!(row(&wide, "web")[5..], ["pause", image, "app=web"]);
    let services = kubectl.ok(&["get", "svc", "front"], "").await;
    assert_eq!(
        header(&services),
        ["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"]
    );
    let front = row(&services, "front");
    assert_eq!((front[1], front[3], front[4]), ("ClusterIP", "<none>", "80/TCP"));
    let config_maps = kubectl.ok(&["get", "cm", "two"], "").await;
    assert_eq!(header(&config_maps), ["NAME", "DATA", "AGE"]);
    assert_eq!(row(&config_maps, "two")[1], "2");
    let pods = kubectl.ok(&["get", "pods", "solo"], "").await;
    assert_eq!(header(&pods), ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    assert_eq!(row(&pods, "solo")[1], "0/1");
    env.stop().await;
}

const PRINTED_CRD: &str = r"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: printeds.kubectl.envtest.wheelhouse.rs
spec:
  group: kubectl.envtest.wheelhouse.rs
  scope: Namespaced
  names: {kind: Printed, plural: printeds, singular: printed, listKind: PrintedList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
    additionalPrinterColumns:
    - {name: Image, type: string, jsonPath: .spec.image}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Phase, type: string, jsonPath: .status.phase}
    - {name: Detail, type: string, jsonPath: .spec.detail, priority: 1}
";

/// `kubectl get <crd> -w` prints the CRD's printer columns, then a line per change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_watch_shows_printer_columns() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    kubectl.ok(&["apply", "-f", "-"], PRINTED_CRD).await;
    kubectl
        .ok(
            &[
                "wait",
                "--for",
                "condition=Established",
                "crd/printeds.kubectl.envtest.wheelhouse.rs",
                "--timeout",
                "30s",
            ],
            "",
        )
        .await;
    let object = "apiVersion: kubectl.envtest.wheelhouse.rs/v1\nkind: Printed\nmetadata:\n  name: shown\nspec:\n  image: nginx:1.27\n  replicas: 2\n  detail: hidden\n";
    kubectl.ok(&["apply", "-f", "-"], object).await;

    let mut watch = kubectl.watch(&["get", "printeds", "-w"]);
    let head = watch.next_line().await;
    assert_eq!(header(&head), ["NAME", "IMAGE", "REPLICAS", "PHASE"], "{head}");
    let first = watch.next_line().await;
    assert_eq!(row(&first, "shown")[1..3], ["nginx:1.27", "2"], "{first}");

    let resource = ApiResource {
        group: "kubectl.envtest.wheelhouse.rs".into(),
        version: "v1".into(),
        api_version: "kubectl.envtest.wheelhouse.rs/v1".into(),
        kind: "Printed".into(),
        plural: "printeds".into(),
    };
    let api: Api<DynamicObject> = Api::namespaced_with(env.client(), env.namespace(), &resource);
    api.patch(
        "shown",
        &PatchParams::default(),
        &Patch::Merge(&json!({"spec": {"replicas": 5}})),
    )
    .await
    .expect("kube patches it");
    let second = watch.next_line().await;
    assert_eq!(row(&second, "shown")[2], "5", "{second}");
    watch.stop().await;
    env.stop().await;
}

/// `--dry-run=server` sends `dryRun` in the `DeleteOptions` body; the
/// object must survive it (and go with a plain delete).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_dry_run_delete_keeps_the_object() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    let config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c1\ndata:\n  a: b\n";
    kubectl.ok(&["apply", "-f", "-"], config_map).await;
    let dry_run = kubectl.ok(&["delete", "cm", "c1", "--dry-run=server"], "").await;
    assert!(
        dry_run.contains("configmap \"c1\" deleted (server dry run)"),
        "{dry_run}"
    );
    let configmaps: Api<k8s_openapi::api::core::v1::ConfigMap> = Api::namespaced(env.client(), env.namespace());
    assert!(
        configmaps.get_opt("c1").await.expect("get").is_some(),
        "a server dry-run delete removed the ConfigMap"
    );
    kubectl.ok(&["delete", "cm", "c1"], "").await;
    assert!(configmaps.get_opt("c1").await.expect("get").is_none());
    env.stop().await;
}

/// `kubectl explain` reads the schemas of `/openapi/v3`, for a
/// built-in field and for a CRD's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explain_describes_built_in_and_custom_fields() {
    let Some((env, kubectl)) = Kubectl::start().await else {
        return;
    };
    let replicas = kubectl.ok(&["explain", "deployment.spec.replicas"], "").await;
    for expected in ["KIND:", "Deployment", "replicas", "<integer>", "Number of desired pods"] {
        assert!(replicas.contains(expected), "explain shows {expected}:\n{replicas}");
    }
    let containers = kubectl.ok(&["explain", "pods.spec.containers.image"], "").await;
    assert!(containers.contains("<string>"), "{containers}");
    kubectl.install_crd().await;
    // A real server publishes a new CRD's schema a moment after establishing it.
    let color = wheelhouse_envtest::eventually("kubectl explain to find the Gadget schema", || async {
        let output = kubectl.run(&["explain", "gadgets.spec.color"], "").await;
        output.success.then_some(output.stdout)
    })
    .await;
    for expected in ["Gadget", "color", "<string>"] {
        assert!(color.contains(expected), "explain shows {expected}:\n{color}");
    }
    let unknown = kubectl.run(&["explain", "deployment.spec.nonsense"], "").await;
    assert!(!unknown.success, "an unknown field is an error: {}", unknown.stdout);
    env.stop().await;
}
