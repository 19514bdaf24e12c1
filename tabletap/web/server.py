"""Running the page: uvicorn on the address the table config names, mDNS when enabled."""

from __future__ import annotations

import asyncio
import logging

import uvicorn

from tabletap.controller.control_socket.server import socket_path
from tabletap.controller.settings.config import Config
from tabletap.web import mdns
from tabletap.web.app import Page

log = logging.getLogger("tabletap.web")


class NotEnabled(RuntimeError):
    """The config does not enable the page."""


def serve(config: Config) -> None:
    """Serve until SIGINT/SIGTERM (uvicorn handles both and closes the streams)."""
    web = config.web
    if not web.enabled:
        raise NotEnabled("the page is off: set `web: {enabled: true}` in the table config")
    page = Page(socket_path(config.state_dir), public=web.public,
                pair_rate=f"{web.pairing_attempts}/minute")
    server = uvicorn.Server(uvicorn.Config(
        page.app(), host=web.bind, port=web.port, log_level=config.log_level,
        server_header=False, proxy_headers=False, access_log=config.log_level == "debug",
    ))
    asyncio.run(_serve(server, web.mdns, web.hostname, web.bind, web.port))


async def _serve(server: uvicorn.Server, announce: bool, hostname: str, bind: str,
                 port: int) -> None:
    handle = await mdns.announce(hostname, bind, port) if announce else None
    try:
        await server.serve()
    finally:
        await mdns.withdraw(handle)
