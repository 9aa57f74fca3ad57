//! What the groups' validation shares beyond object metadata: apimachinery's string
//! checks and name rules (`names`), label maps and selectors (`labels`), the small
//! field checks of core's validation (`fields`), metav1 conditions (`conditions`), IP
//! addresses and CIDRs (`net`),
//! reading Go values out of JSON
//! (`read`), printing them as Go's `%#v` does (`go_syntax`), and the pod annotations a
//! `StatefulSet` template is checked for (`pods`).

pub(crate) mod conditions;
pub(crate) mod fields;
pub(crate) mod go_syntax;
pub(crate) mod labels;
pub(crate) mod names;
pub(crate) mod net;
pub(crate) mod pods;
pub(crate) mod read;
pub(crate) mod resources;
