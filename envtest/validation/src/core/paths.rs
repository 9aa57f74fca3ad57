//! The local paths volumes name (`validateLocalDescendingPath`, `validatePathNoBacksteps`,
//! `ValidateLocalNonReservedPath`): relative, without `..` steps.

use crate::field::{ErrorList, Path};

/// Paths as `path.IsAbs` reads them.
fn is_absolute(target: &str) -> bool {
    target.starts_with('/')
}

/// `validateLocalDescendingPath`: relative, without `..` elements.
pub(crate) fn validate_local_descending_path(target: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if is_absolute(target) {
        errors.push(path.invalid(target, "must be a relative path"));
    }
    errors.extend(validate_path_no_backsteps(target, path));
    errors
}

/// `validatePathNoBacksteps`.
pub(crate) fn validate_path_no_backsteps(target: &str, path: &Path) -> ErrorList {
    if target.split('/').any(|part| part == "..") {
        vec![path.invalid(target, "must not contain '..'")]
    } else {
        ErrorList::new()
    }
}

/// `ValidateLocalNonReservedPath`: a descending path not starting with `..`.
pub(crate) fn validate_local_non_reserved_path(target: &str, path: &Path) -> ErrorList {
    let mut errors = validate_local_descending_path(target, path);
    if target.starts_with("..") && !target.starts_with("../") {
        errors.push(path.invalid(target, "must not start with '..'"));
    }
    errors
}
