"""mDNS is announced only where a phone could reach the page (off in the other tests)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from tabletap.web import mdns


def test_a_loopback_page_announces_nothing():
    assert mdns.addresses_for("127.0.0.1") == []
    # In a thread of its own: Playwright's sync API may hold this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        handle = pool.submit(asyncio.run, mdns.announce("tabletap", "127.0.0.1", 8080)).result()
    assert handle is None


def test_a_page_on_one_address_announces_that_address():
    assert mdns.addresses_for("192.168.1.20") == ["192.168.1.20"]


def test_a_page_on_every_address_announces_the_machines_own():
    found = mdns.addresses_for("0.0.0.0")
    assert "127.0.0.1" not in found
