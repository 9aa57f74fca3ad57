//! Go values of the types in `types`, decoded from an object's v1 JSON as kube's
//! decoder and its v1-to-internal conversion would fill them.

use serde_json::Value;

use super::types::{Kind, Ty};
use crate::quantity::{Format, Quantity};

/// A Go value; its type travels beside it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Val {
    /// A nil pointer, slice or map.
    Nil,
    Bool(bool),
    Int(i64),
    Str(String),
    Slice(Vec<Val>),
    /// Entries in go-cmp's key order (`value.SortKeys`).
    Map(Vec<(Val, Val)>),
    Ptr(Box<Val>),
    /// Fields in declaration order.
    Struct(Vec<Val>),
}

/// Where a value was decoded from: the stored object went through protobuf, which
/// has no empty list or map (they come back nil); a request's JSON keeps `[]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    Storage,
    Request,
}

impl Val {
    /// The value of type `ty` that `json` (absent when `None`) decodes to.
    pub(super) fn decode(json: Option<&Value>, ty: &'static Ty, source: Source) -> Val {
        let json = json.filter(|value| !value.is_null());
        match ty.name {
            "resource.Quantity" => return json.map_or_else(|| Val::zero(ty), quantity),
            "intstr.IntOrString" => {
                return match json {
                    Some(Value::String(text)) => Val::Struct(vec![Val::Int(1), Val::Int(0), Val::Str(text.clone())]),
                    Some(Value::Number(number)) => Val::Struct(vec![
                        Val::Int(0),
                        Val::Int(number.as_i64().unwrap_or_default()),
                        Val::Str(String::new()),
                    ]),
                    _ => Val::zero(ty),
                };
            }
            _ => {}
        }
        match (&ty.kind, json) {
            (Kind::Bool, value) => Val::Bool(value.and_then(Value::as_bool).unwrap_or_default()),
            (Kind::Int, value) => Val::Int(value.and_then(Value::as_i64).unwrap_or_default()),
            (Kind::String, value) => Val::Str(value.and_then(Value::as_str).unwrap_or_default().to_owned()),
            (Kind::Ptr(elem), Some(value)) => Val::Ptr(Box::new(Val::decode(Some(value), elem, source))),
            (Kind::Slice(elem), Some(Value::Array(items))) if !(items.is_empty() && source == Source::Storage) => {
                Val::Slice(items.iter().map(|item| Val::decode(Some(item), elem, source)).collect())
            }
            (Kind::Map(key, value), Some(Value::Object(entries)))
                if !(entries.is_empty() && source == Source::Storage) =>
            {
                // JSON object keys are strings, whose order is the bytes' order, as
                // go-cmp sorts them.
                let mut map: Vec<(Val, Val)> = entries
                    .iter()
                    .map(|(name, item)| {
                        (
                            Val::decode(Some(&Value::String(name.clone())), key, source),
                            Val::decode(Some(item), value, source),
                        )
                    })
                    .collect();
                map.sort_by(|(a, _), (b, _)| a.key_order(b));
                Val::Map(map)
            }
            (Kind::Struct(fields), Some(Value::Object(_))) => Val::Struct(
                fields
                    .iter()
                    .map(|field| {
                        let inner = if field.json.is_empty() {
                            json
                        } else {
                            json.and_then(|object| object.get(field.json))
                        };
                        Val::decode(inner, field.ty, source)
                    })
                    .collect(),
            ),
            (Kind::Struct(_), _) => Val::zero(ty),
            (Kind::Ptr(_) | Kind::Slice(_) | Kind::Map(..), _) => Val::Nil,
        }
    }

    /// Go's zero value of `ty`.
    pub(super) fn zero(ty: &Ty) -> Val {
        match &ty.kind {
            Kind::Bool => Val::Bool(false),
            Kind::Int => Val::Int(0),
            Kind::String => Val::Str(String::new()),
            Kind::Slice(_) | Kind::Map(..) | Kind::Ptr(_) => Val::Nil,
            Kind::Struct(fields) => Val::Struct(fields.iter().map(|field| Val::zero(field.ty)).collect()),
        }
    }

    /// `reflect.Value.IsZero`.
    pub(super) fn is_zero(&self) -> bool {
        match self {
            Val::Nil => true,
            Val::Bool(value) => !value,
            Val::Int(value) => *value == 0,
            Val::Str(value) => value.is_empty(),
            Val::Slice(_) | Val::Map(_) | Val::Ptr(_) => false,
            Val::Struct(fields) => fields.iter().all(Val::is_zero),
        }
    }

    pub(super) fn is_nil(&self) -> bool {
        matches!(self, Val::Nil)
    }

    /// go-cmp's `isLess` for map keys (strings, numbers, booleans here).
    pub(super) fn key_order(&self, other: &Val) -> std::cmp::Ordering {
        match (self, other) {
            (Val::Str(a), Val::Str(b)) => a.cmp(b),
            (Val::Int(a), Val::Int(b)) => a.cmp(b),
            (Val::Bool(a), Val::Bool(b)) => a.cmp(b),
            _ => std::cmp::Ordering::Equal,
        }
    }

    /// A map's value at `key` (its entries are in key order: a binary search, as a
    /// client may send a map of many thousands of entries).
    pub(super) fn entry(&self, key: &Val) -> Option<&Val> {
        match self {
            Val::Map(entries) => entries
                .binary_search_by(|(k, _)| k.key_order(key))
                .ok()
                .map(|index| &entries[index].1),
            _ => None,
        }
    }
}

/// A `resource.Quantity` as `ParseQuantity` leaves it: the `int64Amount` of its fast
/// path or the `inf.Dec` of its slow one, the text when it was already canonical, and
/// the format.
fn quantity(json: &Value) -> Val {
    let parsed = Quantity::from_json(json);
    let (amount, decimal) = match parsed.amount() {
        Some((value, scale)) => (
            Val::Struct(vec![Val::Int(value), Val::Int(i64::from(scale))]),
            Val::Struct(vec![Val::Nil]),
        ),
        None => (
            Val::Struct(vec![Val::Int(0), Val::Int(0)]),
            Val::Struct(vec![Val::Ptr(Box::new(Val::Struct(vec![Val::Str(parsed.decimal())])))]),
        ),
    };
    let format = match parsed.format() {
        Format::DecimalSI => "DecimalSI",
        Format::BinarySI => "BinarySI",
        Format::DecimalExponent => "DecimalExponent",
    };
    // A fifth value beyond the four fields: what `String` returns, for a
    // `*Quantity` printed through `fmt.Stringer`.
    Val::Struct(vec![
        amount,
        decimal,
        Val::Str(parsed.kept().unwrap_or_default().to_owned()),
        Val::Str(format.to_owned()),
        Val::Str(parsed.to_string()),
    ])
}

/// `Quantity.Equal`: the same amount, whatever its format or text.
pub(super) fn quantities_equal(x: &Val, y: &Val) -> bool {
    let (x, y) = (amount_of(x), amount_of(y));
    x.cmp(&y).is_eq()
}

/// The amount a quantity value holds, as a quantity (zero when it holds none).
fn amount_of(quantity: &Val) -> Quantity {
    let text = match quantity {
        Val::Struct(fields) => match (&fields[0], &fields[1]) {
            (_, Val::Struct(dec)) => match dec.first() {
                Some(Val::Ptr(inner)) => match inner.as_ref() {
                    Val::Struct(parts) => match parts.first() {
                        Some(Val::Str(text)) => Some(text.clone()),
                        _ => None,
                    },
                    _ => None,
                },
                _ => match &fields[0] {
                    Val::Struct(amount) => match (&amount[0], &amount[1]) {
                        (Val::Int(value), Val::Int(scale)) => Some(format!("{value}e{scale}")),
                        _ => None,
                    },
                    _ => None,
                },
            },
            _ => None,
        },
        _ => None,
    };
    text.and_then(|text| Quantity::parse(&text).ok())
        .unwrap_or_else(Quantity::zero)
}
