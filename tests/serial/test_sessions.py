"""Exactly once across the session's edges: before the first hello, across the board's safe
state and across a reset, with stale presses kept from a new daemon and a crashed link reported.

Each was a real bug: commands were numbered when queued, so those waiting behind a resync's own
commands had lower numbers and the board acknowledged them as repeats without running them.
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path

import pytest

from tabletap.controller.ports import InputEvent
from tabletap.hw.serial_link import BoardLink, LinkCrashed, LinkError, Ticket
from tabletap.sim.board import SimBoard


def link_to(board: SimBoard, host_timeout: float = 3.0, **cfg: object) -> BoardLink:
    config = {"travel_s": 0.0, "host_timeout": host_timeout} | cfg
    link = BoardLink(board.port, board_config=config, retry=0.02, backoff=(0.01, 0.1),
                     host_timeout=host_timeout).start()
    link.wait_hello(3)
    assert link.wait_idle(3)
    return link


def assert_each_ran_once(board: SimBoard, tickets: list[Ticket]) -> None:
    """Every ticket's number was executed on the current boot exactly once, with its body."""
    runs = [e for e in board.recorder.executed if e.boot == board.boot]
    for ticket in tickets:
        mine = [e for e in runs if e.seq == ticket.seq]
        assert len(mine) == 1, (ticket.seq, ticket.body)
        assert {k: v for k, v in mine[0].body.items() if k not in ("h", "b")} == ticket.body


def test_a_command_submitted_before_the_first_hello_runs(tmp_path: Path) -> None:
    link = BoardLink(str(tmp_path / "ttyACM-tabletap-pico"), board_config={"travel_s": 0.0},
                     backoff=(0.01, 0.05)).start()
    board = SimBoard(directory=tmp_path)
    try:
        ticket = link.submit({"op": "latch", "open": True})
        board.start()
        assert ticket.wait(3) and ticket.ok
        assert [e.body["op"] for e in board.recorder.executed] == ["cfg", "latch"]
        assert_each_ran_once(board, [ticket])
        assert board.recorder.wait_for(lambda: board.firmware.hw.servo.opened)
    finally:
        link.close()
        board.close()


def test_commands_queued_while_the_board_sat_in_its_safe_state_each_run_once() -> None:
    board = SimBoard(seed=1).start()
    link = link_to(board, host_timeout=1.0)
    try:
        board.unplug()
        assert board.recorder.wait_for(lambda: board.firmware.safe, 3)
        bodies = [{"op": "show", "pattern": "turn", "colour": "blue"},
                  {"op": "latch", "open": True}, {"op": "cfg", "hold_ms": 500},
                  {"op": "latch", "open": False}, {"op": "latch", "open": True}]
        tickets = [link.submit(b) for b in bodies]
        board.replug()
        assert link.wait_idle(5)
        assert all(t.ok and t.err is None for t in tickets), [(t.seq, t.err) for t in tickets]
        assert_each_ran_once(board, tickets)
        tail = [e.body for e in board.recorder.executed[-3:]]
        assert [b["op"] for b in tail] == ["cfg", "latch", "latch"]
        assert board.firmware.cfg["hold_ms"] == 500 and board.firmware.hw.servo.opened
    finally:
        link.close()
        board.close()


def test_commands_queued_across_a_board_reset_each_run_once() -> None:
    board = SimBoard(seed=1).start()
    link = link_to(board)
    try:
        board.unplug()
        board.reset()  # a power blip while the cable was out
        tickets = [link.submit({"op": "cfg", "hold_ms": 400}),
                   link.submit({"op": "show", "pattern": "accepted"})]
        assert link.wait_idle(5)
        assert all(t.ok and not t.superseded for t in tickets)
        assert_each_ran_once(board, tickets)
        after = [e.body["op"] for e in board.recorder.executed if e.boot == board.boot]
        assert after[0] == "cfg" and after.count("show") == 2  # the resync's, then ours
        assert board.firmware.cfg["hold_ms"] == 400
        assert all(e.ack == {"ok": True} for e in board.recorder.executed)
    finally:
        link.close()
        board.close()


def test_presses_made_while_no_daemon_listened_are_not_replayed() -> None:
    inputs: deque[InputEvent] = deque()
    board = SimBoard(inputs=inputs, seed=2).start()
    try:
        for _ in range(3):
            inputs.append(InputEvent("end-turn", "press"))
        deadline = time.monotonic() + 3
        while (board.firmware is None or board.levels.busy()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert board.firmware.outbox  # the board holds presses nobody has heard
        link = link_to(board)
        try:
            time.sleep(0.4)  # several event retry periods
            assert link.events() == []
            inputs.append(InputEvent("roll", "press"))  # a press this daemon hears
            deadline = time.monotonic() + 3
            got: list[tuple[str, str]] = []
            while not got and time.monotonic() < deadline:
                got += link.events()
                time.sleep(0.01)
            assert got == [("roll", "press")]
        finally:
            link.close()
    finally:
        board.close()


def test_a_crash_in_the_link_thread_reaches_the_daemon() -> None:
    board = SimBoard(seed=1).start()
    too_long = {f"player-{i}-end-turn-button-on-the-left": i for i in range(12)}
    link = BoardLink(board.port, board_config={"buttons": too_long}, retry=0.02)
    try:
        # Queued before the thread starts, so it waits behind the cfg the hello puts first.
        # Submitted after start(), it raced the thread: one CI run in many, the cfg had
        # already crashed the link, and submit raised LinkCrashed before queuing anything.
        ticket = link.submit({"op": "latch", "open": True})
        link.start()
        assert ticket.wait(3) and ticket.ok is False and "frame too long" in str(ticket.err)
        with pytest.raises(LinkCrashed, match="stopped.*frame too long"):
            link.events()
        with pytest.raises(LinkError, match="frame too long"):
            link.submit({"op": "latch", "open": False})
        with pytest.raises(LinkError):
            link.wait_idle(1)
        assert board.recorder.executed == []
    finally:
        link.close()
        board.close()


def test_a_daemon_that_stops_polling_lets_the_board_lock() -> None:
    board = SimBoard(seed=3).start()
    link = link_to(board, host_timeout=1.0)
    try:
        assert link.submit({"op": "latch", "open": True}).wait(2)
        end = time.monotonic() + 1.5  # three host timeouts of a daemon polling every tick
        while time.monotonic() < end:
            link.events()
            time.sleep(0.05)
        assert not board.firmware.safe
        # The daemon hangs: the link thread stays up, but must stop vouching for it.
        assert board.recorder.wait_for(lambda: board.firmware.safe, 3)
        assert not board.firmware.hw.servo.opened
    finally:
        link.close()
        board.close()
