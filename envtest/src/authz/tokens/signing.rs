//! The key that signs `ServiceAccount` tokens, and the compact JWS (RS256) a token is:
//! `base64url(header).base64url(claims).base64url(signature)`, as go-jose writes it
//! for kube-apiserver (`pkg/serviceaccount/jwt.go`).
//!
//! One 2048-bit RSA key per process, made on the first token asked for: a key per
//! server would cost every `TestEnv` a key generation, and most never issue a token.
//! Its key id is kube's `keyIDFromPublicKey`: the unpadded base64url SHA-256 of the
//! public key's PKIX DER, so a client that matches `kid` against `/openid/v1/jwks`
//! finds it.

use std::sync::OnceLock;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{self, RsaKeyPair, RsaPublicKeyComponents};
use rsa::pkcs8::{EncodePrivateKey as _, EncodePublicKey as _};
use rsa::traits::PublicKeyParts as _;
use serde_json::{Value, json};

/// The bits of the key, as kubeadm's and kind's service-account keys have.
const KEY_BITS: usize = 2048;

/// The process's signing key, made once.
pub(crate) struct SigningKey {
    pair: RsaKeyPair,
    public: RsaPublicKeyComponents<Vec<u8>>,
    kid: String,
}

/// Why a token does not verify, in go-jose's words where kube passes them on.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum VerifyError {
    /// Not three base64url parts holding JSON: not a JWT at all (kube's
    /// `hasCorrectIssuer` and `ParseSigned` pass it to the next authenticator).
    #[error("not a JWT")]
    Malformed,
    /// A header that names another algorithm or key.
    #[error("square/go-jose: error in cryptographic primitive")]
    WrongKey,
    /// The signature does not match the header and claims.
    #[error("square/go-jose: error in cryptographic primitive")]
    BadSignature,
}

static KEY: OnceLock<Result<SigningKey, String>> = OnceLock::new();

/// The signing key, generated on first use; an error if generation failed (the
/// system's random source is gone), reported on every use after.
pub(crate) fn key() -> Result<&'static SigningKey, String> {
    KEY.get_or_init(SigningKey::generate).as_ref().map_err(Clone::clone)
}

/// The signing key if one was made: a token presented before any was issued cannot
/// be one of ours, and verifying it need not make a key.
pub(crate) fn existing() -> Option<&'static SigningKey> {
    KEY.get().and_then(|key| key.as_ref().ok())
}

impl SigningKey {
    fn generate() -> Result<Self, String> {
        let private = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, KEY_BITS)
            .map_err(|error| format!("generating the service-account key: {error}"))?;
        let pkcs8 = private
            .to_pkcs8_der()
            .map_err(|error| format!("encoding the service-account key: {error}"))?;
        let pair = RsaKeyPair::from_pkcs8(pkcs8.as_bytes())
            .map_err(|error| format!("loading the service-account key: {error}"))?;
        let public = private.to_public_key();
        let der = public
            .to_public_key_der()
            .map_err(|error| format!("encoding the service-account public key: {error}"))?;
        let kid = URL_SAFE_NO_PAD.encode(ring::digest::digest(&ring::digest::SHA256, der.as_bytes()));
        Ok(Self {
            pair,
            public: RsaPublicKeyComponents {
                n: public.n().to_bytes_be(),
                e: public.e().to_bytes_be(),
            },
            kid,
        })
    }

    /// The key id every token's header carries.
    #[cfg(test)]
    fn kid(&self) -> &str {
        &self.kid
    }

    /// The compact JWS of `claims`: header `{"alg":"RS256","kid":...}`, the claims as
    /// `serde_json` writes a `Value` (keys sorted, as go-jose's merged claims are).
    pub(crate) fn sign(&self, claims: &Value) -> Result<String, String> {
        let header = json!({"alg": "RS256", "kid": self.kid});
        let mut token = URL_SAFE_NO_PAD.encode(header.to_string());
        token.push('.');
        token.push_str(&URL_SAFE_NO_PAD.encode(claims.to_string()));
        let mut signed = vec![0; self.pair.public().modulus_len()];
        self.pair
            .sign(
                &signature::RSA_PKCS1_SHA256,
                &SystemRandom::new(),
                token.as_bytes(),
                &mut signed,
            )
            .map_err(|_| "signing the token failed".to_owned())?;
        token.push('.');
        token.push_str(&URL_SAFE_NO_PAD.encode(signed));
        Ok(token)
    }

    /// The claims of `token` if this key signed it.
    pub(crate) fn verify(&self, token: &str) -> Result<Value, VerifyError> {
        let (signed, signature) = token.rsplit_once('.').ok_or(VerifyError::Malformed)?;
        let (header, claims) = signed.split_once('.').ok_or(VerifyError::Malformed)?;
        let decode = |part: &str| -> Result<Value, VerifyError> {
            let bytes = URL_SAFE_NO_PAD.decode(part).map_err(|_| VerifyError::Malformed)?;
            serde_json::from_slice(&bytes).map_err(|_| VerifyError::Malformed)
        };
        let header = decode(header)?;
        let claims = decode(claims)?;
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| VerifyError::BadSignature)?;
        if header["alg"] != "RS256" || header["kid"].as_str().is_some_and(|kid| kid != self.kid) {
            return Err(VerifyError::WrongKey);
        }
        self.public
            .verify(&signature::RSA_PKCS1_2048_8192_SHA256, signed.as_bytes(), &signature)
            .map_err(|_| VerifyError::BadSignature)?;
        Ok(claims)
    }

    /// The key as `/openid/v1/jwks` lists it (`jose.JSONWebKey` of the public key).
    pub(crate) fn jwk(&self) -> Value {
        json!({
            "use": "sig", "kty": "RSA", "kid": self.kid, "alg": "RS256",
            "n": URL_SAFE_NO_PAD.encode(&self.public.n),
            "e": URL_SAFE_NO_PAD.encode(&self.public.e),
        })
    }
}

/// The claims of `token` without checking its signature: only to see whether it names
/// this server's issuer before anything else (kube's `hasCorrectIssuer`).
pub(crate) fn unverified_issuer(token: &str) -> Option<String> {
    let mut parts = token.split('.');
    let (_, payload, _, None) = (parts.next()?, parts.next()?, parts.next()?, parts.next()) else {
        return None;
    };
    let bytes = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let claims: Value = serde_json::from_slice(&bytes).ok()?;
    claims["iss"].as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_token_verifies_and_a_changed_one_does_not() {
        let key = key().expect("a key");
        let claims = json!({"iss": "me", "sub": "you"});
        let token = key.sign(&claims).expect("signed");
        assert_eq!(key.verify(&token), Ok(claims));
        assert_eq!(unverified_issuer(&token).as_deref(), Some("me"));
        let mut tampered = token.clone();
        tampered.push('A');
        assert_eq!(key.verify(&tampered), Err(VerifyError::BadSignature));
        let (_, rest) = token.split_once('.').expect("a header");
        let other_header = URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#);
        assert_eq!(
            key.verify(&format!("{other_header}.{rest}")),
            Err(VerifyError::WrongKey)
        );
        assert_eq!(key.verify("abc"), Err(VerifyError::Malformed));
    }

    #[test]
    fn hostile_tokens_are_refused_without_harm() {
        let key = key().expect("a key");
        let deep = URL_SAFE_NO_PAD.encode(format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)));
        let huge = "A".repeat(1 << 20);
        for token in [
            String::new(),
            "a.b".to_owned(),
            "...".to_owned(),
            format!("{deep}.{deep}.AAAA"),
            format!("{huge}.{huge}.{huge}"),
            "e30.e30.!!!".to_owned(),
        ] {
            assert!(key.verify(&token).is_err(), "{}", &token[..token.len().min(40)]);
            assert_eq!(unverified_issuer(&token), None);
        }
        let four = format!(
            "{}.{}.c.d",
            URL_SAFE_NO_PAD.encode("{}"),
            URL_SAFE_NO_PAD.encode(r#"{"iss":"x"}"#)
        );
        assert_eq!(unverified_issuer(&four), None, "a JWT has three parts");
    }

    #[test]
    fn the_key_id_is_the_hash_of_the_public_key() {
        let key = key().expect("a key");
        assert_eq!(key.kid().len(), 43, "unpadded base64url of 32 bytes");
        assert_eq!(key.jwk()["kid"], key.kid());
        assert_eq!(key.jwk()["e"], "AQAB");
    }
}
