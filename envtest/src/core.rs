//! The types every part of the server shares and that depend on no other part: what a
//! resource is, the API verbs, the Kubernetes version imitated, the API error (with Go's
//! wording of a body that is not JSON), and how responses are made. Everything else depends on this module; it depends on nothing
//! else in the crate, so no import cycle can run through it.
//!
//! May import: nothing in the crate.

mod error;
mod go_base64;
mod go_json;
mod go_sort;
mod go_yaml;
mod identity;
mod resource;
mod response;
mod selector;
mod verb;
mod version;

pub(crate) use self::error::ApiError;
pub(crate) use self::go_base64::{decode as go_base64, error as go_base64_error};
pub(crate) use self::go_json::{decode as decode_json, go_json_type, parse_uint, summarize_data};
pub(crate) use self::go_sort::slice_stable as go_slice_stable;
pub(crate) use self::go_yaml::syntax_error as yaml_syntax_error;
pub(crate) use self::identity::{ADMIN, ADMIN_GROUPS, admin_user_info};
pub(crate) use self::resource::{
    Builtin, BuiltinRef, ConversionWebhook, CrdVersions, GroupResource, ResourceType, ScalePaths, pod_template_path,
};
pub use self::response::ResponseBody;
pub(crate) use self::response::{
    bytes_response, document, error_response, full_body, json_response, sha512_hex, text_response,
};
pub(crate) use self::selector::label_selector_string;
pub use self::verb::Verb;
pub use self::version::KUBERNETES_VERSION;
pub(crate) use self::version::{git_version, openapi_version};
