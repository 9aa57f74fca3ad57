//! Go types as `reflect` describes them to go-cmp: a kind, a name when the type is
//! named, and the two methods go-cmp looks for (`Equal`, and `String` through
//! `fmt.Stringer`). Built once from the tables of kube's internal types.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::tables::{NAMED, STRUCTS};

/// One Go type.
#[derive(Debug)]
pub(super) struct Ty {
    /// `t.String()` of a named type (`core.PodSpec`); empty for an unnamed one.
    pub(super) name: &'static str,
    pub(super) kind: Kind,
    /// Whether go-cmp compares its values with their `Equal` method.
    pub(super) equal: bool,
    /// What its `String` method prints, when a value of it is a `fmt.Stringer`.
    pub(super) stringer: Option<Stringer>,
}

/// `reflect.Kind`, with what each kind holds.
#[derive(Debug)]
pub(super) enum Kind {
    Bool,
    Int,
    String,
    Slice(&'static Ty),
    Map(&'static Ty, &'static Ty),
    Ptr(&'static Ty),
    Struct(Vec<Field>),
}

/// A struct field: its Go name, the v1 JSON key it is decoded from (`""` for an
/// embedded struct) and its type.
#[derive(Debug)]
pub(super) struct Field {
    pub(super) name: &'static str,
    pub(super) json: &'static str,
    pub(super) ty: &'static Ty,
}

/// The `String` methods of the types in the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stringer {
    /// `core.ResourceName`: the string itself.
    Identity,
    /// `*metav1.LabelSelector`: gogo-protobuf's generated `String`.
    LabelSelector,
    /// `resource.infDecAmount` (its embedded `*inf.Dec`): the decimal.
    Decimal,
    /// `*resource.Quantity`: the canonical form.
    Quantity,
}

impl Ty {
    /// The named type `name` (`core.PodSpec`), if the tables hold it.
    pub(super) fn named(name: &str) -> Option<&'static Ty> {
        REGISTRY.get(name).copied()
    }

    pub(super) fn is_named(&self) -> bool {
        !self.name.is_empty()
    }

    /// Go's `reflect.Type.String()`, which go-cmp prints for a value's type.
    pub(super) fn type_string(&self) -> String {
        if self.is_named() {
            return self.name.to_owned();
        }
        match &self.kind {
            Kind::Slice(elem) => format!("[]{}", elem.type_string()),
            Kind::Map(key, value) => format!("map[{}]{}", key.type_string(), value.type_string()),
            Kind::Ptr(elem) => format!("*{}", elem.type_string()),
            Kind::Struct(_) => "struct{}".to_owned(),
            Kind::Bool => "bool".to_owned(),
            Kind::Int => "int".to_owned(),
            Kind::String => "string".to_owned(),
        }
    }
}

static REGISTRY: LazyLock<HashMap<String, &'static Ty>> = LazyLock::new(|| {
    let mut registry = Registry::default();
    for (name, _) in STRUCTS {
        registry.parse(name);
    }
    for (name, _) in NAMED {
        registry.parse(name);
    }
    registry.types
});

/// Types parsed so far, each leaked once: the set is fixed by the tables, so the
/// memory is bounded and lives as long as the process, as Go's type descriptors do.
#[derive(Default)]
struct Registry {
    types: HashMap<String, &'static Ty>,
}

impl Registry {
    fn parse(&mut self, expr: &str) -> &'static Ty {
        if let Some(ty) = self.types.get(expr).copied() {
            return ty;
        }
        let ty = self.build(expr);
        let ty: &'static Ty = Box::leak(Box::new(ty));
        self.types.insert(expr.to_owned(), ty);
        ty
    }

    #[expect(clippy::too_many_lines, reason = "one match over the kinds of type expression")]
    fn build(&mut self, expr: &str) -> Ty {
        let unnamed = |kind| Ty {
            name: "",
            kind,
            equal: false,
            stringer: None,
        };
        if let Some(elem) = expr.strip_prefix('*') {
            let stringer = match elem {
                "v1.LabelSelector" => Some(Stringer::LabelSelector),
                "resource.Quantity" => Some(Stringer::Quantity),
                _ => None,
            };
            return Ty {
                stringer,
                ..unnamed(Kind::Ptr(self.parse(elem)))
            };
        }
        if let Some(elem) = expr.strip_prefix("[]") {
            return unnamed(Kind::Slice(self.parse(elem)));
        }
        if let Some(rest) = expr.strip_prefix("map[") {
            let mut depth = 1;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '[' => 1,
                        ']' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(rest.len(), |(index, _)| index);
            let key = self.parse(&rest[..end]);
            let value = self.parse(rest.get(end + 1..).unwrap_or("string"));
            return unnamed(Kind::Map(key, value));
        }
        match expr {
            // Go's basic types are named types too (`reflect.Type.Name()`).
            "bool" => {
                return Ty {
                    name: "bool",
                    ..unnamed(Kind::Bool)
                };
            }
            "string" => {
                return Ty {
                    name: "string",
                    ..unnamed(Kind::String)
                };
            }
            "int" | "int32" | "int64" | "byte" | "uint8" => {
                return Ty {
                    name: leak(expr),
                    ..unnamed(Kind::Int)
                };
            }
            _ => {}
        }
        let name = leak(expr);
        let named = |kind| Ty { name, ..unnamed(kind) };
        if let Some((_, fields)) = STRUCTS.iter().find(|(struct_name, _)| *struct_name == expr) {
            let fields = fields
                .iter()
                .map(|&(name, json, ty)| Field {
                    name,
                    json,
                    ty: self.parse(ty),
                })
                .collect();
            return named(Kind::Struct(fields));
        }
        if let Some((_, underlying)) = NAMED.iter().find(|(named_name, _)| *named_name == expr) {
            let kind = match &self.parse(underlying).kind {
                Kind::Slice(elem) => Kind::Slice(elem),
                Kind::Map(key, value) => Kind::Map(key, value),
                Kind::Ptr(elem) => Kind::Ptr(elem),
                Kind::Bool => Kind::Bool,
                Kind::Int => Kind::Int,
                Kind::String | Kind::Struct(_) => Kind::String,
            };
            let stringer = (expr == "core.ResourceName").then_some(Stringer::Identity);
            return Ty {
                stringer,
                ..named(kind)
            };
        }
        match expr {
            "resource.Quantity" => Ty {
                equal: true,
                ..named(Kind::Struct(vec![
                    self.field("i", "resource.int64Amount"),
                    self.field("d", "resource.infDecAmount"),
                    self.field("s", "string"),
                    self.field("Format", "resource.Format"),
                ]))
            },
            "resource.int64Amount" => named(Kind::Struct(vec![
                self.field("value", "int64"),
                self.field("scale", "resource.Scale"),
            ])),
            // It embeds `*inf.Dec`, whose `String` it so has.
            "resource.infDecAmount" => Ty {
                stringer: Some(Stringer::Decimal),
                ..named(Kind::Struct(vec![self.field("Dec", "*inf.Dec")]))
            },
            // Its unscaled `big.Int` and scale, held here as the decimal they make,
            // which is what its `String` prints.
            "inf.Dec" => named(Kind::Struct(vec![self.field("decimal", "string")])),
            "intstr.IntOrString" => named(Kind::Struct(vec![
                self.field("Type", "intstr.Type"),
                self.field("IntVal", "int32"),
                self.field("StrVal", "string"),
            ])),
            "resource.Scale" | "intstr.Type" => named(Kind::Int),
            // `metav1.Time` is a struct around `time.Time`; the specs compared here
            // hold it only in an ephemeral volume's claim template metadata, printed
            // as its string.
            "v1.Time" => Ty {
                stringer: Some(Stringer::Identity),
                ..named(Kind::String)
            },
            // `types.UID`, `resource.Format` and anything else named: strings.
            _ => named(Kind::String),
        }
    }

    fn field(&mut self, name: &'static str, ty: &str) -> Field {
        Field {
            name,
            json: name,
            ty: self.parse(ty),
        }
    }
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}
