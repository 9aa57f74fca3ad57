//! The signatures of the functions and operators rules may call, for type checking
//! (the declarations cel-go's checker resolves calls against, with kube-apiserver's
//! libraries), and what each call costs in cel-go's estimate (`checker/cost.go`, with
//! kube-apiserver's `pkg/cel/library/cost.go`): linear in the size of the strings and
//! lists it walks.

use super::types::{Decl, MAX_REQUEST_BYTES, Ty};

/// What an argument must be.
#[derive(Debug, Clone, Copy, PartialEq)]
enum P {
    Any,
    Int,
    Uint,
    Double,
    Number,
    String,
    Bytes,
    Bool,
    Duration,
    Timestamp,
    List,
    Map,
    Url,
    Quantity,
    /// A quantity or an int (`add`, `sub`).
    QuantityOrInt,
    Ip,
    Cidr,
    /// An IP or its string (`containsIP`).
    IpOrString,
    /// A CIDR or its string (`containsCIDR`).
    CidrOrString,
    Optional,
}

fn fits(ty: &Ty, pattern: P) -> bool {
    matches!(ty, Ty::Dyn)
        || match pattern {
            P::Any => true,
            P::Int => matches!(ty, Ty::Int),
            P::Uint => matches!(ty, Ty::Uint),
            P::Double => matches!(ty, Ty::Double),
            P::Number => matches!(ty, Ty::Int | Ty::Uint | Ty::Double),
            P::String => matches!(ty, Ty::String),
            P::Bytes => matches!(ty, Ty::Bytes),
            P::Bool => matches!(ty, Ty::Bool),
            P::Duration => matches!(ty, Ty::Duration),
            P::Timestamp => matches!(ty, Ty::Timestamp),
            P::List => matches!(ty, Ty::List(_)),
            P::Map => matches!(ty, Ty::Map(..)),
            P::Url => matches!(ty, Ty::Opaque(super::urls::URL_TYPE)),
            P::Quantity => matches!(ty, Ty::Opaque(super::quantity::QUANTITY_TYPE)),
            P::QuantityOrInt => matches!(ty, Ty::Int | Ty::Opaque(super::quantity::QUANTITY_TYPE)),
            P::Ip => matches!(ty, Ty::Opaque(super::network::IP_TYPE)),
            P::Cidr => matches!(ty, Ty::Opaque(super::network::CIDR_TYPE)),
            P::IpOrString => matches!(ty, Ty::String | Ty::Opaque(super::network::IP_TYPE)),
            P::CidrOrString => matches!(ty, Ty::String | Ty::Opaque(super::network::CIDR_TYPE)),
            P::Optional => matches!(ty, Ty::Optional(_)),
        }
}

/// What a call gives.
#[derive(Debug, Clone, Copy)]
enum R {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    Type,
    Dyn,
    /// The receiver's type (`sort`, `distinct`).
    Target,
    /// The element type of the receiver list (`min`, `sum`).
    Element,
    /// Two lists joined: the one whose element type is known.
    Lists,
    /// A list of strings (`split`, `findAll`).
    Strings,
    Url,
    Quantity,
    Ip,
    Cidr,
    /// `getQuery`: a map of string lists.
    Query,
    /// The value inside the receiver optional.
    Inner,
    /// An optional of the first argument.
    OptionalOfFirst,
    /// An empty optional.
    OptionalNone,
    /// What a two-variable comprehension's first variable ranges over: a list's
    /// indices, a map's keys.
    Keys,
}

/// How a call's cost grows.
#[derive(Debug, Clone, Copy)]
enum C {
    /// A fixed cost.
    Fixed,
    /// Walks the receiver (or first argument) string: 0.1 per byte.
    Text,
    /// Walks the receiver (or first argument) list.
    Items,
    /// A regular expression over a string.
    Regex,
}

struct Sig {
    target: Option<P>,
    args: &'static [P],
    result: R,
    cost: C,
}

const fn member(target: P, args: &'static [P], result: R, cost: C) -> Sig {
    Sig {
        target: Some(target),
        args,
        result,
        cost,
    }
}

const fn global(args: &'static [P], result: R, cost: C) -> Sig {
    Sig {
        target: None,
        args,
        result,
        cost,
    }
}

/// The Kubernetes CEL functions this server does not evaluate: a rule using one is
/// refused when its CRD is created, with a message saying so.
pub(crate) const UNSUPPORTED: [&str; 5] = [
    "semver",
    "isSemver",
    "format.named",
    "authorizer",
    "jsonpatch.escapeKey",
];

#[expect(clippy::too_many_lines, reason = "one table of the whole CEL vocabulary")]
fn signatures(name: &str) -> Option<Vec<Sig>> {
    use P::{Any, Bool, Bytes, Double, Duration, Int, List, Map, Number, String, Timestamp, Uint};
    let comparable = || {
        vec![
            global(&[Number, Number], R::Bool, C::Fixed),
            global(&[String, String], R::Bool, C::Text),
            global(&[Bytes, Bytes], R::Bool, C::Text),
            global(&[Bool, Bool], R::Bool, C::Fixed),
            global(&[Timestamp, Timestamp], R::Bool, C::Fixed),
            global(&[Duration, Duration], R::Bool, C::Fixed),
        ]
    };
    let arithmetic = |extra: Vec<Sig>| {
        let mut sigs = vec![
            global(&[Int, Int], R::Int, C::Fixed),
            global(&[Uint, Uint], R::Uint, C::Fixed),
            global(&[Double, Double], R::Double, C::Fixed),
        ];
        sigs.extend(extra);
        sigs
    };
    let time_getter = || {
        vec![
            member(Timestamp, &[], R::Int, C::Fixed),
            member(Timestamp, &[String], R::Int, C::Fixed),
            member(Duration, &[], R::Int, C::Fixed),
        ]
    };
    let sigs = match name {
        "_<_" | "_<=_" | "_>_" | "_>=_" => comparable(),
        "_+_" => arithmetic(vec![
            global(&[String, String], R::String, C::Text),
            global(&[Bytes, Bytes], R::Bytes, C::Text),
            global(&[List, List], R::Lists, C::Items),
            global(&[Timestamp, Duration], R::Timestamp, C::Fixed),
            global(&[Duration, Timestamp], R::Timestamp, C::Fixed),
            global(&[Duration, Duration], R::Duration, C::Fixed),
        ]),
        "_-_" => arithmetic(vec![
            global(&[Timestamp, Timestamp], R::Duration, C::Fixed),
            global(&[Timestamp, Duration], R::Timestamp, C::Fixed),
            global(&[Duration, Duration], R::Duration, C::Fixed),
        ]),
        "_*_" | "_/_" => arithmetic(Vec::new()),
        "_%_" => vec![
            global(&[Int, Int], R::Int, C::Fixed),
            global(&[Uint, Uint], R::Uint, C::Fixed),
        ],
        "-_" => vec![global(&[Int], R::Int, C::Fixed), global(&[Double], R::Double, C::Fixed)],
        "!_" | "@not_strictly_false" => vec![global(&[Bool], R::Bool, C::Fixed)],
        "size" => vec![
            global(&[String], R::Int, C::Fixed),
            global(&[Bytes], R::Int, C::Fixed),
            global(&[List], R::Int, C::Fixed),
            global(&[Map], R::Int, C::Fixed),
            member(String, &[], R::Int, C::Fixed),
            member(Bytes, &[], R::Int, C::Fixed),
            member(List, &[], R::Int, C::Fixed),
            member(Map, &[], R::Int, C::Fixed),
        ],
        "contains" | "startsWith" | "endsWith" => vec![member(String, &[String], R::Bool, C::Text)],
        "matches" => vec![
            member(String, &[String], R::Bool, C::Regex),
            global(&[String, String], R::Bool, C::Regex),
        ],
        "int" => vec![global(&[Any], R::Int, C::Fixed)],
        "uint" => vec![global(&[Any], R::Uint, C::Fixed)],
        "double" => vec![global(&[Any], R::Double, C::Fixed)],
        "string" => vec![global(&[Any], R::String, C::Text)],
        "bytes" => vec![global(&[Any], R::Bytes, C::Text)],
        "bool" => vec![global(&[Any], R::Bool, C::Fixed)],
        "duration" => vec![global(&[String], R::Duration, C::Fixed)],
        "timestamp" => vec![global(&[Any], R::Timestamp, C::Fixed)],
        "type" => vec![global(&[Any], R::Type, C::Fixed)],
        "dyn" => vec![global(&[Any], R::Dyn, C::Fixed)],
        "getFullYear" | "getMonth" | "getDayOfMonth" | "getDate" | "getDayOfWeek" | "getDayOfYear" => vec![
            member(Timestamp, &[], R::Int, C::Fixed),
            member(Timestamp, &[String], R::Int, C::Fixed),
        ],
        "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds" => time_getter(),
        "charAt" => vec![member(String, &[Int], R::String, C::Text)],
        "indexOf" | "lastIndexOf" => vec![
            member(String, &[String], R::Int, C::Text),
            member(String, &[String, Int], R::Int, C::Text),
            member(List, &[Any], R::Int, C::Items),
        ],
        "lowerAscii" | "upperAscii" | "trim" | "reverse" => vec![
            member(String, &[], R::String, C::Text),
            member(List, &[], R::Target, C::Items),
        ],
        "replace" => vec![
            member(String, &[String, String], R::String, C::Text),
            member(String, &[String, String, Int], R::String, C::Text),
        ],
        "split" => vec![
            member(String, &[String], R::Strings, C::Text),
            member(String, &[String, Int], R::Strings, C::Text),
        ],
        "substring" => vec![
            member(String, &[Int], R::String, C::Text),
            member(String, &[Int, Int], R::String, C::Text),
        ],
        "join" => vec![
            member(List, &[], R::String, C::Items),
            member(List, &[String], R::String, C::Items),
        ],
        "format" => vec![member(String, &[List], R::String, C::Text)],
        "strings.quote" => vec![global(&[String], R::String, C::Text)],
        "lists.range" => vec![global(&[Int], R::Target, C::Fixed)],
        "isSorted" => vec![member(List, &[], R::Bool, C::Items)],
        "sum" | "min" | "max" => vec![member(List, &[], R::Element, C::Items)],
        "slice" => vec![member(List, &[Int, Int], R::Target, C::Items)],
        "flatten" => vec![
            member(List, &[], R::Target, C::Items),
            member(List, &[Int], R::Target, C::Items),
        ],
        "distinct" | "sort" => vec![member(List, &[], R::Target, C::Items)],
        "@sortByAssociatedKeys" => vec![member(List, &[List], R::Target, C::Items)],
        "find" => vec![member(String, &[String], R::String, C::Regex)],
        "findAll" => vec![
            member(String, &[String], R::Strings, C::Regex),
            member(String, &[String, Int], R::Strings, C::Regex),
        ],
        "sets.contains" | "sets.equivalent" | "sets.intersects" => {
            vec![global(&[List, List], R::Bool, C::Items)]
        }
        "url" => vec![global(&[String], R::Url, C::Text)],
        "getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath" => {
            vec![member(P::Url, &[], R::String, C::Fixed)]
        }
        "getQuery" => vec![member(P::Url, &[], R::Query, C::Fixed)],
        "quantity" => vec![global(&[String], R::Quantity, C::Text)],
        "isQuantity" | "isURL" | "isIP" | "isCIDR" | "ip.isCanonical" => {
            vec![global(&[String], R::Bool, C::Text)]
        }

        "sign" | "asInteger" => vec![member(P::Quantity, &[], R::Int, C::Fixed)],
        "isInteger" => vec![member(P::Quantity, &[], R::Bool, C::Fixed)],
        "asApproximateFloat" => vec![member(P::Quantity, &[], R::Double, C::Fixed)],
        "add" | "sub" => vec![member(P::Quantity, &[P::QuantityOrInt], R::Quantity, C::Fixed)],
        "compareTo" => vec![member(P::Quantity, &[P::Quantity], R::Int, C::Fixed)],
        "isLessThan" | "isGreaterThan" => vec![member(P::Quantity, &[P::Quantity], R::Bool, C::Fixed)],
        "ip" => vec![global(&[String], R::Ip, C::Text), member(P::Cidr, &[], R::Ip, C::Fixed)],
        "cidr" => vec![global(&[String], R::Cidr, C::Text)],
        "family" => vec![member(P::Ip, &[], R::Int, C::Fixed)],
        "isUnspecified" | "isLoopback" | "isLinkLocalMulticast" | "isLinkLocalUnicast" | "isGlobalUnicast" => {
            vec![member(P::Ip, &[], R::Bool, C::Fixed)]
        }
        "containsIP" => vec![member(P::Cidr, &[P::IpOrString], R::Bool, C::Fixed)],
        "containsCIDR" => vec![member(P::Cidr, &[P::CidrOrString], R::Bool, C::Fixed)],
        "prefixLength" => vec![member(P::Cidr, &[], R::Int, C::Fixed)],
        "masked" => vec![member(P::Cidr, &[], R::Cidr, C::Fixed)],
        super::twovar::KEYS => vec![global(&[List], R::Keys, C::Fixed), global(&[Map], R::Keys, C::Fixed)],
        super::twovar::INSERT => vec![global(&[Map, Any, Any], R::Dyn, C::Fixed)],
        "optional.of" | "optional.ofNonZeroValue" => vec![global(&[Any], R::OptionalOfFirst, C::Fixed)],
        "optional.none" => vec![global(&[], R::OptionalNone, C::Fixed)],
        "hasValue" => vec![member(P::Optional, &[], R::Bool, C::Fixed)],
        "value" => vec![member(P::Optional, &[], R::Inner, C::Fixed)],
        "orValue" => vec![member(P::Optional, &[Any], R::Inner, C::Fixed)],
        "or" => vec![member(P::Optional, &[P::Optional], R::Target, C::Fixed)],
        _ => return None,
    };
    Some(sigs)
}

/// Why a call does not type-check.
pub(crate) enum Mismatch {
    /// No function of that name (`undeclared reference`).
    Undeclared,
    /// A Kubernetes function this server does not evaluate.
    Unsupported,
    /// The function exists, not for these argument types.
    NoOverload,
}

/// The type a call gives and what it costs, or why it does not type-check.
pub(crate) fn resolve(name: &str, target: Option<&Decl>, args: &[Decl]) -> Result<(Decl, u64), Mismatch> {
    if UNSUPPORTED.contains(&name) || name.starts_with("format.") {
        return Err(Mismatch::Unsupported);
    }
    let sigs = signatures(name).ok_or(Mismatch::Undeclared)?;
    let sig = sigs
        .iter()
        .find(|sig| {
            match (sig.target, target) {
                (Some(pattern), Some(target)) if fits(&target.ty, pattern) => {}
                (None, None) => {}
                _ => return false,
            }
            sig.args.len() == args.len() && sig.args.iter().zip(args).all(|(p, a)| fits(&a.ty, *p))
        })
        .ok_or(Mismatch::NoOverload)?;
    let subject = target.or(args.first());
    Ok((result(sig.result, target, args), cost(sig.cost, subject, args)))
}

fn result(result: R, target: Option<&Decl>, args: &[Decl]) -> Decl {
    let text = || {
        Decl::sized(
            Ty::String,
            target
                .or(args.first())
                .map_or(MAX_REQUEST_BYTES, |d| d.max_elements.max(1)),
        )
    };
    match result {
        R::Bool => Decl::new(Ty::Bool),
        R::Int => Decl::new(Ty::Int),
        R::Uint => Decl::new(Ty::Uint),
        R::Double => Decl::new(Ty::Double),
        R::String => text(),
        R::Bytes => Decl::sized(Ty::Bytes, MAX_REQUEST_BYTES),
        R::Duration => Decl::new(Ty::Duration),
        R::Timestamp => Decl::new(Ty::Timestamp),
        R::Type => Decl::new(Ty::Type),
        R::Dyn => Decl::dyn_(),
        R::Target => target.cloned().unwrap_or_else(Decl::dyn_),
        R::Element => match target.map(|t| &t.ty) {
            Some(Ty::List(element)) => (**element).clone(),
            _ => Decl::dyn_(),
        },
        R::Lists => match args {
            [a, b] if matches!(&a.ty, Ty::List(element) if element.ty == Ty::Dyn) => b.clone(),
            _ => args.first().cloned().unwrap_or_else(Decl::dyn_),
        },
        R::Strings => {
            let size = target.map_or(MAX_REQUEST_BYTES, |t| t.max_elements);
            Decl::list(Decl::sized(Ty::String, size), size)
        }
        R::Url => Decl::new(Ty::Opaque(super::urls::URL_TYPE)),
        R::Quantity => Decl::new(Ty::Opaque(super::quantity::QUANTITY_TYPE)),
        R::Ip => Decl::new(Ty::Opaque(super::network::IP_TYPE)),
        R::Cidr => Decl::new(Ty::Opaque(super::network::CIDR_TYPE)),
        R::Query => {
            let strings = Decl::list(Decl::sized(Ty::String, MAX_REQUEST_BYTES), MAX_REQUEST_BYTES);
            Decl::sized(
                Ty::Map(Box::new(Decl::sized(Ty::String, MAX_REQUEST_BYTES)), Box::new(strings)),
                MAX_REQUEST_BYTES,
            )
        }
        R::Inner => match target.map(|t| &t.ty) {
            Some(Ty::Optional(inner)) => (**inner).clone(),
            _ => Decl::dyn_(),
        },
        R::OptionalOfFirst => Decl::new(Ty::Optional(Box::new(args.first().cloned().unwrap_or_else(Decl::dyn_)))),
        R::OptionalNone => Decl::new(Ty::Optional(Box::new(Decl::dyn_()))),
        R::Keys => match args.first() {
            Some(Decl {
                ty: Ty::List(_),
                max_elements,
                ..
            }) => Decl::list(Decl::new(Ty::Int), *max_elements),
            Some(Decl {
                ty: Ty::Map(key, _),
                max_elements,
                ..
            }) => Decl::list((**key).clone(), *max_elements),
            _ => Decl::list(Decl::dyn_(), MAX_REQUEST_BYTES),
        },
    }
}

/// `ceil(size × factor)`, as cel-go rounds its costs.
#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "sizes are at most a few million, far inside f64's exact range"
)]
pub(crate) fn scaled(size: u64, factor: f64) -> u64 {
    (size as f64 * factor).ceil() as u64
}

fn cost(cost: C, subject: Option<&Decl>, args: &[Decl]) -> u64 {
    let size = subject.map_or(0, |d| d.max_elements);
    match cost {
        C::Fixed => 1,
        C::Text => 1 + scaled(size, 0.1),
        C::Items => {
            let per_item = match subject.map(|d| &d.ty) {
                Some(Ty::List(element)) if matches!(element.ty, Ty::String) => 1 + scaled(element.max_elements, 0.1),
                _ => 1,
            };
            1 + size.saturating_mul(per_item)
        }
        C::Regex => {
            let pattern = args.last().map_or(MAX_REQUEST_BYTES, |d| d.max_elements);
            1 + scaled(size + 1, 0.1).saturating_mul(scaled(pattern, 0.25).max(1))
        }
    }
}

/// The equality operators: values of one type, or anything against `dyn` or null.
pub(crate) fn comparable_for_equality(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Dyn | Ty::Null, _) | (_, Ty::Dyn | Ty::Null) | (Ty::Object(_), Ty::Object(_)) => true,
        (Ty::List(x), Ty::List(y)) | (Ty::Optional(x), Ty::Optional(y)) => comparable_for_equality(&x.ty, &y.ty),
        (Ty::Map(k1, v1), Ty::Map(k2, v2)) => {
            comparable_for_equality(&k1.ty, &k2.ty) && comparable_for_equality(&v1.ty, &v2.ty)
        }
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}
