//! IP addresses and CIDRs in CEL (`ip('10.0.0.1').family()`, `isIP`, `ip.isCanonical`,
//! `cidr('10.0.0.0/8').containsIP(...)`, `isCIDR`, `prefixLength`, `masked`, ...), as
//! kube-apiserver's `k8s.io/apiserver/pkg/cel/library/ip.go` and `cidr.go` offer them
//! (Go's `netip` parsing: no zones, no IPv4-mapped IPv6, no leading zeros).

use std::net::IpAddr;
use std::sync::Arc;

use cel::common::types::{STRING_TYPE, Type};
use cel::objects::Opaque;
use cel::{Env, ExecutionError, Value};

use super::overload::{error, overload, type_name};

/// The CEL type name of an IP address.
pub(crate) const IP_TYPE: &str = "net.IP";
/// The CEL type name of a CIDR.
pub(crate) const CIDR_TYPE: &str = "net.CIDR";

/// An IP address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ip(IpAddr);

impl Opaque for Ip {
    fn runtime_type_name(&self) -> &str {
        IP_TYPE
    }
}

/// A CIDR: an address (as written) and a prefix length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cidr {
    address: IpAddr,
    bits: u8,
}

impl Opaque for Cidr {
    fn runtime_type_name(&self) -> &str {
        CIDR_TYPE
    }
}

/// `parseIPAddr`.
fn parse_ip(raw: &str) -> Result<IpAddr, String> {
    let address: IpAddr = raw
        .parse()
        .map_err(|e| format!("IP Address {raw:?} parse error during conversion from string: {e}"))?;
    if let IpAddr::V6(v6) = address
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
    }
    Ok(address)
}

/// `parseCIDR`.
fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let invalid = |why: &str| {
        format!("network address parse error during conversion from string: netip.ParsePrefix({raw:?}): {why}")
    };
    let (address, bits) = raw.split_once('/').ok_or_else(|| invalid("no '/'"))?;
    let address: IpAddr = address.parse().map_err(|e| invalid(&format!("{e}")))?;
    let bits: u8 = bits.parse().map_err(|_| invalid("bad bits after slash"))?;
    let max = if address.is_ipv4() { 32 } else { 128 };
    if bits > max {
        return Err(invalid("prefix length out of range"));
    }
    if let IpAddr::V6(v6) = address
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
    }
    Ok(Cidr { address, bits })
}

/// The address as a number and its width in bits.
fn number(address: IpAddr) -> (u128, u8) {
    match address {
        IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
        IpAddr::V6(v6) => (u128::from(v6), 128),
    }
}

impl Cidr {
    /// The address with the bits past the prefix cleared.
    fn masked(self) -> Self {
        let (value, width) = number(self.address);
        let host_bits = u32::from(width - self.bits);
        let mask = if host_bits >= 128 { 0 } else { u128::MAX << host_bits };
        let masked = value & mask;
        let address = match self.address {
            IpAddr::V4(_) => IpAddr::V4(u32::try_from(masked).unwrap_or_default().into()),
            IpAddr::V6(_) => IpAddr::V6(masked.into()),
        };
        Self {
            address,
            bits: self.bits,
        }
    }

    fn contains(self, address: IpAddr) -> bool {
        self.address.is_ipv4() == address.is_ipv4()
            && Self {
                address,
                bits: self.bits,
            }
            .masked()
            .address
                == self.masked().address
    }
}

fn text<'a>(function: &str, value: &'a Value) -> Result<&'a str, ExecutionError> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(ExecutionError::no_such_overload(function, vec![type_name(other)])),
    }
}

fn ip_of(function: &str, value: &Value) -> Result<IpAddr, ExecutionError> {
    match value {
        Value::Opaque(opaque) => opaque.downcast_ref::<Ip>().map(|ip| ip.0),
        Value::String(raw) if function == "containsIP" => parse_ip(raw).ok(),
        _ => None,
    }
    .ok_or_else(|| match value {
        Value::String(raw) => error(function, parse_ip(raw).err().unwrap_or_default()),
        other => ExecutionError::no_such_overload(function, vec![type_name(other)]),
    })
}

fn cidr_of(function: &str, value: &Value) -> Result<Cidr, ExecutionError> {
    match value {
        Value::Opaque(opaque) => opaque
            .downcast_ref::<Cidr>()
            .copied()
            .ok_or_else(|| ExecutionError::no_such_overload(function, vec![type_name(value)])),
        Value::String(raw) => parse_cidr(raw).map_err(|e| error(function, e)),
        other => Err(ExecutionError::no_such_overload(function, vec![type_name(other)])),
    }
}

fn ip(args: &[Value]) -> Result<Value, ExecutionError> {
    if let Ok(cidr) = cidr_of("ip", &args[0])
        && matches!(args[0], Value::Opaque(_))
    {
        return Ok(Value::Opaque(Arc::new(Ip(cidr.address))));
    }
    let raw = text("ip", &args[0])?;
    parse_ip(raw)
        .map(|address| Value::Opaque(Arc::new(Ip(address))))
        .map_err(|e| error("ip", e))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "every overload has the signature `overload!` wraps"
)]
fn is_ip(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        matches!(&args[0], Value::String(raw) if parse_ip(raw).is_ok()),
    ))
}

fn is_canonical(args: &[Value]) -> Result<Value, ExecutionError> {
    let raw = text("ip.isCanonical", &args[0])?;
    let address = parse_ip(raw).map_err(|e| error("ip.isCanonical", e))?;
    Ok(Value::Bool(address.to_string() == raw))
}

fn family(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Int(if ip_of("family", &args[0])?.is_ipv4() { 4 } else { 6 }))
}

fn is_unspecified(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(ip_of("isUnspecified", &args[0])?.is_unspecified()))
}

fn is_loopback(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(ip_of("isLoopback", &args[0])?.is_loopback()))
}

fn is_link_local_multicast(args: &[Value]) -> Result<Value, ExecutionError> {
    let local = match ip_of("isLinkLocalMulticast", &args[0])? {
        IpAddr::V4(v4) => v4.octets()[..3] == [224, 0, 0],
        IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
    };
    Ok(Value::Bool(local))
}

fn link_local_unicast(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => v4.octets()[..2] == [169, 254],
        IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
    }
}

fn is_link_local_unicast(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(link_local_unicast(ip_of("isLinkLocalUnicast", &args[0])?)))
}

/// Go's `IsGlobalUnicast`: private and ULA addresses count as global.
fn is_global_unicast(args: &[Value]) -> Result<Value, ExecutionError> {
    let address = ip_of("isGlobalUnicast", &args[0])?;
    let broadcast = matches!(address, IpAddr::V4(v4) if v4.is_broadcast());
    let global = !address.is_unspecified()
        && !broadcast
        && !address.is_loopback()
        && !address.is_multicast()
        && !link_local_unicast(address);
    Ok(Value::Bool(global))
}

fn ip_string(args: &[Value]) -> Result<Value, ExecutionError> {
    match &args[0] {
        Value::Opaque(opaque) if opaque.downcast_ref::<Ip>().is_some() => {
            Ok(Value::from(ip_of("string", &args[0])?.to_string()))
        }
        other => {
            let cidr = cidr_of("string", other)?;
            Ok(Value::from(format!("{}/{}", cidr.address, cidr.bits)))
        }
    }
}

fn cidr(args: &[Value]) -> Result<Value, ExecutionError> {
    let raw = text("cidr", &args[0])?;
    parse_cidr(raw)
        .map(|cidr| Value::Opaque(Arc::new(cidr)))
        .map_err(|e| error("cidr", e))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "every overload has the signature `overload!` wraps"
)]
fn is_cidr(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        matches!(&args[0], Value::String(raw) if parse_cidr(raw).is_ok()),
    ))
}

fn contains_ip(args: &[Value]) -> Result<Value, ExecutionError> {
    let cidr = cidr_of("containsIP", &args[0])?;
    Ok(Value::Bool(cidr.contains(ip_of("containsIP", &args[1])?)))
}

fn contains_cidr(args: &[Value]) -> Result<Value, ExecutionError> {
    let cidr = cidr_of("containsCIDR", &args[0])?;
    let other = cidr_of("containsCIDR", &args[1])?;
    Ok(Value::Bool(cidr.bits <= other.bits && cidr.contains(other.address)))
}

fn prefix_length(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Int(i64::from(cidr_of("prefixLength", &args[0])?.bits)))
}

fn masked(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Opaque(Arc::new(cidr_of("masked", &args[0])?.masked())))
}

/// Declares the IP and CIDR functions.
pub(super) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    let ip_type = || Type::new_opaque_type(IP_TYPE);
    let cidr_type = || Type::new_opaque_type(CIDR_TYPE);
    env.add_overload("ip", "string_to_ip", vec![STRING_TYPE], overload!(ip))?;
    env.add_overload("isIP", "is_ip", vec![STRING_TYPE], overload!(is_ip))?;
    env.add_overload(
        "ip.isCanonical",
        "ip_is_canonical",
        vec![STRING_TYPE],
        overload!(is_canonical),
    )?;
    env.add_overload("string", "ip_to_string", vec![ip_type()], overload!(ip_string))?;
    env.add_overload("cidr", "string_to_cidr", vec![STRING_TYPE], overload!(cidr))?;
    env.add_overload("isCIDR", "is_cidr", vec![STRING_TYPE], overload!(is_cidr))?;
    env.add_overload("string", "cidr_to_string", vec![cidr_type()], overload!(ip_string))?;
    let ip_methods: [(&str, cel::common::functions::Function); 6] = [
        ("family", overload!(family)),
        ("isUnspecified", overload!(is_unspecified)),
        ("isLoopback", overload!(is_loopback)),
        ("isLinkLocalMulticast", overload!(is_link_local_multicast)),
        ("isLinkLocalUnicast", overload!(is_link_local_unicast)),
        ("isGlobalUnicast", overload!(is_global_unicast)),
    ];
    for (name, function) in ip_methods {
        env.add_member_overload(name, &format!("ip_{name}"), ip_type(), vec![], function)?;
    }
    env.add_member_overload(
        "containsIP",
        "cidr_contains_ip_string",
        cidr_type(),
        vec![STRING_TYPE],
        overload!(contains_ip),
    )?;
    env.add_member_overload(
        "containsIP",
        "cidr_contains_ip_ip",
        cidr_type(),
        vec![ip_type()],
        overload!(contains_ip),
    )?;
    env.add_member_overload(
        "containsCIDR",
        "cidr_contains_cidr_string",
        cidr_type(),
        vec![STRING_TYPE],
        overload!(contains_cidr),
    )?;
    env.add_member_overload(
        "containsCIDR",
        "cidr_contains_cidr",
        cidr_type(),
        vec![cidr_type()],
        overload!(contains_cidr),
    )?;
    env.add_member_overload("ip", "cidr_ip", cidr_type(), vec![], overload!(ip))?;
    env.add_member_overload(
        "prefixLength",
        "cidr_prefix_length",
        cidr_type(),
        vec![],
        overload!(prefix_length),
    )?;
    env.add_member_overload("masked", "cidr_masked", cidr_type(), vec![], overload!(masked))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::library::tests::eval;
    use super::*;

    #[test]
    fn addresses_and_networks_as_kubernetes_sees_them() {
        let yes = |source: &str| assert_eq!(eval(source), Ok(Value::Bool(true)), "{source}");
        yes(
            "isIP('10.0.0.1') && isIP('fd00::1') && !isIP('10.0.0.01') && !isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0')",
        );
        yes("ip('10.0.0.1').family() == 4 && ip('::1').family() == 6 && ip('::1').isLoopback()");
        yes("ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')");
        yes(
            "ip('0.0.0.0').isUnspecified() && ip('169.254.1.1').isLinkLocalUnicast() && ip('224.0.0.1').isLinkLocalMulticast()",
        );
        yes(
            "ip('10.0.0.1').isGlobalUnicast() && !ip('127.0.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()",
        );
        yes("string(ip('10.0.0.1')) == '10.0.0.1' && ip('10.0.0.1') == ip('10.0.0.1')");
        yes("isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0')");
        yes("cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))");
        yes("cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')");
        yes("cidr('10.1.2.3/8').prefixLength() == 8 && string(cidr('10.1.2.3/8').masked()) == '10.0.0.0/8'");
        yes("cidr('10.1.2.3/8').ip() == ip('10.1.2.3')");
        assert!(eval("ip('nope')").is_err());
    }
}
