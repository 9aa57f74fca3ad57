//! Service allocation as kube-apiserver's Service storage does it: cluster IPs and node
//! ports given by the client are checked (an IP at all, inside the service CIDR, a port
//! in 30000–32767, not held by another Service), missing ones are allocated, and what a
//! Service held is released when it goes or no longer needs it.
//!
//! On a real cluster these tests read the addresses the server allocated rather than
//! assume its CIDR, and delete every Service they create.

use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::core::Status;
use serde_json::{Value, json};

use crate::common::{api_error, delete_quietly, from_json, start};
use crate::schema_common::server_minor;

fn service(name: &str, spec: &Value) -> Service {
    let mut spec = spec.clone();
    spec["selector"] = json!({"app": name});
    if spec.get("ports").is_none() {
        spec["ports"] = json!([{"port": 80}]);
    }
    from_json(json!({"metadata": {"name": name}, "spec": spec}))
}

fn cluster_ip(service: &Service) -> String {
    service
        .spec
        .as_ref()
        .and_then(|s| s.cluster_ip.clone())
        .expect("an allocated cluster IP")
}

fn node_port(service: &Service) -> Option<i32> {
    service.spec.as_ref()?.ports.as_ref()?.first()?.node_port
}

/// A create the server must refuse with 422; its status.
async fn refused(api: &Api<Service>, name: &str, spec: &Value) -> Status {
    let status = api_error(api.create(&PostParams::default(), &service(name, spec)).await);
    assert_eq!(status.code, 422, "{name}: {}", status.message);
    assert_eq!(status.reason, "Invalid");
    status
}

/// A given `clusterIP` is refused when another Service holds it, when it lies outside
/// the service CIDR and when it is not an IP, each with kube's field error; the address
/// of a deleted Service can be had again.
#[tokio::test]
async fn given_cluster_ips_are_checked_and_released_with_their_service() {
    let env = start().await;
    // 1.19 allocated `spec.clusterIP` alone and validated before allocating; it words
    // these errors on that field.
    let legacy = server_minor(&env).await < 20;
    let api: Api<Service> = Api::namespaced(env.client(), env.namespace());
    let names = ["holder", "taken", "outside", "not-an-ip", "again"];
    let holder = api
        .create(&PostParams::default(), &service("holder", &json!({})))
        .await
        .unwrap();
    let ip = cluster_ip(&holder);

    let status = refused(&api, "taken", &json!({"clusterIP": ip})).await;
    let expected = format!(
        "Service \"taken\" is invalid: spec.clusterIPs: Invalid value: []string{{\"{ip}\"}}: failed to allocate IP {ip}: provided IP is already allocated"
    );
    if legacy {
        assert!(
            status.message.contains("provided IP is already allocated"),
            "{}",
            status.message
        );
    } else {
        assert_eq!(status.message, expected);
    }

    // TEST-NET-1 (RFC 5737): in no cluster's service CIDR.
    let status = refused(&api, "outside", &json!({"clusterIP": "192.0.2.1"})).await;
    let expected = "Service \"outside\" is invalid: spec.clusterIPs: Invalid value: []string{\"192.0.2.1\"}: failed to allocate IP 192.0.2.1: the provided IP (192.0.2.1) is not in the valid range. The range of valid IPs is ";
    if legacy {
        assert!(
            status.message.contains("provided IP is not in the valid range"),
            "{}",
            status.message
        );
    } else {
        assert!(status.message.starts_with(expected), "{}", status.message);
    }

    let status = refused(&api, "not-an-ip", &json!({"clusterIP": "abc"})).await;
    if legacy {
        assert!(
            // 1.19: "must be empty, 'None', or a valid IP address".
            status.message.contains("a valid IP address"),
            "{}",
            status.message
        );
    } else {
        assert_eq!(
            status.message,
            "Service \"not-an-ip\" is invalid: spec.clusterIPs[0]: Invalid value: \"abc\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
        );
    }

    api.delete("holder", &DeleteParams::default()).await.unwrap();
    let again = api
        .create(&PostParams::default(), &service("again", &json!({"clusterIP": ip})))
        .await
        .expect("a deleted Service's address is free again");
    assert_eq!(cluster_ip(&again), ip);
    for name in names {
        delete_quietly(&api, name).await;
    }
    env.stop().await;
}

/// `NodePort` and `LoadBalancer` Services get a node port per port; a given one outside
/// 30000–32767 or held by another Service is refused; an update keeps the allocated
/// port, and deleting the Service or changing its type releases it.
#[tokio::test]
async fn node_ports_are_allocated_checked_kept_and_released() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let api: Api<Service> = Api::namespaced(env.client(), env.namespace());
    let names = ["np", "lb", "duplicate", "out-of-range", "reuses", "after-type"];
    let np = api
        .create(&PostParams::default(), &service("np", &json!({"type": "NodePort"})))
        .await
        .unwrap();
    let port = node_port(&np).expect("a node port is allocated");
    assert!((30000..=32767).contains(&port), "{port}");
    let lb = api
        .create(&PostParams::default(), &service("lb", &json!({"type": "LoadBalancer"})))
        .await
        .unwrap();
    let lb_port = node_port(&lb).expect("a LoadBalancer gets a node port");
    assert_ne!(lb_port, port);
    let lb_spec = lb.spec.expect("a spec");
    if minor >= 22 {
        // The field came with 1.20 behind a gate, on by default since 1.22.
        assert_eq!(lb_spec.allocate_load_balancer_node_ports, Some(true));
    }
    assert_eq!(lb_spec.external_traffic_policy.as_deref(), Some("Cluster"));

    let taken = json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": port}]});
    let status = refused(&api, "duplicate", &taken).await;
    assert_eq!(
        status.message,
        format!(
            "Service \"duplicate\" is invalid: spec.ports[0].nodePort: Invalid value: {port}: provided port is already allocated"
        )
    );
    let outside = json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": 8080}]});
    let status = refused(&api, "out-of-range", &outside).await;
    assert_eq!(
        status.message,
        "Service \"out-of-range\" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767"
    );

    // An update that leaves the ports alone keeps the node port.
    let labelled = api
        .patch(
            "np",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"labels": {"a": "b"}}})),
        )
        .await
        .unwrap();
    assert_eq!(node_port(&labelled), Some(port));
    if minor >= 20 {
        // Ports rewritten without their node port keep it, matched by name
        // (`PatchAllocatedValues`, since 1.20).
        let rewritten = api
            .patch(
                "np",
                &PatchParams::default(),
                &Patch::Merge(json!({"spec": {"ports": [{"port": 80}]}})),
            )
            .await
            .unwrap();
        assert_eq!(node_port(&rewritten), Some(port));
    }

    // Deleting the Service releases its port.
    api.delete("np", &DeleteParams::default()).await.unwrap();
    let reuses = api
        .create(&PostParams::default(), &service("reuses", &taken))
        .await
        .expect("a deleted Service's node port is free again");
    assert_eq!(node_port(&reuses), Some(port));

    if minor >= 20 {
        // Changing the type to ClusterIP drops the node port and releases it (1.19
        // refused the change until the client cleared the port itself).
        let changed = api
            .patch(
                "reuses",
                &PatchParams::default(),
                &Patch::Merge(json!({"spec": {"type": "ClusterIP"}})),
            )
            .await
            .unwrap();
        assert_eq!(node_port(&changed), None);
        let after = api
            .create(&PostParams::default(), &service("after-type", &taken))
            .await
            .expect("the port a type change released is free again");
        assert_eq!(node_port(&after), Some(port));
    }
    for name in names {
        delete_quietly(&api, name).await;
    }
    env.stop().await;
}
