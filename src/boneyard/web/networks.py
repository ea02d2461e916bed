"""A client's network: many addresses of one attacker count as one client.

An IPv4 address counts by its /24, an IPv6 address by its /64, the way Cloudflare-style
per-network accounting and lichess's rate limits group them: one machine (or one home, one
cloud tenant) holds a whole /24 or /64 as easily as one address, so a budget or a share per
bare address is a budget per attacker times the addresses it rents.

(``guard/clients.py``'s ``client_key`` names the client of a request, an account where one is
signed in; ``network_of`` is the address part of it, for what comes before any request: the
connections and the computer's queue.)
"""

from __future__ import annotations

import functools
import ipaddress

IPV4_PREFIX = 24
IPV6_PREFIX = 64


@functools.lru_cache(maxsize=65_536)
def network_of(address: str) -> str:
    """The network ``address`` belongs to, as text ("203.0.113.0/24", "2001:db8::/64");
    something that is no address (a test client's name, "unknown") is its own network."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))  # "[2001:db8::1]" as a proxy may write it
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:203.0.113.5 is 203.0.113.5
    prefix = IPV4_PREFIX if ip.version == 4 else IPV6_PREFIX
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
