"""The daemon loop's one wait (table/waiter.py): console lines, a reader's answer and another
thread's news end it at once; a request is served during it and the wait goes on; with nothing
happening it lasts its time. And the pause itself (Daemon.pause) is stretched only on a quiet
table."""

from __future__ import annotations

import json
import math
import os
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tabletap.controller.control_socket.server import ControlServer, request
from tabletap.controller.table.daemon import Daemon
from tabletap.controller.table.waiter import CONSOLE, READER, WAKE, Console, LoopWaiter


class _Fd:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


def test_console_lines_end_the_wait_at_once_and_are_handed_over_whole() -> None:
    r, w = os.pipe()
    os.set_blocking(r, False)
    got: list[str | None] = []
    waiter = LoopWaiter(Console(r), got.extend)
    try:
        os.write(w, b"tap magic-keys/key/gold\npress end")
        started = time.monotonic()
        assert waiter.wait(30.0, [], None, None) == CONSOLE
        assert time.monotonic() - started < 5
        assert got == ["tap magic-keys/key/gold"]  # the half line waits for its end
        os.write(w, b"-turn\n")
        assert waiter.wait(30.0, [], None, None) == CONSOLE
        os.close(w)
        assert waiter.wait(30.0, [], None, None) == CONSOLE
        assert got == ["tap magic-keys/key/gold", "press end-turn", None]  # None: end of input
    finally:
        waiter.close()
        os.close(r)


def test_a_reader_answer_ends_the_wait_and_nothing_lasts_its_time() -> None:
    r, w = os.pipe()
    waiter = LoopWaiter()
    try:
        started = time.monotonic()
        assert waiter.wait(0.05, [_Fd(r)], None, None) is None
        assert time.monotonic() - started >= 0.045
        os.write(w, b"\x01")
        assert waiter.wait(30.0, [_Fd(r)], None, None) == READER
        # a timer sooner than the wait's own time ends it then
        os.read(r, 1)
        started = time.monotonic()
        assert waiter.wait(30.0, [_Fd(r)], None, None, [time.monotonic() + 0.05]) is None
        assert time.monotonic() - started < 5
    finally:
        waiter.close()
        os.close(r)
        os.close(w)


def test_another_threads_news_wakes_the_wait() -> None:
    waiter = LoopWaiter()
    try:
        threading.Timer(0.05, waiter.wake).start()
        started = time.monotonic()
        assert waiter.wait(30.0, [], None, None) == WAKE
        assert time.monotonic() - started < 5
    finally:
        waiter.close()


def test_a_request_is_served_during_the_wait_which_goes_on(tmp_path: Path) -> None:
    server = ControlServer(tmp_path / "control.sock", lambda req: {"ok": True})
    r, w = os.pipe()
    waiter = LoopWaiter()
    seen: dict[str, object] = {}

    def console() -> None:
        seen["answer"] = request(server.path, {"state": True}, timeout=5.0)
        os.write(w, b"\x01")  # then a tag: the wait ends

    thread = threading.Thread(target=console)
    thread.start()
    try:
        assert waiter.wait(60.0, [_Fd(r)], server.sockets, server.serve_pending) == READER
        thread.join(10)
        assert seen["answer"] == {"ok": True}
    finally:
        waiter.close()
        server.close()
        os.close(r)
        os.close(w)


def test_a_reader_stays_registered_while_its_handle_is_the_same_and_a_new_one_is_seen(
) -> None:
    """A reader's handle is registered once for as long as it is the same object (two
    `epoll_ctl` a pass saved); a new handle on a reused descriptor number, a port closed and
    opened again, is registered afresh and its answer ends the wait."""
    r, w = os.pipe()
    waiter = LoopWaiter()
    calls: list[str] = []
    real = waiter._selector
    register, unregister = real.register, real.unregister

    def counting_register(fd, events, data=None):  # type: ignore[no-untyped-def]
        calls.append("register")
        return register(fd, events, data)

    def counting_unregister(fd):  # type: ignore[no-untyped-def]
        calls.append("unregister")
        return unregister(fd)

    real.register, real.unregister = counting_register, counting_unregister  # type: ignore
    try:
        handle = _Fd(r)
        for _ in range(3):
            assert waiter.wait(0.01, [handle], None, None) is None
        assert calls == ["register"]
        os.close(r)
        os.close(w)
        r, w = os.pipe()  # the lowest free numbers: the same as before
        assert r == handle.fd
        os.write(w, b"\x01")
        assert waiter.wait(30.0, [_Fd(r)], None, None) == READER
        assert calls == ["register", "unregister", "register"]
    finally:
        waiter.close()
        os.close(r)
        os.close(w)


def test_a_held_answer_is_served_at_its_moment_and_the_wait_goes_on() -> None:
    """`serve_due` (ControlServer.due: a stream's held answer) is a moment to serve the requests at,
    not the end of the pause: the readers get no pass for it."""
    waiter = LoopWaiter()
    served: list[float] = []
    started = time.monotonic()
    dues = [started + 0.05]
    try:
        got = waiter.wait(0.3, [], lambda: [], lambda: served.append(time.monotonic()),
                          serve_due=lambda: dues.pop() if dues else None)
        ended = time.monotonic()
        assert got is None
        assert len(served) == 1 and served[0] >= started + 0.05
        assert ended - started >= 0.3  # the whole pause, not cut at the held answer
    finally:
        waiter.close()


def test_a_loop_with_no_time_left_still_takes_a_new_console(tmp_path: Path) -> None:
    """The loop takes no new console after its passes (serve_pending(accept=False)), so a
    wait with its time already spent (a slow pass) still asks the selector, without waiting,
    and serves what came."""
    server = ControlServer(tmp_path / "control.sock", lambda req: {"ok": True})
    waiter = LoopWaiter()
    seen: dict[str, object] = {}
    thread = threading.Thread(
        target=lambda: seen.update(answer=request(server.path, {"state": True}, timeout=5.0)))
    thread.start()
    try:
        deadline = time.monotonic() + 5
        while "answer" not in seen and time.monotonic() < deadline:
            server.serve_pending(accept=False)  # the pass's own call: takes nobody new
            assert waiter.wait(0.0, [], server.sockets, server.serve_pending) is None
            time.sleep(0.01)
        thread.join(10)
        assert seen["answer"] == {"ok": True}
    finally:
        waiter.close()
        server.close()


def test_after_a_pass_the_loop_leaves_new_consoles_to_its_wait(tmp_path: Path) -> None:
    server = ControlServer(tmp_path / "control.sock", lambda req: {"ok": True})
    import socket
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(str(server.path))
        client.sendall(b'{"state": true}\n')
        server.serve_pending(accept=False)
        assert server.clients == []
        server.serve_pending()
        client.settimeout(5)
        assert json.loads(client.recv(4096)) == {"ok": True}
    finally:
        client.close()
        server.close()


class _Reader:
    def __init__(self, due: float | None) -> None:
        self.name = "chest"
        self.due = due

    def renewal_due(self) -> float | None:
        return self.due

    def poll(self) -> object:
        raise AssertionError("not polled here")


def _daemon(quiet: bool | float, due: float | None) -> Daemon:
    """`quiet`: True for no timer, False for one of no known time (a resting pattern, a
    gesture's time-out), a number for the moment of the session's soonest timer."""
    clock = SimpleNamespace(now=lambda: 100.0)
    wakes = math.inf if quiet is True else None if quiet is False else quiet
    session = SimpleNamespace(wakes_at=lambda: wakes)
    return Daemon(session, {"chest": _Reader(due)}, SimpleNamespace(),  # type: ignore[arg-type]
                  clock, SimpleNamespace())  # type: ignore[arg-type]


def test_the_pause_is_stretched_to_the_next_timer_only_on_a_quiet_table() -> None:
    assert _daemon(True, 100.5).pause(0.1, 0.06, 0.02, idle_limit=1.0) == 0.5  # the renewal
    assert _daemon(True, 130.0).pause(0.1, 0.06, 0.02, idle_limit=1.0) == 1.0  # the limit
    assert _daemon(False, 100.5).pause(0.1, 0.06, 0.02, idle_limit=1.0) == 0.1  # a timer runs
    assert _daemon(True, None).pause(0.1, 0.06, 0.02, idle_limit=1.0) == 0.1  # not waiting
    assert _daemon(True, 100.5).pause(0.1, 0.06, 0.02, idle_limit=None) == 0.1  # buttons


def test_an_open_chest_is_relocked_at_its_time_not_looked_at_every_poll_period() -> None:
    """The relock and the lights' feedback are timers of a known time (TableSession.wakes_at):
    the pause ends at the soonest, where before the loop passed every poll period while one
    ran, fifty passes for the box's five seconds of an open chest."""
    assert _daemon(104.0, 100.5).pause(0.1, 0.06, 0.02, idle_limit=1.0) == 0.5  # the renewal
    assert _daemon(100.3, 100.5).pause(0.1, 0.06, 0.02, idle_limit=1.0) == pytest.approx(0.3)
    assert _daemon(100.05, 100.5).pause(0.1, 0.06, 0.02, idle_limit=1.0) == 0.1  # the pace


def test_a_stretched_pause_ends_at_the_renewal_however_long_the_pass_took() -> None:
    # The pass began at 99.99 and it is now 100.0; the loop (commands/run.py) takes the pass's
    # 10 ms off the pause, which must still end at the renewal, 100.5. Counted from now, it
    # ended 10 ms early: the renewal was not due, and the loop slept a poll period more.
    started, now = 99.99, 100.0
    wait = _daemon(True, 100.5).pause(0.1, 0.06, 0.02, idle_limit=1.0, started=started)
    assert now + wait - (now - started) == pytest.approx(100.5)
    limit = _daemon(True, 130.0).pause(0.1, 0.06, 0.02, idle_limit=1.0, started=started)
    assert started + limit == pytest.approx(100.99)  # the watchdog's limit, from the pass


def test_an_empty_tables_timers_agree_so_one_pass_a_second_serves_them_all() -> None:
    """On an empty table the loop passes for three things: its own longest pause (the
    watchdog's ping), the Pico link's limit on how long it may go without asking for presses,
    and the armed listings' renewal. With the defaults all three are a second, and a pass a
    little before a renewal renews (reader.RENEWAL_SLACK): one pass a second. Before, the
    Pico's limit was 0.75 s and the renewal 0.5 s: two passes a second, the loop's idle CPU
    0.95-1.06 ms a second against 0.64 now (bench.live.stopwatch --idle 20)."""
    from tabletap.controller.settings.config import ReaderConfig, SerialConfig
    from tabletap.controller.table.daemon import IDLE_PAUSE
    from tabletap.hw.serial_link.backend import SerialButtons

    link = SimpleNamespace(host_timeout=SerialConfig().host_timeout, on_event=None)
    limit = SerialButtons(link).idle_limit  # type: ignore[arg-type]
    assert limit == IDLE_PAUSE == ReaderConfig().arm == 1.0
    # ...and the link still takes the daemon for alive: it polls well within half the timeout
    assert limit + 0.25 < SerialConfig().host_timeout / 2
