"""Running the page: uvicorn on the address the table config names, mDNS when enabled.

uvicorn serves the requests, but the listening sockets are the page's own (`gate.py`: one
address may hold only so many connections) and the HTTP protocol is uvicorn's h11 one with
deadlines (`deadlines.py`), so a phone is answered whatever else is connected (issue 22).
"""

from __future__ import annotations

import asyncio
import logging
import resource

import uvicorn

from tabletap.controller.state.folder import StateFolder
from tabletap.web import mdns
from tabletap.web.app import Page
from tabletap.web.deadlines import protocol_for
from tabletap.web.gate import Gate, GatedSocket, listen
from tabletap.web.limits import Limits
from tabletap.web.settings import PageSettings

log = logging.getLogger("tabletap.web")

MAX_HEAD = 16 * 1024  # bytes of one request head (h11's own default, said here)


class NotEnabled(RuntimeError):
    """The config does not enable the page."""


def serve(web: PageSettings, limits: Limits | None = None) -> None:
    """Serve until SIGINT/SIGTERM (uvicorn handles both and closes the streams).

    OSError when the address cannot be listened on (the command says so and exits 2)."""
    if not web.enabled:
        raise NotEnabled("the page is off: set `web: {enabled: true}` in the table config")
    # The socket's place from the state folder's layout, not from the daemon's socket server
    # module, which would load the journal and its dependencies into the page (1.6 MiB).
    page = Page(StateFolder(web.state_dir).control_socket, public=web.public,
                pair_rate=f"{web.pairing_attempts}/minute")
    limits = (limits or Limits()).fitted()
    gate = Gate(limits)
    listeners = listen(web.bind, web.port, gate)
    server = uvicorn.Server(uvicorn.Config(
        page.app(), host=web.bind, port=web.port, log_level=web.log_level,
        server_header=False, proxy_headers=False, access_log=web.log_level == "debug",
        http=protocol_for(gate), ws="none", timeout_keep_alive=limits.idle_seconds,
        h11_max_incomplete_event_size=MAX_HEAD,
    ))
    log.info("listening on %s port %d; a request head within %g s, its body within %g s, "
             "idle for %d s; at most %d connections from one address, %d in all (descriptor "
             "limit %d)", web.bind, web.port, limits.head_seconds, limits.body_seconds,
             limits.idle_seconds, limits.per_address, limits.in_all,
             resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    asyncio.run(_serve(server, listeners, web.mdns, web.hostname, web.bind, web.port))


async def _serve(server: uvicorn.Server, listeners: list[GatedSocket], announce: bool,
                 hostname: str, bind: str, port: int) -> None:
    handle = await mdns.announce(hostname, bind, port) if announce else None
    try:
        await server.serve(sockets=listeners)
    finally:
        await mdns.withdraw(handle)
        for sock in listeners:
            sock.close()
