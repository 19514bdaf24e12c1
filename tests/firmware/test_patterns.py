"""The firmware's copy of the light patterns, and how the ring renders them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller import patterns as host
from tabletap.firmware import patterns as fw


def test_the_firmware_tables_agree_with_the_controller() -> None:
    assert fw.PATTERNS == host.PATTERNS
    assert fw.COLOURS == host.COLOURS
    assert {anim for anim, _ in host.PATTERNS.values()} <= set(fw.ANIMATIONS)


def test_every_player_colour_is_one_the_board_knows() -> None:
    for seat in range(len(host.SEAT_COLOURS)):
        assert host.player_colour("ana", seat) in fw.COLOURS


@given(st.sampled_from(fw.ANIMATIONS), st.sampled_from(sorted(fw.COLOURS)),
       st.integers(1, 64), st.integers(0, 10**7))
@settings(max_examples=200)
def test_render_gives_valid_pixels(anim: str, colour: str, n: int, t: int) -> None:
    frame = fw.render(anim, fw.COLOURS[colour], n, t)
    assert len(frame) == n
    assert all(0 <= c <= 255 for px in frame for c in px)


def test_animations_move_as_named() -> None:
    amber = fw.COLOURS["amber"]
    assert fw.render("solid", amber, 3, 999) == [amber] * 3
    assert fw.render("blink", amber, 2, 0) == [amber] * 2
    assert fw.render("blink", amber, 2, fw.BLINK_MS) == [(0, 0, 0)] * 2
    dim, bright = fw.render("pulse", amber, 1, 0)[0], fw.render("pulse", amber, 1,
                                                               fw.PULSE_MS // 2)[0]
    assert sum(dim) < sum(bright) and sum(dim) > 0
    heads = [fw.render("chase", amber, 8, t).index(amber) for t in (0, fw.CHASE_MS)]
    assert heads == [0, 1]
    assert fw.render("chase", amber, 1, 0) == [amber]  # one pixel: the head, not the tail
    assert len(set(fw.render("rainbow", amber, 12, 0))) == 12


class FakeStrip:
    def __init__(self, n: int) -> None:
        self.buf = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i: int, v: tuple) -> None:
        self.buf[i] = v

    def write(self) -> None:
        self.writes += 1


def test_the_ring_writes_only_when_the_picture_changes() -> None:
    strip = FakeStrip(4)
    ring = fw.Ring(strip, 4)
    ring.show("accepted", None, 0)
    for t in range(0, 1000, 5):
        ring.update(t, lambda a, b: a - b)
    assert strip.writes == 1 and strip.buf == [fw.COLOURS["green"]] * 4
    ring.show("turn", "blue", 1000)
    ring.update(1000, lambda a, b: a - b)
    assert strip.buf == [fw.COLOURS["blue"]] * 4


def test_unknown_names_are_refused() -> None:
    for args in (("sparkle", None), ("turn", "ana")):
        try:
            fw.resolve(*args)
        except ValueError as e:
            assert args[0] in str(e) or args[1] in str(e)
        else:
            raise AssertionError(f"{args} was accepted")


def test_a_count_lights_that_many_pixels_and_dims_the_rest() -> None:
    """Oversiege's turn lights: how many cards the next player draws, on the ring."""
    strip = FakeStrip(6)
    ring = fw.Ring(strip, 6)
    ring.show("turn", "blue", 0, 3)
    ring.update(0, lambda a, b: a - b)
    blue = fw.COLOURS["blue"]
    assert strip.buf[:3] == [blue] * 3
    assert all(px != blue and max(px) > 0 for px in strip.buf[3:])


def test_pending_runs_round_the_ring() -> None:
    """A gesture waiting for its next tap shows a light running round (a named use of chase)."""
    animation, cyan = fw.resolve("pending")
    assert animation == "chase" and cyan == fw.COLOURS["cyan"]
    heads = [fw.render(animation, cyan, 12, t * fw.CHASE_MS).index(cyan) for t in range(13)]
    assert heads == list(range(12)) + [0]

