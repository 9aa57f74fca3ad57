//! Projected volumes (`validateProjectionSources`): secrets, config maps, the downward
//! API and service account tokens projected into one directory, without two sources
//! writing the same path.

use std::collections::BTreeSet;

use serde_json::Value;

use super::downward::downward_api_file;
use super::number;
use super::options::PodOptions;
use super::paths::validate_local_non_reserved_path;
use super::sources::key_to_path;
use crate::field::{ErrorList, Path};
use crate::json::{int, is_set, items, text};

/// `validateProjectionSources`: each source of one kind, its items valid, no path
/// written twice. (`clusterTrustBundle` sources need a feature that is off in 1.32:
/// the server drops them.)
pub(super) fn validate_projection_sources(projection: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut all_paths = BTreeSet::new();
    for (index, source) in items(&projection["sources"]).iter().enumerate() {
        let mut count = 0;
        let source_path = path.child("sources").index(index);
        for kind in ["secret", "configMap"] {
            let projected = &source[kind];
            if !is_set(projected) {
                continue;
            }
            count += 1;
            let kind_path = source_path.child(kind);
            let name = text(&projected["name"]);
            if name.is_empty() {
                errors.push(kind_path.child("name").required(""));
            }
            for (item_index, item) in items(&projected["items"]).iter().enumerate() {
                errors.extend(key_to_path(item, &kind_path.child("items").index(item_index)));
                let item_path = text(&item["path"]);
                if !item_path.is_empty() && !all_paths.insert(item_path.to_owned()) {
                    errors.push(path.invalid(name, "conflicting duplicate paths"));
                }
            }
        }
        let downward = &source["downwardAPI"];
        if is_set(downward) {
            count += 1;
            for file in items(&downward["items"]) {
                errors.extend(downward_api_file(file, &source_path.child("downwardAPI")));
                let file_path = text(&file["path"]);
                if !file_path.is_empty() && !all_paths.insert(file_path.to_owned()) {
                    errors.push(path.invalid(file_path, "conflicting duplicate paths"));
                }
            }
        }
        let token = &source["serviceAccountToken"];
        if is_set(token) {
            count += 1;
            let token_path = source_path.child("serviceAccountToken");
            let expiration = int(&token["expirationSeconds"]);
            if expiration < 10 * 60 {
                errors.push(
                    token_path
                        .child("expirationSeconds")
                        .invalid(number(expiration), "may not specify a duration less than 10 minutes"),
                );
            }
            if expiration > 1 << 32 {
                errors.push(token_path.child("expirationSeconds").invalid(
                    number(expiration),
                    "may not specify a duration larger than 2^32 seconds",
                ));
            }
            let token_file = text(&token["path"]);
            if token_file.is_empty() {
                errors.push(path.child("path").required(""));
            } else if !options.allow_non_local_projected_token_path {
                errors.extend(validate_local_non_reserved_path(token_file, &path.child("path")));
            }
        }
        if count > 1 {
            errors.push(source_path.forbidden("may not specify more than 1 volume type per source"));
        }
    }
    errors
}
