"""Webhook targets: which URLs the server agrees to call.

Only `http` and `https` URLs with a host and no credentials, on port 80 or 443 unless the
operator allows others (`WEBHOOK_ALLOWED_PORTS`; port 0 never). Every address of the host
(a literal, or all that DNS gives) must be public: loopback, private, link-local,
multicast, reserved, unspecified and other non-global addresses, and every block of IANA's
special-purpose registries (`domain.webhooks.special_addresses`, with the IPv6 forms that carry an
IPv4 address: 6to4, Teredo, NAT64) are refused, unless they lie in a network the operator
allows (`WEBHOOK_ALLOWED_NETWORKS`, e.g. `127.0.0.0/8,::1/128` for tests and local
development). The check runs when a URL is registered and again before
every attempt, because DNS may have changed since; the attempt then connects to an address
that was checked, so a name cannot pass the check with a public address and be called on a
private one.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from domain.errors import DomainError
from domain.webhooks.special_addresses import special_purpose

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# host, port -> the host's addresses (as strings); raises OSError when it has none.
Resolver = Callable[[str, int], list[str]]

MAX_URL_LENGTH = 2000
DEFAULT_PORTS = (80, 443)
PortRange = tuple[int, int]  # inclusive
_HOSTNAME = re.compile(r"^[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*\.?$")
# The most specific reason first: loopback or reserved addresses are "private" too.
_REFUSED_KINDS = (
    ("unspecified", "is_unspecified"),
    ("loopback", "is_loopback"),
    ("link-local", "is_link_local"),
    ("multicast", "is_multicast"),
    ("reserved", "is_reserved"),
    ("private", "is_private"),
)


# The start of every URL `parse_url` takes (the API's schemas state it): http(s), a host,
# no credentials. The policy decides the rest (addresses, ports) when it is checked.
URL_PATTERN = "^https?://[^/?#@\\s]+"


class TargetRefused(DomainError):
    """The URL may not be called (scheme, form, or an address that is not public)."""

    code = "url_not_allowed"


class TargetUnresolvable(TargetRefused):
    """The host has no address now (DNS failure): worth trying again later."""

    code = "url_unresolvable"


@dataclass(frozen=True)
class Target:
    """A checked URL and the addresses it may be called on."""

    url: str
    scheme: str
    host: str
    port: int
    path: str  # path and query, as sent in the request line
    addresses: tuple[str, ...]


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class TargetPolicy:
    """Which addresses may be called: public ones, and those in `allowed_networks`."""

    allowed_networks: tuple[Network, ...] = ()
    allowed_ports: tuple[PortRange, ...] = ()  # besides 80 and 443

    @classmethod
    def allowing(cls, networks: str | Iterable[str] | None,
                 ports: str | Iterable[str] | None = None) -> TargetPolicy:
        """From settings: CIDRs, and ports or ranges (`8000-8999`), each as a
        comma-separated string or a list (empty = none)."""
        return cls(tuple(ipaddress.ip_network(n, strict=False) for n in _items(networks)),
                   tuple(_port_range(p) for p in _items(ports)))

    def with_ports(self, ports: str | Iterable[str] | None) -> TargetPolicy:
        """This policy, allowing these ports (or ranges) too."""
        return TargetPolicy(self.allowed_networks, tuple(_port_range(p) for p in _items(ports)))

    def port_refusal(self, port: int) -> str | None:
        if port in DEFAULT_PORTS or any(lo <= port <= hi for lo, hi in self.allowed_ports):
            return None
        return (f"port {port} is not allowed (80 and 443 are; the server may allow "
                "others)")

    def refusal(self, address: Address) -> str | None:
        """Why `address` may not be called, or None if it may."""
        if any(address in net for net in self.allowed_networks):
            return None
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            return self.refusal(address.ipv4_mapped)
        for kind, flag in _REFUSED_KINDS:
            if getattr(address, flag):
                return f"{address} is a {kind} address"
        if not address.is_global:
            return f"{address} is not a public address"
        special = special_purpose(address)
        if special is not None:
            return f"{address} is a special-purpose address ({special})"
        return None

    def check(self, url: str, resolve: Resolver = system_resolver) -> Target:
        """Parse and resolve `url`; raise TargetRefused unless every address may be called."""
        scheme, host, port, path = parse_url(url)
        refused_port = self.port_refusal(port)
        if refused_port is not None:
            raise TargetRefused(f"{url} is not allowed: {refused_port}")
        addresses = [host] if _is_address(host) else _resolve(resolve, host, port)
        for address in addresses:
            reason = self.refusal(ipaddress.ip_address(address.split("%", 1)[0]))
            if reason is not None:
                raise TargetRefused(f"{url} is not allowed: {reason}")
        return Target(url=url, scheme=scheme, host=host, port=port, path=path,
                      addresses=tuple(addresses))


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _resolve(resolve: Resolver, host: str, port: int) -> list[str]:
    try:
        addresses = resolve(host, port)
    except OSError as err:
        raise TargetUnresolvable(f"{host} does not resolve: {err}") from None
    if not addresses:
        raise TargetUnresolvable(f"{host} has no address")
    return addresses


def parse_url(url: str) -> tuple[str, str, int, str]:
    """`(scheme, host, port, path-and-query)` of an http(s) URL, or TargetRefused."""
    if len(url) > MAX_URL_LENGTH or any(c.isspace() for c in url):
        raise TargetRefused("the URL is too long or contains spaces")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        raise TargetRefused(f"not a valid URL: {err}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise TargetRefused("only http and https URLs are allowed")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("the URL may not contain credentials")
    host = (parts.hostname or "").lower()
    if not host:
        raise TargetRefused("the URL has no host")
    if not _is_address(host) and not _HOSTNAME.match(host):
        raise TargetRefused(f"{host!r} is not a valid host name")
    if port == 0:
        raise TargetRefused("port 0 is not a port one can call")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, host, port if port is not None else (443 if scheme == "https" else 80), path


def _items(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    return [item.strip() for item in items if item.strip()]


def _port_range(text: str) -> PortRange:
    low, _, high = text.partition("-")
    lo, hi = int(low), int(high or low)
    if not 1 <= lo <= hi <= 65535:
        raise ValueError(f"{text!r} is not a port or a range of ports (1-65535)")
    return lo, hi
