//! `Route`: what the dispatcher calls for a registered path, typed or raw. It lives
//! beside the dispatcher that calls it, so the typed and raw adapters import it from
//! here and nothing here imports them back.

use futures::future::BoxFuture;
use serde_json::value::RawValue;

use crate::registration::Registration;
use crate::request::Request;
use crate::review::Verdict;

/// What the server calls for a path: decides on a decoded request.
pub(crate) trait Route: Send + Sync + 'static {
    fn admit<'a>(
        &'a self,
        request: &'a Request,
        object: Option<&'a RawValue>,
        old_object: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Verdict>;

    /// What the generated webhook configurations say of this route; None for raw
    /// handlers, whose rules only their author knows.
    fn registration(&self) -> Option<&Registration> {
        None
    }
}
