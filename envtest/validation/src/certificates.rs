//! The validation of the `certificates.k8s.io` API group's kinds
//! (`pkg/apis/certificates/validation`): `CertificateSigningRequests` (create, update,
//! and the `status` and `approval` subresources, each with its options: who may set
//! the approval conditions, who may set the certificate) and `ClusterTrustBundles`.
//!
//! PEM is read as Go's `encoding/pem` reads it and X.509 with `x509-parser`; Go's
//! `crypto/x509` error texts are matched for the common failures (a request that is
//! not PEM, does not parse or is not signed by its key), not every ASN.1 detail.

pub(crate) mod pem;

use std::collections::BTreeMap;

use serde_json::Value;
use wheelhouse_envtest_schema::errors::BadValue;
use x509_parser::prelude::{FromDer, X509CertificationRequest};

use crate::common::fields::immutable_string;
use crate::common::go_syntax::raw;
use crate::common::names::{dns1123_label, dns1123_subdomain, name_is_dns_subdomain, name_is_path_segment};
use crate::common::read::{items, opt_int, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// The signer the v1 API may no longer name (`LegacyUnknownSignerName`).
const LEGACY_UNKNOWN_SIGNER: &str = "kubernetes.io/legacy-unknown";
/// The largest trust bundle (`MaxTrustBundleSize`).
const MAX_TRUST_BUNDLE_SIZE: i64 = 1024 * 1024;
/// `allValidUsages`, sorted as `sets.List` returns them.
const USAGES: [&str; 23] = [
    "any",
    "cert sign",
    "client auth",
    "code signing",
    "content commitment",
    "crl sign",
    "data encipherment",
    "decipher only",
    "digital signature",
    "email protection",
    "encipher only",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "key agreement",
    "key encipherment",
    "microsoft sgc",
    "netscape sgc",
    "ocsp signing",
    "s/mime",
    "server auth",
    "signing",
    "timestamping",
];

/// `certificateValidationOptions`: what an update keeps accepting from the stored
/// object, and what each subresource may set.
#[derive(Debug, Clone, Copy, Default)]
#[expect(clippy::struct_excessive_bools, reason = "kube's options, one flag per rule")]
struct Options {
    allow_setting_approval_conditions: bool,
    allow_setting_certificate: bool,
    allow_both_approved_and_denied: bool,
    allow_legacy_signer_name: bool,
    allow_duplicate_condition_types: bool,
    allow_empty_condition_type: bool,
    allow_arbitrary_certificate: bool,
    allow_unknown_usages: bool,
    allow_duplicate_usages: bool,
}

/// The errors in `object`, a `certificates.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match kind.kind {
        "CertificateSigningRequest" => {
            let old = write.old();
            let mut options = options(object, old);
            match (write, old) {
                (Write::Create, _) | (_, None) => validate_csr(object, options),
                (Write::Subresource { name: "status", .. }, Some(old)) => {
                    options.allow_setting_certificate = true;
                    validate_csr_update(object, old, options)
                }
                (Write::Subresource { name: "approval", .. }, Some(old)) => {
                    options.allow_setting_approval_conditions = true;
                    validate_csr_update(object, old, options)
                }
                (_, Some(old)) => validate_csr_update(object, old, options),
            }
        }
        "ClusterTrustBundle" => validate_cluster_trust_bundle(object, write.old()),
        _ => ErrorList::new(),
    }
}

/// `getValidationOptions`.
fn options(object: &Value, old: Option<&Value>) -> Options {
    let Some(old) = old else {
        return Options::default();
    };
    let conditions = items(&old["status"]["conditions"]);
    let has = |kind: &str| conditions.iter().any(|c| text(&c["type"]) == kind);
    let types: Vec<&str> = conditions.iter().map(|c| text(&c["type"])).collect();
    let usages: Vec<&str> = items(&old["spec"]["usages"]).iter().map(text).collect();
    let duplicates = |list: &[&str]| list.iter().enumerate().any(|(i, x)| list[..i].contains(x));
    let certificate = text(&object["status"]["certificate"]);
    let old_certificate = text(&old["status"]["certificate"]);
    Options {
        allow_both_approved_and_denied: has("Approved") && has("Denied"),
        allow_legacy_signer_name: text(&old["spec"]["signerName"]) == LEGACY_UNKNOWN_SIGNER,
        allow_duplicate_condition_types: duplicates(&types),
        allow_empty_condition_type: types.contains(&""),
        allow_arbitrary_certificate: certificate == old_certificate
            || validate_certificate(&decode_base64(old_certificate)).is_err(),
        allow_unknown_usages: usages.iter().any(|u| !USAGES.contains(u)),
        allow_duplicate_usages: duplicates(&usages),
        ..Options::default()
    }
}

/// A `[]byte` field's bytes (base64 in JSON); none when it does not decode.
fn decode_base64(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap_or_default()
}

/// `validateCertificateSigningRequest`.
fn validate_csr(object: &Value, options: Options) -> ErrorList {
    // `ValidateCertificateRequestName` accepts any name.
    let mut errors = validate_object_meta(&object["metadata"], false, |_, _| Vec::new(), &Path::new("metadata"));
    let spec = &object["spec"];
    let path = Path::new("spec");
    let request = decode_base64(text(&spec["request"]));
    if let Err(error) = check_csr(&request) {
        let printed: Vec<String> = request.iter().map(|b| format!("{b:#x}")).collect();
        // Go prints a top-level `[]byte` by that name (`[]uint8` inside a struct); a
        // request left out (or null) is a nil slice, an empty string an empty one.
        let shown = if spec["request"].is_string() {
            format!("[]byte{{{}}}", printed.join(", "))
        } else {
            "[]byte(nil)".to_owned()
        };
        errors.push(path.child("request").invalid(raw(shown), &error));
    }
    let usages: Vec<&str> = items(&spec["usages"]).iter().map(text).collect();
    if usages.is_empty() {
        errors.push(path.child("usages").required(""));
    }
    if !options.allow_unknown_usages {
        for (index, usage) in usages.iter().enumerate() {
            if !USAGES.contains(usage) {
                errors.push(path.child("usages").index(index).not_supported(*usage, &USAGES));
            }
        }
    }
    if !options.allow_duplicate_usages {
        for (index, usage) in usages.iter().enumerate() {
            if usages[..index].contains(usage) {
                errors.push(path.child("usages").index(index).duplicate(*usage));
            }
        }
    }
    let signer = text(&spec["signerName"]);
    if !options.allow_legacy_signer_name && signer == LEGACY_UNKNOWN_SIGNER {
        errors.push(
            path.child("signerName")
                .invalid(signer, "the legacy signerName is not allowed via this API version"),
        );
    } else {
        errors.extend(validate_signer_name(&path.child("signerName"), signer));
    }
    if let Some(seconds) = opt_int(&spec["expirationSeconds"]).filter(|s| *s < 600) {
        errors.push(path.child("expirationSeconds").invalid(
            &Value::from(seconds),
            "may not specify a duration less than 600 seconds (10 minutes)",
        ));
    }
    errors.extend(validate_conditions(object, options));
    if !options.allow_arbitrary_certificate
        && let Err(error) = validate_certificate(&decode_base64(text(&object["status"]["certificate"])))
    {
        errors.push(Path::from_parts(&["status", "certificate"]).invalid("<certificate data>", &error));
    }
    errors
}

/// `validateCSR`: a PEM `CERTIFICATE REQUEST` signed by its own key.
fn check_csr(request: &[u8]) -> Result<(), String> {
    let block = pem::decode(request)
        .filter(|block| block.kind == "CERTIFICATE REQUEST")
        .ok_or_else(|| "PEM block type must be CERTIFICATE REQUEST".to_owned())?;
    let (_, csr) = X509CertificationRequest::from_der(&block.bytes)
        .map_err(|_| "x509: malformed certificate request".to_owned())?;
    csr.verify_signature()
        .map_err(|_| "x509: signature verification failure".to_owned())
}

/// `validateCertificate`: empty, or PEM `CERTIFICATE` blocks without headers, each
/// holding certificates.
fn validate_certificate(data: &[u8]) -> Result<(), String> {
    if data.is_empty() {
        return Ok(());
    }
    let mut rest = data;
    let mut blocks = 0;
    while let Some(block) = pem::decode(rest) {
        if block.kind != "CERTIFICATE" {
            return Err(format!(
                "only CERTIFICATE PEM blocks are allowed, found {}",
                wheelhouse_envtest_schema::errors::go_quote(&block.kind)
            ));
        }
        if block.has_headers {
            return Err("no PEM block headers are permitted".to_owned());
        }
        blocks += 1;
        let mut der: &[u8] = &block.bytes;
        if der.is_empty() {
            return Err("found CERTIFICATE PEM block containing 0 certificates".to_owned());
        }
        while !der.is_empty() {
            let (remaining, _) =
                x509_parser::parse_x509_certificate(der).map_err(|_| "x509: malformed certificate".to_owned())?;
            der = remaining;
        }
        rest = &rest[block.end..];
    }
    if blocks == 0 {
        return Err("must contain at least one CERTIFICATE PEM block".to_owned());
    }
    Ok(())
}

/// `validateConditions`.
fn validate_conditions(object: &Value, options: Options) -> ErrorList {
    let path = Path::from_parts(&["status", "conditions"]);
    let mut errors = ErrorList::new();
    let mut seen: Vec<&str> = Vec::new();
    let (mut approved, mut denied) = (false, false);
    for (index, condition) in items(&object["status"]["conditions"]).iter().enumerate() {
        let entry = path.index(index);
        let kind = text(&condition["type"]);
        if !options.allow_empty_condition_type && kind.is_empty() {
            errors.push(entry.child("type").required(""));
        }
        let allowed: &[&str] = if matches!(kind, "Approved" | "Denied" | "Failed") {
            &["True"]
        } else {
            &["False", "True", "Unknown"]
        };
        let status = text(&condition["status"]);
        if status.is_empty() {
            errors.push(entry.child("status").required(""));
        } else if !allowed.contains(&status) {
            errors.push(entry.child("status").not_supported(status, allowed));
        }
        if !options.allow_both_approved_and_denied {
            let exclusive = "Approved and Denied conditions are mutually exclusive";
            match kind {
                "Approved" => {
                    approved = true;
                    if denied {
                        errors.push(entry.child("type").invalid(kind, exclusive));
                    }
                }
                "Denied" => {
                    denied = true;
                    if approved {
                        errors.push(entry.child("type").invalid(kind, exclusive));
                    }
                }
                _ => {}
            }
        }
        if !options.allow_duplicate_condition_types {
            if seen.contains(&kind) {
                errors.push(entry.child("type").duplicate(kind));
            }
            seen.push(kind);
        }
    }
    errors
}

/// `validateCertificateSigningRequestUpdate`: the request valid, no approval condition
/// removed (nor added or changed but through `approval`), the certificate set only
/// through `status` and never replaced.
fn validate_csr_update(object: &Value, old: &Value, options: Options) -> ErrorList {
    let mut errors = validate_csr(object, options);
    let meta = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    let path = Path::from_parts(&["status", "conditions"]);
    let of_kind = |object: &Value, kind: &str| -> Vec<Value> {
        items(&object["status"]["conditions"])
            .iter()
            .filter(|c| text(&c["type"]) == kind)
            .cloned()
            .collect()
    };
    for kind in ["Approved", "Denied", "Failed"] {
        if of_kind(object, kind).len() < of_kind(old, kind).len() {
            errors.push(path.forbidden(&format!("updates may not remove a condition of type \"{kind}\"")));
        }
    }
    if !options.allow_setting_approval_conditions {
        for kind in ["Approved", "Denied"] {
            let (new, before) = (of_kind(object, kind), of_kind(old, kind));
            if new.len() > before.len() {
                errors.push(path.forbidden(&format!("updates may not add a condition of type \"{kind}\"")));
            } else if new.len() == before.len()
                && !new
                    .iter()
                    .zip(&before)
                    .all(|(a, b)| crate::common::read::semantic_eq(a, b))
            {
                // kube appends a go-cmp diff of the conditions, which is not
                // reproduced here.
                errors.push(path.forbidden(&format!("updates may not modify a condition of type \"{kind}\"")));
            }
        }
    }
    let certificate = text(&object["status"]["certificate"]);
    let old_certificate = text(&old["status"]["certificate"]);
    if certificate != old_certificate {
        let certificate_path = Path::from_parts(&["status", "certificate"]);
        if !options.allow_setting_certificate {
            errors.push(certificate_path.forbidden("updates may not set certificate content"));
        } else if !old_certificate.is_empty() {
            errors.push(certificate_path.forbidden("updates may not modify existing certificate content"));
        }
    }
    errors.extend(meta);
    errors
}

/// core's `ValidateSignerName`: `example.com/signer-name`.
fn validate_signer_name(path: &Path, signer: &str) -> ErrorList {
    if signer.is_empty() {
        return vec![path.required("")];
    }
    let segments: Vec<&str> = signer.split('/').collect();
    let [domain, name] = segments.as_slice() else {
        return vec![path.invalid(
            signer,
            "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        )];
    };
    let mut errors = ErrorList::new();
    if domain.len() > 253 {
        errors.push(path.too_long(253));
    }
    let domain_labels: Vec<&str> = domain.split('.').collect();
    for label in &domain_labels {
        let problems = dns1123_label(label);
        if !problems.is_empty() {
            for problem in problems {
                errors.push(path.invalid(*domain, &format!("validating label {}: {problem}", go(label))));
            }
            break;
        }
    }
    if domain_labels.len() < 2 {
        errors.push(path.invalid(
            *domain,
            "should be a domain with at least two segments separated by dots",
        ));
    }
    for label in name.split('.') {
        let problems = dns1123_subdomain(label);
        if !problems.is_empty() {
            for problem in problems {
                errors.push(path.invalid(*name, &format!("validating label {}: {problem}", go(label))));
            }
            break;
        }
    }
    let max = 253 + 253 + 63 + 1 + 1;
    if signer.len() > max {
        errors.push(path.too_long(i64::try_from(max).unwrap_or(i64::MAX)));
    }
    errors
}

/// Go's `%q`.
fn go(text: &str) -> String {
    wheelhouse_envtest_schema::errors::go_quote(text)
}

/// `ValidateClusterTrustBundle` and `ValidateClusterTrustBundleUpdate`.
fn validate_cluster_trust_bundle(object: &Value, old: Option<&Value>) -> ErrorList {
    let spec = &object["spec"];
    let signer = text(&spec["signerName"]);
    let bundle = text(&spec["trustBundle"]);
    // The name rule depends on the signer (`ValidateClusterTrustBundleName`); the
    // metadata checks take a plain rule, so the signer's part is checked here.
    let mut errors = validate_object_meta(&object["metadata"], false, name_is_path_segment, &Path::new("metadata"));
    let name = text(&object["metadata"]["name"]);
    for message in cluster_trust_bundle_name(signer, name) {
        errors.push(Path::from_parts(&["metadata", "name"]).invalid(name, &message));
    }
    if !signer.is_empty() {
        errors.extend(validate_signer_name(&Path::from_parts(&["spec", "signerName"]), signer));
    }
    let unchanged = old.is_some_and(|old| text(&old["spec"]["trustBundle"]) == bundle);
    if !unchanged {
        errors.extend(validate_trust_bundle(
            &Path::from_parts(&["spec", "trustBundle"]),
            bundle,
        ));
    }
    if let Some(old) = old {
        errors.extend(validate_object_meta_update(
            &object["metadata"],
            &old["metadata"],
            &Path::new("metadata"),
        ));
        errors.extend(immutable_string(
            &spec["signerName"],
            &old["spec"]["signerName"],
            &Path::from_parts(&["spec", "signerName"]),
        ));
    }
    errors
}

/// `ValidateClusterTrustBundleName(signerName)`.
fn cluster_trust_bundle_name(signer: &str, name: &str) -> Vec<String> {
    if signer.is_empty() {
        if name.contains(':') {
            return vec!["ClusterTrustBundle without signer name must not have \":\" in its name".to_owned()];
        }
        return name_is_dns_subdomain(name, false);
    }
    let prefix = format!("{}:", signer.replace('/', ":"));
    match name.strip_prefix(&prefix) {
        Some(rest) => name_is_dns_subdomain(rest, false),
        None => vec![format!(
            "ClusterTrustBundle for signerName {signer} must be named with prefix {prefix}"
        )],
    }
}

/// `validateTrustBundle`: CA certificates, no duplicates.
fn validate_trust_bundle(path: &Path, bundle: &str) -> ErrorList {
    let omitted = || BadValue::Json(Value::from("<value omitted>"));
    if i64::try_from(bundle.len()).unwrap_or(i64::MAX) > MAX_TRUST_BUNDLE_SIZE {
        return vec![path.too_long(MAX_TRUST_BUNDLE_SIZE)];
    }
    let mut errors = ErrorList::new();
    let mut blocks: BTreeMap<Vec<u8>, Vec<usize>> = BTreeMap::new();
    let mut rest = bundle.as_bytes();
    let mut index = 0;
    while let Some(block) = pem::decode(rest) {
        rest = &rest[block.end..];
        let problem = if block.kind != "CERTIFICATE" {
            Some(format!("entry {index} has bad block type: {}", block.kind))
        } else if block.has_headers {
            Some(format!("entry {index} has PEM block headers"))
        } else {
            match x509_parser::parse_x509_certificate(&block.bytes) {
                Err(_) => Some(format!("entry {index} does not parse as X.509")),
                Ok((_, certificate)) => match certificate.basic_constraints() {
                    Ok(Some(constraints)) if constraints.value.ca => None,
                    Ok(_) => Some(format!("entry {index} does not have the CA bit set")),
                    Err(_) => Some(format!("entry {index} has invalid basic constraints")),
                },
            }
        };
        match problem {
            Some(message) => errors.push(path.invalid(omitted(), &message)),
            None => blocks.entry(block.bytes.clone()).or_default().push(index),
        }
        index += 1;
    }
    if !errors.is_empty() {
        return errors;
    }
    if blocks.is_empty() {
        errors.push(path.invalid(omitted(), "at least one trust anchor must be provided"));
    }
    for indices in blocks.values().filter(|i| i.len() > 1) {
        let printed: Vec<String> = indices.iter().map(ToString::to_string).collect();
        errors.push(path.invalid(
            omitted(),
            &format!("duplicate trust anchor (indices [{}])", printed.join(" ")),
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn requests_must_be_pem_with_known_usages() {
        let csr = json!({"metadata": {"name": "c"}, "spec": {"request": "bm90IGEgY3Ny", "usages": ["any", "any"], "signerName": "example.com/x", "expirationSeconds": 5}});
        assert_eq!(
            errors(
                "certificates.k8s.io",
                "v1",
                "CertificateSigningRequest",
                &csr,
                Write::Create
            ),
            [
                "spec.request: Invalid value: []byte{0x6e, 0x6f, 0x74, 0x20, 0x61, 0x20, 0x63, 0x73, 0x72}: PEM block type must be CERTIFICATE REQUEST",
                "spec.usages[1]: Duplicate value: \"any\"",
                "spec.expirationSeconds: Invalid value: 5: may not specify a duration less than 600 seconds (10 minutes)",
            ]
        );
    }

    #[test]
    fn approval_conditions_need_the_approval_subresource() {
        let old = json!({"metadata": {"name": "c"}, "spec": {"request": "", "usages": ["any"], "signerName": "example.com/x"}});
        let mut approved = old.clone();
        approved["status"] =
            json!({"conditions": [{"type": "Approved", "status": "True"}, {"type": "Denied", "status": "True"}]});
        let through_status = errors(
            "certificates.k8s.io",
            "v1",
            "CertificateSigningRequest",
            &approved,
            Write::Subresource {
                name: "status",
                old: &old,
            },
        );
        assert!(through_status.contains(
            &"status.conditions: Forbidden: updates may not add a condition of type \"Approved\"".to_owned()
        ));
        assert!(through_status.contains(&"status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive".to_owned()));
        let through_approval = errors(
            "certificates.k8s.io",
            "v1",
            "CertificateSigningRequest",
            &approved,
            Write::Subresource {
                name: "approval",
                old: &old,
            },
        );
        assert!(!through_approval.iter().any(|e| e.contains("may not add")));
    }

    #[test]
    fn signer_names_and_trust_bundle_names() {
        assert_eq!(
            super::cluster_trust_bundle_name("example.com/signer", "other:x"),
            ["ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:"]
        );
        assert!(super::cluster_trust_bundle_name("example.com/signer", "example.com:signer:x").is_empty());
        let errors = super::validate_signer_name(&crate::field::Path::new("s"), "a/b/c");
        assert_eq!(
            errors[0].body(),
            "Invalid value: \"a/b/c\": must be a fully qualified domain and path of the form 'example.com/signer-name'"
        );
    }
}
