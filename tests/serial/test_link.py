"""The host link against the simulated Pico over a pseudo-terminal, with real pyserial."""

from __future__ import annotations

import threading
import time
from collections import deque
from pathlib import Path

import pytest

from tabletap.controller.ports import InputEvent
from tabletap.firmware import protocol, servo
from tabletap.hw.serial_link import BoardLink, LinkError, ProtocolMismatch, probe
from tabletap.sim.board import SimBoard

AMBER = ((255, 120, 0),) * 12
CLOSED = servo.duty_u16(500 + 60 / 180 * 2000)  # -30 degrees with the default limits
OPEN = servo.duty_u16(500 + 150 / 180 * 2000)  # 60 degrees


def link_to(board: SimBoard, **cfg: object) -> BoardLink:
    config = {"travel_s": 0.0} | cfg  # the servo jumps: tests wait for positions, not travel
    link = BoardLink(board.port, board_config=config, retry=0.02, backoff=(0.01, 0.1),
                     host_timeout=float(cfg.get("host_timeout", 3.0))).start()
    link.wait_hello(3)
    assert link.wait_idle(3)  # the board has its config
    return link


def test_probe_reads_the_hello(board: SimBoard) -> None:
    hello = probe(board.port, timeout=3)
    assert hello.proto == protocol.VERSION and hello.fw == "1.0.0"
    assert {"servo", "neopixel", "buttons", "watchdog"} <= set(hello.caps)
    assert hello.boot == board.boot and hello.port == board.port
    assert board.recorder.wdt_feeds > 0


def test_a_board_speaking_another_protocol_is_refused_with_a_way_out() -> None:
    board = SimBoard(proto=protocol.VERSION + 1).start()
    try:
        with pytest.raises(ProtocolMismatch) as err:
            probe(board.port, timeout=3)
        assert f"tabletap firmware flash --port {board.port}" in str(err.value)
        assert f"protocol {protocol.VERSION + 1}" in str(err.value)
        link = BoardLink(board.port).start()
        with pytest.raises(ProtocolMismatch):
            link.wait_hello(3)
        with pytest.raises(ProtocolMismatch):
            link.submit({"op": "latch", "open": True})
        link.close()
        assert board.recorder.executed == []
    finally:
        board.close()


def test_nothing_answering_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LinkError, match="no answer from .*nothing-here"):
        probe(str(tmp_path / "nothing-here"), timeout=0.2)


def test_the_link_waits_for_a_board_plugged_in_later(tmp_path: Path) -> None:
    port = tmp_path / "ttyACM-tabletap-pico"
    link = BoardLink(str(port), backoff=(0.01, 0.05)).start()
    board = SimBoard(directory=tmp_path)
    try:
        ticket = link.submit({"op": "latch", "open": True})
        board.start()
        assert ticket.wait(3) and ticket.ok
        assert [e.seq for e in board.recorder.executed] == [ticket.seq]
    finally:
        link.close()
        board.close()


def test_a_real_port_carries_the_link_on_its_descriptor_not_through_pyserial(
        board: SimBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    """pyserial opens and configures the board's port; the frames then go straight onto its
    descriptor (hw/serial_fd.py), since pyserial's read selects again and its write selects
    after writing, for every command and its ack all evening."""
    import serial

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a frame went through pyserial's read or write")

    monkeypatch.setattr(serial.Serial, "read", refused)
    monkeypatch.setattr(serial.Serial, "write", refused)
    link = link_to(board)  # hello and the config: both ways already
    try:
        assert link.submit({"op": "latch", "open": True}).wait(2)
        assert [e.body["op"] for e in board.recorder.executed] == ["cfg", "latch"]
        board.unplug()  # the descriptor fails; the link reopens the port, on pyserial again
        ticket = link.submit({"op": "latch", "open": False})
        board.replug()
        assert ticket.wait(3) and ticket.ok and link.stats["connects"] == 2
    finally:
        link.close()


def test_the_chest_returns_once_its_latch_is_on_the_wire(
        board: SimBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: the chest's command is sent the moment the move is durable, the narration
    after it. `set_open` used to return with the latch only queued, and the daemon's loop,
    holding Python's lock, narrated the move before the link's thread could write it."""
    from tabletap.hw.serial_link import backend

    link = link_to(board)
    order: list[str] = []
    send = BoardLink._send

    def noted(self: BoardLink, kind: str, seq: int, body: dict[str, object]) -> None:
        send(self, kind, seq, body)
        if kind == "cmd":
            order.append(f"{body['op']} on the wire")

    monkeypatch.setattr(BoardLink, "_send", noted)
    # the bound, far off: no timing here (raising=False: the order, not the name, fails before)
    monkeypatch.setattr(backend, "LATCH_WIRE_WAIT", 5.0, raising=False)
    try:
        chest = backend.SerialChest(link)
        for open_ in (True, False):
            chest.set_open(open_)
            order.append("returned")
        assert order == ["latch on the wire", "returned"] * 2
        assert link.wait_idle(2) and [e.body["open"] for e in board.recorder.executed[1:]] == [
            True, False]
    finally:
        link.close()


def test_a_command_for_a_board_that_is_not_there_is_not_waited_for(board: SimBoard) -> None:
    link = link_to(board)
    try:
        board.unplug()
        deadline = time.monotonic() + 3
        while link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not link.connected
        started = time.monotonic()
        ticket = link.submit({"op": "latch", "open": True}, wire_wait=5.0)
        assert time.monotonic() - started < 1.0 and ticket.sent == 0
        board.replug()
        assert ticket.wait(3) and ticket.ok
    finally:
        link.close()


def test_an_unplug_loses_nothing_and_runs_nothing_twice(board: SimBoard) -> None:
    link = link_to(board)
    try:
        assert link.submit({"op": "latch", "open": True}).wait(2)
        board.unplug()
        ticket = link.submit({"op": "latch", "open": False})
        assert not ticket.wait(0.1)  # nowhere to send it
        board.replug()
        assert ticket.wait(3) and ticket.ok
        assert link.stats["connects"] == 2
        assert [e.body["op"] for e in board.recorder.executed] == ["cfg", "latch", "latch"]
        assert board.recorder.wait_for(lambda: board.recorder.duty(16) == CLOSED)
    finally:
        link.close()


def test_after_a_board_reset_the_host_restores_config_latch_and_lights(board: SimBoard) -> None:
    link = link_to(board, closed_angle=-45)
    try:
        link.submit({"op": "show", "pattern": "turn", "colour": "blue"})
        assert link.submit({"op": "latch", "open": True}).wait(2)
        first_boot = board.boot
        board.reset()
        rec = board.recorder
        assert rec.wait_for(lambda: sum(e.boot != first_boot for e in rec.executed) == 3
                            and rec.duty(16) == OPEN, 3)
        assert link.wait_idle(3)
        after = [e.body for e in rec.executed if e.boot == board.boot]
        assert after[0]["op"] == "cfg" and sorted(b["op"] for b in after[1:]) == ["latch", "show"]
        assert after[0]["closed_angle"] == -45
        assert rec.wait_for(lambda: rec.colours() == ((0, 0, 255),) * 12)
        assert link.stats["resyncs"] >= 2
    finally:
        link.close()


def test_a_silent_host_leaves_the_board_locked_and_amber(board: SimBoard) -> None:
    link = link_to(board, host_timeout=1.0)
    rec = board.recorder
    try:
        link.submit({"op": "show", "pattern": "accepted"})
        assert link.submit({"op": "latch", "open": True}).wait(2)
        assert rec.wait_for(lambda: rec.duty(16) == OPEN)
        board.unplug()  # the host hears nothing and can say nothing
        assert rec.wait_for(lambda: rec.duty(16) == CLOSED and rec.colours() == AMBER, 3)
        safe_at = len(rec.executed)
        board.replug()
        # The board reports it was in its safe state; the host puts latch and lights back.
        assert rec.wait_for(lambda: rec.duty(16) == OPEN
                            and rec.colours() == ((0, 200, 0),) * 12, 3)
        assert sorted(e.body["op"] for e in rec.executed[safe_at:]) == ["latch", "show"]
        assert link.events() == []  # the safe notice is the link's business, not a button
    finally:
        link.close()


def test_presses_arrive_once_each_over_a_noisy_line() -> None:
    inputs: deque[InputEvent] = deque()
    board = SimBoard(inputs=inputs, seed=5, corrupt=0.02, hold_s=0.2).start()
    link = link_to(board, hold_ms=200)
    got: list[tuple[str, str]] = []
    done = threading.Event()
    try:
        for name in ["end-turn", "roll", "end-turn", "roll", "end-turn"]:
            inputs.append(InputEvent(name, "press"))
        inputs.append(InputEvent("roll", "hold"))
        deadline = time.monotonic() + 10
        while len(got) < 6 and time.monotonic() < deadline:
            got += link.events()
            done.wait(0.01)
        assert sorted(got) == sorted([("end-turn", "press")] * 3 + [("roll", "press")] * 2
                                     + [("roll", "hold")])
        assert link.stats["bad_frames"] > 0 or board.line.stats.flipped > 0
    finally:
        link.close()
        board.close()


def test_a_hung_firmware_is_reset_by_its_watchdog_and_restored(board: SimBoard) -> None:
    link = link_to(board)
    rec = board.recorder
    try:
        assert link.submit({"op": "latch", "open": True}).wait(2)
        first = board.boot
        board.hang()
        # WATCHDOG_MS (2 s) without a feed, then a fresh boot that the host restores.
        assert rec.wait_for(lambda: any(e.boot != first and e.body["op"] == "latch"
                                        for e in rec.executed), 5)
        assert board.watchdog_resets == 1 and len(board.boots) == 2
        assert rec.wait_for(lambda: rec.duty(16) == OPEN, 2)
    finally:
        link.close()


def test_reconnecting_backs_off_up_to_a_ceiling() -> None:
    tries: list[float] = []
    gave_up = threading.Event()

    def nowhere(configured: str | None) -> str:
        tries.append(time.monotonic())
        if len(tries) >= 8:
            gave_up.set()
        raise OSError(2, "No such file or directory", "/dev/ttyACM0")

    link = BoardLink(None, backoff=(0.01, 0.04), find=nowhere).start()
    try:
        assert gave_up.wait(5)
    finally:
        link.close()
    gaps = [b - a for a, b in zip(tries, tries[1:], strict=False)][:7]
    assert gaps[0] >= 0.01 * 0.9 and min(gaps[2:]) >= 0.04 * 0.9  # 0.01, 0.02, 0.04, 0.04 ...
    assert max(gaps) < 0.3  # capped: doubling on would reach 0.64 s by the seventh


def test_a_second_tabletap_cannot_barge_into_the_session(board: SimBoard) -> None:
    link = link_to(board)
    try:
        # the port is held: no hello from another host id, and the error says why in words
        with pytest.raises(LinkError, match="in use by another program"):
            probe(board.port, timeout=0.3)
        assert link.submit({"op": "latch", "open": True}).wait(2)
        assert [e.seq for e in board.recorder.executed] == [1, 2]
    finally:
        link.close()
