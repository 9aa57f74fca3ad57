//! Who a write is for managed fields: its manager, endpoint and what that endpoint
//! resets, as kube-apiserver builds one field manager per resource and subresource.

use crate::core::ResourceType;
use crate::patch::apply::Writer;

/// The managed-fields writer of a write of `resource` by `manager` at `now` through
/// `subresource` (`status`, `scale`, `finalize`, or None for the main endpoint).
pub(crate) fn writer<'a>(
    resource: &'a ResourceType,
    manager: &'a str,
    now: &'a str,
    subresource: Option<&'a str>,
) -> Writer<'a> {
    // The strategies' `GetResetFields`: `/status` resets the spec, and the main
    // endpoint of a type with a status subresource resets the status.
    let reset: &'static [&'static str] = match subresource {
        Some("status") => &["spec"],
        // A namespace's `/finalize` resets its status, as its main endpoint does.
        Some("finalize") => &["status"],
        None if resource.status => &["status"],
        _ => &[],
    };
    Writer {
        manager,
        now,
        subresource,
        group: &resource.group,
        kind: &resource.kind,
        custom: resource.custom,
        reset,
    }
}
