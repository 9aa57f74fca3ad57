//! The workload simulation against what kube-controller-manager, a
//! scheduler and kubelets do: Deployments make ReplicaSets and Pods that become
//! Ready, rollouts respect their strategy, StatefulSets name their pods by ordinal,
//! Jobs complete, DaemonSets run one pod per Node, the failure knobs fail, and a
//! deleted Deployment takes its ReplicaSets and Pods with it.
//!
//! Written against `TestEnv::start_with`, so they run on an existing cluster too; a
//! cluster with no Ready Node runs no pods (a control plane with a controller manager but
//! no kubelet, say), and the tests skip there, saying so.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::{ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{Event, Pod};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::runtime::watcher;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use wheelhouse_envtest::{PodBehaviour, ServerOptions, TestEnv, WorkloadSimulation, eventually_within};

/// A small image; the simulation never pulls it.
const IMAGE: &str = "registry.k8s.io/pause:3.10";
/// Any image ending so fails to pull on the simulated Nodes.
const BROKEN: &str = "registry.example/app:broken";
/// Long enough for a real cluster to pull and start pods.
const TIMEOUT: Duration = Duration::from_mins(2);

/// The environment, with the simulation on (two Nodes, pods starting after 100 ms)
/// when embedded; None, after saying why, when no Ready Node can run pods.
async fn start() -> Option<TestEnv> {
    let simulation = WorkloadSimulation {
        nodes: 2,
        ..WorkloadSimulation::pods_start_after(Duration::from_millis(100))
    }
    .with_image("*:broken", PodBehaviour::ImagePullError);
    let options = ServerOptions {
        workloads: Some(simulation),
        ..ServerOptions::default()
    };
    let env = TestEnv::start_with(options).await.expect("the test environment starts");
    if ready_nodes(&env).await.is_empty() {
        eprintln!(
            "skipped: pods never run on this cluster: it has no Ready Node (no kubelet), so nothing becomes Ready"
        );
        env.stop().await;
        return None;
    }
    Some(env)
}

async fn ready_nodes(env: &TestEnv) -> Vec<String> {
    env.ready_nodes().await.expect("nodes are listed")
}

fn api<K>(env: &TestEnv) -> Api<K>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>,
{
    Api::namespaced(env.client(), env.namespace())
}

fn from_json<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("a valid object")
}

/// A Deployment of `replicas` pods labelled `app: <name>`, with `spec` merged in.
fn deployment(name: &str, replicas: i32, image: &str, spec: &Value) -> Deployment {
    let mut object = json!({
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}},
                         "spec": {"containers": [{"name": "app", "image": image}]}},
        },
    });
    json_patch::merge(&mut object, spec);
    from_json(object)
}

async fn list<K>(api: &Api<K>, selector: &str) -> Vec<K>
where
    K: Clone + DeserializeOwned + std::fmt::Debug,
{
    api.list(&ListParams::default().labels(selector))
        .await
        .expect("list")
        .items
}

fn condition_of(deployment: &Deployment, kind: &str) -> Option<(String, String)> {
    let status = deployment.status.as_ref()?;
    let condition = status
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_.as_deref() == Some(kind))?;
    Some((
        condition.status.clone().unwrap_or_default(),
        condition.reason.clone().unwrap_or_default(),
    ))
}

/// The Deployment has `replicas` up to date and available at its generation.
fn complete(deployment: &Deployment, replicas: i32) -> bool {
    let Some(status) = &deployment.status else {
        return false;
    };
    let count = |n: Option<i32>| n.unwrap_or(0) == replicas;
    status.observed_generation == deployment.metadata.generation
        && count(status.replicas)
        && count(status.updated_replicas)
        && count(status.ready_replicas)
        && count(status.available_replicas)
        && condition_of(deployment, "Available") == Some(("True".into(), "MinimumReplicasAvailable".into()))
        && condition_of(deployment, "Progressing") == Some(("True".into(), "NewReplicaSetAvailable".into()))
}

async fn wait_complete(api: &Api<Deployment>, name: &str, replicas: i32) {
    eventually_within(TIMEOUT, &format!("{name} to have {replicas} available"), || async {
        complete(&api.get(name).await.expect("get"), replicas).then_some(())
    })
    .await;
}

fn is_ready(pod: &Pod) -> bool {
    let conditions = pod.status.as_ref().and_then(|s| s.conditions.as_ref());
    conditions.is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

fn controller_uid(metadata: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> Option<String> {
    let owners = metadata.owner_references.as_ref()?;
    let owner = owners.iter().find(|o| o.controller == Some(true))?;
    Some(owner.uid.clone())
}

fn revision(replica_set: &ReplicaSet) -> Option<String> {
    replica_set
        .metadata
        .annotations
        .as_ref()?
        .get("deployment.kubernetes.io/revision")
        .cloned()
}

fn spec_replicas(replica_set: &ReplicaSet) -> i32 {
    replica_set.spec.replicas.unwrap_or(0)
}

/// After each change to a Deployment's ReplicaSets: the pods they want in all, and
/// how many want any.
type Sightings = Arc<Mutex<Vec<(i32, usize)>>>;

/// Follows the ReplicaSets of `app` through a watch and records, after every change,
/// the sum of their `spec.replicas` and how many had replicas at once.
fn record_replica_sets(env: &TestEnv, app: &str) -> (Sightings, tokio::task::JoinHandle<()>) {
    let api: Api<ReplicaSet> = api(env);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let config = watcher::Config::default().labels(&format!("app={app}"));
    let task = tokio::spawn(async move {
        let mut sizes: BTreeMap<String, i32> = BTreeMap::new();
        let mut stream = watcher(api, config).boxed();
        while let Some(Ok(event)) = stream.next().await {
            match event {
                watcher::Event::Apply(rs) | watcher::Event::InitApply(rs) => {
                    sizes.insert(rs.metadata.name.clone().unwrap_or_default(), spec_replicas(&rs));
                }
                watcher::Event::Delete(rs) => {
                    sizes.remove(&rs.metadata.name.clone().unwrap_or_default());
                }
                watcher::Event::Init | watcher::Event::InitDone => {}
            }
            let total = sizes.values().sum();
            let active = sizes.values().filter(|n| **n > 0).count();
            record.lock().expect("the record").push((total, active));
        }
    });
    (seen, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployment_gets_a_replica_set_and_ready_pods() {
    let Some(env) = start().await else { return };
    let deployments: Api<Deployment> = api(&env);
    let created = deployments
        .create(&PostParams::default(), &deployment("web", 3, IMAGE, &json!({})))
        .await
        .expect("create");
    wait_complete(&deployments, "web", 3).await;

    let replica_sets = list(&api::<ReplicaSet>(&env), "app=web").await;
    assert_eq!(replica_sets.len(), 1, "one ReplicaSet: {replica_sets:?}");
    let rs = &replica_sets[0];
    let hash = rs
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get("pod-template-hash"))
        .cloned();
    let hash = hash.expect("the ReplicaSet is labelled with its pod-template-hash");
    assert_eq!(rs.metadata.name.as_deref(), Some(format!("web-{hash}").as_str()));
    let selector = rs.spec.selector.match_labels.clone().unwrap_or_default();
    assert_eq!(
        selector.get("pod-template-hash"),
        Some(&hash),
        "the selector names the hash"
    );
    assert_eq!(revision(rs).as_deref(), Some("1"));
    assert_eq!(
        controller_uid(&rs.metadata),
        created.metadata.uid,
        "the Deployment controls it"
    );
    let deployment = deployments.get("web").await.expect("get");
    let annotations = deployment.metadata.annotations.unwrap_or_default();
    assert_eq!(
        annotations.get("deployment.kubernetes.io/revision").map(String::as_str),
        Some("1")
    );

    let pods = list(&api::<Pod>(&env), &format!("app=web,pod-template-hash={hash}")).await;
    assert_eq!(pods.len(), 3);
    let nodes = ready_nodes(&env).await;
    for pod in &pods {
        assert_eq!(
            controller_uid(&pod.metadata),
            rs.metadata.uid,
            "the ReplicaSet controls each pod"
        );
        assert!(is_ready(pod), "{:?} is Ready", pod.metadata.name);
        let spec = pod.spec.as_ref().expect("a spec");
        assert!(nodes.contains(spec.node_name.as_ref().expect("bound to a node")));
        let status = pod.status.as_ref().expect("a status");
        assert_eq!(status.phase.as_deref(), Some("Running"));
        assert!(status.pod_ip.is_some() && status.start_time.is_some() && status.host_ip.is_some());
        let kinds: BTreeSet<&str> = status.conditions.iter().flatten().map(|c| c.type_.as_str()).collect();
        for kind in ["PodScheduled", "Initialized", "ContainersReady", "Ready"] {
            assert!(kinds.contains(kind), "{kind} among {kinds:?}");
        }
        let containers = status.container_statuses.as_ref().expect("container statuses");
        assert!(containers[0].ready && containers[0].state.as_ref().is_some_and(|s| s.running.is_some()));
    }
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_change_rolls_out_a_second_replica_set_within_max_surge() {
    let Some(env) = start().await else { return };
    let deployments: Api<Deployment> = api(&env);
    let strategy = json!({"spec": {"strategy": {"type": "RollingUpdate",
        "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}}});
    deployments
        .create(&PostParams::default(), &deployment("roll", 4, IMAGE, &strategy))
        .await
        .expect("create");
    wait_complete(&deployments, "roll", 4).await;
    let (seen, watch) = record_replica_sets(&env, "roll");
    let image = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.9"}]}}}});
    deployments
        .patch("roll", &PatchParams::default(), &Patch::Strategic(image))
        .await
        .expect("change the image");
    wait_complete(&deployments, "roll", 4).await;
    let replica_sets = list(&api::<ReplicaSet>(&env), "app=roll").await;
    assert_eq!(replica_sets.len(), 2, "{replica_sets:?}");
    let by_revision: BTreeMap<String, i32> = replica_sets
        .iter()
        .map(|rs| (revision(rs).unwrap_or_default(), spec_replicas(rs)))
        .collect();
    assert_eq!(by_revision, BTreeMap::from([("1".into(), 0), ("2".into(), 4)]));
    eventually_within(TIMEOUT, "the old pods to be gone", || async {
        let pods = list(&api::<Pod>(&env), "app=roll").await;
        (pods.len() == 4).then_some(())
    })
    .await;
    watch.abort();
    let seen = seen.lock().expect("the record").clone();
    assert!(
        seen.iter().any(|(_, active)| *active == 2),
        "both ReplicaSets had pods at once: {seen:?}"
    );
    let most = seen.iter().map(|(total, _)| *total).max().unwrap_or(0);
    assert!(
        most <= 5,
        "never more than replicas + maxSurge = 5 pods wanted, saw {most}: {seen:?}"
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recreate_scales_the_old_replica_set_down_before_the_new_one_up() {
    let Some(env) = start().await else { return };
    let deployments: Api<Deployment> = api(&env);
    let strategy = json!({"spec": {"strategy": {"type": "Recreate"}}});
    deployments
        .create(&PostParams::default(), &deployment("again", 2, IMAGE, &strategy))
        .await
        .expect("create");
    wait_complete(&deployments, "again", 2).await;
    let (seen, watch) = record_replica_sets(&env, "again");
    let image = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.9"}]}}}});
    deployments
        .patch("again", &PatchParams::default(), &Patch::Strategic(image))
        .await
        .expect("change the image");
    wait_complete(&deployments, "again", 2).await;
    watch.abort();
    let seen = seen.lock().expect("the record").clone();
    assert!(
        seen.iter().all(|(_, active)| *active <= 1),
        "never two ReplicaSets with pods: {seen:?}"
    );
    let replica_sets = list(&api::<ReplicaSet>(&env), "app=again").await;
    assert_eq!(replica_sets.len(), 2);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scale_down_removes_pods() {
    let Some(env) = start().await else { return };
    let deployments: Api<Deployment> = api(&env);
    deployments
        .create(&PostParams::default(), &deployment("shrink", 3, IMAGE, &json!({})))
        .await
        .expect("create");
    wait_complete(&deployments, "shrink", 3).await;
    deployments
        .patch_scale(
            "shrink",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 1}})),
        )
        .await
        .expect("scale");
    wait_complete(&deployments, "shrink", 1).await;
    eventually_within(TIMEOUT, "one pod left", || async {
        (list(&api::<Pod>(&env), "app=shrink").await.len() == 1).then_some(())
    })
    .await;
    let replica_sets = list(&api::<ReplicaSet>(&env), "app=shrink").await;
    assert_eq!(replica_sets.iter().map(spec_replicas).collect::<Vec<_>>(), [1]);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateful_set_names_its_pods_by_ordinal() {
    let Some(env) = start().await else { return };
    let sets: Api<StatefulSet> = api(&env);
    let set: StatefulSet = from_json(json!({
        "metadata": {"name": "db"},
        "spec": {"replicas": 3, "serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
                 "template": {"metadata": {"labels": {"app": "db"}},
                              "spec": {"containers": [{"name": "db", "image": IMAGE}]}}},
    }));
    let created = sets.create(&PostParams::default(), &set).await.expect("create");
    eventually_within(TIMEOUT, "3 ready replicas", || async {
        let status = sets.get("db").await.expect("get").status?;
        (status.ready_replicas == Some(3)).then_some(())
    })
    .await;
    let pods = list(&api::<Pod>(&env), "app=db").await;
    let names: BTreeSet<String> = pods.iter().filter_map(|p| p.metadata.name.clone()).collect();
    assert_eq!(names, BTreeSet::from(["db-0".into(), "db-1".into(), "db-2".into()]));
    assert!(
        pods.iter()
            .all(|p| controller_uid(&p.metadata) == created.metadata.uid && is_ready(p))
    );
    let revisions = list(&api::<ControllerRevision>(&env), "app=db").await;
    assert!(
        revisions
            .iter()
            .any(|r| controller_uid(&r.metadata) == created.metadata.uid),
        "a ControllerRevision of the set: {revisions:?}"
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_completes() {
    let Some(env) = start().await else { return };
    let jobs: Api<Job> = api(&env);
    let job: Job = from_json(json!({
        "metadata": {"name": "once"},
        "spec": {"completions": 2, "parallelism": 1, "template": {"spec": {
            "restartPolicy": "Never", "containers": [{"name": "work", "image": IMAGE}]}}},
    }));
    jobs.create(&PostParams::default(), &job).await.expect("create");
    let status = eventually_within(TIMEOUT, "the Job to complete", || async {
        let status = jobs.get("once").await.expect("get").status?;
        let complete = status
            .conditions
            .iter()
            .flatten()
            .any(|c| c.type_ == "Complete" && c.status == "True");
        complete.then_some(status)
    })
    .await;
    assert_eq!(status.succeeded, Some(2));
    assert!(status.completion_time.is_some() && status.start_time.is_some());
    let pods = list(&api::<Pod>(&env), "job-name=once").await;
    let phases: Vec<_> = pods.iter().filter_map(|p| p.status.as_ref()?.phase.clone()).collect();
    assert_eq!(phases, ["Succeeded", "Succeeded"]);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daemon_set_runs_one_pod_per_node() {
    let Some(env) = start().await else { return };
    let nodes = ready_nodes(&env).await;
    let daemons: Api<DaemonSet> = api(&env);
    let daemon: DaemonSet = from_json(json!({
        "metadata": {"name": "agent"},
        "spec": {"selector": {"matchLabels": {"app": "agent"}},
                 "template": {"metadata": {"labels": {"app": "agent"}},
                              "spec": {"containers": [{"name": "agent", "image": IMAGE}]}}},
    }));
    daemons.create(&PostParams::default(), &daemon).await.expect("create");
    let wanted = i32::try_from(nodes.len()).expect("a few nodes");
    eventually_within(TIMEOUT, "a ready pod on every node", || async {
        let status = daemons.get("agent").await.expect("get").status?;
        (status.desired_number_scheduled == wanted && status.number_ready == wanted).then_some(())
    })
    .await;
    let pods = list(&api::<Pod>(&env), "app=agent").await;
    let on: BTreeSet<String> = pods.iter().filter_map(|p| p.spec.as_ref()?.node_name.clone()).collect();
    assert_eq!(pods.len(), nodes.len());
    assert_eq!(on, nodes.into_iter().collect::<BTreeSet<_>>());
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_that_never_gets_ready_keeps_its_deployment_unavailable() {
    let Some(env) = start().await else { return };
    if !env.is_embedded() {
        eprintln!("skipped: the never-ready knob is the embedded server's simulation");
        env.stop().await;
        return;
    }
    let deployments: Api<Deployment> = api(&env);
    let spec = json!({"spec": {"progressDeadlineSeconds": 1, "template": {"metadata": {
        "annotations": {"envtest.wheelhouse.rs/behaviour": "never-ready"}}}}});
    deployments
        .create(&PostParams::default(), &deployment("stuck", 2, IMAGE, &spec))
        .await
        .expect("create");
    let deployment = eventually_within(TIMEOUT, "the rollout to pass its deadline", || async {
        let deployment = deployments.get("stuck").await.expect("get");
        let reason = condition_of(&deployment, "Progressing")?.1;
        (reason == "ProgressDeadlineExceeded").then_some(deployment)
    })
    .await;
    assert_eq!(
        condition_of(&deployment, "Available"),
        Some(("False".into(), "MinimumReplicasUnavailable".into()))
    );
    let status = deployment.status.expect("a status");
    assert_eq!(
        (status.replicas, status.ready_replicas, status.unavailable_replicas),
        (Some(2), None, Some(2))
    );
    let pods = list(&api::<Pod>(&env), "app=stuck").await;
    assert!(
        pods.iter()
            .all(|p| !is_ready(p) && p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running"))
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_that_fails_to_pull_shows_err_image_pull() {
    let Some(env) = start().await else { return };
    if !env.is_embedded() {
        eprintln!("skipped: the failing-image knob is the embedded server's simulation");
        env.stop().await;
        return;
    }
    let deployments: Api<Deployment> = api(&env);
    deployments
        .create(&PostParams::default(), &deployment("pull", 1, BROKEN, &json!({})))
        .await
        .expect("create");
    let pods: Api<Pod> = api(&env);
    let reason = eventually_within(TIMEOUT, "the container to wait on its image", || async {
        let pod = list(&pods, "app=pull").await.into_iter().next()?;
        let status = pod.status?.container_statuses?.into_iter().next()?;
        status.state?.waiting?.reason.filter(|r| r != "ContainerCreating")
    })
    .await;
    assert!(
        matches!(reason.as_str(), "ErrImagePull" | "ImagePullBackOff"),
        "{reason}"
    );
    let events: Api<Event> = api(&env);
    eventually_within(TIMEOUT, "a warning that the pull failed", || async {
        let events = events.list(&ListParams::default()).await.expect("events").items;
        events
            .iter()
            .any(|e| e.type_.as_deref() == Some("Warning") && e.message.as_deref() == Some("Error: ErrImagePull"))
            .then_some(())
    })
    .await;
    let pod = list(&pods, "app=pull").await.into_iter().next().expect("the pod");
    assert_eq!(pod.status.and_then(|s| s.phase).as_deref(), Some("Pending"));
    let deployment = deployments.get("pull").await.expect("get");
    assert_eq!(
        condition_of(&deployment, "Available").map(|c| c.0).as_deref(),
        Some("False")
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_deployment_removes_its_replica_sets_and_pods() {
    let Some(env) = start().await else { return };
    let deployments: Api<Deployment> = api(&env);
    deployments
        .create(&PostParams::default(), &deployment("gone", 2, IMAGE, &json!({})))
        .await
        .expect("create");
    wait_complete(&deployments, "gone", 2).await;
    deployments
        .delete("gone", &DeleteParams::default())
        .await
        .expect("delete");
    eventually_within(TIMEOUT, "the ReplicaSets and Pods to go", || async {
        let replica_sets = list(&api::<ReplicaSet>(&env), "app=gone").await;
        let pods = list(&api::<Pod>(&env), "app=gone").await;
        (replica_sets.is_empty() && pods.is_empty()).then_some(())
    })
    .await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_sees_the_rollout_its_replica_sets_and_pods() {
    let on_path = std::process::Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !on_path {
        eprintln!("skipped: kubectl is not on PATH");
        return;
    }
    let Some(mut env) = start().await else { return };
    if env.is_embedded() {
        env.serve_http("127.0.0.1:0".parse().expect("an address"))
            .await
            .expect("served");
    }
    let kubeconfig = env.kubeconfig().expect("a kubeconfig");
    let deployments: Api<Deployment> = api(&env);
    deployments
        .create(&PostParams::default(), &deployment("cli", 2, IMAGE, &json!({})))
        .await
        .expect("create");
    let kubectl = |args: &[&str]| {
        let output = std::process::Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(&kubeconfig)
            .args(["--namespace", env.namespace()])
            .args(args)
            .output()
            .expect("kubectl runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "kubectl {args:?} failed: {stdout}{stderr}");
        stdout
    };
    let rollout = tokio::task::block_in_place(|| kubectl(&["rollout", "status", "deployment/cli", "--timeout=60s"]));
    assert!(rollout.contains("successfully rolled out"), "{rollout}");
    let table = tokio::task::block_in_place(|| kubectl(&["get", "rs,pods", "-l", "app=cli"]));
    for column in ["DESIRED", "CURRENT", "READY", "STATUS", "RESTARTS"] {
        assert!(table.contains(column), "{column} in {table}");
    }
    assert_eq!(table.matches("1/1").count(), 2, "two ready pods in {table}");
    assert_eq!(table.matches("Running").count(), 2, "two running pods in {table}");
    env.stop().await;
}
