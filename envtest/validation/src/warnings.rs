//! The warnings a type's strategy adds to a write it accepts (`WarningsOnCreate`,
//! `WarningsOnUpdate`), as kube-apiserver sends them in `Warning` headers:
//!
//! | kube | here |
//! |---|---|
//! | `pkg/api/secret.GetWarningsForSecret` (`crypto/tls.X509KeyPair`) | [`secret`] |
//! | apiextensions' `customResourceStrategy.WarningsOnCreate`/`OnUpdate` (`generateWarningsFromObj`, `validateKubeFinalizerName`) | [`custom_resource_warnings`] |
//!
//! Of `X509KeyPair`, the PEM stage is ported whole (which blocks are found, skipped
//! and in which input) and the certificate is parsed; the private key is not parsed
//! nor matched against the certificate's public key, so a key that does not decode
//! or does not match is not warned of here.

use base64::Engine;
use serde_json::Value;

use std::collections::BTreeSet;

use crate::Kind;
use crate::certificates::pem;
use crate::{godump, util};

/// The warnings for writing `object` (create or update: the kinds ported warn alike).
pub fn warnings(kind: &Kind, object: &Value) -> Vec<String> {
    match (kind.group, kind.kind) {
        ("", "Secret") => secret(object),
        _ => Vec::new(),
    }
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
        warnings(&kind, &secret)
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
        assert!(warnings(&kind, &json!({"type": "Opaque", "data": {"tls.crt": "eA=="}})).is_empty());
    }
}
