"""mDNS is announced only where a phone could reach the page (off in the other tests)."""

from __future__ import annotations

import asyncio

from tabletap.web import mdns


def test_a_loopback_page_announces_nothing():
    assert mdns.addresses_for("127.0.0.1") == []
    assert asyncio.run(mdns.announce("tabletap", "127.0.0.1", 8080)) is None


def test_a_page_on_one_address_announces_that_address():
    assert mdns.addresses_for("192.168.1.20") == ["192.168.1.20"]


def test_a_page_on_every_address_announces_the_machines_own():
    found = mdns.addresses_for("0.0.0.0")
    assert "127.0.0.1" not in found
