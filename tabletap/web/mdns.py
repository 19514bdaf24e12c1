"""Found by name on the home network: `tabletap.local` and an `_http._tcp` service via mDNS.

The zeroconf package answers multicast DNS from this process, so the Pi image needs no avahi
configuration. Nothing is announced for a loopback-only page: no phone could reach it anyway.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

log = logging.getLogger("tabletap.web.mdns")


def addresses_for(bind: str) -> list[str]:
    """The IPv4 addresses a phone can reach the page on, given where it listens."""
    if bind in ("0.0.0.0", "", "::"):
        import ifaddr  # zeroconf's own dependency for listing the network adapters

        return [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
                if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback]
    if ipaddress.ip_address(bind).is_loopback:
        return []
    return [bind]


async def announce(hostname: str, bind: str, port: int) -> Any:
    """Register the page; returns the handle to pass to `withdraw`, or None."""
    addresses = addresses_for(bind)
    if not addresses:
        log.info("mDNS: the page listens on %s only; nothing to announce", bind)
        return None
    from zeroconf import ServiceInfo
    from zeroconf.asyncio import AsyncZeroconf

    info = ServiceInfo(
        "_http._tcp.local.", f"{hostname}._http._tcp.local.", port=port,
        parsed_addresses=addresses, server=f"{hostname}.local.",
        properties={"path": "/", "app": "tabletap"},
    )
    zc = AsyncZeroconf()
    try:
        await zc.async_register_service(info)
    except (OSError, ValueError) as exc:
        log.warning("mDNS: could not announce %s.local (%s)", hostname, exc)
        await zc.async_close()
        return None
    log.info("mDNS: announced http://%s.local:%d/ on %s", hostname, port, ", ".join(addresses))
    return zc, info


async def withdraw(handle: Any) -> None:
    if handle is None:
        return
    zc, info = handle
    try:
        await zc.async_unregister_service(info)
    finally:
        await zc.async_close()


