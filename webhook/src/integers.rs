//! Integer bounds in generated CRDs: [`bound_integers`] gives every integer field of a
//! CRD's schemas the range of the Rust type it was generated from, and [`crd`] is a
//! kube-derived CRD with them.
//!
//! schemars writes an `i32` field as `type: integer, format: int32` (and a `u32` with
//! `minimum: 0`), and kube-apiserver does not enforce formats: it stores
//! `replicas: 3000000000` in an `int32` field, which the operator's types then cannot
//! decode, so every list of the resource fails (and, with a conversion webhook, every
//! list in another version). With `minimum` and `maximum` the API server refuses such
//! a value when it is written, as it refuses any other invalid field.
//!
//! Formats and their ranges: `int8`, `int16`, `int32`, `int64` and `int` (an `isize`)
//! their signed ranges; `uint8`, `uint16`, `uint32` their unsigned ones; `uint64` and
//! `uint` (a `usize`) a minimum of 0 (their maximum is past what the API server takes
//! as an integer anyway). A bound already tighter is kept. `int64`'s bounds are
//! ±(2^63 − 1024), the doubles nearest 2^63 on the inside: a bound is a double, and
//! the API server first checks that the bound itself is an int64 by printing it in
//! its shortest form (2^63 prints as `9223372036854776000`, past int64, and a
//! schema whose bound fails that check refuses every value); 2^63 − 1024 prints as
//! `9223372036854775000`. So the 1,023 int64 values nearest each end are refused,
//! which no field holds in practice.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
};
use kube::CustomResourceExt;

/// `K`'s CRD as kube's `CustomResource` derive makes it, with every integer field
/// bounded to its Rust type's range ([`bound_integers`]).
///
/// ```
/// use kube::CustomResource;
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
/// #[kube(group = "example.com", version = "v1", kind = "Pool", namespaced)]
/// pub struct PoolSpec { pub replicas: i32, pub weight: u8 }
///
/// let crd = wheelhouse_webhook::crd::<Pool>();
/// let schema = crd.spec.versions[0].schema.as_ref().unwrap().open_api_v3_schema.as_ref().unwrap();
/// let replicas = &schema.properties.as_ref().unwrap()["spec"].properties.as_ref().unwrap()["replicas"];
/// assert_eq!((replicas.minimum, replicas.maximum), (Some(-2147483648.0), Some(2147483647.0)));
/// ```
pub fn crd<K: CustomResourceExt>() -> CustomResourceDefinition {
    let mut crd = K::crd();
    bound_integers(&mut crd);
    crd
}

/// Gives every integer field in each version's schema of `crd` the `minimum` and
/// `maximum` of its `format` (the table of ranges is in `wheelhouse_webhook`'s
/// `integers` module docs: each Rust integer type's range, `int64`'s just inside
/// ±2^63); a tighter bound already there is kept.
pub fn bound_integers(crd: &mut CustomResourceDefinition) {
    for version in &mut crd.spec.versions {
        if let Some(schema) = version
            .schema
            .as_mut()
            .and_then(|validation| validation.open_api_v3_schema.as_mut())
        {
            bound(schema);
        }
    }
}

/// -(2^63 - 1024): see [`INT64_MAX`].
const INT64_MIN: f64 = -INT64_MAX;
/// 2^63 - 1024, the largest double under 2^63. Not 2^63, the double nearest
/// `i64::MAX`: the API server checks a bound is an int64 by parsing its shortest
/// decimal form, and 2^63's (`9223372036854776000`) is not one (nor -2^63's), so
/// every value of the field would be refused.
const INT64_MAX: f64 = 9_223_372_036_854_774_784.0;

/// The range of an integer `format`: minimum, and maximum when it is one.
fn range(format: &str) -> Option<(f64, Option<f64>)> {
    Some(match format {
        "int8" => (f64::from(i8::MIN), Some(f64::from(i8::MAX))),
        "int16" => (f64::from(i16::MIN), Some(f64::from(i16::MAX))),
        "int32" => (f64::from(i32::MIN), Some(f64::from(i32::MAX))),
        "int64" | "int" => (INT64_MIN, Some(INT64_MAX)),
        "uint8" => (0.0, Some(f64::from(u8::MAX))),
        "uint16" => (0.0, Some(f64::from(u16::MAX))),
        "uint32" => (0.0, Some(f64::from(u32::MAX))),
        "uint64" | "uint" => (0.0, None),
        _ => return None,
    })
}

fn bound(schema: &mut JSONSchemaProps) {
    if schema.type_.as_deref() == Some("integer")
        && let Some((minimum, maximum)) = schema.format.as_deref().and_then(range)
    {
        schema.minimum = Some(schema.minimum.map_or(minimum, |set| set.max(minimum)));
        if let Some(maximum) = maximum {
            schema.maximum = Some(schema.maximum.map_or(maximum, |set| set.min(maximum)));
        }
    }
    let maps = [
        &mut schema.properties,
        &mut schema.pattern_properties,
        &mut schema.definitions,
    ];
    for map in maps.into_iter().flatten() {
        map.values_mut().for_each(bound);
    }
    let lists = [&mut schema.all_of, &mut schema.any_of, &mut schema.one_of];
    for list in lists.into_iter().flatten() {
        list.iter_mut().for_each(bound);
    }
    if let Some(not) = &mut schema.not {
        bound(not);
    }
    match &mut schema.items {
        Some(JSONSchemaPropsOrArray::Schema(items)) => bound(items),
        Some(JSONSchemaPropsOrArray::Schemas(items)) => items.iter_mut().for_each(bound),
        None => {}
    }
    for more in [&mut schema.additional_properties, &mut schema.additional_items] {
        if let Some(JSONSchemaPropsOrBool::Schema(more)) = more {
            bound(more);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn integer_fields_everywhere_get_their_types_range_and_tighter_bounds_stay() {
        let schema: JSONSchemaProps = serde_json::from_value(json!({
            "type": "object",
            "properties": {
                "replicas": {"type": "integer", "format": "int32", "nullable": true},
                "weight": {"type": "integer", "format": "uint32", "minimum": 0.0},
                "port": {"type": "integer", "format": "int32", "minimum": 1.0, "maximum": 65535.0},
                "ports": {"type": "array", "items": {"type": "integer", "format": "uint16"}},
                "limits": {"type": "object", "additionalProperties": {"type": "integer", "format": "int64"}},
                "size": {"type": "integer", "format": "uint64", "minimum": 0.0},
                "ratio": {"type": "number", "format": "double"},
                "either": {"anyOf": [{"type": "integer", "format": "int8"}, {"type": "string"}]},
            },
        }))
        .unwrap();
        let mut crd = CustomResourceDefinition::default();
        crd.spec.versions = vec![
            serde_json::from_value(json!({
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema},
            }))
            .unwrap(),
        ];
        bound_integers(&mut crd);
        let schema = serde_json::to_value(&crd.spec.versions[0].schema).unwrap()["openAPIV3Schema"].clone();
        let field = |path: &str| schema.pointer(path).cloned().unwrap_or_default();
        let bounds = |path: &str| (field(&format!("{path}/minimum")), field(&format!("{path}/maximum")));
        assert_eq!(
            bounds("/properties/replicas"),
            (json!(-2_147_483_648.0), json!(2_147_483_647.0))
        );
        assert_eq!(bounds("/properties/weight"), (json!(0.0), json!(4_294_967_295.0)));
        assert_eq!(
            bounds("/properties/port"),
            (json!(1.0), json!(65535.0)),
            "tighter bounds stay"
        );
        assert_eq!(bounds("/properties/ports/items"), (json!(0.0), json!(65535.0)));
        assert_eq!(
            bounds("/properties/limits/additionalProperties"),
            (json!(-9_223_372_036_854_774_784.0), json!(9_223_372_036_854_774_784.0))
        );
        assert_eq!(bounds("/properties/size"), (json!(0.0), Value::Null));
        assert_eq!(bounds("/properties/ratio"), (Value::Null, Value::Null));
        assert_eq!(bounds("/properties/either/anyOf/0"), (json!(-128.0), json!(127.0)));
    }
}
