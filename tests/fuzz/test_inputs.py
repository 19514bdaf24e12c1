"""Fuzz what reaches tabletap from outside a file: control requests, `tabletap do` arguments,
NDEF messages on tags, PN532 frames from the chip, and serial frames from the Pico.

No traceback may escape, and none may be logged by the daemon's guards (they catch what they did
not expect, and a caught surprise is still a finding); no input may hang.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

import ndef
from hypothesis import given
from hypothesis import strategies as st

from tabletap.controller.commands.do import parse_fields
from tabletap.controller.control_socket import page as web_requests
from tabletap.controller.control_socket.requests import dispatch, register
from tabletap.controller.control_socket.server import ControlServer
from tabletap.controller.ports import Poll, ReaderUnavailable, TagRead
from tabletap.controller.table.identity import Identifier, IdentityError, decode_piece, encode_piece
from tabletap.firmware import protocol
from tabletap.hw.serial_link.link import BoardLink
from tabletap.sim.world import SimTag
from tests.core.helpers import magic_keys_table
from tests.fuzz.mutate import fuzz, mutated, no_hang
from tests.nfc.conftest import Table

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
REQUESTS = [json.dumps(r).encode() for r in [
    {"state": True, "reveal": True}, {"do": {"action": "try-key", "key": "purple/1"}},
    {"do": {"action": "end-turn"}, "id": "abc"}, {"hello": True},
    {"do": {"action": "roll", "dice": [3, "moon", 1]}}, {"do": {"action": "move", "steps": 2}},
    {"snapshot": True, "since": 3}, {"pairings": True}, {"revoke": "x"},
    {"pair": {"token_sha256": "ab" * 32, "label": "phone"}},
    {"enrol": {"game": "magic-keys", "decks": ["keys"]}},
    {"undo": True}, {"abandon": True}, {"new": {"game": "magic-keys", "players": ["ana", "ben"],
                                                "options": {"dice": "digital"}}},
]]


class _Server:
    """A real Magic Keys table behind the real control server (no socket needed to fuzz the
    request path: `answer` is what the server runs on each request line)."""

    def __init__(self) -> None:
        # both folders removed when the run ends, as every fuzz example's are (test_files.py)
        state = Path(tempfile.mkdtemp(prefix="tabletap-fuzz-"))
        atexit.register(shutil.rmtree, state, True)
        self.daemon, _ = magic_keys_table(state)
        web_requests.attach(self.daemon)  # the page's kinds too, as `tabletap run` registers
        for kind, handler in web_requests.HANDLERS.items():
            register(kind, handler, web_requests.TAKES[kind])
        folder = Path(tempfile.mkdtemp(prefix="tabletap-fuzz-sock-"))
        atexit.register(shutil.rmtree, folder, True)
        self.server = ControlServer(folder / "c.sock", lambda req: dispatch(self.daemon, req),
                                    recall=self.daemon.session.journal.recall)


SERVER: _Server | None = None


def _server() -> _Server:
    global SERVER
    if SERVER is None:
        SERVER = _Server()
    return SERVER


def _check_reply(reply: object) -> None:
    assert isinstance(reply, dict) and isinstance(reply.get("ok"), bool)
    json.dumps(reply)  # the answer itself can always be sent


@fuzz(900)
@given(line=mutated(REQUESTS, max_edits=5))
def test_control_request_lines(line: bytes, tracebacks):
    with no_hang():
        _check_reply(_server().server.answer(line))
    assert not tracebacks.records, _trace(tracebacks.records[0])


@fuzz(600)
@given(body=st.dictionaries(st.sampled_from(["do", "state", "reveal", "id", "hello", "new",
                                              "undo", "abandon", "snapshot", "since",
                                              "pair", "pairings", "revoke", "enrol", "x"]),
                            JSONISH, max_size=3))
def test_control_request_objects(body: dict, tracebacks):
    with no_hang():
        _check_reply(_server().server.answer(json.dumps(body).encode()))
    assert not tracebacks.records, _trace(tracebacks.records[0])


@fuzz(900)
@given(action=st.text(max_size=12),
       fields=st.lists(st.text(max_size=30) | st.sampled_from(
           ["at=[2,3]", "x=!!timestamp 1", "y=&a [*a]", "z=" + "[" * 100, "n=" + "9" * 5000]),
           max_size=4))
def test_do_arguments(action: str, fields: list[str]):
    with no_hang():
        try:
            data = parse_fields(action, fields)
        except ValueError:
            return
        json.dumps(data)  # whatever parses can be sent to the daemon


NDEFS = [encode_piece("magic-keys/key/blue/3"), encode_piece("kingdomino/king/pink"),
         b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org/x")])),
         b"".join(ndef.message_encoder([ndef.TextRecord("hello"), ndef.UriRecord("tabletap:x")])),
         b"\xd0\x00\x00",
         b"\xd1\x01\x0eU\x04\xe2\x80\xa8example.org/x"]  # an IDNA host ndeflib cannot encode


@fuzz(1200)
@given(message=mutated(NDEFS, max_edits=4), uid=st.binary(min_size=4, max_size=10))
def test_ndef_messages(message: bytes, uid: bytes):
    with no_hang():
        try:
            decode_piece(message)
        except IdentityError:
            pass
        try:
            Identifier(None).identify(TagRead(uid, message))
        except IdentityError:
            pass


@fuzz(180)
@given(message=mutated(NDEFS, max_edits=4) | st.binary(max_size=2000))
def test_ndef_on_a_simulated_tag_through_the_real_driver(message: bytes, tracebacks):
    """Whatever NDEF a tag holds (bigger than the tag, too), the real adafruit driver over the
    emulated chip reads it as a tag with an error or a message, and identify() says what it is."""
    table = Table()
    reader = table.reader()
    with no_hang(10):
        try:
            tag = SimTag(b"\x04\x11\x22\x33\x44\x55\x66", message)
            table.world.place("chest", tag)
        except ValueError:
            return  # the simulator refuses a message its tag cannot hold: a clear error
        poll = reader.poll()
        assert isinstance(poll, Poll)
        for read in poll.tags:
            try:
                Identifier(None).identify(read)
            except IdentityError:
                pass
    assert not tracebacks.records, _trace(tracebacks.records[0])


@fuzz(240)
@given(frames=st.lists(st.tuples(st.integers(0, 8), st.binary(max_size=40) | st.none()),
                       min_size=1, max_size=4),
       resting=st.booleans())
def test_pn532_frames_from_the_chip(frames: list, resting: bool, tracebacks):
    """Replace some of the chip's reply frames with arbitrary bytes (None: keep it): the real
    driver and tabletap's reader answer with a Poll (garbled or not) or ReaderUnavailable."""
    table = Table()
    reader = table.reader()
    reader.poll()
    table.world.place("chest", SimTag.for_piece("magic-keys/key/gold"))
    if resting:
        reader.poll()
    port = table.context["ports"]["chest"][-1]
    replace = dict(frames)
    count = {"n": 0}

    def mangle(frame: bytes) -> bytes:
        n = count["n"]
        count["n"] += 1
        got = replace.get(n)
        return frame if got is None else got

    port.mangle = mangle
    with no_hang(10):
        for _ in range(2):
            try:
                assert isinstance(reader.poll(), Poll)
            except ReaderUnavailable:
                pass
    assert not tracebacks.records, _trace(tracebacks.records[0])


class _Wire:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.sent.append(data)
        return len(data)


def _link() -> BoardLink:
    link = BoardLink("/dev/null-fuzz", board_config={"servo_pin": 16})
    link._ser = _Wire()  # type: ignore[assignment]
    link._port_path = "/dev/null-fuzz"
    return link


GOOD_FRAMES = [
    protocol.encode("hello", 0, {"fw": "0.1.0", "proto": protocol.VERSION, "boot": 7,
                                 "caps": ["servo", "pixels"], "buttons": ["end-turn"]}),
    protocol.encode("ack", 1, {"ok": True}),
    protocol.encode("evt", 1, {"b": 7, "name": "end-turn", "kind": "press"}),
]


@fuzz(900)
@given(stream=mutated([b"".join(GOOD_FRAMES)], max_edits=6) | st.binary(max_size=300))
def test_serial_bytes_from_the_pico(stream: bytes):
    """Raw bytes on the wire: the decoder drops what does not frame, never raises."""
    with no_hang():
        decoder = protocol.Decoder()
        for i in range(0, len(stream), 7):
            for kind, seq, body in decoder.feed(stream[i:i + 7]):
                assert isinstance(kind, str) and isinstance(seq, int) and isinstance(body, dict)


@fuzz(300)
@given(kinds=st.lists(st.tuples(st.sampled_from(["hello", "ack", "evt", "ping", "x"]),
                                st.integers(0, 2**40), st.dictionaries(
                                    st.sampled_from(["fw", "proto", "boot", "caps", "buttons",
                                                     "safe", "host", "ok", "err", "b", "name",
                                                     "kind"]), JSONISH, max_size=6)),
                      min_size=1, max_size=6),
       greet=st.booleans())
def test_serial_frames_from_the_pico(kinds: list, greet: bool, tracebacks):
    """Frames with a good CRC but any body: the host's link handles each or ignores it."""
    link = _link()
    try:
        with no_hang():
            if greet:
                hello = {"fw": "0.1.0", "proto": protocol.VERSION, "boot": 7,
                         "host": link.host_id}
                frame = protocol.encode("hello", 0, hello)
                for kind, seq, body in protocol.Decoder().feed(frame):
                    link._handle(kind, seq, body)
            for kind, seq, body in kinds:
                try:
                    frame = protocol.encode(kind, seq, body)
                except ValueError:
                    continue  # not sendable as a frame (too long, not ASCII): cannot arrive
                for k, s, b in protocol.Decoder().feed(frame):
                    link._handle(k, s, b)
    finally:
        os.close(link._wake_r)
        os.close(link._wake_w)
    assert not tracebacks.records, _trace(tracebacks.records[0])


def _trace(record: object) -> str:
    """The logged traceback, for the failure message."""
    import logging

    return logging.Formatter().format(record)  # type: ignore[arg-type]
