//! A Service's cluster IPs and IP families (`ValidateServiceClusterIPsRelatedFields`,
//! `validateUpgradeDowngradeClusterIPs`, `validateUpgradeDowngradeIPFamilies`): in step
//! with `clusterIP`, one per family, fixed once set.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::field::{BadValue, ErrorList, Path};
use crate::godump;
use crate::json::{opt_text, strings, text};
use crate::util;

pub(super) fn clusters_ips(service: &Value) -> Vec<&str> {
    strings(&service["spec"]["clusterIPs"])
}

/// `isHeadlessService`.
pub(super) fn is_headless(service: &Value) -> bool {
    clusters_ips(service) == ["None"]
}

/// `ValidateServiceClusterIPsRelatedFields`.
pub(super) fn validate_cluster_ips_related_fields(service: &Value) -> ErrorList {
    let spec = &service["spec"];
    if text(&spec["type"]) == "ExternalName" {
        return ErrorList::new();
    }
    let path = Path::new("spec");
    let ips_path = path.child("clusterIPs");
    let cluster_ip = text(&spec["clusterIP"]);
    let ips = clusters_ips(service);
    let shown = || godump::raw(godump::string_slice("string", &spec["clusterIPs"]));
    let mut errors = ErrorList::new();
    if !cluster_ip.is_empty() {
        if ips.is_empty() {
            errors.push(ips_path.required(""));
        } else if ips[0] != cluster_ip {
            errors.push(ips_path.invalid(shown(), "first value must match `clusterIP`"));
        }
    } else if !ips.is_empty() {
        errors.push(ips_path.invalid(shown(), "must be empty when `clusterIP` is not specified"));
    }
    let families = strings(&spec["ipFamilies"]);
    let mut seen = BTreeSet::new();
    for (index, family) in families.iter().enumerate() {
        if *family != "IPv4" && *family != "IPv6" {
            errors.push(
                path.child("ipFamilies")
                    .index(index)
                    .not_supported(*family, &["IPv4", "IPv6"]),
            );
        }
        if !seen.insert(family) {
            errors.push(path.child("ipFamilies").index(index).duplicate(*family));
        }
    }
    if let Some(policy) = opt_text(&spec["ipFamilyPolicy"])
        && !matches!(policy, "SingleStack" | "PreferDualStack" | "RequireDualStack")
    {
        errors.push(
            path.child("ipFamilyPolicy")
                .not_supported(policy, &["PreferDualStack", "RequireDualStack", "SingleStack"]),
        );
    }
    let mut invalid = false;
    for (index, ip) in ips.iter().enumerate() {
        if index == 0 && *ip == "None" {
            if ips.len() > 1 {
                invalid = true;
                errors.push(ips_path.invalid(shown(), "'None' must be the first and only value"));
            }
            continue;
        }
        let found = util::is_valid_ip(&ips_path.index(index), ip);
        invalid |= !found.is_empty();
        errors.extend(found);
    }
    if ips.len() > 2 {
        errors.push(ips_path.invalid(shown(), "may only hold up to 2 values"));
    }
    if invalid {
        return errors;
    }
    if ips.len() > 1 {
        let v6 = ips.iter().filter(|ip| util::is_ipv6_string(ip)).count();
        if v6 == 0 || v6 == ips.len() {
            errors.push(ips_path.invalid(shown(), "may specify no more than one IP for each IP family"));
        }
    }
    if !is_headless(service) && !ips.is_empty() && !families.is_empty() {
        for (index, (ip, family)) in ips.iter().zip(&families).enumerate() {
            if *family == "IPv4" && util::is_ipv6_string(ip) {
                errors.push(ips_path.index(index).invalid(
                    *ip,
                    &format!("expected an IPv4 value as indicated by `ipFamilies[{index}]`"),
                ));
            }
            if *family == "IPv6" && !util::is_ipv6_string(ip) {
                errors.push(ips_path.index(index).invalid(
                    *ip,
                    &format!("expected an IPv6 value as indicated by `ipFamilies[{index}]`"),
                ));
            }
        }
    }
    errors
}

/// `validateUpgradeDowngradeClusterIPs`.
pub(super) fn validate_upgrade_downgrade_cluster_ips(old: &Value, service: &Value) -> ErrorList {
    let external = |s: &Value| text(&s["spec"]["type"]) == "ExternalName";
    if external(service) || external(old) || (is_headless(old) && is_headless(service)) {
        return ErrorList::new();
    }
    let (before, after) = (clusters_ips(old), clusters_ips(service));
    let path = Path::new("spec").child("clusterIPs");
    let shown = || godump::raw(godump::string_slice("string", &service["spec"]["clusterIPs"]));
    let mut errors = ErrorList::new();
    if before.len() == after.len() {
        for (index, ip) in before.iter().enumerate() {
            if *ip != after[index] {
                errors.push(path.index(index).invalid(shown(), "may not change once set"));
            }
        }
    } else if before.len() > after.len() {
        if after.is_empty() {
            errors.push(path.index(0).invalid(shown(), "primary clusterIP can not be unset"));
        }
        if !before.is_empty() && !after.is_empty() && after[0] != before[0] {
            errors.push(path.index(0).invalid(shown(), "may not change once set"));
        }
        if after.len() == 1 && text(&service["spec"]["ipFamilyPolicy"]) != "SingleStack" {
            errors.push(Path::new("spec").child("ipFamilyPolicy").invalid(
                policy_shown(service),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if !before.is_empty() && after[0] != before[0] {
        errors.push(path.index(0).invalid(shown(), "may not change once set"));
    }
    errors
}

fn policy_shown(service: &Value) -> BadValue {
    godump::pointee(&service["spec"]["ipFamilyPolicy"])
}

/// `validateUpgradeDowngradeIPFamilies`.
pub(super) fn validate_upgrade_downgrade_ip_families(old: &Value, service: &Value) -> ErrorList {
    let external = |s: &Value| text(&s["spec"]["type"]) == "ExternalName";
    if external(service) || external(old) || is_headless(old) != is_headless(service) || is_headless(service) {
        return ErrorList::new();
    }
    let (before, after) = (
        strings(&old["spec"]["ipFamilies"]),
        strings(&service["spec"]["ipFamilies"]),
    );
    let path = Path::new("spec").child("ipFamilies").index(0);
    let families = || godump::raw(godump::string_slice("core.IPFamily", &service["spec"]["ipFamilies"]));
    let ips = || godump::raw(godump::string_slice("string", &service["spec"]["clusterIPs"]));
    let mut errors = ErrorList::new();
    if before.len() == after.len() {
        for (index, family) in before.iter().enumerate() {
            if *family != after[index] {
                errors.push(path.invalid(families(), "may not change once set"));
            }
        }
    } else if before.len() > after.len() {
        if clusters_ips(service).is_empty() {
            errors.push(path.invalid(families(), "primary ipFamily can not be unset"));
        }
        if !after.is_empty() && after[0] != before[0] {
            errors.push(path.invalid(ips(), "may not change once set"));
        }
        if after.len() == 1 && text(&service["spec"]["ipFamilyPolicy"]) != "SingleStack" {
            errors.push(Path::new("spec").child("ipFamilyPolicy").invalid(
                policy_shown(service),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !before.is_empty() && !after.is_empty() && after[0] != before[0] {
        errors.push(path.invalid(ips(), "may not change once set"));
    }
    errors
}
