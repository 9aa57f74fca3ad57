//! The names a kind goes by in generated code and manifests, derived once from what
//! the user typed: `Widget` is `widget` in module and file names, `widgets` in the
//! CRD, `WIDGET` nowhere (constants are named for what they hold).

use crate::Error;

/// Checks a kind: `UpperCamelCase`, ASCII letters and digits, as Kubernetes kinds are.
pub fn check_kind(kind: &str) -> Result<(), Error> {
    let mut chars = kind.chars();
    let starts_upper = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    if !starts_upper || !kind.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(Error::Invalid(format!(
            "--kind {kind:?}: a kind is UpperCamelCase letters and digits, such as CronJob"
        )));
    }
    Ok(())
}

/// Checks a version: `v1`, `v1beta1`, `v2alpha3`, as Kubernetes API versions are.
pub fn check_version(version: &str) -> Result<(), Error> {
    let rest = version.strip_prefix('v').unwrap_or_default();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let tail = &rest[digits..];
    let tail_ok = tail.is_empty()
        || ["alpha", "beta"].iter().any(|stage| {
            tail.strip_prefix(stage)
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        });
    if digits == 0 || rest.starts_with('0') || !tail_ok {
        return Err(Error::Invalid(format!(
            "--version {version:?}: a version is v1, v1beta1, v2alpha1 and the like"
        )));
    }
    Ok(())
}

/// Checks a group or domain: lower-case DNS labels separated by dots.
pub fn check_group(group: &str) -> Result<(), Error> {
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    if group.is_empty() || !group.split('.').all(label_ok) {
        return Err(Error::Invalid(format!(
            "{group:?}: a group is lower-case DNS labels, such as batch or batch.example.com"
        )));
    }
    Ok(())
}

/// Checks a namespace: one DNS label (lower-case letters, digits and '-', at most 63).
pub fn check_namespace(namespace: &str) -> Result<(), Error> {
    let ok = !namespace.is_empty()
        && namespace.len() <= 63
        && namespace
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !namespace.starts_with('-')
        && !namespace.ends_with('-');
    if !ok {
        return Err(Error::Invalid(format!(
            "--fleet {namespace:?}: a namespace is one lower-case DNS label, such as fleet"
        )));
    }
    Ok(())
}

/// Checks a crate name: what cargo accepts and a Rust path can name.
pub fn check_crate_name(name: &str) -> Result<(), Error> {
    let starts = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    if !starts
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    {
        return Err(Error::Invalid(format!(
            "--name {name:?}: a crate name is lower-case letters, digits, '-' and '_', starting with a letter"
        )));
    }
    Ok(())
}

/// `CronJob` → `cron_job`: module, file and function names.
pub fn snake(kind: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = kind.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let after_lower = i > 0 && !chars[i - 1].is_ascii_uppercase();
            let before_lower = i > 0 && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if after_lower || (before_lower && chars[i - 1].is_ascii_uppercase()) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(*c);
        }
    }
    out
}

/// The plural kube's `CustomResource` derive gives a kind (its lower case, then the
/// English rules it applies), so that RBAC and manifests name the resource it serves.
pub fn plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower.ends_with('s')
        || lower.ends_with("ch")
        || lower.ends_with("sh")
        || lower.ends_with('x')
        || lower.ends_with('z')
    {
        format!("{lower}es")
    } else if let Some(stem) = lower.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        format!("{stem}ies")
    } else {
        format!("{lower}s")
    }
}

/// The crate's name as a Rust path (`widget-operator` → `widget_operator`).
pub fn crate_ident(name: &str) -> String {
    name.replace('-', "_")
}

/// `Initializing` → `initializing`: a worker's type is the phase's name, its module the
/// snake case.
pub fn check_phase(phase: &str) -> Result<(), Error> {
    check_kind(phase).map_err(|_| {
        Error::Invalid(format!(
            "--phases: {phase:?} is not a phase name; phases are UpperCamelCase, such as Initializing,Syncing,Ready"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_become_modules_and_resources() {
        assert_eq!(snake("CronJob"), "cron_job");
        assert_eq!(snake("Widget"), "widget");
        assert_eq!(snake("HTTPRoute"), "http_route");
        assert_eq!(plural("Widget"), "widgets");
        assert_eq!(plural("Policy"), "policies");
        assert_eq!(plural("Gateway"), "gateways");
        assert_eq!(plural("Ingress"), "ingresses");
        assert_eq!(crate_ident("widget-operator"), "widget_operator");
    }

    #[test]
    fn what_kubernetes_refuses_is_refused_here() {
        assert!(check_kind("Widget").is_ok());
        assert!(check_kind("widget").is_err());
        assert!(check_kind("Wid-get").is_err());
        for good in ["v1", "v2", "v1beta1", "v2alpha3", "v10"] {
            assert!(check_version(good).is_ok(), "{good}");
        }
        for bad in ["1", "v", "v0", "v01", "v1gamma1", "v1beta", "V1"] {
            assert!(check_version(bad).is_err(), "{bad}");
        }
        assert!(check_group("batch.example.com").is_ok());
        assert!(check_group("Batch").is_err());
        assert!(check_group("a..b").is_err());
        assert!(check_crate_name("widget-operator").is_ok());
        assert!(check_crate_name("1up").is_err());
        assert!(check_namespace("fleet").is_ok());
        for bad in ["", "Fleet", "fleet.x", "-fleet", &"a".repeat(64)] {
            assert!(check_namespace(bad).is_err(), "{bad}");
        }
    }
}
