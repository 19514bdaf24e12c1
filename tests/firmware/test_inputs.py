"""Buttons and the lid switch, debounced by the firmware itself."""

from __future__ import annotations

from tabletap.firmware.inputs import Button, Lid


class FakePin:
    def __init__(self) -> None:
        self.level = 1

    def value(self) -> int:
        return self.level


def diff(a: int, b: int) -> int:
    return a - b


def run(inp: Button | Lid, pin: FakePin, levels: list[tuple[int, int]]) -> list[str]:
    """levels: (until_ms, level) spans; the input is polled every 2 ms."""
    events, t = [], 0
    for until, level in levels:
        pin.level = level
        while t < until:
            kind = inp.poll(t, diff)
            if kind:
                events.append(kind)
            t += 2
    return events


def test_a_short_press_and_a_long_hold() -> None:
    pin = FakePin()
    b = Button("end-turn", pin, 800, 0)
    assert run(b, pin, [(50, 1), (150, 0), (300, 1)]) == ["press"]
    pin2 = FakePin()
    b2 = Button("roll", pin2, 800, 0)
    assert run(b2, pin2, [(10, 1), (1000, 0), (1100, 1)]) == ["hold"]  # once, and no press


def test_contact_bounce_is_not_a_press() -> None:
    pin = FakePin()
    b = Button("end-turn", pin, 800, 0)
    bounces = [(10 + 6 * i, i % 2) for i in range(10)]  # 6 ms flickers
    assert run(b, pin, [*bounces, (200, 1)]) == []


def test_the_lid_reports_both_ways() -> None:
    pin = FakePin()
    lid = Lid(pin, 0)
    assert run(lid, pin, [(50, 1), (100, 0), (200, 1)]) == ["lid-closed", "lid-open"]
