//! `DeleteOptions` are read from the body (else the query)
//! as kube-apiserver reads them, so a dry run deletes nothing; and a delete answers a
//! `Status` once the object is gone, the object while its deletion is pending, and the
//! deleted object for the resources that always return it.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, ServiceAccount};
use kube::api::{Api, DeleteParams, ListParams, PostParams, Preconditions};
use kube::core::response::StatusSummary;
use serde_json::json;

use crate::common::{IMAGE, api_error, configmap, deployment, from_json, is_gone, start};
use crate::raw::send;

fn configmap_path(namespace: &str, name: &str) -> String {
    format!("/api/v1/namespaces/{namespace}/configmaps/{name}")
}

/// `kubectl delete --dry-run=server` sends `dryRun` in the `DeleteOptions` body: the
/// object must stay. So must it for a dry run in the query of a bodiless delete.
#[tokio::test]
async fn dry_run_deletes_leave_the_object() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("c1", &[], &[("a", "1")]))
        .await
        .unwrap();

    let dry_run = DeleteParams {
        dry_run: true,
        ..DeleteParams::default()
    };
    let answer = api.delete("c1", &dry_run).await.expect("a dry-run delete succeeds");
    let status = answer
        .right()
        .expect("a dry run answers as the real delete would: a Status");
    assert_eq!(status.status, Some(StatusSummary::Success));
    assert!(
        api.get_opt("c1").await.unwrap().is_some(),
        "a dry-run delete removed the object"
    );

    // kubectl's own body, verbatim.
    let path = configmap_path(env.namespace(), "c1");
    let body =
        json!({"kind": "DeleteOptions", "apiVersion": "v1", "dryRun": ["All"], "propagationPolicy": "Background"});
    let answer = send(&env.client(), http::Method::DELETE, &path, Some(&body)).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert!(
        api.get_opt("c1").await.unwrap().is_some(),
        "dryRun in the body was ignored"
    );

    let answer = send(&env.client(), http::Method::DELETE, &format!("{path}?dryRun=All"), None).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert!(
        api.get_opt("c1").await.unwrap().is_some(),
        "dryRun in the query was ignored"
    );

    // With a body, the query is not read at all: this deletes.
    let answer = send(
        &env.client(),
        http::Method::DELETE,
        &format!("{path}?dryRun=All"),
        Some(&json!({})),
    )
    .await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert!(
        is_gone(&api, "c1").await,
        "a body without dryRun deletes, whatever the query says"
    );
    env.stop().await;
}

/// A dry-run deletecollection deletes nothing either.
#[tokio::test]
async fn dry_run_delete_collection_leaves_the_objects() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for name in ["d1", "d2"] {
        api.create(&PostParams::default(), &configmap(name, &[("set", "dry")], &[]))
            .await
            .unwrap();
    }
    let dry_run = DeleteParams {
        dry_run: true,
        ..DeleteParams::default()
    };
    let selected = ListParams::default().labels("set=dry");
    api.delete_collection(&dry_run, &selected).await.unwrap();
    assert_eq!(api.list(&selected).await.unwrap().items.len(), 2);
    api.delete_collection(&DeleteParams::default(), &selected)
        .await
        .unwrap();
    assert_eq!(api.list(&selected).await.unwrap().items.len(), 0);
    env.stop().await;
}

/// Preconditions in the body guard the delete, with kube-apiserver's wording.
#[tokio::test]
async fn preconditions_guard_the_delete() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let created = api
        .create(&PostParams::default(), &configmap("guarded", &[], &[]))
        .await
        .unwrap();
    let wrong_uid = DeleteParams {
        preconditions: Some(Preconditions {
            uid: Some("not-the-uid".into()),
            resource_version: None,
        }),
        ..DeleteParams::default()
    };
    let status = api_error(api.delete("guarded", &wrong_uid).await);
    assert_eq!((status.code, status.reason.as_str()), (409, "Conflict"));
    assert!(
        status
            .message
            .contains("the UID in the precondition (not-the-uid) does not match the UID in record"),
        "{}",
        status.message
    );
    let stale = DeleteParams {
        preconditions: Some(Preconditions {
            uid: None,
            resource_version: Some("1".into()),
        }),
        ..DeleteParams::default()
    };
    let status = api_error(api.delete("guarded", &stale).await);
    assert_eq!(status.code, 409, "{}", status.message);
    assert!(api.get_opt("guarded").await.unwrap().is_some());
    let exact = DeleteParams {
        preconditions: Some(Preconditions {
            uid: created.metadata.uid.clone(),
            resource_version: created.metadata.resource_version.clone(),
        }),
        ..DeleteParams::default()
    };
    api.delete("guarded", &exact)
        .await
        .expect("matching preconditions delete");
    assert!(is_gone(&api, "guarded").await);
    env.stop().await;
}

/// Options that break kube-apiserver's rules are refused with 422 (body or query).
#[tokio::test]
async fn invalid_delete_options_are_refused() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("kept", &[], &[]))
        .await
        .unwrap();
    let path = configmap_path(env.namespace(), "kept");
    let bodies = [
        json!({"dryRun": ["Bogus"]}),
        json!({"propagationPolicy": "Sideways"}),
        json!({"orphanDependents": true, "propagationPolicy": "Background"}),
    ];
    for body in bodies {
        let answer = send(&env.client(), http::Method::DELETE, &path, Some(&body)).await;
        assert_eq!(answer.code, 422, "{body}: {}", answer.body);
        assert_eq!(answer.body["details"]["kind"], "DeleteOptions", "{}", answer.body);
    }
    let answer = send(
        &env.client(),
        http::Method::DELETE,
        &format!("{path}?dryRun=Bogus"),
        None,
    )
    .await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let answer = send(
        &env.client(),
        http::Method::DELETE,
        &format!("{path}?gracePeriodSeconds=soon"),
        None,
    )
    .await;
    assert_eq!(answer.code, 400, "{}", answer.body);
    assert!(api.get_opt("kept").await.unwrap().is_some());
    env.stop().await;
}

/// A pod on a node is deleted gracefully: it stays, marked, for its grace period
/// (kubelet finishes it); a zero grace period removes it. An unscheduled pod goes at
/// once. Pods are answered with the object either way.
#[tokio::test]
async fn pods_on_a_node_are_deleted_gracefully() {
    let env = start().await;
    let api: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let pod = |name: &str, node: Option<&str>| -> Pod {
        from_json(json!({"metadata": {"name": name}, "spec": {
            "nodeName": node, "terminationGracePeriodSeconds": 40,
            "containers": [{"name": "main", "image": IMAGE}]}}))
    };
    api.create(
        &PostParams::default(),
        &pod("scheduled", Some("envtest-node-that-does-not-exist")),
    )
    .await
    .unwrap();
    let answer = api.delete("scheduled", &DeleteParams::default()).await.unwrap();
    let marked = answer.left().expect("a pending deletion answers with the pod");
    assert_eq!(marked.metadata.deletion_grace_period_seconds, Some(40));
    assert!(marked.metadata.deletion_timestamp.is_some());
    let current = api.get("scheduled").await.expect("the pod waits for its kubelet");
    assert_eq!(current.metadata.deletion_grace_period_seconds, Some(40));

    // A shorter period moves the deadline; a longer one changes nothing.
    let shorter = DeleteParams::default().grace_period(10);
    let marked = api.delete("scheduled", &shorter).await.unwrap().left().unwrap();
    assert_eq!(marked.metadata.deletion_grace_period_seconds, Some(10));
    let longer = DeleteParams::default().grace_period(60);
    let marked = api.delete("scheduled", &longer).await.unwrap().left().unwrap();
    assert_eq!(marked.metadata.deletion_grace_period_seconds, Some(10));

    let now = DeleteParams::default().grace_period(0);
    let last = api
        .delete("scheduled", &now)
        .await
        .unwrap()
        .left()
        .expect("pods answer with the object");
    assert_eq!(last.metadata.deletion_grace_period_seconds, Some(0));
    assert!(is_gone(&api, "scheduled").await, "a zero grace period deletes at once");

    api.create(&PostParams::default(), &pod("unscheduled", None))
        .await
        .unwrap();
    api.delete("unscheduled", &DeleteParams::default()).await.unwrap();
    assert!(is_gone(&api, "unscheduled").await, "a pod on no node goes at once");
    env.stop().await;
}

/// Gone at once: a `Status` with the name, the resource (as `kind`), its group and uid.
#[tokio::test]
async fn deleted_objects_are_answered_with_a_status() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let created = configmaps
        .create(&PostParams::default(), &configmap("gone", &[], &[]))
        .await
        .unwrap();
    let status = configmaps
        .delete("gone", &DeleteParams::default())
        .await
        .unwrap()
        .right()
        .expect("an object gone at once is answered with a Status");
    assert_eq!(status.status, Some(StatusSummary::Success));
    let details = status.details.expect("the Status names what went");
    assert_eq!(
        (details.name.as_str(), details.kind.as_str(), details.group.as_str()),
        ("gone", "configmaps", "")
    );
    assert_eq!(Some(details.uid), created.metadata.uid);

    let deployments: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let containers = json!([{"name": "web", "image": IMAGE}]);
    deployments
        .create(&PostParams::default(), &deployment("web", 1, &containers))
        .await
        .unwrap();
    let details = deployments
        .delete("web", &DeleteParams::background())
        .await
        .unwrap()
        .right()
        .expect("a Status")
        .details
        .expect("details");
    assert_eq!(
        (details.name.as_str(), details.kind.as_str(), details.group.as_str()),
        ("web", "deployments", "apps")
    );
    env.stop().await;
}

/// Service accounts (like namespaces, pods, services, volumes and claims, storage
/// classes) answer with the deleted object even when it is gone at once.
#[tokio::test]
async fn some_resources_answer_with_the_deleted_object() {
    let env = start().await;
    let api: Api<ServiceAccount> = Api::namespaced(env.client(), env.namespace());
    api.create(
        &PostParams::default(),
        &from_json(json!({"metadata": {"name": "robot"}})),
    )
    .await
    .unwrap();
    let answer = api.delete("robot", &DeleteParams::default()).await.unwrap();
    let last = answer.left().expect("service accounts answer with the object");
    assert_eq!(last.metadata.name.as_deref(), Some("robot"));
    assert!(is_gone(&api, "robot").await, "it is gone nonetheless");
    env.stop().await;
}

/// A `batch/v1` Job deleted without a propagation policy orphans its dependents, as
/// kube-apiserver keeps for compatibility (kubectl asks for Background explicitly).
#[tokio::test]
async fn jobs_orphan_their_dependents_by_default() {
    let env = start().await;
    if crate::common::skip_without_controllers(&env, "orphaning a Job's dependents") {
        env.stop().await;
        return;
    }
    let jobs: Api<k8s_openapi::api::batch::v1::Job> = Api::namespaced(env.client(), env.namespace());
    let job = jobs
        .create(
            &PostParams::default(),
            &from_json(json!({"metadata": {"name": "batch"}, "spec": {"template": {"spec": {
                "restartPolicy": "Never", "containers": [{"name": "main", "image": IMAGE}]}}}})),
        )
        .await
        .unwrap();
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let dependent: ConfigMap = from_json(json!({"metadata": {"name": "job-output", "ownerReferences": [{
        "apiVersion": "batch/v1", "kind": "Job", "name": "batch", "uid": job.metadata.uid}]}}));
    configmaps.create(&PostParams::default(), &dependent).await.unwrap();
    // No policy at all: neither in the body nor the query.
    let path = format!("/apis/batch/v1/namespaces/{}/jobs/batch", env.namespace());
    let answer = send(&env.client(), http::Method::DELETE, &path, None).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    crate::common::wait_gone(&jobs, "batch").await;
    crate::common::eventually("the dependent to let go of its owner", || async {
        let current = configmaps.get("job-output").await.expect("the dependent stays");
        current
            .metadata
            .owner_references
            .unwrap_or_default()
            .is_empty()
            .then_some(())
    })
    .await;
    env.stop().await;
}

/// A terminating namespace says what holds it in `status.conditions`: the resources
/// left and the finalizers on them, in kube-controller-manager's words.
#[tokio::test]
async fn a_terminating_namespace_reports_what_remains() {
    use k8s_openapi::api::core::v1::Namespace;
    use kube::api::{Patch, PatchParams};

    let env = start().await;
    if crate::common::skip_without_controllers(&env, "the namespace controller's conditions") {
        env.stop().await;
        return;
    }
    let namespaces: Api<Namespace> = Api::all(env.client());
    let name = format!("{}-held", env.namespace());
    let namespace: Namespace = from_json(json!({"metadata": {"name": name}}));
    namespaces.create(&PostParams::default(), &namespace).await.unwrap();
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), &name);
    let pinned: ConfigMap =
        from_json(json!({"metadata": {"name": "pinned", "finalizers": ["conformance.wheelhouse.rs/hold"]}}));
    configmaps.create(&PostParams::default(), &pinned).await.unwrap();
    namespaces.delete(&name, &DeleteParams::default()).await.unwrap();
    let message = crate::common::eventually("the namespace to report its finalizers", || async {
        let status = namespaces.get(&name).await.ok()?.status?;
        let condition = status
            .conditions?
            .into_iter()
            .find(|c| c.type_ == "NamespaceFinalizersRemaining" && c.status == "True")?;
        condition.message
    })
    .await;
    assert_eq!(
        message,
        "Some content in the namespace has finalizers remaining: conformance.wheelhouse.rs/hold in 1 resource instances"
    );
    configmaps
        .patch(
            "pinned",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"finalizers": null}})),
        )
        .await
        .unwrap();
    crate::common::wait_gone(&namespaces, &name).await;
    env.stop().await;
}
