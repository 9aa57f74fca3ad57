//! Field selectors: the syntax as apimachinery's `fields.ParseSelector` reads it
//! (terms split at unescaped commas, sorted, each `field=value`, `field==value` or
//! `field!=value` with `\,`, `\=` and `\\` escapes), then each field label converted
//! as kube-apiserver converts it for the resource listed (the `AddFieldLabelConversionFunc`
//! tables of `pkg/apis/*/*/conversion.go`, `DefaultMetaV1FieldSelectorConversion`,
//! and a CRD's `selectableFields`), and matched against the values the resource's
//! registry exposes (`GetAttrs` / `ToSelectableFields`): `labels`.

mod labels;

use serde_json::Value;

use crate::SelectorError;

pub use self::labels::Fields;

/// One term: a field label, equal or not, and the unescaped value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    field: String,
    equal: bool,
    value: String,
}

/// A field selector: every term must hold. The empty selector matches everything.
///
/// ```
/// use serde_json::json;
/// use wheelhouse_selector::{FieldSelector, Fields};
///
/// let events = Fields::builtin("", "v1", "Event", true);
/// let selector = FieldSelector::parse_for("involvedObject.name=web", &events).unwrap();
/// assert!(selector.matches(&json!({"involvedObject": {"name": "web"}})));
/// let configmaps = Fields::builtin("", "v1", "ConfigMap", true);
/// let error = FieldSelector::parse_for("data=x", &configmaps).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "\"data\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSelector {
    terms: Vec<Term>,
    fields: Fields,
}

impl FieldSelector {
    /// Parses a selector on the fields every namespaced resource has
    /// (`metadata.name=web,metadata.namespace!=kube-system`).
    pub fn parse(text: &str) -> Result<Self, SelectorError> {
        Self::parse_for(text, &Fields::default())
    }

    /// Parses a selector for a resource whose selectable fields `fields` describes:
    /// syntax first (`fields.ParseSelector`), then each label converted in the sorted
    /// order of the terms, the first label the resource does not support an error.
    pub fn parse_for(text: &str, fields: &Fields) -> Result<Self, SelectorError> {
        let mut parts = split_terms(text);
        parts.sort_unstable();
        let mut terms = Vec::new();
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            let Some((field, equal, value)) = split_term(part) else {
                return Err(SelectorError(format!(
                    "invalid selector: '{text}'; can't understand '{part}'"
                )));
            };
            terms.push(Term {
                field: field.to_owned(),
                equal,
                value: unescape_value(value)?,
            });
        }
        for term in &mut terms {
            term.field = fields.convert(&term.field).map_err(SelectorError)?;
        }
        Ok(Self {
            terms,
            fields: fields.clone(),
        })
    }

    /// True when the selector has no term.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The field labels the terms compare, as converted for the resource: a caller that
    /// holds only some fields of an object can tell whether they are enough.
    ///
    /// ```
    /// use wheelhouse_selector::FieldSelector;
    ///
    /// let selector = FieldSelector::parse("metadata.name=a,metadata.namespace!=b").unwrap();
    /// assert_eq!(selector.fields().collect::<Vec<_>>(), ["metadata.name", "metadata.namespace"]);
    /// ```
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.terms.iter().map(|term| term.field.as_str())
    }

    /// Whether `object` satisfies the selector: each term compares the value its field
    /// has in the resource's selectable fields (absent reads as empty, as in kube's
    /// `fields.Set`).
    pub fn matches(&self, object: &Value) -> bool {
        self.terms.iter().all(|term| {
            let actual = self.fields.value(object, &term.field).unwrap_or_default();
            (actual == term.value) == term.equal
        })
    }
}

/// `splitTerms`: the comma-separated terms; an escaped comma (`\,`) stays in its term,
/// backslash included.
fn split_terms(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut terms = Vec::new();
    let (mut start, mut escaped) = (0, false);
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == ',' {
            terms.push(&text[start..i]);
            start = i + 1;
        }
    }
    terms.push(&text[start..]);
    terms
}

/// `splitTerm`: the first operator (`!=`, `==`, `=`, tried in that order at each
/// position) splits the field from the literal value.
fn split_term(term: &str) -> Option<(&str, bool, &str)> {
    for (i, _) in term.char_indices() {
        let remaining = &term[i..];
        for (operator, equal) in [("!=", false), ("==", true), ("=", true)] {
            if remaining.starts_with(operator) {
                return Some((&term[..i], equal, &term[i + operator.len()..]));
            }
        }
    }
    None
}

/// `UnescapeValue`: `\\`, `\,` and `\=` stand for themselves; any other escape, a
/// trailing backslash, or a bare `,` or `=` is an error with kube's words.
fn unescape_value(value: &str) -> Result<String, SelectorError> {
    if !value.contains(['\\', ',', '=']) {
        return Ok(value.to_owned());
    }
    let mut out = String::with_capacity(value.len());
    let mut escaped = false;
    for c in value.chars() {
        if escaped {
            if !matches!(c, '\\' | ',' | '=') {
                return Err(SelectorError(format!(
                    "invalid field selector: invalid escape sequence: \\{c}"
                )));
            }
            out.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            // Go prints the rune as its number (`%v` of a rune).
            ',' | '=' => {
                return Err(SelectorError(format!(
                    "invalid field selector: unescaped character in value: {}",
                    c as u32
                )));
            }
            c => out.push(c),
        }
    }
    if escaped {
        return Err(SelectorError(
            "invalid field selector: invalid escape sequence: \\".to_owned(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn field_selectors_on_name_and_namespace() {
        let object = json!({"metadata": {"name": "web", "namespace": "default"}});
        assert!(FieldSelector::parse("metadata.name=web").unwrap().matches(&object));
        assert!(
            FieldSelector::parse("metadata.namespace!=kube-system")
                .unwrap()
                .matches(&object)
        );
        assert!(!FieldSelector::parse("metadata.name==db").unwrap().matches(&object));
        assert_eq!(
            FieldSelector::parse("spec.nodeName=x").unwrap_err().to_string(),
            "\"spec.nodeName\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
    }

    #[test]
    fn syntax_errors_are_worded_as_kube_words_them() {
        let error = |text: &str| FieldSelector::parse(text).unwrap_err().to_string();
        assert_eq!(
            error("metadata.name"),
            "invalid selector: 'metadata.name'; can't understand 'metadata.name'"
        );
        assert_eq!(
            error("metadata.name=a=b"),
            "invalid field selector: unescaped character in value: 61"
        );
        assert_eq!(
            error("metadata.name=a\\x"),
            "invalid field selector: invalid escape sequence: \\x"
        );
        assert_eq!(
            error("metadata.name=a\\"),
            "invalid field selector: invalid escape sequence: \\"
        );
        // Terms are sorted before their labels are converted: the first refused label
        // in that order is the one named.
        assert_eq!(
            error("metadata.name=a,zz=1,data=2"),
            "\"data\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
        assert_eq!(
            error(" metadata.name = a"),
            "\" metadata.name \" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
    }

    #[test]
    fn escaped_values_and_odd_operators() {
        let object = json!({"metadata": {"name": "a=b,c"}});
        assert!(
            FieldSelector::parse("metadata.name=a\\=b\\,c")
                .unwrap()
                .matches(&object)
        );
        let selector = FieldSelector::parse("metadata.name==x").unwrap();
        assert!(selector.matches(&json!({"metadata": {"name": "x"}})));
        assert!(FieldSelector::parse(",,").unwrap().is_empty());
    }
}
