//! Field paths as apimachinery's `field.Path` prints them (`spec.containers[0].name`,
//! `metadata.labels[app]`), and the error list every validation function returns.

use std::fmt;

pub use wheelhouse_envtest_schema::errors::{BadValue, ErrorType, FieldError};

/// The errors one validation function found, in the order kube appends them.
pub type ErrorList = Vec<FieldError>;

/// A path to a field: `field.NewPath("spec").Child("containers").Index(0)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path(String);

impl Path {
    /// `field.NewPath(name)`.
    pub fn new(name: &str) -> Self {
        Self(name.to_owned())
    }

    /// `field.NewPath(name, more...)`.
    pub fn from_parts(parts: &[&str]) -> Self {
        Self(parts.join("."))
    }

    /// `Child(name)`: `a.b`.
    #[must_use]
    pub fn child(&self, name: &str) -> Self {
        if self.0.is_empty() {
            Self::new(name)
        } else {
            Self(format!("{}.{name}", self.0))
        }
    }

    /// `Index(i)`: `a[0]`.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        Self(format!("{}[{index}]", self.0))
    }

    /// `Key(k)`: `a[k]`, the key printed as is.
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        Self(format!("{}[{key}]", self.0))
    }

    /// The path as kube prints it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `field.Required(path, detail)`.
    pub fn required(&self, detail: &str) -> FieldError {
        FieldError::required(self.0.clone(), detail)
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(&self, value: impl Into<BadValue>, detail: &str) -> FieldError {
        FieldError::invalid(self.0.clone(), value.into(), detail)
    }

    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(&self, detail: &str) -> FieldError {
        FieldError::forbidden(self.0.clone(), detail)
    }

    /// `field.Duplicate(path, value)`.
    pub fn duplicate(&self, value: impl Into<BadValue>) -> FieldError {
        FieldError::new(self.0.clone(), ErrorType::Duplicate, value.into(), "")
    }

    /// `field.NotSupported(path, value, supported)`.
    pub fn not_supported(&self, value: impl Into<BadValue>, supported: &[&str]) -> FieldError {
        let supported: Vec<String> = supported.iter().map(|s| (*s).to_owned()).collect();
        FieldError::not_supported(self.0.clone(), value.into(), &supported)
    }

    /// `field.TooLong(path, value, max)`.
    pub fn too_long(&self, max: i64) -> FieldError {
        FieldError::too_long(self.0.clone(), max)
    }

    /// `field.TooMany(path, actual, max)`.
    pub fn too_many(&self, actual: i64, max: i64) -> FieldError {
        FieldError::too_many(self.0.clone(), actual, max)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_field_path_does() {
        let containers = Path::new("spec").child("containers");
        assert_eq!(containers.index(0).child("name").as_str(), "spec.containers[0].name");
        assert_eq!(
            Path::new("metadata").child("labels").key("app").as_str(),
            "metadata.labels[app]"
        );
        assert_eq!(Path::from_parts(&["spec", "template"]).as_str(), "spec.template");
    }
}
