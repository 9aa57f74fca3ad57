//! The templates, compiled in, and their one substitution: `{{key}}` by its value.

pub const CARGO_TOML: &str = include_str!("../templates/Cargo.toml.tmpl");
pub const MAIN: &str = include_str!("../templates/main.rs.tmpl");
pub const LIB: &str = include_str!("../templates/lib.rs.tmpl");
pub const API: &str = include_str!("../templates/api.rs.tmpl");
pub const CONTROLLERS: &str = include_str!("../templates/controllers.rs.tmpl");
pub const WEBHOOKS: &str = include_str!("../templates/webhooks.rs.tmpl");
pub const DEPLOY: &str = include_str!("../templates/deploy.rs.tmpl");
pub const DEPLOY_TEST: &str = include_str!("../templates/tests_deploy.rs.tmpl");
pub const README: &str = include_str!("../templates/README.md.tmpl");
pub const CI_RUN: &str = include_str!("../templates/ci_run.tmpl");
pub const GITIGNORE: &str = include_str!("../templates/gitignore.tmpl");
pub const DOCKERFILE: &str = include_str!("../templates/Dockerfile.prebuilt.tmpl");
pub const RUSTFMT: &str = include_str!("../templates/rustfmt.toml.tmpl");
pub const OPERATOR: &str = include_str!("../templates/operator.yaml.tmpl");
pub const VERSION: &str = include_str!("../templates/version.rs.tmpl");
pub const CONTROLLER: &str = include_str!("../templates/controller.rs.tmpl");
pub const CONTROLLER_TEST: &str = include_str!("../templates/controller_test.rs.tmpl");
pub const WEBHOOK: &str = include_str!("../templates/webhook.rs.tmpl");
pub const WEBHOOK_TEST: &str = include_str!("../templates/webhook_test.rs.tmpl");
pub const CONVERSION_TEST: &str = include_str!("../templates/conversion_test.rs.tmpl");
pub const PHASES_VERSION: &str = include_str!("../templates/phases_version.rs.tmpl");
pub const PHASES_CONTROLLER: &str = include_str!("../templates/phases_controller.rs.tmpl");
pub const PHASE_WORKER: &str = include_str!("../templates/phase_worker.rs.tmpl");
pub const PHASES_TEST: &str = include_str!("../templates/phases_test.rs.tmpl");

/// `template` with every `{{key}}` replaced by its value.
pub fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in values {
        out = out.replace(&format!("{{{{{key}}}}}"), value);
    }
    out
}

/// The sections of a project that is a fleet controller's (`fleet`) or one cluster's
/// (`single`).
pub fn fleet_sections(project: &crate::project::Project) -> [(&'static str, bool); 2] {
    let fleet = project.fleet.is_some();
    [("fleet", fleet), ("single", !fleet)]
}

/// `template` with its conditional sections kept or dropped: the lines between
/// `##if <name>` and `##end` (each alone on its line) stay when `name` is on.
pub fn sections(template: &str, on: &[(&str, bool)]) -> String {
    let mut out = String::new();
    let mut keeping = vec![true];
    for line in template.lines() {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix("##if ") {
            let enabled = on.iter().any(|(n, value)| *n == name && *value);
            let outer = keeping.last().copied().unwrap_or(true);
            keeping.push(outer && enabled);
        } else if trimmed == "##end" {
            keeping.pop();
        } else if keeping.last().copied().unwrap_or(true) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_kept_or_dropped() {
        let template = "a\n##if x\nb\n##if y\nc\n##end\n##end\nd\n";
        assert_eq!(sections(template, &[("x", true), ("y", false)]), "a\nb\nd\n");
        assert_eq!(sections(template, &[("x", true), ("y", true)]), "a\nb\nc\nd\n");
        assert_eq!(sections(template, &[]), "a\nd\n");
    }

    #[test]
    fn every_key_is_replaced() {
        assert_eq!(
            render("{{a}} and {{b}}, {{a}}", &[("a", "x"), ("b", "y")]),
            "x and y, x"
        );
    }

    #[test]
    fn no_template_leaves_a_key_unknown_to_the_generators() {
        let known = [
            "name",
            "crate",
            "domain",
            "wheelhouse",
            "wheelhouse_envtest_feature",
            "envtest",
            "fleet_namespace",
            "group",
            "version",
            "kind",
            "module",
            "plural",
            "hub",
            "spoke",
            "phase",
            "next",
            "first",
            "last",
            "last_phase",
            "phases",
            "declaration",
            "uses",
            "modules",
            "workers",
        ];
        for template in [
            CARGO_TOML,
            MAIN,
            LIB,
            API,
            CONTROLLERS,
            WEBHOOKS,
            DEPLOY,
            DEPLOY_TEST,
            README,
            CI_RUN,
            DOCKERFILE,
            OPERATOR,
            VERSION,
            CONTROLLER,
            CONTROLLER_TEST,
            WEBHOOK,
            WEBHOOK_TEST,
            CONVERSION_TEST,
            PHASES_VERSION,
            PHASES_CONTROLLER,
            PHASE_WORKER,
            PHASES_TEST,
        ] {
            let mut rest = template;
            while let Some(mut start) = rest.find("{{") {
                // `{{{kind}}, ...}`: a brace of the code, then the key.
                if rest[start + 2..].starts_with('{') {
                    start += 1;
                }
                let end = rest[start..].find("}}").map_or(rest.len(), |e| start + e);
                let key = &rest[start + 2..end];
                assert!(known.contains(&key), "unknown key {key:?}");
                rest = &rest[end..];
            }
        }
    }
}
