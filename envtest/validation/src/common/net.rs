//! IP addresses and CIDRs as kube parses them: `netutils.ParseIPSloppy` and
//! `ParseCIDRSloppy` (Go's `net.ParseIP`/`ParseCIDR`, which kube lets read IPv4
//! octets with leading zeros as decimal), and `net/netip`'s strict `ParseAddr` and
//! `ParsePrefix`, whose errors kube quotes.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use wheelhouse_envtest_schema::errors::go_quote;

/// `netutils.ParseIPSloppy`: dotted decimal IPv4 (leading zeros allowed) or IPv6
/// (with an optional trailing dotted IPv4), no zone.
pub(crate) fn parse_ip_sloppy(text: &str) -> Option<IpAddr> {
    if text.contains(':') {
        return parse_ipv6(text).map(IpAddr::V6);
    }
    parse_ipv4_sloppy(text).map(IpAddr::V4)
}

fn parse_ipv4_sloppy(text: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut octets = [0_u8; 4];
    for (octet, part) in octets.iter_mut().zip(parts) {
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *octet = part.parse().ok()?;
    }
    Some(Ipv4Addr::from(octets))
}

fn parse_ipv6(text: &str) -> Option<Ipv6Addr> {
    // A trailing IPv4 part may have leading zeros in Go's parser too.
    if let Some((head, tail)) = text.rsplit_once(':')
        && tail.contains('.')
    {
        let v4 = parse_ipv4_sloppy(tail)?;
        return format!("{head}:{v4}").parse().ok();
    }
    text.parse().ok()
}

/// `netutils.ParseCIDRSloppy`: an address and a prefix length within its family;
/// the network address (the address masked) and the length.
pub(crate) fn parse_cidr_sloppy(text: &str) -> Option<(IpAddr, u8)> {
    let (address, length) = text.split_once('/')?;
    if length.is_empty() || length.len() > 3 || !length.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let length: u8 = length.parse().ok()?;
    let ip = parse_ip_sloppy(address)?;
    let bits = if ip.is_ipv4() { 32 } else { 128 };
    if length > bits {
        return None;
    }
    Some((mask(ip, length), length))
}

/// `ip` with all but its first `length` bits cleared.
pub(crate) fn mask(ip: IpAddr, length: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let bits = u32::from(v4);
            let kept = if length == 0 {
                0
            } else {
                u32::MAX << (32 - u32::from(length))
            };
            IpAddr::V4(Ipv4Addr::from(bits & kept))
        }
        IpAddr::V6(v6) => {
            let bits = u128::from(v6);
            let kept = if length == 0 {
                0
            } else {
                u128::MAX << (128 - u32::from(length))
            };
            IpAddr::V6(Ipv6Addr::from(bits & kept))
        }
    }
}

/// Whether the network `cidr` (masked, `length` bits) holds `ip`.
pub(crate) fn contains(cidr: IpAddr, length: u8, ip: IpAddr) -> bool {
    cidr.is_ipv4() == ip.is_ipv4() && mask(ip, length) == cidr
}

/// `netip.ParseAddr`: a canonical-or-not address, strictly (no leading zeros), with
/// Go's error text.
pub(crate) fn parse_addr(text: &str) -> Result<IpAddr, String> {
    let fail = |why: &str| format!("ParseAddr({}): {why}", go_quote(text));
    if text.is_empty() {
        return Err(fail("unable to parse IP"));
    }
    if text.contains(':') {
        if text.contains('%') {
            return text
                .split_once('%')
                .and_then(|(address, _)| address.parse::<Ipv6Addr>().ok())
                .map(IpAddr::V6)
                .ok_or_else(|| fail("unable to parse IP"));
        }
        return text
            .parse::<Ipv6Addr>()
            .map(IpAddr::V6)
            .map_err(|_| fail("unable to parse IP"));
    }
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() < 4 {
        return Err(fail("IPv4 address too short"));
    }
    if parts.len() > 4 {
        return Err(fail("IPv4 address too long"));
    }
    let mut octets = [0_u8; 4];
    for (octet, part) in octets.iter_mut().zip(&parts) {
        if part.is_empty() {
            return Err(fail("IPv4 field must have at least one digit"));
        }
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(fail("unexpected character"));
        }
        if part.len() > 1 && part.starts_with('0') {
            return Err(fail("IPv4 field has octet with leading zero"));
        }
        *octet = part.parse().map_err(|_| fail("IPv4 field has value >255"))?;
    }
    Ok(IpAddr::V4(Ipv4Addr::from(octets)))
}

/// `netip.ParsePrefix`: the address as written and the length, with Go's error text.
pub(crate) fn parse_prefix(text: &str) -> Result<(IpAddr, u8), String> {
    let fail = |why: String| format!("netip.ParsePrefix({}): {why}", go_quote(text));
    let Some((address, length)) = text.rsplit_once('/') else {
        return Err(fail("no '/'".to_owned()));
    };
    let ip = parse_addr(address).map_err(fail)?;
    if address.contains('%') {
        return Err(fail("IPv6 zones cannot be present in a prefix".to_owned()));
    }
    let digits_ok = !length.is_empty()
        && length.bytes().all(|b| b.is_ascii_digit())
        && !(length.len() > 1 && length.starts_with('0'));
    let Some(bits) = length.parse::<u8>().ok().filter(|_| digits_ok) else {
        return Err(fail(format!("bad bits after slash: {}", go_quote(length))));
    };
    if bits > if ip.is_ipv4() { 32 } else { 128 } {
        return Err(fail("prefix length out of range".to_owned()));
    }
    Ok((ip, bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sloppy_parsing_reads_leading_zeros() {
        assert_eq!(
            parse_ip_sloppy("010.001.1.1"),
            Some(IpAddr::V4(Ipv4Addr::new(10, 1, 1, 1)))
        );
        assert!(parse_ip_sloppy("1.2.3").is_none());
        assert!(parse_ip_sloppy("::ffff:1.2.3.4").is_some());
        assert!(parse_ip_sloppy("fe80::1%eth0").is_none());
        let (net, len) = parse_cidr_sloppy("10.1.2.3/8").unwrap();
        assert_eq!((net, len), (IpAddr::V4(Ipv4Addr::new(10, 0, 0, 0)), 8));
        assert!(parse_cidr_sloppy("10.0.0.0/33").is_none());
        assert!(contains(net, len, "10.9.9.9".parse().unwrap()));
    }

    #[test]
    fn strict_parsing_explains_itself() {
        assert_eq!(
            parse_addr("1.2.3"),
            Err("ParseAddr(\"1.2.3\"): IPv4 address too short".to_owned())
        );
        assert_eq!(
            parse_addr("01.2.3.4"),
            Err("ParseAddr(\"01.2.3.4\"): IPv4 field has octet with leading zero".to_owned())
        );
        assert_eq!(
            parse_prefix("10.0.0.0"),
            Err("netip.ParsePrefix(\"10.0.0.0\"): no '/'".to_owned())
        );
        assert_eq!(
            parse_prefix("10.0.0.0/40"),
            Err("netip.ParsePrefix(\"10.0.0.0/40\"): prefix length out of range".to_owned())
        );
        assert!(parse_prefix("2001:db8::/64").is_ok());
    }
}
