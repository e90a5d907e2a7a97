"""The special-purpose address blocks that a webhook may never call.

Every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and the
RFCs that added to them), with multicast and the limited broadcast address. Python's
`ipaddress` flags cover most of them, not all (3.11 takes `192.0.0.8` and the AS112 and
AMT blocks for global ones), and none of them looks inside the IPv6 forms that carry an
IPv4 address (6to4, Teredo, NAT64, IPv4-mapped), so the table is spelled out here. Even the
blocks marked "globally reachable" (anycast relays, AS112) are refused: no webhook
receiver lives there, and the embedding forms reach whatever IPv4 address they carry.
"""

from __future__ import annotations

import ipaddress

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_IPV4 = (
    ("0.0.0.0/8", "\"this network\""),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared address space"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.31.196.0/24", "AS112"),
    ("192.52.193.0/24", "AMT"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private"),
    ("192.175.48.0/24", "AS112 direct delegation"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
    ("255.255.255.255/32", "limited broadcast"),
)

_IPV6 = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::/96", "IPv4-compatible (deprecated)"),
    ("::ffff:0:0/96", "IPv4-mapped"),
    ("::ffff:0:0:0/96", "IPv4-translated"),
    ("64:ff9b::/96", "IPv4/IPv6 translation (NAT64)"),
    ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"),
    ("100::/64", "discard-only"),
    ("100:0:0:1::/64", "dummy prefix"),
    ("2001::/23", "IETF protocol assignments"),
    ("2001::/32", "Teredo"),
    ("2001:db8::/32", "documentation"),
    ("2002::/16", "6to4"),
    ("2620:4f:8000::/48", "AS112 direct delegation"),
    ("3fff::/20", "documentation"),
    ("5f00::/16", "segment routing (SRv6) SIDs"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local (deprecated)"),
    ("ff00::/8", "multicast"),
)

_BLOCKS = tuple((ipaddress.ip_network(cidr), name) for cidr, name in (*_IPV4, *_IPV6))


def special_purpose(address: Address) -> str | None:
    """The special-purpose block `address` lies in (the most specific one), with the IPv4
    address it carries when it has one; None for an ordinary address."""
    found = [(net, name) for net, name in _BLOCKS
             if net.version == address.version and address in net]
    if not found:
        return None
    _net, name = max(found, key=lambda item: item[0].prefixlen)
    carried = embedded_ipv4(address)
    return f"{name}, carrying {carried}" if carried is not None else name


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (6to4, Teredo's server, NAT64, mapped)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[0]
    if address in _NAT64 or address in _NAT64_LOCAL:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
