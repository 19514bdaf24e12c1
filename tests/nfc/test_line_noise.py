"""Line noise on the wire: whatever bytes arrive, a poll answers (garbled, torn or clean) and
never raises anything but ReaderUnavailable; the next clean poll sees the tag again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller.ports import Poll
from tabletap.sim.world import SimTag
from tests.nfc.conftest import Table

GOLD = SimTag.for_piece("magic-keys/key/gold")


@settings(max_examples=60, deadline=None)
@given(
    which=st.integers(0, 5),  # the n-th reply frame of the poll is hit
    cut=st.one_of(st.none(), st.integers(0, 30)),  # cut the frame short here
    flips=st.lists(st.tuples(st.integers(0, 40), st.integers(1, 255)), max_size=3),
    resting=st.booleans(),
)
def test_a_mangled_reply_never_breaks_the_reader(which, cut, flips, resting):
    table = Table()
    reader = table.reader()
    tag = SimTag(GOLD.uid, GOLD.ndef)
    reader.poll()  # first contact on an empty field: the port is open from here on
    table.world.place("chest", tag)
    if resting:
        reader.poll()
    port = table.context["ports"]["chest"][-1]
    count = {"n": 0}

    def mangle(frame: bytes) -> bytes:
        n = count["n"]
        count["n"] += 1
        if n != which:
            return frame
        out = bytearray(frame)
        for pos, xor in flips:
            if pos < len(out):
                out[pos] ^= xor
        return bytes(out[:cut] if cut is not None else out)

    port.mangle = mangle
    poll = reader.poll()  # the reader answered before: noise is never "unavailable"
    assert isinstance(poll, Poll)
    if not poll.garbled:
        for read in poll.tags:
            assert read.uid == tag.uid or read.error or read.ndef is not None
    port.mangle = None
    clean = [reader.poll() for _ in range(3)]
    assert any(p.tags and p.tags[0].ndef == GOLD.ndef for p in clean)
