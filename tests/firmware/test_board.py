"""The board's protocol logic (firmware/board.py), driven frame by frame on a fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from tabletap.firmware import board as fwboard
from tabletap.firmware import main as fwmain
from tabletap.firmware import protocol
from tabletap.firmware import servo as fwservo
from tabletap.sim.board.standins import Levels, Recorder, SimMachine, SimNeoPixelModule

HOST, BOOT = 41, 900


class Pins(Levels):
    def __init__(self) -> None:
        self.low: set[int] = set()

    def level(self, pin: int) -> int:
        return 0 if pin in self.low else 1


class Rig:
    def __init__(self) -> None:
        self.rec = Recorder()
        self.pins = Pins()
        self.out: list[bytes] = []
        self.executed: list[int] = []
        make_hw = fwmain.hardware_factory(SimMachine(self.rec, self.pins),
                                          SimNeoPixelModule(self.rec))
        self.board = fwboard.Board(make_hw, self.out.append, BOOT, 0,
                                   trace=lambda b, s, body, ack: self.executed.append(s))
        self.dec = protocol.Decoder()

    def frames(self) -> list[tuple[str, int, dict[str, Any]]]:
        got = self.dec.feed(b"".join(self.out))
        self.out.clear()
        return got

    def send(self, kind: str, seq: int, body: dict[str, Any], now: int = 1) -> list:
        self.board.receive(protocol.encode(kind, seq, body), now)
        return self.frames()

    def cmd(self, seq: int, now: int = 1, **body: Any) -> dict[str, Any]:
        (frame,) = self.send("cmd", seq, {"h": HOST, "b": BOOT, **body}, now)
        assert frame[:2] == ("ack", seq)
        return frame[2]


@pytest.fixture
def rig() -> Rig:
    r = Rig()
    assert r.frames()[0][0] == "hello"  # said at power-up
    (hello,) = r.send("hello", 0, {"host": HOST})
    assert hello[2]["boot"] == BOOT and hello[2]["host"] == HOST
    assert hello[2]["proto"] == protocol.VERSION
    return r


def test_a_retransmission_is_acknowledged_but_not_run_again(rig: Rig) -> None:
    assert rig.cmd(1, op="latch", open=True) == {"ok": True}
    assert rig.cmd(1, op="latch", open=True) == {"ok": True, "dup": True}
    assert rig.cmd(2, op="latch", open=False) == {"ok": True}
    assert rig.cmd(1, op="latch", open=True)["dup"]  # a very late copy changes nothing
    assert rig.executed == [1, 2] and not rig.board.hw.servo.opened


def test_commands_for_another_session_are_refused(rig: Rig) -> None:
    (ack,) = rig.send("cmd", 1, {"op": "latch", "open": True, "h": HOST, "b": BOOT + 1})
    assert ack[2] == {"ok": False, "err": "session", "boot": BOOT}
    (ack,) = rig.send("cmd", 1, {"op": "latch", "open": True, "h": HOST + 1, "b": BOOT})
    assert ack[2]["err"] == "session"
    assert rig.executed == [] and not rig.board.hw.servo.opened


def test_the_same_host_keeps_its_numbers_a_new_host_starts_afresh(rig: Rig) -> None:
    rig.cmd(5, op="latch", open=True)
    rig.send("hello", 0, {"host": HOST})  # the same host, back after an unplug
    assert rig.cmd(5, op="latch", open=True)["dup"]
    rig.send("hello", 0, {"host": HOST + 1})
    (ack,) = rig.send("cmd", 1, {"op": "latch", "open": False, "h": HOST + 1, "b": BOOT})
    assert ack[2] == {"ok": True} and rig.executed == [5, 1]


def test_a_bad_config_is_refused_and_changes_nothing(rig: Rig) -> None:
    before = dict(rig.board.cfg)
    for bad in ({"min_us": 100}, {"min_us": 2000, "max_us": 1000}, {"open_angle": 120},
                {"pixels": "many"}, {"servo_pin": 16.5}, {"colour": 3}, {"buttons": {"x": 40}},
                {"lid_pin": 16}, {"buttons": {"a": 3, "b": 3}}):
        ack = rig.cmd(len(rig.executed) + 1, op="cfg", **bad)
        assert ack["ok"] is False and ack["err"], bad
    assert rig.board.cfg == before


def test_unknown_ops_and_names_are_refused_once(rig: Rig) -> None:
    assert rig.cmd(1, op="dance")["err"] == "unknown op dance"
    assert rig.cmd(2, op="show", pattern="sparkle")["err"] == "unknown pattern sparkle"
    assert rig.cmd(2, op="show", pattern="sparkle") == {
        "ok": False, "err": "unknown pattern sparkle", "dup": True}
    assert rig.board.hw.ring.pattern == "off"


def test_a_config_with_new_pins_rebuilds_and_keeps_the_latch(rig: Rig) -> None:
    rig.cmd(1, op="latch", open=True)
    rig.board.tick(2)
    assert rig.cmd(2, op="cfg", servo_pin=2, pixels=4, buttons={"go": 7}) == {"ok": True}
    rig.board.tick(3)
    assert rig.board.hw.servo.opened and rig.rec.pwm[-1][1] == 2
    assert [b.name for b in rig.board.hw.inputs] == ["go"]
    assert rig.board.hello_body()["buttons"] == ["go"]


def test_events_are_resent_until_acknowledged(rig: Rig) -> None:
    rig.pins.low.add(14)  # end-turn
    for t in range(2, 60, 2):
        rig.board.tick(t)
    rig.pins.low.clear()
    sent = []
    for t in range(60, 400, 2):
        rig.board.tick(t)
        sent += rig.frames()
    evts = [f for f in sent if f[0] == "evt"]
    assert len(evts) >= 2 and all(f[1] == 1 for f in evts)
    assert evts[0][2] == {"b": BOOT, "name": "end-turn", "kind": "press"}
    rig.send("ack", 1, {}, now=400)
    rig.board.tick(600)
    assert rig.frames() == [] and rig.board.outbox == []


def test_silence_locks_the_latch_and_the_host_is_told_when_it_returns(rig: Rig) -> None:
    rig.cmd(1, op="latch", open=True)
    rig.cmd(2, op="show", pattern="turn", colour="blue")
    rig.board.tick(2999)
    assert not rig.board.safe
    rig.board.tick(3002)
    assert rig.board.safe and not rig.board.hw.servo.opened
    assert rig.board.hw.ring.pattern == "safe"
    rig.board.tick(3050)
    assert rig.rec.colours() == ((255, 120, 0),) * 12
    assert rig.frames() == []  # nothing is sent to a host that is not there
    (pong,) = rig.send("ping", 0, {}, now=5000)
    assert pong[0] == "pong" and pong[2]["safe"] is False
    rig.board.tick(5001)
    (evt,) = rig.frames()
    assert evt[:2] == ("evt", 1) and evt[2]["name"] == "safe" and evt[2]["kind"] == "ended"
    assert not rig.board.hw.servo.opened  # stays locked until the host says otherwise


def test_the_outbox_keeps_the_newest_events(rig: Rig) -> None:
    for _ in range(fwboard.OUTBOX_MAX + 5):
        rig.board.queue_event("roll", "press")
    assert len(rig.board.outbox) == fwboard.OUTBOX_MAX
    assert rig.board.outbox[-1][0] == fwboard.OUTBOX_MAX + 5


def test_an_older_number_is_refused_as_stale_not_acknowledged_as_done(rig: Rig) -> None:
    """A command numbered below the last one run was never run: saying ok would lose it."""
    assert rig.cmd(5, op="show", pattern="turn") == {"ok": True}
    ack = rig.cmd(3, op="latch", open=True)
    assert ack["ok"] is False and ack["err"] == "stale"
    assert rig.executed == [5] and not rig.board.hw.servo.opened
    assert rig.cmd(5, op="show", pattern="turn") == {"ok": True, "dup": True}  # the true repeat


def test_a_reversed_servo_is_accepted_and_driven_the_other_way(rig: Rig) -> None:
    assert rig.cmd(1, op="cfg", min_angle=90, max_angle=-90, open_angle=-60,
                   closed_angle=30, travel_s=0) == {"ok": True}
    rig.board.tick(2)
    closed = rig.rec.duty(16)
    assert rig.cmd(2, op="latch", open=True) == {"ok": True}
    rig.board.tick(3)
    opened = rig.rec.duty(16)
    # min_us drives min_angle (90): closed (30 deg) sits nearer min_us than open (-60 deg) does.
    assert closed == fwservo.duty_u16(500 + 60 / 180 * 2000)
    assert opened == fwservo.duty_u16(500 + 150 / 180 * 2000)
    for bad in ({"max_angle": 90}, {"open_angle": 120}):
        assert rig.cmd(len(rig.executed) + 1, op="cfg", **bad)["ok"] is False, bad


def test_presses_nobody_heard_are_not_replayed_to_a_new_host() -> None:
    r = Rig()
    r.frames()
    r.board.queue_event("end-turn", "press")  # no host bound yet (the daemon is starting)
    r.board.tick(1)
    assert r.frames() == []
    r.send("hello", 0, {"host": HOST})
    r.board.tick(2)
    assert [f for f in r.frames() if f[0] == "evt"] == []
    r.board.queue_event("roll", "press")  # now for this host: delivered, also after a replug
    r.send("hello", 0, {"host": HOST}, now=3)
    r.board.tick(4)
    evts = [f for f in r.frames() if f[0] == "evt"]
    assert [e[2]["name"] for e in evts] == ["roll"]
    r.send("hello", 0, {"host": HOST + 1}, now=5)  # another daemon: not its press
    r.board.tick(200)
    assert [f for f in r.frames() if f[0] == "evt"] == [] and r.board.outbox == []


def test_presses_in_the_safe_state_are_dropped(rig: Rig) -> None:
    rig.board.tick(3002)
    assert rig.board.safe
    rig.board.queue_event("end-turn", "press")
    assert rig.board.outbox == []
    rig.send("ping", 0, {}, now=3100)
    rig.board.tick(3101)
    assert [(f[2]["name"], f[2]["kind"]) for f in rig.frames() if f[0] == "evt"] == [
        ("safe", "ended")]


def test_the_repl_op_is_acknowledged_then_asks_main_for_the_reset(rig: Rig) -> None:
    assert not rig.board.repl_requested
    assert rig.cmd(1, op="repl") == {"ok": True}
    assert rig.board.repl_requested
