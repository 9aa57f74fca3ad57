//! The shape of one realistic Pod: a web service's Deployment Pod with an app
//! container and a sidecar, drawn from a seeded RNG.

use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::time;

/// The characters Kubernetes draws generated name suffixes and template hashes from.
const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

const APPS: &[&str] = &[
    "checkout",
    "payments",
    "inventory",
    "search",
    "frontend",
    "recommendations",
    "cart",
    "shipping",
    "accounts",
    "notifications",
    "catalog",
    "reviews",
];
const TEAMS: &[&str] = &["storefront", "platform", "data", "growth"];
const LOG_LEVELS: &[&str] = &["info", "debug", "warn"];
const REGISTRY: &str = "registry.example.com";

/// Everything one Pod is made of, drawn once so its writes and its whole form agree.
pub(super) struct Parts {
    namespace: String,
    name: String,
    app: &'static str,
    team: &'static str,
    hash: String,
    uid: String,
    owner_uid: String,
    pub(super) node: String,
    pod_ip: String,
    host_ip: String,
    version: String,
    env: Vec<Value>,
    sidecar_env: Vec<Value>,
    memory_mib: u32,
    cpu_millis: u32,
    restarts: u32,
    last_applied: bool,
    restarted_at: Option<Value>,
    container_ids: [String; 2],
    image_digests: [String; 2],
    pub(super) created: Value,
    pub(super) scheduled_at: Value,
    pub(super) started_at: Value,
    ready_at: Value,
}

fn random_name(rng: &mut StdRng, length: usize) -> String {
    (0..length)
        .map(|_| char::from(NAME_ALPHABET[rng.random_range(0..NAME_ALPHABET.len())]))
        .collect()
}

/// Five characters or more from the name alphabet, one-to-one with `seed`: distinct
/// seeds give distinct Pod names, as the server's generated suffixes are distinct.
fn suffix(seed: u64) -> String {
    let base = NAME_ALPHABET.len() as u64;
    let mut digits = Vec::new();
    let mut rest = seed;
    while digits.len() < 5 || rest > 0 {
        let digit = usize::try_from(rest % base).unwrap_or_default();
        digits.push(char::from(NAME_ALPHABET[digit]));
        rest /= base;
    }
    digits.into_iter().rev().collect()
}

fn hex(rng: &mut StdRng, length: usize) -> String {
    (0..length)
        .map(|_| char::from_digit(rng.random_range(0..16), 16).unwrap_or('0'))
        .collect()
}

fn uid(rng: &mut StdRng) -> String {
    format!(
        "{}-{}-{}-{}-{}",
        hex(rng, 8),
        hex(rng, 4),
        hex(rng, 4),
        hex(rng, 4),
        hex(rng, 12)
    )
}

fn ip(rng: &mut StdRng, prefix: &str) -> String {
    format!("{prefix}.{}.{}", rng.random_range(0..=255), rng.random_range(2..=254))
}

/// An app's environment: plain settings, and some read from secrets, config maps and
/// the downward API, as a real Deployment's are.
fn app_env(rng: &mut StdRng, app: &str) -> Vec<Value> {
    let mut env = vec![
        json!({"name": "APP_NAME", "value": app}),
        json!({"name": "LOG_LEVEL", "value": LOG_LEVELS[rng.random_range(0..LOG_LEVELS.len())]}),
        json!({"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}),
        json!({"name": "DATABASE_PASSWORD", "valueFrom": {"secretKeyRef": {"name": format!("{app}-db"), "key": "password"}}}),
    ];
    for n in 0..rng.random_range(0..2) {
        env.push(json!({"name": format!("UPSTREAM_{n}"), "value": format!("{}:8080", APPS[rng.random_range(0..APPS.len())])}));
    }
    env
}

impl Parts {
    pub(super) fn new(namespace: &str, seed: u64, rng: &mut StdRng) -> Self {
        let app = APPS[rng.random_range(0..APPS.len())];
        let hash = random_name(rng, 10);
        let created_at: i64 = rng.random_range(0..86_400 * 30);
        let scheduled_after = rng.random_range(0..3);
        let started_after = scheduled_after + rng.random_range(2..40);
        let last_applied = rng.random_range(0..4) == 0;
        Self {
            namespace: namespace.to_owned(),
            name: format!("{app}-{hash}-{}", suffix(seed)),
            app,
            team: TEAMS[rng.random_range(0..TEAMS.len())],
            uid: uid(rng),
            owner_uid: uid(rng),
            node: format!(
                "ip-10-{}-{}-{}.ec2.internal",
                rng.random_range(0..32),
                rng.random_range(0..256),
                rng.random_range(1..255)
            ),
            pod_ip: ip(rng, "10.244"),
            host_ip: ip(rng, "10.0"),
            version: format!("1.{}.{}", rng.random_range(0..40), rng.random_range(0..20)),
            env: app_env(rng, app),
            sidecar_env: vec![json!({"name": "SERVICE_NAME", "value": app})],
            memory_mib: [128, 256, 512, 1024][rng.random_range(0..4)],
            cpu_millis: [100, 250, 500, 1000][rng.random_range(0..4)],
            restarts: if rng.random_range(0..10) == 0 {
                rng.random_range(1..5)
            } else {
                0
            },
            last_applied,
            // A rollout restart's mark, on Pods not made by `kubectl apply`.
            restarted_at: (!last_applied && rng.random_range(0..3) == 0).then(|| time(created_at - 60)),
            container_ids: [hex(rng, 64), hex(rng, 64)],
            image_digests: [hex(rng, 64), hex(rng, 64)],
            hash,
            created: time(created_at),
            scheduled_at: time(created_at + scheduled_after),
            started_at: time(created_at + started_after),
            ready_at: time(created_at + started_after + rng.random_range(5..30)),
        }
    }

    fn image(&self) -> String {
        format!("{REGISTRY}/{}/{}:{}", self.team, self.app, self.version)
    }

    fn labels(&self) -> Value {
        json!({
            "app": self.app,
            "app.kubernetes.io/name": self.app,
            "app.kubernetes.io/part-of": self.team,
            "pod-template-hash": self.hash,
        })
    }

    fn annotations(&self) -> Value {
        let mut annotations = json!({
            "prometheus.io/scrape": "true",
            "prometheus.io/port": "8080",
        });
        if let Some(at) = &self.restarted_at {
            annotations["kubectl.kubernetes.io/restartedAt"] = at.clone();
        }
        if self.last_applied {
            // What `kubectl apply` leaves on what it applied: the object as written.
            let applied = json!({
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"labels": {"app": self.app}, "name": self.name, "namespace": self.namespace},
                "spec": {"containers": [{"image": self.image(), "name": self.app}]},
            });
            annotations["kubectl.kubernetes.io/last-applied-configuration"] = json!(format!("{applied}\n"));
        }
        annotations
    }

    /// An HTTP probe on a named port (a string) or a number: a port given as a
    /// string must be a port name, which has a letter, as kube-apiserver validates.
    fn probe(path: &str, port: &Value, period: u32) -> Value {
        json!({"httpGet": {"path": path, "port": port}, "periodSeconds": period})
    }

    fn containers(&self) -> Value {
        let memory = format!("{}Mi", self.memory_mib);
        json!([
            {
                "name": self.app,
                "image": self.image(),
                "env": self.env,
                "ports": [
                    {"name": "http", "containerPort": 8080, "protocol": "TCP"},
                ],
                "livenessProbe": Self::probe("/healthz", &json!("http"), 10),
                "readinessProbe": Self::probe("/ready", &json!("http"), 5),
                "resources": {
                    "requests": {"cpu": format!("{}m", self.cpu_millis), "memory": memory},
                    "limits": {"memory": memory},
                },
                "volumeMounts": [
                    {"name": "config", "mountPath": "/etc/app", "readOnly": true},
                    {"name": "cache", "mountPath": "/var/cache/app"},
                ],
            },
            {
                "name": "proxy",
                "image": format!("{REGISTRY}/platform/proxy:1.31.2"),
                "env": self.sidecar_env,
                "ports": [{"name": "proxy", "containerPort": 15001, "protocol": "TCP"}],
                "readinessProbe": Self::probe("/healthz/ready", &json!(15021), 2),
                "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}},
                "volumeMounts": [
                    {"name": "tmp", "mountPath": "/tmp"},
                ],
            },
        ])
    }

    fn volumes(&self) -> Value {
        json!([
            {"name": "config", "configMap": {"name": format!("{}-config", self.app), "defaultMode": 420}},
            {"name": "cache", "emptyDir": {"sizeLimit": "1Gi"}},
            {"name": "tmp", "emptyDir": {"medium": "Memory"}},
        ])
    }

    /// The Pod as its ReplicaSet's controller creates it (with the identity the server
    /// gives it at create, which the caller removes for a create).
    pub(super) fn pod(&self) -> Value {
        json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": self.name,
                "generateName": format!("{}-{}-", self.app, self.hash),
                "namespace": self.namespace,
                "uid": self.uid,
                "creationTimestamp": self.created,
                "labels": self.labels(),
                "annotations": self.annotations(),
                "ownerReferences": [{
                    "apiVersion": "apps/v1",
                    "kind": "ReplicaSet",
                    "name": format!("{}-{}", self.app, self.hash),
                    "uid": self.owner_uid,
                    "controller": true,
                    "blockOwnerDeletion": true,
                }],
            },
            "spec": {
                "containers": self.containers(),
                "volumes": self.volumes(),
                "restartPolicy": "Always",
                "terminationGracePeriodSeconds": 30,
                "dnsPolicy": "ClusterFirst",
                "serviceAccountName": self.app,
                "schedulerName": "default-scheduler",
            },
        })
    }

    fn condition(kind: &str, at: &Value) -> Value {
        json!({"type": kind, "status": "True", "lastProbeTime": null, "lastTransitionTime": at})
    }

    /// The scheduler's status patch: the `PodScheduled` condition.
    pub(super) fn scheduled(&self) -> Value {
        json!({"status": {"conditions": [Self::condition("PodScheduled", &self.scheduled_at)]}})
    }

    fn container_status(&self, index: usize, name: &str, image: &str) -> Value {
        let restarts = if index == 0 { self.restarts } else { 0 };
        json!({
            "name": name,
            "image": image,
            "imageID": format!("{}@sha256:{}", image.split(':').next().unwrap_or(image), self.image_digests[index]),
            "containerID": format!("containerd://{}", self.container_ids[index]),
            "ready": true,
            "started": true,
            "restartCount": restarts,
            "state": {"running": {"startedAt": self.started_at}},
            "lastState": {},
        })
    }

    /// The status the kubelet reports for the running Pod (with the scheduler's
    /// condition, as a reader sees it).
    pub(super) fn status(&self) -> Value {
        json!({
            "phase": "Running",
            "conditions": [
                Self::condition("PodReadyToStartContainers", &self.started_at),
                Self::condition("Initialized", &self.scheduled_at),
                Self::condition("Ready", &self.ready_at),
                Self::condition("ContainersReady", &self.ready_at),
                Self::condition("PodScheduled", &self.scheduled_at),
            ],
            "hostIP": self.host_ip,
            "hostIPs": [{"ip": self.host_ip}],
            "podIP": self.pod_ip,
            "podIPs": [{"ip": self.pod_ip}],
            "startTime": self.scheduled_at,
            "qosClass": "Burstable",
            "containerStatuses": [
                self.container_status(0, self.app, &self.image()),
                self.container_status(1, "proxy", &format!("{REGISTRY}/platform/proxy:1.31.2")),
            ],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::suffix;

    #[test]
    fn suffixes_are_five_name_characters_and_distinct() {
        assert_eq!(suffix(0), "bbbbb");
        assert_eq!(suffix(1).len(), 5);
        assert_ne!(suffix(26), suffix(27));
        assert!(suffix(u64::MAX).len() > 5);
    }
}
