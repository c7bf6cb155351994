"""Which address phones on the table's network can reach this computer at.

``gethostbyname(hostname)`` answers 127.0.1.1 on many Debian and Ubuntu machines, so the
addresses come from the network interfaces themselves (``ifaddr``): a private IPv4 address
that is not loopback is preferred, then any other non-loopback IPv4 address. No packet is sent.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

__all__ = ["interface_addresses", "pick_address", "lan_address"]


def interface_addresses() -> list[str]:
    """Every IPv4 address of this machine's interfaces."""
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and ip.ip not in found:
                found.append(ip.ip)
    return found


def pick_address(candidates: Iterable[str]) -> str | None:
    """The address to print and put in the QR code: private non-loopback IPv4 first."""
    usable = []
    for text in candidates:
        try:
            addr = ipaddress.IPv4Address(text)
        except ValueError:
            continue
        if addr.is_loopback or addr.is_link_local or addr.is_unspecified or addr.is_multicast:
            continue
        usable.append(addr)
    usable.sort(key=lambda a: (not a.is_private, int(a)))
    return str(usable[0]) if usable else None


def lan_address() -> str | None:
    """This machine's address on the local network, or ``None`` if it has none."""
    return pick_address(interface_addresses())
