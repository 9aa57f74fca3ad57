//! The warnings a type's strategy adds to a write it accepts (`WarningsOnCreate`,
//! `WarningsOnUpdate`), as kube-apiserver sends them in `Warning` headers:
//!
//! | kube | here |
//! |---|---|
//! | `pkg/api/pod.GetWarningsForPod`, `GetWarningsForPodTemplate` (`warningsForPodSpecAndMeta`, `warningsForOverlappingVirtualPaths`) | [`pod::spec_and_meta`] |
//! | the pod strategy's `applyAppArmorVersionSkew` (its warning and its sync of annotation and field) | [`apparmor_version_skew`] |
//! | the pod, replica set, deployment, replication controller, job and cron job strategies' name warning (`IsDNS1123Label`) | [`name_warning`] |
//! | the workload strategies' `WarningsOnCreate`/`OnUpdate` (the template's warnings on create and when the generation, or a daemon set's `templateGeneration`, moved; a stateful set's claim templates always) | [`warnings`] |
//! | `pkg/api/job.WarningsForJobSpec`, the cron job strategy's `TZ` warning | [`job_spec`], [`warnings`] |
//! | `pkg/api/persistentvolumeclaim.GetWarningsForPersistentVolumeClaim`, `...Spec` | [`claim`], [`pod::claim_spec`] |
//! | `pkg/api/persistentvolume.GetWarningsForPersistentVolume` | [`volume`] |
//! | `pkg/api/service.GetWarningsForService` (`getWarningsForIP`, `getWarningsForCIDR`) | [`service`] |
//! | `pkg/api/node.GetWarningsForRuntimeClass`, `GetWarningsForNodeSelector`, `GetWarningsForNodeSelectorTerm` | [`runtime_class`], [`pod::node_label_selector`], [`pod::node_selector_term`] |
//! | `pkg/api/storage.GetWarningsForStorageClass`, `GetWarningsForCSIStorageCapacity` | [`storage_class`], [`pod::node_label_selector`] |
//! | the node strategy's `fieldIsDeprecatedWarnings` | [`node`] |
//! | the service account strategy's `warnIfHasEnforceMountableSecretsAnnotation` | [`service_account`] |
//! | the endpoint slice strategy's `warnOnDeprecatedAddressType` (create only) | [`warnings`] |
//! | the ingress strategy's `WarningsOnCreate` (the class annotation) | [`warnings`] |
//! | `pkg/api/secret.GetWarningsForSecret` (`crypto/tls.X509KeyPair`) | [`secret`] |
//! | apiextensions' `customResourceStrategy.WarningsOnCreate`/`OnUpdate` (`generateWarningsFromObj`, `validateKubeFinalizerName`) | [`custom_resource_warnings`] |
//!
//! Kube's quirks are kept: a replication controller's update warns about its *old*
//! template (its strategy passes the templates in the wrong order), a stateful set's
//! update names its claim templates' `Spec` with a capital S, the cron job's `TZ`
//! warning names `spec.spec.schedule`, and a projected volume source that has none
//! of the cases kube reads repeats the paths of the source before it.
//!
//! Of `X509KeyPair`, the PEM stage is ported whole (which blocks are found, skipped
//! and in which input) and the certificate is parsed; the private key is not parsed
//! nor matched against the certificate's public key, so a key that does not decode
//! or does not match is not warned of here.

mod apparmor;
mod pod;

use base64::Engine;
use serde_json::Value;

use std::collections::BTreeSet;

use crate::Kind;
use crate::certificates::pem;
use crate::common::net::{parse_addr, parse_prefix};
use crate::common::read::{entries, items, text};
use crate::field::Path;
use crate::{godump, util};

pub use apparmor::apparmor_version_skew;

/// The warnings for writing `object`, a create when `old` is None, else an update of
/// the main resource (or its `scale`, which kube writes through the same strategy)
/// from `old` as stored; `object` is the object as it will be stored.
pub fn warnings(kind: &Kind, object: &Value, old: Option<&Value>) -> Vec<String> {
    let generation_moved = old.is_some_and(|old| old["metadata"]["generation"] != object["metadata"]["generation"]);
    match (kind.group, kind.kind) {
        ("", "Secret") => secret(object),
        ("", "Pod") if old.is_none() => {
            let mut warnings = Vec::new();
            let name = text(&object["metadata"]["name"]);
            let problems = util::is_dns1123_label(name);
            if !problems.is_empty() {
                warnings.push(format!(
                    "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [{}]",
                    problems.join(" ")
                ));
            }
            warnings.extend(pod::spec_and_meta(
                &Path::new(""),
                false,
                &object["spec"],
                &object["metadata"],
            ));
            warnings
        }
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet")
        | ("", "ReplicationController")
        | ("batch", "Job" | "CronJob") => workload(kind.kind, object, old, generation_moved),
        ("", "PodTemplate") if old.is_none() || generation_moved => {
            pod_template(&Path::new("template"), &object["template"])
        }
        ("", "Service") => service(object),
        ("", "PersistentVolume") => volume(object),
        ("", "PersistentVolumeClaim") => claim(object),
        ("", "Node") => node(object),
        ("", "ServiceAccount") => service_account(object, old),
        ("storage.k8s.io", "StorageClass") => storage_class(object),
        ("storage.k8s.io", "CSIStorageCapacity") => {
            pod::node_label_selector(&object["nodeTopology"], &Path::new("nodeTopology"))
        }
        ("node.k8s.io", "RuntimeClass") => runtime_class(object),
        ("discovery.k8s.io", "EndpointSlice") if old.is_none() && object["addressType"] == "FQDN" => {
            vec!["spec.addressType: FQDN endpoints are deprecated".to_owned()]
        }
        ("networking.k8s.io", "Ingress")
            if old.is_none()
                && entries(&object["metadata"]["annotations"]).is_some_and(|a| a.contains_key(INGRESS_CLASS))
                && object["spec"]["ingressClassName"].is_null() =>
        {
            vec![format!(
                "annotation {} is deprecated, please use 'spec.ingressClassName' instead",
                godump::quote(INGRESS_CLASS)
            )]
        }
        _ => Vec::new(),
    }
}

/// The workloads' `WarningsOnCreate` and `WarningsOnUpdate`: their name and pod
/// template on create; on update, the template when the generation (a daemon set's
/// `templateGeneration`) moved, and a stateful set's claim templates always.
fn workload(kind: &str, object: &Value, old: Option<&Value>, generation_moved: bool) -> Vec<String> {
    let spec = Path::new("spec");
    let template = || pod_template(&spec.child("template"), &object["spec"]["template"]);
    match kind {
        "Deployment" | "ReplicaSet" | "ReplicationController" => match old {
            None => {
                let mut warnings = name_warning(object);
                warnings.extend(template());
                warnings
            }
            // The replication controller's strategy passes the old template as the new.
            Some(old) if generation_moved && kind == "ReplicationController" => {
                pod_template(&spec.child("template"), &old["spec"]["template"])
            }
            Some(_) if generation_moved => template(),
            Some(_) => Vec::new(),
        },
        "DaemonSet" => {
            let moved =
                old.is_some_and(|old| old["spec"]["templateGeneration"] != object["spec"]["templateGeneration"]);
            if old.is_none() || moved { template() } else { Vec::new() }
        }
        "StatefulSet" => {
            let mut warnings = if old.is_none() || generation_moved {
                template()
            } else {
                Vec::new()
            };
            for (i, claim) in items(&object["spec"]["volumeClaimTemplates"]).iter().enumerate() {
                let mut at = spec.child("volumeClaimTemplates").index(i);
                if old.is_some() {
                    at = at.child("Spec");
                }
                warnings.extend(pod::claim_spec(&at, &claim["spec"]));
            }
            warnings
        }
        "Job" => match old {
            None => {
                let mut warnings = name_warning(object);
                warnings.extend(job_spec(&spec, &object["spec"]));
                warnings
            }
            Some(_) if generation_moved => job_spec(&spec, &object["spec"]),
            Some(_) => Vec::new(),
        },
        _ => {
            let job = spec.child("jobTemplate").child("spec");
            let job_template = &object["spec"]["jobTemplate"]["spec"];
            let Some(_) = old else {
                let mut warnings = name_warning(object);
                warnings.extend(job_spec(&job, job_template));
                return warnings;
            };
            let mut warnings = if generation_moved {
                job_spec(&job, job_template)
            } else {
                Vec::new()
            };
            if text(&object["spec"]["schedule"]).contains("TZ") {
                warnings.push("cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".to_owned());
            }
            warnings
        }
    }
}

const INGRESS_CLASS: &str = "kubernetes.io/ingress.class";

/// `GetWarningsForPodTemplate`: a template's warnings under `path` (none for a
/// template that is absent, as a replication controller's may be).
fn pod_template(path: &Path, template: &Value) -> Vec<String> {
    if template.is_null() {
        return Vec::new();
    }
    pod::spec_and_meta(path, true, &template["spec"], &template["metadata"])
}

/// The workloads' warning about a name that is not a DNS label: their pods' names and
/// hostnames are made from it.
fn name_warning(object: &Value) -> Vec<String> {
    let problems = util::is_dns1123_label(text(&object["metadata"]["name"]));
    if problems.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [{}]",
        problems.join(" ")
    )]
}

/// `WarningsForJobSpec`: an indexed job too large to track its failed indexes, then
/// its template's warnings.
fn job_spec(path: &Path, spec: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if spec["completionMode"] == "Indexed" {
        let completions = spec["completions"].as_i64().unwrap_or_default();
        let parallelism = spec["parallelism"].as_i64().unwrap_or_default();
        if completions > 100_000 && parallelism > 10_000 {
            warnings.push(format!(
                "{}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail",
                path.as_str()
            ));
        }
    }
    warnings.extend(pod_template(&path.child("template"), &spec["template"]));
    warnings
}

const STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// `GetWarningsForPersistentVolumeClaim`.
fn claim(claim: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if entries(&claim["metadata"]["annotations"]).is_some_and(|a| a.contains_key(STORAGE_CLASS_ANNOTATION)) {
        warnings.push(format!(
            r#"metadata.annotations[{STORAGE_CLASS_ANNOTATION}]: deprecated since v1.8; use "storageClassName" attribute instead"#
        ));
    }
    warnings.extend(pod::claim_spec(&Path::new("spec"), &claim["spec"]));
    warnings
}

/// `GetWarningsForPersistentVolume`: deprecated annotations, the `Recycle` policy,
/// deprecated node labels in its affinity, deprecated volume plugins.
fn volume(volume: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    let annotations = entries(&volume["metadata"]["annotations"]);
    for (key, message) in [
        (
            STORAGE_CLASS_ANNOTATION,
            r#"deprecated since v1.8; use "storageClassName" attribute instead"#,
        ),
        (
            "volume.beta.kubernetes.io/mount-options",
            r#"deprecated since v1.31; use "mountOptions" attribute instead"#,
        ),
    ] {
        if annotations.is_some_and(|a| a.contains_key(key)) {
            warnings.push(format!("metadata.annotations[{key}]: {message}"));
        }
    }
    let spec = &volume["spec"];
    if spec["persistentVolumeReclaimPolicy"] == "Recycle" {
        warnings.push("spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.".to_owned());
    }
    let terms = Path::new("spec")
        .child("nodeAffinity")
        .child("required")
        .child("nodeSelectorTerms");
    for (i, term) in items(&spec["nodeAffinity"]["required"]["nodeSelectorTerms"])
        .iter()
        .enumerate()
    {
        warnings.extend(pod::node_selector_term(term, &terms.index(i)));
    }
    for (plugin, message) in [
        ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
        ("photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
        ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
        ("storageOS", "deprecated in v1.22, non-functional in v1.25+"),
        ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
        ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
    ] {
        if !spec[plugin].is_null() {
            warnings.push(format!("spec.{plugin}: {message}"));
        }
    }
    warnings
}

/// `GetWarningsForService`: the deprecated topology annotation, addresses and ranges
/// Go's strict parser refuses or that are not in canonical form, and fields the
/// Service's type ignores.
fn service(service: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    let spec = &service["spec"];
    let hints = "service.kubernetes.io/topology-aware-hints";
    if entries(&service["metadata"]["annotations"]).is_some_and(|a| a.contains_key(hints)) {
        warnings.push(format!(
            "annotation {hints} is deprecated, please use service.kubernetes.io/topology-mode instead"
        ));
    }
    let spec_path = Path::new("spec");
    let cluster_ip = text(&spec["clusterIP"]);
    if !cluster_ip.is_empty() && cluster_ip != "None" {
        for (i, ip) in items(&spec["clusterIPs"]).iter().enumerate() {
            warnings.extend(ip_warning(&spec_path.child("clusterIPs").index(i), text(ip)));
        }
    }
    for (i, ip) in items(&spec["externalIPs"]).iter().enumerate() {
        warnings.extend(ip_warning(&spec_path.child("externalIPs").index(i), text(ip)));
    }
    let load_balancer_ip = text(&spec["loadBalancerIP"]);
    if !load_balancer_ip.is_empty() {
        warnings.extend(ip_warning(&spec_path.child("loadBalancerIP"), load_balancer_ip));
    }
    for (i, cidr) in items(&spec["loadBalancerSourceRanges"]).iter().enumerate() {
        warnings.extend(cidr_warning(
            &spec_path.child("loadBalancerSourceRanges").index(i),
            text(cidr),
        ));
    }
    let external_name = spec["type"] == "ExternalName";
    if external_name && !items(&spec["externalIPs"]).is_empty() {
        warnings.push(r#"spec.externalIPs is ignored when spec.type is "ExternalName""#.to_owned());
    }
    if !external_name && !text(&spec["externalName"]).is_empty() {
        warnings.push(r#"spec.externalName is ignored when spec.type is not "ExternalName""#.to_owned());
    }
    warnings
}

/// How Go's `netip` prints an address it parsed from `text` (the zone kept).
fn canonical_ip(ip: std::net::IpAddr, text: &str) -> String {
    match text.split_once('%') {
        Some((_, zone)) => format!("{ip}%{zone}"),
        None => ip.to_string(),
    }
}

/// `getWarningsForIP`: an address `netip.ParseAddr` refuses (leading zeros), or an
/// IPv6 address not in RFC 5952's canonical form.
fn ip_warning(path: &Path, address: &str) -> Option<String> {
    match parse_addr(address) {
        Err(error) => Some(format!(
            "{}: IP address was accepted, but will be invalid in a future Kubernetes release: {error}",
            path.as_str()
        )),
        Ok(ip) if ip.is_ipv6() && canonical_ip(ip, address) != address => Some(format!(
            "{}: IPv6 address {} is not in RFC 5952 canonical format ({}), which may cause controller apply-loops",
            path.as_str(),
            godump::quote(address),
            godump::quote(&canonical_ip(ip, address))
        )),
        Ok(_) => None,
    }
}

/// `getWarningsForCIDR`: as [`ip_warning`], for a prefix.
fn cidr_warning(path: &Path, cidr: &str) -> Option<String> {
    match parse_prefix(cidr) {
        Err(error) => Some(format!(
            "{}: IP prefix was accepted, but will be invalid in a future Kubernetes release: {error}",
            path.as_str()
        )),
        Ok((ip, bits)) if ip.is_ipv6() && format!("{ip}/{bits}") != cidr => Some(format!(
            "{}: IPv6 prefix {} is not in RFC 5952 canonical format ({}), which may cause controller apply-loops",
            path.as_str(),
            godump::quote(cidr),
            godump::quote(&format!("{ip}/{bits}"))
        )),
        Ok(_) => None,
    }
}

/// The node strategy's `fieldIsDeprecatedWarnings`.
fn node(node: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if !node["spec"]["configSource"].is_null() {
        warnings.push("spec.configSource: the feature is removed".to_owned());
    }
    if !text(&node["spec"]["externalID"]).is_empty() {
        warnings.push("spec.externalID: this field is deprecated, and is unused by Kubernetes".to_owned());
    }
    warnings
}

/// `warnIfHasEnforceMountableSecretsAnnotation`: only when a write sets it anew.
fn service_account(account: &Value, old: Option<&Value>) -> Vec<String> {
    let key = "kubernetes.io/enforce-mountable-secrets";
    let has = |object: &Value| entries(&object["metadata"]["annotations"]).is_some_and(|a| a.contains_key(key));
    if old.is_some_and(has) || !has(account) {
        return Vec::new();
    }
    vec![format!(
        "metadata.annotations[{key}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"
    )]
}

/// `GetWarningsForStorageClass`: deprecated node labels in `allowedTopologies`.
fn storage_class(class: &Value) -> Vec<String> {
    let mut warnings = Vec::new();
    for (i, topology) in items(&class["allowedTopologies"]).iter().enumerate() {
        for (j, expression) in items(&topology["matchLabelExpressions"]).iter().enumerate() {
            if let Some(message) = pod::deprecated_node_label(text(&expression["key"])) {
                let at = Path::new("allowedTopologies")
                    .index(i)
                    .child("matchLabelExpressions")
                    .index(j)
                    .child("key");
                warnings.push(format!("{}: {message}", at.as_str()));
            }
        }
    }
    warnings
}

/// `GetWarningsForRuntimeClass`: one warning per deprecated node label its
/// scheduling selects on (the path names the selector, not the label).
fn runtime_class(class: &Value) -> Vec<String> {
    entries(&class["scheduling"]["nodeSelector"])
        .into_iter()
        .flat_map(|selector| selector.keys())
        .filter_map(|key| pod::deprecated_node_label(key))
        .map(|message| format!("scheduling.nodeSelector: {message}"))
        .collect()
}

/// A custom resource's strategy warns of each finalizer a write adds (all of them on
/// a create, those `old` lacks on an update), in sorted order, that is not a qualified
/// name or has no domain and is none of the standard `kubernetes`, `orphan` and
/// `foregroundDeletion`.
pub fn custom_resource_warnings(object: &Value, old: Option<&Value>) -> Vec<String> {
    let finalizers = |object: &Value| -> BTreeSet<String> {
        object["metadata"]["finalizers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let mut added = finalizers(object);
    if let Some(old) = old {
        for finalizer in finalizers(old) {
            added.remove(&finalizer);
        }
    }
    let path = "metadata.finalizers";
    let mut warnings = Vec::new();
    for finalizer in &added {
        for message in util::is_qualified_name(finalizer) {
            warnings.push(format!("{path}: {}: {message}", godump::quote(finalizer)));
        }
        if !finalizer.contains('/') && !matches!(finalizer.as_str(), "kubernetes" | "orphan" | "foregroundDeletion") {
            let preference = if finalizer.contains('.') {
                "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
            } else {
                "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
            };
            warnings.push(format!("{path}: {}: {preference}", godump::quote(finalizer)));
        }
    }
    warnings
}

/// `GetWarningsForSecret`: a `kubernetes.io/tls` Secret whose certificate and key
/// `crypto/tls` cannot load as a pair.
fn secret(secret: &Value) -> Vec<String> {
    if secret["type"] != "kubernetes.io/tls" {
        return Vec::new();
    }
    let data = |key: &str| {
        secret["data"][key]
            .as_str()
            .and_then(|text| base64::engine::general_purpose::STANDARD.decode(text).ok())
            .unwrap_or_default()
    };
    match x509_key_pair(&data("tls.crt"), &data("tls.key")) {
        Ok(()) => Vec::new(),
        Err(error) => vec![error],
    }
}

/// The PEM blocks of `input`, in order.
fn blocks(mut input: &[u8]) -> Vec<pem::Block> {
    let mut found = Vec::new();
    while let Some(block) = pem::decode(input) {
        input = &input[block.end.min(input.len())..];
        found.push(block);
    }
    found
}

/// `crypto/tls.X509KeyPair`, up to parsing the certificate (see the module docs).
fn x509_key_pair(certificate: &[u8], key: &[u8]) -> Result<(), String> {
    let (certificates, skipped): (Vec<_>, Vec<_>) = blocks(certificate)
        .into_iter()
        .partition(|block| block.kind == "CERTIFICATE");
    let skipped: Vec<String> = skipped.into_iter().map(|block| block.kind).collect();
    let Some(first) = certificates.first() else {
        if skipped.is_empty() {
            return Err("tls: failed to find any PEM data in certificate input".to_owned());
        }
        if skipped.len() == 1 && skipped[0].ends_with("PRIVATE KEY") {
            return Err("tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched".to_owned());
        }
        return Err(format!(
            "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [{}]",
            skipped.join(" ")
        ));
    };
    let mut skipped = Vec::new();
    let mut rest = key;
    loop {
        let Some(block) = pem::decode(rest) else {
            if skipped.is_empty() {
                return Err("tls: failed to find any PEM data in key input".to_owned());
            }
            if skipped.len() == 1 && skipped[0] == "CERTIFICATE" {
                return Err("tls: found a certificate rather than a key in the PEM for the private key".to_owned());
            }
            return Err(format!(
                "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: [{}]",
                skipped.join(" ")
            ));
        };
        rest = &rest[block.end.min(rest.len())..];
        if block.kind == "PRIVATE KEY" || block.kind.ends_with(" PRIVATE KEY") {
            break;
        }
        skipped.push(block.kind);
    }
    x509_parser::parse_x509_certificate(&first.bytes).map_err(|_| "x509: malformed certificate".to_owned())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn warn(certificate: &str, key: &str) -> Vec<String> {
        let encode = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
        let kind = Kind {
            group: "",
            version: "v1",
            kind: "Secret",
            namespaced: true,
        };
        let secret =
            json!({"type": "kubernetes.io/tls", "data": {"tls.crt": encode(certificate), "tls.key": encode(key)}});
        warnings(&kind, &secret, None)
    }

    fn kind(group: &'static str, kind: &'static str) -> Kind<'static> {
        Kind {
            group,
            version: "v1",
            kind,
            namespaced: true,
        }
    }

    #[test]
    fn workload_updates_warn_when_kube_s_strategies_do() {
        let template = |key: &str| json!({"spec": {"nodeSelector": {key: "x"}}});
        let set = |generation: i64, template: Value, claims: Value| {
            json!({"metadata": {"name": "s", "generation": generation},
                   "spec": {"template": template, "volumeClaimTemplates": claims}})
        };
        let claims = json!([{"spec": {"resources": {"limits": {"storage": "0.5"}}}}]);
        let old = set(1, template("beta.kubernetes.io/os"), claims.clone());
        let same = set(1, template("beta.kubernetes.io/os"), claims.clone());
        let warnings_of = |new: &Value, old: Option<&Value>| warnings(&kind("apps", "StatefulSet"), new, old);
        // An unchanged generation: only the claim templates, named with kube's capital S.
        assert_eq!(
            warnings_of(&same, Some(&old)),
            [
                r#"spec.volumeClaimTemplates[0].Spec.resources.limits[storage]: fractional byte value "500m" is invalid, must be an integer"#
            ]
        );
        assert_eq!(warnings_of(&same, None).len(), 2);
        let moved = set(2, template("beta.kubernetes.io/os"), json!([]));
        assert_eq!(
            warnings_of(&moved, Some(&old)),
            [
                r#"spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead"#
            ]
        );
        // A replication controller warns about the template it had.
        let rc = |generation: i64, key: &str| json!({"metadata": {"name": "r", "generation": generation}, "spec": {"template": template(key)}});
        let found = warnings(
            &kind("", "ReplicationController"),
            &rc(2, "kubernetes.io/os"),
            Some(&rc(1, "beta.kubernetes.io/arch")),
        );
        assert_eq!(found.len(), 1);
        assert!(found[0].contains("beta.kubernetes.io/arch"), "{found:?}");
        // A cron job's TZ warning names kube's path, on update only.
        let cron = json!({"metadata": {"name": "c", "generation": 1}, "spec": {"schedule": "CRON_TZ=UTC 0 * * * *"}});
        assert!(warnings(&kind("batch", "CronJob"), &cron, None).is_empty());
        assert_eq!(
            warnings(&kind("batch", "CronJob"), &cron, Some(&cron)),
            [
                "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"
            ]
        );
    }

    #[test]
    fn pod_ports_volumes_and_addresses_are_warned_of_in_kube_s_words() {
        let pod = json!({"metadata": {"name": "p"}, "spec": {
            "containers": [{"name": "a", "ports": [
                {"containerPort": 80, "protocol": "TCP", "hostPort": 8080},
                {"containerPort": 80, "protocol": "TCP", "hostPort": 8080, "hostIP": "10.0.0.1"},
                {"containerPort": 80, "protocol": "TCP", "hostPort": 8080},
            ]}],
            "volumes": [{"name": "v", "projected": {"sources": [
                {"configMap": {"name": "m", "items": [{"key": "k", "path": "a"}]}},
                {"configMap": {"name": "n"}},
                {},
            ]}}],
        }});
        let found = warnings(&kind("", "Pod"), &pod, None);
        assert_eq!(
            found,
            [
                r#"volume "v" (Projected): overlapping paths: "a" (ConfigMap "m") with "a" (ConfigMap "m")"#,
                r#"volume "v" (Projected) has no sources provided"#,
                "spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]",
                "spec.containers[0].ports[2]: duplicate port definition with spec.containers[0].ports[0]",
                "spec.containers[0].ports[2]: dangerously ambiguous port definition with spec.containers[0].ports[1]",
            ]
        );
        let service = json!({"spec": {"clusterIP": "fd00::0001", "clusterIPs": ["fd00::0001"], "type": "ExternalName",
                                      "externalIPs": ["fe80::1%eth0"]}});
        assert_eq!(
            warnings(&kind("", "Service"), &service, None),
            [
                r#"spec.clusterIPs[0]: IPv6 address "fd00::0001" is not in RFC 5952 canonical format ("fd00::1"), which may cause controller apply-loops"#,
                r#"spec.externalIPs is ignored when spec.type is "ExternalName""#,
            ]
        );
    }

    const BLOCK: &str = "AQID";

    fn pem(kind: &str) -> String {
        format!("-----BEGIN {kind}-----\n{BLOCK}\n-----END {kind}-----\n")
    }

    #[test]
    fn tls_secrets_are_warned_of_as_x509_key_pair_fails() {
        assert_eq!(
            warn("cert", "key"),
            ["tls: failed to find any PEM data in certificate input"]
        );
        assert_eq!(
            warn(&pem("RSA PRIVATE KEY"), "key"),
            [
                "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched"
            ]
        );
        assert_eq!(
            warn(&(pem("A") + &pem("B")), "key"),
            [
                "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [A B]"
            ]
        );
        assert_eq!(
            warn(&pem("CERTIFICATE"), "key"),
            ["tls: failed to find any PEM data in key input"]
        );
        assert_eq!(
            warn(&pem("CERTIFICATE"), &pem("CERTIFICATE")),
            ["tls: found a certificate rather than a key in the PEM for the private key"]
        );
        assert_eq!(
            warn(&pem("CERTIFICATE"), &pem("PUBLIC KEY")),
            [
                "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: [PUBLIC KEY]"
            ]
        );
        assert_eq!(
            warn(&pem("CERTIFICATE"), &pem("EC PRIVATE KEY")),
            ["x509: malformed certificate"]
        );
    }

    #[test]
    fn other_secrets_are_not_warned_of() {
        let kind = Kind {
            group: "",
            version: "v1",
            kind: "Secret",
            namespaced: true,
        };
        assert!(warnings(&kind, &json!({"type": "Opaque", "data": {"tls.crt": "eA=="}}), None).is_empty());
    }
}
