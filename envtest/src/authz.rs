//! Who may do what: the RBAC authorizer that answers access reviews from the stored
//! RBAC objects (`authorizer`), the review resources it answers (`reviews`), the
//! `ServiceAccount` tokens the server issues and authenticates (`tokens`), and
//! least-privilege RBAC made from the requests a user sent ([`Rbac`], `evidence`).
//! The server itself serves every request: only the reviews consult RBAC.
//!
//! May import: `core`, `resources`, `objects`, `request`, `state`, `lifecycle`.

mod authorizer;
mod evidence;
pub(crate) mod reviews;
pub(crate) mod tokens;

pub use self::evidence::Rbac;
pub(crate) use self::tokens::{ISSUER, authenticate as authenticate_token, jwks, openid_configuration};
