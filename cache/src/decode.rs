//! Decoding objects without `metadata.managedFields`: the watch's JSON is read through a
//! deserializer that skips that field, so it is never built and then dropped.
//!
//! managedFields are a large part of a typical object, and as nested JSON maps they cost
//! more to decode than the rest of it (`benches/README.md` has the measured saving on a
//! list). Only the field at the top of `metadata` is skipped;
//! everything else reaches `K`'s own `Deserialize` unchanged.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use kube::Resource;
use kube::api::ObjectMeta;
use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

/// A `K` decoded without its `metadata.managedFields`; the same resource as `K` for
/// `Api` (URL, kind, scope), so a watch of it is a watch of `K`.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct WithoutManagedFields<K>(pub K);

impl<K: Resource> Resource for WithoutManagedFields<K> {
    type DynamicType = K::DynamicType;
    type Scope = K::Scope;

    fn kind(dt: &Self::DynamicType) -> Cow<'_, str> {
        K::kind(dt)
    }
    fn group(dt: &Self::DynamicType) -> Cow<'_, str> {
        K::group(dt)
    }
    fn version(dt: &Self::DynamicType) -> Cow<'_, str> {
        K::version(dt)
    }
    fn api_version(dt: &Self::DynamicType) -> Cow<'_, str> {
        K::api_version(dt)
    }
    fn plural(dt: &Self::DynamicType) -> Cow<'_, str> {
        K::plural(dt)
    }
    fn metadata_api() -> bool {
        K::metadata_api()
    }
    fn url_path(dt: &Self::DynamicType, namespace: Option<&str>) -> String {
        K::url_path(dt, namespace)
    }
    fn meta(&self) -> &ObjectMeta {
        self.0.meta()
    }
    fn meta_mut(&mut self) -> &mut ObjectMeta {
        self.0.meta_mut()
    }
}

impl<'de, K: Deserialize<'de>> Deserialize<'de> for WithoutManagedFields<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        K::deserialize(Filtered {
            inner: deserializer,
            level: Level::Object,
        })
        .map(Self)
    }
}

/// Where in the object a map is: the object itself (whose `metadata` is filtered) or
/// its metadata (whose `managedFields` are skipped).
#[derive(Clone, Copy)]
enum Level {
    Object,
    Metadata,
}

impl Level {
    /// What happens to the value of `key` in a map at this level.
    fn value_of(self, key: &str) -> Value {
        match (self, key) {
            (Level::Object, "metadata") => Value::Filter(Level::Metadata),
            (Level::Metadata, "managedFields") => Value::Skip,
            _ => Value::Pass,
        }
    }
}

enum Value {
    Pass,
    Filter(Level),
    Skip,
}

/// A deserializer whose maps are read through [`FilteredMap`].
struct Filtered<D> {
    inner: D,
    level: Level,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Filtered<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.inner.deserialize_any(FilteredVisitor {
            inner: visitor,
            level: self.level,
        })
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.inner.deserialize_map(FilteredVisitor {
            inner: visitor,
            level: self.level,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner.deserialize_struct(
            name,
            fields,
            FilteredVisitor {
                inner: visitor,
                level: self.level,
            },
        )
    }

    // Option<T> fields (k8s-openapi's `metadata`) must stay options: deserialize_any
    // would hand the visitor a map where it expects Some.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.inner.deserialize_option(FilteredVisitor {
            inner: visitor,
            level: self.level,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct enum identifier ignored_any
    }
}

/// Passes everything to `inner`, reading maps through [`FilteredMap`].
struct FilteredVisitor<V> {
    inner: V,
    level: Level,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for FilteredVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(FilteredMap {
            inner: map,
            level: self.level,
            next: Value::Pass,
        })
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_seq(seq)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_some(Filtered {
            inner: deserializer,
            level: self.level,
        })
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Self::Value, E> {
        self.inner.visit_bool(value)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        self.inner.visit_i64(value)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        self.inner.visit_u64(value)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        self.inner.visit_f64(value)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        self.inner.visit_str(value)
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        self.inner.visit_borrowed_str(value)
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Self::Value, E> {
        self.inner.visit_string(value)
    }
}

/// A map whose keys are read first as text, to skip or filter their values, and then
/// handed to the caller's key seed as it would have read them.
struct FilteredMap<A> {
    inner: A,
    level: Level,
    /// What to do with the value of the key just read.
    next: Value,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for FilteredMap<A> {
    type Error = A::Error;

    fn next_key_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Self::Error> {
        loop {
            let Some(key) = self.inner.next_key_seed(KeySeed)? else {
                return Ok(None);
            };
            match self.level.value_of(key.as_str()) {
                Value::Skip => {
                    self.inner.next_value::<IgnoredAny>()?;
                }
                value => {
                    self.next = value;
                    return match key {
                        Key::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some),
                        Key::Owned(key) => seed.deserialize(StringDeserializer::new(key)).map(Some),
                    };
                }
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Self::Error> {
        match std::mem::replace(&mut self.next, Value::Pass) {
            Value::Filter(level) => self.inner.next_value_seed(FilteredSeed { inner: seed, level }),
            Value::Pass | Value::Skip => self.inner.next_value_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// Deserializes a value through [`Filtered`].
struct FilteredSeed<S> {
    inner: S,
    level: Level,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for FilteredSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.inner.deserialize(Filtered {
            inner: deserializer,
            level: self.level,
        })
    }
}

/// A map key as text, borrowed from the input when it can be.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(key) => key,
            Key::Owned(key) => key,
        }
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(KeyVisitor(PhantomData))
    }
}

struct KeyVisitor<'de>(PhantomData<&'de ()>);

impl<'de> Visitor<'de> for KeyVisitor<'de> {
    type Value = Key<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a field name")
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        Ok(Key::Borrowed(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok(Key::Owned(value.to_owned()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Self::Value, E> {
        Ok(Key::Owned(value))
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::DynamicObject;
    use kube::core::PartialObjectMeta;
    use serde_json::json;

    use super::WithoutManagedFields;

    fn object() -> serde_json::Value {
        json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {
                "name": "web",
                "namespace": "default",
                "labels": {"app": "web", "managedFields": "a label, kept"},
                "managedFields": [{"manager": "kubectl", "operation": "Update", "fieldsType": "FieldsV1",
                                   "fieldsV1": {"f:data": {"f:key": {}}}}],
                "resourceVersion": "7",
                "uid": "0000",
            },
            "data": {"key": "value", "metadata": "kept"},
        })
    }

    #[test]
    fn only_metadata_managed_fields_are_skipped() {
        let text = object().to_string();
        let full: ConfigMap = serde_json::from_str(&text).unwrap();
        let WithoutManagedFields(lean) = serde_json::from_str::<WithoutManagedFields<ConfigMap>>(&text).unwrap();
        assert!(full.metadata.managed_fields.is_some());
        assert_eq!(lean.metadata.managed_fields, None);
        let mut expected = full;
        expected.metadata.managed_fields = None;
        assert_eq!(lean, expected);
    }

    #[test]
    fn escaped_keys_and_other_shapes_decode_the_same() {
        let text = r#"{"metadata":{"na\u006de":"web","managed\u0046ields":[{"manager":"x"}]},"data":{"k":"v"}}"#;
        let WithoutManagedFields(lean) = serde_json::from_str::<WithoutManagedFields<ConfigMap>>(text).unwrap();
        assert_eq!(lean.metadata.name.as_deref(), Some("web"));
        assert_eq!(lean.metadata.managed_fields, None);

        let WithoutManagedFields(dynamic) =
            serde_json::from_str::<WithoutManagedFields<DynamicObject>>(&object().to_string()).unwrap();
        assert_eq!(dynamic.metadata.managed_fields, None);
        assert_eq!(dynamic.data["data"]["metadata"], "kept");

        let WithoutManagedFields(meta) =
            serde_json::from_str::<WithoutManagedFields<PartialObjectMeta<ConfigMap>>>(&object().to_string()).unwrap();
        assert_eq!(meta.metadata.managed_fields, None);
        assert_eq!(meta.metadata.labels.unwrap()["managedFields"], "a label, kept");
    }

    #[test]
    fn errors_are_still_reported() {
        assert!(serde_json::from_str::<WithoutManagedFields<ConfigMap>>(r#"{"metadata":{"name":7}}"#).is_err());
        assert!(serde_json::from_str::<WithoutManagedFields<ConfigMap>>("[]").is_err());
    }
}
