//! The seccomp and `AppArmor` annotations of pods (`ValidateSeccompPodAnnotations`,
//! `ValidateAppArmorPodAnnotations`), and their agreement with the fields that
//! replaced them (`validateSeccompAnnotationsAndFields`,
//! `validateAppArmorAnnotationsAndFieldsMatchOnCreate`).

use serde_json::Value;

use super::paths::validate_local_descending_path;
use super::security::containers_with_paths;
use crate::field::{ErrorList, Path};
use crate::json::{entries, is_set, opt_text, text};

/// `ValidateSeccompProfile`: a seccomp annotation's value.
fn validate_seccomp_profile(profile: &str, path: &Path) -> ErrorList {
    if matches!(profile, "runtime/default" | "docker/default" | "unconfined") {
        return ErrorList::new();
    }
    if let Some(local) = profile.strip_prefix("localhost/") {
        return validate_local_descending_path(local, path);
    }
    vec![path.invalid(profile, "must be a valid seccomp profile")]
}

/// `ValidateSeccompPodAnnotations`.
pub(crate) fn validate_seccomp_pod_annotations(annotations: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(profile) = opt_text(&annotations["seccomp.security.alpha.kubernetes.io/pod"]) {
        errors.extend(validate_seccomp_profile(
            profile,
            &path.child("seccomp.security.alpha.kubernetes.io/pod"),
        ));
    }
    for (key, profile) in entries(annotations) {
        if key.starts_with("container.seccomp.security.alpha.kubernetes.io/") {
            errors.extend(validate_seccomp_profile(text(profile), &path.child(key)));
        }
    }
    errors
}

const APP_ARMOR_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// `ValidateAppArmorPodAnnotations`.
pub(crate) fn validate_app_armor_pod_annotations(annotations: &Value, spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (key, profile) in entries(annotations) {
        let Some(container) = key.strip_prefix(APP_ARMOR_PREFIX) else {
            continue;
        };
        let has_container = containers_with_paths(spec, &Path::new("spec"))
            .iter()
            .any(|(c, _)| text(&c["name"]) == container);
        if !has_container {
            errors.push(path.key(key).invalid(container, "container not found"));
        }
        let profile = text(profile);
        if !matches!(profile, "" | "runtime/default" | "unconfined") && !profile.starts_with("localhost/") {
            errors.push(path.key(key).invalid(
                profile,
                &format!("invalid AppArmor profile name: {}", crate::godump::quote(profile)),
            ));
        }
    }
    errors
}

/// `validateSeccompAnnotationsAndFields`: where both a seccomp annotation and the
/// field are given, they agree.
pub(crate) fn validate_seccomp_annotations_and_fields(meta: &Value, spec: &Value, path: &Path) -> ErrorList {
    let annotations = &meta["annotations"];
    let mut errors = ErrorList::new();
    let pod_profile = &spec["securityContext"]["seccompProfile"];
    if is_set(pod_profile)
        && let Some(annotation) = opt_text(&annotations["seccomp.security.alpha.kubernetes.io/pod"])
    {
        errors.extend(seccomp_match(
            annotation,
            pod_profile,
            &path.child("securityContext").child("seccompProfile"),
        ));
    }
    for (container, container_path) in containers_with_paths(spec, path) {
        let profile = &container["securityContext"]["seccompProfile"];
        if !is_set(profile) {
            continue;
        }
        let key = format!(
            "container.seccomp.security.alpha.kubernetes.io/{}",
            text(&container["name"])
        );
        if let Some(annotation) = opt_text(&annotations[key.as_str()]) {
            errors.extend(seccomp_match(
                annotation,
                profile,
                &container_path.child("securityContext").child("seccompProfile"),
            ));
        }
    }
    errors
}

fn seccomp_match(annotation: &str, profile: &Value, path: &Path) -> Option<crate::field::FieldError> {
    match text(&profile["type"]) {
        "Unconfined" if annotation != "unconfined" => Some(
            path.child("type")
                .forbidden("seccomp type in annotation and field must match"),
        ),
        "RuntimeDefault" if annotation != "runtime/default" && annotation != "docker/default" => Some(
            path.child("type")
                .forbidden("seccomp type in annotation and field must match"),
        ),
        "Localhost" => match annotation.strip_prefix("localhost/") {
            None => Some(
                path.child("type")
                    .forbidden("seccomp type in annotation and field must match"),
            ),
            Some(local) if opt_text(&profile["localhostProfile"]) != Some(local) => Some(
                path.child("localhostProfile")
                    .forbidden("seccomp profile in annotation and field must match"),
            ),
            Some(_) => None,
        },
        _ => None,
    }
}

/// `validateAppArmorAnnotationsAndFieldsMatchOnCreate`.
pub(crate) fn validate_app_armor_annotations_and_fields(meta: &Value, spec: &Value, path: &Path) -> ErrorList {
    if spec["os"]["name"] == "windows" {
        return ErrorList::new();
    }
    let mut errors = ErrorList::new();
    let pod_profile = &spec["securityContext"]["appArmorProfile"];
    for (container, container_path) in containers_with_paths(spec, path) {
        let own = &container["securityContext"]["appArmorProfile"];
        let profile = if is_set(own) { own } else { pod_profile };
        if !is_set(profile) {
            continue;
        }
        let key = format!("{APP_ARMOR_PREFIX}{}", text(&container["name"]));
        let Some(annotation) = opt_text(&meta["annotations"][key.as_str()]) else {
            continue;
        };
        let armor_path = container_path.child("securityContext").child("appArmorProfile");
        let mismatch = || {
            armor_path
                .child("type")
                .forbidden("apparmor type in annotation and field must match")
        };
        match text(&profile["type"]) {
            "Unconfined" if annotation != "unconfined" => errors.push(mismatch()),
            "RuntimeDefault" if annotation != "runtime/default" => errors.push(mismatch()),
            "Localhost" => match annotation.strip_prefix("localhost/") {
                None => errors.push(mismatch()),
                Some(local) if opt_text(&profile["localhostProfile"]) != Some(local) => errors.push(
                    armor_path
                        .child("localhostProfile")
                        .forbidden("apparmor profile in annotation and field must match"),
                ),
                Some(_) => {}
            },
            _ => {}
        }
    }
    errors
}
