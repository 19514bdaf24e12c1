"""`python -m bench.live.exchange --layers`: the same listing at four depths over the pty
emulator, each depth really exchanging with the chip (a wrong frame length or a missed tag
stops it with an error, never a figure)."""

from __future__ import annotations

import pytest

from bench.live import exchange


def test_every_layer_exchanges_with_the_chip_and_is_timed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchange, "POLLS", 5)
    layers = exchange.layers_us(2)
    assert list(layers) == ["system calls alone", "+ framing", "+ adafruit driver",
                            "+ reader's poll"]
    assert all(len(blocks) == 2 and all(us > 0 for us in blocks) for blocks in layers.values())
